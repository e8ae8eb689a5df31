"""KV-cache figures: cache size against context (per GPU), the largest batch that fits, and what the attention
architecture and the KV precision do to it. Pure: model objects and arrays in (SI bytes, tokens), go.Figure or
pandas DataFrame out; GB are decimal (1e9 bytes), KiB binary (1024 bytes), as labelled."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from tpot_model import Estimate, ModelSpec, Scenario, kv_cache_bytes_per_sequence, parse_format
from tpot_model.estimate import kv_cache_bytes_per_gpu
from tpot_model.roofline import compressed_window_bytes, kv_bytes_per_token_per_layer, kv_shards, linear_state_bytes
from tpot_model.units import GB, KiB

from .. import fmt
from ..i18n import EN, Translator
from .common import (
    BUCKET_COLOURS,
    Decor,
    Figure,
    floored_log_axis,
    legend_placement,
    log_ticks,
    not_fit_spans,
    power_of_two_axis,
    style,
)

LINE_BATCHES = (1, 8, 32, 128)  # batch sizes always drawn; the scenario's batch is added
KV_PRECISIONS = ("bf16", "fp8", "int4")  # KV formats compared; the scenario's is added
GRID_POINTS = 160
MIN_LOG_CONTEXT = 64  # left end of a log context axis (tokens)
HYPOTHETICAL_GQA_HEADS = 8
NOT_FIT_FILL = "#d62728"
BATCH_SHADES = ("#9ecae1", "#6baed6", "#3182bd", "#08519c", "#08306b", "#041f4a")
PRECISION_COLOURS = {"bf16": "#1f77b4", "fp8": "#2ca02c", "int4": "#9467bd"}
PART_COLOURS = {"full": BUCKET_COLOURS["kv_cache"], "window": "#fdae6b", "state": "#8c564b"}
PART_COLOURS.update(compressed=PART_COLOURS["full"], recent=PART_COLOURS["window"])  # DeepSeek-V4's two parts


def window_tokens(model: ModelSpec) -> int | None:
    """The window after which part of the cache stops growing: a sliding (or chunked) window, or DeepSeek-V4's
    uncompressed window; None without one."""
    if model.sliding_window:
        return model.sliding_window.window_tokens
    return model.compressed_attention.window_tokens if model.compressed_attention else None


# --------------------------------------------------------------------------------------------------- data


def context_grid(
    model: ModelSpec, scenario_context: float, *, log_x: bool, points: int = GRID_POINTS, output_tokens: float = 0
) -> np.ndarray:
    """Contexts (tokens) up to max(model max context, scenario context + output), with the scenario's prompt, its
    last token (prompt + output: the cache the fit check takes) and the window edge."""
    top = float(max(model.max_context_tokens, scenario_context + output_tokens))
    base = np.geomspace(MIN_LOG_CONTEXT, top, points) if log_x else np.linspace(0.0, top, points)
    extra = [float(scenario_context), float(scenario_context + output_tokens)]
    if model.sliding_window:
        extra.append(float(model.sliding_window.window_tokens))
    grid = np.unique(np.round(np.concatenate([base, extra])))
    return grid[grid >= MIN_LOG_CONTEXT] if log_x else grid


def line_batches(scenario_batch: float) -> list[int]:
    """Batch sizes drawn as lines: 1, 8, 32, 128 and the scenario's."""
    return sorted({*LINE_BATCHES, int(scenario_batch)})


def kv_shard_count(model: ModelSpec, num_gpus: float) -> float:
    """Ways the cache splits across tensor-parallel GPUs (GQA heads up to num_kv_heads ways; MLA replicated)."""
    return float(kv_shards(model, np.asarray(float(num_gpus))))


def kv_per_gpu_bytes(model: ModelSpec, s: Scenario, contexts: np.ndarray, batches: list[int]) -> np.ndarray:
    """(batch, context) KV-cache bytes per GPU in the scenario's KV format, GPUs and layout."""
    b = np.asarray(batches, dtype=float)[:, None]
    return kv_cache_bytes_per_gpu(model, s, np.asarray(contexts, dtype=float)[None, :], batch=b)


def kv_room_bytes(est: Estimate) -> float:
    """Memory per GPU left for the KV cache: usable − the GPU's weights − workspace (at the scenario's batch)."""
    return float(est.usable_memory_per_gpu_bytes - est.weight_bytes_per_gpu - est.workspace_bytes_per_gpu)


@dataclass(frozen=True)
class KVSummary:
    """The page's headline numbers (bytes, tokens) for one scalar scenario."""

    bytes_per_token: float  # a new token in every softmax-attention layer (window layers only until W)
    growing_bytes_per_token: float  # full-attention / MLA layers only: keeps growing forever
    state_bytes: float  # constant linear-attention state per sequence
    per_sequence_bytes: float  # one sequence at the scenario context
    batch_bytes: float  # the whole batch at the scenario context
    batch_bytes_per_gpu: float
    shards: float
    max_batch: int
    usable_bytes: float  # per GPU
    weights_bytes_per_gpu: float
    workspace_bytes_per_gpu: float
    room_bytes: float  # usable − weights − workspace, per GPU


def summary(est: Estimate) -> KVSummary:
    """Headline KV numbers of a scalar estimate."""
    m, s = est.model, est.scenario
    kvb = s.kv_cache.bytes_per_element
    per_layer = kv_bytes_per_token_per_layer(m, kvb)
    shards = kv_shard_count(m, float(s.num_gpus))
    batch_bytes = float(est.kv_cache_bytes)
    return KVSummary(
        bytes_per_token=per_layer * (m.num_full_attention_layers + m.num_window_layers),
        growing_bytes_per_token=per_layer * m.num_full_attention_layers,
        state_bytes=linear_state_bytes(m, kvb),
        per_sequence_bytes=float(kv_cache_bytes_per_sequence(m, s.context_tokens, kvb)),
        batch_bytes=batch_bytes,
        batch_bytes_per_gpu=float(kv_cache_bytes_per_gpu(m, s, s.context_tokens)),
        shards=shards,
        max_batch=int(est.max_batch),
        usable_bytes=float(est.usable_memory_per_gpu_bytes),
        weights_bytes_per_gpu=float(est.weight_bytes_per_gpu),
        workspace_bytes_per_gpu=float(est.workspace_bytes_per_gpu),
        room_bytes=kv_room_bytes(est),
    )


kib = fmt.kib  # re-exported: cost.py and the KV page use it under this name


def attention_text(model: ModelSpec, kv_bytes_per_element: float, num_gpus: float, *, tr: Translator = EN) -> str:
    """One or two sentences on the model's attention type and what it stores per token, in the reader's language."""
    m, H, K, h = model, model.num_heads, model.num_kv_heads, model.head_dim
    if m.compressed_attention:
        c = m.compressed_attention
        parts = [tr("kvc_attn_compressed", h=H, d=h, csa=c.csa_layers, rc=c.csa_compression, i=c.index_head_dim,
                    k=f"{c.top_k_tokens:,}", heads=c.index_heads, hca=c.hca_layers, rh=c.hca_compression,
                    w=f"{c.window_tokens:,}")]  # fmt: skip
    elif m.mla:
        a = m.mla
        parts = [tr("kvc_attn_mla", h=H, latent=a.kv_lora_rank, rope=a.qk_rope_head_dim)]
    elif K == H:
        parts = [tr("kvc_attn_mha", h=H, d=h)]
    elif K == 1:
        parts = [tr("kvc_attn_mqa", h=H, d=h)]
    else:
        parts = [tr("kvc_attn_gqa", h=H, k=K, g=H // K, d=h)]
    if m.sparse_attention:
        sa = m.sparse_attention
        parts.append(tr("kvc_attn_dsa", d=sa.index_head_dim, heads=sa.index_heads, k=f"{sa.top_k_tokens:,}"))
    if m.sliding_window:
        sw = m.sliding_window
        key = "kvc_attn_chunked" if sw.chunked else "kvc_attn_window"
        parts.append(tr(key, n=sw.num_layers, layers=m.num_layers, w=f"{sw.window_tokens:,}"))
    if m.linear_attention:
        state = linear_state_bytes(m, kv_bytes_per_element) / 1e6
        parts.append(
            tr(
                "kvc_attn_linear",
                n=m.num_linear_layers,
                layers=m.num_layers,
                full=m.num_full_attention_layers,
                mb=f"{state:,.1f}",
            )
        )
    shards = kv_shard_count(m, num_gpus)
    devices = fmt.devices(tr.device, num_gpus, tr)
    if m.mla:
        parts.append(tr("kvc_attn_shards_mla", devices=devices))
    elif m.compressed_attention:
        parts.append(tr("kvc_attn_shards_shared", devices=devices))
    else:
        parts.append(tr("kvc_attn_shards", devices=devices, shards=int(shards), k=K))
    return tr.sentences(parts)


def attention_variants(model: ModelSpec, kv_bytes_per_element: float) -> pd.DataFrame:
    """KV bytes per token for the model as stored and with MHA / GQA-8 / MQA (and MLA's naive per-head expansion):
    per-layer bytes × full-attention layers, and × sliding-window layers (which stop growing after the window)."""
    m, kvb, H, K = model, kv_bytes_per_element, model.num_heads, model.num_kv_heads

    def heads(k: int) -> float:  # per-layer bytes with k KV heads of the model's head_dim: 2 × k × h
        plain = replace(m, num_kv_heads=k, mla=None, sparse_attention=None, compressed_attention=None)
        return kv_bytes_per_token_per_layer(plain, kvb)

    rows: list[tuple[str, int, float]] = [("stored", 0 if m.mla else K, kv_bytes_per_token_per_layer(m, kvb))]
    if m.mla:
        a = m.mla  # every head's own key (nope + rope) and value, as before absorption
        rows.append(("mla_naive", H, H * (a.qk_nope_head_dim + a.qk_rope_head_dim + a.v_head_dim) * kvb))
    if m.mla or K != H:
        rows.append(("mha", H, heads(H)))
    g = HYPOTHETICAL_GQA_HEADS
    if g < H and H % g == 0 and (m.mla or g != K):
        rows.append(("gqa", g, heads(g)))
    if m.mla or K != 1:
        rows.append(("mqa", 1, heads(1)))
    full, window = m.num_full_attention_layers, m.num_window_layers
    out = pd.DataFrame(
        {
            "variant": [r[0] for r in rows],
            "kv_heads": [r[1] for r in rows],
            "kv_bytes_per_token_per_layer": [r[2] for r in rows],
            "kv_bytes_per_token_full_layers": [r[2] * full for r in rows],
            "kv_bytes_per_token_window_layers": [r[2] * window for r in rows],
            "kv_bytes_per_token_total": [r[2] * (full + window) for r in rows],
        }
    )
    out.attrs["growing"] = "compressed" if m.compressed_attention else "full"  # what the growing part is called
    return out


def composition_bytes(model: ModelSpec, contexts: np.ndarray, kv_bytes_per_element: float) -> dict[str, np.ndarray]:
    """One sequence's cache by layer type (bytes): growing full-attention part, window part capped at W, constant
    linear-attention state. Only the parts the model has; they sum to kv_cache_bytes_per_sequence."""
    m, t = model, np.asarray(contexts, dtype=float)
    per_layer = kv_bytes_per_token_per_layer(m, kv_bytes_per_element)
    parts: dict[str, np.ndarray] = {}
    if m.compressed_attention:  # DeepSeek-V4: the compressed entries grow, every layer's recent window is capped
        parts["recent"] = compressed_window_bytes(m, t, kv_bytes_per_element)
        parts["compressed"] = m.num_layers * per_layer * t
        return parts
    if m.num_full_attention_layers:
        parts["full"] = m.num_full_attention_layers * per_layer * t
    if m.sliding_window:
        parts["window"] = m.num_window_layers * per_layer * np.minimum(t, m.sliding_window.window_tokens)
    if m.linear_attention:
        parts["state"] = np.full_like(t, linear_state_bytes(m, kv_bytes_per_element))
    return parts


def precision_names(current: str) -> list[str]:
    """KV formats compared: bf16, fp8, int4 and the scenario's own."""
    return list(dict.fromkeys([*KV_PRECISIONS, current]))


def precision_bytes_per_gpu(
    model: ModelSpec, s: Scenario, contexts: np.ndarray, names: list[str]
) -> dict[str, np.ndarray]:
    """KV bytes per GPU at the scenario's batch for each KV format name."""
    return {
        n: kv_per_gpu_bytes(model, replace(s, kv_cache=parse_format(n)), contexts, [int(s.batch)])[0] for n in names
    }


# --------------------------------------------------------------------------------------------------- helpers


def _room_line(d: Decor, room_bytes: float, y_top_gb: float, tr: Translator) -> None:
    """The capacity left for the KV cache as a dashed line, with the region above it shaded as 'does not fit'."""
    if room_bytes > 0:
        d.hrect(room_bytes / GB, y_top_gb, fillcolor=NOT_FIT_FILL, opacity=0.07)
        d.hline(room_bytes / GB, line={"dash": "dash", "color": "#333"})
        # under the line near its left end, where the cache lines (rising with context) are far below: above it, a
        # half-width chart's lines crossed the words (mid-way across, the scenario's star and lines did); inset from
        # the axis (a shape's label there met the tick labels: '3096.2 GB per GPU'); both axes log (log10 values); on
        # a light ground, legible where a large batch's lines pass under it
        d.note(tr("kvc_room_line", gb=f"{room_bytes / GB:,.1f}"), 0.0, math.log10(room_bytes / GB), xref="x domain",
               yref="y", xanchor="left", yanchor="top", xshift=12, yshift=-6, align="left", font={"size": 11},
               bgcolor="rgba(255,255,255,0.7)")  # fmt: skip
    else:
        d.shapes.append(  # nothing fits: shade the whole plot
            {"type": "rect", "xref": "x domain", "yref": "y domain", "x0": 0, "x1": 1, "y0": 0, "y1": 1,
             "fillcolor": NOT_FIT_FILL, "opacity": 0.07, "line": {"width": 0}, "layer": "below"}
        )  # fmt: skip
        # bottom right: the caches rise to the right, so the corner under their ends is empty (top left, the largest
        # cache at short context crossed it, and the top's middle the longest: browser reviews)
        d.note(tr("kvc_no_room"), 0.98, 0.02, xanchor="right", yanchor="bottom", align="right",
               font={"color": "#a00", "size": 13}, bgcolor="rgba(255,255,255,0.85)")  # fmt: skip


def _top_gb(*arrays: np.ndarray, room_bytes: float) -> float:
    finite = [float(np.nanmax(a)) for a in arrays if np.isfinite(a).any()]
    return max([*finite, room_bytes]) / GB * 3.0


def context_axis(contexts: np.ndarray, log_x: bool) -> dict:
    """Axis settings: power-of-two context ticks (4K, 128K) on a log axis; thousands separators on a linear one."""
    return power_of_two_axis(contexts, tokens=True) if log_x else {"tickformat": ",.0f"}


def _hover_context(tr: Translator) -> str:
    return f"{tr('kvc_h_context')} %{{x:,.0f}}"


# --------------------------------------------------------------------------------------------------- figures


def kv_vs_context(
    contexts: np.ndarray,
    batches: list[int],
    kv_bytes_per_gpu: np.ndarray,
    room_bytes: float,
    scenario_context: float,
    scenario_batch: int,
    *,
    log_x: bool = True,
    max_context_tokens: int | None = None,
    output_tokens: float = 0,
    tr: Translator = EN,
) -> go.Figure:
    """KV-cache GB per GPU against the tokens in the cache, one line per batch, with the room left after weights and
    workspace (and the model's max context marked when the axis runs past it); the star at the scenario's last token
    (prompt + `output_tokens`), the cache the fit check takes (at the prompt it had sat far under the room line for a
    batch that does not fit: a review)."""
    fig = Figure()
    others = [b for b in batches if b != scenario_batch]
    for b, row in zip(batches, kv_bytes_per_gpu, strict=True):
        is_scenario = b == scenario_batch
        colour = BUCKET_COLOURS["kv_cache"] if is_scenario else BATCH_SHADES[others.index(b) % len(BATCH_SHADES)]
        name = tr("kvc_batch_scenario", b=b) if is_scenario else tr("kvc_batch_n", b=b)
        fig.add_scatter(
            x=contexts,
            y=row / GB,
            mode="lines",
            name=name,
            line={"color": colour, "width": 3.5 if is_scenario else 2},
            hovertemplate=f"{name}<br>{tr('kvc_h_cache_tokens')}<br>{tr('kvc_h_gb_per_gpu')}<extra></extra>",
        )
    end = scenario_context + output_tokens
    idx = int(np.argmin(np.abs(contexts - end)))
    scen = kv_bytes_per_gpu[batches.index(scenario_batch), idx] / GB
    if end > 0 or not log_x:
        said = tr("kvc_scenario_end", prompt=fmt.integer(scenario_context),
                  output=fmt.counted("n_output_tokens", output_tokens, tr))  # fmt: skip
        fig.add_scatter(
            x=[contexts[idx]],
            y=[scen],
            mode="markers",
            name=tr("kvc_scenario"),
            marker={"symbol": "star", "size": 15, "color": BUCKET_COLOURS["kv_cache"], "line": {"color": "#000"}},
            hovertemplate=f"{said}<br>{tr('kvc_h_cache_tokens')}<br>{tr('kvc_h_gb_per_gpu')}<extra></extra>",
        )
    d = Decor()
    _room_line(d, room_bytes, _top_gb(kv_bytes_per_gpu, room_bytes=room_bytes), tr)
    if max_context_tokens and contexts[-1] > max_context_tokens:  # the scenario asks for more than the model supports
        d.vline(
            max_context_tokens,
            line={"dash": "dot", "color": "#555"},
            label={
                "text": tr("kvc_max_context", n=fmt.tokens(max_context_tokens)),
                "textposition": "start",  # at the line's foot, clear of the curves' ends
                "textangle": 0,
                "xanchor": "right",
            },
        )
    style(fig, tr("kvc_size_title"), tr("kvc_axis_cache_tokens"), tr("kvc_axis_gb_per_gpu"), log_x=log_x, log_y=True)
    d.xaxis.update(context_axis(contexts, log_x))
    d.yaxis.update(log_ticks(kv_bytes_per_gpu / GB, [max(room_bytes, 0) / GB]))
    # the legend under the plot, as the precision chart's: over it, in rows at 900 px, it covered the title
    return d.apply(fig, **legend_placement(fig, 440, side_max=0))


def kv_vs_context_table(contexts: np.ndarray, batches: list[int], kv_bytes_per_gpu: np.ndarray) -> pd.DataFrame:
    """Long table behind kv_vs_context: context_tokens, batch, kv_cache_gb_per_gpu."""
    c, b = np.meshgrid(contexts, batches)
    return pd.DataFrame(
        {"context_tokens": c.ravel(), "batch": b.ravel(), "kv_cache_gb_per_gpu": (kv_bytes_per_gpu / GB).ravel()}
    )


# the largest-batch chart's plot in the narrowest frame (a half-width column of a 1400 px page with the sidebar open:
# ~255 x 285 px), a little under it: the scenario batch line's label is placed by these
BATCH_PLOT_PX = (240.0, 250.0)  # width, height
BATCH_LABEL_FONT_PX = 12
BATCH_LABEL_INSET_PX = 8  # from the plot's side
BATCH_LABEL_LIFT_PX = 3  # from the line
BATCH_LABEL_CHAR_PX = 6.5  # a Latin glyph of BATCH_LABEL_FONT_PX, generously (a CJK glyph counts two)
BATCH_LABEL_HEIGHT_PX = 24  # the lift and a line of text, from the line, generously
STAR_RADIUS_PX = 9
NOTE_CHAR_PX, NOTE_HEIGHT_PX = 7.0, 22.0  # the 'not even one sequence fits' note (13 px font)


def batch_label_place(
    contexts: np.ndarray,
    max_batch: np.ndarray,
    batch: float,
    text: str,
    *,
    x_log: bool,
    y_range: list[float],
    star: tuple[float, float] | None = None,
    notes: Sequence[tuple[str, dict]] = (),
    grown: bool = False,
) -> tuple[str, str, list[float]]:
    """Where the scenario batch line's label goes: ('end' or 'start' of the line, 'bottom' or 'top' anchored on it,
    the y axis' range). At the right end above the line, else under it, else at the left end under it, else above
    it: the first whose box (in the narrowest frame) the largest-batch curve does not pass through and the star and
    the no-fit notes (`notes`: text and place) are not in; where none is, with the y axis a label's height longer
    each way (`grown`: it is, and none free gives ''). The curve falls with context, so where the line crosses it
    one of them is free: left of the crossing the curve is above the line, right of it under. `max_batch` is NaN
    where not one sequence fits; `y_range` the log axis' (log10 values)."""
    width_px, height_px = BATCH_PLOT_PX
    to_x = np.log10 if x_log else (lambda v: np.asarray(v, dtype=float))
    x_lo, x_hi = float(to_x(contexts[0])), float(to_x(contexts[-1]))

    def frac_x(v) -> np.ndarray:
        return (to_x(np.asarray(v, dtype=float)) - x_lo) / max(x_hi - x_lo, 1e-12)

    def frac_y(v) -> np.ndarray:
        return (np.log10(np.asarray(v, dtype=float)) - y_range[0]) / (y_range[1] - y_range[0])

    finite = np.isfinite(max_batch) & (max_batch > 0)
    cx, cy = frac_x(contexts[finite]), frac_y(max_batch[finite])
    line_y = float(frac_y(batch))
    w = (BATCH_LABEL_INSET_PX + fmt.text_px(text, BATCH_LABEL_CHAR_PX)) / width_px
    h = BATCH_LABEL_HEIGHT_PX / height_px
    blocks = []  # (x0, x1, y0, y1) in the plot's fractions
    if star is not None:
        sx, sy = float(frac_x(star[0])), float(frac_y(star[1]))
        r_x, r_y = STAR_RADIUS_PX / width_px, STAR_RADIUS_PX / height_px
        blocks.append((sx - r_x, sx + r_x, sy - r_y, sy + r_y))
    for note, at in notes:  # at the plot's fractions, anchored as annotations are
        nw, nh = fmt.text_px(note, NOTE_CHAR_PX) / width_px, NOTE_HEIGHT_PX / height_px
        x0 = at["x"] - {"left": 0.0, "center": nw / 2, "right": nw}[at["xanchor"]]
        y0 = at["y"] - {"bottom": 0.0, "middle": nh / 2, "top": nh}[at["yanchor"]]
        blocks.append((x0, x0 + nw, y0, y0 + nh))

    def free(x0: float, x1: float, y0: float, y1: float) -> bool:
        if y0 < 0 or y1 > 1:  # past the plot's edge: cut away, or over the tick labels
            return False
        inside = (cx >= x0) & (cx <= x1)
        # the curve over [x0, x1]: its points there and where it enters and leaves (interpolated at the box's sides)
        ys = list(cy[inside]) + [float(np.interp(x, cx, cy)) for x in (x0, x1) if cx.size and cx[0] <= x <= cx[-1]]
        if ys and max(ys) >= y0 and min(ys) <= y1:  # continuous: it passes through the box's height
            return False
        return all(bx1 < x0 or bx0 > x1 or by1 < y0 or by0 > y1 for bx0, bx1, by0, by1 in blocks)

    places = (("end", "bottom"), ("end", "top"), ("start", "top"), ("start", "bottom"))
    for position, anchor in places:
        x0, x1 = (1 - w, 1.0) if position == "end" else (0.0, w)
        y0, y1 = (line_y, line_y + h) if anchor == "bottom" else (line_y - h, line_y)
        if free(x0, x1, y0, y1):
            return position, anchor, list(y_range)
    if not grown:  # none free (the line at the plot's edge, the curve near it): a label's height more either way
        lo, hi = y_range
        more = (hi - lo) * h / (1 - 2 * h)
        placed = batch_label_place(contexts, max_batch, batch, text, x_log=x_log, y_range=[lo - more, hi + more],
                                   star=star, notes=notes, grown=True)  # fmt: skip
        if placed[0]:
            return placed
    return ("end", "bottom", list(y_range)) if not grown else ("", "", list(y_range))


def max_batch_vs_context(
    contexts: np.ndarray,
    max_batch: np.ndarray,
    scenario_context: float,
    scenario_batch: int,
    *,
    log_x: bool = True,
    tr: Translator = EN,
) -> go.Figure:
    """The largest batch that fits at each context (log y); where not even one sequence fits, the region is shaded."""
    mb = np.asarray(max_batch, dtype=float)
    shown = np.where(mb >= 1, mb, np.nan)
    fig = Figure()
    fig.add_scatter(
        x=contexts,
        y=shown,
        mode="lines",
        name=tr("kvc_max_batch_line"),
        line={"color": BUCKET_COLOURS["kv_cache"], "width": 2.5},
        hovertemplate=f"{_hover_context(tr)}<br>{tr('kvc_h_max_batch')} %{{y:,.0f}}<extra></extra>",
    )
    d = Decor()
    idx = int(np.argmin(np.abs(contexts - scenario_context)))
    star = mb[idx] >= 1 and (scenario_context > 0 or not log_x)
    nowhere = not (mb >= 1).any()
    if nowhere:  # nothing fits anywhere: an axis from 1 to above the scenario's batch
        top = max(scenario_batch, 10) * 3
        y_axis = {"range": [0, math.log10(top)], **log_ticks([1, top])}
    else:
        y_axis = floored_log_axis(shown, [scenario_batch])
    spans = not_fit_spans(contexts, ~(mb < 1))  # bad is a suffix: fewer fit as context grows
    notes = []  # where not one sequence fits: a note in the span
    for x0, x1 in spans:
        d.vrect(x0, x1, fillcolor=NOT_FIT_FILL, opacity=0.1)
        if nowhere:  # mid-plot: the scenario's batch line runs near the top
            at = {"x": 0.5, "y": 0.5, "xanchor": "center", "yanchor": "middle"}
        else:  # a corner of the span, past the curve's end, on the far side from the batch line: at the line's
            # side the line's label had been drawn over it ('batch 4096 (scenario)' at the top; at batch 1, bottom)
            right = x1 >= contexts[-1]
            line_high = (math.log10(scenario_batch) - y_axis["range"][0]) / (
                y_axis["range"][1] - y_axis["range"][0]
            ) > 0.5
            at = {"x": 0.99 if right else 0.01, "y": 0.03 if line_high else 0.97, "xanchor": "right" if right else "left",
                  "yanchor": "bottom" if line_high else "top"}  # fmt: skip
        d.note(tr("kvc_none_fits"), font={"color": "#a00"}, bgcolor="rgba(255,255,255,0.7)", **at)
        notes.append(at)
    text = tr("kvc_batch_scenario", b=scenario_batch)
    d.hline(scenario_batch, line={"dash": "dot", "color": "#555"})
    # its label at an end of the line where the curve, the star and the span's note are not: at the right end above
    # the line, the curve falling through it had struck through the words at 1400 px ('批次 32（目前情境）') and
    # touched them at 900 px. A note, not the line's own label: inset from the plot's side by pixels (at the left end
    # a line's label met the y axis' tick labels: '20批次 32')
    end, anchor, y_axis["range"] = batch_label_place(contexts, shown, scenario_batch, text, x_log=log_x, y_range=y_axis["range"],
                                    star=(contexts[idx], mb[idx]) if star else None,
                                    notes=[(tr("kvc_none_fits"), at) for at in notes])  # fmt: skip
    right = end == "end"
    d.note(text, 1.0 if right else 0.0, math.log10(scenario_batch), xref="x domain", yref="y",
           xanchor="right" if right else "left", yanchor=anchor, xshift=-BATCH_LABEL_INSET_PX if right
           else BATCH_LABEL_INSET_PX, yshift=BATCH_LABEL_LIFT_PX if anchor == "bottom" else -BATCH_LABEL_LIFT_PX,
           font={"size": BATCH_LABEL_FONT_PX, "color": "#444"})  # fmt: skip
    if star:
        fig.add_scatter(
            x=[contexts[idx]],
            y=[mb[idx]],
            mode="markers",
            name=tr("kvc_scenario"),
            marker={"symbol": "star", "size": 15, "color": BUCKET_COLOURS["kv_cache"], "line": {"color": "#000"}},
            hovertemplate=f"{tr('kvc_scenario')}<br>{_hover_context(tr)}<br>{tr('kvc_h_max_batch')} %{{y:,.0f}}"
            "<extra></extra>",
        )
    style(fig, tr("kvc_max_batch_title"), tr("axis_context"), tr("kvc_axis_max_batch"), log_x=log_x, log_y=True)
    d.xaxis.update(context_axis(contexts, log_x))
    d.yaxis.update(y_axis)
    # the legend under the plot: at its top right it hid the batch line's label at large batches ('batch 4096')
    return d.apply(fig, **legend_placement(fig, 440, side_max=0))


def max_batch_table(contexts: np.ndarray, max_batch: np.ndarray) -> pd.DataFrame:
    return pd.DataFrame({"context_tokens": contexts, "max_batch": np.asarray(max_batch, dtype=float)})


def _variant_label(variant: str, kv_heads: int, kind: str, tr: Translator) -> str:
    if variant == "stored":
        if not kv_heads:
            return tr("kvc_var_stored_mla", kind="MLA")
        return tr("kvc_var_stored_one" if kv_heads == 1 else "kvc_var_stored", kind=kind.split(" + ")[0], k=kv_heads)
    return tr(f"kvc_var_{variant}", k=kv_heads)


def architecture_bars(
    variants: pd.DataFrame, kind: str, window_tokens: int | None, *, tr: Translator = EN
) -> go.Figure:
    """Horizontal stacked bars of KV KiB per token: full-attention layers + sliding-window layers, per variant."""
    labels = [_variant_label(v, int(k), kind, tr) for v, k in zip(variants.variant, variants.kv_heads, strict=True)]
    full = variants.kv_bytes_per_token_full_layers.to_numpy() / KiB
    window = variants.kv_bytes_per_token_window_layers.to_numpy() / KiB
    total = full + window
    stored = variants.variant.to_numpy() == "stored"
    growing = tr(f"kvc_part_{variants.attrs.get('growing', 'full')}")
    fig = Figure()
    fig.add_bar(
        y=labels,
        x=full,
        orientation="h",
        name=growing,
        marker_color=[BUCKET_COLOURS["kv_cache"] if s else "#c7c7c7" for s in stored],
        hovertemplate=f"%{{y}}<br>{growing}: %{{x:,.1f}} KiB<extra></extra>",
    )
    if window.any():
        fig.add_bar(
            y=labels,
            x=window,
            orientation="h",
            name=tr("kvc_part_window", w=f"{window_tokens:,}"),
            marker_color=[PART_COLOURS["window"] if s else "#e5e5e5" for s in stored],
            hovertemplate=f"%{{y}}<br>{tr('kvc_part_window', w=f'{window_tokens:,}')}: %{{x:,.1f}} KiB<extra></extra>",
        )
    fig.add_scatter(
        y=labels,
        x=total,
        mode="text",
        text=[kib(t * KiB) for t in total],
        textposition="middle right",
        cliponaxis=False,
        showlegend=False,
        hoverinfo="skip",
    )
    style(fig, tr("kvc_arch_title"), tr("kvc_axis_kib_per_token"), "")
    return fig.update_layout(
        barmode="stack",
        height=120 + 48 * len(labels),
        margin={"l": 20, "r": 20, "t": 80, "b": 55},
        yaxis={"autorange": "reversed", "automargin": True},
        xaxis={"range": [0, float(total.max()) * 1.18 if total.max() > 0 else 1]},
    )


def architecture_table(variants: pd.DataFrame, kind: str, *, tr: Translator = EN) -> pd.DataFrame:
    out = variants.copy()
    out.insert(
        1, "label", [_variant_label(v, int(k), kind, tr) for v, k in zip(out.variant, out.kv_heads, strict=True)]
    )
    out["kv_kib_per_token_total"] = out.kv_bytes_per_token_total / KiB
    return out


def composition_area(
    contexts: np.ndarray,
    parts: dict[str, np.ndarray],
    window_tokens: int | None,
    *,
    log_x: bool = True,
    view: str = "log",
    tr: Translator = EN,
) -> go.Figure:
    """One sequence's KV cache stacked by layer type against context: constant state, capped window, growing part.
    view: 'log' (GB, log y: a constant part is a flat band however small), 'linear' (GB) or 'pct' (share of total)."""
    percent = view == "pct"
    fig = Figure()
    total = sum(parts.values())
    for key in ("state", "window", "recent", "full", "compressed"):  # flat parts at the bottom, growing on top
        if key not in parts:
            continue
        name = tr(f"kvc_part_{key}", w=f"{window_tokens:,}" if window_tokens else "")
        y = parts[key] / np.where(total > 0, total, 1.0) * 100 if percent else parts[key] / GB
        unit = "%" if percent else " GB"
        fig.add_scatter(
            x=contexts,
            y=y,
            mode="lines",
            stackgroup="one",
            name=name,
            line={"color": PART_COLOURS[key], "width": 1},
            fillcolor=PART_COLOURS[key],
            hovertemplate=f"{name}<br>{_hover_context(tr)}<br>%{{y:,.3~r}}{unit}<extra></extra>",
        )
    d = Decor()
    if window_tokens:
        lo, hi = (math.log(float(v)) for v in (contexts[0], contexts[-1])) if log_x else (contexts[0], contexts[-1])
        at = math.log(window_tokens) if log_x else window_tokens
        d.vline(
            window_tokens,
            line={"dash": "dot", "color": "#555"},
            label={
                "text": tr("kvc_window_edge", w=f"{window_tokens:,}"),
                "textposition": "end",
                "textangle": 0,
                # its text on the side with room: a 128-token window sits at the axis's left edge
                "xanchor": "left" if (at - lo) < 0.5 * (hi - lo) else "right",
            },
        )
    y_title = tr("kvc_axis_share_pct") if percent else tr("kvc_axis_gb_per_sequence")
    title = tr("kvc_comp_title_compressed" if "compressed" in parts else "kvc_comp_title")  # DeepSeek-V4: by part
    style(fig, title, tr("axis_context"), y_title, log_x=log_x, log_y=view == "log")
    d.xaxis.update(context_axis(contexts, log_x))
    if percent:
        d.yaxis["range"] = [0, 100]
    elif view == "log":
        positive = total[total > 0] / GB
        if positive.size:
            lo, hi = float(positive.min()) / 3, float(positive.max()) * 1.5
            d.yaxis.update(range=[math.log10(lo), math.log10(hi)], **log_ticks([lo, hi]))
    return d.apply(fig)


def architecture_caption(model: ModelSpec, *, tr: Translator = EN) -> str:
    """Under the KV-per-token bars: what the what-ifs are; for DeepSeek-V4, why its own bar is so short."""
    parts = [tr("kvc_arch_caption")]
    if c := model.compressed_attention:
        parts.append(tr("kvc_arch_caption_compressed", d=model.head_dim, i=c.index_head_dim, rc=c.csa_compression,
                        rh=c.hca_compression))  # fmt: skip
    return tr.sentences(parts)


def composition_caption(model: ModelSpec, *, tr: Translator = EN) -> str:
    """What the flat parts of the composition chart are, for this model."""
    parts = []
    if model.sliding_window:
        parts.append(tr("kvc_comp_caption_window", w=f"{model.sliding_window.window_tokens:,}"))
    if model.compressed_attention:
        parts.append(tr("kvc_comp_caption_compressed", w=f"{model.compressed_attention.window_tokens:,}"))
    if model.linear_attention:
        parts.append(tr("kvc_comp_caption_linear"))
    return tr.sentences([*parts, tr("kvc_comp_caption")])


def composition_table(contexts: np.ndarray, parts: dict[str, np.ndarray]) -> pd.DataFrame:
    data = {"context_tokens": contexts}
    data.update({f"kv_{k}_gb_per_sequence": v / GB for k, v in parts.items()})
    return pd.DataFrame(data)


def precision_lines(
    contexts: np.ndarray,
    lines: dict[str, np.ndarray],
    current: str,
    room_bytes: float,
    batch: int,
    *,
    log_x: bool = True,
    tr: Translator = EN,
) -> go.Figure:
    """KV-cache GB per GPU against context at one batch, one line per KV format, with the room for the cache."""
    fig = Figure()
    for name, values in lines.items():
        label = tr("kvc_prec_current", fmt=name) if name == current else name
        fig.add_scatter(
            x=contexts,
            y=values / GB,
            mode="lines",
            name=label,
            line={
                "color": PRECISION_COLOURS.get(name, BUCKET_COLOURS["kv_cache"]),
                "width": 3.5 if name == current else 2,
                "dash": "solid" if name == current else "dash",
            },
            hovertemplate=f"{label}<br>{_hover_context(tr)}<br>{tr('kvc_h_gb_per_gpu')}<extra></extra>",
        )
    d = Decor()
    _room_line(d, room_bytes, _top_gb(*lines.values(), room_bytes=room_bytes), tr)
    style(fig, tr("kvc_prec_title", b=batch), tr("axis_context"), tr("kvc_axis_gb_per_gpu"), log_x=log_x, log_y=True)
    d.xaxis.update(context_axis(contexts, log_x))
    d.yaxis.update(log_ticks(*(v / GB for v in lines.values()), [max(room_bytes, 0) / GB]))
    # a half-width chart: its legend under the plot (over it, wrapped in zh-TW, it had covered the title)
    fig.update_layout(**legend_placement(fig, 440, side_max=0))
    return d.apply(fig)


def precision_table(contexts: np.ndarray, lines: dict[str, np.ndarray]) -> pd.DataFrame:
    data = {"context_tokens": contexts}
    data.update({f"kv_{k}_gb_per_gpu": v / GB for k, v in lines.items()})
    return pd.DataFrame(data)


def per_token_formula(model: ModelSpec, kv_bytes_per_element: float, tr: Translator = EN) -> tuple[str, str]:
    """(formula, values substituted) of the KV bytes one token adds over the attention layers; the formula's words
    in the page's language (the config fields keep their config.json names); DeepSeek-V4's also names the
    uncompressed window every sequence keeps beside (a fixed size, not a per-token growth)."""
    layers = model.num_full_attention_layers + model.num_window_layers
    if model.compressed_attention:
        c = model.compressed_attention
        w = window_tokens(model)
        recent = float(composition_bytes(model, np.array([w]), kv_bytes_per_element)["recent"][0])
        return (
            tr("kvc_formula_compressed", w=f"{w:,}", recent=fmt.kib_and_bytes(recent)),
            f"({c.csa_layers} × ({model.head_dim} + {c.index_head_dim}) ÷ {c.csa_compression}"
            f" + {c.hca_layers} × {model.head_dim} ÷ {c.hca_compression}) × {kv_bytes_per_element:g} B",
        )
    if model.mla:
        a = model.mla
        if model.sparse_attention:  # DSA: the indexer's key is cached beside the latent
            return (
                tr("kvc_formula_dsa"),
                f"({a.kv_lora_rank} + {a.qk_rope_head_dim} + {model.sparse_attention.index_head_dim})"
                f" × {kv_bytes_per_element:g} B × {layers}",
            )
        return (
            tr("kvc_formula_mla"),
            f"({a.kv_lora_rank} + {a.qk_rope_head_dim}) × {kv_bytes_per_element:g} B × {layers}",
        )
    return (
        tr("kvc_formula_gqa"),
        f"2 × {model.num_kv_heads} × {model.head_dim} × {kv_bytes_per_element:g} B × {layers}",
    )
