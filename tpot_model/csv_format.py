"""Vectorised CSV text for large sweeps: floats as '%.7g'-like text without exponent, whole numbers and labels,
formatted by whole-array numpy operations (a 65,536-row grid in milliseconds) and joined into CSV bytes.

A field is an (n, width) uint8 matrix of ASCII, NUL-padded; csv_bytes joins the fields with commas and drops the NULs
in one boolean compress. Digits come from 4-digit lookup tables (one uint32 per word)."""

from __future__ import annotations

import math

import numpy as np

_P10 = 10.0 ** np.arange(20)
_LUT: np.ndarray | None = None
FLOAT_DIGITS = 7  # significant digits of floats in sweep CSVs (like '%.7g', without exponent notation)
_PLAIN, _LEAD, _LEAD_LAST, _TRAIL = (10000 * k for k in range(4))  # offsets of the four tables inside _LUT


def _lut() -> np.ndarray:
    """Words '0000'..'9999' as uint32 (4 ASCII bytes each), four tables back to back: plain; leading zeros blanked;
    the same but 0 -> '0' (the last word of an integer part); trailing zeros blanked."""
    global _LUT
    if _LUT is None:
        plain = [f"{i:04d}" for i in range(10000)]
        lead = [t.lstrip("0").rjust(4, "\0") for t in plain]
        trail = [t.rstrip("0").ljust(4, "\0") for t in plain]
        text = "".join(plain) + "".join(lead) + "\0\0\0" + "0" + "".join(lead[1:]) + "".join(trail)
        _LUT = np.frombuffer(text.encode(), dtype=np.uint32)
    return _LUT


def _chunks(v: np.ndarray, n: int) -> list[np.ndarray]:
    """n base-10000 digits (intp, most significant first) of integer-valued floats 0 <= v < 1e15.

    floor(v / 1e4) is exact: v / 1e4 is either an integer or at least 1e-4 below the next one, far more than the
    rounding error of one division below 2**53.
    """
    out = []
    for _ in range(n):
        q = np.floor(v / 1e4)
        out.append((v - q * 1e4).astype(np.intp))
        v = q
    return out[::-1]


def _digit_bytes(words: list[np.ndarray]) -> np.ndarray:
    return np.stack(words, axis=1).view(np.uint8).reshape(words[0].size, 4 * len(words))


def _integer_part(v: np.ndarray, width: int) -> np.ndarray:
    """Integer-valued floats 0 <= v < 10**width -> (n, width) digits, leading zeros blanked, '0' kept for zero."""
    lut = _lut()
    n = max(1, -(-width // 4))
    words, higher_zero = [], np.ones(v.shape, dtype=bool)
    for k, r in enumerate(_chunks(v, n)):
        blank = _LEAD_LAST if k == n - 1 else _LEAD
        words.append(lut[r + np.where(higher_zero, blank, _PLAIN)])
        higher_zero &= r == 0
    return _digit_bytes(words)[:, 4 * n - width :]


def _fraction_part(v: np.ndarray, width: int) -> np.ndarray:
    """Integer-valued floats holding `width` fraction digits -> (n, width) digits, trailing zeros blanked."""
    lut = _lut()
    n = -(-width // 4)
    chunks = _chunks(v * _P10[4 * n - width], n)
    words: list[np.ndarray] = [np.empty(0)] * n
    lower_zero = np.ones(v.shape, dtype=bool)
    for k in range(n - 1, -1, -1):
        words[k] = lut[chunks[k] + np.where(lower_zero, _TRAIL, _PLAIN)]
        lower_zero &= chunks[k] == 0
    return _digit_bytes(words)[:, :width]


def _python_field(x: np.ndarray) -> np.ndarray:
    """Fallback for values the vectorised path does not cover (< 1e-5, >= 1e12, inf): FLOAT_DIGITS significant
    digits, positional (no exponent: 1338402000000000, 0.00001234568), 'inf' as itself."""
    text = [
        "" if math.isnan(v) else f"{v}" if math.isinf(v) else
        np.format_float_positional(v, precision=FLOAT_DIGITS, unique=False, fractional=False, trim="-")
        for v in x.tolist()
    ]  # fmt: skip
    arr = np.array(text, dtype="S")
    return arr.view(np.uint8).reshape(x.size, arr.dtype.itemsize)


def _vectorised(x: np.ndarray) -> np.ndarray:
    """Which values float_field's vectorised path writes (NaN, 0, and magnitudes in [1e-5, 1e12)); the others (inf
    too) take _python_field, row by row."""
    a = np.abs(x)
    return np.isnan(x) | (a == 0) | ((a >= 1e-5) & (a < 1e12))


def _split(fast: np.ndarray, x: np.ndarray, vectorised, fallback) -> np.ndarray:
    """vectorised(x[fast]) and fallback(x[~fast]) in their rows of one NUL-padded field: a cell's text does not
    depend on the others' in its column (a column holding 1e13 would otherwise round 123456789 to 123456800)."""
    if not fast.any():
        return fallback(x)
    parts = vectorised(x[fast]), fallback(x[~fast])
    out = np.zeros((x.size, max(p.shape[1] for p in parts)), dtype=np.uint8)
    out[fast, : parts[0].shape[1]] = parts[0]
    out[~fast, : parts[1].shape[1]] = parts[1]
    return out


def float_field(x: np.ndarray) -> np.ndarray:
    """Floats as '%.7g'-like text without exponent (NaN -> empty); (n, width) uint8, NUL-padded."""
    x = np.asarray(x, dtype=float).ravel()
    fast = _vectorised(x)
    if not fast.all():
        return _split(fast, x, float_field, _python_field)
    a = np.abs(x)
    nan = np.isnan(a)
    has_nan = bool(nan.any())
    if has_nan:
        a[nan] = 0.0
    positive = a > 0
    sig = FLOAT_DIGITS
    exponent = np.log10(a if positive.all() else np.where(positive, a, 1.0))
    np.floor(exponent, out=exponent)
    dec = np.clip(sig - 1 - exponent, 0, sig + 4).astype(np.intp)  # decimals that give `sig` significant digits
    scale = _P10[dec]
    scaled = a * scale
    np.rint(scaled, out=scaled)  # the number with `dec` decimals, as an integer-valued float (< 1e12)
    ipart = scaled / scale
    np.floor(ipart, out=ipart)  # exact, as in _chunks
    frac = scaled - ipart * scale
    int_width = len(str(int(ipart.max(initial=0.0))))
    frac_width = int(dec.max(initial=0))
    parts = []
    negative = x < 0
    if negative.any():
        parts.append(negative.view(np.uint8)[:, None] * np.uint8(ord("-")))
    parts.append(_integer_part(ipart, int_width))
    if frac_width:
        parts.append((frac > 0).view(np.uint8)[:, None] * np.uint8(ord(".")))
        parts.append(_fraction_part(frac * _P10[frac_width - dec], frac_width))
    out = np.hstack(parts)
    if has_nan:
        out[nan] = 0
    return out


def float_texts(values) -> list[str]:
    """Each float as float_text writes it alone ('' for NaN), the whole column formatted in one call."""
    return [bytes(row).replace(b"\0", b"").decode() for row in float_field(np.asarray(values, dtype=float))]


def float_text(v: float) -> str:
    """One float as float_field writes it: 7 significant digits, no exponent ('17.76188', '1.24', '32')."""
    return float_field(np.array([v])).tobytes().rstrip(b"\0").decode()


def int_field(v: np.ndarray) -> np.ndarray:
    """Non-negative whole numbers as text; (n, width) uint8, NUL-padded."""
    v = np.asarray(v, dtype=float).ravel()
    fast = np.isfinite(v) & (v >= 0) & (v < 1e15)
    if not fast.all():
        return _split(fast, v, int_field, _python_field)
    return _integer_part(v, len(str(int(v.max(initial=0.0)))))


def label_field(index: np.ndarray, labels: tuple[str, ...]) -> np.ndarray:
    """labels[index] per row; (n, width) uint8, NUL-padded."""
    table = np.array([t.encode() for t in labels], dtype="S")
    return table.view(np.uint8).reshape(len(labels), table.dtype.itemsize)[np.asarray(index).ravel()]


def csv_bytes(header: tuple[str, ...] | list[str], fields: list[np.ndarray]) -> bytes:
    """Header line + one line per row: fields joined by commas; NUL padding dropped."""
    rows = fields[0].shape[0]
    width = sum(f.shape[1] + 1 for f in fields)
    buf = np.zeros((rows, width), dtype=np.uint8)
    col = 0
    for i, f in enumerate(fields):
        buf[:, col : col + f.shape[1]] = f
        col += f.shape[1]
        buf[:, col] = ord("\n") if i == len(fields) - 1 else ord(",")
        col += 1
    flat = buf.ravel()
    return (",".join(header) + "\n").encode() + flat[flat != 0].tobytes()
