"""The calibration bands (bands.py) from cross-validation residuals of the three fitters: computed by `calibrate`,
written to data/bands.json, read by every estimate.

Residuals (log(measured / predicted), TPOT and throughput each), grouped by what calibration had seen:

- batch-1 decode, leave one device out (calibration.cross_validate): ``same_family`` when the engine kept measured
  devices of the held-out device's chip family, ``other_family`` when it kept only other families;
- batch-1 decode, leave one chip family out, for families with more than one measured device (a family of one
  device is already held out whole above): ``other_family``;
- serving, leave one device out (serving_calibration.serving_cross_validate; each serving chip is its own family):
  ``other_family``, or ``unmeasured`` for an engine measured on that device only;
- MLPerf Inference (Server / Interactive), leave one chip family out (mlperf.locfo_tpot: the engine's FLOP efficiency
  fitted without the family): ``other_family``, or ``unmeasured`` for an engine with MLPerf rows on that family only;
- ``unmeasured``: every batch-1 row predicted with `typical` (fitted on none of them) and every serving row
  predicted with the pooled serving base fitted without the row's device.

A level's band is the 10th-90th percentile of its residuals (pooled with the next wider level's when it has too few
residuals or devices). Its coverage is measured the honest way: each of the level's own residuals against the band
computed without its device's residuals.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import calibration as cal
from . import mlperf
from . import serving_calibration as sc
from .bands import LEVELS, QUANTILES
from .engines import chip_family
from .profiles import EfficiencyProfile

BANDS_NAME = "bands.json"
MIN_RESIDUALS = 5  # a level with fewer is pooled with the next wider one
MIN_DEVICES = 5  # ... and so is a level whose residuals come from fewer devices: leaving one of four out leaves a
# band drawn from three chips, which covered 62% of the held-out device's measurements (calibrate, 2026-12-01)
SOURCES = ("batch-1", "serving", "mlperf")
_TIME_METRICS = ("tpot_ms", "e2e_latency_s")


@dataclass(frozen=True)
class Residual:
    """One held-out prediction: log(measured / predicted) of TPOT and of throughput, and what it was held out as."""

    source: str  # SOURCES
    kind: str  # "loho", "lofo", "no-fit"
    level: str  # bands.LEVELS
    device: str  # the unit left out when coverage is measured
    engine: str
    hardware_id: str
    tpot: float
    throughput: float


def _b1_residual(row: cal.Measurement, predicted: float, kind: str, level: str) -> Residual:
    r = math.log(row.value / predicted)
    tpot = r if row.metric in _TIME_METRICS else -r  # rate metrics are proportional to 1 / TPOT
    hw = row.fields.get("hardware_id", "")
    return Residual("batch-1", kind, level, row.device, row.profile, hw, tpot, -tpot)


def batch1_residuals(
    rows: Sequence[cal.Measurement],
    profiles: dict[str, EfficiencyProfile],
    cv: cal.CrossValidation,
    cv_family: cal.CrossValidation,
) -> list[Residual]:
    """LOHO, LOFO and no-fit residuals of the evaluable batch-1 rows (see the module docstring)."""
    fitted = [r for r in rows if r.fitted]
    out = []
    for r, p in zip(cv.rows, cv.predicted, strict=True):
        others = {cal.family_of(f) for f in fitted if f.profile == r.profile and f.device != r.device}
        level = "unmeasured" if not others else ("same_family" if cal.family_of(r) in others else "other_family")
        out.append(_b1_residual(r, float(p), "loho", level))
    devices: dict[str, set[str]] = {}
    for r in cv_family.rows:
        devices.setdefault(cal.family_of(r), set()).add(r.device)
    for r, p in zip(cv_family.rows, cv_family.predicted, strict=True):
        fam = cal.family_of(r)
        if len(devices[fam]) < 2:  # a family of one device: its LOFO is its LOHO, already counted
            continue
        seen = any(f.profile == r.profile and cal.family_of(f) != fam for f in fitted)
        out.append(_b1_residual(r, float(p), "lofo", "other_family" if seen else "unmeasured"))
    typical = profiles["typical"]
    out += [_b1_residual(r, cal.predict(r, typical), "no-fit", "unmeasured") for r in cv.rows]
    return out


def serving_residuals(
    rows: Sequence[sc.ServingMeasurement], typical: EfficiencyProfile, cv: sc.ServingCrossValidation
) -> list[Residual]:
    """Serving LOHO residuals, and the pooled base's without the row's device (see the module docstring)."""
    out = []
    fit = list(cv.rows)

    def device(r) -> str:
        return r.fields.get("hardware_id", "")

    for r, t, x in zip(fit, cv.predicted_tpot_s, cv.predicted_output_tokens_per_s_per_gpu, strict=True):
        others = {chip_family(device(f)) for f in fit if f.profile == r.profile and device(f) != device(r)}
        level = "unmeasured" if not others else ("same_family" if chip_family(device(r)) in others else "other_family")
        out.append(
            Residual(
                "serving",
                "loho",
                level,
                device(r),
                r.profile,
                device(r),
                math.log(r.tpot_s / t),
                math.log(r.output_tokens_per_s_per_gpu / x),
            )
        )
    for d in sorted({device(r) for r in fit}):
        base, _ = sc.fit_serving_all(fit, typical, exclude_device=d)
        for r in (r for r in fit if device(r) == d):
            t, x = sc.predict(r, base)
            out.append(
                Residual(
                    "serving",
                    "no-fit",
                    "unmeasured",
                    d,
                    r.profile,
                    d,
                    math.log(r.tpot_s / t),
                    math.log(r.output_tokens_per_s_per_gpu / x),
                )
            )
    return out


def mlperf_residuals(rows: Sequence[mlperf.MLPerfResult], locfo_tpot_s: np.ndarray) -> list[Residual]:
    """Leave-one-chip-family-out residuals of the MLPerf fit rows (see the module docstring). At the measured
    concurrency throughput is concurrency / TPOT, so its residual is the TPOT residual's negative."""
    fitted = [r for r in rows if r.fitted]
    out = []
    for r, predicted in zip(rows, locfo_tpot_s, strict=True):
        if not r.fitted:
            continue
        seen = any(f.profile == r.profile and f.family != r.family for f in fitted)
        t = math.log(r.tpot_s / float(predicted))
        level = "other_family" if seen else "unmeasured"
        out.append(Residual("mlperf", "lofo", level, r.hardware_id, r.profile, r.hardware_id, t, -t))
    return out


def _band(values: np.ndarray) -> tuple[float, float]:
    """10th and 90th percentiles of the finite values (a serving row without a throughput figure has nan)."""
    lo, hi = np.quantile(values[np.isfinite(values)], QUANTILES)
    return float(lo), float(hi)


def _held_out(pool: list[Residual], attr: str) -> tuple[np.ndarray, np.ndarray]:
    """(inside, high/low ratio) of each residual against the band of the pool without its device's residuals."""
    values = np.array([getattr(r, attr) for r in pool])
    devices = np.array([r.device for r in pool])
    inside, ratio = np.zeros(len(pool), dtype=bool), np.full(len(pool), np.nan)
    for d in np.unique(devices):
        rest = values[devices != d]
        if np.isfinite(rest).sum() < 2:
            continue
        lo, hi = _band(rest)
        mine = devices == d
        inside[mine] = (values[mine] >= lo) & (values[mine] <= hi)
        ratio[mine] = math.exp(hi - lo)
    return inside, ratio


def bands_table(residuals: Sequence[Residual], seen: dict[str, list[str]]) -> dict:
    """The contents of data/bands.json: per level its factors, n, held-out coverage and median high/low ratio; the
    families each engine was measured on; the overall coverage; and every residual (the Validation page's table)."""
    levels, covered, ratios = {}, {}, {}
    for i, level in enumerate(LEVELS):
        wider, pooled = list(LEVELS[i + 1 :]), []
        pool = [r for r in residuals if r.level == level]
        while (len(pool) < MIN_RESIDUALS or len({r.device for r in pool}) < MIN_DEVICES) and wider:
            pooled.append(wider.pop(0))
            pool = [r for r in residuals if r.level in (level, *pooled)]
        t_lo, t_hi = _band(np.array([r.tpot for r in pool]))
        x_lo, x_hi = _band(np.array([r.throughput for r in pool]))
        inside, ratio = _held_out(pool, "tpot")
        own = np.array([r.level == level for r in pool])
        for r, ok, q in zip(pool, inside, ratio, strict=True):
            if r.level == level:
                covered[id(r)], ratios[id(r)] = bool(ok), float(q)
        levels[level] = {
            "tpot_low_factor": math.exp(t_lo),
            "tpot_high_factor": math.exp(t_hi),
            "throughput_low_factor": math.exp(x_lo),
            "throughput_high_factor": math.exp(x_hi),
            "n": len(pool),
            "n_own": int(own.sum()),  # the level's own residuals, whose coverage and ratio are reported
            "coverage": float(inside[own].mean()) if own.any() else math.nan,
            "median_high_low_ratio": float(np.nanmedian(ratio[own])) if own.any() else math.nan,
            "pooled_with": pooled,
            "by_source": {s: sum(r.source == s for r in pool) for s in SOURCES},
        }
    own = [r for r in residuals if id(r) in covered]
    return {
        "quantiles": list(QUANTILES),
        "method": __doc__.split("\n\n")[0].replace("\n", " "),
        "levels": levels,
        "seen": seen,
        "overall": {
            "n": len(own),
            "coverage": float(np.mean([covered[id(r)] for r in own])),
            "median_high_low_ratio": float(np.nanmedian([ratios[id(r)] for r in own])),
        },
        "residuals": [
            {
                "source": r.source,
                "kind": r.kind,
                "level": r.level,
                "device": r.device,
                "engine": r.engine,
                "hardware_id": r.hardware_id,
                "tpot_log_ratio": r.tpot,
                "throughput_log_ratio": r.throughput,
                "covered": covered.get(id(r)),
            }
            for r in residuals
        ],
    }


def seen_families(rows: Sequence[cal.Measurement], serving_rows: Sequence[sc.ServingMeasurement]) -> dict:
    """engine id -> the chip families its fitted measurements (batch-1 and serving) are on, sorted."""
    out: dict[str, set[str]] = {}
    for r in [*(r for r in rows if r.fitted), *(r for r in serving_rows if r.fitted)]:
        fam = chip_family(r.fields.get("hardware_id", ""))
        if fam:
            out.setdefault(r.profile, set()).add(fam)
    return {k: sorted(v) for k, v in sorted(out.items())}


def compute_bands(
    rows: Sequence[cal.Measurement],
    profiles: dict[str, EfficiencyProfile],
    cv: cal.CrossValidation,
    serving_rows: Sequence[sc.ServingMeasurement],
    serving_cv: sc.ServingCrossValidation,
    cv_family: cal.CrossValidation,
    mlperf_rows: Sequence[mlperf.MLPerfResult],
    mlperf_locfo_tpot_s: np.ndarray,
) -> dict:
    """Every residual of the three fitters, and the bands table built from them."""
    residuals = (
        batch1_residuals(rows, profiles, cv, cv_family)
        + serving_residuals(serving_rows, profiles["typical"], serving_cv)
        + mlperf_residuals(mlperf_rows, mlperf_locfo_tpot_s)
    )
    return bands_table(residuals, seen_families(rows, serving_rows))


def format_bands(table: dict) -> str:
    """What calibrate prints about the bands."""
    lines = [
        "calibration bands (80%: 10th-90th percentile of held-out log(measured / predicted)); coverage = share of "
        "held-out measurements inside the band computed without their device"
    ]
    for level, e in table["levels"].items():
        pooled = f" (band from {e['n']}, pooled with {'/'.join(e['pooled_with'])})" if e["pooled_with"] else ""
        lines.append(
            f"  {level:<13} n {e['n_own']:>4}{pooled}  TPOT x{e['tpot_low_factor']:.2f}-x{e['tpot_high_factor']:.2f}  "
            f"throughput x{e['throughput_low_factor']:.2f}-x{e['throughput_high_factor']:.2f}  "
            f"coverage {e['coverage']:.0%}  median high/low {e['median_high_low_ratio']:.2f}"
        )
    o = table["overall"]
    ok = 0.7 <= o["coverage"] <= 0.9 and o["median_high_low_ratio"] <= 2.0
    lines.append(
        f"  overall: {o['n']} held-out residuals, coverage {o['coverage']:.0%}, median high/low "
        f"{o['median_high_low_ratio']:.2f} (targets 70-90%, <= 2.0: {'met' if ok else 'NOT met'})"
    )
    return "\n".join(lines)


def write_bands(path: str | Path, table: dict) -> None:
    """data/bands.json (floats exact; bands.load_bands reads it)."""
    Path(path).write_text(json.dumps(table, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
