"""The frontier over serving layouts: for a GPU budget and a latency target, the aggregated or disaggregated
deployment with the most tokens/s per GPU, and what it chose. SI units inside (seconds, bytes, tokens, USD).

Candidates (each only where its weights + KV cache + workspace fit per GPU in the engine's usable memory,
``Estimate.fits``: estimate.usable_memory = the memory nvidia-smi / rocm-smi reports x the profile's
usable_memory_fraction (vLLM's gpu_memory_utilization) - the engine's measured reservation, or for TensorRT-LLM that
fraction of what the weights and workspace leave free (engines.OF_FREE_MEMORY); the datasheet memory in place of the
reported one where none is published):

- **aggregated**: one instance of g GPUs (tp: tensor parallel; tp-ep: tensor-parallel attention, expert-parallel
  MoE; dp-ep: data-parallel attention, expert-parallel MoE), g = 1, 2, 4 ... up to the budget and the chip's
  scale-up domain size (expert-parallel ones up to AGGREGATED_EP_MAX_GPUS: wide EP is a disaggregated decode
  pool); collectives on the links they use (roofline). Continuous batching (serving.steady_state: prompts
  prefilled in chunks between decode steps, TPOT and TTFT of the steady state).
  Replicas fill the budget: floor(budget / g) instances, tokens/s per GPU unchanged. Pipeline parallel across
  nodes: a tensor-parallel group of one scale-up domain per stage, 2, 4 or 8 stages (planner.pipeline_parallel,
  static batch served back to back; TTFT = the whole model's prefill on one group), when the budget is wider
  than one domain.
- **disaggregated** (xPyD): x prefill instances of gp GPUs and y decode instances of gd GPUs, each pool with its
  own layout. Decode instance: decode steps only (static batch, cache at ISL + OSL/2 on average, peak at
  ISL + OSL); it finishes B / (TPOT x OSL) requests per second. Prefill instance: the batch of prompts (up to
  planner.PREFILL_TOKEN_BUDGET tokens) with the most prompts per second; its TTFT = prefill step + the KV cache moved to a decode
  instance over the link it uses (scale-up inside one domain, else the prefill GPUs' NICs). Requests/s = the
  slower pool's; tokens/s per GPU = requests/s x (ISL + OSL) / (x gp + y gd), every GPU of both pools.

For MoE models under an engine profile, every layout's decode step takes the pool correction fitted on the
measured disaggregated runs (pool_correction.PoolFit, fitted by disaggregated.py; alpha, a, b0, k, c in
data/disaggregated_check.json): the attention operator's time x alpha, the rest of the step x 1 + a b / (b + b0)
(b sequences per GPU), and a prefill step of P prompts over r attention ranks k x its time + P / r x c (c: each
attention rank's fixed time per prompt; r = 1 for tensor-parallel attention, the GPUs for data-parallel attention),
where the model's large-batch MoE decode and its prefill read fast (short prompts most) and its long-context MLA
attention slow; aggregated steady states take both (TPOT x the decode factor, TTFT x k + c, throughput
recomputed).

Engines: the search runs under one efficiency profile, or under several (engine_tables; best_engines: the engines
fitted to serving runs on the chip's vendor, the CLI's and the pages' default), choose then taking at each target the
engine whose best deployment has the most tokens/s per GPU (Deployment.engine), as a measured frontier is the fastest
engine at each point.

Tokens/s per GPU counts input + output tokens over every GPU of the deployment (InferenceX's tok/s/GPU);
``output_tokens_per_s_per_gpu`` the output tokens only. With MTP (``mtp_k``) each decode step drafts k tokens with
the model's own MTP module (speculative.py) and TPOT is the time per accepted token.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from .catalog import Hardware, ModelSpec
from .economics import price_for, usd_per_1M_tokens
from .engines import serving_engines
from .estimate import Estimate, estimate, held_bytes_per_gpu, native_formats, usable_memory
from .planner import MAX_PREFILL_BATCH, PREFILL_TOKEN_BUDGET, pipeline_parallel, speculative
from .pool_correction import NEUTRAL, PoolFit, pool_fit
from .profiles import IDEAL, EfficiencyProfile, load_profiles
from .roofline import (
    kv_cache_bytes_per_sequence,
    link_bytes_per_s,
    scale_out_hop_s,
    scale_out_peak_bytes_per_s,
    scale_up_domain_gpus,
)
from .scenario import Scenario
from .serving import output_tokens_per_s
from .serving import speculative as serving_speculative
from .speculative import MTP_ACCEPTANCE, require_mtp

SERVING_MODES = ("aggregated", "disaggregated", "best")
PIPELINE_STAGES = (2, 4, 8)
BATCH_STEPS_PER_DOUBLING = 16  # candidate concurrencies 2^(i/16), rounded down: <= 4.4 % apart
MAX_CONCURRENCY = 2**16  # per instance
MAX_BUDGET_GPUS = 1024
# Aggregated expert-parallel instances span at most one 8-GPU node: the widest aggregated EP recipe measured
# (InferenceX DEP8 / TEP8); wider EP runs as a disaggregated decode pool, as SGLang, TensorRT-LLM and vLLM deploy it
# (SGLang's PD-disaggregation guide: in an aggregated engine one DP-attention rank's prefill stalls the others' decode).
AGGREGATED_EP_MAX_GPUS = 8


def concurrency_grid(top: float = MAX_CONCURRENCY) -> np.ndarray:
    """Whole numbers 1 .. top, each within 2^(1/16) of the next (every whole number below 24)."""
    n = int(math.ceil(math.log2(top) * BATCH_STEPS_PER_DOUBLING)) + 1
    return np.unique(np.floor(2.0 ** (np.arange(n) / BATCH_STEPS_PER_DOUBLING)))


def gpu_options(hw: Hardware, max_gpus: int) -> tuple[int, ...]:
    """GPUs per instance: 1, 2, 4 ... up to the budget, and the scale-up domain size when it fits the budget."""
    powers = {2**i for i in range(int(math.log2(max_gpus)) + 1)}
    d = scale_up_domain_gpus(hw)
    return tuple(sorted(powers | ({d} if d <= max_gpus else set())))


def budget_no_fit(
    model: ModelSpec,
    hw: Hardware,
    scenario: Scenario,
    profile: EfficiencyProfile | Sequence[EfficiencyProfile],
    max_gpus: int,
) -> Estimate:
    """For a budget within which no layout holds the model: one request (batch 1) on the widest instance the search
    tries (gpu_options), TP/EP for an MoE model, under the engine searched whose memory holds it on the fewest GPUs
    (the search takes any engine that fits: Kimi K2 BF16 on Rubin fits 8 GPUs under TensorRT-LLM's memory, 16 under
    SGLang's). Its min_gpus is the smallest budget that holds the model, its precision_that_fits the lower precision
    that would within this one (what `frontier --max-gpus` and the rack-scale view say)."""
    widest = max(gpu_options(hw, max_gpus))
    tightest = replace(scenario, batch=1, num_gpus=widest, parallelism="tp-ep" if model.moe else "tp")
    engines = (profile,) if isinstance(profile, EfficiencyProfile) else tuple(profile)
    tried = [estimate(model, hw, tightest, p) for p in engines]
    return min(tried, key=lambda e: float(e.min_gpus) if e.min_gpus == e.min_gpus else math.inf)  # the first of ties


def parallelisms(model: ModelSpec) -> tuple[str, ...]:
    """Layouts that differ for this model: expert parallelism only for an MoE model."""
    return ("tp", "tp-ep", "dp-ep") if model.moe else ("tp",)


@dataclass(frozen=True)
class Pool:
    """Instances of one layout: `batch` = sequences decoding per instance (aggregated or decode pool) or prompts per
    prefill step (prefill pool)."""

    instances: int
    gpus_each: int
    parallelism: str  # 'tp' | 'tp-ep' | 'dp-ep' | 'tp-pp' (tensor parallel inside a stage, pipeline across)
    batch: int
    pipeline_stages: int = 1

    @property
    def gpus(self) -> int:
        return self.instances * self.gpus_each

    @property
    def layout_name(self) -> str:
        """One instance's layout by InferenceX's and the engines' own names: 'DEP8', 'TEP8', 'TP4', 'TP8xPP2'."""
        g = self.gpus_each
        return {
            "tp": f"TP{g}",
            "tp-ep": f"TEP{g}",
            "dp-ep": f"DEP{g}",
            "tp-pp": f"TP{g // self.pipeline_stages}xPP{self.pipeline_stages}",
        }[self.parallelism]

    @property
    def label(self) -> str:
        """e.g. '2 × DEP8', '1 × TP8xPP2': instances × the layout (layout_name)."""
        return f"{self.instances} × {self.layout_name}"

    def as_dict(self) -> dict:
        return {
            "instances": self.instances,
            "gpus_each": self.gpus_each,
            "gpus": self.gpus,
            "parallelism": self.parallelism,
            "pipeline_stages": self.pipeline_stages,
            "batch_per_instance": self.batch,
            "label": self.label,
            "name": self.layout_name,
        }


@dataclass(frozen=True)
class Candidate:
    """One layout tried (the best batch for it at the target): whether it fits at all, and its tokens/s per GPU."""

    serving: str  # 'aggregated' or 'decode' / 'prefill' (the pools of a disaggregated deployment)
    parallelism: str
    gpus_each: int
    fits: bool  # weights + KV cache of one sequence + workspace fit per GPU
    feasible: bool  # some batch fits and meets the target(s)
    batch: int  # 0 when infeasible
    max_batch_memory: int  # most sequences (or prompts) that fit, whatever the latency
    tokens_per_s_per_gpu: float  # aggregated: input + output; decode: output; prefill: prompt tokens (nan: none)
    limited_by: str  # 'slo' | 'memory' | 'compute' | 'batch_limit'


@dataclass(frozen=True, eq=False)
class Deployment:
    """The chosen deployment in a GPU budget at a latency target (feasible False: nothing meets it and fits)."""

    feasible: bool
    serving: str  # 'aggregated' | 'disaggregated' | '' (none)
    decode: Pool | None  # the aggregated instances, or the decode pool
    prefill: Pool | None  # disaggregated only
    max_gpus: int
    gpus_used: int
    tpot_s: float
    ttft_s: float
    tokens_per_s_per_gpu: float  # input + output tokens/s over every GPU used
    output_tokens_per_s_per_gpu: float
    usd_per_1M_tokens: float  # per 1M input + output tokens (InferenceX's $/M); nan without a price
    usd_per_1M_output_tokens: float
    limited_by: str  # what stops a bigger batch: 'slo' | 'memory' | 'compute' | 'batch_limit' | 'gpus' | 'recipes'
    rate_set_by: str  # disaggregated: 'prefill' or 'decode' pool sets the request rate; '' aggregated
    kv_transfer_s: float  # disaggregated: one prompt's KV cache to its decode instance (0 aggregated)
    tpot_target_s: float
    ttft_target_s: float | None
    mtp_k: int  # 0: no speculative decoding
    candidates: tuple[Candidate, ...]
    # limited_by 'slo': the lowest TPOT any layout that fits reaches within the budget (s; the search's interactivity
    # ceiling); nan otherwise
    fastest_tpot_s: float = math.nan
    engine: str = ""  # the efficiency profile id the deployment was timed under (the best engine's, see choose)

    @property
    def tokens_per_s_per_user(self) -> float:
        return 1.0 / self.tpot_s if self.feasible else math.nan

    @property
    def decode_sequences_per_gpu(self) -> float:
        """Sequences decoding per GPU of the decode pool (aggregated: the instances'), in flight at the rate the
        deployment serves (Little's law: output tokens/s x TPOT): a disaggregated decode pool's full batch where it
        sets the rate, fewer where the prefill pool does (the pool has room; `decode.batch` is what it can hold at
        the TPOT reported); nan when infeasible."""
        if not self.feasible:
            return math.nan
        if self.serving != "disaggregated":
            return self.decode.batch / self.decode.gpus_each
        in_flight = self.output_tokens_per_s_per_gpu * self.gpus_used * self.tpot_s
        return min(in_flight, self.decode.batch * self.decode.instances) / self.decode.gpus

    @property
    def label(self) -> str:
        """'2 × DEP8' (aggregated) or 'prefill 3 × DEP4 + decode 1 × DEP32' (disaggregated); '' when infeasible: the
        layout as the CLI (`layout.label`), capacity and every CSV write it."""
        return self._label("prefill {prefill} + decode {decode}")

    @property
    def short_label(self) -> str:
        """label without the pools' names, prefill → decode: '3 × DEP4 → 1 × DEP32' ('2 × DEP8' aggregated; '' when
        infeasible), for a table or hover whose heading says how to read the arrow."""
        return self._label("{prefill} → {decode}")

    def _label(self, disaggregated: str) -> str:
        """The pools' labels (Pool.label) in `disaggregated`'s pattern, or the aggregated instances' alone."""
        if not self.feasible:
            return ""
        if self.prefill is None:
            return self.decode.label
        return disaggregated.format(prefill=self.prefill.label, decode=self.decode.label)

    @property
    def unit(self) -> Deployment:
        """The smallest deployment with the same tokens/s per GPU, TPOT and TTFT, of which this one is copies: one
        aggregated instance, or the prefill and decode instance counts divided by their greatest common divisor (the
        search's replicas that fill the budget); what a fleet replicates."""
        if not self.feasible:
            return self
        k = self.decode.instances if self.prefill is None else math.gcd(self.decode.instances, self.prefill.instances)
        if k == 1:
            return self
        decode = replace(self.decode, instances=self.decode.instances // k)
        prefill = None if self.prefill is None else replace(self.prefill, instances=self.prefill.instances // k)
        return replace(self, decode=decode, prefill=prefill, gpus_used=self.gpus_used // k)

    def candidate(self, serving: str, parallelism: str, gpus_each: int) -> Candidate | None:
        for c in self.candidates:
            if (c.serving, c.parallelism, c.gpus_each) == (serving, parallelism, gpus_each):
                return c
        return None


# --------------------------------------------------------------------------------------------------- tables


@dataclass(frozen=True, eq=False)
class CandidateTable:
    """Per layout (axis 1: GPUs per instance) and batch (axis 0): TPOT, TTFT, a rate per GPU and the memory fit."""

    serving: str
    parallelism: str
    gpus: np.ndarray  # (G,)
    batch: np.ndarray  # (Bn,)
    tpot_s: np.ndarray  # (Bn, G)
    ttft_s: np.ndarray
    rate_per_gpu: np.ndarray  # tokens/s per GPU (aggregated: in + out; decode: requests/s; prefill: prompts/s)
    output_per_gpu: np.ndarray
    fits: np.ndarray
    max_batch: np.ndarray  # (G,)
    compute_bound: np.ndarray
    stages: int = 1


def correction(model: ModelSpec, profile: EfficiencyProfile, fit: PoolFit | None = None) -> PoolFit:
    """The pool correction for this model and profile: `fit` (default: the committed one, the engine's own decode
    terms where it has them) for an MoE model under an engine profile, else NEUTRAL (dense models and the ideal
    bound: no data, no correction)."""
    if model.moe is None or profile.is_ideal:
        return NEUTRAL
    return pool_fit(profile.id) if fit is None else fit


def plain_step_factor(model: ModelSpec, hw: Hardware, s: Scenario, profile: EfficiencyProfile) -> float:
    """What the layout search's pool correction makes of the decode step the plain model times for scenario `s`
    (Overview, the Planner's served row, the Serving frontier's curves): decode_factor at its sequences per GPU and
    its attention share; 1 where no correction applies (dense models, the ideal bound)."""
    fix = correction(model, profile)
    if fix is NEUTRAL:
        return 1.0
    est = estimate(model, hw, s, profile)
    return float(fix.decode_factor(s.batch / s.num_gpus, est.decode.share("attention")))


def _aggregated_table(
    model, hw, s: Scenario, profile, par: str, gpus: np.ndarray, k: int, a: float, fix: PoolFit
) -> CandidateTable:
    grid = concurrency_grid()
    sc = replace(
        s, batch=grid[:, None], num_gpus=gpus[None, :], parallelism=par, batching="continuous", draft_head=k > 0
    )
    est = estimate(model, hw, sc, profile)
    shape = (grid.size, gpus.size)
    if k:
        sp = serving_speculative(model, hw, est.scenario, profile, k=k, acceptance=a)
        tpot, ttft, total, out = sp.tpot_s, sp.ttft_s, sp.total_tokens_per_s_per_gpu, sp.output_tokens_per_s_per_gpu
    else:
        tpot, ttft = est.tpot_s, est.ttft_s
        total, out = est.total_tokens_per_s_per_gpu, est.output_tokens_per_s_per_gpu
    if fix is not NEUTRAL:
        tpot = tpot * fix.decode_factor(grid[:, None] / gpus[None, :], est.decode.share("attention"))
        ttft = fix.prefill_time_s(ttft, 1)
        osl = float(s.output_tokens)
        out = output_tokens_per_s(grid[:, None], osl, ttft, tpot) / gpus[None, :]
        total = out * (float(s.context_tokens) + osl) / osl
    b = lambda x: np.broadcast_to(x, shape)  # noqa: E731
    return CandidateTable(
        "aggregated", par, gpus, grid, b(tpot), b(ttft), b(total), b(out), b(est.fits),
        np.broadcast_to(est.max_batch, shape)[0], b(est.compute_bound),
    )  # fmt: skip


def _pipeline_tables(model, hw, s: Scenario, profile, max_gpus: int, fix: PoolFit) -> list[CandidateTable]:
    """TP over one scale-up domain per stage, PIPELINE_STAGES stages that fit the budget (static batch)."""
    tp = min(scale_up_domain_gpus(hw), max_gpus)
    stages = [p for p in PIPELINE_STAGES if p * tp <= max_gpus]
    if not stages or tp * 2 > max_gpus:
        return []
    grid = concurrency_grid(4096)[::8]  # 2^(1/2) steps: one pipeline_parallel call per batch, every stage count
    prefill = estimate(model, hw, replace(s, batch=grid, num_gpus=tp, output_tokens=1), profile).ttft_s
    prefill = fix.prefill_time_s(prefill, grid)
    share = 0.0  # attention's share of a stage's decode step: the TP group's whole-model step's
    if fix is not NEUTRAL:
        group = estimate(model, hw, replace(s, batch=grid, num_gpus=tp, batching="static"), profile)
        share = group.decode.share("attention")[:, None]
    isl, osl = float(s.context_tokens), float(s.output_tokens)
    runs = [pipeline_parallel(model, hw, replace(s, batch=B, num_gpus=tp), profile, stages=stages) for B in grid]
    out = []
    for j, P in enumerate(stages):
        gpus = P * tp
        tpot = np.array([float(r.tpot_s[j]) for r in runs])[:, None] * fix.decode_factor(grid[:, None] / gpus, share)
        fits = np.array([bool(r.fits[j]) for r in runs])[:, None]
        output = output_tokens_per_s(grid[:, None], osl, prefill[:, None], tpot) / gpus
        out.append(
            CandidateTable(
                "aggregated",
                "tp-pp",
                np.asarray([gpus]),
                grid,
                tpot,
                prefill[:, None],
                output * (isl + osl) / osl,
                output,
                fits,
                np.asarray([float(runs[-1].max_batch[j])]),
                np.zeros_like(tpot, bool),
                stages=P,
            )  # fmt: skip
        )
    return out


def _decode_table(
    model, hw, s: Scenario, profile, par: str, gpus: np.ndarray, k: int, a: float, fix: PoolFit,
    grid: np.ndarray | None = None,
) -> CandidateTable:  # fmt: skip
    """Decode steps only, the cache at ISL + OSL/2 on average (peak ISL + OSL): rate = requests/s per GPU; `grid`:
    the batches (default concurrency_grid())."""
    grid = concurrency_grid() if grid is None else np.asarray(grid, dtype=float)
    osl = float(s.output_tokens)
    half = math.floor(osl / 2)
    sc = replace(
        s,
        batch=grid[:, None],
        num_gpus=gpus[None, :],
        parallelism=par,
        batching="static",
        context_tokens=float(s.context_tokens) + half,
        output_tokens=osl - half,
        draft_head=k > 0,
    )
    shape = (grid.size, gpus.size)
    est = estimate(model, hw, sc, profile)
    if k:
        sp = speculative(model, hw, sc, profile, k=k, acceptance=a)
        tpot, fits = sp.tpot_s, sp.fits
    else:
        tpot, fits = est.tpot_s, est.fits
    tpot = np.broadcast_to(tpot, shape) * fix.decode_factor(
        grid[:, None] / gpus[None, :], est.decode.share("attention")
    )
    requests = grid[:, None] / (tpot * osl) / gpus[None, :]
    return CandidateTable(
        "decode", par, gpus, grid, tpot, np.zeros(shape), requests, requests * osl, np.broadcast_to(fits, shape),
        np.broadcast_to(est.max_batch, shape)[0], np.broadcast_to(est.compute_bound, shape),
    )  # fmt: skip


def _prefill_table(
    model, hw, s: Scenario, profile, par: str, gpus: np.ndarray, fix: PoolFit, grid: np.ndarray | None = None
) -> CandidateTable:
    """Prompts per prefill step (`grid`; default 1..64 within the token budget): rate = prompts/s per GPU."""
    isl = max(float(s.context_tokens), 1.0)
    if grid is None:
        grid = np.arange(1, MAX_PREFILL_BATCH + 1, dtype=float)
        grid = grid[(grid * isl <= PREFILL_TOKEN_BUDGET) | (grid == 1)]
    grid = np.asarray(grid, dtype=float)
    sc = replace(s, batch=grid[:, None], num_gpus=gpus[None, :], parallelism=par, batching="static", output_tokens=1)
    est = estimate(model, hw, sc, profile)
    shape = (grid.size, gpus.size)
    ranks = gpus[None, :] if par == "dp-ep" else 1.0  # attention ranks: each takes its share of the prompts
    pre = np.broadcast_to(fix.prefill_time_s(est.ttft_s, grid[:, None] / ranks), shape)
    prompts = grid[:, None] / pre / gpus[None, :]
    return CandidateTable(
        "prefill", par, gpus, grid, np.zeros(shape), pre, prompts, np.zeros(shape), np.broadcast_to(est.fits, shape),
        np.broadcast_to(est.max_batch, shape)[0], np.zeros(shape, bool),
    )  # fmt: skip


@dataclass(frozen=True)
class WorkerRate:
    """One worker's phase throughput as the layout search times it: tokens/s per GPU (output for a decode worker,
    input for a prefill worker), at `batch` (sequences decoding, or prompts per prefill step, over the worker), and
    whether that fits in memory."""

    tokens_per_s_per_gpu: float
    batch: float
    fits: bool


def worker_rate(
    model: ModelSpec, hw: Hardware, s: Scenario, profile: EfficiencyProfile, *, phase: str, parallelism: str,
    gpus: int, batch: float | None = None,
) -> WorkerRate:  # fmt: skip
    """A decode or prefill worker of `gpus` GPUs run flat out, timed as the layout search times its pools (with the
    pool correction, `correction`): phase 'decode', `batch` sequences decoding over the worker (None: as many as fit,
    its memory-filling batch) with the cache at s.context_tokens + s.output_tokens / 2; phase 'prefill', `batch`
    prompts of s.context_tokens tokens per step over the worker (None: what the search's token budget allows)."""
    fix, g = correction(model, profile), np.array([gpus])
    if phase == "decode":
        full = _decode_table(model, hw, s, profile, parallelism, g, 0, 0.0, fix, grid=np.array([1.0]))
        b = float(full.max_batch[0]) if batch is None else float(batch)
        t = _decode_table(model, hw, s, profile, parallelism, g, 0, 0.0, fix, grid=np.array([max(b, 1.0)]))
        return WorkerRate(float(t.output_per_gpu[0, 0]), b, bool(t.fits[0, 0]) and b >= 1)
    if phase != "prefill":
        raise ValueError(f"phase must be 'decode' or 'prefill', got {phase!r}")
    t = _prefill_table(model, hw, s, profile, parallelism, g, fix, grid=None if batch is None else np.array([batch]))
    i = int(np.argmax(np.where(t.fits[:, 0], t.rate_per_gpu[:, 0], -1.0)))  # the best that fits, if any does
    return WorkerRate(float(t.rate_per_gpu[i, 0]) * float(s.context_tokens), float(t.batch[i]), bool(t.fits[i, 0]))


@dataclass(frozen=True, eq=False)
class LayoutTables:
    """Every candidate layout's numbers over its batches, independent of the latency target (computed once, then
    :func:`choose` picks at any target)."""

    model: ModelSpec
    hardware: Hardware
    scenario: Scenario
    profile: EfficiencyProfile
    max_gpus: int
    serving: str
    mtp_k: int
    mtp_acceptance: float
    aggregated: tuple[CandidateTable, ...]
    decode: tuple[CandidateTable, ...]
    prefill: tuple[CandidateTable, ...]
    usd_per_gpu_hour: float = math.nan  # the scenario's price (its basis, or the user's own); nan: none


def layout_tables(
    model: ModelSpec,
    hw: Hardware,
    scenario: Scenario,
    profile: EfficiencyProfile = IDEAL,
    *,
    max_gpus: int,
    serving: str = "best",
    mtp_k: int | None = None,
    mtp_acceptance: float = MTP_ACCEPTANCE,
    pool: PoolFit | None = None,
) -> LayoutTables:
    """The candidate tables for a GPU budget (scenario: ISL = context_tokens, OSL = output_tokens, formats, price
    basis; its batch, num_gpus, parallelism and batching are the search's); pool: the pool correction (default the
    committed one, see correction)."""
    if serving not in SERVING_MODES:
        raise ValueError(f"serving must be one of {', '.join(SERVING_MODES)}, got {serving!r}")
    if not (1 <= int(max_gpus) <= MAX_BUDGET_GPUS) or int(max_gpus) != max_gpus:
        raise ValueError(f"max_gpus must be a whole number from 1 to {MAX_BUDGET_GPUS}, got {max_gpus!r}")
    if np.ndim(scenario.context_tokens) or np.ndim(scenario.output_tokens):
        raise ValueError("context_tokens and output_tokens must be single values here")
    if mtp_k is not None and (int(mtp_k) != mtp_k or mtp_k < 0):
        raise ValueError(f"mtp_k must be a whole number >= 0, got {mtp_k!r}")
    if not (math.isfinite(mtp_acceptance) and 0 <= mtp_acceptance <= 1):
        raise ValueError(f"mtp_acceptance must be between 0 and 1, got {mtp_acceptance!r}")
    max_gpus, k = int(max_gpus), int(mtp_k or 0)
    if k:
        require_mtp(model)
    fix = correction(model, profile, pool)
    gpus = np.asarray(gpu_options(hw, max_gpus), dtype=float)
    pars = parallelisms(model)
    agg, dec, pre = [], [], []
    if serving in ("aggregated", "best"):
        agg = [
            _aggregated_table(
                model,
                hw,
                scenario,
                profile,
                p,
                gpus if p == "tp" else gpus[gpus <= AGGREGATED_EP_MAX_GPUS],
                k,
                mtp_acceptance,
                fix,
            )
            for p in pars
        ]
        if not k:
            agg += _pipeline_tables(model, hw, scenario, profile, max_gpus, fix)
    if serving in ("disaggregated", "best") and max_gpus >= 2:
        g_dec = gpus[gpus < max_gpus]
        g_pre = gpus[(gpus < max_gpus) & (gpus <= scale_up_domain_gpus(hw))]
        dec = [_decode_table(model, hw, scenario, profile, p, g_dec, k, mtp_acceptance, fix) for p in pars]
        pre = [_prefill_table(model, hw, scenario, profile, p, g_pre, fix) for p in pars]
    price = price_for(hw, scenario).usd_per_gpu_hour
    return LayoutTables(
        model, hw, scenario, profile, max_gpus, serving, k, float(mtp_acceptance), tuple(agg), tuple(dec), tuple(pre),
        price,
    )  # fmt: skip


def within_budget(tables: LayoutTables, max_gpus: int) -> LayoutTables:
    """The tables layout_tables builds for a smaller budget, cut from these (each smaller budget's instances are a
    subset of a larger's: aggregated and pipeline instances up to max_gpus GPUs, decode and prefill instances below
    it); a table left with no instance is dropped. What a search over several budgets builds once."""
    if not 1 <= int(max_gpus) <= tables.max_gpus:
        raise ValueError(f"max_gpus must be from 1 to the tables' {tables.max_gpus}, got {max_gpus!r}")
    b = int(max_gpus)

    options = np.asarray(gpu_options(tables.hardware, b), dtype=float)

    def cut(ts: tuple[CandidateTable, ...], below: bool) -> tuple[CandidateTable, ...]:
        out = []
        for t in ts:
            # an instance size within b (the domain's size is one only there); a pipeline: its stages x the domain
            j = (t.gpus <= b) if t.stages > 1 else np.isin(t.gpus, options) & ((t.gpus < b) if below else True)
            if j.all():
                out.append(t)
            elif j.any():
                out.append(replace(
                    t, gpus=t.gpus[j], tpot_s=t.tpot_s[:, j], ttft_s=t.ttft_s[:, j], rate_per_gpu=t.rate_per_gpu[:, j],
                    output_per_gpu=t.output_per_gpu[:, j], fits=t.fits[:, j], max_batch=t.max_batch[j],
                    compute_bound=t.compute_bound[:, j]))  # fmt: skip
        return tuple(out)

    return replace(
        tables,
        max_gpus=b,
        aggregated=cut(tables.aggregated, below=False),
        decode=cut(tables.decode, below=True) if b >= 2 else (),
        prefill=cut(tables.prefill, below=True) if b >= 2 else (),
    )


# --------------------------------------------------------------------------------------------------- choice


def _best_in(t: CandidateTable, ok: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per layout column: (index of the batch with the most rate per GPU among ok, any ok)."""
    score = np.where(ok, t.rate_per_gpu, -np.inf)
    return np.argmax(score, axis=0), ok.any(axis=0)


def _limit(t: CandidateTable, i: int, j: int, ok: np.ndarray) -> str:
    """What stops the next batch of column j after batch index i."""
    if i + 1 >= t.batch.size:
        return "compute" if t.compute_bound[i, j] else "batch_limit"
    if not t.fits[i + 1, j]:
        return "memory"
    return "slo" if not ok[i + 1, j] else "compute"


def _candidates(t: CandidateTable, ok: np.ndarray) -> list[Candidate]:
    idx, any_ok = _best_in(t, ok)
    out = []
    for j, g in enumerate(t.gpus):
        i = int(idx[j])
        feas = bool(any_ok[j])
        out.append(
            Candidate(
                serving=t.serving,
                parallelism=t.parallelism,
                gpus_each=int(g),
                fits=bool(t.fits[0, j]),
                feasible=feas,
                batch=int(t.batch[i]) if feas else 0,
                max_batch_memory=int(max(np.nan_to_num(t.max_batch[j]), 0)),
                tokens_per_s_per_gpu=float(t.rate_per_gpu[i, j]) if feas else math.nan,
                limited_by=_limit(t, i, j, ok) if feas else ("memory" if not t.fits[0, j] else "slo"),
            )
        )
    return out


def recipe_key(parallelism: str, gpus_each: int, hw: Hardware) -> tuple[str, int, bool]:
    """A decode worker's recipe as the measured runs are grouped (disaggregated.decode_reach): its layout, its GPUs
    and whether it spans scale-up domains (DEP32 inside one NVL72 domain is not the same recipe as DEP32 over four
    HGX nodes)."""
    return parallelism, int(gpus_each), int(gpus_each) > scale_up_domain_gpus(hw)


def _within_recipes(t: CandidateTable, recipes: Mapping[tuple[str, int, bool], float] | None, hw: Hardware):
    """Which (batch, GPUs) cells of a decode table hold at most the sequences per GPU a measured run of the model
    decoded with the same worker recipe (`recipes`: recipe_key -> sequences per GPU, disaggregated.model_recipes; a
    recipe no run used: none); True everywhere without `recipes`."""
    if recipes is None:
        return True
    most = np.array([recipes.get(recipe_key(t.parallelism, g, hw), 0.0) for g in t.gpus])
    return t.batch[:, None] / t.gpus[None, :] <= most[None, :]


def whole_domain_share(used, domain_gpus: int):
    """The GPUs of whole servers or racks (scale-up domains of domain_gpus) a deployment unit of `used` GPUs takes,
    the search's score for a fleet costed as bought: a unit within a domain stays whole in one, copies packed as many
    to a domain as fit (a 52-GPU unit takes a 72-GPU rack, two of 36 share one); a wider unit the whole domains its
    GPUs fill, ceil(used / domain) (its instances share domains with the next copy's: the fleet counts them packed,
    pack_domains). domain_gpus 0: `used`."""
    used = np.asarray(used, dtype=float)
    if not domain_gpus:
        return used
    per = np.floor(domain_gpus / np.maximum(used, 1.0))
    inside = domain_gpus / np.maximum(per, 1.0)
    return np.where(used <= domain_gpus, inside, np.ceil(used / domain_gpus) * domain_gpus)


def pack_domains(instances: Mapping[int, int], domain_gpus: int) -> int:
    """Whole scale-up domains of domain_gpus GPUs that hold `instances` (GPUs per instance -> how many), each
    instance within one domain, or across whole ones where wider (DEP64 on 8-GPU servers: 8; the domains' GPUs it
    leaves, e.g. 96 on 72-GPU racks, take smaller ones): best fit, the widest first (a TP8 takes a 12-chip
    Inferentia2 server of its own, its 4 left to a TP4)."""
    free: dict[int, int] = {}  # GPUs free in an open domain -> how many such domains
    opened = 0

    def leave(gpus_free: int, domains: int) -> None:
        if gpus_free > 0 and domains > 0:
            free[gpus_free] = free.get(gpus_free, 0) + domains

    for g in sorted((int(g) for g, n in instances.items() if n > 0), reverse=True):
        n = int(instances[g])
        if g >= domain_gpus:  # whole domains each, the last one's rest free
            opened += n * math.ceil(g / domain_gpus)
            leave(-g % domain_gpus, n)
            continue
        for f in sorted(k for k in free if k >= g):  # the fullest domains that still take one
            if not n:
                break
            per, count = f // g, free.pop(f)
            domains = min(count, math.ceil(n / per))
            placed = min(n, domains * per)
            full, part = divmod(placed, per)
            leave(f, count - domains)  # those not needed
            leave(f - per * g, full)
            leave(f - part * g, 1 if part else 0)
            n -= placed
        if n:
            per = domain_gpus // g
            new = math.ceil(n / per)
            opened += new
            full, part = divmod(n, per)
            leave(domain_gpus - per * g, full)
            leave(domain_gpus - part * g, 1 if part else 0)
    return opened


def choose(
    tables: LayoutTables | Sequence[LayoutTables],
    tpot_target_s: float,
    ttft_target_s: float | None = None,
    recipes: Mapping[tuple[str, int, bool], float] | None = None,
    whole_domains: int = 0,
) -> Deployment:
    """The deployment with the most (input + output) tokens/s per GPU whose TPOT <= target (and TTFT <= its target)
    and that fits; ties go to fewer GPUs used. `recipes` (the measured recipes only): a disaggregated decode pool
    holds at most the sequences per GPU a published run of the model decoded on its worker layout (_within_recipes),
    and limited_by says 'recipes' where that stops a bigger batch. Nothing feasible: feasible False and limited_by
    'memory' (no layout fits even one sequence) or 'slo' (none meets the target) or 'gpus' (a disaggregated search
    on one GPU). `whole_domains` (a domain's GPUs; 0: off): the most tokens/s per GPU of the whole servers or racks
    it takes (whole_domain_share), for a fleet costed as bought; its tokens_per_s_per_gpu stay per GPU used. Several tables (one per engine, engine_tables): the best of their choices, its `engine` saying
    whose (ties to the first; nothing feasible: the answer of the engine with the fastest TPOT, else the first's)."""
    if not isinstance(tables, LayoutTables):
        found = [choose(t, tpot_target_s, ttft_target_s, recipes, whole_domains) for t in tables]
        ok = [d for d in found if d.feasible]
        if ok:
            share = lambda d: d.unit.gpus_used / float(whole_domain_share(d.unit.gpus_used, whole_domains))  # noqa: E731
            return max(ok, key=lambda d: (d.tokens_per_s_per_gpu * (share(d) if whole_domains else 1), -d.gpus_used))
        slo = [d for d in found if d.limited_by == "slo"]  # something fits: the engine with the fastest TPOT
        return min(slo, key=lambda d: d.fastest_tpot_s) if slo else found[0]
    return _choose_one(tables, tpot_target_s, ttft_target_s, recipes, whole_domains)


def _choose_one(
    tables: LayoutTables,
    tpot_target_s: float,
    ttft_target_s: float | None,
    recipes: Mapping[tuple[str, int, bool], float] | None,
    whole_domains: int = 0,
) -> Deployment:
    if not (math.isfinite(tpot_target_s) and tpot_target_s > 0):
        raise ValueError(f"tpot_target_s must be a positive number, got {tpot_target_s!r}")
    ttft_t = math.inf if ttft_target_s is None else float(ttft_target_s)
    s, hw, m = tables.scenario, tables.hardware, tables.model
    isl, osl = float(s.context_tokens), float(s.output_tokens)
    budget = tables.max_gpus
    cands: list[Candidate] = []
    best: tuple[float, int, dict] | None = None

    def consider(per_gpu: float, used: int, fields: dict, unit: int) -> None:
        # the score: tokens/s per GPU used, or per GPU of the whole domains the unit copied takes (a fleet's replica)
        nonlocal best
        score = per_gpu * unit / float(whole_domain_share(unit, whole_domains)) if whole_domains else per_gpu
        if best is None or score > best[0] * (1 + 1e-12) or (score >= best[0] * (1 - 1e-12) and used < best[1]):
            best = (score, used, fields | {"per_gpu": per_gpu})

    # aggregated: replicas of one instance fill the budget
    for t in tables.aggregated:
        ok = t.fits & (t.tpot_s <= tpot_target_s) & (t.ttft_s <= ttft_t)
        cands += _candidates(t, ok)
        idx, any_ok = _best_in(t, ok)
        for j, g in enumerate(t.gpus):
            if not any_ok[j]:
                continue
            i = int(idx[j])
            n = budget // int(g)
            consider(
                float(t.rate_per_gpu[i, j]),
                n * int(g),
                dict(
                    serving="aggregated",
                    decode=Pool(n, int(g), t.parallelism, int(t.batch[i]), t.stages),
                    prefill=None,
                    tpot_s=float(t.tpot_s[i, j]),
                    ttft_s=float(t.ttft_s[i, j]),
                    output=float(t.output_per_gpu[i, j]),
                    limited_by=_limit(t, i, j, ok),
                    rate_set_by="",
                    kv_transfer_s=0.0,
                ),
                int(g),  # a replica: one instance
            )

    # disaggregated: the best decode batch per decode layout, the best prefill batch per prefill layout, then the
    # instance counts x, y (x gp + y gd <= budget) with the most tokens/s per GPU over both pools
    dec_best, pre_best = [], []
    for t in tables.decode:
        meets = t.fits & (t.tpot_s <= tpot_target_s)
        ok = meets & _within_recipes(t, recipes, hw)
        cands += _candidates(t, ok)
        idx, any_ok = _best_in(t, ok)
        for j in np.flatnonzero(any_ok):
            i = int(idx[j])
            capped = i + 1 < t.batch.size and bool(meets[i + 1, j]) and not bool(ok[i + 1, j])
            dec_best.append((t, i, int(j), "recipes" if capped else _limit(t, i, int(j), ok)))
    kv_bytes = float(kv_cache_bytes_per_sequence(m, isl, native_formats(s, hw).kv_cache.bytes_per_element))
    up_link = link_bytes_per_s(hw, tables.profile)
    out_link = scale_out_peak_bytes_per_s(hw) * tables.profile.interconnect_efficiency
    extra = scale_out_hop_s(hw)
    lat = tables.profile.allreduce_latency_s
    domain = scale_up_domain_gpus(hw)
    for t in tables.prefill:
        # TTFT needs the transfer, which depends on whether the deployment stays in one domain: keep both choices
        for inside in (True, False):
            transfer = (
                lat + (0.0 if inside else extra) + kv_bytes / (t.gpus[None, :] * (up_link if inside else out_link))
            )
            ok = t.fits & (t.ttft_s + transfer <= ttft_t)
            if inside:
                cands += _candidates(t, ok)
            idx, any_ok = _best_in(t, ok)
            pre_best += [(t, int(idx[j]), j, inside, float(transfer[0, j])) for j in range(t.gpus.size) if any_ok[j]]
    for td, i, j, lim in dec_best:
        gd = int(td.gpus[j])
        rd = float(td.rate_per_gpu[i, j]) * gd  # requests/s per decode instance
        for tp_, ip, jp, inside, transfer in pre_best:
            gp = int(tp_.gpus[jp])
            rp = float(tp_.rate_per_gpu[ip, jp]) * gp  # prompts/s per prefill instance
            x = np.arange(1, budget // gp + 1)[:, None]
            y = np.arange(1, budget // gd + 1)[None, :]
            used = x * gp + y * gd
            ok = used <= (min(budget, domain) if inside else budget)
            if not inside:
                ok &= used > domain  # the deployment spans domains: the transfer crosses the NICs
            if not ok.any():
                continue
            rate = np.minimum(x * rp, y * rd)
            per_gpu = np.where(ok, rate * (isl + osl) / used, -np.inf)
            taken = per_gpu * used / whole_domain_share(used, whole_domains) if whole_domains else per_gpu
            a = np.unravel_index(int(np.argmax(taken - used * 1e-9)), per_gpu.shape)
            unit = int(used[a])
            # replicas of the whole xPyD unit fill the budget (tokens/s per GPU unchanged; a unit that fits one
            # domain keeps its KV transfer inside it, each replica in its own domain)
            copies = budget // unit
            xi, yi = int(x[a[0], 0]) * copies, int(y[0, a[1]]) * copies
            r = float(rate[a]) * copies
            n_used = unit * copies
            consider(
                float(per_gpu[a]),
                n_used,
                dict(
                    serving="disaggregated",
                    decode=Pool(yi, gd, td.parallelism, int(td.batch[i])),
                    prefill=Pool(xi, gp, tp_.parallelism, int(tp_.batch[ip])),
                    tpot_s=float(td.tpot_s[i, j]),
                    ttft_s=float(tp_.ttft_s[ip, jp]) + transfer,
                    output=r * osl / n_used,
                    limited_by=lim,
                    rate_set_by="prefill" if xi * rp < yi * rd else "decode",
                    kv_transfer_s=transfer,
                ),
                unit,
            )

    price = tables.usd_per_gpu_hour
    common = dict(
        max_gpus=budget, tpot_target_s=float(tpot_target_s), ttft_target_s=ttft_target_s, mtp_k=tables.mtp_k,
        candidates=tuple(cands), engine=tables.profile.id,
    )  # fmt: skip
    if best is None:
        if tables.serving == "disaggregated" and budget < 2:
            why = "gpus"
        else:
            why = "slo" if any(c.fits for c in cands) else "memory"
        nan = math.nan
        return Deployment(
            feasible=False, serving="", decode=None, prefill=None, gpus_used=0, tpot_s=nan, ttft_s=nan,
            tokens_per_s_per_gpu=nan, output_tokens_per_s_per_gpu=nan, usd_per_1M_tokens=nan,
            usd_per_1M_output_tokens=nan, limited_by=why, rate_set_by="", kv_transfer_s=nan,
            fastest_tpot_s=fastest_tpot_s(tables) if why == "slo" else nan, **common,
        )  # fmt: skip
    _, used, f = best
    per_gpu = f["per_gpu"]
    return Deployment(
        feasible=True,
        serving=f["serving"],
        decode=f["decode"],
        prefill=f["prefill"],
        gpus_used=used,
        tpot_s=f["tpot_s"],
        ttft_s=f["ttft_s"],
        tokens_per_s_per_gpu=per_gpu,
        output_tokens_per_s_per_gpu=f["output"],
        usd_per_1M_tokens=float(usd_per_1M_tokens(price, per_gpu)),
        usd_per_1M_output_tokens=float(usd_per_1M_tokens(price, f["output"])),
        limited_by=f["limited_by"],
        rate_set_by=f["rate_set_by"],
        kv_transfer_s=f["kv_transfer_s"],
        **common,
    )


def best_deployment(
    model: ModelSpec,
    hw: Hardware,
    scenario: Scenario,
    profile: EfficiencyProfile | Sequence[EfficiencyProfile] = IDEAL,
    *,
    max_gpus: int,
    tpot_target_s: float,
    ttft_target_s: float | None = None,
    serving: str = "best",
    mtp_k: int | None = None,
    mtp_acceptance: float = MTP_ACCEPTANCE,
    recipes: Mapping[tuple[str, int, bool], float] | None = None,
) -> Deployment:
    """The best aggregated or disaggregated deployment within max_gpus GPUs at a TPOT (and optional TTFT) target:
    :func:`engine_tables` then :func:`choose` (`profile`: one, or several engines, e.g. best_engines(hw);
    `recipes`: the measured recipes only, as choose takes them)."""
    t = engine_tables(
        model, hw, scenario, profile, max_gpus=max_gpus, serving=serving, mtp_k=mtp_k, mtp_acceptance=mtp_acceptance
    )
    return choose(t, tpot_target_s, ttft_target_s, recipes)


def best_engines(hw: Hardware) -> tuple[EfficiencyProfile, ...]:
    """The best-engine search's profiles on this chip: the engines fitted to serving runs on its vendor's chips
    (engines.serving_engines), their current catalog values."""
    profiles = load_profiles()
    return tuple(profiles[p] for p in serving_engines(hw.vendor))


def engine_tables(
    model: ModelSpec,
    hw: Hardware,
    scenario: Scenario,
    profile: EfficiencyProfile | Sequence[EfficiencyProfile],
    **search,
) -> LayoutTables | tuple[LayoutTables, ...]:
    """layout_tables under one profile, or under each of several (choose then takes the best engine at each target;
    `search`: layout_tables' keywords)."""
    if isinstance(profile, EfficiencyProfile):
        return layout_tables(model, hw, scenario, profile, **search)
    return tuple(layout_tables(model, hw, scenario, p, **search) for p in profile)


def fastest_tpot_s(tables: LayoutTables) -> float:
    """The lowest TPOT (s) of any layout of the tables that fits in memory (aggregated instances and decode pools,
    any batch): the fastest per-user speed the search can offer; inf when nothing fits."""
    fastest = [float(np.min(t.tpot_s, where=t.fits, initial=math.inf)) for t in (*tables.aggregated, *tables.decode)]
    return min(fastest, default=math.inf)


def deployment_curve(
    tables: LayoutTables | Sequence[LayoutTables],
    interactivity_tok_s_per_user,
    recipes: Mapping[tuple[str, int, bool], float] | None = None,
) -> list[Deployment]:
    """The best deployment at each interactivity target (tokens/s per user = 1 / TPOT target): the frontier of
    tokens/s per GPU against tokens/s per user over layouts (and engines, given several tables; `recipes`: the
    measured recipes only, see choose)."""
    return [choose(tables, 1.0 / float(x), recipes=recipes) for x in np.atleast_1d(interactivity_tok_s_per_user)]


REACH_GAP = 0.01  # reach_curve adds its last point only where the curve ends more than 1 % short of the reach


def reach_curve(
    tables: LayoutTables | Sequence[LayoutTables],
    interactivity_tok_s_per_user,
    recipes: Mapping[tuple[str, int, bool], float] | None = None,
) -> tuple[np.ndarray, list[Deployment]]:
    """deployment_curve's targets (tokens/s per user, ascending) and deployments, with one more point where the curve
    stops on latency: at the fastest interactivity a layout that fits reaches (Deployment.fastest_tpot_s), so a curve
    ends where the search's reach does (MI455X's at 124 tok/s per user, not at the grid's 110 below it)."""
    targets = np.atleast_1d(np.asarray(interactivity_tok_s_per_user, dtype=float))
    curve = deployment_curve(tables, targets, recipes)
    fastest = min((d.fastest_tpot_s for d in curve if not d.feasible and d.limited_by == "slo"), default=math.nan)
    if not math.isfinite(fastest):
        return targets, curve
    x = 1.0 / (fastest * (1.0 + 1e-9))  # a hair looser than the fastest step: met
    reached = max((d.tokens_per_s_per_user for d in curve if d.feasible), default=0.0)
    if reached >= x * (1.0 - REACH_GAP) or not (d := choose(tables, 1.0 / x, recipes=recipes)).feasible:
        return targets, curve  # the curve ends there already (a point 0.03 % further at half the rate read as a cliff)
    i = int(np.searchsorted(targets, x))
    return np.insert(targets, i, x), [*curve[:i], d, *curve[i:]]


@dataclass(frozen=True)
class StepParts:
    """One instance of a deployment's decode pool at its batch, as the search timed it: seconds per part of the step
    (roofline.BUCKETS: weights, KV cache, compute, communication, overhead), before the measured pool correction and
    MTP that the deployment's TPOT adds, and the link its collectives cross ('scale_up' inside one domain, 'scale_out'
    across domains, '' for one GPU)."""

    parts_s: dict[str, float]
    link: str

    @property
    def communication_share(self) -> float:
        """Communication's share of the modelled step (0-1)."""
        total = sum(self.parts_s.values())
        return self.parts_s["communication"] / total if total > 0 else math.nan


def decode_parts(
    model: ModelSpec, hw: Hardware, s: Scenario, profile: EfficiencyProfile, d: Deployment
) -> StepParts | None:
    """The TPOT decomposition of a deployment's decode pool (aggregated: its continuous-batching step; disaggregated:
    decode steps alone at the mean cache, ISL + OSL/2, as _decode_table times them); None when nothing was chosen or
    the pool is pipeline-parallel (its stages are timed whole, planner.pipeline_parallel)."""
    p = d.decode
    if not d.feasible or p is None or p.pipeline_stages > 1:
        return None
    if d.serving == "aggregated":
        sc = replace(s, batch=p.batch, num_gpus=p.gpus_each, parallelism=p.parallelism, batching="continuous")
    else:
        osl = float(s.output_tokens)
        half = math.floor(osl / 2)
        sc = replace(s, batch=p.batch, num_gpus=p.gpus_each, parallelism=p.parallelism, batching="static",
                     context_tokens=float(s.context_tokens) + half, output_tokens=osl - half)  # fmt: skip
    e = estimate(model, hw, sc, profile)
    link = "" if p.gpus_each == 1 else "scale_up" if p.gpus_each <= scale_up_domain_gpus(hw) else "scale_out"
    return StepParts({k: float(v) for k, v in e.breakdown_s.items()}, link)


def pool_usable_bytes(
    model: ModelSpec, hw: Hardware, s: Scenario, profile: EfficiencyProfile, pool: Pool | None
) -> float:
    """The fit gate's usable memory per GPU (bytes) on one of a deployment's pools: its budget, or where the engine's
    fraction is of the free memory (UsableMemory.of_free) the budget with the pool's weights + workspace held
    (UsableMemory.bytes_for); a pipeline-parallel pool as tensor parallel over its GPUs (its weights split as many
    ways). None (nothing chosen): the budget."""
    gate = usable_memory(hw, profile)
    if pool is None or not gate.of_free:
        return gate.budget_bytes
    par = "tp" if pool.parallelism == "tp-pp" else pool.parallelism
    sc = replace(native_formats(s, hw), batch=pool.batch, num_gpus=pool.gpus_each, parallelism=par)
    return float(gate.bytes_for(held_bytes_per_gpu(model, sc, pool.gpus_each)))


def memory_reason(winner: Deployment, other: Deployment) -> tuple[str, Candidate] | None:
    """Why `other` (another chip, same model) falls behind `winner` because of memory: the winner's decode layout on
    the other chip does not fit at all ('does_not_fit') or holds fewer sequences than the winner runs
    ('fewer_sequences'); None when memory is not the reason."""
    if not winner.feasible or winner.decode is None:
        return None
    kind = "aggregated" if winner.serving == "aggregated" else "decode"
    d = winner.decode
    c = other.candidate(kind, d.parallelism, d.gpus_each)
    if c is None:
        return None
    if not c.fits:
        return "does_not_fit", c
    if c.max_batch_memory < d.batch and (not c.feasible or c.limited_by == "memory"):
        return "fewer_sequences", c
    return None
