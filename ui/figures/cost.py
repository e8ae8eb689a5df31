"""Cost & energy figures: $ per output token, tokens per $, tokens/s per GPU and energy per token against batch or
context, the throughput-latency frontier against a TPOT target, and a batch × context heat map. Pure: arrays in
(SI: seconds, USD, joules, tokens), go.Figure or pandas DataFrame out."""

from __future__ import annotations

import decimal
import functools
import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from .. import fmt
from ..i18n import EN, Translator
from .common import (
    Decor,
    Figure,
    add_band,
    colorscale,
    fit_line,
    legend_placement,
    log_edges,
    log_ticks,
    nice_log_ticks,
    not_fit_spans,
    power_of_two_axis,
    style,
    tick_label,
    tick_labels,
    wrap_legend,
)

MAX_SWEEP_BATCH = 4096
MIN_SWEEP_CONTEXT = 128  # left end of the log context axis (tokens)
SWEEP_POINTS = 64  # contexts per sweep
HEAT_POINTS = 48
HEAT_HOVER_DIGITS = 4  # significant digits of a heat-map cell's value in its hover
COST_UNITS = ("usd_1m", "usd_1k", "tokens_per_usd")
HEAT_METRICS = ("usd_1m", "tps_gpu", "j_per_token")
SWEEPS = ("batch", "context")
DECODE_COLOUR = "#1f77b4"
PREFILL_COLOUR = "#ff7f0e"
ENERGY_COLOUR = "#2ca02c"
NOT_FIT_FILL = "#d62728"
NOT_FIT_POINT = "#b0b0b0"
TARGET_COLOUR = "#2ca02c"


# --------------------------------------------------------------------------------------------------- grids


def batch_grid(scenario_batch: float) -> np.ndarray:
    """Batch sizes 1 … 4096 that read naturally (2^k × 1, 1.25, 1.5, 1.75: …, 32, 40, 48, 56, 64, …), plus the
    scenario's: about four points per doubling."""
    k = 2.0 ** np.arange(int(np.log2(MAX_SWEEP_BATCH)) + 1)
    grid = np.round((k[:, None] * np.array([1.0, 1.25, 1.5, 1.75])[None, :]).ravel())
    return np.unique(np.append(grid[grid <= MAX_SWEEP_BATCH], float(scenario_batch)))


def context_grid(max_context: float, scenario_context: float, points: int = SWEEP_POINTS) -> np.ndarray:
    """Contexts 128 … max(model max context, scenario context), log-spaced, plus the scenario's (when ≥ 128)."""
    top = float(max(max_context, scenario_context, 2 * MIN_SWEEP_CONTEXT))
    grid = np.round(np.geomspace(MIN_SWEEP_CONTEXT, top, points))
    if scenario_context >= MIN_SWEEP_CONTEXT:
        grid = np.append(grid, float(scenario_context))
    return np.unique(grid)


@functools.cache
def heat_batches(points: int = HEAT_POINTS) -> np.ndarray:
    """About `points` distinct integer batch sizes, log-spaced over 1 … 4096 (worked out once; read-only)."""
    n = points
    while len(grid := np.unique(np.round(np.geomspace(1, MAX_SWEEP_BATCH, n)))) < points:
        n += 1
    grid.setflags(write=False)
    return grid


def heat_contexts(max_context: float, scenario_context: float, points: int = HEAT_POINTS) -> np.ndarray:
    top = float(max(max_context, scenario_context, 2 * MIN_SWEEP_CONTEXT))
    return np.unique(np.round(np.geomspace(MIN_SWEEP_CONTEXT, top, points)))


# --------------------------------------------------------------------------------------------------- numbers


def cost_in(usd_per_1m_tokens: np.ndarray, unit: str) -> np.ndarray:
    """$/1M output tokens expressed as $/1M, $/1K or tokens per $."""
    v = np.asarray(usd_per_1m_tokens, dtype=float)
    if unit == "usd_1k":
        return v / 1e3
    if unit == "tokens_per_usd":
        with np.errstate(divide="ignore"):  # a $0 price: infinitely many tokens per dollar
            return 1e6 / v
    return v


def best_batch_index(tpot_s: np.ndarray, tps_per_gpu: np.ndarray, fits: np.ndarray, target_s: float) -> int | None:
    """Index of the highest tokens/s per GPU among points with TPOT ≤ target that fit in memory; None if none."""
    ok = (np.asarray(tpot_s) <= target_s) & np.asarray(fits, dtype=bool)
    if not ok.any():
        return None
    return int(np.argmax(np.where(ok, tps_per_gpu, -np.inf)))


def _shade_not_fitting(d: Decor, x: np.ndarray, fits: np.ndarray, curves: list[np.ndarray], tr: Translator) -> None:
    """Shade the x ranges that do not fit; label the first one at the top, middle or bottom, away from the curves."""
    ys = [np.asarray(c, dtype=float) for c in curves]
    good = [np.isfinite(y) & (y > 0) for y in ys]
    logs = np.concatenate([np.log10(y[g]) for y, g in zip(ys, good, strict=True)] + [np.zeros(0)])
    lo, hi = (float(logs.min()), float(logs.max())) if logs.size else (0.0, 0.0)
    for i, (x0, x1) in enumerate(not_fit_spans(x, fits)):
        d.vrect(x0, x1, fillcolor=NOT_FIT_FILL, opacity=0.08)
        if i:
            continue
        inside = [np.log10(y[g & (x >= x0) & (x <= x1)]) for y, g in zip(ys, good, strict=True)]
        heights = np.concatenate(inside) if inside else np.array([])
        heights = (heights - lo) / (hi - lo) if hi > lo else np.full_like(heights, 0.5)
        candidates = (0.96, 0.5, 0.04)
        text_y = max(candidates, key=lambda c: float(np.min(np.abs(heights - c))) if heights.size else 1.0)
        d.note(  # annotations on a log axis take log10 coordinates
            tr("ce_not_fit"),
            math.log10(math.sqrt(max(x0, 1e-9) * x1)),
            text_y,
            xref="x",
            font={"color": "#a00", "size": 11},
            bgcolor="rgba(255,255,255,0.6)",
        )


def _nearest(x: np.ndarray, value: float) -> int:
    return int(np.argmin(np.abs(np.asarray(x, dtype=float) - value)))


def _x_title(sweep: str, tr: Translator) -> str:
    return tr("axis_batch") if sweep == "batch" else tr("axis_context")


def _x_hover(sweep: str, tr: Translator) -> str:
    return f"{tr('ce_h_batch') if sweep == 'batch' else tr('ce_h_context')} %{{x:,.0f}}"


def _y_hover(unit: str, tr: Translator) -> str:
    """The plotted cost in `unit` (COST_UNITS), with what it is per: its own unit (a $/1K value had read 'per 1M')."""
    if unit == "tokens_per_usd":
        return f"%{{y:,.0f}} {tr('ce_unit_tokens_per_usd')}"
    # 3 significant figures, as the headline says it, and what it is per ('$1.761' had stood alone)
    return tr(f"ce_hover_{unit}", usd="$%{y:,.3r}")  # $9.10, not $9.1


# --------------------------------------------------------------------------------------------------- sweeps


def cost_curve(
    x: np.ndarray,
    usd_per_1m_decode: np.ndarray,
    usd_per_1m_with_prefill: np.ndarray,
    fits: np.ndarray,
    scenario_x: float,
    *,
    sweep: str = "batch",
    unit: str = "usd_1m",
    band_low: np.ndarray | None = None,
    band_high: np.ndarray | None = None,
    band_name: str = "",
    tr: Translator = EN,
) -> go.Figure:
    """Cost per output token against batch or context: decode alone, and per request with the prompt's prefill;
    the decode cost's 80% band shaded (band_low / band_high: $ per 1M output tokens, Estimate.usd_per_1M_tokens_low /
    _high; band_name from common.band_label, '' for none)."""
    fig = Figure()
    i = _nearest(x, scenario_x)
    if band_low is not None and band_high is not None:
        low, high = cost_in(band_low, unit), cost_in(band_high, unit)
        if unit == "tokens_per_usd":  # the low cost buys the most tokens: the band's high end
            low, high = high, low
        add_band(fig, x, low, high, colour=DECODE_COLOUR, name=band_name, x_hover=_x_hover(sweep, tr),
                 hover_value=_y_hover(unit, tr), tr=tr)  # fmt: skip
    for key, values, colour in (
        ("ce_line_decode", usd_per_1m_decode, DECODE_COLOUR),
        ("ce_line_prefill", usd_per_1m_with_prefill, PREFILL_COLOUR),
    ):
        y = cost_in(values, unit)
        name = tr(key)
        fit_line(
            fig,
            x,
            y,
            fits,
            mode="lines",
            name=name,
            line={"color": colour, "width": 2.5},
            hovertemplate=f"{name}<br>{_x_hover(sweep, tr)}<br>{_y_hover(unit, tr)}<extra></extra>",
        )
        fig.add_scatter(
            x=[x[i]],
            y=[y[i]],
            mode="markers",
            name=tr("ce_scenario"),
            legendgroup="scenario",
            showlegend=key == "ce_line_decode",
            marker={"symbol": "circle-open", "size": 13, "color": "#000", "line": {"width": 2}},
            hovertemplate=f"{tr('ce_scenario')}: {name}<br>{_x_hover(sweep, tr)}<br>{_y_hover(unit, tr)}<extra></extra>",
        )
    d = Decor()
    _shade_not_fitting(d, x, fits, [cost_in(usd_per_1m_decode, unit), cost_in(usd_per_1m_with_prefill, unit)], tr)
    per_usd = "_per_usd" if unit == "tokens_per_usd" else ""  # tokens per $ is not a cost per token: its own title
    title = tr(f"ce_cost_title{per_usd}_{sweep}")
    style(fig, title, _x_title(sweep, tr), tr(f"ce_axis_{unit}"), log_x=True, log_y=True)
    d.xaxis.update(power_of_two_axis(x, tokens=sweep == "context"))
    ticks = log_ticks(cost_in(usd_per_1m_decode, unit), cost_in(usd_per_1m_with_prefill, unit), pad=0.1)
    if ticks and unit != "tokens_per_usd":  # dollars on the axis: each tick says so
        ticks["ticktext"] = [f"${t}" for t in ticks["ticktext"]]
    d.yaxis.update(ticks)
    return _legend_below(d, fig)


def _legend_below(d: Decor, fig: go.Figure) -> go.Figure:
    """Apply the decor with the legend below the plot, as on each of the page's sweep charts (a band's long legend
    name had pushed a legend at the top into the title), a long entry on lines (at 900 px the widest band's had lost
    its closing bracket at the figure's edge)."""
    return d.apply(fig, **legend_placement(wrap_legend(fig), fig.layout.height or 440, side_max=0))


def cost_table(
    x: np.ndarray,
    usd_per_1m_decode: np.ndarray,
    usd_per_1m_with_prefill: np.ndarray,
    fits: np.ndarray,
    *,
    sweep: str = "batch",
) -> pd.DataFrame:
    d = np.asarray(usd_per_1m_decode, dtype=float)
    p = np.asarray(usd_per_1m_with_prefill, dtype=float)
    return pd.DataFrame(
        {
            "batch" if sweep == "batch" else "context_tokens": x,
            "usd_per_1m_output_tokens_decode": d,
            "usd_per_1m_output_tokens_with_prefill": p,
            "usd_per_1k_output_tokens_decode": d / 1e3,
            "output_tokens_per_usd_decode": 1e6 / d,
            "fits": np.asarray(fits, dtype=bool),
        }
    )


def throughput_curve(
    x: np.ndarray,
    tokens_per_s_per_gpu: np.ndarray,
    tokens_per_s_per_user: np.ndarray,
    fits: np.ndarray,
    scenario_x: float,
    *,
    sweep: str = "batch",
    colour: str = DECODE_COLOUR,
    band_low: np.ndarray | None = None,
    band_high: np.ndarray | None = None,
    band_name: str = "",
    device: str = "gpu",
    tr: Translator = EN,
) -> go.Figure:
    """Output tokens/s per GPU against batch or context (hover adds tokens/s per user), its 80% band shaded
    (band_low / band_high: Estimate.output_tokens_per_s_per_gpu_low / _high; band_name '' for none); `device`: the
    device kind (fmt.device_kind: 'gpu' or 'chip'), whose word the titles and hover use."""
    per_device = fmt.device_text("ce_u_tps_gpu", device, tr)  # 'tok/s per GPU' / 'tok/s per chip'
    fig = Figure()
    if band_low is not None and band_high is not None:
        add_band(fig, x, band_low, band_high, colour=colour, name=band_name, x_hover=_x_hover(sweep, tr),
                 hover_value=f"%{{y:,.4~g}} {per_device}", tr=tr)  # fmt: skip
    name = fmt.device_text("ce_line_tps_gpu", device, tr)
    fit_line(
        fig,
        x,
        tokens_per_s_per_gpu,
        fits,
        customdata=np.asarray(tokens_per_s_per_user, dtype=float),
        mode="lines",
        name=name,
        line={"color": colour, "width": 2.5},
        hovertemplate=f"{_x_hover(sweep, tr)}<br>%{{y:,.4~g}} {per_device}<br>"
        f"%{{customdata:,.3~g}} {tr('ce_u_tps_user')}<extra></extra>",
    )
    i = _nearest(x, scenario_x)
    fig.add_scatter(
        x=[x[i]],
        y=[np.asarray(tokens_per_s_per_gpu)[i]],
        mode="markers",
        name=tr("ce_scenario"),
        marker={"symbol": "circle-open", "size": 13, "color": "#000", "line": {"width": 2}},
        hovertemplate=f"{tr('ce_scenario')}<br>{_x_hover(sweep, tr)}<br>%{{y:,.4~g}} {per_device}<extra></extra>",
    )
    d = Decor()
    _shade_not_fitting(d, x, fits, [tokens_per_s_per_gpu], tr)
    style(
        fig,
        fmt.device_text("ce_tps_title", device, tr),
        _x_title(sweep, tr),
        fmt.device_text("ce_axis_tps_gpu", device, tr),
        log_x=True,
        log_y=True,
    )
    d.xaxis.update(power_of_two_axis(x, tokens=sweep == "context"))
    d.yaxis.update(log_ticks(tokens_per_s_per_gpu, pad=0.1, prefixed=True))
    return _legend_below(d, fig)


def throughput_table(
    x: np.ndarray, tokens_per_s_per_gpu: np.ndarray, tokens_per_s_per_user: np.ndarray, fits: np.ndarray, *, sweep: str
) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "batch" if sweep == "batch" else "context_tokens": x,
            "tokens_per_s_per_gpu": np.asarray(tokens_per_s_per_gpu, dtype=float),
            "tokens_per_s_per_user": np.asarray(tokens_per_s_per_user, dtype=float),
            "fits": np.asarray(fits, dtype=bool),
        }
    )


def energy_curve(
    x: np.ndarray,
    joules_per_token: np.ndarray,
    fits: np.ndarray,
    scenario_x: float,
    *,
    sweep: str = "batch",
    tr: Translator = EN,
    estimated: bool = False,
) -> go.Figure:
    """Energy per output token (J) against batch or context (hover adds tokens per joule); `estimated`: the chip's
    board power is an estimate (Hardware.estimated), said in the title."""
    j = np.asarray(joules_per_token, dtype=float)
    fig = Figure()
    fit_line(
        fig,
        x,
        j,
        fits,
        customdata=1.0 / j,
        mode="lines",
        name=tr("ce_line_energy"),
        line={"color": ENERGY_COLOUR, "width": 2.5},
        hovertemplate=f"{_x_hover(sweep, tr)}<br>%{{y:,.3~g}} {tr('ce_unit_j_per_token')}<br>"
        f"%{{customdata:,.3~g}} {tr('ce_unit_tokens_per_j')}<extra></extra>",
    )
    i = _nearest(x, scenario_x)
    fig.add_scatter(
        x=[x[i]],
        y=[j[i]],
        mode="markers",
        name=tr("ce_scenario"),
        marker={"symbol": "circle-open", "size": 13, "color": "#000", "line": {"width": 2}},
        hovertemplate=f"{tr('ce_scenario')}<br>{_x_hover(sweep, tr)}<br>%{{y:,.3~g}} {tr('ce_unit_j_per_token')}"
        "<extra></extra>",
    )
    d = Decor()
    _shade_not_fitting(d, x, fits, [j], tr)
    title = tr("tdp_estimate_title", title=tr("ce_energy_title")) if estimated else tr("ce_energy_title")
    style(fig, title, _x_title(sweep, tr), tr("ce_axis_j_per_token"), log_x=True, log_y=True)
    d.xaxis.update(power_of_two_axis(x, tokens=sweep == "context"))
    d.yaxis.update(log_ticks(j, pad=0.1))
    return _legend_below(d, fig)


def energy_table(
    x: np.ndarray, joules_per_token: np.ndarray, fits: np.ndarray, *, sweep: str, estimated: bool = False
) -> pd.DataFrame:
    """The energy curve's CSV; board_power_estimated: the board power every row rests on is an estimate."""
    j = np.asarray(joules_per_token, dtype=float)
    return pd.DataFrame(
        {
            "batch" if sweep == "batch" else "context_tokens": x,
            "joules_per_token": j,
            "tokens_per_joule": 1.0 / j,
            "fits": np.asarray(fits, dtype=bool),
            "board_power_estimated": estimated,
        }
    )


# --------------------------------------------------------------------------------------------------- frontier


def frontier(
    batch: np.ndarray,
    tpot_s: np.ndarray,
    tokens_per_s_per_gpu: np.ndarray,
    fits: np.ndarray,
    target_s: float,
    target_label: str,
    scenario_batch: float,
    *,
    colour: str = DECODE_COLOUR,
    device: str = "gpu",
    tr: Translator = EN,
) -> go.Figure:
    """Throughput-latency frontier, one point per batch, in the one orientation every throughput-latency curve of the
    app has, InferenceX's (as on the Serving frontier): x = tokens/s per user, y = tokens/s per GPU. Points that do not
    fit are grey; the TPOT target (a vertical line at 1 / target tokens/s per user) is drawn, labelled above the plot
    area, and the best batch that meets it (highest tokens/s per GPU, fits) is starred."""
    b = np.asarray(batch, dtype=float)
    tpot_ms = np.asarray(tpot_s, dtype=float) * 1e3
    gpu = np.asarray(tokens_per_s_per_gpu, dtype=float)
    user = 1e3 / tpot_ms
    ok = np.asarray(fits, dtype=bool)
    xs, ys = user, gpu
    x_title, y_title = tr("ce_axis_tps_user"), fmt.device_text("ce_axis_tps_gpu", device, tr)
    per_device = fmt.device_text("ce_u_tps_gpu", device, tr)  # 'tok/s per GPU' / 'tok/s per chip'
    custom = np.stack([b, tpot_ms, gpu, user], axis=-1)
    hover = (
        f"{tr('ce_h_batch')} %{{customdata[0]:,.0f}}<br>TPOT %{{customdata[1]:,.3~g}} ms<br>"
        f"%{{customdata[2]:,.4~g}} {per_device}<br>%{{customdata[3]:,.3~g}} {tr('ce_u_tps_user')}"
    )
    fig = Figure()
    fig.add_scatter(
        x=np.where(ok, xs, np.nan),
        y=np.where(ok, ys, np.nan),
        customdata=custom,
        mode="lines+markers",
        name=tr("ce_frontier_fits"),
        line={"color": colour, "width": 1.5},
        marker={"color": colour, "size": 7},
        hovertemplate=hover + "<extra></extra>",
    )
    if (~ok).any():
        fig.add_scatter(
            x=xs[~ok],
            y=ys[~ok],
            customdata=custom[~ok],
            mode="markers",
            name=tr("ce_frontier_not_fit"),
            marker={"color": NOT_FIT_POINT, "size": 7, "symbol": "x"},
            hovertemplate=hover + f"<br>{tr('ce_not_fit')}<extra></extra>",
        )
    i = _nearest(b, scenario_batch)
    fig.add_scatter(
        x=[xs[i]],
        y=[ys[i]],
        customdata=custom[i : i + 1],
        mode="markers",
        name=tr("ce_scenario_batch", b=int(b[i])),
        marker={"symbol": "circle-open", "size": 16, "color": "#000", "line": {"width": 2}},
        hovertemplate=f"{tr('ce_scenario')}<br>" + hover + "<extra></extra>",
    )
    # the target: TPOT ≤ target is right of 1/target tokens/s per user; its label sits above the plot area, where no
    # marker can run through it; annotations on log axes take log10 coordinates
    d = Decor()
    label_font = {"color": TARGET_COLOUR, "size": 12}
    d.vline(1.0 / target_s, line={"dash": "dash", "color": TARGET_COLOUR})
    best = best_batch_index(tpot_s, gpu, ok, target_s)
    if best is not None:
        fig.add_scatter(
            x=[xs[best]],
            y=[ys[best]],
            customdata=custom[best : best + 1],
            mode="markers",
            name=tr("ce_best", b=int(b[best])),
            marker={"symbol": "star", "size": 20, "color": "#ffd700", "line": {"color": "#000", "width": 1}},
            hovertemplate=f"{tr('ce_best', b=int(b[best]))}<br>" + hover + "<extra></extra>",
        )
    else:
        d.note(
            tr("ce_best_none", target=target_label),
            0.5,
            0.5,
            font={"color": "#a00", "size": 13},
            bgcolor="rgba(255,255,255,0.85)",
        )
    style(fig, tr("ce_frontier_title"), x_title, y_title, log_x=True, log_y=True)
    # focus on the points that fit (and the target): the ones that don't can run to seconds per token
    focus = ok.copy() if ok.any() else np.ones_like(ok)
    focus[i] = True  # always show the scenario's own point
    target_xy = (np.array([1 / target_s]), [])
    for axis, data, extra in ((d.xaxis, xs, target_xy[0]), (d.yaxis, ys, target_xy[1])):
        v = np.concatenate([data[focus], np.asarray(extra, dtype=float)])
        v = v[np.isfinite(v) & (v > 0)]
        if not v.size:
            continue
        lo, hi = np.log10(v.min()), np.log10(v.max())
        pad = max(0.08 * (hi - lo), 0.05)
        ticks = nice_log_ticks(10 ** (lo - pad), 10 ** (hi + pad))
        axis.update(range=[lo - pad, hi + pad], tickvals=ticks, ticktext=tick_labels(ticks, prefixed=True))
    # the label starts at the line where the line is in the plot's left third, ends there in its right third (centred
    # on a line near the left edge, it ran off the chart at 900 px: '天 50 ms'), else is centred on it
    at = math.log10(1.0 / target_s)
    x0, x1 = d.xaxis.get("range", (at - 1, at + 1))
    side = (at - x0) / (x1 - x0) if x1 > x0 else 0.5
    anchor = "left" if side < 1 / 3 else "right" if side > 2 / 3 else "center"
    d.note(target_label, at, 1.0, xref="x", xanchor=anchor, yanchor="bottom", font=label_font)
    # the legend pinned under the axis title, as the page's other charts' (placed at a fraction of the plot under a
    # fixed 140 px margin, it left a wide gap under the ticks at 1400 px)
    return d.apply(fig, **legend_placement(fig, 440, side_max=0))


def frontier_table(
    batch: np.ndarray, tpot_s: np.ndarray, tokens_per_s_per_gpu: np.ndarray, fits: np.ndarray, target_s: float
) -> pd.DataFrame:
    tpot = np.asarray(tpot_s, dtype=float)
    ok = np.asarray(fits, dtype=bool)
    return pd.DataFrame(
        {
            "batch": np.asarray(batch, dtype=float),
            "tpot_ms": tpot * 1e3,
            "tokens_per_s_per_user": 1.0 / tpot,
            "tokens_per_s_per_gpu": np.asarray(tokens_per_s_per_gpu, dtype=float),
            "fits": ok,
            "meets_target": (tpot <= target_s) & ok,
        }
    )


# --------------------------------------------------------------------------------------------------- heat map


def hover_rounded(values: np.ndarray, digits: int) -> np.ndarray:
    """Values rounded as a hover prints them with d3's '.<digits>~g': JavaScript's toPrecision, the nearest number
    of `digits` significant digits to the value's exact binary value, a tie away from zero."""
    context = decimal.Context(prec=digits, rounding=decimal.ROUND_HALF_UP)
    v = np.asarray(values, dtype=float)
    return np.array([float(context.create_decimal_from_float(x)) for x in v.ravel().tolist()]).reshape(v.shape)


def _whole_below_2_24(a: np.ndarray) -> bool:
    """Every value a whole number a 4-byte float holds exactly."""
    return bool(np.all((a == np.round(a)) & (np.abs(a) < 2**24)))


def _float32_range(a: np.ndarray) -> bool:
    """Every finite value within a 4-byte float's normal range (or zero): its 7 digits are kept."""
    m = np.abs(a[np.isfinite(a)])
    info = np.finfo(np.float32)
    return bool(np.all((m == 0) | ((m >= info.tiny) & (m <= info.max))))


def heatmap(
    batches: np.ndarray,
    contexts: np.ndarray,
    values: np.ndarray,
    fits: np.ndarray,
    metric: str,
    scenario_batch: float,
    scenario_context: float,
    *,
    device: str = "gpu",
    tr: Translator = EN,
    estimated: bool = False,
) -> go.Figure:
    """A metric over context (x) × batch (y), the orientation of every batch × context heat map (Breakdown's too),
    log colour scale; cells that do not fit are grey; scenario marked. values and fits are (batch, context) arrays.
    `estimated`: the values rest on a board power that is an estimate, said in the title."""
    v = np.asarray(values, dtype=float)  # (batch, context): rows are y
    ok = np.asarray(fits, dtype=bool)
    shown = np.where(ok & np.isfinite(v) & (v > 0), v, np.nan)
    b_grid, c_grid = np.meshgrid(batches, contexts, indexing="ij")
    cells = np.stack([b_grid, c_grid], axis=-1)  # batch, context: the grey cells' hover
    custom = np.concatenate([cells, v[..., None]], axis=-1)  # and the value: the coloured cells' hover
    hover_v = hover_rounded(v, HEAT_HOVER_DIGITS)
    if _whole_below_2_24(cells) and _float32_range(hover_v):
        # sent as 4-byte floats (the payload's bytes halved): batch and context are whole numbers below 2^24 and the
        # value is rounded to the digits its hover prints, so every hover reads as with 8-byte floats
        custom = np.concatenate([cells, hover_v[..., None]], axis=-1).astype(np.float32)
        cells = cells.astype(np.float32)
        z_dtype = np.float32  # the colour: log10 of the value to 7 digits
    else:
        z_dtype = float
    unit = fmt.device_text(f"ce_unit_{metric}", device, tr)
    fig = Figure()
    x_edges, y_edges = log_edges(contexts), log_edges(batches)
    if (~ok).any():
        fig.add_heatmap(
            x=x_edges,
            y=y_edges,
            z=np.where(ok, np.nan, 1.0).astype(z_dtype),
            customdata=cells,  # its hover shows batch and context, not the value
            colorscale=[[0, "#d9d9d9"], [1, "#d9d9d9"]],
            showscale=False,
            name=tr("ce_not_fit"),
            hovertemplate=f"{tr('ce_h_batch')} %{{customdata[0]:,.0f}}<br>{tr('ce_h_context')} %{{customdata[1]:,.0f}}"
            f"<br>{tr('ce_not_fit')}<extra></extra>",
            hoverongaps=False,  # its gaps are the coloured cells: their own hover
        )
    finite = shown[np.isfinite(shown)]
    if finite.size:
        lo, hi = float(finite.min()), float(finite.max())
        ticks = nice_log_ticks(lo, hi) if hi > lo else [lo]
        fig.add_heatmap(
            x=x_edges,
            y=y_edges,
            z=np.log10(shown).astype(z_dtype),
            customdata=custom,
            colorscale=colorscale("Viridis_r" if metric in ("usd_1m", "j_per_token") else "Viridis"),
            zmin=math.log10(lo),
            zmax=math.log10(hi) if hi > lo else math.log10(lo) + 1e-9,
            colorbar={
                "title": {"text": unit, "side": "right"},
                "tickvals": [math.log10(t) for t in ticks],
                "ticktext": [("$" if metric == "usd_1m" else "") + tick_label(t) for t in ticks],
            },
            name=fmt.device_text(f"ce_heat_{metric}", device, tr),
            hovertemplate=f"{tr('ce_h_batch')} %{{customdata[0]:,.0f}}<br>{tr('ce_h_context')} %{{customdata[1]:,.0f}}"
            f"<br>%{{customdata[2]:,.{HEAT_HOVER_DIGITS}~g}} {unit}<extra></extra>",
            # its gaps are the cells that do not fit: the grey trace's hover says so (Plotly hovers on gaps by
            # default, and a grey cell had read '2.684 $/1M output tokens' with no word that it does not fit)
            hoverongaps=False,
        )
    else:  # every cell grey: say why and what would help, not a grey square with no scale (helper review)
        fig.add_annotation(text=fmt.device_text("ce_heat_nothing_fits", device, tr), xref="paper", yref="paper",
                           x=0.5, y=0.92, showarrow=False, font={"size": 13, "color": "#a00"},
                           bgcolor="rgba(255,255,255,0.9)")  # fmt: skip
    if scenario_context >= contexts[0]:
        fig.add_scatter(
            x=[scenario_context],
            y=[scenario_batch],
            mode="markers",
            name=tr("ce_scenario"),
            marker={"symbol": "x-thin-open", "size": 16, "color": "#ff1493", "line": {"width": 3}},
            cliponaxis=False,
            hovertemplate=f"{tr('ce_scenario')}<br>{tr('ce_h_batch')} %{{y:,.0f}}<br>{tr('ce_h_context')} %{{x:,.0f}}"
            "<extra></extra>",
        )
    title = tr("ce_heat_title", metric=fmt.device_text(f"ce_heat_{metric}", device, tr))
    title = title[:1].upper() + title[1:]  # the metric as the selectbox words it ('Heat map of output tokens/s...')
    style(
        fig,
        tr("tdp_estimate_title", title=title) if estimated else title,
        tr("axis_context"),
        tr("axis_batch"),
    )
    return fig.update_layout(
        height=520,
        plot_bgcolor="#ffffff",
        xaxis={
            "type": "log",
            "range": [math.log10(x_edges[0]), math.log10(x_edges[-1])],
            **power_of_two_axis(contexts, tokens=True),
        },
        yaxis={
            "type": "log",
            "range": [math.log10(y_edges[0]), math.log10(y_edges[-1])],
            **power_of_two_axis(batches),
        },
    )


def heatmap_table(
    batches: np.ndarray,
    contexts: np.ndarray,
    values: np.ndarray,
    fits: np.ndarray,
    metric: str,
    *,
    estimated: bool = False,
) -> pd.DataFrame:
    """The heat map's CSV; with J per token, board_power_estimated: whether the board power it rests on is an
    estimate."""
    b, c = np.meshgrid(batches, contexts, indexing="ij")
    column = {
        "usd_1m": "usd_per_1m_output_tokens",
        "tps_gpu": "tokens_per_s_per_gpu",
        "j_per_token": "joules_per_token",
    }
    return pd.DataFrame(
        {
            "batch": b.ravel(),
            "context_tokens": c.ravel(),
            column[metric]: np.asarray(values, dtype=float).ravel(),
            "fits": np.asarray(fits, dtype=bool).ravel(),
            **({"board_power_estimated": estimated} if metric == "j_per_token" else {}),
        }
    )


def board_power_w(tdp_w: float | None, num_gpus: float) -> float:
    """Power of the deployment as the energy figures assume it: board power (TDP) × GPUs; nan when unknown."""
    return float("nan") if tdp_w is None else float(tdp_w) * float(num_gpus)
