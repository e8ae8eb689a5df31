"""Performance figures as JSON: model time per point and per 256 x 256 grid against a per-point Python loop (the way
the peer tools work), CLI sweep cost, each page's rerun time after a slider change (AppTest), import times, and each
page's first load in Chromium (page drawn, first screen, all charts; warm and cold browser cache), beside the floor that
Streamlit's own front-end sets (`floor_app.py`: a title and one widget) and the one Streamlit and Plotly set for a
chart page (`floor_chart_app.py`: the same with one small `st.plotly_chart`); each page's slider-to-redraw time in
Chromium; 50 readers opening one wiki link at once, beside 50 readers of the one-chart floor page, back to back; and
the server's CPU time per reader of one embedded link, for every page beside the floor page (readers one after
another: what each costs the server once the scenario's results and figures are shared).

Run: .venv/bin/python benchmarks/bench.py [--loop-points N] [--reruns N] [--browser-repeats N] [--no-browser]
     [--readers N] [--reader-rounds N] [--reader-links a,b] [--cpu-readers N] [--only section,...] [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tpot_model import Scenario, estimate, resolve_hardware, resolve_model, resolve_profile  # noqa: E402

BATCHES = np.arange(1, 257)
CONTEXTS = np.unique(np.round(np.geomspace(128, 131072, 256)))


def _median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def model_figures(loop_points: int) -> dict:
    """Grid in one vectorised call vs a per-point loop (sampled evenly over the same grid, then extrapolated)."""
    m, hw, prof = resolve_model("llama-3.1-70b"), resolve_hardware("h200"), resolve_profile("typical")

    def grid():
        return estimate(m, hw, Scenario(batch=BATCHES[:, None], context_tokens=CONTEXTS[None, :], num_gpus=2,
                                        weights="fp8"), prof).tpot_s  # fmt: skip

    grid()  # warm
    grid_s = _median_time(grid, 15)
    n = BATCHES.size * CONTEXTS.size
    pick = np.linspace(0, n - 1, loop_points).astype(int)
    pairs = [(int(BATCHES[i // CONTEXTS.size]), float(CONTEXTS[i % CONTEXTS.size])) for i in pick]
    t = time.perf_counter()
    loop_vals = [
        float(estimate(m, hw, Scenario(batch=b, context_tokens=c, num_gpus=2, weights="fp8"), prof).tpot_s)
        for b, c in pairs
    ]
    per_point_loop_s = (time.perf_counter() - t) / loop_points
    grid_vals = grid().ravel()[pick]
    assert np.allclose(grid_vals, loop_vals, rtol=1e-12), "vectorised and per-point results differ"
    return {
        "grid_points": n,
        "grid_one_call_ms": round(grid_s * 1e3, 2),
        "per_point_in_grid_us": round(grid_s / n * 1e6, 4),
        "per_point_loop_ms": round(per_point_loop_s * 1e3, 3),
        "loop_points_measured": loop_points,
        "loop_over_grid_extrapolated_s": round(per_point_loop_s * n, 1),
        "speedup_vs_loop": round(per_point_loop_s * n / grid_s),
    }


def _process_s(args: list[str], repeats: int = 5) -> float:
    def run():
        subprocess.run(args, cwd=ROOT, check=True, capture_output=True)

    return _median_time(run, repeats)


def cli_figures() -> dict:
    """Whole-process cost of `sweep` over 256 x 256 against a one-point sweep (CSV written in both)."""
    with tempfile.TemporaryDirectory() as tmp:
        base = [sys.executable, "-m", "tpot_model", "sweep", "--model", "llama-3.1-70b", "--hardware", "h200",
                "--gpus", "2", "--weights", "fp8"]  # fmt: skip
        one = _process_s([*base, "--batch", "8", "--context", "4096", "-o", f"{tmp}/one.csv"])
        grid = _process_s([*base, "--batch", "1:256", "--context", "128:131072", "-o", f"{tmp}/grid.csv"])
        rows = Path(f"{tmp}/grid.csv").read_text().count("\n") - 1
    return {"sweep_one_point_s": round(one, 3), "sweep_256x256_s": round(grid, 3), "grid_rows": rows,
            "ratio": round(grid / one, 2)}  # fmt: skip


def import_figures() -> dict:
    code = "import time; t=time.perf_counter(); import {m}; print(time.perf_counter()-t)"
    out = {}
    for label, module in (("tpot_model", "tpot_model"), ("ui_with_streamlit_plotly", "ui.controls, ui.figures.common")):
        vals = [
            float(
                subprocess.run(
                    [sys.executable, "-c", code.format(m=module)], cwd=ROOT, check=True, capture_output=True, text=True
                ).stdout
            )  # fmt: skip
            for _ in range(5)
        ]
        out[f"import_{label}_s"] = round(statistics.median(vals), 3)
    return out


def page_figures(reruns: int) -> dict:
    """Median rerun time per page after a sidebar slider change, Streamlit's own overhead included (AppTest). Every
    rerun moves the batch slider to a value that page has not been drawn at, with the app's caches emptied before each
    page, so no cached result or figure helps: the figure is a user's first visit to each scenario."""
    os.chdir(ROOT)
    import streamlit.testing.v1.app_test as app_test_mod
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.testing.v1 import AppTest

    class V2PagesManager(PagesManager):  # same AppTest workaround as tests/conftest.py
        def __init__(self, *a, **k):
            PagesManager.uses_pages_directory = False
            super().__init__(*a, **k)

    app_test_mod.PagesManager = V2PagesManager
    import streamlit as st

    from ui.state import BATCH_OPTIONS, ScenarioState

    batches = [b for b in BATCH_OPTIONS if b not in (ScenarioState().batch, 1)]
    out = {}
    AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    for page in sorted(p.stem for p in (ROOT / "pages").glob("*.py")):
        st.cache_data.clear()
        st.cache_resource.clear()
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
        if page != "overview":
            at.switch_page(f"pages/{page}.py").run()
        first = time.perf_counter()
        at.run()
        first = time.perf_counter() - first
        times = []
        for i in range(reruns):
            slider = at.sidebar.select_slider(key="batch").set_value(batches[i % len(batches)])
            t = time.perf_counter()
            slider.run()
            times.append(time.perf_counter() - t)
            assert not at.exception, f"{page}: {at.exception}"
        out[page] = {"rerun_median_ms": round(statistics.median(times) * 1e3, 1), "warm_run_ms": round(first * 1e3, 1)}
    return out


# Load marks, in ms since the navigation started: `content` once the script has run and the page (title, sidebar)
# is drawn; `first_screen` once, besides, every chart in the first screen (1400 x 1000) is drawn (and how many there
# are: `first_screen_charts`); `all_charts` once every chart is (those below the fold draw when the browser is idle).
LOAD_MARKS = """(() => {
  const marks = (window.__tpotLoad = {});
  const ms = () => Math.round(performance.now());
  const drawn = (c) => c.querySelector(".main-svg");
  const onScreen = (c) => { const r = c.getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; };
  const tick = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    const content = app && app.getAttribute("data-test-script-state") === "notRunning"
      && !document.querySelector('[data-testid="stSkeleton"]')
      && document.querySelector('[data-testid="stSidebar"] [data-testid="stSelectbox"]')
      && document.querySelector('[data-testid="stMain"] h1');
    if (content) {
      const charts = [...document.querySelectorAll('[data-testid="stElementContainer"][class*="st-key-chart-"]')];
      marks.content ??= ms();
      const firstScreen = charts.filter(onScreen);
      if (firstScreen.every(drawn) && marks.first_screen === undefined) {
        marks.first_screen = ms();
        marks.first_screen_charts = firstScreen.length;
      }
      if (charts.every(drawn)) marks.all_charts ??= ms();
    }
    if (marks.first_screen && marks.all_charts) marks.done = true;
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();"""


def browser_figures(repeats: int) -> dict:
    """First load of each page, server warm, timed in the page from the start of navigation (LOAD_MARKS): in a new
    browser profile (cold cache: the 1.5 MB plotly.js build is fetched and compiled) and in one that has opened the
    app before (warm cache, the usual case for a link followed from a wiki; median of `repeats` loads). Also the
    floors: the same figures for `floor_app.py` (a title and one widget: Streamlit's own front-end) and for
    `floor_chart_app.py` (the same with one small `st.plotly_chart`: Streamlit and Plotly, the stock way)."""
    from tests.server_util import CHROMIUM, CHROMIUM_ARGS, streamlit_server

    if not Path(CHROMIUM).exists():
        return {"skipped": "no /usr/bin/chromium"}
    from playwright.sync_api import sync_playwright

    from tests.test_browser import PAGES, URL_PATHS

    def new_context(browser):
        ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
        ctx.add_init_script(LOAD_MARKS)
        return ctx

    def load_marks_s(ctx, url: str) -> dict:
        page = ctx.new_page()
        page.goto(url, wait_until="domcontentloaded")
        page.wait_for_function("() => window.__tpotLoad && window.__tpotLoad.done", timeout=120_000, polling=100)
        marks = page.evaluate("window.__tpotLoad")
        page.close()
        return {k: marks[k] / 1e3 for k in ("content", "first_screen", "all_charts")}

    def figures(browser, shared, url: str) -> dict:
        fresh = new_context(browser)
        cold = load_marks_s(fresh, url)
        fresh.close()
        warm = [load_marks_s(shared, url) for _ in range(repeats)]
        return {
            "content_warm_s": round(statistics.median(m["content"] for m in warm), 2),
            "first_screen_warm_s": round(statistics.median(m["first_screen"] for m in warm), 2),
            "all_charts_warm_s": round(statistics.median(m["all_charts"] for m in warm), 2),
            "first_screen_cold_s": round(cold["first_screen"], 2),
        }

    out = {}
    here = Path(__file__).parent.relative_to(ROOT)
    with (
        streamlit_server() as (base, _),
        streamlit_server(script=str(here / "floor_app.py")) as (floor, _),
        streamlit_server(script=str(here / "floor_chart_app.py")) as (chart_floor, _),
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        shared = new_context(browser)  # a browser that has seen the app: every page opened twice before timing
        urls = {name: f"{base}/{URL_PATHS[name]}" for name in PAGES} | {
            "streamlit_floor": floor,
            "streamlit_plotly_floor": chart_floor,
        }
        for url in [*urls.values(), *urls.values()]:
            load_marks_s(shared, url)
        time.sleep(1)
        for name, url in urls.items():
            out[name] = figures(browser, shared, url)
        browser.close()
    return out


# Every chart draw (static/plotly_chart.js calls window.Plotly.react) stamped in ms since navigation: window.__tpotDraws
DRAW_MARKS = """(() => {
  window.__tpotDraws = [];
  let plotly;
  Object.defineProperty(window, "Plotly", { configurable: true, get: () => plotly, set: (v) => {
    plotly = v;
    if (v && v.react && !v.__tpotTimed) {
      const react = v.react;
      v.react = (...args) => react.apply(v, args).then((gd) => {
        const r = gd.getBoundingClientRect();
        const box = gd.closest('[class*="st-key-chart-"]');
        const key = box ? [...box.classList].find((c) => c.startsWith("st-key-chart-")) : null;
        window.__tpotDraws.push({ t: performance.now(), onScreen: r.top < innerHeight && r.bottom > 0, key });
        return gd;
      });
      v.__tpotTimed = true;
    }
  } });
})();"""
REDRAW_SETTLED = """t0 => {
  const app = document.querySelector('[data-testid="stApp"]');
  const idle = app && app.getAttribute("data-test-script-state") === "notRunning";
  const after = window.__tpotDraws.filter(d => d.t > t0);
  if (!idle || !after.length) { window.__tpotQuietSince = undefined; return false; }
  const last = after[after.length - 1].t;
  if (window.__tpotLast !== last) { window.__tpotLast = last; window.__tpotQuietSince = performance.now(); }
  return performance.now() - window.__tpotQuietSince > 800;
}"""
SCENARIO_FREE_PAGES = {"glossary", "validation"}  # nothing on them follows the sidebar


def _slider_move(page, slider) -> tuple[float, list[dict]] | None:
    """Move a slider one stop with the keyboard: (when, in ms of the page's clock, the charts drawn since, as
    DRAW_MARKS records them); None if no chart redraws."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    slider.focus()
    t0 = page.evaluate("performance.now()")
    page.keyboard.press("ArrowRight")
    try:
        page.wait_for_function(REDRAW_SETTLED, arg=t0, timeout=30_000, polling=50)
    except PlaywrightTimeout:
        return None
    return t0, page.evaluate(f"window.__tpotDraws.filter(d => d.t > {t0})")


def redraw_figures(repeats: int) -> dict:
    """Slider to redraw in Chromium (1400 x 1000), per page: the sidebar's batch slider moved one stop with the
    keyboard (each time to a batch that page has not shown, so no result is cached yet), until the first chart has
    redrawn, until every chart on the screen has, and until the last chart has (below the fold too); medians of
    `repeats` moves, seconds. The reader looks at what the slider changes: a first move finds the first chart that
    follows the batch, which is scrolled into view (where it is below the fold, as on Hardware) before the timed
    moves; `followed_chart` names it and `scrolled` says whether it had to be."""
    from tests.server_util import CHROMIUM, CHROMIUM_ARGS, streamlit_server

    if not Path(CHROMIUM).exists():
        return {"skipped": "no /usr/bin/chromium"}
    from playwright.sync_api import sync_playwright

    from tests.test_browser import CHARTS_DRAWN, PAGES, URL_PATHS

    contexts = (1024, 2048, 3072, 6144, 8192, 12288, 16384, 24576, 32768, 49152, 65536, 98304)
    out = {}
    with streamlit_server() as (base, _), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
        ctx.add_init_script(DRAW_MARKS)
        page = ctx.new_page()
        for i, name in enumerate(n for n in PAGES if n not in SCENARIO_FREE_PAGES):
            page.goto(f"{base}/{URL_PATHS[name]}?lang=en&batch=4&context={contexts[i]}", wait_until="domcontentloaded")
            page.wait_for_selector('[data-testid="stSidebar"] [data-testid="stSlider"]', timeout=120_000)
            page.wait_for_timeout(1500)
            page.wait_for_function(CHARTS_DRAWN, timeout=120_000, polling=100)
            if not page.evaluate("document.querySelectorAll('.tpot-chart').length"):
                continue  # no chart on this page
            slider = page.locator('[data-testid="stSlider"]').filter(has_text="Batch").get_by_role("slider")
            if (moved := _slider_move(page, slider)) is None:
                continue  # no chart here follows the batch
            followed = moved[1][0]
            if followed["key"]:
                page.locator(f".{followed['key']}").evaluate("e => e.scrollIntoView({block: 'nearest'})")
                page.wait_for_timeout(1000)
            first, screen, last = [], [], []
            for _ in range(repeats):
                if (moved := _slider_move(page, slider)) is None:
                    break
                t0, draws = moved
                first.append((draws[0]["t"] - t0) / 1e3)
                in_view = [d["t"] for d in draws if d["onScreen"]]  # none: the charts that follow are below the fold
                screen.append((max(in_view) - t0) / 1e3 if in_view else None)
                last.append((draws[-1]["t"] - t0) / 1e3)
            if not first:
                continue
            out[name] = {"first_chart_s": round(statistics.median(first), 2),
                         "screen_s": round(statistics.median(shown), 2) if (shown := [x for x in screen if x]) else None,
                         "all_charts_s": round(statistics.median(last), 2),
                         "followed_chart": (followed["key"] or "").removeprefix("st-key-chart-"),
                         "scrolled": not followed["onScreen"]}  # fmt: skip
        browser.close()
    return out


# The wiki link the readers open: one page, one scenario, embedded (as in an iframe), beside Streamlit's own one-chart
# page under the same load. The warm-up run uses another scenario (batch), so the readers' scenario is new to the server.
READER_SCENARIO = "model=deepseek-v3&hardware=b200&gpus=8&weights=fp8&batch=64&embed=true"
READER_LINKS = {
    "roofline_embed": ("roofline", READER_SCENARIO),
    "roofline_only": (
        "roofline",
        "model=deepseek-v3&hardware=b200&gpus=8&weights=fp8&batch=64&embed=true&only=roofline",
    ),
    "overview_embed": ("", READER_SCENARIO),
    "cost_embed": ("cost", READER_SCENARIO),
    "compare_embed": ("compare", READER_SCENARIO),
    "frontier_embed": ("frontier", READER_SCENARIO),
    "planner_embed": ("planner", READER_SCENARIO),
}


async def _reader(base: str, page: str, query: str, embedded: bool, times: list[float], hold) -> None:
    """One reader: open a session (a raw WebSocket client, as a browser tab would), run `page` with `query`, and
    record the seconds from opening the socket until the run has finished (its last element sent); keep the
    session open until `hold` is set."""
    import websockets
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    start = time.perf_counter()
    async with websockets.connect(
        f"{base.replace('http://', 'ws://')}/_stcore/stream", subprotocols=["streamlit"], origin=base,
        max_size=2**26, open_timeout=300, ping_interval=None,  # a busy server answers pings late
    ) as ws:  # fmt: skip
        msg = BackMsg()
        msg.rerun_script.query_string = query
        msg.rerun_script.page_name = page
        if embedded:
            msg.rerun_script.context_info.is_embedded = True
        await ws.send(msg.SerializeToString())
        while True:
            fwd = ForwardMsg()
            fwd.ParseFromString(await ws.recv())
            if (
                fwd.WhichOneof("type") == "script_finished"
                and fwd.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN
            ):
                times.append(time.perf_counter() - start)
                break
        await hold.wait()


def _wait_idle(pid: int, timeout_s: float = 60.0) -> None:
    """Until the process (and its children) use under 5 % of a core for a second."""
    import psutil

    p = psutil.Process(pid)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and p.cpu_percent(interval=1.0) > 5:
        pass


def _readers_once(base: str, pid: int, page: str, query: str, warm_query: str, n: int) -> dict:
    """n readers opening one link at once (after one reader of another link warmed the server): p50/p95/max s."""
    import asyncio

    async def run() -> list[float]:
        warm: list[float] = []
        released = asyncio.Event()
        released.set()
        await _reader(base, page, warm_query, "embed=true" in warm_query, warm, released)
        _wait_idle(pid)
        times: list[float] = []
        hold = asyncio.Event()
        tasks = [asyncio.create_task(_reader(base, page, query, "embed=true" in query, times, hold)) for _ in range(n)]
        while len(times) < n:
            failed = [t for t in tasks if t.done() and t.exception()]
            if failed:
                raise failed[0].exception()
            await asyncio.sleep(0.02)
        hold.set()
        await asyncio.gather(*tasks)
        return sorted(times)

    times = asyncio.run(run())
    return {"p50_s": round(statistics.median(times), 2), "p95_s": round(times[int(0.95 * (n - 1))], 2),
            "max_s": round(times[-1], 2)}  # fmt: skip


def readers_figures(n: int, rounds: int, links: list[str]) -> dict:
    """`n` readers opening the same wiki link at once: p95 seconds until each reader's page has run (every element
    sent), for each link in READER_LINKS and, back to back with it in the same run, for Streamlit's one-chart floor
    page (`floor_chart_app.py`); `rounds` alternations, each on a fresh server (a new scenario each time). The floor
    runs twice: under this project's .streamlit/config.toml, as the app does (`floor`, the ratio's denominator), and
    with Streamlit's stock runner.postScriptGC = true (`floor_stock`: a full garbage collection after every run,
    which the project turns off)."""
    from tests.server_util import streamlit_server

    here = Path(__file__).parent.relative_to(ROOT)
    out: dict = {}
    env = {"TPOT_VALIDATE_FIGURES": "0"}  # the server as deployed
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        for name in links:
            page, query = READER_LINKS[name]
            pairs = []
            for r in range(rounds):
                with streamlit_server(script=str(here / "floor_chart_app.py")) as (floor, proc):
                    f = _readers_once(floor, proc.pid, "", "", "", n)
                with streamlit_server("--runner.postScriptGC", "true", script=str(here / "floor_chart_app.py")) as (
                    floor,
                    proc,
                ):
                    stock = _readers_once(floor, proc.pid, "", "", "", n)
                with streamlit_server("--server.disconnectedSessionTTL", "5") as (base, proc):
                    warm = query.replace("batch=64", "batch=16")  # another scenario: imports and catalogs warm
                    q = query.replace("batch=64", f"batch={(64, 96, 128, 192)[r % 4]}")
                    a = _readers_once(base, proc.pid, page, q, warm, n)
                pairs.append({"floor": f, "floor_stock": stock, "page": a, "p95_ratio": round(a["p95_s"] / f["p95_s"], 2),
                              "p95_ratio_to_stock": round(a["p95_s"] / stock["p95_s"], 2)})  # fmt: skip
            out[name] = {
                "p95_ratio_median": round(statistics.median(p["p95_ratio"] for p in pairs), 2),
                "p95_ratio_to_stock_median": round(statistics.median(p["p95_ratio_to_stock"] for p in pairs), 2),
                "rounds": pairs,
            }
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return {"readers": n, **out}


def _server_cpu_s(pid: int) -> float:
    """User + system CPU seconds of the server process and its children."""
    import psutil

    p = psutil.Process(pid)
    return sum(sum(q.cpu_times()[:2]) for q in [p, *p.children(recursive=True)])


async def _reader_cpu_s(base: str, pid: int, page: str, query: str, n: int) -> float:
    """Server CPU seconds of n readers of `page` with `query`, one after another (after a reader of another scenario
    and one of this one), while another reader's session stays open (as when readers overlap: Streamlit forgets its
    compiled scripts once no session is open)."""
    import asyncio

    done = asyncio.Event()
    done.set()
    await _reader(base, page, query.replace("batch=64", "batch=16"), True, [], done)
    keep = asyncio.Event()
    kept = asyncio.create_task(_reader(base, page, query, True, [], keep))
    await asyncio.sleep(1.0)
    _wait_idle(pid)
    start = _server_cpu_s(pid)
    for _ in range(n):
        await _reader(base, page, query, True, [], done)
    await asyncio.sleep(0.5)  # the last session's disconnect
    used = _server_cpu_s(pid) - start
    keep.set()
    await kept
    return used


def reader_cpu_figures(n: int) -> dict:
    """Server CPU ms per reader of one embedded link (READER_SCENARIO), for every page and the one-chart floor page
    (_reader_cpu_s): what each reader costs the server once the scenario's results and figures are shared."""
    import asyncio

    from tests.server_util import streamlit_server

    here = Path(__file__).parent.relative_to(ROOT)
    pages = [("floor", "", str(here / "floor_chart_app.py"))] + [
        (p.stem, "" if p.stem == "overview" else p.stem, "app.py") for p in sorted((ROOT / "pages").glob("*.py"))
    ]
    out = {}
    old = os.environ.get("TPOT_VALIDATE_FIGURES")
    os.environ["TPOT_VALIDATE_FIGURES"] = "0"  # the server as deployed
    try:
        for name, page, script in pages:
            query = "" if name == "floor" else READER_SCENARIO
            with streamlit_server("--server.disconnectedSessionTTL", "5", script=script) as (base, proc):
                out[name] = round(asyncio.run(_reader_cpu_s(base, proc.pid, page, query, n)) / n * 1e3, 1)
    finally:
        if old is None:
            os.environ.pop("TPOT_VALIDATE_FIGURES", None)
        else:
            os.environ["TPOT_VALIDATE_FIGURES"] = old
    floor = out["floor"]
    return {"readers": n, "server_cpu_ms_per_reader": out,
            "ratio_to_floor": {k: round(v / floor, 2) for k, v in out.items() if k != "floor"}}  # fmt: skip


SECTIONS = (
    "model", "cli", "imports", "pages", "browser_first_load", "slider_to_redraw", "wiki_readers", "reader_cpu",
)  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--loop-points", type=int, default=2000)
    ap.add_argument("--reruns", type=int, default=7)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--no-browser", action="store_true", help="skip the first-load timings in chromium")
    ap.add_argument("--browser-repeats", type=int, default=5, help="warm-cache loads per page (median)")
    ap.add_argument("--readers", type=int, default=50, help="readers opening one wiki link at once")
    ap.add_argument("--reader-rounds", type=int, default=2, help="floor / page alternations per link")
    ap.add_argument("--reader-links", default=",".join(READER_LINKS), help=f"of {', '.join(READER_LINKS)}")
    ap.add_argument("--cpu-readers", type=int, default=20, help="readers per page for the server CPU per reader")
    ap.add_argument("--only", default="", help="comma-separated sections to run (default: all): " + ",".join(SECTIONS))
    args = ap.parse_args()
    # stopped by a timeout or a kill: exit through the servers' context managers, which stop them (the default
    # SIGTERM ends the process at once and had left three Streamlit servers running)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    browser = not args.no_browser
    sections = {
        "model": lambda: model_figures(args.loop_points),
        "cli": cli_figures,
        "imports": import_figures,
        "pages": lambda: page_figures(args.reruns),
        "browser_first_load": lambda: browser_figures(args.browser_repeats) if browser else {},
        "slider_to_redraw": lambda: redraw_figures(args.browser_repeats) if browser else {},
        "wiki_readers": lambda: readers_figures(args.readers, args.reader_rounds, args.reader_links.split(",")),
        "reader_cpu": lambda: reader_cpu_figures(args.cpu_readers),
    }
    wanted = args.only.split(",") if args.only else list(sections)
    result = {"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0],
                          "load_average_at_start": [round(x, 2) for x in os.getloadavg()]}}  # fmt: skip
    for name in wanted:
        result[name] = sections[name]()
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
