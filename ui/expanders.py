"""Expanders whose content is sent only while open, and the 'how is this computed?' expander built on them."""

from __future__ import annotations

import streamlit as st

from .i18n import Translator


def lazy_expander(label: str, key: str, parent=st):
    """An expander (in `parent`) whose content is sent only while it is open (opening it reruns the page): its
    container when open, else None. Closed, it costs the browser one element, not its content (nor a table grid)."""
    box = parent.expander(label, key=key, on_change="rerun")
    return box if box.open else None


def explain(tr: Translator, title_key: str, formula: str, substituted: str, result: str, **title_values) -> None:
    """A 'how is this computed?' expander: the formula, the scenario's values substituted, the result."""
    what = tr(title_key, **title_values)
    if (box := lazy_expander(tr("how_computed", what=what), f"explain.{title_key}")) is not None:
        box.markdown(
            f"{tr('formula')}: {formula}\n\n{tr('with_values')}: {substituted}\n\n{tr('result')}: **{result}**"
        )
