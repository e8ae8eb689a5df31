"""Serving frontier: output (or total) tokens/s per GPU against tokens/s per user as concurrency grows (continuous
batching), per hardware x precision x layout for the sidebar's model, with the measured InferenceX points overlaid;
cost per million tokens at an interactivity target; tokens per MW; and the model's leave-one-hardware-out check
against the measurements. The page's own inputs travel in the URL (fr_io, fr_hw, fr_prec, fr_layout, fr_engine,
fr_y, fr_target, fr_tier, fr_usd, fr_mtp, fr_k, fr_accept, fr_log, fr_disagg, fr_rack_chips, fr_rack_gpus,
fr_rack_recipes, fr_rack_best_engine)."""

import json
import math

import numpy as np
import streamlit as st

from tpot_model import disaggregated, frontier_check, planner, serving
from tpot_model import layouts as layout_search
from tpot_model.pool_correction import fitted_run_ids, largest_decode_a
from tpot_model.prices import PricePoint
from tpot_model.speculative import MTP_ACCEPTANCE, MTP_K, expected_tokens_per_step
from ui import cache, chart, controls, embed, expanders, export, fmt, metrics, notices, page_state
from ui.figures import frontier as figs
from ui.figures import rack_scale as rack
from ui.state import CUSTOM_ID

state = controls.scenario_state()
tr = controls.translator()
model, side_hw, _ = controls.resolve(state)
catalog_hw, profiles = cache.hardware(), cache.profiles()
INIT, NOTICES = "_frontier_initialised", "_frontier_notices"


# The page's inputs: from the URL on the session's first visit, then kept in the widgets' (persisted) state. The
# workload, engine and precision follow the sidebar unless the link or the page sets them.
follows = page_state.frontier_follows(state, profiles)
if not st.session_state.get(INIT):
    inputs, bad_params = page_state.parse_frontier_query(
        st.query_params.to_dict(), set(catalog_hw), set(profiles), follows
    )
    st.session_state.update(
        {
            "frontier.io": inputs.io,
            "frontier.hardware": list(inputs.hardware),
            "frontier.precisions": list(inputs.precisions),
            "frontier.layouts": list(inputs.layouts),
            "frontier.engine": inputs.engine,
            "frontier.y": inputs.y,
            "frontier.target": inputs.target,
            "frontier.tier": inputs.tier if "fr_tier" in st.query_params else state.price_basis,
            "frontier.usd": inputs.usd if state.price is None or "fr_usd" in st.query_params else state.price,
            "frontier.mtp": inputs.mtp,
            "frontier.k": inputs.k,
            "frontier.accept": inputs.acceptance,
            "frontier.log": inputs.log,
            "frontier.disagg": inputs.disagg,
            "frontier.rack_chips": inputs.rack_chips,
            "frontier.rack_gpus": inputs.rack_gpus,
            "frontier.rack_recipes": inputs.rack_recipes,
            "frontier.rack_best_engine": inputs.rack_best_engine,
            NOTICES: bad_params,
            INIT: True,
        }
    )

# A change of the sidebar's workload, engine or precision resets the page's to it.
for name, value in follows.items():
    if (was := st.session_state.get(f"_frontier_follow.{name}")) != value:
        if was is not None:
            st.session_state[f"frontier.{name}"] = list(value) if isinstance(value, tuple) else value
        st.session_state[f"_frontier_follow.{name}"] = value

# The tier is the sidebar's price basis until picked here; a change of the sidebar's basis resets it.
if (was := st.session_state.get("_frontier_basis")) != state.price_basis:
    if was is not None:
        st.session_state["frontier.tier"] = state.price_basis
    st.session_state["_frontier_basis"] = state.price_basis

# The page's device word (issue 19): 'GPUs' while the sidebar's chip and every chip drawn are GPUs, the neutral 'chips'
# once one is a TPU or Trainium; every string with a '_chip' variant reads in it. The rack-scale and leave-one-out
# sections are about GPUs only (GB200, B200, MI355X; InferenceX's runs) and their strings have no such variant.
device = fmt.device_kind([side_hw, *(catalog_hw[h] for h in st.session_state["frontier.hardware"] if h in catalog_hw)])
tr = tr.for_device(device)


def io_option(io: str) -> str:
    """A workload choice as its radio shows it: 'Sidebar', '1k / 1k (chat)'."""
    return tr("fr_io_custom") if io == figs.CUSTOM else tr(f"fr_io_{io}", io=figs.io_label(*figs.IO_PRESETS[io]))


def _generation_names(generation: str) -> dict[str, str]:
    """The generation's chips by their short names: its rack-scale system, HGX chip and AMD chip."""
    names = (fmt.chip(catalog_hw[h], tr, short=True) for h in rack.GENERATIONS[generation])
    return dict(zip(("rack", "hgx", "amd"), names, strict=True))


def rack_option(generation: str) -> str:
    """A rack-scale generation as its selectbox shows it: 'GB200 NVL72 vs B200, MI355X'."""
    n = _generation_names(generation)
    return tr("fr_rack_chips_option", rack=n["rack"], others=tr.join([n["hgx"], n["amd"]]))


def link_labels() -> dict[str, notices.Shown]:
    """The page's controls as its link's notices name them: label and how each shows a value."""
    shown = notices.Shown
    return {
        "fr_io": shown(tr("fr_io"), io_option),
        "fr_hw": shown(tr("fr_hardware"), lambda h: fmt.chip(catalog_hw[h], tr, short=True), items=True),
        "fr_prec": shown(tr("fr_precision"), lambda p: tr(f"fr_prec_{p}"), items=True),
        "fr_layout": shown(tr("fr_layout"), lambda v: tr(f"fr_layout_{v}"), items=True),
        "fr_engine": shown(tr("fr_engine"), lambda p: controls.profile_label(profiles[p], tr)),
        "fr_y": shown(tr("fr_y"), lambda v: tr(f"fr_y_{v}")),
        "fr_tier": shown(tr("fr_tier"), lambda t: tr(f"fr_tier_{t}")),
        "fr_rack_chips": shown(tr("fr_rack_chips"), rack_option),
        "fr_rack_gpus": shown(tr("fr_rack_budget")),
        **{f"fr_{key}": shown(tr(f"fr_{key}")) for key in ("target", "usd", "mtp", "k", "accept", "log", "disagg")},
        **{f"fr_rack_{key}": shown(tr(f"fr_rack_{key}")) for key in ("recipes", "best_engine")},
    }


st.title(tr("page_frontier"))
st.caption(tr("fr_caption"))
notices.url_notices(st.session_state[NOTICES], tr, link_labels)
notices.transfer_notice(model, tr)
mtp_models = tr.join([m.name for m in cache.models().values() if m.mtp_modules])
if st.session_state["frontier.mtp"] and not model.mtp_modules:  # MTP drafts with the model's own module: none here
    st.session_state["frontier.mtp"] = False
    st.info(tr("fr_mtp_none_notice", model=model.name), icon=":material/info:")

if (controls_box := controls.page_controls(tr, lazy=True)) is not None:  # in the embed view, collapsed: the chart first
    with controls_box:
        c = st.columns([3, 1])
        c[0].radio(
            tr("fr_io"),
            figs.IO_OPTIONS,
            key="frontier.io",
            horizontal=True,
            format_func=io_option,
            help=tr("fr_io_help"),
            persist_state="session",
        )
        c[1].radio(
            tr("fr_y"), figs.Y_METRICS, key="frontier.y", format_func=lambda v: tr(f"fr_y_{v}"), persist_state="session"
        )
        st.selectbox(  # its own row: in two fifths of a 900 px page with the sidebar open it read 'Typical serving engi'
            tr("fr_engine"),
            list(profiles),
            key="frontier.engine",
            format_func=lambda p: controls.profile_label(profiles[p], tr),
            help=tr("fr_engine_help"),
            persist_state="session",
        )
        st.multiselect(  # its own row, short names: every chosen chip readable in the box
            tr("fr_hardware"),
            list(catalog_hw),
            key="frontier.hardware",
            format_func=lambda h: fmt.chip(catalog_hw[h], tr, short=True),
            persist_state="session",
        )
        c = st.columns(2)
        c[0].multiselect(
            tr("fr_precision"),
            figs.PRECISIONS,
            key="frontier.precisions",
            format_func=lambda p: tr(f"fr_prec_{p}"),
            help=tr("fr_precision_help"),
            persist_state="session",
        )
        c[1].multiselect(
            tr("fr_layout"),
            figs.LAYOUTS,
            key="frontier.layouts",
            format_func=lambda v: tr(f"fr_layout_{v}"),
            help=tr("fr_layout_help"),
            persist_state="session",
        )
        # the toggles the page's width, MTP's sliders under them: in a third of a 900 px page with the sidebar open
        # their labels read 'MTP / spe…' and 'Show mul…'
        mtp = st.toggle(
            tr("fr_mtp"),
            key="frontier.mtp",
            disabled=not model.mtp_modules,
            help=tr("fr_mtp_help", k=MTP_K, a=f"{MTP_ACCEPTANCE:g}")
            if model.mtp_modules
            else tr("fr_mtp_none", model=model.name, models=mtp_models),
            persist_state="session",
        )
        c = st.columns(2)
        c[0].slider(tr("fr_k"), *figs.K_RANGE, key="frontier.k", disabled=not mtp, persist_state="session")
        c[1].slider(
            tr("fr_accept"), 0.0, 0.99, step=0.01, key="frontier.accept", disabled=not mtp, persist_state="session"
        )
        st.toggle(tr("fr_log"), key="frontier.log", persist_state="session")
        st.toggle(tr("fr_disagg"), key="frontier.disagg", help=tr("fr_disagg_help"), persist_state="session")


# the inputs as the widgets hold them (persisted; from the URL on the first visit): in the embed view the widgets are
# sent only once their section is opened
io, engine, y, hardware, precisions, layouts, mtp, log, disagg, k, acceptance = (
    st.session_state[f"frontier.{key}"]
    for key in ("io", "engine", "y", "hardware", "precisions", "layouts", "mtp", "log", "disagg", "k", "accept")
)
isl, osl = figs.lengths(io, state.context, state.output)
profile = profiles[engine]
differs = [
    *([tr("fr_differs_io", io=figs.io_label(isl, osl), sidebar=figs.io_label(state.context, max(state.output, 1)))]
      if (isl, osl) != (state.context, max(state.output, 1)) else []),
    *([tr("fr_differs_engine", engine=controls.profile_label(profile, tr),
          sidebar=controls.profile_label(profiles[state.profile], tr))]
      if engine != state.profile and state.profile in profiles else []),
    *([tr("fr_differs_precision", sidebar=state.weights)] if list(precisions) != list(follows["precisions"])
      else [tr("fr_differs_format", label=figs.PRECISION_LABEL[precisions[0]], sidebar=state.weights, runs=runs)]
      if precisions and (runs := planner.precision_format(precisions[0], side_hw)) != state.weights
      and {runs, state.weights} != {"bf16", "fp16"} else []),  # 16-bit either way: the same bytes and rate
    *([tr("fr_differs_hardware_own" if state.hardware == CUSTOM_ID else "fr_differs_hardware",
          sidebar=fmt.chip(side_hw, tr))] if state.hardware not in hardware else []),
]  # fmt: skip
if differs:
    st.info(tr("fr_differs", what=tr.join(differs, "clause_sep")), icon=":material/tune:")
notices.window_notice(model, isl, osl, tr)  # the curves' own lengths past the model's window (the Planner says it)


def page_about(
    chips: list[str], weights: list[str], gpus: int | None = None, best: bool = False, recipes: bool = False
) -> dict:
    """What this page's exports state: the sidebar's scenario with this page's ISL/OSL, engine, chips and precisions
    (and GPU count: the rack-scale view's budget; best: its best engine at each point, not the page's engine; recipes:
    its search held to measured recipes), not the sidebar's, MTP when on, and no batch (the charts sweep it); the
    sidebar chip's price only when that chip is the one charted, else each chip's own under the price basis."""
    return controls.chips_about(chips, catalog_hw, tr, state) | {
        "scenario_weights": "+".join(weights),
        "scenario_context_tokens": int(isl),
        "scenario_output_tokens": int(osl),
        "scenario_profile": "best" if best else engine,
        "scenario_profile_name": tr("fr_rack_best_engine") if best else controls.profile_label(profile, tr),
        "scenario_batch": None,  # every chart here sweeps the concurrency (or its layout search sets it)
        **({"scenario_gpus": int(gpus), "scenario_gpus_budget": True} if gpus is not None else {}),
        **({"scenario_mtp_draft_tokens": int(k), "scenario_mtp_acceptance": float(acceptance)} if mtp else {}),
        **({"scenario_measured_recipes_only": True} if recipes else {}),
    }


about = page_about(list(hardware), list(precisions))
st.markdown(
    tr(
        "fr_scenario",
        model=model.name,
        gpus=fmt.gpus(state.gpus),
        kv=state.kv,
        io=figs.io_label(isl, osl),
        engine=controls.profile_label(profile, tr),
        n=len(figs.concurrency_grid(state.batch)),
        cmax=fmt.number(figs.concurrency_grid(state.batch)[-1]),
    )
)

# ------------------------------------------------------------------------------------------------ the curves
grid = figs.series_grid(hardware, precisions, layouts)
concurrency = figs.concurrency_grid(state.batch)
if len(grid) < len(hardware) * len(precisions) * len(layouts):
    st.info(tr("fr_too_many", n=figs.MAX_SERIES))
# the page's inputs the charts and curves depend on besides the sidebar's scenario (and the language)
curve_inputs = (tuple(grid), isl, osl, engine, mtp, k, acceptance)
chart_inputs = (*curve_inputs, io, y, log, disagg)


def _curve(hid: str, weights: str, layout: str, c):
    """One chip x weights x layout continuously batched over the concurrencies `c`, at the page's lengths."""
    return controls.evaluate(
        state.with_(hardware=hid, weights=weights),
        profile_id=engine,
        batch=c,
        context_tokens=isl,
        output_tokens=osl,
        parallelism=layout,
        batching="continuous",
        draft_head=mtp,
    )


def _series() -> tuple[list, list]:
    """One curve per chip x precision x layout over the concurrency grid, ending at the most requests in flight that
    fit where that falls inside it; those of them that never fit."""
    series, no_fit = [], []
    for hid, precision, layout in grid:
        hw = catalog_hw[hid]
        weights = planner.precision_format(precision, hw)
        c, est = concurrency, _curve(hid, weights, layout, concurrency)
        # the curve's end where memory sets it, not the grid's last point below it (2 x B200 ran to 128 requests at
        # 21.1 tok/s/user where 158 fit at 17.8: a 20 tok/s/user target had read as off the curve)
        ends = figs.concurrency_grid(state.batch, figs.most_in_flight(est.max_batch))
        if ends.size > c.size:
            c, est = ends, _curve(hid, weights, layout, ends)
        run = serving.speculative(model, hw, est.scenario, profile, k=k, acceptance=acceptance) if mtp else est
        s = figs.make_series(hw, precision, weights, layout, c, run.tpot_s, run.ttft_s,
                             run.output_tokens_per_s_per_gpu, run.total_tokens_per_s_per_gpu, est.fits,
                             state.batch, est)  # fmt: skip
        series.append(s)
        if not s.fits.any():  # at one request in flight: what holds it, or why no GPU count does (no_gpu_count)
            no_fit.append((s, est.min_gpus[0], _curve(hid, weights, layout, float(c[0]))))
    return series, no_fit


# once per server for the scenario and the curves' inputs: every reader of a link shares them (read-only)
series, no_fit = cache.built(f"frontier-series|{cache.scenario_key(state)}|{curve_inputs}", _series)
for s, need, one in no_fit:  # each in its own chip's device word (an H200 had read 'chips' beside a Trainium3)
    own = fmt.device_tr(s.hardware, tr)
    remedy = own("fr_no_fit_gpus", n=int(need)) if need == need else own("remedy_none")
    said = [own("fr_no_fit", name=s.label(tr), gpus=fmt.gpus(state.gpus), remedy=remedy)]
    if need != need:  # no GPU count holds it: why more GPUs stop helping, and what would
        said.append(notices.no_gpu_count_text([one], tr))
    st.warning(tr.sentences(said), icon=":material/block:")

rows = cache.serving_measurements()
mlperf_results = cache.mlperf_results()


def _overlays() -> tuple[list, list, list, tuple | None]:
    """The measured runs drawn (InferenceX's), MLPerf's results on any chip, those on the chips shown and their
    lengths (ISL, OSL; None without any)."""
    points = figs.measured_points(rows, model.id, isl, osl, hardware, precisions, mtp, disagg, layouts)
    mlperf_any = figs.mlperf_overlay(mlperf_results, model.id, None, precisions)  # on any chip
    shown = [p for p in mlperf_any if p.hardware_id in hardware]
    return points, mlperf_any, shown, figs.mlperf_lengths(shown) if shown else None


# once per server for the choices they depend on (the committed tables are read once per process)
overlay_key = json.dumps([model.id, isl, osl, hardware, precisions, mtp, disagg, layouts], default=str)
points, mlperf_any, mlperf_points, mlperf_io = cache.built(f"frontier-overlays|{overlay_key}", _overlays)
if not grid:
    st.info(tr("fr_pick_something"))
elif not any(r.fields.get("model_id") == figs.measured_model(model.id, rows) for r in rows):
    # at 1k/1k, which InferenceX measured (the sidebar's own lengths had opened a page with no points)
    # on chips it was measured on: a TPU's link had kept the TPU, with no run of it to show
    measured_hw = {r.fields.get("hardware_id") for r in rows if r.fields.get("model_id") == "deepseek-r1"}
    chips = {} if state.hardware in measured_hw else {"hardware": figs.DEFAULT_HARDWARE[0]}
    if not set(hardware) & measured_hw:
        chips["fr_hw"] = ",".join(figs.DEFAULT_HARDWARE)
    r1 = embed.query_with(
        model="deepseek-r1", gpus="8", weights="fp8", kv="fp8", context="1024", output="1024", fr_io="1k1k", **chips
    )
    st.info(tr("fr_no_inferencex_model" if mlperf_points else "fr_no_measured_model", model=model.name, query=r1))
elif not points:
    st.info(tr("fr_no_measured_selection", io=figs.io_label(isl, osl)))

chart.figure(
    lambda: figs.frontier_figure(series, points, y=y, isl=isl, osl=osl, model_name=model.name, log_y=log,
                         mlperf_points=mlperf_points, device=device, tr=tr),
    lambda: figs.frontier_table(series, points, y=y, mlperf_points=mlperf_points),
    "serving-frontier",
    tr,
    about=about,
    depends=chart_inputs,
)  # fmt: skip
# under the chart, one element (a message to every reader of a wiki link each): what it sweeps, MLPerf's results
# (at their own lengths, on their submitters' systems) and, with MTP on, the switch's error on measured MTP runs
notes = [
    tr(
        "fr_frontier_caption",
        cmax=fmt.number(concurrency[-1]),
        mtp=tr("fr_mtp_on", k=k, a=f"{acceptance:g}") if mtp else tr("fr_mtp_off"),
    )
]
if mlperf_points:
    mlperf_isl, mlperf_osl = mlperf_io
    notes.append(
        tr(
            "fr_mlperf_caption",
            model=mlperf_points[0].result.model.name,  # DeepSeek-R1's results for DeepSeek-V3 (the same architecture)
            n=len(mlperf_points),
            isl=fmt.number(mlperf_isl),
            osl=fmt.number(mlperf_osl),
            io=figs.io_label(isl, osl),
            total=tr("fr_mlperf_caption_total") if y == "total" else "",
        )
    )
elif mlperf_any:
    mlperf_chips = dict.fromkeys(p.hardware_id for p in mlperf_any)
    notes.append(
        tr("fr_mlperf_other_chips", model=model.name,
           chips=tr.join([fmt.chip(catalog_hw[h], tr, short=True) for h in mlperf_chips if h in catalog_hw]))
    )  # fmt: skip
else:
    notes.append(
        tr(
            "fr_mlperf_none",
            model=model.name,
            models=tr.join([m.name for m in figs.mlperf_models(mlperf_results)]),
            rounds=fmt.span(r.round for r in mlperf_results),
        )
    )
# a curve under another that matches it (B200's under GB200 NVL72's: the same GPU within a domain of 8) shows only its
# legend entry: said (a browser review)
for hidden, top in figs.coinciding(series, y, figs.COINCIDE):
    notes.append(tr("fr_coincide", hidden=hidden.label(tr), top=top.label(tr), pct=fmt.pct(figs.COINCIDE, 0)))
# a chip with no rate at the precision drawn (FP4 on an H200) runs the math at another: named, as Overview's notice
if said := notices.compute_fallback_text(
    [(fmt.chip(s.hardware, tr, short=True), s.compute_fallback) for s in series], tr
):
    notes.append(said)
if mtp:
    check, bias = cache.mtp_check(k, acceptance)
    notes.append(
        tr(
            "fr_mtp_check",
            n=check.n,
            k=k,
            a=f"{acceptance:g}",
            median=fmt.pct(check.median),
            p90=fmt.pct(check.p90),
            bias=fmt.pct(bias, signed=True),
        )
    )
st.caption("\n\n".join(notes))
# a wiki's frame: the curves and what they were measured against; the rest on request
chart.fold(tr, tr("embed_more_frontier"))

# the line under the chart and the note under it speak of one curve: the sidebar's chip's where it is drawn (the first
# curve, an announced Rubin NVL72, had been described above a note about the sidebar's GB200: a review), else the first
own_curve = figs.sidebar_series(series, state.hardware, state.weights)
lead = own_curve if own_curve is not None else (series[0] if series else None)
lead_i = lead.marked_index if lead is not None else None
if lead_i is not None:
    s0, i = lead, lead_i
    st.markdown(
        tr(
            "fr_marked_text" if s0.fits[i] else "fr_marked_text_no_fit",
            requests=tr("fr_requests_one") if state.batch == 1 else tr("fr_requests", n=fmt.integer(state.batch)),
            name=s0.label(tr),
            tpot=fmt.ms(float(s0.tpot_s[i]), tr=tr),
            user=fmt.rate(float(s0.interactivity[i])),
            gpu=tr(f"fr_tokens_{y}", rate=fmt.large(float(s0.per_gpu(y)[i]))),  # which tokens: the y axis's
            ttft=fmt.duration(float(s0.ttft_s[i]), tr=tr),
        )
    )

# Overview's TPOT is the static batch's decode step; this page's is continuous batching's mean step: both named for
# the sidebar's scenario, with why they differ (issue 19)
side_hw = controls.resolve(state)[1]
side_static = controls.evaluate(state)
side_steady = controls.evaluate(state, output_tokens=max(state.output, 1), batching="continuous").steady
side_chunks = float(side_steady.chunks_per_step)
side_chunk_tokens = float(side_steady.prompt_tokens_per_step) / side_chunks if side_chunks > 0 else float(state.context)
# the note's lead: why its TPOT is not (or is) Overview's, or, the sidebar's chip not drawn, whose each line is
said_lead = (
    tr("fr_batching_lead_other", curve=lead.label(tr), chip=f"{fmt.chip(side_hw, tr)} · {state.weights.upper()}")
    if own_curve is None and lead is not None
    else tr("fr_batching_lead_alone" if state.batch == 1 else "fr_batching_lead")
)
note = (
    (
        tr(  # alone on the server (batch 1) the decode steps carry no prompt work: the TPOT is Overview's
            "fr_batching_note_alone",
            lead=said_lead,
            name=f"{fmt.integer(state.gpus)} × {fmt.chip(side_hw, tr)}",
            isl=fmt.integer(state.context),
            osl=fmt.integer(max(state.output, 1)),
            static=fmt.ms(float(side_static.tpot_s), tr=tr),
        )
        if state.batch == 1
        else tr(
            "fr_batching_note",
            lead=said_lead,
            name=f"{fmt.integer(state.gpus)} × {fmt.chip(side_hw, tr)}",
            b=fmt.integer(state.batch),
            prompts=tr("fr_prompts", n=fmt.integer(state.batch)),
            isl=fmt.integer(state.context),
            osl=fmt.integer(max(state.output, 1)),
            static=fmt.ms(float(side_static.tpot_s), tr=tr),
            p=fmt.number(float(side_steady.prompt_tokens_per_step)),
            mix=tr(
                "fr_batching_mix_few" if side_chunks < 1 else "fr_batching_mix_many",
                only=fmt.ms(float(side_steady.decode_only.time_s), tr=tr),
                every=fmt.number(1.0 / side_chunks, 2) if side_chunks > 0 else "∞",
                chunk=fmt.integer(side_chunk_tokens),
                with_chunk=fmt.ms(float(side_steady.first_chunk.time_s), tr=tr),
                chunks=fmt.number(side_chunks, 2),
            ),
            cont=fmt.ms(float(side_steady.tpot_s), tr=tr),
        )
    )
    + (  # with MTP switched on, the chart's TPOT at the sidebar's batch is not that one: say which and why
        " "
        + tr(
            "fr_batching_mtp",
            k=k,
            a=f"{acceptance:g}",
            e=fmt.number(float(expected_tokens_per_step(acceptance, k)), 3),
            b=fmt.integer(state.batch),
            tpot=fmt.ms(float(lead.tpot_s[lead_i]), tr=tr),
        )
        if mtp and lead_i is not None
        else ""
    )
    + (  # the curves' own requests are not the sidebar's: the TPOT the chart marks at the same batch (a review)
        " "
        + tr(
            "fr_batching_io",
            io=figs.io_label(isl, osl),
            name=lead.label(tr),
            b=fmt.integer(state.batch),
            tpot=fmt.ms(float(lead.tpot_s[lead_i]), tr=tr),
        )
        if not mtp and (isl, osl) != (state.context, max(state.output, 1)) and lead_i is not None
        else ""
    )
)
# a sidebar scenario that does not fit: its two TPOTs are what-ifs, greyed and marked as the other pages mark them
st.caption(note if bool(side_static.fits) else f":gray[{tr('fr_if_fitted_lead')} {note}]")


# ------------------------------------------------------------------------------------------------ cost at target
st.header(tr("fr_cost_h"))
c = st.columns([3, 5, 3])  # the target and price inputs wide enough for their labels in a 900 px frame
target = c[0].number_input(
    tr("fr_target"), 1.0, figs.MAX_TARGET, step=5.0, format="%g", key="frontier.target", help=tr("fr_target_help"),
    persist_state="session",  # '%g': '50', not '50.00'
)  # fmt: skip
c[0].caption(fmt.target(1.0 / target, tr))  # the same target as a TPOT, as the Planner states it
tier = c[1].radio(
    tr("fr_tier"), figs.TIERS, key="frontier.tier", horizontal=True, format_func=lambda t: tr(f"fr_tier_{t}"),
    help=tr("fr_tier_help"), persist_state="session",
)  # fmt: skip
usd = c[2].number_input(
    tr("fr_usd"), 0.01, figs.MAX_USD, step=0.1, key="frontier.usd", disabled=tier != figs.CUSTOM,
    persist_state="session",
)  # fmt: skip
at = figs.at_target(series, target, y, usd, tr)
top = figs.best(at, tier)
if top is None:
    st.info(tr("fr_target_off", target=f"{target:g}") if any(s.fits.any() for s in series) else tr("fr_target_nofit"))
else:
    priced = math.isfinite(top.usd_per_1m[tier])  # best() ranks by throughput when nothing drawn has a price
    st.markdown(tr("fr_best" if priced else "fr_best_unpriced", target=f"{target:g}", name=top.label,
                   tier=tr(f"fr_tier_{tier}")))  # fmt: skip
    if top.limited_by:  # read at its curve's last point: memory (or the sweep's end) sets its batch, not the target
        st.caption(tr(f"fr_best_last_{top.limited_by}", name=top.label, n=fmt.integer(top.concurrency),
                      x=f"{top.interactivity:.1f}"))  # fmt: skip
    with metrics.Row(wide=True) as row:
        row.metric(
            fmt.device_text(f"fr_m_tps_{y}", device, tr, target=f"{target:g}"),
            fmt.rate(top.tokens_per_s_per_gpu),
            help=tr("fr_m_tps_def", name=top.label),
        )
        # a figure that cannot be computed: a dash and why under it, as Economics shows it (a value that long would be cut)
        usd_1m, mw = top.usd_per_1m[tier], top.tokens_per_s_per_mw
        no_price = not math.isfinite(top.usd_per_gpu_hour[tier])
        row.metric(
            tr(f"fr_m_usd_{y}"),
            **({"value": fmt.usd(usd_1m)} if not no_price else metrics.missing(tr("no_public_price_short"))),
            help=tr("fr_m_usd_def", tier=tr(f"fr_tier_{tier}")),
        )
        row.metric(
            tr("fr_m_mw"),
            **(
                {"value": f"{fmt.large(mw)} tok/s"}
                if math.isfinite(mw)
                else metrics.missing(tr("no_public_power_short"))
            ),
            help=tr("fr_m_mw_def", name=top.label, tokens=tr(f"fr_tokens_{y}", rate="").strip()),
        )
# beside each curve's bar, each chip's measured frontier at the target (InferenceX's runs drawn), priced the same way
bars = figs.beside(at, figs.measured_at_target(series, points, target, y, usd, tr))
if any(s.fits.any() for s in series) or any(b.measured_runs for b in bars):  # else an empty chart under the notice
    chart.figure(
        lambda: figs.cost_figure(bars, target, tier, y=y, tier_label=tr(f"fr_tier_{tier}"), tr=tr),
        lambda: figs.cost_table(bars, target, y=y, custom=tier == figs.CUSTOM),
        "cost-at-target",
        tr,
        about=about,
        depends=(*chart_inputs, target, tier, usd),
    )
    st.caption(  # the Planner's grid in the mode that asks this chart's question, and its default, which asks more
        tr("fr_cost_caption", tab=tr("pl_tab_hardware"), gpus=tr("pl_table_gpus"), cheapest=tr("pl_table_gpus_cheapest"),
           same=tr("pl_table_gpus_sidebar", n=state.gpus))
    )  # fmt: skip
notices.basis_caption(
    [(catalog_hw[h], PricePoint(usd, tier) if tier == figs.CUSTOM
      else catalog_hw[h].prices.price(tier) or PricePoint(float("nan"), tier))
     for h in dict.fromkeys(s.hardware_id for s in series)], tr,
    # the basis and your own price are this page's controls, above (the caption had sent the reader to the sidebar)
    where=tr("fr_basis_where", tier=tr("fr_tier")),
    own=tr("fr_own_price_all", custom=tr("fr_tier_custom"), tier=tr("fr_tier"), usd=tr("fr_usd")),
)  # fmt: skip

if series and not any(math.isfinite(s.all_in_w) for s in series):  # an empty chart said nothing: say why instead
    unpowered = dict.fromkeys(fmt.chip(catalog_hw[s.hardware_id], tr, short=True) for s in series)
    st.info(tr("fr_mw_none", hws=tr.join(list(unpowered))), icon=":material/bolt:")
else:
    chart.figure(
        lambda: figs.per_mw_figure(
            series, points, {h: catalog_hw[h].prices.all_in_w for h in catalog_hw}, y=y, log_y=log, tr=tr
        ),
        lambda: figs.per_mw_table(series, y=y),
        "tokens-per-mw",
        tr,
        about=about,
        depends=chart_inputs,
    )
    st.caption(tr("fr_mw_caption"))

if series:
    s0 = series[0]
    i = int(len(s0.concurrency) // 2)
    example = state.with_(hardware=s0.hardware_id, weights=s0.weights).to_scenario(
        batch=s0.concurrency[i], context_tokens=isl, output_tokens=osl, parallelism=s0.layout, batching="continuous"
    )
    st_ex = serving.steady_state(model, catalog_hw[s0.hardware_id], example, profile)
    expanders.explain(
        tr,
        "fr_ex_step",
        tr("fr_ex_step_formula"),
        tr(
            "fr_ex_step_values",
            c=int(s0.concurrency[i]),
            isl=isl,
            osl=osl,
            p=fmt.number(float(st_ex.prompt_tokens_per_step)),
            only=fmt.ms(float(st_ex.decode_only.time_s), tr=tr),
            name=s0.label(tr),
        ),
        fmt.ms(float(st_ex.tpot_s), tr=tr),
    )
if top is not None:
    expanders.explain(
        tr,
        f"fr_m_usd_{y}",
        tr("fr_ex_usd_formula"),
        tr("fr_ex_usd_values", name=top.label, tps=fmt.number(top.tokens_per_s_per_gpu),
           price=fmt.usd(top.usd_per_gpu_hour[tier])),
        fmt.usd(top.usd_per_1m[tier]),
    )  # fmt: skip

# ------------------------------------------------------------------------------------------------ rack scale
st.header(tr("fr_rack_h"))


rack_generation = st.selectbox(
    tr("fr_rack_chips"), tuple(rack.GENERATIONS), key="frontier.rack_chips",
    format_func=rack_option,  # 'GB200 NVL72 vs B200, MI355X'
    help=tr("fr_rack_chips_help"), persist_state="session",
)  # fmt: skip
# the budget beside the two switches, one above the other: in three columns a 900 px page with the sidebar open cut
# the first switch's label to 'Measured recip…'
budget_col, switches_col = st.columns([1, 2], vertical_alignment="bottom")
rack_gpus = int(
    budget_col.number_input(
        tr("fr_rack_budget"), 1, rack.MAX_BUDGET, step=8, key="frontier.rack_gpus",
        help=tr("fr_rack_budget_help", gpus=rack.BUDGET_GPUS), persist_state="session",
    )
)  # fmt: skip
rack_recipes = switches_col.toggle(
    tr("fr_rack_recipes"), key="frontier.rack_recipes", help=tr("fr_rack_recipes_help"), persist_state="session"
)
rack_best = switches_col.toggle(
    tr("fr_rack_best_engine"), key="frontier.rack_best_engine", persist_state="session",
    help=tr("fr_rack_best_engine_help", engine=controls.profile_label(profile, tr)),
)  # fmt: skip
rack_names = _generation_names(rack_generation)
st.caption(tr("fr_rack_intro", devices=fmt.devices("gpu", rack_gpus, tr), **rack_names))
RACK_CHART = "rack-scale-vs-scale-out"
if (
    box := expanders.lazy_expander(tr("fr_rack_open"), "frontier.rack", force=chart.wanted_alone(RACK_CHART))
) is not None:
    rack_precision = precisions[0] if precisions else "fp8"
    rack_ids = [h for h in rack.chips(rack_generation) if h in catalog_hw]

    def _rack_scenario(hid: str):
        """The view's scenario on a chip: the page's lengths, the view's precision in the chip's own format."""
        hw = catalog_hw[hid]
        return state.with_(hardware=hid, weights=planner.precision_format(rack_precision, hw)).to_scenario(
            context_tokens=isl, output_tokens=osl
        )

    def _rack_engines(hid: str):
        """The engine(s) the view's search times a chip under: its best engines, or the page's."""
        return layout_search.best_engines(catalog_hw[hid]) if rack_best else profile

    def _rack_search() -> dict[str, tuple]:
        """Each chip's (targets, deployments): the best deployment at each interactivity and where its reach ends."""
        recipes = disaggregated.model_recipes(cache.decode_reach(), model.id) if rack_recipes else None
        out = {}
        for hid in rack_ids:
            tables = layout_search.engine_tables(
                model, catalog_hw[hid], _rack_scenario(hid), _rack_engines(hid), max_gpus=rack_gpus,
                mtp_k=k if mtp else None, mtp_acceptance=acceptance,
            )  # fmt: skip
            # the page's own target searched too: read off between grid points it had been interpolated along the
            # curve (B200 8,540 tok/s per GPU at 20 tok/s per user, where the best layout that meets it, the
            # Planner's, serves 8,363)
            targets, curve = layout_search.reach_curve(
                tables, np.unique(np.append(rack.INTERACTIVITY, target)), recipes
            )
            out[hid] = (targets, tuple(curve))
        return out

    found = cache.built(
        f"frontier-rack|{model.id}|{rack_precision}|{state.kv}|{state.compute}|{isl}|{osl}|{engine}|{mtp}|{k}|{acceptance}"
        f"|{rack_gpus}|{rack_recipes}|{rack_best}|{rack_generation}|{target}",
        _rack_search,
    )
    # every published basis, the page's own tier first (the cost section's: a custom $/GPU-hour there, priced here too)
    bases = [tier, *[b for b in figs.BASES if b != tier]]
    # where measured runs like each deployment sit: against the check of the search's kind
    checked = cache.disaggregated_check().get(frontier_check.summary_key(rack_best))
    reach = cache.decode_reach()  # how far the measured recipes go: decode sequences per GPU by worker layout
    curves = []
    for hid in rack_ids:
        hw, (targets, deployments) = catalog_hw[hid], found[hid]
        prices = {b: p.usd_per_gpu_hour for b, p in hw.prices.usd_per_gpu_hour.items()}
        if tier == figs.CUSTOM:
            prices[figs.CUSTOM] = usd
        curves.append(
            rack.RackCurve(
                hid,
                fmt.chip(hw, tr, short=True),
                hid in rack.PROJECTIONS,
                targets,
                deployments,
                prices,
                tuple(
                    r[:2]
                    if d.feasible
                    and (r := frontier_check.deployment_range(d, model, hw, profiles.get(d.engine, profile), checked))
                    else None
                    for d in deployments
                ),
                {b: p.as_of for b, p in hw.prices.usd_per_gpu_hour.items()},
                tuple(frontier_check.beyond_measured(d, model.id, reach, hw) for d in deployments),
                {e: controls.profile_label(profiles[e], tr) for e in {d.engine for d in deployments} if e in profiles},
                fmt.chip_short(hw) + ("*" if hw.announced else ""),
                tuple(
                    frontier_check.no_range_kind(d, model, hw, profiles.get(d.engine, profile), checked)
                    if d.feasible
                    else None
                    for d in deployments
                ),  # why a range is missing: its owner's word
            )  # fmt: skip
        )
    # runs of these lengths; drawn, those within the view's budget, single-node ones too: a layout may use fewer GPUs
    of_lengths = figs.measured_points(rows, model.id, isl, osl, rack_ids, [rack_precision], mtp, True)
    measured = [r for r in of_lengths if float(r.fields.get("n_gpus") or 0) <= rack_gpus]
    beyond_budget = [r for r in of_lengths if float(r.fields.get("n_gpus") or 0) > rack_gpus]  # the key says so
    with box:
        fits_any = any(c.feasible.any() for c in curves)
        misfits = rack.unfit(curves)
        # what would hold it: the smallest budget, or a lower precision within this one, as `frontier --max-gpus`
        remedy = rack.fit_remedy(
            [(c.name, layout_search.budget_no_fit(model, catalog_hw[c.hardware_id], _rack_scenario(c.hardware_id),
                                                   _rack_engines(c.hardware_id), rack_gpus)) for c in misfits],
            rack_gpus, tr,
        )  # fmt: skip
        if not fits_any:
            st.warning(
                tr(
                    "fr_rack_none_fit", devices=fmt.devices("gpu", rack_gpus, tr), model=model.name, remedy=remedy
                ).rstrip(),  # fmt: skip
                icon=":material/memory:",
            )
        elif misfits:
            st.warning(
                tr("fr_rack_some_unfit", devices=fmt.devices("gpu", rack_gpus, tr), model=model.name,
                   chips=tr.join([c.name for c in misfits]), remedy=remedy).rstrip(),
                icon=":material/memory:",
            )  # fmt: skip
        rack_about = page_about(rack_ids, [rack_precision], rack_gpus, best=rack_best, recipes=rack_recipes)
        chart.figure(
            lambda: rack.rack_figure(curves, measured, model_name=model.name, io=figs.io_label(isl, osl),
                                     precision=tr(f"fr_prec_{rack_precision}"), budget_gpus=rack_gpus, tr=tr,
                                     engine=None if rack_best else controls.profile_label(profile, tr, short=True),
                                     conditions=export.conditions(rack_about, tr), beyond_budget=beyond_budget),
            lambda: rack.rack_table(curves, measured, tr),
            RACK_CHART,
            tr,
            about=rack_about,
            depends=(*curve_inputs, rack_precision, rack_gpus, rack_recipes, rack_best, rack_generation, target,
                     usd if tier == figs.CUSTOM else None),  # its CSV prices a custom $/GPU-hour; the target a point
        )  # fmt: skip
        if fits_any:  # nothing fits: the warning above says so; no tables of dashes nor captions about them
            for x, win, other, kind, cand in rack.winner_reasons(curves, layout_search.memory_reason):
                d = win.deployment_at(x)
                st.info(
                    tr(f"fr_rack_memory_{kind}", x=f"{x:g}", winner=win.name, other=other.name,
                       layout=d.decode.layout_name, n=cand.max_batch_memory, b=d.decode.batch),
                    icon=":material/memory:",
                )  # fmt: skip
            st.subheader(tr("fr_rack_ratio_h"))
            st.caption(tr("fr_rack_tables_cap", targets=tr.join([f"{x:g}" for x in rack.RATIO_AT])))
            # a row per chip, a column per interactivity, static tables that wrap: every column in sight in a 900 px
            # page with the sidebar open (as scrolled grids the $ table's last columns had been out of sight)
            costs = rack.cost_table(curves, bases, tr)
            for table in (rack.rates_table(curves, tr, measured), rack.ratio_table(curves, tr, measured), costs):
                st.table(rack.shown(table))
            said = [tr("fr_rack_ratio_caption", basis=tr(f"fr_tier_{tier}"), rack=rack_names["rack"])]
            pool_ids = fitted_run_ids(cache.disaggregated_check())  # the runs the pool correction was fitted on
            fitted = rack.measured_fit_caption(measured, {c.hardware_id: c.name for c in curves}, pool_ids, tr)
            st.caption(tr.sentences(said + [fitted] * bool(fitted)))  # which of the points drawn the fit used
            if model.moe is not None and (rack_best or not profile.is_ideal):  # the search's correction, not above
                st.caption(tr("fr_rack_pool_caption", a=fmt.pct(largest_decode_a(None if rack_best else engine), 0)))
            if any(catalog_hw[c.hardware_id].announced for c in curves):  # the tables' '*'
                st.caption(notices.announced_key(tr))
            if said := rack.at_target_caption(curves, target, tr):  # the page's own target, between the columns
                st.caption(said)
            if said := rack.same_layout_caption(curves, tr):
                st.caption(said)
            if said := rack.unpriced_caption(costs, bases, tr):
                st.caption(said)
            if said := rack.price_order_caption(curves, bases, tr):
                st.caption(said)
            if measured:
                st.caption(tr("fr_rack_measured_caption"))
            names = {m.id: m.name for m in cache.models().values()}
            if said := rack.transfer_caption(frontier_check.transfer_note(model, cache.disaggregated_check()), names,
                                             model.name, tr):  # fmt: skip
                st.caption(said)
            own = None if rack_best else controls.profile_label(profile, tr)  # the check reads the best engine
            if said := rack.ratio_check_caption(cache.disaggregated_check(), tr, names, own):
                st.caption(said)
            if beyond := rack.beyond_caption(curves, tr):
                st.caption(beyond)
            if tops := rack.ceilings(curves):
                chips = tr.join([tr("fr_rack_ceiling_item", name=name, x=f"{x:.0f}") for name, x in tops])
                st.caption(tr("fr_rack_ceiling", chips=chips))
            if said := rack.check_caption(cache.disaggregated_check(), tr, None if rack_best else engine, names):
                st.caption(said)
            # the layout search against the measured runs: a row per question, and what the rows read
            checked_chips = {c.hardware_id: c.name for c in curves}
            if (table := rack.check_table(cache.disaggregated_check(), tr, rack_best, checked_chips)) is not None:
                st.table(rack.shown(table))
                st.caption(rack.frontier_check_caption(cache.disaggregated_check(), tr, rack_best, names, rack_gpus,
                                                       rack_recipes))  # fmt: skip

# ------------------------------------------------------------------------------------------------ validation
st.header(tr("fr_loho_h"))
cv = cache.serving_loho()
summary = cv.summary()
with metrics.Row(wide=True) as row:
    row.metric(
        tr("fr_m_loho_tpot"),
        fmt.pct(summary["tpot"].median),
        help=tr("fr_m_loho_def", p90=fmt.pct(summary["tpot"].p90)),
    )
    row.metric(
        tr("fr_m_loho_out"),
        fmt.pct(summary["output_tokens_per_s_per_gpu"].median),
        help=tr("fr_m_loho_def", p90=fmt.pct(summary["output_tokens_per_s_per_gpu"].p90)),
    )
    row.metric(tr("fr_m_loho_rows"), str(summary["tpot"].n), help=tr("fr_m_loho_rows_def"))
    if unseen := rack.transfer_tpot_metric(
        cache.disaggregated_check(), {m.id: m.name for m in cache.models().values()}, tr
    ):
        row.metric(tr("fr_m_transfer_tpot"), unseen[0], help=unseen[1])  # beside the headline: how far it transfers
loho_figs = cache.built(  # the measurements' check depends on the language only
    f"frontier-loho|{tr.lang}|{tr.device}",
    lambda: (figs.validation_figure(cv, "tpot", tr=tr), figs.validation_figure(cv, "output", tr=tr),
             figs.validation_table(cv)),
)  # fmt: skip
left, right = st.columns(2)
with left:
    chart.figure(loho_figs[0], loho_figs[2], "loho-tpot", tr, about=None, depends=tr.device)
with right:
    chart.figure(loho_figs[1], loho_figs[2], "loho-output", tr, about=None, depends=tr.device)
st.caption(tr("fr_loho_caption"))
bias = cache.built(f"frontier-loho-bias|{tr.lang}", lambda: figs.loho_bias_table(cv, tr))  # where the error leans
st.dataframe(bias, hide_index=True)
st.caption(tr("fr_bias_caption"))
if said := rack.transfer_check_caption(
    cache.disaggregated_check(), {m.id: m.name for m in cache.models().values()}, tr
):
    st.caption(said)

query = page_state.frontier_query(
    page_state.FrontierInputs(
        io=io, hardware=tuple(hardware), precisions=tuple(precisions), layouts=tuple(layouts), engine=engine,
        y=y, target=target, tier=tier, usd=usd, mtp=mtp, k=k, acceptance=acceptance, log=log, disagg=disagg,
        rack_chips=rack_generation, rack_gpus=rack_gpus, rack_recipes=rack_recipes, rack_best_engine=rack_best,
    )
)  # fmt: skip
if tier == state.price_basis:  # the sidebar's price_basis says it: a link follows the sidebar
    del query["fr_tier"]
    if "fr_tier" in st.query_params:
        del st.query_params["fr_tier"]
current = {"hardware": tuple(hardware), "io": io, "engine": engine, "precisions": tuple(precisions),
           "rack_chips": rack_generation}  # fmt: skip
for name, param in page_state.FOLLOW_PARAMS.items():  # what follows the sidebar stays out of the link
    if current[name] == follows[name]:
        del query[param]
        if param in st.query_params:
            del st.query_params[param]
st.query_params.update(query)
