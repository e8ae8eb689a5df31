"""The disaggregated (prefill pool + decode pool) serving runs of data/serving_measurements.csv (display-only rows,
not in the profile fit): how far the model is from each pool on the run's own layout, and the pool correction the
frontier's layout search applies (layouts.py), fitted on these runs with leave-one-chip-out cross-validation.
`calibrate` writes both to data/disaggregated_check.json; the Serving frontier's rack-scale view says it.

- Decode pool: the run's measured mean TPOT against the model's decode step for the run's decode worker (its GPUs,
  TP / EP / DP-attention), at the sequences the run had decoding on average (Little's law: output tokens/s over
  the decode GPUs x TPOT; fewer than its concurrency where requests queued for prefill), the cache at ISL + OSL/2.
- Prefill pool: in runs whose prompts queued for prefill (by Little's law, the prompts arriving per second x the
  median TTFT >= QUEUED_FACTOR x the prompts the pool's workers take in one step: the pool busy all the time), the
  measured input tokens/s per prefill GPU against the most the model's prefill worker reaches (1 to MAX_PREFILL_BATCH prompts
  per step within PREFILL_TOKEN_BUDGET tokens: planner.py's, which the layout search takes too).
- Pool correction (PoolFit): of the decode step, the attention operator's time x alpha and the rest x
  (1 + a b / (b + DECODE_HALF_BATCH)), b the sequences decoding per GPU (where no aggregated run reaches, >= 16
  sequences per GPU, the model's MoE decode is too fast at short context and its MLA attention too slow at long
  context; alpha and a per engine where it has ENGINE_MIN_DECODE_RUNS runs: SGLang's large-batch steps are the
  slower); a prefill step of P prompts over r attention ranks k x its modelled time + P / r x c, c a fixed time
  per prompt of each attention rank (the model's prefill reads fast, 1K-token prompts most: a cost per prompt, not
  per token; each data-parallel attention rank schedules and hands on its own prompts, so a DP-attention worker's
  ranks pay it side by side: per rank, the prefill pool's leave-one-chip-out error is 19 % where per worker it
  was 26 %). Least squares in log space; each chip's runs predicted by the fit on the other chips'.
Runs whose layout text is inconsistent (a multi-GPU worker with TP1/EP1) and MTP runs (the draft changes the
decode step) are left out. Lengths are the runs' means (serving_calibration's).
"""

from __future__ import annotations

import json
import math
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .estimate import estimate
from .layouts import recipe_key
from .planner import MAX_PREFILL_BATCH, PREFILL_TOKEN_BUDGET
from .pool_correction import DECODE_HALF_BATCH, PoolFit
from .profiles import EfficiencyProfile
from .scenario import Scenario
from .serving_calibration import MEAN_LENGTH_FRACTION, ServingMeasurement

POOL = re.compile(r"(prefill|decode) (\d+) GPUs \[(\d+) worker\(s\), TP(\d+)/EP(\d+)( DP-attn)?\]")
INPUT_RATE = re.compile(r"input tok/s/GPU ([\d.]+) per prefill GPU")
QUEUED_FACTOR = 2.0  # prompts in the prefill pool (Little's law) over what its workers take in one step
# an engine with this many decode checks gets a decode correction of its own (SGLang 45, TensorRT-LLM 50): leave one
# chip out, the decode pool's median |TPOT error| 7.9 % -> 7.0 % (p90 25 % -> 19 %); the prefill's stays common (per
# engine 19.5 % against 19.0 %)
ENGINE_MIN_DECODE_RUNS = 20


@dataclass(frozen=True)
class Pool:
    """One pool of a disaggregated run: its GPUs, workers, and each worker's layout."""

    gpus: int
    workers: int
    tp: int
    ep: int
    dp_attention: bool

    @property
    def gpus_per_worker(self) -> int:
        return self.gpus // self.workers

    @property
    def parallelism(self) -> str:
        """The model's name for the worker's layout (scenario.PARALLELISMS)."""
        if self.ep > 1:
            return "dp-ep" if self.dp_attention else "tp-ep"
        return "tp"

    @property
    def consistent(self) -> bool:
        """The layout text spans the worker: TP over its GPUs, or DP attention with EP over them."""
        return self.tp == self.gpus_per_worker or (self.dp_attention and self.ep == self.gpus_per_worker)


def pools(layout: str) -> dict[str, Pool]:
    """{'prefill': Pool, 'decode': Pool} from the serving file's parallelism text."""
    return {m[1]: Pool(int(m[2]), int(m[3]), int(m[4]), int(m[5]), bool(m[6])) for m in POOL.finditer(layout)}


def _worker(r: ServingMeasurement, pool: Pool, **fields) -> Scenario:
    return Scenario(
        num_gpus=pool.gpus_per_worker,
        weights=r.fields["weights"],
        kv_cache=r.fields["kv_cache"] or "fp8",
        parallelism=pool.parallelism,
        batching="static",
        **fields,
    )


def decoding_sequences(r: ServingMeasurement, decode: Pool) -> float:
    """Sequences the run had decoding on average (Little's law): output tokens/s over the decode GPUs x TPOT."""
    return r.output_tokens_per_s_per_gpu * decode.gpus * r.tpot_s


def decode_reach(rows: Sequence[ServingMeasurement]) -> dict[tuple[str, str, int, bool], float]:
    """How far the measured recipes go: the most sequences per GPU any MTP-free disaggregated run decoded (Little's
    law, decoding_sequences), by model id and decode worker recipe (layouts.recipe_key: 'tp' | 'tp-ep' | 'dp-ep', GPUs
    per worker, whether it spans scale-up domains), over every chip and engine."""
    out: dict[tuple[str, str, int, bool], float] = {}
    for r in rows:
        dec = pools(r.fields.get("parallelism", "")).get("decode")
        if r.layout != "disaggregated" or r.mtp or r.model is None or dec is None or not dec.consistent:
            continue
        per_gpu = decoding_sequences(r, dec) / dec.gpus
        key = (r.model.id, *recipe_key(dec.parallelism, dec.gpus_per_worker, r.hardware))
        if math.isfinite(per_gpu) and per_gpu > out.get(key, 0.0):
            out[key] = per_gpu
    return out


def model_recipes(reach: dict[tuple[str, str, int, bool], float], model_id: str) -> dict[tuple[str, int, bool], float]:
    """decode_reach for one model: its decode worker recipes (layouts.recipe_key) -> the most sequences per GPU
    measured (layouts.choose's `recipes`)."""
    return {key[1:]: v for key, v in reach.items() if key[0] == model_id}


def decode_tpot_s(r: ServingMeasurement, pool: Pool, profile: EfficiencyProfile, sequences: float):
    """(TPOT s, the attention operator's share of it): the model's decode step for the run's decode worker with
    `sequences` decoding over the pool."""
    isl, osl = round(r.isl * MEAN_LENGTH_FRACTION), round(r.osl * MEAN_LENGTH_FRACTION)
    s = _worker(
        r,
        pool,
        batch=max(sequences / pool.workers, 1.0),
        context_tokens=isl + osl // 2,
        output_tokens=osl - osl // 2,
    )
    e = estimate(r.model, r.hardware, s, profile)
    return float(e.tpot_s), float(e.decode.share("attention"))


def prompts_per_step(isl: float) -> int:
    """Prompts of isl tokens a prefill worker takes in one step: MAX_PREFILL_BATCH within PREFILL_TOKEN_BUDGET
    tokens (the layout search's and the Planner's, planner.py), at least one."""
    return int(min(MAX_PREFILL_BATCH, max(PREFILL_TOKEN_BUDGET // max(int(isl), 1), 1)))


def prefill_queued(r: ServingMeasurement, pool: Pool, input_tokens_per_s_per_gpu: float) -> bool:
    """Whether prompts queued for the run's prefill pool (it was busy all the time): by Little's law, the prompts
    arriving per second x the median TTFT >= QUEUED_FACTOR x what the pool's workers take in one step."""
    isl = round(r.isl * MEAN_LENGTH_FRACTION)
    in_prefill = input_tokens_per_s_per_gpu * pool.gpus / isl * r.ttft_s
    return bool(in_prefill >= QUEUED_FACTOR * pool.workers * prompts_per_step(isl))


def prefill_input_tokens_per_s_per_gpu(r: ServingMeasurement, pool: Pool, profile: EfficiencyProfile) -> float:
    """The most input tokens/s per GPU the model's prefill worker reaches (1 to prompts_per_step prompts)."""
    isl = round(r.isl * MEAN_LENGTH_FRACTION)
    best = 0.0
    for prompts in range(1, prompts_per_step(isl) + 1):
        e = estimate(r.model, r.hardware, _worker(r, pool, batch=prompts, context_tokens=isl, output_tokens=1), profile)
        best = max(best, prompts * isl / float(e.ttft_s) / pool.gpus_per_worker)
    return best


@dataclass(frozen=True)
class Checked:
    """One run checked, the model uncorrected: decode TPOT (model and measured, s) at `decode_batch_per_gpu`
    sequences decoding per GPU, attention's share of the model's step; prefill input tokens/s per GPU (model and
    measured) and the model's seconds per prompt per prefill worker, whose attention ranks are `prefill_ranks`
    (1 for tensor-parallel attention, its GPUs for data-parallel attention); nan where not checked."""

    id: str
    hardware_id: str
    weights: str
    engine: str
    decode_batch_per_gpu: float
    decode_model_s: float
    decode_measured_s: float
    prefill_model: float
    prefill_measured: float
    decode_attention_share: float = 0.0
    prefill_model_prompt_s: float = math.nan
    prefill_ranks: int = 1

    @property
    def prefill_measured_prompt_s(self) -> float:
        """The measured seconds per prompt per prefill worker (the model's x model / measured rate)."""
        return self.prefill_model_prompt_s * self.prefill_ratio

    @property
    def decode_error(self) -> float:
        """Model / measured TPOT - 1."""
        return self.decode_model_s / self.decode_measured_s - 1.0

    @property
    def prefill_ratio(self) -> float:
        """Model / measured input tokens/s per prefill GPU."""
        return self.prefill_model / self.prefill_measured


def check(rows: Sequence[ServingMeasurement], profiles: dict[str, EfficiencyProfile]) -> list[Checked]:
    """Every MTP-free disaggregated run with both pools consistent in its layout text, checked (see the module
    docstring)."""
    out = []
    nan = math.nan
    for r in rows:
        p = pools(r.fields.get("parallelism", ""))
        if r.layout != "disaggregated" or r.mtp or r.transfer or r.model is None or not {"decode", "prefill"} <= set(p):
            continue
        dec, pre = p["decode"], p["prefill"]
        if not (dec.consistent and pre.consistent):
            continue
        profile = profiles[r.profile or "typical"]
        sequences = decoding_sequences(r, dec)
        batch, model_s, measured_s, share = nan, nan, nan, 0.0
        if math.isfinite(sequences) and sequences >= dec.workers:
            batch, measured_s = sequences / dec.gpus, r.tpot_s
            model_s, share = decode_tpot_s(r, dec, profile, sequences)
        model_rate, measured_rate, prompt_s = nan, nan, nan
        ranks = pre.gpus_per_worker if pre.dp_attention else 1
        rate = INPUT_RATE.search(r.fields.get("notes", ""))
        if rate and prefill_queued(r, pre, float(rate[1])):
            model_rate, measured_rate = prefill_input_tokens_per_s_per_gpu(r, pre, profile), float(rate[1])
            prompt_s = round(r.isl * MEAN_LENGTH_FRACTION) / (model_rate * pre.gpus_per_worker)
        out.append(
            Checked(r.id, r.hardware.id, r.fields["weights"], r.profile, batch, model_s, measured_s, model_rate,
                    measured_rate, share, prompt_s, ranks)
        )  # fmt: skip
    return out


# --------------------------------------------------------------------------------------------------- the correction


_A_GRID = np.round(np.arange(-0.5, 2.0 + 1e-9, 0.001), 3)
_ALPHA_COARSE = np.round(np.arange(0.2, 2.0 + 1e-9, 0.01), 2)


def _fit_decode(b: np.ndarray, share: np.ndarray, log_ratio: np.ndarray) -> tuple[float, float]:
    """(a, alpha) minimising sum (log_ratio + log(alpha s + (1 - s)(1 + a b / (b + b0))))^2: alpha on a 0.01 grid,
    then 0.001 around the best; a on a 0.001 grid."""
    shape = b / (b + DECODE_HALF_BATCH)

    def best(alphas: np.ndarray) -> tuple[float, float, float]:
        out = (math.inf, 0.0, 1.0)
        for alpha in alphas:
            factor = alpha * share[None, :] + (1.0 - share[None, :]) * (1.0 + _A_GRID[:, None] * shape[None, :])
            cost = ((log_ratio[None, :] + np.log(np.maximum(factor, 1e-12))) ** 2).sum(axis=1)
            i = int(np.argmin(cost))
            out = min(out, (float(cost[i]), float(_A_GRID[i]), float(alpha)))
        return out

    _, _, alpha = best(_ALPHA_COARSE)
    _, a, alpha = best(np.round(np.arange(alpha - 0.01, alpha + 0.01 + 1e-9, 0.001), 3))
    return a, alpha


_K_GRID = np.round(np.arange(0.5, 3.0 + 1e-9, 0.005), 3)
_PROMPT_S_GRID = np.round(np.arange(0.0, 0.15 + 1e-9, 0.0001), 4)


def _fit_prefill(model_s: np.ndarray, measured_s: np.ndarray, ranks: np.ndarray) -> tuple[float, float]:
    """(k, c) minimising sum (log(k model_s + c / ranks) - log measured_s)^2 over seconds per prompt per worker:
    k on a 0.005 grid, c (per prompt of one attention rank) on a 0.1 ms grid."""
    pred = _K_GRID[:, None, None] * model_s[None, None, :] + _PROMPT_S_GRID[None, :, None] / ranks[None, None, :]
    cost = ((np.log(pred) - np.log(measured_s)[None, None, :]) ** 2).sum(axis=2)
    i, j = np.unravel_index(int(np.argmin(cost)), cost.shape)
    return float(_K_GRID[i]), float(_PROMPT_S_GRID[j])


def fit(checked: Sequence[Checked], engine: str | None = None) -> PoolFit:
    """Least squares in log space: (a, alpha) over the decode checks (grids of 0.001 steps; `engine`: its runs
    alone), (k, c) over every prefill check's seconds per prompt per worker."""
    d = [c for c in checked if math.isfinite(c.decode_error) and engine in (None, c.engine)]
    a, alpha = 0.0, 1.0
    if d:
        b = np.array([c.decode_batch_per_gpu for c in d])
        share = np.array([c.decode_attention_share for c in d])
        log_ratio = np.log(np.array([c.decode_model_s / c.decode_measured_s for c in d]))
        a, alpha = _fit_decode(b, share, log_ratio)
    pre = [c for c in checked if math.isfinite(c.prefill_ratio)]
    k, per_prompt = 1.0, 0.0
    if pre:
        k, per_prompt = _fit_prefill(
            np.array([c.prefill_model_prompt_s for c in pre]),
            np.array([c.prefill_measured_prompt_s for c in pre]),
            np.array([c.prefill_ranks for c in pre], dtype=float),
        )
    return PoolFit(decode_a=a, prefill_time_factor=k, attention_factor=alpha, prefill_prompt_s=per_prompt)


def corrected_errors(checked: Sequence[Checked], f: PoolFit) -> tuple[list[float], list[float]]:
    """(decode TPOT errors, prefill rate errors) of the checked runs with the correction f, model / measured - 1."""
    dec = [
        c.decode_model_s
        * float(f.decode_factor(c.decode_batch_per_gpu, c.decode_attention_share))
        / c.decode_measured_s
        - 1.0
        for c in checked
        if math.isfinite(c.decode_error)
    ]
    pre = [
        c.prefill_measured_prompt_s / float(f.prefill_time_s(c.prefill_model_prompt_s, 1 / c.prefill_ranks)) - 1.0
        for c in checked
        if math.isfinite(c.prefill_ratio)
    ]
    return dec, pre


def decode_engines(checked: Sequence[Checked]) -> list[str]:
    """The engines with ENGINE_MIN_DECODE_RUNS decode checks or more: each gets a decode correction of its own."""
    counts: dict[str, int] = {}
    for c in checked:
        if math.isfinite(c.decode_error):
            counts[c.engine] = counts.get(c.engine, 0) + 1
    return sorted(e for e, n in counts.items() if n >= ENGINE_MIN_DECODE_RUNS)


def fits(checked: Sequence[Checked]) -> tuple[PoolFit, dict[str, PoolFit]]:
    """The fit over every run, and each decode_engines engine's (its decode terms from its runs alone)."""
    return fit(checked), {e: fit(checked, e) for e in decode_engines(checked)}


def leave_one_chip_out(checked: Sequence[Checked]) -> tuple[list[float], list[float]]:
    """corrected_errors of each chip's runs under the fits on the other chips' runs (each run its engine's)."""
    dec, pre = [], []
    for chip in sorted({c.hardware_id for c in checked}):
        common, by_engine = fits([c for c in checked if c.hardware_id != chip])
        for c in (c for c in checked if c.hardware_id == chip):
            d, p = corrected_errors([c], by_engine.get(c.engine, common))
            dec += d
            pre += p
    return dec, pre


def summary(checked: Sequence[Checked]) -> dict:
    """What data/disaggregated_check.json holds: the correction fitted on every run, the checks' median errors
    (uncorrected; corrected under leave-one-chip-out), per (chip, weights, engine), with every run."""
    f, by_engine = fits(checked)
    loco_dec, loco_pre = leave_one_chip_out(checked)
    decode = [abs(c.decode_error) for c in checked if math.isfinite(c.decode_error)]
    prefill = [c.prefill_ratio for c in checked if math.isfinite(c.prefill_ratio)]
    groups: dict[str, list[Checked]] = {}
    for c in checked:
        groups.setdefault(f"{c.hardware_id} {c.weights} {c.engine}", []).append(c)

    def med(values: list[float]) -> float | None:
        return statistics.median(values) if values else None

    def num(x: float) -> float | None:
        return x if math.isfinite(x) else None

    return {
        "method": __doc__.split("\n\n")[0].replace("\n", " "),
        "fit": {
            "decode_a": f.decode_a,
            "decode_half_batch_per_gpu": DECODE_HALF_BATCH,
            "decode_attention_factor": f.attention_factor,
            "prefill_time_factor": f.prefill_time_factor,
            "prefill_prompt_s": f.prefill_prompt_s,
        },
        "decode_fit_by_engine": {
            e: {
                "decode_a": g.decode_a,
                "decode_attention_factor": g.attention_factor,
                "decode_runs": sum(math.isfinite(c.decode_error) and c.engine == e for c in checked),
            }
            for e, g in by_engine.items()
        },
        "runs": len(checked),
        "decode_runs": len(decode),
        "decode_median_abs_tpot_error": med(decode),
        "decode_median_abs_tpot_error_corrected_loco": med([abs(e) for e in loco_dec]),
        "prefill_runs": len(prefill),
        "prefill_median_model_over_measured": med(prefill),
        "prefill_median_abs_rate_error": med([abs(r - 1.0) for r in prefill]),
        "prefill_median_abs_rate_error_corrected_loco": med([abs(e) for e in loco_pre]),
        "by_group": {
            k: {
                "decode_runs": sum(math.isfinite(c.decode_error) for c in v),
                "decode_median_abs_tpot_error": med([abs(c.decode_error) for c in v if math.isfinite(c.decode_error)]),
                "prefill_runs": sum(math.isfinite(c.prefill_ratio) for c in v),
                "prefill_median_model_over_measured": med(
                    [c.prefill_ratio for c in v if math.isfinite(c.prefill_ratio)]
                ),
            }
            for k, v in sorted(groups.items())
        },
        "checked": [
            {
                "id": c.id,
                "decode_sequences_per_gpu": num(c.decode_batch_per_gpu),
                "decode_tpot_error": num(c.decode_error),
                "prefill_model_over_measured": num(c.prefill_ratio),
            }
            for c in checked
        ],
    }


def format_summary(s: dict) -> str:
    """What calibrate prints."""

    def pct(x):
        return "-" if x is None else f"{x:.0%}"

    def ratio(x):
        return "-" if x is None else f"{x:.2f}"

    f = s["fit"]
    lines = [
        f"disaggregated runs (display-only), each pool on the run's own layout: {s['runs']} MTP-free runs",
        f"{'chip weights engine':<32} {'decode n':>8} {'TPOT |err|':>10} {'prefill n':>9} {'model/meas':>10}",
    ]
    for k, g in s["by_group"].items():
        lines.append(
            f"{k:<32} {g['decode_runs']:>8} {pct(g['decode_median_abs_tpot_error']):>10} {g['prefill_runs']:>9} "
            f"{ratio(g['prefill_median_model_over_measured']):>10}"
        )
    lines += [
        f"  decode pool: median |TPOT error| {pct(s['decode_median_abs_tpot_error'])} over {s['decode_runs']} runs; "
        f"with the correction (attention x {f['decode_attention_factor']:.3f}, the rest x (1 + {f['decode_a']:.3f} b / "
        f"(b + {f['decode_half_batch_per_gpu']:g})); "
        + "; ".join(
            f"{e}: x {g['decode_attention_factor']:.3f}, {g['decode_a']:.3f} over its {g['decode_runs']} runs"
            for e, g in s["decode_fit_by_engine"].items()
        )
        + f"), leave one chip out: {pct(s['decode_median_abs_tpot_error_corrected_loco'])}",
        f"  prefill pool (runs with prompts queued): model / measured input tokens/s per GPU, median "
        f"{ratio(s['prefill_median_model_over_measured'])} over {s['prefill_runs']} runs (median |error| "
        f"{pct(s['prefill_median_abs_rate_error'])}); with prefill time x {f['prefill_time_factor']:.3f} + "
        f"{f['prefill_prompt_s'] * 1e3:.1f} ms per prompt per attention rank, leave one chip out: "
        f"{pct(s['prefill_median_abs_rate_error_corrected_loco'])}",
    ]
    return "\n".join(lines)


def write_check(path: str | Path, s: dict) -> None:
    """data/disaggregated_check.json (floats exact)."""
    Path(path).write_text(json.dumps(s, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
