"""Methodology page content: the model's formulas with the current scenario's numbers substituted, the per-operator
roofline figure, and the public reference points with this tool's live numbers beside them.

Pure: Estimate objects and plain values in; text blocks, DataFrames and Plotly figures out; no Streamlit. Every
result shown is read from an Estimate field, its decode/prefill StepResult (operators, breakdown) or one of the
model's own helpers (total_params, kv_bytes_per_token, ...): nothing here re-derives a result. A block is a pair
(kind, text) with kind "h" (sub-heading), "latex" (a formula, symbols only), "md" (translated text with the values
substituted; each substituted line ends with its result and unit) or "caption".
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from pandas.io.formats.style import Styler

from tpot_model import Estimate, Scenario, active_params, kv_bytes_per_token, kv_cache_bytes_per_sequence, total_params
from tpot_model.catalog import figure_value
from tpot_model.catalog import hardware_figures as figure_fields_of
from tpot_model.files import DATA_DIR, load_yaml
from tpot_model.layouts import worker_rate
from tpot_model.roofline import (
    ACTIVATION_BYTES,
    SEQUENCE_HALF_BATCH,
    allreduce_across_parts_s,
    allreduce_latency_s,
    attainable_bandwidth_bytes_per_s,
    attainable_flop_per_s,
    collective_time_s,
    compressed_window_bytes,
    decode_work,
    ep_alltoall,
    expected_experts_touched,
    fused_nvfp4_moe,
    is_weight_only,
    kv_bytes_per_token_per_layer,
    kv_shards,
    linear_state_bytes,
    link_peak_bytes_per_s,
    mean_decode_cache_tokens,
    rates_for,
    runs_rocm,
    sampled_rows_per_gpu,
    scale_out_latency_s,
    scale_out_peak_bytes_per_s,
    scale_up_domain_gpus,
    sequence_overhead_s,
)
from tpot_model.units import GB, GiB

from .. import explain, fmt
from ..i18n import EN, Translator
from .common import BUCKET_COLOURS, Figure, style

Block = tuple[str, str]
REFERENCE_POINTS_FILE = DATA_DIR / "reference_points.yaml"
MEMORY_COLOUR = BUCKET_COLOURS["weights"]
COMPUTE_COLOUR = BUCKET_COLOURS["compute"]


# --------------------------------------------------------------------------------------------------- formatting


def _f(x) -> float:
    """A scalar estimate field as a float (fields are 0-d arrays for a scalar scenario)."""
    return float(np.asarray(x).reshape(-1)[0])


def _known(x: float) -> bool:
    return x is not None and math.isfinite(x)


# --------------------------------------------------------------------------------------------------- memory


def memory_blocks(est: Estimate, tr: Translator = EN) -> list[Block]:
    """Weight bytes, KV bytes per token (by attention type) and the KV cache of the batch at the context."""
    m, s = est.model, est.scenario
    B, T, N, G = _f(s.batch), _f(s.context_tokens), _f(s.output_tokens), _f(s.num_gpus)
    kvb = s.kv_cache.bytes_per_element
    P, A = total_params(m), active_params(m)
    out: list[Block] = [("h", tr("meth_h_memory")), ("latex", r"W = P \times \frac{b_w}{8}")]
    active = tr("meth_active", active=fmt.params(A)) if m.moe else ""
    out.append(
        (
            "md",
            tr(
                "meth_weights_sub",
                params=fmt.params(P),
                active=active,
                fmt=s.weights.name,
                bits=fmt.plain(s.weights.bits),
                result=fmt.gb(est.weight_bytes),
            ),
        )
    )

    per_token = kv_bytes_per_token(m, kvb)
    L_full = m.num_full_attention_layers
    if m.compressed_attention:  # DeepSeek-V4: compressed entries (+ CSA's index key), and every layer's window
        c = m.compressed_attention
        out.append(("latex", r"\mathrm{KV}_{tok} = \left(L_{csa} \frac{h + d_{index}}{r_{csa}}"
                             r" + L_{hca} \frac{h}{r_{hca}}\right) \times b_{kv}"))  # fmt: skip
        sub = tr(
            "meth_kv_compressed_sub",
            csa=c.csa_layers,
            hca=c.hca_layers,
            d=m.head_dim,
            index=c.index_head_dim,
            rc=c.csa_compression,
            rh=c.hca_compression,
            b=fmt.plain(kvb),
            fmt=s.kv_cache.name,
            result=fmt.integer(per_token),
        )
    elif m.sparse_attention:  # DSA: the indexer's key is cached beside the MLA latent
        out.append(("latex", r"\mathrm{KV}_{tok} = (r_{kv} + d_{rope} + d_{index}) \times L \times b_{kv}"))
        sub = tr(
            "meth_kv_dsa_sub",
            rank=m.mla.kv_lora_rank,
            rope=m.mla.qk_rope_head_dim,
            index=m.sparse_attention.index_head_dim,
            layers=L_full,
            b=fmt.plain(kvb),
            fmt=s.kv_cache.name,
            result=fmt.integer(per_token),
        )
    elif m.mla:
        out.append(("latex", r"\mathrm{KV}_{tok} = (r_{kv} + d_{rope}) \times L \times b_{kv}"))
        sub = tr(
            "meth_kv_mla_sub",
            rank=m.mla.kv_lora_rank,
            rope=m.mla.qk_rope_head_dim,
            layers=L_full,
            b=fmt.plain(kvb),
            fmt=s.kv_cache.name,
            result=fmt.integer(per_token),
        )
    else:
        out.append(("latex", r"\mathrm{KV}_{tok} = 2 \times L \times K \times h \times b_{kv}"))
        sub = tr(
            "meth_kv_sub",
            layers=L_full,
            kv_heads=m.num_kv_heads,
            head_dim=m.head_dim,
            b=fmt.plain(kvb),
            fmt=s.kv_cache.name,
            result=fmt.integer(per_token),
        )
    out.append(("md", sub))
    per_layer = kv_bytes_per_token_per_layer(m, kvb)
    if m.sliding_window:
        w = m.sliding_window
        out.append(("latex", r"+\; L_{win} \times \mathrm{KV}_{layer} \times \min(T, W)"))
        out.append(
            (
                "md",
                tr(
                    "meth_kv_window_sub",
                    layers=w.num_layers,
                    per_layer=fmt.integer(per_layer),
                    t=fmt.integer(T),
                    w=fmt.integer(w.window_tokens),
                    result=fmt.nbytes(w.num_layers * per_layer * min(T, w.window_tokens)),
                ),
            )
        )
    if m.compressed_attention:
        w = m.compressed_attention.window_tokens
        out.append(("latex", r"+\; L \times h \times b_{kv} \times \min(T, W)"))
        out.append(
            (
                "md",
                tr(
                    "meth_kv_recent_sub",
                    layers=m.num_layers,
                    d=m.head_dim,
                    b=fmt.plain(kvb),
                    t=fmt.integer(T),
                    w=fmt.integer(w),
                    result=fmt.nbytes(float(compressed_window_bytes(m, T, kvb))),
                ),
            )
        )
    if m.linear_attention:
        out.append(("latex", r"+\; S_{linear}"))
        out.append(
            (
                "md",
                tr(
                    "meth_kv_linear_sub",
                    layers=m.linear_attention.num_layers,
                    result=fmt.nbytes(linear_state_bytes(m, kvb)),
                ),
            )
        )
    per_seq = _f(kv_cache_bytes_per_sequence(m, T, kvb))
    out.append(("latex", r"\mathrm{KV}_{cache} = B \times \mathrm{KV}(T)"))
    out.append(
        (
            "md",
            tr(
                "meth_kv_cache_sub",
                batch=fmt.integer(B),
                per_seq=fmt.nbytes(per_seq),
                t=fmt.integer(T),
                result=fmt.gb(_f(est.kv_cache_bytes)),
            ),
        )
    )
    out.append(
        (
            "md",
            tr(
                "meth_kv_peak_sub",
                t=fmt.integer(T + N),
                output_tokens=fmt.counted("n_output_tokens", N, tr),
                result=fmt.gb(_f(est.kv_cache_peak_bytes)),
            ),
        )
    )
    shards = _f(kv_shards(m, np.asarray(G)))
    out.append(
        (
            "md",
            tr(
                "meth_mem_gpu_sub",
                weights=fmt.gb(est.weight_bytes),
                devices=fmt.devices(est.hardware, G, tr),
                kv=fmt.gb(_f(est.kv_cache_peak_bytes)),
                shards=fmt.integer(shards),
                split=(
                    tr("meth_kv_split_mla")
                    if m.mla
                    else tr("meth_kv_split_shared")
                    if m.compressed_attention
                    else tr("meth_kv_split_heads", k=m.num_kv_heads)
                ),
                workspace=fmt.gb(_f(est.workspace_bytes_per_gpu)),
                usable=fmt.gb(est.usable_memory_per_gpu_bytes),
                result=fmt.gb(_f(est.memory_per_gpu_bytes)),
            ),
        )
    )
    return out


# --------------------------------------------------------------------------------------------------- time


def _rates_used(est: Estimate, tr: Translator) -> str:
    """The achievable rates the estimate ran at (est.rates), with the profile's bandwidth cap when it binds."""
    r, hw = est.rates, est.hardware
    # the profile's bandwidth limit binds below the attainable bandwidth x its efficiency (not the datasheet's: the
    # attainable 0.9 had read as a cap)
    capped = r.memory_bytes_per_s < attainable_bandwidth_bytes_per_s(hw) * est.profile.bandwidth_efficiency * (1 - 1e-9)
    return fmt.device_tr(hw, tr)(  # 'per chip' on a TPU or Trainium
        "meth_rates_used",
        w=fmt.tb_per_s(r.weight_bytes_per_s),
        kv=fmt.tb_per_s(r.kv_bytes_per_s),
        a=fmt.tb_per_s(r.memory_bytes_per_s),
        cap=tr("meth_rates_cap", cap=fmt.tb_per_s(r.memory_bytes_per_s)) if capped else "",
        g=fmt.tflops(r.gemm_flop_per_s),
    )


def _peak(est: Estimate) -> float:
    return est.hardware.dense_flop_per_s[est.compute_precision]


def roofline_blocks(est: Estimate, tr: Translator = EN, profile: str | None = None) -> list[Block]:
    """The per-operator roofline, the profile's efficiencies, and the slowest operator worked through.
    `profile` is the profile's display name (default: its catalog name)."""
    hw, p, s = est.hardware, est.profile, est.scenario
    out: list[Block] = [
        ("h", tr("meth_h_roofline")),
        ("md", tr("meth_roofline_intro")),
        (
            "latex",
            r"t_{op} = \max\left(\frac{F_{op}}{\Pi \cdot \eta_F},\ \frac{M_{op}}{\beta \cdot \eta_M}\right)",
        ),
    ]
    weight_only = is_weight_only(s.weights.bits, est.compute_precision)
    lowbit = tr("meth_lowbit", eff=fmt.plain(p.lowbit_bandwidth_efficiency)) if weight_only else ""
    attn = ""
    if est.attention_precision != est.compute_precision:
        attn = tr(
            "meth_attn_precision",
            precision=est.attention_precision,
            peak=fmt.tflops(hw.dense_flop_per_s[est.attention_precision]),
        )
    ideal = tr("meth_ideal_basis") if p.is_ideal else ""
    pi = _peak(est) if p.is_ideal else attainable_flop_per_s(hw, est.compute_precision)
    beta = hw.memory_bandwidth_bytes_per_s if p.is_ideal else attainable_bandwidth_bytes_per_s(hw)
    out.append(
        (
            "md",
            tr(
                "meth_roofline_values",
                # Π and β are the rates the chip measurably reaches, the fractions' base (roofline.rates_for); the
                # ideal bound's, the datasheet's peaks (a review: it had quoted the attainable beside rates at the peak)
                peak=fmt.tflops(pi),
                peak_sheet=fmt.tflops(_peak(est)),
                pi_frac=f"{pi / _peak(est):.2g}",
                pi_basis=ideal or explain.attainable_basis(hw, (est.compute_precision,), tr),
                beta_basis=ideal or explain.attainable_basis(hw, ("bandwidth",), tr),
                precision=est.compute_precision,
                hw=hw.name,
                eta_f=fmt.plain(p.flops_efficiency),
                bw=fmt.tb_per_s(beta),
                bw_sheet=fmt.tb_per_s(hw.memory_bandwidth_bytes_per_s),
                beta_frac=f"{beta / hw.memory_bandwidth_bytes_per_s:.2g}",
                eta_m=fmt.plain(p.bandwidth_efficiency),
                eta_kv=fmt.plain(p.kv_bandwidth_efficiency),
                lowbit=lowbit,
                attn=attn,
                profile=profile or p.name,
            )
            + _rates_used(est, tr),
        )
    )
    ops = est.decode.operators
    slowest = ops[int(np.argmax([_f(o.time_s) for o in ops]))]
    t_c, t_m = _f(slowest.compute_time_s), _f(slowest.memory_time_s)
    flops, nbytes = _f(slowest.flops), _f(slowest.bytes)
    out.append(
        (
            "md",
            tr(
                "meth_roofline_sub",
                op=tr(f"meth_op_{slowest.name}"),
                flops=fmt.flop(flops),
                rate=fmt.tflops(flops / t_c) if t_c > 0 else tr("na"),
                nbytes=fmt.nbytes(nbytes),
                bw=fmt.tb_per_s(nbytes / t_m) if t_m > 0 else tr("na"),
                t_c=fmt.fine_duration(t_c, tr=tr),
                t_m=fmt.fine_duration(t_m, tr=tr),
                result=fmt.fine_duration(_f(slowest.time_s), tr=tr),
            ),
        )
    )
    return out


def _moe_layer_cost(est: Estimate, tr: Translator) -> str:
    """One MoE layer's fixed cost as the overhead line writes it: the profile's, times each factor that applies
    (roofline.moe_layer_cost_s: its NVFP4 fraction with NVFP4 weights on FP4 math, its ROCm factor on an AMD GPU)
    and is not 1, each named."""
    p, s, hw = est.profile, est.scenario, est.hardware
    per_moe = fmt.fine_duration(p.moe_layer_overhead_s, tr=tr)
    factors = []
    if fused_nvfp4_moe(s.weights, rates_for(hw, p, s).gemm_precision, hw) and p.nvfp4_moe_cost_fraction != 1.0:
        factors.append(tr("meth_moe_nvfp4", fraction=f"{p.nvfp4_moe_cost_fraction:.3g}"))
    if runs_rocm(hw) and p.rocm_moe_cost_factor != 1.0:
        factors.append(tr("meth_moe_rocm", factor=f"{p.rocm_moe_cost_factor:.3g}"))
    return tr("meth_moe_factors", per_moe=per_moe, factors=" ".join(factors)) if factors else per_moe


def step_blocks(est: Estimate, tr: Translator = EN) -> list[Block]:
    """Decode step = operators + all-reduces + overheads; TPOT as the mean step over the generation; ITL."""
    m, hw, p, s = est.model, est.hardware, est.profile, est.scenario
    B, T, N, G = _f(s.batch), _f(s.context_tokens), _f(s.output_tokens), _f(s.num_gpus)
    bd = {k: _f(v) for k, v in est.breakdown_s.items()}
    ops_s = bd["weights"] + bd["kv_cache"] + bd["compute"]
    tpot = _f(est.tpot_s)
    out: list[Block] = [
        ("h", tr("meth_h_step")),
        ("latex", r"t_{step} = \sum_{op} t_{op} + t_{comm} + t_{oh}"),
        (
            "latex",
            # two lines: on one, a 900 px frame cut the formula after "max(1,"
            r"\begin{gathered}t_{comm} = 2L\left(\alpha_G + \frac{2(G-1)}{G} \cdot "
            r"\frac{m}{\beta_{link} \cdot \eta_{link}}\right)"
            r"\\ m = B \times D \times 2\ \mathrm{B},"
            r"\qquad \alpha_G = \alpha \max\left(1, \tfrac{\log_2 G}{3}\right)\end{gathered}",
        ),
    ]
    if G > 1:
        link = link_peak_bytes_per_s(hw)
        out.append(
            (
                "md",
                tr(
                    "meth_comm_sub",
                    layers=m.num_layers,
                    alpha=fmt.fine_duration(float(allreduce_latency_s(p, G)), tr=tr),
                    g1=fmt.integer(G - 1),
                    g=fmt.integer(G),
                    msg=fmt.nbytes(B * m.d_model * ACTIVATION_BYTES),
                    batch=fmt.integer(B),
                    d=fmt.integer(m.d_model),
                    link=fmt.gb_per_s(link),
                    eta=fmt.plain(p.interconnect_efficiency),
                    fallback=tr("meth_pcie_fallback") if hw.interconnect_bytes_per_s is None else "",
                    result=fmt.fine_duration(bd["communication"], tr=tr),
                ),
            )
        )
        domain = scale_up_domain_gpus(hw)
        if domain < G:  # the group spans domains: hierarchical bytes and the network's hops (collective_time_s)
            k = math.ceil(G / domain)
            parts = {n: _f(v) for n, v in allreduce_across_parts_s(hw, p, G, B * m.d_model * ACTIVATION_BYTES).items()}
            out.append(
                (
                    "md",
                    tr(
                        "meth_comm_own_domain" if domain == 1 else "meth_comm_across",
                        g=fmt.integer(G),
                        k=fmt.integer(k),
                        d=fmt.integer(domain),
                        link=fmt.gb_per_s(link),
                        nic=fmt.gb_per_s(scale_out_peak_bytes_per_s(hw)),
                        hops=fmt.integer(round(parts["hops"] / scale_out_latency_s(hw))),
                        hop=fmt.fine_duration(scale_out_latency_s(hw), tr=tr),
                        layers=m.num_layers,
                        alpha=fmt.fine_duration(float(allreduce_latency_s(p, G)), tr=tr),
                        inside=fmt.fine_duration(parts["inside"], tr=tr),
                        across=fmt.fine_duration(parts["across"], tr=tr),
                        hops_s=fmt.fine_duration(parts["hops"], tr=tr),
                        result=fmt.fine_duration(bd["communication"], tr=tr),
                    ),
                )
            )
    else:
        out.append(("md", tr("meth_comm_one_gpu")))
    # an MoE model's router, top-k and grouped-GEMM launches per MoE layer: most of its fixed cost (the sum had
    # left it out, '600 µs + 8.00 µs × 61 layers = 6.77 ms')
    moe = m.num_moe_layers > 0 and p.moe_layer_overhead_s > 0
    # the sequences each GPU samples: a cost linear in the first ones, saturating (roofline.sequence_overhead_s)
    seq = p.per_sequence_overhead_s > 0
    rows = float(sampled_rows_per_gpu(s, decode_work(m, s)))
    out.append(
        (
            "latex",
            r"t_{oh} = t_{token} + t_{layer} \times L"
            + (r" + t_{moe} \times L_{moe}" if moe else "")
            + (
                rf" + t_{{seq}} \times \frac{{r \times {SEQUENCE_HALF_BATCH:g}}}{{r + {SEQUENCE_HALF_BATCH:g}}}"
                if seq
                else ""
            ),
        )
    )
    seq_text = (
        fmt.device_tr(hw, tr)("meth_overhead_seq", per_seq=fmt.fine_duration(p.per_sequence_overhead_s, tr=tr), rows=fmt.count(rows),
           half=f"{SEQUENCE_HALF_BATCH:g}", value=fmt.fine_duration(float(sequence_overhead_s(p, rows)), tr=tr))
        if seq
        else ""
    )  # fmt: skip
    out.append(
        (
            "md",
            tr(
                "meth_overhead_sub_moe" if moe else "meth_overhead_sub",
                per_token=fmt.fine_duration(p.per_token_overhead_s, tr=tr),
                per_layer=fmt.fine_duration(p.per_layer_overhead_s, tr=tr),
                layers=m.num_layers,
                seq=seq_text,
                result=fmt.fine_duration(bd["overhead"], tr=tr),
                **({"per_moe": _moe_layer_cost(est, tr), "moe_layers": m.num_moe_layers} if moe else {}),
            ),
        )
    )
    out.append(
        (
            "md",
            tr(
                "meth_step_sub",
                ops=fmt.fine_duration(ops_s, tr=tr),
                comm=fmt.fine_duration(bd["communication"], tr=tr),
                oh=fmt.fine_duration(bd["overhead"], tr=tr),
                result=fmt.ms(tpot, tr=tr),
            ),
        )
    )
    out.append(
        (
            "latex",
            r"\mathrm{TPOT} = \frac{1}{N-1}\sum_{j=1}^{N-1} t_{step}(T + j) \approx t_{step}(\bar{T}),"
            r"\qquad \bar{T} = T + \frac{N}{2}",
        )
    )
    steps = N - 1
    if steps < 1:  # one output token: no decode step; the TPOT is a second token's (Overview's ov_one_token)
        out.append(("md", tr("meth_tpot_sub_one", first=fmt.integer(T + 1), result=fmt.ms(tpot, tr=tr))))
        return out
    out.append(
        (
            "md",
            tr(
                "meth_tpot_sub",
                output_tokens=fmt.counted("n_output_tokens", N, tr),
                decode_steps=fmt.counted("n_decode_steps", steps, tr),
                first=fmt.integer(T + 1),
                last=fmt.integer(T + steps),
                tbar=fmt.count(float(mean_decode_cache_tokens(T, N))),  # the cache the mean step reads
                result=fmt.ms(tpot, tr=tr),
            ),
        )
    )
    return out


def prefill_blocks(est: Estimate, tr: Translator = EN) -> list[Block]:
    """Whole-batch prefill = the prefill roofline over B x prompt tokens with causal attention; TTFT per request in
    the continuous-batching steady state; time to serve N tokens."""
    s, pre = est.scenario, est.prefill
    B, T, N = _f(s.batch), _f(s.context_tokens), _f(s.output_tokens)
    P = max(T, 1.0)
    bd = {k: _f(v) for k, v in pre.breakdown_s.items()}
    ttft = _f(est.ttft_per_request_s)
    return [
        ("h", tr("meth_h_prefill")),
        (
            "latex",
            r"t^{batch}_{prefill} = \sum_{op} \max\left(\frac{F^{pre}_{op}}{\Pi \cdot \eta_F},\ "
            r"\frac{M^{pre}_{op}}{\beta \cdot \eta_M}\right) + t^{pre}_{comm} + t_{oh}",
        ),
        ("latex", r"F_{attn} = 2\,H\,(d_{qk} + d_{v}) \times B \times \frac{P(P+1)}{2} \times L"),
        (
            "md",
            tr(
                "meth_prefill_sub",
                batch=fmt.integer(B),
                p=fmt.integer(P),
                tokens=fmt.integer(B * P),
                pairs=fmt.integer(P * (P + 1) / 2),
                flops=fmt.flop(_f(pre.flops)),
                nbytes=fmt.nbytes(_f(pre.bytes)),
            ),
        ),
        (
            "md",
            tr(
                "meth_ttft_sub",
                ops=fmt.fine_duration(bd["weights"] + bd["kv_cache"] + bd["compute"], tr=tr),
                comm=fmt.fine_duration(bd["communication"], tr=tr),
                oh=fmt.fine_duration(bd["overhead"], tr=tr),
                bound=tr("bound_compute") if _f(pre.flop_time_s) > _f(pre.memory_time_s) else tr("bound_memory"),
                result=fmt.duration(_f(est.batch_prefill_s), tr=tr),
            ),
        ),
        (
            "latex",
            r"\mathrm{TTFT} = \tfrac{1}{2}\,t_{step}\,[B > 1] + \left\lceil \frac{P}{K} \right\rceil t_{step + chunk}",
        ),
        (
            "md",
            tr(
                "meth_ttft_request_sub_one" if _f(est.scenario.batch) == 1 else "meth_ttft_request_sub",
                step=fmt.ms(_f(est.serving.step.time_s), tr=tr),
                half=fmt.ms(0.5 * _f(est.serving.step.time_s), tr=tr),
                chunks=fmt.integer(_f(est.serving.prompt_chunks)),
                first=fmt.ms(_f(est.serving.first_chunk.time_s), tr=tr),
                result=fmt.duration(ttft, tr=tr),
            ),
        ),
        ("latex", r"t_{serve}(N) = \mathrm{TTFT} + \mathrm{TPOT}_{steady} \times (N - 1)"),
        (
            "md",
            tr(
                "meth_serve_sub",
                ttft=fmt.duration(ttft, tr=tr),
                # a digit more: × 1,023 a rounded 32.0 ms had added up to 33.1 s beside the result's 33.0 (a review)
                tpot=fmt.ms(_f(est.serving.tpot_s), digits=4, tr=tr),
                n1=fmt.integer(N - 1),
                n=fmt.counted("n_output_tokens", N, tr),  # '1 output token' (it had read 'N = 1 tokens')
                result=fmt.duration(_f(est.time_to_serve_per_request_s), tr=tr),
            ),
        ),
    ]


def moe_blocks(est: Estimate, tr: Translator = EN) -> list[Block]:
    """Distinct experts a decode step touches with B tokens routed uniformly (dense models: one sentence)."""
    m, s = est.model, est.scenario
    out: list[Block] = [
        ("h", tr("meth_h_moe")),
        ("latex", r"E_{touched} = E\left(1 - \left(1 - \frac{k}{E}\right)^{B}\right)"),
    ]
    if not m.moe:
        return [*out, ("md", tr("meth_moe_dense", model=m.name))]
    e = m.moe
    B = _f(s.batch)
    touched = _f(expected_experts_touched(e.num_experts, e.experts_per_token, np.asarray(B)))
    out.append(
        (
            "md",
            tr(
                "meth_moe_sub",
                e=e.num_experts,
                k=e.experts_per_token,
                batch=fmt.integer(B),
                pct=fmt.pct(touched / e.num_experts),
                result=fmt.number(touched),
            ),
        )
    )
    return out


def intensity_blocks(est: Estimate, tr: Translator = EN) -> list[Block]:
    """Arithmetic intensity of the decode step against the ridge point of the hardware."""
    hw = est.hardware
    ai, ridge = _f(est.arithmetic_intensity_flop_per_byte), est.ridge_point_flop_per_byte
    bound = tr("bound_compute") if bool(np.asarray(est.compute_bound).reshape(-1)[0]) else tr("bound_memory")
    return [
        ("h", tr("meth_h_intensity")),
        ("latex", r"I = \frac{F_{step}}{M_{step}}, \qquad I^{*} = \frac{\Pi}{\beta}"),
        (
            "md",
            tr(
                "meth_intensity_sub",
                flops=fmt.flop(_f(est.decode.flops)),
                nbytes=fmt.nbytes(_f(est.decode.bytes)),
                result=fmt.number(ai),
            ),
        ),
        (
            "md",
            tr(
                "meth_ridge_sub",
                peak=fmt.tflops(_peak(est)),
                precision=est.compute_precision,
                bw=fmt.tb_per_s(hw.memory_bandwidth_bytes_per_s),
                result=fmt.number(ridge),
            ),
        ),
        *_effective_ridge(est, bound, tr),
    ]


def _effective_ridge(est: Estimate, bound: str, tr: Translator) -> list[Block]:
    """The verdict's line: against the peak ridge under the ideal profile, else against the ridge at the rates the
    profile reaches, which decides it (373 FLOP/byte 'I < I* -> compute-bound' had read as a contradiction: a review)."""
    ai, eff = _f(est.arithmetic_intensity_flop_per_byte), est.effective_ridge_flop_per_byte
    if est.profile.is_ideal:
        return [("md", tr("meth_bound_verdict", rel="<" if ai < est.ridge_point_flop_per_byte else "≥", bound=bound))]
    rates = est.rates
    return [
        ("md", tr("meth_ridge_eff_sub", flops=fmt.tflops(_f(rates.gemm_flop_per_s)),
                  bw=fmt.tb_per_s(_f(rates.memory_bytes_per_s)), result=fmt.number(eff))),
        ("md", tr("meth_bound_verdict_eff", rel="<" if ai < eff else "≥", bound=bound)),
    ]  # fmt: skip


def cost_blocks(est: Estimate, tr: Translator = EN) -> list[Block]:
    """$ per 1M output tokens and joules per token, or why they cannot be computed."""
    s, hw = est.scenario, est.hardware
    B, G, tpot = _f(s.batch), _f(s.num_gpus), _f(est.tpot_s)
    out: list[Block] = [
        ("h", tr("meth_h_cost")),
        (
            "latex",
            r"\$/1\mathrm{M} = \frac{p \times G}{3600} \div \frac{B}{\mathrm{TPOT}} \times 10^{6}",
        ),
    ]
    if _known(est.price_usd_per_gpu_hour):
        out.append(
            (
                "md",
                tr(
                    "meth_cost_sub",
                    price=fmt.usd_markdown(est.price_usd_per_gpu_hour),
                    devices=fmt.devices(hw, G, tr),
                    tps=fmt.rate(_f(est.tokens_per_s_total)),
                    result=fmt.usd_markdown(_f(est.usd_per_1M_tokens)),
                ),
            )
        )
        out.append(("md", tr("meth_cost_prefill", result=fmt.usd_markdown(_f(est.usd_per_1M_tokens_with_prefill)))))
    else:  # the sidebar's words: no public price under the basis and the bases that have one, or none in any basis
        out.append(("md", fmt.no_price_text(est.price, hw, fmt.device_tr(hw, tr)).replace("$", "\\$")))  # not LaTeX
    out.append(("latex", r"E_{tok} = \frac{P_{board} \times G \times \mathrm{TPOT}}{B}"))
    if hw.tdp_w is not None:
        out.append(
            (
                "md",
                tr(
                    "meth_energy_sub",
                    tdp=fmt.board_power(hw, tr),  # '1,000 W (estimate)' where the TDP is one, as the result
                    devices=fmt.devices(hw, G, tr),
                    tpot=fmt.ms(tpot, tr=tr),
                    batch=fmt.integer(B),
                    result=fmt.estimate(
                        tr("meth_j_per_token", j=fmt.number(_f(est.joules_per_token))), hw.estimated("tdp_W"), tr
                    ),
                ),
            )
        )
    else:
        out.append(("md", tr("meth_energy_none", hw=hw.name)))
    return out


def definition_blocks(est: Estimate, tr: Translator = EN) -> list[Block]:
    """TPOT, ITL, TTFT, MBU and MFU, with this scenario's MBU and MFU worked out."""
    hw = est.hardware
    tpot = _f(est.tpot_s)
    return [
        ("h", tr("meth_h_definitions")),
        ("md", tr("meth_def_tpot")),
        ("md", tr("meth_def_itl")),
        ("md", tr("meth_def_ttft")),
        ("md", tr("meth_def_mbu")),
        (
            "latex",
            r"\mathrm{MBU} = \frac{M_{step} / \mathrm{TPOT}}{\beta}, \qquad \mathrm{MFU} = \frac{F_{step} / \mathrm{TPOT}}{\Pi}",
        ),
        (
            "md",
            tr(
                "meth_mbu_sub",
                nbytes=fmt.nbytes(_f(est.decode.bytes)),
                tpot=fmt.ms(tpot, tr=tr),
                bw=fmt.tb_per_s(hw.memory_bandwidth_bytes_per_s),
                result=fmt.utilisation(_f(est.mbu)),
            ),
        ),
        ("md", tr("meth_def_mfu")),
        (
            "md",
            tr(
                "meth_mfu_sub",
                flops=fmt.flop(_f(est.decode.flops)),
                tpot=fmt.ms(tpot, tr=tr),
                peak=fmt.tflops(_f(est.peak_flop_per_s)),
                precision=est.compute_precision
                if _peak(est) == est.hardware.dense_flop_per_s[est.attention_precision]
                else tr("meth_mfu_mixed", gemm=est.compute_precision, attention=est.attention_precision),
                result=fmt.utilisation(_f(est.mfu)),
            ),
        ),
    ]


def misreading_blocks(est: Estimate, pair: Estimate, tr: Translator = EN) -> list[Block]:
    """The common misreadings, each with this scenario's numbers. `pair` is the same scenario at batch [1, B]."""
    hw, s = est.hardware, est.scenario
    B, tpot = _f(s.batch), _f(est.tpot_s)
    per_user, total = _f(est.tokens_per_s_per_user), _f(est.tokens_per_s_total)
    t1, tb = (float(x) for x in np.asarray(pair.tpot_s).reshape(-1)[:2])
    r1, rb = (float(x) for x in np.asarray(pair.tokens_per_s_total).reshape(-1)[:2])
    c1, cb = (float(x) for x in np.asarray(pair.usd_per_1M_tokens).reshape(-1)[:2])
    ai, ridge = _f(est.arithmetic_intensity_flop_per_byte), est.ridge_point_flop_per_byte
    bound = tr("bound_compute") if bool(np.asarray(est.compute_bound).reshape(-1)[0]) else tr("bound_memory")
    peak = _peak(est)
    out: list[Block] = [
        ("h", tr("meth_h_misreadings")),
        (
            "md",
            tr(
                "meth_mis_tps",
                tpot=fmt.ms(tpot, tr=tr),
                per_user=fmt.rate(per_user),
                batch=fmt.integer(B),
                total=fmt.rate(total),
            ),
        ),
    ]
    if B > 1 and not math.isfinite(c1):  # no price under the basis: the batch's share of the cost, not '$n/a'
        out.append(("md", fmt.device_text("meth_mis_lower_unpriced", hw, tr, t1=fmt.ms(t1, tr=tr), r1=fmt.rate(r1),
                                          batch=fmt.integer(B), tb=fmt.ms(tb, tr=tr), rb=fmt.rate(rb),
                                          x=fmt.number(rb / r1))))  # fmt: skip
    elif B > 1:
        out.append(
            (
                "md",
                tr(
                    "meth_mis_lower",
                    t1=fmt.ms(t1, tr=tr),
                    r1=fmt.rate(r1),
                    c1=fmt.usd_markdown(c1),
                    batch=fmt.integer(B),
                    tb=fmt.ms(tb, tr=tr),
                    rb=fmt.rate(rb),
                    cb=fmt.usd_markdown(cb),
                ),
            )
        )
    else:
        out.append(("md", tr("meth_mis_lower_batch1", t1=fmt.ms(t1, tr=tr), r1=fmt.rate(r1))))
    out.append(
        (
            "md",
            tr(
                "meth_mis_bandwidth",
                ai=fmt.number(ai),
                ridge=fmt.number(ridge),
                eff=fmt.number(est.effective_ridge_flop_per_byte),
                precision=est.compute_precision,
                bound=bound,
            ),
        )
    )
    out.append(
        (
            "md",
            tr(
                "meth_mis_sparse",
                hw=hw.name,
                precision=est.compute_precision,
                dense=fmt.tflops(peak),
                sparse=fmt.tflops(2 * peak),
            ),
        )
    )
    said = tr(
        "meth_mis_gib",
        gb=fmt.number(est.weight_bytes / GB),
        gib=fmt.number(est.weight_bytes / GiB),
        cap_gb=fmt.number(hw.memory_bytes / GB),
        cap_gib=fmt.number(hw.memory_bytes / GiB),
        hw=hw.name,
    )
    if hw.memory_reported_bytes:  # H200's '141 GB' is 141 GiB on nvidia-smi: the fit uses what the tool reports
        rep = hw.memory_reported_bytes
        said = tr.sentences([said, tr("meth_mis_gib_reported", gib=fmt.number(rep / GiB), gb=fmt.number(rep / GB))])
    out.append(("md", said))
    return out


def _plain(text: str) -> str:
    """Catalog text shown as plain text: markdown link, image, emphasis and HTML characters escaped (not _, which
    only emphasises at word boundaries and appears inside URLs)."""
    for ch in "\\`*[]<>#|!$":
        text = text.replace(ch, "\\" + ch)
    return text


def _item(tr: Translator, label_key: str, text: str) -> str:
    return "- " + tr("meth_src_item", label=tr(label_key), text=text)


SOURCE_TIERS = ("primary", "secondary", "community", "notes")
# The one place that decides a source's tier, by the start of its text or URL (host and path, lower case):
# primary = the maker's own word (vendor datasheets and docs, official model repos and papers, MLPerf submissions);
# community = copies, mirrors, wikis, personal pages and price blogs; anything else (analyses, papers about a chip,
# third-party docs) secondary; notes = this project's reference notes (a local path: compiled from public sources,
# which they name, but not themselves online).
_PRIMARY = ("nvidia.com", "www.nvidia.com", "docs.nvidia.com", "resources.nvidia.com", "amd.com", "www.amd.com",
            "intel.com", "www.intel.com", "cloud.google.com", "docs.cloud.google.com", "aws.amazon.com",
            "docs.aws.amazon.com", "github.com/meta-llama", "github.com/deepseek-ai", "github.com/qwenlm",
            "github.com/mlcommons", "raw.githubusercontent.com/mlcommons", "huggingface.co/meta-llama", "huggingface.co/deepseek-ai", "huggingface.co/qwen",
            "huggingface.co/mistralai", "huggingface.co/google", "huggingface.co/openai", "huggingface.co/moonshotai",
            "huggingface.co/zai-org", "huggingface.co/minimaxai", "huggingface.co/microsoft")  # fmt: skip
_COMMUNITY_WORDS = ("mirror", "copy", "copies", "wiki", "blog", "github.io", "deploybase", "forum", "reddit")


def source_tier(source: str) -> str:
    """'primary', 'secondary', 'community' or 'notes' for one catalog source line (see _PRIMARY, _COMMUNITY_WORDS)."""
    text = source.strip().lower()
    if text.startswith(("/", "data/")):  # a local path (the project reference notes), not a web address
        return "notes"
    where = text.removeprefix("https://").removeprefix("http://").split(" ")[0]
    if any(where == p or where.startswith(p + "/") or where.startswith(p + ".") for p in _PRIMARY):
        return "community" if any(w in text for w in ("mirror", "copies")) else "primary"
    if any(w in text for w in _COMMUNITY_WORDS) or where.startswith("huggingface.co/"):
        return "community"
    return "secondary"


def ranked_sources(sources) -> list[tuple[str, str]]:
    """(tier, source) with primary sources first, then secondary, then community; catalog order within a tier."""
    tiers = [(source_tier(s), s) for s in sources]
    return sorted(tiers, key=lambda t: SOURCE_TIERS.index(t[0]))


def source_blocks(est: Estimate, tr: Translator = EN, profile: str | None = None) -> list[Block]:
    """Where the catalog numbers of the current hardware, model and profile come from (their source and notes).
    `profile` is the profile's display name (default: its catalog name)."""
    hw, m, p = est.hardware, est.model, est.profile
    out: list[Block] = [("h", tr("meth_h_sources")), ("md", tr("meth_sources_intro"))]
    for title, name, sources, notes in (
        ("meth_src_hardware", hw.name, (*hw.source, *hw.system_source), hw.notes),
        ("meth_src_model", m.name, m.source, m.notes),
    ):
        ranked = ranked_sources(sources)
        numbered = len(ranked) > 1 and title == "meth_src_hardware" and (hw.field_sources or hw.derived)
        lines = [f"**{tr(title, name=_plain(name))}**"]
        lines += [
            "- "
            + tr(
                "meth_src_item",
                label=tr("meth_src_source") + (f" [{i}]" if numbered else ""),
                text=f"{tr(f'meth_tier_{tier}')} · {_plain(src)}",
            )  # fmt: skip
            for i, (tier, src) in enumerate(ranked, 1)
        ] or [_item(tr, "meth_src_source", tr("meth_src_none"))]
        if notes:
            lines.append(_item(tr, "meth_src_notes", _plain(notes)))
        out.append(("md", "\n".join(lines)))
        if title == "meth_src_hardware" and (hw.field_sources or hw.derived):
            out.append(("md", figure_sources_table(hw, [src for _, src in ranked], tr)))
    lines = [f"**{tr('meth_src_profile', name=_plain(profile or p.name))}**"]
    if p.description:
        lines.append(_item(tr, "meth_src_description", _plain(fmt.profile_description(p, tr))))
    lines.append(_item(tr, "meth_src_source", _plain(p.source) if p.source else tr("meth_src_none")))
    out.append(("md", "\n".join(lines)))
    return out


def figure_sources_table(hw, ranked: list[str], tr: Translator = EN) -> str:
    """A markdown table of every figure of a chip cited per figure: its value as the catalog wrote it and the numbers
    of the sources (in `ranked`, 1-based) that state it, or how it was derived."""
    rows = [
        f"| {tr('meth_fig_col_figure')} | {tr('meth_fig_col_value')} | {tr('meth_fig_col_source')} |",
        "|---|--:|---|",
    ]
    for name in figure_fields_of(hw):
        value, unit = figure_value(hw, name)
        label = (
            tr("meth_fig_dense", precision=name.split(".", 1)[1].upper())
            if name.startswith("dense_TFLOP_per_s.")
            else fmt.device_text(f"meth_fig_{name}", hw, tr)
        )
        cites = [f"[{n}]" for n in sorted(ranked.index(c) + 1 for c in hw.field_sources.get(name, ()))]
        how = [_plain(hw.derived[name])] if name in hw.derived else []
        shown = f"{value:,.6g}" if name != "launch_year" else f"{value:.0f}"
        value_text = f"{shown}\u00a0{unit}" if unit else shown  # a value does not wrap from its unit
        value_text = fmt.estimate(value_text, hw.estimated(name), tr)  # not published: '1,000 W (estimate)'
        rows.append(f"| {label} | {value_text} | {'; '.join([', '.join(cites)] * bool(cites) + how)} |")
    return f"{tr('meth_fig_intro')}\n\n" + "\n".join(rows)


def limit_blocks(tr: Translator = EN) -> list[Block]:
    """What the model leaves out."""
    keys = ("overlap", "static", "pipeline", "activations", "routing", "speculative")
    return [("h", tr("meth_h_limits")), ("md", "\n".join(f"- {tr(f'meth_limit_{k}')}" for k in keys))]


# --------------------------------------------------------------------------------------------------- operator figure

OPERATOR_COLUMNS = (
    "operator",
    "gflop",
    "weight_gb",
    "kv_cache_gb",
    "activation_gb",
    "compute_time_ms",
    "memory_time_ms",
    "time_ms",
    "bound",
    "arithmetic_intensity_flop_per_byte",
)


def operator_data(est: Estimate) -> pd.DataFrame:
    """One row per decode operator (per GPU, per step): FLOPs, bytes by kind, both roofline times and the result."""
    ops = est.decode.operators
    rows = [
        (
            o.name,
            _f(o.flops) / 1e9,
            _f(o.weight_bytes) / GB,
            _f(o.kv_bytes) / GB,
            _f(o.activation_bytes) / GB,
            _f(o.compute_time_s) * 1e3,
            _f(o.memory_time_s) * 1e3,
            _f(o.time_s) * 1e3,
            "compute" if _f(o.compute_time_s) > _f(o.memory_time_s) else "memory",
            _f(o.arithmetic_intensity_flop_per_byte),
        )
        for o in ops
    ]
    return pd.DataFrame(rows, columns=list(OPERATOR_COLUMNS))


def operator_times(est: Estimate, *, tr: Translator = EN) -> go.Figure:
    """Per decode operator: compute time and memory time (ms, log axis); the operator takes the longer of the two."""
    df = operator_data(est)
    names = [tr(f"meth_op_{n}") for n in df["operator"]]
    bound = [tr("bound_compute") if b == "compute" else tr("bound_memory") for b in df["bound"]]
    fig = Figure()
    for col, key, colour in (
        ("memory_time_ms", "meth_fig_memory", MEMORY_COLOUR),
        ("compute_time_ms", "meth_fig_compute", COMPUTE_COLOUR),
    ):
        label = tr(key)
        fig.add_bar(
            y=names,
            x=df[col].where(df[col] > 0),
            orientation="h",
            name=label,
            marker_color=colour,
            customdata=np.stack([df["time_ms"], bound], axis=-1),
            hovertemplate=f"%{{y}}<br>{label}: %{{x:.4g}} ms<br>{tr('meth_fig_hover_time')}: "
            "%{customdata[0]:.4g} ms (%{customdata[1]})<extra></extra>",
        )
    style(fig, tr("meth_fig_title"), tr("meth_fig_axis"), "", log_x=True)
    fig.update_xaxes(dtick=1, exponentformat="none")  # decades only, written out (0.001, 0.01, ...)
    fig.update_layout(barmode="group", height=max(300, 60 + 42 * len(names)), bargap=0.25)
    fig.update_yaxes(autorange="reversed")
    return fig


def operator_display(df: pd.DataFrame, tr: Translator = EN) -> pd.DataFrame:
    """The operator table with translated operator names, bound labels and column headers."""
    out = df.copy()
    out["operator"] = [tr(f"meth_op_{n}") for n in out["operator"]]
    out["bound"] = [tr("bound_compute") if b == "compute" else tr("bound_memory") for b in out["bound"]]
    return out.rename(columns={c: tr(f"meth_col_{c}") for c in OPERATOR_COLUMNS})


# --------------------------------------------------------------------------------------------------- reference points


@lru_cache(maxsize=2)
def reference_points(path: str | Path = REFERENCE_POINTS_FILE) -> dict:
    """The public reference points (data/reference_points.yaml): textbook bounds and measured serving points."""
    return load_yaml(Path(path).read_text(encoding="utf-8"))


def textbook_data(refs: dict, live: list[Estimate]) -> pd.DataFrame:
    """Textbook TPOT lower bounds next to this tool's ideal-profile TPOT for the same case (one row per hardware)."""
    rows = []
    for point, est in zip(refs["textbook"]["points"], live, strict=True):
        tool_ms = _f(est.tpot_s) * 1e3
        rows.append(
            (
                est.hardware.name,
                est.hardware.launch_year,
                point["bandwidth_TB_per_s"],
                point["tpot_ms"],
                round(tool_ms, 2),
                round((tool_ms / point["tpot_ms"] - 1) * 100, 2),
            )
        )
    cols = ["hardware", "launch_year", "bandwidth_tb_per_s", "textbook_tpot_ms", "tool_ideal_tpot_ms", "difference_pct"]
    return pd.DataFrame(rows, columns=cols)


def measured_tpot_ms(point: dict) -> float:
    """A measured point's TPOT in ms: as published, or 1000 / (tokens/s per user)."""
    value = float(point["value"])
    return value if point["metric"] == "tpot_ms" else 1e3 / value


def measured_data(refs: dict, live: list[Estimate], tr: Translator = EN) -> pd.DataFrame:
    """Published measured points (source, date) next to this tool's TPOT for the same case with the chosen profile."""
    rows = []
    for point, est in zip(refs["measured"], live, strict=True):
        sc = point["scenario"]
        measured = measured_tpot_ms(point)
        tool_ms = _f(est.tpot_s) * 1e3
        rows.append(
            (
                point["date"] or tr("meth_ref_undated"),
                est.model.name,
                f"{point['hardware_label']} · {sc['weights']}",
                sc["batch"],
                f"{fmt.tokens(sc['context'])} / {fmt.tokens(sc['output'])}",
                round(measured, 2),
                round(tool_ms, 2),
                round(tool_ms / measured, 2),
            )
        )
    cols = [
        "date",
        "model",
        "hardware",
        "batch",
        "context_output_tokens",
        "measured_tpot_ms",
        "tool_tpot_ms",
        "tool_over_measured",
    ]
    return pd.DataFrame(rows, columns=cols)


def collective_data(refs: dict, hardware: dict, models: dict, profile) -> pd.DataFrame:
    """Published all-to-all timings across nodes (one MoE layer's dispatch + combine, µs) next to this tool's cost of
    the same pair with `profile` on the catalog's stand-in system (refs["collectives"]): one row per EP size."""
    ref = refs["collectives"]
    hw, m = hardware[ref["hardware"]], models[ref["model"]]
    rows = []
    for p in ref["points"]:
        n = p["ep_gpus"]
        pair = ep_alltoall(m, float(ref["tokens_per_gpu"]), float(n))
        tool_us = float(pair.count * collective_time_s(hw, profile, pair)) * 1e6
        measured = p["dispatch_us"] + p["combine_us"]
        rows.append((n, n // int(scale_up_domain_gpus(hw)), measured, round(tool_us), round(tool_us / measured, 2)))
    cols = ["ep_gpus", "nodes", "measured_alltoall_us", "tool_alltoall_us", "tool_over_measured"]
    return pd.DataFrame(rows, columns=cols)


NB_HYPHEN = "\u2011"  # a date's hyphens that a narrow table column does not break at ('2025-05-/05')


def phase_data(refs: dict, hardware: dict, models: dict, profiles: dict, tr: Translator = EN) -> pd.DataFrame:
    """Published whole-phase throughputs at scale (refs["phases"]: a wide expert-parallel decode or prefill worker run
    flat out) next to this tool's worker of the same layout under the point's engine profile and its pool correction
    (layouts.worker_rate): one row per point, tokens/s per GPU (output for decode, input for prefill)."""
    rows = []
    for p in refs["phases"]:
        sc = p["scenario"]
        s = Scenario(weights=sc["weights"], kv_cache=sc["kv"], context_tokens=sc["context"], output_tokens=1)
        per_gpu = p["batch_per_gpu"]
        got = worker_rate(models[sc["model"]], hardware[sc["hardware"]], s, profiles[p["profile"]], phase=p["phase"],
                          parallelism="dp-ep", gpus=sc["gpus"], batch=None if per_gpu is None else per_gpu * sc["gpus"])  # fmt: skip
        tool = round(got.tokens_per_s_per_gpu) if got.fits else math.nan
        batch = f"{per_gpu:,}" if per_gpu is not None else tr("meth_phase_full", n=f"{got.batch / sc['gpus']:,.0f}")
        rows.append((
            p["date"].replace("-", NB_HYPHEN), f"{p['engine']} · {p['hardware_label']} · DEP{sc['gpus']} · "
            f"{sc['weights']} / KV {sc['kv']}", tr(f"meth_phase_{p['phase']}", tokens=f"{sc['context']:,}"), batch,
            float(p["value"]),
            float(tool), round(tool / float(p["value"]), 2),
        ))  # fmt: skip
    cols = [
        "date",
        "setup",
        "phase",
        "batch_per_gpu",
        "measured_tok_s_gpu",
        "tool_tok_s_gpu",
        "tool_over_measured_rate",
    ]
    return pd.DataFrame(rows, columns=cols)


def measured_notes(refs: dict, tr: Translator = EN) -> str:
    """One bullet per measured point: what was measured and how it is modelled, then the source's address."""
    return "\n".join(
        "- "
        + tr.sentences(
            [tr("meth_refnote_" + p["id"]), tr("meth_src_item", label=tr("meth_src_source"), text=p["source"])]
        )
        for p in refs["measured"]
    )


def _number(v: float) -> str:
    """A reference number with the decimals it has, to 4 significant figures (39.95, 2.039, 16), whole from 1,000 up
    (13,386, not 1.339e+04), minus sign (−)."""
    if not math.isfinite(v):
        return "—"
    return (f"{v:,.0f}" if abs(v) >= 1000 else f"{v:,.4g}").replace("-", "−")


def display(df: pd.DataFrame, tr: Translator = EN, **fields) -> Styler:
    """A reference table for st.table, with translated column headers (keys meth_col_<column>, filled with `fields`),
    its numbers kept (right-aligned) and printed with their own decimals (a static table printed '16.0000' and
    '-0.3700')."""
    names = {c: tr(f"meth_col_{c}", **fields) for c in df.columns}
    # the tool-over-measured ratios in two decimals each: '1.20', not '1.2' beside '1.18'
    ratios = {names[c] for c in df.columns if c.startswith("tool_over_measured")}
    out = df.rename(columns=names)
    return out.style.format(
        {c: (lambda v: f"{v:.2f}") if c in ratios else _number for c in out.columns if out[c].dtype.kind == "f"}
    )
