"""The chart component: a Plotly figure drawn by plotly_chart.js (the cartesian plotly.js build from static/), with
its CSV and standalone-HTML downloads; and whether the page is embedded."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st

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
