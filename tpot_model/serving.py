"""Steady-state continuous batching on top of the roofline, speculative decoding (MTP) in that steady state, and a
frontier's value at a target interactivity. SI units (the $ and MW arithmetic: economics.py).

A server keeps C = s.batch requests in flight. Each brings a prompt of ISL = s.context_tokens tokens and generates
OSL = s.output_tokens. In the steady state a request finishes (and a new one arrives) every OSL / C decode steps, so
the steps one request decodes through also prefill the prompts of the other C - 1, P = (C - 1) x ISL / OSL prompt
tokens each on average, on the same GPUs (its own prompt is its TTFT's: alone on the server, C = 1, its decode steps
carry no prompt work). Engines prefill in
chunks of at most K = chunk_tokens tokens, so steps come in two kinds: with floor(P / K) chunks and with one more,
mixed in the proportion that gives P prompt tokens per step on average::

    step(n) = C decode tokens (cache: ISL + OSL/2 on average) + n x K prompt tokens, weights read once
    TPOT    = (1 - f) step(n0) + f step(n0 + 1),   n0 = floor(P / K),  f = P / K - n0

(with one chunk of min(ISL, K) tokens when P < K). Under dp-ep each GPU prefills the prompts of its own requests and
the ranks share the step's budget: each carries chunks of K / N tokens (as SGLang divides chunked_prefill_size by
the DP size), and the prompt work is taken as spread evenly over the ranks (engines balance it: TensorRT-LLM's
attention-DP balancing, SGLang's DP scheduler); a long prompt then needs ceil(ISL N / K) steps to its first token.
TPOT is the mean inter-token time of the steady state; its
decomposition is the same mix of the two steps' buckets, so it still sums to TPOT: prompt-chunk work lands in the
buckets of the operators it runs through (compute, weights, kv_cache), and `decode_only` is the step without it.

TTFT: a new prompt waits on average half a step (none at C = 1: no other request is under way), then its
ceil(ISL / K) chunks each ride a step with the C decode tokens. Output tokens/s (Little's law): C x OSL / (TTFT + (OSL - 1) TPOT); total tokens/s counts the prompts too:
x (ISL + OSL) / OSL.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .catalog import Hardware, ModelSpec
from .profiles import EfficiencyProfile
from .roofline import (
    StepResult,
    StepWork,
    data_parallel_share,
    decode_work,
    moe_layer_cost_s,
    prefill_work,
    rates_for,
    step,
)
from .scenario import Scenario
from .speculative import MTP_ACCEPTANCE, MTP_K, expected_tokens_per_step, mtp_cost_fraction, require_mtp

SERVING_CHUNK_TOKENS = 8192  # prompt tokens per prefill chunk: vLLM / TensorRT-LLM default max_num_batched_tokens


@dataclass(frozen=True, eq=False)
class SteadyState:
    """Continuous batching at concurrency C (= scenario.batch): the mean step and what it is made of."""

    prompt_tokens_per_step: np.ndarray  # P = (C - 1) x ISL / OSL (x tokens per step with speculative decoding)
    chunks_per_step: np.ndarray  # P / K
    step: StepResult  # the mean step: TPOT (one token per sequence per step)
    decode_only: StepResult  # the same step without prompt chunks
    first_chunk: StepResult  # a step carrying one chunk of a new prompt (TTFT)
    tpot_s: np.ndarray
    ttft_s: np.ndarray  # 0.5 x step (0 at concurrency 1) + prompt_chunks x first_chunk
    prompt_chunks: np.ndarray  # steps a new prompt needs to its first token


@dataclass(frozen=True, eq=False)
class StepKinds:
    """The steps of the steady state as work (StepWork, and the busiest GPU's share under dp-ep): `low` and `high`
    carry n0 and n0 + 1 prompt chunks (the high kind is `high_fraction` of the steps), `decode_only` none, and
    `first_chunk` one chunk of a new prompt, which needs `prompt_chunks` such steps."""

    low: tuple[StepWork, StepWork | None]
    high: tuple[StepWork, StepWork | None]
    decode_only: tuple[StepWork, StepWork | None]
    first_chunk: tuple[StepWork, StepWork | None]
    high_fraction: np.ndarray
    prompt_chunks: np.ndarray
    prompt_tokens_per_step: np.ndarray
    chunk_tokens: np.ndarray


def step_kinds(
    m: ModelSpec,
    s: Scenario,
    *,
    chunk_tokens: float = SERVING_CHUNK_TOKENS,
    queries_per_sequence: np.ndarray | float = 1.0,
    tokens_per_step: np.ndarray | float = 1.0,
) -> StepKinds:
    """The work of every kind of step of the steady state (see the module docstring)."""
    C, isl, osl = s.batch, s.context_tokens, s.output_tokens
    N = s.num_gpus
    dp = s.parallelism == "dp-ep"
    prompt = np.maximum(isl, 1)
    if dp:  # every rank prefills its own requests in chunks of K / N: the ranks share the step's token budget
        K = np.minimum(float(chunk_tokens) / N, prompt)
        quantum = K * N  # prompt tokens of a step in which every rank carries a chunk
    else:
        K = np.minimum(float(chunk_tokens), prompt)  # a prompt shorter than a chunk is one chunk
        quantum = K
    P = np.maximum(C - 1, 0) * isl / osl * tokens_per_step  # the other requests' prompts
    n = P / quantum
    n0 = np.floor(n)
    decode = decode_work(m, s, queries_per_sequence=queries_per_sequence)
    decode_local = decode.scaled(data_parallel_share(C, N)) if dp else None

    def kind(chunks):
        prompts = chunks * quantum / prompt  # prompts' worth of prefill in the step
        chunk_work = prefill_work(m, s, prompts=prompts, prompt_tokens=prompt, chunk_tokens=K)
        local = decode_local + chunk_work.scaled(1.0 / N) if dp else None  # balanced over the ranks
        return decode + chunk_work, local

    return StepKinds(
        low=kind(n0),
        high=kind(n0 + 1),
        decode_only=kind(0 * n0),
        first_chunk=kind(1 + 0 * n0),
        high_fraction=n - n0,
        prompt_chunks=np.ceil(prompt / K),
        prompt_tokens_per_step=P,
        chunk_tokens=quantum,
    )


def steady_state(
    m: ModelSpec,
    hw: Hardware,
    s: Scenario,
    profile: EfficiencyProfile,
    *,
    chunk_tokens: float = SERVING_CHUNK_TOKENS,
    queries_per_sequence: np.ndarray | float = 1.0,
    tokens_per_step: np.ndarray | float = 1.0,
) -> SteadyState:
    """The steady state of continuous batching for the scenario (its batching field is ignored: this IS the
    continuous mode). queries_per_sequence > 1 and tokens_per_step > 1: a speculative verify step checking that many
    tokens per sequence and yielding tokens_per_step of them on average (arrivals scale with it)."""
    k = step_kinds(
        m, s, chunk_tokens=chunk_tokens, queries_per_sequence=queries_per_sequence, tokens_per_step=tokens_per_step
    )

    def run(kind: tuple[StepWork, StepWork | None]) -> StepResult:
        return step(m, hw, s, profile, prefill=False, work=kind[0], local=kind[1])

    mean = StepResult.mix(run(k.low), run(k.high), k.high_fraction)
    first = run(k.first_chunk)
    return SteadyState(
        prompt_tokens_per_step=k.prompt_tokens_per_step,
        chunks_per_step=k.prompt_tokens_per_step / k.chunk_tokens,
        step=mean,
        decode_only=run(k.decode_only),
        first_chunk=first,
        tpot_s=mean.time_s,
        # half a step's wait for the step under way; none alone on the server (concurrency 1: nothing is under way
        # when its request arrives; a one-token answer had waited half of its own prefill, 490 ms against 327)
        ttft_s=np.where(np.asarray(s.batch) > 1, 0.5, 0.0) * mean.time_s + k.prompt_chunks * first.time_s,
        prompt_chunks=k.prompt_chunks,
    )


def output_tokens_per_s(batch, output_tokens, ttft_s, tpot_s) -> np.ndarray:
    """B x OSL / (TTFT + (OSL - 1) TPOT): a static batch served back to back, or (Little's law) the steady state of
    B requests in flight. Over all the GPUs."""
    return batch * output_tokens / (ttft_s + (output_tokens - 1) * tpot_s)


# --------------------------------------------------------------------------------------------------- speculative


@dataclass(frozen=True, eq=False)
class SpeculativeServing:
    """Continuous batching with multi-token prediction (MTP) heads drafting k tokens per step."""

    k: float
    acceptance: float
    tokens_per_step: np.ndarray  # expected tokens per verify step per sequence
    verify: SteadyState  # the steady state of verify steps (k + 1 queries per sequence)
    draft_step_s: np.ndarray  # one MTP head pass
    round_s: np.ndarray  # k draft passes + one verify step
    tpot_s: np.ndarray  # round / tokens per step
    ttft_s: np.ndarray
    output_tokens_per_s: np.ndarray  # over all GPUs
    output_tokens_per_s_per_gpu: np.ndarray
    total_tokens_per_s_per_gpu: np.ndarray


def speculative(
    m: ModelSpec,
    hw: Hardware,
    s: Scenario,
    profile: EfficiencyProfile,
    *,
    k: int = MTP_K,
    acceptance: float = MTP_ACCEPTANCE,
    chunk_tokens: float = SERVING_CHUNK_TOKENS,
) -> SpeculativeServing:
    """MTP in the continuous steady state: each round runs k MTP-head passes and one verify step over k + 1 tokens
    per sequence (weights read once, each cache read once), and yields E = (1 - a^(k+1)) / (1 - a) tokens per
    sequence (Leviathan et al. 2023, i.i.d. acceptance a). Prompts arrive E times as fast per step. An MTP pass is
    one more layer + the LM head over the C sequences: mtp_cost_fraction x the decode step's roofline time, plus
    one layer's fixed cost (per layer, and per MoE layer for an MoE model: DeepSeek's MTP module is an MoE layer);
    the per-step cost (scheduler, sampling) is paid once per round, in the verify step."""
    if not (k >= 1 and k == int(k)):
        raise ValueError(f"k must be a whole number >= 1, got {k!r}")
    if not (math.isfinite(acceptance) and 0 <= acceptance <= 1):
        raise ValueError(f"acceptance must be between 0 and 1, got {acceptance!r}")
    require_mtp(m)
    E = expected_tokens_per_step(acceptance, k)
    verify = steady_state(m, hw, s, profile, chunk_tokens=chunk_tokens, queries_per_sequence=k + 1.0, tokens_per_step=E)
    plain = step(m, hw, s, profile, prefill=False, work=decode_work(m, s))
    moe = moe_layer_cost_s(profile, s.weights, rates_for(hw, profile, s).gemm_precision, hw) if m.moe else 0.0
    one_layer = profile.per_layer_overhead_s + moe
    draft = mtp_cost_fraction(m) * (plain.time_s - plain.breakdown_s["overhead"]) + one_layer
    round_s = k * draft + verify.tpot_s
    tpot = round_s / E
    ttft = verify.ttft_s
    out = output_tokens_per_s(s.batch, s.output_tokens, ttft, tpot)
    N = s.num_gpus
    return SpeculativeServing(
        k=float(k),
        acceptance=float(acceptance),
        tokens_per_step=np.asarray(E, dtype=float),
        verify=verify,
        draft_step_s=draft,
        round_s=round_s,
        tpot_s=tpot,
        ttft_s=ttft,
        output_tokens_per_s=out,
        output_tokens_per_s_per_gpu=out / N,
        total_tokens_per_s_per_gpu=out / N * (s.context_tokens + s.output_tokens) / s.output_tokens,
    )


def at_interactivity(tokens_per_s_per_user, values, target_tokens_per_s_per_user) -> float:
    """A frontier's value at a target interactivity: log-log interpolation between the two points around the
    target along the concurrency sweep (interactivity falls as concurrency grows); nan outside the curve."""
    x = np.asarray(tokens_per_s_per_user, dtype=float).ravel()
    y = np.asarray(values, dtype=float).ravel()
    ok = np.isfinite(x) & np.isfinite(y) & (x > 0) & (y > 0)
    x, y = x[ok], y[ok]
    if x.size == 0 or not (x.min() <= target_tokens_per_s_per_user <= x.max()):
        return math.nan
    order = np.argsort(x)
    return float(np.exp(np.interp(math.log(target_tokens_per_s_per_user), np.log(x[order]), np.log(y[order]))))


__all__ = [
    "SERVING_CHUNK_TOKENS",
    "SpeculativeServing",
    "StepKinds",
    "SteadyState",
    "at_interactivity",
    "output_tokens_per_s",
    "speculative",
    "step_kinds",
    "steady_state",
]
