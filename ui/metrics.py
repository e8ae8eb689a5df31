"""Headline numbers (st.metric) side by side: one container in which every number has the same width and the row
wraps where the frame is narrow. Labels and bands are never cut short (st.columns cut them at 900 px, in zh-TW
most), numbers line up from row to row, and each reader is sent one block, not a columns block and a column per
number."""

import streamlit as st

# three to a row in a 900 px embed frame (740 px of content), four in 940 px (a 1400 px window beside the sidebar);
# wide enough for "80% band 2,164 tok/s–3,713 tok/s" and for the longest zh-TW label beside its help icon
WIDTH_PX = 220
# for labels of about 40 characters ('Fewest GPUs meeting the target at batch 64'): two to a row at 900 px
WIDE_PX = 340


class Row:
    """A row of headline numbers; `metric` takes st.metric's arguments. `wide`: every number of the row at WIDE_PX."""

    def __init__(self, *, wide: bool = False) -> None:
        self._box = st.container(horizontal=True, gap="small")
        self._width = WIDE_PX if wide else WIDTH_PX

    def metric(self, label: str, *args, **kwargs) -> None:
        self._box.metric(label, *args, width=self._width, **kwargs)


def note(text: str) -> dict:
    """st.metric's keyword arguments for a grey note under the value, without an arrow (a band, 'if it fitted', why
    a number is missing)."""
    return {"delta": text, "delta_color": "off", "delta_arrow": "off"}


def missing(why: str) -> dict:
    """st.metric's value and note for a number that cannot be computed: a dash, and why under it in grey (as the
    value, 'No public price' was cut to 'No public pr…')."""
    return {"value": "—", **note(why)}
