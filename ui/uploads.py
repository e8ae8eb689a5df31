"""A user's own hardware or model file: upload (size-limited, safe loaders, every problem listed by field), use in
the session under the id 'custom', carry it in links (compressed in the URL), download it again."""

from __future__ import annotations

import json

import streamlit as st

from tpot_model.catalog import entry_problems
from tpot_model.files import CatalogError, decode_text

from .i18n import Translator
from .state import CUSTOM_ID, Notice, decode_spec, encode_spec, sanitize

MAX_UPLOAD_BYTES = 256_000
KINDS = {"hardware": "custom_hw", "model": "custom_model"}  # kind -> URL parameter carrying the spec


def custom(kind: str):
    """The session's uploaded Hardware or ModelSpec, or None."""
    return st.session_state.get(f"_custom_{kind}")


def _store(kind: str, obj, text: str) -> None:
    st.session_state[f"_custom_{kind}"] = obj
    st.session_state[f"_custom_{kind}_text"] = text


def from_url(params: dict) -> list[Notice]:
    """Register custom specs carried by a link (before the scenario's ids are validated)."""
    notices = []
    for kind, param in KINDS.items():
        if param not in params:
            continue
        token = str(params[param])
        try:
            obj, _ = entry_problems(kind, decode_spec(token), param)
        except ValueError:
            obj = None
        if obj is None:
            notices.append(Notice(param, sanitize(token, 24), "—"))
        else:
            _store(kind, obj, decode_spec(token))
    return notices


def url_params(state) -> dict[str, str]:
    """Parameters that carry the custom specs the scenario uses."""
    out = {}
    for kind, param in KINDS.items():
        if getattr(state, kind) == CUSTOM_ID and custom(kind) is not None:
            out[param] = encode_spec(st.session_state[f"_custom_{kind}_text"])
    return out


def named(text: str, name: str) -> str:
    """A config.json's text with the name it was given on upload (_name_or_path, where it has none: the file's
    name), so that a link carrying it names the model the same (it had read 'custom' to whoever opened the link);
    any other text as it is."""
    try:
        data = json.loads(text)
    except ValueError:
        return text
    if not isinstance(data, dict) or "model_type" not in data or data.get("_name_or_path"):
        return text
    return json.dumps({**data, "_name_or_path": name}, indent=2)


def read_upload(kind: str, raw: bytes, name: str) -> tuple[object, list[str], str]:
    """(the Hardware or ModelSpec or None, every problem, the text) of an uploaded file's bytes, decoded and read as
    the CLI reads a --hardware / --model file."""
    try:
        text = decode_text(raw, name)
    except CatalogError as e:
        return None, e.problems, ""
    obj, problems = entry_problems(kind, text, name)
    return obj, problems, text


def uploader(kind: str, tr: Translator) -> None:
    """File uploader for one kind; a valid file becomes the 'custom' option and is selected."""
    file = st.file_uploader(tr(f"upload_{kind}"), type=["yaml", "yml", "json"], key=f"upload.{kind}",
                            help=tr(f"upload_{kind}_help"))  # fmt: skip
    if file is not None and st.session_state.get(f"_upload_{kind}_id") != file.file_id:
        st.session_state[f"_upload_{kind}_id"] = file.file_id
        raw = file.getvalue()
        if len(raw) > MAX_UPLOAD_BYTES:
            problems, obj, text = [tr("upload_too_big", kb=MAX_UPLOAD_BYTES // 1000)], None, ""
        else:
            obj, problems, text = read_upload(kind, raw, file.name)
        st.session_state[f"_upload_{kind}_problems"] = problems
        if obj is not None:
            _store(kind, obj, named(text, obj.name) if kind == "model" else text)
            st.session_state[kind] = CUSTOM_ID
    problems = st.session_state.get(f"_upload_{kind}_problems") if file is not None else None
    if problems:
        st.error(tr("upload_invalid", n=len(problems)))
        st.code("\n".join(problems), language=None)  # shown as plain text, never as markup
    obj = custom(kind)
    if obj is not None:
        st.caption(tr("upload_in_use", name=sanitize(obj.name, 60)))
        st.download_button(tr("upload_download"), data=st.session_state[f"_custom_{kind}_text"].encode("utf-8"),
                           file_name=f"custom-{kind}.yaml", key=f"upload.{kind}.download", on_click="ignore")  # fmt: skip
