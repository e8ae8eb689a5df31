"""Demand to capacity: the fleet that serves a token demand at a latency target, per chip. USD, W, tokens, seconds.

For each chip: the planner's best layout at the TPOT target (planner.cheapest over the GPU counts of one scale-up domain: the most
output tokens/s per GPU), then GPUs = replicas x GPUs per replica, the fewest replicas whose rate, derated by the
utilisation, covers the peak demand (average x peak-to-average): one replica fewer would not. With input tokens the
layout is the one a server runs: continuous batching, each request's prompt prefilled in the decode steps, the TPOT
target met with those chunks in the steps (the Serving planner's "counted as a server runs it" row), each request
with the scenario's output tokens and the prompt that gives the demand's input per output token (Fleet.prompt_tokens:
the scenario's context where the two agree; where they did not, the layout, batch and limit of the scenario's prompts
had been shown beside a rate corrected for the demand's)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from .catalog import Hardware, ModelSpec
from .economics import HOURS_PER_YEAR, YEAR_S, owning_basis, price_for, priced_for, tco_preset
from .estimate import Estimate, estimate
from .planner import DOMAIN, cheapest, domain_gpu_options
from .profiles import EfficiencyProfile
from .roofline import scale_up_domain_gpus
from .scenario import Scenario

# servers and racks up to this many GPUs come whole (an HGX server, an NVL72 rack, a Trn3 UltraServer of 144): a fleet
# says how many hold its replicas and how many of their GPUs none uses (Fleet.domains, idle_gpus; its GPUs, MW and $
# count the replicas' GPUs, as a cloud rents them); TPU pods (256 and up) are rented in slices of a replica's size
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
    batch: int
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

    @property
    def fastest_missed_s(self) -> float:
        """The fastest batch 1 comes on the target it misses: its TTFT where the TTFT target binds, else its TPOT."""
        return self.fastest_ttft_s if self.slo_binding == "ttft" else self.fastest_tpot_s

    @property
    def domains(self) -> int:
        """Whole servers or racks (scale-up domains) that hold the replicas, as many per domain as fit whole; 0 when
        the chip is rented in slices (domain_gpus 0) or has no fleet."""
        if not (self.feasible and self.domain_gpus):
            return 0
        return math.ceil(self.replicas / max(self.domain_gpus // self.gpus_per_replica, 1))

    @property
    def rented_in_slices(self) -> bool:
        """A fleet on a chip whose scale-up domain is larger than MAX_PACKED_DOMAIN_GPUS (a TPU pod of 256 chips and
        up): rented in slices of a replica's size, so no whole servers or racks hold it and none of theirs idle."""
        return self.feasible and not self.domain_gpus

    @property
    def idle_gpus(self) -> int:
        """GPUs of those whole domains that no replica uses (a 32-GPU replica leaves 8 of an NVL72 rack's 72); the
        fleet's GPUs, MW and $ count the replicas' GPUs only, as a cloud rents them."""
        return self.domains * self.domain_gpus - self.gpus if self.domains else 0

    @property
    def megawatts(self) -> float:
        """All-in MW: GPUs x all-in W per GPU."""
        return self.gpus * self.all_in_w_per_gpu / 1e6

    @property
    def capex_usd(self) -> float:
        return self.gpus * self.capex_usd_per_gpu

    @property
    def opex_usd_per_year(self) -> float:
        """The fleet at its $/GPU-hour for every hour of the year (it is there whether busy or not)."""
        return self.gpus * self.usd_per_gpu_hour * HOURS_PER_YEAR

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
) -> Fleet:
    """The fleet of one chip for a demand at a TPOT target (scenario: context and output per request, formats,
    price basis; its batch and GPU count are chosen here, the count within the chip's scale-up domain: 8 on an HGX
    server, up to 72 on an NVL72 rack)."""
    prompt = prompt_tokens(scenario, demand)
    sized = replace(scenario, context_tokens=prompt) if prompt else scenario  # no input: decode at the scenario's KV
    # the count whose replicas serve the demand on the fewest GPUs (a small demand: one small replica)
    need = demand.peak_output_tokens_per_s / demand.utilisation
    static = cheapest(model, hw, sized, profile, tpot_target_s, ttft_target_s, DOMAIN, output_tokens_per_s=need)
    served = replace(sized, batching="continuous")
    point = (
        cheapest(model, hw, served, profile, tpot_target_s, ttft_target_s, DOMAIN, output_tokens_per_s=need)
        if prompt
        else static
    )
    price = price_for(hw, scenario)
    tier = hw.prices.price(owning_basis(scenario.price_basis))  # as Economics' TCO section solves it
    capex = (
        tco_preset(tier.usd_per_gpu_hour, hw.prices.all_in_w, hw.tdp_w).capex_usd
        if tier is not None and math.isfinite(hw.prices.all_in_w)
        else math.nan
    )
    domain = scale_up_domain_gpus(hw)
    common = dict(
        hardware=hw.id,
        domain_gpus=domain if domain <= MAX_PACKED_DOMAIN_GPUS else 0,
        all_in_w_per_gpu=hw.prices.all_in_w,
        usd_per_gpu_hour=price.usd_per_gpu_hour,
        price_basis=price.basis,
        price_as_of=price.as_of,
        capex_usd_per_gpu=capex,
        limited_by=point.limited_by if point.feasible or point.limited_by != "memory" else "no_fit",
        prompt_tokens=float(prompt),
    )
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
    replicas = max(1, math.ceil(demand.peak_output_tokens_per_s / (rate * n * demand.utilisation) - 1e-12))
    return Fleet(feasible=True, gpus_per_replica=n, batch=point.batch, replicas=replicas, gpus=replicas * n,
                 decode_tokens_per_s_per_gpu=decode, output_tokens_per_s_per_gpu=rate, **common)  # fmt: skip


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
) -> list[Fleet]:
    """`fleet` for each candidate chip, side by side; a $/GPU-hour of one's own prices the chip `price_applies_to`
    alone (economics.priced_for)."""
    return [fleet(model, hw, priced_for(hw, scenario, price_applies_to), profile, demand, tpot_target_s, ttft_target_s)
            for hw in hardware]  # fmt: skip


def widest_no_fit(model, hw: Hardware, scenario: Scenario, profile, f: Fleet) -> Estimate | None:
    """For a fleet no layout of whose scale-up domain holds the model (limited_by 'no_fit'): one request (batch 1, the
    demand's prompt) on the domain's widest GPU count, whose precision_that_fits / lower_precision names the formats
    that would hold it; None for any other fleet."""
    if f.limited_by != "no_fit":
        return None
    n = max(domain_gpu_options(hw, model, scenario.parallelism))
    sized = replace(scenario, context_tokens=f.prompt_tokens or scenario.context_tokens, num_gpus=n, batch=1)
    return estimate(model, hw, sized, profile)
