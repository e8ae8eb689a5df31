"""Efficiency profiles: how far a real engine stays from the hardware's peaks, and its fixed costs (SI units)."""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass, replace
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
_DURATIONS_US = ("per_token_overhead_us", "per_layer_overhead_us", "allreduce_latency_us", "moe_layer_overhead_us")
# Added for calibration (data/measurements.csv); neutral by default, so `ideal` stays the pure roofline
_REREAD = "kv_gqa_reread_fraction"  # in [0, 1]; 0 = neutral
_LIMIT = "bandwidth_limit_TB_per_s"  # > 0; absent = no limit
# Added for serving calibration (data/serving_measurements.csv)
_HISTORY = "history"  # dated revisions: the engine's efficiency before a release changed it


@dataclass(frozen=True)
class ProfileRevision:
    """The fields that differed before `until` (an ISO date): an engine release changed them on that day."""

    until: str
    values: tuple[tuple[str, float], ...]  # (SI attribute, value)
    note: str = ""


@dataclass(frozen=True)
class EfficiencyProfile:
    """Fractions of peak an engine reaches, and its fixed per-step costs. ``ideal`` is the pure roofline."""

    id: str
    name: str
    bandwidth_efficiency: float = 1.0  # of peak memory bandwidth, for weight and activation reads
    kv_bandwidth_efficiency: float = 1.0  # extra factor for KV-cache reads (paged, scattered reads)
    # extra factor on weight reads of weight-only formats (stored below 16 bits, math in 16 bits or wider: int8-wo,
    # int4, GGUF k-quants, FP8/FP4 without native units): the kernel unpacks every weight (dequantization)
    lowbit_bandwidth_efficiency: float = 1.0
    flops_efficiency: float = 1.0  # of dense peak FLOP/s for the compute precision
    interconnect_efficiency: float = 1.0  # of the per-direction link bandwidth
    usable_memory_fraction: float = 1.0  # of device memory usable for weights + KV + activations
    per_token_overhead_s: float = 0.0  # fixed cost per decode step (scheduler, sampling, launches)
    per_layer_overhead_s: float = 0.0  # per layer per step (kernel launches, small kernels)
    allreduce_latency_s: float = 0.0  # per collective, on top of its bandwidth time
    # per MoE layer per step: router, top-k, token permutation, grouped-GEMM launches (0 for dense models)
    moe_layer_overhead_s: float = 0.0
    # GQA: share of a query-head group that reads the KV cache again (0 = once per KV head, as fused/flash attention
    # kernels do; 1 = once per query head, as attention built from separate matmuls over a broadcast cache does)
    kv_gqa_reread_fraction: float = 0.0
    # most bytes/s the engine's kernels draw from memory on any device (too few bytes in flight to cover the latency
    # of fast memories): effective bandwidth = min(peak * bandwidth_efficiency, this); inf = no limit
    bandwidth_limit_bytes_per_s: float = math.inf
    # older efficiency, newest first or in any order: as_of(date) applies the revision whose period holds the date
    history: tuple[ProfileRevision, ...] = ()
    description: str = ""
    source: str = ""

    def __post_init__(self) -> None:
        for key in _FRACTIONS:
            value = getattr(self, key)
            if not 0.0 < value <= 1.0:
                raise CatalogError(f"profile {self.id!r}: field {key!r} must be in (0, 1], got {value!r}")
        for key in ("per_token_overhead_s", "per_layer_overhead_s", "allreduce_latency_s", "moe_layer_overhead_s"):
            if not getattr(self, key) >= 0.0:
                raise CatalogError(f"profile {self.id!r}: field {key!r} must be >= 0, got {getattr(self, key)!r}")
        if not 0.0 <= self.kv_gqa_reread_fraction <= 1.0:
            value = self.kv_gqa_reread_fraction
            raise CatalogError(f"profile {self.id!r}: field {_REREAD!r} must be in [0, 1], got {value!r}")
        if not self.bandwidth_limit_bytes_per_s > 0.0:
            raise CatalogError(
                f"profile {self.id!r}: field {_LIMIT!r} must be > 0, got {self.bandwidth_limit_bytes_per_s / 1e12!r}"
            )
        for rev in self.history:
            _iso_date(rev.until, f"profile {self.id!r}: history 'until'")
            for attr, _ in rev.values:
                if attr not in _REVISABLE:
                    raise CatalogError(f"profile {self.id!r}: history: field {attr!r} cannot be revised")
            replace(self, history=(), **dict(rev.values))  # validates the revised values

    def as_of(self, date: str | None) -> EfficiencyProfile:
        """The profile as the engine ran on `date` (ISO, e.g. '2025-11-18'): the revision whose period holds the
        date (the earliest `until` after it), or the current values (date None, or after every revision)."""
        if date is None or not self.history:
            return self
        day = _iso_date(date, f"profile {self.id!r}: as_of")
        later = [r for r in self.history if _iso_date(r.until, "") > day]
        if not later:
            return self
        rev = min(later, key=lambda r: r.until)
        return replace(self, **dict(rev.values))

    @property
    def revision_dates(self) -> tuple[str, ...]:
        return tuple(sorted(r.until for r in self.history))

    @property
    def is_ideal(self) -> bool:
        """True when every fraction is 1 and nothing else costs time: the pure roofline."""
        return (
            all(getattr(self, k) == 1.0 for k in _FRACTIONS)
            and all(getattr(self, k.replace("_us", "_s")) == 0.0 for k in _DURATIONS_US)
            and self.kv_gqa_reread_fraction == 0.0
            and self.bandwidth_limit_bytes_per_s == math.inf
            and not self.history
        )


_REVISABLE = (
    "bandwidth_efficiency",
    "kv_bandwidth_efficiency",
    "flops_efficiency",
    "interconnect_efficiency",
    "per_token_overhead_s",
    "per_layer_overhead_s",
    "allreduce_latency_s",
    "moe_layer_overhead_s",
)


def _iso_date(text: object, where: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(str(text))
    except ValueError:
        raise CatalogError(f"{where}: expected an ISO date (YYYY-MM-DD), got {text!r}") from None


IDEAL = EfficiencyProfile(id="ideal", name="Ideal roofline (physical bound)")


def profile_from_dict(profile_id: str, d: object, where: str) -> EfficiencyProfile:
    """One profile in file units (fractions, microseconds)."""
    where = f"{where}: entry {profile_id!r}"
    if not isinstance(d, dict):
        raise CatalogError(f"{where}: expected a mapping of fields")
    allowed = {"name", "description", "source", *_FRACTIONS, *_DURATIONS_US, _REREAD, _LIMIT, _HISTORY}
    unknown = sorted(str(k) for k in d.keys() - allowed)
    if unknown:
        raise CatalogError(f"{where}: unknown field {unknown[0]!r} (allowed: {', '.join(sorted(allowed))})")
    values: dict[str, float] = {}
    for key in (*_FRACTIONS, *_DURATIONS_US, _REREAD):
        if key in d:
            v = d[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise CatalogError(f"{where}: field {key!r} must be a number, got {v!r}")
            values[key.replace("_us", "_s")] = float(v) * (1e-6 if key.endswith("_us") else 1.0)
    if _LIMIT in d:
        v = d[_LIMIT]
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise CatalogError(f"{where}: field {_LIMIT!r} must be a number, got {v!r}")
        values["bandwidth_limit_bytes_per_s"] = float(v) * 1e12
    src = d.get("source", "")
    return EfficiencyProfile(
        id=profile_id,
        name=str(d.get("name", profile_id)),
        description=str(d.get("description", "")),
        source="; ".join(src) if isinstance(src, list) else str(src),
        history=_history(d.get(_HISTORY, []), where),
        **values,
    )


def _history(entries: object, where: str) -> tuple[ProfileRevision, ...]:
    """history: a list of {until: ISO date, <revisable field in file units>: value, note: text}."""
    if not isinstance(entries, list):
        raise CatalogError(f"{where}: field 'history' must be a list of dated revisions")
    file_keys = {a.replace("_s", "_us") if a.endswith("overhead_s") or a.endswith("latency_s") else a: a
                 for a in _REVISABLE}  # fmt: skip
    out = []
    for i, e in enumerate(entries):
        here = f"{where}: history[{i}]"
        if not isinstance(e, dict) or "until" not in e:
            raise CatalogError(f"{here}: expected a mapping with 'until' (an ISO date) and revised fields")
        until = str(e["until"])
        _iso_date(until, f"{here}: 'until'")
        values = []
        for key, v in e.items():
            if key in ("until", "note"):
                continue
            if key not in file_keys:
                raise CatalogError(f"{here}: unknown field {key!r} (revisable: {', '.join(sorted(file_keys))})")
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise CatalogError(f"{here}: field {key!r} must be a number, got {v!r}")
            values.append((file_keys[key], float(v) * (1e-6 if key.endswith("_us") else 1.0)))
        out.append(ProfileRevision(until=until, values=tuple(values), note=str(e.get("note", ""))))
    return tuple(out)


@lru_cache(maxsize=4)
def load_profiles(path: str | Path = DATA_DIR / "profiles.yaml") -> dict[str, EfficiencyProfile]:
    """All efficiency profiles by id; ``ideal`` is always present and always the pure roofline."""
    data = read_structured_file(path)
    if not isinstance(data, dict):
        raise CatalogError(f"{path}: expected a mapping of id -> profile")
    profiles = {str(k): profile_from_dict(str(k), v, str(path)) for k, v in data.items()}
    ideal = profiles.setdefault("ideal", IDEAL)
    if not ideal.is_ideal:
        raise CatalogError(f"{path}: entry 'ideal' must be the pure roofline (all fractions 1, no overheads)")
    return profiles


def resolve_profile(ref: str) -> EfficiencyProfile:
    profiles = load_profiles()
    if ref not in profiles:
        raise CatalogError(f"unknown profile {ref!r} (known: {', '.join(profiles)})")
    return profiles[ref]
