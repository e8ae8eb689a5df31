"""The validation page's data: the leave-one-hardware-out table, built from the committed file (ui.cache holds it
once per process), and its column settings.

``tpot_model.calibration.validation_table`` refits every engine profile once per hardware device left out (seconds of
CPU); the result depends only on data/measurements.csv and data/profiles.yaml, so ``calibrate`` writes it beside
them (data/validation_table.json, checked current by the tests) and the page reads that file.
"""

from __future__ import annotations

import re

import pandas as pd
import streamlit as st

from tpot_model import calibration, load_hardware_catalog, load_profiles

from .i18n import Translator

_URL = re.compile(r"https?://[^\s()]+")
_ARXIV = re.compile(r"arXiv:\s*(\d{4}\.\d{4,5})", re.IGNORECASE)


def source_url(source: str) -> str:
    """The link in a source citation: its first URL, or the arXiv abstract page it cites; '' if neither."""
    m = _URL.search(source)
    if m:
        return m.group(0).rstrip(".,;")
    m = _ARXIV.search(source)
    return f"https://arxiv.org/abs/{m.group(1)}" if m else ""


def build_table(records: list[dict] | None = None) -> pd.DataFrame:
    """validation_table() records (default: the committed data/validation_table.json) as a frame, plus the catalog
    hardware name, the engine profile's name and the source link."""
    if records is None:
        records = calibration.read_validation_table(
            calibration.PROFILES_PATH.with_name(calibration.VALIDATION_TABLE_NAME)
        )
    profiles = load_profiles(calibration.PROFILES_PATH)
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
