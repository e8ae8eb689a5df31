"""Published reference numbers, each with its citation in the test id.

Sources: /work/shared/reference/reference_numbers.yaml and specs.md Part 3 ("ref:"), peers.md section 3, textbook
columns ("peers3.1" decode, "peers3.2" prefill), model_facts.yaml ("facts").
"""

from __future__ import annotations

from pathlib import Path

import model_fixtures  # noqa: F401  (puts the repository root on sys.path)
import numpy as np
import pytest
import yaml

from tpot_model import (
    IDEAL,
    Scenario,
    active_params,
    estimate,
    kv_bytes_per_token,
    kv_cache_bytes_per_sequence,
    load_model_catalog,
    resolve_hardware,
    resolve_model,
    total_params,
)
from tpot_model.roofline import param_counts

REFERENCE_DIR = Path("/work/shared/reference")
MODEL_FACTS = REFERENCE_DIR / "model_facts.yaml"

LLAMA2_70B_PARAMS = 68_976_648_192  # ref: llama-2-70b-param-count
LLAMA2_70B_FP16_BYTES = 137_953_296_384  # ref: llama-2-70b-weight-bytes-fp16


def _fp16(**kw) -> Scenario:
    return Scenario(weights="fp16", kv_cache="fp16", **kw)


# --------------------------------------------------------------------------------------------------- counts


def test_llama_2_70b_total_params_exact__ref_llama_2_70b_param_count():
    assert int(total_params(resolve_model("llama-2-70b"))) == LLAMA2_70B_PARAMS


def test_llama_2_70b_fp16_weight_bytes_exact__ref_llama_2_70b_weight_bytes_fp16():
    e = estimate(resolve_model("llama-2-70b"), resolve_hardware("h100-sxm"), _fp16(), IDEAL)
    assert int(e.weight_bytes) == LLAMA2_70B_FP16_BYTES


@pytest.mark.parametrize(
    ("model_id", "bytes_per_token"),
    [
        pytest.param("llama-2-70b", 327_680, id="llama-2-70b-327680__ref_kv-bytes-per-token-bf16-llama-2-70b"),
        pytest.param("llama-3.1-8b", 131_072, id="llama-3.1-8b-131072__ref_kv-bytes-per-token-bf16-llama-3.1-8b"),
        pytest.param("deepseek-v3", 70_272, id="deepseek-v3-MLA-70272__ref_kv-bytes-per-token-bf16-deepseek-v3-mla"),
        pytest.param(
            "qwen3-next-80b-a3b", 24_576, id="qwen3-next-24576__ref_kv-bytes-per-token-bf16-qwen3-next-80b-a3b"
        ),
    ],
)
def test_kv_bytes_per_token_bf16(model_id, bytes_per_token):
    m = resolve_model(model_id)
    assert kv_bytes_per_token(m, 2.0) == pytest.approx(bytes_per_token, rel=1e-12)
    # the growing part of the per-sequence cache grows by exactly this much per token
    grow = kv_cache_bytes_per_sequence(m, np.array([2_000.0, 3_000.0]), 2.0)
    assert (grow[1] - grow[0]) / 1_000 == pytest.approx(bytes_per_token, rel=1e-12)


def test_qwen3_next_linear_state_is_constant_per_sequence__ref_kv_bytes_per_token_bf16_qwen3_next():
    m = resolve_model("qwen3-next-80b-a3b")
    tokens = np.array([1_000.0, 100_000.0])
    fixed = kv_cache_bytes_per_sequence(m, tokens, 2.0) - 24_576 * tokens
    assert fixed[0] == pytest.approx(fixed[1], rel=1e-12)
    # facts: GDN state 36 x 32 x 128 x 128 + conv 36 x 8192 x 3 values, bf16 = 39,518,208 B
    assert fixed[0] == pytest.approx(2 * (36 * 32 * 128 * 128 + 36 * 8192 * 3), rel=1e-12)


# --------------------------------------------------------------------------------------------------- decode floor


def test_llama_2_70b_fp16_h100_ideal_tpot__ref_tpot_lower_bound_h100_41_2ms():
    e = estimate(resolve_model("llama-2-70b"), resolve_hardware("h100-sxm"), _fp16(batch=1, context_tokens=0), IDEAL)
    assert float(e.tpot_s) == pytest.approx(41.2e-3, rel=0.01)


def _llama_2_70b_decode_weight_bytes_by_hand() -> int:
    """Every stored weight byte except the input-embedding table, of which a batch-1 step reads one row."""
    embedding_table = 32_000 * 8_192
    return (LLAMA2_70B_PARAMS - embedding_table + 8_192) * 2


def test_llama_2_70b_decode_weight_bytes_by_hand__ref_llama_2_70b_param_count():
    e = estimate(resolve_model("llama-2-70b"), resolve_hardware("h100-sxm"), _fp16(batch=1, context_tokens=0), IDEAL)
    read = sum(float(o.weight_bytes) for o in e.decode.operators)
    assert read == pytest.approx(_llama_2_70b_decode_weight_bytes_by_hand(), rel=1e-12)


def test_llama_2_70b_weight_bucket_is_weight_reads_over_bandwidth__ref_tpot_lower_bound_h100():
    """The 'weights' bucket of the TPOT breakdown is the time to read the weights (plus the step's small activation
    traffic, which the decomposition files under weight read) at 3.35 TB/s."""
    e = estimate(resolve_model("llama-2-70b"), resolve_hardware("h100-sxm"), _fp16(batch=1, context_tokens=0), IDEAL)
    activation_bytes = float(sum(o.activation_bytes for o in e.decode.operators))
    assert activation_bytes < 1e-3 * _llama_2_70b_decode_weight_bytes_by_hand()  # a batch-1 step's activations
    expected = (_llama_2_70b_decode_weight_bytes_by_hand() + activation_bytes) / 3.35e12
    assert float(e.breakdown_s["weights"]) == pytest.approx(expected, rel=1e-9)


def test_llama_2_70b_fp16_does_not_fit_one_80gb_gpu__ref_specs_part3b():
    m, h = resolve_model("llama-2-70b"), resolve_hardware("h100-sxm")
    e = estimate(m, h, _fp16(batch=1, context_tokens=0, num_gpus=1), IDEAL)
    assert not bool(e.fits)
    assert float(e.min_gpus) == 2
    assert bool(estimate(m, h, _fp16(batch=1, context_tokens=0, num_gpus=2), IDEAL).fits)


@pytest.mark.parametrize(
    ("hw_id", "ms"),
    [
        pytest.param("a100-80gb-sxm", 67.66, id="a100-80gb-sxm-67.66ms__ref_tpot-lower-bound-llama-2-70b-fp16-a100"),
        pytest.param("h100-sxm", 41.18, id="h100-sxm-41.18ms__ref_tpot-lower-bound-llama-2-70b-fp16-h100-sxm"),
        pytest.param("h200", 28.74, id="h200-28.74ms__ref_tpot-lower-bound-llama-2-70b-fp16-h200"),
        pytest.param("b200", 17.24, id="b200-17.24ms__ref_tpot-lower-bound-llama-2-70b-fp16-b200"),
    ],
)
def test_llama_2_70b_fp16_tpot_lower_bound(hw_id, ms):
    e = estimate(resolve_model("llama-2-70b"), resolve_hardware(hw_id), _fp16(batch=1, context_tokens=0), IDEAL)
    assert float(e.tpot_s) * 1e3 == pytest.approx(ms, rel=0.01)
    assert float(e.tpot_s) >= LLAMA2_70B_FP16_BYTES * 0.99 / e.hardware.memory_bandwidth_bytes_per_s


# --------------------------------------------------------------------------------------------------- peers.md 3.1

# (model, hardware, batch, context, weights, textbook all weights, textbook without the input-embedding table, rel)
# peers.md: "Textbook = (weight bytes + KV bytes)/HBM bandwidth ... all weights counted (second value: input-embedding
# table excluded, since a decode step reads one row of it)". The model reads one row (B rows), so it is compared
# with the second value; the first is checked by adding the embedding-table read back.
PEERS_DECODE = [
    pytest.param(
        "llama-2-70b", "a100-80gb-sxm", 1, 1024, "fp16", 67.8, 67.6, 0.02, id="70B-fp16-b1-ctx1024-A100__peers3.1"
    ),
    pytest.param("llama-2-70b", "h100-sxm", 1, 1024, "fp16", 41.3, 41.1, 0.02, id="70B-fp16-b1-ctx1024-H100__peers3.1"),
    pytest.param(
        "llama-2-70b", "a100-80gb-sxm", 64, 1024, "fp16", 78.2, 77.9, 0.02, id="70B-fp16-b64-ctx1024-A100__peers3.1"
    ),
    pytest.param(
        "llama-2-70b", "h100-sxm", 64, 1024, "fp16", 47.6, 47.4, 0.02, id="70B-fp16-b64-ctx1024-H100__peers3.1"
    ),
    pytest.param(
        "llama-2-70b", "a100-80gb-sxm", 1, 1024, "int4", 17.1, 17.0, 0.03, id="70B-int4w-b1-ctx1024-A100__peers3.1"
    ),
    pytest.param(
        "llama-2-70b", "h100-sxm", 1, 1024, "int4", 10.4, 10.4, 0.03, id="70B-int4w-b1-ctx1024-H100__peers3.1"
    ),
    pytest.param("llama-3.1-8b", "h100-sxm", 1, 4096, "fp16", 4.95, 4.64, 0.03, id="8B-fp16-b1-ctx4096-H100__peers3.1"),
]


@pytest.mark.parametrize(("model_id", "hw_id", "batch", "ctx", "weights", "all_w", "no_embed", "rel"), PEERS_DECODE)
def test_peers_textbook_decode(model_id, hw_id, batch, ctx, weights, all_w, no_embed, rel):
    m, h = resolve_model(model_id), resolve_hardware(hw_id)
    s = Scenario(batch=batch, context_tokens=ctx, weights=weights, kv_cache="fp16")
    tpot_ms = float(estimate(m, h, s, IDEAL).tpot_s) * 1e3
    assert tpot_ms == pytest.approx(no_embed, rel=rel)
    # the textbook's first column reads the whole input-embedding table (minus the row the model already reads)
    table_ms = (m.vocab_size - batch) * m.d_model * s.weights.bytes_per_element / h.memory_bandwidth_bytes_per_s * 1e3
    assert tpot_ms + table_ms == pytest.approx(all_w, rel=rel)


# --------------------------------------------------------------------------------------------------- peers.md 3.2

PEERS_PREFILL = [
    pytest.param("llama-2-70b", "h100-sxm", 1, 1024, 144.0, 0.03, id="70B-fp16-b1-1024-H100-144ms__peers3.2"),
    pytest.param("llama-2-70b", "a100-80gb-sxm", 1, 1024, 455.0, 0.03, id="70B-fp16-b1-1024-A100-455ms__peers3.2"),
    pytest.param("llama-2-70b", "h100-sxm", 64, 1024, 9_196.0, 0.03, id="70B-fp16-b64-1024-H100-9196ms__peers3.2"),
    pytest.param(
        "llama-2-70b", "a100-80gb-sxm", 64, 1024, 29_150.0, 0.03, id="70B-fp16-b64-1024-A100-29150ms__peers3.2"
    ),
    pytest.param("llama-3.1-8b", "h100-sxm", 1, 4096, 66.6, 0.03, id="8B-fp16-b1-4096-H100-66.6ms__peers3.2"),
]


@pytest.mark.parametrize(("model_id", "hw_id", "batch", "prompt", "textbook_ms", "rel"), PEERS_PREFILL)
def test_peers_textbook_prefill(model_id, hw_id, batch, prompt, textbook_ms, rel):
    """peers.md 3.2: textbook TTFT = 2 x non-embedding params x tokens + causal attention FLOPs at dense FP16 peak.

    The textbook runs the LM head on every prompt position; the model (like serving engines) computes logits only
    for each prompt's last position, so the textbook's LM-head FLOPs on the other B*(P-1) positions are removed
    from the reference before comparing."""
    m, h = resolve_model(model_id), resolve_hardware(hw_id)
    e = estimate(m, h, _fp16(batch=batch, context_tokens=prompt), IDEAL)
    lm_head_others_ms = 2 * batch * (prompt - 1) * m.vocab_size * m.d_model / h.dense_flop_per_s["fp16"] * 1e3
    assert float(e.ttft_s) * 1e3 == pytest.approx(textbook_ms - lm_head_others_ms, rel=rel)


def test_w4a16_prefill_runs_at_fp16_rate__peers3_2_int4w_rows():
    m, h = resolve_model("llama-2-70b"), resolve_hardware("h100-sxm")
    fp16 = estimate(m, h, _fp16(batch=1, context_tokens=1024), IDEAL)
    int4 = estimate(m, h, Scenario(batch=1, context_tokens=1024, weights="int4", kv_cache="fp16"), IDEAL)
    assert float(int4.ttft_s) == pytest.approx(float(fp16.ttft_s), rel=0.05)
    assert int4.compute_precision in ("bf16", "fp16")


def test_w8a8_fp8_prefill_is_about_half_on_h100__peers3_2_h100_fp8_rate_2x():
    m, h = resolve_model("llama-2-70b"), resolve_hardware("h100-sxm")
    fp16 = estimate(m, h, _fp16(batch=1, context_tokens=1024), IDEAL)
    fp8 = estimate(m, h, Scenario(batch=1, context_tokens=1024, weights="fp8", kv_cache="fp16"), IDEAL)
    assert fp8.compute_precision == "fp8"
    assert float(fp8.ttft_s) / float(fp16.ttft_s) == pytest.approx(0.5, rel=0.05)


@pytest.mark.parametrize(
    ("hw_id", "precision"),
    [
        pytest.param("b200", "fp4", id="b200-has-fp4__hardware.yaml-b200-dense-fp4-9000"),
        pytest.param("h100-sxm", "bf16", id="h100-falls-back-to-bf16__hardware.yaml-h100-sxm-no-fp4"),
    ],
)
def test_nvfp4_compute_precision(hw_id, precision):
    e = estimate(resolve_model("llama-3.1-8b"), resolve_hardware(hw_id), Scenario(weights="nvfp4"), IDEAL)
    assert e.compute_precision == precision


# --------------------------------------------------------------------------------------------------- facts


def _facts() -> dict[str, dict]:
    return {f["id"]: f for f in yaml.safe_load(MODEL_FACTS.read_text(encoding="utf-8"))}


_CATALOG_WITH_FACTS = sorted(set(load_model_catalog()) & set(_facts()))


def test_most_catalog_models_have_facts():
    assert len(_CATALOG_WITH_FACTS) >= 20


@pytest.mark.parametrize("model_id", [pytest.param(i, id=f"{i}__facts") for i in _CATALOG_WITH_FACTS])
def test_total_params_match_model_facts(model_id):
    facts = _facts()[model_id]
    assert total_params(resolve_model(model_id)) == pytest.approx(facts["total_params_computed"], rel=0.005)


@pytest.mark.parametrize("model_id", [pytest.param(i, id=f"{i}__facts") for i in _CATALOG_WITH_FACTS])
def test_kv_bytes_per_token_match_model_facts(model_id):
    facts = _facts()[model_id]
    assert kv_bytes_per_token(resolve_model(model_id), 2.0) == pytest.approx(
        facts["kv_bytes_per_token_bf16"], rel=1e-12
    )


def test_llama_2_70b_param_groups__ref_specs_part3a():
    """specs.md Part 3 (a): 150,994,944 attention + 704,643,072 MLP per layer; 262,144,000 embedding and head."""
    c = param_counts(resolve_model("llama-2-70b"))
    assert c["attention"] == 80 * 150_994_944
    assert c["mlp"] == 80 * 704_643_072
    assert c["embedding"] == c["lm_head"] == 262_144_000
    assert c["norms"] == 80 * 16_384 + 8_192


# --------------------------------------------------------------------------------------------------- 2025-26 models

# Publisher-reported (total, active) parameters in billions, as each model card states them (data/models.yaml cites it;
# params_reported repeats them), and the tolerance the computed counts must meet, with why it is that wide.
REPORTED_2025_26 = {
    # model: (total B, active B, rel. tolerance total, rel. tolerance active)
    "kimi-k2": (1000, 32, 0.03, 0.03),  # card rounds 1.03T / 32.9B to "1T" / "32B"
    "kimi-k2-thinking": (1000, 32, 0.03, 0.03),
    "deepseek-v3.1": (671, 37, 0.005, 0.02),  # 37.5B active computed (README_WEIGHTS: 36.6B + 0.9B head)
    "deepseek-v3.2": (671, 37, 0.005, 0.04),  # + 0.85B indexer weights the card does not add; 1.4B of them active
    "llama-4-scout": (109, 17, 0.015, 0.015),  # the 109B includes the vision encoder (not counted here)
    "llama-4-maverick": (400, 17, 0.005, 0.015),
    "glm-4.5": (355, 32, 0.01, 0.06),  # 33.6B active computed: attention biases / MTP aside, the card rounds down
    "glm-4.6": (355, 32, 0.01, 0.06),
    "qwen3-coder-480b-a35b": (480, 35, 0.005, 0.015),
    "qwen3.5-397b-a17b": (397, 17, 0.005, 0.025),  # vision encoder not counted
    "minimax-m2": (230, 10, 0.01, 0.03),  # active: the card's 10B excludes embeddings and LM head (see below)
}


@pytest.mark.parametrize("model_id", list(REPORTED_2025_26))
def test_2025_26_params_match_the_publishers(model_id):
    total_b, active_b, tol_total, tol_active = REPORTED_2025_26[model_id]
    m = resolve_model(model_id)
    total_label = "1T" if total_b == 1000 else f"{total_b}B"
    assert m.params_reported == f"{total_label} total; {active_b}B active"  # what the pages show
    assert total_params(m) / 1e9 == pytest.approx(total_b, rel=tol_total)
    active = active_params(m)
    if model_id == "minimax-m2":  # MiniMax counts activated parameters without the embedding table and LM head
        c = param_counts(m)
        active -= c["embedding"] + c["lm_head"]
    assert active / 1e9 == pytest.approx(active_b, rel=tol_active)


def test_2025_26_models_have_their_structure():
    """The attention and MoE structure each publisher describes, as the catalog holds it."""
    v32, scout, maverick = (
        resolve_model("deepseek-v3.2"),
        resolve_model("llama-4-scout"),
        resolve_model("llama-4-maverick"),
    )
    assert v32.sparse_attention.top_k_tokens == 2048 and v32.mla is not None
    for llama4 in (scout, maverick):  # 3 of 4 layers chunked (8192), a shared expert, top-1 routing
        assert llama4.sliding_window.chunked and llama4.sliding_window.window_tokens == 8192
        assert llama4.num_window_layers == 36 and llama4.num_full_attention_layers == 12
        assert llama4.moe.num_shared_experts == 1 and llama4.moe.experts_per_token == 1
    assert scout.num_moe_layers == 48 and maverick.num_moe_layers == 24  # Maverick interleaves MoE and dense layers
    qwen35 = resolve_model("qwen3.5-397b-a17b")
    assert qwen35.num_linear_layers == 45 and qwen35.num_full_attention_layers == 15
    assert resolve_model("kimi-k2").moe.num_experts == 384 and resolve_model("kimi-k2").num_heads == 64
