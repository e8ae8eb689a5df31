"""Overview figures: the scenario's TPOT against the latency targets, and memory use against capacity."""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go

from tpot_model.targets import LAGGY_ABOVE_S, READING_SPEED_TPOT_S, TPOT_TARGETS_S, targets_met

from .. import fmt
from ..i18n import EN, Translator
from .common import (
    BUCKET_COLOURS,
    LEGEND_LINE_PX,
    Decor,
    Figure,
    nice_log_ticks,
    style,
    tick_label,
    wrap_label,
    wrap_legend,
)


def tpot_vs_targets(
    tpot_s: float,
    ideal_s: float,
    *,
    low_s: float = math.nan,
    high_s: float = math.nan,
    band_name: str = "",
    fits: bool = True,
    tr: Translator = EN,
) -> go.Figure:
    """A horizontal bar of the estimate and the ideal bound, with a vertical line per TPOT target (ms), each target
    labelled with its number. The bars' values sit in their axis labels ('Estimate · 20.0 ms'), where no target line
    can run through them. The estimate's 80% band (low_s-high_s, s; band_name from common.band_label) is an error
    bar on its bar, named in the hover and in a legend key; the ideal bound has none. A scenario that does not fit
    (`fits` False): faded bars, its values and title 'if it fitted' (alone in a wiki frame, it had read as real)."""
    fig = Figure()
    values = [fmt.ms(ideal_s, tr=tr), fmt.ms(tpot_s, tr=tr)]
    if not fits:
        values = [tr("if_fitted_mark", value=v) for v in values]
    has_band = bool(band_name) and math.isfinite(low_s) and math.isfinite(high_s)
    band_text = f"<br>{band_name}: {fmt.ms(low_s, tr=tr)}–{fmt.ms(high_s, tr=tr)}" if has_band else ""
    fig.add_bar(
        y=[f"{tr('label_ideal')} · {values[0]}", f"{tr('ov_estimate')} · {values[1]}"],
        x=[ideal_s * 1e3, tpot_s * 1e3],
        orientation="h",
        marker_color=["#9ecae1", "#1f77b4"],
        opacity=1.0 if fits else 0.4,
        customdata=["", band_text],
        hovertemplate="%{y}%{customdata}<extra></extra>",  # from 10 s on a duration, not 979140.60 ms
        error_x={
            "type": "data",
            "array": [None, (high_s - tpot_s) * 1e3],  # None: no bar on the ideal bound
            "arrayminus": [None, (tpot_s - low_s) * 1e3],
            "visible": has_band,
            "color": "#333",
            "thickness": 1.5,
            "width": 0,  # no caps: a zero-length bar on the ideal bound would still draw one
        },  # fmt: skip
        showlegend=False,
    )
    if has_band:  # a legend key naming the error bar and what it rests on, on lines where it is long (at 900 px the
        # widest band's lost its closing bracket at the figure's edge)
        fig.add_scatter(x=[None], y=[None], mode="markers", name=band_name, showlegend=True,
                        marker={"symbol": "line-ew-open", "size": 12, "color": "#333"})  # fmt: skip
        wrap_legend(fig)
    key_px = LEGEND_LINE_PX * fig.data[-1].name.count("<br>") if has_band else 0  # the key's further lines
    marks = {**{f"target_{k}": v for k, v in TPOT_TARGETS_S.items()}, "target_reading": READING_SPEED_TPOT_S}
    # seconds per token (an absurd scenario): a log axis, or the targets would pile up at 0
    far = max(tpot_s, high_s) if has_band else tpot_s  # the band's end stays on the chart
    # linear: the red band at least 0.4 x the laggy limit wide, so its two-line label fits inside it
    top = max(far * 1.15, LAGGY_ABOVE_S * 1.4) * 1e3
    laggy = tr("target_laggy", ms=fmt.ms(LAGGY_ABOVE_S, tr=tr))
    labels = [(limit * 1e3, tr(key, ms=fmt.ms(limit, tr=tr)), "center", "#333") for key, limit in marks.items()]
    # above the band, off the bars, ending at the plot's right edge (from the band's start it ran off a narrow chart:
    # 'feels laggy above' with its '200 ms' cut, 900 px with the sidebar open)
    labels.append((top, laggy.replace("<br>", " "), "right", "#a00"))
    rows = label_rows(labels, top)
    # a log axis where the targets, squeezed to the left of a linear one, would need more than three rows of labels
    # (a TPOT of 1,118 ms had stacked five, up into the title)
    log = tpot_s > 20 * LAGGY_ABOVE_S or max(rows) >= 3
    if log:
        top = max(far, LAGGY_ABOVE_S) * 1e3 * 4
    at = math.log10 if log else float  # annotations on a log axis take log10 positions (shapes take values)
    d = Decor()
    d.vrect(LAGGY_ABOVE_S * 1e3, top, fillcolor="#d62728", opacity=0.08)
    for limit in marks.values():
        d.vline(limit * 1e3, line={"dash": "dot", "color": "#555"})
    if not log:  # each target's label above the plot, in the first row where it clears the labels already there
        for (x, text, anchor, colour), row in zip(labels, rows, strict=True):
            d.note(text, x, 1.0 + 0.14 * row, xref="x", xanchor=anchor, yanchor="bottom",
                   font={"size": 11, "color": colour})  # fmt: skip
    if log:  # the targets sit within a decade of each other here: one label for them all, and one for laggy
        first = min(marks.values()) * 1e3
        # by value, each target unbroken ('179 ms' had been split from its name)
        joined = tr.join(
            [fmt.unbroken(tr(k, ms=fmt.ms(v, tr=tr))) for k, v in sorted(marks.items(), key=lambda kv: kv[1])]
        )
        # one block from the first target, laggy on its last line: side by side, the targets' line had run off a
        # 900 px page with the sidebar open and over 'feels laggy' ('… agents 80 ms, rea')
        lines = (
            wrap_label(joined, _LOG_LABEL_CHARS) + f"<br><span style='color:#a00'>{laggy.replace('<br>', ' ')}</span>"
        )
        d.note(lines, at(first), 1.0, xref="x", xanchor="left", yanchor="bottom", align="left", font={"size": 11})
    # room above the plot for the labels' rows (log: the block's lines, 15 px each) and the title over them
    rows_px = 15 * (lines.count("<br>") + 1) if log else 0
    title = tr("ov_targets_title")
    style(fig, title if fits else fmt.if_fitted_label(title, tr), tr("axis_tpot_ms"), "")
    if log:
        low = min(ideal_s, *marks.values()) * 1e3 / 2
        ticks = nice_log_ticks(low, top)
        d.xaxis = {"type": "log", "range": [math.log10(low), math.log10(top)], "tickvals": ticks,
                   "ticktext": [tick_label(t) for t in ticks]}  # fmt: skip
    else:
        d.xaxis = {"range": [0, top]}
    legend = {"orientation": "h", "yanchor": "top", "y": -0.5, "xanchor": "left", "x": 0.0}  # below the axis title
    top_px = max(110, 55 + rows_px)
    # the title at the figure's top (Plotly's default centres it in the top margin, down onto a tall block of labels)
    fig.update_layout(title={"yref": "container", "y": 1.0, "yanchor": "top", "pad": {"t": 12}})
    return d.apply(fig, height=(340 if has_band else 280) + top_px - 110 + key_px, margin={"t": top_px}, legend=legend)


# the targets chart's plot width in a 900 px page with the sidebar open, its narrowest (laid out for a 900 px embed
# frame's ~540 px, zh-TW's labels overlapped there), an 11 px Latin glyph; a CJK glyph is twice as wide (at 700 px and
# one width for every glyph, zh-TW labels overlapped: '閱讀速度 179 m超過 200 ms')
_LABEL_PLOT_PX, _LABEL_CHAR_PX = 320.0, 6.2
# the log axis's block of targets: characters a line, to fit from the first target to the narrowest plot's edge
_LOG_LABEL_CHARS = 34


def _label_px(text: str) -> float:
    """Estimated width of an 11 px label: wide (East Asian) characters count twice."""
    return fmt.text_px(text, _LABEL_CHAR_PX)


def label_rows(labels: list[tuple[float, str, str, str]], top_ms: float) -> list[int]:
    """A row (0, 1, 2 ...) for each (x in ms, text, xanchor 'center' / 'left' / 'right', colour) label above a
    linear 0..top_ms axis: the first
    row whose labels it does not overlap, by its estimated width (a stretched axis put 'code completion 30 ms' on
    'agents 80 ms')."""
    per_px = top_ms / _LABEL_PLOT_PX
    rows: list[list[tuple[float, float]]] = []
    out = []
    for x, text, anchor, _ in labels:
        w = _label_px(text) * per_px
        lo = x - w / 2 if anchor == "center" else x - w if anchor == "right" else x
        span = (lo, lo + w)
        row = next((i for i, r in enumerate(rows) if all(span[1] < a or span[0] > b for a, b in r)), len(rows))
        if row == len(rows):
            rows.append([])
        rows[row].append(span)
        out.append(row)
    return out


def memory_use(
    parts_bytes: dict[str, float],
    usable_bytes: float,
    capacity_bytes: float,
    *,
    device: str = "gpu",
    reported_gib: float | None = None,
    tr: Translator = EN,
) -> go.Figure:
    """Stacked horizontal bar of per-GPU memory (weights, KV cache, workspace) against usable and total capacity (GB);
    `reported_gib`: the capacity as the vendor's tool reports it (GiB), said beside it where that is its basis."""
    colours = {"weights": BUCKET_COLOURS["weights"], "kv_cache": BUCKET_COLOURS["kv_cache"], "workspace": "#bbbbbb"}
    fig = Figure()
    for key, value in parts_bytes.items():
        fig.add_bar(
            y=[""],
            x=[value / 1e9],
            name=tr(f"mem_{key}"),
            orientation="h",
            marker_color=colours[key],
            hovertemplate=f"{tr(f'mem_{key}')}: %{{x:,.3r}} GB<extra></extra>",  # 26.8 GB, as the KV cache page
        )
    d = Decor()
    capacity_gb, usable_gb = capacity_bytes / 1e9, usable_bytes / 1e9
    end_gb = max(sum(parts_bytes.values()), capacity_bytes) / 1e9 * 1.12
    d.vline(capacity_gb, line={"color": "#000"})
    limits = [
        tr("mem_capacity", gb=fmt.number(capacity_gb))
        if reported_gib is None
        else tr("mem_capacity_gib", gb=fmt.number(capacity_gb), gib=f"{reported_gib:.3g}")
    ]
    if usable_bytes < capacity_bytes:
        d.vline(usable_gb, line={"dash": "dash", "color": "#555"})
        # to 3 figures, as the notices and the Why sentence print it ('usable 72 GB' beside their 72.5 GB)
        limits.insert(0, tr("mem_usable", gb=fmt.number(usable_gb)))
    # one label above the plot, beside the lines (two would overlap, the lines being ~10% apart)
    left = capacity_gb < end_gb / 2
    d.note(" · ".join(limits), capacity_gb if left else usable_gb, 1.0, xref="x", yanchor="bottom",
           xanchor="left" if left else "right")  # fmt: skip
    style(fig, fmt.device_text("ov_memory_title", device, tr), fmt.device_text("axis_gb_per_gpu", device, tr), "")
    d.xaxis = {"range": [0, end_gb]}
    return d.apply(fig, barmode="stack", height=270, margin={"t": 70, "b": 110},
                   legend={"orientation": "h", "yanchor": "top", "y": -0.75, "xanchor": "left", "x": 0.0,
                           "traceorder": "normal"})  # fmt: skip


def targets_table(tpot_s: float, ideal_s: float, low_s: float = math.nan, high_s: float = math.nan) -> pd.DataFrame:
    """The data behind tpot_vs_targets: each target, its limit and whether the estimate and the bound meet it; the
    estimate's 80% band (low_s / high_s: Estimate.tpot_low_s / _high_s; empty for the ideal profile), as the chart
    draws it (the CSV had the modelled number alone)."""
    met, ideal_met = targets_met(tpot_s), targets_met(ideal_s)
    band = {"estimate_low_ms": low_s * 1e3, "estimate_high_ms": high_s * 1e3}
    rows = [
        {"target": k, "limit_ms": v * 1e3, "estimate_ms": tpot_s * 1e3, **band, "ideal_ms": ideal_s * 1e3,
         "estimate_meets": met[k], "ideal_meets": ideal_met[k]}
        for k, v in TPOT_TARGETS_S.items()
    ]  # fmt: skip
    return pd.DataFrame(rows)


def memory_table(parts_bytes: dict[str, float], usable_bytes: float, capacity_bytes: float) -> pd.DataFrame:
    """The data behind memory_use, in decimal GB per GPU."""
    rows = [{"part": k, "GB_per_gpu": v / 1e9} for k, v in parts_bytes.items()]
    rows += [
        {"part": "usable", "GB_per_gpu": usable_bytes / 1e9},
        {"part": "capacity", "GB_per_gpu": capacity_bytes / 1e9},
    ]
    return pd.DataFrame(rows)
