"""Compare figures: scenarios side by side (headline numbers with deltas, TPOT decomposition, TPOT against batch);
the URL form of the page's extra scenarios (B, C) is in ui.page_state.

Pure: ScenarioState / Estimate objects in, plotly figures, pandas DataFrames and Stylers out; no Streamlit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from tpot_model import BUCKETS, Estimate
from tpot_model.units import GB

from .. import export, fmt
from ..i18n import EN, Translator
from ..state import (
    BATCH_OPTIONS,
)
from .common import (
    LEGEND_LINE_PX,
    Figure,
    add_band,
    band_label,
    legend_placement,
    split_by_fit,
    style,
    wrap_label,
    wrap_legend,
    y_log_ticks,
)

SAME = "same"  # follow scenario A (model, batch, context, profile)
AUTO = "auto"  # fewest power-of-two GPUs that hold the scenario
BETTER_COLOUR = "#1a7f37"
WORSE_COLOUR = "#c62828"
IF_FITTED_COLOUR = "#8a8a8a"  # a speed or cost of a scenario that does not fit: what it would be, greyed
# A, B, C: one colour each whatever their chips (coloured by hardware, two AMD chips had read dark red and red and
# their 80% bands one pink area); blue, orange and purple stay apart for red-green colour blindness too, and apart
# from the table's better / worse green and red. Symbols tell the scenarios apart without colour.
SCENARIO_COLOURS = ("#1f77b4", "#ff7f0e", "#9467bd")
SYMBOLS = ("circle", "square", "diamond")


def fewest_gpus(est: Estimate, fallback: int) -> int:
    """The smallest GPU count that holds the scenario; `fallback` (A's count) when no count up to 1,024 does."""
    n = float(est.min_gpus)
    return int(n) if math.isfinite(n) else int(fallback)


# --------------------------------------------------------------------------------------------------- headline table


@dataclass(frozen=True)
class _Metric:
    key: str  # string key (label) and CSV name stem
    unit: str  # CSV unit
    value: Callable[[Estimate], float]
    show: Callable[[float], str]
    better: str | None  # "lower", "higher" or None (no judgement)
    needs_fit: bool = True  # a speed or cost: only real if the scenario fits (else greyed, 'if it fitted')


def _in_ms(show: Callable[..., str]) -> Callable[..., str]:
    """A duration in ms shown by `show` (fmt.ms or fmt.duration, which take seconds); `like` (ms): a difference in the
    unit of the values it separates ('+1.27 s' beside '240 s'); `tr`: the unit's language ('23.5 分鐘')."""
    return lambda v, like=None, tr=EN: show(v / 1e3, like=None if like is None else like / 1e3, tr=tr)


METRICS = (
    _Metric("cmp_row_tpot", "ms", lambda e: float(e.tpot_s) * 1e3, _in_ms(fmt.ms), "lower"),
    _Metric("cmp_row_tps_user", "tokens_per_s", lambda e: float(e.tokens_per_s_per_user), fmt.rate, "higher"),
    _Metric("cmp_row_tps_total", "tokens_per_s", lambda e: float(e.tokens_per_s_total), fmt.rate, "higher"),
    _Metric("cmp_row_tps_gpu", "tokens_per_s", lambda e: float(e.tokens_per_s_per_gpu), fmt.rate, "higher"),
    _Metric("cmp_row_ttft", "ms", lambda e: float(e.ttft_per_request_s) * 1e3, _in_ms(fmt.duration), "lower"),
    _Metric("cmp_row_batch_prefill", "ms", lambda e: float(e.batch_prefill_s) * 1e3, _in_ms(fmt.duration), "lower"),
    _Metric("cmp_row_cost", "usd_per_1m_output_tokens", lambda e: float(e.usd_per_1M_tokens), fmt.usd, "lower"),
    # each request's prefill too: a format that decodes cheaper may prefill dearer (AWQ INT4 computes at bf16)
    _Metric(
        "cmp_row_cost_prefill",
        "usd_per_1m_output_tokens",
        lambda e: float(e.usd_per_1M_tokens_with_prefill),
        fmt.usd,
        "lower",
    ),
    _Metric("cmp_row_tokens_per_mw", "tokens_per_s_per_mw", lambda e: float(e.tokens_per_s_per_mw), fmt.rate, "higher"),
    _Metric(
        "cmp_row_energy",
        "j_per_token",
        lambda e: float(e.joules_per_token),
        lambda v: f"{fmt.number(v)} J",  # none without a TDP: _missing_key says so
        "lower",
    ),
    _Metric(
        "cmp_row_memory",
        "gb_per_gpu",
        lambda e: float(e.memory_per_gpu_bytes) / GB,
        lambda v: fmt.memory(v * GB),  # '726 TB' as the does-not-fit notice says it, not '725,715 GB'
        None,
        needs_fit=False,
    ),
    _Metric(
        "cmp_row_fits", "bool", lambda e: float(bool(e.fits)), lambda v: "✓" if v else "✗", "higher", needs_fit=False
    ),
    _Metric("cmp_row_min_gpus", "gpus", lambda e: float(e.min_gpus), fmt.gpus, "lower", needs_fit=False),
)


def profile_name(profile, tr: Translator = EN) -> str:
    """A profile's display name: translated for the generic profiles (as in the sidebar), the engine's own otherwise."""
    key = f"profile_{profile.id}"
    return tr(key) if tr.has(key) else profile.name


def scenario_label(letter: str, est: Estimate, tr: Translator = EN) -> str:
    """'B · 2 × AMD Instinct MI300X · bf16' (product and format names are not translated), a chip not shipping yet
    marked "(announced)" in the page's language (fmt.chip), so a chart cut out for a memo keeps the mark."""
    return f"{letter} · {int(est.scenario.num_gpus)} × {fmt.chip(est.hardware, tr)} · {est.scenario.weights.name}"


def headline_table(ests: Mapping[str, Estimate]) -> pd.DataFrame:
    """Numbers per scenario (columns A, B, C) and deltas vs A (absolute and %), one row per metric, for the CSV.
    The first rows say what each scenario's $ rests on: its $/GPU-hour (empty when there is no public price), the
    price basis (prices.BASES id or 'custom'), the date of the price and its source, and whether the energy row's
    board power is an estimate (text rows, no deltas)."""
    letters = list(ests)
    a = ests[letters[0]]
    price = _Metric("price", "usd_per_gpu_hour", lambda e: float(e.price_usd_per_gpu_hour), fmt.usd, "lower")
    rows: list[dict[str, object]] = []
    for key, unit, get in (
        ("price_basis", "text", lambda e: e.price.basis),
        ("price_as_of", "date", lambda e: e.price.as_of),
        ("price_source", "text", lambda e: e.price.source),
        # the energy row's board power (TDP) is an estimate, not published (Hardware.estimated)
        ("board_power_estimated", "bool", lambda e: e.hardware.estimated("tdp_W")),
    ):
        row: dict[str, object] = {"metric": key, "unit": unit, "better": ""}
        for x in letters:  # the deltas' columns stay in place, empty
            row |= {x: get(ests[x])} | ({} if x == letters[0] else {f"{x}_minus_A": "", f"{x}_vs_A_pct": ""})
        rows.append(row)
    for m in (price, *METRICS):
        row: dict[str, object] = {"metric": m.key.removeprefix("cmp_row_"), "unit": m.unit, "better": m.better or ""}
        base = m.value(a)
        for x in letters:
            v = m.value(ests[x])
            row[x] = v
            if x != letters[0]:
                row[f"{x}_minus_A"] = v - base
                row[f"{x}_vs_A_pct"] = (v - base) / base * 100 if base else float("nan")
        rows.append(row)
    return pd.DataFrame(rows)


def _missing_key(m: _Metric, est: Estimate) -> str | None:
    """The string key saying why a figure is absent: the chip has no public price under the basis, no published all-in
    power or board power; 'na' for another reason; None when the figure is there."""
    if m.key in ("cmp_row_cost", "cmp_row_cost_prefill") and not math.isfinite(float(est.price_usd_per_gpu_hour)):
        return "no_public_price_short"
    if m.key == "cmp_row_tokens_per_mw" and not math.isfinite(float(est.all_in_w_per_gpu)):
        return "no_public_power_short"
    if m.key == "cmp_row_energy" and est.hardware.tdp_w is None:  # MI455X: no published board power
        return "no_public_tdp_short"
    if m.unit not in ("gpus", "bool") and not math.isfinite(m.value(est)):  # in the reader's language (no GPU count
        return "na"  # and a fit say themselves)
    return None


def _delta_text(m: _Metric, base: float, v: float, tr: Translator, *, percent_only: bool = False) -> str:
    """'+16.3 ms (+75.0%)' (unbreakable: non-breaking spaces), or '+75.0%' alone when percent_only (and A's value is
    not 0); ten times A or more as a multiple ('+28.4 tok/s (32.7×)'), a tenth or less as a fraction
    ('−1,216 ms (1/48.6)'); an em dash where A or this scenario has no
    value (no public price or power: its cell says which)."""
    if not (math.isfinite(base) and math.isfinite(v)):
        return "—"
    if m.unit == "bool":
        return "" if v == base else (tr("cmp_fits_now") if v else tr("cmp_no_longer_fits"))
    d = v - base
    if d == 0:
        return tr("cmp_same")
    times = v / base if base else math.nan  # ten times or more: '33×', not '+3171.9%'; a tenth or less: '1/48.6'
    if math.isfinite(times) and times >= 10:
        pct = f"{fmt.number(times)}×"
    elif math.isfinite(times) and 0 < times <= 0.1:
        pct = f"1/{fmt.number(1 / times)}"
    else:
        pct = f"{'+' if d > 0 else '−'}{abs(d) / abs(base) * 100:.1f}%" if base else ""
    if percent_only and pct:
        return pct
    pct = f" ({pct})" if pct else ""
    if m.unit == "gpus":
        show = fmt.integer
    elif m.unit == "ms":
        like = max(abs(base), abs(v))
        show = lambda x: m.show(x, like=like, tr=tr)  # noqa: E731
    elif m.show is fmt.rate:  # a rate's difference in the prefix of the rates it separates: +68.6 K tok/s
        like = max(abs(base), abs(v))
        show = lambda x: fmt.rate(x, like=like)  # noqa: E731
    else:
        show = m.show
    return fmt.unbroken(fmt.signed(d, show) + pct)  # one line in the table's narrow columns (900 px)


def _judge(m: _Metric, base: float, v: float) -> int:
    """+1 better than A, -1 worse, 0 same or not judged."""
    if m.better is None or not (math.isfinite(base) and math.isfinite(v)) or v == base:
        return 0
    return 1 if (v < base) == (m.better == "lower") else -1


def headline_display(ests: Mapping[str, Estimate], *, tr: Translator = EN):
    """The headline table (st.table, whose cells wrap): the setup of each scenario, then the metrics, deltas vs A coloured
    green (better) / red (worse). Returns a pandas Styler over string cells. With three scenarios the cells are
    compact so that the five columns fit the page (issue 19): short chip names, 'batch · context · output' as numbers,
    the price's basis and date in rows of their own, and deltas as percentages (the CSV keeps the absolute ones)."""
    letters = list(ests)
    a = ests[letters[0]]
    compact = len(letters) > 2
    device = fmt.device_kind([e.hardware for e in ests.values()])  # 'GPUs' rows, or 'Chips' with a TPU / Trainium
    setup = {
        tr("cmp_row_hardware"): lambda e: fmt.chip(e.hardware, tr, short=True) if compact else e.hardware.name,
        fmt.device_text("cmp_row_gpus", device, tr): lambda e: f"{int(e.scenario.num_gpus):,}",
        tr("cmp_row_formats"): lambda e: f"{e.scenario.weights.name} / {e.scenario.kv_cache.name}",
        tr("cmp_row_compute"): lambda e: e.compute_precision,
        tr("cmp_row_model"): lambda e: e.model.name,
        tr("cmp_row_shape_short" if compact else "cmp_row_shape"): lambda e: " · ".join(
            fmt.unbroken(part)  # 'output 1K' on one line: the cell wraps between its parts
            for part in tr(
                "cmp_shape_short" if compact else "cmp_shape",
                batch=int(e.scenario.batch),
                context=fmt.tokens(float(e.scenario.context_tokens)),
                output=fmt.tokens(float(e.scenario.output_tokens)),
            ).split(" · ")
        ),
        tr("cmp_row_profile"): lambda e: profile_name(e.profile, tr),
    }
    if compact:
        setup[fmt.device_text("cmp_row_price", device, tr)] = lambda e: (
            fmt.usd(e.price_usd_per_gpu_hour)
            if math.isfinite(e.price_usd_per_gpu_hour)
            else tr("no_public_price_short")
        )
        setup[tr("cmp_row_price_basis")] = lambda e: tr(f"basis_{e.price.basis}")
        setup[tr("cmp_row_price_as_of")] = lambda e: fmt.date(e.price.as_of)
    else:
        setup[fmt.device_text("cmp_row_price", device, tr)] = lambda e: (
            f"{fmt.usd(e.price_usd_per_gpu_hour)} · {fmt.price_note(e.price, tr, cell=True)}"
            if math.isfinite(e.price_usd_per_gpu_hour)
            else f"{tr('no_public_price_short')} · {fmt.price_note(e.price, tr, cell=True)}"
        )
    delta_col = {x: tr("cmp_delta_col", x=x) for x in letters[1:]}
    columns = [c for x in letters for c in ([x] if x == letters[0] else [x, delta_col[x]])]
    cells: dict[str, dict[str, str]] = {}
    colours: dict[str, dict[str, str]] = {}
    for label, get in setup.items():
        cells[label] = {x: get(ests[x]) for x in letters} | {delta_col[x]: "" for x in letters[1:]}
        colours[label] = dict.fromkeys(columns, "")
    for m in METRICS:
        label = fmt.device_text(m.key, device, tr)
        base = m.value(a)
        # a duration: its unit in tr's words; no GPU count: said in them ('none')
        shown = (lambda v, m=m: m.show(v, tr=tr)) if m.unit in ("ms", "gpus") else m.show
        cells[label] = {x: fmt.unbroken(shown(m.value(ests[x]))) for x in letters}
        for x in letters:  # no figure because nothing public to compute it from: say which, not 'n/a'
            missing = _missing_key(m, ests[x])
            if missing:
                cells[label][x] = tr(missing)
            elif m.key == "cmp_row_energy":  # '0.802 J (estimate)' on Trainium3: its TDP is not published
                cells[label][x] = fmt.estimate(cells[label][x], ests[x].hardware.estimated("tdp_W"), tr)
        colours[label] = dict.fromkeys(columns, "")
        for x in letters:  # what a scenario that does not fit would reach: greyed and marked, as Overview does
            if m.needs_fit and not bool(ests[x].fits) and math.isfinite(m.value(ests[x])):
                cells[label][x] = tr("if_fitted_mark", value=cells[label][x])
                colours[label][x] = f"color: {IF_FITTED_COLOUR}"
        for x in letters[1:]:
            v = m.value(ests[x])
            cells[label][delta_col[x]] = _delta_text(m, base, v, tr, percent_only=compact)
            if m.key == "cmp_row_energy" and math.isfinite(base) and math.isfinite(v):  # either side's TDP estimated
                on_estimate = a.hardware.estimated("tdp_W") or ests[x].hardware.estimated("tdp_W")
                cells[label][delta_col[x]] = fmt.estimate(cells[label][delta_col[x]], on_estimate, tr)
            # against a what-if (A or this scenario does not fit) a difference is a what-if too: greyed, not judged
            what_if = m.needs_fit and not (bool(a.fits) and bool(ests[x].fits))
            judged = 0 if what_if else _judge(m, base, v)
            if what_if and cells[label][delta_col[x]]:
                colours[label][delta_col[x]] = f"color: {IF_FITTED_COLOUR}"
            if judged:
                colour = BETTER_COLOUR if judged > 0 else WORSE_COLOUR
                colours[label][delta_col[x]] = f"color: {colour}; font-weight: 600"
    frame = pd.DataFrame.from_dict(cells, orient="index")[columns]
    # st.table reads its cells as Markdown: '> 1,024' GPUs had shown as a quote of '1,024'
    frame = frame.map(lambda t: "\\" + t if t.startswith(">") else t)
    css = pd.DataFrame.from_dict(colours, orient="index")[columns]
    if not compact:  # the scenarios' columns no wider than a quarter each: the rows' names keep a line each (900 px)
        css[letters] = css[letters].map(lambda c: f"{c}; width: 25%" if c else "width: 25%")
    return frame.style.apply(lambda _: css, axis=None)


# --------------------------------------------------------------------------------------------------- figures


def _styles(ests: Mapping[str, Estimate]) -> dict[str, tuple[str, str]]:
    """(colour, marker symbol) per scenario, by its place (A, B, C: SCENARIO_COLOURS), not its chip: every chart of
    the page, its legend, hover and bands, and the HTML export read one colour per scenario."""
    n = len(SCENARIO_COLOURS)
    return {x: (SCENARIO_COLOURS[i % n], SYMBOLS[i % len(SYMBOLS)]) for i, x in enumerate(ests)}


def scenario_columns(est: Estimate) -> dict[str, object]:
    """What one compared scenario is, as export columns named as the sidebar scenario's (export.scenario_fields):
    on each row of a Compare CSV they state B's and C's own chip, formats, profile and price, not A's."""
    s, price = est.scenario, est.price
    usd = float(est.price_usd_per_gpu_hour)
    return {
        "scenario_model": est.model.id,
        "scenario_hardware": est.hardware.id,
        "scenario_hardware_name": est.hardware.name,
        "scenario_gpus": int(s.num_gpus),
        "scenario_weights": s.weights.name,
        "scenario_kv_cache": s.kv_cache.name,
        "scenario_profile": est.profile.id,
        "scenario_price_usd_per_gpu_hour": usd if math.isfinite(usd) else None,
        "scenario_price_basis": price.basis,
        "scenario_price_as_of": price.as_of,
    }


def compared_about(about: Mapping[str, object], ests: Mapping[str, Estimate], tr: Translator = EN) -> dict:
    """A's export scenario (`about`) with what B and C are (`scenario_vs`, shown in the charts' caption; and
    `scenario_vs_ids` for the file names): a Compare chart named A's scenario alone."""
    others = {x: e for x, e in list(ests.items())[1:]}
    if not others:
        return dict(about)

    def said(x: str, e: Estimate) -> str:  # its price with its basis and date, as A's in the caption
        price = export.price_text(scenario_columns(e), tr)
        return tr("export_vs_side", x=x, gpus=int(e.scenario.num_gpus), hw=fmt.chip(e.hardware, tr, short=True),
                  weights=e.scenario.weights.name, kv=e.scenario.kv_cache.name, price=price)  # fmt: skip

    ids = [f"{int(e.scenario.num_gpus)}x{e.hardware.id}-{e.scenario.weights.name}-{e.scenario.kv_cache.name}"
           for e in others.values()]  # fmt: skip
    return {
        **about,
        "scenario_vs": " · ".join(said(x, e) for x, e in others.items()),
        "scenario_vs_ids": "-vs-".join(ids),
    }


def decomposition_table(ests: Mapping[str, Estimate]) -> pd.DataFrame:
    """Long table: scenario, bucket, time_ms (the buckets of each scenario sum to its TPOT), each row with its
    scenario's chip, formats, profile and price (scenario_columns)."""
    rows = [
        {"scenario": x, "label": scenario_label(x, e), "bucket": b, "time_ms": float(e.breakdown_s[b]) * 1e3}
        | scenario_columns(e)
        for x, e in ests.items()
        for b in BUCKETS
    ]
    return pd.DataFrame(rows)


def _zero_reason(bucket: str, est: Estimate) -> str | None:
    """Why a part of TPOT is exactly 0 ms (a string key), where the model says: compute runs under the memory reads
    of memory-bound operators, reads under the compute of compute-bound ones; one GPU exchanges nothing."""
    if bucket == "compute":
        return "zero_memory_bound"
    if bucket == "weights" or (bucket == "kv_cache" and any(np.any(o.kv_bytes) for o in est.decode.operators)):
        return "zero_compute_bound"
    if bucket == "communication" and int(est.scenario.num_gpus) == 1:
        return "zero_one_gpu"
    return None


def _zero_note(bucket: str, ests: Mapping[str, Estimate], tr: Translator) -> str:
    """Under a part's name: the scenarios at 0 ms for it and why ('A, B: 0 ms<br>overlapped by memory'); '' if none."""
    by_reason: dict[str | None, list[str]] = {}
    for x, e in ests.items():
        if float(e.breakdown_s[bucket]) == 0:
            by_reason.setdefault(_zero_reason(bucket, e), []).append(x)
    lines = [
        tr("cmp_zero_part", who=tr.join(xs))
        + (f"<br>{fmt.device_text(why, [ests[x].hardware for x in xs], tr)}" if why else "")
        for why, xs in by_reason.items()
    ]
    return "<br>".join(lines)


def decomposition(ests: Mapping[str, Estimate], *, tr: Translator = EN) -> go.Figure:
    """Grouped bars: for each part of TPOT (weight read, KV-cache read, compute, communication, overhead), one bar
    per scenario (ms), in the scenario's colour (_styles); a scenario that does not fit faded and named 'if it fitted' (a what-if,
    as its table cells are). A part at exactly 0 ms has no '0' over its bar: its name says which scenarios and why
    (compute overlapped by the memory reads, one GPU exchanging nothing), as does the bar's hover."""
    styles = _styles(ests)
    names = [tr(f"bucket_{b}") for b in BUCKETS]
    fig = Figure()
    for x, e in ests.items():
        colour, _ = styles[x]
        ms = np.array([float(e.breakdown_s[b]) * 1e3 for b in BUCKETS])
        # the TPOT whole when the legend entry wraps ('(TPOT 14.7' / 'ms)' at 900 px in zh-TW)
        name = tr("cmp_trace", label=scenario_label(x, e, tr), tpot=fmt.unbroken(fmt.ms(float(e.tpot_s), tr=tr)))
        fits = bool(e.fits)
        reasons = [_zero_reason(b, e) if v == 0 else None for b, v in zip(BUCKETS, ms, strict=True)]
        fig.add_bar(
            x=names,
            y=ms,
            name=name if fits else fmt.if_fitted_label(name, tr),
            opacity=1.0 if fits else 0.4,
            marker={"color": colour},
            text=[fmt.number(v) if v else "" for v in ms],  # ms, as the axis says: 979,141 rather than 979140.6
            textposition="outside",
            textfont={"size": 10},  # at 12 px two bars' equal labels met at 900 px: '1.711.71'
            textangle=-90 if len(ests) > 2 else 0,  # three bars a part: upright they met at 900 px, '1.711.711.71'
            cliponaxis=False,
            # the part's own name, not %{x}: that reads the axis's tick text, which carries the other scenarios'
            # zero notes ('B: 0 ms, 1 GPU: no collectives' in A's hover beside A's 2.19 ms)
            hovertemplate=[
                f"{scenario_label(x, e, tr)}<br>{part}: %{{y:,.2f}} ms"
                + (f" ({fmt.device_text(r, e.hardware, tr)})" if r else "")
                + "<extra></extra>"
                for part, r in zip(names, reasons, strict=True)
            ],
        )
    style(fig, tr("cmp_decomp_title"), "", tr("cmp_axis_part_ms"))
    notes = [_zero_note(b, ests, tr) for b in BUCKETS]
    # each part's name and note on lines that share a narrow column's width (900 px, sidebar open: the names had
    # run into each other; at 10 widths 'KV 快取讀取' had read 'KV' over '快取讀取'); `lines`: the most lines under the first
    wrapped = [wrap_label(n, 12) for n in names]
    notes = ["<br>".join(wrap_label(line, 12) for line in n.split("<br>")) if n else "" for n in notes]
    lines = max(w.count("<br>") + (n.count("<br>") + 1 if n else 0) for w, n in zip(wrapped, notes, strict=True))
    fig.update_xaxes(
        tickvals=names,
        ticktext=[
            f"{w}<br><span style='font-size:10px;color:#555'>{t}</span>" if t else w
            for w, t in zip(wrapped, notes, strict=True)
        ],
        ticklabelstandoff=6,  # the first part's name had run into the y axis's '0' (900 px)
        tickangle=0,  # level in a narrow column too: turned on end, the names were cut ('Weigh…') and ran into the legend
        tickfont={"size": 11},
    )
    # the legend under the axis, pinned to the figure's bottom, entries wider than a narrow plot on lines (a zh-TW
    # 'A · 8 × NVIDIA H100 SXM5 80GB · fp8（TPOT 37.5 ms）（若放得下）' was cut at 900 px with the sidebar open)
    placed = legend_placement(wrap_legend(fig), 460 + 15 * lines, side_max=0)
    return fig.update_layout(barmode="group", bargap=0.25, **placed)


def sweep_table(sweeps: Mapping[str, Estimate]) -> pd.DataFrame:
    """Long table of the TPOT-vs-batch curves: scenario, batch, tpot_ms, fits, and each scenario's columns."""
    frames = [
        pd.DataFrame(
            {
                "scenario": x,
                "label": scenario_label(x, e),
                "batch": np.broadcast_to(e.scenario.batch, np.shape(e.tpot_s)).ravel(),
                "tpot_ms": np.ravel(e.tpot_s) * 1e3,
                "fits": np.ravel(e.fits),
            }
            | scenario_columns(e)
        )
        for x, e in sweeps.items()
    ]
    return pd.concat(frames, ignore_index=True)


def _grouped_legend_below(fig: go.Figure, plot_px: int = 355, gap_px: int = 80) -> dict:
    """Layout for a legend under the plot, grouped by scenario in the traces' order (plotly.js reverses a legend with
    a filled band by default): sized for every entry on a row of its own (a 900 px frame stacks the groups), in a
    bottom margin of its own, so that plotly's automargin neither shrinks the plot nor lifts the legend onto the
    axis title (legend_placement's rows of three had left it 50 px under the plot, the title reaching 63)."""
    shown = [t for t in fig.data if t.showlegend is not False and t.name]
    lines = sum(t.name.count("<br>") for t in shown)  # an entry's further lines (wrap_legend)
    legend_px = 20 * len(shown) + LEGEND_LINE_PX * lines + 10 * len({t.legendgroup for t in shown})
    top = 70  # the template's
    return {
        "height": top + plot_px + gap_px + legend_px,
        "margin": {"t": top, "b": gap_px + legend_px, "r": 20},
        "legend": {"orientation": "h", "x": 0.0, "xanchor": "left", "y": -gap_px / plot_px, "yanchor": "top",
                   "traceorder": "grouped"},
    }  # fmt: skip


def tpot_vs_batch(sweeps: Mapping[str, Estimate], current: Mapping[str, Estimate], *, tr: Translator = EN) -> go.Figure:
    """TPOT (ms) against batch for each scenario on one chart (log-log), solid where it fits in memory and dashed
    where it does not, its 80% band shaded (none for the ideal profile); each scenario's own batch is marked. The
    legend: A's line, its 'does not fit' and its band, then B's, then C's."""
    styles = _styles(current)
    fig = Figure()
    for x, e in sweeps.items():
        colour, symbol = styles[x]
        label = scenario_label(x, current[x], tr)
        batch = np.broadcast_to(e.scenario.batch, np.shape(e.tpot_s)).ravel()
        y, fits = np.ravel(e.tpot_s) * 1e3, np.ravel(e.fits)
        solid, dashed = split_by_fit(y, fits)
        hover = tr("cmp_hover_sweep", label=label) + "<extra></extra>"
        nofit_hover = tr("cmp_hover_sweep_nofit", label=label) + "<extra></extra>"
        band = band_label(e.band, tr)  # '' for the ideal bound: no band drawn
        add_band(fig, batch, np.ravel(e.tpot_low_s) * 1e3, np.ravel(e.tpot_high_s) * 1e3, colour=colour,
                 name=tr("cmp_band_trace", x=x, band=band) if band else "", legendgroup=x,
                 x_hover=f"{tr('cmp_h_batch')} %{{x}}", hover_value="%{y:,.3~g} ms", tr=tr)  # fmt: skip
        fig.add_scatter(
            x=batch,
            y=solid,
            mode="lines+markers",
            name=label,
            legendgroup=x,
            legendrank=1,  # in its scenario's group: the line, its 'does not fit' dashes, then its band (rank 1000)
            showlegend=bool(np.isfinite(solid).any()),  # no solid key for a scenario that never fits (all dashed)
            line={"color": colour, "width": 2.5},
            marker={"symbol": symbol, "size": 6},
            hovertemplate=hover,
        )
        if np.isfinite(dashed).any():
            fig.add_scatter(
                x=batch,
                y=dashed,
                mode="lines+markers",
                name=tr("cmp_no_fit_trace", x=x),
                legendgroup=x,
                legendrank=2,
                line={"color": colour, "width": 2, "dash": "dash"},
                # the point shared with the solid line fits: its own marker and hover, not the dashed line's
                marker={"symbol": [symbol if f else symbol + "-open" for f in fits], "size": 6},
                hovertemplate=[hover if f else nofit_hover for f in fits],
            )
        c = current[x]
        fig.add_scatter(
            x=[float(c.scenario.batch)],
            y=[float(c.tpot_s) * 1e3],
            mode="markers",
            name=tr("cmp_current", x=x),
            legendgroup=x,
            showlegend=False,
            marker={"symbol": symbol, "size": 15, "color": colour, "line": {"width": 2, "color": "#000"}},
            hovertemplate=tr("cmp_hover_current", label=label) + "<extra></extra>",
        )
    style(fig, tr("cmp_sweep_title"), tr("axis_batch"), tr("axis_tpot_ms"), log_x=True, log_y=True)
    ticks = [b for b in BATCH_OPTIONS if b & (b - 1) == 0]  # powers of two
    fig.update_xaxes(tickvals=ticks, ticktext=[f"{b:,}" for b in ticks])
    fig.update_yaxes(y_log_ticks(fig))
    # below the plot: inside its top-left corner it hid scenario A's curve where A does not fit (TPOT high at every
    # batch); a long band entry on lines (at 900 px the widest band's had been cut at 'this chip unmeasure')
    fig.update_layout(**_grouped_legend_below(wrap_legend(fig)))
    return fig
