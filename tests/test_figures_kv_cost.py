"""KV-cache and cost & energy figures as data (no Streamlit): traces, axis titles with units, plotted values equal to
the model's output times the display scale. Built on the tiny in-code models and the toy GPU (tests/model_fixtures)."""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from decimal import Decimal

import numpy as np
import pytest
from model_fixtures import (
    TINY_ALL_WINDOW,
    TINY_CHUNKED,
    TINY_DENSE,
    TINY_DSA,
    TINY_HD,
    TINY_HYBRID,
    TINY_MLA,
    TINY_MLA_LORA,
    TINY_MLA_ROPE,
    TINY_WINDOW,
    TINY_WINDOW_W,
    TOY_GPU,
    TOY_GPU_NO_PRICE,
    TOY_PRICE,
    TOY_TDP,
    legend_below,
)

from tests.apptest_util import decode
from tpot_model import IDEAL, Scenario, estimate, kv_cache_bytes_per_sequence
from tpot_model.targets import TPOT_TARGETS_S
from ui import fmt
from ui.figures import cost as cf
from ui.figures import kv_cache as kf
from ui.figures.common import power_of_two_axis
from ui.i18n import EN, Translator

ZH = Translator("zh-TW")
BF16 = 2.0


def _est(model=TINY_DENSE, hw=TOY_GPU, **scenario):
    values = dict(batch=4, context_tokens=512, output_tokens=64, num_gpus=1, weights="bf16", kv_cache="bf16")
    values.update(scenario)
    return estimate(model, hw, Scenario(**values), IDEAL)


def _trace(fig, name):
    matches = [t for t in fig.data if t.name == name]
    assert matches, f"no trace {name!r} in {[t.name for t in fig.data]}"
    return matches[0]


def _y(trace):
    return decode(trace.y).astype(float)


def _x(trace):
    return decode(trace.x).astype(float)


# --------------------------------------------------------------------------------------------------- KV: data


def test_attention_variants_gqa_by_hand():
    # tiny dense: H=4, K=2, h=16, 2 layers; bf16 -> 2*K*h*2 B per layer
    v = kf.attention_variants(TINY_DENSE, BF16).set_index("variant")
    assert list(v.index) == ["stored", "mha", "mqa"]  # H=4 is too small for a GQA-8 what-if
    assert v.loc["stored", "kv_bytes_per_token_total"] == pytest.approx(2 * 2 * TINY_HD * BF16 * 2)
    assert v.loc["mha", "kv_bytes_per_token_total"] == pytest.approx(2 * 4 * TINY_HD * BF16 * 2)
    assert v.loc["mqa", "kv_bytes_per_token_total"] == pytest.approx(2 * 1 * TINY_HD * BF16 * 2)
    assert (v.kv_bytes_per_token_window_layers == 0).all()


def test_attention_variants_mla_has_naive_expansion():
    v = kf.attention_variants(TINY_MLA, BF16).set_index("variant")
    assert list(v.index) == ["stored", "mla_naive", "mha", "mqa"]
    assert v.loc["stored", "kv_bytes_per_token_per_layer"] == pytest.approx((TINY_MLA_LORA + TINY_MLA_ROPE) * BF16)
    # 4 heads x (nope 16 + rope 8 key, 16 value)
    assert v.loc["mla_naive", "kv_bytes_per_token_per_layer"] == pytest.approx(4 * (16 + 8 + 16) * BF16)
    assert v.loc["mha", "kv_bytes_per_token_per_layer"] == pytest.approx(2 * 4 * 24 * BF16)
    assert v.loc["stored", "kv_bytes_per_token_total"] < v.loc["mqa", "kv_bytes_per_token_total"] * 2


def test_attention_variants_split_window_layers():
    v = kf.attention_variants(TINY_WINDOW, BF16).set_index("variant")
    per_layer = 2 * 2 * TINY_HD * BF16
    assert v.loc["stored", "kv_bytes_per_token_full_layers"] == pytest.approx(per_layer)
    assert v.loc["stored", "kv_bytes_per_token_window_layers"] == pytest.approx(per_layer)


@pytest.mark.parametrize("model", [TINY_DENSE, TINY_WINDOW, TINY_ALL_WINDOW, TINY_HYBRID, TINY_MLA])
def test_composition_sums_to_the_model_cache(model):
    t = np.array([0, 1, 8, TINY_WINDOW_W, 17, 100, 10_000], dtype=float)
    parts = kf.composition_bytes(model, t, BF16)
    np.testing.assert_allclose(sum(parts.values()), kv_cache_bytes_per_sequence(model, t, BF16), rtol=1e-12)


def test_composition_window_is_flat_and_state_constant():
    t = np.array([1.0, TINY_WINDOW_W, 100.0, 1e5])
    window = kf.composition_bytes(TINY_WINDOW, t, BF16)["window"]
    assert window[1] == window[2] == window[3] and window[0] < window[1]
    state = kf.composition_bytes(TINY_HYBRID, t, BF16)["state"]
    assert np.all(state == state[0]) and state[0] > 0
    assert "window" not in kf.composition_bytes(TINY_HYBRID, t, BF16)


def test_kv_per_gpu_divides_by_kv_shards():
    t = np.array([128.0, 4096.0])
    per_seq = kv_cache_bytes_per_sequence(TINY_DENSE, t, BF16)
    got = kf.kv_per_gpu_bytes(TINY_DENSE, Scenario(num_gpus=4), t, [1, 8])  # K=2: splits 2 ways, not 4
    np.testing.assert_allclose(got, np.array([[1.0], [8.0]]) * per_seq / 2)
    mla = kf.kv_per_gpu_bytes(TINY_MLA, Scenario(num_gpus=4), t, [1])  # the latent is replicated
    np.testing.assert_allclose(mla[0], kv_cache_bytes_per_sequence(TINY_MLA, t, BF16))


def test_summary_and_room():
    est = _est(TINY_WINDOW, num_gpus=2, batch=3)
    k = kf.summary(est)
    per_layer = 2 * 2 * TINY_HD * BF16
    assert k.bytes_per_token == pytest.approx(2 * per_layer)
    assert k.growing_bytes_per_token == pytest.approx(per_layer)
    assert k.per_sequence_bytes == pytest.approx(float(kv_cache_bytes_per_sequence(TINY_WINDOW, 512, BF16)))
    assert k.batch_bytes == pytest.approx(3 * k.per_sequence_bytes)
    assert k.shards == 2 and k.batch_bytes_per_gpu == pytest.approx(k.batch_bytes / 2)
    room = est.usable_memory_per_gpu_bytes - est.weight_bytes / 2 - float(est.workspace_bytes_per_gpu)
    assert k.room_bytes == pytest.approx(room)
    assert k.max_batch == int(est.max_batch)


def test_context_grid_and_ticks():
    g = kf.context_grid(TINY_WINDOW, 3000, log_x=True)
    assert g[0] >= kf.MIN_LOG_CONTEXT and g[-1] == TINY_WINDOW.max_context_tokens
    assert 3000 in g and TINY_WINDOW_W not in g  # the window edge is below the log axis' left end
    lin = kf.context_grid(TINY_DENSE, 2_000_000, log_x=False)
    assert lin[0] == 0 and lin[-1] == 2_000_000
    axis = power_of_two_axis([64, 131072], tokens=True)
    vals, text = axis["tickvals"], axis["ticktext"]
    assert vals[-1] == 131072 and text[-1] == "128K" and all(v & (v - 1) == 0 for v in map(int, vals))


def test_attention_text_names_the_kind_in_both_languages():
    assert "GQA" in kf.attention_text(TINY_DENSE, BF16, 1)
    assert "MLA" in kf.attention_text(TINY_MLA, BF16, 8) and "replicated" in kf.attention_text(TINY_MLA, BF16, 8)
    assert str(TINY_WINDOW_W) in kf.attention_text(TINY_WINDOW, BF16, 1)
    assert "Gated DeltaNet" in kf.attention_text(TINY_HYBRID, BF16, 1)
    zh = kf.attention_text(TINY_WINDOW, BF16, 1, tr=ZH)
    assert "滑動視窗" in zh and "分組查詢注意力" in zh


def test_attention_text_names_sparse_and_chunked_attention():
    """DeepSeek-V3.2's sparse attention and Llama 4's chunked layers are named as such, not as a sliding window."""
    dsa = kf.attention_text(TINY_DSA, BF16, 8)
    assert "MLA" in dsa and "DSA" in dsa and "16 best" in dsa
    chunked = kf.attention_text(TINY_CHUNKED, BF16, 1)
    assert "chunked local attention" in chunked and "sliding window" not in chunked
    assert "稀疏注意力" in kf.attention_text(TINY_DSA, BF16, 8, tr=ZH)
    assert "分塊局部注意力" in kf.attention_text(TINY_CHUNKED, BF16, 1, tr=ZH)
    # the expander's formula includes the index key: (32 + 8 + 4) x 2 B x 2 layers = 176 B, what the metric shows
    assert kf.per_token_formula(TINY_DSA, BF16)[1] == "(32 + 8 + 4) × 2 B × 2"
    # the MHA / GQA / MQA comparison of a DSA model: stored 88 B per layer; MHA 2 x 4 heads x 24 x 2 B = 384 B
    v = kf.attention_variants(TINY_DSA, BF16).set_index("variant")
    assert v.loc["stored", "kv_bytes_per_token_per_layer"] == 88 and v.loc["mha", "kv_bytes_per_token_per_layer"] == 384


def test_kib_formatting():
    assert kf.kib(327_680) == "320 KiB"
    assert kf.kib(70_272) == "68.6 KiB"
    assert fmt.kib_and_bytes(2048) == "2 KiB (2,048 B)"


# --------------------------------------------------------------------------------------------------- KV: figures


def test_kv_vs_context_plots_model_bytes_in_gb():
    t = kf.context_grid(TINY_DENSE, 4096, log_x=True)
    batches = kf.line_batches(32)
    assert batches == [1, 8, 32, 128]
    kv = kf.kv_per_gpu_bytes(TINY_DENSE, Scenario(), t, batches)
    fig = kf.kv_vs_context(t, batches, kv, 5e9, 4096, 32)
    assert [tr.name for tr in fig.data[:4]] == ["batch 1", "batch 8", "batch 32 (scenario)", "batch 128"]
    for i, b in enumerate(batches):
        np.testing.assert_allclose(_y(fig.data[i]), b * kv_cache_bytes_per_sequence(TINY_DENSE, t, BF16) / 1e9)
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    assert fig.layout.yaxis.title.text == EN("kvc_axis_gb_per_gpu") and "(GB" in fig.layout.yaxis.title.text
    assert fig.layout.xaxis.title.text == EN("kvc_axis_cache_tokens")  # prompt + output so far: the star's end
    room = [s for s in fig.layout.shapes if s.type == "line"]
    assert room and room[0].y0 == pytest.approx(5.0)  # the room line, in GB
    star = _trace(fig, EN("kvc_scenario"))
    assert _x(star)[0] == 4096 and _y(star)[0] == pytest.approx(kv[2, list(t).index(4096)] / 1e9)
    table = kf.kv_vs_context_table(t, batches, kv)
    assert list(table.columns) == ["context_tokens", "batch", "kv_cache_gb_per_gpu"] and len(table) == 4 * len(t)


def test_kv_charts_keep_their_legends_and_notes_off_titles_ticks_and_plot_edges():
    """Browser review at 900 px: the cache chart's legend (five keys, in rows over the plot) covered its title; the
    room line's label, at the axis, met the tick labels ('3096.2 GB per GPU'); a scenario batch above every batch that
    fits had its line's label cut at the plot's top edge ('batch 4096'), and the legend hid it. Legends under both
    plots; the room note inset from the axis under its line; that label under its line when the line is on top."""
    t = kf.context_grid(TINY_DENSE, 4096, log_x=True)
    batches = kf.line_batches(32)
    kv = kf.kv_per_gpu_bytes(TINY_DENSE, Scenario(), t, batches)
    fig = kf.kv_vs_context(t, batches, kv, 5e9, 4096, 32)
    assert legend_below(fig.layout.legend)
    (note,) = [a for a in fig.layout.annotations if a.text == EN("kvc_room_line", gb="5.0")]
    assert (note.xref, note.yref, note.xanchor, note.yanchor) == ("x domain", "y", "left", "top")
    assert note.x == 0 and note.xshift >= 10  # inset from the axis by pixels, at any plot width
    assert note.y == pytest.approx(math.log10(5.0))  # on the room line (a log axis takes log10), under it
    mb = np.array([600.0, 300.0, 40.0, 3.0])
    contexts = np.array([128.0, 1024.0, 8192.0, 65536.0])
    for batch, on_top in ((32, False), (4096, True)):
        fig = kf.max_batch_vs_context(contexts, mb, 1024, batch)
        assert legend_below(fig.layout.legend)
        (line,) = [s for s in fig.layout.shapes if s.type == "line"]
        (label,) = [a for a in fig.layout.annotations if a.text == EN("kvc_batch_scenario", b=batch)]
        assert line.y0 == batch and label.y == pytest.approx(math.log10(batch))
        assert not on_top or label.yanchor == "top"  # over every batch that fits: under its line, inside the plot


def test_kv_vs_context_without_room_says_so():
    t = kf.context_grid(TINY_DENSE, 4096, log_x=False)
    kv = kf.kv_per_gpu_bytes(TINY_DENSE, Scenario(), t, [1])
    fig = kf.kv_vs_context(t, [1], kv, -1e9, 4096, 1, log_x=False)
    assert fig.layout.xaxis.type != "log"
    assert any(a.text == EN("kvc_no_room") for a in fig.layout.annotations)


def test_max_batch_curve_is_the_estimate_and_shades_where_none_fit():
    t = np.array([128.0, 1e4, 1e6, 1e8])
    sweep = estimate(TINY_DENSE, TOY_GPU, Scenario(batch=4, context_tokens=t, output_tokens=64), IDEAL)
    mb = sweep.max_batch
    assert mb[-1] == 0 and mb[0] >= 1  # 1e8 tokens of cache cannot fit in 10 GB
    fig = kf.max_batch_vs_context(t, mb, 1e4, 4)
    y = _y(_trace(fig, EN("kvc_max_batch_line")))
    np.testing.assert_array_equal(y[:-1], mb[:-1])
    assert math.isnan(y[-1])
    assert any(s.type == "rect" for s in fig.layout.shapes)
    assert fig.layout.yaxis.title.text == EN("kvc_axis_max_batch")
    # the span's note in a corner past the curve's end, on the far side from the batch line: at the line's side the
    # line's label had been drawn over it (browser re-reviews: 'batch 4096 (scenario)' under 'not even one sequence
    # fits' at the top; at batch 1 the two at the bottom)
    for batch in (1, 4, 4096, 10**7):
        shown = kf.max_batch_vs_context(t, mb, 1e4, batch)
        (none,) = [a for a in shown.layout.annotations if a.text == EN("kvc_none_fits")]
        (label,) = [a for a in shown.layout.annotations if a.text == EN("kvc_batch_scenario", b=batch)]
        line_high = _frac(shown, y=batch) > 0.5
        assert (none.x, none.y, none.yanchor) == ((0.99, 0.03, "bottom") if line_high else (0.99, 0.97, "top"))
        box = _label_box(shown, label)  # clear of the note and of the curve
        assert not _meets(box, _note_box(none)) and not _curve_meets(shown, box), batch


def _frac(fig, x=None, y=None) -> float:
    """A data point's place in the plot, as fractions of its axes (both log)."""
    axis, v = (fig.layout.xaxis, x) if x is not None else (fig.layout.yaxis, y)
    lo, hi = axis.range if axis.range else (math.log10(min(fig.data[0].x)), math.log10(max(fig.data[0].x)))
    return (math.log10(v) - lo) / (hi - lo)


def _label_box(fig, label) -> tuple[float, float, float, float]:
    """The batch line's label as (x0, x1, y0, y1) in the plot's fractions, at the narrowest frame's size."""
    width_px, height_px = kf.BATCH_PLOT_PX
    w = (kf.BATCH_LABEL_INSET_PX + fmt.text_px(label.text, kf.BATCH_LABEL_CHAR_PX)) / width_px
    h = kf.BATCH_LABEL_HEIGHT_PX / height_px
    y = (label.y - fig.layout.yaxis.range[0]) / (fig.layout.yaxis.range[1] - fig.layout.yaxis.range[0])
    x0 = label.x - (w if label.xanchor == "right" else 0.0)
    y0 = y - (h if label.yanchor == "top" else 0.0)
    return x0, x0 + w, y0, y0 + h


def _note_box(note) -> tuple[float, float, float, float]:
    """A right-anchored note as (x0, x1, y0, y1) in the plot's fractions, at the narrowest frame's size."""
    w, h = fmt.text_px(note.text, kf.NOTE_CHAR_PX) / kf.BATCH_PLOT_PX[0], kf.NOTE_HEIGHT_PX / kf.BATCH_PLOT_PX[1]
    y0 = note.y - (h if note.yanchor == "top" else 0.0)
    return note.x - w, note.x, y0, y0 + h


def _meets(a, b) -> bool:
    return not (a[1] < b[0] or a[0] > b[1] or a[3] < b[2] or a[2] > b[3])


def _curve_meets(fig, box) -> bool:
    """Whether the largest-batch curve passes through `box` (its points in it, or its segments across it)."""
    curve = fig.data[0]
    pts = [(_frac(fig, x=x), _frac(fig, y=y)) for x, y in zip(curve.x, curve.y, strict=True) if y == y and y > 0]
    x0, x1, y0, y1 = box
    xs, ys = np.array([p[0] for p in pts]), np.array([p[1] for p in pts])
    fine = np.linspace(max(x0, xs[0]), min(x1, xs[-1]), 400) if min(x1, xs[-1]) > max(x0, xs[0]) else np.empty(0)
    on = np.interp(fine, xs, ys)
    return bool(((on >= y0) & (on <= y1)).any())


@pytest.mark.parametrize("tr", [EN, Translator("zh-TW")])
@pytest.mark.parametrize("batch", [1, 2, 4, 32, 256, 600, 4096])
def test_the_batch_lines_label_stands_where_the_curve_is_not(tr, batch):
    """Browser review: on the Llama 3.1 70B fp8, 2 x H200 page the largest-batch curve, falling through the batch 32
    line near its right end, struck through 'batch 32 (scenario)' / '批次 32（目前情境）' (at the line's end, over it)
    at 1400 px and touched it at 900 px. The label goes to an end of the line, over or under it, where the curve
    does not pass in the narrowest frame (a half-width column at 1400 px): for the review's scenario under the line
    at its left end, where the curve is above it; inset from the axis (a line's own label had met the tick labels:
    '20批次'); away from the star; inside the plot."""
    from tpot_model import resolve_hardware, resolve_model, resolve_profile

    m, h = resolve_model("llama-3.1-70b"), resolve_hardware("h200")
    t = kf.context_grid(m, 4096, log_x=True, output_tokens=1024)
    s = Scenario(batch=batch, context_tokens=t, output_tokens=1024, num_gpus=2, weights="fp8")
    mb = estimate(m, h, s, resolve_profile("typical")).max_batch
    fig = kf.max_batch_vs_context(t, mb, 4096, batch, tr=tr)
    (label,) = [a for a in fig.layout.annotations if a.text == tr("kvc_batch_scenario", b=batch)]
    assert (label.xref, label.yref, label.y) == ("x domain", "y", pytest.approx(math.log10(batch)))
    assert abs(label.xshift) >= 8 and (label.xshift > 0) is (label.xanchor == "left")  # inset from the plot's side
    box = _label_box(fig, label)
    assert box[2] >= 0 and box[3] <= 1 and not _curve_meets(fig, box), (label.xanchor, label.yanchor, box)
    (star,) = [d for d in fig.data if d.name == tr("kvc_scenario")]
    r = kf.STAR_RADIUS_PX / kf.BATCH_PLOT_PX[0], kf.STAR_RADIUS_PX / kf.BATCH_PLOT_PX[1]
    sx, sy = _frac(fig, x=star.x[0]), _frac(fig, y=star.y[0])
    assert not _meets(box, (sx - r[0], sx + r[0], sy - r[1], sy + r[1]))
    if batch == 32:  # the review's: under the line, at its left end
        assert (label.xanchor, label.yanchor) == ("left", "top")


def test_max_batch_axis_starts_at_a_tick_under_the_curves_end():
    """The largest batch falling to 4 at the longest context: the axis' first label is 2, under it (it had been 5,
    with the curve's end read off no tick), the range starting at that tick; the top still covers 520."""
    t = np.array([128.0, 4096.0, 131072.0])
    fig = kf.max_batch_vs_context(t, np.array([520.0, 110.0, 4.0]), 4096, 32)
    ticks = list(fig.layout.yaxis.tickvals)
    assert ticks[0] == 2 and ticks[-1] == 500 and list(fig.layout.yaxis.ticktext)[:2] == ["2", "5"]
    lo, hi = fig.layout.yaxis.range
    assert lo == pytest.approx(math.log10(2) - 0.05) and hi > math.log10(520)


def test_precision_lines_halve_with_fp8():
    t = np.array([1024.0, 8192.0])
    lines = kf.precision_bytes_per_gpu(TINY_DENSE, Scenario(batch=8), t, kf.precision_names("nvfp4"))
    assert list(lines) == ["bf16", "fp8", "int4", "nvfp4"]
    np.testing.assert_allclose(lines["fp8"], lines["bf16"] / 2)
    np.testing.assert_allclose(lines["int4"], lines["bf16"] / 4)
    fig = kf.precision_lines(t, lines, "nvfp4", 1e9, 8)
    np.testing.assert_allclose(_y(_trace(fig, "fp8")), lines["fp8"] / 1e9)
    assert _trace(fig, EN("kvc_prec_current", fmt="nvfp4"))
    assert fig.layout.title.text == EN("kvc_prec_title", b=8)


def test_architecture_bars_in_kib_stored_first():
    v = kf.attention_variants(TINY_WINDOW, BF16)
    fig = kf.architecture_bars(v, TINY_WINDOW.kind, TINY_WINDOW_W)
    full = _trace(fig, EN("kvc_part_full"))
    assert list(full.y)[0] == EN("kvc_var_stored", kind="GQA", k=2)
    np.testing.assert_allclose(decode(full.x).astype(float), v.kv_bytes_per_token_full_layers / 1024)
    assert _trace(fig, EN("kvc_part_window", w=f"{TINY_WINDOW_W:,}"))
    assert "(KiB)" in fig.layout.xaxis.title.text
    mla = kf.architecture_bars(kf.attention_variants(TINY_MLA, BF16), TINY_MLA.kind, None)
    labels = list(_trace(mla, EN("kvc_part_full")).y)
    assert labels[0] == EN("kvc_var_stored_mla", kind="MLA") and EN("kvc_var_mla_naive", k=4) in labels


@pytest.mark.parametrize("view", ["log", "linear", "pct"])
def test_composition_area_views(view):
    t = kf.context_grid(TINY_HYBRID, 4096, log_x=True)
    parts = kf.composition_bytes(TINY_HYBRID, t, BF16)
    fig = kf.composition_area(t, parts, None, view=view)
    state = _y(_trace(fig, EN("kvc_part_state", w="")))
    if view == "pct":
        total = sum(parts.values())
        np.testing.assert_allclose(state, parts["state"] / total * 100)
        assert tuple(fig.layout.yaxis.range) == (0, 100)
    else:
        np.testing.assert_allclose(state, parts["state"] / 1e9)
        assert (fig.layout.yaxis.type == "log") == (view == "log")
    assert all(tr.stackgroup == "one" for tr in fig.data)


def test_kv_figures_in_chinese():
    t = kf.context_grid(TINY_DENSE, 4096, log_x=True)
    kv = kf.kv_per_gpu_bytes(TINY_DENSE, Scenario(), t, [1, 32])
    fig = kf.kv_vs_context(t, [1, 32], kv, 5e9, 4096, 32, tr=ZH)
    assert fig.layout.title.text == ZH("kvc_size_title") != EN("kvc_size_title")
    assert fig.layout.yaxis.title.text == ZH("kvc_axis_gb_per_gpu")


# --------------------------------------------------------------------------------------------------- cost: data


def test_batch_grid_is_natural_and_includes_the_scenario():
    g = cf.batch_grid(100)
    assert g[0] == 1 and g[-1] == 4096 and 100 in g
    assert np.all(g == np.round(g)) and np.all(np.diff(g) > 0)
    assert {32, 48, 64, 96, 128} <= set(g.astype(int))


def test_cost_units_and_best_batch():
    np.testing.assert_allclose(cf.cost_in(np.array([2.0]), "usd_1k"), [0.002])
    np.testing.assert_allclose(cf.cost_in(np.array([2.0]), "tokens_per_usd"), [500_000])
    tpot = np.array([0.01, 0.03, 0.06, 0.2])
    tps = np.array([100.0, 300.0, 600.0, 900.0])
    fits = np.array([True, True, True, False])
    assert cf.best_batch_index(tpot, tps, fits, 0.05) == 1
    assert cf.best_batch_index(tpot, tps, fits, 0.08) == 2
    assert cf.best_batch_index(tpot, tps, fits, 0.005) is None
    assert math.isnan(cf.board_power_w(None, 8)) and cf.board_power_w(700.0, 8) == 5600.0


def test_nice_log_ticks():
    assert cf.nice_log_ticks(0.6, 30) == [1, 2, 5, 10, 20]
    assert cf.nice_log_ticks(12, 55) == [20, 30, 40, 50]
    assert cf.nice_log_ticks(0.001, 1e4) == [10.0**e for e in range(-3, 5)]
    # over three decades: 1-2-5 is eleven ticks, too many; 1-3 labels seven where decades alone gave four
    assert cf.nice_log_ticks(10, 20_000) == [10, 30, 100, 300, 1000, 3000, 10_000]
    assert cf.tick_label(0.00005) == "0.00005" and cf.tick_label(2000) == "2,000"


# --------------------------------------------------------------------------------------------------- cost: figures


def test_cost_lines_are_dashed_where_the_batch_does_not_fit():
    """A browser review: the decode and with-prefill cost lines, the throughput and the energy ran on solid to batch
    4,096 past the memory limit (only a pink background said so), reading as costs one can reach: solid where the
    batch fits, dashed beyond (one point shared), as Compare's sweep draws it; no second legend entry."""
    b = cf.batch_grid(4)
    est = _est(hw=replace(TOY_GPU, memory_bytes=2e7), batch=b)  # 20 MB: the toy model fits up to batch 64
    fits = np.ravel(est.fits)
    assert fits.any() and not fits.all()
    figs = (
        cf.cost_curve(b, est.usd_per_1M_tokens, est.usd_per_1M_tokens_with_prefill, est.fits, 4),
        cf.throughput_curve(b, est.tokens_per_s_per_gpu, est.tokens_per_s_per_user, est.fits, 4),
        cf.energy_curve(b, est.joules_per_token, est.fits, 4),
    )
    for fig in figs:
        dashed = [t for t in fig.data if t.line.dash == "dash"]
        assert dashed and all(t.showlegend is False for t in dashed)
        for t in dashed:
            drawn = np.isfinite(_y(t))
            edge = int(np.flatnonzero(drawn)[0])
            assert fits[edge] and not fits[edge + 1 :].any() and drawn[edge:].all()  # from the last that fits on
            solid = next(s for s in fig.data if s.name == t.legendgroup and s.line.dash != "dash")
            assert np.isfinite(_y(solid)).tolist() == fits.tolist()


@pytest.mark.parametrize("unit", cf.COST_UNITS)
def test_cost_curve_is_the_model_cost(unit):
    b = cf.batch_grid(4)
    est = _est(batch=b)
    assert est.price_usd_per_gpu_hour == TOY_PRICE
    fig = cf.cost_curve(b, est.usd_per_1M_tokens, est.usd_per_1M_tokens_with_prefill, est.fits, 4, unit=unit)
    decode_y = _y(_trace(fig, EN("ce_line_decode")))  # the line that fits: every batch of the toy does
    prefill_y = _y(_trace(fig, EN("ce_line_prefill")))
    assert bool(np.all(est.fits))
    np.testing.assert_allclose(decode_y, cf.cost_in(est.usd_per_1M_tokens, unit))
    np.testing.assert_allclose(prefill_y, cf.cost_in(est.usd_per_1M_tokens_with_prefill, unit))
    assert fig.layout.yaxis.title.text == EN(f"ce_axis_{unit}")
    assert fig.layout.xaxis.title.text == EN("axis_batch")
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    if unit != "tokens_per_usd":
        assert "(USD)" in fig.layout.yaxis.title.text
        assert np.all(prefill_y >= decode_y)  # the prompt's prefill makes every output token dearer


def _hover_at(template: str, x: float, y: float) -> str:
    """A hover template as plotly.js prints it at (x, y), for the d3 formats the cost charts use."""
    d3 = {",.0f": lambda v: f"{v:,.0f}", ",.3r": lambda v: f"{Decimal(f'{v:#.3g}'):,f}"}  # .3r keeps zeros: 9.10
    return re.sub(r"%\{([xy]):([^}]*)\}", lambda m: d3[m[2]]({"x": x, "y": y}[m[1]]), template).removesuffix(
        "<extra></extra>"
    )


@pytest.mark.parametrize(
    ("unit", "lang", "line", "low", "high"),
    [
        ("usd_1m", "en", "$1.76 per 1M output tokens", "$1.29 per 1M output tokens", "$2.31 per 1M output tokens"),
        # had read '$0.00176 per 1M output tokens'
        ("usd_1k", "en", "$0.00176 per 1K output tokens", "$0.00129 per 1K output tokens", "$0.00231 per 1K output tokens"),
        # 10^6 / 1.76, 10^6 / 2.31 (the dearest end buys the fewest tokens: the band's low end), 10^6 / 1.29
        ("tokens_per_usd", "en", "568,182 output tokens per $", "432,900 output tokens per $", "775,194 output tokens per $"),
        ("usd_1m", "zh-TW", "每百萬輸出 Token $1.76", "每百萬輸出 Token $1.29", "每百萬輸出 Token $2.31"),
        ("usd_1k", "zh-TW", "每千輸出 Token $0.00176", "每千輸出 Token $0.00129", "每千輸出 Token $0.00231"),
    ],
)  # fmt: skip
def test_cost_hover_names_the_unit_it_plots(unit, lang, line, low, high):
    """Each cost unit's hover prints the plotted value with that unit's words, those of its axis title: $1.76 per
    1M output tokens is $0.00176 per 1K and 568,182 tokens per $; each band edge says which end it is and of what
    batch (both had read '1: $2.31')."""
    tr = Translator(lang)
    x = np.array([1.0, 2.0])
    fig = cf.cost_curve(x, np.array([1.76, 0.5]), np.array([2.56, 1.0]), np.ones(2, bool), 1.0, unit=unit, tr=tr,
                        band_low=np.array([1.29, 0.4]), band_high=np.array([2.31, 0.6]), band_name="B")  # fmt: skip
    decode_line = _trace(fig, tr("ce_line_decode"))
    assert _y(decode_line)[0] == pytest.approx(float(cf.cost_in(1.76, unit)))
    shown = _hover_at(decode_line.hovertemplate, 1.0, _y(decode_line)[0])
    assert shown == f"{tr('ce_line_decode')}<br>{tr('ce_h_batch')} 1<br>{line}"
    low_edge, high_edge = [t for t in fig.data if t.name == "B"]
    edge = {"en": "B, {} end<br>batch 1: {}", "zh-TW": "B，{}<br>批次 1：{}"}[lang]
    ends = {"en": ("low", "high"), "zh-TW": ("下緣", "上緣")}[lang]
    assert _hover_at(low_edge.hovertemplate, 1.0, _y(low_edge)[0]) == edge.format(ends[0], low)
    assert _hover_at(high_edge.hovertemplate, 1.0, _y(high_edge)[0]) == edge.format(ends[1], high)
    if unit != "tokens_per_usd":  # the axis says the same unit ('Cost per 1K output tokens (USD)')
        assert line.replace("$0.00176", "").replace("$1.76", "").strip() in fig.layout.yaxis.title.text


def test_cost_curve_shades_what_does_not_fit():
    b = cf.batch_grid(4)
    est = _est(TINY_DENSE, batch=b, context_tokens=2_000_000)  # 2M tokens x batch: the big batches don't fit
    assert est.fits.any() and not est.fits.all()
    fig = cf.cost_curve(b, est.usd_per_1M_tokens, est.usd_per_1M_tokens_with_prefill, est.fits, 4)
    rects = [s for s in fig.layout.shapes if s.type == "rect"]
    assert len(rects) == 1 and rects[0].x1 == b[-1]
    assert any(a.text == EN("ce_not_fit") for a in fig.layout.annotations)
    table = cf.cost_table(b, est.usd_per_1M_tokens, est.usd_per_1M_tokens_with_prefill, est.fits)
    assert {"batch", "usd_per_1m_output_tokens_decode", "usd_per_1m_output_tokens_with_prefill", "fits"} <= set(
        table.columns
    )


def test_throughput_and_energy_are_the_model_values():
    c = cf.context_grid(1_000_000, 512)
    est = _est(context_tokens=c)
    fig = cf.throughput_curve(c, est.tokens_per_s_per_gpu, est.tokens_per_s_per_user, est.fits, 512, sweep="context")
    np.testing.assert_allclose(_y(_trace(fig, EN("ce_line_tps_gpu"))), est.tokens_per_s_per_gpu)
    assert fig.layout.xaxis.title.text == EN("axis_context")
    fig = cf.energy_curve(c, est.joules_per_token, est.fits, 512, sweep="context")
    j = _y(_trace(fig, EN("ce_line_energy")))
    np.testing.assert_allclose(j, TOY_TDP * est.tpot_s / 4)  # board power x 1 GPU x TPOT / batch 4
    assert "(J)" in fig.layout.yaxis.title.text
    assert list(cf.energy_table(c, est.joules_per_token, est.fits, sweep="context").columns) == [
        "context_tokens",
        "joules_per_token",
        "tokens_per_joule",
        "fits",
        "board_power_estimated",  # the board power each row rests on is the catalog's estimate (Hardware.estimated)
    ]
    assert not cf.energy_table(c, est.joules_per_token, est.fits, sweep="context")["board_power_estimated"].any()
    assert fig.layout.title.text == EN("ce_energy_title")  # a published TDP: the title unmarked
    marked = cf.energy_curve(c, est.joules_per_token, est.fits, 512, sweep="context", estimated=True)
    assert marked.layout.title.text == EN("tdp_estimate_title", title=EN("ce_energy_title"))


def test_frontier_points_target_and_best():
    b = cf.batch_grid(8)
    est = _est(batch=b, context_tokens=200_000)
    target = TPOT_TARGETS_S["batch_jobs"]
    fig = cf.frontier(b, est.tpot_s, est.tokens_per_s_per_gpu, est.fits, target, "batch jobs", 8)
    fit = _trace(fig, EN("ce_frontier_fits"))
    x, y = _x(fit), _y(fit)
    ok = est.fits
    np.testing.assert_allclose(x[ok], 1 / est.tpot_s[ok])
    np.testing.assert_allclose(y[ok], est.tokens_per_s_per_gpu[ok])
    line = [s for s in fig.layout.shapes if s.type == "line"][0]
    assert line.x0 == pytest.approx(1 / target)
    assert legend_below(fig.layout.legend)  # pinned under the axis title (a fixed margin had left a gap at 1400 px)
    assert fig.layout.xaxis.title.text == EN("ce_axis_tps_user")
    assert fig.layout.yaxis.title.text == EN("ce_axis_tps_gpu")
    assert np.isnan(x[~ok]).all()
    if (~ok).any():
        assert len(_x(_trace(fig, EN("ce_frontier_not_fit")))) == int((~ok).sum())
    best = cf.best_batch_index(est.tpot_s, est.tokens_per_s_per_gpu, est.fits, target)
    assert best is not None
    star = _trace(fig, EN("ce_best", b=int(b[best])))
    assert _x(star)[0] == pytest.approx(x[best])
    table = cf.frontier_table(b, est.tpot_s, est.tokens_per_s_per_gpu, est.fits, target)
    assert table.meets_target.sum() >= 1 and "tpot_ms" in table.columns


def test_frontier_target_label_stays_on_the_chart_beside_its_line():
    """Browser review (Cost, 900 px, zh-TW): the target's label, centred on a line near the plot's left edge, ran off
    the chart ('天 50 ms'); it starts at a line in the left third, ends at one in the right third."""
    b = cf.batch_grid(8)
    est = _est(batch=b, context_tokens=200_000)
    fit = cf.frontier(b, est.tpot_s, est.tokens_per_s_per_gpu, est.fits, TPOT_TARGETS_S["batch_jobs"], "t", 8)
    x0, x1 = fit.layout.xaxis.range
    (note,) = [a for a in fit.layout.annotations if a.text == "t"]
    side = (note.x - x0) / (x1 - x0)
    assert note.xanchor == ("left" if side < 1 / 3 else "right" if side > 2 / 3 else "center")
    for target_s, anchor in (
        (1 / (10 ** (x0 + 0.05 * (x1 - x0))), "left"),
        (1 / (10 ** (x1 - 0.05 * (x1 - x0))), "right"),
    ):
        fig = cf.frontier(b, est.tpot_s, est.tokens_per_s_per_gpu, est.fits, target_s, "t", 8)
        (note,) = [a for a in fig.layout.annotations if a.text == "t"]
        lo, hi = fig.layout.xaxis.range
        assert note.xanchor == anchor or not lo < note.x < hi, (anchor, note.x, lo, hi)


def test_frontier_without_a_batch_meeting_the_target():
    b = cf.batch_grid(8)
    est = _est(batch=b)
    fig = cf.frontier(b, est.tpot_s, est.tokens_per_s_per_gpu, est.fits, 1e-9, "impossible", 8)
    assert any(a.text == EN("ce_best_none", target="impossible") for a in fig.layout.annotations)
    assert not [t for t in fig.data if t.name and t.name.startswith("best")]


@pytest.mark.parametrize("metric", cf.HEAT_METRICS)
def test_heatmap_is_log_of_the_model_grid_masked_where_it_does_not_fit(metric):
    hb = cf.heat_batches()
    hc = cf.heat_contexts(TINY_DENSE.max_context_tokens, 4096)
    assert len(hb) == cf.HEAT_POINTS and len(hc) == cf.HEAT_POINTS
    grid = _est(batch=hb[:, None], context_tokens=hc[None, :])
    values = {
        "usd_1m": grid.usd_per_1M_tokens,
        "tps_gpu": grid.tokens_per_s_per_gpu,
        "j_per_token": grid.joules_per_token,
    }
    v = values[metric]
    assert grid.fits.any() and not grid.fits.all()
    fig = cf.heatmap(hb, hc, v, grid.fits, metric, 4, 4096)
    main = _trace(fig, EN(f"ce_heat_{metric}"))
    z = np.array(main.z, dtype=float)  # (batch, context): context across, batch up, as on Breakdown (issue 19)
    expect = np.where(grid.fits, np.log10(v), np.nan)
    np.testing.assert_allclose(z, expect)
    mask = np.array(_trace(fig, EN("ce_not_fit")).z, dtype=float)
    assert np.array_equal(np.isnan(mask), grid.fits)
    # a cell that does not fit hovers as not fitting, not with the coloured trace's value (browser review: Plotly
    # hovers on a heat map's gaps unless told not to)
    assert main.hoverongaps is False and _trace(fig, EN("ce_not_fit")).hoverongaps is False
    assert len(main.x) == len(hc) + 1 and len(main.y) == len(hb) + 1  # cell edges
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    assert _y(_trace(fig, EN("ce_scenario")))[0] == 4 and _x(_trace(fig, EN("ce_scenario")))[0] == 4096
    table = cf.heatmap_table(hb, hc, v, grid.fits, metric)
    assert len(table) == len(hb) * len(hc)


def test_hover_rounding_is_javascripts_to_precision():
    """d3's '.4~g' is JavaScript's toPrecision(4): the nearest 4 significant digits of the exact binary value, a
    tie away from zero (Python's '.4g' rounds a tie to even: 1234.5 -> 1234, JavaScript 1235)."""
    got = cf.hover_rounded(np.array([[1234.5, 12345.0, 0.5], [1.0005, 2 / 3, -1234.5]]), 4)
    # 1.0005 is 1.000499999... in binary: down
    np.testing.assert_array_equal(got, [[1235.0, 12350.0, 0.5], [1.0, 0.6667, -1235.0]])


@pytest.mark.parametrize("metric", cf.HEAT_METRICS)
def test_heatmap_sends_four_byte_floats_whose_hovers_read_as_before(metric):
    """Wiki readers (issue 19): the Cost heat map's arrays go as 4-byte floats and the grey cells carry no values
    (the payload was 223 KB of 8-byte floats, the value column twice); every hover prints the same digits."""
    import plotly.io as pio

    hb, hc = cf.heat_batches(), cf.heat_contexts(TINY_DENSE.max_context_tokens, 4096)
    grid = _est(batch=hb[:, None], context_tokens=hc[None, :])
    v = {"usd_1m": grid.usd_per_1M_tokens, "tps_gpu": grid.tokens_per_s_per_gpu, "j_per_token": grid.joules_per_token}
    values = np.asarray(v[metric], dtype=float)
    fig = cf.heatmap(hb, hc, values, grid.fits, metric, 4, 4096)
    main, grey = _trace(fig, EN(f"ce_heat_{metric}")), _trace(fig, EN("ce_not_fit"))
    sent = json.loads(pio.to_json(fig, validate=False))["data"]
    assert {t["customdata"]["dtype"] for t in sent if t["type"] == "heatmap"} == {"f4"}
    assert {t["z"]["dtype"] for t in sent if t["type"] == "heatmap"} == {"f4"}
    assert np.shape(grey.customdata) == (len(hb), len(hc), 2) and np.shape(main.customdata) == (len(hb), len(hc), 3)
    custom = np.asarray(main.customdata)
    np.testing.assert_array_equal(custom[..., 0], np.broadcast_to(hb[:, None], values.shape))
    np.testing.assert_array_equal(custom[..., 1], np.broadcast_to(hc[None, :], values.shape))
    assert "%{customdata[2]:,.4~g}" in main.hovertemplate
    finite = np.isfinite(values)
    shown = [f"{x:.4g}" for x in values[finite]]  # no value here falls on an exact tie, where '.4g' and JS differ
    assert [f"{float(x):.4g}" for x in custom[..., 2][finite]] == shown


def test_no_price_gives_nan_cost_and_the_energy_still_works():
    est = _est(TINY_DENSE, TOY_GPU_NO_PRICE, batch=cf.batch_grid(4))
    assert math.isnan(est.price_usd_per_gpu_hour) and np.isnan(est.usd_per_1M_tokens).all()
    fig = cf.energy_curve(cf.batch_grid(4), est.joules_per_token, est.fits, 4)
    assert np.isfinite(_y(fig.data[0])).all()


def test_cost_figures_in_chinese():
    b = cf.batch_grid(4)
    est = _est(batch=b)
    fig = cf.cost_curve(b, est.usd_per_1M_tokens, est.usd_per_1M_tokens_with_prefill, est.fits, 4, tr=ZH)
    assert fig.layout.title.text == ZH("ce_cost_title_batch") != EN("ce_cost_title_batch")
    assert _trace(fig, ZH("ce_line_prefill"))
    fig = cf.frontier(b, est.tpot_s, est.tokens_per_s_per_gpu, est.fits, 0.05, ZH("target_chat"), 4, tr=ZH)
    assert fig.layout.title.text == ZH("ce_frontier_title")


def test_heatmap_where_nothing_fits_says_so():
    """DeepSeek-R1 BF16 on one H100 (helper review): every cell grey, no colour bar, no word of why. The chart says
    nothing fits and what would help, in the chip wording for a TPU."""
    hb, hc = np.array([1.0, 2.0]), np.array([1024.0, 2048.0])
    nofit = np.zeros((2, 2), dtype=bool)
    fig = cf.heatmap(hb, hc, np.ones((2, 2)), nofit, "usd_1m", 1, 1024, tr=ZH)
    assert [a.text for a in fig.layout.annotations] == [ZH("ce_heat_nothing_fits")]
    chip = cf.heatmap(hb, hc, np.ones((2, 2)), nofit, "usd_1m", 1, 1024, device="chip")
    assert [a.text for a in chip.layout.annotations] == [EN("ce_heat_nothing_fits_chip")]
    some = cf.heatmap(hb, hc, np.ones((2, 2)), ~nofit, "usd_1m", 1, 1024)
    assert not some.layout.annotations


def test_cost_chart_ticks_carry_the_dollar_sign_and_every_sweep_chart_has_its_legend_below():
    """The $ chart's y ticks read '$2', '$5' (tokens per $ stay bare); cost, throughput and energy put their legends
    below the plot alike (the energy chart's had sat at the top)."""
    from ui.figures import cost as cf

    x = np.array([1.0, 8.0, 64.0])
    usd = np.array([20.0, 4.0, 1.0])
    fits = np.array([True, True, False])
    fig = cf.cost_curve(x, usd, usd * 1.5, fits, scenario_x=8.0, unit="usd_1m")
    assert all(t.startswith("$") for t in fig.layout.yaxis.ticktext), fig.layout.yaxis.ticktext
    per_usd = cf.cost_curve(x, usd, usd * 1.5, fits, scenario_x=8.0, unit="tokens_per_usd")
    assert not any(t.startswith("$") for t in per_usd.layout.yaxis.ticktext)
    energy = cf.energy_curve(x, np.array([2.0, 1.0, 0.5]), fits, scenario_x=8.0)
    for f in (fig, energy):
        assert legend_below(f.layout.legend)


def test_deepseek_v4_kv_figures_name_its_parts():
    """DeepSeek-V4-Pro on the KV page: the composition is its compressed entries and every layer's window (they sum to
    the cache per sequence), titled so, not by layer type; the bars' caption says why its bar is short."""
    import numpy as np

    from tpot_model import kv_cache_bytes_per_sequence, resolve_model
    from ui.figures import kv_cache as kf

    v4, llama = resolve_model("deepseek-v4-pro"), resolve_model("llama-3.1-70b")
    t = np.array([64.0, 128.0, 8192.0])
    parts = kf.composition_bytes(v4, t, 1.0)
    assert list(parts) == ["recent", "compressed"]
    assert parts["recent"] + parts["compressed"] == pytest.approx(kv_cache_bytes_per_sequence(v4, t, 1.0))
    assert parts["recent"][1] == parts["recent"][2] == 61 * 128 * 512  # capped at the 128-token window
    fig = kf.composition_area(t, parts, kf.window_tokens(v4))
    assert fig.layout.title.text == EN("kvc_comp_title_compressed")
    assert "(512 + 128) ÷ 4" in kf.architecture_caption(v4) and "512 ÷ 128" in kf.architecture_caption(v4)
    assert kf.architecture_caption(llama) == EN("kvc_arch_caption")
    assert kf.window_tokens(v4) == 128 and kf.window_tokens(llama) is None
    # the per-token expander names the window beside the growth (61 x 128 x 512 B = 3,997,696 B at FP8), in zh-TW too
    formula, values = kf.per_token_formula(v4, 1.0)
    assert values == "(30 × (512 + 128) ÷ 4 + 31 × 512 ÷ 128) × 1 B" and "3,997,696 B" in formula
    assert "3,997,696 B" in kf.per_token_formula(v4, 1.0, ZH)[0]
