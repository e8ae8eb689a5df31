"""Cached catalog loading for the app: read once per process, shared by every session (the objects are frozen)."""

from __future__ import annotations

import streamlit as st

from tpot_model import load_hardware_catalog, load_model_catalog, load_profiles


@st.cache_resource(show_spinner=False)
def hardware() -> dict:
    return load_hardware_catalog()


@st.cache_resource(show_spinner=False)
def models() -> dict:
    return load_model_catalog()


@st.cache_resource(show_spinner=False)
def profiles() -> dict:
    return load_profiles()
