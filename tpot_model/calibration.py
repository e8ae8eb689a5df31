"""Batch-1 calibration: the published decode measurements (data/measurements.csv), the model's prediction for each,
the fit of the engine efficiency profiles to them, and the leave-one-hardware-out (LOHO) cross-validation.

``data/measurements.csv`` -> typed rows (model, hardware and scenario resolved from the catalogs) -> ``predict(row,
profile)`` through the same ``estimate()`` the dashboard uses -> ``fit_profile()`` per engine -> ``cross_validate()``:
leave-one-hardware-out (LOHO), every device's rows predicted by profiles fitted without that device.

The fit minimises sum_i log(predicted_i / measured_i)^2 + PRIOR_WEIGHT * sum_k ((theta_k - prior_k) / width_k)^2:
least squares on the log ratio plus a weak pull of every parameter towards its prior: the common base `typical` (or
the neutral value of a term typical does not set). Only the fields the rows can pin down are freed (``identifiable``:
e.g. a per-layer cost needs three or more layer counts); the others keep typical's value, and the profile says so.
Parameters are boxed to physical ranges (fitting.PARAMS). The optimiser is a deterministic multi-start bounded
Nelder-Mead (fitting.minimise_boxed); the same input gives the same profiles, bit for bit.

Fitting uses a vectorised copy of the decode roofline (per-operator bytes and FLOPs are computed once per row by
``roofline.step_operator_work``; only the rates change with the parameters). ``check_surrogate`` asserts it matches
``predict`` (the real ``estimate``) to 1e-9, and the reported errors always come from ``predict``.

The model terms the data called for (roofline.py, profiles.py): a per-token overhead (small models on fast GPUs are
overhead-bound), a bandwidth limit of the engine's kernels (llama.cpp stops near 1.2 TB/s on HBM devices), a factor
on weight-only formats (dequantization), KV re-reads per query head (attention without GQA-aware kernels), and an
all-reduce latency per collective (tensor parallelism at batch 1).

The serving terms are fitted by serving_calibration.py; calibrate.py (the calibrate command) runs both fits and
writes profiles.yaml. SI units inside; the CSV holds datasheet units (TB/s).
"""

from __future__ import annotations

import csv
import datetime
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from .catalog import Hardware, ModelSpec, load_hardware_catalog, load_model_catalog
from .catalog import model_from_dict as _model_from_dict
from .engines import RELEASE_PERIODS, chip_family, documented_profile, documented_reason, unknown_engine
from .estimate import estimate
from .files import DATA_DIR, CatalogError, read_text
from .fitting import PARAMS, PRIOR_WEIGHT, ErrorSummary, minimise_boxed, relative_error, with_fitted
from .precision import parse_format
from .profile_file import file_value
from .profiles import FIELDS, IDEAL, PROFILES_PATH, EfficiencyProfile, ProfileRevision, load_profiles
from .roofline import (
    ACTIVATION_BYTES,
    attainable_bandwidth_bytes_per_s,
    attainable_flop_per_s,
    fused_nvfp4_moe,
    is_weight_only,
    link_peak_bytes_per_s,
    moe_cost_s,
    rates_for,
    runs_rocm,
    sequences_charged,
    step_operator_work,
)
from .scenario import Scenario

MEASUREMENTS_PATH = DATA_DIR / "measurements.csv"
# validation_table() as calibrate last wrote it, beside profiles.yaml: the Validation page reads it instead of
# cross-validating (seconds of CPU) when a server starts; tests/test_calibration.py checks it is current.
VALIDATION_TABLE_NAME = "validation_table.json"
TARGET_MEDIAN = 0.12  # LOHO |error| on the headline rows (batch-1 single-device decode)
TARGET_P90 = 0.30

# --------------------------------------------------------------------------------------------------- the rows

# category -> (fitted, predicted, meaning)
CATEGORIES = {
    "decode_b1": (True, True, "batch-1 decode on one device: the headline set"),
    "decode_b1_multi": (True, True, "batch-1 decode on several devices (tensor parallel, or llama.cpp layer split)"),
    "static_batch": (False, True, "static-batch throughput at a stated batch, prefill included: predicted, not fitted"),
    "speculative": (False, False, "speculative decoding on: not a plain decode step"),
    "serving": (False, False, "serving run with variable request lengths: no single scenario to predict"),
    "e2e": (False, False, "whole request, prefill included, with an unknown batch"),
    "batch_unknown": (False, False, "batch not read from the source"),
}
HEADLINE_CATEGORY = "decode_b1"
PARALLELISMS = ("none", "tensor", "layer-split")
METRICS = {
    "decode_tokens_per_s_per_user": "tokens/s per sequence = 1 / TPOT",
    "aggregate_decode_tokens_per_s": "tokens/s over the batch = batch / TPOT",
    "tpot_ms": "TPOT in ms",
    "output_throughput_tokens_per_s": "batch * output / (TTFT + (output - 1) * TPOT), over all the GPUs",
    "output_throughput_tokens_per_s_per_gpu": "the same per GPU (divided by num_gpus)",
    "e2e_latency_s": "TTFT + (output - 1) * TPOT",
    "serving_throughput_tokens_per_s": "not predictable (variable request lengths)",
}
# the units a metric's value may be written in (the `unit` column); a value past MAX_MEASURED_VALUE is a slip
METRIC_UNITS = {
    "decode_tokens_per_s_per_user": ("tokens/s",),
    "aggregate_decode_tokens_per_s": ("tokens/s",),
    "tpot_ms": ("ms/token", "ms"),
    "output_throughput_tokens_per_s": ("tokens/s",),
    "output_throughput_tokens_per_s_per_gpu": ("tokens/s/GPU",),
    "e2e_latency_s": ("s",),
    "serving_throughput_tokens_per_s": ("tokens/s",),
}
MAX_MEASURED_VALUE = 1e9
COLUMNS = (
    "id",
    "source",
    "trust",
    "model",
    "model_id",
    "params_b",
    "num_layers",
    "d_model",
    "num_heads",
    "num_kv_heads",
    "head_dim",
    "d_ff",
    "vocab_size",
    "weight_format",
    "bits_per_weight",
    "weights",
    "kv_format",
    "kv_cache",
    "batch",
    "context_tokens",
    "output_tokens",
    "hardware",
    "hardware_id",
    "memory_bandwidth_TB_per_s",
    "device_fraction",
    "device",
    "num_gpus",
    "parallelism",
    "engine",
    "profile",
    "run_date",
    "metric",
    "value",
    "unit",
    "category",
    "excluded_because",
    "notes",
    "mapping_notes",
)
_ARCH = ("num_layers", "d_model", "num_heads", "num_kv_heads", "head_dim", "d_ff", "vocab_size")
_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


@dataclass(frozen=True, eq=False)
class Measurement:
    """One published measurement, resolved against the catalogs. ``scenario`` is None when it cannot be predicted.

    For llama.cpp's layer split (pipeline-style: each token crosses the GPUs one after the other) the scenario holds
    num_gpus = 1 (one device's bandwidth over all the layers) and ``pipeline_hops`` = num_gpus - 1."""

    id: str
    source: str
    trust: str
    model_name: str
    model: ModelSpec
    hardware_name: str
    hardware: Hardware | None  # catalog entry, adjusted for the device actually measured
    device: str  # the physical device: the unit left out by cross-validation
    num_gpus: int
    parallelism: str
    engine: str
    profile: str  # profile id ('' = no profile for this engine)
    metric: str
    value: float
    unit: str
    category: str
    scenario: Scenario | None
    excluded_because: str = ""
    notes: str = ""
    mapping_notes: str = ""
    weights: str = ""
    kv_cache: str = ""
    fields: dict[str, str] = field(default_factory=dict)  # the CSV row as read
    run_date: str = ""  # ISO date of the run (the engine build's date); '' = not dated

    @property
    def period(self) -> str:
        """The engine release period the row belongs to (engines.RELEASE_PERIODS): the `until` of the older period
        that holds its run_date, or '' for the current period (also for engines without periods)."""
        later = sorted(u for u, _ in RELEASE_PERIODS.get(self.profile, ()) if self.run_date and self.run_date < u)
        return later[0] if later else ""

    @property
    def pipeline_hops(self) -> int:
        return self.num_gpus - 1 if self.parallelism == "layer-split" else 0

    @property
    def evaluable(self) -> bool:
        """Predicted: a category with a definite scenario, an engine profile and a predictable metric."""
        return (
            CATEGORIES[self.category][1]
            and self.scenario is not None
            and self.hardware is not None
            and bool(self.profile)
            and self.metric != "serving_throughput_tokens_per_s"
        )

    @property
    def fitted(self) -> bool:
        """Used to fit its engine's profile (batch-1 decode rows)."""
        return CATEGORIES[self.category][0] and self.evaluable

    @property
    def headline(self) -> bool:
        """In the headline set: batch-1 single-device decode."""
        return self.category == HEADLINE_CATEGORY and self.evaluable


def _cell_error(path: Path, line: int, row_id: str, column: str, message: str) -> CatalogError:
    return CatalogError(f"{path}: line {line} (id {row_id or '?'}): field {column!r}: {message}")


def _read_rows(path: Path) -> list[tuple[int, dict[str, str]]]:
    text = read_text(path)
    reader = csv.DictReader(text.splitlines())
    header = reader.fieldnames or []
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise CatalogError(f"{path}: line 1: missing column {missing[0]!r}")
    unknown = [c for c in header if c not in COLUMNS]
    if unknown:
        raise CatalogError(f"{path}: line 1: unknown column {unknown[0]!r}")
    out = []
    try:
        for row in reader:
            if None in row or any(v is None for v in row.values()):
                raise CatalogError(f"{path}: line {reader.line_num}: expected {len(header)} fields")
            out.append((reader.line_num, {k: v.strip() for k, v in row.items()}))
    except csv.Error as e:
        raise CatalogError(f"{path}: line {reader.line_num}: malformed CSV ({e})") from None
    if not out:
        raise CatalogError(f"{path}: no measurements")
    return out


def _number(cell: Callable[[str, str], CatalogError], row: dict[str, str], key: str, *, blank_ok: bool = False):
    text = row[key]
    if text == "" and blank_ok:
        return None
    try:
        value = float(text)
    except ValueError:
        raise cell(key, f"must be a number, got {text!r}") from None
    if not math.isfinite(value):
        raise cell(key, f"must be finite, got {text!r}")
    return value


def _model_for(row: dict[str, str], cell, models: dict[str, ModelSpec]) -> ModelSpec:
    arch = {}
    for key in _ARCH:
        v = _number(cell, row, key)
        if v != int(v) or v <= 0:
            raise cell(key, f"must be a positive whole number, got {row[key]!r}")
        arch[key] = int(v)
    model_id = row["model_id"]
    if model_id:
        if model_id not in models:
            raise cell("model_id", f"unknown model {model_id!r} (data/models.yaml)")
        m = models[model_id]
        for key, v in arch.items():
            if getattr(m, key) != v:
                raise cell(key, f"{v} does not match {model_id!r} ({getattr(m, key)})")
        return m
    # a model the catalog lacks: a dense SwiGLU decoder with untied embeddings, from the architecture columns
    d = {"name": row["model"] or "custom", "tied_embeddings": False, "mlp": "swiglu", "max_context_tokens": 1 << 20}
    try:
        return _model_from_dict(f"measured-{row['id']}", {**d, **arch}, "architecture columns")
    except CatalogError as e:
        raise cell("model", str(e)) from None


def _hardware_for(row: dict[str, str], cell, catalog: dict[str, Hardware]) -> Hardware | None:
    hw_id = row["hardware_id"]
    if not hw_id:
        return None
    if hw_id not in catalog:
        raise cell("hardware_id", f"unknown hardware {hw_id!r} (data/hardware.yaml)")
    hw = catalog[hw_id]
    frac = _number(cell, row, "device_fraction", blank_ok=True)
    if frac is not None and not 0 < frac <= 1:
        raise cell("device_fraction", f"must be in (0, 1], got {row['device_fraction']!r}")
    bw = _number(cell, row, "memory_bandwidth_TB_per_s", blank_ok=True)
    if bw is not None and bw <= 0:
        raise cell("memory_bandwidth_TB_per_s", f"must be > 0, got {row['memory_bandwidth_TB_per_s']!r}")
    if frac is None and bw is None:
        return hw
    f = 1.0 if frac is None else frac
    return replace(
        hw,
        id=row["device"] or hw_id,
        name=row["hardware"] or hw.name,
        memory_bytes=hw.memory_bytes * f,
        memory_bandwidth_bytes_per_s=bw * 1e12 if bw is not None else hw.memory_bandwidth_bytes_per_s * f,
        dense_flop_per_s={k: v * f for k, v in hw.dense_flop_per_s.items()},
        tdp_w=None if hw.tdp_w is None else hw.tdp_w * f,
    )


def _measurement(path: Path, line: int, row: dict[str, str], models, hardware) -> Measurement:
    row_id = row["id"]

    def cell(column: str, message: str) -> CatalogError:
        return _cell_error(path, line, row_id, column, message)

    if not row_id:
        raise cell("id", "must not be empty")
    category = row["category"]
    if category not in CATEGORIES:
        raise cell("category", f"unknown category {category!r} (known: {', '.join(CATEGORIES)})")
    metric = row["metric"]
    if metric not in METRICS:
        raise cell("metric", f"unknown metric {metric!r} (known: {', '.join(METRICS)})")
    parallelism = row["parallelism"]
    if parallelism not in PARALLELISMS:
        raise cell("parallelism", f"unknown parallelism {parallelism!r} (known: {', '.join(PARALLELISMS)})")
    profile = row["profile"]
    if profile and not _ID.match(profile):
        raise cell("profile", f"profile ids are lowercase (a-z, 0-9, '.', '_', '-'), got {profile!r}")
    if why := unknown_engine(profile):
        raise cell("profile", why)
    if row["unit"] not in METRIC_UNITS[metric]:
        raise cell("unit", f"{metric} is in {' or '.join(METRIC_UNITS[metric])}, got {row['unit']!r}")
    value = _number(cell, row, "value")
    if not 0 < value <= MAX_MEASURED_VALUE:
        raise cell("value", f"must be > 0 and at most {MAX_MEASURED_VALUE:.0e}, got {row['value']!r}")
    n = _number(cell, row, "num_gpus")
    if n != int(n) or n < 1:
        raise cell("num_gpus", f"must be a whole number >= 1, got {row['num_gpus']!r}")
    if (n > 1) != (parallelism != "none"):
        raise cell("parallelism", f"{parallelism!r} does not fit num_gpus {int(n)}")
    if not row["device"]:
        raise cell("device", "must name the physical device (the unit cross-validation leaves out)")
    model = _model_for(row, cell, models)
    hw = _hardware_for(row, cell, hardware)
    formats = {}
    for key in ("weights", "kv_cache"):
        try:
            formats[key] = parse_format(row[key])
        except ValueError as e:
            raise cell(key, str(e)) from None
    counts = {}
    for key, minimum in (("batch", 1), ("context_tokens", 0), ("output_tokens", 1)):
        v = _number(cell, row, key, blank_ok=True)
        if v is not None and (v != int(v) or v < minimum):
            raise cell(key, f"must be a whole number >= {minimum}, got {row[key]!r}")
        counts[key] = v
    batch, context, output = counts["batch"], counts["context_tokens"], counts["output_tokens"]
    if CATEGORIES[category][1]:  # a predicted category needs a complete scenario and a profile
        for key, v in (("hardware_id", hw), ("batch", batch), ("context_tokens", context), ("output_tokens", output)):
            if v is None:
                raise cell(key, f"category {category!r} needs it")
        if not profile:
            raise cell("profile", f"category {category!r} needs an engine profile")
    if category == HEADLINE_CATEGORY and (batch != 1 or n != 1 or metric == "serving_throughput_tokens_per_s"):
        raise cell("category", "decode_b1 is batch 1 on one device")
    run_date = row["run_date"]
    if run_date:
        try:
            datetime.date.fromisoformat(run_date)
        except ValueError:
            raise cell("run_date", f"must be an ISO date (YYYY-MM-DD), got {run_date!r}") from None
    elif profile in RELEASE_PERIODS and CATEGORIES[category][0]:
        raise cell("run_date", f"engine {profile!r} has release periods (engines.RELEASE_PERIODS): date the row")
    scenario = None
    if batch is not None and context is not None and output is not None:
        scenario = Scenario(
            batch=batch,
            context_tokens=context,
            output_tokens=output,
            num_gpus=1 if parallelism == "layer-split" else n,
            weights=formats["weights"],
            kv_cache=formats["kv_cache"],
        )
    return Measurement(
        id=row_id,
        source=row["source"],
        trust=row["trust"],
        model_name=row["model"],
        model=model,
        hardware_name=row["hardware"],
        hardware=hw,
        device=row["device"],
        num_gpus=int(n),
        parallelism=parallelism,
        engine=row["engine"],
        profile=profile,
        metric=metric,
        value=value,
        unit=row["unit"],
        category=category,
        scenario=scenario,
        excluded_because=row["excluded_because"],
        notes=row["notes"],
        mapping_notes=row["mapping_notes"],
        weights=row["weights"],
        kv_cache=row["kv_cache"],
        fields=dict(row),
        run_date=run_date,
    )


def load_measurements(path: str | Path = MEASUREMENTS_PATH) -> list[Measurement]:
    """Every row of a measurements CSV, validated; CatalogError naming the file, line, id and field otherwise."""
    p = Path(path)
    models, hardware = load_model_catalog(), load_hardware_catalog()
    rows, seen = [], set()
    for line, row in _read_rows(p):
        m = _measurement(p, line, row, models, hardware)
        if m.id in seen:
            raise _cell_error(p, line, m.id, "id", "duplicate id")
        seen.add(m.id)
        rows.append(m)
    return rows


# --------------------------------------------------------------------------------------------------- prediction


def _from_tpot(row: Measurement, tpot_s: float, ttft_s: float) -> float:
    s = row.scenario
    B, out = float(s.batch), float(s.output_tokens)
    return {
        "decode_tokens_per_s_per_user": lambda: 1.0 / tpot_s,
        "aggregate_decode_tokens_per_s": lambda: B / tpot_s,
        "tpot_ms": lambda: tpot_s * 1e3,
        "output_throughput_tokens_per_s": lambda: B * out / (ttft_s + (out - 1.0) * tpot_s),
        "output_throughput_tokens_per_s_per_gpu": lambda: B * out / (ttft_s + (out - 1.0) * tpot_s) / row.num_gpus,
        "e2e_latency_s": lambda: ttft_s + (out - 1.0) * tpot_s,
    }[row.metric]()


def predict(row: Measurement, profile: EfficiencyProfile) -> float:
    """The model's value for a measurement, in the row's metric (see METRICS), with the given profile.

    A layer-split row is one device's time over all the layers plus one hop (costed at the profile's small-message
    collective latency) per GPU boundary per token."""
    if row.scenario is None or row.hardware is None or row.metric == "serving_throughput_tokens_per_s":
        raise ValueError(f"measurement {row.id}: cannot be predicted ({row.excluded_because or row.category})")
    profile = profile.as_of(row.run_date or None)  # the engine as it ran on the row's date
    e = estimate(row.model, row.hardware, row.scenario, profile)
    hop = row.pipeline_hops * profile.allreduce_latency_s
    return float(_from_tpot(row, float(e.tpot_s) + hop, float(e.ttft_s) + hop))


# --------------------------------------------------------------------------------------------------- surrogate


@dataclass(frozen=True, eq=False)
class _Basis:
    """Everything predict() needs that does not depend on the profile, for many rows at once. Operator tables are
    (rows, operators): weight, KV (attention operator / others), activation bytes, and FLOPs at the GEMM rate and at
    the attention-precision rate; d* for the decode step, p* for prefill (zeros unless the metric needs TTFT)."""

    dw: np.ndarray
    dkv_attn: np.ndarray
    dkv_other: np.ndarray
    da: np.ndarray
    dfg: np.ndarray
    dfa: np.ndarray
    pw: np.ndarray
    pkv_attn: np.ndarray
    pkv_other: np.ndarray
    pa: np.ndarray
    pfg: np.ndarray
    pfa: np.ndarray
    bw: np.ndarray  # peak bytes/s
    inv_gemm: np.ndarray  # (rows, 1) seconds per FLOP at the GEMM precision's peak
    inv_attn: np.ndarray  # (rows, 1) the same at the attention precision
    weight_only: np.ndarray  # 1.0 where roofline.is_weight_only, else 0.0
    gqa: np.ndarray  # H/K - 1 (0 for MLA)
    layers: np.ndarray
    moe_layers: np.ndarray
    fused_nvfp4: np.ndarray  # 1 where the MoE layers pay the NVFP4 fraction (roofline.fused_nvfp4_moe), else 0
    rocm: np.ndarray  # 1 where the MoE layers pay the ROCm factor (roofline.runs_rocm), else 0
    tp: np.ndarray  # tensor-parallel GPUs
    link: np.ndarray  # bytes/s per direction
    msg_decode: np.ndarray
    msg_prefill: np.ndarray
    hops: np.ndarray
    gpus: np.ndarray  # devices measured (for per-GPU metrics)
    batch: np.ndarray
    output: np.ndarray
    metric: np.ndarray  # index into _METRIC_CODES
    measured: np.ndarray
    needs_prefill: np.ndarray
    any_prefill: bool
    any_tp: bool
    only_rate: bool  # every row's metric is tokens/s per user


_METRIC_CODES = (
    "decode_tokens_per_s_per_user",
    "aggregate_decode_tokens_per_s",
    "tpot_ms",
    "output_throughput_tokens_per_s",
    "e2e_latency_s",
    "output_throughput_tokens_per_s_per_gpu",
)
_NEEDS_PREFILL = ("output_throughput_tokens_per_s", "output_throughput_tokens_per_s_per_gpu", "e2e_latency_s")


def _ops(row: Measurement, *, prefill: bool) -> list[tuple[float, float, float, float, bool, bool]]:
    ops = step_operator_work(row.model, row.scenario, prefill=prefill)
    out = []
    for o in ops:
        f = float(o.flops)
        attn_rate = o.rate == "attention"
        out.append(
            (float(o.weight_bytes), float(o.kv_bytes), float(o.activation_bytes), f, attn_rate, o.name == "attention")
        )
    return out


def _basis(rows: Sequence[Measurement]) -> _Basis:
    if not rows:
        raise ValueError("no measurements to fit")
    dec = [_ops(r, prefill=False) for r in rows]
    pre = [_ops(r, prefill=True) if r.metric in _NEEDS_PREFILL else [] for r in rows]
    width = max(max(len(o) for o in dec), max(len(o) for o in pre))

    def table(ops_per_row, pick):
        t = np.zeros((len(rows), width))
        for i, ops in enumerate(ops_per_row):
            for j, (w, kv, a, f, attn_rate, attn_op) in enumerate(ops):
                t[i, j] = pick(w, kv, a, f, attn_rate, attn_op)
        return t

    def tables(ops_per_row):
        return (
            table(ops_per_row, lambda w, kv, a, f, ar, ao: w),
            table(ops_per_row, lambda w, kv, a, f, ar, ao: kv if ao else 0.0),
            table(ops_per_row, lambda w, kv, a, f, ar, ao: 0.0 if ao else kv),
            table(ops_per_row, lambda w, kv, a, f, ar, ao: a),
            table(ops_per_row, lambda w, kv, a, f, ar, ao: 0.0 if ar else f),
            table(ops_per_row, lambda w, kv, a, f, ar, ao: f if ar else 0.0),
        )

    def per_row(fn, dtype=float):
        return np.array([fn(r) for r in rows], dtype=dtype)

    precisions = [
        (rt.gemm_precision, rt.attention_precision) for rt in (rates_for(r.hardware, IDEAL, r.scenario) for r in rows)
    ]
    dw, dkv_attn, dkv_other, da, dfg, dfa = tables(dec)
    pw, pkv_attn, pkv_other, pa, pfg, pfa = tables(pre)
    metric = per_row(lambda r: _METRIC_CODES.index(r.metric), int)
    tp = per_row(lambda r: float(r.scenario.num_gpus))
    needs_prefill = per_row(lambda r: r.metric in _NEEDS_PREFILL, bool)
    return _Basis(
        dw=dw,
        dkv_attn=dkv_attn,
        dkv_other=dkv_other,
        da=da,
        dfg=dfg,
        dfa=dfa,
        pw=pw,
        pkv_attn=pkv_attn,
        pkv_other=pkv_other,
        pa=pa,
        pfg=pfg,
        pfa=pfa,
        bw=per_row(lambda r: attainable_bandwidth_bytes_per_s(r.hardware)),
        inv_gemm=np.array(
            [[1.0 / attainable_flop_per_s(r.hardware, g)] for r, (g, _) in zip(rows, precisions, strict=True)]
        ),
        inv_attn=np.array(
            [[1.0 / attainable_flop_per_s(r.hardware, a)] for r, (_, a) in zip(rows, precisions, strict=True)]
        ),
        weight_only=np.array(
            [float(is_weight_only(r.scenario.weights.bits, g)) for r, (g, _) in zip(rows, precisions, strict=True)]
        ),
        gqa=per_row(lambda r: 0.0 if r.model.mla else r.model.num_heads / r.model.num_kv_heads - 1.0),
        layers=per_row(lambda r: r.model.num_layers),
        moe_layers=per_row(lambda r: r.model.num_moe_layers),
        fused_nvfp4=np.array(
            [
                float(fused_nvfp4_moe(r.scenario.weights, g, r.hardware))
                for r, (g, _) in zip(rows, precisions, strict=True)
            ]
        ),
        rocm=per_row(lambda r: float(runs_rocm(r.hardware))),
        tp=tp,
        link=per_row(lambda r: link_peak_bytes_per_s(r.hardware)),
        msg_decode=per_row(lambda r: float(r.scenario.batch) * r.model.d_model * ACTIVATION_BYTES),
        msg_prefill=per_row(
            lambda r: (
                float(r.scenario.batch * max(float(r.scenario.context_tokens), 1.0))
                * r.model.d_model
                * ACTIVATION_BYTES
            )
        ),
        hops=per_row(lambda r: r.pipeline_hops),
        gpus=per_row(lambda r: r.num_gpus),
        batch=per_row(lambda r: float(r.scenario.batch)),
        output=per_row(lambda r: float(r.scenario.output_tokens)),
        metric=metric,
        measured=per_row(lambda r: r.value),
        needs_prefill=needs_prefill,
        any_prefill=bool(needs_prefill.any()),
        any_tp=bool((tp > 1).any()),
        only_rate=bool((metric == 0).all()),
    )


def _surrogate(b: _Basis, P: dict[str, np.ndarray | float]) -> np.ndarray:
    """predict() for every row at once; P maps each field of PARAMS to a scalar or a (rows,) array, in fit
    coordinates (the bandwidth limit as its inverse)."""
    bw = b.bw * P["bandwidth_efficiency"]
    inverse_limit = P["bandwidth_limit_bytes_per_s"]
    if np.any(inverse_limit > 0):
        bw = np.minimum(bw, 1.0 / np.maximum(inverse_limit, 1e-300))
    inv_bw = (1.0 / bw)[:, None]
    inv_rw = inv_bw * (1.0 + b.weight_only * (1.0 / np.asarray(P["lowbit_bandwidth_efficiency"]) - 1.0))[:, None]
    inv_rkv = inv_bw / np.reshape(P["kv_bandwidth_efficiency"], (-1, 1))
    reads = np.reshape(1.0 + P["kv_gqa_reread_fraction"] * b.gqa, (-1, 1))
    flops = np.reshape(P["flops_efficiency"], (-1, 1))
    latency = P["allreduce_latency_s"]
    fixed = (
        P["per_token_overhead_s"]
        + P["per_layer_overhead_s"] * b.layers
        + moe_cost_s(P, b.fused_nvfp4, b.rocm) * b.moe_layers
        + P["per_sequence_overhead_s"] * sequences_charged(b.batch)  # one row sampled per sequence
        + b.hops * latency
    )

    def step(w, kv_attn, kv_other, a, fg, fa, msg):
        mem = w * inv_rw + (kv_attn * reads + kv_other) * inv_rkv + a * inv_bw
        t = np.maximum(mem, (fg * b.inv_gemm + fa * b.inv_attn) / flops).sum(axis=1) + fixed
        if b.any_tp:
            N = b.tp
            link = b.link * P["interconnect_efficiency"]
            t = t + np.where(N > 1, 2 * b.layers * (latency + 2 * (N - 1) / N * msg / link), 0.0)
        return t

    tpot = step(b.dw, b.dkv_attn, b.dkv_other, b.da, b.dfg, b.dfa, b.msg_decode)
    if b.only_rate:
        return 1.0 / tpot
    ttft = 0.0
    if b.any_prefill:
        ttft = np.where(b.needs_prefill, step(b.pw, b.pkv_attn, b.pkv_other, b.pa, b.pfg, b.pfa, b.msg_prefill), 0.0)
    serve = ttft + (b.output - 1.0) * tpot
    throughput = b.batch * b.output / np.where(serve > 0, serve, np.inf)
    values = np.stack([1.0 / tpot, b.batch / tpot, tpot * 1e3, throughput, serve, throughput / b.gpus])
    return values[b.metric, np.arange(len(b.metric))]


def _param_arrays(profiles: Sequence[EfficiencyProfile]) -> dict[str, np.ndarray]:
    return {a: np.array([param.get(p) for p in profiles]) for a, param in PARAMS.items()}


def check_surrogate(rows: Sequence[Measurement], profiles: Sequence[EfficiencyProfile]) -> float:
    """Largest relative gap between the vectorised fitting model and predict() (the real estimate)."""
    fast = _surrogate(_basis(rows), _param_arrays(profiles))
    slow = np.array([predict(r, p) for r, p in zip(rows, profiles, strict=True)])
    return float(np.max(np.abs(fast / slow - 1.0)))


# --------------------------------------------------------------------------------------------------- fitting


def identifiable(rows: Sequence[Measurement]) -> tuple[str, ...]:
    """The fields these rows can pin down, by what varies across them:

    - bandwidth_efficiency and per_token_overhead_s: always (bytes-proportional time and a fixed step cost);
    - per_layer_overhead_s: three or more layer counts (with two, every per-layer cost is confounded with whatever
      else differs between the two models: size, GQA ratio, KV bytes);
    - lowbit_bandwidth_efficiency: weight-only formats (next to formats that are not, it is pinned down; when every
      row is weight-only only its product with bandwidth_efficiency is, and the prior splits the product);
    - kv_bandwidth_efficiency: the same model, format and device at two generation lengths or two context depths
      (the KV cost shows up only as a difference); kv_gqa_reread_fraction: such pairs at two GQA ratios (H/K);
    - bandwidth limit: one model and format on devices whose peak bandwidths differ by 1.5x or more;
    - allreduce_latency_s: tensor-parallel or layer-split rows."""
    free = ["bandwidth_efficiency", "per_token_overhead_s"]
    if len({r.model.num_layers for r in rows}) >= 3:
        free.append("per_layer_overhead_s")
    if any(is_weight_only(r.scenario.weights.bits, _gemm(r)) for r in rows):
        free.append("lowbit_bandwidth_efficiency")
    lengths: dict[tuple, set[tuple[float, float]]] = {}
    for r in rows:
        s = r.scenario
        lengths.setdefault((r.model.id, r.device, r.weights), set()).add(
            (float(s.context_tokens), float(s.output_tokens))
        )
    pairs = {k for k, v in lengths.items() if len(v) > 1}
    if pairs:
        free.append("kv_bandwidth_efficiency")
        ratios = {r.model.num_heads / r.model.num_kv_heads for r in rows if (r.model.id, r.device, r.weights) in pairs}
        if len(ratios) > 1:
            free.append("kv_gqa_reread_fraction")
    peaks: dict[tuple, list[float]] = {}
    for r in rows:
        peaks.setdefault((r.model.id, r.weights), []).append(r.hardware.memory_bandwidth_bytes_per_s)
    if any(max(v) >= 1.5 * min(v) for v in peaks.values()):
        free.append("bandwidth_limit_bytes_per_s")
    if any(r.parallelism != "none" for r in rows):
        free.append("allreduce_latency_s")
    return tuple(free)


def _gemm(r: Measurement) -> str:
    return rates_for(r.hardware, IDEAL, r.scenario).gemm_precision


def fit_profile(
    rows: Sequence[Measurement],
    prior: EfficiencyProfile,
    free: Sequence[str] | None = None,
) -> EfficiencyProfile:
    """The profile (prior's id and name) that best predicts these rows: fields in ``free`` (default: the
    identifiable ones) fitted, the others kept at the prior's values. Deterministic."""
    rows = [r for r in rows if r.fitted]
    if not rows:
        return prior
    free = tuple(identifiable(rows) if free is None else free)
    unknown = [a for a in free if a not in PARAMS]
    if unknown:
        raise ValueError(f"cannot fit {unknown[0]!r} (fittable: {', '.join(PARAMS)})")
    b = _basis(rows)
    base = {a: param.get(prior) for a, param in PARAMS.items()}
    lo = np.array([PARAMS[a].lo for a in free])
    hi = np.array([PARAMS[a].hi for a in free])
    centre = np.array([PARAMS[a].get(prior) for a in free])
    inv_width = 1.0 / np.array([PARAMS[a].width for a in free])
    log_measured = np.log(b.measured)

    def objective(x: np.ndarray) -> float:
        P = dict(base)
        P.update(zip(free, x, strict=True))
        r = np.log(_surrogate(b, P)) - log_measured
        sse = r @ r
        if not sse < 1e30:  # nan or inf: a parameter set the model cannot evaluate
            return 1e30
        z = (x - centre) * inv_width
        return float(sse + PRIOR_WEIGHT * (z @ z))

    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        x = minimise_boxed(objective, np.clip(centre, lo, hi), lo, hi)
    fitted = with_fitted(prior, {a: PARAMS[a].rounded(v) for a, v in zip(free, x, strict=True)})
    if "bandwidth_limit_bytes_per_s" in free:
        # a limit above every fitted device's achievable bandwidth changes no fitted row: the data say nothing
        # about it, so it takes its neutral value (no limit) rather than an arbitrary large number
        reach = max(attainable_bandwidth_bytes_per_s(r.hardware) for r in rows) * fitted.bandwidth_efficiency
        if fitted.bandwidth_limit_bytes_per_s >= reach:
            fitted = replace(fitted, bandwidth_limit_bytes_per_s=math.inf)
    return fitted


def fit_engine(
    rows: Sequence[Measurement], prior: EfficiencyProfile, free: Sequence[str] | None = None
) -> EfficiencyProfile:
    """One engine's profile: the current values fitted to the rows of its current release period (``free``: the
    fields to fit there; default the identifiable ones), and for each older period (engines.RELEASE_PERIODS) a dated
    revision holding every revisable field whose fit on that period's rows differs. An engine without periods (or
    without rows in an older one) gets fit_profile's profile and no history."""
    rows = [r for r in rows if r.fitted]
    current_rows = [r for r in rows if not r.period]
    current = fit_profile(current_rows, prior, free) if current_rows else prior
    revisions = []
    for until, note in sorted(RELEASE_PERIODS.get(prior.id, ())):
        own = [r for r in rows if r.period == until]
        if not own:
            continue
        old = fit_profile(own, prior)
        values = tuple(
            (f.attr, getattr(old, f.attr))
            for f in FIELDS
            if f.revisable and getattr(old, f.attr) != getattr(current, f.attr) and math.isfinite(getattr(old, f.attr))
        )
        if values:
            revisions.append(ProfileRevision(until=until, values=values, note=note))
    return replace(current, history=tuple(revisions))


def history_reason(report: FitReport) -> str:
    """The profiles.yaml `source` line of a batch-1 engine's dated revisions ('' without history)."""
    parts = []
    for rev in sorted(report.profile.history, key=lambda r: r.until):
        own = [r for r in report.rows if r.period == rev.until]
        devices = sorted({r.device for r in own})
        fields = ", ".join(next(f.key for f in FIELDS if f.attr == a) for a, _ in rev.values)
        parts.append(
            f"history: before {rev.until}, {fields} fitted to the {len(own)} batch-1 rows of that period on "
            f"{len(devices)} devices ({', '.join(devices)}): {rev.note}"
        )
    return "; ".join(parts)


def fit_all(
    rows: Sequence[Measurement],
    priors: dict[str, EfficiencyProfile],
    *,
    exclude_device: str | None = None,
    cache: dict | None = None,
) -> dict[str, EfficiencyProfile]:
    """One profile per engine the rows name: fitted to its batch-1 rows (those of ``exclude_device`` left out), or
    its prior when it has none. ``cache`` reuses fits of identical row sets (a fold that leaves out a device an
    engine was never measured on gives that engine's full fit)."""
    cache = {} if cache is None else cache
    out = {}
    for pid in sorted({r.profile for r in rows if r.evaluable}):
        own = [r for r in rows if r.fitted and r.profile == pid and r.device != exclude_device]
        key = (priors[pid], tuple(r.id for r in own))
        if key not in cache:
            cache[key] = fit_engine(own, priors[pid]) if own else priors[pid]
        out[pid] = cache[key]
    return out


# --------------------------------------------------------------------------------------------------- validation


@dataclass(frozen=True, eq=False)
class CrossValidation:
    """Leave-one-hardware-out predictions: every evaluable row predicted by profiles fitted without its device."""

    rows: tuple[Measurement, ...]
    predicted: np.ndarray
    measured: np.ndarray
    profiles_by_device: dict[str, dict[str, EfficiencyProfile]]

    @property
    def error(self) -> np.ndarray:
        return relative_error(self.predicted, self.measured)

    @property
    def headline(self) -> np.ndarray:
        """Mask of the batch-1 single-device decode rows (the targets apply to these)."""
        return np.array([r.headline for r in self.rows], dtype=bool)

    def summary(self, mask: np.ndarray | None = None) -> ErrorSummary:
        """Over the headline rows by default."""
        return ErrorSummary.of(self.error[self.headline if mask is None else mask])

    def by_profile(self, *, headline_only: bool = True) -> dict[str, ErrorSummary]:
        out = {}
        for pid in sorted({r.profile for r in self.rows}):
            mask = np.array([r.profile == pid for r in self.rows]) & (self.headline if headline_only else True)
            if mask.any():
                out[pid] = self.summary(mask)
        return out


def cross_validate(
    rows: Sequence[Measurement],
    priors: dict[str, EfficiencyProfile] | None = None,
    *,
    cache: dict | None = None,
) -> CrossValidation:
    """Leave one hardware device out: fit every engine without the device's rows, predict them, for each device.
    Rows that are predicted but not fitted (static batch) get the same treatment, so their engine's fit never sees
    their device either."""
    priors = priors or default_priors(rows)
    evaluable = [r for r in rows if r.evaluable]
    devices = sorted({r.device for r in evaluable})
    cache = {} if cache is None else cache
    by_device = {d: fit_all(evaluable, priors, exclude_device=d, cache=cache) for d in devices}
    predicted = np.array([predict(r, by_device[r.device][r.profile]) for r in evaluable])
    return CrossValidation(
        rows=tuple(evaluable),
        predicted=predicted,
        measured=np.array([r.value for r in evaluable]),
        profiles_by_device=by_device,
    )


def family_of(row: Measurement) -> str:
    """The row's chip family (engines.CHIP_FAMILIES), or its device for a chip outside every family."""
    return chip_family(row.fields.get("hardware_id", "")) or row.device


def cross_validate_families(
    rows: Sequence[Measurement],
    priors: dict[str, EfficiencyProfile] | None = None,
    *,
    cache: dict | None = None,
) -> CrossValidation:
    """Leave one chip family out: fit every engine without the family's rows (an engine left with none keeps its
    prior), predict them, for each family. ``profiles_by_device`` is keyed by family."""
    priors = priors or default_priors(rows)
    evaluable = [r for r in rows if r.evaluable]
    cache = {} if cache is None else cache
    by_family = {
        f: fit_all([r for r in evaluable if family_of(r) != f], priors, cache=cache)
        for f in sorted({family_of(r) for r in evaluable})
    }
    predicted = np.array([predict(r, by_family[family_of(r)].get(r.profile, priors[r.profile])) for r in evaluable])
    return CrossValidation(
        rows=tuple(evaluable),
        predicted=predicted,
        measured=np.array([r.value for r in evaluable]),
        profiles_by_device=by_family,
    )


def validation_table(
    rows: Sequence[Measurement] | None = None,
    profiles: dict[str, EfficiencyProfile] | None = None,
    cv: CrossValidation | None = None,
    cv_family: CrossValidation | None = None,
) -> list[dict]:
    """One record per measurement for a validation page: what was measured, what the model predicts for it with
    the profile fitted without its device (LOHO), without its chip family (LOFO), with the profile in profiles.yaml
    (fitted on everything) and with the pure roofline, and the relative errors (predicted / measured - 1; nan where
    a row is not predicted). Pass cached ``cv`` / ``cv_family`` (each takes seconds)."""
    rows = load_measurements() if rows is None else rows
    profiles = load_profiles(PROFILES_PATH) if profiles is None else profiles
    cv = cross_validate(rows, default_priors(rows, profiles)) if cv is None else cv
    cv_family = cross_validate_families(rows, default_priors(rows, profiles)) if cv_family is None else cv_family
    loho = {r.id: p for r, p in zip(cv.rows, cv.predicted, strict=True)}
    lofo = {r.id: p for r, p in zip(cv_family.rows, cv_family.predicted, strict=True)}
    out = []
    for r in rows:
        s = r.scenario
        record = {
            "id": r.id,
            "model": r.model_name,
            "model_id": r.model.id,
            "hardware": r.hardware_name,
            "hardware_id": r.fields.get("hardware_id", ""),
            "device": r.device,
            "engine": r.engine,
            "run_date": r.run_date,
            "profile": r.profile,
            "category": r.category,
            "headline": r.headline,
            "fitted": r.fitted,
            "weights": r.weights,
            "kv_cache": r.kv_cache,
            "batch": float(s.batch) if s is not None else math.nan,
            "context_tokens": float(s.context_tokens) if s is not None else math.nan,
            "output_tokens": float(s.output_tokens) if s is not None else math.nan,
            "num_gpus": r.num_gpus,
            "parallelism": r.parallelism,
            "metric": r.metric,
            "unit": r.unit,
            "measured": r.value,
            "source": r.source,
            "trust": r.trust,
            "notes": r.notes,
            "mapping_notes": r.mapping_notes,
            "excluded_because": r.excluded_because,
        }
        predictions = {
            "loho": float(loho.get(r.id, math.nan)),
            "lofo": float(lofo.get(r.id, math.nan)),
            "fitted": math.nan,
            "ideal": math.nan,
        }
        if r.evaluable:
            if r.profile in profiles:
                predictions["fitted"] = predict(r, profiles[r.profile])
            predictions["ideal"] = predict(r, profiles.get("ideal", IDEAL))
        for k, v in predictions.items():
            record[f"predicted_{k}"] = v
            record[f"error_{k}"] = v / r.value - 1.0
        out.append(record)
    return out


def write_validation_table(path: str | Path, records: Sequence[dict]) -> None:
    """validation_table() records as JSON, floats exact (nan as NaN, which Python's json reads back)."""
    Path(path).write_text(json.dumps(list(records), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def read_validation_table(path: str | Path) -> list[dict]:
    """The records write_validation_table wrote."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


# --------------------------------------------------------------------------------------------------- priors


def default_priors(
    rows: Sequence[Measurement], profiles: dict[str, EfficiencyProfile] | None = None
) -> dict[str, EfficiencyProfile]:
    """The prior of every engine the rows name. An engine with batch-1 rows is pulled towards the common base,
    `typical` (never towards its own previous fit: calibrate must give the same result run after run); an engine
    with rows that are only predicted keeps its profiles.yaml entry, or its documented values."""
    profiles = profiles if profiles is not None else load_profiles(PROFILES_PATH)
    if "typical" not in profiles:
        raise CatalogError("profiles: entry 'typical' is missing (it is the prior of every fit)")
    typical = profiles["typical"]
    fitted = {r.profile for r in rows if r.fitted}
    out = {}
    for pid in sorted({r.profile for r in rows if r.profile}):
        if pid in fitted:  # typical's values, but the engine's documented ones its rows cannot fit (memory)
            out[pid] = documented_profile(pid, typical)
        else:
            out[pid] = profiles.get(pid) or documented_profile(pid, typical)
    return out


# --------------------------------------------------------------------------------------------------- calibrate


@dataclass(frozen=True)
class FitReport:
    """One engine's calibration: the profile, its fitted fields, its rows, in-sample and LOHO errors."""

    profile: EfficiencyProfile
    free: tuple[str, ...]
    rows: tuple[Measurement, ...]
    in_sample: ErrorSummary  # headline rows, fitted on everything
    in_sample_all: ErrorSummary  # every fitted row
    loho: ErrorSummary  # headline rows
    loho_all: ErrorSummary
    current_rows: tuple[Measurement, ...] = ()  # the rows of the current release period (all rows without periods)

    @property
    def fitted_rows(self) -> tuple[Measurement, ...]:
        """The rows the current values rest on."""
        return self.current_rows or self.rows


def calibrate(
    rows: Sequence[Measurement], profiles: dict[str, EfficiencyProfile]
) -> tuple[dict[str, FitReport], CrossValidation]:
    """Fit every engine with batch-1 rows on all of them, and cross-validate (leave one hardware device out)."""
    priors = default_priors(rows, profiles)
    cv = cross_validate(rows, priors)
    reports = {}
    for pid in sorted({r.profile for r in rows if r.fitted}):
        own = tuple(r for r in rows if r.fitted and r.profile == pid)
        current = tuple(r for r in own if not r.period)
        free = identifiable(current or own)
        profile = fit_engine(own, priors[pid], free)
        errors = relative_error([predict(r, profile) for r in own], [r.value for r in own])
        head = np.array([r.headline for r in own])
        cv_mask = np.array([r.profile == pid and r.fitted for r in cv.rows])
        reports[pid] = FitReport(
            profile=profile,
            free=free,
            rows=own,
            in_sample=ErrorSummary.of(errors[head]),
            in_sample_all=ErrorSummary.of(errors),
            loho=cv.summary(cv_mask & cv.headline),
            loho_all=cv.summary(cv_mask),
            current_rows=current,
        )
    return reports, cv


# why identifiable() leaves a field out (profiles.yaml `source`)
NOT_IDENTIFIED = {
    "bandwidth_efficiency": "no rows",
    "per_token_overhead_s": "no rows",
    "per_layer_overhead_s": "fewer than three layer counts, so a per-layer cost cannot be told apart from the "
    "per-token cost and from whatever else differs between the models",
    "lowbit_bandwidth_efficiency": "no weight-only format among the rows",
    "kv_bandwidth_efficiency": "no model measured on one device at two generation lengths, and the KV cache is a "
    "small share of the bytes in these rows",
    "kv_gqa_reread_fraction": "the KV cost is not measured at two GQA ratios (see kv_bandwidth_efficiency)",
    "bandwidth_limit_bytes_per_s": "no model and format measured on devices whose peak bandwidths differ by 1.5x",
    "allreduce_latency_s": "single-device rows only",
    "moe_layer_overhead_s": "only serving measurements of MoE models pin it down (data/serving_measurements.csv) and "
    "this engine has none",
    "per_sequence_overhead_s": "batch-1 rows cannot tell a per-sequence cost from the per-step cost",
    "nvfp4_moe_cost_fraction": "only serving measurements of MoE models in NVFP4 pin it down (the pooled serving fit)",
    "rocm_moe_cost_factor": "only serving measurements of MoE models on AMD and on other GPUs pin it down (the pooled "
    "serving fit)",
    "flops_efficiency": "batch-1 decode is memory-bound: no row constrains it",
    "interconnect_efficiency": "at batch 1 the all-reduce messages are a few kB, their bandwidth time is negligible",
    "usable_memory_fraction": "speed measurements say nothing about memory capacity",
    "reserved_memory_bytes": "speed measurements say nothing about memory capacity",
}


def _source_name(source: str) -> str:
    m = re.search(r"https?://(\S+)", source)
    return (m.group(1).rstrip(").,;") if m else source.split("(")[0].strip()) or "?"


def field_reasons(report: FitReport) -> dict[str, str]:
    """Why each field of a batch-1-fitted profile has its value (profiles.yaml `source`), by SI attribute."""
    rows = report.fitted_rows
    sources = sorted({_source_name(r.source) for r in rows})
    devices = len({r.device for r in rows})
    fitted = (
        f"fitted to {len(rows)} measurements on {devices} devices from {', '.join(sources)}; "
        f"LOHO median error {report.loho.median:.1%} ({report.loho.n} batch-1 single-device rows)"
    )
    all_weight_only = all(is_weight_only(r.scenario.weights.bits, _gemm(r)) for r in report.rows)
    out = {}
    for f in FIELDS:
        if f.attr not in report.free:
            out[f.attr] = documented_reason(report.profile.id, f.attr) or (
                f"not fitted: {NOT_IDENTIFIED[f.attr]}; typical's value"
            )
        elif f.attr in ("bandwidth_efficiency", "lowbit_bandwidth_efficiency") and all_weight_only:
            out[f.attr] = (
                fitted + "; every row is weight-only, so only the product of the two factors is pinned down (the "
                "prior splits it)"
            )
        else:
            out[f.attr] = fitted
    return out


def _pct(x: float) -> str:
    return "    -" if math.isnan(x) else f"{x * 100:5.1f}%"


def format_report(
    rows: Sequence[Measurement],
    reports: dict[str, FitReport],
    cv: CrossValidation,
    path,
    cv_family: CrossValidation | None = None,
) -> str:
    """The batch-1 part of what calibrate prints: rows used, fit and LOHO errors per profile, parameters, the
    headline, and leave-one-chip-family-out (``cv_family``) beside it."""
    lines = [
        f"{len(rows)} measurements in {path}: {sum(r.fitted for r in rows)} fitted (batch-1 decode), "
        f"{sum(r.evaluable for r in rows)} predicted, {sum(r.headline for r in rows)} in the headline set "
        "(batch-1, one device)",
        "",
        "|error| = |predicted / measured - 1| in the row's metric; fit = in-sample, LOHO = leave one hardware out;"
        " headline rows (all fitted rows)",
        f"{'profile':<13} {'rows':>4} {'devices':>7}   {'fit median':>17} {'fit p90':>15}   {'LOHO median':>17} "
        f"{'LOHO p90':>15}",
    ]
    for pid, rep in reports.items():
        lines.append(
            f"{pid:<13} {len(rep.rows):>4} {len({r.device for r in rep.rows}):>7}   "
            f"{_pct(rep.in_sample.median):>8} ({_pct(rep.in_sample_all.median)}) "
            f"{_pct(rep.in_sample.p90):>7} ({_pct(rep.in_sample_all.p90)})   "
            f"{_pct(rep.loho.median):>8} ({_pct(rep.loho_all.median)}) "
            f"{_pct(rep.loho.p90):>7} ({_pct(rep.loho_all.p90)})"
        )
    predicted_only = sorted({r.profile for r in cv.rows if not r.fitted})
    for pid in predicted_only:
        mask = np.array([r.profile == pid and not r.fitted for r in cv.rows])
        s = cv.summary(mask)
        cats = sorted({r.category for r in cv.rows if r.profile == pid and not r.fitted})
        lines.append(
            f"{pid:<13} {0:>4}   (not fitted; documented profile against {s.n} {'/'.join(cats)} rows: "
            f"median {_pct(s.median).strip()}, p90 {_pct(s.p90).strip()})"
        )
    lines += ["", "fitted parameters (file units; * = fitted, others from typical or documented)"]
    for pid, rep in reports.items():
        parts = [
            f"{f.key}={file_value(f, getattr(rep.profile, f.attr))}{'*' if f.attr in rep.free else ''}"
            for f in FIELDS
            if f.attr in PARAMS  # usable_memory_fraction is never fitted
        ]
        lines.append(f"  {pid}: " + ", ".join(parts))
        for rev in sorted(rep.profile.history, key=lambda r: r.until):
            old = ", ".join(f"{f.key}={file_value(f, v)}" for a, v in rev.values for f in FIELDS if f.attr == a)
            lines.append(f"    before {rev.until}: {old}")
    head = cv.summary()
    ok = head.median <= TARGET_MEDIAN and head.p90 <= TARGET_P90
    lines += [
        "",
        f"LOHO, batch-1 single-device decode: {head.n} rows on {len({r.device for r in cv.rows if r.headline})} "
        f"devices, median |error| {head.median:.1%}, p90 {head.p90:.1%} "
        f"(targets {TARGET_MEDIAN:.0%} / {TARGET_P90:.0%}: {'met' if ok else 'NOT met'})",
    ]
    for pid, s in cv.by_profile().items():
        lines.append(f"  {pid:<13} {s.n:>3} rows  median {_pct(s.median)}  p90 {_pct(s.p90)}")
    if cv_family is not None:
        fam = cv_family.summary()
        n_fam = len({family_of(r) for r in cv_family.rows if r.headline})
        lines.append(
            f"leave-one-chip-family-out, batch-1 single-device decode: {fam.n} rows on {n_fam} chip families, "
            f"median |error| {fam.median:.1%}, p90 {fam.p90:.1%}"
        )
    return "\n".join(lines)
