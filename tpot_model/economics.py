"""Economics: the one $ per 1M tokens formula, tokens per MW, and the TCO tiers ($/GPU-hour and all-in power per
GPU, data/tco.yaml). USD, W, seconds."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .files import DATA_DIR, CatalogError, read_structured_file
from .units import hour_s

TCO_PATH = DATA_DIR / "tco.yaml"
TCO_TIERS = ("owning_hyperscaler", "owning_neocloud", "rental_3yr")


def usd_per_1M_tokens(usd_per_gpu_hour, tokens_per_s_per_gpu) -> np.ndarray:
    """$ per million tokens = $/GPU-hour x 1e6 / (tokens/s per GPU x 3600) (InferenceX's formula); nan without a
    price."""
    return np.asarray(usd_per_gpu_hour, dtype=float) * 1e6 / (np.asarray(tokens_per_s_per_gpu, dtype=float) * hour_s)


def tokens_per_s_per_mw(tokens_per_s_per_gpu, all_in_w_per_gpu) -> np.ndarray:
    """Tokens/s per MW of all-in power (GPU, its share of the server, networking, cooling): tok/s/GPU x 1e6 / W."""
    return np.asarray(tokens_per_s_per_gpu, dtype=float) * 1e6 / np.asarray(all_in_w_per_gpu, dtype=float)


@dataclass(frozen=True)
class TcoEntry:
    """Per-GPU TCO inputs of one hardware id: all-in power and $/GPU-hour tiers, with their source."""

    hardware: str
    name: str
    all_in_w: float
    usd_per_gpu_hour: dict[str, float]
    source: str


@lru_cache(maxsize=2)
def load_tco(path: str | Path = TCO_PATH) -> dict[str, TcoEntry]:
    """data/tco.yaml: hardware id -> TcoEntry (all-in kW per GPU in the file, W here)."""
    data = read_structured_file(path)
    if not isinstance(data, dict) or not isinstance(data.get("hardware"), dict):
        raise CatalogError(f"{path}: expected a mapping with 'hardware' (id -> entry)")
    out = {}
    for hw_id, e in data["hardware"].items():
        where = f"{path}: entry {hw_id!r}"
        if not isinstance(e, dict) or set(e) != {"name", "all_in_kW_per_gpu", "usd_per_gpu_hour", "source"}:
            raise CatalogError(f"{where}: expected keys name, all_in_kW_per_gpu, usd_per_gpu_hour, source")
        tiers = e["usd_per_gpu_hour"]
        if not isinstance(tiers, dict) or set(tiers) != set(TCO_TIERS):
            raise CatalogError(f"{where}: usd_per_gpu_hour needs exactly {', '.join(TCO_TIERS)}")
        values = {k: float(v) for k, v in tiers.items()}
        if not all(math.isfinite(v) and v > 0 for v in [*values.values(), float(e["all_in_kW_per_gpu"])]):
            raise CatalogError(f"{where}: prices and power must be positive numbers")
        out[str(hw_id)] = TcoEntry(str(hw_id), str(e["name"]), float(e["all_in_kW_per_gpu"]) * 1e3, values,
                                   str(e["source"]))  # fmt: skip
    return out
