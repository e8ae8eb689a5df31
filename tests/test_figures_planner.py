"""Serving-planner figures and tables as data (no Streamlit): trace names, axis titles with units, plotted values equal
to the planner's output times the display scale; and the page's URL parameters, parsed and written purely."""

from __future__ import annotations

import math
import re
from dataclasses import replace

import numpy as np
import pytest
from model_fixtures import legend_below

from tests.apptest_util import decode
from tpot_model import Scenario, load_hardware_catalog, load_model_catalog, resolve_profile
from tpot_model import layouts as lo
from tpot_model import planner as pl
from tpot_model.files import load_yaml
from tpot_model.targets import TPOT_TARGETS_S
from ui import fmt, page_state
from ui.figures import planner as figs
from ui.figures.common import BUCKET_COLOURS
from ui.i18n import EN, STRINGS_DIR, Translator

ZH = Translator("zh-TW")
MODELS, HARDWARE = load_model_catalog(), load_hardware_catalog()
TYPICAL = resolve_profile("typical")
L70, H200 = MODELS["llama-3.1-70b"], HARDWARE["h200"]
BASE = Scenario(batch=32, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8")


def _trace(fig, name):
    matches = [t for t in fig.data if t.name == name]
    assert matches, f"no trace {name!r} in {[t.name for t in fig.data]}"
    return matches[0]


def _v(x) -> np.ndarray:
    return decode(x).astype(float) if x is not None else np.array([])


@pytest.fixture(scope="module")
def point():
    return pl.frontier(L70, H200, BASE, TYPICAL, 0.03)  # limited by the target: all three groups drawn


def test_frontier_figure(point):
    fig = figs.frontier_figure(point)
    assert fig.layout.title.text == EN("pl_frontier_title")
    # issue 19: InferenceX's orientation, tokens/s per user (1 / TPOT) across, tokens/s per GPU up
    assert fig.layout.xaxis.title.text == EN("ce_axis_tps_user")
    assert fig.layout.yaxis.title.text == EN("pl_axis_tps_gpu")
    meets = _trace(fig, EN("pl_meets"))
    mask = point.sweep_fits & point.sweep_meets_target
    assert _v(meets.x) == pytest.approx(1 / point.sweep_tpot_s[mask])
    assert _v(meets.y) == pytest.approx(point.sweep_tokens_per_s_per_gpu[mask])
    assert _v(_trace(fig, EN("pl_misses")).x).max() < 1 / 0.030  # slower than 30 ms: fewer than 33.3 tok/s per user
    star = _trace(fig, EN("pl_chosen"))
    assert list(star.x) == pytest.approx([1 / point.tpot_s]) and star.customdata[0][0] == point.batch
    assert any(s.x0 == pytest.approx(1 / 0.030) for s in fig.layout.shapes)  # the target line
    assert any("30\u00a0ms TPOT" in a.text for a in fig.layout.annotations)  # its label in both forms
    table = figs.frontier_table(point)
    assert {"batch", "tpot_ms", "tokens_per_s_per_gpu", "fits", "meets_target", "chosen"} <= set(table.columns)
    assert table.loc[table.chosen, "batch"].tolist() == [point.batch]
    assert figs.frontier_figure(point, tr=ZH).layout.title.text == ZH("pl_frontier_title")
    # each point's hover names its group; the first batches past memory sit by the star: drawn over it
    for key in ("pl_meets", "pl_misses"):
        assert _trace(fig, EN(key)).hovertemplate.startswith(f"<b>{EN(key)}</b><br>")
    memory = pl.frontier(L70, H200, BASE, TYPICAL, 0.05)  # limited by memory: batches 115, 116 do not fit
    no_fit = _trace(figs.frontier_figure(memory), EN("pl_no_fit"))
    assert no_fit.hovertemplate.startswith(f"<b>{EN('pl_no_fit')}</b>") and no_fit.zorder == 2


@pytest.mark.parametrize("tr", [EN, ZH])
def test_frontier_target_label_and_legend_do_not_meet(point, tr):
    """The target line's label sits just above the plot, and the legend under it (below the x axis title): at 900 and
    1400 px the label had run into the legend's first key, both above the plot."""
    fig = figs.frontier_figure(point, tr=tr)
    (label,) = [a for a in fig.layout.annotations if a.text == tr("pl_target_line", ms=fmt.target(0.03, tr))]
    assert (label.yref, label.y, label.yanchor) == ("paper", 1.0, "bottom")  # above the plot area
    legend = fig.layout.legend
    assert legend_below(legend)  # below the plot area
    assert fig.layout.height > 440  # taller by the legend's rows: the plot keeps its height


def test_frontier_figure_without_a_feasible_point():
    p = pl.frontier(L70, H200, BASE, TYPICAL, 0.005)
    fig = figs.frontier_figure(p)
    assert [t.name for t in fig.data] == [EN("pl_misses"), EN("pl_no_fit")]


def test_cost_heatmap_values_and_grey_cells():
    hws = [HARDWARE["h100-sxm"], H200, HARDWARE["mi355x"]]
    grid = pl.cost_grid(MODELS["llama-3.1-405b"], hws, BASE, TYPICAL, tpot_target_s=0.05, gpu_options=None)
    fig = figs.cost_heatmap(grid, [h.name for h in hws], 0.05)
    hm = fig.data[0]
    z = np.array(hm.z, dtype=float)
    expected = np.array([[c.usd_per_1M_tokens if c.feasible else np.nan for c in row] for row in grid.cells])
    # coloured on a log scale (one dear cell had turned the rest one colour), the bar's ticks in $
    assert np.allclose(z, np.log10(expected.astype(float)), equal_nan=True)
    finite = expected[np.isfinite(expected.astype(float))].astype(float)
    top = max(finite.max(), finite.min() * 1.01)  # one priced cell here: a bar at least 1 % wide
    assert (hm.zmin, hm.zmax) == pytest.approx((np.log10(finite.min()), np.log10(top)))
    assert all(t.startswith("$") for t in hm.colorbar.ticktext)
    assert np.allclose(
        10 ** np.array(hm.colorbar.tickvals), [float(t[1:].replace(",", "")) for t in hm.colorbar.ticktext], rtol=0.01
    )
    assert list(hm.x) == [EN("pl_prec_bf16"), EN("pl_prec_fp8"), EN("pl_prec_fp4")]
    assert hm.text[0][0] == EN("pl_cell_no_fit")  # 405B in BF16 on 2 x H100
    assert hm.text[2][2].startswith(EN("pl_cell_no_price"))  # MI355X (MXFP4 fits): no on-demand price
    assert "50" in fig.layout.title.text
    table = figs.cost_table(grid)
    assert len(table) == 9 and {"hardware", "weights", "gpus", "batch", "tpot_ms", "usd_per_1M_output_tokens"} <= set(
        table
    )
    assert table.weights.tolist()[-1] == "mxfp4"
    # each chip's own price, basis and date on its rows (the CSV had stated the sidebar chip's on every row)
    from tpot_model.economics import price_for

    prices = {h.id: price_for(h, BASE) for h in hws}
    priced = figs.cost_table(grid, prices).set_index("hardware")
    h200 = prices["h200"]
    assert priced.loc["h200", "price_usd_per_gpu_hour"].tolist() == [h200.usd_per_gpu_hour] * 3
    assert set(priced.loc["h200", "price_as_of"]) == {h200.as_of} and set(priced.price_basis) == {h200.basis}
    assert priced.loc["mi355x", "price_usd_per_gpu_hour"].isna().all()  # no on-demand price: none, not H200's


@pytest.mark.parametrize("tr", [EN, ZH])
def test_cost_heatmap_names_output_tokens_as_its_numbers_do(tr):
    """The hardware x precision tab's heading, chart title and colour bar all say output tokens, the basis of
    FrontierPoint.usd_per_1M_tokens (decode only): the heading had said '$ per 1M tokens' over '… output tokens'."""
    grid = pl.cost_grid(L70, [H200], BASE, TYPICAL, tpot_target_s=0.05, gpu_options=None)
    fig = figs.cost_heatmap(grid, [H200.name], 0.05, tr=tr)
    word = {"en": "1M output tokens", "zh-TW": "百萬輸出 Token"}[tr.lang]
    shown = [tr("pl_table_h"), fig.layout.title.text, fig.data[0].colorbar.title.text, tr("pl_col_usd"),
             tr("pl_col_target_usd"), tr("pl_d_usd"), tr("pl_m_spec_tps_def", usd="$1")]  # fmt: skip
    assert all(word.replace(" ", "") in re.sub(r"<br>| ", "", t) for t in shown), shown  # a line break aside


def _planner_strings() -> dict[str, dict[str, str]]:
    return load_yaml((STRINGS_DIR / "planner.yaml").read_text(encoding="utf-8"))


def test_planner_strings_say_the_cli_in_plain_words():
    """An analyst reads 'the command line', in parentheses at most, not 'the CLI's `frontier --max-gpus`'."""
    for key, text in ((k, v[lang]) for k, v in _planner_strings().items() for lang in ("en", "zh-TW")):
        assert "CLI" not in text, key
        outside = re.sub(r"[（(][^（）()]*[）)]", "", text)  # the text outside parentheses
        assert not [w for w in ("frontier --max-gpus", "command line", "命令列") if w in outside], key


def test_planner_zh_tw_wording_is_consistent():
    """zh-TW: 每張 GPU (not 每 GPU; 每 GPU 小時 is the unit GPU-hour, as on every page), 每百萬 (not 每百萬個), no
    space beside full-width punctuation ('= （k', '。 ')."""
    zh = {k: v["zh-TW"] for k, v in _planner_strings().items()}
    assert not [k for k, v in zh.items() if re.search(r"每 ?GPU(?! 小時)", v)]
    assert not [k for k, v in zh.items() if "每百萬個" in v]
    assert not [k for k, v in zh.items() if re.search(r" [（），。：；、」]|[（），。：；、「] ", v)]


def test_tp_figure_stacks_the_buckets():
    tp = pl.tp_scaling(MODELS["llama-3.1-405b"], H200, BASE, TYPICAL, (1, 2, 4, 8, 16), tpot_target_s=0.05)
    fig = figs.tp_figure(tp, 32, 0.05)
    assert fig.layout.barmode == "stack" and fig.layout.yaxis.title.text == EN("axis_tpot_ms")
    assert fig.layout.xaxis.type == "category"
    for key, values in tp.breakdown_s.items():
        bar = _trace(fig, EN(f"bucket_{key}"))
        assert _v(bar.y) == pytest.approx(values * 1e3) and bar.marker.color == BUCKET_COLOURS[key]
    ideal = _v(_trace(fig, EN("pl_ideal_scaling")).y)
    assert np.isnan(ideal[: int(np.argmax(tp.fits))]).all()
    # a count that does not fit says so under its tick, not over its bar (the tallest: it had covered the bar's top)
    no_fit = EN("pl_no_fit_short", batch="32")
    assert no_fit == "batch 32:<br>no fit"  # at the title's batch (the table's best batch at the target is another)
    assert not [a for a in fig.layout.annotations if no_fit in a.text]
    assert list(fig.layout.xaxis.tickvals) == [str(n) for n in tp.num_gpus]
    said = [no_fit in t for t in fig.layout.xaxis.ticktext]
    assert said == [not f for f in tp.fits] and any(said) and not all(said)
    assert figs.tp_figure(tp, 32, 0.05, tr=ZH).layout.xaxis.ticktext[0] == f"1<br>{ZH('pl_no_fit_short', batch='32')}"
    # the target's words on a white ground: below the bars (2 ms) they had printed over them
    (target,) = [a for a in figs.tp_figure(tp, 32, 0.002).layout.annotations if a.y == pytest.approx(2.0)]
    assert target.bgcolor.startswith("rgba(255,255,255")
    table = figs.tp_table(tp)
    assert {"gpus", "tpot_ms", "communication_ms", "communication_share", "target_batch"} <= set(table.columns)
    shown = figs.tp_display_table(tp, 32, tr=ZH)
    assert ZH("pl_col_fits_at", batch="32") in shown.columns  # the fit at the sidebar's batch, said
    assert ZH("pl_col_comm") in shown.columns and ZH("pl_na") in shown[ZH("pl_col_target_batch")].tolist()
    # a count that does not fit has no rate or $ (browser review: its $ had read as the column's cheapest)
    for col in ("pl_col_usd", "pl_col_tps_gpu"):
        values = shown[ZH(col)].tolist()
        assert [v == ZH("pl_na") for v in values] == [not f for f in tp.fits], (col, values)


def test_pp_figure_against_tp_over_the_same_gpus():
    pp = pl.pipeline_parallel(L70, H200, BASE, TYPICAL)
    tp = pl.tp_scaling(L70, H200, BASE, TYPICAL, sorted({int(n) for n in pp.num_gpus}))
    fig = figs.pp_figure(pp, tp)
    # the typical engine's usable memory is one figure whatever the GPUs hold: one dashed line at it
    (line,) = fig.layout.shapes
    assert line.y0 == line.y1 == pytest.approx(float(pp.usable_memory_per_gpu_bytes[0]) / 1e9)
    assert fig.layout.annotations[0].text == EN("pl_usable", gb=f"{line.y0:.0f}")
    pp_line = _trace(fig, EN("pl_pp_line", tp=2))
    assert _v(pp_line.y) == pytest.approx(pp.tpot_s * 1e3)
    assert list(pp_line.x) == [str(n) for n in pp.num_gpus]
    bars = [t for t in fig.data if t.type == "bar"]
    assert _v(bars[1].y) == pytest.approx(pp.memory_per_gpu_bytes / 1e9)
    assert fig.layout.yaxis2.title.text == EN("pl_axis_gb_gpu")
    assert fig.layout.xaxis.type == "category" and fig.layout.xaxis2.type == "category"  # GPU counts, not numbers
    assert {"pp_stages", "bubble_fraction", "memory_per_gpu_GB", "tp_only_tpot_ms"} <= set(figs.pp_table(pp, tp))


def test_pp_figure_draws_tensorrt_llms_usable_memory_per_stage_count():
    """A browser review: under TensorRT-LLM the usable memory changes with what each layout's GPUs hold (0.9 of what
    the weights and workspace leave free), and the chart had drawn the sidebar layout's one figure for every stage
    count. Each count's usable memory now, the one that decides its fit."""
    trt = resolve_profile("tensorrt-llm")
    pp = pl.pipeline_parallel(L70, H200, BASE, trt)
    tp = pl.tp_scaling(L70, H200, BASE, trt, sorted({int(n) for n in pp.num_gpus}))
    fig = figs.pp_figure(pp, tp)
    assert not fig.layout.shapes
    (usable,) = [t for t in fig.data if t.type == "scatter" and t.yaxis == "y2"]
    u = pp.usable_memory_per_gpu_bytes / 1e9
    assert _v(usable.y) == pytest.approx(u) and u[0] > u[-1]  # more GPUs hold less: less of it is usable
    assert bool(np.all(pp.fits == (pp.memory_per_gpu_bytes <= pp.usable_memory_per_gpu_bytes)))


def test_speculative_figures():
    grid = pl.speculative(
        L70, H200, BASE, TYPICAL, k=figs.k_lines(3), acceptance=figs.ACCEPT_GRID[None, :], mtp_cost=0.05
    )
    fig = figs.spec_acceptance_figure(grid, 3, 0.7)
    assert [t.name for t in fig.data][:5] == [EN("pl_spec_k", k=k) for k in (1, 2, 3, 4, 8)]
    k3 = _trace(fig, EN("pl_spec_k", k=3))
    assert _v(k3.y) == pytest.approx(grid.tpot_s[2] * 1e3) and k3.line.width == 4
    star = _trace(fig, EN("pl_spec_now"))
    one = pl.speculative(L70, H200, BASE, TYPICAL, k=3, acceptance=0.7, mtp_cost=0.05)
    assert star.y[0] == pytest.approx(float(one.tpot_s) * 1e3, rel=1e-3)
    assert fig.layout.xaxis.title.text == EN("pl_axis_acceptance")
    assert legend_below(fig.layout.legend)  # a browser review: at 900 px its keys had covered the title
    assert set(figs.spec_acceptance_table(grid).columns) >= {"k", "acceptance", "effective_tpot_ms", "speedup"}

    batches = figs.batch_sweep(108)
    assert batches.tolist() == [1, 2, 4, 8, 16, 32, 64, 108]
    sp = pl.speculative(L70, H200, replace(BASE, batch=batches), TYPICAL, k=4, acceptance=0.7, mtp_cost=0.05)
    fig = figs.spec_batch_figure(sp)
    line = _trace(fig, EN("pl_spec_speedup"))
    assert _v(line.x) == pytest.approx(batches) and _v(line.y) == pytest.approx(sp.speedup)
    assert fig.layout.xaxis.type == "log" and fig.layout.xaxis.title.text == EN("axis_batch")
    assert figs.spec_batch_table(sp).batch.tolist() == batches.astype(int).tolist()


def test_disaggregation_figure():
    dg = pl.disaggregation(L70, H200, BASE, TYPICAL, tpot_target_s=0.05, input_tokens=[1024, 8192], output_tokens=1024)
    fig = figs.disaggregation_figure(dg)
    bar = fig.data[0]
    assert list(bar.x) == ["1K / 1K", "8K / 1K"]
    assert _v(bar.y) == pytest.approx(dg.prefill_per_decode_gpu)
    assert list(bar.text) == [figs.ratio_text(r) for r in dg.prefill_per_decode_gpu]
    assert fig.layout.yaxis.title.text == EN("pl_axis_ratio")
    assert "prefill_gpus_per_decode_gpu" in figs.disaggregation_table(dg).columns


def test_ratio_text():
    assert figs.ratio_text(0.5) == "1 : 2" and figs.ratio_text(3.4) == "3.4 : 1"
    assert figs.ratio_text(float("nan")) == EN("pl_na") and figs.ratio_text(0.0) == EN("pl_na")


def test_levers_figure_and_tables():
    rows = pl.levers(L70, H200, BASE, TYPICAL, tpot_target_s=0.05, mtp_cost=0.05, hardware_catalog=HARDWARE)
    for at_target in (False, True):
        fig = figs.levers_figure(rows, at_target)
        deltas = figs.lever_deltas(rows, at_target)
        assert len(fig.data) == 3
        # at the target every lever's TPOT is the target's: the change is in the batch it serves there (browser
        # review: 'next-gen hardware +21 % TPOT' had read as worse)
        first = "batch" if at_target else "tpot"
        for trace, key in zip(fig.data, (first, "throughput", "usd"), strict=True):
            assert np.allclose(np.array(trace.x, dtype=float), deltas[key], equal_nan=True)
        assert len(fig.data[0].y) == len(pl.LEVERS) - at_target  # 'twice the batch' not at the target
    usd = {r.lever: r.d_usd_per_1M for r in rows}
    assert figs.lever_deltas(rows, False)["usd"][pl.LEVERS.index("gpus_x2")] == pytest.approx(usd["gpus_x2"] * 100)
    fig = figs.levers_figure(rows, True)
    assert EN("pl_na") not in [a.text for a in fig.layout.annotations]  # every lever shown applies here
    assert fig.layout.title.text == EN("pl_levers_title_target") and fig.data[0].name == EN("pl_d_batch")
    base = next(r for r in rows if r.lever == "baseline")
    kv = next(r for r in rows if r.lever == "kv_fp8")
    at_target_levers = [x for x in pl.LEVERS if x != "batch_x2"]
    assert figs.lever_deltas(rows, True)["batch"][at_target_levers.index("kv_fp8")] == pytest.approx(
        (kv.target_batch / base.target_batch - 1) * 100
    )
    # the keys under the plot, the levers' names on lines (at 900 px with the sidebar open the keys covered the
    # title and the names left the bars ~80 px)
    assert legend_below(fig.layout.legend) and max(len(line) for y in fig.data[0].y for line in y.split("<br>")) <= 30
    table = figs.levers_table(rows)
    assert table.lever.tolist() == ["baseline", *pl.LEVERS] and "target_usd_per_1M_output_tokens" in table
    shown = figs.levers_display_table(rows, False, tr=ZH)
    assert list(shown.columns)[0] == ZH("pl_col_lever") and shown.iloc[0, 0] == ZH("pl_lever_baseline")


def test_levers_name_the_chips_not_their_catalog_ids():
    """The upgrade lever read 'Next-generation hardware (h200 → b200)': catalog ids; the page names the chips."""
    rows = pl.levers(L70, H200, BASE, TYPICAL, tpot_target_s=0.05, hardware_catalog=HARDWARE)
    up = next(r for r in rows if r.lever == "hardware_upgrade")
    assert up.chips == ("h200", "b200") and up.detail == "h200 → b200"  # the CSV keeps the ids
    expected = f"{EN('pl_lever_hardware_upgrade')} (H200 SXM 141GB → B200)"
    shown = figs.levers_display_table(rows, True, hardware=HARDWARE)
    assert expected in shown[EN("pl_col_lever")].tolist()
    assert expected in [y.replace("<br>", " ") for y in figs.levers_figure(rows, True, hardware=HARDWARE).data[0].y]


# --------------------------------------------------------------------------------------------------- URL parameters


def test_page_query_defaults_and_round_trip():
    inputs, notices = page_state.parse_planner_query({})
    assert inputs == page_state.PlannerInputs() and notices == []
    q = page_state.planner_query(30.0, 2000.0, 6, 0.55, 0.4, "levers")
    assert q == {
        "planner_target_ms": "30",
        "planner_ttft_ms": "2000",
        "spec_k": "6",
        "spec_accept": "0.55",
        "prefix_hit": "0.4",
        "planner_section": "levers",
        "planner_serving": "best",  # issue 18: the layout search's serving mode (its budget only when set)
    }
    back, notices = page_state.parse_planner_query(q)
    assert notices == []
    assert back == page_state.PlannerInputs("code_completion", 30.0, 2000.0, 6, 0.55, 0.4, "levers")


def test_page_query_custom_target_and_presets():
    assert page_state.parse_planner_query({"planner_target_ms": "65"})[0].target == figs.CUSTOM
    for key, seconds in TPOT_TARGETS_S.items():
        inputs = page_state.parse_planner_query({"planner_target_ms": f"{seconds * 1e3:g}"})[0]
        assert inputs.target == key and figs.target_ms(inputs.target, 1.0) == pytest.approx(seconds * 1e3)
    assert figs.target_ms(figs.CUSTOM, 65.0) == 65.0


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("planner_target_ms", "0"),
        ("planner_target_ms", "abc"),
        ("planner_target_ms", "1e9"),
        ("planner_target_ms", "nan"),
        ("planner_ttft_ms", "-1"),
        ("spec_k", "0"),
        ("spec_k", "2.5"),
        ("spec_k", "9"),
        ("spec_accept", "1.2"),
        ("spec_accept", "inf"),
        ("prefix_hit", "-0.1"),
        ("prefix_hit", "<script>"),
        ("planner_section", "charts"),
        ("planner_section", "<b>levers</b>"),
    ],
)
def test_page_query_bad_values_fall_back_with_a_notice(key, value):
    inputs, notices = page_state.parse_planner_query({key: value})
    assert inputs == page_state.PlannerInputs()
    assert len(notices) == 1 and notices[0].param == key
    assert "<" not in notices[0].given and "script" in notices[0].given or value != "<script>"


def test_tables_have_unit_suffixed_columns(point):
    cols = set(figs.frontier_table(point).columns)
    assert all(c in {"batch", "fits", "meets_target", "chosen"} or c.endswith(("_ms", "_gpu")) for c in cols)
    assert math.isfinite(point.tpot_s)


# --------------------------------------------------------------------------------------------------- layout search


def test_layout_figure_and_csv_state_the_choice_and_the_inputs():
    """Issue 18: the budget bar splits into the chosen pools and the unused GPUs; the CSV states the inputs (budget,
    serving mode searched, target) and, per pool, its instances, GPUs and TP / EP / DP / PP degrees."""
    m, hw = load_model_catalog()["deepseek-r1"], load_hardware_catalog()["gb200"]
    s = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    d = lo.best_deployment(m, hw, s, resolve_profile("typical"), max_gpus=72, tpot_target_s=0.05)
    assert d.feasible
    fig = figs.layout_figure(d)
    used = sum(t.x[0] for t in fig.data if t.name != EN("pl_pool_unused"))
    assert used == d.gpus_used and sum(t.x[0] for t in fig.data) == 72
    assert legend_below(fig.layout.legend)  # below the bar (it sat top-right)
    assert fig.layout.legend.traceorder == "normal"  # prefill, decode, unused: the bar's own order
    t = figs.layout_table(d, serving_searched="best", usable_bytes=lambda pool: 1e11, usable_basis="reported")
    assert set(t["max_gpus"]) == {72} and set(t["serving_searched"]) == {"best"} and set(t["tpot_target_ms"]) == {50}
    assert t["pool_gpus"].sum() == d.gpus_used
    for _, row in t.iterrows():
        assert row["instances"] * row["gpus_each"] == row["pool_gpus"]
        assert row["tp"] * row["dp"] * row["pp"] == row["gpus_each"]  # every GPU of an instance is one rank
    dep = lo.Pool(2, 16, "dp-ep", 64)
    assert figs.pool_parallelism(dep) == {"tp": 1, "ep": 16, "dp": 16, "pp": 1}
    assert figs.pool_parallelism(lo.Pool(1, 16, "tp-pp", 8, pipeline_stages=2)) == {"tp": 8, "ep": 1, "dp": 1, "pp": 2}
    none = lo.best_deployment(m, load_hardware_catalog()["h100-sxm"], s, max_gpus=4, tpot_target_s=0.05)
    empty = figs.layout_table(none, serving_searched="best", usable_bytes=lambda pool: 1e11, usable_basis="datasheet")
    assert list(empty["pool"]) == ["none"] and list(empty["limited_by"]) == ["memory"]
    assert [tr.name for tr in figs.layout_figure(none).data] == [EN("pl_pool_unused")]


@pytest.mark.parametrize("tr", [EN, ZH])
def test_pools_read_with_a_multiplication_sign(tr):
    """'1 × DEP8', as the page writes counts of things (Pool.label owns the text: chart, table, CLI alike)."""
    assert lo.Pool(1, 8, "dp-ep", 64).label == "1 × DEP8"
    assert lo.Pool(2, 16, "tp-pp", 8, pipeline_stages=2).label == "2 × TP8xPP2"
    d = lo.best_deployment(L70, H200, replace(BASE, batch=1), TYPICAL, max_gpus=8, tpot_target_s=0.05)
    bars = [t.text[0] for t in figs.layout_figure(d, tr=tr).data if t.name != tr("pl_pool_unused")]
    pools = ([("aggregated", d.decode)] if d.serving == "aggregated" else
             [("prefill", d.prefill), ("decode", d.decode)])  # fmt: skip
    assert bars == [tr("pl_pool_bar", pool=tr(f"pl_pool_{k}"), layout=p.label) for k, p in pools]
    assert all(" × " in b and " x " not in b for b in bars)
    assert list(figs.layout_display_table(d, tr=tr)[tr("pl_col_layout")]) == [p.label for _, p in pools]
    assert ZH("pl_pool_bar", pool="解碼池", layout="1 × TP4") == "解碼池：1 × TP4"  # a full-width colon in zh-TW


@pytest.mark.parametrize("tr", [EN, ZH])
def test_layout_step_names_its_total_and_keeps_numbers_with_their_units(tr):
    """'…, Overhead 5.97 ms; total 37.5 ms': the sum says what it is; and no number parts from its unit at a line's
    end ('41.6 / ms' in a 900 px frame): non-breaking spaces between them."""
    m, hw = MODELS["deepseek-r1"], HARDWARE["h200"]
    s = Scenario(context_tokens=4096, output_tokens=1024, weights="fp8")
    d = lo.best_deployment(m, hw, s, TYPICAL, max_gpus=8, tpot_target_s=0.05)
    parts = lo.decode_parts(m, hw, s, TYPICAL, d)
    text = figs.layout_parts_text(d, parts, hw, tr=tr)
    total = fmt.ms(sum(parts.parts_s.values())).replace(" ", "\u00a0")
    assert {"en": f"; total **{total}**,", "zh-TW": f"；合計 **{total}**，"}[tr.lang] in text
    assert f"{tr('bucket_overhead')} {fmt.ms(parts.parts_s['overhead']).replace(' ', chr(0xA0))}" in text
    assert not re.search(r"\d (ms|s|GB/s)\b", text), text  # every value held to its unit
    assert re.search(r"\d\u00a0GB/s", text)  # the link's bandwidth too
    assert f" {d.decode.label.split(' × ')[-1]} " in text and "×" not in text  # 'One DEP8 instance's step'


def test_planner_query_carries_the_layout_inputs():
    q = page_state.planner_query(50, 0, 3, 0.5, 0, "gpus", 72, "disaggregated")
    assert q["planner_max_gpus"] == "72" and q["planner_serving"] == "disaggregated"
    inputs, notices = page_state.parse_planner_query(q)
    assert (inputs.max_gpus, inputs.serving, notices) == (72, "disaggregated", [])
    bad, notices = page_state.parse_planner_query({"planner_max_gpus": "1.5", "planner_serving": "x"}, 8)
    assert (bad.max_gpus, bad.serving) == (None, "best")
    assert [(n.param, n.used) for n in notices] == [("planner_max_gpus", "8"), ("planner_serving", "best")]


def test_request_ttft_target_round_trips_and_a_bad_one_falls_back():
    inputs, notices = page_state.parse_planner_query({"planner_request_ttft_ms": "400"})
    assert inputs.request_ttft_ms == 400 and notices == []
    q = page_state.planner_query(50.0, 0.0, 3, 0.5, 0.0, "gpus", 72, "best", inputs.request_ttft_ms)
    assert q["planner_request_ttft_ms"] == "400"
    assert "planner_request_ttft_ms" not in page_state.planner_query(50.0, 0.0, 3, 0.5, 0.0, "gpus", 72, "best")
    bad, notices = page_state.parse_planner_query({"planner_request_ttft_ms": "-5"})
    assert bad.request_ttft_ms == 0 and len(notices) == 1


def test_grid_chips_round_trip_through_the_link_as_people_write_them():
    """planner_chips: catalog ids, or names as people write them, each read as its id, in order, once each; written
    only when chosen."""
    ids = list(HARDWARE)
    inputs, notices = page_state.parse_planner_query({"planner_chips": "GB200 NVL72, mi455x,TPU 8i,gb200"}, 8, ids)
    assert inputs.chips == ("gb200", "mi455x", "tpu-8i") and notices == []
    q = page_state.planner_query(50, 0, 3, 0.5, 0, "hardware", chips=inputs.chips)
    assert q["planner_chips"] == "gb200,mi455x,tpu-8i"
    assert page_state.parse_planner_query(q, 8, ids)[0].chips == inputs.chips
    assert "planner_chips" not in page_state.planner_query(50, 0, 3, 0.5, 0, "hardware")  # the default set
    assert "planner_chips" in page_state.page_params()  # a known parameter: no 'not one this app reads' notice


@pytest.mark.parametrize(
    ("given", "chips", "quoted", "used", "near"),
    [
        ("gb20,h200", ("h200",), "gb20", "h200", "gb200"),  # the one it could not read, and what it resembles
        ("nope", None, "nope", "—", None),  # none known: the default set
        ("", None, "", "—", None),  # an empty list: the default set, said
        (",".join(list(HARDWARE)[:14]), tuple(list(HARDWARE)[:12]), ",".join(list(HARDWARE)[12:14]), None, None),
    ],
)
def test_bad_grid_chips_in_a_link_are_dropped_with_a_notice(given, chips, quoted, used, near):
    inputs, notices = page_state.parse_planner_query({"planner_chips": given}, 8, list(HARDWARE))
    assert inputs.chips == chips and figs.MAX_TABLE_CHIPS == 12
    (n,) = notices
    assert (n.param, n.given) == ("planner_chips", quoted)
    assert n.used == (used if used is not None else ",".join(chips))
    assert (near in n.near) if near else n.near == ()


def test_grid_chips_default_to_the_set_and_always_hold_the_sidebars():
    """The grid's rows: TABLE_HARDWARE and the sidebar's chip unless chosen; chosen, in their order, the sidebar's
    after them where left out; none chosen: the default set."""
    assert figs.default_table_chips("h200", HARDWARE) == figs.TABLE_HARDWARE  # H200 is among them: as before
    assert figs.default_table_chips("gb200", HARDWARE) == (*figs.TABLE_HARDWARE, "gb200")
    assert figs.table_chips(["tpu-8i", "gb200"], "h200", HARDWARE) == ("tpu-8i", "gb200", "h200")
    assert figs.table_chips(["h200", "gb200"], "h200", HARDWARE) == ("h200", "gb200")
    assert figs.table_chips([], "mi455x", HARDWARE) == (*figs.TABLE_HARDWARE, "mi455x")
    assert figs.table_chips(["b200"], "custom", HARDWARE) == ("b200", "custom")  # a chip of the reader's own file


def test_cost_grid_of_announced_chips_reads_in_ten_rows():
    """Ten chips, announced ones among them: each name and its "(announced)" on lines of their own (on one line,
    MI455X's took a third of a 900 px column from the cells), the CSV says which are announced, and the colour bar's
    ticks are round steps few enough not to overprint ('$0.7 $0.8 $0.9 $1' had, under GB200's $0.68)."""
    ids = (*figs.TABLE_HARDWARE, "gb200", "b300", "mi455x", "tpu-8i", "trainium3")
    hws = [HARDWARE[h] for h in ids]
    grid = pl.cost_grid(L70, hws, replace(BASE, batching="continuous"), TYPICAL, tpot_target_s=0.05,
                        gpu_options=pl.DOMAIN)  # fmt: skip
    for tr in (EN, ZH):
        fig = figs.cost_heatmap(grid, fmt.chip_names(hws, tr=tr), 0.05, tr=tr)
        labels = list(fig.data[0].y)
        assert labels[-3] == {"en": "MI455X<br>(announced)", "zh-TW": "MI455X<br>（已發表，<br>尚未出貨）"}[tr.lang]
        assert labels[0] == "H100 SXM5 80GB" and len(labels) == 10
        assert all(fmt.text_px(line, 1) <= 14 for label in labels for line in label.split("<br>"))
        assert fig.layout.height == 200 + 75 * 10
    ticks = [float(t[1:]) for t in fig.data[0].colorbar.ticktext]
    assert ticks == [0.7, 1, 1.5, 2, 3]  # GB200 FP4 $0.68 to H200 BF16 $3.14
    table = figs.cost_table(grid).drop_duplicates("hardware").set_index("hardware")
    assert list(table.index) == list(ids)
    assert table.hardware_announced.to_dict() == {h: h in ("mi455x", "tpu-8i") for h in ids}


def test_layout_parts_say_why_a_part_is_zero_instead_of_0_ms():
    """DeepSeek-R1 FP8 on GB200 within 64 GPUs at 50 ms: the DEP16 decode step's KV-cache reads run under its compute
    (the KV bucket is exactly 0 s): the caption says 'KV-cache read overlapped by compute', not '0 ms'; the other
    parts keep their times."""
    m, hw = MODELS["deepseek-r1"], HARDWARE["gb200"]
    s = Scenario(context_tokens=4096, output_tokens=1024, weights="fp8", kv_cache="fp8")
    d = lo.best_deployment(m, hw, s, TYPICAL, max_gpus=64, tpot_target_s=0.05)
    parts = lo.decode_parts(m, hw, s, TYPICAL, d)
    assert parts.parts_s["kv_cache"] == 0 and parts.parts_s["compute"] > 0
    for tr in (EN, Translator("zh-TW")):
        text = figs.layout_parts_text(d, parts, hw, tr=tr)
        sep = "" if tr.lang == "zh-TW" else " "  # a Chinese phrase joins its part without a space (a review)
        assert f"{tr('bucket_kv_cache')}{sep}{tr('zero_compute_bound')}" in text
        assert f"{tr('bucket_compute')} {fmt.unbroken(fmt.ms(parts.parts_s['compute']))}" in text
        # compute-bound operators count as compute, their weight reads under it: said (a review read a 0.411 ms weight
        # read as 35 GB a GPU at 4.8 TB/s, 7.3 ms at least)
        assert tr("pl_layout_parts_bound") in text


@pytest.mark.parametrize("tr", [EN, Translator("zh-TW")])
def test_layout_step_says_how_many_sequences_are_in_flight_where_prefill_sets_the_rate(tr):
    """Browser review: the Planner said 'One DEP32 instance's step at batch 412' where its in-flight sequences were
    fewer (DeepSeek-R1 FP8 on GB200, 4K / 1K, within 72 GPUs at 60 tok/s per user: 393; 410 once TensorRT-LLM's
    prefill pool sized its KV cache from the free memory). At 1K / 1K the best engine (SGLang) runs one DEP64 decode
    instance at batch 1,327, the prefill pool sets the request rate, and the step's text says it holds 1,171 on
    average; the layout CSV carries decode_seqs_per_gpu. Where the decode pool sets the rate (or aggregated), or the
    two differ by under 1 %, nothing is added."""
    m, hw = MODELS["deepseek-r1"], HARDWARE["gb200"]
    s = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8")
    d = lo.best_deployment(m, hw, s, lo.best_engines(hw), max_gpus=72, tpot_target_s=1 / 60)
    assert (d.serving, d.rate_set_by, d.decode.layout_name, d.decode.batch) == (
        "disaggregated",
        "prefill",
        "DEP64",
        1327,
    )
    in_flight = d.output_tokens_per_s_per_gpu * d.gpus_used * d.tpot_s / d.decode.instances  # Little's law
    parts = lo.decode_parts(m, hw, s, resolve_profile(d.engine), d)
    text = figs.layout_parts_text(d, parts, hw, tr=tr)
    assert (
        tr(
            "pl_layout_parts_in_flight",
            n=fmt.integer(round(in_flight)),
            batch=fmt.integer(1327),
            per_gpu=f"{in_flight / 64:,.1f}",
        )
        in text  # per GPU, as the CSV's column counts (a review)
        and round(in_flight) == 1171
    )
    table = figs.layout_table(
        d, serving_searched="best", usable_bytes=lambda pool: 1e11, usable_basis="datasheet", parts=parts
    )
    decode_row = table[table["pool"] == "decode"].iloc[0]
    assert decode_row["decode_seqs_per_gpu"] == pytest.approx(in_flight / d.decode.gpus_each)
    agg = lo.best_deployment(m, HARDWARE["h200"], s, TYPICAL, max_gpus=8, tpot_target_s=0.05)
    agg_parts = lo.decode_parts(m, HARDWARE["h200"], s, TYPICAL, agg)
    assert agg.serving == "aggregated" and tr("pl_layout_parts_in_flight", n="\0", batch="\0", per_gpu="\0").split(
        "\0"
    )[0] not in (figs.layout_parts_text(agg, agg_parts, HARDWARE["h200"], tr=tr))


def test_twice_the_batch_is_left_out_at_the_target():
    """A helper review: at the target 'Twice the batch (32 → 64)' read n/a in every column, unexplained (the target
    sets the batch); it is left out there and shown at the sidebar's batch, where it changes TPOT and $."""
    s = Scenario(batch=32, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8")
    rows = pl.levers(load_model_catalog()["llama-3.1-70b"], load_hardware_catalog()["h200"], s,
                     resolve_profile("typical"), tpot_target_s=0.05)  # fmt: skip
    label = EN("pl_lever_batch_x2")
    at_target = figs.levers_display_table(rows, True)
    assert not at_target[EN("pl_col_lever")].str.startswith(label).any() and len(at_target) == len(rows) - 1
    assert not any(str(y).startswith(label) for y in figs.levers_figure(rows, True).data[0].y)
    at_batch = figs.levers_display_table(rows, False)
    (row,) = at_batch[at_batch[EN("pl_col_lever")].str.startswith(label)].to_dict("records")
    # each change in its value's cell: '89.4 (+79.8%)', the dollars' down ('$0.553 (−44.3%)', as Cost's $)
    assert re.fullmatch(r"[\d.,]+ \(\+[\d.]+%\)", row[EN("pl_col_tpot")]), row
    (lever,) = [r for r in rows if r.lever == "batch_x2"]
    usd = EN("pl_lever_cell", value=fmt.usd(lever.usd_per_1M_tokens), delta=fmt.pct(lever.d_usd_per_1M, signed=True))
    assert row[EN("pl_col_usd")] == usd and usd.startswith("$"), row
    assert list(at_batch.columns) == [
        EN(k) for k in ("pl_col_lever", "pl_col_fits", "pl_col_tpot", "pl_col_tps", "pl_col_usd")
    ]
    assert at_batch.iloc[0][EN("pl_col_tpot")] == f"{rows[0].tpot_s * 1e3:,.1f}"  # the current scenario: no change
    assert any(str(y).startswith(label) for y in figs.levers_figure(rows, False).data[0].y)


@pytest.mark.parametrize("tr", [EN, Translator("zh-TW")])
def test_a_one_gpu_budget_reads_in_the_singular(tr):
    """A browser review: a budget of 1 read 'What the search chose within 1 GPUs' over 'no layout fits in memory on 1
    GPUs' (DeepSeek-R1 FP8 on one B200)."""
    m, hw = MODELS["deepseek-r1"], HARDWARE["b200"]
    d = lo.best_deployment(m, hw, Scenario(weights="fp8"), TYPICAL, max_gpus=1, tpot_target_s=0.05)
    assert not d.feasible and d.limited_by == "memory"
    fig = figs.layout_figure(d, tr=tr)
    assert fig.layout.title.text.startswith(tr("pl_layout_title_one"))
    assert tr("pl_pool_none_memory_one") in [t for trace in fig.data for t in (trace.text or ())]
    if tr.lang == "en":
        assert "1 GPUs" not in fig.layout.title.text + " ".join(t for trace in fig.data for t in (trace.text or ()))
    assert not fig.layout.annotations  # nothing chosen: no result line


@pytest.mark.parametrize("tr", [EN, Translator("zh-TW")])
def test_the_layout_chart_carries_its_answer(tr):
    """A review: the layout chart's HTML export (and a wiki's single-chart embed) showed the pools' bar and not what
    they serve; the chart now says it above the bar: tokens/s per GPU (input + output), TPOT and TTFT."""
    m, hw = MODELS["deepseek-r1"], HARDWARE["gb200"]
    s = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8")
    d = lo.best_deployment(m, hw, s, TYPICAL, max_gpus=72, tpot_target_s=1 / 60)
    assert d.feasible
    (note,) = figs.layout_figure(d, tr=tr).layout.annotations
    assert note.text == tr("pl_layout_result", tps=fmt.rate(d.tokens_per_s_per_gpu), tpot=fmt.ms(d.tpot_s),
                           ttft=fmt.duration(d.ttft_s))  # fmt: skip
