"""The command line: estimate / evaluate / sweep / list / calibrate, run in-process through main(argv) and as
``python -m tpot_model`` subprocesses (exit codes, one-line errors, no tracebacks)."""

from __future__ import annotations

import csv
import datetime
import io
import json
import math
import subprocess
import sys
import types
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tpot_model import Scenario, cli, csv_format  # noqa: E402
from tpot_model.cli import main  # noqa: E402
from tpot_model.profiles import load_profiles  # noqa: E402

LLAMA70_FP16 = ["--model", "llama-2-70b", "--hardware", "h100-sxm", "--weights", "fp16", "--kv", "fp16"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *argv: str) -> dict:
    code, out, err = run(capsys, "estimate", *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def run_subprocess(*argv: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env_path = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "tpot_model", *map(str, argv)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
    )


def read_csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------------------------------- estimate


def test_estimate_json_llama2_70b_fp16_on_one_h100_ideal(capsys):
    r = run_json(capsys, *LLAMA70_FP16, "--profile", "ideal")
    assert r["tpot_ms"] == pytest.approx(41.2, rel=0.01)
    assert r["tpot_s"] == pytest.approx(r["tpot_ms"] / 1000)
    assert r["fits"] is False
    assert r["min_gpus"] == 2
    assert round(r["weights_GB"], 2) == 137.95
    assert r["weights_bytes"] == pytest.approx(r["weights_GB"] * 1e9)
    assert r["tpot_ideal_ms"] == r["tpot_ms"]  # the ideal profile is its own physical bound
    assert r["bound"] == "memory"
    assert r["compute_precision"] == "fp16" and r["compute_fallback"] is False
    assert r["max_batch"] == 0
    assert r["remedy"].startswith("does not fit on 1 x NVIDIA H100")
    assert "needs >= 2 GPUs" in r["remedy"] and "fp8" in r["remedy"]
    # the decomposition sums to TPOT, in both units, and the percentages to 100
    assert sum(r["breakdown_s"].values()) == pytest.approx(r["tpot_s"], rel=1e-12)
    assert sum(r["breakdown_ms"].values()) == pytest.approx(r["tpot_ms"], rel=1e-12)
    assert sum(r["breakdown_percent"].values()) == pytest.approx(100.0)
    assert set(r["breakdown_ms"]) == {"weights", "kv_cache", "compute", "communication", "overhead"}
    # SI / display pairs agree
    assert r["ttft_ms"] == pytest.approx(r["ttft_s"] * 1000)
    assert r["tokens_per_s_per_user"] == pytest.approx(1000 / r["tpot_ms"])
    # issue 18: the fit gate starts from nvidia-smi's 79.6 GiB (81,559 MiB), not the datasheet's "80 GB": 85.47 GB for
    # the ideal bound (no engine reservation, fraction 1)
    assert r["memory_per_gpu_GB"] > r["usable_memory_per_gpu_GB"] == pytest.approx(79.6 * 2**30 / 1e9)


def test_estimate_json_two_gpus_fits_and_typical_is_slower_than_bound(capsys):
    r = run_json(capsys, *LLAMA70_FP16, "--gpus", "4", "--batch", "8", "--context", "2048", "--output-tokens", "128")
    assert r["fits"] is True and r["remedy"] is None
    assert r["profile"] == "typical"
    assert r["tpot_ms"] > r["tpot_ideal_ms"] > 0
    assert r["tokens_per_s_total"] == pytest.approx(8 * r["tokens_per_s_per_user"])
    assert r["tokens_per_s_per_gpu"] == pytest.approx(r["tokens_per_s_total"] / 4)
    assert r["time_to_serve_s"] == pytest.approx(r["ttft_s"] + 127 * r["tpot_s"])
    assert r["breakdown_ms"]["communication"] > 0
    assert r["kv_cache_GB"] < r["kv_cache_peak_GB"]
    # KV cache of Llama 2 70B: 80 layers * 2 * 8 heads * 128 * 2 bytes = 327,680 bytes per token
    assert r["kv_cache_bytes"] == pytest.approx(8 * 2048 * 327_680)
    assert r["usd_per_1M_tokens"] == pytest.approx(2.49 * 4 / 3600 * r["tpot_s"] / 8 * 1e6)


def test_estimate_price_option_and_missing_price(capsys):
    r = run_json(capsys, "--model", "llama-3.1-8b", "--hardware", "tpu-v5e")
    assert r["usd_per_1M_tokens"] is None and r["price_usd_per_gpu_hour"] is None
    code, out, _ = run(capsys, "estimate", "--model", "llama-3.1-8b", "--hardware", "tpu-v5e")
    assert code == 0 and "n/a (no published price for tpu-v5e in any basis" in out  # no basis prices it
    r = run_json(capsys, "--model", "llama-3.1-8b", "--hardware", "tpu-v5e", "--price", "1.2", "--batch", "4")
    assert r["usd_per_1M_tokens"] == pytest.approx(1.2 / 3600 * r["tpot_s"] / 4 * 1e6)
    assert r["joules_per_token"] > 0
    # a price of -0 is 0 (helper review: '$-0.00 per GPU-hour', '$-0' had been printed)
    code, out, _ = run(capsys, "estimate", "--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--price", "-0")
    assert code == 0 and "$0.00 per GPU-hour" in out and "-0" not in out
    assert math.copysign(1.0, Scenario(price_usd_per_gpu_hour=-0.0).price_usd_per_gpu_hour) == 1.0


def test_estimate_text_says_the_engine_date_it_ran_at(capsys):
    """Helper review: --as-of changed the profile's values but only the JSON said so (engine_as_of); the text's first
    line names it, and one output token is singular."""
    args = ["estimate", "--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--profile", "llama.cpp"]
    code, out, _ = run(capsys, *args, "--as-of", "2024-05-01")
    first = out.split("\n")[0]
    assert code == 0 and "profile llama.cpp as of 2024-05-01 (" in first and first.endswith("1 output token")
    code, out, _ = run(capsys, *args)
    assert code == 0 and "profile llama.cpp |" in out.split("\n")[0]
    assert (
        "whole-batch prefill (1 prompt) " in out and "(1 GPU) " in out
    )  # one of each, singular (had read '1 prompts')
    code, out, _ = run(capsys, *args, "--batch", "1200", "--gpus", "2")
    assert "whole-batch prefill (1,200 prompts)" in out and "on 2 GPUs" in out and "batch 1,200, context" in out
    code, out, _ = run(capsys, *args, "--batching", "continuous")
    assert "continuous batching: 1 request in flight," in out.split("\n")[0]


def test_as_of_says_whose_values_it_ran_at(capsys):
    """A date before every revision runs at the earliest revision's values, a date past them all (or an engine with
    no dated history) at the newest: the text, the JSON, evaluate's rows and sweep's scenario columns say which (an
    engine with no history had read 'as of 2020-01-01' over its newest values)."""
    args = ["estimate", "--model", "llama-3.1-8b", "--hardware", "h100-sxm"]
    until = min(load_profiles()["llama.cpp"].revision_dates)
    for profile, day, whose in (("llama.cpp", "2020-01-01", f"before {until}"), ("llama.cpp", "2099-01-01", "newest"),
                                ("vllm", "2020-01-01", "newest")):  # fmt: skip
        code, out, _ = run(capsys, *args, "--profile", profile, "--as-of", day)
        said = "its newest values" if whose == "newest" else f"its values {whose}"
        assert code == 0 and f"profile {profile} as of {day} ({said}) |" in out.split("\n")[0]
        r = run_json(capsys, *args[1:], "--profile", profile, "--as-of", day)
        assert (r["engine_as_of"], r["engine_values"]) == (day, whose)
    assert run_json(capsys, *args[1:], "--profile", "llama.cpp")["engine_values"] == "newest"
    old = run_json(capsys, *args[1:], "--profile", "llama.cpp", "--as-of", "2020-01-01")
    eve = (datetime.date.fromisoformat(until) - datetime.timedelta(days=1)).isoformat()  # the revision's last day
    assert old["tpot_ms"] == run_json(capsys, *args[1:], "--profile", "llama.cpp", "--as-of", eve)["tpot_ms"]


def test_estimate_text_serves_in_the_time_its_json_says(capsys):
    """Static batching: the text's time to serve had been continuous batching's per-request figure (23.21 s) beside
    the JSON's and evaluate's 33.21 s for the batch; each mode now says whose time it is, the JSON's."""
    args = ["--model", "llama-3.1-70b", "--hardware", "h200", "--gpus", "2", "--weights", "fp8", "--batch", "32",
            "--context", "4096", "--output-tokens", "1024"]  # fmt: skip
    for batching, whose in (("static", "the batch, its prefill first"), ("continuous", "a request")):
        r = run_json(capsys, *args, "--batching", batching)
        code, out, _ = run(capsys, "estimate", *args, "--batching", batching)
        (line,) = [x for x in out.splitlines() if "time to serve" in x]
        assert f"1,024 output tokens ({whose})" in line
        assert float(line.split()[-2].replace(",", "")) == pytest.approx(r["time_to_serve_s"], rel=5e-3), line
        # and, static, what one user waits as engines serve (Overview's figure; a review: only the JSON had it)
        one = [x for x in out.splitlines() if "one request (continuous batching)" in x]
        assert len(one) == (batching == "static")
        if one:
            assert float(one[0].split()[-2]) == pytest.approx(r["time_to_serve_per_request_s"], rel=5e-3)


def test_estimate_table_is_readable(capsys):
    code, out, err = run(capsys, "estimate", *LLAMA70_FP16)
    assert code == 0 and err == ""
    for text in (
        "GB = 1e9 bytes",
        "TPOT (time per output token)",
        "tokens/s per user",
        "tokens/s per GPU",
        "TTFT",
        "time to serve",
        "physical bound (ideal profile)",
        "TPOT decomposition",
        "KV cache",
        "communication",
        "overhead",
        "arithmetic intensity",
        "ridge point",
        "fits",
        "NO",
        "min GPUs",
        "max batch",
        "$ per 1M output tokens",
        "J/token",
        "compute precision",
    ):
        assert text in out, text
    assert "does not fit on 1 x NVIDIA H100 SXM5 80GB: needs >= 2 GPUs" in out
    assert "lower precision e.g. fp8" in out
    # said before the speed it qualifies, not only 30 lines down under Memory (a review: TPOT read bare)
    lines = out.splitlines()
    warn = next(i for i, line in enumerate(lines) if line.startswith("Does not fit on 1 x NVIDIA H100 SXM5 80GB"))
    assert warn < lines.index("Speed") and lines[warn].endswith("what it would run at if it fitted.")
    assert "137.95 GB" in out
    # the decomposition rows add up to the printed total
    rows = [line.split() for line in out.splitlines() if line.strip().endswith("%")]
    assert len(rows) == 6 and rows[-1][0] == "total"
    assert sum(float(r[-2]) for r in rows[:-1]) == pytest.approx(float(rows[-1][-2]), abs=0.01)


def test_estimate_notes_compute_fallback(capsys):
    r = run_json(capsys, "--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--weights", "fp4")
    assert r["compute_requested"] == "fp4" and r["compute_precision"] == "bf16" and r["compute_fallback"] is True
    code, out, _ = run(capsys, "estimate", "--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--weights", "fp4")
    assert "bf16 (fp4 requested" in out
    r = run_json(capsys, "--model", "llama-3.1-8b", "--hardware", "b200", "--weights", "fp4")
    assert r["compute_precision"] == "fp4" and r["compute_fallback"] is False
    r = run_json(capsys, "--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--weights", "4.5", "--compute", "fp8")
    assert r["weights_bits"] == 4.5 and r["compute_precision"] == "fp8"


def test_estimate_says_when_context_and_output_pass_the_models_window(capsys):
    """Llama 3.1 reads 131,072 tokens: 131,000 + 72 is at the edge, one token more is beyond it (as on the pages)."""
    base = ["--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--context", "131000"]
    r = run_json(capsys, *base, "--output", "72")
    assert r["model_max_context_tokens"] == 131_072 and r["beyond_context_window"] is False
    r = run_json(capsys, *base, "--output", "73")
    assert r["beyond_context_window"] is True
    _, out, _ = run(capsys, "estimate", *base, "--output", "73")
    assert "Note: context + output = 131,073 tokens, beyond Llama 3.1 8B's 131,072-token window" in out
    _, out, _ = run(capsys, "estimate", *base, "--output", "72")
    assert "Note:" not in out


def test_estimate_remedy_suggests_batch_or_kv_precision(capsys):
    r = run_json(capsys, "--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--batch", "64", "--context", "8192")
    assert r["fits"] is False
    assert 1 <= r["max_batch"] < 64
    assert f"batch <= {r['max_batch']}" in r["remedy"]
    assert "--kv fp8" in r["remedy"]


def test_no_gpu_count_says_why_more_gpus_do_not_help_and_what_would(capsys):
    """A review: DeepSeek-R1 FP4 at batch 64 and 8K + 1K on small-memory chips read 'needs > 1,024 GPUs' (the Hardware
    page) or 'no tensor-parallel size up to 1024 GPUs holds it' (here), as if a larger cluster would do. Tensor
    parallelism does not split MLA's latent KV cache: every GPU keeps all of it (41.4 GB in BF16 here, past an L40S's
    38.8 GB usable), so more GPUs stop helping. estimate.no_gpu_count says so, with the FP8 KV cache that would hold
    it and on how many GPUs; the remedy says it in words."""
    from tpot_model import estimate, resolve_hardware, resolve_model, resolve_profile
    from tpot_model.estimate import NoGpuCount, no_gpu_count

    m, typical = resolve_model("deepseek-r1"), resolve_profile("typical")
    s = Scenario(batch=64, context_tokens=8192, output_tokens=1024, num_gpus=2, weights="fp4")
    e = estimate(m, resolve_hardware("l40s"), s, typical)
    assert math.isnan(float(e.min_gpus)) and float(e.kv_cache_peak_bytes_per_gpu) > float(e.usable_memory_per_gpu_bytes)
    none = no_gpu_count(e)
    assert (none.cache_ways, none.kv_cache.name, none.kv_gpus) == (1, "fp8", 32)
    fp8 = [estimate(m, resolve_hardware("l40s"), replace(s, kv_cache="fp8", num_gpus=n), typical) for n in (16, 32)]
    assert [bool(x.fits) for x in fp8] == [False, True]  # 32 the fewest, by hand
    assert no_gpu_count(estimate(m, resolve_hardware("rtx-4090"), s, typical)) == NoGpuCount(1, None, None)
    assert no_gpu_count(estimate(m, resolve_hardware("b200"), s, typical)) is None  # 8 B200s hold it
    r = run_json(capsys, "--model", "deepseek-r1", "--hardware", "l40s", "--gpus", "2", "--weights", "fp4",
                 "--batch", "64", "--context", "8192", "--output-tokens", "1024")  # fmt: skip
    assert (
        "no tensor-parallel size up to 1024 GPUs holds it at this batch and context: tensor parallelism does not "
        "split DeepSeek-R1's KV cache (every GPU keeps all of it), so more GPUs stop helping; lower the batch or the "
        "context, or fp8 KV cache (--kv fp8) on >= 32 GPUs (--gpus 32)"
    ) in r["remedy"]
    assert "alone is not enough" not in r["remedy"]  # the FP8 cache is enough, on 32
    # a model whose KV heads split: at most that many ways (Llama 3.1 405B's 8 KV heads, on 16 GB TPU v5e chips)
    e = estimate(resolve_model("llama-3.1-405b"), resolve_hardware("tpu-v5e"), Scenario(batch=32, context_tokens=4096,
                 output_tokens=1024, weights="fp8"), typical)  # fmt: skip
    assert no_gpu_count(e).cache_ways == 8


def test_estimate_reads_model_and_hardware_files(capsys, tmp_path):
    config = {
        "model_type": "llama",
        "num_hidden_layers": 4,
        "hidden_size": 256,
        "num_attention_heads": 8,
        "num_key_value_heads": 2,
        "intermediate_size": 512,
        "vocab_size": 1000,
        "max_position_embeddings": 4096,
    }
    model_dir = tmp_path / "tiny-llama"
    model_dir.mkdir()
    write(model_dir / "config.json", json.dumps(config))
    hw = write(
        tmp_path / "my-gpu.yaml",
        "my-gpu:\n  name: My GPU\n  memory_GB: 10\n  memory_bandwidth_TB_per_s: 1\n"
        "  dense_TFLOP_per_s: {bf16: 100}\n  price_usd_per_hour: 1.0\n  tdp_W: 100\n",
    )
    r = run_json(capsys, "--model", model_dir / "config.json", "--hardware", hw, "--profile", "ideal")
    assert r["model"] == "tiny-llama" and r["hardware"] == "my-gpu" and r["fits"] is True
    assert r["usd_per_1M_tokens"] == pytest.approx(1.0 / 3600 * r["tpot_s"] * 1e6)


@pytest.mark.parametrize("what", ["estimate", "evaluate", "sweep", "list"])
def test_help_exits_zero(capsys, what):
    code, out, _ = run(capsys, what, "--help")
    assert code == 0 and "usage:" in out


def test_the_list_of_commands_names_every_command(capsys):
    """capacity ran but the top-level help did not list it (nor did a wrong command's message)."""
    _, out, _ = run(capsys, "--help")
    listed = {line.split()[0] for line in out.splitlines() if line.startswith("    ") and line.split()}
    assert set(cli.DELEGATES) | {"estimate", "evaluate", "sweep", "list"} <= listed
    assert run(capsys, "capacity", "--help")[0] == 0


def test_sweep_help_documents_ranges(capsys):
    _, out, _ = run(capsys, "sweep", "--help")
    assert "log-spaced" in " ".join(out.split()) and "A:B:COUNT" in out


# --------------------------------------------------------------------------------------------------- evaluate

SCENARIOS = (
    "model,hardware,num_gpus,weights,kv_cache,batch,context_tokens,output_tokens,profile,note\n"
    "llama-2-70b,h100-sxm,1,fp16,fp16,1,0,1,ideal,does not fit\n"
    "llama-3.1-8b,h100-sxm,2,fp8,fp8,16,4096,256,typical,fits\n"
    'mixtral-8x7b,a100-80gb-sxm,,,,,,,,"defaults, quoted"\n'
)


def test_evaluate_three_rows_matches_estimate_exactly(capsys, tmp_path):
    src = write(tmp_path / "scenarios.csv", SCENARIOS)
    out_path = tmp_path / "results.csv"
    code, _, err = run(capsys, "evaluate", src, "-o", out_path)
    assert code == 0, err
    rows = read_csv(out_path.read_text())
    assert len(rows) == 3
    header = next(csv.reader(io.StringIO(out_path.read_text())))
    assert header[:10] == SCENARIOS.splitlines()[0].split(",")  # input columns first, in order
    for col in cli.RESULT_COLUMNS:
        assert col in header

    first, second, third = rows
    assert first["fits"] == "false" and first["min_gpus"] == "2" and first["note"] == "does not fit"
    assert first["beyond_context_window"] == second["beyond_context_window"] == "false"
    assert second["fits"] == "true" and second["min_gpus"] == "1"
    assert third["note"] == "defaults, quoted" and third["num_gpus"] == ""  # passed through as given

    cases = [
        (first, [*LLAMA70_FP16, "--profile", "ideal"]),
        (
            second,
            ["--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--gpus", "2", "--weights", "fp8", "--kv", "fp8"]
            + ["--batch", "16", "--context", "4096", "--output-tokens", "256"],
        ),
        (third, ["--model", "mixtral-8x7b", "--hardware", "a100-80gb-sxm"]),  # empty cells take the defaults
    ]
    for row, argv in cases:
        r = run_json(capsys, *argv)
        for col in cli.RESULT_COLUMNS:
            if col.startswith("tpot_") and col.endswith("_ms") and col.removeprefix("tpot_")[:-3] in r["breakdown_ms"]:
                expected = r["breakdown_ms"][col.removeprefix("tpot_")[:-3]]
            else:
                expected = r[col]
            cell = row[col]
            if isinstance(expected, bool):
                assert cell == str(expected).lower(), col
            elif isinstance(expected, str):
                assert cell == expected, col
            elif expected is None:
                assert cell == "", col
            else:  # exactly the report's value, written with 7 significant digits (not repr's 17: helper review)
                assert cell == csv_format.float_text(expected), col


def test_evaluate_reads_a_byte_order_mark_on_stdin(capsys, monkeypatch):
    """A spreadsheet's CSV piped in: its byte-order mark had made the header's first column '\ufeffmodel' ('missing
    required column 'model' (found: model, hardware)'); a file is read as utf-8-sig already."""
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("\ufeffmodel,hardware\nllama-3.1-8b,h100-sxm\n"))
    code, out, err = run(capsys, "evaluate", "-")
    assert code == 0, err
    (row,) = read_csv(out)
    assert row["model"] == "llama-3.1-8b" and float(row["tpot_ms"]) > 0


def test_evaluate_to_stdout_and_unknown_columns_pass_through(capsys, tmp_path):
    src = write(
        tmp_path / "s.csv",
        "id,model,hardware,batch,price_usd_per_gpu_hour,compute,extra\n"
        "a,llama-3.1-8b,tpu-v5e,4,,,x\n"
        "b,llama-3.1-8b,tpu-v5e,4,2.0,,y\n"
        "c,llama-3.1-8b,h100-sxm,4,,fp8,z\n",
    )
    code, out, err = run(capsys, "evaluate", src, "-o", "-")
    assert code == 0, err
    rows = read_csv(out)
    assert [r["id"] for r in rows] == ["a", "b", "c"] and [r["extra"] for r in rows] == ["x", "y", "z"]
    assert rows[0]["usd_per_1M_tokens"] == ""  # no catalog price, none given
    assert float(rows[1]["usd_per_1M_tokens"]) == pytest.approx(2.0 / 3600 * float(rows[1]["tpot_ms"]) / 1000 / 4 * 1e6)
    assert rows[2]["compute_precision"] == "fp8"
    assert rows[0]["bound"] in ("memory", "compute")


def test_evaluate_names_each_rows_price_basis_and_date(capsys, tmp_path):
    """Issue 20: every evaluated row says which price its $ rests on: price_basis (the row's, else on_demand) and
    price_as_of (the date of that price in data/prices.yaml; empty without a public price or for one's own)."""
    from tpot_model.prices import load_prices

    src = write(
        tmp_path / "s.csv",
        "model,hardware,price_basis,price_usd_per_gpu_hour\n"
        "llama-3.1-8b,h200,,\n"
        "llama-3.1-8b,h200,hyperscaler,\n"
        "llama-3.1-8b,trainium2,hyperscaler,\n"
        "llama-3.1-8b,h200,custom,3.0\n",
    )
    code, out, err = run(capsys, "evaluate", src, "-o", "-")
    assert code == 0, err
    rows = read_csv(out)
    h200 = load_prices()["h200"]
    assert [r["price_basis"] for r in rows] == ["on_demand", "hyperscaler", "hyperscaler", "custom"]
    assert [r["price_as_of"] for r in rows] == [
        h200.price("on_demand").as_of, h200.price("hyperscaler").as_of, "", "",
    ]  # fmt: skip
    assert rows[1]["price_as_of"] == "2026-09-20" and rows[2]["usd_per_1M_tokens"] == ""


def test_evaluate_resolves_files_next_to_the_csv(capsys, tmp_path):
    write(
        tmp_path / "gpu.yaml",
        "name: Lab GPU\nmemory_GB: 24\nmemory_bandwidth_TB_per_s: 1\ndense_TFLOP_per_s: {bf16: 100}\n",
    )
    src = write(tmp_path / "s.csv", "model,hardware\nllama-3.1-8b,gpu.yaml\n")
    code, out, err = run(capsys, "evaluate", src)
    assert code == 0, err
    assert read_csv(out)[0]["fits"] == "true"


def test_evaluate_skips_blank_rows_and_header_only_file(capsys, tmp_path):
    src = write(tmp_path / "s.csv", "model,hardware\n\nllama-3.1-8b,h100-sxm\n,\n")
    code, out, _ = run(capsys, "evaluate", src)
    assert code == 0 and len(read_csv(out)) == 1
    src = write(tmp_path / "h.csv", "model,hardware\n")
    code, out, _ = run(capsys, "evaluate", src)
    assert code == 0 and out.startswith("model,hardware,tpot_ms") and len(read_csv(out)) == 0


# --------------------------------------------------------------------------------------------------- sweep


def test_parse_range():
    assert cli.parse_range("1:256", log=False, minimum=1).tolist() == list(range(1, 257))
    ctx = cli.parse_range("128:131072", log=True, minimum=0)
    assert ctx.size == 256 and ctx[0] == 128 and ctx[-1] == 131072
    assert np.all(np.diff(ctx) > 0) and np.all(ctx == np.round(ctx))
    ratios = ctx[1:] / ctx[:-1]
    assert ratios.max() / ratios.min() < 1.05  # log-spaced: a near-constant ratio
    assert cli.parse_range("64", log=True, minimum=0).tolist() == [64]
    assert cli.parse_range("1:9:3", log=False, minimum=1).tolist() == [1, 5, 9]
    assert cli.parse_range("1:1000:4", log=True, minimum=0).tolist() == [1, 10, 100, 1000]
    assert cli.parse_range("0:100:3", log=True, minimum=0).tolist() == [0, 1, 100]
    small = cli.parse_range("1:10", log=True, minimum=0)  # fewer integers than points: unique, both ends
    assert small[0] == 1 and small[-1] == 10 and len(set(small.tolist())) == small.size
    for bad in ("5:1", "a:b", "1:2:3:4", "1.5:4", "1:10:0", ""):
        with pytest.raises(ValueError):
            cli.parse_range(bad, log=False, minimum=1)
    with pytest.raises(ValueError):
        cli.parse_range("0", log=False, minimum=1)


def test_sweep_256_by_256_grid(capsys, tmp_path):
    out_path = tmp_path / "grid.csv"
    code, _, err = run(
        capsys,
        "sweep",
        *LLAMA70_FP16,
        "--gpus",
        "2",
        "--batch",
        "1:256",
        "--context",
        "128:131072",
        "--output-tokens",
        "64",
        "-o",
        out_path,
    )
    assert code == 0, err
    text = out_path.read_text()
    lines = text.splitlines()
    assert len(lines) == 65_536 + 1
    assert lines[0].split(",") == list(cli.SWEEP_COLUMNS)
    data = np.genfromtxt(io.StringIO(text), delimiter=",", names=True, dtype=None, encoding="utf-8")
    batch = data["batch"].reshape(256, 256)
    context = data["context_tokens"].reshape(256, 256)
    tpot = data["tpot_ms"].reshape(256, 256)
    assert batch[:, 0].tolist() == list(range(1, 257)) and np.all(batch == batch[:, :1])
    assert context[0, 0] == 128 and context[0, -1] == 131072 and np.all(np.diff(context[0]) > 0)
    assert np.all(np.diff(tpot, axis=0) >= 0), "TPOT must not fall as the batch grows at a fixed context"
    assert np.all(np.diff(tpot, axis=1) >= 0), "TPOT must not fall as the context grows at a fixed batch"
    assert set(data["fits"].tolist()) == {True, False}  # genfromtxt reads the true/false cells as booleans
    assert {line.split(",")[7] for line in lines[1:]} == {"true", "false"}
    assert set(data["bound"].tolist()) <= {"memory", "compute"}
    assert np.all(data["tokens_per_s_total"] >= data["tokens_per_s_per_user"])
    assert np.all(data["tpot_ms_low"] < data["tpot_ms"]) and np.all(data["tpot_ms"] < data["tpot_ms_high"])

    # a grid point agrees with `estimate` for the same scenario (7 significant digits in the CSV)
    i = 37 * 256 + 200
    b, c = int(data["batch"][i]), int(data["context_tokens"][i])
    r = run_json(capsys, *LLAMA70_FP16, "--gpus", "2", "--batch", b, "--context", c, "--output-tokens", "64")
    for col in ("tpot_ms", "ttft_ms", "tokens_per_s_total", "usd_per_1M_tokens", "kv_cache_GB", "memory_per_gpu_GB"):
        assert float(data[col][i]) == pytest.approx(r[col], rel=1e-6), col
    for col in ("tpot_ms_low", "tpot_ms_high"):  # the band, as estimate --json gives it
        assert float(data[col][i]) == pytest.approx(r[col], rel=1e-6), col
    assert bool(data["fits"][i]) is r["fits"] and data["bound"][i] == r["bound"]


def test_sweep_is_one_vectorised_estimate_call(capsys, tmp_path, monkeypatch):
    calls = []
    real = cli.estimate

    def counting(model, hardware, scenario, profile):
        calls.append((np.shape(scenario.batch), np.shape(scenario.context_tokens)))
        return real(model, hardware, scenario, profile)

    monkeypatch.setattr(cli, "estimate", counting)
    code, _, err = run(
        capsys, "sweep", *LLAMA70_FP16, "--batch", "1:64", "--context", "1:8192:32", "-o", tmp_path / "g.csv"
    )
    assert code == 0, err
    contexts = cli.parse_range("1:8192:32", log=True, minimum=0).size  # 32 log-spaced points, unique after rounding
    assert 25 < contexts <= 32
    assert calls == [((64, 1), (1, contexts))]
    assert (tmp_path / "g.csv").read_text().count("\n") == 64 * contexts + 1


def test_sweep_single_point_and_no_price(capsys):
    code, out, err = run(capsys, "sweep", "--model", "llama-3.1-8b", "--hardware", "tpu-v5e", "--context", "4096")
    assert code == 0, err
    (row,) = read_csv(out)
    assert row["batch"] == "1" and row["context_tokens"] == "4096" and row["usd_per_1M_tokens"] == ""
    assert float(row["tpot_ms_low"]) < float(row["tpot_ms"]) < float(row["tpot_ms_high"])
    code, out, err = run(capsys, "sweep", "--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--profile", "ideal")
    assert code == 0, err
    (ideal,) = read_csv(out)
    assert ideal["tpot_ms_low"] == ideal["tpot_ms_high"] == ""  # a bound has no band
    r = run_json(capsys, "--model", "llama-3.1-8b", "--hardware", "tpu-v5e", "--context", "4096")
    assert float(row["tpot_ms"]) == pytest.approx(r["tpot_ms"], rel=1e-6)


def test_float_field_matches_percent_g():
    rng = np.random.default_rng(1)
    x = np.concatenate(
        [
            10 ** rng.uniform(-5, 11.9, 20_000),
            -(10 ** rng.uniform(-5, 11, 500)),
            [0.0, 1.0, 10.0, 0.5, 1e-5, 41.03128170985075, 123456.75, 9.99999999, 0.000999999999, 99999995.0],
        ]
    )
    text = _strings(csv_format.float_field(x))
    for v, t in zip(x.tolist(), text, strict=True):
        assert float(t) == pytest.approx(v, rel=6e-7, abs=0), (v, t)
        if "e" not in f"{v:.7g}":
            assert t == f"{v:.7g}", (v, t)
    assert _strings(csv_format.float_field(np.array([np.nan, 2.5]))) == ["", "2.5"]
    # the fallback path: positional too (the roofline CSV's FLOPs read 1.338402e+15), 7 significant digits
    fallback = _strings(csv_format.float_field(np.array([1e-9, np.inf, 3.0, 1.3384021234e15])))
    assert fallback == ["0.000000001", "inf", "3", "1338402000000000"]
    # row by row: a value past 1e12 in the column does not round its neighbours to 7 digits
    assert _strings(csv_format.float_field(np.array([123456789.0, 1.3e13, -2.5]))) == [
        "123456789",
        "13000000000000",
        "-2.5",
    ]
    assert _strings(csv_format.int_field(np.array([123456789.0, 2e15]))) == ["123456789", "2000000000000000"]
    assert _strings(csv_format.int_field(np.array([0.0, 7, 10, 9999, 10000, 131072]))) == [
        "0",
        "7",
        "10",
        "9999",
        "10000",
        "131072",
    ]
    assert csv_format.csv_bytes(
        ("a", "b"), [csv_format.int_field(np.array([1.0, 2])), csv_format.float_field(np.array([0.25, np.nan]))]
    ) == (b"a,b\n1,0.25\n2,\n")


def _strings(field: np.ndarray) -> list[str]:
    return [bytes(row[row != 0]).decode() for row in field]


# --------------------------------------------------------------------------------------------------- list, calibrate


@pytest.mark.parametrize(
    ("what", "expected"),
    [
        ("hardware", ["h100-sxm", "NVIDIA H100 SXM5 80GB", "tpu-v5e"]),
        ("models", ["llama-2-70b", "deepseek-v3", "MLA"]),
        ("profiles", ["typical", "ideal"]),
        ("formats", ["fp8", "q4_k_m", "nvfp4"]),
    ],
)
def test_list(capsys, what, expected):
    code, out, _ = run(capsys, "list", what)
    assert code == 0
    for text in expected:
        assert text in out


def test_list_all_and_unknown(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0 and all(f"== {name} ==" in out for name in ("hardware", "models", "profiles", "formats"))
    code, _, err = run(capsys, "list", "gpus")
    assert code == 2 and "unknown list 'gpus'" in err


def test_list_models_columns_align_for_every_row(capsys):
    """Column widths come from the content: Llama 4 Scout's 10,485,760-token context (10 characters, wider than the
    'max ctx' header) used to push its attention column two places right of every other row's."""
    code, out, _ = run(capsys, "list", "models")
    assert code == 0
    *lines, note, mtp_note = out.rstrip("\n").split("\n")
    assert note.startswith("(--model also takes") and "deepseek-r1: deepseek-r1-0528, dsr1" in note
    assert mtp_note.startswith("(MTP: the multi-token-prediction modules")
    header = lines[0]
    ctx_end = header.index("max ctx") + len("max ctx")  # right-aligned: every count ends where the header ends
    mtp_end = header.index("MTP") + len("MTP")
    attention_at = header.index("attention")
    scout = next(line for line in lines if line.startswith("llama-4-scout "))
    assert "10,485,760" in scout
    for line in lines[1:]:
        assert line[ctx_end - 1].isdigit() and line[ctx_end] == " ", line
        assert line[mtp_end - 1] in "-123" and line[mtp_end] == " ", line
        assert line[attention_at - 1] == " " and line[attention_at] != " ", line
        assert line[:attention_at].rstrip().endswith(line[:mtp_end].split()[-1]), line
    # the MTP modules each checkpoint ships (data/models.yaml mtp_modules): DeepSeek-R1 1, MiniMax-M2 3, Llama none
    mtp = {line.split()[0]: line[mtp_end - 1] for line in lines[1:]}
    assert (mtp["deepseek-r1"], mtp["minimax-m2"], mtp["llama-3.1-70b"], mtp["kimi-k2"]) == ("1", "3", "-", "-")


def test_calibrate_delegates(capsys, monkeypatch):
    seen = []
    fake = types.ModuleType("tpot_model.calibrate")
    fake.main = lambda argv: seen.append(argv) or 0
    monkeypatch.setitem(sys.modules, "tpot_model.calibrate", fake)
    assert main(["calibrate", "--fit", "x.csv"]) == 0
    assert seen == [["--fit", "x.csv"]]


def test_frontier_delegates(capsys, monkeypatch):
    seen = []
    fake = types.ModuleType("tpot_model.planner_cli")
    fake.frontier_main = lambda argv: seen.append(argv) or 3
    monkeypatch.setitem(sys.modules, "tpot_model.planner_cli", fake)
    assert main(["frontier", "--tpot-target-ms", "50"]) == 3
    assert seen == [["--tpot-target-ms", "50"]]


def test_delegate_without_entry_point(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "tpot_model.calibrate", types.ModuleType("tpot_model.calibrate"))
    code, _, err = run(capsys, "calibrate")
    assert code == 2 and err.startswith("calibration not available")


def test_calibrate_not_available(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "tpot_model.calibrate", None)  # makes the import fail
    code, _, err = run(capsys, "calibrate")
    assert code == 2 and err.startswith("calibration not available")


# --------------------------------------------------------------------------------------------------- bad input

TINY_MODEL_YAML = """tiny:
  name: Tiny
  num_layers: 2
  d_model: 64
  num_heads: {heads}
  num_kv_heads: {kv_heads}
  head_dim: 16
  d_ff: 128
  vocab_size: 100
  tied_embeddings: false
  mlp: swiglu
  max_context_tokens: 4096
"""


def _bad_csv(tmp_path: Path, name: str, text: str) -> Path:
    return write(tmp_path / name, text)


BAD_CSV_CASES = {
    # name: (csv text, expected fragments of the one stderr line)
    "batch_zero": (
        "model,hardware,batch\nllama-3.1-8b,h100-sxm,1\nllama-3.1-8b,h100-sxm,2\nllama-3.1-8b,h100-sxm,0\n",
        ["scenarios.csv row 3, field 'batch': must be >= 1, got 0"],
    ),
    "batch_text": ("model,hardware,batch\nllama-3.1-8b,h100-sxm,many\n", ["row 1, field 'batch'", "whole number"]),
    "num_gpus_zero": ("model,hardware,num_gpus\nllama-3.1-8b,h100-sxm,0\n", ["row 1, field 'num_gpus'", ">= 1"]),
    "context_negative": ("model,hardware,context_tokens\nllama-3.1-8b,h100-sxm,-5\n", ["field 'context_tokens'"]),
    "unknown_model": ("model,hardware\nllama-9,h100-sxm\n", ["row 1, field 'model'", "unknown model 'llama-9'"]),
    "unknown_hardware": ("model,hardware\nllama-3.1-8b,h900\n", ["row 1, field 'hardware'", "unknown hardware"]),
    "unknown_profile": ("model,hardware,profile\nllama-3.1-8b,h100-sxm,turbo\n", ["field 'profile'", "'turbo'"]),
    "unknown_weights": ("model,hardware,weights\nllama-3.1-8b,h100-sxm,fp7\n", ["field 'weights'", "'fp7'"]),
    "unknown_kv": ("model,hardware,kv_cache\nllama-3.1-8b,h100-sxm,int3x\n", ["field 'kv_cache'", "'int3x'"]),
    "unknown_compute": ("model,hardware,compute\nllama-3.1-8b,h100-sxm,fp6\n", ["field 'compute'", "'fp6'"]),
    "bad_price": ("model,hardware,price_usd_per_gpu_hour\nllama-3.1-8b,h100-sxm,cheap\n", ["price_usd_per_gpu_hour"]),
    "missing_model_value": ("model,hardware\n,h100-sxm\n", ["row 1, field 'model': missing value"]),
    "missing_column": ("model,batch\nllama-3.1-8b,1\n", ["scenarios.csv", "missing required column 'hardware'"]),
    "missing_model_column": ("hardware\nh100-sxm\n", ["missing required column 'model'"]),
    "empty_file": ("", ["scenarios.csv", "empty file", "model, hardware"]),
    "blank_header": ("\n\n", ["scenarios.csv", "model, hardware"]),
    "duplicate_column": ("model,hardware,batch,batch\nllama-3.1-8b,h100-sxm,1,2\n", ["duplicate column 'batch'"]),
    "too_many_cells": ("model,hardware\nllama-3.1-8b,h100-sxm,9\n", ["row 1", "3 cells"]),
    # rows counted as in every other message (data rows from 1): the file's line said beside it (it had said 'line 2')
    "malformed_csv": (
        'model,hardware,batch\nllama-3.1-8b,h100-sxm,2\nllama-3.1-8b,h100-sxm,"4\n',
        ["scenarios.csv row 2 (line 3 of the file): malformed CSV"],
    ),
    "malformed_header": ('model,"hard"ware,batch\nllama-3.1-8b,h100-sxm,2\n', ["scenarios.csv header (line 1"]),
    # a near miss of a column evaluate reads had passed through, the row computed at 1 GPU, bf16, context 0 beside
    # the user's 4, fp8, 8192 (helper review)
    "near_miss_option_name": (
        "model,hardware,gpus,weight,context\nllama-3.1-70b,h200,4,fp8,8192\n",
        ["column 'gpus' is not one evaluate reads: did you mean 'num_gpus'?"],
    ),
    "near_miss_plural": (
        "model,hardware,num_gpus,weight\nllama-3.1-70b,h200,4,fp8\n",
        ["column 'weight' is not one evaluate reads: did you mean 'weights'?"],
    ),
    "near_miss_typo": ("model,hardware,num_gpu\nllama-3.1-70b,h200,4\n", ["did you mean 'num_gpus'?"]),
}


@pytest.mark.parametrize("case", sorted(BAD_CSV_CASES))
def test_evaluate_bad_input_one_line_exit_2(capsys, tmp_path, case):
    text, fragments = BAD_CSV_CASES[case]
    src = _bad_csv(tmp_path, "scenarios.csv", text)
    out_path = tmp_path / "out.csv"
    code, _, err = run(capsys, "evaluate", src, "-o", out_path)
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    for fragment in fragments:
        assert fragment in err, (fragment, err)
    assert not out_path.exists()  # nothing half-written


def test_evaluate_names_the_row_that_is_not_utf8(capsys, tmp_path):
    """A scenarios file with a Latin-1 byte in its second data row said 'not UTF-8 text (invalid start byte at byte
    42)', no row (the decoder reads ahead in blocks): it names the row and the byte; in the header, the header."""
    src = tmp_path / "s.csv"
    src.write_bytes(b"model,hardware,batch\nllama-3.1-70b,h200,8\n\xff\xfe,h200,1\n")
    code, _, err = run(capsys, "evaluate", src, "-o", tmp_path / "o.csv")
    assert code == 2 and err == f"error: {src} row 2, byte 42: not UTF-8 text (invalid start byte)\n"
    src.write_bytes(b"\xef\xbb\xbfmod\xe9l,hardware\nllama-3.1-70b,h200\n")  # a BOM, then a Latin-1 header
    code, _, err = run(capsys, "evaluate", src, "-o", tmp_path / "o.csv")
    assert code == 2 and err.startswith(f"error: {src} header, byte 6: not UTF-8 text")


def test_evaluate_bad_files(capsys, tmp_path):
    # heads not divisible by KV heads, in a model file referenced from a row
    write(tmp_path / "odd.yaml", TINY_MODEL_YAML.format(heads=10, kv_heads=3))
    write(tmp_path / "broken.yaml", "tiny: {name: [unclosed\n")
    write(tmp_path / "broken.json", '{"model_type": "llama", "hidden_size": 64')
    cases = {
        "odd.yaml": ["row 1, field 'model'", "not divisible by num_kv_heads"],
        "broken.yaml": ["row 1, field 'model'", "broken.yaml", "malformed YAML/JSON"],
        "broken.json": ["row 1, field 'model'", "broken.json", "malformed YAML/JSON"],
        "nowhere.yaml": ["row 1, field 'model'", "nowhere.yaml"],
    }
    for ref, fragments in cases.items():
        src = write(tmp_path / "s.csv", f"model,hardware\n{ref},h100-sxm\n")
        code, _, err = run(capsys, "evaluate", src)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
        for fragment in fragments:
            assert fragment in err, (fragment, err)

    code, _, err = run(capsys, "evaluate", tmp_path / "absent.csv")
    assert code == 2 and "absent.csv: no such file" in err
    code, _, err = run(capsys, "sweep", "--model", "llama-3.1-8b", "--hardware", "h100-sxm", "-o", "")
    assert code == 2 and err == "error: -o/--output: empty file name (give a path, or '-' for the screen)\n"
    # sweep --output 1024 had written a file named '1024' (frontier's --output is output tokens: a review)
    code, _, err = run(capsys, "sweep", "--model", "llama-3.1-8b", "--hardware", "h200", "--batch", "1:4", "--output",
                       "1024")  # fmt: skip
    assert code == 2 and err.startswith("error: -o/--output: '1024' reads as a number of tokens")

    binary = tmp_path / "latin1.csv"
    binary.write_bytes(b"model,hardware\nllama-3.1-8b,h100-sxm\xff\n")
    code, _, err = run(capsys, "evaluate", binary)
    assert code == 2 and "latin1.csv" in err and "UTF-8" in err

    src = write(tmp_path / "ok.csv", "model,hardware\nllama-3.1-8b,h100-sxm\n")
    code, _, err = run(capsys, "evaluate", src, "-o", tmp_path / "no" / "such" / "dir.csv")
    assert code == 2 and "dir.csv" in err


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["--model", "llama-9", "--hardware", "h100-sxm"], ["--model: unknown model 'llama-9'"]),
        (["--model", "llama-3.1-8b", "--hardware", "h900"], ["--hardware: unknown hardware 'h900'"]),
        (["--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--profile", "x"], ["--profile", "unknown profile"]),
        (["--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--weights", "fp7"], ["--weights", "fp7"]),
        (["--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--kv", "40"], ["--kv", "between 1 and 32"]),
        (["--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--compute", "fp6"], ["--compute", "fp6"]),
        (["--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--batch", "0"], ["--batch", "must be >= 1, got 0"]),
        (["--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--gpus", "0"], ["--gpus", "must be >= 1, got 0"]),
        (["--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--batch", "two"], ["--batch", "whole number"]),
        (["--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--price", "-1"], ["--price", "non-negative"]),
        (["--model", "llama-3.1-8b"], ["required", "--hardware"]),
        # past any real input (a review printed inf, NaN and a 300-digit batch): the limit named
        (["--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--batch", "1e300"], ["--batch", "at most 100,000,000"]),
        (["--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--context", "1e30"], ["--context", "at most"]),
        (["--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--gpus", "1e9"], ["--gpus", "at most 1,024"]),
        (["--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--price", "1e308"], ["--price", "at most 1,000"]),
        # a review: a path given to --model was said twice in one line; a number past Python's 4,300 digits printed
        # its advice to call sys.set_int_max_str_digits(); a dense config without its MLP width named 'd_ff'
        (["--model", "/no/such.json", "--hardware", "h100-sxm"], ["--model: /no/such.json: cannot read"]),
        # a 5,000-digit batch: the bound it is past, the value cut short (it had said 'whole number' and echoed it all)
        (
            ["--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--batch", "1" * 5000],
            ["--batch: must be at most 100,000,000, got '111111111111111111111111…' (5,000 characters)"],
        ),
    ],
)
def test_estimate_bad_input_one_line_exit_2(capsys, argv, fragments):
    code, out, err = run(capsys, "estimate", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err and "usage:" not in err
    for fragment in fragments:
        assert fragment in err, (fragment, err)


def test_estimate_bad_model_files(capsys, tmp_path):
    # a count past any model (2**63 layers reached numpy and raised OverflowError): named, exit 2
    huge = write(tmp_path / "config.json", json.dumps({"model_type": "llama", "hidden_size": 4096,
        "num_hidden_layers": 2**63, "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
        "vocab_size": 128256}))  # fmt: skip
    code, _, err = run(capsys, "estimate", "--model", huge, "--hardware", "h100-sxm")
    assert code == 2 and "config.json" in err and "'num_hidden_layers' must be at most 1,000,000,000" in err
    odd = write(tmp_path / "odd.yaml", TINY_MODEL_YAML.format(heads=10, kv_heads=3))
    code, _, err = run(capsys, "estimate", "--model", odd, "--hardware", "h100-sxm")
    assert code == 2 and "odd.yaml" in err and "not divisible" in err
    broken = write(tmp_path / "config.json", '{"model_type": "llama", ')
    code, _, err = run(capsys, "estimate", "--model", broken, "--hardware", "h100-sxm")
    assert code == 2 and "config.json" in err and "malformed" in err
    gbs = write(tmp_path / "gbs.yaml", "g:\n  name: G\n  memory_GB: 80\n  memory_bandwidth_TB_per_s: 3350\n"
                "  dense_TFLOP_per_s: {bf16: 989}\n")  # fmt: skip
    code, _, err = run(capsys, "estimate", "--model", "llama-3.1-8b", "--hardware", gbs)
    assert code == 2 and "gbs.yaml" in err and "at most 200 (TB/s per chip), got 3350: a GB/s figure?" in err
    # past any chip the other way (helper review: 1e-30 TB/s printed a 22-digit TPOT, 1e30 GB a 34-digit batch), and
    # YAML's text '3e0' named with the number to write
    for field, value, said in (
        ("memory_bandwidth_TB_per_s", "1.0e-30", "must be at least 0.001 (TB/s per chip: 1 GB/s), got 1e-30"),
        ("memory_GB", "1.0e+30", "'memory_GB' must be at most 10,000 (GB per chip), got 1e+30"),
        ("memory_bandwidth_TB_per_s", "3e0", "got the text '3e0': write 3.0"),
        # nvidia-smi's MiB in the GB field, in the reported-GiB field (87,574 GB had been usable on an 80 GB chip),
        # and GFLOP/s in the TFLOP/s field (helper review)
        ("memory_GB", "81559", "must be at most 10,000 (GB per chip), got 81559: a MiB figure? (81559 MiB = 85.52 GB)"),
        (
            "memory_reported_GiB",
            "81559",
            "'memory_reported_GiB' must be 0.5 to 1.25 times memory_GB (80 GB = 74.51 "
            "GiB), as the vendor's tool reports the datasheet's memory; got 81559: a MiB figure? (81559 MiB = 79.65 GiB)",
        ),
        (
            "bf16",
            "989000",
            "'dense_TFLOP_per_s.bf16' must be at most 500,000 (dense TFLOP/s per chip), got 989000: a "
            "GFLOP/s figure? (989000 GFLOP/s = 989 TFLOP/s)",
        ),
        # an NVL72 rack's 120 kW as one GPU's board power (every J/token had read 60x too high)
        ("tdp_W", "120000", "'tdp_W' must be at most 10,000 (W per chip), got 120000: a server's or a rack's power?"),
    ):
        body = {"memory_GB": "80", "memory_bandwidth_TB_per_s": "3.35", "bf16": "989"} | {field: value}
        reported = f"  {field}: {value}\n" if field in ("memory_reported_GiB", "tdp_W") else ""
        odd = write(tmp_path / "odd.yaml", f"g:\n  name: G\n  memory_GB: {body['memory_GB']}\n  memory_bandwidth_TB_per_s: "
                    f"{body['memory_bandwidth_TB_per_s']}\n{reported}  dense_TFLOP_per_s: {{bf16: {body['bf16']}}}\n")  # fmt: skip
        code, _, err = run(capsys, "estimate", "--model", "llama-3.1-8b", "--hardware", odd)
        assert code == 2 and "odd.yaml" in err and said in err, err
    # the file and entry once ('entry 'g': gbs.yaml: entry 'g': field' and 'entry 'g': hardware 'g': field' were
    # printed), and a file of two entries said so (it had read as one entry missing every field)
    for name, body, said in (
        ("flops.yaml", "g:\n  name: G\n  memory_GB: 80\n  memory_bandwidth_TB_per_s: 3\n  dense_TFLOP_per_s: "
         "{bf16: [1, 2]}\n", "entry 'g': field dense_TFLOP_per_s.'bf16' must be a finite number"),
        ("neg.yaml", "g:\n  name: G\n  memory_GB: 80\n  memory_bandwidth_TB_per_s: 3\n  dense_TFLOP_per_s: "
         "{bf16: -5}\n", "entry 'g': field 'dense_TFLOP_per_s.bf16' must be positive"),
        ("two.yaml", "a: {name: A}\nb: {name: B}\n", "expected one entry, found 2 ('a', 'b')"),
        ("dup.yaml", "g:\n  name: G\n  memory_GB: 80\n  memory_GB: 8\n",
         "at line 4: key 'memory_GB' given twice (first at line 3)"),  # the last had won, unsaid
    ):  # fmt: skip
        code, _, err = run(capsys, "estimate", "--model", "llama-3.1-8b", "--hardware", write(tmp_path / name, body))
        assert code == 2 and said in err and err.count(name) == 1 and "hardware 'g'" not in err, err
    hw = write(tmp_path / "gpu.yaml", "name: G\nmemory_GB: 10\n")
    code, _, err = run(capsys, "estimate", "--model", "llama-3.1-8b", "--hardware", hw)
    assert code == 2 and "gpu.yaml" in err and "missing field" in err
    code, _, err = run(capsys, "estimate", "--model", tmp_path, "--hardware", "h100-sxm")  # a directory
    assert code == 2 and str(tmp_path) in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--batch", "5:1"], "--batch '5:1': range end must be >= start"),
        (["--batch", "0:4"], "--batch '0:4': must be >= 1"),
        (["--context", "1:x"], "--context '1:x'"),
        (["--batch", "1:2000000"], "limit"),
        (["--batch", "1:2048", "--context", "1:131072:1024"], "limit"),
        (["--context", "0:1e30:3"], "--context '0:1e30:3': must be at most 100,000,000"),  # was a TypeError
        # a range starting below zero: its own check, not argparse's 'expected one argument' (a review)
        (["--batch", "-1:8"], "--batch '-1:8': must be >= 1, got -1 in '-1:8'"),
        (["--context", "-5:10"], "--context '-5:10': must be >= 0"),
    ],
)
def test_sweep_bad_ranges(capsys, argv, fragment):
    code, _, err = run(capsys, "sweep", "--model", "llama-3.1-8b", "--hardware", "h100-sxm", *argv)
    assert code == 2 and fragment in err and err.count("\n") == 1


def test_no_command(capsys):
    code, _, err = run(capsys)
    assert code == 2 and "COMMAND" in err and err.count("\n") == 1


# --------------------------------------------------------------------------------------------------- subprocess


def test_subprocess_estimate_json():
    p = run_subprocess("estimate", *LLAMA70_FP16, "--profile", "ideal", "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["tpot_ms"] == pytest.approx(41.2, rel=0.01) and r["fits"] is False and r["min_gpus"] == 2


def test_subprocess_bad_csv_row_exit_2_without_traceback(tmp_path):
    write(
        tmp_path / "scenarios.csv",
        "model,hardware,batch\nllama-3.1-8b,h100-sxm,1\nllama-3.1-8b,h100-sxm,4\nllama-3.1-8b,h100-sxm,0\n",
    )
    p = run_subprocess("evaluate", "scenarios.csv", "-o", "out.csv", cwd=tmp_path)
    assert p.returncode == 2
    assert p.stderr.strip() == "error: scenarios.csv row 3, field 'batch': must be >= 1, got 0"
    assert "Traceback" not in p.stderr and p.stdout == ""


@pytest.mark.parametrize(
    "argv",
    [
        ["estimate", "--model", "no-such-model", "--hardware", "h100-sxm"],
        ["estimate", "--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--gpus", "0"],
        ["evaluate", "missing.csv"],
        ["sweep", "--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--batch", "9:1"],
        ["frobnicate"],
    ],
)
def test_subprocess_bad_input_exit_2(argv, tmp_path):
    p = run_subprocess(*argv, cwd=tmp_path)
    assert p.returncode == 2
    assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1


def test_main_module_exists():
    assert (ROOT / "tpot_model" / "__main__.py").is_file()
    assert math.isfinite(cli.MAX_SWEEP_POINTS)


def test_frontier_takes_the_names_people_type(capsys):
    """'GB200 NVL72' and a Hugging Face repository name reach the catalog's entries (the answer names the ids it
    used); a name no entry answers to is one line, exit 2, with the nearest ids."""
    from tpot_model.planner_cli import frontier_main

    by_id = ["--model", "deepseek-r1", "--hardware", "gb200", "--weights", "fp8", "--kv", "fp8"]
    by_name = [
        "--model",
        "deepseek-ai/DeepSeek-R1-0528",
        "--hardware",
        "GB200 NVL72",
        "--weights",
        "fp8",
        "--kv",
        "fp8",
    ]
    budget = ["--max-gpus", "16", "--interactivity", "50", "--json"]
    assert frontier_main([*by_id, *budget]) == 0
    expected = json.loads(capsys.readouterr().out)
    assert frontier_main([*by_name, *budget]) == 0
    got = json.loads(capsys.readouterr().out)
    assert (got["model"], got["hardware"]) == ("deepseek-r1", "gb200")
    assert got["tokens_per_s_per_gpu"] == expected["tokens_per_s_per_gpu"]
    code = frontier_main(["--model", "deepseek-r1", "--hardware", "a100", *budget])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "did you mean" in err and "a100-80gb-sxm" in err, err


def test_frontier_states_the_price_its_cost_stands_on(capsys):
    """A $ per 1M tokens names its basis, $/GPU-hour and date (JSON and text, both modes): GB200 and B200 results
    were otherwise two dollar figures of unknown provenance; money reads in cents ($13.10, not $13.1)."""
    from tpot_model.planner_cli import frontier_main

    args = ["--model", "deepseek-r1", "--hardware", "b200", "--weights", "fp8", "--kv", "fp8"]
    assert frontier_main([*args, "--max-gpus", "16", "--interactivity", "50", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["price_basis"], d["price_usd_per_gpu_hour"], d["price_as_of"]) == ("on_demand", 6.03, "2026-03-17")
    assert "usd_per_gpu_hour" not in d  # one name for it in every command (a review)
    assert d["usd_per_1M_tokens"] == pytest.approx(6.03 * 1e6 / (d["tokens_per_s_per_gpu"] * 3600))
    assert frontier_main([*args, "--max-gpus", "16", "--interactivity", "50", "--price-basis", "hyperscaler"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("usd_per_1M_tokens"))
    assert "/GPU-hour, hyperscaler, 2026-09-20)" in line and "$1.73" in line
    assert frontier_main([*args, "--gpus", "8", "--tpot-target-ms", "50", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["price_usd_per_gpu_hour"] == 6.03


def test_frontier_gives_no_range_for_a_model_the_serving_fit_has_not_seen(capsys):
    """DeepSeek-V4-Pro on GB200 NVL72 (8k/1k, NVFP4, 72 GPUs, 25 tok/s per user): no 80% range (the ranges rest on
    DeepSeek-R1's runs), the transfer check over its own published runs instead, and the measured frontier at the
    target read from the transcribed InferenceX runs (IXV4-GB200-004 at 24.4 and -003 at 28.3 tok/s per user)."""
    from tpot_model.planner_cli import frontier_main

    args = ["--model", "deepseek-v4-pro", "--hardware", "gb200", "--weights", "nvfp4", "--kv", "fp8", "--context",
            "8192", "--output", "1024", "--max-gpus", "72", "--interactivity", "25"]  # fmt: skip
    assert frontier_main([*args, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["tokens_per_s_per_gpu_low"] is None and d["range_basis"] is None
    t = d["transfer_check"]
    assert t["fitted_models"] == ["deepseek-r1"] and t["frontier"]["runs"] > 0 and t["single_node"]["runs"] == 9
    assert [r["id"] for r in d["measured_at_target"]["runs"]] == ["IXV4-GB200-004", "IXV4-GB200-003"]
    assert {r["publisher"] for r in d["measured_at_target"]["runs"]} == {"InferenceX"}  # who published the runs
    assert d["measured_at_target"]["runs"][0]["label"] == "InferenceX IXV4-GB200-004"
    assert frontier_main(args) == 0
    text = capsys.readouterr().out
    assert "InferenceX IXV4-GB200-004 (24.4 tok/s/user" in text  # named by publisher and id, not the id alone
    assert "none: the serving fit has seen no run of this model" in text and "transfer check" in text
    r1 = ["--model", "deepseek-r1", "--hardware", "b200", "--weights", "fp8", "--kv", "fp8", "--max-gpus", "16",
          "--interactivity", "50", "--json"]  # fmt: skip
    assert frontier_main(r1) == 0
    assert json.loads(capsys.readouterr().out)["transfer_check"] is None


@pytest.mark.parametrize(("flag", "value", "said"), [("--mtp", "1000", "--mtp: must be <= 16"),
                                                      ("--isl", "0", "--context/--isl: must be >= 1"),
                                                      ("--context", "1000000000", "--context/--isl: must be <= 100,000,000"),
                                                      ("--price", "1e308", "--price: must be <= 1,000")])  # fmt: skip
def test_frontier_refuses_absurd_drafts_and_empty_prompts(capsys, flag, value, said):
    from tpot_model.planner_cli import frontier_main

    args = ["--model", "deepseek-r1", "--hardware", "b200", "--max-gpus", "8", "--interactivity", "50"]
    assert frontier_main([*args, flag, value]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and said in err


@pytest.mark.parametrize(("flag", "value"), [("--price-basis", "nope"), ("--as-of", "2020-02-31")])
@pytest.mark.parametrize("search", [[], ["--max-gpus", "8"]])
def test_frontier_names_the_option_of_a_bad_value(capsys, flag, value, search):
    """'error: input: ...' named no option for a bad price basis or engine date (a review)."""
    from tpot_model.planner_cli import frontier_main

    args = ["--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--tpot-target-ms", "20", *search]
    assert frontier_main([*args, flag, value]) == 2
    assert capsys.readouterr().err.startswith(f"error: {flag}: ")


def test_frontier_says_an_option_it_would_ignore_and_what_makes_a_model_fit(capsys):
    """--mtp-acceptance without --mtp was dropped silently; a model that does not fit got no remedy (estimate's)."""
    from tpot_model.planner_cli import frontier_main

    args = ["--model", "llama-3.1-405b", "--hardware", "rtx-3090", "--tpot-target-ms", "20"]
    assert frontier_main([*args, "--mtp-acceptance", "0.7"]) == 2
    assert "--mtp-acceptance: applies with --mtp" in capsys.readouterr().err
    assert frontier_main(args) == 0
    out = capsys.readouterr().out
    assert "does not fit in memory even at batch 1; does not fit on 1 x NVIDIA GeForce RTX 3090: needs >= " in out
    assert frontier_main([*args, "--gpus", "64", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["remedy"] is None  # 64 RTX 3090s hold it


def test_sweep_rows_state_their_scenario_and_evaluate_writes_seven_digits(capsys, tmp_path):
    """A sweep CSV read alone says what it is (model, chip, GPUs, formats, profile, price basis and date, app
    version) on every row, and names the whole batch's prefill; evaluate wrote repr's 17 digits ('1.23999999999999983'):
    7 significant digits, as sweep does (helper review)."""
    from tpot_model.files import APP_VERSION

    out = tmp_path / "grid.csv"
    code, _, err = run(capsys, "sweep", *LLAMA70_FP16, "--gpus", "2", "--batch", "1:64:3", "--context", "4096",
                       "-o", out)  # fmt: skip
    assert code == 0, err
    rows = read_csv(out.read_text())
    assert len(rows) == 3 and {r["app_version"] for r in rows} == {APP_VERSION}
    for r in rows:
        assert (r["model"], r["hardware"], r["num_gpus"], r["weights"], r["profile"]) == (
            "llama-2-70b", "h100-sxm", "2", "fp16", "typical")  # fmt: skip
        assert r["price_basis"] == "on_demand" and r["price_as_of"] and float(r["price_usd_per_gpu_hour"]) > 0
        assert r["batching"] == "static" and r["batch_prefill_ms"] == r["ttft_ms"]  # static: one and the same
    src = write(tmp_path / "s.csv", SCENARIOS)
    code, _, err = run(capsys, "evaluate", src, "-o", tmp_path / "r.csv")
    assert code == 0, err
    for row in read_csv((tmp_path / "r.csv").read_text()):
        for col in ("tpot_ms", "weights_GB", "tokens_per_s_per_gpu", "joules_per_token"):
            digits = row[col].replace(".", "").replace("-", "").lstrip("0")
            assert row[col] and len(digits) <= 7, (col, row[col])


def test_estimate_text_money_and_rates_read_as_on_the_pages_and_list_names_whole(capsys):
    """'$ per 1M output tokens $1.4' beside '$2.195' and 'tokens/s per MW 657,522': three significant figures as
    the pages write them ($1.40, 199 K); `list hardware` cut names ('NVIDIA GB200 (per B200 GPU, NVL72,')."""
    code, out, _ = run(capsys, "estimate", "--model", "deepseek-r1", "--hardware", "b200", "--gpus", "8", "--weights",
                       "fp8", "--kv", "fp8", "--batch", "64", "--context", "4096", "--output-tokens", "1024")  # fmt: skip
    assert code == 0
    r = run_json(capsys, "--model", "deepseek-r1", "--hardware", "b200", "--gpus", "8", "--weights", "fp8", "--kv",
                 "fp8", "--batch", "64", "--context", "4096", "--output-tokens", "1024")  # fmt: skip
    line = next(x for x in out.splitlines() if x.strip().startswith("$ per 1M output tokens"))
    assert line.split()[-1] == f"${r['usd_per_1M_tokens']:.3g}"
    mw = next(x for x in out.splitlines() if "tokens/s per MW" in x).split(")")[-1].split()
    assert mw == [f"{r['tokens_per_s_per_mw'] / 1e3:.3g}", "K"]
    code, out, _ = run(capsys, "list", "hardware")
    assert code == 0 and "NVIDIA GB200 (per B200 GPU, NVL72, 1200 W)" in out


def test_estimate_says_a_split_engines_refuse_and_gpus_beyond_one_domain_as_the_pages_do(capsys):
    """Llama 3.1 8B has 32 heads: 3 GPUs cannot split them (2 or 4 can); 16 H100s span two 8-GPU NVLink domains.
    The pages said both; the CLI said neither (a review)."""
    code, out, _ = run(capsys, "estimate", "--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--gpus", "3")
    assert code == 0 and "does not divide Llama 3.1 8B's 32 attention heads" in out and "2 or 4 GPUs would" in out
    d = run_json(capsys, "--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--gpus", "3")
    assert d["head_split_alternatives"] == [2, 4] and d["scale_up_domain_gpus"] == 8
    code, out, _ = run(capsys, "estimate", "--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--gpus", "16")
    assert "16 GPUs span 2 scale-up domains of 8" in out and "attention heads" not in out
    code, out, _ = run(capsys, "estimate", "--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--gpus", "8")
    assert "Note:" not in out
    assert (
        run_json(capsys, "--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--gpus", "8")["head_split_alternatives"]
        == []
    )


def test_an_announced_chip_is_called_a_projection_in_every_answer(capsys):
    """Browser review: `frontier --hardware vr200` printed 17,324.8 tok/s/GPU with no word that Rubin is announced, not
    shipping. estimate, frontier's batch search and its layout search say so in text and JSON (hardware_announced,
    projection_note); a shipping chip's answers carry no such note."""
    r = run_json(capsys, "--model", "deepseek-r1", "--hardware", "mi455x", "--weights", "fp8", "--gpus", "8")
    assert r["hardware_announced"] is True and "announced, not shipping" in r["projection_note"]
    code, out, _ = run(capsys, "estimate", "--model", "deepseek-r1", "--hardware", "vr200", "--weights", "fp8",
                       "--gpus", "8")  # fmt: skip
    assert code == 0 and "Projection: NVIDIA Rubin" in out
    for extra in (["--max-gpus", "72", "--interactivity", "60"], ["--gpus", "8", "--tpot-target-ms", "20"]):
        base = ["frontier", "--model", "deepseek-r1", "--weights", "fp8", *extra]
        code, out, _ = run(capsys, *base, "--hardware", "vr200")
        assert code == 0 and "\nprojection: NVIDIA Rubin" in out and "vendor claims" in out
        code, out, _ = run(capsys, *base, "--hardware", "vr200", "--json")
        d = json.loads(out)
        assert d["hardware_announced"] is True and d["projection_note"].startswith("NVIDIA Rubin")
        code, out, _ = run(capsys, *base, "--hardware", "b200", "--json")
        assert json.loads(out)["hardware_announced"] is False and json.loads(out)["projection_note"] is None
    r = run_json(capsys, "--model", "deepseek-r1", "--hardware", "b200", "--weights", "fp8", "--gpus", "8")
    assert r["hardware_announced"] is False and r["projection_note"] is None


def test_an_engine_off_its_vendors_chips_is_called_a_what_if_in_every_answer(capsys):
    """The pages warn where the sidebar's engine does not run on the chip (TensorRT-LLM on AMD, ATOM on NVIDIA); the
    CLI had timed them without a word. estimate, frontier's batch search, its layout search and capacity say so in text
    and JSON (platform_note); an engine on its own vendor's chip, and the best-engine search, carry none."""
    r = run_json(capsys, "--model", "llama-3.1-70b", "--hardware", "mi355x", "--weights", "fp8",
                 "--profile", "tensorrt-llm")  # fmt: skip
    assert r["platform_note"].startswith("TensorRT-LLM, NVIDIA's own CUDA library")
    assert r["platform_note"].endswith(
        "runs on NVIDIA chips only: on the AMD Instinct MI355X its numbers are a what-if"
    )
    code, out, _ = run(capsys, "estimate", "--model", "llama-3.1-70b", "--hardware", "b200", "--weights", "fp8",
                       "--profile", "atom")  # fmt: skip
    assert code == 0 and "\nNote: AMD ATOM, AMD's ROCm inference engine" in out and "runs on AMD chips only" in out
    for extra in (["--max-gpus", "16", "--interactivity", "50"], ["--gpus", "8", "--tpot-target-ms", "20"]):
        base = ["frontier", "--model", "deepseek-r1", "--weights", "fp8", "--kv", "fp8", *extra]
        code, out, _ = run(capsys, *base, "--hardware", "mi355x", "--profile", "tensorrt-llm")
        assert code == 0 and "\nnote: TensorRT-LLM, NVIDIA's own CUDA library" in out
        code, out, _ = run(capsys, *base, "--hardware", "mi355x", "--profile", "sglang", "--json")
        assert json.loads(out)["platform_note"] is None
    code, out, _ = run(capsys, "frontier", "--model", "deepseek-r1", "--weights", "fp8", "--hardware", "mi355x",
                       "--max-gpus", "16", "--interactivity", "50", "--json")  # fmt: skip
    assert json.loads(out)["platform_note"] is None  # the best engine: one fitted on the chip's vendor
    r = run_json(
        capsys, "--model", "llama-3.1-70b", "--hardware", "b200", "--weights", "fp8", "--profile", "tensorrt-llm"
    )
    assert r["platform_note"] is None
    cap = ["capacity", "--model", "llama-3.1-70b", "--hardware", "b200,mi355x", "--output-tokens-per-day", "1e9",
           "--tpot-target-ms", "50", "--weights", "fp8", "--profile", "tensorrt-llm"]  # fmt: skip
    code, out, _ = run(capsys, *cap)
    assert code == 0 and "\nmi355x: note: TensorRT-LLM, NVIDIA's own CUDA library" in out and "b200: note" not in out
    code, out, _ = run(capsys, *cap, "--json")
    assert [d["platform_note"] is None for d in json.loads(out)] == [True, False]


def test_float_texts_write_a_column_as_float_text_writes_each_cell():
    """evaluate formats each result column in one vectorised call (half its time went to formatting cell by cell):
    the same text as float_text for every value, NaN empty, padding gone, outside the fast path too (1e13, 1e-7)."""
    from tpot_model.csv_format import float_text, float_texts

    values = [15.28794, 0.2878341, 1342.053, -4.5, 32.0, float("nan"), 0.0, 1e13, 1e-7, 123456789.0]
    assert float_texts(values) == [float_text(v) for v in values]
    assert float_texts(values[:4]) == ["15.28794", "0.2878341", "1342.053", "-4.5"] and float_texts([]) == []


def test_evaluate_says_how_far_it_has_got_on_a_long_file(capsys, tmp_path, monkeypatch):
    """A long scenarios file (200,000 rows take minutes) prints its progress on stderr every PROGRESS_EVERY_S; the
    output file is the same."""
    from tpot_model import cli

    path = tmp_path / "s.csv"
    path.write_text("model,hardware,batch\n" + "llama-3.1-8b,h100-sxm,1\nllama-3.1-8b,h100-sxm,8\n", encoding="utf-8")
    code, _, err = run(capsys, "evaluate", str(path), "-o", str(tmp_path / "a.csv"))
    assert code == 0 and "of 2 scenarios" not in err
    monkeypatch.setattr(cli, "PROGRESS_EVERY_S", -1.0)
    code, _, err = run(capsys, "evaluate", str(path), "-o", str(tmp_path / "b.csv"))
    assert code == 0 and "1 of 2 scenarios (" in err and "2 of 2 scenarios (" in err
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()


def test_every_json_says_what_its_shared_keys_count(capsys):
    """tokens_per_s_per_gpu is decode output in estimate and frontier's batch search and input + output over both
    pools in its layout search (issue 18's InferenceX count); usd_per_1M_tokens and ttft_ms differ the same way
    (helper review): each JSON's 'counting' says which, as one set of words (cli_text.counting)."""
    from tpot_model.cli_text import counting

    base = ["--model", "llama-3.1-70b", "--hardware", "h200", "--weights", "fp8"]
    for batching in ("static", "continuous"):
        assert run_json(capsys, *base, "--batching", batching)["counting"] == counting("decode", batching)
    code, out, _ = run(capsys, "frontier", *base, "--tpot-target-ms", "50", "--json")
    batch = json.loads(out)
    code, out, _ = run(capsys, "frontier", *base, "--tpot-target-ms", "50", "--max-gpus", "2", "--json")
    search = json.loads(out)
    assert batch["counting"] == counting("decode") and search["counting"] == counting("served")
    assert "input + output" in search["counting"]["tokens_per_s_per_gpu"]
    assert "prefill not counted" in batch["counting"]["tokens_per_s_per_gpu"]
    code, out, _ = run(capsys, "frontier", *base, "--tpot-target-ms", "50", "--batching", "continuous", "--json")
    served = json.loads(out)
    assert served["counting"] == counting("decode", "continuous") and served["batching"] == "continuous"
    assert "prefill not counted" not in served["counting"]["tokens_per_s_per_gpu"]  # its steps hold the prefill


def test_frontier_batch_search_under_continuous_batching_is_the_planners_served_row(capsys):
    """`frontier --batching continuous` answers what the Serving planner's served row and the Serving frontier's
    curves show (a review: no CLI mode reproduced the page's 2,176 output tok/s per GPU for DeepSeek-R1 FP8 on 8 x
    GB200 at 25 tok/s/user; the static search reads 3,035): planner.frontier on the continuous scenario; static
    stays the default; the layout search refuses the option, one line, exit 2."""
    from tpot_model import Scenario, planner, resolve_hardware, resolve_model, resolve_profile

    base = ["frontier", "--model", "deepseek-r1", "--hardware", "gb200", "--gpus", "8", "--weights", "fp8", "--kv",
            "fp8", "--context", "1024", "--output", "1024", "--interactivity", "25"]  # fmt: skip
    s = Scenario(context_tokens=1024, output_tokens=1024, num_gpus=8, weights="fp8", kv_cache="fp8")
    m, hw, p = resolve_model("deepseek-r1"), resolve_hardware("gb200"), resolve_profile("typical")
    for batching in ("static", "continuous"):
        code, out, _ = run(capsys, *base, *(["--batching", batching] if batching == "continuous" else []), "--json")
        d = json.loads(out)
        want = planner.frontier(m, hw, replace(s, batching=batching), p, 0.04)
        assert code == 0 and d["batching"] == batching
        assert (d["batch"], d["tokens_per_s_per_gpu"]) == (want.batch, pytest.approx(want.tokens_per_s_per_gpu))
        assert d["ttft_ms"] == pytest.approx(want.ttft_s * 1e3)
    code, out, _ = run(capsys, *base, "--batching", "continuous")
    assert "continuous batching\nrequests_in_flight     695\n" in out and "tokens_per_s_per_gpu   2172.7" in out
    code, _, err = run(capsys, *[a for a in base if a not in ("--gpus", "8")], "--max-gpus", "8", "--batching",
                       "continuous")  # fmt: skip
    assert code == 2 and err.count("\n") == 1 and err.startswith("error: --batching: ")


def test_config_json_errors_name_the_key_and_the_problem(capsys, tmp_path):
    base = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32,
            "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256}  # fmt: skip
    for change, said in (
        ({"intermediate_size": None}, "field 'intermediate_size' is missing (a llama config.json needs it)"),
        ({"vocab_size": "VOCAB"}, "malformed YAML/JSON: a whole number of 5001 digits"),
    ):
        path = tmp_path / "config.json"
        path.write_text(json.dumps(base | change).replace('"VOCAB"', "1" * 5001))
        code, _, err = run(capsys, "estimate", "--model", str(path), "--hardware", "h200")
        assert code == 2 and err == f"error: --model: {path}: {said}\n"


def test_files_that_are_not_utf8_are_refused_naming_the_file(capsys, tmp_path):
    # a review: a Latin-1 hardware file had loaded with its name as 'G\ufffd', while a Latin-1 CSV was refused
    hw = tmp_path / "lab.yaml"
    hw.write_bytes("name: Gé lab GPU\nmemory_GB: 24\nmemory_bandwidth_TB_per_s: 1\ndense_TFLOP_per_s: {bf16: 100}\n"
                   .encode("latin-1"))  # fmt: skip
    code, _, err = run(capsys, "estimate", "--model", "llama-3.1-8b", "--hardware", str(hw))
    assert code == 2 and err == f"error: --hardware: {hw}: not UTF-8 text (invalid continuation byte at byte 7)\n"
    hw.write_text(hw.read_bytes().decode("latin-1"), encoding="utf-8")
    code, out, err = run(capsys, "estimate", "--model", "llama-3.1-8b", "--hardware", str(hw))
    assert code == 0 and "Gé lab GPU" in out


def test_the_web_upload_refuses_a_binary_file_as_the_cli_does(capsys, tmp_path):
    # a review: the web had decoded with replacement characters and said 'malformed YAML/JSON: syntax error'
    from ui import i18n, uploads

    raw = bytes(range(0x80, 0x100)) * 4
    for kind, option in (("hardware", "--hardware"), ("model", "--model")):
        path = tmp_path / f"blob-{kind}.yaml"
        path.write_bytes(raw)
        given = {"--model": "llama-3.1-8b", "--hardware": "h200"} | {option: str(path)}
        code, _, err = run(capsys, "estimate", *[a for kv in given.items() for a in kv])
        obj, problems, _ = uploads.read_upload(kind, raw, str(path))
        assert code == 2 and obj is None and err == f"error: {option}: {problems[0]}\n", (err, problems)
        assert problems == [f"{path}: not UTF-8 text (invalid start byte at byte 0)"]
    # the uploader's help names the catalog's field names (interconnect_GB_per_s is their older name)
    for lang in ("en", "zh-TW"):
        help_text = i18n.Translator(lang)("upload_hardware_help")
        assert "scale_up_GB_per_s" in help_text and "interconnect_GB_per_s" not in help_text, help_text


def test_expert_parallel_layouts_of_a_dense_model_say_what_they_run_as(capsys):
    """--parallelism tp-ep on a model without experts had given tp's numbers and dp-ep replicas' without a word."""
    args = ["--model", "llama-3.1-70b", "--hardware", "h200", "--gpus", "2", "--weights", "fp8", "--batch", "32"]
    tp, tp_ep, dp_ep = (run_json(capsys, *args, "--parallelism", p) for p in ("tp", "tp-ep", "dp-ep"))
    assert tp["parallelism_note"] is None and tp_ep["tpot_ms"] == tp["tpot_ms"]
    assert "tp-ep runs as tp" in tp_ep["parallelism_note"] and "data-parallel replicas" in dp_ep["parallelism_note"]
    assert dp_ep["weights_GB"] == tp["weights_GB"] and dp_ep["memory_per_gpu_GB"] > tp["weights_GB"]  # whole model
    code, out, _ = run(capsys, "estimate", *args, "--parallelism", "tp-ep")
    assert code == 0 and "Note: Llama 3.1 70B has no experts: tp-ep runs as tp" in out
    moe = run_json(capsys, "--model", "deepseek-r1", "--hardware", "h200", "--gpus", "8", "--weights", "fp8",
                   "--parallelism", "dp-ep")  # fmt: skip
    assert moe["parallelism_note"] is None


def test_estimate_says_what_usable_memory_rests_on(capsys):
    """A helper review: '(93% of 141.0 GB)' read usable against H200's datasheet where the fit starts from the
    141 GiB nvidia-smi reports (151.4 GB): the text works usable out from its figure, the JSON carries the parts."""
    args = ["--model", "llama-3.1-70b", "--hardware", "h200", "--gpus", "2", "--weights", "fp8"]
    r = run_json(capsys, *args)
    assert r["usable_memory_from_GB"] == pytest.approx(141 * 2**30 / 1e9) and r["usable_memory_fraction"] == 0.9
    assert r["usable_memory_per_gpu_GB"] == pytest.approx(
        r["usable_memory_from_GB"] * 0.9 - r["reserved_memory_GB"], rel=1e-12
    )
    assert r["reserved_memory_GB"] == pytest.approx(4.14 * 2**30 / 1e9)  # the engine's 4.14 GiB
    code, out, _ = run(capsys, "estimate", *args)
    assert (
        code == 0 and "151.4 GB as the vendor's tool reports it (141.0 GiB; datasheet 141.0 GB) x 0.9 - 4.45 GB" in out
    )
    assert "% of 141.0 GB" not in out
    code, out, _ = run(capsys, "estimate", "--model", "llama-3.1-8b", "--hardware", "rtx-4090")
    assert "24.0 GB (datasheet) x 0.9" in out


def test_the_bound_names_the_ridge_it_is_decided_by(capsys):
    """Llama-3.1-70B FP8 on 8 x H200, batch 300, 128-token context: 373 FLOP/byte against a peak ridge of 412 read
    'bound compute' with nothing saying why; the ridge at the profile's rates (309) decides, and is given; the ideal
    profile has one ridge and says nothing more."""
    base = ["--model", "llama-3.1-70b", "--hardware", "h200", "--gpus", "8", "--weights", "fp8", "--batch", "300",
            "--context", "128"]  # fmt: skip
    d = run_json(capsys, *base)
    assert d["ridge_point_flop_per_byte"] == pytest.approx(1978.9 / 4.8, rel=1e-3)
    assert d["effective_ridge_flop_per_byte"] < d["arithmetic_intensity_flop_per_byte"] < d["ridge_point_flop_per_byte"]
    assert d["bound"] == "compute"
    code, out, _ = run(capsys, "estimate", *base)
    assert "bound                                  compute (against the ridge at the profile's rates)" in out
    ideal = run_json(capsys, *base, "--profile", "ideal")
    assert ideal["effective_ridge_flop_per_byte"] == pytest.approx(ideal["ridge_point_flop_per_byte"])
    assert ideal["bound"] == "memory"


def test_frontier_reads_the_measured_runs_of_bare_fp4_as_the_chips_block_format(capsys):
    """--weights fp4 is the chip's block FP4 (NVFP4 on NVIDIA, MXFP4 on AMD) as the search and the pages take it; the
    measured frontier at the target had been looked up under 'fp4', which no run is labelled, and left out (a
    browser review: GB200 at 25 tok/s per user, 1k/1k, read 6,980 tok/s/GPU on the page and nothing in the CLI)."""
    from tpot_model.planner_cli import frontier_main

    def measured(hardware: str, weights: str) -> dict:
        args = ["--model", "deepseek-r1", "--hardware", hardware, "--weights", weights, "--kv", "fp8", "--context",
                "1024", "--output", "1024", "--max-gpus", "72", "--interactivity", "25", "--json"]  # fmt: skip
        assert frontier_main(args) == 0
        return json.loads(capsys.readouterr().out)["measured_at_target"]

    for hardware, block in (("gb200", "nvfp4"), ("mi355x", "mxfp4")):
        bare = measured(hardware, "fp4")
        assert bare is not None and bare == measured(hardware, block)
        assert bare["runs"] and all(r["context_tokens"] == r["output_tokens"] == 1024 for r in bare["runs"])


def test_readme_rack_scale_figures_are_the_clis(capsys):
    """The README's worked rack-scale figures (DeepSeek-R1 FP8 1k/1k within 72 GPUs at 25 tok/s per user, best engine)
    are what `frontier` answers today (a browser review found 8,307 / 4,652 / 7,674 in the README against the CLI's
    8,554 / 4,841 / 7,984): a change of the model that moves them fails here until the README says it."""
    from tpot_model.planner_cli import frontier_main

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    flat = " ".join(readme.split())

    def per_gpu(hardware: str, *extra: str) -> str:
        args = ["--model", "deepseek-r1", "--hardware", hardware, "--weights", "fp8", "--kv", "fp8", "--context",
                "1024", "--output", "1024", "--max-gpus", "72", "--interactivity", "25", "--json", *extra]  # fmt: skip
        assert frontier_main(args) == 0
        return f"{json.loads(capsys.readouterr().out)['tokens_per_s_per_gpu']:,.0f}"

    gb200, b200 = per_gpu("gb200"), per_gpu("b200")
    assert f"on both), {gb200} and {b200} (under typical," in flat
    assert f"against {gb200} unconstrained" in flat and f"B200's, inside the recipes, is {b200} either way" in flat
    assert f"then reads {per_gpu('gb200', '--within-measured')} tokens/s per GPU on DEP32" in flat


def test_readme_capacity_range_figures_are_the_clis(capsys):
    """The README's worked fleet with its measured 80 % range (capacity --max-gpus 72, DeepSeek-R1 FP8 1k/1k, 1e11
    output and input tokens a day at a 20 ms TPOT target) is what `capacity --json` answers today: its GPUs and
    gpus_80pct_low / gpus_80pct_high per chip, and the command as the README writes it."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    flat = " ".join(readme.split())
    argv = ["capacity", "--model", "deepseek-r1", "--hardware", "gb200,b200", "--weights", "fp8", "--kv", "fp8",
            "--context", "1024", "--output", "1024", "--output-tokens-per-day", "1e11", "--input-tokens-per-day", "1e11",
            "--tpot-target-ms", "20", "--max-gpus", "72"]  # fmt: skip
    assert f"`{' '.join(argv)}` answers" in flat
    from ui.i18n import EN

    assert f'Economics\' "{EN("ec_col_gpus_range")}" row' in flat  # the page's row, as it reads
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    gb200, b200 = json.loads(out)

    def said(d: dict) -> tuple[str, str]:
        return f"{d['gpus']:,}", f"{d['gpus_80pct_low']:,}-{d['gpus_80pct_high']:,}"

    assert gb200["hardware"] == "gb200" and gb200["gpus_80pct_low"] < gb200["gpus"] < gb200["gpus_80pct_high"]
    assert f"GB200 {said(gb200)[0]} GPUs (80 % range {said(gb200)[1]}), B200 {said(b200)[0]} ({said(b200)[1]})." in flat


def test_a_config_json_without_a_window_says_the_window_it_took(capsys, tmp_path):
    """A review: a config.json without max_position_embeddings ran at a 4,096-token window, unsaid."""
    cfg = {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
           "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256}  # fmt: skip
    path = tmp_path / "my-llama" / "config.json"
    path.parent.mkdir()
    path.write_text(json.dumps(cfg))
    code, out, _ = run(capsys, "estimate", "--model", path, "--hardware", "h200")
    assert (
        code == 0
        and "Note: my-llama's config.json gives no max_position_embeddings: its context window is "
        "taken as 4,096 tokens."
        in out
    ), out
    r = run_json(capsys, "--model", path, "--hardware", "h200")
    assert "4,096 tokens" in r["assumed_window_note"]
    path.write_text(json.dumps(cfg | {"max_position_embeddings": 131072}))
    assert run_json(capsys, "--model", path, "--hardware", "h200")["assumed_window_note"] is None


def test_energy_on_an_estimated_tdp_is_marked_an_estimate(capsys, tmp_path):
    """Trainium3's 1 kW is the catalog's estimate (Hardware.estimated): `estimate` had printed 'energy, board power
    only 0.802 J/token' as if from a datasheet. Its text, --json (tdp_W, board_power_estimated, estimated),
    evaluate's CSV and `list hardware` ('~') say so; a published TDP (H200's) is not marked."""
    argv = ["--model", "llama-3.1-8b", "--batch", "8"]
    code, out, _ = run(capsys, "estimate", *argv, "--hardware", "trainium3")
    (line,) = [x for x in out.splitlines() if "energy, board power only" in x]
    assert line.endswith("J/token (an estimate: trainium3's TDP, 1,000 W, is not published)"), line
    r = run_json(capsys, *argv, "--hardware", "trainium3")
    assert r["tdp_W"] == 1000.0 and r["board_power_estimated"] is True and r["estimated"] == ["tdp_W"]
    assert r["joules_per_token"] == pytest.approx(1000.0 * r["tpot_s"] / 8)
    h200 = run_json(capsys, *argv, "--hardware", "h200")
    assert h200["board_power_estimated"] is False and h200["estimated"] == []
    code, out, _ = run(capsys, "estimate", *argv, "--hardware", "h200")
    assert "estimate:" not in out
    src = write(tmp_path / "s.csv", "model,hardware\nllama-3.1-8b,trainium3\nllama-3.1-8b,h200\n")
    assert run(capsys, "evaluate", src, "-o", tmp_path / "r.csv")[0] == 0
    rows = read_csv((tmp_path / "r.csv").read_text(encoding="utf-8-sig"))
    assert [row["board_power_estimated"] for row in rows] == ["true", "false"]
    code, out, _ = run(capsys, "list", "hardware")
    cells = {x.split()[0]: x.split() for x in out.splitlines() if x.split()}
    assert "~1,000" in cells["trainium3"] and "~192" in cells["tpu-v4"] and "700" in cells["h200"]
    assert "~ = the catalog's estimate, not published" in out
