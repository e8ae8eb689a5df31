"""Glossary: the field's terms in English and Traditional Chinese, built from ui/strings/glossary.yaml (keys
gl_<term>_term and gl_<term>_def), searchable in either language, downloadable as CSV."""

import pandas as pd
import streamlit as st

from ui import controls
from ui.i18n import Translator, catalog

tr = controls.translator()
en, zh = Translator("en"), Translator("zh-TW")
terms = [k.removeprefix("gl_").removesuffix("_term") for k in catalog() if k.startswith("gl_") and k.endswith("_term")]
table = pd.DataFrame(
    {
        "term_en": [en(f"gl_{t}_term") for t in terms],
        "term_zh_tw": [zh(f"gl_{t}_term") for t in terms],
        "definition_en": [en(f"gl_{t}_def") for t in terms],
        "definition_zh_tw": [zh(f"gl_{t}_def") for t in terms],
    }
)

st.title(tr("page_glossary"))
st.caption(tr("gl_intro"))
controls.linked_view("glossary.search", default="", tr=tr, label=tr("gl_search"))
query = st.text_input(
    tr("gl_search"), key="glossary.search", type="search", live=True, placeholder=tr("gl_search_placeholder")
).strip()
shown = table[table.apply(lambda row: query.casefold() in " ".join(row).casefold(), axis=1)] if query else table

definition = "definition_zh_tw" if tr.lang == "zh-TW" else "definition_en"
c1, c2 = st.columns([3, 1], vertical_alignment="center")
c1.caption(tr("gl_count", n=len(shown), total=len(table)))
c2.download_button(
    tr("download_csv"),
    data=shown.to_csv(index=False).encode("utf-8-sig"),  # BOM: spreadsheet programs then read the Chinese correctly
    file_name="glossary.csv",
    mime="text/csv",
    key="glossary.csv",
    on_click="ignore",
)
if shown.empty:
    st.info(tr("gl_no_match", query=query))
else:
    st.table(
        shown[["term_en", "term_zh_tw", definition]].rename(
            columns={
                "term_en": tr("gl_header_en"),
                "term_zh_tw": tr("gl_header_zh"),
                definition: tr("gl_header_definition"),
            }
        ),
        hide_index=True,
    )
