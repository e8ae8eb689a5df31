"""The layout search against the measured serving frontier: for each measured run that no other run of its group
beats (the same model, chip, weights, KV-cache format, engine profile and ISL/OSL; MTP-free, on at most MAX_GPUS
GPUs, from data/serving_measurements.csv: single-node and multi-node runs), the best deployment the layout search
finds at the run's interactivity within the run's own GPU count (layouts.choose), its tokens/s per GPU over the
run's. The question the frontier answers for an analyst, asked of the measurements themselves, like for like.
calibrate writes the result into data/disaggregated_check.json (``frontier``), under the pool correction it has
just fitted.

Not a held-out check: the pool correction was fitted on the disaggregated runs among these. Request lengths are the
runs' means (0.9 x the nominal ISL / OSL), the engine profile as it ran on the run's date.

The runs of models the serving fit has not seen (``ServingMeasurement.transfer``) are in none of these checks: the
transfer check reads them (transfer_summary, ``transfer`` in data/disaggregated_check.json), and a model of another
architecture than the checked runs' gets no measured range, but what its own runs say (transfer_note).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .catalog import architecture_twin, load_hardware_catalog
from .engines import serving_engines
from .fleet import Demand, Fleet, replicas_for
from .layouts import Deployment, choose, correction, deployment_curve, layout_tables, recipe_key
from .pool_correction import NEUTRAL, PoolFit
from .profiles import EfficiencyProfile, load_profiles
from .scenario import Scenario
from .serving_calibration import MEAN_LENGTH_FRACTION, ServingMeasurement, predict

MAX_GPUS = 72  # one NVL72 domain, or nine 8-GPU nodes
WITHIN = 0.35  # the share of runs whose tokens/s per GPU the frontier gets within +-35 %
HIGH_FROM = 100.0  # tokens/s per user: the high-interactivity band
LOW_BELOW = 40.0  # tokens/s per user: the low-interactivity band
NODE_GPUS = 8  # runs on more GPUs than one 8-GPU node: the multi-node / rack-scale band
MIN_CELL_RUNS = 10  # a cell's range is given from this many runs the layout search reaches
# measured_at: a run up to this much more interactive than a target below every run stands for it (it meets the
# target; InferenceX's 1k/1k B200 TensorRT-LLM run at 26.4 tok/s per user for 25); further, nothing was measured there
NEAR_RUN = 0.10
RATIO_AT = (25.0, 60.0, 100.0, 125.0)  # tokens/s per user: the rack-scale advantage read off here (the rack view's too)
# (rack-scale NVL72 chip, scale-out HGX chip) pairs whose advantage ratio_check sets against the measured one
RATIO_PAIRS = (("gb200", "b200"), ("gb300", "b300"))


@dataclass(frozen=True)
class Point:
    """One measured run on its group's frontier and the layout search at its interactivity within its GPU count:
    tokens/s per GPU (input + output, every GPU), measured and modelled (nan: no layout reaches the interactivity)."""

    id: str
    hardware_id: str
    interactivity_tok_s_per_user: float
    gpus: int
    measured_tokens_per_s_per_gpu: float
    model_tokens_per_s_per_gpu: float
    model_id: str = ""
    covers: str = ""  # the run's weights and nominal request lengths: 'nvfp4 1024/1024'

    @property
    def ratio(self) -> float:
        """Model / measured tokens/s per GPU (nan where the model reaches no layout)."""
        return self.model_tokens_per_s_per_gpu / self.measured_tokens_per_s_per_gpu


def _usable(r: ServingMeasurement, profiles: dict[str, EfficiencyProfile], transfer: bool = False) -> bool:
    """A run the check reads: MTP-free, on at most MAX_GPUS GPUs, with a catalog model and chip, an engine profile
    and a throughput; of the fitted model (transfer False) or of the transfer check's (True)."""
    return (
        r.transfer == transfer
        and r.model is not None
        and r.hardware is not None
        and not r.mtp
        and 0 < r.num_gpus <= MAX_GPUS
        and r.profile in profiles
        and math.isfinite(r.total_tokens_per_s_per_gpu)
        and r.interactivity_tokens_per_s_per_user > 0
    )


def _group(r: ServingMeasurement, by_engine: bool = True) -> tuple:
    engine = r.profile if by_engine else ""
    return r.model.id, r.hardware.id, r.fields["weights"], r.fields["kv_cache"] or "fp8", engine, r.isl, r.osl


def frontier_runs(
    rows: Sequence[ServingMeasurement],
    profiles: dict[str, EfficiencyProfile],
    by_engine: bool = True,
    transfer: bool = False,
) -> list:
    """The usable runs that no run of their group beats: none at least as interactive with more tokens/s per GPU,
    or more interactive with as many (by_engine False: a group holds every engine's runs; transfer: the transfer
    check's runs instead of the fitted model's)."""
    groups: dict[tuple, list[ServingMeasurement]] = {}
    for r in rows:
        if _usable(r, profiles, transfer):
            groups.setdefault(_group(r, by_engine), []).append(r)
    return [r for runs in groups.values() for r in non_dominated(runs)]


def total_per_gpu(r: ServingMeasurement) -> float:
    """A run's (input + output) tokens/s per GPU: what the frontier reads unless told otherwise."""
    return r.total_tokens_per_s_per_gpu


def non_dominated(
    runs: Sequence[ServingMeasurement], value: Callable[[ServingMeasurement], float] = total_per_gpu
) -> list[ServingMeasurement]:
    """The runs no other run beats: none at least as interactive with more `value` (tokens/s per GPU), or more
    interactive with as much (the measured Pareto frontier), in the order given."""

    def beaten(r: ServingMeasurement) -> bool:
        x, y = r.interactivity_tokens_per_s_per_user, value(r)
        return any(
            (o.interactivity_tokens_per_s_per_user >= x and value(o) > y)
            or (o.interactivity_tokens_per_s_per_user > x and value(o) >= y)
            for o in runs
        )

    return [r for r in runs if not beaten(r)]


@dataclass(frozen=True)
class MeasuredAt:
    """The measured frontier at a target interactivity: (input + output) tokens/s per GPU and the runs it is read
    from: the two frontier runs around the target (log-log interpolation between them), or one (a frontier run at
    the target, or the least interactive one where it is at most NEAR_RUN faster than a target below every run: it
    meets the target, and stands for it)."""

    tokens_per_s_per_gpu: float
    runs: tuple[ServingMeasurement, ...]

    @property
    def interpolated(self) -> bool:
        return len(self.runs) == 2


def measured_at(
    runs: Sequence[ServingMeasurement],
    target_tok_s_per_user: float,
    value: Callable[[ServingMeasurement], float] = total_per_gpu,
) -> MeasuredAt | None:
    """The measured frontier of `runs` (one chip's like-for-like runs: non_dominated's) at a target tokens/s per
    user (MeasuredAt, in `value`: input + output tokens/s per GPU unless told otherwise); None outside the runs'
    interactivities (below the least interactive by more than NEAR_RUN: what the chip does there was not measured),
    or without runs with a finite throughput."""
    ok = [r for r in runs if r.interactivity_tokens_per_s_per_user > 0 and value(r) > 0]
    front = sorted(non_dominated(ok, value), key=lambda r: r.interactivity_tokens_per_s_per_user)
    t = target_tok_s_per_user
    if not front or not (t <= front[-1].interactivity_tokens_per_s_per_user):
        return None
    if front[0].interactivity_tokens_per_s_per_user > t * (1.0 + NEAR_RUN):
        return None
    x = np.log([r.interactivity_tokens_per_s_per_user for r in front])
    y = np.log([value(r) for r in front])
    i = int(np.searchsorted(x, math.log(t)))  # front[i] is the first run at least as interactive as the target
    if i == 0 or math.isclose(x[i], math.log(t), rel_tol=0.0, abs_tol=1e-12):
        return MeasuredAt(value(front[i]), (front[i],))
    w = (math.log(t) - x[i - 1]) / (x[i] - x[i - 1])
    return MeasuredAt(float(np.exp(y[i - 1] + w * (y[i] - y[i - 1]))), (front[i - 1], front[i]))


def measured_at_least(
    runs: Sequence[ServingMeasurement],
    target_tok_s_per_user: float,
    value: Callable[[ServingMeasurement], float] = total_per_gpu,
) -> MeasuredAt | None:
    """Where every frontier run of `runs` is more interactive than a target (measured_at: None there), a lower
    bound on the chip at the target: the least interactive frontier run, which meets it (a chip serving 72
    tok/s/user serves 50); None where a run is at or below the target, or without runs."""
    ok = [r for r in runs if r.interactivity_tokens_per_s_per_user > 0 and value(r) > 0]
    front = sorted(non_dominated(ok, value), key=lambda r: r.interactivity_tokens_per_s_per_user)
    if not front or front[0].interactivity_tokens_per_s_per_user <= target_tok_s_per_user:
        return None
    return MeasuredAt(value(front[0]), (front[0],))


def check(
    rows: Sequence[ServingMeasurement],
    profiles: dict[str, EfficiencyProfile],
    pool: Callable[[str], PoolFit],
    best: bool = False,
    transfer: bool = False,
    budget: int | None = None,
) -> list[Point]:
    """Every frontier run (frontier_runs) against the layout search at its interactivity within its GPU count, under
    the pool correction `pool(engine profile id)`; one set of layout tables per group, engine revision and GPU
    count. best: the frontier over every engine's runs against the best-engine search (the engines fitted on the
    chip's vendor, engines.serving_engines: what `frontier` answers by default). transfer: the runs of the models
    the serving fit has not seen. budget: the search within that many GPUs, not the run's count (`frontier
    --max-gpus`'s question against the best measured with at most MAX_GPUS, whatever GPU count reached it)."""
    tables = {}
    out = []
    for r in frontier_runs(rows, profiles, by_engine=not best, transfer=transfer):
        engines = serving_engines(r.hardware.vendor) if best else (r.profile,)
        engine_profiles = tuple(profiles[e].as_of(r.run_date or None) for e in engines)
        gpus = budget or r.num_gpus
        key = (*_group(r, not best), engine_profiles, gpus)
        if key not in tables:
            s = Scenario(
                weights=r.fields["weights"],
                kv_cache=r.fields["kv_cache"] or "fp8",
                context_tokens=round(r.isl * MEAN_LENGTH_FRACTION),
                output_tokens=round(r.osl * MEAN_LENGTH_FRACTION),
            )
            tables[key] = tuple(
                layout_tables(r.model, r.hardware, s, p, max_gpus=gpus, pool=pool(e))
                for e, p in zip(engines, engine_profiles, strict=True)
            )
        d = choose(tables[key], 1.0 / r.interactivity_tokens_per_s_per_user)
        model = float(d.tokens_per_s_per_gpu) if d.feasible else math.nan
        out.append(Point(r.id, r.hardware.id, r.interactivity_tokens_per_s_per_user, r.num_gpus,
                         r.total_tokens_per_s_per_gpu, model, r.model.id,
                         f"{r.fields['weights']} {r.isl:.0f}/{r.osl:.0f}"))  # fmt: skip
    return out


def measured_fastest(
    rows: Sequence[ServingMeasurement], model_id: str, hardware_id: str, weights: str, max_gpus: int
) -> ServingMeasurement | None:
    """The most interactive MTP-free measured run of a model on a chip with these weights on at most max_gpus GPUs
    (any engine, layout and request lengths; data/serving_measurements.csv): what the chip was seen to reach, to set
    beside the model's fastest step where no layout reaches a target. None without such a run."""
    runs = [
        r
        for r in rows
        if r.model is not None
        and r.hardware is not None
        and (r.model.id, r.hardware.id, r.fields["weights"]) == (model_id, hardware_id, weights)
        and not r.mtp
        and 0 < r.num_gpus <= max_gpus
        and r.interactivity_tokens_per_s_per_user > 0
    ]
    return max(runs, key=lambda r: r.interactivity_tokens_per_s_per_user, default=None)


def runs_like(
    rows: Sequence[ServingMeasurement],
    model_id: str,
    hardware_id: str,
    weights: str,
    isl: int,
    osl: int,
    max_gpus: int,
    mtp: bool = False,
) -> list[ServingMeasurement]:
    """The measured runs (data/serving_measurements.csv) like a frontier question: this model on this chip with these
    weights, these nominal request lengths, on at most max_gpus GPUs, with MTP or without it; any engine and layout
    (measured_at's input)."""
    return [
        r
        for r in rows
        if r.model is not None
        and r.hardware is not None
        and (r.model.id, r.hardware.id, r.fields["weights"]) == (model_id, hardware_id, weights)
        and (r.isl, r.osl) == (isl, osl)
        and r.mtp == mtp
        and 0 < r.num_gpus <= max_gpus
    ]


def cell_parts(gpus: int, interactivity_tok_s_per_user: float) -> tuple[str, str]:
    """The check's cell of a deployment: ('single_node' or 'multi_node' (more than NODE_GPUS GPUs), 'below_high' or
    'high' (from HIGH_FROM tokens/s per user))."""
    node = "multi_node" if gpus > NODE_GPUS else "single_node"
    return node, "high" if interactivity_tok_s_per_user >= HIGH_FROM else "below_high"


def cell(gpus: int, interactivity_tok_s_per_user: float) -> str:
    """The cell's key in the summary's ``cells``: 'node|level' (cell_parts)."""
    return "|".join(cell_parts(gpus, interactivity_tok_s_per_user))


def measured_range(frontier: dict, gpus: int, interactivity_tok_s_per_user: float) -> tuple[float, float, dict] | None:
    """(low, high, the cell's band): the factors on a layout-search tokens/s per GPU between which 80 % of the
    measured frontier runs of its cell sit (measured = model / ratio: 1 / p90 and 1 / p10), from a summary's
    ``frontier`` (data/disaggregated_check.json); None without one or with fewer than MIN_CELL_RUNS reached runs."""
    band = (frontier or {}).get("cells", {}).get(cell(gpus, interactivity_tok_s_per_user))
    if not band or band["runs"] - band["unreached"] < MIN_CELL_RUNS or not band["p10_ratio"]:
        return None
    return 1.0 / band["p90_ratio"], 1.0 / band["p10_ratio"], band


# why a deployment gets no measured 80 % range (no_range_kind), in the CLI's words ({hw}: the chip's name)
NO_RANGE_REASONS = {
    "no_layout": "no layout",
    "mtp": "the check's measured frontier runs are MTP-free: none says how far MTP's draft-and-verify steps err",
    "announced": "{hw} is announced, not shipping: nothing measured",
    "unmeasured_chip": "no measured frontier run on {hw}",
    "architecture": "the measured runs are another architecture's (see transfer_check)",
    "ideal": "the ideal bound, no engine's: the measured runs are engines'",
    "dense": "a dense model: the measured frontier runs are MoE models'",
}
CHIP_NO_RANGE = ("announced", "unmeasured_chip")  # the kinds that are the chip's, not the model's or the search's


def no_range_kind(d: Deployment, model, hw, profile, frontier: dict) -> str | None:
    """Why a deployment gets no measured 80 % range (deployment_range), as a key of NO_RANGE_REASONS; None where one
    may be read."""
    measured_chips = {p["hardware_id"] for p in (frontier or {}).get("points", ())}
    if not d.feasible:
        return "no_layout"
    if d.mtp_k:
        return "mtp"
    if hw.announced:
        return "announced"
    if hw.id not in measured_chips:
        return "unmeasured_chip"
    if correction(model, profile) is NEUTRAL:  # a dense model's (Llama's: 'dense', not 'another architecture's')
        return "ideal" if profile.is_ideal else "dense"
    if not fitted_shape(model, (frontier or {}).get("models", ())):
        return "architecture"
    return None


def no_range_reason(d: Deployment, model, hw, profile, frontier: dict) -> str | None:
    """Why a deployment gets no measured 80 % range (deployment_range), in words; None where one may be read."""
    kind = no_range_kind(d, model, hw, profile, frontier)
    return None if kind is None else NO_RANGE_REASONS[kind].format(hw=hw.name)


def deployment_range(
    d: Deployment, model, hw, profile, frontier: dict
) -> tuple[float, float, dict, tuple[str, str]] | None:
    """(low, high tokens/s per GPU, the cell's band, the cell's (node, level): cell_parts) for a feasible MTP-free
    layout-search deployment of an MoE model under an engine profile, of a model (or its architecture) and on a chip
    the check holds measured runs of (never an announced one): where 80 % of the measured frontier runs of its cell
    sit against the search (measured_range); None elsewhere (a model of another architecture: transfer_note). The cell's GPUs are one instance's for an aggregated deployment (replicas of
    an 8-GPU instance serve as that instance does) and the deployment's for a disaggregated one."""
    if no_range_kind(d, model, hw, profile, frontier) is not None:
        return None
    gpus = d.decode.gpus_each if d.serving == "aggregated" else d.gpus_used
    found = measured_range(frontier, gpus, 1.0 / d.tpot_s)
    if found is None:
        return None
    low, high, band = found
    return d.tokens_per_s_per_gpu * low, d.tokens_per_s_per_gpu * high, band, cell_parts(gpus, 1.0 / d.tpot_s)


def measured_gpus(f: Fleet, model, hw, demand: Demand, check: dict) -> tuple[tuple[int, int] | None, str | None]:
    """(gpus_range's (fewest, most) or None, why there is none: no_range_kind) for a layout search's
    fleet; (None, None) for a tensor-parallel one or none."""
    if f.deployment is None or not f.feasible:
        return None, None
    span = gpus_range(f, model, hw, demand, check)
    return span, None if span else no_range_kind(f.deployment, model, hw, load_profiles()[f.engine], check)


def gpus_range(f: Fleet, model, hw, demand: Demand, check: dict) -> tuple[int, int] | None:
    """For a layout search's fleet: its GPUs at the two ends of the measured 80 % range of its replica's tokens/s per
    GPU (deployment_range over `check`, the frontier check of the search's kind: where 80 % of the measured frontier
    runs of its cell sit against the search), (fewest, most); None where the search's deployment has no range
    (no_range_kind says why) or the fleet is tensor-parallel."""
    if f.deployment is None or not f.feasible:
        return None
    found = deployment_range(f.deployment, model, hw, load_profiles()[f.engine], check)
    if found is None:
        return None
    low, high = (x / f.deployment.tokens_per_s_per_gpu * f.output_tokens_per_s_per_gpu for x in found[:2])
    n = f.gpus_per_replica
    return n * replicas_for(demand, high, n), n * replicas_for(demand, low, n)


def beyond_measured(d: Deployment, model_id: str, reach: dict, hw) -> tuple[float, float | None, bool] | None:
    """For a disaggregated deployment on `hw` whose decode pool holds more sequences per GPU than any measured run of
    the same model with the same decode worker recipe (disaggregated.decode_reach, layouts.recipe_key): (its sequences
    per GPU, the most measured, None where no run used that recipe; whether the worker spans scale-up domains); None
    within the measured recipes, or aggregated."""
    if not d.feasible or d.serving != "disaggregated":
        return None
    per_gpu = d.decode_sequences_per_gpu
    key = recipe_key(d.decode.parallelism, d.decode.gpus_each, hw)
    most = reach.get((model_id, *key))
    return None if most is not None and per_gpu <= most else (per_gpu, most, key[2])


@dataclass(frozen=True)
class RatioPoint:
    """The rack-scale advantage (the rack chip's tokens/s per GPU over the scale-out chip's, each its best within the
    budget) at one interactivity, by the layout search and by the two chips' measured frontiers (measured_at)."""

    model_id: str
    weights: str
    isl: int
    osl: int
    rack: str
    other: str
    target_tok_s_per_user: float
    model_ratio: float
    measured_ratio: float

    @property
    def ratio(self) -> float:
        """The model's advantage over the measured one."""
        return self.model_ratio / self.measured_ratio


def ratio_check(
    rows: Sequence[ServingMeasurement],
    profiles: dict[str, EfficiencyProfile],
    pool: Callable[[str], PoolFit],
    max_gpus: int = MAX_GPUS,
) -> list[RatioPoint]:
    """For every model, weights and nominal request lengths measured MTP-free on both chips of a RATIO_PAIRS pair
    within max_gpus (runs_like), at each of RATIO_AT where both measured frontiers read (measured_at): the
    best-engine layout search's advantage within max_gpus (the runs' mean lengths; each chip's vendor's fitted
    engines, engines.serving_engines, each under its pool correction `pool(engine profile id)`) against the measured
    one."""
    shapes = {
        (r.model.id, r.fields["weights"], r.isl, r.osl)
        for r in rows
        if r.model is not None and not r.mtp and not r.transfer
    }
    out = []
    for model_id, weights, isl, osl in sorted(shapes, key=str):
        for pair in RATIO_PAIRS:
            runs = {hid: runs_like(rows, model_id, hid, weights, isl, osl, max_gpus) for hid in pair}
            read = {hid: [measured_at(runs[hid], x) for x in RATIO_AT] for hid in pair}
            both = [i for i, (a, b) in enumerate(zip(*read.values(), strict=True)) if a and b]
            if not both:
                continue
            s = Scenario(weights=weights, kv_cache="fp8", context_tokens=round(isl * MEAN_LENGTH_FRACTION),
                         output_tokens=round(osl * MEAN_LENGTH_FRACTION))  # fmt: skip
            model = {}
            for hid in pair:
                r = runs[hid][0]
                tables = [
                    layout_tables(r.model, r.hardware, s, profiles[e], max_gpus=max_gpus, pool=pool(e))
                    for e in serving_engines(r.hardware.vendor)
                ]
                model[hid] = [
                    d.tokens_per_s_per_gpu if d.feasible else math.nan for d in deployment_curve(tables, RATIO_AT)
                ]
            rack, other = pair
            for i in both:
                model_ratio = model[rack][i] / model[other][i]
                measured_ratio = read[rack][i].tokens_per_s_per_gpu / read[other][i].tokens_per_s_per_gpu
                if math.isfinite(model_ratio):
                    out.append(RatioPoint(model_id, weights, int(isl), int(osl), rack, other, RATIO_AT[i],
                                          model_ratio, measured_ratio))  # fmt: skip
    return out


def ratio_summary(points: Sequence[RatioPoint]) -> dict:
    """What data/disaggregated_check.json's ``rack_ratio`` holds: over the read-offs (``all``, _band's: ``runs`` is
    the read-offs), the median and 10th-90th percentiles of model / measured advantage and how many sit within
    +-WITHIN; the models checked; every read-off."""
    return {
        "method": "The rack-scale advantage (an NVL72 chip's tokens/s per GPU over an HGX chip's, each the layout "
        "search's best within the budget, the faster of the engines fitted on the chip's vendor at each target, each "
        "under its pool correction) against the same ratio of "
        "the two chips' measured frontiers (frontier_check.measured_at), wherever both were measured like for like.",
        "max_gpus": MAX_GPUS,
        "within": WITHIN,
        "all": _band(points),
        "models": sorted({p.model_id for p in points}),
        "points": [p.__dict__ | {"ratio": p.ratio} for p in points],
    }


def format_ratio_summary(s: dict) -> str:
    """What calibrate prints of ratio_summary."""
    b = s["all"]
    if b["median_ratio"] is None:
        return "the rack-scale advantage: no read-off measured on both chips"
    return (
        f"the rack-scale advantage against the measured one ({b['runs']} read-offs, within {s['max_gpus']} GPUs): "
        f"model / measured median {b['median_ratio']:.2f} (10-90%: {b['p10_ratio']:.2f}-{b['p90_ratio']:.2f}), "
        f"within +-{s['within']:.0%}: {b['within']}"
    )


def _band(points: Sequence[Point] | Sequence[RatioPoint]) -> dict:
    """n, the model-reaches-nothing count, and over the rest: median ratio, its 10th-90th percentiles, the count
    within +-WITHIN."""
    ratios = np.array([p.ratio for p in points if math.isfinite(p.ratio)])
    within = int(np.sum(np.abs(ratios - 1.0) <= WITHIN)) if ratios.size else 0
    return {
        "runs": len(points),
        "unreached": len(points) - int(ratios.size),
        "median_ratio": statistics.median(ratios.tolist()) if ratios.size else None,
        "p10_ratio": float(np.percentile(ratios, 10)) if ratios.size else None,
        "p90_ratio": float(np.percentile(ratios, 90)) if ratios.size else None,
        "within": within,
    }


BEST_METHOD = (
    "The best-engine layout search against the measured serving frontier over every engine: for each measured run "
    "that no run of its group beats (the same model, chip, weights, KV-cache format and ISL/OSL, any engine; "
    "MTP-free, on at most MAX_GPUS GPUs), the best deployment of the engines fitted on the chip's vendor at the run's "
    "interactivity within the run's GPU count, its tokens/s per GPU over the run's: what `frontier` answers by default, "
    "asked of the measurements."
).replace("MAX_GPUS", str(MAX_GPUS))


BUDGET_METHOD = (
    "The best-engine layout search within a budget of MAX_GPUS GPUs against the measured serving frontier over every "
    "engine and GPU count up to MAX_GPUS: for each run on it (as the best-engine check), the best deployment of the "
    "engines fitted on the chip's vendor at the run's interactivity using at most MAX_GPUS GPUs, whatever the run "
    "used: `frontier --max-gpus MAX_GPUS`'s answer against the best that was measured within the same budget."
).replace("MAX_GPUS", str(MAX_GPUS))


def _levels(points: Sequence[Point]) -> dict:
    """The bands below LOW_BELOW, from LOW_BELOW to HIGH_FROM and from HIGH_FROM tokens/s per user: ``low``, ``mid``,
    ``high``."""
    x = [p.interactivity_tok_s_per_user for p in points]
    return {
        "low": _band([p for p, v in zip(points, x, strict=True) if v < LOW_BELOW]),
        "mid": _band([p for p, v in zip(points, x, strict=True) if LOW_BELOW <= v < HIGH_FROM]),
        "high": _band([p for p, v in zip(points, x, strict=True) if v >= HIGH_FROM]),
    }


def rack_chip(hardware_id: str) -> bool:
    """Whether the chip's scale-up domain spans more than one NODE_GPUS-GPU node (an NVL72 rack's 72), by the
    catalog: the summaries' ``rack`` band; the others' runs are the ``scale_out`` band."""
    hw = load_hardware_catalog().get(hardware_id)
    return hw is not None and (hw.scale_up_domain_gpus or 0) > NODE_GPUS


def summary_key(best: bool, budget: bool = False) -> str:
    """data/disaggregated_check.json's key of the check's summary: per engine, best-engine (check's best), or
    best-engine within the budget (check's budget)."""
    return "frontier_budget" if budget else "frontier_best" if best else "frontier"


def summary(points: Sequence[Point], best: bool = False, budget: bool = False) -> dict:
    """What data/disaggregated_check.json's ``frontier`` (``frontier_best`` for check's best mode,
    ``frontier_budget`` for its budget) holds: the bands over every run, over the multi-node runs (more than NODE_GPUS
    GPUs), by interactivity (_levels), on rack-scale chips and on the others (rack_chip), per chip (overall and by
    interactivity), the weights and request lengths the runs cover, and every run."""
    method = BUDGET_METHOD if budget else BEST_METHOD if best else __doc__.split("\n\n")[0].replace("\n", " ")
    return {
        "method": method,
        "max_gpus": MAX_GPUS,
        "within": WITHIN,
        "node_gpus": NODE_GPUS,
        "high_from_tok_s_per_user": HIGH_FROM,
        "low_below_tok_s_per_user": LOW_BELOW,
        "models": sorted({p.model_id for p in points if p.model_id}),
        "all": _band(points),
        "multi_node": _band([p for p in points if p.gpus > NODE_GPUS]),
        **_levels(points),
        "rack": _band([p for p in points if rack_chip(p.hardware_id)]),
        "scale_out": _band([p for p in points if not rack_chip(p.hardware_id)]),
        "by_chip": {
            h: {"all": _band(own), **_levels(own)}
            for h in sorted({p.hardware_id for p in points})
            if (own := [p for p in points if p.hardware_id == h])
        },
        "covers": sorted({p.covers for p in points if p.covers}),
        "cells": {
            c: _band([p for p in points if cell(p.gpus, p.interactivity_tok_s_per_user) == c])
            for c in ("|".join((n, b)) for n in ("single_node", "multi_node") for b in ("below_high", "high"))
        },
        "points": [
            {
                "id": p.id,
                "hardware_id": p.hardware_id,
                "interactivity_tok_s_per_user": p.interactivity_tok_s_per_user,
                "gpus": p.gpus,
                "measured_tokens_per_s_per_gpu": p.measured_tokens_per_s_per_gpu,
                "model_tokens_per_s_per_gpu": p.model_tokens_per_s_per_gpu if math.isfinite(p.ratio) else None,
                "covers": p.covers,
            }
            for p in points
        ],
    }


TRANSFER_METHOD = (
    "The transfer check: runs of models the serving fit has not seen (data/serving_measurements.csv, `use` 'transfer "
    "check'), held out of every fit and check that sets the profiles, the pool correction and the trust bands. "
    "Single-node runs: the model's TPOT and output tokens/s per GPU at the run's concurrency, as for the fit rows. "
    "Frontier: the best-engine layout search at each frontier run's interactivity within its GPU count, as "
    "`frontier_best`."
)


def transfer_summary(
    rows: Sequence[ServingMeasurement], profiles: dict[str, EfficiencyProfile], pool: Callable[[str], PoolFit]
) -> dict:
    """What data/disaggregated_check.json's ``transfer`` holds: per model the single-node runs' model / measured TPOT
    and output tokens/s per GPU (medians, with the engine profile the run used, as of its date), and the best-engine
    frontier check over the transfer runs (summary's bands, and per model)."""
    single: dict[str, dict[str, list[float]]] = {}
    for r in rows:
        if r.transfer and r.scenario is not None and r.profile in profiles and not r.mtp:
            tpot_s, out_per_gpu = predict(r, profiles[r.profile])
            d = single.setdefault(r.model.id, {"tpot": [], "output": []})
            d["tpot"].append(tpot_s / r.tpot_s)
            if math.isfinite(r.output_tokens_per_s_per_gpu):
                d["output"].append(out_per_gpu / r.output_tokens_per_s_per_gpu)
    points = check(rows, profiles, pool, best=True, transfer=True)
    front = summary(points, best=True)
    front["method"] = TRANSFER_METHOD
    return {
        "method": TRANSFER_METHOD,
        "single_node": {
            m: {
                "runs": len(d["tpot"]),
                "median_tpot_ratio": statistics.median(d["tpot"]),
                "median_abs_tpot_error": statistics.median(abs(x - 1.0) for x in d["tpot"]),
                "median_output_ratio": statistics.median(d["output"]) if d["output"] else None,
            }
            for m, d in sorted(single.items())
        },
        "frontier": front,
        "frontier_by_model": {m: _band([p for p in points if p.model_id == m]) for m in front["models"]},
    }


def fitted_shape(model, fitted_ids: Sequence[str]) -> bool:
    """Whether `model` is, or has the architecture of, a model the check's runs are of (catalog ids `fitted_ids`):
    DeepSeek-V3 and V3.1 run as DeepSeek-R1 does, so R1's runs speak for them (catalog.architecture_twin)."""
    return architecture_twin(model.id, fitted_ids) in fitted_ids


def transfer_note(model, committed: dict) -> dict | None:
    """For a model the serving fit has not seen (no check run is of its architecture), what the trust range cannot
    say and the transfer check can, from data/disaggregated_check.json (`committed`): {'fitted_models': the models
    the ranges rest on, 'frontier': the transfer check's band over this model's frontier runs or None,
    'single_node': its single-node TPOT and output ratios or None}; None for a fitted model."""
    fitted = committed.get(summary_key(True), {}).get("models", [])
    if fitted_shape(model, fitted):
        return None
    transfer = committed.get("transfer", {})
    return {
        "fitted_models": fitted,
        "frontier": transfer.get("frontier_by_model", {}).get(model.id),
        "single_node": transfer.get("single_node", {}).get(model.id),
    }


def format_transfer(s: dict) -> str:
    """What calibrate prints of the transfer check."""
    lines = ["transfer check (models the serving fit has not seen; held out of every fit):"]
    for m, d in s["single_node"].items():
        out = f", output tokens/s per GPU {d['median_output_ratio']:.2f}" if d["median_output_ratio"] else ""
        lines.append(
            f"  {m}, {d['runs']} single-node runs: model / measured TPOT median {d['median_tpot_ratio']:.2f} "
            f"(|error| {d['median_abs_tpot_error']:.1%}){out}"
        )
    for m, b in s["frontier_by_model"].items():
        med = f"median {b['median_ratio']:.2f}" if b["median_ratio"] is not None else "none reached"
        lines.append(
            f"  {m}, {b['runs']} frontier runs: best-engine model / measured tokens/s per GPU {med}, "
            f"within +-{WITHIN:.0%}: {b['within']}, unreached {b['unreached']}"
        )
    return "\n".join(lines)


def format_summary(s: dict) -> str:
    """What calibrate prints."""

    def line(name: str, b: dict) -> str:
        if b["median_ratio"] is None:
            return f"  {name}: {b['runs']} runs, none reached"
        return (
            f"  {name}: {b['runs']} runs, model / measured tokens/s per GPU median {b['median_ratio']:.2f} "
            f"(10-90%: {b['p10_ratio']:.2f}-{b['p90_ratio']:.2f}), within +-{s['within']:.0%}: {b['within']}, "
            f"no layout reaches the interactivity: {b['unreached']}"
        )

    head = {
        BEST_METHOD: "the best-engine layout search at the interactivity of each run on a measured frontier over every "
        "engine, within the run's GPU count ",
        BUDGET_METHOD: f"the best-engine layout search within {s['max_gpus']} GPUs (`frontier --max-gpus "
        f"{s['max_gpus']}`) at the interactivity of each run on a measured frontier over every engine and GPU count ",
    }.get(s["method"], "the layout search at each measured frontier run's interactivity, within the run's GPU count ")
    return "\n".join(
        [
            head + f"(runs on at most {s['max_gpus']} GPUs):",
            line("all", s["all"]),
            line(f"multi-node (more than {s['node_gpus']} GPUs)", s["multi_node"]),
            line(f"below {s['low_below_tok_s_per_user']:g} tok/s per user", s["low"]),
            line(f"from {s['high_from_tok_s_per_user']:g} tok/s per user", s["high"]),
            line(f"rack-scale chips (a scale-up domain beyond {s['node_gpus']} GPUs)", s["rack"]),
            line("the other chips", s["scale_out"]),
        ]
    )
