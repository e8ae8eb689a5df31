"""Per-operator roofline for a decode step and for prefill, and the TPOT decomposition. SI units throughout.

Symbols (scaling-book notation): B = batch (sequences), T = tokens in the KV cache, D = d_model, F = d_ff,
L = num_layers, H = num_heads, K = num_kv_heads, h = head_dim, V = vocab_size, N = num_gpus (tensor parallel).

Each operator has FLOPs and bytes per GPU (weights, KV cache, activations). Its time is
max(FLOPs / achievable FLOP/s, bytes / achievable bandwidth). A decode step is the sum of its operators plus
tensor-parallel communication (two all-reduces per layer) plus fixed overheads. All array inputs broadcast, so one
call evaluates a whole batch x context x GPU-count sweep.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .catalog import Hardware, ModelSpec
from .precision import resolve_compute
from .profiles import EfficiencyProfile
from .scenario import Scenario
from .units import GB_per_s

ACTIVATION_BYTES = 2.0  # activations and partial sums travel in bf16
PCIE_FALLBACK_BYTES_PER_S = 32 * GB_per_s  # PCIe Gen4 x16, per direction, when a device lists no interconnect
BUCKETS = ("weights", "kv_cache", "compute", "communication", "overhead")


# --------------------------------------------------------------------------------------------------- parameters


def _attention_layer_params(m: ModelSpec) -> tuple[float, float]:
    """(QKV-side, output-side) parameters of one softmax-attention layer."""
    D, H = m.d_model, m.num_heads
    if m.mla:
        a = m.mla
        qk = a.qk_nope_head_dim + a.qk_rope_head_dim
        q = (D * a.q_lora_rank + a.q_lora_rank + a.q_lora_rank * H * qk) if a.q_lora_rank else D * H * qk
        kv = (
            D * (a.kv_lora_rank + a.qk_rope_head_dim)
            + a.kv_lora_rank
            + a.kv_lora_rank * H * (a.qk_nope_head_dim + a.v_head_dim)
        )
        return float(q + kv), float(H * a.v_head_dim * D)
    h, K = m.head_dim, m.num_kv_heads
    q = D * H * h * (2 if m.attention_output_gate else 1)
    norm = 2 * h if m.qk_norm else 0
    return float(q + 2 * D * K * h + norm), float(H * h * D)


def _linear_layer_params(m: ModelSpec) -> tuple[float, float]:
    """(input-side, output-side) parameters of one Gated DeltaNet layer."""
    la, D = m.linear_attention, m.d_model
    if la is None:
        return 0.0, 0.0
    qk = la.num_key_heads * la.key_head_dim
    v = la.num_value_heads * la.value_head_dim
    inp = D * (2 * qk + 2 * v) + D * 2 * la.num_value_heads + (2 * qk + v) * la.conv_kernel + 2 * la.num_value_heads
    return float(inp + la.value_head_dim), float(v * D)


def _mlp_matrices(m: ModelSpec) -> int:
    return 3 if m.mlp == "swiglu" else 2


def param_counts(m: ModelSpec) -> dict[str, float]:
    """Parameters by group (counts, not bytes). 'lm_head' is 0 when tied to the embedding."""
    L_attn = m.num_layers - m.num_linear_layers
    qkv_a, o_a = _attention_layer_params(m)
    qkv_l, o_l = _linear_layer_params(m)
    mats = _mlp_matrices(m)
    n_dense = m.moe.num_dense_layers if m.moe else m.num_layers
    counts = {
        "embedding": float(m.vocab_size * m.d_model),
        "attention": L_attn * (qkv_a + o_a) + m.num_linear_layers * (qkv_l + o_l),
        "mlp": float(n_dense * mats * m.d_model * m.d_ff),
        "experts": 0.0,
        "shared_experts": 0.0,
        "router": 0.0,
        "norms": float((2 * m.num_layers + 1) * m.d_model),
        "lm_head": 0.0 if m.tied_embeddings else float(m.vocab_size * m.d_model),
    }
    if m.moe:
        e = m.moe
        counts["experts"] = float(m.num_moe_layers * e.num_experts * mats * m.d_model * e.expert_d_ff)
        counts["shared_experts"] = float(
            m.num_moe_layers * e.num_shared_experts * mats * m.d_model * e.shared_expert_d_ff
        )
        counts["router"] = float(m.num_moe_layers * m.d_model * e.num_experts)
    return counts


def total_params(m: ModelSpec) -> float:
    """All stored parameters (embeddings counted once when tied)."""
    return float(sum(param_counts(m).values()))


def active_params(m: ModelSpec) -> float:
    """Parameters one token touches: routed experts count k of E."""
    c = param_counts(m)
    if m.moe:
        c["experts"] *= m.moe.experts_per_token / m.moe.num_experts
    return float(sum(c.values()))


# --------------------------------------------------------------------------------------------------- KV cache


def kv_bytes_per_token_per_layer(m: ModelSpec, kv_bytes_per_element: float) -> float:
    """Cache bytes one token adds in one softmax-attention layer: 2*K*h elements, or the MLA latent + rope key."""
    if m.mla:
        return (m.mla.kv_lora_rank + m.mla.qk_rope_head_dim) * kv_bytes_per_element
    return 2 * m.num_kv_heads * m.head_dim * kv_bytes_per_element


def kv_bytes_per_token(m: ModelSpec, kv_bytes_per_element: float) -> float:
    """Bytes of the part of the cache that grows with every token (full-attention / MLA layers)."""
    return m.num_full_attention_layers * kv_bytes_per_token_per_layer(m, kv_bytes_per_element)


def linear_state_bytes(m: ModelSpec, state_bytes_per_element: float) -> float:
    """Constant per-sequence state of the linear-attention layers (recurrent matrix + convolution window)."""
    la = m.linear_attention
    if la is None:
        return 0.0
    recurrent = la.num_value_heads * la.key_head_dim * la.value_head_dim
    conv = (2 * la.num_key_heads * la.key_head_dim + la.num_value_heads * la.value_head_dim) * (la.conv_kernel - 1)
    return float(la.num_layers * (recurrent + conv) * state_bytes_per_element)


def kv_cache_bytes_per_sequence(m: ModelSpec, tokens: np.ndarray, kv_bytes_per_element: float) -> np.ndarray:
    """KV(T) = growing bytes/token * T + window-layer bytes/token * min(T, W) + constant linear-attention state."""
    tokens = np.asarray(tokens, dtype=float)
    per_layer = kv_bytes_per_token_per_layer(m, kv_bytes_per_element)
    out = m.num_full_attention_layers * per_layer * tokens
    if m.sliding_window:
        out = out + m.num_window_layers * per_layer * np.minimum(tokens, m.sliding_window.window_tokens)
    return out + linear_state_bytes(m, kv_bytes_per_element)


def kv_shards(m: ModelSpec, num_gpus: np.ndarray) -> np.ndarray:
    """Ways the cache splits over tensor-parallel GPUs: KV heads split up to K ways; the MLA latent is replicated."""
    if m.mla:
        return np.ones_like(num_gpus)
    return np.minimum(num_gpus, m.num_kv_heads)


def _mean_capped(start: np.ndarray, steps: np.ndarray, cap: float) -> np.ndarray:
    """Mean over j = 1..steps of min(start + j, cap): attended tokens of a window layer across a generation."""
    below = np.clip(cap - start, 0, steps)  # steps whose cache is still under the cap
    total = below * start + below * (below + 1) / 2 + (steps - below) * cap
    return total / steps


def _prefill_attended(prompt: np.ndarray, cap: float | None) -> np.ndarray:
    """Sum over query positions i = 1..P of the keys they attend to: P(P+1)/2, or with a window min(i, W)."""
    if cap is None:
        return prompt * (prompt + 1) / 2
    below = np.minimum(prompt, cap)
    return below * (below + 1) / 2 + (prompt - below) * cap


def expected_experts_touched(num_experts: int, top_k: int, tokens: np.ndarray) -> np.ndarray:
    """Distinct experts a step touches with `tokens` tokens routed uniformly: E * (1 - (1 - k/E)^tokens)."""
    return num_experts * (1.0 - (1.0 - top_k / num_experts) ** np.asarray(tokens, dtype=float))


# --------------------------------------------------------------------------------------------------- operators


@dataclass(frozen=True, eq=False)
class OperatorCost:
    """One operator of a step, per GPU: FLOPs, bytes by kind, time and whether compute set that time."""

    name: str
    flops: np.ndarray
    weight_bytes: np.ndarray
    kv_bytes: np.ndarray
    activation_bytes: np.ndarray
    time_s: np.ndarray
    memory_time_s: np.ndarray
    compute_time_s: np.ndarray

    @property
    def bytes(self) -> np.ndarray:
        return self.weight_bytes + self.kv_bytes + self.activation_bytes

    @property
    def arithmetic_intensity_flop_per_byte(self) -> np.ndarray:
        return self.flops / np.maximum(self.bytes, 1e-30)

    @property
    def compute_bound(self) -> np.ndarray:
        return self.compute_time_s > self.memory_time_s


@dataclass(frozen=True)
class _Rates:
    """Achievable rates for one (hardware, profile, precision) combination, per GPU."""

    weight_bytes_per_s: float
    kv_bytes_per_s: float
    act_bytes_per_s: float
    gemm_flop_per_s: float
    attention_flop_per_s: float


def _operator(name, flops, weight_b, kv_b, act_b, rates: _Rates, attention: bool = False) -> OperatorCost:
    mem = weight_b / rates.weight_bytes_per_s + kv_b / rates.kv_bytes_per_s + act_b / rates.act_bytes_per_s
    comp = flops / (rates.attention_flop_per_s if attention else rates.gemm_flop_per_s)
    return OperatorCost(name, flops, weight_b, kv_b, act_b, np.maximum(mem, comp), mem, comp)


def kv_reads_per_kv_head(m: ModelSpec, profile: EfficiencyProfile) -> float:
    """Times each softmax-attention KV head is read per step: 1 + f (H/K - 1), f = profile.kv_gqa_reread_fraction.

    f = 0 (fused / flash attention) reads each KV head once for its whole query-head group; f = 1 (attention built
    from separate matmuls over a broadcast cache) reads it once per query head. The MLA latent is read once."""
    if m.mla:
        return 1.0
    return 1.0 + profile.kv_gqa_reread_fraction * (m.num_heads / m.num_kv_heads - 1.0)


def _step_operators(
    m: ModelSpec, s: Scenario, rates: _Rates, *, prefill: bool, kv_reads: float = 1.0
) -> list[OperatorCost]:
    """Operators of one decode step (B new tokens) or of prefilling B prompts of max(T, 1) tokens.

    kv_reads scales the attention operator's cache traffic (see kv_reads_per_kv_head)."""
    wb, kvb, ab = s.weights.bytes_per_element, s.kv_cache.bytes_per_element, ACTIVATION_BYTES
    N = s.num_gpus
    B = s.batch
    D, H, V = m.d_model, m.num_heads, m.vocab_size
    c = param_counts(m)
    L_attn = m.num_layers - m.num_linear_layers
    qkv_a, o_a = _attention_layer_params(m)
    qkv_l, o_l = _linear_layer_params(m)
    kv_layer = kv_bytes_per_token_per_layer(m, kvb)
    shards = kv_shards(m, N)

    if prefill:
        prompt = np.maximum(s.context_tokens, 1)
        tokens = B * prompt  # tokens through every GEMM
        full_keys = _prefill_attended(prompt, None)  # per sequence, summed over query positions
        window_keys = _prefill_attended(prompt, m.sliding_window.window_tokens) if m.sliding_window else 0
        kv_traffic = B * prompt * kv_layer * L_attn * 2  # written once, read back once by flash attention
        head_tokens = B  # the LM head only runs on each prompt's last position
    else:
        steps = np.maximum(s.output_tokens - 1, 1)  # decode steps; the first token comes from prefill
        tokens = B
        full_keys = s.context_tokens + (steps + 1) / 2  # mean cache length over the generation
        window_keys = _mean_capped(s.context_tokens, steps, m.sliding_window.window_tokens) if m.sliding_window else 0
        read = m.num_full_attention_layers * full_keys + m.num_window_layers * window_keys
        kv_traffic = B * kv_layer * (read + L_attn)  # read the cache, write the new token's K/V
        head_tokens = B

    # attention math: decode with MLA uses the absorbed form over the latent; prefill expands heads
    if m.mla:
        a = m.mla
        if prefill:
            qk_dim, pv_dim = a.qk_nope_head_dim + a.qk_rope_head_dim, a.v_head_dim
        else:
            qk_dim, pv_dim = a.kv_lora_rank + a.qk_rope_head_dim, a.kv_lora_rank
    else:
        qk_dim = pv_dim = m.head_dim
    keys = m.num_full_attention_layers * full_keys + m.num_window_layers * window_keys
    attn_flops = 2 * H * (qk_dim + pv_dim) * B * keys

    ops = [
        _operator("embedding", 0 * tokens, tokens * D * wb / N, 0 * tokens, tokens * D * ab, rates),
        _operator(
            "qkv_projection",
            2 * tokens * (L_attn * qkv_a + m.num_linear_layers * qkv_l) / N,
            (L_attn * qkv_a + m.num_linear_layers * qkv_l) * wb / N,
            0 * tokens,
            tokens * m.num_layers * D * ab * 2,
            rates,
        ),
        _operator(
            "attention",
            attn_flops / N,
            0 * tokens,
            kv_traffic * kv_reads / shards,
            tokens * L_attn * H * qk_dim * ab * 2 / N,
            rates,
            attention=True,
        ),
    ]
    if m.linear_attention:
        la = m.linear_attention
        state = linear_state_bytes(m, kvb)
        heads = np.minimum(N, la.num_value_heads)  # value heads split over GPUs
        per_token_flops = 6 * la.num_layers * la.num_value_heads * la.key_head_dim * la.value_head_dim
        state_traffic = B * state * (1 if prefill else 2)  # decode reads and writes the state every step
        ops.append(
            _operator(
                "linear_attention",
                tokens * per_token_flops / heads,
                0 * tokens,
                state_traffic / heads,
                tokens * la.num_layers * la.num_value_heads * la.value_head_dim * ab * 2 / heads,
                rates,
                attention=True,
            )
        )
    ops.append(
        _operator(
            "output_projection",
            2 * tokens * (L_attn * o_a + m.num_linear_layers * o_l) / N,
            (L_attn * o_a + m.num_linear_layers * o_l) * wb / N,
            0 * tokens,
            tokens * m.num_layers * D * ab * 2,
            rates,
        )
    )
    if c["mlp"]:
        n_dense = m.moe.num_dense_layers if m.moe else m.num_layers
        ops.append(
            _operator(
                "mlp",
                2 * tokens * c["mlp"] / N,
                c["mlp"] * wb / N + 0 * tokens,
                0 * tokens,
                tokens * n_dense * (2 * D + (_mlp_matrices(m) - 1) * m.d_ff) * ab / N,
                rates,
            )
        )
    if m.moe:
        e = m.moe
        per_expert = _mlp_matrices(m) * D * e.expert_d_ff  # parameters of one expert in one layer
        touched = expected_experts_touched(e.num_experts, e.experts_per_token, tokens)
        ops.append(
            _operator(
                "experts",
                (2 * tokens * e.experts_per_token * per_expert * m.num_moe_layers + 2 * tokens * c["router"]) / N,
                (m.num_moe_layers * touched * per_expert + c["router"]) * wb / N,
                0 * tokens,
                tokens
                * m.num_moe_layers
                * e.experts_per_token
                * (2 * D + (_mlp_matrices(m) - 1) * e.expert_d_ff)
                * ab
                / N,
                rates,
            )
        )
        if c["shared_experts"]:
            ops.append(
                _operator(
                    "shared_experts",
                    2 * tokens * c["shared_experts"] / N,
                    c["shared_experts"] * wb / N + 0 * tokens,
                    0 * tokens,
                    tokens * m.num_moe_layers * 2 * D * ab / N,
                    rates,
                )
            )
    ops.append(
        _operator(
            "norms",
            8 * tokens * D * (2 * m.num_layers + 1),
            c["norms"] * wb + 0 * tokens,
            0 * tokens,
            tokens * D * (2 * m.num_layers + 1) * ab * 2,
            rates,
            attention=True,
        )
    )
    ops.append(
        _operator(
            "lm_head",
            2 * head_tokens * V * D / N,
            V * D * wb / N + 0 * tokens,
            0 * tokens,
            head_tokens * (D + V / N) * ab * 2,
            rates,
        )
    )
    return ops


# --------------------------------------------------------------------------------------------------- step timing


@dataclass(frozen=True, eq=False)
class StepResult:
    """One decode step or one prefill, per GPU: operators, the decomposition by bucket, and its total time."""

    operators: list[OperatorCost]
    breakdown_s: dict[str, np.ndarray]
    time_s: np.ndarray
    flops: np.ndarray
    bytes: np.ndarray
    flop_time_s: np.ndarray  # all FLOPs at the achievable rate
    memory_time_s: np.ndarray  # all bytes at the achievable bandwidth


def is_weight_only(weight_bits: float, gemm_precision: str) -> bool:
    """Weights stored below 16 bits feeding math at 16 bits or wider: the kernel unpacks (dequantizes) each weight.
    int8-wo, int4, GPTQ/AWQ, GGUF quants, and FP8/FP4 on hardware without those units; not W8A8 / native FP8 / FP4."""
    return weight_bits < 16 and gemm_precision in ("bf16", "fp16", "tf32", "fp32")


def rates_for(hw: Hardware, profile: EfficiencyProfile, s: Scenario) -> tuple[_Rates, str, str]:
    """Achievable per-GPU rates, and the (GEMM, attention) compute precisions actually used."""
    gemm = resolve_compute(s.compute_requested, hw.dense_flop_per_s)
    attn = resolve_compute("bf16", hw.dense_flop_per_s)
    bw = min(hw.memory_bandwidth_bytes_per_s * profile.bandwidth_efficiency, profile.bandwidth_limit_bytes_per_s)
    lowbit = profile.lowbit_bandwidth_efficiency if is_weight_only(s.weights.bits, gemm) else 1.0
    return (
        _Rates(
            weight_bytes_per_s=bw * lowbit,
            kv_bytes_per_s=bw * profile.kv_bandwidth_efficiency,
            act_bytes_per_s=bw,
            gemm_flop_per_s=hw.dense_flop_per_s[gemm] * profile.flops_efficiency,
            attention_flop_per_s=hw.dense_flop_per_s[attn] * profile.flops_efficiency,
        ),
        gemm,
        attn,
    )


def _allreduce_s(hw: Hardware, profile: EfficiencyProfile, message_bytes: np.ndarray, N: np.ndarray) -> np.ndarray:
    """Ring all-reduce: latency + 2(N-1)/N * message / link bandwidth; zero on one GPU."""
    link = (hw.interconnect_bytes_per_s or PCIE_FALLBACK_BYTES_PER_S) * profile.interconnect_efficiency
    t = profile.allreduce_latency_s + 2 * (N - 1) / N * message_bytes / link
    return np.where(N > 1, t, 0.0)


def step(m: ModelSpec, hw: Hardware, s: Scenario, profile: EfficiencyProfile, *, prefill: bool) -> StepResult:
    """Time one decode step (mean over the generation) or one prefill, split into the five buckets."""
    rates, _, _ = rates_for(hw, profile, s)
    ops = _step_operators(m, s, rates, prefill=prefill, kv_reads=kv_reads_per_kv_head(m, profile))
    shape = np.broadcast_shapes(*(np.shape(o.time_s) for o in ops))
    buckets = {k: np.zeros(shape) for k in BUCKETS}
    for o in ops:
        cb = o.compute_bound
        buckets["compute"] = buckets["compute"] + np.where(cb, o.time_s, 0.0)
        kv_t = o.kv_bytes / rates.kv_bytes_per_s
        buckets["kv_cache"] = buckets["kv_cache"] + np.where(cb, 0.0, kv_t)
        buckets["weights"] = buckets["weights"] + np.where(cb, 0.0, o.memory_time_s - kv_t)
    tokens = s.batch * (np.maximum(s.context_tokens, 1) if prefill else 1)
    buckets["communication"] = (
        2 * m.num_layers * _allreduce_s(hw, profile, tokens * m.d_model * ACTIVATION_BYTES, s.num_gpus)
    )
    buckets["overhead"] = np.broadcast_to(
        profile.per_token_overhead_s + profile.per_layer_overhead_s * m.num_layers, shape
    ).astype(float)
    buckets = {k: np.broadcast_to(v, np.broadcast_shapes(shape, np.shape(v))) for k, v in buckets.items()}
    total = sum(buckets.values())
    flops = sum(o.flops for o in ops)
    nbytes = sum(o.bytes for o in ops)
    return StepResult(
        operators=ops,
        breakdown_s=buckets,
        time_s=total,
        flops=flops,
        bytes=nbytes,
        flop_time_s=sum(o.compute_time_s for o in ops),
        memory_time_s=sum(o.memory_time_s for o in ops),
    )
