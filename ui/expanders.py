"""Expanders whose content is sent only while open, and the 'how is this computed?' expanders built on them."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from .i18n import Translator


def lazy_expander(label: str, key: str, parent=st, *, force: bool = False):
    """An expander (in `parent`) whose content is sent only while it is open (opening it reruns the page): its
    container when open, else None. Closed, it costs the browser one element, not its content (nor a table grid).
    `force`: its content is wanted though it is closed (a chart inside it embedded alone): a container anyway."""
    box = parent.expander(label, key=key, on_change="rerun")
    return box if box.open or force else None


def _how(tr: Translator, formula: str, substituted: str, result: str) -> str:
    """The formula, the values substituted and the result, each after its label and the language's colon ('公式：')."""
    c = tr("label_colon")
    return f"{tr('formula')}{c}{formula}\n\n{tr('with_values')}{c}{substituted}\n\n{tr('result')}{c}**{result}**"


def explain(tr: Translator, title_key: str, formula: str, substituted: str, result: str, **title_values) -> None:
    """A 'how is this computed?' expander: the formula, the scenario's values substituted, the result."""
    what = tr(title_key, **title_values)
    if (box := lazy_expander(tr("how_computed", what=what), f"explain.{title_key}")) is not None:
        box.markdown(_how(tr, formula, substituted, result))


def explain_all(tr: Translator, items: Callable[[], Sequence], key: str) -> None:
    """One 'how is each number computed?' expander for a page's numbers (`items()`: ui.explain.Explanation items,
    worked out only while it is open): a table of each number's name, formula, the values substituted and the
    result. One element while closed, not one per number."""
    if (box := lazy_expander(tr("how_computed_all"), key)) is not None:
        rows = [(tr(i.key, **i.key_values), i.formula, i.substituted, f"**{i.result}**") for i in items()]
        header = (tr("how_col_number"), tr("formula"), tr("with_values"), tr("result"))
        box.markdown("\n".join(_row(r) for r in [header, ("---",) * 4, *rows]))


def _row(cells: Sequence[str]) -> str:
    """A markdown table row, each cell on one line with its pipes escaped."""
    return "| " + " | ".join(" ".join(c.split()).replace("|", "\\|") for c in cells) + " |"
