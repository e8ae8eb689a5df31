"""What an export says about itself: its scenario (columns of a CSV; the title's second line of a chart), a
"source: ..., date" footnote, file names that carry the scenario, CSV text without 17-digit floats, and a chart as
standalone HTML (one file, plotly.js inline) or as a zip of charts that share one plotly.js. No Streamlit here."""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import math
import re
import zipfile
from collections.abc import Mapping
from html import escape

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from tpot_model.csv_format import float_field
from tpot_model.files import APP_VERSION

from . import fmt
from .figures.common import BOTTOM_MARGIN_PX, LEGEND_ROW_PX, WIDER_KEY, at_width, legend_rows, wrap_parts
from .i18n import Translator

FOOTNOTE_PX = 44  # room below a chart for its footnote, px
EXPORT_WIDTH_PX = 1200  # an exported chart's width (static/plotly_chart.js EXPORT_PX: the PNG / SVG)
SUBTITLE_PX = 22  # room above it for each line of the scenario under the title, px
TITLE_INSET_PX = 14  # an exported chart's title from the image's top and left edges, px
_TITLE_RISE_PX = 15  # plotly draws a multi-line title that far above its 'top' anchor (measured, plotly.js 4.1)
SUBTITLE_CHARS = 130  # characters of the scenario on one line of an exported chart's subtitle (about 1100 px)
DEFAULT_MARGIN = {"t": 100, "b": 80}  # plotly's own, when neither the figure nor its template sets one
PLOTLY_FILE = "plotly.min.js"  # the one plotly.js a zip of charts shares


def slug(text: str) -> str:
    """Lower-case letters, digits, dots and dashes: a chart id or a file-name part."""
    return re.sub(r"[^a-z0-9.]+", "-", str(text).lower()).strip("-.") or "chart"


def scenario_fields(state, est, model_name: str, hardware_name: str, profile_name: str) -> dict[str, object]:
    """The sidebar scenario an export shows, as CSV columns (ids as in the URL and CLI, names in the reader's
    language (the stamp's text_language), numbers in their units); price basis and as-of date from the scenario or
    the estimate when they carry them (`price_basis`, `price_as_of`), else 'catalog' / 'override'."""
    price = getattr(est, "price_usd_per_gpu_hour", None)
    point = getattr(est, "price", None)  # the price the estimate used, with its basis and date, where it says
    basis = getattr(est, "price_basis", None) or getattr(state, "price_basis", None)
    if basis is None:
        basis = "override" if state.price is not None else "catalog"
    as_of = getattr(point, "as_of", None) or getattr(est, "price_as_of", None)
    return {
        "scenario_model": state.model,
        "scenario_model_name": model_name,
        "scenario_hardware": state.hardware,
        "scenario_hardware_name": hardware_name,
        "scenario_gpus": int(state.gpus),
        "scenario_weights": state.weights,
        "scenario_kv_cache": state.kv,
        # the precision the math ran in ('fp8' where the sidebar said 'auto': the CSV had read 'auto' beside the page's
        # fp8), the sidebar's own choice where the export has no estimate of one
        "scenario_compute": str(getattr(est, "compute_precision", None) or state.compute),
        "scenario_batch": int(state.batch),
        "scenario_context_tokens": int(state.context),
        "scenario_output_tokens": int(state.output),
        "scenario_profile": state.profile,
        "scenario_profile_name": profile_name,
        "scenario_price_usd_per_gpu_hour": float(price) if price is not None and np.isfinite(price) else None,
        "scenario_price_basis": basis,
        "scenario_price_as_of": str(as_of) if as_of else None,
    }


def stamp(today: dt.date | None = None, lang: str = "en") -> dict[str, object]:
    """When, by what and in which language an export was made: the date (ISO), the app's version and the language
    of its names and labels (text_language: the reader's; column names, ids and units are English in every file)."""
    return {"exported_on": (today or dt.date.today()).isoformat(), "app_version": APP_VERSION, "text_language": lang}


def caption(about: Mapping[str, object], tr: Translator) -> str:
    """The scenario in one line, for a chart's title: model, GPUs x chip, formats, batch (none for a chart that
    sweeps it: scenario_batch None), context/output, profile, price (each chip's own on a chart of several chips:
    scenario_price_each_chip); then the scenarios it is compared with (scenario_vs: Compare's B and C)."""
    said = price_text(about, tr)
    batch = about.get("scenario_batch")
    text = tr(
        "export_caption" if batch is not None else "export_caption_no_batch",
        model=about["scenario_model_name"],
        device=_device(about, tr),
        weights=about["scenario_weights"],
        kv=about["scenario_kv_cache"],
        batch=fmt.integer(batch) if batch is not None else "",
        context=fmt.tokens(about["scenario_context_tokens"]),
        output=fmt.tokens(about["scenario_output_tokens"]),
        profile=about["scenario_profile_name"],
        price=said,
    )
    text += "".join(f" · {c}" for c in conditions(about, tr))
    return text + (f" · {tr('export_vs', sides=about['scenario_vs'])}" if about.get("scenario_vs") else "")


def conditions(about: Mapping[str, object], tr: Translator) -> list[str]:
    """What else the numbers assume, in words: a latency target (scenario_tpot_target_ms), a demand (scenario_
    output_tokens_per_day, _input_, scenario_peak_to_average, scenario_utilisation), multi-token prediction
    (scenario_mtp_draft_tokens and scenario_mtp_acceptance) and the layout search held to measured recipes
    (scenario_measured_recipes_only)."""
    said = []
    if ms := about.get("scenario_tpot_target_ms"):
        said.append(tr("export_target", target=fmt.target(float(ms) / 1e3, tr)))
    if out := about.get("scenario_output_tokens_per_day"):
        said.append(tr("export_demand", out=fmt.token_count(float(out), tr),
                       inp=fmt.token_count(float(about["scenario_input_tokens_per_day"]), tr),
                       peak=fmt.plain(float(about["scenario_peak_to_average"])),
                       util=fmt.pct(float(about["scenario_utilisation"]), 0)))  # fmt: skip
    if k := about.get("scenario_mtp_draft_tokens"):
        said.append(tr("export_mtp", k=k, a=fmt.pct(float(about["scenario_mtp_acceptance"]), 0)))
    if about.get("scenario_measured_recipes_only"):
        said.append(tr("export_recipes_only"))
    return said


def _device(about: Mapping[str, object], tr: Translator) -> str:
    """'2 × NVIDIA H200'; on a chart of several chips (names joined by ' + ') each chip's count said as such: 'B200,
    H200, 8 each', a GPU budget (scenario_gpus_budget), or chosen per chip (scenario_gpus None)."""
    names, gpus = str(about["scenario_hardware_name"]).split(" + "), about.get("scenario_gpus")
    if len(names) == 1:
        if gpus and about.get("scenario_gpus_budget"):
            return tr("export_device_budget_one", gpus=gpus, hw=names[0])
        return tr("export_device", gpus=gpus, hw=names[0]) if gpus else names[0]
    if not gpus:
        return tr("export_device_chosen", hw=tr.join(names))
    key = "export_device_budget" if about.get("scenario_gpus_budget") else "export_device_each"
    return tr(key, gpus=gpus, hw=tr.join(names))


def price_text(about: Mapping[str, object], tr: Translator) -> str:
    """The $/GPU-hour a scenario's numbers rest on (export_about's scenario_price_* fields), with its basis and date:
    '$6.03/GPU-hour (On-demand cloud, 2026-03-17)'; each chip's own on a chart of several; none published: said."""
    price = about.get("scenario_price_usd_per_gpu_hour")
    if about.get("scenario_price_each_chip"):
        if price is not None and about.get("scenario_price_chip"):  # one's own: the sidebar chip's alone
            return tr("export_price_one_chip", usd=fmt.usd(price), hw=about["scenario_price_chip"],
                      basis=_basis(about, tr))  # fmt: skip
        return tr("export_price_each_chip", basis=_basis(about, tr))
    if price is not None:
        return tr("export_price", usd=fmt.usd(price), basis=_basis(about, tr))
    return tr("export_no_price")


def _basis(about: Mapping[str, object], tr: Translator) -> str:
    """The price basis's name in the reader's language ('basis_<id>' strings), else its id; with its date."""
    basis = str(about["scenario_price_basis"])
    name = tr(f"basis_{basis}") if tr.has(f"basis_{basis}") else basis
    as_of = about.get("scenario_price_as_of")
    return tr("export_basis_dated", basis=name, date=as_of) if as_of else name


def footnote(stamp_: Mapping[str, object], tr: Translator) -> str:
    """'Source: TPOT dashboard 0.1.0 (analytical roofline model, ...), 2026-12-01'."""
    return tr("export_footnote", app=tr("app_name"), version=stamp_["app_version"], date=stamp_["exported_on"])


def file_stem(chart_id: str, about: Mapping[str, object] | None, stamp_: Mapping[str, object]) -> str:
    """chart id, then the scenario (model, GPUs x chip, weights-KV, batch, context, output, profile, TPOT target, MTP
    draft tokens, measured recipes only), or the date for a chart that depends on no scenario:
    roofline_llama-3.1-70b_2xh200_fp8-bf16_b32_ctx4096_out1024_typical."""
    if about is None:
        return f"{chart_id}_{stamp_['exported_on']}"
    parts = (
        about["scenario_model"],
        _device_stem(about),
        f"{about['scenario_weights']}-{about['scenario_kv_cache']}",
        *([f"b{about['scenario_batch']}"] if about.get("scenario_batch") is not None else []),
        f"ctx{about['scenario_context_tokens']}",
        f"out{about['scenario_output_tokens']}",
        about["scenario_profile"],
        *([f"tpot{float(about['scenario_tpot_target_ms']):.4g}ms"] if about.get("scenario_tpot_target_ms") else []),
        *([f"mtp{about['scenario_mtp_draft_tokens']}"] if about.get("scenario_mtp_draft_tokens") else []),
        *(["recipes"] if about.get("scenario_measured_recipes_only") else []),
        *([f"vs-{about['scenario_vs_ids']}"] if about.get("scenario_vs_ids") else []),
    )
    return "_".join([chart_id, *(slug(p) for p in parts)])


STEM_CHIPS_CHARS = 40  # a list of chips in a file name up to this long ('gb200+b200+mi355x+vr200+mi455x': 30)


def chips_stem(chips: str) -> str:
    """Several chips' ids ('b200+h200') for a file name: whole up to STEM_CHIPS_CHARS, else the first, how many more
    and 6 hex digits of the whole list ('h100-sxm+11more+3e5f1a'), so that two lists of as many chips that start
    alike still name two files (the Planner's grid of 12 chips and the sidebar's had put ~110 characters of ids in
    its export's name)."""
    if len(chips) <= STEM_CHIPS_CHARS:
        return chips
    first, *rest = chips.split("+")
    return f"{first}+{len(rest)}more+{hashlib.sha1(chips.encode()).hexdigest()[:6]}"


def _device_stem(about: Mapping[str, object]) -> str:
    """'2xh200', or a GPU budget 'max72xgb200'; several chips: 'b200+h200' (chips_stem) with their GPU budget
    ('max72gpus') or count each ('8each')."""
    hw, gpus = about["scenario_hardware"], about.get("scenario_gpus")
    hw = chips_stem(str(hw)) if "+" in str(hw) else hw
    if not gpus:
        return str(hw)
    if "+" not in str(hw):
        return f"max{gpus}x{hw}" if about.get("scenario_gpus_budget") else f"{gpus}x{hw}"
    return f"{hw}_max{gpus}gpus" if about.get("scenario_gpus_budget") else f"{hw}_{gpus}each"


def wrap_subtitle(text: str, width: int = SUBTITLE_CHARS) -> list[str]:
    """The scenario line in lines of at most `width` character widths, broken at its ' · ' separators (one long
    part stays whole): the rack-scale view's ran off the chart's right edge."""
    return wrap_parts(text, width)


def export_decor(fig: go.Figure, subtitle: str | None, note: str) -> dict:
    """How an exported chart differs from the one on screen: the scenario under its title and the footnote below
    it, with the room for both. {"layout": the layout keys to replace, "annotation": the footnote to append} (ui/
    plotly_chart.js applies the same to its PNG / SVG, apply_decor to the HTML). Of the chart as exported: a chart
    with changes for wider frames (common.for_wider) at the export's width (its legend may stand elsewhere)."""
    if WIDER_KEY in (fig.layout.meta or {}):
        fig = at_width(fig, EXPORT_WIDTH_PX)
    layout = fig.layout
    template_margin = layout.template.layout.margin if layout.template else None

    def margin(side: str) -> int:
        for m in (layout.margin, template_margin):
            if m is not None and m[side] is not None:
                return int(m[side])
        return DEFAULT_MARGIN[side]

    height = layout.height or (layout.template.layout.height if layout.template else None) or 450
    title = layout.title.text if layout.title and layout.title.text else ""
    lines = wrap_subtitle(subtitle) if subtitle else []
    extra_top = SUBTITLE_PX * len(lines)
    if lines:
        sub = "<br>".join(f"<sup>{line}</sup>" for line in lines)
        title = f"{title}<br>{sub}" if title else sub
    # a legend in rows below the plot (legend_placement) sits in the bottom margin: room for it above the footnote
    legend_px = 0
    leg = layout.legend
    if leg is not None and leg.orientation == "h" and leg.y is not None and leg.y < 0:
        entries = sum(1 for t in fig.data if t.showlegend is not False and t.name)
        plot_px = int(height) - margin("t") - margin("b")
        legend_px = max(0, int(-leg.y * plot_px + math.ceil(entries / 3) * LEGEND_ROW_PX + 8 - margin("b")))
    pinned = leg is not None and leg.yref == "container" and leg.yanchor == "bottom" and (leg.y or 0) < 0.5
    base_b = margin("b")
    if pinned:  # a legend pinned to the bottom edge (legend_placement): a bottom margin that holds its rows as the
        # narrowest frame wraps them, so that plotly.js need not grow it and lift the plot, and the footnote placed
        # under the plot, onto the legend (it did where the legend took two rows or more)
        names = [t.name for t in fig.data if t.showlegend is not False and t.name]
        base_b = max(base_b, BOTTOM_MARGIN_PX + int(math.ceil(legend_rows(names) * LEGEND_ROW_PX)))
    top, bottom = margin("t") + extra_top, base_b + legend_px + FOOTNOTE_PX
    total = int(height) + extra_top + legend_px + FOOTNOTE_PX
    lifted = {}
    if pinned:
        # the legend rises above the footnote, which takes the bottom rows; the whole legend is sent, as the PNG path
        # replaces the layout's legend key by this one
        legend = leg.to_plotly_json()
        legend["y"] = ((leg.y or 0) * int(height) + FOOTNOTE_PX) / total
        lifted["legend"] = legend
    return {
        "layout": {
            **lifted,
            # the title block at the image's top-left corner, set in from its edges: placed in the middle of the top
            # margin (plotly's 'auto'), its scenario lines ran down onto labels above the plot (Overview's targets)
            "title": {
                "text": title,
                "x": 0,
                "xref": "container",
                "xanchor": "left",
                "y": 1,
                "yref": "container",
                "yanchor": "top",
                "pad": {"l": TITLE_INSET_PX, "t": TITLE_INSET_PX + _TITLE_RISE_PX},
            },  # fmt: skip
            "margin": {"t": top, "b": bottom},
            "height": total,
        },
        "annotation": {
            "text": note,
            "xref": "paper",
            "yref": "paper",
            "x": 0,
            "y": 0,
            "xanchor": "left",
            "yanchor": "top",
            "yshift": -(bottom - FOOTNOTE_PX // 2 - 6),
            "showarrow": False,
            "align": "left",
            "font": {"size": 10, "color": "#6b7280"},
        },
    }


def apply_decor(fig: go.Figure, decor: Mapping) -> go.Figure:
    """A copy of the figure with export_decor's title, margins, height and footnote, its labels as drawn at the
    export's width (common.at_width: a chart with changes for wider frames, for_wider)."""
    out = at_width(fig, EXPORT_WIDTH_PX)
    out.update_layout(decor["layout"])
    out.add_annotation(decor["annotation"])
    return out


def _column_text(col: pd.Series) -> pd.Series:
    """A float column as text with 7 significant digits and no exponent (whole numbers without '.0'; a column of
    whole numbers, FLOPs and bytes, exactly), NaN empty."""
    x = col.to_numpy(dtype=float)
    finite = x[np.isfinite(x)]
    if finite.size and np.all(finite == np.rint(finite)) and np.all(np.abs(finite) < 2.0**53):
        text = ["" if np.isnan(v) else str(int(v)) for v in x]
        return pd.Series(text, index=col.index, name=col.name, dtype=object)
    text = [row.tobytes().replace(b"\0", b"").decode("ascii") for row in float_field(x)]
    return pd.Series(text, index=col.index, name=col.name, dtype=object)


def _cell_text(value: object) -> object:
    """One cell of a mixed column: a float as _column_text writes it (7 significant digits), anything else as is."""
    return _column_text(pd.Series([value]))[0] if isinstance(value, float) else value


def csv_bytes(table: pd.DataFrame, about: Mapping[str, object] | None, stamp_: Mapping[str, object]) -> bytes:
    """The table as UTF-8 CSV with a byte-order mark (spreadsheet programs then read ×, · and Chinese rightly), its
    scenario and stamp as the last columns (the same on every row, so exports of several scenarios stack into one
    sheet): floats with 7 significant digits, in a column of text and numbers too, whole numbers as integers; headers
    without the soft hyphens a page's table breaks them at ('Acti\u00advations (MB)' had to be matched as such)."""
    out = table.rename(columns=lambda c: c.replace("\u00ad", "") if isinstance(c, str) else c)
    for name in out.columns:
        col = out[name]
        if pd.api.types.is_float_dtype(col.dtype):
            out[name] = _column_text(col)
        elif col.dtype == object:  # Compare's headline: text rows (price basis, date) over numbers
            out[name] = col.map(_cell_text)
    for key, value in {**(about or {}), **stamp_}.items():
        if key in out.columns:
            continue
        out[key] = "" if value is None else _cell_text(value)
    return out.to_csv(index=False).encode("utf-8-sig")


def html_page(fig: go.Figure, config: dict, title: str, plotly_js: str | None, locale_js: str | None) -> str:
    """The chart as a whole HTML page with a <title>: plotly.js inline (`plotly_js`, its text) or, when None, loaded
    from a file beside it (PLOTLY_FILE, as in a zip of charts); `locale_js` registers plotly's translations first."""
    body = fig.to_html(include_plotlyjs=False, full_html=False, config=config, div_id="chart")
    script = f"<script>{plotly_js}</script>" if plotly_js is not None else f'<script src="{PLOTLY_FILE}"></script>'
    locale = f"<script>{locale_js}</script>" if locale_js else ""
    return (
        f'<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>{escape(title)}</title>\n'
        f"{locale}{script}\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


def zip_bytes(files: Mapping[str, bytes]) -> bytes:
    """A zip of the given files (name -> content), deflated."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return buf.getvalue()
