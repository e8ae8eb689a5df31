"""The command line's words for an estimate, shared by its commands (estimate, evaluate, frontier)."""

from __future__ import annotations

import math

import numpy as np

from .catalog import tokens_past_window
from .economics import priced_bases
from .engines import ENGINES, VENDOR_ONLY, runs_on
from .estimate import MAX_GPUS_SEARCHED, Estimate, lower_formats, no_gpu_count, precision_that_fits


def int_or_none(x) -> int | None:
    """A one-point estimate's count as an int, None where it is NaN (none: no GPU count holds it ...)."""
    v = float(np.asarray(x, dtype=float).reshape(()))
    return None if math.isnan(v) else int(v)


def projection_note(hw) -> str | None:
    """What an announced, not yet shipping chip's numbers are (Hardware.announced), in a line; None for one that
    ships."""
    if not hw.announced:
        return None
    return f"{hw.name} is announced, not shipping: its figures are vendor claims, so these numbers are projections"


def no_price_note(hw, basis: str, price_flag: str = "--price") -> str:
    """Why a $ figure is missing and what would give one, in a line: the bases that price the chip
    (economics.priced_bases, the chosen one left out), or that none does."""
    others = priced_bases(hw, besides=basis)
    if not others:
        return f"no published price for {hw.id} in any basis: pass {price_flag} USD_PER_GPU_HOUR (your own)"
    which = others[0] if len(others) == 1 else f"{', '.join(others[:-1])} or {others[-1]}"
    return (
        f"no public {basis} price for {hw.id}; pass {price_flag} USD_PER_GPU_HOUR (your own) or --price-basis {which}"
    )


def platform_note(profile_id: str, hw) -> str | None:
    """Where the engine does not run on the chip's vendor (engines.VENDOR_ONLY: TensorRT-LLM on NVIDIA only, ATOM on
    AMD only), what its numbers there are, in a line; None where it runs (or is not an engine)."""
    if runs_on(profile_id, hw.vendor):
        return None
    vendor, why = VENDOR_ONLY[profile_id]
    name = ENGINES[profile_id][0]
    return f"{name}, {why}, runs on {vendor} chips only: on the {hw.name} its numbers are a what-if"


def counting(kind: str, batching: str = "static") -> dict[str, str]:
    """What the keys that the commands share count, per command (`kind`): 'decode' (estimate and frontier's batch
    search: one deployment's decode steps) or 'served' (frontier's layout search, counted as InferenceX counts), so a
    reader of two JSONs does not compare a decode-only rate with one over input and output tokens; 'fleet' (capacity:
    a demand served by tensor-parallel replicas; 'fleet_search': by replicas of the layout search's deployment)."""
    if kind in ("fleet", "fleet_search"):
        rate = (
            "output tokens per second over every GPU of a replica of the layout search's deployment (both pools of a "
            "disaggregated one), each request's prompt prefilled (a demand without input tokens: --context's)"
            if kind == "fleet_search"
            else "output tokens per second per GPU as the layout serves them, prompts prefilled on the same GPUs "
            "(decode_tokens_per_s_per_gpu: its decode steps alone)"
        )
        return {
            "output_tokens_per_s_per_gpu": rate,
            "usd_per_1M_output_tokens": "$ per 1M output tokens of the demand: the fleet's opex per year (every GPU, "
            "peak-to-average and utilisation included, and the prompts' prefill where the demand has input tokens) "
            "over the output tokens it serves",
        }
    if kind == "served":
        return {
            "tokens_per_s_per_gpu": "input + output tokens per second over every GPU of the deployment (both pools)",
            "usd_per_1M_tokens": "$ per 1M input + output tokens (usd_per_1M_output_tokens: per 1M output tokens)",
            "ttft_ms": "one request's time to first token, its prompt prefilled as the deployment serves it",
        }
    if batching == "static":
        return {
            "tokens_per_s_per_gpu": "output tokens per second per GPU in the decode steps (prefill not counted)",
            "usd_per_1M_tokens": "$ per 1M output tokens in the decode steps (prefill not counted)",
            "ttft_ms": "the whole batch's prefill (static batching)",
        }
    return {
        "tokens_per_s_per_gpu": "output tokens per second per GPU as a server runs the requests (continuous batching: "
        "each prompt's prefill in the decode steps, its time counted)",
        "usd_per_1M_tokens": "$ per 1M output tokens at that rate (the prompts' prefill time counted)",
        "ttft_ms": "one request's time to first token in the continuous-batching steady state",
    }


def parallelism_note(name: str, has_experts: bool, parallelism: str) -> str | None:
    """What an expert-parallel layout asked of a model without experts (`name`'s) runs as; else None."""
    if has_experts or parallelism == "tp":
        return None
    if parallelism == "tp-ep":
        return f"{name} has no experts: tp-ep runs as tp (tensor parallel in every layer)"
    return (f"{name} has no experts: dp-ep runs as data-parallel replicas (each GPU holds the whole model and runs "
            "its share of the batch)")  # fmt: skip


def window_note(name: str, window_tokens: int, context_tokens: float, output_tokens: float) -> str | None:
    """For a run longer than the model's context window (`name`'s, `window_tokens`): that its numbers extrapolate the
    architecture; else None."""
    if (total := tokens_past_window(window_tokens, context_tokens, output_tokens)) is None:
        return None
    return (
        f"context + output = {total:,} tokens, beyond {name}'s {window_tokens:,}-token window: the numbers "
        "extrapolate the architecture past what the model supports"
    )


def assumed_window_note(model) -> str | None:
    """For a model read from a config.json without max_position_embeddings: the context window it was given, in a
    line; else None."""
    if not model.context_window_assumed:
        return None
    return (f"{model.name}'s config.json gives no max_position_embeddings: its context window is taken as "
            f"{model.max_context_tokens:,} tokens")  # fmt: skip


def lower_precision(e: Estimate) -> str | None:
    """The lower precision with which a scenario that does not fit fits (precision_that_fits), with the options that
    give it: 'fp8 weights + fp8 KV cache (--weights fp8 --kv fp8)'; None when none is enough."""
    if (fitting := precision_that_fits(e)) is None:
        return None
    parts = [(f"{f.name} {what}", f"{flag} {f.name}") for f, what, flag in
             zip(fitting, ("weights", "KV cache"), ("--weights", "--kv"), strict=True) if f is not None]  # fmt: skip
    return f"{' + '.join(p[0] for p in parts)} ({' '.join(p[1] for p in parts)})"


def no_gpu_count_text(none, model_name: str, gpus_flag: str = "--gpus") -> str:
    """Why no GPU count holds a scenario and what would (estimate.no_gpu_count's NoGpuCount), in words: 'tensor
    parallelism does not split DeepSeek-R1's KV cache (every GPU keeps all of it), so more GPUs stop helping; lower the
    batch or the context, or fp8 KV cache (--kv fp8) on >= 32 GPUs (--gpus 32)'."""
    if none.cache_ways == 0:
        why, fix = "every GPU keeps all the weights outside the experts (dp-ep)", "a tensor-parallel layout (tp)"
    elif none.cache_ways == 1:
        why = f"tensor parallelism does not split {model_name}'s KV cache (every GPU keeps all of it)"
        fix = "lower the batch or the context"
    else:
        why = f"tensor parallelism splits the KV cache at most {none.cache_ways} ways"
        fix = "lower the batch or the context"
    if none.kv_cache is not None:
        kv, n = none.kv_cache.name, none.kv_gpus
        fix += f", or {kv} KV cache (--kv {kv}) on >= {n} GPUs ({gpus_flag} {n})"
    return f"{why}, so more GPUs stop helping; {fix}"


def remedy(e: Estimate, gpus_flag: str = "--gpus", budget: int | None = None) -> str | None:
    """What would make a scenario that does not fit fit: more GPUs (the option `gpus_flag` names them), lower
    precision, a smaller batch. `budget`: the GPU budget whose widest instance the scenario is (said where wider)."""
    if bool(np.all(e.fits)):
        return None
    s, hw = e.scenario, e.hardware
    n, batch = int(np.asarray(s.num_gpus).reshape(())), int(np.asarray(s.batch).reshape(()))
    min_gpus = int_or_none(e.min_gpus)
    none = no_gpu_count(e)  # why no count holds it, and the KV-cache format with which one would
    options = (
        [f"needs >= {min_gpus} GPUs ({gpus_flag} {min_gpus})"]
        if none is None
        else [f"no tensor-parallel size up to {MAX_GPUS_SEARCHED} GPUs holds it at this batch and context: "
              f"{no_gpu_count_text(none, e.model.name, gpus_flag)}"]
    )  # fmt: skip
    if (fitting := lower_precision(e)) is not None:
        options.append(f"or lower precision e.g. {fitting}")
    elif any(lower_formats(s, hw)) and (none is None or none.kv_cache is None):  # else the KV-cache fix above
        options.append("and lower precision (8-bit / 4-bit) alone is not enough")
    max_batch = int_or_none(e.max_batch)
    if max_batch is not None and 1 <= max_batch < batch:
        options.append(f"or batch <= {max_batch} (--batch {max_batch})")
    widest = f" (the widest instance within {budget} GPUs)" if budget is not None and budget > n else ""
    return f"does not fit on {n} x {hw.name}{widest}: " + ", ".join(options)
