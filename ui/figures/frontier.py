"""Serving frontier figures: output (or total) tokens/s per GPU against tokens/s per user as concurrency grows, per
hardware x precision x layout, with measured points overlaid; cost per million tokens at an interactivity target;
tokens per MW; and the leave-one-hardware-out check against the measurements. Pure: data in, figures out.

Also the page's options (I/O presets, precisions, layouts, tiers, ranges), whose URL form ui.page_state reads and
writes."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from tpot_model import mlperf
from tpot_model.catalog import Hardware, architecture_twin
from tpot_model.economics import tokens_per_s_per_mw, usd_per_1M_tokens
from tpot_model.files import number_or_nan
from tpot_model.frontier_check import measured_at, measured_at_least
from tpot_model.prices import BASES
from tpot_model.serving import at_interactivity

from .. import fmt
from ..i18n import EN, Translator
from .common import (
    Figure,
    hardware_colour,
    legend_placement,
    measured_layout,
    nice_log_ticks,
    style,
    tick_label,
    wrap_label,
    y_log_ticks,
)

# (ISL, OSL) tokens: InferenceX's chat, reasoning and summarization workloads; long reasoning (thinking models'
# 16K-32K outputs); agentic long context (a coding agent's 64K prompt of code and tool output, 2K out)
IO_PRESETS = {
    "1k1k": (1024, 1024),
    "1k8k": (1024, 8192),
    "8k1k": (8192, 1024),
    "1k16k": (1024, 16384),
    "1k32k": (1024, 32768),
    "64k2k": (65536, 2048),
}
CUSTOM = "custom"
IO_OPTIONS = (*IO_PRESETS, CUSTOM)
PRECISIONS = ("fp8", "fp4", "bf16")
LAYOUTS = ("tp", "tp-ep", "dp-ep")
Y_METRICS = ("output", "total")
TIERS = (*BASES, CUSTOM)
CONCURRENCY = np.array([1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024], dtype=float)
DEFAULT_HARDWARE = ("h200", "b200", "mi355x")
MAX_SERIES = 12  # hardware x precision x layout curves drawn at once
BOUND_OPACITY = 0.5  # a measured bar that bounds the chip at the target (at most that $), beside readings at it
MAX_TARGET = 2000.0  # tokens/s per user
MAX_USD = 1000.0
K_RANGE = (1, 7)
DASH = {"fp8": "solid", "fp4": "dash", "bf16": "dot"}
SYMBOL = {"tp": "circle", "tp-ep": "square", "dp-ep": "diamond", "disaggregated": "star"}
LAYOUT_LABEL = {"tp": "TP", "tp-ep": "TP/EP", "dp-ep": "DP-attn/EP", "disaggregated": "disagg"}
PRECISION_LABEL = {"fp8": "FP8", "fp4": "FP4", "bf16": "BF16"}


def measured_model(model_id: str, rows) -> str:
    """The model id whose measured rows (serving runs or MLPerf results) stand for `model_id`'s: itself, or its
    architecture twin among the rows' models (catalog.architecture_twin: DeepSeek-V3's are DeepSeek-R1's)."""
    return architecture_twin(model_id, {r.model.id for r in rows if getattr(r, "model", None) is not None})


MLPERF_SYMBOL = {"v5.1": "triangle-up", "v5.0": "triangle-down", "v4.1": "triangle-left", "v4.0": "triangle-right"}
MLPERF_KEY_COLOUR = "#555"  # the legend keys of MLPerf points (the points themselves carry the chip's colour)


# --------------------------------------------------------------------------------------------------- page inputs


def concurrency_grid(marked: float, limit: float | None = None) -> np.ndarray:
    """The concurrency sweep, with the sidebar's batch (the concurrency marked on every curve) added, and `limit`
    (the most requests in flight that fit, where that is inside the sweep: a curve ends there, not at a point
    below it)."""
    extra = [float(marked)]
    if limit is not None and 1 <= limit < CONCURRENCY[-1]:
        extra.append(float(limit))
    return np.union1d(CONCURRENCY, extra)


def most_in_flight(max_batch) -> float | None:
    """The most requests in flight that fit (an estimate's max_batch over a sweep: one value), None where unknown."""
    v = float(np.asarray(max_batch, dtype=float).flat[0])
    return v if math.isfinite(v) else None


def lengths(io: str, context_tokens: int, output_tokens: int) -> tuple[int, int]:
    """(ISL, OSL) of a preset, or the sidebar's context and output for 'custom'."""
    return IO_PRESETS.get(io, (int(context_tokens), int(max(output_tokens, 1))))


def io_label(isl: int, osl: int) -> str:
    """'1k/1k', '8k/1k'; a million tokens as '1M' (1,048,576 had read '1024k'), as context lengths are said."""

    def k(n: int) -> str:
        if n >= 2**20 and n % 2**20 == 0:
            return f"{n // 2**20}M"
        return f"{n // 1024}k" if n >= 1024 and n % 1024 == 0 else f"{n:,}"

    return f"{k(isl)}/{k(osl)}"


def series_grid(hardware: Sequence[str], precisions: Sequence[str], layouts: Sequence[str]) -> list[tuple]:
    """(hardware id, precision, layout) of every curve, in drawing order, at most MAX_SERIES."""
    return [(h, p, lay) for h in hardware for p in precisions for lay in layouts][:MAX_SERIES]


# --------------------------------------------------------------------------------------------------- series


@dataclass(frozen=True, eq=False)
class Series:
    """One curve: a hardware x precision x layout served at every concurrency (arrays over CONCURRENCY)."""

    hardware: Hardware
    precision: str
    weights: str
    layout: str
    concurrency: np.ndarray
    tpot_s: np.ndarray
    ttft_s: np.ndarray
    output_per_gpu: np.ndarray
    total_per_gpu: np.ndarray
    fits: np.ndarray
    all_in_w: float = math.nan  # per GPU, from data/prices.yaml
    usd_per_gpu_hour: dict[str, float] = field(default_factory=dict)  # by price basis (data/prices.yaml)
    marked: float = math.nan  # the concurrency to highlight (the sidebar's batch)
    price_as_of: dict[str, str] = field(default_factory=dict)  # each basis's price date (data/prices.yaml)
    # the precision the matrix multiplies run in on this chip (Estimate.compute_precision), and (asked, used) where
    # that is not the one the weights' format asks for (Estimate.compute_fallback: ('fp4', 'bf16') on an H200)
    compute_precision: str = ""
    compute_fallback: tuple[str, str] | None = None

    @property
    def marked_index(self) -> int | None:
        hit = np.flatnonzero(self.concurrency == self.marked)
        return int(hit[0]) if hit.size else None

    @property
    def interactivity(self) -> np.ndarray:
        return 1.0 / self.tpot_s

    def per_gpu(self, y: str) -> np.ndarray:
        return self.output_per_gpu if y == "output" else self.total_per_gpu

    def label(self, tr: Translator = EN) -> str:
        return f"{fmt.chip(self.hardware, tr, short=True)} · {PRECISION_LABEL[self.precision]} · {LAYOUT_LABEL[self.layout]}"

    @property
    def hardware_id(self) -> str:
        return self.hardware.id

    def price(self, tier: str, custom_usd: float) -> float:
        return custom_usd if tier == CUSTOM else self.usd_per_gpu_hour.get(tier, math.nan)

    def at_target(self, target: float, y: str) -> float:
        """tokens/s per GPU at the target interactivity, along the points that fit (nan when off the curve); where
        every point that fits is more interactive than the target, its last one's (beyond)."""
        if (i := self.beyond(target)) is not None:
            return float(self.per_gpu(y)[i])
        ok = self.fits
        return at_interactivity(self.interactivity[ok], self.per_gpu(y)[ok], target)

    def beyond(self, target: float) -> int | None:
        """The curve's last point that fits where every point that fits is more interactive than `target` (the
        deployment meets the target there and can add no request: memory, or the sweep's end, stops it); else None."""
        ok = np.flatnonzero(self.fits)
        if ok.size == 0 or not target < float(np.min(self.interactivity[ok])):
            return None
        return int(ok[-1])

    def limited_by(self, target: float) -> str:
        """Why the curve's value at `target` is its last point (beyond): 'memory' (the next concurrency does not
        fit), 'sweep' (the sweep ends: a bound, at least that many tokens/s), or '' (read off the curve)."""
        if self.beyond(target) is None:
            return ""
        return "sweep" if bool(self.fits[-1]) else "memory"


def make_series(hardware, precision: str, weights: str, layout: str, concurrency, tpot_s, ttft_s, output_per_gpu,
                total_per_gpu, fits, marked: float = math.nan, est=None) -> Series:  # fmt: skip
    """A Series from the model's arrays and the hardware (its prices by basis and all-in power: data/prices.yaml);
    `est`: the curve's Estimate, for the matrix multiplies' precision (compute_precision, compute_fallback)."""
    prices = {b: p.usd_per_gpu_hour for b, p in hardware.prices.usd_per_gpu_hour.items()}
    dates = {b: p.as_of for b, p in hardware.prices.usd_per_gpu_hour.items()}
    if "on_demand" not in prices and hardware.price_usd_per_hour is not None:  # a user's file with its own price
        prices["on_demand"] = hardware.price_usd_per_hour
    shape = np.shape(concurrency)
    return Series(
        hardware=hardware,
        precision=precision,
        weights=weights,
        layout=layout,
        concurrency=np.asarray(concurrency, dtype=float),
        tpot_s=np.broadcast_to(np.asarray(tpot_s, dtype=float), shape),
        ttft_s=np.broadcast_to(np.asarray(ttft_s, dtype=float), shape),
        output_per_gpu=np.broadcast_to(np.asarray(output_per_gpu, dtype=float), shape),
        total_per_gpu=np.broadcast_to(np.asarray(total_per_gpu, dtype=float), shape),
        fits=np.broadcast_to(np.asarray(fits, dtype=bool), shape),
        all_in_w=hardware.prices.all_in_w,
        usd_per_gpu_hour=prices,
        marked=float(marked),
        price_as_of=dates,
        compute_precision=getattr(est, "compute_precision", ""),
        compute_fallback=getattr(est, "compute_fallback", None),
    )


def _precision_of(weights: str) -> str:
    return "fp4" if weights in ("nvfp4", "mxfp4", "fp4") else weights


def sidebar_series(series: Sequence[Series], hardware_id: str, weights: str) -> Series | None:
    """The curve of the sidebar's scenario: its chip's in its weights' precision, tensor parallel (the sidebar's
    layout) where that is drawn, else that precision's first layout; None where its chip is not drawn in that
    precision (another precision's TPOT had been quoted above a note on the sidebar's: a review)."""
    own = [s for s in series if s.hardware_id == hardware_id and s.precision == _precision_of(weights)]
    return min(own, key=lambda s: s.layout != "tp", default=None)


def measured_points(rows, model_id: str, isl: int, osl: int, hardware: Sequence[str], precisions: Sequence[str],
                    mtp: bool, disaggregated: bool = True, layouts: Sequence[str] = LAYOUTS) -> list:  # fmt: skip
    """The measured serving points that belong on this frontier: same model (or architecture), nominal ISL/OSL,
    a selected hardware, precision and layout, MTP as switched; single-node, and (if asked) the multi-node
    disaggregated runs, which are display-only."""
    model = measured_model(model_id, rows)
    layouts = (*layouts, "disaggregated") if disaggregated else tuple(layouts)
    return [
        r
        for r in rows
        if r.fields.get("model_id") == model
        and r.isl == isl
        and r.osl == osl
        and r.fields.get("hardware_id") in hardware
        and _precision_of(r.fields.get("weights", "")) in precisions
        and r.mtp == mtp
        and math.isfinite(r.interactivity_tokens_per_s_per_user)
        and r.layout in layouts
    ]


NO_IMAGE = "(container image not recorded)"  # the serving file's words where a run's image is unknown


def engine_text(r, tr: Translator) -> str:
    """A run's engine as a hover says it: the serving file's text, its 'container image not recorded' translated."""
    return r.engine.replace(NO_IMAGE, tr("fr_no_image"))


def engine_name(r) -> str:
    """'SGLang (lmsysorg/sglang:v0.5.12-cu130)' -> 'SGLang' (the legend; the hover keeps the image)."""
    return r.engine.split(" (")[0]


def _measured_y(r, y: str) -> float:
    return r.output_tokens_per_s_per_gpu if y == "output" else r.total_tokens_per_s_per_gpu


def _hover_measured(r, tr: Translator, y_value: float, unit: str) -> str:
    return tr(
        "fr_hover_measured",
        id=r.label,
        engine=engine_text(r, tr),
        date=r.run_date or "—",
        parallelism=measured_layout(r.fields.get("parallelism", ""), tr),
        c=int(r.concurrency) if math.isfinite(r.concurrency) else "—",
        tpot=f"{r.tpot_s * 1e3:.1f}",
        y=fmt.large(y_value),  # as the model's hover beside it ('30.4 K tok/s/MW', not '30,365.0')
        unit=unit,
        use=tr("fr_use_fit") if r.fitted else tr("fr_use_display"),
    )


# --------------------------------------------------------------------------------------------------- MLPerf


@dataclass(frozen=True, eq=False)
class MLPerfPoint:
    """One measured MLPerf Inference result (tpot_model.mlperf.MLPerfResult) drawn on the frontier, and whether
    its weight precision is one of the curves'."""

    result: object  # tpot_model.mlperf.MLPerfResult
    precision_matches: bool

    @property
    def hardware_id(self) -> str:
        return self.result.hardware_id

    @property
    def round(self) -> str:
        return self.result.round

    @property
    def interactivity(self) -> float:
        """tokens/s per user = 1 / mean TPOT."""
        return 1.0 / self.result.tpot_s

    def per_gpu(self, y: str) -> float:
        """Output tokens/s per GPU (MLPerf's metric), or input + output as the model counts them (y = 'total')."""
        r = self.result
        return r.output_tokens_per_s_per_gpu if y == "output" else r.total_tokens_per_s_per_gpu


def mlperf_overlay(results, model_id: str, hardware: Sequence[str] | None, precisions: Sequence[str]) -> list:
    """The MLPerf points for this frontier: the model (or its architecture twin, measured_model) on the selected chips
    (all chips if None), closed division, Server and Interactive (tpot_model.mlperf.measured_points); a precision
    not among the curves' is kept and marked."""
    ids = None if hardware is None else set(hardware)
    found = mlperf.measured_points(results, measured_model(model_id, results), ids)
    return [MLPerfPoint(r, _precision_of(r.fields["weights"]) in precisions) for r in found]


def mlperf_models(results) -> list:
    """The catalog models (ModelSpec) with at least one MLPerf point, by name."""
    models = {r.model.id: r.model for r in results if r.model is not None}
    return sorted((m for i, m in models.items() if mlperf.measured_points(results, i)), key=lambda m: m.name)


def mlperf_lengths(points: Sequence[MLPerfPoint]) -> tuple[float, float]:
    """(ISL, OSL) tokens to quote for these points: the dataset's mean input length and the median of the runs'
    mean output lengths (nan, nan for none)."""
    if not points:
        return math.nan, math.nan
    return (float(np.median([p.result.isl_tokens for p in points])),
            float(np.median([p.result.osl_tokens for p in points])))  # fmt: skip


def mlperf_symbol(round_: str) -> str:
    """The marker of an MLPerf round (triangles, one direction per round)."""
    return MLPERF_SYMBOL.get(round_, "triangle-up")


def _precision_label(weights: str) -> str:
    return PRECISION_LABEL.get(_precision_of(weights), weights.upper() or "?")


def _software_short(r, tr: Translator) -> str:
    """The declared framework (else the software stack), at most 70 characters; 'not declared' where neither."""
    text = (r.fields.get("framework") or r.fields.get("other_software_stack") or "").strip()
    if not text:
        return tr("fr_mlperf_no_software")
    return text if len(text) <= 70 else text[:69] + "…"


def _hover_mlperf(p: MLPerfPoint, y: str, io: str, curves: str, tr: Translator, unit: str) -> str:
    r = p.result
    f = r.fields
    tp = number_or_nan(f.get("tensor_parallel", ""))
    conv = (
        tr("fr_mlperf_total_from", out=f"{r.output_tokens_per_s_per_gpu:,.0f}", isl=f"{r.isl_tokens:,.0f}",
           osl=f"{r.osl_tokens:,.0f}")
        if y == "total" else ""
    )  # fmt: skip
    return tr(
        "fr_hover_mlperf",
        round=r.round,
        date=mlperf.ROUND_DATES.get(r.round, "—"),
        scenario=f["scenario"],
        benchmark=f["benchmark"],
        submitter=f["submitter"],
        system=f["system_name"],
        gpus=r.num_gpus,
        tp=f"{tp:g}" if math.isfinite(tp) else "—",
        precision=_precision_label(f["weights"]),
        other="" if p.precision_matches else tr("fr_mlperf_other_precision", curves=curves),
        tpot=f"{r.tpot_s * 1e3:.1f}",
        x=f"{p.interactivity:.1f}",
        y=f"{p.per_gpu(y):,.0f}",
        unit=unit,
        conv=conv,
        software=_software_short(r, tr),
        isl=f"{r.isl_tokens:,.0f}",
        osl=f"{r.osl_tokens:,.0f}",
        io=io,
    )


# --------------------------------------------------------------------------------------------------- frontier


def _curve_traces(fig: go.Figure, s: Series, x: np.ndarray, yv: np.ndarray, tr: Translator, unit: str) -> None:
    colour = hardware_colour(s.hardware_id)
    name = s.label(tr)
    hover = [
        tr("fr_hover_model", name=name, c=int(c), tpot=f"{t * 1e3:.1f}", ttft=f"{f * 1e3:,.0f}", y=fmt.large(v),
           unit=unit, x=f"{xx:.1f}")  # y as the cards write it: '588 K tok/s/MW' (had '588,094'), '9,876', '14.7'
        for c, t, f, v, xx in zip(s.concurrency, s.tpot_s, s.ttft_s, yv, x, strict=True)
    ]  # fmt: skip
    if said := fmt.compute_fallback(s.compute_fallback, tr):  # FP4 on a chip with no FP4 rate: at another precision
        hover = [f"{h}<br>{said}" for h in hover]
    ok = s.fits
    line = {"color": colour, "dash": DASH[s.precision], "width": 2}
    fig.add_scatter(
        x=x[ok], y=yv[ok], mode="lines+markers", name=name, legendgroup=name, line=line, legendrank=100,
        marker={"symbol": SYMBOL[s.layout], "size": 6, "color": colour},
        hovertext=[h for h, o in zip(hover, ok, strict=True) if o], hoverinfo="text",
    )  # fmt: skip
    if (~ok).any():
        fig.add_scatter(
            x=x[~ok], y=yv[~ok], mode="markers", name=tr("fr_no_fit_legend", name=name), legendgroup=name,
            showlegend=bool(not ok.any()), legendrank=100,
            marker={"symbol": SYMBOL[s.layout] + "-open", "size": 7, "color": colour},
            hovertext=[tr("fr_hover_no_fit", text=h) for h, o in zip(hover, ok, strict=True) if not o],
            hoverinfo="text",
        )  # fmt: skip
        key = tr("fr_no_fit_key")
        if ok.any() and not any(t.name == key for t in fig.data):  # one legend entry says what open markers mean
            fig.add_scatter(x=[None], y=[None], mode="markers", name=key, legendgroup="no-fit-key", legendrank=950,
                            marker={"symbol": "circle-open", "size": 7, "color": "#555"}, hoverinfo="skip")  # fmt: skip
    i = s.marked_index
    if i is not None:
        fig.add_scatter(
            x=[x[i]], y=[yv[i]], mode="markers", name=tr("fr_marked_legend"), legendgroup="marked", legendrank=900,
            showlegend=not any(tr("fr_marked_legend") == tt.name for tt in fig.data),
            marker={"symbol": "circle-open", "size": 16, "color": "#111", "line": {"width": 2}},
            hovertext=[tr("fr_hover_marked", text=hover[i])], hoverinfo="text",
        )  # fmt: skip


def _measured_traces(fig, points, y_of, tr: Translator, unit: str, series: Sequence[Series] = ()) -> None:
    """One trace per hardware (single-node) and one per hardware for disaggregated runs: big markers, no line; in the
    order of the chips' curves (`series`), any other chip after them."""
    groups: dict[tuple[str, bool], list] = {}
    for r in points:
        v = y_of(r)
        if math.isfinite(v) and v > 0:
            groups.setdefault((r.fields["hardware_id"], r.layout == "disaggregated"), []).append((r, v))
    order = {h: i for i, h in enumerate(dict.fromkeys(s.hardware.id for s in series))}
    for (hid, disagg), items in sorted(groups.items(), key=lambda kv: (order.get(kv[0][0], len(order)), kv[0])):
        colour = hardware_colour(hid)
        engines = tr.join(sorted({engine_name(r) for r, _ in items}))
        name = tr("fr_measured_disagg" if disagg else "fr_measured", hw=hid.upper(), engines=engines)
        fig.add_scatter(
            x=[r.interactivity_tokens_per_s_per_user for r, _ in items],
            y=[v for _, v in items],
            mode="markers",
            name=name,
            legendgroup=f"measured-{hid}-{disagg}",
            legendrank=500,
            marker={
                "symbol": [SYMBOL[r.layout] + ("-open" if disagg else "") for r, _ in items],
                "size": 11,
                "color": colour,
                "opacity": 0.55 if disagg else 0.9,
                "line": {"color": "#222", "width": 1},
            },
            hovertext=[_hover_measured(r, tr, v, unit) for r, v in items],
            hoverinfo="text",
        )


def _mlperf_traces(fig, points: Sequence[MLPerfPoint], y: str, io: str, curves: str, tr: Translator, unit: str) -> None:
    """One trace per MLPerf round (and per precision: the curves' or another, drawn open), each point in its chip's
    colour; one grey legend key per trace, 'MLPerf vX.Y (measured)', which toggles it."""
    groups: dict[tuple[str, bool], list[MLPerfPoint]] = {}
    for p in points:
        if math.isfinite(p.per_gpu(y)) and p.per_gpu(y) > 0:
            groups.setdefault((p.round, p.precision_matches), []).append(p)
    for (round_, same), items in sorted(groups.items(), reverse=True):  # newest first, the curves' precision first
        symbol = mlperf_symbol(round_) + ("" if same else "-open")
        name = tr("fr_mlperf_legend" if same else "fr_mlperf_legend_other", round=round_)
        group = f"mlperf-{round_}-{same}"
        colours = [hardware_colour(p.hardware_id) for p in items]
        fig.add_scatter(
            x=[p.interactivity for p in items],
            y=[p.per_gpu(y) for p in items],
            mode="markers",
            name=name,
            legendgroup=group,
            showlegend=False,
            marker={
                "symbol": symbol,
                "size": 11,
                "color": colours,
                "line": {"color": "#222" if same else colours, "width": 1 if same else 2},  # open: a thicker rim
            },
            hovertext=[_hover_mlperf(p, y, io, curves, tr, unit) for p in items],
            hoverinfo="text",
        )
        fig.add_scatter(x=[None], y=[None], mode="markers", name=name, legendgroup=group, legendrank=600,
                        marker={"symbol": symbol, "size": 10, "color": MLPERF_KEY_COLOUR,
                                "line": {"color": "#222" if same else MLPERF_KEY_COLOUR, "width": 1 if same else 2}},
                        hoverinfo="skip")  # fmt: skip


COINCIDE = 0.01  # curves within this fraction of each other at every concurrency both draw: one lies under the other


def coinciding(series: Sequence[Series], y: str = "output", within: float = COINCIDE) -> list[tuple[Series, Series]]:
    """(hidden, on top) for each curve drawn under another that matches it (at every concurrency both draw, tokens/s
    per user and per GPU within `within`; all its points but its own last, the batch that fills its memory, drawn by
    the top too): B200's under GB200 NVL72's on a sidebar GB200, its legend entry and no line. frontier_figure draws
    the first series on top."""
    out = []
    for j, hidden in enumerate(series):
        drawn = {float(c): i for i, c in enumerate(hidden.concurrency) if hidden.fits[i]}
        for top in series[:j]:
            both = [
                (i, k) for k, c in enumerate(top.concurrency) if top.fits[k] and (i := drawn.get(float(c))) is not None
            ]
            if len(both) < max(len(drawn) - 1, 1):
                continue
            h, t = (np.array(v) for v in zip(*both, strict=True))
            if np.allclose(hidden.interactivity[h], top.interactivity[t], rtol=within, atol=0) and np.allclose(
                hidden.per_gpu(y)[h], top.per_gpu(y)[t], rtol=within, atol=0
            ):
                out.append((hidden, top))
                break
    return out


def frontier_figure(series: Sequence[Series], points, *, y: str = "output", isl: int = 1024, osl: int = 1024,
                    model_name: str = "", log_y: bool = True, mlperf_points: Sequence[MLPerfPoint] = (),
                    device: str = "gpu", tr: Translator = EN) -> go.Figure:  # fmt: skip
    """tokens/s per GPU (output or total) against tokens/s per user, one curve per series, measured points on top:
    InferenceX's (at the chart's ISL/OSL) and MLPerf's (mlperf_overlay: at MLPerf's own lengths, said in the hover;
    for y = 'total' MLPerf's output tokens/s are converted with its mean ISL and OSL). `device`: the device kind of
    the chips shown (fmt.device_kind over them: 'chip' unless all are GPUs), whose word the title and axis use."""
    fig = Figure()
    unit = fmt.device_text("fr_unit_tps_gpu", device, tr)
    # drawn last to first, so the first curves (the sidebar's chip) lie on top where two coincide (GB200 under B200
    # had shown only its legend entry: a browser review); the legend keeps the series' order
    for rank, s in reversed(list(enumerate(series))):
        before = len(fig.data)
        _curve_traces(fig, s, s.interactivity, s.per_gpu(y), tr, unit)
        for t in fig.data[before:]:
            t.legendrank = 1000 + rank
    _measured_traces(fig, points, lambda r: _measured_y(r, y), tr, unit, series)
    curves = ", ".join(dict.fromkeys(PRECISION_LABEL[s.precision] for s in series)) or "—"
    _mlperf_traces(fig, mlperf_points, y, io_label(isl, osl), curves, tr, unit)
    style(
        fig,
        fmt.device_text(f"fr_frontier_title_{y}", device, tr, model=model_name, io=io_label(isl, osl)),
        tr("fr_axis_tps_user"),
        fmt.device_text(f"fr_axis_tps_gpu_{y}", device, tr),
        log_y=log_y,
    )
    # below the plot, however few the series: a column at the right left a 900 px embed's plot ~370 px wide
    fig.update_layout(**legend_placement(fig, 540, side_max=0))
    fig.update_xaxes(rangemode="tozero")
    fig.update_yaxes(rangemode="tozero") if not log_y else fig.update_yaxes(y_log_ticks(fig, prefixed=True))
    return fig


def frontier_table(series: Sequence[Series], points, *, y: str = "output",
                   mlperf_points: Sequence[MLPerfPoint] = ()) -> pd.DataFrame:  # fmt: skip
    """The data behind frontier_figure: model points, then InferenceX's measured points, then MLPerf's; `basis` says
    modelled or measured. MLPerf rows: tokens/s per user = 1 / mean TPOT, output tokens/s per GPU as published,
    total = output x (ISL + OSL) / OSL with its mean lengths (isl_tokens, osl_tokens: MLPerf's, not the chart's)."""
    rows = []
    for s in series:
        for i, c in enumerate(s.concurrency):
            rows.append({
                "kind": "model", "series": s.label(), "hardware": s.hardware_id, "weights": s.weights,
                "layout": s.layout, "compute_precision": s.compute_precision,
                "concurrency": int(c), "tpot_ms": s.tpot_s[i] * 1e3, "ttft_ms": s.ttft_s[i] * 1e3,
                "tokens_per_s_per_user": s.interactivity[i], "output_tokens_per_s_per_gpu": s.output_per_gpu[i],
                "total_tokens_per_s_per_gpu": s.total_per_gpu[i], "fits": bool(s.fits[i]),
                "id": "", "engine": "", "run_date": "",
            })  # fmt: skip
    for r in points:
        rows.append({
            "kind": "measured" if r.layout != "disaggregated" else "measured (disaggregated, display only)",
            "series": "", "hardware": r.fields["hardware_id"], "weights": r.fields["weights"], "layout": r.layout,
            "concurrency": int(r.concurrency), "tpot_ms": r.tpot_s * 1e3, "ttft_ms": r.ttft_s * 1e3,
            "tokens_per_s_per_user": r.interactivity_tokens_per_s_per_user,
            "output_tokens_per_s_per_gpu": r.output_tokens_per_s_per_gpu,
            "total_tokens_per_s_per_gpu": r.total_tokens_per_s_per_gpu, "fits": True,
            "id": r.id, "engine": r.engine, "run_date": r.run_date,
        })  # fmt: skip
    for p in mlperf_points:
        m, f = p.result, p.result.fields
        rows.append({
            "kind": "measured (MLPerf Inference)", "series": "", "hardware": m.hardware_id, "weights": f["weights"],
            "layout": f["layout"], "concurrency": float(number_or_nan(f["concurrency_per_replica"])),
            "tpot_ms": m.tpot_s * 1e3, "ttft_ms": float(number_or_nan(f["ttft_mean_ms"])),
            "tokens_per_s_per_user": p.interactivity, "output_tokens_per_s_per_gpu": m.output_tokens_per_s_per_gpu,
            "total_tokens_per_s_per_gpu": m.total_tokens_per_s_per_gpu, "fits": True,
            "id": f"mlperf-{m.index}", "engine": m.software, "run_date": mlperf.ROUND_DATES.get(m.round, ""),
            "round": m.round, "mlperf_scenario": f["scenario"], "benchmark": f["benchmark"],
            "submitter": f["submitter"], "system": f["system_name"], "num_gpus": m.num_gpus,
            "tensor_parallel": float(number_or_nan(f["tensor_parallel"])), "isl_tokens": m.isl_tokens,
            "osl_tokens": m.osl_tokens, "precision_matches_curves": p.precision_matches, "source": f["source"],
        })  # fmt: skip
    df = pd.DataFrame(rows)
    if not df.empty:
        df.insert(1, "basis", ["modelled" if k == "model" else "measured" for k in df["kind"]])
    return df


# --------------------------------------------------------------------------------------------------- per MW


def per_mw_figure(series: Sequence[Series], points, all_in_w: Mapping[str, float], *, y: str = "output", log_y: bool = True,
                  tr: Translator = EN) -> go.Figure:  # fmt: skip
    """tokens/s per MW of all-in power against tokens/s per user, for the hardware with an all-in power figure."""
    fig = Figure()
    unit = tr("fr_unit_tps_mw")
    for s in series:
        if math.isfinite(s.all_in_w):
            _curve_traces(fig, s, s.interactivity, tokens_per_s_per_mw(s.per_gpu(y), s.all_in_w), tr, unit)

    def y_of(r):
        return float(tokens_per_s_per_mw(_measured_y(r, y), all_in_w.get(r.fields["hardware_id"], math.nan)))

    _measured_traces(fig, [r for r in points if r.layout != "disaggregated"], y_of, tr, unit, series)
    style(fig, tr(f"fr_mw_title_{y}"), tr("fr_axis_tps_user"), tr(f"fr_axis_tps_mw_{y}"), log_y=log_y)
    fig.update_layout(**legend_placement(fig, 460, side_max=0))  # below, as the frontier's
    fig.update_xaxes(rangemode="tozero")
    fig.update_yaxes(rangemode="tozero") if not log_y else fig.update_yaxes(y_log_ticks(fig, prefixed=True))
    return fig


def per_mw_table(series: Sequence[Series], *, y: str = "output") -> pd.DataFrame:
    rows = [
        {"series": s.label(), "hardware": s.hardware_id, "concurrency": int(c), "all_in_W_per_gpu": s.all_in_w,
         "tokens_per_s_per_user": float(s.interactivity[i]),
         f"{y}_tokens_per_s_per_MW": float(tokens_per_s_per_mw(s.per_gpu(y)[i], s.all_in_w)), "fits": bool(s.fits[i])}
        for s in series if math.isfinite(s.all_in_w) for i, c in enumerate(s.concurrency)
    ]  # fmt: skip
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------------- cost at target


@dataclass(frozen=True)
class AtTarget:
    """One series at the target interactivity: tokens/s per GPU, $/1M tokens per tier, tokens/s per MW."""

    label: str
    hardware_id: str
    tokens_per_s_per_gpu: float
    usd_per_gpu_hour: dict[str, float]
    usd_per_1m: dict[str, float]
    tokens_per_s_per_mw: float
    price_as_of: dict[str, str] = field(default_factory=dict)  # by tier: the price's date ('' for your own)
    measured_runs: tuple[str, ...] = ()  # measured (measured_at_target): the runs it is read from; () modelled
    at_least: bool = False  # a bound: tokens/s at least, $ at most (a run, or the sweep's end, past the target)
    limited_by: str = ""  # a curve read at its last point (Series.limited_by): 'memory' or 'sweep'
    concurrency: float = math.nan  # that point's requests in flight
    interactivity: float = math.nan  # and its tokens/s per user, above the target


def _priced(s: Series, label: str, tps: float, custom_usd: float, runs: tuple[str, ...] = (),
            at_least: bool = False, **last_point) -> AtTarget:  # fmt: skip
    """A throughput at the target priced with the series' chip's prices in every tier (`last_point`: AtTarget's
    limited_by, concurrency and interactivity)."""
    prices = {t: s.price(t, custom_usd) for t in TIERS}
    return AtTarget(
        label=label,
        hardware_id=s.hardware_id,
        tokens_per_s_per_gpu=tps,
        usd_per_gpu_hour=prices,
        usd_per_1m={t: float(usd_per_1M_tokens(p, tps)) for t, p in prices.items()},
        tokens_per_s_per_mw=float(tokens_per_s_per_mw(tps, s.all_in_w)),
        price_as_of={t: s.price_as_of.get(t, "") for t in TIERS},
        measured_runs=runs,
        at_least=at_least,
        **last_point,
    )


def at_target(
    series: Sequence[Series], target: float, y: str, custom_usd: float, tr: Translator = EN
) -> list[AtTarget]:
    """Each curve at the target interactivity (modelled), labelled in `tr`'s language (an announced chip's mark). A curve whose every point that fits is more interactive
    than the target meets it at its last point: memory stops it there (the curve ends at the most requests that fit:
    concurrency_grid's limit; that point is the answer: Llama-3.1-70B FP8 on 2 x B200 at 15 tok/s/user, 158 requests
    at 17.8), or the sweep ends (a bound: at least that many tokens/s, at most that $)."""
    out = []
    for s in series:
        last = {}
        if limited := s.limited_by(target):
            i = s.beyond(target)
            last = {"limited_by": limited, "concurrency": float(s.concurrency[i]),
                    "interactivity": float(s.interactivity[i])}  # fmt: skip
        out.append(_priced(s, s.label(tr), s.at_target(target, y), custom_usd, at_least=limited == "sweep", **last))
    return out


def measured_at_target(series: Sequence[Series], points, target: float, y: str, custom_usd: float,
                       tr: Translator = EN) -> list[AtTarget]:  # fmt: skip
    """Each chip and precision drawn with measured runs (`points`, the chart's): its measured frontier at the target
    (frontier_check.measured_at: the runs no other beats, log-log between the two around the target, in the chart's
    tokens), priced as its curves are; where every run is more interactive than the target, its least interactive
    run as a bound (measured_at_least: at least that many tokens/s, at most that $); none where no run reaches it."""
    out = []
    for s in {(s.hardware_id, s.precision): s for s in series}.values():
        runs = [r for r in points if r.fields["hardware_id"] == s.hardware_id
                and _precision_of(r.fields.get("weights", "")) == s.precision]  # fmt: skip
        m = measured_at(runs, target, lambda r: _measured_y(r, y))
        bound = m is None and (m := measured_at_least(runs, target, lambda r: _measured_y(r, y))) is not None
        if m is not None:
            name = f"{fmt.chip(s.hardware, tr, short=True)} · {PRECISION_LABEL[s.precision]}"
            out.append(_priced(s, tr("fr_measured_bar", name=name), m.tokens_per_s_per_gpu, custom_usd,
                               tuple(r.label for r in m.runs), at_least=bound))  # fmt: skip
    return out


def beside(modelled: Sequence[AtTarget], measured: Sequence[AtTarget]) -> list[AtTarget]:
    """The bars in drawing order: each chip's measured bars right after its last modelled one."""
    out = list(modelled)
    for m in measured:
        last = max((i for i, p in enumerate(out) if p.hardware_id == m.hardware_id), default=len(out) - 1)
        out.insert(last + 1, m)
    return out


def best(points: Sequence[AtTarget], tier: str) -> AtTarget | None:
    """The series with the lowest cost at the target (by tokens/s per GPU when no price is known)."""
    priced = [p for p in points if math.isfinite(p.usd_per_1m[tier])]
    if priced:
        return min(priced, key=lambda p: p.usd_per_1m[tier])
    on_curve = [p for p in points if math.isfinite(p.tokens_per_s_per_gpu)]
    return max(on_curve, key=lambda p: p.tokens_per_s_per_gpu) if on_curve else None


def cost_figure(points: Sequence[AtTarget], target: float, tier: str, *, y: str = "output", tier_label: str = "",
                tr: Translator = EN) -> go.Figure:  # fmt: skip
    """$ per 1M tokens at the target interactivity, one bar per series (none where the curve does not reach the
    target or the hardware has no price in this tier)."""
    labels = [p.label for p in points]
    values = [p.usd_per_1m[tier] for p in points]
    shown = [v if math.isfinite(v) else None for v in values]
    # an absent bar says why: no public price under this tier, or (fr_na) the curve does not reach the target
    absent = [tr("no_public_price_bar") if not math.isfinite(p.usd_per_gpu_hour.get(tier, math.nan)) else tr("fr_na")
              for p in points]  # fmt: skip
    fig = Figure()
    fig.add_bar(
        x=labels,
        y=shown,
        marker_color=[hardware_colour(p.hardware_id) for p in points],
        # a measured bar hatched, as the chart's measured points stand apart from its curves
        marker_pattern_shape=["/" if p.measured_runs else "" for p in points],
        # a bound (every run more interactive than the target: at most that $) paler than a reading at the target
        marker_opacity=[BOUND_OPACITY if p.at_least else 1.0 for p in points],
        # as the metric; a bound from a more interactive run: at most that $ ('≤ $13.6')
        text=[
            (tr("fr_at_most", value=fmt.usd(v)) if p.at_least else fmt.usd(v)) if v is not None else why
            for p, v, why in zip(points, shown, absent, strict=True)
        ],  # fmt: skip
        textposition="outside",
        constraintext="none",  # a label over an absent bar at full size (shrunk to its width it read ~5 px at 900 px)
        hovertext=[
            tr(
                f"fr_hover_cost_{y}" if v is not None else "fr_hover_cost_none",  # the tokens the bars count
                name=p.label,
                usd=fmt.usd(v) if v is not None else tr("no_public_price_short") if why != tr("fr_na") else why,
                tps=f"{p.tokens_per_s_per_gpu:,.0f}" if math.isfinite(p.tokens_per_s_per_gpu) else tr("fr_na"),
            )
            + ("<br>" + tr("fr_hover_measured_runs", runs=" + ".join(p.measured_runs)) if p.measured_runs else "")
            + ("<br>" + tr("fr_hover_at_least") if p.at_least and p.measured_runs else "")
            + (
                "<br>" + tr(f"fr_hover_last_{p.limited_by}", n=fmt.integer(p.concurrency), x=f"{p.interactivity:.1f}")
                if p.limited_by
                else ""
            )
            for p, v, why in zip(points, shown, absent, strict=True)
        ],  # fmt: skip
        hoverinfo="text",
        showlegend=False,
    )
    style(
        fig,
        tr(f"fr_cost_title_{y}", target=fmt.target(1.0 / target, tr), tier=tier_label),  # both units, as elsewhere
        "",
        tr(f"fr_axis_usd_{y}"),
    )
    top = max((v for v in shown if v is not None), default=1.0)
    fig.update_yaxes(range=[0, top * 1.2], tickprefix="$")
    fig.update_layout(height=380)
    return fig


def cost_table(points: Sequence[AtTarget], target: float, *, y: str = "output", custom: bool = False) -> pd.DataFrame:
    """The data behind cost_figure: every published tier, each with the $/GPU-hour it rests on and that price's date,
    and with `custom` (your own price chosen) your own: the value entered, no date (unchosen, its default had been
    exported as a tier)."""
    rows = []
    for p in points:
        row = {
            "series": p.label,
            "source": "measured" if p.measured_runs else "model",
            "measured_runs": " + ".join(p.measured_runs) or None,
            # a run more interactive than the target: tokens/s at least, $ at most
            "measured_bound": ("at_least_tokens_at_most_usd" if p.at_least else "at_target")
            if p.measured_runs
            else None,
            # a curve read at its last point: 'memory' (the most requests that fit meet the target with room) or
            # 'sweep' (its end: tokens/s at least, $ at most), with that point's concurrency and interactivity
            "limited_by": p.limited_by or None,
            "last_point_concurrency": p.concurrency if p.limited_by else None,
            "last_point_tokens_per_s_per_user": p.interactivity if p.limited_by else None,
            "hardware": p.hardware_id,
            "target_tokens_per_s_per_user": target,
            f"{y}_tokens_per_s_per_gpu": p.tokens_per_s_per_gpu,
            f"{y}_tokens_per_s_per_MW": p.tokens_per_s_per_mw,
        }
        for t, v in p.usd_per_1m.items():
            if t == CUSTOM and not custom:
                continue
            row |= {f"usd_per_1M_{y}_tokens_{t}": v, f"usd_per_gpu_hour_{t}": p.usd_per_gpu_hour[t],
                    f"price_as_of_{t}": p.price_as_of.get(t, "")}  # fmt: skip
        rows.append(row)
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------------- validation


def validation_figure(cv, metric: str, *, tr: Translator = EN) -> go.Figure:
    """Leave-one-hardware-out: predicted against measured (log-log), coloured by the held-out device, with y = x
    and the +-25% band. metric: 'tpot' (ms) or 'output' (tokens/s per GPU)."""
    if metric == "tpot":
        pred, meas, scale = cv.predicted_tpot_s, cv.measured_tpot_s, 1e3
    else:
        pred, meas, scale = cv.predicted_output_tokens_per_s_per_gpu, cv.measured_output_tokens_per_s_per_gpu, 1.0
    pred, meas = np.asarray(pred) * scale, np.asarray(meas) * scale
    ok = np.isfinite(pred) & np.isfinite(meas)

    def shown(v: float) -> str:  # with its unit: '12.7 ms', '148 tok/s' (per GPU: the axis) (had '12.7', '147.6')
        return fmt.ms(v / 1e3, tr=tr) if metric == "tpot" else fmt.rate(v)

    lo, hi = float(np.min(meas[ok])) / 1.5, float(np.max(meas[ok])) * 1.5
    fig = Figure()
    band = np.array([lo, hi])
    fig.add_scatter(x=band, y=band * 1.25, mode="lines", line={"color": "#bbb", "dash": "dot"}, showlegend=False,
                    hoverinfo="skip")  # fmt: skip
    fig.add_scatter(x=band, y=band * 0.75, mode="lines", line={"color": "#bbb", "dash": "dot"}, fill="tonexty",
                    fillcolor="rgba(150,150,150,0.12)", name=tr("fr_band"), hoverinfo="skip")  # fmt: skip
    fig.add_scatter(x=band, y=band, mode="lines", line={"color": "#555"}, name=tr("fr_parity"), hoverinfo="skip")
    devices = [r.fields["hardware_id"] for r in cv.rows]
    for d in sorted(set(devices)):
        idx = [i for i, x in enumerate(devices) if x == d and ok[i]]
        fig.add_scatter(
            x=meas[idx],
            y=pred[idx],
            mode="markers",
            name=tr("fr_held_out", hw=d.upper()),
            marker={"color": hardware_colour(d), "size": 8, "symbol": [SYMBOL[cv.rows[i].layout] for i in idx]},
            hovertext=[
                tr(
                    "fr_hover_loho",
                    hw=fmt.chip_short(cv.rows[i].hardware),
                    id=cv.rows[i].label,
                    engine=engine_text(cv.rows[i], tr),
                    date=cv.rows[i].run_date,
                    c=int(cv.rows[i].concurrency),
                    io=io_label(int(cv.rows[i].isl), int(cv.rows[i].osl)),
                    measured=shown(meas[i]),
                    predicted=shown(pred[i]),
                    err=fmt.pct(pred[i] / meas[i] - 1, 0, signed=True),
                )
                for i in idx
            ],  # fmt: skip
            hoverinfo="text",
        )
    key = "tpot" if metric == "tpot" else "out"
    # the x axis's title on lines: in a half-page column (900 px, sidebar open) one line was cut at both ends
    style(fig, tr(f"fr_loho_title_{key}"), wrap_label(tr(f"fr_axis_measured_{key}"), 24),
          tr(f"fr_axis_predicted_{key}"), log_x=True, log_y=True)  # fmt: skip
    ticks = nice_log_ticks(lo, hi)
    axis = {"range": [math.log10(lo), math.log10(hi)], "tickvals": ticks, "ticktext": [tick_label(t) for t in ticks]}
    fig.update_xaxes(axis)
    fig.update_yaxes(axis)
    # the keys under the axis title at any width (at -0.3 of the plot they clipped it in a half-page column, 900 px
    # with the sidebar open)
    placed = legend_placement(fig, 440, side_max=0)
    fig.update_layout(**(placed | {"margin": {"t": 60, **placed["margin"]}}))
    return fig


def validation_table(cv) -> pd.DataFrame:
    """Every fit row: measured, LOHO-predicted TPOT and output tokens/s per GPU, and the errors as fractions
    ((predicted - measured) / measured)."""
    rows = []
    for i, r in enumerate(cv.rows):
        rows.append({
            "id": r.id, "held_out_hardware": r.fields["hardware_id"], "engine": r.engine, "profile": r.profile,
            "run_date": r.run_date, "weights": r.fields["weights"], "kv_cache": r.fields["kv_cache"],
            "layout": r.layout, "num_gpus": r.num_gpus, "isl": r.isl, "osl": r.osl, "concurrency": r.concurrency,
            "measured_tpot_ms": r.tpot_s * 1e3, "predicted_tpot_ms": cv.predicted_tpot_s[i] * 1e3,
            "tpot_error_fraction": cv.tpot_error[i],
            "measured_output_tokens_per_s_per_gpu": r.output_tokens_per_s_per_gpu,
            "predicted_output_tokens_per_s_per_gpu": cv.predicted_output_tokens_per_s_per_gpu[i],
            "output_error_fraction": cv.output_error[i],
        })  # fmt: skip
    return pd.DataFrame(rows)


def loho_bias_table(cv, tr: Translator = EN) -> pd.DataFrame:
    """The leave-one-hardware-out TPOT error by concurrency, signed (ServingCrossValidation.bias_by_concurrency: + where
    the model is slower than measured): per bucket its runs, median and 10th-90th percentiles, as percentages with
    their sign ('+7.2%'). Where the headline's |error| hides a lean."""
    return pd.DataFrame(
        [
            {
                tr("fr_bias_col_concurrency"): label,
                tr("fr_bias_col_runs"): n,
                tr("fr_bias_col_median"): fmt.pct(median, signed=True),
                tr("fr_bias_col_range"): f"{fmt.pct(p10, signed=True)} … {fmt.pct(p90, signed=True)}",
            }
            for label, n, p10, median, p90 in cv.bias_by_concurrency()
        ]
    )
