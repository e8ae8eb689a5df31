"""`python -m tpot_model frontier`: the best batch for a deployment at a TPOT target, as text or JSON.

Bad input never shows a traceback: exit status 2 and one line on stderr naming the field (``error: --gpus: ...``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence

from .catalog import CatalogError, Hardware, resolve_hardware, resolve_model
from .cli_text import counting, lower_precision, no_price_note, platform_note, projection_note, remedy, window_note
from .disaggregated import decode_reach, model_recipes
from .economics import price_for
from .engines import BEST, ENGINES
from .estimate import MAX_GPUS_SEARCHED, estimate
from .fleet import Demand, Fleet, fleets, widest_no_fit
from .frontier_check import (
    NO_RANGE_REASONS,
    WITHIN,
    beyond_measured,
    deployment_range,
    measured_at,
    measured_fastest,
    measured_gpus,
    no_range_reason,
    runs_like,
    summary_key,
    transfer_note,
)
from .layouts import (
    MAX_BUDGET_GPUS,
    SERVING_MODES,
    Deployment,
    StepParts,
    best_deployment,
    best_engines,
    budget_no_fit,
    decode_parts,
    recipe_key,
)
from .numtext import shown
from .planner import MAX_BATCH_SEARCHED, FrontierPoint, frontier
from .pool_correction import committed_check
from .precision import parse_format, with_native_fp4
from .prices import DEFAULT_BASIS, MAX_USD_PER_GPU_HOUR, PRICE_BASES, basis_for_price
from .profiles import resolve_profile
from .scenario import BATCHINGS, MAX_INPUT_COUNT, Scenario
from .serving_calibration import ServingMeasurement, load_serving_measurements
from .speculative import MTP_ACCEPTANCE, MTP_K
from .units import GB, ms

MAX_MTP_K = 16  # draft tokens: the engines' MTP / EAGLE recipes use 1-7

PROG = "python -m tpot_model frontier"


class _BadInput(Exception):
    """A usage error: its message is the one line printed."""


# options read under two names (InferenceX's ISL / OSL): given both ways, one value would be dropped silently
ALIASES = (("--context", "--isl"), ("--output", "--osl"))


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):  # whole option names only: '--is' had passed as '--isl' beside '--context'
        super().__init__(*args, allow_abbrev=False, **kwargs)

    def error(self, message: str):  # argparse would print usage + message and exit; we want one line
        raise _BadInput(message)

    def parse_args(self, args=None, namespace=None):  # noqa: D102 - refuses an option given by both its names
        given = {str(a).split("=", 1)[0] for a in (sys.argv[1:] if args is None else args)}
        for name, alias in ALIASES:
            if name in given and alias in given:
                raise _BadInput(f"{alias}: is {name} by another name; give one of the two")
        return super().parse_args(args, namespace)


def _number(flag: str, kind: type, minimum: float, *, strict: bool = False, maximum: float = math.inf):
    """An argparse type: a finite number >= minimum (> minimum when strict) and <= maximum, errors naming the flag."""

    def parse(text: str):
        got = shown(text)
        try:  # a whole number written as estimate and sweep take it too ('4096.0', '1e3')
            value = float(text)
        except ValueError:
            raise _BadInput(f"{flag}: must be a {'whole number' if kind is int else 'number'}, got {got}") from None
        if value > maximum:  # a number too long for a float (inf) too: the bound it is past
            most = f"{maximum:,.0f}" if maximum == int(maximum) else f"{maximum:g}"  # 100,000,000, not 1e+08
            raise _BadInput(f"{flag}: must be <= {most}, got {got}")
        if not math.isfinite(value):
            raise _BadInput(f"{flag}: must be a finite number, got {got}")
        if kind is int:
            if not value.is_integer():
                raise _BadInput(f"{flag}: must be a whole number, got {got}")
            value = int(value)
        if value < minimum or (strict and value == minimum):
            bound = f"> {minimum:g}" if strict else f">= {minimum:g}"
            raise _BadInput(f"{flag}: must be {bound}, got {got}")
        return value

    return parse


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog=PROG,
        description="The batch with the most tokens/s per GPU that meets a TPOT target (and an optional TTFT "
        "target) and fits in memory, with its $/1M tokens and what stops a bigger batch (slo, memory or compute).",
    )
    p.add_argument("--model", required=True, help="catalog id or a config.json / model YAML path")
    p.add_argument("--hardware", required=True, help="catalog id or a hardware YAML path")
    p.add_argument(
        "--gpus",
        type=_number("--gpus", int, 1, maximum=MAX_GPUS_SEARCHED),
        default=None,
        help="tensor-parallel GPUs (default 1; not with --max-gpus)",
    )
    p.add_argument("--weights", default="bf16", help="weight format, e.g. bf16, fp8, awq-int4, nvfp4 (default bf16)")
    p.add_argument("--kv", default="bf16", help="KV-cache format (default bf16)")
    p.add_argument("--compute", default=None, help="compute precision (default: the weight format's own)")
    tokens = {"maximum": MAX_INPUT_COUNT}
    p.add_argument("--context", "--isl", type=_number("--context/--isl", int, 1, **tokens), default=4096,
                   help="prompt tokens, the ISL (default 4096)")  # fmt: skip
    p.add_argument("--output", "--osl", type=_number("--output/--osl", int, 1, **tokens), default=1024,
                   help="output tokens, the OSL (default 1024)")  # fmt: skip
    p.add_argument(
        "--tpot-target-ms",
        type=_number("--tpot-target-ms", float, 0, strict=True),
        default=None,
        help="TPOT target (or --interactivity)",
    )
    p.add_argument(
        "--interactivity",
        type=_number("--interactivity", float, 0, strict=True),
        default=None,
        metavar="TOK_PER_S_PER_USER",
        help="tokens/s per user to reach: a TPOT target of 1000 / this ms (instead of --tpot-target-ms)",
    )
    p.add_argument(
        "--max-gpus",
        type=_number("--max-gpus", int, 1),
        default=None,
        help=f"GPU budget: search aggregated and disaggregated layouts within it (at most {MAX_BUDGET_GPUS}; "
        "layouts may use fewer; 8 where --serving, --mtp or --within-measured starts the search without it)",
    )
    p.add_argument(
        "--serving",
        choices=SERVING_MODES,
        default=None,
        help="with the layout search: aggregated, disaggregated (prefill and decode pools) or best (default)",
    )
    p.add_argument(
        "--mtp",
        nargs="?",
        const=MTP_K,
        type=_number("--mtp", int, 1, maximum=MAX_MTP_K),
        default=None,
        metavar="K",
        help=f"multi-token prediction with the model's own MTP module (`list models`: MTP): K draft tokens (default "
        f"{MTP_K}), acceptance {MTP_ACCEPTANCE:g} each (the documented default; --mtp-acceptance to change it)",
    )
    p.add_argument(
        "--mtp-acceptance",
        type=_number("--mtp-acceptance", float, 0, maximum=1),
        default=None,
        help=f"with --mtp: the chance each draft token is accepted (default {MTP_ACCEPTANCE:g})",
    )
    p.add_argument(
        "--within-measured",
        action="store_true",
        help="with the layout search: a disaggregated decode pool holds at most the sequences per GPU a published "
        "run of the model decoded on its worker layout, and only layouts a run used (data/serving_measurements.csv)",
    )
    p.add_argument(
        "--ttft-target-ms",
        type=_number("--ttft-target-ms", float, 0, strict=True),
        default=None,
        help="optional TTFT target: the whole batch's prompts prefilled together (batch search); each request's TTFT "
        "under continuous batching (with --max-gpus)",
    )
    p.add_argument(
        "--profile",
        default=None,
        help=f"efficiency profile (default typical; with the layout search {BEST}: at each target the faster of the "
        "engines fitted to serving runs on the chip's vendor, SGLang or TensorRT-LLM on NVIDIA, SGLang or ATOM on AMD)",
    )
    p.add_argument(
        "--as-of",
        default=None,
        metavar="DATE",
        help="the engine as it was on this ISO date (YYYY-MM-DD): the profile's dated history (default: the newest)",
    )
    p.add_argument("--price", type=_number("--price", float, 0, maximum=MAX_USD_PER_GPU_HOUR), default=None,
                   help="$/GPU-hour (price basis custom)")  # fmt: skip
    p.add_argument("--price-basis", default=None, help=f"{', '.join(PRICE_BASES)} (default {DEFAULT_BASIS})")
    p.add_argument(
        "--max-batch",
        type=_number("--max-batch", int, 1, maximum=MAX_INPUT_COUNT),
        default=None,
        help=f"largest batch searched on --gpus GPUs (default {MAX_BATCH_SEARCHED}; the layout search sweeps its own)",
    )
    p.add_argument(
        "--batching",
        choices=BATCHINGS,
        default=None,
        help="the batch search on --gpus GPUs: static (default: one batch decoding together, its prompts prefilled "
        "first, Overview's basis) or continuous (requests in flight, each prompt prefilled in the others' decode "
        "steps: the Serving planner's served row and the Serving frontier's curves); the layout search is continuous",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def _num(x: float) -> float | None:
    return x if math.isfinite(x) else None


def price_fields(hw, scenario: Scenario) -> dict:
    """The price a result's $ per 1M tokens stands on: its basis, $/GPU-hour (null: no public price) and date."""
    p = price_for(hw, scenario)
    # the key estimate, sweep, evaluate and capacity name it by (frontier's had been 'usd_per_gpu_hour'); without a
    # price, why and what would give one (estimate's price_note)
    priced = math.isfinite(p.usd_per_gpu_hour)
    return {"price_basis": p.basis, "price_usd_per_gpu_hour": _num(p.usd_per_gpu_hour), "price_as_of": p.as_of or None,
            "price_note": None if priced else no_price_note(hw, p.basis)}  # fmt: skip


def _usd(d: dict, key: str) -> str:
    """$ per 1M tokens as the text output says it (cents, three significant figures below $1), with its price."""
    x = d[key]
    if x is None:
        return f"n/a ({d['price_note']})" if d.get("price_note") else f"n/a (no price under {d['price_basis']})"
    when = f", {d['price_as_of']}" if d["price_as_of"] else ""
    money = f"${x:,.2f}" if x >= 1 else f"${x:.3g}"
    return f"{money} (at ${d['price_usd_per_gpu_hour']:g}/GPU-hour, {d['price_basis']}{when})"


def window_fields(model, context_tokens: int, output_tokens: int) -> dict:
    """beyond_context_window and its note (None within the window), as `estimate` gives them."""
    note = window_note(model.name, model.max_context_tokens, context_tokens, output_tokens)
    return {"beyond_context_window": note is not None, "context_window_note": note}


def to_dict(point: FrontierPoint, args: argparse.Namespace, model_id: str, hw) -> dict:
    """The JSON form on chip `hw`: display units in the key names (ms, GB), null for unknown numbers (e.g. no
    price)."""
    hardware_id = hw.id
    return {
        "model": model_id,
        "hardware": hardware_id,
        "hardware_announced": hw.announced,
        "projection_note": projection_note(hw),
        "platform_note": platform_note(args.profile, hw),  # the engine does not run on this chip's vendor
        "gpus": args.gpus,
        "weights": args.weights,
        "kv": args.kv,
        "context_tokens": args.context,
        "output_tokens": args.output,
        "profile": args.profile,
        "tpot_target_ms": args.tpot_target_ms,
        "interactivity_target_tokens_per_s_per_user": args.interactivity,  # as the layout search's JSON
        "ttft_target_ms": args.ttft_target_ms,
        "feasible": point.feasible,
        "batch": point.batch,
        "tpot_ms": _num(point.tpot_s / ms),
        "ttft_ms": _num(point.ttft_s / ms),
        "tokens_per_s_per_gpu": _num(point.tokens_per_s_per_gpu),
        "tokens_per_s_per_user": _num(point.tokens_per_s_per_user),
        "tokens_per_s_total": _num(point.tokens_per_s_total),
        "usd_per_1M_tokens": _num(point.usd_per_1M_tokens),
        "limited_by": point.limited_by,
        "slo_binding": point.slo_binding or None,
        "compute_bound": point.compute_bound,
        "memory_per_gpu_GB": _num(point.memory_per_gpu_bytes / GB),
        "max_batch_memory": point.max_batch_memory,
        "batch1_tpot_ms": _num(point.batch1_tpot_s / ms),
        "batch1_ttft_ms": _num(point.batch1_ttft_s / ms),
        "batching": args.batching,
        "counting": counting("decode", args.batching),  # tokens_per_s_per_gpu, usd_per_1M_tokens, ttft_ms mean this
    }


def _text(d: dict) -> str:
    head = (
        f"{d['model']} on {d['gpus']} x {d['hardware']} ({d['weights']} weights, {d['kv']} KV), "
        f"context {d['context_tokens']:,} tokens, output {d['output_tokens']:,} tokens, TPOT target "
        f"{d['tpot_target_ms']:g} ms ({1000 / d['tpot_target_ms']:.4g} tok/s/user)"
        + (f", TTFT target {d['ttft_target_ms']:g} ms" if d["ttft_target_ms"] is not None else "")
        + (", continuous batching" if d["batching"] == "continuous" else "")
        + (f"\nprojection: {d['projection_note']}" if d["projection_note"] else "")
        + (f"\nnote: {d['platform_note']}" if d["platform_note"] else "")
        + (f"\nnote: {d['context_window_note']}" if d["context_window_note"] else "")
    )
    if not d["feasible"]:
        why = (
            f"does not fit in memory even at batch 1; {d['remedy']}"
            if d["limited_by"] == "memory"
            else f"misses the TTFT target even at batch 1 (TTFT {d['batch1_ttft_ms']:,.1f} ms)"
            if d["slo_binding"] == "ttft"  # the TPOT may meet its own (it had been named, at 21.91 of 50 ms)
            else f"misses the TPOT target even at batch 1 (TPOT {d['batch1_tpot_ms']:.2f} ms)"
        )
        return f"{head}\nno batch meets it: {why}\nlimited_by: {d['limited_by']}"
    usd = _usd(d, "usd_per_1M_tokens")
    rows = [
        ("requests_in_flight" if d["batching"] == "continuous" else "batch", f"{d['batch']}"),
        ("tpot_ms", f"{d['tpot_ms']:.2f}"),
        ("ttft_ms", f"{d['ttft_ms']:.1f}"),
        ("tokens_per_s_per_gpu", f"{d['tokens_per_s_per_gpu']:.1f}"),
        ("tokens_per_s_per_user", f"{d['tokens_per_s_per_user']:.1f}"),
        ("usd_per_1M_tokens", usd),
        ("memory_per_gpu_GB", f"{d['memory_per_gpu_GB']:.1f}"),
        ("limited_by", d["limited_by"] + (f" ({d['slo_binding']})" if d["slo_binding"] else "")),
    ]
    # what the shared keys count here (the JSON's counting): a decode-only rate had read beside the layout search's
    # and the pages' served ones unlabelled
    said = [f"  {k}: {v}" for k, v in d["counting"].items()]
    return head + "\n" + "\n".join(f"{k:<22} {v}" for k, v in rows) + "\ncounting:\n" + "\n".join(said)


def frontier_main(argv: Sequence[str] | None = None) -> int:
    """Run the frontier command; returns the exit status (0 ok, 2 bad input)."""
    try:
        args = build_parser().parse_args(list(argv) if argv is not None else None)
        _targets_and_mode(args)
        fields = {}
        for flag, name, resolve in (
            ("--model", "model", resolve_model),
            ("--hardware", "hardware", resolve_hardware),
            ("--profile", "profile", lambda ref: _profiles(ref, args.search, fields["hardware"])),
        ):
            try:
                fields[name] = resolve(getattr(args, name))
            except CatalogError as e:
                raise _BadInput(f"{flag}: {e}") from None
        for flag, name in (("--weights", "weights"), ("--kv", "kv")):
            try:
                fields[name] = parse_format(getattr(args, name))
            except ValueError as e:
                raise _BadInput(f"{flag}: {e}") from None
        if args.search:
            return _search_main(args, fields)
        try:
            scenario = _scenario(
                args, fields["weights"], fields["kv"], batch=1, num_gpus=args.gpus, batching=args.batching
            )
            point = frontier(
                fields["model"],
                fields["hardware"],
                scenario,
                fields["profile"],
                args.tpot_target_ms * ms,
                None if args.ttft_target_ms is None else args.ttft_target_ms * ms,
                max_batch=MAX_BATCH_SEARCHED if args.max_batch is None else args.max_batch,
            )
        except ValueError as e:  # e.g. an unknown --compute precision
            flag = _flag_of(e)
            raise _BadInput(f"{flag}: {e}") from None
    except _BadInput as e:
        print(f"error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    except SystemExit as e:  # --help
        return int(e.code or 0)
    d = to_dict(point, args, fields["model"].id, fields["hardware"]) | price_fields(fields["hardware"], scenario)
    d |= window_fields(fields["model"], args.context, args.output)
    # what would make it fit (more GPUs, lower precision), as `estimate` says it
    d["remedy"] = remedy(estimate(fields["model"], fields["hardware"], scenario, fields["profile"]))
    print(json.dumps(d, indent=2) if args.json else _text(d))
    return 0


def _profiles(ref: str, search: bool, hw):
    """--profile's profile; for BEST (the layout search's default) the chip's best-engine profiles."""
    if ref != BEST:
        return resolve_profile(ref)
    if not search:
        raise _BadInput(f"--profile: {BEST} is the layout search's (give --max-gpus), or name one profile")
    return best_engines(hw)


def _engine(profiles, engine_id: str):
    """The profile a deployment was timed under, of the one or several searched."""
    return next(p for p in (profiles if isinstance(profiles, tuple) else (profiles,)) if p.id == engine_id)


def _targets_and_mode(args: argparse.Namespace) -> None:
    """One latency target (--tpot-target-ms or --interactivity) in args.tpot_target_ms; args.search: the layout search
    (--max-gpus, --serving or --mtp given) rather than one deployment of --gpus GPUs."""
    if args.tpot_target_ms is None and args.interactivity is None:
        raise _BadInput("--tpot-target-ms: give a TPOT target (or --interactivity TOK_PER_S_PER_USER)")
    if args.tpot_target_ms is not None and args.interactivity is not None:
        raise _BadInput("--interactivity: give it or --tpot-target-ms, not both")
    if args.interactivity is not None:
        args.tpot_target_ms = 1000.0 / args.interactivity
    if args.mtp_acceptance is not None and args.mtp is None:
        raise _BadInput("--mtp-acceptance: applies with --mtp (multi-token prediction) only; give --mtp too")
    args.price_basis = _basis(args)
    args.mtp_acceptance = MTP_ACCEPTANCE if args.mtp_acceptance is None else args.mtp_acceptance
    if args.max_gpus is not None and args.max_gpus > MAX_BUDGET_GPUS:
        raise _BadInput(f"--max-gpus: must be <= {MAX_BUDGET_GPUS}, got {args.max_gpus!r}")
    args.search = args.max_gpus is not None or args.serving is not None or args.mtp is not None or args.within_measured
    if args.search and args.max_batch is not None:
        raise _BadInput(
            "--max-batch: caps the batch search on --gpus GPUs; the layout search (--max-gpus, --serving, --mtp, "
            "--within-measured) sweeps the concurrency of every layout itself"
        )
    if args.search and args.batching is not None:
        raise _BadInput(
            "--batching: chooses the batch search's basis on --gpus GPUs; the layout search (--max-gpus, --serving, "
            "--mtp, --within-measured) counts continuous batching itself"
        )
    args.batching = args.batching or "static"
    if args.search and args.gpus is not None:
        raise _BadInput(
            "--gpus: the layout search (--max-gpus, --serving, --mtp, --within-measured) picks the GPUs; give --max-gpus"
        )
    if args.search:
        args.max_gpus = args.max_gpus or 8
        args.serving = args.serving or "best"
    args.profile = args.profile or (BEST if args.search else "typical")
    args.gpus = args.gpus or 1


def _pool(p) -> dict | None:
    return None if p is None else p.as_dict()


def measured_band(d: Deployment, model, hw, profile, best: bool = False) -> tuple[float, float, str] | None:
    """(low, high tokens/s per GPU, what the range rests on, in words) of frontier_check.deployment_range, against
    the check of the search's kind (best: the best-engine search on the frontier over every engine)."""
    frontier = committed_check().get(summary_key(best))
    found = deployment_range(d, model, hw, profile, frontier)
    if found is None:
        return None
    low, high, band, (node_key, level_key) = found
    node_gpus, high_from = frontier["node_gpus"], frontier["high_from_tok_s_per_user"]
    node = f"on more than {node_gpus} GPUs" if node_key == "multi_node" else f"on at most {node_gpus} GPUs"
    level = f"from {high_from:g} tok/s per user" if level_key == "high" else f"below {high_from:g} tok/s per user"
    basis = (
        f"80% of the {band['runs'] - band['unreached']} measured frontier runs{' (any engine)' if best else ''} "
        f"{node} {level} (model / measured "
        f"{band['p10_ratio']:.2f}-{band['p90_ratio']:.2f}; data/disaggregated_check.json, tpot_model/frontier_check.py)"
    )
    return low, high, basis


def search_dict(
    d: Deployment,
    args: argparse.Namespace,
    model,
    hw,
    band: tuple | None = None,
    parts: StepParts | None = None,
    rows: Sequence[ServingMeasurement] = (),
    engine_name: str | None = None,
) -> dict:
    """The layout search's JSON on chip `hw`: display units in the key names, null for unknown numbers; band:
    measured_band's; parts: the decode pool's step decomposition (layouts.decode_parts); rows: the serving
    measurements (data/serving_measurements.csv) the measured fields are read from; engine_name: the display name of
    the profile the deployment was timed under."""
    model_id, hardware_id = model.id, hw.id
    weights = with_native_fp4(parse_format(args.weights), hw.vendor).name  # the measured runs name nvfp4 / mxfp4
    return {
        "model": model_id,
        "hardware": hardware_id,
        "hardware_announced": hw.announced,
        "projection_note": projection_note(hw),
        "platform_note": platform_note(args.profile, hw),  # the engine does not run on this chip's vendor
        "weights": args.weights,
        "kv": args.kv,
        "context_tokens": args.context,
        "output_tokens": args.output,
        "profile": args.profile,
        # the engine profile the deployment was timed under (with profile best: the faster engine at the target)
        "engine": d.engine if d.feasible else None,
        "engine_name": engine_name if d.feasible else None,
        "max_gpus": d.max_gpus,
        "serving_searched": args.serving,
        "within_measured_recipes": bool(args.within_measured),
        "tpot_target_ms": args.tpot_target_ms,
        "interactivity_target_tokens_per_s_per_user": args.interactivity,
        "ttft_target_ms": args.ttft_target_ms,
        "mtp_k": d.mtp_k or None,
        "mtp_acceptance": args.mtp_acceptance if d.mtp_k else None,
        "feasible": d.feasible,
        "serving": d.serving or None,
        "gpus_used": d.gpus_used,
        "layout": {"prefill": _pool(d.prefill), "decode": _pool(d.decode), "label": d.label or None},
        "tokens_per_s_per_gpu": _num(d.tokens_per_s_per_gpu),
        "tokens_per_s_per_gpu_low": _num(band[0]) if band else None,
        "tokens_per_s_per_gpu_high": _num(band[1]) if band else None,
        "range_basis": band[2] if band else None,
        # a model the serving fit has not seen: no range; what its own published runs say (frontier_check)
        "transfer_check": transfer_note(model, committed_check()),
        "output_tokens_per_s_per_gpu": _num(d.output_tokens_per_s_per_gpu),
        "tokens_per_s_per_user": _num(d.tokens_per_s_per_user),
        "tpot_ms": _num(d.tpot_s / ms),
        "ttft_ms": _num(d.ttft_s / ms),
        "kv_transfer_ms": _num(d.kv_transfer_s / ms) if d.serving == "disaggregated" else None,
        "usd_per_1M_tokens": _num(d.usd_per_1M_tokens),
        "usd_per_1M_output_tokens": _num(d.usd_per_1M_output_tokens),
        "counting": counting("served"),  # tokens_per_s_per_gpu, usd_per_1M_tokens and ttft_ms mean this here
        "limited_by": d.limited_by,
        "rate_set_by": d.rate_set_by or None,
        # nothing meets the target: the fastest any layout that fits reaches (null otherwise)
        "fastest_tokens_per_s_per_user": _num(1.0 / d.fastest_tpot_s),
        "fastest_tpot_ms": _num(d.fastest_tpot_s / ms),
        # and the most interactive measured run of the model on the chip with these weights within the budget
        "measured_fastest": _measured(rows, d, model_id, hardware_id, weights) if not d.feasible else None,
        # the measured frontier at the target: runs like this question's (same lengths, weights, MTP or not, within
        # the budget), interpolated between the two around the target (frontier_check.measured_at)
        "measured_at_target": _measured_at(rows, d, args, model_id, hardware_id, weights),
        # the decode pool's sequences per GPU, and (disaggregated) the most any measured run of this model decoded on
        # the same worker layout (data/serving_measurements.csv): beyond it, the number extrapolates the recipes
        **_reach(rows, d, model_id, hw),
        # one decode instance's step as modelled, before the pool correction and MTP that tpot_ms adds
        "decode_step_ms": {k: _num(v / ms) for k, v in parts.parts_s.items()} if parts else None,
        "communication_share": _num(parts.communication_share) if parts else None,
        "collective_link": (parts.link or None) if parts else None,
    }


def _reach(rows: Sequence[ServingMeasurement], d: Deployment, model_id: str, hw) -> dict:
    """decode_sequences_per_gpu and decode_spans_scale_up_domains; for a disaggregated deployment
    measured_max_decode_sequences_per_gpu (null: no measured run used its decode worker recipe, layouts.recipe_key)
    and beyond_measured_recipes (frontier_check.beyond_measured)."""
    if not d.feasible:
        return {"decode_sequences_per_gpu": None, "decode_spans_scale_up_domains": None,
                "measured_max_decode_sequences_per_gpu": None, "beyond_measured_recipes": None}  # fmt: skip
    reach = decode_reach(rows)
    key = recipe_key(d.decode.parallelism, d.decode.gpus_each, hw)
    disaggregated = d.serving == "disaggregated"
    most = reach.get((model_id, *key)) if disaggregated else None
    return {
        "decode_sequences_per_gpu": _num(d.decode_sequences_per_gpu),
        "decode_spans_scale_up_domains": key[2],
        "measured_max_decode_sequences_per_gpu": _num(most) if most is not None else None,
        "beyond_measured_recipes": beyond_measured(d, model_id, reach, hw) is not None if disaggregated else None,
    }


def _run(r: ServingMeasurement) -> dict:
    """A measured run in the JSON's units."""
    return {
        "id": r.id,
        "publisher": r.publisher or None,
        "label": r.label,  # as the text output and the pages name it: 'InferenceX IX-006'
        "tokens_per_s_per_user": r.interactivity_tokens_per_s_per_user,
        "tokens_per_s_per_gpu": _num(r.total_tokens_per_s_per_gpu),
        "tpot_ms": _num(r.tpot_s / ms),
        "gpus": r.num_gpus,
        "engine": ENGINES.get(r.profile, (r.profile,))[0],
        "run_date": r.run_date or None,
        "context_tokens": round(r.isl),
        "output_tokens": round(r.osl),
    }


def _measured(rows, d: Deployment, model_id: str, hardware_id: str, weights: str) -> dict | None:
    """frontier_check.measured_fastest's run in the JSON's units, or None."""
    r = measured_fastest(rows, model_id, hardware_id, weights, d.max_gpus)
    return None if r is None else _run(r)


def _measured_at(rows, d: Deployment, args: argparse.Namespace, model_id: str, hardware_id: str, weights: str):
    """The measured frontier at the target (frontier_check.measured_at over runs_like this question, within the
    budget) in the JSON's units, with model / measured where a layout meets the target; None without such runs."""
    runs = runs_like(rows, model_id, hardware_id, weights, args.context, args.output, d.max_gpus, bool(d.mtp_k))
    m = measured_at(runs, 1000.0 / args.tpot_target_ms)
    if m is None:
        return None
    return {
        "tokens_per_s_per_gpu": _num(m.tokens_per_s_per_gpu),
        "interpolated": m.interpolated,
        "runs": [_run(r) for r in m.runs],
        "model_over_measured": _num(d.tokens_per_s_per_gpu / m.tokens_per_s_per_gpu) if d.feasible else None,
    }


def _search_text(d: dict) -> str:
    head = (
        f"{d['model']} on up to {d['max_gpus']} x {d['hardware']} ({d['weights']} weights, {d['kv']} KV), "
        f"context {d['context_tokens']:,} tokens, output {d['output_tokens']:,} tokens, TPOT target "
        f"{d['tpot_target_ms']:g} ms ({1000 / d['tpot_target_ms']:.4g} tok/s/user)"
        + (f", TTFT target {d['ttft_target_ms']:g} ms" if d["ttft_target_ms"] is not None else "")
        + (f", MTP k={d['mtp_k']} a={d['mtp_acceptance']:g}" if d["mtp_k"] else "")
        + f", serving {d['serving_searched']}"
        + (", within the measured recipes" if d["within_measured_recipes"] else "")
        + (f"\nprojection: {d['projection_note']}" if d["projection_note"] else "")
        + (f"\nnote: {d['platform_note']}" if d["platform_note"] else "")
        + (f"\nnote: {d['context_window_note']}" if d["context_window_note"] else "")
    )
    if not d["feasible"]:
        why = {
            "memory": f"no layout fits in memory within the budget: {d['remedy']}"
            if d["remedy"]
            else "no layout fits in memory within the budget: a larger budget, lower precision or a chip with more "
            "memory",
            "gpus": "disaggregated serving needs at least 2 GPUs",
        }.get(d["limited_by"], "no layout meets the latency target: a looser target or a faster chip")
        if (fastest := d["fastest_tpot_ms"]) is not None:
            why += (
                f"; the fastest layout that fits reaches {d['fastest_tokens_per_s_per_user']:.1f} tok/s/user "
                f"(TPOT {fastest:.2f} ms)"
                + (", so the TTFT target is what none meets" if fastest <= d["tpot_target_ms"] else "")
            )
        if (m := d["measured_fastest"]) is not None:
            why += (
                f"\nmeasured: the most interactive run of this model on this chip with these weights within the budget "
                f"reached {m['tokens_per_s_per_user']:.1f} tok/s/user ({m['label']}: {m['engine']}, {m['gpus']} GPUs, "
                f"{m['context_tokens']} / {m['output_tokens']} tokens, {m['run_date']}; data/serving_measurements.csv)"
            )
        at = "".join(f"\n{k}: {v}" for k, v in _measured_at_rows(d))
        return f"{head}\nno layout: {why}{at}\nlimited_by: {d['limited_by']}"
    lay = d["layout"]
    layout = lay["label"]  # Deployment.label: '2 × DEP8', 'prefill 3 × DEP4 + decode 1 × DEP32'
    usd = _usd(d, "usd_per_1M_tokens")
    low, high = d["tokens_per_s_per_gpu_low"], d["tokens_per_s_per_gpu_high"]
    band = (
        [("80% range (measured)", f"{low:.0f}-{high:.0f} tok/s/GPU ({d['range_basis']})")]
        if d["range_basis"]
        else [("80% range (measured)", f"none: {d['range_note']}")]
        if d.get("range_note") and d["feasible"] and not d["transfer_check"]
        else []
    )
    band += _transfer_rows(d["transfer_check"])
    searched = ""
    if d["profile"] == BEST:  # typical where no engine is fitted on the vendor's chips (engines.SERVING_ENGINES)
        fitted = d["engine"] != "typical"
        searched = (
            " (the faster of the engines fitted on this vendor's chips)"
            if fitted
            else (" (no engine is fitted to serving runs on this vendor's chips)")
        )
    rows = [
        ("serving", d["serving"]),
        ("layout", layout),
        ("engine", f"{d['engine_name']}{searched}"),
        ("gpus_used", f"{d['gpus_used']}"),
        ("batch_per_instance", f"{lay['decode']['batch_per_instance']}" + _decode_note(d)),
        *_reach_rows(d),
        ("tpot_ms", f"{d['tpot_ms']:.2f}"),
        ("ttft_ms", f"{d['ttft_ms']:.1f}"),
        ("tokens_per_s_per_user", f"{d['tokens_per_s_per_user']:.1f}"),
        ("tokens_per_s_per_gpu", f"{d['tokens_per_s_per_gpu']:.1f} (input + output)"),
        *band,
        *_measured_at_rows(d),
        ("output_tokens_per_s_per_gpu", f"{d['output_tokens_per_s_per_gpu']:.1f}"),
        *_parts_rows(d),
        ("usd_per_1M_tokens", usd + " (input + output)"),
        (
            "limited_by",
            d["limited_by"] + (f" (requests/s set by the {d['rate_set_by']} pool)" if d["rate_set_by"] else ""),
        ),
    ]
    return head + "\n" + "\n".join(f"{k:<28} {v}" for k, v in rows)


def _decode_note(d: dict) -> str:
    """After a disaggregated deployment's decode batch in the text: whose it is, and where the prefill pool sets the
    rate, how many sequences are in flight (Layout.decode_sequences_per_gpu)."""
    if d["serving"] != "disaggregated":
        return ""
    dec = d["layout"]["decode"]
    in_flight = d["decode_sequences_per_gpu"] * dec["gpus"]
    if in_flight < dec["batch_per_instance"] * dec["instances"] - 0.5:
        return f" (decode pool; {in_flight:,.0f} in flight in all at the rate the prefill pool sets)"
    return " (decode pool)"


def _transfer_rows(t: dict | None) -> list[tuple[str, str]]:
    """The text output's lines for a model the serving fit has not seen (frontier_check.transfer_note)."""
    if t is None:
        return []
    rows = [("80% range (measured)", f"none: the serving fit has seen no run of this model (the ranges rest on "
                                     f"{', '.join(t['fitted_models']) or 'no'} runs)")]  # fmt: skip
    said = []
    if (f := t["frontier"]) and f["median_ratio"] is not None:
        said.append(
            f"on its {f['runs']} published frontier runs the best-engine search read median {f['median_ratio']:.2f}x "
            f"measured ({f['within']} within +-{WITHIN:.0%})"
        )
    if s := t["single_node"]:
        said.append(f"on its {s['runs']} single-node runs TPOT {s['median_tpot_ratio']:.2f}x measured (median)")
    if said:
        rows.append(("transfer check", "; ".join(said) + " (data/disaggregated_check.json: transfer)"))
    return rows


def _measured_at_rows(d: dict) -> list[tuple[str, str]]:
    """The measured frontier at the target, in the text output: its value, the runs it is read from, model / measured."""
    if (m := d["measured_at_target"]) is None:
        return []
    runs = [
        f"{r['label']} ({r['tokens_per_s_per_user']:.1f} tok/s/user, {r['gpus']} GPUs, {r['engine']})"
        for r in m["runs"]
    ]
    how = f"interpolated between {runs[0]} and {runs[1]}" if m["interpolated"] else f"{runs[0]}, which meets the target"
    ratio = f"; model / measured {m['model_over_measured']:.2f}" if m["model_over_measured"] is not None else ""
    value = f"{m['tokens_per_s_per_gpu']:.1f} tok/s/GPU"
    return [("measured at target", f"{value} ({how}; data/serving_measurements.csv){ratio}")]


def _reach_rows(d: dict) -> list[tuple[str, str]]:
    """A disaggregated decode pool beyond the measured recipes, in the text output: its sequences per GPU against
    the most any measured run of the model decoded on the same worker layout."""
    if not d["beyond_measured_recipes"]:
        return []
    seqs, most = d["decode_sequences_per_gpu"], d["measured_max_decode_sequences_per_gpu"]
    label = d["layout"]["decode"]["name"]
    where = " across scale-up domains" if d["decode_spans_scale_up_domains"] else ""
    measured = (
        f"at most {most:.0f} per GPU in any measured {label} decode pool{where} of this model"
        if most is not None
        else f"no measured run of this model uses {label} decode workers{where}"
    )
    return [
        (
            "beyond_measured_recipes",
            f"{seqs:.0f} sequences per GPU decoding; {measured} (data/serving_measurements.csv)",
        )
    ]


def _parts_rows(d: dict) -> list[tuple[str, str]]:
    """The decode pool's step in the text output: its parts in ms and the link its collectives cross."""
    if not d["decode_step_ms"]:
        return []
    step = d["decode_step_ms"]

    def part(k: str, v: float) -> str:  # a part at 0 beside the other side of the roofline: it runs under it
        memory = step.get("weights", 0) + step.get("kv_cache", 0)
        if k in ("weights", "kv_cache") and v == 0 and step.get("compute", 0) > 0:
            return f"{k} {v:.2f} (under compute)"
        if k == "compute" and v == 0 and memory > 0:
            return f"{k} {v:.2f} (under the memory reads)"
        return f"{k} {v:.2f}"

    parts = ", ".join(part(k, v) for k, v in step.items())
    link = {"scale_up": "inside one scale-up domain", "scale_out": "across domains (scale-out network)"}.get(
        d["collective_link"] or "", "one GPU, no collectives"
    )
    share = f"communication {100 * d['communication_share']:.0f}% of the step, {link}"
    before = "the pool correction" + (f" and the MTP rounds ({d['mtp_k']} drafts, a verify step)" if d["mtp_k"] else "")
    return [("decode_step_ms", f"{parts} (modelled, one plain decode step before {before})"), ("communication", share)]


def _flag_of(e: ValueError) -> str:
    """The option a scenario's ValueError is about (its message names the field), for the one-line error."""
    said = str(e)
    flags = (("compute precision", "--compute"), ("price basis", "--price-basis"), ("as_of", "--as-of"),
             ("multi-token-prediction module", "--mtp"))  # fmt: skip
    return next((flag for words, flag in flags if words in said), "input")


def _basis(args: argparse.Namespace) -> str:
    """The price basis the options name (prices.basis_for_price: --price implies custom); _BadInput for an unknown
    one, custom without --price, or --price beside another basis."""
    if args.price_basis is not None and args.price_basis not in PRICE_BASES:
        raise _BadInput(f"--price-basis: must be one of {', '.join(PRICE_BASES)}, got {args.price_basis!r}")
    try:
        return basis_for_price(args.price_basis, args.price)
    except ValueError as e:
        raise _BadInput(f"--price-basis: {e}") from None


def _scenario(args: argparse.Namespace, weights, kv, **more) -> Scenario:
    """The commands' scenario from their shared options: lengths, formats, compute, price and basis, engine date."""
    return Scenario(
        context_tokens=args.context,
        output_tokens=args.output,
        weights=weights,
        kv_cache=kv,
        compute=getattr(args, "compute", None),
        price_usd_per_gpu_hour=args.price,
        price_basis=args.price_basis,
        as_of=getattr(args, "as_of", None),
        **more,
    )


def _search_main(args: argparse.Namespace, fields: dict) -> int:
    rows = load_serving_measurements()
    recipes = model_recipes(decode_reach(rows), fields["model"].id) if args.within_measured else None
    if recipes == {}:  # no run to keep within: the search would have dropped every disaggregated layout, unsaid
        print(f"error: --within-measured: no measured disaggregated run of {fields['model'].id} to keep the decode pools "
              "within (data/serving_measurements.csv); drop the option", file=sys.stderr)  # fmt: skip
        return 2
    try:
        scenario = _scenario(args, fields["weights"], fields["kv"])
        d = best_deployment(
            fields["model"],
            fields["hardware"],
            scenario,
            fields["profile"],
            max_gpus=args.max_gpus,
            tpot_target_s=args.tpot_target_ms * ms,
            ttft_target_s=None if args.ttft_target_ms is None else args.ttft_target_ms * ms,
            serving=args.serving,
            mtp_k=args.mtp,
            mtp_acceptance=args.mtp_acceptance,
            recipes=recipes,
        )
    except ValueError as e:
        flag = _flag_of(e)
        print(f"error: {flag}: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    engine = _engine(fields["profile"], d.engine) if d.feasible else None
    first = fields["profile"][0] if isinstance(fields["profile"], tuple) else fields["profile"]  # of those searched
    fix = None  # nothing fits within the budget: what would (more GPUs, lower precision), as `estimate` says it
    if d.limited_by == "memory":  # at the widest instance searched (6 GPUs search 1, 2, 4: a review)
        tightest = budget_no_fit(fields["model"], fields["hardware"], scenario, fields["profile"], args.max_gpus)
        fix = remedy(tightest, gpus_flag="--max-gpus", budget=args.max_gpus)
    elif not d.feasible and d.fastest_tpot_s == d.fastest_tpot_s:  # a target out of reach: how near the fastest is
        fix = (f"a TPOT target of {d.fastest_tpot_s / ms:,.3g} ms ({1 / d.fastest_tpot_s:,.3g} tok/s/user) or looser, "
               "a larger budget or a faster chip")  # fmt: skip
    band = measured_band(d, fields["model"], fields["hardware"], engine, args.profile == BEST) if engine else None
    parts = decode_parts(fields["model"], fields["hardware"], scenario, engine, d) if engine else None
    name = engine.name if engine else None
    out = (
        search_dict(d, args, fields["model"], fields["hardware"], band, parts, rows, name)
        | window_fields(fields["model"], args.context, args.output)
        | price_fields(fields["hardware"], scenario)
        | {"remedy": fix}
    )
    # why no measured range, said beside the null (a review: with --mtp it had been null, unsaid)
    checked = committed_check().get(summary_key(args.profile == BEST))
    out["range_note"] = (
        None if band else no_range_reason(d, fields["model"], fields["hardware"], engine or first, checked)
    )
    print(json.dumps(out, indent=2) if args.json else _search_text(out))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(frontier_main())


# --------------------------------------------------------------------------------------------------- capacity

CAPACITY_PROG = "python -m tpot_model capacity"


# a demand past any fleet: a thousand times the whole world's daily LLM tokens of 2026 (~1e15)
MAX_TOKENS_PER_DAY = 1e18
MAX_PEAK_TO_AVERAGE = 100.0  # busiest hour over the mean: daily traffic runs 1.5-3; 1e30 had sized 8.8e39 GPUs


def build_capacity_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog=CAPACITY_PROG,
        description="Demand to capacity: for each chip, the fleet that serves a number of tokens per day at a TPOT "
        "target (tensor-parallel replicas, as the Serving planner's served row, within one scale-up domain: 8 GPUs on "
        "an HGX server, up to 72 on an NVL72 rack; with --max-gpus, replicas of the layout search's deployment: "
        "expert-parallel and disaggregated layouts within that budget, as `frontier --max-gpus`), its GPUs, all-in "
        "MW, capex, opex per year, $ per 1M output tokens and what limits the layout. One JSON object per chip with "
        "--json.",
    )
    p.add_argument("--model", required=True, help="catalog id or a config.json / model YAML path")
    p.add_argument("--hardware", required=True, help="comma-separated catalog ids, e.g. h200,b200,mi355x")
    num = _number
    most = MAX_TOKENS_PER_DAY  # 1e30 had given 8.8e21 GPUs in columns that broke
    p.add_argument("--output-tokens-per-day", type=num("--output-tokens-per-day", float, 0, strict=True, maximum=most),
                   default=None)  # fmt: skip
    p.add_argument("--input-tokens-per-day", type=num("--input-tokens-per-day", float, 0, maximum=most), default=None)
    p.add_argument(
        "--requests-per-day",
        type=num("--requests-per-day", float, 0, strict=True, maximum=most / 1e3),
        default=None,
        help="demand as requests per day instead of tokens: each with --context input and --output output tokens",
    )
    p.add_argument("--tpot-target-ms", type=num("--tpot-target-ms", float, 0, strict=True), required=True)
    p.add_argument("--ttft-target-ms", type=num("--ttft-target-ms", float, 0, strict=True), default=None)
    p.add_argument("--peak-to-average", type=num("--peak-to-average", float, 1, maximum=MAX_PEAK_TO_AVERAGE),
                   default=1.0, help=f"from 1 to {MAX_PEAK_TO_AVERAGE:g}; default 1")  # fmt: skip
    p.add_argument(
        "--utilisation", type=num("--utilisation", float, 0, strict=True), default=1.0, help="in (0, 1]; default 1"
    )
    p.add_argument("--price-basis", default=None, help=f"{', '.join(PRICE_BASES)} (default {DEFAULT_BASIS})")
    p.add_argument("--price", type=num("--price", float, 0, maximum=MAX_USD_PER_GPU_HOUR), default=None,
                   help="$/GPU-hour (price basis custom)")  # fmt: skip
    p.add_argument("--weights", default="bf16", help="weight format (default bf16)")
    p.add_argument("--kv", default="bf16", help="KV-cache format (default bf16)")
    p.add_argument("--context", "--isl", type=num("--context/--isl", int, 0, maximum=MAX_INPUT_COUNT), default=4096,
                   help="prompt tokens per request, the ISL (4096)")  # fmt: skip
    p.add_argument("--output", "--osl", type=num("--output/--osl", int, 1, maximum=MAX_INPUT_COUNT), default=1024,
                   help="output tokens per request, the OSL (1024)")  # fmt: skip
    p.add_argument(
        "--max-gpus",
        type=_number("--max-gpus", int, 1, maximum=MAX_BUDGET_GPUS),
        default=None,
        help=f"the layout search's GPU budget (at most {MAX_BUDGET_GPUS}): each replica the best aggregated or "
        "disaggregated deployment within it (the budget whose replicas need the fewest GPUs)",
    )
    p.add_argument(
        "--profile",
        default=None,
        help=f"efficiency profile (default typical; with --max-gpus {BEST}: the faster of the engines fitted to "
        "serving runs on each chip's vendor)",
    )
    p.add_argument(
        "--whole-domains",
        action="store_true",
        help="cost the fleet as bought: MW, capex and opex count the whole servers or racks that hold the replicas "
        "(costed_gpus), and the layout search takes the replica that needs the fewest of them (default: the "
        "replicas' GPUs, as a cloud rents them)",
    )
    p.add_argument("--json", action="store_true", help="print a JSON list, one object per chip")
    return p


def capacity_dict(f: Fleet, demand: Demand, hw: Hardware) -> dict:
    """One chip's fleet in display units (null for unknown numbers); an announced chip's a projection, said so."""
    return {
        "hardware": f.hardware,
        "hardware_announced": hw.announced,
        "projection_note": projection_note(hw),
        "feasible": f.feasible,
        "gpus": f.gpus if f.feasible else None,
        "gpus_per_replica": f.gpus_per_replica or None,
        "replicas": f.replicas or None,
        "scale_up_domains": f.domains or None,  # whole servers / racks holding the replicas (null: none, or slices)
        "rented_in_slices": f.rented_in_slices,  # a TPU pod: rented in slices of a replica's size, no servers / racks
        "idle_gpus_in_domains": f.idle_gpus if f.domains else None,
        "whole_domains": f.whole_domains,  # costed as bought: MW and $ count the whole servers / racks
        "costed_gpus": f.costed_gpus if f.feasible else None,  # the GPUs MW and $ count
        # sequences decoding per instance: the tensor-parallel replica's one, or each decode instance of the search's
        # deployment (frontier --json's layout.decode.batch_per_instance); a disaggregated prefill pool has its own
        "decode_batch_per_instance": f.batch or None,
        "output_tokens_per_s_per_gpu": _num(f.output_tokens_per_s_per_gpu),
        "decode_tokens_per_s_per_gpu": _num(f.decode_tokens_per_s_per_gpu),
        "all_in_kW_per_gpu": _num(f.all_in_w_per_gpu / 1e3),
        "megawatts": _num(f.megawatts) if f.feasible else None,
        "capex_usd": _num(f.capex_usd) if f.feasible else None,
        "opex_usd_per_year": _num(f.opex_usd_per_year) if f.feasible else None,
        "usd_per_1M_output_tokens": _num(f.usd_per_1M_output_tokens(demand)) if f.feasible else None,
        "price_usd_per_gpu_hour": _num(f.usd_per_gpu_hour),
        "price_basis": f.price_basis,
        "price_as_of": f.price_as_of or None,
        "price_note": None if math.isfinite(f.usd_per_gpu_hour) else no_price_note(hw, f.price_basis),
        "limited_by": f.limited_by,
        "prompt_tokens": f.prompt_tokens or None,  # each request's prompt as sized (the demand's input per output)
        # no layout meets the targets but one holds the model: how near the fastest comes (batch 1)
        "fastest_tpot_ms": _num(f.fastest_tpot_s / ms),
        "fastest_ttft_ms": _num(f.fastest_ttft_s / ms),
        "fastest_gpus": f.fastest_gpus or None,
        "missed_target": f.slo_binding or None,  # 'tpot' or 'ttft'
        "fastest_missed_ms": _num(f.fastest_missed_s / ms),  # the fastest of the target missed
        "counting": counting("fleet_search" if f.max_gpus else "fleet"),
        # one replica's layout ('TP8'; the search's 'prefill 3 × DEP4 + decode 1 × DEP32'), serving, engine, budget
        "layout": f.layout or None,
        "serving": f.serving or None,
        "engine": f.engine or None,
        "max_gpus": f.max_gpus or None,  # the layout search's budget; null: TP replicas within one scale-up domain
    }


def capacity_range(f: Fleet, model, hw: Hardware, demand: Demand, best: bool = True) -> dict:
    """A layout search's fleet: its GPUs at the ends of the measured 80 % range (frontier_check.measured_gpus, against the
    frontier check of the search's kind: best-engine for each chip's engines, else the one engine's) or why there is
    none; nulls for a tensor-parallel fleet."""
    span, kind = measured_gpus(f, model, hw, demand, committed_check().get(summary_key(best)))
    return {
        "gpus_80pct_low": span[0] if span else None,
        "gpus_80pct_high": span[1] if span else None,
        "no_measured_range_reason": NO_RANGE_REASONS[kind].format(hw=hw.name) if kind else None,
    }


def capacity_remedy(model, hw: Hardware, scenario: Scenario, profile, f: Fleet) -> str | None:
    """For a chip no layout of whose scale-up domain holds the model (limited_by 'no_fit'): the lower precision with
    which the domain's largest count holds it at batch 1, or that lower precision alone is not enough; for a target
    no layout meets (an slo fleet with a fastest layout): the target the fastest meets."""
    if f.limited_by == "slo" and f.fastest_missed_s == f.fastest_missed_s:
        fastest = f"batch 1 on {f.fastest_gpus} GPUs" if f.fastest_gpus else f"any layout within {f.max_gpus} GPUs"
        return (f"a {f.slo_binding.upper()} target of {f.fastest_missed_s / ms:,.3g} ms or looser (the fastest, "
                f"{fastest}), or a faster chip")  # fmt: skip
    if f.max_gpus and (tightest := widest_no_fit(model, hw, scenario, profile, f)) is not None:
        return remedy(tightest, gpus_flag="--max-gpus", budget=f.max_gpus)  # no layout within the budget: as `frontier`
    if (e := widest_no_fit(model, hw, scenario, profile, f)) is None:
        return None
    n = int(e.scenario.num_gpus)
    where = f"does not fit on up to {n} x {hw.name} (one scale-up domain)"
    if (fitting := lower_precision(e)) is None:
        return f"{where}; lower precision alone is not enough: a chip with more memory per GPU or a larger domain"
    return f"{where}: fits with {fitting}"


def _capacity_text(rows: list[dict], context_tokens: float, has_input: bool = True) -> str:
    def v(x, spec: str) -> str:
        return "-" if x is None else format(x, spec)

    whole = bool(rows and rows[0]["whole_domains"])  # a column of the GPUs MW and $ count: the whole domains'
    costed = f" {'costed':>7}" if whole else ""
    head = f"{'hardware':<12} {'GPUs':>7}{costed} {'tok/s/GPU':>10} {'MW':>8} {'capex $':>14} {'opex $/yr':>14} {'$/1M out':>8}  {'limited_by':<12} layout"
    lines = [head]
    for d in rows:
        costed = f" {v(d['costed_gpus'], ','):>7}" if whole else ""
        lines.append(
            f"{d['hardware'] + ('*' if d['hardware_announced'] else ''):<12} {v(d['gpus'], ','):>7}{costed} {v(d['output_tokens_per_s_per_gpu'], ',.0f'):>10} "
            f"{v(d['megawatts'], ',.3f'):>8} {v(d['capex_usd'], ',.0f'):>14} {v(d['opex_usd_per_year'], ',.0f'):>14} "
            f"{v(d['usd_per_1M_output_tokens'], '.4g'):>8}  {d['limited_by']:<12} {d['layout'] or '-'}"
        )
    if rows and rows[0]["whole_domains"]:  # what MW and $ count
        lines.append("(costed as bought: MW, capex and opex count the costed GPUs, those of the whole servers or racks "
                     "that hold the replicas, their idle GPUs too; GPUs: the replicas')")  # fmt: skip
    if rows and rows[0]["max_gpus"]:  # what a replica is
        lines.append(f"(each replica the layout search's deployment within up to {rows[0]['max_gpus']} GPUs, under the "
                     "engine named per chip in --json; tok/s/GPU over both pools of a disaggregated one)")  # fmt: skip
    lines.append("(tok/s/GPU: output tokens; MW all-in; capex implied by the chip's hyperscaler TCO at default "
                 "financing; opex and $ per 1M output tokens at the price basis, the $ over the output tokens the "
                 "fleet serves: every GPU, peak-to-average and utilisation included, so not the price over tok/s/GPU; "
                 "'-' = no price, no all-in power or no layout meets the target)")  # fmt: skip
    lines += [f"* {d['hardware']}: projection: {d['projection_note']}" for d in rows if d["hardware_announced"]]
    lines += [f"{d['hardware']}: note: {d['platform_note']}" for d in rows if d["platform_note"]]
    lines += [f"{d['hardware']}: {d['price_note']}" for d in rows if d["price_note"]]  # its '-' $ figures: why
    for d in rows:  # how far to trust a layout search's fleet
        if d["gpus_80pct_low"] is not None:
            lines.append(f"{d['hardware']}: 80% range (measured): {d['gpus_80pct_low']:,}-{d['gpus_80pct_high']:,} GPUs "
                         "(where 80% of the measured frontier runs of the replica's kind sit against the search)")  # fmt: skip
    for d in rows:  # why a chip has no fleet, and what would give it one
        if d["fastest_gpus"]:
            lines.append(f"{d['hardware']}: no layout meets the {d['missed_target'].upper()} target; the fastest, "
                         f"batch 1 on {d['fastest_gpus']} GPUs, takes {d['fastest_missed_ms']:,.3g} ms")  # fmt: skip
        elif d["remedy"]:
            lines.append(f"{d['hardware']}: {d['remedy']}")
    if rows and rows[0]["context_window_note"]:
        lines.append(f"note: {rows[0]['context_window_note']}")
    prompt = next((d["prompt_tokens"] for d in rows), None)
    if prompt and prompt != context_tokens:  # the demand's token mix, not --context, sets each request's prompt
        lines.append(f"(each request sized with a {prompt:,.0f}-token prompt, not --context {context_tokens:,.0f}: the "
                     "demand's input tokens per output token x --output)")  # fmt: skip
    elif rows and rows[0]["max_gpus"] and not has_input:  # the layout search prefills --context's prompt
        lines.append(f"(no input tokens in the demand: the layout search prefills each request's {context_tokens:,.0f}"
                     "-token prompt (--context), counted)")  # fmt: skip
    elif rows and not prompt:  # a demand of output tokens alone: decode steps at --context's cache, no prefill
        lines.append(f"(no input tokens in the demand: each request decodes beside a {context_tokens:,.0f}-token cache "
                     "(--context), its prefill not counted; --input-tokens-per-day or --requests-per-day counts it)")  # fmt: skip
    return "\n".join(lines)


def capacity_main(argv: Sequence[str] | None = None) -> int:
    """Run the capacity command; returns the exit status (0 ok, 2 bad input)."""
    try:
        args = build_capacity_parser().parse_args(list(argv) if argv is not None else None)
        args.price_basis = _basis(args)
        if args.utilisation > 1:
            raise _BadInput(f"--utilisation: must be <= 1, got {args.utilisation!r}")
        try:
            model = resolve_model(args.model)
        except CatalogError as e:
            raise _BadInput(f"--model: {e}") from None
        chips = []
        for ref in dict.fromkeys(r.strip() for r in args.hardware.split(",") if r.strip()):  # each chip once
            try:
                chips.append(resolve_hardware(ref))
            except CatalogError as e:
                raise _BadInput(f"--hardware: {e}") from None
        if not chips:
            raise _BadInput("--hardware: give at least one chip")
        ref = args.profile or (BEST if args.max_gpus is not None else "typical")
        if ref == BEST and args.max_gpus is None:
            raise _BadInput(f"--profile: {BEST} is the layout search's (give --max-gpus), or name one profile")
        try:
            profile = None if ref == BEST else resolve_profile(ref)  # None: each chip's engines (fleet.searched_fleet)
        except CatalogError as e:
            raise _BadInput(f"--profile: {e}") from None
        for flag, name in (("--weights", "weights"), ("--kv", "kv")):
            try:
                setattr(args, name, parse_format(getattr(args, name)))
            except ValueError as e:
                raise _BadInput(f"{flag}: {e}") from None
        if args.requests_per_day is not None:
            if args.output_tokens_per_day is not None or args.input_tokens_per_day is not None:
                raise _BadInput("--requests-per-day: give it or --output/--input-tokens-per-day, not both")
            demand = Demand.from_requests(
                args.requests_per_day, args.context, args.output, args.peak_to_average, args.utilisation
            )
        elif args.output_tokens_per_day is None:
            raise _BadInput("--output-tokens-per-day or --requests-per-day: one of them is required")
        else:
            demand = Demand(
                args.output_tokens_per_day, args.input_tokens_per_day or 0.0, args.peak_to_average, args.utilisation
            )
        scenario = _scenario(args, args.weights, args.kv)
        ttft = None if args.ttft_target_ms is None else args.ttft_target_ms * ms
        rows = [
            capacity_dict(f, demand, hw)
            | capacity_range(f, model, hw, demand, best=profile is None)
            | {
                "remedy": capacity_remedy(model, hw, scenario, profile, f),
                # the chip's own engines (the search's default) run on it: no note
                "platform_note": platform_note(profile.id, hw) if profile is not None else None,
            }
            | window_fields(model, args.context, args.output)
            for f, hw in zip(
                fleets(
                    model,
                    chips,
                    scenario,
                    profile,
                    demand,
                    args.tpot_target_ms * ms,
                    ttft,
                    max_gpus=args.max_gpus,
                    whole_domains=args.whole_domains,
                ),
                chips,
                strict=True,
            )
        ]
    except _BadInput as e:
        print(f"error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    except SystemExit as e:  # --help
        return int(e.code or 0)
    text = _capacity_text(rows, args.context, demand.input_tokens_per_day > 0) if not args.json else ""
    print(json.dumps(rows, indent=2) if args.json else text)
    return 0
