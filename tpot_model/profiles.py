"""Efficiency profiles: how far a real engine stays from the hardware's peaks, and its fixed costs (SI units)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .catalog import DATA_DIR, CatalogError, read_structured_file

_FRACTIONS = (
    "bandwidth_efficiency",
    "kv_bandwidth_efficiency",
    "lowbit_bandwidth_efficiency",
    "flops_efficiency",
    "interconnect_efficiency",
    "usable_memory_fraction",
)
_DURATIONS_US = ("per_token_overhead_us", "per_layer_overhead_us", "allreduce_latency_us")


@dataclass(frozen=True)
class EfficiencyProfile:
    """Fractions of peak an engine reaches, and its fixed per-step costs. ``ideal`` is the pure roofline."""

    id: str
    name: str
    bandwidth_efficiency: float = 1.0  # of peak memory bandwidth, for weight and activation reads
    kv_bandwidth_efficiency: float = 1.0  # extra factor for KV-cache reads (paged, scattered reads)
    lowbit_bandwidth_efficiency: float = 1.0  # extra factor on weight reads below 8 bits (dequantization)
    flops_efficiency: float = 1.0  # of dense peak FLOP/s for the compute precision
    interconnect_efficiency: float = 1.0  # of the per-direction link bandwidth
    usable_memory_fraction: float = 1.0  # of device memory usable for weights + KV + activations
    per_token_overhead_s: float = 0.0  # fixed cost per decode step (scheduler, sampling, launches)
    per_layer_overhead_s: float = 0.0  # per layer per step (kernel launches, small kernels)
    allreduce_latency_s: float = 0.0  # per collective, on top of its bandwidth time
    description: str = ""
    source: str = ""

    def __post_init__(self) -> None:
        for key in _FRACTIONS:
            value = getattr(self, key)
            if not 0.0 < value <= 1.0:
                raise CatalogError(f"profile {self.id!r}: field {key!r} must be in (0, 1], got {value!r}")
        for key in ("per_token_overhead_s", "per_layer_overhead_s", "allreduce_latency_s"):
            if not getattr(self, key) >= 0.0:
                raise CatalogError(f"profile {self.id!r}: field {key!r} must be >= 0, got {getattr(self, key)!r}")


IDEAL = EfficiencyProfile(id="ideal", name="Ideal roofline (physical bound)")


def profile_from_dict(profile_id: str, d: object, where: str) -> EfficiencyProfile:
    """One profile in file units (fractions, microseconds)."""
    where = f"{where}: entry {profile_id!r}"
    if not isinstance(d, dict):
        raise CatalogError(f"{where}: expected a mapping of fields")
    allowed = {"name", "description", "source", *_FRACTIONS, *_DURATIONS_US}
    unknown = sorted(str(k) for k in d.keys() - allowed)
    if unknown:
        raise CatalogError(f"{where}: unknown field {unknown[0]!r} (allowed: {', '.join(sorted(allowed))})")
    values: dict[str, float] = {}
    for key in (*_FRACTIONS, *_DURATIONS_US):
        if key in d:
            v = d[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise CatalogError(f"{where}: field {key!r} must be a number, got {v!r}")
            values[key.replace("_us", "_s")] = float(v) * (1e-6 if key.endswith("_us") else 1.0)
    src = d.get("source", "")
    return EfficiencyProfile(
        id=profile_id,
        name=str(d.get("name", profile_id)),
        description=str(d.get("description", "")),
        source="; ".join(src) if isinstance(src, list) else str(src),
        **values,
    )


@lru_cache(maxsize=4)
def load_profiles(path: str | Path = DATA_DIR / "profiles.yaml") -> dict[str, EfficiencyProfile]:
    """All efficiency profiles by id; ``ideal`` is always present and always the pure roofline."""
    data = read_structured_file(path)
    if not isinstance(data, dict):
        raise CatalogError(f"{path}: expected a mapping of id -> profile")
    profiles = {str(k): profile_from_dict(str(k), v, str(path)) for k, v in data.items()}
    ideal = profiles.setdefault("ideal", IDEAL)
    if any(getattr(ideal, k) != 1.0 for k in _FRACTIONS) or any(
        getattr(ideal, k.replace("_us", "_s")) != 0.0 for k in _DURATIONS_US
    ):
        raise CatalogError(f"{path}: entry 'ideal' must be the pure roofline (all fractions 1, no overheads)")
    return profiles


def resolve_profile(ref: str) -> EfficiencyProfile:
    profiles = load_profiles()
    if ref not in profiles:
        raise CatalogError(f"unknown profile {ref!r} (known: {', '.join(profiles)})")
    return profiles[ref]
