"""The sidebar scenario: widgets keyed by their URL parameter names, initialised from the URL, written back to it.

Pages call ``scenario_state()`` and ``translator()``; both fall back to defaults, so a page script also runs alone.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
from collections.abc import Callable, Collection
from contextvars import ContextVar
from dataclasses import asdict, fields
from pathlib import Path

import numpy as np
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from tpot_model import Estimate
from tpot_model import estimate as model_estimate
from tpot_model.estimate import tpot_only_s
from tpot_model.prices import CUSTOM as CUSTOM_BASIS
from tpot_model.prices import PRICE_BASES
from tpot_model.profiles import BASES

from . import cache, embed, expanders, export, fmt, page_state, uploads
from .i18n import LANGUAGES, Translator
from .notices import Shown, url_notices
from .state import (
    BATCH_OPTIONS,
    COMPUTE_OPTIONS,
    CONTEXT_OPTIONS,
    CUSTOM_ID,
    GPU_OPTIONS,
    KV_OPTIONS,
    OUTPUT_OPTIONS,
    WEIGHT_OPTIONS,
    Notice,
    ScenarioState,
    as_of_options,
    parse_query,
    sanitize,
)

_FIELDS = [f.name for f in fields(ScenarioState)]
_INIT_FLAG = "_scenario_initialised"
_NOTICES = "_url_notices"
_UNKNOWN = "_url_unknown"  # the link's parameters no page reads: name -> value
_DRAWN = "_scenario_widgets_drawn"  # the scenario's widgets have been drawn in this session
# the scenario the sidebar settled in this run, with the run's own cursors dict (new each run): scenario_state()
# reads it rather than the session's two dozen values again (a page asks four to six times a run)
_RUN_STATE: ContextVar[tuple[object, ScenarioState] | None] = ContextVar("tpot_run_state", default=None)


_VIA_APP = "_controls_via_app"  # session state: this session's runs go through app.py's st.navigation
APP_SCRIPT = "app.py"  # the entry point (streamlit run app.py), whose frame every page runs in


def mark_app_run() -> None:
    """app.py's first call each run: the session runs through app.py's frame (st.navigation), not a page file alone."""
    st.session_state[_VIA_APP] = True


def _require_navigation() -> None:
    """A link straight to a page on a freshly started server runs that file through Streamlit's legacy pages/
    mode, without app.py's frame: switch the process to st.navigation and rerun through app.py. Decided per session
    (app.py marks its runs), not by the process's flag: sessions opened at one moment on a fresh server (a wiki page of
    five embeds) had all started in the legacy mode, and only the first to switch had rerun; the others drew a page
    without its frame or stopped at its fold."""
    if st.session_state.get(_VIA_APP):
        return
    ctx = get_script_run_ctx()
    if ctx is None or Path(ctx.main_script_path).name != APP_SCRIPT:  # a page file run as the app itself (a test of
        return  # the page alone): there is no app.py to rerun through
    from streamlit.runtime.pages_manager import PagesManager

    PagesManager.uses_pages_directory = False
    st.rerun()


def _init_from_url() -> None:
    """On a session's first run, load the scenario from the URL (validated) into the widgets' state."""
    _require_navigation()
    if st.session_state.get(_INIT_FLAG):
        return
    params = st.query_params.to_dict()
    if any(p in params for p in uploads.KINDS.values()):
        spec_notices = uploads.from_url(params)
        models = cache.models() | ({CUSTOM_ID: None} if uploads.custom("model") else {})
        hardware = cache.hardware() | ({CUSTOM_ID: None} if uploads.custom("hardware") else {})
        state, notices = parse_query(params, models, hardware, set(cache.profiles()))
        notices = spec_notices + notices
    else:
        state, notices = _parsed_link(tuple(sorted(params.items())))
        notices = list(notices)
    for key, value in asdict(state).items():
        st.session_state[key] = value
    repeated = [  # a parameter given twice with different values: the last is read, said so
        Notice(key, sanitize(", ".join(values)), sanitize(values[-1]), repeated=True)
        for key in st.query_params
        if len(set(values := st.query_params.get_all(key))) > 1
    ]
    st.session_state[_NOTICES] = repeated + notices
    st.session_state[_UNKNOWN] = {k: v for k, v in params.items() if k not in _known_params()}
    st.session_state[_INIT_FLAG] = True


def _known_params() -> frozenset[str]:
    """Every URL parameter some page or the sidebar reads: the scenario's, the uploads', the embed view's and each
    page's own."""
    return page_state.page_params() | set(_FIELDS) | set(uploads.KINDS.values()) | set(embed.PARAMS)


@functools.lru_cache(maxsize=256)
def _parsed_link(params: tuple[tuple[str, str], ...]) -> tuple[ScenarioState, tuple[Notice, ...]]:
    """parse_query of a link that carries no uploaded spec (it depends on the link and the catalogs alone): once per
    link, not once per reader of it."""
    state, notices = parse_query(dict(params), cache.models(), cache.hardware(), set(cache.profiles()))
    return state, tuple(notices)


def scenario_state() -> ScenarioState:
    """The current scenario (from the widgets' state, or the URL / defaults when the sidebar has not run)."""
    memo, ctx = _RUN_STATE.get(), get_script_run_ctx()
    if memo is not None and ctx is not None and memo[0] is ctx.cursors:  # the sidebar has settled it this run
        return memo[1]
    _init_from_url()
    return ScenarioState(**{k: st.session_state[k] for k in _FIELDS})


def translator() -> Translator:
    _init_from_url()
    return Translator(st.session_state.get("lang", "en"))


def notices(page: str | None = None) -> list[Notice]:
    """The link's notices (its first run's in the session): the scenario's bad values, then its parameters no page
    reads, each with the one `page` (the page open: its file's name) or the sidebar reads that it is likely meant for."""
    unknown = st.session_state.get(_UNKNOWN)
    extra = page_state.unknown_params(unknown, _known_params(), page) if unknown else []
    return st.session_state.get(_NOTICES, []) + extra


def sidebar_labels(tr: Translator) -> dict[str, Shown]:
    """The sidebar's controls as a link's notices name them: each parameter's label and how it shows a value (the
    widgets' own format functions)."""
    models, hardware, profiles = (
        _options("model", cache.models()),
        _options("hardware", cache.hardware()),
        cache.profiles(),
    )
    chosen = hardware.get(st.session_state.get("hardware"))
    tr = fmt.device_tr(chosen, tr)  # 'chips', '$/chip-hour' for a TPU or Trainium
    tokens = lambda n: fmt.tokens(int(n))  # noqa: E731
    return {
        "lang": Shown(tr("control_lang"), LANGUAGES.get),
        "model": Shown(tr("control_model"), lambda i: _label(models[i], i, tr)),
        "hardware": Shown(tr("control_hardware"), lambda i: _label(hardware[i], i, tr)),
        "gpus": Shown(tr(f"control_gpus_{fmt.device_kind(chosen)}")),
        "weights": Shown(tr("control_weights")),
        "kv": Shown(tr("control_kv")),
        "compute": Shown(tr("control_compute"), lambda c: compute_label(c, tr)),
        "batch": Shown(tr("control_batch")),
        "context": Shown(tr("control_context"), tokens),
        "output": Shown(tr("control_output"), tokens),
        "profile": Shown(tr("control_profile"), lambda p: profile_label(profiles[p], tr)),
        "as_of": Shown(tr("control_as_of"), default=tr("as_of_newest")),
        "price_basis": Shown(tr("control_price_basis"), lambda b: basis_label(b, tr)),
        "price": Shown(tr("control_price")),
        **{param: Shown(tr(f"upload_{kind}")) for kind, param in uploads.KINDS.items()},
    }


def _at(key: str, options, arg: str = "index") -> dict:
    """A scenario widget's default set to its current value (selectbox `index`, select_slider `value`): the browser
    falls back to a widget's default when it re-creates the widget without the value it held, and under load (a
    dozen sessions opening at once) whole rows of the sidebar had fallen back to their first options and been written
    to the URL (Llama 2 7B, A100 40GB, fp32). {} where the value is not an option (Streamlit resolves it)."""
    value, listed = st.session_state.get(key), list(options)
    if value not in listed:
        return {}
    return {"index": listed.index(value)} if arg == "index" else {"value": value}


def sidebar(scenario: bool = True) -> ScenarioState:
    """Draw the scenario controls in the sidebar and mirror them into the URL. Embedded (?embed=true): in a closed
    expander at the top of the page instead, whose controls are sent only once it is opened; none on a page that
    reads no scenario (`scenario` False: navigation.SCENARIO_FREE)."""
    _init_from_url()
    tr = translator()
    embedded = embed.embedded()
    if embedded:
        if st.session_state.get(_DRAWN):  # kept while their widgets are not drawn (Streamlit drops an undrawn
            for key in _FIELDS:  # widget's value); a reader who never opened the controls holds plain values
                st.session_state[key] = st.session_state[key]
        frame = expanders.lazy_expander(tr("embed_controls"), "embed.controls") if scenario else None
        if frame is None:
            return _mirror(scenario_state())
    else:
        frame = st.sidebar
    st.session_state[_DRAWN] = True
    with frame:
        st.selectbox(
            tr("control_lang"), list(LANGUAGES), format_func=LANGUAGES.get, key="lang", **_at("lang", LANGUAGES)
        )
        tr = translator()
        main_box, upload_box = st.container(), st.container()
    if not embedded and (box := expanders.lazy_expander(tr("upload_title"), "upload.open", upload_box)) is not None:
        with box:
            uploads.uploader("hardware", tr)
            uploads.uploader("model", tr)
    models, hardware, profiles = (
        _options("model", cache.models()),
        _options("hardware", cache.hardware()),
        cache.profiles(),
    )
    with main_box:
        st.selectbox(tr("control_model"), list(models), format_func=lambda i: _label(models[i], i, tr), key="model",
                     **_at("model", models))  # fmt: skip
        st.selectbox(
            tr("control_hardware"),
            list(hardware),
            format_func=lambda i: _label(hardware[i], i, tr),
            key="hardware",
            **_at("hardware", hardware),
        )
        chosen = hardware.get(st.session_state.get("hardware"))  # TPUs and Trainium count chips, not GPUs
        tr = fmt.device_tr(chosen, tr)  # the help and price texts below: '$/chip-hour' for a TPU or Trainium
        gpus_label = tr(f"control_gpus_{fmt.device_kind(chosen)}")
        st.select_slider(gpus_label, GPU_OPTIONS, key="gpus", help=tr("help_gpus"), **_at("gpus", GPU_OPTIONS, "value"))
        c1, c2 = st.columns(2)
        c1.selectbox(
            tr("control_weights"),
            WEIGHT_OPTIONS,
            key="weights",
            help=tr("help_weights"),
            **_at("weights", WEIGHT_OPTIONS),
        )
        c2.selectbox(tr("control_kv"), KV_OPTIONS, key="kv", help=tr("help_kv"), **_at("kv", KV_OPTIONS))
        st.selectbox(
            tr("control_compute"),
            COMPUTE_OPTIONS,
            key="compute",
            **_at("compute", COMPUTE_OPTIONS),
            format_func=lambda c: compute_label(c, tr),
            help=tr("help_compute"),
        )
        for key, options, shown in (("batch", BATCH_OPTIONS, str), ("context", CONTEXT_OPTIONS, fmt.tokens),
                                    ("output", OUTPUT_OPTIONS, fmt.tokens)):  # fmt: skip
            st.select_slider(tr(f"control_{key}"), options, key=key, format_func=shown, help=tr(f"help_{key}"),
                             **_at(key, options, "value"))  # fmt: skip
        st.selectbox(
            tr("control_profile"),
            list(profiles),
            format_func=lambda p: profile_label(profiles[p], tr),
            key="profile",
            **_at("profile", profiles),
            help=tr("help_profile") + profile_basis_text(profiles.get(st.session_state.get("profile", "")), tr),
        )
        dates = profiles[st.session_state["profile"]].revision_dates
        st.selectbox(
            tr("control_as_of"),
            (as_of := as_of_options(dates, st.session_state.get("as_of"))),
            key="as_of",
            **_at("as_of", as_of),
            format_func=lambda d: as_of_label(d, dates, tr),
            placeholder=tr("as_of_newest"),  # None (the newest values) reads as Streamlit's English placeholder
            disabled=not dates,
            help=tr("help_as_of"),
        )
        hw = hardware[st.session_state["hardware"]]
        st.selectbox(
            tr("control_price_basis"),
            PRICE_BASES,
            key="price_basis",
            **_at("price_basis", PRICE_BASES),
            format_func=lambda b: basis_label(b, tr),
            help=tr("help_price_basis"),
        )
        custom = st.session_state["price_basis"] == CUSTOM_BASIS
        listed = [hw.prices.price(b) for b in PRICE_BASES[:-1]]
        hint = tr.join([f"{basis_label(p.basis, tr)} {fmt.usd(p.usd_per_gpu_hour)}" for p in listed if p is not None])
        # the basis chosen's own published price (a custom price box: the first published one, as a hint)
        shown = (
            next((p for p in listed if p is not None), None)
            if custom
            else hw.prices.price(st.session_state["price_basis"])
        )
        st.number_input(
            tr("control_price"),
            min_value=0.0,
            max_value=1000.0,
            step=0.1,
            key="price",
            disabled=not custom,
            # the box holds a price and a word or two ('公開價格：雲端隨需 $4.5' was cut): every basis's in its help
            placeholder=tr("price_placeholder", price=fmt.usd(shown.usd_per_gpu_hour)) if shown else tr("no_price"),
            help=tr("help_price", prices=hint or tr("no_price")),
        )
    return _mirror(scenario_state())


def write_page_params(
    wanted: dict[str, str], as_linked: Callable[[dict], dict[str, str]], dropped: Collection[str] = ()
) -> None:
    """A page's own inputs into the URL beside the scenario's (`wanted`, plain strings): only when one differs, and
    each of `dropped` that `wanted` leaves out leaves the URL. In the embed view nothing when `wanted` is what the
    link itself resolves to (`as_linked`: the URL's parameters -> its inputs as `wanted` writes them): a wiki
    reader's run of its own link sends no message (the full view's link carries the link's inputs)."""
    now = st.query_params.to_dict()
    if embed.embedded() and as_linked(now) == wanted:
        return
    if any(now.get(k) != v for k, v in wanted.items()):
        st.query_params.update(wanted)
    for key in dropped:
        if key in st.query_params and key not in wanted:
            del st.query_params[key]


def linked_view(
    key: str,
    options: Collection[str] = (),
    default: object = None,
    *,
    tr: Translator,
    label: str | None = None,
    shows: Callable[[str], str] | None = None,
) -> object:
    """Before a view control's widget (`key`, a key of page_state.VIEW_CONTROLS): on its first run in the session,
    the link's value into its session state (a bad one: a line in the link's notice on every run, `default` kept),
    else `default` where the session holds none or a value no longer among `options`; then the value into the URL
    (none at the default). The widget is drawn with its key and no default of its own; `label` and `shows` (an
    option -> its text): the widget's own, for the notice. Returns the value."""
    control = page_state.ViewControl(key, tuple(options), default)
    seen = f"_view_link:{key}"
    if seen not in st.session_state:
        value, bad = page_state.parse_view(st.query_params.to_dict(), control)
        st.session_state[seen] = bad
        if value is not None:
            st.session_state[key] = value

    def option(v: str) -> str:  # a list's item of no id as the link writes it: the option ''
        return shows("" if v == page_state.NO_ID else v)

    shown = Shown(label, option if shows is not None else None, items=control.kind == "items")
    url_notices(st.session_state[seen], tr, {control.param: shown})
    # a value the options no longer hold (Cost's $ map on a chip without a price) falls back to `default` for as long,
    # and comes back with them unless the reader chose another since (it had stuck, and the link with it)
    held, stash = st.session_state.get(key), f"_view_wanted:{key}"
    wanted, fell_to = st.session_state.get(stash, (None, None))
    if wanted is not None and held == fell_to and page_state.view_value(control, wanted) == wanted:
        held = st.session_state[key] = wanted
        st.session_state.pop(stash, None)
    value = page_state.view_value(control, held)
    if held != value:
        if held is not None:
            st.session_state[stash] = (held, value)
        st.session_state[key] = value

    def as_linked(params: dict) -> dict[str, str]:
        linked = page_state.parse_view(params, control)[0]
        return page_state.view_query(control, default if linked is None else linked)

    write_page_params(page_state.view_query(control, value), as_linked, dropped=[control.param])
    return value


def _mirror(state: ScenarioState) -> ScenarioState:
    """Write the scenario into the URL, beside the pages' own parameters (in the embed view, once it differs from the
    link's); the run's scenario from here on."""
    if (ctx := get_script_run_ctx()) is not None:
        _RUN_STATE.set((ctx.cursors, state))
    owned = set(_FIELDS) | set(uploads.KINDS.values())
    pages = page_state.page_params() | set(embed.PARAMS)
    now = st.query_params.to_dict()
    # a wiki reader's run of its link: the frame's URL is not seen, and the full view's link carries the link's own
    # scenario; no message to the browser
    unchanged = embed.embedded() and not any(p in now for p in uploads.KINDS.values())
    if unchanged and _parsed_link(tuple(sorted(now.items()))) == (state, ()):
        return state
    # pages' own parameters stay (another page's too: they survive a switch of pages); those no page reads leave, so
    # that the link copied on is not warned about again (the notice of this session's first run said so)
    others = {k: v for k, v in now.items() if k not in owned and k in pages}
    wanted = {**others, **state.to_query(), **uploads.url_params(state)}
    if wanted != now:
        st.query_params.from_dict(wanted)
    return state


def compute_label(compute: str, tr: Translator) -> str:
    """A compute precision as the sidebar shows it ('auto (from weight format)', 'fp8')."""
    return tr("compute_auto") if compute == "auto" else compute


def basis_label(basis: str, tr: Translator) -> str:
    """A price basis's short name ("Hyperscaler TCO", "Your own")."""
    return tr(f"basis_{basis}")


def use_own_price() -> None:
    """The one click from 'no public price': switch the sidebar to the user's own $/GPU-hour (an on_click callback)."""
    st.session_state["price_basis"] = CUSTOM_BASIS


def as_of_label(day: str | None, revision_dates: tuple[str, ...], tr: Translator) -> str:
    """'newest' or 'before <until>' (the release period the day falls in), or the day itself after every revision."""
    if day is None:
        return tr("as_of_newest")
    later = sorted(u for u in revision_dates if day < u)
    return tr("as_of_before", until=later[0]) if later else tr("as_of_day", day=day)


def profile_basis_text(profile, tr: Translator) -> str:
    """' <name>: fitted to measurements: a, b; documented: c; inherited from typical (no data yet): d' for an
    engine profile (its per-field basis from profiles.yaml), '' for one without (ideal, typical, an upload)."""
    basis = dict(getattr(profile, "basis", ()) or ())
    if not basis:
        return ""
    parts = [
        tr(f"profile_basis_{b}", fields=", ".join(k for k, v in basis.items() if v == b))
        for b in BASES
        if b in basis.values()
    ]
    return "\n\n" + tr("profile_basis", name=profile_label(profile, tr), parts="; ".join(parts))


def profile_label(profile, tr: Translator, *, short: bool = False) -> str:
    """A profile's display name: translated for the generic profiles, the engine's own name otherwise; short: the
    generic profiles' short names ('typical engine'), for a chart title that must fit a 900 px frame."""
    key = f"profile_short_{profile.id}" if short else f"profile_{profile.id}"
    if short and not tr.has(key):
        key = f"profile_{profile.id}"
    return tr(key) if tr.has(key) else profile.name


def scenario_intro(est: Estimate, state: ScenarioState, tr: Translator) -> str:
    """The sentence that opens Overview and Methodology: model on GPUs x chip, formats, batch, lengths, profile."""
    return tr(
        "ov_intro",
        model=est.model.name,
        gpus=fmt.gpus(state.gpus),
        hw=est.hardware.name,
        weights=state.weights,
        kv=state.kv,
        batch=fmt.integer(state.batch),
        context=fmt.tokens(state.context),
        output_tokens=fmt.counted("n_output_tokens", state.output, tr),
        profile=profile_label(est.profile, tr),
    )


def _options(kind: str, catalog: dict) -> dict:
    """Catalog entries plus the session's uploaded one (id 'custom'), if any."""
    obj = uploads.custom(kind)
    return {**catalog, CUSTOM_ID: obj} if obj is not None else catalog


def _label(obj, obj_id: str, tr: Translator) -> str:
    return tr("uploaded_label", name=obj.name) if obj_id == CUSTOM_ID else fmt.chip(obj, tr)


def resolve(state: ScenarioState):
    """(model, hardware, profile) objects for a scenario state; 'custom' is the session's uploaded file."""
    return (
        _options("model", cache.models())[state.model],
        _options("hardware", cache.hardware())[state.hardware],
        cache.profiles()[state.profile],
    )


def evaluate(state: ScenarioState, profile_id: str | None = None, **overrides: object) -> Estimate:
    """The model's estimate for the state (overrides replace Scenario fields, e.g. batch=np.array(...)): computed
    once per server for each scenario (its URL form, uploads included), profile and overrides, and shared read-only
    by every session (ui.cache.estimate)."""
    model, hw, profile = resolve(state)
    if profile_id is not None:
        profile = cache.profiles()[profile_id]
    replaced = [_URL_NAME.get(k, k) for k in overrides]  # the result does not depend on the state's values of these
    key = "|".join(
        [
            cache.scenario_key(state, "lang", *replaced),
            profile.id,
            *(_value_key(k, overrides[k]) for k in sorted(overrides)),
        ]
    )
    return cache.estimate(key, model, hw, lambda: state.to_scenario(**overrides), profile)


def evaluate_chips(
    state: ScenarioState, hardware_ids: list[str], profile_id: str | None = None, *, tpot_only: bool = False
) -> list:
    """evaluate() of the state on each chip (the sidebar's own price only on the sidebar's chip): one cached entry
    for them all, shared by every session, as one per chip would cost more to look up than to compute. tpot_only:
    each chip's TPOT alone, seconds (tpot_only_s: no prefill, memory or cost), for a reference bar beside the
    estimate."""
    profile = cache.profiles()[profile_id or state.profile]
    key = "|".join(["chips-tpot" if tpot_only else "chips", cache.scenario_key(state, "lang"), profile.id,
                    *hardware_ids])  # fmt: skip
    evaluate_one = tpot_only_s if tpot_only else model_estimate

    def each() -> list:
        model, _, _ = resolve(state)
        catalog = _options("hardware", cache.hardware())
        own, others = state.to_scenario(), state.with_(price=None).to_scenario()
        return [evaluate_one(model, catalog[i], own if i == state.hardware else others, profile) for i in hardware_ids]

    return cache.built(key, each)


# Scenario fields an evaluate() override replaces -> the sidebar's (URL) name of the same value
_URL_NAME = {"batch": "batch", "context_tokens": "context", "output_tokens": "output", "num_gpus": "gpus",
             "weights": "weights", "kv_cache": "kv", "price_usd_per_gpu_hour": "price"}  # fmt: skip


def _value_key(name: str, value: object) -> str:
    """An override as text for a cache key: arrays by dtype, shape and a digest of their bytes."""
    if isinstance(value, np.ndarray):
        digest = hashlib.blake2b(np.ascontiguousarray(value).tobytes(), digest_size=16).hexdigest()
        return f"{name}={value.dtype.str}{value.shape}:{digest}"
    return f"{name}={value!r}"


def export_about(state: ScenarioState | None = None) -> dict:
    """The sidebar scenario (`state`, default scenario_state()) as an export states it (export.scenario_fields): ids,
    names, numbers, price basis. Worked out once per server for each scenario and language (a copy: the caller may
    add to it)."""
    state = scenario_state() if state is None else state

    def about() -> dict:
        est = evaluate(state)
        tr = translator()
        return export.scenario_fields(  # the chip '(announced)' when not shipping: exports carry the mark too
            state, est, est.model.name, fmt.chip(est.hardware, tr), profile_label(est.profile, tr)
        )

    return dict(cache.built("about|" + cache.scenario_key(state), about))


def chips_about(chips, catalog, tr, state: ScenarioState | None = None) -> dict:
    """export_about for a chart of several chips: their short names ('B200 + H200'), and each chip's own price under
    the sidebar's basis unless the one chip charted is the sidebar's (whose price the sidebar's scenario states)."""
    state = scenario_state() if state is None else state
    own = list(chips) == [state.hardware]
    # one's own $/GPU-hour prices the sidebar's chip alone (economics.priced_for): said with its chip
    alone = state.price_basis == CUSTOM_BASIS and state.price is not None and state.hardware in chips
    return export_about(state) | {
        "scenario_hardware": "+".join(chips),
        "scenario_hardware_name": " + ".join(fmt.chip(catalog[h], tr, short=True) for h in chips),
        **({} if own else {"scenario_price_usd_per_gpu_hour": state.price if alone else None,
                           "scenario_price_as_of": None, "scenario_price_each_chip": True,
                           **({"scenario_price_chip": catalog[state.hardware].name} if alone else {})}),
    }  # fmt: skip


def page_controls(tr, *, lazy: bool = False):
    """Where a page's own controls go: in the embed view a closed expander above the page's first chart (a wiki's
    frame shows the chart, not a wall of inputs; the values still hold), else the page itself. `lazy` (a page that
    reads its inputs from session state, set before its widgets): in the embed view the widgets are sent only once
    the expander is opened (a dozen widgets cost every reader of a wiki link ~10 ms); None while it is closed."""
    if not embed.embedded():
        return contextlib.nullcontext()
    if lazy:
        return expanders.lazy_expander(tr("embed_page_controls"), "embed.page_controls")
    return st.expander(tr("embed_page_controls"), expanded=False)
