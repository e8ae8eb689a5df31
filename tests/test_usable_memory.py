"""The fit gate's memory (issue 18): the memory the vendor's tool reports x the engine's usable fraction - the engine's
reservation (estimate.usable_memory), or for TensorRT-LLM that fraction of what the weights and workspace leave free;
the datasheet in its place where no reported figure is published. Hand-worked
numbers and the published vLLM memory rows (public-2026.md section 2.9, llm-d empirical results on H100)."""

from __future__ import annotations

import json
import math

import pytest

from tpot_model import Scenario, estimate, load_hardware_catalog, load_model_catalog, resolve_profile
from tpot_model.cli import main
from tpot_model.estimate import usable_memory, workspace_bytes_per_gpu
from tpot_model.profiles import ENGINE_RESERVED_BYTES, IDEAL
from tpot_model.roofline import kv_cache_bytes_per_sequence, total_params

GiB = 2**30
HW, MODELS = load_hardware_catalog(), load_model_catalog()
VLLM = resolve_profile("vllm")


def test_h200_reported_memory_and_the_engine_reservation():
    """H200: datasheet 141 GB; NVIDIA's own tools 141 GiB (151.4 GB). vLLM fills 0.9 of it less its 4.14 GiB reservation:
    0.9 x 141 - 4.14 = 122.76 GiB = 131.81 GB per GPU (the datasheet rule gave 0.9 x 141 GB = 126.9 GB)."""
    u = usable_memory(HW["h200"], VLLM)
    assert u.basis == "reported" and u.capacity_bytes == 141 * GiB
    assert u.reserved_bytes == pytest.approx(4.14 * GiB)
    assert u.budget_bytes == pytest.approx(122.76 * GiB) == pytest.approx(131.8125e9, rel=1e-5)
    assert u.budget_bytes > HW["h200"].memory_bytes * 0.9  # GiB, not GB: the reported figure is 7 % more bytes


def test_an_engine_that_allocates_as_it_goes_keeps_all_but_its_cuda_context():
    """gpt-fast ran Llama 2 70B in BF16 on 2 x A100 80GB (data/measurements.csv: 21.32 tok/s): 69.38 GB per GPU. On
    vLLM's basis (0.9 x 80 GB - 4.14 GiB = 67.55 GB) it did not fit (helper review); gpt-fast and llama.cpp allocate
    as they go (profiles.yaml: fraction 1, reserved 0.75 GiB, documented): 80 GB - 0.75 GiB = 79.19 GB, and it fits."""
    s = Scenario(batch=1, context_tokens=5, output_tokens=200, num_gpus=2, weights="bf16", kv_cache="bf16")
    a100, m = HW["a100-80gb-sxm"], MODELS["llama-2-70b"]
    for pid in ("gpt-fast", "llama.cpp"):
        p = resolve_profile(pid)
        assert (p.usable_memory_fraction, p.reserved_memory_bytes) == (1.0, 0.75 * GiB)
        assert dict(p.basis)["reserved_memory_GiB"] == dict(p.basis)["usable_memory_fraction"] == "documented"
        u = usable_memory(a100, p)
        assert u.basis == "datasheet" and u.budget_bytes == pytest.approx(80e9 - 0.75 * GiB) == pytest.approx(
            79.195e9, 1e-4
        )
    fast, served = estimate(m, a100, s, resolve_profile("gpt-fast")), estimate(m, a100, s, VLLM)
    assert float(fast.memory_per_gpu_bytes) == pytest.approx(69.38e9, rel=1e-3)
    assert bool(fast.fits) and not bool(served.fits)
    assert served.usable_memory_per_gpu_bytes == pytest.approx(0.9 * 80e9 - ENGINE_RESERVED_BYTES)


def test_deepseek_r1_fp8_on_eight_h200_what_fits_per_gpu():
    """DeepSeek-R1, FP8 weights and KV cache, TP8 on H200, 8K in + 1K out. Per GPU: weights 671.03e9 / 8 = 83.88 GB;
    KV cache per sequence 9,216 tokens x 61 layers x 576 latent bytes (MLA, replicated on every GPU) = 323.8 MB;
    usable 131.81 GB. Sequences: floor((131.81 - 83.88 - workspace) / (0.3238 + workspace per sequence)) = 147, where
    the datasheet rule (126.9 GB) held 132."""
    m = MODELS["deepseek-r1"]
    s = Scenario(batch=1, context_tokens=8192, output_tokens=1024, num_gpus=8, weights="fp8", kv_cache="fp8")
    e = estimate(m, HW["h200"], s, VLLM)
    weights = total_params(m) / 8
    assert float(e.weight_bytes_per_gpu) == pytest.approx(weights) == pytest.approx(83.878e9, rel=1e-4)
    kv = float(kv_cache_bytes_per_sequence(m, 9216, 1.0))
    assert kv == 9216 * 61 * 576
    ws0 = float(workspace_bytes_per_gpu(m, s, 8, batch=0))
    ws_seq = float(workspace_bytes_per_gpu(m, s, 8, batch=1)) - ws0
    assert ws0 + ws_seq < 0.2e9  # small beside the cache

    def held(usable: float) -> int:
        return math.floor((usable - weights - ws0) / (kv + ws_seq))

    assert float(e.max_batch) == held(131.8125e9) == 147
    assert held(141e9 * 0.9) == 132  # the datasheet rule
    assert e.usable_memory_basis == "reported"


def test_vllm_memory_rows_on_h100():
    """The published rows (vLLM, H100 nvidia-smi 79.6 GiB, gpu_memory_utilization 0.9, max-model-len 16000): KV room =
    usable - weights - workspace at one 16,000-token sequence. Llama-3.1-8B BF16 TP1: 51.38 GiB measured (the row the
    reservation is derived from); Llama-3.3-70B FP8 TP1: -1.44 GiB measured, does not start; TP2: 32.0 GiB measured
    (the model's 33.3: its FP8 weights are 1 GiB lighter than the checkpoint's 33.88)."""

    def room(model: str, gpus: int, weights: str) -> tuple[float, bool]:
        s = Scenario(batch=1, context_tokens=16000, output_tokens=1, num_gpus=gpus, weights=weights,
                     batching="continuous")  # fmt: skip
        e = estimate(MODELS[model], HW["h100-sxm"], s, VLLM)
        free = e.usable_memory_per_gpu_bytes - float(e.weight_bytes_per_gpu) - float(e.workspace_bytes_per_gpu)
        return free / GiB, bool(e.fits)

    assert room("llama-3.1-8b", 1, "bf16")[0] == pytest.approx(51.38, abs=0.1)
    kv, fits = room("llama-3.3-70b", 1, "fp8")
    assert kv < 0 and not fits
    kv, fits = room("llama-3.3-70b", 2, "fp8")
    assert fits and kv == pytest.approx(32.0, rel=0.06)


def test_no_reported_figure_falls_back_to_the_datasheet_and_still_pays_the_engines_reservation():
    """MI300X: no reported figure; 0.9 x 192 GB - 4.14 GiB = 168.35 GB (the reservation is the engine's, so an AMD
    chip is not made roomier than an NVIDIA one by the lack of a published nvidia-smi figure)."""
    mi = HW["mi300x"]
    assert mi.memory_reported_bytes is None
    u = usable_memory(mi, VLLM)
    assert u.basis == "datasheet" and u.reserved_bytes == ENGINE_RESERVED_BYTES
    assert u.budget_bytes == pytest.approx(192e9 * 0.9 - 4.14 * GiB) and u.budget_bytes / 1e9 == pytest.approx(
        168.35, abs=0.01
    )
    assert usable_memory(mi, IDEAL).budget_bytes == pytest.approx(192e9)  # the ideal bound reserves nothing
    e = estimate(MODELS["llama-3.1-8b"], mi, Scenario(batch=1, context_tokens=1024, output_tokens=1), VLLM)
    assert e.usable_memory_basis == "datasheet"


def test_the_ideal_bound_reserves_nothing():
    u = usable_memory(HW["h100-sxm"], IDEAL)
    assert u.basis == "reported" and u.reserved_bytes == 0 and u.budget_bytes == pytest.approx(79.6 * GiB)
    assert ENGINE_RESERVED_BYTES / GiB == pytest.approx(4.14)


def test_more_reported_memory_means_a_wider_recipe_can_fit():
    """GB200's 185.0 GiB (198.6 GB) against its 186 GB datasheet: the reported figure holds more KV cache."""
    gb = HW["gb200"]
    assert usable_memory(gb, VLLM).budget_bytes > gb.memory_bytes * VLLM.usable_memory_fraction


def test_cli_estimate_json_names_the_basis(capsys):
    assert main(["estimate", "--model", "llama-3.1-8b", "--hardware", "h200", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["usable_memory_basis"] == "reported"
    assert main(["estimate", "--model", "llama-3.1-8b", "--hardware", "mi300x", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["usable_memory_basis"] == "datasheet"


TRTLLM = resolve_profile("tensorrt-llm")


def test_tensorrt_llm_gives_its_kv_cache_a_share_of_the_free_memory():
    """TensorRT-LLM's free_gpu_memory_fraction (0.9) is of the memory free once the weights and workspace are loaded,
    not of all of it (vLLM's gpu_memory_utilization, SGLang's mem_fraction_static). H200, 141 GiB reported = 151.40 GB,
    4.14 GiB = 4.445 GB reserved, 100 GB held: usable = 100 + 0.9 x (151.40 - 4.445 - 100) = 142.26 GB, where vLLM's
    rule gives 0.9 x 151.40 - 4.445 = 131.81 GB whatever is held."""
    u = usable_memory(HW["h200"], TRTLLM)
    assert u.of_free and u.fraction == 0.9 and dict(TRTLLM.basis)["usable_memory_fraction"] == "documented"
    assert u.budget_bytes == pytest.approx(0.9 * (141 * GiB - 4.14 * GiB))
    assert float(u.bytes_for(100e9)) / 1e9 == pytest.approx(142.257, abs=1e-3)
    v = usable_memory(HW["h200"], VLLM)
    assert not v.of_free and float(v.bytes_for(100e9)) == pytest.approx(v.budget_bytes) == pytest.approx(
        131.8125e9, 1e-5
    )
    assert not usable_memory(HW["h200"], resolve_profile("sglang")).of_free


def test_deepseek_r1_fp8_on_four_b200_fits_the_measured_sixteen_requests_under_tensorrt_llm():
    """InferenceX IX-063 (data/serving_measurements.csv): TensorRT-LLM served DeepSeek-R1 FP8 on 4 x B200 (TP4, FP8 KV)
    at 16 concurrent 8K / 1K requests. Per GPU: weights 671.03 / 4 = 167.76 GB of 193.27 GB reported (180 GiB); under
    vLLM's rule (0.9 x 193.27 - 4.45 = 169.50 GB usable) only 4 sequences fit and 16 do not; under TensorRT-LLM's the
    KV cache takes 0.9 of what the weights, workspace and reservation leave (~20.9 GB): 16 fit, 57 at most."""
    s = Scenario(batch=16, context_tokens=9216, output_tokens=1, num_gpus=4, weights="fp8", kv_cache="fp8")
    m, b200 = MODELS["deepseek-r1"], HW["b200"]
    served, trt = estimate(m, b200, s, VLLM), estimate(m, b200, s, TRTLLM)
    assert float(trt.weight_bytes_per_gpu) / 1e9 == pytest.approx(167.76, abs=0.01)
    assert not bool(served.fits) and int(served.max_batch) == 4
    assert bool(trt.fits) and int(trt.max_batch) == 57
    held = float(trt.weight_bytes_per_gpu + trt.workspace_bytes_per_gpu)
    assert float(trt.usable_memory_per_gpu_bytes) == pytest.approx(held + 0.9 * (180 * GiB - 4.14 * GiB - held))
    # the largest batch the gate admits is max_batch: 57 fits, 58 does not
    at = lambda b: estimate(m, b200, Scenario(batch=b, context_tokens=9216, output_tokens=1, num_gpus=4,  # noqa: E731
                                             weights="fp8", kv_cache="fp8"), TRTLLM)  # fmt: skip
    assert bool(at(57).fits) and not bool(at(58).fits)


def test_cli_says_which_share_the_engine_takes(capsys):
    """The CLI's 'usable =' line writes the gate out as the engine applies it."""
    args = ["estimate", "--model", "deepseek-r1", "--hardware", "b200", "--gpus", "4", "--weights", "fp8", "--kv",
            "fp8", "--context", "9216", "--batch", "16"]  # fmt: skip
    assert main([*args, "--profile", "tensorrt-llm"]) == 0
    out = capsys.readouterr().out
    assert "usable =" in out and "weights + workspace + 0.9 x (193.3 GB as the vendor's tool reports it" in out
    assert main([*args, "--profile", "tensorrt-llm", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["usable_memory_fraction_of"] == "free" and r["fits"] and r["max_batch"] == 57
    assert main([*args, "--profile", "vllm", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["usable_memory_fraction_of"] == "all" and not r["fits"]


def test_a_chosen_layouts_pools_fit_the_usable_memory_the_layout_table_reports():
    """The Planner's layout table gives each pool's usable memory per GPU (layouts.pool_usable_bytes): under
    TensorRT-LLM the budget plus 0.1 of the pool's weights + workspace, so more than the budget, and the pool's own
    memory at its batch within it; under vLLM the budget itself."""
    from dataclasses import replace

    from tpot_model import layouts as lo

    m, b200 = MODELS["deepseek-r1"], HW["b200"]
    s = Scenario(context_tokens=8192, output_tokens=1024, weights="fp8", kv_cache="fp8")
    for profile in (TRTLLM, VLLM):
        d = lo.best_deployment(m, b200, s, profile, max_gpus=16, tpot_target_s=0.05)
        gate = usable_memory(b200, profile)
        for pool in (d.prefill, d.decode):
            if pool is None:
                continue
            usable = lo.pool_usable_bytes(m, b200, s, profile, pool)
            e = estimate(m, b200, replace(s, batch=pool.batch, num_gpus=pool.gpus_each, parallelism=pool.parallelism),
                         profile)  # fmt: skip
            if profile is VLLM:
                assert usable == pytest.approx(gate.budget_bytes)
            else:
                held = float(e.weight_bytes_per_gpu + e.workspace_bytes_per_gpu)
                assert usable == pytest.approx(gate.budget_bytes + 0.1 * held) and usable > gate.budget_bytes
            assert float(e.memory_per_gpu_bytes) <= usable
    assert lo.pool_usable_bytes(m, b200, s, TRTLLM, None) == pytest.approx(usable_memory(b200, TRTLLM).budget_bytes)
    # the layout CSV gives each pool's figure and says which rule it follows
    from ui.figures import planner as figs

    d = lo.best_deployment(m, b200, s, TRTLLM, max_gpus=16, tpot_target_s=0.05)
    table = figs.layout_table(d, serving_searched="best", usable_basis="reported", usable_of_free=True,
                              usable_bytes=lambda pool: lo.pool_usable_bytes(m, b200, s, TRTLLM, pool))  # fmt: skip
    assert set(table["usable_memory_fraction_of"]) == {"free"}
    # its costs name their token basis (a review: the TP table's output-only $ had the same column name)
    assert set(table["usd_per_1M_tokens_in_out"]) == {d.usd_per_1M_tokens} and "usd_per_1M_tokens" not in table
    assert set(table["usd_per_1M_output_tokens"]) == {d.usd_per_1M_output_tokens}
    assert d.usd_per_1M_output_tokens > d.usd_per_1M_tokens  # fewer tokens to the same dollars
    for _, row in table.iterrows():
        pool = d.prefill if row["pool"] == "prefill" else d.decode
        assert row["usable_memory_per_gpu_GB"] == pytest.approx(lo.pool_usable_bytes(m, b200, s, TRTLLM, pool) / 1e9)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_overview_and_kv_cache_say_tensorrt_llms_rule_beside_its_usable_figure(lang):
    """A browser review: switching vLLM to TensorRT-LLM moved the usable memory from 170 to 187 GB per B200 and only
    one expander said why. Overview's memory help and the KV cache page's room caption now add the rule under
    TensorRT-LLM (fmt.memory_rule) and nothing under vLLM."""
    from tests.apptest_util import run_page
    from ui import fmt
    from ui.i18n import Translator

    tr = Translator(lang)
    q = dict(model="deepseek-r1", hardware="b200", gpus="4", weights="fp8", kv="fp8", context="8192", batch="16",
             lang=lang)  # fmt: skip
    rule = tr("mem_rule_free", engine="TensorRT-LLM", fraction="0.9", reserved=fmt.gb(4.14 * GiB))
    for page in ("overview", "kv_cache"):
        trt = run_page(page, profile="tensorrt-llm", **q)
        assert not trt.exception, trt.exception
        said = [m.help or "" for m in trt.metric] + [c.value for c in trt.main.caption]
        assert any(rule in t for t in said), (page, said)
        vllm = run_page(page, profile="vllm", **q)
        assert not any(
            rule.strip()[:20] in t for t in [m.help or "" for m in vllm.metric] + [c.value for c in vllm.main.caption]
        )
