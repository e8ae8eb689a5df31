"""Rack-scale vs scale-out: the best layout's (input + output) tokens/s per GPU against tokens/s per user for the same
model and precision on GB200 NVL72, multi-node HGX B200 and MI355X at one GPU budget, next-generation parts marked
as projections, measured rack-scale and multi-node points on top; the iso-interactivity ratio and $ per 1M tokens
per price basis at fixed interactivities. Pure: data in, figures and tables out."""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from pandas.io.formats.style import Styler

from tpot_model.economics import usd_per_1M_tokens
from tpot_model.estimate import MAX_GPUS_SEARCHED, Estimate, lower_formats, precision_that_fits
from tpot_model.frontier_check import CHIP_NO_RANGE, RATIO_AT, MeasuredAt, measured_at, non_dominated, summary_key
from tpot_model.layouts import MAX_BUDGET_GPUS, Deployment
from tpot_model.prices import CUSTOM
from tpot_model.serving import at_interactivity

from .. import fmt
from ..i18n import EN, Translator
from .common import (
    NARROW_PLOT_PX,
    Figure,
    hardware_colour,
    legend_placement,
    measured_layout,
    round_significant,
    style,
    wrap_parts,
    y_log_ticks,
)
from .frontier import engine_text, io_label

# the chips compared, by NVIDIA generation: the rack-scale NVL72 (the ratio's numerator), then the scale-out chips
# (its denominators): HGX of the same generation and AMD's MI355X
GENERATIONS = {"blackwell": ("gb200", "b200", "mi355x"), "blackwell_ultra": ("gb300", "b300", "mi355x")}
GENERATION = "blackwell"  # the default: the generation with measured rack-scale and HGX runs alike
PROJECTIONS = ("vr200", "mi455x")  # announced next generation: vendor figures, drawn dashed
RACKS = frozenset(chips[0] for chips in GENERATIONS.values())


def generation_of(hardware_id: str) -> str:
    """The generation whose rack-scale or HGX chip this is (the sidebar's chip picks the view's), else GENERATION."""
    return next((g for g, chips in GENERATIONS.items() if hardware_id in chips[:2]), GENERATION)


def chips(generation: str) -> tuple[str, ...]:
    """The view's chips in drawing order: the generation's rack-scale, HGX and AMD chips, then the projections."""
    return (*GENERATIONS[generation], *PROJECTIONS)


def _rack(curves: Sequence[RackCurve]) -> RackCurve | None:
    """The rack-scale chip's curve (the ratio's numerator), None without one."""
    return next((c for c in curves if c.hardware_id in RACKS), None)


def unfit(curves: Sequence[RackCurve]) -> list[RackCurve]:
    """The chips on which no layout within the budget holds the model at all (every point's search stopped at
    memory), as opposed to chips that fit but do not reach an interactivity."""
    return [c for c in curves if c.deployments and all(d.limited_by == "memory" for d in c.deployments)]


def fit_remedy(
    needs: Sequence[tuple[str, Estimate]], budget_gpus: int, tr: Translator = EN, device: str = "gpu"
) -> str:
    """What would hold the model on the chips no layout within the budget holds it on, each as (name,
    layouts.budget_no_fit's estimate), as `frontier --max-gpus` says it: the smallest budget that does (min_gpus),
    the chips grouped by it, or that none up to 1,024 GPUs does; then the lower precision that would within this
    budget (precision_that_fits), or that lower precision alone is not enough ('' for no chip). `device`: what the
    budgets count (fmt.device_kind: 'chip' once a TPU or Trainium is among them)."""
    by_budget: dict[int, list[str]] = {}
    by_format: dict[str, list[str]] = {}
    never, short = [], []
    for name, e in needs:
        n = float(e.min_gpus)
        if n != n:
            never.append(name)
        elif n > budget_gpus:
            by_budget.setdefault(int(n), []).append(name)
        if (fitting := precision_that_fits(e)) is not None:
            what = " + ".join(tr(f"remedy_precision_{kind}", fmt=f.name) for kind, f in
                              zip(("weights", "kv"), fitting, strict=True) if f)  # fmt: skip
            by_format.setdefault(what, []).append(name)
        elif any(lower_formats(e.scenario, e.hardware)):
            short.append(name)
    devices = fmt.devices(device, budget_gpus, tr)
    said = []
    if by_budget:
        items = [tr("fr_rack_fit_budget_item", devices=fmt.devices(device, n, tr), chips=tr.join(chips))
                 for n, chips in sorted(by_budget.items())]  # fmt: skip
        said.append(tr("fr_rack_fit_budget", items=tr.join(items, "clause_sep")))
    if never:
        said.append(tr("fr_rack_fit_budget_none", devices=fmt.devices(device, MAX_GPUS_SEARCHED, tr),
                       chips=tr.join(never)))  # fmt: skip
    if by_format:  # the chips on which it is not enough after those on which it is
        items = [tr("fr_rack_fit_precision_item", what=what, chips=tr.join(chips)) for what, chips in by_format.items()]
        items += [tr("fr_rack_fit_precision_short_item", chips=tr.join(short))] if short else []
        said.append(tr("fr_rack_fit_precision", devices=devices, items=tr.join(items, "clause_sep")))
    elif short:
        said.append(tr("fr_rack_fit_precision_short", devices=devices, chips=tr.join(short)))
    return tr.sentences(said)


def measured_fit_caption(
    measured: Sequence, names: Mapping[str, str], pool_ids: Collection[str] = (), tr: Translator = EN
) -> str | None:
    """Which of the measured points drawn the model was fitted on: per chip (`names`: id -> name), how many are in
    the engine profiles' fit and check (ServingMeasurement.fitted, what the main chart's hover says of a run), and
    how many of the disaggregated ones the pool correction was fitted on (`pool_ids`: the runs of
    data/disaggregated_check.json's ``checked``); None with none drawn."""
    drawn = by_chip(measured)
    if not drawn:
        return None
    fitted = [(names.get(hid, hid), sum(r.fitted for r in rows), len(rows)) for hid, rows in drawn.items()]
    items = [tr("fr_rack_fit_item", name=name, n=n, runs=runs) for name, n, runs in fitted if n]
    use = tr("fr_use_fit")
    said = [tr("fr_rack_measured_fit", items=tr.join(items), use=use) if items else tr("fr_rack_measured_fit_none")]
    disaggregated = [r for rows in drawn.values() for r in rows if r.layout == "disaggregated"]
    if disaggregated:
        pooled = sum(r.id in pool_ids for r in disaggregated)
        said.append(tr("fr_rack_measured_pool", n=pooled, runs=len(disaggregated)))
    return tr.sentences(said)


def _scale_out(curves: Sequence[RackCurve]) -> list[RackCurve]:
    """The shipping scale-out chips' curves (the ratio's denominators), in order."""
    return [c for c in curves if not c.projection and c.hardware_id not in RACKS]


BUDGET_GPUS = 72  # the default budget: one NVL72 rack (the page's input, fr_rack_gpus in the URL)
MAX_BUDGET = MAX_BUDGET_GPUS
# targets searched, tokens/s per user: a log grid and the table's read-offs themselves (a curve that ends between two
# grid points, e.g. at 109 when 125 is still reached, had left the 125 column blank)
INTERACTIVITY = np.unique(np.concatenate([np.round(np.geomspace(8.0, 320.0, 25), 1), RATIO_AT]))


@dataclass(frozen=True, eq=False)
class RackCurve:
    """One chip: the best deployment at each interactivity target."""

    hardware_id: str
    name: str  # display name, "(announced)" mark included
    projection: bool
    targets: np.ndarray  # tokens/s per user asked for
    deployments: tuple[Deployment, ...]
    usd_per_gpu_hour: Mapping[str, float]  # by price basis
    # per deployment: (low, high) tokens/s per GPU where 80 % of the measured runs like it sit against the search
    # (frontier_check.deployment_range), None where the check holds no such runs; empty: none given
    ranges: tuple[tuple[float, float] | None, ...] = ()
    price_as_of: Mapping[str, str] = field(default_factory=dict)  # by price basis: the price's date
    # per deployment: frontier_check.beyond_measured's (decode sequences per GPU, the most any measured run decoded
    # with that worker recipe or None, whether the worker spans scale-up domains) past the measured recipes, else None
    beyond: tuple[tuple[float, float | None, bool] | None, ...] = ()
    engine_names: Mapping[str, str] = field(default_factory=dict)  # profile id -> display name (Deployment.engine)
    # the tables' row name: an announced chip marked '*' (the page's hw_announced_key caption says what it means), not
    # '(announced)', so that four values fit beside it in a 900 px frame; empty: the name
    table_name: str = ""
    # per deployment that fits: why it has no 80 % range (frontier_check.no_range_kind: 'announced', ...), None where
    # one may be read (and the check may still hold no runs like it); empty: none given
    no_range: tuple[str | None, ...] = ()

    @property
    def row_name(self) -> str:
        return self.table_name or self.name

    def engine_name(self, d: Deployment) -> str:
        return self.engine_names.get(d.engine, d.engine)

    def beyond_of(self, i: int) -> tuple[float, float | None, bool] | None:
        return self.beyond[i] if self.beyond else None

    def range_of(self, i: int) -> tuple[float, float] | None:
        return self.ranges[i] if i < len(self.ranges) else None

    def no_range_of(self, i: int) -> str | None:
        return self.no_range[i] if i < len(self.no_range) and self.deployments[i].feasible else None

    @property
    def chip_no_range(self) -> str | None:
        """The chip's own reason for having no 80 % range anywhere (frontier_check.CHIP_NO_RANGE: an announced chip,
        nothing measured), where every deployment that fits gives it; None otherwise."""
        kinds = {self.no_range_of(i) for i, d in enumerate(self.deployments) if d.feasible}
        return kinds.pop() if len(kinds) == 1 and kinds <= set(CHIP_NO_RANGE) else None

    def range_at(self, target: float) -> tuple[float, float] | None:
        """The 80 % range (ranges) of the deployment behind at(target), at a searched target; None elsewhere."""
        i = _target_index(self, target)
        return self.range_of(i) if i is not None and self.deployments[i].feasible else None

    @property
    def feasible(self) -> np.ndarray:
        return np.array([d.feasible for d in self.deployments], dtype=bool)

    @property
    def interactivity(self) -> np.ndarray:
        return np.array([d.tokens_per_s_per_user for d in self.deployments])

    @property
    def per_gpu(self) -> np.ndarray:
        return np.array([d.tokens_per_s_per_gpu for d in self.deployments])

    def at(self, target: float) -> float:
        """Tokens/s per GPU at a target interactivity: at a searched target, that target's best deployment's (the
        layout that meets it, as the chart's CSV row says, though it may reach a little more); elsewhere log-log
        along the curve; nan off it."""
        if (i := _target_index(self, target)) is not None:
            d = self.deployments[i]
            return float(d.tokens_per_s_per_gpu) if d.feasible else math.nan
        ok = self.feasible
        return at_interactivity(self.interactivity[ok], self.per_gpu[ok], target)

    def usd_per_1m_at(self, basis: str, target: float) -> float:
        """$ per 1M input + output tokens at a target interactivity under a price basis (nan without its price or where
        the chip does not reach the target)."""
        return float(usd_per_1M_tokens(self.usd_per_gpu_hour.get(basis, math.nan), self.at(target)))

    def gpus_at(self, target: float) -> float:
        """The GPUs the deployment behind at(target) uses (of the budget); nan where it does not reach the target."""
        if not math.isfinite(self.at(target)):
            return math.nan
        i = _target_index(self, target)
        d = self.deployments[i] if i is not None else self.deployment_at(target)
        return float(d.gpus_used) if d is not None and d.feasible else math.nan

    def deployment_at(self, target: float, feasible: bool = True) -> Deployment | None:
        """The searched deployment at the lowest target >= `target` (the layout behind the value at `target`); with
        feasible False, whatever the search found there (its candidates say what fits)."""
        for t, d in zip(self.targets, self.deployments, strict=True):
            if t >= target - 1e-9 and (d.feasible or not feasible):
                return d
        return None


def _recipe_text(d: Deployment, spans_domains: bool, tr: Translator) -> str:
    """A decode worker's recipe in words: 'DEP32', or 'DEP32 across scale-up domains' (over HGX nodes)."""
    return tr("fr_rack_recipe_across", layout=d.decode.layout_name) if spans_domains else d.decode.layout_name


def _seqs(x: float) -> str:
    """Sequences per GPU in a decode pool: '0.25' below 10 (a pool of TP8 at batch 2), else whole: '347'."""
    return f"{x:.2g}" if x < 10 else f"{x:,.0f}"


def _hover(c: RackCurve, i: int, tr: Translator, same: str | None = None) -> str:
    """One point's hover; `same`: the name of the rack-scale chip whose point here is this one (same layout, same
    tokens/s per GPU), which the line drawn over it hides."""
    d = c.deployments[i]
    text = tr(
        "fr_rack_hover",
        name=c.name,
        layout=d.short_label,  # '3 × DEP4 → 1 × DEP32': the serving word says it reads prefill → decode
        serving=tr(f"fr_rack_serving_{d.serving}"),
        gpus=d.gpus_used,
        engine=c.engine_name(d),
        user=f"{d.tokens_per_s_per_user:.1f}",
        y=f"{d.tokens_per_s_per_gpu:,.0f}",
        tpot=f"{d.tpot_s * 1e3:.1f}",
        ttft=f"{d.ttft_s * 1e3:,.0f}",
    )
    if same is not None:
        text += "<br>" + tr("fr_rack_hover_same", name=same)
    if (rng := c.range_of(i)) is not None:
        text += "<br>" + tr("fr_rack_hover_range", low=f"{rng[0]:,.0f}", high=f"{rng[1]:,.0f}")
        if not rng[0] <= d.tokens_per_s_per_gpu <= rng[1]:  # the model is off its own kind's runs here: said
            side = "below" if d.tokens_per_s_per_gpu < rng[0] else "above"
            text += "<br>" + tr(f"fr_rack_hover_range_{side}", y=f"{d.tokens_per_s_per_gpu:,.0f}")
    elif (why := c.no_range_of(i)) in CHIP_NO_RANGE:  # why a projection has no range where GB200's has one
        text += "<br>" + tr("fr_rack_hover_range_none", reason=tr(f"fr_rack_no_range_{why}"))
    if (far := c.beyond_of(i)) is not None:
        layout = _recipe_text(d, far[2], tr)
        text += "<br>" + (
            tr("fr_rack_hover_beyond", seqs=_seqs(far[0]), most=_seqs(far[1]), layout=layout)
            if far[1] is not None
            else tr("fr_rack_hover_unmeasured", seqs=_seqs(far[0]), layout=layout)
        )
    return text


def rack_figure(curves: Sequence[RackCurve], measured: Sequence, *, model_name: str, io: str, precision: str,
                engine: str | None, budget_gpus: int = BUDGET_GPUS, tr: Translator = EN,
                conditions: Sequence[str] = (), beyond_budget: Sequence = ()) -> go.Figure:  # fmt: skip
    """Tokens/s per GPU (input + output) against tokens/s per user, one line per chip (projections dashed), the
    measured points (within the budget) as large open markers in the chip's colour; the title names the engine
    (`engine`: the profile's name; None: the best engine at each point) and the GPU budget searched, and on a line
    under it what else the numbers assume (`conditions`: export.conditions' MTP and measured recipes only, which a
    screenshot keeps). The rack-scale chip's line is drawn wider and first: where a scale-out chip runs the same
    layout (GB200 and B200 at high interactivity, both TP8) its colour still shows around the other's. Where no run
    is drawn, the key says whether runs of these lengths exist on more GPUs than the budget (`beyond_budget`: the
    fewest GPUs they used) or none at all."""
    fig = Figure()
    rack = _rack(curves)
    for c in curves:
        ok = c.feasible
        if not ok.any():  # nothing to draw (the page says why): no empty legend entry
            continue
        ds = [d for d, o in zip(c.deployments, ok, strict=True) if o]
        shown = np.flatnonzero(ok)
        name = tr("fr_rack_projection", name=c.name) if c.projection else c.name
        same = [rack.name if rack is not None and c is not rack and _same_point(rack, c, int(i)) else None
                for i in shown]  # fmt: skip
        line = {"color": hardware_colour(c.hardware_id), "dash": "dash" if c.projection else "solid",
                "width": 4 if c is rack else 2}  # fmt: skip
        fig.add_scatter(
            x=c.interactivity[ok], y=c.per_gpu[ok], mode="lines+markers", name=name, legendgroup=c.hardware_id,
            showlegend=False, line=line,
            marker={"size": 6, "symbol": ["star" if d.serving == "disaggregated" else "circle" for d in ds]},
            hovertext=[_hover(c, int(i), tr, m) for i, m in zip(shown, same, strict=True)], hoverinfo="text",
        )  # fmt: skip
        # its legend entry: the line alone (a legend copies the first point's marker: MI355X's read ★, disaggregated,
        # for a chip whose curve is aggregated at most targets; the key above the plot says what ★ and ● are)
        fig.add_scatter(x=[None], y=[None], mode="lines", name=name, legendgroup=c.hardware_id, legendrank=100,
                        line=line, hoverinfo="skip")  # fmt: skip
    chip_names = {c.hardware_id: c.name for c in curves}  # the curves' names: 'GB200 NVL72', not 'GB200'
    for hid, rows in by_chip(measured).items():
        hw = chip_names.get(hid, hid.upper())
        name = tr("fr_rack_measured", hw=hw, devices=fmt.devices("gpu", budget_gpus, tr))
        front = sorted(non_dominated(rows), key=lambda r: r.interactivity_tokens_per_s_per_user)
        fig.add_scatter(  # the measured frontier the tables read off, joined (no legend entry: the markers' group)
            x=[r.interactivity_tokens_per_s_per_user for r in front], y=[r.total_tokens_per_s_per_gpu for r in front],
            mode="lines", name=name, line={"color": hardware_colour(hid), "dash": "dashdot", "width": 1},
            opacity=0.7, legendgroup=f"measured-{hid}", showlegend=False, hoverinfo="skip",
        )  # fmt: skip
        fig.add_scatter(
            x=[r.interactivity_tokens_per_s_per_user for r in rows], y=[r.total_tokens_per_s_per_gpu for r in rows],
            mode="markers", name=name, legendrank=500,
            legendgroup=f"measured-{hid}",
            marker={"size": 11, "symbol": "diamond-open", "color": hardware_colour(hid), "line": {"width": 2}},
            hovertext=[tr("fr_rack_hover_measured", hw=hw, id=r.label, engine=engine_text(r, tr), date=r.run_date or "—",
                          parallelism=measured_layout(r.fields.get("parallelism", ""), tr), user=f"{r.interactivity_tokens_per_s_per_user:.1f}",
                          y=f"{r.total_tokens_per_s_per_gpu:,.0f}", use=tr("fr_use_fit") if r.fitted else tr("fr_use_display"))
                        for r in rows],
            hoverinfo="text",
        )  # fmt: skip
    style(
        fig,
        tr(
            "fr_rack_title",
            model=model_name,
            io=io,
            precision=precision,
            devices=fmt.devices("gpu", budget_gpus, tr),
            engine=tr("fr_rack_title_best") if engine is None else engine,
        )
        + (f"<br><sup>{' · '.join(conditions)}</sup>" if conditions else ""),
        tr("fr_axis_tps_user"),
        tr("fr_rack_axis_y"),
        log_y=True,
    )
    fig.update_yaxes(
        **y_log_ticks(fig, prefixed=True)
    )  # 1-2-5 ticks with their units (Plotly's own read '2', '5', '1000', '10k')
    # below the plot: the chips' names, projections and measured points are long (a side column took 35-45 % of the
    # chart's width)
    # a legend even for one curve (Plotly drops a lone trace's: an unlabelled dashed line when one chip fitted)
    fig.update_layout(**legend_placement(fig, 520, side_max=0), showlegend=True)
    for x in RATIO_AT:  # the interactivities the tables read off, each labelled at the top
        fig.add_vline(
            x=x,
            line={"color": "#bbb", "width": 1, "dash": "dot"},
            annotation={"text": f"{x:g}", "font": {"size": 10, "color": "#777"}, "yanchor": "bottom"},
            annotation_position="top",
        )
    # no '◇ measured' with none drawn; nor 'no measured run of these lengths' where some ran on more GPUs than the
    # budget (DeepSeek-R1 1k/1k within 3 GPUs: B200's, GB200's and MI355X's runs use 4 to 72)
    beyond = [int(float(r.fields.get("n_gpus") or 0)) for rows in by_chip(beyond_budget).values() for r in rows]
    if by_chip(measured):
        key = tr("fr_rack_marker_key")
    elif beyond:
        key = tr("fr_rack_marker_key_beyond", devices=fmt.devices("gpu", budget_gpus, tr),
                 fewest=fmt.devices("gpu", min(beyond), tr))  # fmt: skip
    else:
        key = tr("fr_rack_marker_key_unmeasured")
    # on lines as wide as the narrowest plot (one line ran off its left edge at 900 px with the sidebar open: 'ted ·
    # no measured run...'), the top margin taller by the further lines
    lines = wrap_parts(key, NARROW_PLOT_PX / 6.0)
    fig.add_annotation(text="<br>".join(lines), xref="paper", yref="paper", x=1.0, y=1.0, xanchor="right",
                       yanchor="bottom", yshift=14, align="right", showarrow=False,
                       font={"size": 11, "color": "#555"})  # fmt: skip
    # clear of the title above it (70 for one line), and of its conditions' line
    fig.update_layout(margin_t=40 + 30 * len(lines) + (30 if conditions else 0))
    if not fig.data:  # no chip holds the model within the budget: said on the plot, not axes of made-up ranges
        fig.layout.annotations, fig.layout.shapes = (), ()  # nor a key to markers, nor the tables' interactivities
        fig.add_annotation(text=tr("fr_rack_nothing", devices=fmt.devices("gpu", budget_gpus, tr)), xref="paper",
                           yref="paper", x=0.5, y=0.5, showarrow=False, font={"size": 14, "color": "#555"})  # fmt: skip
        fig.update_xaxes(visible=False)
        fig.update_yaxes(visible=False)
    return fig


SAME_POINT = 0.005  # two chips' points closer than this (relative) are one point on the chart and in the ratio


def _same_point(a: RackCurve, b: RackCurve, i: int) -> bool:
    """Whether two chips' deployments at target i are one point on the chart: the same layout, tokens/s per GPU and
    TPOT within 0.5 % (GB200's and B200's TP8 replicas differ by 0.02 %: their advantage reads 1.00)."""
    if i >= len(a.deployments) or i >= len(b.deployments) or not math.isclose(a.targets[i], b.targets[i]):
        return False
    x, y = a.deployments[i], b.deployments[i]
    return (x.feasible and y.feasible and x.label == y.label
            and math.isclose(x.tokens_per_s_per_gpu, y.tokens_per_s_per_gpu, rel_tol=SAME_POINT)
            and math.isclose(x.tpot_s, y.tpot_s, rel_tol=SAME_POINT))  # fmt: skip


def same_layout_caption(curves: Sequence[RackCurve], tr: Translator = EN) -> str | None:
    """Where the rack-scale advantage is 1.00 because both chips run one layout that fits a scale-out node (GB200 and
    B200 at high interactivity: TP8 replicas): which layout at which of RATIO_AT; None where that does not happen."""
    rack = _rack(curves)
    said = []
    for other in _scale_out(curves) if rack is not None else ():
        hits = [(x, i) for x in RATIO_AT if (i := _target_index(rack, x)) is not None and _same_point(rack, other, i)]
        by_layout: dict[str, list[float]] = {}  # each layout with the targets it serves (9 × TP8 at 125 only)
        for x, i in hits:
            by_layout.setdefault(_layout_said(rack.deployments[i], tr), []).append(x)
        for layout, xs in by_layout.items():
            said.append(tr("fr_rack_same_layout", x=tr.join([f"{x:g}" for x in xs]), rack=rack.name,
                           other=other.name, layout=layout))  # fmt: skip
    return tr.sentences(said) if said else None


def _layout_said(d: Deployment, tr: Translator) -> str:
    """A deployment's layout in a sentence: the owner's short form ('9 × TP8'; Deployment.short_label), a
    disaggregated one's said to read prefill → decode ('disaggregated, prefill → decode: 1 × TP4 → 8 × TP8')."""
    return tr("fr_rack_layout_disaggregated", layout=d.short_label) if d.prefill is not None else d.short_label


def _target_index(c: RackCurve, x: float) -> int | None:
    """The index of a searched target equal to x, or None."""
    hit = np.flatnonzero(np.isclose(c.targets, x, rtol=1e-9, atol=0.0))
    return int(hit[0]) if hit.size else None


def by_chip(measured: Sequence) -> dict[str, list]:
    """The measured runs with a throughput, by hardware id, in the chart's order (GENERATIONS', then any other)."""
    out: dict[str, list] = {}
    for r in measured:
        if math.isfinite(r.total_tokens_per_s_per_gpu) and r.total_tokens_per_s_per_gpu > 0:
            out.setdefault(r.fields["hardware_id"], []).append(r)
    order = {h: i for i, h in enumerate(dict.fromkeys(h for g in GENERATIONS for h in chips(g)))}
    return dict(sorted(out.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])))


def measured_frontier(measured: Sequence) -> dict[str, tuple[MeasuredAt | None, ...]]:
    """Each chip's measured frontier at RATIO_AT (frontier_check.measured_at over its runs drawn), by hardware id."""
    return {hid: tuple(measured_at(rows, x) for x in RATIO_AT) for hid, rows in by_chip(measured).items()}


def _value(m: MeasuredAt | None) -> float:
    return m.tokens_per_s_per_gpu if m is not None else math.nan


def rack_table(curves: Sequence[RackCurve], measured: Sequence, tr: Translator = EN) -> pd.DataFrame:
    """The data behind rack_figure and its tables: every searched point (its layout; where 80 % of the measured runs
    like it sit, blank where none are, and why none can be, in `tr`'s language; each price basis's $/GPU-hour and $ per 1M input + output tokens, blank
    without a public price) and every measured point (its run date, source and whether the engine profiles' fit
    and check use it, as the main chart's hover says)."""
    rows = []
    for c in curves:
        for i, (t, d) in enumerate(zip(c.targets, c.deployments, strict=True)):
            rng, why = c.range_of(i) or (None, None), c.no_range_of(i)
            rows.append({
                "source": "projection" if c.projection else "model", "hardware": c.hardware_id,
                "target_tok_s_per_user": float(t), "feasible": d.feasible, "serving": d.serving or None,
                # as `frontier --max-gpus --json` writes it (layout.label): 'prefill 3 × DEP4 + decode 1 × DEP32'
                "layout": d.label or None, "engine": d.engine if d.feasible else None, "max_gpus": d.max_gpus,
                "gpus_used": d.gpus_used,
                "tok_s_per_user": d.tokens_per_s_per_user, "tok_s_per_gpu_in_plus_out": d.tokens_per_s_per_gpu,
                "measured_like_it_80pct_low_tok_s_per_gpu": rng[0], "measured_like_it_80pct_high_tok_s_per_gpu": rng[1],
                "no_measured_range": why, "no_measured_range_reason": tr(f"fr_rack_no_range_{why}") if why else None,
                "decode_seqs_per_gpu": d.decode_sequences_per_gpu if d.feasible else None,
                "beyond_measured_recipes": c.beyond_of(i) is not None if d.serving == "disaggregated" else None,
                "measured_max_decode_seqs_per_gpu_same_layout": (c.beyond_of(i) or (None, None))[1],
                "output_tok_s_per_gpu": d.output_tokens_per_s_per_gpu, "tpot_ms": d.tpot_s * 1e3,
                "ttft_ms": d.ttft_s * 1e3, "limited_by": d.limited_by, "id": None,
                # not reached on latency: the fastest tokens/s per user a layout that fits reaches
                "fastest_tok_s_per_user": 1.0 / d.fastest_tpot_s if math.isfinite(d.fastest_tpot_s) else None,
                **{f"usd_per_gpu_hour_{b}": usd for b, usd in c.usd_per_gpu_hour.items()},
                **{f"price_as_of_{b}": c.price_as_of.get(b, "") for b in c.usd_per_gpu_hour},
                **{f"usd_per_1M_tokens_in_plus_out_{b}": float(usd_per_1M_tokens(usd, d.tokens_per_s_per_gpu))
                   for b, usd in c.usd_per_gpu_hour.items()},
            })  # fmt: skip
    for r in measured:
        rows.append({
            "source": "measured", "hardware": r.fields["hardware_id"], "target_tok_s_per_user": None,
            "feasible": True, "serving": r.layout, "layout": r.fields.get("parallelism", ""), "engine": r.profile,
            "max_gpus": None,
            "gpus_used": r.fields.get("n_gpus"), "tok_s_per_user": r.interactivity_tokens_per_s_per_user,
            "tok_s_per_gpu_in_plus_out": r.total_tokens_per_s_per_gpu, "output_tok_s_per_gpu": None,
            "tpot_ms": r.tpot_s * 1e3, "ttft_ms": None, "limited_by": None, "id": r.id,
            # when and where it was measured (the Serving frontier's CSV's run_date; `source` says the row's kind here,
            # so the serving file's citation is source_citation, its link source_url as the Validation CSV's)
            "run_date": r.run_date, "source_url": fmt.source_url(r.fields.get("source", "")),
            "source_citation": r.fields.get("source", ""), "used_in_fit": r.fitted,
        })  # fmt: skip
    for hid, read in measured_frontier(measured).items():  # what the tables' measured rows read, and from which runs
        for x, m in zip(RATIO_AT, read, strict=True):
            rows.append({
                "source": "measured_frontier_interpolated" if m is not None and m.interpolated else "measured_frontier",
                "hardware": hid, "target_tok_s_per_user": x, "feasible": m is not None,
                "tok_s_per_gpu_in_plus_out": _value(m), "id": " + ".join(r.id for r in m.runs) if m else None,
            })  # fmt: skip
    return pd.DataFrame(rows)


def _at_columns(tr: Translator) -> list[str]:
    """The iso-interactivity tables' value columns: one per RATIO_AT target, headed by its tokens/s per user ('25'; the
    first column's header names the unit), so four of them fit a 900 px frame beside the chips' names."""
    return [tr("fr_rack_col_at", x=f"{x:g}") for x in RATIO_AT]


def rates_table(curves: Sequence[RackCurve], tr: Translator = EN, measured: Sequence = ()) -> pd.DataFrame:
    """Each chip's tokens/s per GPU (input + output) at each of RATIO_AT, a row per chip (3 significant figures;
    nan where it does not reach the target), under a chip with measured runs its measured frontier's (measured_frontier;
    nan above its most interactive run), each value's 80 % range (or, where the chip has none for its own reason:
    RackCurve.chip_no_range, a row whose name says why), then the GPUs its deployments use (of the budget): a column per target, so
    the table is as narrow as four numbers, not as wide as five chips' names. attrs["formats"]: the value columns'
    display format ('localized')."""
    cols, read = _at_columns(tr), measured_frontier(measured)

    def row(name: str, values, digits: int | None = 3) -> dict:
        shown = np.array(values, dtype=float) if digits is None else round_significant(np.array(values), digits)
        return {tr("fr_rack_col_rates"): name, **dict(zip(cols, map(float, shown), strict=True))}

    rows, spans = [], []  # spans: [row, column, text], JSON-like (Streamlit serialises a table's attrs)
    for c in curves:
        rows.append(row(c.row_name, [c.at(x) for x in RATIO_AT]))
        if c.hardware_id in read:
            rows.append(row(tr("fr_rack_row_measured"), [_value(m) for m in read[c.hardware_id]]))
        # how far to trust each value: where 80 % of measured runs of its kind sit against the search (the check
        # below); the row holds each range's low end, shown as 'low–high' (attrs["cells"]: text cells in a number
        # column)
        found = [c.range_at(x) for x in RATIO_AT]
        if any(found):
            for col, r in zip(cols, found, strict=True):
                if r is not None:
                    spans.append(
                        [len(rows), col, "–".join(fmt.exact(float(v)) for v in round_significant(np.array(r), 2))]
                    )
            rows.append(row(tr("fr_rack_row_range"), [math.nan if r is None else r[0] for r in found], 2))
        elif (why := c.chip_no_range) is not None:  # none anywhere, for the chip's own reason: said in the row's name
            rows.append(row(tr("fr_rack_row_range_none", reason=tr(f"fr_rack_no_range_{why}")), [math.nan] * len(cols)))
        rows.append(row(tr("fr_rack_row_gpus"), [c.gpus_at(x) for x in RATIO_AT], None))
    table = pd.DataFrame(rows, columns=[tr("fr_rack_col_rates"), *cols])
    table.attrs["formats"] = dict.fromkeys(cols, "localized")
    table.attrs["cells"] = spans
    return table


def ratio_table(curves: Sequence[RackCurve], tr: Translator = EN, measured: Sequence = ()) -> pd.DataFrame:
    """The rack-scale advantage at each of RATIO_AT: the rack-scale chip's tokens/s per GPU over each scale-out chip's (the
    iso-interactivity ratio, 2 decimals; nan where either does not reach the target), a row per scale-out chip, and
    under it the same of their measured frontiers (measured_frontier) where both chips have measured runs.
    attrs["formats"]: the value columns' ('%.2f×': 2 read '2' beside 1.28, and a ratio reads as one)."""
    rack, cols, read = _rack(curves), _at_columns(tr), measured_frontier(measured)

    def row(name: str, values) -> dict:
        return {tr("fr_rack_col_advantage"): name, **{col: round(v, 2) for col, v in zip(cols, values, strict=True)}}

    rows = []
    for other in _scale_out(curves) if rack is not None else ():
        name = tr("fr_rack_col_ratio", rack=rack.row_name, other=other.row_name)
        rows.append(row(name, [rack.at(x) / other.at(x) for x in RATIO_AT]))
        if rack.hardware_id in read and other.hardware_id in read:
            pair = zip(read[rack.hardware_id], read[other.hardware_id], strict=True)
            ratios = [_value(a) / _value(b) for a, b in pair]
            rows.append(row(tr("fr_rack_row_measured"), ratios))
    table = pd.DataFrame(rows, columns=[tr("fr_rack_col_advantage"), *cols])
    table.attrs["formats"] = dict.fromkeys(cols, "%.2f×")
    return table


def at_target_caption(curves: Sequence[RackCurve], target: float, tr: Translator = EN) -> str | None:
    """The tables' reading at the page's own interactivity target when it is not one of RATIO_AT (an analyst's 50 tok/s
    per user had to be read off the chart): each chip's tokens/s per GPU there (RackCurve.at: the best deployment that
    meets it where the page searched it, as the Planner and `frontier` do; else interpolated along the curve) and the
    rack-scale advantage over each scale-out chip; None at a RATIO_AT target or without curves."""
    if not curves or any(abs(target - x) < 1e-9 for x in RATIO_AT):
        return None

    def rate(c: RackCurve) -> str:
        v = c.at(target)
        return tr("fr_rack_at_item", name=c.name, rate=f"{float(round_significant(np.array(v))):,.0f}") if (
            math.isfinite(v)) else tr("fr_rack_at_none", name=c.name)  # fmt: skip

    rack, ratios = _rack(curves), []
    for other in _scale_out(curves) if rack is not None else ():
        if math.isfinite(r := rack.at(target) / other.at(target)):
            ratios.append(tr("fr_rack_col_ratio", rack=rack.name, other=other.name) + f" {r:.2f}×")
    said = tr("fr_rack_at_target", target=f"{target:g}", rates=tr.join([rate(c) for c in curves]))
    return tr.sentences([said, tr("fr_rack_at_ratios", ratios=tr.join(ratios))]) if ratios else said


def beyond_caption(curves: Sequence[RackCurve], tr: Translator = EN) -> str | None:
    """Which of the tables' values come from a decode pool beyond the measured recipes (RackCurve.beyond): per chip
    and RATIO_AT target, its layout, its sequences per GPU and the most any measured run decoded on that layout;
    None when every value is within them."""
    items = []
    for c in (c for c in curves if not c.projection):  # projections are marked as such already
        for x in RATIO_AT:
            i = int(np.argmin(np.abs(c.targets - x)))
            if abs(c.targets[i] - x) > 1e-9 or (far := c.beyond_of(i)) is None:
                continue
            layout = _recipe_text(c.deployments[i], far[2], tr)
            said = dict(name=c.name, x=f"{x:g}", layout=layout, seqs=_seqs(far[0]))  # 0.25, not 0
            items.append(tr("fr_rack_beyond_item", **said, most=_seqs(far[1])) if far[1] is not None
                         else tr("fr_rack_beyond_item_new", **said))  # fmt: skip
    return tr("fr_rack_beyond", items=tr.join(items, "clause_sep")) if items else None


def ceilings(curves: Sequence[RackCurve]) -> list[tuple[str, float]]:
    """(chip name, tokens/s per user) for each chip whose layouts miss a RATIO_AT target on latency: the fastest
    interactivity a layout that fits within the budget reaches (Deployment.fastest_tpot_s), what its '—' hides."""
    out = []
    for c in curves:
        if all(math.isfinite(c.at(x)) for x in RATIO_AT):
            continue
        fastest = [d.fastest_tpot_s for d in c.deployments if d.limited_by == "slo" and math.isfinite(d.fastest_tpot_s)]
        if fastest:
            out.append((c.name, 1.0 / min(fastest)))
    return out


def cost_table(curves: Sequence[RackCurve], bases: Sequence[str], tr: Translator = EN) -> pd.DataFrame:
    """Each chip's $ per 1M input + output tokens at each of RATIO_AT, a row per chip and price basis it has a
    public price on (the bases in the order given: the sidebar's first),
    in dollars to three significant figures each, as text ('$0.0512' beside '$0.153' and '$24.3': a row spans orders
    of magnitude, two decimals read $0.05 beside $0.15, and a number column drops trailing zeros: '0.07' beside
    '0.084'); None where the chip does not reach the target. attrs["formats"]: none (text columns);
    attrs["unpriced"]: the (chip name, basis) pairs left out for want of a price (rows of dashes only)."""
    cols = _at_columns(tr)
    rows, unpriced = [], []
    for c in curves:
        for b in bases:
            price = c.usd_per_gpu_hour.get(b, math.nan)
            if not math.isfinite(price):
                unpriced.append((c.name, b))
                continue
            usd = [c.usd_per_1m_at(b, x) for x in RATIO_AT]
            # short: the chip, its basis and four dollar figures fit a 900 px frame
            basis = tr("fr_rack_basis_own", usd=fmt.usd(price)) if b == CUSTOM else tr(f"fr_tier_short_{b}")
            rows.append({tr("fr_rack_col_usd"): c.row_name, tr("fr_rack_col_basis"): basis,
                         **{k: fmt.usd(v) if math.isfinite(v) else None for k, v in zip(cols, usd, strict=True)}})  # fmt: skip
    table = pd.DataFrame(rows, columns=[tr("fr_rack_col_usd"), tr("fr_rack_col_basis"), *cols])
    table.attrs["formats"] = {}
    table.attrs["unpriced"] = unpriced
    return table


def price_order_caption(curves: Sequence[RackCurve], bases: Sequence[str], tr: Translator = EN) -> str | None:
    """Where which chip is cheaper per token turns on the price basis: at the RATIO_AT targets where the rack-scale
    chip's $ per 1M tokens is below a scale-out chip's on some bases and above it on others (GB200 NVL72 at 100 and 125
    tok/s per user, both running one layout: dearer than B200 on every basis but on demand, where one provider's
    superchip price halved is under B200's), the targets and the bases on each side; None where the order holds."""
    rack, said = _rack(curves), []
    for other in _scale_out(curves) if rack is not None else ():
        split: dict[tuple[tuple[str, ...], tuple[str, ...]], list[float]] = {}
        for x in RATIO_AT:
            cost = [(b, rack.usd_per_1m_at(b, x), other.usd_per_1m_at(b, x)) for b in bases]
            cheaper = tuple(b for b, r, o in cost if r < o)
            dearer = tuple(b for b, r, o in cost if r > o)
            if cheaper and dearer:
                split.setdefault((cheaper, dearer), []).append(x)
        for (cheaper, dearer), xs in split.items():
            said.append(tr("fr_rack_price_order", x=tr.join([f"{x:g}" for x in xs]), rack=rack.name, other=other.name,
                           cheaper=tr.join([tr(f"fr_tier_{b}") for b in cheaper]),
                           dearer=tr.join([tr(f"fr_tier_{b}") for b in dearer])))  # fmt: skip
    return tr.sentences(said) if said else None


def unpriced_caption(table: pd.DataFrame, bases: Sequence[str], tr: Translator = EN) -> str | None:
    """Which chips cost_table leaves out for want of a public price: on every basis ('Rubin NVL72 (announced)'), or on
    the bases named; None when every chip has every price."""
    by_chip: dict[str, list[str]] = {}
    for name, b in table.attrs.get("unpriced", []):
        by_chip.setdefault(name, []).append(b)
    if not by_chip:
        return None
    items = [name if len(missing) == len(bases) else tr("fr_rack_unpriced_on", name=name,
             bases=tr.join([tr(f"fr_tier_{b}") for b in missing])) for name, missing in by_chip.items()]  # fmt: skip
    return tr("fr_rack_unpriced", items=tr.join(items, "clause_sep"))


def _names(ids: Sequence[str], names: Mapping[str, str], tr: Translator) -> str:
    """Catalog model ids by name, in the reader's list: 'DeepSeek-R1'; '—' for none."""
    return tr.join([names.get(m, m) for m in ids]) or "—"


def _checked_models(check: Mapping, names: Mapping[str, str], tr: Translator) -> str:
    """The models the checks' runs are of (the best-engine check's), by name."""
    return _names(check.get(summary_key(True), {}).get("models", []), names, tr)


def _span(values: Sequence[float], text: Callable[[float], str]) -> str:
    """Values as one figure where they read alike, else 'lowest–highest' ('47%–59%')."""
    lo, hi = text(min(values)), text(max(values))
    return lo if lo == hi else f"{lo}–{hi}"


def check_caption(
    check: Mapping, tr: Translator = EN, engine: str | None = None, names: Mapping[str, str] = {}
) -> str | None:
    """The caption saying how far the disaggregated curves are from the measured runs (of the checked models, by
    `names`), uncorrected and with the fitted pool correction under leave-one-chip-out
    (data/disaggregated_check.json; the decode terms the engine profile's, where it has its own); None when it has no
    prefill check."""
    if check.get("prefill_median_model_over_measured") is None:
        return None
    fit = {**check["fit"], **check.get("decode_fit_by_engine", {}).get(engine, {})}
    # the best engine's curves: each engine's own decode terms (or the common ones), so their span
    fits = [fit] if engine is not None else [check["fit"], *check.get("decode_fit_by_engine", {}).values()]
    return tr("fr_rack_check", models=_checked_models(check, names, tr), runs=check["runs"], decode=fmt.pct(check["decode_median_abs_tpot_error"], 0),
              decode_n=check["decode_runs"], prefill=f"{check['prefill_median_model_over_measured']:.1f}",
              prefill_n=check["prefill_runs"], a=_span([f["decode_a"] for f in fits], lambda v: fmt.pct(v, 0)),
              k=f"{fit['prefill_time_factor']:.2f}", c=f"{fit['prefill_prompt_s'] * 1e3:.1f}",
              alpha=_span([f["decode_attention_factor"] for f in fits], lambda v: f"{v:.2f}"),
              decode_cv=fmt.pct(check["decode_median_abs_tpot_error_corrected_loco"], 0),
              prefill_cv=fmt.pct(check["prefill_median_abs_rate_error_corrected_loco"], 0))  # fmt: skip


def ratio_check_caption(
    check: Mapping, tr: Translator = EN, names: Mapping[str, str] | None = None, engine: str | None = None
) -> str | None:
    """How far the rack-scale advantage is from the measured one (calibrate's ``rack_ratio``, read under the best
    engine): what was measured on both chips (each model by `names`, its weights and request lengths), the read-offs,
    the median model / measured and the count within +-35 %, and, when the curves are timed under one `engine`
    (its display name) instead, that they are not what it reads; None without any."""
    r = (check or {}).get("rack_ratio")
    if not r or r["all"]["median_ratio"] is None:
        return None
    b = r["all"]
    points, names = r["points"], names or {}
    what = tr.join(
        [
            tr("fr_rack_ratio_check_item", model=names.get(m, m),
               weights=tr.join(sorted({p["weights"].upper() for p in points if p["model_id"] == m})),
               io=tr.join(sorted({io_label(p["isl"], p["osl"]) for p in points if p["model_id"] == m})))
            for m in r["models"]
        ]
    )  # fmt: skip
    return tr("fr_rack_ratio_check", what=what, n=b["runs"], median=f"{b['median_ratio']:.2f}",
              p10=f"{b['p10_ratio']:.2f}", p90=f"{b['p90_ratio']:.2f}", within=b["within"], gpus=r["max_gpus"],
              targets=tr.join([f"{x:g}" for x in RATIO_AT]),
              own=tr("fr_rack_ratio_check_own", engine=engine) if engine else "")  # fmt: skip


def _covers(f: Mapping, tr: Translator) -> str:
    """The weights and request lengths a check's runs cover: 'FP8, NVFP4 at 1k/1k, 1k/8k, 8k/1k'."""
    items = [c.split() for c in f.get("covers", [])]
    weights = sorted({w.upper() for w, _ in items})
    ios = sorted({io_label(*map(int, io.split("/"))) for _, io in items})
    return tr("fr_check_covers", weights=tr.join(weights), io=tr.join(ios)) if items else "—"


def frontier_check_caption(
    check: Mapping,
    tr: Translator = EN,
    best: bool = False,
    names: Mapping[str, str] = {},
    view_gpus: int | None = None,
    recipes: bool = False,
) -> str | None:
    """What the check table (check_table) reads (frontier_check's summaries in data/disaggregated_check.json: per
    engine, or with `best` the best-engine search on the frontier over every engine, and then within the budget):
    which runs, the rows, the reasons for 'not reached' and for readings above 1x; where the view's own budget
    (`view_gpus`) or its recipes switch differ from the check's, it says so. None when there is no check."""
    f = check.get(summary_key(best))
    if not f or f["all"]["median_ratio"] is None:
        return None
    budget = check.get(summary_key(True, budget=True)) if best else None
    parts = [
        tr("fr_rack_frontier_check", models=_checked_models(check, names, tr), covers=_covers(f, tr),
           runs=f["all"]["runs"], group=tr(f"fr_rack_group_{'any' if best else 'engine'}"),
           search=tr(f"fr_rack_search_{'best' if best else 'engine'}"))
    ]  # fmt: skip
    if budget:
        parts.append(tr("fr_rack_frontier_check_budget", gpus=budget["max_gpus"]))
        if view_gpus is not None and view_gpus != budget["max_gpus"]:
            parts.append(tr("fr_rack_frontier_check_view_gpus", view=fmt.integer(view_gpus), gpus=budget["max_gpus"]))
        if recipes:
            parts.append(tr("fr_rack_frontier_check_recipes"))
    return tr.sentences(parts)


def shown(table: pd.DataFrame) -> Styler:
    """A rack table (rates_table, ratio_table, cost_table, check_table) for a static table (st.table) that wraps in a
    narrow frame (as a scrolled grid, the $ table's 100 and 125 columns and the check's chips had been out of sight
    in a 900 px page with the sidebar open): each number column in its attrs["formats"] ('localized', '%.2f×'),
    kept a number so it sits right-aligned, '—' where a value is missing."""
    # 'localized': a number as rounded, thousands grouped, no trailing zeros ('25,800', '75.4', '72'), as a grid shows it
    formats = {c: fmt.exact if f == "localized" else f.replace("%.2f", "{:.2f}")
               for c, f in table.attrs.get("formats", {}).items()}  # fmt: skip
    styled = table.style.format(na_rep="—").format(formats, na_rep="—")
    for i, col, text in table.attrs.get("cells", []):  # a cell shown as text: an 80 % range 'low–high'
        styled = styled.format(lambda _, text=text: text, subset=pd.IndexSlice[[i], [col]])
    return styled.hide(axis="index")


def check_table(check: Mapping, tr: Translator = EN, best: bool = False, chips: Mapping[str, str] = {}):
    """The layout search against the measured frontier runs, a column per question (frontier_check's summaries): at
    each run's own GPU count (per engine, or best-engine with `best`); with `best`, within the budget, and within it
    for each chip of `chips` (id -> name) with runs. A row per reading: median model / measured, its 10th-90th
    percentiles, within +-35 % of the runs, not reached, and the median below / between / from the interactivity
    bands (with each band's run count); narrow enough for a 900 px frame. None without a check."""
    f = check.get(summary_key(best))
    if not f or f["all"]["median_ratio"] is None:
        return None
    budget = check.get(summary_key(True, budget=True)) if best else None
    low, high = f"{f['low_below_tok_s_per_user']:g}", f"{f['high_from_tok_s_per_user']:g}"

    def x(v: float | None) -> str:
        return "—" if v is None else f"{v:.2f}×"

    def column(b: Mapping, levels: Mapping) -> list[str]:
        return [
            x(b["median_ratio"]),
            "—" if b["p10_ratio"] is None else f"{b['p10_ratio']:.2f}–{b['p90_ratio']:.2f}×",
            tr("fr_check_of", n=b["within"], runs=b["runs"]),
            str(b["unreached"]),
            *(f"{x(levels[k]['median_ratio'])} ({levels[k]['runs']})" if levels[k]["runs"] else "—"
              for k in ("low", "mid", "high")),
        ]  # fmt: skip

    rows = [tr(f"fr_check_row_{k}", low=low, high=high) for k in ("median", "range", "within", "unreached", "low",
                                                                  "mid", "high")]  # fmt: skip
    columns = {tr("fr_check_col_reading"): rows, tr("fr_check_col_own"): column(f["all"], f)}
    if budget:
        columns[tr("fr_check_col_budget", gpus=budget["max_gpus"])] = column(budget["all"], budget)
        for hid, name in chips.items():
            if (c := budget.get("by_chip", {}).get(hid)) is not None:
                columns[name] = column(c["all"], c)
    return pd.DataFrame(columns)


def transfer_caption(
    note: Mapping | None, model_names: Mapping[str, str], model_name: str, tr: Translator = EN
) -> str | None:
    """For a model the serving fit has not seen (frontier_check.transfer_note): no measured range, and what its own
    published runs say (the transfer check); None for a fitted model."""
    if note is None:
        return None
    parts = [tr("fr_transfer_none", model=model_name, fitted=_names(note["fitted_models"], model_names, tr))]
    if (f := note["frontier"]) and f["median_ratio"] is not None:
        parts.append(tr("fr_transfer_frontier", runs=f["runs"], median=f"{f['median_ratio']:.2f}", within=f["within"]))
    if s := note["single_node"]:
        parts.append(tr("fr_transfer_single", runs=s["runs"], tpot=f"{s['median_tpot_ratio']:.2f}"))
    if len(parts) > 1:
        parts.append(tr("fr_transfer_tail"))
    return tr.sentences(parts)


def transfer_check_caption(check: Mapping, model_names: Mapping[str, str], tr: Translator = EN) -> str | None:
    """Under the measurements' check: every run it shows is the fitted model's; what the transfer check found on the
    runs of the models the fit has not seen (data/disaggregated_check.json ``transfer``); None without one."""
    t = check.get("transfer")
    if not t:
        return None
    items = []
    for m in sorted({*t["single_node"], *t["frontier_by_model"]}):
        s, f = t["single_node"].get(m), t["frontier_by_model"].get(m)
        said = []
        if s:
            said.append(tr("fr_transfer_check_single", runs=s["runs"], tpot=f"{s['median_tpot_ratio']:.2f}"))
        if f and f["median_ratio"] is not None:
            said.append(tr("fr_transfer_check_frontier", runs=f["runs"], median=f"{f['median_ratio']:.2f}"))
        items.append(tr("fr_transfer_check_item", model=model_names.get(m, m), said=tr.join(said)))
    return tr("fr_transfer_check", fitted=_checked_models(check, model_names, tr), items=tr.join(items, "clause_sep"))


def transfer_tpot_metric(check: Mapping, model_names: Mapping[str, str], tr: Translator = EN) -> tuple[str, str] | None:
    """(value, help) of the TPOT error on single-node runs of the models the fit has not seen (the transfer check's):
    the median |error| per model, as one figure or the range over the models ('7.8%–50.2%'), the help naming each
    with its runs; None without such runs."""
    per_model = (check.get("transfer") or {}).get("single_node") or {}
    got = sorted(((s["median_abs_tpot_error"], m, s["runs"]) for m, s in per_model.items() if s.get("runs")))
    if not got:
        return None
    lo, hi = fmt.pct(got[0][0]), fmt.pct(got[-1][0])
    items = tr.join(
        [tr("fr_m_transfer_item", model=model_names.get(m, m), error=fmt.pct(e), runs=n) for e, m, n in got]
    )
    return (lo if lo == hi else f"{lo}–{hi}"), tr("fr_m_transfer_def", items=items)


def winner_reasons(curves: Sequence[RackCurve], memory_reason) -> list[tuple[float, RackCurve, RackCurve, str, object]]:
    """(target, winner, other, kind, candidate) where the chip with the most tokens/s per GPU at a RATIO_AT target
    beats another partly because its layout does not fit (or holds fewer sequences) on the other chip's memory."""
    out = []
    for x in RATIO_AT:
        live = [(c, c.deployment_at(x)) for c in curves if not c.projection]
        live = [(c, d) for c, d in live if d is not None]
        if not live:
            continue
        win, wd = max(live, key=lambda cd: cd[1].tokens_per_s_per_gpu)
        for c in curves:
            if c is win or c.projection:
                continue
            d = c.deployment_at(x, feasible=False)
            if d is None:
                continue
            why = memory_reason(wd, d)
            if why is not None:
                out.append((x, win, c, why[0], why[1]))
    return out
