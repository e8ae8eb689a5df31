"""The embed views of a page (in a wiki's iframe): ``?embed=true`` (the page, its controls collapsed above the
content; a long page up to its fold, the rest on request or with ``&more=true``: ui.chart.fold) and
``?embed=true&only=<chart>`` (one chart alone, with its caption and a link to the full view)."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import streamlit as st

MORE_PARAM = "more"  # ?more=true: the whole page in the embed view, not only what comes before its fold
ONLY_PARAM = "only"  # ?only=<chart id>: the chart ids are the start of the download file names (ui.chart.slug)
_CHART_ID = re.compile(r"[a-z0-9-]{1,60}")
PARAMS = ("embed", "embed_options", ONLY_PARAM, MORE_PARAM)  # the embed view's (Streamlit's own two first)


def embedded() -> bool:
    """Whether the page is shown with ?embed=true (in a wiki's iframe): no navigation, no sidebar."""
    return bool(getattr(st.context, "is_embedded", False))


def only_requested() -> str | None:
    """The chart asked for alone (?only=, embed view only), as given: a chart id or None when there is none. A value
    that is not an id's shape is returned too (sanitised by the caller), so that it gets its notice."""
    if not embedded() or ONLY_PARAM not in st.query_params:
        return None
    value = st.query_params.get_all(ONLY_PARAM)[-1].strip().lower()
    return value or None


_YES, _NO = ("true", "1", "yes"), ("false", "0", "no", "")


def more_requested() -> bool | None:
    """Whether the link asks for the whole page in the embed view (?more=true), not only what is above its fold;
    None for a value that is neither yes nor no (its notice says so)."""
    value = st.query_params.get(MORE_PARAM, "").strip().lower()
    return True if value in _YES else False if value in _NO else None


def valid_chart_id(value: str) -> bool:
    return bool(_CHART_ID.fullmatch(value))


def full_view_query() -> str:
    """The page's URL query without the embed parameters: the link from an embedded chart to its full view."""
    params = {
        k: v
        for k, v in st.query_params.to_dict().items()
        if k not in (ONLY_PARAM, MORE_PARAM, "embed", "embed_options")
    }
    return urlencode(params)


def query_with(**changes: str) -> str:
    """The page's URL query with `changes` made (the rest kept: language, embed view, price basis...): a link that
    opens another scenario in the reader's own view (Streamlit keeps ?embed=true out of st.query_params: added
    back in the embed view)."""
    return urlencode({**st.query_params.to_dict(), **changes, **({"embed": "true"} if embedded() else {})})
