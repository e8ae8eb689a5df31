"""Demand to capacity: the fleet that serves a token demand at a latency target, per chip. USD, W, tokens, seconds.

For each chip: the planner's best layout at the TPOT target (planner.cheapest over the GPU counts of one scale-up domain: the most
output tokens/s per GPU), then GPUs = replicas x GPUs per replica, the fewest replicas whose rate, derated by the
utilisation, covers the peak demand (average x peak-to-average): one replica fewer would not. With input tokens the
layout is the one a server runs: continuous batching, each request's prompt prefilled in the decode steps, the TPOT
target met with those chunks in the steps (the Serving planner's "counted as a server runs it" row), each request
with the scenario's output tokens and the prompt that gives the demand's input per output token (Fleet.prompt_tokens:
the scenario's context where the two agree; where they did not, the layout, batch and limit of the scenario's prompts
had been shown beside a rate corrected for the demand's).

With a GPU budget (``max_gpus``), the layout is the layout search's instead (layouts.best_deployment: aggregated,
expert-parallel and disaggregated prefill / decode pools across domains, under the engines fitted on the chip's
vendor and the measured pool correction: the Serving frontier's rack-scale view and `frontier --max-gpus`), at each
budget of layouts.gpu_options up to it; a replica is the chosen deployment's smallest unit (Deployment.unit), and the
budget whose replicas serve the demand on the fewest GPUs wins (then the most tokens/s per GPU)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from .catalog import Hardware, ModelSpec
from .economics import HOURS_PER_YEAR, YEAR_S, owning_basis, price_for, priced_for, tco_preset
from .estimate import Estimate, estimate
from .layouts import (
    Deployment,
    LayoutTables,
    best_engines,
    budget_no_fit,
    choose,
    engine_tables,
    gpu_options,
    pack_domains,
    within_budget,
)
from .planner import DOMAIN, cheapest, domain_gpu_options
from .profiles import EfficiencyProfile
from .roofline import scale_up_domain_gpus
from .scenario import Scenario

# servers and racks up to this many GPUs come whole (an HGX server, an NVL72 rack, a Trn3 UltraServer of 144): a fleet
# says how many hold its replicas and how many of their GPUs none uses (Fleet.domains, idle_gpus; its GPUs, MW and $
# count the replicas' GPUs, as a cloud rents them, or the whole domains' as bought: Fleet.whole_domains); TPU pods
# (256 and up) are rented in slices of a replica's size
MAX_PACKED_DOMAIN_GPUS = 144
DAY_S = 86400.0


@dataclass(frozen=True)
class Demand:
    """Tokens per day (average), the peak-to-average ratio and the fraction of a GPU's rate a fleet sustains."""

    output_tokens_per_day: float
    input_tokens_per_day: float = 0.0
    peak_to_average: float = 1.0
    utilisation: float = 1.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.output_tokens_per_day) and self.output_tokens_per_day > 0):
            raise ValueError(f"output tokens per day must be > 0, got {self.output_tokens_per_day!r}")
        if not (math.isfinite(self.input_tokens_per_day) and self.input_tokens_per_day >= 0):
            raise ValueError(f"input tokens per day must be >= 0, got {self.input_tokens_per_day!r}")
        if not (math.isfinite(self.peak_to_average) and self.peak_to_average >= 1):
            raise ValueError(f"peak-to-average must be >= 1, got {self.peak_to_average!r}")
        if not (math.isfinite(self.utilisation) and 0 < self.utilisation <= 1):
            raise ValueError(f"utilisation must be in (0, 1], got {self.utilisation!r}")

    @classmethod
    def from_requests(
        cls,
        requests_per_day: float,
        input_tokens_per_request: float,
        output_tokens_per_request: float,
        peak_to_average: float = 1.0,
        utilisation: float = 1.0,
    ) -> Demand:
        """Demand given as requests per day with their lengths: tokens per day = requests x tokens per request."""
        if not (math.isfinite(requests_per_day) and requests_per_day > 0):
            raise ValueError(f"requests per day must be > 0, got {requests_per_day!r}")
        return cls(
            requests_per_day * output_tokens_per_request,
            requests_per_day * input_tokens_per_request,
            peak_to_average,
            utilisation,
        )

    @property
    def peak_output_tokens_per_s(self) -> float:
        return self.output_tokens_per_day / DAY_S * self.peak_to_average


@dataclass(frozen=True)
class Fleet:
    """One chip's fleet for a demand. Numbers are nan (gpus 0) when no layout meets the target and fits."""

    hardware: str
    feasible: bool
    gpus_per_replica: int
    batch: int  # sequences decoding per instance: the TP replica's one, or each decode instance of the search's replica
    replicas: int
    gpus: int
    decode_tokens_per_s_per_gpu: float  # the frontier's rate at the target (decode only)
    output_tokens_per_s_per_gpu: float  # with the prefill of the input tokens: what sizes the fleet
    all_in_w_per_gpu: float
    usd_per_gpu_hour: float
    price_basis: str
    price_as_of: str
    capex_usd_per_gpu: float  # implied by the chip's TCO price (economics.owning_basis) at the default financing
    limited_by: str  # the frontier's: slo | memory | compute | batch_limit; no_fit: no layout holds the model
    prompt_tokens: float  # each request's prompt as sized: the demand's input per output x the scenario's output
    domain_gpus: int = 0  # the server or rack its replicas are packed into (HGX 8, NVL72 72), 0: rented in slices
    # where no layout meets the targets but one holds the model (limited_by 'slo'): the fastest it comes, batch 1 on
    # the GPU count with the fastest TPOT, and the target it misses ('tpot' or 'ttft'); nan, 0, '' otherwise
    fastest_tpot_s: float = math.nan
    fastest_ttft_s: float = math.nan
    fastest_gpus: int = 0
    slo_binding: str = ""
    engine: str = ""  # the profile id the replica was timed under; '' without a fleet
    max_gpus: int = 0  # the layout search's GPU budget; 0: tensor-parallel replicas within one scale-up domain
    deployment: Deployment | None = None  # the layout search's replica (Deployment.unit); None for a TP replica
    # costed as bought: MW and $ count the whole servers or racks that hold the replicas (costed_gpus), and a layout
    # search's replica is the one needing the fewest of them; False: the replicas' GPUs, as a cloud rents them
    whole_domains: bool = False

    @property
    def layout(self) -> str:
        """One replica's layout: 'TP8', or the layout search's ('1 × DEP8', 'prefill 3 × DEP4 + decode 1 × DEP32');
        '' without a fleet."""
        if not self.feasible:
            return ""
        return self.deployment.label if self.deployment is not None else f"TP{self.gpus_per_replica}"

    @property
    def serving(self) -> str:
        """'aggregated' or 'disaggregated' (prefill and decode pools); '' without a fleet."""
        if not self.feasible:
            return ""
        return self.deployment.serving if self.deployment is not None else "aggregated"

    @property
    def fastest_missed_s(self) -> float:
        """The fastest batch 1 comes on the target it misses: its TTFT where the TTFT target binds, else its TPOT."""
        return self.fastest_ttft_s if self.slo_binding == "ttft" else self.fastest_tpot_s

    @property
    def domains(self) -> int:
        """Whole servers or racks (scale-up domains) that hold the replicas (layouts.pack_domains of their instances,
        replica_instances); 0 when the chip is rented in slices (domain_gpus 0) or has no fleet."""
        if not (self.feasible and self.domain_gpus):
            return 0
        instances = replica_instances(self.deployment, self.gpus_per_replica, self.replicas, self.domain_gpus)
        return pack_domains(instances, self.domain_gpus)

    @property
    def rented_in_slices(self) -> bool:
        """A fleet on a chip whose scale-up domain is larger than MAX_PACKED_DOMAIN_GPUS (a TPU pod of 256 chips and
        up): rented in slices of a replica's size, so no whole servers or racks hold it and none of theirs idle."""
        return self.feasible and not self.domain_gpus

    @property
    def idle_gpus(self) -> int:
        """GPUs of those whole domains that no replica uses (a 32-GPU replica leaves 8 of an NVL72 rack's 72); the
        fleet's MW and $ count them only when costed as bought (whole_domains)."""
        return self.domains * self.domain_gpus - self.gpus if self.domains else 0

    @property
    def costed_gpus(self) -> int:
        """The GPUs MW and $ count: the whole servers' or racks' (whole_domains, a chip packed in them), else the
        replicas' (as a cloud rents them; a TPU pod's slices)."""
        return self.domains * self.domain_gpus if self.whole_domains and self.domains else self.gpus

    @property
    def megawatts(self) -> float:
        """All-in MW: costed GPUs x all-in W per GPU."""
        return self.costed_gpus * self.all_in_w_per_gpu / 1e6

    @property
    def capex_usd(self) -> float:
        return self.costed_gpus * self.capex_usd_per_gpu

    @property
    def opex_usd_per_year(self) -> float:
        """The costed GPUs at their $/GPU-hour for every hour of the year (there whether busy or not)."""
        return self.costed_gpus * self.usd_per_gpu_hour * HOURS_PER_YEAR

    def usd_per_1M_output_tokens(self, demand: Demand) -> float:
        """The fleet's cost per 1M output tokens actually served: opex per year / output tokens per year."""
        return self.opex_usd_per_year / (demand.output_tokens_per_day / DAY_S * YEAR_S) * 1e6


def fleet(
    model: ModelSpec,
    hw: Hardware,
    scenario: Scenario,
    profile: EfficiencyProfile,
    demand: Demand,
    tpot_target_s: float,
    ttft_target_s: float | None = None,
    max_gpus: int | None = None,
    whole_domains: bool = False,
) -> Fleet:
    """The fleet of one chip for a demand at a TPOT target (scenario: context and output per request, formats,
    price basis; its batch and GPU count are chosen here, the count within the chip's scale-up domain: 8 on an HGX
    server, up to 72 on an NVL72 rack). With `max_gpus`, replicas of the layout search's deployment within that
    budget instead (searched_fleet; `profile` None: the engines fitted on the chip's vendor). `whole_domains`: costed
    as bought, whole servers or racks (Fleet.costed_gpus)."""
    prompt = prompt_tokens(scenario, demand)
    sized = replace(scenario, context_tokens=prompt) if prompt else scenario  # no input: decode at the scenario's KV
    if max_gpus is not None:
        return searched_fleet(model, hw, sized, profile, demand, tpot_target_s, ttft_target_s, max_gpus, whole_domains)
    # the count whose replicas serve the demand on the fewest GPUs (a small demand: one small replica)
    need = demand.peak_output_tokens_per_s / demand.utilisation
    static = cheapest(model, hw, sized, profile, tpot_target_s, ttft_target_s, DOMAIN, output_tokens_per_s=need)
    served = replace(sized, batching="continuous")
    point = (
        cheapest(model, hw, served, profile, tpot_target_s, ttft_target_s, DOMAIN, output_tokens_per_s=need)
        if prompt
        else static
    )
    common = _chip_fields(hw, scenario, prompt) | dict(
        limited_by=point.limited_by if point.feasible or point.limited_by != "memory" else "no_fit",
        engine=profile.id, whole_domains=whole_domains,
    )  # fmt: skip
    if not point.feasible:
        nan = math.nan
        near = {} if point.limited_by != "slo" else dict(
            fastest_tpot_s=point.batch1_tpot_s, fastest_ttft_s=point.batch1_ttft_s, fastest_gpus=point.num_gpus,
            slo_binding=point.slo_binding)  # fmt: skip
        return Fleet(feasible=False, gpus_per_replica=0, batch=0, replicas=0, gpus=0, decode_tokens_per_s_per_gpu=nan,
                     output_tokens_per_s_per_gpu=nan, **common, **near)  # fmt: skip
    n = point.num_gpus
    decode = static.tokens_per_s_per_gpu if static.feasible else math.nan
    rate = point.tokens_per_s_per_gpu
    replicas = replicas_for(demand, rate, n)
    return Fleet(feasible=True, gpus_per_replica=n, batch=point.batch, replicas=replicas, gpus=replicas * n,
                 decode_tokens_per_s_per_gpu=decode, output_tokens_per_s_per_gpu=rate, **common)  # fmt: skip


def _chip_fields(hw: Hardware, scenario: Scenario, prompt: int) -> dict:
    """A fleet's fields of the chip and its price: price and basis, all-in W, capex per GPU, the domain it packs."""
    price = price_for(hw, scenario)
    tier = hw.prices.price(owning_basis(scenario.price_basis))  # as Economics' TCO section solves it
    capex = (
        tco_preset(tier.usd_per_gpu_hour, hw.prices.all_in_w, hw.tdp_w).capex_usd
        if tier is not None and math.isfinite(hw.prices.all_in_w)
        else math.nan
    )
    domain = scale_up_domain_gpus(hw)
    return dict(
        hardware=hw.id,
        domain_gpus=domain if domain <= MAX_PACKED_DOMAIN_GPUS else 0,
        all_in_w_per_gpu=hw.prices.all_in_w,
        usd_per_gpu_hour=price.usd_per_gpu_hour,
        price_basis=price.basis,
        price_as_of=price.as_of,
        capex_usd_per_gpu=capex,
        prompt_tokens=float(prompt),
    )


def searched_fleet(
    model: ModelSpec,
    hw: Hardware,
    sized: Scenario,
    profile,
    demand: Demand,
    tpot_target_s: float,
    ttft_target_s: float | None,
    max_gpus: int,
    whole_domains: bool = False,
) -> Fleet:
    """The fleet of replicas of the layout search's deployment (layouts.choose, continuous batching; `sized`: the
    scenario with the demand's prompt; the tables built once, for max_gpus, and cut for each smaller budget:
    layouts.within_budget), at the budget (search_budgets: the instance sizes up to max_gpus and
    max_gpus itself) whose replicas (each the deployment's unit) serve the demand on the fewest GPUs, then with the
    most tokens/s per GPU (whole_domains: on the fewest GPUs of whole servers or racks, then the fewest GPUs; a
    GB200 replica of 52 GPUs leaves 20 of each rack idle); `profile` None: the engines fitted on the chip's vendor (best_engines), as the rack-scale
    view. Where no layout meets the targets but one fits: the fastest TPOT within max_gpus, or where that meets the
    TPOT target, the fastest TTFT any layout meeting it reaches (fastest_ttft_s)."""
    engines = best_engines(hw) if profile is None else profile
    served = replace(sized, batching="continuous")
    widest = engine_tables(model, hw, served, engines, max_gpus=max_gpus)  # each budget's are cut from these
    tables = lambda budget: within_budget(widest, budget) if isinstance(widest, LayoutTables) else tuple(  # noqa: E731
        within_budget(t, budget) for t in widest)  # fmt: skip
    common = _chip_fields(hw, sized, int(sized.context_tokens)) | dict(max_gpus=int(max_gpus),
                                                                      whole_domains=whole_domains)  # fmt: skip
    domain = common["domain_gpus"] if whole_domains else 0
    best: tuple[tuple[int, int, float], Deployment] | None = None
    for budget in search_budgets(hw, max_gpus):
        d = choose(tables(budget), tpot_target_s, ttft_target_s, whole_domains=domain)
        if not d.feasible:
            continue
        unit = d.unit
        replicas = replicas_for(demand, unit.output_tokens_per_s_per_gpu, unit.gpus_used)
        gpus = unit.gpus_used * replicas
        costed = (
            pack_domains(replica_instances(unit, unit.gpus_used, replicas, domain), domain) * domain if domain else gpus
        )
        key = (costed, gpus, -unit.output_tokens_per_s_per_gpu)
        if best is None or key < best[0]:
            best = (key, unit)
    last = d  # the widest budget's answer (max_gpus is the last budget tried)
    # every request's prompt is prefilled by the deployment (a demand without input: the scenario's context)
    if best is None:  # the widest budget's answer: nothing fits ('memory') or nothing meets the target ('slo')
        nan = math.nan
        why = "no_fit" if last.limited_by == "memory" else last.limited_by
        # the fastest TPOT a layout that fits reaches; at or below the target, the TTFT target is what none meets
        ttft_binds = ttft_target_s is not None and last.fastest_tpot_s <= tpot_target_s
        binding = "" if why != "slo" else "ttft" if ttft_binds else "tpot"
        fastest_ttft = fastest_ttft_s(widest, tpot_target_s) if ttft_binds else nan
        return Fleet(feasible=False, gpus_per_replica=0, batch=0, replicas=0, gpus=0, decode_tokens_per_s_per_gpu=nan,
                     output_tokens_per_s_per_gpu=nan, limited_by=why,
                     fastest_tpot_s=last.fastest_tpot_s if binding == "tpot" else nan, fastest_ttft_s=fastest_ttft,
                     slo_binding=binding, **common)  # fmt: skip
    (_, gpus, _), d = best
    return Fleet(feasible=True, gpus_per_replica=d.gpus_used, batch=d.decode.batch, replicas=gpus // d.gpus_used,
                 gpus=gpus, decode_tokens_per_s_per_gpu=math.nan,
                 output_tokens_per_s_per_gpu=d.output_tokens_per_s_per_gpu, limited_by=d.limited_by, engine=d.engine,
                 deployment=d, **common)  # fmt: skip


def search_budgets(hw: Hardware, max_gpus: int) -> list[int]:
    """The budgets a layout search's fleet tries: the instance sizes of layouts.gpu_options up to max_gpus (powers of
    two, the server's or rack's size) and max_gpus itself (72 on an 8-GPU server's chip is no instance size, and the
    wide-EP decode pool it allows had been missed: H200's DeepSeek-R1 fleet had taken 3x the GPUs)."""
    return sorted({*gpu_options(hw, max_gpus), int(max_gpus)})


def fastest_ttft_s(tables, tpot_target_s: float) -> float:
    """The lowest TTFT target (s) some layout of `tables` (layouts.engine_tables: one engine's or several) meets
    together with the TPOT target (layouts.choose, bisected to 0.1 %); nan where none meets the TPOT target."""
    lo, hi = 1e-4, 1e5
    if not choose(tables, tpot_target_s, hi).feasible:
        return math.nan
    while hi / lo > 1.001:
        mid = math.sqrt(lo * hi)
        lo, hi = (lo, mid) if choose(tables, tpot_target_s, mid).feasible else (mid, hi)
    return hi


def replica_instances(
    unit: Deployment | None, gpus_per_replica: int, replicas: int, domain_gpus: int
) -> dict[int, int]:
    """The instances `replicas` replicas run, GPUs per instance -> how many, as they are packed into domains
    (layouts.pack_domains): a tensor-parallel replica or a unit within one domain whole (its KV cache moves inside
    it), a wider unit's prefill and decode instances each (they share domains with the next replica's)."""
    if unit is None or unit.gpus_used <= domain_gpus:
        return {gpus_per_replica: replicas}
    out: dict[int, int] = {}
    for pool in (unit.decode, unit.prefill):
        if pool is not None:
            out[pool.gpus_each] = out.get(pool.gpus_each, 0) + pool.instances * replicas
    return out


def replicas_for(demand: Demand, output_tokens_per_s_per_gpu: float, gpus_per_replica: int) -> int:
    """The fewest whole replicas (at least one) whose output tokens/s x utilisation cover the demand's peak."""
    rate = output_tokens_per_s_per_gpu * gpus_per_replica * demand.utilisation
    return max(1, math.ceil(demand.peak_output_tokens_per_s / rate - 1e-12))


def prompt_tokens(scenario: Scenario, demand: Demand) -> int:
    """Each request's prompt that gives the demand's input per output token at the scenario's output tokens (the
    scenario's own context where the two agree); 0 for a demand without input."""
    return round(demand.input_tokens_per_day / demand.output_tokens_per_day * float(scenario.output_tokens))


def fleets(
    model,
    hardware: list[Hardware],
    scenario,
    profile,
    demand,
    tpot_target_s,
    ttft_target_s=None,
    price_applies_to: str | None = None,
    max_gpus: int | None = None,
    whole_domains: bool = False,
) -> list[Fleet]:
    """`fleet` for each candidate chip, side by side; a $/GPU-hour of one's own prices the chip `price_applies_to`
    alone (economics.priced_for); `max_gpus`: the layout search's budget (then `profile` None: each chip's engines);
    `whole_domains`: costed as bought, whole servers or racks."""
    return [fleet(model, hw, priced_for(hw, scenario, price_applies_to), profile, demand, tpot_target_s, ttft_target_s,
                  max_gpus, whole_domains) for hw in hardware]  # fmt: skip


def widest_no_fit(model, hw: Hardware, scenario: Scenario, profile, f: Fleet) -> Estimate | None:
    """For a fleet no layout of whose scale-up domain holds the model (limited_by 'no_fit'): one request (batch 1, the
    demand's prompt) on the domain's widest GPU count, whose precision_that_fits / lower_precision names the formats
    that would hold it (a layout search's fleet: the widest instance within its budget, layouts.budget_no_fit, under
    `profile` or, None, the chip's engines); None for any other fleet."""
    if f.limited_by != "no_fit":
        return None
    sized = replace(scenario, context_tokens=f.prompt_tokens or scenario.context_tokens)
    if f.max_gpus:
        return budget_no_fit(model, hw, sized, best_engines(hw) if profile is None else profile, f.max_gpus)
    n = max(domain_gpu_options(hw, model, scenario.parallelism))
    return estimate(model, hw, replace(sized, num_gpus=n, batch=1), profile)
