"""Headline numbers side by side: one row in which every number has the same width and the row wraps where the frame
is narrow. Labels and notes are never cut short (st.columns cut them at 900 px, in zh-TW most) and numbers line up
from row to row.

In the full view a number is an st.metric (its definition in a help popover). In the embed view (a wiki's frame,
where fifty readers may open one link at once) the whole row is one element, drawn as st.metric draws: each
st.metric is a message every reader's session serializes and sends (about 0.5 ms of server time a number, measured
with fifty readers), and a wiki reader does not open popovers: the definition is the label's hover text, and the
page's "how is each number computed" section gives the formulas."""

from __future__ import annotations

import math
import re
from html import escape

import streamlit as st

from . import embed, fmt

# three to a row in a 900 px embed frame (740 px of content), four in 940 px (a 1400 px window beside the sidebar);
# wide enough for "80% band 2,164 tok/s–3,713 tok/s" and for the longest zh-TW label beside its help icon
WIDTH_PX = 220
# for labels of about 40 characters ('Fewest GPUs meeting the target at batch 64'): two to a row at 900 px
WIDE_PX = 340
GAP_PX = 16  # between numbers (1rem)

# st.metric's look (Streamlit 1.67's light theme, measured in Chromium): label 14 px, value 36 px, the note a pill
_GREY_TEXT = "#686255"
_NOTE_COLOURS = {  # delta_color -> (text, background)
    "green": ("rgb(12, 90, 68)", "rgb(241, 251, 246)"),
    "red": ("rgb(158, 48, 59)", "rgb(255, 241, 242)"),
    "grey": (_GREY_TEXT, "#f5f4f2"),
}
_DELTA_COLOUR = {"normal": "green", "inverse": "red", "green": "green", "red": "red"}  # all others: grey
_MARKUP = re.compile(r"\*\*|`|\\(?=[$*_\[\]])")  # bold, code and escapes: a hover text is plain


class Row:
    """A row of headline numbers, drawn when its block ends (``with Row() as row: row.metric(...)``); `metric` takes
    st.metric's arguments and `greyed` (a what-if value, in grey). `wide`: every number of the row at WIDE_PX."""

    def __init__(self, *, wide: bool = False) -> None:
        self._width = WIDE_PX if wide else WIDTH_PX
        self._cells: list[str] | None = [] if embed.embedded() else None
        self._box = None if self._cells is not None else st.container(horizontal=True, gap="small")

    def __enter__(self) -> Row:
        return self

    def __exit__(self, kind, *_) -> None:
        if kind is None and self._cells:
            st.markdown(_grid(self._cells, self._width), unsafe_allow_html=True)

    def metric(self, label: str, value: str, delta: str | None = None, *, greyed: bool = False, **kwargs) -> None:
        if self._cells is None:
            shown = ":gray[" + value.replace("$", "\\$") + "]" if greyed else value  # markdown: $ is not LaTeX
            self._box.metric(label, shown, delta, width=self._width, **kwargs)
        else:
            self._cells.append(_cell(label, value, greyed, self._width, delta=delta, **kwargs))


def per_row(n: int, fit: int) -> int:
    """Numbers a row for a row of `n` where `fit` fit side by side: the most that divide them evenly (4: 2 + 2, not
    3 + 1; 8: 4 + 4, not 5 + 3, or 2 + 2 + 2 + 2 where three fit), where that is more than half of what fits; else
    as few rows as hold them, as full as one another (5 where 3 or 4 fit: 3 + 2)."""
    fit = max(1, min(fit, n))
    even = max(k for k in range(1, fit + 1) if n % k == 0)
    return even if 2 * even > fit else math.ceil(n / math.ceil(n / fit))


def _grid(cells: list[str], width_px: int) -> str:
    """The embed view's row: a grid of `cells` in columns of `width_px`, as many a row as per_row gives for the
    frame's width (a container query a count: the frame's width is the reader's), so the rows come out even."""
    n, name = len(cells), f"headline-grid-{len(cells)}-{width_px}"
    # the columns in the style sheet, not the element's style (which would win over every query)
    rules = f".{name}{{display:grid;gap:{GAP_PX}px;grid-template-columns:{width_px}px}}" + "".join(
        f"@container (min-width:{fit * width_px + (fit - 1) * GAP_PX}px){{.{name}{{grid-template-columns:"
        f"repeat({per_row(n, fit)},{width_px}px)}}}}"
        for fit in range(2, n + 1)
    )
    return (f'<div class="headline-row" style="container-type:inline-size;margin-bottom:1rem"><style>{rules}</style>'
            f'<div class="{name}">{"".join(cells)}</div></div>')  # fmt: skip


def _cell(label: str, value: str, greyed: bool, width_px: int, *, help: str | None = None, delta: str | None = None,
          delta_color: str = "normal", delta_description: str | None = None, border: bool = False, **_) -> str:  # fmt: skip
    """One number as HTML: label (its definition on hover), value, and the note under it as st.metric shows a delta
    (a pill, without an arrow). Every text escaped; no blank line (it would end the HTML block in markdown)."""
    hover = f' title="{_plain(help)}" style="cursor:help;text-decoration:underline dotted"' if help else ""
    value_colour = f";color:{_GREY_TEXT}" if greyed else ""
    note = ""
    if delta:
        text, background = _NOTE_COLOURS[_DELTA_COLOUR.get(delta_color, "grey")]
        note = (f'<div style="margin-top:2px"><span style="font-size:14px;color:{text};background:{background};'
                f'border-radius:0.75rem;padding:2px 6px;display:inline-block">{_plain(delta)}</span>'
                + (f' <span style="font-size:14px;color:{_GREY_TEXT}">{_plain(delta_description)}</span>'
                   if delta_description else "") + "</div>")  # fmt: skip
    frame = ";border:1px solid rgba(49, 51, 63, 0.2);border-radius:0.5rem;padding:1rem" if border else ""
    return (f'<div class="headline-number" style="width:{width_px}px;box-sizing:border-box{frame}">'
            f'<div style="font-size:14px;line-height:1.6"><span{hover}>{_plain(label)}</span></div>'
            f'<div style="font-size:36px;line-height:1.4;padding-bottom:4px{value_colour}">{_plain(value)}</div>'
            f"{note}</div>")  # fmt: skip


def _plain(markdown: str) -> str:
    """A label, value or note as HTML text: st.metric's markdown markup (bold, code, escapes) dropped, escaped."""
    return escape(_MARKUP.sub("", markdown))


def note(text: str) -> dict:
    """Row.metric's keyword arguments for a grey note under the value, without an arrow (a band, 'if it fitted', why
    a number is missing)."""
    return {"delta": text, "delta_color": "off", "delta_arrow": "off"}


def noted(kwargs: dict, text: str | None) -> dict:
    """Row.metric's keyword arguments with `text` in its grey note, after the note it has ('if it fitted · board
    power estimated'); as given where `text` is empty."""
    if not text:
        return kwargs
    return {**kwargs, **note(f"{kwargs['delta']} · {text}" if kwargs.get("delta") else text)}


def missing(why: str) -> dict:
    """Row.metric's value and note for a number that cannot be computed: a dash, and why under it in grey (as the
    value, 'No public price' was cut to 'No public pr…')."""
    return {"value": "—", **note(why)}


def dollars(usd: float, *, reached: bool, unpriced: str) -> dict:
    """Row.metric's value (and note) for a $ figure: '—' where no point is reached, a dash with `unpriced` under it
    where the chip has no price (`usd` not finite), else fmt.usd's dollars, 3 significant figures as on Cost ('$0.115';
    to the cent, '$0.11', it had hidden up to ±8 % between chips)."""
    if not reached:
        return {"value": "—"}
    return {"value": fmt.usd(usd)} if math.isfinite(usd) else missing(unpriced)
