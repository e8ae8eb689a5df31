"""Tools both profile fitters share (calibration.py, batch-1 decode; serving_calibration.py, serving runs): relative
errors and their summaries, rounding to what profiles.yaml holds, each fittable profile field's box and prior width,
and the deterministic bounded multi-start Nelder-Mead minimiser.

Fit coordinates are SI, except the bandwidth limit, fitted as its inverse (seconds per byte: 0 = no limit), so that
its neutral value is a point inside the box.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from .profiles import FIELD, EfficiencyProfile, ProfileField

# --------------------------------------------------------------------------------------------------- errors


def relative_error(predicted: np.ndarray | float, measured: np.ndarray | float) -> np.ndarray:
    """predicted / measured - 1, in the row's metric (positive = the model says more of the metric)."""
    return np.asarray(predicted, dtype=float) / np.asarray(measured, dtype=float) - 1.0


@dataclass(frozen=True)
class ErrorSummary:
    """|predicted / measured - 1| over a set of rows (non-finite errors left out): count, median and 90th percentile
    (linear interpolation)."""

    n: int
    median: float
    p90: float

    @staticmethod
    def of(errors: np.ndarray) -> ErrorSummary:
        a = np.abs(np.asarray(errors, dtype=float))
        a = a[np.isfinite(a)]
        if a.size == 0:
            return ErrorSummary(0, math.nan, math.nan)
        return ErrorSummary(int(a.size), float(np.median(a)), float(np.percentile(a, 90)))


# --------------------------------------------------------------------------------------------------- parameters


def sig3(v: float) -> float:
    """v to 3 significant figures (0 and non-finite values unchanged)."""
    if v == 0 or not math.isfinite(v):
        return v
    return float(f"{v:.3g}")


@dataclass(frozen=True)
class FitParam:
    """A profile field as a fit parameter: its descriptor, and its box and prior width in fit coordinates."""

    field: ProfileField
    lo: float
    hi: float
    width: float
    inverse: bool = False  # fitted as 1 / value

    @property
    def attr(self) -> str:
        return self.field.attr

    def get(self, profile: EfficiencyProfile) -> float:
        """The profile's value in fit coordinates."""
        v = float(getattr(profile, self.attr))
        return 1.0 / v if self.inverse else v  # an unlimited bandwidth (inf) is 0.0

    def to_si(self, x: float) -> float:
        if self.inverse:
            return math.inf if x <= 0 else 1.0 / x
        return float(x)

    def rounded(self, x: float) -> float:
        """A fitted value (fit coordinates) as profiles.yaml holds it: 3 significant figures in file units, in the
        box. What the file says is what was evaluated."""
        scale = self.field.scale
        if self.inverse:
            return 0.0 if x <= 0 else 1.0 / (sig3(1.0 / x / scale) * scale)
        return min(max(sig3(x / scale) * scale, self.lo), self.hi)


def _param(attr: str, lo: float, hi: float, width: float, *, inverse: bool = False) -> FitParam:
    return FitParam(FIELD[attr], lo, hi, width, inverse)


# Every profile field a fitter may free (usable_memory_fraction: speed measurements say nothing about capacity)
PARAMS = {
    p.attr: p
    for p in (
        _param("bandwidth_efficiency", 0.05, 1.0, 0.25),
        _param("kv_bandwidth_efficiency", 0.05, 1.0, 0.25),
        _param("lowbit_bandwidth_efficiency", 0.05, 1.0, 0.25),
        _param("flops_efficiency", 0.05, 1.0, 0.25),
        _param("interconnect_efficiency", 0.05, 1.0, 0.25),
        _param("per_token_overhead_s", 0.0, 20e-3, 1e-3),
        _param("per_layer_overhead_s", 0.0, 500e-6, 20e-6),
        _param("allreduce_latency_s", 0.0, 1e-3, 20e-6),
        _param("moe_layer_overhead_s", 0.0, 1e-3, 50e-6),
        _param("per_sequence_overhead_s", 0.0, 500e-6, 20e-6),
        _param("nvfp4_moe_cost_fraction", 0.2, 1.5, 0.5),
        _param("rocm_moe_cost_factor", 0.5, 3.0, 0.5),
        _param("kv_gqa_reread_fraction", 0.0, 1.0, 0.5),
        # seconds per byte: 0 = no limit (the neutral prior), 1e-12 = a 1 TB/s limit
        _param("bandwidth_limit_bytes_per_s", 0.0, 5e-12, 1e-12, inverse=True),
    )
}
PRIOR_WEIGHT = 0.01  # one prior width away costs as much as one metric of one row 10% off


def with_fitted(profile: EfficiencyProfile, values: dict[str, float]) -> EfficiencyProfile:
    """The profile with these fields set from fit coordinates."""
    return replace(profile, **{a: PARAMS[a].to_si(v) for a, v in values.items()})


# --------------------------------------------------------------------------------------------------- optimiser


def nelder_mead(f: Callable[[np.ndarray], float], x0: np.ndarray, step: float, iters: int, tol: float) -> np.ndarray:
    """Minimise f from x0 (standard reflection / expansion / contraction / shrink coefficients). Deterministic."""
    n = len(x0)
    simplex = np.vstack([x0] + [x0 + step * np.eye(n)[i] for i in range(n)])
    values = np.array([f(x) for x in simplex])
    for _ in range(iters):
        order = np.argsort(values, kind="stable")
        simplex, values = simplex[order], values[order]
        if values[-1] - values[0] <= tol * (abs(values[0]) + tol):
            break
        centroid = simplex[:-1].mean(axis=0)
        xr = centroid + (centroid - simplex[-1])
        fr = f(xr)
        if fr < values[0]:
            xe = centroid + 2.0 * (centroid - simplex[-1])
            fe = f(xe)
            simplex[-1], values[-1] = (xe, fe) if fe < fr else (xr, fr)
        elif fr < values[-2]:
            simplex[-1], values[-1] = xr, fr
        else:
            outside = fr < values[-1]  # contract towards the reflected point, else towards the worst one
            xc = centroid + 0.5 * ((xr if outside else simplex[-1]) - centroid)
            fc = f(xc)
            if fc < (fr if outside else values[-1]):
                simplex[-1], values[-1] = xc, fc
            else:
                simplex[1:] = simplex[0] + 0.5 * (simplex[1:] - simplex[0])
                values[1:] = [f(x) for x in simplex[1:]]
    return simplex[int(np.argmin(values))]


def halton(n: int, dims: int) -> np.ndarray:
    """The first n points of the Halton sequence in [0, 1)^dims (bases 2, 3, 5, ...): deterministic, well spread."""
    primes = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37][:dims]
    out = np.zeros((n, dims))
    for j, base in enumerate(primes):
        for i in range(n):
            k, f, x = i + 1, 1.0, 0.0
            while k:
                f /= base
                x += f * (k % base)
                k //= base
            out[i, j] = x
    return out


STARTS = 8  # optimiser starts besides the prior: box centre and Halton points (the landscape has several minima)
SCOUT_ITERATIONS = 60  # per dimension, for the short runs that pick the basins worth polishing
POLISHED = 2  # basins polished to convergence


def minimise_boxed(f: Callable[[np.ndarray], float], x0: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Minimise f over the box [lo, hi]: Nelder-Mead on u with x = lo + (hi - lo) (1 + sin u) / 2.

    Short runs from the prior, the box centre and Halton points scout the basins (the landscape has several
    minima: e.g. a bandwidth limit against a lower efficiency); the best POLISHED are then run to convergence,
    restarted from their best point until a restart no longer helps (a collapsed simplex is the usual failure of
    Nelder-Mead). The lowest end point wins; ties go to the earlier start. Deterministic."""
    span = hi - lo
    n = len(x0)

    def to_x(u):
        return lo + span * (1.0 + np.sin(u)) / 2.0

    def to_u(x):
        inner = np.clip(x, lo + 1e-3 * span, hi - 1e-3 * span)  # off the bounds, where dx/du vanishes
        return np.arcsin(2.0 * (inner - lo) / span - 1.0)

    def g(u):
        return f(to_x(u))

    starts = [x0, lo + 0.5 * span, *(lo + span * halton(STARTS - 1, n))]
    scouted = []
    for i, start in enumerate(starts):
        u = nelder_mead(g, to_u(start), step=0.3, iters=SCOUT_ITERATIONS * n, tol=1e-6)
        scouted.append((g(u), i, u))
    scouted.sort(key=lambda t: (t[0], t[1]))
    best_u, best = None, math.inf
    for value, _, u in scouted[:POLISHED]:
        for _ in range(8):
            u_new = nelder_mead(g, u, step=0.3, iters=400 * n, tol=1e-12)
            f_new = g(u_new)
            improved = f_new < value - 1e-12 * max(abs(value), 1.0)
            if f_new < value:
                u, value = u_new, f_new
            if not improved:
                break
        if value < best:
            best_u, best = u, value
    return to_x(best_u)
