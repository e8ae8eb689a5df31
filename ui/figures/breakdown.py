"""TPOT breakdown figures: stacked decomposition bars against batch and against context, a batch x context heat map,
and the current scenario's decomposition table. Display units: ms, tokens/s, USD. Pure: no Streamlit."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from tpot_model import BUCKETS, Estimate

from .. import fmt
from ..i18n import EN, Translator
from .common import (
    BUCKET_COLOURS,
    COLOURBAR_FINER,
    NARROW_PLOT_PX,
    Figure,
    band_label,
    colorscale,
    legend_placement,
    log_edges,
    nice_log_ticks,
    style,
    tick_label,
    wrap_label,
)

BATCH_SWEEP = tuple(2**i for i in range(11))  # 1, 2, 4 ... 1024 as bar categories
HEAT_BATCH_MAX = 4096
HEAT_CONTEXT_MIN = 128  # log axis: context 0 is drawn at this edge
HEAT_POINTS = 48
HEATMAP_METRICS = ("tpot", "tokens_per_s_per_gpu", "usd_per_1M_tokens", "fits")
IDEAL_COLOUR = "#111111"
NOFIT_OPACITY = 0.45
NOFIT_PATTERN = {"fillmode": "overlay", "fgcolor": "#ffffff", "size": 7, "solidity": 0.3}
NOFIT_GREY = "rgba(215, 215, 215, 0.85)"  # a light veil: the colour underneath stays faintly visible
FIT_COLOURS = ("#c9c9c9", "#2ca02c")  # doesn't fit, fits


# --------------------------------------------------------------------------------------------------- sweep axes


def batch_sweep(current: int) -> np.ndarray:
    """Bar categories against batch: 1, 2, 4 ... 1024 plus the scenario's own batch."""
    return np.array(sorted({*BATCH_SWEEP, int(current)}), dtype=float)


def context_sweep(current: int, max_context: int) -> np.ndarray:
    """Bar categories against context: 0, 1K, 2K ... up to the model's maximum (at least the scenario's), plus both."""
    top = max(int(max_context), int(current))
    values = {0, int(current), int(max_context)}
    k = 1024
    while k <= top:
        values.add(k)
        k *= 2
    return np.array(sorted(values), dtype=float)


def heatmap_axes(max_context: int, current_context: int) -> tuple[np.ndarray, np.ndarray]:
    """(batch, context) grid values, log-spaced: batch 1..4096, context 128..max(model maximum, scenario)."""
    batch = np.unique(np.round(np.geomspace(1, HEAT_BATCH_MAX, HEAT_POINTS)))
    top = max(int(max_context), int(current_context), 2 * HEAT_CONTEXT_MIN)
    context = np.unique(np.round(np.geomspace(HEAT_CONTEXT_MIN, top, HEAT_POINTS)))
    return batch, context


def _labels(values: np.ndarray, axis: str) -> list[str]:
    return [fmt.tokens(v) if axis == "context" else f"{int(v):,}" for v in values]


def price_known(est: Estimate) -> bool:
    return math.isfinite(est.price_usd_per_gpu_hour)


def cost_notice(est: Estimate, tr: Translator = EN) -> str | None:
    """Why the cost map cannot be drawn (no price, or a price of zero on a log colour scale), else None."""
    if not price_known(est):  # the pages' notice: the bases that price the chip, or none in any basis
        return tr.sentences(
            [tr("breakdown_no_price"), fmt.no_price_text(est.price, est.hardware, fmt.device_tr(est.hardware, tr))]
        )
    if est.price_usd_per_gpu_hour <= 0:
        return tr("breakdown_zero_price")
    return None


# --------------------------------------------------------------------------------------------------- stacked bars


CUT_ABOVE = 4.0  # a bar that does not fit, this many times the tallest that does: cut at the axis's top
CUT_FONT_PX = 10  # a cut bar's total: '4,723' beside '2,364' over 30 px bars (900 px, the sidebar open)
CUT_GAP_PX = 4  # the least space between two cut bars' totals side by side
CUT_CHAR_PX = 6.0  # a digit of CUT_FONT_PX, generously (a comma counted as one)
HEADROOM = 1.25  # the axis's top over the tallest label (or the cut): room for the labels over the whiskers


def cut_label(ms: float, *, raised: bool = False) -> str:
    """A cut bar's total, over the plot's frame: its number, and under it an arrow up from the bar (on lines of their
    own, each as narrow as a 900 px page's bar); `raised`: the number a line higher, the arrow still on the bar."""
    return f"{fmt.number(ms)}<br>{' <br>' if raised else ''}↑"


def cut_labels_raised(tpot_ms: np.ndarray, cut: np.ndarray) -> dict[int, bool]:
    """Each cut bar's index: whether its total is raised a line over its neighbour's, where side by side the two
    would meet in the narrowest frame (NARROW_PLOT_PX shared by the bars: '1,1862,3644,723' over 30 px bars)."""
    step_px = NARROW_PLOT_PX / len(tpot_ms)  # between two bars' centres
    raised: dict[int, bool] = {}
    for i in map(int, np.flatnonzero(cut)):
        prev = raised.get(i - 1)
        if prev is None:
            raised[i] = False
            continue
        widths = [fmt.text_px(fmt.number(float(tpot_ms[j])), CUT_CHAR_PX) for j in (i - 1, i)]
        raised[i] = not prev and sum(widths) / 2 + CUT_GAP_PX > step_px
    return raised


def current_tick(label: str, tr: Translator = EN) -> str:
    """The current scenario's tick label: its value, and under it what it is."""
    return f"{label}<br>▲ {tr('breakdown_current')}"


def sweep_bars(
    est: Estimate, ideal: Estimate | None, x_values: np.ndarray, *, axis: str, current: float, tr: Translator = EN
) -> go.Figure:
    """Stacked TPOT buckets (ms) per sweep value, the ideal bound as a line, non-fitting bars hatched and faded,
    the current scenario's bar outlined, the estimate's 80% band as an error bar on each total. `est` and `ideal` are one vectorised call over `x_values`."""
    labels = _labels(x_values, axis)
    shape = np.shape(x_values)
    tpot = np.broadcast_to(est.tpot_s, shape) * 1e3
    fits = np.broadcast_to(est.fits, shape)
    here = np.asarray(x_values) == current
    outline = np.where(here, 2.0, 0.0)
    fig = Figure()
    # per bucket: one trace for the bars that fit and one (hatched, faded) for those that don't, so that the legend
    # shows each bucket in its plain colour; missing values (None) draw nothing
    for key in BUCKETS:
        ms_values = np.broadcast_to(est.breakdown_s[key], shape) * 1e3
        name = tr(f"bucket_{key}")
        share = [tr("breakdown_share", pct=fmt.pct(v / t)) for v, t in zip(ms_values, tpot, strict=True)]
        for fit_part in (True, False):
            mask = fits == fit_part
            if not mask.any():
                continue
            fig.add_bar(
                x=labels,
                y=[
                    float(v) if m else None for v, m in zip(ms_values, mask, strict=True)
                ],  # None, not NaN: NaN breaks the stack
                name=name,
                legendgroup=key,
                showlegend=fit_part or fits.all() or not fits.any(),
                marker={
                    "color": BUCKET_COLOURS[key],
                    "opacity": 1.0 if fit_part else NOFIT_OPACITY,
                    "pattern": {"shape": "" if fit_part else "/", **NOFIT_PATTERN},
                    "line": {"color": "#000000", "width": outline},
                },
                customdata=share,
                hovertemplate=f"{name}: %{{y:,.3~r}} ms (%{{customdata}})<extra></extra>",
            )
    if not fits.all():
        fig.add_bar(
            x=[labels[0]],
            y=[0],
            name=tr("breakdown_doesnt_fit"),
            marker={
                "color": "#bbbbbb",
                "opacity": NOFIT_OPACITY,
                "pattern": {"shape": "/", **NOFIT_PATTERN, "fgcolor": "#333333"},
            },
            hoverinfo="skip",
        )
    fit_text = [tr("breakdown_fits_yes") if f else tr("breakdown_fits_no") for f in fits]
    # the estimate's 80% band as an error bar on each total (none for the ideal profile), named in a legend key
    band = band_label(est.band, tr)
    low, high = np.broadcast_to(est.tpot_low_s, shape) * 1e3, np.broadcast_to(est.tpot_high_s, shape) * 1e3
    has_band = bool(band) and bool(np.isfinite(high).any())
    # the axis for the bars that fit: one that does not, many times taller (344 ms over 13-31 ms), had left them 5 %
    # of the height; it is cut at the axis's top (no whisker through its label there, an arrow before it)
    label_y = np.fmax(high, tpot) if has_band else tpot  # each total's label above its whisker, out of the hover
    ideal_ms = np.broadcast_to(ideal.tpot_s, shape) * 1e3 if ideal is not None else np.zeros(shape)
    top = max(float(np.nanmax(label_y)), float(ideal_ms.max()))
    fit_top = max(float(np.nanmax(np.where(fits, label_y, 0.0))), float(np.max(np.where(fits, ideal_ms, 0.0))))
    if fits.any() and top > CUT_ABOVE * fit_top:
        top = fit_top * 1.6
    y_top = top * HEADROOM  # the axis's top: room for the labels above the whiskers
    over = label_y > top  # past the cut: no whisker (it would cross the label), the label at the bar's top
    cut = tpot > y_top  # the bar runs past the plot's top: its label over the plot's frame, after an arrow
    fig.add_scatter(
        x=labels,
        y=tpot,
        error_y={
            "type": "data",
            "array": np.where(over, np.nan, high - tpot),
            "arrayminus": np.where(over, np.nan, tpot - low),
            "visible": has_band,
            "color": "#333",
            "thickness": 1.5,
            "width": 5,
        },  # fmt: skip
        mode="markers",  # an invisible marker, not text mode: a unified hover shows text mode's "Aa" symbol
        marker={"size": 1, "opacity": 0},
        showlegend=False,
        customdata=fit_text,
        hovertemplate=tr("breakdown_total_hover", ms="%{y:,.3~r} ms") + " · %{customdata}<extra></extra>",
    )
    text = ["" if c else fmt.number(v) for v, c in zip(tpot, cut, strict=True)]
    label_y = np.where(over, tpot, label_y)
    # not clipped: a label at the top of a bar just under the plot's top reaches over it
    fig.add_scatter(x=labels, y=np.where(cut, np.nan, label_y), mode="text", text=text, textposition="top center",
                    textfont={"size": 11, "color": "#333"}, cliponaxis=False, showlegend=False,
                    hoverinfo="skip")  # fmt: skip
    # a cut bar's total over the plot's frame, the arrow under it on a line of its own: at 900 px one line each
    # ('↑ 88.9') had run into its neighbours' ('↑ 88.9↑ 174↑ 344'), and inside the plot the ideal bound's line,
    # rising past the cut, had crossed them; over the frame no trace reaches them (traces are clipped at it)
    for i, raised in cut_labels_raised(tpot, cut).items():
        fig.add_annotation(x=i, y=1, xref="x", yref="y domain", yanchor="bottom", showarrow=False,
                           text=cut_label(float(tpot[i]), raised=raised),
                           font={"size": CUT_FONT_PX, "color": "#333"})  # fmt: skip
    if ideal is not None:
        fig.add_scatter(
            x=labels,
            y=ideal_ms,
            mode="lines+markers",
            line={"color": IDEAL_COLOUR, "width": 2},
            marker={"size": 7, "symbol": "diamond"},
            name=tr("label_ideal"),
            hovertemplate=f"{tr('label_ideal')}: %{{y:,.3~r}} ms<extra></extra>",
        )
    if has_band:  # the key's short name: what the band rests on is in its hover (a long key set one key a row)
        fig.add_scatter(x=[labels[0]], y=[None], mode="markers", name=tr("band_key"), hovertemplate=band,
                        marker={"symbol": "line-ns-open", "size": 12, "color": "#333"})  # fmt: skip
    if axis == "batch":
        title = tr("breakdown_batch_title", context=fmt.tokens(float(np.ravel(est.scenario.context_tokens)[0])))
        x_title = tr("axis_batch")
    else:
        title = tr("breakdown_context_title", batch=fmt.integer(np.ravel(est.scenario.batch)[0]))  # 'batch 4,096'
        x_title = tr("axis_context")
    style(fig, title, x_title, tr("axis_tpot_ms"))
    # the current scenario named under its tick, on a line of its own: over its bar ('▼ current') it had run into a
    # neighbour's total at 900 px ('▼ current29.7', '▼ 目前情境' on '31.1'); under the axis no total is near it.
    # The ticks' angle fixed: the wider word would have turned every tick label
    fig.update_xaxes(
        type="category",
        unifiedhovertitle={"text": f"{x_title}{tr('label_colon')}%{{x}}"},  # the hover names its x
        tickmode="array",
        tickvals=labels,
        ticktext=[current_tick(lab, tr) if h else lab for lab, h in zip(labels, here, strict=True)],
        tickangle=0,
    )
    fig.update_yaxes(range=[0, y_top], rangemode="tozero")
    fig.update_layout(barmode="stack", hovermode="x unified", bargap=0.25, legend_traceorder="normal")
    # up to eight keys: in rows under the plot, not over its title nor beside it (a 900 px frame keeps the bars wide)
    placed = legend_placement(fig, 460, side_max=0)
    fig.update_layout(**(placed | {"margin": {"t": 100, **placed["margin"]}}))
    return fig


def sweep_data(est: Estimate, ideal: Estimate | None, x_values: np.ndarray, *, axis: str) -> pd.DataFrame:
    """The bars' data for the CSV download: one row per sweep value, buckets and totals in ms."""
    shape = np.shape(x_values)
    s = est.scenario
    df = pd.DataFrame(
        {
            "batch": np.broadcast_to(s.batch, shape).astype(int),
            "context_tokens": np.broadcast_to(s.context_tokens, shape).astype(int),
        }
    )
    for key in BUCKETS:
        df[f"{key}_ms"] = np.broadcast_to(est.breakdown_s[key], shape) * 1e3
    df["tpot_ms"] = np.broadcast_to(est.tpot_s, shape) * 1e3
    if ideal is not None:
        df["ideal_tpot_ms"] = np.broadcast_to(ideal.tpot_s, shape) * 1e3
    df["fits"] = np.broadcast_to(est.fits, shape)
    df["memory_per_gpu_gb"] = np.broadcast_to(est.memory_per_gpu_bytes, shape) / 1e9
    return df


# --------------------------------------------------------------------------------------------------- heat map


def _metric_values(est: Estimate, metric: str) -> np.ndarray:
    if metric == "tpot":
        return est.tpot_s * 1e3
    if metric == "tokens_per_s_per_gpu":
        return np.asarray(est.tokens_per_s_per_gpu)
    if metric == "usd_per_1M_tokens":
        return np.asarray(est.usd_per_1M_tokens)
    if metric == "fits":
        return np.asarray(est.fits, dtype=float)
    raise ValueError(f"unknown heat-map metric {metric!r} (known: {', '.join(HEATMAP_METRICS)})")


def heatmap(
    est: Estimate, metric: str, *, current_batch: float, current_context: float, tr: Translator = EN
) -> go.Figure:
    """Heat map of a metric over batch (rows) x context (columns) from one vectorised estimate, log colour scale,
    the region that doesn't fit veiled in grey with a contour at the fit boundary, and the scenario marked."""
    batch = np.ravel(est.scenario.batch).astype(float)
    context = np.ravel(est.scenario.context_tokens).astype(float)
    shape = (batch.size, context.size)
    fits = np.broadcast_to(est.fits, shape)
    values = np.broadcast_to(_metric_values(est, metric), shape)
    label = tr(f"breakdown_metric_{metric}")
    fit_text = np.where(fits, tr("breakdown_fits_yes"), tr("breakdown_fits_no"))
    customdata = np.dstack([np.broadcast_to(batch[:, None], shape), np.broadcast_to(context[None, :], shape), values])
    head = (
        f"{tr('breakdown_hover_batch')} %{{customdata[0]:,}}<br>"
        f"{tr('breakdown_hover_context')} %{{customdata[1]:,}} {tr('breakdown_hover_tokens')}<br>"
    )
    fig = Figure()
    x_edges, y_edges = log_edges(context), log_edges(batch)
    if metric == "fits":
        fig.add_heatmap(
            x=x_edges,
            y=y_edges,
            z=values,
            zmin=0,
            zmax=1,
            colorscale=[[0, FIT_COLOURS[0]], [0.5, FIT_COLOURS[0]], [0.5, FIT_COLOURS[1]], [1, FIT_COLOURS[1]]],
            colorbar={
                "tickvals": [0.25, 0.75],
                "ticktext": [tr("breakdown_nofit_legend"), tr("breakdown_fits_legend")],
                "len": 0.5,
            },
            customdata=customdata,
            text=fit_text,
            hovertemplate=head + "%{text}<extra></extra>",
        )
    else:
        usable = np.isfinite(values) & (values > 0)
        # colour range from the cells that fit (the veiled rest saturates), or from all when none fits
        finite = values[usable & fits] if (usable & fits).any() else values[usable]
        lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (1.0, 10.0)
        hi = max(hi, lo * 1.01)
        ticks = np.array(nice_log_ticks(lo, hi, finer=COLOURBAR_FINER, widen=False))
        with np.errstate(divide="ignore", invalid="ignore"):
            z = np.log10(np.where(values > 0, values, np.nan))
        fig.add_heatmap(
            x=x_edges,
            y=y_edges,
            z=z,
            zmin=math.log10(lo),
            zmax=math.log10(hi),
            colorscale=colorscale("Viridis"),
            reversescale=metric != "tokens_per_s_per_gpu",  # yellow = better: low TPOT, low cost, high tokens/s
            colorbar={
                "title": {"text": label, "side": "right"},
                "tickvals": np.log10(ticks),
                "ticktext": [tick_label(t) for t in ticks],
            },
            customdata=customdata,
            text=fit_text,
            hovertemplate=head + f"{label}: %{{customdata[2]:,.3~r}}<br>%{{text}}<extra></extra>",
        )
        if not fits.all():
            fig.add_heatmap(
                x=x_edges,
                y=y_edges,
                z=np.where(fits, np.nan, 1.0),
                zmin=0,
                zmax=1,
                colorscale=[[0, NOFIT_GREY], [1, NOFIT_GREY]],
                showscale=False,
                hoverinfo="skip",
            )
    if fits.any() and not fits.all():
        fig.add_contour(
            x=context,
            y=batch,
            z=fits.astype(float),
            autocontour=False,
            contours={"start": 0.5, "end": 0.5, "size": 1, "coloring": "none"},
            line={"color": "#000000", "width": 2, "smoothing": 0},
            showscale=False,
            showlegend=False,
            hoverinfo="skip",
        )
    if metric != "fits" and not fits.all():
        fig.add_scatter(
            x=[None],
            y=[None],
            mode="markers",
            marker={"symbol": "square", "size": 14, "color": NOFIT_GREY, "line": {"color": "#000", "width": 1.5}},
            name=tr("breakdown_doesnt_fit"),
        )
    if not fits.any():
        fig.add_annotation(
            x=0.5,
            y=0.92,
            xref="paper",
            yref="paper",
            # on lines a ~250 px map holds (900 px, the sidebar open: one line ran off both edges)
            text=wrap_label(
                tr("breakdown_nothing_fits", gpus=int(np.ravel(est.scenario.num_gpus)[0]), hw=est.hardware.name), 30
            ),
            showarrow=False,
            font={"size": 14, "color": "#a00"},
            bgcolor="rgba(255,255,255,0.9)",
        )
    cur_x = max(float(current_context), HEAT_CONTEXT_MIN)
    fig.add_scatter(
        x=[cur_x],
        y=[float(current_batch)],
        mode="markers",
        marker={"symbol": "star", "size": 18, "color": "#ffffff", "line": {"color": "#000000", "width": 2}},
        cliponaxis=False,  # the scenario may sit on the map's corner (batch 4096, context 1M)
        name=tr("breakdown_current_scenario"),
        hovertemplate=(
            f"<b>{tr('breakdown_current_scenario')}</b><br>{tr('breakdown_hover_batch')} {int(current_batch):,}<br>"
            f"{tr('breakdown_hover_context')} {int(current_context):,} {tr('breakdown_hover_tokens')}<extra></extra>"
        ),
    )
    s = est.scenario
    title = tr(
        "breakdown_heatmap_title",
        metric=label,
        gpus=int(np.ravel(s.num_gpus)[0]),
        hw=est.hardware.name,
    )
    style(fig, title, tr("axis_context"), tr("axis_batch"), log_x=True, log_y=True)
    c_ticks = [t for t in (2.0 ** np.arange(7, 25, 2)) if x_edges[0] <= t <= x_edges[-1]]
    b_ticks = [t for t in (4.0 ** np.arange(0, 7)) if y_edges[0] <= t <= y_edges[-1]]
    fig.update_xaxes(
        range=[math.log10(x_edges[0]), math.log10(x_edges[-1])],
        tickvals=c_ticks,
        ticktext=[fmt.tokens(t) for t in c_ticks],
        showgrid=False,
    )
    fig.update_yaxes(
        range=[math.log10(y_edges[0]), math.log10(y_edges[-1])],
        tickvals=b_ticks,
        ticktext=[f"{int(t):,}" for t in b_ticks],
        showgrid=False,
    )
    fig.update_layout(height=560, margin={"t": 90})
    return fig


def heatmap_data(est: Estimate) -> pd.DataFrame:
    """The heat map's data for the CSV download: one row per (batch, context) cell."""
    batch = np.ravel(est.scenario.batch)
    context = np.ravel(est.scenario.context_tokens)
    shape = (batch.size, context.size)
    b, c = np.meshgrid(batch, context, indexing="ij")
    return pd.DataFrame(
        {
            "batch": b.ravel().astype(int),
            "context_tokens": c.ravel().astype(int),
            "tpot_ms": np.broadcast_to(est.tpot_s, shape).ravel() * 1e3,
            "tokens_per_s_per_gpu": np.broadcast_to(est.tokens_per_s_per_gpu, shape).ravel(),
            "usd_per_1M_tokens": np.broadcast_to(est.usd_per_1M_tokens, shape).ravel(),
            "memory_per_gpu_gb": np.broadcast_to(est.memory_per_gpu_bytes, shape).ravel() / 1e9,
            "fits": np.broadcast_to(est.fits, shape).ravel(),
        }
    )


# --------------------------------------------------------------------------------------------------- table and text


def decomposition_table(est: Estimate, ideal: Estimate | None, tr: Translator = EN) -> pd.DataFrame:
    """The scenario's TPOT parts in ms and % of TPOT (plus the ideal bound's parts), with a total row."""
    tpot = float(est.tpot_s)
    parts = {k: float(v) for k, v in est.breakdown_s.items()}
    table = {
        tr("breakdown_col_part"): [tr(f"bucket_{k}") for k in parts] + [tr("breakdown_total")],
        tr("breakdown_col_ms"): [round(v * 1e3, 3) for v in parts.values()] + [round(tpot * 1e3, 3)],
        tr("breakdown_col_pct"): [round(v / tpot * 100, 1) for v in parts.values()] + [100.0],
    }
    if ideal is not None:
        table[tr("breakdown_col_ideal_ms")] = [round(float(v) * 1e3, 3) for v in ideal.breakdown_s.values()] + [
            round(float(ideal.tpot_s) * 1e3, 3)
        ]
    return pd.DataFrame(table)


def decomposition_display(table: pd.DataFrame) -> pd.DataFrame:
    """decomposition_table as text for a static table that wraps in a narrow frame (a scrolled grid had hidden the
    ideal bound's column at 900 px): each number column with one count of decimals down it (fmt.column_decimals, at
    least one, as the grid showed them), from 1,000 whole with thousands grouped."""
    out = table.copy()
    for c in table.columns:
        if table[c].dtype.kind == "f":
            values = table[c].to_numpy()
            d = 0 if np.nanmax(np.abs(values), initial=0.0) >= 1000 else fmt.column_decimals(values, lo=1)
            out[c] = [fmt.fixed(v, d) for v in values]
    return out


def largest_part(est: Estimate, tr: Translator = EN) -> str:
    """One sentence: the biggest bucket of the scenario's TPOT and its share."""
    parts = {k: float(v) for k, v in est.breakdown_s.items()}
    key = max(parts, key=parts.get)
    tpot = float(est.tpot_s)
    return tr(
        "breakdown_largest",
        part=tr(f"bucket_{key}"),
        ms=fmt.ms(parts[key], tr=tr),
        tpot=fmt.ms(tpot, tr=tr),
        pct=fmt.pct(parts[key] / tpot),
    )
