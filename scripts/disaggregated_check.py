"""How far the model is from the disaggregated (prefill pool + decode pool) runs in data/serving_measurements.csv,
which calibration does not fit (display-only): each pool checked on the run's own layout, not the frontier's.

    python scripts/disaggregated_check.py [--csv data/serving_measurements.csv]

- Decode pool: the run's measured mean TPOT against the model's decode step for the run's decode worker (its GPUs,
  TP / EP / DP-attention, the run's concurrency spread over the decode workers, the cache at ISL + OSL/2).
- Prefill pool: in runs whose prefill pool was the bottleneck (mean TTFT >= 1 s with >= 256 requests in flight:
  prompts queued), the measured input tokens/s per prefill GPU against the most the model's prefill worker reaches
  (prompts per step 1-64 within a 32K-token step).

Prints the median |error| of the decode TPOT and the median model / measured ratio of the prefill rate, per chip and
engine. The numbers say where the rack-scale frontier is off (issue 18's held-out check), without fitting anything.
"""

from __future__ import annotations

import argparse
import csv
import re
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tpot_model import Scenario, estimate  # noqa: E402
from tpot_model.catalog import resolve_hardware, resolve_model  # noqa: E402
from tpot_model.profiles import resolve_profile  # noqa: E402

POOL = re.compile(r"(prefill|decode) (\d+) GPUs \[(\d+) worker\(s\), TP(\d+)/EP(\d+)( DP-attn)?\]")
INPUT_RATE = re.compile(r"input tok/s/GPU ([\d.]+) per prefill GPU")
PREFILL_TOKENS_PER_STEP = 32768
SATURATED_TTFT_MS, SATURATED_CONCURRENCY = 1000.0, 256


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
    """{'prefill': Pool, 'decode': Pool} from the CSV's parallelism text."""
    return {m[1]: Pool(int(m[2]), int(m[3]), int(m[4]), int(m[5]), bool(m[6])) for m in POOL.finditer(layout)}


def decode_tpot_s(row: dict, pool: Pool) -> float:
    """The model's decode-step TPOT for the run's decode worker at the run's concurrency per worker."""
    isl, osl = float(row["isl"]), float(row["osl"])
    s = Scenario(
        batch=max(float(row["concurrency"]) / pool.workers, 1.0),
        context_tokens=isl + osl // 2,
        output_tokens=osl - osl // 2,
        num_gpus=pool.gpus_per_worker,
        weights=row["weights"],
        kv_cache=row["kv_cache"] or "fp8",
        parallelism=pool.parallelism,
        batching="static",
    )
    e = estimate(resolve_model(row["model_id"]), resolve_hardware(row["hardware_id"]), s, _profile(row))
    return float(e.tpot_s)


def prefill_input_tokens_per_s_per_gpu(row: dict, pool: Pool) -> float:
    """The most input tokens/s per GPU the model's prefill worker reaches (1-64 prompts per step)."""
    isl = float(row["isl"])
    best = 0.0
    for prompts in range(1, 65):
        if prompts > 1 and prompts * isl > PREFILL_TOKENS_PER_STEP:
            break
        s = Scenario(
            batch=prompts,
            context_tokens=isl,
            output_tokens=1,
            num_gpus=pool.gpus_per_worker,
            weights=row["weights"],
            kv_cache=row["kv_cache"] or "fp8",
            parallelism=pool.parallelism,
            batching="static",
        )
        e = estimate(resolve_model(row["model_id"]), resolve_hardware(row["hardware_id"]), s, _profile(row))
        best = max(best, prompts * isl / float(e.ttft_s) / pool.gpus_per_worker)
    return best


def _profile(row: dict):
    return resolve_profile(row["profile"] or "typical")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--csv", default=str(ROOT / "data" / "serving_measurements.csv"))
    args = ap.parse_args(argv)
    with open(args.csv, encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["layout"] == "disaggregated"]
    decode: dict[tuple, list[float]] = {}
    prefill: dict[tuple, list[float]] = {}
    for r in rows:
        p = pools(r["parallelism"])
        if "decode" not in p or "prefill" not in p or r["mtp"] == "true":
            continue
        key = (r["hardware_id"], r["weights"], r["profile"])
        if float(r["concurrency"]) >= p["decode"].workers:
            err = decode_tpot_s(r, p["decode"]) / (float(r["tpot_ms"]) / 1e3) - 1.0
            decode.setdefault(key, []).append(err)
        rate = INPUT_RATE.search(r["notes"])
        queued = float(r["ttft_ms"] or 0) >= SATURATED_TTFT_MS and float(r["concurrency"]) >= SATURATED_CONCURRENCY
        if rate and queued:
            model = prefill_input_tokens_per_s_per_gpu(r, p["prefill"])
            prefill.setdefault(key, []).append(model / float(rate[1]))
    print(f"{len(rows)} disaggregated runs in {args.csv} (display-only: not fitted)")
    print(f"{'chip':<10} {'weights':<7} {'engine':<13} {'decode n':>8} {'TPOT |err|':>10} {'prefill n':>9} "
          f"{'model/meas':>10}")  # fmt: skip
    for key in sorted(set(decode) | set(prefill)):
        d, f = decode.get(key, []), prefill.get(key, [])
        med_d = f"{statistics.median(abs(e) for e in d):.0%}" if d else "-"
        med_f = f"{statistics.median(f):.2f}" if f else "-"
        print(f"{key[0]:<10} {key[1]:<7} {key[2]:<13} {len(d):>8} {med_d:>10} {len(f):>9} {med_f:>10}")
    all_d = [abs(e) for v in decode.values() for e in v]
    all_f = [x for v in prefill.values() for x in v]
    print(
        f"decode pool: median |TPOT error| {statistics.median(all_d):.0%} over {len(all_d)} runs; prefill pool "
        f"(queued runs): model / measured input tokens/s per GPU, median {statistics.median(all_f):.2f} over "
        f"{len(all_f)} runs"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
