"""The 80% calibration band drawn on the TPOT, throughput and cost charts (issue 17): shaded bands or error bars
whose values are the estimate's own low / high (Estimate.tpot_low_s ...), named '80% band (what it rests on)' in
both languages, and nothing for the ideal profile. Toy chips and a toy engine: the band is the 'unmeasured' level
of data/bands.json (no measurements of the engine), so its factors are the committed ones."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from model_fixtures import TINY_DENSE, TOY_GPU, legend_below

from tpot_model import IDEAL, EfficiencyProfile, Scenario, estimate
from tpot_model.bands import LEVELS, Band
from tpot_model.estimate import tpot_only_s
from ui.figures import breakdown as bd
from ui.figures import compare as cf
from ui.figures import cost as cof
from ui.figures import hardware as hf
from ui.figures import overview as of
from ui.figures.common import band_basis_short, band_label
from ui.i18n import EN, Translator

ZH = Translator("zh-TW")
ENGINE = EfficiencyProfile(id="engine", name="Test engine", bandwidth_efficiency=0.8, per_token_overhead_s=1e-4)
BATCHES = np.array([1.0, 2.0, 4.0, 8.0, 16.0])


def _est(profile=ENGINE, batch=BATCHES):
    s = Scenario(batch=batch, context_tokens=512, output_tokens=64, num_gpus=1, weights="bf16", kv_cache="bf16")
    return estimate(TINY_DENSE, TOY_GPU, s, profile)


def _band_traces(fig):
    """(low edge, filled high edge) of every shaded band: a 'tonexty' trace and the one before it."""
    data = list(fig.data)
    return [(data[i - 1], t) for i, t in enumerate(data) if t.fill == "tonexty"]


def test_the_toy_engine_has_a_band_and_ideal_none():
    e = _est()
    assert e.band.level == "unmeasured" and e.band.engine == "engine"
    assert np.all(e.tpot_low_s < e.tpot_s) and np.all(e.tpot_s < e.tpot_high_s)
    assert band_label(e.band, EN) == "80% band (widest: engine or this chip unmeasured)"  # a user profile, by its id
    assert band_label(e.band, ZH).startswith("80% 區間（")
    assert band_label(_est(IDEAL).band, EN) == ""


def test_cost_curve_shades_the_decode_cost_band():
    e = _est()
    fig = cof.cost_curve(BATCHES, e.usd_per_1M_tokens, e.usd_per_1M_tokens_with_prefill, e.fits, 4.0,
                         band_low=e.usd_per_1M_tokens_low, band_high=e.usd_per_1M_tokens_high,
                         band_name=band_label(e.band, EN))  # fmt: skip
    ((low, high),) = _band_traces(fig)
    np.testing.assert_allclose(low.y, e.usd_per_1M_tokens_low)
    np.testing.assert_allclose(high.y, e.usd_per_1M_tokens_high)
    assert high.name == band_label(e.band, EN) and high.showlegend and not low.showlegend
    assert high.name in high.hovertemplate
    # the band's long name went into a legend printed over the title (helper review): the legend sits below the plot
    assert legend_below(fig.layout.legend)
    # tokens per $: the same band, inverted (its high end, the most tokens per $, is the cost's low end)
    fig = cof.cost_curve(BATCHES, e.usd_per_1M_tokens, e.usd_per_1M_tokens_with_prefill, e.fits, 4.0,
                         unit="tokens_per_usd", band_low=e.usd_per_1M_tokens_low, band_high=e.usd_per_1M_tokens_high,
                         band_name="b")  # fmt: skip
    ((low, high),) = _band_traces(fig)
    np.testing.assert_allclose(high.y, 1e6 / e.usd_per_1M_tokens_low)
    np.testing.assert_allclose(low.y, 1e6 / e.usd_per_1M_tokens_high)
    assert np.all(low.y < high.y)


def test_throughput_curve_shades_its_band():
    e = _est()
    lo, hi = (
        e.tokens_per_s_per_gpu * e.band.throughput_low_factor,
        e.tokens_per_s_per_gpu * e.band.throughput_high_factor,
    )
    fig = cof.throughput_curve(BATCHES, e.tokens_per_s_per_gpu, e.tokens_per_s_per_user, e.fits, 4.0,
                               band_low=lo, band_high=hi, band_name=band_label(e.band, ZH), tr=ZH)  # fmt: skip
    ((low, high),) = _band_traces(fig)
    np.testing.assert_allclose(low.y, lo)
    np.testing.assert_allclose(high.y, hi)
    assert high.name.startswith("80% 區間")


def test_no_band_for_the_ideal_profile_on_the_curves():
    i = _est(IDEAL)
    fig = cof.cost_curve(BATCHES, i.usd_per_1M_tokens, i.usd_per_1M_tokens_with_prefill, i.fits, 4.0,
                         band_low=i.usd_per_1M_tokens_low, band_high=i.usd_per_1M_tokens_high,
                         band_name=band_label(i.band, EN))  # fmt: skip
    assert _band_traces(fig) == []
    fig = cf.tpot_vs_batch({"A": i}, {"A": _est(IDEAL, 4.0)})
    assert _band_traces(fig) == []


def test_compare_sweep_shades_each_scenarios_tpot_band():
    a, b = _est(), _est(EfficiencyProfile(id="other", name="Other", bandwidth_efficiency=0.5))
    fig = cf.tpot_vs_batch({"A": a, "B": b}, {"A": _est(batch=4.0), "B": _est(batch=4.0)})
    bands = _band_traces(fig)
    assert len(bands) == 2
    for (low, high), e, x in zip(bands, (a, b), ("A", "B"), strict=True):
        np.testing.assert_allclose(low.y, e.tpot_low_s * 1e3)
        np.testing.assert_allclose(high.y, e.tpot_high_s * 1e3)
        assert high.name == f"{x}: {band_label(e.band, EN)}" and high.legendgroup == x
    # each edge's hover says which end it is and at which batch (both had read '80% band …<br>8: 12.3 ms')
    low, high = bands[0]
    name = "A: 80% band (widest: engine or this chip unmeasured)"
    assert low.hovertemplate == f"{name}, low end<br>Batch %{{x}}: %{{y:,.3~g}} ms<extra></extra>"
    assert high.hovertemplate == f"{name}, high end<br>Batch %{{x}}: %{{y:,.3~g}} ms<extra></extra>"
    zh = cf.tpot_vs_batch({"A": a}, {"A": _est(batch=4.0)}, tr=ZH)
    ((_, high),) = _band_traces(zh)
    assert high.hovertemplate.startswith(f"A：{band_label(a.band, ZH)}，上緣<br>批次 %{{x}}：")


def test_hardware_bars_carry_each_chips_band_as_error_bars_and_in_the_table():
    s = Scenario(batch=4, context_tokens=512, output_tokens=64, num_gpus=1, weights="bf16", kv_cache="bf16")
    pairs = [(tpot_only_s(TINY_DENSE, TOY_GPU, s, IDEAL), estimate(TINY_DENSE, TOY_GPU, s, ENGINE))]
    e = pairs[0][1]
    fig = hf.tpot_by_hardware(pairs)
    bar = next(t for t in fig.data if t.name == EN("hw_estimate") and t.x is not None and t.x[0] is not None)
    assert bar.error_x.visible
    np.testing.assert_allclose(bar.x[0] + bar.error_x.array[0], float(e.tpot_high_s) * 1e3)
    np.testing.assert_allclose(bar.x[0] - bar.error_x.arrayminus[0], float(e.tpot_low_s) * 1e3)
    assert any(t.name == EN("hw_legend_band") for t in fig.data)
    # the labels are drawn past the band's high end, where no error bar runs through them
    (labels,) = [t for t in fig.data if t.text is not None and t.hoverinfo == "skip"]
    np.testing.assert_allclose(labels.x, [float(e.tpot_high_s) * 1e3])
    assert labels.text == bar.text
    table = hf.tpot_table(pairs)
    assert table.loc[0, "tpot_low_ms"] == pytest.approx(float(e.tpot_low_s) * 1e3)
    assert table.loc[0, "tpot_high_ms"] == pytest.approx(float(e.tpot_high_s) * 1e3)
    # one chip, one basis: said once under the table, not in a column
    assert hf.common_band_words(table, ZH) == band_basis_short(e.band, ZH)
    assert ZH("hw_col_band") not in hf.tpot_display_table(table, tr=ZH).columns
    # bands on different bases: a column says each chip's
    level = next(lv for lv in LEVELS if lv != e.band.level)
    other = table.assign(hardware_id="other", hardware="Other", band_level=level)
    two = pd.concat([table, other], ignore_index=True)
    assert hf.common_band_words(two, ZH) == ""
    shown = hf.tpot_display_table(two, tr=ZH)
    assert list(shown[ZH("hw_col_band")]) == [band_basis_short(e.band, ZH),
                                             band_basis_short(Band(level=level, engine=e.band.engine,
                                                             family=e.band.family), ZH)]  # fmt: skip
    assert ZH("hw_col_band") not in hf.tpot_display_table(two, show_profile=False, tr=ZH).columns
    # ideal only: no error bars, no key
    ideal = estimate(TINY_DENSE, TOY_GPU, s, IDEAL)
    ideal_fig = hf.tpot_by_hardware([(ideal.tpot_s, ideal)], show_profile=False)
    assert not any(t.name == EN("hw_legend_band") for t in ideal_fig.data)


def test_overview_bar_has_the_band_as_an_error_bar():
    e = _est(batch=4.0)
    name = band_label(e.band, EN)
    fig = of.tpot_vs_targets(float(e.tpot_s), 0.5 * float(e.tpot_s), low_s=float(e.tpot_low_s),
                             high_s=float(e.tpot_high_s), band_name=name)  # fmt: skip
    bar = fig.data[0]
    assert bar.error_x.visible
    assert bar.x[1] + bar.error_x.array[1] == pytest.approx(float(e.tpot_high_s) * 1e3)
    assert bar.x[1] - bar.error_x.arrayminus[1] == pytest.approx(float(e.tpot_low_s) * 1e3)
    assert name in bar.customdata[1] and any(t.name == name for t in fig.data[1:])
    plain = of.tpot_vs_targets(float(e.tpot_s), 0.5 * float(e.tpot_s))  # the ideal profile: no band
    assert not plain.data[0].error_x.visible and len(plain.data) == 1
    # the chart's CSV carries the band beside the modelled number (a review: the estimate alone)
    table = of.targets_table(float(e.tpot_s), 0.5 * float(e.tpot_s), float(e.tpot_low_s), float(e.tpot_high_s))
    assert table["estimate_low_ms"].iloc[0] == pytest.approx(float(e.tpot_low_s) * 1e3)
    assert table["estimate_high_ms"].iloc[0] == pytest.approx(float(e.tpot_high_s) * 1e3)
    assert of.targets_table(float(e.tpot_s), 0.5 * float(e.tpot_s))["estimate_low_ms"].isna().all()  # none given


def test_breakdown_totals_carry_the_band():
    e = _est()
    fig = bd.sweep_bars(e, None, BATCHES, axis="batch", current=4, tr=ZH)
    total = next(t for t in fig.data if t.error_y is not None and t.error_y.visible)
    np.testing.assert_allclose(np.asarray(total.y) + total.error_y.array, e.tpot_high_s * 1e3)
    np.testing.assert_allclose(np.asarray(total.y) - total.error_y.arrayminus, e.tpot_low_s * 1e3)
    (key,) = [t for t in fig.data if t.name == ZH("band_key")]  # a short key; its hover says what the band rests on
    assert key.hovertemplate == band_label(e.band, ZH)
    ideal = bd.sweep_bars(_est(IDEAL), None, BATCHES, axis="batch", current=4)
    assert not any(t.error_y is not None and t.error_y.visible for t in ideal.data)
    assert not any(t.name == EN("band_key") for t in ideal.data)


def test_the_label_says_what_the_band_rests_on():
    """llama.cpp has measurements on Ada (data/bands.json 'seen'): on an RTX 4090 its band is the same-family level;
    on an H100 (Hopper, also measured) too; an engine measured only elsewhere says 'other chip families only'."""
    from dataclasses import replace

    s = Scenario(batch=1, context_tokens=512, output_tokens=64, num_gpus=1, weights="bf16", kv_cache="bf16")
    llama = EfficiencyProfile(id="llama.cpp", name="llama.cpp", bandwidth_efficiency=0.8)
    e = estimate(TINY_DENSE, replace(TOY_GPU, id="rtx-4090"), s, llama)
    assert band_label(e.band, EN) == "80% band (llama.cpp measured on NVIDIA Ada Lovelace)"
    assert band_label(e.band, ZH) == "80% 區間（「llama.cpp」在 NVIDIA Ada Lovelace 上有實測）"
    atom = EfficiencyProfile(id="atom", name="ATOM", bandwidth_efficiency=0.8)  # measured on CDNA 4 only
    e = estimate(TINY_DENSE, replace(TOY_GPU, id="h100-sxm"), s, atom)
    # by the engine's name, as the pages' captions give it (the legend had read 'tensorrt-llm', 'atom')
    assert band_label(e.band, EN) == "80% band (AMD ATOM measured on other chip families only)"
    trt = EfficiencyProfile(id="tensorrt-llm", name="TensorRT-LLM", bandwidth_efficiency=0.8)
    e = estimate(TINY_DENSE, replace(TOY_GPU, id="b200"), s, trt)
    assert band_label(e.band, EN) == "80% band (TensorRT-LLM measured on NVIDIA Blackwell data-centre GPUs)"
    assert band_label(e.band, ZH) == "80% 區間（「TensorRT-LLM」在 NVIDIA Blackwell 資料中心 GPU 上有實測）"


def test_the_widest_band_says_which_of_its_two_cases_holds():
    """'Unmeasured' is either an engine with no measurements (on a catalog chip: its family is named nowhere as
    'outside') or a chip of the user's own outside the families; each case its own sentence, in both languages."""
    from dataclasses import replace

    from ui.bands import basis_text

    on_h200 = estimate(TINY_DENSE, replace(TOY_GPU, id="h200"), Scenario(batch=1, context_tokens=512), ENGINE)
    own_chip = _est(batch=1.0)  # the toy GPU: no catalog family
    assert on_h200.band.level == own_chip.band.level == "unmeasured"
    for tr in (EN, ZH):
        engine_case, chip_case = basis_text(on_h200, tr, "Test engine"), basis_text(own_chip, tr, "Test engine")
        assert engine_case.startswith(tr("band_basis_unmeasured", engine="Test engine", n=0, lo="", hi="")[:20])
        assert chip_case.startswith(tr("band_basis_unmeasured_own_file", n=0, lo="", hi="")[:25])
        assert "Hopper" not in engine_case and tr("band_no_family") not in engine_case


def test_total_tokens_band_is_the_throughput_band_as_the_dollar_band():
    """Overview's 'tokens/s total', its $ per 1M tokens and tokens/s per GPU are one rate (the total, over the GPUs, the
    price over it): one band, the measured throughput's. A browser review: the total had read 1,125-1,949 (batch x
    the per-user band, the TPOT's) beside $1.29-$2.31 (the throughput band), where $9.08/h over 1,125 tok/s is $2.24."""
    from ui import fmt
    from ui.bands import band_text

    e = _est(batch=32.0)
    total, lo, hi = float(e.tokens_per_s_total), e.band.throughput_low_factor, e.band.throughput_high_factor
    low, high = float(e.tokens_per_s_total_low), float(e.tokens_per_s_total_high)
    assert (low, high) == pytest.approx((total * lo, total * hi))
    assert band_text(e, EN, "tps_total") == EN("band_80", low=fmt.rate(total * lo), high=fmt.rate(total * hi))
    # the $ band's ends are the price over the total band's ends
    gpus, usd = float(e.scenario.num_gpus), float(e.usd_per_1M_tokens)
    assert float(e.usd_per_1M_tokens_high) == pytest.approx(usd * total / float(e.tokens_per_s_total_low))
    # the decode cost: the price over the total
    assert usd == pytest.approx(float(e.price.usd_per_gpu_hour) * gpus / total / 3600 * 1e6)
    assert lo != pytest.approx(1 / e.band.tpot_high_factor)  # the two bands differ: which one is used matters


def test_at_batch_1_the_throughputs_take_the_tpot_band():
    """At batch 1 'tokens/s per user' and 'tokens/s total' are one number, 1 / TPOT: Overview had given them two
    bands (86.6-150 and 84.0-150 tok/s: the TPOT's, inverted, and the measured throughput's). Every throughput and
    the $ take the TPOT's band there (Estimate.throughput_band_factors), and the caption says so; at batch 32 the
    throughput band stays."""
    from ui import fmt
    from ui.bands import band_text, basis_text

    e = _est(batch=1.0)
    assert float(e.tokens_per_s_total) == pytest.approx(float(e.tokens_per_s_per_user))
    assert band_text(e, EN, "tps_total") == band_text(e, EN, "tps_user")
    lo, hi = e.band.tpot_low_factor, e.band.tpot_high_factor
    gpu = float(e.output_tokens_per_s_per_gpu)
    assert (float(e.output_tokens_per_s_per_gpu_low), float(e.output_tokens_per_s_per_gpu_high)) == pytest.approx(
        (gpu / hi, gpu / lo)
    )
    usd = float(e.usd_per_1M_tokens)
    assert (float(e.usd_per_1M_tokens_low), float(e.usd_per_1M_tokens_high)) == pytest.approx((usd * lo, usd * hi))
    for tr in (EN, ZH):
        text = basis_text(e, tr, "Test engine")
        assert fmt.device_text("band_basis_throughput_one", e.hardware, tr) in text
        assert tr("band_basis_throughput", lo="X", hi="Y").split("X")[0] not in text  # no throughput band's sentence
    e32 = _est(batch=32.0)
    assert float(e32.tokens_per_s_total_low) == pytest.approx(
        float(e32.tokens_per_s_total) * e32.band.throughput_low_factor
    )
    # a sweep over batch: each point by its own batch
    sweep = _est(batch=np.array([1.0, 32.0]))
    low = sweep.throughput_band_factors[0]
    assert low[0] == pytest.approx(1 / hi) and low[1] == pytest.approx(e32.band.throughput_low_factor)


@pytest.mark.parametrize("tr", [EN, ZH])
def test_the_caption_names_the_band_the_dollar_figure_rests_on(tr):
    """Browser review: Overview's $ band ($3.93-$6.98 around $5.36: -27% / +30%) matched no number in the caption
    under it, which gave the TPOT band alone (-27% to +26%): $ and tokens/s per GPU rest on the measured throughput's
    own band. The caption now gives both, and the $ band is the throughput band's ends."""
    from ui import fmt
    from ui.bands import basis_text

    e = _est(batch=32.0)
    lo, hi = e.band.throughput_low_factor, e.band.throughput_high_factor
    text = basis_text(e, tr, "Test engine")
    assert tr("band_basis_throughput", lo=fmt.pct(lo - 1, 0, signed=True), hi=fmt.pct(hi - 1, 0, signed=True)) in text
    usd = float(e.usd_per_1M_tokens)
    assert (float(e.usd_per_1M_tokens_low), float(e.usd_per_1M_tokens_high)) == pytest.approx((usd / hi, usd / lo))


def test_the_widest_bands_long_key_is_on_even_lines_that_fit_a_narrow_plot():
    """A browser review at 900 px: '80% band (widest: Typical serving engine or this chip unmeasured)' lost its
    closing bracket at the figure's edge on Cost's sweeps, Overview's TPOT chart and Compare's sweep. The key is on
    two lines of about even length (not one word left on the second), each within the narrowest plot
    (common.wrap_legend); the figure grows by the second line, the hovers keep the name whole."""
    from tpot_model import resolve_profile
    from ui.figures.common import LEGEND_CHAR_PX, LEGEND_LINE_PX, LEGEND_SYMBOL_PX, NARROW_PLOT_PX
    from ui.fmt import text_px

    typical = _est(resolve_profile("typical"), batch=4.0)
    name = band_label(typical.band, EN)
    assert name == "80% band (widest: Typical serving engine or this chip unmeasured)"
    wrapped = "80% band (widest: Typical serving<br>engine or this chip unmeasured)"
    widest = (NARROW_PLOT_PX - LEGEND_SYMBOL_PX) / LEGEND_CHAR_PX  # 55 Latin glyphs
    assert all(text_px(line, 1) <= widest for line in wrapped.split("<br>"))
    # Cost's sweeps
    e = _est()
    fig = cof.cost_curve(BATCHES, e.usd_per_1M_tokens, e.usd_per_1M_tokens_with_prefill, e.fits, 4.0,
                         band_low=e.usd_per_1M_tokens_low, band_high=e.usd_per_1M_tokens_high, band_name=name)  # fmt: skip
    ((low, high),) = _band_traces(fig)
    assert high.name == wrapped and high.hovertemplate.startswith(f"{name}, high end<br>")
    short = cof.cost_curve(BATCHES, e.usd_per_1M_tokens, e.usd_per_1M_tokens_with_prefill, e.fits, 4.0,
                           band_low=e.usd_per_1M_tokens_low, band_high=e.usd_per_1M_tokens_high, band_name="b")  # fmt: skip
    assert fig.layout.height == short.layout.height + LEGEND_LINE_PX
    fig = cof.throughput_curve(BATCHES, e.tokens_per_s_per_gpu, e.tokens_per_s_per_user, e.fits, 4.0,
                               band_low=e.tokens_per_s_per_gpu, band_high=e.tokens_per_s_per_gpu, band_name=name)  # fmt: skip
    assert _band_traces(fig)[0][1].name == wrapped
    # Overview's TPOT chart: its key, and a line's more height
    t, lo, hi = float(typical.tpot_s), float(typical.tpot_low_s), float(typical.tpot_high_s)
    fig = of.tpot_vs_targets(t, 0.5 * t, low_s=lo, high_s=hi, band_name=name)
    assert fig.data[-1].name == wrapped and name in fig.data[0].customdata[1]
    short = of.tpot_vs_targets(t, 0.5 * t, low_s=lo, high_s=hi, band_name="b")
    assert fig.layout.height == short.layout.height + LEGEND_LINE_PX
    # Compare's sweep: 'A: ' before it, still two lines within the plot
    fig = cf.tpot_vs_batch({"A": _est(resolve_profile("typical"))}, {"A": typical})
    ((_, high),) = _band_traces(fig)
    assert high.name == "A: 80% band (widest: Typical serving<br>engine or this chip unmeasured)"
    # zh-TW's is within the width: one line
    zh = band_label(typical.band, ZH)
    fig = cof.cost_curve(BATCHES, e.usd_per_1M_tokens, e.usd_per_1M_tokens_with_prefill, e.fits, 4.0,
                         band_low=e.usd_per_1M_tokens_low, band_high=e.usd_per_1M_tokens_high, band_name=zh, tr=ZH)  # fmt: skip
    assert _band_traces(fig)[0][1].name == zh
