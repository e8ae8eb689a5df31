"""Serving calibration: the measured serving frontier (data/serving_measurements.csv), the model's prediction for
each measured point (continuous batching, serving.py), the fit of the engine profiles' serving terms, and their
leave-one-hardware-out (LOHO) cross-validation. SI units inside; the CSV keeps the source's units.

Rows: InferenceX DeepSeek-R1-0528 runs (plus a few other public serving runs) from the shared public serving
measurements file, every column kept verbatim, with the mapping to the catalogs added by
scripts/build_serving_measurements.py. The fit / validation set is the single-node, MTP-free rows without the
source's ``check:`` flag (queueing- or prefill-bound points) whose model is in the catalog; every other row is kept
for display and says why in ``use``.

A measured point is predicted as the steady state of continuous batching at its concurrency, with the mean request
lengths (InferenceX samples every request's ISL and OSL uniformly from 80-100% of the nominal values: mean 0.9 x),
with the engine profile as it ran on the row's date (``EfficiencyProfile.as_of``). Two metrics per row: TPOT and
output tokens/s per GPU.

The fit minimises, per engine, sum over its rows of log(TPOT ratio)^2 + log(output tok/s ratio)^2, plus
PRIOR_WEIGHT x ((theta - prior) / width)^2 per parameter. The prior of every engine is a pooled fit of all engines'
rows (the "serving base", pulled towards no step cost at all), which are also `typical`'s serving terms (calibrate
writes them): an engine measured on one device only (AMD ATOM on MI355X) still gets a prediction when that device is
held out, and the default profile and every engine without serving data cost an MoE layer and a sequence what the
measured engines pool to. Terms fitted (``SERVING_FREE``): the per-MoE-layer
step cost; and per engine release period (engines.RELEASE_PERIODS) the per-MoE-layer cost again, where the data
show the engine got faster. The per-sequence step cost (``BASE_FREE``) is fitted in the pooled base only and every
engine inherits it (fitted per engine, a linear per-sequence cost ran to 8-32 us and broke the disaggregated
pools' check). Boxes, prior widths and the minimiser are fitting.py's; calibrate.py writes the result.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from .catalog import Hardware, ModelSpec, load_hardware_catalog, load_model_catalog
from .engines import ENGINES, RELEASE_PERIODS, documented_profile, documented_reason, unknown_engine
from .estimate import estimate
from .files import DATA_DIR, CatalogError, csv_rows, number_or_nan
from .fitting import PARAMS, PRIOR_WEIGHT, ErrorSummary, minimise_boxed, sig3
from .precision import parse_format
from .profiles import FIELD, FIELDS, IDEAL, EfficiencyProfile, ProfileRevision, load_profiles
from .roofline import (
    attainable_bandwidth_bytes_per_s,
    attainable_flop_per_s,
    collectives,
    communication_s,
    fused_nvfp4_moe,
    is_weight_only,
    moe_cost_s,
    rates_for,
    runs_rocm,
    sampled_rows_per_gpu,
    sequences_charged,
    step_operator_work,
)
from .scenario import Scenario
from .serving import speculative, step_kinds
from .speculative import MTP_ACCEPTANCE, MTP_K

SERVING_MEASUREMENTS_PATH = DATA_DIR / "serving_measurements.csv"
# serving_cross_validate's predictions as calibrate last wrote them, beside profiles.yaml: the Serving frontier page
# reads them instead of refitting on its first visit; tests/test_serving.py checks they are current.
SERVING_LOHO_NAME = "serving_loho.json"
MEAN_LENGTH_FRACTION = 0.9  # per-request ISL / OSL drawn uniformly from 80-100% of the nominal value
TARGET_MEDIAN = 0.25  # LOHO median |error| for TPOT and for output tokens/s per GPU

# the public file's columns, kept verbatim, then the mapping scripts/build_serving_measurements.py adds
PUBLIC_COLUMNS = (
    "id",
    "source",
    "model",
    "weight_format",
    "kv_format",
    "hardware",
    "n_gpus",
    "parallelism",
    "engine",
    "isl",
    "osl",
    "concurrency",
    "throughput_tok_s_per_gpu",
    "throughput_kind",
    "interactivity_tok_s_per_user",
    "tpot_ms",
    "ttft_ms",
    "usd_per_1M_tokens",
    "notes",
)
MAPPED_COLUMNS = (
    "model_id",
    "hardware_id",
    "weights",
    "kv_cache",
    "layout",
    "profile",
    "run_date",
    "mtp",
    "total_tok_s_per_gpu",
    "use",
    "mapping_notes",
)
COLUMNS = PUBLIC_COLUMNS + MAPPED_COLUMNS
LAYOUTS = ("tp", "tp-ep", "dp-ep", "disaggregated", "")
SINGLE_NODE_LAYOUTS = LAYOUTS[:3]
TRANSFER = "transfer check"  # in `use`: a run of a model the serving fit has not seen

# --------------------------------------------------------------------------------------------------- the rows


@dataclass(frozen=True, eq=False)
class ServingMeasurement:
    """One measured serving point, resolved against the catalogs; scenario is None for display-only rows."""

    id: str
    fields: dict[str, str]
    model: ModelSpec | None
    hardware: Hardware | None
    profile: str
    run_date: str
    layout: str
    num_gpus: int
    concurrency: float
    isl: float
    osl: float
    tpot_s: float  # measured median TPOT (nan when not reported)
    output_tokens_per_s_per_gpu: float
    total_tokens_per_s_per_gpu: float
    interactivity_tokens_per_s_per_user: float
    ttft_s: float
    mtp: bool
    use: str
    scenario: Scenario | None = None

    @property
    def fitted(self) -> bool:
        """In the fit / validation set (single-node, MTP-free, unflagged, model in the catalog)."""
        return self.use == "fit" and self.scenario is not None

    @property
    def transfer(self) -> bool:
        """A run of a model the serving fit has not seen (scripts/build_serving_measurements.py FITTED_MODELS): held
        out of every fit and check that sets the profiles, the pool correction and the trust bands; the transfer
        check (frontier_check.transfer_summary) reads it."""
        return TRANSFER in self.use

    @property
    def engine(self) -> str:
        return self.fields.get("engine", "")

    @property
    def publisher(self) -> str:
        """Who published the run, from its source citation: 'InferenceX' (SemiAnalysis' runs, API and blog), else
        the host of the citation's first URL ('docs.vultr.com'), else ''."""
        source = self.fields.get("source", "")
        if "inferencex" in source.lower():
            return "InferenceX"
        host = re.search(r"https?://([^/\s()]+)", source)
        return host.group(1) if host else ""

    @property
    def label(self) -> str:
        """The run as the pages and the CLI name it: its publisher and id ('InferenceX IX-006'; the id alone where
        the citation names no publisher)."""
        return f"{self.publisher} {self.id}".strip()


def load_serving_measurements(path: str | Path = SERVING_MEASUREMENTS_PATH) -> list[ServingMeasurement]:
    """Every row of the serving measurements file; fit rows carry a continuous-batching Scenario (mean lengths)."""
    path = Path(path)
    reader = csv_rows(path, COLUMNS)
    models, hardware = load_model_catalog(), load_hardware_catalog()
    out = []
    for line, r in enumerate(reader, start=2):
        where = f"{path}: line {line} (id {r['id']})"
        if r["layout"] not in LAYOUTS:
            raise CatalogError(f"{where}: field 'layout': unknown {r['layout']!r} (known: {', '.join(LAYOUTS[:-1])})")
        if why := unknown_engine(r["profile"]):
            raise CatalogError(f"{where}: field 'profile': {why}")
        m = models.get(r["model_id"]) if r["model_id"] else None
        hw = hardware.get(r["hardware_id"]) if r["hardware_id"] else None
        if r["use"] == "fit" and (m is None or hw is None):
            raise CatalogError(f"{where}: field 'use': a fit row needs a catalog model_id and hardware_id")
        C, isl, osl, n = (number_or_nan(r[k]) for k in ("concurrency", "isl", "osl", "n_gpus"))
        output, total = number_or_nan(r["throughput_tok_s_per_gpu"]), number_or_nan(r["total_tok_s_per_gpu"])
        if not r["throughput_kind"].startswith("output tok/s per"):  # the source gives the total only
            output, total = math.nan, output
        scenario = None
        transfer_point = TRANSFER in r["use"] and r["layout"] in SINGLE_NODE_LAYOUTS and math.isfinite(C * isl * osl)
        if r["use"] == "fit" or transfer_point:  # a fit row, or a single-node run of the transfer check
            try:
                scenario = Scenario(
                    batch=C,
                    context_tokens=round(isl * MEAN_LENGTH_FRACTION),
                    output_tokens=round(osl * MEAN_LENGTH_FRACTION),
                    num_gpus=n,
                    weights=parse_format(r["weights"]),
                    kv_cache=parse_format(r["kv_cache"]),
                    parallelism=r["layout"],
                    batching="continuous",
                )
            except ValueError as e:
                raise CatalogError(f"{where}: {e}") from None
        out.append(
            ServingMeasurement(
                id=r["id"],
                fields=dict(r),
                model=m,
                hardware=hw,
                profile=r["profile"],
                run_date=r["run_date"],
                layout=r["layout"],
                num_gpus=int(n) if math.isfinite(n) else 0,
                concurrency=C,
                isl=isl,
                osl=osl,
                tpot_s=number_or_nan(r["tpot_ms"]) * 1e-3,
                output_tokens_per_s_per_gpu=output,
                total_tokens_per_s_per_gpu=total,
                interactivity_tokens_per_s_per_user=number_or_nan(r["interactivity_tok_s_per_user"]),
                ttft_s=number_or_nan(r["ttft_ms"]) * 1e-3,
                mtp=r["mtp"] == "true",
                use=r["use"],
                scenario=scenario,
            )
        )
    return out


def predict(row: ServingMeasurement, profile: EfficiencyProfile) -> tuple[float, float]:
    """(TPOT s, output tokens/s per GPU) the model gives for a fit row (or a single-node transfer-check row), with
    the profile as of the row's date."""
    if row.scenario is None:
        raise ValueError(f"serving measurement {row.id}: cannot be predicted ({row.use})")
    e = estimate(row.model, row.hardware, row.scenario, profile.as_of(row.run_date or None))
    return float(e.tpot_s), float(e.output_tokens_per_s_per_gpu)


# --------------------------------------------------------------------------------------------------- fitting


SERVING_FREE = ("moe_layer_overhead_s",)
# the pooled base's terms, every engine inherits the rest
BASE_FREE = (*SERVING_FREE, "per_sequence_overhead_s", "nvfp4_moe_cost_fraction", "rocm_moe_cost_factor")
PERIOD_ATTR = "moe_layer_overhead_s"  # fitted again for the rows of each older release period


def _period_key(until: str) -> str:
    return f"{PERIOD_ATTR}@{until}"


_KINDS = ("low", "high", "first_chunk")


@dataclass(frozen=True, eq=False)
class _Basis:
    """Everything a prediction needs that does not depend on the profile, for many rows at once: per step kind,
    per operator (rows, operators) weight, KV and activation bytes, FLOPs at the GEMM rate and at the attention
    rate; collectives (count, bytes-time at full link speed); fixed-cost multipliers; the mix and TTFT factors."""

    w: dict[str, np.ndarray]
    kv: dict[str, np.ndarray]
    a: dict[str, np.ndarray]
    fg: dict[str, np.ndarray]
    fa: dict[str, np.ndarray]
    n_coll: dict[str, np.ndarray]
    coll_time: dict[str, np.ndarray]  # bytes / link at interconnect_efficiency 1
    sequences: dict[str, np.ndarray]  # roofline.sequences_charged of the rows each GPU samples
    bw: np.ndarray
    inv_gemm: np.ndarray
    inv_attn: np.ndarray
    weight_only: np.ndarray
    gqa: np.ndarray
    layers: np.ndarray
    moe_layers: np.ndarray
    fused_nvfp4: np.ndarray  # 1 where the MoE layers pay the NVFP4 fraction (roofline.fused_nvfp4_moe), else 0
    rocm: np.ndarray  # 1 where the MoE layers pay the ROCm factor (roofline.runs_rocm), else 0
    high_fraction: np.ndarray
    prompt_chunks: np.ndarray
    batch: np.ndarray
    output: np.ndarray
    gpus: np.ndarray
    tpot: np.ndarray  # measured
    out: np.ndarray  # measured (nan where not reported)
    period_mask: dict[str, np.ndarray]  # rows before each period's `until`


def _basis(rows: Sequence[ServingMeasurement], periods: Sequence[str] = ()) -> _Basis:
    tables: dict[str, dict[str, list]] = {k: {f: [] for f in ("w", "kv", "a", "fg", "fa")} for k in _KINDS}
    n_coll: dict[str, list] = {k: [] for k in _KINDS}
    coll_time: dict[str, list] = {k: [] for k in _KINDS}
    sequences: dict[str, list] = {k: [] for k in _KINDS}
    for r in rows:
        s, m, hw = r.scenario, r.model, r.hardware
        kinds = step_kinds(m, s)
        for k in _KINDS:
            work, local = getattr(kinds, k)
            ops = step_operator_work(m, s, prefill=False, work=work, local=local)
            t = tables[k]
            for name, getter in (("w", "weight_bytes"), ("kv", "kv_bytes"), ("a", "activation_bytes")):
                t[name].append([float(getattr(o, getter)) for o in ops])
            attn = [o.rate == "attention" for o in ops]
            t["fg"].append([0.0 if at else float(o.flops) for o, at in zip(ops, attn, strict=True)])
            t["fa"].append([float(o.flops) if at else 0.0 for o, at in zip(ops, attn, strict=True)])
            c = collectives(m, s, work, local)
            n_coll[k].append(float(c.count))
            coll_time[k].append(float(communication_s(hw, IDEAL, c)))  # at zero latency and the link's peak
            sequences[k].append(float(sequences_charged(sampled_rows_per_gpu(s, work, local))))

    def pad(lists):
        width = max(len(x) for x in lists)
        return np.array([x + [0.0] * (width - len(x)) for x in lists])

    def per_row(fn):
        return np.array([fn(r) for r in rows], dtype=float)

    gemm = [
        (rt.gemm_precision, rt.attention_precision) for rt in (rates_for(r.hardware, IDEAL, r.scenario) for r in rows)
    ]
    return _Basis(
        w={k: pad(tables[k]["w"]) for k in _KINDS},
        kv={k: pad(tables[k]["kv"]) for k in _KINDS},
        a={k: pad(tables[k]["a"]) for k in _KINDS},
        fg={k: pad(tables[k]["fg"]) for k in _KINDS},
        fa={k: pad(tables[k]["fa"]) for k in _KINDS},
        n_coll={k: np.array(v) for k, v in n_coll.items()},
        coll_time={k: np.array(v) for k, v in coll_time.items()},
        sequences={k: np.array(v) for k, v in sequences.items()},
        bw=per_row(lambda r: attainable_bandwidth_bytes_per_s(r.hardware)),
        inv_gemm=np.array([[1.0 / attainable_flop_per_s(r.hardware, g)] for r, (g, _) in zip(rows, gemm, strict=True)]),
        inv_attn=np.array([[1.0 / attainable_flop_per_s(r.hardware, a)] for r, (_, a) in zip(rows, gemm, strict=True)]),
        weight_only=np.array(
            [float(is_weight_only(r.scenario.weights.bits, g)) for r, (g, _) in zip(rows, gemm, strict=True)]
        ),
        gqa=per_row(lambda r: 0.0 if r.model.mla else r.model.num_heads / r.model.num_kv_heads - 1.0),
        layers=per_row(lambda r: r.model.num_layers),
        moe_layers=per_row(lambda r: r.model.num_moe_layers),
        fused_nvfp4=np.array(
            [float(fused_nvfp4_moe(r.scenario.weights, g, r.hardware)) for r, (g, _) in zip(rows, gemm, strict=True)]
        ),
        rocm=per_row(lambda r: float(runs_rocm(r.hardware))),
        high_fraction=np.array([float(step_kinds(r.model, r.scenario).high_fraction) for r in rows]),
        prompt_chunks=np.array([float(step_kinds(r.model, r.scenario).prompt_chunks) for r in rows]),
        batch=per_row(lambda r: float(r.scenario.batch)),
        output=per_row(lambda r: float(r.scenario.output_tokens)),
        gpus=per_row(lambda r: float(r.scenario.num_gpus)),
        tpot=per_row(lambda r: r.tpot_s),
        out=per_row(lambda r: r.output_tokens_per_s_per_gpu),
        period_mask={u: np.array([bool(r.run_date) and r.run_date < u for r in rows]) for u in periods},
    )


# every profile field the step time depends on (SI)
_SURROGATE_FIELDS = tuple(f.attr for f in FIELDS if f.attr != "usable_memory_fraction")


def _surrogate(b: _Basis, P: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(TPOT, output tokens/s per GPU) of every row; P maps each _SURROGATE_FIELDS name to a (rows,) array."""
    bw = np.minimum(b.bw * P["bandwidth_efficiency"], P["bandwidth_limit_bytes_per_s"])
    inv_bw = (1.0 / bw)[:, None]
    inv_rw = inv_bw * (1.0 + b.weight_only * (1.0 / P["lowbit_bandwidth_efficiency"] - 1.0))[:, None]
    inv_rkv = inv_bw / P["kv_bandwidth_efficiency"][:, None]
    reads = (1.0 + P["kv_gqa_reread_fraction"] * b.gqa)[:, None]
    inv_f = (1.0 / P["flops_efficiency"])[:, None]
    moe = moe_cost_s(P, b.fused_nvfp4, b.rocm)
    fixed = P["per_token_overhead_s"] + P["per_layer_overhead_s"] * b.layers + moe * b.moe_layers

    def t(k):
        mem = b.w[k] * inv_rw + b.kv[k] * reads * inv_rkv + b.a[k] * inv_bw
        comp = (b.fg[k] * b.inv_gemm + b.fa[k] * b.inv_attn) * inv_f
        comm = b.n_coll[k] * P["allreduce_latency_s"] + b.coll_time[k] / P["interconnect_efficiency"]
        return np.maximum(mem, comp).sum(axis=1) + comm + fixed + P["per_sequence_overhead_s"] * b.sequences[k]

    tpot = (1.0 - b.high_fraction) * t("low") + b.high_fraction * t("high")
    ttft = np.where(b.batch > 1, 0.5, 0.0) * tpot + b.prompt_chunks * t("first_chunk")  # as serving.steady_state
    out = b.batch * b.output / (ttft + (b.output - 1.0) * tpot) / b.gpus
    return tpot, out


def _param_arrays(profiles: Sequence[EfficiencyProfile]) -> dict[str, np.ndarray]:
    return {f: np.array([float(getattr(p, f)) for p in profiles]) for f in _SURROGATE_FIELDS}


def check_surrogate(rows: Sequence[ServingMeasurement], profiles: Sequence[EfficiencyProfile]) -> float:
    """Largest relative gap between the fitting surrogate and predict() (the real estimate), over both metrics.
    Each profile is taken as of its row's date."""
    dated = [p.as_of(r.run_date or None) for r, p in zip(rows, profiles, strict=True)]
    tpot, out = _surrogate(_basis(rows), _param_arrays(dated))
    slow = np.array([predict(r, p) for r, p in zip(rows, profiles, strict=True)])
    return float(max(np.max(np.abs(tpot / slow[:, 0] - 1)), np.max(np.abs(out / slow[:, 1] - 1))))


def _with_values(profile: EfficiencyProfile, values: dict[str, float]) -> EfficiencyProfile:
    """The profile with fitted values; 'moe_layer_overhead_s@UNTIL' keys become dated revisions."""
    plain = {k: v for k, v in values.items() if "@" not in k}
    revs = [
        ProfileRevision(until=k.split("@")[1], values=((PERIOD_ATTR, v),), note=_period_note(profile.id, k))
        for k, v in values.items()
        if "@" in k
    ]
    out = replace(profile, **plain)
    return replace(out, history=tuple(revs)) if revs else out


def _period_note(pid: str, key: str) -> str:
    until = key.split("@")[1]
    return next((note for u, note in RELEASE_PERIODS.get(pid, ()) if u == until), "")


def fit_serving_profile(
    rows: Sequence[ServingMeasurement],
    prior: EfficiencyProfile,
    *,
    periods: Sequence[str] = (),
    terms: Sequence[str] = SERVING_FREE,
) -> EfficiencyProfile:
    """The profile (prior's id, name and other fields) that best predicts these rows' TPOT and output tokens/s:
    `terms` fitted, plus the per-MoE-layer cost of each period (rows before `until`) that has rows.
    Deterministic; values rounded to 3 significant figures (what profiles.yaml holds is what was evaluated)."""
    rows = [r for r in rows if r.fitted]
    if not rows:
        return prior
    b = _basis(rows, periods)
    used = [u for u in periods if b.period_mask[u].any() and not b.period_mask[u].all()]
    free = [*terms, *(_period_key(u) for u in used)]
    base = _param_arrays([replace(prior, history=())] * len(rows))
    params_ = [PARAMS[a.split("@")[0]] for a in free]
    lo = np.array([p.lo for p in params_])
    hi = np.array([p.hi for p in params_])
    centre = np.array([p.get(prior) for p in params_])
    inv_width = 1.0 / np.array([p.width for p in params_])
    log_tpot, log_out = np.log(b.tpot), np.log(b.out)
    has_out = np.isfinite(log_out)

    order = sorted(range(len(free)), key=lambda i: ("@" in free[i], free[i].split("@")[-1]), reverse=False)
    order = [i for i in order if "@" not in free[i]] + sorted(
        (i for i in order if "@" in free[i]), key=lambda i: free[i], reverse=True
    )  # later periods first: an older period's rows take the earliest revision after their date

    def params(x: np.ndarray) -> dict[str, np.ndarray]:
        P = dict(base)
        for i in order:
            a, v = free[i], x[i]
            if "@" in a:
                P[PERIOD_ATTR] = np.where(b.period_mask[a.split("@")[1]], v, P[PERIOD_ATTR])
            else:
                P[a] = np.full(len(rows), v)
        return P

    def objective(x: np.ndarray) -> float:
        tpot, out = _surrogate(b, params(x))
        r1 = np.log(tpot) - log_tpot
        r2 = np.where(has_out, np.log(out) - np.where(has_out, log_out, 0.0), 0.0)
        sse = r1 @ r1 + r2 @ r2
        if not sse < 1e30:
            return 1e30
        z = (x - centre) * inv_width
        return float(sse + PRIOR_WEIGHT * (z @ z))

    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        x = minimise_boxed(objective, np.clip(centre, lo, hi), lo, hi)
    values = {a: p.rounded(v) for a, p, v in zip(free, params_, x, strict=True)}
    return _with_values(prior, values)


# --------------------------------------------------------------------------------------------------- priors, LOHO

BASE_ID = "serving-base"


def _device(r: ServingMeasurement) -> str:
    return r.fields.get("hardware_id", "")


def with_base(typical: EfficiencyProfile, base: EfficiencyProfile) -> EfficiencyProfile:
    """`typical` with the serving base's fitted terms (BASE_FREE): what profiles.yaml's typical holds."""
    return replace(typical, **{a: float(getattr(base, a)) for a in BASE_FREE})


def engine_prior(pid: str, typical: EfficiencyProfile, base: EfficiencyProfile) -> EfficiencyProfile:
    """An engine's prior: its documented values (typical's, except what engines.DOCUMENTED sets), with the
    pooled serving base's fitted terms. Never its own previous fit: calibrate stays idempotent."""
    doc = documented_profile(pid, typical)
    return replace(doc, history=(), **{a: float(getattr(base, a)) for a in BASE_FREE})


def fit_serving_all(
    rows: Sequence[ServingMeasurement],
    typical: EfficiencyProfile,
    *,
    exclude_device: str | None = None,
) -> tuple[EfficiencyProfile, dict[str, EfficiencyProfile]]:
    """(pooled base, {engine: profile}) fitted to the fit rows (those on exclude_device left out). Every engine the
    fit rows name gets a profile: its own fit, or the base (through its prior) when the fold has none of its rows."""
    fit = [r for r in rows if r.fitted]
    train = [r for r in fit if _device(r) != exclude_device]
    # the base's own prior is no serving step cost, the same for every format (each field's neutral value; not
    # typical's, which is the base: calibrate stays idempotent)
    base_prior = replace(typical, id=BASE_ID, name="Serving base (pooled fit)", description="", source="", history=(),
                         **{a: FIELD[a].neutral for a in BASE_FREE})  # fmt: skip
    base = fit_serving_profile(train, base_prior, terms=BASE_FREE)
    out = {}
    for pid in sorted({r.profile for r in fit}):
        own = [r for r in train if r.profile == pid]
        prior = engine_prior(pid, typical, base)
        periods = [u for u, _ in RELEASE_PERIODS.get(pid, ())]
        out[pid] = fit_serving_profile(own, prior, periods=periods) if own else prior
    return base, out


# concurrency buckets of the signed error (label, lowest, highest): InferenceX's 1, 4, 8 ... 128 each in one
CONCURRENCY_BUCKETS = (("1", 1, 1), ("2–7", 2, 7), ("8–31", 8, 31), ("32+", 32, math.inf))


@dataclass(frozen=True, eq=False)
class ServingCrossValidation:
    """Leave-one-hardware-out: every fit row predicted by profiles fitted without its device's rows."""

    rows: tuple[ServingMeasurement, ...]
    predicted_tpot_s: np.ndarray
    predicted_output_tokens_per_s_per_gpu: np.ndarray
    profiles_by_device: dict[str, dict[str, EfficiencyProfile]]

    @property
    def measured_tpot_s(self) -> np.ndarray:
        return np.array([r.tpot_s for r in self.rows])

    @property
    def measured_output_tokens_per_s_per_gpu(self) -> np.ndarray:
        return np.array([r.output_tokens_per_s_per_gpu for r in self.rows])

    @property
    def tpot_error(self) -> np.ndarray:
        return self.predicted_tpot_s / self.measured_tpot_s - 1.0

    @property
    def output_error(self) -> np.ndarray:
        return self.predicted_output_tokens_per_s_per_gpu / self.measured_output_tokens_per_s_per_gpu - 1.0

    def summary(self, mask: np.ndarray | None = None) -> dict[str, ErrorSummary]:
        """{'tpot': ..., 'output_tokens_per_s_per_gpu': ...} over all rows, or the masked ones."""
        m = np.ones(len(self.rows), dtype=bool) if mask is None else mask
        return {
            "tpot": ErrorSummary.of(self.tpot_error[m]),
            "output_tokens_per_s_per_gpu": ErrorSummary.of(self.output_error[m]),
        }

    def bias_by_concurrency(self) -> list[tuple[str, int, float, float, float]]:
        """The TPOT error signed ((predicted - measured) / measured: + where the model is slower than measured) by
        CONCURRENCY_BUCKETS: (label, runs, 10th percentile, median, 90th percentile) per bucket that holds runs. The
        median |error| averages out a lean this shows (held out: +7 % at concurrency 8-31, -4 % at 2-7)."""
        concurrency = np.array([r.concurrency for r in self.rows], dtype=float)
        error = np.asarray(self.tpot_error, dtype=float)
        out = []
        for label, low, high in CONCURRENCY_BUCKETS:
            e = error[(concurrency >= low) & (concurrency <= high) & np.isfinite(error)]
            if e.size:
                p10, median, p90 = (float(v) for v in np.percentile(e, [10, 50, 90]))
                out.append((label, int(e.size), p10, median, p90))
        return out

    def by(self, key) -> dict[str, dict[str, ErrorSummary]]:
        """Summaries per group, e.g. by(lambda r: r.profile) or by device."""
        groups = sorted({key(r) for r in self.rows})
        return {g: self.summary(np.array([key(r) == g for r in self.rows])) for g in groups}

    @property
    def met(self) -> bool:
        s = self.summary()
        return all(v.median <= TARGET_MEDIAN for v in s.values())


def serving_cross_validate(
    rows: Sequence[ServingMeasurement], typical: EfficiencyProfile | None = None
) -> ServingCrossValidation:
    """For each device of the fit rows: fit base and engines without it, predict its rows (predict(): the real
    estimate, with each engine profile as of the row's date)."""
    typical = typical or load_profiles()["typical"]
    fit = tuple(r for r in rows if r.fitted)
    devices = sorted({_device(r) for r in fit})
    by_device = {d: fit_serving_all(fit, typical, exclude_device=d)[1] for d in devices}
    pred = np.array([predict(r, by_device[_device(r)][r.profile]) for r in fit])
    return ServingCrossValidation(
        rows=fit,
        predicted_tpot_s=pred[:, 0],
        predicted_output_tokens_per_s_per_gpu=pred[:, 1],
        profiles_by_device=by_device,
    )


def write_serving_loho(path: str | Path, cv: ServingCrossValidation) -> None:
    """The cross-validation's predictions per fit row id (SI units), floats exact."""
    records = [
        {"id": r.id, "predicted_tpot_s": float(t), "predicted_output_tokens_per_s_per_gpu": float(o)}
        for r, t, o in zip(cv.rows, cv.predicted_tpot_s, cv.predicted_output_tokens_per_s_per_gpu, strict=True)
    ]
    Path(path).write_text(json.dumps(records, indent=1) + "\n", encoding="utf-8")


def read_serving_loho(path: str | Path, rows: Sequence[ServingMeasurement]) -> ServingCrossValidation:
    """write_serving_loho's predictions joined to the fit rows (profiles_by_device left empty); CatalogError when
    the file and the rows disagree on which rows are fitted (rerun calibrate)."""
    records = json.loads(Path(path).read_text(encoding="utf-8"))
    fit = tuple(r for r in rows if r.fitted)
    if [r.id for r in fit] != [x["id"] for x in records]:
        raise CatalogError(f"{path}: its rows are not the fit rows of the serving measurements; run calibrate")
    return ServingCrossValidation(
        rows=fit,
        predicted_tpot_s=np.array([x["predicted_tpot_s"] for x in records], dtype=float),
        predicted_output_tokens_per_s_per_gpu=np.array(
            [x["predicted_output_tokens_per_s_per_gpu"] for x in records], dtype=float
        ),
        profiles_by_device={},
    )


# --------------------------------------------------------------------------------------------------- calibrate


@dataclass(frozen=True, eq=False)
class ServingFitReport:
    """One engine's serving fit: the profile, its rows, in-sample and LOHO errors, rows per older period."""

    profile: EfficiencyProfile
    rows: tuple[ServingMeasurement, ...]
    in_sample: dict[str, ErrorSummary]
    loho: dict[str, ErrorSummary]
    period_rows: dict[str, int]


def serving_calibrate(
    rows: Sequence[ServingMeasurement], typical: EfficiencyProfile
) -> tuple[dict[str, ServingFitReport], ServingCrossValidation, EfficiencyProfile]:
    """Fit every engine with serving rows on all of them, and cross-validate (leave one hardware device out)."""
    cv = serving_cross_validate(rows, typical)
    base, profiles = fit_serving_all(rows, typical)
    reports = {}
    for pid, prof in profiles.items():
        name, description = ENGINES.get(pid, (pid, ""))
        prof = replace(prof, name=name, description=description)
        own = tuple(r for r in rows if r.fitted and r.profile == pid)
        pred = np.array([predict(r, prof) for r in own])
        measured = np.array([(r.tpot_s, r.output_tokens_per_s_per_gpu) for r in own])
        err = pred / measured - 1.0
        mask = np.array([r.profile == pid for r in cv.rows])
        reports[pid] = ServingFitReport(
            profile=prof,
            rows=own,
            in_sample={
                "tpot": ErrorSummary.of(err[:, 0]),
                "output_tokens_per_s_per_gpu": ErrorSummary.of(err[:, 1]),
            },
            loho=cv.summary(mask),
            period_rows={
                u: sum(bool(r.run_date) and r.run_date < u for r in own) for u, _ in RELEASE_PERIODS.get(pid, ())
            },
        )
    return reports, cv, base


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.1%}"


def field_reasons(report: ServingFitReport, pid: str) -> dict[str, str]:
    """Why each field of a serving-fitted engine's profile has its value (profiles.yaml `source`), by SI attribute."""
    devices = sorted({_device(r) for r in report.rows})
    fixed = {
        "moe_layer_overhead_s": (
            f"fitted to {len(report.rows)} serving measurements on {len(devices)} "
            f"device{'s' if len(devices) != 1 else ''} ({', '.join(devices)}; "
            "InferenceX DeepSeek-R1-0528, single-node, MTP-free, unflagged: data/serving_measurements.csv) as the "
            "steady state of continuous batching; LOHO median |error| TPOT "
            f"{_pct(report.loho['tpot'].median)}, output tokens/s per GPU "
            f"{_pct(report.loho['output_tokens_per_s_per_gpu'].median)} ({report.loho['tpot'].n} rows); the only "
            "fixed step cost the data pin down (one model, one layer count), so the per-step and per-layer costs "
            "keep typical's values"
        ),
        "per_sequence_overhead_s": (
            "fitted once to every engine's serving measurements pooled (the serving base) and inherited: the step "
            "cost that grows with the first sequences each GPU samples, saturating (half its ceiling at 16 "
            "sequences per GPU); without it one constant step cost made low concurrency slow and high concurrency "
            "fast"
        ),
        "nvfp4_moe_cost_fraction": (
            "fitted once to every engine's serving measurements pooled (the serving base) and inherited: the MoE-layer "
            "cost with NVFP4 weights as a fraction of the MoE-layer cost (Blackwell's fused NVFP4 MoE kernels); with "
            "one MoE-layer cost for every format, SGLang's and TensorRT-LLM's NVFP4 runs on B200 were 12-33% slower "
            "than measured at concurrency 1-16 while their FP8 runs on the same chip and dates were within 10%"
        ),
        "rocm_moe_cost_factor": (
            "fitted once to every engine's serving measurements pooled (the serving base) and inherited: the MoE-layer "
            "cost on AMD GPUs (ROCm's MoE kernels) as a multiple of the cost on the others; SGLang runs on both, so "
            "the pooled fit tells them apart. With one MoE-layer cost for every vendor, SGLang's 2026 images read "
            "8-15% slow on B200 and H200 and within 4% on MI355X, and held out, H200 read 12-15% slow. When no AMD "
            "GPU is among the rows (MI355X held out) it stays at 1"
        ),
    }
    tried = {
        "bandwidth_efficiency": (
            "not fitted: freed on the serving data it made the leave-one-hardware-out error worse (TPOT median "
            "10.8% -> 15.8%); typical's value"
        ),
        "flops_efficiency": (
            "not fitted: the prefill chunks in the decode steps are too small a share of the step time to pin it "
            "down (freed, it ran to its bounds, 0.13-1.0, from fold to fold); typical's value"
        ),
    }
    tried["kv_bandwidth_efficiency"] = tried["bandwidth_efficiency"]
    fallback = "no batch-1 measurements for this engine in data/measurements.csv; typical's value"
    return {
        f.attr: fixed.get(f.attr) or documented_reason(pid, f.attr) or tried.get(f.attr) or fallback for f in FIELDS
    }


def history_reason(report: ServingFitReport) -> str:
    """The `source` line that explains a serving-fitted profile's dated revisions."""
    notes = [
        f"before {rev.until}: {report.period_rows.get(rev.until, 0)} rows, {rev.note}"
        for rev in sorted(report.profile.history, key=lambda r: r.until)
    ]
    return "history: the per-MoE-layer step cost fitted again on the rows of each older release period (" + (
        "; ".join(notes) + ")"
    )


def format_serving_report(
    rows: Sequence[ServingMeasurement],
    reports: dict[str, ServingFitReport],
    cv: ServingCrossValidation,
    path,
    base: EfficiencyProfile | None = None,
) -> str:
    """The serving part of what calibrate prints: rows used, fit per engine, LOHO per device and overall."""
    fit = [r for r in rows if r.fitted]
    lines = [
        f"{len(rows)} serving measurements in {path}: {len(fit)} fitted (single-node, MTP-free, unflagged, model "
        f"in the catalog) on {len({_device(r) for r in fit})} devices; {len(rows) - len(fit)} display-only",
        "serving: |error| of TPOT and of output tokens/s per GPU, continuous-batching steady state; fit = in-sample,"
        " LOHO = leave one hardware out",
        f"{'profile':<13} {'rows':>4} {'devices':>7}  {'moe_layer_us':>12} {'per_seq_us':>10}  {'fit TPOT':>9} "
        f"{'fit tok/s':>9}  "
        f"{'LOHO TPOT':>9} {'LOHO tok/s':>10}  history",
    ]
    for pid, rep in reports.items():
        hist = ", ".join(
            f"before {h.until}: {sig3(dict(h.values)[PERIOD_ATTR] * 1e6):g} us" for h in rep.profile.history
        )
        lines.append(
            f"{pid:<13} {len(rep.rows):>4} {len({_device(r) for r in rep.rows}):>7}  "
            f"{rep.profile.moe_layer_overhead_s * 1e6:>12.3g} {rep.profile.per_sequence_overhead_s * 1e6:>10.3g}  "
            f"{_pct(rep.in_sample['tpot'].median):>9} {_pct(rep.in_sample['output_tokens_per_s_per_gpu'].median):>9}  "
            f"{_pct(rep.loho['tpot'].median):>9} {_pct(rep.loho['output_tokens_per_s_per_gpu'].median):>10}  {hist}"
        )
    if base is not None:
        lines.append(
            f"serving base (pooled fit of every engine's rows; each engine's prior and typical's serving terms): "
            f"moe_layer_overhead_us "
            f"{base.moe_layer_overhead_s * 1e6:.3g}, per_sequence_overhead_us {base.per_sequence_overhead_s * 1e6:.3g}, "
            f"nvfp4_moe_cost_fraction {base.nvfp4_moe_cost_fraction:.3g}, "
            f"rocm_moe_cost_factor {base.rocm_moe_cost_factor:.3g}"
        )
    s = cv.summary()
    lines += [
        "",
        f"LOHO, serving (single-node, MTP-free): {s['tpot'].n} rows on {len(cv.by(_device))} devices, median "
        f"|error| TPOT {_pct(s['tpot'].median)} (p90 {_pct(s['tpot'].p90)}), output tokens/s per GPU "
        f"{_pct(s['output_tokens_per_s_per_gpu'].median)} (p90 {_pct(s['output_tokens_per_s_per_gpu'].p90)}) "
        f"(target {TARGET_MEDIAN:.0%} for both: {'met' if cv.met else 'NOT met'})",
    ]
    for d, v in cv.by(_device).items():
        lines.append(
            f"  held out {d:<8} {v['tpot'].n:>3} rows  TPOT median {_pct(v['tpot'].median):>6}  output tok/s "
            f"median {_pct(v['output_tokens_per_s_per_gpu'].median):>6}"
        )
    lines.append("  TPOT error signed (+: the model slower than measured), by concurrency:")
    for label, n, p10, median, p90 in cv.bias_by_concurrency():
        lines.append(
            f"    concurrency {label:<5} {n:>3} rows  median {median:+6.1%}  10th-90th {p10:+.1%} to {p90:+.1%}"
        )
    return "\n".join(lines)


def format_mtp_check(check: ErrorSummary, bias: float) -> str:
    """The MTP check's line in what calibrate prints (mtp_check with the profiles calibrate is about to write)."""
    return (
        f"MTP switch check (k={MTP_K}, acceptance {MTP_ACCEPTANCE:g}; not a fit): {check.n} single-node MTP runs, "
        f"TPOT median |error| {_pct(check.median)}, median error {bias:+.1%}"
    )


# --------------------------------------------------------------------------------------------------- MTP check


def mtp_check(
    rows: Sequence[ServingMeasurement],
    k: int = MTP_K,
    acceptance: float = MTP_ACCEPTANCE,
    *,
    profiles: dict[str, EfficiencyProfile] | None = None,
) -> tuple[ErrorSummary, float]:
    """(|error| summary, median signed error) of TPOT for the single-node, unflagged MTP runs of catalog models,
    predicted by serving.speculative with the engine profiles (`profiles`, else profiles.yaml's) as of each run's
    date. A check of the MTP switch, not a fit: the only free choice is the acceptance rate, set where the bias
    vanishes."""
    profiles = profiles if profiles is not None else load_profiles()
    errors = []
    for r in rows:
        reasons = r.use.removeprefix("display: ").split("; ")
        if not (r.mtp and reasons == ["MTP speculative decoding on"] and r.fields["kv_cache"]):
            continue
        s = Scenario(
            batch=r.concurrency,
            context_tokens=round(r.isl * MEAN_LENGTH_FRACTION),
            output_tokens=round(r.osl * MEAN_LENGTH_FRACTION),
            num_gpus=r.num_gpus,
            weights=r.fields["weights"],
            kv_cache=r.fields["kv_cache"],
            parallelism=r.layout,
            batching="continuous",
        )
        p = profiles[r.profile].as_of(r.run_date or None)
        sp = speculative(r.model, r.hardware, s, p, k=k, acceptance=acceptance)
        errors.append(float(sp.tpot_s) / r.tpot_s - 1.0)
    e = np.array(errors)
    return ErrorSummary.of(e), float(np.median(e)) if e.size else math.nan
