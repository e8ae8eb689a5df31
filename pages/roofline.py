"""Roofline: the decode step, prefill and each decode operator against the chip's bandwidth and compute ceilings."""

import streamlit as st

from ui import cache, chart, controls, embed, expanders, export, fmt, metrics, notices
from ui.explain import Explanation
from ui.figures import roofline as figs

state = controls.scenario_state()
tr = controls.translator()
est = controls.evaluate(state)
hw, hardware = est.hardware, cache.hardware()
tr = fmt.device_tr(hw, tr)  # 'per chip', not 'per GPU', for a TPU or Trainium
profile_name = controls.profile_label(est.profile, tr)

st.title(tr("roofline_title"))
st.markdown(
    tr(
        "roofline_intro",
        model=est.model.name,
        gpus=fmt.gpus(state.gpus),
        hw=hw.name,
        weights=state.weights,
        precision=est.compute_precision,
        batch=fmt.integer(state.batch),
        context=fmt.tokens(state.context),
        output=fmt.tokens(state.output),
    )
)
notices.scenario_notices(est, tr)
notices.fp4_notice(est, state.weights, state.kv, tr)

with metrics.Row() as row:
    ai, ridge = float(est.arithmetic_intensity_flop_per_byte), est.ridge_point_flop_per_byte
    # the decode step's figures greyed 'if it fitted' where the scenario does not fit (as Overview's); the ridge is
    # the chip's own
    row.metric(
        tr("roofline_m_intensity"), **notices.if_fitted(est, tr, fmt.number(ai), help=tr("roofline_m_intensity_def"))
    )
    row.metric(
        tr("roofline_m_ridge", precision=est.compute_precision), fmt.number(ridge), help=tr("roofline_m_ridge_def")
    )
    row.metric(
        tr("roofline_m_mbu"),
        **notices.if_fitted(est, tr, fmt.utilisation(float(est.mbu)), help=tr("roofline_m_mbu_def")),
    )
    row.metric(
        tr("roofline_m_mfu"),
        **notices.if_fitted(est, tr, fmt.utilisation(float(est.mfu)), help=tr("roofline_m_mfu_def")),
    )


def overlay_option(hid: str) -> str:
    return hardware[hid].name


overlay_ids = controls.linked_view("roofline.overlay", list(hardware), [], tr=tr, label=tr("roofline_overlay"),
                                   shows=overlay_option)  # fmt: skip
with controls.page_controls(tr):  # in the embed view in the page's closed settings: the chart higher in the frame
    overlay_ids = st.multiselect(
        tr("roofline_overlay"),
        list(hardware),
        format_func=overlay_option,
        key="roofline.overlay",
        placeholder=tr("roofline_overlay_placeholder"),
        help=tr("roofline_overlay_help"),
    )
overlay = [hardware[i] for i in overlay_ids]
chart.figure(
    lambda: figs.roofline(est, overlay=overlay, profile_name=profile_name, tr=tr),
    lambda: figs.roofline_data(est, overlay),
    "roofline",
    tr,
    depends=overlay_ids,
)
skipped = figs.skipped_operators(est)
notes = [tr("roofline_caption")]
if skipped:
    notes.append(tr("roofline_skipped", ops=", ".join(figs.operator_label(n, tr) for n in skipped)))
st.caption("  \n".join(notes))  # one element, a line each
st.markdown(figs.intensity_note(est, tr, profile_name))

# the operator table: in the embed view a closed section (sent once opened: a wiki frame shows the chart, and fifty
# readers do not each pay for a table below it), else under its heading
if embed.embedded():
    table_box = expanders.lazy_expander(tr("roofline_table_title"), "roofline.table_open")
else:
    st.subheader(tr("roofline_table_title"))
    table_box = st.container()
if table_box is not None:
    # static: it wraps in a narrow frame (a scrolled grid had hidden its last four columns at 900 px); built and sent
    # once per server for the sidebar's scenario (its language and the chip's device word included)
    with table_box:
        cache.replayed_table(f"roofline-operators|{cache.scenario_key(state)}", lambda: figs.operator_display(est, tr))
        # each operator's bound (no room for a column at 900 px), and what its KV column counts beside the cache's
        # size elsewhere
        st.caption(tr.sentences([figs.bound_note(est, tr), figs.kv_basis_note(est, tr)]))
        about, stamp = controls.export_about(state), export.stamp(lang=tr.lang)  # the grid's own download, kept
        st.download_button(
            tr("download_csv"),
            data=lambda: export.csv_bytes(figs.operator_table(est, tr), about, stamp),
            file_name=f"{export.file_stem('roofline-operators', about, stamp)}.csv",
            mime="text/csv",
            key="roofline.operators_csv",
            on_click="ignore",
        )

peak = hw.dense_flop_per_s[est.compute_precision]
expanders.explain_all(  # one element while closed, for both numbers
    tr,
    lambda: [
        Explanation(
            "roofline_m_ridge",
            tr("roofline_formula_ridge"),
            f"{fmt.tflops(peak)} ÷ {fmt.tb_per_s(hw.memory_bandwidth_bytes_per_s)}",
            f"{fmt.number(ridge)} FLOP/byte",
            {"precision": est.compute_precision},
        ),
        Explanation(
            "roofline_m_intensity",
            tr("roofline_formula_intensity"),
            f"{fmt.flop(float(est.decode.flops))} ÷ {fmt.nbytes(float(est.decode.bytes))}",
            f"{fmt.number(ai)} FLOP/byte",
        ),
    ],
    "explain.roofline",
)
