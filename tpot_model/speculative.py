"""Speculative decoding's arithmetic: tokens a verify step yields at an acceptance rate, the acceptance at which
drafting breaks even, the relative cost of a multi-token-prediction (MTP) head, and the MTP defaults. Pure numpy; the
steady state with MTP is serving.speculative, a draft model on a static batch planner.speculative."""

from __future__ import annotations

import numpy as np

from .catalog import ModelSpec
from .roofline import active_params, param_counts

MTP_K = 3  # draft tokens per step in the InferenceX MTP recipes (SGLang --speculative-num-steps 3)
# the i.i.d. acceptance (to 0.01) that leaves the least bias on the single-node MTP runs (random-token prompts) under
# the committed profiles: serving_calibration.mtp_check, re-set when a refit moves it (tests/test_serving.py checks)
MTP_ACCEPTANCE = 0.56


def require_mtp(model: ModelSpec) -> None:
    """ValueError unless the model ships a multi-token-prediction module (ModelSpec.mtp_modules): MTP drafts with the
    model's own, and a model without one has none to draft with."""
    if not model.mtp_modules:
        raise ValueError(
            f"{model.name} ships no multi-token-prediction module to draft with (mtp_modules in a model entry; in a "
            "config.json num_nextn_predict_layers, mtp_num_hidden_layers or num_mtp_modules; `list models` shows the "
            "catalog's); a separate draft model: the Serving planner's speculative decoding"
        )


def expected_tokens_per_step(acceptance, k) -> np.ndarray:
    """Tokens one target step yields with k drafted tokens each accepted with probability a (i.i.d.):
    (1 - a^(k+1)) / (1 - a), which is k + 1 at a = 1 (Leviathan et al. 2023, eq. 1)."""
    a = np.asarray(acceptance, dtype=float)
    k = np.asarray(k, dtype=float)
    safe = np.where(a < 1.0, a, 0.5)
    return np.where(a < 1.0, (1.0 - safe ** (k + 1)) / (1.0 - safe), k + 1)


def break_even_acceptance(required_tokens_per_step, k) -> np.ndarray:
    """The acceptance rate at which a step yields `required` tokens (speculation breaks even); nan when even a = 1
    would not (required >= k + 1), 0 when any acceptance pays. Vectorised bisection: E(a) rises monotonically."""
    req = np.asarray(required_tokens_per_step, dtype=float)
    k = np.asarray(k, dtype=float)
    shape = np.broadcast_shapes(req.shape, k.shape)
    lo, hi = np.zeros(shape), np.ones(shape)
    for _ in range(60):
        mid = (lo + hi) / 2
        below = expected_tokens_per_step(mid, k) < req
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    out = (lo + hi) / 2
    return np.where(req >= k + 1, np.nan, np.where(req <= 1, 0.0, out))


def mtp_cost_fraction(model: ModelSpec) -> float:
    """Cost of one multi-token-prediction head relative to a target step: one more transformer layer plus the LM
    head, as a share of the parameters a token touches (DeepSeek-V3: one MTP module = one layer + the shared head)."""
    c = param_counts(model)
    active = active_params(model)
    head = c["lm_head"] or c["embedding"]  # tied embeddings: the head is the embedding matrix
    layer = (active - c["embedding"] - c["lm_head"] - c["norms"]) / model.num_layers
    return float((layer + head) / active)
