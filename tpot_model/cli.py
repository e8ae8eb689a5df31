"""Command line: ``python -m tpot_model {estimate,evaluate,sweep,list,calibrate,frontier} ...``.

Stdlib argparse + csv and numpy only (no pandas), so a sweep process stays cheap. Bad input ends with exit status 2
and one line on stderr naming the file, row and field; the model math itself is never wrapped in a catch-all, so a
bug in it surfaces as a traceback.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import datetime
import difflib
import importlib
import io
import json
import math
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from .catalog import (
    CatalogError,
    Hardware,
    ModelSpec,
    load_hardware_catalog,
    load_model_catalog,
    resolve_hardware,
    resolve_model,
)
from .cli_text import (
    assumed_window_note,
    counting,
    int_or_none,
    no_price_note,
    parallelism_note,
    platform_note,
    projection_note,
    remedy,
    window_note,
)
from .csv_format import FLOAT_DIGITS, csv_bytes, float_field, float_text, float_texts, int_field, label_field
from .economics import priced_bases
from .engines import OF_FREE_MEMORY
from .estimate import MAX_GPUS_SEARCHED, Estimate, estimate
from .files import APP_VERSION
from .numtext import large, shown, usd
from .precision import COMPUTE_PRECISIONS, FORMATS, KV_FORMATS, parse_format
from .prices import DEFAULT_BASIS, MAX_USD_PER_GPU_HOUR, PRICE_BASES, basis_for_price
from .profiles import BASES, EfficiencyProfile, load_profiles, resolve_profile
from .roofline import BUCKETS, active_params, head_split_alternatives, scale_up_domain_gpus, total_params
from .scenario import BATCHINGS, MAX_INPUT_COUNT, PARALLELISMS, Scenario
from .units import GB, Gbit_per_s, GiB, TB_per_s, TFLOP_per_s, ms

PROG = "python -m tpot_model"
INPUT_ERRORS = (CatalogError, ValueError, OSError, csv.Error, UnicodeDecodeError, KeyError)
MAX_SWEEP_POINTS = 1 << 20  # a batch x context grid larger than this is refused (memory of the vectorised call)
DEFAULT_CONTEXT_POINTS = 256

# evaluate: input columns, their defaults ('' = none), and the result columns appended after the input columns
SCENARIO_COLUMNS = {
    "model": None,
    "hardware": None,
    "num_gpus": "1",
    "weights": "bf16",
    "kv_cache": "bf16",
    "batch": "1",
    "context_tokens": "0",
    "output_tokens": "1",
    "profile": "typical",
    "compute": "",
    "price_usd_per_gpu_hour": "",
    "batching": "static",
    "parallelism": "tp",
    "price_basis": DEFAULT_BASIS,
    "as_of": "",
}
REQUIRED_COLUMNS = ("model", "hardware")
RESULT_COLUMNS = (
    "tpot_ms",
    "tpot_ms_low",
    "tpot_ms_high",
    "tokens_per_s_per_user",
    "tokens_per_s_total",
    "tokens_per_s_per_gpu",
    "output_tokens_per_s_per_gpu",
    "output_tokens_per_s_per_gpu_low",
    "output_tokens_per_s_per_gpu_high",
    "calibration_basis",
    "engine_as_of",
    "engine_values",
    "total_tokens_per_s_per_gpu",
    "ttft_ms",
    "ttft_per_request_ms",
    "batch_prefill_ms",
    "time_to_serve_s",
    "weights_GB",
    "kv_cache_GB",
    "kv_cache_peak_GB",
    "memory_per_gpu_GB",
    "usable_memory_per_gpu_GB",
    "fits",
    "min_gpus",
    "max_batch",
    "beyond_context_window",
    "bound",
    "arithmetic_intensity_flop_per_byte",
    "usd_per_1M_tokens",
    "usd_per_1M_tokens_with_prefill",
    "price_basis",
    "price_as_of",
    "tokens_per_s_per_mw",
    "joules_per_token",
    "joules_per_token_all_in",
    "board_power_estimated",
    "compute_precision",
    "tpot_ideal_ms",
    *(f"tpot_{bucket}_ms" for bucket in BUCKETS),
)
# what every row of a sweep shares: the scenario, its price and the app that computed it (a CSV read alone says it)
SWEEP_SCENARIO_COLUMNS = ("model", "hardware", "num_gpus", "weights", "kv_cache", "compute_precision", "output_tokens",
                          "batching", "parallelism", "profile", "engine_as_of", "engine_values", "price_usd_per_gpu_hour",
                          "price_basis", "price_as_of", "app_version")  # fmt: skip
SWEEP_COLUMNS = (
    "batch",
    "context_tokens",
    "tpot_ms",
    "tokens_per_s_per_user",
    "tokens_per_s_total",
    "tokens_per_s_per_gpu",
    "ttft_ms",
    "fits",
    "usd_per_1M_tokens",
    "bound",
    "kv_cache_GB",
    "memory_per_gpu_GB",
    "tpot_ms_low",
    "tpot_ms_high",
    "batch_prefill_ms",
    *SWEEP_SCENARIO_COLUMNS,
)
BUCKET_LABELS = {
    "weights": "weights",
    "kv_cache": "KV cache",
    "compute": "compute",
    "communication": "communication",
    "overhead": "overhead",
}


class InputError(Exception):
    """Bad input: main() prints the message as one line on stderr and returns 2."""


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line (InputError) instead of usage text + exit."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise InputError(f"{self.prog}: {message} (see --help)")


# --------------------------------------------------------------------------------------------------- value parsing


def _whole(text: Any, minimum: int, maximum: int = MAX_INPUT_COUNT) -> int:
    """A whole number from minimum to maximum from text ('8', '8.0'); ValueError with a short reason otherwise."""
    s = str(text).strip()
    try:
        value = float(s)
    except ValueError:
        raise ValueError(f"must be a whole number, got {shown(s)}") from None
    if value > maximum:  # a number too long for a float (inf) too: the bound it is past
        raise ValueError(f"must be at most {maximum:,}, got {shown(s, quote=False)}")
    if not math.isfinite(value) or value != int(value):
        raise ValueError(f"must be a whole number, got {shown(s)}")
    if value < minimum:
        raise ValueError(f"must be >= {minimum}, got {shown(s, quote=False)}")
    return int(value)


def _price(text: Any) -> float:
    s = str(text).strip()
    try:
        value = float(s)
    except ValueError:
        raise ValueError(f"must be a number (USD per GPU-hour), got {shown(s)}") from None
    if value > MAX_USD_PER_GPU_HOUR:  # a number too long for a float (inf) too
        raise ValueError(f"must be at most {MAX_USD_PER_GPU_HOUR:,.0f} (USD per GPU-hour), got {shown(s, quote=False)}")
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"must be a non-negative number (USD per GPU-hour), got {shown(s)}")
    return value


def _compute(text: str | None) -> str | None:
    if text is None or not str(text).strip():
        return None
    key = str(text).strip().lower()
    if key not in COMPUTE_PRECISIONS:
        raise ValueError(f"unknown compute precision {text!r} (known: {', '.join(COMPUTE_PRECISIONS)})")
    return key


def _choice(text: str | None, allowed: tuple[str, ...], what: str) -> str:
    key = str(text or "").strip().lower()
    if key not in allowed:
        raise ValueError(f"unknown {what} {text!r} (known: {', '.join(allowed)})")
    return key


def _price_basis(text: str | None) -> str:
    s = str(text or "").strip()
    if s not in PRICE_BASES:
        raise ValueError(f"must be one of {', '.join(PRICE_BASES)}, got {s!r}")
    return s


def _as_of(text: str | None) -> str | None:
    """An ISO date (YYYY-MM-DD) for the engine's dated history; blank: None (the newest values)."""
    s = str(text or "").strip()
    if not s:
        return None
    try:
        return datetime.date.fromisoformat(s).isoformat()
    except ValueError:
        raise ValueError(f"must be an ISO date (YYYY-MM-DD), got {s!r}") from None


def _batching(text: str | None) -> str:
    return _choice(text, BATCHINGS, "batching")


def _parallelism(text: str | None) -> str:
    return _choice(text, PARALLELISMS, "parallelism")


def _arg_type(parse, *args):
    """An argparse type= from a parser that raises ValueError (argparse then names the option)."""

    def convert(text: str):
        try:
            return parse(text, *args)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    convert.__name__ = getattr(parse, "__name__", "value").lstrip("_")
    return convert


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


def _input(where: str, func, *args):
    """Call a parser/resolver; any input error becomes InputError prefixed with where."""
    try:
        return func(*args)
    except INPUT_ERRORS as e:
        message = e.args[0] if isinstance(e, KeyError) and e.args else e
        if isinstance(e, OSError) and e.strerror:
            message = f"{e.filename or ''}: {e.strerror}".lstrip(": ")
        raise InputError(f"{where}: {_one_line(message)}") from None


# --------------------------------------------------------------------------------------------------- the estimate


@dataclasses.dataclass(frozen=True)
class _Job:
    model: ModelSpec
    hardware: Hardware
    profile: EfficiencyProfile
    scenario: Scenario


def _run(job: _Job) -> tuple[Estimate, Estimate]:
    """The estimate with the chosen profile and with the ideal one (the physical bound)."""
    e = estimate(job.model, job.hardware, job.scenario, job.profile)
    ideal = (
        e if job.profile.id == "ideal" else estimate(job.model, job.hardware, job.scenario, load_profiles()["ideal"])
    )
    return e, ideal


def _f(x: Any) -> float:
    """A one-point estimate's value as a Python float."""
    return float(np.asarray(x, dtype=float).reshape(()))


def engine_values(profile: EfficiencyProfile, as_of: str | None) -> str:
    """Whose values an estimate ran at: 'newest', or 'before <until>' (the dated revision in force on `as_of`)."""
    rev = profile.revision_on(as_of)
    return "newest" if rev is None else f"before {rev.until}"


def _counted(n: int, noun: str) -> str:
    """'1 GPU', '2,048 GPUs': a count with its noun in the right number."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _as_of_text(r: dict[str, Any]) -> str:
    """' as of <date> (<whose values>)': a date past every revision, or of an engine with none, runs at the newest."""
    whose = "its newest values" if r["engine_values"] == "newest" else f"its values {r['engine_values']}"
    return f" as of {r['engine_as_of']} ({whose})"


def report(e: Estimate, ideal: Estimate) -> dict[str, Any]:
    """All numbers of a one-point estimate: SI values and display units, the unit in every key."""
    s, hw = e.scenario, e.hardware
    tpot = _f(e.tpot_s)
    breakdown = {k: _f(v) for k, v in e.breakdown_s.items()}
    return {
        "model": e.model.id,
        "model_name": e.model.name,
        "hardware": hw.id,
        "hardware_name": hw.name,
        "hardware_announced": hw.announced,
        "projection_note": projection_note(hw),  # announced, not shipping: what its numbers are
        "profile": e.profile.id,
        "platform_note": platform_note(e.profile.id, hw),  # the engine does not run on this chip's vendor: a what-if
        "engine_as_of": s.as_of or "newest",
        "engine_values": engine_values(e.profile, s.as_of),
        "parallelism_note": parallelism_note(e.model.name, e.model.moe is not None, s.parallelism),
        "num_gpus": int(_f(s.num_gpus)),
        "batch": int(_f(s.batch)),
        "context_tokens": int(_f(s.context_tokens)),
        "output_tokens": int(_f(s.output_tokens)),
        "model_max_context_tokens": e.model.max_context_tokens,
        "assumed_window_note": assumed_window_note(e.model),  # a config.json without max_position_embeddings
        "model_num_heads": e.model.num_heads,
        "beyond_context_window": e.model.past_window(_f(s.context_tokens), _f(s.output_tokens)) is not None,
        # the GPU counts nearest that divide the attention heads, when this one does not (engines refuse it)
        "head_split_alternatives": list(head_split_alternatives(e.model, int(_f(s.num_gpus)), s.parallelism)),
        "scale_up_domain_gpus": scale_up_domain_gpus(hw),
        "batching": s.batching,
        "parallelism": s.parallelism,
        "weights": s.weights.name,
        "weights_bits": s.weights.bits,
        "kv_cache": s.kv_cache.name,
        "kv_cache_bits": s.kv_cache.bits,
        "compute_requested": s.compute_requested,
        "compute_precision": e.compute_precision,
        "compute_fallback": e.compute_fallback is not None,
        "attention_precision": e.attention_precision,
        "tpot_s": tpot,
        "tpot_ms": tpot / ms,
        "tokens_per_s_per_user": _f(e.tokens_per_s_per_user),
        "tokens_per_s_total": _f(e.tokens_per_s_total),
        "tokens_per_s_per_gpu": _f(e.tokens_per_s_per_gpu),
        "output_tokens_per_s_per_gpu": _f(e.output_tokens_per_s_per_gpu),
        "output_tokens_per_s_per_gpu_low": _f(e.output_tokens_per_s_per_gpu_low),
        "output_tokens_per_s_per_gpu_high": _f(e.output_tokens_per_s_per_gpu_high),
        "tpot_ms_low": _f(e.tpot_low_s) / ms,
        "tpot_ms_high": _f(e.tpot_high_s) / ms,
        "calibration_band": e.band.level,
        "calibration_basis": e.calibration_basis,
        "total_tokens_per_s_per_gpu": _f(e.total_tokens_per_s_per_gpu),
        "ttft_s": _f(e.ttft_s),
        "ttft_ms": _f(e.ttft_s) / ms,
        "ttft_per_request_ms": _f(e.ttft_per_request_s) / ms,
        "batch_prefill_ms": _f(e.batch_prefill_s) / ms,
        "time_to_serve_s": _f(e.time_to_serve_s),
        "time_to_serve_per_request_s": _f(e.time_to_serve_per_request_s),
        "breakdown_s": breakdown,
        "breakdown_ms": {k: v / ms for k, v in breakdown.items()},
        "breakdown_percent": {k: 100.0 * v / tpot for k, v in breakdown.items()},
        "tpot_ideal_s": _f(ideal.tpot_s),
        "tpot_ideal_ms": _f(ideal.tpot_s) / ms,
        "arithmetic_intensity_flop_per_byte": _f(e.arithmetic_intensity_flop_per_byte),
        "ridge_point_flop_per_byte": float(e.ridge_point_flop_per_byte),
        # at the profile's achievable rates: the ridge `bound` is decided by
        "effective_ridge_flop_per_byte": float(e.effective_ridge_flop_per_byte),
        "bound": "compute" if bool(np.all(e.compute_bound)) else "memory",
        "weights_bytes": float(e.weight_bytes),
        "weights_GB": float(e.weight_bytes) / GB,
        "kv_cache_bytes": _f(e.kv_cache_bytes),
        "kv_cache_GB": _f(e.kv_cache_bytes) / GB,
        "kv_cache_peak_bytes": _f(e.kv_cache_peak_bytes),
        "kv_cache_peak_GB": _f(e.kv_cache_peak_bytes) / GB,
        "memory_per_gpu_bytes": _f(e.memory_per_gpu_bytes),
        "memory_per_gpu_GB": _f(e.memory_per_gpu_bytes) / GB,
        "usable_memory_per_gpu_bytes": float(e.usable_memory_per_gpu_bytes),
        "usable_memory_per_gpu_GB": float(e.usable_memory_per_gpu_bytes) / GB,
        "usable_memory_basis": e.usable_memory_basis,  # 'reported' (the nvidia-smi / rocm-smi figure) | 'datasheet'
        "memory_per_gpu_capacity_GB": hw.memory_bytes / GB,
        # what usable rests on: the vendor tool's figure where published (H200: 141 GiB = 151.4 GB, not the
        # datasheet's 141 GB), the engine's usable fraction of it (of all of it, or of what the weights and workspace
        # leave free: usable_memory_fraction_of 'free', TensorRT-LLM's), less its reservation
        "usable_memory_from_GB": (gate := e.memory_gate).capacity_bytes / GB,
        "usable_memory_fraction": gate.fraction,
        "usable_memory_fraction_of": "free" if gate.of_free else "all",
        "reserved_memory_GB": gate.reserved_bytes / GB,
        "held_per_gpu_GB": _f(e.weight_bytes_per_gpu + e.workspace_bytes_per_gpu) / GB,  # weights + workspace
        "fits": bool(np.all(e.fits)),
        "min_gpus": int_or_none(e.min_gpus),
        "max_batch": int_or_none(e.max_batch),
        "price_usd_per_gpu_hour": float(e.price_usd_per_gpu_hour),
        "price_basis": e.price.basis,
        "price_as_of": e.price.as_of,
        "price_source": e.price.source,
        "priced_bases": list(priced_bases(hw)),  # the published bases with a price for this chip
        # why there is no $ figure and what would give one (None with a price)
        "price_note": None if math.isfinite(e.price_usd_per_gpu_hour) else no_price_note(hw, e.price.basis),
        "all_in_kW_per_gpu": e.all_in_w_per_gpu / 1e3,
        "tokens_per_s_per_mw": _f(e.tokens_per_s_per_mw),
        "tokens_per_gw_year": _f(e.tokens_per_gw_year),
        "joules_per_token_all_in": _f(e.joules_per_token_all_in),
        "usd_per_1M_tokens": _f(e.usd_per_1M_tokens),
        "counting": counting("decode", s.batching),  # what tokens_per_s_per_gpu, usd_per_1M_tokens, ttft_ms count
        "usd_per_1M_tokens_with_prefill": _f(e.usd_per_1M_tokens_with_prefill),
        "joules_per_token": _f(e.joules_per_token),
        # the board power (TDP) joules_per_token rests on, per GPU, and whether it is the catalog's estimate
        "tdp_W": hw.tdp_w,
        "board_power_estimated": hw.estimated("tdp_W"),
        "estimated": list(hw.estimated_figures),  # every figure of the chip that is an estimate (YAML names)
        "remedy": remedy(e),
    }


# --------------------------------------------------------------------------------------------------- resolving


def _resolve_model(ref: str, base: Path | None = None) -> ModelSpec:
    return resolve_model(_path_near(ref, base, load_model_catalog()))


def _resolve_hardware(ref: str, base: Path | None = None) -> Hardware:
    return resolve_hardware(_path_near(ref, base, load_hardware_catalog()))


def _path_near(ref: str, base: Path | None, catalog: dict) -> str:
    """A relative file reference that is not a catalog id and not found here is looked up next to the CSV."""
    ref = ref.strip()
    if not ref:
        raise ValueError("is empty")
    if base is None or ref in catalog or Path(ref).is_absolute() or Path(ref).exists():
        return ref
    near = base / ref
    return str(near) if near.exists() else ref


# --------------------------------------------------------------------------------------------------- estimate


def _job_from_args(args: argparse.Namespace, *, batch: Any = None, context: Any = None) -> _Job:
    model = _input("--model", _resolve_model, args.model)
    hardware = _input("--hardware", _resolve_hardware, args.hardware)
    profile = _input("--profile", resolve_profile, args.profile)
    weights = _input("--weights", parse_format, args.weights)
    kv = _input("--kv", parse_format, args.kv)
    compute = _input("--compute", _compute, args.compute)
    scenario = _input(
        "scenario",
        Scenario,
        args.batch if batch is None else batch,
        args.context if context is None else context,
        args.output_tokens,
        args.gpus,
        weights,
        kv,
        compute,
        args.price,
        args.parallelism,
        args.batching,
        _input("--price-basis", basis_for_price, args.price_basis, args.price),
        args.as_of,
    )
    return _Job(model, hardware, profile, scenario)


def _cmd_estimate(args: argparse.Namespace) -> int:
    e, ideal = _run(_job_from_args(args))
    r = report(e, ideal)
    if args.json:
        print(json.dumps(_json_safe(r), indent=2))
    else:
        print(_table(r))
    return 0


def _json_safe(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _json_safe(v) for k, v in x.items()}
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def _num(x: float | None, unit: str = "") -> str:
    if x is None or not math.isfinite(x):
        return "n/a"
    a = abs(x)
    if a >= 1000:
        s = f"{x:,.0f}"
    elif a >= 100:
        s = f"{x:.1f}"
    elif a >= 1:
        s = f"{x:.2f}"
    elif a == 0:
        s = "0"
    else:
        s = f"{x:.3g}"
    return f"{s} {unit}".rstrip()


def _gb(x: float) -> str:
    return f"{x:,.2f} GB"


def _table(r: dict[str, Any]) -> str:
    """The human-readable estimate."""
    lines: list[str] = []
    add = lines.append

    def row(label: str, value: str) -> None:
        add(f"  {label:<38} {value}")

    n = r["num_gpus"]
    continuous = r["batching"] == "continuous"
    add(
        f"{r['model']} ({r['model_name']}) on {n:,} x {r['hardware_name']} ({r['parallelism']}), profile "
        f"{r['profile']}{'' if r['engine_as_of'] == 'newest' else _as_of_text(r)} | weights "
        f"{r['weights']}, KV cache {r['kv_cache']} | "
        + (
            f"continuous batching: {_counted(r['batch'], 'request')} in flight, {r['context_tokens']:,}-token prompts, "
            if continuous
            else f"batch {r['batch']:,}, context {r['context_tokens']:,} tokens, "
        )
        + _counted(r["output_tokens"], "output token")
    )
    if r["projection_note"]:
        add(f"Projection: {r['projection_note']}.")
    if r["platform_note"]:
        add(f"Note: {r['platform_note']}.")
    add("Units: GB = 1e9 bytes (decimal), ms = 1e-3 s.")
    if r["head_split_alternatives"]:
        options = " or ".join(map(str, r["head_split_alternatives"]))
        add(
            f"Note: tensor parallelism over {n} GPUs does not divide {r['model_name']}'s {r['model_num_heads']} "
            f"attention heads (engines refuse it; the estimate divides the work by {n} all the same): {options} GPUs would."
        )
    if n > r["scale_up_domain_gpus"]:
        add(
            f"Note: {n} GPUs span {-(-n // r['scale_up_domain_gpus'])} scale-up domains of {r['scale_up_domain_gpus']}: "
            "the collectives that cross them run over the scale-out network (costed at its bandwidth)."
        )
    if r["parallelism_note"]:
        add(f"Note: {r['parallelism_note']}.")
    if r["assumed_window_note"]:
        add(f"Note: {r['assumed_window_note']}.")
    if note := window_note(r["model_name"], r["model_max_context_tokens"], r["context_tokens"], r["output_tokens"]):
        add(f"Note: {note}.")
    if not r["fits"]:  # said before the speed it qualifies (the fit and remedy rows are under Memory, 30 lines down)
        said = r["remedy"] or "does not fit in memory"
        add(f"{said[0].upper()}{said[1:]}; the figures below are what it would run at if it fitted.")
    add("")
    add("Speed")
    row("TPOT (mean inter-token time)" if continuous else "TPOT (time per output token)", _num(r["tpot_ms"], "ms"))
    row("tokens/s per user", _num(r["tokens_per_s_per_user"]))
    row(f"tokens/s total (batch {r['batch']:,})", _num(r["tokens_per_s_total"]))
    row(f"tokens/s per GPU ({_counted(n, 'GPU')})", _num(r["tokens_per_s_per_gpu"]))
    row("output tokens/s per GPU (with prefill)", _num(r["output_tokens_per_s_per_gpu"]))
    row("total tokens/s per GPU (in + out)", _num(r["total_tokens_per_s_per_gpu"]))
    row("TTFT per request (continuous batching)", _num(r["ttft_per_request_ms"], "ms"))
    row(f"whole-batch prefill ({_counted(r['batch'], 'prompt')})", _num(r["batch_prefill_ms"], "ms"))
    # continuous: a request's TTFT in the steady state, then its tokens; static: the batch's prefill, then its tokens
    # (it had printed the continuous per-request time beside a static TPOT: 23.21 s where the JSON said 33.21)
    whose = "a request" if continuous else "the batch, its prefill first"
    row(f"time to serve {_counted(r['output_tokens'], 'output token')} ({whose})", _num(r["time_to_serve_s"], "s"))
    if not continuous:  # what one user waits as engines serve (Overview's figure): the steady state's TTFT and steps
        row("  one request (continuous batching)", _num(r["time_to_serve_per_request_s"], "s"))
    ratio = r["tpot_ms"] / r["tpot_ideal_ms"] if r["tpot_ideal_ms"] else float("nan")
    row("physical bound (ideal profile)", f"{_num(r['tpot_ideal_ms'], 'ms')} TPOT (this estimate = {ratio:.2f} x)")
    add("")
    add(f"  {'TPOT decomposition':<38} {'ms':>10} {'% of TPOT':>10}")
    for bucket in BUCKETS:
        add(
            f"    {BUCKET_LABELS[bucket]:<36} {r['breakdown_ms'][bucket]:>10.3f} {r['breakdown_percent'][bucket]:>9.1f}%"
        )
    add(f"    {'total':<36} {sum(r['breakdown_ms'].values()):>10.3f} {100.0:>9.1f}%")
    add("")
    add("Roofline (decode step)")
    row("arithmetic intensity", _num(r["arithmetic_intensity_flop_per_byte"], "FLOP/byte"))
    row(f"ridge point ({r['compute_precision']})", _num(r["ridge_point_flop_per_byte"], "FLOP/byte"))
    if r["effective_ridge_flop_per_byte"] != r["ridge_point_flop_per_byte"]:  # a profile's rates: the one that decides
        row("  at the profile's rates", _num(r["effective_ridge_flop_per_byte"], "FLOP/byte"))
    row(
        "bound",
        r["bound"]
        + (
            " (against the ridge at the profile's rates)"
            if r["effective_ridge_flop_per_byte"] != r["ridge_point_flop_per_byte"]
            else ""
        ),
    )
    add("")
    add("Memory (GB = 1e9 bytes)")
    row("weights", _gb(r["weights_GB"]))
    row(f"KV cache ({r['batch']:,} x {r['context_tokens']:,} context tokens)", _gb(r["kv_cache_GB"]))
    row(f"peak KV cache (+{r['output_tokens']:,} output tokens)", _gb(r["kv_cache_peak_GB"]))
    row("per GPU: used / usable", f"{_gb(r['memory_per_gpu_GB'])} / {_gb(r['usable_memory_per_gpu_GB'])}")
    # usable from the figure it rests on ('93% of 141.0 GB' had read against the datasheet where the fit starts from
    # nvidia-smi's 141 GiB = 151.4 GB)
    source = (
        f"{r['usable_memory_from_GB']:,.1f} GB as the vendor's tool reports it "
        f"({r['usable_memory_from_GB'] * GB / 2**30:,.1f} GiB; datasheet {r['memory_per_gpu_capacity_GB']:,.1f} GB)"
        if r["usable_memory_basis"] == "reported"
        else f"{r['usable_memory_from_GB']:,.1f} GB (datasheet)"
    )
    f, reserved = f"{r['usable_memory_fraction']:g}", f"{r['reserved_memory_GB']:,.2f} GB reserved"
    if r["usable_memory_fraction_of"] == "free":  # the engine's fraction is of what the weights and workspace leave
        held = _gb(r["held_per_gpu_GB"])
        row("  usable =", f"{held} weights + workspace + {f} x ({source} - {reserved} - {held})")
    else:
        row("  usable =", f"{source} x {f} - {reserved}")
    row("fits", "yes" if r["fits"] else "NO")
    row("min GPUs (power of two)", "none up to 1024" if r["min_gpus"] is None else str(r["min_gpus"]))
    row(
        f"max batch at this context on {_counted(n, 'GPU')}", "n/a" if r["max_batch"] is None else f"{r['max_batch']:,}"
    )
    if r["remedy"]:
        add(f"  -> {r['remedy']}")
    add("")
    add("Cost and energy")
    price, basis = r["price_usd_per_gpu_hour"], r["price_basis"]
    dated = f"{basis}" + (f", as of {r['price_as_of']}" if r["price_as_of"] else "")
    if math.isfinite(price):
        row("price", f"${price:.2f} per GPU-hour ({dated})")
        row("$ per 1M output tokens", usd(r["usd_per_1M_tokens"]))  # 3 significant figures, as on the pages
        row("$ per 1M output tokens (with prefill)", usd(r["usd_per_1M_tokens_with_prefill"]))
    else:
        row("$ per 1M output tokens", f"n/a ({r['price_note']})")
    if math.isfinite(r["tokens_per_s_per_mw"]):
        row("tokens/s per MW (all-in power)", large(r["tokens_per_s_per_mw"]))
        row("energy, all-in", _num(r["joules_per_token_all_in"], "J/token"))
    else:
        row("tokens/s per MW (all-in power)", "n/a (no published all-in power for this chip)")
    board = _num(r["joules_per_token"], "J/token") if math.isfinite(r["joules_per_token"]) else "n/a (no TDP)"
    if r["board_power_estimated"]:
        board += f" (an estimate: {r['hardware']}'s TDP, {r['tdp_W']:,.0f} W, is not published)"
    row("energy, board power only", board)
    compute = r["compute_precision"]
    if r["compute_fallback"]:
        compute += f" ({r['compute_requested']} requested; {r['hardware_name']} has no {r['compute_requested']} rate)"
    row("compute precision (GEMMs)", compute)
    row("attention precision", r["attention_precision"])
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------------- evaluate


# the command-line options' names and singular forms people write as column headers
_COLUMN_ALIASES = {"gpus": "num_gpus", "gpu": "num_gpus", "n_gpus": "num_gpus", "tp": "num_gpus", "context": "context_tokens",
                   "output": "output_tokens", "kv": "kv_cache", "price": "price_usd_per_gpu_hour", "engine": "profile"}  # fmt: skip


def _meant_column(header: str) -> str | None:
    """The scenario column a header that is not one most likely means ('weight' -> 'weights', 'gpus' -> 'num_gpus'),
    None for a header that resembles none (a pass-through column: 'notes') or is one."""
    h = header.strip().lower()
    if header in SCENARIO_COLUMNS or header in RESULT_COLUMNS:
        return None
    if h in SCENARIO_COLUMNS:  # another case: 'Model'
        return h
    return _COLUMN_ALIASES.get(h) or next(iter(difflib.get_close_matches(h, list(SCENARIO_COLUMNS), 1, 0.8)), None)


def _undecodable_row(path: str) -> str:
    """Where a scenarios file stops being UTF-8, as its messages count rows: ' row N' (data rows from 1 after the
    header; ' header' on the first line) and the byte; '' for stdin (read once). The decoder reads ahead in blocks,
    so the row being parsed when it fails is not the one at fault: the file's bytes are decoded again to find it."""
    if path == "-":
        return ""
    try:
        with open(path, "rb") as f:
            raw = f.read()
        raw.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
    except UnicodeDecodeError as e:
        bom = 3 * raw.startswith(b"\xef\xbb\xbf")
        line = raw[: e.start + bom].count(b"\n")  # 0: the header's line
        return f" row {line}, byte {e.start + bom}" if line else f" header, byte {e.start + bom}"
    except OSError:
        pass
    return ""


def _read_scenarios(path: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """Header and (row number, cells) of a scenarios CSV; rows are numbered from 1 after the header."""
    name = "<stdin>" if path == "-" else path
    f, number, header = None, 0, None  # number: the last data row read (a malformed row is the next one)
    try:
        f = sys.stdin if path == "-" else open(path, newline="", encoding="utf-8-sig")  # noqa: SIM115
        reader = csv.reader(f, strict=True)
        header = next(reader, None)
        if header is None or not any(h.strip() for h in header):
            raise InputError(f"{name}: empty file or empty header row (needs at least the columns model, hardware)")
        header = [h.strip() for h in header]
        header[0] = header[0].removeprefix("\ufeff").strip()  # a byte-order mark on stdin (files: utf-8-sig)
        seen = set()
        for h in header:
            if h and h in seen:
                raise InputError(f"{name}: header: duplicate column {h!r}")
            seen.add(h)
        for col in REQUIRED_COLUMNS:
            if col not in header:
                raise InputError(f"{name}: header: missing required column {col!r} (found: {', '.join(header)})")
        for h in header:  # a near miss of a column evaluate reads had passed through, the row computed at the default
            if (meant := _meant_column(h)) is not None and meant not in header:
                raise InputError(f"{name}: header: column {h!r} is not one evaluate reads: did you mean {meant!r}? "
                                 "(other columns pass through unread)")  # fmt: skip
        rows = []
        for number, cells in enumerate(reader, start=1):
            if not any(c.strip() for c in cells):
                continue
            if len(cells) > len(header) and not any(c.strip() for c in cells[len(header) :]):
                cells = cells[: len(header)]  # trailing empty cells (a spreadsheet export's stray commas)
            if len(cells) > len(header):
                raise InputError(f"{name} row {number}: {len(cells)} cells but the header has {len(header)} columns")
            rows.append((number, cells + [""] * (len(header) - len(cells))))
        return header, rows
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except OSError as e:
        raise InputError(f"{name}: cannot read ({e.strerror or e})") from None
    except UnicodeDecodeError as e:
        raise InputError(f"{name}{_undecodable_row(path)}: not UTF-8 text ({e.reason})") from None
    except csv.Error as e:  # rows counted as everywhere else in evaluate's messages: data rows from 1 after the header
        where = "header" if header is None else f"row {number + 1}"
        raise InputError(f"{name} {where} (line {reader.line_num} of the file): malformed CSV ({e})") from None
    finally:
        if f is not None and f is not sys.stdin:
            f.close()


def _row_job(
    name: str, number: int, values: dict[str, str], base: Path | None, cache: dict, as_of: str | None = None
) -> _Job:
    """Parse one scenario row; InputError names the file, the row and the field. as_of: the default of a row
    without its own (--as-of)."""

    def get(col: str) -> str:
        value = values.get(col, "").strip()
        if value:
            return value
        return (as_of or "") if col == "as_of" else (SCENARIO_COLUMNS[col] or "")

    def parse(col: str, func, *args):
        text = get(col)
        if col in REQUIRED_COLUMNS and not text:
            raise InputError(f"{name} row {number}, field {col!r}: missing value")
        key = (col, text)
        if key not in cache:
            cache[key] = _input(f"{name} row {number}, field {col!r}", func, text, *args)
        return cache[key]

    model = parse("model", _resolve_model, base)
    hardware = parse("hardware", _resolve_hardware, base)
    profile = parse("profile", resolve_profile)
    weights = parse("weights", parse_format)
    kv = parse("kv_cache", parse_format)
    compute = parse("compute", _compute)
    price_text = get("price_usd_per_gpu_hour")
    price = parse("price_usd_per_gpu_hour", _price) if price_text else None
    num_gpus = parse("num_gpus", _whole, 1, MAX_GPUS_SEARCHED)
    batch = parse("batch", _whole, 1)
    context = parse("context_tokens", _whole, 0)
    output = parse("output_tokens", _whole, 1)
    batching = parse("batching", _batching)
    parallelism = parse("parallelism", _parallelism)
    basis = parse("price_basis", _price_basis) if values.get("price_basis", "").strip() else None
    basis = _input(f"{name} row {number}, field 'price_basis'",
                   lambda b, p: basis_for_price(b, p, price_name="price_usd_per_gpu_hour"), basis, price)  # fmt: skip
    scenario = _input(
        f"{name} row {number}",
        Scenario,
        batch,
        context,
        output,
        num_gpus,
        weights,
        kv,
        compute,
        price,
        parallelism,
        batching,
        basis,
        parse("as_of", _as_of),
    )
    return _Job(model, hardware, profile, scenario)


def result_row(r: dict[str, Any]) -> dict[str, Any]:
    """The evaluate/CSV view of a report."""
    out = {k: r[k] for k in RESULT_COLUMNS if k in r}
    for bucket in BUCKETS:
        out[f"tpot_{bucket}_ms"] = r["breakdown_ms"][bucket]
    return out


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return float_text(v)  # 7 significant digits, as sweep's: not repr's 17 ('1.23999999999999983')
    return str(v)


PROGRESS_EVERY_S = 10.0  # evaluate says how far it has got this often (on stderr)


def _cmd_evaluate(args: argparse.Namespace) -> int:
    name = "<stdin>" if args.scenarios == "-" else args.scenarios
    header, rows = _read_scenarios(args.scenarios)
    base = None if args.scenarios == "-" else Path(args.scenarios).resolve().parent
    index = {h: i for i, h in enumerate(header) if h}
    out_header = header + [c for c in RESULT_COLUMNS if c not in index]
    cache: dict = {}
    results = []
    said_at = started = time.monotonic()
    for number, cells in rows:
        values = {col: cells[i] for col, i in index.items() if col in SCENARIO_COLUMNS}
        job = _row_job(name, number, values, base, cache, args.as_of)
        results.append(result_row(report(*_run(job))))
        if time.monotonic() - said_at > PROGRESS_EVERY_S:  # a long file (~1.5 ms a row): how far it has got
            said_at = time.monotonic()
            print(f"{len(results):,} of {len(rows):,} scenarios ({said_at - started:.0f} s)", file=sys.stderr)
    out_rows = [cells + [""] * (len(out_header) - len(cells)) for _, cells in rows]
    for col in dict.fromkeys(c for r in results for c in r):  # each result column, its floats formatted at once
        at = index[col] if col in index else out_header.index(col)
        cells = [r.get(col) for r in results]
        floats = [i for i, v in enumerate(cells) if isinstance(v, float)]
        texts = dict(zip(floats, float_texts([cells[i] for i in floats]), strict=True))
        for i, v in enumerate(cells):
            if col in results[i]:
                out_rows[i][at] = texts[i] if i in texts else _cell(v)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(out_header)
    writer.writerows(out_rows)
    _write_text(args.output, buffer.getvalue())
    if args.output != "-":
        print(f"{len(out_rows)} scenarios -> {args.output}", file=sys.stderr)
    return 0


def _write_text(path: str, text: str | bytes) -> None:
    data = text.encode() if isinstance(text, str) else text
    if path == "-":
        out = getattr(sys.stdout, "buffer", None)
        if out is None:  # a text-only stdout (an in-process capture)
            sys.stdout.write(data.decode())
        else:
            sys.stdout.flush()
            out.write(data)
            out.flush()
        return
    if not str(path).strip():
        raise InputError("-o/--output: empty file name (give a path, or '-' for the screen)")
    if re.fullmatch(r"\d+", str(path).strip()):  # frontier's and capacity's --output is a token count; here a file
        raise InputError(f"-o/--output: {path!r} reads as a number of tokens, but here it names the results file "
                         "(tokens to generate: --output-tokens); give a file name")  # fmt: skip
    try:
        with open(path, "wb") as f:
            f.write(data)
    except OSError as e:
        raise InputError(f"{path}: cannot write ({e.strerror or e})") from None


# --------------------------------------------------------------------------------------------------- sweep


def parse_range(text: str, *, log: bool, minimum: int) -> np.ndarray:
    """'64', 'a:b' or 'a:b:n' -> sorted unique integers (as floats).

    Linear ranges ('a:b' is every integer from a to b, 'a:b:n' n evenly spaced); log ranges ('a:b' is up to 256
    log-spaced points, 'a:b:n' up to n), rounded to integers, duplicates dropped, both ends included.
    """
    parts = str(text).strip().split(":")
    if len(parts) not in (1, 2, 3):
        raise ValueError(f"expected N, A:B or A:B:COUNT, got {text!r}")
    try:
        a = _whole(parts[0], minimum)
        b = _whole(parts[-1] if len(parts) == 1 else parts[1], minimum)
    except ValueError as e:
        raise ValueError(f"{e} in {text!r}") from None
    if b < a:
        raise ValueError(f"range end must be >= start, got {text!r}")
    span = b - a + 1
    if len(parts) == 3:
        try:
            count = _whole(parts[2], 1)
        except ValueError as e:
            raise ValueError(f"point count {e} in {text!r}") from None
    else:
        count = 1 if len(parts) == 1 else (min(DEFAULT_CONTEXT_POINTS, span) if log else span)
    count = min(count, span)
    if count > MAX_SWEEP_POINTS:
        raise ValueError(f"{count:,} points is more than the limit of {MAX_SWEEP_POINTS:,}; use A:B:COUNT")
    if count == 1:
        return np.array([float(a)])
    if not log:
        points = np.linspace(a, b, count)
    elif a == 0:  # 0 then log-spaced from 1
        points = np.concatenate(([0.0], np.geomspace(1, b, count - 1)))
    else:
        points = np.geomspace(a, b, count)
    points = np.unique(np.rint(points))
    points[0], points[-1] = a, b
    return points


def _cmd_sweep(args: argparse.Namespace) -> int:
    batch = _input(f"--batch {args.batch!r}", lambda t: parse_range(t, log=False, minimum=1), args.batch)
    context = _input(f"--context {args.context!r}", lambda t: parse_range(t, log=True, minimum=0), args.context)
    if batch.size * context.size > MAX_SWEEP_POINTS:
        raise InputError(
            f"--batch x --context: {batch.size:,} x {context.size:,} points is more than the limit of "
            f"{MAX_SWEEP_POINTS:,}; use A:B:COUNT"
        )
    job = _job_from_args(args, batch=batch[:, None], context=context[None, :])
    e = estimate(job.model, job.hardware, job.scenario, job.profile)  # one vectorised call over the whole grid
    _write_text(args.output, sweep_csv(e, batch, context))
    if args.output != "-":
        print(f"{batch.size * context.size:,} points -> {args.output}", file=sys.stderr)
    return 0


def sweep_csv(e: Estimate, batch: np.ndarray, context: np.ndarray) -> bytes:
    """The grid as CSV bytes, batch-major; every column is formatted by whole-array numpy operations."""
    shape = (batch.size, context.size)

    def flat(x: Any) -> np.ndarray:
        return np.broadcast_to(np.asarray(x), shape).ravel()

    price_known = math.isfinite(float(e.price_usd_per_gpu_hour))
    columns = {
        "batch": int_field(flat(batch[:, None])),
        "context_tokens": int_field(flat(context[None, :])),
        "tpot_ms": float_field(flat(e.tpot_s / ms)),
        "tokens_per_s_per_user": float_field(flat(e.tokens_per_s_per_user)),
        "tokens_per_s_total": float_field(flat(e.tokens_per_s_total)),
        "tokens_per_s_per_gpu": float_field(flat(e.tokens_per_s_per_gpu)),
        "ttft_ms": float_field(flat(e.ttft_s / ms)),
        "fits": label_field(flat(e.fits).astype(np.intp), ("false", "true")),
        "usd_per_1M_tokens": float_field(flat(e.usd_per_1M_tokens))
        if price_known
        else np.zeros((batch.size * context.size, 0), np.uint8),
        "bound": label_field(flat(e.compute_bound).astype(np.intp), ("memory", "compute")),
        "kv_cache_GB": float_field(flat(e.kv_cache_bytes / GB)),
        "memory_per_gpu_GB": float_field(flat(e.memory_per_gpu_bytes / GB)),
        "tpot_ms_low": float_field(flat(e.tpot_low_s / ms)),  # the 80% calibration band; empty for the ideal bound
        "tpot_ms_high": float_field(flat(e.tpot_high_s / ms)),
        # ttft_ms follows --batching (static: every prompt of the batch prefilled before the first token; continuous:
        # what one request waits); the whole batch's prefill named as such either way
        "batch_prefill_ms": float_field(flat(e.batch_prefill_s / ms)),
    }
    s, price = e.scenario, float(e.price_usd_per_gpu_hour)
    shared = {
        "model": e.model.id, "hardware": e.hardware.id, "num_gpus": int(_f(s.num_gpus)), "weights": s.weights.name,
        "kv_cache": s.kv_cache.name, "compute_precision": e.compute_precision, "output_tokens": int(_f(s.output_tokens)),
        "batching": s.batching, "parallelism": s.parallelism, "profile": e.profile.id,
        "engine_as_of": s.as_of or "newest", "engine_values": engine_values(e.profile, s.as_of),
        "price_usd_per_gpu_hour": _cell(price), "price_basis": e.price.basis,
        "price_as_of": e.price.as_of, "app_version": APP_VERSION,
    }  # fmt: skip
    line = io.StringIO()
    csv.writer(line, lineterminator="").writerow([shared[c] for c in SWEEP_SCENARIO_COLUMNS])  # quoted as CSV needs
    tail = label_field(np.zeros(batch.size * context.size, np.intp), (line.getvalue(),))  # one field: the same text
    return csv_bytes(SWEEP_COLUMNS, [columns[c] for c in SWEEP_COLUMNS if c in columns] + [tail])


# --------------------------------------------------------------------------------------------------- list


def _hourly(hw: Hardware, basis: str) -> str:
    p = hw.prices.price(basis)
    return "-" if p is None else f"{p.usd_per_gpu_hour:.2f}"


def _list_hardware() -> str:
    """The catalog's chips, each name whole (columns as wide as their widest cell)."""
    header = ["id", "name", "mem GB", "reported GB", "TB/s", "bf16", "fp8", "fp4", "TDP W", "$/h", "domain",
              "up GB/s", "out Gb/s"]  # fmt: skip
    rows = []
    for hw in load_hardware_catalog().values():
        rate = hw.dense_flop_per_s

        def tf(p: str, rate: dict = rate, hw: Hardware = hw) -> str:  # '~': an estimate (Apple's)
            return (
                ("~" if hw.estimated(f"dense_TFLOP_per_s.{p}") else "") + f"{rate[p] / TFLOP_per_s:,.0f}"
                if p in rate
                else "-"
            )

        up, out, seen = hw.scale_up_bytes_per_s, hw.scale_out_bytes_per_s, hw.memory_reported_bytes
        rows.append([
            hw.id, hw.name + (" (announced)" if hw.announced else ""), f"{hw.memory_bytes / GB:,.0f}",
            f"{seen / GB:,.1f}" if seen else "-", f"{hw.memory_bandwidth_bytes_per_s / TB_per_s:.3f}",
            tf("bf16") if "bf16" in rate else tf("fp16"), tf("fp8"), tf("fp4"),
            ("~" if hw.estimated("tdp_W") else "") + f"{hw.tdp_w:,.0f}" if hw.tdp_w else "-", _hourly(hw, "on_demand"),
            str(hw.scale_up_domain_gpus or "-"),
            f"{up / GB:,.0f}" if up else "-", f"{out / Gbit_per_s:,.0f}" if out else "-",
        ])  # fmt: skip
    lines = _aligned(header, rows, "<<>>>>>>>>>>>")
    lines.append(
        "(mem in GB = 1e9 bytes (datasheet); reported GB = what the vendor's tool (nvidia-smi, rocm-smi) shows per GPU; "
        "dense TFLOP/s; bf16 column shows fp16 where a device lists no bf16; $/h = on-demand (every basis: "
        "data/prices.yaml); domain = GPUs per scale-up domain, up = scale-up GB/s per GPU per direction, out = "
        "scale-out NIC Gb/s per GPU, '-' = not published; ~ = the catalog's estimate, not published; (announced) = "
        "not shipping, vendor claims)"
    )
    lines.append(_names_note("hardware", "a chip's name or chart label in any case and spacing ('NVIDIA B200', "
                             "'GB200 NVL72')", load_hardware_catalog()))  # fmt: skip
    return "\n".join(lines)


def _names_note(option: str, names: str, catalog: dict) -> str:
    """The line under a listing saying what else --model / --hardware take (`names`), with the catalog's aliases."""
    aliases = "; ".join(f"{i}: {', '.join(e.aliases)}" for i, e in catalog.items() if e.aliases)
    return f"(--{option} also takes {names}, or an alias: {aliases})"


def _aligned(header: list[str], rows: list[list[str]], align: str) -> list[str]:
    """A text table: each column as wide as its widest cell (header included), '<' or '>' per column as in `align`,
    two spaces between columns, the last column unpadded."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return [
        "  ".join(
            f"{cell:{a}{w}}" if i < len(header) - 1 else cell
            for i, (cell, a, w) in enumerate(zip(r, align, widths, strict=True))
        )
        for r in [header, *rows]
    ]


def _list_models() -> str:
    header = ["id", "name", "params B", "active B", "layers", "max ctx", "MTP", "attention"]
    rows = [
        [
            m.id,
            m.name,
            f"{total_params(m) / 1e9:.2f}",
            f"{active_params(m) / 1e9:.2f}",
            str(m.num_layers),
            f"{m.max_context_tokens:,}",
            str(m.mtp_modules or "-"),
            m.kind,
        ]
        for m in load_model_catalog().values()
    ]
    note = _names_note("model", "a model's name in any case and spacing ('DeepSeek-R1'), a Hugging Face repository "
                       "('deepseek-ai/DeepSeek-R1-0528')", load_model_catalog())  # fmt: skip
    return "\n".join(
        [
            *_aligned(header, rows, "<<>>>>><"),
            note,
            "(MTP: the multi-token-prediction modules the checkpoint ships, which `frontier --mtp` drafts with)",
        ]
    )


def _list_profiles() -> str:
    lines = [f"{'id':<12} {'name':<36} {'BW eff':>6} {'FLOP eff':>8} {'usable mem':>10} {'reserved GiB':>12} "
             f"{'overhead us/token':>17}"]  # fmt: skip
    for p in load_profiles().values():
        reserved = 0.0 if p.is_ideal else p.reserved_memory_bytes / GiB  # what the fit gate subtracts per GPU
        lines.append(
            f"{p.id:<12} {p.name[:36]:<36} {p.bandwidth_efficiency:>6.2f} {p.flops_efficiency:>8.2f} "
            f"{p.usable_memory_fraction:>10.2f}{'*' if p.id in OF_FREE_MEMORY else ' '}{reserved:>12.2f} "
            f"{p.per_token_overhead_s * 1e6:>17,.0f}"
        )
    lines += ["", "* usable mem: of the memory the weights and workspace leave free (TensorRT-LLM's "
              f"{OF_FREE_MEMORY['tensorrt-llm']}); the others: of all of it (vLLM's gpu_memory_utilization)"]  # fmt: skip
    lines += ["", "Fields of each engine: fitted to measurements, documented, or inherited from typical (no data yet)"]
    for p in load_profiles().values():
        basis = dict(p.basis)
        if not basis:
            continue
        parts = [f"{b}: {', '.join(k for k, v in basis.items() if v == b)}" for b in BASES if b in basis.values()]
        lines.append(f"  {p.id:<12} " + "; ".join(parts))
    return "\n".join(lines)


def _list_formats() -> str:
    lines = [f"{'name':<10} {'bits':>7} {'compute':<8} description"]
    for f in FORMATS.values():
        lines.append(f"{f.name:<10} {f.bits:>7.4g} {f.compute:<8} {f.description}")
    lines.append(f"KV cache formats: {', '.join(KV_FORMATS)}. A number of bits (e.g. 5.5) is also accepted.")
    lines.append(f"Compute precisions (--compute): {', '.join(COMPUTE_PRECISIONS)}.")
    return "\n".join(lines)


LISTS = {"hardware": _list_hardware, "models": _list_models, "profiles": _list_profiles, "formats": _list_formats}
_LIST_ALIASES = {"model": "models", "profile": "profiles", "format": "formats", "precisions": "formats"}


def _cmd_list(args: argparse.Namespace) -> int:
    what = _LIST_ALIASES.get(args.what, args.what) if args.what else None
    if what is not None and what not in LISTS:
        raise InputError(f"{PROG} list: unknown list {args.what!r} (choose from {', '.join(LISTS)})")
    names = [what] if what else list(LISTS)
    blocks = []
    for name in names:
        text = _input(f"{name} catalog", LISTS[name])
        blocks.append(text if what else f"== {name} ==\n{text}")
    print("\n\n".join(blocks))
    return 0


# --------------------------------------------------------------------------------------------------- delegates


# Subcommands that live in other modules: imported only when asked for, all their arguments passed through.
DELEGATES = {
    "calibrate": ("tpot_model.calibrate", "main", "calibration"),
    "frontier": ("tpot_model.planner_cli", "frontier_main", "frontier"),
    "capacity": ("tpot_model.planner_cli", "capacity_main", "capacity"),
}


def _delegate(command: str, argv: list[str]) -> int:
    """Run DELEGATES[command]'s entry point with argv; 'X not available' and exit 2 if it does not exist (yet)."""
    module_name, func_name, label = DELEGATES[command]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name not in (module_name, None):
            raise  # the module exists but lacks a dependency: a bug to surface
        print(f"{label} not available", file=sys.stderr)
        return 2
    run = getattr(module, func_name, None)
    if not callable(run):  # the module is being written and has no entry point yet
        print(f"{label} not available ({module_name} has no {func_name}(argv))", file=sys.stderr)
        return 2
    try:
        code = run(argv)
    except SystemExit as e:  # an argparse inside the delegate
        code = e.code
    if code is None:
        return 0
    return code if isinstance(code, int) else 1


# --------------------------------------------------------------------------------------------------- parser


def add_as_of_option(p: argparse.ArgumentParser) -> None:
    """--as-of DATE: the engine profile as of an ISO date (its dated history); default the newest values."""
    p.add_argument(
        "--as-of",
        type=_arg_type(_as_of),
        default=None,
        metavar="DATE",
        help="the engine as it was on this ISO date (YYYY-MM-DD): the profile's dated history (default: the newest "
        "values; see `list profiles`)",
    )


def _add_scenario_options(p: argparse.ArgumentParser, *, single_point: bool) -> None:
    p.add_argument(
        "--model", required=True, metavar="M", help="catalog id (see `list models`) or a config.json / model YAML path"
    )
    p.add_argument(
        "--hardware", required=True, metavar="H", help="catalog id (see `list hardware`) or a hardware YAML path"
    )
    p.add_argument(
        "--gpus",
        type=_arg_type(_whole, 1, MAX_GPUS_SEARCHED),
        default=1,
        metavar="N",
        help=f"tensor-parallel GPU count (default 1, at most {MAX_GPUS_SEARCHED:,})",
    )
    p.add_argument(
        "--weights", default="bf16", metavar="P", help="weight format name or bits per weight (default bf16)"
    )
    p.add_argument("--kv", default="bf16", metavar="P", help="KV-cache format name or bits per element (default bf16)")
    p.add_argument(
        "--compute",
        default=None,
        metavar="P",
        help=f"GEMM compute precision ({', '.join(COMPUTE_PRECISIONS)}); default: the weight format's own",
    )
    p.add_argument(
        "--profile", default="typical", metavar="X", help="efficiency profile id (default typical; see `list profiles`)"
    )
    p.add_argument(
        "--output-tokens",
        type=_arg_type(_whole, 1),
        default=1,
        metavar="N",
        help="tokens to generate per sequence (default 1)",
    )
    p.add_argument(
        "--price",
        type=_arg_type(_price),
        default=None,
        metavar="USD_PER_GPU_HOUR",
        help="price per GPU-hour (default: the hardware catalog's, if any)",
    )
    p.add_argument(
        "--price-basis",
        type=_arg_type(_price_basis),
        default=None,
        metavar="B",
        help=f"which price per GPU-hour (data/prices.yaml): {', '.join(PRICE_BASES)} (custom: --price); default "
        f"{DEFAULT_BASIS}; --price implies custom",
    )
    p.add_argument(
        "--parallelism",
        type=_arg_type(_parallelism),
        default="tp",
        metavar="L",
        help="GPU layout: tp (tensor parallel, default), tp-ep (TP attention, expert-parallel MoE) or dp-ep "
        "(data-parallel attention, expert-parallel MoE)",
    )
    p.add_argument(
        "--batching",
        type=_arg_type(_batching),
        default="static",
        metavar="B",
        help="static (one batch decoding together, default) or continuous (a server's steady state: --batch "
        "requests in flight, --context-token prompts prefilled in chunks between decode steps)",
    )
    add_as_of_option(p)
    if single_point:
        p.add_argument(
            "--batch", type=_arg_type(_whole, 1), default=1, metavar="B", help="concurrent sequences (default 1)"
        )
        p.add_argument(
            "--context",
            type=_arg_type(_whole, 0),
            default=0,
            metavar="L",
            help="tokens in the KV cache when decoding starts (default 0)",
        )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Analytical LLM inference model: TPOT (time per output token), TTFT, memory fit, cost, energy.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser(
        "estimate",
        help="one scenario as a readable table (or --json)",
        description="Estimate one scenario: TPOT and its decomposition, TTFT, throughput, memory fit, cost, energy. "
        "GB are decimal (1e9 bytes).",
    )
    _add_scenario_options(p, single_point=True)
    p.add_argument("--json", action="store_true", help="print one JSON object (SI values plus display units)")
    p.set_defaults(func=_cmd_estimate)

    p = sub.add_parser(
        "evaluate",
        help="one scenario per CSV row -> results CSV",
        description="Evaluate a CSV of scenarios. Columns (exact names): model, hardware (required: catalog id or "
        "file path, relative paths tried from the current directory, then next to the CSV), num_gpus (1), weights "
        "(bf16), kv_cache (bf16), batch (1), context_tokens (0), output_tokens (1), profile (typical); optional "
        f"compute, price_usd_per_gpu_hour (your own: basis custom), price_basis ({', '.join(PRICE_BASES)}; default "
        f"{DEFAULT_BASIS}; not beside a price of your own but custom), batching (static, the default, or continuous: "
        "batch is then the "
        "concurrency of a server's steady state, context_tokens each request's prompt, and tpot_ms the mean "
        "inter-token time), parallelism (tp, the default, tp-ep or dp-ep) and as_of (an ISO date: the engine profile's "
        "dated history; default --as-of, else the newest values). Empty cells take the defaults; other "
        "columns pass through. Every row "
        "is computed as given, also when it does not fit. Rows are numbered from 1 after the header. Adds the columns "
        f"{', '.join(RESULT_COLUMNS)} (GB = 1e9 bytes; empty min_gpus: none up to {MAX_GPUS_SEARCHED}; empty "
        "usd_per_1M_tokens: no price; ttft_ms follows the row's batching, ttft_per_request_ms is what one user waits "
        "under continuous batching, batch_prefill_ms all the batch's prompts prefilled together).",
    )
    p.add_argument("scenarios", metavar="SCENARIOS.csv", help="input CSV ('-' for stdin)")
    add_as_of_option(p)  # the default of rows without an as_of cell
    p.add_argument("-o", "--output", default="-", metavar="RESULTS.csv", help="output CSV ('-' = stdout, default)")
    p.set_defaults(func=_cmd_evaluate)

    p = sub.add_parser(
        "sweep",
        help="a batch x context grid -> CSV, in one vectorised call",
        description="Evaluate a batch x context grid in one vectorised call and write one CSV row per point "
        "(batch-major). Ranges: N is a single value; for --batch, A:B is every integer from A to B and A:B:COUNT "
        f"is COUNT evenly spaced integers; for --context, A:B is {DEFAULT_CONTEXT_POINTS} log-spaced integers "
        "from A to B and A:B:COUNT is COUNT of them (rounded to integers, duplicates dropped, both ends kept; "
        f"a range starting at 0 holds 0 and then log-spaced points from 1). At most {MAX_SWEEP_POINTS:,} points. "
        f"Columns: {', '.join(SWEEP_COLUMNS)}; floats with {FLOAT_DIGITS} significant digits, GB = 1e9 bytes, "
        "usd_per_1M_tokens empty without a price (--price or the catalog's); tpot_ms_low / tpot_ms_high: the 80% "
        "calibration band (empty for --profile ideal, a bound); ttft_ms follows --batching (static: every prompt of "
        "the batch prefilled before any first token, the same as batch_prefill_ms; continuous: what one request "
        "waits); the scenario, its price basis and date and the app version repeat on every row.",
    )
    _add_scenario_options(p, single_point=False)
    p.add_argument(
        "--batch", default="1", metavar="RANGE", help="batch: N, A:B (every integer) or A:B:COUNT (linear); default 1"
    )
    p.add_argument(
        "--context",
        default="0",
        metavar="RANGE",
        help=f"context tokens: N, A:B ({DEFAULT_CONTEXT_POINTS} log-spaced points) or A:B:COUNT (log); default 0",
    )
    p.add_argument("-o", "--output", default="-", metavar="GRID.csv", help="output CSV ('-' = stdout, default)")
    p.set_defaults(func=_cmd_sweep)

    p = sub.add_parser("list", help="catalog ids with names and key numbers", description="List catalog entries.")
    p.add_argument("what", nargs="?", metavar="{hardware,models,profiles,formats}", help="one list (default: all)")
    p.set_defaults(func=_cmd_list)

    sub.add_parser(
        "calibrate",
        help="fit efficiency profiles to measurements (tpot_model.calibrate)",
        add_help=False,
        description="Delegates all its arguments to tpot_model.calibrate.",
    )
    sub.add_parser(
        "frontier",
        help="the best batch or layout at a TPOT or interactivity target (tpot_model.planner_cli)",
        add_help=False,
        description="Delegates all its arguments to tpot_model.planner_cli.",
    )
    sub.add_parser(  # it ran, but the list of commands had not named it
        "capacity",
        help="the fleet per chip that serves a demand of tokens per day (tpot_model.planner_cli)",
        add_help=False,
        description="Delegates all its arguments to tpot_model.planner_cli.",
    )
    return parser


def _glue_negative_values(argv: list[str]) -> list[str]:
    """'--batch -1:8' as '--batch=-1:8': argparse takes a value starting with '-' for an option unless it is a plain
    negative number, and had said 'expected one argument' where the value's own check says what is wrong."""
    out, i = [], 0
    while i < len(argv):
        if argv[i].startswith("--") and "=" not in argv[i] and i + 1 < len(argv) and re.match(r"-[\d.]", argv[i + 1]):
            out.append(f"{argv[i]}={argv[i + 1]}")
            i += 2
        else:
            out.append(argv[i])
            i += 1
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 2 bad input)."""
    argv = _glue_negative_values(list(sys.argv[1:] if argv is None else argv))
    if argv and argv[0] in DELEGATES:
        return _delegate(argv[0], argv[1:])
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as e:  # --help
            return e.code if isinstance(e.code, int) else 0
        return args.func(args)
    except InputError as e:
        print(f"error: {_one_line(e)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `... -o - | head`
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 1
