"""The 80% calibration band beside a headline metric ("23 ms", under it "80% band 19–31 ms") and the line that says
what the band rests on. The band itself is the model's (Estimate.band, tpot_model/bands.py); this only words it."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import streamlit as st

from tpot_model import Estimate, ModelSpec, frontier_check

from . import cache, fmt, metrics
from .i18n import Translator

# metric -> (low, high) from an estimate, and how its numbers are shown in the reader's language ('17.2 秒')
_METRICS: dict[str, tuple[Callable[[Estimate], tuple[float, float]], Callable[[float, Translator], str]]] = {
    "tpot": (lambda e: (float(e.tpot_low_s), float(e.tpot_high_s)), lambda v, tr: fmt.ms(v, tr=tr)),
    "tps_user": (
        lambda e: (float(e.tokens_per_s_per_user_low), float(e.tokens_per_s_per_user_high)),
        lambda v, tr: fmt.rate(v),
    ),
    # the throughputs' band, tokens/s per GPU and $ as one rate (Estimate.throughput_band_factors: the measured
    # throughput's; at batch 1 the TPOT's)
    "tps_total": (
        lambda e: (float(e.tokens_per_s_total_low), float(e.tokens_per_s_total_high)),
        lambda v, tr: fmt.rate(v),
    ),
    "tps_gpu": (
        lambda e: (float(e.output_tokens_per_s_per_gpu_low), float(e.output_tokens_per_s_per_gpu_high)),
        lambda v, tr: fmt.rate(v),
    ),
    "usd": (lambda e: (float(e.usd_per_1M_tokens_low), float(e.usd_per_1M_tokens_high)), lambda v, tr: fmt.usd(v)),
}


def band_text(est: Estimate, tr: Translator, metric: str) -> str | None:
    """'80% band 19–31 ms' for one metric ('tpot', 'tps_user', 'tps_total', 'tps_gpu', 'usd'); None without a
    band (the ideal bound) or when the value is not a number."""
    if not est.band.has_band:
        return None
    values, show = _METRICS[metric]
    lo, hi = values(est)
    if not (lo == lo and hi == hi):
        return None
    return tr("band_80", low=show(min(lo, hi), tr), high=show(max(lo, hi), tr))


def metric_band(est: Estimate, tr: Translator, metric: str) -> dict:
    """Keyword arguments for st.metric that put the band under the value, in grey and without an arrow."""
    text = band_text(est, tr, metric)
    return {} if text is None else metrics.note(text)


def basis_text(est: Estimate, tr: Translator, engine: str, device=None) -> str:
    """What the band rests on, in words (the level, the engine, the chip family, how many held-out measurements);
    'per GPU' or 'per chip' as `device` says (fmt.device_kind's argument: a table of many chips), else its chip's."""
    b = est.band
    if not b.has_band:
        return tr(f"band_basis_{b.level}")
    family = fmt.family(b.family, tr) if b.family else tr("band_no_family")
    key = f"band_basis_{b.level}" + ("_own_file" if b.level == "unmeasured" and not b.family else "")
    text = tr(
        key,
        engine=engine,
        family=family,
        n=b.n,
        lo=fmt.pct(b.tpot_low_factor - 1.0, 0, signed=True),
        hi=fmt.pct(b.tpot_high_factor - 1.0, 0, signed=True),
    )
    lo, hi = b.throughput_low_factor, b.throughput_high_factor
    hw = est.hardware if device is None else device
    # at batch 1 the throughputs are one sequence's rate, 1 / TPOT, and take its band (throughput_band_factors)
    if (np.asarray(est.scenario.batch) == 1).all():
        return tr("sentences", a=text, b=fmt.device_text("band_basis_throughput_one", hw, tr))
    if lo == lo and hi == hi:  # $ and tokens/s per GPU rest on the measured throughput's own band, not the TPOT's
        pct = {"lo": fmt.pct(lo - 1.0, 0, signed=True), "hi": fmt.pct(hi - 1.0, 0, signed=True)}
        said = fmt.device_text("band_basis_throughput", hw, tr, **pct)
        text = tr("sentences", a=text, b=said)
    return text


def transfer_text(model: ModelSpec, tr: Translator) -> str | None:
    """For a model whose architecture no fit has seen but whose own published runs the transfer check read
    (frontier_check.transfer_note: DeepSeek-V4-Pro, Qwen3.5): the bands rest on other models, and what those runs
    measured against the modelled TPOT (their median of model / measured, inverted: V4-Pro 2.01x); None otherwise."""
    note = frontier_check.transfer_note(model, cache.disaggregated_check())
    if not (note and (single := note["single_node"])):
        return None
    measured = 1.0 / single["median_tpot_ratio"]
    return tr("model_transfer", model=model.name, runs=single["runs"], measured=f"{measured:.2f}")


def basis_caption(est: Estimate, tr: Translator, engine: str) -> None:
    st.caption(basis_text(est, tr, engine))
