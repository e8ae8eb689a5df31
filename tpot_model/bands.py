"""Calibration bands: the 80% interval every estimate carries, read from data/bands.json (written by `calibrate`,
never typed in).

The band rests on cross-validation residuals, grouped by what calibration had seen for the scenario (LEVELS):

- ``same_family``: the engine has measurements on another chip of the scenario's chip family (engines.CHIP_FAMILIES);
  residuals of leave-one-device-out predictions whose family kept other measured devices;
- ``other_family``: the engine is measured, but not on this family; residuals of leave-one-chip-family-out (and
  leave-one-device-out predictions of a device alone in its family);
- ``unmeasured``: the engine (or the chip: a user's file) has no measurements; residuals of predictions made with
  no fit on the engine's own data (typical, documented values, the pooled serving base). The widest.

A residual is log(measured / predicted), of TPOT and of throughput separately; a level's band is their 10th and
90th percentiles as factors on the estimate: tpot_low = tpot x tpot_low_factor, and so on. The ideal profile has no
band: it is a physical bound, not a prediction. Factors are scalars per estimate, so a band costs two
multiplications per array and sweeps stay vectorised.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .engines import CHIP_FAMILIES, chip_family
from .files import DATA_DIR, CatalogError

BANDS_PATH = DATA_DIR / "bands.json"
LEVELS = ("same_family", "other_family", "unmeasured")
QUANTILES = (0.1, 0.9)  # the band: 80% of held-out residuals
_FACTORS = ("tpot_low_factor", "tpot_high_factor", "throughput_low_factor", "throughput_high_factor")
_LEVEL_WORDS = {
    "same_family": "measured on this chip family",
    "other_family": "measured on other chip families only",
    "unmeasured": "no measurements of this engine or chip",
}


@dataclass(frozen=True)
class Band:
    """An 80% interval as factors on the estimate (nan: no band), the level it comes from and its basis in words."""

    level: str  # one of LEVELS; "bound" for the ideal profile; "unavailable" without data/bands.json
    tpot_low_factor: float = math.nan
    tpot_high_factor: float = math.nan
    throughput_low_factor: float = math.nan
    throughput_high_factor: float = math.nan
    n: int = 0  # held-out residuals behind it
    coverage: float = math.nan  # share of held-out measurements its own cross-validation kept inside the band
    engine: str = ""
    family: str = ""  # the chip family id ('' when the chip is outside every family)
    basis: str = ""  # what the band rests on, in words (English; the UI words it from level, engine, family)

    @property
    def has_band(self) -> bool:
        return self.level in LEVELS


NO_BAND_IDEAL = Band(
    level="bound", basis="ideal roofline: a physical bound (100% of peak, no overheads), not a prediction: no band"
)


def _number(where: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 or not math.isfinite(value):
        raise CatalogError(f"{where}: expected a positive number, got {value!r}")
    return float(value)


@lru_cache(maxsize=4)
def load_bands(path: str | Path = BANDS_PATH) -> dict:
    """data/bands.json, validated: {"levels": {level: factors, n, coverage, ...}, "seen": {engine: [family, ...]}};
    an empty dict when the file does not exist (no calibration yet: estimates carry no band)."""
    p = Path(path)
    if not p.exists():
        return {}
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise CatalogError(f"{p}: cannot read ({e})") from None
    levels = data.get("levels") if isinstance(data, dict) else None
    if not isinstance(levels, dict) or set(levels) != set(LEVELS):
        raise CatalogError(f"{p}: 'levels' must hold exactly {', '.join(LEVELS)}")
    for level, entry in levels.items():
        for key in _FACTORS:
            _number(f"{p}: levels.{level}.{key}", entry.get(key) if isinstance(entry, dict) else None)
    seen = data.get("seen", {})
    if not isinstance(seen, dict) or not all(isinstance(v, list) for v in seen.values()):
        raise CatalogError(f"{p}: 'seen' must map engine ids to lists of chip families")
    return data


def level_for(profile_id: str, hardware_id: str, seen: dict[str, list[str]]) -> str:
    """Which residual group applies to an engine profile on a chip (see LEVELS)."""
    families = seen.get(profile_id, [])
    family = chip_family(hardware_id)
    if not families or family is None:
        return "unmeasured"
    return "same_family" if family in families else "other_family"


def band_for(profile_id: str, hardware_id: str, *, ideal: bool = False, path: str | Path = BANDS_PATH) -> Band:
    """The band of an estimate with this profile on this chip (catalog id; a user's file: its own id, no family)."""
    if ideal:
        return NO_BAND_IDEAL
    data = load_bands(path)
    if not data:
        return Band(level="unavailable", basis="no calibration bands yet (run `python -m tpot_model calibrate`)")
    level = level_for(profile_id, hardware_id, data.get("seen", {}))
    entry = data["levels"][level]
    family = chip_family(hardware_id) or ""
    family_name = CHIP_FAMILIES[family][0] if family else "a chip outside the catalog's families"
    lo, hi = entry["tpot_low_factor"], entry["tpot_high_factor"]
    basis = (
        f"{profile_id} on {family_name}: {_LEVEL_WORDS[level]}; 80% of {entry.get('n', 0)} held-out measurements "
        f"at this level were within {lo - 1:+.0%} to {hi - 1:+.0%} of the model's TPOT"
    )
    return Band(
        level=level,
        tpot_low_factor=lo,
        tpot_high_factor=hi,
        throughput_low_factor=entry["throughput_low_factor"],
        throughput_high_factor=entry["throughput_high_factor"],
        n=int(entry.get("n", 0)),
        coverage=float(entry.get("coverage", math.nan)),
        engine=profile_id,
        family=family,
        basis=basis,
    )
