"""The chart component: a Plotly figure drawn by static/plotly_chart.js (the cartesian plotly.js build from static/), with
its downloads (CSV and standalone HTML that carry their scenario; PNG / SVG from the chart's modebar; every chart of
the page as a zip sharing one plotly.js); and the single-chart embed view (?embed=true&only=<chart id>)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Callable
from contextvars import ContextVar
from pathlib import Path
from typing import NamedTuple

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from . import cache, controls, expanders, export
from .embed import embedded, full_view_query, more_requested
from .figures import common as figure_common
from .i18n import Translator
from .state import sanitize

__all__ = ["downloads_here", "embedded", "end_page", "figure", "fold", "only_view", "page_downloads", "run_page", "slug",
           "start_page"]  # fmt: skip

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


CHART_MODULE = _STATIC / "plotly_chart.js"  # the chart's code, served from static/, imported once per browser page


def _component_js() -> str:
    """chart_loader.js, the code sent with every chart element, without its comments and indentation: it imports
    static/plotly_chart.js (?v= the first 12 hex digits of its SHA-256: a changed module is fetched anew) and hands
    each chart to it (the module had travelled with every chart element, ~7.3 KB each)."""
    version = hashlib.sha256(CHART_MODULE.read_bytes()).hexdigest()[:12]
    text = Path(__file__).with_name("chart_loader.js").read_text(encoding="utf-8").replace("__VERSION__", version)
    lines = (re.sub(r"\s+// .*$", "", line).strip() for line in text.splitlines())  # a line's own comment too
    return "\n".join(line for line in lines if line and not line.startswith("//"))


_CHART = st.components.v2.component(
    CHART_COMPONENT,
    js=_component_js(),
    isolate_styles=False,  # plotly.js styles its modebar and hover labels from the document's head
)


# The tests (TPOT_VALIDATE_FIGURES=1) build every cached chart again and compare: a `depends` that misses an input
# the chart reads would otherwise show one reader another's chart.
CHECK_CACHED = figure_common.VALIDATE
SIDEBAR = "sidebar"  # figure(about=...): the export states the sidebar's scenario
_ONLY: ContextVar[dict | None] = ContextVar("tpot_only_chart", default=None)  # the single-chart view's run
_PAGE_CHARTS: ContextVar[list | None] = ContextVar("tpot_page_charts", default=None)  # this run's charts, for the zip
# this run's sidebar scenario as its charts state it ({} until the first chart asks): a page's charts share it
_RUN_ABOUT: ContextVar[dict | None] = ContextVar("tpot_run_about", default=None)
_DOWNLOADS_SLOT: ContextVar = ContextVar("tpot_downloads_slot", default=None)  # embed view: where downloads go
_SOURCE_SLOT: ContextVar = ContextVar("tpot_source_slot", default=None)  # embed view: the source line and link
_ONLY_MISSING = "_only_missing"  # session key: (page, id asked for, its chart ids) after a run found no such chart


class _Folded(BaseException):  # noqa: N818 - not an error (see _Drawn)
    """The embed view has reached the page's fold and the reader has not asked for the rest: the run ends there."""


class _Drawn(BaseException):  # noqa: N818 - not an error: a BaseException, so that no page's `except` holds it
    """The single-chart view has drawn its chart: the rest of the page is not run."""


def slug(name: str) -> str:
    """A chart's id: its name in lower case with dashes; the start of its download file names, and ?only=<id>."""
    return export.slug(name)


def plotly_config(lang: str) -> dict:
    """The charts' plotly.js config: with plotly's own translations (modebar, hover hints) where it has them."""
    return {**PLOTLY_CONFIG, "locale": lang} if lang in PLOTLY_LOCALES else PLOTLY_CONFIG


def _plotly_text() -> str:
    return (_STATIC / PLOTLY_JS).read_text(encoding="utf-8")


def standalone_html(fig: go.Figure, lang: str, title: str = "") -> bytes:
    """The chart as one interactive HTML file with a <title>: plotly.js inline (the cartesian build, 1.5 MB, as on
    the page) and its locale for `lang` (modebar in the page's language), UTF-8."""
    return export.html_page(fig, plotly_config(lang), title, _plotly_text(), _LOCALE_JS.get(lang)).encode("utf-8")


def _title_text(decor: dict) -> str:
    """A decorated chart's title as plain text (for an HTML <title>)."""
    return _plain(decor["layout"]["title"]["text"])


def _plain(title: str) -> str:
    """A Plotly title as plain text: its tags (<br>, <span ...>) as ' · '."""
    return re.sub(r"(?:\s*<[^>]+>\s*)+", " · ", title).strip(" ·")


def figure(
    fig: go.Figure | Callable[[], go.Figure],
    table: pd.DataFrame | None | Callable[[], pd.DataFrame | None],
    name: str,
    tr: Translator,
    *,
    about: str | dict | None = SIDEBAR,
    depends: object = None,
) -> None:
    """Draw a Plotly figure; below it, download its data as CSV and the chart as a standalone interactive HTML, both
    stating the scenario (`about`: the sidebar's by default; a dict of export.scenario_fields' form; None for a chart
    that depends on no scenario) with the date and app version; the modebar downloads it as PNG / SVG with the same
    title and footnote. With `depends` (everything the chart depends on besides the sidebar scenario and the
    language, JSON-able), `fig` and `table` may be functions: built once per server for that key and shared by
    every session (with about None, the key leaves the sidebar's scenario out). In the single-chart embed view, only the chart asked for is drawn (and the run stops there)."""
    chart_id = slug(name)
    only = _ONLY.get()
    if only is not None:
        if chart_id not in only["seen"]:  # asked for by wanted_alone already
            only["seen"].append(chart_id)
        if chart_id != only["id"]:
            return
    sidebar_key = None
    if about == SIDEBAR:
        about, sidebar_key = _sidebar_about()
    stamp = export.stamp(lang=tr.lang)
    subtitle = export.caption(about, tr) if about else None

    def build() -> tuple[bytes, go.Figure, pd.DataFrame | None, dict]:
        f = fig() if callable(fig) else fig
        t = table() if callable(table) else table
        decor = export.export_decor(f, subtitle, export.footnote(stamp, tr))
        labels = {
            "fullscreen": tr("chart_fullscreen"),
            "load_error": tr("chart_load_error"),
            "png": tr("chart_png"),
            "svg": tr("chart_svg"),
        }
        stem = export.file_stem(chart_id, about, stamp)
        extras = json.dumps(
            {"config": plotly_config(tr.lang), "labels": labels, "export": {"decor": decor, "filename": stem}}
        )
        return f'{{"figure":{_json_slashes(pio.to_json(f, validate=False))},{extras[1:]}'.encode(), f, t, decor

    if depends is None:
        payload, fig_, table_, decor = build()
    else:
        # the sidebar's scenario (the language included); a chart of no scenario (about None): its language alone
        scenario = tr.lang if about is None else sidebar_key or cache.scenario_key(controls.scenario_state())
        key = json.dumps(["chart", chart_id, scenario, about, stamp, depends, figure_common.VALIDATE], default=str)
        fresh = []  # built in this run (a cache miss): nothing to check

        def build_here():
            fresh.append(True)
            return build()

        payload, fig_, table_, decor = cache.built(key, build_here)
        if CHECK_CACHED and not fresh and payload != build()[0]:  # a key missing an input of the chart fails loudly
            raise AssertionError(f"chart {chart_id!r}: the cached figure is not what its inputs build now (depends?)")
    if only is not None:
        with only["slot"]:  # the scenario and the link first: a tall legend pushed them below a 700 px frame
            said = [subtitle] if subtitle else []
            st.caption(" · ".join([*said, embed_source(tr), f"[{tr('embed_full_view')}](?{full_view_query()})"]))
            _CHART(data=payload, key=f"chart-{chart_id}")
        raise _Drawn
    _CHART(data=payload, key=f"chart-{chart_id}")
    drawn = PageChart(chart_id, export.file_stem(chart_id, about, stamp), fig_, table_, decor, about)
    charts = _PAGE_CHARTS.get()
    if charts is not None:
        charts.append(drawn)
    if charts is None or not embedded():  # in the embed view: in the page's one downloads section (page_downloads)
        _buttons(drawn, tr, stamp)


class PageChart(NamedTuple):
    """A chart a page drew, for its downloads: chart id, file stem, figure, table (or None), export decor, about."""

    id: str
    stem: str
    fig: go.Figure
    table: pd.DataFrame | None
    decor: dict
    about: dict | None


def _buttons(c: PageChart, tr: Translator, stamp: dict) -> None:
    """One chart's downloads side by side: its data as CSV (when it has a table) and the chart as standalone HTML."""
    with st.container(horizontal=True):
        if c.table is not None:
            st.download_button(
                tr("download_csv"),
                data=lambda: export.csv_bytes(c.table, c.about, stamp),
                file_name=f"{c.stem}.csv",
                mime="text/csv",
                key=f"csv-{c.id}",
                on_click="ignore",
                width="content",
            )
        st.download_button(
            tr("download_html"),
            data=lambda: standalone_html(export.apply_decor(c.fig, c.decor), tr.lang, _title_text(c.decor)),
            file_name=f"{c.stem}.html",
            mime="text/html",
            key=f"html-{c.id}",
            on_click="ignore",
            width="content",
        )


def _sidebar_about() -> tuple[dict, str]:
    """The sidebar's scenario as a chart's exports state it (controls.export_about) and its cache key: worked out
    once per page run (start_page, only_view; the sidebar has run by then), not once per chart."""
    memo = _RUN_ABOUT.get()
    if not memo:  # a page script run alone (None), or the run's first chart (empty)
        state = controls.scenario_state()
        about, key = controls.export_about(state), cache.scenario_key(state)
        if memo is None:
            return about, key
        memo.update(about=about, key=key)
    return memo["about"], memo["key"]


_ESCAPED_SLASH = re.compile(r"(?<!\\)((?:\\\\)*)\\u002f")


def _json_slashes(text: str) -> str:
    """Plotly's JSON with '/' as itself: plotly writes it \\u002f (safe inside an HTML <script>), 6 bytes for each
    '/' of the base64 arrays; the chart's payload is parsed as JSON, never put in HTML. Without an escaped backslash
    in the text (the usual case) a plain replace is exact, and far cheaper than the pattern."""
    return text.replace("\\u002f", "/") if "\\\\" not in text else _ESCAPED_SLASH.sub(r"\1/", text)


# Charts side by side (st.columns) one above the other where the main area is too narrow for two: a 900 px window
# with the sidebar open gave each a 212 px column (a 115 px plot, its legend cut). A container query on the main
# area's width (the sidebar open or closed), for rows that hold a chart; Streamlit itself stacks columns only below a
# 640 px window. Above 960 px each of two columns keeps ~400 px or more.
STACK_CHARTS_BELOW_PX = 960
_STACK_CHARTS_CSS = (
    '<style>[data-testid="stMain"]{container-type:inline-size}'
    f"@container (max-width:{STACK_CHARTS_BELOW_PX}px){{"
    '[data-testid="stHorizontalBlock"]:has(.js-plotly-plot){flex-direction:column}'
    '[data-testid="stHorizontalBlock"]:has(.js-plotly-plot)>[data-testid="stColumn"]{width:100%!important;'
    "flex:1 1 auto!important}}</style>"
)


# the embed view's page title a size smaller: a wiki's 700 px frame reaches the first chart sooner
_EMBED_TITLE_CSS = '<style>[data-testid="stMain"] h1{font-size:2rem!important;padding-top:0.5rem!important}</style>'


def embed_source(tr: Translator) -> str:
    """What an embedded view's numbers are and when they were drawn: 'TPOT dashboard 0.1.0: modelled values
    (measured ones name their source), 2026-12-06'."""
    stamp = export.stamp()
    return tr("embed_source", app=tr("app_name"), version=stamp["app_version"], date=stamp["exported_on"])


def start_page(tr: Translator) -> None:
    """Before a page runs: collect its charts (for page_downloads); in the embed view, say so above the page when
    its ?more= is neither yes nor no (with the link's other notices: under the first chart, it was missed), and keep
    the place at the top of the page where the downloads will wait (under the controls, where a wiki reader finds
    them) and, above it, the line saying what the numbers are with the link to the full view (end_page writes it);
    its title a size smaller; two charts side by side stacked where the page is narrow (_STACK_CHARTS_CSS)."""
    st.html(_STACK_CHARTS_CSS)
    # a wiki reader's frame: what the numbers are, when, and the way to the full view (its link written once the page
    # has run: a control changed in this run writes its parameter then, end_page)
    _SOURCE_SLOT.set(st.empty() if embedded() else None)
    if embedded():
        st.html(_EMBED_TITLE_CSS)
    if embedded() and more_requested() is None:
        st.warning(tr("embed_more_bad", given=sanitize(st.query_params.get("more", ""))), icon=":material/warning:")
    _PAGE_CHARTS.set([])
    _RUN_ABOUT.set({})
    _DOWNLOADS_SLOT.set(st.container() if embedded() else None)  # a block: nothing shown while it holds nothing


def end_page(tr: Translator) -> None:
    """After a page ran, in the embed view: the line at its top (start_page's place) with the link to the full view
    of the view as it is now."""
    if (slot := _SOURCE_SLOT.get()) is not None:
        slot.caption(f"{embed_source(tr)} · [{tr('embed_full_view')}](?{full_view_query()})")


def downloads_here() -> None:
    """In the embed view: the page's downloads section goes here instead of at the top of the page (a page whose
    charts all sit below its fold: opened, the section had stood above the page's title, far from its charts)."""
    if embedded() and _ONLY.get() is None:
        _DOWNLOADS_SLOT.set(st.container())


def fold(tr: Translator, what: str) -> None:
    """The end of what a wiki's frame shows of a page first (?embed=true): the rest of the page (`what` names it) is
    run and sent only once the reader turns on "Show the rest of this page" (or the link says ?more=true). Fifty
    readers of a link do not pay for sections below a 700 px frame that most of them never scroll to. Nothing in the
    full view, nor in the single-chart view (the chart asked for may be below)."""
    if not embedded() or _ONLY.get() is not None:
        return
    if not st.toggle(tr("embed_more", what=what), value=bool(more_requested()), key="embed.more"):
        raise _Folded


def run_page(page) -> None:
    """Run the page (st.navigation's); in the embed view, up to its fold unless the rest is asked for."""
    with contextlib.suppress(_Folded):
        page.run()


def page_downloads(tr: Translator, page_id: str = "") -> None:
    """After a page ran: every chart it drew (two or more) in one zip (each chart's HTML and CSV, one plotly.js beside
    them), named for the page (`page_id`: its URL path, '' for Overview) and the scenario. In the embed view, every
    chart's own downloads and the zip wait in one closed section under the controls (start_page kept its place),
    sent only once it is opened (a download button costs the server about a millisecond a reader: fifty wiki readers
    do not pay for buttons they do not see)."""
    charts = _PAGE_CHARTS.get()
    if not charts:
        return
    stamp = export.stamp(lang=tr.lang)
    if embedded():
        label = tr("embed_downloads", n=len(charts)) if len(charts) > 1 else tr("embed_downloads_one")
        box = expanders.lazy_expander(label, "embed.downloads", _DOWNLOADS_SLOT.get() or st)
        if box is None:
            return
        with box:
            for c in charts:  # each chart by its own title (the scenario, the same for all, is in each file)
                st.caption(_plain(str(c.fig.layout.title.text or c.id)))
                _buttons(c, tr, stamp)
            _zip_button(charts, tr, page_id, stamp)
    else:
        _zip_button(charts, tr, page_id, stamp)


def zip_about(charts: list[PageChart]) -> dict | None:
    """The scenario a page's zip is named for: the one most of its charts state (the Planner's first chart, its
    layout search within a GPU budget, is one of many on the sidebar's scenario), the first of equals; None without."""
    abouts = [c.about for c in charts if c.about]
    return max(abouts, key=abouts.count) if abouts else None


def _zip_button(charts: list[PageChart], tr: Translator, page_id: str, stamp: dict) -> None:
    if len(charts) < 2:  # one chart: its own HTML and CSV buttons are the page's downloads
        return
    about = zip_about(charts)
    st.download_button(
        tr("download_zip_two") if len(charts) == 2 else tr("download_zip", n=len(charts)),  # 'both', not 'all 2'
        data=lambda: charts_zip(charts, tr.lang, stamp),
        file_name=f"{export.file_stem((page_id or 'overview') + '-charts', about, stamp)}.zip",
        mime="application/zip",
        key="charts-zip",
        on_click="ignore",
        width="content",
    )


def charts_zip(charts: list[PageChart], lang: str, stamp: dict) -> bytes:
    """A zip of charts: every chart as HTML with its title and footnote, loading the one plotly.js (the cartesian
    build) beside them, and its data as CSV (a table two charts share, once: under the first one's name)."""
    files = {export.PLOTLY_FILE: _plotly_text().encode("utf-8")}
    for _, stem, fig, table, decor, about in charts:
        page = export.html_page(
            export.apply_decor(fig, decor), plotly_config(lang), _title_text(decor), None, _LOCALE_JS.get(lang)
        )
        files[f"{stem}.html"] = page.encode("utf-8")
        if table is not None and (data := export.csv_bytes(table, about, stamp)) not in files.values():
            files[f"{stem}.csv"] = data
    return export.zip_bytes(files)


def wanted_alone(name: str) -> bool:
    """Whether this run is the single-chart embed view of the chart `name` (a chart in a closed section still draws);
    in that view, `name` is one of the page's charts the notice of an unknown id lists, drawn or not."""
    only = _ONLY.get()
    if only is None:
        return False
    if slug(name) not in only["seen"]:
        only["seen"].append(slug(name))
    return only["id"] == slug(name)


def only_view(page, requested: str, tr: Translator) -> bool:
    """?embed=true&only=<chart id>: run the page sending nothing but that chart, with its scenario and a link to the
    full view (figure() draws it into a container made here, then stops the run). When the page has no such chart,
    the run starts over and this returns False after a notice naming the page's charts: show the whole embed view."""
    missing = st.session_state.get(_ONLY_MISSING)
    if missing is not None and missing[:2] == (page.url_path, requested):
        charts = tr.join(missing[2]) if missing[2] else "—"
        st.warning(tr("embed_only_unknown", given=sanitize(requested), charts=charts), icon=":material/warning:")
        return False
    only = {"id": requested, "seen": [], "slot": st.container()}
    token = _ONLY.set(only)
    _RUN_ABOUT.set({})
    try:
        with DeltaGenerator(root_container=None, cursor=None):  # the page's other elements go nowhere
            page.run()
    except _Drawn:
        return True
    finally:
        _ONLY.reset(token)
    st.session_state[_ONLY_MISSING] = (page.url_path, requested, only["seen"])
    st.rerun()
    return False  # not reached: st.rerun() ends the run
