"""MLPerf Inference LLM results (data/mlperf.csv, rounds v4.0-v5.1) as calibration and validation data: each Server
and Interactive result predicted as the steady state of continuous batching (serving.py) at its measured
concurrency, the fit of the engines' FLOP efficiency to them, and its leave-one-chip-family-out cross-validation.
SI units inside; the CSV keeps the source's units.

A row's concurrency per model replica C comes from Little's law in the model's own form (serving.py):
output tok/s per replica = C x OSL / (TTFT + (OSL - 1) TPOT), with the measured means (OSL: the run's mean output
tokens; ISL: the benchmark's mean input tokens). A replica is `tensor_parallel` GPUs (the submitter's config, or
the assumption the builder writes in mapping_notes). Two metrics per row: mean TPOT and output tokens/s per GPU.

The fit (FLOPS_ATTR, per engine) minimises sum over the engine's fit rows of log(TPOT ratio)^2 over a fixed grid
of values (FLOPS_GRID; each row's TPOT is tabulated once on the grid, so every fold's fit is a look-up). The chip
enters through the catalog's attainable GEMM rate (roofline.attainable), so the fitted value is the engine's
fraction of what the chip measurably reaches. The table written beside profiles.yaml (mlperf_predictions.json)
holds the model's prediction for every fit row with the profiles calibrate wrote, and the leave-one-chip-family-out
prediction (the fit that never saw that family), so the Validation page reads it instead of computing.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from .catalog import Hardware, ModelSpec, load_hardware_catalog, load_model_catalog
from .engines import chip_family, unknown_engine
from .estimate import estimate
from .files import DATA_DIR, CatalogError, csv_rows, number_or_nan
from .fitting import ErrorSummary, sig3
from .precision import parse_format
from .profiles import EfficiencyProfile
from .scenario import Scenario

MLPERF_PATH = DATA_DIR / "mlperf.csv"
MLPERF_TABLE_NAME = "mlperf_predictions.json"  # written by calibrate beside profiles.yaml
FLOPS_ATTR = "flops_efficiency"
FLOPS_GRID = tuple(round(0.1 + 0.05 * i, 2) for i in range(19))  # 0.10, 0.15 ... 1.00
TARGET_MEDIAN = 0.20  # the goal for the newest round's TPOT median |error|

# the columns scripts/build_mlperf.py adds to the public ones (data/mlperf.md), in file order
MAPPED = (
    "hardware_id",
    "model_id",
    "profile",
    "weights",
    "kv_cache",
    "tensor_parallel",
    "layout",
    "isl_mean_tokens",
    "concurrency_per_replica",
    "use",
    "mapping_notes",
    "gpus_per_accelerator",
    "compute",
)
REQUIRED = (
    "round",
    "division",
    "submitter",
    "system_name",
    "accelerator",
    "benchmark",
    "scenario",
    "per_accelerator_tokens_per_s",
    "implied_mean_output_tokens",
    "ttft_mean_ms",
    "tpot_mean_ms",
    "framework",
    "source",
    *MAPPED,
)


# publication date of each round (mlcommons.org results pages): the engine profile is taken as of it
ROUND_DATES = {"v4.0": "2024-03-27", "v4.1": "2024-08-28", "v5.0": "2025-04-02", "v5.1": "2025-09-09"}


def family(hardware_id: str) -> str:
    """The chip family of a catalog id (engines.CHIP_FAMILIES, the one definition; leave-one-chip-family-out folds,
    since chips of one family share software); the id itself for a chip outside every family."""
    return chip_family(hardware_id) or hardware_id


@dataclass(frozen=True, eq=False)
class MLPerfResult:
    """One MLPerf result, resolved against the catalogs; scenario is None for display-only rows."""

    index: int  # row number in the file (0-based, header excluded): the row's id
    fields: dict[str, str]
    model: ModelSpec | None
    hardware: Hardware | None
    profile: str
    tpot_s: float  # measured mean TPOT (nan: not reported)
    output_tokens_per_s_per_gpu: float
    use: str
    scenario: Scenario | None = None

    @property
    def fitted(self) -> bool:
        return self.use == "fit" and self.scenario is not None

    @property
    def round(self) -> str:
        return self.fields["round"]

    @property
    def hardware_id(self) -> str:
        return self.fields["hardware_id"]

    @property
    def family(self) -> str:
        return family(self.hardware_id)

    @property
    def num_gpus(self) -> int:
        """GPUs in the whole system (the result's denominator per GPU: accelerators x GPUs on each); 0 for CPU-only
        rows."""
        v = number_or_nan(self.fields.get("accelerator_count", "")) * _gpus_per_accelerator(self.fields)
        return int(v) if math.isfinite(v) else 0

    @property
    def isl_tokens(self) -> float:
        """The benchmark dataset's mean input length, tokens (the public README, section 5)."""
        return number_or_nan(self.fields.get("isl_mean_tokens", ""))

    @property
    def osl_tokens(self) -> float:
        """The run's mean generated length, tokens (tokens/s ÷ samples/s)."""
        return number_or_nan(self.fields.get("implied_mean_output_tokens", ""))

    @property
    def total_tokens_per_s_per_gpu(self) -> float:
        """Input + output tokens/s per GPU, as the model counts them (serving.py): output tokens/s per GPU x
        (ISL + OSL) / OSL, with the dataset's mean ISL and the run's mean OSL (MLPerf reports output tokens only)."""
        return self.output_tokens_per_s_per_gpu * (self.isl_tokens + self.osl_tokens) / self.osl_tokens

    @property
    def software(self) -> str:
        """The declared framework and software stack ('' where the round declares none, as in v5.0's export)."""
        parts = [self.fields.get(k, "").strip() for k in ("framework", "other_software_stack")]
        return "; ".join(dict.fromkeys(p for p in parts if p))


def _gpus_per_accelerator(r: dict) -> float:
    """GPUs on one submitted accelerator (2 for a dual-GPU card; the builder's mapping), 1 when blank."""
    v = number_or_nan(r.get("gpus_per_accelerator", ""))
    return v if math.isfinite(v) and v >= 1 else 1.0


def load_mlperf(path: str | Path = MLPERF_PATH) -> list[MLPerfResult]:
    """Every row of data/mlperf.csv; fit rows carry a continuous-batching Scenario per model replica."""
    path = Path(path)
    reader = csv_rows(path, REQUIRED)
    models, hardware = load_model_catalog(), load_hardware_catalog()
    out = []
    for i, r in enumerate(reader):
        where = f"{path}: line {i + 2}"
        m = models.get(r["model_id"]) if r["model_id"] else None
        hw = hardware.get(r["hardware_id"]) if r["hardware_id"] else None
        if why := unknown_engine(r["profile"]):
            raise CatalogError(f"{where}: field 'profile': {why}")
        scenario = None
        if r["use"] == "fit":
            if m is None or hw is None:
                raise CatalogError(f"{where}: field 'use': a fit row needs a catalog model_id and hardware_id")
            C, isl, osl, tp = (
                number_or_nan(r[k])
                for k in ("concurrency_per_replica", "isl_mean_tokens", "implied_mean_output_tokens", "tensor_parallel")
            )
            if not all(math.isfinite(v) and v > 0 for v in (C, isl, osl, tp)):
                raise CatalogError(f"{where}: a fit row needs positive concurrency, lengths and tensor_parallel")
            try:
                scenario = Scenario(
                    batch=max(C, 1.0),
                    context_tokens=round(isl),
                    output_tokens=round(osl),
                    num_gpus=tp,
                    weights=parse_format(r["weights"]),
                    kv_cache=parse_format(r["kv_cache"]),
                    parallelism=r["layout"],
                    batching="continuous",
                    compute=r["compute"] or None,
                )
            except ValueError as e:
                raise CatalogError(f"{where}: {e}") from None
        out.append(
            MLPerfResult(
                index=i,
                fields=dict(r),
                model=m,
                hardware=hw,
                profile=r["profile"],
                tpot_s=number_or_nan(r["tpot_mean_ms"]) * 1e-3,
                output_tokens_per_s_per_gpu=number_or_nan(r["per_accelerator_tokens_per_s"]) / _gpus_per_accelerator(r),
                use=r["use"],
                scenario=scenario,
            )
        )
    return out


LATENCY_SCENARIOS = ("Server", "Interactive")  # the MLPerf scenarios with a measured TTFT and TPOT


def measured_points(
    rows: Sequence[MLPerfResult], model_id: str, hardware_ids: Collection[str] | None = None
) -> list[MLPerfResult]:
    """The closed-division Server and Interactive results of a catalog model on catalog chips (all, or those in
    hardware_ids) with a measured mean TPOT and output tokens/s per GPU, in file order: what can be drawn beside the
    model. Multi-node systems are kept (TPOT is per request, throughput per GPU); open-division results are not
    (they may run a pruned or otherwise changed model)."""
    return [
        r
        for r in rows
        if r.fields.get("model_id") == model_id
        and r.hardware is not None
        and (hardware_ids is None or r.hardware_id in hardware_ids)
        and r.fields.get("division") == "closed"
        and r.fields.get("scenario") in LATENCY_SCENARIOS
        and math.isfinite(r.tpot_s)
        and r.tpot_s > 0
        and math.isfinite(r.output_tokens_per_s_per_gpu)
        and r.output_tokens_per_s_per_gpu > 0
    ]


def best_per_chip(points: Sequence[MLPerfResult]) -> dict[tuple[str, str], MLPerfResult]:
    """(hardware id, MLPerf scenario) -> the result with the most output tokens/s per GPU (the first in file order
    on a tie), sorted by chip then scenario (Server first)."""
    best: dict[tuple[str, str], MLPerfResult] = {}
    for r in points:
        key = (r.hardware_id, r.fields["scenario"])
        if key not in best or r.output_tokens_per_s_per_gpu > best[key].output_tokens_per_s_per_gpu:
            best[key] = r
    order = {s: i for i, s in enumerate(LATENCY_SCENARIOS)}
    return dict(sorted(best.items(), key=lambda kv: (kv[0][0], order.get(kv[0][1], len(order)))))


def _group_key(r: MLPerfResult) -> tuple:
    s = r.scenario
    return (
        r.model.id,
        r.hardware.id,
        float(s.num_gpus),
        s.weights.name,
        s.kv_cache.name,
        s.parallelism,
        r.profile,
        ROUND_DATES.get(r.round),
    )


def predict_rows(rows: Sequence[MLPerfResult], profiles: dict[str, EfficiencyProfile]) -> tuple[np.ndarray, np.ndarray]:
    """(TPOT s, output tokens/s per GPU) of every fit row with its engine's profile as of the round's date; one
    vectorised estimate per (model, chip, layout, formats, engine, round date) group."""
    tpot = np.full(len(rows), np.nan)
    out = np.full(len(rows), np.nan)
    groups: dict[tuple, list[int]] = {}
    for i, r in enumerate(rows):
        if r.fitted:
            groups.setdefault(_group_key(r), []).append(i)
    for idx in groups.values():
        first = rows[idx[0]]
        s = replace(
            first.scenario,
            batch=np.array([float(rows[i].scenario.batch) for i in idx]),
            context_tokens=np.array([float(rows[i].scenario.context_tokens) for i in idx]),
            output_tokens=np.array([float(rows[i].scenario.output_tokens) for i in idx]),
        )
        e = estimate(first.model, first.hardware, s, profiles[first.profile].as_of(ROUND_DATES.get(first.round)))
        tpot[idx] = np.broadcast_to(e.tpot_s, (len(idx),))
        out[idx] = np.broadcast_to(e.output_tokens_per_s_per_gpu, (len(idx),))
    return tpot, out


# --------------------------------------------------------------------------------------------------- fitting


def flops_table(rows: Sequence[MLPerfResult], profiles: dict[str, EfficiencyProfile]) -> np.ndarray:
    """(len(FLOPS_GRID), rows) predicted TPOT of every fit row with its engine's FLOP efficiency set to each grid
    value (nan for rows not fitted)."""
    return np.array(
        [predict_rows(rows, {k: replace(p, **{FLOPS_ATTR: f}) for k, p in profiles.items()})[0] for f in FLOPS_GRID]
    )


def fit_flops(table: np.ndarray, measured: np.ndarray, mask: np.ndarray) -> float:
    """The grid value of FLOP efficiency minimising sum of log(TPOT ratio)^2 over the masked rows (nan if none)."""
    if not mask.any():
        return math.nan
    r = np.log(table[:, mask]) - np.log(measured[mask])[None, :]
    return float(FLOPS_GRID[int(np.argmin((r * r).sum(axis=1)))])


@dataclass(frozen=True, eq=False)
class MLPerfFit:
    """The FLOP efficiency fitted per engine on all fit rows, and per held-out chip family (fitted without it)."""

    engines: dict[str, float]
    by_family: dict[str, dict[str, float]]  # family -> engine -> value fitted without that family


def fit_engines(rows: Sequence[MLPerfResult], table: np.ndarray) -> MLPerfFit:
    """Per engine: the FLOP efficiency on all its fit rows, and on its rows outside each chip family (an engine
    with no rows left in a fold keeps the value fitted on every engine's rows outside the family)."""
    fit = np.array([r.fitted for r in rows])
    measured = np.array([r.tpot_s for r in rows])
    engines = sorted({r.profile for r in rows if r.fitted})
    fams = sorted({r.family for r in rows if r.fitted})
    eng = np.array([r.profile for r in rows])
    fam = np.array([r.family for r in rows])
    all_ = {e: fit_flops(table, measured, fit & (eng == e)) for e in engines}
    by_family = {}
    for f in fams:
        pooled = fit_flops(table, measured, fit & (fam != f))
        by_family[f] = {
            e: (v if not math.isnan(v := fit_flops(table, measured, fit & (eng == e) & (fam != f))) else pooled)
            for e in engines
        }
    return MLPerfFit(engines=all_, by_family=by_family)


def locfo_tpot(rows: Sequence[MLPerfResult], table: np.ndarray, fit: MLPerfFit) -> np.ndarray:
    """Each fit row's TPOT predicted with its engine's value fitted without the row's chip family (from the table)."""
    out = np.full(len(rows), np.nan)
    for i, r in enumerate(rows):
        if r.fitted:
            out[i] = table[FLOPS_GRID.index(fit.by_family[r.family][r.profile]), i]
    return out


def forward_tpot(rows: Sequence[MLPerfResult], table: np.ndarray) -> np.ndarray:
    """Forward in time: each newest-round fit row's TPOT with its engine's FLOP efficiency fitted on the older rounds
    only (every engine's older rows pooled if its own has none); nan for the other rows. How the next round will be
    predicted from this one."""
    newest = newest_round(rows)
    measured = np.array([r.tpot_s for r in rows])
    older = np.array([r.fitted and r.round != newest for r in rows])
    eng = np.array([r.profile for r in rows])
    pooled = fit_flops(table, measured, older)
    out = np.full(len(rows), np.nan)
    for i, r in enumerate(rows):
        if r.fitted and r.round == newest:
            v = fit_flops(table, measured, older & (eng == r.profile))
            out[i] = table[FLOPS_GRID.index(pooled if math.isnan(v) else v), i]
    return out


def with_flops(profiles: dict[str, EfficiencyProfile], values: dict[str, float]) -> dict[str, EfficiencyProfile]:
    """The profiles with the fitted FLOP efficiencies (3 significant figures) set."""
    return {k: (replace(p, **{FLOPS_ATTR: sig3(values[k])}) if k in values else p) for k, p in profiles.items()}


# --------------------------------------------------------------------------------------------------- reporting


def errors(predicted: np.ndarray, measured: np.ndarray) -> np.ndarray:
    """predicted / measured - 1."""
    return np.asarray(predicted, dtype=float) / np.asarray(measured, dtype=float) - 1.0


def summary_by(rows: Sequence[MLPerfResult], err: np.ndarray, key) -> dict[str, ErrorSummary]:
    """|error| summaries of the fit rows per group, e.g. summary_by(rows, e, lambda r: r.round)."""
    groups: dict[str, list[float]] = {}
    for r, e in zip(rows, err, strict=True):
        if r.fitted:
            groups.setdefault(str(key(r)), []).append(float(e))
    return {g: ErrorSummary.of(np.array(v)) for g, v in sorted(groups.items())}


def newest_round(rows: Sequence[MLPerfResult]) -> str:
    """The newest round among the fit rows ('v5.1')."""
    return max((r.round for r in rows if r.fitted), key=lambda x: tuple(int(p) for p in x[1:].split(".")))


def format_report(
    rows: Sequence[MLPerfResult],
    before: np.ndarray,
    fit: MLPerfFit,
    in_sample: np.ndarray,
    locfo: np.ndarray,
    path,
    forward: np.ndarray | None = None,
) -> str:
    """What calibrate prints for MLPerf: rows, the FLOP efficiency per engine, TPOT |error| before the fit (the
    profiles as the other fits left them), in-sample and leave-one-chip-family-out, overall and per family, and
    the newest round predicted from the older ones (``forward``, forward_tpot)."""
    measured = np.array([r.tpot_s for r in rows])
    fitted = [r for r in rows if r.fitted]
    newest = newest_round(rows)
    is_new = np.array([r.fitted and r.round == newest for r in rows])

    def med(pred, mask=None):
        e = errors(pred, measured)
        m = np.array([r.fitted for r in rows]) if mask is None else mask
        s = ErrorSummary.of(e[m])
        return f"{s.median:.1%} (p90 {s.p90:.1%}, n {s.n})"

    lines = [
        f"{len(rows)} MLPerf Inference results in {path}: {len(fitted)} fitted (closed, Server / Interactive, one "
        f"node, catalog chip and model, known engine) on {len({r.family for r in fitted})} chip families",
        "MLPerf: |error| of mean TPOT at the measured concurrency, continuous-batching steady state",
        "FLOP efficiency per engine (of the chip's attainable GEMM rate): "
        + ", ".join(f"{e} {v:.2f}" for e, v in fit.engines.items()),
        f"  before the fit (FLOP efficiency as the other fits left it): TPOT median {med(before)}",
        f"  in-sample:                       TPOT median {med(in_sample)}",
        f"  leave-one-chip-family-out:       TPOT median {med(locfo)}",
        f"  newest round ({newest}), leave-one-chip-family-out: TPOT median {med(locfo, is_new)} "
        f"(target {TARGET_MEDIAN:.0%})",
    ]
    if forward is not None:
        lines.append(f"  newest round ({newest}), fitted on the older rounds only: TPOT median {med(forward, is_new)}")
    e = errors(locfo, measured)
    for f, s in summary_by(rows, e, lambda r: r.family).items():
        vals = ", ".join(f"{k} {v:.2f}" for k, v in fit.by_family[f].items())
        lines.append(f"  held out {f:<10} {s.n:>3} rows  TPOT median {s.median:>6.1%}  (fitted without it: {vals})")
    return "\n".join(lines)


def table_records(
    rows: Sequence[MLPerfResult], predicted: tuple[np.ndarray, np.ndarray], locfo_tpot_s: np.ndarray
) -> list[dict]:
    """The committed table: per fit row, its index, the prediction with the written profiles (TPOT s, output
    tokens/s per GPU) and the leave-one-chip-family-out TPOT (s)."""
    tpot, out = predicted
    return [
        {
            "row": r.index,
            "predicted_tpot_s": float(tpot[i]),
            "predicted_output_tokens_per_s_per_gpu": float(out[i]),
            "locfo_tpot_s": float(locfo_tpot_s[i]),
        }
        for i, r in enumerate(rows)
        if r.fitted
    ]


def write_table(path: str | Path, records: Sequence[dict]) -> None:
    """The table as JSON, floats exact."""
    Path(path).write_text(json.dumps(list(records), indent=1) + "\n", encoding="utf-8")


def read_table(path: str | Path, rows: Sequence[MLPerfResult]) -> list[dict]:
    """The committed table; CatalogError when its rows are not the file's fit rows (rerun calibrate)."""
    records = json.loads(Path(path).read_text(encoding="utf-8"))
    if [x["row"] for x in records] != [r.index for r in rows if r.fitted]:
        raise CatalogError(f"{path}: its rows are not the fit rows of data/mlperf.csv; run calibrate")
    return records
