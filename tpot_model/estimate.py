"""The whole estimate for a scenario: TPOT and its decomposition, TTFT, memory fit, throughput, cost and energy.

SI units: seconds, bytes, FLOP, FLOP/s, W, J, USD. Every numeric field broadcasts over the scenario's arrays.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from dataclasses import dataclass

import numpy as np

from .bands import Band, band_for
from .catalog import Hardware, ModelSpec
from .economics import price_for, tokens_per_gw_year, tokens_per_s_per_mw, usd_per_1M_tokens
from .engines import OF_FREE_MEMORY
from .precision import FORMATS, NumberFormat, native_fp4, with_native_fp4
from .prices import PricePoint
from .profiles import IDEAL, EfficiencyProfile
from .roofline import (
    Rates,
    StepResult,
    draft_head_kv_bytes_per_sequence,
    draft_head_params,
    kv_cache_bytes_per_sequence,
    kv_shards,
    param_counts,
    rates_for,
    step,
    total_params,
)
from .scenario import Scenario
from .serving import SERVING_CHUNK_TOKENS, SteadyState, output_tokens_per_s, steady_state

PREFILL_CHUNK_TOKENS = 2048  # engines prefill in chunks; the workspace holds one chunk's activations
LOGIT_BYTES = 4.0  # fp32 logits
MAX_GPUS_SEARCHED = 1024
_GPU_CANDIDATES = 2.0 ** np.arange(int(np.log2(MAX_GPUS_SEARCHED)) + 1)  # tensor-parallel degrees 1, 2, 4 ... 1024


@dataclass(frozen=True)
class UsableMemory:
    """Per-GPU memory an engine can fill with weights + KV cache + workspace (bytes), and what it rests on.

    of_free False (vLLM's gpu_memory_utilization, SGLang's mem_fraction_static: a fraction of all the memory): held +
    KV <= capacity x fraction - reservation. of_free True (TensorRT-LLM's free_gpu_memory_fraction: a fraction of what
    is free once the weights and workspace are loaded): KV <= fraction x (capacity - reservation - held). held: the
    weights + workspace per GPU. Both read fraction_of_held x held + KV <= budget_bytes."""

    budget_bytes: float  # capacity x fraction - reservation (of_free: fraction x (capacity - reservation))
    basis: str  # 'reported': from the vendor tool's figure; 'datasheet': from the datasheet's (none is published)
    capacity_bytes: float  # the figure it starts from (nvidia-smi / rocm-smi where published, else the datasheet)
    fraction: float  # the profile's usable_memory_fraction (vLLM's gpu_memory_utilization and the like)
    reserved_bytes: float  # the engine's reservation subtracted (0 for the ideal bound)
    of_free: bool = False  # the fraction is of the memory free after the weights and workspace (engines.OF_FREE_MEMORY)

    @property
    def fraction_of_held(self) -> float:
        """What each held byte (weights, workspace) takes from the budget: 1, or the fraction where that is of the
        free memory."""
        return self.fraction if self.of_free else 1.0

    def bytes_for(self, held_bytes):
        """Usable bytes per GPU with `held_bytes` (weights + workspace) held: the budget, or for a fraction of the free
        memory, budget + (1 - fraction) x held (array-friendly)."""
        return self.budget_bytes + (1.0 - self.fraction_of_held) * np.asarray(held_bytes, dtype=float)


def usable_memory(hw: Hardware, profile: EfficiencyProfile = IDEAL) -> UsableMemory:
    """The fit gate's memory per GPU: the memory the vendor's tool reports (hardware.yaml memory_reported_GiB), the
    profile's usable fraction of it (of all of it, or of what the weights and workspace leave free: engines.
    OF_FREE_MEMORY) less the engine's reservation (its reserved_memory_bytes); where no reported figure is published,
    the datasheet memory in its place (basis 'datasheet'). The reservation is the engine's, so every
    chip pays it (none for the ideal bound)."""
    f = profile.usable_memory_fraction
    of_free = profile.id in OF_FREE_MEMORY
    reserved = 0.0 if profile.is_ideal else profile.reserved_memory_bytes
    reported = hw.memory_reported_bytes is not None
    total = hw.memory_reported_bytes if reported else hw.memory_bytes
    budget = f * (total - reserved) if of_free else total * f - reserved
    return UsableMemory(max(budget, 0.0), "reported" if reported else "datasheet", total, f, reserved, of_free)


@dataclass(frozen=True, eq=False)
class Estimate:
    """Everything the dashboard shows for one scenario (arrays when the scenario is a sweep)."""

    model: ModelSpec
    hardware: Hardware
    scenario: Scenario
    profile: EfficiencyProfile
    rates: Rates  # the achievable bandwidths and FLOP rates every operator ran at (per GPU)
    decode: StepResult
    # time (ttft_s, time_to_serve_s and the prefill step: properties, worked out when first read)
    tpot_s: np.ndarray
    # memory
    weight_bytes: float  # the whole model (and its draft head where scenario.draft_head)
    weight_bytes_per_gpu: np.ndarray  # what each GPU holds, by layout
    kv_cache_bytes: np.ndarray  # whole batch at context_tokens
    kv_cache_peak_bytes: np.ndarray  # whole batch at context_tokens + output_tokens
    kv_cache_peak_bytes_per_gpu: np.ndarray  # each GPU's share of the peak cache, by layout
    workspace_bytes_per_gpu: np.ndarray
    memory_per_gpu_bytes: np.ndarray
    usable_memory_per_gpu_bytes: np.ndarray  # memory_gate.bytes_for(weights + workspace per GPU), by layout
    memory_gate: UsableMemory  # usable_memory(hw, profile): the fit gate
    fits: np.ndarray
    min_gpus: np.ndarray  # smallest power-of-two GPU count that holds it; nan if none up to 1024
    max_batch: np.ndarray  # most sequences that fit at this context on num_gpus
    # roofline
    arithmetic_intensity_flop_per_byte: np.ndarray
    ridge_point_flop_per_byte: float  # hardware peak FLOP/s / peak bandwidth at the compute precision
    compute_bound: np.ndarray
    # economics
    price: PricePoint  # the $/GPU-hour used, with its basis, date and source (usd nan: no price under the basis)
    usd_per_1M_tokens: np.ndarray
    joules_per_token: np.ndarray  # board power (TDP) only, labelled so; joules_per_token_all_in is the all-in basis
    all_in_w_per_gpu: float  # GPU + its share of host, network and cooling (data/prices.yaml); nan when unpublished
    # continuous batching: the steady state behind tpot_s / ttft_s (None for a static batch)
    steady: SteadyState | None = None
    # the 80% calibration band (bands.py): factors from cross-validation residuals; none for the ideal bound
    band: Band = Band(level="unavailable")

    @property
    def usable_memory_basis(self) -> str:
        """The fit gate's basis (UsableMemory.basis): 'reported' or 'datasheet'."""
        return self.memory_gate.basis

    @functools.cached_property
    def prefill(self) -> StepResult:
        """The prefill step: all `batch` prompts together (static batch), or the steady state's first prompt chunk
        (continuous batching). Worked out when first read: a page comparing TPOT across chips never reads it."""
        if self.steady is not None:
            return self.steady.first_chunk
        return step(self.model, self.hardware, self.scenario, self.profile, prefill=True)

    @property
    def ttft_s(self) -> np.ndarray:
        """Time to first token, s: the whole batch's prefill (static batch) or a new prompt's in the steady state."""
        return self.steady.ttft_s if self.steady is not None else self.prefill.time_s

    @property
    def time_to_serve_s(self) -> np.ndarray:
        """ttft_s + (output_tokens - 1) x tpot_s, s."""
        return self.ttft_s + self.tpot_s * (self.scenario.output_tokens - 1)

    @property
    def usd_per_1M_tokens_with_prefill(self) -> np.ndarray:
        """$ per 1M output tokens with the prefill's time counted: batch x output tokens over time_to_serve_s."""
        s = self.scenario
        return usd_per_1M_tokens(
            self.price.usd_per_gpu_hour, s.batch * s.output_tokens / self.time_to_serve_s / s.num_gpus
        )

    @property
    def tpot_low_s(self) -> np.ndarray:
        """Low end of the 80% band on TPOT (nan: no band, e.g. the ideal profile)."""
        return self.tpot_s * self.band.tpot_low_factor

    @property
    def tpot_high_s(self) -> np.ndarray:
        return self.tpot_s * self.band.tpot_high_factor

    @property
    def throughput_band_factors(self) -> tuple[np.ndarray, np.ndarray]:
        """(low, high) factors of the 80% band on the throughputs (tokens/s per GPU and in total, $ per 1M tokens: one
        rate): the measured throughput's band; at batch 1, where the rate is one sequence's, 1 / TPOT, the TPOT's
        band inverted (Overview had given 'tokens/s per user' and 'tokens/s total', one number at batch 1, two
        bands)."""
        one = np.asarray(self.scenario.batch) == 1
        b = self.band
        return (np.where(one, 1.0 / b.tpot_high_factor, b.throughput_low_factor),
                np.where(one, 1.0 / b.tpot_low_factor, b.throughput_high_factor))  # fmt: skip

    @property
    def output_tokens_per_s_per_gpu_low(self) -> np.ndarray:
        """Low end of the 80% band on output tokens/s per GPU."""
        return self.output_tokens_per_s_per_gpu * self.throughput_band_factors[0]

    @property
    def output_tokens_per_s_per_gpu_high(self) -> np.ndarray:
        return self.output_tokens_per_s_per_gpu * self.throughput_band_factors[1]

    @property
    def tokens_per_s_per_user_low(self) -> np.ndarray:
        """Per-user tokens/s (1 / TPOT) at the slow end of the TPOT band."""
        return 1.0 / self.tpot_high_s

    @property
    def tokens_per_s_per_user_high(self) -> np.ndarray:
        return 1.0 / self.tpot_low_s

    @property
    def tokens_per_s_total_low(self) -> np.ndarray:
        """Low end of the 80% band on tokens_per_s_total: throughput_band_factors, as output tokens/s per GPU and $
        per 1M tokens (the three are one rate: the total over the GPUs, the price over it), not batch x the per-user
        band."""
        return self.tokens_per_s_total * self.throughput_band_factors[0]

    @property
    def tokens_per_s_total_high(self) -> np.ndarray:
        return self.tokens_per_s_total * self.throughput_band_factors[1]

    @property
    def usd_per_1M_tokens_low(self) -> np.ndarray:
        """$ per 1M output tokens at the fast end of the throughput band (cost scales as 1 / throughput)."""
        return self.usd_per_1M_tokens / self.throughput_band_factors[1]

    @property
    def usd_per_1M_tokens_high(self) -> np.ndarray:
        return self.usd_per_1M_tokens / self.throughput_band_factors[0]

    @property
    def calibration_basis(self) -> str:
        """What the band rests on, in words."""
        return self.band.basis

    @functools.cached_property
    def serving(self) -> SteadyState:
        """The continuous-batching steady state with `batch` requests in flight (serving.steady_state), whatever
        this estimate's batching: where the per-request TTFT comes from."""
        if self.steady is not None:
            return self.steady
        s = dataclasses.replace(self.scenario, batching="continuous")
        return steady_state(self.model, self.hardware, s, self.profile)

    @property
    def ttft_per_request_s(self) -> np.ndarray:
        """The time to first token one user waits: a new prompt arriving at a server in the continuous-batching
        steady state (half a step, none alone on the server, then its prompt's chunks, each riding a step). The
        headline TTFT; `batch_prefill_s` is the static whole-batch figure."""
        return self.serving.ttft_s

    @functools.cached_property
    def batch_prefill_s(self) -> np.ndarray:
        """The prefill of all `batch` prompts together (static batching: every user arriving at once, the worst
        case), in s; a static estimate's ttft_s."""
        if self.steady is None:
            return self.ttft_s
        s = dataclasses.replace(self.scenario, batching="static")
        return step(self.model, self.hardware, s, self.profile, prefill=True).time_s

    @property
    def time_to_serve_per_request_s(self) -> np.ndarray:
        """What one user waits for a whole answer, s: in the continuous-batching steady state, its TTFT + (output_tokens
        - 1) x its mean inter-token time (new prompts' chunks ride the decode steps). A static batch's decode-only TPOT
        beside the steady state's TTFT had served Llama-3.1-70B FP8 on 2 x H200 (32 x 4K/1K) in 23.2 s, where the batch
        takes 33.2 s and the steady state 33.0 s."""
        return self.serving.ttft_s + (self.scenario.output_tokens - 1) * self.serving.tpot_s

    @property
    def effective_ridge_flop_per_byte(self) -> float:
        """The ridge point at the rates the profile reaches (achievable GEMM FLOP/s / achievable bandwidth), the one
        the bound verdict (compute_bound) is decided by; the hardware's peak ridge under the ideal profile."""
        return float(np.asarray(self.rates.gemm_flop_per_s / self.rates.memory_bytes_per_s).reshape(-1)[0])

    @property
    def compute_precision(self) -> str:
        """Precision the GEMMs run at (after hardware fallback)."""
        return self.rates.gemm_precision

    @property
    def compute_fallback(self) -> tuple[str, str] | None:
        """(asked, used) where the chip has no math at the precision the scenario asks for (FP4 on an H200: ('fp4',
        'bf16')), its matrix multiplies then run at `used`; None where they run as asked."""
        asked = self.scenario.compute_requested
        return None if self.compute_precision == asked else (asked, self.compute_precision)

    @property
    def attention_precision(self) -> str:
        return self.rates.attention_precision

    @property
    def breakdown_s(self) -> dict[str, np.ndarray]:
        """TPOT split into weights, kv_cache, compute, communication, overhead; sums exactly to tpot_s."""
        return self.decode.breakdown_s

    @property
    def tokens_per_s_per_user(self) -> np.ndarray:
        return 1.0 / self.tpot_s

    @property
    def tokens_per_s_total(self) -> np.ndarray:
        return self.scenario.batch / self.tpot_s

    @property
    def tokens_per_s_per_gpu(self) -> np.ndarray:
        return self.tokens_per_s_total / self.scenario.num_gpus

    @property
    def output_tokens_per_s_per_gpu(self) -> np.ndarray:
        """batch x output / (TTFT + (output - 1) TPOT) / GPUs: a static batch served back to back, or (continuous
        batching, Little's law) the steady state with `batch` requests in flight. Prefill time included."""
        s = self.scenario
        return output_tokens_per_s(s.batch, s.output_tokens, self.ttft_s, self.tpot_s) / s.num_gpus

    @property
    def total_tokens_per_s_per_gpu(self) -> np.ndarray:
        """Input + output tokens per second per GPU: output x (context + output) / output."""
        s = self.scenario
        return self.output_tokens_per_s_per_gpu * (s.context_tokens + s.output_tokens) / s.output_tokens

    @property
    def price_usd_per_gpu_hour(self) -> float:
        return self.price.usd_per_gpu_hour

    @property
    def price_basis(self) -> str:
        return self.price.basis

    @property
    def tokens_per_s_per_mw(self) -> np.ndarray:
        """Decode tokens/s per MW of all-in power (nan without an all-in power figure)."""
        return tokens_per_s_per_mw(self.tokens_per_s_per_gpu, self.all_in_w_per_gpu)

    @property
    def tokens_per_gw_year(self) -> np.ndarray:
        return tokens_per_gw_year(self.tokens_per_s_per_gpu, self.all_in_w_per_gpu)

    @property
    def joules_per_token_all_in(self) -> np.ndarray:
        """J per decode token on all-in power: 1e6 / tokens per s per MW (nan without an all-in figure)."""
        return self.all_in_w_per_gpu / self.tokens_per_s_per_gpu

    @property
    def joules_per_token_with_prefill(self) -> np.ndarray:
        """J per output token on board power with the prefill's time counted: board power x time_to_serve_s over
        batch x output tokens (joules_per_token x the decode rate over output_tokens_per_s_per_gpu)."""
        return self.joules_per_token * self.tokens_per_s_per_gpu / self.output_tokens_per_s_per_gpu

    @property
    def usd_per_1K_tokens(self) -> np.ndarray:
        return self.usd_per_1M_tokens / 1000.0

    @property
    def tokens_per_joule(self) -> np.ndarray:
        return 1.0 / self.joules_per_token

    @property
    def bound(self) -> np.ndarray:
        """'compute' or 'memory' per point."""
        return np.where(self.compute_bound, "compute", "memory")

    @property
    def mbu(self) -> np.ndarray:
        """Memory-bandwidth utilisation: bytes moved per step / TPOT / peak bandwidth."""
        return self.decode.bytes / self.tpot_s / self.hardware.memory_bandwidth_bytes_per_s

    @property
    def peak_flop_per_s(self) -> np.ndarray:
        """The datasheet dense peak the decode step's FLOPs run at, per GPU (FLOP/s): the compute precision's for
        GEMMs, the attention precision's for attention, weighted by each one's FLOPs (harmonic); MFU's denominator."""
        dense = self.hardware.dense_flop_per_s
        peak = {"gemm": dense[self.compute_precision], "attention": dense[self.attention_precision]}
        at_peak_s = sum(o.flops / peak[o.rate] for o in self.decode.operators)
        return np.where(at_peak_s > 0, self.decode.flops / np.maximum(at_peak_s, 1e-300), peak["gemm"])

    @property
    def mfu(self) -> np.ndarray:
        """Model FLOP utilisation: FLOPs per step / TPOT / the dense peak they run at (peak_flop_per_s): at most 1
        under the ideal profile, whatever the precisions (fp32 GEMMs beside bf16 attention had read 100.001 %)."""
        return self.decode.flops / self.tpot_s / self.peak_flop_per_s


def _workspace_bytes(
    m: ModelSpec, batch: np.ndarray, num_gpus: np.ndarray, chunk_tokens: float = PREFILL_CHUNK_TOKENS
) -> np.ndarray:
    """Activations and logits of a decode step plus one prefill chunk, per GPU (num_gpus: the tensor-parallel
    split of the widest activations and the logits; 1 when each GPU runs whole layers for its own sequences)."""
    ff = m.moe.expert_d_ff * m.moe.experts_per_token if m.moe and not m.moe.num_dense_layers else m.d_ff
    widest = 2 * m.d_model + 2 * max(ff, m.d_model) / num_gpus
    decode = batch * (widest * 2 + m.vocab_size / num_gpus * LOGIT_BYTES)
    chunk = chunk_tokens * widest * 2 * 2
    return decode + chunk


def _chunk(s: Scenario) -> float:
    return SERVING_CHUNK_TOKENS if s.batching == "continuous" else PREFILL_CHUNK_TOKENS


def held_params(m: ModelSpec, s: Scenario) -> tuple[float, float]:
    """(parameters, of which routed experts) the scenario's GPUs hold: the model's, and its draft head's where
    s.draft_head (draft_head_params)."""
    head, head_experts = draft_head_params(m) if s.draft_head else (0.0, 0.0)
    return total_params(m) + head, param_counts(m)["experts"] + head_experts


def weight_bytes_per_gpu(m: ModelSpec, s: Scenario, num_gpus: np.ndarray) -> np.ndarray:
    """Weights each GPU holds (held_params): total / N (tp, tp-ep: every matrix split, or each GPU E/N whole
    experts); dp-ep: every weight but the routed experts replicated, the experts split E/N per GPU."""
    params, expert_params = held_params(m, s)
    total = params * s.weights.bytes_per_element
    if s.parallelism != "dp-ep":
        return total / num_gpus
    experts = expert_params * s.weights.bytes_per_element
    return (total - experts) + experts / num_gpus + 0 * num_gpus


def cache_bytes_per_sequence(m: ModelSpec, s: Scenario, tokens) -> np.ndarray:
    """One sequence's cache at `tokens` tokens in the scenario's KV format: the model's, and its draft head's where
    s.draft_head (draft_head_kv_bytes_per_sequence)."""
    kvb = s.kv_cache.bytes_per_element
    head = draft_head_kv_bytes_per_sequence(m, tokens, kvb) if s.draft_head else 0.0
    return kv_cache_bytes_per_sequence(m, tokens, kvb) + head


def _layout(s: Scenario, m: ModelSpec, batch: np.ndarray, num_gpus: np.ndarray):
    """(sequences whose KV cache a GPU holds, ways that cache is split, workspace split) for the layout."""
    if s.parallelism == "dp-ep":
        return np.ceil(batch / num_gpus), 1.0, 1.0  # each GPU holds its own sequences whole
    return batch, kv_shards(m, num_gpus), num_gpus  # MLA latent replicated; KV heads split up to K ways


def kv_cache_bytes_per_gpu(m: ModelSpec, s: Scenario, tokens, num_gpus=None, batch=None) -> np.ndarray:
    """Each GPU's share of the cache of `batch` sequences (default s.batch) of `tokens` tokens on num_gpus (default
    s.num_gpus), by layout: tp splits it over min(N, K) KV heads (the MLA latent is replicated); dp-ep gives each
    GPU its own ceil(B / N) sequences whole."""
    batch = s.batch if batch is None else batch
    num_gpus = s.num_gpus if num_gpus is None else num_gpus
    seqs, shards, _ = _layout(s, m, batch, num_gpus)
    kv = seqs * cache_bytes_per_sequence(m, s, tokens)
    return kv / shards


def kv_cache_peak_bytes_per_gpu(m: ModelSpec, s: Scenario, num_gpus: np.ndarray, batch=None) -> np.ndarray:
    """Each GPU's share of the cache at context + output tokens, by layout (kv_cache_bytes_per_gpu)."""
    return kv_cache_bytes_per_gpu(m, s, s.context_tokens + s.output_tokens, num_gpus, batch)


def workspace_bytes_per_gpu(m: ModelSpec, s: Scenario, num_gpus: np.ndarray, batch=None) -> np.ndarray:
    """Activations and logits of a decode step plus one prefill chunk, per GPU, by layout."""
    batch = s.batch if batch is None else batch
    seqs, _, split = _layout(s, m, batch, num_gpus)
    return _workspace_bytes(m, seqs if s.parallelism == "dp-ep" else batch, split, _chunk(s))


def held_bytes_per_gpu(m: ModelSpec, s: Scenario, num_gpus: np.ndarray, batch=None) -> np.ndarray:
    """What each GPU holds besides the KV cache: its weights + workspace, by layout (the fit gate's `held`)."""
    return weight_bytes_per_gpu(m, s, num_gpus) + workspace_bytes_per_gpu(m, s, num_gpus, batch)


def memory_per_gpu(m: ModelSpec, s: Scenario, num_gpus: np.ndarray, batch: np.ndarray | None = None) -> np.ndarray:
    """Bytes each GPU holds: its weights + its share of the peak KV cache + workspace, by layout (s.parallelism)."""
    return (
        weight_bytes_per_gpu(m, s, num_gpus)
        + kv_cache_peak_bytes_per_gpu(m, s, num_gpus, batch)
        + workspace_bytes_per_gpu(m, s, num_gpus, batch)
    )


def _max_batch(m: ModelSpec, s: Scenario, gate: UsableMemory) -> np.ndarray:
    """Most sequences that fit at this context (+ output) on num_gpus, by layout: the gate's
    fraction_of_held x (weights + workspace) + KV cache <= its budget, the workspace growing with each sequence."""
    N, B = s.num_gpus, s.batch
    _, shards, split = _layout(s, m, B, N)
    chunk = _chunk(s)
    per_seq = cache_bytes_per_sequence(m, s, s.context_tokens + s.output_tokens) / shards
    h = gate.fraction_of_held
    ws0 = _workspace_bytes(m, np.zeros_like(B), split, chunk)
    per_seq = per_seq + h * (_workspace_bytes(m, np.ones_like(B), split, chunk) - ws0)
    free = gate.budget_bytes - h * (weight_bytes_per_gpu(m, s, N) + ws0)
    per_gpu = np.maximum(np.floor(free / per_seq), 0)
    return per_gpu * N if s.parallelism == "dp-ep" else per_gpu


def _min_gpus(m: ModelSpec, s: Scenario, gate: UsableMemory, ndim: int = 0) -> np.ndarray:
    """The smallest power-of-two GPU count up to MAX_GPUS_SEARCHED that holds the scenario (`ndim`: its arrays'
    dimensions); nan where none does."""
    candidates = _GPU_CANDIDATES.reshape((-1,) + (1,) * ndim)
    fits_at = memory_per_gpu(m, s, candidates) <= gate.bytes_for(held_bytes_per_gpu(m, s, candidates))
    return np.where(fits_at.any(axis=0), candidates.ravel()[np.argmax(fits_at, axis=0)], np.nan)


@dataclass(frozen=True)
class NoGpuCount:
    """Why no GPU count up to MAX_GPUS_SEARCHED holds a scenario, and what would. `cache_ways`: the most GPUs its KV
    cache splits over (1: every GPU keeps all of it, as MLA's latent cache under tensor parallelism), past which more
    GPUs stop helping; 0 under dp-ep, whose cache splits by request but whose every GPU keeps all the weights outside
    the experts. `kv_cache`: a lower KV-cache format with which a count holds it, `kv_gpus` the fewest GPUs then
    (None, None: none does)."""

    cache_ways: int
    kv_cache: NumberFormat | None
    kv_gpus: int | None


def no_gpu_count(e: Estimate) -> NoGpuCount | None:
    """For a (scalar) estimate that no GPU count up to MAX_GPUS_SEARCHED holds (min_gpus nan): why (NoGpuCount's
    cache_ways) and the lower KV-cache format that would, on how many GPUs; None where a count holds it. The CLI's
    no-fit remedy and the pages say it from here."""
    if np.isfinite(np.asarray(e.min_gpus, dtype=float)).all():
        return None
    s = e.scenario
    ways = 0 if s.parallelism == "dp-ep" else int(kv_shards(e.model, np.array(float(MAX_GPUS_SEARCHED))))
    for kv in lower_formats(s, e.hardware)[1]:
        n = float(_min_gpus(e.model, dataclasses.replace(s, kv_cache=kv), e.memory_gate))
        if np.isfinite(n):
            return NoGpuCount(ways, kv, int(n))
    return NoGpuCount(ways, None, None)


def native_formats(s: Scenario, hw: Hardware) -> Scenario:
    """The scenario with bare 'fp4' weights or KV cache replaced by the chip's block FP4 format
    (precision.native_fp4); unchanged otherwise."""
    if "fp4" not in (s.weights.name, s.kv_cache.name):
        return s
    return dataclasses.replace(
        s, weights=with_native_fp4(s.weights, hw.vendor), kv_cache=with_native_fp4(s.kv_cache, hw.vendor)
    )


def estimate(m: ModelSpec, hw: Hardware, s: Scenario, profile: EfficiencyProfile = IDEAL) -> Estimate:
    """Evaluate a scenario (scalars or broadcasting arrays) on one hardware type with one efficiency profile.

    s.batching == "continuous": batch is the concurrency of a server in its steady state, tpot_s the mean inter-token
    time, ttft_s a new prompt's time to first token (serving.py); otherwise one static batch decoding together.
    s.as_of: the profile as the engine ran that day (its dated history; None: the newest values). Bare 'fp4' weights
    or cache are the chip's block FP4 format (precision.native_fp4: NVFP4, 4.5 bits; MXFP4, 4.25 bits, on AMD); the
    estimate's scenario names the format used."""
    s = native_formats(s, hw)
    profile = profile.as_of(s.as_of)
    steady = None
    if s.batching == "continuous":
        steady = steady_state(m, hw, s, profile)
        decode, tpot = steady.step, steady.tpot_s
    else:  # the prefill step (ttft_s) when first read: Estimate.prefill
        decode = step(m, hw, s, profile, prefill=False)
        tpot = decode.time_s
    rates = rates_for(hw, profile, s)
    N, B = s.num_gpus, s.batch

    weight_bytes = held_params(m, s)[0] * s.weights.bytes_per_element
    gate = usable_memory(hw, profile)
    per_gpu = memory_per_gpu(m, s, N)
    usable = gate.bytes_for(held_bytes_per_gpu(m, s, N))
    min_gpus = _min_gpus(m, s, gate, np.ndim(per_gpu))
    max_batch = _max_batch(m, s, gate)

    price = price_for(hw, s)
    power_w = (hw.tdp_w if hw.tdp_w is not None else float("nan")) * N
    out = s.output_tokens
    return Estimate(
        model=m,
        hardware=hw,
        scenario=s,
        profile=profile,
        rates=rates,
        decode=decode,
        tpot_s=tpot,
        weight_bytes=weight_bytes,
        weight_bytes_per_gpu=weight_bytes_per_gpu(m, s, N),
        kv_cache_bytes=B * cache_bytes_per_sequence(m, s, s.context_tokens),
        kv_cache_peak_bytes=B * cache_bytes_per_sequence(m, s, s.context_tokens + out),
        kv_cache_peak_bytes_per_gpu=kv_cache_peak_bytes_per_gpu(m, s, N),
        workspace_bytes_per_gpu=workspace_bytes_per_gpu(m, s, N),
        memory_per_gpu_bytes=per_gpu,
        usable_memory_per_gpu_bytes=usable,
        memory_gate=gate,
        fits=per_gpu <= usable,
        min_gpus=min_gpus,
        max_batch=max_batch,
        arithmetic_intensity_flop_per_byte=decode.flops / decode.bytes,
        ridge_point_flop_per_byte=hw.dense_flop_per_s[rates.gemm_precision] / hw.memory_bandwidth_bytes_per_s,
        compute_bound=decode.flop_time_s > decode.memory_time_s,
        price=price,
        usd_per_1M_tokens=usd_per_1M_tokens(price.usd_per_gpu_hour, B / tpot / N),
        joules_per_token=power_w * tpot / B,
        all_in_w_per_gpu=hw.prices.all_in_w,
        steady=steady,
        band=band_for(profile.id, hw.id, ideal=profile.is_ideal),
    )


def tpot_only_s(m: ModelSpec, hw: Hardware, s: Scenario, profile: EfficiencyProfile = IDEAL) -> np.ndarray:
    """estimate(m, hw, s, profile).tpot_s, seconds, without the rest of the estimate (no prefill step unless
    continuous batching needs it, no memory or cost): for a page that compares one number across many chips."""
    s = native_formats(s, hw)
    profile = profile.as_of(s.as_of)
    if s.batching == "continuous":
        return steady_state(m, hw, s, profile).tpot_s
    return step(m, hw, s, profile, prefill=False).time_s


def lower_formats(s: Scenario, hw: Hardware) -> tuple[list[NumberFormat], list[NumberFormat]]:
    """The weight formats (8-bit, then 4-bit, each in the kind `hw` computes natively: its vendor's block FP4,
    precision.native_fp4) and KV-cache format (fp8) below the scenario's: the precision remedies to try."""
    weights = [
        "fp8" if "fp8" in hw.dense_flop_per_s else "int8-wo",
        native_fp4(hw.vendor).name if "fp4" in hw.dense_flop_per_s else "int4",
    ]
    lower_weights = [FORMATS[w] for w in weights if FORMATS[w].bits < s.weights.bits]
    return lower_weights, [FORMATS["fp8"]] if s.kv_cache.bits > 8 else []


def precision_that_fits(e: Estimate) -> tuple[NumberFormat | None, NumberFormat | None] | None:
    """The first (weights, KV cache) formats from `lower_formats`, fewest and mildest changes first, with which a
    (scalar) scenario fits on its GPUs; None in a slot means unchanged. None when no lower precision is enough."""
    s = e.scenario
    lower_weights, lower_kv = lower_formats(s, e.hardware)
    for w, kv in itertools.product([None, *lower_weights], [None, *lower_kv]):
        if w is None and kv is None:
            continue
        candidate = dataclasses.replace(s, weights=w or s.weights, kv_cache=kv or s.kv_cache)
        n = candidate.num_gpus
        if bool(
            np.all(
                memory_per_gpu(e.model, candidate, n)
                <= e.memory_gate.bytes_for(held_bytes_per_gpu(e.model, candidate, n))
            )
        ):
            return w, kv
    return None
