"""Build data/serving_measurements.csv from the shared public serving measurements file and the rows transcribed
here from other public posts (data/serving_measurements_transcribed.csv, the same columns): every row and column
kept verbatim, plus the mapping to the catalogs (model_id, hardware_id, formats, layout, engine profile, run date,
MTP flag, and `use`: fit, or display with the reasons).

    python scripts/build_serving_measurements.py PATH/serving-measurements-public.csv [-o data/serving_measurements.csv]

Run once when the public file changes; tpot_model.serving_calibration reads the result.
"""

from __future__ import annotations

import argparse
import csv
import io
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: the package is beside scripts/
    sys.path.insert(0, str(ROOT))

from tpot_model.catalog import load_hardware_catalog, load_model_catalog  # noqa: E402
from tpot_model.serving_calibration import COLUMNS, PUBLIC_COLUMNS, TRANSFER  # noqa: E402

OUTPUT = ROOT / "data" / "serving_measurements.csv"
TRANSCRIBED = ROOT / "data" / "serving_measurements_transcribed.csv"

_MODELS = (
    ("DeepSeek-R1-0528", "deepseek-r1"),
    ("DeepSeek-V4-Pro", "deepseek-v4-pro"),
    ("Qwen3.5-397B-A17B", "qwen3.5-397b-a17b"),
)
# The serving fit's model: runs of the other catalog models are held out of every fit and check that sets the
# profiles, pool correction and trust bands, and kept as the transfer check (frontier_check.transfer_summary).
FITTED_MODELS = ("deepseek-r1",)
TRANSFER_REASON = f"{TRANSFER}: a model the serving fit has not seen"
_HARDWARE = (  # first match wins: GB200 before B200
    ("GB300", "gb300"),
    ("GB200", "gb200"),
    ("B200", "b200"),
    ("H200", "h200"),
    ("H100", "h100-sxm"),
    ("MI355X", "mi355x"),
)
_WEIGHTS = (("NVFP4", "nvfp4"), ("MXFP4", "mxfp4"), ("FP4", "nvfp4"), ("FP8", "fp8"))
_ENGINES = (
    ("Dynamo + TensorRT-LLM", "tensorrt-llm"),
    ("Dynamo + SGLang", "sglang"),
    ("SGLang", "sglang"),
    ("TensorRT-LLM", "tensorrt-llm"),
    ("AMD ATOM", "atom"),
    ("vLLM", "vllm"),
)


def _first(text: str, table: tuple[tuple[str, str], ...]) -> str:
    return next((v for k, v in table if k in text), "")


def _kv(text: str) -> tuple[str, str]:
    """(kv format id, mapping note)."""
    if text.startswith("FP8") or text.startswith("uncertain: FP8"):
        return "fp8", (
            "KV format uncertain (flag added the day of the run); fp8 assumed" if "uncertain" in text else ""
        )
    if text.startswith("engine default"):
        return "bf16", "no --kv-cache-dtype in the recipe: the engine default, bf16"
    if text.startswith("not recorded"):
        return "bf16", "KV format not recorded for this date: the engine default, bf16, assumed"
    if text.startswith("not checked"):
        return "fp8", "KV format not checked (disaggregated recipe): fp8 assumed"
    return "", "KV format not stated"


def _layout(parallelism: str) -> str:
    p = parallelism.strip()
    if p.startswith("disagg"):
        return "disaggregated"
    if "DP-attention" in p:
        return "dp-ep"
    if re.fullmatch(r"TP\d+/EP\d+", p):
        return "tp-ep"
    if re.fullmatch(r"TP\d+", p):
        return "tp"
    return ""


def _note_number(notes: str, pattern: str) -> str:
    m = re.search(pattern, notes)
    return m.group(1) if m else ""


def map_row(r: dict[str, str], model_ids: set[str], hardware_ids: set[str]) -> dict[str, str]:
    """The mapped columns of one public row."""
    notes = r["notes"]
    kv, kv_note = _kv(r["kv_format"])
    model_id = _first(r["model"], _MODELS)
    hardware_id = _first(r["hardware"], _HARDWARE)
    layout = _layout(r["parallelism"])
    mtp = "MTP speculative decoding ON" in notes
    numbers = all(r[k].strip() for k in ("concurrency", "tpot_ms", "throughput_tok_s_per_gpu", "isl", "osl"))
    reasons = []
    if not numbers:
        reasons.append("no per-point numbers (an interpolated cost statement)")
    transfer = model_id in model_ids and model_id not in FITTED_MODELS
    if model_id not in model_ids:
        reasons.append("model not in the catalog")
    elif transfer:
        reasons.append(TRANSFER_REASON)
    if hardware_id not in hardware_ids:
        reasons.append("hardware not in the catalog")
    if layout == "disaggregated":
        checked = "" if transfer else " (checked per pool: data/disaggregated_check.json)"
        reasons.append(f"multi-node disaggregated prefill/decode{checked}")
    elif layout == "":
        reasons.append("parallel layout not stated")
    if mtp:
        reasons.append("MTP speculative decoding on")
    if "check:" in notes:
        reasons.append("flagged check: queueing- or prefill-bound point")
    if not kv:
        reasons.append("KV format not stated")
    notes_out = [kv_note] if kv_note else []
    if numbers and not r["throughput_kind"].startswith("output tok/s per"):
        notes_out.append("output tokens/s not reported (total only): TPOT is compared, output tokens/s is not")
    if r["weight_format"].startswith("FP8 e4m3 block-scaled"):
        notes_out.append("block-scaled FP8: one scale per 128 x 128 block, counted as 8 bits per weight")
    return {
        "model_id": model_id,
        "hardware_id": hardware_id,
        "weights": _first(r["weight_format"], _WEIGHTS),
        "kv_cache": kv,
        "layout": layout,
        "profile": _first(r["engine"], _ENGINES),
        "run_date": _note_number(notes, r"run date (\d{4}-\d\d-\d\d)"),
        "mtp": "true" if mtp else "false",
        "total_tok_s_per_gpu": _note_number(notes, r"total\(in\+out\) tok/s/GPU ([\d.]+)"),
        "use": "fit" if not reasons else "display: " + "; ".join(reasons),
        "mapping_notes": "; ".join(notes_out),
    }


def build(path: str | Path, transcribed: str | Path = TRANSCRIBED) -> str:
    """The text of data/serving_measurements.csv from the public file at `path`, then the transcribed rows: every row
    and column kept, mapping added."""
    rows = [
        r
        for source in (path, transcribed)
        for r in csv.DictReader(Path(source).read_text(encoding="utf-8").splitlines())
    ]
    models, hardware = set(load_model_catalog()), set(load_hardware_catalog())
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({**{k: r[k] for k in PUBLIC_COLUMNS}, **map_row(r, models, hardware)})
    return buf.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", metavar="PATH", help="the public serving measurements CSV")
    parser.add_argument(
        "-o", "--output", default=str(OUTPUT), metavar="PATH", help=f"default {OUTPUT.relative_to(ROOT)}"
    )
    args = parser.parse_args(argv)
    Path(args.output).write_text(build(args.source), encoding="utf-8")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
