"""Entry point: page config, the shared sidebar scenario (in the URL), navigation. Run: streamlit run app.py"""

from pathlib import Path

import streamlit as st

from ui import chart, controls, embed, notices

embedded = chart.embedded()
st.set_page_config(
    page_title="TPOT dashboard",
    page_icon=Path(__file__).parent / "static" / "favicon.png",  # served locally: no request to an icon CDN
    layout="wide",
    initial_sidebar_state="collapsed" if embedded else "auto",
)
tr = controls.translator()

PAGES = [
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
]
# Each page's URL is its file's name: before a fresh server's first run, Streamlit resolves a deep link through the
# pages/ folder by file name (/kv-cache for pages/kv_cache.py showed "Page not found" to the first visitor)
pages = [
    st.Page(path, title=tr(title), icon=icon, url_path=Path(path).stem, default=(Path(path).stem == "overview"))
    for path, title, icon in PAGES
    if Path(path).exists()
]
page = st.navigation(pages, position="hidden" if embedded else "sidebar")
notices.url_notices(controls.notices(), tr)
only = embed.only_requested()  # ?embed=true&only=<chart id>: that chart alone (a notice and the page if none)
if only is None or not chart.only_view(page, only, tr):
    controls.sidebar()
    chart.start_page()
    page.run()
    chart.page_downloads(tr)
