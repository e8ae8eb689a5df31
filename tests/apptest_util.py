"""Run the app (entry point + one page) headless with AppTest, optionally from URL query parameters."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

from ui import chart

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")


def run_page(page: str, *, embedded: bool = False, **query: str) -> AppTest:
    """AppTest of app.py showing pages/<page>.py, with the given URL query parameters; `embedded`: as in a wiki's
    iframe (?embed=true: st.context.is_embedded)."""
    at = AppTest.from_file(APP, default_timeout=60)
    if query:
        at.query_params.update(query)
    if embedded:
        at.context["is_embedded"] = True
    at.run()
    if page != "overview":
        at.switch_page(f"pages/{page}.py").run()
    return at


def figures(at: AppTest) -> list[dict]:
    """The Plotly figures drawn (by ui.chart.figure's chart component), as JSON dicts."""
    charts = [el.proto for el in at.get("bidi_component") if el.proto.component_name == chart.CHART_COMPONENT]
    return [json.loads(c.bytes)["figure"] for c in charts if c.bytes]


def decode(v) -> np.ndarray:
    """Plotly >= 6 serialises numpy arrays as base64 typed arrays."""
    if isinstance(v, dict) and "bdata" in v:
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"])
    return np.asarray(v)
