"""Entry point: page config, the shared sidebar scenario (in the URL), navigation. Run: streamlit run app.py"""

from pathlib import Path

import streamlit as st

from ui import chart, controls, notices

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
controls.sidebar()
notices.url_notices(controls.notices(), tr)
page.run()
