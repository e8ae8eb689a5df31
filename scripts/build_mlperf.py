"""Build data/mlperf.csv from the public MLPerf Inference LLM results file (rounds v4.0-v5.1).

    python scripts/build_mlperf.py /work/shared/reference/mlperf-inference-public.csv [-o data/mlperf.csv]

Every public column is kept verbatim; the mapping to the catalogs is added in the columns MAPPED (see
data/mlperf.md). Rows dropped: the 99.9 rows that are the same run as their 99 row (flagged by the source) and any
round newer than v5.1 (held out: how the model transfers to new chips and software is judged on them). Chip names
are normalised to hardware.yaml ids; what is assumed where the submission does not say (precision, KV format,
tensor-parallel size, engine) is written in ``mapping_notes``. ``use`` is ``fit`` for the rows the model is
compared with (closed division, Server / Interactive with a measured mean TPOT, one node, one chip type, a catalog
chip and model, a known engine) and ``display: <why>`` for the others.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tpot_model.mlperf import MAPPED  # noqa: E402  (the loader reads the columns this script writes)

ROUNDS = ("v4.0", "v4.1", "v5.0", "v5.1")  # newer rounds are held out
# accelerator string (as submitted) -> hardware.yaml id; absent: not in the catalog (display only)
CHIPS = {
    "AMD Instinct MI300X 192GB HBM3": "mi300x",
    "AMD Instinct MI300X-NPS1-SPX-192GB-750W": "mi300x",
    "AMD MI300X-NPS1-SPX-192GB-750W": "mi300x",
    "AMD Instinct MI325X 256GB HBM3E": "mi325x",
    "AMD Instinct MI325X 256GB HBM3e": "mi325x",
    "AMD Instinct MI355X 288GB HBM3e": "mi355x",
    "Intel® Gaudi® 2 AI Accelerator": "gaudi2",
    "NVIDIA B200-SXM-180GB": "b200",
    "NVIDIA GB200": "gb200",
    "NVIDIA GB300": "gb300",
    "NVIDIA GeForce RTX 4090": "rtx-4090",
    "NVIDIA H100-NVL-94GB": "h100-nvl",
    "NVIDIA H100-PCIe-80GB": "h100-pcie",
    "NVIDIA H100-SXM-80GB": "h100-sxm",
    "Virtualized NVIDIA H100-SXM-80GB": "h100-sxm",
    "NVIDIA H200-NVL-141GB": "h200-nvl",
    "NVIDIA H200-SXM-141GB": "h200",
    "NVIDIA H200-SXM-141GB-CTS": "h200",
    "Virtualized NVIDIA H200-SXM-141GB": "h200",
    "NVIDIA L40S": "l40s",
    "NVIDIA RTX PRO 6000 Blackwell Server Edition": "rtx-pro-6000",
    "[MAXSUN] MS-Intel Arc Pro B60 Dual 48G Turbo": "arc-pro-b60",
}
# accelerator string -> GPUs on one submitted accelerator (a card carrying several GPUs); absent: 1. MLPerf's
# accelerator_count and per-accelerator tokens/s count cards; the model counts GPUs.
GPUS_PER_ACCELERATOR = {
    "[MAXSUN] MS-Intel Arc Pro B60 Dual 48G Turbo": 2,  # two Arc Pro B60 GPUs of 24 GB on one card ("Dual 48G")
}
# benchmark -> (models.yaml id, mean input tokens: data/mlperf.md section 5, from the MLCommons dataset lengths)
MODELS = {
    "llama2-70b-99": ("llama-2-70b", 222.3),
    "llama2-70b-99.9": ("llama-2-70b", 222.3),
    "mixtral-8x7b": ("mixtral-8x7b", 427.4),
    "llama3.1-405b": ("llama-3.1-405b", 9428.6),
    "llama3.1-8b": ("llama-3.1-8b", 870.7),
    "deepseek-r1": ("deepseek-r1", 803.8),
}
MEMORY_GB = {  # per GPU, hardware.yaml: for the tensor-parallel size where the submission does not give it
    "mi300x": 192,
    "mi325x": 256,
    "mi355x": 288,
    "b200": 180,
    "gb200": 186,
    "gb300": 279,
    "rtx-4090": 24,
    "h100-nvl": 94,
    "h100-pcie": 80,
    "h100-sxm": 80,
    "h200-nvl": 141,
    "h200": 141,
    "l40s": 48,
    "rtx-pro-6000": 102.6,
    "arc-pro-b60": 25.8,
    "gaudi2": 96,
}
PARAMS_B = {"llama-2-70b": 69.0, "mixtral-8x7b": 46.7, "llama-3.1-405b": 405.9, "llama-3.1-8b": 8.0, "deepseek-r1": 671}
WEIGHT_FRACTION = 0.7  # assumed TP: the fewest GPUs (a power of 2) whose memory holds the weights at <= 70 %


def _f(text: str) -> float:
    try:
        return float(text) if text.strip() else math.nan
    except ValueError:
        return math.nan


def _engine(r: dict) -> tuple[str, str]:
    """(profile id, note) from the declared framework, or from the submitter where v5.0 does not declare it."""
    fw = (r["framework"] + " " + r["other_software_stack"]).lower()
    if "tensorrt" in fw:
        return "tensorrt-llm", ""
    if "vllm" in fw:
        return "vllm", ""
    if "sglang" in fw:
        return "sglang", ""
    if fw.strip():
        return "", f"engine not one of the profiles ({r['framework'][:40]})"
    hw = CHIPS.get(r["accelerator"], "")
    if hw.startswith("mi3"):
        return "vllm", "engine assumed: vLLM (v5.0 rows declare no software; AMD's v4.1 and v5.1 runs are vLLM)"
    if r["accelerator"].startswith(("NVIDIA", "Virtualized NVIDIA")):
        return (
            "tensorrt-llm",
            "engine assumed: TensorRT-LLM (v5.0 rows declare no software; NVIDIA-GPU closed LLM runs)",
        )
    return "", "engine unknown"


def _formats(r: dict, hw: str) -> tuple[str, str, list[str]]:
    """(weights, kv_cache, notes): the declared or configured precision mapped to the catalog's formats."""
    notes = []
    declared = (r["cfg_precision"] or r["weight_data_types"]).lower()
    if hw in ("b200", "gb200", "gb300", "rtx-pro-6000") and "fp4" in declared:
        weights = "nvfp4"
    elif hw == "mi355x":
        weights = "mxfp4" if "fp4" in declared or not declared else "fp8"
    elif "int4" in declared or "uint4" in declared:
        weights = "int4"
    elif "fp8" in declared or hw in ("mi300x", "mi325x", "gaudi2"):
        weights = "fp8"
    elif hw in ("h100-sxm", "h100-pcie", "h100-nvl", "h200", "h200-nvl", "l40s", "b200", "gb200", "gb300"):
        weights = "fp8"  # NVIDIA's v4.1 configs set use_fp8 while the summary declares fp16 ("quantization")
        notes.append(f"weights assumed fp8 (declared {declared or 'nothing'}; NVIDIA's configs quantize to FP8)")
    else:
        weights = "bf16"
        notes.append(f"weights assumed bf16 (declared {declared or 'nothing'})")
    kv = (r["cfg_kv_cache_dtype"] or "").lower()
    if not kv:
        kv = "fp8" if weights in ("fp8", "nvfp4", "mxfp4") else "bf16"
        notes.append(f"KV cache assumed {kv}")
    return weights, kv, notes


def _compute(r: dict, weights: str) -> tuple[str, list[str]]:
    """The GEMMs' precision where it is not the weights' own: 4-bit integer weights with 8-bit integer activations
    (W4A8, declared as input data type INT8 / UINT8) multiply in int8; '' otherwise."""
    if weights == "int4" and "int8" in r["input_data_types"].lower():
        return "int8", [f"compute int8 (W4A8: input data type {r['input_data_types']})"]
    return "", []


def _tp(r: dict, hw: str, model: str, weights: str, gpus_per_accelerator: int) -> tuple[int, list[str]]:
    tp = _f(r["cfg_tensor_parallel"].split("|")[0]) if r["cfg_tensor_parallel"] else math.nan
    if math.isfinite(tp):
        return int(tp), []
    bits = 4.5 if "fp4" in r["cfg_precision"] or weights == "int4" else 8.0
    weights_gb = PARAMS_B[model] * bits / 8
    per_node = int(_f(r["accelerators_per_node"]) or 8) * gpus_per_accelerator
    n = 1
    while weights_gb > WEIGHT_FRACTION * MEMORY_GB[hw] * n and n < per_node:
        n *= 2
    return n, [f"tensor parallel {n} assumed (fewest GPUs holding the weights at <= {WEIGHT_FRACTION:.0%} of memory)"]


def map_row(r: dict) -> dict:
    """The MAPPED columns of one public row."""
    out = dict.fromkeys(MAPPED, "")
    notes: list[str] = []
    hw = CHIPS.get(r["accelerator"], "")
    model, isl = MODELS.get(r["benchmark"], ("", math.nan))
    out.update(hardware_id=hw, model_id=model, isl_mean_tokens=f"{isl:g}" if model else "")
    why = []
    if not hw:
        why.append("chip not in the catalog" if "(x" not in r["accelerator"] else "two chip types in one system")
    if r["division"] != "closed":
        why.append("open division")
    if r["scenario"] == "Offline":
        why.append("Offline: no latency measured, concurrency unknown")
    elif not math.isfinite(_f(r["tpot_mean_ms"])):
        why.append("no TPOT in the source")
    if r["result_valid"] != "VALID":
        why.append("invalid result")
    if _f(r["host_nodes"]) > 1:
        why.append("multi-node system")
    profile, engine_note = _engine(r)
    if engine_note:
        notes.append(engine_note)
    if not profile:
        why.append("engine not one of the profiles")
    out["profile"] = profile
    k = GPUS_PER_ACCELERATOR.get(r["accelerator"], 1)
    out["gpus_per_accelerator"] = str(k)
    if k > 1:
        notes.append(f"{k} GPUs per accelerator: counts and per-accelerator tokens/s are per card")
    if hw and model:
        weights, kv, fmt_notes = _formats(r, hw)
        tp, tp_notes = _tp(r, hw, model, weights, k)
        compute, compute_notes = _compute(r, weights)
        notes += fmt_notes + tp_notes + compute_notes
        out["compute"] = compute
        ep = r["cfg_expert_parallel"]
        out.update(
            weights=weights,
            kv_cache=kv,
            tensor_parallel=str(tp),
            layout="tp-ep" if ep and _f(ep) > 1 else "tp",
        )
        tpot, ttft = _f(r["tpot_mean_ms"]) * 1e-3, _f(r["ttft_mean_ms"]) * 1e-3
        osl = _f(r["implied_mean_output_tokens"])
        per_gpu = _f(r["per_accelerator_tokens_per_s"]) / k
        if math.isfinite(tpot) and math.isfinite(ttft) and osl > 1:
            # Little's law, the model's own definition (serving.py): out tok/s = C x OSL / (TTFT + (OSL - 1) TPOT)
            c = per_gpu * tp * (ttft + (osl - 1) * tpot) / osl
            out["concurrency_per_replica"] = f"{c:.4g}"
    out["use"] = "fit" if not why else "display: " + "; ".join(why)
    out["mapping_notes"] = "; ".join(notes)
    return out


def build(src: Path) -> tuple[list[str], list[dict]]:
    """(columns, rows) of data/mlperf.csv."""
    with src.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        columns = list(reader.fieldnames or [])
        rows = list(reader)
    kept = []
    for r in rows:
        if r["round"] not in ROUNDS:
            continue
        if "identical to llama2-70b-99 result" in r["notes"]:
            continue  # the same run submitted for both accuracy targets: keep the 99 row only
        kept.append(r | map_row(r))
    return columns + list(MAPPED), kept


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="the public MLPerf Inference CSV (mlperf-inference-public.csv)")
    parser.add_argument("-o", "--output", default=str(Path(__file__).resolve().parent.parent / "data" / "mlperf.csv"))
    args = parser.parse_args(argv)
    try:
        columns, rows = build(Path(args.source))
    except (OSError, KeyError, csv.Error) as e:
        print(f"error: {args.source}: {e}", file=sys.stderr)
        return 2
    with open(args.output, "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    fit = sum(r["use"] == "fit" for r in rows)
    print(f"wrote {args.output}: {len(rows)} rows, {fit} fit rows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
