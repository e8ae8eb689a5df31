"""Economics page figures and tables (pure): the fleet per chip for a demand, the TCO breakdown, token revenue.
Display units: MW, USD, tokens/s. Tables carry the price basis and its date in every row (CSV downloads)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go
from pandas.io.formats.style import Styler

from tpot_model import load_hardware_catalog
from tpot_model.economics import ApiPrice, Revenue, TcoBreakdown
from tpot_model.fleet import Demand, Fleet

from .. import fmt
from ..i18n import EN, Translator
from .common import Figure, hardware_colour, legend_placement, log_ticks, style, wrap_label


def capacity_table(
    fleets: Sequence[Fleet],
    demand: Demand,
    names: dict[str, str],
    ranges: Mapping[str, tuple[tuple[int, int] | None, str | None]] | None = None,
) -> pd.DataFrame:
    """One row per chip: layout, GPUs, rates, MW, capex, opex, $ per 1M output tokens, basis and date; whether the
    chip is announced, not shipping (its row a projection from vendor figures) in a column of its own, as the CLI's
    capacity --json says it, so that the name stays the catalog's; attrs["layout_shown"]: each row's layout as the
    page's table writes it (capacity_display). `ranges` (a layout search's fleets): per chip id,
    its GPUs at the ends of the measured 80 % range (frontier_check.gpus_range) or None and why (frontier_check.no_range_kind)."""
    catalog = load_hardware_catalog()
    rows = []
    for f in fleets:
        ok = f.feasible
        span, why = (ranges or {}).get(f.hardware, (None, None))
        rows.append(
            {
                "hardware": names.get(f.hardware, f.hardware),
                "hardware_id": f.hardware,
                "hardware_announced": bool(getattr(catalog.get(f.hardware), "announced", False)),
                "gpus_per_replica": f.gpus_per_replica if ok else None,
                # as capacity --json names it: per instance of a TP replica, per decode instance of a searched one
                "decode_batch_per_instance": f.batch if ok else None,
                "replicas": f.replicas if ok else None,
                "gpus": f.gpus if ok else None,
                # the GPUs MW and $ count: the replicas', or costed as bought the whole servers' / racks'
                "costed_gpus": f.costed_gpus if ok else None,
                "whole_domains": f.whole_domains,
                # where 80 % of the measured frontier runs of the replica's kind would put the GPUs (fewest, most)
                "gpus_80pct_low": span[0] if span else None,
                "gpus_80pct_high": span[1] if span else None,
                "no_measured_range": why if ok and not span else None,
                "scale_up_domains": f.domains or None,  # whole servers or racks that hold the replicas
                "idle_gpus_in_domains": f.idle_gpus if f.domains else None,
                # a TPU pod rented in slices of a replica's size: no whole servers or racks (the two above empty)
                "rented_in_slices": f.rented_in_slices,
                "output_tokens_per_s_per_gpu": f.output_tokens_per_s_per_gpu,
                "megawatts_all_in": f.megawatts if ok else None,
                "capex_usd": f.capex_usd if ok else None,
                "opex_usd_per_year": f.opex_usd_per_year if ok else None,
                "usd_per_1M_output_tokens": f.usd_per_1M_output_tokens(demand) if ok else None,
                "limited_by": f.limited_by,
                # one replica's layout as `capacity --json` writes it (Fleet.layout): 'TP8', or the layout search's
                # 'prefill 3 × DEP4 + decode 1 × DEP32' (Deployment.label); its serving and the engine it was timed under
                "layout": f.layout or None,
                "serving": f.serving or None,
                "engine": f.engine if ok else None,
                "max_gpus": f.max_gpus or None,  # the layout search's budget; empty: TP within one server or rack
                "price_usd_per_gpu_hour": f.usd_per_gpu_hour,
                "price_basis": f.price_basis,
                "price_as_of": f.price_as_of,
            }
        )
    table = pd.DataFrame(rows)
    # the page's table writes a searched replica's layout short, prefill → decode (Deployment.short_label), under a
    # heading that says so (ec_col_layout_search); the CSV the CLI's
    table.attrs["layout_shown"] = [f.deployment.short_label if f.deployment is not None else f.layout for f in fleets]
    return table


CAPACITY_COLUMNS = (  # capacity_table's column -> (ui/strings key of its row, 3: three significant figures, more:
    # a whole count, 0: text)
    # what an analyst compares first (the cost, the fleet, its power) before how the fleet is built
    ("hardware", "ec_col_hardware", 0),
    ("usd_per_1M_output_tokens", "ec_col_usd_1m", 3),
    ("gpus", "ec_col_gpus", 7),
    ("gpus_80pct_low", "ec_col_gpus_range", 7),  # with gpus_80pct_high, in one cell (capacity_display)
    # costed as bought only (the replicas' GPUs otherwise: 'gpus'), below the range of the GPUs its '↳' is about
    ("costed_gpus", "ec_col_costed", 7),
    ("megawatts_all_in", "ec_col_mw", 3),
    ("output_tokens_per_s_per_gpu", "ec_col_tps_gpu", 3),
    ("capex_usd", "ec_col_capex", 3),
    ("opex_usd_per_year", "ec_col_opex", 3),
    ("replicas", "ec_col_replicas", 6),
    ("gpus_per_replica", "ec_col_gpus_per_replica", 4),
    ("layout", "ec_col_layout", 0),
    ("scale_up_domains", "ec_col_domains", 7),
    ("idle_gpus_in_domains", "ec_col_idle", 7),
    ("decode_batch_per_instance", "ec_col_batch", 4),
    ("limited_by", "ec_col_limited_by", 0),
    ("engine", "ec_col_engine", 0),
    ("price_usd_per_gpu_hour", "ec_col_price", 3),
    ("price_basis", "ec_col_basis", 0),
    ("price_as_of", "ec_col_as_of", 0),
)


def chip_labels(table: pd.DataFrame, tr: Translator = EN) -> tuple[list[str], list[str]]:
    """capacity_table's chips as the chart and the table name them: (short, full), an announced chip marked
    "(announced)" in both (fmt.chip, the Serving frontier's and Planner's mark); the short names where no two
    coincide (fmt.chip_names), else the full ones."""
    catalog = load_hardware_catalog()
    chips = [catalog.get(h) for h in table["hardware_id"]]
    full = [n if h is None else fmt.chip(h, tr) for h, n in zip(chips, table["hardware"], strict=True)]
    return fmt.chip_names(chips, full, tr=tr), full


def capacity_display(table: pd.DataFrame, tr: Translator = EN) -> pd.DataFrame:
    """capacity_table for the page, a column per chip (its short name, "(announced)" on a chip not shipping) and a row
    per figure, so that it reads whole in the page's width (a column per figure ran to 1,800 px, the fleet's layout
    and price out of view): each cell in words with its unit, numbers to their significant figures (counts whole,
    capex and opex in $M), None where a chip has no layout (the CSV keeps every digit), and 'rented in slices' for the
    servers / racks of a TPU pod (Fleet.rented_in_slices)."""
    names, _ = chip_labels(table, tr)
    sliced = table["rented_in_slices"] if "rented_in_slices" in table else [False] * len(table)
    # a chip with no price under the basis has no basis beside its empty price (a browser review: 'On-demand cloud'
    # had stood under TPU 8i's '—' $/chip-hour)
    priced = [p is not None and math.isfinite(float(p)) for p in table["price_usd_per_gpu_hour"]]
    # every chip with a fleet without a measured range for one reason (a dense model's: the measured runs are MoE
    # models'): said once, in the range row's name, its cells '—' (it had filled every column); else each cell's own
    whys = list(table["no_measured_range"]) if "no_measured_range" in table else [None] * len(table)
    fleet_whys = {w for w, g in zip(whys, table["gpus"], strict=True) if g is not None and g == g}
    one_why = next(iter(fleet_whys)) if len(fleet_whys) == 1 else None
    one_why = one_why if isinstance(one_why, str) else None

    def cell(col: str, sig: int, v, in_slices: bool = False, i: int = 0) -> str | None:
        if in_slices and col in ("scale_up_domains", "idle_gpus_in_domains"):  # not '—' unexplained: why there is none
            return tr("ec_cell_in_slices")
        if col == "layout" and v and "layout_shown" in table.attrs:  # short, prefill → decode, as its row's
            return table.attrs["layout_shown"][i]  # heading reads it (capacity_table)
        if col == "gpus_80pct_low":  # the range in one cell, or why there is none
            if v is None or v != v:
                why = None if one_why else whys[i]
                return tr("ec_cell_range_none", reason=tr(f"fr_rack_no_range_{why}")) if isinstance(why, str) else None
            return f"{fmt.integer(float(v))}–{fmt.integer(float(table['gpus_80pct_high'].iloc[i]))}"
        if v is None or (isinstance(v, float) and not math.isfinite(v)) or v == "":
            return None
        if col == "price_basis":
            return tr(f"basis_{v}")
        if col == "limited_by":
            return tr(f"pl_limit_{v}")
        if col == "engine":
            return fmt.engine_name(v, tr)
        if col in ("usd_per_1M_output_tokens", "price_usd_per_gpu_hour"):
            return fmt.usd(float(v))
        if col in ("capex_usd", "opex_usd_per_year"):
            return fmt.number(float(v) / 1e6)
        if sig == 3:
            return fmt.number(float(v))
        return fmt.integer(float(v)) if sig else str(v)

    # a layout search's replica: its batch per decode instance (a disaggregated one's prefill pool has its own), and
    # its layout read as prefill → decode; a tensor-parallel replica's layout is one group ('TP16' had stood under
    # 'Replica's layout (prefill → decode)')
    searched = "max_gpus" in table and table["max_gpus"].notna().any()
    label = {"decode_batch_per_instance": "ec_col_batch_search", "layout": "ec_col_layout_search"} if searched else {}
    bought = "whole_domains" in table and bool(table["whole_domains"].any())  # costed as bought: what MW and $ count

    def row_name(col: str, key: str) -> str:
        if col == "gpus_80pct_low" and one_why:
            return tr("ec_col_gpus_range_none", reason=tr(f"fr_rack_no_range_{one_why}"))
        return tr(label.get(col, key))

    rows = [
        {tr("ec_col_figure"): row_name(col, key),
         **{n: None if col in ("price_basis", "price_as_of") and not p else cell(col, sig, v, s, i)
            for i, (n, v, s, p) in enumerate(zip(names, table[col], sliced, priced, strict=True))}}
        for col, key, sig in CAPACITY_COLUMNS[1:]
        if (col != "gpus_80pct_low" or searched) and (col != "costed_gpus" or bought)  # the range: the search's
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=[tr("ec_col_figure"), *names])


TABLE_CHIPS = 4  # chips one fleet table holds beside the figures' names in a 900 px page's 440 px (~75 px a chip)


def capacity_parts(display: pd.DataFrame, per_table: int) -> list[pd.DataFrame]:
    """capacity_display as tables of `per_table` chips each (the last may hold fewer), every one with the figures'
    names: six chips in one had run to 550 px in a 900 px page's 440 ('2026-03-17', 'On-demand' and "(announced)" keep
    a chip's column at ~70 px) and scrolled sideways. No chip: the table of names alone."""
    name, chips = display.columns[0], list(display.columns[1:])
    return [display[[name, *chips[i : i + per_table]]] for i in range(0, len(chips), per_table)] or [display]


LABEL_MIN_WIDTH = "7em"  # seven characters of zh-TW a line, 'Fleet $ per 1M' in English


def capacity_shown(display: pd.DataFrame) -> Styler:
    """capacity_display for a static table (st.table): '—' where a chip has no figure, no index, and the figures'
    names at least LABEL_MIN_WIDTH wide: with six chips in a 900 px page the table overflows and every column
    shrinks to its narrowest, which in zh-TW had been two characters a line ('機群每百萬輸出 Token 美元' on seven)."""
    return (
        display.fillna("—")
        .style.set_properties(subset=[display.columns[0]], **{"min-width": LABEL_MIN_WIDTH})
        .hide(axis="index")
    )


def capacity_figure(table: pd.DataFrame, *, devices: Mapping[str, str] | None = None, tr: Translator = EN) -> go.Figure:
    """All-in megawatts per chip for the demand, a horizontal bar per chip in the table's order from the top (GPUs in
    the hover, or chips: `devices` maps a hardware id to its device kind, fmt.device_kind; GPU when absent); a chip
    without a layout or power has no bar and says why on its row. The chips by their short names, as the fleet
    table's columns (chip_labels: an announced chip marked "(announced)", on lines), the full ones in the hover:
    upright bars with six chips in a 900 px page had tilted their names and laid two 'no power' notes over each
    other."""
    fig = Figure()
    names, full = chip_labels(table, tr)
    rows = [wrap_label(n, 18) for n in names]
    for row, full_name, (_, r) in zip(rows, full, table.iterrows(), strict=True):
        unit = fmt.device_text("ec_unit_gpus", (devices or {}).get(r["hardware_id"], "gpu"), tr)
        mw = r["megawatts_all_in"]
        fig.add_bar(
            y=[row],
            x=[mw],
            orientation="h",
            name=r["hardware"],
            marker={"color": hardware_colour(r["hardware_id"])},
            text=[fmt.megawatts(mw) if mw == mw else ""],
            textposition="outside",  # each bar says its value, as the Serving frontier's cost bars do
            cliponaxis=False,
            # the GPUs the MW count (costed as bought: the whole servers' or racks')
            customdata=[[n if (n := r.get("costed_gpus", r["gpus"])) == n else 0, full_name]],
            hovertemplate=f"%{{customdata[1]}}<br>%{{x:,.3r}} MW<br>%{{customdata[0]:,}} {unit}<extra></extra>",  # 53.0
            showlegend=False,
        )
        if mw != mw:  # no bar: why, on its row (it had said nothing)
            missed = r["gpus"] != r["gpus"]  # no layout meets the target or fits; else no published all-in power
            why = tr("pl_cell_no_fit" if r["limited_by"] == "no_fit" else "pl_cell_misses") if missed else None
            fig.add_annotation(x=0, y=row, xanchor="left", xshift=4, showarrow=False, font={"size": 11, "color": "#a00"},
                               text=why or tr("no_public_power_short"))  # fmt: skip
    lines = sum(row.count("<br>") + 1 for row in rows)
    fig = style(fig, tr("ec_cap_title"), tr("ec_axis_mw"), "")
    # the first chip on top, as the table's first column; the values' labels past the longest bar
    fig.update_layout(height=max(260, 120 + 34 * len(rows) + 14 * (lines - len(rows))), bargap=0.35)
    fig.update_yaxes(autorange="reversed", automargin=True)
    most = max((float(v) for v in table["megawatts_all_in"] if v == v), default=1.0)
    fig.update_xaxes(range=[0, most * 1.25], rangemode="tozero")
    return fig


def tco_table(b: TcoBreakdown, hw_id: str, basis: str, as_of: str, *, estimated: bool = False) -> pd.DataFrame:
    """The TCO chart's CSV; board_power_estimated: its energy rests on the chip's estimated TDP (Hardware.estimated)."""
    return pd.DataFrame(
        [
            {"hardware_id": hw_id, "part": "capital", "usd_per_gpu_hour": b.capital_usd_per_gpu_hour},
            {"hardware_id": hw_id, "part": "energy", "usd_per_gpu_hour": b.energy_usd_per_gpu_hour},
            {"hardware_id": hw_id, "part": "total", "usd_per_gpu_hour": b.usd_per_gpu_hour},
        ]
    ).assign(all_in_w_per_gpu=b.all_in_w, preset_basis=basis, preset_as_of=as_of, board_power_estimated=estimated)


def tco_figure(b: TcoBreakdown, *, device: str = "gpu", tr: Translator = EN, estimated: bool = False) -> go.Figure:
    """$ per GPU-hour (per chip-hour for device 'chip': fmt.device_kind), stacked: capital (depreciation and
    financing) and energy; `estimated`: its energy rests on an estimated board power, said in the title."""
    fig = Figure()
    for part, value, colour in (
        ("capital", b.capital_usd_per_gpu_hour, "#4e79a7"),
        ("energy", b.energy_usd_per_gpu_hour, "#f28e2c"),
    ):
        fig.add_bar(x=[fmt.device_text("ec_tco_bar", device, tr)], y=[value], name=tr(f"ec_tco_{part}"),
                    marker={"color": colour}, hovertemplate=f"{tr(f'ec_tco_{part}')}: $%{{y:.3f}}<extra></extra>")  # fmt: skip
    fig.update_yaxes(tickprefix="$")  # dollars on the axis, as on the page's other $ charts
    title = fmt.device_text("ec_tco_title", device, tr)
    title = tr("tdp_estimate_title", title=title) if estimated else title
    style(fig, title, "", fmt.device_text("ec_axis_usd_gpu_hour", device, tr))
    # the legend below, as elsewhere, just under the bar's label (no x-axis title: a 60 px gap had opened)
    return fig.update_layout(barmode="stack", **legend_placement(fig, 360, side_max=0))


def revenue_table(
    r: Revenue,
    api: ApiPrice,
    cached_input_fraction: float,
    output_tokens_per_s_per_gpu: float,
    input_tokens_per_output_token: float,
    payback_months: float = math.nan,
) -> pd.DataFrame:
    """The revenue row the page downloads: what it rests on (the API prices in USD per 1M tokens, the cached share
    of the input, the output rate and input tokens per output token), revenue, cost (the scenario's price: its basis
    and date are the export's scenario columns), margin, per MW-hour and rack-hour, and the owner's payback
    (economics.payback_months: months; nan without a capex or net revenue)."""
    return pd.DataFrame(
        [
            {
                "api_input_usd_per_1M_tokens": api.input_usd_per_1M,
                "api_output_usd_per_1M_tokens": api.output_usd_per_1M,
                "api_cached_input_usd_per_1M_tokens": api.cached_input_usd_per_1M,
                "cached_input_fraction": cached_input_fraction,
                "output_tokens_per_s_per_gpu": output_tokens_per_s_per_gpu,
                "input_tokens_per_output_token": input_tokens_per_output_token,
                "revenue_usd_per_gpu_hour": r.revenue_usd_per_gpu_hour,
                "cost_usd_per_gpu_hour": r.cost_usd_per_gpu_hour,
                "margin_usd_per_gpu_hour": r.margin_usd_per_gpu_hour,
                "gross_margin_fraction": r.gross_margin_fraction,
                "revenue_usd_per_mw_hour": r.revenue_usd_per_mw_hour,
                "revenue_usd_per_rack_hour": r.revenue_usd_per_rack_hour,
                "gpus_per_rack": r.gpus_per_rack,
                "payback_months": payback_months,
            }
        ]
    )


def revenue_frontier_table(
    tokens_per_s_per_user: Sequence[float],
    output_tokens_per_s_per_gpu: Sequence[float],
    concurrency: Sequence[float],
    revenues: Sequence[Revenue],
    hw_id: str,
    basis: str,
    as_of: str,
) -> pd.DataFrame:
    """One row per point of the serving frontier (concurrency): tokens/s per user and per GPU, revenue, cost and
    margin per GPU-hour and revenue per MW-hour, with the price basis and its date."""
    return pd.DataFrame(
        {
            "hardware_id": hw_id,
            "concurrency": list(concurrency),
            "tokens_per_s_per_user": list(tokens_per_s_per_user),
            "output_tokens_per_s_per_gpu": list(output_tokens_per_s_per_gpu),
            "revenue_usd_per_gpu_hour": [r.revenue_usd_per_gpu_hour for r in revenues],
            "cost_usd_per_gpu_hour": [r.cost_usd_per_gpu_hour for r in revenues],
            "margin_usd_per_gpu_hour": [r.margin_usd_per_gpu_hour for r in revenues],
            "revenue_usd_per_mw_hour": [r.revenue_usd_per_mw_hour for r in revenues],
            "price_basis": basis,
            "price_as_of": as_of,
        }
    )


def revenue_frontier_figure(
    table: pd.DataFrame, *, name: str = "", device: str = "gpu", tr: Translator = EN
) -> go.Figure:
    """Token revenue per GPU-hour against tokens/s per user along the serving frontier, the GPU-hour's cost (its
    price basis) as a line: where revenue is above it, serving at that interactivity makes a margin. `device`: the
    device kind (fmt.device_kind), 'chip' says chip-hour."""
    fig = Figure()
    cost_name = fmt.device_text("ec_rf_cost", device, tr)
    x = table["tokens_per_s_per_user"]
    fig.add_scatter(
        x=x, y=table["revenue_usd_per_gpu_hour"], mode="lines+markers", name=tr("ec_rf_revenue", hw=name),
        customdata=table[["concurrency", "output_tokens_per_s_per_gpu"]].to_numpy(),
        hovertemplate="%{x:,.1f} " + tr("ec_rf_unit_user") + "<br>$%{y:,.2f} "
        + fmt.device_text("per_gpu_hour", device, tr) + "<br>" + fmt.device_text("ec_rf_hover_c", device, tr)
        + "<extra></extra>",
    )  # fmt: skip
    cost = table["cost_usd_per_gpu_hour"]
    if cost.notna().any():
        fig.add_scatter(
            x=x, y=cost, mode="lines", name=cost_name, line={"dash": "dash", "color": "#555555"},
            hovertemplate=f"{cost_name}: $%{{y:,.2f}}<extra></extra>",
        )  # fmt: skip
    # full numbers on the log axis: Plotly's own labelled 20 to 70 as bare '2' to '7' after '10'
    fig.update_xaxes(type="log", **log_ticks(x.to_numpy(dtype=float)))
    fig.update_yaxes(tickprefix="$")
    style(
        fig,
        fmt.device_text("ec_rf_title", device, tr, hw=name),
        tr("ec_rf_axis_x"),
        fmt.device_text("ec_axis_usd_gpu_hour", device, tr),
    )
    return fig.update_layout(**legend_placement(fig, 440, side_max=0))  # the legend below the plot, as elsewhere
