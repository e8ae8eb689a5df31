"""Domain notices shown above a page's numbers: bad URL parameters, a scenario that does not fit (with its remedies),
a tensor split the heads do not divide, more GPUs than one server, a context past the model's window."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field, replace

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from tpot_model import economics, planner
from tpot_model.engines import VENDOR_ONLY, runs_on
from tpot_model.estimate import estimate, lower_formats, no_gpu_count, precision_that_fits
from tpot_model.prices import BASES
from tpot_model.roofline import (
    head_split_alternatives,
    link_peak_bytes_per_s,
    scale_out_peak_bytes_per_s,
    scale_up_domain_gpus,
)

from . import bands, fmt, metrics
from .i18n import EN, Translator


@dataclass(frozen=True)
class Shown:
    """How a URL parameter's control reads on the page, for the link's notices: its label (None: it has none) and how
    it shows a value (`value`: an id as the link writes it -> its text; `items`: a comma list of them; `default`: what
    it shows where a bad value is dropped, 'newest')."""

    label: str | None
    value: Callable[[str], str] | None = None
    items: bool = False
    default: str | None = None


Labels = Mapping[str, Shown] | Callable[[], Mapping[str, Shown]]  # param -> Shown; a callable: built only when needed


@dataclass
class _Box:
    """This run's one warning for the link's notices (link_box): its place, the notices so far and their controls."""

    slot: object
    run: object  # the run's cursors dict (new each run): a box of another run (a fragment's) is not written to
    notices: list = field(default_factory=list)
    shown: dict = field(default_factory=dict)


_BOX: ContextVar[_Box | None] = ContextVar("tpot_link_box", default=None)


def link_box(notices, tr: Translator, shown: Labels | None = None) -> None:
    """At the top of the page (app.py), before the page runs: one warning for the link's notices (the sidebar's
    here, the page's and its view controls' as url_notices adds them), not a box each (thirteen bad parameters had
    filled the first screen). A run's first notice places the box: none, no element (an empty slot at the top had
    been the page's first, invisible, element)."""
    _BOX.set(None)
    url_notices(notices, tr, shown)


def url_notices(notices, tr: Translator, shown: Labels | None = None) -> None:
    """The link's bad parameters, each named by its control's label (`shown`: param -> Shown) and the value used as
    the control shows it; added to this run's one warning (link_box), placed here by the run's first notice. The
    values were sanitised to plain text by ui.state."""
    box, ctx = _BOX.get(), get_script_run_ctx()
    run = ctx.cursors if ctx is not None else None
    if box is not None and (run is None or box.run is not run):
        box = None  # another run's (a fragment's): not written to
    if not notices and box is None:
        return
    if box is None:
        box = _Box(st.empty(), run)
        if run is not None:
            _BOX.set(box)
    box.notices += notices
    box.shown |= shown() if callable(shown) else shown or {}
    lines = [_notice_line(n, tr, box.shown) for n in box.notices]
    said = (
        lines[0]
        if len(lines) == 1
        else tr("notice_link_many", n=len(lines)) + "\n\n" + "\n".join(f"- {line}" for line in lines)
    )
    box.slot.warning(said, icon=":material/warning:")


def _md(text: str) -> str:
    """Text shown in a notice's markdown: a '$' kept ('$/GPU-hour', a price given), not the start of LaTeX."""
    return text.replace("$", "\\$")


def _shown_value(used: str, s: Shown | None, tr: Translator) -> str:
    """The value used as its control shows it: an option's text, a number with its thousands separated; code (as the
    link writes it) where no control says how it reads."""
    if s is not None and s.value is not None:
        return tr.join([s.value(v) for v in used.split(",")]) if s.items else s.value(used)
    try:
        return fmt.exact(float(used))
    except ValueError:
        return used if s is not None else f"`{used}`"


def _allowed(n, s: Shown | None, tr: Translator) -> str:
    """The range a number parameter takes, in words, each end as its control shows a value ('It takes 1 ms to 10,000
    ms.': the target's unit had been left out), whole numbers, or from a lower bound."""

    def end(x: float) -> str:
        return _md(_shown_value(f"{x:.12g}", s, tr)).strip("`")

    if n.hi is None:
        return tr("notice_allowed_from", lo=end(n.lo))
    return tr("notice_allowed_whole" if n.whole else "notice_allowed", lo=end(n.lo), hi=end(n.hi))


def control_name(label: str, param: str, tr: Translator) -> str:
    """A control as the link's notices name it: its label with the link's parameter, inside the label's own closing
    bracket where it ends in one ('Batch (concurrent sequences; `batch`)': a second pair had read '... sequences)
    (`batch`)'), the separator the bracket's width takes (a half-width one holds Latin text, in zh-TW too)."""
    label = _md(label)
    if label.endswith(")"):
        return label[:-1] + EN("notice_param_within", param=param) + ")"
    if label.endswith("）"):
        return label[:-1] + tr("notice_param_within", param=param) + "）"
    return tr("notice_param", label=label, param=param)


def _notice_line(n, tr: Translator, shown: Mapping[str, Shown]) -> str:
    """One bad parameter in words: its control (label and parameter), what was given and what is used instead."""
    if n.unknown:  # no page reads it: said so, with the one this page or the sidebar reads that it is likely meant for
        said, near = tr("notice_unknown_param", param=n.param), shown.get(n.used)
        if near is not None and near.label:
            return tr.sentences([said, tr("notice_unknown_hint_label", name=control_name(near.label, n.used, tr))])
        return tr.sentences([said, tr("notice_unknown_hint", name=n.used)]) if n.used else said
    s = shown.get(n.param)
    name = control_name(s.label, n.param, tr) if s and s.label else tr("notice_param_bare", param=n.param)
    given = _md(n.given) or "∅"
    if n.repeated:  # a link with a parameter twice: the last is read
        said = tr("notice_repeated_param", name=name, given=given, used=n.used)
    elif n.switch:
        said = tr("notice_switch_param", name=name, given=given,
                  state=tr("notice_switch_on" if n.used == "1" else "notice_switch_off"))  # fmt: skip
    elif n.used in ("", "—") and (s is None or s.default is None):  # the link's value is dropped: the default
        said = tr("notice_bad_param_default", name=name, given=given)
    elif n.used in ("", "—"):
        said = tr("notice_bad_param", name=name, given=given, used=_md(s.default))
    else:
        key = "notice_snapped_param" if n.snapped else "notice_bad_param"
        said = tr(key, name=name, given=given, used=_md(_shown_value(n.used, s, tr)))
    if n.lo is not None:  # a number out of range: the range it takes
        said = tr.sentences([said, _allowed(n, s, tr)])
    if n.options:  # a choice: the values a link may give it, as the link writes them
        said = tr.sentences([said, tr("notice_options", options=fmt.alternatives([f"`{o}`" for o in n.options], tr))])
    if n.near:  # a model or chip name no entry answers to: the ids it resembles
        said = tr.sentences([said, tr("notice_near", names=tr.join([f"`{i}`" for i in n.near]))])
    return said


def scenario_notices(est, tr: Translator) -> None:
    """Under a page's scenario line: the chip not shipping yet (announced_notice), a model no fit has seen
    (transfer_notice), the memory fit (fit_notice), then a context past the model's window (context_notice: on every
    page, as a wiki link may open any of them)."""
    announced_notice(est.hardware, tr)
    platform_notice(est, tr)
    transfer_notice(est.model, tr)
    fit_notice(est, tr)
    window_assumed_notice(est.model, tr)
    context_notice(est, tr)


def platform_notice(est, tr: Translator) -> None:
    """For an engine built for another vendor's GPUs (engines.VENDOR_ONLY: TensorRT-LLM on an AMD or TPU chip): its
    profile's rates on this chip are a what-if, not a deployment that exists."""
    if not runs_on(est.profile.id, est.hardware.vendor):
        st.warning(
            tr("platform_notice", engine=fmt.engine_name(est.profile.id, tr), vendor=VENDOR_ONLY[est.profile.id][0],
               hw=est.hardware.name),
            icon=":material/block:",
        )  # fmt: skip


def transfer_notice(model, tr: Translator) -> None:
    """For a model no fit has seen whose own published runs were read (bands.transfer_text): what they measured
    against the modelled TPOT, beside the numbers it qualifies (DeepSeek-V4-Pro: 2.01x)."""
    if said := bands.transfer_text(model, tr):
        st.info(said, icon=":material/fact_check:")


def announced_notice(hw, tr: Translator) -> None:
    """For a chip announced but not shipping: its figures are vendor claims, the numbers projections."""
    if getattr(hw, "announced", False):
        st.info(tr("announced_notice", hw=hw.name), icon=":material/campaign:")


def _remedies(est, tr: Translator) -> tuple[list[str], list[str]]:
    """(remedies that make a scenario that does not fit fit, what would not help) at its own context: GPUs at its
    batch, lower precision, a smaller batch; or that no GPU count up to 1,024 holds it, that lower precision alone
    is not enough."""
    s = est.scenario
    min_gpus, batch = float(est.min_gpus), fmt.integer(int(s.batch))
    remedies, facts = [], []
    fitting = precision_that_fits(est)
    if min_gpus == min_gpus:
        remedies.append(tr("remedy_gpus", n=int(min_gpus), batch=batch))
    else:
        none = no_gpu_count(est)  # why (the KV cache splits no further than its heads), and a lower KV-cache format
        ways = none.cache_ways  # with which a count holds it: the owner Hardware and the CLI say it from
        facts.append(tr("fit_no_gpu_count" if ways > 1 else "fit_no_gpu_count_whole", batch=batch, ways=ways))
        if none.kv_cache is not None and not (fitting and fitting[1]):
            remedies.append(tr("remedy_kv_gpus", fmt=none.kv_cache.name, n=none.kv_gpus, batch=batch))
    if fitting is not None:
        changes = [
            tr(f"remedy_precision_{kind}", fmt=f.name) for kind, f in zip(("weights", "kv"), fitting, strict=True) if f
        ]
        remedies.append(tr("remedy_precision", what=" + ".join(changes)))
    elif any(lower_formats(s, est.hardware)):
        facts.append(tr("remedy_precision_not_enough", devices=fmt.devices(est.hardware, int(s.num_gpus), tr)))
    if 1 <= int(est.max_batch) < int(s.batch):
        remedies.append(tr("remedy_batch", n=int(est.max_batch)))
    return remedies, facts


def fit_notice(est, tr: Translator) -> None:
    """When a (scalar) scenario does not fit: say by how much, the remedies that work and, apart from them, what
    would not help (_remedies). Where prompt + output run past the model's window, shortening the context to it
    comes first, with what else it then takes (the remedies at the window's length), or alone where that fits."""
    if bool(est.fits):
        return
    tr = fmt.device_tr(est.hardware, tr)  # 'per chip', 'chips' for a TPU or Trainium
    s, window = est.scenario, est.model.max_context_tokens
    if est.model.past_window(s.context_tokens, s.output_tokens) is not None:
        within = max(window - int(s.output_tokens), 1)
        shorter = tr("remedy_context", model=est.model.name, max=fmt.integer(window), within=fmt.integer(within))
        at_window = estimate(est.model, est.hardware, replace(s, context_tokens=within), est.profile)
        then, facts = ([], []) if bool(at_window.fits) else _remedies(at_window, tr)
        # what it then takes, within the clause ('; or' had read as an alternative to shortening: a review)
        remedies = [
            tr("remedy_context_then", context=shorter, then=tr.join(then, "remedy_or_within")) if then else shorter
        ]
    else:
        remedies, facts = _remedies(est, tr)
    sentences = [
        tr("does_not_fit", need=fmt.memory(float(est.memory_per_gpu_bytes)), have=fmt.gb(est.usable_memory_per_gpu_bytes),
           gpus=fmt.gpus(s.num_gpus), hw=est.hardware.name),
        *([tr("fit_remedy", remedy=tr.join(remedies, "remedy_or"))] if remedies else []),
        *facts,
    ]  # fmt: skip
    st.error(tr.sentences(sentences), icon=":material/block:")


def fp4_notice(est, weights: str, kv: str, tr: Translator) -> None:
    """When bare 'fp4' was asked for (weights or KV cache): say which block format the estimate took for the chip
    (precision.native_fp4) and its bits per element, scales included."""
    used = [f for asked, f in ((weights, est.scenario.weights), (kv, est.scenario.kv_cache)) if asked == "fp4"]
    if used:
        f = used[0]
        key = "notice_fp4" if "fp4" in est.hardware.dense_flop_per_s else "notice_fp4_storage"  # no FP4 units
        st.info(tr(key, fmt=f.name.upper(), bits=f"{f.bits:g}", hw=est.hardware.name), icon=":material/info:")


def if_fitted(est, tr: Translator, value: str, **metric_kwargs) -> dict:
    """metrics.Row.metric's value and keyword arguments for a headline number of a (scalar) scenario: as given when it fits;
    when it does not, the value in grey and marked 'if it fitted' (what the chip would reach with the memory: shown
    as the Planner and the Hardware page show what does not fit, greyed), in place of the band (whose text beside
    the mark would not fit a column: the number is a what-if either way)."""
    if bool(est.fits):
        return {"value": value, **metric_kwargs}
    return {"value": value, "greyed": True, **metric_kwargs, **metrics.note(tr("if_fitted"))}


def split_notice(est, tr: Translator) -> None:
    """When tensor parallelism over the GPUs does not divide the model's attention heads (engines refuse it): say so,
    with the nearest GPU counts that do."""
    s, m = est.scenario, est.model
    tr = fmt.device_tr(est.hardware, tr)
    n = int(s.num_gpus)
    if not (nearest := head_split_alternatives(m, n, s.parallelism)):
        return
    st.info(
        tr(
            "split_heads",
            gpus=fmt.integer(n),
            model=m.name,
            heads=m.num_heads,
            options=tr.join([str(d) for d in nearest]),
        ),
        icon=":material/call_split:",
    )


def scale_notice(est, tr: Translator) -> None:
    """Past the chip's scale-up domain: the collectives cross domains over the NICs; say at what bandwidth."""
    hw = est.hardware
    tr = fmt.device_tr(hw, tr)
    n, domain = int(est.scenario.num_gpus), scale_up_domain_gpus(hw)
    if n > domain:
        st.info(scale_text(hw, n, tr), icon=":material/lan:")


def scale_text(hw, num_gpus: int, tr: Translator) -> str:
    """scale_notice's words for `num_gpus` devices past the chip's scale-up domain: the link inside a domain (said to
    be assumed, PCIe Gen4 x16, where the catalog lists none) and the network's bandwidth per device; a chip that is
    its own domain (GB10, an Apple Mac) has no link inside one to name: every collective crosses the network."""
    out = fmt.gb_per_s(scale_out_peak_bytes_per_s(hw))
    if (domain := scale_up_domain_gpus(hw)) == 1:
        return tr("scale_own_domain", gpus=fmt.integer(num_gpus), hw=fmt.chip(hw, tr), out=out)
    bw = fmt.gb_per_s(link_peak_bytes_per_s(hw))
    if not hw.interconnect_bytes_per_s:
        bw = tr("scale_link_assumed", bw=bw)
    # '1,024 GPUs', as the does-not-fit notice writes its counts
    return tr("scale_beyond_node", gpus=fmt.integer(num_gpus), hw=fmt.chip(hw, tr), bw=bw, node=fmt.integer(domain),
              out=out)  # fmt: skip


def window_assumed_notice(model, tr: Translator) -> None:
    """A model file that gave no context window (a config.json without max_position_embeddings): the window the
    numbers assume, said on every page (it had been said only in the sidebar's closed upload box)."""
    if getattr(model, "context_window_assumed", False):
        st.info(tr("upload_window_assumed", tokens=fmt.count(model.max_context_tokens)), icon=":material/info:")


def context_notice(est, tr: Translator) -> None:
    """When prompt + output exceed the model's context window: the estimate extrapolates, say so."""
    window_notice(est.model, est.scenario.context_tokens, est.scenario.output_tokens, tr)


def window_notice(model, context_tokens, output_tokens, tr: Translator) -> None:
    """When a page's own prompt + output lengths exceed the model's context window: its numbers extrapolate."""
    if (tokens := model.past_window(context_tokens, output_tokens)) is not None:
        st.warning(
            tr("context_over_max", tokens=f"{tokens:,}", model=model.name, max=f"{model.max_context_tokens:,}"),
            icon=":material/warning:",
        )


def announced_key(tr: Translator) -> str:
    """The key to an announced chip's '*' as caption markdown (escaped: a line starting '* ' is a list item)."""
    return tr("hw_announced_key").replace("*", "\\*", 1)


def price_note(price, tr: Translator) -> str:
    """Which $/GPU-hour a figure uses, to print next to it: 'Hyperscaler TCO, as of 2026-09-20' (fmt.price_note)."""
    return fmt.price_note(price, tr)


UNPRICED_LISTED = 6  # chips without a price named in a caption; more are counted


def basis_caption(
    chips,
    tr: Translator,
    *,
    device_words: bool = False,
    sidebar: str | None = None,
    where: str | None = None,
    own: str | None = None,
) -> None:
    """Under a table of $ figures over several chips ((Hardware, PricePoint) pairs, one basis): the basis and the
    span of the prices' dates, the chips with no public price under it (with the published bases that do price them,
    economics.priced_bases, or that none does), and what tokens per MW count (all-in power); with `device_words`, in
    the chips' device word ('$/chip-hour' once one is a TPU or Trainium). `sidebar`: the sidebar chip's id; where no
    basis prices it, its own price is entered in the sidebar as it is (the others' once selected there). `where`: where
    the basis is chosen, as the caption says it (basis_where_sidebar by default; the Serving frontier's own control);
    `own`: how the chips no basis prices get a price, a clause (own_price_select by default: selected as the sidebar's
    chip; the Serving frontier's own price, which prices every chip)."""
    chips = list({hw.id: (hw, p) for hw, p in chips}.values())  # a chip listed twice (two rows) said once
    if not chips:
        return
    if device_words:
        tr = fmt.device_tr([hw for hw, _ in chips], tr)
    basis = chips[0][1].basis
    priced = [p for _, p in chips if math.isfinite(p.usd_per_gpu_hour)]
    unpriced = [hw for hw, p in chips if not math.isfinite(p.usd_per_gpu_hour)]
    groups: dict[tuple[str, ...], list[str]] = {}  # the published bases that price them -> the chips' names
    for hw in unpriced:
        groups.setdefault(economics.priced_bases(hw, besides=basis), []).append(fmt.chip(hw, tr))
    where, own_price = where or tr("basis_where_sidebar"), own or tr("own_price_select")
    nowhere = groups.pop((), [])
    # the sidebar's chip among those no basis prices: your own price goes in the sidebar, it is selected already (the
    # caption had told it to be selected); under your own basis it is the sidebar notice's (no price entered)
    mine = next((fmt.chip(hw, tr) for hw in unpriced if hw.id == sidebar), None) if basis != "custom" else None
    mine = mine if mine in nowhere else None
    # under your own price the others cannot take one of theirs: they are priced by choosing a published basis
    mode = "_own" if basis == "custom" else ""
    many = len(unpriced) > UNPRICED_LISTED  # a count, not a wall of names: the table's blank cells show which

    def bases(keys) -> str:  # 'Neocloud TCO, Hyperscaler TCO or 3-year rental', in BASES order
        return fmt.alternatives([tr(f"basis_{b}") for b in BASES if any(b in k for k in keys)], tr)

    def nowhere_said() -> list[str]:  # the chips no basis prices: the sidebar's first, the others selected there
        if mine and len(nowhere) == 1:
            return [tr("cost_basis_unpriced_nowhere_sidebar", hw=mine)]
        if mine and many:
            return [tr("cost_basis_unpriced_many_nowhere_sidebar", n=len(nowhere), hw=mine)]
        if many:
            return [tr(f"cost_basis_unpriced_many_nowhere{mode}", n=len(nowhere), own=own_price)] if nowhere else []
        said = [tr("cost_basis_unpriced_nowhere_sidebar", hw=mine)] if mine else []
        if others := [name for name in nowhere if name != mine]:
            said.append(tr(f"cost_basis_unpriced_nowhere{mode}", hws=tr.join(others), own=own_price))
        return said

    if not priced:  # no row of the CSV has a price to point to: say so, and what the power figures count
        if groups:  # the bases that price some; those no basis prices said after (choosing a basis prices none)
            parts = [tr("cost_basis_unpriced_all", total=len(chips), basis=tr(f"basis_{basis}"), bases=bases(groups),
                        where=where)]  # fmt: skip
            parts += nowhere_said()
        elif mine and len(chips) == 1:
            parts = [tr("cost_basis_unpriced_nowhere_sidebar", hw=mine)]
        elif mine:
            parts = [tr("cost_basis_unpriced_all_nowhere_sidebar", total=len(chips), hw=mine)]
        else:
            parts = [tr("cost_basis_unpriced_all_nowhere", total=len(chips), own=own_price)]
        st.caption(tr.sentences([*parts, tr("cost_power_note")]))
        return
    parts = [tr("cost_basis_many", note=fmt.prices_note(priced, tr))]
    if many:
        parts.append(tr(f"cost_basis_unpriced_many{mode}", n=len(unpriced), total=len(chips)))
        if groups:
            parts.append(tr("cost_basis_unpriced_many_other", n=sum(map(len, groups.values())), bases=bases(groups),
                            where=where))  # fmt: skip
    else:
        for i, (keys, names) in enumerate(groups.items()):
            key = f"cost_basis_unpriced{mode}" + ("_more" if mode and i else "")  # your own's alone: said once
            parts.append(tr(key, hws=tr.join(names), bases=bases([keys]), where=where))
    st.caption(tr.sentences(parts + nowhere_said()))


def _use_own_price() -> None:
    st.session_state["price_basis"] = "custom"


def no_price_notice(price, hw, tr: Translator, key: str = "no_price") -> None:
    """'No public price for X under this basis' (fmt.no_price_text; or 'no own price entered') with the one click
    that enters one."""
    st.info(fmt.no_price_text(price, hw, tr), icon=":material/sell:")
    if price.basis != "custom":
        st.button(tr("enter_own_price"), key=key, on_click=_use_own_price)


def line(text: str) -> str:
    """A caption's further line (a markdown line break before it), or nothing."""
    return f"  \n{text}" if text else ""


def cost_line(
    est,
    tr: Translator,
    key: str = "no_price",
    tokens_per_s_per_gpu: float | None = None,
    *,
    also: str = "",
    rate_label: str = "m_tokens_per_mw",
    rate_args: dict | None = None,
) -> None:
    """Under a $ figure: its price basis and date, tokens/s per MW of all-in power beside it (at the estimate's rate,
    or at `tokens_per_s_per_gpu` when the $ figure is at another operating point, named by the string `rate_label`);
    when the chip has no price under the basis, say so with the one click that enters one. `also`: a further caption
    line in the same element (one element, not two, sent to each reader); `rate_args`: the label string's fields."""
    price = est.price
    tr = fmt.device_tr(est.hardware, tr)  # 'Enter my own $/chip-hour' on a TPU or Trainium
    mw = power_text(est, tr, tokens_per_s_per_gpu, rate_label, rate_args)
    if price.usd_per_gpu_hour == price.usd_per_gpu_hour:
        usd = fmt.usd_markdown(price.usd_per_gpu_hour)  # 'per chip-hour' on a TPU or Trainium; zh-TW: unit first
        per_hour = fmt.device_text("usd_per_gpu_hour", est.hardware, tr, usd=usd)
        st.caption(f"{tr('cost_on')}{tr('label_colon')}{per_hour} · {price_note(price, tr)} · {mw}" + line(also))
    else:
        st.caption(mw + line(also))
        no_price_notice(price, est.hardware, tr, key)  # an announced chip marked


def power_text(
    est,
    tr: Translator,
    tokens_per_s_per_gpu: float | None = None,
    rate_label: str = "m_tokens_per_mw",
    rate_args: dict | None = None,
) -> str:
    """Tokens/s per MW of all-in power and the all-in J per token (cost_line's), at the estimate's rate or at
    `tokens_per_s_per_gpu` (named by the string `rate_label`); greyed 'if it fitted' for a scenario that does not
    fit."""
    per_gpu = float(est.tokens_per_s_per_gpu if tokens_per_s_per_gpu is None else tokens_per_s_per_gpu)
    all_in_w = float(est.all_in_w_per_gpu)
    board_w = float(est.hardware.tdp_w) if est.hardware.tdp_w is not None else math.nan
    per_mw = per_gpu * 1e6 / all_in_w  # economics.tokens_per_s_per_mw
    if per_mw != per_mw:
        return fmt.device_text("m_tokens_per_mw_none", est.hardware, tr)
    what_if = not bool(est.fits) and tokens_per_s_per_gpu is None  # a rate at the scenario: a what-if
    named = tr(rate_label, **(rate_args or {}))
    label = fmt.if_fitted_label(named, tr) if what_if else named
    mw = tr.sentences(
        [  # zh-TW: the full-width bracket follows without a space
            f"{label}{tr('label_colon')}{fmt.rate(per_mw)}",
            # beside the board-power J of Compare's table and Methodology (TDP alone: about half the all-in figure)
            tr(  # no TDP (MI455X): said, not 'n/a' (in zh-TW too); '0.802 J (estimate)' where the TDP is one
                "j_all_in" if board_w == board_w else "j_all_in_no_board",
                j=fmt.number(all_in_w / per_gpu) if per_gpu > 0 else tr("na"),
                board=fmt.joules(board_w / per_gpu, est.hardware, tr) if per_gpu > 0 else tr("na"),
            ),  # fmt: skip
        ]
    )
    return f":gray[{mw}]" if what_if else mw


def served_basis(served: planner.FrontierPoint, target_s: float, tr: Translator, price_known: bool) -> None:
    """Under a best-batch figure of one static batch (no prefill counted, Overview's basis): the same target
    counted as a server runs it (`served`: planner.frontier under continuous batching, the Serving frontier's and
    the layout search's basis): requests in flight, output tokens/s per GPU, $ per 1M output tokens and the
    per-request TTFT, in the same weight as the static figure (a grey caption had let it read twice as cheap)."""
    st.markdown(served_basis_text(served, target_s, tr, price_known))


def served_row(
    served: planner.FrontierPoint,
    tr: Translator,
    no_price: str,
    devices: str,
    pool_factor: float = 1.0,
    *,
    unpriced: str | None = None,
) -> None:
    """Under the Planner's best static batch (its headline row, Overview's basis), the same targets counted as a
    server runs it (`served`: planner.frontier under continuous batching with the TPOT and TTFT targets, the Serving
    frontier's and the layout search's basis), as a row of the same weight: requests in flight, TTFT per request,
    output tokens/s per GPU and $ per 1M output tokens (`no_price`: why the chip has no price under the basis,
    fmt.no_price_text, '' where it has one;
    `devices`: the deployment in words, '8 × H200'; `pool_factor`: layouts.plain_step_factor at the row's batch, said
    where the GPU-count search's correction changes the step; `unpriced`: the $ figure's note without a price,
    fmt.no_price_short). It had been a grey caption under the static figures, which read twice as cheap."""
    if not served.feasible:
        st.markdown(tr("served_row_none"))
        return
    st.markdown(tr("served_row_note"))
    price_known = not no_price
    with metrics.Row() as row:
        row.metric(tr("served_m_in_flight"), fmt.integer(served.batch), help=tr("served_m_in_flight_def"))
        row.metric(tr("served_m_ttft"), fmt.duration(served.ttft_s, tr=tr), help=tr("served_m_ttft_def"))
        row.metric(tr("pl_m_tps_gpu"), fmt.rate(served.tokens_per_s_per_gpu),
                   help=tr("served_m_tps_def", total=fmt.rate(served.tokens_per_s_total), devices=devices))  # fmt: skip
        row.metric(
            tr("pl_m_cost"),
            **metrics.dollars(served.usd_per_1M_tokens if price_known else math.nan, reached=True,
                              unpriced=unpriced or tr("no_public_price_short")),
            help=tr("served_m_cost_def") if price_known else no_price,
        )  # fmt: skip
    if round(pool_factor, 2) > 1.0:  # an MoE model: the layout search reads this step longer (a review: 2,176 vs 1,467)
        b = served.batch / max(served.num_gpus, 1)
        st.caption(tr("served_row_pool", b=f"{b:,.3g}", f=f"{pool_factor:.2f}"))


def served_basis_text(served: planner.FrontierPoint, target_s: float, tr: Translator, price_known: bool) -> str:
    """served_basis's words (for a caption that says more)."""
    target = fmt.target(target_s, tr)
    if not served.feasible:
        return tr("served_basis_none", target=target)
    # 3 significant figures, as the best-batch sentence before it ('$0.690', not '$0.69' beside '$0.346')
    usd = fmt.usd(served.usd_per_1M_tokens) if price_known else tr("pl_cell_no_price")
    requests = tr("requests_1") if served.batch == 1 else tr("requests_n", n=fmt.integer(served.batch))  # '1 request'
    return tr("served_basis", target=target, batch=fmt.integer(served.batch), requests=requests,
              per_gpu=fmt.rate(served.tokens_per_s_per_gpu), usd=usd, ttft=fmt.duration(served.ttft_s, tr=tr))  # fmt: skip


def compute_fallback_text(items, tr: Translator) -> str:
    """Where chips have no math at the precision the weights ask for (Estimate.compute_fallback: FP4 on an H200): a
    sentence per (asked, used) naming them all; items: (chip name, Estimate.compute_fallback), None for the chips that
    run it as asked; '' where every chip does."""
    groups: dict[tuple[str, str], list[str]] = {}
    for name, fallback in items:
        if fallback is not None:
            groups.setdefault(fallback, []).append(name)
    said = [
        tr("compute_fallback", requested=asked.upper(), used=used.upper(), chips=tr.join(list(dict.fromkeys(names))))
        for (asked, used), names in groups.items()
    ]
    return tr.sentences(said) if said else ""


def no_gpu_count_text(ests, tr: Translator) -> str:
    """For the (scalar) estimates that no GPU count holds (estimate.no_gpu_count, the CLI's owner too): a sentence per
    reason naming the chips, why more of them stop helping and what would (a lower batch or context; the lower
    KV-cache format with which a count holds each, and how many it then takes); '' where a count holds every one."""
    groups: dict[tuple[int, str | None], list] = {}
    for e in ests:
        if (none := no_gpu_count(e)) is not None:
            groups.setdefault((none.cache_ways, getattr(none.kv_cache, "name", None)), []).append((e, none))
    said = []
    for (ways, kv), group in groups.items():
        hw = [e.hardware for e, _ in group]
        tr_ = fmt.device_tr(hw, tr)  # 'chip' once a TPU is among them
        kind = "weights" if ways == 0 else "whole" if ways == 1 else "split"
        fix = tr_("no_count_fix_weights" if ways == 0 else "no_count_fix_cache")
        if kv is not None:
            items = [tr_("no_count_kv_item", name=fmt.chip(e.hardware, tr, short=True),
                         devices=fmt.devices(e.hardware, n.kv_gpus, tr)) for e, n in group]  # fmt: skip
            fix = tr_("no_count_fix_kv", fix=fix, fmt=kv, items=tr.join(items))  # 'fp8', as the controls name it
        chips = tr.join(list(dict.fromkeys(fmt.chip(h, tr, short=True) for h in hw)))
        why = tr_(f"no_count_why_{kind}", model=group[0][0].model.name, ways=ways)
        said.append(tr_("no_count", chips=chips, why=why, fix=fix))
    return tr.sentences(said) if said else ""
