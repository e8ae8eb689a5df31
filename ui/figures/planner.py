"""Serving-planner figures and tables: the SLO frontier, hardware x precision cost at a target, tensor and pipeline
parallelism, speculative decoding, capacity and disaggregation, the levers. Pure: results of tpot_model.planner
in (SI units), go.Figure or pandas DataFrame out (display units in column names); and the page's options (targets,
tabs, slider ranges), whose URL form ui.page_state reads and writes."""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import get_colorscale

from tpot_model import load_hardware_catalog
from tpot_model.layouts import MAX_BUDGET_GPUS, SERVING_MODES, Deployment, Pool, StepParts
from tpot_model.planner import (
    MAX_BATCH_SEARCHED,
    CostGrid,
    Disaggregation,
    FrontierPoint,
    LeverRow,
    PipelineParallel,
    Speculative,
    TPScaling,
)
from tpot_model.roofline import BUCKETS, link_peak_bytes_per_s, scale_out_peak_bytes_per_s, scale_up_domain_gpus
from tpot_model.speculative import MTP_ACCEPTANCE, MTP_K
from tpot_model.targets import TPOT_TARGETS_S
from tpot_model.units import Gbit_per_s

from .. import fmt
from ..i18n import EN, Translator
from .common import (
    BUCKET_COLOURS,
    COLOURBAR_FINER,
    Decor,
    Figure,
    legend_placement,
    nice_log_ticks,
    style,
    tick_label,
    wrap_label,
)

# --------------------------------------------------------------------------------------------------- page inputs

TARGET_PRESETS = tuple(TPOT_TARGETS_S)  # code_completion, chat, agents, batch_jobs
CUSTOM = "custom"
TARGET_OPTIONS = (*TARGET_PRESETS, CUSTOM)
DEFAULT_TARGET = "chat"
MIN_TARGET_MS, MAX_TARGET_MS = 1.0, 10_000.0  # the custom TPOT target's input
MAX_TTFT_MS = 600_000.0
K_RANGE = (1, 8)
ACCEPT_MAX = 0.95
HIT_MAX = 0.95
DEFAULT_K, DEFAULT_ACCEPT, DEFAULT_HIT = MTP_K, MTP_ACCEPTANCE, 0.0  # one speculative default: the Frontier's MTP
SECTIONS = ("hardware", "gpus", "capacity", "speculative", "levers")  # the page's tabs, in order
# the tab each chart is drawn in (the SLO frontier sits above the tabs): a chart embedded alone
# (?embed=true&only=<id>) runs its own tab, open or not
CHART_SECTION = {
    "planner-cost": "hardware",
    "planner-layout": "gpus",
    "planner-tensor-parallel": "gpus",
    "planner-pipeline-parallel": "gpus",
    "planner-disaggregation": "capacity",
    "planner-spec": "speculative",
    "planner-spec-batch": "speculative",
    "planner-levers": "levers",
}
SERVING = SERVING_MODES  # the layout search's serving modes: aggregated, disaggregated, best
DEFAULT_SERVING = "best"
MAX_BUDGET = MAX_BUDGET_GPUS  # GPU budget of the layout search
TABLE_HARDWARE = ("h100-sxm", "h200", "b200", "mi300x", "mi355x")  # the hardware x precision grid's, unless chosen
MAX_TABLE_CHIPS = 12  # chosen for the grid (the sidebar's besides): a row each, readable at 900 px
MIXES = ((1024, 1024), (1024, 8192), (8192, 1024), (32768, 1024))  # ISL/OSL pairs analysts quote
SPEC_K_LINES = (1, 2, 4, 8)
ACCEPT_GRID = np.round(np.linspace(0.0, ACCEPT_MAX, 39), 4)
MISS_COLOUR = "#f2c46d"
NO_FIT_COLOUR = "#b0b0b0"
TARGET_COLOUR = "#2ca02c"
CHOSEN_COLOUR = "#d62728"
TP_COLOUR = "#1f77b4"
PP_COLOUR = "#ff7f0e"
LEVER_COLOURS = {"tpot": "#1f77b4", "batch": "#1f77b4", "throughput": "#2ca02c", "usd": "#d62728"}


def target_ms(target: str, custom_ms: float) -> float:
    """The TPOT target in ms for a preset key, or the custom value."""
    return TPOT_TARGETS_S[target] * 1e3 if target in TPOT_TARGETS_S else float(custom_ms)


def default_table_chips(sidebar: str, catalog: Collection[str]) -> tuple[str, ...]:
    """The hardware x precision grid's chips unless the reader chooses: TABLE_HARDWARE, then the sidebar's chip, those
    of them in the catalog."""
    return tuple(h for h in dict.fromkeys((*TABLE_HARDWARE, sidebar)) if h in catalog)


def table_chips(chosen: Sequence[str], sidebar: str, catalog: Collection[str]) -> tuple[str, ...]:
    """The grid's rows: the chosen chips of the catalog in their order (none: default_table_chips), then the sidebar's
    chip where they leave it out (always compared; a chip of the reader's own file too)."""
    ids = [h for h in chosen if h in catalog] or default_table_chips(sidebar, catalog)
    return tuple(dict.fromkeys((*ids, sidebar)))


def batch_sweep(max_batch_memory: float) -> np.ndarray:
    """Batches 1, 2, 4 ... up to what fits (at most 4096), and that limit, for the speculative-decoding batch chart."""
    top = float(np.clip(max_batch_memory, 1, MAX_BATCH_SEARCHED))
    grid = 2.0 ** np.arange(int(np.log2(top)) + 1)
    return np.unique(np.append(grid, top))


def k_lines(k: int) -> np.ndarray:
    """Draft lengths drawn in the acceptance chart (1, 2, 4, 8 and the chosen k), as a column for broadcasting."""
    return np.array(sorted(set(SPEC_K_LINES) | {int(k)}), dtype=float)[:, None]


def ratio_text(prefill_per_decode_gpu: float, *, tr: Translator = EN) -> str:
    """Prefill : decode GPUs in small numbers: '1 : 2.3' (one prefill GPU per 2.3 decode GPUs) or '3.4 : 1'."""
    r = float(prefill_per_decode_gpu)
    if not (r > 0 and math.isfinite(r)):
        return tr("pl_na")
    return fmt.ratio(r)


# --------------------------------------------------------------------------------------------------- frontier


def _ms(x) -> np.ndarray:
    return np.asarray(x, dtype=float) * 1e3


def frontier_figure(point: FrontierPoint, *, tr: Translator = EN) -> go.Figure:
    """Tokens/s per GPU (up) against tokens/s per user = 1 / TPOT (across), InferenceX's orientation as on every
    throughput-latency curve, as the batch grows: points meeting the target, missing it, not fitting; the target line
    (labelled in both forms, fmt.target) and the chosen batch. TPOT (ms) is in the hover."""
    b, y = point.sweep_batch, point.sweep_tokens_per_s_per_gpu
    t = 1.0 / np.asarray(point.sweep_tpot_s, dtype=float)  # tokens/s per user
    fits, meets = point.sweep_fits, point.sweep_meets_target
    hover = tr("pl_hover_batch") + "<extra></extra>"
    fig = Figure()
    groups = (
        ("pl_meets", fits & meets, TARGET_COLOUR, "circle"),
        ("pl_misses", fits & ~meets, MISS_COLOUR, "circle"),
        ("pl_no_fit", ~fits, NO_FIT_COLOUR, "x"),
    )
    for key, mask, colour, symbol in groups:
        if not mask.any():
            continue
        fig.add_scatter(
            x=t[mask],
            y=y[mask],
            customdata=np.stack([b[mask], 1e3 / t[mask]], axis=-1),
            mode="lines+markers" if mask.sum() > 1 and symbol == "circle" else "markers",
            name=tr(key),
            line={"color": colour, "width": 2},
            marker={"color": colour, "size": 5, "symbol": symbol},
            hovertemplate=f"<b>{tr(key)}</b><br>{hover}",  # which group: a batch past memory had read as any other
            zorder=2 if key == "pl_no_fit" else 0,  # over the star, where the first batches that no longer fit sit
        )
    d = Decor()
    d.vline(1.0 / point.tpot_target_s, line={"dash": "dash", "color": "#333"})
    # the target's label above the plot, clear of the points; the legend below the plot, clear of the label
    d.note(tr("pl_target_line", ms=fmt.target(point.tpot_target_s, tr)), 1.0 / point.tpot_target_s, 1.0, xref="x",
           xanchor="center", yanchor="bottom", font={"size": 11})  # fmt: skip
    if point.feasible:
        fig.add_scatter(
            x=[1.0 / point.tpot_s],
            y=[point.tokens_per_s_per_gpu],
            customdata=[[point.batch, point.tpot_s * 1e3]],
            mode="markers+text",
            name=tr("pl_chosen"),
            marker={"color": CHOSEN_COLOUR, "size": 14, "symbol": "star"},
            text=[tr("pl_chosen_label", batch=point.batch)],
            textposition="middle right",
            hovertemplate=f"<b>{tr('pl_chosen')}</b><br>{hover}",  # its group named, as the other points' are
        )
    style(fig, tr("pl_frontier_title"), tr("ce_axis_tps_user"), tr("pl_axis_tps_gpu"))
    return d.apply(fig, **legend_placement(fig, 440, side_max=0))


def frontier_table(point: FrontierPoint) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "batch": point.sweep_batch.astype(int),
            "tpot_ms": _ms(point.sweep_tpot_s),
            "tokens_per_s_per_gpu": point.sweep_tokens_per_s_per_gpu,
            "fits": point.sweep_fits,
            "meets_target": point.sweep_meets_target,
            "chosen": point.sweep_batch.astype(int) == point.batch,
        }
    )


# --------------------------------------------------------------------------------------------------- hardware x precision


def _cell_text(p: FrontierPoint, tr: Translator, *, where: bool = True) -> str:
    """A cell's $ (or why it has none) and tok/s per GPU, then (`where`) its GPUs and requests in flight."""
    if not p.feasible:
        return tr("pl_cell_no_fit") if p.limited_by == "memory" else tr("pl_cell_misses")
    usd = (
        f"<b>{fmt.usd(p.usd_per_1M_tokens)}</b>"  # 3 significant figures, as Cost's ('$0.0700', not '$0.07')
        if p.usd_per_1M_tokens == p.usd_per_1M_tokens
        else tr("pl_cell_no_price")
    )
    text = f"{usd}<br>{p.tokens_per_s_per_gpu:,.0f} {tr('pl_unit_tps_gpu')}"
    return f"{text}<br>{tr('pl_cell_where', gpus=p.num_gpus, batch=p.batch)}" if where else text


def cost_heatmap(grid: CostGrid, hardware_names: Sequence[str], target_s: float, *, tr: Translator = EN) -> go.Figure:
    """$ per 1M output tokens at the target for hardware (rows) x precision (columns); cells that cannot meet the
    target or fit, or have no price, are grey and say so."""
    z = np.array([[p.usd_per_1M_tokens if p.feasible else np.nan for p in row] for row in grid.cells], dtype=float)
    # colours on a log scale, the bar in $: one cell ten times the others (B200 in BF16, $47.75) had turned the rest,
    # $1.05 to $4.88, one green (each cell's $ is in its text)
    positive = z[np.isfinite(z) & (z > 0)]
    lo, hi = (float(positive.min()), float(positive.max())) if positive.size else (1.0, 10.0)
    hi = max(hi, lo * 1.01)
    ticks = np.array(nice_log_ticks(lo, hi, finer=COLOURBAR_FINER, widen=False))  # round steps: $0.7, $1, $1.5
    with np.errstate(divide="ignore", invalid="ignore"):
        colour = np.log10(np.where(z > 0, z, np.nan))
    # two lines in a cell, the GPUs and requests in flight in its hover too: three overprinted in a narrow column
    text = [[_cell_text(p, tr, where=False) for p in row] for row in grid.cells]
    hover = [[_cell_text(p, tr) for p in row] for row in grid.cells]
    cols = [tr(f"pl_prec_{p}") for p in grid.precisions]
    fig = Figure(
        dict(
            type="heatmap",
            z=colour,
            zmin=math.log10(lo),
            zmax=math.log10(hi),
            x=cols,
            # a name and its "(announced)" on lines of their own: on one, MI455X's took a third of a 900 px column
            y=[wrap_label(n) for n in hardware_names],
            text=text,
            texttemplate="%{text}",
            customdata=hover,
            textfont={"size": 11},  # "1,367 tok/s/GPU" had met the cell's edges at 900 px
            colorscale=get_colorscale("RdYlGn_r"),  # as a list: plotly.js has no RdYlGn by name
            # under the cells, not beside them: beside, it took a third of a narrow column's width from the cells
            colorbar={
                "title": {"text": tr("pl_usd_axis"), "side": "top"},
                "orientation": "h",
                "y": -0.04,
                "yanchor": "top",
                "len": 0.9,  # at 0.6, '$0.7 $1 $1.5 $2 $3' had overprinted under a 900 px page's cells
                "thickness": 12,
                "tickvals": np.log10(ticks),
                "ticktext": ["$" + tick_label(t) for t in ticks],  # '$10', not '$10.0'
            },  # fmt: skip
            hovertemplate=tr("pl_hover_cell") + "<extra></extra>",
            xgap=3,
            ygap=3,
        )
    )
    # both units ('20 tok/s/user = 50 ms TPOT'): the Serving frontier's '$ per 1M output tokens at 50' is tok/s/user
    style(fig, tr("pl_table_title", target=fmt.target(target_s, tr)), "", "")
    fig.update_layout(
        plot_bgcolor="#e6e6e6",  # the NaN holes of the heat map (no fit, target missed, no price) show grey
        height=200 + 75 * len(hardware_names),
        margin={"t": 110, "b": 100},
        legend={"visible": False},
    )
    fig.update_yaxes(autorange="reversed", showgrid=False)
    fig.update_xaxes(side="top", showgrid=False)
    return fig


def cost_table(grid: CostGrid, prices: Mapping[str, object] | None = None) -> pd.DataFrame:
    """The grid's cells, one row each, with each chip's price (`prices`: hardware id -> prices.Price), its basis and
    date: the chips are priced each at its own (the CSV had stated the sidebar chip's price on every row); whether the
    chip is announced, not shipping (its rows projections from vendor figures), as Economics' CSV says it."""
    catalog = load_hardware_catalog()
    rows = []
    for hw, row, fmts in zip(grid.hardware_ids, grid.cells, grid.formats, strict=True):
        price = (prices or {}).get(hw)
        for prec, fmt_name, p in zip(grid.precisions, fmts, row, strict=True):
            rows.append(
                {
                    "hardware": hw,
                    "hardware_announced": bool(getattr(catalog.get(hw), "announced", False)),
                    "precision": prec,
                    "weights": fmt_name,
                    "feasible": p.feasible,
                    "gpus": p.num_gpus,
                    "batch": p.batch,
                    "tpot_ms": p.tpot_s * 1e3,
                    "output_tokens_per_s_per_gpu": p.tokens_per_s_per_gpu,
                    "usd_per_1M_output_tokens": p.usd_per_1M_tokens,
                    "limited_by": p.limited_by,
                    "price_usd_per_gpu_hour": price.usd_per_gpu_hour if price is not None else None,
                    "price_basis": price.basis if price is not None else None,
                    "price_as_of": (price.as_of or None) if price is not None else None,
                }
            )
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------------- GPU count


def tp_figure(tp: TPScaling, batch: int, target_s: float | None, *, tr: Translator = EN) -> go.Figure:
    """TPOT at the scenario's batch per tensor-parallel GPU count, stacked by bucket (communication visible), with
    the ideal 1/N line and the target; counts that do not fit are shaded grey and say so under their tick (clear of
    their bars, the tallest)."""
    x = [str(n) for n in tp.num_gpus]
    fig = Figure()
    share = tp.communication_fraction * 100
    for key, values in tp.breakdown_s.items():
        fig.add_bar(
            x=x,
            y=_ms(values),
            name=tr(f"bucket_{key}"),
            marker_color=BUCKET_COLOURS[key],
            customdata=np.stack([share, _ms(tp.tpot_s)], axis=-1),
            hovertemplate=tr("pl_hover_tp") + "<extra></extra>",
        )
    fig.add_scatter(
        x=x,
        y=_ms(tp.ideal_tpot_s),
        mode="lines+markers",
        name=tr("pl_ideal_scaling"),
        line={"color": "#000", "dash": "dot"},
        hovertemplate=tr("pl_hover_ideal") + "<extra></extra>",
    )
    d = Decor()
    if target_s is not None:
        d.hline(target_s * 1e3, line={"dash": "dash", "color": TARGET_COLOUR})
        # on a white ground: a target below the bars had printed its words over them (a zh-TW review at 2 ms)
        d.note(tr("pl_target_line", ms=fmt.target(target_s, tr)), 1.0, target_s * 1e3, yref="y", xanchor="right",
               yanchor="bottom", font={"color": TARGET_COLOUR, "size": 11}, bgcolor="rgba(255,255,255,0.85)")  # fmt: skip
    for i, f in enumerate(tp.fits):
        if not f:  # shade the counts that do not fit; on a category axis a number is the category's position
            d.vrect(i - 0.5, i + 0.5, fillcolor=NO_FIT_COLOUR, opacity=0.35)
    style(fig, tr("pl_tp_title", batch=batch), tr("pl_axis_tp_gpus"), tr("axis_tpot_ms"))
    fig.update_layout(**legend_placement(fig, 440, side_max=0))  # six keys: over the title in a 900 px frame
    # under a count, at the title's batch: 'batch 32 does not fit' (it stood beside the table's best batch of 17)
    ticks = [
        n if f else f"{n}<br>{tr('pl_no_fit_short', batch=fmt.integer(batch))}" for n, f in zip(x, tp.fits, strict=True)
    ]
    d.xaxis = {"type": "category", "tickvals": x, "ticktext": ticks}
    return d.apply(fig, barmode="stack")


def tp_table(tp: TPScaling) -> pd.DataFrame:
    d = {"gpus": tp.num_gpus, "tpot_ms": _ms(tp.tpot_s)}
    d |= {f"{k}_ms": _ms(v) for k, v in tp.breakdown_s.items()}
    d |= {
        "communication_share": tp.communication_fraction,
        "scaling_efficiency": tp.scaling_efficiency,
        "tokens_per_s_total": tp.tokens_per_s_total,
        "tokens_per_s_per_gpu": tp.tokens_per_s_per_gpu,
        "usd_per_1M_output_tokens": tp.usd_per_1M_tokens,
        "memory_per_gpu_GB": tp.memory_per_gpu_bytes / 1e9,
        "fits": tp.fits,
    }
    if tp.frontier is not None:
        f = tp.frontier
        d |= {
            "target_batch": f.batch,
            "target_tokens_per_s_per_gpu": f.tokens_per_s_per_gpu,
            "target_usd_per_1M_output_tokens": f.usd_per_1M_tokens,
            "target_limited_by": f.limited_by,
        }
    return pd.DataFrame(d)


def tp_display_table(tp: TPScaling, batch: int, *, tr: Translator = EN) -> pd.DataFrame:
    """The TP table as shown on the page: translated headers, display units, n/a where a number does not exist; its
    TPOT, rates and fit at the sidebar's `batch` (the fit column says so: 'no' beside a best batch of 17 at the target
    had read as a contradiction), the target's columns at their own best batch."""

    def num(values, digits: int, scale: float = 1.0) -> list[str]:
        return [f"{v * scale:,.{digits}f}" if np.isfinite(v) else tr("pl_na") for v in np.asarray(values, float)]

    def usd(values) -> list[str]:  # as Cost's and the page's metrics ('$0.115'), not to the cent
        return [fmt.usd(v) if np.isfinite(v) else tr("pl_na") for v in np.asarray(values, float)]

    d = {
        tr("pl_col_gpus"): tp.num_gpus,
        tr("pl_col_tpot"): num(tp.tpot_s, 2, 1e3),
        tr("pl_col_comm"): num(tp.communication_fraction, 1, 100),
        tr("pl_col_eff"): num(tp.scaling_efficiency, 0, 100),
        # a count that cannot hold the model serves nothing: no rate or $ (they had read as the column's cheapest)
        tr("pl_col_tps_gpu"): num(np.where(tp.fits, tp.tokens_per_s_per_gpu, np.nan), 0),
        tr("pl_col_usd"): usd(np.where(tp.fits, tp.usd_per_1M_tokens, np.nan)),
        tr("pl_col_fits_at", batch=fmt.integer(batch)): [tr("pl_yes") if f else tr("pl_no") for f in tp.fits],
    }
    if tp.frontier is not None:
        f = tp.frontier
        d[tr("pl_col_target_batch")] = [
            fmt.integer(b) if ok else tr("pl_na") for b, ok in zip(f.batch, f.feasible, strict=True)
        ]
        d[tr("pl_col_target_tps")] = num(f.tokens_per_s_per_gpu, 0)
        d[tr("pl_col_target_usd")] = usd(f.usd_per_1M_tokens)
    return pd.DataFrame(d)


def pp_figure(pp: PipelineParallel, tp: TPScaling, *, tr: Translator = EN) -> go.Figure:
    """Pipeline stages on the TP group against tensor parallelism over the same total GPUs: TPOT (left) and memory
    per GPU against the usable memory (right: one line, or a line through each stage count's where it changes with
    what the GPUs hold, as TensorRT-LLM's does). tp must include the counts pp.num_gpus."""
    idx = [int(np.flatnonzero(tp.num_gpus == n)[0]) for n in pp.num_gpus]
    x = [str(n) for n in pp.num_gpus]
    pp_data = np.stack([pp.stages, pp.bubble_fraction * 100, pp.max_batch, pp.memory_per_gpu_bytes / 1e9], axis=-1)
    tp_name, pp_name = tr("pl_tp_only"), tr("pl_pp_line", tp=pp.tensor_parallel)
    mem = tr("pl_hover_mem") + "<extra></extra>"
    data = [
        dict(type="scatter",
            x=x,
            y=_ms(tp.tpot_s[idx]),
            mode="lines+markers",
            name=tp_name,
            line={"color": TP_COLOUR},
            legendgroup="tp",
            hovertemplate=tr("pl_hover_tp_line") + "<extra></extra>",
        ),
        dict(type="scatter",
            x=x,
            y=_ms(pp.tpot_s),
            mode="lines+markers",
            name=pp_name,
            line={"color": PP_COLOUR},
            legendgroup="pp",
            customdata=pp_data,
            hovertemplate=tr("pl_hover_pp") + "<extra></extra>",
        ),
        dict(type="bar", x=x, y=tp.memory_per_gpu_bytes[idx] / 1e9, name=tp_name, marker_color=TP_COLOUR, legendgroup="tp",
               showlegend=False, hovertemplate=mem, xaxis="x2", yaxis="y2"),
        dict(type="bar", x=x, y=pp.memory_per_gpu_bytes / 1e9, name=pp_name, marker_color=PP_COLOUR, legendgroup="pp",
               showlegend=False, hovertemplate=mem, xaxis="x2", yaxis="y2"),
    ]  # fmt: skip
    usable = pp.usable_memory_per_gpu_bytes / 1e9
    label = tr("pl_usable", gb=f"{usable[-1]:.0f}")
    flat = float(np.ptp(usable)) < 0.5  # GB: one line
    if not flat:  # TensorRT-LLM's: a share of what each layout leaves free
        data.append(dict(type="scatter", x=x, y=usable, mode="lines", name=label, showlegend=False,
                         line={"dash": "dash", "color": "#333"}, hovertemplate=tr("pl_hover_usable") + "<extra></extra>",
                         xaxis="x2", yaxis="y2"))  # fmt: skip
    # two panels side by side, laid out by hand (make_subplots costs ~30 ms per figure)
    fig = Figure(
        data=data,
        layout={
            "xaxis": {"domain": [0.0, 0.45], "type": "category"},
            "xaxis2": {"domain": [0.55, 1.0], "type": "category", "anchor": "y2",
                       "title": {"text": tr("pl_axis_total_gpus")}},
            "yaxis2": {"anchor": "x2", "title": {"text": tr("pl_axis_gb_gpu")}},
            "barmode": "group",
            "shapes": [{"type": "line", "xref": "x2 domain", "x0": 0, "x1": 1, "yref": "y2",
                        "y0": usable[-1], "y1": usable[-1], "line": {"dash": "dash", "color": "#333"}}] if flat else [],
            "annotations": [{"x": 1.0, "xref": "x2 domain", "y": usable[-1], "yref": "y2", "showarrow": False,
                             "text": label, "xanchor": "right", "yanchor": "bottom", "font": {"size": 11}}],
        },
    )  # fmt: skip
    style(fig, tr("pl_pp_title", tp=pp.tensor_parallel), tr("pl_axis_total_gpus"), tr("axis_tpot_ms"))
    fig.update_layout(xaxis={"type": "category"})  # style() resets the axis type
    return fig


def pp_table(pp: PipelineParallel, tp: TPScaling) -> pd.DataFrame:
    idx = [int(np.flatnonzero(tp.num_gpus == n)[0]) for n in pp.num_gpus]
    return pd.DataFrame(
        {
            "pp_stages": pp.stages,
            "tensor_parallel": pp.tensor_parallel,
            "gpus": pp.num_gpus,
            "micro_batches": pp.micro_batches,
            "tpot_ms": _ms(pp.tpot_s),
            "transfer_ms": _ms(pp.transfer_s),
            "bubble_fraction": pp.bubble_fraction,
            "tokens_per_s_per_gpu": pp.tokens_per_s_per_gpu,
            "usd_per_1M_output_tokens": pp.usd_per_1M_tokens,
            "memory_per_gpu_GB": pp.memory_per_gpu_bytes / 1e9,
            "fits": pp.fits,
            "max_batch": pp.max_batch,
            "tp_only_tpot_ms": _ms(tp.tpot_s[idx]),
            "tp_only_memory_per_gpu_GB": tp.memory_per_gpu_bytes[idx] / 1e9,
        }
    )


# --------------------------------------------------------------------------------------------------- speculative


def spec_acceptance_figure(grid: Speculative, k: int, acceptance: float, *, tr: Translator = EN) -> go.Figure:
    """Effective TPOT against the acceptance rate, one line per draft length (grid: k along axis 0, acceptance along
    axis 1), the baseline and the current (k, a)."""
    fig = Figure()
    base = float(np.ravel(grid.baseline_tpot_s)[0]) * 1e3
    ks = grid.k[:, 0].astype(int)
    for i, kk in enumerate(ks):
        chosen = kk == k
        fig.add_scatter(
            x=grid.acceptance[i],
            y=_ms(grid.tpot_s[i]),
            mode="lines",
            name=tr("pl_spec_k", k=kk),
            line={"width": 4, "color": CHOSEN_COLOUR} if chosen else {"width": 1.5},
            opacity=1.0 if chosen else 0.55,
            hovertemplate=tr("pl_hover_spec_a") + "<extra></extra>",
        )
    d = Decor()
    d.hline(base, line={"dash": "dash", "color": "#333"})
    d.note(tr("pl_spec_baseline", ms=f"{base:.1f}"), 0.0, base, yref="y", xanchor="left", yanchor="bottom",
           font={"size": 11})  # fmt: skip
    i = int(np.flatnonzero(ks == k)[0]) if (ks == k).any() else None
    if i is not None:
        y = float(np.interp(acceptance, grid.acceptance[i], grid.tpot_s[i])) * 1e3
        fig.add_scatter(
            x=[acceptance],
            y=[y],
            mode="markers",
            name=tr("pl_spec_now"),
            marker={"symbol": "star", "size": 14, "color": CHOSEN_COLOUR},
            hovertemplate=tr("pl_hover_spec_a") + "<extra></extra>",
        )
    style(fig, tr("pl_spec_a_title"), tr("pl_axis_acceptance"), tr("pl_axis_eff_tpot"))
    d.xaxis = {"tickformat": ".0%"}
    # the keys under the plot (at 900 px beside the sidebar they had covered the title)
    return d.apply(fig, **legend_placement(fig, 420, side_max=0))


def spec_acceptance_table(grid: Speculative) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "k": grid.k.ravel().astype(int),
            "acceptance": grid.acceptance.ravel(),
            "tokens_per_step": grid.tokens_per_step.ravel(),
            "effective_tpot_ms": _ms(grid.tpot_s).ravel(),
            "baseline_tpot_ms": _ms(grid.baseline_tpot_s).ravel(),
            "speedup": grid.speedup.ravel(),
        }
    )


def spec_batch_figure(sp: Speculative, *, tr: Translator = EN) -> go.Figure:
    """Speed-up (baseline TPOT / effective TPOT) against batch at the chosen k and acceptance: where it stops paying."""
    batch = np.asarray(sp.tokens_per_s_total * sp.tpot_s, dtype=float)  # batch = tokens/s x TPOT
    fig = Figure()
    d = Decor()
    d.hrect(0, 1, fillcolor="#d62728", opacity=0.07)
    fig.add_scatter(
        x=batch,
        y=sp.speedup,
        mode="lines+markers",
        name=tr("pl_spec_speedup"),
        line={"color": CHOSEN_COLOUR},
        customdata=np.stack([_ms(sp.tpot_s), _ms(sp.baseline_tpot_s), sp.break_even_acceptance * 100], axis=-1),
        hovertemplate=tr("pl_hover_spec_b") + "<extra></extra>",
    )
    d.hline(1.0, line={"dash": "dash", "color": "#333"})
    d.note(tr("pl_spec_no_gain"), 1.0, 0.05, yref="y", xanchor="right", yanchor="bottom",
           font={"color": "#a00", "size": 11})  # fmt: skip
    style(fig, tr("pl_spec_b_title"), tr("axis_batch"), tr("pl_axis_speedup"), log_x=True)
    top = max(1.2, float(np.nanmax(sp.speedup)) * 1.1) if np.isfinite(sp.speedup).any() else 2.0
    d.xaxis = {"tickvals": batch, "ticktext": [f"{b:,.0f}" for b in batch]}
    d.yaxis = {"range": [0, top]}
    return d.apply(fig)


def spec_batch_table(sp: Speculative) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "batch": np.round(sp.tokens_per_s_total * sp.tpot_s).astype(int),
            "baseline_tpot_ms": _ms(sp.baseline_tpot_s),
            "draft_step_ms": _ms(sp.draft_step_s),
            "verify_step_ms": _ms(sp.verify_step_s),
            "effective_tpot_ms": _ms(sp.tpot_s),
            "speedup": sp.speedup,
            "break_even_acceptance": sp.break_even_acceptance,
            "fits": sp.fits,
        }
    )


# --------------------------------------------------------------------------------------------------- capacity


def mix_label(input_tokens: int, output_tokens: int) -> str:
    def short(n: int) -> str:
        return f"{n // 1024}K" if n >= 1024 and n % 1024 == 0 else f"{n:,}"

    return f"{short(int(input_tokens))} / {short(int(output_tokens))}"


def disaggregation_figure(dg: Disaggregation, *, tr: Translator = EN) -> go.Figure:
    """Prefill GPUs needed per decode GPU for each input/output mix (the decode pool at the TPOT target)."""
    x = [mix_label(i, o) for i, o in zip(dg.input_tokens, dg.output_tokens, strict=True)]
    ratio = dg.prefill_per_decode_gpu
    fig = Figure()
    fig.add_bar(
        x=x,
        y=ratio,
        marker_color=PP_COLOUR,
        text=[ratio_text(r, tr=tr) for r in ratio],
        textposition="outside",
        customdata=np.stack(
            [dg.decode.batch, dg.prefill_batch, dg.prefill_gpu_s_per_request, dg.decode_gpu_s_per_request], axis=-1
        ),
        hovertemplate=tr("pl_hover_disagg") + "<extra></extra>",
        showlegend=False,
    )
    style(fig, tr("pl_disagg_title"), tr("pl_axis_mix"), tr("pl_axis_ratio"))
    finite = ratio[np.isfinite(ratio)]
    fig.update_yaxes(range=[0, float(finite.max()) * 1.25 if finite.size else 1.0])
    return fig


def disaggregation_table(dg: Disaggregation) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "input_tokens": dg.input_tokens,
            "output_tokens": dg.output_tokens,
            "decode_batch": dg.decode.batch,
            "decode_tpot_ms": _ms(dg.decode.tpot_s),
            "prefill_batch": dg.prefill_batch,
            "prefill_ms": _ms(dg.prefill_s),
            "prefill_gpu_s_per_request": dg.prefill_gpu_s_per_request,
            "decode_gpu_s_per_request": dg.decode_gpu_s_per_request,
            "prefill_gpus_per_decode_gpu": dg.prefill_per_decode_gpu,
            "prefill_share": dg.prefill_share,
        }
    )


# --------------------------------------------------------------------------------------------------- levers


def shown_levers(rows: Sequence[LeverRow], at_target: bool) -> list[LeverRow]:
    """The rows a view shows: at the target, not 'twice the batch' (the target sets the batch there: its row had read
    n/a in every column, unexplained)."""
    return [r for r in rows if not (at_target and r.lever == "batch_x2")]


def lever_deltas(rows: Sequence[LeverRow], at_target: bool) -> dict[str, np.ndarray]:
    """The changes shown for each lever (not the baseline), in percent: TPOT at the sidebar's batch, at the target
    the best batch instead (every lever's TPOT sits at the target there: a +21 % TPOT had read as a lever making it
    worse, where it served a larger batch), then throughput and $/1M."""
    levers = [r for r in shown_levers(rows, at_target) if r.lever != "baseline"]
    if at_target:
        base = next(r for r in rows if r.lever == "baseline")
        first = [r.target_batch / base.target_batch - 1 if r.target_feasible and base.target_feasible else np.nan
                 for r in levers]  # fmt: skip
        thr = [r.target_d_tokens_per_s_per_gpu for r in levers]
        usd = [r.target_d_usd_per_1M for r in levers]
    else:
        first = [r.d_tpot for r in levers]
        thr = [r.d_tokens_per_s for r in levers]
        usd = [r.d_usd_per_1M for r in levers]
    return {
        "batch" if at_target else "tpot": np.asarray(first, dtype=float) * 100,
        "throughput": np.asarray(thr, dtype=float) * 100,
        "usd": np.asarray(usd, dtype=float) * 100,
    }


def _lever_label(r: LeverRow, tr: Translator, hardware: Mapping[str, object] | None) -> str:
    """'Lever (what changes)', chips by their short display names ('B200 → B300', not the catalog ids)."""
    detail = r.detail
    if r.chips and hardware and all(c in hardware for c in r.chips):
        detail = " → ".join(fmt.chip(hardware[c], tr, short=True) for c in r.chips)
    return f"{tr('pl_lever_' + r.lever)} ({detail})" if detail else tr("pl_lever_" + r.lever)


def levers_figure(
    rows: Sequence[LeverRow], at_target: bool, *, tr: Translator = EN, hardware: Mapping[str, object] | None = None
) -> go.Figure:
    """Grouped horizontal bars per lever: change in TPOT, throughput and $/1M tokens (%); `hardware`: the catalog
    (by id) the levers' chips are named from."""
    levers = [r for r in shown_levers(rows, at_target) if r.lever != "baseline"]
    # on lines of ~26 characters: whole, 'Speculative decoding (k=3, a=0.5, llama-3.1-8b)' left the bars ~80 px of a
    # 900 px page with the sidebar open
    labels = [wrap_label(_lever_label(r, tr, hardware), 26) for r in levers]
    deltas = lever_deltas(rows, at_target)
    names = {
        "tpot": tr("pl_d_tpot"),
        "batch": tr("pl_d_batch"),
        "throughput": tr("pl_d_tps_gpu") if at_target else tr("pl_d_tps"),
        "usd": tr("pl_d_usd"),
    }
    fig = Figure()
    for key in deltas:
        v = deltas[key]
        fig.add_bar(
            y=labels,
            x=v,
            orientation="h",
            name=names[key],
            marker_color=LEVER_COLOURS[key],
            text=[fmt.pct(x / 100, 0, signed=True, na="") for x in v],
            textposition="outside",
            cliponaxis=False,  # a label past the axis's end reads whole in the margin ('+7' of '+78%' in a narrow plot)
            hovertemplate=f"%{{y}}<br>{names[key]}: %{{x:+.1f}}%<extra></extra>",
        )
    d = Decor()
    for label, *vals in zip(labels, *deltas.values(), strict=True):
        if not np.isfinite(vals).any():  # the lever does not apply here
            d.note(tr("pl_na"), 0, label, xref="x", yref="y", xanchor="left", xshift=6)
    d.vline(0, line={"color": "#333"})
    title = tr("pl_levers_title_target") if at_target else tr("pl_levers_title_batch")
    style(fig, title, tr("pl_axis_change"), "")
    values = np.concatenate([v[np.isfinite(v)] for v in deltas.values()] + [np.zeros(1)])
    lo, hi = float(values.min()), float(values.max())
    pad = 0.18 * max(hi - lo, 10.0)  # room for the outside labels
    d.xaxis = {"range": [lo - pad, hi + pad]}
    d.yaxis = {"autorange": "reversed"}
    # the three keys under the plot (top-right, they covered the title in a narrow frame)
    placed = legend_placement(fig, 120 + 70 * len(levers), side_max=0)
    return d.apply(fig, barmode="group", **(placed | {"margin": {**placed["margin"], "r": 45}}))


def levers_table(rows: Sequence[LeverRow]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "lever": [r.lever for r in rows],
            "detail": [r.detail for r in rows],
            "applicable": [r.applicable for r in rows],
            "fits": [r.fits for r in rows],
            "tpot_ms": [r.tpot_s * 1e3 for r in rows],
            "tokens_per_s_total": [r.tokens_per_s_total for r in rows],
            "tokens_per_s_per_gpu": [r.tokens_per_s_per_gpu for r in rows],
            "usd_per_1M_output_tokens": [r.usd_per_1M_tokens for r in rows],
            "d_tpot": [r.d_tpot for r in rows],
            "d_tokens_per_s": [r.d_tokens_per_s for r in rows],
            "d_usd_per_1M": [r.d_usd_per_1M for r in rows],
            "target_batch": [r.target_batch for r in rows],
            "target_tpot_ms": [r.target_tpot_s * 1e3 for r in rows],
            "target_tokens_per_s_per_gpu": [r.target_tokens_per_s_per_gpu for r in rows],
            "target_usd_per_1M_output_tokens": [r.target_usd_per_1M_tokens for r in rows],
            "target_d_tokens_per_s_per_gpu": [r.target_d_tokens_per_s_per_gpu for r in rows],
            "target_d_usd_per_1M": [r.target_d_usd_per_1M for r in rows],
        }
    )


def levers_display_table(
    rows: Sequence[LeverRow], at_target: bool, *, tr: Translator = EN, hardware: Mapping[str, object] | None = None
) -> pd.DataFrame:
    """The levers as shown on the page: translated headers, display units, each lever's change against the current
    scenario in its value's cell ('116 (+1.8%)': as columns of their own the eight did not fit a page with the
    sidebar open, the last cut), n/a where a lever does not apply (`hardware`: as levers_figure's)."""

    def cell(value: str, delta: float, r: LeverRow) -> str:  # the change beside the value, not on the baseline
        if r.lever == "baseline" or value == tr("pl_na"):
            return value
        return tr("pl_lever_cell", value=value, delta=fmt.pct(delta, signed=True, na=tr("pl_na")))

    def num(x: float, digits: int = 2) -> str:
        return f"{x:,.{digits}f}" if np.isfinite(x) else tr("pl_na")

    def usd(x: float) -> str:  # as Cost's and the page's metrics ('$0.115'), not to the cent
        return fmt.usd(x) if np.isfinite(x) else tr("pl_na")

    out = []
    base = next(r for r in rows if r.lever == "baseline")
    for r in shown_levers(rows, at_target):
        if at_target:
            d_batch = r.target_batch / base.target_batch - 1 if r.target_feasible and base.target_feasible else math.nan
            out.append(
                {
                    tr("pl_col_lever"): _lever_label(r, tr, hardware),
                    tr("pl_col_best_batch"): cell(
                        fmt.integer(r.target_batch) if r.target_feasible else tr("pl_na"), d_batch, r
                    ),  # fmt: skip
                    tr("pl_col_tpot"): num(r.target_tpot_s * 1e3, 1),  # 44.7, as the page's ms elsewhere
                    tr("pl_col_tps_gpu"): cell(
                        num(r.target_tokens_per_s_per_gpu, 0), r.target_d_tokens_per_s_per_gpu, r
                    ),
                    tr("pl_col_usd"): cell(usd(r.target_usd_per_1M_tokens), r.target_d_usd_per_1M, r),
                }
            )
        else:
            out.append(
                {
                    tr("pl_col_lever"): _lever_label(r, tr, hardware),
                    tr("pl_col_fits"): tr("pl_yes") if r.fits else tr("pl_no"),
                    tr("pl_col_tpot"): cell(num(r.tpot_s * 1e3, 1), r.d_tpot, r),
                    tr("pl_col_tps"): cell(num(r.tokens_per_s_total, 0), r.d_tokens_per_s, r),
                    tr("pl_col_usd"): cell(usd(r.usd_per_1M_tokens), r.d_usd_per_1M, r),
                }
            )
    return pd.DataFrame(out)


# --------------------------------------------------------------------------------------------------- layout search

POOL_COLOURS = {"prefill": PP_COLOUR, "decode": TP_COLOUR, "aggregated": TP_COLOUR, "unused": NO_FIT_COLOUR}


def pool_parallelism(pool: Pool) -> dict[str, int]:
    """Per instance: tensor-, expert-, data- and pipeline-parallel degrees of a pool (TP8: tp 8; TEP8: tp 8, ep 8;
    DEP8: ep 8 over 8 data-parallel attention ranks; TP8xPP2: tp 8, pp 2)."""
    g, p = pool.gpus_each, pool.pipeline_stages
    return {
        "tp": {"tp": g, "tp-ep": g, "dp-ep": 1, "tp-pp": g // p}[pool.parallelism],
        "ep": g if pool.parallelism in ("tp-ep", "dp-ep") else 1,
        "dp": g if pool.parallelism == "dp-ep" else 1,
        "pp": p,
    }


def _pools(d: Deployment) -> list[tuple[str, Pool]]:
    """The deployment's pools, prefill first: ('aggregated', pool) or ('prefill', ...), ('decode', ...)."""
    if not d.feasible:
        return []
    if d.serving == "aggregated":
        return [("aggregated", d.decode)]
    return [("prefill", d.prefill), ("decode", d.decode)]


def layout_figure(d: Deployment, *, tr: Translator = EN) -> go.Figure:
    """The GPU budget as one bar split into the chosen pools (instances x GPUs each, their layout) and the GPUs left
    unused: what the layout search chose."""
    fig = Figure()
    y = [tr("pl_layout_budget_bar", n=d.max_gpus)]
    for kind, pool in _pools(d):
        par = pool_parallelism(pool)
        fig.add_bar(
            x=[pool.gpus],
            y=y,
            orientation="h",
            name=tr(f"pl_pool_{kind}"),
            marker_color=POOL_COLOURS[kind],
            text=[tr("pl_pool_bar", pool=tr(f"pl_pool_{kind}"), layout=pool.label)],
            textposition="inside",
            insidetextanchor="middle",
            customdata=[[pool.instances, pool.gpus_each, par["tp"], par["ep"], par["dp"], par["pp"], pool.batch]],
            hovertemplate=tr("pl_hover_pool") + "<extra></extra>",
        )
    unused = d.max_gpus - (d.gpus_used if d.feasible else 0)
    if unused > 0:
        fig.add_bar(
            x=[unused],
            y=y,
            orientation="h",
            name=tr("pl_pool_unused"),
            marker_color=POOL_COLOURS["unused"],
            text=[
                tr("pl_pool_unused_text", n=unused)
                if d.feasible
                else tr(_one(f"pl_pool_none_{d.limited_by}", unused, tr), n=unused)
            ],
            textposition="inside",
            insidetextanchor="middle",
            hovertemplate=tr("pl_hover_unused") + "<extra></extra>",
        )
    style(fig, tr(_one("pl_layout_title", d.max_gpus, tr), n=d.max_gpus), tr("pl_axis_gpus"), "")
    if d.feasible:  # the answer on the chart itself: an embedded or exported chart has no tiles beside it (a review)
        result = tr("pl_layout_result", tps=fmt.rate(d.tokens_per_s_per_gpu), tpot=fmt.ms(d.tpot_s, tr=tr),
                    ttft=fmt.duration(d.ttft_s, tr=tr))  # fmt: skip
        fig.add_annotation(x=0, y=1, xref="paper", yref="paper", xanchor="left", yanchor="bottom", showarrow=False,
                           text=result, font={"size": 12})  # fmt: skip
    place = legend_placement(fig, 260, side_max=0)  # below the bar, as the page's other charts (it sat top-right)
    place["legend"]["traceorder"] = "normal"
    fig.update_layout(barmode="stack", yaxis={"showticklabels": False}, **place)
    fig.update_xaxes(range=[0, d.max_gpus])
    return fig


def _one(key: str, n: int, tr: Translator) -> str:
    """`key`'s one-device variant ('… on 1 GPU') where n is 1 and ui/strings has one; `key` otherwise."""
    return f"{key}_one" if n == 1 and tr.has(f"{key}_one") else key


def layout_table(
    d: Deployment,
    *,
    serving_searched: str,
    usable_bytes: Callable[[Pool | None], float],
    usable_basis: str,
    usable_of_free: bool = False,
    parts: StepParts | None = None,
) -> pd.DataFrame:
    """What the search chose, one row per pool (none: one row with pool 'none'), with the inputs (budget, serving
    mode searched, targets) and the deployment's numbers on every row; display units in the column names; the decode
    pool's row with its step's parts (layouts.decode_parts: ms, communication share, the link crossed). usable_bytes:
    a pool's usable memory per GPU (layouts.pool_usable_bytes); usable_of_free: the engine's usable fraction is of the
    memory the weights and workspace leave free (UsableMemory.of_free)."""
    pools = _pools(d) or [("none", None)]
    ms = 1e3
    rows = []
    for kind, pool in pools:
        par = pool_parallelism(pool) if pool else {"tp": None, "ep": None, "dp": None, "pp": None}
        rows.append(
            {
                "max_gpus": d.max_gpus,
                "serving_searched": serving_searched,
                "tpot_target_ms": d.tpot_target_s * ms,
                "ttft_target_ms": None if d.ttft_target_s is None else d.ttft_target_s * ms,
                "feasible": d.feasible,
                "serving": d.serving or None,
                "engine": d.engine if d.feasible else None,  # the profile id it was timed under
                "gpus_used": d.gpus_used,
                "pool": kind,
                "instances": pool.instances if pool else None,
                "gpus_each": pool.gpus_each if pool else None,
                "pool_gpus": pool.gpus if pool else None,
                "parallelism": pool.parallelism if pool else None,
                "tp": par["tp"],
                "ep": par["ep"],
                "dp": par["dp"],
                "pp": par["pp"],
                "layout": pool.label if pool else None,
                "batch_per_instance": pool.batch if pool else None,
                # in flight at the rate served (fewer than the batch where the prefill pool sets the rate)
                "decode_seqs_per_gpu": d.decode_sequences_per_gpu if d.feasible and kind != "prefill" else None,
                "tpot_ms": d.tpot_s * ms,
                "ttft_ms": d.ttft_s * ms,
                "tokens_per_s_per_user": d.tokens_per_s_per_user,
                "tokens_per_s_per_gpu": d.tokens_per_s_per_gpu,
                "output_tokens_per_s_per_gpu": d.output_tokens_per_s_per_gpu,
                "usd_per_1M_tokens_in_out": d.usd_per_1M_tokens,  # InferenceX's basis, as the page's tile
                "usd_per_1M_output_tokens": d.usd_per_1M_output_tokens,
                "kv_transfer_ms": d.kv_transfer_s * ms if d.serving == "disaggregated" else None,
                "limited_by": d.limited_by,
                "rate_set_by": d.rate_set_by or None,
                "usable_memory_per_gpu_GB": usable_bytes(pool) / 1e9,
                "usable_memory_basis": usable_basis,
                "usable_memory_fraction_of": "free" if usable_of_free else "all",  # as the CLI's JSON says it
                **{
                    f"step_{b}_ms": v * ms if parts and kind != "prefill" else None
                    for b, v in (parts.parts_s if parts else dict.fromkeys(BUCKETS, 0.0)).items()
                },
                "step_communication_share": parts.communication_share if parts and kind != "prefill" else None,
                "collective_link": (parts.link or None) if parts and kind != "prefill" else None,
            }  # fmt: skip
        )
    return pd.DataFrame(rows)


def _part_time(bucket: str, seconds: float, parts: StepParts, hw, tr: Translator) -> str:
    """A part's time ('41.6 ms', its unit kept on its line), or, at exactly 0 ms, why: it runs under the step's other
    reads or math ('KV-cache read overlapped by compute', not '0 ms'), or one GPU exchanges nothing."""
    if seconds > 0 or bucket == "overhead":
        return fmt.unbroken(fmt.ms(seconds, tr=tr))
    if bucket == "communication":
        return fmt.device_text("zero_one_gpu", hw, tr) if not parts.link else fmt.unbroken(fmt.ms(seconds, tr=tr))
    return tr("zero_memory_bound" if bucket == "compute" else "zero_compute_bound")


def _part_item(name: str, value: str) -> str:
    """'Compute 0.955 ms'; in Chinese a phrase joins its part without a space ('KV 快取讀取與運算重疊')."""
    cjk = bool(value) and "\u4e00" <= value[0] <= "\u9fff"
    return f"{name}{'' if cjk else ' '}{value}"


def layout_parts_text(d: Deployment, parts: StepParts, hw, *, tr: Translator = EN) -> str:
    """One decode instance's step, part by part, then its total, with communication's share and the link it crosses;
    where the pool correction or MTP changes it, the TPOT the search reports; and where the prefill pool sets the
    request rate, how many sequences an instance holds on average of the batch it has room for. Each number keeps its unit on its
    line (a 900 px frame had broken '41.6 ms' after the number)."""
    total = sum(parts.parts_s.values())
    items = tr.join([_part_item(tr(f"bucket_{b}"), _part_time(b, v, parts, hw, tr)) for b, v in parts.parts_s.items()])
    # the links the model costs them on: the catalog's, or the defaults it assumes where it lists none (the scale-up
    # link said to be assumed; an unlisted link had read 'nan Gb/s')
    link = fmt.device_text(f"pl_link_{parts.link or 'none'}", hw, tr, domain=scale_up_domain_gpus(hw),
                           up=fmt.unbroken(fmt.gb_per_s(link_peak_bytes_per_s(hw))),
                           assumed="" if hw.interconnect_bytes_per_s else tr("pl_link_assumed"),
                           out=f"{scale_out_peak_bytes_per_s(hw) / Gbit_per_s:,.0f}")  # fmt: skip
    tail = (
        tr("pl_layout_parts_tail", tpot=fmt.unbroken(fmt.ms(d.tpot_s, tr=tr)))
        if abs(d.tpot_s / total - 1) > 0.005
        else ""
    )
    if parts.parts_s["compute"] > 0:  # the weight read reads low beside it (0.4 ms for 35 GB a GPU): say why
        tail += tr("pl_layout_parts_bound")
    in_flight = d.decode_sequences_per_gpu * d.decode.gpus_each  # per instance, at the rate the deployment serves
    if d.serving == "disaggregated" and in_flight < d.decode.batch * 0.99:  # the prefill pool sets the rate
        tail += fmt.device_text("pl_layout_parts_in_flight", hw, tr, n=fmt.integer(round(in_flight)),
                                per_gpu=f"{d.decode_sequences_per_gpu:,.1f}", batch=fmt.integer(d.decode.batch))  # fmt: skip
    return tr("pl_layout_parts", pool=d.decode.layout_name, batch=fmt.integer(d.decode.batch),
              items=items, total=fmt.unbroken(fmt.ms(total, tr=tr)), share=fmt.pct(parts.communication_share, 0), link=link,
              tail=tail)  # fmt: skip


def layout_display_table(d: Deployment, *, tr: Translator = EN) -> pd.DataFrame:
    """The chosen pools as shown on the page, as text for a static table that wraps in a narrow frame (a scrolled
    grid had hidden the batch at 900 px): translated headers, per-instance parallel degrees, GPUs and batch, numbers
    with thousands grouped (11,094, not 11094)."""
    rows = []
    for kind, pool in _pools(d):
        par = pool_parallelism(pool)
        rows.append(
            {
                tr("pl_col_pool"): tr(f"pl_pool_{kind}"),
                tr("pl_col_layout"): pool.label,
                tr("pl_col_gpus"): fmt.integer(pool.gpus),
                **{name.upper(): fmt.integer(par[name]) for name in ("tp", "ep", "dp", "pp")},
                tr("pl_col_instance_batch"): fmt.integer(pool.batch),
            }
        )
    return pd.DataFrame(rows)
