"""Roofline figure: attainable FLOP/s (display TFLOP/s) against arithmetic intensity (FLOP/byte), per GPU.

Ceilings come from the hardware (peak bandwidth, dense peak per precision) and the profile (achievable fractions);
points come from the model's Estimate: the whole decode step, prefill and each decode operator. Pure: no Streamlit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from pandas.io.formats.style import Styler

from tpot_model import Estimate, Hardware
from tpot_model.estimate import kv_cache_bytes_per_gpu
from tpot_model.precision import resolve_compute
from tpot_model.roofline import attainable_bandwidth_bytes_per_s, attainable_flop_per_s, mean_decode_cache_tokens
from tpot_model.units import GB, MB, TFLOP_per_s

from .. import explain, fmt
from ..i18n import EN, Translator
from .common import (
    NARROW_PLOT_PX,
    Figure,
    hardware_colour,
    legend_placement,
    log_tick_values,
    round_significant,
    style,
    tick_label,
    wrap_legend,
)

OPERATOR_COLOURS = {
    "embedding": "#7f7f7f",
    "qkv_projection": "#1f77b4",
    "attention": "#ff7f0e",
    "linear_attention": "#bcbd22",
    "output_projection": "#17becf",
    "mlp": "#2ca02c",
    "experts": "#9467bd",
    "shared_experts": "#8c564b",
    "norms": "#e377c2",
    "lm_head": "#d62728",
}
STEP_COLOUR = "#111111"
PREFILL_COLOUR = "#6a3d9a"


# --------------------------------------------------------------------------------------------------- small helpers


def _precision_groups(hw: Hardware) -> dict[float, list[str]]:
    """Precisions grouped by equal dense peak (bf16 and fp16 usually share one ceiling)."""
    groups: dict[float, list[str]] = {}
    for precision, peak in hw.dense_flop_per_s.items():
        groups.setdefault(float(peak), []).append(precision)
    return groups


def _group_label(precisions: list[str], used: str) -> str:
    """'fp8 / int8' with the precision in use first."""
    ordered = sorted(precisions, key=lambda p: p != used)
    return " / ".join(ordered)


def plotted_operators(est: Estimate) -> list:
    """Decode operators with FLOPs > 0 (a zero cannot sit on a log axis)."""
    return [o for o in est.decode.operators if float(o.flops) > 0]


def skipped_operators(est: Estimate) -> list[str]:
    """Ids of decode operators left off the log chart because they do no FLOPs."""
    return [o.name for o in est.decode.operators if float(o.flops) <= 0]


def operator_label(name: str, tr: Translator = EN) -> str:
    key = f"roofline_op_{name}"
    return tr(key) if tr.has(key) else name


def _points(est: Estimate) -> list[dict]:
    """Every plotted point in SI: kind, id, FLOPs, bytes, time, intensity, attained FLOP/s, bound."""
    rows = []
    d, p = est.decode, est.prefill
    for kind, name, flops, nbytes, time_s, cb in (
        ("decode_step", "decode_step", d.flops, d.bytes, est.tpot_s, est.compute_bound),
        ("prefill", "prefill", p.flops, p.bytes, p.time_s, p.flop_time_s > p.memory_time_s),
    ):
        rows.append(
            dict(kind=kind, name=name, flops=float(flops), bytes=float(nbytes), time_s=float(time_s), cb=bool(cb))
        )
    for o in plotted_operators(est):
        rows.append(
            dict(
                kind="operator",
                name=o.name,
                flops=float(o.flops),
                bytes=float(o.bytes),
                time_s=float(o.time_s),
                cb=bool(o.compute_bound),
            )
        )
    for r in rows:
        r["intensity"] = r["flops"] / r["bytes"]
        r["attained"] = r["flops"] / r["time_s"]
    return rows


def _coincident(points: list[dict], decades: float = 0.02) -> list[int]:
    """Per point, the index of the first point it coincides with on the log-log chart (within `decades` on both
    axes, ~3 px): QKV, output projection, MLP and LM head read their weights once per step for the whole batch, so
    at one weight precision they share an intensity and, memory-bound, an attained rate."""
    at = [(math.log10(r["intensity"]), math.log10(r["attained"])) for r in points]
    spots: list[int] = []
    for i, (x, y) in enumerate(at):
        near = next(j for j in range(i + 1) if abs(at[j][0] - x) < decades and abs(at[j][1] - y) < decades)
        spots.append(i if near == i else spots[near])
    return spots


RIDGE_CLEAR_PX = 12  # the ridge point's open circle (size 14, line 3): a label this far from its centre clears it
USED_LABEL_CHAR_PX = 5.8  # the roof's 12 px label, per Latin glyph (168 px for 'fp8 / int8 1,979 TFLOP/s (used)')


def used_label_side(text: str, ridge: float, x_lo: float, x_hi: float) -> str:
    """Where the used roof's label goes: 'end' (right-aligned at the ceiling's right end, beside the other
    precisions' labels) where it clears the ridge point's circle in the narrowest plot (NARROW_PLOT_PX wide), else
    'corner' (left of the ridge, under its label) where it fits there, else the side with more room."""
    width = fmt.text_px(text, USED_LABEL_CHAR_PX) + RIDGE_CLEAR_PX
    decades = math.log10(x_hi / x_lo)
    right = NARROW_PLOT_PX * math.log10(x_hi / ridge) / decades
    left = NARROW_PLOT_PX * math.log10(ridge / x_lo) / decades
    if width <= right:
        return "end"
    return "corner" if width <= left or left >= right else "end"


def _x_range(est: Estimate, points: list[dict], overlay: Sequence[Hardware]) -> tuple[float, float]:
    """Log range covering every point and every ridge point, padded to whole decades."""
    bw = est.hardware.memory_bandwidth_bytes_per_s
    ridges = [peak / bw for peak in est.hardware.dense_flop_per_s.values()]
    ridges += [max(h.dense_flop_per_s.values()) / h.memory_bandwidth_bytes_per_s for h in overlay]
    xs = [r["intensity"] for r in points] + ridges
    lo = 10 ** math.floor(math.log10(min(xs) / 2))
    hi = 10 ** math.ceil(math.log10(max(xs) * 3))
    return lo, hi


# --------------------------------------------------------------------------------------------------- the figure


def roofline(
    est: Estimate, *, overlay: Sequence[Hardware] = (), profile_name: str | None = None, tr: Translator = EN
) -> go.Figure:
    """Log-log roofline of est.hardware at est.compute_precision, other precisions faint, the profile's achievable
    roof dashed, other chips' roofs overlaid, and the decode step, prefill and decode operators as points.
    `profile_name` is the profile's display name (translated by the caller); default: its catalog name."""
    hw, used, profile = est.hardware, est.compute_precision, est.profile
    profile_name = profile_name or profile.name
    bw = hw.memory_bandwidth_bytes_per_s
    peak = hw.dense_flop_per_s[used]
    ridge = peak / bw
    points = _points(est)
    x_lo, x_hi = _x_range(est, points, overlay)
    colour = hardware_colour(hw.id)
    T = TFLOP_per_s
    fig = Figure()

    # faint ceilings of the chip's other precisions, drawn first (underneath) as line segments with gaps; higher
    # ceilings are labelled above their line, lower ones below (clear of the dashed achievable roof)
    groups = _precision_groups(hw)
    for above in (True, False):
        fx: list[float | None] = []
        fy: list[float | None] = []
        fhover: list[str] = []
        for g_peak, precisions in sorted(groups.items()):
            if used in precisions or (g_peak > peak) != above:
                continue
            g_ridge = g_peak / bw
            xs = [ridge, g_ridge, x_hi] if above else [g_ridge, x_hi]
            ys = [peak, g_peak, g_peak] if above else [g_peak, g_peak]
            label = _group_label(precisions, used)
            fx += [*xs, None]
            fy += [*(y / T for y in ys), None]
            fhover += [tr("roofline_compute_hover", precision=label, peak=fmt.tflops(g_peak))] * (len(xs) + 1)
            # its label on a white ground at the line's right end: as line text, the achievable roof's dashes and
            # the prefill's diamond had run through it
            fig.add_annotation(x=math.log10(x_hi), y=math.log10(g_peak / T), xanchor="right",
                               yanchor="bottom" if above else "top", showarrow=False, bgcolor="rgba(255,255,255,0.85)",
                               text=tr("roofline_ceiling_label", precision=label, peak=fmt.tflops(g_peak)),
                               font={"size": 11, "color": "#555"})  # fmt: skip
        if fx:
            fig.add_scatter(
                x=fx,
                y=fy,
                mode="lines",
                line={"color": colour, "width": 1, "dash": "dot"},
                opacity=0.6,
                name=tr("roofline_other_precisions", hw=fmt.chip_short(hw)),
                legendgroup="other-precisions",
                showlegend=not any(t.legendgroup == "other-precisions" for t in fig.data),
                customdata=fhover,
                hovertemplate="%{customdata}<extra></extra>",
            )

    # other chips' peak roofs at the same requested precision (or their fallback)
    for other in overlay:
        if other.id == hw.id:
            continue
        o_prec = resolve_compute(est.scenario.compute_requested, other.dense_flop_per_s)
        o_bw, o_peak = other.memory_bandwidth_bytes_per_s, other.dense_flop_per_s[o_prec]
        o_ridge = o_peak / o_bw
        fig.add_scatter(
            x=[x_lo, o_ridge, x_hi],
            y=[o_bw * x_lo / T, o_peak / T, o_peak / T],
            mode="lines",
            line={"color": hardware_colour(other.id), "width": 2},
            name=tr("roofline_overlay_roof", hw=fmt.chip_short(other), precision=o_prec),
            hovertemplate=(
                f"{other.name}<br>{tr('roofline_bandwidth_hover', bw=fmt.tb_per_s(o_bw))}<br>"
                f"{tr('roofline_compute_hover', precision=o_prec, peak=fmt.tflops(o_peak))}<br>"
                f"{tr('roofline_ridge_hover', ridge=fmt.number(o_ridge))}<extra></extra>"
            ),
        )

    # the chip's roof at the precision in use
    used_label = _group_label(groups[float(peak)], used)
    fig.add_scatter(
        x=[x_lo, ridge, x_hi],
        y=[bw * x_lo / T, peak / T, peak / T],
        mode="lines",
        line={"color": colour, "width": 3},
        name=tr("roofline_roof", hw=fmt.chip_short(hw), precision=used),
        customdata=[
            tr("roofline_bandwidth_hover", bw=fmt.tb_per_s(bw)),
            tr("roofline_ridge_hover", ridge=fmt.number(ridge)),
            tr("roofline_compute_hover", precision=used_label, peak=fmt.tflops(peak)),
        ],
        hovertemplate="%{customdata}<extra></extra>",
    )

    # an annotation, not trace text: it sits above overlaid roofs on a white ground. At the ceiling's right end where
    # it clears the ridge point's circle in the narrowest plot, else left of the corner under the ridge label (at
    # 900 px, right-aligned at the end of H200's ceiling, it had sat on the circle: a browser review)
    used_text = tr("roofline_ceiling_used", precision=used_label, peak=fmt.tflops(peak))
    used_side = used_label_side(used_text, ridge, x_lo, x_hi)
    fig.add_annotation(
        x=math.log10(x_hi if used_side == "end" else ridge),
        y=math.log10(peak / T),
        text=used_text,
        showarrow=False,
        xanchor="right",
        yanchor="bottom",
        xshift=0 if used_side == "end" else -RIDGE_CLEAR_PX,
        font={"size": 12, "color": "#222"},
        bgcolor="rgba(255,255,255,0.85)",
    )

    # the chip's attainable roof (published microbenchmarks, else its family's prior): what any software reaches
    t_bw, t_peak = attainable_bandwidth_bytes_per_s(hw), attainable_flop_per_s(hw, used)
    basis = explain.attainable_basis(hw, ("bandwidth", used), tr)
    fig.add_scatter(
        x=[x_lo, t_peak / t_bw, x_hi],
        y=[t_bw * x_lo / T, t_peak / T, t_peak / T],
        mode="lines",
        line={"color": colour, "width": 1.5, "dash": "dashdot"},
        name=tr(
            "roofline_attainable",
            hw=fmt.chip_short(hw),  # the full name is in the title and the hover: legend rows fit a 900 px frame
            source=explain.attainable_basis(hw, ("bandwidth", used), tr, short=True),
            bw_pct=fmt.pct(t_bw / bw, 0),
            flops_pct=fmt.pct(t_peak / peak, 0),
        ),
        hovertemplate=tr(
            "roofline_attainable_hover", hw=hw.name, bw=fmt.tb_per_s(t_bw), peak=fmt.tflops(t_peak), basis=basis
        )
        + "<extra></extra>",
    )

    # the profile's achievable roof
    if profile.id != "ideal":
        a_bw, a_peak = est.rates.memory_bytes_per_s, est.rates.gemm_flop_per_s  # the rates the estimate ran at
        fig.add_scatter(
            x=[x_lo, a_peak / a_bw, x_hi],
            y=[a_bw * x_lo / T, a_peak / T, a_peak / T],
            mode="lines",
            line={"color": colour, "width": 2, "dash": "dash"},
            # the KV cache and unpacked weights are read slower than this slope (slower_reads): said in the legend
            # and the hover (with int4 weights at 58% of peak, the roof had said 72% alone: a browser review)
            name=tr(
                "roofline_achievable_reads" if slower_reads(est) else "roofline_achievable",
                profile=profile_name,
                bw_pct=fmt.pct(a_bw / bw, 0),
                flops_pct=fmt.pct(a_peak / peak, 0),
                reads=tr.join(_slower_read_phrases(est, tr, "roofline_legend_read")),
            ),
            hovertemplate=tr(
                "roofline_achievable_hover", profile=profile_name, bw=fmt.tb_per_s(a_bw), peak=fmt.tflops(a_peak)
            )
            + "".join("<br>" + r for r in _slower_read_phrases(est, tr, "roofline_hover_read"))
            + "<extra></extra>",
        )

    # ridge point: marker, label, and the memory/compute split below it
    fig.add_scatter(
        x=[ridge],
        y=[peak / T],
        mode="markers",
        marker={"symbol": "circle-open", "size": 14, "color": colour, "line": {"width": 3}},
        showlegend=False,
        hovertemplate=tr("roofline_ridge_hover", ridge=fmt.number(ridge)) + "<extra></extra>",
    )
    # the memory / compute split where the verdict is decided: the achievable ridge under a profile (the peak one
    # had put a compute-bound step on the 'memory-bound' side: a review), the peak ridge under the ideal bound
    split = ridge if profile.id == "ideal" else est.effective_ridge_flop_per_byte
    fig.add_shape(type="line", xref="x", x0=split, x1=split, yref="y domain", y0=0, y1=1,
                  line={"color": "#999", "width": 1, "dash": "dot"})  # fmt: skip
    # above the roof's level, ending just left of its corner, one line over the roof's own label: a leader line up
    # and to the left had struck through that label where it reaches past the corner (a 900 px page's ~340 px plot)
    fig.add_annotation(
        x=math.log10(ridge),
        y=math.log10(peak / T),
        text=tr("roofline_ridge", ridge=fmt.number(ridge)),
        showarrow=False,
        xanchor="right",
        yanchor="bottom",
        xshift=-4 if used_side == "end" else -RIDGE_CLEAR_PX,  # right-aligned with the roof's label under it
        yshift=18,
        font={"size": 12},
        bgcolor="rgba(255,255,255,0.85)",
    )
    for key, anchor in (("roofline_region_memory", "right"), ("roofline_region_compute", "left")):
        fig.add_annotation(
            x=math.log10(split),
            y=0.01,
            yref="paper",
            yanchor="bottom",
            xanchor=anchor,
            xshift=-6 if anchor == "right" else 6,
            text=tr(key),
            showarrow=False,
            font={"size": 11, "color": "#666"},
        )

    # points: decode operators (small), prefill and the whole decode step (large)
    hover = (
        "<b>%{customdata[0]}</b><br>"
        f"{tr('roofline_hover_flops')}: %{{customdata[1]}}<br>"
        f"{tr('roofline_hover_bytes')}: %{{customdata[2]}}<br>"
        f"{tr('roofline_hover_intensity')}: %{{x:,.3~r}} FLOP/byte<br>"
        f"{tr('roofline_hover_attained')}: %{{y:,.3~r}} TFLOP/s<br>"
        f"{tr('roofline_hover_time')}: %{{customdata[3]}}<br>"
        "%{customdata[4]}<extra></extra>"
    )

    def custom(r: dict, label: str, time_label: str = "") -> list[str]:
        time = fmt.duration(r["time_s"], tr=tr) if r["time_s"] >= 1e-3 else f"{fmt.number(r['time_s'] * 1e6)} µs"
        bound = tr("bound_compute") if r["cb"] else tr("bound_memory")
        return [label, fmt.flop(r["flops"]), fmt.nbytes(r["bytes"]), f"{time_label}{time}", bound]

    ops = [r for r in points if r["kind"] == "operator"]
    spots = _coincident(ops)
    for r, spot in zip(ops, spots, strict=True):
        label = operator_label(r["name"], tr)
        together = [o for o, s in zip(ops, spots, strict=True) if s == spot]
        data = custom(r, label)
        if len(together) > 1:  # the weight matmuls share one point at a batch: said in the hover, drawn as rings
            others = [operator_label(o["name"], tr) for o in together if o is not r]
            data[4] += "<br>" + tr("roofline_hover_shared", names=tr.join(others))
        size = 10 + 4 * (len(together) - 1 - together.index(r))  # the first drawn largest
        marker = {
            "size": size,
            "color": OPERATOR_COLOURS.get(r["name"], "#444"),
            "line": {"color": "white", "width": 1},
        }
        fig.add_scatter(x=[r["intensity"]], y=[r["attained"] / T], mode="markers", marker=marker, name=label,
                        legendgroup=r["name"], showlegend=size == 10, customdata=[data], hovertemplate=hover)  # fmt: skip
        if size != 10:  # a ring's key the size of the others' (Plotly draws a legend symbol at its trace's size)
            fig.add_scatter(x=[None], y=[None], mode="markers", marker=marker | {"size": 10}, name=label,
                            legendgroup=r["name"])  # fmt: skip
    for r in points:
        if r["kind"] == "operator":
            continue
        is_step = r["kind"] == "decode_step"
        label = tr("roofline_point_decode") if is_step else tr("roofline_point_prefill")
        time_label = (tr("roofline_time_tpot") if is_step else tr("roofline_time_ttft")) + " "
        fig.add_scatter(
            x=[r["intensity"]],
            y=[r["attained"] / T],
            mode="markers",
            marker={
                "symbol": "star" if is_step else "diamond",
                "size": 20 if is_step else 15,
                "color": STEP_COLOUR if is_step else PREFILL_COLOUR,
                "line": {"color": "white", "width": 1.5},
            },
            name=label,
            legendrank=1 if is_step else 2,  # first in the legend: the key to the ★ a reader looks for
            customdata=[custom(r, label, time_label)],
            hovertemplate=hover,
        )

    title = tr("roofline_chart_title", hw=fmt.chip_plain(hw))
    ys = [r["attained"] for r in points] + [bw * x_lo]
    y_lo = 10 ** math.floor(math.log10(min(ys) / T / 2))
    peaks = [*hw.dense_flop_per_s.values()] + [max(h.dense_flop_per_s.values()) for h in overlay]
    y_hi = 10 ** math.ceil(math.log10(max(peaks) / T * 2.5))
    style(
        fig,
        # the full name's own "(per ...)" would say it twice; a scenario that does not fit: a what-if, said so
        title if bool(est.fits) else fmt.if_fitted_label(title, tr),
        tr("roofline_axis_intensity"),
        tr("roofline_axis_attainable"),
        log_x=True,
        log_y=True,
    )
    x_ticks = log_tick_values(x_lo, x_hi, (1,))  # the ends are whole decades
    y_ticks = log_tick_values(y_lo, y_hi, (1,))[1:]  # the bottom decade's label would sit on the x axis's first label
    fig.update_xaxes(
        range=[math.log10(x_lo), math.log10(x_hi)], tickvals=x_ticks, ticktext=[tick_label(t) for t in x_ticks]
    )
    fig.update_yaxes(
        range=[math.log10(y_lo), math.log10(y_hi)], tickvals=y_ticks, ticktext=[tick_label(t) for t in y_ticks]
    )
    # the legend in rows under the axis title at any width, its long entries on lines (at a fraction of the plot's
    # height under it, it rose onto the axis title and its widest entries were cut in a 900 px page with the sidebar)
    # The figure stays 640 px, not taller by the rows its legend takes in the narrowest page: a 900 x 700 wiki frame
    # holds the chart alone with its first legend row (the key to the decode step's star) and the full-view link;
    # in a narrow page the plot gives the legend its rows
    placed = legend_placement(wrap_legend(fig), 640, side_max=0)
    fig.update_layout(**(placed | {"height": 640, "margin": {"t": 50, **placed["margin"]}}))
    return fig


# --------------------------------------------------------------------------------------------------- tables and text


def roofline_data(est: Estimate, overlay: Sequence[Hardware] = ()) -> pd.DataFrame:
    """The chart's data for the CSV download: one row per point and per roof (SI-derived display units)."""
    rows = []
    for r in _points(est):
        rows.append(
            {
                "kind": r["kind"],
                "name": r["name"],
                "hardware": est.hardware.id,
                "precision": est.compute_precision,
                "flops": r["flops"],
                "bytes": r["bytes"],
                "intensity_flop_per_byte": r["intensity"],
                "attained_tflop_per_s": r["attained"] / TFLOP_per_s,
                "time_us": r["time_s"] * 1e6,
                "bound": "compute" if r["cb"] else "memory",
            }
        )
    hw = est.hardware
    roofs = [(hw, p, hw.memory_bandwidth_bytes_per_s, hw.dense_flop_per_s[p], "peak") for p in hw.dense_flop_per_s]
    used = est.compute_precision
    roofs.append((hw, used, attainable_bandwidth_bytes_per_s(hw), attainable_flop_per_s(hw, used), "attainable"))
    if est.profile.id != "ideal":
        roofs.append((hw, est.compute_precision, est.rates.memory_bytes_per_s, est.rates.gemm_flop_per_s, "achievable"))
    for other in overlay:
        if other.id != hw.id:
            prec = resolve_compute(est.scenario.compute_requested, other.dense_flop_per_s)
            roofs.append((other, prec, other.memory_bandwidth_bytes_per_s, other.dense_flop_per_s[prec], "peak"))
    for h, prec, bw, peak, kind in roofs:
        rows.append(
            {
                "kind": f"roof_{kind}",
                "name": h.name,
                "hardware": h.id,
                "precision": prec,
                "bandwidth_tb_per_s": bw / 1e12,
                "peak_tflop_per_s": peak / TFLOP_per_s,
                "ridge_flop_per_byte": peak / bw,
            }
        )
        if kind == "achievable":  # the model's per-kind reads: weights (unpacked: slower) and the KV cache
            rows[-1] |= {"weight_read_tb_per_s": est.rates.weight_bytes_per_s / 1e12,
                         "kv_read_tb_per_s": est.rates.kv_bytes_per_s / 1e12}  # fmt: skip
    return pd.DataFrame(rows)


LARGE = 1e5  # a column whose numbers reach this in its unit reads in the unit 1,000 x larger (MB -> GB, µs -> ms)


def _unit(values: np.ndarray, small: tuple[str, float], large: tuple[str, float], fitted: bool) -> tuple[str, float]:
    """The unit (its string key part, its size in SI) for a column of `values` (SI): the smaller, or, `fitted` and
    where the largest reaches LARGE in it, the larger."""
    return large if fitted and np.nanmax(np.abs(values), initial=0.0) / small[1] >= LARGE else small


def _byte_parts(est: Estimate) -> dict[str, np.ndarray]:
    """The operators' bytes by kind (weight, kv, activation), per GPU, the operator table's three byte columns."""
    ops = est.decode.operators
    return {
        kind: np.array([float(getattr(o, f"{kind}_bytes")) for o in ops]) for kind in ("weight", "kv", "activation")
    }


def byte_unit(est: Estimate, *, fitted: bool) -> tuple[str, float]:
    """The unit of the operator table's three byte columns, one for the three (read side by side): 'mb' or 'gb'
    (_unit), with its size in bytes."""
    return _unit(np.concatenate(list(_byte_parts(est).values())), ("mb", MB), ("gb", GB), fitted)


def operator_table(est: Estimate, tr: Translator = EN, *, fitted: bool = False) -> pd.DataFrame:
    """Decode-step operators, per GPU, of the mean decode step (kv_basis_note): translated headers, numbers rounded
    to 3 significant figures, in GFLOP, MB and µs (the CSV's columns, the same in every export); `fitted` (the page's
    table): TFLOP, GB and ms where a column would reach LARGE, the three byte columns in one unit (byte_unit)."""
    ops = est.decode.operators
    f = np.array([float(o.flops) for o in ops])
    b = np.array([float(o.bytes) for o in ops])
    parts = _byte_parts(est)
    t = np.array([float(o.time_s) for o in ops])
    flop, flop_size = _unit(f, ("gflop", 1e9), ("tflop", 1e12), fitted)
    time, time_size = _unit(t, ("time_us", 1e-6), ("time_ms", 1e-3), fitted)
    unit, size = byte_unit(est, fitted=fitted)
    return pd.DataFrame(
        {
            tr("roofline_col_operator"): [operator_label(o.name, tr) for o in ops],
            tr(f"roofline_col_{flop}"): round_significant(f / flop_size),
            tr(f"roofline_col_weights_{unit}"): round_significant(parts["weight"] / size),
            tr(f"roofline_col_kv_{unit}"): round_significant(parts["kv"] / size),
            tr(f"roofline_col_act_{unit}"): round_significant(parts["activation"] / size),
            tr("roofline_col_intensity"): round_significant(f / b),
            tr(f"roofline_col_{time}"): round_significant(t / time_size),
        }
    )


def bound_note(est: Estimate, tr: Translator = EN) -> str:
    """Which of the table's operators are compute-bound (the rest memory-bound), in a sentence: as a column of its own
    the table did not fit a 900 px page (operator_display)."""
    compute = [operator_label(o.name, tr) for o in est.decode.operators if bool(o.compute_bound)]
    if not compute:
        return tr("roofline_table_bound_memory")
    if len(compute) == len(est.decode.operators):
        return tr("roofline_table_bound_compute")
    return tr("roofline_table_bound_some", ops=tr.join(compute))


def _cell(v: float) -> str:
    """A table number as rounded (3 significant figures): thousands grouped from 100 up ('24,200'), else its own
    decimals ('33.6', '0.131'), 0 as '0'."""
    return f"{v:,.0f}" if abs(v) >= 100 or v == 0 else f"{v:#.3g}"  # '8.10' beside '9.12', not '8.1'


def operator_display(est: Estimate, tr: Translator = EN) -> Styler:
    """operator_table for a static table (st.table) that wraps in a narrow frame (at 900 px the scrolled grid had
    hidden its activations, intensity, time and bound columns: a browser review; each operator's bound is said under
    it, bound_note): the same numbers, kept right-aligned, thousands grouped."""
    table = operator_table(est, tr, fitted=True)
    numbers = [c for c in table.columns if table[c].dtype.kind == "f"]
    return table.style.format(dict.fromkeys(numbers, _cell)).hide(axis="index")


def kv_basis_note(est: Estimate, tr: Translator = EN) -> str:
    """What the table's KV cache column counts, per GPU, beside the cache's size elsewhere: the mean decode step over
    the output (each sequence's cache at its mean length, mean_decode_cache_tokens, with the new token's K and V
    written), against the cache at the context alone (the KV cache page) and at its peak (Overview's memory); then the
    decimal units in sight: the page's table's (byte_unit: MB, or GB where a column would reach 100,000 MB) and the
    note's GB. Llama 3.1 70B, bf16 cache, 2 GPUs, batch 32, 4K + 1K: 24.2 GB read, 21.5 GB at 4K, 26.8 GB at peak."""
    s, m = est.scenario, est.model
    out, context = int(s.output_tokens), float(s.context_tokens)
    mean = float(mean_decode_cache_tokens(context, out))
    unit, _ = byte_unit(est, fitted=True)  # the page's table (operator_display)
    basis = tr(
        "roofline_table_kv_basis",
        output_tokens=fmt.counted("n_output_tokens", out, tr),
        mean=fmt.count(mean),
        context=fmt.integer(context),
        grown=fmt.count(mean - context),
        read=fmt.gb(sum(float(o.kv_bytes) for o in est.decode.operators)),
        at_context=fmt.gb(float(kv_cache_bytes_per_gpu(m, s, s.context_tokens))),
        peak=fmt.gb(float(est.kv_cache_peak_bytes_per_gpu)),
    )
    return tr.sentences([basis, tr(f"roofline_decimal_{unit}")])


def slower_reads(est: Estimate) -> dict[str, float]:
    """The kinds of byte the estimate reads slower than the achievable roof's slope (rates.memory_bytes_per_s, what
    activations move at), with their bandwidths (bytes/s): 'kv' (the profile's KV factor: paged, scattered reads),
    'weights' (a weight-only format unpacked to 16-bit math: the low-bit factor). Empty under the ideal bound."""
    r = est.rates
    kinds = {"weights": r.weight_bytes_per_s, "kv": r.kv_bytes_per_s}
    return {k: v for k, v in kinds.items() if v < r.memory_bytes_per_s * (1 - 1e-9)}


def _slower_read_phrases(est: Estimate, tr: Translator, key: str) -> list[str]:
    """Each slower read (slower_reads) in words: `key`_kv / `key`_weights with its bandwidth, its share of peak and
    the profile's factor."""
    peak, p = est.hardware.memory_bandwidth_bytes_per_s, est.profile
    factors = {"kv": p.kv_bandwidth_efficiency, "weights": p.lowbit_bandwidth_efficiency}
    return [tr(f"{key}_{kind}", bw=fmt.tb_per_s(rate), pct=fmt.pct(rate / peak, 0), factor=fmt.plain(factors[kind]),
               weights=est.scenario.weights.name)
            for kind, rate in slower_reads(est).items()]  # fmt: skip


def intensity_note(est: Estimate, tr: Translator = EN, profile_name: str | None = None) -> str:
    """What the decode step's intensity against the ridge point means, plus the profile's effective ridge."""
    ai, ridge = float(est.arithmetic_intensity_flop_per_byte), est.ridge_point_flop_per_byte
    ratio = ai / ridge
    values = dict(
        ai=fmt.number(ai),
        hw=est.hardware.name,
        precision=est.compute_precision,
        ridge=fmt.number(ridge),
        ratio=f"{fmt.number(ratio, 2)}×",
    )
    weight_b = sum(float(o.weight_bytes) for o in est.decode.operators)
    kv_b = sum(float(o.kv_bytes) for o in est.decode.operators)
    pr, rates = est.profile, est.rates
    pcts = dict(
        bw_pct=fmt.pct(rates.memory_bytes_per_s / est.hardware.memory_bandwidth_bytes_per_s, 0),
        flops_pct=fmt.pct(rates.gemm_flop_per_s / est.hardware.dense_flop_per_s[est.compute_precision], 0),
    )
    eff = est.effective_ridge_flop_per_byte
    if bool(est.compute_bound) != (ai >= ridge):  # between the two ridges: the verdict is the achievable rates'
        # (373 FLOP/byte 'at 0.90x of the ridge and compute-bound' had read as a contradiction: a review)
        key = "roofline_note_compute_effective" if bool(est.compute_bound) else "roofline_note_memory_effective"
        return tr(key, **values | {"ratio": f"{fmt.number(ai / eff, 2)}×"}, eff=fmt.number(eff), **pcts)
    if bool(est.compute_bound):
        text = tr("roofline_note_compute", **values)
    elif kv_b > weight_b:  # the cache, not the weights, sets the bytes: batching does not amortise it
        attn = next(o for o in est.decode.operators if o.name == "attention")
        text = tr(
            "roofline_note_memory_kv",
            kv=fmt.nbytes(kv_b),
            weights=fmt.nbytes(weight_b),
            attn=fmt.number(float(attn.arithmetic_intensity_flop_per_byte)),
            **values,
        )
    else:
        text = tr("roofline_note_memory", **values)
    if pr.id != "ideal":
        sentences = [text, tr("roofline_note_profile", profile=profile_name or pr.name, ridge=fmt.number(eff), **pcts)]
        if slower_reads(est):  # the model's other read rates: their points sit below the dashed slope
            sentences.append(tr("roofline_note_reads", bw=fmt.tb_per_s(rates.memory_bytes_per_s),
                                reads=tr.join(_slower_read_phrases(est, tr, "roofline_read"))))  # fmt: skip
        text = tr.sentences(sentences)
    return text
