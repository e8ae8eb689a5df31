"""Shared fixtures. AppTest + a folder named pages/ + st.navigation: keep AppTest on the st.navigation path
(streamlit-notes.md section 2: AppTest otherwise re-detects pages/ and drops the entrypoint's sidebar widgets)."""

import os

import pytest

os.environ.setdefault(
    "TPOT_VALIDATE_FIGURES", "1"
)  # Plotly checks every figure property in the tests (ui.figures.common)


@pytest.fixture(autouse=True)
def _v2_navigation_only(monkeypatch):
    import streamlit.testing.v1.app_test as app_test_mod
    from streamlit.runtime.pages_manager import PagesManager

    class V2PagesManager(PagesManager):
        def __init__(self, *a, **k):
            PagesManager.uses_pages_directory = False
            super().__init__(*a, **k)

    monkeypatch.setattr(app_test_mod, "PagesManager", V2PagesManager)
