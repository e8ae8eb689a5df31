"""Cost & energy: $ per output token, tokens per $ and per joule, against batch and context; the throughput-latency
frontier against a TPOT target; a live batch × context heat map."""

import math
from dataclasses import replace

import numpy as np
import streamlit as st

from tpot_model.targets import TPOT_TARGETS_S
from ui import bands, cache, chart, controls, expanders, fmt, metrics, notices
from ui.figures import cost as figs
from ui.figures.common import band_label, hardware_colour

state = controls.scenario_state()
tr = controls.translator()
est = controls.evaluate(state)
model, hw = est.model, est.hardware
tr = fmt.device_tr(hw, tr)  # 'per chip-hour', 'chips' for a TPU or Trainium
price_known = math.isfinite(est.price_usd_per_gpu_hour) and est.price_usd_per_gpu_hour > 0  # $0: nothing to chart
power_w = figs.board_power_w(hw.tdp_w, state.gpus)
energy_known = math.isfinite(power_w)
colour = hardware_colour(hw.id)
context = fmt.tokens(state.context)
output_words = dict(output_tokens=fmt.counted("n_output_tokens", state.output, tr),
                    # N output tokens take N - 1 decode steps: the first comes from the prefill (it had said 1 at N = 1)
                    decode_steps=fmt.counted("n_decode_steps", state.output - 1, tr) if state.output > 1
                    else tr("n_decode_steps_none"))  # fmt: skip

st.title(tr("page_cost"))
scenario_text = dict(model=model.name, gpus=fmt.gpus(state.gpus), hw=hw.name, weights=state.weights, batch=fmt.integer(state.batch),
                     context=context, output_tokens=output_words["output_tokens"])  # fmt: skip
st.markdown(tr("ce_intro", **scenario_text))
if est.price_usd_per_gpu_hour == 0:
    st.info(tr("ce_zero_price", hw=hw.name), icon=":material/sell:")
# the price once, in one caption as Overview's: its basis and date (or its absence) and tokens/s per MW, then what
# the band rests on
notices.cost_line(est, tr, also=bands.basis_text(est, tr, controls.profile_label(est.profile, tr)))
if not energy_known:
    st.info(tr("ce_no_power", hw=hw.name))
notices.scenario_notices(est, tr)
notices.fp4_notice(est, state.weights, state.kv, tr)

usd_1m = float(est.usd_per_1M_tokens)
devices = fmt.devices(hw, state.gpus, tr)  # "8 GPUs", "8 chips" for TPUs and Trainium
device = fmt.device_kind(hw)  # the word of titles and axes: "per GPU", "per chip"
# one output token: it is the prefill's and no decode step runs, so the headline figures count the prefill's time
# (as Overview's $ does), the decode step a second token would take in their help (its $1.69 had headed the row)
one = state.output == 1
if one:
    st.info(tr("ce_one_token"), icon=":material/looks_one:")
usd_headline = float(est.usd_per_1M_tokens_with_prefill) if one else usd_1m
tps_gpu = float(est.output_tokens_per_s_per_gpu if one else est.tokens_per_s_per_gpu)
j_token = float(est.joules_per_token_with_prefill if one else est.joules_per_token)
with metrics.Row() as row:
    if price_known and not one:
        row.metric(
            tr("ce_m_usd_1m"),
            **notices.if_fitted(
                est,
                tr,
                fmt.usd(usd_1m),
                help=fmt.device_text("ce_m_usd_1m_def", device, tr),
                **bands.metric_band(est, tr, "usd"),
            ),
        )
    if price_known:
        prefill_help = fmt.device_text("ce_m_usd_prefill_def", device, tr, context=context, **output_words)
        if one:
            prefill_help = tr("sentences", a=prefill_help, b=tr("ce_m_decode_step_usd", decode=fmt.usd(usd_1m)))
        row.metric(
            tr("ce_m_usd_prefill"),
            **notices.if_fitted(est, tr, fmt.usd(float(est.usd_per_1M_tokens_with_prefill)), help=prefill_help),
        )
        row.metric(
            tr("ce_m_usd_1k"),
            **notices.if_fitted(
                est,
                tr,
                fmt.usd(float(figs.cost_in(usd_headline, "usd_1k"))),
                help=tr("ce_m_usd_1k_def_one" if one else "ce_m_usd_1k_def"),
            ),
        )
        row.metric(
            tr("ce_m_tokens_per_usd"),
            **notices.if_fitted(
                est,
                tr,
                fmt.large(float(figs.cost_in(usd_headline, "tokens_per_usd"))),
                help=tr("ce_m_tokens_per_usd_def_one" if one else "ce_m_tokens_per_usd_def"),
            ),
        )
    row.metric(  # one output token is the prefill's: no decode step to name
        fmt.device_text("ce_m_tps_gpu_one" if one else "ce_m_tps_gpu", device, tr),
        **notices.if_fitted(
            est,
            tr,
            fmt.rate(tps_gpu),
            help=fmt.device_text(
                "ce_m_tps_gpu_def_one" if one else "ce_m_tps_gpu_def",
                device,
                tr,
                total=fmt.rate(float(est.tokens_per_s_total)),
                user=fmt.rate(float(est.tokens_per_s_per_user)),
                decode=fmt.rate(float(est.tokens_per_s_per_gpu)),  # one output token: a second token's step
            ),
        ),
    )
    if energy_known:
        tdp = fmt.board_power(hw, tr)  # '1,000 W (estimate)' where the TDP is one (Trainium3's): so is all below
        estimated = tr("tdp_estimate_note") if hw.estimated("tdp_W") else None
        row.metric(
            tr("ce_m_j"),
            **metrics.noted(
                notices.if_fitted(
                    est,
                    tr,
                    f"{fmt.number(j_token)} J",
                    help=tr(
                        "ce_m_j_def_one" if one else "ce_m_j_def",
                        tdp=tdp,
                        gpus=fmt.gpus(state.gpus),
                        devices=devices,
                        decode=fmt.joules(float(est.joules_per_token), hw, tr),
                    ),
                ),
                estimated,
            ),
        )
        row.metric(
            tr("ce_m_tokens_per_j"),
            **metrics.noted(
                notices.if_fitted(est, tr, f"{fmt.number(1.0 / j_token)} tok/J", help=tr("ce_m_tokens_per_j_def")),
                estimated,
            ),
        )
        row.metric(
            tr("ce_m_power", devices=fmt.devices(est.hardware, state.gpus, tr)),
            **metrics.noted({"value": f"{fmt.number(power_w)} W"}, estimated),
            help=tr("ce_m_power_def", devices=devices, tdp=tdp),
        )
if price_known:
    expanders.explain(
        tr,
        "ce_m_usd_1m",
        tr("ce_formula_usd_1m"),
        tr(
            "ce_formula_usd_1m_values",
            price=fmt.usd(est.price_usd_per_gpu_hour),
            gpus=fmt.gpus(state.gpus),
            tpot=f"{float(est.tpot_s):.4g}",
            batch=fmt.integer(state.batch),
        ),
        fmt.usd(usd_1m),
    )

# --- sweeps: one vectorised model call over the batch values (always: the frontier uses it) or the contexts
batches = figs.batch_grid(state.batch)
by_batch = controls.evaluate(state, batch=batches)


def sweep_option(v: str) -> str:
    return tr(f"ce_sweep_{v}")


def unit_option(v: str) -> str:
    return tr(f"ce_unit_{v}")


# the chart's own inputs: on the page; in the embed view in a closed section above the chart, sent once opened
controls.linked_view("cost.sweep", figs.SWEEPS, figs.SWEEPS[0], tr=tr, label=tr("ce_sweep"), shows=sweep_option)
controls.linked_view("cost.cost_unit", figs.COST_UNITS, figs.COST_UNITS[0], tr=tr, label=tr("ce_unit"),
                     shows=unit_option)  # fmt: skip
if (controls_box := controls.page_controls(tr, lazy=True)) is not None:
    with controls_box:
        c = st.columns([1, 2])
        c[0].radio(tr("ce_sweep"), figs.SWEEPS, format_func=sweep_option, key="cost.sweep",
                   horizontal=True, persist_state="session")  # fmt: skip
        if price_known:
            c[1].radio(tr("ce_unit"), figs.COST_UNITS, format_func=unit_option, key="cost.cost_unit",
                       horizontal=True, persist_state="session")  # fmt: skip
sweep, unit = st.session_state["cost.sweep"], st.session_state["cost.cost_unit"]
if sweep == "batch":
    x, run, scenario_x = batches, by_batch, state.batch
else:
    x = figs.context_grid(model.max_context_tokens, state.context)
    run, scenario_x = controls.evaluate(state, context_tokens=x), max(state.context, figs.MIN_SWEEP_CONTEXT)
if price_known:
    chart.figure(
        lambda: figs.cost_curve(
            x,
            run.usd_per_1M_tokens,
            run.usd_per_1M_tokens_with_prefill,
            run.fits,
            scenario_x,
            sweep=sweep,
            unit=unit,
            band_low=run.usd_per_1M_tokens_low,
            band_high=run.usd_per_1M_tokens_high,
            band_name=band_label(run.band, tr),
            tr=tr,
        ),  # fmt: skip
        lambda: figs.cost_table(x, run.usd_per_1M_tokens, run.usd_per_1M_tokens_with_prefill, run.fits, sweep=sweep),
        f"cost-by-{sweep}",
        tr,
        depends=unit,  # besides the scenario (and the sweep, in the name): built once, shared by every session
    )
    st.caption(fmt.device_text("ce_cost_caption", device, tr, context=context, **output_words))
    chart.fold(tr, tr("embed_more_cost"))  # a wiki's frame: the numbers and the cost chart; the rest on request

left, right = st.columns(2)
with left:
    chart.figure(
        lambda: figs.throughput_curve(
            x,
            run.tokens_per_s_per_gpu,
            run.tokens_per_s_per_user,
            run.fits,
            scenario_x,
            sweep=sweep,
            colour=colour,
            band_low=run.tokens_per_s_per_gpu * run.throughput_band_factors[0],  # the band of the plotted line
            band_high=run.tokens_per_s_per_gpu * run.throughput_band_factors[1],
            band_name=band_label(run.band, tr),
            device=device,
            tr=tr,
        ),  # fmt: skip
        lambda: figs.throughput_table(x, run.tokens_per_s_per_gpu, run.tokens_per_s_per_user, run.fits, sweep=sweep),
        f"throughput-by-{sweep}",
        tr,
        depends=(),
    )
if energy_known:
    with right:
        chart.figure(
            lambda: figs.energy_curve(
                x, run.joules_per_token, run.fits, scenario_x, sweep=sweep, tr=tr, estimated=hw.estimated("tdp_W")
            ),  # fmt: skip
            lambda: figs.energy_table(x, run.joules_per_token, run.fits, sweep=sweep, estimated=hw.estimated("tdp_W")),
            f"energy-by-{sweep}",
            tr,
            depends=(),
        )
    st.caption(fmt.device_text("ce_energy_caption", device, tr, tdp=fmt.board_power(hw, tr), devices=devices))

if not price_known:
    chart.fold(tr, tr("embed_more_cost_frontier"))

# --- frontier


def target_option(k: str) -> str:
    return tr("target_with_user", label=tr(f"target_{k}"), user=f"{1 / TPOT_TARGETS_S[k]:.3g}")


# one orientation for throughput-latency curves (InferenceX's): no axes choice; the page's width for the target (in a
# half-width column a 900 px page cut its option: '聊天 50 ms（每位使用者 2(')
controls.linked_view("cost.target", list(TPOT_TARGETS_S), "chat", tr=tr, label=tr("ce_target"), shows=target_option)
target = st.selectbox(
    tr("ce_target"),
    list(TPOT_TARGETS_S),
    format_func=target_option,
    key="cost.target",
)
target_s = TPOT_TARGETS_S[target]  # the chart's axis is tokens/s per user: the label gives that form too
target_label = tr("target_with_user", label=tr(f"target_{target}"), user=f"{1 / target_s:.3g}")
# the best batch is the Serving planner's, searched over every batch: the curve's points plus that batch (so that the
# chart's star, the sentence below and the planner agree)
point = cache.planner_frontier(
    cache.scenario_key(state, "batch", "lang"), model, hw, est.scenario, est.profile, target_s
)
fb = np.union1d(batches, [point.batch]) if point.feasible else batches
by_fb = by_batch if fb.size == batches.size else controls.evaluate(state, batch=fb)
chart.figure(
    lambda: figs.frontier(
        fb,
        by_fb.tpot_s,
        by_fb.tokens_per_s_per_gpu,
        by_fb.fits,
        target_s,
        target_label,
        state.batch,
        colour=colour,
        device=device,
        tr=tr,
    ),  # fmt: skip
    lambda: figs.frontier_table(fb, by_fb.tpot_s, by_fb.tokens_per_s_per_gpu, by_fb.fits, target_s),
    "frontier",
    tr,
    depends=target,
)
best = figs.best_batch_index(by_fb.tpot_s, by_fb.tokens_per_s_per_gpu, by_fb.fits, target_s)
if best is None:  # nothing fits at all: the does-not-fit notice above says what would (not 'a lower precision')
    st.markdown(tr("ce_best_text_none" if by_fb.fits.any() else "ce_best_text_no_fit", target=target_label))
else:
    cost = tr("ce_best_cost", usd=fmt.usd(float(by_fb.usd_per_1M_tokens[best]))) if price_known else ""
    st.markdown(
        fmt.device_text(
            "ce_best_text",
            device,
            tr,
            target=target_label,
            b=int(fb[best]),
            tps=fmt.rate(float(by_fb.tokens_per_s_per_gpu[best])),
            tpot=fmt.ms(float(by_fb.tpot_s[best]), tr=tr),
            cost=cost,
        )
        + (tr("ce_best_memory") if point.feasible and point.limited_by == "memory" else "")
    )
if best is not None:  # this curve is one static batch: the same target as a server runs it (the Serving frontier's)
    served = cache.planner_frontier(
        cache.scenario_key(state, "batch", "lang"),
        model,
        hw,
        replace(est.scenario, batching="continuous"),
        est.profile,
        target_s,
    )
    notices.served_basis(served, target_s, tr, price_known)  # beside the static figure, before the curve's key
st.caption(fmt.device_text("ce_frontier_caption", device, tr))

# --- heat map: one call over batch × context
metrics = [m for m in figs.HEAT_METRICS if (m != "usd_1m" or price_known) and (m != "j_per_token" or energy_known)]


def heat_option(m: str) -> str:
    return fmt.device_text(f"ce_heat_{m}", device, tr)


controls.linked_view("cost.heatmap_metric", metrics, metrics[0], tr=tr, label=tr("ce_heat_metric"), shows=heat_option)
metric = st.selectbox(
    tr("ce_heat_metric"),
    metrics,
    format_func=heat_option,
    key="cost.heatmap_metric",
)
hb, hc = figs.heat_batches(), figs.heat_contexts(model.max_context_tokens, state.context)
grid = controls.evaluate(state, batch=hb[:, None], context_tokens=hc[None, :])
values = {"usd_1m": grid.usd_per_1M_tokens, "tps_gpu": grid.tokens_per_s_per_gpu, "j_per_token": grid.joules_per_token}
chart.figure(
    lambda: figs.heatmap(
        hb,
        hc,
        values[metric],
        grid.fits,
        metric,
        state.batch,
        state.context,
        device=device,
        tr=tr,
        estimated=metric == "j_per_token" and hw.estimated("tdp_W"),
    ),  # fmt: skip
    lambda: figs.heatmap_table(
        hb, hc, values[metric], grid.fits, metric, estimated=metric == "j_per_token" and hw.estimated("tdp_W")
    ),  # fmt: skip
    "cost-heatmap",
    tr,
    depends=metric,
)
st.caption(tr("ce_heat_caption", nb=len(hb), nc=len(hc)))
