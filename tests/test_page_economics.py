"""Economics page (AppTest), and the price basis across pages: the same scenario and basis give the same $ per 1M
tokens on every page that shows it."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from apptest_util import decode, figures, run_page

from tpot_model import Scenario, estimate, resolve_hardware, resolve_model, resolve_profile
from tpot_model.economics import ApiPrice, TcoParts, revenue, tco
from tpot_model.fleet import DAY_S
from ui import fmt
from ui.figures import economics as econ_figs
from ui.i18n import Translator
from ui.notices import control_name

EN, ZH = Translator("en"), Translator("zh-TW")
Q = dict(model="llama-3.1-8b", hardware="mi355x", gpus="1", weights="fp8", batch="32", context="2048", output="512",
         price_basis="hyperscaler")  # fmt: skip


def _metric(at, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def _usd(text: str) -> float:
    return float(text.replace("$", "").replace(",", ""))


def test_no_public_price_is_said_on_every_page_that_shows_dollars_not_n_a():
    """Issue 20: Trainium2 has no public hyperscaler price (nor a published all-in power): every page that shows $
    or tokens per MW says so in zh-TW, with the one click that enters a price, never a bare 'n/a' in its place."""
    q = dict(lang="zh-TW", model="llama-3.1-8b", hardware="trainium2", price_basis="hyperscaler")
    # Trainium: the notice and its button say chip-hour (issue 19; were pinned to the GPU-hour wording)
    # the one basis that does price it named (economics.priced_bases), not "another price basis"
    notice = (
        "AWS Trainium2 在「超大規模業者 TCO」價格基準下沒有公開價格：需要其每晶片小時價格的數字（每百萬 Token 成本及以其計算的數字）"
        "不顯示。請在側邊欄輸入自訂的每晶片小時價格，或在側邊欄改選以下任一價格基準：雲端隨需。"
    )
    for page in ("overview", "cost", "compare", "planner", "economics"):
        at = run_page(page, **q)
        assert not at.exception, page
        assert notice in [i.value for i in at.info], page
        assert ZH("enter_own_price_chip") in [b.label for b in at.button], page
    overview = run_page("overview", **q)
    # was 'n/a'; then the words as the value, cut at 900 px: a dash, and the words under it
    (cost,) = [m for m in overview.metric if m.label == ZH("m_cost")]
    assert (cost.value, cost.proto.delta) == ("—", ZH("no_public_price_short"))
    compare = run_page("compare", **q).table[0].value
    compare = getattr(compare, "data", compare)
    assert compare.loc[ZH("cmp_row_cost"), "A"] == ZH("no_public_price_short")
    assert compare.loc[ZH("cmp_row_tokens_per_mw"), "A"] == ZH("no_public_power_short")
    # Hardware: the chips without a price under the basis are counted under the table (their $ cells are empty; a
    # list of some 40 names was a wall of text), in the chip wording (the list holds TPUs and Trainium)
    hardware = run_page("hardware", **q)
    from tpot_model import load_hardware_catalog

    chips = load_hardware_catalog().values()
    n = sum(h.prices.price("hyperscaler") is None for h in chips)
    assert n > 6
    counted = ZH("cost_basis_unpriced_many_chip", n=n, total=len(chips))
    assert any(counted in c.value for c in hardware.caption), [c.value for c in hardware.caption]
    # with a few chips, none of them priced: said of all of them, with no pointer to prices in the CSV
    few = run_page("hardware", **q)
    few.multiselect(key="hardware.vendors").set_value(["AWS"]).run()
    aws = [h for h in chips if h.vendor == "AWS"]
    assert all(h.prices.price("hyperscaler") is None for h in aws)
    # Trainium2's on-demand price is the only one of the three: that basis named
    none = ZH("cost_basis_unpriced_all_chip", total=len(aws), basis=ZH("basis_hyperscaler"),
              bases=ZH("basis_on_demand"), where=ZH("basis_where_sidebar"))  # fmt: skip
    assert any(c.value.startswith(none) for c in few.caption), [c.value for c in few.caption]
    # some priced, a few not: those are named
    amd = run_page("hardware", **q)
    amd.multiselect(key="hardware.vendors").set_value(["AMD"]).run()
    assert any(
        "AMD Instinct MI250X" in c.value
        and ZH("cost_basis_unpriced_nowhere", hws="", own=ZH("own_price_select")).strip() in c.value
        for c in amd.caption
    ), [c.value for c in amd.caption]  # fmt: skip (no basis prices MI250X)


def test_same_usd_per_1m_on_every_page_for_the_same_basis():
    e = estimate(resolve_model("llama-3.1-8b"), resolve_hardware("mi355x"),
                 Scenario(batch=32, context_tokens=2048, output_tokens=512, num_gpus=1, weights="fp8",
                          price_basis="hyperscaler"), resolve_profile("typical"))  # fmt: skip
    expected = float(e.usd_per_1M_tokens)  # MI355X has no on-demand price: only the basis gives it one
    assert e.price.usd_per_gpu_hour == 1.50 and e.price.as_of == "2026-09-20"
    overview, cost = run_page("overview", **Q), run_page("cost", **Q)
    for at, label in ((overview, EN("m_cost")), (cost, EN("ce_m_usd_1m"))):
        assert not at.exception
        assert _usd(_metric(at, label)) == pytest.approx(expected, rel=0.01)
        captions = " ".join(c.value for c in at.caption)
        assert EN("basis_hyperscaler") in captions and "2026-09-20" in captions  # basis and date beside the $
        assert EN("m_tokens_per_mw") in captions
    on_demand = run_page("overview", **{**Q, "price_basis": "on_demand"})
    assert EN("enter_own_price") in [b.label for b in on_demand.button]  # no public on-demand price for MI355X
    note = EN("price_basis_note", basis=EN("basis_hyperscaler"), as_of="2026-09-20")
    # Hardware: the sidebar chip's row of the scenario-on-every-chip table, the basis and dates under it
    hardware = run_page("hardware", **Q)
    table = hardware.dataframe[0].value
    row = table[table[EN("hw_col_hardware")] == fmt.chip_short(e.hardware)].iloc[0]  # short names, as on the axis
    assert row[EN("hw_col_usd_1m")] == pytest.approx(expected, rel=5e-3)
    assert row[EN("hw_col_tps_mw_k")] == pytest.approx(
        float(e.tokens_per_s_per_mw) / 1e3, rel=5e-3
    )  # shown in thousands, to 3 significant figures
    # the table lists TPUs and Trainium too: the caption's neutral 'chip' wording (issue 19; was the GPU wording)
    assert any(EN("cost_basis_many_chip", note=note) in c.value for c in hardware.caption)
    # Compare: scenario A is the sidebar's; its price names the basis and date, the cost line sits under A
    compare = run_page("compare", **Q)
    headline = compare.table[0].value
    assert headline.loc[EN("cmp_row_cost"), "A"] == fmt.usd(expected)
    cell = EN("price_basis_note", basis=EN("basis_hyperscaler"), as_of=fmt.date("2026-09-20"))  # not wrapped
    assert headline.loc[EN("cmp_row_price"), "A"] == f"{fmt.usd(1.50)} · {cell}"
    assert any(note in c.value and EN("m_tokens_per_mw") in c.value for c in compare.caption)
    # Planner: the sidebar's batch beside the frontier's, with the basis line
    planner = run_page("planner", **Q)
    shown = [m for c in planner.caption if "32" in c.value for m in re.findall(r"\$(\d+\.\d+) ", c.value)]
    assert any(abs(float(v) - expected) <= 0.5 * 10 ** -len(v.split(".")[1]) for v in shown), shown  # as displayed
    # its tokens per MW at the frontier's batch, named so (a helper review: they had read as the sidebar batch's)
    at_batch = EN("m_tokens_per_mw_batch", batch="@").split("@")[0]
    assert any(note in c.value and at_batch in c.value for c in planner.caption)
    # Economics: the revenue section prices the GPU-hour the same way; Serving frontier: its tier is the sidebar's
    economics = run_page("economics", **Q)
    assert any(note in c.value and fmt.usd(1.50).replace("$", "") in c.value for c in economics.caption)
    frontier = run_page("frontier", **Q)
    assert frontier.session_state["frontier.tier"] == "hyperscaler"
    assert any(EN("cost_basis_many", note=note) in c.value for c in frontier.caption)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_economics_page_capacity_tco_revenue(lang):
    tr = Translator(lang)
    at = run_page("economics", **Q, lang=lang)
    assert not at.exception
    for key in ("ec_cap_h", "ec_tco_h", "ec_rev_h"):
        assert tr(key) in [h.value for h in at.header]
    # a column per chip (its short name), a row per figure in words: it reads whole in the page's width (a column
    # per figure had run to 1,800 px); rates to 3 significant figures, counts whole
    table = at.table[0].value
    chips = dict.fromkeys((Q["hardware"], "h200", "b200", "mi355x"))  # the sidebar's chip first
    assert list(table.columns) == [tr("ec_col_figure"), *(fmt.chip_short(resolve_hardware(h)) for h in chips)]
    peak = 1000e9 / DAY_S * 1.5
    for chip, r in table.set_index(tr("ec_col_figure")).items():  # the default demand is served (3-figure rounding)
        gpus, rate = int(r[tr("ec_col_gpus")].replace(",", "")), float(r[tr("ec_col_tps_gpu")].replace(",", ""))
        assert r[tr("ec_col_gpus")] == fmt.integer(gpus) and gpus * rate * 0.7 >= peak * 0.995, chip
        assert r[tr("ec_col_basis")] == tr("basis_hyperscaler") and r[tr("ec_col_as_of")]
        assert r[tr("ec_col_usd_1m")].startswith("$") and r[tr("ec_col_price")].startswith("$")
        assert r[tr("ec_col_limited_by")] in {
            tr(f"pl_limit_{k}") for k in ("slo", "memory", "compute", "batch_limit", "no_fit")
        }
    mw = _figure(at, tr("ec_cap_title"))  # each bar says its all-in MW, to three figures (kW below 1 MW)
    labelled = [b for b in mw["data"] if b["text"] == [fmt.megawatts(float(decode(b["x"])[0]))]]
    assert len(labelled) == len(mw["data"]) >= 3
    assert fmt.megawatts(53.04) == "53.0 MW" and fmt.megawatts(0.00137) == "1.37 kW"  # a small fleet read '0.0 MW'
    # its bars name the chips as the table's columns do (they read 'NVIDIA B200 (HGX, 1000 W)' above 'B200')
    assert [b["y"][0] for b in mw["data"]] == list(table.columns[1:])  # short: on one line each
    # the TCO preset reproduces MI355X's hyperscaler price, and one click makes it the price of every page
    assert _usd(_metric(at, tr("ec_m_tco"))) == pytest.approx(1.50, abs=0.01)
    at.button(key="econ.use_tco").click().run()
    assert at.session_state["price_basis"] == "custom" and at.session_state["price"] == pytest.approx(1.5, abs=1e-3)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_ones_own_price_prices_the_sidebars_chip_alone(lang):
    """A browser review: a $/GPU-hour of one's own (here the sidebar's MI355X's) priced H200 and B200 too, '$3.00 ·
    Your own' on every column, and the chart's title said 'each chip at its own $/GPU-hour'. As on the Hardware page,
    it is the sidebar's chip's alone: the other columns have no price under it, and the caption says how to price them."""
    tr = Translator(lang)
    at = run_page("economics", **{**Q, "price_basis": "custom", "price": "3"}, lang=lang)
    assert not at.exception
    table = at.table[0].value.set_index(tr("ec_col_figure"))
    own, *others = table.columns
    assert own == fmt.chip_short(resolve_hardware("mi355x")) and len(others) == 2  # H200, B200
    assert table.loc[tr("ec_col_price"), own].startswith("$3.00")
    for chip in others:
        assert not str(table.loc[tr("ec_col_price"), chip]).startswith("$")
        assert not str(table.loc[tr("ec_col_usd_1m"), chip]).startswith("$")
    names = [resolve_hardware(h).name for h in ("h200", "b200")]
    assert any(all(n in c.value for n in names) for c in at.caption), "the unpriced chips named under the table"


def test_tco_part_edit_changes_the_result():
    at = run_page("economics", **Q)
    before = _usd(_metric(at, EN("ec_m_tco")))
    key = next(n.key for n in at.number_input if n.key and n.key.endswith(".electricity_usd_per_kwh"))
    at.number_input(key=key).set_value(0.30).run()
    after = _usd(_metric(at, EN("ec_m_tco")))
    assert after - before == pytest.approx(2.09 * (0.30 - 0.08), abs=0.011)  # MI355X: 2.09 kW all-in, every hour


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_embed_keeps_the_csv_downloads_with_basis_and_date(lang):
    at = run_page("economics", **Q, embedded=True, lang=lang, more="true")  # the revenue: below the page's fold
    assert not at.exception
    labels = [b.label for b in at.get("download_button")]
    assert Translator(lang)("ec_rev_csv") in labels


def _figure(at, title_part: str) -> dict:
    return next(f for f in figures(at) if title_part in f["layout"]["title"]["text"])


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_revenue_along_the_serving_frontier(lang):
    """Revenue per GPU-hour = output tok/s per GPU x 3600 x ($1 out + 4 input tokens per output token x $1) / 1e6 at
    each concurrency (InferenceX's normalised $1/M), against 1 / TPOT; the cost line is MI355X's hyperscaler $1.50."""
    tr = Translator(lang)
    at = run_page("economics", **Q, lang=lang)
    assert not at.exception and tr("ec_rf_h") in [h.value for h in at.subheader]
    fig = _figure(at, tr("ec_rf_title", hw=resolve_hardware("mi355x").name))
    revenue, cost = fig["data"]
    custom = revenue["customdata"]
    per_gpu = decode(custom).reshape(-1, 2)[:, 1]  # (concurrency, output tok/s per GPU) per point
    rev = decode(revenue["y"])
    assert np.allclose(rev, per_gpu * 3600 * (1 + 4 * 1) / 1e6)  # context 2048 / output 512 = 4 input per output
    assert np.allclose(decode(cost["y"]), 1.50)
    x = decode(revenue["x"])
    assert np.all(np.diff(x) < 0) and np.all(np.diff(rev) > 0)  # more concurrency: slower per user, more per GPU
    assert fig["layout"]["yaxis"]["tickprefix"] == "$"  # dollars on the axis, as on the TCO chart
    # the log axis's ticks in full numbers, spanning the points (Plotly's own had read 20 to 70 as bare '2' to '7')
    ticks = fig["layout"]["xaxis"]["ticktext"]
    assert fig["layout"]["xaxis"]["type"] == "log" and len(ticks) >= 2
    assert all(float(t.replace(",", "")) >= 1 for t in ticks)
    assert _figure(at, tr("ec_tco_title"))["layout"]["yaxis"]["tickprefix"] == "$"
    for f in (fig, _figure(at, tr("ec_tco_title"))):  # legends below the plot, as on the other pages (they sat on top)
        legend = f["layout"]["legend"]  # pinned under the axis title (common.legend_placement)
        assert (legend["orientation"], legend["yref"], legend["yanchor"]) == ("h", "container", "bottom")
    note = tr("price_basis_note", basis=tr("basis_hyperscaler"), as_of="2026-09-20")
    assert any(note in m.value for m in at.markdown if tr("ec_rf_h") not in m.value)


def test_revenue_frontier_table_carries_basis_and_date():
    e = estimate(resolve_model("llama-3.1-8b"), resolve_hardware("mi355x"), Scenario(batch=8, price_basis="neocloud"),
                 resolve_profile("typical"))  # fmt: skip
    r = revenue(float(e.output_tokens_per_s_per_gpu), 4.0, ApiPrice(), e.price_usd_per_gpu_hour,
                all_in_w=e.all_in_w_per_gpu)  # fmt: skip
    t = econ_figs.revenue_frontier_table([1.0], [float(e.output_tokens_per_s_per_gpu)], [8], [r], "mi355x",
                                         e.price.basis, e.price.as_of)  # fmt: skip
    assert list(t["price_basis"]) == ["neocloud"] and list(t["price_as_of"]) == ["2026-08"]
    assert t["cost_usd_per_gpu_hour"][0] == 2.09
    assert t["revenue_usd_per_mw_hour"][0] == pytest.approx(t["revenue_usd_per_gpu_hour"][0] * 1e6 / 2090.0)


def test_revenue_table_states_what_the_revenue_rests_on():
    """The revenue CSV's row carries the API prices, the cached share, the output rate and input tokens per output
    token it is computed from (a review: the file named none of them), and revenue = rate x 3600 x (out price +
    ratio x (cached share x cached price + the rest x input price)) / 1e6."""
    api = ApiPrice(2.0, 8.0, 0.5)
    r = revenue(1000.0, 4.0, api, 1.5, cached_input_fraction=0.25, all_in_w=2090.0)
    row = econ_figs.revenue_table(r, api, 0.25, 1000.0, 4.0, 12.0).iloc[0]
    assert (row.api_input_usd_per_1M_tokens, row.api_output_usd_per_1M_tokens) == (2.0, 8.0)
    assert (row.api_cached_input_usd_per_1M_tokens, row.cached_input_fraction) == (0.5, 0.25)
    assert (row.output_tokens_per_s_per_gpu, row.input_tokens_per_output_token, row.payback_months) == (1000, 4, 12)
    per_1m = 8.0 + 4.0 * (0.25 * 0.5 + 0.75 * 2.0)
    assert row.revenue_usd_per_gpu_hour == pytest.approx(1000.0 * 3600 * per_1m / 1e6)
    assert row.cost_usd_per_gpu_hour == 1.5


def test_demand_as_requests_per_day_uses_the_sidebar_lengths():
    """100 M requests a day of 2,048 + 512 tokens = 51.2 B output and 204.8 B input tokens a day: the same fleet as
    that demand typed in tokens."""
    at = run_page("economics", **Q)
    at.radio(key="econ.by_requests").set_value(True).run()
    assert not at.exception
    by_requests = at.table[0].value
    assert any("51.2 billion" in m.value and "205 billion" in m.value for m in at.markdown)
    at.radio(key="econ.by_requests").set_value(False).run()
    at.number_input(key="econ.out").set_value(51.2).run()
    at.number_input(key="econ.in").set_value(204.8).run()
    assert by_requests.equals(at.table[0].value)


def test_a_demand_of_another_token_mix_says_the_prompt_it_sizes_with():
    """The demand typed in tokens with another input per output than the sidebar's requests (2,048 / 512 = 4): the
    fleet is sized with the demand's prompt (1 input per output: 512 tokens per request of 512 output), and the page
    says so under the chart; with the sidebar's own mix it says nothing."""
    at = run_page("economics", **Q)
    at.radio(key="econ.by_requests").set_value(False).run()
    at.number_input(key="econ.out").set_value(50.0).run()
    at.number_input(key="econ.in").set_value(200.0).run()
    said = EN("ec_cap_prompt", prompt="512", context="2K", ratio="1", output="512").split(":")[0]
    assert not [c for c in at.caption if c.value.startswith(said.split(",")[0])]
    at.number_input(key="econ.in").set_value(50.0).run()
    assert not at.exception
    assert said in [c.value.split(":")[0] for c in at.caption], [c.value for c in at.caption]


def test_embed_holds_the_demand_while_its_section_is_closed():
    """In the embed view the demand, target and chips wait in the closed "This page's settings" section (sent once
    opened, issue 19: a wiki reader pays for no input it does not open); set there, they hold once it is closed
    again: the capacity table is the one for that demand, the same as the full view's for it."""
    at = run_page("economics", **Q, embedded=True)
    assert not at.exception and not at.number_input and not at.multiselect
    default = at.table[0].value
    at.session_state["embed.page_controls"] = True
    at.run()
    at.number_input(key="econ.out").set_value(51.2).run()
    at.multiselect(key="econ.chips").set_value(["h200", "b200"]).run()
    at.session_state["embed.page_controls"] = False
    at.run()
    assert not at.exception and not at.number_input
    table = at.table[0].value
    assert len(table.columns) == 1 + 2 and not table.equals(default)  # a column per chip
    # with its inputs folded away, the chart's caption says the demand its megawatts serve (third review)
    lead = EN("ec_cap_for", out="51.2 billion", inp="", target="", peak="", util="").split(" and ")[0]
    assert len([c for c in at.caption if c.value.startswith(lead)]) == 1, lead
    full = run_page("economics", **Q)
    full.number_input(key="econ.out").set_value(51.2).run()
    full.multiselect(key="econ.chips").set_value(["h200", "b200"]).run()
    assert table.equals(full.table[0].value)


def test_revenue_curve_says_where_memory_ends_it():
    """Browser review: 'as concurrency grows from 1 to 1,024' above a curve that stops at 192 (larger batches do not
    fit 2 x H200 with Llama 3.1 70B at 4K + 1K): the intro names the curve's own end and why."""
    at = run_page("economics", model="llama-3.1-70b", hardware="h200", gpus="2", weights="fp8", kv="fp8")
    assert not at.exception
    (intro,) = [m.value for m in at.markdown if EN("ec_rf_memory_end", chunk="8K") in m.value]
    # the exact limit (continuous batching keeps room for a prefill chunk), not the sweep's last point below it
    # (192, beside the KV page's larger max batch)
    est = estimate(
        resolve_model("llama-3.1-70b"), resolve_hardware("h200"),
        Scenario(num_gpus=2, weights="fp8", kv_cache="fp8", batch=1, context_tokens=4096, output_tokens=1024,
                 batching="continuous"), resolve_profile("typical"),
    )  # fmt: skip
    assert "to 1,024" not in intro and f"to {fmt.integer(float(est.max_batch))} (" in intro, intro
    assert 192 < float(est.max_batch) < 384


def test_gaudi3_tco_starts_from_its_published_list_price():
    """No TCO tier for Gaudi 3: the capex starts from Intel's $15,625 per accelerator (2024-06-04), said so, and the
    result is economics.tco of those parts (900 W board, the generic financing)."""
    at = run_page("economics", **{**Q, "hardware": "gaudi3"})
    assert not at.exception
    assert any("15,625" in i.value and "2024-06-04" in i.value for i in at.info)
    capex = next(n for n in at.number_input if n.key and n.key.endswith(".capex_usd"))
    assert capex.value == 15625.0
    expected = tco(TcoParts(15625.0, board_w=resolve_hardware("gaudi3").tdp_w)).usd_per_gpu_hour
    assert _usd(_metric(at, EN("ec_m_tco_chip"))) == pytest.approx(expected, abs=0.006)  # per chip-hour: an accelerator


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_embed_draws_every_economics_view_with_its_csv(lang):
    """In the embed: capacity, TCO breakdown and revenue along the frontier drawn, each with its CSV download (in the
    downloads section at the end of the page)."""
    at = run_page("economics", **Q, embedded=True, lang=lang, more="true")  # the whole page, not only above its fold
    assert not at.exception
    at.session_state["embed.downloads"] = True  # the charts' downloads: in the section at the end of the embed view
    at.run()
    keys = {b.proto.id for b in at.get("download_button")}
    labels = [b.label for b in at.get("download_button")]
    assert labels.count(Translator(lang)("download_csv")) >= 3, (keys, labels)
    assert len(figures(at)) == 3


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("hw", ["tpu7x", "trainium2"])
def test_tpus_and_trainium_are_priced_per_chip_hour(lang, hw):
    """Issue 19: with a TPU or Trainium in the sidebar, the TCO and revenue-frontier charts (titles, axes) and the
    page's per-device metrics say chip (chip-hour), not GPU; the fleet chart's hover names each bar's own word."""
    tr = Translator(lang)
    at = run_page("economics", lang=lang, hardware=hw)
    assert not at.exception
    words = []
    for f in figures(at):
        layout = f["layout"]
        words += [layout.get(k, {}).get("title", {}).get("text", "") for k in ("xaxis", "yaxis")]
        words.append(layout.get("title", {}).get("text", ""))
    # both chips' TDP is the catalog's estimate, and with no published all-in power the parts start from it
    tco_title = tr("tdp_estimate_title", title=tr("ec_tco_title_chip"))
    assert tco_title in words and tr("ec_axis_usd_gpu_hour_chip") in words
    assert not [w for w in words if "GPU" in w], words
    labels = [m.label for m in at.metric]
    assert tr("ec_m_tco_chip") in labels and tr("ec_m_all_in_chip") in labels
    assert tr("ec_m_tco") not in labels
    devices = {"tpu7x": "chip", "h200": "gpu"}
    fig = econ_figs.capacity_figure(
        pd.DataFrame([{"hardware": n, "hardware_id": n, "megawatts_all_in": 1.0, "gpus": 8} for n in devices]),
        devices=devices, tr=tr,
    )  # fmt: skip
    hovers = [t.hovertemplate for t in fig.data]
    assert hovers[0].endswith(f",}} {tr('ec_unit_gpus_chip')}<extra></extra>")  # '%{customdata[0]:,} chips'
    assert tr("ec_unit_gpus") in hovers[1] and tr("ec_unit_gpus_chip") not in hovers[1]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_revenue_without_a_price_or_all_in_power_says_so_not_n_a(lang):
    """Issue 20: Trainium2 has no public hyperscaler price and no published all-in power. The revenue sentence says
    there is no public price (was 'at n/a per GPU-hour'), the margin reads 'No public price', the payback 'No
    published capex' (an owner's figure) and revenue per MW-hour 'No public all-in power' (were 'n/a'), the notice
    and its one click to enter a price are there, and the tokens-per-MW line names the missing power. Revenue per chip-hour and per rack-hour need no price and stay $.
    Once the click switched to 'Your own' with nothing entered, the sentence says none is entered. Both sentences
    (the revenue's and the frontier's) name the basis the price is missing under, in the notice's words."""
    tr = Translator(lang)
    missing = {  # fmt.no_price_fact: the on-demand basis prices it, the hyperscaler one not
        "en": "No public price for AWS Trainium2 under the basis 'Hyperscaler TCO'",
        "zh-TW": "AWS Trainium2 在「超大規模業者 TCO」價格基準下沒有公開價格",
    }[lang]
    at = run_page("economics", lang=lang, hardware="trainium2", price_basis="hyperscaler")
    assert not at.exception
    est = estimate(
        resolve_model("llama-3.1-70b"),
        resolve_hardware("trainium2"),
        Scenario(
            batch=32,
            context_tokens=4096,
            output_tokens=1024,
            num_gpus=2,
            weights="fp8",
            kv_cache="bf16",
            price_basis="hyperscaler",
        ),
        resolve_profile("typical"),
    )  # the sidebar's
    rate = fmt.rate(float(est.output_tokens_per_s_per_gpu))  # fmt: skip
    intro = tr("ec_rev_intro_no_price_chip", rate=rate, batch=fmt.integer(est.scenario.batch), ratio="4.00",
               no_price=missing)  # fmt: skip
    assert {
        "en": f"{missing}: revenue is shown, the margin needs a price.",
        "zh-TW": f"{missing}：僅顯示營收，毛利需要價格。",
    }[lang] in intro
    assert intro in [m.value for m in at.markdown]
    values = {m.label: (m.value, m.delta) for m in at.metric}  # a dash and why under it (a 5-column row cuts text)
    assert values[tr("ec_m_margin")] == ("—", tr("no_public_price_short"))
    assert values[tr("ec_m_payback")] == ("—", tr("no_public_capex_short"))  # an owner's: the capex is what is missing
    assert values[tr("ec_m_rev_mw")] == ("—", tr("no_public_power_short"))
    assert values[tr("ec_m_rev_chip")][0].startswith("$") and values[tr("ec_m_rev_rack")][0].startswith("$")
    assert not [v for v, _ in values.values() if v in ("n/a", tr("fr_na"))]
    payback_help = next(m.help for m in at.metric if m.label == tr("ec_m_payback"))
    # no capex: why, and where to give one (the why in the capex's place had read 'the TCO parts above (No public
    # capex)': a review)
    assert payback_help == tr("ec_payback_def_none", why=tr("no_public_capex_short"))
    notice = fmt.no_price_text(est.price, est.hardware, fmt.device_tr(est.hardware, tr))  # its words: test_fmt
    assert notice in [i.value for i in at.info]
    assert tr("m_tokens_per_mw_none_chip") in [c.value for c in at.caption]
    assert not [m.value for m in at.markdown if "n/a" in m.value or tr("fr_na") in m.value]
    # the curve's end: the most in flight that fits 2 x Trainium2 (continuous batching), not the sweep's 1,024
    from dataclasses import replace as _replace

    from ui.figures import frontier as frontier_figs

    limit = estimate(est.model, est.hardware, _replace(est.scenario, batching="continuous"), est.profile).max_batch
    grid = frontier_figs.concurrency_grid(32, float(limit))
    served = estimate(est.model, est.hardware, _replace(est.scenario, batch=grid, batching="continuous"), est.profile)
    end = grid[np.asarray(served.fits, dtype=bool)][-1]
    assert end == float(limit) < 1024  # the curve ends at the limit itself
    cmax = fmt.integer(end) + tr("ec_rf_memory_end", chunk="8K")
    rf = tr("ec_rf_intro_no_price_chip", hw="AWS Trainium2", devices="2 chips" if lang == "en" else "2 顆晶片", weights="fp8", input=fmt.tokens(4096),
            output=fmt.tokens(1024), cmax=cmax, no_price=missing)  # fmt: skip
    assert rf.endswith({"en": f"{missing}: no cost line.", "zh-TW": f"{missing}：沒有成本線。"}[lang])
    assert rf in [m.value for m in at.markdown]  # no dashed cost line to speak of
    at.button(key="econ.no_price").click().run()  # 'Enter my own $/chip-hour'
    assert not at.exception
    own = {  # markdown: the $ escaped (a bare $ ... $ reads as LaTeX)
        "en": "The price basis is 'Your own' but no \\$/chip-hour is entered",
        "zh-TW": "價格基準為「自訂」，但尚未輸入每晶片小時價格",
    }[lang]
    said = [m.value for m in at.markdown]
    assert tr("ec_rev_intro_no_price_chip", rate=rate, batch=fmt.integer(est.scenario.batch), ratio="4.00",
              no_price=own) in said  # fmt: skip
    assert any(m.endswith({"en": f"{own}: no cost line.", "zh-TW": f"{own}：沒有成本線。"}[lang]) for m in said), said
    # the margin's note asks for the price, in the chip's word (it had read 'No public price')
    (margin,) = [m for m in at.metric if m.label == tr("ec_m_margin")]
    assert (margin.value, margin.proto.delta, margin.help) == ("—", tr("own_price_chip"), tr("no_own_price_chip"))


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_economics_words_follow_the_chips_and_unpriced_candidates_are_named(lang):
    """Issue 19: with a TPU in the sidebar, the page's intro, the TCO button and the TCO intro say chip(-hour); the
    capacity caption says chips once a candidate is a TPU or Trainium (GPUs for GPU candidates). Issue 20: the
    candidates without a price under the basis (Trainium2) and without a published all-in power (Trainium2, TPU7x)
    are named under the capacity table, not left as empty cells."""
    tr = Translator(lang)
    at = run_page("economics", lang=lang, hardware="tpu7x", price_basis="hyperscaler")
    assert not at.exception
    captions = [c.value for c in at.caption]
    # the candidates start with the sidebar's TPU7x (then H200, B200, MI355X): chips (the layout search's fleets,
    # the page's default, within 72 of them)
    help_ = tr("ec_cap_help_search_chip", tier=tr("basis_hyperscaler"), max="144",
               budget=fmt.devices(resolve_hardware("tpu7x"), 72, tr), **_counting(tr, chip=True))  # fmt: skip
    assert tr("ec_caption_chip") in captions and help_ in captions, captions
    assert at.multiselect(key="econ.chips").value[:2] == ["tpu7x", "h200"]
    assert tr("ec_use_tco_chip", hw="Google TPU7x (Ironwood)") in [b.label for b in at.button]
    # TPU7x: a published hyperscaler price ($1.03 per chip-hour) but no published all-in power: the TCO parts say
    # why they are generic (not 'no published TCO price'), revenue per MW-hour says which figure is missing
    infos = [i.value for i in at.info]
    tail = tr("ec_tco_no_power_chip").split("{note}")[1]  # "), but not its all-in power, ..."
    assert any(i.startswith("Google TPU7x (Ironwood)") and "$1.03" in i and i.endswith(tail) for i in infos), infos
    assert tr("ec_tco_no_tier", hw="Google TPU7x (Ironwood)") not in infos
    values = {m.label: (m.value, m.delta) for m in at.metric}
    assert values[tr("ec_m_rev_mw")] == ("—", tr("no_public_power_short"))
    assert values[tr("ec_m_margin")][0].endswith("%")  # priced: the margin is there, and the price it nets
    assert values[tr("ec_m_margin")][1].startswith(tr("ec_m_margin_at_chip", usd="$", basis="").split("$")[0])
    # the payback's capex is solved from the hyperscaler price and the all-in power: the power is what is missing
    assert values[tr("ec_m_payback")] == ("—", tr("no_public_power_short"))
    at.multiselect(key="econ.chips").set_value(["h200", "b200"]).run()  # GPU candidates only: GPUs
    gpus72 = fmt.devices(resolve_hardware("h200"), 72, tr)
    help_ = tr("ec_cap_help_search", tier=tr("basis_hyperscaler"), max="144", budget=gpus72, **_counting(tr))
    assert not at.exception and help_ in [c.value for c in at.caption]
    at.multiselect(key="econ.chips").set_value(["h200", "trainium2", "tpu7x"]).run()
    assert not at.exception
    captions = [c.value for c in at.caption]
    chips72 = fmt.devices(resolve_hardware("tpu7x"), 72, tr)
    assert tr("ec_cap_help_search_chip", tier=tr("basis_hyperscaler"), max="144", budget=chips72,
              **_counting(tr, chip=True)) in captions  # fmt: skip
    unpriced = tr("cost_basis_unpriced_chip", hws="AWS Trainium2", bases=tr("basis_on_demand"),
                  where=tr("basis_where_sidebar"))  # fmt: skip
    assert any(c.endswith(unpriced) for c in captions), captions
    assert tr("ec_cap_no_power", hws=tr.join(["AWS Trainium2", "Google TPU7x (Ironwood)"])) in captions


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_payback_repays_the_capex_whatever_the_margins_price_basis(lang):
    """DeepSeek-R1 FP8 on 8 x B200 at batch 64, margin read against the on-demand price: the revenue per GPU-hour is
    below the rental price, so the margin is negative. The payback is an owner's: the TCO parts' capex repaid by the
    revenue net of their energy (economics.payback_months), a number of months; it had netted the rental price and
    read 'Never' (helper review). Llama-3.1-405B at batch 1 on 8 x H100 earns less than its energy: 'Never', and why."""
    from dataclasses import replace

    from tpot_model.economics import payback_months, tco_preset

    tr = Translator(lang)
    q = dict(model="deepseek-r1", hardware="b200", gpus="8", weights="fp8", kv="fp8", batch="64")
    at = run_page("economics", lang=lang, **q)
    assert not at.exception, at.exception
    values = {m.label: (m.value, m.delta) for m in at.metric}
    assert values[tr("ec_m_margin")][0].startswith("−")  # a minus sign, not a hyphen
    hw = resolve_hardware("b200")
    parts = tco_preset(hw.prices.price("hyperscaler").usd_per_gpu_hour, hw.prices.all_in_w, hw.tdp_w)
    parts = replace(parts, capex_usd=float(round(parts.capex_usd)))  # as the page's whole-dollar input holds it
    s = Scenario(batch=64, context_tokens=4096, output_tokens=1024, num_gpus=8, weights="fp8", kv_cache="fp8")
    out = float(estimate(resolve_model("deepseek-r1"), hw, s, resolve_profile("typical")).output_tokens_per_s_per_gpu)
    months = payback_months(revenue(out, 4.0, ApiPrice(), 0.0).revenue_usd_per_gpu_hour, parts)
    assert values[tr("ec_m_payback")][0] == fmt.number(months) and 1 < months < 1000
    at = run_page("economics", lang=lang, model="llama-3.1-405b", hardware="h100-sxm", gpus="8", weights="fp8",
                  batch="1")  # fmt: skip
    assert not at.exception, at.exception
    values = {m.label: (m.value, m.delta) for m in at.metric}
    assert values[tr("ec_m_payback")] == (tr("ec_payback_never"), tr("ec_payback_never_why"))


def test_tco_inputs_show_whole_numbers_and_one_decimal_not_two():
    """The TCO inputs read '36899.00' W-style with spurious decimals (helper review): capex and watts as whole
    numbers, years and the cost of capital with one decimal."""
    at = run_page("economics")
    assert not at.exception, at.exception
    formats = {w.key: w.proto.format for w in at.number_input}
    assert [formats[k] for k in formats if k.endswith(("capex_usd", "board_w", "host_network_w"))] == ["%.0f"] * 3
    assert [formats[k] for k in formats if k.endswith(("years", "capital_pct"))] == ["%.1f"] * 2
    # demand and targets as typed, no spurious decimals ('1000', not '1000.00': helper review)
    assert [formats[k] for k in ("econ.out", "econ.in", "econ.tpot") if k in formats] == ["%g"] * 3
    frontier = run_page("frontier")
    assert {w.key: w.proto.format for w in frontier.number_input}["frontier.target"] == "%g"


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_chart_captions_state_what_each_chart_is_priced_at(lang):
    """The TCO chart's caption gave the sidebar's on-demand $6.03 beside bars that add up to the TCO built on the
    page ($1.73); the capacity chart of B200, H200 and MI355X named only '8 × B200' and its price (helper review)."""
    import json

    tr = Translator(lang)
    at = run_page("economics", lang=lang, model="deepseek-r1", hardware="b200", gpus="8", weights="fp8", kv="fp8")
    assert not at.exception, at.exception
    decor = {p["export"]["filename"].split("_")[0]: json.dumps(p["export"]["decor"], ensure_ascii=False)
             for p in (json.loads(el.proto.bytes) for el in at.get("bidi_component") if el.proto.bytes)}  # fmt: skip
    tco_usd = next(m.value for m in at.metric if m.label == fmt.device_text("ec_m_tco", resolve_hardware("b200"), tr))
    assert tco_usd in decor["tco"] and tr("basis_tco_parts") in decor["tco"] and "$6.03" not in decor["tco"]
    chips = tr.join(["B200", "H200 SXM 141GB", "MI355X"])
    assert tr("export_device_chosen", hw=chips) in decor["capacity"]
    assert tr("export_price_each_chip", basis=tr("basis_on_demand")) in decor["capacity"]


def test_gross_margin_says_which_price_it_nets():
    """The gross margin nets the sidebar's price (on-demand $6.03 for B200) while the TCO built above reads $1.73: the
    margin states the price and basis it is computed at (an analyst read the two as contradictory)."""
    at = run_page("economics", model="deepseek-r1", hardware="b200", gpus="8", weights="fp8", kv="fp8")
    assert not at.exception, at.exception
    value, note = next((m.value, m.delta) for m in at.metric if m.label == EN("ec_m_margin"))
    assert value.endswith("%") and note == EN("ec_m_margin_at", usd="$6.03", basis=EN("basis_on_demand"))


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_model_that_fits_no_chip_says_so_not_raise_the_target(lang):
    """Browser review: Kimi K2 in BF16 (about 2 TB) on H200, B200 and MI355X (domains of 8) fits none of them; the
    warning had said 'raise the target', and the table 'memory', the word for a batch that memory caps. It says the
    model does not fit, with what would help; each row says 'does not fit'."""
    tr = Translator(lang)
    at = run_page("economics", lang=lang, model="kimi-k2", weights="bf16", ec_replicas="tp")  # one domain's TP
    assert not at.exception, at.exception
    assert [w.value for w in at.warning] == [tr("ec_cap_no_fit")]
    (table,) = [d.value for d in at.table if tr("ec_col_figure") in d.value.columns]
    limited = table.set_index(tr("ec_col_figure")).loc[tr("ec_col_limited_by")]
    assert set(limited) == {tr("pl_limit_no_fit")}
    assert tr("ec_cap_title") not in [f["layout"]["title"]["text"] for f in figures(at)]  # no chart of empty bars
    slo = run_page("economics", lang=lang)  # fits, but misses a 1 ms target: the target is what to change
    slo.number_input(key="econ.tpot").set_value(1.0).run()
    (said,) = [w.value for w in slo.warning]
    assert said.startswith(tr("ec_cap_none"))
    # and how near each chip comes: batch 1 on its fastest GPU count, every one slower than the 1 ms it misses
    chips = slo.session_state["econ.chips"]
    assert chips
    times = [float(t) for t in re.findall(r"TPOT ([0-9.]+) ms", said)]
    assert len(times) == len(chips) and all(t > 1.0 for t in times), said


def test_a_link_carries_the_pages_own_inputs_and_a_bad_one_is_named():
    """The demand, target, chips and API prices are in the view's link (a wiki link reproduces the capacity plan):
    read on the first visit, written back on a change; a bad value falls back to the default with a notice naming
    the parameter, in both languages."""
    from ui import page_state

    linked = dict(ec_demand="requests", ec_req="5", ec_tpot_ms="20", ec_chips="b200,mi355x", ec_api_out="2.5")
    at = run_page("economics", **Q, **linked)
    assert not at.exception
    assert at.radio(key="econ.by_requests").value is True and at.number_input(key="econ.req").value == 5
    assert at.number_input(key="econ.tpot").value == 20 and at.multiselect(key="econ.chips").value == ["b200", "mi355x"]
    assert at.number_input(key="econ.api_out").value == 2.5
    assert len(at.table[0].value.columns) == 1 + 2  # a column per chip linked
    assert {k: at.query_params[k] for k in linked} == linked  # the link as given, unchanged
    at.number_input(key="econ.tpot").set_value(30.0).run()
    assert at.query_params["ec_tpot_ms"] == "30" and at.query_params["ec_chips"] == "b200,mi355x"
    # the link written reads back as the same inputs
    back, bad = page_state.parse_economics_query({k: at.query_params[k] for k in at.query_params}, {"b200", "mi355x"})
    assert not bad and back.tpot == 30 and back.chips == ("b200", "mi355x") and back.by_requests and back.req == 5
    for lang, tr in (("en", EN), ("zh-TW", ZH)):
        bad_at = run_page("economics", **{**Q, "lang": lang}, ec_util="2", ec_chips="b200,nope")
        util, chips = (control_name(tr(key), key, tr) for key in ("ec_util", "ec_chips"))
        # the notice quotes the chip it could not read, not the whole list (which read as every chip bad)
        assert [w.value for w in bad_at.warning] == [
            tr("notice_link_many", n=2)
            + f"\n\n- {tr.sentences([tr('notice_bad_param', name=util, given='2', used='0.7'), tr('notice_allowed', lo='0.05', hi='1')])}"
            + f"\n- {tr('notice_bad_param', name=chips, given='nope', used='B200')}"
        ]
        assert bad_at.number_input(key="econ.util").value == 0.7
        assert bad_at.multiselect(key="econ.chips").value == ["b200"]


def test_a_wiki_readers_run_of_its_link_writes_no_url():
    """Embedded, the link as given is the view: its run writes none of the page's parameters (a message to every
    reader); the full view writes them, the chips the sidebar's first and the default three."""
    at = run_page("economics", **Q, embedded=True)
    assert not at.exception and not any(k.startswith("ec_") for k in at.query_params)
    full = run_page("economics", **Q)
    assert full.query_params["ec_chips"] == "mi355x,h200,b200" and full.query_params["ec_demand"] == "tokens"


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_revenue_of_a_scenario_that_does_not_fit_is_marked_if_it_fitted(lang):
    """Llama-3.1-405B in BF16 on one RTX 4090 does not fit: its revenue per GPU-hour, MW-hour and rack-hour came out
    as plain figures (helper review); as on every other page they are greyed and marked 'if it fitted', and so is
    the sentence above them, which quotes the throughput, says so first."""
    tr = Translator(lang)
    at = run_page("economics", lang=lang, model="llama-3.1-405b", hardware="rtx-4090", gpus="1", weights="bf16",
                  batch="1")  # fmt: skip
    assert not at.exception, at.exception
    values = {m.label: (m.value, m.delta) for m in at.metric}
    for label in (tr("ec_m_rev"), tr("ec_m_rev_rack")):
        value, note = values[label]
        assert value.startswith(":gray[\\$") and note == tr("if_fitted"), (label, value, note)
    assert any(m.value.startswith(tr("if_fitted_lead")) and tr("ec_rev_intro").split("{")[0][:8] in m.value
               for m in at.markdown)  # fmt: skip
    # the red notice says by how much and what would fit, as on every page of the sidebar's scenario (second review:
    # a margin of -160 % beside a payback, and no word why)
    (error,) = [e.value for e in at.error]
    assert (
        error.startswith(tr("does_not_fit").split("{")[0]) and tr("remedy_gpus", n=64, batch="1") in error
    )  # 815 GB over 17.2 GB usable: 47, 64


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_tokens_per_mw_names_the_rate_it_counts(lang):
    """Browser review: Overview and Cost say 'Tokens/s per MW: 523 K' (the static batch's tokens/s), Economics said
    'Tokens/s per MW: 360 K' under the same words, at the revenue's own rate (output tokens with each request's
    prefill counted): it names that rate, and its number is that rate over the all-in power."""
    tr = Translator(lang)
    at = run_page("economics", lang=lang)
    assert not at.exception
    label = tr("m_tokens_per_mw_served")
    (line,) = [c.value for c in at.caption if label in c.value]
    assert tr("m_tokens_per_mw") + tr("label_colon") not in line
    est = estimate(resolve_model("llama-3.1-70b"), resolve_hardware("h200"),
                   Scenario(num_gpus=2, weights="fp8", batch=32, context_tokens=4096, output_tokens=1024),
                   resolve_profile("typical"))  # fmt: skip
    per_mw = float(est.output_tokens_per_s_per_gpu) * 1e6 / float(est.all_in_w_per_gpu)
    assert f"{label}{tr('label_colon')}{fmt.rate(per_mw)}" in line


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_chip_that_holds_no_layout_says_what_would_fit(lang):
    """A helper review: Llama-3.1-405B BF16: Economics' H100 row read 'does not fit' with nothing else where
    `capacity` says 'fits with fp8 weights (--weights fp8)': the page says it too (one owner: fleet.widest_no_fit)."""
    tr = Translator(lang)
    q = dict(model="llama-3.1-405b", hardware="h100-sxm", gpus="1", weights="bf16", kv="bf16", batch="32",
             context="4096", output="1024")  # fmt: skip
    at = run_page("economics", lang=lang, ec_replicas="tp", **q)
    assert not at.exception
    eight = "8 GPUs" if lang == "en" else "8 張 GPU"
    want = tr("ec_cap_fits_with", hw="NVIDIA H100 SXM5 80GB", devices=eight, formats=tr("ec_fmt_weights", fmt="fp8"))
    assert want in [c.value for c in at.caption], [c.value for c in at.caption]
    # the layout search within a budget of 8 says it of its budget, with the smallest budget that holds the model
    # (within 72 it fits 16 H100s), as `capacity --max-gpus 8` does: 'needs >= 16 GPUs (--max-gpus 16), or lower
    # precision e.g. fp8 weights'; the chips grouped, the budget said once (a sentence per chip had repeated it)
    at = run_page("economics", lang=lang, ec_max_gpus="8", **q)
    said = {
        "en": "No layout within the layout search's budget (8 GPUs) holds the model on H100 SXM5 80GB. The smallest "
        "budget that holds it: 16 GPUs on H100 SXM5 80GB. Or, within 8 GPUs, a lower precision: fp8 weights on H100 "
        "SXM5 80GB.",
        "zh-TW": "在配置搜尋的預算（8 張 GPU）內，沒有任何配置能在 H100 SXM5 80GB 上放下此模型。能放下它的最小預算："
        "H100 SXM5 80GB 為 16 張 GPU。或在 8 張 GPU 內降低精度：H100 SXM5 80GB 用 fp8 權重。",
    }
    assert said[lang] in [c.value for c in at.caption], [c.value for c in at.caption]
    from tpot_model.cli_text import remedy
    from tpot_model.fleet import Demand, fleet, widest_no_fit

    model, h100 = resolve_model("llama-3.1-405b"), resolve_hardware("h100-sxm")
    scen = Scenario(context_tokens=4096, output_tokens=1024, weights="bf16", kv_cache="bf16")
    f = fleet(model, h100, scen, None, Demand(1e12, 4e12, 1.5, 0.7), 50e-3, max_gpus=8)
    cli = remedy(widest_no_fit(model, h100, scen, None, f), gpus_flag="--max-gpus", budget=8)
    assert "needs >= 16 GPUs" in cli and "fp8 weights" in cli, cli  # the CLI's words for the same chip
    assert not any(tr("ec_cap_fits_with", hw="\0", devices="\0", formats="\0").split("\0")[1] in c.value
                   for c in run_page("economics", lang=lang, **q).caption)  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_tpu_rack_is_its_64_chips_not_its_9216_chip_pod(lang):
    """TPU7x's scale-up domain is a 9,216-chip pod: 'chips per rack' had defaulted to it, and 'revenue per
    rack-hour' read 9,216 chips' worth ($140,903). A TPU7x rack holds 64 chips (Hot Chips 2025): the default and
    the rack-hour follow it, and the input's help says where the default comes from; an NVL72 rack stays 72."""
    tr = Translator(lang).for_device("chip")
    at = run_page("economics", lang=lang, hardware="tpu7x", model="llama-3.1-70b", weights="fp8", gpus="4")
    assert not at.exception, at.exception
    (rack,) = [n for n in at.number_input if n.label == tr("ec_rack_chip")]
    assert rack.value == 64 and rack.help == tr("ec_rack_help", n=64, hw="Google TPU7x (Ironwood)")
    per_chip, per_rack = (_usd(_metric(at, tr(key))) for key in ("ec_m_rev_chip", "ec_m_rev_rack"))
    assert per_rack == pytest.approx(64 * per_chip, rel=0.01)
    gb200 = run_page("economics", lang=lang, hardware="gb200")
    assert [n.value for n in gb200.number_input if n.label == Translator(lang)("ec_rack")] == [72]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_revenue_metric_says_which_rate_it_rests_on(lang):
    """Revenue per GPU-hour (and the margin, per MW- and rack-hour from it) rests on the sidebar's one batch, the
    fleet table on continuous batching at the target: two rates on one page, the metrics had said neither (a
    review: 493 against 641 output tok/s per GPU for Llama-3.1-70B FP8 on 2 x H200). Its help gives the rate, the
    batch and the formula, the same rate the sentence above quotes."""
    tr = Translator(lang)
    at = run_page("economics", lang=lang, **Q)
    assert not at.exception, at.exception
    (rev,) = [m for m in at.metric if m.label == tr("ec_m_rev")]
    rate = re.search(r"[\d,.]+ tok/s", next(m.value for m in at.markdown if "tok/s" in m.value)).group(0)
    assert rev.help == tr("ec_m_rev_def", rate=rate, batch="32")
    per_hour = _usd(rev.value)
    api_in, api_out = at.number_input(key="econ.api_in").value, at.number_input(key="econ.api_out").value
    tokens_s = float(rate.split()[0].replace(",", ""))
    assert per_hour == pytest.approx(tokens_s * 3600 * (api_out + 4.0 * api_in) / 1e6, rel=0.01)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_announced_chips_are_marked_wherever_the_fleet_names_them(lang):
    """A browser review: Vera Rubin NVL72 and MI455X, announced and not shipping, read as bare names on Economics
    ('Rubin NVL72' and 'MI455X' under the chart's bars and over the table's columns, the full names in the notes under
    it, the CSV's `hardware` column), where the Serving frontier and Planner mark them. Each now carries the mark
    those pages use (fmt.chip: 'Rubin NVL72 (announced)'), a shipped chip none; the CSV keeps the catalog's name and
    says it in a column of its own, as the CLI's capacity --json does (hardware_announced)."""
    tr = Translator(lang)
    ids = ("h200", "vr200", "mi455x")
    at = run_page("economics", **Q, lang=lang, ec_chips=",".join(ids))
    assert not at.exception, at.exception
    h200, *announced = (resolve_hardware(h) for h in ids)
    assert not h200.announced and all(h.announced for h in announced)
    marked = [tr("hw_announced_name", name=fmt.chip_short(h)) for h in announced]
    assert marked[0] == tr("hw_announced_name", name="Rubin NVL72")
    table = at.table[0].value
    assert list(table.columns) == [tr("ec_col_figure"), fmt.chip_short(h200), *marked]  # H200 SXM 141GB, unmarked
    mw = _figure(at, tr("ec_cap_title"))
    # the chart's labels: the table's columns (on lines: 'Rubin NVL72<br>(announced)')
    unwrapped = [b["y"][0].replace("<br>", " " if lang == "en" else "") for b in mw["data"]]
    assert unwrapped == list(table.columns[1:])
    hovers = [b["customdata"][0][1] for b in mw["data"]]
    assert hovers == [h200.name, *(fmt.chip(h, tr) for h in announced)]
    captions = [c.value for c in at.caption]
    full = [fmt.chip(h, tr) for h in announced]  # 'NVIDIA Rubin (per GPU, Vera Rubin NVL72) (announced)'
    assert tr("ec_cap_no_power", hws=tr.join(full)) in captions  # no published all-in power: named, marked
    unpriced = next(c for c in captions if all(n in c for n in full))  # no public price under the basis: the same
    assert tr.join(full) in unpriced
    for h in announced:  # nowhere under the table a bare name
        said = " ".join(captions)
        assert said.count(h.name) == said.count(fmt.chip(h, tr)) > 0, h.id


def test_the_capacity_csv_says_which_chips_are_announced_in_a_column_of_its_own():
    """The capacity CSV's `hardware` column had read 'NVIDIA Rubin (per GPU, Vera Rubin NVL72)' and 'AMD Instinct
    MI455X (Helios)' with nothing to say they are projections: a column says so (True for them, False for a shipped
    chip), the name left as the catalog's so that the file joins on it."""
    import io

    from tpot_model.fleet import Demand, fleets
    from tpot_model.units import ms
    from ui import export

    hws = [resolve_hardware(h) for h in ("h200", "vr200", "mi455x")]
    demand = Demand(1e11, 4e11)
    s = Scenario(context_tokens=4096, output_tokens=1024, weights="fp8", price_basis="hyperscaler")
    table = econ_figs.capacity_table(
        fleets(resolve_model("llama-3.1-70b"), hws, s, resolve_profile("typical"), demand, 50 * ms),
        demand, {h.id: h.name for h in hws},
    )  # fmt: skip
    csv = pd.read_csv(io.BytesIO(export.csv_bytes(table, None, export.stamp(lang="en"))), encoding="utf-8-sig")
    assert list(csv.columns[:3]) == ["hardware", "hardware_id", "hardware_announced"]
    assert csv["hardware"].tolist() == [h.name for h in hws]  # the catalog's names, no mark in them
    assert csv["hardware_announced"].tolist() == [False, True, True]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_no_all_in_power_beside_two_adjacent_empty_rows_reads_whole(lang):
    """A browser review, zh-TW at 900 px: '無公開全口徑功耗' under the empty slots of Rubin NVL72 and MI455X, side by
    side, ran into each other and read as one string. The chart's bars are rows now (capacity_figure): each chip
    without a bar says why on its own row, from the axis, whole on one line, the words used elsewhere."""
    tr = Translator(lang)
    at = run_page("economics", **Q, lang=lang, ec_chips="h200,vr200,mi455x")
    assert not at.exception, at.exception
    fig = _figure(at, tr("ec_cap_title"))
    notes = {a["y"].replace("<br>", " " if lang == "en" else ""): a for a in fig["layout"]["annotations"]}
    rubin, mi455x = (tr("hw_announced_name", name=n) for n in ("Rubin NVL72", "MI455X"))
    assert notes[rubin]["text"] == notes[mi455x]["text"] == tr("no_public_power_short")
    assert all(n["x"] == 0 and n["xanchor"] == "left" for n in notes.values())
    assert [b["orientation"] for b in fig["data"]] == ["h"] * 3 and fig["layout"]["yaxis"]["autorange"] == "reversed"


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_an_announced_sidebar_chip_is_marked_in_the_tco_and_revenue(lang):
    """With Vera Rubin NVL72 in the sidebar, Economics had said nothing of its being announced, not shipping (the
    Planner says so under its scenario line), and its TCO and revenue sections and the revenue-frontier chart named
    it bare. The notice is there, and the page names it "(announced)" (fmt.chip) in its sentences, its button and the
    chart's title and legend; a shipped chip is named as before."""
    tr = Translator(lang)
    rubin = resolve_hardware("vr200")
    at = run_page("economics", **{**Q, "hardware": "vr200"}, lang=lang)
    assert not at.exception, at.exception
    notice = tr("announced_notice", hw=rubin.name)
    assert notice in [i.value for i in at.info]
    marked = fmt.chip(rubin, tr)  # 'NVIDIA Rubin (per GPU, Vera Rubin NVL72) (announced)'
    said = (
        [m.value for m in at.markdown] + [b.label for b in at.button] + [i.value for i in at.info if i.value != notice]
    )
    page = [s for s in said if rubin.name in s]
    assert page, said
    # every sentence that names it marks it (the shared no-price notice too: fmt.no_price_text names it by fmt.chip)
    assert all(s.count(rubin.name) == s.count(marked) for s in page), page
    # the revenue sentences say no basis prices it (they had said 'no public price under the basis On-demand cloud')
    nowhere = tr("no_public_price_nowhere", hw=marked)
    assert sum(nowhere in m.value for m in at.markdown) == 2, [m.value for m in at.markdown]
    rf = _figure(at, tr("ec_rf_title", hw=""))
    assert rf["layout"]["title"]["text"].startswith(tr("ec_rf_title", hw=marked))
    assert rf["data"][0]["name"] == tr("ec_rf_revenue", hw=marked)
    h200 = run_page("economics", **{**Q, "hardware": "h200"}, lang=lang)
    assert not [i for i in h200.info if "announced" in i.value or "已發表" in i.value]
    assert _figure(h200, tr("ec_rf_title", hw=""))["data"][0]["name"] == tr(
        "ec_rf_revenue", hw=resolve_hardware("h200").name
    )


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_tco_parts_say_when_their_board_power_is_an_estimated_tdp(lang):
    """Trainium3 has no published TCO or all-in power: its TCO parts start from its TDP, 1 kW, the catalog's estimate.
    The board-power input says so, and the TCO and all-in power built on it carry the note; once the board power is
    typed over they do not. H200's published TDP (and its published all-in power) is not marked."""
    tr = fmt.device_tr(resolve_hardware("trainium3"), Translator(lang))
    at = run_page("economics", lang=lang, hardware="trainium3")
    assert not at.exception, at.exception
    (board,) = [n for n in at.number_input if n.label == tr("ec_board_w")]
    assert board.value == 1000.0 and board.help == tr("ec_board_w_estimated", tdp=tr("estimate_mark", value="1,000 W"))
    notes = {m.label: m.proto.delta for m in at.metric}
    for key in ("ec_m_tco", "ec_m_all_in"):
        assert notes[tr(key)] == tr("tdp_estimate_note"), key
    titles = [f["layout"]["title"]["text"] for f in figures(at)]
    assert tr("tdp_estimate_title", title=tr("ec_tco_title")) in titles  # the TCO chart's energy rests on it too
    board.set_value(900.0).run()
    notes = {m.label: m.proto.delta for m in at.metric}
    assert not [k for k in ("ec_m_tco", "ec_m_all_in") if notes[tr(k)]]
    assert tr("ec_tco_title") in [f["layout"]["title"]["text"] for f in figures(at)]
    table = econ_figs.tco_table(tco(TcoParts(1.0)), "trainium3", "hyperscaler", "", estimated=True)
    assert table["board_power_estimated"].all()  # its CSV says so
    h200 = run_page("economics", lang=lang, hardware="h200")
    assert not [n.help for n in h200.number_input if n.label == Translator(lang)("ec_board_w") and n.help]
    assert not [m for m in h200.metric if m.proto.delta == Translator(lang)("tdp_estimate_note")]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_tpu_pods_servers_and_racks_say_why_there_are_none(lang):
    """economics?ec_chips=b200,tpu-8i,trainium3: 'Servers / racks holding them' and 'Chips idle in those' read '—' for
    TPU 8i with nothing saying why, and the caption's chip variant (a TPU or Trainium listed) dropped the sentence
    on servers / racks the GPU one has. A pod larger than fleet.MAX_PACKED_DOMAIN_GPUS is rented in slices of a
    replica's size (Fleet.rented_in_slices): its cells say so, and the chip caption explains servers / racks."""
    from tpot_model.fleet import MAX_PACKED_DOMAIN_GPUS

    tr = Translator(lang)
    at = run_page("economics", lang=lang, ec_chips="b200,tpu-8i,trainium3")
    assert not at.exception, at.exception
    table = getattr(at.table[0].value, "data", at.table[0].value).set_index(tr("ec_col_figure"))
    tpu, trn = fmt.chip(resolve_hardware("tpu-8i"), tr, short=True), "Trainium3"
    for row in ("ec_col_domains", "ec_col_idle_chip"):
        assert table.loc[tr(row), tpu] == tr("ec_cell_in_slices"), row
        assert re.fullmatch(r"[\d,]+", table.loc[tr(row), trn]), row  # a Trn3 UltraServer of 144 comes whole
    caption = tr("ec_cap_help_search_chip", tier=tr("basis_hyperscaler"), max=fmt.integer(MAX_PACKED_DOMAIN_GPUS),
                 budget=fmt.devices(resolve_hardware("tpu-8i"), 72, tr), **_counting(tr, chip=True))  # fmt: skip
    assert caption in [c.value for c in at.caption]
    said = {"en": ("servers / racks", "rented in slices"), "zh-TW": ("伺服器／機櫃", "按切片租用")}[lang]
    assert all(s in caption for s in said) and "144" in caption
    gpus = tr("ec_cap_help", tier="", max="", counted="")
    assert said[0] in gpus  # the GPU variant's sentence, which the chip one now carries too
    # a chip no basis prices has no basis or date beside its empty price (a browser review: 'Hyperscaler TCO' had
    # stood under TPU 8i's and Trainium3's '—' $/chip-hour); B200's priced column keeps both
    for row in ("ec_col_basis", "ec_col_as_of"):
        empty = "—"  # the table's mark of an empty cell (its $/chip-hour's too)
        assert table.loc[tr(row), tpu] == table.loc[tr(row), trn] == empty, row
        assert table.loc[tr(row), "B200"] not in (None, "", empty), row


def test_a_fleet_on_a_pod_is_rented_in_slices_and_the_csv_says_so(capsys):
    from tpot_model.fleet import Demand, fleet

    m = resolve_model("llama-3.1-70b")
    s = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    demand = Demand(output_tokens_per_day=1e11)
    fleets = [
        fleet(m, resolve_hardware(h), s, resolve_profile("typical"), demand, 0.05) for h in ("tpu-8i", "trainium3")
    ]
    assert [f.rented_in_slices for f in fleets] == [True, False] and fleets[0].domains == 0 < fleets[1].domains
    table = econ_figs.capacity_table(fleets, demand, {})
    assert list(table["rented_in_slices"]) == [True, False]
    import json

    from tpot_model import cli

    argv = ["capacity", "--model", "llama-3.1-70b", "--hardware", "tpu-8i,trainium3", "--weights", "fp8", "--kv",
            "fp8", "--context", "1024", "--output", "1024", "--output-tokens-per-day", "1e11", "--tpot-target-ms", "50",
            "--json"]  # fmt: skip
    assert cli.main(argv) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["rented_in_slices"], r["scale_up_domains"] is None) for r in rows] == [(True, True), (False, False)]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_fleets_are_the_layout_searchs_replicas_by_default_and_tensor_parallel_on_request(lang):
    """Economics' fleets had been tensor-parallel replicas within one domain while the Serving frontier's rack-scale
    view served the same MoE model from wide-EP, disaggregated deployments (DeepSeek-R1 FP8 on GB200 at 50 tok/s per
    user: about 3x the output tokens/s per GPU): two answers to one question. By default each chip's replica is now
    the layout search's (fleet.searched_fleet: the same search and engines, within 72 GPUs): the table gives its
    layout (prefill → decode), engine and rate, as the model computes them; 'Tensor-parallel' in the link (or the
    radio) gives the old fleets, and the budget box then has nothing to say (disabled)."""
    from tpot_model.fleet import Demand, fleet

    tr = Translator(lang)
    q = dict(model="deepseek-r1", weights="fp8", kv="fp8", context="1024", output="1024", ec_chips="gb200,b200",
             ec_tpot_ms="20", ec_out="100", ec_in="100", lang=lang)  # fmt: skip
    at = run_page("economics", **q)
    assert not at.exception, at.exception
    assert at.radio(key="econ.replicas").value == "search" and not at.number_input(key="econ.max_gpus").disabled
    table = at.table[0].value.set_index(tr("ec_col_figure"))
    scen = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    demand = Demand(100e9, 100e9, 1.5, 0.7)
    for hid in ("gb200", "b200"):
        f = fleet(resolve_model("deepseek-r1"), resolve_hardware(hid), scen, None, demand, 20e-3, max_gpus=72)
        col = fmt.chip(resolve_hardware(hid), tr, short=True)
        # short, prefill → decode, as its heading says; the CSV the CLI's (test_capacity_cli_with_a_budget_...)
        assert table.loc[tr("ec_col_layout_search"), col] == f.deployment.short_label, col
        assert table.loc[tr("ec_col_engine"), col] == "TensorRT-LLM"
        assert table.loc[tr("ec_col_tps_gpu"), col] == fmt.number(f.output_tokens_per_s_per_gpu)
        assert table.loc[tr("ec_col_gpus"), col] == fmt.integer(f.gpus)
    assert " → " in table.loc[tr("ec_col_layout_search"), "GB200 NVL72"]  # disaggregated: prefill → decode
    # how far to trust the GPUs: the measured 80 % range's ends (frontier_check.gpus_range), explained under the table
    from tpot_model.frontier_check import gpus_range, summary_key
    from tpot_model.pool_correction import committed_check

    gb = fleet(resolve_model("deepseek-r1"), resolve_hardware("gb200"), scen, None, demand, 20e-3, max_gpus=72)
    fewest, most = gpus_range(gb, resolve_model("deepseek-r1"), resolve_hardware("gb200"), demand,
                              committed_check()[summary_key(True)])  # fmt: skip
    assert table.loc[tr("ec_col_gpus_range"), "GB200 NVL72"] == f"{fmt.integer(fewest)}–{fmt.integer(most)}"
    assert tr("ec_cap_range") in [c.value for c in at.caption]
    assert tr("ec_col_batch_search") in table.index
    assert any(c.value.startswith(tr("ec_cap_help_search", tier="\0", max="\0", budget="\0", counted="\0", fewest="\0").split("\0")[0])
               for c in at.caption)  # fmt: skip
    # tensor-parallel replicas, from the link: the old fleets, a 'TP' layout, no budget to set
    tp = run_page("economics", **q, ec_replicas="tp")
    assert not tp.exception and tp.number_input(key="econ.max_gpus").disabled
    tp_table = tp.table[0].value.set_index(tr("ec_col_figure"))
    f = fleet(resolve_model("deepseek-r1"), resolve_hardware("gb200"), scen, resolve_profile("typical"), demand, 20e-3)
    assert tp_table.loc[tr("ec_col_layout"), "GB200 NVL72"] == f"TP{f.gpus_per_replica}"
    # one tensor-parallel group: its row does not read as prefill → decode ('TP16' had stood under that)
    assert tr("ec_col_layout_search") not in tp_table.index and "→" not in tr("ec_col_layout")
    assert tr("ec_col_batch") in tp_table.index and tr("ec_col_batch_search") not in tp_table.index
    assert tr("ec_col_gpus_range") not in tp_table.index  # the range is the layout search's
    # the same change through the radio, and the link then says it
    at.radio(key="econ.replicas").set_value("tp").run()
    assert at.query_params["ec_replicas"] == "tp"
    assert at.table[0].value.set_index(tr("ec_col_figure")).loc[tr("ec_col_layout"), "GB200 NVL72"].startswith("TP")


def test_the_layout_search_budget_is_in_the_link_and_a_bad_one_is_named():
    """ec_max_gpus=8 keeps each replica within 8 GPUs (no 40-GPU deployment); a budget past the search's 1,024 and
    an unknown replica kind fall back to the defaults with a notice naming each; the link writes them back."""
    from tpot_model.layouts import MAX_BUDGET_GPUS
    from ui import page_state

    q = dict(model="deepseek-r1", weights="fp8", kv="fp8", ec_chips="b200", ec_tpot_ms="20")
    at = run_page("economics", **q, ec_max_gpus="8")
    assert not at.exception and at.number_input(key="econ.max_gpus").value == 8
    table = at.table[0].value.set_index(EN("ec_col_figure"))
    assert int(table.loc[EN("ec_col_gpus_per_replica"), "B200"]) <= 8
    back, bad = page_state.parse_economics_query({"ec_max_gpus": "8", "ec_replicas": "tp"}, {"b200"})
    assert not bad and (back.max_gpus, back.replicas) == (8, "tp")
    bad_at = run_page("economics", **q, ec_max_gpus="5000", ec_replicas="wide")
    assert not bad_at.exception
    (said,) = [w.value for w in bad_at.warning]
    budget, replicas = (control_name(EN(key), param, EN) for key, param in (("ec_max_gpus", "ec_max_gpus"),
                                                                            ("ec_replicas", "ec_replicas")))  # fmt: skip
    assert budget in said and replicas in said and "wide" in said and str(MAX_BUDGET_GPUS) in said.replace(",", "")
    # the replica kinds a link may give, as it writes them (the notice had named the bad one only)
    assert (
        EN.sentences([EN("notice_bad_param", name=replicas, given="wide", used=EN("ec_replicas_search")),
                      EN("notice_options", options="`search` or `tp`")]) in said
    )  # fmt: skip
    (said,) = [w.value for w in run_page("economics", lang="zh-TW", **q, ec_replicas="wide").warning]
    assert said.endswith("可用值：`search`、`tp`。")
    assert bad_at.number_input(key="econ.max_gpus").value == 72 and bad_at.radio(key="econ.replicas").value == "search"


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_fleet_costed_as_bought_counts_whole_racks_on_the_page_and_in_the_link(lang):
    """'As bought' (ec_costed=bought): the table adds the GPUs costed (the whole racks' and servers' GPUs,
    fleet.Fleet.costed_gpus) and its MW and $ count them, as fleet.fleets(..., whole_domains=True) computes; the
    caption says what they count; 'as rented' (the default) has no such row; the radio writes the link, a bad value
    is named and falls back."""
    from tpot_model.fleet import Demand, fleet
    from ui import page_state

    tr = Translator(lang)
    q = dict(model="deepseek-r1", weights="fp8", kv="fp8", context="1024", output="1024", ec_chips="gb200,b200",
             ec_tpot_ms="20", ec_out="100", ec_in="100", lang=lang)  # fmt: skip
    at = run_page("economics", **q, ec_costed="bought")
    assert not at.exception, at.exception
    assert at.radio(key="econ.costed").value == "bought"
    table = at.table[0].value.set_index(tr("ec_col_figure"))
    scen = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    gb = fleet(resolve_model("deepseek-r1"), resolve_hardware("gb200"), scen, None, Demand(100e9, 100e9, 1.5, 0.7),
               20e-3, max_gpus=72, whole_domains=True)  # fmt: skip
    assert gb.costed_gpus == gb.domains * 72 > gb.gpus
    assert table.loc[tr("ec_col_costed"), "GB200 NVL72"] == fmt.integer(gb.costed_gpus)
    assert table.loc[tr("ec_col_gpus"), "GB200 NVL72"] == fmt.integer(gb.gpus)
    assert table.loc[tr("ec_col_mw"), "GB200 NVL72"] == fmt.number(gb.megawatts)
    captions = [c.value for c in at.caption]
    assert tr.sentences([tr("ec_cap_bought"), tr("ec_cap_bought_search")]) in captions
    # the help under the table says MW counts the GPUs costed and the search took the fewest of the racks' GPUs
    lead = tr("ec_cap_help_search", tier="\0", max="\0", budget="\0", counted="\0", fewest="\0").split("\0")[0]
    (help_,) = [c for c in captions if c.startswith(lead)]
    bought_words = _counting(tr, costing="bought")
    assert f"MW = {bought_words['counted']} ×" in help_ and bought_words["fewest"].strip() in help_
    rented = run_page("economics", **q)
    assert rented.radio(key="econ.costed").value == "rented"
    assert tr("ec_col_costed") not in rented.table[0].value.set_index(tr("ec_col_figure")).index
    assert not any(c.value.startswith(tr("ec_cap_bought")[:20]) for c in rented.caption)
    rented.radio(key="econ.costed").set_value("bought").run()
    assert rented.query_params["ec_costed"] == "bought"
    back, bad = page_state.parse_economics_query({"ec_costed": "owned"}, {"b200"})
    assert back.costed == "rented" and len(bad) == 1 and "owned" in str(bad[0])
    bad_at = run_page("economics", **q, ec_costed="owned")
    assert not bad_at.exception and any("owned" in w.value for w in bad_at.warning)


def _counting(tr: Translator, chip: bool = False, costing: str = "rented") -> dict[str, str]:
    """The help captions' {counted} (what MW counts) and {fewest} (the search's) under a costing, GPUs or chips."""
    tail = "_chip" if chip else ""
    return {"counted": tr(f"ec_counted_{costing}{tail}"), "fewest": tr(f"ec_fewest_{costing}{tail}")}


RUBIN = "NVIDIA Rubin (per GPU, Vera Rubin NVL72)"
MI455X = "AMD Instinct MI455X (Helios)"
NOWHERE_SAID = {  # the capacity table's price caption, past its basis: the chips no basis prices (Rubin, MI455X)
    "vr200": {
        "en": (
            f"No published price in any basis for {RUBIN} (announced), the sidebar's chip: enter your own $/GPU-hour "
            f"in the sidebar. No published price in any basis for {MI455X} (announced): select one as the sidebar's "
            "chip to enter your own $/GPU-hour."
        ),
        "zh-TW": (
            f"側邊欄的晶片 {RUBIN}（已發表，尚未出貨）在任何價格基準下都沒有公開價格：請在側邊欄輸入自訂的每 GPU 小時價格。"
            f"{MI455X}（已發表，尚未出貨）在任何價格基準下都沒有公開價格：在側邊欄選為目前晶片後，即可輸入自訂的每 GPU 小時價格。"
        ),
    },
    "h200": {
        "en": (
            f"No published price in any basis for {RUBIN} (announced), {MI455X} (announced): select one as the "
            "sidebar's chip to enter your own $/GPU-hour."
        ),
        "zh-TW": (
            f"{RUBIN}（已發表，尚未出貨）、{MI455X}（已發表，尚未出貨）在任何價格基準下都沒有公開價格：在側邊欄選為目前晶片後，"
            "即可輸入自訂的每 GPU 小時價格。"
        ),
    },
}


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("sidebar", ["vr200", "h200"])
def test_an_unpriced_chip_that_is_the_sidebars_is_priced_in_the_sidebar_not_told_to_be_selected(sidebar, lang):
    """A review: the price caption under the capacity table told a chip no basis prices to be selected as the
    sidebar's chip to take your own $/GPU-hour, when it was the sidebar's chip already (Rubin in the sidebar). Now
    that chip is sent to the sidebar's price as it is, and the others still to be selected first; with H200 in the
    sidebar, both are told to be selected."""
    at = run_page("economics", lang=lang, hardware=sidebar, ec_chips="vr200,mi455x,h200")
    assert not at.exception, at.exception
    tr = Translator(lang)
    head = tr("cost_basis_many", note=tr("price_basis_note", basis=tr("basis_on_demand"), as_of="2026-03-17"))
    assert tr.sentences([head, NOWHERE_SAID[sidebar][lang]]) in [c.value for c in at.caption]


ALL_UNPRICED_SAID = {  # the caption where no candidate has a price under the basis, Rubin the sidebar's chip
    "vr200,mi455x": {
        "en": (
            "None of the 2 GPUs has a published price in any basis (no $ figures in the cells): for "
            f"{RUBIN} (announced), the sidebar's chip, enter your own $/GPU-hour in the sidebar; select another as "
            "the sidebar's chip to enter its own."
        ),
        "zh-TW": (
            f"這 2 款 GPU 在任何價格基準下都沒有公開價格（欄位不列美元數字）：側邊欄的晶片 {RUBIN}（已發表，尚未出貨）可直接在"
            "側邊欄輸入自訂的每 GPU 小時價格；其他晶片需先在側邊欄選為目前晶片，才能輸入自訂價格。"
        ),
    },
    "vr200,mi355x": {
        "en": (
            "None of the 2 GPUs has a public price under On-demand cloud (no $ figures in the cells): choose Neocloud "
            f"TCO, Hyperscaler TCO or 3-year rental in the sidebar. No published price in any basis for {RUBIN} "
            "(announced), the sidebar's chip: enter your own $/GPU-hour in the sidebar."
        ),
        "zh-TW": (
            "這 2 款 GPU 在「雲端隨需」下都沒有公開價格（欄位不列美元數字）：請在側邊欄改選以下任一價格基準：新雲端業者 TCO、"
            f"超大規模業者 TCO、三年租用。側邊欄的晶片 {RUBIN}（已發表，尚未出貨）在任何價格基準下都沒有公開價格：請在側邊欄輸入"
            "自訂的每 GPU 小時價格。"
        ),
    },
    "vr200": {
        "en": (
            f"No published price in any basis for {RUBIN} (announced), the sidebar's chip: enter your own $/GPU-hour "
            "in the sidebar."
        ),
        "zh-TW": f"側邊欄的晶片 {RUBIN}（已發表，尚未出貨）在任何價格基準下都沒有公開價格：請在側邊欄輸入自訂的每 GPU 小時價格。",
    },
}


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("chips", list(ALL_UNPRICED_SAID))
def test_a_table_no_chip_of_which_is_priced_sends_the_sidebars_chip_to_the_sidebar(chips, lang):
    """The sidebar's Rubin among candidates none of which has a price under the basis: with MI455X (no basis prices
    either) the caption says so of both, Rubin's price entered in the sidebar as it is; with MI355X (priced under
    the TCO tiers and rental) the tiers are named for it and Rubin is said to have none in any basis (it had been left
    out, the tiers read as pricing both); Rubin alone: its own sentence."""
    tr = Translator(lang)
    at = run_page("economics", lang=lang, hardware="vr200", ec_chips=chips)
    assert not at.exception, at.exception
    said = tr.sentences([ALL_UNPRICED_SAID[chips][lang], tr("cost_power_note")])
    assert said in [c.value for c in at.caption], [c.value for c in at.caption]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_target_no_layout_meets_names_the_budget_once(lang):
    """A browser review: at a 2 ms target no layout within 72 GPUs meets, and the warning had followed every chip's
    fastest TPOT with '(the fastest layout within 72 GPUs)'. The budget is said once, each chip's fastest after it,
    the times the fleet's (fleet.fastest_missed_s, as `capacity --max-gpus 72 --json` gives fastest_tpot_ms)."""
    from tpot_model.fleet import Demand, fleet

    tr = Translator(lang)
    q = dict(model="deepseek-r1", weights="fp8", kv="fp8", context="1024", output="1024", ec_chips="gb200,b200",
             ec_tpot_ms="2", ec_out="100", ec_in="100")  # fmt: skip
    at = run_page("economics", lang=lang, **q)
    assert not at.exception, at.exception
    scen = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    fastest = []
    for hid in ("gb200", "b200"):
        f = fleet(resolve_model("deepseek-r1"), resolve_hardware(hid), scen, None, Demand(1e11, 1e11, 1.5, 0.7), 2e-3,
                  max_gpus=72)  # fmt: skip
        assert f.limited_by == "slo" and f.fastest_missed_s > 2e-3
        chip = fmt.chip(resolve_hardware(hid), tr, short=True)
        fastest.append(tr("ec_cap_nearest_one_search", hw=chip, what="TPOT", time=fmt.ms(f.fastest_missed_s, tr=tr)))
    seventy_two = fmt.devices("gpu", 72, tr)
    want = tr.sentences([tr("ec_cap_none"), tr("ec_cap_nearest_search", devices=seventy_two, chips=tr.join(fastest))])
    (said,) = [w.value for w in at.warning]
    assert said == want
    assert said.count(seventy_two) == 1 and len(re.findall(r"TPOT \d", said)) == 2, said


def test_the_fleet_tables_figure_names_keep_their_width_in_a_narrow_page():
    """A browser review at 900 px: six chips overflow the table, every column then shrinks to its narrowest, and the
    zh-TW figures' names had wrapped two characters a line ('機群每百萬輸出 Token 美元' on seven). The names' column
    keeps at least LABEL_MIN_WIDTH, on the page too; the cells are as capacity_display gives them, '—' where empty."""
    shown = pd.DataFrame({"For the demand": ["GPUs", "MW (all-in)"], "B200": ["1,234", None]})
    styled = econ_figs.capacity_shown(shown)
    assert styled.data["B200"].tolist() == ["1,234", "—"]
    html = styled.set_uuid("t").to_html()
    (selectors,) = re.findall(r"(#T_[^{}]*)\{\s*min-width: " + econ_figs.LABEL_MIN_WIDTH + r";\s*\}", html)
    assert {c.strip() for c in selectors.split(",")} == {"#T_t_row0_col0", "#T_t_row1_col0"}  # the names alone
    at = run_page("economics", lang="zh-TW", ec_chips="h200,b200,gb200,mi355x,tpu7x,vr200")
    assert not at.exception, at.exception
    tables = [t for t in at.table if ZH("ec_col_figure") in t.value.columns]
    assert len(tables) == 2  # six chips: two tables of three (test_six_or_more_chips_read_in_tables_of_four_at_most)
    for table in tables:
        assert f"min-width: {econ_figs.LABEL_MIN_WIDTH}" in table.proto.arrow_data.styler.styles
        assert ZH("ec_col_usd_1m") in table.value[ZH("ec_col_figure")].tolist()


def test_six_or_more_chips_read_in_tables_of_four_at_most():
    """A browser review at 900 px: six chips in one fleet table ran to 550 px in the page's 440 and scrolled
    sideways. Up to TABLE_CHIPS chips a table, one under another, as even as they come, each with the figures' names
    and the same rows; the chips in their order and each once, their cells as in one table (en and zh-TW)."""
    names = ["For the demand", "A", "B", "C", "D", "E", "F", "G"]
    display = pd.DataFrame([["GPUs", *"1234567"], ["MW", *"abcdefg"]], columns=names)
    assert [list(p.columns) for p in econ_figs.capacity_parts(display, 4)] == [names[:5], [names[0], *names[5:]]]
    assert econ_figs.capacity_parts(display, 4)[1]["F"].tolist() == ["6", "f"]
    assert [list(p.columns) for p in econ_figs.capacity_parts(display[names[:1]], 4)] == [names[:1]]  # no chip
    chips = ["h200", "b200", "gb200", "mi355x", "tpu7x", "vr200", "gb300"]
    for lang, n, sizes in (("en", 7, [4, 3]), ("zh-TW", 6, [3, 3]), ("en", 5, [3, 2]), ("zh-TW", 4, [4])):
        tr = Translator(lang)
        at = run_page("economics", lang=lang, ec_chips=",".join(chips[:n]))
        assert not at.exception, at.exception
        tables = [getattr(t.value, "data", t.value) for t in at.table if tr("ec_col_figure") in t.value.columns]
        assert [len(t.columns) - 1 for t in tables] == sizes, lang
        shown = [c for t in tables for c in t.columns[1:]]
        assert shown == fmt.chip_names([resolve_hardware(h) for h in chips[:n]], tr=tr)
        figures = tables[0][tr("ec_col_figure")].tolist()
        assert tr("ec_col_usd_1m") in figures and tr("ec_col_as_of") == figures[-1]
        assert all(t[tr("ec_col_figure")].tolist() == figures for t in tables)
        whole = pd.concat([t.set_index(tr("ec_col_figure")) for t in tables], axis=1)
        assert list(whole.columns) == shown and whole.notna().all().all()
        assert whole.loc[tr("ec_col_gpus_chip" if n > 4 else "ec_col_gpus")].str.match(r"^[\d,]+$").all(), whole


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_search_caption_says_how_to_read_a_layout_without_a_fixed_example(lang):
    """The layout search's caption had carried '3 × DEP4 → 1 × DEP32' whatever the model and budget (a dense Llama's
    replicas are TP): it now says how the table writes a layout, prefill → decode and instances × one instance's
    layout, with no instance count of its own, for GPUs and chips alike."""
    tr = Translator(lang)
    at = run_page("economics", lang=lang)  # Llama 3.1 70B, dense: its replicas are tensor-parallel
    assert not at.exception
    lead = tr("ec_cap_help_search", tier="\0", max="\0", budget="\0", counted="\0", fewest="\0").split("\0")[0]
    (caption,) = [c.value for c in at.caption if c.value.startswith(lead)]
    arrow = {"en": "prefill → decode", "zh-TW": "預填充 → 解碼"}[lang]  # as the table's layout row is headed
    assert arrow in tr("ec_col_layout_search")
    for text in (caption, tr("ec_cap_help_search_chip", tier="x", max="72", budget="72", counted="x", fewest="x")):
        assert arrow in text and not re.search(r"\d+ × ", text), text


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_one_reason_for_every_chips_missing_range_is_said_once(lang):
    """A dense model's fleets (Llama 3.1 70B, layout search) have no measured 80% range for one reason, the measured
    runs being MoE models': the row had repeated it in every chip's column. It is said once, in the row's name, the
    cells '—'; where the chips' reasons differ (DeepSeek-R1: GB200's range beside Rubin's 'announced'), each cell keeps
    its own."""
    tr = Translator(lang)
    at = run_page("economics", lang=lang)  # Llama 3.1 70B on H200, B200, MI355X
    assert not at.exception
    table = at.table[0].value
    dense = tr("ec_col_gpus_range_none", reason=tr("fr_rack_no_range_dense"))
    (row,) = [r for _, r in table.iterrows() if r.iloc[0] == dense]
    assert list(row.iloc[1:]) == ["—"] * 3
    assert tr("ec_cell_range_none", reason=tr("fr_rack_no_range_dense")) not in table.to_numpy().ravel().tolist()
    # reasons that differ: in their cells (capacity_display on a table of two kinds)
    from tpot_model.fleet import Demand, fleet

    scen = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    demand = Demand(1e10, 1e10)
    fs = [fleet(resolve_model("deepseek-r1"), resolve_hardware(h), scen, None, demand, 20e-3, max_gpus=72)
          for h in ("gb200", "vr200")]  # fmt: skip
    ranges = {"gb200": ((10, 20), None), "vr200": (None, "announced")}
    shown = econ_figs.capacity_display(econ_figs.capacity_table(fs, demand, {}, ranges), tr).set_index(
        tr("ec_col_figure")
    )
    assert list(shown.loc[tr("ec_col_gpus_range")]) == [
        "10–20",
        tr("ec_cell_range_none", reason=tr("fr_rack_no_range_announced")),
    ]
