"""Validation: the model against published decode measurements. Leave-one-hardware-out errors against the goals, per
engine, predicted vs measured (with the pure roofline beside it), the error table, what the fitted profiles say, and
the sources with their trust levels. Independent of the sidebar scenario."""

import streamlit as st

from ui import cache, chart, controls, expanders, fmt, metrics, validation_data
from ui.figures import validation as figs

tr = controls.translator()
table = cache.validation_table()
# nothing here depends on the sidebar's scenario: what takes time is built once per server and language (and the
# page's own choices) and shared by every reader, so a sidebar change costs a rerun of cached parts
counts, heads, cards = cache.built(
    f"validation-headline|{tr.lang}",
    lambda: (figs.headline_counts(table), figs.headline_summaries(table), figs.headline_cards(table, tr)),
)
source_list = cache.built(f"validation-sources|{tr.lang}", lambda: figs.sources(table, tr))

st.title(tr("page_validation"))
st.caption(tr("val_caption"))
st.markdown(tr("val_intro", sources=len(source_list), **counts))

with metrics.Row() as row:
    for card in cards:
        row.metric(
            card.label,
            card.value,
            delta=card.delta,
            delta_color=card.colour,
            delta_arrow="off",
            delta_description=card.description,
            help=card.help,
            border=True,
        )
st.caption(
    tr(
        "val_headline_caption",
        n=heads["loho"].n,
        devices=counts["devices"],
        fit_median=fmt.pct(heads["fitted"].median),
        fit_p90=fmt.pct(heads["fitted"].p90),
        lofo_median=fmt.pct(heads["lofo"].median),
        lofo_p90=fmt.pct(heads["lofo"].p90),
    )
)
st.markdown(tr("val_loho_text"))

st.header(tr("val_h_engines"))
st.caption(tr("val_engines_intro"))
# a static table (its cells wrap): every column reads in a 900 px frame, not scrolled past its edge
engine_summary = cache.arrow_table(
    f"validation-engine-summary|{tr.lang}", lambda: figs.engine_summary_display(cache.validation_engine_summary(), tr)
)
st.table(engine_summary, hide_index=True)

st.header(tr("val_h_scatter"))


def metric_option(m: str) -> str:
    return tr(f"val_metric_opt_{m}")


controls.linked_view("validation.metric", figs.METRICS, figs.METRICS[0], tr=tr, label=tr("val_metric"),
                     shows=metric_option)  # fmt: skip
metric = st.radio(
    tr("val_metric"),
    figs.METRICS,
    format_func=metric_option,
    key="validation.metric",
    horizontal=True,
    help=tr("val_metric_help"),
    persist_state="session",
)
engine_ids = figs.engines(table)
engine_labels = cache.built(
    f"validation-engine-labels|{tr.lang}", lambda: {p: figs.engine_label(p, table, tr) for p in engine_ids}
)
controls.linked_view("validation.engines", engine_ids, list(engine_ids), tr=tr, label=tr("val_engines"),
                     shows=engine_labels.__getitem__)  # fmt: skip
chosen = st.multiselect(  # the page's width: in two-thirds of a 900 px frame its last engine was hidden
    tr("val_engines"),
    engine_ids,
    format_func=engine_labels.__getitem__,
    key="validation.engines",
    help=tr("val_engines_help"),
    persist_state="session",
)
controls.linked_view("validation.include_all", default=False, tr=tr, label=tr("val_include_all"))
include_all = st.checkbox(
    tr("val_include_all"), key="validation.include_all", help=tr("val_include_all_help"), persist_state="session"
)
choice = [metric, sorted(chosen), include_all]
rows, points = cache.built(
    f"validation-rows|{choice}",
    lambda: (r := figs.select_rows(table, chosen, include_all), figs.scatter_data(r, metric)),
)
if len(points):
    chart.figure(lambda: figs.scatter(points, metric, tr=tr), lambda: figs.export_table(points), f"validation-{metric}",
                 tr, about=None, depends=choice)  # fmt: skip
    st.caption(tr(f"val_scatter_caption_{metric}", n=len(points)))
    dropped = int(figs.predicted(rows).sum()) - len(points)
    if dropped:
        st.caption(tr("val_scatter_dropped", n=dropped))
else:
    st.info(tr("val_scatter_no_tpot" if figs.predicted(rows).any() else "val_scatter_none"))

chart.fold(tr, tr("embed_more_validation"))  # a wiki's frame: the engines and the scatter; the rest on request

st.header(tr("val_h_table"))
errors = cache.arrow_table(f"validation-errors|{choice}|{tr.lang}", lambda: figs.error_table(rows, tr))
st.dataframe(errors, hide_index=True, column_config=validation_data.column_config(tr))
st.caption(tr("val_table_caption", n=len(rows)))

st.header(tr("val_h_mlperf"))
mlperf_rows = cache.mlperf_table()
mlperf_all, mlperf_new = (
    figs.summary(mlperf_rows["locfo_error"]),
    figs.summary(mlperf_rows.loc[mlperf_rows["round"] == mlperf_rows["round"].max(), "locfo_error"]),
)
st.markdown(
    tr(
        "val_mlperf_intro",
        n=len(mlperf_rows),
        rounds=fmt.span(mlperf_rows["round"]),  # the fitted rounds ('v4.1–v5.1')
        chips=mlperf_rows["hardware_id"].nunique(),
        locfo=fmt.pct(mlperf_all.median, 1),
        fit=fmt.pct(figs.summary(mlperf_rows["error"]).median, 1),
        newest=mlperf_rows["round"].max(),
        locfo_new=fmt.pct(mlperf_new.median, 1),
    )
)


def group_option(g: str) -> str:
    return tr(f"val_mlperf_group_{g}")


controls.linked_view("validation.mlperf_group", figs.MLPERF_GROUPS, "hardware_name", tr=tr,
                     label=tr("val_mlperf_group"), shows=group_option)  # fmt: skip
mlperf_group = st.segmented_control(
    tr("val_mlperf_group"),
    list(figs.MLPERF_GROUPS),
    format_func=group_option,
    key="validation.mlperf_group",
)
mlperf_group = mlperf_group or "hardware_name"
chart.figure(
    lambda: figs.mlperf_errors(mlperf_rows, mlperf_group, tr=tr),
    lambda: figs.export_table(mlperf_rows),
    f"validation-mlperf-{mlperf_group}",
    tr,
    about=None,
    depends=mlperf_group,
)
st.caption(tr("val_mlperf_caption"))
st.table(  # headers in words, errors in % to one decimal (they had read 0.1355, then 13.14% beside 23.2%); static,
    # as the bands' table: it wraps in a narrow frame (a scrolled grid had hidden its error columns at 900 px)
    cache.arrow_table(
        f"validation-mlperf-summary|{mlperf_group}|{tr.lang}",
        lambda: figs.mlperf_summary_display(
            figs.mlperf_summary(mlperf_rows, mlperf_group, percent=True), mlperf_group, tr=tr
        ),
    ),
    hide_index=True,
)

st.header(tr("val_h_bands"))
coverage = figs.band_coverage(cache.calibration_bands())
if coverage.empty:
    st.info(tr("val_bands_none"))
else:
    overall = coverage.iloc[-1]
    st.markdown(tr("val_bands_intro", n=int(overall["n"]), coverage=fmt.pct(overall["coverage"], 0),
                   ratio=f"{overall['median_high_low_ratio']:.2f}"))  # fmt: skip
    shown = cache.arrow_table(f"validation-bands|{tr.lang}", lambda: figs.band_coverage_display(coverage, tr))
    st.table(shown, hide_index=True)  # static, as the engine summary
    st.caption(tr("val_bands_caption"))

st.header(tr("val_h_time"))
over_time = cache.built("validation-over-time|llama.cpp", lambda: figs.engine_over_time(table, "llama.cpp"))
if over_time.empty:
    st.info(tr("val_time_none"))
else:
    # the model as its measurements name it ('Meta-Llama-3-8B (GGUF)'), not the catalog id it is modelled as
    st.markdown(tr("val_time_intro", engine="llama.cpp", model=tr.join(sorted(set(over_time["model"])))))
    chart.figure(lambda: figs.engine_over_time_figure(over_time, tr=tr), lambda: figs.export_table(over_time),
                 "validation-engine-over-time", tr, about=None, depends="llama.cpp")  # fmt: skip
    shown = cache.arrow_table(
        f"validation-over-time-display|llama.cpp|{tr.lang}",
        lambda: figs.engine_over_time_display(over_time, tr, cache.hardware()),
    )
    st.dataframe(shown, hide_index=True)

st.header(tr("val_h_findings"))
st.caption(tr("val_findings_intro"))
for key, values in cache.validation_findings():  # a weight format in bits read with its unit ('3 bits', '3 位元')
    st.markdown(
        tr(key, **(values | ({"weights": figs.weights_text(values["weights"], tr)} if "weights" in values else {})))
    )

st.header(tr("val_h_sources"))
st.caption(tr("val_sources_intro"))
st.markdown("\n\n".join(figs.source_lines(source_list, tr)))  # one element: each source its own paragraph
st.markdown(tr("val_trust_scale"))
if (box := expanders.lazy_expander(tr("val_mapping_title"), "validation.mapping_open")) is not None:
    box.markdown(tr("val_mapping_text"))
