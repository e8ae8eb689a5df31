"""Serving planner: the cheapest way to serve the sidebar's model at a latency target (the SLO frontier), across
hardware x precision, GPU count, speculative decoding, capacity and the optimisation levers. The page's own inputs
travel in the URL: planner_target_ms, planner_ttft_ms, spec_k, spec_accept, prefix_hit, planner_section,
planner_max_gpus, planner_serving (the GPU-count tab's layout search: tpot_model.layouts, the one the CLI's
`frontier --max-gpus` runs), planner_chips (the hardware x precision grid's). Only the open tab's section is computed
and drawn."""

import functools
import math
from dataclasses import replace

import streamlit as st

from tpot_model import economics, frontier_check, planner, speculative
from tpot_model import layouts as layout_search
from tpot_model.estimate import native_formats, usable_memory
from tpot_model.roofline import head_split_alternatives, scale_up_domain_gpus
from ui import cache, chart, controls, embed, expanders, fmt, metrics, notices, page_state
from ui.figures import planner as figs
from ui.figures import rack_scale as rack_figs

state = controls.scenario_state()
tr = controls.translator()
model, hw, profile = controls.resolve(state)
tr = fmt.device_tr(hw, tr)  # 'chips', not 'GPUs', for a TPU or Trainium
scenario = native_formats(state.to_scenario(), hw)  # bare fp4: the chip's block format, as the estimate takes it
est = controls.evaluate(state)
catalog_models, catalog_hw = cache.models(), cache.hardware()
INIT, NOTICES = "_planner_initialised", "_planner_notices"
SECTION, SECTION_ID = "planner.section", "planner.section_id"  # the open tab: its label (widget), its id (URL)
BUDGET, BUDGET_FOR = "planner.max_gpus", "_planner_budget_default"  # the layout search's GPU budget; the default set
CHIPS, CHIPS_FOR = "planner.chips", "_planner_chips_default"  # the hardware x precision grid's chips; the default set
# the default budget: the chip's scale-up domain, or the sidebar's GPUs where they are more (a GB10 or a Mac is a
# domain of one: on 2 of them the search had looked within 1 and found nothing)
domain_budget = min(max(scale_up_domain_gpus(hw), int(state.gpus)), figs.MAX_BUDGET)
default_chips = figs.default_table_chips(hw.id, catalog_hw)  # the grid's chips unless chosen: the set, the sidebar's

# The page's inputs: from the URL on the session's first visit, then kept in the widgets' (persisted) state.
if not st.session_state.get(INIT):
    inputs, bad_params = page_state.parse_planner_query(st.query_params.to_dict(), domain_budget, catalog_hw)
    st.session_state.update(
        {
            "planner.target": inputs.target,
            "planner.custom_ms": inputs.custom_ms,
            "planner.ttft_ms": inputs.ttft_ms,
            "planner.k": inputs.k,
            "planner.accept": inputs.acceptance,
            "planner.prefix_hit": inputs.prefix_hit,
            SECTION_ID: inputs.section,
            BUDGET: inputs.max_gpus or domain_budget,
            BUDGET_FOR: domain_budget,
            "planner.serving": inputs.serving,
            "planner.request_ttft_ms": inputs.request_ttft_ms,
            "planner.best_engine": inputs.best_engine,
            CHIPS: list(inputs.chips or default_chips),
            CHIPS_FOR: default_chips,
            NOTICES: bad_params,
            INIT: True,
        }
    )
# The budget follows the chip's scale-up domain (8 on HGX, 72 on NVL72) until changed here.
if st.session_state.get(BUDGET_FOR) != domain_budget:
    if st.session_state.get(BUDGET) == st.session_state.get(BUDGET_FOR):
        st.session_state[BUDGET] = domain_budget
    st.session_state[BUDGET_FOR] = domain_budget
# The grid's chips follow the sidebar's chip (the default set and it) until chosen here.
if st.session_state.get(CHIPS_FOR) != default_chips:
    if tuple(st.session_state.get(CHIPS, ())) == st.session_state.get(CHIPS_FOR):
        st.session_state[CHIPS] = list(default_chips)
    st.session_state[CHIPS_FOR] = default_chips
drafts = [m.id for m in planner.draft_candidates(model, catalog_models)]
draft_options = [*drafts, "mtp"]
if st.session_state.get("planner.draft") not in draft_options:  # a new model: its own family's smallest, or MTP
    st.session_state["planner.draft"] = draft_options[0]
for key, default in (
    ("planner.table_gpus", "cheapest"),
    ("planner.mtp_cost", 0.05),
    ("planner.mix", 0),
    ("planner.levers_view", "target"),
):
    st.session_state.setdefault(key, default)


def link_labels() -> dict[str, notices.Shown]:
    """The page's controls as its link's notices name them: label and how each shows a value."""
    shown = notices.Shown
    return {
        "planner_target_ms": shown(tr("pl_target"), lambda ms: fmt.target_ms(float(ms) / 1e3)),
        "planner_ttft_ms": shown(tr("pl_ttft_ms")),
        "spec_k": shown(tr("pl_spec_k_label")),
        "spec_accept": shown(tr("pl_spec_accept")),
        "prefix_hit": shown(tr("pl_prefix_hit")),
        "planner_section": shown(tr("pl_section"), lambda sid: tr(f"pl_tab_{sid}")),
        "planner_max_gpus": shown(tr("pl_budget")),
        "planner_serving": shown(tr("pl_serving"), lambda v: tr(f"pl_serving_{v}")),
        "planner_request_ttft_ms": shown(tr("pl_request_ttft")),
        "planner_best_engine": shown(tr("pl_best_engine")),
        "planner_chips": shown(
            tr("pl_chips"), chip_option, items=True, default=tr.join(map(chip_option, default_chips))
        ),
    }


def chip_option(hid: str) -> str:
    """A catalog chip as the grid's multiselect shows it: its short name, marked "(announced)" on one not shipping."""
    return fmt.chip(catalog_hw[hid], tr, short=True)


def chips_param(chosen) -> tuple[str, ...] | None:
    """The grid's chips as a link carries them: None at the default set (or none chosen, which shows it)."""
    chosen = tuple(chosen or ())
    return None if not chosen or chosen == default_chips else chosen


st.title(tr("page_planner"))
st.caption(tr("pl_caption"))
notices.url_notices(st.session_state[NOTICES], tr, link_labels)

if (
    controls_box := controls.page_controls(tr, lazy=True)
) is not None:  # in the embed view, collapsed: the charts first
    with controls_box:
        c1, c2, c3 = st.columns([2, 1, 1], vertical_alignment="bottom")  # inputs in line under wrapped labels
        c1.selectbox(
            tr("pl_target"),
            figs.TARGET_OPTIONS,
            key="planner.target",
            format_func=lambda k: tr("pl_target_custom") if k == figs.CUSTOM else tr(f"target_{k}"),
            help=tr("pl_target_help"),
            persist_state="session",
        )
        c2.number_input(
            tr("pl_custom_ms"),
            min_value=figs.MIN_TARGET_MS,
            max_value=figs.MAX_TARGET_MS,
            step=5.0,
            format="%.1f",
            key="planner.custom_ms",
            disabled=st.session_state["planner.target"] != figs.CUSTOM,
            persist_state="session",
        )
        c3.number_input(
            tr("pl_ttft_ms"),
            min_value=0.0,
            max_value=figs.MAX_TTFT_MS,
            step=100.0,
            format="%.0f",
            key="planner.ttft_ms",
            help=tr("pl_ttft_help"),
            persist_state="session",
        )

target_ms = figs.target_ms(st.session_state["planner.target"], st.session_state["planner.custom_ms"])
ttft_ms = st.session_state["planner.ttft_ms"]
target_s = target_ms / 1e3
target_about = {"scenario_tpot_target_ms": target_ms}  # every chart at the target says it (caption, CSV, file name)
ttft_s = ttft_ms / 1e3 if ttft_ms > 0 else None
st.markdown(
    tr(
        "pl_scenario",
        model=model.name,
        gpus=fmt.gpus(state.gpus),
        hw=hw.name,
        weights=state.weights,
        kv=state.kv,
        context=fmt.tokens(state.context),
        output_tokens=fmt.counted("n_output_tokens", state.output, tr),
        target=fmt.target(target_s, tr),
        ttft=tr("pl_ttft_part", ttft=fmt.duration(ttft_s, tr=tr)) if ttft_s else "",
    )
)

# ------------------------------------------------------------------------------------------------ the frontier
notices.scenario_notices(est, tr)
notices.fp4_notice(est, state.weights, state.kv, tr)
st.header(tr("pl_frontier_h"))
frontier_key = cache.scenario_key(state, "batch", "lang")  # the search covers every batch
point = cache.planner_frontier(frontier_key, model, hw, scenario, profile, target_s, ttft_s)
price_known = math.isfinite(est.price_usd_per_gpu_hour)  # the chip's price (no point: '—', for another reason)
no_price = "" if price_known else fmt.no_price_text(est.price, hw, tr)  # a $ metric's help: the bases that price it
unpriced = fmt.no_price_short(est.price, fmt.device_tr(hw, tr))  # its note: none published, or yours to enter
st.markdown(tr("static_row_note"))
with metrics.Row() as row:
    ok = point.feasible  # no batch meets the target: a dash for each number (not 'n/a' beside '—')
    row.metric(tr("pl_m_batch"), fmt.integer(point.batch) if ok else "—", help=tr("pl_m_batch_def"))
    row.metric(
        tr("pl_m_tpot"),
        fmt.ms(point.tpot_s, tr=tr) if ok else "—",
        help=tr("pl_m_tpot_def", target=fmt.target_ms(target_s)),
    )
    row.metric(
        tr("pl_m_tps_gpu"),
        fmt.rate(point.tokens_per_s_per_gpu) if ok else "—",
        help=tr("pl_m_tps_gpu_def", total=fmt.rate(point.tokens_per_s_total), devices=fmt.devices(hw, state.gpus, tr))
        if ok else tr("pl_m_no_point"),
    )  # fmt: skip
    row.metric(  # no point meets the target: '—' and why (it had blamed a missing price beside the price shown)
        tr("pl_m_cost"),
        **metrics.dollars(point.usd_per_1M_tokens if price_known else math.nan, reached=ok,
                          unpriced=unpriced),
        help=tr("pl_m_no_point") if not ok else tr("pl_m_cost_def") if price_known else no_price,
    )  # fmt: skip
reason = dict(
    batch=point.batch,
    next=point.batch + 1,
    target=fmt.target_ms(target_s),  # '50 ms' as set, on one line, here and in the GPU-count tab
    ttft=fmt.unbroken(fmt.duration(ttft_s, tr=tr)) if ttft_s else "",
    tpot=fmt.unbroken(fmt.ms_below(point.tpot_s, target_s, tr=tr)),  # '49.98 ms' under '50.0 ms', not '50.0 ms'
    tpot1=fmt.unbroken(fmt.ms(point.batch1_tpot_s, tr=tr)),
    have=fmt.unbroken(fmt.gb(est.usable_memory_per_gpu_bytes)),
    gpus=fmt.gpus(state.gpus),
    hw=hw.name,
    max_batch=fmt.integer(point.max_batch_memory),
    tab=tr("pl_tab_hardware"),  # where other chips are compared, whichever tab is open
)
notes = []  # under the headline: the sidebar's batch and the served basis, one caption
if point.feasible:
    key = f"pl_reason_{point.limited_by}" + (f"_{point.slo_binding}" if point.limited_by == "slo" else "")
    slo_compute = point.limited_by == "slo" and point.compute_bound  # more batch: latency for little throughput
    text = tr(key, **reason) + (" " + tr("pl_reason_compute_note") if slo_compute else "")
    st.success(text, icon=":material/target:")
    if not bool(est.fits):
        key = "pl_sidebar_batch_no_fit_one" if point.max_batch_memory == 1 else "pl_sidebar_batch_no_fit"
        notes.append(tr(key, batch=fmt.integer(state.batch), max_batch=fmt.integer(point.max_batch_memory)))
    else:  # the sidebar's batch beside the frontier's
        meets = float(est.tpot_s) <= target_s and (ttft_s is None or float(est.ttft_s) <= ttft_s)
        notes.append(
            tr(
                "pl_sidebar_batch",
                batch=fmt.integer(state.batch),
                tpot=fmt.ms(float(est.tpot_s), tr=tr),
                verdict=tr("pl_meets_short") if meets else tr("pl_misses_short"),
                per_gpu=fmt.rate(float(est.tokens_per_s_per_gpu)),
                usd=fmt.usd(float(est.usd_per_1M_tokens)) if price_known else tr("pl_cell_no_price"),
                x=fmt.number(point.tokens_per_s_per_gpu / float(est.tokens_per_s_per_gpu)),
            )
        )
else:
    key = "pl_infeasible_memory" if point.limited_by == "memory" else f"pl_infeasible_{point.slo_binding or 'tpot'}"
    st.warning(tr(key, **reason), icon=":material/warning:")
if notes:  # the sidebar's batch beside the static row's, before the served row
    st.caption("\n\n".join(notes))
# the static row's price and tokens per MW, under it (under the served row, they had read as the served row's)
notices.cost_line(  # at the frontier's batch when one meets the target (the static row's), named so
    est,
    tr,
    key="planner.no_price",
    tokens_per_s_per_gpu=point.tokens_per_s_per_gpu if point.feasible else None,
    rate_label="m_tokens_per_mw_batch" if point.feasible else "m_tokens_per_mw",
    rate_args={"batch": fmt.integer(point.batch)} if point.feasible else None,
)
if bool(est.fits) or point.feasible:  # the same targets counted as a server runs it (the frontier's basis)
    served = cache.planner_frontier(
        frontier_key, model, hw, replace(scenario, batching="continuous"), profile, target_s, ttft_s
    )
    pool_factor = (
        layout_search.plain_step_factor(
            model, hw, replace(scenario, batching="continuous", batch=served.batch), profile
        )
        if served.feasible
        else 1.0
    )
    notices.served_row(served, tr, no_price, fmt.devices(hw, state.gpus, tr), pool_factor, unpriced=unpriced)
holds_batch_1 = point.feasible or point.limited_by == "slo"  # else not even batch 1 fits: nothing to plan with
if holds_batch_1:
    chart.figure(  # the sidebar's scenario at the targets: built once, shared by every reader
        lambda: figs.frontier_figure(point, tr=tr),
        lambda: figs.frontier_table(point),
        "planner-frontier",
        tr,
        about=controls.export_about(state) | {"scenario_batch": None} | target_about,  # the batch is its search's
        depends=(target_s, ttft_s),
    )


def write_url() -> None:
    """The page's inputs into the URL (also from inside a fragment, whose rerun skips the end of the script); a
    parameter written only when set leaves it when unset."""
    query = page_state.planner_query(
        target_ms,
        ttft_ms,
        st.session_state["planner.k"],
        st.session_state["planner.accept"],
        st.session_state["planner.prefix_hit"],
        st.session_state[SECTION_ID],
        st.session_state[BUDGET],
        st.session_state["planner.serving"],
        st.session_state.get("planner.request_ttft_ms", 0.0),
        st.session_state.get("planner.best_engine", True),
        chips_param(st.session_state[CHIPS]),
    )
    controls.write_page_params(
        query, linked_query, dropped=("planner_request_ttft_ms", "planner_best_engine", "planner_chips")
    )


def linked_query(params: dict) -> dict[str, str]:
    """A link's Planner inputs as write_url writes them (its defaults where it has none)."""
    given, _ = page_state.parse_planner_query(params, domain_budget, catalog_hw)
    return page_state.planner_query(
        figs.target_ms(given.target, given.custom_ms), given.ttft_ms, given.k, given.acceptance, given.prefix_hit,
        given.section, given.max_gpus or domain_budget, given.serving, given.request_ttft_ms, given.best_engine,
        chips_param(given.chips),
    )  # fmt: skip


# the open tab (its label in this language, its id in the URL), settled before the URL is written
labels = {sid: tr(f"pl_tab_{sid}") for sid in figs.SECTIONS}
opened = next((sid for sid, label in labels.items() if label == st.session_state.get(SECTION)), None)
if opened is None:  # first run, or the language changed: the tab the URL or the session last had
    st.session_state[SECTION] = labels[st.session_state[SECTION_ID]]
else:
    st.session_state[SECTION_ID] = opened
# a wiki's frame: the frontier at the target; the rest on request, unless the link named a tab (planner_section: as
# the session's first run found it, before a change of the page's inputs writes every parameter into the URL)
linked_tab = st.session_state.setdefault("_planner_link_names_tab", "planner_section" in st.query_params)
write_url()
if not linked_tab:
    chart.fold(tr, tr("embed_more_planner"))

if point.feasible and price_known:
    expanders.explain(
        tr,
        "pl_m_cost",
        tr("pl_ex_frontier"),
        tr(
            "pl_ex_frontier_values",
            batch=point.batch,
            tpot=fmt.ms(point.tpot_s, tr=tr),
            devices=fmt.devices(hw, state.gpus, tr),
            per_gpu=fmt.rate(point.tokens_per_s_per_gpu),
            price=fmt.usd(est.price_usd_per_gpu_hour),
        ),
        fmt.usd(point.usd_per_1M_tokens),
    )


def speculative_inputs() -> tuple[int, float, object, float | None]:
    """Draft length, acceptance, draft model (None for MTP heads) and MTP cost, from the Speculative tab's widgets."""
    is_mtp = st.session_state["planner.draft"] == "mtp"
    draft = None if is_mtp else catalog_models[st.session_state["planner.draft"]]
    mtp_cost = float(st.session_state["planner.mtp_cost"]) if is_mtp else None
    return int(st.session_state["planner.k"]), float(st.session_state["planner.accept"]), draft, mtp_cost


# ------------------------------------------------------------------------------------------------ hardware x precision
@st.fragment
def hardware_section() -> None:
    st.subheader(tr("pl_table_h"))
    chosen = st.session_state[CHIPS]
    # the chips chosen, then the sidebar's (always compared); none chosen: the default set, said
    table_hw = [{**catalog_hw, hw.id: hw}[h] for h in figs.table_chips(chosen, hw.id, catalog_hw)]
    grid_tr = fmt.device_tr(table_hw, tr)  # 'chips', not 'GPUs', once a TPU or Trainium is in the grid
    st.multiselect(  # its own row, short names: every chosen chip readable in the box
        tr("pl_chips"),
        list(catalog_hw),
        key=CHIPS,
        format_func=chip_option,
        max_selections=figs.MAX_TABLE_CHIPS,
        help=tr("pl_chips_help", hw=fmt.chip(hw, tr, short=True), n=figs.MAX_TABLE_CHIPS),
        persist_state="session",
    )
    if not chosen:
        st.info(tr("pl_chips_none", chips=tr.join(map(chip_option, default_chips))), icon=":material/info:")
    st.radio(
        grid_tr("pl_table_gpus"),
        ["cheapest", "sidebar"],
        key="planner.table_gpus",
        format_func=lambda v: (
            grid_tr("pl_table_gpus_cheapest") if v == "cheapest" else grid_tr("pl_table_gpus_sidebar", n=state.gpus)
        ),
        horizontal=True,
        persist_state="session",
    )
    ids = [h.id for h in table_hw]
    # counted as a server runs it (the served row's and Economics' basis): one static batch with no prefill had read
    # half the served row's $ (H200 FP8: $0.96 in the grid beside $1.97 served)
    # each chip's price under the sidebar's basis (your own is the sidebar chip's alone), in the grid's CSV and caption
    prices = {h.id: economics.price_for(h, economics.priced_for(h, scenario, hw.id)) for h in table_hw}
    grid = cache.planner_cost_grid(
        cache.scenario_key(state, "batch", "lang") + "|" + ",".join(ids),
        model,
        tuple(table_hw),
        replace(scenario, batching="continuous"),
        profile,
        tpot_target_s=target_s,
        ttft_target_s=ttft_s,
        gpu_options=planner.DOMAIN if st.session_state["planner.table_gpus"] == "cheapest" else None,
        price_applies_to=hw.id,
    )
    chart.figure(
        # the chips' short names ('H200 SXM'), as the Hardware page's axis: the full ones took the cells' width
        lambda: figs.cost_heatmap(
            grid,
            fmt.chip_names(table_hw, tr=grid_tr),  # an announced chip marked, as elsewhere
            target_s,
            tr=grid_tr,
        ),
        lambda: figs.cost_table(grid, prices),
        "planner-cost",
        grid_tr,
        # the chips charted, each at its own price, GPU count and batch, at the target, in each precision
        about=controls.chips_about(ids, {**catalog_hw, hw.id: hw}, tr, state) | target_about | {
            "scenario_gpus": None if st.session_state["planner.table_gpus"] == "cheapest" else state.gpus,
            "scenario_batch": None, "scenario_weights": "+".join(grid.precisions),
        },
        depends=(target_s, ttft_s, st.session_state["planner.table_gpus"], ids),
    )  # fmt: skip
    # each chip's price, and that your own is the sidebar chip's alone, in the basis caption below (it had read
    # 'Catalog prices; the override applies only to H200' over a grid whose other chips had none under it)
    cheapest = st.session_state["planner.table_gpus"] == "cheapest"  # each cell's GPU count, said (only its hover had)
    st.caption(grid_tr("pl_table_note", kv=state.kv,
                       gpus=fmt.device_text("pl_table_note_cheapest", table_hw, grid_tr) if cheapest
                       else grid_tr("pl_table_note_sidebar", devices=fmt.devices(table_hw, state.gpus, grid_tr))))  # fmt: skip
    notices.basis_caption([(h, prices[h.id]) for h in table_hw], grid_tr, sidebar=hw.id)

    write_url()


# ------------------------------------------------------------------------------------------------ GPU count
def layout_section() -> None:
    """The best aggregated or disaggregated deployment within the GPU budget at the target (layouts.best_deployment,
    the search the CLI's frontier --max-gpus runs) and what it chose."""
    st.subheader(tr("pl_layout_h"))
    c1, c2, c3 = st.columns([1, 2, 1])
    c3.number_input(
        tr("pl_request_ttft"),
        min_value=0.0,
        max_value=float(figs.MAX_TTFT_MS),
        step=100.0,
        format="%.0f",
        key="planner.request_ttft_ms",
        help=tr("pl_request_ttft_help"),
        persist_state="session",
    )
    c1.number_input(
        tr("pl_budget"),
        min_value=1,
        max_value=figs.MAX_BUDGET,
        step=1,
        key=BUDGET,
        help=tr("pl_budget_help", hw=hw.name, domain=domain_budget),
        persist_state="session",
    )
    c2.radio(
        tr("pl_serving"),
        figs.SERVING,
        key="planner.serving",
        format_func=lambda v: tr(f"pl_serving_{v}"),
        horizontal=True,
        help=tr("pl_serving_help"),
        persist_state="session",
    )
    best = st.toggle(  # its own line: a fourth column squeezed the row at 900 px
        tr("pl_best_engine"), key="planner.best_engine", persist_state="session",
        help=tr("pl_best_engine_help", engine=controls.profile_label(profile, tr)),
    )  # fmt: skip
    budget, serving = int(st.session_state[BUDGET]), st.session_state["planner.serving"]
    request_ttft_s = st.session_state["planner.request_ttft_ms"] / 1e3 or None  # each request's, not the batch's
    key = f"{cache.scenario_key(state, 'batch', 'gpus', 'lang')}|{budget}|{serving}|{target_s}|{request_ttft_s}|{best}"
    d = cache.built(
        f"planner-layout|{key}",
        lambda: layout_search.best_deployment(
            model, hw, scenario, layout_search.best_engines(hw) if best else profile, max_gpus=budget,
            tpot_target_s=target_s, serving=serving, ttft_target_s=request_ttft_s,
        ),
    )  # fmt: skip
    # the profile the chosen deployment was timed under (the best engine's, or the sidebar's)
    engine = cache.profiles().get(d.engine, profile) if d.feasible else profile
    with metrics.Row(wide=True) as row:  # labels such as "Tokens/s per GPU (input + output)"
        row.metric(
            tr("pl_m_layout_gpus"),
            f"{d.gpus_used} / {budget}" if d.feasible else "—",
            help=tr("pl_m_layout_gpus_def", budget=budget),
        )
        row.metric(
            tr("pl_m_layout_tps"),
            fmt.rate(d.tokens_per_s_per_gpu) if d.feasible else "—",
            help=tr("pl_m_layout_tps_def", out=fmt.rate(d.output_tokens_per_s_per_gpu)),
        )
        row.metric(
            tr("pl_m_layout_tpot"),
            fmt.ms(d.tpot_s, tr=tr) if d.feasible else "—",
            help=tr("pl_m_layout_tpot_def", user=fmt.rate(d.tokens_per_s_per_user), target=fmt.target(target_s, tr)),
        )
        row.metric(
            tr("pl_m_layout_ttft"),
            fmt.duration(d.ttft_s, tr=tr) if d.feasible else "—",
            help=tr("pl_m_layout_ttft_def"),
        )
        priced = d.feasible and math.isfinite(d.usd_per_1M_tokens)
        row.metric(  # a layout on a chip without a price: a dash and why under it, as the batch section's row says it
            tr("pl_m_layout_usd"),
            **metrics.dollars(d.usd_per_1M_tokens, reached=d.feasible, unpriced=unpriced),
            # no layout: no help (it had blamed a missing price on a chip that has one)
            help=tr("pl_m_layout_usd_def", out=fmt.usd(d.usd_per_1M_output_tokens)) if priced else no_price or None,
        )  # fmt: skip
        row.metric(tr("pl_m_layout_limit"), tr(f"pl_limit_{d.limited_by}"), help=tr("pl_m_layout_limit_def"))
    if d.feasible and d.serving == "aggregated":
        st.success(
            tr("pl_layout_chosen_aggregated", layout=d.decode.label, used=d.gpus_used, budget=budget,
               batch=d.decode.batch, tps=fmt.unbroken(fmt.rate(d.tokens_per_s_per_gpu)),
               tpot=fmt.unbroken(fmt.ms(d.tpot_s, tr=tr))),
            icon=":material/target:",
        )  # fmt: skip
    elif d.feasible:
        st.success(
            tr("pl_layout_chosen_disaggregated", prefill=d.prefill.label, decode=d.decode.label, used=d.gpus_used,
               budget=budget, tps=fmt.unbroken(fmt.rate(d.tokens_per_s_per_gpu)), tpot=fmt.unbroken(fmt.ms(d.tpot_s, tr=tr)),
               rate=tr(f"pl_pool_rate_{d.rate_set_by}"), ttft=fmt.unbroken(fmt.duration(d.ttft_s, tr=tr)),
               kv=fmt.unbroken(fmt.duration(d.kv_transfer_s, tr=tr))),
            icon=":material/target:",
        )  # fmt: skip
    if best and d.feasible:  # which engine, of those fitted on the vendor's chips (typical where none is)
        fitted = [p for p in layout_search.best_engines(hw) if p.id != "typical"]
        vendor = hw.vendor or hw.name
        st.caption(tr("pl_layout_engine", engine=controls.profile_label(engine, tr), vendor=vendor,
                      engines=tr.join([controls.profile_label(p, tr) for p in fitted])) if fitted
                   else tr("pl_layout_engine_none", engine=controls.profile_label(engine, tr), vendor=vendor))  # fmt: skip
    parts = cache.built(  # the decode pool's step, part by part: where its time goes, communication's share
        f"planner-layout-parts|{key}",
        lambda: layout_search.decode_parts(model, hw, scenario, engine, d),
    )
    if parts is not None:
        st.caption(figs.layout_parts_text(d, parts, hw, tr=tr))
    if ttft_s:
        st.caption(tr("pl_layout_ttft_note", ttft=fmt.duration(ttft_s, tr=tr)))
    if request_ttft_s and d.feasible:
        st.caption(
            tr(
                "pl_layout_request_ttft_met",
                target=fmt.duration(request_ttft_s, tr=tr),
                ttft=fmt.duration(d.ttft_s, tr=tr),
            )
        )
    check = cache.disaggregated_check().get(frontier_check.summary_key(best))  # the check of the search's kind
    transfer = frontier_check.transfer_note(model, cache.disaggregated_check()) if d.feasible else None
    if transfer is not None:  # a model the serving fit has not seen: no range, what its own runs say
        names = {m.id: m.name for m in cache.models().values()}
        st.caption(rack_figs.transfer_caption(transfer, names, model.name, tr))
    elif found := frontier_check.deployment_range(d, model, hw, engine, check):  # how far to trust it, by measured runs
        low, high, band, (node, level) = found
        st.caption(
            tr("pl_layout_range", any=tr("pl_range_any_engine") if best else "", runs=band["runs"] - band["unreached"], p10=f"{band['p10_ratio']:.2f}",
               p90=f"{band['p90_ratio']:.2f}", tps=fmt.rate(d.tokens_per_s_per_gpu), low=fmt.rate(float(f"{low:.3g}")),
               high=fmt.rate(float(f"{high:.3g}")), node=tr(f"pl_range_{node}", n=check["node_gpus"]),
               level=tr(f"pl_range_{level}", x=f"{check['high_from_tok_s_per_user']:g}"))
        )  # fmt: skip
    if (far := frontier_check.beyond_measured(d, model.id, cache.decode_reach(), hw)) is not None:  # extrapolated
        layout = d.decode.layout_name
        st.caption(
            fmt.device_text(
                "pl_layout_beyond", hw, tr, seqs=fmt.integer(far[0]), most=fmt.integer(far[1]), layout=layout
            )
            if far[1] is not None
            else fmt.device_text("pl_layout_beyond_new", hw, tr, seqs=fmt.integer(far[0]), layout=layout)
        )
    runs = frontier_check.runs_like(cache.serving_measurements(), model.id, hw.id, scenario.weights.name,
                                    scenario.context_tokens, scenario.output_tokens, budget)  # fmt: skip
    if (m := frontier_check.measured_at(runs, 1.0 / target_s)) is not None:  # the measured frontier, beside it
        said = [tr("pl_measured_run", id=r.label, x=fmt.rate(r.interactivity_tokens_per_s_per_user), gpus=r.num_gpus)
                for r in m.runs]  # fmt: skip
        st.caption(
            tr.sentences([
                tr("pl_layout_measured_at", tps=fmt.rate(m.tokens_per_s_per_gpu), hw=fmt.chip(hw, tr, short=True),
                   how=tr("pl_measured_between", a=said[0], b=said[1]) if m.interpolated
                   else tr("pl_measured_meets", a=said[0])),
                *([tr("pl_layout_measured_ratio", ratio=fmt.number(d.tokens_per_s_per_gpu / m.tokens_per_s_per_gpu))]
                  if d.feasible else []),
            ])
        )  # fmt: skip
    if not d.feasible:
        st.warning(
            tr(f"pl_layout_none_{d.limited_by}", budget=budget, hw=hw.name, model=model.name,
               target=fmt.target(target_s, tr), fastest=fmt.target(d.fastest_tpot_s, tr)),
            icon=":material/warning:",
        )  # fmt: skip
        run = frontier_check.measured_fastest(cache.serving_measurements(), model.id, hw.id, scenario.weights.name,
                                              budget)  # fmt: skip
        if d.limited_by == "slo" and run is not None:  # what the chip was seen to reach, beside the model's floor
            st.caption(
                tr("pl_layout_measured_fastest", hw=hw.name, x=fmt.rate(run.interactivity_tokens_per_s_per_user),
                   id=run.label, engine=controls.profile_label(cache.profiles()[run.profile], tr), gpus=run.num_gpus,
                   io=f"{fmt.tokens(run.isl)} / {fmt.tokens(run.osl)}", date=run.run_date)
            )  # fmt: skip
    gate = usable_memory(hw, engine)
    name = controls.profile_label(engine, tr, short=True)
    inherited = dict(engine.basis).get("reserved_memory_GiB", "inherited") == "inherited"  # typical's: vLLM's rows
    whose = (
        tr("pl_reserved_none")
        if engine.is_ideal
        else tr("pl_reserved_vllm")
        if engine.id in ("vllm", "typical")  # vLLM's own figure, and typical's is vLLM's
        else tr("pl_reserved_inherited", engine=name)
        if inherited
        else tr("pl_reserved_own", engine=name)
    )
    common = dict(fraction=f"{gate.fraction:g}", reserved=fmt.gb(gate.reserved_bytes), whose=whose, engine=name)
    if gate.of_free:  # the engine's fraction is of what each layout's weights and workspace leave: no one figure
        text = tr("pl_layout_memory_free", capacity=fmt.capacity(gate, tr), **common)
        if d.feasible:  # the decode (or aggregated) pool's, which the step above is timed on
            usable_here = layout_search.pool_usable_bytes(model, hw, scenario, engine, d.decode)
            text += tr("pl_layout_memory_chosen", layout=d.decode.layout_name, usable=fmt.gb(usable_here))
    elif gate.basis == "reported":
        text = tr("pl_layout_memory_reported", usable=fmt.gb(gate.budget_bytes), capacity=fmt.capacity(gate, tr),
                  **common)  # fmt: skip
    else:
        text = tr("pl_layout_memory_datasheet", usable=fmt.gb(gate.budget_bytes), capacity=fmt.gb(gate.capacity_bytes),
                  hw=hw.name, **common)  # fmt: skip
    st.caption(text)
    usable = functools.partial(layout_search.pool_usable_bytes, model, hw, scenario, engine)
    chart.figure(
        figs.layout_figure(d, tr=tr),
        figs.layout_table(d, serving_searched=serving, usable_bytes=usable, usable_basis=gate.basis,
                          usable_of_free=gate.of_free, parts=parts),  # fmt: skip
        "planner-layout",
        tr,
        # the search's question, not the sidebar's GPU count, batch and engine: its budget, its batch, its engine
        about=controls.export_about(state) | target_about | {
            "scenario_gpus": budget, "scenario_gpus_budget": True, "scenario_batch": None,
            "scenario_profile": "best" if best else state.profile,
            "scenario_profile_name": tr("pl_best_engine") if best else controls.profile_label(profile, tr),
        },
    )  # fmt: skip
    if d.feasible:  # static: it wraps in a narrow frame
        st.table(figs.layout_display_table(d, tr=tr), hide_index=True)
    st.markdown(tr("pl_layout_note"))


def gpus_section() -> None:
    layout_section()
    st.subheader(tr("pl_gpus_h"))
    pp = planner.pipeline_parallel(model, hw, scenario, profile)
    # up to the chip's scale-up domain too (72 on GB200 / GB300 NVL72), each a split of the model's heads (engines
    # require it), and the pipeline's totals it is drawn against
    splits = {n for n in planner.TP_GPU_OPTIONS if not head_split_alternatives(model, n, scenario.parallelism)}
    counts = sorted(
        splits | set(planner.domain_gpu_options(hw, model, scenario.parallelism)) | {int(n) for n in pp.num_gpus}
    )
    tp = planner.tp_scaling(model, hw, scenario, profile, counts, target_s, ttft_s)
    with metrics.Row(wide=True) as row:  # the best GPU count is the layout search's, above (one search)
        row.metric(
            tr("pl_m_min_gpus", batch=fmt.integer(state.batch)),
            fmt.integer(tp.min_gpus_meeting_target)
            if tp.min_gpus_meeting_target
            else tr("pl_none_up_to", n=counts[-1]),
            help=tr("pl_m_min_gpus_def"),
        )
        row.metric(
            tr("pl_m_comm_share", n=int(tp.num_gpus[-1])),
            fmt.pct(float(tp.communication_fraction[-1])),
            help=tr("pl_m_comm_share_def"),
        )
    chart.figure(figs.tp_figure(tp, state.batch, target_s, tr=tr), figs.tp_table(tp), "planner-tensor-parallel", tr)
    domain = scale_up_domain_gpus(hw)  # a chip that is its own domain (GB10, a Mac): every all-reduce on the network
    said = fmt.device_text("pl_tp_note_own" if domain == 1 else "pl_tp_note", hw, tr, domain=domain, hw=hw.name)
    if left_out := sorted((set(planner.TP_GPU_OPTIONS) | set(planner.domain_gpu_options(hw))) - set(counts)):
        said = tr.sentences([said, tr("pl_tp_left_out_one" if len(left_out) == 1 else "pl_tp_left_out",
                                      heads=model.num_heads, counts=tr.join([str(n) for n in left_out]))])  # fmt: skip
    st.markdown(said)
    st.dataframe(figs.tp_display_table(tp, state.batch, tr=tr), hide_index=True)
    chart.figure(
        figs.pp_figure(pp, tp, tr=tr),
        figs.pp_table(pp, tp),
        "planner-pipeline-parallel",
        tr,
    )
    st.markdown(tr("pl_pp_note", tp=pp.tensor_parallel))


# ------------------------------------------------------------------------------------------------ capacity
@st.fragment
def capacity_section() -> None:
    st.subheader(tr("pl_capacity_h"))
    if no_fit_notice():
        return
    # the sidebar's mix first, the presets after it but its own (a preset equal to it had stacked a second bar on it)
    mixes = [(state.context, state.output), *[m for m in figs.MIXES if m != (state.context, state.output)]]
    if st.session_state.get("planner.mix", 0) >= len(mixes):  # a preset it now equals: the sidebar's own
        st.session_state["planner.mix"] = 0
    c1, c2 = st.columns(2)
    c1.slider(
        tr("pl_prefix_hit"),
        0.0,
        figs.HIT_MAX,
        step=0.05,
        key="planner.prefix_hit",
        help=tr("pl_prefix_hit_help"),
        persist_state="session",
    )
    c2.selectbox(
        tr("pl_mix"),
        range(len(mixes)),
        key="planner.mix",
        format_func=lambda i: (tr("pl_mix_scenario") + " " if i == 0 else "") + figs.mix_label(*mixes[i]),
        help=tr("pl_mix_help"),
        persist_state="session",
    )
    hit = float(st.session_state["planner.prefix_hit"])
    # users as a server runs them (continuous batching, prompts prefilled between the decode steps): the served row's
    # and Economics' count (one static batch with no prefill had read 114 users beside the served row's 64)
    cap = planner.capacity(model, hw, replace(scenario, batching="continuous"), profile, target_s, ttft_s, hit)
    dg = planner.disaggregation(
        model,
        hw,
        scenario,
        profile,
        tpot_target_s=target_s,
        input_tokens=[m[0] for m in mixes],
        output_tokens=[m[1] for m in mixes],
        prefix_hit_rate=hit,
        ttft_target_s=ttft_s,
    )
    mix = int(st.session_state["planner.mix"])
    with metrics.Row() as row:
        row.metric(
            tr("pl_m_users"),
            f"{cap.users:,}",
            help=tr("pl_m_users_def", memory=f"{cap.max_users_memory:,}", per_gpu=fmt.number(cap.users / state.gpus)),
        )
        row.metric(
            # the whole copy over the instance's devices (the text under the row gives each one's share)
            tr(
                "pl_m_kv_user", tokens=fmt.tokens(state.context + state.output), devices=fmt.devices(hw, state.gpus, tr)
            ),
            fmt.gb(cap.kv_bytes_per_user),
            help=tr(
                "pl_m_kv_user_def",
                tokens=fmt.tokens(state.context + state.output),
                per_gpu=fmt.gb(cap.kv_bytes_per_user_per_gpu),
                left=fmt.gb(cap.hbm_left_after_weights_bytes),
            ),
        )
        row.metric(
            tr("pl_m_prefill"),
            fmt.duration(cap.prefill_cached_s, tr=tr),
            delta=tr("pl_prefill_delta", before=fmt.duration(cap.prefill_s, tr=tr)) if hit > 0 else None,
            delta_color="off",
            help=tr("pl_m_prefill_def", context=fmt.tokens(state.context)),
        )
        ratio = float(dg.prefill_per_decode_gpu[mix])
        row.metric(
            tr("pl_m_ratio", mix=figs.mix_label(*mixes[mix])),
            figs.ratio_text(ratio, tr=tr),
            help=tr("pl_m_ratio_def", share=fmt.pct(float(dg.prefill_share[mix]))),
        )
    st.markdown(
        tr(
            "pl_capacity_text",
            left=fmt.gb(cap.hbm_left_after_weights_bytes),
            per_gpu=fmt.gb(cap.kv_bytes_per_user_per_gpu),
            memory=f"{cap.max_users_memory:,}",
            # the frontier above holds one static batch: a server's count is one or two fewer (a browser review read
            # 'holds 113' against the frontier's 'batch 115 would no longer fit')
            static=tr("pl_capacity_static", static=f"{cap.max_users_memory_static:,}")
            if cap.max_users_memory_static != cap.max_users_memory
            else "",
            users=f"{cap.users:,}",
            target=fmt.target_ms(target_s),
        )
    )
    chart.figure(figs.disaggregation_figure(dg, tr=tr), figs.disaggregation_table(dg), "planner-disaggregation", tr)
    st.markdown(tr("pl_disagg_note", budget=fmt.tokens(planner.PREFILL_TOKEN_BUDGET)))

    write_url()


# ------------------------------------------------------------------------------------------------ speculative decoding
@st.fragment
def speculative_section() -> None:
    st.subheader(tr("pl_spec_h"))
    if no_fit_notice():
        return
    # the draft's name on a row of its own: "MTP heads (multi-token prediction)" reads whole; beside it, a head the
    # model does not ship said as such
    c1, beside = st.columns(2)
    c2, c3, c4 = st.columns(3)
    c1.selectbox(
        tr("pl_spec_draft"),
        draft_options,
        key="planner.draft",
        format_func=lambda d: (
            catalog_models[d].name if d != "mtp" else tr("pl_spec_mtp" if model.mtp_modules else "pl_spec_head")
        ),
        help=tr("pl_spec_draft_help"),
        persist_state="session",
    )
    c2.slider(tr("pl_spec_k_label"), *figs.K_RANGE, key="planner.k", help=tr("pl_spec_k_help"), persist_state="session")
    c3.slider(
        tr("pl_spec_accept"),
        0.0,
        figs.ACCEPT_MAX,
        step=0.05,
        key="planner.accept",
        help=tr("pl_spec_accept_help"),
        persist_state="session",
    )
    is_mtp = st.session_state["planner.draft"] == "mtp"
    if is_mtp and not model.mtp_modules:
        beside.caption(tr("pl_spec_head_note", model=model.name))
    c4.slider(
        tr("pl_spec_mtp_cost"),
        0.01,
        0.30,
        step=0.01,
        key="planner.mtp_cost",
        disabled=not is_mtp,
        help=tr("pl_spec_mtp_cost_help", default=fmt.pct(speculative.mtp_cost_fraction(model))),
        persist_state="session",
    )
    k, accept, draft, mtp_cost = speculative_inputs()
    sp = planner.speculative(model, hw, scenario, profile, k=k, acceptance=accept, draft=draft, mtp_cost=mtp_cost)
    with metrics.Row() as row:
        row.metric(tr("pl_m_tokens_step"), f"{float(sp.tokens_per_step):.2f}", help=tr("pl_m_tokens_step_def"))
        row.metric(
            tr("pl_m_eff_tpot"),
            fmt.ms(float(sp.tpot_s), tr=tr),
            delta=tr("pl_speedup_delta", x=f"{float(sp.speedup):.2f}"),
            delta_color="normal" if float(sp.speedup) >= 1 else "inverse",
            delta_arrow="off",  # a speed-up lowers TPOT: an up arrow beside a lower TPOT misread
            help=tr("pl_m_eff_tpot_def", base=fmt.ms(float(sp.baseline_tpot_s), tr=tr), batch=fmt.integer(state.batch)),
        )
        row.metric(
            tr("pl_m_spec_tps", devices=fmt.devices(hw, state.gpus, tr)),  # a total beside per-GPU figures: said
            fmt.rate(float(sp.tokens_per_s_total)),
            help=tr(
                "pl_m_spec_tps_def",
                usd=fmt.usd(float(sp.usd_per_1M_tokens)) if price_known else tr("pl_cell_no_price"),
            ),
        )
        be = float(sp.break_even_acceptance)
        row.metric(
            tr("pl_m_break_even"), fmt.pct(be) if be == be else tr("pl_never"), help=tr("pl_m_break_even_def", k=k)
        )
    st.markdown(
        tr(
            "pl_spec_round",
            k=k,
            draft=fmt.ms(float(sp.draft_step_s), tr=tr),
            verify=fmt.ms(float(sp.verify_step_s), tr=tr),
            round=fmt.ms(float(sp.round_s), tr=tr),
            tokens=f"{float(sp.tokens_per_step):.2f}",
            tpot=fmt.ms(float(sp.tpot_s), tr=tr),
        )
    )
    if not bool(sp.fits):
        st.info(tr("pl_spec_no_fit"), icon="ℹ️")
    spf = planner.speculative_frontier(
        model, hw, scenario, profile, tpot_target_s=target_s, ttft_target_s=ttft_s, k=k, acceptance=accept, draft=draft,
        mtp_cost=mtp_cost,
    )  # fmt: skip
    if spf.feasible and point.feasible:
        st.markdown(
            tr(
                "pl_spec_at_target",
                target=fmt.target_ms(target_s),
                batch=spf.batch,
                tps=fmt.rate(spf.tokens_per_s_per_gpu),
                base_batch=point.batch,
                base_tps=fmt.rate(point.tokens_per_s_per_gpu),
            )
        )
    sp_grid = planner.speculative(
        model, hw, scenario, profile, k=figs.k_lines(k), acceptance=figs.ACCEPT_GRID[None, :], draft=draft,
        mtp_cost=mtp_cost,
    )  # fmt: skip
    sp_batch = planner.speculative(
        model,
        hw,
        state.to_scenario(batch=figs.batch_sweep(point.max_batch_memory)),
        profile,
        k=k,
        acceptance=accept,
        draft=draft,
        mtp_cost=mtp_cost,
    )
    chart.figure(
        figs.spec_acceptance_figure(sp_grid, k, accept, tr=tr), figs.spec_acceptance_table(sp_grid), "planner-spec", tr
    )
    chart.figure(figs.spec_batch_figure(sp_batch, tr=tr), figs.spec_batch_table(sp_batch), "planner-spec-batch", tr)
    st.markdown(tr("pl_spec_note") + (tr("pl_spec_note_moe") if model.moe else ""))  # an MoE curve need not fall
    write_url()


def no_fit_notice() -> bool:
    """Whether batch 1 does not fit; says so in a section that needs a deployment holding the model."""
    if not holds_batch_1:
        st.info(tr("pl_section_no_fit", gpus=fmt.gpus(state.gpus), hw=hw.name), icon=":material/block:")
    return not holds_batch_1


# ------------------------------------------------------------------------------------------------ levers
@st.fragment
def levers_section() -> None:
    st.subheader(tr("pl_levers_h"))
    st.radio(
        tr("pl_levers_view"),
        ["target", "batch"],
        key="planner.levers_view",
        format_func=lambda v: (
            tr("pl_levers_at_target", target=fmt.target_ms(target_s))
            if v == "target"
            else tr("pl_levers_at_batch", batch=fmt.integer(state.batch))
        ),
        horizontal=True,
        persist_state="session",
    )
    at_target = st.session_state["planner.levers_view"] == "target"
    k, accept, draft, mtp_cost = speculative_inputs()
    rows = planner.levers(
        model,
        hw,
        scenario,
        profile,
        tpot_target_s=target_s,
        ttft_target_s=ttft_s,
        k=k,
        acceptance=accept,
        draft=draft,
        mtp_cost=mtp_cost,
        hardware_catalog=catalog_hw,
        baseline=(est, point),  # the page head already has them
    )
    # a static table that wraps: as a grid its last column had been cut at 1400 px ('Δ $/1', '+31.9' without its %)
    st.table(figs.levers_display_table(rows, at_target, tr=tr, hardware=catalog_hw), hide_index=True)
    chart.figure(
        figs.levers_figure(rows, at_target, tr=tr, hardware=catalog_hw), figs.levers_table(rows), "planner-levers", tr,
        about=controls.export_about(state) | target_about,
    )  # fmt: skip
    st.markdown(tr("pl_levers_note"))

    write_url()


# ------------------------------------------------------------------------------------------------ the tabs
draw = {
    "hardware": hardware_section,
    "gpus": gpus_section,
    "capacity": capacity_section,
    "speculative": speculative_section,
    "levers": levers_section,
}
alone = figs.CHART_SECTION.get(embed.only_requested() or "")  # the tab of a chart embedded alone
for sid, tab in zip(figs.SECTIONS, st.tabs(list(labels.values()), key=SECTION, on_change="rerun"), strict=True):
    if tab.open or sid == alone:  # only the open tab is computed (and the one a chart embedded alone is in)
        with tab:
            draw[sid]()
