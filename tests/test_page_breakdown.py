"""TPOT breakdown page through the app (AppTest): bars against batch and context, the heat map and its metric."""

from __future__ import annotations

import numpy as np
import pytest

from tests.apptest_util import decode, figures, run_page
from tpot_model import BUCKETS
from ui.i18n import EN, Translator

ZH = Translator("zh-TW")


def _by_title(at, prefix: str) -> dict:
    (fig,) = [f for f in figures(at) if f["layout"]["title"]["text"].startswith(prefix)]
    return fig


def _trace(fig: dict, name: str) -> dict:
    (trace,) = [t for t in fig["data"] if t.get("name") == name]
    return trace


def test_renders_with_defaults():
    at = run_page("breakdown")
    assert not at.exception, at.exception
    assert at.title[0].value == EN("breakdown_title")
    assert len(figures(at)) == 3
    (table,) = [t.value for t in at.table]
    assert list(table.columns)[:3] == [EN("breakdown_col_part"), EN("breakdown_col_ms"), EN("breakdown_col_pct")]
    batch = _by_title(at, "TPOT decomposition against batch")
    assert _trace(batch, EN("label_ideal"))  # the default profile is an engine: the ideal bound beside it
    assert [str(v) for v in batch["data"][0]["x"]][:3] == ["1", "2", "4"]


def _bucket(fig: dict, key: str) -> np.ndarray:
    """A bucket's bar heights: the fitting and the non-fitting trace merged (each is NaN where the other draws)."""
    ys = [np.array(t["y"], dtype=float) for t in fig["data"] if t.get("name") == EN(f"bucket_{key}")]
    return np.fmax.reduce(ys)  # JSON null -> NaN


def test_sidebar_changes_the_charts():
    at = run_page("breakdown")
    before = _bucket(_by_title(at, "TPOT decomposition against context"), "weights")
    at.sidebar.select_slider(key="batch").set_value(128).run()
    assert not at.exception
    fig = _by_title(at, "TPOT decomposition against context")
    assert fig["layout"]["title"]["text"] == EN("breakdown_context_title", batch="128")
    after = _bucket(fig, "weights")
    assert not np.allclose(before, after)
    at.sidebar.select_slider(key="batch").set_value(4096).run()  # the batch as the text above says it: 'batch 4,096'
    title = _by_title(at, "TPOT decomposition against context")["layout"]["title"]["text"]
    assert title == EN("breakdown_context_title", batch="4,096")


def test_url_restores_scenario():
    at = run_page("breakdown", model="deepseek-v3", hardware="h200", gpus="8", weights="fp8", context="16384")
    assert not at.exception
    fig = _by_title(at, "TPOT decomposition against batch")
    assert fig["layout"]["title"]["text"] == EN("breakdown_batch_title", context="16K")
    ctx = _by_title(at, "TPOT decomposition against context")
    assert ctx["data"][0]["x"][-1] == "160K"  # DeepSeek-V3's maximum context


def test_heatmap_metric_selectbox():
    at = run_page("breakdown")
    at.selectbox(key="breakdown.heatmap_metric").set_value("fits").run()
    assert not at.exception
    heat = _by_title(at, EN("breakdown_metric_fits"))
    assert set(np.unique(decode(heat["data"][0]["z"]))) <= {0.0, 1.0}
    at.selectbox(key="breakdown.heatmap_metric").set_value("tokens_per_s_per_gpu").run()
    assert _by_title(at, EN("breakdown_metric_tokens_per_s_per_gpu"))


def test_no_price_says_so():
    at = run_page("breakdown", hardware="tpu-v5e")
    at.selectbox(key="breakdown.heatmap_metric").set_value("usd_per_1M_tokens").run()
    assert not at.exception
    # the pages' notice (fmt.no_price_text): no basis prices TPU v5e (it had said 'n/a: no catalog price')
    said = (
        "The cost map needs a price. Google TPU v5e has no published price in any basis: the figures that need its "
        "$/chip-hour (the cost per 1M tokens and those built on it) are not shown. Enter your own $/chip-hour in the sidebar."
    )
    assert said in [i.value for i in at.info]
    b300 = run_page("breakdown", hardware="b300", lang="zh-TW")  # priced under the TCO bases: those named
    b300.selectbox(key="breakdown.heatmap_metric").set_value("usd_per_1M_tokens").run()
    notice = (
        "成本熱度圖需要價格。NVIDIA B300 / Blackwell Ultra (HGX) 在「雲端隨需」價格基準下沒有公開價格：需要其每 GPU 小時價格的"
        "數字（每百萬 Token 成本及以其計算的數字）不顯示。請在側邊欄輸入自訂的每 GPU 小時價格，或在側邊欄改選以下任一價格基準："
        "新雲端業者 TCO、超大規模業者 TCO、三年租用。"
    )
    assert notice in [i.value for i in b300.info]
    assert len(figures(at)) == 2  # the bars stay, the cost map is replaced by the notice


def test_extremes_and_does_not_fit():
    at = run_page("breakdown", model="qwen3-next-80b-a3b", hardware="h100-sxm", gpus="1", weights="bf16")
    assert not at.exception and at.error
    bars = _by_title(at, "TPOT decomposition against batch")
    assert _trace(bars, EN("breakdown_doesnt_fit"))
    at = run_page("breakdown", batch="4096", context="1048576", profile="ideal")
    assert not at.exception
    bars = _by_title(at, "TPOT decomposition against batch")
    assert "4,096" in bars["data"][0]["x"]
    assert not [t for t in bars["data"] if t.get("name") == EN("label_ideal")]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_heatmap_where_nothing_fits_says_so_on_lines_a_narrow_map_holds(lang):
    """Browser review at 900 px (sidebar open): the map's 'Nothing on this map fits in memory on 8 x NVIDIA H100 SXM5
    80GB' ran off both edges of a ~250 px plot ('…othing on this map'); it is on lines of at most 30 Latin glyphs."""
    from ui import fmt

    tr = Translator(lang)
    at = run_page("breakdown", model="deepseek-r1", hardware="h100-sxm", gpus="8", weights="fp8", lang=lang)
    assert not at.exception
    start = tr("breakdown_nothing_fits", gpus="\0", hw="").split("\0")[0][:6]
    (note,) = [
        a["text"] for f in figures(at) for a in f["layout"].get("annotations", []) if a["text"].startswith(start)
    ]
    lines = note.split("<br>")
    assert len(lines) >= 2 and all(fmt.text_px(line, 1) <= 30 for line in lines)
    assert " ".join(lines) == tr("breakdown_nothing_fits", gpus=8, hw="NVIDIA H100 SXM5 80GB")  # broken at spaces


@pytest.mark.parametrize("tr", [EN, ZH])
def test_decomposition_is_a_static_table_with_every_column(tr):
    """Browser review at 900 px: the decomposition was a st.dataframe whose last column, the ideal bound, was cut to
    'Ideal bo…' with no cue to scroll sideways. It is a static st.table (its cells and headers wrap), the ideal bound's
    column included, units in the headers, the same numbers as text with one count of decimals down each column."""
    from tpot_model import IDEAL, estimate, resolve_hardware, resolve_model, resolve_profile
    from ui.state import ScenarioState

    at = run_page("breakdown", lang=tr.lang)
    assert not at.exception, at.exception
    assert not at.dataframe  # no scrolled grid left on the page
    (table,) = [t.value for t in at.table]
    headers = [tr(f"breakdown_col_{c}") for c in ("part", "ms", "pct", "ideal_ms")]
    assert list(table.columns) == headers and all("ms" in h or "%" in h for h in headers[1:])
    assert list(table[headers[0]]) == [tr(f"bucket_{k}") for k in BUCKETS] + [tr("breakdown_total")]
    state = ScenarioState()  # the page's defaults: Llama 3.1 70B fp8 on 2 x H200, batch 32, 4K context
    m, hw, s = resolve_model(state.model), resolve_hardware(state.hardware), state.to_scenario()
    est, ideal = estimate(m, hw, s, resolve_profile(state.profile)), estimate(m, hw, s, IDEAL)
    for col, seconds in ((headers[1], est), (headers[3], ideal)):
        ms = [float(v) * 1e3 for v in [*seconds.breakdown_s.values(), seconds.tpot_s]]
        shown = list(table[col])
        assert {len(v.split(".")[1]) for v in shown} == {1}  # 22.3 ms: one decimal down the column
        assert [float(v) for v in shown] == pytest.approx(ms, abs=0.05)
    assert table[headers[2]].iloc[-1] == "100.0"


def test_chinese():
    at = run_page("breakdown", lang="zh-TW")
    assert not at.exception
    assert at.title[0].value == ZH("breakdown_title")
    titles = [f["layout"]["title"]["text"] for f in figures(at)]
    assert ZH("breakdown_batch_title", context="4K") in titles
    assert ZH("breakdown_context_title", batch="32") in titles


def test_random_scenarios_never_raise():
    """Random sidebar values and heat-map metrics on both pages in one session: no exception, ever."""
    import random

    from tpot_model.prices import CUSTOM, PRICE_BASES
    from ui.state import BATCH_OPTIONS, CONTEXT_OPTIONS, GPU_OPTIONS, KV_OPTIONS, WEIGHT_OPTIONS

    rng = random.Random(7)
    at = run_page("breakdown")
    models = ["deepseek-v3", "qwen3-next-80b-a3b", "llama-3.1-8b", "gpt-oss-120b", "gemma-3-27b", "mixtral-8x7b"]
    chips = ["h200", "rtx-4090", "tpu-v5e", "m4-max", "b200", "mi300x"]
    for i in range(24):
        if i == 12:
            at.switch_page("pages/roofline.py")
        sidebar = at.sidebar
        sidebar.selectbox(key="model").set_value(rng.choice(models))
        sidebar.selectbox(key="hardware").set_value(rng.choice(chips))
        sidebar.selectbox(key="weights").set_value(rng.choice(WEIGHT_OPTIONS))
        sidebar.selectbox(key="kv").set_value(rng.choice(KV_OPTIONS))
        sidebar.selectbox(key="profile").set_value(rng.choice(["ideal", "typical"]))
        sidebar.select_slider(key="gpus").set_value(rng.choice(GPU_OPTIONS))
        sidebar.select_slider(key="batch").set_value(rng.choice(BATCH_OPTIONS))
        sidebar.select_slider(key="context").set_value(rng.choice(CONTEXT_OPTIONS))
        basis = rng.choice(PRICE_BASES)
        sidebar.selectbox(key="price_basis").set_value(basis)
        if basis == CUSTOM:  # the $/GPU-hour box takes input only under the custom basis: enable it first
            at.run()
            at.sidebar.number_input(key="price").set_value(rng.choice([None, 0.0, 2.5]))
        if i < 12:
            at.selectbox(key="breakdown.heatmap_metric").set_value(rng.choice(["tpot", "usd_per_1M_tokens", "fits"]))
        at.run()
        assert not at.exception, (i, at.exception)


def test_heatmap_hover_has_no_hard_coded_english():
    """The heat map's hover (every cell and the scenario's star) names the context's unit from ui/strings: 'tokens'
    in English, 'Token' in zh-TW (it was a hard-coded 'tokens' on both)."""
    for tr in (EN, ZH):
        at = run_page("breakdown", lang=tr.lang)
        assert not at.exception
        hovers = [
            t["hovertemplate"]
            for f in figures(at)
            for t in f["data"]
            if tr("breakdown_hover_context") in str(t.get("hovertemplate", ""))
        ]
        assert len(hovers) >= 2  # the cells and the star
        for h in hovers:
            assert f" {tr('breakdown_hover_tokens')}<" in h
            assert tr is EN or "tokens" not in h


def test_the_decomposition_table_keeps_a_csv_download():
    """The decomposition became a static table that wraps (a review: the grid hid its ideal bound at 900 px), which has
    no download of its own: a CSV button under it in the full view, as the grid's was."""
    at = run_page("breakdown")
    assert not at.exception, at.exception
    (button,) = [b for b in at.get("download_button") if "breakdown.decomposition_csv" in b.proto.id]
    assert button.proto.label == EN("download_csv")
