"""Economics: demand to capacity per chip (fleet.py), TCO from its parts, token revenue and margin. Every $ figure
names its price basis and date; the CSV downloads carry them in every row."""

import math
from dataclasses import asdict, fields, replace

import numpy as np
import streamlit as st

from tpot_model import economics, fleet, frontier_check
from tpot_model.estimate import precision_that_fits
from tpot_model.fleet import Demand, widest_no_fit
from tpot_model.layouts import MAX_BUDGET_GPUS
from tpot_model.roofline import gpus_per_rack
from tpot_model.serving import SERVING_CHUNK_TOKENS
from tpot_model.units import ms
from ui import cache, chart, controls, export, fmt, metrics, notices, page_state
from ui.figures import economics as figs
from ui.figures import frontier as frontier_figs
from ui.figures import rack_scale as rack_figs

state = controls.scenario_state()
tr = controls.translator()
est = controls.evaluate(state)
model, hw, profile = controls.resolve(state)
catalog = cache.hardware()

st.title(tr("page_economics"))
st.caption(fmt.device_text("ec_caption", hw, tr))  # 'what owning a chip costs' for a TPU or Trainium
notices.announced_notice(hw, tr)  # the sidebar's chip not shipping: its TCO and revenue are projections, as on Planner
notices.transfer_notice(model, tr)
# the sidebar's chip as the page names it: "(announced)" on one not shipping, as its fleet's chips are named
hw_name = fmt.chip(hw, tr)

# The page's inputs: from the URL on the session's first visit, then in session state (persisted); in the embed view
# the demand's widgets wait in a closed section, sent only once it is opened (a wiki reader does not pay for a dozen
# inputs it does not open)
KEYS = {f.name: "econ." + ("in" if f.name == "inp" else f.name) for f in fields(page_state.EconomicsInputs)}
INIT, NOTICES, TCO_LINK = "_econ_initialised", "_econ_notices", "_econ_tco_link"
default_chips = tuple(h for h in dict.fromkeys((state.hardware, "h200", "b200", "mi355x")) if h in catalog)


def linked_inputs(params: dict) -> tuple[page_state.EconomicsInputs, list]:
    """A link's inputs and its bad parameters' notices; without chips, the sidebar's first and the default three."""
    given, bad = page_state.parse_economics_query(params, catalog)
    return replace(given, chips=given.chips or default_chips), bad


if not st.session_state.get(INIT):
    first, bad_params = linked_inputs(st.query_params.to_dict())
    st.session_state.update({KEYS[k]: list(v) if k == "chips" else v for k, v in asdict(first).items()})
    st.session_state.update({NOTICES: bad_params, INIT: True})
# the inputs as the widgets hold them (session state holds a widget's value before its call in the run)
inputs = page_state.EconomicsInputs(
    **{k: tuple(st.session_state[key]) if k == "chips" else st.session_state[key] for k, key in KEYS.items()}
)
by_requests, tpot_ms, peak, util, chips = inputs.by_requests, inputs.tpot, inputs.peak, inputs.util, inputs.chips
# the view's link: these inputs beside the sidebar's scenario
controls.write_page_params(
    page_state.economics_query(inputs), lambda params: page_state.economics_query(linked_inputs(params)[0])
)

# --- demand to capacity
st.header(tr("ec_cap_h"))


def demand_option(requests: bool) -> str:
    return tr("ec_demand_requests" if requests else "ec_demand_tokens")


def chip_option(hid: str) -> str:
    return fmt.chip(catalog[hid], tr, short=True)


def replicas_option(kind: str) -> str:
    return tr(f"ec_replicas_{kind}")


def costed_option(kind: str) -> str:
    return tr(f"ec_costed_{kind}")


# the page's numbers' labels: EconomicsInputs field -> string key
NUMBER_LABELS = {"req": "ec_req_per_day", "out": "ec_out_per_day", "inp": "ec_in_per_day", "tpot": "ec_tpot_target",
                 "peak": "ec_peak", "util": "ec_util", "api_in": "ec_api_in", "api_out": "ec_api_out",
                 "api_cached": "ec_api_cached", "cached": "ec_cached_frac"}  # fmt: skip


def link_labels() -> dict[str, notices.Shown]:
    """The page's demand and revenue controls as its link's notices name them: label and how each shows a value."""
    return {
        "ec_demand": notices.Shown(tr("ec_demand_as"), lambda v: demand_option(v == "requests")),
        "ec_chips": notices.Shown(tr("ec_chips"), chip_option, items=True),
        "ec_replicas": notices.Shown(tr("ec_replicas"), replicas_option),
        "ec_max_gpus": notices.Shown(tr("ec_max_gpus")),
        "ec_costed": notices.Shown(tr("ec_costed"), costed_option),
        **{key: notices.Shown(tr(NUMBER_LABELS[name])) for name, (key, _, _) in page_state.ECONOMICS_NUMBERS.items()},
    }


notices.url_notices(st.session_state[NOTICES], tr, link_labels)
if by_requests:  # requests per day with the sidebar's lengths, as tokens
    out_b, in_b = inputs.req * 1e6 * state.output / 1e9, inputs.req * 1e6 * state.context / 1e9
else:
    out_b, in_b = inputs.out, inputs.inp
if (controls_box := controls.page_controls(tr, lazy=True)) is not None:
    with controls_box:
        st.radio(
            tr("ec_demand_as"), [False, True], horizontal=True, key="econ.by_requests", persist_state="session",
            format_func=demand_option,
        )  # fmt: skip
        c = st.columns(3)
        if by_requests:  # requests per day with the sidebar's lengths
            c[0].number_input(tr("ec_req_per_day"), 0.001, 1e6, step=1.0, format="%g", key="econ.req", persist_state="session",
                              help=tr("ec_req_help"))  # fmt: skip
            c[1].markdown(tr("ec_req_tokens", input=fmt.tokens(state.context), output=fmt.tokens(state.output),
                             out_b=fmt.token_count(out_b * 1e9, tr), in_b=fmt.token_count(in_b * 1e9, tr)))  # fmt: skip
        else:
            c[0].number_input(
                tr("ec_out_per_day"), 0.001, 1e6, step=100.0, format="%g", key="econ.out", persist_state="session"
            )
            c[1].number_input(
                tr("ec_in_per_day"), 0.0, 1e7, step=100.0, format="%g", key="econ.in", persist_state="session"
            )
        c[2].number_input(
            tr("ec_tpot_target"), 1.0, 10000.0, step=5.0, format="%g", key="econ.tpot", persist_state="session"
        )
        c[2].caption(fmt.target(tpot_ms * ms, tr))  # the same target as tokens/s per user
        c = st.columns([1, 1, 3], vertical_alignment="bottom")
        c[0].number_input(tr("ec_peak"), 1.0, 20.0, step=0.1, key="econ.peak", persist_state="session")
        c[1].number_input(tr("ec_util"), 0.05, 1.0, step=0.05, key="econ.util", persist_state="session",
                          help=tr("ec_util_help"))  # fmt: skip
        c[2].multiselect(
            tr("ec_chips"), list(catalog), format_func=chip_option, key="econ.chips",
            max_selections=8, persist_state="session",
        )  # fmt: skip
        c = st.columns([3, 1], vertical_alignment="bottom")
        c[0].radio(tr("ec_replicas"), page_state.ECONOMICS_REPLICAS, horizontal=True, key="econ.replicas",
                   format_func=replicas_option, help=tr("ec_replicas_help"), persist_state="session")  # fmt: skip
        c[1].number_input(tr("ec_max_gpus"), 1, MAX_BUDGET_GPUS, step=8, key="econ.max_gpus",
                          disabled=inputs.replicas != "search", help=tr("ec_max_gpus_help"), persist_state="session")  # fmt: skip
        st.radio(tr("ec_costed"), page_state.ECONOMICS_COSTED, horizontal=True, key="econ.costed",
                 format_func=costed_option, help=tr("ec_costed_help"), persist_state="session")  # fmt: skip
searched = inputs.replicas == "search"
budget = int(inputs.max_gpus) if searched else None
bought = inputs.costed == "bought"  # MW and $ over the whole servers or racks (fleet.Fleet.whole_domains)
demand = Demand(out_b * 1e9, in_b * 1e9, peak, util)
scenario = state.to_scenario(batch=1)
demand_key = f"{cache.scenario_key(state, 'batch', 'lang')}|{'+'.join(chips)}|{demand}|{tpot_ms}|{budget}|{bought}"
# one's own $/GPU-hour is the sidebar chip's alone (the other chips have none under it, as on the Hardware page);
# the layout search under each chip's engines (its profile None), as the rack-scale view
rows = cache.fleets(demand_key, model, [catalog[h] for h in chips], scenario, None if searched else profile, demand,
                    tpot_ms * ms, hw.id, budget, bought)  # fmt: skip


def measured_ranges() -> dict:
    """Each layout-search fleet's GPUs at the ends of the measured 80 % range, or why none (frontier_check.measured_gpus),
    against the best-engine frontier check (the fleets' engines are each chip's), as the rack-scale view reads it."""
    check = cache.disaggregated_check().get(frontier_check.summary_key(True))
    return {f.hardware: frontier_check.measured_gpus(f, model, catalog[f.hardware], demand, check) for f in rows}


table = cache.built(
    f"capacity|{demand_key}",
    lambda: figs.capacity_table(rows, demand, {h: catalog[h].name for h in chips}, measured_ranges()),
)
chips_hw = [catalog[h] for h in chips]
if rows and not any(f.feasible for f in rows):  # nothing fits is not a target to raise
    nearest = [  # how near each chip that holds the model comes (batch 1 on its fastest GPU count; the search's
        # fastest layout within the budget, said once: it had followed every chip)
        tr("ec_cap_nearest_one_search" if searched else "ec_cap_nearest_one",
           hw=fmt.chip(catalog[f.hardware], tr, short=True),
           devices=fmt.devices(catalog[f.hardware], budget if searched else f.fastest_gpus, tr),
           time=fmt.ms(f.fastest_missed_s, tr=tr), what=f.slo_binding.upper())
        for f in rows if (f.fastest_gpus or searched) and math.isfinite(f.fastest_missed_s)
    ]  # fmt: skip
    if not all(f.limited_by == "no_fit" for f in rows):
        said = tr("ec_cap_none")
    elif searched:
        said = tr("ec_cap_no_fit_search", devices=fmt.devices(chips_hw, budget, tr))
    else:
        said = tr("ec_cap_no_fit")
    if nearest:
        key = "ec_cap_nearest_search" if searched else "ec_cap_nearest"
        said = tr.sentences([said, tr(key, devices=fmt.devices(chips_hw, budget or 0, tr), chips=tr.join(nearest))])
    st.warning(said)
# the chips charted, each at its own GPU count and price
chips_about = controls.chips_about(chips, catalog, tr, state) | {
    "scenario_gpus": None, "scenario_batch": None, "scenario_tpot_target_ms": tpot_ms,  # the demand and target sized for
    "scenario_output_tokens_per_day": out_b * 1e9, "scenario_input_tokens_per_day": in_b * 1e9,
    "scenario_peak_to_average": peak, "scenario_utilisation": util,
}  # fmt: skip
if any(f.feasible for f in rows):  # no chart of empty bars when no chip has a fleet (the table says why)
    chart.figure(
        lambda: figs.capacity_figure(table, devices={h: fmt.device_kind(catalog[h]) for h in chips}, tr=tr),
        table,
        "capacity",
        tr,
        about=chips_about if chips else None,
        depends=demand_key,  # the chips, the demand and the target (the key of the fleets charted)
    )
    # the demand the megawatts serve, under the chart: in the embed view its inputs wait in a closed section
    st.caption(tr("ec_cap_for", out=fmt.token_count(out_b * 1e9, tr), inp=fmt.token_count(in_b * 1e9, tr),
                  target=fmt.target(tpot_ms * ms, tr),
                  peak=fmt.plain(peak), util=fmt.pct(util, 0)))  # fmt: skip
    prompt = next(f.prompt_tokens for f in rows)
    if prompt and prompt != state.context:  # the demand's token mix, not the sidebar's context, sets the prompts
        st.caption(tr("ec_cap_prompt", prompt=fmt.tokens(prompt), context=fmt.tokens(state.context),
                      ratio=fmt.number(in_b / out_b), output=fmt.counted("n_output_tokens", state.output, tr)))  # fmt: skip
cap_tr = fmt.device_tr([catalog[h] for h in chips], tr)  # chips once a candidate is a TPU or Trainium
# static, every row and cell whole: it wraps in a narrow frame (a scrolled grid had cut 'On-demand cloud' to
# 'On-dema' at 900 px, and kept the layout and price rows under a scroll at its default height); '—' where a chip has
# no layout; the CSV keeps every digit. Up to TABLE_CHIPS chips a table, one under another, as even as they come
# (6: 3 + 3, 7: 4 + 3): six in one had scrolled sideways in a 900 px page
per_table = metrics.per_row(len(chips), figs.TABLE_CHIPS)
for part in range(max(1, math.ceil(len(chips) / per_table))):
    cache.replayed_table(f"capacity-display|{demand_key}|{tr.lang}|{part}", lambda part=part: figs.capacity_shown(
        figs.capacity_parts(figs.capacity_display(table, cap_tr), per_table)[part]))  # fmt: skip
if searched:  # what the range row is
    st.caption(fmt.device_text("ec_cap_range", chips_hw, tr))
if bought:  # what MW and $ count
    st.caption(
        tr.sentences(
            [fmt.device_text("ec_cap_bought", chips_hw, tr)] + ([tr("ec_cap_bought_search")] if searched else [])
        )
    )
costing = inputs.costed  # what MW counts and the search's 'fewest', in the chips' word
st.caption(fmt.device_text("ec_cap_help_search" if searched else "ec_cap_help", chips_hw, tr,
                           tier=tr(f"basis_{economics.owning_basis(state.price_basis)}"),  # chips once one is a TPU
                           max=fmt.integer(fleet.MAX_PACKED_DOMAIN_GPUS),
                           budget=fmt.devices(chips_hw, budget or 0, tr),
                           counted=fmt.device_text(f"ec_counted_{costing}", chips_hw, tr),
                           fewest=fmt.device_text(f"ec_fewest_{costing}", chips_hw, tr)))  # fmt: skip
if rows:  # the basis and its dates; the chips with no price under it, or no published all-in power: named, not 'n/a'
    notices.basis_caption(  # an announced chip named "(announced)", as in the chart and the table
        [
            (catalog[h], economics.price_for(catalog[h], economics.priced_for(catalog[h], scenario, hw.id)))
            for h in chips
        ],
        tr,
        device_words=True,
        sidebar=hw.id,  # an unpriced sidebar chip takes your own price in the sidebar, as it is
    )
    if unpowered := [fmt.chip(catalog[h], tr) for h in chips if not math.isfinite(catalog[h].prices.all_in_w)]:
        st.caption(tr("ec_cap_no_power", hws=tr.join(unpowered)))
    # a chip that holds no layout: what would (the CLI's capacity said it; the table had read 'does not fit' alone)
    no_fit = cache.built(f"capacity-no-fit|{demand_key}", lambda: [
        (catalog[f.hardware], e) for f in rows
        if (e := widest_no_fit(model, catalog[f.hardware], scenario, None if searched else profile, f)) is not None])  # fmt: skip
    if searched and no_fit:  # within the layout search's budget: the smallest budget that holds it, or a lower
        # precision within this one, the chips grouped, as the rack-scale view and `capacity --max-gpus` say it (a
        # sentence per chip had repeated the budget, and not said how large a one would do)
        unfit = [fmt.chip(chip, tr, short=True) for chip, _ in no_fit]
        kind = fmt.device_kind(chips_hw)
        st.caption(tr.sentences([
            tr("ec_cap_fits_search", chips=tr.join(unfit), devices=fmt.devices(kind, budget, tr)),
            rack_figs.fit_remedy([(name, e) for name, (_, e) in zip(unfit, no_fit, strict=True)], budget, tr, kind)]))  # fmt: skip
    for chip, e in [] if searched else no_fit:  # within one scale-up domain
        where = {"hw": fmt.chip(chip, tr), "devices": fmt.devices(chip, int(e.scenario.num_gpus), tr)}
        if (fitting := precision_that_fits(e)) is None:
            st.caption(tr("ec_cap_fits_none", **where))
        else:
            parts = [tr(key, fmt=x.name) for x, key in zip(fitting, ("ec_fmt_weights", "ec_fmt_kv"), strict=True) if x]
            st.caption(tr("ec_cap_fits_with", formats=tr.join(parts), **where))

chart.fold(tr, tr("embed_more_economics"))  # a wiki's frame: the capacity plan; the rest on request

# --- TCO from parts, for the sidebar chip
st.header(tr("ec_tco_h"))
tier_basis = economics.owning_basis(state.price_basis)  # the fleet table's capex: the same tier
tier = hw.prices.price(tier_basis)
from_tier = tier is not None and math.isfinite(hw.prices.all_in_w)  # the all-in power published: the board's a split
if from_tier:
    preset = economics.tco_preset(tier.usd_per_gpu_hour, hw.prices.all_in_w, hw.tdp_w)
    st.markdown(
        fmt.device_text(
            "ec_tco_intro",
            hw,
            tr,
            hw=hw_name,
            basis=tr(f"basis_{tier_basis}"),
            price=fmt.usd_markdown(tier.usd_per_gpu_hour),
            note=notices.price_note(tier, tr),
        )  # fmt: skip
    )
    preset_as_of = tier.as_of
elif (list_price := hw.prices.capex) is not None:  # a published capex (Gaudi 3's list price), no tier
    preset = economics.TcoParts(capex_usd=list_price.usd_per_gpu_hour, board_w=hw.tdp_w or 1000.0)
    st.info(tr("ec_tco_capex", hw=hw_name, capex=fmt.usd_markdown(list_price.usd_per_gpu_hour),
               as_of=list_price.as_of, source=list_price.source.replace("$", "\\$")))  # fmt: skip
    preset_as_of = list_price.as_of
else:
    preset = economics.TcoParts(capex_usd=30000.0, board_w=hw.tdp_w or 1000.0)
    if tier is not None:  # a published tier price, but no published all-in power to split it by (TPU7x)
        st.info(fmt.device_text("ec_tco_no_power", hw, tr, hw=hw_name, basis=tr(f"basis_{tier_basis}"),
                                price=fmt.usd_markdown(tier.usd_per_gpu_hour), note=notices.price_note(tier, tr)))  # fmt: skip
    else:
        st.info(tr("ec_tco_no_tier", hw=hw_name))
    preset_as_of = ""
k = f"econ.tco.{hw.id}.{tier_basis}."  # a new chip or basis starts from its own preset
preset_values = {
    "capex_usd": float(round(preset.capex_usd)), "depreciation_years": preset.depreciation_years,
    "cost_of_capital_pct": preset.cost_of_capital * 100, "utilisation": preset.utilisation,
    "board_w": float(round(preset.board_w)), "host_network_w": float(round(preset.host_network_w)), "pue": preset.pue,
    "electricity_usd_per_kwh": preset.electricity_usd_per_kwh,
    "gpus_per_rack": min(gpus_per_rack(hw), 16_384),
}  # fmt: skip
# a link's inputs changed from the preset: for the chip and basis it opens on (its first run here), else the preset
if TCO_LINK not in st.session_state:
    st.session_state[TCO_LINK] = (k, *page_state.parse_tco_query(st.query_params.to_dict()))
link_k, linked_tco, bad_tco = st.session_state[TCO_LINK]
# the TCO inputs' labels: TCO_NUMBERS name -> string key (capex and the rack in the chip's device word)
TCO_LABELS = {"capex_usd": "ec_capex", "depreciation_years": "ec_years", "cost_of_capital_pct": "ec_rate",
              "utilisation": "ec_tco_util", "board_w": "ec_board_w", "host_network_w": "ec_host_w", "pue": "ec_pue",
              "electricity_usd_per_kwh": "ec_kwh", "gpus_per_rack": "ec_rack"}  # fmt: skip
notices.url_notices(
    bad_tco,
    tr,
    lambda: {
        key: notices.Shown(fmt.device_text(TCO_LABELS[name], hw, tr), default=tr("ec_tco_preset"))
        for name, (key, _, _) in page_state.TCO_NUMBERS.items()
    },
)
for name, value in preset_values.items():
    st.session_state.setdefault(k + name, linked_tco.get(name, value) if link_k == k else value)


def tco_range(name: str) -> tuple[float, float]:
    """A TCO input's lowest and highest values: the ones its link is read with (page_state.TCO_NUMBERS)."""
    return page_state.TCO_NUMBERS[name][1:]


c = st.columns(4, vertical_alignment="bottom")  # inputs in line where a label wraps (zh-TW, 900 px)
capex = c[0].number_input(fmt.device_text("ec_capex", hw, tr), *tco_range("capex_usd"), step=1000.0, format="%.0f", key=k + "capex_usd",
                          help=tr("ec_capex_help"))  # fmt: skip
years = c[1].number_input(
    tr("ec_years"), *tco_range("depreciation_years"), step=0.5, format="%.1f", key=k + "depreciation_years"
)
rate = c[2].number_input(
    tr("ec_rate"), *tco_range("cost_of_capital_pct"), step=0.5, format="%.1f", key=k + "cost_of_capital_pct"
)
util_h = c[3].number_input(tr("ec_tco_util"), *tco_range("utilisation"), step=0.05, key=k + "utilisation")
c = st.columns(4, vertical_alignment="bottom")  # inputs in line where a label wraps (zh-TW, 900 px)
board = c[0].number_input(tr("ec_board_w"), *tco_range("board_w"), step=10.0, format="%.0f", key=k + "board_w",
                          help=tr("ec_board_w_estimated", tdp=fmt.board_power(hw, tr)) if hw.estimated("tdp_W") else None)  # fmt: skip
host = c[1].number_input(
    tr("ec_host_w"), *tco_range("host_network_w"), step=10.0, format="%.0f", key=k + "host_network_w"
)
pue = c[2].number_input(tr("ec_pue"), *tco_range("pue"), step=0.05, key=k + "pue")
kwh = c[3].number_input(
    tr("ec_kwh"), *tco_range("electricity_usd_per_kwh"), step=0.01, key=k + "electricity_usd_per_kwh"
)
parts = economics.TcoParts(capex, years, rate / 100, board, host, pue, kwh, util_h)
b = economics.tco(parts)
# the chip's estimated TDP as the board power, with no published all-in power to split: both rest on the estimate
on_estimate = not from_tier and hw.estimated("tdp_W") and board == round(hw.tdp_w)
estimated = tr("tdp_estimate_note") if on_estimate else None
with metrics.Row() as row:
    row.metric(fmt.device_text("ec_m_tco", hw, tr), **metrics.noted({"value": fmt.usd(b.usd_per_gpu_hour)}, estimated))
    row.metric(
        fmt.device_text("ec_m_all_in", hw, tr), **metrics.noted({"value": f"{fmt.number(b.all_in_w)} W"}, estimated)
    )


def _use_tco(value: float = round(b.usd_per_gpu_hour, 4)) -> None:
    st.session_state["price_basis"] = "custom"
    st.session_state["price"] = value


# under the TCO it sets, as wide as its words (under the PUE input, a quarter column cut it: "在各頁使用此每 GPU …")
st.button(fmt.device_text("ec_use_tco", hw, tr, hw=hw_name), on_click=_use_tco, key="econ.use_tco",
          help=tr("ec_use_tco_help", hw=hw_name))  # fmt: skip
tco_about = controls.export_about() | {  # the $/GPU-hour charted: the TCO built from the parts above, not the sidebar's
    "scenario_price_usd_per_gpu_hour": float(b.usd_per_gpu_hour),
    "scenario_price_basis": "tco_parts",
    "scenario_price_as_of": preset_as_of or None,
}
chart.figure(
    lambda: figs.tco_figure(b, device=fmt.device_kind(hw), tr=tr, estimated=on_estimate),
    lambda: figs.tco_table(b, hw.id, tier_basis, preset_as_of, estimated=on_estimate),
    "tco",
    tr,
    about=tco_about,
    depends=(parts, tier_basis, preset_as_of, on_estimate),
)

# --- token revenue and margin at the sidebar scenario
st.header(tr("ec_rev_h"))
c = st.columns(5, vertical_alignment="bottom")
api_in = c[0].number_input(tr("ec_api_in"), 0.0, 1000.0, step=0.1, key="econ.api_in", persist_state="session")
api_out = c[1].number_input(tr("ec_api_out"), 0.0, 1000.0, step=0.1, key="econ.api_out", persist_state="session")
api_cached = c[2].number_input(tr("ec_api_cached"), 0.0, 1000.0, step=0.05, key="econ.api_cached",
                              persist_state="session")  # fmt: skip
cached = c[3].slider(tr("ec_cached_frac"), 0.0, 1.0, step=0.05, key="econ.cached", persist_state="session")
rack = c[4].number_input(
    fmt.device_text("ec_rack", hw, tr),
    *map(int, tco_range("gpus_per_rack")),
    key=k + "gpus_per_rack",
    help=tr("ec_rack_help" if hw.rack_gpus else "ec_rack_help_domain", n=preset_values["gpus_per_rack"], hw=hw_name),
)
# the view's link: the TCO inputs and the rack changed from the chip's preset
tco_now = {name: st.session_state[k + name] for name in preset_values}
controls.write_page_params(
    page_state.tco_query(tco_now, preset_values),
    lambda params: page_state.tco_query({**preset_values, **page_state.parse_tco_query(params)[0]}, preset_values),
    dropped=[key for key, _, _ in page_state.TCO_NUMBERS.values()],
)
out_rate = float(est.output_tokens_per_s_per_gpu)
ratio = state.context / state.output
rev = economics.revenue(
    out_rate, ratio, economics.ApiPrice(api_in, api_out, api_cached), est.price_usd_per_gpu_hour,
    cached_input_fraction=cached, all_in_w=est.all_in_w_per_gpu, gpus_per_rack=rack,
)  # fmt: skip
# the payback repays the capex of the TCO parts above (published, or the reader's own): generic parts repay nothing
has_capex = bool(preset_as_of) or capex != preset_values["capex_usd"]
payback = economics.payback_months(rev.revenue_usd_per_gpu_hour, parts) if has_capex else math.nan
priced = math.isfinite(est.price_usd_per_gpu_hour)  # else: say there is no price, never a bare 'n/a'
rev_text = fmt.device_text(
    "ec_rev_intro" if priced else "ec_rev_intro_no_price",
    hw,
    tr,
    rate=fmt.rate(out_rate),
    batch=fmt.integer(state.batch),
    ratio=fmt.number(ratio),
    price=fmt.usd_markdown(est.price_usd_per_gpu_hour),
    note=notices.price_note(est.price, tr),
    # no price: what holds, in the notice's words (the basis named, none in any basis, or your own not entered)
    no_price="" if priced else fmt.no_price_fact(est.price, hw, fmt.device_tr(hw, tr)).replace("$", "\\$"),
)
notices.fit_notice(est, tr)  # the sidebar's scenario not fitting: by how much, and the remedies, before its what-ifs
st.markdown(rev_text if bool(est.fits) else tr.sentences([tr("if_fitted_lead"), rev_text]))  # what-ifs: said first
# tokens per MW at the revenue's own rate (output, prefill included): Overview's static batch had read 641 K beside it,
# and under the same words as Overview's (523 K beside 360 K here) it read as a contradiction: named as what it counts
notices.cost_line(est, tr, key="econ.no_price", tokens_per_s_per_gpu=out_rate, rate_label="m_tokens_per_mw_served")
# no price: 'No public price', or under 'Your own' where to enter it (it had read 'No public price' there too)
no_price, no_power = fmt.no_price_short(est.price, fmt.device_tr(hw, tr)), tr("no_public_power_short")
has_power = math.isfinite(est.all_in_w_per_gpu)


with metrics.Row(wide=True) as row:  # the margin note (its price and basis) reads whole at 1400 px
    # a scenario that does not fit: every figure from its throughput a what-if, greyed and marked as elsewhere
    rev_def = fmt.device_text("ec_m_rev_def", hw, tr, rate=fmt.rate(out_rate), batch=fmt.integer(state.batch))
    row.metric(fmt.device_text("ec_m_rev", hw, tr),
               **notices.if_fitted(est, tr, fmt.usd(rev.revenue_usd_per_gpu_hour), help=rev_def))  # fmt: skip
    margin_at = fmt.device_text("ec_m_margin_at", hw, tr, usd=fmt.usd(est.price_usd_per_gpu_hour),
                                basis=tr(f"basis_{est.price.basis}"))  # fmt: skip
    row.metric(
        tr("ec_m_margin"),
        **(
            notices.if_fitted(est, tr, fmt.pct(rev.gross_margin_fraction, na=tr("fr_na")), **metrics.note(margin_at))
            if priced
            else metrics.missing(no_price)
        ),
        # no price: why and what to do, in the notice's words (the bases that price it, or your own to enter)
        help=None if priced else fmt.no_price_text(est.price, hw, fmt.device_tr(hw, tr)),
    )  # the cost it nets: not the TCO above
    row.metric(tr("ec_m_rev_mw"), **(notices.if_fitted(est, tr, fmt.usd(rev.revenue_usd_per_mw_hour)) if has_power
                                     else metrics.missing(no_power)))  # fmt: skip
    row.metric(tr("ec_m_rev_rack"), **notices.if_fitted(est, tr, fmt.usd(rev.revenue_usd_per_rack_hour)))
    # the tier's capex is solved from its price and all-in power: which one is missing (a list capex needs neither)
    no_capex = no_power if tier is not None else tr("no_public_capex_short")
    if not has_capex:
        shown = metrics.missing(no_capex)
    elif not math.isfinite(payback):  # it never pays back: said so, not "n/a"
        shown = {"value": tr("ec_payback_never"), **metrics.note(tr("ec_payback_never_why"))}
    else:  # said whose it is, as the margin says its price: they can disagree (a rental price, an owner's costs)
        shown = notices.if_fitted(est, tr, fmt.number(payback), **metrics.note(tr("ec_payback_owner")))
        shown = metrics.noted(shown, estimated)  # its energy on an estimated board power (the TCO parts' note)
    # no capex: why, and how to give one (a missing capex in the capex's place had read 'the TCO parts above (No
    # public all-in power)')
    row.metric(tr("ec_m_payback"), **shown,
               help=fmt.device_text("ec_payback_def", hw, tr, capex=fmt.usd(capex),
                                    energy=fmt.usd(economics.tco(parts).energy_usd_per_gpu_hour, 3)) if has_capex
               else tr("ec_payback_def_none", why=no_capex))  # fmt: skip
rev_about, rev_stamp = controls.export_about(), export.stamp(lang=tr.lang)  # the sidebar's scenario, price and date
st.download_button(
    tr("ec_rev_csv"),
    lambda: export.csv_bytes(
        figs.revenue_table(rev, economics.ApiPrice(api_in, api_out, api_cached), cached, out_rate, ratio, payback),
        rev_about, rev_stamp,
    ),
    f"{export.file_stem('economics-revenue', rev_about, rev_stamp)}.csv",
    "text/csv",
    key="econ.rev_csv",
    on_click="ignore",
)  # fmt: skip

# --- revenue along the serving frontier (continuous batching, concurrency 1 .. the sweep's end or the most that fit)
st.subheader(tr("ec_rf_h"))
# the sweep ends at the most requests in flight that fit (it said 96, the sweep's last point below the 114 that fit)
limit = float(np.ravel(controls.evaluate(state, batching="continuous").max_batch)[0])
concurrency = frontier_figs.concurrency_grid(state.batch, limit)
curve = controls.evaluate(state, batch=concurrency, batching="continuous")
fits = np.asarray(curve.fits, dtype=bool)
if not fits.any():
    st.info(fmt.device_text("ec_rf_none", hw, tr))
else:

    def _revenue_frontier():
        """The revenue along the frontier: one row per concurrency that fits."""
        per_gpu = np.asarray(curve.output_tokens_per_s_per_gpu, dtype=float)[fits]
        api = economics.ApiPrice(api_in, api_out, api_cached)
        revenues = [
            economics.revenue(float(r), ratio, api, curve.price_usd_per_gpu_hour, cached_input_fraction=cached,
                              all_in_w=curve.all_in_w_per_gpu, gpus_per_rack=rack)
            for r in per_gpu
        ]  # fmt: skip
        return figs.revenue_frontier_table(
            np.asarray(curve.tokens_per_s_per_user, dtype=float)[fits], per_gpu, concurrency[fits], revenues, hw.id,
            curve.price.basis, curve.price.as_of,
        )  # fmt: skip

    rf_inputs = (api_in, api_out, api_cached, cached, rack)  # the API prices, cached share and rack size
    rf_key = "ec_rf_intro" if math.isfinite(curve.price_usd_per_gpu_hour) else "ec_rf_intro_no_price"  # no cost line
    st.markdown(
        fmt.device_text(rf_key, hw, tr, hw=hw_name, devices=fmt.devices(hw, state.gpus, tr), weights=state.weights, input=fmt.tokens(state.context),
           output=fmt.tokens(state.output),
           # the curve's own end: the most that fits where memory stops it before the sweep's (it said 1,024 at 192)
           cmax=fmt.integer(float(concurrency[fits][-1])) + ("" if fits[-1] else tr("ec_rf_memory_end", chunk=fmt.tokens(SERVING_CHUNK_TOKENS))),
           note=notices.price_note(curve.price, tr),
           no_price=fmt.no_price_fact(curve.price, hw, fmt.device_tr(hw, tr)).replace("$", "\\$"))
    )  # fmt: skip
    rf_table = cache.built(f"revenue-frontier|{cache.scenario_key(state, 'lang')}|{rf_inputs}", _revenue_frontier)
    chart.figure(
        lambda: figs.revenue_frontier_figure(rf_table, name=hw_name, device=fmt.device_kind(hw), tr=tr),
        rf_table,
        "revenue-frontier",
        tr,
        depends=rf_inputs,
    )
