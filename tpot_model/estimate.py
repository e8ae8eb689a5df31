"""The whole estimate for a scenario: TPOT and its decomposition, TTFT, memory fit, throughput, cost and energy.

SI units: seconds, bytes, FLOP, FLOP/s, W, J, USD. Every numeric field broadcasts over the scenario's arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .catalog import Hardware, ModelSpec
from .profiles import IDEAL, EfficiencyProfile
from .roofline import (
    StepResult,
    kv_cache_bytes_per_sequence,
    kv_shards,
    rates_for,
    step,
    total_params,
)
from .scenario import Scenario
from .units import hour_s

PREFILL_CHUNK_TOKENS = 2048  # engines prefill in chunks; the workspace holds one chunk's activations
LOGIT_BYTES = 4.0  # fp32 logits
MAX_GPUS_SEARCHED = 1024
_GPU_CANDIDATES = 2.0 ** np.arange(int(np.log2(MAX_GPUS_SEARCHED)) + 1)  # tensor-parallel degrees 1, 2, 4 ... 1024


@dataclass(frozen=True, eq=False)
class Estimate:
    """Everything the dashboard shows for one scenario (arrays when the scenario is a sweep)."""

    model: ModelSpec
    hardware: Hardware
    scenario: Scenario
    profile: EfficiencyProfile
    compute_precision: str  # precision the GEMMs run at (after hardware fallback)
    attention_precision: str
    decode: StepResult
    prefill: StepResult
    # time
    tpot_s: np.ndarray
    ttft_s: np.ndarray
    time_to_serve_s: np.ndarray
    # memory
    weight_bytes: float
    kv_cache_bytes: np.ndarray  # whole batch at context_tokens
    kv_cache_peak_bytes: np.ndarray  # whole batch at context_tokens + output_tokens
    workspace_bytes_per_gpu: np.ndarray
    memory_per_gpu_bytes: np.ndarray
    usable_memory_per_gpu_bytes: float
    fits: np.ndarray
    min_gpus: np.ndarray  # smallest power-of-two GPU count that holds it; nan if none up to 1024
    max_batch: np.ndarray  # most sequences that fit at this context on num_gpus
    # roofline
    arithmetic_intensity_flop_per_byte: np.ndarray
    ridge_point_flop_per_byte: float  # hardware peak FLOP/s / peak bandwidth at the compute precision
    compute_bound: np.ndarray
    # economics
    price_usd_per_gpu_hour: float
    usd_per_1M_tokens: np.ndarray
    usd_per_1M_tokens_with_prefill: np.ndarray
    joules_per_token: np.ndarray

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
    def mfu(self) -> np.ndarray:
        """Model FLOP utilisation: FLOPs per step / TPOT / dense peak at the compute precision."""
        return self.decode.flops / self.tpot_s / self.hardware.dense_flop_per_s[self.compute_precision]


def _workspace_bytes(m: ModelSpec, batch: np.ndarray, num_gpus: np.ndarray) -> np.ndarray:
    """Activations and logits of a decode step plus one prefill chunk, per GPU."""
    ff = m.moe.expert_d_ff * m.moe.experts_per_token if m.moe and not m.moe.num_dense_layers else m.d_ff
    widest = 2 * m.d_model + 2 * max(ff, m.d_model) / num_gpus
    decode = batch * (widest * 2 + m.vocab_size / num_gpus * LOGIT_BYTES)
    chunk = PREFILL_CHUNK_TOKENS * widest * 2 * 2
    return decode + chunk


def memory_per_gpu(m: ModelSpec, s: Scenario, num_gpus: np.ndarray, batch: np.ndarray | None = None) -> np.ndarray:
    """Bytes each GPU holds: weights / N + its share of the peak KV cache + workspace."""
    batch = s.batch if batch is None else batch
    weights = total_params(m) * s.weights.bytes_per_element
    kv = batch * kv_cache_bytes_per_sequence(m, s.context_tokens + s.output_tokens, s.kv_cache.bytes_per_element)
    return weights / num_gpus + kv / kv_shards(m, num_gpus) + _workspace_bytes(m, batch, num_gpus)


def estimate(m: ModelSpec, hw: Hardware, s: Scenario, profile: EfficiencyProfile = IDEAL) -> Estimate:
    """Evaluate a scenario (scalars or broadcasting arrays) on one hardware type with one efficiency profile."""
    decode = step(m, hw, s, profile, prefill=False)
    prefill = step(m, hw, s, profile, prefill=True)
    _, gemm_precision, attn_precision = rates_for(hw, profile, s)
    N, B = s.num_gpus, s.batch
    tpot = decode.time_s
    ttft = prefill.time_s
    serve = ttft + tpot * (s.output_tokens - 1)

    kvb = s.kv_cache.bytes_per_element
    weight_bytes = total_params(m) * s.weights.bytes_per_element
    usable = hw.memory_bytes * profile.usable_memory_fraction
    per_gpu = memory_per_gpu(m, s, N)
    candidates = _GPU_CANDIDATES.reshape((-1,) + (1,) * np.ndim(per_gpu))
    fits_at = memory_per_gpu(m, s, candidates) <= usable
    min_gpus = np.where(fits_at.any(axis=0), candidates.ravel()[np.argmax(fits_at, axis=0)], np.nan)
    per_seq = kv_cache_bytes_per_sequence(m, s.context_tokens + s.output_tokens, kvb) / kv_shards(m, N)
    per_seq = per_seq + _workspace_bytes(m, np.ones_like(B), N) - _workspace_bytes(m, np.zeros_like(B), N)
    free = usable - weight_bytes / N - _workspace_bytes(m, np.zeros_like(B), N)
    max_batch = np.maximum(np.floor(free / per_seq), 0)

    price = s.price_usd_per_gpu_hour if s.price_usd_per_gpu_hour is not None else hw.price_usd_per_hour
    price = float("nan") if price is None else float(price)
    usd_per_s = price * N / hour_s
    power_w = (hw.tdp_w if hw.tdp_w is not None else float("nan")) * N
    out = s.output_tokens
    return Estimate(
        model=m,
        hardware=hw,
        scenario=s,
        profile=profile,
        compute_precision=gemm_precision,
        attention_precision=attn_precision,
        decode=decode,
        prefill=prefill,
        tpot_s=tpot,
        ttft_s=ttft,
        time_to_serve_s=serve,
        weight_bytes=weight_bytes,
        kv_cache_bytes=B * kv_cache_bytes_per_sequence(m, s.context_tokens, kvb),
        kv_cache_peak_bytes=B * kv_cache_bytes_per_sequence(m, s.context_tokens + out, kvb),
        workspace_bytes_per_gpu=_workspace_bytes(m, B, N),
        memory_per_gpu_bytes=per_gpu,
        usable_memory_per_gpu_bytes=usable,
        fits=per_gpu <= usable,
        min_gpus=min_gpus,
        max_batch=max_batch,
        arithmetic_intensity_flop_per_byte=decode.flops / decode.bytes,
        ridge_point_flop_per_byte=hw.dense_flop_per_s[gemm_precision] / hw.memory_bandwidth_bytes_per_s,
        compute_bound=decode.flop_time_s > decode.memory_time_s,
        price_usd_per_gpu_hour=price,
        usd_per_1M_tokens=usd_per_s * tpot / B * 1e6,
        usd_per_1M_tokens_with_prefill=usd_per_s * serve / (B * out) * 1e6,
        joules_per_token=power_w * tpot / B,
    )
