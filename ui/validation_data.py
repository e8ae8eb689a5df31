"""The validation page's data: the leave-one-hardware-out table, built from the committed file (ui.cache holds it
once per process), and its column settings.

``tpot_model.calibration.validation_table`` refits every engine profile once per hardware device left out (seconds of
CPU); the result depends only on data/measurements.csv and data/profiles.yaml, so ``calibrate`` writes it beside
them (data/validation_table.json, checked current by the tests) and the page reads that file.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tpot_model import calibration, load_hardware_catalog, load_profiles, mlperf
from tpot_model.profiles import PROFILES_PATH

from . import fmt
from .fmt import source_url
from .i18n import Translator


def build_table(records: list[dict] | None = None) -> pd.DataFrame:
    """validation_table() records (default: the committed data/validation_table.json) as a frame, plus the catalog
    hardware name, the engine profile's name and the source link."""
    if records is None:
        records = calibration.read_validation_table(PROFILES_PATH.with_name(calibration.VALIDATION_TABLE_NAME))
    profiles = load_profiles(PROFILES_PATH)
    table = pd.DataFrame(records)
    hardware = load_hardware_catalog()
    table["hardware_name"] = [
        hardware[h].name if h in hardware else n for h, n in zip(table["hardware_id"], table["hardware"], strict=True)
    ]
    table["engine_name"] = [
        profiles[p].name if p in profiles else e for p, e in zip(table["profile"], table["engine"], strict=True)
    ]
    table["source_url"] = [source_url(s) for s in table["source"]]
    return table


def column_config(tr: Translator) -> dict:
    """st.dataframe column settings for the error table (figures.validation.error_table's translated headers)."""
    pct = "%+.1f%%"
    return {
        tr("val_col_measured"): st.column_config.NumberColumn(format="%.4g"),
        tr("val_col_loho"): st.column_config.NumberColumn(format="%.4g"),
        tr("val_col_loho_error"): st.column_config.NumberColumn(format=pct),
        tr("val_col_fitted_error"): st.column_config.NumberColumn(format=pct),
        tr("val_col_ideal"): st.column_config.NumberColumn(format="%.4g"),
        tr("val_col_ideal_error"): st.column_config.NumberColumn(format=pct),
        tr("val_col_notes"): st.column_config.TextColumn(width="large"),
        tr("val_col_mapping"): st.column_config.TextColumn(width="large"),
        tr("val_col_url"): st.column_config.LinkColumn(width="medium"),
    }


def mlperf_frame() -> pd.DataFrame:
    """Every MLPerf fit row (data/mlperf.csv) with the committed predictions (data/mlperf_predictions.json, written by
    calibrate): chip, family, model, round, engine, scenario, measured and predicted TPOT (ms; with the written
    profiles and leave-one-chip-family-out), their errors, output tokens/s per GPU and the source."""
    rows = mlperf.load_mlperf()
    records = mlperf.read_table(PROFILES_PATH.with_name(mlperf.MLPERF_TABLE_NAME), rows)
    by_row = {x["row"]: x for x in records}
    out = []
    for r in rows:
        if not r.fitted:
            continue
        x = by_row[r.index]
        f = r.fields
        out.append(
            {
                "row": r.index,  # the row of data/mlperf.csv (MLPerfResult.index)
                "round": r.round,
                "submitter": f["submitter"],
                "system": f["system_name"],
                "hardware_id": r.hardware_id,
                "hardware_name": r.hardware.name,
                "hardware_short": fmt.chip_short(r.hardware),  # a chart's axis label ('GB200 NVL72')
                "family": r.family,
                "model": r.model.id,
                "benchmark": f["benchmark"],
                "scenario": f["scenario"],
                "engine": r.profile,
                "weights": f["weights"],
                "tensor_parallel": int(float(f["tensor_parallel"])),
                "concurrency": float(r.scenario.batch),
                "measured_tpot_ms": r.tpot_s * 1e3,
                "predicted_tpot_ms": x["predicted_tpot_s"] * 1e3,
                "locfo_tpot_ms": x["locfo_tpot_s"] * 1e3,
                "error": x["predicted_tpot_s"] / r.tpot_s - 1.0,
                "locfo_error": x["locfo_tpot_s"] / r.tpot_s - 1.0,
                "measured_tokens_per_s_per_gpu": r.output_tokens_per_s_per_gpu,
                "predicted_tokens_per_s_per_gpu": x["predicted_output_tokens_per_s_per_gpu"],
                "mapping_notes": f["mapping_notes"],
                "source": f["source"],
            }
        )
    return pd.DataFrame(out)
