"""Every cached loader and result of the app, shared read-only by every session: the catalogs and the committed
validation and serving tables (read once per process), and results worth keeping between reruns (keyed by the
scenario's URL form, what they depend on)."""

from __future__ import annotations

import functools
import gc
import json
import math
import threading
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import TypeVar

import numpy as np
import pandas as pd
import pyarrow as pa
import streamlit as st
from pandas.io.formats.style import Styler

from tpot_model import (
    disaggregated,
    fleet,
    load_hardware_catalog,
    load_model_catalog,
    load_profiles,
    mlperf,
    planner,
    pool_correction,
    serving_calibration,
)
from tpot_model import estimate as model_estimate
from tpot_model.bands import load_bands
from tpot_model.files import DATA_DIR

from . import fmt, uploads
from .figures import validation as validation_figs
from .figures.common import VALIDATE, round_significant
from .state import CUSTOM_ID, ScenarioState
from .validation_data import build_table, mlperf_frame

T = TypeVar("T")

# ------------------------------------------------------------------------------------------ catalogs and tables


def _once(load: Callable[[], T]) -> Callable[[], T]:
    """load(), once per process: the first caller loads it while any other waits, then every call returns it (a
    Streamlit cache lookup costs ~0.1 ms a call, and every reader's run asks for the catalogs several times).
    Shared read-only, as every result here."""
    lock, box = threading.Lock(), []

    @functools.wraps(load)
    def loaded() -> T:
        if not box:
            with lock:
                if not box:
                    box.append(load())
        return box[0]

    return loaded


@_once
def hardware() -> dict:
    return load_hardware_catalog()


@_once
def models() -> dict:
    return load_model_catalog()


@_once
def profiles() -> dict:
    return load_profiles()


@_once
def validation_table() -> pd.DataFrame:
    """The validation page's leave-one-hardware-out table (validation_data.build_table of the committed file). As every
    table here: shared read-only by every session (st.cache_data would hand each call an unpickled copy: ~4 ms a
    reader), so no caller modifies it."""
    return build_table()


@_once
def validation_engine_summary() -> pd.DataFrame:
    """figures.validation.engine_summary of the cached table."""
    return validation_figs.engine_summary(validation_table())


@_once
def validation_findings() -> list[tuple[str, dict[str, str]]]:
    """figures.validation.findings from the cached table and the catalogs' fitted profiles."""
    return validation_figs.findings(validation_table(), profiles(), models(), hardware())


@_once
def mlperf_table() -> pd.DataFrame:
    """Every MLPerf result the model is compared with, with the committed predictions (validation_data.mlperf_frame;
    calibrate writes them, ~10 s of CPU)."""
    return mlperf_frame()


@_once
def mlperf_results() -> list:
    """Every row of data/mlperf.csv resolved against the catalogs (tpot_model.mlperf.load_mlperf), shared read-only:
    the Serving frontier and Hardware pages draw the measured results beside the model."""
    return mlperf.load_mlperf()


@_once
def calibration_bands() -> dict:
    """data/bands.json as calibrate wrote it (tpot_model.bands.load_bands): the bands' levels, coverage, residuals."""
    return load_bands()


@_once
def serving_measurements():
    """The measured serving points (data/serving_measurements.csv)."""
    return serving_calibration.load_serving_measurements()


@_once
def serving_loho():
    """The committed leave-one-hardware-out serving predictions (calibrate writes them; refitting takes ~1 s)."""
    path = DATA_DIR / serving_calibration.SERVING_LOHO_NAME
    return serving_calibration.read_serving_loho(path, serving_measurements())


@_once
def decode_reach() -> dict:
    """How far the measured disaggregated recipes go: the most decode sequences per GPU by (model, worker layout,
    GPUs per worker) (tpot_model.disaggregated.decode_reach of the serving measurements)."""
    return disaggregated.decode_reach(serving_measurements())


def disaggregated_check() -> dict:
    """data/disaggregated_check.json as calibrate wrote it: how far each pool of the disaggregated runs is off, and
    the frontier check ({} when absent); read once per process, by the model's reader (the layout search uses it)."""
    return pool_correction.committed_check()


@st.cache_resource(show_spinner=False, max_entries=64)
def mtp_check(k: int, acceptance: float):
    """(|error| summary, median signed error) of the MTP switch's TPOT on the measured single-node MTP runs at k
    drafts and this acceptance (serving_calibration.mtp_check, ~1 s)."""
    return serving_calibration.mtp_check(serving_measurements(), int(k), float(acceptance))


# ------------------------------------------------------------------------------------------ results per scenario


def scenario_key(state: ScenarioState, *ignored: str) -> str:
    """The scenario as a stable string, custom uploads included, without the fields a result does not depend on."""
    if CUSTOM_ID in (state.model, state.hardware):  # the session's uploaded spec is part of it
        query = {**state.to_query(), **uploads.url_params(state)}
        return json.dumps({k: v for k, v in query.items() if k not in ignored}, sort_keys=True)
    return _catalog_scenario_key(state, ignored)


@functools.lru_cache(maxsize=1024)
def _catalog_scenario_key(state: ScenarioState, ignored: tuple[str, ...]) -> str:
    """scenario_key of a scenario of catalog entries only: it depends on the state alone (a page asks for it a few
    times a run, and every reader of a link for the same one)."""
    return json.dumps({k: v for k, v in state.to_query().items() if k not in ignored}, sort_keys=True)


# The cached functions below are called with keyword arguments by the plain functions of the same name: for each
# positional argument of a cached call, Streamlit works out the function's signature again (inspect.signature; a
# third of a cache hit's time: ~0.1 ms per argument), and a page looks up a dozen results per run.


def estimate(key: str, _model, _hardware, _scenario, _profile):
    """tpot_model.estimate, once per server for each key (controls.evaluate's: the scenario's URL form with uploads,
    the profile, the overrides): the readers of one link share one result. Shared read-only. `_scenario`: the
    Scenario, or a function making it (made only when the key is new)."""
    return _estimate(key=key, _model=_model, _hardware=_hardware, _scenario=_scenario, _profile=_profile)


@st.cache_resource(max_entries=512, show_spinner=False)
def _estimate(key: str, _model, _hardware, _scenario, _profile):
    return model_estimate(_model, _hardware, _scenario() if callable(_scenario) else _scenario, _profile)


def planner_frontier(
    key: str, _model, _hardware, _scenario, _profile, tpot_target_s: float, ttft_target_s: float | None = None
):
    """planner.frontier (the best batch at a TPOT target, and TTFT target if given), once per server for each
    scenario without its batch (`key`: it searches every batch; the scenario's batching is part of the key) and
    targets: a batch change does not search again, and every reader of a link shares one search."""
    return _planner_frontier(
        key=f"{key}|{_scenario.batching}",
        _model=_model,
        _hardware=_hardware,
        _scenario=_scenario,
        _profile=_profile,
        tpot_target_s=tpot_target_s,
        ttft_target_s=ttft_target_s,
    )


@st.cache_resource(max_entries=256, show_spinner=False)
def _planner_frontier(key: str, _model, _hardware, _scenario, _profile, tpot_target_s: float, ttft_target_s):
    return planner.frontier(_model, _hardware, _scenario, _profile, tpot_target_s, ttft_target_s)


def fleets(key: str, _model, _hardware: list, _scenario, _profile, _demand, tpot_target_s: float,
           price_applies_to: str, max_gpus: int | None = None, whole_domains: bool = False) -> list:  # fmt: skip
    """tpot_model.fleet.fleets (each chip's fleet for a demand at a TPOT target, one's own price the chip
    price_applies_to's alone; max_gpus: the layout search's budget; whole_domains: costed as bought), once per server
    for each key (the scenario without its batch, the chips, the demand, the budget and the costing): every reader of
    an Economics link shares one search."""
    return _fleets(key=key, _model=_model, _hardware=_hardware, _scenario=_scenario, _profile=_profile,
                   _demand=_demand, tpot_target_s=tpot_target_s, price_applies_to=price_applies_to,
                   max_gpus=max_gpus, whole_domains=whole_domains)  # fmt: skip


@st.cache_resource(max_entries=64, show_spinner=False)
def _fleets(key: str, _model, _hardware, _scenario, _profile, _demand, tpot_target_s: float,
            price_applies_to: str, max_gpus: int | None, whole_domains: bool) -> list:  # fmt: skip
    return fleet.fleets(_model, _hardware, _scenario, _profile, _demand, tpot_target_s,
                        price_applies_to=price_applies_to, max_gpus=max_gpus, whole_domains=whole_domains)  # fmt: skip


@st.cache_resource(max_entries=64, show_spinner=False)
def planner_cost_grid(key: str, _model, _hardware, _scenario, _profile, **options):
    """planner.cost_grid, once per scenario (it does not depend on the sidebar batch) and options."""
    return planner.cost_grid(_model, _hardware, _scenario, _profile, **options)


def built(key: str, _build):
    """_build(), once per server for each key: for figures and tables that depend on nothing the key leaves out
    (not on the sidebar's scenario), so a slider change does not rebuild them. Shared read-only."""
    return _built(key=key, _build=_build)


@st.cache_resource(max_entries=256, show_spinner=False)
def _built(key: str, _build):
    return _build()


def replayed_table(key: str, _build) -> None:
    """st.table(_build()) (a pandas DataFrame or Styler), built and marshalled once per server for each key (everything
    the table shows, the language included) and replayed to every later run from Streamlit's recorded message: a
    Styler's st.table costs a run ~5 ms to build and marshal, the replay a tenth of that. With VALIDATE (the tests)
    the table is built again and must match the one replayed: a key that misses an input would show one reader
    another's table."""
    shown = _replayed_table(key=key, _build=_build)
    if VALIDATE:
        fresh = _html(_build())
        assert fresh == shown, f"replayed table {key!r} differs from a fresh build"


def _html(table) -> str:
    """The table's cells and styles as HTML (a Styler under a fixed id: its own is random)."""
    return table.set_uuid("t").to_html() if hasattr(table, "set_uuid") else table.to_html()


@st.cache_resource(max_entries=256, show_spinner=False)
def _replayed_table(key: str, _build) -> str:
    table = _build()
    st.table(table)
    return _html(table)


def arrow_table(key: str, _build) -> pa.Table:
    """The display table `_build()` (a pandas DataFrame) as Arrow, once per server for each key (as `built`): the
    form st.dataframe sends. Given pandas, st.dataframe converts it on every call (1-2 ms for a ten-row table; an
    Arrow table 0.25 ms): for tables every reader of a scenario is shown."""
    return built(key, lambda: pa.Table.from_pandas(_build(), preserve_index=False))


def numeric_columns(table: pa.Table) -> list[str]:
    """The names of an Arrow table's number columns."""
    return [f.name for f in table.schema if pa.types.is_integer(f.type) or pa.types.is_floating(f.type)]


def display_numbers(
    table: pd.DataFrame,
    *,
    lo: int | Mapping[str, int] = 0,
    dollars: Collection[str] = (),
    marked: Mapping[str, Sequence[bool]] | None = None,
    mark: Callable[[str], str] = str,
) -> tuple[Styler, dict]:
    """(table, st.dataframe column_config) for showing a table's float columns: each with one count of decimals
    down the column (fmt.column_decimals, at least `lo`, or `lo[column]` where given per column); a column that needs
    none (its largest value from 100 on) at 3 significant figures ('1,200', '12.4', '6.83': shown whole, they had
    read '12.37' and '6.826' beside '1,200'), each written with them (fmt.figures, as the labels beside a table read
    them: '75.0' beside '66.3', where the locale's format had dropped the zero, '75'); the `dollars` columns as every
    other $ figure (fmt.usd: '$1.55', '$0.687'). A Styler over the numbers: its text shown, the column sorted as
    numbers (a column's own format would override the text: such a column has none). `marked`: per column, the rows
    whose text `mark` rewrites (Hardware's datasheet: fmt.estimate's '27.2 (estimate)'); such a column is written by
    the Styler whatever its decimals (a whole-number one with thousands separated), still sorted as numbers."""
    marked = marked or {}
    out, config, texts = table.copy(), {}, {}
    for c in table.columns:
        kind = table[c].dtype.kind
        if c in dollars:
            texts[c], config[c] = fmt.usd, st.column_config.NumberColumn()
            continue
        if kind in "iu" and c in marked:
            texts[c], config[c] = fmt.integer, st.column_config.NumberColumn()
        if kind != "f":
            continue
        values = table[c].to_numpy()
        d = fmt.column_decimals(values, lo=lo.get(c, 0) if isinstance(lo, Mapping) else lo)
        if d == 0:
            out[c] = round_significant(values, 3)
            texts[c], config[c] = fmt.figures, st.column_config.NumberColumn()
            continue
        if np.nanmax(np.abs(values), initial=0.0) >= 1000:  # whole, with separators: '239,662' not '239662.2'
            d, out[c] = 0, np.round(values)
        if c in marked:  # the Styler's text, at the decimals the column's format would have given
            texts[c], config[c] = functools.partial(fmt.fixed, decimals=d), st.column_config.NumberColumn()
        else:
            config[c] = st.column_config.NumberColumn(format="localized" if d == 0 else f"%.{d}f")
    # a missing cell: no text of the Styler's ('nan', 'None'), so the page's placeholder shows
    styler = out.style.format(na_rep="").format(texts, na_rep="")
    for c, rows in marked.items():
        rows = np.asarray(rows, dtype=bool)
        styler = styler.format(lambda v, text=texts[c]: mark(text(v)), subset=(out.index[rows], [c]), na_rep="")
        # as wide as its longest text: sized by its first rows, '1,000 (estimate)' had been cut to 'estimate)'
        cells = [mark(texts[c](v)) if m else texts[c](v) for v, m in zip(out[c], rows, strict=True) if pd.notna(v)]
        config[c] = st.column_config.NumberColumn(width=column_width([str(c), *cells]))
    return styler, config


# a table cell's Latin glyph (st.dataframe's 14 px font, generous: ~6.3 px measured) and its padding with the
# header's menu, px
CELL_CHAR_PX, CELL_PAD_PX = 7.0, 24.0


def column_width(texts: Iterable[str]) -> int:
    """An st.dataframe column's width (px) that shows the longest of `texts` (its header among them) whole: the grid
    sizes a column by its first rows and cuts the longer texts below them."""
    return int(math.ceil(max((fmt.text_px(t, CELL_CHAR_PX) for t in texts), default=0.0) + CELL_PAD_PX))


@_once
def freeze_startup() -> None:
    """Once per server process, after its first page run: every object alive then (Streamlit, plotly, pandas and
    the model's modules, the catalogs, the strings) moved out of the garbage collector's reach (gc.freeze), so its
    full collections walk only what sessions make. Fifty readers of one link had paused for five full collections
    of 75-130 ms each (about 6 ms a reader); they now take 30-45 ms, over the sessions' own objects. The frozen
    objects are those a server keeps anyway, and one session's."""
    gc.collect()
    gc.freeze()
