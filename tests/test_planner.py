"""Serving planner (tpot_model.planner) and its CLI: the SLO frontier, GPU count, pipeline parallelism, speculative
decoding, capacity, disaggregation and levers. Hand-checked numbers on the tiny in-code models; catalog models for
the behaviours analysts rely on; brute force (one scalar estimate per batch) as the independent check of the pick."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest
from model_fixtures import TINY_DENSE, TOY_GPU

from tpot_model import (
    IDEAL,
    Scenario,
    estimate,
    load_hardware_catalog,
    load_model_catalog,
    resolve_profile,
    speculative,
    total_params,
)
from tpot_model import planner as pl
from tpot_model.estimate import weight_bytes_per_gpu
from tpot_model.planner_cli import frontier_main
from tpot_model.roofline import draft_head_params, kv_cache_bytes_per_sequence

MODELS = load_model_catalog()
HARDWARE = load_hardware_catalog()
TYPICAL = resolve_profile("typical")
L70, H200 = MODELS["llama-3.1-70b"], HARDWARE["h200"]
BASE = Scenario(batch=32, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8")


def _est(model, hw, s, batch, profile=TYPICAL):
    return estimate(model, hw, replace(s, batch=batch), profile)


def _brute_force(model, hw, s, profile, target_s, ttft_s=None, top=4096):
    """The largest batch meeting the target(s) and fitting, one scalar estimate per batch (independent of planner)."""
    best = 0
    for b in range(1, top + 1):
        e = _est(model, hw, s, b, profile)
        if not bool(e.fits):
            break
        if float(e.tpot_s) <= target_s and (ttft_s is None or float(e.ttft_s) <= ttft_s):
            best = b
    return best


# --------------------------------------------------------------------------------------------------- speculative formula


@pytest.mark.parametrize(
    ("a", "k", "expected"),
    [
        (0.8, 4, 3.3616),  # (1 - 0.8^5) / 0.2 = (1 - 0.32768) / 0.2
        (0.0, 4, 1.0),  # nothing accepted: the verify step's own token
        (0.5, 1, 1.5),  # 1 + a
        (1.0, 4, 5.0),  # everything accepted: k + 1
        (0.7, 2, 2.19),  # 1 + 0.7 + 0.49
    ],
)
def test_expected_tokens_per_step(a, k, expected):
    assert float(speculative.expected_tokens_per_step(a, k)) == pytest.approx(expected, rel=1e-12)


def test_expected_tokens_broadcasts_and_break_even_inverts_it():
    a = np.linspace(0, 0.99, 12)
    k = np.array([[1], [4], [8]])
    E = speculative.expected_tokens_per_step(a, k)
    assert E.shape == (3, 12) and np.all(np.diff(E, axis=1) > 0)
    back = speculative.break_even_acceptance(E[:, 1:], k)
    assert back == pytest.approx(np.broadcast_to(a[1:], back.shape), abs=1e-9)
    assert np.isnan(speculative.break_even_acceptance(5.0, 4))  # needs a = 1: never pays
    assert float(speculative.break_even_acceptance(0.9, 4)) == 0.0  # pays at any acceptance


# --------------------------------------------------------------------------------------------------- frontier


def test_frontier_memory_bound_hand_checked():
    """TINY_DENSE on a 20 MB toy GPU, ideal profile, target far away: memory decides, by hand.

    weights 86,848 x 2 B = 173,696 B; workspace = B x (384 x 2 + 100 x 4) + 2048 x 384 x 2 x 2 = 1,168 B + 3,145,728 B;
    KV at 1,000 + 24 tokens = 1,024 x 2 layers x 64 elements x 2 B = 262,144 B per sequence;
    (20,000,000 - 173,696 - 3,145,728) / (262,144 + 1,168) = 63.35 -> 63 sequences."""
    gpu = replace(TOY_GPU, memory_bytes=20e6)
    s = Scenario(batch=1, context_tokens=1000, output_tokens=24, num_gpus=1, weights="bf16", kv_cache="bf16")
    p = pl.frontier(TINY_DENSE, gpu, s, IDEAL, tpot_target_s=10.0)
    assert (p.batch, p.limited_by, p.max_batch_memory) == (63, "memory", 63)
    assert bool(_est(TINY_DENSE, gpu, s, 63, IDEAL).fits) and not bool(_est(TINY_DENSE, gpu, s, 64, IDEAL).fits)


def test_frontier_compute_or_batch_limit_when_the_search_range_ends():
    short = Scenario(batch=1, context_tokens=0, output_tokens=1, num_gpus=1, weights="bf16")
    p = pl.frontier(MODELS["llama-3.1-8b"], HARDWARE["h100-sxm"], short, TYPICAL, tpot_target_s=1.0, max_batch=1024)
    assert (p.batch, p.limited_by, p.compute_bound) == (1024, "compute", True)  # tokens/s per GPU has flattened
    q = pl.frontier(TINY_DENSE, TOY_GPU, short, IDEAL, tpot_target_s=10.0, max_batch=8)  # bandwidth-bound at 8
    assert (q.batch, q.limited_by, q.compute_bound) == (8, "batch_limit", False)


@pytest.mark.parametrize(
    ("model", "hw", "gpus", "target_ms", "limited"),
    [
        ("llama-3.1-70b", "h200", 2, 50, "memory"),
        ("llama-3.1-70b", "h200", 2, 30, "slo"),
        ("llama-3.1-8b", "h100-sxm", 1, 20, "slo"),
        ("deepseek-v3", "b200", 8, 50, None),
        ("qwen3-next-80b-a3b", "b200", 1, 50, None),
    ],
)
def test_frontier_is_the_largest_feasible_batch(model, hw, gpus, target_ms, limited):
    m, h = MODELS[model], HARDWARE[hw]
    s = replace(BASE, num_gpus=gpus)
    p = pl.frontier(m, h, s, TYPICAL, target_ms / 1e3)
    assert p.feasible and p.tpot_s <= target_ms / 1e3
    if limited:
        assert p.limited_by == limited
    nxt = _est(m, h, s, p.batch + 1)
    assert (not bool(nxt.fits)) or float(nxt.tpot_s) > target_ms / 1e3  # batch + 1 violates memory or the target
    assert p.batch == _brute_force(m, h, s, TYPICAL, target_ms / 1e3)


def test_frontier_agrees_with_estimate_at_its_batch():
    p = pl.frontier(L70, H200, BASE, TYPICAL, 0.05)
    e = _est(L70, H200, BASE, p.batch)
    assert p.tpot_s == pytest.approx(float(e.tpot_s), rel=1e-12)
    assert p.ttft_s == pytest.approx(float(e.ttft_s), rel=1e-12)
    assert p.tokens_per_s_per_gpu == pytest.approx(float(e.tokens_per_s_per_gpu), rel=1e-12)
    assert p.usd_per_1M_tokens == pytest.approx(float(e.usd_per_1M_tokens), rel=1e-12)
    assert p.memory_per_gpu_bytes == pytest.approx(float(e.memory_per_gpu_bytes), rel=1e-12)
    # and the curve it came from is the estimate's, batch by batch
    sweep = _est(L70, H200, BASE, p.sweep_batch)
    assert p.sweep_tpot_s == pytest.approx(sweep.tpot_s, rel=1e-12)


def test_frontier_ttft_target_binds():
    p = pl.frontier(L70, H200, BASE, TYPICAL, 0.05, ttft_target_s=2.0)
    assert (p.limited_by, p.slo_binding) == ("slo", "ttft")
    assert p.ttft_s <= 2.0 < float(_est(L70, H200, BASE, p.batch + 1).ttft_s)
    assert p.batch == _brute_force(L70, H200, BASE, TYPICAL, 0.05, ttft_s=2.0)


def test_frontier_infeasible_states_are_data_not_errors():
    no_fit = pl.frontier(MODELS["deepseek-v3"], H200, replace(BASE, num_gpus=1), TYPICAL, 0.05)
    assert (no_fit.feasible, no_fit.batch, no_fit.limited_by, no_fit.slo_binding) == (False, 0, "memory", "")
    assert math.isnan(no_fit.tpot_s) and math.isnan(no_fit.usd_per_1M_tokens)
    too_fast = pl.frontier(L70, H200, BASE, TYPICAL, 0.005)
    assert (too_fast.feasible, too_fast.limited_by, too_fast.slo_binding) == (False, "slo", "tpot")
    assert too_fast.batch1_tpot_s == pytest.approx(float(_est(L70, H200, BASE, 1).tpot_s))


def test_frontier_without_a_price_still_gives_throughput():
    p = pl.frontier(L70, HARDWARE["mi355x"], BASE, TYPICAL, 0.05)  # no on-demand price
    assert p.feasible and p.tokens_per_s_per_gpu > 0 and math.isnan(p.usd_per_1M_tokens)


def test_frontier_arrays_match_scalar_frontiers():
    s = replace(BASE, num_gpus=np.array([1.0, 2.0, 4.0, 8.0]))
    fa = pl.frontier_arrays(L70, H200, s, TYPICAL, tpot_target_s=0.05)
    for i, n in enumerate((1, 2, 4, 8)):
        p = pl.frontier(L70, H200, replace(BASE, num_gpus=n), TYPICAL, 0.05)
        assert (int(fa.batch[i]), str(fa.limited_by[i])) == (p.batch, p.limited_by)
        assert float(fa.usd_per_1M_tokens[i]) == pytest.approx(p.usd_per_1M_tokens)


def test_cheapest_picks_the_lowest_cost_gpu_count():
    c = pl.cheapest(L70, H200, BASE, TYPICAL, 0.05)
    costs = {
        n: pl.frontier(L70, H200, replace(BASE, num_gpus=n), TYPICAL, 0.05).usd_per_1M_tokens for n in (1, 2, 4, 8)
    }
    assert c.num_gpus == min(costs, key=costs.get)
    assert c.usd_per_1M_tokens == pytest.approx(costs[c.num_gpus])


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf"), "x"])
def test_frontier_rejects_bad_targets(bad):
    with pytest.raises(ValueError, match="tpot_target_s"):
        pl.frontier(L70, H200, BASE, TYPICAL, bad)


def test_cost_grid_cells_are_frontiers_and_fp4_is_vendor_specific():
    hws = [HARDWARE["h100-sxm"], HARDWARE["mi355x"]]
    g = pl.cost_grid(L70, hws, BASE, TYPICAL, tpot_target_s=0.05, gpu_options=None, price_applies_to="h200")
    assert g.formats == (("bf16", "fp8", "nvfp4"), ("bf16", "fp8", "mxfp4"))
    cell = g.cells[0][1]
    ref = pl.frontier(L70, hws[0], replace(BASE, weights="fp8"), TYPICAL, 0.05)
    assert (cell.batch, cell.usd_per_1M_tokens) == (ref.batch, pytest.approx(ref.usd_per_1M_tokens))
    # a price override belongs to the scenario's hardware only
    priced = replace(BASE, price_usd_per_gpu_hour=100.0)
    other = pl.cost_grid(L70, hws[:1], priced, TYPICAL, tpot_target_s=0.05, gpu_options=None, price_applies_to="h200")
    own = pl.cost_grid(L70, hws[:1], priced, TYPICAL, tpot_target_s=0.05, gpu_options=None, price_applies_to="h100-sxm")
    assert other.cells[0][1].usd_per_1M_tokens == pytest.approx(ref.usd_per_1M_tokens)
    assert own.cells[0][1].usd_per_1M_tokens == pytest.approx(ref.usd_per_1M_tokens * 100 / 2.49)


# --------------------------------------------------------------------------------------------------- GPU count


def test_tp_scaling_matches_estimate_and_communication_grows():
    tp = pl.tp_scaling(L70, H200, BASE, TYPICAL, (1, 2, 4, 8, 16), tpot_target_s=0.05)
    e = estimate(L70, H200, replace(BASE, num_gpus=np.array([1.0, 2, 4, 8, 16])), TYPICAL)
    assert tp.tpot_s == pytest.approx(e.tpot_s)
    assert tp.communication_fraction[0] == 0.0 and np.all(np.diff(tp.communication_fraction) > 0)
    assert np.all(tp.scaling_efficiency[1:] < 1.0)  # communication eats part of the gain
    meets = [n for n, t, f in zip(tp.num_gpus, tp.tpot_s, tp.fits, strict=True) if f and t <= 0.05]
    assert tp.min_gpus_meeting_target == meets[0]
    assert tp.best_num_gpus == int(tp.num_gpus[np.nanargmax(tp.frontier.tokens_per_s_per_gpu)])


def test_pipeline_parallel_does_not_cut_the_per_token_time():
    one = replace(BASE, batch=1)
    pp = pl.pipeline_parallel(L70, H200, one, TYPICAL, (1, 2, 4, 8))
    single = float(_est(L70, H200, one, 1).tpot_s)
    assert pp.tpot_s[0] == pytest.approx(single)
    assert np.all(pp.tpot_s[1:] > single)  # batch 1: every stage in turn, plus the hops
    assert np.all(np.diff(pp.memory_per_gpu_bytes) < 0)  # but each GPU holds less
    # a batch smaller than the stage count idles the stages: with 80 layers over 4 stages and B = 1,
    # bubble = 1 - (T/4) / (T + 3 hops), hop = latency + 1 x 8192 x 2 B / (2 x link)
    T = single
    hop = TYPICAL.allreduce_latency_s + 8192 * 2 / (2 * H200.interconnect_bytes_per_s * TYPICAL.interconnect_efficiency)
    assert pp.transfer_s[2] == pytest.approx(3 * hop)
    assert pp.bubble_fraction[2] == pytest.approx(1 - (T / 4) / (T + 3 * hop))


def test_pipeline_parallel_at_a_batch_is_the_sum_of_the_stages():
    pp = pl.pipeline_parallel(L70, H200, BASE, TYPICAL, (1, 2, 3, 4))
    for P, tpot, b in zip(pp.stages, pp.tpot_s, pp.micro_batch, strict=True):
        micro = float(_est(L70, H200, BASE, b).tpot_s)  # the whole model at the micro-batch, one TP group
        assert tpot >= micro * (1 - 1e-12)
        assert tpot == pytest.approx(micro * P * math.ceil(80 / P) / 80 + pp.transfer_s[list(pp.stages).index(P)])
    tp_same_gpus = pl.tp_scaling(L70, H200, BASE, TYPICAL, (4, 8)).tpot_s
    assert pp.tpot_s[1] > tp_same_gpus[0] and pp.tpot_s[3] > tp_same_gpus[1]  # TP cuts the time, PP hardly
    # memory: (weights / TP + B x KV) x the busiest stage's share + the micro-batch's workspace
    kv = 32 * kv_cache_bytes_per_sequence(L70, 4096 + 1024, 2.0) / 2
    w = total_params(L70) * 1.0 / 2
    ws = _est(L70, H200, BASE, 16).workspace_bytes_per_gpu
    assert pp.memory_per_gpu_bytes[1] == pytest.approx((w + kv) * 40 / 80 + float(ws))


# --------------------------------------------------------------------------------------------------- speculative


def test_speculative_round_and_effective_tpot():
    draft = pl.default_draft(L70, MODELS)
    assert draft is not None and draft.id == "llama-3.1-8b"
    sp = pl.speculative(L70, H200, BASE, TYPICAL, k=4, acceptance=0.8, draft=draft)
    base = float(_est(L70, H200, BASE, 32).tpot_s)
    d = float(estimate(draft, H200, BASE, TYPICAL).tpot_s)
    assert float(sp.baseline_tpot_s) == pytest.approx(base)
    assert float(sp.draft_step_s) == pytest.approx(d)
    # the verify step costs more than one plain step, less than the estimate at B x (k + 1) (KV read once)
    assert base < float(sp.verify_step_s) <= float(_est(L70, H200, BASE, 160).tpot_s)
    assert float(sp.round_s) == pytest.approx(4 * d + float(sp.verify_step_s))
    assert float(sp.tpot_s) == pytest.approx(float(sp.round_s) / 3.3616)
    assert float(sp.speedup) == pytest.approx(base / float(sp.tpot_s))
    assert float(sp.tokens_per_s_total) == pytest.approx(32 * 3.3616 / float(sp.round_s))


def test_speculative_zero_acceptance_never_pays_and_break_even_is_where_speedup_is_one():
    draft = MODELS["llama-3.1-8b"]
    sp0 = pl.speculative(L70, H200, BASE, TYPICAL, k=4, acceptance=0.0, draft=draft)
    assert float(sp0.tokens_per_step) == 1.0 and float(sp0.speedup) < 1.0
    be = float(sp0.break_even_acceptance)
    at_be = pl.speculative(L70, H200, BASE, TYPICAL, k=4, acceptance=be, draft=draft)
    assert float(at_be.speedup) == pytest.approx(1.0, rel=1e-9)


def test_speculative_mtp_cost_and_broadcasting():
    sp = pl.speculative(L70, H200, BASE, TYPICAL, k=2, acceptance=0.7, draft=None, mtp_cost=0.05)
    assert sp.draft_id == "mtp" and float(sp.draft_step_s) == pytest.approx(0.05 * float(sp.baseline_tpot_s))
    assert (
        0.0 < speculative.mtp_cost_fraction(L70) < 0.1
        and 0.0 < speculative.mtp_cost_fraction(MODELS["deepseek-v3"]) < 0.1
    )
    grid = pl.speculative(
        L70, H200, BASE, TYPICAL, k=np.array([[1.0], [4.0]]), acceptance=np.array([0.0, 0.5, 0.9]), mtp_cost=0.05
    )
    assert grid.tpot_s.shape == (2, 3)
    one = pl.speculative(L70, H200, BASE, TYPICAL, k=4, acceptance=0.5, mtp_cost=0.05)
    assert float(grid.tpot_s[1, 1]) == pytest.approx(float(one.tpot_s))


def test_the_draft_head_weights_are_held_beside_the_model():
    # DeepSeek-V3's MTP module by hand: one MoE layer (MLA 187,107,328 + 256 experts x 3 x 7,168 x 2,048 +
    # the shared expert 44,040,192 + router 1,835,008 + 2 norms) + a 2 x 7,168 -> 7,168 projection + 3 norms
    v3 = MODELS["deepseek-v3"]
    experts = 256 * 3 * 7168 * 2048
    head = 187_107_328 + experts + 44_040_192 + 1_835_008 + 2 * 7168 + 2 * 7168**2 + 3 * 7168
    assert draft_head_params(v3) == (head, experts) == (11_610_067_968, 11_274_289_152)
    # a model shipping none gets a one-layer EAGLE-style head: Llama 3.1 70B's layer + projection, 0.99B
    assert draft_head_params(L70)[0] == pytest.approx(0.99e9, rel=0.01)
    # held by layout: tp splits it all, dp-ep replicates all but the routed experts; counted once however set
    s = Scenario(batch=8, context_tokens=1024, output_tokens=256, num_gpus=16, weights="fp8", kv_cache="fp8")
    for par, extra in (("tp", head / 16), ("dp-ep", head - experts + experts / 16)):
        plain, held = (weight_bytes_per_gpu(v3, replace(s, parallelism=par, draft_head=h), 16) for h in (0, 1))
        assert float(held - plain) == pytest.approx(extra)
        mtp = (pl.speculative(v3, HARDWARE["h200"], replace(s, parallelism=par, draft_head=h), TYPICAL, k=3,
                              acceptance=0.5) for h in (False, True))  # fmt: skip
        assert len({float(sp.memory_per_gpu_bytes) for sp in mtp}) == 1
    # and its attention layer's cache: one MLA layer more than the model's 61, 576 FP8 bytes a token (a review)
    plain, held = (estimate(v3, HARDWARE["h200"], replace(s, draft_head=h), TYPICAL) for h in (False, True))
    assert float(held.kv_cache_peak_bytes) == pytest.approx(float(plain.kv_cache_peak_bytes) * 62 / 61)
    assert float(held.kv_cache_peak_bytes - plain.kv_cache_peak_bytes) == 8 * (1024 + 256) * 576


def test_speculative_stops_paying_as_the_batch_grows():
    # short sequences: the KV cache is small, so large batches turn the step compute-bound
    s = replace(BASE, batch=np.array([1.0, 8, 64, 512, 2048]), context_tokens=64, output_tokens=64)
    sp = pl.speculative(MODELS["llama-3.1-8b"], H200, s, TYPICAL, k=4, acceptance=0.7, mtp_cost=0.05)
    assert sp.speedup[0] > 1.5 and sp.speedup[-1] < 1.0 and np.all(np.diff(sp.speedup) < 0)


def test_speculative_rejects_bad_inputs():
    with pytest.raises(ValueError, match="k"):
        pl.speculative(L70, H200, BASE, TYPICAL, k=0, acceptance=0.5)
    with pytest.raises(ValueError, match="acceptance"):
        pl.speculative(L70, H200, BASE, TYPICAL, k=2, acceptance=1.5)


def test_speculative_frontier_meets_the_target_on_effective_tpot():
    sf = pl.speculative_frontier(L70, H200, BASE, TYPICAL, tpot_target_s=0.02, k=4, acceptance=0.8, mtp_cost=0.05)
    base = pl.frontier(L70, H200, BASE, TYPICAL, 0.02)
    assert sf.feasible and sf.tpot_s <= 0.02 and sf.batch > base.batch  # MTP lets more users meet a tight target


@pytest.mark.parametrize(
    ("model", "draft"),
    [
        ("llama-3.1-70b", "llama-3.1-8b"),
        ("llama-3.3-70b", "llama-3.1-8b"),
        ("qwen3-32b", "qwen3-8b"),
        ("mixtral-8x7b", "mistral-7b-v0.1"),
        ("gpt-oss-120b", "gpt-oss-20b"),
        ("deepseek-v3", None),
        ("qwen3-next-80b-a3b", None),  # 3B active: no catalog Qwen3 is cheaper per token -> MTP
        ("llama-3.1-8b", None),
    ],
)
def test_default_draft_is_the_smallest_of_the_family(model, draft):
    d = pl.default_draft(MODELS[model], MODELS)
    assert (d.id if d else None) == draft


# --------------------------------------------------------------------------------------------------- capacity


def test_prefill_with_prefix_cache():
    one = replace(BASE, batch=1)
    none = pl.prefill_time_s(L70, H200, one, TYPICAL, 0.0)
    assert float(none) == pytest.approx(float(_est(L70, H200, one, 1).ttft_s))
    h = np.array([0.0, 0.25, 0.5, 0.9])
    t = pl.prefill_time_s(L70, H200, one, TYPICAL, h)
    assert np.all(np.diff(t) < 0)
    # the new tokens' GEMMs shrink in proportion, their attention still covers the cached prefix: so the time stays
    # above the estimate for a prompt of only the new tokens
    short = float(estimate(L70, H200, replace(one, context_tokens=2048), TYPICAL).ttft_s)
    assert float(t[2]) >= short


def test_capacity_is_the_frontier_and_the_memory_behind_it():
    cap = pl.capacity(L70, H200, BASE, TYPICAL, 0.05, prefix_hit_rate=0.5)
    p = pl.frontier(L70, H200, BASE, TYPICAL, 0.05)
    assert (cap.users, cap.limited_by) == (p.batch, p.limited_by)
    assert cap.kv_bytes_per_user == pytest.approx(float(kv_cache_bytes_per_sequence(L70, 5120, 2.0)))
    assert cap.kv_bytes_per_user_per_gpu == pytest.approx(cap.kv_bytes_per_user / 2)  # 8 KV heads over 2 GPUs
    # issue 18: usable = the reported 141 GiB x 0.9 - vLLM's 4.14 GiB reservation (was the datasheet 141 GB x 0.9)
    assert cap.hbm_left_after_weights_bytes == pytest.approx((141 * 0.9 - 4.14) * 2**30 - total_params(L70) / 2)
    assert cap.max_users_memory == int(_est(L70, H200, BASE, 1).max_batch)
    assert cap.prefill_cached_s < cap.prefill_s


def test_disaggregation_ratio_from_gpu_seconds():
    dg = pl.disaggregation(L70, H200, BASE, TYPICAL, tpot_target_s=0.05, input_tokens=[1024, 8192], output_tokens=1024)
    d = dg.decode
    for i, (inp, out) in enumerate(((1024, 1024), (8192, 1024))):
        p = pl.frontier(L70, H200, replace(BASE, context_tokens=inp, output_tokens=out), TYPICAL, 0.05)
        assert int(d.batch[i]) == p.batch
        assert dg.decode_gpu_s_per_request[i] == pytest.approx(2 * p.tpot_s * (out - 1) / p.batch)
    assert dg.prefill_per_decode_gpu == pytest.approx(dg.prefill_gpu_s_per_request / dg.decode_gpu_s_per_request)
    assert dg.prefill_per_decode_gpu[1] > dg.prefill_per_decode_gpu[0]  # longer prompts need more prefill
    cached = pl.disaggregation(
        L70, H200, BASE, TYPICAL, tpot_target_s=0.05, input_tokens=[1024, 8192], output_tokens=1024, prefix_hit_rate=0.5
    )
    assert np.all(cached.prefill_per_decode_gpu < dg.prefill_per_decode_gpu)


# --------------------------------------------------------------------------------------------------- levers


def test_levers_rows_and_deltas():
    rows = {r.lever: r for r in pl.levers(L70, H200, BASE, TYPICAL, tpot_target_s=0.05, hardware_catalog=HARDWARE)}
    assert list(rows) == ["baseline", *pl.LEVERS]
    base = rows["baseline"]
    assert (base.d_tpot, base.d_tokens_per_s, base.d_usd_per_1M) == (0.0, 0.0, 0.0)
    e = _est(L70, H200, replace(BASE, num_gpus=4), 32)
    assert rows["gpus_x2"].tpot_s == pytest.approx(float(e.tpot_s))
    assert rows["gpus_x2"].d_tpot == pytest.approx(float(e.tpot_s) / base.tpot_s - 1)
    assert rows["kv_fp8"].d_tpot < 0 and rows["kv_fp8"].target_d_usd_per_1M < 0  # fewer KV bytes: faster, cheaper
    assert rows["batch_x2"].d_tpot > 0 and rows["batch_x2"].d_usd_per_1M < 0
    assert math.isnan(rows["batch_x2"].target_d_usd_per_1M)  # the frontier picks the batch itself
    up = rows["hardware_upgrade"]
    assert up.detail == "h200 → b200"
    assert rows["kv_fp8"].detail == "bf16 → fp8"
    already = {r.lever: r for r in pl.levers(L70, H200, replace(BASE, kv_cache="fp8"), TYPICAL, tpot_target_s=0.05)}
    assert already["kv_fp8"].detail == "fp8" and not already["kv_fp8"].applicable  # in place, not 'fp8 → fp8'
    assert up.tpot_s == pytest.approx(float(estimate(L70, HARDWARE["b200"], BASE, TYPICAL).tpot_s))
    fr = pl.frontier(L70, H200, replace(BASE, kv_cache="fp8"), TYPICAL, 0.05)
    assert rows["kv_fp8"].target_batch == fr.batch


def test_levers_reuse_a_given_baseline():
    kw = dict(tpot_target_s=0.05, hardware_catalog=HARDWARE)
    given = (estimate(L70, H200, BASE, TYPICAL), pl.frontier(L70, H200, BASE, TYPICAL, 0.05))
    assert pl.levers(L70, H200, BASE, TYPICAL, baseline=given, **kw) == pl.levers(L70, H200, BASE, TYPICAL, **kw)
    no_target = pl.levers(L70, H200, BASE, TYPICAL, hardware_catalog=HARDWARE, baseline=given)
    assert no_target == pl.levers(L70, H200, BASE, TYPICAL, hardware_catalog=HARDWARE)


def test_levers_not_applicable():
    s = replace(BASE, weights="awq-int4", kv_cache="fp8")
    rows = {r.lever: r for r in pl.levers(L70, HARDWARE["m4-max"], s, TYPICAL, hardware_catalog={})}
    assert not rows["weights_int4"].applicable and not rows["kv_fp8"].applicable
    assert not rows["hardware_upgrade"].applicable and math.isnan(rows["hardware_upgrade"].d_tpot)


# --------------------------------------------------------------------------------------------------- CLI


ARGS = ["--model", "llama-3.1-70b", "--hardware", "h200", "--gpus", "2", "--weights", "fp8", "--context", "4096"]


def test_cli_frontier_json_agrees_with_the_model(capsys):
    assert frontier_main([*ARGS, "--tpot-target-ms", "50", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    p = pl.frontier(L70, H200, BASE, TYPICAL, 0.05)
    assert d["batch"] == p.batch and d["limited_by"] == "memory"
    assert d["tpot_ms"] == pytest.approx(p.tpot_s * 1e3)
    assert d["tokens_per_s_per_gpu"] == pytest.approx(p.tokens_per_s_per_gpu)
    assert d["usd_per_1M_tokens"] == pytest.approx(p.usd_per_1M_tokens)
    e = _est(L70, H200, BASE, d["batch"])  # what `evaluate` at that batch reports
    assert d["tpot_ms"] == pytest.approx(float(e.tpot_s) * 1e3)


def test_cli_frontier_text_and_infeasible(capsys):
    assert frontier_main([*ARGS, "--tpot-target-ms", "50", "--ttft-target-ms", "2000"]) == 0
    out = capsys.readouterr().out
    assert "limited_by             slo (ttft)" in out
    # what its keys count, in the text too (a helper review: a decode-only rate and $ read unlabelled beside the
    # layout search's and the pages' served ones)
    assert "counting:\n  tokens_per_s_per_gpu: output tokens per second per GPU in the decode steps" in out
    assert "  ttft_ms: the whole batch's prefill (static batching)" in out
    assert frontier_main(["--model", "deepseek-v3", "--hardware", "h200", "--tpot-target-ms", "50", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["feasible"], d["batch"], d["limited_by"], d["tpot_ms"]) == (False, 0, "memory", None)
    assert frontier_main(["--model", "llama-3.1-70b", "--hardware", "mi355x", "--tpot-target-ms", "50", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["usd_per_1M_tokens"] is None
    # the target that fails is the one named: a 1 ms TTFT, whose batch-1 TPOT meets its 50 ms (the text had blamed
    # the TPOT, quoting 21.91 ms)
    assert frontier_main([*ARGS, "--tpot-target-ms", "50", "--ttft-target-ms", "1"]) == 0
    out = capsys.readouterr().out
    one = pl.frontier(L70, H200, BASE, TYPICAL, 0.05, ttft_target_s=1e-3)
    assert one.batch1_tpot_s < 0.05 and one.slo_binding == "ttft"
    assert f"misses the TTFT target even at batch 1 (TTFT {one.batch1_ttft_s * 1e3:,.1f} ms)" in out
    assert frontier_main([*ARGS, "--tpot-target-ms", "5"]) == 0
    assert "misses the TPOT target even at batch 1 (TPOT" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "field"),
    [
        (["--hardware", "h200", "--tpot-target-ms", "50"], "--model"),
        (["--model", "nope", "--hardware", "h200", "--tpot-target-ms", "50"], "--model"),
        (["--model", "llama-3.1-70b", "--hardware", "h999", "--tpot-target-ms", "50"], "--hardware"),
        (["--model", "llama-3.1-70b", "--hardware", "h200"], "--tpot-target-ms"),
        (["--model", "llama-3.1-70b", "--hardware", "h200", "--tpot-target-ms", "abc"], "--tpot-target-ms"),
        (["--model", "llama-3.1-70b", "--hardware", "h200", "--tpot-target-ms", "0"], "--tpot-target-ms"),
        (["--model", "llama-3.1-70b", "--hardware", "h200", "--tpot-target-ms", "nan"], "--tpot-target-ms"),
        ([*ARGS, "--tpot-target-ms", "50", "--gpus", "0"], "--gpus"),
        ([*ARGS, "--tpot-target-ms", "50", "--gpus", "two"], "--gpus"),
        ([*ARGS, "--tpot-target-ms", "50", "--weights", "fp7"], "--weights"),
        ([*ARGS, "--tpot-target-ms", "50", "--kv", "q9"], "--kv"),
        ([*ARGS, "--tpot-target-ms", "50", "--context", "-1"], "--context"),
        ([*ARGS, "--tpot-target-ms", "50", "--profile", "fast"], "--profile"),
        ([*ARGS, "--tpot-target-ms", "50", "--compute", "fp9"], "--compute"),
        ([*ARGS, "--tpot-target-ms", "50", "--ttft-target-ms", "-3"], "--ttft-target-ms"),
        ([*ARGS, "--tpot-target-ms", "50", "--max-batch", "0"], "--max-batch"),
        ([*ARGS, "--tpot-target-ms", "50", "--bogus"], "--bogus"),
        ([*ARGS, "--tpot-target-ms", "50", "--price-basis", "custom"], "--price"),  # it ran, unpriced
    ],
)
def test_cli_bad_input_exits_2_with_one_line_naming_the_field(capsys, argv, field):
    assert frontier_main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and field in lines[0]
    assert "Traceback" not in err


def test_cli_help_exits_0(capsys):
    assert frontier_main(["--help"]) == 0
    assert "--tpot-target-ms" in capsys.readouterr().out


def test_cli_frontier_point_agrees_with_cli_evaluate(tmp_path, capsys):
    from tpot_model.cli import main

    assert main(["frontier", *ARGS, "--output", "1024", "--tpot-target-ms", "50", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    rows = tmp_path / "s.csv"
    rows.write_text(
        "model,hardware,num_gpus,weights,batch,context_tokens,output_tokens\n"
        f"llama-3.1-70b,h200,2,fp8,{d['batch']},4096,1024\n",
        encoding="utf-8",
    )
    assert main(["evaluate", str(rows)]) == 0
    header, values = capsys.readouterr().out.strip().splitlines()[:2]
    row = dict(zip(header.split(","), values.split(","), strict=False))
    assert float(row["tpot_ms"]) == pytest.approx(d["tpot_ms"])
    assert float(row["tokens_per_s_per_gpu"]) == pytest.approx(d["tokens_per_s_per_gpu"])
    assert float(row["usd_per_1M_tokens"]) == pytest.approx(d["usd_per_1M_tokens"])


def test_bare_fp4_memory_is_the_chips_block_format():
    """Issue 19: bare 'fp4' on a B200 is NVFP4 in the estimate, 4.5 bits per weight (E2M1 + one FP8 scale per 16
    values); the planner's own memory arithmetic (pipeline stages' memory, capacity's KV per user, the disaggregated
    KV transfer) took 4.0 bits."""
    b200 = HARDWARE["b200"]
    s = replace(BASE, num_gpus=1, batch=8)
    fp4 = pl.pipeline_parallel(L70, b200, replace(s, weights="fp4"), TYPICAL, stages=[1])
    fp8 = pl.pipeline_parallel(L70, b200, replace(s, weights="fp8"), TYPICAL, stages=[1])
    # one stage holds every weight: the difference is the weights' bits alone, (8 - 4.5) bits per parameter
    saved = float(fp8.memory_per_gpu_bytes[0] - fp4.memory_per_gpu_bytes[0])
    assert saved == pytest.approx(total_params(L70) * (8 - 4.5) / 8, rel=1e-9)
    assert float(fp4.memory_per_gpu_bytes[0]) == pytest.approx(
        float(estimate(L70, b200, replace(s, weights="fp4"), TYPICAL).memory_per_gpu_bytes), rel=1e-9
    )
    # the KV cache in bare fp4: 4.5 bits per element, 5,120 tokens of Llama 3.1 70B (80 layers x 8 KV heads x 128 x 2)
    kv4 = replace(s, kv_cache="fp4")
    per_user = pl.capacity(L70, b200, kv4, TYPICAL).kv_bytes_per_user
    assert per_user == pytest.approx(5120 * 80 * 8 * 128 * 2 * 4.5 / 8)
    one = dict(prefill_instances=1, prefill_gpus_each=1, decode_instances=1, decode_gpus_each=1, decode_batch=8)
    bare = pl.disaggregated_deployment(L70, b200, kv4, TYPICAL, **one)
    block = pl.disaggregated_deployment(L70, b200, replace(s, kv_cache="nvfp4"), TYPICAL, **one)
    assert bare.kv_transfer_s == pytest.approx(block.kv_transfer_s, rel=1e-12)


def test_frontier_and_capacity_say_when_the_run_is_past_the_models_window(capsys):
    """estimate and evaluate flagged a run past the model's context window; frontier (both modes) and capacity gave
    their numbers without a word (GPT-3 175B's 2,048 tokens against the default 4,096 + 1,024)."""
    from tpot_model import cli

    said = "context + output = 5,120 tokens, beyond GPT-3 175B (davinci)'s 2,048-token window"
    for argv in (["--gpus", "8"], ["--max-gpus", "8"]):
        assert frontier_main(["--model", "gpt-3-175b", "--hardware", "h200", "--tpot-target-ms", "50", *argv]) == 0
        assert f"\nnote: {said}" in capsys.readouterr().out
        assert frontier_main(["--model", "gpt-3-175b", "--hardware", "h200", "--tpot-target-ms", "50", *argv,
                              "--json"]) == 0  # fmt: skip
        d = json.loads(capsys.readouterr().out)
        assert d["beyond_context_window"] is True and d["context_window_note"].startswith(said)
    assert frontier_main([*ARGS, "--tpot-target-ms", "50", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["beyond_context_window"] is False and d["context_window_note"] is None
    cap = ["capacity", "--model", "gpt-3-175b", "--hardware", "h200", "--tpot-target-ms", "50",
           "--output-tokens-per-day", "1e10"]  # fmt: skip
    assert cli.main(cap) == 0 and f"\nnote: {said}" in capsys.readouterr().out
    assert cli.main([*cap, "--json"]) == 0 and json.loads(capsys.readouterr().out)[0]["beyond_context_window"]


def test_frontier_reads_whole_numbers_as_estimate_does(capsys):
    """'--context 4096.0' and '1e3' ran in estimate and sweep and were refused by frontier ('must be a whole number',
    even for 1e9, whose trouble is its size)."""
    assert frontier_main([*ARGS[:-2], "--context", "4096.0", "--tpot-target-ms", "50", "--json"]) == 0
    as_float = json.loads(capsys.readouterr().out)
    assert frontier_main([*ARGS, "--tpot-target-ms", "50", "--json"]) == 0
    assert as_float == json.loads(capsys.readouterr().out)
    assert frontier_main([*ARGS, "--tpot-target-ms", "50", "--max-batch", "1e3"]) == 0
    capsys.readouterr()
    assert frontier_main([*ARGS[:-2], "--context", "1e9", "--tpot-target-ms", "50"]) == 2
    assert "--context/--isl: must be <= 100,000,000" in capsys.readouterr().err
    assert frontier_main([*ARGS[:-2], "--context", "4096.5", "--tpot-target-ms", "50"]) == 2
    assert "--context/--isl: must be a whole number" in capsys.readouterr().err


def test_capacity_prefills_one_whole_prompt_whatever_the_batching():
    """A review: the Capacity tab passes a continuous scenario (its users as a server runs them), and the prefill of
    one prompt with a prefix-cache hit had then scaled one 8K chunk's attention alone (32K prompt, hit 0.5: 1.88 s
    where the whole prompt's prefill gives 2.20 s): the prefill is one whole prompt's either way."""
    s = Scenario(batch=32, context_tokens=32768, output_tokens=1024, num_gpus=2, weights="fp8")
    static = pl.capacity(L70, H200, s, TYPICAL, 0.05, None, 0.5)
    cont = pl.capacity(L70, H200, replace(s, batching="continuous"), TYPICAL, 0.05, None, 0.5)
    assert (cont.prefill_s, cont.prefill_cached_s) == (static.prefill_s, static.prefill_cached_s)
    assert 0.5 < static.prefill_cached_s / static.prefill_s < 0.7 and cont.users < static.users


def test_the_domain_search_takes_only_tensor_splits_of_the_models_heads():
    """A browser review: the Planner drew (and the fleet search took) TP72 of DeepSeek-R1 on GB200 NVL72, 72 a split
    of none of its 128 attention heads, which engines refuse; the domain's counts are now the splits the heads allow
    (72 divides no power-of-two head count; Qwen-style 40 heads stop at 8), every count without a model as before."""
    gb200 = HARDWARE["gb200"]
    assert pl.domain_gpu_options(gb200) == (1, 2, 4, 8, 16, 32, 64, 72)
    r1 = MODELS["deepseek-r1"]
    assert r1.num_heads == 128 and pl.domain_gpu_options(gb200, r1) == (1, 2, 4, 8, 16, 32, 64)
    assert pl.domain_gpu_options(gb200, r1, "dp-ep") == (1, 2, 4, 8, 16, 32, 64, 72)  # attention data-parallel
    forty = replace(L70, num_heads=40)
    assert pl.domain_gpu_options(gb200, forty) == (1, 2, 4, 8)
    point = pl.cheapest(r1, gb200, replace(BASE, weights="fp8", num_gpus=1), TYPICAL, 0.05, None, pl.DOMAIN)
    assert 128 % point.num_gpus == 0
