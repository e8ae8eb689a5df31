"""The price table (data/prices.yaml): $ per GPU-hour of each chip under each price basis, with its date and
source; all-in power per GPU; published capital cost per GPU. USD, W.

A price basis says what a $/GPU-hour means: an on-demand cloud price, a neocloud's or a hyperscaler's total cost of
owning the GPU, a 3-year rental, or the user's own figure ("custom", not in the table)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from .files import DATA_DIR, CatalogError, read_structured_file

PRICES_PATH = DATA_DIR / "prices.yaml"
BASES = ("on_demand", "neocloud", "hyperscaler", "rental_3yr")  # the published bases, in the table
CUSTOM = "custom"  # the user's own $/GPU-hour
PRICE_BASES = (*BASES, CUSTOM)
DEFAULT_BASIS = "on_demand"  # the catalog's price before bases existed: existing links and numbers stay the same
MAX_USD_PER_GPU_HOUR = 1000.0  # the most a price input takes (the dearest published rate is a few tens of dollars)
OWNING_BASES = ("neocloud", "hyperscaler")  # total cost of ownership: what TCO from parts reproduces


def basis_for_price(basis: str | None, price: float | None, *, price_name: str = "--price") -> str:
    """The price basis a scenario runs on: 'custom' with a $/GPU-hour of one's own (the price implies it), else `basis`
    (None: not named, DEFAULT_BASIS). ValueError for 'custom' without a price, or a price beside another basis named
    (one of the two would be ignored)."""
    if price is not None:
        if basis not in (None, CUSTOM):
            raise ValueError(
                f"{price_name} is a price of your own (basis custom) and {basis!r} the catalog's: give one"
            )
        return CUSTOM
    if basis == CUSTOM:
        how = f"{price_name} USD_PER_GPU_HOUR" if price_name.startswith("--") else f"a {price_name} value"
        raise ValueError(f"basis custom needs a price of your own ({how})")
    return DEFAULT_BASIS if basis is None else basis


@dataclass(frozen=True)
class PricePoint:
    """One $/GPU-hour under one basis, with the date it held and where it comes from."""

    usd_per_gpu_hour: float
    basis: str
    as_of: str = ""
    source: str = ""


@dataclass(frozen=True)
class ChipPrices:
    """A chip's prices by basis, its all-in power per GPU (W, nan when unpublished) and a published capex per GPU."""

    usd_per_gpu_hour: dict[str, PricePoint] = field(default_factory=dict)
    all_in_w: float = math.nan
    all_in_source: str = ""
    capex: PricePoint | None = None  # basis "capex": USD per GPU, not per hour

    def price(self, basis: str) -> PricePoint | None:
        """The price under a published basis, None when there is none."""
        return self.usd_per_gpu_hour.get(basis)


NO_PRICES = ChipPrices()


def _source(where: str, value: object, sources: dict[str, str]) -> str:
    if not isinstance(value, str) or not value.strip():
        raise CatalogError(f"{where}: 'source' must be a non-empty text")
    key = value.split(":", 1)[0].strip()
    return f"{value} ({sources[key]})" if key in sources and value.strip() == key else value


def _positive(where: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise CatalogError(f"{where}: must be a positive number, got {value!r}")
    return float(value)


def _point(where: str, e: object, basis: str, unit_key: str, sources: dict[str, str]) -> PricePoint:
    if not isinstance(e, dict) or set(e) != {unit_key, "as_of", "source"}:
        raise CatalogError(f"{where}: expected keys {unit_key}, as_of, source")
    if not isinstance(e["as_of"], str) or not e["as_of"].strip():
        raise CatalogError(f"{where}: 'as_of' must be a date as text, e.g. \"2026-09-20\"")
    return PricePoint(
        _positive(f"{where}: {unit_key}", e[unit_key]), basis, e["as_of"], _source(where, e["source"], sources)
    )


SOURCES = {
    "IX-SEP": "SemiAnalysis AI Cloud TCO model via InferenceX-app gpu-keys.ts @ e41635b, retrieved 2026-09-20",
    "IX-AUG": "SemiAnalysis AI Cloud TCO model via InferenceX-app gpu-keys.ts, April-August 2026",
}


@lru_cache(maxsize=4)
def load_prices(path: str | Path = PRICES_PATH) -> dict[str, ChipPrices]:
    """data/prices.yaml: hardware id -> ChipPrices (kW in the file, W here). Errors name the file, chip and key."""
    data = read_structured_file(path)
    if not isinstance(data, dict) or set(data) != {"hardware"} or not isinstance(data["hardware"], dict):
        raise CatalogError(f"{path}: expected a mapping with one key 'hardware' (id -> entry)")
    out = {}
    for hw_id, e in data["hardware"].items():
        where = f"{path}: entry {hw_id!r}"
        if not isinstance(e, dict) or not set(e) <= {"usd_per_gpu_hour", "all_in_kW_per_gpu", "capex_usd_per_gpu"}:
            raise CatalogError(f"{where}: expected keys among usd_per_gpu_hour, all_in_kW_per_gpu, capex_usd_per_gpu")
        prices = e.get("usd_per_gpu_hour") or {}
        if not isinstance(prices, dict) or not set(prices) <= set(BASES):
            raise CatalogError(f"{where}: usd_per_gpu_hour: bases must be among {', '.join(BASES)}")
        points = {b: _point(f"{where}: usd_per_gpu_hour.{b}", v, b, "usd", SOURCES) for b, v in prices.items()}
        all_in_w, all_in_source = math.nan, ""
        if "all_in_kW_per_gpu" in e:
            p = e["all_in_kW_per_gpu"]
            if not isinstance(p, dict) or set(p) != {"kW", "source"}:
                raise CatalogError(f"{where}: all_in_kW_per_gpu: expected keys kW, source")
            all_in_w = _positive(f"{where}: all_in_kW_per_gpu.kW", p["kW"]) * 1e3
            all_in_source = _source(f"{where}: all_in_kW_per_gpu", p["source"], SOURCES)
        capex = e.get("capex_usd_per_gpu")
        capex = None if capex is None else _point(f"{where}: capex_usd_per_gpu", capex, "capex", "usd", SOURCES)
        out[str(hw_id)] = ChipPrices(points, all_in_w, all_in_source, capex)
    return out
