"""Shared figure style: one colour per hardware id everywhere, the layout template, bucket colours; and the helpers
every figure shares: log-axis ticks (1-2-5, decades, powers of two) with their labels, the x ranges that do not fit,
heat-map cell edges."""

from __future__ import annotations

import functools
import math
import os
import re
import zlib
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from tpot_model import load_hardware_catalog
from tpot_model.numtext import PREFIXES

from .. import fmt
from ..i18n import Translator

PALETTE = (
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
    "#0b5fff", "#b8860b", "#006d5b", "#a0522d", "#4b0082", "#ff1493",
)  # fmt: skip
# One colour per vendor, close to each vendor's own brand colour (charts that group chips by vendor); unknown: grey.
# Google in its Gemini purple: its logo blue and Intel's blue could not be told apart on the bubble chart.
VENDOR_COLOURS = {
    "NVIDIA": "#76b900",
    "AMD": "#ed1c24",
    "Intel": "#0071c5",
    "Google": "#8e44d8",
    "AWS": "#ff9900",
    "Apple": "#555555",
}
UNKNOWN_VENDOR_COLOUR = "#969696"


def vendor_colour(vendor: str) -> str:
    """The colour of a vendor's chips in charts grouped by vendor."""
    return VENDOR_COLOURS.get(vendor, UNKNOWN_VENDOR_COLOUR)


BUCKET_COLOURS = {
    "weights": "#1f77b4",
    "kv_cache": "#ff7f0e",
    "compute": "#d62728",
    "communication": "#9467bd",
    "overhead": "#7f7f7f",
}


def hardware_colour(hw_id: str) -> str:
    """A stable colour for a hardware id (same in every chart and every process): the catalog's, else one from the
    palette."""
    hw = load_hardware_catalog().get(hw_id)
    return (hw.colour if hw else "") or PALETTE[zlib.crc32(hw_id.encode()) % len(PALETTE)]


# separatethousands: 1,000-1,600 as the labels and tables print them (plotly separates from 10,000 only: '1000 1500');
# a year axis sets its own tickformat 'd'
_AXIS = {"gridcolor": "#EBF0F8", "linecolor": "#EBF0F8", "zerolinecolor": "#EBF0F8", "automargin": True,
         "separatethousands": True}  # fmt: skip
# The house look as a small default template: plotly copies the default template into every new figure, so a
# small one costs ~1 ms where setting the same properties per figure (or using plotly_white) costs ~10 ms.
pio.templates["tpot"] = go.layout.Template(
    layout={
        "paper_bgcolor": "white",
        "plot_bgcolor": "white",
        "colorway": PALETTE,
        "font": {"family": "Inter, Noto Sans TC, Noto Sans CJK TC, Microsoft JhengHei, sans-serif", "size": 13,
                 "color": "#2a3f5f"},
        "margin": {"l": 60, "r": 20, "t": 70, "b": 55},
        "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.0, "xanchor": "right", "x": 1.0},
        "hoverlabel": {"namelength": -1, "align": "left"},  # multi-line hovers read from the left in every language
        "title": {"x": 0.0, "xanchor": "left"},
        "xaxis": _AXIS,
        "yaxis": _AXIS,
        "height": 440,
    }
)  # fmt: skip
pio.templates.default = "tpot"


# Plotly checks every property it is given (2-4x the cost of building a figure). The tests turn the checks on
# (TPOT_VALIDATE_FIGURES=1, tests/conftest.py) and pin that a figure serialises the same either way; the app skips them.
VALIDATE = os.environ.get("TPOT_VALIDATE_FIGURES") == "1"


@functools.cache
def colorscale(name: str) -> list:
    """A named Plotly colour scale ("Viridis", "Viridis_r") as the [position, colour] stops Plotly's checks make of
    it: a figure built without the checks would otherwise send the bare name."""
    return [list(stop) for stop in go.Heatmap(colorscale=name).colorscale]


class Figure(go.Figure):
    """go.Figure whose layout and added traces skip Plotly's property validation unless VALIDATE."""

    def __init__(self, data=None, layout=None, **kwargs: object) -> None:
        super().__init__(data, layout, _validate=VALIDATE, **kwargs)
        if not VALIDATE:
            # add_traces builds every added trace a second time with validation on (4/5 of an add_bar's cost):
            # this figure's own copy of the data validator builds it unvalidated
            coerce = self._data_validator.validate_coerce
            self._data_validator.validate_coerce = lambda v, skip_invalid=False, _validate=True: coerce(
                v, skip_invalid, False
            )

    def add_scatter(self, **kwargs: object) -> Figure:
        return super().add_scatter(_validate=VALIDATE, **kwargs)

    def add_bar(self, **kwargs: object) -> Figure:
        return super().add_bar(_validate=VALIDATE, **kwargs)

    def add_heatmap(self, **kwargs: object) -> Figure:
        return super().add_heatmap(_validate=VALIDATE, **kwargs)

    def add_contour(self, **kwargs: object) -> Figure:
        return super().add_contour(_validate=VALIDATE, **kwargs)


def style(
    fig: go.Figure, title: str, x_title: str, y_title: str, *, log_x: bool = False, log_y: bool = False
) -> go.Figure:
    """The house layout (from the 'tpot' template) plus this figure's title and axis titles with units."""
    xaxis: dict = {"title": {"text": x_title}}
    yaxis: dict = {"title": {"text": y_title}}
    if log_x:
        xaxis["type"] = "log"  # only set when asked: a category axis set earlier stays a category axis
    if log_y:
        yaxis["type"] = "log"
    fig.update_layout(title={"text": title}, xaxis=xaxis, yaxis=yaxis)
    return fig


def wrap_label(text: str, width: int = 14) -> str:
    """A category label on lines of about `width` character widths (a CJK glyph counts two), broken at spaces, around
    full-width brackets and after a CJK comma, enumeration comma or colon, joined by <br>: five parts under grouped
    bars share a narrow column's width."""
    # not after an opening bracket's sign: '(+ activation)' stays whole ('Weight (+' / 'activation)' had read apart);
    # nor on either side of a separator or operator ('MI355X ·<br>mxfp4' had read 'MI355X ·mxfp4', '批次 ×<br>上下文'
    # '批次 ×上下文'); nor before a full-width colon or comma ('（Typical serving engine）<br>：頻寬' had begun a line with it)
    parts = [p for p in re.split(r"(?<=[^(+·×] )(?![·×])|(?=（)|(?<=[）：，、])(?![：，、])", text) if p]
    lines: list[str] = []
    for part in parts:
        if lines and fmt.text_px((lines[-1] + part).rstrip(), 1) > width:
            lines.append(part)
        elif lines:
            lines[-1] += part
        else:
            lines.append(part)
    return "<br>".join(line.strip() for line in lines)


LEGEND_SIDE_MAX = 8  # legend entries that fit beside a plot; more go below it
LEGEND_ROW_PX = 22
LEGEND_LINE_PX = 16  # each further line of a legend entry broken by <br>
BOTTOM_MARGIN_PX = 55  # the template's
# a legend below the plot is laid out for the narrowest plot the charts are read in: ~370 px of a 440 px figure in a
# 900 px page with the sidebar open (the rows plotly.js wraps it into there); an entry ~60 px (symbol, gaps) + ~5.6 px
# a Latin glyph of its 12 px font (measured in Chromium: 'Compute' 99 px, 'Weight (+ activation) read' 197 px)
NARROW_PLOT_PX, LEGEND_CHAR_PX, LEGEND_SYMBOL_PX = 370.0, 5.6, 60.0


# a full-width chart's width (px) in the frames it is read in (Chromium, measured): a 900 px page with the sidebar
# open, a 900 px wiki frame (?embed=true, no sidebar), a 1400 px page with the sidebar open
FRAME_FIGURE_PX = (440.0, 740.0, 940.0)
WIDER_KEY = "tpot_wider"  # layout.meta: what changes where the chart is drawn wider (for_wider; static/plotly_chart.js)


def for_wider(fig: go.Figure, min_px: float, *, traces: Mapping[int, dict] | None = None,
              layout: Mapping | None = None) -> go.Figure:  # fmt: skip
    """Where the chart is drawn at least `min_px` wide, draw it with these changes (static/plotly_chart.js, as it draws
    and as its width changes; at_width for the exports): `traces` {trace index: {property: value}} (each value the
    property's whole), `layout` merged into the layout as it is now (call this last: the entry holds each layout key
    it changes whole, which the browser puts in place). The figure itself is the narrowest frame's; of several
    entries the widest that applies is drawn, alone (each says everything it changes). For labels a narrow frame has
    no room for and a wider one has (Hardware's TPOT bars, its bubble chart). Changes the figure's layout.meta."""
    whole = {}
    for key, changes in (layout or {}).items():
        now = fig.layout[key]
        now = now.to_plotly_json() if hasattr(now, "to_plotly_json") else now
        whole[key] = _merged(now, changes) if isinstance(now, Mapping) and isinstance(changes, Mapping) else changes
    meta = dict(fig.layout.meta or {})
    entry = {"min_px": float(min_px), "traces": {str(i): dict(v) for i, v in (traces or {}).items()}, "layout": whole}
    meta[WIDER_KEY] = sorted([*meta.get(WIDER_KEY, []), entry], key=lambda e: e["min_px"])
    fig.layout.meta = meta
    return fig


def _merged(base: Mapping, changes: Mapping) -> dict:
    out = dict(base)
    for k, v in changes.items():
        out[k] = _merged(out[k], v) if isinstance(v, Mapping) and isinstance(out.get(k), Mapping) else v
    return out


def at_width(fig: go.Figure, width_px: float) -> go.Figure:
    """The figure as static/plotly_chart.js draws it `width_px` wide (for_wider's widest entry that applies), without
    the entries: a copy."""
    out = Figure(fig)
    meta = dict(out.layout.meta or {})
    entries = [e for e in meta.pop(WIDER_KEY, []) if width_px >= e["min_px"]]
    out.layout.meta = meta or None
    if entries:
        for i, changes in entries[-1]["traces"].items():
            out.data[int(i)].update(changes)
        for key, value in entries[-1]["layout"].items():  # each whole, as the browser sets it
            out.layout[key] = value
    return out


def legend_rows(names: Sequence[str], width_px: float = NARROW_PLOT_PX) -> float:
    """Rows of LEGEND_ROW_PX a horizontal legend of these entry names takes in a plot `width_px` wide, as plotly.js
    lays it out: one row where every entry fits side by side, else a grid of columns as wide as the widest entry (so
    eight keys under Breakdown's chart took eight rows, not three); an entry of several lines (<br>) adds
    LEGEND_LINE_PX a further line to its row."""
    entries = []
    for name in names:
        lines = re.split(r"<br\s*/?>", name)
        w = max(fmt.text_px(re.sub(r"<[^>]+>", "", line), LEGEND_CHAR_PX) for line in lines) + LEGEND_SYMBOL_PX
        entries.append((w, len(lines)))
    if not entries:
        return 0.0
    fits = sum(w for w, _ in entries) <= width_px
    per_row = len(entries) if fits else max(1, int(width_px // max(w for w, _ in entries)))
    chunks = [entries[i : i + per_row] for i in range(0, len(entries), per_row)]
    return sum(1 + (max(n for _, n in c) - 1) * LEGEND_LINE_PX / LEGEND_ROW_PX for c in chunks)


def wrap_parts(text: str, width: float, sep: str = " · ") -> list[str]:
    """`text` in lines of at most `width` character widths (a CJK glyph counts two), broken at its `sep` separators
    only (one part longer than a line stays whole)."""
    lines: list[str] = []
    for part in text.split(sep):
        if lines and fmt.text_px(lines[-1] + sep + part, 1) <= width:
            lines[-1] += sep + part
        else:
            lines.append(part)
    return lines


def wrap_legend(fig: go.Figure) -> go.Figure:
    """Break each legend entry wider than the narrowest plot (NARROW_PLOT_PX) onto lines (wrap_label): Plotly cuts an
    entry at the figure's edge ('...: 90% o' in a 900 px page with the sidebar open). The lines are about even: the
    narrowest width that takes no more of them ('… or this chip<br>unmeasured)' had left a word on a line of its
    own). Changes the traces' names."""
    width = int((NARROW_PLOT_PX - LEGEND_SYMBOL_PX) / LEGEND_CHAR_PX)
    for t in fig.data:
        if t.name and t.showlegend is not False and fmt.text_px(t.name, 1) > width:
            breaks = wrap_label(t.name, width).count("<br>")
            even = math.ceil(fmt.text_px(t.name, 1) / (breaks + 1))
            t.name = wrap_label(t.name, next(w for w in range(even, width + 1)
                                             if wrap_label(t.name, w).count("<br>") == breaks))  # fmt: skip
    return fig


def legend_placement(fig: go.Figure, height: int, *, side_max: int = LEGEND_SIDE_MAX, title: str | None = None) -> dict:
    """Layout for the legend: a column at the plot's right when it has at most `side_max` entries, else rows under
    the axis title, pinned to the figure's bottom edge (yref 'container': Plotly sets the bottom margin to hold them
    and the title at any width; placed at a fraction of the plot, a legend that wrapped into more rows in a narrow
    frame shrank the plot and rose onto its axis title), the figure made taller by the rows the legend takes in the
    narrowest frame (legend_rows), so the plot keeps its height there and is taller where the legend takes fewer;
    `title` on lines of its own above the rows (a row more per line, '<br>' between them; beside them it pushed the
    entries off a narrow page).
    Returns update_layout keywords (legend, height, margin)."""
    names = [t.name for t in fig.data if t.showlegend is not False and t.name]
    if len(names) <= side_max:
        return {"height": height, "legend": {"orientation": "v", "x": 1.01, "xanchor": "left", "y": 1.0,
                                             "yanchor": "top"}, "margin": {"r": 10}}  # fmt: skip
    legend = {"orientation": "h", "x": 0.0, "xanchor": "left", "y": 0.0, "yref": "container", "yanchor": "bottom"}
    if title:  # each line broken to the narrowest plot (a 900 px page had cut a key at '此處為假設情'), in the
        # entries' size (plotly.js sets a legend title larger)
        title = "<br>".join(wrap_label(line, int(NARROW_PLOT_PX / LEGEND_CHAR_PX)) for line in title.split("<br>"))
        legend["title"] = {"text": title, "side": "top", "font": {"size": 13}}
    return {
        "height": int(round(height + (legend_rows(names) + (title.count("<br>") + 1 if title else 0)) * LEGEND_ROW_PX)),
        "legend": legend,
        "margin": {"r": 20},
    }


class Decor:
    """Lines, shaded regions, notes and axis settings gathered while a figure is built, then applied in one
    update_layout call: each fig.add_hline / add_vrect costs 2-3 ms of Plotly validation, a shape dict here ~0.02 ms.
    Lines and regions span the plot area (axis domain) across the other axis."""

    def __init__(self) -> None:
        self.shapes: list[dict] = []
        self.annotations: list[dict] = []
        self.xaxis: dict = {}
        self.yaxis: dict = {}

    def hline(self, y: float, **kw: object) -> None:
        self.shapes.append({"type": "line", "xref": "x domain", "x0": 0, "x1": 1, "yref": "y", "y0": y, "y1": y, **kw})

    def vline(self, x: float, **kw: object) -> None:
        self.shapes.append({"type": "line", "yref": "y domain", "y0": 0, "y1": 1, "xref": "x", "x0": x, "x1": x, **kw})

    def hrect(self, y0: float, y1: float, **kw: object) -> None:
        self.shapes.append(
            {"type": "rect", "xref": "x domain", "x0": 0, "x1": 1, "yref": "y", "y0": y0, "y1": y1, "layer": "below",
             "line": {"width": 0}, **kw}
        )  # fmt: skip

    def vrect(self, x0: float, x1: float, **kw: object) -> None:
        self.shapes.append(
            {"type": "rect", "yref": "y domain", "y0": 0, "y1": 1, "xref": "x", "x0": x0, "x1": x1, "layer": "below",
             "line": {"width": 0}, **kw}
        )  # fmt: skip

    def note(self, text: str, x: float, y: float, **kw: object) -> None:
        """Text at paper coordinates unless xref/yref say otherwise (annotations on log axes take log10 values)."""
        self.annotations.append(
            {"text": text, "x": x, "y": y, "xref": "paper", "yref": "paper", "showarrow": False, **kw}
        )

    def apply(self, fig: go.Figure, **layout: object) -> go.Figure:
        """Add the gathered shapes and notes to the figure's own, and set the axes and layout, in one call."""
        if self.shapes:
            layout["shapes"] = [*fig.layout.shapes, *self.shapes]
        if self.annotations:
            layout["annotations"] = [*fig.layout.annotations, *self.annotations]
        fig.update_layout(xaxis=self.xaxis, yaxis=self.yaxis, **layout)
        return fig


# ------------------------------------------------------------------------------------------------ log-axis ticks


FINER = tuple(range(1, 10))  # every digit: a range of less than a decade
COLOURBAR_FINER = (1, 1.5, 2, 3, 5, 7)  # a colour bar's narrow range: fewer, rounder steps


def log_tick_values(lo: float, hi: float, mantissas: tuple[float, ...] = (1, 2, 5)) -> list[float]:
    """m × 10^e for every mantissa m and every decade, within [lo, hi] (lo > 0), ascending."""
    e0, e1 = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    return [m * 10.0**e for e in range(e0, e1 + 1) for m in mantissas if lo <= m * 10.0**e <= hi]


def nice_log_ticks(
    lo: float, hi: float, max_ticks: int = 8, *, finer: tuple[float, ...] = FINER, widen: bool = True
) -> list[float]:
    """Tick values for a log axis from lo to hi: 1-2-5 per decade, or 1-3 when that is too many (30, 100, 300 ...
    across two to four decades: decades alone left four labels on an axis from 10 to 20,000), or decades only, or
    the `finer` mantissas when 1-2-5 gives fewer than three. widen: a range under a factor of two is first widened
    threefold each way (an axis around one value); a colour bar, whose ends are the data's, passes False."""
    if widen and hi < 2 * lo:  # (nearly) one value: widen so that there is something to label
        lo, hi = lo / 3, hi * 3

    def within(mantissas: tuple[float, ...]) -> list[float]:
        return log_tick_values(lo, hi, mantissas)

    ticks = within((1, 2, 5))
    if len(ticks) > max_ticks and len(thirds := within((1, 3))) <= max_ticks:
        return thirds
    if len(ticks) > max_ticks:
        decades = within((1,))
        return decades[:: math.ceil(len(decades) / max_ticks)]
    if len(ticks) < 3:
        ticks = within(finer)
        if len(ticks) > max_ticks:
            ticks = within((1, 2, 5))
    return ticks if len(ticks) >= 2 else [lo, hi] if hi > lo else [lo]


def tick_label(v: float, *, prefixed: bool = False, thousands: bool = False) -> str:
    """A tick number without exponents: 0.00005, 0.5, 20, 2,000, 10,000. `prefixed` (an axis of counts or rates,
    tokens/s): from 10,000 on with the decimal prefix of the numbers beside the chart (numtext.large: '531 K'):
    20 K, 500 K, 1 M; `thousands` with it: from 1,000 on (2 K beside 10 K, one style on an axis)."""
    for threshold, scale, prefix in PREFIXES if prefixed else ():
        if v >= (scale if thousands and prefix == "K" else threshold):
            return f"{tick_label(v / scale)} {prefix}"
    return f"{v:,.0f}" if v >= 1000 else np.format_float_positional(float(f"{v:.3g}"), trim="-")


def log_ticks(*arrays: np.ndarray, pad: float = 0.0, prefixed: bool = False) -> dict:
    """Axis settings for readable ticks (full numbers, 1-2-5 or decades) on a log axis covering the data;
    `prefixed`: as tick_label's."""
    vals = np.concatenate([np.ravel(np.asarray(a, dtype=float)) for a in arrays] or [np.empty(0)])
    vals = vals[np.isfinite(vals) & (vals > 0)]
    if not vals.size:
        return {}
    ticks = nice_log_ticks(float(vals.min()) / 10**pad, float(vals.max()) * 10**pad)
    return {"tickvals": ticks, "ticktext": tick_labels(ticks, prefixed=prefixed)}


def floored_log_axis(*arrays: np.ndarray, pad: float = 0.05) -> dict:
    """log_ticks whose lowest tick is at or under the data's least value, with the axis range from that tick: a
    curve's lowest point is read off a labelled tick (the KV cache page's largest batch ended at 4 under an axis
    whose first label was 5)."""
    vals = np.concatenate([np.ravel(np.asarray(a, dtype=float)) for a in arrays] or [np.empty(0)])
    vals = vals[np.isfinite(vals) & (vals > 0)]
    if not vals.size:
        return {}
    lo, hi = float(vals.min()), float(vals.max()) * 10**pad
    start = lo / 10**pad
    ticks = nice_log_ticks(start, hi)
    while ticks[0] > lo:  # 1-2-5 steps are at most 2.5x: a few widenings reach the tick under lo
        start /= 1.5
        ticks = nice_log_ticks(start, hi)
    return {"tickvals": ticks, "ticktext": tick_labels(ticks), "range": [math.log10(ticks[0]) - pad, math.log10(hi)]}


def tick_labels(ticks: list[float], *, prefixed: bool = False) -> list[str]:
    """tick_label of each tick, in one style on the axis: once a prefixed axis reaches 10,000, its thousands take the
    prefix too ('5 K' beside '10 K', not '5,000')."""
    thousands = prefixed and max(ticks, default=0) >= PREFIXES[-1][0]
    return [tick_label(t, prefixed=prefixed, thousands=thousands) for t in ticks]


def y_log_ticks(fig: go.Figure, pad: float = 0.05, *, prefixed: bool = False) -> dict:
    """log_ticks for the y values of all the figure's traces (Plotly's own "D2" ticks label the 2 and the 5 between
    decades as bare digits, read as 2 and 5 where they mean 200,000 and 500,000)."""
    return log_ticks(*(np.asarray(t.y, dtype=float) for t in fig.data if t.y is not None), pad=pad, prefixed=prefixed)


def power_of_two_ticks(lo: float, hi: float, max_ticks: int = 8) -> list[float]:
    """Powers of two between lo and hi, every k-th one when there are more than max_ticks (the top one kept)."""
    lo_k, hi_k = math.ceil(math.log2(max(lo, 1.0))), math.floor(math.log2(max(hi, 1.0)))
    exps = list(range(lo_k, hi_k + 1))
    step = max(1, math.ceil(len(exps) / max_ticks))
    return [2.0**e for e in exps[::-1][::step]][::-1]  # keep the top power of two (often the max context)


def power_of_two_axis(values: np.ndarray, *, tokens: bool = False) -> dict:
    """Axis settings for ticks at powers of two covering values: 1, 4, 16 … for batches; with tokens, labelled the
    way context lengths are said: 128, 2K, 32K, 1M."""
    vals = power_of_two_ticks(float(np.min(values)), float(np.max(values)))
    return {"tickvals": vals, "ticktext": [fmt.tokens(v) if tokens else f"{v:,.0f}" for v in vals]}


# ------------------------------------------------------------------------------------------- regions and cells


def round_significant(x: np.ndarray, digits: int = 3) -> np.ndarray:
    """Each value rounded to `digits` significant figures, for display tables (0.4584 ms, 2184 tok/s, 79.92 GB);
    0 and nan stay as they are."""
    x = np.asarray(x, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        magnitude = np.floor(np.log10(np.abs(x)))
    scale = 10.0 ** (digits - 1 - np.where(np.isfinite(magnitude), magnitude, 0))
    return np.round(x * scale) / scale


def split_by_fit(y: np.ndarray, fits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """y where it fits (solid) and where it does not (dashed), overlapping by one point so the line is continuous."""
    y, fits = np.asarray(y, dtype=float), np.asarray(fits, dtype=bool)
    no = ~fits
    edge = no | np.roll(no, 1) & (np.arange(len(no)) > 0) | np.roll(no, -1) & (np.arange(len(no)) < len(no) - 1)
    return np.where(fits, y, np.nan), np.where(edge, y, np.nan)


def fit_line(fig: go.Figure, x, y, fits, **scatter) -> None:
    """A line solid where it fits in memory and dashed, with no legend entry of its own, where it does not (as
    Compare's sweep draws it: Cost's lines had run on solid past the memory limit, reading as costs one can reach);
    `scatter`: the line's add_scatter arguments (name, line, hovertemplate, customdata ...)."""
    solid, dashed = split_by_fit(np.broadcast_to(y, np.shape(x)), np.broadcast_to(fits, np.shape(x)))
    fig.add_scatter(x=x, y=solid, **scatter)
    if np.isfinite(dashed).any():
        line = {**scatter.get("line", {}), "dash": "dash"}
        fig.add_scatter(x=x, y=dashed, **{**scatter, "line": line, "showlegend": False,
                                          "legendgroup": scatter.get("legendgroup") or scatter.get("name")})  # fmt: skip


def not_fit_spans(x: np.ndarray, fits: np.ndarray) -> list[tuple[float, float]]:
    """Contiguous x ranges where a point does not fit, each from the last fitting point before it to the first one
    after it (the limit lies somewhere in between), or to the grid's end."""
    bad = ~np.asarray(fits, dtype=bool)
    spans, start = [], None
    for i, b in enumerate(bad):
        if b and start is None:
            start = x[i - 1] if i else x[0]
        if not b and start is not None:
            spans.append((start, x[i]))
            start = None
    if start is not None:
        spans.append((start, x[-1]))
    return spans


def log_edges(centres: np.ndarray) -> np.ndarray:
    """Heat-map cell edges for log-spaced centres: geometric midpoints, extended half a step at each end."""
    c = np.log10(np.asarray(centres, dtype=float))
    if len(c) == 1:
        return 10 ** np.array([c[0] - 0.1, c[0] + 0.1])
    mid = (c[1:] + c[:-1]) / 2
    return 10 ** np.concatenate([[c[0] - (mid[0] - c[0])], mid, [c[-1] + (c[-1] - mid[-1])]])


BAND_OPACITY = 0.18  # the shaded 80% band: the line's colour, this transparent


def band_basis_short(band, tr) -> str:
    """What an estimate's band rests on, shortly: 'llama.cpp measured on NVIDIA Hopper'; '' without a band."""
    if not band.has_band:
        return ""
    family = fmt.family(band.family, tr) if band.family else tr("band_no_family")
    return tr(f"band_short_{band.level}", engine=fmt.engine_name(band.engine, tr), family=family)


def band_label(band, tr) -> str:
    """'80% band (llama.cpp measured on NVIDIA Hopper)': the legend and hover name of an estimate's band
    (tpot_model.bands.Band), saying what it rests on (band_basis_short); '' without a band (the ideal bound)."""
    return tr("band_legend", basis=band_basis_short(band, tr)) if band.has_band else ""


def _rgba(colour: str, alpha: float) -> str:
    """'#1f77b4' with an alpha as 'rgba(31,119,180,alpha)' (anything but '#rrggbb': grey)."""
    c = colour.lstrip("#") if len(colour) == 7 and colour.startswith("#") else "969696"
    return f"rgba({int(c[0:2], 16)},{int(c[2:4], 16)},{int(c[4:6], 16)},{alpha})"


def add_band(
    fig: go.Figure,
    x: np.ndarray,
    low: np.ndarray,
    high: np.ndarray,
    *,
    colour: str,
    name: str,
    x_hover: str,
    tr: Translator,
    legendgroup: str | None = None,
    showlegend: bool = True,
    hover_value: str = "%{y:,.4~g}",
) -> None:
    """A shaded band between low and high (arrays over x, display units; high the larger) in the line's colour: the
    low edge, then the high edge filled down to it. Each edge's hover says which end it is and what x is (`x_hover`:
    'batch %{x:,.0f}'; both edges had read '32: $2.31'). Nothing when name is '' or no value is finite (no band:
    the ideal profile)."""
    low, high = np.asarray(low, dtype=float), np.asarray(high, dtype=float)
    if not name or not (np.isfinite(low).any() and np.isfinite(high).any()):
        return
    group = legendgroup or f"band-{name}"
    edge = {"color": _rgba(colour, 0.0), "width": 0}
    hover = {end: tr(f"band_hover_{end}", band=name, x=x_hover, value=hover_value) + "<extra></extra>"
             for end in ("low", "high")}  # fmt: skip
    fig.add_scatter(x=x, y=low, mode="lines", line=edge, legendgroup=group, showlegend=False, name=name,
                    hovertemplate=hover["low"])  # fmt: skip
    fig.add_scatter(x=x, y=high, mode="lines", line=edge, fill="tonexty", fillcolor=_rgba(colour, BAND_OPACITY),
                    legendgroup=group, showlegend=showlegend, name=name, hovertemplate=hover["high"])  # fmt: skip


# a measured run's parallelism as data/serving_measurements.csv quotes it (InferenceX's words)
_DISAGG_LAYOUT = re.compile(
    r"disagg prefill (\d+) GPUs \[(\d+) worker\(s\), ([^\]]+)\] \+ decode (\d+) GPUs \[(\d+) worker\(s\), ([^\]]+)\]"
)
# pools without worker counts (transcribed posts): 'disagg prefill 8 GPUs (TP8) + decode 32 GPUs (EP16)'
_DISAGG_POOLS = re.compile(r"disagg prefill (\d+) GPUs \(([^)]+)\) \+ decode (\d+) GPUs \(([^)]+)\)")
_DP_ATTENTION = re.compile(r"\s*(?:\+\s*DP-attention|DP-attn)$")
_TP_EP = re.compile(r"TP(\d+)/EP(\d+)")  # 'TP8/EP8': attention tensor parallel over 8, experts over 8


def measured_layout(text: str, tr) -> str:
    """A measured run's parallelism (the CSV's `parallelism`, in the source's English) in the reader's language:
    'disagg prefill 8 GPUs [1 worker(s), TP8/EP8 DP-attn] + decode ...' as prefill and decode pools, each GPUs
    (workers x parallelism), or without worker counts 'disagg prefill 8 GPUs (TP8) + decode 32 GPUs (EP16)'; each
    worker by the layout search's names where it is one of its layouts ('TP8/EP8 DP-attn' DEP8, 'TP8/EP8' TEP8,
    'TP8/EP1' TP8: layouts.Pool.layout_name, so a measured point reads as the model's '2 × DEP8'), else with the
    attention's data parallelism named; a text of another shape as it is."""

    def parallelism(p: str) -> str:
        core = _DP_ATTENTION.sub("", p.strip())
        dp = core != p.strip()
        if (m := _TP_EP.fullmatch(core)) and int(m[1]) > 1:
            if m[1] == m[2]:
                return f"{'DEP' if dp else 'TEP'}{m[1]}"
            if m[2] == "1" and not dp:
                return f"TP{m[1]}"
        return tr("measured_layout_dp_attention", p=core) if dp else core

    if m := _DISAGG_LAYOUT.fullmatch(text.strip()):
        pg, pw, pp, dg, dw, dp = m.groups()
        return tr("measured_layout_disaggregated", prefill_gpus=pg, prefill_workers=pw, prefill=parallelism(pp),
                  decode_gpus=dg, decode_workers=dw, decode=parallelism(dp))  # fmt: skip
    if m := _DISAGG_POOLS.fullmatch(text.strip()):
        pg, pp, dg, dp = m.groups()
        return tr("measured_layout_disaggregated_pools", prefill_gpus=pg, prefill=pp, decode_gpus=dg, decode=dp)
    if text.strip() == "Pareto frontier across configs (not stated)":
        return tr("measured_layout_not_stated")
    return parallelism(text) if text else text
