"""Prices by basis (data/prices.yaml), TCO from parts, token revenue, and demand to capacity (fleet.py, `capacity`):
hand-worked numbers and the invariants that tie them to `estimate` and `frontier`."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest

from tpot_model import Scenario, cli, estimate, planner, resolve_hardware, resolve_model, resolve_profile
from tpot_model.economics import (
    HOURS_PER_YEAR,
    ApiPrice,
    TcoParts,
    capital_recovery_factor,
    priced_bases,
    revenue,
    tco,
    tco_preset,
)
from tpot_model.fleet import DAY_S, Demand, fleet, fleets
from tpot_model.prices import BASES, load_prices
from tpot_model.units import ms
from ui.i18n import EN

PRICED = ("h100-sxm", "h200", "b200", "b300", "gb200", "gb300", "mi300x", "mi325x", "mi355x", "tpu7x")
UNPRICED = ("trainium2", "gaudi3")  # no public hyperscaler or neocloud figure found (see data/prices.yaml)


def _estimate_json(capsys, *args: str) -> dict:
    assert cli.main(["estimate", "--model", "llama-3.1-8b", "--batch", "8", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("basis", ["hyperscaler", "neocloud"])
@pytest.mark.parametrize("hw", PRICED)
def test_estimate_prices_every_chip_under_tco_bases(capsys, hw, basis):
    r = _estimate_json(capsys, "--hardware", hw, "--price-basis", basis)
    p = resolve_hardware(hw).prices.price(basis)
    assert r["price_basis"] == basis and r["price_as_of"] == p.as_of and p.source
    assert r["usd_per_1M_tokens"] == pytest.approx(p.usd_per_gpu_hour * 1e6 / (r["tokens_per_s_per_gpu"] * 3600))


@pytest.mark.parametrize("hw", UNPRICED)
def test_no_public_price_says_so(capsys, hw):
    r = _estimate_json(capsys, "--hardware", hw, "--price-basis", "hyperscaler")
    assert r["usd_per_1M_tokens"] is None and r["price_basis"] == "hyperscaler"
    assert cli.main(["estimate", "--model", "llama-3.1-8b", "--hardware", hw, "--price-basis", "hyperscaler"]) == 0
    assert f"no public hyperscaler price for {hw}" in capsys.readouterr().out


def test_priced_bases_names_the_bases_that_price_a_chip(tmp_path):
    """The one owner of which bases price a chip: Rubin, MI455X, TPU 8i and Trainium3 have no entry in prices.yaml
    (none); B300 has every basis but on-demand; a user's file's own price is its on-demand one."""
    for hw in ("vr200", "mi455x", "tpu-8i", "trainium3"):
        assert priced_bases(resolve_hardware(hw)) == (), hw
    b300 = resolve_hardware("b300")
    assert priced_bases(b300) == ("neocloud", "hyperscaler", "rental_3yr")
    assert priced_bases(b300, besides="hyperscaler") == ("neocloud", "rental_3yr")
    assert priced_bases(resolve_hardware("h200"), besides="on_demand") == ("neocloud", "hyperscaler", "rental_3yr")
    own = replace(resolve_hardware("vr200"), price_usd_per_hour=3.5)
    assert priced_bases(own) == ("on_demand",) and priced_bases(own, besides="on_demand") == ()


@pytest.mark.parametrize(
    ("hw", "said", "not_said"),
    [
        ("vr200", "no published price for vr200 in any basis: pass --price USD_PER_GPU_HOUR", "--price-basis"),
        ("b300", "--price-basis neocloud, hyperscaler or rental_3yr", "on_demand,"),
        ("mi355x", "--price-basis neocloud, hyperscaler or rental_3yr", "on_demand,"),
    ],
)
def test_estimate_without_a_price_names_only_the_bases_that_price_the_chip(capsys, hw, said, not_said):
    """`estimate --hardware vr200` had said 'pass --price ... or another --price-basis of on_demand, neocloud,
    hyperscaler, rental_3yr', the basis that had just failed among them, where no basis prices Rubin."""
    assert cli.main(["estimate", "--model", "llama-3.1-8b", "--hardware", hw]) == 0
    (line,) = [x for x in capsys.readouterr().out.splitlines() if "$ per 1M output tokens" in x]
    assert said in line and not_said not in line, line
    r = _estimate_json(capsys, "--hardware", hw)
    assert r["priced_bases"] == list(priced_bases(resolve_hardware(hw))) and said in r["price_note"]
    assert _estimate_json(capsys, "--hardware", "h200")["price_note"] is None


def test_frontier_and_capacity_say_why_a_chip_has_no_price(capsys):
    """The layout and batch searches' '$ per 1M' and capacity's '-' say which bases price the chip, or that none
    does (cli_text.no_price_note, estimate's words)."""
    base = ["--model", "llama-3.1-8b", "--weights", "fp8", "--tpot-target-ms", "50"]
    assert cli.main(["frontier", *base, "--hardware", "vr200", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["usd_per_1M_tokens"] is None and "vr200 in any basis" in d["price_note"]
    assert cli.main(["frontier", *base, "--hardware", "vr200"]) == 0
    assert "usd_per_1M_tokens      n/a (no published price for vr200 in any basis" in capsys.readouterr().out
    demand = ["--output-tokens-per-day", "1e10"]
    assert cli.main(["capacity", *base, "--hardware", "h200,vr200,b300", *demand]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "vr200: no published price for vr200 in any basis: pass --price USD_PER_GPU_HOUR (your own)" in out
    assert [x for x in out if x.startswith("b300: no public on_demand price")] == [
        "b300: no public on_demand price for b300; pass --price USD_PER_GPU_HOUR (your own) or --price-basis "
        "neocloud, hyperscaler or rental_3yr"
    ]
    assert not [x for x in out if x.startswith("h200: no")]


@pytest.mark.parametrize(
    ("hw", "usd", "instance_usd", "chips"), [("trainium2", 2.235, 35.76, 16), ("gaudi3", 2.49, 19.92, 8)]
)
def test_unpriced_tco_chips_have_a_public_on_demand_price(capsys, hw, usd, instance_usd, chips):
    """Trainium2 and Gaudi 3: a cloud's published instance price / its accelerators (AWS trn2.48xlarge; Intel Tiber
    AI Cloud's 8 x Gaudi 3 bare metal), dated and sourced."""
    p = resolve_hardware(hw).prices.price("on_demand")
    assert p.usd_per_gpu_hour == pytest.approx(instance_usd / chips, abs=5e-4) == usd
    assert p.as_of and f"${instance_usd}" in p.source
    r = _estimate_json(capsys, "--hardware", hw, "--price-basis", "on_demand")
    assert r["usd_per_1M_tokens"] == pytest.approx(usd * 1e6 / (r["tokens_per_s_per_gpu"] * 3600))


def test_every_price_is_dated_and_sourced():
    for hw_id, chip in load_prices().items():
        resolve_hardware(hw_id)  # every key is a catalog chip
        for basis, p in chip.usd_per_gpu_hour.items():
            assert basis in BASES and p.as_of and p.source and p.usd_per_gpu_hour > 0


def test_price_flag_is_custom_and_custom_needs_a_price(capsys, tmp_path):
    r = _estimate_json(capsys, "--hardware", "h200", "--price", "2.0")
    assert r["price_basis"] == "custom" and r["price_usd_per_gpu_hour"] == 2.0
    assert _estimate_json(capsys, "--hardware", "h200", "--price", "2.0", "--price-basis", "custom") == r
    assert cli.main(["estimate", "--model", "llama-3.1-8b", "--hardware", "h200", "--price-basis", "custom"]) == 2
    assert "needs a price" in capsys.readouterr().err
    # a price of one's own beside another basis named: one of the two would be dropped (a review: the $2 had priced
    # the answer while it was asked for hyperscaler TCO), so every command refuses it, naming both
    frontier = ["frontier", "--tpot-target-ms", "50", "--weights", "fp8"]
    capacity = ["capacity", "--tpot-target-ms", "50", "--output-tokens-per-day", "1e10"]
    for command in (["estimate"], ["sweep", "--batch", "1:8"], frontier, [*frontier, "--max-gpus", "8"], capacity):
        argv = [*command, "--model", "llama-3.1-8b", "--hardware", "h200", "--price", "2.0", "--price-basis"]
        assert cli.main([*argv, "hyperscaler"]) == 2, command
        assert (
            "--price is a price of your own (basis custom) and 'hyperscaler' the catalog's" in capsys.readouterr().err
        )
        assert cli.main([*argv, "custom"]) == 0, command
        capsys.readouterr()
    src = tmp_path / "s.csv"
    src.write_text("model,hardware,price_usd_per_gpu_hour,price_basis\nllama-3.1-8b,h200,2.0,hyperscaler\n")
    assert cli.main(["evaluate", str(src)]) == 2
    assert capsys.readouterr().err == (
        f"error: {src} row 1, field 'price_basis': price_usd_per_gpu_hour is a price of your own (basis custom) and "
        "'hyperscaler' the catalog's: give one\n"
    )


def test_tokens_per_mw_and_all_in_energy_agree():
    e = estimate(resolve_model("llama-3.1-8b"), resolve_hardware("b200"), Scenario(batch=8), resolve_profile("typical"))
    assert float(e.tokens_per_s_per_mw) == pytest.approx(float(e.tokens_per_s_per_gpu) * 1e6 / 1710.0)
    assert float(e.joules_per_token_all_in) == pytest.approx(1e6 / float(e.tokens_per_s_per_mw))
    assert float(e.tokens_per_gw_year) == pytest.approx(float(e.tokens_per_s_per_mw) * 1e3 * 365.25 * 86400)


def test_tco_from_parts_hand_worked():
    # $40,000 per GPU over 5 years at 10 %: CRF = 0.1 / (1 - 1.1^-5) = 0.2637975; $10,551.90 a year / 8,766 h
    parts = TcoParts(capex_usd=40000, depreciation_years=5, cost_of_capital=0.10, board_w=1000, host_network_w=300,
                     pue=1.25, electricity_usd_per_kwh=0.08, utilisation=1.0)  # fmt: skip
    assert capital_recovery_factor(0.10, 5) == pytest.approx(0.2637975, rel=1e-6)
    b = tco(parts)
    assert b.capital_usd_per_gpu_hour == pytest.approx(40000 * 0.2637975 / 8766, rel=1e-6)
    assert b.energy_usd_per_gpu_hour == pytest.approx(1.625 * 0.08)  # (1000 + 300) W x 1.25 = 1.625 kW
    half = tco(TcoParts(**{**parts.__dict__, "utilisation": 0.5}))
    assert half.usd_per_gpu_hour == pytest.approx(2 * b.usd_per_gpu_hour)  # same cost over half the hours
    assert capital_recovery_factor(0.0, 4) == 0.25


def test_tco_preset_reproduces_the_published_tier():
    hw = resolve_hardware("b200")
    tier = hw.prices.price("hyperscaler").usd_per_gpu_hour
    parts = tco_preset(tier, hw.prices.all_in_w, hw.tdp_w)
    assert tco(parts).usd_per_gpu_hour == pytest.approx(tier)
    assert parts.all_in_w == pytest.approx(1710.0) and parts.board_w == hw.tdp_w


def test_revenue_hand_worked():
    # 1,000 output tokens/s, 2 input tokens per output token (half cached), $1 in, $4 out, $0.10 cached in
    api = ApiPrice(input_usd_per_1M=1.0, output_usd_per_1M=4.0, cached_input_usd_per_1M=0.1)
    r = revenue(1000.0, 2.0, api, 3.0, cached_input_fraction=0.5, all_in_w=1500.0, gpus_per_rack=72)
    per_output = 4.0 + 2.0 * (0.5 * 1.0 + 0.5 * 0.1)  # $ per 1M output tokens, input included: 5.1
    assert r.revenue_usd_per_gpu_hour == pytest.approx(1000 * 3600 * per_output / 1e6)  # 18.36
    assert r.margin_usd_per_gpu_hour == pytest.approx(18.36 - 3.0)
    assert r.gross_margin_fraction == pytest.approx(15.36 / 18.36)
    assert r.revenue_usd_per_mw_hour == pytest.approx(18.36 * 1e6 / 1500)
    assert r.revenue_usd_per_rack_hour == pytest.approx(18.36 * 72)


def test_payback_repays_the_capex_from_revenue_net_of_energy_whatever_the_price_basis():
    """An owner's payback: $50,000 of capex, 1.5 kW all-in ((1,000 + 200) W x PUE 1.25) at $0.08 per kWh, serving half
    the hours. Energy per served hour = 1.5 x 8,766 x 0.08 / (8,766 x 0.5) = $0.24; $18.36 of revenue nets $18.12 an
    hour over 8,766 x 0.5 / 12 = 365.25 served hours a month: 50,000 / (18.12 x 365.25) = 7.55 months. It had netted
    the sidebar's price (a rental price, or a TCO that already recovers the capex) and read 'Never' on H200 rented
    on demand."""
    from tpot_model.economics import TcoParts, payback_months

    parts = TcoParts(capex_usd=50000.0, board_w=1000.0, host_network_w=200.0, pue=1.25, utilisation=0.5)
    assert payback_months(18.36, parts) == pytest.approx(50000 / (18.12 * 365.25))
    assert payback_months(18.36, parts) == pytest.approx(7.555, abs=1e-3)
    assert math.isnan(payback_months(0.2, parts))  # revenue below the energy: never


MODEL, PROFILE = resolve_model("llama-3.1-70b"), resolve_profile("typical")
SCEN = Scenario(context_tokens=4096, output_tokens=1024, weights="fp8", price_basis="hyperscaler")


def test_fleet_hand_worked_and_consistent_with_frontier():
    hw = resolve_hardware("h200")
    best = planner.cheapest(MODEL, hw, SCEN, PROFILE, 50 * ms, None, planner.DOMAIN)
    n, rate = best.num_gpus, best.tokens_per_s_per_gpu
    # the frontier at that layout gives the same per-GPU rate
    same = planner.frontier(MODEL, hw, Scenario(**{**_fields(SCEN), "num_gpus": n}), PROFILE, 50 * ms)
    assert same.tokens_per_s_per_gpu == pytest.approx(rate)
    # demand of exactly 3.5 replicas at full rate: 4 replicas; at 50 % utilisation 7 replicas; peak 2x: 7
    per_day = 3.5 * n * rate * DAY_S
    for demand, replicas in (
        (Demand(per_day), 4),
        (Demand(per_day, utilisation=0.5), 7),
        (Demand(per_day, peak_to_average=2.0), 7),
    ):
        f = fleet(MODEL, hw, SCEN, PROFILE, demand, 50 * ms)
        assert f.replicas == replicas and f.gpus == replicas * n and f.gpus_per_replica == n
        assert f.output_tokens_per_s_per_gpu == pytest.approx(rate)
        served = f.gpus * f.output_tokens_per_s_per_gpu * demand.utilisation
        assert served >= demand.peak_output_tokens_per_s  # it serves the demand
        assert (f.gpus - n) * f.output_tokens_per_s_per_gpu * demand.utilisation < demand.peak_output_tokens_per_s
        assert f.megawatts == pytest.approx(f.gpus * 1370.0 / 1e6)  # MW = GPUs x all-in kW
        assert f.opex_usd_per_year == pytest.approx(f.gpus * 1.22 * HOURS_PER_YEAR)
        assert f.usd_per_1M_output_tokens(demand) == pytest.approx(
            f.opex_usd_per_year / (demand.output_tokens_per_day * 365.25) * 1e6
        )


def test_fleet_prices_ones_own_price_on_its_chip_alone_and_solves_capex_from_the_basis_tier():
    """A browser review: Economics priced every chip of its table at a $/GPU-hour of one's own entered for the
    sidebar's H200 (B200's fleet at '$3.00 · Your own'), and its capex row read the hyperscaler TCO's $36,899 per H200
    under the neocloud basis while the TCO section below started from the neocloud price's $49,194."""
    h200, b200 = resolve_hardware("h200"), resolve_hardware("b200")
    own = replace(SCEN, price_basis="custom", price_usd_per_gpu_hour=3.0)
    demand = Demand(1e9)
    mine, other = fleets(MODEL, [h200, b200], own, PROFILE, demand, 50 * ms, price_applies_to="h200")
    assert (mine.usd_per_gpu_hour, mine.price_basis) == (3.0, "custom")
    assert math.isnan(other.usd_per_gpu_hour) and other.price_basis == "custom"  # none of its own under 'custom'
    assert all(f.usd_per_gpu_hour == 3.0 for f in fleets(MODEL, [h200, b200], own, PROFILE, demand, 50 * ms))
    # capex: the owning basis's TCO price solved back (neocloud, hyperscaler), hyperscaler under any other basis
    for basis, tier in (("neocloud", "neocloud"), ("hyperscaler", "hyperscaler"), ("on_demand", "hyperscaler")):
        f = fleet(MODEL, h200, replace(SCEN, price_basis=basis), PROFILE, demand, 50 * ms)
        price = h200.prices.price(tier).usd_per_gpu_hour
        assert f.capex_usd_per_gpu == pytest.approx(tco_preset(price, h200.prices.all_in_w, h200.tdp_w).capex_usd)
    neo, hyper = (fleet(MODEL, h200, replace(SCEN, price_basis=b), PROFILE, demand, 50 * ms).capex_usd_per_gpu
                  for b in ("neocloud", "hyperscaler"))  # fmt: skip
    assert neo > hyper  # the neocloud's dearer TCO implies the dearer system


def test_fleet_input_tokens_cost_prefill_time():
    hw = resolve_hardware("h200")
    plain = fleet(MODEL, hw, SCEN, PROFILE, Demand(1e11), 50 * ms)
    with_input = fleet(MODEL, hw, SCEN, PROFILE, Demand(1e11, input_tokens_per_day=4e11), 50 * ms)
    assert with_input.output_tokens_per_s_per_gpu < plain.output_tokens_per_s_per_gpu
    assert with_input.gpus >= plain.gpus


def test_fleet_with_prompts_is_sized_as_a_server_runs_it():
    """Browser review: Economics sized H200 at 932 output tok/s per GPU (the decode-only best batch, 226, with its
    batch's prefill time added after, so its TPOT passed the 50 ms target) where the Serving planner's 'counted as a
    server runs it' row read 814 for the same case. With prompts, the fleet's layout is the continuous-batching
    frontier at the target (prompts prefilled in the decode steps, TPOT with them within 50 ms), the planner's; a
    demand with more input per output token than the scenario's requests pays the difference in prefill time."""
    hw = resolve_hardware("h200")
    same = fleet(MODEL, hw, SCEN, PROFILE, Demand(1e11, input_tokens_per_day=4e11), 50 * ms)  # 4K / 1K: 4 to 1
    served = planner.cheapest(MODEL, hw, Scenario(**{**_fields(SCEN), "batching": "continuous"}), PROFILE, 50 * ms,
                              None, planner.DOMAIN)  # fmt: skip
    assert served.tpot_s <= 50 * ms and served.feasible
    assert same.output_tokens_per_s_per_gpu == pytest.approx(served.tokens_per_s_per_gpu, rel=1e-12)
    assert (same.gpus_per_replica, same.batch) == (served.num_gpus, served.batch)
    static = planner.cheapest(MODEL, hw, SCEN, PROFILE, 50 * ms, None, planner.DOMAIN)
    assert same.decode_tokens_per_s_per_gpu == pytest.approx(static.tokens_per_s_per_gpu)
    assert same.output_tokens_per_s_per_gpu < 0.5 * same.decode_tokens_per_s_per_gpu  # 4K prompts weigh on 1K output
    assert same.prompt_tokens == 4096


@pytest.mark.parametrize("input_per_day, prompt", [(8e11, 8192), (1e11, 1024), (4e10, 410)])
def test_fleet_sized_with_the_demands_token_mix(input_per_day, prompt):
    """Browser review: with 8K prompts per 256 output tokens on the sidebar and a demand of 4 input per output token,
    Economics showed H200 at batch 11 'limited by SLO' beside 339 output tok/s per GPU (a rate corrected for the
    demand's fewer prompts: 62 tok/s per user, not the 50 ms target's 20). Each request is now the scenario's output
    with the prompt that gives the demand's mix, and the layout, batch, limit and rate are that one point's."""
    hw = resolve_hardware("h200")
    f = fleet(MODEL, hw, SCEN, PROFILE, Demand(1e11, input_tokens_per_day=input_per_day), 50 * ms)
    assert f.prompt_tokens == prompt  # input / output x 1,024 output tokens
    sized = Scenario(**{**_fields(SCEN), "context_tokens": prompt, "batching": "continuous"})
    point = planner.cheapest(MODEL, hw, sized, PROFILE, 50 * ms, None, planner.DOMAIN)
    assert point.feasible and point.tpot_s <= 50 * ms
    assert (f.gpus_per_replica, f.batch, f.limited_by) == (point.num_gpus, point.batch, point.limited_by)
    assert f.output_tokens_per_s_per_gpu == pytest.approx(point.tokens_per_s_per_gpu, rel=1e-12)
    static = planner.cheapest(MODEL, hw, replace(sized, batching="static"), PROFILE, 50 * ms, None, planner.DOMAIN)
    assert f.decode_tokens_per_s_per_gpu == pytest.approx(static.tokens_per_s_per_gpu, rel=1e-12)
    # the batch and the rate of one point: each sequence a token per TPOT, the TPOT within the target
    assert f.output_tokens_per_s_per_gpu * f.gpus_per_replica / f.batch == pytest.approx(1 / point.tpot_s, rel=1e-9)


def test_fleet_without_input_decodes_at_the_scenarios_context():
    f = fleet(MODEL, resolve_hardware("h200"), SCEN, PROFILE, Demand(1e11), 50 * ms)
    static = planner.cheapest(MODEL, resolve_hardware("h200"), SCEN, PROFILE, 50 * ms, None, planner.DOMAIN)
    assert f.prompt_tokens == 0 and f.batch == static.batch
    assert f.output_tokens_per_s_per_gpu == pytest.approx(static.tokens_per_s_per_gpu)


def _fields(s: Scenario) -> dict:
    return {k: getattr(s, k) for k in s.__dataclass_fields__}


def test_capacity_cli_says_the_prompt_a_demands_token_mix_sets(capsys):
    base = ["capacity", "--model", "llama-3.1-70b", "--hardware", "h200", "--output-tokens-per-day", "1e10",
            "--tpot-target-ms", "50", "--weights", "fp8", "--context", "8192", "--output", "256"]  # fmt: skip
    assert cli.main([*base, "--input-tokens-per-day", "4e10", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["prompt_tokens"] == 1024
    assert cli.main([*base, "--input-tokens-per-day", "4e10"]) == 0
    assert "sized with a 1,024-token prompt, not --context 8,192" in capsys.readouterr().out
    assert cli.main([*base, "--input-tokens-per-day", "3.2e11"]) == 0  # the scenario's own 32 to 1
    assert "sized with" not in capsys.readouterr().out
    # the request lengths by InferenceX's names too: --isl / --osl are --context / --output
    assert cli.main([*base, "--input-tokens-per-day", "4e10", "--json"]) == 0
    want = capsys.readouterr().out
    isl = [{"--context": "--isl", "--output": "--osl"}.get(a, a) for a in base]
    assert "--isl" in isl and "--osl" in isl and "--context" not in isl
    assert cli.main([*isl, "--input-tokens-per-day", "4e10", "--json"]) == 0
    assert capsys.readouterr().out == want


def test_capacity_cli_marks_projections_and_refuses_a_demand_past_any_fleet(capsys):
    base = ["capacity", "--model", "llama-3.1-70b", "--tpot-target-ms", "50", "--weights", "fp8"]
    assert cli.main([*base, "--hardware", "vr200,h200", "--output-tokens-per-day", "1e12", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["hardware_announced"] for r in rows] == [True, False] and rows[1]["projection_note"] is None
    assert cli.main([*base, "--hardware", "vr200,h200", "--output-tokens-per-day", "1e12"]) == 0
    out = capsys.readouterr().out
    assert "\nvr200* " in out and "* vr200: projection: NVIDIA Rubin" in out and "\nh200 " in out
    assert cli.main([*base, "--hardware", "h200,h200,b200", "--output-tokens-per-day", "1e12", "--json"]) == 0
    assert [r["hardware"] for r in json.loads(capsys.readouterr().out)] == ["h200", "b200"]  # each chip once
    assert cli.main([*base, "--hardware", "h200", "--output-tokens-per-day", "1e30"]) == 2  # 8.8e21 GPUs before
    assert "--output-tokens-per-day: must be <=" in capsys.readouterr().err


def test_capacity_cli_says_a_target_out_of_reach_and_a_model_that_does_not_fit_apart(capsys):
    """Helper review: an 8 ms target Llama 3.1 70B reaches on no H200 count was reported 'no_fit' (the search had
    kept 1 GPU, which cannot hold it): it is 'slo', with how near the fastest comes: batch 1 on the count with the
    fastest TPOT, that planner.frontier's own batch-1 TPOT on 8 H200s; a model no count holds is 'no_fit' with
    the lower precision that fits (FP8 on 8 x H100 for Llama 3.1 405B), or that none does (RTX 4090)."""
    base = ["capacity", "--output-tokens-per-day", "1e12", "--json"]
    assert cli.main([*base, "--model", "llama-3.1-70b", "--hardware", "h200", "--tpot-target-ms", "8"]) == 0
    (r,) = json.loads(capsys.readouterr().out)
    assert (r["feasible"], r["limited_by"], r["missed_target"], r["fastest_gpus"]) == (False, "slo", "tpot", 8)
    eight = planner.frontier(MODEL, resolve_hardware("h200"), replace(SCEN, num_gpus=8, weights="bf16",
                             kv_cache="bf16", context_tokens=4096, output_tokens=1024), PROFILE, 8 * ms)  # fmt: skip
    assert r["fastest_tpot_ms"] == pytest.approx(eight.batch1_tpot_s / ms) and r["fastest_tpot_ms"] > 8
    # the JSON's remedy says it too (a review: null beside the text's advice)
    assert (
        r["remedy"]
        == f"a TPOT target of {r['fastest_tpot_ms']:,.3g} ms or looser (the fastest, batch 1 on 8 GPUs), or a faster chip"
    )
    assert cli.main([*base, "--model", "llama-3.1-405b", "--hardware", "h100-sxm,rtx-4090", "--tpot-target-ms",
                     "50"]) == 0  # fmt: skip
    h100, rtx = json.loads(capsys.readouterr().out)
    assert h100["limited_by"] == rtx["limited_by"] == "no_fit" and h100["fastest_tpot_ms"] is None
    assert h100["remedy"] == ("does not fit on up to 8 x NVIDIA H100 SXM5 80GB (one scale-up domain): fits with "
                              "fp8 weights (--weights fp8)")  # fmt: skip
    assert rtx["remedy"].endswith("lower precision alone is not enough: a chip with more memory per GPU or a larger "
                                  "domain")  # fmt: skip
    assert cli.main(base[:-1] + ["--model", "llama-3.1-70b", "--hardware", "h200", "--tpot-target-ms", "8"]) == 0
    assert "h200: no layout meets the TPOT target; the fastest, batch 1 on 8 GPUs, takes 8." in capsys.readouterr().out
    # an Apple M5 Max (128 GB, no link to another device) is a domain of one, as GB10 is: DeepSeek-R1 FP8 does not
    # fit it (a review: it had been sized as 135 replicas of 8 Macs, an 8-chip domain made up)
    assert cli.main([*base, "--model", "deepseek-r1", "--hardware", "m5-max,gb10", "--weights", "fp8",
                     "--tpot-target-ms", "50"]) == 0  # fmt: skip
    mac, spark = json.loads(capsys.readouterr().out)
    assert mac["limited_by"] == spark["limited_by"] == "no_fit" and mac["gpus"] in (None, 0)
    assert "(one scale-up domain)" in mac["remedy"] and "up to 1 x" in mac["remedy"]


@pytest.mark.parametrize("per_day", [1.0, 1e9, 1e12])
def test_a_fleet_serves_its_demand_on_the_fewest_gpus(per_day):
    # a CLI review: one output token a day had been sized on a 4-GPU replica (the count with the most tokens/s per
    # GPU) where one H200 holds Llama 3.1 70B FP8 and meets the target; against brute force over the domain's counts
    m, hw = resolve_model("llama-3.1-70b"), resolve_hardware("h200")
    s = Scenario(context_tokens=4096, output_tokens=1024, weights="fp8", kv_cache="fp8")
    demand = Demand(per_day, 0.0, 1.5, 0.7)
    need = demand.peak_output_tokens_per_s / demand.utilisation
    total = {}
    for n in planner.domain_gpu_options(hw):
        p = planner.cheapest(m, hw, s, resolve_profile("typical"), 0.05, gpu_options=[n])
        if p.feasible:
            total[n] = n * max(1, math.ceil(need / (p.tokens_per_s_per_gpu * n) - 1e-12))
    f = fleet(m, hw, s, resolve_profile("typical"), demand, 0.05)
    assert f.gpus == min(total.values()) and total[f.gpus_per_replica] == f.gpus
    if per_day == 1.0:
        assert f.gpus == 1


def test_capacity_cli_one_object_per_chip(capsys):
    args = ["capacity", "--model", "llama-3.1-70b", "--hardware", "h200,b200,mi355x", "--output-tokens-per-day",
            "1e12", "--tpot-target-ms", "50", "--peak-to-average", "1.5", "--utilisation", "0.7", "--price-basis",
            "hyperscaler", "--weights", "fp8", "--json"]  # fmt: skip
    assert cli.main(args) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["hardware"] for r in rows] == ["h200", "b200", "mi355x"]
    keys = {"hardware", "gpus", "output_tokens_per_s_per_gpu", "megawatts", "capex_usd", "opex_usd_per_year",
            "usd_per_1M_output_tokens", "limited_by", "counting"}  # fmt: skip
    for r in rows:
        assert keys <= set(r) and r["price_basis"] == "hyperscaler" and "usd_per_1M_tokens" not in r
        # per 1M output tokens, as the key and its counting say (a review: the key had read as frontier's input +
        # output): the year's opex over the year's output tokens
        year_tokens = 1e12 * HOURS_PER_YEAR / 24
        assert r["usd_per_1M_output_tokens"] == pytest.approx(r["opex_usd_per_year"] / year_tokens * 1e6, rel=1e-4)
        assert "output tokens" in r["counting"]["usd_per_1M_output_tokens"]
        peak = 1e12 / DAY_S * 1.5
        assert r["gpus"] * r["output_tokens_per_s_per_gpu"] * 0.7 >= peak
        assert (r["gpus"] - r["gpus_per_replica"]) * r["output_tokens_per_s_per_gpu"] * 0.7 < peak
        assert r["megawatts"] == pytest.approx(r["gpus"] * r["all_in_kW_per_gpu"] / 1e3)
        assert math.isfinite(r["capex_usd"]) and r["capex_usd"] > 0
        # a tensor-parallel replica is one instance: its batch is the instance's (the key had been a bare 'batch')
        assert "batch" not in r and r["decode_batch_per_instance"] >= 1


@pytest.mark.parametrize(
    "extra, message",
    [(["--price-basis", "cheap"], "--price-basis"), (["--utilisation", "1.5"], "--utilisation"),
     (["--hardware", "nope"], "--hardware"), (["--peak-to-average", "0.5"], "--peak-to-average"),
     (["--peak-to-average", "1e30"], "--peak-to-average: must be <= 100"),  # had sized 8.8e39 GPUs
     (["--context", "100", "--isl", "8192"], "--isl: is --context by another name")],
)  # fmt: skip
def test_capacity_cli_bad_input_is_one_line(capsys, extra, message):
    base = ["capacity", "--model", "llama-3.1-8b", "--hardware", "h200", "--output-tokens-per-day", "1e9",
            "--tpot-target-ms", "50"]  # fmt: skip
    assert cli.main(base + extra) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_capacity_from_requests_per_day_is_the_same_demand_in_tokens(capsys):
    """1e6 requests a day of 4,000 prompt + 1,000 output tokens = 1e9 output and 4e9 input tokens a day."""
    base = ["capacity", "--model", "llama-3.1-70b", "--hardware", "h200,b200", "--tpot-target-ms", "50",
            "--weights", "fp8", "--context", "4000", "--output", "1000", "--peak-to-average", "1.5", "--json"]  # fmt: skip
    assert cli.main([*base, "--requests-per-day", "1e6"]) == 0
    by_requests = json.loads(capsys.readouterr().out)
    assert cli.main([*base, "--output-tokens-per-day", "1e9", "--input-tokens-per-day", "4e9"]) == 0
    assert by_requests == json.loads(capsys.readouterr().out)
    d = Demand.from_requests(1e6, 4000, 1000, 1.5, 0.7)
    assert (d.output_tokens_per_day, d.input_tokens_per_day, d.peak_to_average, d.utilisation) == (1e9, 4e9, 1.5, 0.7)


@pytest.mark.parametrize(
    "demand, message",
    [([], "one of them is required"), (["--requests-per-day", "1e6", "--output-tokens-per-day", "1e9"], "not both"),
     (["--requests-per-day", "0"], "--requests-per-day")],
)  # fmt: skip
def test_capacity_demand_needs_tokens_or_requests(capsys, demand, message):
    base = ["capacity", "--model", "llama-3.1-8b", "--hardware", "h200", "--tpot-target-ms", "50"]
    assert cli.main(base + demand) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_fleet_searches_the_whole_scale_up_domain():
    """Issue 19 (noticed): fleets were sized from one node of 8 even on GB200 NVL72, whose domain is 72. Kimi K2 in
    BF16 (about 2 TB of weights) does not fit 8 x 186 GB: on HGX B200 (a domain of 8) no layout exists, on GB200 NVL72
    a wider tensor-parallel replica does, and its GPU count is a count the domain search offers."""
    kimi = resolve_model("kimi-k2")
    scen = Scenario(context_tokens=4096, output_tokens=1024, weights="bf16", price_basis="hyperscaler")
    demand = Demand(1e10)
    gb200 = fleet(kimi, resolve_hardware("gb200"), scen, PROFILE, demand, 50 * ms)
    b200 = fleet(kimi, resolve_hardware("b200"), scen, PROFILE, demand, 50 * ms)
    assert not b200.feasible and b200.limited_by == "no_fit"  # not 'memory', which caps a fleet's batch
    assert gb200.feasible and gb200.gpus_per_replica > 8
    assert gb200.gpus_per_replica in planner.domain_gpu_options(resolve_hardware("gb200"))
    assert gb200.gpus == gb200.replicas * gb200.gpus_per_replica


def test_whole_servers_and_racks_that_hold_a_fleet():
    """Browser review: a 32-GPU replica on GB200 NVL72 leaves 8 of a rack's 72 GPUs unused, which a fleet counted as
    rented GPUs does not show. Hand-worked: 5 replicas of 32 on 72-GPU racks (2 a rack): 3 racks, 216 - 160 = 56
    idle; 3 replicas of 4 on 8-GPU servers: 2 servers, 4 idle; a TPU pod (256 and up) is rented in slices: none."""
    from tpot_model.fleet import Fleet

    def made(g: int, replicas: int, domain: int) -> Fleet:
        return Fleet(
            "x", True, g, 1, replicas, g * replicas, 1.0, 1.0, 1e3, 1.0, "on_demand", "", 1.0, "slo", 0, domain
        )

    assert (made(32, 5, 72).domains, made(32, 5, 72).idle_gpus) == (3, 56)
    assert (made(4, 3, 8).domains, made(4, 3, 8).idle_gpus) == (2, 4)
    assert (made(72, 2, 72).domains, made(72, 2, 72).idle_gpus) == (2, 0)
    assert (made(8, 5, 0).domains, made(8, 5, 0).idle_gpus) == (0, 0)
    kimi = resolve_model("kimi-k2")
    scen = Scenario(context_tokens=4096, output_tokens=1024, weights="bf16", price_basis="hyperscaler")
    gb200 = fleet(kimi, resolve_hardware("gb200"), scen, PROFILE, Demand(1e10), 50 * ms)
    per_rack = 72 // gb200.gpus_per_replica
    assert gb200.domain_gpus == 72 and gb200.domains == math.ceil(gb200.replicas / per_rack)
    assert gb200.idle_gpus == gb200.domains * 72 - gb200.gpus
    tpu = fleet(MODEL, resolve_hardware("tpu-v6e"), SCEN, PROFILE, Demand(1e9), 50 * ms)
    assert tpu.domain_gpus == 0 and tpu.domains == 0


def test_capacity_chart_says_why_a_chip_has_no_bar():
    """Llama 3.1 405B in BF16 within one server: H100 SXM holds it nowhere and Trainium2 has no published all-in
    power; their slots had stood empty with nothing said (helper review). Each now says why; a chip with a bar none."""
    from ui.figures import economics as ef

    model = resolve_model("llama-3.1-405b")
    hws = [resolve_hardware(h) for h in ("h100-sxm", "h200", "trainium2")]
    s = Scenario(context_tokens=4096, output_tokens=1024, weights="bf16")
    demand = Demand(1e10)
    table = ef.capacity_table(fleets(model, hws, s, PROFILE, demand, 50 * ms), demand, {h.id: h.name for h in hws})
    notes = {a.y: a.text for a in ef.capacity_figure(table).layout.annotations}
    assert notes == {"H100 SXM5 80GB": EN("pl_cell_no_fit"), "Trainium2": "No public all-in power"}


def test_capacity_text_says_when_no_prefill_is_counted(capsys):
    # a review: a demand of output tokens alone sized the cache for --context prompts and counted no prefill, unsaid
    base = ["capacity", "--model", "llama-3.1-70b", "--hardware", "h200", "--weights", "fp8", "--tpot-target-ms", "50",
            "--output-tokens-per-day", "1e10"]  # fmt: skip
    assert cli.main(base) == 0
    assert "(no input tokens in the demand: each request decodes beside a 4,096-token cache (--context), its " in (
        capsys.readouterr().out
    )
    assert cli.main([*base, "--input-tokens-per-day", "4e11"]) == 0
    out = capsys.readouterr().out
    assert "no input tokens" not in out
    # its $ per 1M output tokens is the fleet's, not the price over the tok/s/GPU beside it (a helper review read
    # $4.22 against 641 tok/s/GPU's $1.97): the footnote says so
    assert "peak-to-average and utilisation included, so not the price over tok/s/GPU" in " ".join(out.split())


def test_a_fleet_of_the_layout_search_replicates_its_deployments_smallest_unit():
    """Economics' fleets had been tensor-parallel replicas within one domain while the Serving frontier's rack-scale
    view served DeepSeek-R1 FP8 on GB200 NVL72 with a disaggregated wide-EP deployment at about 3x the output tokens/s
    per GPU (591 against 1,727 at a 20 ms TPOT, 1k / 1k): two numbers for one question. With a GPU budget a fleet is
    replicas of the layout search's deployment (the same search, the same engines): its rate is the deployment's,
    a replica its smallest unit (copies of which the search had filled the budget with), the replicas the fewest whose
    rate covers the peak; a demand one small replica serves takes one (8 GPUs, not a 44-GPU deployment)."""
    from tpot_model.layouts import best_deployment, best_engines

    r1, gb200 = resolve_model("deepseek-r1"), resolve_hardware("gb200")
    scen = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    demand = Demand(1e10, 1e10)  # 1k in, 1k out a request
    f = fleet(r1, gb200, scen, None, demand, 20 * ms, max_gpus=72)
    d = best_deployment(r1, gb200, replace(scen, batching="continuous"), best_engines(gb200), max_gpus=72,
                        tpot_target_s=20 * ms)  # fmt: skip
    unit = d.unit
    assert f.feasible and f.serving == d.serving == "disaggregated" and f.engine == d.engine
    assert f.output_tokens_per_s_per_gpu == pytest.approx(d.output_tokens_per_s_per_gpu, rel=1e-12)
    assert f.layout == unit.label and f.gpus_per_replica == unit.gpus_used and f.max_gpus == 72
    need = 1e10 / DAY_S
    assert f.replicas == math.ceil(need / (f.output_tokens_per_s_per_gpu * f.gpus_per_replica))
    assert f.gpus == f.replicas * f.gpus_per_replica
    # the unit: the same rate on fewer GPUs, the instance counts divided by their greatest common divisor
    assert unit.output_tokens_per_s_per_gpu == d.output_tokens_per_s_per_gpu and d.gpus_used % unit.gpus_used == 0
    assert math.gcd(unit.decode.instances, unit.prefill.instances) == 1
    assert unit.gpus_used == unit.decode.gpus + unit.prefill.gpus
    # about 3x the tensor-parallel fleet's rate: the question the two pages answer now answered alike
    tp = fleet(r1, gb200, scen, PROFILE, demand, 20 * ms)
    assert tp.max_gpus == 0 and tp.layout == f"TP{tp.gpus_per_replica}"
    assert f.output_tokens_per_s_per_gpu > 2 * tp.output_tokens_per_s_per_gpu
    # the unit is a deployment of its own: the search within its GPUs finds its rate again
    again = best_deployment(r1, gb200, replace(scen, batching="continuous"), best_engines(gb200),
                            max_gpus=unit.gpus_used, tpot_target_s=20 * ms)  # fmt: skip
    assert again.output_tokens_per_s_per_gpu == pytest.approx(unit.output_tokens_per_s_per_gpu, rel=1e-9)
    small = fleet(r1, gb200, scen, None, Demand(1e8, 1e8), 20 * ms, max_gpus=72)
    assert (small.gpus, small.replicas, small.layout, small.serving) == (8, 1, "1 × TP8", "aggregated")


def test_a_replica_wider_than_a_server_takes_whole_servers():
    """A 44-GPU replica on 8-GPU HGX servers (3 × DEP4 prefill + DEP32 decode): its instances share servers with the
    next replica's, so 3 replicas, 132 GPUs, take ceil(132 / 8) = 17 servers, 4 GPUs idle (a review: 6 servers a
    replica had counted 18, though two replicas' DEP4 instances fill one server); one replica: 6 servers, 4 idle."""
    from tpot_model.fleet import Fleet

    scen = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    searched = fleet(resolve_model("deepseek-r1"), resolve_hardware("b200"), scen, None, Demand(1e12, 1e12), 20 * ms,
                     max_gpus=72)  # fmt: skip
    d = searched.deployment  # prefill n x DEP4 + decode 1 x DEP32, made 3 x DEP4 + 1 x DEP32
    d = replace(d, prefill=replace(d.prefill, instances=3, gpus_each=4), decode=replace(d.decode, instances=1,
                gpus_each=32), gpus_used=44)  # fmt: skip
    f = Fleet("b200", True, 44, 1, 3, 132, 1.0, 1.0, 1e3, 1.0, "on_demand", "", 1.0, "slo", 0, 8, deployment=d)
    assert (f.domains, f.idle_gpus) == (17, 4)
    one = replace(f, replicas=1, gpus=44)
    assert (one.domains, one.idle_gpus) == (6, 4)


def test_capacity_cli_with_a_budget_replicates_the_layout_search(capsys):
    """`capacity --max-gpus 72`: each chip's fleet is replicas of the layout search's deployment, its layout, serving,
    engine and budget in the JSON, its layout in the text's last column; --profile best needs the budget."""
    base = ["capacity", "--model", "deepseek-r1", "--hardware", "gb200,b200", "--weights", "fp8", "--kv", "fp8",
            "--context", "1024", "--output", "1024", "--tpot-target-ms", "20", "--output-tokens-per-day", "1e10",
            "--input-tokens-per-day", "1e10"]  # fmt: skip
    assert cli.main([*base, "--max-gpus", "72", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    for r, hw in zip(rows, ("gb200", "b200"), strict=True):
        f = fleet(resolve_model("deepseek-r1"), resolve_hardware(hw),
                  Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8"), None,
                  Demand(1e10, 1e10), 20 * ms, max_gpus=72)  # fmt: skip
        assert (r["layout"], r["serving"], r["engine"], r["max_gpus"]) == (f.layout, f.serving, f.engine, 72)
        assert r["gpus"] == f.gpus and r["output_tokens_per_s_per_gpu"] == pytest.approx(f.output_tokens_per_s_per_gpu)
        assert "layout search" in r["counting"]["output_tokens_per_s_per_gpu"]
        from tpot_model.frontier_check import gpus_range, summary_key
        from tpot_model.pool_correction import committed_check

        span = gpus_range(f, resolve_model("deepseek-r1"), resolve_hardware(hw), Demand(1e10, 1e10),
                          committed_check()[summary_key(True)])  # fmt: skip
        assert span is not None and (r["gpus_80pct_low"], r["gpus_80pct_high"]) == span
        assert r["no_measured_range_reason"] is None
    assert rows[0]["serving"] == "disaggregated" and " + decode " in rows[0]["layout"]
    # Economics' CSV writes the layout as the CLI does (Deployment.label: it had written '3 × DEP4 → 1 × DEP32'); its
    # table the short form, prefill → decode, under a heading that says so
    scen = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    fs = [fleet(resolve_model("deepseek-r1"), resolve_hardware(hw), scen, None, Demand(1e10, 1e10), 20 * ms,
                max_gpus=72) for hw in ("gb200", "b200")]  # fmt: skip
    from ui.figures import economics as ef

    table = ef.capacity_table(fs, Demand(1e10, 1e10), {})
    assert list(table["layout"]) == [r["layout"] for r in rows] == [f.deployment.label for f in fs]
    # the batch is each decode instance's, named so in the CSV as in the JSON (both had said a bare 'batch')
    batches = [f.deployment.decode.batch for f in fs]
    assert list(table["decode_batch_per_instance"]) == [r["decode_batch_per_instance"] for r in rows] == batches
    assert "batch" not in table.columns and "batch" not in rows[0]
    shown = ef.capacity_display(table).set_index(EN("ec_col_figure")).loc[EN("ec_col_layout_search")]
    assert list(shown) == [f.deployment.short_label for f in fs] and " → " in shown.iloc[0]
    assert cli.main([*base, "--max-gpus", "72"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split()[-1] == "layout" and rows[0]["layout"] in out
    assert "each replica the layout search's deployment within up to 72 GPUs" in out
    assert f"gb200: 80% range (measured): {rows[0]['gpus_80pct_low']:,}-{rows[0]['gpus_80pct_high']:,} GPUs" in out
    assert cli.main([*base, "--profile", "best"]) == 2
    assert "--profile: best is the layout search's (give --max-gpus)" in capsys.readouterr().err
    assert cli.main([*base, "--max-gpus", "2000"]) == 2
    assert "--max-gpus" in capsys.readouterr().err


def test_a_layout_search_fleets_gpus_range_is_the_measured_bands_ends():
    """The fleet's GPUs at the measured 80 % range of its replica's tokens/s per GPU (frontier_check.gpus_range): the cell's
    band says measured = model / ratio, so the rate runs from the model's / p90 to / p10 and the fleet from the
    fewest replicas at the higher rate to the most at the lower; none for an announced chip (nothing measured) or a
    tensor-parallel fleet."""
    from tpot_model.fleet import replicas_for
    from tpot_model.frontier_check import gpus_range, measured_range, summary_key
    from tpot_model.pool_correction import committed_check

    r1, gb200 = resolve_model("deepseek-r1"), resolve_hardware("gb200")
    scen = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    demand = Demand(1e12, 4e12, 1.5, 0.7)
    check = committed_check()[summary_key(True)]
    f = fleet(r1, gb200, scen, None, demand, 20 * ms, max_gpus=72)
    d = f.deployment
    low, high, band = measured_range(check, d.gpus_used, 1 / d.tpot_s)
    assert (low, high) == (1 / band["p90_ratio"], 1 / band["p10_ratio"])
    n, rate = f.gpus_per_replica, f.output_tokens_per_s_per_gpu
    fewest, most = gpus_range(f, r1, gb200, demand, check)
    assert (fewest, most) == (n * replicas_for(demand, rate * high, n), n * replicas_for(demand, rate * low, n))
    assert fewest < most and most % n == 0
    assert f.gpus == n * replicas_for(demand, rate, n)
    vr200 = fleet(r1, resolve_hardware("vr200"), scen, None, demand, 20 * ms, max_gpus=72)
    assert vr200.feasible and gpus_range(vr200, r1, resolve_hardware("vr200"), demand, check) is None
    assert gpus_range(fleet(r1, gb200, scen, PROFILE, demand, 20 * ms), r1, gb200, demand, check) is None


def test_a_layout_search_fleet_tries_its_budget_itself_and_says_how_near_a_missed_ttft_target_comes():
    """A review: on an 8-GPU server's chip the budgets tried had been the instance sizes only (1 ... 64 for 72), so
    H200's DeepSeek-R1 fleet never saw the 72-GPU search's DEP64 decode pool and took about 3x the GPUs; a missed
    TTFT target had said nothing of how near the search comes. The budget itself is tried (search_budgets), and a TTFT
    target no layout meets is answered with the fastest TTFT a layout meeting the TPOT target reaches."""
    from tpot_model.fleet import fastest_ttft_s, search_budgets
    from tpot_model.layouts import best_deployment, best_engines, engine_tables

    r1, h200 = resolve_model("deepseek-r1"), resolve_hardware("h200")
    assert search_budgets(h200, 72) == [1, 2, 4, 8, 16, 32, 64, 72]
    scen = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    f = fleet(r1, h200, scen, None, Demand(1e12, 1e12), 20 * ms, max_gpus=72)
    d72 = best_deployment(r1, h200, replace(scen, batching="continuous"), best_engines(h200), max_gpus=72,
                          tpot_target_s=20 * ms)  # fmt: skip
    assert f.output_tokens_per_s_per_gpu >= 0.999 * d72.output_tokens_per_s_per_gpu
    assert d72.gpus_used > 64  # what only the budget itself reaches
    # a TTFT target of 5 ms within 16 GPUs: missed; the fastest TTFT at the 50 ms TPOT target, bisected: a target a
    # hair looser is met, a hair tighter is not
    missed = fleet(r1, h200, scen, None, Demand(1e10), 50 * ms, 5 * ms, max_gpus=16)
    assert not missed.feasible and missed.slo_binding == "ttft"
    fastest = missed.fastest_ttft_s
    served = replace(scen, batching="continuous")
    tables16 = engine_tables(r1, h200, served, best_engines(h200), max_gpus=16)
    assert fastest == pytest.approx(fastest_ttft_s(tables16, 50 * ms))
    engines = best_engines(h200)
    for target, met in ((fastest * 1.002, True), (fastest * 0.99, False)):
        d = best_deployment(r1, h200, served, engines, max_gpus=16, tpot_target_s=50 * ms, ttft_target_s=target)
        assert d.feasible is met
    assert missed.fastest_missed_s == fastest
    # no TTFT target: a missed TPOT target is the TPOT's, whatever a decode pool alone reaches
    tpot = fleet(r1, h200, scen, None, Demand(1e10), 2 * ms, max_gpus=16)
    assert tpot.slo_binding == "tpot" and tpot.fastest_tpot_s > 2 * ms


def test_capacity_with_one_engine_reads_its_range_against_that_engines_check(capsys):
    """A review: `capacity --profile typical --max-gpus 8` read its 80 % range against the best-engine check; as
    `frontier`, a search under one engine is read against the per-engine frontier check."""
    from tpot_model.frontier_check import measured_gpus, summary_key
    from tpot_model.pool_correction import committed_check

    args = ["capacity", "--model", "deepseek-r1", "--hardware", "b200", "--weights", "fp8", "--kv", "fp8",
            "--context", "1024", "--output", "1024", "--tpot-target-ms", "30", "--output-tokens-per-day", "1e11",
            "--max-gpus", "8", "--json"]  # fmt: skip
    for profile, best in (("sglang", False), (None, True)):
        assert cli.main(args + (["--profile", profile] if profile else [])) == 0
        (r,) = json.loads(capsys.readouterr().out)
        f = fleet(resolve_model("deepseek-r1"), resolve_hardware("b200"),
                  Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8"),
                  resolve_profile(profile) if profile else None, Demand(1e11), 30 * ms, max_gpus=8)  # fmt: skip
        span, _ = measured_gpus(f, resolve_model("deepseek-r1"), resolve_hardware("b200"), Demand(1e11),
                                committed_check()[summary_key(best)])  # fmt: skip
        assert (r["gpus_80pct_low"], r["gpus_80pct_high"]) == (span or (None, None)), profile


@pytest.mark.parametrize(
    ("model_id", "hw_id", "weights", "tpot_ms"),
    [("deepseek-r1", "h200", "fp8", 20), ("deepseek-r1", "gb200", "fp8", 50), ("llama-3.1-70b", "b200", "fp8", 30),
     ("deepseek-r1", "mi355x", "fp8", 10)],
)  # fmt: skip
def test_smaller_budgets_tables_cut_from_the_widest_search_as_built_for_them(model_id, hw_id, weights, tpot_ms):
    """A layout-search fleet tries every budget up to its own (search_budgets) and had built the candidate tables
    afresh for each: each smaller budget's instances are a subset of the widest's, so layouts.within_budget cuts them
    from one set. Cut or built, the search answers the same, deployment for deployment (its candidates too)."""
    from tpot_model.fleet import search_budgets
    from tpot_model.layouts import choose, layout_tables, within_budget

    model, hw = resolve_model(model_id), resolve_hardware(hw_id)
    s = Scenario(context_tokens=2048, output_tokens=512, weights=weights, kv_cache=weights, batching="continuous")
    widest = layout_tables(model, hw, s, PROFILE, max_gpus=72)
    for b in search_budgets(hw, 72):
        cut = within_budget(widest, b)
        built = layout_tables(model, hw, s, PROFILE, max_gpus=b)
        assert [(t.parallelism, t.stages, list(t.gpus)) for t in (*cut.aggregated, *cut.decode, *cut.prefill)] == [
            (t.parallelism, t.stages, list(t.gpus)) for t in (*built.aggregated, *built.decode, *built.prefill)
        ], b
        assert repr(choose(cut, tpot_ms * ms)) == repr(choose(built, tpot_ms * ms)), b  # repr: nan equals nan
    with pytest.raises(ValueError, match="from 1 to the tables' 72"):
        within_budget(widest, 73)


def test_a_fleet_costed_as_bought_counts_whole_racks_and_takes_the_replica_that_needs_the_fewest():
    """A fleet had been costed as a cloud rents GPUs only: GB200's 52-GPU DeepSeek-R1 replicas (prefill 5 x DEP4 +
    decode 1 x DEP32) leave 20 GPUs of every NVL72 rack idle, which an owner buys and powers all the same. Costed as
    bought (whole_domains), MW and $ count the whole racks (costed_gpus), and the layout search scores a deployment
    per GPU of the whole racks it takes (layouts.whole_domain_share): within 36 GPUs, 1 x DEP4 + 2 x DEP16 (36, two to
    a rack) beats 1 x TP4 + 1 x DEP16 (20 GPUs, three to a rack: 24 each) on a rack's GPUs though not on its own."""
    from tpot_model.layouts import best_engines, choose, engine_tables, pack_domains, whole_domain_share, within_budget

    # hand-worked shares: a 72-GPU rack holds one 52, two 36s, three 20s; an 8-GPU server one 8; 44 fills 6 servers
    assert [float(whole_domain_share(u, 72)) for u in (52, 36, 20, 72)] == [72.0, 36.0, 24.0, 72.0]
    assert [float(whole_domain_share(u, 8)) for u in (8, 4, 44)] == [8.0, 4.0, 48.0]
    assert float(whole_domain_share(52, 0)) == 52.0
    # packed, the widest first, best fit: 425 units of 52 take 425 racks; 3 x (DEP32 + 3 x DEP4) on 8-GPU servers 12
    # for the DEP32s and 5 for nine DEP4s; H200's 1,949 x (DEP64 + DEP8) 17,541 servers; a review's Inferentia2 (12
    # chips a server) fleet of 759 x (TP4 + 2 x TP8): a TP8 a server, the TP4s in the 4 they leave, 1,518 (the GPUs
    # over a server's had said 1,265); 2 x 96 on 72-GPU racks leave 48 in each of 4, three 16s in one of them
    assert pack_domains({52: 425}, 72) == 425 and pack_domains({36: 3}, 72) == 2 and pack_domains({8: 9}, 72) == 1
    assert pack_domains({32: 3, 4: 9}, 8) == 17 and pack_domains({64: 1949, 8: 1949}, 8) == 17_541
    assert pack_domains({8: 1518, 4: 759}, 12) == 1518 and pack_domains({96: 2, 16: 3}, 72) == 4
    assert pack_domains({}, 8) == 0 and pack_domains({4: 3, 2: 1}, 8) == 2  # 4 + 4, then 4 + 2

    r1, gb200 = resolve_model("deepseek-r1"), resolve_hardware("gb200")
    scen = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    demand = Demand(1e12, 4e12, 1.5, 0.7)
    rented = fleet(r1, gb200, scen, None, demand, 20 * ms, max_gpus=72)
    bought = fleet(r1, gb200, scen, None, demand, 20 * ms, max_gpus=72, whole_domains=True)
    assert rented.costed_gpus == rented.gpus and not rented.whole_domains
    assert bought.costed_gpus == bought.domains * 72 > bought.gpus  # the idle GPUs of its racks, costed
    assert bought.megawatts == pytest.approx(bought.costed_gpus * gb200.prices.all_in_w / 1e6)
    assert bought.capex_usd == pytest.approx(bought.costed_gpus * bought.capex_usd_per_gpu)
    assert bought.opex_usd_per_year == pytest.approx(bought.costed_gpus * bought.usd_per_gpu_hour * 365.25 * 24)
    assert bought.costed_gpus <= rented.domains * 72  # no replica the rented search took needs fewer racks
    assert rented.gpus <= bought.gpus  # and none the bought one took fewer GPUs
    # the score per GPU taken: within 36 GPUs, a deployment two of which fill a rack
    served = replace(scen, context_tokens=4096, output_tokens=1024, batching="continuous")
    tables = tuple(within_budget(t, 36) for t in engine_tables(r1, gb200, served, best_engines(gb200), max_gpus=72))
    own, taken = choose(tables, 20 * ms), choose(tables, 20 * ms, whole_domains=72)
    assert (own.gpus_used, taken.gpus_used) == (20, 36)
    assert own.tokens_per_s_per_gpu > taken.tokens_per_s_per_gpu  # per GPU used: the 20-GPU one is faster ...
    assert taken.tokens_per_s_per_gpu > own.tokens_per_s_per_gpu * 20 / 24  # ... per GPU of the rack, slower
    # Inferentia2's 12-chip servers: rented, TP8 replicas need the fewest chips but leave 4 of every server idle; as
    # bought, TP12 replicas fill their servers and need fewer servers in all
    inf2, llama = resolve_hardware("inferentia2"), resolve_model("llama-3.1-70b")
    s8k = Scenario(context_tokens=1024, output_tokens=8192, weights="fp8", kv_cache="fp8")
    rented, bought = (fleet(llama, inf2, s8k, None, Demand(30e9, 30e9 / 8), 33 * ms, max_gpus=24, whole_domains=w)
                      for w in (False, True))  # fmt: skip
    assert rented.gpus < bought.gpus and rented.idle_gpus > 0 and bought.idle_gpus == 0
    assert bought.costed_gpus == bought.domains * 12 < rented.domains * 12
    assert (rented.layout, bought.layout) == ("1 × TP8", "1 × TP12")
    # on 8-GPU servers the replicas fill whole servers: costed as bought counts the same GPUs
    b200 = fleet(r1, resolve_hardware("b200"), scen, None, demand, 20 * ms, max_gpus=72, whole_domains=True)
    assert b200.costed_gpus == b200.domains * 8 >= b200.gpus


def test_capacity_whole_domains_in_the_cli(capsys):
    """`capacity --whole-domains`: costed as bought, said in the text (a 'costed' column) and the JSON (whole_domains,
    costed_gpus = scale_up_domains x the rack's 72, MW over them)."""
    argv = ["capacity", "--model", "deepseek-r1", "--hardware", "gb200", "--output-tokens-per-day", "1e12",
            "--input-tokens-per-day", "4e12", "--tpot-target-ms", "20", "--weights", "fp8", "--kv", "fp8",
            "--context", "1024", "--output", "1024", "--max-gpus", "72"]  # fmt: skip
    assert cli.main([*argv, "--whole-domains", "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["whole_domains"] is True and row["costed_gpus"] == row["scale_up_domains"] * 72 > row["gpus"]
    assert row["megawatts"] == pytest.approx(row["costed_gpus"] * row["all_in_kW_per_gpu"] / 1e3, rel=1e-3)
    assert cli.main([*argv, "--json"]) == 0
    (rented,) = json.loads(capsys.readouterr().out)
    assert rented["whole_domains"] is False and rented["costed_gpus"] == rented["gpus"]
    assert cli.main([*argv, "--whole-domains"]) == 0
    text = capsys.readouterr().out
    assert "costed" in text.splitlines()[0] and f"{row['costed_gpus']:,}" in text.splitlines()[1]
    assert "costed as bought" in text
