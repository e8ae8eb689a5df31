"""Hardware figures: memory bandwidth and capacity per chip, the scenario's TPOT on every chip, memory generations.

Pure: catalog Hardware objects and Estimate objects in, plotly figures and pandas DataFrames out (SI -> display units
happens here: TB/s and GB are decimal, as on datasheets; compute is dense, no sparsity).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from tpot_model import Estimate, Hardware, economics, load_hardware_catalog, mlperf
from tpot_model.bands import Band
from tpot_model.engines import VENDOR_ONLY, runs_on
from tpot_model.files import number_or_nan
from tpot_model.scenario import Scenario
from tpot_model.units import GB, GiB, TB_per_s, TFLOP_per_s

from .. import fmt
from ..i18n import EN, Translator
from .common import (
    BOTTOM_MARGIN_PX,
    FRAME_FIGURE_PX,
    LEGEND_CHAR_PX,
    LEGEND_ROW_PX,
    NARROW_PLOT_PX,
    Figure,
    band_basis_short,
    band_label,
    for_wider,
    hardware_colour,
    legend_placement,
    legend_rows,
    style,
    vendor_colour,
    wrap_legend,
    wrap_parts,
    y_log_ticks,
)

_NOTE_LINE_PX, _NOTE_GAP_PX = 15, 8  # a line of an 11 px note; its gap under the axis title (and room below)

# Memory generations, oldest / highest-bandwidth family first; unknown types ("" in the catalog) go last.
MEMORY_ORDER = (
    "HBM2", "HBM2e", "HBM3", "HBM3e", "HBM4", "GDDR6", "GDDR6X", "GDDR7", "LPDDR5", "LPDDR5X", "SRAM", "",
)  # fmt: skip
MEMORY_COLOURS = {
    "HBM2": "#9ecae1",
    "HBM2e": "#4292c6",
    "HBM3": "#08519c",
    "HBM3e": "#1a7f37",
    "HBM4": "#00441b",
    "GDDR6": "#fdae6b",
    "GDDR6X": "#f16913",
    "GDDR7": "#a63603",
    "LPDDR5": "#bcbddc",
    "LPDDR5X": "#6a51a3",
    "SRAM": "#e7298a",
    "": "#969696",
}
FRONTIER_COLOUR = "#222222"
_NO_FIT_PATTERN = "/"
SECONDS_ABOVE_S = 10.0  # the TPOT chart switches from ms to s when its slowest bar passes this
_RIGHT_LEGEND = {"orientation": "v", "x": 1.02, "xanchor": "left", "y": 1.0, "yanchor": "top"}


def memory_rank(memory_type: str) -> int:
    return MEMORY_ORDER.index(memory_type) if memory_type in MEMORY_ORDER else len(MEMORY_ORDER) - 1


def memory_label(memory_type: str, tr: Translator = EN) -> str:
    return memory_type or tr("hw_mem_unknown")


def _memory_colour(memory_type: str) -> str:
    return MEMORY_COLOURS.get(memory_type, MEMORY_COLOURS[""])


def _16bit(hw: Hardware) -> str | None:
    """The 16-bit precision whose dense peak the datasheet gives: bf16, else fp16; None if the chip lists neither."""
    return next((p for p in ("bf16", "fp16") if hw.dense_flop_per_s.get(p)), None)


def _16bit_estimated(hw: Hardware) -> bool:
    """Whether that dense 16-bit peak is the catalog's estimate, not a published figure (Hardware.estimated)."""
    p = _16bit(hw)
    return p is not None and hw.estimated(f"dense_TFLOP_per_s.{p}")


def _peak_16bit_tflops(hw: Hardware) -> float:
    """Dense 16-bit peak (bf16, else fp16), TFLOP/s; nan if the chip lists neither."""
    p = _16bit(hw)
    return hw.dense_flop_per_s[p] / TFLOP_per_s if p else float("nan")


def _opt(x: float | None) -> float:
    return float("nan") if x is None else float(x)


LABEL_ROOM_LOG10 = 0.3  # above the fastest chip, in decades of bandwidth: two lines of labels over its bubble
CLUSTER_LOG10 = 0.04  # bandwidths within ~10 % of each other in one launch year: one stacked label


# label placement on the bandwidth-by-year chart, in pixels of its plot area: the figure less its margins and the
# vendors' legend at its right (measured in Chromium: 270, 569 and 765 px wide in the 440, 740 and 940 px frames of
# common.FRAME_FIGURE_PX), 435 px high at any width
_BUBBLE_SIDES_PX, _BUBBLE_PLOT_HEIGHT_PX = 175.0, 435.0
_BUBBLE_SIDES_BELOW_PX = 80.0  # its margins with the vendors under the plot (60 px left, 20 px right)
# a 10 px label as Chromium draws it (measured): glyphs up to 5.8 px wide on average, 13 px a line and 2 px more; plotly
# sets it off its marker (radius r) by 1.33 r to the side, 1.3 r above and 1.05 r below
_CHAR_PX, _LINE_PX, _LINE_EXTRA_PX = 5.8, 13.0, 2.0
_SIDE_R, _ABOVE_R, _BELOW_R = 1.33, 1.3, 1.05
_PAD_PX = 3.0  # kept clear around each label (two labels' texts are at least twice this apart where they can be)
_MEET_PX = 2.0  # two labels' texts overlapping by more, both ways, meet (as the browser test counts them)
_SWEEPS = 6  # passes of place_labels at most
_LABEL_WEIGHT = 4.0  # a label's overlap with another label against its overlap with a marker
_WRONG_COST = 600.0  # a label on another chip's bubble, nearer to it than to its own: read as that chip's
_OUTSIDE_COST = 1000.0  # per px of a label past the plot's edge (under the legend or cut)
_MEET_COST = 5000.0  # a label meeting another, or cut, in a plot of some width it is read at
_POSITIONS = ("top center", "bottom center", "middle right", "middle left", "top right", "bottom right", "top left",
              "bottom left")  # fmt: skip


class _Labels:
    """The bubbles' labels in a plot of any width and _BUBBLE_PLOT_HEIGHT_PX high: x linear, y in log10 units (the
    axes' ranges); a label box (left, bottom, right, top, px from the plot's bottom left corner, _PAD_PX around its
    text) at a textposition and a plot width; its width estimated from its text (fmt.text_px: a CJK glyph twice)."""

    def __init__(self, x, y, radius_px, texts, x_range, y_range) -> None:
        (x0, x1), (y0, y1) = x_range, y_range
        self.share = [(xi - x0) / (x1 - x0) for xi in x]  # of the plot's width
        self.py = [(math.log10(yi) - y0) / (y1 - y0) * _BUBBLE_PLOT_HEIGHT_PX for yi in y]
        self.r, self.texts = list(radius_px), list(texts)
        self.offsets = functools.cache(self._offsets)

    def _offsets(self, i: int, where: str) -> tuple[float, float, float, float]:
        """The box at `where` with its left and right edges from its marker's centre, its bottom and top as placed."""
        lines = self.texts[i].split("<br>")
        w = max(fmt.text_px(line, _CHAR_PX) for line in lines)
        h, r = len(lines) * _LINE_PX + _LINE_EXTRA_PX, self.r[i]
        vert, horiz = where.split()
        cx = {"center": 0.0, "right": _SIDE_R * r + w / 2, "left": -_SIDE_R * r - w / 2}[horiz]
        cy = self.py[i] + {"top": _ABOVE_R * r + h / 2, "bottom": -_BELOW_R * r - h / 2, "middle": 0.0}[vert]
        return cx - w / 2 - _PAD_PX, cy - h / 2 - _PAD_PX, cx + w / 2 + _PAD_PX, cy + h / 2 + _PAD_PX

    def box(self, i: int, where: str, width_px: float) -> tuple[float, float, float, float]:
        left, bottom, right, top = self.offsets(i, where)
        x = self.share[i] * width_px
        return x + left, bottom, x + right, top

    def marker(self, i: int, width_px: float) -> tuple[float, float, float, float]:
        x, y, r = self.share[i] * width_px, self.py[i], self.r[i]
        return x - r, y - r, x + r, y + r

    def meet(self, i: int, p: str, j: int, q: str, lo: float, hi: float) -> bool:
        """Whether i's label at p and j's at q overlap, their texts (not their padding) by more than _MEET_PX both
        ways, in a plot of some width from lo to hi px (hi may be inf): each box's edges move with the width, at its
        marker's share of it."""
        a, b, clear = self.offsets(i, p), self.offsets(j, q), 2 * _PAD_PX + _MEET_PX
        if min(a[3], b[3]) - max(a[1], b[1]) <= clear:
            return False
        # x overlap: (si - sj) W < bj_right - ai_left - clear and (sj - si) W < ai_right - bj_left - clear
        d, c1, c2 = self.share[i] - self.share[j], b[2] - a[0] - clear, a[2] - b[0] - clear
        if d == 0:
            return c1 > 0 and c2 > 0
        start, stop = (-c2 / d, c1 / d) if d > 0 else (c1 / d, -c2 / d)  # the widths where they overlap
        return start < stop and start < hi and stop > lo

    def cut(self, i: int, where: str, width_px: float) -> bool:
        """Whether the label's text runs past the plot's edge (plotly cuts it there) in a plot `width_px` wide,
        the narrowest it is read in: wider, its marker moves away from both sides."""
        left, bottom, right, top = self.box(i, where, width_px)
        return left < 0 or right > width_px or bottom < 0 or top > _BUBBLE_PLOT_HEIGHT_PX


def place_labels(
    x: Sequence[float],
    y: Sequence[float],
    radius_px: Sequence[float],
    texts: Sequence[str],
    x_range: tuple[float, float],
    y_range: tuple[float, float],
    widths_px: Sequence[float],
    span_px: tuple[float, float] | None = None,
) -> list[str]:
    """A plotly textposition per point whose label (text, '<br>' between lines) overlaps no other label and no
    marker where one of the eight positions allows, else the least overlapping, in plots of each of `widths_px`
    (summed), and with `span_px` (lo, hi) meeting no other label and not cut in a plot of any width between (each
    a cost of _MEET_COST): greedy, longest labels first, then each label moved to its best position given all the
    others while any moves. x linear, y in log10 units (the axes' ranges); an empty text keeps 'top center'."""
    g = _Labels(x, y, radius_px, texts, x_range, y_range)

    def overlap(a, b) -> float:
        return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))

    placed: dict[int, str] = {}
    markers = {width: [g.marker(j, width) for j in range(len(texts))] for width in widths_px}

    def cost(i: int, where: str) -> float:
        total = 0.0
        for width in widths_px:
            b = g.box(i, where, width)
            outside = max(0.0, -b[0]) + max(0.0, b[2] - width) + max(0.0, -b[1])
            outside += max(0.0, b[3] - _BUBBLE_PLOT_HEIGHT_PX)
            mx, my = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
            own = math.hypot(mx - g.share[i] * width, my - g.py[i])
            # a label over a bubble still reads (it is drawn on top); over another label it does not; on a bubble
            # nearer to it than its own, it names the wrong chip
            near = [j for j, m in enumerate(markers[width]) if j != i and overlap(b, m) > 0]
            wrong = sum(1 for j in near if math.hypot(mx - g.share[j] * width, my - g.py[j]) < own)
            total += (
                _LABEL_WEIGHT * sum(overlap(b, g.box(j, w, width)) for j, w in placed.items() if j != i)
                + sum(overlap(b, markers[width][j]) for j in near)
                + _OUTSIDE_COST * outside
                + _WRONG_COST * wrong
            )
        if span_px is not None:
            meets = sum(g.meet(i, where, j, w, *span_px) for j, w in placed.items() if j != i)
            total += _MEET_COST * (meets + g.cut(i, where, span_px[0]))
        return total

    out = ["top center"] * len(texts)
    order = sorted((i for i, t in enumerate(texts) if t), key=lambda i: -len(texts[i]))
    # greedy first, then each label moved to its best spot given all the others, until none moves
    for sweep in range(_SWEEPS):
        moved = False
        for i in order:
            best = min(_POSITIONS, key=lambda w: (cost(i, w), _POSITIONS.index(w)))
            moved |= sweep > 0 and best != out[i]
            out[i] = placed[i] = best
        if sweep > 0 and not moved:
            break
    return out


def unreadable_labels(
    x: Sequence[float],
    y: Sequence[float],
    radius_px: Sequence[float],
    texts: Sequence[str],
    positions: Sequence[str],
    x_range: tuple[float, float],
    y_range: tuple[float, float],
    widths_px: tuple[float, float],
) -> list[int]:
    """The labels to leave to the hover so that, in a plot of any width from widths_px[0] to widths_px[1] px (the
    second may be inf), no label's text overlaps another's and none runs past the plot's edge: those cut, then, one at
    a time, of those that meet another the slowest chip's (its bubble's centre lowest; then the smaller bubble, the
    later point): the chart is read for its fastest chips, whose names stay."""
    g = _Labels(x, y, radius_px, texts, x_range, y_range)
    lo, hi = widths_px
    shown = [i for i, t in enumerate(texts) if t]
    dropped = [i for i in shown if g.cut(i, positions[i], lo)]
    shown = [i for i in shown if i not in dropped]
    meets = {i: {j for j in shown if j != i and g.meet(i, positions[i], j, positions[j], lo, hi)} for i in shown}
    while any(meets.values()):
        worst = min((i for i in meets if meets[i]), key=lambda i: (g.py[i], g.r[i], -i))
        dropped.append(worst)
        for j in meets.pop(worst):
            meets[j].discard(worst)
    return sorted(dropped)


def readable_labels(
    x: Sequence[float],
    y: Sequence[float],
    radius_px: Sequence[float],
    texts: Sequence[str],
    x_range: tuple[float, float],
    y_range: tuple[float, float],
    widths_px: tuple[float, float],
    place_px: Sequence[float],
) -> tuple[list[str], list[str]]:
    """(texts, textpositions) for plots `widths_px[0]` to `widths_px[1]` px wide: placed in plots of `place_px`
    (place_labels), those that would still meet or be cut left to the hover (''; unreadable_labels) and the rest
    placed again without them, until every label shown reads in every such plot."""
    texts = list(texts)
    while True:
        spots = place_labels(x, y, radius_px, texts, x_range, y_range, place_px, widths_px)
        if not (dropped := unreadable_labels(x, y, radius_px, texts, spots, x_range, y_range, widths_px)):
            return texts, spots
        for i in dropped:
            texts[i] = ""


def _year_offsets(chips: Sequence[Hardware]) -> list[float]:
    """A small horizontal spread for chips launched the same year, so their markers do not sit on each other."""
    by_year: dict[int | None, list[int]] = {}
    for i, h in enumerate(chips):
        by_year.setdefault(h.launch_year, []).append(i)
    offsets = [0.0] * len(chips)
    for members in by_year.values():
        members.sort(key=lambda i: chips[i].memory_bandwidth_bytes_per_s)
        n = len(members)
        for rank, i in enumerate(members):
            offsets[i] = 0.0 if n == 1 else -0.35 + 0.7 * rank / (n - 1)
    return offsets


# --------------------------------------------------------------------------------------------------- specs


def specs_table(chips: Iterable[Hardware], basis: str = "on_demand") -> pd.DataFrame:
    """One row per chip: datasheet memory, bandwidth, dense 16-bit compute, power (display units; whether the
    compute and the TDP are estimates) and the chip's price under a published `basis` (prices.yaml; a user's file:
    its own on-demand price) with its date."""
    prices = {h.id: economics.price_for(h, Scenario(price_basis=basis)) for h in chips}
    rows = [
        {
            "hardware_id": h.id,
            "hardware": h.name,
            "hardware_announced": bool(h.announced),  # not shipping yet: its figures are vendor claims
            "vendor": h.vendor,
            "memory_type": h.memory_type,
            "launch_year": h.launch_year,
            "memory_gb": h.memory_bytes / GB,
            # as nvidia-smi / rocm-smi report it, the fit's basis (Overview's 'capacity 151 GB (141 GiB reported)'
            # beside this table's datasheet 141 GB had read as a contradiction); none published: empty
            "memory_reported_gib": h.memory_reported_bytes / GiB if h.memory_reported_bytes else None,
            "bandwidth_tb_per_s": h.memory_bandwidth_bytes_per_s / TB_per_s,
            "dense_16bit_tflop_per_s": _peak_16bit_tflops(h),
            "dense_16bit_tflop_per_s_estimated": _16bit_estimated(h),  # Apple's (no tensor rate published)
            "tdp_w": _opt(h.tdp_w),
            "tdp_w_estimated": h.estimated("tdp_W"),  # not published: the catalog's estimate (Hardware.estimated)
            "price_usd_per_gpu_hour": prices[h.id].usd_per_gpu_hour,
            "price_basis": basis,
            "price_as_of": prices[h.id].as_of or None,
        }
        for h in chips
    ]
    return pd.DataFrame(rows)


def bandwidth_by_year(chips: Sequence[Hardware], *, tr: Translator = EN) -> go.Figure:
    """Scatter: launch year against peak memory bandwidth (TB/s), one trace per vendor in its colour, each marker
    labelled with the chip's short name where it reads (readable_labels; every name in the hover); marker area ~
    capacity (GB); the memory type in the hover. Built for the narrowest frame (the vendors under the plot), with
    its labels and legend for frames from a 900 px wiki frame on (for_wider)."""
    chips = [h for h in chips if h.launch_year is not None]
    offsets = dict(zip((h.id for h in chips), _year_offsets(chips), strict=True))
    max_gb = max((h.memory_bytes / GB for h in chips), default=1.0)
    # one year's chips within CLUSTER_LOG10 of the next one's bandwidth (B300, GB300, MI350X, MI355X: all 8 TB/s in
    # 2025) share one label, their names stacked, on the cluster's fastest marker; a year's clusters (sorted by
    # bandwidth) are placed by place_labels: off every other label and marker where the room allows
    label_text: dict[str, str] = {}
    for year in {h.launch_year for h in chips}:
        clusters: list[list[Hardware]] = []
        for h in sorted((h for h in chips if h.launch_year == year), key=lambda h: h.memory_bandwidth_bytes_per_s):
            last = clusters[-1][-1] if clusters else None
            if last and math.log10(h.memory_bandwidth_bytes_per_s / last.memory_bandwidth_bytes_per_s) < CLUSTER_LOG10:
                clusters[-1].append(h)
            else:
                clusters.append([h])
        for cluster in clusters:
            for h in cluster:
                label_text[h.id] = ""
            label_text[cluster[-1].id] = "<br>".join(fmt.chip_short(h) + ("*" if h.announced else "") for h in cluster)
    fig = Figure()

    def size(group: Sequence[Hardware]) -> np.ndarray:  # marker diameter, px: area ~ memory capacity
        return 8 + 34 * np.sqrt(np.array([h.memory_bytes / GB for h in group]) / max_gb)

    def xy(group: Sequence[Hardware]) -> dict:
        return {"x": [h.launch_year + offsets[h.id] for h in group],
                "y": [h.memory_bandwidth_bytes_per_s / TB_per_s for h in group]}  # fmt: skip

    at = xy(chips)  # each label where it covers no other label or marker (place_labels), on the chart's ranges
    years = [h.launch_year for h in chips]
    log_y = np.log10(at["y"]) if chips else np.zeros(1)
    # the axes' ranges, set on the chart too (plotly's own autorange is not the one the labels were placed on), with
    # room above the fastest chips for their labels (Rubin, MI455X and the 2025 cluster had printed over each other)
    x_range = (min(years, default=0) - 0.6, max(years, default=1) + 0.6)
    y_range = (float(log_y.min()) - 0.1, float(log_y.max()) + LABEL_ROOM_LOG10)
    # the labels placed for every plot width the chart is read at, in two spans: narrow, from the 900 px page beside
    # the sidebar to a 900 px wiki frame, the vendors under the plot (at its right they had left a 270 px plot, its
    # labels cut and printed over each other: 'MI250X' over 'H100 SXM5 80GB'); wider, the vendors at its right (drawn
    # so by static/plotly_chart.js: for_wider). A label that would still meet another or be cut somewhere in its span is
    # left to the hover, which names every chip
    narrow_plots = [frame - _BUBBLE_SIDES_BELOW_PX for frame in FRAME_FIGURE_PX[:2]]
    texts = [label_text[h.id] for h in chips]
    spans = ((narrow_plots[0], narrow_plots[1]), (FRAME_FIGURE_PX[1] - _BUBBLE_SIDES_PX, math.inf))
    narrow, wide = (readable_labels(at["x"], at["y"], size(chips) / 2, texts, x_range, y_range, span, span[:1])
                    for span in spans)  # fmt: skip

    for vendor in sorted({h.vendor for h in chips}, key=lambda v: (v == "", v.lower())):
        group = [h for h in chips if h.vendor == vendor]
        fig.add_scatter(
            **xy(group),
            mode="markers",
            name=vendor or tr("hw_vendor_unknown"),
            marker={
                "size": size(group),
                "color": vendor_colour(vendor),
                "line": {"width": 1, "color": "#333"},
                "opacity": 0.8,
            },  # fmt: skip
            customdata=[
                [fmt.chip(h, tr), h.memory_bytes / GB, h.launch_year, memory_label(h.memory_type, tr)] for h in group
            ],
            hovertemplate=tr("hw_hover_spec") + "<extra></extra>",
        )
    # the labels last, over every vendor's bubbles (a later vendor's bubble hid an earlier one's label), each offset
    # from its chip's marker by that marker's size (invisible markers of the same sizes)
    fig.add_scatter(
        **xy(chips),
        mode="markers+text",
        text=narrow[0],
        textposition=narrow[1],
        textfont={"size": 10, "color": "#333"},
        marker={"size": size(chips), "opacity": 0},
        showlegend=False,
        hoverinfo="skip",
        name="",
    )
    # log bandwidth: 0.1-25 TB/s, so the many low-bandwidth chips (and their labels) do not pile up at the bottom
    style(fig, tr("hw_bw_year_title"), tr("hw_axis_year"), tr("hw_axis_bandwidth"), log_y=True)
    fig.update_xaxes(dtick=1, tickformat="d", range=list(x_range) if chips else None)
    fig.update_yaxes(**y_log_ticks(fig, pad=0.1), range=list(y_range) if chips else None)
    # the key to the markers under the axis title, on lines for the narrowest plot (over the plot's top right it ran
    # off the chart's left edge at 900 px with the sidebar open: 'mory capacity (GB)'); the plot keeps its height
    note = wrap_parts(f"{tr('hw_size_note')} · {tr('hw_announced_key')}", NARROW_PLOT_PX / LEGEND_CHAR_PX)
    below = BOTTOM_MARGIN_PX + 2 * _NOTE_GAP_PX + _NOTE_LINE_PX * len(note)  # the axis title and the note
    # narrow: the vendors in rows under the note, pinned to the figure's bottom edge, the figure taller by them
    # (the plot keeps the height its labels were placed for); wider: at the plot's right, titled
    rows = legend_rows([t.name for t in fig.data if t.showlegend is not False and t.name], narrow_plots[0])
    legend_px = int(math.ceil(rows * LEGEND_ROW_PX))
    under = {"orientation": "h", "x": 0.0, "xanchor": "left", "y": 0.0, "yref": "container", "yanchor": "bottom",
             "title": {"text": ""}}  # fmt: skip
    fig.update_layout(
        legend=under, margin={"r": 20, "b": below + legend_px}, height=560 + below - BOTTOM_MARGIN_PX + legend_px
    )
    right = {"legend": _RIGHT_LEGEND | {"yref": "paper", "title": {"text": tr("hw_legend_vendor")}},
             "margin": {"r": 110, "b": below}, "height": 560 + below - BOTTOM_MARGIN_PX}  # fmt: skip
    for_wider(fig, FRAME_FIGURE_PX[1], traces={len(fig.data) - 1: {"text": wide[0], "textposition": wide[1]}},
              layout=right)  # fmt: skip
    fig.add_annotation(
        text="<br>".join(note),
        xref="paper",
        yref="paper",
        x=0.0,
        y=0.0,
        xanchor="left",
        yanchor="top",
        yshift=-(BOTTOM_MARGIN_PX + _NOTE_GAP_PX),  # under the tick labels and the axis title
        align="left",
        showarrow=False,
        font={"size": 11, "color": "#555"},
    )
    return fig


def bandwidth_ranking(chips: Sequence[Hardware], *, tr: Translator = EN) -> go.Figure:
    """Horizontal bars of peak memory bandwidth (TB/s), highest first, one colour per hardware; capacity in the label."""
    chips = sorted(chips, key=lambda h: -h.memory_bandwidth_bytes_per_s)
    bw = np.array([h.memory_bandwidth_bytes_per_s / TB_per_s for h in chips])
    gb = np.array([h.memory_bytes / GB for h in chips])
    # short names on the axis, a star on announced parts (as on the TPOT chart), full names in the hover: the full
    # names took the room of the bars' labels in a 900 px frame ('288 GE')
    full = [fmt.chip(h, tr) for h in chips]
    fig = Figure()
    fig.add_bar(
        y=fmt.chip_names(chips, full, star=True),
        x=bw,
        orientation="h",
        marker_color=[hardware_colour(h.id) for h in chips],
        text=[f"{b:.2f} TB/s · {g:.0f} GB" for b, g in zip(bw, gb, strict=True)],
        textposition="outside",
        cliponaxis=False,
        customdata=[
            [float(g), memory_label(h.memory_type, tr), name] for h, g, name in zip(chips, gb, full, strict=True)
        ],
        hovertemplate=tr("hw_hover_rank") + "<extra></extra>",
        showlegend=False,
    )
    style(fig, tr("hw_bw_rank_title"), tr("hw_axis_bandwidth"), "")
    fig.update_yaxes(autorange="reversed", automargin=True)
    # the fastest bar ends at 3/5 of the plot: its label ('22.00 TB/s · 288 GB', ~110 px) then fits a ~270 px plot
    # (900 px, the sidebar open: at 1/1.45 it was cut, '288')
    fig.update_xaxes(range=[0, float(bw.max(initial=1.0)) * 1.7])
    fig.update_layout(height=max(300, 22 * len(chips) + 110), margin={"l": 10})
    if any(h.announced for h in chips):
        fig.add_annotation(text=tr("hw_announced_key"), xref="paper", yref="paper", x=1.0, y=1.0, xanchor="right",
                           yanchor="bottom", showarrow=False, font={"size": 11, "color": "#555"})  # fmt: skip
    return fig


# --------------------------------------------------------------------------------------------------- scenario


def _fit_label(est: Estimate, tr: Translator) -> str:
    if bool(est.fits):
        return ""
    need = float(est.min_gpus)
    if not math.isfinite(need):  # not 'needs > 1,024 GPUs': more would not help (the caption under the table says why)
        return fmt.device_text("hw_needs_no_count", est.hardware, tr)
    return tr("hw_needs_gpus", devices=fmt.devices(est.hardware, need, tr))  # 'needs 8 GPUs', 'needs 16 chips'


WHAT_IF_MARK = "†"  # a chip the engine does not run on (engines.VENDOR_ONLY): its figures are a what-if


def what_if_mark(name: str, engine_runs_here: bool) -> str:
    """A chip's name as the TPOT chart and table show it: with WHAT_IF_MARK where the engine does not run on it."""
    return name if engine_runs_here else f"{name}{WHAT_IF_MARK}"


def what_if_key(profile_id: str, tr: Translator = EN) -> str:
    """The key to WHAT_IF_MARK under the chart and the table (profile_id: an engine of engines.VENDOR_ONLY)."""
    return tr(
        "hw_what_if_key", mark=WHAT_IF_MARK, engine=fmt.engine_name(profile_id, tr), vendor=VENDOR_ONLY[profile_id][0]
    )


def tpot_table(pairs: Sequence[tuple[float, Estimate]]) -> pd.DataFrame:
    """One row per chip (the ideal bound's TPOT in seconds, the profile's estimate): TPOT, throughput, cost and fit,
    fastest first."""
    rows = []
    for ideal_tpot_s, est in pairs:
        price = est.price_usd_per_gpu_hour
        per_gpu = float(est.tokens_per_s_per_gpu)
        rows.append(
            {
                "hardware_id": est.hardware.id,
                "hardware": est.hardware.name,
                "vendor": est.hardware.vendor,
                "announced": bool(est.hardware.announced),  # not shipping yet: its figures are vendor claims
                # the engine runs on this chip's vendor (engines.VENDOR_ONLY): else its figures are a what-if
                "engine_runs_here": runs_on(est.profile.id, est.hardware.vendor),
                "num_gpus": int(est.scenario.num_gpus),
                "tpot_ideal_ms": float(ideal_tpot_s) * 1e3,
                "tpot_profile_ms": float(est.tpot_s) * 1e3,
                "tokens_per_s_per_user": float(est.tokens_per_s_per_user),
                "tokens_per_s_per_gpu": per_gpu,
                "tokens_per_s_per_usd_per_gpu_hour": per_gpu / price if price > 0 else float("nan"),
                "usd_per_1M_output_tokens_decode": float(est.usd_per_1M_tokens),  # decode steps, output tokens
                "usd_per_gpu_hour": price,  # the chip's own, under the basis (nan: no public price)
                "price_basis": est.price.basis,
                "price_as_of": est.price.as_of,
                "tokens_per_s_per_mw": float(est.tokens_per_s_per_mw),  # all-in power (data/prices.yaml)
                "memory_per_gpu_gb": float(est.memory_per_gpu_bytes) / GB,
                "fits": bool(est.fits),
                "min_gpus": float(est.min_gpus),
                "profile": est.profile.id,
                "compute_precision": est.compute_precision,  # the matrix multiplies' (bf16 for FP4 on an H200)
                # the estimate's 80% calibration band (nan for the ideal profile) and what it rests on
                "tpot_low_ms": float(est.tpot_low_s) * 1e3,
                "tpot_high_ms": float(est.tpot_high_s) * 1e3,
                "band_level": est.band.level,
                "band_engine": est.band.engine,
                "band_family": est.band.family,
            }
        )
    df = pd.DataFrame(rows)
    return df.sort_values("tpot_ideal_ms", kind="stable").reset_index(drop=True) if rows else df


def tpot_table_labels(*, show_profile: bool = True, device: str = "gpu", tr: Translator = EN) -> dict[str, str]:
    """Display headers for the columns of tpot_table shown on the page (the CSV keeps the unit-suffixed names);
    `device`: the kind of the chips listed (fmt.device_kind over them), whose word the per-device headers use."""
    labels = {  # what an analyst reads first (TPOT, $, throughput) within a 1400 px page; the band, then the rest
        "hardware": tr("hw_col_hardware"),
        "tpot_ideal_ms": tr("hw_col_tpot_ideal"),
        "tpot_profile_ms": tr("hw_col_tpot_profile"),
        "usd_per_1M_output_tokens_decode": tr("hw_col_usd_1m"),
        "tokens_per_s_per_gpu": fmt.device_text("hw_col_tps_gpu", device, tr),
        "tokens_per_s_per_user": tr("hw_col_tps_user"),
        "tpot_low_ms": tr("hw_col_tpot_low"),
        "tpot_high_ms": tr("hw_col_tpot_high"),
        "band_rests_on": tr("hw_col_band"),
        "tokens_per_s_per_usd_per_gpu_hour": fmt.device_text("hw_col_tps_usd", device, tr),
        "tokens_per_s_per_mw": tr("hw_col_tps_mw_k"),  # in thousands, as the cards' '523 K' (it read '631,000')
        "memory_per_gpu_gb": fmt.device_text("hw_col_memory", device, tr),
        "fits": tr("hw_col_fits"),
        "min_gpus": fmt.device_text("hw_col_min_gpus", device, tr),
    }
    if not show_profile:
        for key in ("tpot_profile_ms", "tpot_low_ms", "tpot_high_ms", "band_rests_on"):
            del labels[key]
    return labels


def _band_words(level: str, engine: str, family: str, tr: Translator) -> str:
    """What a chip's band rests on, in words, under the column's '80% band rests on' ('' without a band)."""
    return band_basis_short(Band(level=level, engine=engine, family=family), tr)


def band_words(table: pd.DataFrame, tr: Translator = EN) -> list[str]:
    """What each chip's band in tpot_table rests on, in words ('' without a band)."""
    return [_band_words(*r, tr) for r in table[["band_level", "band_engine", "band_family"]].itertuples(index=False)]


def common_band_words(table: pd.DataFrame, tr: Translator = EN) -> str:
    """What every chip's band in tpot_table rests on, where it is one thing for all of them (a caption says it once,
    and tpot_display_table drops the column that would repeat it); '' where they differ or there is no band."""
    words = set(band_words(table, tr)) if not table.empty else set()
    return words.pop() if len(words) == 1 else ""


def tpot_display_table(
    table: pd.DataFrame, *, show_profile: bool = True, device: str = "gpu", tr: Translator = EN
) -> pd.DataFrame:
    """tpot_table rounded to sensible precision, with translated headers (tpot_table_labels), for st.dataframe
    (numbers stay sortable). The band's basis is a column only where the chips' bands rest on different things
    (common_band_words: the page says it once under the table)."""
    labels = tpot_table_labels(show_profile=show_profile, device=device, tr=tr)
    if table.empty:
        return pd.DataFrame(columns=list(labels.values()))
    if common_band_words(table, tr) or not show_profile:
        labels.pop("band_rests_on", None)
    words = band_words(table, tr)
    # the chips' short names, as on the chart's axis, where no two coincide: the full ones ('NVIDIA GB300 (per
    # Blackwell Ultra GPU, NVL72)') took a third of the table and pushed its band and $ columns out of view
    catalog = load_hardware_catalog()
    shown = fmt.chip_names([catalog.get(i) for i in table["hardware_id"]], table["hardware"])
    # announced parts starred, as on the chart's axis (the key is under the table): '(announced, not shipping yet)'
    # took the name column to a third of a 900 px frame, and the TPOT columns out of it
    names = [
        what_if_mark(f"{n}*" if a else n, runs)
        for n, a, runs in zip(shown, table["announced"], table["engine_runs_here"], strict=True)
    ]
    table = table.assign(band_rests_on=words, hardware=names)
    out = table[list(labels)].copy()  # unrounded: cache.display_numbers rounds once for display (22.346 read 22.4
    # after a first rounding to 22.35, beside 44.8 tok/s/user and 22.3 ms on every other page)
    out["min_gpus"] = out["min_gpus"].astype("Int64")
    out["tokens_per_s_per_mw"] = out["tokens_per_s_per_mw"] / 1e3  # the header says thousands (the CSV keeps units)
    return out.rename(columns=labels)


def tpot_by_hardware(
    pairs: Sequence[tuple[float, Estimate]], *, show_profile: bool = True, log_x: bool = False, tr: Translator = EN
) -> go.Figure:
    """Horizontal bars of TPOT on every chip (pairs: the ideal bound's TPOT in seconds, the profile's estimate),
    fastest first: the ideal bound as a solid bar in the hardware's colour,
    the profile's estimate as a wider pale bar behind it; hatched with "needs N GPUs" where it does not fit.
    The axis is in ms, or in s when the slowest bar passes 10 s (1M-token contexts at large batch)."""
    pairs = sorted(pairs, key=lambda p: float(p[1].tpot_s if show_profile else p[0]))
    full = [fmt.chip(est.hardware, tr) for _, est in pairs]  # "(announced)" on unshipped parts: in the hover
    # short names on the axis ('GB200 NVL72', a star on announced parts, keyed under the chart): the full names had
    # taken half a 900 px wiki frame and left the bars' labels no room; full names where two short ones coincide
    names = fmt.chip_names([est.hardware for _, est in pairs], full, star=True)
    announced = names != full and any(est.hardware.announced for _, est in pairs)
    runs = [runs_on(est.profile.id, est.hardware.vendor) for _, est in pairs]
    names = [what_if_mark(n, r) for n, r in zip(names, runs, strict=True)]
    colours = [hardware_colour(est.hardware.id) for _, est in pairs]
    ideal_s = np.array([float(i) for i, _ in pairs])
    est_s = np.array([float(e.tpot_s) for _, e in pairs])
    low_s = np.array([float(e.tpot_low_s) for _, e in pairs])  # the 80% band (nan: none, the ideal profile)
    high_s = np.array([float(e.tpot_high_s) for _, e in pairs])
    bands = [band_label(e.band, tr) for _, e in pairs]
    in_seconds = float(np.nanmax(np.concatenate([ideal_s, est_s]), initial=0.0)) >= SECONDS_ABOVE_S
    scale = 1.0 if in_seconds else 1e3
    fits = np.array([bool(e.fits) for _, e in pairs])
    # hatched where a chip does not fit; no pattern at all where every chip fits (plotly.js draws a pattern per bar)
    patterns = None if fits.all() else ["" if f else _NO_FIT_PATTERN for f in fits]
    notes = [_fit_label(e, tr) for _, e in pairs]
    # a chip that does not fit: its estimate and what it needs, the ideal bound in its hover (with both, the label
    # ran off a 900 px page with the sidebar open: '303 ms (ideal 201 ms) · needs 8 G')
    if show_profile:
        labels = [
            f"{fmt.duration(e, tr=tr)} · {n}"
            if n
            else tr("hw_bar_label", est=fmt.duration(e, tr=tr), ideal=fmt.duration(i, tr=tr))
            for i, e, n in zip(ideal_s, est_s, notes, strict=True)
        ]
    else:
        labels = [
            f"{fmt.duration(i, tr=tr)} · {n}" if n else fmt.duration(i, tr=tr)
            for i, n in zip(ideal_s, notes, strict=True)
        ]
    has_band = show_profile and bool(np.isfinite(high_s).any())
    # room on the right for each bar's label, from its own end (label_room): the axis runs to where the longest label
    # past its bar ends in the plot, the plot being the figure less the chips' names beside it (a browser review: with
    # 'RTX PRO 4500 Blackwell' among them the plot was ~265 px, not 430, and cut 'needs 16 GPUs'); the figure as
    # built is the narrowest frame's, and each wider frame has its own labels and axis (for_wider: at 1400 px the
    # slowest bars had their value alone, as in a 900 px frame, beside an axis running to twice their end)
    ends = (np.fmax(high_s, est_s) if has_band else est_s if show_profile else ideal_s) * scale
    names_px = max((fmt.text_px(n, _BAR_LABEL_CHAR_PX) for n in names), default=0.0)
    values = [fmt.duration(v, tr=tr) for v in (est_s if show_profile else ideal_s)]
    # the labels as the linear axis would need them (a log axis, ~8x past the slowest bar, had cut the long ones at
    # 900 px: '2.29 s • ne…'), its right end for the linear axis only
    framed = [label_room(labels, values, ends, max(frame - names_px - _BARS_SIDES_PX, _BARS_MIN_PLOT_PX))
              for frame in FRAME_FIGURE_PX]  # fmt: skip
    labels, right = framed[0]
    # the band in the hover, and on a chip the engine does not run on, the what-if key under it
    key = "" if all(runs) else what_if_key(pairs[0][1].profile.id, tr)
    # and where the chip has no math at the precision asked for (FP4 on an H200), the precision it runs at
    fallback = [fmt.compute_fallback(e.compute_fallback, tr) for _, e in pairs]
    said = [
        "<br>".join(t for t in (f"{b}{tr('label_colon')}{fmt.duration(lo, tr=tr)}–{fmt.duration(hi, tr=tr)}" if b else "",
                                f, "" if r else key) if t)
        for lo, hi, b, f, r in zip(low_s, high_s, bands, fallback, runs, strict=True)
    ]  # fmt: skip
    custom = [
        [fmt.duration(i, tr=tr), fmt.duration(e, tr=tr), tr("hw_yes") if f else tr("hw_no_needs", needs=n), w, name]
        for i, e, f, n, w, name in zip(ideal_s, est_s, fits, notes, said, full, strict=True)
    ]
    hover = tr("hw_hover_tpot") if show_profile else tr("hw_hover_tpot_ideal")
    common = {"y": names, "orientation": "h", "customdata": custom, "hovertemplate": hover + "<extra></extra>"}
    fig = Figure()
    if show_profile:
        fig.add_bar(
            x=est_s * scale,
            width=0.8,
            marker={"color": colours, "opacity": 0.35, "pattern": {"shape": patterns, "fgcolor": "#333"}},
            text=labels,  # with a band: kept in the data, not laid out; drawn past the band's end by the bar below
            textposition="none" if has_band else "outside",
            cliponaxis=False,
            showlegend=False,
            name=tr("hw_estimate"),
            # the 80% band as an error bar on the estimate (none where the profile has no band)
            error_x={
                "type": "data",
                "array": (high_s - est_s) * scale,
                "arrayminus": (est_s - low_s) * scale,
                "visible": bool(np.isfinite(low_s).any()),
                "color": "#444",
                "thickness": 1.5,
                "width": 4,
            },
            **common,
        )
    fig.add_bar(
        x=ideal_s * scale,
        width=0.45 if show_profile else 0.75,
        marker={"color": colours, "pattern": {"shape": patterns, "fgcolor": "#fff", "solidity": 0.3}},
        text=None if show_profile else labels,
        textposition="outside",
        cliponaxis=False,
        showlegend=False,
        name=tr("label_ideal"),
        **common,
    )
    if has_band:  # the labels start past the band's high end (an invisible bar to it), so no error bar crosses them
        fig.add_bar(x=np.fmax(high_s, est_s) * scale, y=names, orientation="h", width=0.8, marker={"opacity": 0},
                    text=labels, textposition="outside", cliponaxis=False, showlegend=False, hoverinfo="skip",
                    name="")  # fmt: skip
    # Legend keys in neutral grey (the bars themselves carry the hardware colours).
    fig.add_bar(x=[None], y=[None], name=tr("label_ideal"), marker_color="#666", showlegend=True)
    if show_profile:
        fig.add_bar(x=[None], y=[None], name=tr("hw_estimate"), marker_color="#c9c9c9")
        if np.isfinite(low_s).any():  # one key for the error bars; each chip's basis is in its hover and the table
            fig.add_scatter(x=[None], y=[None], mode="markers", name=tr("hw_legend_band"),
                            marker={"symbol": "line-ew-open", "size": 12, "color": "#444"})  # fmt: skip
    if not fits.all():
        fig.add_bar(
            x=[None],
            y=[None],
            name=tr("hw_legend_no_fit"),
            marker={"color": "#ddd", "pattern": {"shape": _NO_FIT_PATTERN, "fgcolor": "#333"}},
        )
    s = pairs[0][1].scenario if pairs else None
    title = (
        fmt.device_text(
            "hw_tpot_title",
            chips := [est.hardware for _, est in pairs],  # 'GPUs' when every chip listed is a GPU, else 'chips'
            tr,
            model=pairs[0][1].model.name,
            devices=fmt.devices(chips, int(s.num_gpus), tr),
            weights=s.weights.name,
            batch=int(s.batch),
            context=fmt.tokens(float(s.context_tokens)),
        )
        if s is not None
        else ""
    )
    top = float(np.nanmax(np.concatenate([ideal_s, est_s, high_s if has_band else est_s]), initial=1e-3)) * scale
    bottom = float(np.nanmin(ideal_s, initial=1e-3)) * scale
    x_title = tr("hw_axis_tpot_s") if in_seconds else tr("axis_tpot_ms")
    style(fig, title, x_title, "", log_x=log_x)
    # the legend in rows under the plot, from the figure's left edge (long chip names push the plot right), in a
    # bottom margin made for the axis title and up to four rows of it: inside the plot's corner it covered the
    # fastest chips' value labels in a 900 px wiki frame, and above the plot it ran into a long title
    # (common.legend_placement: pinned to the figure's bottom, taller by its rows in the narrowest frame, entries
    # wider than a narrow plot on lines; the announced key as its title on a line of its own: beside the entries it
    # pushed them off a 900 px page with the sidebar open, 'Estimate (eng')
    keys = [tr("hw_announced_key")] * announced + [key] * bool(key)  # key: the what-if one, as in the hover
    placed = legend_placement(wrap_legend(fig), max(320, 24 * len(pairs) + 150), side_max=0,
                              title="<br>".join(keys) or None)  # fmt: skip
    placed["legend"]["xref"] = "container"
    placed["margin"]["l"] = 10
    fig.update_layout(barmode="overlay", **placed)
    fig.update_yaxes(autorange="reversed", automargin=True)
    fig.update_xaxes(
        range=[math.log10(bottom / 2), math.log10(top * 1.7**4)] if log_x else [0, right], tickformat=",~r"
    )
    # the traces with the labels: the estimate's (the ideal bound's without a profile) and the band's end
    labelled = [0, 2] if has_band else [0]
    for frame, (wide, wide_right) in zip(FRAME_FIGURE_PX[1:], framed[1:], strict=True):
        for_wider(fig, frame, traces={i: {"text": wide} for i in labelled},
                  layout={} if log_x else {"xaxis": {"range": [0, wide_right]}})  # fmt: skip
    return fig


LABEL_ROOM = 2.0  # the linear axis runs at most this far past the slowest bar's end to make room for labels


def label_room(labels: Sequence[str], values: Sequence[str], ends: np.ndarray, plot_px: float) -> tuple[list, float]:
    """The bars' labels and the linear axis' right end (in the bars' unit) that leaves each label room past its bar
    (`ends`) in a plot `plot_px` wide: the axis runs to where the longest label ends, and a label that would take it
    past LABEL_ROOM x the slowest bar's end is its value alone (`values`; what the chip needs is in its hatch, hover
    and the table): Arc Pro B50's '2.29 s · needs > 1,024 GPUs' had run the axis to 10,000 ms, every bar in its left
    fifth. A fixed 2.4x the slowest bar had left most of the width empty; a 900 px frame had cut 'needs 128 GPUs'.
    A label as wide as the plot has no room past any bar (its value then; an MLPerf label in a 208 px plot)."""
    top = float(np.nanmax(ends, initial=1e-3))

    def reach(texts) -> np.ndarray:  # each bar's end with its label past it, as a share of the plot it needs
        share = np.array([fmt.text_px(t, _BAR_LABEL_CHAR_PX) + _BAR_LABEL_PAD_PX for t in texts]) / plot_px
        return np.where(share < 1, ends / np.maximum(1 - share, 1e-9), np.inf)

    full = reach(labels)
    shown = [v if r > LABEL_ROOM * top else t for t, v, r in zip(labels, values, full, strict=True)]
    needed = reach(shown)
    return shown, float(np.nanmax(np.where(np.isfinite(needed), needed, np.nan), initial=top * 1.05))


# the TPOT bars' figure less its plot and the chips' names beside it (margins, tick gap: measured in Chromium at 440,
# 740 and 940 px, common.FRAME_FIGURE_PX, with 'RTX PRO 4500 Blackwell' the longest name), and the least plot it keeps,
# px; a 12 px label's Latin glyph (value or chip name) and a value label's gap from its bar, px
_BARS_SIDES_PX, _BARS_MIN_PLOT_PX = 47.0, 200.0
_BAR_LABEL_CHAR_PX, _BAR_LABEL_PAD_PX = 6.6, 8.0


# --------------------------------------------------------------------------------------------------- MLPerf

MLPERF_MODELLED_COLOUR = "#111111"


def mlperf_predictions(frame: pd.DataFrame) -> dict[int, tuple[float, float]]:
    """MLPerf row -> (TPOT s, output tokens/s per GPU) the model predicts for it, from the committed predictions
    (ui.validation_data.mlperf_frame: the fit rows)."""
    if frame.empty:
        return {}
    return {
        int(row): (float(tpot_ms) * 1e-3, float(tps))
        for row, tpot_ms, tps in zip(
            frame["row"], frame["predicted_tpot_ms"], frame["predicted_tokens_per_s_per_gpu"], strict=True
        )
    }


def mlperf_table(
    best: Mapping[tuple[str, str], object],
    predictions: Mapping[int, tuple[float, float]],
    engine_names: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """Per chip and MLPerf scenario (tpot_model.mlperf.best_per_chip: the best measured output tokens/s per GPU), a
    'measured' row (the published result) and a 'modelled' row (the model at that run: its concurrency, MLPerf's
    lengths, precision, GPUs per replica, the engine profile as of the round; predictions: MLPerf row -> (TPOT s,
    output tokens/s per GPU), as calibrate wrote them; nan for runs the calibration only displays). Long form: the
    `basis` column says which."""
    engine_names = engine_names or {}
    rows = []
    for (hid, scenario), r in best.items():
        f = r.fields
        tpot_s, tps = predictions.get(r.index, (math.nan, math.nan))
        run = {
            "hardware_id": hid,
            "hardware": r.hardware.name,
            "hardware_short": fmt.chip_short(r.hardware),
            "mlperf_scenario": scenario,
            "round": r.round,
            "round_date": mlperf.ROUND_DATES.get(r.round, ""),
            "benchmark": f["benchmark"],
            "submitter": f["submitter"],
            "system": f["system_name"],
            "num_gpus": r.num_gpus,
            "tensor_parallel": number_or_nan(f["tensor_parallel"]),
            "weights": f["weights"],
            "kv_cache": f["kv_cache"],
            "concurrency_per_replica": number_or_nan(f["concurrency_per_replica"]),
            "isl_tokens": r.isl_tokens,
            "osl_tokens": r.osl_tokens,
            "engine_profile": engine_names.get(r.profile, r.profile),
            "software": r.software,
            "use": f["use"],
            "source": f["source"],
        }
        rows.append({**run, "basis": "measured", "output_tokens_per_s_per_gpu": r.output_tokens_per_s_per_gpu,
                     "tpot_ms": r.tpot_s * 1e3})  # fmt: skip
        rows.append({**run, "basis": "modelled", "output_tokens_per_s_per_gpu": float(tps),
                     "tpot_ms": float(tpot_s) * 1e3})  # fmt: skip
    cols = ["hardware_id", "hardware", "mlperf_scenario", "basis", "output_tokens_per_s_per_gpu", "tpot_ms"]
    return pd.DataFrame(rows)[[*cols, *(k for k in rows[0] if k not in cols)]] if rows else pd.DataFrame(columns=cols)


def _mlperf_wide(table: pd.DataFrame) -> pd.DataFrame:
    """One row per chip and scenario: the run, measured_* and modelled_* values; chips by their best Server
    result, highest first, Server before Interactive."""
    keys = ["hardware_id", "mlperf_scenario"]
    measured = table[table["basis"] == "measured"].set_index(keys)
    modelled = table[table["basis"] == "modelled"].set_index(keys)
    wide = measured.drop(columns="basis").rename(
        columns={"output_tokens_per_s_per_gpu": "measured_tps", "tpot_ms": "measured_tpot_ms"}
    )
    wide["modelled_tps"] = modelled["output_tokens_per_s_per_gpu"]
    wide["modelled_tpot_ms"] = modelled["tpot_ms"]
    wide = wide.reset_index()
    rank = wide.groupby("hardware_id")["measured_tps"].max()
    wide["_chip"] = -wide["hardware_id"].map(rank)
    wide["_scenario"] = wide["mlperf_scenario"].map({s: i for i, s in enumerate(mlperf.LATENCY_SCENARIOS)})
    return wide.sort_values(["_chip", "hardware_id", "_scenario"]).drop(columns=["_chip", "_scenario"])


def mlperf_by_chip(table: pd.DataFrame, *, model_name: str = "", tr: Translator = EN) -> go.Figure:
    """Horizontal bars: each chip's best measured MLPerf output tokens/s per GPU (Server and Interactive, the chip's
    colour), and a black diamond where the model puts the same run (modelled); each label ('12,701 measured, 11,950
    modelled (v5.1)') is drawn past the bar and the diamond, whichever ends later."""
    fig = Figure()
    if table.empty:
        return fig
    wide = _mlperf_wide(table)
    labels = [f"{h} · {s}" for h, s in zip(wide["hardware_short"], wide["mlperf_scenario"], strict=True)]
    measured = wide["measured_tps"].to_numpy(float)
    modelled = wide["modelled_tps"].to_numpy(float)
    runs = [
        tr("hw_mlperf_hover_run", round=r.round, date=r.round_date, scenario=r.mlperf_scenario, benchmark=r.benchmark,
           submitter=r.submitter, system=r.system, gpus=r.num_gpus, weights=r.weights)
        for r in wide.itertuples()
    ]  # fmt: skip
    fig.add_bar(
        x=measured,
        y=labels,
        orientation="h",
        width=0.7,
        marker={"color": [hardware_colour(h) for h in wide["hardware_id"]]},
        name=tr("hw_mlperf_measured"),
        showlegend=False,  # its key is grey below (the bars carry the chips' colours)
        hovertext=[
            tr("hw_mlperf_hover_measured", run=run, tps=fmt.figures(v), tpot=f"{t:.1f}")
            for run, v, t in zip(runs, measured, wide["measured_tpot_ms"], strict=True)
        ],
        hoverinfo="text",
    )
    fig.add_bar(x=[None], y=[None], name=tr("hw_mlperf_measured"), marker_color="#666")
    ok = np.isfinite(modelled)
    if ok.any():
        hover = [
            tr("hw_mlperf_hover_modelled", run=run, tps=fmt.figures(m), tpot=f"{t:.1f}", err=fmt.pct(m / v - 1, 0, signed=True),
               engine=e, c=f"{c:,.0f}")
            for run, m, t, v, e, c in zip(runs, modelled, wide["modelled_tpot_ms"], measured, wide["engine_profile"],
                                          wide["concurrency_per_replica"], strict=True)
        ]  # fmt: skip
        fig.add_scatter(
            x=modelled[ok],
            y=[lab for lab, o in zip(labels, ok, strict=True) if o],
            mode="markers",
            marker={"symbol": "diamond", "size": 11, "color": MLPERF_MODELLED_COLOUR, "line": {"color": "#fff", "width": 1}},
            name=tr("hw_mlperf_modelled"),
            hovertext=[h for h, o in zip(hover, ok, strict=True) if o],
            hoverinfo="text",
        )  # fmt: skip
    reach = float(np.nanmax(np.concatenate([measured, modelled]), initial=1.0))
    ends = np.fmax(measured, np.where(ok, modelled + 0.015 * reach, measured))  # past the diamond's half-width
    # both values named where the diamond is drawn: a label past a diamond beyond the bar had read as that diamond's;
    # each as the table under the chart writes it (fmt.figures: the bar's '2,907' had read '2,910' in the table)
    text = [
        tr("hw_mlperf_bar_label_both", tps=fmt.figures(v), model=fmt.figures(m), round=r)
        if np.isfinite(m)
        else tr("hw_mlperf_bar_label", tps=fmt.figures(v), round=r)
        for v, m, r in zip(measured, modelled, wide["round"], strict=True)
    ]
    # room on the right for each label, as the TPOT bars make it (label_room, in each frame: for_wider): where a
    # label would take the axis past LABEL_ROOM x the longest bar, the measured value alone, said to be it (the rest
    # in the hover; at 900 px the labels had been cut at the chart's edge, '12,700 measured, 11,8', in both languages)
    short = [tr("hw_mlperf_bar_short", tps=fmt.figures(v)) for v in measured]
    names_px = max((fmt.text_px(n, _BAR_LABEL_CHAR_PX) for n in labels), default=0.0)
    framed = [label_room(text, short, ends, max(frame - names_px - _BARS_SIDES_PX, _BARS_MIN_PLOT_PX))
              for frame in FRAME_FIGURE_PX]  # fmt: skip
    fig.add_bar(x=ends, y=labels, orientation="h", width=0.7, marker={"opacity": 0}, text=framed[0][0],
                textposition="outside", cliponaxis=False, showlegend=False, hoverinfo="skip", name="")  # fmt: skip
    style(fig, tr("hw_mlperf_title", model=model_name), tr("hw_mlperf_axis"), "")
    fig.update_xaxes(range=[0, framed[0][1]], tickformat=",~r")
    fig.update_yaxes(autorange="reversed", automargin=True)
    fig.update_layout(
        barmode="overlay",
        height=max(280, 28 * len(labels) + 170),
        margin={"l": 10, "t": 90},
        legend={"orientation": "h", "x": 0.0, "xanchor": "left", "y": 1.0, "yanchor": "bottom"},  # above the bars
    )
    for frame, (shown, right) in zip(FRAME_FIGURE_PX[1:], framed[1:], strict=True):
        for_wider(fig, frame, traces={len(fig.data) - 1: {"text": shown}}, layout={"xaxis": {"range": [0, right]}})
    return fig


def mlperf_display_table(table: pd.DataFrame, *, tr: Translator = EN) -> pd.DataFrame:
    """mlperf_table one row per chip and scenario, measured beside modelled, rounded, with translated headers."""
    labels = {
        "hardware": tr("hw_col_hardware"),
        "mlperf_scenario": tr("hw_mlperf_col_scenario"),
        "measured_tps": tr("hw_mlperf_col_measured_tps"),  # the numbers first, the run's description after
        "modelled_tps": tr("hw_mlperf_col_modelled_tps"),
        "measured_tpot_ms": tr("hw_mlperf_col_measured_tpot"),
        "modelled_tpot_ms": tr("hw_mlperf_col_modelled_tpot"),
        "round": tr("hw_mlperf_col_round"),
        "num_gpus": tr("hw_mlperf_col_gpus"),
        "weights": tr("hw_mlperf_col_weights"),
        "submitter": tr("hw_mlperf_col_submitter"),
        "system": tr("hw_mlperf_col_system"),
        "software": tr("hw_mlperf_col_software"),
    }
    if table.empty:
        return pd.DataFrame(columns=list(labels.values()))
    wide = _mlperf_wide(table)
    wide["round"] = [f"{r} ({d})" for r, d in zip(wide["round"], wide["round_date"], strict=True)]
    wide["software"] = [s.split("; ")[0] or tr("fr_mlperf_no_software") for s in wide["software"]]  # the framework
    out = wide[list(labels)].copy()  # unrounded: cache.display_numbers rounds once for display
    return out.rename(columns=labels)


# --------------------------------------------------------------------------------------------------- generations


def frontier_table(chips: Iterable[Hardware]) -> pd.DataFrame:
    """Per memory type and launch year: the best peak bandwidth launched so far (TB/s), the chip that holds it
    (`announced`: not shipping yet, its figures vendor claims), and the best of any memory type ("all")."""
    chips = sorted((h for h in chips if h.launch_year is not None), key=lambda h: h.launch_year)
    if not chips:
        return pd.DataFrame(columns=["memory_type", "year", "best_bandwidth_tb_per_s", "best_hardware", "announced"])
    years = range(chips[0].launch_year, chips[-1].launch_year + 1)
    rows = []
    known = sorted({h.memory_type for h in chips if h.memory_type}, key=memory_rank)
    for mt in [*known, None]:  # None: the frontier over every chip, unpublished memory types included
        group = [h for h in chips if mt is None or h.memory_type == mt]
        first = group[0].launch_year
        best: Hardware | None = None
        for year in years:
            for h in group:
                if h.launch_year == year and (
                    best is None or h.memory_bandwidth_bytes_per_s > best.memory_bandwidth_bytes_per_s
                ):
                    best = h
            if year < first or best is None:
                continue
            rows.append(
                {
                    "memory_type": "all" if mt is None else mt,
                    "year": year,
                    "best_bandwidth_tb_per_s": best.memory_bandwidth_bytes_per_s / TB_per_s,
                    "best_hardware": best.name,
                    "announced": bool(best.announced),
                }
            )
    return pd.DataFrame(rows)


def bandwidth_frontier(chips: Sequence[Hardware], *, tr: Translator = EN) -> go.Figure:
    """Step lines: the best peak bandwidth (TB/s) available per memory generation, year by year, and over all; a
    point held by an announced chip (vendor claims) is an open marker, named "(announced)" in its hover."""
    table = frontier_table(chips)
    fig = Figure()
    for mt, group in table.groupby("memory_type", sort=False):
        overall = mt == "all"
        label = tr("hw_frontier_all") if overall else memory_label(mt, tr)
        fig.add_scatter(
            x=group["year"],
            y=group["best_bandwidth_tb_per_s"],
            mode="lines+markers",
            line={
                "shape": "hv",
                "color": FRONTIER_COLOUR if overall else _memory_colour(mt),
                "dash": "dot" if overall else "solid",
                "width": 2 if overall else 2.5,
            },
            marker={
                "size": [9 if a else 6 for a in group["announced"]],
                "symbol": ["circle-open" if a else "circle" for a in group["announced"]],
            },  # fmt: skip
            name=label,
            customdata=[
                [tr("hw_announced_name", name=name) if a else name, label]
                for name, a in zip(group["best_hardware"], group["announced"], strict=True)
            ],  # fmt: skip
            hovertemplate=tr("hw_hover_frontier") + "<extra></extra>",
        )
    if table["announced"].any():  # one legend key says what the open markers mean
        fig.add_scatter(x=[None], y=[None], mode="markers", name=tr("hw_frontier_announced"),
                        marker={"symbol": "circle-open", "size": 9, "color": FRONTIER_COLOUR})  # fmt: skip
    style(fig, tr("hw_frontier_title"), tr("hw_axis_year"), tr("hw_axis_bandwidth"))
    fig.update_xaxes(dtick=1, tickformat="d")
    # the legend under the plot (common.legend_placement), its title on a line of its own: at the right its dozen
    # memory types left a ~100 px plot at 900 px with the sidebar open, the years' ticks on end over each other
    return fig.update_layout(**legend_placement(wrap_legend(fig), 460, side_max=0, title=tr("hw_legend_memory")))


def generation_table(chips: Iterable[Hardware], *, tr: Translator = EN) -> pd.DataFrame:
    """One row per memory generation: chips in the catalog, years, best bandwidth and capacity, and which chips."""
    chips = list(chips)
    rows = []
    for mt in sorted({h.memory_type for h in chips}, key=memory_rank):
        group = sorted((h for h in chips if h.memory_type == mt), key=lambda h: -h.memory_bandwidth_bytes_per_s)
        years = [h.launch_year for h in group if h.launch_year is not None]
        rows.append(
            {
                tr("hw_col_memory_type"): memory_label(mt, tr),
                tr("hw_col_chips"): len(group),
                tr("hw_col_years"): (f"{min(years)}–{max(years)}" if min(years) < max(years) else str(min(years)))
                if years
                else "",
                tr("hw_col_best_bw"): round(group[0].memory_bandwidth_bytes_per_s / TB_per_s, 3),
                tr("hw_col_max_gb"): round(max(h.memory_bytes for h in group) / GB, 1),
                tr("hw_col_chip_list"): ", ".join(fmt.chip(h, tr) for h in group),
            }
        )
    return pd.DataFrame(rows)


def specs_table_labels(*, tr: Translator = EN) -> dict[str, str]:
    """Display headers for the columns of specs_table shown on the page, in their order: the price and its date
    beside the name, then the section's bandwidth and capacity, compute and power (the price, its date and the
    TDP's estimate column had been past the right edge at 1400 px), the rest after. Short: the price's basis is said
    under the table (hw_specs_price_note; in the header it cut the column at 1400 px); whether a figure is an
    estimate, in its cell (specs_display_table)."""
    return {
        "hardware": tr("hw_col_hardware"),
        "price_usd_per_gpu_hour": tr("hw_col_spec_price"),
        "price_as_of": tr("hw_col_spec_price_as_of"),
        "bandwidth_tb_per_s": tr("hw_col_spec_bw"),
        "memory_gb": tr("hw_col_spec_gb"),
        "dense_16bit_tflop_per_s": tr("hw_col_spec_tflops"),
        "tdp_w": tr("hw_col_spec_tdp"),
        "memory_reported_gib": tr("hw_col_spec_gib_reported"),
        "memory_type": tr("hw_col_spec_memory_type"),
        "launch_year": tr("hw_col_spec_year"),
        "vendor": tr("hw_col_spec_vendor"),
    }


ESTIMATED_COLUMNS = {"dense_16bit_tflop_per_s": "dense_16bit_tflop_per_s_estimated", "tdp_w": "tdp_w_estimated"}


def specs_display_table(specs: pd.DataFrame, *, tr: Translator = EN) -> tuple[pd.DataFrame, dict[str, list[bool]]]:
    """specs_table as the page shows it (specs_table_labels' columns, order and headers; a TDP in whole watts as a
    whole number, '1,000' not '1,000.0'), and per header the rows whose figure is the catalog's estimate
    (ESTIMATED_COLUMNS: Apple's TFLOP/s, the TPUs', Trainium's and Apple's TDP), for their cells' mark
    (fmt.estimate); the chips' short names where no two coincide (fmt.chip_names), an announced one starred
    (hw_announced_key says what the star is). Unrounded (cache.display_numbers rounds once, for display); the CSV
    keeps every column, the full names."""
    labels = specs_table_labels(tr=tr)
    out = specs[list(labels)].copy()
    # the chips' short names where no two coincide, an announced one starred (the key under the table), as in the
    # TPOT table beside it: the full names ('NVIDIA GB300 (per Blackwell Ultra GPU, NVL72)'), whole, had taken the
    # pinned column to 40 % of a 1400 px table and the TDP out of view; the CSV keeps them
    catalog = load_hardware_catalog()
    shown = fmt.chip_names([catalog.get(i) for i in specs["hardware_id"]], specs["hardware"])
    out["hardware"] = [f"{n}*" if a else n for n, a in zip(shown, specs["hardware_announced"], strict=True)]
    tdp = out["tdp_w"].to_numpy(float)
    if np.all(np.isnan(tdp) | (tdp == np.round(tdp))):
        out["tdp_w"] = out["tdp_w"].astype("Int64")
    estimated = {labels[c]: [bool(e) for e in specs[flag]] for c, flag in ESTIMATED_COLUMNS.items()}
    return out.rename(columns=labels), estimated
