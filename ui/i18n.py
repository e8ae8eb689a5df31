"""Translations: every user-facing string lives in ui/strings/*.yaml as key -> {en: ..., zh-TW: ...}."""

from __future__ import annotations

import re
import threading
from pathlib import Path

from tpot_model.files import load_yaml

STRINGS_DIR = Path(__file__).resolve().parent / "strings"
LANGUAGES = {"en": "English", "zh-TW": "繁體中文"}
DEFAULT_LANGUAGE = "en"


_CATALOG_LOCK = threading.Lock()
_CATALOG: list[dict[str, dict[str, str]]] = []  # the merged catalog once read


def catalog() -> dict[str, dict[str, str]]:
    """All strings of all files, merged; a key defined twice is an error (one place per string). Read once per
    process: sessions that start together wait for the first reader instead of each parsing the files (fifty
    readers of a fresh server had parsed them fifty times over, interleaved on the GIL); once read, no lock (every
    string looked up had taken it)."""
    if _CATALOG:
        return _CATALOG[0]
    with _CATALOG_LOCK:
        if not _CATALOG:
            _CATALOG.append(_read_catalog())
        return _CATALOG[0]


def _read_catalog() -> dict[str, dict[str, str]]:
    merged: dict[str, dict[str, str]] = {}
    for path in sorted(STRINGS_DIR.glob("*.yaml")):
        data = load_yaml(path.read_text(encoding="utf-8")) or {}
        for key, value in data.items():
            if key in merged:
                raise ValueError(f"{path.name}: string key {key!r} is defined twice")
            merged[key] = value
    return merged


# zh-TW: a space the template puts between a name and the Chinese after it ('{hw} 在…', right after a Latin name) is
# dropped where the name ends in a full-width bracket ('Rubin（已發表，尚未出貨） 在…' had read with a gap)
_SPACE_AFTER_FULLWIDTH = re.compile(r"([）」』】])[ \u00a0]+(?=[\u3400-\u9fff\uff08\u300c])")
# and where a value ending in Chinese meets Chinese: the template's space sets off a Latin word or number ('{devices}
# 以內' for '72 張 GPU 以內'), and between two Chinese characters it is a gap ('72 顆晶片 以內')
_SPACE_BETWEEN_CJK = re.compile(r"(?<=[\u3400-\u9fff])[ \u00a0]+(?=[\u3400-\u9fff])")


class Translator:
    """tr('key', n=3) -> the string in this language, formatted; English when a translation is missing."""

    def __init__(self, lang: str = DEFAULT_LANGUAGE, device: str = "gpu") -> None:
        self.lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
        self.device = device  # 'chip': every string with a '_chip' variant is given in it (for_device)

    def __call__(self, key: str, **values: object) -> str:
        if self.device == "chip" and f"{key}_chip" in catalog():
            key = f"{key}_chip"
        entry = catalog().get(key)
        if entry is None:
            raise KeyError(f"no string {key!r} in ui/strings")
        text = entry.get(self.lang) or entry["en"]
        if not values:
            return text
        text = text.format(**values)
        if self.lang != "zh-TW":
            return text
        return _SPACE_BETWEEN_CJK.sub("", _SPACE_AFTER_FULLWIDTH.sub(r"\1", text))

    def for_device(self, device: str) -> Translator:
        """This language in a device word: for 'chip' (a TPU or Trainium: ui.fmt.device_kind decides) every string
        with a '_chip' variant in ui/strings ('per chip-hour', '每晶片小時') is given in it; 'gpu': as written."""
        return Translator(self.lang, device)

    def has(self, key: str) -> bool:
        return key in catalog()

    def sentences(self, items: list[str]) -> str:
        """Texts one after the other: a space between them in English, none in zh-TW (after a full-width 。, before a （)
        (``two_sentences``)."""
        out = items[0] if items else ""
        for nxt in items[1:]:
            out = self("two_sentences", first=out, second=nxt)
        return out

    def join(self, items: list[str], sep: str = "list_sep") -> str:
        """Items joined with this language's separator: `list_sep` (", " / "、") or `clause_sep` ("; " / "；")."""
        return self(sep).join(items)


EN = Translator("en")
