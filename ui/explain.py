"""'How is this computed?' for every headline number: formula, the scenario's values substituted, result. Pure."""

from __future__ import annotations

from dataclasses import dataclass, field

from tpot_model import Estimate
from tpot_model.roofline import attainable_bandwidth_bytes_per_s, attainable_flop_per_s, attainable_source

from . import fmt
from .i18n import Translator


@dataclass(frozen=True)
class Explanation:
    key: str  # the metric's label key
    formula: str
    substituted: str
    result: str
    key_values: dict = field(default_factory=dict)  # the label's placeholders, as the metric fills them


def decode_bytes(est: Estimate) -> tuple[float, float]:
    """(weight + activation bytes, KV-cache bytes) one GPU reads in a mean decode step."""
    ops = est.decode.operators
    return (
        float(sum(o.weight_bytes + o.activation_bytes for o in ops)),
        float(sum(o.kv_bytes for o in ops)),
    )


# roofline.attainable_source -> its words (short: a legend's)
_SOURCE_KEYS = {"published": "roofline_attainable_measured", "prior": "roofline_attainable_prior",
                "guess": "roofline_attainable_guess"}  # fmt: skip


def attainable_basis(hw, rates: tuple[str, ...], tr: Translator, *, short: bool = False) -> str:
    """Where the chip's attainable rates come from (roofline.attainable_source of each of `rates`: 'bandwidth' and /
    or a compute precision), in words; a roof of a measured bandwidth and an unmeasured FLOP/s (H100 SXM's) says
    each (a review: it had read 'family prior, not measured' of a measured 84 % bandwidth)."""
    sources = {r: attainable_source(hw, r) for r in rates}
    if len(set(sources.values())) == 1:
        return tr(_SOURCE_KEYS[next(iter(sources.values()))] + ("_short" if short else ""))
    bw, flops = sources["bandwidth"], next(v for r, v in sources.items() if r != "bandwidth")
    if short:
        return tr(
            "roofline_attainable_bw_measured_short" if bw == "published" else "roofline_attainable_flops_measured_short"
        )
    return tr("roofline_attainable_each", bw=tr(_SOURCE_KEYS[bw]), flops=tr(_SOURCE_KEYS[flops]))


def gemm_rate(est: Estimate, tr: Translator) -> str:
    """The GEMM rate the estimate ran at and where it comes from: the profile's share of what the chip reaches at that
    precision (attainable_basis) out of the datasheet peak; the ideal bound, the peak."""
    hw, used = est.hardware, est.rates.gemm_precision
    peak = fmt.tflops(hw.dense_flop_per_s[used])
    if est.profile.is_ideal:
        return tr("ov_flops_ideal", rate=peak, precision=used)
    return tr("ov_flops", rate=fmt.tflops(est.rates.gemm_flop_per_s), precision=used, peak=peak,
              attainable=fmt.tflops(attainable_flop_per_s(hw, used)), basis=attainable_basis(hw, (used,), tr))  # fmt: skip


def bandwidth_rate(est: Estimate, tr: Translator) -> str:
    """Where the bandwidths the estimate read at come from: the profile's shares of what the chip reaches
    (attainable_basis) out of the datasheet peak, and the unpacking factor of weight-only formats; the ideal bound,
    the peak."""
    hw, p = est.hardware, est.profile
    peak = fmt.tb_per_s(hw.memory_bandwidth_bytes_per_s)
    if p.is_ideal:
        return tr("ov_bw_ideal", peak=peak)
    unpack = est.rates.weight_bytes_per_s < est.rates.memory_bytes_per_s
    return tr("ov_bw", attainable=fmt.tb_per_s(attainable_bandwidth_bytes_per_s(hw)), peak=peak,
              basis=attainable_basis(hw, ("bandwidth",), tr)) + (
        tr("ov_bw_unpack", factor=fmt.plain(p.lowbit_bandwidth_efficiency)) if unpack else "")  # fmt: skip


def headline(est: Estimate, tr: Translator) -> list[Explanation]:
    """Explanations of the overview's numbers for a scalar estimate, in its chip's device word ('per chip' on a TPU or
    Trainium)."""
    s, hw = est.scenario, est.hardware
    tr = fmt.device_tr(hw, tr)
    tpot, ttft = float(est.tpot_s), float(est.ttft_per_request_s)
    batch, gpus, out = int(s.batch), int(s.num_gpus), int(s.output_tokens)
    parts = " + ".join(f"{tr('bucket_' + k)} {fmt.ms(float(v), tr=tr)}" for k, v in est.breakdown_s.items())
    kv_gpu = float(est.kv_cache_peak_bytes_per_gpu)
    items = [
        Explanation("m_tpot", tr("ex_tpot"), parts, fmt.ms(tpot, tr=tr)),
        Explanation("m_tps_user", "1 ÷ TPOT", f"1 ÷ {fmt.ms(tpot, tr=tr)}", fmt.rate(float(est.tokens_per_s_per_user))),
        Explanation(
            "m_tps_total",
            tr("ex_tps_total"),
            f"{batch} ÷ {fmt.ms(tpot, tr=tr)}",
            fmt.rate(float(est.tokens_per_s_total)),
        ),
        Explanation(
            "m_ttft",
            tr("ex_ttft"),
            tr(
                "ex_ttft_values_one" if int(s.batch) == 1 else "ex_ttft_values",
                step=fmt.ms(float(est.serving.step.time_s), tr=tr),
                chunks=int(est.serving.prompt_chunks),
                first=fmt.ms(float(est.serving.first_chunk.time_s), tr=tr),
            ),
            fmt.duration(ttft, tr=tr),
        ),
        Explanation(
            "m_batch_prefill",
            tr("ex_batch_prefill"),
            tr(
                "ex_batch_prefill_values",
                batch=batch,
                tokens=fmt.tokens(max(int(s.context_tokens), 1)),
                # the parts in the unit of their sum (a review: 'compute 7,167 ms ... = 8.22 s')
                parts=" + ".join(
                    f"{tr('bucket_' + k)} {fmt.duration(float(v), like=float(est.batch_prefill_s), tr=tr)}"
                    for k, v in est.prefill.breakdown_s.items()
                ),  # fmt: skip
            )
            if est.steady is None
            else "",
            fmt.duration(float(est.batch_prefill_s), tr=tr),
        ),  # fmt: skip
        Explanation(
            "m_serve",
            tr("ex_serve"),
            f"{fmt.duration(ttft, tr=tr)} + {fmt.ms(float(est.serving.tpot_s), digits=4, tr=tr)} × ({out} − 1)",  # adds up as shown
            fmt.duration(float(est.time_to_serve_per_request_s), tr=tr),
            {"n": fmt.tokens(out)},
        ),  # fmt: skip
        Explanation(
            fmt.device_key("m_memory", hw, tr),  # 'Memory per chip' on a TPU or Trainium
            tr("ex_memory_free" if est.memory_gate.of_free else "ex_memory"),
            f"{fmt.gb(float(est.weight_bytes_per_gpu))} + {fmt.gb(kv_gpu)} + {fmt.gb(float(est.workspace_bytes_per_gpu))}",
            f"{fmt.gb(float(est.memory_per_gpu_bytes))} / {fmt.gb(est.usable_memory_per_gpu_bytes)}",
        ),
        Explanation(
            fmt.device_key("m_min_gpus", hw, tr),
            tr("ex_min_gpus_free" if est.memory_gate.of_free else "ex_min_gpus"),
            tr(
                "ex_min_gpus_values_free" if (gate := est.memory_gate).of_free else "ex_min_gpus_values",
                weights=fmt.gb(est.weight_bytes),
                kv=fmt.gb(float(est.kv_cache_peak_bytes)),
                usable=fmt.gb(est.usable_memory_per_gpu_bytes),
                capacity=fmt.gb(gate.capacity_bytes),
                reserved=fmt.gb(gate.reserved_bytes),
                fraction=f"{gate.fraction:g}",
            ),
            fmt.gpus(float(est.min_gpus), fmt.device_tr(hw, tr)),
        ),  # fmt: skip
    ]
    if est.price_usd_per_gpu_hour == est.price_usd_per_gpu_hour:
        items.append(Explanation(
            "m_cost",
            tr("ex_cost"),
            f"{fmt.usd(est.price_usd_per_gpu_hour)} × {gpus} ÷ 3600 ÷ {fmt.rate(float(est.tokens_per_s_total))} × 10⁶",
            fmt.usd(float(est.usd_per_1M_tokens)),
        ))  # fmt: skip
    weight_b, kv_b = decode_bytes(est)
    items.append(Explanation(
        "m_bound",
        tr("ex_bound"),
        f"{fmt.number(float(est.decode.flops) / 1e9)} GFLOP ÷ {fmt.gb(weight_b + kv_b)} = "
        f"{fmt.number(float(est.arithmetic_intensity_flop_per_byte))} FLOP/byte; "
        f"{fmt.tflops(hw.dense_flop_per_s[est.compute_precision])} ÷ {fmt.tb_per_s(hw.memory_bandwidth_bytes_per_s)} = "
        f"{fmt.number(est.ridge_point_flop_per_byte)} FLOP/byte"
        # the ridge at the profile's rates decides the verdict (Methodology's I*ₑ)
        + ("" if est.profile.is_ideal else f"; {fmt.tflops(float(est.rates.gemm_flop_per_s))} ÷ "
           f"{fmt.tb_per_s(float(est.rates.memory_bytes_per_s))} = {fmt.number(est.effective_ridge_flop_per_byte)} FLOP/byte"),
        tr("bound_compute") if bool(est.compute_bound) else tr("bound_memory"),
    ))  # fmt: skip
    return items
