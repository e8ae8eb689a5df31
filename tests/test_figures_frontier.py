"""Serving frontier figures without Streamlit: traces and their data against the model's numbers, axis titles with
units, measured-point selection, cost and power at a target, the LOHO scatter, the page's URL inputs, zh-TW."""

from __future__ import annotations

import math

import numpy as np
import pytest
from model_fixtures import (
    ROOT,  # noqa: F401  (puts the repository on sys.path)
    legend_below,
)

from tests.apptest_util import decode
from tpot_model import (
    Scenario,
    estimate,
    load_hardware_catalog,
    resolve_hardware,
    resolve_model,
    resolve_profile,
    serving,
    speculative,
)
from tpot_model import serving_calibration as sc
from ui import fmt, page_state
from ui.figures import frontier as figs
from ui.figures.common import hardware_colour
from ui.i18n import EN, Translator

ZH = Translator("zh-TW")
MODEL = resolve_model("deepseek-r1")
PROFILE = resolve_profile("sglang")
ALL_IN_W = {h: hw.prices.all_in_w for h, hw in load_hardware_catalog().items()}


def _series(hid="h200", precision="fp8", layout="tp", isl=1024, osl=1024, gpus=8, marked=32.0):
    hw = resolve_hardware(hid)
    weights = "mxfp4" if (precision == "fp4" and hw.vendor == "AMD") else ("nvfp4" if precision == "fp4" else precision)
    C = figs.concurrency_grid(marked)
    s = Scenario(batch=C, context_tokens=isl, output_tokens=osl, num_gpus=gpus, weights=weights, kv_cache="fp8",
                 parallelism=layout, batching="continuous")  # fmt: skip
    e = estimate(MODEL, hw, s, PROFILE)
    series = figs.make_series(hw, precision, weights, layout, C, e.tpot_s, e.ttft_s, e.output_tokens_per_s_per_gpu,
                              e.total_tokens_per_s_per_gpu, e.fits, marked)  # fmt: skip
    return series, e


@pytest.fixture(scope="module")
def rows():
    return sc.load_serving_measurements()


# --------------------------------------------------------------------------------------------------- inputs


def test_page_inputs_parse_and_round_trip():
    hw, prof = {"h200", "b200", "mi355x", "gb200"}, {"sglang", "typical"}
    d, notices = page_state.parse_frontier_query({}, hw, prof)
    assert d == page_state.FrontierInputs() and not notices
    assert (d.k, d.acceptance) == (speculative.MTP_K, speculative.MTP_ACCEPTANCE)
    p = page_state.FrontierInputs(io="8k1k", hardware=("b200", "gb200"), precisions=("fp4",), layouts=("dp-ep", "tp"),
                        engine="typical", y="total", target=80.0, tier="rental_3yr", usd=3.5, mtp=True, k=2,
                        acceptance=0.6, log=False, disagg=True, rack_gpus=16)  # fmt: skip
    back, notices = page_state.parse_frontier_query(page_state.frontier_query(p), hw, prof)
    assert back == p and not notices
    assert page_state.frontier_query(p)["fr_rack_gpus"] == "16" and d.rack_gpus == 72  # one NVL72 rack by default


@pytest.mark.parametrize(
    "key, value, used",
    [
        ("fr_io", "2k2k", "1k1k"),
        ("fr_hw", "h200,nope", "h200"),
        ("fr_prec", "int3", "fp8"),
        ("fr_layout", "pp", "tp"),
        ("fr_engine", "<b>x</b>", "sglang"),
        ("fr_target", "-5", "20.0"),  # the default: the other pages' chat target, 50 ms = 20 tok/s per user
        ("fr_tier", "cheap", "hyperscaler"),
        ("fr_k", "2.5", str(speculative.MTP_K)),
        ("fr_accept", "1.5", str(speculative.MTP_ACCEPTANCE)),
        ("fr_mtp", "yes", "0"),  # the default as the link writes it (the notice read `False`)
        ("fr_log", "maybe", "1"),
        ("fr_rack_recipes", "true", "0"),
        ("fr_rack_best_engine", "maybe", "1"),
        ("fr_rack_gpus", "0", "72"),  # issue 18: the rack-scale view's budget, 1 .. 1024 whole GPUs
        ("fr_rack_gpus", "2048", "72"),
        ("fr_rack_gpus", "7.5", "72"),
    ],
)
def test_bad_page_params_fall_back_with_a_notice(key, value, used):
    inputs, notices = page_state.parse_frontier_query({key: value}, {"h200", "b200"}, {"sglang"})
    assert [n.param for n in notices] == [key]
    assert notices[0].used == used
    assert "<" not in notices[0].given
    assert notices[0].switch == (key in ("fr_mtp", "fr_log", "fr_rack_recipes", "fr_rack_best_engine"))  # on / off
    if key == "fr_hw":
        assert inputs.hardware == ("h200",)  # the good part is kept


def test_lengths_and_grids():
    assert figs.lengths("8k1k", 4096, 256) == (8192, 1024)
    assert figs.lengths("custom", 4096, 256) == (4096, 256)
    assert figs.io_label(8192, 1024) == "8k/1k" and figs.io_label(1000, 64) == "1,000/64"
    grid = figs.concurrency_grid(5)
    assert 5 in grid and np.all(np.diff(grid) > 0) and grid[0] == 1 and grid[-1] == 1024
    assert len(figs.series_grid(["a", "b", "c", "d"], ["x", "y"], ["p", "q"])) == figs.MAX_SERIES


# --------------------------------------------------------------------------------------------------- frontier


def test_frontier_curve_is_the_model_output():
    s, e = _series()
    fig = figs.frontier_figure([s], [], y="output", isl=1024, osl=1024, model_name=MODEL.name)
    curve = next(t for t in fig.data if t.name == s.label())
    ok = np.asarray(e.fits)
    assert np.allclose(decode(curve.x), 1 / np.asarray(e.tpot_s)[ok], rtol=1e-12)
    assert np.allclose(decode(curve.y), np.asarray(e.output_tokens_per_s_per_gpu)[ok], rtol=1e-12)
    assert fig.layout.xaxis.title.text == "Interactivity (tokens/s per user)"
    assert fig.layout.yaxis.title.text == "Output tokens/s per GPU"
    assert fig.layout.yaxis.type == "log"
    assert fig.layout.title.text == "DeepSeek-R1, 1k/1k: output tokens/s per GPU against tokens/s per user"
    ring = next(t for t in fig.data if t.name == EN("fr_marked_legend"))
    i = int(np.flatnonzero(s.concurrency == 32)[0])
    assert float(decode(ring.y)[0]) == pytest.approx(float(e.output_tokens_per_s_per_gpu[i]))
    total = figs.frontier_figure([s], [], y="total", log_y=False)
    curve = next(t for t in total.data if t.name == s.label())
    assert np.allclose(decode(curve.y), np.asarray(e.total_tokens_per_s_per_gpu)[ok], rtol=1e-12)
    assert total.layout.yaxis.title.text == "Total (input + output) tokens/s per GPU"


def test_points_that_do_not_fit_are_drawn_open():
    s, e = _series(hid="h200", isl=8192, osl=1024, gpus=8)
    assert not np.all(e.fits)  # tp replicates the MLA cache on every GPU: 8k prompts run out of memory
    fig = figs.frontier_figure([s], [])
    open_ = next(t for t in fig.data if t.name == EN("fr_no_fit_legend", name=s.label()))
    assert open_.marker.symbol.endswith("-open")
    assert len(decode(open_.x)) == int((~np.asarray(e.fits)).sum())
    # some points fit, so the curve's own legend entry stands for the series: one key says what open markers mean
    assert np.any(e.fits) and not open_.showlegend
    keys = [t for t in fig.data if t.name == EN("fr_no_fit_key")]
    assert len(keys) == 1 and keys[0].marker.symbol == "circle-open"
    two = figs.frontier_figure([s, _series(hid="b200", isl=8192, osl=1024, gpus=8)[0]], [])
    assert sum(t.name == EN("fr_no_fit_key") for t in two.data) == 1
    everything_fits = figs.frontier_figure([_series(hid="b200", isl=1024, osl=1024, gpus=8)[0]], [])
    assert not any(t.name == EN("fr_no_fit_key") for t in everything_fits.data)


def test_measured_points_selection(rows):
    pts = figs.measured_points(rows, "deepseek-r1", 1024, 1024, ["h200"], ["fp8"], False, disaggregated=False)
    assert pts and all(r.fields["hardware_id"] == "h200" and r.isl == 1024 and r.osl == 1024 for r in pts)
    assert all(not r.mtp and r.layout != "disaggregated" for r in pts)
    assert figs.measured_points(rows, "deepseek-v3", 1024, 1024, ["h200"], ["fp8"], False, False) == pts
    fp4 = figs.measured_points(rows, "deepseek-r1", 1024, 1024, ["b200", "mi355x"], ["fp4"], False)
    assert {r.fields["weights"] for r in fp4} == {"nvfp4", "mxfp4"}
    assert any(r.layout == "disaggregated" for r in fp4)
    mtp = figs.measured_points(rows, "deepseek-r1", 1024, 1024, ["b200"], ["fp4"], True)
    assert mtp and all(r.mtp for r in mtp)
    assert figs.measured_points(rows, "llama-3.1-70b", 1024, 1024, ["h200"], ["fp8"], False) == []


def test_measured_points_follow_the_curves_order(rows):
    """The measured points' legend entries run in the order of the chips' curves (H200, B200, MI355X), not by id
    (B200, H200, MI355X: review)."""
    series = [_series(hid=h)[0] for h in ("h200", "b200", "mi355x")]
    pts = figs.measured_points(rows, "deepseek-r1", 1024, 1024, ["h200", "b200", "mi355x"], ["fp8"], False, False)
    fig = figs.frontier_figure(series, pts)
    chips = [t.legendgroup.split("-")[1] for t in fig.data if (t.legendgroup or "").startswith("measured-")]
    assert chips and chips == sorted(chips, key=["h200", "b200", "mi355x"].index) and chips[0] == "h200", chips


def test_measured_traces_carry_the_measured_numbers(rows):
    s, _ = _series()
    pts = figs.measured_points(rows, "deepseek-r1", 1024, 1024, ["h200"], ["fp8"], False, disaggregated=False)
    fig = figs.frontier_figure([s], pts)
    engines = ", ".join(sorted({figs.engine_name(r) for r in pts}))
    assert engines == "SGLang, TensorRT-LLM"
    t = next(t for t in fig.data if t.name == EN("fr_measured", hw="H200", engines=engines))
    assert sorted(decode(t.y)) == sorted(r.output_tokens_per_s_per_gpu for r in pts)
    assert sorted(decode(t.x)) == sorted(r.interactivity_tokens_per_s_per_user for r in pts)
    hover = list(t.hovertext)  # labelled with run, engine and date
    assert all(any(r.id in h and r.engine in h and r.run_date in h for h in hover) for r in pts)
    table = figs.frontier_table([s], pts)
    assert {"tpot_ms", "output_tokens_per_s_per_gpu", "tokens_per_s_per_user", "concurrency"} <= set(table.columns)
    assert (table["kind"] == "measured").sum() == len(pts)


@pytest.mark.parametrize("tr", [EN, ZH])
def test_measured_layouts_read_in_the_readers_language(rows, tr):
    """A measured run's parallelism (InferenceX's English in the CSV) is said in the reader's language: a
    disaggregated run as its prefill and decode pools, data-parallel attention named; every pattern the CSV holds is
    recognised (no English source words left in zh-TW)."""
    from ui.figures.common import measured_layout

    text = "disagg prefill 8 GPUs [1 worker(s), TP8/EP8 DP-attn] + decode 48 GPUs [6 worker(s), TP8/EP8]"
    assert measured_layout(text, tr) == tr("measured_layout_disaggregated", prefill_gpus="8", prefill_workers="1",
                                           prefill="DEP8", decode_gpus="48", decode_workers="6", decode="TEP8")  # fmt: skip
    # by the layout search's names where the worker is one of its layouts, else with data-parallel attention named
    assert measured_layout("TP8/EP8 + DP-attention", tr) == "DEP8" and measured_layout("TP4", tr) == "TP4"
    assert measured_layout("TP8/EP1", tr) == "TP8" and measured_layout("TP16/EP16", tr) == "TEP16"
    assert measured_layout("TP1/EP8 DP-attn", tr) == tr("measured_layout_dp_attention", p="TP1/EP8")
    for r in rows:
        said = measured_layout(r.fields.get("parallelism", ""), tr)
        assert not any(w in said for w in ("disagg", "worker", "DP-attn", "DP-attention", "Pareto")), said
    if tr is ZH:
        assert "預填充 8 張 GPU" in measured_layout(text, tr) and "注意力資料平行" in measured_layout(
            "TP1/EP1 DP-attn", tr
        )


# --------------------------------------------------------------------------------------------------- cost, power


def test_cost_at_target_is_price_over_interpolated_throughput():
    s, e = _series(hid="b200", precision="fp4")
    target = 60.0
    ok = np.asarray(e.fits)
    tps = serving.at_interactivity(1 / np.asarray(e.tpot_s)[ok], np.asarray(e.output_tokens_per_s_per_gpu)[ok], target)
    (p,) = figs.at_target([s], target, "output", 2.5)
    assert p.tokens_per_s_per_gpu == pytest.approx(tps)
    for tier, price in resolve_hardware("b200").prices.usd_per_gpu_hour.items():  # every basis of data/prices.yaml
        assert p.usd_per_1m[tier] == pytest.approx(price.usd_per_gpu_hour * 1e6 / (tps * 3600))
    assert p.usd_per_1m["custom"] == pytest.approx(2.5 * 1e6 / (tps * 3600))
    # the bars' labels in the page's language: an announced chip's mark in zh-TW (a browser review: the cost bars
    # read 'Rubin NVL72 (announced)' on a zh-TW page whose curves said （已發表，尚未出貨）)
    rubin, _ = _series(hid="vr200", precision="fp4")
    (r,) = figs.at_target([rubin], target, "output", 2.5, ZH)
    assert r.label == rubin.label(ZH) and ZH("hw_announced_name", name="")[2:] in r.label and "announced" not in r.label
    assert p.usd_per_1m["on_demand"] == pytest.approx(6.03 * 1e6 / (tps * 3600))  # Spheron, 2026-03-17
    assert p.tokens_per_s_per_mw == pytest.approx(tps * 1e6 / 1710.0)
    fig = figs.cost_figure([p], target, "rental_3yr", tier_label="3-year rental")
    assert float(decode(fig.data[0].y)[0]) == pytest.approx(p.usd_per_1m["rental_3yr"])
    assert fig.layout.yaxis.title.text == "$ per 1M output tokens"
    # both units (1 / 60 s = 16.7 ms), as the Planner's '20 tok/s/user = 50 ms TPOT': '50' had read both ways
    title = fig.layout.title.text.replace("\u00a0", " ")  # '16.7 ms' unbroken
    assert title == "$ per 1M output tokens at 60 tok/s/user = 16.7 ms TPOT (3-year rental)"
    # its hover names the tokens the bars count (it had said 'per 1M tokens' over output tokens' dollars)
    assert (
        fig.data[0].hovertext[0].startswith(f"{p.label}<br>{fmt.usd(p.usd_per_1m['rental_3yr'])} per 1M output tokens")
    )
    total = figs.cost_figure([p], target, "rental_3yr", y="total", tier_label="3-year rental")
    assert "per 1M tokens (input + output)" in total.data[0].hovertext[0]
    # the bar says its value as the metric above it does ('$7.60', not '$7.6'), the ticks in dollars
    assert fig.data[0].text[0] == fmt.usd(p.usd_per_1m["rental_3yr"]) and fig.layout.yaxis.tickprefix == "$"
    table = figs.cost_table([p], target)
    assert "usd_per_1M_output_tokens_neocloud" in table.columns
    # each tier's $/GPU-hour and its date beside its $ per 1M (the page said they were in the CSV; they were not)
    (row,) = table.to_dict("records")
    assert row["usd_per_gpu_hour_on_demand"] == 6.03 and row["price_as_of_on_demand"] == "2026-03-17"
    assert "usd_per_gpu_hour_custom" not in row  # your own price only where chosen (a review: its default exported)
    (own,) = figs.cost_table([p], target, custom=True).to_dict("records")
    assert own["usd_per_gpu_hour_custom"] == 2.5 and own["price_as_of_custom"] == ""


def test_measured_bar_is_the_measured_frontier_at_the_target_priced_as_the_curve(rows):
    """Beside each curve's bar, its chip's measured frontier at the target (the chart's measured points, its tokens:
    output here), priced with the chip's prices: by hand, two B200 runs at 40 and 60 tok/s per user with 200 and 100
    output tokens/s per GPU read 200 x 0.5 ^ (ln 1.25 / ln 1.5) = 136.6 at 50, $6.03 on demand -> $12.26 per 1M;
    a dominated run between them is skipped; a chip whose runs stop below the target has no bar. The bar sits right
    after its chip's curves and is hatched; the CSV says which runs."""
    from dataclasses import replace

    base = next(r for r in rows if r.fields["hardware_id"] == "b200" and r.fields["weights"] == "fp8")

    def run(i, x, out):
        return replace(base, id=i, interactivity_tokens_per_s_per_user=x, output_tokens_per_s_per_gpu=out)

    b200, _ = _series(hid="b200")
    h200, _ = _series(hid="h200")
    pts = [run("a", 40.0, 200.0), run("b", 60.0, 100.0), run("c", 50.0, 90.0)]
    (m,) = figs.measured_at_target([h200, b200], pts, 50.0, "output", 2.5)
    want = 200.0 * 0.5 ** (math.log(1.25) / math.log(1.5))
    assert (
        m.tokens_per_s_per_gpu == pytest.approx(want)
        and round(want, 1) == 136.6
        and m.measured_runs == ("InferenceX a", "InferenceX b")
    )
    assert m.usd_per_1m["on_demand"] == pytest.approx(6.03 * 1e6 / (want * 3600)) and m.hardware_id == "b200"
    assert m.label == EN("fr_measured_bar", name="B200 · FP8")
    assert figs.measured_at_target([b200], pts, 61.0, "output", 2.5) == []  # above the fastest run: not measured
    bars = figs.beside(figs.at_target([h200, b200], 50.0, "output", 2.5), [m])
    assert [p.label for p in bars] == [h200.label(), b200.label(), m.label]
    fig = figs.cost_figure(bars, 50.0, "on_demand")
    assert list(fig.data[0].marker.pattern.shape) == ["", "", "/"]
    assert "InferenceX a + InferenceX b" in fig.data[0].hovertext[2]
    table = figs.cost_table(bars, 50.0)
    assert (
        list(table["source"]) == ["model", "model", "measured"]
        and table["measured_runs"].iloc[2] == "InferenceX a + InferenceX b"
    )
    assert (
        table["measured_bound"].isna().tolist() == [True, True, False]
        and table["measured_bound"].iloc[2] == "at_target"
    )
    # every run more interactive than the target (a browser review: B200's run at 72 tok/s per user drew no bar at
    # a 50 target): the least interactive frontier run bounds the chip there, marked: at least 200 tok/s per GPU,
    # at most its $; within 10 % of the target it stands for the target as before (measured_at)
    (bound,) = figs.measured_at_target([b200], pts, 30.0, "output", 2.5)
    assert bound.at_least and bound.measured_runs == ("InferenceX a",) and bound.tokens_per_s_per_gpu == 200.0
    (near,) = figs.measured_at_target([b200], pts, 37.0, "output", 2.5)
    assert not near.at_least and near.measured_runs == ("InferenceX a",)
    fig = figs.cost_figure([bound], 30.0, "on_demand")
    assert fig.data[0].text[0] == EN("fr_at_most", value=fmt.usd(bound.usd_per_1m["on_demand"]))
    assert fig.data[0].text[0].startswith("≤ $") and EN("fr_hover_at_least") in fig.data[0].hovertext[0]
    # a bound drawn paler than a reading at the target (a browser review: the '≤ $' bars read as equals)
    assert list(figs.cost_figure([near, bound], 30.0, "on_demand").data[0].marker.opacity) == [1.0, figs.BOUND_OPACITY]
    assert figs.cost_table([bound], 30.0)["measured_bound"].iloc[0] == "at_least_tokens_at_most_usd"


def test_hardware_without_a_price_or_power_has_no_bar_and_no_mw_curve():
    hw = resolve_hardware("tpu-v5e")
    C = figs.CONCURRENCY
    s = figs.make_series(hw, "bf16", "bf16", "tp", C, 0.02 + 0 * C, 0.1 + 0 * C, 10 * C, 20 * C, C < 100)
    (p,) = figs.at_target([s], 50.0, "output", 2.0)
    assert math.isnan(p.usd_per_1m["hyperscaler"]) and math.isnan(p.tokens_per_s_per_mw)
    fig = figs.cost_figure([p], 50.0, "hyperscaler")
    assert list(fig.data[0].y) == [None] and fig.data[0].text == (EN("no_public_price_bar"),)  # was 'n/a'
    # on lines at full size, not shrunk to a bar's width (a browser review read ~5 px at 900 px)
    assert fig.data[0].constraintext == "none" and EN("no_public_price_bar").replace("<br>", " ") == EN(
        "no_public_price_short"
    )
    assert fig.data[0].hovertext[0].split("<br>")[1] == EN("no_public_price_short")
    assert figs.best([p], "hyperscaler") is p  # by throughput when nothing is priced
    assert len(figs.per_mw_figure([s], [], ALL_IN_W).data) == 0


def test_tokens_per_mw_curve():
    s, e = _series(hid="mi355x")
    fig = figs.per_mw_figure([s], [], ALL_IN_W)
    curve = next(t for t in fig.data if t.name == s.label())
    ok = np.asarray(e.fits)
    assert np.allclose(decode(curve.y), np.asarray(e.output_tokens_per_s_per_gpu)[ok] * 1e6 / 2090.0, rtol=1e-12)
    assert fig.layout.yaxis.title.text == "Output tokens/s per MW"
    # one series, and still the legend below the plot (at the right it left a 900 px embed's plot ~370 px wide)
    assert legend_below(fig.layout.legend)
    main = figs.frontier_figure([s], [])
    assert legend_below(main.layout.legend)


# --------------------------------------------------------------------------------------------------- validation


def test_validation_scatter_is_the_cross_validation(rows):
    cv = sc.serving_cross_validate(rows)
    fig = figs.validation_figure(cv, "tpot")
    points = [t for t in fig.data if t.name and t.name.endswith("(held out)")]
    assert len(points) == 3
    xs = np.concatenate([decode(t.x) for t in points])
    ys = np.concatenate([decode(t.y) for t in points])
    assert sorted(xs) == pytest.approx(sorted(cv.measured_tpot_s * 1e3))
    assert sorted(ys) == pytest.approx(sorted(cv.predicted_tpot_s * 1e3))
    assert fig.layout.xaxis.title.text == "Measured TPOT (ms)" and fig.layout.xaxis.type == "log"
    out = figs.validation_figure(cv, "output")
    assert out.layout.yaxis.title.text == "Predicted output tokens/s per GPU"
    # each hover names the chip and gives both values with their unit (they had read 'measured 12.7, predicted 10.8')
    row = cv.rows[0]
    want = EN("fr_hover_loho", hw=fmt.chip_short(row.hardware), id=row.label, engine=row.engine, date=row.run_date,
              c=int(row.concurrency), io=figs.io_label(int(row.isl), int(row.osl)),
              measured=fmt.ms(float(cv.measured_tpot_s[0])), predicted=fmt.ms(float(cv.predicted_tpot_s[0])),
              err=fmt.pct(float(cv.predicted_tpot_s[0] / cv.measured_tpot_s[0]) - 1, 0, signed=True))  # fmt: skip
    assert want in [h for t in points for h in t.hovertext]
    rate = fmt.rate(float(cv.measured_output_tokens_per_s_per_gpu[0]))  # '148 tok/s' (per GPU: the axis says)
    assert any(f"measured {rate}," in h for t in out.data if t.hovertext for h in t.hovertext)
    table = figs.validation_table(cv)
    assert len(table) == 133 and {"measured_tpot_ms", "predicted_tpot_ms", "tpot_error_fraction"} <= set(table.columns)
    assert np.allclose(table.tpot_error_fraction, table.predicted_tpot_ms / table.measured_tpot_ms - 1)


def test_zh_tw_titles():
    s, _ = _series()
    fig = figs.frontier_figure([s], [], isl=8192, osl=1024, model_name="DeepSeek-R1", tr=ZH)
    assert fig.layout.title.text == ZH("fr_frontier_title_output", model="DeepSeek-R1", io="8k/1k")
    assert "Token" in fig.layout.title.text and "每" in fig.layout.title.text
    assert fig.layout.xaxis.title.text == ZH("fr_axis_tps_user")


def test_log_axes_label_every_tick_in_full():
    """No bare '2' or '5' between decades (Plotly's D2 ticks): every y tick of the frontier charts is a full number
    within the data's range, so 500,000 does not read as 5; from 10,000 on with its prefix, as the metrics beside."""
    from ui.figures.common import tick_label

    s, _ = _series()
    for fig in (figs.frontier_figure([s], []), figs.per_mw_figure([s], [], ALL_IN_W)):
        y = fig.layout.yaxis
        assert y.type == "log" and y.dtick is None and len(y.tickvals) >= 3
        thousands = max(y.tickvals) >= 10_000  # one style on an axis: '5 K' beside '10 K', not '5,000'
        assert list(y.ticktext) == [tick_label(v, prefixed=True, thousands=thousands) for v in y.tickvals]
        assert all(v < 10_000 or t.endswith((" K", " M")) for v, t in zip(y.tickvals, y.ticktext, strict=True))
        assert not (thousands and any("," in t for t in y.ticktext)), y.ticktext
        values = np.concatenate([np.asarray(t.y, dtype=float) for t in fig.data])
        values = values[np.isfinite(values) & (values > 0)]
        assert values.min() / 1.2 <= y.tickvals[0] and y.tickvals[-1] <= values.max() * 1.2
        assert any(str(t)[0] in "25" and len(str(t).replace(",", "")) > 1 for t in y.ticktext)


# --------------------------------------------------------------------------------------------------- MLPerf overlay


@pytest.fixture(scope="module")
def mlperf_results():
    from tpot_model import mlperf

    return mlperf.load_mlperf()


def _mlperf_trace(fig, name: str):
    """The data trace of an MLPerf legend key (the key itself is a one-point trace without data)."""
    (t,) = [t for t in fig.data if t.name == name and t.showlegend is False]
    return t


def test_mlperf_overlay_on_h200_is_data_mlperf_csv(mlperf_results):
    """Llama-2-70B on H200 in data/mlperf.csv: 29 closed Server / Interactive results with a measured TPOT (v4.1 9,
    v5.0 1, v5.1 19; the Cisco 16 x H200 multi-node run included), all FP8. NVIDIA's v4.1 H200 x8 TensorRT Server
    run is drawn at 1000 / 123.263 ms = 8.113 tok/s per user and 3,653.5275 output tok/s per GPU (its CSV row)."""
    pts = figs.mlperf_overlay(mlperf_results, "llama-2-70b", ["h200"], ["fp8"])
    assert len(pts) == 29 and all(p.precision_matches and p.hardware_id == "h200" for p in pts)
    s, _ = _series(hid="h200")
    fig = figs.frontier_figure([s], [], mlperf_points=pts)
    counts = {r: len(_mlperf_trace(fig, EN("fr_mlperf_legend", round=r)).x) for r in ("v4.1", "v5.0", "v5.1")}
    assert counts == {"v4.1": 9, "v5.0": 1, "v5.1": 19}
    keys = [t for t in fig.data if t.name and t.name.startswith("MLPerf") and t.showlegend is not False]
    assert [k.name for k in keys] == ["MLPerf v5.1 (measured)", "MLPerf v5.0 (measured)", "MLPerf v4.1 (measured)"]
    t = _mlperf_trace(fig, "MLPerf v4.1 (measured)")
    assert t.marker.symbol == "triangle-left" and set(t.marker.color) == {hardware_colour("h200")}
    i = [j for j, h in enumerate(t.hovertext) if "NVIDIA H200 (8x H200-SXM-141GB, TensorRT)<br>" in h]
    assert len(i) == 1
    assert t.x[i[0]] == pytest.approx(1000 / 123.263) and t.y[i[0]] == pytest.approx(3653.5275)
    hover = t.hovertext[i[0]]
    for part in ("v4.1 (2024-08-28), Server", "llama2-70b-99 · NVIDIA ·", "8 GPUs", "FP8 weights",
                 "Mean TPOT 123.3 ms", "3,654 tok/s/GPU", "TensorRT 10.2.0, CUDA 12.4", "ISL 222", "OSL 291",
                 "not this chart's 1k/1k"):  # fmt: skip
        assert part in hover, (part, hover)
    interactive = [h for h in _mlperf_trace(fig, "MLPerf v5.1 (measured)").hovertext if "), Interactive" in h]
    assert len(interactive) == 6


def test_mlperf_total_tokens_are_converted_with_its_mean_lengths(mlperf_results):
    """The total axis counts input + output tokens (serving.py): MLPerf's output tok/s per GPU x (ISL + OSL) / OSL,
    with the dataset's mean ISL (222.3) and the run's mean OSL (291.2628): 3,653.5275 x 513.5628 / 291.2628."""
    pts = figs.mlperf_overlay(mlperf_results, "llama-2-70b", ["h200"], ["fp8"])
    s, _ = _series(hid="h200")
    fig = figs.frontier_figure([s], [], y="total", mlperf_points=pts)
    t = _mlperf_trace(fig, "MLPerf v4.1 (measured)")
    (i,) = [j for j, h in enumerate(t.hovertext) if "NVIDIA H200 (8x H200-SXM-141GB, TensorRT)<br>" in h]
    assert t.y[i] == pytest.approx(3653.5275 * (222.3 + 291.2628) / 291.2628)
    assert "= output 3,654 × (ISL 222 + OSL 291) ÷ OSL" in t.hovertext[i]


def test_mlperf_another_precision_is_drawn_open_and_said(mlperf_results):
    """B200's Llama-2-70B results: v5.1's 24 are NVFP4, v4.1's one and v5.0's three FP8. Beside FP8 curves the
    NVFP4 ones are kept, drawn open and labelled; beside FP4 curves they match and the FP8 ones do not."""
    fp8 = figs.mlperf_overlay(mlperf_results, "llama-2-70b", ["b200"], ["fp8"])
    assert len(fp8) == 28 and sum(p.precision_matches for p in fp8) == 4
    assert all(p.precision_matches == (p.round != "v5.1") for p in fp8)
    s, _ = _series(hid="b200")
    fig = figs.frontier_figure([s], [], mlperf_points=fp8)
    t = _mlperf_trace(fig, EN("fr_mlperf_legend_other", round="v5.1"))
    assert len(t.x) == 24 and t.marker.symbol == "triangle-up-open"
    assert all("FP4 weights (not the curves' FP8)" in h for h in t.hovertext)
    assert len(_mlperf_trace(fig, EN("fr_mlperf_legend", round="v5.0")).x) == 3
    fp4 = figs.mlperf_overlay(mlperf_results, "llama-2-70b", ["b200"], ["fp4"])
    assert sum(p.precision_matches for p in fp4) == 24


def test_mlperf_table_rows_say_measured_or_modelled(mlperf_results):
    pts = figs.mlperf_overlay(mlperf_results, "llama-2-70b", ["h200"], ["fp8"])
    s, _ = _series(hid="h200")
    table = figs.frontier_table([s], [], mlperf_points=pts)
    ml = table[table["kind"] == "measured (MLPerf Inference)"]
    assert len(ml) == 29 and set(ml["basis"]) == {"measured"}
    assert set(table.loc[table["kind"] == "model", "basis"]) == {"modelled"}
    row = ml[(ml["submitter"] == "NVIDIA") & (ml["system"] == "NVIDIA H200 (8x H200-SXM-141GB, TensorRT)")]
    assert len(row) == 1
    r = row.iloc[0]
    assert (r["round"], r["mlperf_scenario"], r["num_gpus"]) == ("v4.1", "Server", 8)
    assert r["output_tokens_per_s_per_gpu"] == pytest.approx(3653.5275) and r["tpot_ms"] == pytest.approx(123.263)
    assert r["tokens_per_s_per_user"] == pytest.approx(1000 / 123.263)
    assert (r["isl_tokens"], r["osl_tokens"]) == pytest.approx((222.3, 291.2628))
    assert r["source"].startswith("mlcommons/inference_results_v4.1@")


def test_mlperf_nothing_to_match_draws_nothing(mlperf_results):
    """No MLPerf result for the model (Llama 3.1 70B), or none on the chips chosen (Llama 2 70B on MI355X): no
    points, no MLPerf trace, no error; open-division results are never drawn; DeepSeek-V3 takes DeepSeek-R1's."""
    assert figs.mlperf_overlay(mlperf_results, "llama-3.1-70b", ["h200", "b200"], ["fp8"]) == []
    assert figs.mlperf_overlay(mlperf_results, "llama-2-70b", ["mi355x"], ["fp8"]) == []
    s, _ = _series(hid="h200")
    fig = figs.frontier_figure([s], [], mlperf_points=[])
    assert not any(t.name and t.name.startswith("MLPerf") for t in fig.data)
    assert "basis" in figs.frontier_table([s], []).columns
    h100 = figs.mlperf_overlay(mlperf_results, "llama-2-70b", ["h100-sxm"], ["fp8"])
    assert h100 and all(p.result.fields["division"] == "closed" for p in h100)
    v3, r1 = (figs.mlperf_overlay(mlperf_results, m, ["b200"], ["fp4"]) for m in ("deepseek-v3", "deepseek-r1"))
    assert r1 and [p.result.index for p in v3] == [p.result.index for p in r1]
    assert figs.mlperf_lengths([]) == (pytest.approx(math.nan, nan_ok=True),) * 2


def test_mlperf_zh_tw_legend_and_hover(mlperf_results):
    pts = figs.mlperf_overlay(mlperf_results, "llama-2-70b", ["h200"], ["fp8"])
    s, _ = _series(hid="h200")
    fig = figs.frontier_figure([s], [], mlperf_points=pts, tr=ZH)
    t = _mlperf_trace(fig, ZH("fr_mlperf_legend", round="v5.1"))
    assert "實測" in t.name and all("實測" in h and "MLPerf 的長度" in h for h in t.hovertext)


def test_rack_csv_carries_each_price_basis_and_its_cost():
    """The rack-scale view's CSV reproduces its $ table: each basis's $/GPU-hour and $ per 1M input + output tokens
    (= $/GPU-hour x 1e6 / (tokens/s per GPU x 3600)) per searched point; blank where the chip has no price."""
    from tpot_model import Scenario, load_hardware_catalog, load_model_catalog, resolve_profile
    from tpot_model import layouts as lo
    from ui.figures import rack_scale as rack

    m, hw = load_model_catalog()["deepseek-r1"], load_hardware_catalog()["b200"]
    s = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    ds = tuple(lo.deployment_curve(lo.layout_tables(m, hw, s, resolve_profile("sglang"), max_gpus=16), [25.0, 60.0]))
    prices = {"on_demand": 6.03, "hyperscaler": 1.73}
    dates = {"on_demand": "2026-03-17", "hyperscaler": "2026-09-20"}
    curve = rack.RackCurve("b200", "B200", False, np.array([25.0, 60.0]), ds, prices, price_as_of=dates)
    table = rack.rack_table([curve], [])
    for b, usd in prices.items():
        assert list(table[f"usd_per_gpu_hour_{b}"]) == [usd, usd]
        assert list(table[f"price_as_of_{b}"]) == [dates[b], dates[b]]  # each price with its date
        want = [usd * 1e6 / (d.tokens_per_s_per_gpu * 3600) for d in ds]
        assert list(table[f"usd_per_1M_tokens_in_plus_out_{b}"]) == pytest.approx(want, rel=1e-12)
    assert "usd_per_gpu_hour_neocloud" not in table.columns
    # the $ table: a row per basis the chip has a price on; the others named under it, not rows of dashes
    bases = ["on_demand", "hyperscaler", "neocloud"]
    costs = rack.cost_table([curve, rack.RackCurve("vr200", "Rubin", True, curve.targets, ds, {})], bases)
    assert list(costs[EN("fr_rack_col_basis")]) == [EN("fr_tier_short_on_demand"), EN("fr_tier_short_hyperscaler")]
    # in dollars, to 3 significant figures with their trailing zeros (a number column read '0.07' beside '0.084')
    at25 = [f"${usd * 1e6 / (ds[0].tokens_per_s_per_gpu * 3600):#.3g}" for usd in prices.values()]
    assert list(costs[costs.columns[2]]) == at25 and all(len(v.replace(".", "").lstrip("$0")) == 3 for v in at25)
    assert rack.unpriced_caption(costs, bases) == EN(
        "fr_rack_unpriced", items=f"{EN('fr_rack_unpriced_on', name='B200', bases=EN('fr_tier_neocloud'))}; Rubin"
    )
    assert rack.unpriced_caption(rack.cost_table([curve], bases[:2]), bases[:2]) is None


@pytest.mark.parametrize("tr", [EN, ZH])
def test_rack_csv_writes_a_layout_as_the_cli_does_and_the_hover_reads_it_short(tr):
    """A layout had been written two ways: '3 × DEP4 → 1 × DEP32' in the rack-scale view's CSV (and Economics'), 'prefill
    3 × DEP4 + decode 1 × DEP32' by `frontier --max-gpus --json` (layout.label). The CSV now carries Deployment.label;
    the hover keeps the short form (Deployment.short_label) after a serving word that says it reads prefill → decode;
    a point no layout reaches has no layout (blank, not '—')."""
    from dataclasses import replace

    from tpot_model.layouts import Pool
    from ui.figures import rack_scale as rack

    curve = _b200_curve([25.0, 400.0], max_gpus=16)
    assert curve.deployments[0].feasible and not curve.deployments[1].feasible
    wide = replace(curve.deployments[0], serving="disaggregated", prefill=Pool(3, 4, "dp-ep", 1),
                   decode=Pool(1, 32, "dp-ep", 256), gpus_used=44)  # fmt: skip
    curve = replace(curve, deployments=(wide, curve.deployments[1]))
    table = rack.rack_table([curve], [], tr)
    assert list(table["layout"])[0] == wide.label == "prefill 3 × DEP4 + decode 1 × DEP32"
    assert table["layout"].isna().tolist() == [False, True]
    fig = rack.rack_figure([curve], [], model_name="DeepSeek-R1", io="1k/1k", precision="FP8", engine=None, tr=tr)
    (hover,) = [h for t in fig.data for h in (t.hovertext or ())]
    serving = tr("fr_rack_serving_disaggregated")
    assert "→" in serving and f"{serving}{'：' if tr is ZH else ': '}3 × DEP4 → 1 × DEP32" in hover


def test_rack_csv_says_how_fast_an_unreached_target_could_go():
    """A searched target no layout reaches carries the fastest tokens/s per user a layout that fits reaches (the
    table's '—' explained in the export too); a reached one leaves it blank."""
    from tpot_model import Scenario, load_hardware_catalog, load_model_catalog, resolve_profile
    from tpot_model import layouts as lo
    from ui.figures import rack_scale as rack

    m, hw = load_model_catalog()["deepseek-r1"], load_hardware_catalog()["b200"]
    s = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    tables = lo.layout_tables(m, hw, s, resolve_profile("typical"), max_gpus=8)
    ds = tuple(lo.deployment_curve(tables, [25.0, 400.0]))
    table = rack.rack_table([rack.RackCurve("b200", "B200", False, np.array([25.0, 400.0]), ds, {})], [])
    reached, unreached = table["fastest_tok_s_per_user"]
    assert reached is None or not np.isfinite(reached)
    assert unreached == pytest.approx(1 / lo.fastest_tpot_s(tables)) and unreached < 400


def test_a_link_parameter_no_page_reads_is_named_with_the_nearest_one_that_does():
    """Issue 18 review: `max_gpus` on a Planner link was ignored silently (the parameter is planner_max_gpus). Every
    parameter no page reads gets a notice naming the known one it ends ('max_gpus' -> 'planner_max_gpus') or the
    nearest by spelling ('gpu' -> 'gpus'); every parameter a page writes is known (the query writers' own)."""
    known = page_state.page_params() | {"gpus", "model", "embed"}
    assert {"planner_max_gpus", "fr_rack_recipes", "ec_chips", "b_gpus", "c_price", "spec_k"} <= known
    said = page_state.unknown_params(
        {"max_gpus": "16", "gpu": "8", "model": "x", "fr_io": "1k1k", "q<b>": "1"}, known, "planner"
    )
    assert [(n.param, n.used, n.unknown) for n in said] == [
        ("max_gpus", "planner_max_gpus", True),
        ("gpu", "gpus", True),
        ("qb", "", True),
    ]
    assert said[0].given == "16"


@pytest.mark.parametrize("tr", [EN, ZH])
def test_transfer_caption_says_there_is_no_range_and_what_the_models_own_runs_say(tr):
    """Under the Planner's layout and the rack view, for a model the serving fit has not seen: no measured range (the
    ranges rest on DeepSeek-R1's runs), and the transfer check over its own published runs; nothing for R1."""
    import json

    from tpot_model.catalog import resolve_model
    from tpot_model.frontier_check import transfer_note
    from ui.figures.rack_scale import transfer_caption

    check = json.loads((ROOT / "data" / "disaggregated_check.json").read_text(encoding="utf-8"))
    names = {"deepseek-r1": "DeepSeek-R1"}
    note = transfer_note(resolve_model("deepseek-v4-pro"), check)
    said = transfer_caption(note, names, "DeepSeek-V4-Pro", tr)
    own = check["transfer"]["frontier_by_model"]["deepseek-v4-pro"]
    assert tr("fr_transfer_none", model="DeepSeek-V4-Pro", fitted="DeepSeek-R1") in said
    assert f"{own['median_ratio']:.2f}" in said and tr("fr_transfer_tail") in said
    kimi = transfer_caption(transfer_note(resolve_model("kimi-k2"), check), names, "Kimi K2", tr)
    assert kimi == tr("fr_transfer_none", model="Kimi K2", fitted="DeepSeek-R1")  # no runs of its own
    assert transfer_caption(transfer_note(resolve_model("deepseek-r1"), check), names, "DeepSeek-R1", tr) is None


@pytest.mark.parametrize("tr", [EN, ZH])
def test_the_measurements_check_says_what_the_transfer_check_found(tr):
    """Under the Serving frontier's measurements check (DeepSeek-R1's runs): each model the fit has not seen, with its
    single-node TPOT and frontier ratios from data/disaggregated_check.json."""
    import json

    from ui.figures.rack_scale import transfer_check_caption

    check = json.loads((ROOT / "data" / "disaggregated_check.json").read_text(encoding="utf-8"))
    names = {"deepseek-r1": "DeepSeek-R1", "deepseek-v4-pro": "DeepSeek-V4-Pro"}
    said = transfer_check_caption(check, names, tr)
    v4 = check["transfer"]["single_node"]["deepseek-v4-pro"]
    assert "DeepSeek-R1" in said and "DeepSeek-V4-Pro" in said and "qwen3.5-397b-a17b" in said  # ids without a name
    assert tr("fr_transfer_check_single", runs=v4["runs"], tpot=f"{v4['median_tpot_ratio']:.2f}") in said
    assert transfer_check_caption({}, names, tr) is None


def _b200_curve(targets, prices=None, hw_id="b200", name="B200", max_gpus=8):
    """A rack-view curve of DeepSeek-R1 FP8 1k/1k on a catalog chip under the sglang profile at `targets`."""
    from tpot_model import Scenario, load_hardware_catalog, load_model_catalog, resolve_profile
    from tpot_model import layouts as lo
    from ui.figures import rack_scale as rack

    m, hw = load_model_catalog()["deepseek-r1"], load_hardware_catalog()[hw_id]
    s = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    tables = lo.layout_tables(m, hw, s, resolve_profile("sglang"), max_gpus=max_gpus)
    ds = tuple(lo.deployment_curve(tables, targets))
    return rack.RackCurve(hw_id, name, False, np.array(targets, dtype=float), ds, prices or {})


def test_rack_rates_table_says_the_gpus_each_value_uses():
    """Browser review: the 'equal GPU budget' ratios divide by the GPUs a deployment uses, which may be fewer than the
    budget; under each chip's row (and its measured one), the GPUs its deployment at each target uses: the searched
    deployment's gpus_used, blank where the chip does not reach the target."""
    from ui.figures import rack_scale as rack

    curve = _b200_curve(list(rack.RATIO_AT) + [400.0], max_gpus=16)
    table = rack.rates_table([curve]).set_index(EN("fr_rack_col_rates"))
    used = table.loc[EN("fr_rack_row_gpus")]
    for x, got in zip(rack.RATIO_AT, used, strict=True):
        d = curve.deployment_at(x)
        want = d.gpus_used if math.isfinite(curve.at(x)) else math.nan
        assert got == want or (math.isnan(got) and math.isnan(want))
        assert math.isnan(got) or 1 <= got <= 16 and got == int(got)
    assert list(table.index) == ["B200", EN("fr_rack_row_gpus")] == ["B200", "↳ GPUs used"]  # under its chip


def test_rack_rates_table_gives_each_values_80_percent_range():
    """A browser review: the rack table's tokens/s per GPU carried no uncertainty though the check beneath it reads
    the search 1.3x the measured runs. Under a chip whose deployments have a range (frontier_check.deployment_range),
    a row of 'low–high' per target (2 significant figures), '—' where none; the row holds each range's low end."""
    from dataclasses import replace

    from ui.figures import rack_scale as rack

    curve = _b200_curve(list(rack.RATIO_AT), max_gpus=16)
    ranges = tuple((1234.0, 5678.0) if abs(t - 25.0) < 1e-9 else None for t in curve.targets)
    table = rack.rates_table([replace(curve, ranges=ranges)])
    names = list(table[EN("fr_rack_col_rates")])
    assert names == ["B200", EN("fr_rack_row_range"), EN("fr_rack_row_gpus")]
    html = rack.shown(table).to_html()
    assert ">1,200–5,700<" in html and html.count("–") == 1  # one range, at 25 tok/s per user
    assert table.iloc[1][EN("fr_rack_col_at", x="25")] == 1200.0  # the low end, as shown
    assert list(rack.rates_table([curve])[EN("fr_rack_col_rates")]) == ["B200", EN("fr_rack_row_gpus")]  # none: no row


@pytest.mark.parametrize("tr", [EN, ZH])
def test_a_projection_says_why_it_has_no_80_percent_range(tr):
    """A review: in the rack table GB200, B200 and MI355X each had a '↳ 80% range' row and Rubin NVL72 and MI455X
    none, unexplained (the CLI: 'announced, not shipping: nothing measured'). The owner the CLI reads
    (frontier_check.no_range_kind) gives the reason; the row is there for them, saying it, as the hover and the CSV
    do; a chip with a range at one target keeps its plain row, and a reason not the chip's (MTP) adds none."""
    from dataclasses import replace

    from tpot_model import frontier_check as fc
    from tpot_model import load_hardware_catalog, load_model_catalog, resolve_profile
    from tpot_model.pool_correction import committed_check
    from ui.figures import rack_scale as rack

    m, cat = load_model_catalog()["deepseek-r1"], load_hardware_catalog()
    check = committed_check()[fc.summary_key(True)]
    curve = _b200_curve(list(rack.RATIO_AT), max_gpus=16)
    d = next(d for d in curve.deployments if d.feasible)
    kinds = {h: fc.no_range_kind(d, m, cat[h], resolve_profile("sglang"), check) for h in ("vr200", "mi455x", "b200")}
    assert kinds == {"vr200": "announced", "mi455x": "announced", "b200": None}
    assert fc.no_range_reason(d, m, cat["vr200"], resolve_profile("sglang"), check) == (
        f"{cat['vr200'].name} is announced, not shipping: nothing measured"  # the CLI's words, unchanged
    )
    assert fc.no_range_kind(replace(d, mtp_k=3), m, cat["b200"], resolve_profile("sglang"), check) == "mtp"
    # a dense model is said to be one (a browser review: Llama-3.1-70B had read 'another architecture's'); an MoE
    # model of another architecture than the measured runs' (Kimi K2) is said to be that
    models = load_model_catalog()
    sglang = resolve_profile("sglang")
    assert fc.no_range_kind(d, models["llama-3.1-70b"], cat["b200"], sglang, check) == "dense"
    assert fc.no_range_kind(d, models["kimi-k2"], cat["b200"], sglang, check) == "architecture"
    why = tuple("announced" if x.feasible else None for x in curve.deployments)
    rubin = replace(curve, hardware_id="vr200", name="Rubin NVL72", projection=True, no_range=why)
    table = rack.rates_table([rubin], tr)
    said = tr("fr_rack_row_range_none", reason=tr("fr_rack_no_range_announced"))
    assert list(table[tr("fr_rack_col_rates")]) == ["Rubin NVL72", said, tr("fr_rack_row_gpus")]
    assert said == (
        "↳ 80% range: none, announced, nothing measured" if tr is EN else "↳ 80% 區間：無，已發表、尚未出貨，沒有實測"
    )
    assert table.iloc[1, 1:].isna().all()  # no number under it: '—'
    # the CSV: why, by id and in the reader's words, on each point that fits; the HTML's hover says it too
    csv = rack.rack_table([rubin], [], tr)
    fits = csv[csv.feasible]
    assert set(fits.no_measured_range) == {"announced"}
    assert set(fits.no_measured_range_reason) == {tr("fr_rack_no_range_announced")}
    assert csv[~csv.feasible].no_measured_range.isna().all()
    fig = rack.rack_figure([rubin], [], model_name="DeepSeek-R1", io="1k/1k", precision="FP8", engine=None, tr=tr)
    hovers = [h for t in fig.data for h in (t.hovertext or ())]
    assert hovers and all(tr("fr_rack_hover_range_none", reason=tr("fr_rack_no_range_announced")) in h for h in hovers)
    # a range at one target: the plain row; the MTP reason is the search's, not the chip's: no row
    ranged = replace(curve, ranges=tuple((1.0, 2.0) if x.feasible else None for x in curve.deployments), no_range=why)
    assert tr("fr_rack_row_range") in list(rack.rates_table([ranged], tr)[tr("fr_rack_col_rates")])
    mtp = replace(curve, no_range=tuple("mtp" if x.feasible else None for x in curve.deployments))
    assert list(rack.rates_table([mtp], tr)[tr("fr_rack_col_rates")]) == ["B200", tr("fr_rack_row_gpus")]


@pytest.mark.parametrize("tr", [EN, ZH])
def test_rack_same_layout_caption_names_each_layout_at_its_own_targets(tr):
    """Browser review: the caption named the first match's layout for every match ('At 100, 125 ... (1 × TP4 → 8 ×
    TP8)' where 125 ran '9 × TP8'): one sentence per layout, each with the targets it serves; a disaggregated one in
    the owner's short form (Deployment.short_label) said to read prefill → decode."""
    from ui.figures import rack_scale as rack

    targets = list(rack.RATIO_AT)
    b200 = _b200_curve(targets, max_gpus=72)  # within a rack's budget: disaggregated at 100 tok/s per user
    gb200 = rack.RackCurve("gb200", "GB200 NVL72", False, b200.targets, b200.deployments, {})  # the same points
    said = rack.same_layout_caption([gb200, b200], tr)
    layouts = {}
    for x, d in zip(targets, b200.deployments, strict=True):
        if d.feasible:
            shown = d.short_label if d.prefill is None else tr("fr_rack_layout_disaggregated", layout=d.short_label)
            layouts.setdefault(shown, []).append(x)
    assert len(layouts) >= 2, layouts  # the case that went wrong: several layouts over the targets
    assert any("→" in layout for layout in layouts)  # a disaggregated one among them
    for layout, xs in layouts.items():
        want = tr("fr_rack_same_layout", x=tr.join([f"{x:g}" for x in xs]), rack="GB200 NVL72", other="B200",
                  layout=layout)  # fmt: skip
        assert want in said
    assert "prefill 1" not in said and " + decode" not in said  # the CLI's English form stays in the CSV


def test_rack_view_names_chips_that_hold_the_model_with_no_layout():
    """Browser review: Kimi K2 in BF16 within 8 GPUs fits no chip but MI455X, and the '—' rows were explained as
    'does not reach that interactivity': rack.unfit names the chips whose search stopped on memory at every target
    (not those that fit but are slow), and the chart keeps its legend for the one curve left."""
    from tpot_model import Scenario, load_hardware_catalog, load_model_catalog, resolve_profile
    from tpot_model import layouts as lo
    from ui.figures import rack_scale as rack

    m, cat = load_model_catalog()["kimi-k2"], load_hardware_catalog()
    s = Scenario(context_tokens=1024, output_tokens=1024, weights="bf16", kv_cache="bf16")
    curves = []
    for hid in ("b200", "mi455x"):
        ds = tuple(lo.deployment_curve(lo.layout_tables(m, cat[hid], s, resolve_profile("typical"), max_gpus=8),
                                       list(rack.RATIO_AT)))  # fmt: skip
        curves.append(rack.RackCurve(hid, hid.upper(), hid == "mi455x", np.array(rack.RATIO_AT), ds, {}))
    assert [c.hardware_id for c in rack.unfit(curves)] == ["b200"]  # 8 x 180 GB < 2 TB of BF16 weights
    assert curves[1].feasible.any()  # 8 x 432 GB holds it
    fig = rack.rack_figure(curves, [], model_name="Kimi K2", io="1k/1k", precision="BF16", engine=None, budget_gpus=8)
    drawn = [t for t in fig.data if t.mode == "lines+markers"]
    assert [t.name for t in drawn] == [EN("fr_rack_projection", name="MI455X")] and fig.layout.showlegend is True
    slow = _b200_curve([25.0, 400.0])  # fits, misses 400 on latency: not unfit
    assert rack.unfit([slow]) == []


def _ds_1k1k_runs() -> list:
    """InferenceX's DeepSeek-R1 FP8 1k/1k runs the rack view draws within 72 GPUs: GB200's, B200's and MI355X's,
    single-node and disaggregated."""
    rows = sc.load_serving_measurements()
    return figs.measured_points(rows, "deepseek-r1", 1024, 1024, ["gb200", "b200", "mi355x"], ["fp8"], False, True)


@pytest.mark.parametrize("tr", [EN, ZH])
def test_rack_measured_points_say_which_the_fit_used(tr):
    """Browser review: under the rack view's tables, 'The measured points are not in the engine profiles' fit' stood
    beside single-node runs (IX-019, IX-023, IX-233) that the main chart's hover calls 'used in the fit and the
    check'. The note counts each chip's points the fit used, by the main chart's rule (ServingMeasurement.fitted),
    and the disaggregated ones the pool correction was fitted on; each point's hover says which as the main chart's
    does; the CSV carries it beside the run's date and source."""
    from tpot_model.pool_correction import committed_check, fitted_run_ids
    from ui.figures import rack_scale as rack

    drawn, names = _ds_1k1k_runs(), {"gb200": "GB200 NVL72", "b200": "B200", "mi355x": "MI355X"}
    assert {"IX-019", "IX-023", "IX-233"} <= {r.id for r in drawn if r.fitted}
    pool = fitted_run_ids(committed_check())
    said = rack.measured_fit_caption(drawn, names, pool, tr)
    counts = {h: (sum(r.fitted for r in rs), len(rs)) for h, rs in rack.by_chip(drawn).items()}
    assert counts["b200"][0] and counts["mi355x"][0] and not counts["gb200"][0]  # GB200's are disaggregated
    for hid, (n, runs) in counts.items():
        assert (tr("fr_rack_fit_item", name=names[hid], n=n, runs=runs) in said) is (n > 0), hid
    assert tr("fr_use_fit") in said and "not in the engine profiles' fit" not in said
    disaggregated = [r for r in drawn if r.layout == "disaggregated"]
    pooled = sum(r.id in pool for r in disaggregated)
    assert 0 < pooled < len(disaggregated)  # runs with neither pool checked add nothing to the fit
    assert tr("fr_rack_measured_pool", n=pooled, runs=len(disaggregated)) in said
    # a run with neither a decode nor a prefill check is not among the pool correction's
    unfitted = [c["id"] for c in committed_check()["checked"]
                if c["decode_tpot_error"] is None and c["prefill_model_over_measured"] is None]  # fmt: skip
    assert unfitted and not pool & set(unfitted)
    assert rack.measured_fit_caption([], names, pool, tr) is None
    display_only = [r for r in drawn if not r.fitted]
    assert rack.measured_fit_caption(display_only, names, (), tr).startswith(tr("fr_rack_measured_fit_none"))
    # each point's hover: the main chart's words for the same run
    fig = rack.rack_figure([], drawn, model_name="DeepSeek-R1", io="1k/1k", precision="FP8", engine=None, tr=tr)
    hovers = [h for t in fig.data if t.mode == "markers" for h in t.hovertext]
    by_id = {r.label: r for r in drawn}  # 'InferenceX IX-023': who published the run, then its id
    for h in hovers:
        r = by_id[h.split(" · ")[1]]
        use = tr("fr_use_fit") if r.fitted else tr("fr_use_display")
        assert h.endswith("<br>" + use) and use in figs._hover_measured(r, tr, 1.0, "tok/s")
    assert len(hovers) == len(drawn)
    # the CSV: when and where each run was measured (the main CSV's run_date), and whether the fit used it
    table = rack.rack_table([], drawn)
    rows = table[table["source"] == "measured"].set_index("id")
    assert "run_date" in figs.frontier_table([], drawn).columns
    assert rows.loc["IX-023", "run_date"] == by_id["InferenceX IX-023"].run_date == "2026-05-22"
    for r in by_id.values():
        i = r.id
        assert rows.loc[i, "run_date"] == r.run_date and rows.loc[i, "used_in_fit"] == r.fitted
        assert rows.loc[i, "source_citation"] == r.fields["source"] and r.fields["source"].startswith(
            rows.loc[i, "source_url"]
        )
        assert rows.loc[i, "source_url"].startswith("https://github.com/SemiAnalysisAI/InferenceX/actions/runs/")


@pytest.mark.parametrize("tr", [EN, ZH])
def test_rack_key_says_runs_of_these_lengths_exist_beyond_a_small_budget(tr):
    """Browser review: DeepSeek-R1 1k/1k within 3 GPUs: the chart's key read 'no measured run of these lengths',
    though InferenceX ran it on all three chips, on 4 to 72 GPUs: it says none is within the budget and the fewest
    GPUs one used; with no run of these lengths at all, what it said."""
    from ui.figures import rack_scale as rack

    runs = _ds_1k1k_runs()
    assert {r.fields["hardware_id"] for r in runs} == {"gb200", "b200", "mi355x"}
    fewest = min(r.num_gpus for r in runs)
    assert fewest == 4  # B200's TP4 run
    curve = _b200_curve([25.0], hw_id="mi455x", name="MI455X", max_gpus=2)  # fits 2 GPUs: a curve drawn

    def key(measured, beyond) -> str:
        fig = rack.rack_figure([curve], measured, model_name="DeepSeek-R1", io="1k/1k", precision="FP8",
                               engine=None, budget_gpus=3, tr=tr, beyond_budget=beyond)  # fmt: skip
        (text,) = [a.text for a in fig.layout.annotations if "★" in a.text]
        return text.replace("<br>", " · ")

    within = [r for r in runs if r.num_gpus <= 3]
    assert within == []
    said = tr("fr_rack_marker_key_beyond", devices=fmt.devices("gpu", 3, tr), fewest=fmt.devices("gpu", 4, tr))
    assert key(within, runs) == said
    assert key([], []) == tr("fr_rack_marker_key_unmeasured")
    assert key(runs, []) == tr("fr_rack_marker_key")


def test_rack_fit_remedy_names_the_smallest_budget_per_chip_and_the_precision():
    """The rack view's no-fit notice (rack.fit_remedy over layouts.budget_no_fit, `frontier --max-gpus`'s estimate):
    DeepSeek-R1 FP8 1k/1k within 1 GPU: MI455X holds it on 2, B200 on 4; within 1 GPU, its vendor's block FP4 weights
    (MXFP4) hold it on MI455X, and no lower precision does on B200 (it had said 'a larger budget or a lower precision'
    alone)."""
    from tpot_model import layouts as lo
    from ui.figures import rack_scale as rack

    s = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    needs = []
    for hid, name in (("b200", "B200"), ("mi455x", "MI455X")):
        hw = resolve_hardware(hid)
        needs.append((name, lo.budget_no_fit(MODEL, hw, s, lo.best_engines(hw), 1)))
    for tr in (EN, ZH):
        said = rack.fit_remedy(needs, 1, tr)
        items = [tr("fr_rack_fit_budget_item", devices=fmt.devices("gpu", 2, tr), chips="MI455X"),
                 tr("fr_rack_fit_budget_item", devices=fmt.devices("gpu", 4, tr), chips="B200")]  # fmt: skip
        assert tr("fr_rack_fit_budget", items=tr.join(items, "clause_sep")) in said
        assert (
            tr("fr_rack_fit_precision_item", what=tr("remedy_precision_weights", fmt="mxfp4"), chips="MI455X") in said
        )
        assert tr("fr_rack_fit_precision_short_item", chips="B200") in said
    assert rack.fit_remedy(needs[:1], 1, EN).endswith(EN("fr_rack_fit_precision_short", devices="1 GPU", chips="B200"))
    assert rack.fit_remedy([], 1, EN) == ""


def test_rack_price_order_caption_says_when_the_cheaper_chip_depends_on_the_basis():
    """Browser review: GB200's on-demand $/GPU-hour (one provider's superchip price halved) is under B200's while
    every other basis prices it above: where both run one layout (the same tokens/s per GPU), which is cheaper per
    token turns on the basis, and the view says so at those targets, naming the bases on each side; where the order
    holds on every basis it says nothing."""
    from dataclasses import replace

    from ui.figures import rack_scale as rack

    b200 = _b200_curve([25.0], {"on_demand": 6.03, "hyperscaler": 1.73, "neocloud": 2.07})
    gb200 = rack.RackCurve("gb200", "GB200 NVL72", False, b200.targets, b200.deployments,
                           {"on_demand": 4.54, "hyperscaler": 1.86, "neocloud": 2.26})  # fmt: skip
    bases = ["on_demand", "hyperscaler", "neocloud"]
    assert rack.price_order_caption([gb200, b200], bases) == EN(
        "fr_rack_price_order", x="25", rack="GB200 NVL72", other="B200", cheaper=EN("fr_tier_on_demand"),
        dearer=EN.join([EN("fr_tier_hyperscaler"), EN("fr_tier_neocloud")]),
    )  # fmt: skip
    assert rack.price_order_caption([gb200, b200], bases[1:]) is None
    # per token, not per GPU-hour (browser re-review): GB200 at twice B200's tokens/s per GPU is cheaper per token
    # on every basis though dearer per GPU-hour on two: nothing to say
    fast = [replace(d, tokens_per_s_per_gpu=2 * d.tokens_per_s_per_gpu) for d in b200.deployments]
    gb200_fast = rack.RackCurve("gb200", "GB200 NVL72", False, b200.targets, tuple(fast), gb200.usd_per_gpu_hour)
    assert rack.price_order_caption([gb200_fast, b200], bases) is None


def test_rack_hover_says_when_the_model_is_outside_its_kinds_measured_range():
    """Browser review: GB200 at 125 read 154 tok/s/GPU beside a measured range of 184-296 with no word on it; a point
    outside the range it shows says on which side the model is."""
    from ui.figures import rack_scale as rack

    c = _b200_curve([25.0])
    y = c.deployments[0].tokens_per_s_per_gpu
    cases = (((y * 1.2, y * 1.9), "fr_rack_hover_range_below"), ((y * 0.5, y * 0.8), "fr_rack_hover_range_above"),
             ((y * 0.8, y * 1.2), None))  # fmt: skip
    for rng, key in cases:
        curve = rack.RackCurve("b200", "B200", False, c.targets, c.deployments, {}, (rng,))
        hover = rack._hover(curve, 0, EN)
        said = [EN(k, y=f"{y:,.0f}") for k in ("fr_rack_hover_range_below", "fr_rack_hover_range_above")]
        assert [s for s in said if s in hover] == ([EN(key, y=f"{y:,.0f}")] if key else [])


def test_loho_bias_table_gives_the_signed_error_by_concurrency():
    """Helper analysis: the headline median |TPOT error| hides a lean (the held-out model +7 % slow at concurrency
    8-16, ~-3 % at 32+): the table gives the signed median and 10th-90th percentiles per concurrency bucket, by hand
    from the committed leave-one-hardware-out predictions; every run in one bucket."""
    from tpot_model import serving_calibration as sc
    from ui import cache

    cv = cache.serving_loho()
    table = figs.loho_bias_table(cv)
    c = np.array([r.concurrency for r in cv.rows])
    e = np.asarray(cv.tpot_error)
    assert table[EN("fr_bias_col_runs")].sum() == len(cv.rows) == np.isfinite(e).sum()
    for _, row in table.iterrows():
        label = row[EN("fr_bias_col_concurrency")]
        low, high = next((lo_, hi) for lab, lo_, hi in sc.CONCURRENCY_BUCKETS if lab == label)
        mine = e[(c >= low) & (c <= high)]
        assert row[EN("fr_bias_col_runs")] == mine.size
        assert row[EN("fr_bias_col_median")] == fmt.pct(float(np.median(mine)), signed=True)
    mid = table.set_index(EN("fr_bias_col_concurrency")).loc["8–31", EN("fr_bias_col_median")]
    assert mid.startswith("+")  # the lean the headline hid: the held-out model is slow there


def test_rack_figure_with_nothing_to_draw_says_so_without_axes():
    """Browser re-review: within 1 GPU no chip holds Kimi K2, and the chart drew empty axes of made-up ranges (x 0-6,
    y 0.1-10k): the plot says no chip holds the model within the budget and shows no axes."""
    from tpot_model import Scenario, load_hardware_catalog, load_model_catalog, resolve_profile
    from tpot_model import layouts as lo
    from ui.figures import rack_scale as rack

    m, hw = load_model_catalog()["kimi-k2"], load_hardware_catalog()["b200"]
    s = Scenario(context_tokens=1024, output_tokens=1024, weights="bf16", kv_cache="bf16")
    ds = tuple(lo.deployment_curve(lo.layout_tables(m, hw, s, resolve_profile("typical"), max_gpus=1), [25.0]))
    curve = rack.RackCurve("b200", "B200", False, np.array([25.0]), ds, {})
    fig = rack.rack_figure([curve], [], model_name="Kimi K2", io="1k/1k", precision="BF16", engine=None, budget_gpus=1)
    assert not fig.data and fig.layout.xaxis.visible is False and fig.layout.yaxis.visible is False
    assert [a.text for a in fig.layout.annotations] == [
        EN("fr_rack_nothing", devices="1 GPU")
    ] and not fig.layout.shapes
    # and what else the numbers assume on a line under the title (a screenshot of the page keeps it)
    said = rack.rack_figure([curve], [], model_name="K", io="1k/1k", precision="BF16", engine=None,
                            conditions=["MTP, 3 draft tokens at 50% acceptance"]).layout.title.text  # fmt: skip
    assert said.endswith("<br><sup>MTP, 3 draft tokens at 50% acceptance</sup>")


def test_rack_legend_shows_each_chips_line_not_its_first_points_marker():
    """Browser review: the legend copied each curve's first point's marker, so MI355X's entry read ★ (disaggregated)
    for a chip aggregated at most targets: each chip's legend entry is its line alone, in its group (a click hides
    the curve too), and the curve itself has no entry of its own."""
    from ui.figures import rack_scale as rack

    c = _b200_curve([8.0, 25.0, 60.0, 100.0], max_gpus=16)
    fig = rack.rack_figure([c], [], model_name="DeepSeek-R1", io="1k/1k", precision="FP8", engine=None)
    (curve,) = [t for t in fig.data if t.mode == "lines+markers"]
    (entry,) = [t for t in fig.data if t.showlegend is not False]
    assert curve.showlegend is False and entry.mode == "lines" and entry.legendgroup == curve.legendgroup == "b200"
    assert entry.name == curve.name == "B200" and entry.line.color == curve.line.color


def test_the_first_curve_lies_on_top_and_the_legend_keeps_the_order():
    """A browser review: the sidebar's GB200 (the first series) lay under B200's identical curve, only its legend
    entry showing. The first series is drawn last (on top); the legend lists the series in their order."""
    gb200, _ = _series(hid="gb200")
    b200, _ = _series(hid="b200")
    fig = figs.frontier_figure([gb200, b200], [])
    names = [t.name for t in fig.data if t.name in (gb200.label(), b200.label())]
    assert names.index(b200.label()) < names.index(gb200.label())  # drawn first, under
    rank = {t.name: t.legendrank for t in fig.data if t.name in (gb200.label(), b200.label())}
    assert rank[gb200.label()] < rank[b200.label()]  # listed first


def test_a_runs_unknown_image_is_said_in_the_pages_language(rows):
    """A browser review: zh-TW hovers read '(container image not recorded)' in English."""
    run = next(r for r in rows if figs.NO_IMAGE in r.engine)
    zh = figs.engine_text(run, ZH)
    assert figs.NO_IMAGE not in zh and ZH("fr_no_image") in zh and figs.engine_text(run, EN) == run.engine
    # the held-out check's hovers too (70 points had kept the English: a second review)
    cv = sc.serving_cross_validate(rows)
    for metric in ("tpot", "output"):
        hovers = [h for t in figs.validation_figure(cv, metric, tr=ZH).data if t.hovertext for h in t.hovertext]
        assert hovers and not [h for h in hovers if figs.NO_IMAGE in h]
        assert any(ZH("fr_no_image") in h for h in hovers)


def test_a_curve_faster_than_the_target_at_its_last_point_is_read_there():
    """A helper review: Llama-3.1-70B FP8 on 2 x B200 (4K/1K) at 20 tok/s/user read 'n/a' and 'cheapest' went to H200
    at $1.98, where the Planner serves B200 at $1.22: its curve had stopped at the grid's 128 requests (21.1 tok/s/user)
    where 158 fit (17.8). The curve ends at the most that fit (concurrency_grid's limit, as the page builds it), so 20
    lies on it; below 17.8 memory sets the batch: the deployment meets the target at that point, whose value is the
    answer; a sweep that ends (every point fits) gives a bound (at least that many tokens/s)."""
    m, hw = resolve_model("llama-3.1-70b"), resolve_hardware("b200")

    def run(c):
        s = Scenario(batch=c, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8", batching="continuous")
        return estimate(m, hw, s, resolve_profile("typical"))

    first = run(figs.concurrency_grid(32.0))
    C = figs.concurrency_grid(32.0, figs.most_in_flight(first.max_batch))
    assert C.size == figs.concurrency_grid(32.0).size + 1  # the most that fit, 158, added to the sweep
    e = run(C)
    series = figs.make_series(hw, "fp8", "fp8", "tp", C, e.tpot_s, e.ttft_s, e.output_tokens_per_s_per_gpu,
                              e.total_tokens_per_s_per_gpu, e.fits)  # fmt: skip
    fits = np.asarray(e.fits)
    last = int(np.flatnonzero(fits)[-1])
    assert C[last] == figs.most_in_flight(first.max_batch) and not fits[last + 1]  # the curve ends where memory does
    slowest = 1.0 / float(np.asarray(e.tpot_s)[last])
    assert 15.0 < slowest < 20.0
    (on,) = figs.at_target([series], 20.0, "output", 2.0)  # on the curve now: read off it, nothing marked
    assert on.limited_by == "" and math.isnan(on.concurrency)
    assert float(np.asarray(e.output_tokens_per_s_per_gpu)[last - 1]) < on.tokens_per_s_per_gpu
    (p,) = figs.at_target([series], 15.0, "output", 2.0)  # below the curve's end: its last point, memory-limited
    want = float(np.asarray(e.output_tokens_per_s_per_gpu)[last])
    assert p.tokens_per_s_per_gpu == want and (p.limited_by, p.at_least) == ("memory", False)
    assert (p.concurrency, p.interactivity) == (float(C[last]), pytest.approx(slowest))
    assert p.usd_per_1m["on_demand"] == pytest.approx(6.03 * 1e6 / (want * 3600))
    fig = figs.cost_figure([p], 15.0, "on_demand")
    assert fig.data[0].text[0] == fmt.usd(p.usd_per_1m["on_demand"])  # a value, not 'n/a' nor a bound
    assert EN("fr_hover_last_memory", n=fmt.integer(C[last]), x=f"{slowest:.1f}") in fig.data[0].hovertext[0]
    table = figs.cost_table([p], 15.0)
    assert table["limited_by"].iloc[0] == "memory" and table["last_point_concurrency"].iloc[0] == C[last]
    # every point fits and the last is still faster than the target: the sweep's end, a bound ('≤ $')
    small = figs.make_series(hw, "fp8", "fp8", "tp", C, 0.01 + 0 * C, 0.1 + 0 * C, 10 * C, 20 * C, C > 0)
    (b,) = figs.at_target([small], 50.0, "output", 2.0)
    assert (b.limited_by, b.at_least, b.tokens_per_s_per_gpu) == ("sweep", True, 10 * C[-1])
    fig = figs.cost_figure([b], 50.0, "on_demand")
    assert fig.data[0].text[0].startswith("≤ $") and "sweep's last point" in fig.data[0].hovertext[0]
    # above the fastest point: off the curve, no bar
    (off,) = figs.at_target([small], 150.0, "output", 2.0)
    assert math.isnan(off.tokens_per_s_per_gpu) and off.limited_by == ""
