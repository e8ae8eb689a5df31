"""Reading the project's files: YAML or JSON parsed with safe loaders only, refused above a size limit; the error
every malformed catalog, profile or measurement file raises, naming the file, entry and field; a whole-number field."""

from __future__ import annotations

import csv
import math
import os
import re
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
APP_VERSION = tomllib.loads((DATA_DIR.parent / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
MAX_FILE_BYTES = 2_000_000  # a catalog or config file larger than this is refused, not parsed


class CatalogError(ValueError):
    """A catalog, model or hardware file is malformed; the message names the file, entry and field. Given several
    problems of one file (each a message naming the file), `problems` keeps them apart and the message joins them in
    one line, the file named once."""

    def __init__(self, *problems: str):
        self.problems = list(problems)
        shared = os.path.commonprefix(self.problems)  # the file (and entry) every problem names
        cut = shared.rfind(": ") + 2 if ": " in shared else 0
        super().__init__("; ".join(self.problems[:1] + [p[cut:] for p in self.problems[1:]]))


def read_text(path: str | Path) -> str:
    """A text file's content without a leading byte-order mark (spreadsheets write one), refused (CatalogError naming
    the file) if unreadable (a directory too), above MAX_FILE_BYTES or not UTF-8 (a Latin-1 hardware file had loaded
    its name as 'G\ufffd')."""
    p = Path(path)
    try:
        size = p.stat().st_size
    except OSError as e:
        raise CatalogError(f"{p}: cannot read ({e.strerror or e})") from None
    if size > MAX_FILE_BYTES:
        raise CatalogError(f"{p}: file is {size} bytes, larger than the {MAX_FILE_BYTES} byte limit")
    try:
        raw = p.read_bytes()
    except OSError as e:  # a directory
        raise CatalogError(f"{p}: cannot read ({e.strerror or e})") from None
    return decode_text(raw, str(p))


def decode_text(raw: bytes, where: str) -> str:
    """A file's bytes as text, without a leading byte-order mark, line ends read as open() reads them;
    CatalogError naming `where` if not UTF-8 (the one decoder of the CLI's files and the web's uploads: a binary upload
    had read as 'malformed YAML/JSON')."""
    try:
        return raw.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError as e:
        raise CatalogError(f"{where}: not UTF-8 text ({e.reason} at byte {e.start})") from None


# libyaml's safe loader where PyYAML was built with it (its wheels are): the same safe subset, ~10x faster than the
# pure-Python one (the UI's strings: 0.7 s -> ~0.04 s)
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(text: str) -> Any:
    """YAML (or JSON) text parsed with the safe loader; yaml.YAMLError on a syntax error."""
    return yaml.load(text, Loader=_SAFE_LOADER)  # noqa: S506 - a safe loader


class _UniqueKeyLoader(_SAFE_LOADER):
    """The safe loader, refusing a key given twice in one mapping (YAML keeps the last silently: a second
    'memory_GB' line would have won unseen)."""

    def construct_mapping(self, node, deep=False):
        seen: dict[object, int] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key == "<<" or not isinstance(key, (str, int, float, bool)):
                continue
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} given twice (first at line {seen[key]})", key_node.start_mark
                )
            seen[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep)


def read_structured_file(path: str | Path) -> Any:
    """Parse a YAML or JSON file with safe loaders; CatalogError names the file on any problem."""
    return parse_structured_text(read_text(path), str(Path(path)))


def parse_structured_text(text: str, where: str) -> Any:
    """Parse YAML (a superset of JSON) safely; CatalogError with the line on syntax errors."""
    if len(text) > MAX_FILE_BYTES:
        raise CatalogError(f"{where}: larger than the {MAX_FILE_BYTES} byte limit")
    try:
        return yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - a safe loader
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(e, "problem", None) or "syntax error"
        raise CatalogError(f"{where}: malformed YAML/JSON{at}: {problem}") from None
    except ValueError as e:  # a number past Python's 4,300-digit limit had printed its advice to call sys.*
        digits = re.search(r"value has (\d+) digits", str(e))
        what = f"a whole number of {digits[1]} digits" if digits else "a value it cannot read"
        raise CatalogError(f"{where}: malformed YAML/JSON: {what}") from None


MAX_WHOLE = 10**9  # a count in a model or hardware file (layers, widths, experts, tokens): past it, a typo


def integer_field(where: str, d: dict, key: str) -> int:
    """d[key] as a whole number from 0 to MAX_WHOLE; CatalogError naming the field otherwise (a count past 2**63
    had reached numpy and raised OverflowError)."""
    value = d.get(key)
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value != int(value)
    ):
        raise CatalogError(f"{where}: field {key!r} must be a whole number, got {value!r}")
    if value < 0:
        raise CatalogError(f"{where}: field {key!r} must not be negative, got {value!r}")
    if value > MAX_WHOLE:
        raise CatalogError(f"{where}: field {key!r} must be at most {MAX_WHOLE:,}, got {value!r}")
    return int(value)


def csv_rows(path: str | Path, required: Iterable[str]) -> csv.DictReader:
    """A CSV file's rows as dicts (its header is line 1), read through read_text (size limit, UTF-8); CatalogError
    naming the first required column the header lacks."""
    p = Path(path)
    reader = csv.DictReader(read_text(p).splitlines())
    missing = [c for c in required if c not in (reader.fieldnames or [])]
    if missing:
        raise CatalogError(f"{p}: line 1: missing column {missing[0]!r}")
    return reader


def number_or_nan(text: str) -> float:
    """A CSV cell as a float; nan when blank or not a number (the loaders decide whether that is an error)."""
    try:
        return float(text) if text.strip() else math.nan
    except ValueError:
        return math.nan
