"""SI -> display strings. The only place (with axis titles) where seconds become ms and bytes become GB."""

from __future__ import annotations

import math
from collections.abc import Callable

from tpot_model.units import GB, KB, MB, TB, GB_per_s, KiB, TB_per_s, TFLOP_per_s


def _sig(x: float, digits: int = 3) -> str:
    """x with about `digits` significant figures, no exponent for everyday magnitudes."""
    if x == 0 or not math.isfinite(x):
        return f"{x:g}" if math.isfinite(x) else "n/a"
    decimals = max(0, digits - 1 - int(math.floor(math.log10(abs(x)))))
    return f"{x:,.{decimals}f}"


def ms(seconds: float) -> str:
    """Milliseconds; from 10 s on, as a duration (an absurd scenario's '216 s', not '215,980 ms')."""
    s = float(seconds)
    if math.isfinite(s) and s >= 10:
        return duration(s)
    return f"{_sig(s * 1e3)} ms" if math.isfinite(s) else "n/a"


_LONG = ((600, 1, "s"), (36_000, 60, "min"), (172_800, 3600, "h"), (math.inf, 86_400, "d"))


def duration(seconds: float) -> str:
    """ms below a second, s below ten minutes, min below ten hours, h below two days, else days (d)."""
    s = float(seconds)
    if not math.isfinite(s):
        return "n/a"
    if s < 1:
        return ms(s)
    _, unit_s, unit = next(u for u in _LONG if s < u[0])
    return f"{_sig(s / unit_s)} {unit}"


def gb(n_bytes: float) -> str:
    """Decimal gigabytes (1e9 bytes), as on datasheets."""
    return f"{_sig(float(n_bytes) / GB)} GB" if math.isfinite(n_bytes) else "n/a"


def tb_per_s(bytes_per_s: float) -> str:
    return f"{_sig(float(bytes_per_s) / TB_per_s)} TB/s"


def gb_per_s(bytes_per_s: float) -> str:
    return f"{_sig(float(bytes_per_s) / GB_per_s)} GB/s"


def tflops(flop_per_s: float) -> str:
    return f"{_sig(float(flop_per_s) / TFLOP_per_s)} TFLOP/s"


def rate(tokens_per_s: float) -> str:
    return f"{_sig(float(tokens_per_s))} tok/s" if math.isfinite(tokens_per_s) else "n/a"


def usd(value: float) -> str:
    v = float(value)
    if not math.isfinite(v):
        return "n/a"
    return f"${_sig(v)}"


def usd_markdown(value: float | None) -> str:
    """usd() for markdown: a bare $ would start LaTeX math in Streamlit markdown."""
    return usd(value).replace("$", "\\$") if value is not None and math.isfinite(value) else "n/a"


def pct(fraction: float, digits: int = 1, *, signed: bool = False, na: str = "n/a") -> str:
    """A fraction as a percentage: 12.3%, or +12.3% when signed; `na` for nan or infinity."""
    return f"{float(fraction) * 100:{'+' if signed else ''}.{digits}f}%" if math.isfinite(fraction) else na


def number(x: float, digits: int = 3) -> str:
    return _sig(float(x), digits)


def integer(x: float) -> str:
    """Rounded to a whole number with thousands separators: 4,608."""
    return f"{x:,.0f}"


def count(x: float) -> str:
    """A count that may be a half (mean cache length): 4,608 or 4,608.5."""
    return integer(x) if float(x).is_integer() else f"{x:,.1f}"


def plain(x: float) -> str:
    """A short number as Python's general format writes it: 16, 0.5, 1e-06."""
    return f"{x:g}"


def signed(delta: float, show: Callable[[float], str]) -> str:
    """A difference with its sign (+, −, ±) before show(|delta|)."""
    return ("+" if delta > 0 else "−" if delta < 0 else "±") + show(abs(delta))


def gpus(n: float) -> str:
    """A GPU count; more than the 1,024 any count is searched up to when there is none (nan)."""
    return f"{int(n):,}" if math.isfinite(n) else "> 1,024"


def params(count: float) -> str:
    """Parameter counts with decimal prefixes: 68.98 B, not '64.2 G'."""
    c = float(count)
    return f"{c / 1e9:,.2f} B" if c >= 1e9 else f"{c / 1e6:,.0f} M"


def tokens(n: float) -> str:
    """Token counts the way analysts say them: 4K, 128K, 1M (binary K for context lengths)."""
    n = int(n)
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20}M"
    if n >= 1024 and n % 1024 == 0:
        return f"{n >> 10}K"
    return f"{n:,}"


def nbytes(n_bytes: float) -> str:
    """Decimal bytes with a fitting prefix: 512 B, 4.1 KB, 21.5 MB, 137 GB, 1.2 TB."""
    n = float(n_bytes)
    if not math.isfinite(n):
        return "n/a"
    for scale, unit in ((TB, "TB"), (GB, "GB"), (MB, "MB"), (KB, "KB")):
        if abs(n) >= scale:
            return f"{_sig(n / scale)} {unit}"
    return f"{_sig(n)} B"


def kib(n_bytes: float) -> str:
    """Binary kibibytes, as KV bytes per token are usually quoted: 320 KiB, 68.6 KiB, 0.5 KiB."""
    k = float(n_bytes) / KiB
    return f"{k:,.0f} KiB" if k >= 100 or k == int(k) else f"{k:,.1f} KiB" if k >= 1 else f"{k:.2g} KiB"


def flop(n_flop: float) -> str:
    """FLOP counts with a decimal prefix: 34.0 GFLOP, 1.20 TFLOP."""
    n = float(n_flop)
    for scale, unit in ((1e18, "EFLOP"), (1e15, "PFLOP"), (1e12, "TFLOP"), (1e9, "GFLOP"), (1e6, "MFLOP")):
        if abs(n) >= scale:
            return f"{_sig(n / scale)} {unit}"
    return f"{_sig(n)} FLOP"


def us(seconds: float) -> str:
    return f"{_sig(float(seconds) * 1e6)} µs"


def fine_duration(seconds: float) -> str:
    """µs below a millisecond, then as duration(): ms, s, min ..."""
    if math.isfinite(seconds) and 0 < seconds < 1e-3:
        return us(seconds)
    return duration(seconds)


def kib_and_bytes(n_bytes: float) -> str:
    """'320 KiB (327,680 B)'."""
    return f"{kib(n_bytes)} ({float(n_bytes):,.0f} B)"


def chip(hw, tr: Callable[..., str]) -> str:
    """A chip's display name, marked "(announced)" (in the page's language) when it is not shipping yet: the one
    place that mark is added, so every page that lists hardware shows it."""
    return tr("hw_announced_name", name=hw.name) if getattr(hw, "announced", False) else hw.name
