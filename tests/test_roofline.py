"""Hand-worked roofline cases on the tiny fixture models (tests/model_fixtures.py); expected values are counted by
hand from the shapes, not taken from the code under test."""

from __future__ import annotations

import math

import numpy as np
import pytest
from model_fixtures import (
    TINY_ALL_WINDOW,
    TINY_CHUNKED,
    TINY_D,
    TINY_DENSE,
    TINY_DSA,
    TINY_DSA_DIM,
    TINY_DSA_INDEXER_PARAMS,
    TINY_EMBED,
    TINY_EXPERT_PARAMS,
    TINY_H,
    TINY_HD,
    TINY_HYBRID,
    TINY_HYBRID_STATE_ELEMS,
    TINY_K,
    TINY_L,
    TINY_MLA,
    TINY_MLA_LORA,
    TINY_MLA_ROPE,
    TINY_MOE,
    TINY_MOE_E,
    TINY_MOE_K,
    TINY_NORMS,
    TINY_ROUTER_PER_LAYER,
    TINY_TIED,
    TINY_TOTAL,
    TINY_V,
    TINY_V4,
    TINY_V4_ATTENTION_PARAMS,
    TINY_WINDOW,
    TINY_WINDOW_W,
    TOY_BF16,
    TOY_BW,
    TOY_GPU,
    TOY_GPU_NO_PRICE,
    TOY_LINK,
    TOY_PRICE,
    TOY_TDP,
)

from tpot_model import (
    IDEAL,
    Scenario,
    estimate,
    kv_bytes_per_token,
    kv_cache_bytes_per_sequence,
    parse_format,
    resolve_model,
    resolve_profile,
    total_params,
)
from tpot_model.roofline import (
    active_params,
    expected_experts_touched,
    kv_shards,
    mean_decode_cache_tokens,
    param_counts,
)

BF16 = 2.0
KV_PER_TOKEN_PER_LAYER = 2 * TINY_K * TINY_HD * BF16  # K and V, 2 KV heads x 16 dims, bf16 = 128 B


def _op(e, name, prefill=False):
    step = e.prefill if prefill else e.decode
    (op,) = [o for o in step.operators if o.name == name]
    return op


def _decode_weight_bytes(e) -> float:
    return float(sum(np.asarray(o.weight_bytes, dtype=float).sum() for o in e.decode.operators))


# --------------------------------------------------------------------------------------------------- parameters


def test_tiny_dense_parameter_count():
    assert total_params(TINY_DENSE) == TINY_TOTAL


def test_tied_embeddings_are_stored_once():
    assert total_params(TINY_TIED) == TINY_TOTAL - TINY_EMBED
    e = estimate(TINY_TIED, TOY_GPU, Scenario(), IDEAL)
    assert e.weight_bytes == pytest.approx((TINY_TOTAL - TINY_EMBED) * BF16, rel=1e-12)
    # the LM head still reads the (shared) table every step
    assert float(_op(e, "lm_head").weight_bytes) == pytest.approx(TINY_V * TINY_D * BF16, rel=1e-12)


# --------------------------------------------------------------------------------------------------- decode bytes


@pytest.mark.parametrize("batch", [1, 3])
def test_decode_weight_bytes_one_gpu(batch):
    """Every weight byte but the input-embedding table, plus one embedding row per sequence."""
    e = estimate(TINY_DENSE, TOY_GPU, Scenario(batch=batch, context_tokens=0), IDEAL)
    assert _decode_weight_bytes(e) == pytest.approx((TINY_TOTAL - TINY_EMBED + batch * TINY_D) * BF16, rel=1e-12)


def test_decode_weight_bytes_two_gpus_split_all_but_norms():
    e = estimate(TINY_DENSE, TOY_GPU, Scenario(batch=1, context_tokens=0, num_gpus=2), IDEAL)
    split = (TINY_TOTAL - TINY_EMBED - TINY_NORMS + TINY_D) / 2
    assert _decode_weight_bytes(e) == pytest.approx((split + TINY_NORMS) * BF16, rel=1e-12)


def test_embedding_reads_only_batch_rows():
    for batch in (1, 7):
        e = estimate(TINY_DENSE, TOY_GPU, Scenario(batch=batch, context_tokens=500), IDEAL)
        emb = _op(e, "embedding")
        assert float(emb.weight_bytes) == pytest.approx(batch * TINY_D * BF16, rel=1e-12)
        assert float(emb.flops) == 0.0


def test_decode_floor_is_weight_bytes_over_bandwidth():
    e = estimate(TINY_DENSE, TOY_GPU, Scenario(batch=1, context_tokens=0), IDEAL)
    floor = (TINY_TOTAL - TINY_EMBED + TINY_D) * BF16 / TOY_BW
    assert float(e.tpot_s) >= floor
    assert float(e.tpot_s) == pytest.approx(floor, rel=0.25)  # activations and 2 tokens of KV are on top


# --------------------------------------------------------------------------------------------------- KV cache


def test_kv_bytes_at_context():
    per_token = TINY_L * KV_PER_TOKEN_PER_LAYER  # 256 B
    assert kv_bytes_per_token(TINY_DENSE, BF16) == pytest.approx(per_token, rel=1e-12)
    tokens = np.array([0.0, 1.0, 1_000.0, 123_456.0])
    assert kv_cache_bytes_per_sequence(TINY_DENSE, tokens, BF16) == pytest.approx(per_token * tokens, rel=1e-12)
    e = estimate(TINY_DENSE, TOY_GPU, Scenario(batch=3, context_tokens=1_000, output_tokens=10), IDEAL)
    assert float(e.kv_cache_bytes) == pytest.approx(3 * per_token * 1_000, rel=1e-12)
    assert float(e.kv_cache_peak_bytes) == pytest.approx(3 * per_token * 1_010, rel=1e-12)


def test_decode_kv_traffic_and_attention_flops():
    """One decode step (output_tokens=1) at context T: read T+1 cached tokens per layer, write 1 per layer.
    Attention FLOPs: QK^T and PV, 2*h each per head per key: 4*H*h*B*L*(T+1)."""
    B, T = 2, 1_000
    e = estimate(TINY_DENSE, TOY_GPU, Scenario(batch=B, context_tokens=T), IDEAL)
    attn = _op(e, "attention")
    assert float(attn.kv_bytes) == pytest.approx(B * KV_PER_TOKEN_PER_LAYER * TINY_L * (T + 1 + 1), rel=1e-12)
    assert float(attn.flops) == pytest.approx(4 * TINY_H * TINY_HD * B * TINY_L * (T + 1), rel=1e-12)


def test_the_mean_decode_step_reads_the_cache_at_its_mean_length():
    """A decode step is the mean over the generation's output_tokens - 1 steps (the first token comes from prefill):
    its cache holds context + j tokens at step j = 1..steps, so context + (steps + 1) / 2 on average: 4K context, 1K
    output: 4,096 + 512 = 4,608 (the Roofline page's KV column and caption count this step)."""
    assert mean_decode_cache_tokens(4096, 1024) == 4608
    assert mean_decode_cache_tokens(100, 11) == pytest.approx(np.mean(np.arange(101, 111)))  # 105.5
    assert mean_decode_cache_tokens(4096, 1) == 4097  # one output token: a second token's step
    assert list(mean_decode_cache_tokens(np.array([0, 4096]), np.array([2, 1024]))) == [1, 4608]
    B, T, N = 2, 1_000, 202  # 201 decode steps: a mean cache of T + 101
    e = estimate(TINY_DENSE, TOY_GPU, Scenario(batch=B, context_tokens=T, output_tokens=N), IDEAL)
    read = B * KV_PER_TOKEN_PER_LAYER * TINY_L * (T + 101 + 1)  # the mean cache + each new token's K, V written
    assert float(_op(e, "attention").kv_bytes) == pytest.approx(read, rel=1e-12)


def test_lm_head_flops():
    B = 5
    e = estimate(TINY_DENSE, TOY_GPU, Scenario(batch=B, context_tokens=10), IDEAL)
    assert float(_op(e, "lm_head").flops) == pytest.approx(2 * B * TINY_V * TINY_D, rel=1e-12)
    # prefill computes logits only for each prompt's last position
    assert float(_op(e, "lm_head", prefill=True).flops) == pytest.approx(2 * B * TINY_V * TINY_D, rel=1e-12)


def test_prefill_attention_flops_are_causal():
    B, P = 2, 100
    e = estimate(TINY_DENSE, TOY_GPU, Scenario(batch=B, context_tokens=P), IDEAL)
    keys = P * (P + 1) / 2  # query i attends to keys 1..i
    assert float(_op(e, "attention", prefill=True).flops) == pytest.approx(
        4 * TINY_H * TINY_HD * B * TINY_L * keys, rel=1e-12
    )
    assert float(_op(e, "embedding", prefill=True).weight_bytes) == pytest.approx(B * P * TINY_D * BF16, rel=1e-12)


def test_sliding_window_cache_is_capped():
    per_layer = KV_PER_TOKEN_PER_LAYER
    tokens = np.array([1.0, 15.0, 16.0, 17.0, 1_000.0, 1e6])
    flat = kv_cache_bytes_per_sequence(TINY_ALL_WINDOW, tokens, BF16)
    assert flat == pytest.approx(2 * per_layer * np.minimum(tokens, TINY_WINDOW_W), rel=1e-12)
    assert np.all(flat[2:] == flat[2])  # flat beyond W
    assert kv_bytes_per_token(TINY_ALL_WINDOW, BF16) == 0.0
    mixed = kv_cache_bytes_per_sequence(TINY_WINDOW, tokens, BF16)
    assert mixed == pytest.approx(per_layer * tokens + per_layer * np.minimum(tokens, TINY_WINDOW_W), rel=1e-12)
    assert kv_bytes_per_token(TINY_WINDOW, BF16) == pytest.approx(per_layer, rel=1e-12)


def test_sliding_window_decode_reads_at_most_the_window():
    B, T = 1, 1_000
    e = estimate(TINY_WINDOW, TOY_GPU, Scenario(batch=B, context_tokens=T), IDEAL)
    # full layer reads T+1, window layer reads W, both write one token
    expected = B * KV_PER_TOKEN_PER_LAYER * ((T + 1) + TINY_WINDOW_W + 2)
    assert float(_op(e, "attention").kv_bytes) == pytest.approx(expected, rel=1e-12)


def test_mla_cache_is_latent_plus_rope_key():
    per_token = (TINY_MLA_LORA + TINY_MLA_ROPE) * TINY_L * BF16  # 160 B
    assert kv_bytes_per_token(TINY_MLA, BF16) == pytest.approx(per_token, rel=1e-12)
    tokens = np.array([10.0, 5_000.0])
    assert kv_cache_bytes_per_sequence(TINY_MLA, tokens, BF16) == pytest.approx(per_token * tokens, rel=1e-12)


def test_kv_shards_mla_replicated_gqa_split_up_to_kv_heads():
    gpus = np.array([1.0, 2.0, 4.0, 8.0])
    assert np.array_equal(kv_shards(TINY_MLA, gpus), [1, 1, 1, 1])
    assert np.array_equal(kv_shards(TINY_DENSE, gpus), [1, 2, TINY_K, TINY_K])
    s = Scenario(batch=1, context_tokens=4_000, num_gpus=[1, 2, 4])
    mla = _op(estimate(TINY_MLA, TOY_GPU, s, IDEAL), "attention").kv_bytes
    assert mla[0] == pytest.approx(mla[1], rel=1e-12) and mla[0] == pytest.approx(mla[2], rel=1e-12)
    gqa = _op(estimate(TINY_DENSE, TOY_GPU, s, IDEAL), "attention").kv_bytes
    assert gqa[1] == pytest.approx(gqa[0] / 2, rel=1e-12) and gqa[2] == pytest.approx(gqa[0] / 2, rel=1e-12)


def test_linear_attention_state_is_constant():
    tokens = np.array([0.0, 1_000.0, 100_000.0])
    kv = kv_cache_bytes_per_sequence(TINY_HYBRID, tokens, BF16)
    assert kv == pytest.approx(KV_PER_TOKEN_PER_LAYER * tokens + TINY_HYBRID_STATE_ELEMS * BF16, rel=1e-12)


# --------------------------------------------------------------------------------------------------- MoE


def test_expected_experts_touched():
    assert float(expected_experts_touched(8, 2, 1)) == pytest.approx(2.0, rel=1e-12)
    assert float(expected_experts_touched(8, 2, 2)) == pytest.approx(8 * (1 - 0.75**2), rel=1e-12)  # 3.5
    assert float(expected_experts_touched(8, 2, 10_000)) == pytest.approx(8.0, rel=1e-12)


def test_expert_weight_traffic_grows_with_batch():
    batches = np.array([1.0, 2.0, 4.0, 16.0, 256.0, 100_000.0])
    e = estimate(TINY_MOE, TOY_GPU, Scenario(batch=batches, context_tokens=0), IDEAL)
    experts = _op(e, "experts")
    touched = TINY_MOE_E * (1 - (1 - TINY_MOE_K / TINY_MOE_E) ** batches)
    router = TINY_L * TINY_ROUTER_PER_LAYER
    expected = (TINY_L * touched * TINY_EXPERT_PARAMS + router) * BF16
    assert experts.weight_bytes == pytest.approx(expected, rel=1e-12)
    assert np.all(np.diff(experts.weight_bytes[:4]) > 0)  # grows until every expert is touched
    assert np.all(np.diff(experts.weight_bytes) >= 0)
    assert experts.weight_bytes[0] == pytest.approx((TINY_L * 2 * TINY_EXPERT_PARAMS + router) * BF16, rel=1e-12)
    assert experts.weight_bytes[-1] == pytest.approx((TINY_L * 8 * TINY_EXPERT_PARAMS + router) * BF16, rel=1e-9)
    # FLOPs: each token runs k experts and the router
    assert experts.flops == pytest.approx(
        2 * batches * (TINY_MOE_K * TINY_EXPERT_PARAMS + TINY_ROUTER_PER_LAYER) * TINY_L, rel=1e-12
    )


# --------------------------------------------------------------------------------------------------- precisions


def test_kv_fp8_halves_kv_bytes_not_weight_bytes():
    s16 = Scenario(batch=4, context_tokens=2_000, weights="bf16", kv_cache="bf16")
    s8 = Scenario(batch=4, context_tokens=2_000, weights="bf16", kv_cache="fp8")
    e16, e8 = estimate(TINY_DENSE, TOY_GPU, s16, IDEAL), estimate(TINY_DENSE, TOY_GPU, s8, IDEAL)
    assert float(e8.kv_cache_bytes) == pytest.approx(float(e16.kv_cache_bytes) / 2, rel=1e-12)
    assert float(_op(e8, "attention").kv_bytes) == pytest.approx(float(_op(e16, "attention").kv_bytes) / 2, rel=1e-12)
    assert e8.weight_bytes == e16.weight_bytes
    assert _decode_weight_bytes(e8) == pytest.approx(_decode_weight_bytes(e16), rel=1e-12)


def test_custom_bits_format():
    fmt = parse_format("5.5")
    assert fmt.bytes_per_element == pytest.approx(5.5 / 8, rel=1e-12)
    e = estimate(TINY_DENSE, TOY_GPU, Scenario(weights="5.5"), IDEAL)
    assert e.weight_bytes == pytest.approx(TINY_TOTAL * 5.5 / 8, rel=1e-12)
    assert _decode_weight_bytes(e) == pytest.approx((TINY_TOTAL - TINY_EMBED + TINY_D) * 5.5 / 8, rel=1e-12)
    assert e.compute_precision == "bf16"  # weight-only: math at the bf16 rate


# --------------------------------------------------------------------------------------------------- buckets


def test_communication_zero_on_one_gpu_positive_on_two():
    typical = resolve_profile("typical")
    s = Scenario(batch=[1, 8, 64], context_tokens=100, num_gpus=[[1], [2], [4]])
    e = estimate(TINY_DENSE, TOY_GPU, s, typical)
    comm = e.breakdown_s["communication"]
    assert np.all(comm[0] == 0.0)
    assert np.all(comm[1:] > 0.0)
    # ring all-reduce of B*D bf16 activations, two per layer: latency + 2(N-1)/N * message / (link * efficiency)
    B, N = np.array([1.0, 8.0, 64.0]), np.array([[2.0], [4.0]])
    link = TOY_LINK * typical.interconnect_efficiency
    expected = 2 * TINY_L * (typical.allreduce_latency_s + 2 * (N - 1) / N * B * TINY_D * BF16 / link)
    assert comm[1:] == pytest.approx(expected, rel=1e-12)


def test_communication_latency_term_is_two_allreduces_per_layer():
    """Extrapolate the (linear in batch) communication time to zero batch: what is left is latency only."""
    typical = resolve_profile("typical")
    assert typical.allreduce_latency_s > 0
    e = estimate(TINY_DENSE, TOY_GPU, Scenario(batch=[10, 20], num_gpus=2), typical)
    c10, c20 = e.breakdown_s["communication"]
    assert 2 * c10 - c20 == pytest.approx(2 * TINY_L * typical.allreduce_latency_s, rel=1e-9)


def test_overhead_bucket_is_per_token_plus_per_layer_plus_per_sequence():
    """A dense model's fixed cost: per step, per layer, and per sequence sampled (batch 1: 16/17 of the field; batch
    32: 32 x 16 / 48 of it), whatever the context."""
    typical = resolve_profile("typical")
    assert typical.per_token_overhead_s > 0 and typical.per_layer_overhead_s > 0
    assert typical.per_sequence_overhead_s > 0  # the serving base's, as calibrate writes it
    e = estimate(TINY_DENSE, TOY_GPU, Scenario(batch=[1, 32], context_tokens=[[0], [5_000]]), typical)
    fixed = typical.per_token_overhead_s + typical.per_layer_overhead_s * TINY_L
    seq = typical.per_sequence_overhead_s * np.array([16 / 17, 32 * 16 / 48])  # batch on the last axis
    assert np.allclose(e.breakdown_s["overhead"], fixed + seq + np.zeros((2, 2)), rtol=1e-12, atol=0)
    assert np.all(estimate(TINY_DENSE, TOY_GPU, Scenario(), IDEAL).breakdown_s["overhead"] == 0.0)


def test_per_sequence_overhead_grows_with_the_sequences_each_gpu_samples_and_saturates():
    """Hand-worked: 40 µs per sequence, half its 16 x 40 µs = 640 µs ceiling at 16 sequences per GPU.
    Batch 1: 40 x 16 / 17 = 37.65 µs; batch 16: 320 µs; batch 48: 40 x 48 x 16 / 64 = 480 µs. Under tensor
    parallelism every GPU samples the whole batch; under dp-ep (4 GPUs) the busiest GPU samples ceil(48 / 4) = 12:
    40 x 12 x 16 / 28 = 274.3 µs."""
    from dataclasses import replace

    from tpot_model.roofline import sequence_overhead_s

    typical = resolve_profile("typical")
    p = replace(typical, per_sequence_overhead_s=40e-6)
    assert sequence_overhead_s(p, [1, 16, 48]) == pytest.approx([40e-6 * 16 / 17, 320e-6, 480e-6], rel=1e-12)
    fixed = p.per_token_overhead_s + p.per_layer_overhead_s * TINY_MOE.num_layers
    fixed += p.moe_layer_overhead_s * TINY_MOE.num_moe_layers
    tp = estimate(TINY_MOE, TOY_GPU, Scenario(batch=[1, 16, 48], num_gpus=4), p)
    assert tp.breakdown_s["overhead"] == pytest.approx(fixed + np.array([40e-6 * 16 / 17, 320e-6, 480e-6]), rel=1e-12)
    dp = estimate(TINY_MOE, TOY_GPU, Scenario(batch=48, num_gpus=4, parallelism="dp-ep"), p)
    assert float(dp.breakdown_s["overhead"]) == pytest.approx(fixed + 40e-6 * 12 * 16 / 28, rel=1e-12)
    no_seq = replace(typical, per_sequence_overhead_s=0.0)
    assert float(estimate(TINY_MOE, TOY_GPU, Scenario(batch=48), no_seq).breakdown_s["overhead"]) == pytest.approx(
        typical.per_token_overhead_s + typical.per_layer_overhead_s * TINY_MOE.num_layers
        + typical.moe_layer_overhead_s * TINY_MOE.num_moe_layers, rel=1e-12
    )  # fmt: skip  # a profile without it: the fixed cost alone


def test_operator_shares_and_the_rest_make_the_step():
    """StepResult.share: each operator's fraction of the step; with communication and overhead they sum to 1, a
    name the step lacks is 0, and attention's share grows with batch and context (its cache reads grow, weights
    do not)."""
    e = estimate(
        TINY_DENSE, TOY_GPU, Scenario(batch=[1, 32], context_tokens=[[0], [5_000]]), resolve_profile("typical")
    )
    d = e.decode
    rest = (d.breakdown_s["communication"] + d.breakdown_s["overhead"]) / d.time_s
    assert np.allclose(sum(d.share(n) for n in {o.name for o in d.operators}) + rest, 1.0, rtol=1e-12)
    assert np.all(d.share("no such operator") == 0.0)
    attention = d.share("attention")
    # rows: context 0 and 5,000; columns: batch 1 and 32
    assert attention[1, 0] > attention[0, 0] and attention[1, 1] > attention[1, 0]


def test_tpot_is_the_mean_step_over_the_generation():
    """Decode steps j = 1..N-1 see cache length T+j. For a memory-bound dense model the step time is linear in the
    cache length, so TPOT over a generation equals the mean of the single steps. A single step at cache length c is
    output_tokens=2 at context c-1."""
    T, N = 1_000, 101
    gen = estimate(TINY_DENSE, TOY_GPU, Scenario(batch=1, context_tokens=T, output_tokens=N), IDEAL)
    j = np.arange(1, N)
    steps = estimate(TINY_DENSE, TOY_GPU, Scenario(batch=1, context_tokens=T + j - 1, output_tokens=2), IDEAL)
    assert not np.any(steps.compute_bound)
    assert float(gen.tpot_s) == pytest.approx(float(np.mean(steps.tpot_s)), rel=1e-12)
    # mean cache length T + N/2 = 1050.5; output_tokens=1 at context 1049 is one step at cache length 1050,
    # half a token shorter: the difference is reading half a token of KV in every layer
    one = estimate(TINY_DENSE, TOY_GPU, Scenario(batch=1, context_tokens=1_049, output_tokens=1), IDEAL)
    half_token = 0.5 * TINY_L * KV_PER_TOKEN_PER_LAYER / TOY_BW
    assert float(gen.tpot_s) - float(one.tpot_s) == pytest.approx(half_token, rel=1e-6)


def test_time_to_serve():
    out = np.array([1.0, 10.0, 500.0])
    e = estimate(
        TINY_DENSE, TOY_GPU, Scenario(batch=4, context_tokens=300, output_tokens=out), resolve_profile("typical")
    )
    assert e.time_to_serve_s == pytest.approx(e.ttft_s + e.tpot_s * (out - 1), rel=1e-12)


# --------------------------------------------------------------------------------------------------- economics


def test_usd_per_million_tokens_and_joules():
    B, N = np.array([1.0, 8.0, 64.0]), 2
    e = estimate(TINY_DENSE, TOY_GPU, Scenario(batch=B, context_tokens=100, num_gpus=N), resolve_profile("typical"))
    tokens_per_s = B / e.tpot_s
    assert e.usd_per_1M_tokens == pytest.approx(TOY_PRICE * N / 3600 / tokens_per_s * 1e6, rel=1e-12)
    assert e.joules_per_token == pytest.approx(TOY_TDP * N * e.tpot_s / B, rel=1e-12)


def test_joules_with_prefill_count_the_whole_request():
    """Board power x time to serve over batch x output tokens: at one output token, the prefill's time alone (no
    decode step runs); over many, it nears the decode-only figure."""
    B, N, out = 8.0, 2, np.array([1.0, 100_000.0])
    e = estimate(TINY_DENSE, TOY_GPU, Scenario(batch=B, context_tokens=1_000, output_tokens=out, num_gpus=N), IDEAL)
    want = TOY_TDP * N * e.time_to_serve_s / (B * out)
    assert e.joules_per_token_with_prefill == pytest.approx(want, rel=1e-12)
    assert float(e.joules_per_token_with_prefill[0]) == pytest.approx(TOY_TDP * N * float(e.ttft_s) / B, rel=1e-12)
    assert float(e.joules_per_token_with_prefill[1]) == pytest.approx(float(e.joules_per_token[1]), rel=0.01)


def test_scenario_price_overrides_catalog_price():
    e = estimate(TINY_DENSE, TOY_GPU, Scenario(batch=2, price_usd_per_gpu_hour=5.0), IDEAL)
    assert e.price_usd_per_gpu_hour == 5.0
    assert float(e.usd_per_1M_tokens) == pytest.approx(5.0 / 3600 / (2 / float(e.tpot_s)) * 1e6, rel=1e-12)


def test_no_price_gives_nan():
    e = estimate(TINY_DENSE, TOY_GPU_NO_PRICE, Scenario(batch=2), IDEAL)
    assert math.isnan(e.price_usd_per_gpu_hour)
    assert np.all(np.isnan(e.usd_per_1M_tokens))
    assert np.all(np.isfinite(e.joules_per_token))


def test_ridge_point_is_peak_flops_over_bandwidth():
    e = estimate(TINY_DENSE, TOY_GPU, Scenario(), IDEAL)
    assert e.ridge_point_flop_per_byte == pytest.approx(TOY_BF16 / TOY_BW, rel=1e-12)


# --------------------------------------------------------------------------------------------------- DSA, chunked


def test_dsa_indexer_parameters_and_cache_by_hand():
    """TINY_DSA = TINY_MLA + an indexer of 904 parameters per layer and a 4-element index key per token and layer."""
    assert total_params(TINY_DSA) - total_params(TINY_MLA) == TINY_L * TINY_DSA_INDEXER_PARAMS
    per_layer = (TINY_MLA_LORA + TINY_MLA_ROPE + TINY_DSA_DIM) * BF16  # 88 B
    assert kv_bytes_per_token(TINY_DSA, BF16) == pytest.approx(TINY_L * per_layer, rel=1e-12)
    assert kv_cache_bytes_per_sequence(TINY_DSA, np.array([5_000.0]), BF16) == pytest.approx(
        [TINY_L * per_layer * 5_000], rel=1e-12
    )


def test_dsa_decode_attention_flops_and_bytes_by_hand():
    """One decode step, B = 2 sequences at T = 1,000 cached tokens (the query sees T + 1 = 1,001 keys).

    Indexer: 2 heads x (4 + 1) x 2 FLOPs per scored key = 20, over 1,001 keys, 2 layers, 2 sequences = 80,080.
    Attention over the top 16 in MLA's absorbed form (qk 32 + 8 = 40, pv 32): 2 x 4 heads x 72 = 576 FLOPs per key,
    x 16 keys x 2 layers x 2 sequences = 36,864. Total 116,944 (dense MLA: 576 x 1,001 x 4 = 2,306,304).
    Cache traffic per sequence and layer: 16 latents x 80 B + 1,001 index keys x 8 B + the new token's 88 B written
    = 18,752 B for both layers; x 2 sequences = 37,504 B (dense MLA: 80 B x 1,002 x 2 x 2 = 320,640 B)."""
    s = Scenario(batch=2, context_tokens=1_000)
    attn = _op(estimate(TINY_DSA, TOY_GPU, s, IDEAL), "attention")
    assert float(attn.flops) == pytest.approx(80_080 + 36_864, rel=1e-12)
    assert float(attn.kv_bytes) == pytest.approx(37_504, rel=1e-12)
    dense = _op(estimate(TINY_MLA, TOY_GPU, s, IDEAL), "attention")
    assert float(dense.flops) == pytest.approx(2_306_304, rel=1e-12)
    assert float(dense.kv_bytes) == pytest.approx(320_640, rel=1e-12)


def test_dsa_decode_below_top_k_attends_to_everything():
    """With fewer cached tokens than top-k the selection is the whole cache: attention as dense MLA (absorbed), plus
    the indexer. T = 9: 10 keys; attention 576 x 10 x 2 layers = 11,520; indexer 20 x 10 x 2 = 400."""
    attn = _op(estimate(TINY_DSA, TOY_GPU, Scenario(batch=1, context_tokens=9), IDEAL), "attention")
    assert float(attn.flops) == pytest.approx(11_520 + 400, rel=1e-12)


def test_dsa_prefill_attention_flops_by_hand():
    """Prefill of one 40-token prompt. Query i attends to min(i, 16) keys: 16 x 17 / 2 + 24 x 16 = 520 per layer, at
    576 FLOPs each (MQA form) over 2 layers = 599,040; the indexer scores i keys: 40 x 41 / 2 = 820 per layer, 20 FLOPs
    each, 2 layers = 32,800. Total 631,840. The cache (latent + index key, 88 B) is written and read once: 40 x 2 x 88 x
    2 layers = 14,080 B."""
    attn = _op(estimate(TINY_DSA, TOY_GPU, Scenario(batch=1, context_tokens=40), IDEAL), "attention", prefill=True)
    assert float(attn.flops) == pytest.approx(599_040 + 32_800, rel=1e-12)
    assert float(attn.kv_bytes) == pytest.approx(14_080, rel=1e-12)


def test_dsa_saves_attention_at_long_context_only():
    """DSA's decode attention time grows with the indexer's light per-token cost, not the full attention's."""
    T = np.array([16.0, 100_000.0])
    s = Scenario(batch=1, context_tokens=T)
    sparse = _op(estimate(TINY_DSA, TOY_GPU, s, IDEAL), "attention").flops
    dense = _op(estimate(TINY_MLA, TOY_GPU, s, IDEAL), "attention").flops
    assert sparse[1] < dense[1] / 20
    assert sparse[0] > dense[0] * 0.5  # short contexts: no saving beyond the dims of the absorbed form


# --------------------------------------------------------------------------------------------------- DeepSeek-V4


def test_compressed_attention_parameters_and_cache_by_hand():
    """TINY_V4 (model_fixtures): 18,648 attention parameters; the cache grows 6 elements per token plus a 192-element
    window: at T = 100 in bf16, (6 x 100 + 192) x 2 = 1,584 B; at T = 2, (12 + 3 x 2 x 16) x 2 = 216 B."""
    assert param_counts(TINY_V4)["attention"] == pytest.approx(TINY_V4_ATTENTION_PARAMS, rel=1e-12)
    assert kv_bytes_per_token(TINY_V4, BF16) == pytest.approx(6 * BF16, rel=1e-12)
    assert kv_cache_bytes_per_sequence(TINY_V4, np.array([100.0, 2.0]), BF16) == pytest.approx([1_584, 216], rel=1e-12)


def test_compressed_attention_decode_flops_and_bytes_by_hand():
    """One decode step, B = 2 sequences at T = 100 cached tokens (the query sees 101).

    Entries per query: CSA min(101 / 4, 8) = 8 selected, HCA 101 / 16 = 6.3125, the window 4 in each of the 3 layers:
    26.3125, at 2 x 4 heads x (16 + 16) = 256 FLOPs each = 6,736; the indexer scores 101 / 4 = 25.25 index keys at
    2 x 2 heads x (4 + 1) = 20 FLOPs = 505. x 2 sequences = 14,482 FLOPs.
    Cache per sequence (bf16): 26.3125 entries x 16 + 25.25 index keys x 4 + the new token's 3 x 16 window entries
    + 6 compressed = 576 elements = 1,152 B; x 2 = 2,304 B."""
    attn = _op(estimate(TINY_V4, TOY_GPU, Scenario(batch=2, context_tokens=100), IDEAL), "attention")
    assert float(attn.flops) == pytest.approx(14_482, rel=1e-12)
    assert float(attn.kv_bytes) == pytest.approx(2_304, rel=1e-12)


def test_compressed_attention_prefill_flops_by_hand():
    """Prefill of one 40-token prompt. Windows: 4 x 5 / 2 + 36 x 4 = 154 keys per layer x 3 = 462; CSA: query i
    selects min(i / 4, 8): (32 x 33 / 2 + 8 x 32) / 4 = 196; HCA: 40 x 41 / 2 / 16 = 51.25. 709.25 x 256 = 181,568
    FLOPs, + the indexer 820 / 4 = 205 keys x 20 = 4,100: 185,668. Cache: 40 tokens x 6 elements written and read
    back, + the 192-element window written: (480 + 192) x 2 B = 1,344 B."""
    attn = _op(estimate(TINY_V4, TOY_GPU, Scenario(batch=1, context_tokens=40), IDEAL), "attention", prefill=True)
    assert float(attn.flops) == pytest.approx(185_668, rel=1e-12)
    assert float(attn.kv_bytes) == pytest.approx(1_344, rel=1e-12)


def test_deepseek_v4_pro_counts_match_the_publisher():
    """DeepSeek-V4-Pro: 1,572.9B parameters counted over the 61 layers (the publisher's 1.6T includes the MTP layer)
    and 49.7B active (publisher: 49B); attention 19.47B; the cache at 1M tokens in FP8 is 4,924 B per token + the
    61 x 128 x 512 B window = 5,167,185,920 B, 11.5% of DeepSeek-V3.2's (publisher: about 10%)."""
    v4 = resolve_model("deepseek-v4-pro")
    assert param_counts(v4)["attention"] == pytest.approx(19_465_103_232, rel=1e-9)
    assert param_counts(v4)["experts"] == pytest.approx(61 * 384 * 3 * 7168 * 3072, rel=1e-12)
    assert total_params(v4) == pytest.approx(1.5729e12, rel=1e-4)
    assert active_params(v4) == pytest.approx(49.69e9, rel=1e-3)
    T = np.array([float(2**20)])
    assert kv_cache_bytes_per_sequence(v4, T, 1.0) == pytest.approx([5_167_185_920], rel=1e-12)
    share = kv_cache_bytes_per_sequence(v4, T, 1.0) / kv_cache_bytes_per_sequence(
        resolve_model("deepseek-v3.2"), T, 1.0
    )
    assert 0.10 < float(share[0]) < 0.13


def test_chunked_attention_decode_keys_by_hand():
    """TINY_CHUNKED: layer 1 full, layer 2 chunked (16-token chunks). Decoding at T = 40 cached tokens, the query at
    position 41 sees 41 keys in the full layer and (41 - 1) mod 16 + 1 = 9 in the chunked one (a 16-token sliding
    window: 16). FLOPs 4 H h x keys = 256 x 50 = 12,800; cache read 50 tokens + 2 written, 128 B each = 6,656 B."""
    s = Scenario(batch=1, context_tokens=40)
    attn = _op(estimate(TINY_CHUNKED, TOY_GPU, s, IDEAL), "attention")
    assert float(attn.flops) == pytest.approx(4 * TINY_H * TINY_HD * (41 + 9), rel=1e-12)
    assert float(attn.kv_bytes) == pytest.approx(KV_PER_TOKEN_PER_LAYER * (41 + 9 + 2), rel=1e-12)
    window = _op(estimate(TINY_WINDOW, TOY_GPU, s, IDEAL), "attention")
    assert float(window.flops) == pytest.approx(4 * TINY_H * TINY_HD * (41 + 16), rel=1e-12)


def test_chunked_attention_mean_over_a_generation_crosses_a_chunk_boundary():
    """T = 47, 4 output tokens: 3 decode steps at positions 48, 49, 50 see 16, 1, 2 keys in the chunked layer (mean
    19/3) and 48, 49, 50 in the full layer (mean 49)."""
    attn = _op(estimate(TINY_CHUNKED, TOY_GPU, Scenario(context_tokens=47, output_tokens=4), IDEAL), "attention")
    assert float(attn.flops) == pytest.approx(4 * TINY_H * TINY_HD * (49 + 19 / 3), rel=1e-12)


def test_chunked_attention_prefill_and_cache_by_hand():
    """Prefill of 40 tokens: the full layer attends to 40 x 41 / 2 = 820 keys; the chunked layer to 136 + 136 + 36 =
    308 (two whole chunks of 16 x 17 / 2, then 8 x 9 / 2). The cache holds at most one chunk in the chunked layer."""
    attn = _op(estimate(TINY_CHUNKED, TOY_GPU, Scenario(context_tokens=40), IDEAL), "attention", prefill=True)
    assert float(attn.flops) == pytest.approx(4 * TINY_H * TINY_HD * (820 + 308), rel=1e-12)
    tokens = np.array([10.0, 40.0, 1_000.0])
    assert kv_cache_bytes_per_sequence(TINY_CHUNKED, tokens, BF16) == pytest.approx(
        KV_PER_TOKEN_PER_LAYER * (tokens + np.minimum(tokens, TINY_WINDOW_W)), rel=1e-12
    )
    assert TINY_CHUNKED.kind == "GQA + chunked attention" and TINY_DSA.kind == "MLA + sparse attention"


def test_bare_fp4_is_the_chips_block_format_with_its_scales():
    """Issue 19: bare 'fp4' at 4.0 bits left out the block scales; the estimate takes the chip's own FP4 format:
    NVFP4 (E2M1 + an FP8 scale per 16: 4 + 8/16 = 4.5 bits) on NVIDIA, MXFP4 (E2M1 + an 8-bit scale per 32:
    4 + 8/32 = 4.25 bits) on AMD. The weight bytes follow: 8B-class weights x 4.5 / 8 on B200."""
    from tpot_model import Scenario, estimate, resolve_hardware, resolve_model, total_params

    m = resolve_model("llama-3.1-8b")
    for hw_id, name, bits in (("b200", "nvfp4", 4 + 8 / 16), ("mi355x", "mxfp4", 4 + 8 / 32)):
        hw = resolve_hardware(hw_id)
        e = estimate(m, hw, Scenario(weights="fp4", kv_cache="fp4"))
        assert (e.scenario.weights.name, e.scenario.kv_cache.name) == (name, name)
        assert e.scenario.weights.bits == bits
        assert e.weight_bytes == pytest.approx(total_params(m) * bits / 8, rel=1e-12)
    e = estimate(m, resolve_hardware("b200"), Scenario(weights="nvfp4"))
    assert e.scenario.weights.name == "nvfp4"  # named formats are kept


@pytest.mark.parametrize("batching", ["static", "continuous"])
def test_tpot_only_is_the_estimates_tpot(batching):
    """tpot_only_s (Hardware's ideal bar on every chip) is estimate(...).tpot_s exactly, on every catalog chip, bare
    fp4 mapped to each chip's own block format as the estimate maps it."""
    from tpot_model import load_hardware_catalog, load_model_catalog, resolve_profile
    from tpot_model.estimate import tpot_only_s

    m = load_model_catalog()["deepseek-r1"]
    s = Scenario(batch=16, context_tokens=2048, output_tokens=256, num_gpus=8, weights="fp4", kv_cache="fp8",
                 batching=batching)  # fmt: skip
    for profile in (IDEAL, resolve_profile("sglang")):
        for hw in load_hardware_catalog().values():
            assert float(tpot_only_s(m, hw, s, profile)) == float(estimate(m, hw, s, profile).tpot_s), hw.id


def test_nvfp4_moe_layers_pay_the_profiles_fraction_of_the_moe_layer_cost():
    """The fixed cost of an MoE layer with NVFP4 weights on FP4 math is the profile's nvfp4_moe_cost_fraction of its
    moe_layer_overhead (Blackwell's fused NVFP4 MoE kernels; fitted to serving runs): hand-worked on the tiny MoE
    model with 100 µs per MoE layer and a fraction of 0.7, and nothing else in the step's overhead. MXFP4 and FP8
    weights pay the whole cost, and so do NVFP4 weights unpacked to 16-bit math on a chip without FP4 units; a dense
    model has none to scale."""
    from dataclasses import replace

    p = replace(IDEAL, moe_layer_overhead_s=100e-6, nvfp4_moe_cost_fraction=0.7)
    fp4_gpu = replace(TOY_GPU, dense_flop_per_s={**TOY_GPU.dense_flop_per_s, "fp4": 4 * TOY_BF16}, vendor="NVIDIA")

    def overhead_s(weights: str, model=TINY_MOE, hw=fp4_gpu) -> float:
        est = estimate(model, hw, Scenario(weights=weights, batch=1, context_tokens=64, output_tokens=8), p)
        return float(est.decode.breakdown_s["overhead"])

    layers = TINY_MOE.num_moe_layers
    assert layers >= 1
    assert overhead_s("fp8") == pytest.approx(100e-6 * layers, rel=1e-12)
    assert overhead_s("nvfp4") == pytest.approx(70e-6 * layers, rel=1e-12)
    assert overhead_s("mxfp4") == pytest.approx(100e-6 * layers, rel=1e-12)
    assert overhead_s("nvfp4", TINY_DENSE) == 0.0
    assert overhead_s("nvfp4", hw=replace(TOY_GPU, vendor="NVIDIA")) == pytest.approx(100e-6 * layers, rel=1e-12)
    # another vendor's FP4 chip runs no fused NVFP4 kernel (NVFP4 on MI355X had read NVIDIA's 0.854: a review)
    for vendor in ("AMD", "Google", ""):
        assert overhead_s("nvfp4", hw=replace(fp4_gpu, vendor=vendor)) >= 100e-6 * layers * (1 - 1e-12), vendor


def test_moe_layers_on_an_amd_gpu_pay_the_profiles_rocm_factor():
    """On an AMD GPU (ROCm's MoE kernels) an MoE layer's fixed cost is the profile's rocm_moe_cost_factor times its
    cost elsewhere: hand-worked on the tiny MoE model, 100 µs per MoE layer and a factor of 1.25 (125 µs a layer),
    NVFP4 weights too (NVIDIA's fused NVFP4 kernels, the 0.7 fraction, are not AMD's: they had read 87.5 µs); the
    same chip from another vendor pays 100 µs; a dense model none."""
    from dataclasses import replace

    p = replace(IDEAL, moe_layer_overhead_s=100e-6, nvfp4_moe_cost_fraction=0.7, rocm_moe_cost_factor=1.25)
    fp4_gpu = replace(TOY_GPU, dense_flop_per_s={**TOY_GPU.dense_flop_per_s, "fp4": 4 * TOY_BF16})
    amd = replace(fp4_gpu, vendor="AMD")

    def overhead_s(weights: str, hw, model=TINY_MOE) -> float:
        est = estimate(model, hw, Scenario(weights=weights, batch=1, context_tokens=64, output_tokens=8), p)
        return float(est.decode.breakdown_s["overhead"])

    layers = TINY_MOE.num_moe_layers
    assert overhead_s("fp8", amd) == pytest.approx(125e-6 * layers, rel=1e-12)
    assert overhead_s("nvfp4", amd) == pytest.approx(125e-6 * layers, rel=1e-12)
    assert overhead_s("fp8", fp4_gpu) == pytest.approx(100e-6 * layers, rel=1e-12)
    assert overhead_s("fp8", amd, TINY_DENSE) == 0.0


def test_mfu_counts_each_operator_at_the_peak_of_its_precision():
    """fp32 GEMMs beside bf16 attention: the step's FLOPs against the fp32 peak alone had read MFU 100.001 % under
    the ideal profile (a hypothesis case: DeepSeek-R1 on Trainium3, batch 2,416). The denominator is the peak the
    FLOPs run at, weighted by each class's FLOPs; at one precision it is that precision's peak."""
    from tpot_model import Scenario, estimate, load_hardware_catalog, load_model_catalog, load_profiles

    models, hardware, ideal = load_model_catalog(), load_hardware_catalog(), load_profiles()["ideal"]
    s = Scenario(batch=2416, context_tokens=0, output_tokens=137, weights="fp32", kv_cache="fp32")
    e = estimate(models["deepseek-r1"], hardware["trainium3"], s, ideal)
    dense = e.hardware.dense_flop_per_s
    assert (e.compute_precision, e.attention_precision) == ("fp32", "bf16") and dense["bf16"] > dense["fp32"]
    at_peak_s = sum(float(o.flops) / dense["bf16" if o.rate == "attention" else "fp32"] for o in e.decode.operators)
    assert float(e.mfu) == pytest.approx(at_peak_s / float(e.tpot_s)) and float(e.mfu) <= 1.0
    assert dense["fp32"] < float(e.peak_flop_per_s) < dense["bf16"]
    bf16 = estimate(models["llama-3.1-8b"], hardware["h100-sxm"], Scenario(batch=64, context_tokens=4096), ideal)
    assert float(bf16.peak_flop_per_s) == pytest.approx(989.4e12)  # H100 SXM dense bf16, one precision throughout
