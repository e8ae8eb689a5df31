"""Hardware: memory bandwidth and capacity per chip, the sidebar scenario evaluated on every chip, memory generations."""

import math

import streamlit as st

from tpot_model import mlperf
from tpot_model.prices import BASES, DEFAULT_BASIS
from tpot_model.prices import CUSTOM as CUSTOM_BASIS
from ui import bands, cache, chart, controls, expanders, fmt, notices, uploads
from ui.figures import frontier as frontier_figs
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
model = controls.resolve(state)[0]  # the sidebar's (an uploaded file's too)
notices.transfer_notice(model, tr)
vendors = sorted({h.vendor for h in catalog.values()})


def vendor_option(v: str) -> str:
    return v or tr("hw_vendor_unknown")


controls.linked_view("hardware.vendors", vendors, vendors, tr=tr, label=tr("hw_vendors"), shows=vendor_option)
chosen = st.multiselect(
    tr("hw_vendors"),
    vendors,
    format_func=vendor_option,
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
    # each chip's price under the sidebar's published basis (your own price is the sidebar chip's alone: on-demand)
    basis = state.price_basis if state.price_basis in BASES else DEFAULT_BASIS
    specs = cache.built(f"specs|{chips_key}|{basis}", lambda: figs.specs_table(chips, basis))
    by_year = cache.built(f"by_year|{chips_key}", lambda: figs.bandwidth_by_year(chips, tr=tr))
    chart.figure(by_year, specs, "hardware-bandwidth-by-year", tr, about=None, depends=chips_key)
    ranking = cache.built(f"ranking|{chips_key}", lambda: figs.bandwidth_ranking(chips, tr=tr))
    chart.figure(ranking, specs, "hardware-bandwidth-ranking", tr, about=None, depends=chips_key)
    if (box := expanders.lazy_expander(tr("hw_specs_table"), "hardware.specs_open")) is not None:
        labels = figs.specs_table_labels(tr=tr)
        datasheet, estimated = figs.specs_display_table(specs, tr=tr)
        # each column at 3 significant figures (bandwidth at two decimals, as the bars and the generations table
        # read it), an estimated figure marked in its cell as everywhere else: '27.2 (estimate)'
        shown, columns = cache.display_numbers(datasheet, lo={labels["bandwidth_tb_per_s"]: 2}, marked=estimated,
                                               mark=lambda text: fmt.estimate(text, True, tr))  # fmt: skip
        # '—' where a chip has no price or date (the table had read 'None'); the chip's name in view as it scrolls,
        # whole: as wide as the longest (the full 'NVIDIA GB300 (per Blackwell Ultra GPU, NVL72)' had read 'NVIDIA
        # GB300 (per Blackw' at 1400 px; the short names now, specs_display_table)
        name_width = cache.column_width([labels["hardware"], *datasheet[labels["hardware"]]])
        box.dataframe(shown, hide_index=True, placeholder="—",
                      column_config={**columns,
                                     # '$1.49', not '1.490' (a column at the decimals its values have)
                                     labels["price_usd_per_gpu_hour"]: st.column_config.NumberColumn(format="dollar"),
                                     labels["hardware"]: st.column_config.Column(pinned=True, width=name_width)})  # fmt: skip
        any_estimate = any(any(rows) for rows in estimated.values())
        box.caption(tr("hw_specs_price_note", basis=tr(f"basis_{basis}"))
                    + notices.line(tr("hw_specs_estimated") if any_estimate else "")
                    # the star on an announced chip's short name, as under the TPOT table
                    + notices.line(notices.announced_key(tr) if specs["hardware_announced"].any() else ""))  # fmt: skip

    chart.fold(tr, tr("embed_more_hardware"))  # a wiki's frame: the bandwidth charts; the rest on request

    # (b) the scenario on every chip: the ideal TPOT and one profile estimate per chip (scalars, no sweeps)
    st.header(tr("hw_tpot_header"))
    show_profile = state.profile != "ideal"
    if show_profile:  # (the ideal bound's TPOT, the profile's estimate) per chip
        ideals = controls.evaluate_chips(state, list(selected), profile_id="ideal", tpot_only=True)
        pairs = list(zip(ideals, controls.evaluate_chips(state, list(selected)), strict=True))
    else:
        pairs = [(est.tpot_s, est) for est in controls.evaluate_chips(state, list(selected))]
    device = fmt.device_kind(chips)  # 'GPUs' when every chip listed is a GPU, else the neutral 'chips'
    st.markdown(
        fmt.device_text(
            "hw_tpot_intro" if show_profile else "hw_tpot_intro_ideal",
            device,
            tr,
            model=model.name,
            weights=state.weights,
            kv=state.kv,
            batch=fmt.integer(state.batch),
            context=fmt.tokens(state.context),
            output_tokens=fmt.counted("n_output_tokens", state.output, tr),
            devices=fmt.devices(device, state.gpus, tr),
            profile=profile_name,
        )
    )
    # the sidebar's scenario on the chips shown (the language and device word included): once per server, shared
    scenario_chips = f"{cache.scenario_key(state)}|{chips_key}"
    table = cache.built(f"hardware-tpot|{scenario_chips}", lambda: figs.tpot_table(pairs))
    controls.linked_view("hardware.log_x", default=False, tr=tr, label=tr("hw_log_x"))
    log_x = st.toggle(tr("hw_log_x"), key="hardware.log_x", persist_state="session")
    # its exports state the sidebar's scenario on the chips shown, each at its own price (not the sidebar chip's)
    shown_about = controls.chips_about(list(selected), catalog, tr, state)
    if len(selected) > 1:  # a dozen chips' names would fill the title: their count, and the GPUs each
        shown_about |= {"scenario_hardware": f"{len(selected)}chips-{state.gpus}each", "scenario_gpus": None,
                        "scenario_hardware_name": tr("export_chips_each", n=len(selected), gpus=fmt.gpus(state.gpus))}  # fmt: skip
    chart.figure(  # the sidebar's scenario on the chips shown: built once, shared by every reader
        lambda: figs.tpot_by_hardware(pairs, show_profile=show_profile, log_x=log_x, tr=tr),
        table,
        "hardware-tpot",
        tr,
        about=shown_about,
        depends=(chips_key, log_x),
    )
    if state.price_basis != CUSTOM_BASIS:
        priced = [est.price for _, est in pairs if math.isfinite(est.price.usd_per_gpu_hour)]
        note = fmt.prices_note(priced, tr) or tr(f"basis_{state.price_basis}")
        prices_text = tr("hw_prices_basis", note=note)
    elif state.price is not None:
        prices_text = tr("hw_prices_custom", price=fmt.usd(state.price), hw=catalog[state.hardware].name)
    else:
        prices_text = tr("no_own_price")
    st.caption(fmt.device_text("hw_tpot_note", device, tr, prices=prices_text, profile=profile_name))
    shown, shown_columns = cache.built(
        f"hardware-tpot-display|{scenario_chips}",
        lambda: cache.display_numbers(  # its $/1M cells in dollars, as every other $ figure ('$1.55', not '1.55')
            figs.tpot_display_table(table, show_profile=show_profile, device=device, tr=tr),
            dollars=[tr("hw_col_usd_1m")],
        ),
    )
    st.dataframe(shown, hide_index=True, placeholder="—", column_config=shown_columns)
    if show_profile and figs.common_band_words(table, tr):  # one basis for every chip: said once, in full
        st.caption(tr("hw_band_common", basis=bands.basis_text(pairs[0][1], tr, profile_name, device)))
    notices.basis_caption(
        [(est.hardware, est.price) for _, est in pairs], tr, device_words=True, sidebar=state.hardware
    )
    caption = fmt.device_text(
        "hw_table_caption", device, tr, profile=profile_name, devices=fmt.devices(device, state.gpus, tr)
    )
    what_if = "" if table["engine_runs_here"].all() else figs.what_if_key(state.profile, tr)
    st.caption(
        caption + notices.line(notices.announced_key(tr) if table["announced"].any() else "") + notices.line(what_if)
    )
    # chips no GPU count holds (their bars: 'no GPU count fits'): why more do not help, and what would, as the CLI says
    if said := notices.no_gpu_count_text([e for _, e in pairs], tr):
        st.caption(said)
    # chips with no math at the precision asked for (FP4 on an H200): named, with the precision they run it at
    if said := notices.compute_fallback_text(
        [(fmt.chip(e.hardware, tr, short=True), e.compute_fallback) for _, e in pairs], tr
    ):
        st.caption(said)

    # (b') MLPerf Inference measured for the sidebar's model, per chip, beside the model at the same run
    results = cache.mlperf_results()
    everywhere = mlperf.measured_points(results, frontier_figs.measured_model(model.id, results))
    rounds = fmt.span(r.round for r in results)  # the rounds data/mlperf.csv holds: 'v4.0–v5.1'
    if not everywhere:
        st.caption(tr("hw_mlperf_none", model=model.name, rounds=rounds,
                      models=tr.join([m.name for m in frontier_figs.mlperf_models(results)])))  # fmt: skip
    else:
        st.header(tr("hw_mlperf_header"))
        here = [r for r in everywhere if r.hardware_id in selected]
        if not here:
            names = [r.hardware.name for r in {r.hardware_id: r for r in everywhere}.values()]
            st.info(tr("hw_mlperf_none_selected", model=model.name, chips=tr.join(names)))
        else:
            benchmarks = tr.join(list(dict.fromkeys(r.fields["benchmark"] for r in here)))
            measured_model = here[0].model.name  # DeepSeek-R1's results for DeepSeek-V3 (the same architecture)
            tr_mlperf = fmt.device_tr([r.hardware for r in here], tr)  # 'chips' if a TPU / Trainium is ever measured
            st.markdown(tr_mlperf("hw_mlperf_intro", model=measured_model, benchmarks=benchmarks, rounds=rounds))

            def _mlperf_views():  # the chips, the model and the language only: built once, not on every slider move
                engines = {k: controls.profile_label(p, tr) for k, p in cache.profiles().items()}
                predictions = figs.mlperf_predictions(cache.mlperf_table())
                rows = figs.mlperf_table(mlperf.best_per_chip(here), predictions, engines)
                return (
                    rows,
                    figs.mlperf_by_chip(rows, model_name=measured_model, tr=tr_mlperf),
                    *cache.display_numbers(figs.mlperf_display_table(rows, tr=tr_mlperf)),
                )

            mlperf_rows, mlperf_fig, mlperf_shown, mlperf_columns = cache.built(
                f"mlperf|{chips_key}|{model.id}", _mlperf_views
            )
            chart.figure(mlperf_fig, mlperf_rows, "hardware-mlperf", tr, about=None,  # not the sidebar's scenario
                         depends=f"{chips_key}|{model.id}")  # fmt: skip
            st.dataframe(mlperf_shown, hide_index=True, placeholder="—", column_config=mlperf_columns)
            st.caption(tr_mlperf("hw_mlperf_caption"))

    # (c) memory generations
    st.header(tr("hw_gen_header"))
    st.markdown(tr("hw_gen_intro"))
    generations = cache.built(
        f"generations|{chips_key}",
        lambda: (
            figs.bandwidth_frontier(chips, tr=tr),
            figs.frontier_table(chips),
            # bandwidth as the bars' labels read it ('0.86 TB/s', not the column's '0.9' beside Rubin's 22)
            *cache.display_numbers(figs.generation_table(chips, tr=tr), lo={tr("hw_col_best_bw"): 2}),
        ),
    )
    chart.figure(generations[0], generations[1], "hardware-bandwidth-frontier", tr, about=None, depends=chips_key)
    st.dataframe(generations[2], hide_index=True, height="content", column_config=generations[3])
