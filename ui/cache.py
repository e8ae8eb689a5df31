"""Results worth keeping between reruns: keyed by the scenario's URL form (what they depend on), shared read-only."""

from __future__ import annotations

import json

import streamlit as st

from tpot_model import planner

from . import uploads
from .state import ScenarioState


def scenario_key(state: ScenarioState, *ignored: str) -> str:
    """The scenario as a stable string, custom uploads included, without the fields a result does not depend on."""
    query = {**state.to_query(), **uploads.url_params(state)}
    return json.dumps({k: v for k, v in query.items() if k not in ignored}, sort_keys=True)


@st.cache_resource(max_entries=64, show_spinner=False)
def planner_cost_grid(key: str, _model, _hardware, _scenario, _profile, **options):
    """planner.cost_grid, once per scenario (it does not depend on the sidebar batch) and options."""
    return planner.cost_grid(_model, _hardware, _scenario, _profile, **options)


@st.cache_resource(max_entries=256, show_spinner=False)
def built(key: str, _build):
    """_build(), once per server for each key: for figures and tables that depend on nothing the key leaves out
    (not on the sidebar's scenario), so a slider change does not rebuild them. Shared read-only."""
    return _build()
