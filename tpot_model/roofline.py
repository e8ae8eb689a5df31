"""Per-operator roofline for a decode step and for prefill, and the TPOT decomposition. SI units throughout.

Symbols (scaling-book notation): B = batch (sequences), T = tokens in the KV cache, D = d_model, F = d_ff,
L = num_layers, H = num_heads, K = num_kv_heads, h = head_dim, V = vocab_size, N = num_gpus (tensor parallel).

Each operator has FLOPs and bytes per GPU (weights, KV cache, activations). Its time is
max(FLOPs / achievable FLOP/s, bytes / achievable bandwidth). A decode step is the sum of its operators plus
communication plus fixed overheads (per step, per layer, per MoE layer). All array inputs broadcast, so one call
evaluates a whole batch x context x GPU-count sweep.

What a step asks of the model (StepWork: tokens, attention math, cache traffic) is built first (decode_work,
prefill_work; they add, so a continuous-batching step is decode + prefill chunks: serving.py), then split over the
GPUs by the scenario's layout (s.parallelism): tp (everything tensor parallel, two all-reduces per layer), tp-ep
(routed experts expert parallel, E/N whole experts per GPU, the busiest GPU setting the time), dp-ep (attention,
dense MLP and shared experts replicated, each GPU running its own sequences; experts as tp-ep; an all-to-all
dispatch and combine per MoE layer).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from .catalog import Hardware, ModelSpec
from .precision import NumberFormat, resolve_compute
from .profiles import EfficiencyProfile
from .scenario import Scenario
from .units import GB_per_s, Gbit_per_s

ACTIVATION_BYTES = 2.0  # activations and partial sums travel in bf16
PCIE_FALLBACK_BYTES_PER_S = 32 * GB_per_s  # PCIe Gen4 x16, per direction, when a device lists no interconnect
DEFAULT_DOMAIN_GPUS = 8  # GPUs in one scale-up domain when the catalog lists none but a GPU-to-GPU link: one server
DEFAULT_SCALE_OUT_BYTES_PER_S = 400 * Gbit_per_s  # one 400 Gb/s NIC per GPU (DGX/HGX H100-B200) when unlisted
# one message's hop when the catalog lists none: NCCL's own latency model (src/graph/tuning.cc hwLat, the LL protocol
# of small messages): 0.6 us over NVLink, 5.0 us over the network (NIC + switch + NIC)
DEFAULT_SCALE_UP_LATENCY_S = 0.6e-6
DEFAULT_SCALE_OUT_LATENCY_S = 5.0e-6
FITTED_GROUP_GPUS = 8.0  # the widest tensor-parallel group in any calibration set (measurements, serving, MLPerf)
DISPATCH_BYTES = 1.0  # dp-ep all-to-all dispatch sends FP8 activations (DeepEP's low-latency mode); combine is bf16
BUCKETS = ("weights", "kv_cache", "compute", "communication", "overhead")


# --------------------------------------------------------------------------------------------------- parameters


def _attention_layer_params(m: ModelSpec) -> tuple[float, float]:
    """(QKV-side, output-side) parameters of one softmax-attention layer."""
    D, H = m.d_model, m.num_heads
    if m.compressed_attention:
        return _compressed_layer_params(m)
    if m.mla:
        a = m.mla
        qk = a.qk_nope_head_dim + a.qk_rope_head_dim
        q = (D * a.q_lora_rank + a.q_lora_rank + a.q_lora_rank * H * qk) if a.q_lora_rank else D * H * qk
        kv = (
            D * (a.kv_lora_rank + a.qk_rope_head_dim)
            + a.kv_lora_rank
            + a.kv_lora_rank * H * (a.qk_nope_head_dim + a.v_head_dim)
        )
        return float(q + kv + _indexer_params(m)), float(H * a.v_head_dim * D)
    h, K = m.head_dim, m.num_kv_heads
    q = D * H * h * (2 if m.attention_output_gate else 1)
    norm = 2 * h if m.qk_norm else 0
    return float(q + 2 * D * K * h + norm), float(H * h * D)


def _compressor_params(m: ModelSpec, dim: int, compression: int, overlap: bool) -> int:
    """One DeepSeek-V4 KV compressor (inference/model.py, class Compressor): entry and gate projections d_model ->
    c x dim, a learned position bias of compression x c x dim and a norm of dim; c = 2 with overlapping windows."""
    c = 2 if overlap else 1
    return 2 * m.d_model * c * dim + compression * c * dim + dim


def _compressed_layer_params(m: ModelSpec) -> tuple[float, float]:
    """(QKV-side, output-side) parameters of a DeepSeek-V4 attention layer, averaged over its layers: query latent
    d_model -> q_lora_rank (+ norm) -> heads x head_dim, one shared entry d_model -> head_dim (+ norm), per-head
    attention sinks; CSA layers add an overlapping compressor and a lightning indexer (queries from the latent, head
    weights from d_model, its own compressor of index_head_dim), HCA layers a plain compressor; the output:
    o_groups groups of heads each to o_lora_rank, then o_groups x o_lora_rank -> d_model."""
    c, D, H, hd = m.compressed_attention, m.d_model, m.num_heads, m.head_dim
    L = m.num_layers
    q = D * c.q_lora_rank + c.q_lora_rank + c.q_lora_rank * H * hd
    kv = D * hd + hd + H
    indexer = (
        c.q_lora_rank * c.index_heads * c.index_head_dim
        + D * c.index_heads
        + _compressor_params(m, c.index_head_dim, c.csa_compression, overlap=True)
    )
    csa = _compressor_params(m, hd, c.csa_compression, overlap=True) + indexer
    hca = _compressor_params(m, hd, c.hca_compression, overlap=False)
    extra = (c.csa_layers * csa + c.hca_layers * hca) / L
    return float(q + kv + extra), float(H * hd * c.o_lora_rank + c.o_groups * c.o_lora_rank * D)


def _indexer_params(m: ModelSpec) -> int:
    """Parameters of one layer's DSA lightning indexer (DeepSeek-V3.2-Exp inference/model.py, class Indexer): query
    projection from the query latent (q_lora_rank, or d_model without one) to index_heads x index_head_dim, key
    projection d_model -> index_head_dim with a LayerNorm (weight + bias), per-head weights d_model -> index_heads."""
    sa = m.sparse_attention
    if sa is None:
        return 0
    q_in = m.mla.q_lora_rank or m.d_model
    return (
        q_in * sa.index_heads * sa.index_head_dim
        + m.d_model * sa.index_head_dim
        + 2 * sa.index_head_dim
        + (m.d_model * sa.index_heads)
    )


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


def draft_head_params(m: ModelSpec) -> tuple[float, float]:
    """(parameters, of which routed experts) of the model's speculative draft head: its multi-token-prediction
    modules (ModelSpec.mtp_modules), or one such module (a one-layer EAGLE-style head) for a model that ships none.
    Each is one transformer layer of the model's (an MoE layer where the model has any, as DeepSeek-V3's is: softmax
    attention, its MLP or experts, two norms), a 2 d_model -> d_model projection of the token's embedding and the
    hidden state, and three norms; the embedding and LM head are the model's own (DeepSeek-V3: 11.6B, 1.7 % of 671B)."""
    c, D = param_counts(m), m.d_model
    qkv, out = _attention_layer_params(m)
    if m.moe:
        experts = c["experts"] / m.num_moe_layers
        mlp = experts + (c["shared_experts"] + c["router"]) / m.num_moe_layers
    else:
        experts, mlp = 0.0, float(_mlp_matrices(m) * D * m.d_ff)
    module = qkv + out + mlp + 2 * D + 2 * D * D + 3 * D
    modules = m.mtp_modules or 1
    return float(modules * module), float(modules * experts)


# --------------------------------------------------------------------------------------------------- KV cache


def kv_bytes_per_token_per_layer(m: ModelSpec, kv_bytes_per_element: float) -> float:
    """Cache bytes one token adds in one softmax-attention layer: 2*K*h elements, or the MLA latent + rope key (+ the
    DSA indexer's key of index_head_dim, held at the cache's precision: DeepSeek's kernels keep it in FP8)."""
    if m.mla:
        return (m.mla.kv_lora_rank + m.mla.qk_rope_head_dim + _index_key_elements(m)) * kv_bytes_per_element
    if m.compressed_attention:
        return _compressed_elements_per_token(m) / m.num_layers * kv_bytes_per_element
    return 2 * m.num_kv_heads * m.head_dim * kv_bytes_per_element


def _compressed_elements_per_token(m: ModelSpec) -> float:
    """DeepSeek-V4: cache elements one token adds over all layers once compressed: a CSA layer's entry (head_dim)
    and index key (index_head_dim) per csa_compression tokens, an HCA layer's entry per hca_compression tokens
    (kv_bytes_per_token_per_layer gives the mean over the layers; the uncompressed window comes on top)."""
    c = m.compressed_attention
    return (
        c.csa_layers * (m.head_dim + c.index_head_dim) / c.csa_compression
        + c.hca_layers * m.head_dim / c.hca_compression
    )


def compressed_window_bytes(m: ModelSpec, tokens, kv_bytes_per_element: float) -> np.ndarray | float:
    """DeepSeek-V4: bytes of the uncompressed window every layer keeps (min(T, window_tokens) entries of head_dim);
    0 for other models."""
    if not m.compressed_attention:
        return 0.0
    w = m.compressed_attention.window_tokens
    return m.num_layers * np.minimum(np.asarray(tokens, dtype=float), w) * m.head_dim * kv_bytes_per_element


def _index_key_elements(m: ModelSpec) -> int:
    """Elements of the DSA indexer key cached per token and layer (0 without sparse attention)."""
    return m.sparse_attention.index_head_dim if m.sparse_attention else 0


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
    out = out + compressed_window_bytes(m, tokens, kv_bytes_per_element)
    return out + linear_state_bytes(m, kv_bytes_per_element)


def draft_head_kv_bytes_per_sequence(m: ModelSpec, tokens: np.ndarray, kv_bytes_per_element: float) -> np.ndarray:
    """The cache of the draft head's attention (draft_head_params: one softmax-attention layer per module, as the
    model's) for a sequence of `tokens` tokens."""
    t = np.asarray(tokens, dtype=float)
    layer = kv_bytes_per_token_per_layer(m, kv_bytes_per_element) * t
    return (m.mtp_modules or 1) * (layer + compressed_window_bytes(m, t, kv_bytes_per_element) / m.num_layers)


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


def _chunk_sum(n: np.ndarray, chunk: float) -> np.ndarray:
    """Sum over positions t = 1..n of (t - 1) mod C + 1: keys a chunked-attention layer attends to, summed."""
    n = np.maximum(np.asarray(n, dtype=float), 0.0)
    whole, r = np.floor(n / chunk), np.mod(n, chunk)
    return whole * chunk * (chunk + 1) / 2 + r * (r + 1) / 2


def _mean_chunked(start: np.ndarray, steps: np.ndarray, chunk: float) -> np.ndarray:
    """Mean over j = 1..steps of the keys the query at position start + j sees under chunked attention."""
    return (_chunk_sum(start + steps, chunk) - _chunk_sum(start, chunk)) / steps


def _window_keys_decode(m: ModelSpec, start: np.ndarray, steps: np.ndarray) -> np.ndarray | float:
    """Mean keys a window (or chunked) layer attends to per decode step across a generation from `start` tokens."""
    if not m.sliding_window:
        return 0
    w = m.sliding_window
    return _mean_chunked(start, steps, w.window_tokens) if w.chunked else _mean_capped(start, steps, w.window_tokens)


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


RATE_CLASSES = ("gemm", "attention")  # which achievable FLOP rate an operator's math runs at


@dataclass(frozen=True, eq=False)
class OperatorWork:
    """One operator of a step, per GPU, before any rate: FLOPs, bytes by kind, and the FLOP rate class its math runs
    at ('gemm': the GEMM precision; 'attention': attention kernels, norms and recurrences at bf16)."""

    name: str
    flops: np.ndarray
    weight_bytes: np.ndarray
    kv_bytes: np.ndarray
    activation_bytes: np.ndarray
    rate: str

    @property
    def bytes(self) -> np.ndarray:
        return self.weight_bytes + self.kv_bytes + self.activation_bytes

    def work(self, **changes) -> OperatorWork:
        """This operator's work (rate-free), with some fields changed: re-time it with time_operator."""
        return OperatorWork(**{f.name: getattr(self, f.name) for f in fields(OperatorWork)} | changes)


@dataclass(frozen=True, eq=False)
class OperatorCost(OperatorWork):
    """An operator's work timed at a set of Rates: time = max(memory time, compute time), per GPU."""

    time_s: np.ndarray
    memory_time_s: np.ndarray
    compute_time_s: np.ndarray

    @property
    def arithmetic_intensity_flop_per_byte(self) -> np.ndarray:
        return self.flops / np.maximum(self.bytes, 1e-30)

    @property
    def compute_bound(self) -> np.ndarray:
        return self.compute_time_s > self.memory_time_s


@dataclass(frozen=True)
class Rates:
    """What one GPU achieves for one (hardware, profile, scenario): the bandwidths each kind of byte moves at
    (bytes/s: the profile's fraction of peak, capped by its bandwidth limit, weights slowed by the low-bit factor
    where weights are unpacked, KV by the KV factor) and the FLOP/s of each rate class, with the precisions used."""

    memory_bytes_per_s: float  # achievable bandwidth (activations move at it)
    weight_bytes_per_s: float
    kv_bytes_per_s: float
    gemm_flop_per_s: float
    attention_flop_per_s: float
    gemm_precision: str
    attention_precision: str

    def flop_per_s(self, rate: str) -> float:
        """FLOP/s of a rate class ('gemm' or 'attention')."""
        return self.attention_flop_per_s if rate == "attention" else self.gemm_flop_per_s


def roofline_time_s(flops, nbytes, flop_per_s, bytes_per_s) -> np.ndarray:
    """An operator's roofline time: max(bytes / bandwidth, FLOPs / FLOP rate), seconds."""
    return np.maximum(np.asarray(nbytes) / bytes_per_s, np.asarray(flops) / flop_per_s)


def time_operator(op: OperatorWork, rates: Rates) -> OperatorCost:
    """Time one operator at `rates`: each kind of byte at its bandwidth, FLOPs at its class's rate, the max of both."""
    mem = (
        op.weight_bytes / rates.weight_bytes_per_s
        + op.kv_bytes / rates.kv_bytes_per_s
        + op.activation_bytes / rates.memory_bytes_per_s
    )
    comp = op.flops / rates.flop_per_s(op.rate)
    return OperatorCost(
        op.name, op.flops, op.weight_bytes, op.kv_bytes, op.activation_bytes, op.rate, np.maximum(mem, comp), mem, comp
    )


def _operator(name, flops, weight_b, kv_b, act_b, attention: bool = False) -> OperatorWork:
    return OperatorWork(name, flops, weight_b, kv_b, act_b, "attention" if attention else "gemm")


def kv_reads_per_kv_head(m: ModelSpec, profile: EfficiencyProfile) -> float:
    """Times each softmax-attention KV head is read per step: 1 + f (H/K - 1), f = profile.kv_gqa_reread_fraction.

    f = 0 (fused / flash attention) reads each KV head once for its whole query-head group; f = 1 (attention built
    from separate matmuls over a broadcast cache) reads it once per query head. The MLA latent is read once."""
    if m.mla or m.compressed_attention:
        return 1.0
    return 1.0 + profile.kv_gqa_reread_fraction * (m.num_heads / m.num_kv_heads - 1.0)


@dataclass(frozen=True, eq=False)
class StepWork:
    """What one step asks of the model, before it is split over GPUs: tokens through the GEMMs, the attention math
    and cache traffic, the linear-attention state traffic and the LM-head rows. Fields add (a continuous-batching
    step is decode work + prefill-chunk work) and scale (a GPU's share of the sequences under data parallelism)."""

    tokens: np.ndarray  # tokens through every projection / MLP / expert GEMM
    attention_flops: np.ndarray  # 2 H (qk + pv) x attended keys, summed over the step's queries
    attention_activation_bytes: np.ndarray  # queries and outputs of the attention kernels
    kv_bytes: np.ndarray  # KV cache read + written (before GQA re-reads and sharding)
    linear_flops: np.ndarray  # linear-attention (Gated DeltaNet) recurrence
    linear_state_bytes: np.ndarray
    linear_activation_bytes: np.ndarray
    head_tokens: np.ndarray  # rows through the LM head (one per decode token, one per finished prompt)

    def __add__(self, other: StepWork) -> StepWork:
        return StepWork(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(StepWork)))

    def scaled(self, factor: np.ndarray | float) -> StepWork:
        return StepWork(*(getattr(self, f.name) * factor for f in fields(StepWork)))


def _indexer(m: ModelSpec) -> tuple[int, int, int] | None:
    """(index heads, index head dim, layers with an indexer) of a lightning indexer (DSA's or DeepSeek-V4 CSA's)."""
    if m.sparse_attention:
        sa = m.sparse_attention
        return sa.index_heads, sa.index_head_dim, m.num_layers - m.num_linear_layers
    if m.compressed_attention:
        c = m.compressed_attention
        return c.index_heads, c.index_head_dim, c.csa_layers
    return None


def _attention_dims(m: ModelSpec, *, prefill: bool) -> tuple[int, int]:
    """(qk, pv) dims per head: decode with MLA uses the absorbed form over the latent; prefill expands the heads."""
    if not m.mla:
        return m.head_dim, m.head_dim
    a = m.mla
    if prefill and not m.sparse_attention:  # DSA runs MLA in its MQA (absorbed) form in both phases
        return a.qk_nope_head_dim + a.qk_rope_head_dim, a.v_head_dim
    return a.kv_lora_rank + a.qk_rope_head_dim, a.kv_lora_rank


def _work(m: ModelSpec, kvb: float, *, tokens, keys_per_query_total, kv_traffic, head_tokens, state_traffic,
          prefill: bool, index_keys_total=0.0) -> StepWork:  # fmt: skip
    """A StepWork from its token count, the keys attended summed over all queries, and its cache traffic.

    DSA (m.sparse_attention): index_keys_total, the cached tokens the lightning indexer scores summed over all
    queries and layers, adds 2 x index_heads x (index_head_dim + 1) FLOPs per scored token (a dot product per index
    head, then the ReLU-weighted sum over heads) and the indexer queries' activations; keys_per_query_total then
    counts only the top-k keys the attention itself reads."""
    L_attn = m.num_layers - m.num_linear_layers
    qk_dim, pv_dim = _attention_dims(m, prefill=prefill)
    zero = 0 * tokens
    if m.linear_attention:
        la = m.linear_attention
        lin_flops = tokens * 6 * la.num_layers * la.num_value_heads * la.key_head_dim * la.value_head_dim
        lin_act = tokens * la.num_layers * la.num_value_heads * la.value_head_dim * ACTIVATION_BYTES * 2
    else:
        lin_flops = lin_act = zero
    attention_flops = 2 * m.num_heads * (qk_dim + pv_dim) * keys_per_query_total
    attention_act = tokens * L_attn * m.num_heads * qk_dim * ACTIVATION_BYTES * 2
    if (ix := _indexer(m)) is not None:
        heads, dim, layers = ix
        attention_flops = attention_flops + 2 * heads * (dim + 1) * index_keys_total
        attention_act = attention_act + tokens * layers * heads * dim * ACTIVATION_BYTES
    return StepWork(
        tokens=tokens,
        attention_flops=attention_flops,
        attention_activation_bytes=attention_act,
        kv_bytes=kv_traffic,
        linear_flops=lin_flops,
        linear_state_bytes=state_traffic + zero,
        linear_activation_bytes=lin_act,
        head_tokens=head_tokens + zero,
    )


def mean_decode_cache_tokens(context_tokens, output_tokens) -> np.ndarray:
    """Mean tokens in a sequence's cache over its decode steps, the cache an average step reads (a full-attention
    layer's): context + (steps + 1) / 2, steps = max(output_tokens - 1, 1) (the first token comes from prefill).
    4K context, 1K output: 4,096 + 512 = 4,608."""
    steps = np.maximum(np.asarray(output_tokens) - 1, 1)
    return context_tokens + (steps + 1) / 2


def decode_work(m: ModelSpec, s: Scenario, *, sequences=None, cache_tokens=None, queries_per_sequence=1.0) -> StepWork:
    """One decode step of `sequences` (default s.batch), each with `queries_per_sequence` new tokens (1; k + 1 for a
    speculative verify step, whose kernel reads each sequence's cache once) over a cache of `cache_tokens` (default:
    the mean over the generation, s.context_tokens + (steps + 1) / 2, window layers capped at their window, chunked
    layers at their position in the chunk).

    DSA: the indexer reads every cached token's index key; the attention reads (and computes over) the latents of only
    min(T, top_k) selected tokens per query (the verify step's queries share one read per sequence)."""
    kvb = s.kv_cache.bytes_per_element
    B = s.batch if sequences is None else sequences
    q = queries_per_sequence
    L_attn = m.num_layers - m.num_linear_layers
    kv_layer = kv_bytes_per_token_per_layer(m, kvb)
    steps = np.maximum(s.output_tokens - 1, 1)  # decode steps; the first token comes from prefill
    if cache_tokens is None:
        full_keys = mean_decode_cache_tokens(s.context_tokens, s.output_tokens)
        window_keys = _window_keys_decode(m, s.context_tokens, steps)
    elif m.sliding_window and m.sliding_window.chunked:
        full_keys = cache_tokens
        window_keys = np.mod(np.maximum(cache_tokens, 1) - 1, m.sliding_window.window_tokens) + 1
    else:
        full_keys = cache_tokens
        window_keys = np.minimum(cache_tokens, m.sliding_window.window_tokens) if m.sliding_window else 0
    if m.compressed_attention:
        return _compressed_decode_work(m, kvb, B=B, q=q, cache_tokens=cache_tokens, s=s, steps=steps)
    if m.sparse_attention:
        top_k = m.sparse_attention.top_k_tokens
        selected = (
            _mean_capped(s.context_tokens, steps, top_k) if cache_tokens is None else np.minimum(full_keys, top_k)
        )
        return _sparse_work(m, kvb, B=B, q=q, full_keys=full_keys, selected=selected, window_keys=window_keys)
    read = m.num_full_attention_layers * full_keys + m.num_window_layers * window_keys
    keys = m.num_full_attention_layers * full_keys + m.num_window_layers * window_keys
    return _work(
        m,
        kvb,
        tokens=B * q,
        keys_per_query_total=B * q * keys,
        kv_traffic=B * kv_layer * (read + L_attn * q),  # read the cache once, write the new tokens' K/V
        head_tokens=B * q,
        state_traffic=B * linear_state_bytes(m, kvb) * 2,  # decode reads and writes the state every step
        prefill=False,
    )


def _sparse_work(m: ModelSpec, kvb: float, *, B, q, full_keys, selected, window_keys) -> StepWork:
    """A DSA decode step: B sequences x q queries; every full layer's indexer scores full_keys cached tokens, its
    attention reads the latents of `selected` of them; each sequence's cache (latent + index key) is read once."""
    L_attn = m.num_layers - m.num_linear_layers
    L_full, L_window = m.num_full_attention_layers, m.num_window_layers
    index_b = _index_key_elements(m) * kvb  # bytes of one index key
    latent_b = kv_bytes_per_token_per_layer(m, kvb) - index_b
    keys = L_full * selected + L_window * window_keys
    return _work(
        m,
        kvb,
        tokens=B * q,
        keys_per_query_total=B * q * keys,
        kv_traffic=B * (latent_b * keys + index_b * L_full * full_keys + (latent_b + index_b) * L_attn * q),
        head_tokens=B * q,
        state_traffic=B * linear_state_bytes(m, kvb) * 2,
        prefill=False,
        index_keys_total=B * q * L_full * full_keys,
    )


def _compressed_keys(m: ModelSpec, *, mean_from=None, steps=None, cache_tokens=None) -> tuple:
    """DeepSeek-V4 decode, per query: (entries attended summed over layers, index keys scored summed over layers),
    at a cache of cache_tokens, or averaged over a generation of `steps` steps from mean_from tokens. A CSA layer
    attends to min(T / csa_compression, top_k) selected entries and its window, scoring all T / csa_compression index
    keys; an HCA layer to its T / hca_compression entries and its window; a window-only layer to its window."""
    c = m.compressed_attention
    W, rc, rh = c.window_tokens, c.csa_compression, c.hca_compression
    if cache_tokens is None:
        T = mean_from + (steps + 1) / 2
        window = _mean_capped(mean_from, steps, W)
        selected = _mean_capped(mean_from, steps, rc * c.top_k_tokens) / rc
    else:
        T = cache_tokens
        window = np.minimum(T, W)
        selected = np.minimum(T / rc, c.top_k_tokens)
    entries = c.csa_layers * selected + c.hca_layers * T / rh + m.num_layers * window
    return entries, c.csa_layers * T / rc


def _compressed_decode_work(m: ModelSpec, kvb: float, *, B, q, cache_tokens, s: Scenario, steps) -> StepWork:
    """A DeepSeek-V4 decode step: B sequences x q queries; each sequence's selected entries, compressed entries,
    window and index keys read once; each new token writes its window entry in every layer and its share of the
    compressed entries."""
    entries, index_keys = _compressed_keys(m, mean_from=s.context_tokens, steps=steps, cache_tokens=cache_tokens)
    c = m.compressed_attention
    written = m.num_layers * m.head_dim + _compressed_elements_per_token(m)
    return _work(
        m,
        kvb,
        tokens=B * q,
        keys_per_query_total=B * q * entries,
        kv_traffic=B * kvb * (m.head_dim * entries + c.index_head_dim * index_keys + written * q),
        head_tokens=B * q,
        state_traffic=0.0,
        prefill=False,
        index_keys_total=B * q * index_keys,
    )


def _compressed_prefill_keys(m: ModelSpec, prompt) -> tuple:
    """DeepSeek-V4 prefill of one prompt: (entries attended, index keys scored), summed over query positions and
    layers (query i: CSA min(i / csa_compression, top_k) + min(i, window), HCA i / hca_compression + min(i, window))."""
    c = m.compressed_attention
    rc, rh = c.csa_compression, c.hca_compression
    window = _prefill_attended(prompt, c.window_tokens)
    selected = _prefill_attended(prompt, rc * c.top_k_tokens) / rc
    full = _prefill_attended(prompt, None)
    entries = c.csa_layers * selected + c.hca_layers * full / rh + m.num_layers * window
    return entries, c.csa_layers * full / rc


def prefill_work(m: ModelSpec, s: Scenario, *, prompts=None, prompt_tokens=None, chunk_tokens=None) -> StepWork:
    """Prefill of `prompts` (default s.batch) prompts of `prompt_tokens` (default max(s.context_tokens, 1)) tokens.

    Each prompt's K/V is written once and read back once by flash attention; with chunked prefill (chunk_tokens)
    every chunk also reads the cache of the prompt's earlier chunks: K x c (c - 1) / 2 more tokens for c chunks.
    Chunked-attention layers attend within their chunk; with DSA each query attends to min(i, top_k) keys and the
    indexer scores all i earlier tokens."""
    kvb = s.kv_cache.bytes_per_element
    B = s.batch if prompts is None else prompts
    prompt = np.maximum(s.context_tokens, 1) if prompt_tokens is None else prompt_tokens
    L_attn = m.num_layers - m.num_linear_layers
    kv_layer = kv_bytes_per_token_per_layer(m, kvb)
    full_keys = _prefill_attended(prompt, None)  # per sequence, summed over query positions
    if m.sliding_window and m.sliding_window.chunked:
        window_keys = _chunk_sum(prompt, m.sliding_window.window_tokens)
    else:
        window_keys = _prefill_attended(prompt, m.sliding_window.window_tokens) if m.sliding_window else 0
    index_keys = 0.0
    if m.sparse_attention:
        index_keys = B * m.num_full_attention_layers * full_keys
        full_keys = _prefill_attended(prompt, m.sparse_attention.top_k_tokens)
    keys = m.num_full_attention_layers * full_keys + m.num_window_layers * window_keys
    if m.compressed_attention:
        keys, per_prompt_index = _compressed_prefill_keys(m, prompt)
        index_keys = B * per_prompt_index
    reread = 0.0
    if chunk_tokens is not None:
        c = np.maximum(np.ceil(prompt / chunk_tokens), 1)
        reread = np.minimum(chunk_tokens, prompt) * c * (c - 1) / 2
    return _work(
        m,
        kvb,
        tokens=B * prompt,
        keys_per_query_total=B * keys,
        kv_traffic=B * ((prompt * 2 + reread) * kv_layer * L_attn + compressed_window_bytes(m, prompt, kvb)),
        head_tokens=B,  # the LM head only runs on each prompt's last position
        state_traffic=B * linear_state_bytes(m, kvb),
        prefill=True,
        index_keys_total=index_keys,
    )


def expected_max_std_normal(n: np.ndarray) -> np.ndarray:
    """E[max of n independent standard normals] ~ Phi^-1((n - 0.375) / (n + 0.25)) (Blom 1958); 0 for n = 1.
    Phi^-1 by Abramowitz & Stegun 26.2.23 (|error| < 4.5e-4)."""
    p = (np.asarray(n, dtype=float) - 0.375) / (np.asarray(n, dtype=float) + 0.25)
    u = np.sqrt(-2.0 * np.log(1.0 - p))
    z = u - (2.515517 + 0.802853 * u + 0.010328 * u**2) / (1 + 1.432788 * u + 0.189269 * u**2 + 0.001308 * u**3)
    return np.where(n > 1, np.maximum(z, 0.0), 0.0)


def expert_parallel_load(num_experts: int, top_k: int, tokens: np.ndarray, num_gpus: np.ndarray):
    """(experts touched, routed token slots) on the busiest of num_gpus GPUs holding num_experts / num_gpus experts
    each, with `tokens` tokens routed uniformly to top_k experts each.

    Mean per GPU: E/N * p experts (p = 1 - (1 - k/E)^tokens, the chance an expert is touched) and tokens k / N
    slots. The busiest GPU sits about z_N standard deviations above the mean (z_N = expected maximum of N standard
    normals; binomial spreads), capped at what it holds. Uniform routing is the optimistic case: real routers are
    skewed, and engines rebalance with redundant experts (DeepSeek's EPLB)."""
    E, k, N = float(num_experts), float(top_k), np.asarray(num_gpus, dtype=float)
    p = 1.0 - (1.0 - k / E) ** np.asarray(tokens, dtype=float)
    per_gpu = E / N
    z = expected_max_std_normal(N)
    touched = np.minimum(per_gpu * p + z * np.sqrt(per_gpu * p * (1 - p)), per_gpu)
    slots = np.asarray(tokens, dtype=float) * k
    busiest = np.minimum(slots / N + z * np.sqrt(slots * (1 / N) * (1 - 1 / N)), slots)
    return touched, busiest


def data_parallel_share(sequences: np.ndarray, num_gpus: np.ndarray) -> np.ndarray:
    """Share of the sequences on the busiest GPU when `sequences` spread over num_gpus: ceil(B / N) / B."""
    B = np.maximum(np.asarray(sequences, dtype=float), 1e-300)
    return np.minimum(np.ceil(B / num_gpus) / B, 1.0)


def step_operator_work(
    m: ModelSpec,
    s: Scenario,
    *,
    prefill: bool,
    kv_reads: float = 1.0,
    work: StepWork | None = None,
    local: StepWork | None = None,
) -> list[OperatorWork]:
    """Operators of one step, per GPU, rate-free (time them with time_operator): a decode step (B new tokens), a prefill of B prompts of max(T, 1) tokens, or
    any `work` (e.g. decode + prefill chunks). kv_reads scales the attention operator's cache traffic (see
    kv_reads_per_kv_head).

    Layouts (s.parallelism). tp: every weight matrix split N ways, every GPU sees every token, the KV cache split
    over min(N, K) KV heads (MLA: replicated). tp-ep: the same, except routed experts: each GPU holds E/N whole
    experts and runs the token slots routed to them (the busiest GPU sets the time, expert_parallel_load). dp-ep:
    attention, dense MLP, shared experts, embedding and LM head replicated on every GPU, each running its own
    sequences (`local`: the busiest GPU's share of the work, by default work x data_parallel_share), the KV cache
    split by sequences; routed experts as tp-ep."""
    wb, ab = s.weights.bytes_per_element, ACTIVATION_BYTES
    N = s.num_gpus
    if work is None:
        work = prefill_work(m, s) if prefill else decode_work(m, s)
    dp = s.parallelism == "dp-ep"
    ep = s.parallelism in ("tp-ep", "dp-ep") and m.moe is not None
    if dp:
        a = work.scaled(data_parallel_share(s.batch, N)) if local is None else local
        div = 1.0  # weights replicated; each GPU runs its own tokens
        kv_div = 1.0  # each GPU holds only its own sequences' cache
        heads_div = 1.0
    else:
        a, div, kv_div = work, N, kv_shards(m, N)
        heads_div = np.minimum(N, m.linear_attention.num_value_heads) if m.linear_attention else 1.0
    tokens = a.tokens
    D, V = m.d_model, m.vocab_size
    c = param_counts(m)
    L_attn = m.num_layers - m.num_linear_layers
    qkv_a, o_a = _attention_layer_params(m)
    qkv_l, o_l = _linear_layer_params(m)
    zero = 0 * tokens

    ops = [
        _operator("embedding", zero, tokens * D * wb / div, zero, tokens * D * ab),
        _operator(
            "qkv_projection",
            2 * tokens * (L_attn * qkv_a + m.num_linear_layers * qkv_l) / div,
            (L_attn * qkv_a + m.num_linear_layers * qkv_l) * wb / div,
            zero,
            tokens * m.num_layers * D * ab * 2,
        ),
        _operator(
            "attention",
            a.attention_flops / div,
            zero,
            a.kv_bytes * kv_reads / kv_div,
            a.attention_activation_bytes / div,
            attention=True,
        ),
    ]
    if m.linear_attention:
        ops.append(
            _operator(
                "linear_attention",
                a.linear_flops / heads_div,
                zero,
                a.linear_state_bytes / heads_div,
                a.linear_activation_bytes / heads_div,
                attention=True,
            )
        )
    ops.append(
        _operator(
            "output_projection",
            2 * tokens * (L_attn * o_a + m.num_linear_layers * o_l) / div,
            (L_attn * o_a + m.num_linear_layers * o_l) * wb / div,
            zero,
            tokens * m.num_layers * D * ab * 2,
        )
    )
    if c["mlp"]:
        n_dense = m.moe.num_dense_layers if m.moe else m.num_layers
        ops.append(
            _operator(
                "mlp",
                2 * tokens * c["mlp"] / div,
                c["mlp"] * wb / div + zero,
                zero,
                tokens * n_dense * (2 * D + (_mlp_matrices(m) - 1) * m.d_ff) * ab / div,
            )
        )
    if m.moe:
        e = m.moe
        per_expert = _mlp_matrices(m) * D * e.expert_d_ff  # parameters of one expert in one layer
        per_slot_act = m.num_moe_layers * (2 * D + (_mlp_matrices(m) - 1) * e.expert_d_ff) * ab
        router_flops = 2 * tokens * c["router"] / div
        if ep:
            touched, slots = expert_parallel_load(e.num_experts, e.experts_per_token, work.tokens, N)
            expert_flops = 2 * slots * per_expert * m.num_moe_layers
            expert_bytes = m.num_moe_layers * touched * per_expert * wb
            expert_act = slots * per_slot_act
        else:
            touched = expected_experts_touched(e.num_experts, e.experts_per_token, work.tokens)
            expert_flops = 2 * work.tokens * e.experts_per_token * per_expert * m.num_moe_layers / N
            expert_bytes = m.num_moe_layers * touched * per_expert * wb / N
            expert_act = work.tokens * e.experts_per_token * per_slot_act / N
        ops.append(
            _operator(
                "experts",
                expert_flops + router_flops,
                expert_bytes + c["router"] * wb / div,
                zero,
                expert_act,
            )
        )
        if c["shared_experts"]:
            ops.append(
                _operator(
                    "shared_experts",
                    2 * tokens * c["shared_experts"] / div,
                    c["shared_experts"] * wb / div + zero,
                    zero,
                    tokens * m.num_moe_layers * 2 * D * ab / div,
                )
            )
    ops.append(
        _operator(
            "norms",
            8 * tokens * D * (2 * m.num_layers + 1),
            c["norms"] * wb + zero,
            zero,
            tokens * D * (2 * m.num_layers + 1) * ab * 2,
            attention=True,
        )
    )
    head = a.head_tokens
    ops.append(
        _operator(
            "lm_head",
            2 * head * V * D / div,
            V * D * wb / div + zero,
            zero,
            head * (D + V / div) * ab * 2,
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

    def share(self, operator: str) -> np.ndarray:
        """The named operator's fraction of the step's time (0 where the step has none)."""
        t = sum((o.time_s for o in self.operators if o.name == operator), np.zeros_like(self.time_s))
        return t / np.maximum(self.time_s, 1e-30)

    @staticmethod
    def mix(a: StepResult, b: StepResult, weight_b: np.ndarray) -> StepResult:
        """The mean of two kinds of step, b taking `weight_b` of the steps: every field (each operator's, each
        bucket's) averaged the same way, so the decomposition still sums to the mean time."""
        w = np.asarray(weight_b, dtype=float)

        def avg(x, y):
            return (1.0 - w) * x + w * y

        ops = [
            OperatorCost(
                o.name,
                *(avg(getattr(o, f), getattr(p, f)) for f in ("flops", "weight_bytes", "kv_bytes", "activation_bytes")),
                o.rate,
                *(avg(getattr(o, f), getattr(p, f)) for f in ("time_s", "memory_time_s", "compute_time_s")),
            )
            for o, p in zip(a.operators, b.operators, strict=True)
        ]
        return StepResult(
            operators=ops,
            breakdown_s={k: avg(a.breakdown_s[k], b.breakdown_s[k]) for k in BUCKETS},
            time_s=avg(a.time_s, b.time_s),
            flops=avg(a.flops, b.flops),
            bytes=avg(a.bytes, b.bytes),
            flop_time_s=avg(a.flop_time_s, b.flop_time_s),
            memory_time_s=avg(a.memory_time_s, b.memory_time_s),
        )


def is_weight_only(weight_bits: float, gemm_precision: str) -> bool:
    """Weights stored below 16 bits feeding math at 16 bits or wider: the kernel unpacks (dequantizes) each weight.
    int8-wo, int4, GPTQ/AWQ, GGUF quants, and FP8/FP4 on hardware without those units; not W8A8 / native FP8 / FP4."""
    return weight_bits < 16 and gemm_precision in ("bf16", "fp16", "tf32", "fp32")


@dataclass(frozen=True)
class AttainablePrior:
    """What a chip family reaches where no microbenchmark of the chip is published: fractions of peak HBM bandwidth
    and of peak dense GEMM FLOP/s (by compute precision; 'other' for the rest), and where the prior comes from."""

    bandwidth_fraction: float
    flop_fraction: dict[str, float]
    basis: str

    def flop(self, precision: str) -> float:
        return self.flop_fraction.get(precision, self.flop_fraction["other"])


# Priors by vendor (the chip family's software stack: cuBLASLt / hipBLASLt / ...), from the published
# microbenchmarks in data/hardware.yaml (attainable_source) and data/README.md, section "Attainable rates".
ATTAINABLE_PRIORS = {
    "NVIDIA": AttainablePrior(
        0.90,
        {"fp4": 0.80, "other": 0.90},
        "NVIDIA prior: STREAM-class copies reach ~90% of HBM peak; cuBLASLt dense GEMM 0.97-1.0 of peak (bf16, "
        "fp8) and 0.86 (fp4) on the two NVIDIA chips measured in one table, taken 10% lower for sustained clocks",
    ),
    "AMD": AttainablePrior(
        0.81,
        {"other": 0.45},
        "AMD prior: MI300X reaches ~81% of peak HBM bandwidth and ~45% of peak GEMM FLOP/s (fp8, bf16, fp16)",
    ),
}
DEFAULT_ATTAINABLE = AttainablePrior(
    0.85, {"other": 0.70}, "prior for chips of other vendors: no microbenchmark published (a documented guess)"
)


def attainable_prior(hw: Hardware) -> AttainablePrior:
    """The chip family's prior (by vendor), DEFAULT_ATTAINABLE for other vendors."""
    return ATTAINABLE_PRIORS.get(hw.vendor, DEFAULT_ATTAINABLE)


def attainable_bandwidth_bytes_per_s(hw: Hardware) -> float:
    """HBM/DRAM bandwidth the chip measurably reaches (bytes/s): its published microbenchmark, else the prior."""
    frac = hw.attainable_bandwidth_fraction
    return hw.memory_bandwidth_bytes_per_s * (attainable_prior(hw).bandwidth_fraction if frac is None else frac)


def attainable_flop_per_s(hw: Hardware, precision: str) -> float:
    """Dense GEMM FLOP/s the chip measurably reaches at a compute precision it has: published, else the prior."""
    frac = hw.attainable_flop_fraction.get(precision)
    return hw.dense_flop_per_s[precision] * (attainable_prior(hw).flop(precision) if frac is None else frac)


def attainable_source(hw: Hardware, rate: str) -> str:
    """Where the chip's attainable `rate` ('bandwidth' or a compute precision it has) comes from: 'published' (a
    microbenchmark of the chip), 'prior' (its vendor family's, ATTAINABLE_PRIORS) or 'guess' (DEFAULT_ATTAINABLE:
    no data on the chip or its family)."""
    if attainable_published(hw).get(rate):
        return "published"
    return "prior" if hw.vendor in ATTAINABLE_PRIORS else "guess"


def attainable_published(hw: Hardware) -> dict[str, bool]:
    """Which attainable rates are published for the chip ('bandwidth', and each precision) rather than priors."""
    return {"bandwidth": hw.attainable_bandwidth_fraction is not None} | {
        p: p in hw.attainable_flop_fraction for p in hw.dense_flop_per_s
    }


def rates_for(hw: Hardware, profile: EfficiencyProfile, s: Scenario) -> Rates:
    """The achievable per-GPU rates a scenario runs at (the one place the profile's fractions, bandwidth limit and
    low-bit factor meet the chip), with the (GEMM, attention) precisions actually used.

    The chip's attainable rates (published microbenchmarks, else its family's prior: attainable_*) are what any
    software can reach on it; the profile's fractions are the engine's share of those. The ideal profile is the
    physical bound: it runs at the datasheet peaks."""
    gemm = resolve_compute(s.compute_requested, hw.dense_flop_per_s)
    attn = resolve_compute("bf16", hw.dense_flop_per_s)
    if profile.is_ideal:
        peak_bw, gemm_peak, attn_peak = (
            hw.memory_bandwidth_bytes_per_s,
            hw.dense_flop_per_s[gemm],
            hw.dense_flop_per_s[attn],
        )
    else:
        peak_bw = attainable_bandwidth_bytes_per_s(hw)
        gemm_peak, attn_peak = attainable_flop_per_s(hw, gemm), attainable_flop_per_s(hw, attn)
    bw = min(peak_bw * profile.bandwidth_efficiency, profile.bandwidth_limit_bytes_per_s)
    lowbit = profile.lowbit_bandwidth_efficiency if is_weight_only(s.weights.bits, gemm) else 1.0
    return Rates(
        memory_bytes_per_s=bw,
        weight_bytes_per_s=bw * lowbit,
        kv_bytes_per_s=bw * profile.kv_bandwidth_efficiency,
        gemm_flop_per_s=gemm_peak * profile.flops_efficiency,
        attention_flop_per_s=attn_peak * profile.flops_efficiency,
        gemm_precision=gemm,
        attention_precision=attn,
    )


def link_peak_bytes_per_s(hw: Hardware) -> float:
    """The chip's GPU-to-GPU bandwidth per direction (bytes/s): its interconnect, or PCIe Gen4 x16 if it lists none."""
    return hw.interconnect_bytes_per_s or PCIE_FALLBACK_BYTES_PER_S


def link_bytes_per_s(hw: Hardware, profile: EfficiencyProfile) -> float:
    """Achievable GPU-to-GPU bandwidth per direction: the link's peak x the profile's interconnect efficiency."""
    return link_peak_bytes_per_s(hw) * profile.interconnect_efficiency


def alltoall_bytes(m: ModelSpec, tokens: np.ndarray, num_gpus: np.ndarray, element_bytes: float) -> np.ndarray:
    """Bytes one GPU sends in one all-to-all of an MoE layer (dispatch or combine): its tokens x top_k x d_model
    elements, of which (N - 1)/N go to experts on other GPUs. 0 for a dense model."""
    if not m.moe:
        return 0 * np.asarray(tokens, dtype=float)
    N = np.asarray(num_gpus, dtype=float)
    return tokens * m.moe.experts_per_token * m.d_model * element_bytes * (N - 1) / N


def head_split_alternatives(m: ModelSpec, num_gpus: int, parallelism: str = "tp") -> tuple[int, ...]:
    """When tensor parallelism over num_gpus does not divide the model's attention heads (engines refuse it): the
    nearest GPU counts below and above that do; () when it divides (or attention is data-parallel: dp-ep)."""
    n = int(num_gpus)
    if parallelism == "dp-ep" or m.num_heads % n == 0:
        return ()
    divisors = [d for d in range(1, m.num_heads + 1) if m.num_heads % d == 0]
    return (max(d for d in divisors if d < n), *[d for d in divisors if d > n][:1])


def scale_up_domain_gpus(hw: Hardware) -> int:
    """GPUs sharing the chip's scale-up domain: the catalog's; unlisted, DEFAULT_DOMAIN_GPUS (a server of 8) for a chip
    with a GPU-to-GPU link, else 1 (a chip with none, an Apple M-series Mac: one device to a machine; an 8-chip domain
    had been made up for it)."""
    if hw.scale_up_domain_gpus:
        return int(hw.scale_up_domain_gpus)
    return DEFAULT_DOMAIN_GPUS if hw.interconnect_bytes_per_s else 1


def gpus_per_rack(hw: Hardware) -> int:
    """Accelerators in one physical rack: the catalog's rack size where a domain spans racks (a TPU7x rack: 64 of a
    9,216-chip pod), else the scale-up domain (an NVL72 rack: 72; an HGX server: 8)."""
    return int(hw.rack_gpus or scale_up_domain_gpus(hw))


def scale_out_peak_bytes_per_s(hw: Hardware) -> float:
    """The NIC bandwidth per GPU per direction across domains (bytes/s): the catalog's, or one 400 Gb/s NIC per GPU
    (DEFAULT_SCALE_OUT_BYTES_PER_S, the HGX reference design) if unlisted."""
    return hw.scale_out_bytes_per_s or DEFAULT_SCALE_OUT_BYTES_PER_S


def scale_out_latency_s(hw: Hardware) -> float:
    """One message's hop across scale-up domains (s): the catalog's, or DEFAULT_SCALE_OUT_LATENCY_S if unlisted."""
    return DEFAULT_SCALE_OUT_LATENCY_S if hw.scale_out_latency_s is None else hw.scale_out_latency_s


def scale_out_hop_s(hw: Hardware) -> float:
    """What a message pays more to cross domains than to stay inside one (s): the network hop less the scale-up hop
    it replaces (catalog's or the DEFAULT_ ones), at least 0."""
    up = DEFAULT_SCALE_UP_LATENCY_S if hw.scale_up_latency_s is None else hw.scale_up_latency_s
    return max(scale_out_latency_s(hw) - up, 0.0)


def alltoall_bytes_per_moe_layer(m: ModelSpec, tokens: np.ndarray, num_gpus: np.ndarray) -> np.ndarray:
    """Bytes one GPU sends per MoE layer per step under expert parallelism: dispatch (DISPATCH_BYTES per element)
    plus combine (bf16) of its `tokens` x top_k x d_model, the (N - 1)/N bound for other GPUs."""
    return alltoall_bytes(m, tokens, num_gpus, DISPATCH_BYTES) + alltoall_bytes(m, tokens, num_gpus, ACTIVATION_BYTES)


@dataclass(frozen=True, eq=False)
class Collectives:
    """The collectives of one step, per GPU, before any rate: how many (each pays the profile's per-collective
    latency), the bytes each one moves over the GPU's links (ring factor included), how many GPUs take part and the
    kind ('all_reduce': ring, hierarchical across scale-up domains; 'all_to_all': MoE dispatch / combine)."""

    count: np.ndarray
    bytes_each: np.ndarray
    group_gpus: np.ndarray | float = 1.0
    kind: str = "all_reduce"


def ep_alltoall(m: ModelSpec, tokens_per_gpu, ep_gpus, moe_layers=1) -> Collectives:
    """The all-to-alls of `moe_layers` MoE layers under expert parallelism over `ep_gpus` GPUs, each sending its
    `tokens_per_gpu` tokens: per layer a dispatch and a combine, each costed as half the layer's bytes
    (alltoall_bytes_per_moe_layer: the time of the pair is the same, latency and bytes being additive)."""
    moved = alltoall_bytes_per_moe_layer(m, tokens_per_gpu, ep_gpus)
    return Collectives(2 * np.asarray(moe_layers), moved / 2, ep_gpus, "all_to_all")


def collectives(m: ModelSpec, s: Scenario, work: StepWork, local: StepWork | None = None) -> Collectives:
    """The collectives of one step by layout.

    tp and tp-ep: two ring all-reduces per layer of the step's tokens x d_model activations, 2 (N-1)/N of the
    message over the link each (after attention, after the MLP / MoE layer: under tp-ep every GPU already holds
    every token after the attention all-reduce, so it picks the slots routed to its own experts without a dispatch,
    and the MoE output is summed by the same all-reduce). dp-ep: per MoE layer an all-to-all dispatch
    (DISPATCH_BYTES per element: FP8, as DeepEP sends) and combine (bf16) of the busiest GPU's tokens x top_k x
    d_model; no collective in dense layers (replicated). None on one GPU."""
    N = s.num_gpus
    if s.parallelism == "dp-ep":
        tokens = (work.scaled(data_parallel_share(s.batch, N)) if local is None else local).tokens
        active = (N > 1) & (m.num_moe_layers > 0)
        return ep_alltoall(m, tokens, N, np.where(active, m.num_moe_layers, 0))
    message = work.tokens * m.d_model * ACTIVATION_BYTES
    return Collectives(np.where(N > 1, 2 * m.num_layers, 0), 2 * (N - 1) / N * message, N, "all_reduce")


def allreduce_latency_s(profile: EfficiencyProfile, group_gpus) -> np.ndarray:
    """One all-reduce's latency over `group_gpus` GPUs (s): the profile's per-collective latency up to
    FITTED_GROUP_GPUS, the groups it was fitted on, and beyond them x log2 N / log2 FITTED_GROUP_GPUS (the depth of
    the tree NCCL uses for small messages)."""
    n = np.maximum(np.asarray(group_gpus, dtype=float), 1.0)
    return profile.allreduce_latency_s * np.maximum(np.log2(n) / np.log2(FITTED_GROUP_GPUS), 1.0)


def collective_time_s(hw: Hardware, profile: EfficiencyProfile, c: Collectives) -> np.ndarray:
    """Time of ONE collective of `c` on the real topology (seconds), by where its GPUs sit.

    Inside one scale-up domain (N <= d): latency + bytes / achievable scale-up bandwidth (the link's peak x the
    profile's interconnect efficiency). The latency is the profile's per-collective one; an all-reduce over more
    GPUs than it was fitted on pays more (allreduce_latency_s: TP32 5/3, TP64 2x the latency of TP8). Across
    domains, the network's hops are added as NCCL's latency model adds them (scale_out_latency_s, scale_out_hop_s):
    - all_to_all: one network hop in place of a scale-up one (scale_out_hop_s); of the bytes a GPU sends to its
      N - 1 peers, (d - 1)/(N - 1) stay in its domain (scale-up) and (N - d)/(N - 1) leave it over its NIC
      (scale-out bandwidth per GPU); both links run at once, the slower sets the time: max(inside / up, outside / out);
    - all_reduce: 2 ceil(log2 k) network hops more (a tree across the k = N / d domains, reduced up and broadcast
      down); hierarchical bytes (NCCL's tree / ring across nodes): reduce-scatter + all-gather inside the domain,
      2 (d - 1)/d x M over scale-up, and a ring across the k domains of each GPU's M / d shard,
      2 (k - 1)/k x M / d over scale-out, M the message (bytes_each = 2 (N - 1)/N x M)."""
    N = np.asarray(c.group_gpus, dtype=float)
    d = float(scale_up_domain_gpus(hw))
    up = link_bytes_per_s(hw, profile)
    out = scale_out_peak_bytes_per_s(hw) * profile.interconnect_efficiency
    latency = allreduce_latency_s(profile, N) if c.kind == "all_reduce" else profile.allreduce_latency_s
    inside = latency + c.bytes_each / up
    if c.kind == "all_to_all":
        peers = np.maximum(N - 1, 1)
        hops = scale_out_hop_s(hw)
        across = np.maximum(c.bytes_each * (d - 1) / peers / up, c.bytes_each * (N - d) / peers / out)
    else:
        parts = allreduce_across_parts_s(hw, profile, N, c.bytes_each * N / np.maximum(2 * (N - 1), 1))
        hops, across = parts["hops"], parts["inside"] + parts["across"]
    within = d >= N  # every GPU of the collective in one scale-up domain
    return np.where(within, inside, latency + hops + across)


def allreduce_across_parts_s(hw: Hardware, profile: EfficiencyProfile, group_gpus, message_bytes) -> dict:
    """One all-reduce of a message over N GPUs that span k = N / d scale-up domains, in its parts (s) beside the
    per-collective latency (allreduce_latency_s): 'inside', reduce-scatter + all-gather in each domain,
    2 (d - 1)/d x M over scale-up; 'across', a ring across the domains of each GPU's M / d shard, 2 (k - 1)/k x M / d
    over scale-out; 'hops', the network hops of the tree across the domains (reduced up, broadcast down),
    2 ceil(log2 k) x scale_out_latency_s (collective_time_s adds them)."""
    N, M = np.asarray(group_gpus, dtype=float), np.asarray(message_bytes, dtype=float)
    d = float(scale_up_domain_gpus(hw))
    k = np.maximum(N / d, 1)
    out = scale_out_peak_bytes_per_s(hw) * profile.interconnect_efficiency
    return {
        "inside": 2 * (d - 1) / d * M / link_bytes_per_s(hw, profile),
        "across": 2 * (k - 1) / k * M / d / out,
        "hops": 2 * np.ceil(np.log2(k)) * scale_out_latency_s(hw),
    }


def communication_s(hw: Hardware, profile: EfficiencyProfile, c: Collectives) -> np.ndarray:
    """Time of a step's collectives: count x the time of one on the real topology (collective_time_s), seconds."""
    return np.where(c.count > 0, c.count * collective_time_s(hw, profile, c), 0.0)


def fused_nvfp4_moe(weights: NumberFormat, gemm_precision: str, hw: Hardware) -> bool:
    """Whether the MoE layers run the fused NVFP4 kernels (Blackwell's, on an NVIDIA GPU): NVFP4 weights feeding the
    chip's FP4 math, not unpacked to wider math (is_weight_only). Another vendor's FP4 chip (MI355X: MXFP4) runs no
    such kernel: its MoE layers pay the profile's full cost (a review: NVFP4 on MI355X had read NVIDIA's)."""
    return weights.name == "nvfp4" and hw.vendor == "NVIDIA" and not is_weight_only(weights.bits, gemm_precision)


def runs_rocm(hw: Hardware) -> bool:
    """Whether the chip's engines run AMD's ROCm kernels (an AMD Instinct GPU): the MoE layers pay the profile's
    rocm_moe_cost_factor."""
    return hw.vendor == "AMD"


def moe_layer_cost_s(profile: EfficiencyProfile, weights: NumberFormat, gemm_precision: str, hw: Hardware) -> float:
    """Fixed cost of one MoE layer in one step (router, top-k, token permutation, grouped-GEMM launches), seconds: the
    profile's, times its NVFP4 fraction where the fused NVFP4 kernels run (fused_nvfp4_moe), times its ROCm factor
    on an AMD GPU (runs_rocm)."""
    fused = fused_nvfp4_moe(weights, gemm_precision, hw)
    rocm = profile.rocm_moe_cost_factor if runs_rocm(hw) else 1.0
    return profile.moe_layer_overhead_s * (profile.nvfp4_moe_cost_fraction if fused else 1.0) * rocm


def moe_cost_s(P: dict, fused_nvfp4: np.ndarray, rocm: np.ndarray) -> np.ndarray:
    """moe_layer_cost_s for many rows at once (the fitters' surrogates): P maps the profile fields to values or
    (rows,) arrays; fused_nvfp4 and rocm are 1 where fused_nvfp4_moe and runs_rocm hold, else 0."""
    nvfp4 = 1.0 + fused_nvfp4 * (P["nvfp4_moe_cost_fraction"] - 1.0)
    return P["moe_layer_overhead_s"] * nvfp4 * (1.0 + rocm * (P["rocm_moe_cost_factor"] - 1.0))


def fixed_overhead_s(
    m: ModelSpec, profile: EfficiencyProfile, weights: NumberFormat, gemm_precision: str, hw: Hardware
) -> float:
    """Fixed cost of one step: per step, per layer, and per MoE layer (moe_layer_cost_s)."""
    return (
        profile.per_token_overhead_s
        + profile.per_layer_overhead_s * m.num_layers
        + moe_layer_cost_s(profile, weights, gemm_precision, hw) * m.num_moe_layers
    )


SEQUENCE_HALF_BATCH = 16.0  # sequences per GPU at which the per-sequence step cost reaches half its ceiling


def sequences_charged(rows_per_gpu) -> np.ndarray:
    """How many sequences' worth of per-sequence step cost r rows per GPU pay: r x h / (r + h), h =
    SEQUENCE_HALF_BATCH. Linear in the first sequences, saturating at h: the measured steps grow with the batch at
    low concurrency more than the roofline's bytes and FLOPs, and not at the large per-GPU batches of disaggregated
    decode pools (a linear cost fitted on single-node runs broke those)."""
    r = np.asarray(rows_per_gpu, dtype=float)
    return r * SEQUENCE_HALF_BATCH / (r + SEQUENCE_HALF_BATCH)


def sequence_overhead_s(profile: EfficiencyProfile, rows_per_gpu) -> np.ndarray:
    """The step cost of the sequences each GPU samples (seconds): per_sequence_overhead_s x sequences_charged(r), r
    the rows per GPU (every sequence of the batch under tensor parallelism, a GPU's share under data-parallel
    attention)."""
    return profile.per_sequence_overhead_s * sequences_charged(rows_per_gpu)


def sampled_rows_per_gpu(s: Scenario, work: StepWork, local: StepWork | None = None) -> np.ndarray:
    """The rows through the LM head on the busiest GPU in a step: every sequence of `work` under tensor
    parallelism; under dp-ep its share (`local`, by default as step_operator_work takes it)."""
    if local is not None:
        return np.asarray(local.head_tokens, dtype=float)
    if s.parallelism == "dp-ep":
        return np.asarray(work.head_tokens, dtype=float) * data_parallel_share(s.batch, s.num_gpus)
    return np.asarray(work.head_tokens, dtype=float)


def step(
    m: ModelSpec,
    hw: Hardware,
    s: Scenario,
    profile: EfficiencyProfile,
    *,
    prefill: bool,
    work: StepWork | None = None,
    local: StepWork | None = None,
) -> StepResult:
    """Time one decode step (mean over the generation), one prefill, or any `work` (a continuous-batching step:
    serving.py), split into the five buckets. `local`: the busiest GPU's share of `work` under dp-ep."""
    rates = rates_for(hw, profile, s)
    if work is None:
        work = prefill_work(m, s) if prefill else decode_work(m, s)
    ops = [
        time_operator(o, rates)
        for o in step_operator_work(
            m, s, prefill=prefill, kv_reads=kv_reads_per_kv_head(m, profile), work=work, local=local
        )
    ]
    shapes = {np.shape(o.time_s) for o in ops}
    shape = shapes.pop() if len(shapes) == 1 else np.broadcast_shapes(*shapes)  # one shape: skip numpy's broadcast
    buckets = {k: np.zeros(shape) for k in BUCKETS}
    for o in ops:
        cb = o.compute_bound
        buckets["compute"] = buckets["compute"] + np.where(cb, o.time_s, 0.0)
        kv_t = o.kv_bytes / rates.kv_bytes_per_s
        buckets["kv_cache"] = buckets["kv_cache"] + np.where(cb, 0.0, kv_t)
        buckets["weights"] = buckets["weights"] + np.where(cb, 0.0, o.memory_time_s - kv_t)
    buckets["communication"] = communication_s(hw, profile, collectives(m, s, work, local))
    rows = sampled_rows_per_gpu(s, work, local)
    fixed = fixed_overhead_s(m, profile, s.weights, rates.gemm_precision, hw)
    buckets["overhead"] = fixed + sequence_overhead_s(profile, rows) + np.zeros(shape)
    full = np.broadcast_shapes(np.shape(buckets["overhead"]), np.shape(buckets["communication"]))
    buckets = {k: v if np.shape(v) == full else np.broadcast_to(v, full) for k, v in buckets.items()}
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
