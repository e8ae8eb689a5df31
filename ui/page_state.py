"""The inputs of the pages that keep their own (Planner, Frontier, Compare's scenarios B and C) and their URL form.
Pure (no Streamlit): parse, validate, serialise, one QueryReader for all three; a bad value falls back to the
default (or the nearest valid value) with a ui.state Notice naming the parameter. The option lists (targets, tabs,
I/O presets, precisions ...) belong to the pages' figure modules, which draw them.

Planner: planner_target_ms, planner_ttft_ms, spec_k, spec_accept, prefix_hit, planner_section, planner_max_gpus,
planner_serving, planner_request_ttft_ms, planner_best_engine, planner_chips.
Frontier: fr_io, fr_hw, fr_prec, fr_layout, fr_engine, fr_y, fr_target, fr_tier, fr_usd, fr_mtp, fr_k, fr_accept,
fr_log, fr_disagg, fr_rack_chips, fr_rack_gpus, fr_rack_recipes, fr_rack_best_engine.
Compare: <side>_hardware, _gpus, _weights, _kv, _profile, _model, _batch, _context, _price for sides b and c.
Economics: ec_demand, ec_req, ec_out, ec_in, ec_tpot_ms, ec_peak, ec_util, ec_chips, ec_replicas, ec_max_gpus, ec_costed,
ec_api_in, ec_api_out, ec_api_cached, ec_cached; and its TCO inputs changed from the chip's preset (TCO_NUMBERS: ec_capex, ec_rack ...).
The other pages' view controls: VIEW_CONTROLS (roof_overlay, ce_sweep, hw_vendors, val_engines, gl_q ...).
"""

from __future__ import annotations

import difflib
import functools
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from tpot_model.catalog import close_ids, find_id
from tpot_model.layouts import MAX_BUDGET_GPUS
from tpot_model.precision import parse_format
from tpot_model.prices import CUSTOM as CUSTOM_BASIS
from tpot_model.prices import MAX_USD_PER_GPU_HOUR
from tpot_model.speculative import MTP_ACCEPTANCE, MTP_K
from tpot_model.targets import TPOT_TARGETS_S

from .figures import compare as cmp
from .figures import frontier as fr
from .figures import planner as pl
from .figures import rack_scale as rack
from .state import (
    BATCH_OPTIONS,
    CONTEXT_OPTIONS,
    CUSTOM_ID,
    GPU_OPTIONS,
    KV_OPTIONS,
    WEIGHT_OPTIONS,
    Notice,
    ScenarioState,
    accepted,
    last,
    nearest,
    sanitize,
)


def _exact(x: float) -> str:
    """A number as a link writes it, every digit a reader can type kept ('1234567', not '1.23457e+06')."""
    return f"{x:.12g}"


def _float(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return math.nan


class QueryReader:
    """URL parameters read one at a time: the last value of each as stripped text; a Notice for each bad one."""

    def __init__(self, params: Mapping[str, object]) -> None:
        self.params = params
        self.notices: list[Notice] = []

    def text(self, key: str) -> str | None:
        """The parameter's text, None when absent."""
        return last(self.params[key]).strip() if key in self.params else None

    def bad(self, key: str, given: str, used: object) -> None:
        self.notices.append(Notice(key, sanitize(given), str(used)))

    def choice(self, key: str, allowed: Collection[str], used: object, names: bool = False) -> str | None:
        """The value if it is one of `allowed` (names: catalog ids, also as people write them: catalog.find_id);
        else None (a notice unless absent, listing `allowed`, or with names the ids it resembles)."""
        text = self.text(key)
        if text is None or text in allowed:
            return text
        if names and (found := find_id(text, dict.fromkeys(allowed))) is not None:
            return found
        near = tuple(close_ids(text, dict.fromkeys(allowed))) if names else ()
        self.notices.append(
            Notice(key, sanitize(text), str(used), near=near, options=() if names else accepted(allowed))
        )
        return None

    def flag(self, key: str, used: bool) -> bool | None:
        """An on/off parameter ('1' / '0'); else None (a notice naming `used` as the link writes it, and on or off,
        unless absent)."""
        text = self.text(key)
        if text is None or text in ("0", "1"):
            return None if text is None else text == "1"
        self.notices.append(Notice(key, sanitize(text), "1" if used else "0", switch=True))
        return None

    def chips(self, key: str, hardware_ids: Collection[str], limit: int) -> tuple[str, ...] | None:
        """A comma list of chips: its catalog ids (also as people write them: catalog.find_id), in order, once each,
        at most `limit`; None when absent, empty or none is known (the default). A notice quotes the items it could
        not read, with the ids they resemble (catalog.close_ids), or those past `limit`, and names the ids used ('—':
        the default's)."""
        text = self.text(key)
        if text is None:
            return None
        catalog = dict.fromkeys(hardware_ids)
        items = tuple(dict.fromkeys(x.strip() for x in text.split(",") if x.strip()))
        good = _known(items, catalog, names=True)
        kept = good[:limit]
        if unread := [x for x in items if find_id(x, catalog) is None]:
            near = tuple(dict.fromkeys(i for x in unread for i in close_ids(x, catalog)))[:4]
            self.notices.append(Notice(key, sanitize(",".join(unread)), ",".join(kept) or "—", near=near))
        elif not items or len(kept) < len(good):  # an empty list: the default; past the limit: the first `limit`
            self.bad(key, ",".join(good[limit:]) or text, ",".join(kept) or "—")
        return kept or None

    def number(self, key: str, lo: float, hi: float, used: object, *, whole: bool = False) -> float | None:
        """The finite number from `lo` to `hi` (a whole one with `whole`); else None (a notice saying the range,
        unless absent)."""
        text = self.text(key)
        if text is None:
            return None
        x = _float(text)
        if math.isfinite(x) and lo <= x <= hi and (not whole or x == int(x)):
            return x
        self.notices.append(Notice(key, sanitize(text), str(used), lo=lo, hi=None if math.isinf(hi) else hi,
                                   whole=whole))  # fmt: skip
        return None


def _known(items: Sequence[str], allowed: Collection[str], names: bool = False) -> tuple[str, ...]:
    """The items that are among `allowed`, in order, once each (names: catalog ids, also as people write them, each
    read as its id: catalog.find_id)."""
    if not names:
        return tuple(x for x in items if x in allowed)
    catalog = dict.fromkeys(allowed)
    return tuple(dict.fromkeys(i for x in items if (i := find_id(x, catalog)) is not None))


# --------------------------------------------------------------------------------------------------- planner


@dataclass(frozen=True)
class PlannerInputs:
    """The Serving planner's own inputs as the URL carries them."""

    target: str = pl.DEFAULT_TARGET  # a key of TPOT_TARGETS_S or 'custom'
    custom_ms: float = 50.0
    ttft_ms: float = 0.0  # 0 = no TTFT target
    k: int = pl.DEFAULT_K
    acceptance: float = pl.DEFAULT_ACCEPT
    prefix_hit: float = pl.DEFAULT_HIT
    section: str = pl.SECTIONS[0]  # the open tab
    max_gpus: int | None = None  # the layout search's GPU budget; None: the chip's scale-up domain
    serving: str = pl.DEFAULT_SERVING  # the layout search's serving mode
    request_ttft_ms: float = 0.0  # the layout search's per-request TTFT target (continuous batching); 0 = none
    best_engine: bool = True  # the layout search under the best engine (layouts.best_engines), else the sidebar's
    chips: tuple[str, ...] | None = None  # the hardware x precision grid's chips; None: planner.default_table_chips


def parse_planner_query(
    params: Mapping[str, object], domain_gpus: int | None = None, hardware_ids: Collection[str] = ()
) -> tuple[PlannerInputs, list[Notice]]:
    """The planner's inputs from URL parameters; a bad value falls back to the default with a notice (the GPU
    budget's: `domain_gpus`, the chip's scale-up domain, named in the notice; the grid's chips: among
    `hardware_ids`, at most planner.MAX_TABLE_CHIPS)."""
    d, r = PlannerInputs(), QueryReader(params)
    values: dict[str, object] = {}
    used = f"{TPOT_TARGETS_S[pl.DEFAULT_TARGET] * 1e3:g}"
    if (x := r.number("planner_target_ms", pl.MIN_TARGET_MS, pl.MAX_TARGET_MS, used)) is not None:
        preset = next((k for k, v in TPOT_TARGETS_S.items() if abs(v * 1e3 - x) < 1e-9), None)
        values["target"] = preset or pl.CUSTOM
        values["custom_ms"] = x
    if (x := r.number("planner_ttft_ms", 0, pl.MAX_TTFT_MS, "0")) is not None:
        values["ttft_ms"] = x
    lo, hi = pl.K_RANGE
    if (x := r.number("spec_k", lo, hi, d.k, whole=True)) is not None:
        values["k"] = int(x)
    for key, name, top in (("spec_accept", "acceptance", pl.ACCEPT_MAX), ("prefix_hit", "prefix_hit", pl.HIT_MAX)):
        if (x := r.number(key, 0, top, getattr(d, name))) is not None:
            values[name] = round(x, 2)
    if (section := r.choice("planner_section", pl.SECTIONS, d.section)) is not None:
        values["section"] = section
    if (x := r.number("planner_max_gpus", 1, pl.MAX_BUDGET, domain_gpus or "—", whole=True)) is not None:
        values["max_gpus"] = int(x)
    if (serving := r.choice("planner_serving", pl.SERVING, d.serving)) is not None:
        values["serving"] = serving
    if (x := r.number("planner_request_ttft_ms", 0, pl.MAX_TTFT_MS, "0")) is not None:
        values["request_ttft_ms"] = x
    if (on := r.flag("planner_best_engine", d.best_engine)) is not None:
        values["best_engine"] = on
    if (chips := r.chips("planner_chips", hardware_ids, pl.MAX_TABLE_CHIPS)) is not None:
        values["chips"] = chips
    return PlannerInputs(**{**d.__dict__, **values}), r.notices


def planner_query(
    tpot_ms: float,
    ttft_ms: float,
    k: int,
    acceptance: float,
    prefix_hit: float,
    section: str,
    max_gpus: int | None = None,
    serving: str = pl.DEFAULT_SERVING,
    request_ttft_ms: float = 0.0,
    best_engine: bool = True,
    chips: Sequence[str] | None = None,
) -> dict[str, str]:
    """The planner's inputs as URL parameters (plain strings); the GPU budget and the layout search's per-request
    TTFT target only when set, its engine choice only when it is the sidebar's (planner_best_engine=0), the grid's
    chips only when chosen (None: the default set)."""
    out = {
        "planner_target_ms": f"{tpot_ms:g}",
        "planner_ttft_ms": f"{ttft_ms:g}",
        "spec_k": str(int(k)),
        "spec_accept": f"{acceptance:g}",
        "prefix_hit": f"{prefix_hit:g}",
        "planner_section": section,
        "planner_serving": serving,
    }
    if max_gpus is not None:
        out["planner_max_gpus"] = str(int(max_gpus))
    if request_ttft_ms:
        out["planner_request_ttft_ms"] = f"{request_ttft_ms:g}"
    if not best_engine:
        out["planner_best_engine"] = "0"
    if chips:
        out["planner_chips"] = ",".join(chips)
    return out


# --------------------------------------------------------------------------------------------------- frontier


@dataclass(frozen=True)
class FrontierInputs:
    """The Serving frontier's own inputs as the URL carries them."""

    io: str = "1k1k"
    hardware: tuple[str, ...] = fr.DEFAULT_HARDWARE
    precisions: tuple[str, ...] = ("fp8",)
    layouts: tuple[str, ...] = ("tp",)
    engine: str = "sglang"
    y: str = "output"
    # the Planner's, Cost's and Economics' default target (chat, 50 ms) in the page's unit: 20 tok/s per user (50
    # tok/s per user had read as the same '50' and answered another question: a review)
    target: float = round(1.0 / TPOT_TARGETS_S[pl.DEFAULT_TARGET], 6)
    tier: str = "hyperscaler"
    usd: float = 2.0
    mtp: bool = False
    k: int = MTP_K
    acceptance: float = MTP_ACCEPTANCE
    log: bool = True
    disagg: bool = False
    rack_chips: str = rack.GENERATION  # the rack-scale view's chips: a rack_scale.GENERATIONS key
    rack_gpus: int = rack.BUDGET_GPUS  # the rack-scale view's GPU budget
    rack_recipes: bool = False  # the rack-scale view within the measured recipes only (layouts.choose's recipes)
    rack_best_engine: bool = True  # the rack-scale view under the best engine (layouts.best_engines), else fr_engine


def parse_frontier_query(
    params: Mapping[str, object],
    hardware_ids: set[str],
    profile_ids: set[str],
    follows: Mapping[str, object] | None = None,
) -> tuple[FrontierInputs, list[Notice]]:
    """The frontier's inputs from URL parameters; a missing or bad value falls back to the default (`follows`: the
    sidebar's workload, engine and precision, frontier_follows) with a notice for a bad one."""
    d, r = replace(FrontierInputs(), **(follows or {})), QueryReader(params)
    values: dict[str, object] = {}

    def choice(key: str, name: str, allowed: Collection[str]) -> None:
        if (text := r.choice(key, allowed, getattr(d, name))) is not None:
            values[name] = text

    def flag(key: str, name: str) -> None:  # '0' / '1' in the link; the notice names the default as a link writes it
        if (on := r.flag(key, getattr(d, name))) is not None:
            values[name] = on

    def many(key: str, name: str, allowed: Collection[str], names: bool = False) -> None:
        if (text := r.text(key)) is not None:
            items = tuple(dict.fromkeys(x.strip() for x in text.split(",") if x.strip()))
            good = _known(items, allowed, names)
            if not good or len(good) != len(items):  # the notice quotes the items it could not read, not the list
                r.bad(key, ",".join(x for x in items if not _known((x,), allowed, names)) or text,
                      ",".join(good or getattr(d, name)))  # fmt: skip
            if good:
                values[name] = good

    def number(key: str, name: str, lo: float, hi: float, integer: bool = False) -> None:
        if (x := r.number(key, lo, hi, getattr(d, name), whole=integer)) is not None:
            values[name] = int(x) if integer else x

    choice("fr_io", "io", fr.IO_OPTIONS)
    many("fr_hw", "hardware", sorted(hardware_ids), names=True)
    many("fr_prec", "precisions", fr.PRECISIONS)
    many("fr_layout", "layouts", fr.LAYOUTS)
    choice("fr_engine", "engine", sorted(profile_ids))
    choice("fr_y", "y", fr.Y_METRICS)
    number("fr_target", "target", 1.0, fr.MAX_TARGET)
    choice("fr_tier", "tier", fr.TIERS)
    number("fr_usd", "usd", 0.01, fr.MAX_USD)
    flag("fr_mtp", "mtp")
    number("fr_k", "k", fr.K_RANGE[0], fr.K_RANGE[1], integer=True)
    number("fr_accept", "acceptance", 0.0, 0.99)
    flag("fr_log", "log")
    flag("fr_disagg", "disagg")
    choice("fr_rack_chips", "rack_chips", tuple(rack.GENERATIONS))
    number("fr_rack_gpus", "rack_gpus", 1, rack.MAX_BUDGET, integer=True)
    flag("fr_rack_recipes", "rack_recipes")
    flag("fr_rack_best_engine", "rack_best_engine")
    return FrontierInputs(**{**d.__dict__, **values}), r.notices


def frontier_precision(weights: str) -> str:
    """The frontier's precision column nearest a sidebar weight format: fp8 for 8-bit, fp4 for 4-bit block formats
    (NVFP4 / MXFP4, and int4), bf16 for 16-bit."""
    bits = parse_format(weights).bits
    return "bf16" if bits >= 16 else "fp8" if bits >= 8 else "fp4"


def frontier_follows(state: ScenarioState, profile_ids: Collection[str]) -> dict[str, object]:
    """What the Serving frontier takes from the sidebar unless changed on the page (issue 19: it read 1k/1k and
    SGLang while every other page read the sidebar): the workload ('custom': the sidebar's context and output),
    the engine profile, the weight precision, the chips (the sidebar's first, then the default comparison) and the
    rack-scale view's generation (the sidebar chip's: GB300 or B300 compares GB300 NVL72 with HGX B300). Keys are
    FrontierInputs fields; their URL parameters are left out of a link while they follow."""
    return {  # a chip of the reader's own file is not among the page's (its measured points and fits are catalog's)
        "hardware": tuple(h for h in dict.fromkeys((state.hardware, *fr.DEFAULT_HARDWARE)) if h != CUSTOM_ID),
        "rack_chips": rack.generation_of(state.hardware),
        "io": fr.CUSTOM,
        "engine": state.profile if state.profile in profile_ids else FrontierInputs.engine,
        "precisions": (frontier_precision(state.weights),),
    }


FOLLOW_PARAMS = {"hardware": "fr_hw", "io": "fr_io", "engine": "fr_engine", "precisions": "fr_prec",
                 "rack_chips": "fr_rack_chips"}  # fmt: skip


def frontier_query(p: FrontierInputs) -> dict[str, str]:
    """The frontier's inputs as URL parameters (plain strings)."""
    return {
        "fr_io": p.io,
        "fr_hw": ",".join(p.hardware),
        "fr_prec": ",".join(p.precisions),
        "fr_layout": ",".join(p.layouts),
        "fr_engine": p.engine,
        "fr_y": p.y,
        "fr_target": f"{p.target:g}",
        "fr_tier": p.tier,
        "fr_usd": f"{p.usd:g}",
        "fr_mtp": "1" if p.mtp else "0",
        "fr_k": str(int(p.k)),
        "fr_accept": f"{p.acceptance:g}",
        "fr_log": "1" if p.log else "0",
        "fr_disagg": "1" if p.disagg else "0",
        "fr_rack_chips": p.rack_chips,
        "fr_rack_gpus": str(int(p.rack_gpus)),
        "fr_rack_recipes": "1" if p.rack_recipes else "0",
        "fr_rack_best_engine": "1" if p.rack_best_engine else "0",
    }


# --------------------------------------------------------------------------------------------------- economics

ECONOMICS_MAX_CHIPS = 8
ECONOMICS_BUDGET_GPUS = 72  # the layout search's default budget: one NVL72 rack, as the rack-scale view's
ECONOMICS_REPLICAS = ("search", "tp")
ECONOMICS_COSTED = ("rented", "bought")  # the replicas' GPUs, as a cloud rents them; whole servers / racks (fleet)


@dataclass(frozen=True)
class EconomicsInputs:
    """The Economics page's own inputs as the URL carries them: the demand (tokens per day, or requests per day at
    the sidebar's lengths), the TPOT target, peak-to-average and utilisation, the chips compared (None: the sidebar's
    chip, then H200, B200 and MI355X), and the API prices (USD per 1M tokens) and cached share of the revenue."""

    by_requests: bool = False
    req: float = 100.0  # millions of requests per day
    out: float = 1000.0  # billions of output tokens per day
    inp: float = 4000.0  # billions of input tokens per day
    tpot: float = 50.0  # ms
    peak: float = 1.5
    util: float = 0.7
    chips: tuple[str, ...] | None = None
    api_in: float = 1.0
    api_out: float = 1.0
    api_cached: float = 0.1
    cached: float = 0.0
    # a replica: the layout search's deployment within max_gpus GPUs ('search': aggregated, wide-EP, disaggregated, as
    # the Serving frontier's rack-scale view) or tensor-parallel within one server or rack ('tp': the Planner's
    # served row)
    replicas: str = "search"
    max_gpus: int = ECONOMICS_BUDGET_GPUS
    costed: str = "rented"  # ECONOMICS_COSTED: 'bought' costs the whole servers or racks (Fleet.whole_domains)


# field: (URL parameter, lowest, highest) for the numbers (the widgets' own bounds)
ECONOMICS_NUMBERS = {
    "req": ("ec_req", 0.001, 1e6),
    "out": ("ec_out", 0.001, 1e6),
    "inp": ("ec_in", 0.0, 1e7),
    "tpot": ("ec_tpot_ms", 1.0, 10000.0),
    "peak": ("ec_peak", 1.0, 20.0),
    "util": ("ec_util", 0.05, 1.0),
    "api_in": ("ec_api_in", 0.0, 1000.0),
    "api_out": ("ec_api_out", 0.0, 1000.0),
    "api_cached": ("ec_api_cached", 0.0, 1000.0),
    "cached": ("ec_cached", 0.0, 1.0),
}
DEMAND_FORMS = ("tokens", "requests")


def parse_economics_query(
    params: Mapping[str, object], hardware_ids: Collection[str]
) -> tuple[EconomicsInputs, list[Notice]]:
    """The Economics page's inputs from URL parameters; a bad value falls back to the default with a notice (a chip
    list keeps its known ids, at most ECONOMICS_MAX_CHIPS)."""
    d, r = EconomicsInputs(), QueryReader(params)
    values: dict[str, object] = {}
    if (form := r.choice("ec_demand", DEMAND_FORMS, DEMAND_FORMS[int(d.by_requests)])) is not None:
        values["by_requests"] = form == "requests"
    for name, (key, lo, hi) in ECONOMICS_NUMBERS.items():
        if (x := r.number(key, lo, hi, f"{getattr(d, name):g}")) is not None:
            values[name] = x
    if (replicas := r.choice("ec_replicas", ECONOMICS_REPLICAS, d.replicas)) is not None:
        values["replicas"] = replicas
    if (x := r.number("ec_max_gpus", 1, MAX_BUDGET_GPUS, d.max_gpus, whole=True)) is not None:
        values["max_gpus"] = int(x)
    if (costed := r.choice("ec_costed", ECONOMICS_COSTED, d.costed)) is not None:
        values["costed"] = costed
    if (chips := r.chips("ec_chips", hardware_ids, ECONOMICS_MAX_CHIPS)) is not None:
        values["chips"] = chips
    return replace(d, **values), r.notices


def economics_query(p: EconomicsInputs) -> dict[str, str]:
    """The Economics page's inputs as URL parameters (plain strings; the chips only once chosen)."""
    out = {"ec_demand": DEMAND_FORMS[int(p.by_requests)]}
    out |= {key: _exact(getattr(p, name)) for name, (key, _, _) in ECONOMICS_NUMBERS.items()}
    out |= {"ec_replicas": p.replicas, "ec_max_gpus": str(int(p.max_gpus)), "ec_costed": p.costed}
    if p.chips is not None:
        out["ec_chips"] = ",".join(p.chips)
    return out


# The TCO built from parts and the revenue's rack, as their inputs hold them: input -> (URL parameter, lowest,
# highest). Preset per chip and price basis (economics.tco_preset), so a link carries only the inputs changed from
# the preset of the chip it opens on; the cost of capital in percent, as its input.
TCO_NUMBERS = {
    "capex_usd": ("ec_capex", 0.0, 5e6),
    "depreciation_years": ("ec_years", 1.0, 15.0),
    "cost_of_capital_pct": ("ec_capital_pct", 0.0, 50.0),
    "utilisation": ("ec_tco_util", 0.05, 1.0),
    "board_w": ("ec_board_w", 0.0, 20000.0),
    "host_network_w": ("ec_host_w", 0.0, 20000.0),
    "pue": ("ec_pue", 1.0, 3.0),
    "electricity_usd_per_kwh": ("ec_kwh", 0.0, 1.0),
    "gpus_per_rack": ("ec_rack", 1.0, 16384.0),
}


def parse_tco_query(params: Mapping[str, object]) -> tuple[dict[str, float], list[Notice]]:
    """The TCO inputs a link sets (TCO_NUMBERS: the others keep the chip's preset); a bad value gives a notice and
    the preset (GPUs per rack: a whole number)."""
    r, values = QueryReader(params), {}
    for name, (key, lo, hi) in TCO_NUMBERS.items():
        whole = name == "gpus_per_rack"
        if (x := r.number(key, lo, hi, "—", whole=whole)) is not None:
            values[name] = int(x) if whole else x
    return values, r.notices


def tco_query(values: Mapping[str, float], preset: Mapping[str, float]) -> dict[str, str]:
    """The TCO inputs that differ from the chip's preset as URL parameters (plain strings)."""
    return {TCO_NUMBERS[k][0]: _exact(v) for k, v in values.items() if not math.isclose(v, preset[k], rel_tol=1e-9)}


# --------------------------------------------------------------------------------------------------- compare

SIDES = ("b", "c")
SIDE_FIELDS = ("hardware", "gpus", "weights", "kv", "profile", "model", "batch", "context", "price")
SAME, AUTO = cmp.SAME, cmp.AUTO
SIDE_DEFAULTS: dict[str, dict[str, object]] = {
    "b": {"hardware": "mi300x", "gpus": AUTO, "weights": SAME, "kv": SAME, "profile": SAME},
    "c": {"hardware": "b200", "gpus": AUTO, "weights": SAME, "kv": SAME, "profile": SAME},
}  # B and C inherit A's formats unless changed: a chip comparison at the same precision
for _d in SIDE_DEFAULTS.values():
    _d.update({"model": SAME, "batch": SAME, "context": SAME, "price": None})
# a side's chip where its default is one already compared (C's B200 beside A's B200 had drawn A twice)
SIDE_CHIPS = ("mi300x", "b200", "h200", "mi355x", "gb200", "h100-sxm")


def parse_side_query(
    params: Mapping[str, object],
    side: str,
    model_ids: set[str],
    hardware_ids: set[str],
    profile_ids: set[str],
    taken: Collection[str] = (),
) -> tuple[dict[str, object], list[Notice]]:
    """Compare scenario `side`'s choices from URL parameters <side>_hardware, <side>_gpus, ... (validated).

    Missing parameters give the defaults (the chip: the first of SIDE_CHIPS not `taken` by the sides before it where
    the side's default is); an invalid one gives the default (or the nearest valid number) and a Notice naming the
    parameter, the sanitised value given and the value used."""
    values = dict(SIDE_DEFAULTS[side])
    if values["hardware"] in taken:
        values["hardware"] = next((h for h in SIDE_CHIPS if h not in taken), values["hardware"])
    r = QueryReader(params)
    choices = {
        "hardware": hardware_ids,
        "weights": {SAME, *WEIGHT_OPTIONS},
        "kv": {SAME, *KV_OPTIONS},
        "profile": {SAME, *profile_ids},
        "model": {SAME, *model_ids},
    }
    for name, allowed in choices.items():
        if (text := r.choice(f"{side}_{name}", allowed, values[name], names=name in ("hardware", "model"))) is not None:
            values[name] = text
    numeric = {"gpus": (AUTO, GPU_OPTIONS), "batch": (SAME, BATCH_OPTIONS), "context": (SAME, CONTEXT_OPTIONS)}
    for name, (sentinel, options) in numeric.items():
        key = f"{side}_{name}"
        if r.text(key) == sentinel:
            values[name] = sentinel
        elif (x := r.number(key, min(options), math.inf, values[name])) is not None:
            values[name] = nearest(options, x)
            if values[name] != x:  # between two options: the nearest one, said
                r.bad(key, r.text(key), values[name])
    # an empty price is the catalog's
    if r.text(f"{side}_price") and (p := r.number(f"{side}_price", 0, MAX_USD_PER_GPU_HOUR, "—")) is not None:
        values["price"] = p
    return values, r.notices


def side_query(values: Mapping[str, object], side: str) -> dict[str, str]:
    """The URL form of a side's choices: <side>_<field> for every field that is set (not 'same as A' / empty)."""
    out = {}
    for name in SIDE_FIELDS:
        v = values.get(name)
        if v is None or v == SAME:
            continue
        out[f"{side}_{name}"] = f"{v:g}" if isinstance(v, float) else str(v)
    return out


def side_state(
    a: ScenarioState, values: Mapping[str, object], gpus: int | None = None, fp4: str | None = None
) -> ScenarioState:
    """Scenario B or C as a ScenarioState: its own hardware and GPUs; formats, model, batch, context and profile
    from A where set to SAME; compute precision from its own weight format; price its own, whatever A's price basis
    (None: the catalog's under A's basis). A's NVFP4, NVIDIA's own block FP4, is inherited as `fp4`, the side's chip's
    own block format (precision.native_fp4: MXFP4 on AMD; a MI300X beside A's B200 had read 'nvfp4 weights'); MXFP4,
    the OCP format every FP4 chip runs, as A's.
    gpus replaces an AUTO GPU count (1 until the caller knows the minimum)."""

    def own(name: str) -> object:
        v = values[name]
        if v != SAME:
            return v
        inherited = getattr(a, name)
        return fp4 if fp4 and name in ("weights", "kv") and inherited == "nvfp4" else inherited

    n = values["gpus"]
    return a.with_(
        hardware=values["hardware"],
        gpus=int(gpus if n == AUTO and gpus is not None else (1 if n == AUTO else n)),
        weights=own("weights"),
        kv=own("kv"),
        compute="auto",
        profile=own("profile"),
        model=own("model"),
        batch=int(own("batch")),
        context=int(own("context")),
        price=values["price"],
        price_basis=a.price_basis if values["price"] is None else CUSTOM_BASIS,
    )


# --------------------------------------------------------------------------------------------------- view controls

# A view control of a page that keeps no other inputs of its own (a chart's axis, what a heat map shows, the chips
# overlaid): its widget's session key -> (URL parameter, kind). Kinds: 'choice' (one of its options), 'items' (a
# comma list of its options, '' for none), 'flag' ('1' / '0') or 'text' (free, at most VIEW_TEXT_MAX characters).
VIEW_CONTROLS: dict[str, tuple[str, str]] = {
    "roofline.overlay": ("roof_overlay", "items"),
    "breakdown.heatmap_metric": ("bd_heatmap", "choice"),
    "kv_cache.x_scale": ("kv_x_scale", "choice"),
    "kv_cache.composition": ("kv_composition", "choice"),
    "cost.sweep": ("ce_sweep", "choice"),
    "cost.cost_unit": ("ce_unit", "choice"),
    "cost.target": ("ce_target", "choice"),
    "cost.heatmap_metric": ("ce_heatmap", "choice"),
    "hardware.vendors": ("hw_vendors", "items"),
    "hardware.log_x": ("hw_log_x", "flag"),
    "validation.metric": ("val_metric", "choice"),
    "validation.engines": ("val_engines", "items"),
    "validation.include_all": ("val_all", "flag"),
    "validation.mlperf_group": ("val_mlperf_group", "choice"),
    "glossary.search": ("gl_q", "text"),
}
VIEW_TEXT_MAX = 80


@dataclass(frozen=True)
class ViewControl:
    """One view control as its link carries it: its session key (a key of VIEW_CONTROLS), the values it takes (a
    choice's, or each item's) and its default (a list for 'items', a bool for 'flag')."""

    key: str
    options: tuple[str, ...] = ()
    default: object = None

    @property
    def param(self) -> str:
        return VIEW_CONTROLS[self.key][0]

    @property
    def kind(self) -> str:
        return VIEW_CONTROLS[self.key][1]


NO_ID = "-"  # an item with no id of its own (Validation's rows of no engine profile) as a link writes it


def parse_view(params: Mapping[str, object], control: ViewControl) -> tuple[object | None, list[Notice]]:
    """A view control's value from URL parameters (None when absent or bad: a bad one gives a notice naming what is
    used). A list keeps its known items (in any letter case), in order, once each, and names the others; none known:
    the default. A text past VIEW_TEXT_MAX characters is cut there, said."""
    r = QueryReader(params)
    shown_default = _view_text(control, control.default) or "—"
    if control.kind == "choice":
        return r.choice(control.param, control.options, shown_default), r.notices
    if control.kind == "flag":
        return r.flag(control.param, bool(control.default)), r.notices
    text = r.text(control.param)
    if text is None:
        return None, r.notices
    if control.kind == "text":
        if len(text) > VIEW_TEXT_MAX:
            r.bad(control.param, text, text[:VIEW_TEXT_MAX])
        return text[:VIEW_TEXT_MAX], r.notices
    known = {str(o).casefold(): o for o in control.options} | ({NO_ID: ""} if "" in control.options else {})
    items = tuple(dict.fromkeys(x.strip() for x in text.split(",") if x.strip()))
    good = list(dict.fromkeys(known[x.casefold()] for x in items if x.casefold() in known))
    unknown = [x for x in items if x.casefold() not in known]
    if items and not good:  # nothing to show of it: the default, said
        r.bad(control.param, ",".join(unknown), shown_default)
        return None, r.notices
    if unknown:
        r.bad(control.param, ",".join(unknown), _view_text(control, good))
    return good, r.notices


def view_value(control: ViewControl, value: object) -> object:
    """`value` where the control takes it, else its default (a list: its items among the options; none held: the
    default)."""
    if control.kind == "items":
        return [v for v in (value if isinstance(value, list) else control.default or ()) if v in control.options]
    ok = {"choice": value in control.options, "flag": isinstance(value, bool), "text": isinstance(value, str)}
    return value if ok[control.kind] else control.default


def _view_text(control: ViewControl, value: object) -> str:
    """A view control's value as its URL parameter writes it (a list's item of no id as NO_ID)."""
    if control.kind == "flag":
        return "1" if value else "0"
    if control.kind == "items":
        return ",".join(str(v) or NO_ID for v in value or ())
    return "" if value is None else str(value)


def view_query(control: ViewControl, value: object) -> dict[str, str]:
    """A view control's URL parameter: none at its default (a list: the same items in any order; a link without
    it opens the default)."""
    if control.kind == "items":
        same = sorted(map(str, value or ())) == sorted(map(str, control.default or ()))
    else:
        same = value == control.default
    return {} if same else {control.param: _view_text(control, value)}


# --------------------------------------------------------------------------------------------------- any page


@functools.cache
def params_by_page() -> dict[str, frozenset[str]]:
    """Each page's own URL parameters (page file name -> them), as the pages' query writers spell them (Planner,
    Serving frontier, Economics, Compare's sides B and C) and the view controls of the others."""
    planner = planner_query(50.0, 1.0, 1, 0.5, 0.1, pl.SECTIONS[0], 8, pl.DEFAULT_SERVING, 1.0, best_engine=False,
                            chips=("h200",))  # fmt: skip
    economics = {*economics_query(EconomicsInputs(chips=("h200",))), *(k for k, _, _ in TCO_NUMBERS.values())}
    out = {
        "planner": frozenset(planner),
        "frontier": frozenset(frontier_query(FrontierInputs())),
        "economics": frozenset(economics),
        "compare": frozenset(f"{side}_{name}" for side in SIDES for name in SIDE_FIELDS),
    }
    for key, (param, _) in VIEW_CONTROLS.items():  # a view control's session key starts with its page's name
        page = key.split(".")[0]
        out[page] = out.get(page, frozenset()) | {param}
    return out


@functools.cache
def page_params() -> frozenset[str]:
    """Every page's own URL parameters (params_by_page)."""
    return frozenset().union(*params_by_page().values())


# the same input on two pages, by its parameters: a name meant for one page's, given on the other's, names this one's
# (max_gpus on the Serving frontier: fr_rack_gpus, not the Planner's planner_max_gpus)
SAME_INPUT = (
    ("planner_max_gpus", "fr_rack_gpus"),
    ("ec_max_gpus", "fr_rack_gpus"),
    ("planner_best_engine", "fr_rack_best_engine"),
    ("spec_k", "fr_k"),
    ("spec_accept", "fr_accept"),
)


def unknown_params(params: Mapping[str, object], known: Collection[str], page: str | None = None) -> list[Notice]:
    """A Notice for each URL parameter not in `known` (no page reads it: a typo, or a name from elsewhere), naming
    the one it is likely meant for among those `page` (a page file's name; None: any page) and the sidebar read:
    the one it is the end of ('max_gpus' -> 'planner_max_gpus' on the Planner), another page's such one's
    counterpart here (SAME_INPUT: 'fr_rack_gpus' on the Serving frontier), else the nearest by spelling ('gpu' ->
    'gpus'; '' without one). The name shown keeps letters, digits, '_' and '-' only."""
    others = set().union(*(v for p, v in params_by_page().items() if p != page)) if page is not None else set()
    here = sorted(set(known) - others)
    twin: dict[str, list[str]] = {}  # each parameter's counterparts on other pages
    for a, b in SAME_INPUT:
        twin.setdefault(a, []).append(b)
        twin.setdefault(b, []).append(a)
    out = []
    for key, value in params.items():
        if key in known:
            continue
        ends = [k for k in here if k.endswith("_" + key)]
        ours = [t for k in sorted(known) if k.endswith("_" + key) for t in twin.get(k, ()) if t in here]
        if len(ends) != 1 and len(elsewhere := list(dict.fromkeys(ours))) == 1:
            ends = elsewhere
        near = ends[:1] if len(ends) == 1 else difflib.get_close_matches(key, here, n=1, cutoff=0.6)
        name = "".join(ch for ch in key if ch.isascii() and (ch.isalnum() or ch in "_-"))[:40] or "?"
        out.append(Notice(name, sanitize(last(value)), near[0] if near else "", unknown=True))
    return out
