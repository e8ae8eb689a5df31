"""Methodology: every formula of the model with this scenario's numbers substituted, definitions, common misreadings,
where the catalog data comes from, public reference points beside this tool's live numbers, and the model's limits."""

import numpy as np
import streamlit as st

from ui import cache, chart, controls, expanders, fmt, notices
from ui.figures import methodology as figs

state = controls.scenario_state()
tr = controls.translator()
est = controls.evaluate(state)
pair = controls.evaluate(state, batch=np.array([1.0, float(state.batch)]))  # batch 1 against this batch, one call
profile = controls.profile_label(est.profile, tr)
refs = figs.reference_points()
textbook = [
    controls.evaluate(state.with_(**refs["textbook"]["scenario"], hardware=p["hardware"]), profile_id="ideal")
    for p in refs["textbook"]["points"]
]  # one case on four chips: hardware is not an array axis of the model
measured = [controls.evaluate(state.with_(**p["scenario"])) for p in refs["measured"]]


def render(blocks: list[figs.Block]) -> None:
    """Headings and captions as such; each run of paragraphs and formulas as one markdown element (fewer elements
    for the browser to draw; a formula is display math, as st.latex draws it)."""
    run: list[str] = []
    for kind, text in [*blocks, ("end", "")]:
        if kind in ("md", "latex"):
            run.append(text if kind == "md" else f"$$\n{text}\n$$")
            continue
        if run:
            st.markdown("\n\n".join(run))
            run = []
        if kind != "end":
            {"h": st.subheader, "caption": st.caption}[kind](text)


# Streamlit clips display math vertically (overflow-y hidden): a fraction's numerator lost its top ('F' read as 'F'')
st.html("<style>.katex-display{padding:0.5em 0}</style>")
st.title(tr("page_methodology"))
st.caption(tr("meth_caption"))
st.markdown(controls.scenario_intro(est, state, tr))
notices.scenario_notices(est, tr)
notices.fp4_notice(est, state.weights, state.kv, tr)

# the formulas with the sidebar's scenario substituted (its language included): worked out once per server for it,
# shared by every reader, as the chart between them
before, after = cache.built(
    f"methodology-blocks|{cache.scenario_key(state)}",
    lambda: (
        [figs.memory_blocks(est, tr), figs.roofline_blocks(est, tr, profile)],
        [figs.step_blocks(est, tr), figs.prefill_blocks(est, tr), figs.moe_blocks(est, tr),
         figs.intensity_blocks(est, tr), figs.cost_blocks(est, tr), figs.definition_blocks(est, tr),
         figs.misreading_blocks(est, pair, tr), figs.source_blocks(est, tr, profile)],
    ),
)  # fmt: skip
for blocks in before:
    render(blocks)
chart.figure(
    lambda: figs.operator_times(est, tr=tr), lambda: figs.operator_data(est), "methodology-operators", tr, depends=()
)
if (box := expanders.lazy_expander(tr("meth_operator_table"), "methodology.operators_open")) is not None:
    box.dataframe(figs.operator_display(figs.operator_data(est), tr), hide_index=True, width="stretch")
chart.fold(tr, tr("embed_more_methodology"))  # a wiki's frame: memory, the roofline and its chart first
for blocks in after:
    render(blocks)

st.subheader(tr("meth_h_reference"))
st.info(tr("meth_ref_outside"), icon="ℹ️")
st.markdown(tr("meth_ref_textbook", sources="; ".join(refs["textbook"]["source"])))
# static tables (their cells wrap): measured beside modelled in a 900 px frame, not scrolled past its edge
st.table(figs.display(figs.textbook_data(refs, textbook), tr), hide_index=True)
st.caption(tr("meth_ref_textbook_note"))
st.markdown(tr("meth_ref_measured", profile=profile))
st.table(figs.display(figs.measured_data(refs, measured, tr), tr), hide_index=True)
st.markdown(figs.measured_notes(refs, tr))
st.markdown(tr("meth_ref_collectives", profile=profile))
collectives = refs["collectives"]
st.table(
    figs.display(
        figs.collective_data(refs, cache.hardware(), cache.models(), est.profile),
        tr,
        measured_on=collectives["hardware_label"],
        modelled_on=fmt.chip(cache.hardware()[collectives["hardware"]], tr, short=True),
    ),
    hide_index=True,
)
st.caption(tr("meth_ref_collectives_note", source=refs["collectives"]["source"]))
st.markdown(tr("meth_ref_phases"))
cache.replayed_table(  # the same for every scenario (each point names its own): built once per language
    f"methodology-phases|{tr.lang}",
    lambda: figs.display(figs.phase_data(refs, cache.hardware(), cache.models(), cache.profiles(), tr), tr).hide(),
)
st.caption(tr("meth_ref_phases_note", sources="; ".join(dict.fromkeys(p["source"] for p in refs["phases"]))))

render(figs.limit_blocks(tr))
