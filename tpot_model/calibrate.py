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

from . import calibration, serving_calibration
from .engines import CHECKS
from .files import CatalogError
from .profile_file import profile_block, profiles_from_text, render_profiles, write_profiles
from .profiles import FIELDS, PROFILES_PATH, load_profiles


def _blocks(batch1: dict, serving: dict) -> dict[str, str]:
    """The profiles.yaml text of every fitted engine (batch-1 fits first, then serving fits, each by id)."""
    both = sorted(set(batch1) & set(serving))
    if both:
        raise CatalogError(f"profiles: {both[0]!r} has both batch-1 and serving fits (one source per engine)")
    out = {pid: profile_block(pid, rep.profile, calibration.field_reasons(rep)) for pid, rep in batch1.items()}
    for pid, rep in serving.items():
        notes = [serving_calibration.history_reason(rep)] if rep.profile.history else []
        notes += [CHECKS[pid]] if pid in CHECKS else []  # its other fields are still documented values
        out[pid] = profile_block(pid, rep.profile, serving_calibration.field_reasons(rep, pid), notes)
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
    parser.add_argument("--profiles", default=str(PROFILES_PATH), metavar="PATH", help="profiles YAML to update")
    parser.add_argument("--dry-run", action="store_true", help="print the results, write nothing")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        rows = calibration.load_measurements(args.measurements)
        serving_rows = serving_calibration.load_serving_measurements(args.serving)
        path = Path(args.profiles)
        load_profiles.cache_clear()
        profiles = load_profiles(path)
        reports, cv = calibration.calibrate(rows, profiles)
        serving, serving_cv, serving_base = serving_calibration.serving_calibrate(serving_rows, profiles["typical"])
        text = render_profiles(path.read_text(encoding="utf-8"), _blocks(reports, serving), profiles["typical"])
        check = profiles_from_text(text, str(path))
    except (CatalogError, ValueError, OSError) as e:
        print(f"error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    written = {pid: rep.profile for pid, rep in reports.items()} | {pid: rep.profile for pid, rep in serving.items()}
    for pid, prof in written.items():  # what the file says is what was evaluated
        same = all(math.isclose(getattr(check[pid], f.attr), getattr(prof, f.attr), rel_tol=1e-9) for f in FIELDS)
        if not same or check[pid].history != prof.history:
            raise RuntimeError(f"profiles.yaml text for {pid!r} does not round-trip")
    print(calibration.format_report(rows, reports, cv, args.measurements))
    print("")
    print(serving_calibration.format_serving_report(serving_rows, serving, serving_cv, args.serving, serving_base))
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
    print(f"\nwrote {path}, {table_path} and {loho_path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
