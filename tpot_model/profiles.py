"""Efficiency profiles: how far a real engine stays from the hardware's peaks, and its fixed costs (SI units).

``FIELDS`` describes every numeric field once: its profiles.yaml key and unit, its allowed range, whether a dated
revision may change it, and its neutral value (the pure roofline's). Loading, validation, the profiles.yaml writer
(profile_file.py) and the fitters read them from there.
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from .files import DATA_DIR, CatalogError, read_structured_file
from .units import GiB

PROFILES_PATH = DATA_DIR / "profiles.yaml"
_HISTORY = "history"  # dated revisions: the engine's efficiency before a release changed it


@dataclass(frozen=True)
class ProfileRevision:
    """The fields that differed before `until` (an ISO date): an engine release changed them on that day."""

    until: str
    values: tuple[tuple[str, float], ...]  # (SI attribute, value)
    note: str = ""


# The engine's memory beyond what the model counts (weights, KV cache, workspace), per GPU, hand-derived from the one
# fully itemised row of llm-d's empirical vLLM results (public-2026.md section 2.9: Llama-3.1-8B, TP1, H100,
# gpu_memory_utilization 0.9, max-model-len 16000): KV available 51.38 GiB = 0.9 x 79.18 GiB (what CUDA shows) - 14.99
# weights - 4.76 peak activation - 0.13 non-torch. The fit gate starts from nvidia-smi's 79.6 GiB (0.9 x 79.6 = 71.64,
# 0.38 GiB above vLLM's 71.26: the CUDA context) and already counts 1.13 GiB of workspace for that model (a decode
# step + one 8,192-token chunk), so the rest is 0.38 + 4.76 + 0.13 - 1.13 = 4.14 GiB. CUDA graphs (-0.45 to +0.39 GiB
# in the same rows) come out of the 10 % headroom in vLLM's accounting and are not subtracted again. vLLM's is the
# only serving engine with published figures: an engine profile's reserved_memory_bytes unless its own is documented
# (engines.DOCUMENTED: the engines that allocate as they go, gpt-fast and llama.cpp); the ideal bound reserves nothing.
ENGINE_RESERVED_BYTES = 4.14 * GiB


@dataclass(frozen=True)
class EfficiencyProfile:
    """Fractions of peak an engine reaches, and its fixed per-step costs. ``ideal`` is the pure roofline.

    Every default is the field's neutral value: the defaults are the pure roofline."""

    id: str
    name: str
    bandwidth_efficiency: float = 1.0  # of peak memory bandwidth, for weight and activation reads
    kv_bandwidth_efficiency: float = 1.0  # extra factor for KV-cache reads (paged, scattered reads)
    # extra factor on weight reads of weight-only formats (stored below 16 bits, math in 16 bits or wider: int8-wo,
    # int4, GGUF k-quants, FP8/FP4 without native units): the kernel unpacks every weight (dequantization)
    lowbit_bandwidth_efficiency: float = 1.0
    flops_efficiency: float = 1.0  # of dense peak FLOP/s for the compute precision
    interconnect_efficiency: float = 1.0  # of the per-direction link bandwidth
    # of device memory usable for weights + KV + activations (engines.OF_FREE_MEMORY: of what weights + workspace leave)
    usable_memory_fraction: float = 1.0
    # per GPU, beyond what the model counts (weights, KV cache, workspace): vLLM's measured reservation by default
    # (ENGINE_RESERVED_BYTES); the ideal bound reserves nothing, whatever this holds
    reserved_memory_bytes: float = ENGINE_RESERVED_BYTES
    per_token_overhead_s: float = 0.0  # fixed cost per decode step (scheduler, sampling, launches)
    per_layer_overhead_s: float = 0.0  # per layer per step (kernel launches, small kernels)
    allreduce_latency_s: float = 0.0  # per collective, on top of its bandwidth time
    # per MoE layer per step: router, top-k, token permutation, grouped-GEMM launches (0 for dense models)
    moe_layer_overhead_s: float = 0.0
    # per sequence per step on each GPU, at small batches (roofline.sequence_overhead_s: the sum saturates, half its ceiling
    # at roofline.SEQUENCE_HALF_BATCH sequences): the step cost that grows with the first sequences of a batch
    per_sequence_overhead_s: float = 0.0
    # the MoE-layer cost with NVFP4 weights, as a fraction of moe_layer_overhead_s (Blackwell's NVFP4 MoE kernels fuse
    # routing, permutation and the grouped GEMMs: fewer launches than the FP8 path); 1 = the same cost
    nvfp4_moe_cost_fraction: float = 1.0
    # the MoE-layer cost on AMD Instinct GPUs (ROCm's kernels), as a multiple of the cost on the others (an engine's
    # MoE path on ROCm is another build of it: its own kernels and launches); 1 = the same cost
    rocm_moe_cost_factor: float = 1.0
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
    # profiles.yaml key -> how the value was set: 'fitted' (to measurements), 'documented' (the engine's documented
    # value) or 'inherited' (typical's); from the entry's per-field `source` lines (empty when it has none)
    basis: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        for f in FIELDS:
            value = getattr(self, f.attr)
            if not f.admits(value):
                raise CatalogError(
                    f"profile {self.id!r}: field {f.key!r} must be {f.range_text}, got {value / f.scale!r}"
                )
        for rev in self.history:
            _iso_date(rev.until, f"profile {self.id!r}: history 'until'")
            for attr, _ in rev.values:
                if attr not in FIELD or not FIELD[attr].revisable:
                    raise CatalogError(f"profile {self.id!r}: history: field {attr!r} cannot be revised")
            replace(self, history=(), **dict(rev.values))  # validates the revised values

    def revision_on(self, date: str | None) -> ProfileRevision | None:
        """The dated revision in force on `date` (ISO): the earliest whose `until` is after it (a day before every
        revision: the earliest one, the oldest values known); None: the current values."""
        if date is None or not self.history:
            return None
        day = _iso_date(date, f"profile {self.id!r}: as_of")
        later = [r for r in self.history if _iso_date(r.until, "") > day]
        return min(later, key=lambda r: r.until) if later else None

    def as_of(self, date: str | None) -> EfficiencyProfile:
        """The profile as the engine ran on `date` (ISO, e.g. '2025-11-18'): the revision whose period holds the
        date (revision_on), or the current values (date None, or after every revision)."""
        rev = self.revision_on(date)
        return self if rev is None else replace(self, **dict(rev.values))

    @property
    def revision_dates(self) -> tuple[str, ...]:
        return tuple(sorted(r.until for r in self.history))

    @property
    def is_ideal(self) -> bool:
        """True when every field is neutral (fractions 1, no costs, no limit) and there is no history."""
        return all(getattr(self, f.attr) == f.neutral for f in FIELDS) and not self.history


@dataclass(frozen=True)
class ProfileField:
    """One numeric field of EfficiencyProfile: SI attribute, profiles.yaml key (file units, SI = file value * scale),
    allowed range, whether a dated revision (``history``) may change it, and its neutral value."""

    attr: str
    key: str
    scale: float
    lo: float
    hi: float
    lo_open: bool  # the range is (lo, hi] when True, [lo, hi] otherwise
    revisable: bool
    neutral: float  # the pure roofline's value: EfficiencyProfile's default

    def admits(self, value: float) -> bool:
        """In the allowed range (nan never is)."""
        return (self.lo < value if self.lo_open else self.lo <= value) and value <= self.hi

    @property
    def range_text(self) -> str:
        """The range in file units, as error messages give it: 'in (0, 1]', '>= 0', ..."""
        lo = f"{self.lo / self.scale:g}"
        if self.hi == math.inf:
            return f"{'>' if self.lo_open else '>='} {lo}"
        return f"in {'(' if self.lo_open else '['}{lo}, {self.hi / self.scale:g}]"


def _field(attr: str, key: str, scale: float, lo: float, hi: float, *, lo_open: bool, revisable: bool) -> ProfileField:
    neutral = EfficiencyProfile.__dataclass_fields__[attr].default
    return ProfileField(attr, key, scale, lo, hi, lo_open, revisable, neutral)


_US = 1e-6
# In profiles.yaml order. Revisable: the terms an engine release has been seen to change (serving calibration; and
# llama.cpp's flash attention by default, 2025: KV re-reads, the kernels' bandwidth ceiling, dequantizing GEMVs).
FIELDS = (
    _field("bandwidth_efficiency", "bandwidth_efficiency", 1.0, 0.0, 1.0, lo_open=True, revisable=True),
    _field("kv_bandwidth_efficiency", "kv_bandwidth_efficiency", 1.0, 0.0, 1.0, lo_open=True, revisable=True),
    _field("lowbit_bandwidth_efficiency", "lowbit_bandwidth_efficiency", 1.0, 0.0, 1.0, lo_open=True, revisable=True),
    _field("flops_efficiency", "flops_efficiency", 1.0, 0.0, 1.0, lo_open=True, revisable=True),
    _field("interconnect_efficiency", "interconnect_efficiency", 1.0, 0.0, 1.0, lo_open=True, revisable=True),
    _field("usable_memory_fraction", "usable_memory_fraction", 1.0, 0.0, 1.0, lo_open=True, revisable=False),
    _field("reserved_memory_bytes", "reserved_memory_GiB", GiB, 0.0, 1024 * GiB, lo_open=False, revisable=False),
    _field("per_token_overhead_s", "per_token_overhead_us", _US, 0.0, math.inf, lo_open=False, revisable=True),
    _field("per_layer_overhead_s", "per_layer_overhead_us", _US, 0.0, math.inf, lo_open=False, revisable=True),
    _field("allreduce_latency_s", "allreduce_latency_us", _US, 0.0, math.inf, lo_open=False, revisable=True),
    _field("moe_layer_overhead_s", "moe_layer_overhead_us", _US, 0.0, math.inf, lo_open=False, revisable=True),
    _field("per_sequence_overhead_s", "per_sequence_overhead_us", _US, 0.0, math.inf, lo_open=False, revisable=False),
    _field("nvfp4_moe_cost_fraction", "nvfp4_moe_cost_fraction", 1.0, 0.0, 2.0, lo_open=True, revisable=False),
    _field("rocm_moe_cost_factor", "rocm_moe_cost_factor", 1.0, 0.0, 5.0, lo_open=True, revisable=False),
    # added for calibration (data/measurements.csv); neutral by default, so `ideal` stays the pure roofline
    _field("kv_gqa_reread_fraction", "kv_gqa_reread_fraction", 1.0, 0.0, 1.0, lo_open=False, revisable=True),
    # absent from the file = no limit
    _field(
        "bandwidth_limit_bytes_per_s", "bandwidth_limit_TB_per_s", 1e12, 0.0, math.inf, lo_open=True, revisable=True
    ),
)
FIELD = {f.attr: f for f in FIELDS}  # by SI attribute
_BY_KEY = {f.key: f for f in FIELDS}  # by profiles.yaml key


def _iso_date(text: object, where: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(str(text))
    except ValueError:
        raise CatalogError(f"{where}: expected an ISO date (YYYY-MM-DD), got {text!r}") from None


IDEAL = EfficiencyProfile(id="ideal", name="Ideal roofline (physical bound)")


def _file_number(where: str, key: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise CatalogError(f"{where}: field {key!r} must be a number, got {value!r}")
    return float(value)


def profile_from_dict(profile_id: str, d: object, where: str) -> EfficiencyProfile:
    """One profile in file units (see FIELDS: fractions, microseconds, TB/s)."""
    where = f"{where}: entry {profile_id!r}"
    if not isinstance(d, dict):
        raise CatalogError(f"{where}: expected a mapping of fields")
    allowed = {"name", "description", "source", _HISTORY, *_BY_KEY}
    unknown = sorted(str(k) for k in d.keys() - allowed)
    if unknown:
        raise CatalogError(f"{where}: unknown field {unknown[0]!r} (allowed: {', '.join(sorted(allowed))})")
    values = {f.attr: _file_number(where, f.key, d[f.key]) * f.scale for f in FIELDS if f.key in d}
    src = d.get("source", "")
    return EfficiencyProfile(
        id=profile_id,
        name=str(d.get("name", profile_id)),
        description=str(d.get("description", "")),
        source="; ".join(src) if isinstance(src, list) else str(src),
        basis=_basis(src),
        history=_history(d.get(_HISTORY, []), where),
        **values,
    )


BASES = ("fitted", "documented", "inherited")


def field_basis(reason: str) -> str:
    """How a field's value was set, from its `source` line's reason (as profile_file writes them): 'fitted' (to
    measurements), 'documented' (the engine's documented value) or 'inherited' (typical's value: no data yet)."""
    r = reason.removeprefix("none. ").strip()
    if r.startswith("documented"):
        return "documented"
    if r.startswith("fitted") or (" fitted to " in f" {r}" and not r.startswith("not fitted")):
        return "fitted"
    return "inherited"


def _basis(src: object) -> tuple[tuple[str, str], ...]:
    """(profiles.yaml key, field_basis) for every field a `source` list names ('key: reason' lines)."""
    if not isinstance(src, list):
        return ()
    out = {}
    for line in src:
        key, sep, reason = str(line).partition(": ")
        if sep and key in _BY_KEY and key not in out:
            out[key] = field_basis(reason)
    return tuple(out.items())


def _history(entries: object, where: str) -> tuple[ProfileRevision, ...]:
    """history: a list of {until: ISO date, <revisable field in file units>: value, note: text}."""
    if not isinstance(entries, list):
        raise CatalogError(f"{where}: field 'history' must be a list of dated revisions")
    revisable = {f.key: f for f in FIELDS if f.revisable}
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
            if key not in revisable:
                raise CatalogError(f"{here}: unknown field {key!r} (revisable: {', '.join(sorted(revisable))})")
            values.append((revisable[key].attr, _file_number(here, key, v) * revisable[key].scale))
        out.append(ProfileRevision(until=until, values=tuple(values), note=str(e.get("note", ""))))
    return tuple(out)


def profiles_from_data(data: object, where: str) -> dict[str, EfficiencyProfile]:
    """Every entry of a parsed profiles file (a mapping of id -> profile in file units)."""
    if not isinstance(data, dict):
        raise CatalogError(f"{where}: expected a mapping of id -> profile")
    return {str(k): profile_from_dict(str(k), v, where) for k, v in data.items()}


@lru_cache(maxsize=4)
def load_profiles(path: str | Path = PROFILES_PATH) -> dict[str, EfficiencyProfile]:
    """All efficiency profiles by id; ``ideal`` is always present and always the pure roofline."""
    profiles = profiles_from_data(read_structured_file(path), str(path))
    ideal = profiles.setdefault("ideal", IDEAL)
    if not ideal.is_ideal:
        raise CatalogError(f"{path}: entry 'ideal' must be the pure roofline (all fractions 1, no overheads)")
    return profiles


def resolve_profile(ref: str) -> EfficiencyProfile:
    profiles = load_profiles()
    if ref not in profiles:
        raise CatalogError(f"unknown profile {ref!r} (known: {', '.join(profiles)})")
    return profiles[ref]
