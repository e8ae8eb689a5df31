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


def warning_lines(at: AppTest) -> list[str]:
    """Every warning's text, the link's notices line by line (ui.notices.url_notices lists several as bullets under
    one lead line, which is left out)."""
    out = []
    for w in at.warning:
        lead, _, items = w.value.partition("\n\n- ")
        out += [lead] if not items else items.split("\n- ")
    return out


def figures(at: AppTest) -> list[dict]:
    """The Plotly figures drawn (by ui.chart.figure's chart component), as JSON dicts."""
    charts = [el.proto for el in at.get("bidi_component") if el.proto.component_name == chart.CHART_COMPONENT]
    return [json.loads(c.bytes)["figure"] for c in charts if c.bytes]


def chart_texts(at: AppTest) -> list[str]:
    """Every chart's title and axis titles."""
    out = []
    for f in figures(at):
        layout = f["layout"]
        out += [layout.get(k, {}).get("title", {}).get("text", "") for k in ("xaxis", "yaxis")]
        out.append(layout.get("title", {}).get("text", ""))
    return out


def decode(v) -> np.ndarray:
    """Plotly >= 6 serialises numpy arrays as base64 typed arrays."""
    if isinstance(v, dict) and "bdata" in v:
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"])
    return np.asarray(v)


def visible_texts(at: AppTest) -> list[str]:
    """Every text a reader sees on the page and in the sidebar (not the options of a selectbox): markdown, captions,
    notices, headers, metrics (label, value, help), buttons, expanders, widget labels and helps, input placeholders,
    table headers and row labels, and each chart's title, axis titles, annotations, trace names and hover templates."""
    out: list[str] = []
    for kind in ("markdown", "caption", "info", "warning", "error", "success", "title", "header", "subheader"):
        out += [e.value for e in getattr(at, kind)]
    for m in at.metric:
        out += [m.label, m.value, m.help or ""]
    out += [b.label for b in at.button] + [e.label for e in at.expander]
    for root in (at, at.sidebar):
        for kind in ("selectbox", "slider", "select_slider", "number_input", "multiselect", "radio", "toggle"):
            for w in getattr(root, kind):
                out += [w.label, w.help or "", getattr(w.proto, "placeholder", "")]
    for d in at.dataframe:
        v = getattr(d.value, "data", d.value)
        out += [str(c) for c in v.columns] + [str(i) for i in v.index]
    for f in figures(at):
        layout = f["layout"]
        out += [layout.get("title", {}).get("text", "")]
        out += [layout.get(k, {}).get("title", {}).get("text", "") for k in ("xaxis", "yaxis", "yaxis2")]
        out += [a.get("text", "") for a in layout.get("annotations", [])]
        out += [t.get(k) for t in f["data"] for k in ("name", "hovertemplate") if isinstance(t.get(k), str)]
    return [t for t in out if t]
