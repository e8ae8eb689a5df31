"""SI -> display strings. The only place (with axis titles) where seconds become ms and bytes become GB."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence

from tpot_model import economics
from tpot_model.engines import CHIP_FAMILIES, ENGINES
from tpot_model.numtext import large, usd
from tpot_model.numtext import sig as _sig
from tpot_model.units import GB, KB, MB, TB, GB_per_s, GiB, KiB, TB_per_s, TFLOP_per_s

from .i18n import EN


def ms(seconds: float, *, like: float | None = None, digits: int = 3, tr: Callable[..., str] = EN) -> str:
    """Milliseconds to `digits` significant figures; from 10 s on, as a duration (an absurd scenario's '216 s', not
    '215,980 ms'), its unit in `tr`'s language (_time_unit). `like` (s): in the unit `like` is written in (a
    difference of 1.27 s between two TPOTs of 240 s: '1.27 s', not '1,268 ms')."""
    s = float(seconds)
    if not math.isfinite(s):
        return tr("na")
    ref = abs(float(like)) if like is not None and math.isfinite(like) else abs(s)
    if ref >= 10:
        _, unit_s, unit = next(u for u in _LONG if ref < u[0])
        return f"{_sig(s / unit_s, digits)} {_time_unit(unit, tr)}"
    return f"{_sig(s * 1e3, digits)} ms"


def ms_below(seconds: float, limit_s: float, *, tr: Callable[..., str] = EN) -> str:
    """ms(seconds) for a time under a limit printed beside it, with the decimals it takes not to read as the limit:
    '49.98 ms' under a 50.0 ms target (ms() reads '50.0 ms', and 'longer than 50.0 ms (now 50.0 ms)' reads wrong);
    from 10 s, its unit in `tr`'s language (ms)."""
    shown, limit = ms(seconds, tr=tr), ms(limit_s, tr=tr)
    if shown != limit or not float(seconds) < float(limit_s):
        return shown
    for decimals in (2, 3, 4):
        if (text := f"{float(seconds) * 1e3:.{decimals}f}") != f"{float(limit_s) * 1e3:.{decimals}f}":
            return f"{text} ms"
    return shown


# (below this many s, s per unit, unit): the unit's word is the string unit_<unit> (s, min, h, d; zh-TW 秒, 分鐘 …)
_LONG = ((600, 1, "s"), (36_000, 60, "min"), (172_800, 3600, "h"), (math.inf, 86_400, "d"))


def _time_unit(unit: str, tr: Callable[..., str]) -> str:
    """A time unit past ms in the reader's language: 'min' in English, '分鐘' in zh-TW (ui/strings unit_<unit>)."""
    return tr(f"unit_{unit}")


def duration(seconds: float, *, like: float | None = None, tr: Callable[..., str] = EN) -> str:
    """ms below a second, s below ten minutes, min below ten hours, h below two days, else days (d), the unit in
    `tr`'s language ('24.7 min', zh-TW '24.7 分鐘'); `like` (s): in the unit `like` is written in (a difference in the
    unit of the durations it separates)."""
    s = float(seconds)
    if not math.isfinite(s):
        return tr("na")
    ref = abs(float(like)) if like is not None and math.isfinite(like) else s
    if ref < 1:
        return f"{_sig(s * 1e3)} ms"
    _, unit_s, unit = next(u for u in _LONG if ref < u[0])
    return f"{_sig(s / unit_s)} {_time_unit(unit, tr)}"


def gb(n_bytes: float, decimals: int | None = None) -> str:
    """Decimal gigabytes (1e9 bytes), as on datasheets: 3 significant figures, or `decimals` places (the terms of a
    sum shown worked out, so that they add up as printed: '170 − 83.9 − 0.162 = 85.5' did not)."""
    if not math.isfinite(n_bytes):
        return "n/a"
    shown = f"{float(n_bytes) / GB:,.{decimals}f}" if decimals is not None else _sig(float(n_bytes) / GB)
    return f"{shown} GB".replace("-", "−")  # a true minus: '−795.69 GB' (no room left), not a hyphen


def memory(n_bytes: float) -> str:
    """Memory a scenario needs: in GB beside the GB a GPU has, in TB from 10 TB ('704 TB', not '704,412 GB'), as the
    does-not-fit notice and the memory tile both say it."""
    return gb(n_bytes) if n_bytes < 10 * TB else nbytes(n_bytes)


def tb_per_s(bytes_per_s: float) -> str:
    return f"{_sig(float(bytes_per_s) / TB_per_s)} TB/s"


def gb_per_s(bytes_per_s: float) -> str:
    return f"{_sig(float(bytes_per_s) / GB_per_s)} GB/s"


def tflops(flop_per_s: float) -> str:
    return f"{_sig(float(flop_per_s) / TFLOP_per_s)} TFLOP/s"


def rate(tokens_per_s: float, *, like: float | None = None) -> str:
    """Tokens per second: 1,598 tok/s, 9,876 tok/s; from 10,000 on 3 significant figures: 98.8 K tok/s, 1.61 M tok/s;
    `like` as for large (a difference in the prefix of the rates it separates)."""
    return f"{large(tokens_per_s, like=like)} tok/s" if math.isfinite(tokens_per_s) else "n/a"


def ratio(a_per_b: float) -> str:
    """A ratio of two counts in plain numbers, the smaller side 1: 1 : 210, 1 : 2.3, 3.4 : 1; n/a when undefined."""
    r = float(a_per_b)
    if not math.isfinite(r) or r <= 0:
        return "n/a"

    def two_figures(x: float) -> str:  # 2 significant figures, no trailing zeros, no exponent: 2, 2.3, 210, 12,000
        v = float(f"{x:.2g}")
        return f"{v:,.0f}" if v >= 100 else f"{v:g}"

    return f"{two_figures(r)} : 1" if r >= 1 else f"1 : {two_figures(1 / r)}"


def usd_markdown(value: float | None) -> str:
    """usd() for markdown: a bare $ would start LaTeX math in Streamlit markdown."""
    return usd(value).replace("$", "\\$") if value is not None and math.isfinite(value) else "n/a"


def utilisation(fraction: float) -> str:
    """A utilisation (MBU, MFU) as a percentage: one decimal, and two significant figures below 1% (an 8B model at
    batch 1 on 8 x B200 uses 0.02% of the FLOP/s, which one decimal had shown as '0.0%')."""
    f = float(fraction)
    small = math.isfinite(f) and 0 < abs(f) < 0.01
    return pct(f, max(1, 1 - math.floor(math.log10(abs(f) * 100))) if small else 1)


def pct(fraction: float, digits: int = 1, *, signed: bool = False, na: str = "n/a") -> str:
    """A fraction as a percentage: 12.3%, or +12.3% when signed, a minus sign (−) below zero and never '−0%'; `na`
    for nan or infinity."""
    if not math.isfinite(fraction):
        return na
    value = round(float(fraction) * 100, digits) + 0.0  # + 0.0: -0.0 (a rounded -0.04%) is 0
    return f"{value:{'+' if signed else ''}.{digits}f}%".replace("-", "−")


def number(x: float, digits: int = 3) -> str:
    return _sig(float(x), digits)


def figures(x: float, digits: int = 3) -> str:
    """x at `digits` significant figures, its whole part rounded too, as number() writes it: 2,907.3 -> '2,910',
    12.37 -> '12.4', 75 -> '75.0'. A table's column of numbers (cache.display_numbers) and the labels read beside it
    (Hardware's MLPerf bars had read '2,907' over the table's '2,910')."""
    v = float(x)
    return number(float(f"{v:.{digits}g}") if math.isfinite(v) else v, digits)


def column_decimals(values, sig: int = 3, *, lo: int = 0, hi: int = 3) -> int:
    """One number of decimals for a table column: enough for `sig` significant figures of its largest magnitude,
    clamped to [lo, hi] (21.9 and 0.04 ms -> 1: '21.9', '0.0'; 0.9 ms -> 3)."""
    finite = [abs(float(v)) for v in values if math.isfinite(float(v)) and v != 0]
    if not finite:
        return lo
    return min(hi, max(lo, sig - 1 - math.floor(math.log10(max(finite)))))


def fixed(x: float, decimals: int, *, na: str = "n/a") -> str:
    """A number with exactly `decimals` decimals and thousands separators: fixed(1234.5, 2) -> '1,234.50'."""
    return f"{float(x):,.{decimals}f}" if math.isfinite(float(x)) else na


def integer(x: float) -> str:
    """Rounded to a whole number with thousands separators: 4,608."""
    return f"{x:,.0f}"


def count(x: float) -> str:
    """A count that may be a half (mean cache length): 4,608 or 4,608.5."""
    return integer(x) if float(x).is_integer() else f"{x:,.1f}"


def exact(x: float) -> str:
    """A number as given, every digit kept, thousands separated: 16,384, 0.05, 1,234.5."""
    return f"{x:,.12g}"


def plain(x: float) -> str:
    """A short number as Python's general format writes it: 16, 0.5, 1e-06."""
    return f"{x:g}"


def signed(delta: float, show: Callable[[float], str]) -> str:
    """A difference with its sign (+, −, ±) before show(|delta|)."""
    return ("+" if delta > 0 else "−" if delta < 0 else "±") + show(abs(delta))


def megawatts(mw: float) -> str:
    """All-in power: '53.0 MW', '1.37 MW'; below 1 MW in kW ('1.37 kW' had read '0.0 MW' for a small fleet)."""
    if not math.isfinite(mw):
        return "n/a"
    return f"{_sig(mw)} MW" if abs(mw) >= 1 else f"{_sig(mw * 1e3)} kW"


def gpus(n: float, tr: Callable[..., str] | None = None) -> str:
    """A GPU count; where none up to the 1,024 searched holds it (nan), 'none' (with `tr`, in the page's language;
    short enough for a metric's value, the notice beside it says why): '> 1,024' had read as if a bigger cluster
    would, where more GPUs may not help."""
    if math.isfinite(n):
        return f"{int(n):,}"
    return tr("min_gpus_none") if tr is not None else "none"


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


def counted(key: str, n: float, tr: Callable[..., str]) -> str:
    """A count with its noun in this language ('1 output token', '1K output tokens'): `key`_one for one, else `key`
    with n as tokens() writes it (keys n_output_tokens, n_decode_steps in ui/strings/common.yaml)."""
    return tr(f"{key}_one") if int(n) == 1 else tr(key, n=tokens(n))


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


def fine_duration(seconds: float, *, tr: Callable[..., str] = EN) -> str:
    """µs below a millisecond, then as duration(): ms, s, min ..."""
    if math.isfinite(seconds) and 0 < seconds < 1e-3:
        return us(seconds)
    return duration(seconds, tr=tr)


def kib_and_bytes(n_bytes: float) -> str:
    """'320 KiB (327,680 B)'."""
    return f"{kib(n_bytes)} ({float(n_bytes):,.0f} B)"


def price_note(price, tr: Callable[..., str], *, cell: bool = False) -> str:
    """Which $/GPU-hour a figure uses, to print next to it: 'Hyperscaler TCO, as of 2026-09-20' (a PricePoint); in
    a narrow table cell (`cell`) its date does not wrap at its hyphens (date)."""
    basis = tr(f"basis_{price.basis}")
    as_of = date(price.as_of) if cell else price.as_of
    return tr("price_basis_note", basis=basis, as_of=as_of) if price.as_of else basis


def estimate(text: str, estimated: bool, tr: Callable[..., str]) -> str:
    """A number that rests on a catalog figure that is an estimate (Hardware.estimated), marked: '1,000 W
    (estimate)' (zh-TW '1,000 W（估計值）'); as it is otherwise."""
    return tr("estimate_mark", value=text) if estimated else text


def board_power(hw, tr: Callable[..., str], n: float = 1) -> str:
    """Board power (TDP) x n devices in W, marked where the TDP is an estimate ('1,000 W (estimate)'); '' where the
    chip lists none."""
    if hw.tdp_w is None:
        return ""
    return estimate(f"{number(hw.tdp_w * n)} W", hw.estimated("tdp_W"), tr)


def joules(j: float, hw, tr: Callable[..., str]) -> str:
    """Energy per token from board power: '0.802 J', marked where the chip's TDP is an estimate."""
    return estimate(f"{number(j)} J", hw.estimated("tdp_W"), tr)


def alternatives(items: Sequence[str], tr: Callable[..., str]) -> str:
    """Items one may choose among: 'A, B or C' (zh-TW 'A、B、C', its sentence says 任一)."""
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    return tr("list_or", items=tr("list_sep").join(items[:-1]), last=items[-1])


def priced_bases(hw, tr: Callable[..., str], *, besides: str | None = None) -> str:
    """The published bases that price this chip (economics.priced_bases, `besides` left out), as alternatives in
    words ('Neocloud TCO, Hyperscaler TCO or 3-year rental'); '' where none does."""
    return alternatives([tr(f"basis_{b}") for b in economics.priced_bases(hw, besides=besides)], tr)


def no_price_fact(price, hw, tr: Callable[..., str]) -> str:
    """What holds where a chip has no price under the basis (a PricePoint without one), as a clause: 'No public price
    for X under the basis 'On-demand cloud'' where another basis prices it (economics.priced_bases), else 'X has no
    published price in any basis'; under 'Your own', that none is entered."""
    if price.basis == "custom":
        return tr("no_own_price_fact")
    if economics.priced_bases(hw, besides=price.basis):
        return tr("no_public_price", hw=chip(hw, tr), basis=tr(f"basis_{price.basis}"))
    return tr("no_public_price_nowhere", hw=chip(hw, tr))


def no_price_short(price, tr: Callable[..., str]) -> str:
    """A $ figure's note under its dash where the chip has no price under the basis (a PricePoint without one): 'No
    public price', or under 'Your own', that one is to be entered and where (own_price: the sidebar's)."""
    return tr("own_price") if price.basis == "custom" else tr("no_public_price_short")


def no_price_text(price, hw, tr: Callable[..., str], *, own: str | None = None) -> str:
    """Why a chip has no $ figure under a price basis (a PricePoint without a price): what holds (no_price_fact), that
    its $ figures are not shown, and what to do: enter one's own price (`own`, an imperative naming where: the
    sidebar's by default, Compare's scenario field) or, where published bases price it, choose one of them in the
    sidebar; under 'Your own', that none is entered."""
    if price.basis == "custom":
        return tr("no_own_price")
    said = tr("no_price_then", fact=no_price_fact(price, hw, tr), then=tr("no_price_hidden"))
    own = own or tr("own_price")
    if bases := priced_bases(hw, tr, besides=price.basis):
        return tr.sentences([said, tr("no_price_remedy", own=own, bases=bases)])
    return tr.sentences([said, tr("no_price_remedy_nowhere", own=own)])


def prices_note(prices, tr: Callable[..., str]) -> str:
    """The basis of several chips' $ figures (PricePoints under one basis) and the dates they carry: 'On-demand
    cloud, as of 2025-02 … 2026-04' (each chip's own date is in its row)."""
    prices = list(prices)
    if not prices:
        return ""
    dates = sorted({p.as_of for p in prices if p.as_of})
    basis = tr(f"basis_{prices[0].basis}")
    if not dates:
        return basis
    return tr("price_basis_note", basis=basis, as_of=dates[0] if len(dates) == 1 else f"{dates[0]} … {dates[-1]}")


DEVICE_CHIP_VENDORS = ("Google", "AWS")  # TPUs, Trainium and Inferentia are chips, not GPUs
DEVICE_CHIP_IDS = ("gaudi",)  # catalog ids starting so: Intel's Gaudi accelerators (its Arc cards are GPUs)


def device_kind(hw) -> str:
    """What one device of this hardware is called: 'chip' (Google TPUs, AWS Trainium / Inferentia, Intel Gaudi) or
    'gpu'. The one place that decides the word; strings pick it with device_word / devices / device_text. `hw` may
    also be several (a page listing chips of every kind): 'gpu' only when all are GPUs, else the neutral 'chip' (a
    GPU is a chip too); or a kind already decided ('gpu' / 'chip')."""
    if isinstance(hw, str):
        return "chip" if hw == "chip" else "gpu"
    if isinstance(hw, Iterable):
        return "gpu" if all(device_kind(h) == "gpu" for h in hw) else "chip"
    chip = getattr(hw, "vendor", "") in DEVICE_CHIP_VENDORS or getattr(hw, "id", "").startswith(DEVICE_CHIP_IDS)
    return "chip" if chip else "gpu"


def device_key(key: str, hw, tr) -> str:
    """The string key in this hardware's device word: the key's '_chip' variant for chips (device_kind), where
    ui/strings has one because the text names the device ('Output tokens/s per chip', '每顆晶片'); the key itself
    otherwise ('... per GPU')."""
    chip = f"{key}_chip"
    return chip if device_kind(hw) == "chip" and tr.has(chip) else key


def device_text(key: str, hw, tr: Callable[..., str], /, **values: object) -> str:
    """tr(key, **values) in this hardware's device word (device_key)."""
    return tr(device_key(key, hw, tr), **values)


def device_tr(hw, tr):
    """The page's translator in this hardware's device word (device_kind): on a TPU or Trainium every string with a
    '_chip' variant reads 'chip' ('Your own $/chip-hour', 'KV cache per chip'); for a page or control about one chip
    (the sidebar's)."""
    return tr.for_device(device_kind(hw))


def device_word(hw, tr: Callable[..., str], n: float = 2) -> str:
    """'GPU' / 'GPUs' / 'chip' / 'chips' (zh-TW 'GPU' / '晶片') for n devices of this hardware."""
    return tr(f"dev_{device_kind(hw)}_{'one' if n == 1 else 'many'}")


def devices(hw, n: float, tr: Callable[..., str]) -> str:
    """A device count with its word: '8 GPUs', '1 GPU', '64 chips' (zh-TW '8 張 GPU', '64 顆晶片')."""
    return tr(f"dev_{device_kind(hw)}_count", n=gpus(n), word=device_word(hw, tr, n))


NBSP = "\u00a0"


def unbroken(value: str) -> str:
    """A formatted value ('41.6 ms', '−18.9 tok/s (−42.2%)') whose number and unit do not wrap apart in a narrow
    frame: its spaces non-breaking."""
    return value.replace(" ", NBSP)


def if_fitted_label(label: str, tr: Callable[..., str]) -> str:
    """A what-if's label (a scenario that does not fit) marked 'if it fitted' ('Roofline of H200 (per GPU), if it
    fitted'); one that ends in a full-width bracket takes the mark inside it ('H200 屋頂線圖（每張 GPU，若放得下）':
    zh-TW's own bracket after it had read '（每張 GPU）（若放得下）')."""
    if label.endswith("）"):
        return label[:-1] + tr("if_fitted_within") + "）"
    return tr("if_fitted_label", label=label)


def date(iso: str | None) -> str:
    """An ISO date ('2026-03-17') that does not wrap at its hyphens in a narrow cell (non-breaking hyphens); '—' for
    none."""
    return iso.replace("-", "\u2011") if iso else "—"


def token_count(n: float, tr: Callable[..., str]) -> str:
    """A large count of tokens in the reader's scale words, 3 significant figures: '1 trillion', '51.2 billion';
    zh-TW counts in 兆, 億 and 萬 ('1 兆', '512 億'), where '1,000 十億' had read as a sum (count_scales: value:word)."""
    x = float(n)
    for item in tr("count_scales").split(","):
        scale, word = item.split(":")
        if abs(x) >= float(scale):
            shown = number(x / float(scale))
            return tr("count_words", x=shown.rstrip("0").rstrip(".") if "." in shown else shown, word=word)
    return integer(x)


def span(labels: Iterable[str]) -> str:
    """The first and last of the labels, sorted, as a range ('v4.1–v5.1'), one alone as itself, '—' for none."""
    items = sorted(set(labels))
    return "—" if not items else items[0] if len(items) == 1 else f"{items[0]}–{items[-1]}"


def target_ms(tpot_s: float) -> str:
    """A TPOT target as it was set, on one line: '50 ms', '44.7 ms' (ms() would print the 50 ms a reader chose as
    '50.0 ms')."""
    s = float(tpot_s)
    return unbroken(f"{s * 1e3:.3g} ms") if math.isfinite(s) and s > 0 else "n/a"


def target(tpot_s: float, tr: Callable[..., str]) -> str:
    """A latency target in both its forms, interactivity first: '50 tok/s/user = 20 ms TPOT' (1 / TPOT), so a
    Planner target in ms TPOT and a Frontier target in tok/s per user read the same way."""
    s = float(tpot_s)
    if not (math.isfinite(s) and s > 0):
        return tr("na")
    return tr("target_both", user=f"{1.0 / s:.3g}", tpot=target_ms(s))


def chip_short(hw) -> str:
    """A chip's name short enough for a chart label: the catalog's short_name ('GB200 NVL72'), else the name without
    its vendor prefix and its bracketed detail ('NVIDIA H200 SXM 141GB' -> 'H200 SXM 141GB', 'Intel Gaudi 3 (HL-325L
    OAM)' -> 'Gaudi 3')."""
    short = getattr(hw, "short_name", "")
    if short:
        return short
    name = chip_plain(hw)
    vendor = getattr(hw, "vendor", "")
    if vendor and name.startswith(vendor + " "):
        name = name[len(vendor) + 1 :]
    for prefix in ("Instinct ", "GeForce "):
        name = name.removeprefix(prefix)
    return name.strip() or hw.name


def compute_fallback(fallback, tr: Callable[..., str]) -> str:
    """A hover's or label's 'no FP4 math: matrix multiplies at BF16' for an Estimate.compute_fallback pair (asked,
    used); '' for None (the chip runs the math as asked)."""
    if fallback is None:
        return ""
    return tr("compute_fallback_one", requested=fallback[0].upper(), used=fallback[1].upper())


def chip_names(
    chips: Sequence, full: Sequence[str] | None = None, *, star: bool = False, tr: Callable[..., str] | None = None
) -> list[str]:
    """Names for a list of chips on a chart axis, legend or table: their short names (chip_short; with star, '*' on
    announced parts, keyed under the chart; with `tr`, chip()'s "(announced)" on them in the page's language, as the
    Serving frontier's and Planner's labels read, and the caller's `full` names should carry it too) where no two
    coincide, else the `full` ones (default: the chips' own names); a chip given as None (not in the catalog) keeps
    its full name. The full names took half a 900 px frame."""
    full = [h.name for h in chips] if full is None else list(full)

    def short_name(h) -> str:
        if tr is not None:
            return chip(h, tr, short=True)
        return chip_short(h) + ("*" if star and getattr(h, "announced", False) else "")

    short = [f if h is None else short_name(h) for h, f in zip(chips, full, strict=True)]
    return short if len(set(short)) == len(short) else full


def capacity(memory, tr: Callable[..., str]) -> str:
    """The memory a chip's fit is gated against (estimate.UsableMemory), in decimal GB, with the vendor tool's GiB
    where that is its basis: '151 GB (141 GiB, as the vendor's tool reports it)'; several datasheet 'GB' are GiB."""
    if memory.basis != "reported":
        return gb(memory.capacity_bytes)
    return tr("mem_capacity_reported", gb=gb(memory.capacity_bytes), gib=_sig(memory.capacity_bytes / GiB))


def memory_rule(est, tr: Callable[..., str]) -> str:
    """' TensorRT-LLM gives its KV cache 0.9 of what …': how the usable memory is worked out where the engine's
    fraction is of the free memory (estimate.UsableMemory.of_free), to follow a usable figure; '' otherwise."""
    gate = est.memory_gate
    if not gate.of_free:
        return ""
    return tr("mem_rule_free", engine=engine_name(est.profile.id, tr), fraction=f"{gate.fraction:g}",
              reserved=gb(gate.reserved_bytes))  # fmt: skip


def engine_name(profile_id: str, tr: Callable[..., str]) -> str:
    """A profile id's display name, as controls.profile_label gives it: translated for the generic profiles
    ('typical'), the engine's own name for a built-in engine ('TensorRT-LLM', not 'tensorrt-llm'), else the id."""
    key = f"profile_{profile_id}"
    return tr(key) if tr.has(key) else ENGINES.get(profile_id, (profile_id,))[0]


def family(family_id: str, tr: Callable[..., str]) -> str:
    """A chip family's name (tpot_model.engines.CHIP_FAMILIES) in the reader's language: ui/strings' family_<id>
    where the name has words to translate ('NVIDIA Blackwell 資料中心 GPU'), else the catalog's ('NVIDIA Hopper')."""
    key = "family_" + family_id.replace("-", "_")
    return tr(key) if tr.has(key) else CHIP_FAMILIES[family_id][0]


def chip_plain(hw) -> str:
    """A chip's full name without its bracketed detail, for a title that says its own '(per GPU)': 'NVIDIA GB200 NVL72
    (per B200 GPU, NVL72, 1200 W)' -> 'NVIDIA GB200'."""
    return hw.name.split(" (")[0].strip() or hw.name


def chip(hw, tr: Callable[..., str], *, short: bool = False) -> str:
    """A chip's display name (short: chip_short's, for chart labels and multiselect tags), marked "(announced)" (in the
    page's language) when it is not shipping yet: the one place that mark is added, so every page that lists hardware
    shows it."""
    name = chip_short(hw) if short else hw.name
    return tr("hw_announced_name", name=name) if getattr(hw, "announced", False) else name


def profile_description(profile, tr) -> str:
    """A profile's description in the reader's language: ui/strings' translation of a built-in profile's
    (profile_description_<id>), else the profile's own text (a user's file)."""
    key = "profile_description_" + "".join(c if c.isalnum() else "_" for c in profile.id)
    return tr(key) if tr.has(key) else profile.description


def text_px(text: str, char_px: float) -> float:
    """Estimated width of `text` (pixels) at `char_px` per Latin glyph: wide (East Asian) characters count twice."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text) * char_px


_URL = re.compile(r"https?://[^\s()]+")
_ARXIV = re.compile(r"arXiv:\s*(\d{4}\.\d{4,5})", re.IGNORECASE)


def source_url(source: str) -> str:
    """The link in a source citation: its first URL, or the arXiv abstract page it cites; '' if neither."""
    m = _URL.search(source)
    if m:
        return m.group(0).rstrip(".,;")
    m = _ARXIV.search(source)
    return f"https://arxiv.org/abs/{m.group(1)}" if m else ""
