"""Real browser (Debian chromium driven by Playwright) against the real server: every page, a shared link, embed.

Screenshots go to artifacts/screenshots/. Skipped only where chromium or playwright is missing (.ci/run installs both).
"""

from __future__ import annotations

import csv
import os
import re
from pathlib import Path

import pytest

from tests.server_util import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, ROOT, streamlit_server
from ui import fmt
from ui.i18n import EN, Translator

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium not installed (.ci/run installs it)"),
]

SHOTS = ARTIFACTS / "screenshots"
URL_PATHS = {
    "overview": "",
    "roofline": "roofline",
    "breakdown": "breakdown",
    "kv_cache": "kv_cache",
    "cost": "cost",
    "hardware": "hardware",
    "compare": "compare",
    "planner": "planner",
    "frontier": "frontier",
    "economics": "economics",
    "validation": "validation",
    "methodology": "methodology",
    "glossary": "glossary",
}
PAGES = [p for p in URL_PATHS if (ROOT / "pages" / f"{p}.py").exists()]
# every chart (ui.chart.figure, element key chart-<name>) drawn by plotly.js: the static plotly build was served and ran
CHARTS_DRAWN = """() => [...document.querySelectorAll('[data-testid="stElementContainer"][class*="st-key-chart-"]')]
    .every(c => c.querySelector('.js-plotly-plot .main-svg'))"""
SHARED = "model=deepseek-v3&hardware=b200&gpus=8&weights=nvfp4&kv=fp8&batch=64&context=8192&output=256&profile=ideal"


@pytest.fixture(scope="module")
def server():
    with streamlit_server() as (base, _):
        yield base


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    # Nothing but the local server: a guard against the page reaching out
    pg.route(re.compile(r"^(?!http://127\.0\.0\.1).*"), lambda route: route.abort())
    yield pg
    context.close()


def _settle(pg, timeout_ms: int = 90_000) -> None:
    """Wait until the app has rendered and its script run has finished."""
    pg.wait_for_selector('[data-testid="stApp"]', timeout=timeout_ms)
    pg.wait_for_selector('[data-testid="stMainBlockContainer"] [data-testid="stElementContainer"]', timeout=timeout_ms)
    pg.wait_for_timeout(500)  # let the status widget appear if the script is still running
    pg.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"
        " && !document.querySelector('[data-testid=\"stSkeleton\"]')",
        timeout=timeout_ms,
        polling=250,
    )
    pg.wait_for_function(CHARTS_DRAWN, timeout=timeout_ms, polling=100)
    pg.wait_for_timeout(1500)


def _no_exception(pg) -> None:
    assert pg.query_selector('[data-testid="stException"]') is None
    body = pg.inner_text("body")
    assert "Traceback" not in body and "Error running app" not in body


def _open(pg, base: str, path: str, query: str = "") -> None:
    pg.goto(f"{base}/{path}" + (f"?{query}" if query else ""), wait_until="domcontentloaded")
    _settle(pg)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_every_page(server, page, lang):
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name in PAGES:
        _open(page, server, URL_PATHS[name], f"lang={lang}")
        _no_exception(page)
        assert page.title() == Translator(lang)("app_title")  # the browser tab, in the page's language
        page.screenshot(path=str(SHOTS / f"{name}-{lang}.png"), full_page=True)


def test_shared_link_restores_scenario(server, page):
    _open(page, server, "", SHARED)
    _no_exception(page)
    main = page.inner_text('[data-testid="stMain"]')
    assert "DeepSeek" in main and "B200" in main and "nvfp4" in main
    assert "model=deepseek-v3" in page.url and "batch=64" in page.url
    page.screenshot(path=str(SHOTS / "shared-link.png"), full_page=True)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_sidebar_lists_every_page_in_the_pages_language(server, page, lang):
    """The sidebar's navigation shows all pages by their titles in the page's language, with no collapsed
    "View 3 more" (Streamlit's own words, English in zh-TW too)."""
    from ui import navigation

    tr = Translator(lang)
    _open(page, server, "roofline", f"lang={lang}")
    nav = page.inner_text('[data-testid="stSidebarNav"]')
    assert all(tr(title) in nav for _, title, _ in navigation.PAGES)
    assert "View" not in nav and "more" not in nav


def test_a_link_to_overview_by_its_file_name_opens_it(server, page):
    """/overview (Overview's file name, as every other page's address is its file's) opens Overview on every visit:
    Streamlit serves the default page at the root and had answered /overview with its English "Page not found" box
    on every visit but a fresh server's first (helper review), here the second."""
    for _ in range(2):
        _open(page, server, "overview", "lang=zh-TW&embed=true")
        _no_exception(page)
        assert "Page not found" not in page.inner_text("body")
        assert Translator("zh-TW")("app_title") in page.inner_text('[data-testid="stMain"]')


def test_favicon_is_the_local_static_file(server, page):
    """The tab's icon is static/favicon.png from this server (a static URL: no image opened on every run, no CDN)."""
    _open(page, server, "roofline")
    href = page.evaluate("() => document.querySelector('link[rel*=\"icon\"]').href")
    assert href.startswith(server) and href.endswith("/app/static/favicon.png")
    status, kind, size = page.evaluate(
        "async (u) => { const r = await fetch(u); const b = await r.arrayBuffer();"
        " return [r.status, r.headers.get('content-type'), b.byteLength]; }",
        href,
    )
    assert status == 200 and kind == "image/png" and size == (ROOT / "static" / "favicon.png").stat().st_size


# every kind of control a page or the sidebar draws, and the sidebar itself with its toggles
WIDGETS = ", ".join(f'[data-testid="{t}"]' for t in (
    "stSelectbox", "stMultiSelect", "stSlider", "stNumberInput", "stRadio", "stCheckbox", "stTextInput", "stTabs",
    "stDownloadButton", "stButton", "stExpander", "stFileUploader", "stSegmentedControl", "stToggle"))  # fmt: skip
SIDEBAR = '[data-testid="stSidebar"], [data-testid="stSidebarCollapseButton"], [data-testid="stExpandSidebarButton"]'


def _open_downloads(page) -> None:
    """Open the embed view's downloads section (under the controls; its buttons are sent once it is opened)."""
    section = page.locator('[data-testid="stExpander"]').filter(has_text=re.compile(r"Downloads of the|圖表的下載"))
    section.first.locator("summary").click()
    section.first.locator('[data-testid="stDownloadButton"]').first.wait_for(timeout=60_000)
    _settle(page)


def test_embed_view(server, page):
    """?embed=true: no sidebar (nor its toggle) and no navigation; the scenario's controls in one closed expander
    above the first chart; the downloads stay, in one closed section under it."""
    _open(page, server, "", SHARED + "&embed=true")
    _no_exception(page)
    assert not page.is_visible('[data-testid="stToolbarActions"]')
    assert page.query_selector('[data-testid="stSidebarNav"]') is None
    assert page.locator(SIDEBAR).count() == 0
    controls = page.locator('[data-testid="stExpander"]').filter(has_text=EN("embed_controls"))
    assert controls.count() == 1 and controls.locator('[data-testid="stSelectbox"]').count() == 0  # closed
    first_chart = page.locator(".tpot-chart").first.bounding_box()
    assert controls.bounding_box()["y"] < first_chart["y"]
    # the downloads: one closed section under the controls (its buttons sent once it is opened), above the charts
    downloads = page.locator('[data-testid="stExpander"]').filter(has_text=EN("embed_downloads", n=2))
    assert downloads.count() == 1 and downloads.bounding_box()["y"] < first_chart["y"]
    assert page.locator('[data-testid="stDownloadButton"]').count() == 0
    page.screenshot(path=str(SHOTS / "embed.png"), full_page=True)
    downloads.locator("summary").click()
    page.wait_for_selector('[data-testid="stDownloadButton"]', timeout=60_000)
    _settle(page)
    assert downloads.locator('[data-testid="stDownloadButton"]').count() == 5  # CSV + HTML of each chart, the zip
    controls.locator("summary").click()  # opened, it holds the sidebar's controls; a change reaches the page
    page.wait_for_selector('[data-testid="stExpander"] [data-testid="stSelectbox"]', timeout=60_000)
    _settle(page)
    slider = page.locator('[data-testid="stSlider"]').filter(has_text=re.compile("Batch")).get_by_role("slider")
    slider.focus()
    page.keyboard.press("Home")
    page.wait_for_function("() => /[?&]batch=1(&|$)/.test(window.location.search)", timeout=60_000)
    _settle(page)
    _no_exception(page)
    assert "model=deepseek-v3" in page.url  # the rest of the scenario kept


def test_embed_long_page_up_to_its_fold(server, browser):
    """Cost embedded in a 900 x 700 wiki frame (issue 19, fifty readers of one link): its numbers and the cost chart,
    then the switch naming what is below; turned on, the page's other four charts are drawn."""
    context = browser.new_context(viewport={"width": 900, "height": 700})
    pg = context.new_page()
    _open(pg, server, "cost", "model=deepseek-v3&hardware=b200&gpus=8&weights=fp8&batch=64&embed=true")
    _no_exception(pg)
    assert pg.locator(".js-plotly-plot").count() == 1
    more = pg.locator('[class*="st-key-embed-more"]')
    assert more.inner_text().strip() == EN("embed_more", what=EN("embed_more_cost"))
    more.locator("label").click()
    pg.wait_for_function("() => document.querySelectorAll('.js-plotly-plot').length === 5", timeout=90_000)
    _settle(pg)
    _no_exception(pg)
    context.close()


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_embed_one_chart_alone(server, browser, lang):
    """?embed=true&only=roofline on /roofline, in a 900 x 700 frame: exactly one chart, on screen, with its scenario
    and a link to the full view; no control of any kind, no sidebar, no sidebar toggle."""
    tr = Translator(lang)
    context = browser.new_context(viewport={"width": 900, "height": 700})
    pg = context.new_page()
    _open(pg, server, "roofline", f"{SHARED}&lang={lang}&embed=true&only=roofline")
    _no_exception(pg)
    assert pg.locator(".js-plotly-plot").count() == 1
    assert pg.locator('[data-testid="stElementContainer"][class*="st-key-chart-"]').count() == 1
    assert pg.locator(WIDGETS).count() == 0
    assert pg.locator(SIDEBAR).count() == 0
    box = pg.locator(".tpot-chart .main-svg").first.bounding_box()
    plot = pg.locator(".tpot-chart .nsewdrag").first.bounding_box()  # the plot area, its axes' data
    assert box["y"] < 200 and plot["y"] + plot["height"] <= 700  # the frame shows the chart (its legend may run on)
    main = pg.inner_text('[data-testid="stMain"]')
    assert "DeepSeek" in main and "B200" in main and tr("embed_full_view") in main
    link = pg.get_by_role("link", name=tr("embed_full_view"))
    href = link.get_attribute("href")
    assert "model=deepseek-v3" in href and "only=" not in href and "embed=" not in href
    at = link.bounding_box()  # the scenario and its link within the frame too (a tall legend pushed them below it)
    assert at["y"] + at["height"] <= 700
    pg.screenshot(path=str(SHOTS / f"embed-only-roofline-{lang}.png"))
    context.close()


# a headline number in the embed view (ui.metrics: one element for the row, not an st.metric each)
HEADLINE = ".headline-number"
# text cut short inside the elements `selector` matches: leaves whose box is narrower than their text, and inputs
# (a selectbox's chosen option) narrower than their value
CUT_TEXT = """selector => [...document.querySelectorAll(selector)].flatMap(el => [...el.querySelectorAll('*')])
    .filter(e => (e.tagName === 'INPUT' ? e.value.trim() && e.scrollWidth > e.clientWidth + 1
                  : e.children.length === 0 && e.textContent.trim()
                    && [e, e.parentElement].some(x => x.scrollWidth > x.clientWidth + 1)))
    .map(e => e.tagName === 'INPUT' ? e.value : e.textContent)"""


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_headline_numbers_are_not_cut_in_a_900_px_frame(server, browser, lang):
    """In the embed view at 900 x 700, every headline number's label, value and band reads whole, on each page that
    shows a row of them, at a scenario with long bands (DeepSeek-R1 on 8 x B200); the rows wrap instead."""
    context = browser.new_context(viewport={"width": 900, "height": 700})
    pg = context.new_page()
    scenario = "model=deepseek-r1&hardware=b200&gpus=8&weights=fp8&kv=fp8&batch=64"
    planner = [f"planner?planner_section={s}&" for s in ("hardware", "gpus", "capacity", "speculative")]
    # the Serving frontier's numbers at a target are below its fold: the link asks for the rest
    for path in ("", "roofline", "kv_cache", "cost", "frontier?more=true&", "validation", *planner):
        path, query = (path.split("?") + [""])[:2]
        _open(pg, server, path, f"{query}{scenario}&lang={lang}&embed=true")
        _no_exception(pg)
        assert pg.locator(HEADLINE).count() >= 2, path + query
        assert pg.evaluate(CUT_TEXT, HEADLINE) == [], path + query
    # a chip with no public price: a dash and why under it, not the words cut as the value ('No public pr…')
    _open(pg, server, "", f"model=llama-3.1-8b&hardware=rtx-4090&gpus=1&batch=1&lang={lang}&embed=true")
    assert pg.evaluate(CUT_TEXT, HEADLINE) == []
    assert Translator(lang)("no_public_price_short") in pg.locator(HEADLINE).all_inner_texts()[5]
    context.close()


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_controls_read_whole_in_a_900_px_frame(server, browser, lang):
    """In the embed view at 900 x 700: Planner › speculative decoding's draft chosen for DeepSeek-R1, its own MTP
    heads, reads whole ('MTP heads (multi-tok' in a quarter-width column), and so does Economics' button that puts
    the TCO to use on every page ('在各頁使用此每 GPU …')."""
    context = browser.new_context(viewport={"width": 900, "height": 700})
    pg = context.new_page()
    query = "planner_section=speculative&model=deepseek-r1&hardware=b200&gpus=8&weights=fp8&kv=fp8"
    _open(pg, server, "planner", f"{query}&lang={lang}&embed=true")
    _no_exception(pg)
    boxes = '[data-testid="stMain"] [data-testid="stSelectbox"]'
    chosen = pg.locator(f"{boxes} input").evaluate_all("xs => xs.map(x => x.value)")
    assert Translator(lang)("pl_spec_mtp") in chosen
    assert pg.evaluate(CUT_TEXT, boxes) == []
    # Llama 4 Scout ships no MTP module and has no smaller model of its family: the head's name reads whole too
    _open(pg, server, "planner", f"planner_section=speculative&model=llama-4-scout&lang={lang}&embed=true")
    chosen = pg.locator(f"{boxes} input").evaluate_all("xs => xs.map(x => x.value)")
    assert Translator(lang)("pl_spec_head") in chosen
    assert pg.evaluate(CUT_TEXT, boxes) == []
    _open(pg, server, "economics", f"lang={lang}&embed=true&more=true")  # the TCO: below the page's fold
    use_tco = '[data-testid="stMain"] [class*="st-key-econ-use_tco"]'
    assert Translator(lang)("ec_use_tco", hw="NVIDIA H200 SXM 141GB") in pg.locator(use_tco).inner_text()
    assert pg.evaluate(CUT_TEXT, use_tco) == []
    context.close()


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_validation_summary_tables_fit_a_900_px_frame(server, browser, lang):
    """Validation in the embed view at 900 x 700: the per-engine summary, the MLPerf summary and the bands' coverage
    are static tables that fit the page (as data grids their last columns sat past the frame's edge, cut mid-number,
    or showed headers over blank cells), and the engines
    chosen for the scatter all show in their box (in two-thirds of the width the fifth was hidden: 'no e')."""
    context = browser.new_context(viewport={"width": 900, "height": 700})
    pg = context.new_page()
    _open(pg, server, "validation", f"lang={lang}&embed=true&more=true")  # the bands: below the page's fold
    _no_exception(pg)
    tables = pg.locator('[data-testid="stTable"]')
    assert tables.count() == 3 and Translator(lang)("val_band_col_coverage") in tables.nth(2).inner_text()
    assert Translator(lang)("val_mlperf_col_locfo_p90_abs_error") in tables.nth(1).inner_text()
    assert tables.evaluate_all("ts => ts.filter(t => t.scrollWidth > t.clientWidth + 1).length") == 0
    past_edge = pg.evaluate("""() => {
        const m = document.querySelector('[data-testid="stMain"] [data-testid="stMultiSelect"]');
        const tags = [...m.querySelectorAll('span')].filter(e => e.children.length === 0 && e.textContent.trim());
        return [tags.length, tags.filter(t => t.getBoundingClientRect().right > m.getBoundingClientRect().right)
                                  .map(t => t.textContent)]; }""")
    assert past_edge == [5, []]
    context.close()


# the roofline's used-roof label and ridge-point circle, in page pixels: [label's box, circle's centre and radius]
ROOF_LABEL_AND_RIDGE = """(text) => {
    const gd = document.querySelector('[class*="st-key-chart-roofline"] .js-plotly-plot');
    const L = gd._fullLayout, box = gd.getBoundingClientRect();
    const ridge = gd._fullData.find(t => t.marker && t.marker.symbol === 'circle-open');
    const cx = box.left + L.xaxis._offset + L.xaxis.c2p(ridge.x[0]);
    const cy = box.top + L.yaxis._offset + L.yaxis.c2p(ridge.y[0]);
    const label = [...gd.querySelectorAll('.annotation')].find(a => a.textContent === text);
    const r = label.querySelector('.bg').getBoundingClientRect();
    return [[r.left, r.top, r.right, r.bottom], [cx, cy, ridge.marker.size / 2 + ridge.marker.line.width / 2]];
}"""


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_roofline_table_and_roof_label_read_whole_at_900_px(server, browser, lang):
    """A browser review of the Roofline page at 900 px with the sidebar open: the operator table (a data grid) hid
    its activations, intensity, time and bound columns past the frame's edge with no cue, and the roof's 'fp8 / int8
    1,979 TFLOP/s (used)' label sat on the ridge point's circle. The table is static and fits; the label clears the
    circle (by its own box against the circle's radius)."""
    tr = Translator(lang)
    context = browser.new_context(viewport={"width": 900, "height": 1000})
    pg = context.new_page()
    _open(pg, server, "roofline", f"lang={lang}")
    _no_exception(pg)
    assert pg.locator('[data-testid="stSidebar"]').is_visible()  # the narrowest page: its main column ~440 px
    (table,) = pg.locator('[data-testid="stTable"]').all()
    assert tr("roofline_col_time_us") in table.inner_text() and "8,240" in table.inner_text()
    # every cell inside the table's own box, the page's column (a table too wide is clipped there, not scrolled:
    # the element's scroll width stays its width)
    right, cells = table.evaluate(
        "t => [t.getBoundingClientRect().right,"
        " Math.max(...[...t.querySelectorAll('th, td')].map(c => c.getBoundingClientRect().right))]"
    )
    assert cells <= right + 1, (cells, right)
    used = tr("roofline_ceiling_used", precision="fp8 / int8", peak=fmt.tflops(1978.9e12))
    (left, top, right, bottom), (cx, cy, radius) = pg.evaluate(ROOF_LABEL_AND_RIDGE, used)
    nearest_x, nearest_y = min(max(cx, left), right), min(max(cy, top), bottom)  # the box's point nearest the centre
    assert (nearest_x - cx) ** 2 + (nearest_y - cy) ** 2 > radius**2, ((left, top, right, bottom), (cx, cy))
    context.close()


# the bubble chart's chip labels that cover each other by more than 2 px both ways (a line's own spacing): pairs
BUBBLE_LABELS_MEET = """() => {
    const root = document.querySelector('[class*="st-key-chart-hardware-bandwidth-by-year"]');
    const boxes = [...root.querySelectorAll('.scatterlayer .textpoint text')].filter(t => t.textContent.trim())
        .map(t => [t.textContent, t.getBoundingClientRect()]);
    return boxes.flatMap(([a, p], i) => boxes.slice(i + 1).filter(([, q]) =>
        Math.min(p.right, q.right) - Math.max(p.left, q.left) > 2 && Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 2)
        .map(([b]) => [a, b]));
}"""


# the bandwidth-by-year chart's labels that run past its plot's edges (where plotly clips them)
BUBBLE_LABELS_CUT = """() => {
    const root = document.querySelector('[class*="st-key-chart-hardware-bandwidth-by-year"]');
    const plot = root.querySelector('.draglayer .nsewdrag').getBoundingClientRect();
    return [...root.querySelectorAll('.scatterlayer .textpoint text')].filter(t => t.textContent.trim())
        .filter(t => { const r = t.getBoundingClientRect();
            return r.left < plot.left - 1 || r.right > plot.right + 1 || r.top < plot.top - 1 || r.bottom > plot.bottom + 1; })
        .map(t => t.textContent);
}"""


# a Breakdown bar chart's texts: its totals (in the plot), the cut bars' totals (over its frame), its x tick labels
# and the plot's area, as [text, left, top, right, bottom]
BREAKDOWN_TEXTS = """key => {
    const root = document.querySelector(`[class*="st-key-chart-${key}"]`);
    const box = e => { const r = e.getBoundingClientRect(); return [e.textContent, r.left, r.top, r.right, r.bottom]; };
    return {
        totals: [...root.querySelectorAll('.scatterlayer .textpoint text')].filter(t => t.textContent.trim()).map(box),
        cut: [...root.querySelectorAll('.annotation-text')].filter(t => t.textContent.includes('↑')).map(box),
        ticks: [...root.querySelectorAll('.xtick text')].map(box),
        plot: box(root.querySelector('.draglayer .nsewdrag')),
    };
}"""


def _meet(a, b, px: float = 1.0) -> bool:
    """Two [text, left, top, right, bottom] boxes overlapping by more than `px` both ways."""
    return min(a[3], b[3]) - max(a[1], b[1]) > px and min(a[4], b[4]) - max(a[2], b[2]) > px


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_breakdown_reads_whole_at_900_px(server, browser, lang):
    """Browser review of Breakdown at 900 px, the sidebar open (Llama 3.1 70B fp8 on 2 x H200, batch 32, 4K): the
    decomposition table hid its ideal-bound column ('Ideal bo…', a grid scrolled sideways); on the batch chart the cut
    bars' totals ran together ('↑ 88.9↑ 174↑ 344') with the ideal bound's line through '88.9'; '▼ current' ran into
    a neighbour's total ('29.7', '31.1'). As drawn: the table is static and fits, its ideal bound's column there; the
    cut totals stand apart over the plot's frame (where the line is clipped); the current scenario's word is under
    its tick, clear of every total."""
    tr = Translator(lang)
    context = browser.new_context(viewport={"width": 900, "height": 1000})
    pg = context.new_page()
    _open(pg, server, URL_PATHS["breakdown"], f"lang={lang}")
    _no_exception(pg)
    table = pg.locator('[data-testid="stTable"]')
    assert table.count() == 1 and pg.locator('[data-testid="stMain"] [data-testid="stDataFrame"]').count() == 0
    assert tr("breakdown_col_ideal_ms") in table.inner_text().replace("\n", "")
    assert table.evaluate("t => t.scrollWidth <= t.clientWidth + 1")
    for key in ("breakdown-batch", "breakdown-context"):
        pg.locator(f'[class*="st-key-chart-{key}"]').scroll_into_view_if_needed()
        got = pg.evaluate(BREAKDOWN_TEXTS, key)
        plot_top = got["plot"][2]
        assert all(c[4] <= plot_top + 1 for c in got["cut"]), got["cut"]  # over the frame
        assert not [(a[0], b[0]) for i, a in enumerate(got["cut"]) for b in got["cut"][i + 1 :] if _meet(a, b)]
        (current,) = [t for t in got["ticks"] if tr("breakdown_current") in t[0]]
        assert not [t[0] for t in got["totals"] + got["cut"] if _meet(current, t)]
        assert not [t[0] for t in got["totals"] if "▼" in t[0]]
        if key == "breakdown-batch":  # the review's three cut bars
            assert [c[0] for c in got["cut"]] == ["88.9↑", "174↑", "344↑"]
    context.close()


@pytest.mark.parametrize(("width", "query"), [(900, "embed=true"), (1400, ""), (900, ""), (900, "lang=zh-TW")])
def test_hardware_bubble_labels_do_not_meet(server, browser, width, query):
    """Every chip's label on Hardware's bandwidth-by-year chart reads on its own, in a 900 px wiki frame, at 1400 px
    beside the sidebar and at 900 px beside it: 'MI455X*' printed over 'TPU 8i*', 'TPU 8t*' over 'Trainium3' and
    five more pairs at 900 px (labels were placed for a 700 px plot; Chromium draws it 570 px wide there); beside
    the 900 px page's sidebar eleven pairs met ('MI250X' over 'H100 SXM5 80GB') in a 270 px plot, where the vendors
    now stand under it and a label that cannot read is left to the hover."""
    context = browser.new_context(viewport={"width": width, "height": 1000})
    pg = context.new_page()
    _open(pg, server, URL_PATHS["hardware"], query)
    _no_exception(pg)
    pg.wait_for_selector('[class*="st-key-chart-hardware-bandwidth-by-year"] .textpoint text', state="attached")
    assert pg.locator('[class*="st-key-chart-hardware-bandwidth-by-year"] .textpoint text').count() >= 30
    # none cut at the plot's edges either (plotly clips a label there: '00 40GB SXM4' at 900 px)
    assert pg.evaluate(BUBBLE_LABELS_CUT) == []
    assert pg.evaluate(BUBBLE_LABELS_MEET) == []
    context.close()


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_compare_with_three_scenarios_fits_a_900_px_frame(server, browser, lang):
    """Compare with B and C in the embed view at 900 x 700: the headline table fits the page (no column cut off or
    scrolled away) and every choice of B and C reads whole, in the settings section where they wait until it is
    opened."""
    tr = Translator(lang)
    context = browser.new_context(viewport={"width": 900, "height": 700})
    pg = context.new_page()
    _open(pg, server, "compare", f"model=deepseek-r1&hardware=b200&gpus=8&c_hardware=mi355x&lang={lang}&embed=true")
    _no_exception(pg)
    table = pg.locator('[data-testid="stTable"]')
    assert table.count() == 1 and tr("cmp_delta_col", x="C") in table.inner_text()
    assert table.evaluate("t => t.scrollWidth <= t.clientWidth + 1")
    assert pg.locator('[data-testid="stSelectbox"]').count() == 0  # B's and C's: sent once their section is opened
    settings = pg.locator('[data-testid="stExpander"]').filter(has_text=tr("embed_page_controls"))
    settings.first.locator("summary").click()
    pg.wait_for_function(
        '() => document.querySelectorAll(\'[data-testid="stExpander"] [data-testid="stSelectbox"]\').length >= 10',
        timeout=60_000,
    )
    _settle(pg)
    assert pg.locator('[data-testid="stSelectbox"]').count() >= 10
    assert pg.evaluate(CUT_TEXT, '[data-testid="stMain"] [data-testid="stSelectbox"]') == []
    context.close()


# each chart's title that runs past its chart's right edge or that its legend covers: (title, what is wrong)
TITLES_CUT = """() => [...document.querySelectorAll('.js-plotly-plot')].flatMap(plot => {
    const svg = plot.querySelector('.main-svg'), title = plot.querySelector('.gtitle');
    if (!svg || !title) return [];
    const t = title.getBoundingClientRect(), box = svg.getBoundingClientRect(), over = t.right - box.right;
    const legend = plot.querySelector('.legend'), l = legend && legend.getBoundingClientRect();
    const covered = l && l.width > 0 && l.left < t.right && t.left < l.right && l.top < t.bottom && t.top < l.bottom;
    const lines = [...title.querySelectorAll('.line')].map(s => s.getBoundingClientRect());
    const above = Math.max(0, ...[t, ...lines].map(r => box.top - r.top));
    return [...(over > 1 ? [[title.textContent, `${Math.round(over)} px past the chart`]] : []),
            ...(above > 1 ? [[title.textContent, `${Math.round(above)} px above the chart`]] : []),
            ...(covered ? [[title.textContent, 'under the legend']] : [])];
})"""


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_chart_titles_fit_their_chart_and_clear_its_legend_in_a_900_px_frame(server, browser, lang):
    """In the embed view at 900 x 700 (a wiki frame), no chart's title on any page runs past its chart or lies under
    its legend: half-width charts had titles cut mid-word ('Largest batch that fits in memory, by contex'), and a
    legend wrapping upwards covered its title."""
    context = browser.new_context(viewport={"width": 900, "height": 700})
    pg = context.new_page()
    cut = {}
    sections = [("planner", f"planner_section={s}&") for s in ("gpus", "capacity", "speculative", "levers")]
    for name, section in [(name, "") for name in PAGES] + sections:  # the Planner's tabs each drawn
        for scenario in ("", "model=deepseek-r1&hardware=b200&gpus=8&"):  # labels and legends differ
            _open(pg, server, URL_PATHS[name], f"{section}{scenario}lang={lang}&embed=true&more=true")  # every chart
            _no_exception(pg)
            if found := pg.evaluate(TITLES_CUT):
                cut[f"{name}?{section}{scenario}"] = found
    # one chart alone (?only=): the rack-scale view's title had been cut ('… best layout per interact')
    only = "embed=true&only=rack-scale-vs-scale-out&model=deepseek-r1&weights=nvfp4&kv=fp8&context=1024&output=1024"
    _open(pg, server, URL_PATHS["frontier"], f"{only}&lang={lang}")
    pg.wait_for_selector(".js-plotly-plot .gtitle", timeout=120_000)
    if found := pg.evaluate(TITLES_CUT):
        cut["frontier?only=rack-scale-vs-scale-out"] = found
    assert cut == {}
    # the roofline alone: the key to its ★ (the decode step) inside the 700 px frame (it was the legend's last row)
    _open(
        pg,
        server,
        URL_PATHS["roofline"],
        f"embed=true&only=roofline&model=deepseek-v3&hardware=b200&gpus=8&lang={lang}",
    )
    star = pg.locator(".legend .traces", has_text=Translator(lang)("roofline_point_decode"))
    assert star.count() == 1 and star.bounding_box()["y"] + star.bounding_box()["height"] <= 700
    context.close()


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_long_chart_titles_wrap_in_a_narrow_column(server, browser, lang):
    """At 900 px with the sidebar open (a ~600 px column), a title longer than its chart goes on as many lines as it
    needs, inside the chart, the plot moved down for them: the Serving frontier's and Planner's titles had been cut
    at the chart's edge ('… per GPU agains', '(On-dema')."""
    context = browser.new_context(viewport={"width": 900, "height": 900})
    pg = context.new_page()
    cut, wrapped = {}, 0
    for name, query in (("frontier", ""), ("planner", "planner_section=hardware&"), ("overview", "")):
        _open(pg, server, URL_PATHS[name], f"{query}lang={lang}")
        _no_exception(pg)
        pg.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTo(0, 1e6)")
        pg.wait_for_timeout(3000)  # the charts below the fold draw when they come near the screen
        if found := pg.evaluate(TITLES_CUT):
            cut[name] = found
        wrapped += pg.evaluate(
            "() => [...document.querySelectorAll('.gtitle')].filter(t => t.querySelectorAll('.line').length > 1).length"
        )
    assert cut == {} and wrapped >= 2
    context.close()


CHART_ROWS = """() => [...document.querySelectorAll('[data-testid=stHorizontalBlock]')]
    .filter(h => h.querySelector('.js-plotly-plot'))
    .map(h => [...h.querySelectorAll('.js-plotly-plot')].map(d => {
        const r = d.getBoundingClientRect(); return [Math.round(r.x), Math.round(r.y), Math.round(r.width)]; }))"""


def test_charts_side_by_side_stack_where_the_page_is_narrow(server, browser):
    """Cost's throughput and energy charts (two columns): at 900 px with the sidebar open each had a 212 px column (a
    115 px plot, its legend cut); there they stand one above the other, each as wide as the page's full-width charts
    (chart._STACK_CHARTS_CSS). At 1400 px they stay side by side."""
    widths = {}
    for width in (900, 1400):
        context = browser.new_context(viewport={"width": width, "height": 900})
        pg = context.new_page()
        _open(pg, server, "cost")
        _no_exception(pg)
        pg.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTo(0, 1e6)")
        pg.wait_for_timeout(3000)  # the charts below the fold draw when they come near the screen
        ((left, right),) = pg.evaluate(CHART_ROWS)
        full = pg.evaluate("() => document.querySelector('.js-plotly-plot').getBoundingClientRect().width")
        widths[width] = (left, right, full)
        context.close()
    (l9, r9, full9), (l14, r14, _) = widths[900], widths[1400]
    assert l9[0] == r9[0] and r9[1] > l9[1] and l9[2] == r9[2] == round(full9) and l9[2] >= 400  # stacked
    assert l14[1] == r14[1] and r14[0] > l14[0] + l14[2] - 1 and l14[2] >= 400  # side by side


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_methodology_formulas_fit_a_900_px_frame(server, browser, lang):
    """Every formula on Methodology reads whole in a 900 x 700 embed frame, tensor parallel on (the communication
    formula is drawn): it had run past the frame's edge after 'max(1,'; and none is clipped at its top or bottom (a
    fraction's numerator lost its top: 'F' read as 'F'')."""
    context = browser.new_context(viewport={"width": 900, "height": 700})
    pg = context.new_page()
    _open(pg, server, "methodology", f"gpus=8&lang={lang}&embed=true&more=true")  # below the fold too
    _no_exception(pg)
    formulas = pg.locator(".katex-display")
    assert formulas.count() >= 10 and any("comm" in t for t in formulas.all_text_contents())
    assert pg.evaluate("[...document.querySelectorAll('.katex-display')].filter(e => e.scrollWidth > e.clientWidth + 1)"
                       ".map(e => e.textContent.slice(0, 40))") == []  # fmt: skip
    assert pg.evaluate("[...document.querySelectorAll('.katex-display')].filter(e => e.scrollHeight > e.clientHeight)"
                       ".map(e => e.textContent.slice(0, 40))") == []  # fmt: skip
    context.close()


def test_embed_unknown_chart_says_so_and_shows_the_page(server, page):
    _open(page, server, "roofline", SHARED + "&embed=true&only=no-such-chart")
    _no_exception(page)
    warning = page.locator('[data-testid="stAlert"]').filter(has_text="no-such-chart")
    assert warning.count() == 1 and "roofline" in warning.inner_text()  # names the charts the page has
    assert page.locator(".js-plotly-plot").count() >= 1 and page.locator(HEADLINE).count() >= 1


def test_slider_redraws_chart(server, page):
    """A slider move redraws the charts in place (plotly.js updates the chart it drew: the same SVG, not a new plot,
    2-3x the time), and the chart's image export names the new scenario."""
    _open(page, server, "", "batch=32&lang=en")
    before = page.inner_text('[data-testid="stMetric"]')
    before_bars = [float(v) for v in page.evaluate("document.querySelector('.tpot-chart').data[0].x")]
    page.evaluate("document.querySelector('.tpot-chart .main-svg').tpotMark = 1")
    slider = page.locator('[data-testid="stSlider"]').filter(has_text=re.compile("Batch")).get_by_role("slider")
    slider.focus()
    page.keyboard.press("Home")
    page.wait_for_function(
        "() => window.location.search.includes('batch=1&') || window.location.search.endsWith('batch=1')",
        timeout=60_000,
    )
    _settle(page)
    assert page.inner_text('[data-testid="stMetric"]') != before
    _no_exception(page)
    bars = page.evaluate("document.querySelector('.tpot-chart').data[0].x")  # ideal bound and estimate, ms
    assert float(bars[1]) < before_bars[1] and float(bars[0]) < before_bars[0]  # batch 1 < batch 32
    assert page.evaluate("document.querySelector('.tpot-chart .main-svg').tpotMark") == 1  # updated, not redrawn
    chart = page.locator(".tpot-chart").first
    chart.hover()
    with page.expect_download() as download:
        chart.locator(f'.modebar-btn[data-title="{EN("chart_svg")}"]').click()
    assert "_b1_" in download.value.suggested_filename, download.value.suggested_filename


def test_chart_full_screen_and_width(server, page):
    """The modebar's full-screen button fills the screen and comes back; a chart follows its column's width."""
    _open(page, server, "roofline", "lang=en")
    chart = page.locator(".tpot-chart").first
    height, width = chart.bounding_box()["height"], chart.bounding_box()["width"]
    chart.hover()
    chart.locator(f'.modebar-btn[data-title="{EN("chart_fullscreen")}"]').click()
    page.wait_for_function("() => document.fullscreenElement?.classList.contains('tpot-chart')", timeout=10_000)
    page.wait_for_function("() => document.fullscreenElement.getBoundingClientRect().height >= window.innerHeight - 1")
    page.screenshot(path=str(SHOTS / "chart-full-screen.png"))
    page.evaluate("document.exitFullscreen()")
    page.wait_for_function(f"() => !document.fullscreenElement && "
                           f"Math.abs(document.querySelector('.tpot-chart').getBoundingClientRect().height - {height}) < 2",
                           timeout=10_000)  # fmt: skip
    page.locator('[data-testid="stSidebar"]').hover()  # the collapse button shows on hover
    page.locator('[data-testid="stSidebarCollapseButton"] button').click()  # the main column widens
    page.wait_for_function(f"() => document.querySelector('.tpot-chart .main-svg').getBoundingClientRect().width"
                           f" > {width} + 100", timeout=10_000)  # fmt: skip
    page.locator('[data-testid="stExpandSidebarButton"]').click()


def test_chart_modebar_speaks_the_page_language(server, page):
    """plotly.js's own hints (modebar) are translated with the page: its zh-TW locale, vendored beside the build."""
    for lang, autoscale in (("zh-TW", "自動縮放"), ("en", "Autoscale")):
        tr = Translator(lang)
        _open(page, server, "", f"lang={lang}")
        titles = (
            page.locator(".tpot-chart")
            .first.locator(".modebar-btn")
            .evaluate_all("buttons => buttons.map(b => b.getAttribute('data-title'))")
        )
        assert autoscale in titles and tr("chart_fullscreen") in titles, titles
        # our PNG / SVG (with the scenario and source) replace plotly's own PNG button (the chart as on screen)
        assert tr("chart_png") in titles and tr("chart_svg") in titles, titles
        assert "Download plot as a PNG" not in titles and "下載圖表為 PNG 圖檔" not in titles, titles
        assert "Share chart..." not in titles  # nothing offers to upload a chart to Plotly Cloud (zh-TW has no word)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_slide_image_title_clears_the_labels_above_the_plot(server, page, tmp_path, lang):
    """Overview's TPOT-targets chart exported for slides: its title and scenario lines sit at the image's top-left,
    clear of the target labels above the plot ('chat 50 ms' and 'agents 80 ms' had printed over the scenario)."""
    _open(page, server, "", f"model=deepseek-r1&hardware=b200&gpus=8&weights=fp8&kv=fp8&batch=64&lang={lang}")
    chart = page.locator('[class*="st-key-chart-tpot-targets"] .tpot-chart')
    chart.hover()
    with page.expect_download() as download:
        chart.locator(f'.modebar-btn[data-title="{Translator(lang)("chart_svg")}"]').click()
    saved = tmp_path / "targets.svg"
    download.value.save_as(saved)
    viewer = page.context.new_page()
    viewer.goto(saved.as_uri())
    meet = viewer.evaluate("""() => {
        const box = e => e.getBoundingClientRect();
        const title = [...document.querySelectorAll('.gtitle')].map(box);
        const labels = [...document.querySelectorAll('.annotation-text')].map(e => [e.textContent, box(e)]);
        return labels.filter(([, b]) => title.some(t => b.left < t.right && t.left < b.right && b.top < t.bottom
            && t.top < b.bottom)).map(([text]) => text);
    }""")
    left, top = viewer.evaluate("() => { const r = document.querySelector('.gtitle').getBoundingClientRect();"
                                " return [r.left, r.top]; }")  # fmt: skip
    viewer.close()
    assert meet == [] and left >= 10 and top >= 8  # set in from the edges, not cut at the top


@pytest.mark.parametrize("fmt", ["svg", "png"])
def test_chart_image_for_slides_carries_scenario_and_source(server, page, tmp_path, fmt):
    """The modebar's PNG / SVG: the chart with its scenario under the title and the 'source: ..., date' footnote,
    named after the chart and its scenario."""
    import datetime as dt

    _open(page, server, "roofline", SHARED + "&lang=en")
    chart = page.locator(".tpot-chart").first
    chart.hover()
    with page.expect_download() as download:
        chart.locator(f'.modebar-btn[data-title="{EN(f"chart_{fmt}")}"]').click()
    name = download.value.suggested_filename
    assert name == f"roofline_deepseek-v3_8xb200_nvfp4-fp8_b64_ctx8192_out256_ideal.{fmt}", name
    saved = tmp_path / name
    download.value.save_as(saved)
    data = saved.read_bytes()
    if fmt == "png":
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
        return
    text = data.decode("utf-8")
    assert "DeepSeek" in text and "8 × NVIDIA B200" in text and "batch 64" in text  # the scenario line
    assert "Source: TPOT dashboard" in text and dt.date.today().isoformat() in text  # the footnote


def test_each_page_zip_of_charts_is_named_for_its_page(server, page, tmp_path):
    """'Download all charts' gave every page's zip one name ('charts_<scenario>.zip'): Overview's, Cost's and KV
    cache's collided in a downloads folder. The zip is named for its page, and holds that page's charts."""
    import zipfile

    for path, page_id in (("", "overview"), ("kv_cache", "kv_cache")):
        _open(page, server, path, "lang=en")
        with page.expect_download() as download:
            page.locator('[class*="st-key-charts-zip"] button').click()
        name = download.value.suggested_filename
        assert name.startswith(f"{page_id}-charts_llama-3.1-70b_2xh200_") and name.endswith(".zip"), name
        saved = tmp_path / name
        download.value.save_as(saved)
        with zipfile.ZipFile(saved) as z:
            assert sum(n.endswith(".html") for n in z.namelist()) >= 2


def test_downloaded_chart_works_offline_in_the_page_language(server, page, tmp_path):
    """The 'chart (HTML)' download is the interactive chart on its own (plotly.js inline), zh-TW modebar included."""
    _open(page, server, "", "lang=zh-TW")
    with page.expect_download() as download:
        page.get_by_role("button", name=Translator("zh-TW")("download_html")).first.click()
    saved = tmp_path / "chart.html"
    download.value.save_as(saved)
    html = saved.read_text(encoding="utf-8")
    assert "<title>" in html and html.count("* plotly.js (cartesian - minified) v") == 1  # inline once: 1.5 MB
    offline = page.context.new_page()
    offline.route(re.compile(r"^https?://"), lambda route: route.abort())  # nothing from a server or the internet
    offline.goto(saved.as_uri())
    offline.wait_for_selector(".js-plotly-plot .main-svg", timeout=30_000)
    titles = offline.locator(".modebar-btn").evaluate_all("buttons => buttons.map(b => b.getAttribute('data-title'))")
    assert "下載圖表為 PNG 圖檔" in titles and "Share chart..." not in titles, titles
    title = offline.locator(".gtitle").first.text_content()
    assert "Llama 3.1 70B" in title and "批次 32" in title  # the scenario under the chart's title, in its language
    assert "資料來源" in offline.locator(".annotation-text").last.text_content()  # the source footnote
    assert "Llama 3.1 70B" in offline.title()
    offline.close()


def test_planner_tab_click_draws_its_section(server, page):
    _open(page, server, "planner", "lang=en")
    page.get_by_role("tab", name=EN("pl_tab_gpus")).click()
    page.wait_for_function("() => window.location.search.includes('planner_section=gpus')", timeout=60_000)
    _settle(page)
    _no_exception(page)
    assert EN("pl_tp_title", batch=32) in page.inner_text('[data-testid="stMain"]')
    assert page.locator(".tpot-chart .main-svg").count() >= 4  # frontier, TP, pipeline (two panels)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_planner_layout_search_in_the_browser(server, page, tmp_path, lang):
    """Issue 18: the GPU-count tab's layout search on GB200 (budget = the NVL72 domain, 72): the budget bar drawn,
    the inputs in the URL, its CSV names the budget and the serving mode searched; embed view too, where a reader's
    run of its own link leaves the link as given (issue 19: no URL message to every reader of a wiki link)."""
    tr = Translator(lang)
    q = f"planner_section=gpus&model=deepseek-r1&hardware=gb200&gpus=8&weights=fp8&kv=fp8&lang={lang}"
    for query in (q, q + "&embed=true"):
        _open(page, server, "planner", query)
        _no_exception(page)
        page.wait_for_selector('[class*="st-key-chart-planner-layout"] .js-plotly-plot .main-svg', timeout=90_000)
        if "embed=true" in query:
            assert "planner_max_gpus" not in page.url and "planner_serving" not in page.url, page.url
        else:
            page.wait_for_function("() => window.location.search.includes('planner_max_gpus=72')", timeout=60_000)
            assert "planner_serving=best" in page.url
        title = page.locator('[class*="st-key-chart-planner-layout"] .gtitle').text_content()
        assert title == tr("pl_layout_title", n=72)
    _open_downloads(page)  # the last view opened is the embed view: its charts' downloads wait in one section
    with page.expect_download() as download:
        page.locator('[class*="st-key-csv-planner-layout"] button').click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    cols = next(csv.DictReader(saved.read_text(encoding="utf-8-sig").splitlines()))
    assert (cols["max_gpus"], cols["serving_searched"], cols["usable_memory_basis"]) == ("72", "best", "reported")
    assert 8 < int(cols["gpus_used"]) <= 72


def test_chart_says_so_when_plotly_cannot_load(server, browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    pg.route(re.compile(r".*/app/static/plotly-.*\.js$"), lambda route: route.abort())
    pg.goto(f"{server}/roofline?lang=zh-TW", wait_until="domcontentloaded")
    pg.wait_for_function("() => document.querySelector('.tpot-chart')?.textContent", timeout=90_000)
    assert pg.locator(".tpot-chart").first.inner_text() == Translator("zh-TW")("chart_load_error")
    context.close()


def test_a_chart_module_that_fails_to_load_says_so_and_the_next_chart_tries_again(server, browser):
    """The chart code is a module from static/ (static/plotly_chart.js), imported once per browser page by the loader
    each chart element carries (ui/chart_loader.js). A refused first fetch: each chart says why in a note of its own;
    a browser keeps a failed module, so the next page's chart imports it again (a query of its own) and draws."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    fetches: list[str] = []

    def first_refused(route) -> None:
        fetches.append(route.request.url)
        route.abort() if len(fetches) == 1 else route.continue_()

    pg.route(re.compile(r".*/app/static/plotly_chart\.js\?.*"), first_refused)
    pg.goto(f"{server}/cost?lang=zh-TW", wait_until="domcontentloaded")
    pg.wait_for_function("() => document.querySelector('.tpot-chart-error')?.textContent", timeout=90_000)
    assert pg.locator(".tpot-chart-error").first.inner_text() == Translator("zh-TW")("chart_load_error")
    pg.get_by_role("link", name=Translator("zh-TW")("page_roofline")).first.click()  # in the page: no reload
    pg.wait_for_function("() => document.querySelector('.tpot-chart .main-svg')", timeout=90_000)
    assert len(fetches) == 2 and "&r=2" in fetches[1]
    context.close()


def test_deep_link_is_the_first_request_a_fresh_server_sees(browser):
    """A wiki link to a page, followed right after the server (re)started, opens that page: Streamlit resolves the
    first request through pages/ by file name, before app.py's navigation exists (it said 'Page not found')."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    with streamlit_server() as (fresh, _):
        _open(pg, fresh, URL_PATHS["kv_cache"], "batch=64")
        _no_exception(pg)
        assert pg.locator("text=Page not found").count() == 0
        assert pg.url.startswith(f"{fresh}/{URL_PATHS['kv_cache']}?") and "batch=64" in pg.url
    context.close()


def test_deep_links_opened_at_once_on_a_fresh_server_each_get_the_apps_frame(browser):
    """A wiki page of several embeds, opened right after the server (re)started: every link starts in Streamlit's
    legacy pages/ mode, and only the first session to switch the process to st.navigation had rerun through app.py;
    the others drew their page under Streamlit's own list of files ('app, breakdown, compare...') or stopped at its
    fold (a browser review). Each session now reruns through app.py until app.py has marked it."""
    context = browser.new_context(viewport={"width": 900, "height": 700})
    paths = [f"{URL_PATHS[name]}?embed=true" for name in ("breakdown", "kv_cache", "economics", "roofline")]
    with streamlit_server() as (fresh, _):
        pages = [context.new_page() for _ in paths]
        for pg, path in zip(pages, paths, strict=True):  # all requested before any has run
            pg.goto(f"{fresh}/{path}", wait_until="commit")
        for pg in pages:
            _settle(pg)
            _no_exception(pg)
            assert pg.locator('[data-testid="stSidebarNav"]').count() == 0  # no list of files: app.py's frame
            assert pg.locator("text=Page not found").count() == 0
            assert pg.locator('[data-testid="stExpander"]').filter(has_text=EN("embed_controls")).count() == 1
    context.close()


def test_bench_load_marks_time_the_floors_and_a_chart_page(server, browser):
    """The bench's in-page first-load marks complete, in order, on both floor apps and on a page with charts; where
    there are charts (the stock `st.plotly_chart` one included), `first_screen` waited for them (it found them)."""
    from benchmarks.bench import LOAD_MARKS

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.add_init_script(LOAD_MARKS)
    with (
        streamlit_server(script="benchmarks/floor_app.py") as (floor, _),
        streamlit_server(script="benchmarks/floor_chart_app.py") as (chart_floor, _),
    ):
        for url, has_charts in ((floor, False), (chart_floor, True), (f"{server}/roofline", True)):
            pg = context.new_page()
            pg.goto(url, wait_until="domcontentloaded")
            pg.wait_for_function("() => window.__tpotLoad && window.__tpotLoad.done", timeout=90_000, polling=100)
            marks = pg.evaluate("window.__tpotLoad")
            assert 0 < marks["content"] <= marks["first_screen"] <= marks["all_charts"], url
            assert (marks["first_screen_charts"] > 0) == has_charts, url
            pg.close()
    context.close()


if os.environ.get("KEEP_SCREENSHOTS_README"):  # pragma: no cover - refreshes the README picture by hand

    def test_readme_screenshot(server, page):
        _open(page, server, "", "")
        page.screenshot(path=str(ROOT / "docs" / "screenshot.png"), full_page=False)


def test_upload_hardware_file(server, page, tmp_path):
    """A user's hardware file is validated, used (option 'custom'), carried in the link, and reopens from it."""
    spec = tmp_path / "my_chip.yaml"
    spec.write_text(
        "my-chip:\n  name: My Chip 9000\n  memory_GB: 96\n  memory_bandwidth_TB_per_s: 4.0\n"
        "  dense_TFLOP_per_s: {bf16: 500, fp8: 1000}\n  price_usd_per_hour: 1.5\n"
    )
    _open(page, server, "", "lang=en")
    page.get_by_text("Your own hardware or model").click()
    page.locator('[data-testid="stFileUploader"]').first.locator('input[type="file"]').set_input_files(str(spec))
    page.wait_for_function("() => window.location.search.includes('custom_hw=')", timeout=60_000)
    _settle(page)
    _no_exception(page)
    assert "My Chip 9000" in page.inner_text('[data-testid="stMain"]')
    shared = page.url
    page.screenshot(path=str(SHOTS / "upload.png"), full_page=True)
    _open(page, server, "", shared.split("?", 1)[1])  # the shared link, in the same browser
    assert "My Chip 9000" in page.inner_text('[data-testid="stMain"]')


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_economics_capacity_page(server, page, lang):
    """The Economics page in a real browser: the capacity bars drawn (one per default chip), the table, the price
    basis and date beside the $, and a demand change that redraws the bars."""
    tr = Translator(lang)
    _open(page, server, "economics", f"lang={lang}&price_basis=hyperscaler&model=llama-3.1-8b&weights=fp8")
    _no_exception(page)
    main = page.inner_text('[data-testid="stMain"]')
    assert tr("ec_cap_h") in main and tr("ec_tco_h") in main and tr("ec_rev_h") in main
    assert tr("basis_hyperscaler") in main and "2026-09-20" in main
    # a horizontal bar per chip: its MW on x (capacity_figure)
    before = page.evaluate("document.querySelector('.tpot-chart').data.map(t => Number(t.x[0]))")
    assert len(before) == 3 and all(v > 0 for v in before)
    box = page.locator('[data-testid="stNumberInput"]').filter(has_text=tr("ec_out_per_day")).locator("input")
    box.fill("2000")
    box.press("Enter")
    page.wait_for_timeout(1000)
    _settle(page)
    after = page.evaluate("document.querySelector('.tpot-chart').data.map(t => Number(t.x[0]))")
    assert all(a > b for a, b in zip(after, before, strict=True))  # twice the demand: more megawatts on every chip
    page.screenshot(path=str(SHOTS / f"economics-{lang}.png"), full_page=True)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_frontier_rack_controls_read_whole_beside_the_sidebar_at_900_px(server, browser, lang):
    """Browser review: at 900 px with the sidebar open, the rack-scale view's budget and its two switches in three
    columns cut the first switch's label to 'Measured recip…': each reads whole, the switches one above the other."""
    tr = Translator(lang)
    context = browser.new_context(viewport={"width": 900, "height": 1000})
    pg = context.new_page()
    _open(pg, server, "frontier", f"lang={lang}")
    _no_exception(pg)
    assert pg.locator('[data-testid="stSidebar"]').is_visible()
    boxes = {}
    for key, label in (
        ("gpus", "fr_rack_budget"),
        ("recipes", "fr_rack_recipes"),
        ("best_engine", "fr_rack_best_engine"),
    ):
        control = f'[data-testid="stMain"] [class*="st-key-frontier-rack_{key}"]'
        assert tr(label) in pg.locator(control).inner_text()
        assert pg.evaluate(CUT_TEXT, control) == [], key
        boxes[key] = pg.locator(control).bounding_box()
    assert boxes["recipes"]["y"] + boxes["recipes"]["height"] <= boxes["best_engine"]["y"] + 1  # one above the other
    assert boxes["gpus"]["x"] + boxes["gpus"]["width"] <= boxes["recipes"]["x"]  # beside the budget
    context.close()


RACK = "model=deepseek-r1&weights=nvfp4&kv=fp8&fr_prec=fp4&fr_io=1k1k&profile=sglang&fr_engine=sglang"


def test_frontier_rack_tables_fit_beside_the_sidebar_at_900_px(server, browser):
    """Browser review: at 900 px with the sidebar open the rack-scale view's $ table (chip, basis and four targets)
    scrolled its 100 and 125 columns out of sight: its four tables (rates, advantage, $, the check's chips) are static
    tables that wrap, none wider than the frame, in zh-TW (the wider glyphs)."""
    tr = Translator("zh-TW")
    context = browser.new_context(viewport={"width": 900, "height": 1000})
    pg = context.new_page()
    _open(pg, server, "frontier", f"{RACK}&lang=zh-TW")
    _no_exception(pg)
    assert pg.locator('[data-testid="stSidebar"]').is_visible()
    pg.locator('[data-testid="stExpander"]').filter(has_text=tr("fr_rack_open")).locator("summary").click()
    pg.wait_for_selector('[class*="st-key-chart-rack-scale-vs-scale-out"] .js-plotly-plot .main-svg', timeout=180_000)
    _settle(pg, 180_000)
    _no_exception(pg)
    heads = [tr(k) for k in ("fr_rack_col_rates", "fr_rack_col_advantage", "fr_rack_col_usd", "fr_check_col_reading")]
    tables = pg.locator('[data-testid="stTable"]')
    shown = [tables.filter(has_text=h) for h in heads]
    assert [t.count() for t in shown] == [1, 1, 1, 1]
    for head, table in zip(heads, shown, strict=True):
        table.scroll_into_view_if_needed()
        assert table.evaluate("t => t.scrollWidth <= t.clientWidth + 1"), head
        inner = table.locator("table").bounding_box()
        frame = pg.locator('[data-testid="stMain"] [data-testid="stExpander"]').filter(has_text=head).bounding_box()
        assert inner["x"] + inner["width"] <= frame["x"] + frame["width"] + 1, head
    pg.locator('[data-testid="stTable"]').filter(has_text=heads[2]).screenshot(
        path=str(SHOTS / "frontier-rack-usd-900.png")
    )
    context.close()


@pytest.mark.parametrize(("lang", "embed"), [("en", False), ("zh-TW", False), ("en", True)])
def test_frontier_rack_scale_view(server, page, lang, embed):
    """Serving frontier, rack-scale vs scale-out: opened, the chart draws one line per chip (GB200 NVL72, HGX B200,
    MI355X, and the two projections dashed) with the measured rack-scale points, its CSV and HTML downloads, and the
    iso-interactivity table; in both languages and in the embed view."""
    tr = Translator(lang)
    # embedded, the view is below the page's fold: the link asks for the rest (?more=true)
    _open(page, server, "frontier", f"{RACK}&lang={lang}" + ("&embed=true&more=true" if embed else ""))
    _no_exception(page)
    page.locator('[data-testid="stExpander"]').filter(has_text=tr("fr_rack_open")).locator("summary").click()
    page.wait_for_selector('[class*="st-key-chart-rack-scale-vs-scale-out"] .js-plotly-plot .main-svg', timeout=180_000)
    _settle(page, 180_000)
    _no_exception(page)
    chart_el = page.locator('[class*="st-key-chart-rack-scale-vs-scale-out"]')
    names = page.evaluate(
        "document.querySelector('[class*=\"st-key-chart-rack-scale-vs-scale-out\"] .js-plotly-plot').data"
        ".map(t => [t.name, t.line ? t.line.dash : null])"
    )
    projections = {n for n, dash in names if dash == "dash"}  # each curve and its legend entry (its line alone)
    assert len(projections) == 2 and all(tr("fr_rack_projection", name="")[-3:] in n for n in projections)
    assert any("GB200" in n for n, _ in names) and any("MI355X" in n for n, _ in names)
    measured = tr("fr_rack_measured", hw="GB200 NVL72", devices=fmt.devices("gpu", 72, tr))
    assert any(measured == n for n, _ in names)  # as its curve is named
    main = page.inner_text('[data-testid="stMain"]')
    assert tr("fr_rack_ratio_h") in main and tr("fr_rack_h") in main
    assert page.locator('[data-testid="stTable"]').filter(has_text=tr("fr_rack_col_advantage")).count() == 1
    if embed:  # the charts' downloads wait in the section under the controls: open it
        _open_downloads(page)
    for kind in ("csv", "html"):  # the chart's own CSV and HTML
        assert (
            page.locator(f'[class*="st-key-{kind}-rack-scale-vs-scale-out"] [data-testid="stDownloadButton"]').count()
            == 1
        )
    chart_el.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"frontier-rack-{lang}{'-embed' if embed else ''}.png"), full_page=True)
