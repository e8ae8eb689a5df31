"""Numbers as people read them, shared by the CLI's text and the pages (ui.fmt): significant figures, large counts
with a decimal prefix, dollars."""

from __future__ import annotations

import math


def sig(x: float, digits: int = 3) -> str:
    """x with about `digits` significant figures, no exponent for everyday magnitudes."""
    if x == 0 or not math.isfinite(x):
        return f"{x:g}" if math.isfinite(x) else "n/a"
    decimals = max(0, digits - 1 - int(math.floor(math.log10(abs(x)))))
    return f"{x:,.{decimals}f}"


# (from, divide by, prefix): counts and rates from 10,000 on are read with a decimal prefix (large, and chart ticks)
PREFIXES = ((1e9, 1e9, "G"), (1e6, 1e6, "M"), (1e4, 1e3, "K"))


def large(x: float, *, like: float | None = None) -> str:
    """A count or rate to 3 significant figures with a decimal prefix from 10,000 on (58.4 K, 929 K, 1.61 M, 2.50 G:
    one style on a line that holds both 58,427 and 534 K); smaller ones in full: 9,876. `like`: the value x is read beside (a difference's larger operand), whose prefix x
    takes, at 3 significant figures: large(68_608, like=603_000) -> '68.6 K', beside '534 K' and '603 K' (one below a
    hundredth of that prefix keeps its own form: large(4, like=603_000) -> '4.00')."""
    v = float(x)
    if not math.isfinite(v):
        return "n/a"
    rounded = float(f"{v:.3g}")  # 999,999 -> 1.00 M, not 1,000 K
    ref = abs(rounded)
    if like is not None and math.isfinite(float(like)):
        ref = max(ref, abs(float(f"{float(like):.3g}")))
    for threshold, scale, prefix in PREFIXES:
        if ref >= threshold:
            return f"{sig(rounded / scale)} {prefix}" if abs(rounded) >= scale / 100 else large(v)
    return sig(v)


def usd(value: float, decimals: int | None = None) -> str:
    """Dollars to 3 significant figures ($0.123, $7.25), or to `decimals` places ($1,234.50) where a column of
    money is read side by side. A value from $1 to $10 written with three decimals (a price quoted so: Trainium2's
    $2.235 per chip-hour) is shown as written: to 3 significant figures its binary value, 2.23499..., read $2.23."""
    v = float(value)
    if not math.isfinite(v):
        return "n/a"
    if decimals is not None:
        return f"${v:,.{decimals}f}"
    written = repr(v).partition(".")[2]
    return f"${v:.3f}" if 1 <= abs(v) < 10 and len(written) == 3 and written.isdigit() else f"${sig(v)}"


def shown(text: object, limit: int = 24, *, quote: bool = True) -> str:
    """An input as an error message quotes it: whole up to `limit` characters (repr, or as typed without `quote`),
    else its start, '…' and its length (a 5,000-digit batch had been echoed whole)."""
    t = str(text)
    if len(t) <= limit:
        return repr(t) if quote else t
    return f"'{t[:limit]}…' ({len(t):,} characters)"
