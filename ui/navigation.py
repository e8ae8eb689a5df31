"""The app's pages (file, title, icon) and their st.Page objects: built once per process and language, not on every
run (fifty readers of one wiki link had each resolved and stat-ed thirteen page files, 2 ms a run)."""

from __future__ import annotations

import copy
import functools
from pathlib import Path

import streamlit as st

from .i18n import Translator

ROOT = Path(__file__).resolve().parent.parent
OVERVIEW = "pages/overview.py"
PAGES = (
    ("pages/overview.py", "page_overview", ":material/dashboard:"),
    ("pages/roofline.py", "page_roofline", ":material/show_chart:"),
    ("pages/breakdown.py", "page_breakdown", ":material/stacked_bar_chart:"),
    ("pages/kv_cache.py", "page_kv_cache", ":material/memory:"),
    ("pages/cost.py", "page_cost", ":material/payments:"),
    ("pages/hardware.py", "page_hardware", ":material/developer_board:"),
    ("pages/compare.py", "page_compare", ":material/compare_arrows:"),
    ("pages/planner.py", "page_planner", ":material/target:"),
    ("pages/frontier.py", "page_frontier", ":material/ssid_chart:"),
    ("pages/economics.py", "page_economics", ":material/factory:"),
    ("pages/validation.py", "page_validation", ":material/fact_check:"),
    ("pages/methodology.py", "page_methodology", ":material/functions:"),
    ("pages/glossary.py", "page_glossary", ":material/translate:"),
)

# the pages that read no sidebar scenario (their URL paths): their embed view offers no scenario controls
SCENARIO_FREE = frozenset({"validation", "glossary"})


def pages(tr: Translator) -> list[st.Page]:
    """The pages in tr's language, this run's own. Each page's URL is its file's name: before a fresh server's first
    run, Streamlit resolves a deep link through the pages/ folder by file name (/kv-cache for pages/kv_cache.py showed
    "Page not found" to the first visitor)."""
    # a shallow copy per run (microseconds; building them resolves and stats thirteen files): st.navigation marks the
    # page it picks as runnable and its run clears the mark, so sessions running one page at once must not share the
    # object (a session's run cleared it before another's ran: "This page cannot be called directly")
    return [copy.copy(p) for p in _pages(tr.lang)]


@functools.cache
def _pages(lang: str) -> tuple[st.Page, ...]:
    tr = Translator(lang)
    listed = tuple(
        st.Page(path, title=tr(title), icon=icon, url_path="" if path == OVERVIEW else Path(path).stem,
                default=path == OVERVIEW)
        for path, title, icon in PAGES
        if (ROOT / path).exists()
    )  # fmt: skip
    # Overview, the default page, is served at the root; a link to /overview (a page's file name, as every other
    # page's address is) runs it too, through a hidden page of that address: Streamlit had answered it with an
    # English "Page not found" box over Overview on every visit but a fresh server's first
    alias = [st.Page(OVERVIEW, title=tr("page_overview"), url_path="overview", visibility="hidden")]
    return listed + tuple(alias if (ROOT / OVERVIEW).exists() else ())
