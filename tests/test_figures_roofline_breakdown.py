"""Roofline and TPOT-breakdown figures as data (no Streamlit): traces, axis titles with units, and plotted values equal
to the model's output times the display scale. Built on the tiny in-code models and the toy GPU."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from model_fixtures import TINY_DENSE, TINY_HYBRID, TINY_MOE, TOY_BF16, TOY_BW, TOY_GPU, TOY_GPU_NO_PRICE, legend_below

from tests.apptest_util import decode
from tpot_model import BUCKETS, IDEAL, EfficiencyProfile, Scenario, estimate
from ui import fmt
from ui.figures import breakdown as bd
from ui.figures import roofline as rf
from ui.figures.common import BUCKET_COLOURS, hardware_colour
from ui.i18n import EN, Translator

ZH = Translator("zh-TW")
ENGINE = EfficiencyProfile(
    id="engine",
    name="Test engine",
    bandwidth_efficiency=0.8,
    flops_efficiency=0.5,
    per_token_overhead_s=1e-4,
)
SLOW_GPU = replace(TOY_GPU, id="slow-gpu", name="Slow GPU", dense_flop_per_s={"bf16": TOY_BW / 10})
OTHER_GPU = TOY_GPU_NO_PRICE  # bf16 only: 1e14 FLOP/s, 1e12 B/s


def _est(model=TINY_DENSE, hw=TOY_GPU, profile=ENGINE, **scenario):
    values = dict(batch=4, context_tokens=512, output_tokens=64, num_gpus=1, weights="bf16", kv_cache="bf16")
    values.update(scenario)
    return estimate(model, hw, Scenario(**values), profile)


def _trace(fig, name):
    """The trace named `name` (a legend entry broken onto lines, common.wrap_legend, read as one line)."""
    matches = [t for t in fig.data if t.name is not None and t.name.replace("<br>", " ") == name]
    assert matches, f"no trace {name!r} in {[t.name for t in fig.data]}"
    return matches[0]


def _xy(trace):
    return decode(trace.x).astype(float), decode(trace.y).astype(float)


# --------------------------------------------------------------------------------------------------- roofline


def test_roofline_axes_are_log_with_units():
    fig = rf.roofline(_est())
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    assert "(FLOP/byte)" in fig.layout.xaxis.title.text
    assert "(TFLOP/s)" in fig.layout.yaxis.title.text


def test_roofline_points_equal_model_output():
    est = _est()
    fig = rf.roofline(est)
    x, y = _xy(_trace(fig, EN("roofline_point_decode")))
    assert x[0] == pytest.approx(float(est.decode.flops / est.decode.bytes), rel=1e-12)
    assert x[0] == pytest.approx(float(est.arithmetic_intensity_flop_per_byte), rel=1e-12)
    assert y[0] == pytest.approx(float(est.decode.flops / est.tpot_s) / 1e12, rel=1e-12)
    x, y = _xy(_trace(fig, EN("roofline_point_prefill")))
    assert x[0] == pytest.approx(float(est.prefill.flops / est.prefill.bytes), rel=1e-12)
    assert y[0] == pytest.approx(float(est.prefill.flops / est.ttft_s) / 1e12, rel=1e-12)
    for op in est.decode.operators:
        if float(op.flops) == 0:
            assert rf.operator_label(op.name) not in [t.name for t in fig.data]
            continue
        x, y = _xy(_trace(fig, rf.operator_label(op.name)))
        assert x[0] == pytest.approx(float(op.arithmetic_intensity_flop_per_byte), rel=1e-12)
        assert y[0] == pytest.approx(float(op.flops / op.time_s) / 1e12, rel=1e-12)


def test_operators_at_one_point_are_all_visible_and_named_in_the_hover():
    """The weight matmuls read their weights once per step for the batch: at one weight precision they share a point,
    where only the last drawn had shown (Llama 3.1 70B FP8 on H200 at batch 32: QKV, output projection, MLP and LM
    head at ~63 FLOP/byte). Drawn as rings, the first largest; each hover names the others there."""
    est = _est(batch=32)
    fig = rf.roofline(est)
    ops = [o for o in est.decode.operators if float(o.flops) > 0]
    at = {o.name: np.log10([float(o.arithmetic_intensity_flop_per_byte), float(o.flops / o.time_s)]) for o in ops}
    shared = [o.name for o in ops if (abs(at[o.name] - at["mlp"]) < 0.02).all()]
    assert len(shared) >= 2
    traces = [_trace(fig, rf.operator_label(n)) for n in shared]
    sizes = [t.marker.size for t in traces]
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == len(sizes) and sizes[-1] == 10
    for name, t in zip(shared, traces, strict=True):
        others = [rf.operator_label(n) for n in shared if n != name]
        assert t.customdata[0][4].endswith("At the same point: " + EN.join(others))
    apart = [o.name for o in ops if sum((abs(at[o.name] - at[p.name]) < 0.02).all() for p in ops) == 1]
    alone = _trace(fig, rf.operator_label(apart[0]))
    assert alone.marker.size == 10 and "same point" not in alone.customdata[0][4]
    # each ring's legend key the size of the others' (a dummy in its legend group; the ring itself not listed)
    for name, t in zip(shared, traces, strict=True):
        keys = [k for k in fig.data if k.legendgroup == name and k.showlegend is not False]
        assert [k.marker.size for k in keys] == [10] and keys[0].name == t.name


def test_zero_flop_operators_are_skipped_and_named():
    est = _est()
    assert rf.skipped_operators(est) == ["embedding"]
    assert "embedding" not in [o.name for o in rf.plotted_operators(est)]


def test_roof_at_the_used_precision_with_ridge_point():
    est = _est(weights="fp8")  # fp8 math on the toy GPU: 2e14 FLOP/s
    assert est.compute_precision == "fp8"
    fig = rf.roofline(est)
    x, y = _xy(_trace(fig, EN("roofline_roof", hw=fmt.chip_short(TOY_GPU), precision="fp8")))
    assert y.max() == pytest.approx(2 * TOY_BF16 / 1e12)
    assert x[1] == pytest.approx(2 * TOY_BF16 / TOY_BW) == pytest.approx(est.ridge_point_flop_per_byte)
    assert y[0] == pytest.approx(TOY_BW * x[0] / 1e12)  # the slope is the bandwidth
    faint = _trace(fig, EN("roofline_other_precisions", hw=fmt.chip_short(TOY_GPU)))
    assert TOY_BF16 / 1e12 in [v for v in faint.y if v is not None]  # bf16 / fp16 drawn faint
    # its label an annotation on a white ground at the line's end (as line text, dashes had run through it)
    (label,) = [a for a in fig.layout.annotations if "bf16 / fp16" in a.text]
    assert label.bgcolor == "rgba(255,255,255,0.85)" and label.y == pytest.approx(math.log10(TOY_BF16 / 1e12))


def test_fallback_precision_is_the_roof():
    est = _est(hw=OTHER_GPU, weights="fp8")  # no fp8 units: the math falls back to bf16
    assert est.compute_precision == "bf16"
    fig = rf.roofline(est)
    _, y = _xy(_trace(fig, EN("roofline_roof", hw=fmt.chip_short(OTHER_GPU), precision="bf16")))
    assert y.max() == pytest.approx(TOY_BF16 / 1e12)


def test_achievable_roof_only_for_engine_profiles():
    # re-derived for attainable rates (issue 17): the engine's 0.8 / 0.5 are fractions of what the toy chip reaches,
    # and a chip of no listed vendor takes the default prior, 85% of its bandwidth and 70% of its FLOP/s: 68% / 35%
    label = EN("roofline_achievable", profile=ENGINE.name, bw_pct="68%", flops_pct="35%")
    fig = rf.roofline(_est())
    x, y = _xy(_trace(fig, label))
    assert y.max() == pytest.approx(TOY_BF16 * 0.7 * 0.5 / 1e12)
    assert y[0] == pytest.approx(TOY_BW * 0.85 * 0.8 * x[0] / 1e12)
    # the toy chip (no listed vendor) publishes no microbenchmark and has no family's prior: a generic guess (a review:
    # Apple, TPU and Trainium had been labelled 'family prior' for the generic 85 % / 70 %)
    source = EN("roofline_attainable_guess_short")
    attainable = EN("roofline_attainable", hw=fmt.chip_short(TOY_GPU), source=source, bw_pct="85%", flops_pct="70%")
    _, ya = _xy(_trace(fig, attainable))
    assert ya.max() == pytest.approx(TOY_BF16 * 0.7 / 1e12)  # drawn for every profile, ideal too
    assert _trace(rf.roofline(_est(profile=IDEAL)), attainable)
    ideal = rf.roofline(_est(profile=IDEAL))
    assert not [t for t in ideal.data if t.name and t.name.startswith("Achievable")]


def test_overlay_adds_other_chips_in_their_colour():
    fig = rf.roofline(_est(), overlay=[OTHER_GPU, TOY_GPU])  # the chip itself is not repeated
    t = _trace(fig, EN("roofline_overlay_roof", hw=fmt.chip_short(OTHER_GPU), precision="bf16"))
    assert t.line.color == hardware_colour(OTHER_GPU.id)
    assert not [
        t for t in fig.data if t.name == EN("roofline_overlay_roof", hw=fmt.chip_short(TOY_GPU), precision="bf16")
    ]
    data = rf.roofline_data(_est(), [OTHER_GPU])
    assert OTHER_GPU.id in set(data["hardware"])
    assert {"intensity_flop_per_byte", "attained_tflop_per_s", "time_us", "peak_tflop_per_s"} <= set(data.columns)


def test_moe_and_hybrid_operators_are_plotted():
    names = [t.name for t in rf.roofline(_est(model=TINY_MOE)).data]
    assert rf.operator_label("experts") in names
    names = [t.name for t in rf.roofline(_est(model=TINY_HYBRID)).data]
    assert rf.operator_label("linear_attention") in names


def test_operator_table_and_note():
    est = _est()
    table = rf.operator_table(est)
    assert len(table) == len(est.decode.operators)
    assert table.columns[0] == EN("roofline_col_operator") and EN("roofline_col_time_us") in table.columns
    short = rf.intensity_note(_est(context_tokens=0, output_tokens=2))  # weights dominate the bytes
    assert "memory-bound" in short and "nearly free" in short
    big = _est(hw=SLOW_GPU, batch=4096)  # ridge point 0.1 FLOP/byte: every step is past it
    assert bool(big.compute_bound)
    assert "compute-bound" in rf.intensity_note(big)
    assert "effective ridge" not in rf.intensity_note(_est(profile=IDEAL))  # no profile sentence for the ideal bound


def test_roofline_in_chinese():
    fig = rf.roofline(_est(), tr=ZH)
    assert fig.layout.title.text == ZH("roofline_chart_title", hw=fmt.chip_short(TOY_GPU))
    assert fig.layout.xaxis.title.text == ZH("roofline_axis_intensity")
    assert ZH("roofline_point_decode") in [t.name for t in fig.data]


# --------------------------------------------------------------------------------------------------- breakdown


def test_sweep_values():
    assert list(bd.batch_sweep(32)) == [2**i for i in range(11)]
    assert 12 in bd.batch_sweep(12) and 4096 in bd.batch_sweep(4096)
    ctx = bd.context_sweep(4096, 131072)
    assert ctx[0] == 0 and ctx[1] == 1024 and ctx[-1] == 131072
    assert bd.context_sweep(1 << 20, 131072)[-1] == 1 << 20  # at least up to the scenario's context
    assert 163840 in bd.context_sweep(4096, 163840)  # the model's maximum itself
    b, c = bd.heatmap_axes(131072, 0)
    assert b[0] == 1 and b[-1] == 4096 and len(b) <= 48
    assert c[0] == 128 and c[-1] == 131072 and len(c) == 48


def test_bars_stack_the_model_buckets():
    x = bd.batch_sweep(8)
    est, ideal = _est(batch=x), _est(batch=x, profile=IDEAL)
    fig = bd.sweep_bars(est, ideal, x, axis="batch", current=8)
    assert fig.layout.barmode == "stack"
    assert "(ms)" in fig.layout.yaxis.title.text and fig.layout.xaxis.title.text == EN("axis_batch")
    for key in BUCKETS:
        t = _trace(fig, EN(f"bucket_{key}"))
        assert t.marker.color == BUCKET_COLOURS[key]
        np.testing.assert_allclose(decode(t.y), est.breakdown_s[key] * 1e3, rtol=1e-12)
    np.testing.assert_allclose(decode(_trace(fig, EN("label_ideal")).y), ideal.tpot_s * 1e3, rtol=1e-12)
    widths = decode(_trace(fig, EN("bucket_weights")).marker.line.width)
    assert widths[list(x).index(8)] > 0 and (widths > 0).sum() == 1  # the current bar, and only it, outlined
    assert EN("breakdown_doesnt_fit") not in [t.name for t in fig.data]  # all fit on the toy GPU
    assert list(bd.sweep_data(est, ideal, x, axis="batch")["batch"]) == list(x.astype(int))


def test_bars_mark_points_that_do_not_fit():
    x = bd.context_sweep(4096, 1 << 20)
    est = _est(batch=4096, context_tokens=x)
    assert not est.fits.all() and est.fits.any()
    fig = bd.sweep_bars(est, None, x, axis="context", current=4096)
    assert EN("breakdown_doesnt_fit") in [t.name for t in fig.data]
    assert EN("label_ideal") not in [t.name for t in fig.data]
    fit, nofit = [t for t in fig.data if t.name == EN("bucket_kv_cache")]
    assert fit.marker.pattern.shape == "" and nofit.marker.pattern.shape == "/"
    assert fit.showlegend and not nofit.showlegend  # the legend shows the plain colour once
    # gaps are None (null in JSON), never NaN: plotly.js restarts the stack at 0 after a NaN bar
    assert not any(isinstance(v, float) and math.isnan(v) for t in fig.data if t.type == "bar" for v in t.y)
    y_fit = np.array([np.nan if v is None else v for v in fit.y])
    y_nofit = np.array([np.nan if v is None else v for v in nofit.y])
    assert np.array_equal(np.isnan(y_nofit), est.fits) and np.array_equal(np.isnan(y_fit), ~est.fits)
    np.testing.assert_allclose(np.fmax(y_fit, y_nofit), est.breakdown_s["kv_cache"] * 1e3, rtol=1e-12)
    assert list(fig.layout.xaxis.ticktext or fig.data[0].x)[-1] == "1M"


def test_heatmap_values_and_fit_mask():
    b, c = bd.heatmap_axes(1 << 20, 4096)
    est = _est(batch=b[:, None], context_tokens=c[None, :])
    assert not est.fits.all() and est.fits.any()
    fig = bd.heatmap(est, "tpot", current_batch=32, current_context=4096)
    heat = fig.data[0]
    assert heat.type == "heatmap"
    np.testing.assert_allclose(decode(heat.z).reshape(b.size, c.size), np.log10(est.tpot_s * 1e3), rtol=1e-12)
    assert len(heat.x) == c.size + 1 and len(heat.y) == b.size + 1  # cell edges on log axes
    veil = fig.data[1]
    assert veil.type == "heatmap" and veil.hoverinfo == "skip"
    assert np.array_equal(np.isnan(decode(veil.z).reshape(b.size, c.size)), est.fits)
    assert [t for t in fig.data if t.type == "contour"]
    star = _trace(fig, EN("breakdown_current_scenario"))
    assert list(star.x) == [4096] and list(star.y) == [32]
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    assert fig.layout.xaxis.title.text == EN("axis_context") and fig.layout.yaxis.title.text == EN("axis_batch")
    assert len(bd.heatmap_data(est)) == b.size * c.size


def test_heatmap_metrics():
    b, c = np.array([1.0, 64.0, 4096.0]), np.array([128.0, 8192.0, 1048576.0])
    est = _est(batch=b[:, None], context_tokens=c[None, :])
    tps = bd.heatmap(est, "tokens_per_s_per_gpu", current_batch=1, current_context=128)
    np.testing.assert_allclose(decode(tps.data[0].z).reshape(3, 3), np.log10(est.tokens_per_s_per_gpu), rtol=1e-12)
    cost = bd.heatmap(est, "usd_per_1M_tokens", current_batch=1, current_context=128)
    np.testing.assert_allclose(decode(cost.data[0].z).reshape(3, 3), np.log10(est.usd_per_1M_tokens), rtol=1e-12)
    fits = bd.heatmap(est, "fits", current_batch=1, current_context=0)
    assert set(np.unique(decode(fits.data[0].z))) <= {0.0, 1.0}
    assert list(_trace(fits, EN("breakdown_current_scenario")).x) == [bd.HEAT_CONTEXT_MIN]  # context 0 at the edge
    with pytest.raises(ValueError, match="unknown heat-map metric"):
        bd.heatmap(est, "nonsense", current_batch=1, current_context=128)
    assert bd.price_known(est) and not bd.price_known(_est(hw=TOY_GPU_NO_PRICE))
    assert bd.cost_notice(est) is None
    # the pages' notice (fmt.no_price_text): no basis prices the toy chip
    assert bd.cost_notice(_est(hw=TOY_GPU_NO_PRICE)) == (
        "The cost map needs a price. Toy GPU without a price has no published price in any basis: the figures that "
        "need its $/GPU-hour (the cost per 1M tokens and those built on it) are not shown. Enter your own $/GPU-hour in the sidebar."
    )
    assert "$0" in bd.cost_notice(_est(price_usd_per_gpu_hour=0.0))


def test_decomposition_table_sums_to_tpot():
    est, ideal = _est(), _est(profile=IDEAL)
    table = bd.decomposition_table(est, ideal)
    ms = table[EN("breakdown_col_ms")]
    assert len(table) == len(BUCKETS) + 1
    assert ms.iloc[-1] == pytest.approx(float(est.tpot_s) * 1e3, abs=1e-3)
    assert ms.iloc[:-1].sum() == pytest.approx(ms.iloc[-1], abs=1e-2)
    assert table[EN("breakdown_col_pct")].iloc[:-1].sum() == pytest.approx(100, abs=0.5)
    assert EN("breakdown_col_ideal_ms") in table.columns
    assert EN("breakdown_col_ideal_ms") not in bd.decomposition_table(est, None).columns
    assert "%" in bd.largest_part(est)


def test_breakdown_in_chinese():
    x = bd.batch_sweep(4)
    fig = bd.sweep_bars(_est(batch=x), None, x, axis="batch", current=4, tr=ZH)
    assert fig.layout.title.text == ZH("breakdown_batch_title", context="512")
    assert ZH("bucket_weights") in [t.name for t in fig.data]
    assert not math.isnan(float(fig.data[0].y[0]))


def test_note_when_the_kv_cache_dominates():
    est = _est(batch=256, context_tokens=1 << 16)  # 64K tokens x 256 B per token per sequence >> 170 KB of weights
    note = rf.intensity_note(est)
    assert "KV cache" in note and "*not* free" in note


def test_roofline_title_says_per_gpu_once():
    """GB200's catalog name carries '(per B200 GPU, NVL72, 1200 W)': the title read '... 1200 W) (per GPU)'."""
    from tpot_model import load_hardware_catalog
    from ui import fmt

    gb200 = load_hardware_catalog()["gb200"]
    assert "(per " in gb200.name and fmt.chip_plain(gb200) == "NVIDIA GB200"
    assert EN("roofline_chart_title", hw=fmt.chip_plain(gb200)) == "Roofline of NVIDIA GB200 (per GPU)"


def test_roofline_legend_sits_clear_of_the_x_axis_title():
    """At a fraction of the plot under it the legend's first row covered the x axis's title in a 900 px page with the
    sidebar open, and its widest entries were cut at the figure's edge (browser reviews): it is pinned under the
    title (legend_placement), each entry on lines no wider than the narrowest frame's plot; the figure keeps its
    640 px so that a 900 x 700 wiki frame holds it."""
    from ui.figures.common import LEGEND_CHAR_PX, LEGEND_SYMBOL_PX, NARROW_PLOT_PX

    fig = rf.roofline(_est())
    names = [t.name for t in fig.data if t.name and t.showlegend is not False]
    assert legend_below(fig.layout.legend) and fig.layout.xaxis.title.text
    assert fig.layout.height == 640  # a 900 x 700 wiki frame holds it (the browser test), the legend's rows inside
    assert any("<br>" in n for n in names)  # the attainable roof's entry, 83 characters on one line
    px = [fmt.text_px(line, LEGEND_CHAR_PX) + LEGEND_SYMBOL_PX for n in names for line in n.split("<br>")]
    assert max(px) <= NARROW_PLOT_PX


def test_breakdown_bars_keep_labels_and_legend_clear():
    """900 px review: the legend (eight keys) sat over the chart's title and each total's label was crossed by its
    band's whisker. The legend is in rows under the plot and its axis title (legend_placement), each total's label
    sits at the top of its whisker, and the band's key is short (its basis in its hover)."""

    x = bd.batch_sweep(8)
    est = _est(batch=x)
    fig = bd.sweep_bars(est, _est(batch=x, profile=IDEAL), x, axis="batch", current=8)
    legend, margin = fig.layout.legend, fig.layout.margin
    assert legend_below(legend) and margin.t == 100 and fig.layout.height > 460
    (labels,) = [t for t in fig.data if t.type == "scatter" and t.mode == "text"]
    np.testing.assert_allclose(labels.y, np.fmax(est.tpot_high_s, est.tpot_s) * 1e3)
    assert [float(v.replace(",", "")) for v in labels.text] == pytest.approx(est.tpot_s * 1e3, rel=0.01)
    assert max(len(t.name) for t in fig.data if t.name and t.showlegend is not False) <= 30


def test_an_attainable_roof_says_which_of_its_rates_were_measured():
    """A review: H100 SXM's roof read 'family prior, not measured' beside its measured 84 % bandwidth (only its FP8
    FLOP/s is a prior). Each source is said where they differ; one where they agree."""
    from tpot_model import load_hardware_catalog
    from ui import explain

    hw = load_hardware_catalog()
    assert explain.attainable_basis(hw["h100-sxm"], ("bandwidth", "fp8"), EN, short=True) == EN(
        "roofline_attainable_bw_measured_short"
    )
    assert explain.attainable_basis(hw["h100-sxm"], ("bandwidth", "fp8"), EN) == EN(
        "roofline_attainable_each", bw=EN("roofline_attainable_measured"), flops=EN("roofline_attainable_prior")
    )
    assert explain.attainable_basis(hw["mi300x"], ("bandwidth", "fp8"), EN, short=True) == EN(
        "roofline_attainable_measured_short"
    )
    assert explain.attainable_basis(hw["h200"], ("bandwidth", "fp8"), EN, short=True) == EN(
        "roofline_attainable_prior_short"
    )


def test_a_step_between_the_two_ridges_is_judged_by_the_achievable_one():
    """Llama-3.1-70B FP8 on 8 x H200, batch 300, 128-token context: 373 FLOP/byte, below the peak ridge (1,979 /
    4.8 = 412) but above the ridge at the Typical profile's rates (0.54 x 1,979 / (0.72 x 4.8) = 309): the step is
    compute-bound, and the Roofline note, Methodology's verdict line and its misreading say so against the ridge
    that decides it ('at 0.90x of the ridge and compute-bound' and 'I < I* -> compute-bound' had read as
    contradictions: a review). Under the ideal profile both ridges are one."""
    from tpot_model import resolve_hardware, resolve_model, resolve_profile
    from ui.figures import methodology as meth
    from ui.i18n import EN

    m, hw = resolve_model("llama-3.1-70b"), resolve_hardware("h200")
    s = Scenario(batch=300, context_tokens=128, num_gpus=8, weights="fp8")
    est = estimate(m, hw, s, resolve_profile("typical"))
    ai = float(est.arithmetic_intensity_flop_per_byte)
    eff = est.effective_ridge_flop_per_byte
    assert est.ridge_point_flop_per_byte == pytest.approx(1978.9e12 / 4.8e12, rel=1e-3)
    assert eff == pytest.approx(est.ridge_point_flop_per_byte * 0.54 / 0.72, rel=0.02)
    assert eff < ai < est.ridge_point_flop_per_byte and bool(est.compute_bound)
    note = rf.intensity_note(est)
    assert note.startswith(EN("roofline_note_compute_effective", ai=fmt.number(ai), hw=hw.name, precision="fp8",
                              ridge=fmt.number(est.ridge_point_flop_per_byte), eff=fmt.number(eff),
                              ratio=f"{fmt.number(ai / eff, 2)}×", flops_pct="54%", bw_pct="72%"))  # fmt: skip
    # the chart's memory / compute split where the verdict is decided: the star's 373 on the compute-bound side
    (split,) = [s for s in rf.roofline(est).layout.shapes if s.type == "line" and s.yref == "y domain"]
    assert split.x0 == pytest.approx(eff) and split.x0 < ai
    lines = [t for _, t in meth.intensity_blocks(est, EN)]
    assert lines[-1] == EN("meth_bound_verdict_eff", rel="≥", bound=EN("bound_compute"))
    ideal = estimate(m, hw, s, IDEAL)
    assert ideal.effective_ridge_flop_per_byte == pytest.approx(ideal.ridge_point_flop_per_byte)
    assert [t for _, t in meth.intensity_blocks(ideal, EN)][-1] == EN("meth_bound_verdict", rel="<",
                                                                      bound=EN("bound_memory"))  # fmt: skip


def test_the_ridge_label_stands_clear_of_the_roofs_own_label():
    """A browser review at 900 px: the ridge label's leader line (up and to the left of the roof's corner) struck
    through the roof's 'fp8 / int8 1,979 TFLOP/s (used)' label, which reaches left past the corner in a ~340 px plot.
    The ridge label has no leader line, ends at the corner and sits a line above the roof's label."""
    fig = rf.roofline(_est())
    est = _est()
    ridge_text = EN("roofline_ridge", ridge=fmt.number(est.ridge_point_flop_per_byte))
    (ridge,) = [a for a in fig.layout.annotations if a.text == ridge_text]
    (roof,) = [a for a in fig.layout.annotations if a.text.endswith(" (used)")]
    assert ridge.showarrow is False and ridge.xanchor == "right" and ridge.yanchor == "bottom"
    assert ridge.y == pytest.approx(roof.y) and ridge.yshift >= 16 and not roof.yshift  # stacked: a line apart
    assert ridge.x == pytest.approx(math.log10(est.ridge_point_flop_per_byte))  # ends at the corner


def _h200_70b(weights="fp8", profile="typical", **scenario):
    """The default scenario: Llama 3.1 70B on 2 x H200, batch 32, 4K context, 1K output, bf16 KV cache."""
    from tpot_model import resolve_hardware, resolve_model, resolve_profile

    values = dict(batch=32, context_tokens=4096, output_tokens=1024, num_gpus=2, weights=weights, kv_cache="bf16")
    p = IDEAL if profile == "ideal" else resolve_profile(profile)
    return estimate(resolve_model("llama-3.1-70b"), resolve_hardware("h200"), Scenario(**values | scenario), p)


def test_the_used_roofs_label_is_off_the_ridge_points_circle():
    """A browser review at 900 px: 'fp8 / int8 1,979 TFLOP/s (used)', right-aligned at the end of H200's ceiling,
    reached left over the ridge point's circle (~168 px of label, ~135 px of ceiling right of the corner in a ~350 px
    plot). Where it would, it sits left of the corner under the ridge label, its right edge clear of the circle; where
    the ceiling has room for it (Apple's low ridge), it stays at the ceiling's end."""
    est = _h200_70b()
    ridge = est.ridge_point_flop_per_byte
    assert ridge == pytest.approx(1978.9e12 / 4.8e12, rel=1e-3)  # 412 FLOP/byte
    fig = rf.roofline(est)
    used = EN("roofline_ceiling_used", precision="fp8 / int8", peak=fmt.tflops(1978.9e12))
    (roof,) = [a for a in fig.layout.annotations if a.text == used]
    (label,) = [a for a in fig.layout.annotations if a.text == EN("roofline_ridge", ridge=fmt.number(ridge))]
    (circle,) = [t for t in fig.data if t.marker and t.marker.symbol == "circle-open"]
    assert roof.x == pytest.approx(math.log10(ridge)) and roof.xanchor == "right"  # ends at the corner...
    assert -roof.xshift >= circle.marker.size / 2 + circle.marker.line.width  # ...beyond the circle's 8.5 px radius
    assert roof.y == pytest.approx(math.log10(1978.9)) and roof.yanchor == "bottom" and not roof.yshift
    assert label.xshift == roof.xshift and label.yshift >= 16  # the ridge label a line above it, right-aligned
    # the choice, in the narrowest plot (NARROW_PLOT_PX): 6 decades (0.1 to 1e5), 2.38 of them right of the corner
    lo, hi = 10 ** fig.layout.xaxis.range[0], 10 ** fig.layout.xaxis.range[1]
    assert (lo, hi) == pytest.approx((0.1, 1e5))
    right = rf.NARROW_PLOT_PX * math.log10(hi / ridge) / 6
    assert right == pytest.approx(147, abs=1) and fmt.text_px(used, rf.USED_LABEL_CHAR_PX) > right
    assert rf.used_label_side(used, ridge, lo, hi) == "corner"
    # a ridge far left of the ceiling's end: at the end, as the other precisions' labels
    assert rf.used_label_side(used, 30.0, 0.1, 1e4) == "end"
    from tpot_model import resolve_hardware, resolve_model, resolve_profile

    apple = estimate(resolve_model("llama-3.1-70b"), resolve_hardware("m4-max"), _h200_70b().scenario,
                     resolve_profile("typical"))  # fmt: skip
    assert apple.ridge_point_flop_per_byte < 40  # fp16: 3.47 of the 6 decades right of the corner, 214 px
    (end,) = [a for a in rf.roofline(apple).layout.annotations if a.text.endswith(" (used)")]
    assert end.x == pytest.approx(5.0) and not end.xshift  # right-aligned at the ceiling's end


def test_the_operator_table_names_its_kv_basis_in_hand_worked_numbers():
    """A browser review: the table's 'KV cache (MB)' read 24,200 MB per GPU under 'batch 32, 4K tokens of context',
    where the KV cache page says 21.5 GB ('Batch of 32 at 4K') and Overview 26.84 GB (peak). All three are right:
    Llama 3.1 70B keeps 80 layers x 8 KV heads x 128 x 2 (K, V) x 2 bytes (bf16) = 327,680 bytes a token, 163,840
    on each of 2 GPUs (4 KV heads each); a batch of 32 holds 32 x 4,096 x 163,840 = 21.47 GB at the context, 32 x
    5,120 x 163,840 = 26.84 GB at the end of the output, and the mean decode step reads 32 x 4,608 x 163,840 (its
    mean cache: 4,096 + (1,023 steps + 1) / 2) + 32 x 163,840 written = 24.16 GB. The column says 'read' and the
    caption under the table names each, in decimal GB."""
    est = _h200_70b()
    per_token_per_gpu = 80 * 8 * 128 * 2 * 2 / 2
    assert per_token_per_gpu == 163_840
    read = 32 * (4096 + 512 + 1) * per_token_per_gpu
    assert read == 24_164_433_920
    attention = next(o for o in est.decode.operators if o.name == "attention")
    assert float(attention.kv_bytes) == pytest.approx(read, rel=1e-12)
    assert sum(float(o.kv_bytes) for o in est.decode.operators) == pytest.approx(read, rel=1e-12)
    assert float(est.kv_cache_peak_bytes_per_gpu) == pytest.approx(32 * 5120 * per_token_per_gpu)  # 26.84 GB
    table = rf.operator_table(est)
    assert EN("roofline_col_kv_mb") == "KV cache read (MB)"
    row = table[table[EN("roofline_col_operator")] == rf.operator_label("attention")]
    assert row[EN("roofline_col_kv_mb")].item() == 24_200  # 24,164 MB to 3 significant figures
    note = rf.kv_basis_note(est)
    basis = EN("roofline_table_kv_basis", output_tokens="1K output tokens", mean="4,608", context="4,096",
               grown="512", read="24.2 GB", at_context="21.5 GB", peak="26.8 GB")  # fmt: skip
    assert note == f"{basis} MB and GB are decimal: 10⁶ and 10⁹ bytes."  # the table in MB, the note in GB
    zh = rf.kv_basis_note(est, ZH)
    assert "4,608 Token" in zh and "24.2 GB" in zh and "21.5 GB" in zh and "26.8 GB" in zh
    assert zh.endswith("。MB 與 GB 為十進位：10⁶ 與 10⁹ 位元組。")
    # a chip's device word; one output token: no growth to average over (a single step at the context + 1)
    tpu = rf.kv_basis_note(_h200_70b(output_tokens=1), fmt.device_tr(_chip("tpu7x"), EN))
    assert "one chip's share" in tpu and "1 output token," in tpu and "4,097 tokens (4,096 + 1)" in tpu


def test_the_operator_table_reads_large_columns_in_the_larger_unit():
    """Batch 1,024 at 128K tokens of context (Llama 3.1 70B, 2 GPUs) read 'KV cache read (MB)' 11,000,000 and
    'Time (µs)' in millions, past a 900 px frame: a column whose numbers reach 100,000 reads in the unit 1,000x
    larger. By hand: 1,024 x (131,072 + 512 + 1) x 163,840 bytes a token per GPU = 22,077 GB of KV cache read; the
    three byte columns share the unit (weights 70 GB in all at fp8 on 2 GPUs: GB too), a small scenario keeps MB; the
    CSV keeps its units."""
    big = rf.operator_table(_h200_70b(batch=1024, context_tokens=131_072), fitted=True)
    assert EN("roofline_col_kv_gb") in big.columns and EN("roofline_col_kv_mb") not in big.columns
    assert EN("roofline_col_weights_gb") in big.columns and EN("roofline_col_act_gb") in big.columns
    attention = big[big[EN("roofline_col_operator")] == rf.operator_label("attention")]
    assert attention[EN("roofline_col_kv_gb")].item() == float(f"{1024 * (131_072 + 513) * 163_840 / 1e9:.3g}")
    assert EN("roofline_col_time_ms") in big.columns and big[EN("roofline_col_time_ms")].max() < 1e5
    assert EN("roofline_col_tflop") in big.columns  # the attention's 2 x 1,024 x 131,585 x 8,192 x 2 ... FLOP per GPU
    small = rf.operator_table(_h200_70b())
    small_units = ("gflop", "weights_mb", "kv_mb", "act_mb", "time_us")
    assert {EN(f"roofline_col_{c}") for c in small_units} <= set(small.columns)
    assert (
        ZH("roofline_col_kv_gb")
        in rf.operator_table(_h200_70b(batch=1024, context_tokens=131_072), ZH, fitted=True).columns
    )
    # the CSV's table keeps GFLOP, MB and µs whatever the scenario: exports of two scenarios line up (a review)
    csv = rf.operator_table(_h200_70b(batch=1024, context_tokens=131_072))
    assert list(csv.columns) == list(small.columns)
    # the caption under the page's table names the decimal units in sight: no MB where the table is in GB (it had
    # said 'MB and GB are decimal' whatever the table used)
    est = _h200_70b(batch=1024, context_tokens=131_072)
    assert rf.byte_unit(est, fitted=True) == ("gb", 1e9) and rf.byte_unit(est, fitted=False) == ("mb", 1e6)
    en, zh = rf.kv_basis_note(est), rf.kv_basis_note(est, ZH)
    assert en.endswith(" GB are decimal: 10⁹ bytes.") and "MB" not in en and "10⁶" not in en
    assert zh.endswith("。GB 為十進位：10⁹ 位元組。") and "MB" not in zh and "10⁶" not in zh
    assert rf.byte_unit(_h200_70b(), fitted=True) == ("mb", 1e6)


def _chip(hid):
    from tpot_model import resolve_hardware

    return resolve_hardware(hid)


def test_the_operator_table_shows_its_numbers_grouped_and_right_aligned_without_a_bound_column():
    """At 900 px the operator table (a scrolled grid) hid its activations, intensity, time and bound columns: it is a
    static table of seven columns (the same numbers, kept as numbers so they sit right-aligned, shown with
    thousands grouped: 24,200, not 24200) and each operator's bound is said under it."""
    est = _h200_70b()
    styler = rf.operator_display(est)
    assert list(styler.data.columns) == [
        EN(f"roofline_col_{c}") for c in ("operator", "gflop", "weights_mb", "kv_mb", "act_mb", "intensity", "time_us")
    ]
    assert all(styler.data[c].dtype.kind == "f" for c in styler.data.columns[1:])  # right-aligned in st.table
    html = styler.to_html()
    for shown in (">24,200<", ">28,200<", ">1,800<", ">8,240<", ">0.131<", ">33.6<", ">7.98<"):
        assert shown in html, shown
    assert "24200" not in html
    assert rf.bound_note(est) == EN("roofline_table_bound_memory")
    big = _h200_70b(batch=512, context_tokens=128, output_tokens=64, num_gpus=8)  # weight matmuls past the ridge
    compute = [o.name for o in big.decode.operators if bool(o.compute_bound)]
    assert "mlp" in compute and "attention" not in compute
    assert rf.bound_note(big) == EN("roofline_table_bound_some", ops=EN.join([rf.operator_label(n) for n in compute]))


def test_the_achievable_roof_says_what_the_kv_cache_and_unpacked_weights_are_read_at():
    """A browser review: with INT4 weights the dashed roof read '72% of bandwidth' where Overview reads the weights at
    2.76 TB/s. The model reads three kinds of byte at three rates (rates_for): activations at the profile's share of
    what the chip reaches, 4.8 TB/s x 0.9 (NVIDIA prior) x 0.8 (typical) = 3.456 TB/s, the dashed slope; the KV cache
    x 0.85 = 2.9376 TB/s (61%); weights unpacked to 16-bit math (int4 on H200: bf16) x 0.8 = 2.7648 TB/s (58%).
    The legend, the hover, the note under the chart and the CSV say so; native fp8 weights move at the slope."""
    fp8, int4 = _h200_70b(), _h200_70b(weights="int4")
    assert fp8.rates.memory_bytes_per_s == pytest.approx(3.456e12)
    assert rf.slower_reads(fp8) == pytest.approx({"kv": 2.9376e12})
    assert rf.slower_reads(int4) == pytest.approx({"weights": 2.7648e12, "kv": 2.9376e12})
    assert rf.slower_reads(_h200_70b(weights="int4", profile="ideal")) == {}
    # the weight matmuls' points sit on the slower rate: the MLP's time is its weights at 2.7648 TB/s + activations
    mlp = next(o for o in int4.decode.operators if o.name == "mlp")
    assert float(mlp.time_s) == pytest.approx(
        float(mlp.weight_bytes) / 2.7648e12 + float(mlp.activation_bytes) / 3.456e12, rel=1e-9
    )
    for est, reads, rates in ((fp8, "KV cache 61%", ["2.94 TB/s"]),
                              (int4, "int4 weights 58%, KV cache 61%", ["2.76 TB/s", "2.94 TB/s"])):  # fmt: skip
        fig = rf.roofline(est, profile_name="Typical serving engine")
        label = EN("roofline_achievable_reads", profile="Typical serving engine", bw_pct="72%",
                   flops_pct="54%", reads=reads)  # fmt: skip
        roof = _trace(fig, label)
        x, y = _xy(roof)
        assert y[0] * 1e12 / x[0] == pytest.approx(3.456e12)  # the slope stays the activations' rate
        assert all(r in roof.hovertemplate for r in rates)
        note = rf.intensity_note(est, EN, "Typical serving engine")
        assert EN("roofline_note_reads", bw="3.46 TB/s", reads="\0").split("\0")[0] in note
        assert all(r in note for r in rates)
    assert "× 0.8 for unpacking" in rf.intensity_note(int4) and "unpacking" not in rf.intensity_note(fp8)
    assert "解包" in rf.intensity_note(int4, ZH) and "2.76 TB/s" in rf.intensity_note(int4, ZH)
    data = rf.roofline_data(int4)
    (row,) = data[data["kind"] == "roof_achievable"].to_dict("records")
    assert row["bandwidth_tb_per_s"] == pytest.approx(3.456) and row["weight_read_tb_per_s"] == pytest.approx(2.7648)
    assert row["kv_read_tb_per_s"] == pytest.approx(2.9376)
    # the ideal bound: no achievable roof, no note
    ideal = _h200_70b(weights="int4", profile="ideal")
    assert "dashed roof's slope" not in rf.intensity_note(ideal)


def test_a_bar_far_taller_than_those_that_fit_is_cut_at_the_axis_top():
    """A browser review: Llama 3.1 70B FP8 on 2 x H200 (4K + 1K) against batch: batch 1,024, which does not fit,
    reads 344 ms and set a linear axis in which the bars that fit (13.5-31.1 ms) took 5 % of the height. Such a bar is
    cut at the axis's top (1.6 x the tallest label of a bar that fits), its label there with an arrow; its value
    stays in the hover and the CSV."""
    from tpot_model import load_hardware_catalog, load_model_catalog, resolve_profile

    m, h = load_model_catalog()["llama-3.1-70b"], load_hardware_catalog()["h200"]
    b = np.array([1, 8, 32, 64, 128, 1024.0])
    s = Scenario(batch=b, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8")
    e, ideal = estimate(m, h, s, resolve_profile("typical")), estimate(m, h, s, IDEAL)
    fits, tpot = np.asarray(e.fits), np.asarray(e.tpot_s) * 1e3
    assert fits[:4].all() and not fits[4:].any() and tpot[-1] > 300 > 40 > tpot[3]
    fig = bd.sweep_bars(e, ideal, b, axis="batch", current=32)
    (labels,) = [d for d in fig.data if getattr(d, "mode", None) == "text"]
    fit_top = max(
        float(np.fmax(np.asarray(e.tpot_high_s) * 1e3, tpot)[fits].max()), float(ideal.tpot_s[fits].max() * 1e3)
    )
    cap = 1.6 * fit_top
    assert fig.layout.yaxis.range[1] == pytest.approx(cap * 1.25)
    # the cut bar's total over the plot's frame, the arrow under it (browser review: see the next test)
    (over_frame,) = [a for a in fig.layout.annotations if a.yref == "y domain"]
    assert over_frame.text == f"{fmt.number(tpot[-1])}<br>↑" and over_frame.x == len(b) - 1
    assert labels.text[-1] == "" and math.isnan(labels.y[-1])
    assert labels.text[3] == fmt.number(tpot[3])  # a bar under the cut keeps its plain label
    whisker = np.fmax(np.asarray(e.tpot_high_s) * 1e3, tpot)
    assert labels.text[4] == fmt.number(tpot[4]) and labels.y[4] == pytest.approx(whisker[4])  # not cut: over it
    # a sweep whose bars all fit keeps its whole range: up to its tallest label
    s4 = Scenario(batch=b[:4], context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8")
    e4 = estimate(m, h, s4, resolve_profile("typical"))
    whole = bd.sweep_bars(e4, estimate(m, h, s4, IDEAL), b[:4], axis="batch", current=32)
    top4 = float(np.fmax(np.asarray(e4.tpot_high_s), np.asarray(e4.tpot_s)).max()) * 1e3
    assert whole.layout.yaxis.range[1] == pytest.approx(top4 * 1.25)
    assert not any("↑" in t for d in whole.data if getattr(d, "mode", None) == "text" for t in d.text)
    assert not [a for a in whole.layout.annotations if "↑" in a.text]


def _default_batch_bars(tr=EN, **scenario):
    """The Breakdown page's batch chart for its default scenario (Llama 3.1 70B fp8 on 2 x H200, 4K + 1K, batch 32),
    `scenario` changing it."""
    from tpot_model import resolve_hardware, resolve_model, resolve_profile

    kw = {"model": "llama-3.1-70b", "hardware": "h200", "num_gpus": 2, "weights": "fp8", "context_tokens": 4096,
          "batch": 32} | scenario  # fmt: skip
    m, h, current = resolve_model(kw.pop("model")), resolve_hardware(kw.pop("hardware")), kw.pop("batch")
    x = bd.batch_sweep(current)
    s = Scenario(batch=x, output_tokens=1024, **kw)
    e, ideal = estimate(m, h, s, resolve_profile("typical")), estimate(m, h, s, IDEAL)
    return bd.sweep_bars(e, ideal, x, axis="batch", current=current, tr=tr), e, x


def test_cut_bars_totals_stand_over_the_frame_apart_and_clear_of_the_ideal_line():
    """Browser review at 900 px (sidebar open, ~31 px a bar): the three cut bars' labels ran together
    ('↑ 88.9↑ 174↑ 344') over the bars, where the ideal bound's line, rising past the cut, crossed '88.9'. Each cut
    total stands over the plot's frame (where Plotly clips every trace, the ideal line's too), its number over an
    arrow on lines of their own, each narrower than a bar's step in the narrowest frame with room between
    neighbours; where two side by side would still meet (thousands of ms), every other one is a line higher."""
    from ui.figures.common import NARROW_PLOT_PX

    fig, e, x = _default_batch_bars()
    tpot = np.asarray(e.tpot_s) * 1e3
    step = NARROW_PLOT_PX / len(x)
    cut = [a for a in fig.layout.annotations if "↑" in a.text]
    assert [fmt.number(v) for v in tpot[-3:]] == ["88.9", "174", "344"]  # the review's three
    assert [a.x for a in cut] == [len(x) - 3, len(x) - 2, len(x) - 1]
    for a in cut:
        assert (a.xref, a.yref, a.y, a.yanchor) == ("x", "y domain", 1, "bottom")  # over the frame
        number, arrow = a.text.split("<br>")
        assert arrow == "↑" and fmt.text_px(number, bd.CUT_CHAR_PX) + bd.CUT_GAP_PX <= step
    ideal_line = next(t for t in fig.data if t.name == EN("label_ideal"))
    assert ideal_line.cliponaxis is not False and max(ideal_line.y) > fig.layout.yaxis.range[1]  # clipped at it
    labels = next(t for t in fig.data if getattr(t, "mode", None) == "text")
    assert all(t == "" for t in labels.text[-3:])  # nothing of theirs left inside the plot
    # thousands of ms side by side (Llama 3.1 405B, 128K context, 8 x H100): every other one a line higher
    fig, e, x = _default_batch_bars(model="llama-3.1-405b", hardware="h100-sxm", num_gpus=8, context_tokens=131072,
                                    batch=12)  # fmt: skip
    step = NARROW_PLOT_PX / len(x)
    cut = {a.x: (a.text.split("<br>")[0], a.text.count("<br>")) for a in fig.layout.annotations if "↑" in a.text}
    assert "2,364" in [n for n, _ in cut.values()] and any(level == 2 for _, level in cut.values())
    for i in (i for i in cut if i - 1 in cut):
        (left, left_level), (right, right_level) = cut[i - 1], cut[i]
        side_by_side = (fmt.text_px(left, bd.CUT_CHAR_PX) + fmt.text_px(right, bd.CUT_CHAR_PX)) / 2 + bd.CUT_GAP_PX
        assert left_level != right_level or side_by_side <= step, (left, right)


@pytest.mark.parametrize("tr", [EN, ZH])
def test_the_current_bar_is_named_under_its_tick_not_over_the_totals(tr):
    """Browser review at 900 px: '▼ current', over the current bar, ran into its neighbour's total ('29.7' on the
    context chart; '▼ 目前情境' touched '31.1'). It is said under the bar's tick, on a line of its own, where no total
    is; the ticks stay level (the word, wider than a bar, would have turned them all)."""
    fig, _, x = _default_batch_bars(tr)
    assert not [a for a in fig.layout.annotations if tr("breakdown_current") in a.text]
    xaxis = fig.layout.xaxis
    assert list(xaxis.tickvals) == [f"{int(v):,}" for v in x] and xaxis.tickangle == 0
    i = list(x).index(32)
    assert xaxis.ticktext[i] == f"32<br>▲ {tr('breakdown_current')}"
    assert all("<br>" not in t for j, t in enumerate(xaxis.ticktext) if j != i)
