"""Performance figures as JSON: model time per point and per 256 x 256 grid against a per-point Python loop (the way
the peer tools work), CLI sweep cost, each page's rerun time after a slider change (AppTest), import times, and each
page's first load in Chromium (page drawn, first screen, all charts; warm and cold browser cache), beside the floor that
Streamlit's own front-end sets (`floor_app.py`: a title and one widget) and the one Streamlit and Plotly set for a
chart page (`floor_chart_app.py`: the same with one small `st.plotly_chart`).

Run: .venv/bin/python benchmarks/bench.py [--loop-points N] [--reruns N] [--browser-repeats N] [--no-browser]
     [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import os
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
    """Median rerun time per page after a sidebar slider change, Streamlit's own overhead included (AppTest)."""
    os.chdir(ROOT)
    import streamlit.testing.v1.app_test as app_test_mod
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.testing.v1 import AppTest

    class V2PagesManager(PagesManager):  # same AppTest workaround as tests/conftest.py
        def __init__(self, *a, **k):
            PagesManager.uses_pages_directory = False
            super().__init__(*a, **k)

    app_test_mod.PagesManager = V2PagesManager
    out = {}
    AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    for page in sorted(p.stem for p in (ROOT / "pages").glob("*.py")):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
        if page != "overview":
            at.switch_page(f"pages/{page}.py").run()
        first = time.perf_counter()
        at.run()
        first = time.perf_counter() - first
        times = []
        for i in range(reruns):
            slider = at.sidebar.select_slider(key="batch").set_value([16, 64][i % 2])
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--loop-points", type=int, default=2000)
    ap.add_argument("--reruns", type=int, default=7)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--no-browser", action="store_true", help="skip the first-load timings in chromium")
    ap.add_argument("--browser-repeats", type=int, default=5, help="warm-cache loads per page (median)")
    args = ap.parse_args()
    result = {
        "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
        "model": model_figures(args.loop_points),
        "cli": cli_figures(),
        "imports": import_figures(),
        "pages": page_figures(args.reruns),
        "browser_first_load": {} if args.no_browser else browser_figures(args.browser_repeats),
    }
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
