"""`python -m tpot_model frontier`: the best batch for a deployment at a TPOT target, as text or JSON.

Bad input never shows a traceback: exit status 2 and one line on stderr naming the field (``error: --gpus: ...``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence

from .catalog import CatalogError, resolve_hardware, resolve_model
from .planner import MAX_BATCH_SEARCHED, FrontierPoint, frontier
from .precision import parse_format
from .profiles import resolve_profile
from .scenario import Scenario
from .units import GB, ms

PROG = "python -m tpot_model frontier"


class _BadInput(Exception):
    """A usage error: its message is the one line printed."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse would print usage + message and exit; we want one line
        raise _BadInput(message)


def _number(flag: str, kind: type, minimum: float, *, strict: bool = False):
    """An argparse type: a finite number >= minimum (> minimum when strict), errors naming the flag."""

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise _BadInput(f"{flag}: must be a {'whole number' if kind is int else 'number'}, got {text!r}") from None
        if not math.isfinite(value):
            raise _BadInput(f"{flag}: must be a finite number, got {text!r}")
        if value < minimum or (strict and value == minimum):
            bound = f"> {minimum:g}" if strict else f">= {minimum:g}"
            raise _BadInput(f"{flag}: must be {bound}, got {text!r}")
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
    p.add_argument("--gpus", type=_number("--gpus", int, 1), default=1, help="tensor-parallel GPUs (default 1)")
    p.add_argument("--weights", default="bf16", help="weight format, e.g. bf16, fp8, awq-int4, nvfp4 (default bf16)")
    p.add_argument("--kv", default="bf16", help="KV-cache format (default bf16)")
    p.add_argument("--compute", default=None, help="compute precision (default: the weight format's own)")
    p.add_argument("--context", type=_number("--context", int, 0), default=4096, help="prompt tokens (default 4096)")
    p.add_argument("--output", type=_number("--output", int, 1), default=1024, help="output tokens (default 1024)")
    p.add_argument(
        "--tpot-target-ms", type=_number("--tpot-target-ms", float, 0, strict=True), required=True, help="TPOT target"
    )
    p.add_argument(
        "--ttft-target-ms",
        type=_number("--ttft-target-ms", float, 0, strict=True),
        default=None,
        help="optional TTFT target (the whole batch's prompts prefilled together)",
    )
    p.add_argument("--profile", default="typical", help="efficiency profile (default typical)")
    p.add_argument("--price", type=_number("--price", float, 0), default=None, help="$/GPU-hour (default: catalog)")
    p.add_argument(
        "--max-batch",
        type=_number("--max-batch", int, 1),
        default=MAX_BATCH_SEARCHED,
        help=f"largest batch searched (default {MAX_BATCH_SEARCHED})",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def _num(x: float) -> float | None:
    return x if math.isfinite(x) else None


def to_dict(point: FrontierPoint, args: argparse.Namespace, model_id: str, hardware_id: str) -> dict:
    """The JSON form: display units in the key names (ms, GB), null for unknown numbers (e.g. no price)."""
    return {
        "model": model_id,
        "hardware": hardware_id,
        "gpus": args.gpus,
        "weights": args.weights,
        "kv": args.kv,
        "context_tokens": args.context,
        "output_tokens": args.output,
        "profile": args.profile,
        "tpot_target_ms": args.tpot_target_ms,
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
    }


def _text(d: dict) -> str:
    head = (
        f"{d['model']} on {d['gpus']} x {d['hardware']} ({d['weights']} weights, {d['kv']} KV), "
        f"context {d['context_tokens']}, output {d['output_tokens']}, TPOT target {d['tpot_target_ms']:g} ms"
        + (f", TTFT target {d['ttft_target_ms']:g} ms" if d["ttft_target_ms"] is not None else "")
    )
    if not d["feasible"]:
        why = (
            "does not fit in memory even at batch 1"
            if d["limited_by"] == "memory"
            else f"misses the target even at batch 1 (TPOT {d['batch1_tpot_ms']:.2f} ms)"
        )
        return f"{head}\nno batch meets it: {why}\nlimited_by: {d['limited_by']}"
    usd = f"${d['usd_per_1M_tokens']:.4g}" if d["usd_per_1M_tokens"] is not None else "n/a (no price)"
    rows = [
        ("batch", f"{d['batch']}"),
        ("tpot_ms", f"{d['tpot_ms']:.2f}"),
        ("ttft_ms", f"{d['ttft_ms']:.1f}"),
        ("tokens_per_s_per_gpu", f"{d['tokens_per_s_per_gpu']:.1f}"),
        ("tokens_per_s_per_user", f"{d['tokens_per_s_per_user']:.1f}"),
        ("usd_per_1M_tokens", usd),
        ("memory_per_gpu_GB", f"{d['memory_per_gpu_GB']:.1f}"),
        ("limited_by", d["limited_by"] + (f" ({d['slo_binding']})" if d["slo_binding"] else "")),
    ]
    return head + "\n" + "\n".join(f"{k:<22} {v}" for k, v in rows)


def frontier_main(argv: Sequence[str] | None = None) -> int:
    """Run the frontier command; returns the exit status (0 ok, 2 bad input)."""
    try:
        args = build_parser().parse_args(list(argv) if argv is not None else None)
        fields = {}
        for flag, name, resolve in (
            ("--model", "model", resolve_model),
            ("--hardware", "hardware", resolve_hardware),
            ("--profile", "profile", resolve_profile),
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
        try:
            scenario = Scenario(
                batch=1,
                context_tokens=args.context,
                output_tokens=args.output,
                num_gpus=args.gpus,
                weights=fields["weights"],
                kv_cache=fields["kv"],
                compute=args.compute,
                price_usd_per_gpu_hour=args.price,
            )
            point = frontier(
                fields["model"],
                fields["hardware"],
                scenario,
                fields["profile"],
                args.tpot_target_ms * ms,
                None if args.ttft_target_ms is None else args.ttft_target_ms * ms,
                max_batch=args.max_batch,
            )
        except ValueError as e:  # e.g. an unknown --compute precision
            flag = "--compute" if "compute precision" in str(e) else "input"
            raise _BadInput(f"{flag}: {e}") from None
    except _BadInput as e:
        print(f"error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    except SystemExit as e:  # --help
        return int(e.code or 0)
    d = to_dict(point, args, fields["model"].id, fields["hardware"].id)
    print(json.dumps(d, indent=2) if args.json else _text(d))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(frontier_main())
