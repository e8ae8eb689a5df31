"""Invariants over random catalog model x hardware x precision x batch/context/GPU scenarios (hypothesis)."""

from __future__ import annotations

import model_fixtures  # noqa: F401  (puts the repository root on sys.path)
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tpot_model import (
    BUCKETS,
    IDEAL,
    Scenario,
    estimate,
    load_hardware_catalog,
    load_model_catalog,
    resolve_profile,
)
from tpot_model.estimate import MAX_GPUS_SEARCHED

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)  # the same examples every run: CI reproducible
REL = 1e-12

MODELS = sorted(load_model_catalog())
DENSE_MODELS = sorted(k for k, m in load_model_catalog().items() if m.moe is None)
HARDWARE = sorted(load_hardware_catalog())
WEIGHTS = ["bf16", "fp16", "fp8", "int8", "int8-wo", "int4", "awq-int4", "nvfp4", "mxfp4", "q4_k_m", "q8_0", "5.5"]
KV = ["bf16", "fp16", "fp8", "int4"]
PROFILES = ["ideal", "typical"]

models = st.sampled_from(MODELS)
# chunked local attention (Llama 4): a query right after a chunk boundary sees almost none of its chunk, so a longer
# context can read less KV cache (test_chunked_attention_can_read_less_at_a_chunk_boundary); the others' TPOT grows
UNCHUNKED = sorted(k for k, m in load_model_catalog().items() if not (m.sliding_window and m.sliding_window.chunked))
hardware = st.sampled_from(HARDWARE)
weights = st.sampled_from(WEIGHTS)
kv = st.sampled_from(KV)
profiles = st.sampled_from(PROFILES)
gpus = st.sampled_from([1, 2, 4, 8])
batch = st.integers(1, 4_096)
context = st.integers(0, 200_000)
outputs = st.integers(1, 2_000)


def _setup(model_id, hw_id, profile_id):
    return load_model_catalog()[model_id], load_hardware_catalog()[hw_id], resolve_profile(profile_id)


def _nondecreasing(values: np.ndarray) -> bool:
    return bool(np.all(np.diff(values) >= -REL * np.abs(values[1:])))


@SETTINGS
@given(st.sampled_from(UNCHUNKED), hardware, weights, kv, profiles, gpus, batch, st.lists(context, min_size=2,
       max_size=8), outputs)  # fmt: skip
def test_tpot_never_decreases_with_context(model_id, hw_id, w, k, profile_id, n, b, contexts, out):
    m, h, p = _setup(model_id, hw_id, profile_id)
    ctx = np.sort(np.array(contexts, dtype=float))
    e = estimate(m, h, Scenario(batch=b, context_tokens=ctx, output_tokens=out, num_gpus=n, weights=w, kv_cache=k), p)
    assert e.tpot_s.shape == ctx.shape
    assert _nondecreasing(e.tpot_s), (ctx, e.tpot_s)
    assert _nondecreasing(e.ttft_s), (ctx, e.ttft_s)


@SETTINGS
@given(models, hardware, weights, kv, profiles, gpus, st.lists(batch, min_size=2, max_size=8), context, outputs)
def test_tpot_never_decreases_with_batch(model_id, hw_id, w, k, profile_id, n, batches, ctx, out):
    m, h, p = _setup(model_id, hw_id, profile_id)
    b = np.sort(np.array(batches, dtype=float))
    e = estimate(m, h, Scenario(batch=b, context_tokens=ctx, output_tokens=out, num_gpus=n, weights=w, kv_cache=k), p)
    assert _nondecreasing(e.tpot_s), (b, e.tpot_s)
    assert _nondecreasing(e.ttft_s), (b, e.ttft_s)


@SETTINGS
@given(models, hardware, weights, kv, profiles, st.lists(batch, min_size=1, max_size=4), context, outputs, gpus)
def test_breakdown_sums_to_tpot_and_is_nonnegative(model_id, hw_id, w, k, profile_id, batches, ctx, out, n):
    m, h, p = _setup(model_id, hw_id, profile_id)
    s = Scenario(batch=batches, context_tokens=ctx, output_tokens=out, num_gpus=n, weights=w, kv_cache=k)
    e = estimate(m, h, s, p)
    assert set(e.breakdown_s) == set(BUCKETS)
    total = sum(np.asarray(v, dtype=float) for v in e.breakdown_s.values())
    np.testing.assert_allclose(total, e.tpot_s, rtol=1e-9, atol=0)
    for name, v in e.breakdown_s.items():
        assert np.all(np.asarray(v) >= 0), name
    np.testing.assert_allclose(sum(e.prefill.breakdown_s.values()), e.ttft_s, rtol=1e-9, atol=0)


@SETTINGS
@given(models, hardware, weights, kv, profiles, st.lists(batch, min_size=1, max_size=5), context, outputs, gpus)
def test_scalar_and_array_inputs_agree(model_id, hw_id, w, k, profile_id, batches, ctx, out, n):
    m, h, p = _setup(model_id, hw_id, profile_id)
    arr = estimate(
        m, h, Scenario(batch=batches, context_tokens=ctx, output_tokens=out, num_gpus=n, weights=w, kv_cache=k), p
    )
    for i, b in enumerate(batches):
        one = estimate(
            m, h, Scenario(batch=b, context_tokens=ctx, output_tokens=out, num_gpus=n, weights=w, kv_cache=k), p
        )
        for field in ("tpot_s", "ttft_s", "time_to_serve_s", "memory_per_gpu_bytes", "max_batch", "min_gpus"):
            a, s = np.asarray(getattr(arr, field))[i], float(getattr(one, field))
            assert a == pytest.approx(s, rel=1e-12, nan_ok=True), field
        for bucket in BUCKETS:
            assert arr.breakdown_s[bucket][i] == pytest.approx(float(one.breakdown_s[bucket]), rel=1e-12, abs=1e-300)
        assert bool(arr.compute_bound[i]) == bool(one.compute_bound)
        assert bool(arr.fits[i]) == bool(one.fits)


@SETTINGS
@given(models, hardware, weights, kv, profiles, batch, context, outputs, gpus)
def test_every_result_finite_and_positive(model_id, hw_id, w, k, profile_id, b, ctx, out, n):
    m, h, p = _setup(model_id, hw_id, profile_id)
    e = estimate(m, h, Scenario(batch=b, context_tokens=ctx, output_tokens=out, num_gpus=n, weights=w, kv_cache=k), p)
    for field in (
        "tpot_s",
        "ttft_s",
        "time_to_serve_s",
        "memory_per_gpu_bytes",
        "workspace_bytes_per_gpu",
        "arithmetic_intensity_flop_per_byte",
        "kv_cache_peak_bytes",
    ) + (("joules_per_token",) if h.tdp_w is not None else ()):  # announced chips may lack a published TDP
        v = np.asarray(getattr(e, field), dtype=float)
        assert np.all(np.isfinite(v)) and np.all(v > 0), (field, v)
    if h.tdp_w is None:
        assert np.all(np.isnan(np.asarray(e.joules_per_token)))  # no power: no energy figure, never a made-up one
    assert np.isfinite(e.weight_bytes) and e.weight_bytes > 0
    assert np.all(np.asarray(e.kv_cache_bytes) >= 0)
    assert e.ridge_point_flop_per_byte > 0
    assert np.all(e.tokens_per_s_total > 0) and np.all(np.isfinite(e.tokens_per_s_total))
    if np.isfinite(e.price_usd_per_gpu_hour):
        assert np.all(np.isfinite(e.usd_per_1M_tokens)) and np.all(e.usd_per_1M_tokens > 0)


@SETTINGS
@given(st.sampled_from(DENSE_MODELS), hardware)
def test_dense_memory_bound_at_batch_one_compute_bound_at_huge_batch(model_id, hw_id):
    m, h, _ = _setup(model_id, hw_id, "ideal")
    e = estimate(m, h, Scenario(batch=[1, 1_000_000], context_tokens=0, weights="bf16", kv_cache="bf16"), IDEAL)
    assert not bool(e.compute_bound[0])
    assert bool(e.compute_bound[1])


@SETTINGS
@given(st.sampled_from(DENSE_MODELS), hardware, gpus)
def test_bound_switches_where_intensity_crosses_ridge(model_id, hw_id, n):
    m, h, _ = _setup(model_id, hw_id, "ideal")
    batches = np.unique(np.round(np.geomspace(1, 100_000, 60)))
    e = estimate(m, h, Scenario(batch=batches, context_tokens=1, num_gpus=n, weights="bf16", kv_cache="bf16"), IDEAL)
    assume(e.compute_precision == e.attention_precision)
    ai, ridge = e.arithmetic_intensity_flop_per_byte, e.ridge_point_flop_per_byte
    away = np.abs(ai / ridge - 1) > 1e-9  # leave out points exactly on the ridge (rounding decides them)
    assert np.array_equal(e.compute_bound[away], (ai > ridge)[away])
    # batch 1 memory-bound; intensity grows with batch, so the bound switches at most once, memory -> compute
    assert not e.compute_bound[0]
    assert np.all(np.diff(ai) >= 0)
    assert np.all(np.diff(e.compute_bound.astype(int)) >= 0)


@SETTINGS
@given(models, hardware, weights, kv, profiles, st.integers(1, 256), st.integers(0, 32_768), st.integers(1, 4_096))
def test_min_gpus_fits_and_half_does_not(model_id, hw_id, w, k, profile_id, b, ctx, out):
    m, h, p = _setup(model_id, hw_id, profile_id)
    s = dict(batch=b, context_tokens=ctx, output_tokens=out, weights=w, kv_cache=k)
    e = estimate(m, h, Scenario(**s), p)
    n = float(e.min_gpus)
    if np.isnan(n):
        assert not bool(estimate(m, h, Scenario(num_gpus=MAX_GPUS_SEARCHED, **s), p).fits)
        return
    at = estimate(m, h, Scenario(num_gpus=n, **s), p)
    assert float(at.memory_per_gpu_bytes) <= at.usable_memory_per_gpu_bytes
    assert bool(at.fits)
    if n > 1:
        half = estimate(m, h, Scenario(num_gpus=n / 2, **s), p)
        assert float(half.memory_per_gpu_bytes) > half.usable_memory_per_gpu_bytes
        assert not bool(half.fits)
    assert bool(e.fits) == (n == 1)


@SETTINGS
@given(models, hardware, weights, kv, profiles, gpus, st.integers(0, 32_768), st.integers(1, 4_096))
def test_max_batch_fits_and_one_more_does_not(model_id, hw_id, w, k, profile_id, n, ctx, out):
    m, h, p = _setup(model_id, hw_id, profile_id)
    s = dict(context_tokens=ctx, output_tokens=out, num_gpus=n, weights=w, kv_cache=k)
    mb = float(estimate(m, h, Scenario(batch=1, **s), p).max_batch)
    assert mb >= 0 and mb == np.floor(mb)
    if mb >= 1:
        assert bool(estimate(m, h, Scenario(batch=mb, **s), p).fits), mb
    assert not bool(estimate(m, h, Scenario(batch=mb + 1, **s), p).fits), mb


def test_chunked_attention_can_read_less_at_a_chunk_boundary():
    """Llama 4 Maverick attends within 8,192-token chunks in three layers of four: decoding at position 8,192 (a new
    chunk) its local layers read almost no cache, at 2,049 they read 2,049 tokens; the global layer reads the whole
    context. Three local layers' 2,049 tokens outweigh one global layer's extra 6,143: TPOT falls by a hair (the
    property test's counterexample, a100-40gb, ideal profile, batch 1, one output token)."""
    m, h, p = _setup("llama-4-maverick", "a100-40gb", "ideal")
    assert m.sliding_window is not None and m.sliding_window.chunked
    e = estimate(m, h, Scenario(batch=1, context_tokens=np.array([2049.0, 8192.0]), output_tokens=1, num_gpus=1,
                                weights="bf16", kv_cache="bf16"), p)  # fmt: skip
    assert e.tpot_s[1] < e.tpot_s[0] and e.tpot_s[1] == pytest.approx(e.tpot_s[0], rel=1e-4)
