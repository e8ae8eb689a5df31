"""The shared scenario as plain values, and its URL form. Pure (no Streamlit): parse, validate, serialise.

Query parameters (values are catalog ids and plain numbers): model, hardware, gpus, weights, kv, compute, batch,
context, output, profile, as_of (an ISO date: the engine profile as it was that day; absent = its newest values),
price_basis, price (the custom $/GPU-hour; a link with price and no price_basis means custom), lang. Anything invalid falls back to the default or the nearest valid value and
produces a notice; nothing from a URL is ever rendered as HTML or executed.
"""

from __future__ import annotations

import base64
import binascii
import datetime
import json
import math
import zlib
from collections.abc import Collection, Mapping
from dataclasses import asdict, dataclass, replace

from tpot_model import FORMATS, KV_FORMATS, Scenario, parse_format
from tpot_model.catalog import close_ids, find_id
from tpot_model.files import load_yaml
from tpot_model.precision import COMPUTE_PRECISIONS
from tpot_model.prices import CUSTOM as CUSTOM_BASIS
from tpot_model.prices import DEFAULT_BASIS, MAX_USD_PER_GPU_HOUR, PRICE_BASES

from .i18n import DEFAULT_LANGUAGE, LANGUAGES

BATCH_OPTIONS = (1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 4096)
CONTEXT_OPTIONS = (
    0, 128, 256, 512, 1024, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152, 65536, 98304,
    131072, 196608, 262144, 524288, 1048576,
)  # fmt: skip
OUTPUT_OPTIONS = (1, 2, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768)
GPU_OPTIONS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 72, 96, 128, 256, 512, 1024)
WEIGHT_OPTIONS = tuple(FORMATS)
KV_OPTIONS = KV_FORMATS
COMPUTE_OPTIONS = ("auto", *COMPUTE_PRECISIONS)
CUSTOM_ID = "custom"  # id of an uploaded model or hardware file in the session


@dataclass(frozen=True)
class ScenarioState:
    """What the sidebar holds; every field is a URL parameter of the same name."""

    model: str = "llama-3.1-70b"
    hardware: str = "h200"
    gpus: int = 2
    weights: str = "fp8"
    kv: str = "bf16"
    compute: str = "auto"
    batch: int = 32
    context: int = 4096
    output: int = 1024
    profile: str = "typical"
    price: float | None = None  # USD per GPU-hour under price_basis "custom"
    lang: str = DEFAULT_LANGUAGE
    price_basis: str = DEFAULT_BASIS  # which of the chip's prices (data/prices.yaml); "custom": `price`
    as_of: str | None = None  # ISO date: the engine profile's dated history (None: the newest values)

    def to_query(self) -> dict[str, str]:
        """The URL form: plain strings, price omitted when it is the catalog's."""
        q = {k: (f"{v:g}" if isinstance(v, float) else str(v)) for k, v in asdict(self).items() if v is not None}
        return q

    def to_scenario(self, **overrides: object) -> Scenario:
        """The model's Scenario for these values; keyword overrides (e.g. batch=array) replace fields."""
        values = dict(
            batch=self.batch,
            context_tokens=self.context,
            output_tokens=self.output,
            num_gpus=self.gpus,
            weights=parse_format(self.weights),
            kv_cache=parse_format(self.kv),
            compute=None if self.compute == "auto" else self.compute,
            price_usd_per_gpu_hour=self.price if self.price_basis == CUSTOM_BASIS else None,
            price_basis=self.price_basis,
            as_of=self.as_of,
        )
        values.update(overrides)
        return Scenario(**values)

    def with_(self, **changes: object) -> ScenarioState:
        return replace(self, **changes)


DEFAULT = ScenarioState()


@dataclass(frozen=True)
class Notice:
    """A problem with one URL parameter: which, what was given (sanitised), and what was used instead (as the link
    writes it: an id, a plain number, '—' or '' for the default; ui.notices shows it as the control does); `snapped`:
    the value was a valid number between the slider's stops, and the nearest stop is used; `unknown`: no page reads
    the parameter (used: the name the page open or the sidebar reads that it is likely meant for, '' without one);
    `switch`: an on/off parameter; `near`: the catalog ids a bad name resembles (catalog.close_ids); `repeated`: given
    more than once with different values (given: them all, used: the last, the one read)."""

    param: str
    given: str
    used: str
    snapped: bool = False
    unknown: bool = False
    switch: bool = False  # an on/off parameter ('0' / '1'): the notice says which the used value is
    near: tuple[str, ...] = ()  # catalog ids a bad model or chip name resembles: the notice asks "did you mean"
    repeated: bool = False
    # a number's allowed range, said in the notice (a link's 'planner_target_ms=1e9' had read 'not valid here' only):
    # from `lo` to `hi` (None: no bound that side), `whole`: whole numbers only
    lo: float | None = None
    hi: float | None = None
    whole: bool = False
    # a choice's accepted values as a link writes them, listed in the notice (a link's 'ec_replicas=wide' had not said
    # that `search` and `tp` are); empty: none listed (a catalog name: `near` says the ids it resembles)
    options: tuple[str, ...] = ()


def accepted(allowed: Collection[str]) -> tuple[str, ...]:
    """A choice's accepted values in a stable order for its notice: as given, or sorted where given as a set."""
    return tuple(sorted(allowed)) if isinstance(allowed, (set, frozenset)) else tuple(allowed)


def sanitize(value: object, limit: int = 40) -> str:
    """A URL value made safe to show as plain text: printable, no backticks or markup characters, truncated."""
    text = "".join(ch for ch in str(value) if ch.isprintable() and ch not in "`<>[]()*_#\\|{}")
    return text[:limit] + ("…" if len(text) > limit else "")


def nearest(options: tuple[int, ...], value: float) -> int:
    """The option closest to value on a log scale (values span decades)."""
    return min(options, key=lambda o: abs(math.log1p(o) - math.log1p(value)))


def last(value: object) -> str:
    """A URL parameter's value as text: the last one when it is given several times."""
    if isinstance(value, (list, tuple)):
        return str(value[-1]) if value else ""
    return str(value)


def parse_query(
    params: Mapping[str, object], models: Mapping | set[str], hardware: Mapping | set[str], profile_ids: set[str]
) -> tuple[ScenarioState, list[Notice]]:
    """Validated scenario from URL parameters; unknown keys are ignored, bad values replaced with notices. `models`
    and `hardware`: the catalogs (id -> entry; a set of ids alone also does), so a link may name a model or chip
    as people write it ('GB200 NVL72', 'deepseek-ai/DeepSeek-R1': catalog.find_id)."""
    values: dict[str, object] = {}
    notices: list[Notice] = []

    def choice(key: str, allowed: Mapping | set[str] | tuple[str, ...], names: bool = False) -> None:
        if key not in params:
            return
        raw = last(params[key]).strip()
        catalog = allowed if isinstance(allowed, Mapping) else dict.fromkeys(allowed)
        found = find_id(raw, catalog) if names else raw if raw in allowed else None
        if found is not None:
            values[key] = found
        else:
            near = tuple(close_ids(raw, catalog)) if names else ()
            notices.append(Notice(key, sanitize(raw), str(getattr(DEFAULT, key)), near=near,
                                  options=() if names else accepted(allowed)))  # fmt: skip

    def numeric(key: str, options: tuple[int, ...]) -> None:
        if key not in params:
            return
        raw = last(params[key]).strip()
        try:
            x = float(raw)
        except ValueError:
            x = float("nan")
        if not math.isfinite(x) or x < min(options):
            notices.append(Notice(key, sanitize(raw), str(getattr(DEFAULT, key)), lo=min(options)))
            return
        snapped = nearest(options, x)
        if snapped != x:
            notices.append(Notice(key, sanitize(raw), str(snapped), snapped=True))
        values[key] = snapped

    choice("model", models, names=True)
    choice("hardware", hardware, names=True)
    choice("profile", profile_ids)
    choice("kv", KV_OPTIONS)
    choice("compute", COMPUTE_OPTIONS)
    choice("lang", tuple(LANGUAGES))
    choice("weights", WEIGHT_OPTIONS)
    choice("price_basis", PRICE_BASES)
    numeric("gpus", GPU_OPTIONS)
    numeric("batch", BATCH_OPTIONS)
    numeric("context", CONTEXT_OPTIONS)
    numeric("output", OUTPUT_OPTIONS)
    if "as_of" in params:
        raw = last(params["as_of"]).strip()
        try:
            values["as_of"] = datetime.date.fromisoformat(raw).isoformat() if raw else None
        except ValueError:
            notices.append(Notice("as_of", sanitize(raw), "—"))
    if "price" in params:
        raw = last(params["price"]).strip()
        try:
            p = float(raw)
        except ValueError:
            p = float("nan")
        if raw == "":
            pass
        elif math.isfinite(p) and 0 <= p <= MAX_USD_PER_GPU_HOUR:
            values["price"] = p
            if "price_basis" not in params:  # an older link: its price was the user's own
                values["price_basis"] = CUSTOM_BASIS
        else:
            notices.append(Notice("price", sanitize(raw), "—"))
    return replace(DEFAULT, **values), notices


MAX_EMBEDDED_SPEC_CHARS = 8000  # a custom hardware/model spec carried in a link, compressed + base64


def encode_spec(text: str) -> str:
    """A user's hardware or model file as a compact URL-safe token (parsed safely, JSON, zlib, base64)."""
    data = load_yaml(text)
    raw = json.dumps(data, separators=(",", ":"), sort_keys=True).encode("utf-8")
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


def decode_spec(token: str) -> str:
    """The JSON text of a spec token; ValueError when it is not one (too long, not base64, not zlib, too big)."""
    if len(token) > MAX_EMBEDDED_SPEC_CHARS:
        raise ValueError("too long")
    try:
        packed = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, 64_000)
        if inflater.unconsumed_tail:
            raise ValueError("too large")
        return raw.decode("utf-8")
    except (binascii.Error, zlib.error, UnicodeDecodeError) as e:
        raise ValueError(str(e)) from None


def as_of_options(revision_dates: tuple[str, ...], current: str | None) -> list[str | None]:
    """The sidebar's engine-date choices for a profile: None (the newest values), then one day inside each older
    release period, newest first (the day before each revision's `until`), and the current value if it is another
    date (a link's)."""
    days = [(datetime.date.fromisoformat(u) - datetime.timedelta(days=1)).isoformat() for u in revision_dates]
    options: list[str | None] = [None, *sorted(days, reverse=True)]
    if current is not None and current not in options:
        options.append(current)
    return options
