"""Overview: the scenario's headline numbers, judged against TPOT targets, each with its definition and formula."""

import streamlit as st

from tpot_model.estimate import usable_memory
from tpot_model.targets import targets_met
from tpot_model.units import GiB
from ui import bands, chart, controls, expanders, explain, fmt, metrics, notices
from ui.figures import overview as figs
from ui.figures.common import band_label

state = controls.scenario_state()
tr = controls.translator()
est = controls.evaluate(state)
ideal = controls.evaluate(state, profile_id="ideal")
model, hw, s = est.model, est.hardware, est.scenario
memory = usable_memory(hw, est.profile)  # the fit gate's memory: what the vendor's tool reports where published
tpot, ttft = float(est.tpot_s), float(est.ttft_per_request_s)

st.title(tr("app_title"))
if chart.embedded():
    st.caption(
        tr(
            "embed_caption",
            model=model.name,
            gpus=fmt.gpus(state.gpus),
            hw=hw.name,
            weights=state.weights,
            kv=state.kv,
            batch=fmt.integer(state.batch),
            context=fmt.tokens(state.context),
            output=fmt.tokens(state.output),
            profile=controls.profile_label(est.profile, tr),
        )
    )
else:
    st.caption(tr("app_caption"))
    st.markdown(controls.scenario_intro(est, state, tr))
notices.scenario_notices(est, tr)
notices.fp4_notice(est, state.weights, state.kv, tr)
notices.split_notice(est, tr)
notices.scale_notice(est, tr)
if said := notices.compute_fallback_text([(hw.name, est.compute_fallback)], tr):  # FP4 on an H200: the math at BF16
    st.info(said)
if int(s.output_tokens) == 1:  # no token follows the first: the TPOT and targets below are a second token's
    st.info(tr("ov_one_token", ttft=fmt.duration(ttft, tr=tr)), icon=":material/looks_one:")

with metrics.Row() as row:
    row.metric(
        tr("m_tpot"),
        **notices.if_fitted(est, tr, fmt.ms(tpot, tr=tr), help=tr("m_tpot_def"), **bands.metric_band(est, tr, "tpot")),
    )
    row.metric(
        tr("m_tps_user"),
        **notices.if_fitted(
            est,
            tr,
            fmt.rate(float(est.tokens_per_s_per_user)),
            help=tr("m_tps_user_def"),
            **bands.metric_band(est, tr, "tps_user"),
        ),
    )
    row.metric(
        tr("m_tps_total"),
        **notices.if_fitted(
            est,
            tr,
            fmt.rate(float(est.tokens_per_s_total)),
            help=tr(
                "m_tps_total_def",
                devices=fmt.devices(est.hardware, state.gpus, tr),
                device=fmt.device_word(est.hardware, tr, 1),
                per_gpu=fmt.rate(float(est.tokens_per_s_per_gpu)),
            ),
            **bands.metric_band(est, tr, "tps_total"),
        ),
    )
    row.metric(
        tr("m_ttft"),
        **notices.if_fitted(
            est,
            tr,
            fmt.duration(ttft, tr=tr),
            help=tr(
                "m_ttft_def_one" if state.batch == 1 else "m_ttft_def",
                context=fmt.tokens(state.context),
                batch=fmt.integer(state.batch),
                batch_prefill=fmt.duration(float(est.batch_prefill_s), tr=tr),
            ),
        ),
    )
    row.metric(
        tr("m_serve_one" if int(s.output_tokens) == 1 else "m_serve", n=fmt.tokens(state.output)),
        **notices.if_fitted(
            est,
            tr,
            fmt.duration(float(est.time_to_serve_per_request_s), tr=tr),
            help=tr("m_serve_def", tpot=fmt.ms(float(est.serving.tpot_s), tr=tr)),
        ),
    )
    price_known = est.price_usd_per_gpu_hour == est.price_usd_per_gpu_hour
    if price_known and int(s.output_tokens) == 1:  # no decode step follows: the one token's cost is the prefill's
        row.metric(
            tr("m_cost_one"),
            **notices.if_fitted(
                est,
                tr,
                fmt.usd(float(est.usd_per_1M_tokens_with_prefill)),
                help=fmt.device_text("m_cost_one_def", hw, tr, decode=fmt.usd(float(est.usd_per_1M_tokens))),
            ),
        )
    elif price_known:
        row.metric(
            tr("m_cost"),
            **notices.if_fitted(
                est,
                tr,
                fmt.usd(float(est.usd_per_1M_tokens)),
                help=fmt.device_text(
                    "m_cost_def", hw, tr, with_prefill=fmt.usd(float(est.usd_per_1M_tokens_with_prefill))
                ),
                **bands.metric_band(est, tr, "usd"),
            ),
        )
    else:
        # why, in the notice's words: the bases that price it, or that none does (fmt.no_price_text)
        no_price = fmt.no_price_text(est.price, hw, fmt.device_tr(hw, tr))
        row.metric(tr("m_cost"), **metrics.missing(fmt.no_price_short(est.price, fmt.device_tr(hw, tr))), help=no_price)
    row.metric(
        fmt.device_text("m_memory", hw, tr),
        fmt.memory(float(est.memory_per_gpu_bytes)),  # '44.4 TB' as the does-not-fit notice says it
        help=fmt.device_text(
            "m_memory_def", hw, tr, usable=fmt.gb(est.usable_memory_per_gpu_bytes), capacity=fmt.capacity(memory, tr)
        )
        + fmt.memory_rule(est, tr),
    )
    min_gpus = float(est.min_gpus)
    row.metric(
        fmt.device_text("m_min_gpus", hw, tr),
        fmt.gpus(min_gpus, fmt.device_tr(hw, tr)),
        help=fmt.device_text("m_min_gpus_def", hw, tr),
    )
notices.cost_line(est, tr, also=bands.basis_text(est, tr, controls.profile_label(est.profile, tr)))

# the static batch's TPOT above; served, the prompts' prefill rides the steps (at 128K context 6x slower: its targets
# had read as met where a server misses them); said where it differs by a tenth or more, the static line named so
# (two 'meets' lists, one under the other, had read as a contradiction: a review)
served = float(est.serving.tpot_s)
differs = bool(est.fits) and state.output > 1 and served >= 1.1 * tpot
met = [tr(f"target_{k}") for k, ok in targets_met(tpot).items() if ok]
met_key = ("ov_targets_met_static" if differs else "ov_targets_met") if bool(est.fits) else "ov_targets_met_nofit"
st.markdown(tr(met_key, met=tr.join(met)) if met else tr("ov_targets_none"))
if differs:
    met_served = [tr(f"target_{k}") for k, ok in targets_met(served).items() if ok]
    st.caption(tr("ov_served_tpot", served=fmt.ms(served, tr=tr), ratio=f"{served / tpot:.2g}×",
                  meets=tr("ov_served_meets", met=tr.join(met_served)) if met_served else tr("ov_served_meets_none")))  # fmt: skip
chart.figure(
    lambda: figs.tpot_vs_targets(
        tpot,
        float(ideal.tpot_s),
        low_s=float(est.tpot_low_s),
        high_s=float(est.tpot_high_s),
        band_name=band_label(est.band, tr),
        fits=bool(est.fits),
        tr=tr,
    ),
    lambda: figs.targets_table(tpot, float(ideal.tpot_s), float(est.tpot_low_s), float(est.tpot_high_s)),
    "tpot-targets",
    tr,
    depends=(),  # the sidebar's scenario alone: built once per scenario, shared
)

bound = tr("bound_compute") if bool(est.compute_bound) else tr("bound_memory")
weight_b, kv_b = explain.decode_bytes(est)
# the TPOT's parts, in its unit (they add up to it: not 8,814 ms beside 95.9 s); the reads and the math in theirs
part = {k: fmt.ms(float(v), like=tpot, tr=tr) for k, v in est.breakdown_s.items()}
slowest = max(float(est.decode.memory_time_s), float(est.decode.flop_time_s))
st.markdown(  # one element: the bottleneck and why
    f"**{tr('m_bound')}{tr('label_colon')}{bound}** — "
    + tr(
        "m_bound_def" if est.profile.is_ideal else "m_bound_def_eff",  # the achievable ridge decides the verdict
        ai=fmt.number(float(est.arithmetic_intensity_flop_per_byte)),
        ridge=fmt.number(est.ridge_point_flop_per_byte),
        eff=fmt.number(est.effective_ridge_flop_per_byte),
        precision=est.compute_precision,
    )
    + "\n\n"
    + tr(
        "sentences",
        a=fmt.device_text(
            "ov_why",
            hw,
            tr,
            weights=fmt.memory(weight_b),  # TB from 10 TB, as the memory tile says it
            kv=fmt.memory(kv_b),
            output_tokens=fmt.counted("n_output_tokens", s.output_tokens, tr),
            bw_weights=fmt.tb_per_s(est.rates.weight_bytes_per_s),  # a weight-only format's unpacking slows it
            bw_kv=fmt.tb_per_s(est.rates.kv_bytes_per_s),
            bw_basis=explain.bandwidth_rate(est, fmt.device_tr(hw, tr)),
            floor=fmt.ms(float(est.decode.memory_time_s), like=slowest, tr=tr),
            compute=fmt.ms(float(est.decode.flop_time_s), like=slowest, tr=tr),
            flops=explain.gemm_rate(est, fmt.device_tr(hw, tr)),
        ),
        b=tr(
            "ov_why_sum",
            tpot=fmt.ms(tpot, tr=tr),
            weights=part["weights"],
            kv=part["kv_cache"],
            compute=part["compute"],
            comm=part["communication"],
            overhead=part["overhead"],
        ),  # fmt: skip
    )
)

parts = {
    "weights": float(est.weight_bytes_per_gpu),
    "kv_cache": float(est.kv_cache_peak_bytes_per_gpu),
    "workspace": float(est.workspace_bytes_per_gpu),
}
chart.figure(
    lambda: figs.memory_use(
        parts,
        est.usable_memory_per_gpu_bytes,
        memory.capacity_bytes,
        device=fmt.device_kind(hw),
        tr=tr,
        reported_gib=memory.capacity_bytes / GiB if memory.basis == "reported" else None,
    ),
    lambda: figs.memory_table(parts, est.usable_memory_per_gpu_bytes, memory.capacity_bytes),
    "memory",
    tr,
    depends=(),
)

expanders.explain_all(tr, lambda: explain.headline(est, tr), "explain.overview")
