"""The profiles.yaml writer: one engine entry as text (every field in file units, with its reason in `source`), the
file with some entries replaced and everything else (comments, other entries) kept, and the atomic write.

Values are written to 3 significant figures, without exponents (PyYAML reads '1e-05' as a string); profiles.py
reads the file back.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from .engines import CHECKS, PROFILE_ORDER, documented_profile, documented_reason
from .files import CatalogError, parse_structured_text
from .fitting import sig3
from .profiles import FIELD, FIELDS, EfficiencyProfile, ProfileField, load_profiles, profiles_from_data


def _num(v: float) -> str:
    """A number PyYAML reads back as the same float (no exponent: PyYAML reads '1e-05' as a string)."""
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    return np.format_float_positional(v, trim="-")


def _q(text: str) -> str:
    """A double-quoted YAML scalar (JSON string syntax is valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


def file_value(f: ProfileField, value: float) -> str:
    """An SI value of a profile field as profiles.yaml writes it (file units, 3 significant figures); 'none' for a
    field left at a neutral value the file cannot hold (no bandwidth limit: the key is left out)."""
    if _absent(f, value):
        return "none"
    return _num(sig3(value / f.scale))


def _absent(f: ProfileField, value: float) -> bool:
    return math.isinf(f.neutral) and value == f.neutral


def history_lines(profile: EfficiencyProfile) -> list[str]:
    """The `history:` lines of an entry: its dated revisions, oldest first."""
    lines = ["  history:"]
    for rev in sorted(profile.history, key=lambda r: r.until):
        lines.append(f"    - until: {_q(rev.until)}")
        for attr, v in rev.values:
            lines.append(f"      {FIELD[attr].key}: {file_value(FIELD[attr], v)}")
        lines.append(f"      note: {_q(rev.note)}")
    return lines


def profile_block(pid: str, profile: EfficiencyProfile, reasons: Mapping[str, str], notes: Sequence[str] = ()) -> str:
    """The profiles.yaml text of one engine entry: every field, its dated revisions, and a `source` list with each
    field's reason (`reasons`: SI attribute -> text) followed by `notes`."""
    lines = [f"{pid}:", f"  name: {_q(profile.name)}", f"  description: {_q(profile.description)}"]
    source = []
    for f in FIELDS:
        value = getattr(profile, f.attr)
        if _absent(f, value):
            source.append(f"{f.key}: none. {reasons[f.attr]}")
            continue
        lines.append(f"  {f.key}: {file_value(f, value)}")
        source.append(f"{f.key}: {reasons[f.attr]}")
    if profile.history:
        lines += history_lines(profile)
    lines.append("  source:")
    lines += [f"    - {_q(r)}" for r in (*source, *notes)]
    return "\n".join(lines) + "\n"


def documented_block(pid: str, typical: EfficiencyProfile) -> str:
    """The entry of an engine without measurements: its documented values, typical's for the rest."""
    fallback = "no measurements for this engine in data/measurements.csv; typical's value"
    reasons = {f.attr: documented_reason(pid, f.attr) or fallback for f in FIELDS}
    return profile_block(pid, documented_profile(pid, typical), reasons, [CHECKS[pid]] if pid in CHECKS else [])


_TOP_KEY = re.compile(r"""^(?:"([^"]+)"|'([^']+)'|([^\s#'"][^:#]*?))\s*:(?:\s.*)?$""")


def split_blocks(text: str) -> tuple[str, list[tuple[str, str]]]:
    """(header comments, [(top-level key, its text)]): each entry keeps the comment lines just above it."""
    header: list[str] = []
    blocks: list[tuple[str, list[str]]] = []
    pending: list[str] = []
    for line in text.splitlines(keepends=True):
        m = _TOP_KEY.match(line.rstrip("\n"))
        if m and not line.startswith((" ", "\t", "-")):
            key = next(g for g in m.groups() if g is not None).strip()
            blocks.append((key, pending + [line]))
            pending = []
        elif line.strip() == "" or line.lstrip().startswith("#"):
            (pending if blocks else header).append(line)
        else:
            if not blocks:
                raise CatalogError(f"profiles: unexpected line before the first entry: {line.strip()[:60]!r}")
            blocks[-1][1].extend(pending + [line])
            pending = []
    if blocks:
        blocks[-1][1].extend(pending)
    return "".join(header), [(k, "".join(v)) for k, v in blocks]


def with_typical_terms(text: str, typical: EfficiencyProfile, attrs: Sequence[str]) -> str:
    """profiles.yaml text with typical's `attrs` (SI attributes) set to `typical`'s values, each on its own line in
    typical's entry (added after its last field line when missing); the rest of the entry (its hand-written source)
    kept."""
    header, entries = split_blocks(text)
    out = []
    for key, block in entries:
        if key == "typical":
            lines = block.splitlines(keepends=True)
            for attr in attrs:
                f = FIELD[attr]
                line = f"  {f.key}: {file_value(f, getattr(typical, attr))}\n"
                at = next((i for i, x in enumerate(lines) if x.startswith(f"  {f.key}:")), None)
                if at is None:
                    fields = [i for i, x in enumerate(lines) if any(x.startswith(f"  {g.key}:") for g in FIELDS)]
                    lines.insert(fields[-1] + 1, line)
                else:
                    lines[at] = line
            block = "".join(lines)
        out.append(block)
    return header + "".join(out)


_IDEAL_BLOCK = """ideal:
  name: Ideal roofline (physical bound)
  description: Pure roofline. Every byte moves at peak bandwidth, every FLOP at dense peak, nothing else costs time.
  source: definition
"""


def render_profiles(existing_text: str, blocks: Mapping[str, str], typical: EfficiencyProfile) -> str:
    """profiles.yaml with the entries in `blocks` (profile id -> profile_block text) replaced, the engines of
    PROFILE_ORDER without a fit rewritten with their documented values (typical's for every other field, so they
    inherit typical's fitted terms, e.g. its MoE step cost, until data say otherwise), every other entry (ideal,
    typical, engines outside PROFILE_ORDER, comments) kept as it was, and missing engines of PROFILE_ORDER added.
    New entries go after the last entry that comes before them in PROFILE_ORDER (an engine outside it goes last)."""
    header, existing = split_blocks(existing_text)
    blocks = {
        **{pid: documented_block(pid, typical) for pid in PROFILE_ORDER if pid not in ("ideal", "typical")},
        **blocks,
    }
    entries: list[tuple[str, str]] = []
    for key, text in existing:
        if key in blocks:
            comments = "".join(line for line in text.splitlines(keepends=True) if line.lstrip().startswith("#"))
            entries.append((key, comments + blocks[key]))
        else:
            entries.append((key, text if text.endswith("\n") else text + "\n"))
    for pid in (*PROFILE_ORDER, *blocks):
        if pid in {k for k, _ in entries}:
            continue
        if pid == "typical":
            raise CatalogError("profiles: entry 'typical' is missing")
        if pid == "ideal":
            text = _IDEAL_BLOCK
        elif pid in blocks:
            text = blocks[pid]
        else:
            text = documented_block(pid, typical)
        before = PROFILE_ORDER[: PROFILE_ORDER.index(pid)] if pid in PROFILE_ORDER else PROFILE_ORDER
        at = max((i + 1 for i, (k, _) in enumerate(entries) if k in before), default=0)
        entries.insert(at, (pid, text))
    return header + "".join(text for _, text in entries)


def profiles_from_text(text: str, where: str) -> dict[str, EfficiencyProfile]:
    """Every entry of a profiles.yaml text, validated like load_profiles."""
    return profiles_from_data(parse_structured_text(text, where), where)


def write_profiles(path: Path, text: str) -> None:
    """Write atomically (a temporary file, then rename) and clear load_profiles' cache."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    load_profiles.cache_clear()
