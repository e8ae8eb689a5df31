"""The calibrate command: fit the engine profiles to the batch-1 measurements (calibration.py) and to the serving
runs (serving_calibration.py), print both reports, and write profiles.yaml and, beside it, the tables the Validation
and Serving frontier pages read (validation_table.json, serving_loho.json).

    python -m tpot_model calibrate [--measurements PATH] [--serving PATH] [--profiles PATH] [--dry-run]
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from . import band_fit, calibration, disaggregated, frontier_check, mlperf, pool_correction, serving_calibration
from .bands import load_bands
from .engines import CHECKS, documented_profile, documented_reason
from .files import CatalogError
from .profile_file import profile_block, profiles_from_text, render_profiles, with_typical_terms, write_profiles
from .profiles import FIELDS, PROFILES_PATH, load_profiles


def _blocks(batch1: dict, serving: dict) -> dict[str, str]:
    """The profiles.yaml text of every fitted engine (batch-1 fits first, then serving fits, each by id)."""
    both = sorted(set(batch1) & set(serving))
    if both:
        raise CatalogError(f"profiles: {both[0]!r} has both batch-1 and serving fits (one source per engine)")
    out = {
        pid: profile_block(
            pid,
            rep.profile,
            calibration.field_reasons(rep),
            [calibration.history_reason(rep)] if rep.profile.history else [],
        )
        for pid, rep in batch1.items()
    }
    for pid, rep in serving.items():
        notes = [serving_calibration.history_reason(rep)] if rep.profile.history else []
        notes += [CHECKS[pid]] if pid in CHECKS else []  # its other fields are still documented values
        out[pid] = profile_block(pid, rep.profile, serving_calibration.field_reasons(rep, pid), notes)
    return out


def _mlperf_fit(rows, batch1: dict, serving: dict, typical):
    """Fit each MLPerf engine's FLOP efficiency on top of the other fits (mlperf.py): (fit, table, profiles before,
    profiles after) with every MLPerf engine's profile as the other fits left it (documented if none)."""
    engines = sorted({r.profile for r in rows if r.fitted})
    fitted = {pid: rep.profile for pid, rep in batch1.items()} | {pid: rep.profile for pid, rep in serving.items()}
    before = {pid: fitted.get(pid) or documented_profile(pid, typical) for pid in engines}
    table = mlperf.flops_table(rows, before)
    fit = mlperf.fit_engines(rows, table)
    return fit, table, before, mlperf.with_flops(before, fit.engines)


def _mlperf_blocks(fit, after: dict, batch1: dict, serving: dict, n_rows: int, locfo_median: float) -> dict[str, str]:
    """profiles.yaml blocks of the MLPerf engines: their other fits' reasons, and the FLOP efficiency's."""
    why = (
        f"fitted to {n_rows} MLPerf Inference Server / Interactive results (data/mlperf.csv, v4.1-v5.1) as the "
        "steady state of continuous batching at the measured concurrency, as a fraction of the chip's attainable GEMM "
        f"rate (hardware.yaml attainable_*, else its family's prior); leave-one-chip-family-out TPOT median |error| of "
        f"all MLPerf engines {locfo_median:.1%}"
    )
    out = {}
    for pid in fit.engines:
        if pid in serving:
            rep = serving[pid]
            reasons = serving_calibration.field_reasons(rep, pid)
            notes = [serving_calibration.history_reason(rep)] if rep.profile.history else []
            notes += [CHECKS[pid]] if pid in CHECKS else []
        elif pid in batch1:
            reasons, notes = calibration.field_reasons(batch1[pid]), []
        else:
            fallback = "no measurements for this engine in data/measurements.csv; typical's value"
            reasons = {f.attr: documented_reason(pid, f.attr) or fallback for f in FIELDS}
            notes = [CHECKS[pid]] if pid in CHECKS else []
        out[pid] = profile_block(pid, after[pid], reasons | {mlperf.FLOPS_ATTR: why}, notes)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; 0 ok, 2 bad input."""
    parser = argparse.ArgumentParser(
        prog="python -m tpot_model calibrate",
        description="Fit each engine profile to the measurements for that engine (batch-1 decode, and serving "
        "runs: continuous batching), report fit and leave-one-hardware-out errors, and write profiles.yaml (ideal, "
        "typical, engines without data and comments kept) and, beside it, validation_table.json and "
        "serving_loho.json (what the Validation and Serving frontier pages show).",
    )
    parser.add_argument(
        "--measurements", default=str(calibration.MEASUREMENTS_PATH), metavar="PATH", help="measurements CSV"
    )
    parser.add_argument(
        "--serving",
        default=str(serving_calibration.SERVING_MEASUREMENTS_PATH),
        metavar="PATH",
        help="serving measurements CSV",
    )
    parser.add_argument("--mlperf", default=str(mlperf.MLPERF_PATH), metavar="PATH", help="MLPerf results CSV")
    parser.add_argument("--profiles", default=str(PROFILES_PATH), metavar="PATH", help="profiles YAML to update")
    parser.add_argument("--dry-run", action="store_true", help="print the results, write nothing")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        rows = calibration.load_measurements(args.measurements)
        serving_rows = serving_calibration.load_serving_measurements(args.serving)
        path = Path(args.profiles)
        load_profiles.cache_clear()
        profiles = load_profiles(path)
        serving, serving_cv, serving_base = serving_calibration.serving_calibrate(serving_rows, profiles["typical"])
        # typical's serving terms are the serving base's (independent of them): every fit below starts from it
        profiles = {**profiles, "typical": serving_calibration.with_base(profiles["typical"], serving_base)}
        reports, cv = calibration.calibrate(rows, profiles)
        mlperf_rows = mlperf.load_mlperf(args.mlperf)
        mlperf_fit, table, mlperf_before, mlperf_after = _mlperf_fit(mlperf_rows, reports, serving, profiles["typical"])
        measured = np.array([r.tpot_s for r in mlperf_rows])
        locfo = mlperf.locfo_tpot(mlperf_rows, table, mlperf_fit)
        locfo_median = float(np.nanmedian(np.abs(mlperf.errors(locfo, measured))))
        n_fit = sum(r.fitted for r in mlperf_rows)
        blocks = _blocks(reports, serving) | _mlperf_blocks(
            mlperf_fit, mlperf_after, reports, serving, n_fit, locfo_median
        )
        text = with_typical_terms(
            render_profiles(path.read_text(encoding="utf-8"), blocks, profiles["typical"]),
            profiles["typical"],
            serving_calibration.BASE_FREE,
        )
        check = profiles_from_text(text, str(path))
    except (CatalogError, ValueError, OSError) as e:
        print(f"error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    written = (
        {"typical": profiles["typical"]}
        | {pid: rep.profile for pid, rep in reports.items()}
        | {pid: rep.profile for pid, rep in serving.items()}
        | mlperf_after
    )
    for pid, prof in written.items():  # what the file says is what was evaluated
        same = all(math.isclose(getattr(check[pid], f.attr), getattr(prof, f.attr), rel_tol=1e-9) for f in FIELDS)
        if not same or check[pid].history != prof.history:
            raise RuntimeError(f"profiles.yaml text for {pid!r} does not round-trip")
    cv_family = calibration.cross_validate_families(rows, calibration.default_priors(rows, profiles))
    print(calibration.format_report(rows, reports, cv, args.measurements, cv_family))
    print("")
    print(serving_calibration.format_serving_report(serving_rows, serving, serving_cv, args.serving, serving_base))
    print("")
    before_tpot = mlperf.predict_rows(mlperf_rows, mlperf_before)[0]
    after_pred = mlperf.predict_rows(mlperf_rows, mlperf_after)
    forward = mlperf.forward_tpot(mlperf_rows, table)
    print(mlperf.format_report(mlperf_rows, before_tpot, mlperf_fit, after_pred[0], locfo, args.mlperf, forward))
    bands = band_fit.compute_bands(rows, profiles, cv, serving_rows, serving_cv, cv_family, mlperf_rows, locfo)
    print("")
    print(band_fit.format_bands(bands))
    fitted = {**profiles, **written}
    # with the profiles about to be written (profiles.yaml still holds the previous run's)
    print(serving_calibration.format_mtp_check(*serving_calibration.mtp_check(serving_rows, profiles=fitted)))
    check = disaggregated.summary(disaggregated.check(serving_rows, fitted))
    pool = lambda engine: pool_correction.PoolFit.from_summary(check, engine)  # noqa: E731
    for best in (False, True):
        points = frontier_check.check(serving_rows, fitted, pool, best=best)
        check[frontier_check.summary_key(best)] = frontier_check.summary(points, best)
    budget = frontier_check.check(serving_rows, fitted, pool, best=True, budget=frontier_check.MAX_GPUS)
    check[frontier_check.summary_key(True, budget=True)] = frontier_check.summary(budget, True, budget=True)
    check["rack_ratio"] = frontier_check.ratio_summary(frontier_check.ratio_check(serving_rows, fitted, pool))
    check["transfer"] = frontier_check.transfer_summary(serving_rows, fitted, pool)
    print("")
    print(disaggregated.format_summary(check))
    for best, budget in ((False, False), (True, False), (True, True)):
        print(frontier_check.format_summary(check[frontier_check.summary_key(best, budget)]))
    print(frontier_check.format_ratio_summary(check["rack_ratio"]))
    print(frontier_check.format_transfer(check["transfer"]))
    if args.dry_run:
        print(f"\ndry run: {path} not written")
        return 0
    write_profiles(path, text)
    written_profiles = load_profiles(path)
    table_path = path.with_name(calibration.VALIDATION_TABLE_NAME)
    loho_path = path.with_name(serving_calibration.SERVING_LOHO_NAME)
    calibration.write_validation_table(table_path, calibration.validation_table(rows, written_profiles))
    serving_calibration.write_serving_loho(
        loho_path, serving_calibration.serving_cross_validate(serving_rows, written_profiles["typical"])
    )
    mlperf_path = path.with_name(mlperf.MLPERF_TABLE_NAME)
    mlperf.write_table(mlperf_path, mlperf.table_records(mlperf_rows, after_pred, locfo))
    bands_path = path.with_name(band_fit.BANDS_NAME)
    band_fit.write_bands(bands_path, bands)
    disaggregated.write_check(path.with_name(pool_correction.CHECK_NAME), check)
    load_bands.cache_clear()
    print(f"bands: {bands_path}")
    print(f"\nwrote {path}, {table_path}, {loho_path}, {mlperf_path} and {path.with_name(pool_correction.CHECK_NAME)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
