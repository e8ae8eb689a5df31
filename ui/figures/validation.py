"""Validation figures and tables: the model against published decode measurements.

Pure: the frame of ``tpot_model.calibration.validation_table`` (one row per measurement: measured value, the
leave-one-hardware-out (LOHO) prediction, the in-sample fit, the pure-roofline prediction, their errors), catalog
objects and profiles in; plotly figures, pandas DataFrames and display strings out. Errors are predicted / measured - 1
in the row's published metric; summaries are |error| medians and 90th percentiles (fitting.ErrorSummary).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from tpot_model import EfficiencyProfile, Hardware, ModelSpec, load_hardware_catalog, parse_format
from tpot_model.calibration import TARGET_MEDIAN, TARGET_P90
from tpot_model.engines import PROFILE_ORDER
from tpot_model.fitting import ErrorSummary

from .. import fmt
from ..i18n import EN, Translator
from .common import Figure, hardware_colour, legend_placement, log_tick_values, tick_label

METRICS = ("tokens_per_s", "tpot_ms")  # what the scatter plots: the row's tokens/s, or TPOT in ms
BAND = 0.25  # the shaded band: predicted within +-25% of measured
ENGINE_SYMBOLS = {"llama.cpp": "circle", "gpt-fast": "square", "exllamav2": "diamond", "tensorrt-llm": "triangle-up"}
_SPARE_SYMBOLS = ("pentagon", "hexagon", "star", "triangle-down", "cross", "x")
IDEAL_COLOUR = "#8c8c8c"
BAND_COLOUR = "rgba(31, 119, 180, 0.10)"
_RIGHT_LEGEND = {
    "orientation": "v",
    "x": 1.02,
    "xanchor": "left",
    "y": 1.0,
    "yanchor": "top",
    "groupclick": "toggleitem",
}

# metric -> (value in tokens/s, value as TPOT in ms), from the row's value v and batch b; None = not convertible
_RATE = {
    "decode_tokens_per_s_per_user": lambda v, b: v,
    "aggregate_decode_tokens_per_s": lambda v, b: v,
    "output_throughput_tokens_per_s": lambda v, b: v,
    "output_throughput_tokens_per_s_per_gpu": lambda v, b: v,
    "tpot_ms": lambda v, b: 1e3 / v,
}
_TPOT_MS = {
    "decode_tokens_per_s_per_user": lambda v, b: 1e3 / v,
    "aggregate_decode_tokens_per_s": lambda v, b: 1e3 * b / v,
    "tpot_ms": lambda v, b: v,
}
_CONVERT = {"tokens_per_s": _RATE, "tpot_ms": _TPOT_MS}
_SIXTEEN_BIT = ("fp16", "bf16", "16")
# a source citation's distinctive part -> the key of its note (what to know before trusting it)
SOURCE_NOTES = {
    "XiongjieDai": "val_src_xiongjie",
    "gpt-fast": "val_src_gptfast",
    "exllamav2": "val_src_exllamav2",
    "performance.md": "val_src_trt",
    "H200launch": "val_src_trt_h200",
    "Pope et al": "val_src_palm",
    "jetstream": "val_src_jetstream",
    "ggml-org/llama.cpp/pull": "val_src_llamacpp_pr",
    "benches/dgx-spark.md": "val_src_llamacpp_spark",
    "llm-tracker.info-vault": "val_src_llmtracker",
}


# --------------------------------------------------------------------------------------------------- rows


def engine_order(profiles: Sequence[str]) -> list[str]:
    """Engine profile ids in profiles.yaml order, unknown ones after (alphabetical), rows without a profile last."""
    known = [p for p in PROFILE_ORDER if p in profiles]
    return known + sorted(p for p in set(profiles) - set(known) if p) + ([""] if "" in profiles else [])


def engine_symbol(profile: str) -> str:
    if profile in ENGINE_SYMBOLS:
        return ENGINE_SYMBOLS[profile]
    return _SPARE_SYMBOLS[sum(map(ord, profile)) % len(_SPARE_SYMBOLS)]


def engines(table: pd.DataFrame) -> list[str]:
    """The engine choices: every profile id in the table ('' = rows without an engine profile, never predicted)."""
    return engine_order(list(table["profile"].unique()))


def engine_label(profile: str, table: pd.DataFrame, tr: Translator = EN) -> str:
    if not profile:
        return tr("val_engine_none")
    names = table.loc[table["profile"] == profile, "engine_name"]
    return str(names.iloc[0]) if len(names) else profile


def select_rows(table: pd.DataFrame, chosen: Sequence[str], include_all: bool) -> pd.DataFrame:
    """The rows of the chosen engines: the headline set (batch 1, one device), or every row when include_all."""
    mask = table["profile"].isin(list(chosen))
    if not include_all:
        mask &= table["headline"].astype(bool)
    return table[mask]


def predicted(table: pd.DataFrame) -> pd.Series:
    """Mask of the rows with a LOHO prediction."""
    return np.isfinite(table["predicted_loho"].astype(float))


# --------------------------------------------------------------------------------------------------- summaries


def summary(errors: pd.Series | np.ndarray) -> ErrorSummary:
    """|error| count, median and p90 of the finite errors (fitting.ErrorSummary, as cross_validate reports it)."""
    e = np.asarray(errors, dtype=float)
    return ErrorSummary.of(e[np.isfinite(e)])


def headline_summaries(table: pd.DataFrame) -> dict[str, ErrorSummary]:
    """Over the headline rows: 'loho' (leave one hardware out), 'lofo' (leave one chip family out), 'fitted'
    (in-sample), 'ideal' (pure roofline)."""
    head = table[table["headline"].astype(bool)]
    return {k: summary(head[f"error_{k}"]) for k in ("loho", "lofo", "fitted", "ideal") if f"error_{k}" in head}


@dataclass(frozen=True)
class Card:
    """One headline metric: label, value, a delta line (goal met or not) and its colour, a description, help."""

    label: str
    value: str
    delta: str
    colour: str
    description: str | None
    help: str


def headline_cards(table: pd.DataFrame, tr: Translator = EN) -> list[Card]:
    """LOHO median and p90 |error| against the goals, and the same for the pure roofline (what calibration buys)."""
    s = headline_summaries(table)
    loho, ideal = s["loho"], s["ideal"]
    cards = []
    for stat, goal in (("median", TARGET_MEDIAN), ("p90", TARGET_P90)):
        value = getattr(loho, stat)
        met = value <= goal
        cards.append(
            Card(
                tr(f"val_m_loho_{stat}"),
                fmt.pct(value),
                tr("val_goal_met" if met else "val_goal_missed"),
                "green" if met else "red",
                tr("val_goal", goal=f"{goal:.0%}"),
                tr(f"val_m_loho_{stat}_help", n=loho.n),
            )
        )
    for stat in ("median", "p90"):
        value, calibrated = getattr(ideal, stat), getattr(loho, stat)
        cards.append(
            Card(
                tr(f"val_m_ideal_{stat}"),
                fmt.pct(value),
                tr("val_times_calibrated", x=f"{value / calibrated:.1f}"),
                "gray",
                None,
                tr(f"val_m_ideal_{stat}_help", n=ideal.n),
            )
        )
    return cards


def headline_counts(table: pd.DataFrame) -> dict[str, int]:
    """Rows in the table, predicted, headline; devices and engines in the headline set."""
    head = table[table["headline"].astype(bool)]
    return {
        "rows": len(table),
        "predicted": int(predicted(table).sum()),
        "headline": len(head),
        "devices": head["device"].nunique(),
        "engines": head["profile"].nunique(),
    }


def engine_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per engine profile: |error| median and p90 over its headline rows (LOHO, in-sample, pure roofline) and LOHO
    over all its predicted rows (multi-GPU and static batch included)."""
    out = []
    for pid in engine_order([p for p in table["profile"].unique() if p]):
        own = table[table["profile"] == pid]
        head = own[own["headline"].astype(bool)]
        loho, fitted, ideal = (summary(head[f"error_{k}"]) for k in ("loho", "fitted", "ideal"))
        every = summary(own["error_loho"])
        if every.n == 0:
            continue
        out.append(
            {
                "profile": pid,
                "engine": str(own["engine_name"].iloc[0]),
                "headline_rows": loho.n,
                "headline_devices": head["device"].nunique(),
                "loho_median": loho.median,
                "loho_p90": loho.p90,
                "fitted_median": fitted.median,
                "ideal_median": ideal.median,
                "ideal_p90": ideal.p90,
                "predicted_rows": every.n,
                "loho_median_all": every.median,
                "loho_p90_all": every.p90,
            }
        )
    out.sort(key=lambda r: r["headline_rows"] == 0)  # engines checked only (no headline rows) last
    return pd.DataFrame(out)


def engine_summary_display(summary_df: pd.DataFrame, tr: Translator = EN) -> pd.DataFrame:
    """engine_summary with translated headers; each median / p90 pair as one text cell."""

    def pair(median: str, p90: str) -> list[str]:
        return [
            f"{fmt.pct(float(a), na='—')} / {fmt.pct(float(b), na='—')}"
            for a, b in zip(summary_df[median], summary_df[p90], strict=True)
        ]

    return pd.DataFrame(
        {
            tr("val_sum_engine"): summary_df["engine"],
            tr("val_sum_headline_rows"): summary_df["headline_rows"],
            tr("val_sum_headline_devices"): summary_df["headline_devices"],
            tr("val_sum_loho"): pair("loho_median", "loho_p90"),
            tr("val_sum_fitted_median"): [fmt.pct(float(v), na="—") for v in summary_df["fitted_median"]],
            tr("val_sum_ideal"): pair("ideal_median", "ideal_p90"),
            tr("val_sum_predicted_rows"): summary_df["predicted_rows"],
            tr("val_sum_loho_all"): pair("loho_median_all", "loho_p90_all"),
        }
    )


# --------------------------------------------------------------------------------------------------- scatter


def _convert(values: pd.Series, metrics: pd.Series, batch: pd.Series, metric: str) -> np.ndarray:
    table = _CONVERT[metric]
    out = np.full(len(values), np.nan)
    for i, (v, m, b) in enumerate(zip(values.astype(float), metrics, batch.astype(float), strict=True)):
        if m in table and math.isfinite(v) and v > 0:
            out[i] = table[m](v, b)
    return out


def scatter_data(rows: pd.DataFrame, metric: str) -> pd.DataFrame:
    """The scatter's points: rows with a LOHO prediction whose metric converts to the chosen one (tokens/s: the row's
    own rate; tpot_ms: per-token latency, so static-batch throughput rows, which include prefill, drop out)."""
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {METRICS}, got {metric!r}")
    rows = rows[predicted(rows)]
    measured = _convert(rows["measured"], rows["metric"], rows["batch"], metric)
    loho = _convert(rows["predicted_loho"], rows["metric"], rows["batch"], metric)
    ideal = _convert(rows["predicted_ideal"], rows["metric"], rows["batch"], metric)
    keep = np.isfinite(measured) & np.isfinite(loho)
    units = rows["unit"].where(rows["metric"] != "tpot_ms", "tokens/s") if metric == "tokens_per_s" else "ms"
    out = pd.DataFrame(
        {
            "id": rows["id"],
            "model": rows["model"],
            "hardware_id": rows["hardware_id"],
            "hardware_name": rows["hardware_name"],
            "hardware_as_published": rows["hardware"],
            "device": rows["device"],  # the physical device: the unit left out, one legend entry each
            "profile": rows["profile"],
            "engine": rows["engine_name"],
            "category": rows["category"],
            "headline": rows["headline"].astype(bool),
            "weights": rows["weights"],
            "kv_cache": rows["kv_cache"],
            "batch": rows["batch"],
            "context_tokens": rows["context_tokens"],
            "output_tokens": rows["output_tokens"],
            "num_gpus": rows["num_gpus"],
            "parallelism": rows["parallelism"],
            "unit": units,
            f"measured_{metric}": measured,
            f"predicted_loho_{metric}": loho,
            f"predicted_ideal_{metric}": ideal,
            "error_loho": loho / measured - 1.0,
            "error_ideal": ideal / measured - 1.0,
            "source_url": rows["source_url"],
        }
    )
    return out[keep].reset_index(drop=True)


def _hover(points: Sequence[dict], metric: str, which: str, tr: Translator) -> list[str]:
    key = "val_hover" if which == "loho" else "val_hover_ideal"
    how = {p: tr(f"val_par_{p}") for p in {r["parallelism"] for r in points}}
    out = []
    for r in points:
        gpus = "" if r["num_gpus"] <= 1 else tr("val_hover_gpus", n=r["num_gpus"], how=how[r["parallelism"]])
        out.append(
            tr(
                key,
                model=r["model"],
                hw=r["hardware_as_published"],
                engine=r["engine"],
                weights=weights_text(r["weights"], tr),  # "4.90 bits", not a bare "4.90"
                kv=r["kv_cache"],
                batch=f"{r['batch']:g}",
                context=f"{r['context_tokens']:,.0f}",
                output=f"{r['output_tokens']:,.0f}",
                gpus=gpus,
                measured=fmt.number(r[f"measured_{metric}"]),
                predicted=fmt.number(r[f"predicted_{which}_{metric}"]),
                unit=unit_text(r["unit"], tr),
                error=fmt.pct(r[f"error_{which}"], signed=True),
                source=r["source_url"] or "—",
            )
        )
    return out


def unit_text(unit: str, tr: Translator) -> str:
    """A measurement's unit (the data files', in English) in the page's language: zh-TW writes 'tokens/s' as 'tok/s',
    as its axes do (its hover had read 實測 131 tokens/s)."""
    return str(unit).replace("tokens/s", tr("val_unit_tokens_s"))


def _symbols(points: Sequence[dict], *, open_all: bool = False) -> list[str]:
    return [engine_symbol(r["profile"]) + ("-open" if open_all or not r["headline"] else "") for r in points]


def axis_titles(metric: str, tr: Translator = EN) -> tuple[str, str]:
    return tr(f"val_axis_measured_{metric}"), tr(f"val_axis_predicted_{metric}")


def scatter(points: pd.DataFrame, metric: str, *, tr: Translator = EN) -> go.Figure:
    """Log-log predicted (LOHO; colour = hardware, marker = engine, open = not batch-1 single-device) against measured,
    with the pure-roofline predictions as a fainter series, the y = x line and the +-25% band. Built as one dict
    (per-trace add_scatter calls cost milliseconds each in Plotly's validation)."""
    m, p, i = f"measured_{metric}", f"predicted_loho_{metric}", f"predicted_ideal_{metric}"
    records = points.to_dict("records")
    values = np.array([r[k] for r in records for k in (m, p, i)], dtype=float)
    values = values[np.isfinite(values) & (values > 0)]
    lo, hi = (float(values.min()) / 1.5, float(values.max()) * 1.5) if values.size else (1.0, 1000.0)
    traces: list[dict] = [
        {"type": "scatter", "x": [lo, hi, hi, lo, lo],
         "y": [lo * (1 - BAND), hi * (1 - BAND), hi * (1 + BAND), lo * (1 + BAND), lo * (1 - BAND)],
         "fill": "toself", "fillcolor": BAND_COLOUR, "mode": "lines", "line": {"width": 0}, "hoverinfo": "skip",
         "name": tr("val_band", pct=f"{BAND:.0%}"), "legendgroup": "guide",
         "legendgrouptitle": {"text": tr("val_leg_guides")}},
        {"type": "scatter", "x": [lo, hi], "y": [lo, hi], "mode": "lines", "hoverinfo": "skip",
         "line": {"color": "#444", "dash": "dash", "width": 1}, "name": tr("val_identity"), "legendgroup": "guide"},
    ]  # fmt: skip
    if records:
        traces.append(
            {"type": "scatter", "x": [r[m] for r in records], "y": [r[i] for r in records], "mode": "markers",
             "name": tr("val_ideal_series"), "legendgroup": "ideal", "legendgrouptitle": {"text": tr("val_leg_ideal")},
             "marker": {"symbol": _symbols(records, open_all=True), "color": IDEAL_COLOUR, "size": 7, "opacity": 0.6},
             "text": _hover(records, metric, "ideal", tr), "hovertemplate": "%{text}<extra></extra>"}
        )  # fmt: skip
    # one legend entry per physical device, the unit the page counts and leaves out (an RTX 3090 Ti, modelled on the
    # RTX 3090's entry, had shared its entry: 11 entries under '12 devices'); a device alone on its catalog entry is
    # shown as that entry, a second one by its published name in a colour of its own
    by_device: dict[str, list[dict]] = {}
    for r in records:
        by_device.setdefault(str(r.get("device") or r["hardware_id"]), []).append(r)
    entry = {d: str(g[0]["hardware_id"]) for d, g in by_device.items()}
    shared = {d for d in by_device if d != entry[d] and sum(e == entry[d] for e in entry.values()) > 1}
    # the legend's chips by their short names ('RTX PRO 6000 Server'): the full ones took half a 900 px frame's width
    catalog = load_hardware_catalog()
    full = {d: str(g[0]["hardware_as_published" if d in shared else "hardware_name"]) for d, g in by_device.items()}
    full |= {d: re.sub(r"^(NVIDIA GeForce|NVIDIA|AMD Instinct|AMD|Intel|Apple) ", "", full[d]) for d in shared}
    ids = sorted(by_device, key=lambda d: full[d])
    chips = [None if d in shared else catalog.get(entry[d]) for d in ids]
    names = dict(zip(ids, fmt.chip_names(chips, [full[d] for d in ids]), strict=True))
    for n, device in enumerate(ids):
        g, colour = by_device[device], hardware_colour(device if device in shared else entry[device])
        traces.append(
            {"type": "scatter", "x": [r[m] for r in g], "y": [r[p] for r in g], "mode": "markers",
             "name": names[device], "legendgroup": "hardware",
             **({"legendgrouptitle": {"text": tr("val_leg_hardware")}} if n == 0 else {}),
             "marker": {"symbol": _symbols(g), "color": colour, "size": 10, "line": {"width": 1.5, "color": colour}},
             "text": _hover(g, metric, "loho", tr), "hovertemplate": "%{text}<extra></extra>"}
        )  # fmt: skip
    names = {r["profile"]: r["engine"] for r in records}
    for n, pid in enumerate(engine_order(list(names))):
        traces.append(
            {"type": "scatter", "x": [None], "y": [None], "mode": "markers", "name": str(names[pid]),
             "legendgroup": "engine", **({"legendgrouptitle": {"text": tr("val_leg_engine")}} if n == 0 else {}),
             "marker": {"symbol": engine_symbol(pid), "color": "#555", "size": 9}}
        )  # fmt: skip
    if any(not r["headline"] for r in records):
        traces.append(
            {"type": "scatter", "x": [None], "y": [None], "mode": "markers", "name": tr("val_leg_open"),
             "legendgroup": "engine", "marker": {"symbol": "circle-open", "color": "#555", "size": 9}}
        )  # fmt: skip
    x_title, y_title = axis_titles(metric, tr)
    span = [math.log10(lo), math.log10(hi)]
    ticks = log_tick_values(lo, hi)
    labels = [tick_label(t) for t in ticks]
    axis = {"type": "log", "range": span, "tickvals": ticks, "ticktext": labels}
    return Figure(
        {
            "data": traces,
            "layout": {
                "title": {"text": tr(f"val_scatter_title_{metric}")},
                "xaxis": {**axis, "title": {"text": x_title}},
                "yaxis": {**axis, "title": {"text": y_title}},
                "height": max(620, 150 + 20 * len(traces) + 28 * 4),  # room for the legend (4 group titles)
                "legend": _RIGHT_LEGEND,
                "margin": {"r": 10},
                "hovermode": "closest",
            },
        }
    )


# --------------------------------------------------------------------------------------------------- tables


def _translated(tr: Translator, prefix: str, value: str) -> str:
    key = prefix + value.replace(" ", "_").replace("(", "").replace(")", "").replace("-", "_")
    return tr(key) if tr.has(key) else value


def weights_text(weights: object, tr: Translator) -> str:
    """A row's weight format as read: a name ('fp16') as is, bits per weight (a GGUF file's '4.90') with its unit."""
    try:
        bits = float(weights)
    except (TypeError, ValueError):
        return str(weights)
    return tr("val_weights_bits", bits=f"{bits:.2f}") if math.isfinite(bits) else "—"


def error_table(rows: pd.DataFrame, tr: Translator = EN) -> pd.DataFrame:
    """One row per measurement, translated headers; errors in percent (numbers, so the columns sort)."""
    notes = [(f"{why}. {n}" if why else n) for why, n in zip(rows["excluded_because"], rows["notes"], strict=True)]
    return pd.DataFrame(
        {
            tr("val_col_id"): rows["id"],
            tr("val_col_model"): rows["model"],
            tr("val_col_hardware"): rows["hardware"],
            tr("val_col_engine"): rows["engine_name"],
            tr("val_col_set"): [_translated(tr, "val_cat_", c) for c in rows["category"]],
            tr("val_col_weights"): [weights_text(w, tr) for w in rows["weights"]],
            tr("val_col_metric"): [_translated(tr, "val_metric_", m) for m in rows["metric"]],
            tr("val_col_unit"): [unit_text(u, tr) for u in rows["unit"]],
            tr("val_col_measured"): rows["measured"].astype(float),
            tr("val_col_loho"): rows["predicted_loho"].astype(float),
            tr("val_col_loho_error"): rows["error_loho"].astype(float) * 100,
            tr("val_col_fitted_error"): rows["error_fitted"].astype(float) * 100,
            tr("val_col_ideal"): rows["predicted_ideal"].astype(float),
            tr("val_col_ideal_error"): rows["error_ideal"].astype(float) * 100,
            tr("val_col_trust"): [_translated(tr, "val_trust_", t) for t in rows["trust"]],
            tr("val_col_notes"): notes,
            tr("val_col_mapping"): rows["mapping_notes"],
            tr("val_col_setup"): rows["engine"],
            tr("val_col_url"): rows["source_url"],
        }
    )


def error_data(rows: pd.DataFrame) -> pd.DataFrame:
    """The error table in plain column names (the CSV download); the errors as the fractions they are
    ((predicted - measured) / measured: error_loho_fraction ...), where the page shows percentages."""
    cols = ["id", "model", "model_id", "hardware", "hardware_id", "device", "engine_name", "engine", "profile",
            "category", "headline", "weights", "kv_cache", "batch", "context_tokens", "output_tokens", "num_gpus",
            "parallelism", "metric", "unit", "measured", "predicted_loho", "error_loho", "predicted_fitted",
            "error_fitted", "predicted_ideal", "error_ideal", "trust", "source", "source_url", "excluded_because",
            "notes", "mapping_notes"]  # fmt: skip
    return export_table(rows[cols].reset_index(drop=True))


def export_table(table: pd.DataFrame) -> pd.DataFrame:
    """A table for its CSV: its error columns named as the fractions they hold ((predicted - measured) / measured,
    where the page shows percent): error_loho -> error_loho_fraction, locfo_error -> locfo_error_fraction."""
    errors = [c for c in table.columns if c == "error" or c.startswith("error_") or c.endswith("_error")]
    return table.rename(columns={c: f"{c}_fraction" for c in errors})


@dataclass(frozen=True)
class Source:
    """One cited source: its citation, link, trust level (translated), rows, predicted rows, engines, note key."""

    citation: str
    url: str
    trust: str
    rows: int
    predicted: int
    engines: str
    note_key: str | None


def sources(table: pd.DataFrame, tr: Translator = EN) -> list[Source]:
    """The sources in table order, with what the data holds from each."""
    out = []
    for citation in dict.fromkeys(table["source"]):
        own = table[table["source"] == citation]
        names = [engine_label(p, table, tr) for p in engine_order(list(own["profile"].unique()))]
        note = next((k for needle, k in SOURCE_NOTES.items() if needle.lower() in citation.lower()), None)
        out.append(
            Source(
                citation=citation,
                url=str(own["source_url"].iloc[0]),
                trust=_translated(tr, "val_trust_", str(own["trust"].iloc[0])),
                rows=len(own),
                predicted=int(predicted(own).sum()),
                engines=", ".join(names),
                note_key=note if note and tr.has(note) else None,
            )
        )
    return out


def markdown_safe(text: str) -> str:
    """Data text for st.markdown: a bare $ would start LaTeX, * and _ emphasis, [ ] a link."""
    for ch in "\\$*_[]":
        text = text.replace(ch, "\\" + ch)
    return text


def _linked(citation: str, url: str) -> str:
    """The citation as markdown, its URL (if it contains it) as a link showing the address without the scheme."""
    if url and url in citation:
        before, after = citation.split(url, 1)
        shown = url.split("://", 1)[-1]
        return f"{markdown_safe(before)}[{markdown_safe(shown)}]({url}){markdown_safe(after)}"
    if url:
        return f"{markdown_safe(citation)} ([{markdown_safe(url.split('://', 1)[-1])}]({url}))"
    return markdown_safe(citation)


def source_lines(items: Sequence[Source], tr: Translator = EN) -> list[str]:
    """One markdown bullet per source: citation with its link, trust, rows, engines, and its note when known."""
    out = []
    for s in items:
        line = tr(
            "val_source_line",
            citation=_linked(s.citation, s.url),
            trust=s.trust,
            rows=s.rows,
            predicted=s.predicted,
            engines=markdown_safe(s.engines),
        )
        out.append(f"- {line}" + (f"  \n  {tr(s.note_key)}" if s.note_key else ""))
    return out


# --------------------------------------------------------------------------------------------------- what the data shows


def _x(v: float) -> str:
    return f"{v:.1f}"


def _fitted_engines(table: pd.DataFrame) -> list[str]:
    return engine_order([p for p in table.loc[table["fitted"].astype(bool), "profile"].unique() if p])


def _pairs(rows: pd.DataFrame, keys: Sequence[str], vary: str) -> list[tuple[pd.Series, pd.Series]]:
    """(row with the smallest `vary`, row with the largest) for every group of `keys` where `vary` differs."""
    out = []
    for _, g in rows.groupby(list(keys), sort=True):
        g = g.sort_values(vary, kind="stable")
        if g[vary].iloc[0] != g[vary].iloc[-1]:
            out.append((g.iloc[0], g.iloc[-1]))
    return out


def _overhead(table, profiles, hardware) -> list[tuple[str, dict[str, str]]]:
    fitted = [p for p in _fitted_engines(table) if p in profiles]
    if not fitted or "typical" not in profiles:
        return []
    by_cost = sorted(fitted, key=lambda p: -profiles[p].per_token_overhead_s)
    listing = " · ".join(f"{profiles[p].name} {fmt.ms(profiles[p].per_token_overhead_s)}" for p in by_cost)
    pid = by_cost[0]
    prof = profiles[pid]
    own = table[
        (table["profile"] == pid) & table["headline"].astype(bool) & (table["metric"] == "decode_tokens_per_s_per_user")
    ]
    out = []
    if len(own):
        fastest = own.loc[own["predicted_fitted"].astype(float).idxmax()]
        step = 1.0 / float(fastest["predicted_fitted"])
        out.append(
            (
                "val_find_overhead",
                {
                    "listing": listing,
                    "typical": fmt.ms(profiles["typical"].per_token_overhead_s),
                    "engine": prof.name,
                    "model": str(fastest["model"]),
                    "weights": str(fastest["weights"]),
                    "hw": str(fastest["hardware_name"]),
                    "share": fmt.pct(prof.per_token_overhead_s / step, 0),
                    "step": fmt.ms(step),
                    "ideal_x": _x(1.0 + float(fastest["error_ideal"])),
                },
            )
        )
    limited = [p for p in fitted if math.isfinite(profiles[p].bandwidth_limit_bytes_per_s)]
    for p in limited:
        ids = [h for h in table.loc[table["profile"] == p, "hardware_id"].unique() if h in hardware]
        if not ids:
            continue
        top = max(ids, key=lambda h: hardware[h].memory_bandwidth_bytes_per_s)
        peak = hardware[top].memory_bandwidth_bytes_per_s
        limit = profiles[p].bandwidth_limit_bytes_per_s
        if limit < peak:
            out.append(
                (
                    "val_find_limit",
                    {
                        "engine": profiles[p].name,
                        "limit": fmt.tb_per_s(limit),
                        "hw": hardware[top].name,
                        "peak": fmt.tb_per_s(peak),
                        "share": fmt.pct(limit / peak, 0),
                    },
                )
            )
    return out


def _kv(table, profiles, models) -> list[tuple[str, dict[str, str]]]:
    out = []
    for pid in _fitted_engines(table):
        prof = profiles.get(pid)
        if prof is None or prof.kv_gqa_reread_fraction <= 0:
            continue
        own = table[(table["profile"] == pid) & table["headline"].astype(bool)]
        gqa = [m for m in own["model_id"].value_counts().index if m in models and not models[m].mla
               and models[m].num_heads > models[m].num_kv_heads]  # fmt: skip
        pairs = _pairs(own, ("model_id", "device", "weights"), "output_tokens")
        if not gqa or not pairs:
            continue
        spec = models[gqa[0]]
        row_name = str(own.loc[own["model_id"] == gqa[0], "model"].iloc[0])
        ratio = spec.num_heads / spec.num_kv_heads
        factor = (1.0 + prof.kv_gqa_reread_fraction * (ratio - 1.0)) / prof.kv_bandwidth_efficiency
        slow = [1.0 - b["measured"] / a["measured"] for a, b in pairs]
        ideal = [1.0 - b["predicted_ideal"] / a["predicted_ideal"] for a, b in pairs]
        short = int(pd.Series([a["output_tokens"] for a, _ in pairs]).mode().iloc[0])
        long = int(pd.Series([b["output_tokens"] for _, b in pairs]).mode().iloc[0])
        out.append(
            (
                "val_find_kv",
                {
                    "engine": prof.name,
                    "reread": fmt.pct(prof.kv_gqa_reread_fraction, 0),
                    "kv_eff": fmt.pct(prof.kv_bandwidth_efficiency, 0),
                    "model": row_name,
                    "ratio": f"{ratio:g}",
                    "factor": _x(factor),
                    "short": f"{short:,}",
                    "long": f"{long:,}",
                    "lo": fmt.pct(min(slow), 0),
                    "hi": fmt.pct(max(slow), 0),
                    "ideal_lo": fmt.pct(min(ideal), 0),
                    "ideal_hi": fmt.pct(max(ideal), 0),
                },
            )
        )
    return out


def _scaling_pair(rows: pd.DataFrame, parallelism: str) -> tuple[pd.Series, pd.Series] | None:
    """(one-device row, the row with the most devices) of the same model, weights, device and lengths."""
    rows = rows[predicted(rows)]
    multi = rows[rows["parallelism"] == parallelism]
    single = rows[rows["num_gpus"] == 1]
    keys = ["model_id", "weights", "device", "output_tokens"]
    best = None
    for _, m in multi.sort_values("num_gpus", ascending=False, kind="stable").iterrows():
        match = single[(single[keys] == m[keys]).all(axis=1)]
        if len(match):
            best = (match.iloc[0], m)
            break
    return best


def _parallel(table, profiles, models) -> list[tuple[str, dict[str, str]]]:
    out = []
    for pid in _fitted_engines(table):
        prof = profiles.get(pid)
        own = table[table["profile"] == pid]
        if prof is None:
            continue
        pair = _scaling_pair(own, "tensor")
        if pair is not None and pair[1]["model_id"] in models:
            one, many = pair
            layers = models[many["model_id"]].num_layers
            per_token = 2 * layers * prof.allreduce_latency_s
            tpot = 1.0 / float(many["measured"])
            out.append(
                (
                    "val_find_tp",
                    {
                        "engine": prof.name,
                        "latency": fmt.us(prof.allreduce_latency_s),
                        "model": str(many["model"]),
                        "layers": str(layers),
                        "per_token": fmt.ms(per_token),
                        "share": fmt.pct(per_token / tpot, 0),
                        "tpot": fmt.ms(tpot),
                        "gpus": str(int(many["num_gpus"])),
                        "speedup": _x(many["measured"] / one["measured"]),
                        "ideal_speedup": _x(many["predicted_ideal"] / one["predicted_ideal"]),
                    },
                )
            )
        pair = _scaling_pair(own, "layer-split")
        if pair is not None:
            one, many = pair
            out.append(
                (
                    "val_find_split",
                    {
                        "engine": prof.name,
                        "model": str(many["model"]),
                        "weights": str(many["weights"]),
                        "gpus": str(int(many["num_gpus"])),
                        "hw": str(many["hardware_name"]),
                        "multi": fmt.number(float(many["measured"])),
                        "single": fmt.number(float(one["measured"])),
                        # from the two rows: the extra time per token over the hops a token crosses (the profile's
                        # all-reduce latency, 12 µs, had stood here beside rows that put a hop at 116 µs: a review)
                        "hops": str(int(many["num_gpus"]) - 1),
                        "hop": fmt.us(_hop_s(float(one["measured"]), float(many["measured"]), int(many["num_gpus"]))),
                    },
                )
            )
    return out


def _hop_s(single_tokens_per_s: float, multi_tokens_per_s: float, gpus: int) -> float:
    """Seconds each of a layer split's GPU-to-GPU hops adds to a token: (1/multi - 1/single) / (gpus - 1), from two
    measured single-stream rates (tokens/s) on one GPU and on `gpus`; 0 where the split is no slower."""
    return max(1.0 / multi_tokens_per_s - 1.0 / single_tokens_per_s, 0.0) / max(gpus - 1, 1)


def _weight_only_bits(weights: str) -> float | None:
    """Bits per weight of a weight-only format (stored below 16 bits, multiplied at 16); None otherwise."""
    try:
        f = parse_format(weights)
    except ValueError:
        return None
    return f.bits if f.bits < 16 and f.compute in ("bf16", "fp16") else None


def _dequant(table, profiles) -> list[tuple[str, dict[str, str]]]:
    fitted = [p for p in _fitted_engines(table) if p in profiles]
    if not fitted:
        return []
    listing = " · ".join(f"{profiles[p].name} {fmt.pct(profiles[p].lowbit_bandwidth_efficiency, 0)}" for p in fitted)
    best = None  # the engine with the costliest dequantization that has a 16-bit / weight-only pair
    for pid in sorted(fitted, key=lambda p: profiles[p].lowbit_bandwidth_efficiency):
        own = table[(table["profile"] == pid) & table["headline"].astype(bool)]
        bits = own["weights"].map(_weight_only_bits)
        base = own[own["weights"].isin(_SIXTEEN_BIT)]
        low = own[bits.notna()].assign(_bits=bits[bits.notna()]).sort_values("_bits", ascending=False, kind="stable")
        keys = ["model_id", "device", "output_tokens"]
        for _, b in base.iterrows():
            match = low[(low[keys] == b[keys]).all(axis=1)]
            if len(match):
                best = (pid, b, match.iloc[0])
                break
        if best:
            break
    values = {"listing": listing}
    if best is None:
        return [("val_find_dequant_short", values)]
    pid, b, q = best
    values |= {
        "engine": profiles[pid].name,
        "model": str(b["model"]),
        "hw": str(b["hardware_name"]),
        "base": str(b["weights"]),
        "fmt": str(q["weights"]),
        "speedup": _x(q["measured"] / b["measured"]),
        "ideal_speedup": _x(q["predicted_ideal"] / b["predicted_ideal"]),
        "factor": _x(1.0 / profiles[pid].lowbit_bandwidth_efficiency),
    }
    return [("val_find_dequant", values)]


def findings(
    table: pd.DataFrame,
    profiles: Mapping[str, EfficiencyProfile],
    models: Mapping[str, ModelSpec],
    hardware: Mapping[str, Hardware],
) -> list[tuple[str, dict[str, str]]]:
    """What the data shows, as (string key, its values): every number from the fitted profiles (profiles.yaml) or
    from the measurement rows; nothing typed in. A finding whose rows are missing is left out."""
    return [
        *_overhead(table, profiles, hardware),
        *_kv(table, profiles, models),
        *_parallel(table, profiles, models),
        *_dequant(table, profiles),
    ]


# --------------------------------------------------------------------------------------------------- MLPerf

MLPERF_GROUPS = ("hardware_name", "model", "round", "engine")  # what the MLPerf error chart groups by


def mlperf_summary(frame: pd.DataFrame, group: str, *, percent: bool = False) -> pd.DataFrame:
    """Per group: rows, median and p90 |error| of TPOT in-sample and leave-one-chip-family-out, median signed
    leave-one-chip-family-out error (fractions; percent: in %, for a table shown to one decimal)."""
    scale = 100.0 if percent else 1.0
    out = []
    for key, g in frame.groupby(group, sort=True):
        fit, loc = summary(g["error"]), summary(g["locfo_error"])
        out.append(
            {
                group: key,
                "rows": len(g),
                "median_abs_error": fit.median * scale,
                "locfo_median_abs_error": loc.median * scale,
                "locfo_p90_abs_error": loc.p90 * scale,
                "locfo_median_error": float(np.median(g["locfo_error"])) * scale,
            }
        )
    return pd.DataFrame(out)


MLPERF_SUMMARY_FRACTIONS = ("median_abs_error", "locfo_median_abs_error", "locfo_p90_abs_error", "locfo_median_error")


def mlperf_summary_labels(group: str, *, tr: Translator = EN) -> dict[str, str]:
    """Display headers of mlperf_summary's columns (the CSV keeps the names)."""
    return {group: tr(f"val_mlperf_group_{group}"), "rows": tr("val_mlperf_col_rows")} | {
        c: tr(f"val_mlperf_col_{c}") for c in MLPERF_SUMMARY_FRACTIONS
    }


def mlperf_summary_display(summary: pd.DataFrame, group: str, *, tr: Translator = EN) -> pd.DataFrame:
    """mlperf_summary (percent=True) in words for a static table that wraps in a narrow frame (a scrolled grid had
    hidden its error columns at 900 px): headers in the page's language, errors in % to one decimal."""
    labels = mlperf_summary_labels(group, tr=tr)
    return pd.DataFrame(
        {  # the signed median with its sign and a true minus (+20.0%, −11.1%), as the other pages' signed errors
            labels[c]: [fmt.pct(v / 100, 1, signed=c == "locfo_median_error") for v in summary[c]]
            if c in MLPERF_SUMMARY_FRACTIONS
            else summary[c]
            for c in labels
        }
    )


def mlperf_errors(frame: pd.DataFrame, group: str, *, tr: Translator = EN) -> go.Figure:
    """TPOT error (%) of every MLPerf result, leave-one-chip-family-out, one box of points per group."""
    fig = Figure()
    for key, g in frame.groupby(group, sort=True):
        # chips by their short names (full names, tilted, had taken half the chart); the full name is in the hover
        name = str(g["hardware_short"].iloc[0]) if group == "hardware_name" and "hardware_short" in g else str(key)
        fig.add_trace(
            go.Box(
                y=100 * g["locfo_error"],
                name=name,
                boxpoints="all",
                jitter=0.4,
                pointpos=0,
                marker={"size": 5},
                customdata=np.stack(
                    [g["system"], g["round"], g["measured_tpot_ms"], g["locfo_tpot_ms"], g["model"]], axis=-1
                ),
                hovertemplate=tr("val_mlperf_hover") + "<extra></extra>",
                showlegend=False,
            )
        )
    zero = {"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": 0, "y1": 0}  # the same with or without checks
    fig.update_layout(
        title={"text": tr("val_mlperf_title", group=tr(f"val_mlperf_group_{group}").lower())},
        shapes=[{**zero, "line": {"color": IDEAL_COLOUR, "width": 1}}],
        yaxis={"title": tr("val_mlperf_axis_error"), "ticksuffix": "%", "zeroline": False, "dtick": 25},
        xaxis={"title": tr(f"val_mlperf_group_{group}")},
        height=460,
        margin={"t": 60},
    )
    return fig


# --------------------------------------------------------------------------------------------------- bands

BAND_LEVELS = ("same_family", "other_family", "unmeasured")  # tpot_model.bands.LEVELS, narrowest first


def band_coverage(bands: Mapping) -> pd.DataFrame:
    """How often the 80% band held on its own cross-validation (data/bands.json, written by calibrate): per level and
    overall, held-out residuals n, coverage (fraction inside the band computed without their device), median
    high / low ratio, and the level's TPOT factors. Empty without bands."""
    levels = bands.get("levels", {}) if bands else {}
    rows = [
        {
            "level": level,
            "n": int(levels[level].get("n_own", levels[level].get("n", 0))),  # the level's own residuals
            "coverage": float(levels[level].get("coverage", math.nan)),
            "median_high_low_ratio": float(levels[level].get("median_high_low_ratio", math.nan)),
            "tpot_low_factor": float(levels[level]["tpot_low_factor"]),
            "tpot_high_factor": float(levels[level]["tpot_high_factor"]),
        }
        for level in BAND_LEVELS
        if level in levels
    ]
    overall = bands.get("overall") if bands else None
    if rows and overall:
        rows.append(
            {
                "level": "overall",
                "n": int(overall.get("n", 0)),
                "coverage": float(overall.get("coverage", math.nan)),
                "median_high_low_ratio": float(overall.get("median_high_low_ratio", math.nan)),
                "tpot_low_factor": math.nan,
                "tpot_high_factor": math.nan,
            }
        )
    return pd.DataFrame(rows)


def band_coverage_display(frame: pd.DataFrame, tr: Translator = EN) -> pd.DataFrame:
    """band_coverage in words for st.dataframe: the level named, coverage in %, the TPOT band as 'x0.86-x1.17'."""
    if frame.empty:
        return frame
    band = [
        "" if math.isnan(lo) else f"×{lo:.2f}–×{hi:.2f}"
        for lo, hi in zip(frame["tpot_low_factor"], frame["tpot_high_factor"], strict=True)
    ]
    return pd.DataFrame(
        {
            tr("val_band_col_level"): [tr(f"val_band_level_{v}") for v in frame["level"]],
            tr("val_band_col_n"): frame["n"],
            tr("val_band_col_coverage"): [fmt.pct(v, 0) for v in frame["coverage"]],
            tr("val_band_col_ratio"): [f"{v:.2f}" for v in frame["median_high_low_ratio"]],
            tr("val_band_col_tpot"): band,
        }
    )


# --------------------------------------------------------------------------------------------------- over time


def engine_over_time(table: pd.DataFrame, profile: str = "llama.cpp") -> pd.DataFrame:
    """An engine's measured speed on one chip at different dates: the engine's single-GPU batch-1 headline rows of the
    model measured in more than one year, on chips measured in more than one year (validation table columns plus
    year), oldest first; the committed table's 'predicted_fitted' is the model with the profile as of each run date."""
    rows = table[(table["profile"] == profile) & table["headline"].astype(bool) & table["run_date"].notna()].copy()
    if rows.empty:
        return rows
    rows["year"] = rows["run_date"].astype(str).str[:4]
    models = rows.groupby("model_id")["year"].nunique()
    rows = rows[rows["model_id"].isin(models[models > 1].index)]
    chips = rows.groupby("hardware_id")["year"].nunique()
    rows = rows[rows["hardware_id"].isin(chips[chips > 1].index)]
    return rows.sort_values(["hardware_id", "run_date", "context_tokens"], kind="stable").reset_index(drop=True)


def engine_over_time_display(
    rows: pd.DataFrame, tr: Translator = EN, hardware: Mapping[str, Hardware] | None = None
) -> pd.DataFrame:
    """engine_over_time for st.dataframe: chip (its short name where `hardware` has it: the table fits a 900 px
    frame), date, weights, context, output tokens, measured and modelled tokens/s per user."""
    hardware = hardware or {}
    return pd.DataFrame(
        {
            tr("val_time_col_chip"): [
                fmt.chip(hardware[i], tr, short=True) if i in hardware else name
                for i, name in zip(rows["hardware_id"], rows["hardware_name"], strict=True)
            ],
            tr("val_time_col_date"): rows["run_date"],
            tr("val_time_col_weights"): [weights_text(w, tr) for w in rows["weights"]],
            tr("val_time_col_context"): [fmt.tokens(float(v)) for v in rows["context_tokens"]],
            tr("val_time_col_output"): [fmt.tokens(float(v)) for v in rows["output_tokens"]],
            tr("val_time_col_measured"): rows["measured"].round(1),
            tr("val_time_col_model"): rows["predicted_fitted"].round(1),
        }
    )


def engine_over_time_figure(rows: pd.DataFrame, *, tr: Translator = EN) -> go.Figure:
    """Measured tokens/s per user (batch 1) against run date, one colour per chip (filled markers), beside the model
    with the engine profile as of that date (open markers)."""
    fig = Figure()
    for hw_id, g in rows.groupby("hardware_id", sort=True):
        colour, name = hardware_colour(str(hw_id)), str(g["hardware_name"].iloc[0])
        custom = np.stack([g["weights"].astype(str), [fmt.tokens(float(v)) for v in g["context_tokens"]]], axis=-1)
        for column, key, symbol in (("measured", "val_time_measured", "circle"),
                                    ("predicted_fitted", "val_time_model", "circle-open")):  # fmt: skip
            label = tr(key, chip=name)
            fig.add_scatter(
                x=g["run_date"],
                y=g[column],
                mode="markers",
                name=label,
                marker={"color": colour, "symbol": symbol, "size": 11, "line": {"width": 2, "color": colour}},
                customdata=custom,
                hovertemplate=f"{label}<br>{tr('val_time_hover')}<extra></extra>",
            )
    fig.update_layout(
        title={"text": tr("val_time_title")},
        xaxis={"title": {"text": tr("val_time_axis_date")}, "type": "date"},
        yaxis={"title": {"text": tr("val_time_axis_tps")}, "rangemode": "tozero"},
        margin={"t": 50},
    )
    # the legend under the plot, not on the title, where it was printed, nor at its right, where its chips' names left
    # the dates ~100 px in a 900 px page with the sidebar open
    place = legend_placement(fig, 380, side_max=0)
    fig.update_layout(height=place["height"], legend=place["legend"], margin={"t": 50, **place["margin"]})
    return fig
