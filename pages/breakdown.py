"""TPOT breakdown: the decomposition against batch and against context, and a batch x context heat map."""

from functools import partial

import streamlit as st

from ui import bands, cache, chart, controls, embed, export, fmt, notices
from ui.figures import breakdown as figs

state = controls.scenario_state()
tr = controls.translator()
est = controls.evaluate(state)
realistic = state.profile != "ideal"  # with an engine profile, the ideal bound is drawn beside it
ideal = controls.evaluate(state, profile_id="ideal") if realistic else None
model, hw = est.model, est.hardware
profile_name = controls.profile_label(est.profile, tr)

st.title(tr("breakdown_title"))
st.markdown(
    tr(
        "breakdown_intro",
        model=model.name,
        gpus=fmt.gpus(state.gpus),
        hw=hw.name,
        weights=state.weights,
        kv=state.kv,
        batch=fmt.integer(state.batch),
        context=fmt.tokens(state.context),
        profile=profile_name,
    )
)
notices.scenario_notices(est, tr)
notices.fp4_notice(est, state.weights, state.kv, tr)

title = tr("breakdown_table_title")  # a scenario that does not fit: its decomposition a what-if, said in its title
st.subheader(title if bool(est.fits) else fmt.if_fitted_label(title, tr))
st.markdown(figs.largest_part(est, tr))
# one table for every reader of the scenario (the sidebar's: its language included), as the charts below, sent as
# Arrow; static, as text with each column's decimals: it wraps in a narrow frame (at 900 px a scrolled grid had hidden
# the ideal bound's column behind 'Ideal bo…')
st.table(
    cache.arrow_table(
        f"breakdown-decomposition|{cache.scenario_key(state)}",
        lambda: figs.decomposition_display(figs.decomposition_table(est, ideal, tr)),
    ),
    hide_index=True,
)
if not embed.embedded():  # the grid's own download, kept (the embed view's downloads are the charts', on request)
    about, stamp = controls.export_about(state), export.stamp(lang=tr.lang)
    st.download_button(
        tr("download_csv"),
        data=lambda: export.csv_bytes(figs.decomposition_table(est, ideal, tr), about, stamp),
        file_name=f"{export.file_stem('breakdown-decomposition', about, stamp)}.csv",
        mime="text/csv",
        key="breakdown.decomposition_csv",
        on_click="ignore",
    )

caption = "breakdown_bars_caption" if realistic else "breakdown_bars_caption_ideal"
for axis, x in (
    ("batch", figs.batch_sweep(state.batch)),
    ("context", figs.context_sweep(state.context, model.max_context_tokens)),
):
    if axis == "context":  # a wiki's frame: the numbers, the table and the batch chart; the rest on request
        chart.fold(tr, tr("embed_more_breakdown"))
    sweep = {"batch" if axis == "batch" else "context_tokens": x}
    sweep_est = controls.evaluate(state, **sweep)
    sweep_ideal = controls.evaluate(state, profile_id="ideal", **sweep) if realistic else None
    current = state.batch if axis == "batch" else state.context
    chart.figure(  # the sidebar's scenario alone (the axis in the name): built once, shared by every reader
        partial(figs.sweep_bars, sweep_est, sweep_ideal, x, axis=axis, current=current, tr=tr),
        partial(figs.sweep_data, sweep_est, sweep_ideal, x, axis=axis),
        f"breakdown-{axis}",
        tr,
        depends=(),
    )
    st.caption(tr(caption, profile=profile_name, gpus=fmt.gpus(state.gpus), hw=hw.name))
if realistic:  # what the whiskers' 80% band rests on (the charts' key names it shortly)
    bands.basis_caption(est, tr, profile_name)

st.subheader(tr("breakdown_heatmap_header"))


def metric_option(m: str) -> str:
    return tr(f"breakdown_metric_{m}")


controls.linked_view("breakdown.heatmap_metric", figs.HEATMAP_METRICS, figs.HEATMAP_METRICS[0], tr=tr,
                     label=tr("breakdown_heatmap_metric"), shows=metric_option)  # fmt: skip
metric = st.selectbox(
    tr("breakdown_heatmap_metric"),
    figs.HEATMAP_METRICS,
    format_func=metric_option,
    key="breakdown.heatmap_metric",
)
cost_notice = figs.cost_notice(est, tr) if metric == "usd_per_1M_tokens" else None
if cost_notice:
    st.info(cost_notice, icon="ℹ️")
else:
    hb, hc = figs.heatmap_axes(model.max_context_tokens, state.context)
    grid = controls.evaluate(state, batch=hb[:, None], context_tokens=hc[None, :])
    chart.figure(
        lambda: figs.heatmap(grid, metric, current_batch=state.batch, current_context=state.context, tr=tr),
        lambda: figs.heatmap_data(grid),
        "breakdown-heatmap",
        tr,
        depends=metric,
    )
    if metric == "fits":
        st.caption(
            tr(
                "breakdown_heatmap_caption_fits",
                n_batch=hb.size,
                n_context=hc.size,
                usable=fmt.gb(est.usable_memory_per_gpu_bytes),
            )
        )
    else:
        st.caption(tr("breakdown_heatmap_caption", n_batch=hb.size, n_context=hc.size, profile=profile_name))
    if state.context < figs.HEAT_CONTEXT_MIN:
        st.caption(tr("breakdown_context_note", edge=figs.HEAT_CONTEXT_MIN))
