"""Serving planner: the cheapest way to serve a model at a latency target, and what each optimisation lever buys.

Built on :func:`tpot_model.estimate` only. Every sweep is ONE vectorised estimate call: candidate batches along
axis 0, anything else (GPU counts, input/output mixes) along trailing axes. SI units: seconds, bytes, tokens, USD.

- :func:`frontier` -- for a TPOT target (and an optional TTFT target) the batch with the most tokens/s per GPU that
  meets the target(s) and fits in memory. Tokens/s per GPU = B / (TPOT(B) * N) never falls as B grows (every
  operator's time per sequence, max(a + b*B, c*B) / B, only shrinks), so that batch is the largest feasible one.
  ``limited_by`` says what stops the next batch: ``slo`` (it would miss a target), ``memory`` (it would not fit) or
  ``compute`` (the searched range ended with the step compute-bound: tokens/s per GPU has flattened);
  ``batch_limit`` when the range ended while still bandwidth-bound (raise ``max_batch``).
- :func:`tp_scaling` / :func:`pipeline_parallel` -- 1..N GPUs, tensor- or pipeline-parallel.
- :func:`speculative` / :func:`speculative_frontier` -- a draft model or MTP heads, draft length k, acceptance a.
- :func:`prefill_time_s`, :func:`capacity`, :func:`disaggregation` -- users at a target, prefix caching, the
  prefill : decode GPU ratio of disaggregated serving.
- :func:`levers` -- the usual optimisations applied to one scenario, side by side.

TTFT is the dashboard's everywhere (``Estimate.ttft_s``): the whole batch's prompts prefilled together, i.e. every
user arriving at once, the worst case. With staggered arrivals a single request sees less.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from .catalog import Hardware, ModelSpec
from .economics import priced_for, usd_per_1M_tokens
from .estimate import Estimate, estimate, kv_cache_peak_bytes_per_gpu, native_formats, weight_bytes_per_gpu
from .precision import native_fp4, parse_format
from .profiles import IDEAL, EfficiencyProfile
from .roofline import (
    ACTIVATION_BYTES,
    active_params,
    head_split_alternatives,
    kv_cache_bytes_per_sequence,
    link_bytes_per_s,
    scale_out_hop_s,
    scale_out_peak_bytes_per_s,
    scale_up_domain_gpus,
    time_operator,
    total_params,
)
from .scenario import Scenario
from .speculative import break_even_acceptance, expected_tokens_per_step, mtp_cost_fraction

MAX_BATCH_SEARCHED = 4096  # candidate batches 1..this (and never more than one past what fits in memory)
NODE_GPUS = 8  # GPUs in one server's NVLink-class domain, for most chips in the catalog
NODE_GPU_OPTIONS = (1, 2, 4, NODE_GPUS)  # tensor-parallel sizes inside one node
DOMAIN = "domain"  # gpu_options meaning: every power of two up to each chip's scale-up domain, and the domain itself


def domain_gpu_options(hw: Hardware, model: ModelSpec | None = None, parallelism: str = "tp") -> tuple[int, ...]:
    """GPU counts searched for one deployment of `hw`: 1, 2, 4 ... up to its scale-up domain (72 on GB200 / GB300
    NVL72, 8 on an HGX server), and the domain size itself; capped at MAX_DOMAIN_GPUS_SEARCHED for pod-scale TPUs.
    With a `model`: only the counts whose tensor split divides its attention heads, as engines require (TP72 of
    DeepSeek-R1's 128 heads had been drawn and searched as an even split)."""
    d = min(scale_up_domain_gpus(hw), MAX_DOMAIN_GPUS_SEARCHED)
    powers = [2**i for i in range(int(math.log2(d)) + 1)]
    counts = sorted(set(powers) | {d})
    return tuple(n for n in counts if model is None or not head_split_alternatives(model, n, parallelism))


MAX_DOMAIN_GPUS_SEARCHED = 256
TP_GPU_OPTIONS = (1, 2, 4, 8, 16, 32, 64)
PP_STAGE_OPTIONS = (1, 2, 4, 8)
# a prefill worker batches prompts up to a token budget per step (SGLang --max-prefill-tokens, vLLM
# max_num_batched_tokens) and at most MAX_PREFILL_BATCH prompts: here the budget under which the measured disaggregated
# runs' prefill pools are best fitted (leave one chip out 19 % against 28 % at 16,384; disaggregated.py), which the
# layout search's prefill pools and the Planner's disaggregation take too
PREFILL_TOKEN_BUDGET = 32768
MAX_PREFILL_BATCH = 64


# --------------------------------------------------------------------------------------------------- helpers


def _positive(name: str, value: float) -> float:
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if not (math.isfinite(x) and x > 0):
        raise ValueError(f"{name} must be a positive number, got {value!r}")
    return x


def _fraction(name: str, value: float, upper: float = 1.0) -> float:
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if not (math.isfinite(x) and 0.0 <= x <= upper):
        raise ValueError(f"{name} must be between 0 and {upper:g}, got {value!r}")
    return x


def _targets(tpot_target_s: float, ttft_target_s: float | None) -> tuple[float, float]:
    tpot = _positive("tpot_target_s", tpot_target_s)
    ttft = math.inf if ttft_target_s is None else _positive("ttft_target_s", ttft_target_s)
    return tpot, ttft


def _trailing_shape(s: Scenario) -> tuple[int, ...]:
    return np.broadcast_shapes(np.shape(s.context_tokens), np.shape(s.output_tokens), np.shape(s.num_gpus))


def _f(x) -> float:
    return float(np.asarray(x))


# --------------------------------------------------------------------------------------------------- frontier


@dataclass(frozen=True, eq=False)
class FrontierArrays:
    """The frontier over trailing axes (GPU counts, input/output mixes ...): one entry per column of the sweep."""

    feasible: np.ndarray  # bool: some batch meets the target(s) and fits
    batch: np.ndarray  # 0 where infeasible
    tpot_s: np.ndarray  # nan where infeasible (likewise below)
    ttft_s: np.ndarray
    tokens_per_s_per_gpu: np.ndarray
    tokens_per_s_total: np.ndarray
    usd_per_1M_tokens: np.ndarray
    memory_per_gpu_bytes: np.ndarray
    compute_bound: np.ndarray
    limited_by: np.ndarray  # 'slo' | 'memory' | 'compute' | 'batch_limit'
    slo_binding: np.ndarray  # 'tpot' | 'ttft' | '' : which target stops the next batch (or batch 1)
    max_batch_memory: np.ndarray  # most sequences that fit, whatever the TPOT
    batch1_tpot_s: np.ndarray  # TPOT at batch 1: the best latency this deployment can give
    batch1_ttft_s: np.ndarray  # TTFT at batch 1: the best this deployment can give
    num_gpus: np.ndarray


def _choose(
    batch: np.ndarray,
    tpot: np.ndarray,
    ttft: np.ndarray,
    fits: np.ndarray,
    tokens_per_s_total: np.ndarray,
    usd: np.ndarray,
    memory: np.ndarray,
    compute_bound: np.ndarray,
    num_gpus: np.ndarray,
    max_batch_memory: np.ndarray,
    tpot_target: float,
    ttft_target: float,
    capped: bool,
) -> FrontierArrays:
    """Pick, per trailing column, the feasible candidate with the most tokens/s per GPU (axis 0 = candidates)."""
    shape = np.broadcast_shapes(tpot.shape, ttft.shape, fits.shape, np.shape(num_gpus), np.shape(usd))
    tpot, ttft, fits, usd, memory, compute_bound = (
        np.broadcast_to(a, shape) for a in (tpot, ttft, fits, usd, memory, compute_bound)
    )
    per_gpu = np.broadcast_to(tokens_per_s_total / num_gpus, shape)
    batch = np.broadcast_to(batch.reshape((-1,) + (1,) * (len(shape) - 1)), shape)
    tpot_ok, ttft_ok = tpot <= tpot_target, ttft <= ttft_target
    ok = tpot_ok & ttft_ok & fits
    feasible = ok.any(axis=0)
    idx = np.argmax(np.where(ok, per_gpu, -np.inf), axis=0)  # first maximum: the smallest batch at the best rate
    last = shape[0] - 1
    nxt = np.minimum(idx + 1, last)

    def at(a: np.ndarray, i: np.ndarray) -> np.ndarray:
        return np.take_along_axis(a, i[None], axis=0)[0]

    zero = np.zeros_like(idx)
    cb = at(compute_bound, idx)
    end = idx == last
    next_slo = np.where(~at(tpot_ok, nxt), "tpot", np.where(~at(ttft_ok, nxt), "ttft", ""))
    first_slo = np.where(~at(tpot_ok, zero), "tpot", np.where(~at(ttft_ok, zero), "ttft", ""))
    # a feasible last candidate: the range ended (capped) or the grid's one-past-memory point still fit (rounding)
    at_end = np.where(cb, "compute", "batch_limit") if capped else np.full(idx.shape, "memory")
    limited = np.where(end, at_end, np.where(~at(fits, nxt), "memory", np.where(next_slo != "", "slo", "compute")))
    infeasible = np.where(~at(fits, zero), "memory", "slo")
    nan = np.full(idx.shape, np.nan)
    return FrontierArrays(
        feasible=feasible,
        batch=np.where(feasible, at(batch, idx), 0).astype(int),
        tpot_s=np.where(feasible, at(tpot, idx), nan),
        ttft_s=np.where(feasible, at(ttft, idx), nan),
        tokens_per_s_per_gpu=np.where(feasible, at(per_gpu, idx), nan),
        tokens_per_s_total=np.where(feasible, at(per_gpu, idx) * np.broadcast_to(num_gpus, shape)[0], nan),
        usd_per_1M_tokens=np.where(feasible, at(usd, idx), nan),
        memory_per_gpu_bytes=np.where(feasible, at(memory, idx), nan),
        compute_bound=np.where(feasible, cb, False),
        limited_by=np.where(feasible, limited, infeasible),
        slo_binding=np.where(
            feasible, np.where(limited == "slo", next_slo, ""), np.where(at(fits, zero), first_slo, "")
        ),
        max_batch_memory=np.broadcast_to(max_batch_memory, idx.shape).astype(float),
        batch1_tpot_s=tpot[0],
        batch1_ttft_s=ttft[0],
        num_gpus=np.broadcast_to(num_gpus, shape)[0].astype(int),
    )


def _batch_grid(model, hw, s: Scenario, profile, max_batch: int) -> tuple[np.ndarray, bool, Estimate]:
    """Candidate batches 1..min(max_batch, memory limit + 2), shaped for broadcasting against the trailing axes.

    The memory limit comes from a probe at batch 1 (cheap); the grid then covers every batch that can fit, plus one
    that does not, so that the frontier can say whether memory is what stops it."""
    probe = estimate(model, hw, replace(s, batch=1), profile)
    most = np.nanmax(np.asarray(probe.max_batch, dtype=float)) if np.size(probe.max_batch) else 0.0
    top = int(min(max(most, 0.0) + 2, max_batch))
    trailing = _trailing_shape(s)
    return np.arange(1, top + 1, dtype=float).reshape((-1,) + (1,) * len(trailing)), top == max_batch, probe


def _search(model, hw, scenario, profile, tpot_t, ttft_t, max_batch) -> tuple[FrontierArrays, np.ndarray, Estimate]:
    """One estimate call over every candidate batch, and the choice among them."""
    if int(max_batch) < 1:
        raise ValueError(f"max_batch must be at least 1, got {max_batch!r}")
    grid, capped, probe = _batch_grid(model, hw, scenario, profile, int(max_batch))
    est = estimate(model, hw, replace(scenario, batch=grid), profile)
    return (
        _choose(
            grid.ravel(),
            est.tpot_s,
            est.ttft_s,
            est.fits,
            est.tokens_per_s_total,
            est.usd_per_1M_tokens,
            est.memory_per_gpu_bytes,
            est.compute_bound,
            est.scenario.num_gpus,
            probe.max_batch,
            tpot_t,
            ttft_t,
            capped,
        ),
        grid,
        est,
    )


def frontier_arrays(
    model: ModelSpec,
    hw: Hardware,
    scenario: Scenario,
    profile: EfficiencyProfile = IDEAL,
    *,
    tpot_target_s: float,
    ttft_target_s: float | None = None,
    max_batch: int = MAX_BATCH_SEARCHED,
) -> FrontierArrays:
    """The frontier for every combination of the scenario's other array fields (e.g. num_gpus=[1, 2, 4, 8]).

    One estimate call over batch = 1..B (axis 0) x the scenario's trailing axes; scenario.batch is ignored."""
    tpot_t, ttft_t = _targets(tpot_target_s, ttft_target_s)
    return _search(model, hw, scenario, profile, tpot_t, ttft_t, max_batch)[0]


@dataclass(frozen=True, eq=False)
class FrontierPoint:
    """The best batch at a latency target for one deployment, and the throughput-latency curve it was picked from."""

    feasible: bool
    batch: int  # 0 when nothing meets the target and fits
    num_gpus: int
    tpot_s: float
    ttft_s: float
    tokens_per_s_per_gpu: float
    tokens_per_s_total: float
    usd_per_1M_tokens: float  # nan when the hardware has no price
    memory_per_gpu_bytes: float
    compute_bound: bool
    limited_by: str  # 'slo' | 'memory' | 'compute' | 'batch_limit'
    slo_binding: str  # 'tpot' | 'ttft' | ''
    max_batch_memory: int
    batch1_tpot_s: float
    batch1_ttft_s: float
    tpot_target_s: float
    ttft_target_s: float | None
    # the sweep behind the choice (for the throughput-latency chart)
    sweep_batch: np.ndarray
    sweep_tpot_s: np.ndarray
    sweep_tokens_per_s_per_gpu: np.ndarray
    sweep_fits: np.ndarray
    sweep_meets_target: np.ndarray

    @property
    def tokens_per_s_per_user(self) -> float:
        return 1.0 / self.tpot_s if self.feasible else math.nan


def _point(fa: FrontierArrays, tpot_t, ttft_t, batch, tpot, ttft, fits, per_gpu) -> FrontierPoint:
    return FrontierPoint(
        feasible=bool(fa.feasible),
        batch=int(fa.batch),
        num_gpus=int(fa.num_gpus),
        tpot_s=_f(fa.tpot_s),
        ttft_s=_f(fa.ttft_s),
        tokens_per_s_per_gpu=_f(fa.tokens_per_s_per_gpu),
        tokens_per_s_total=_f(fa.tokens_per_s_total),
        usd_per_1M_tokens=_f(fa.usd_per_1M_tokens),
        memory_per_gpu_bytes=_f(fa.memory_per_gpu_bytes),
        compute_bound=bool(fa.compute_bound),
        limited_by=str(fa.limited_by),
        slo_binding=str(fa.slo_binding),
        max_batch_memory=int(np.nan_to_num(_f(fa.max_batch_memory))),
        batch1_tpot_s=_f(fa.batch1_tpot_s),
        batch1_ttft_s=_f(fa.batch1_ttft_s),
        tpot_target_s=tpot_t,
        ttft_target_s=None if math.isinf(ttft_t) else ttft_t,
        sweep_batch=np.asarray(batch, dtype=float).ravel(),
        sweep_tpot_s=np.asarray(tpot).ravel(),
        sweep_tokens_per_s_per_gpu=np.asarray(per_gpu).ravel(),
        sweep_fits=np.asarray(fits).ravel(),
        sweep_meets_target=(np.asarray(tpot) <= tpot_t).ravel() & (np.asarray(ttft) <= ttft_t).ravel(),
    )


def _require_scalar(s: Scenario) -> None:
    if _trailing_shape(s) != ():
        raise ValueError("context_tokens, output_tokens and num_gpus must be single values here")


def frontier(
    model: ModelSpec,
    hw: Hardware,
    scenario: Scenario,
    profile: EfficiencyProfile = IDEAL,
    tpot_target_s: float = 0.05,
    ttft_target_s: float | None = None,
    max_batch: int = MAX_BATCH_SEARCHED,
) -> FrontierPoint:
    """The batch that maximises tokens/s per GPU while TPOT <= target (and TTFT <= its target) and it fits.

    One estimate call over batch = 1..B; ``estimate(..., batch=point.batch)`` reproduces every number."""
    _require_scalar(scenario)
    tpot_t, ttft_t = _targets(tpot_target_s, ttft_target_s)
    fa, grid, est = _search(model, hw, scenario, profile, tpot_t, ttft_t, max_batch)
    return _point(fa, tpot_t, ttft_t, grid, est.tpot_s, est.ttft_s, est.fits, est.tokens_per_s_per_gpu)


def cheapest(
    model: ModelSpec,
    hw: Hardware,
    scenario: Scenario,
    profile: EfficiencyProfile = IDEAL,
    tpot_target_s: float = 0.05,
    ttft_target_s: float | None = None,
    gpu_options: Sequence[int] | str = NODE_GPU_OPTIONS,
    max_batch: int = MAX_BATCH_SEARCHED,
    output_tokens_per_s: float | None = None,
) -> FrontierPoint:
    """The frontier at the GPU count (of gpu_options; DOMAIN: domain_gpu_options(hw), up to the chip's scale-up
    domain) with the most tokens/s per GPU, i.e. the lowest $/1M tokens; where none meets the targets, the count
    that holds the model with the fastest batch-1 TPOT (limited_by 'slo'), else 'memory' (no count holds it).
    output_tokens_per_s: a demand to serve with replicas of the count: the count whose replicas need the fewest GPUs
    in all (a demand one small replica serves does not take a larger one's GPUs), then the most tokens/s per GPU.

    Ties go to fewer GPUs. One estimate call over batch x GPU count; the sweep fields hold the chosen count's curve."""
    if isinstance(gpu_options, str):
        gpu_options = domain_gpu_options(hw, model, scenario.parallelism)
    gpus = np.asarray(sorted({int(g) for g in gpu_options}), dtype=float)
    if gpus.size == 0 or gpus[0] < 1:
        raise ValueError(f"gpu_options must be GPU counts >= 1, got {gpu_options!r}")
    s = replace(scenario, num_gpus=gpus)
    _require_scalar(replace(scenario, num_gpus=1))
    tpot_t, ttft_t = _targets(tpot_target_s, ttft_target_s)
    fa, grid, est = _search(model, hw, s, profile, tpot_t, ttft_t, max_batch)
    score = np.where(fa.feasible, fa.tokens_per_s_per_gpu, -np.inf)
    if output_tokens_per_s is not None and fa.feasible.any():  # fewest GPUs in all, then the most tokens/s per GPU
        rate = np.where(fa.feasible, fa.tokens_per_s_per_gpu, 1.0)
        total = gpus * np.maximum(1.0, np.ceil(output_tokens_per_s / (rate * gpus) - 1e-12))
        score = np.where(fa.feasible, score / (1.0 + score.max(where=fa.feasible, initial=0.0)) - total, -np.inf)
    # none meets the target: the count that holds the model with the fastest batch-1 TPOT, so that the point says a
    # target out of reach ('slo', and how near batch 1 comes), not 'memory' for one GPU that cannot hold it
    holds = np.asarray(fa.limited_by) != "memory"
    fastest = int(np.argmin(np.where(holds, fa.batch1_tpot_s, np.inf))) if holds.any() else 0
    j = int(np.argmax(score)) if fa.feasible.any() else fastest
    one = FrontierArrays(**{k: np.asarray(getattr(fa, k))[j] for k in FrontierArrays.__dataclass_fields__})
    col = np.s_[:, j]
    return _point(
        one,
        tpot_t,
        ttft_t,
        grid,
        est.tpot_s[col],
        est.ttft_s[col],
        np.broadcast_to(est.fits, est.tpot_s.shape)[col],
        est.tokens_per_s_per_gpu[col],
    )


TABLE_PRECISIONS = ("bf16", "fp8", "fp4")


def precision_format(precision: str, hw: Hardware) -> str:
    """The weight format behind a precision column: fp4 is the vendor's block format (precision.native_fp4: NVFP4,
    MXFP4 on AMD)."""
    return native_fp4(hw.vendor).name if precision == "fp4" else precision


@dataclass(frozen=True, eq=False)
class CostGrid:
    """The frontier for hardware (rows) x weight precision (columns) at one target."""

    hardware_ids: tuple[str, ...]
    precisions: tuple[str, ...]
    formats: tuple[tuple[str, ...], ...]  # the weight format of each cell
    cells: tuple[tuple[FrontierPoint, ...], ...]


def cost_grid(
    model: ModelSpec,
    hardware: Sequence[Hardware],
    scenario: Scenario,
    profile: EfficiencyProfile = IDEAL,
    *,
    tpot_target_s: float,
    ttft_target_s: float | None = None,
    precisions: Sequence[str] = TABLE_PRECISIONS,
    gpu_options: Sequence[int] | str | None = NODE_GPU_OPTIONS,
    price_applies_to: str | None = None,
) -> CostGrid:
    """$/1M tokens at the target for each hardware x weight precision: per cell one estimate call over batch (x GPU
    count). gpu_options: pick the cheapest count per cell (:func:`cheapest`; DOMAIN: each chip's counts up to its
    scale-up domain); None: the scenario's count. The
    scenario's own price applies only to the hardware ``price_applies_to`` (economics.priced_for)."""
    rows, fmts = [], []
    for hw in hardware:
        s_hw = priced_for(hw, scenario, price_applies_to)
        row, row_fmts = [], []
        for prec in precisions:
            name = precision_format(prec, hw)
            s = replace(s_hw, weights=parse_format(name))
            if gpu_options is None:
                row.append(frontier(model, hw, s, profile, tpot_target_s, ttft_target_s))
            else:
                row.append(cheapest(model, hw, s, profile, tpot_target_s, ttft_target_s, gpu_options))
            row_fmts.append(name)
        rows.append(tuple(row))
        fmts.append(tuple(row_fmts))
    return CostGrid(tuple(h.id for h in hardware), tuple(precisions), tuple(fmts), tuple(rows))


# --------------------------------------------------------------------------------------------------- GPU count


@dataclass(frozen=True, eq=False)
class TPScaling:
    """One scenario on 1..N tensor-parallel GPUs (arrays over num_gpus), and the frontier on each count."""

    num_gpus: np.ndarray
    tpot_s: np.ndarray
    breakdown_s: dict[str, np.ndarray]
    communication_fraction: np.ndarray  # communication time / TPOT
    tokens_per_s_total: np.ndarray
    tokens_per_s_per_gpu: np.ndarray
    usd_per_1M_tokens: np.ndarray
    memory_per_gpu_bytes: np.ndarray
    fits: np.ndarray
    ideal_tpot_s: np.ndarray  # TPOT if it fell as 1/N from the smallest count that fits (nan below it)
    scaling_efficiency: np.ndarray  # ideal / actual TPOT
    min_gpus_meeting_target: int | None  # smallest count whose TPOT at this batch meets the target and fits
    frontier: FrontierArrays | None  # best batch at the target on each count
    best_num_gpus: int | None  # the count with the most tokens/s per GPU at the target (the lowest $/1M)


def tp_scaling(
    model: ModelSpec,
    hw: Hardware,
    scenario: Scenario,
    profile: EfficiencyProfile = IDEAL,
    gpu_counts: Sequence[int] = TP_GPU_OPTIONS,
    tpot_target_s: float | None = None,
    ttft_target_s: float | None = None,
) -> TPScaling:
    """TPOT, throughput and cost at the scenario's batch for each tensor-parallel GPU count (one estimate call),
    plus the frontier per count at the target (one more). Communication: two all-reduces per layer (roofline)."""
    gpus = np.asarray(sorted({int(g) for g in gpu_counts}), dtype=float)
    if gpus.size == 0 or gpus[0] < 1:
        raise ValueError(f"gpu_counts must be GPU counts >= 1, got {gpu_counts!r}")
    s = replace(scenario, num_gpus=gpus)
    est = estimate(model, hw, s, profile)
    shape = np.broadcast_shapes(np.shape(est.tpot_s), gpus.shape)
    tpot = np.broadcast_to(est.tpot_s, shape)
    fits = np.broadcast_to(est.fits, shape)
    breakdown = {k: np.broadcast_to(v, shape) for k, v in est.breakdown_s.items()}
    ref = int(np.argmax(fits)) if fits.any() else 0
    ideal = np.where(gpus >= gpus[ref], tpot[ref] * gpus[ref] / gpus, np.nan)
    met = best = None
    fr = None
    if tpot_target_s is not None:
        tpot_t, _ = _targets(tpot_target_s, ttft_target_s)
        meets = fits & (tpot <= tpot_t)
        met = int(gpus[np.argmax(meets)]) if meets.any() else None
        fr = frontier_arrays(model, hw, s, profile, tpot_target_s=tpot_target_s, ttft_target_s=ttft_target_s)
        if fr.feasible.any():
            best = int(gpus[np.argmax(np.where(fr.feasible, fr.tokens_per_s_per_gpu, -np.inf))])
    return TPScaling(
        num_gpus=gpus.astype(int),
        tpot_s=tpot,
        breakdown_s=breakdown,
        communication_fraction=breakdown["communication"] / tpot,
        tokens_per_s_total=np.broadcast_to(est.tokens_per_s_total, shape),
        tokens_per_s_per_gpu=np.broadcast_to(est.tokens_per_s_per_gpu, shape),
        usd_per_1M_tokens=np.broadcast_to(est.usd_per_1M_tokens, shape),
        memory_per_gpu_bytes=np.broadcast_to(est.memory_per_gpu_bytes, shape),
        fits=fits,
        ideal_tpot_s=ideal,
        scaling_efficiency=ideal / tpot,
        min_gpus_meeting_target=met,
        frontier=fr,
        best_num_gpus=best,
    )


@dataclass(frozen=True, eq=False)
class PipelineParallel:
    """PP stages on top of a tensor-parallel group (arrays over the stage count)."""

    stages: np.ndarray
    tensor_parallel: int
    num_gpus: np.ndarray  # stages x tensor_parallel
    micro_batches: np.ndarray
    micro_batch: np.ndarray  # sequences per micro-batch
    tpot_s: np.ndarray
    transfer_s: np.ndarray  # inter-stage activation transfers in one token's trip through the pipeline
    bubble_fraction: np.ndarray  # share of GPU time a stage idles
    tokens_per_s_total: np.ndarray
    tokens_per_s_per_gpu: np.ndarray
    usd_per_1M_tokens: np.ndarray
    memory_per_gpu_bytes: np.ndarray  # on the busiest stage
    usable_memory_per_gpu_bytes: np.ndarray  # the fit gate's, the busiest stage's weights and workspace held
    fits: np.ndarray
    max_batch: np.ndarray  # most sequences that fit with this many stages


def pipeline_parallel(
    model: ModelSpec,
    hw: Hardware,
    scenario: Scenario,
    profile: EfficiencyProfile = IDEAL,
    stages: Sequence[int] = PP_STAGE_OPTIONS,
) -> PipelineParallel:
    """Pipeline parallelism over P stages, each a tensor-parallel group of scenario.num_gpus GPUs.

    Approximation (decode, steady state, the pipeline run as a ring):
    - the batch B is split into m = min(B, P) micro-batches of b = ceil(B / m) sequences, so every stage has work;
    - a token visits every stage in turn, so its time is the SUM of the stages: the whole model's step on one TP
      group at the micro-batch, T(b) (from estimate), stretched by the busiest stage's share of the layers,
      P * ceil(L / P) / L, plus P - 1 activation hops of b x d_model x 2 bytes over the link:
      TPOT_pp = T(b) * P * ceil(L/P) / L + (P - 1) * (latency + b * D * 2 / (TP * link));
      more stages only shrink the micro-batch and add hops (at batch 1 the per-token time only rises);
    - bubbles: a stage does m micro-batches x (its share of T(b)) of work per cycle of TPOT_pp; the rest is idle
      (B < P leaves stages empty; uneven layer split; transfers);
    - memory per GPU on the busiest stage: (weights / TP + KV of all B sequences / KV shards) x ceil(L/P) / L plus
      the micro-batch's workspace. Embedding and LM head are counted as spread evenly over the stages.
    """
    P = np.asarray(sorted({int(p) for p in stages}), dtype=float)
    if P.size == 0 or P[0] < 1:
        raise ValueError(f"stages must be counts >= 1, got {stages!r}")
    _require_scalar(scenario)
    if np.ndim(scenario.batch):
        raise ValueError("batch must be a single value here")
    B = float(scenario.batch)
    tp = float(scenario.num_gpus)
    m = np.minimum(B, P)
    b = np.ceil(B / m)
    # one call: the micro-batch of each stage count, then batches 1 and 2 for the workspace's per-sequence slope
    est = estimate(model, hw, replace(scenario, batch=np.concatenate([b, [1.0, 2.0]])), profile)
    n = P.size
    full = est.tpot_s[:n]  # T(b): the whole model on one TP group at the micro-batch
    ws1, ws2 = est.workspace_bytes_per_gpu[n], est.workspace_bytes_per_gpu[n + 1]
    ws_per_seq, ws0 = ws2 - ws1, 2 * ws1 - ws2
    share = np.ceil(model.num_layers / P) / model.num_layers  # the busiest stage's share of the layers
    # hops between stages in one scale-up domain go over its link; stage groups in different domains over the NICs
    message = b * model.d_model * ACTIVATION_BYTES / tp
    hop_in = profile.allreduce_latency_s + message / link_bytes_per_s(hw, profile)
    out_link = scale_out_peak_bytes_per_s(hw) * profile.interconnect_efficiency
    extra = scale_out_hop_s(hw)
    hop_out = profile.allreduce_latency_s + extra + message / out_link
    stages_per_domain = max(scale_up_domain_gpus(hw) // int(tp), 1)
    crossings = np.ceil(P / stages_per_domain) - 1
    transfer = (P - 1 - crossings) * hop_in + crossings * hop_out
    tpot = full * P * share + transfer
    bubble = np.clip(1.0 - (m * full / P) / tpot, 0.0, 1.0)
    gpus = P * tp
    total = B / tpot
    native = native_formats(scenario, hw)  # bare fp4: the chip's block format, as the estimate counts it
    per_seq_kv = kv_cache_peak_bytes_per_gpu(model, native, tp, batch=1)
    weights = weight_bytes_per_gpu(model, native, tp)
    gate = est.memory_gate
    held = weights * share + ws0 + b * ws_per_seq  # the busiest stage's weights and workspace
    memory = held + B * per_seq_kv * share
    usable = gate.bytes_for(held)
    # most sequences: h (weights share + ws0 + (B / P) ws_per_seq) + B kv share <= the gate's budget, B split P ways
    # (h: what a held byte takes from it, UsableMemory.fraction_of_held)
    h = gate.fraction_of_held
    max_b = np.maximum(
        np.floor((gate.budget_bytes - h * (weights * share + ws0)) / (per_seq_kv * share + h * ws_per_seq / P)), 0
    )
    return PipelineParallel(
        stages=P.astype(int),
        tensor_parallel=int(tp),
        num_gpus=gpus.astype(int),
        micro_batches=m.astype(int),
        micro_batch=b.astype(int),
        tpot_s=tpot,
        transfer_s=transfer,
        bubble_fraction=bubble,
        tokens_per_s_total=total,
        tokens_per_s_per_gpu=total / gpus,
        usd_per_1M_tokens=usd_per_1M_tokens(est.price_usd_per_gpu_hour, total / gpus),
        memory_per_gpu_bytes=memory,
        usable_memory_per_gpu_bytes=np.broadcast_to(usable, np.shape(memory)),
        fits=memory <= usable,
        max_batch=max_b,
    )


# --------------------------------------------------------------------------------------------------- speculative


def draft_candidates(model: ModelSpec, catalog: Mapping[str, ModelSpec]) -> list[ModelSpec]:
    """Catalog models that can draft for `model`: same family and vocabulary size (a shared tokenizer), fewer
    parameters in total and per token (a draft must be cheaper than the target's step); smallest first."""
    size, active = total_params(model), active_params(model)
    out = [
        m
        for m in catalog.values()
        if m.id != model.id
        and m.family == model.family
        and m.vocab_size == model.vocab_size
        and total_params(m) < size
        and active_params(m) < active
    ]
    return sorted(out, key=total_params)


def default_draft(model: ModelSpec, catalog: Mapping[str, ModelSpec]) -> ModelSpec | None:
    """The smallest model of the same family (llama-3.1-8b for llama-3.1-70b); None: use MTP heads instead."""
    c = draft_candidates(model, catalog)
    return c[0] if c else None


@dataclass(frozen=True, eq=False)
class Speculative:
    """Speculative decoding on the scenario's GPUs (arrays broadcast over batch, k and acceptance)."""

    draft_id: str  # a catalog model id, or 'mtp'
    k: np.ndarray
    acceptance: np.ndarray
    tokens_per_step: np.ndarray  # expected tokens per target (verify) step
    baseline_tpot_s: np.ndarray
    draft_step_s: np.ndarray  # one draft step (a draft-model decode step, or one MTP head)
    verify_step_s: np.ndarray  # one target step checking k + 1 tokens per sequence
    round_s: np.ndarray  # k draft steps + one verify step
    tpot_s: np.ndarray  # effective: round / tokens per step
    ttft_s: np.ndarray  # target prefill (+ the draft model's prefill)
    speedup: np.ndarray  # baseline TPOT / effective TPOT (> 1 pays)
    break_even_acceptance: np.ndarray  # acceptance at which it stops paying (nan: never pays at this k)
    tokens_per_s_total: np.ndarray
    tokens_per_s_per_gpu: np.ndarray
    usd_per_1M_tokens: np.ndarray
    memory_per_gpu_bytes: np.ndarray
    fits: np.ndarray


def _verify_step_s(model, hw, s: Scenario, profile, k: np.ndarray) -> tuple[np.ndarray, Estimate]:
    """One target step that checks k + 1 tokens per sequence.

    Approximation: the estimate at batch B x (k + 1) -- weights read once, FLOPs, all-reduces, MoE experts touched
    and activations for B(k+1) tokens -- but each sequence's KV cache (and linear-attention state) read ONCE, as a
    verify kernel does, not k + 1 times: every operator's KV bytes are scaled by 1 / (k + 1) and it is re-timed at
    the same rates."""
    verify = estimate(model, hw, replace(s, batch=s.batch * (k + 1)), profile)
    saved = 0.0
    for op in verify.decode.operators:
        if not np.any(op.kv_bytes):
            continue
        once = time_operator(op.work(kv_bytes=op.kv_bytes / (k + 1)), verify.rates)
        saved = saved + (op.time_s - once.time_s)
    return verify.tpot_s - saved, verify


def speculative(
    model: ModelSpec,
    hw: Hardware,
    scenario: Scenario,
    profile: EfficiencyProfile = IDEAL,
    *,
    k=4,
    acceptance=0.7,
    draft: ModelSpec | None = None,
    mtp_cost: float | None = None,
) -> Speculative:
    """Effective TPOT with speculative decoding: (k x draft step + verify step) / expected tokens per step.

    draft: a smaller model on the same GPUs (same TP, weight and KV formats, context); None = the model's draft head
    (its MTP modules, or a one-layer EAGLE-style head: roofline.draft_head_params, held beside the weights), each pass
    costing mtp_cost x the target's decode step (default :func:`mtp_cost_fraction`). Batch, k and acceptance
    broadcast."""
    k = np.asarray(k, dtype=float)
    a = np.asarray(acceptance, dtype=float)
    if np.any(k < 1) or np.any(k != np.floor(k)):
        raise ValueError(f"k must be whole numbers >= 1, got {k!r}")
    if np.any(~np.isfinite(a)) or np.any(a < 0) or np.any(a > 1):
        raise ValueError(f"acceptance must be between 0 and 1, got {acceptance!r}")
    # the draft head's weights and cache are held beside the model's (Scenario.draft_head): in the base's memory
    base = estimate(model, hw, replace(scenario, draft_head=True) if draft is None else scenario, profile)
    verify_s, verify = _verify_step_s(model, hw, scenario, profile, k)
    N = scenario.num_gpus
    if draft is None:
        c = mtp_cost_fraction(model) if mtp_cost is None else _fraction("mtp_cost", mtp_cost, 10.0)
        draft_s = c * base.tpot_s
        draft_ttft = 0.0
        draft_mem = 0.0
        draft_id = "mtp"
    else:
        d = estimate(draft, hw, scenario, profile)
        draft_s = d.tpot_s
        draft_ttft = d.ttft_s
        draft_mem = d.memory_per_gpu_bytes - d.workspace_bytes_per_gpu
        draft_id = draft.id
    E = expected_tokens_per_step(a, k)
    round_s = k * draft_s + verify_s
    tpot = round_s / E
    total = scenario.batch * E / round_s
    memory = (
        base.memory_per_gpu_bytes
        - base.workspace_bytes_per_gpu
        + np.maximum(verify.workspace_bytes_per_gpu, base.workspace_bytes_per_gpu)
        + draft_mem
    )
    shape = np.broadcast_shapes(np.shape(tpot), np.shape(memory))
    return Speculative(
        draft_id=draft_id,
        k=np.broadcast_to(k, shape),
        acceptance=np.broadcast_to(a, shape),
        tokens_per_step=np.broadcast_to(E, shape),
        baseline_tpot_s=np.broadcast_to(base.tpot_s, shape),
        draft_step_s=np.broadcast_to(draft_s, shape),
        verify_step_s=np.broadcast_to(verify_s, shape),
        round_s=np.broadcast_to(round_s, shape),
        tpot_s=np.broadcast_to(tpot, shape),
        ttft_s=np.broadcast_to(base.ttft_s + draft_ttft, shape),
        speedup=np.broadcast_to(base.tpot_s / tpot, shape),
        break_even_acceptance=np.broadcast_to(break_even_acceptance(round_s / base.tpot_s, k), shape),
        tokens_per_s_total=np.broadcast_to(total, shape),
        tokens_per_s_per_gpu=np.broadcast_to(total / N, shape),
        usd_per_1M_tokens=np.broadcast_to(usd_per_1M_tokens(base.price_usd_per_gpu_hour, total / N), shape),
        memory_per_gpu_bytes=np.broadcast_to(memory, shape),
        fits=np.broadcast_to(memory <= base.memory_gate.bytes_for(memory - base.kv_cache_peak_bytes_per_gpu), shape),
    )


def speculative_frontier(
    model: ModelSpec,
    hw: Hardware,
    scenario: Scenario,
    profile: EfficiencyProfile = IDEAL,
    *,
    tpot_target_s: float,
    ttft_target_s: float | None = None,
    k: int = 4,
    acceptance: float = 0.7,
    draft: ModelSpec | None = None,
    mtp_cost: float | None = None,
    max_batch: int = MAX_BATCH_SEARCHED,
) -> FrontierPoint:
    """The frontier with speculative decoding on: the batch with the most tokens/s per GPU whose effective TPOT
    meets the target and that fits (one speculative() call over the batch grid)."""
    _require_scalar(scenario)
    tpot_t, ttft_t = _targets(tpot_target_s, ttft_target_s)
    grid, capped, probe = _batch_grid(model, hw, scenario, profile, int(max_batch))
    sp = speculative(
        model, hw, replace(scenario, batch=grid.ravel()), profile, k=k, acceptance=acceptance, draft=draft,
        mtp_cost=mtp_cost,
    )  # fmt: skip
    base = estimate(model, hw, replace(scenario, batch=grid.ravel()), profile)
    fa = _choose(
        grid.ravel(),
        sp.tpot_s,
        sp.ttft_s,
        sp.fits,
        sp.tokens_per_s_total,
        sp.usd_per_1M_tokens,
        sp.memory_per_gpu_bytes,
        base.compute_bound,
        scenario.num_gpus,
        probe.max_batch,
        tpot_t,
        ttft_t,
        capped,
    )
    return _point(fa, tpot_t, ttft_t, grid, sp.tpot_s, sp.ttft_s, sp.fits, sp.tokens_per_s_per_gpu)


# --------------------------------------------------------------------------------------------------- capacity


def prefill_time_s(
    model: ModelSpec,
    hw: Hardware,
    scenario: Scenario,
    profile: EfficiencyProfile = IDEAL,
    prefix_hit_rate=0.0,
) -> np.ndarray:
    """Prefill time of the scenario's batch of prompts (context_tokens each) when a share h of every prompt is
    already in the prefix cache: only n = P - round(h P) new tokens go through the GEMMs (the estimate at
    context n), and their attention covers the cached prefix too: its FLOPs are scaled from n(n+1)/2 keys to
    [P(P+1) - c(c+1)] / 2 with c = P - n cached tokens. Broadcasts over batch, context and h."""
    h = np.asarray(prefix_hit_rate, dtype=float)
    if np.any(~np.isfinite(h)) or np.any(h < 0) or np.any(h > 1):
        raise ValueError(f"prefix_hit_rate must be between 0 and 1, got {prefix_hit_rate!r}")
    P = np.maximum(np.asarray(scenario.context_tokens, dtype=float), 1.0)
    n = np.maximum(P - np.round(h * P), 1.0)
    c = P - n
    est = estimate(model, hw, replace(scenario, context_tokens=n), profile)
    scale = (P * (P + 1) - c * (c + 1)) / (n * (n + 1))
    extra = 0.0
    for op in est.prefill.operators:
        if op.name == "attention":
            extra = time_operator(op.work(flops=op.flops * scale), est.rates).time_s - op.time_s
    return est.ttft_s + extra


@dataclass(frozen=True, eq=False)
class Capacity:
    """How many concurrent users one deployment (scenario.num_gpus GPUs) holds at a target."""

    users: int  # the frontier batch: users decoding at once within the target
    limited_by: str
    max_users_memory: int  # whatever the TPOT, as the scenario batches (continuous: a prefill chunk's workspace held)
    max_users_memory_static: int  # one static batch's (the frontier's basis)
    kv_bytes_per_user: float  # at context + output tokens, whole cache (all GPUs)
    kv_bytes_per_user_per_gpu: float
    hbm_left_after_weights_bytes: float  # per GPU: usable memory minus the weights' share
    prefill_s: float  # one prompt, no prefix cache
    prefill_cached_s: float  # one prompt at the prefix-cache hit rate
    prefix_hit_rate: float
    point: FrontierPoint


def capacity(
    model: ModelSpec,
    hw: Hardware,
    scenario: Scenario,
    profile: EfficiencyProfile = IDEAL,
    tpot_target_s: float = 0.05,
    ttft_target_s: float | None = None,
    prefix_hit_rate: float = 0.0,
) -> Capacity:
    """Concurrent users at the target (the frontier batch), the memory behind it, and one prompt's prefill time
    with and without a prefix-cache hit rate (cached KV memory is not shared here: conservative)."""
    h = _fraction("prefix_hit_rate", prefix_hit_rate)
    point = frontier(model, hw, scenario, profile, tpot_target_s, ttft_target_s)
    one = replace(scenario, batch=1)
    # one whole prompt's prefill, its cached share scaled (a continuous scenario's first chunk had scaled one 8K
    # chunk's attention alone)
    pre = prefill_time_s(model, hw, replace(one, batching="static"), profile, np.array([0.0, h]))
    est = estimate(model, hw, one, profile)
    per_user = _f(
        kv_cache_bytes_per_sequence(
            model,
            scenario.context_tokens + scenario.output_tokens,
            native_formats(scenario, hw).kv_cache.bytes_per_element,
        )
    )
    return Capacity(
        users=point.batch,
        limited_by=point.limited_by,
        max_users_memory=int(_f(est.max_batch)),
        max_users_memory_static=int(_f(estimate(model, hw, replace(one, batching="static"), profile).max_batch)),
        kv_bytes_per_user=per_user,
        kv_bytes_per_user_per_gpu=_f(est.kv_cache_peak_bytes_per_gpu),
        hbm_left_after_weights_bytes=est.usable_memory_per_gpu_bytes - _f(est.weight_bytes_per_gpu),
        prefill_s=_f(pre[0]),
        prefill_cached_s=_f(pre[1]),
        prefix_hit_rate=h,
        point=point,
    )


@dataclass(frozen=True, eq=False)
class Disaggregation:
    """Prefill and decode on separate GPU pools (arrays over input/output mixes); each pool has num_gpus per
    instance, same hardware and formats."""

    input_tokens: np.ndarray
    output_tokens: np.ndarray
    decode: FrontierArrays  # decode pool at the TPOT target
    prefill_batch: np.ndarray  # prompts per prefill step
    prefill_s: np.ndarray  # one prefill step
    prefill_gpu_s_per_request: np.ndarray
    decode_gpu_s_per_request: np.ndarray
    prefill_per_decode_gpu: np.ndarray  # prefill GPUs needed per decode GPU
    prefill_share: np.ndarray  # prefill GPUs / all GPUs


def disaggregation(
    model: ModelSpec,
    hw: Hardware,
    scenario: Scenario,
    profile: EfficiencyProfile = IDEAL,
    *,
    tpot_target_s: float,
    input_tokens,
    output_tokens,
    prefix_hit_rate: float = 0.0,
    ttft_target_s: float | None = None,
) -> Disaggregation:
    """The prefill : decode GPU ratio for input/output lengths (arrays broadcast: one column per mix).

    Decode pool: the frontier at the TPOT target with context = input, output = output tokens; a request holds a
    slot for max(output - 1, 1) steps -> decode GPU-s per request = N x TPOT x steps / batch. Prefill pool: prompts
    batched up to PREFILL_TOKEN_BUDGET tokens (the batch with the most prompts/s whose prefill meets the TTFT target), at
    the prefix-cache hit rate -> prefill GPU-s per request = N x prefill time / prompts. Ratio = their quotient."""
    h = _fraction("prefix_hit_rate", prefix_hit_rate)
    tpot_t, ttft_t = _targets(tpot_target_s, ttft_target_s)
    inp = np.asarray(input_tokens, dtype=float)
    out = np.asarray(output_tokens, dtype=float)
    inp, out = np.broadcast_arrays(inp, out)
    if np.any(inp < 0) or np.any(out < 1):
        raise ValueError("input_tokens must be >= 0 and output_tokens >= 1")
    N = float(np.asarray(scenario.num_gpus))
    s = replace(scenario, context_tokens=inp, output_tokens=out, num_gpus=N)
    dec = frontier_arrays(model, hw, s, profile, tpot_target_s=tpot_t, ttft_target_s=None)
    steps = np.maximum(out - 1, 1)
    decode_gpu_s = N * dec.tpot_s * steps / np.where(dec.batch > 0, dec.batch, np.nan)
    b = np.arange(1, MAX_PREFILL_BATCH + 1, dtype=float).reshape((-1,) + (1,) * inp.ndim)
    pre = prefill_time_s(model, hw, replace(s, batch=b), profile, h)
    allowed = ((b * inp <= PREFILL_TOKEN_BUDGET) | (b == 1)) & (pre <= ttft_t)
    rate = np.where(allowed, b / pre, -np.inf)
    j = np.argmax(rate, axis=0)
    ok = allowed.any(axis=0)
    pb = np.where(ok, b.ravel()[j], np.nan)
    ps = np.where(ok, np.take_along_axis(pre, j[None], 0)[0], np.nan)
    prefill_gpu_s = N * ps / pb
    ratio = prefill_gpu_s / decode_gpu_s
    return Disaggregation(
        input_tokens=inp.astype(int),
        output_tokens=out.astype(int),
        decode=dec,
        prefill_batch=pb,
        prefill_s=ps,
        prefill_gpu_s_per_request=prefill_gpu_s,
        decode_gpu_s_per_request=decode_gpu_s,
        prefill_per_decode_gpu=ratio,
        prefill_share=ratio / (1 + ratio),
    )


@dataclass(frozen=True, eq=False)
class DisaggregatedDeployment:
    """xPyD: x prefill instances of prefill_gpus_each GPUs and y decode instances of decode_gpus_each GPUs (same
    chip), each pool with its own layout; the KV cache of every prompt moved from prefill to decode over the link
    it uses. Throughput counts every GPU of both pools (InferenceX's tokens/s per GPU)."""

    prefill_instances: int
    prefill_gpus_each: int
    prefill_parallelism: str
    decode_instances: int
    decode_gpus_each: int
    decode_parallelism: str
    decode_batch: int  # sequences decoding at once per decode instance
    prefill_batch: int  # prompts per prefill step per prefill instance
    tpot_s: float  # from the decode pool
    prefill_s: float  # one prefill step of prefill_batch prompts
    kv_transfer_s: float  # one prompt's KV cache from its prefill instance to a decode instance
    ttft_s: float  # prefill step + KV transfer
    requests_per_s: float  # the deployment's: the slower pool sets it
    limited_by: str  # 'prefill' or 'decode': the pool that sets requests_per_s
    gpus_used: int
    tokens_per_s_per_gpu: float  # (input + output) tokens per second over every GPU of both pools
    output_tokens_per_s_per_gpu: float
    fits: bool  # both pools' weights + KV cache + workspace fit per GPU

    @property
    def tokens_per_s_per_user(self) -> float:
        return 1.0 / self.tpot_s


def disaggregated_deployment(
    model: ModelSpec,
    hw: Hardware,
    scenario: Scenario,
    profile: EfficiencyProfile = IDEAL,
    *,
    prefill_instances: int,
    prefill_gpus_each: int,
    decode_instances: int,
    decode_gpus_each: int,
    decode_batch: int,
    prefill_batch: int = 1,
    prefill_parallelism: str = "tp",
    decode_parallelism: str | None = None,
) -> DisaggregatedDeployment:
    """One xPyD deployment for prompts of scenario.context_tokens and scenario.output_tokens generated tokens.

    Decode instance: the estimate at decode_batch sequences (TPOT, its memory fit); it finishes
    decode_batch / (TPOT x output) requests per second. Prefill instance: the estimate's prefill of prefill_batch
    prompts (its TTFT); prefill_batch / prefill time requests per second. The KV cache of one prompt (its bytes
    at context_tokens) moves from the prefill instance's GPUs to the decode instance's: over the scale-up link when
    the whole deployment sits in one scale-up domain, else over the prefill GPUs' NICs (scale-out), spread over
    the prefill_gpus_each GPUs holding it. TTFT = prefill step + transfer. Requests per second = the slower pool's
    total; tokens/s per GPU = requests/s x (input + output) / (every GPU of both pools)."""
    counts = (prefill_instances, prefill_gpus_each, decode_instances, decode_gpus_each, decode_batch, prefill_batch)
    if any(int(c) < 1 for c in counts):
        raise ValueError("instance counts, GPUs per instance and batches must be >= 1")
    _require_scalar(replace(scenario, num_gpus=1))
    inp, out = _f(scenario.context_tokens), _f(scenario.output_tokens)
    dec_s = replace(
        scenario,
        batch=decode_batch,
        num_gpus=decode_gpus_each,
        parallelism=decode_parallelism or scenario.parallelism,
        batching="static",
    )
    pre_s = replace(
        scenario, batch=prefill_batch, num_gpus=prefill_gpus_each, parallelism=prefill_parallelism, batching="static"
    )
    dec = estimate(model, hw, dec_s, profile)
    pre = estimate(model, hw, replace(pre_s, output_tokens=1), profile)
    tpot, prefill_s = _f(dec.tpot_s), _f(pre.ttft_s)
    gpus = prefill_instances * prefill_gpus_each + decode_instances * decode_gpus_each
    kv_bytes = _f(kv_cache_bytes_per_sequence(model, inp, native_formats(scenario, hw).kv_cache.bytes_per_element))
    if gpus <= scale_up_domain_gpus(hw):
        link, extra = link_bytes_per_s(hw, profile), 0.0
    else:
        link = scale_out_peak_bytes_per_s(hw) * profile.interconnect_efficiency
        extra = scale_out_hop_s(hw)
    transfer = profile.allreduce_latency_s + extra + kv_bytes / (prefill_gpus_each * link)
    prefill_rate = prefill_instances * prefill_batch / prefill_s
    decode_rate = decode_instances * decode_batch / (tpot * out)
    rate = min(prefill_rate, decode_rate)
    return DisaggregatedDeployment(
        prefill_instances=int(prefill_instances),
        prefill_gpus_each=int(prefill_gpus_each),
        prefill_parallelism=prefill_parallelism,
        decode_instances=int(decode_instances),
        decode_gpus_each=int(decode_gpus_each),
        decode_parallelism=dec_s.parallelism,
        decode_batch=int(decode_batch),
        prefill_batch=int(prefill_batch),
        tpot_s=tpot,
        prefill_s=prefill_s,
        kv_transfer_s=transfer,
        ttft_s=prefill_s + transfer,
        requests_per_s=rate,
        limited_by="prefill" if prefill_rate < decode_rate else "decode",
        gpus_used=int(gpus),
        tokens_per_s_per_gpu=rate * (inp + out) / gpus,
        output_tokens_per_s_per_gpu=rate * out / gpus,
        fits=bool(np.all(dec.fits)) and bool(np.all(pre.fits)),
    )


# --------------------------------------------------------------------------------------------------- levers

LEVERS = ("weights_int4", "weights_fp4", "kv_fp8", "batch_x2", "speculative", "hardware_upgrade", "gpus_x2")


@dataclass(frozen=True)
class LeverRow:
    """One optimisation applied to the scenario: its numbers and the change against the baseline (fractions:
    -0.3 = 30 % lower). 'target_*' fields: the frontier at the TPOT target with the lever on (nan without one)."""

    lever: str  # 'baseline' or one of LEVERS
    detail: str  # what was changed, e.g. 'fp8 -> awq-int4', 'h200 -> b200', 'k=4, a=0.7, llama-3.1-8b'
    applicable: bool  # False: already in place, or no upgrade in the catalog
    fits: bool
    tpot_s: float
    tokens_per_s_total: float
    tokens_per_s_per_gpu: float
    usd_per_1M_tokens: float
    d_tpot: float
    d_tokens_per_s: float
    d_usd_per_1M: float
    target_feasible: bool = False
    target_batch: int = 0
    target_tpot_s: float = math.nan
    target_tokens_per_s_per_gpu: float = math.nan
    target_usd_per_1M_tokens: float = math.nan
    target_d_tokens_per_s_per_gpu: float = math.nan
    target_d_usd_per_1M: float = math.nan
    chips: tuple[str, ...] = ()  # the catalog ids `detail` names (hardware upgrade: from, to), for display names


def _rel(new: float, old: float) -> float:
    return new / old - 1.0 if old and math.isfinite(old) and math.isfinite(new) else math.nan


def levers(
    model: ModelSpec,
    hw: Hardware,
    scenario: Scenario,
    profile: EfficiencyProfile = IDEAL,
    *,
    tpot_target_s: float | None = None,
    ttft_target_s: float | None = None,
    k: int = 4,
    acceptance: float = 0.7,
    draft: ModelSpec | None = None,
    mtp_cost: float | None = None,
    hardware_catalog: Mapping[str, Hardware] | None = None,
    baseline: tuple[Estimate, FrontierPoint | None] | None = None,
) -> list[LeverRow]:
    """The baseline and each lever of LEVERS applied alone to the scenario (scalar), with the change it brings at
    the scenario's batch and, given a target, at the frontier. Weight levers: awq-int4 (W4A16) and nvfp4/mxfp4
    (W4A4 where the chip has FP4 units, else dequantised to bf16); KV: fp8; batch x 2; speculative decoding with
    the given draft / MTP, k and acceptance; the next hardware generation (catalog price, not the override);
    twice the GPUs. `baseline`: the scenario's estimate and frontier when the caller already has them."""
    _require_scalar(scenario)
    if np.ndim(scenario.batch):
        raise ValueError("batch must be a single value here")

    def values(e: Estimate) -> tuple[float, float, float, float, bool]:
        return _f(e.tpot_s), _f(e.tokens_per_s_total), _f(e.tokens_per_s_per_gpu), _f(e.usd_per_1M_tokens), bool(e.fits)

    def point_of(m_hw: Hardware, s: Scenario) -> tuple[float, float, float, float, bool]:
        return values(estimate(model, m_hw, s, profile))

    def front_of(m_hw: Hardware, s: Scenario) -> FrontierPoint | None:
        if tpot_target_s is None:
            return None
        return frontier(model, m_hw, s, profile, tpot_target_s, ttft_target_s)

    if baseline is not None:
        base, base_front = values(baseline[0]), baseline[1] if tpot_target_s is not None else None
    else:
        base, base_front = point_of(hw, scenario), front_of(hw, scenario)

    def row(lever, detail, applicable, vals, fr: FrontierPoint | None) -> LeverRow:
        tpot, total, per_gpu, usd, fits = vals
        extra = {}
        if fr is not None:
            extra = dict(
                target_feasible=fr.feasible,
                target_batch=fr.batch,
                target_tpot_s=fr.tpot_s,
                target_tokens_per_s_per_gpu=fr.tokens_per_s_per_gpu,
                target_usd_per_1M_tokens=fr.usd_per_1M_tokens,
                target_d_tokens_per_s_per_gpu=_rel(fr.tokens_per_s_per_gpu, base_front.tokens_per_s_per_gpu),
                target_d_usd_per_1M=_rel(fr.usd_per_1M_tokens, base_front.usd_per_1M_tokens),
            )
        return LeverRow(
            lever=lever,
            detail=detail,
            applicable=applicable,
            fits=fits,
            tpot_s=tpot,
            tokens_per_s_total=total,
            tokens_per_s_per_gpu=per_gpu,
            usd_per_1M_tokens=usd,
            d_tpot=_rel(tpot, base[0]),
            d_tokens_per_s=_rel(total, base[1]),
            d_usd_per_1M=_rel(usd, base[3]),
            **extra,
        )

    rows = [row("baseline", "", True, base, base_front)]

    def variant(lever: str, detail: str, applicable: bool, m_hw: Hardware, s: Scenario, at_target: bool = True):
        if not applicable:
            nan = (math.nan,) * 4 + (bool(base[4]),)
            rows.append(row(lever, detail, False, nan, None))
            return
        rows.append(row(lever, detail, True, point_of(m_hw, s), front_of(m_hw, s) if at_target else None))

    def change(old: str, new: str, applicable: bool) -> str:
        return f"{old} → {new}" if applicable else old  # already in place: what is, not 'fp8 → fp8'

    w, kv = scenario.weights, scenario.kv_cache
    four, lower_w, lower_kv = precision_format("fp4", hw), w.bits > 4.5, kv.bits > 8
    variant(
        "weights_int4",
        change(w.name, "awq-int4", lower_w),
        lower_w,
        hw,
        replace(scenario, weights=parse_format("awq-int4")),
    )
    variant("weights_fp4", change(w.name, four, lower_w), lower_w, hw, replace(scenario, weights=parse_format(four)))
    variant("kv_fp8", change(kv.name, "fp8", lower_kv), lower_kv, hw, replace(scenario, kv_cache=parse_format("fp8")))
    B = int(_f(scenario.batch))
    # at the target the frontier already picks the batch: this lever has no meaning there (target fields nan)
    variant("batch_x2", f"{B} → {2 * B}", True, hw, replace(scenario, batch=2 * B), at_target=False)

    sp = speculative(model, hw, scenario, profile, k=k, acceptance=acceptance, draft=draft, mtp_cost=mtp_cost)
    sp_vals = (_f(sp.tpot_s), _f(sp.tokens_per_s_total), _f(sp.tokens_per_s_per_gpu), _f(sp.usd_per_1M_tokens))
    sp_front = None
    if tpot_target_s is not None:
        sp_front = speculative_frontier(
            model, hw, scenario, profile, tpot_target_s=tpot_target_s, ttft_target_s=ttft_target_s, k=k,
            acceptance=acceptance, draft=draft, mtp_cost=mtp_cost,
        )  # fmt: skip
    label = f"k={int(k)}, a={float(acceptance):g}, {'MTP' if draft is None else draft.id}"
    rows.append(row("speculative", label, True, (*sp_vals, bool(sp.fits)), sp_front))

    up_id = hw.successor
    up = (hardware_catalog or {}).get(up_id) if up_id else None
    variant(
        "hardware_upgrade",
        f"{hw.id} → {up_id}" if up else hw.id,
        up is not None,
        up or hw,
        replace(scenario, price_usd_per_gpu_hour=None),
    )
    rows[-1] = replace(rows[-1], chips=(hw.id, up_id) if up else (hw.id,))
    N = int(_f(scenario.num_gpus))
    variant("gpus_x2", f"{N} → {2 * N}", True, hw, replace(scenario, num_gpus=2 * N))
    return rows
