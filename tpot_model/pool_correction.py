"""The frontier's pool correction for disaggregated serving (fitted by disaggregated.py on the measured
disaggregated runs, committed in data/disaggregated_check.json): of the decode step, the attention operator's time x
alpha and the rest x (1 + a b / (b + DECODE_HALF_BATCH)), b the sequences decoding per GPU (alpha and a per engine
where its runs are enough to fit them apart); a prefill step of P prompts
over r attention ranks takes k x its modelled time + P / r x c (c: each attention rank's fixed time per prompt; r is
1 for tensor-parallel attention, the worker's GPUs for data-parallel attention).
Here, below layouts.py, so the layout search reads it without importing the fitter."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .files import DATA_DIR

CHECK_NAME = "disaggregated_check.json"
DECODE_HALF_BATCH = 16.0  # sequences per GPU at which the decode correction is half its size (of 8, 16, 32, 64: the
# smallest leave-one-chip-out error)


@dataclass(frozen=True)
class PoolFit:
    """The frontier's pool correction: decode step time x decode_factor(sequences per GPU, attention's share of
    the step), prefill step time prefill_time_s(modelled time, prompts per attention rank). NEUTRAL changes nothing."""

    decode_a: float = 0.0
    prefill_time_factor: float = 1.0
    attention_factor: float = 1.0
    prefill_prompt_s: float = 0.0  # each attention rank's fixed time per prompt (s), beside the roofline's step

    def prefill_time_s(self, step_s, prompts_per_rank):
        """A prefill step that the model times at step_s seconds, `prompts_per_rank` prompts on each attention rank
        (the step's prompts over its ranks: one rank for tensor-parallel attention, one per GPU for data-parallel
        attention): k step_s + prompts_per_rank c (array-friendly)."""
        return self.prefill_time_factor * np.asarray(step_s, dtype=float) + self.prefill_prompt_s * np.asarray(
            prompts_per_rank, dtype=float
        )

    def decode_factor(self, sequences_per_gpu, attention_share=0.0):
        """alpha s + (1 - s) (1 + a b / (b + DECODE_HALF_BATCH)): s the attention operator's share of the decode
        step's time, b the sequences decoding per GPU (array-friendly)."""
        b = np.asarray(sequences_per_gpu, dtype=float)
        s = np.asarray(attention_share, dtype=float)
        return self.attention_factor * s + (1.0 - s) * (1.0 + self.decode_a * b / (b + DECODE_HALF_BATCH))

    @classmethod
    def from_summary(cls, summary: dict, engine: str | None = None) -> PoolFit:
        """The fit a disaggregated_check summary holds (NEUTRAL when it has none); for an engine profile id with a
        decode correction of its own (``decode_fit_by_engine``), its decode terms beside the common prefill ones."""
        f = summary.get("fit")
        if not f:
            return NEUTRAL
        d = summary.get("decode_fit_by_engine", {}).get(engine, f)
        return cls(d["decode_a"], f["prefill_time_factor"], d["decode_attention_factor"], f["prefill_prompt_s"])


NEUTRAL = PoolFit()


def read_check(path: str | Path) -> dict:
    """The summary disaggregated.write_check wrote ({} when the file is absent)."""
    p = Path(path)
    return json.loads(p.read_text(encoding="utf-8")) if p.exists() else {}


@functools.cache
def committed_check() -> dict:
    """data/disaggregated_check.json as calibrate last wrote it (read once; do not modify)."""
    return read_check(DATA_DIR / CHECK_NAME)


def fitted_run_ids(check: dict) -> frozenset[str]:
    """The runs a check's correction was fitted on: its checked runs with a decode TPOT error or a prefill ratio
    (disaggregated.fit's: a run with neither checked pool adds nothing to it)."""
    return frozenset(
        c["id"]
        for c in check.get("checked", [])
        if c.get("decode_tpot_error") is not None or c.get("prefill_model_over_measured") is not None
    )


def pool_fit(engine: str | None = None) -> PoolFit:
    """The committed correction for an engine profile id (data/disaggregated_check.json's fit, with the engine's own
    decode terms where it has them; NEUTRAL when the file has none)."""
    return PoolFit.from_summary(committed_check(), engine)


def largest_decode_a(engine: str | None = None) -> float:
    """The largest decode term `a` of the committed fits that time `engine`'s curves (its own, else the common one;
    None, the best engine: the common one and each engine's own): the most the correction lengthens a decode step's
    non-attention time at large batches is this fraction (0 with no fit)."""
    c = committed_check()
    if engine is not None:
        return PoolFit.from_summary(c, engine).decode_a
    fits = [c.get("fit") or {}, *c.get("decode_fit_by_engine", {}).values()]
    return max((float(f.get("decode_a", 0.0)) for f in fits), default=0.0)
