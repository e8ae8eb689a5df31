"""Hardware and Compare figures as data (no Streamlit): traces, axis titles with units, plotted values equal to the
model's output (or the datasheet) times the display scale, the URL form of scenarios B/C. Built on the tiny in-code
models and toy accelerators, so catalog edits do not move these numbers."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from model_fixtures import TINY_DENSE, TOY_BW, TOY_GPU, TOY_GPU_NO_PRICE, legend_below

from tests.apptest_util import decode
from tpot_model import BUCKETS, IDEAL, EfficiencyProfile, Scenario, estimate
from tpot_model.catalog import load_hardware_catalog
from tpot_model.estimate import tpot_only_s
from ui import fmt, page_state
from ui.figures import compare as cf
from ui.figures import hardware as hf
from ui.figures.common import FRAME_FIGURE_PX, at_width, hardware_colour
from ui.i18n import EN, Translator
from ui.state import DEFAULT

ZH = Translator("zh-TW")
ENGINE = EfficiencyProfile(id="engine", name="Test engine", bandwidth_efficiency=0.8, per_token_overhead_s=1e-4)

# Three toy chips of different generations; "small" holds only 1 GB, so TINY_DENSE at a big batch does not fit.
FAST = replace(TOY_GPU, id="fast", name="Fast", memory_bandwidth_bytes_per_s=4 * TOY_BW, memory_type="HBM3e",
               launch_year=2024, vendor="Acme", memory_bytes=80e9)  # fmt: skip
MID = replace(TOY_GPU, id="mid", name="Mid", memory_bandwidth_bytes_per_s=2 * TOY_BW, memory_type="HBM3",
              launch_year=2022, vendor="Acme", memory_bytes=40e9)  # fmt: skip
SMALL = replace(TOY_GPU_NO_PRICE, id="small", name="Small", memory_bytes=1e6, memory_type="GDDR6",
                launch_year=2022, vendor="Other")  # fmt: skip
CHIPS = [MID, SMALL, FAST]


def _scenario(**kw):
    values = dict(batch=4, context_tokens=512, output_tokens=64, num_gpus=1, weights="bf16", kv_cache="bf16")
    values.update(kw)
    return Scenario(**values)


def _pairs(**kw):
    s = _scenario(**kw)
    return [(tpot_only_s(TINY_DENSE, h, s, IDEAL), estimate(TINY_DENSE, h, s, ENGINE)) for h in CHIPS]


def _trace(fig, name):
    matches = [t for t in fig.data if t.name == name]
    assert matches, f"no trace {name!r} in {[t.name for t in fig.data]}"
    return matches[0]


# --------------------------------------------------------------------------------------------------- hardware


def test_bandwidth_by_year_one_trace_per_vendor_labelled_in_tb_per_s():
    """Issue 19: the bubbles carry chip labels and vendor colours (they were coloured by memory type, unlabelled);
    the memory type stays in the hover."""
    from ui.figures.common import vendor_colour

    fig = hf.bandwidth_by_year(CHIPS)
    assert [t.name for t in fig.data] == ["Acme", "Other", ""]  # the vendors, then the labels over every bubble
    labels = fig.data[-1]
    assert labels.showlegend is False and labels.hoverinfo == "skip" and labels.marker.opacity == 0
    # the vendors under the plot in the narrow frames (their names say what they are), titled at its right wider
    assert fig.layout.legend.orientation == "h" and not fig.layout.legend.title.text
    assert at_width(fig, FRAME_FIGURE_PX[1]).layout.legend.title.text == EN("hw_legend_vendor")
    assert fig.layout.yaxis.title.text == "Peak memory bandwidth (TB/s)"
    assert fig.layout.xaxis.title.text == EN("hw_axis_year")
    acme = _trace(fig, "Acme")
    assert acme.marker.color == vendor_colour("Acme") != vendor_colour("NVIDIA") == "#76b900"
    assert list(labels.text) == ["Mid", "Small", "Fast"]  # CHIPS' order
    fast = [h.name for h in CHIPS if h.vendor == "Acme"].index("Fast")
    assert decode(acme.y).tolist()[fast] == 4.0  # 4e12 B/s shown as 4 TB/s (decimal)
    assert acme.customdata[fast][0] == "Fast" and acme.customdata[fast][1] == pytest.approx(80.0)  # name, GB
    assert acme.customdata[fast][3] == "HBM3e"  # memory type, in the hover
    # same-year chips are spread so they do not overlap; their labels are placed off each other (place_labels)
    mid, small = _trace(fig, "Acme"), _trace(fig, "Other")
    xs = sorted([float(decode(mid.x)[0]), float(decode(small.x)[0])])
    assert xs[0] < 2022 < xs[1]
    assert set(labels.textposition) <= set(hf._POSITIONS)  # where is place_labels' (tested on its own)


def test_vendor_colours_are_told_apart():
    """Every two vendors' colours at least 30 degrees of hue apart (or one of them grey): Google's logo blue sat 12
    degrees from Intel's, and the bubble chart's two vendors looked one."""
    import colorsys
    import itertools

    from ui.figures.common import VENDOR_COLOURS

    def hsv(c):
        return colorsys.rgb_to_hsv(*(int(c[i : i + 2], 16) / 255 for i in (1, 3, 5)))

    for (a, ca), (b, cb) in itertools.combinations(VENDOR_COLOURS.items(), 2):
        (ha, sa, _), (hb, sb, _) = hsv(ca), hsv(cb)
        gap = min(abs(ha - hb), 1 - abs(ha - hb)) * 360
        assert min(sa, sb) < 0.2 or gap >= 30, (a, b, round(gap))


def test_bandwidth_ranking_sorted_with_hardware_colours():
    fig = hf.bandwidth_ranking(CHIPS)
    (bar,) = fig.data
    assert list(bar.y) == ["Fast", "Mid", "Small"]
    assert decode(bar.x).tolist() == [4.0, 2.0, 1.0]
    assert list(bar.marker.color) == [hardware_colour(i) for i in ("fast", "mid", "small")]
    assert bar.text[0] == "4.00 TB/s · 80 GB"


def test_specs_table_display_units():
    df = hf.specs_table(CHIPS)
    row = df.set_index("hardware_id").loc["fast"]
    assert row.bandwidth_tb_per_s == 4.0 and row.memory_gb == 80.0
    assert row.dense_16bit_tflop_per_s == pytest.approx(100.0)
    assert math.isnan(df.set_index("hardware_id").loc["small"].price_usd_per_gpu_hour)
    assert set(hf.specs_table_labels()) <= set(df.columns)


@pytest.mark.parametrize("basis", ["on_demand", "hyperscaler"])
def test_specs_table_prices_each_chip_under_the_basis_with_its_date(basis):
    """The catalog's chips carry their published price (prices.yaml) under the basis asked, dated; a chip without
    one is blank (a user's own price_usd_per_gpu_hour field is for its files only: the catalog had shown none)."""
    catalog = load_hardware_catalog()
    row = hf.specs_table([catalog["h200"], catalog["rtx-3090"]], basis).set_index("hardware_id")
    published = catalog["h200"].prices.price(basis)
    assert row.loc["h200"].price_usd_per_gpu_hour == published.usd_per_gpu_hour > 0
    assert row.loc["h200"].price_as_of == published.as_of and row.loc["h200"].price_basis == basis
    assert math.isnan(row.loc["rtx-3090"].price_usd_per_gpu_hour)


def test_specs_table_gives_the_reported_memory_the_fit_works_from():
    """Overview said 'capacity 151 GB (141 GiB reported)' for H200 where Hardware's table said 141 GB (helper review):
    the table gives both, the datasheet's GB and the GiB the driver reports (the fit's basis), empty where none is
    published (H200 NVL)."""
    catalog = load_hardware_catalog()
    rows = hf.specs_table([catalog["h200"], catalog["h200-nvl"]]).set_index("hardware_id")
    assert rows.loc["h200", "memory_gb"] == 141 and rows.loc["h200", "memory_reported_gib"] == pytest.approx(141)
    assert rows.loc["h200-nvl", "memory_reported_gib"] is None or math.isnan(
        rows.loc["h200-nvl", "memory_reported_gib"]
    )
    assert "memory_reported_gib" in hf.specs_table_labels()


def test_tpot_by_hardware_values_sorting_and_fit_marks():
    pairs = _pairs(batch=64)
    fig = hf.tpot_by_hardware(pairs)
    estimate_bar, ideal_bar = fig.data[0], fig.data[1]
    by_name = {e.hardware.name: (i, e) for i, e in pairs}
    order = list(ideal_bar.y)
    assert order == ["Fast", "Mid", "Small"]  # fastest first
    np.testing.assert_allclose(decode(ideal_bar.x), [float(by_name[n][0]) * 1e3 for n in order])
    np.testing.assert_allclose(decode(estimate_bar.x), [float(by_name[n][1].tpot_s) * 1e3 for n in order])
    assert list(ideal_bar.marker.color) == [hardware_colour(n.lower()) for n in order]
    # "Small" holds 1 MB: hatched, and its label says how many GPUs it needs (or that none suffice)
    assert not bool(by_name["Small"][1].fits)
    assert list(estimate_bar.marker.pattern.shape) == ["", "", "/"]
    # the slowest bar's 'needs ...' would stretch the axis past label_room's cap in the narrowest plot: its label is
    # its value alone there, the hatch, the hover and the legend say it does not fit
    assert estimate_bar.text[2] == fmt.duration(float(by_name["Small"][1].tpot_s))
    assert "needs" not in estimate_bar.text[0]
    # the hover's 'Fits:' answers yes or no ('Fits: needs 8 GPUs' had read as a yes)
    assert estimate_bar.customdata[0][2] == EN("hw_yes")
    assert estimate_bar.customdata[2][2].startswith(EN("hw_no_needs", needs=""))
    assert EN("hw_legend_no_fit") in [t.name for t in fig.data]
    assert fig.layout.xaxis.title.text == "Time per output token (ms)"
    assert "Tiny dense" in fig.layout.title.text


def test_tpot_by_hardware_axis_ends_where_the_longest_label_does():
    """The axis ran to a fixed 2.4x the slowest bar (1,450 ms for bars ending at 600 on the 48 chips): now to where
    the label that reaches furthest ends in the narrowest plot, each label from its own bar's end."""
    from tpot_model import resolve_model, resolve_profile

    catalog = load_hardware_catalog()
    s = Scenario(batch=32, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8")
    model, typical = resolve_model("llama-3.1-70b"), resolve_profile("typical")
    pairs = [(estimate(model, catalog[h], s, IDEAL).tpot_s, estimate(model, catalog[h], s, typical))
             for h in ("b200", "h200", "rtx-4090", "m3-max")]  # fmt: skip
    fig = hf.tpot_by_hardware(pairs)
    (labelled,) = [t for t in fig.data if t.text is not None and t.marker.opacity == 0]  # past each band's end
    ends, right = decode(labelled.x), fig.layout.xaxis.range[1]
    # the plot: the narrowest figure less the chips' names beside it ('H200 SXM 141GB' the longest of the four)
    plot = FRAME_FIGURE_PX[0] - fmt.text_px("H200 SXM 141GB", hf._BAR_LABEL_CHAR_PX) - hf._BARS_SIDES_PX
    share = [(fmt.text_px(t, hf._BAR_LABEL_CHAR_PX) + hf._BAR_LABEL_PAD_PX) / plot for t in labelled.text]
    reach = [end + right * sh for end, sh in zip(ends, share, strict=True)]  # where each label ends, in axis units
    assert max(reach) == pytest.approx(right, rel=1e-9)  # the furthest label ends at the axis's end: no more room
    assert right < 2.0 * max(ends)  # 2.4x before, whatever the labels needed
    # a long chip name leaves the plot less room, and the axis makes it (a browser review: beside 'RTX PRO 4500
    # Blackwell' the labels of the slowest chips had been cut at 900 px)
    pro = catalog["rtx-pro-4500"]
    long = hf.tpot_by_hardware([*pairs, (estimate(model, pro, s, IDEAL).tpot_s, estimate(model, pro, s, typical))])
    (labelled,) = [t for t in long.data if t.text is not None and t.marker.opacity == 0]
    ends, right = decode(labelled.x), long.layout.xaxis.range[1]
    plot = FRAME_FIGURE_PX[0] - fmt.text_px("RTX PRO 4500 Blackwell", hf._BAR_LABEL_CHAR_PX) - hf._BARS_SIDES_PX
    reach = [e + right * (fmt.text_px(t, hf._BAR_LABEL_CHAR_PX) + hf._BAR_LABEL_PAD_PX) / plot
             for e, t in zip(ends, labelled.text, strict=True)]  # fmt: skip
    assert max(reach) == pytest.approx(right, rel=1e-9) and right <= hf.LABEL_ROOM * max(ends)


def test_a_long_label_on_the_slowest_bar_does_not_stretch_the_axis():
    """A browser review: Qwen3.5-397B NVFP4 at batch 256 and 128K on 8 chips each, the axis ran to 10,000 ms for the
    slowest bar's 2.29 s (Arc Pro B50): its label '2.29 s · needs > 1,024 GPUs' had asked for the room, every bar
    squeezed into the left fifth. The axis ends within LABEL_ROOM x the slowest bar; the label that would not fit is
    its value alone, the others keep theirs."""
    ends = np.array([100.0, 300.0, 2290.0])
    labels = ["100 ms (ideal 50 ms)", "300 ms · needs 16 GPUs", "2.29 s · needs > 1,024 GPUs"]
    values = ["100 ms", "300 ms", "2.29 s"]
    shown, right = hf.label_room(labels, values, ends, plot_px=262.0)
    assert shown == [*labels[:2], "2.29 s"] and 2290 < right <= hf.LABEL_ROOM * 2290
    roomy, wide = hf.label_room(labels, values, ends, plot_px=2000.0)  # room for every label: none shortened
    assert roomy == labels and wide < hf.LABEL_ROOM * 2290


@pytest.mark.parametrize("tr", [EN, ZH])
def test_the_slowest_bars_carry_their_whole_label_where_the_frame_has_room(tr):
    """A review: at 1400 px the slowest hatched bars read their value alone ('483 ms'), as in a 900 px frame (the
    label room was sized for that frame alone), beside an axis that ran to twice their end. The figure is the
    narrowest frame's (900 px, the sidebar open: common.FRAME_FIGURE_PX) and says what changes in each wider one
    (for_wider; drawn so by static/plotly_chart.js, at_width here): in a 900 px wiki frame and at 1400 px every bar has
    its whole label and the axis ends where the furthest of them does in that frame's plot."""
    from tpot_model import resolve_model, resolve_profile

    catalog = load_hardware_catalog()
    s = Scenario(batch=32, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8")
    model, typical = resolve_model("llama-3.1-70b"), resolve_profile("typical")
    pairs = [(estimate(model, h, s, IDEAL).tpot_s, estimate(model, h, s, typical)) for h in catalog.values()]
    fig = hf.tpot_by_hardware(pairs, tr=tr)
    names = list(fig.data[0].y)
    slow = [names.index(fmt.chip_short(catalog[h])) for h in ("arc-pro-b50", "m3-max")]

    def labels(f):
        (past_band,) = [t for t in f.data if t.text is not None and t.marker.opacity == 0]
        assert list(f.data[0].text) == list(past_band.text)  # the estimate's bar keeps them too (its hover's)
        return list(past_band.text), decode(past_band.x), f.layout.xaxis.range[1]

    narrow, ends, right = labels(at_width(fig, FRAME_FIGURE_PX[0]))
    assert labels(fig)[0] == narrow  # as built: the narrowest frame's
    by_id = {e.hardware.id: e for _, e in pairs}
    ideal_s = {e.hardware.id: i for i, e in pairs}
    b50, m3 = by_id["arc-pro-b50"], by_id["m3-max"]
    assert [narrow[i] for i in slow] == [fmt.duration(float(e.tpot_s), tr=tr) for e in (b50, m3)]  # value alone
    names_px = max(fmt.text_px(n, hf._BAR_LABEL_CHAR_PX) for n in names)
    for frame in FRAME_FIGURE_PX[1:]:  # a 900 px wiki frame, a 1400 px page beside the sidebar
        wide, _, wide_right = labels(at_width(fig, frame))
        assert tr("hw_needs_gpus", devices=fmt.devices(catalog["arc-pro-b50"], b50.min_gpus, tr)) in wide[slow[0]]
        assert wide[slow[1]] == tr("hw_bar_label", est=fmt.duration(float(m3.tpot_s), tr=tr),
                                   ideal=fmt.duration(float(ideal_s["m3-max"]), tr=tr))  # fmt: skip
        assert all(w == n or w.startswith(n) for w, n in zip(wide, narrow, strict=True))  # the others as they were
        plot = frame - names_px - hf._BARS_SIDES_PX
        reach = [e + wide_right * (fmt.text_px(t, hf._BAR_LABEL_CHAR_PX) + hf._BAR_LABEL_PAD_PX) / plot
                 for e, t in zip(ends, wide, strict=True)]  # fmt: skip
        assert max(reach) == pytest.approx(wide_right, rel=1e-9) and wide_right < right  # room for all, bars wider
    assert labels(at_width(fig, 1200))[0] == labels(at_width(fig, FRAME_FIGURE_PX[2]))[0]  # the widest frame's
    # the log axis keeps its own range; its labels follow the frame all the same
    logged = hf.tpot_by_hardware(pairs, log_x=True, tr=tr)
    assert at_width(logged, FRAME_FIGURE_PX[2]).layout.xaxis.range == logged.layout.xaxis.range
    assert labels(at_width(logged, FRAME_FIGURE_PX[2]))[0] == labels(at_width(fig, FRAME_FIGURE_PX[2]))[0]


def test_tpot_by_hardware_ideal_only_and_log_axis():
    s = _scenario()
    pairs = [(e.tpot_s, e) for e in (estimate(TINY_DENSE, h, s, IDEAL) for h in CHIPS)]
    fig = hf.tpot_by_hardware(pairs, show_profile=False, log_x=True)
    assert EN("hw_estimate") not in [t.name for t in fig.data]
    assert fig.layout.xaxis.type == "log"
    bars = [t for t in fig.data if t.x is not None and t.x[0] is not None]
    assert len(bars) == 1 and bars[0].text[0].endswith("ms")


def test_tpot_table_columns_and_price_blank():
    pairs = _pairs()
    df = hf.tpot_table(pairs).set_index("hardware_id")
    ideal, est = pairs[2]  # FAST
    row = df.loc["fast"]
    assert row.tpot_ideal_ms == pytest.approx(float(ideal) * 1e3)
    assert row.tpot_profile_ms == pytest.approx(float(est.tpot_s) * 1e3)
    assert row.tokens_per_s_per_gpu == pytest.approx(float(est.tokens_per_s_per_gpu))
    assert row.tokens_per_s_per_usd_per_gpu_hour == pytest.approx(float(est.tokens_per_s_per_gpu) / 2.0)
    assert row.usd_per_1M_output_tokens_decode == pytest.approx(float(est.usd_per_1M_tokens))
    assert math.isnan(df.loc["small"].tokens_per_s_per_usd_per_gpu_hour)  # no price: blank
    assert math.isnan(df.loc["small"].usd_per_1M_output_tokens_decode)
    shown = hf.tpot_display_table(df.reset_index(), tr=ZH)
    assert ZH("hw_col_tpot_ideal") in shown.columns and len(shown) == 3
    # unrounded, so the page rounds once (22.346 ms had read 22.35, then 22.4, beside 22.3 on every other page)
    fast = shown.set_index(ZH("hw_col_hardware")).iloc[[n.startswith("Fast") for n in shown[ZH("hw_col_hardware")]]]
    assert fast[ZH("hw_col_tpot_profile")].item() == float(est.tpot_s) * 1e3
    assert ZH("hw_col_tpot_profile") not in hf.tpot_display_table(df.reset_index(), show_profile=False).columns


def test_an_engine_off_its_vendors_chips_is_marked_a_what_if_on_chart_and_table():
    """The pages' notice covers the sidebar's chip only; the all-chips chart and table timed TensorRT-LLM on AMD chips
    without a mark. A chip the engine does not run on (engines.VENDOR_ONLY) carries a dagger, keyed under both, and
    the table says it in a column of its own (the CSV too); a chip of the engine's vendor, no mark."""
    trt = replace(ENGINE, id="tensorrt-llm")
    nvidia, amd = replace(FAST, vendor="NVIDIA"), replace(MID, vendor="AMD")
    s = _scenario()
    pairs = [(tpot_only_s(TINY_DENSE, h, s, IDEAL), estimate(TINY_DENSE, h, s, trt)) for h in (nvidia, amd)]
    table = hf.tpot_table(pairs).set_index("hardware_id")
    assert table.engine_runs_here.to_dict() == {"fast": True, "mid": False}
    names = hf.tpot_display_table(table.reset_index())[EN("hw_col_hardware")].tolist()
    assert sorted(names) == ["Fast", "Mid†"]
    fig = hf.tpot_by_hardware(pairs)
    assert sorted(fig.data[0].y) == ["Fast", "Mid†"]
    key = hf.what_if_key("tensorrt-llm", ZH)
    assert key == "†「TensorRT-LLM」只在 NVIDIA 晶片上執行：此處為假設情境"
    assert hf.what_if_key("tensorrt-llm") == "† TensorRT-LLM runs on NVIDIA chips only: a what-if here"
    assert fig.layout.legend.title.text == hf.what_if_key("tensorrt-llm")
    hovers = {y: c[3] for y, c in zip(fig.data[0].y, fig.data[0].customdata, strict=True)}
    assert hovers["Mid†"].endswith(hf.what_if_key("tensorrt-llm")) and "†" not in hovers["Fast"]
    same = [(tpot_only_s(TINY_DENSE, h, s, IDEAL), estimate(TINY_DENSE, h, s, trt)) for h in (nvidia,)]
    assert not hf.tpot_by_hardware(same).layout.legend.title.text
    assert hf.tpot_table(same).engine_runs_here.all()


def test_frontier_is_a_running_maximum():
    chips = [*CHIPS, replace(MID, id="mid2", name="Mid 2", launch_year=2023, memory_bandwidth_bytes_per_s=1.5 * TOY_BW)]
    df = hf.frontier_table(chips)
    hbm3 = df[df.memory_type == "HBM3"].set_index("year")
    assert hbm3.loc[2023].best_bandwidth_tb_per_s == 2.0  # the 2022 chip still leads in 2023
    assert hbm3.loc[2023].best_hardware == "Mid"
    overall = df[df.memory_type == "all"]
    assert overall.best_bandwidth_tb_per_s.is_monotonic_increasing
    assert overall.set_index("year").loc[2024].best_bandwidth_tb_per_s == 4.0
    fig = hf.bandwidth_frontier(chips, tr=ZH)
    assert fig.layout.title.text == ZH("hw_frontier_title")
    assert _trace(fig, ZH("hw_frontier_all")).line.dash == "dot"
    # browser review: its legend at the right left a ~100 px plot at 900 px with the sidebar open; under it, titled
    assert legend_below(fig.layout.legend) and fig.layout.legend.title.text == ZH("hw_legend_memory")
    from ui.figures.common import LEGEND_ROW_PX, legend_rows

    keys = [t.name for t in fig.data if t.showlegend is not False and t.name]
    assert fig.layout.height == round(460 + (legend_rows(keys) + 1) * LEGEND_ROW_PX)  # a row more: its title's
    gen = hf.generation_table(chips)
    assert gen[EN("hw_col_chips")].sum() == 4


def test_hardware_zh_tw_titles():
    assert hf.bandwidth_by_year(CHIPS, tr=ZH).layout.title.text == ZH("hw_bw_year_title")
    assert hf.bandwidth_ranking(CHIPS, tr=ZH).layout.title.text == ZH("hw_bw_rank_title")
    assert "Tiny dense" in hf.tpot_by_hardware(_pairs(), tr=ZH).layout.title.text
    assert hf.tpot_by_hardware(_pairs(), tr=ZH).layout.xaxis.title.text == ZH("axis_tpot_ms")


# --------------------------------------------------------------------------------------------------- compare: URL


MODELS, HARDWARE, PROFILES = (
    {"llama-3.1-70b", "llama-3.1-8b"},
    {"h200", "mi300x", "b200", "h100-sxm"},
    {"ideal", "typical"},
)


def _parse(**params):
    return page_state.parse_side_query(params, "b", MODELS, HARDWARE, PROFILES)


def test_parse_side_query_defaults_and_valid_values():
    values, notices = _parse()
    assert values == page_state.SIDE_DEFAULTS["b"] and not notices
    assert values["hardware"] == "mi300x" and values["gpus"] == cf.AUTO
    assert values["weights"] == values["kv"] == cf.SAME  # A's formats unless changed (issue 19)
    values, notices = _parse(b_hardware="h100-sxm", b_gpus="4", b_weights="fp8", b_kv="fp8", b_profile="ideal",
                             b_model="llama-3.1-8b", b_batch="64", b_context="8192", b_price="2.5")  # fmt: skip
    assert not notices
    assert values == {"hardware": "h100-sxm", "gpus": 4, "weights": "fp8", "kv": "fp8", "profile": "ideal",
                      "model": "llama-3.1-8b", "batch": 64, "context": 8192, "price": 2.5}  # fmt: skip
    # C is parsed from its own prefix only
    c_values, _ = page_state.parse_side_query({"b_hardware": "h200"}, "c", MODELS, HARDWARE, PROFILES)
    assert c_values == page_state.SIDE_DEFAULTS["c"]
    # a default chip another side already shows gives way (C's B200 beside A's B200 had drawn A twice); a chip the
    # link names stays, whatever the others
    parse = page_state.parse_side_query
    assert parse({}, "c", MODELS, HARDWARE, PROFILES, taken=["b200", "mi300x"])[0]["hardware"] == "h200"
    assert parse({}, "b", MODELS, HARDWARE, PROFILES, taken=["mi300x"])[0]["hardware"] == "b200"
    assert parse({"c_hardware": "b200"}, "c", MODELS, HARDWARE, PROFILES, taken=["b200"])[0]["hardware"] == "b200"


def test_parse_side_query_invalid_values_give_notices():
    values, notices = _parse(b_hardware="<b>nope</b>", b_gpus="5", b_batch="lots", b_weights="fp3", b_price="-1",
                             b_model="gpt-99")  # fmt: skip
    by_param = {n.param: n for n in notices}
    assert set(by_param) == {"b_hardware", "b_gpus", "b_batch", "b_weights", "b_price", "b_model"}
    assert values["hardware"] == "mi300x" and by_param["b_hardware"].used == "mi300x"
    assert "<" not in by_param["b_hardware"].given
    assert values["gpus"] in (4, 6) and by_param["b_gpus"].used == str(values["gpus"])  # nearest option
    assert values["batch"] == cf.SAME and values["weights"] == cf.SAME and values["price"] is None
    assert values["model"] == cf.SAME


def test_side_query_round_trip():
    values, _ = _parse(b_hardware="b200", b_gpus="8", b_batch="128", b_price="4")
    query = page_state.side_query(values, "b")
    assert query == {"b_hardware": "b200", "b_gpus": "8", "b_batch": "128", "b_price": "4"}  # formats: same as A
    assert _parse(**query)[0] == values
    assert "b_model" not in page_state.side_query(
        page_state.SIDE_DEFAULTS["b"], "b"
    )  # "same as A" is the absence of the parameter


def test_side_state_follows_a_where_same():
    a = DEFAULT.with_(compute="fp8", price=9.0, batch=16)
    b = page_state.side_state(a, page_state.SIDE_DEFAULTS["b"])
    assert (b.model, b.batch, b.context, b.output, b.profile) == (a.model, 16, a.context, a.output, a.profile)
    assert (b.hardware, b.weights, b.kv, b.compute, b.price, b.gpus) == ("mi300x", a.weights, a.kv, "auto", None, 1)
    own_formats = page_state.side_state(a, {**page_state.SIDE_DEFAULTS["b"], "weights": "bf16", "kv": "fp8"})
    assert (own_formats.weights, own_formats.kv) == ("bf16", "fp8")
    assert page_state.side_state(a, page_state.SIDE_DEFAULTS["b"], gpus=4).gpus == 4
    own = page_state.side_state(
        a, {**page_state.SIDE_DEFAULTS["b"], "gpus": 2, "batch": 64, "model": "llama-3.1-8b"}, gpus=8
    )
    assert (own.gpus, own.batch, own.model) == (2, 64, "llama-3.1-8b")  # an explicit count is kept
    # B's own price prices B whatever A's basis (it was dropped unless A's basis was 'custom'); none: A's basis
    priced = page_state.side_state(DEFAULT, {**page_state.SIDE_DEFAULTS["b"], "price": 2.5})
    assert priced.price_basis == "custom" and priced.to_scenario().price_usd_per_gpu_hour == 2.5
    assert page_state.side_state(DEFAULT, page_state.SIDE_DEFAULTS["b"]).price_basis == DEFAULT.price_basis != "custom"
    # A's NVFP4 is inherited as the side chip's own block FP4 (a review: MI300X beside B200 read 'nvfp4'); MXFP4, which
    # NVIDIA's FP4 chips run too, as A's; the side's own choice is kept
    nv = page_state.side_state(DEFAULT.with_(hardware="b200", weights="nvfp4"), page_state.SIDE_DEFAULTS["b"],
                               fp4="mxfp4")  # fmt: skip
    assert nv.hardware == "mi300x" and (nv.weights, nv.kv) == ("mxfp4", DEFAULT.kv)
    same = page_state.side_state(DEFAULT.with_(weights="mxfp4", kv="mxfp4"), page_state.SIDE_DEFAULTS["b"], fp4="nvfp4")
    assert (same.weights, same.kv) == ("mxfp4", "mxfp4")  # like for like on an NVIDIA side
    kept = page_state.side_state(DEFAULT.with_(weights="nvfp4"), page_state.SIDE_DEFAULTS["b"], fp4="nvfp4")
    assert kept.weights == "nvfp4"
    assert page_state.side_state(DEFAULT.with_(weights="nvfp4"), page_state.SIDE_DEFAULTS["b"]).weights == "nvfp4"
    own_nv = page_state.side_state(DEFAULT.with_(weights="mxfp4"), {**page_state.SIDE_DEFAULTS["b"], "weights": "nvfp4"},
                                   fp4="mxfp4")  # fmt: skip
    assert own_nv.weights == "nvfp4"  # chosen for B itself: kept


def test_fewest_gpus():
    s = _scenario(batch=1, context_tokens=0)
    assert cf.fewest_gpus(estimate(TINY_DENSE, TOY_GPU, s), fallback=8) == 1
    assert cf.fewest_gpus(estimate(TINY_DENSE, SMALL, s), fallback=8) == 8  # nothing holds it: A's count


# --------------------------------------------------------------------------------------------------- compare: figures


def _sides():
    s = _scenario(batch=8)
    return {
        "A": estimate(TINY_DENSE, TOY_GPU, s, ENGINE),
        "B": estimate(TINY_DENSE, MID, s, ENGINE),
        "C": estimate(TINY_DENSE, TOY_GPU, _scenario(batch=8, weights="fp8"), ENGINE),
    }


def test_headline_table_deltas():
    ests = _sides()
    df = cf.headline_table(ests).set_index("metric")
    a, b = ests["A"], ests["B"]
    assert df.loc["tpot", "A"] == pytest.approx(float(a.tpot_s) * 1e3)
    assert df.loc["tpot", "B_minus_A"] == pytest.approx((float(b.tpot_s) - float(a.tpot_s)) * 1e3)
    assert df.loc["tpot", "B_vs_A_pct"] == pytest.approx((float(b.tpot_s) / float(a.tpot_s) - 1) * 100)
    assert df.loc["tps_total", "B"] == pytest.approx(float(b.tokens_per_s_total))
    assert df.loc["tpot", "better"] == "lower" and df.loc["tps_user", "better"] == "higher"
    assert {"C", "C_minus_A", "C_vs_A_pct"} <= set(df.columns)
    assert set(df.index) >= {"tpot", "tps_user", "tps_total", "tps_gpu", "ttft", "cost", "energy", "memory", "fits",
                             "min_gpus"}  # fmt: skip


def test_headline_display_colours_better_and_worse():
    ests = _sides()  # B has twice the bandwidth: lower TPOT (better), higher throughput (better)
    styler = cf.headline_display(ests)
    frame = styler.data
    delta = EN("cmp_delta_col", x="B")
    assert list(frame.columns) == ["A", "B", delta, "C", EN("cmp_delta_col", x="C")]
    assert frame.loc[EN("cmp_row_tpot"), delta].startswith("−") and "%" in frame.loc[EN("cmp_row_tpot"), delta]
    assert frame.loc[EN("cmp_row_tps_user"), delta].startswith("+")
    html = styler.to_html()
    assert cf.BETTER_COLOUR in html
    # a slower B is red
    slow = {"A": ests["B"], "B": ests["A"]}
    assert cf.WORSE_COLOUR in cf.headline_display(slow).to_html()
    zh = cf.headline_display(ests, tr=ZH).data
    assert ZH("cmp_row_tpot") in zh.index


def test_decomposition_bars_equal_the_breakdown():
    ests = _sides()
    fig = cf.decomposition(ests)
    assert len(fig.data) == 3 and fig.layout.barmode == "group"
    for trace, est in zip(fig.data, ests.values(), strict=True):
        np.testing.assert_allclose(decode(trace.y), [float(est.breakdown_s[b]) * 1e3 for b in BUCKETS])
    assert list(fig.data[0].x) == [EN(f"bucket_{b}") for b in BUCKETS]
    assert fig.layout.yaxis.title.text == EN("cmp_axis_part_ms") and "(ms)" in fig.layout.yaxis.title.text
    # three bars a part: their values upright met at 900 px ('1.711.711.71'); two: upright
    assert {t.textangle for t in fig.data} == {-90}
    two = cf.decomposition({x: ests[x] for x in ("A", "B")})
    assert {t.textangle for t in two.data} == {0}
    df = cf.decomposition_table(ests)
    assert df.groupby("scenario").time_ms.sum()["A"] == pytest.approx(float(ests["A"].tpot_s) * 1e3)


def test_each_scenario_has_its_own_colour_whatever_its_chip():
    """Compare coloured scenarios by chip: MI355X and MI300X read dark red and red, their 80% bands one pink area.
    Each scenario now has its own colour (A, B, C), the same on its bars, line, dashes, band and current marker,
    and none shared: also when two scenarios run on one chip (A and C on the toy GPU)."""
    ests = _sides()
    bars = cf.decomposition(ests, tr=ZH)
    assert [t.marker.color for t in bars.data] == list(cf.SCENARIO_COLOURS)
    batches = np.array([1.0, 4.0, 16.0, 10.0**7])  # the last does not fit: a dashed trace too
    sweeps = {x: estimate(e.model, e.hardware, replace(e.scenario, batch=batches), ENGINE) for x, e in ests.items()}
    fig = cf.tpot_vs_batch(sweeps, ests, tr=ZH)
    for x, colour in zip(ests, cf.SCENARIO_COLOURS, strict=True):
        group = [t for t in fig.data if t.legendgroup == x]
        assert {t.mode for t in group} >= {"lines", "lines+markers", "markers"}  # band, line (and dashes), marker
        for t in group:
            if t.fill:  # the band: its fill in the scenario's colour
                assert t.fillcolor.startswith("rgba(31,119,180" if x == "A" else "rgba(255,127,14" if x == "B" else
                                              "rgba(148,103,189")  # fmt: skip
            elif t.mode != "lines":
                assert (t.line.color if "lines" in t.mode else t.marker.color) == colour, (x, t.name)
    assert len(set(cf.SCENARIO_COLOURS)) == len(cf.SCENARIO_COLOURS)


def test_tpot_vs_batch_dashes_where_it_does_not_fit():
    batches = np.array([1.0, 4.0, 16.0, 64.0, 256.0])
    current = {"A": estimate(TINY_DENSE, TOY_GPU, _scenario()), "B": estimate(TINY_DENSE, SMALL, _scenario())}
    sweeps = {
        "A": estimate(TINY_DENSE, TOY_GPU, _scenario(batch=batches)),
        "B": estimate(TINY_DENSE, SMALL, _scenario(batch=batches)),
    }
    fig = cf.tpot_vs_batch(sweeps, current, tr=ZH)
    assert fig.layout.title.text == ZH("cmp_sweep_title")
    # the legend in rows below the plot (inside its top-left corner it hid scenario A's curve when A did not fit)
    assert (fig.layout.legend.orientation, fig.layout.legend.yanchor) == ("h", "top") and fig.layout.legend.y < 0
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.title.text == ZH("axis_tpot_ms")
    a_solid = _trace(fig, cf.scenario_label("A", current["A"]))
    np.testing.assert_allclose(decode(a_solid.y), np.ravel(sweeps["A"].tpot_s) * 1e3)  # fits everywhere
    b_solid = _trace(fig, cf.scenario_label("B", current["B"]))
    assert np.isnan(decode(b_solid.y)).all()  # 1 MB holds nothing
    b_dashed = _trace(fig, ZH("cmp_no_fit_trace", x="B"))
    assert b_dashed.line.dash == "dash"
    np.testing.assert_allclose(decode(b_dashed.y), np.ravel(sweeps["B"].tpot_s) * 1e3)
    assert ZH("cmp_no_fit_trace", x="A") not in [t.name for t in fig.data]
    assert set(b_dashed.hovertemplate) == {ZH("cmp_hover_sweep_nofit", label=b_solid.name) + "<extra></extra>"}
    table = cf.sweep_table(sweeps)
    assert len(table) == 10 and not table[table.scenario == "B"].fits.any()


def test_split_by_fit_overlaps_by_one_point():
    from ui.figures.common import split_by_fit

    y = np.array([1.0, 2.0, 3.0, 4.0])
    solid, dashed = split_by_fit(y, np.array([True, True, False, False]))
    assert np.isnan(solid).tolist() == [False, False, True, True]
    assert np.isnan(dashed).tolist() == [True, False, False, False]


def test_tpot_by_hardware_switches_to_seconds_for_huge_values():
    from tpot_model import resolve_model

    # the slowest bandwidth a chip may have (1 GB/s) under Llama 3.1 8B's 16 GB of bf16 weights: ~16 s per token
    crawl = replace(TOY_GPU, id="crawl", name="Crawl", memory_bandwidth_bytes_per_s=1e9, memory_bytes=1e11)
    model, s = resolve_model("llama-3.1-8b"), _scenario(batch=1.0)
    pairs = [
        (tpot_only_s(model, h, s, IDEAL), estimate(model, h, s, ENGINE))
        for h in (replace(TOY_GPU, memory_bytes=1e11), crawl)
    ]
    fig = hf.tpot_by_hardware(pairs)
    assert fig.layout.xaxis.title.text == EN("hw_axis_tpot_s")
    ideal_bar = fig.data[1]
    np.testing.assert_allclose(decode(ideal_bar.x), [float(i) for i, _ in pairs])  # seconds, not ms
    assert float(pairs[1][0]) > 10 and fig.data[0].text[1].split()[1] == "s"  # "16.1 s (ideal ...)"


def test_a_scenario_that_never_fits_has_no_solid_key():
    """A review: C on 8 x H100 never fit, its whole curve dashed, yet the legend showed a solid 'C · ...' key: only
    its 'does not fit' key and its band."""
    batches = np.array([1.0, 4.0, 16.0])
    chip = replace(TOY_GPU, memory_bytes=1e5)  # 100 kB: nothing fits
    est = estimate(TINY_DENSE, chip, _scenario(batch=batches))
    assert not np.ravel(est.fits).any()
    fig = cf.tpot_vs_batch({"A": est}, {"A": estimate(TINY_DENSE, chip, _scenario())}, tr=EN)
    solid = next(t for t in fig.data if t.name == cf.scenario_label("A", estimate(TINY_DENSE, chip, _scenario())))
    assert solid.showlegend is False and _trace(fig, EN("cmp_no_fit_trace", x="A")).showlegend is not False


def test_the_dashed_lines_first_point_fits_and_says_so():
    """Where the dashed (does-not-fit) line starts at the last batch that fits, that point's hover and marker are the
    fitting ones: a batch that fits is never labelled 'does not fit'."""
    batches = np.array([1.0, 4.0, 16.0, 64.0, 256.0, 1024.0, 4096.0])
    chip = replace(TOY_GPU, memory_bytes=2e7)  # 20 MB: TINY_DENSE fits up to batch 64 here
    est = estimate(TINY_DENSE, chip, _scenario(batch=batches))
    fits = np.ravel(est.fits)
    assert fits.tolist() == [True, True, True, True, False, False, False]
    current = {"A": estimate(TINY_DENSE, chip, _scenario())}
    fig = cf.tpot_vs_batch({"A": est}, current, tr=EN)
    dashed = _trace(fig, EN("cmp_no_fit_trace", x="A"))
    label = cf.scenario_label("A", current["A"])
    drawn = np.isfinite(decode(dashed.y))
    edge = int(np.flatnonzero(drawn)[0])
    assert fits[edge] and not fits[edge + 1]
    assert dashed.hovertemplate[edge] == EN("cmp_hover_sweep", label=label) + "<extra></extra>"
    assert not dashed.marker.symbol[edge].endswith("-open") and dashed.marker.symbol[edge + 1].endswith("-open")
    assert all(dashed.hovertemplate[i] == EN("cmp_hover_sweep_nofit", label=label) + "<extra></extra>"
               for i in np.flatnonzero(~fits))  # fmt: skip


def test_absurd_times_read_as_durations_and_grouped_numbers():
    """405B in bf16 on one H100, batch 4,096 at 1M tokens (TPOT about 16 min): the legend names TPOT as a duration
    and the bars' labels and hovers group their digits, instead of '979140.6 ms'."""
    from tpot_model import resolve_hardware, resolve_model
    from ui import fmt

    e = estimate(resolve_model("llama-3.1-405b"), resolve_hardware("h100-sxm"),
                 _scenario(batch=4096, context_tokens=1048576, output_tokens=1024))  # fmt: skip
    assert float(e.tpot_s) > 60
    fig = cf.decomposition({"A": e}, tr=EN)
    (bars,) = fig.data
    # the TPOT's number and unit unbroken (helper review: '(TPOT 14.7' / 'ms)' had wrapped apart at 900 px)
    named = EN("cmp_trace", label=cf.scenario_label("A", e), tpot=fmt.unbroken(fmt.ms(float(e.tpot_s))))
    shown = bars.name.replace("<br>", " ")  # an entry wider than a narrow plot is on lines (common.wrap_legend)
    assert shown == (named if bool(e.fits) else fmt.if_fitted_label(named, EN))  # 405B on one H100: a what-if
    assert "min" in bars.name and "ms" not in bars.name.split("TPOT")[1]
    big = max(range(len(bars.y)), key=lambda i: bars.y[i])
    assert bars.text[big] == f"{bars.y[big]:,.0f}" and "," in bars.text[big]
    assert all("%{y:,.2f} ms" in h for h in bars.hovertemplate)  # one a bar (a bar at 0 ms says why)
    # each names its own part, not the axis's tick (which carries the other scenarios' zero notes: browser review,
    # 'B: 0 ms, 1 GPU: no collectives' in A's communication hover beside A's 2.19 ms)
    assert all("%{x}" not in h for h in bars.hovertemplate)
    assert [h.split("<br>")[1].split(":")[0] for h in bars.hovertemplate] == [EN(f"bucket_{b}") for b in cf.BUCKETS]


# --------------------------------------------------------------------------------------------------- MLPerf per chip
# These read data/mlperf.csv and the committed predictions (data/mlperf_predictions.json), not the toy chips.


@pytest.fixture(scope="module")
def llama2_mlperf():
    from tpot_model import mlperf
    from ui.validation_data import mlperf_frame

    frame = mlperf_frame()
    best = mlperf.best_per_chip(mlperf.measured_points(mlperf.load_mlperf(), "llama-2-70b"))
    return hf.mlperf_table(best, hf.mlperf_predictions(frame), {"tensorrt-llm": "TensorRT-LLM"}), frame


def test_mlperf_table_has_a_measured_and_a_modelled_row_per_chip(llama2_mlperf):
    """Per chip and scenario one measured row (the best published output tok/s per GPU) and one modelled row (the
    committed prediction for that same run); H200 Server is ASUSTeK's v5.1 run, 4,274.2262 tok/s per GPU. Gaudi 2's
    v4.0 run is display-only in the calibration (no engine profile): its modelled row is blank."""
    table, frame = llama2_mlperf
    assert set(table["basis"]) == {"measured", "modelled"} and (table["basis"] == "measured").sum() * 2 == len(table)
    h200 = table[(table["hardware_id"] == "h200") & (table["mlperf_scenario"] == "Server")].set_index("basis")
    assert h200.loc["measured", "output_tokens_per_s_per_gpu"] == 4274.2262
    assert h200.loc["measured", "tpot_ms"] == pytest.approx(183.313)
    assert h200.loc["measured", ["round", "round_date", "submitter"]].tolist() == ["v5.1", "2025-09-09", "ASUSTeK"]
    (pred,) = frame.loc[
        (frame["hardware_id"] == "h200") & (frame["submitter"] == "ASUSTeK") & (frame["scenario"] == "Server")
        & (frame["benchmark"] == "llama2-70b-99"), "predicted_tokens_per_s_per_gpu"
    ]  # fmt: skip
    assert h200.loc["modelled", "output_tokens_per_s_per_gpu"] == pytest.approx(pred)
    assert h200.loc["modelled", "engine_profile"] == "TensorRT-LLM"
    gaudi = table[table["hardware_id"] == "gaudi2"].set_index("basis")
    assert gaudi.loc["measured", "output_tokens_per_s_per_gpu"] > 0
    assert math.isnan(gaudi.loc["modelled", "output_tokens_per_s_per_gpu"])


def test_mlperf_by_chip_draws_measured_bars_and_modelled_diamonds(llama2_mlperf):
    table, _ = llama2_mlperf
    fig = hf.mlperf_by_chip(table, model_name="Llama 2 70B")
    bars = next(t for t in fig.data if t.type == "bar" and t.name == EN("hw_mlperf_measured") and t.x[0] is not None)
    measured = table[table["basis"] == "measured"]
    assert sorted(bars.x) == pytest.approx(sorted(measured["output_tokens_per_s_per_gpu"]))
    i = list(bars.y).index("H200 SXM 141GB · Server")
    assert bars.x[i] == 4274.2262 and "<b>Measured</b>" in bars.hovertext[i] and "ASUSTeK" in bars.hovertext[i]
    (dia,) = [t for t in fig.data if t.name == EN("hw_mlperf_modelled")]
    assert dia.marker.symbol == "diamond" and len(dia.x) == len(measured) - 1  # none for Gaudi 2
    assert "Gaudi 2 · Server" not in dia.y and "Gaudi 2 · Server" in bars.y
    wide = at_width(fig, FRAME_FIGURE_PX[2])  # at 1400 px: every label whole (narrower: test below)
    labels = next(t for t in wide.data if t.type == "bar" and t.text is not None)
    # both values named where there is a diamond (a label past a diamond beyond the bar had read as the diamond's),
    # the measured one alone where there is none
    modelled_h200 = dict(zip(dia.y, dia.x, strict=True))["H200 SXM 141GB · Server"]
    # each at 3 significant figures, as the table under the chart writes it (fmt.figures; the bar read '4,274')
    assert labels.text[i] == f"4,270 measured, {fmt.figures(modelled_h200)} modelled (v5.1)"
    assert "4,270 output tok/s per GPU" in bars.hovertext[i]
    assert labels.text[list(bars.y).index("Gaudi 2 · Server")] == "786 measured (v4.0)"
    assert all(lab_end >= max(m, d) for lab_end, m, d in zip(  # the label is drawn past the bar and the diamond
        labels.x, bars.x, [dict(zip(dia.y, dia.x, strict=True)).get(y, 0) for y in bars.y], strict=True))  # fmt: skip
    assert fig.layout.xaxis.title.text == EN("hw_mlperf_axis")
    zh = hf.mlperf_by_chip(table, model_name="Llama 2 70B", tr=ZH)
    assert zh.layout.title.text == ZH("hw_mlperf_title", model="Llama 2 70B") and "實測" in zh.data[0].hovertext[0]


@pytest.mark.parametrize("tr", [EN, ZH])
def test_mlperf_labels_have_room_in_every_frame(llama2_mlperf, tr):
    """Browser review at 900 px: the MLPerf chart's labels ran off its right edge ('12,700 measured, 11,8'; in a 900
    px wiki frame too), the axis a fixed 1.7x the longest bar. As the TPOT bars (label_room, for_wider): in each
    frame the axis ends where the furthest label does in that frame's plot; a label that would take it past
    LABEL_ROOM x the longest bar's end is its measured value alone, said to be it ('12,700 measured'; the rest in
    the hover); at 1400 px every label is whole."""
    table, _ = llama2_mlperf
    fig = hf.mlperf_by_chip(table, model_name="Llama 2 70B", tr=tr)
    names_px = max(fmt.text_px(n, hf._BAR_LABEL_CHAR_PX) for n in fig.data[0].y)
    short = 0
    for frame in FRAME_FIGURE_PX:
        drawn = at_width(fig, frame)
        labels = next(t for t in drawn.data if t.type == "bar" and t.text is not None)
        full = next(t for t in at_width(fig, 2000).data if t.type == "bar" and t.text is not None)
        ends, right = np.asarray(labels.x, float), drawn.layout.xaxis.range[1]
        plot = frame - names_px - hf._BARS_SIDES_PX
        reach = [e + right * (fmt.text_px(t, hf._BAR_LABEL_CHAR_PX) + hf._BAR_LABEL_PAD_PX) / plot
                 for e, t in zip(ends, labels.text, strict=True)]  # fmt: skip
        assert max(reach) == pytest.approx(right, rel=1e-9)  # each label within the plot, the furthest at its end
        for t, whole, v in zip(labels.text, full.text, fig.data[0].x, strict=True):
            assert t == whole or t == tr("hw_mlperf_bar_short", tps=fmt.figures(v))
        short += sum(t != w for t, w in zip(labels.text, full.text, strict=True))
        if frame == FRAME_FIGURE_PX[2]:
            assert list(labels.text) == list(full.text)  # at 1400 px, whole
    assert short > 0  # at 900 px the longest bars' labels are the short ones


def test_mlperf_display_table_and_empty_case(llama2_mlperf):
    table, _ = llama2_mlperf
    shown = hf.mlperf_display_table(table)
    assert len(shown) == (table["basis"] == "measured").sum()
    row = shown[
        (shown[EN("hw_col_hardware")] == "NVIDIA H200 SXM 141GB") & (shown[EN("hw_mlperf_col_scenario")] == "Server")
    ]
    # unrounded (cache.display_numbers rounds once, for display): the submission's 4,274 tokens/s per GPU
    assert row[EN("hw_mlperf_col_measured_tps")].item() == pytest.approx(4274, abs=0.5)
    assert row[EN("hw_mlperf_col_round")].item() == "v5.1 (2025-09-09)"
    empty = hf.mlperf_table({}, {})
    assert empty.empty and "basis" in empty.columns
    assert hf.mlperf_display_table(empty).empty and not hf.mlperf_by_chip(empty).data


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_bandwidth_by_year_keys_its_markers_under_the_plot_in_lines_a_narrow_plot_holds(lang):
    """Browser review: the key (marker area, the announced star) over the plot's top right ran off the chart's left
    edge at 900 px with the sidebar open ('mory capacity (GB)'). It sits under the axis title, each line at most the
    narrowest plot's width; the figure grows by its lines, so the plot keeps the height its labels were placed for."""
    from ui.figures.common import BOTTOM_MARGIN_PX, LEGEND_CHAR_PX, NARROW_PLOT_PX

    tr = Translator(lang)
    fig = hf.bandwidth_by_year(CHIPS, tr=tr)
    (note,) = [a for a in fig.layout.annotations if tr("hw_size_note") in a.text]
    lines = note.text.split("<br>")
    assert "<br>".join(lines).replace("<br>", " · ") == f"{tr('hw_size_note')} · {tr('hw_announced_key')}"
    assert all(fmt.text_px(line, LEGEND_CHAR_PX) <= NARROW_PLOT_PX for line in lines)
    assert len(lines) == (2 if lang == "en" else 1)  # 76 Latin glyphs do not fit 370 px; the zh-TW key does
    assert note.y == 0 and note.yanchor == "top" and note.yshift < -BOTTOM_MARGIN_PX  # under the axis title
    assert fig.layout.margin.b >= -note.yshift + 15 * len(lines)  # the margin holds it
    assert fig.layout.height - fig.layout.margin.b == 560 - BOTTOM_MARGIN_PX  # the template's top margin as before


def test_bandwidth_by_year_stacks_the_names_of_chips_at_one_point():
    """Chips of one year at (about) the same bandwidth (B300, GB300, MI350X, MI355X: 8 TB/s in 2025) printed their
    labels on top of each other: they share one label, the names stacked, on the fastest of them; a chip 10 % or more
    away keeps its own."""
    a = replace(FAST, id="a", name="Alpha", vendor="Acme")
    b = replace(FAST, id="b", name="Beta", vendor="Other", memory_bandwidth_bytes_per_s=4.1 * TOY_BW)
    c = replace(FAST, id="c", name="Gamma", vendor="Acme", memory_bandwidth_bytes_per_s=2 * TOY_BW)
    labels = hf.bandwidth_by_year([a, b, c]).data[-1]
    assert list(labels.text) == ["", "Alpha<br>Beta", "Gamma"]  # Beta (4.1 TB/s), the faster of the pair, carries it
    # 4.1 and 2 TB/s, 0.3 decades apart: room above each marker, so both labels keep the default place
    assert list(labels.textposition)[1:] == ["top center", "top center"]


def test_tpot_by_hardware_legend_sits_under_the_plot_and_the_axis_names_chips_shortly():
    """The legend sat above the plot, where a long title ran into it, then inside the plot's top-right corner, where
    it covered the fastest chips' value labels in a 900 px wiki frame: it sits under the plot, from the figure's left
    edge, in a bottom margin made for it. The axis names each chip shortly (the full names had taken half the
    frame), the hover fully; an announced part is starred, with the key as the legend's title."""
    fig = hf.tpot_by_hardware(_pairs())
    legend = fig.layout.legend
    assert (legend.orientation, legend.xref, legend.x, legend.yref, legend.y, legend.yanchor) == (
        "h", "container", 0.0, "container", 0.0, "bottom")  # fmt: skip
    from ui.figures.common import LEGEND_ROW_PX, legend_rows

    names = [t.name for t in fig.data if t.showlegend is not False and t.name]
    assert fig.layout.height == round(max(320, 24 * 3 + 150) + legend_rows(names) * LEGEND_ROW_PX)  # taller by its rows
    catalog = load_hardware_catalog()
    chips = [catalog[i] for i in ("gb200", "vr200", "h200")]
    s = _scenario()
    pairs = [(e.tpot_s, e) for e in (estimate(TINY_DENSE, h, s, IDEAL) for h in chips)]
    for tr in (EN, ZH):
        fig = hf.tpot_by_hardware(pairs, tr=tr)
        bar = fig.data[1]
        by_id = dict(zip((e.hardware.id for _, e in sorted(pairs, key=lambda p: float(p[1].tpot_s))), bar.y,
                         strict=True))  # fmt: skip
        assert by_id["gb200"] == "GB200 NVL72" and by_id["vr200"].endswith("*") and by_id["h200"] == "H200 SXM 141GB"
        assert fig.layout.legend.title.text == tr("hw_announced_key") and fig.layout.legend.title.side == "top"
        full = {row[4] for row in bar.customdata}
        assert fmt.chip(catalog["vr200"], tr) in full and "%{customdata[4]}" in bar.hovertemplate


@pytest.mark.parametrize("tr", [EN, ZH])
def test_frontier_point_of_an_announced_chip_is_marked(tr):
    """Issue 18: the memory frontier jumped to an announced part's figure (Rubin's 22 TB/s) with nothing saying so:
    a point an announced chip holds is an open marker, '(announced)' in its hover, with one legend key; a year range
    of one year reads '2026', not '2026–2026'."""
    future = replace(FAST, id="future", name="Future", launch_year=2026, memory_bandwidth_bytes_per_s=9 * TOY_BW,
                     announced=True)  # fmt: skip
    chips = [*CHIPS, future]
    df = hf.frontier_table(chips)
    overall = df[df.memory_type == "all"].set_index("year")
    assert bool(overall.loc[2026].announced) and not overall.loc[2024].announced
    trace = _trace(hf.bandwidth_frontier(chips, tr=tr), tr("hw_frontier_all"))
    years = decode(trace.x).tolist()
    assert trace.marker.symbol[years.index(2026)] == "circle-open" and trace.marker.symbol[0] == "circle"
    assert trace.customdata[years.index(2026)][0] == tr("hw_announced_name", name="Future")
    names = [t.name for t in hf.bandwidth_frontier(chips, tr=tr).data]
    assert tr("hw_frontier_announced") in names and tr("hw_frontier_announced") not in [
        t.name for t in hf.bandwidth_frontier(CHIPS, tr=tr).data
    ]
    gen = hf.generation_table(chips, tr=tr).set_index(tr("hw_col_memory_type"))
    assert gen.loc[hf.memory_label("GDDR6", tr), tr("hw_col_years")] == str(SMALL.launch_year)  # one chip, one year
    assert gen.loc[hf.memory_label("HBM3e", tr), tr("hw_col_years")] == f"{FAST.launch_year}–2026"


def test_bubble_labels_are_placed_off_each_other_and_the_markers():
    """Two chips of one year a little apart in bandwidth (RTX PRO 6000 Server over RTX PRO 4500 Blackwell printed
    on each other): their labels go where neither covers the other nor a marker; a lone chip's sits on top."""
    from ui.figures.hardware import place_labels

    lone = place_labels([2022.0], [3.0], [10.0], ["H100"], (2019.4, 2026.6), (-0.8, 1.45), (570.0,))
    assert lone == ["top center"]
    x, y, r = [2025.0, 2025.0], [1.8, 1.6], [8.0, 8.0]
    texts = ["RTX PRO 6000 Server", "RTX PRO 4500 Blackwell"]
    where = place_labels(x, y, r, texts, (2019.4, 2026.6), (-0.8, 1.45), (570.0,))
    assert where[0] != where[1] and set(where) <= {
        "top center",
        "bottom center",
        "middle right",
        "middle left",
        "top right",
        "bottom right",
        "top left",
        "bottom left",
    }
    # placed one above, one below (the 0.05 decade apart markers leave no room beside each other for both)
    assert {w.split()[0] for w in where} == {"top", "bottom"}
    assert where[0].startswith("top") and where[1].startswith("bottom")  # the faster chip's label above


def _label_boxes(fig, figure_px: float) -> dict[str, tuple[float, float, float, float]]:
    """The bubble chart's labels as drawn in a frame `figure_px` wide (common.at_width): text -> its text's box
    (left, bottom, right, top; px in the plot), as plotly sets a 10 px label off its marker (hf._SIDE_R, ...), its
    width estimated from its text as the codebase does (fmt.text_px at hf._CHAR_PX a Latin glyph)."""
    drawn = at_width(fig, figure_px)
    labels = drawn.data[-1]
    (x0, x1), (y0, y1) = drawn.layout.xaxis.range, drawn.layout.yaxis.range
    below = drawn.layout.legend.orientation == "h"  # the vendors under the plot, else at its right
    plot_w = figure_px - (hf._BUBBLE_SIDES_BELOW_PX if below else hf._BUBBLE_SIDES_PX)
    boxes = {}
    for x, y, size, text, where in zip(labels.x, labels.y, labels.marker.size, labels.text, labels.textposition,
                                       strict=True):  # fmt: skip
        if not text:
            continue
        lines, r = text.split("<br>"), size / 2
        w = max(fmt.text_px(line, hf._CHAR_PX) for line in lines)
        h = len(lines) * hf._LINE_PX + hf._LINE_EXTRA_PX
        cx, cy = (x - x0) / (x1 - x0) * plot_w, (math.log10(y) - y0) / (y1 - y0) * hf._BUBBLE_PLOT_HEIGHT_PX
        vert, horiz = where.split()
        cx += {"center": 0.0, "right": hf._SIDE_R * r + w / 2, "left": -hf._SIDE_R * r - w / 2}[horiz]
        cy += {"top": hf._ABOVE_R * r + h / 2, "bottom": -hf._BELOW_R * r - h / 2, "middle": 0.0}[vert]
        boxes[text] = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
    return boxes, plot_w


@pytest.mark.parametrize("tr", [EN, ZH])
def test_bubble_labels_read_in_every_frame_the_page_is_read_in(tr):
    """A review at 900 px with the sidebar open: the bubble chart's labels were cut at the plot's edges and printed
    over each other ('MI250X' over 'H100 SXM5 80GB'; the labels were placed for a 570 px plot, there 270 px). The
    vendors now stand under the plot there (a 360 px plot), the labels placed for each span of widths the chart is
    read at (narrow: the 900 px page's to a 900 px wiki frame's; wider: from there on, drawn so by plotly_chart.js)
    and a label that would still meet another or be cut is left to the hover. In each frame (common.FRAME_FIGURE_PX,
    and widths between and past them) no two labels' texts overlap by more than 2 px both ways and none runs past
    the plot; the review's two both read at 900 px; wider, every label is shown; every chip is named in the hover."""
    from tpot_model.catalog import load_hardware_catalog

    chips = list(load_hardware_catalog().values())
    fig = hf.bandwidth_by_year(chips, tr=tr)
    shown = {}
    for frame in (*FRAME_FIGURE_PX, 600.0, 700.0, 850.0, 1100.0, 1300.0):
        boxes, plot_w = _label_boxes(fig, frame)
        meet = [(a, b) for i, (a, p) in enumerate(boxes.items()) for b, q in list(boxes.items())[i + 1 :]
                if min(p[2], q[2]) - max(p[0], q[0]) > 2 and min(p[3], q[3]) - max(p[1], q[1]) > 2]  # fmt: skip
        cut = [t for t, (left, bottom, right, top) in boxes.items()
               if left < 0 or right > plot_w or bottom < 0 or top > hf._BUBBLE_PLOT_HEIGHT_PX]  # fmt: skip
        assert (meet, cut) == ([], []), frame
        shown[frame] = boxes
    narrow, wide = shown[FRAME_FIGURE_PX[0]], shown[FRAME_FIGURE_PX[2]]
    assert {"MI250X", "H100 SXM5 80GB"} <= set(narrow)  # the review's pair: both named, apart
    every = {t for t in fig.data[-1].text if t} | {t for t in at_width(fig, 2000).data[-1].text if t}
    assert set(wide) == every and len(wide) == 35  # wider: every label (one per cluster of a year's chips)
    assert len(narrow) >= 32  # at 900 px beside the sidebar nearly all: those left out are named in the hover
    hover = {row[0] for t in fig.data[:-1] for row in t.customdata}
    assert hover == {fmt.chip(h, tr) for h in chips if h.launch_year is not None}
    assert fig.to_json() == hf.bandwidth_by_year(chips, tr=tr).to_json()  # the same figure every time


def test_a_difference_against_a_what_if_is_greyed_not_judged():
    """Compare coloured B's 'Tokens/s per GPU −12.7 %' red against an A that cannot run: a difference with a side
    that does not fit is a what-if, greyed like its cells, neither green nor red."""
    fits = estimate(TINY_DENSE, TOY_GPU, _scenario())
    too_big = estimate(TINY_DENSE, TOY_GPU, _scenario(batch=10**7))
    assert bool(fits.fits) and not bool(too_big.fits)
    for ests in ({"A": too_big, "B": fits}, {"A": fits, "B": too_big}):
        styler = cf.headline_display(ests)
        frame = styler.data
        ctx = styler._compute().ctx
        delta = frame.columns.get_loc(EN("cmp_delta_col", x="B"))
        row = frame.index.get_loc(EN("cmp_row_tps_gpu"))
        css = dict(ctx.get((row, delta), []))
        assert css.get("color") == cf.IF_FITTED_COLOUR and "font-weight" not in css
    both = cf.headline_display({"A": fits, "B": estimate(TINY_DENSE, TOY_GPU, _scenario(batch=2))})
    ctx = both._compute().ctx
    row, delta = both.data.index.get_loc(EN("cmp_row_tps_gpu")), both.data.columns.get_loc(EN("cmp_delta_col", x="B"))
    assert dict(ctx.get((row, delta), [])).get("color") in (cf.BETTER_COLOUR, cf.WORSE_COLOUR)  # both run: judged


def test_decomposition_fades_a_scenario_that_does_not_fit():
    """Compare drew a scenario that cannot run in full colour beside its greyed 'if it fitted' cells: its bars are
    faded and its legend entry says 'if it fitted'."""
    fits = estimate(TINY_DENSE, TOY_GPU, _scenario())
    too_big = estimate(TINY_DENSE, TOY_GPU, _scenario(batch=10**7))
    fig = cf.decomposition({"A": fits, "B": too_big})
    a, b = fig.data
    assert a.opacity == 1.0 and EN("if_fitted") not in a.name
    assert b.opacity < 1.0 and b.name.replace("<br>", " ").endswith(EN("if_fitted_label", label=""))


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_what_if_legend_entry_reads_one_bracket_of_its_languages_width(lang):
    """zh-TW had read 'B · … · bf16（TPOT 177 ms）（若放得下）', two pairs side by side (and the brackets of the
    TPOT and of the mark in two styles before): one full-width pair holds both; English says it after its bracket."""
    tr = Translator(lang)
    too_big = estimate(TINY_DENSE, TOY_GPU, _scenario(batch=10**7))
    (b,) = cf.decomposition({"B": too_big}, tr=tr).data
    tpot = fmt.unbroken(fmt.ms(float(too_big.tpot_s), tr=tr))
    label = cf.scenario_label("B", too_big)
    shown = b.name.replace("<br>", "" if lang == "zh-TW" else " ")
    assert shown == {"en": f"{label} (TPOT {tpot}), if it fitted", "zh-TW": f"{label}（TPOT {tpot}，若放得下）"}[lang]
    # the same rule for the other what-if labels that end in a bracket (Cost's tokens per MW, Roofline's title)
    zh = Translator("zh-TW")
    assert fmt.if_fitted_label(zh("m_tokens_per_mw"), zh) == "每 MW 每秒輸出 Token 數（僅解碼，若放得下）"
    assert fmt.if_fitted_label(EN("m_tokens_per_mw"), EN) == "Output tokens/s per MW, decode only, if it fitted"
    assert fmt.if_fitted_label(zh("ov_targets_title"), zh) == "TPOT 與延遲目標比較（若放得下）"


def test_bubble_chart_draws_on_the_ranges_its_labels_were_placed_on_with_room_above_the_fastest():
    """The labels are placed on the chart's own axis ranges (set on the figure: plotly's autorange differs), which
    leave LABEL_ROOM_LOG10 of a decade above the fastest chip: Rubin's label had printed over the 2025 cluster's."""
    from tpot_model.catalog import load_hardware_catalog
    from tpot_model.units import TB_per_s

    chips = list(load_hardware_catalog().values())
    fig = hf.bandwidth_by_year(chips)
    fastest = max(h.memory_bandwidth_bytes_per_s for h in chips if h.launch_year) / TB_per_s
    lo, hi = fig.layout.yaxis.range
    assert hi == pytest.approx(math.log10(fastest) + hf.LABEL_ROOM_LOG10)
    years = [h.launch_year for h in chips if h.launch_year]
    assert tuple(fig.layout.xaxis.range) == (min(years) - 0.6, max(years) + 0.6)
    labels = fig.data[-1]
    rubin = [i for i, t in enumerate(labels.text) if t.startswith("Rubin")]
    assert rubin and labels.textposition[rubin[0]].startswith("top")  # above its bubble, in the room left for it


def test_bandwidth_ranking_names_chips_shortly_with_full_names_in_the_hover():
    """900 px review: the full names on the axis left the bars' labels no room ('22.00 TB/s · 288 GE')."""
    chips = [h for h in load_hardware_catalog().values() if h.id in ("vr200", "gb200", "h100-sxm")]
    fig = hf.bandwidth_ranking(chips)
    (bar,) = fig.data
    assert "GB200 NVL72" in bar.y and any(y.endswith("*") for y in bar.y)  # Vera Rubin: announced
    assert [c[2] for c in bar.customdata] == [fmt.chip(h, EN) for h in sorted(chips, key=lambda h:
                                                                              -h.memory_bandwidth_bytes_per_s)]  # fmt: skip
    assert "customdata[2]" in bar.hovertemplate and fig.layout.annotations[0].text == EN("hw_announced_key")


def test_headline_display_keeps_the_rows_names_on_a_line_at_900_px():
    """Two scenarios: their columns a quarter of the table each (the auto layout had squeezed the rows' names onto
    two lines once the differences stopped wrapping); three, the compact table, as before."""
    ests = _sides()
    two = cf.headline_display({"A": ests["A"], "B": ests["B"]})
    assert "width: 25%" in two.to_html()  # A's and B's columns
    assert "width: 25%" not in cf.headline_display(ests).to_html()


def test_the_compact_headline_keeps_a_price_date_whole():
    """With three scenarios the price's date has a row of its own in a narrow column: it broke at a hyphen
    ('2026-' over '03-17'); its hyphens are non-breaking now (the CSV keeps the ISO date)."""
    from tpot_model import resolve_hardware, resolve_model

    assert fmt.date("2026-03-17") == "2026\u201103\u201117" and fmt.date(None) == "—"
    ests = {x: estimate(resolve_model("llama-3.1-8b"), resolve_hardware("h200"), _scenario()) for x in "ABC"}
    frame = cf.headline_display(ests).data
    as_of = ests["A"].price.as_of
    cells = [c for c in frame.loc[EN("cmp_row_price_as_of")] if c]  # A, B and C (their delta columns blank)
    assert as_of and cells == [fmt.date(as_of)] * 3


def test_a_change_of_ten_times_or_more_reads_as_a_multiple():
    """Compare's deltas: '+28.4 tok/s (+3171.9%)' read as a multiple, '(32.7×)' (helper review); smaller changes stay
    in % to one decimal, signed with a true minus."""
    from ui import fmt

    m = cf._Metric("cmp_row_tps_gpu", "tok/s", lambda e: 0.0, fmt.rate, "higher")
    assert cf._delta_text(m, 0.8962, 29.3, EN) == fmt.unbroken(fmt.signed(29.3 - 0.8962, fmt.rate) + " (32.7×)")
    assert cf._delta_text(m, 100.0, 150.0, EN, percent_only=True) == "+50.0%"
    assert cf._delta_text(m, 100.0, 25.0, EN, percent_only=True) == "−75.0%"
    assert cf._delta_text(m, 100.0, 1000.0, EN, percent_only=True) == "10.0×"
    assert cf._delta_text(m, 1241.0, 25.5, EN, percent_only=True) == "1/48.7"  # 48.7 times lower, as the other way


def test_headline_display_of_an_absurd_scenario_reads_in_one_unit_per_row():
    """Compare at batch 4,096 and a 1M context (helper review): 'Minimum GPUs' read '| 1,024' (st.table's Markdown
    made '> 1,024' a quote), memory '725,715 GB' where the notice said '726 TB', and the TPOT's difference
    '+1,268 ms' beside TPOTs of 240 s. Now 'none' in the page's language ('> 1,024' had read as if a
    bigger cluster would hold it: a code review), TB, and the difference in seconds."""
    from tpot_model import resolve_hardware, resolve_model
    from ui.figures.compare import headline_display

    s = Scenario(batch=4096, context_tokens=1048576, output_tokens=1024, weights="fp8")
    model = resolve_model("llama-3.1-70b")
    ests = {"A": estimate(model, resolve_hardware("h200"), s), "B": estimate(model, resolve_hardware("h200-nvl"), s)}
    frame = headline_display(ests, tr=EN).data.map(lambda t: t.replace("\xa0", " "))
    assert frame.loc[EN("cmp_row_min_gpus"), "A"] == EN("min_gpus_none") == "none"
    zh = Translator("zh-TW")
    assert headline_display(ests, tr=zh).data.loc[zh("cmp_row_min_gpus"), "A"].replace("\xa0", " ") == zh(
        "min_gpus_none"
    )
    assert frame.loc[EN("cmp_row_memory"), "A"].endswith(" TB")
    tpot = frame.loc[EN("cmp_row_tpot")]
    assert tpot["A"] == EN("if_fitted_mark", value="294 s")  # it does not fit: 'if it fitted'
    assert tpot[EN("cmp_delta_col", x="B")] == "+0.0531 s (+0.0%)"  # 53 ms between two TPOTs of 294 s


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_compare_charts_mark_a_projected_part(lang):
    """Rubin (vr200, announced) against B200: both Compare charts' legends and hovers name Rubin "(announced)" in the
    page's language, as the table does (a review: a chart cut out for a memo had lost the mark); B200 unmarked."""
    from tpot_model import resolve_hardware, resolve_model

    tr = Translator(lang)
    m = resolve_model("llama-3.1-70b")
    ests = {
        x: estimate(m, resolve_hardware(h), _scenario(batch=8, weights="fp8"))
        for x, h in (("A", "vr200"), ("B", "b200"))
    }
    marked = tr("hw_announced_name", name=resolve_hardware("vr200").name)
    assert cf.scenario_label("A", ests["A"], tr).startswith(f"A · 1 × {marked} · ")

    def flat(text: str) -> str:  # a legend entry wider than the plot is on lines (common.wrap_legend)
        return "".join(text.replace("<br>", " ").split())

    bars = {t.name[0]: t for t in cf.decomposition(ests, tr=tr).data}
    assert flat(marked) in flat(bars["A"].name) and marked in bars["A"].hovertemplate[0]
    assert flat(tr("hw_announced_name", name="")) not in flat(bars["B"].name)
    sweeps = {
        x: estimate(e.model, e.hardware, replace(e.scenario, batch=np.array([1.0, 8.0, 64.0]))) for x, e in ests.items()
    }
    names = [flat(t.name) for t in cf.tpot_vs_batch(sweeps, ests, tr=tr).data if t.name]
    assert any(n.startswith(flat(f"A · 1 × {marked}")) for n in names)
