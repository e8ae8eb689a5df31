"""Compare: scenario A (the sidebar) against B and an optional C defined here; their choices travel in the URL."""

import json

import numpy as np
import streamlit as st

from tpot_model.precision import native_fp4
from ui import bands, cache, chart, controls, export, fmt, notices, page_state, uploads
from ui.figures import compare as figs
from ui.state import (
    BATCH_OPTIONS,
    CONTEXT_OPTIONS,
    CUSTOM_BASIS,
    CUSTOM_ID,
    GPU_OPTIONS,
    KV_OPTIONS,
    WEIGHT_OPTIONS,
)

state = controls.scenario_state()
tr = controls.translator()
profiles = cache.profiles()
models, hardware = cache.models(), cache.hardware()
if (custom := uploads.custom("model")) is not None:
    models = {**models, CUSTOM_ID: custom}
if (custom := uploads.custom("hardware")) is not None:
    hardware = {**hardware, CUSTOM_ID: custom}
INIT, NOTICES = "_compare_initialised", "_compare_notices"

# Widget state: from the URL (b_hardware, b_gpus, ...) on this page's first run in the session, else kept.
params = st.query_params.to_dict()
first = not st.session_state.get(INIT)
if first:
    st.session_state.setdefault("compare.c.on", any(k.startswith("c_") for k in params))
bad_params = []
taken = [state.hardware]  # the chips of the sides before: a side's default chip is another
for side in page_state.SIDES:
    if side == "c" and not st.session_state["compare.c.on"]:
        continue  # C's values are set once it is shown (a link with C's parameters shows it)
    values, side_notices = page_state.parse_side_query(
        params, side, set(models), set(hardware), set(profiles), taken=taken
    )
    taken.append(st.session_state.get(f"compare.{side}.hardware", values["hardware"]))
    for field, value in values.items():
        st.session_state.setdefault(f"compare.{side}.{field}", value)
    bad_params += side_notices
if first:
    st.session_state[NOTICES] = bad_params
    st.session_state[INIT] = True

st.title(tr("cmp_title"))
shown_hw = [controls.resolve(state)[1]] + [  # A's, B's and (when shown) C's chips
    hardware[h]
    for s in page_state.SIDES
    if (s != "c" or st.session_state.get("compare.c.on"))
    and (h := st.session_state.get(f"compare.{s}.hardware")) in hardware
]
if chart.embedded():  # no sidebar, and B's and C's controls in the settings section: the intro says where they are
    where = {"controls": tr("embed_controls"), "settings": tr("embed_page_controls")}
    st.markdown(fmt.device_text("cmp_intro_embed", shown_hw, tr, **where))  # 'chips' once one is a TPU or Trainium
else:
    st.markdown(fmt.device_text("cmp_intro", shown_hw, tr))  # 'chips' once A, B or C is a TPU or Trainium


def same_or(v, show=str):
    return tr("cmp_same_as_a") if v == figs.SAME else show(v)


def gpus_option(n) -> str:
    return tr("cmp_gpus_auto") if n == figs.AUTO else str(n)


def format_option(name: str):
    """A weight or KV-cache format choice as its selectbox shows it: 'as A (fp8)' or the format."""
    return lambda w: tr("cmp_same_as_a_value", value=getattr(state, name)) if w == figs.SAME else w


OPTIONS = {  # a side's choices as their controls show them (tokens(int): a link's value is text)
    "hardware": lambda i: fmt.chip(hardware[i], tr),
    "gpus": gpus_option,
    "weights": format_option("weights"),
    "kv": format_option("kv"),
    "profile": lambda p: same_or(p, lambda i: controls.profile_label(profiles[i], tr)),
    "model": lambda m: same_or(m, lambda i: models[i].name),
    "batch": same_or,
    "context": lambda n: same_or(n, lambda n: fmt.tokens(int(n))),
}


def link_labels() -> dict[str, notices.Shown]:
    """Scenario B's and C's controls as the link's notices name them ('Scenario B · Hardware'), with their choices."""
    out = {}
    for side in page_state.SIDES:
        hw = hardware.get(st.session_state.get(f"compare.{side}.hardware"))
        fields = {"gpus": fmt.device_text("cmp_gpus", hw, tr), "price": fmt.device_text("cmp_price", hw, tr)}
        for name in page_state.SIDE_FIELDS:
            field = fields.get(name) or tr(f"control_{name}")
            label = tr("cmp_link_label", x=side.upper(), field=field)
            out[f"{side}_{name}"] = notices.Shown(label, OPTIONS.get(name))
    return out


notices.url_notices(st.session_state[NOTICES], tr, link_labels)


def side_controls(side: str, nested: bool = False) -> dict:
    """Compact controls of scenario B or C; returns its choices. `nested`: drawn inside the embed view's settings
    section (an expander), where its own settings go in a bordered container (expanders do not nest)."""
    k, x = f"compare.{side}.", side.upper()
    row = st.container(horizontal=True)  # wraps where the frame is narrow: every choice reads whole
    keep = {"persist_state": "session"}
    chosen = row.selectbox(
        tr("control_hardware"),
        list(hardware),
        format_func=OPTIONS["hardware"],
        key=k + "hardware",
        width=260,
        **keep,
    )
    row.selectbox(
        fmt.device_text("cmp_gpus", hardware[chosen], tr),  # 'Chips' for a TPU or Trainium
        (figs.AUTO, *GPU_OPTIONS),
        format_func=gpus_option,
        key=k + "gpus",
        help=fmt.device_text("cmp_gpus_help", hardware[chosen], tr),
        width=150,
        **keep,
    )
    row.selectbox(
        tr("control_weights"),
        (figs.SAME, *WEIGHT_OPTIONS),
        format_func=OPTIONS["weights"],
        key=k + "weights",
        width=150,
        **keep,
    )
    row.selectbox(
        tr("control_kv"),
        (figs.SAME, *KV_OPTIONS),
        format_func=OPTIONS["kv"],
        key=k + "kv",
        width=150,
        **keep,
    )
    row.selectbox(
        tr("control_profile"),
        (figs.SAME, *profiles),
        format_func=OPTIONS["profile"],
        key=k + "profile",
        width=230,
        **keep,
    )
    with st.container(border=True) if nested else st.expander(tr("cmp_own_settings", x=x)):
        if nested:
            st.caption(tr("cmp_own_settings", x=x))
        e = st.columns(4)
        e[0].selectbox(
            tr("control_model"),
            (figs.SAME, *models),
            format_func=OPTIONS["model"],
            key=k + "model",
            **keep,
        )
        e[1].selectbox(tr("control_batch"), (figs.SAME, *BATCH_OPTIONS), format_func=same_or, key=k + "batch", **keep)
        e[2].selectbox(
            tr("control_context"),
            (figs.SAME, *CONTEXT_OPTIONS),
            format_func=OPTIONS["context"],
            key=k + "context",
            **keep,
        )
        e[3].number_input(
            fmt.device_text("cmp_price", hardware[chosen], tr),
            min_value=0.0,
            max_value=1000.0,
            step=0.1,
            key=k + "price",
            help=tr("cmp_price_help"),
            **keep,
        )
    return side_values(side)


def side_values(side: str) -> dict:
    """Scenario B's or C's choices as session state holds them (set from the URL before any widget)."""
    return {f: st.session_state[f"compare.{side}.{f}"] for f in page_state.SIDE_FIELDS}


def resolve(values: dict):
    """The side's ScenarioState and estimate, with an automatic GPU count resolved to the fewest that fit: once per
    server for A's scenario and the side's values (an uploaded spec's side each run)."""

    def side_and_estimate():
        fp4 = native_fp4(hardware[values["hardware"]].vendor).name if values["hardware"] in hardware else None
        side = page_state.side_state(state, values, fp4=fp4)
        if values["gpus"] == figs.AUTO:
            side = page_state.side_state(state, values, gpus=figs.fewest_gpus(controls.evaluate(side), state.gpus),
                                         fp4=fp4)  # fmt: skip
        return side, controls.evaluate(side)

    if CUSTOM_ID in (values["model"], values["hardware"]):
        return side_and_estimate()
    return cache.built(f"compare-side|{cache.scenario_key(state)}|{json.dumps(values, default=str)}", side_and_estimate)


def summary(title: str | None, x: str, side, est) -> None:
    """What the scenario is, under its heading (`title`, None where the heading is drawn above its controls): one
    element."""
    st.markdown(
        (f"### {title}\n\n" if title else "")
        + tr(
            "cmp_summary",
            x=x,
            model=est.model.name,
            gpus=side.gpus,
            hw=est.hardware.name,
            weights=side.weights,
            kv=side.kv,
            batch=side.batch,
            context=fmt.tokens(side.context),
            profile=controls.profile_label(est.profile, tr),
        )
    )


def no_price_text(x: str, est) -> str:
    """Why scenario `x` has no $ figure and where its own price goes: its price box, in its own settings (in the
    embed view: in the page's settings section); under a published basis in the pages' words (fmt.no_price_text: the
    bases that price it, or none in any basis), that box the own price's place."""
    section = tr("cmp_own_settings", x=x)
    where = (
        tr("cmp_where_embed", settings=tr("embed_page_controls"), section=section)
        if chart.embedded()
        else tr("cmp_where", section=section)
    )
    field = fmt.device_text("cmp_price", est.hardware, tr)
    if est.price.basis == CUSTOM_BASIS:
        return tr("cmp_no_own_price", hw=est.hardware.name, x=x, basis=tr(f"basis_{est.price.basis}"), field=field,
                  where=where)  # fmt: skip
    own = tr("cmp_own_price", x=x, field=field, where=where)
    # markdown (a caption): the $ escaped, a bare $ ... $ reads as LaTeX
    return fmt.no_price_text(est.price, est.hardware, fmt.device_tr(est.hardware, tr), own=own).replace("$", "\\$")


est_a = controls.evaluate(state)
with st.container(border=True):
    summary(tr("cmp_side_a"), "A", state, est_a)
    notices.scenario_notices(est_a, tr)
    notices.fp4_notice(est_a, state.weights, state.kv, tr)
    notices.cost_line(est_a, tr, key="compare.a.no_price")

sides = {"A": (state, est_a)}
query = {}
# B's and C's controls: in their boxes; in the embed view in the closed settings section, sent once it is opened
# (their dozen widgets cost every reader of a wiki link; the values hold in session state meanwhile)
embedded = chart.embedded()
settings = controls.page_controls(tr, lazy=True) if embedded else None
if settings is not None:
    with settings:
        for side in page_state.SIDES:
            if side == "c" and not st.toggle(tr("cmp_add_c"), key="compare.c.on", persist_state="session"):
                continue
            st.markdown(f"**{tr('cmp_side', x=side.upper())}**")
            side_controls(side, nested=True)
for side in page_state.SIDES:
    x = side.upper()
    if side == "c":
        on = st.session_state["compare.c.on"] if embedded else st.toggle(tr("cmp_add_c"), key="compare.c.on",
                                                                          persist_state="session")  # fmt: skip
        if not on:
            continue
    with st.container(border=True):
        if not embedded:  # the heading above the side's controls
            st.subheader(tr("cmp_side", x=x))
        values = side_values(side) if embedded else side_controls(side)
        side_state, est = resolve(values)
        summary(tr("cmp_side", x=x) if embedded else None, x, side_state, est)
        notices.scenario_notices(est, tr)
        notices.fp4_notice(est, side_state.weights, side_state.kv, tr)
        auto = ""  # the GPU count it chose, in the price's caption (one element a reader is sent, not two)
        if values["gpus"] == figs.AUTO:
            auto_key = "cmp_auto_used" if est.min_gpus == est.min_gpus else "cmp_auto_none"
            auto = fmt.device_text(auto_key, est.hardware, tr, n=side_state.gpus)
        if est.price_usd_per_gpu_hour != est.price_usd_per_gpu_hour:  # as A's caption, then where its price goes
            no_price = no_price_text(x, est)
            st.caption(no_price + notices.line(notices.power_text(est, tr)) + notices.line(auto))  # price first, as A's
        else:
            notices.cost_line(est, tr, key=f"compare.{side}.no_price", also=auto)
    sides[x] = (side_state, est)
    query |= page_state.side_query(values, side)


def linked_query(link: dict) -> dict[str, str]:
    """A link's B and C choices as the page writes them (C's only when the link has any)."""
    out, taken = {}, [state.hardware]  # the link's A is the scenario shown
    for side in page_state.SIDES:
        if side == "b" or any(k.startswith("c_") for k in link):
            values, _ = page_state.parse_side_query(link, side, set(models), set(hardware), set(profiles), taken=taken)
            out |= page_state.side_query(values, side)
            taken.append(values["hardware"])
    return out


controls.write_page_params(query, linked_query, dropped=[k for k in st.query_params if k.startswith(("b_", "c_"))])

ests = {x: est for x, (_, est) in sides.items()}
st.subheader(tr("cmp_table_header"))
side_keys = [(x, cache.scenario_key(s)) for x, (s, _) in sides.items()]
# a static table (its cells wrap, so every column fits the page), built once per server and replayed to every reader
cache.replayed_table(json.dumps([side_keys, tr.lang, tr.device]), lambda: figs.headline_display(ests, tr=tr))
device = fmt.device_kind([e.hardware for e in ests.values()])  # as the table's rows
st.caption(  # what the table's columns mean, then each scenario's TPOT band: one element
    fmt.device_text("cmp_table_caption_pct" if len(ests) > 2 else "cmp_table_caption", device, tr)  # as its Δ cells
    + "\n\n"
    + " · ".join(
        tr(
            "cmp_band_side",
            x=x,
            tpot=fmt.ms(float(e.tpot_s), tr=tr),
            band=bands.band_text(e, tr, "tpot") or bands.basis_text(e, tr, ""),
        )
        for x, e in ests.items()
    )
)
chart.fold(tr, tr("embed_more_compare"))  # a wiki's frame (900 x 700): the scenarios and their numbers
chart.downloads_here()  # the embed view's downloads of the charts: above them, not above the page's title
about = figs.compared_about(controls.export_about(), ests, tr)  # A's scenario, and what B and C are
if not embedded:  # (the full view has no fold: the CSV sits under the table)
    headline, stamp = figs.headline_table(ests), export.stamp(lang=tr.lang)
    st.download_button(
        tr("download_csv"),
        data=lambda: export.csv_bytes(headline, about, stamp),
        file_name=f"{export.file_stem('compare-headline', about, stamp)}.csv",
        mime="text/csv",
        key="compare.headline_csv",
        on_click="ignore",
    )

# every scenario compared (B's and C's as A's): the charts are built once for them and shared by every reader
chart.figure(
    lambda: figs.decomposition(ests, tr=tr),
    lambda: figs.decomposition_table(ests),
    "compare-decomposition",
    tr,
    about=about,
    depends=side_keys,
)


# One vectorised call per scenario over the batch options.
batches = np.array(BATCH_OPTIONS, dtype=float)
sweeps = {x: controls.evaluate(s, batch=batches) for x, (s, _) in sides.items()}
chart.figure(
    lambda: figs.tpot_vs_batch(sweeps, ests, tr=tr),
    lambda: figs.sweep_table(sweeps),
    "compare-tpot-vs-batch",
    tr,
    about=about | {"scenario_batch": None},  # a sweep over the batch
    depends=side_keys,
)
st.caption(fmt.device_text("cmp_sweep_caption", device, tr))
