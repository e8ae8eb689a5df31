"""Economics: the one $ per 1M tokens formula and which price applies (price_for), tokens per MW and per GW-year,
TCO from its parts (capex, financing, all-in power, electricity, utilisation) and token revenue and margin. USD, W,
J, seconds; per GPU unless a name says otherwise."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from .catalog import Hardware
from .prices import BASES, CUSTOM, OWNING_BASES, PricePoint
from .scenario import Scenario
from .units import hour_s

YEAR_S = 365.25 * 24 * hour_s  # a Julian year
HOURS_PER_YEAR = YEAR_S / hour_s  # 8,766


def usd_per_1M_tokens(usd_per_gpu_hour, tokens_per_s_per_gpu) -> np.ndarray:
    """$ per million tokens = $/GPU-hour x 1e6 / (tokens/s per GPU x 3600) (InferenceX's formula); nan without a
    price."""
    return np.asarray(usd_per_gpu_hour, dtype=float) * 1e6 / (np.asarray(tokens_per_s_per_gpu, dtype=float) * hour_s)


def tokens_per_s_per_mw(tokens_per_s_per_gpu, all_in_w_per_gpu) -> np.ndarray:
    """Tokens/s per MW of all-in power (GPU, its share of the server, networking, cooling): tok/s/GPU x 1e6 / W."""
    return np.asarray(tokens_per_s_per_gpu, dtype=float) * 1e6 / np.asarray(all_in_w_per_gpu, dtype=float)


def price_for(hw: Hardware, s: Scenario) -> PricePoint:
    """The $/GPU-hour a scenario uses: the user's own (basis "custom") when given, else the chip's price under
    s.price_basis; usd_per_gpu_hour is nan when there is none (no public price under that basis)."""
    if s.price_usd_per_gpu_hour is not None:
        return PricePoint(float(s.price_usd_per_gpu_hour), CUSTOM)
    found = published_price(hw, s.price_basis)
    return found if found is not None else PricePoint(math.nan, s.price_basis)


def published_price(hw: Hardware, basis: str) -> PricePoint | None:
    """The chip's published $/GPU-hour under one basis (a user's file's own price_usd_per_hour is its on-demand
    one), None when there is none."""
    found = hw.prices.price(basis)
    if found is None and basis == "on_demand" and hw.price_usd_per_hour is not None:
        found = PricePoint(float(hw.price_usd_per_hour), "on_demand", "", f"{hw.name}: its own price_usd_per_hour")
    return found


def priced_bases(hw: Hardware, *, besides: str | None = None) -> tuple[str, ...]:
    """The published bases that price this chip, in BASES order (`besides`: that basis left out): the one owner of
    which bases a page or the CLI may point to when the chosen one has no price; () when none does."""
    return tuple(b for b in BASES if b != besides and published_price(hw, b) is not None)


def priced_for(hw: Hardware, s: Scenario, price_applies_to: str | None) -> Scenario:
    """The scenario a chip is priced under among several: a $/GPU-hour of one's own (basis "custom") is the price of
    the chip it was entered for (`price_applies_to`; None: every chip) alone, the others have none under it."""
    if price_applies_to is None or hw.id == price_applies_to or s.price_usd_per_gpu_hour is None:
        return s
    return replace(s, price_usd_per_gpu_hour=None)


def owning_basis(price_basis: str) -> str:
    """The TCO tier a chip's capex is solved from (tco_preset): the scenario's basis where it is one of owning
    (neocloud, hyperscaler), else hyperscaler."""
    return price_basis if price_basis in OWNING_BASES else "hyperscaler"


def tokens_per_gw_year(tokens_per_s_per_gpu, all_in_w_per_gpu) -> np.ndarray:
    """Tokens a GW of all-in power serves in a year at this rate: tokens/s per MW x 1000 x seconds per year."""
    return tokens_per_s_per_mw(tokens_per_s_per_gpu, all_in_w_per_gpu) * 1e3 * YEAR_S


# ------------------------------------------------------------------------------------------------ TCO from parts


@dataclass(frozen=True)
class TcoParts:
    """What owning one GPU costs, in parts. capex_usd: system capex per GPU (accelerator, its share of the server
    and of the network); depreciation over depreciation_years at cost_of_capital (annual rate, a fraction);
    power: board_w + host_network_w (its share of the host and network), times PUE (cooling, power delivery);
    electricity_usd_per_kwh; utilisation: the fraction of hours that serve (a fraction in (0, 1])."""

    capex_usd: float
    depreciation_years: float = 5.0
    cost_of_capital: float = 0.10
    board_w: float = 1000.0
    host_network_w: float = 300.0
    pue: float = 1.25
    electricity_usd_per_kwh: float = 0.08
    utilisation: float = 1.0

    def __post_init__(self) -> None:
        checks = {
            "capex_usd": self.capex_usd >= 0,
            "depreciation_years": self.depreciation_years > 0,
            "cost_of_capital": 0 <= self.cost_of_capital < 1,
            "board_w": self.board_w >= 0,
            "host_network_w": self.host_network_w >= 0,
            "pue": self.pue >= 1,
            "electricity_usd_per_kwh": self.electricity_usd_per_kwh >= 0,
            "utilisation": 0 < self.utilisation <= 1,
        }
        for name, ok in checks.items():
            value = getattr(self, name)
            if not (math.isfinite(value) and ok):
                raise ValueError(f"{name}: out of range, got {value!r}")

    @property
    def all_in_w(self) -> float:
        """All-in power per GPU: (board + host and network share) x PUE."""
        return (self.board_w + self.host_network_w) * self.pue


def capital_recovery_factor(rate: float, years: float) -> float:
    """Annual payment per $ of capex repaid over `years` at `rate` (an annuity; 1 / years at rate 0)."""
    return 1.0 / years if rate == 0 else rate / (1.0 - (1.0 + rate) ** -years)


@dataclass(frozen=True)
class TcoBreakdown:
    """$ per GPU-hour served, by part: capital (depreciation and financing) and energy; total = their sum."""

    capital_usd_per_gpu_hour: float
    energy_usd_per_gpu_hour: float
    all_in_w: float

    @property
    def usd_per_gpu_hour(self) -> float:
        return self.capital_usd_per_gpu_hour + self.energy_usd_per_gpu_hour


def tco(parts: TcoParts) -> TcoBreakdown:
    """$/GPU-hour from its parts: (capex x capital recovery factor + all-in kW x 8,766 h x $/kWh) per year, over the
    hours that serve (8,766 x utilisation). Energy is paid for every hour (a conservative choice: idle GPUs draw)."""
    served_h = HOURS_PER_YEAR * parts.utilisation
    capital = parts.capex_usd * capital_recovery_factor(parts.cost_of_capital, parts.depreciation_years) / served_h
    energy = parts.all_in_w / 1e3 * HOURS_PER_YEAR * parts.electricity_usd_per_kwh / served_h
    return TcoBreakdown(capital, energy, parts.all_in_w)


def tco_preset(
    usd_per_gpu_hour: float, all_in_w: float, board_w: float | None, base: TcoParts | None = None
) -> TcoParts:
    """The parts that reproduce a published TCO tier: the default financing, PUE and electricity (or `base`'s), the
    published all-in power split into board power (TDP) and the rest, and the capex the tier implies (solved)."""
    base = base or TcoParts(capex_usd=0.0)
    board = float(board_w) if board_w is not None and math.isfinite(board_w) else all_in_w / base.pue
    parts = replace(base, board_w=board, host_network_w=max(all_in_w / base.pue - board, 0.0), utilisation=1.0)
    energy = tco(parts).energy_usd_per_gpu_hour
    crf = capital_recovery_factor(parts.cost_of_capital, parts.depreciation_years)
    capex = max(usd_per_gpu_hour - energy, 0.0) * HOURS_PER_YEAR / crf
    return replace(parts, capex_usd=capex)


# ------------------------------------------------------------------------------------------------ revenue


@dataclass(frozen=True)
class ApiPrice:
    """What a token sells for: USD per 1M input, output and cached-input tokens (InferenceX's normalised default is
    $1 per 1M input + output; cached input at a tenth of input)."""

    input_usd_per_1M: float = 1.0
    output_usd_per_1M: float = 1.0
    cached_input_usd_per_1M: float = 0.1

    def __post_init__(self) -> None:
        for name in ("input_usd_per_1M", "output_usd_per_1M", "cached_input_usd_per_1M"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value >= 0):
                raise ValueError(f"{name}: must be a non-negative number, got {value!r}")


@dataclass(frozen=True)
class Revenue:
    """Token revenue of one GPU against its cost: per GPU-hour, per MW-hour of all-in power, per rack-hour."""

    revenue_usd_per_gpu_hour: float
    cost_usd_per_gpu_hour: float
    all_in_w: float  # nan when unpublished
    gpus_per_rack: float

    @property
    def margin_usd_per_gpu_hour(self) -> float:
        return self.revenue_usd_per_gpu_hour - self.cost_usd_per_gpu_hour

    @property
    def gross_margin_fraction(self) -> float:
        """(revenue - cost) / revenue: the same per token as per GPU-hour."""
        r = self.revenue_usd_per_gpu_hour
        return self.margin_usd_per_gpu_hour / r if r > 0 else math.nan

    @property
    def revenue_usd_per_mw_hour(self) -> float:
        return self.revenue_usd_per_gpu_hour * 1e6 / self.all_in_w

    @property
    def margin_usd_per_mw_hour(self) -> float:
        return self.margin_usd_per_gpu_hour * 1e6 / self.all_in_w

    @property
    def revenue_usd_per_rack_hour(self) -> float:
        return self.revenue_usd_per_gpu_hour * self.gpus_per_rack


def payback_months(revenue_usd_per_gpu_hour: float, parts: TcoParts) -> float:
    """Months for an owner's token revenue, net of the energy it draws, to repay its system capex: capex / ((revenue
    - energy) per served hour x the hours a month serves at the parts' utilisation); nan with no net revenue. An
    owner's measure, whatever price basis a margin is read against (a rental price, or a TCO that already recovers
    the capex, counted the capex twice)."""
    b = tco(parts)
    net = revenue_usd_per_gpu_hour - b.energy_usd_per_gpu_hour
    served_hours_per_month = HOURS_PER_YEAR * parts.utilisation / 12
    return parts.capex_usd / (net * served_hours_per_month) if net > 0 else math.nan


def revenue(
    output_tokens_per_s_per_gpu: float,
    input_tokens_per_output_token: float,
    api: ApiPrice,
    cost_usd_per_gpu_hour: float,
    *,
    cached_input_fraction: float = 0.0,
    all_in_w: float = math.nan,
    gpus_per_rack: float = 8,
) -> Revenue:
    """Token revenue per GPU-hour: output tokens/s x 3600 x (output price + input tokens per output token x (uncached
    x input price + cached x cached-input price)) / 1e6, at the GPU's cost per hour under the chosen basis."""
    if not 0 <= cached_input_fraction <= 1:
        raise ValueError(f"cached_input_fraction must be in [0, 1], got {cached_input_fraction!r}")
    per_output = api.output_usd_per_1M + input_tokens_per_output_token * (
        (1 - cached_input_fraction) * api.input_usd_per_1M + cached_input_fraction * api.cached_input_usd_per_1M
    )
    per_hour = output_tokens_per_s_per_gpu * hour_s * per_output / 1e6
    return Revenue(per_hour, cost_usd_per_gpu_hour, all_in_w, gpus_per_rack)
