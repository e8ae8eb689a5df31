"""Entry point: page config, the shared sidebar scenario (in the URL), navigation. Run: streamlit run app.py"""

import streamlit as st

from ui import cache, chart, controls, embed, navigation, notices

controls.mark_app_run()  # before anything reads the scenario: this run has app.py's frame
embedded = chart.embedded()
tr = controls.translator()
st.set_page_config(
    page_title=tr("app_title"),  # the browser tab's name where a page gives none, in the reader's language
    # static/favicon.png as Streamlit's static server serves it: no request to an icon CDN, and no image file opened
    # and registered on every run (a file path is read with PIL each time: ~1 ms a reader)
    page_icon="/app/static/favicon.png",
    layout="wide",
    initial_sidebar_state="collapsed" if embedded else "auto",
)

# every page listed: collapsed, Streamlit hid Validation, Methodology and Glossary behind its own "View 3 more", in
# English whatever the language
page = st.navigation(navigation.pages(tr), position="hidden" if embedded else "sidebar", expanded=True)
# the link's notices in one box at the top (the page's own join it): the sidebar's, and names no page reads with the
# one this page (its file's name) or the sidebar reads that each is likely meant for
notices.link_box(controls.notices(page.url_path or "overview"), tr, lambda: controls.sidebar_labels(tr))
only = embed.only_requested()  # ?embed=true&only=<chart id>: that chart alone (a notice and the page if none)
if only is None or not chart.only_view(page, only, tr):
    controls.sidebar(scenario=page.url_path not in navigation.SCENARIO_FREE)
    chart.start_page(tr)
    chart.run_page(page)  # in the embed view: up to the page's fold, unless the reader asks for the rest
    chart.end_page(tr)
    chart.page_downloads(tr, page.url_path)
cache.freeze_startup()  # once per process: what the first run loaded, out of the garbage collector's reach
