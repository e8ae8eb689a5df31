"""Rendering helpers: a figure (drawn by the app's chart component: plotly_chart.js with the cartesian plotly.js build
from static/) with its CSV and standalone-HTML downloads, notices, and a metric with its formula."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st

from tpot_model.estimate import lower_formats, precision_that_fits
from tpot_model.planner import NODE_GPUS
from tpot_model.roofline import link_peak_bytes_per_s

from . import fmt
from .i18n import Translator

# no "Share chart" button: plotly.js 4 would offer to upload the chart's data to Plotly Cloud
PLOTLY_CONFIG = {"displaylogo": False, "responsive": True, "showSendToCloud": False}
# plotly.js, cartesian build (bar, heatmap, scatter: all the charts here draw), served by server.enableStaticServing
PLOTLY_JS = "plotly-cartesian-4.1.1.min.js"
# plotly.js's own translations of its modebar and hover hints, per app language (English is built in); each file
# registers itself with plotly.js, before or after it loads
PLOTLY_LOCALES = {"zh-TW": "plotly-locale-zh-tw-4.1.1.js"}
CHART_COMPONENT = "tpot_plotly_chart"
_STATIC = Path(__file__).resolve().parent.parent / "static"
_LOCALE_JS = {lang: (_STATIC / name).read_text(encoding="utf-8") for lang, name in PLOTLY_LOCALES.items()}
_CHART = st.components.v2.component(
    CHART_COMPONENT,
    js="".join(js + "\n" for js in _LOCALE_JS.values())
    + Path(__file__).with_name("plotly_chart.js").read_text().replace("__PLOTLY_FILE__", PLOTLY_JS),
    isolate_styles=False,  # plotly.js styles its modebar and hover labels from the document's head
)


def embedded() -> bool:
    """Whether the page is shown with ?embed=true (in a wiki's iframe): no downloads, no sidebar."""
    return bool(getattr(st.context, "is_embedded", False))


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "chart"


def plotly_config(lang: str) -> dict:
    """The charts' plotly.js config: with plotly's own translations (modebar, hover hints) where it has them."""
    return {**PLOTLY_CONFIG, "locale": lang} if lang in PLOTLY_LOCALES else PLOTLY_CONFIG


def standalone_html(fig: go.Figure, lang: str) -> bytes:
    """The chart as one interactive HTML file (plotly.js inline, and its locale for `lang`: modebar in the page's
    language), UTF-8."""
    html = fig.to_html(include_plotlyjs=True, full_html=True, config=plotly_config(lang))
    if lang in _LOCALE_JS:  # registered before plotly.js runs, which picks it up as it loads
        html = html.replace("<head>", f"<head><script>{_LOCALE_JS[lang]}</script>", 1)
    return html.encode("utf-8")


def figure(fig: go.Figure, table: pd.DataFrame | None, name: str, tr: Translator) -> None:
    """Draw a Plotly figure; below it, download its data as CSV and the chart as a standalone interactive HTML."""
    slug = _slug(name)
    labels = {"fullscreen": tr("chart_fullscreen"), "load_error": tr("chart_load_error")}
    config = plotly_config(tr.lang)
    extras = json.dumps({"config": config, "labels": labels})
    payload = f'{{"figure":{pio.to_json(fig, validate=False)},{extras[1:]}'
    _CHART(data=payload.encode("utf-8"), key=f"chart-{slug}")
    if embedded():
        return
    with st.container(horizontal=True):
        if table is not None:
            st.download_button(
                tr("download_csv"),
                data=lambda: table.to_csv(index=False).encode("utf-8"),
                file_name=f"{slug}.csv",
                mime="text/csv",
                key=f"csv-{slug}",
                on_click="ignore",
                width="content",
            )
        st.download_button(
            tr("download_html"),
            data=lambda: standalone_html(fig, tr.lang),
            file_name=f"{slug}.html",
            mime="text/html",
            key=f"html-{slug}",
            on_click="ignore",
            width="content",
        )


def url_notices(notices, tr: Translator) -> None:
    """One warning per bad URL parameter; the values were sanitised to plain text by ui.state."""
    for n in notices:
        key = "notice_snapped_param" if n.snapped else "notice_bad_param"
        st.warning(tr(key, param=n.param, given=n.given or "∅", used=n.used), icon=":material/warning:")


def lazy_expander(label: str, key: str, parent=st):
    """An expander (in `parent`) whose content is sent only while it is open (opening it reruns the page): its
    container when open, else None. Closed, it costs the browser one element, not its content (nor a table grid)."""
    box = parent.expander(label, key=key, on_change="rerun")
    return box if box.open else None


def explain(tr: Translator, title_key: str, formula: str, substituted: str, result: str, **title_values) -> None:
    """A 'how is this computed?' expander: the formula, the scenario's values substituted, the result."""
    what = tr(title_key, **title_values)
    if (box := lazy_expander(tr("how_computed", what=what), f"explain.{title_key}")) is not None:
        box.markdown(
            f"{tr('formula')}: {formula}\n\n{tr('with_values')}: {substituted}\n\n{tr('result')}: **{result}**"
        )


def fit_notice(est, tr: Translator) -> None:
    """When a (scalar) scenario does not fit: say by how much, and the remedies that work (GPUs, precision, batch)."""
    if bool(est.fits):
        return
    s = est.scenario
    min_gpus = float(est.min_gpus)
    remedies = [tr("remedy_gpus", n=int(min_gpus)) if min_gpus == min_gpus else tr("remedy_none")]
    if (fitting := precision_that_fits(est)) is not None:
        changes = [
            tr(f"remedy_precision_{kind}", fmt=f.name) for kind, f in zip(("weights", "kv"), fitting, strict=True) if f
        ]
        remedies.append(tr("remedy_precision", what=" + ".join(changes)))
    elif any(lower_formats(s, est.hardware)):
        remedies.append(tr("remedy_precision_not_enough"))
    if 1 <= int(est.max_batch) < int(s.batch):
        remedies.append(tr("remedy_batch", n=int(est.max_batch)))
    st.error(
        tr(
            "does_not_fit",
            need=fmt.gb(float(est.memory_per_gpu_bytes)),
            have=fmt.gb(est.usable_memory_per_gpu_bytes),
            gpus=int(s.num_gpus),
            hw=est.hardware.name,
            remedy=tr.join(remedies, "clause_sep"),
        ),
        icon=":material/block:",
    )


def split_notice(est, tr: Translator) -> None:
    """When tensor parallelism over the GPUs does not divide the model's attention heads (engines refuse it): say so,
    with the nearest GPU counts that do."""
    s, m = est.scenario, est.model
    n = int(s.num_gpus)
    if s.parallelism == "dp-ep" or m.num_heads % n == 0:
        return
    divisors = [d for d in range(1, m.num_heads + 1) if m.num_heads % d == 0]
    nearest = [max(d for d in divisors if d < n), *[d for d in divisors if d > n][:1]]
    st.info(
        tr("split_heads", gpus=n, model=m.name, heads=m.num_heads, options=tr.join([str(d) for d in nearest])),
        icon=":material/call_split:",
    )


def scale_notice(est, tr: Translator) -> None:
    """Past one server's GPUs: the all-reduces are still priced at the chip's own interconnect; say so."""
    n, bw = int(est.scenario.num_gpus), link_peak_bytes_per_s(est.hardware)
    if n > NODE_GPUS:
        st.info(
            tr("scale_beyond_node", gpus=n, hw=est.hardware.name, bw=fmt.gb_per_s(bw), node=NODE_GPUS),
            icon=":material/lan:",
        )


def context_notice(est, tr: Translator) -> None:
    """When prompt + output exceed the model's context window: the estimate extrapolates, say so."""
    tokens = int(est.scenario.context_tokens) + int(est.scenario.output_tokens)
    if tokens > est.model.max_context_tokens:
        st.warning(
            tr("context_over_max", tokens=f"{tokens:,}", model=est.model.name, max=f"{est.model.max_context_tokens:,}"),
            icon=":material/warning:",
        )
