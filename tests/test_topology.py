"""Collectives on the real topology (issue 18): inside a scale-up domain at scale-up bandwidth, across domains at the
NICs' scale-out bandwidth. Hand-worked numbers for DeepSeek-V3 wide expert parallelism on GB200 NVL72 and on
eight HGX B200 nodes (400 Gb/s per GPU)."""

from __future__ import annotations

from dataclasses import replace

import model_fixtures  # noqa: F401  (puts the repository root on sys.path)
import numpy as np
import pytest

from tpot_model import estimate, load_hardware_catalog, load_model_catalog
from tpot_model.files import DATA_DIR, load_yaml
from tpot_model.profiles import IDEAL, resolve_profile
from tpot_model.roofline import (
    Collectives,
    alltoall_bytes_per_moe_layer,
    collective_time_s,
    communication_s,
    ep_alltoall,
    scale_up_domain_gpus,
)
from tpot_model.scenario import Scenario

HW = load_hardware_catalog()
DSV3 = load_model_catalog()["deepseek-v3"]
# DeepSeek-V3: d_model 7168, top-8 routed experts, 58 MoE layers (61 layers, 3 dense)
D, K, MOE_LAYERS = 7168, 8, 58
# dp-ep over 64 GPUs at batch 256: 4 tokens per GPU. Per MoE layer a GPU sends 4 x 8 x 7168 elements, 63/64 of them
# to other GPUs: dispatch in FP8 (1 byte), combine in bf16 (2 bytes).
DISPATCH = 4 * 8 * 7168 * 1 * 63 / 64  # 225,792 bytes
COMBINE = 4 * 8 * 7168 * 2 * 63 / 64  # 451,584 bytes


def test_model_shape_behind_the_hand_worked_numbers():
    assert (DSV3.d_model, DSV3.moe.experts_per_token, DSV3.num_moe_layers) == (D, K, MOE_LAYERS)


def test_alltoall_bytes_per_moe_layer_deepseek_v3():
    assert float(alltoall_bytes_per_moe_layer(DSV3, 4.0, 64)) == DISPATCH + COMBINE == 677_376


def test_alltoall_time_inside_nvl72_and_across_400g():
    one = Collectives(count=1, bytes_each=DISPATCH + COMBINE, group_gpus=64, kind="all_to_all")
    # GB200 NVL72: all 64 GPUs in one domain, NVLink 5 at 900 GB/s per direction
    assert float(collective_time_s(HW["gb200"], IDEAL, one)) == pytest.approx(677_376 / 900e9, rel=1e-12)
    # eight HGX B200: 7 of a GPU's 63 peers share its NVLink domain, 56 are across its 50 GB/s NIC; both links
    # run at once, the NIC is the slower: 677,376 x 56/63 / 50e9 = 12.04 us, plus one network hop in place of an
    # NVLink one (NCCL's latency model: 5.0 - 0.6 us): 16.44 us (22x the NVL72 time)
    across = (DISPATCH + COMBINE) * 56 / 63 / 50e9
    assert across == pytest.approx(12.04224e-6, rel=1e-9)
    assert float(collective_time_s(HW["b200"], IDEAL, one)) == pytest.approx(across + 4.4e-6, rel=1e-9)


def test_wide_ep_decode_nvl72_vs_hgx_differs_by_communication_only():
    """The same 64-GPU wide-EP decode: every bucket but communication is per-GPU work and near-equal (GB200 runs at
    1200 W with slightly higher FLOP/s); the communication bucket is the hand-worked all-to-all x 2 x 58 layers."""
    s = Scenario(batch=256, context_tokens=2048, num_gpus=64, weights="fp8", kv_cache="fp8", parallelism="dp-ep")
    nvl = estimate(DSV3, HW["gb200"], s, IDEAL)
    hgx = estimate(DSV3, HW["b200"], s, IDEAL)
    assert float(nvl.breakdown_s["communication"]) == pytest.approx(MOE_LAYERS * 677_376 / 900e9, rel=1e-9)
    # + the network hop of each of the two collectives (dispatch, combine), as above
    hgx_comm = MOE_LAYERS * ((DISPATCH + COMBINE) * 56 / 63 / 50e9 + 2 * 4.4e-6)
    assert float(hgx.breakdown_s["communication"]) == pytest.approx(hgx_comm, rel=1e-9)
    assert float(hgx.breakdown_s["weights"]) == pytest.approx(float(nvl.breakdown_s["weights"]), rel=1e-9)
    assert float(hgx.tpot_s) > float(nvl.tpot_s)
    share = float(hgx.breakdown_s["communication"] / hgx.tpot_s)
    assert 0 < share < 1


def test_inside_one_domain_nothing_changes():
    """Up to the domain size the time is the old single-link formula: latency + bytes / scale-up bandwidth."""
    p = replace(IDEAL, allreduce_latency_s=10e-6, interconnect_efficiency=0.5)
    c = Collectives(count=np.array(4.0), bytes_each=1e6, group_gpus=8, kind="all_reduce")
    assert float(communication_s(HW["h200"], p, c)) == pytest.approx(4 * (10e-6 + 1e6 / (450e9 * 0.5)), rel=1e-12)
    assert scale_up_domain_gpus(HW["l40s"]) == 8  # unlisted: one server


def test_hierarchical_allreduce_across_two_hgx_nodes():
    """TP 16 on two HGX H100: message M; reduce-scatter + all-gather inside each 8-GPU node (2 x 7/8 M over NVLink)
    and a ring of the 2 nodes over each GPU's M/8 shard (2 x 1/2 x M/8 over 50 GB/s); the tree across the 2 nodes
    adds 2 x log2 2 network hops of 5.0 us (NCCL's latency model: reduced up, broadcast down)."""
    M = 1e6
    c = Collectives(count=1, bytes_each=2 * 15 / 16 * M, group_gpus=16, kind="all_reduce")
    expected = 2 * 7 / 8 * M / 450e9 + 2 * (1 / 2) * (M / 8) / 50e9 + 2 * 5.0e-6
    assert float(collective_time_s(HW["h100-sxm"], IDEAL, c)) == pytest.approx(expected, rel=1e-9)
    # four nodes (TP32): ceil(log2 4) = 2 levels, 4 hops
    c32 = Collectives(count=1, bytes_each=2 * 31 / 32 * M, group_gpus=32, kind="all_reduce")
    expected32 = 2 * 7 / 8 * M / 450e9 + 2 * (3 / 4) * (M / 8) / 50e9 + 4 * 5.0e-6
    assert float(collective_time_s(HW["h100-sxm"], IDEAL, c32)) == pytest.approx(expected32, rel=1e-9)


def test_disaggregated_deployment_counts_both_pools():
    """2P1D of Llama-3.1-70B FP8 on H200 (prefill: 2 instances x TP2, 4 prompts a step; decode: 1 x TP4 at 64
    sequences), 4096 in / 1024 out. Each pool's rate from its own estimate; the slower sets the deployment; tokens/s
    per GPU divides input + output tokens by all 8 GPUs."""
    from tpot_model.planner import disaggregated_deployment

    m = load_model_catalog()["llama-3.1-70b"]
    s = Scenario(context_tokens=4096, output_tokens=1024, weights="fp8", kv_cache="fp8")
    d = disaggregated_deployment(
        m, HW["h200"], s, IDEAL, prefill_instances=2, prefill_gpus_each=2, decode_instances=1, decode_gpus_each=4,
        decode_batch=64, prefill_batch=4,
    )  # fmt: skip
    dec = estimate(m, HW["h200"], replace(s, batch=64, num_gpus=4), IDEAL)
    pre = estimate(m, HW["h200"], replace(s, batch=4, num_gpus=2, output_tokens=1), IDEAL)
    prefill_rate = 2 * 4 / float(pre.ttft_s)
    decode_rate = 1 * 64 / (float(dec.tpot_s) * 1024)
    rate = min(prefill_rate, decode_rate)
    assert d.gpus_used == 8
    assert d.requests_per_s == pytest.approx(rate, rel=1e-12)
    assert d.tokens_per_s_per_gpu == pytest.approx(rate * (4096 + 1024) / 8, rel=1e-12)
    assert d.output_tokens_per_s_per_gpu == pytest.approx(rate * 1024 / 8, rel=1e-12)
    assert d.tpot_s == pytest.approx(float(dec.tpot_s)) and d.fits
    # KV moved inside the 8-GPU NVLink domain: 4096 tokens x 80 layers x 2 x 8 KV heads x 128 x 1 byte over 2 x 450 GB/s
    kv = 4096 * 80 * 2 * 8 * 128 * 1
    assert d.kv_transfer_s == pytest.approx(kv / (2 * 450e9), rel=1e-12)
    assert d.ttft_s == pytest.approx(float(pre.ttft_s) + d.kv_transfer_s, rel=1e-12)
    # counting the prefill GPUs too: fewer output tokens per GPU than the decode pool alone makes
    assert d.output_tokens_per_s_per_gpu < 64 / float(dec.tpot_s) / 4


def test_allreduce_latency_grows_as_a_trees_depth_beyond_the_fitted_groups():
    """The per-collective latency is fitted on groups of at most 8 GPUs (no calibration set has a wider tensor-parallel
    group); an all-reduce over more pays it x log2 N / 3 (the depth of NCCL's tree for small messages): inside one
    GB200 NVL72 domain, an empty all-reduce over 2-8 GPUs costs the latency L, over 16 4/3 L, 32 5/3 L, 64 2 L; an
    all-to-all over 64 still L."""
    from tpot_model import resolve_profile
    from tpot_model.roofline import FITTED_GROUP_GPUS

    typical = resolve_profile("typical")
    L = typical.allreduce_latency_s
    assert FITTED_GROUP_GPUS == 8 and L > 0
    for n, factor in [(2, 1.0), (8, 1.0), (16, 4 / 3), (32, 5 / 3), (64, 2.0)]:
        c = Collectives(count=1, bytes_each=0.0, group_gpus=n, kind="all_reduce")
        assert float(collective_time_s(HW["gb200"], typical, c)) == pytest.approx(factor * L, rel=1e-12)
    a2a = Collectives(count=1, bytes_each=0.0, group_gpus=64, kind="all_to_all")
    assert float(collective_time_s(HW["gb200"], typical, a2a)) == pytest.approx(L, rel=1e-12)


# DeepEP's published V1 low-latency timings (data/reference_points.yaml `collectives`): H800 + one ConnectX-7 400 Gb/s
# per GPU, 8 GPUs per node, 128 tokens per GPU, DeepSeek-V3's shape; dispatch + combine of one MoE layer, µs
DEEPEP = load_yaml((DATA_DIR / "reference_points.yaml").read_text(encoding="utf-8"))["collectives"]


def _pair_us(hw_id: str, profile, ep_gpus: int) -> float:
    pair = ep_alltoall(DSV3, float(DEEPEP["tokens_per_gpu"]), float(ep_gpus))
    return float(pair.count * collective_time_s(HW[hw_id], profile, pair)) * 1e6


def test_ep16_alltoall_across_two_hgx_nodes_by_hand():
    """128 tokens x 8 x 7168 x (1 + 2) bytes x 15/16 = 20,643,840 bytes a GPU sends per MoE layer; 8 of its 15 peers
    are on the other node: 11,010,048 bytes over 400 Gb/s x 0.7 (typical's interconnect efficiency) = 314.57 us, plus
    typical's 12 us latency and one network hop in place of an NVLink one (5.0 - 0.6 us) for each of the two
    collectives: 347.37 us."""
    typical = resolve_profile("typical")
    assert (typical.interconnect_efficiency, typical.allreduce_latency_s) == (0.7, 12e-6)
    assert float(alltoall_bytes_per_moe_layer(DSV3, 128.0, 16)) == 20_643_840
    assert _pair_us("h100-sxm", typical, 16) == pytest.approx(20_643_840 * 8 / 15 / 35e9 * 1e6 + 24 + 8.8, rel=1e-9)
    assert _pair_us("h100-sxm", typical, 16) == pytest.approx(347.37, abs=0.01)


def test_wide_ep_alltoall_across_nodes_against_deepeps_published_timings():
    """The typical profile's cross-node all-to-all lands 11-20 % above DeepEP's measured low-latency kernels from 2 to
    32 nodes; the ideal bound (50 GB/s per NIC, no latency) below every measurement."""
    assert DEEPEP["source"].startswith("https://github.com/deepseek-ai/DeepEP")
    ratios = []
    for p in DEEPEP["points"]:
        measured = p["dispatch_us"] + p["combine_us"]
        ratios.append(_pair_us(DEEPEP["hardware"], resolve_profile("typical"), p["ep_gpus"]) / measured)
        assert _pair_us(DEEPEP["hardware"], IDEAL, p["ep_gpus"]) < measured
    assert [p["ep_gpus"] for p in DEEPEP["points"]] == [16, 32, 64, 128, 256]
    assert all(1.0 < r < 1.2 for r in ratios), ratios


def test_a_chip_without_a_listed_domain_is_a_server_of_8_only_with_a_link():
    """The catalog's domain where it lists one (GB10: 1, Inferentia2: 12 chips to an Inf2 instance); unlisted, a
    server of 8 for a chip with a GPU-to-GPU link (RTX 4090 over PCIe), else a domain of one (an Apple M5 Max: no link
    to another device; an 8-chip domain had been made up for it, and `capacity` had sized replicas of 8 Macs)."""
    from tpot_model import resolve_hardware
    from tpot_model.roofline import scale_up_domain_gpus

    got = {h: scale_up_domain_gpus(resolve_hardware(h)) for h in ("gb10", "inferentia2", "rtx-4090", "m5-max", "h200")}
    assert got == {"gb10": 1, "inferentia2": 12, "rtx-4090": 8, "m5-max": 1, "h200": 8}
