"""Hardware: memory bandwidth and capacity per chip, the sidebar scenario evaluated on every chip, memory generations."""

import streamlit as st

from ui import cache, chart, controls, expanders, fmt, notices, uploads
from ui.figures import hardware as figs
from ui.state import CUSTOM_ID

state = controls.scenario_state()
tr = controls.translator()
uploaded = uploads.custom("hardware")
catalog = {**cache.hardware(), **({CUSTOM_ID: uploaded} if uploaded is not None else {})}
profile = cache.profiles()[state.profile]
profile_name = controls.profile_label(profile, tr)

st.title(tr("hw_title"))
st.caption(tr("hw_caption"))
vendors = sorted({h.vendor for h in catalog.values()})
chosen = st.multiselect(
    tr("hw_vendors"),
    vendors,
    default=vendors,
    format_func=lambda v: v or tr("hw_vendor_unknown"),
    key="hardware.vendors",
    help=tr("hw_vendors_help"),
    persist_state="session",
)
selected = {i: h for i, h in catalog.items() if h.vendor in chosen}
chips = list(selected.values())

if not chips:
    st.info(tr("hw_none"))
else:
    # (a) bandwidth and capacity
    st.header(tr("hw_specs_header"))
    st.markdown(tr("hw_specs_intro"))
    # the chips' own charts depend on the chips and the language only: built once, not on every slider move
    chips_key = f"{tr.lang}|{','.join(selected)}|{uploads.url_params(state)}"
    specs = cache.built(f"specs|{chips_key}", lambda: figs.specs_table(chips))
    by_year = cache.built(f"by_year|{chips_key}", lambda: figs.bandwidth_by_year(chips, tr=tr))
    chart.figure(by_year, specs, "hardware-bandwidth-by-year", tr, about=None)
    ranking = cache.built(f"ranking|{chips_key}", lambda: figs.bandwidth_ranking(chips, tr=tr))
    chart.figure(ranking, specs, "hardware-bandwidth-ranking", tr, about=None)
    if (box := expanders.lazy_expander(tr("hw_specs_table"), "hardware.specs_open")) is not None:
        labels = figs.specs_table_labels(tr=tr)
        box.dataframe(specs[list(labels)].rename(columns=labels), hide_index=True)

    # (b) the scenario on every chip: one ideal and one profile estimate per chip (scalars, no sweeps)
    st.header(tr("hw_tpot_header"))
    show_profile = state.profile != "ideal"
    pairs = []
    for hw_id in selected:
        chip_state = state.with_(hardware=hw_id, price=state.price if hw_id == state.hardware else None)
        ideal = controls.evaluate(chip_state, profile_id="ideal")
        pairs.append((ideal, controls.evaluate(chip_state) if show_profile else ideal))
    st.markdown(
        tr(
            "hw_tpot_intro" if show_profile else "hw_tpot_intro_ideal",
            model=cache.models()[state.model].name,
            weights=state.weights,
            kv=state.kv,
            batch=state.batch,
            context=fmt.tokens(state.context),
            output=fmt.tokens(state.output),
            gpus=state.gpus,
            profile=profile_name,
        )
    )
    table = figs.tpot_table(pairs)
    log_x = st.toggle(tr("hw_log_x"), key="hardware.log_x", persist_state="session")
    fig = figs.tpot_by_hardware(pairs, show_profile=show_profile, log_x=log_x, tr=tr)
    chart.figure(fig, table, "hardware-tpot", tr)
    st.caption(tr("hw_tpot_note", hw=catalog[state.hardware].name, profile=profile_name))
    st.dataframe(figs.tpot_display_table(table, show_profile=show_profile, tr=tr), hide_index=True, placeholder="—")
    notices.basis_caption({est.hardware.name: est.price for _, est in pairs}, tr)
    st.caption(tr("hw_table_caption", profile=profile_name, gpus=state.gpus))

    # (c) memory generations
    st.header(tr("hw_gen_header"))
    st.markdown(tr("hw_gen_intro"))
    generations = cache.built(
        f"generations|{chips_key}",
        lambda: (
            figs.bandwidth_frontier(chips, tr=tr),
            figs.frontier_table(chips),
            figs.generation_table(chips, tr=tr),
        ),
    )
    chart.figure(generations[0], generations[1], "hardware-bandwidth-frontier", tr, about=None)
    st.dataframe(generations[2], hide_index=True)
