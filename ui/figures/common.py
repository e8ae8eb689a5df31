"""Shared figure style: one colour per hardware id everywhere, the layout template, bucket colours."""

from __future__ import annotations

import zlib

import plotly.graph_objects as go

PALETTE = (
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
    "#0b5fff", "#b8860b", "#006d5b", "#a0522d", "#4b0082", "#ff1493",
)  # fmt: skip
FIXED_COLOURS = {
    "h100-sxm": "#76b900", "h200": "#1a7f37", "b200": "#0b5fff", "gb200": "#4b0082", "b300": "#00a3e0",
    "a100-80gb-sxm": "#8fbc8f", "a100-40gb": "#b5d6a7", "mi300x": "#ed1c24", "mi325x": "#c41230",
    "mi355x": "#8b0000", "gaudi3": "#0071c5", "tpu-v5e": "#fbbc04", "tpu-v5p": "#f29900", "tpu-v6e": "#ea8600",
}  # fmt: skip
BUCKET_COLOURS = {
    "weights": "#1f77b4",
    "kv_cache": "#ff7f0e",
    "compute": "#d62728",
    "communication": "#9467bd",
    "overhead": "#7f7f7f",
}


def hardware_colour(hw_id: str) -> str:
    """A stable colour for a hardware id (same in every chart and every process)."""
    return FIXED_COLOURS.get(hw_id) or PALETTE[zlib.crc32(hw_id.encode()) % len(PALETTE)]


def style(
    fig: go.Figure, title: str, x_title: str, y_title: str, *, log_x: bool = False, log_y: bool = False
) -> go.Figure:
    """The house layout: title, axis titles with units, unified font, legend on top, compact margins."""
    fig.update_layout(
        title={"text": title, "x": 0.0, "xanchor": "left"},
        template="plotly_white",
        font={"family": "Inter, Noto Sans TC, Microsoft JhengHei, sans-serif", "size": 13},
        margin={"l": 60, "r": 20, "t": 70, "b": 55},
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.0, "xanchor": "right", "x": 1.0},
        hoverlabel={"namelength": -1},
        height=440,
    )
    fig.update_xaxes(title_text=x_title, type="log" if log_x else None)
    fig.update_yaxes(title_text=y_title, type="log" if log_y else None)
    return fig
