"""How far the model is from the disaggregated (prefill pool + decode pool) serving runs, which calibration does not
fit (display-only rows of data/serving_measurements.csv): each pool checked on the run's own layout, not the
frontier's. Written by `calibrate` to data/disaggregated_check.json; the Serving frontier's rack-scale view says it.

- Decode pool: the run's measured mean TPOT against the model's decode step for the run's decode worker (its GPUs,
  TP / EP / DP-attention, the run's concurrency spread over the decode workers, the cache at ISL + OSL/2).
- Prefill pool: in runs whose prefill pool was the bottleneck (mean TTFT >= 1 s with >= 256 requests in flight:
  prompts queued), the measured input tokens/s per prefill GPU against the most the model's prefill worker reaches
  (1-64 prompts per step within a 32K-token step).
MTP runs are left out (the draft changes the decode step). Lengths are the runs' means (serving_calibration's).
"""

from __future__ import annotations

import json
import math
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .estimate import estimate
from .profiles import EfficiencyProfile
from .scenario import Scenario
from .serving_calibration import MEAN_LENGTH_FRACTION, ServingMeasurement

CHECK_NAME = "disaggregated_check.json"
POOL = re.compile(r"(prefill|decode) (\d+) GPUs \[(\d+) worker\(s\), TP(\d+)/EP(\d+)( DP-attn)?\]")
INPUT_RATE = re.compile(r"input tok/s/GPU ([\d.]+) per prefill GPU")
PREFILL_TOKENS_PER_STEP = 32768
SATURATED_TTFT_S, SATURATED_CONCURRENCY = 1.0, 256


@dataclass(frozen=True)
class Pool:
    """One pool of a disaggregated run: its GPUs, workers, and each worker's layout."""

    gpus: int
    workers: int
    tp: int
    ep: int
    dp_attention: bool

    @property
    def gpus_per_worker(self) -> int:
        return self.gpus // self.workers

    @property
    def parallelism(self) -> str:
        """The model's name for the worker's layout (scenario.PARALLELISMS)."""
        if self.ep > 1:
            return "dp-ep" if self.dp_attention else "tp-ep"
        return "tp"


def pools(layout: str) -> dict[str, Pool]:
    """{'prefill': Pool, 'decode': Pool} from the serving file's parallelism text."""
    return {m[1]: Pool(int(m[2]), int(m[3]), int(m[4]), int(m[5]), bool(m[6])) for m in POOL.finditer(layout)}


def _worker(r: ServingMeasurement, pool: Pool, **fields) -> Scenario:
    return Scenario(
        num_gpus=pool.gpus_per_worker,
        weights=r.fields["weights"],
        kv_cache=r.fields["kv_cache"] or "fp8",
        parallelism=pool.parallelism,
        batching="static",
        **fields,
    )


def decode_tpot_s(r: ServingMeasurement, pool: Pool, profile: EfficiencyProfile) -> float:
    """The model's decode-step TPOT (s) for the run's decode worker at the run's concurrency per worker."""
    isl, osl = round(r.isl * MEAN_LENGTH_FRACTION), round(r.osl * MEAN_LENGTH_FRACTION)
    s = _worker(
        r,
        pool,
        batch=max(r.concurrency / pool.workers, 1.0),
        context_tokens=isl + osl // 2,
        output_tokens=osl - osl // 2,
    )
    return float(estimate(r.model, r.hardware, s, profile).tpot_s)


def prefill_input_tokens_per_s_per_gpu(r: ServingMeasurement, pool: Pool, profile: EfficiencyProfile) -> float:
    """The most input tokens/s per GPU the model's prefill worker reaches (1-64 prompts per step)."""
    isl = round(r.isl * MEAN_LENGTH_FRACTION)
    best = 0.0
    for prompts in range(1, 65):
        if prompts > 1 and prompts * isl > PREFILL_TOKENS_PER_STEP:
            break
        e = estimate(r.model, r.hardware, _worker(r, pool, batch=prompts, context_tokens=isl, output_tokens=1), profile)
        best = max(best, prompts * isl / float(e.ttft_s) / pool.gpus_per_worker)
    return best


@dataclass(frozen=True)
class Checked:
    """One run checked: decode TPOT error (predicted / measured - 1) and prefill model / measured rate (nan: n/a)."""

    id: str
    hardware_id: str
    weights: str
    engine: str
    decode_error: float
    prefill_ratio: float


def check(rows: Sequence[ServingMeasurement], profiles: dict[str, EfficiencyProfile]) -> list[Checked]:
    """Every MTP-free disaggregated run with both pools in its layout text, checked (see the module docstring)."""
    out = []
    for r in rows:
        p = pools(r.fields.get("parallelism", ""))
        if r.layout != "disaggregated" or r.mtp or "decode" not in p or "prefill" not in p or r.model is None:
            continue
        profile = profiles[r.profile or "typical"]
        decode = math.nan
        if r.concurrency >= p["decode"].workers and math.isfinite(r.tpot_s):
            decode = decode_tpot_s(r, p["decode"], profile) / r.tpot_s - 1.0
        prefill = math.nan
        rate = INPUT_RATE.search(r.fields.get("notes", ""))
        if rate and r.ttft_s >= SATURATED_TTFT_S and r.concurrency >= SATURATED_CONCURRENCY:
            prefill = prefill_input_tokens_per_s_per_gpu(r, p["prefill"], profile) / float(rate[1])
        out.append(Checked(r.id, r.hardware.id, r.fields["weights"], r.profile, decode, prefill))
    return out


def summary(checked: Sequence[Checked]) -> dict:
    """What data/disaggregated_check.json holds: runs, decode-pool median |TPOT error| and prefill-pool median
    model / measured rate, overall and per (chip, weights, engine), with every run."""
    decode = [abs(c.decode_error) for c in checked if math.isfinite(c.decode_error)]
    prefill = [c.prefill_ratio for c in checked if math.isfinite(c.prefill_ratio)]
    groups: dict[str, list[Checked]] = {}
    for c in checked:
        groups.setdefault(f"{c.hardware_id} {c.weights} {c.engine}", []).append(c)

    def med(values: list[float]) -> float | None:
        return statistics.median(values) if values else None

    return {
        "method": __doc__.split("\n\n")[0].replace("\n", " "),
        "runs": len(checked),
        "decode_runs": len(decode),
        "decode_median_abs_tpot_error": med(decode),
        "prefill_runs": len(prefill),
        "prefill_median_model_over_measured": med(prefill),
        "by_group": {
            k: {
                "decode_runs": sum(math.isfinite(c.decode_error) for c in v),
                "decode_median_abs_tpot_error": med([abs(c.decode_error) for c in v if math.isfinite(c.decode_error)]),
                "prefill_runs": sum(math.isfinite(c.prefill_ratio) for c in v),
                "prefill_median_model_over_measured": med(
                    [c.prefill_ratio for c in v if math.isfinite(c.prefill_ratio)]
                ),
            }
            for k, v in sorted(groups.items())
        },
        "checked": [
            {
                "id": c.id,
                "decode_tpot_error": c.decode_error if math.isfinite(c.decode_error) else None,
                "prefill_model_over_measured": c.prefill_ratio if math.isfinite(c.prefill_ratio) else None,
            }
            for c in checked
        ],
    }


def format_summary(s: dict) -> str:
    """What calibrate prints."""

    def pct(x):
        return "-" if x is None else f"{x:.0%}"

    def ratio(x):
        return "-" if x is None else f"{x:.2f}"

    lines = [
        f"disaggregated runs (display-only, not fitted), each pool on the run's own layout: {s['runs']} MTP-free runs",
        f"{'chip weights engine':<32} {'decode n':>8} {'TPOT |err|':>10} {'prefill n':>9} {'model/meas':>10}",
    ]
    for k, g in s["by_group"].items():
        lines.append(
            f"{k:<32} {g['decode_runs']:>8} {pct(g['decode_median_abs_tpot_error']):>10} {g['prefill_runs']:>9} "
            f"{ratio(g['prefill_median_model_over_measured']):>10}"
        )
    lines.append(
        f"  decode pool: median |TPOT error| {pct(s['decode_median_abs_tpot_error'])} over {s['decode_runs']} runs; "
        f"prefill pool (prefill-bound runs): model / measured input tokens/s per GPU, median "
        f"{ratio(s['prefill_median_model_over_measured'])} over {s['prefill_runs']} runs"
    )
    return "\n".join(lines)


def write_check(path: str | Path, s: dict) -> None:
    """data/disaggregated_check.json (floats exact)."""
    Path(path).write_text(json.dumps(s, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def read_check(path: str | Path) -> dict:
    """The summary write_check wrote ({} when the file is absent)."""
    p = Path(path)
    return json.loads(p.read_text(encoding="utf-8")) if p.exists() else {}
