"""Serving-planner page through the app (AppTest): renders, follows the sidebar and its own controls, reads and writes
its URL parameters, shows infeasible states as data, zh-TW."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from tests.apptest_util import ROOT, decode, figures, run_page
from tpot_model import Scenario, estimate, load_hardware_catalog, load_model_catalog, resolve_profile, speculative
from tpot_model import layouts as lo
from tpot_model import planner as pl
from ui import export as export_mod
from ui import fmt
from ui.figures import planner as figs
from ui.figures.common import wrap_label
from ui.i18n import EN, Translator
from ui.notices import control_name

ZH = Translator("zh-TW")
PAGE = str(ROOT / "pages" / "planner.py")


def _figure(at, title_key: str, tr=EN, **values) -> dict:
    title = tr(title_key, **values)
    (fig,) = [f for f in figures(at) if f["layout"]["title"]["text"] == title]
    return fig


def _metric(at, label: str) -> str:
    (m,) = [m for m in at.metric if m.label == label]
    return m.value


def _open(at: AppTest, section: str, tr=EN) -> AppTest:
    """Click the page's tab `section` (an id of figs.SECTIONS)."""
    at.session_state["planner.section"] = tr(f"pl_tab_{section}")
    return at.run()


def _page_alone(**query: str) -> AppTest:
    """The page script without app.py (no sidebar): the page's own URL handling on its own."""
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params.update(query)
    return at.run()


@pytest.fixture(scope="module")
def default():
    return run_page("planner")


def test_renders_with_defaults(default):
    at = default
    assert not at.exception, at.exception
    assert not at.error and not at.warning
    assert at.title[0].value == EN("page_planner")
    assert len(figures(at)) == 2  # the frontier, and the open tab's (hardware x precision) heat map
    assert [t.label for t in at.tabs] == [EN(f"pl_tab_{s}") for s in figs.SECTIONS]
    p = pl.frontier(
        load_model_catalog()["llama-3.1-70b"],
        load_hardware_catalog()["h200"],
        Scenario(batch=32, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8"),
        resolve_profile("typical"),
        0.05,
    )
    assert _metric(at, EN("pl_m_batch")) == f"{p.batch:,}"
    assert any(
        EN("pl_reason_memory", next=p.batch + 1, have="", tpot="", target="")[:20] in s.value for s in at.success
    )
    (reason,) = at.success
    assert f"TPOT is {fmt.ms(p.tpot_s)}".replace(" ms", "\u00a0ms") in reason.value  # '44.7 ms' does not wrap apart
    # the open tab names the basis its numbers use, as its chart does: $ per 1M output tokens
    assert [h.value for h in at.subheader] == [EN("pl_table_h")] and "1M output tokens" in EN("pl_table_h")
    star = [t for t in _figure(at, "pl_frontier_title")["data"] if t["name"] == EN("pl_chosen")][0]
    assert float(decode(star["x"])[0]) == pytest.approx(1 / p.tpot_s)  # tokens/s per user across (issue 19)
    assert at.download_button  # CSV + HTML under every chart
    assert (
        EN("pl_sidebar_batch", batch=32, tpot="", verdict="", per_gpu="", usd="", x="")[:30] in at.main.caption[1].value
    )


@pytest.mark.parametrize(
    ("section", "charts", "tables"),
    # gpus: the layout search's chart and pool table (issue 18, a static table), then tensor and pipeline parallelism's
    [("hardware", 1, 0), ("gpus", 3, 2), ("capacity", 1, 0), ("speculative", 2, 0), ("levers", 1, 1)],
)
def test_each_tab_draws_only_its_own_section(section, charts, tables):
    at = _open(run_page("planner"), section)
    assert not at.exception, at.exception
    assert len(figures(at)) == 1 + charts  # the frontier stays on top
    assert len(at.dataframe) + len(at.table) == tables
    assert at.query_params["planner_section"] == section


def test_pipeline_note_names_the_stage_group_and_claims_only_what_holds():
    # a browser review: the note had said pipeline parallelism's time "does not fall like tensor parallelism's" beside
    # a chart where PP8 x TP8 (9.9 ms) sat below TP64 (12.3 ms, its all-reduces) on GB200; it now says what always holds
    # (more stages never shorten one TP group's step at the micro-batch: test_planner's sum-of-stages test)
    for tr in (EN, Translator("zh-TW")):
        at = _open(run_page("planner", lang=tr.lang), "gpus", tr)
        assert not at.exception, at.exception
        note = tr("pl_pp_note", tp=2)  # the default scenario: 2 x H200
        assert any(m.value == note for m in at.main.markdown), note
        assert "TP 2" in note


def test_page_writes_its_inputs_to_the_url(default):
    q = default.query_params
    # one speculative default with the Serving frontier's MTP switch (issue 19; was k = 4, a = 0.7 here)
    assert q["planner_target_ms"] == "50" and q["spec_k"] == "3" and q["spec_accept"] == "0.56"
    assert (int(q["spec_k"]), float(q["spec_accept"])) == (speculative.MTP_K, speculative.MTP_ACCEPTANCE)
    assert q["prefix_hit"] == "0" and q["model"] == "llama-3.1-70b"  # the sidebar's scenario stays
    assert q["planner_section"] == "hardware"


def test_sidebar_batch_changes_the_gpu_count_chart():
    at = _open(run_page("planner"), "gpus")
    caption = at.main.caption[1].value
    before = _figure(at, "pl_tp_title", batch=32)
    at.sidebar.select_slider(key="batch").set_value(256).run()
    assert not at.exception
    after = _figure(at, "pl_tp_title", batch=256)
    assert decode(after["data"][0]["y"]).tolist() != decode(before["data"][0]["y"]).tolist()
    assert at.main.caption[1].value != caption  # the sidebar's batch beside the frontier's


def test_sidebar_batch_line_is_hand_checkable():
    at = run_page("planner", batch="8")
    m, hw = load_model_catalog()["llama-3.1-70b"], load_hardware_catalog()["h200"]
    s = Scenario(batch=8, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8")
    est = estimate(m, hw, s, resolve_profile("typical"))
    p = pl.frontier(m, hw, s, resolve_profile("typical"), 0.05)
    per_gpu = float(est.tokens_per_s_total) / 2
    assert at.main.caption[1].value.split("\n\n")[0] == EN(  # the sidebar's batch (served: a row of its own)
        "pl_sidebar_batch",
        batch=8,
        tpot=fmt.ms(float(est.tpot_s)),
        verdict=EN("pl_meets_short"),
        per_gpu=fmt.rate(per_gpu),
        usd=fmt.usd(float(est.usd_per_1M_tokens)),  # 3 significant figures, as Cost's (to the cent it hid ±8 %)
        x=fmt.number(p.tokens_per_s_per_gpu / per_gpu),  # 3 significant figures: 17.3, 1.23
    )
    big = run_page("planner", batch="4096")
    assert big.main.caption[1].value.split("\n\n")[0] == EN(
        "pl_sidebar_batch_no_fit", batch="4,096", max_batch=p.max_batch_memory
    )


def test_target_controls_move_the_frontier():
    at = run_page("planner")
    chat = int(_metric(at, EN("pl_m_batch")).replace(",", ""))
    at.selectbox(key="planner.target").set_value("code_completion").run()
    assert not at.exception
    assert int(_metric(at, EN("pl_m_batch")).replace(",", "")) < chat
    assert any(EN("pl_reason_slo_tpot", next="", target="", tpot="")[:22] in s.value for s in at.success)
    assert at.query_params["planner_target_ms"] == "30"
    at.selectbox(key="planner.target").set_value("custom").run()
    at.number_input(key="planner.custom_ms").set_value(20.0).run()
    assert not at.exception
    assert at.query_params["planner_target_ms"] == "20"
    assert _figure(at, "pl_table_title", target=fmt.target(0.020, EN))
    at.number_input(key="planner.ttft_ms").set_value(1000.0).run()
    assert any("TTFT" in s.value for s in at.success) or at.warning
    assert at.query_params["planner_ttft_ms"] == "1000"


def test_speculative_controls(default):
    at = _open(run_page("planner"), "speculative")
    tpot = _metric(at, EN("pl_m_eff_tpot"))
    at.slider(key="planner.k").set_value(2).run()
    assert _metric(at, EN("pl_m_eff_tpot")) != tpot
    at.slider(key="planner.accept").set_value(0.9).run()
    assert not at.exception
    assert _metric(at, EN("pl_m_tokens_step")) == f"{float(speculative.expected_tokens_per_step(0.9, 2)):.2f}"
    assert at.query_params["spec_k"] == "2" and at.query_params["spec_accept"] == "0.9"
    assert at.selectbox(key="planner.draft").value == "llama-3.1-8b"  # the family's smallest by default
    at.selectbox(key="planner.draft").set_value("mtp").run()
    assert not at.exception and not at.slider(key="planner.mtp_cost").disabled
    lines = [t["name"] for t in _figure(at, "pl_spec_a_title")["data"]]
    assert EN("pl_spec_k", k=2) in lines
    # Llama 3.1 70B ships no MTP module: the one-layer draft is named a head trained for it, and said so beside it
    assert EN("pl_spec_head_note", model="Llama 3.1 70B") in [c.value for c in at.caption]


def test_a_draft_head_the_model_ships_is_its_mtp_module():
    """DeepSeek-V3 ships one MTP module: no note beside the draft; Llama 4 Scout (no smaller model of its family, no
    MTP module) gets the head with the note."""
    at = _open(run_page("planner", model="deepseek-v3", hardware="b200", gpus="8", weights="fp8"), "speculative")
    assert at.selectbox(key="planner.draft").value == "mtp"
    assert not any(c.value.startswith("DeepSeek-V3 ships no") for c in at.caption)
    at = _open(run_page("planner", model="llama-4-scout"), "speculative")
    assert at.selectbox(key="planner.draft").value == "mtp" and not at.exception
    assert EN("pl_spec_head_note", model="Llama 4 Scout (17B-16E)") in [c.value for c in at.caption]


def test_capacity_offers_the_sidebars_mix_once():
    """Browser review: with the sidebar at 8K / 1K (a preset too) the mix was listed twice and its bar drawn twice,
    stacked to twice its height (1.17 where its label read 0.59)."""
    at = _open(run_page("planner", context="8192", output="1024"), "capacity")
    assert not at.exception
    labels = at.selectbox(key="planner.mix").options
    assert len(labels) == 4 and sum("8K / 1K" in x for x in labels) == 1, labels
    (disagg,) = [f for f in figures(at) if f["layout"]["title"]["text"].startswith(EN("pl_disagg_title").split("{")[0])]
    for trace in disagg["data"]:
        assert len(trace["x"]) == len(set(trace["x"])), trace["x"]  # one bar per mix
    at.selectbox(key="planner.mix").set_value(3).run()  # the last preset; the sidebar then moves onto a preset
    assert not at.exception


def test_capacity_and_levers_controls():
    at = _open(run_page("planner"), "capacity")
    assert not at.metric[[m.label for m in at.metric].index(EN("pl_m_prefill"))].delta
    at.slider(key="planner.prefix_hit").set_value(0.5).run()
    assert not at.exception
    assert at.query_params["prefix_hit"] == "0.5"
    (m,) = [m for m in at.metric if m.label == EN("pl_m_prefill")]
    assert m.delta  # 'from … without the cache'
    at.selectbox(key="planner.mix").set_value(1).run()
    assert EN("pl_m_ratio", mix="1K / 1K") in [m.label for m in at.metric]
    _open(at, "levers")
    assert _figure(at, "pl_levers_title_target")
    at.radio(key="planner.levers_view").set_value("batch").run()
    assert _figure(at, "pl_levers_title_batch")
    _open(at, "hardware")
    heat = _figure(at, "pl_table_title", target=fmt.target(0.050, EN))["data"][0]["text"]
    at.radio(key="planner.table_gpus").set_value("sidebar").run()
    assert _figure(at, "pl_table_title", target=fmt.target(0.050, EN))["data"][0]["text"] != heat


def test_page_reads_its_url_parameters():
    at = _page_alone(planner_target_ms="80", planner_ttft_ms="2500", spec_k="6", spec_accept="0.55", prefix_hit="0.4")
    assert not at.exception
    state = {k: at.session_state[k] for k in ("planner.target", "planner.ttft_ms", "planner.k", "planner.accept")}
    assert state == {"planner.target": "agents", "planner.ttft_ms": 2500.0, "planner.k": 6, "planner.accept": 0.55}
    assert at.session_state["planner.prefix_hit"] == 0.4
    assert not at.warning
    custom = _page_alone(planner_target_ms="65")
    assert custom.session_state["planner.target"] == "custom" and custom.session_state["planner.custom_ms"] == 65.0


def test_bad_page_parameters_fall_back_with_notices():
    at = _page_alone(planner_target_ms="-5", spec_k="99", spec_accept="<b>x</b>", prefix_hit="2")
    assert not at.exception
    (text,) = [w.value for w in at.warning]  # the page run alone: its own notices in one box of their own
    assert text.startswith(EN("notice_link_many", n=4)) and text.count("\n- ") == 4 and "<b>" not in text
    assert at.session_state["planner.target"] == "chat" and at.session_state["planner.k"] == speculative.MTP_K


def test_link_with_page_parameters_restores_them_through_the_app():
    at = run_page(
        "planner", planner_target_ms="30", spec_k="6", prefix_hit="0.25", model="llama-3.1-8b", planner_section="levers"
    )
    assert not at.exception
    assert at.session_state["planner.section"] == EN("pl_tab_levers") and _figure(at, "pl_levers_title_target")
    assert at.session_state["planner.target"] == "code_completion" and at.session_state["planner.k"] == 6
    assert at.session_state["planner.prefix_hit"] == 0.25 and at.session_state["model"] == "llama-3.1-8b"
    assert at.query_params["planner_target_ms"] == "30" and at.query_params["spec_k"] == "6"


def test_url_restores_the_scenario():
    query = dict(model="deepseek-v3", hardware="b200", gpus="8", weights="nvfp4", kv="fp8", batch="64")
    at = run_page("planner", planner_section="gpus", **query)
    assert not at.exception and not at.warning
    assert _figure(at, "pl_tp_title", batch=64)
    _open(at, "speculative")
    assert at.selectbox(key="planner.draft").value == "mtp"  # no smaller DeepSeek: MTP heads


def test_open_tab_survives_a_language_change():
    at = run_page("planner", planner_section="capacity")
    at.sidebar.selectbox(key="lang").set_value("zh-TW").run()
    assert not at.exception
    assert at.session_state["planner.section"] == ZH("pl_tab_capacity")
    assert _figure(at, "pl_disagg_title", tr=ZH) and at.query_params["planner_section"] == "capacity"


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_headline_says_what_an_unfitted_models_own_runs_say(lang):
    """The SLO frontier's headline (a static batch under the sidebar's engine) had no word on trust for a model no
    fit has seen: for DeepSeek-V4-Pro a notice above it says V4's own 9 published single-node runs measured 2.02x the
    modelled TPOT (the transfer check); DeepSeek-R1's page has none."""
    tr = Translator(lang)
    want = tr("model_transfer", model="DeepSeek-V4-Pro", runs=9, measured="2.02")
    query = dict(hardware="gb300", gpus="8", weights="nvfp4", kv="fp8", lang=lang)
    at = run_page("planner", model="deepseek-v4-pro", **query)
    assert not at.exception and [i.value for i in at.info].count(want) == 1
    r1 = run_page("planner", model="deepseek-r1", **query)
    assert not r1.exception and not any(want[:12] in i.value for i in r1.info)


def test_the_reason_never_prints_the_tpot_as_the_target_it_is_under():
    """Browser review: DeepSeek-V4-Pro NVFP4 on 8 x GB300, 8K + 1K, chat 50 ms: the frontier's batch has a TPOT of
    49.99 ms, printed '(now 50.0 ms)' after 'longer than 50.0 ms'; it reads the decimals that tell them apart."""
    m, hw = load_model_catalog()["deepseek-v4-pro"], load_hardware_catalog()["gb300"]
    s = Scenario(context_tokens=8192, output_tokens=1024, num_gpus=8, weights="nvfp4", kv_cache="fp8")
    p = pl.frontier(m, hw, s, resolve_profile("typical"), 0.05)
    assert p.limited_by == "slo" and fmt.ms(p.tpot_s) == "50.0 ms" and p.tpot_s < 0.05
    at = run_page("planner", model="deepseek-v4-pro", hardware="gb300", gpus="8", weights="nvfp4", kv="fp8",
                  context="8192", output="1024")  # fmt: skip
    assert not at.exception
    (reason,) = [
        s.value for s in at.success if s.value.startswith(EN("pl_reason_slo_tpot", next="", target="", tpot="")[:20])
    ]
    assert f"(now {fmt.unbroken(fmt.ms_below(p.tpot_s, 0.05))})" in reason and "50.0\u00a0ms)" not in reason


def test_model_that_does_not_fit_is_a_state_not_an_error():
    at = run_page(
        "planner", model="llama-3.1-405b", hardware="h100-sxm", gpus="1", weights="bf16", planner_section="gpus"
    )
    assert not at.exception
    assert at.error  # the standard fit notice
    assert any(EN("pl_infeasible_memory", gpus=1, hw="", tab="")[:30] in w.value for w in at.warning)
    # it names the tab that compares other chips, whichever is open (a review: "the chart below" on the GPU tab)
    assert any(f"“{EN('pl_tab_hardware')}” tab below" in w.value for w in at.warning)
    assert _metric(at, EN("pl_m_batch")) == "—"
    assert not [f for f in figures(at) if f["layout"]["title"]["text"] == EN("pl_frontier_title")]
    assert _metric(at, EN("pl_m_min_gpus", batch=32)) == "16"


@pytest.mark.parametrize("section", ["capacity", "speculative"])
def test_sections_that_need_the_model_to_fit_say_so_instead_of_numbers(section):
    """405B in bf16 on one H100: no capacity (it read '-685 GB left'), no speculative speed-up; a notice instead."""
    at = run_page(
        "planner", model="llama-3.1-405b", hardware="h100-sxm", gpus="1", weights="bf16", planner_section=section
    )
    assert not at.exception
    assert EN("pl_section_no_fit", gpus=1, hw="NVIDIA H100 SXM5 80GB") in [i.value for i in at.info]
    assert not [m for m in at.metric if m.label in (EN("pl_m_users"), EN("pl_m_eff_tpot"))]


@pytest.mark.parametrize(
    "query",
    [
        {"hardware": "tpu-v5e", "gpus": "8"},  # no price, small memory
        {"model": "qwen3-next-80b-a3b", "hardware": "b200", "gpus": "1"},
        {"batch": "4096", "context": "1048576"},
        {"model": "phi-3-mini-4k", "hardware": "b200", "gpus": "1", "context": "0", "output": "1"},
    ],
)
def test_extreme_scenarios_render(query):
    at = run_page("planner", **query)
    assert not at.exception, at.exception
    for section in figs.SECTIONS[1:]:
        assert not _open(at, section).exception, (section, at.exception)


def test_zh_tw():
    at = run_page("planner", lang="zh-TW")
    assert not at.exception
    assert at.title[0].value == ZH("page_planner")
    assert [t.label for t in at.tabs] == [ZH(f"pl_tab_{s}") for s in figs.SECTIONS]
    assert _figure(at, "pl_frontier_title", tr=ZH)
    for section, key in (("speculative", "pl_spec_a_title"), ("capacity", "pl_disagg_title"),
                         ("levers", "pl_levers_title_target")):  # fmt: skip
        assert _figure(_open(at, section, ZH), key, tr=ZH)
    assert _figure(_open(at, "gpus", ZH), "pl_tp_title", tr=ZH, batch=32)
    assert _metric(at, ZH("pl_m_batch"))


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_gb200_gpu_counts_go_to_the_nvl72_domain(lang):
    """Issue 19: the GPU-count search stopped at one node of 8 on GB200 / GB300, whose NVLink domain is 72. Kimi K2
    in BF16 (2 TB of weights) needs more than 8 GB200s: the hardware x precision table finds it at 32, and the
    GPU-count section runs to 72."""
    tr = Translator(lang)
    q = dict(model="kimi-k2", hardware="gb200", gpus="8", weights="bf16", kv="bf16", batch="64", lang=lang)
    at = _open(run_page("planner", **q), "hardware", tr)
    assert not at.exception
    (table,) = [f for f in figures(at) if f["data"][0].get("type") == "heatmap"]
    rows = dict(zip(table["data"][0]["y"], table["data"][0]["customdata"], strict=True))  # the hover's full text
    (gb200,) = [row for name, row in rows.items() if "GB200" in name]
    gpus = int(gb200[0].split("<br>")[2].split()[0])  # BF16 column: '$x<br>y tok/s/GPU<br>32 × GPU · z in flight'
    assert 8 < gpus <= 72  # beyond one node of 8, within the NVL72 domain
    at = _open(at, "gpus", tr)
    (tp,) = [f for f in figures(at) if f["layout"]["title"]["text"] == tr("pl_tp_title", batch=64)]
    # to the domain's widest split of Kimi K2's 64 heads: TP72 divides none of them, which engines refuse (said)
    assert tp["data"][0]["x"][-1] == "64"
    assert any("72" in md.value and "GB200" in md.value for md in at.markdown)  # the note names the domain
    assert any(tr("pl_tp_left_out_one", heads=64, counts="72") in md.value for md in at.markdown)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_target_shows_both_units(lang):
    """Issue 19: the chat target reads '20 tok/s/user = 50 ms TPOT', the form the Serving frontier's target has."""
    tr = Translator(lang)
    at = run_page("planner", lang=lang)
    assert any(tr("target_both", user="20", tpot="50\u00a0ms") in md.value for md in at.markdown)


# --------------------------------------------------------------------------------------------------- layout search


def _in_order(node) -> list:
    """Every element under an AppTest block, in page order."""
    out = []
    for child in getattr(node, "children", {}).values():
        out += [child, *_in_order(child)]
    return out


def _layout_metrics(at) -> dict[str, str]:
    keys = ("pl_m_layout_gpus", "pl_m_layout_tps", "pl_m_layout_tpot", "pl_m_layout_ttft", "pl_m_layout_usd",
            "pl_m_layout_limit")  # fmt: skip
    return {k: _metric(at, EN(k)) for k in keys}


def test_gpu_tab_shows_what_the_layout_search_chose():
    """Issue 18: the GPU-count tab runs layouts.best_deployment (the CLI's frontier --max-gpus) over the chip's
    scale-up domain (8 on HGX H200) and shows its choice: GPUs used, tokens/s per GPU over every GPU, TPOT, TTFT,
    what limits it, and each pool's layout."""
    at = run_page("planner", planner_section="gpus")
    assert not at.exception, at.exception
    m, hw = load_model_catalog()["llama-3.1-70b"], load_hardware_catalog()["h200"]
    s = Scenario(context_tokens=4096, output_tokens=1024, weights="fp8")
    d = lo.best_deployment(m, hw, s, resolve_profile("typical"), max_gpus=8, tpot_target_s=0.05)
    assert at.session_state["planner.max_gpus"] == 8 and at.session_state["planner.serving"] == "best"
    assert _layout_metrics(at) == {
        "pl_m_layout_gpus": f"{d.gpus_used} / 8",
        "pl_m_layout_tps": fmt.rate(d.tokens_per_s_per_gpu),
        "pl_m_layout_tpot": fmt.ms(d.tpot_s),
        "pl_m_layout_ttft": fmt.duration(d.ttft_s),
        # per 1M input + output tokens, as the tokens/s beside it (a review: the tab had no cost)
        "pl_m_layout_usd": fmt.usd(d.usd_per_1M_tokens),
        "pl_m_layout_limit": EN(f"pl_limit_{d.limited_by}"),
    }
    (pools,) = [t.value for t in at.table if t.value.columns[0] == EN("pl_col_pool")]
    expected = [d.decode] if d.serving == "aggregated" else [d.prefill, d.decode]
    assert list(pools[EN("pl_col_layout")]) == [p.label for p in expected]
    assert sum(int(g.replace(",", "")) for g in pools[EN("pl_col_gpus")]) == d.gpus_used
    assert _figure(at, "pl_layout_title", n=8)
    assert at.query_params["planner_max_gpus"] == "8" and at.query_params["planner_serving"] == "best"
    assert any("141 GiB, as the vendor's tool reports it" in c.value for c in at.main.caption)  # the gate's memory


def test_layout_inputs_change_the_search_and_the_url():
    at = run_page("planner", planner_section="gpus")
    at.radio(key="planner.serving").set_value("aggregated").run()
    assert not at.exception
    assert any(EN("pl_layout_chosen_aggregated", layout="", used="", budget="", batch="", tps="", tpot="")[:12]
               in s.value for s in at.success)  # fmt: skip
    at.number_input(key="planner.max_gpus").set_value(1).run()
    assert _metric(at, EN("pl_m_layout_gpus")) == "1 / 1"
    assert at.query_params["planner_max_gpus"] == "1" and at.query_params["planner_serving"] == "aggregated"
    at.radio(key="planner.serving").set_value("disaggregated").run()  # one GPU cannot hold two pools: said
    assert EN("pl_layout_none_gpus") in [w.value for w in at.warning]
    assert _metric(at, EN("pl_m_layout_limit")) == EN("pl_limit_gpus")


def test_layout_budget_defaults_to_the_scale_up_domain_and_follows_the_chip():
    at = run_page("planner", model="deepseek-r1", hardware="gb200", gpus="8", weights="fp8", planner_section="gpus")
    assert not at.exception
    assert at.session_state["planner.max_gpus"] == 72 and at.query_params["planner_max_gpus"] == "72"
    used, budget = _metric(at, EN("pl_m_layout_gpus")).split(" / ")
    assert budget == "72" and 8 < int(used) <= 72  # a wide recipe across the NVL72 domain
    at.sidebar.selectbox(key="hardware").set_value("b200").run()  # an HGX node: 8
    assert at.session_state["planner.max_gpus"] == 8


def test_layout_url_parameters_and_bad_values():
    at = _page_alone(planner_max_gpus="16", planner_serving="disaggregated", planner_section="gpus")
    assert not at.exception and not at.warning
    assert at.session_state["planner.max_gpus"] == 16 and at.session_state["planner.serving"] == "disaggregated"
    bad = _page_alone(planner_max_gpus="2000", planner_serving="<b>rack</b>", planner_section="gpus")
    texts = [w.value for w in bad.warning]
    assert sum("planner_max_gpus" in t for t in texts) == 1 and sum("planner_serving" in t for t in texts) == 1
    assert not any("<b>" in t for t in texts)
    assert bad.session_state["planner.max_gpus"] == 8 and bad.session_state["planner.serving"] == "best"


def test_layout_that_does_not_fit_is_a_state_with_its_remedy():
    at = run_page(
        "planner", model="llama-3.1-405b", hardware="h100-sxm", gpus="1", weights="bf16", planner_section="gpus"
    )
    assert not at.exception
    # 810 GB of BF16 weights against 8 x (0.9 x 79.6 GiB - 4.14 GiB) = 580 GB: no layout in the budget, and why
    none = EN("pl_layout_none_memory", budget=8, hw="NVIDIA H100 SXM5 80GB", model="Llama 3.1 405B")
    assert none in [w.value for w in at.warning]
    assert _metric(at, EN("pl_m_layout_gpus")) == "—" and _metric(at, EN("pl_m_layout_limit")) == EN("pl_limit_memory")


def test_layout_section_in_zh_tw():
    at = run_page("planner", planner_section="gpus", lang="zh-TW")
    assert not at.exception
    assert _figure(at, "pl_layout_title", tr=ZH, n=8)
    assert ZH("pl_m_layout_tps") in [m.label for m in at.metric]
    (pools,) = [t.value for t in at.table if t.value.columns[0] == ZH("pl_col_pool")]
    assert list(pools.columns)[:2] == [ZH("pl_col_pool"), ZH("pl_col_layout")]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("section", figs.SECTIONS)
def test_planner_says_chips_for_a_tpu_in_every_section(lang, section):
    """Issue 19: with a TPU in the sidebar, no text of the Planner's open section (captions, metrics and their helps,
    charts' titles, axes and hovers, table headers, notices) says GPU; the headline metric reads 'per chip'."""
    from tests.apptest_util import visible_texts

    tr = Translator(lang)
    at = run_page("planner", lang=lang, hardware="tpu7x", planner_section=section)
    assert not at.exception
    texts = visible_texts(at)
    assert not [t for t in texts if "GPU" in t]
    assert not [t for t in texts if re.search("張(?!量)", t)]  # zh-TW counts chips with 顆 (張 is for GPUs / cards)
    assert tr("pl_caption_chip") in [c.value for c in at.caption]
    if section == "hardware":
        assert tr("pl_m_tps_gpu_chip") in [m.label for m in at.metric]
        gpu = run_page("planner", lang=lang, hardware="h200", planner_section=section)
        assert tr("pl_m_tps_gpu") in [m.label for m in gpu.metric]


@pytest.mark.parametrize("tr", [EN, ZH])
def test_slo_frontier_says_its_static_basis_and_the_continuous_batching_figure(tr):
    """The SLO frontier's best batch is one static batch with no prefill counted (Overview's basis): batch 114 at
    44 ms, 1,294 tok/s per GPU for the default at 50 ms. A server interleaving prefills (continuous batching, the
    Serving frontier's basis) holds the target only to ~65 requests, ~650 tok/s per GPU: the page gives both, each
    a row of headline numbers under its basis."""
    from dataclasses import replace

    from ui.state import ScenarioState

    at = run_page("planner", lang=tr.lang)
    assert not at.exception, at.exception
    st = ScenarioState()
    m, hw = load_model_catalog()[st.model], load_hardware_catalog()[st.hardware]
    p = resolve_profile(st.profile)
    static = pl.frontier(m, hw, st.to_scenario(), p, 0.05)
    served = pl.frontier(m, hw, replace(st.to_scenario(), batching="continuous"), p, 0.05)
    assert served.batch < static.batch and served.tokens_per_s_per_gpu < 0.6 * static.tokens_per_s_per_gpu
    # two rows of the same weight (the served one had been a grey caption, which read half the price), each labelled
    assert tr("static_row_note") in [m.value for m in at.main.markdown]
    assert tr("served_row_note") in [m.value for m in at.main.markdown]
    shown = {m.label: m.value for m in at.metric}
    assert shown[tr("pl_m_batch")] == fmt.integer(static.batch) and shown[tr("served_m_in_flight")] == fmt.integer(
        served.batch
    )
    assert shown[tr("served_m_ttft")] == fmt.duration(served.ttft_s)
    values = [m.value for m in at.metric]
    assert fmt.rate(static.tokens_per_s_per_gpu) in values and fmt.rate(served.tokens_per_s_per_gpu) in values
    assert fmt.usd(served.usd_per_1M_tokens) in values and fmt.usd(static.usd_per_1M_tokens) in values
    # the price and tokens per MW caption, at the static row's rate, sits under the static row, before the served
    # row's label (under the served row it had read as the served row's: third review)
    order = [e for e in _in_order(at.main) if type(e).__name__ in ("Markdown", "Caption")]
    texts = [str(e.value) for e in order]
    cost = next(i for i, t in enumerate(texts) if tr("m_tokens_per_mw_batch", batch=fmt.integer(static.batch)) in t)
    assert texts.index(tr("static_row_note")) < cost < texts.index(tr("served_row_note"))
    per_mw = static.tokens_per_s_per_gpu * 1e6 / float(estimate(m, hw, st.to_scenario(), p).all_in_w_per_gpu)
    assert fmt.rate(per_mw) in texts[cost]


@pytest.mark.parametrize("tr", [EN, ZH])
def test_an_unreachable_target_names_the_fastest_layout_that_fits(tr):
    """A target no layout meets says how fast the fastest layout that fits is (both forms of the target); with a
    TTFT target that is what blocks, it says the TTFT is what none meets."""
    q = {"model": "deepseek-r1", "hardware": "b200", "gpus": "8", "weights": "nvfp4", "kv": "fp8",
         "profile": "typical", "planner_section": "gpus", "lang": tr.lang}  # fmt: skip
    m, hw = load_model_catalog()["deepseek-r1"], load_hardware_catalog()["b200"]
    s = Scenario(context_tokens=4096, output_tokens=1024, weights="nvfp4", kv_cache="fp8")
    # the layout search's best engine (on by default): the fastest layout of either engine fitted on NVIDIA
    fastest = min(lo.fastest_tpot_s(t) for t in lo.engine_tables(m, hw, s, lo.best_engines(hw), max_gpus=8))
    at = run_page("planner", **q, planner_target_ms="2")
    assert not at.exception, at.exception
    said = tr("pl_layout_none_slo", budget=8, hw=hw.name, model=m.name, target=fmt.target(0.002, tr),
              fastest=fmt.target(fastest, tr))  # fmt: skip
    assert said in [w.value for w in at.warning]
    # beside it, what the chip was seen to reach: the most interactive MTP-free run of R1 in NVFP4 on B200 within the
    # 8-GPU budget, InferenceX's SGLang TP8/EP8 run at concurrency 1 (170.27 tok/s per user, 5.87 ms; 2026-05-22)
    measured = tr("pl_layout_measured_fastest", hw=hw.name, x=fmt.rate(170.27), id="InferenceX IX-006", engine="SGLang", gpus=8,
                  io="1K / 1K", date="2026-05-22")  # fmt: skip
    assert measured in [c.value for c in at.main.caption]
    assert (
        "reached 170 tok/s per user (InferenceX IX-006"
        if tr.lang == "en"
        else "每位使用者 170 tok/s（InferenceX IX-006"
    ) in measured
    # the whole-batch TTFT target is the static batch's: the layout search (per-request TTFT) says it does not apply
    ttft = run_page("planner", **q, planner_target_ms="50", planner_ttft_ms="1")
    assert not ttft.exception, ttft.exception
    assert tr("pl_layout_ttft_note", ttft=fmt.duration(0.001)) in [c.value for c in ttft.main.caption]
    assert not [w for w in ttft.warning if w.value.startswith(tr("pl_layout_none_slo", budget=8, hw=hw.name, model=m.name,
                target="", fastest="")[:20])]  # fmt: skip
    assert not [c for c in ttft.main.caption if c.value.startswith(measured[:12])]  # a layout met it: no such line


@pytest.mark.parametrize("tr", [EN, ZH])
def test_layout_says_how_far_measured_runs_like_it_sit(tr):
    """Issue 18: under an engine profile, an MoE deployment's tokens/s per GPU carries the range where 80 % of the
    measured frontier runs of its cell sit (frontier_check.deployment_range); a dense model's does not."""
    from tpot_model import frontier_check
    from tpot_model.pool_correction import committed_check

    q = {"model": "deepseek-r1", "hardware": "gb200", "gpus": "8", "weights": "fp8", "kv": "fp8",
         "profile": "tensorrt-llm", "planner_section": "gpus", "lang": tr.lang}  # fmt: skip
    m, hw = load_model_catalog()["deepseek-r1"], load_hardware_catalog()["gb200"]
    s = Scenario(context_tokens=4096, output_tokens=1024, weights="fp8", kv_cache="fp8")
    # the sidebar's engine (best engine off): the per-engine check; the best engine (the default): the best-engine
    # check, on the frontier over every engine
    for best, engines in (("0", resolve_profile("tensorrt-llm")), ("1", lo.best_engines(hw))):
        at = run_page("planner", **q, planner_best_engine=best)
        assert not at.exception, at.exception
        d = lo.best_deployment(m, hw, s, engines, max_gpus=72, tpot_target_s=0.05)
        check = committed_check()[frontier_check.summary_key(best == "1")]
        low, high, band, where = frontier_check.deployment_range(d, m, hw, resolve_profile(d.engine), check)
        assert d.gpus_used > 8 and where == ("multi_node", "below_high")
        said = tr("pl_layout_range", any=tr("pl_range_any_engine") if best == "1" else "",
                  runs=band["runs"] - band["unreached"], p10=f"{band['p10_ratio']:.2f}", p90=f"{band['p90_ratio']:.2f}",
                  tps=fmt.rate(d.tokens_per_s_per_gpu), low=fmt.rate(float(f"{low:.3g}")),
                  high=fmt.rate(float(f"{high:.3g}")), node=tr("pl_range_multi_node", n=8),
                  level=tr("pl_range_below_high", x="100"))  # fmt: skip
        assert said in [p for c in at.main.caption for p in c.value.split("\n\n")]
    dense = run_page("planner", **{**q, "model": "llama-3.1-70b"})
    assert not dense.exception and not any(c.value.startswith(said[:12]) for c in dense.main.caption)


@pytest.mark.parametrize("tr", [EN, ZH])
def test_slo_rate_and_cost_say_output_tokens_beside_the_layouts_input_plus_output(tr):
    """The SLO frontier's rate (batch / TPOT / GPUs) and its cost count output tokens; the layout search's rate
    counts input + output: each says which, and the sidebar-batch comparison matches the cost metric's basis."""
    at = run_page("planner", lang=tr.lang)
    assert not at.exception
    labels = [m.label for m in at.metric]
    assert tr("pl_m_tps_gpu") in labels and tr("pl_m_cost") in labels
    output = "output" if tr is EN else "輸出"
    assert output in tr("pl_m_tps_gpu").lower() and output in tr("pl_m_cost")
    comparison = next(c.value.split("\n\n")[0] for c in at.main.caption if c.value.startswith(tr("pl_sidebar_batch",
                      batch=32, tpot="", verdict="", per_gpu="", usd="", x="")[:8]))  # fmt: skip
    assert tr("pl_sidebar_batch", batch="", tpot="", verdict="", per_gpu="", usd="", x="").count(output) == 2
    assert comparison.count(output) == 2
    layout = run_page("planner", planner_section="gpus", lang=tr.lang)
    assert tr("pl_m_layout_tps") in [m.label for m in layout.metric]
    assert ("input + output" if tr is EN else "輸入加輸出") in tr("pl_m_layout_tps")


def test_batches_of_thousands_carry_separators():
    """Llama-3.1-8B on 2 x H200 at 512 tokens meets 50 ms at a batch of about two thousand: '2,069', not '2069' (it
    had read '1400' beside '1,400 tok/s' elsewhere)."""
    at = run_page("planner", model="llama-3.1-8b", hardware="h200", gpus="2", weights="fp8", context="512")
    assert not at.exception, at.exception
    shown = _metric(at, EN("pl_m_batch"))
    assert "," in shown and int(shown.replace(",", "")) >= 1000


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_layout_search_shows_its_decode_pools_step_and_communication_share(lang):
    """Issue 18: the chosen layout's TPOT breakdown, with communication's share and the link it crosses (on GB200
    the decode pool's all-to-all stays inside the NVL72 domain); its CSV carries the same parts."""
    tr = Translator(lang)
    at = run_page("planner", model="deepseek-r1", hardware="gb200", gpus="8", weights="fp8", kv="fp8",
                  context="1024", output="1024", planner_section="gpus", lang=lang)  # fmt: skip
    assert not at.exception, at.exception
    m, hw = load_model_catalog()["deepseek-r1"], load_hardware_catalog()["gb200"]
    s = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    d = lo.best_deployment(m, hw, s, lo.best_engines(hw), max_gpus=72, tpot_target_s=0.05)  # the best engine
    parts = lo.decode_parts(m, hw, s, resolve_profile(d.engine), d)
    assert parts is not None and parts.link == "scale_up"
    assert figs.layout_parts_text(d, parts, hw, tr=tr) in [c.value for c in at.main.caption]
    said = figs.layout_parts_text(d, parts, hw, tr=tr)
    assert fmt.pct(parts.communication_share, 0) in said and tr("bucket_communication") in said
    assert tr("pl_link_scale_up", domain=72, up=fmt.unbroken(fmt.gb_per_s(hw.scale_up_bytes_per_s)), assumed="") in said
    table = figs.layout_table(
        d, serving_searched="best", usable_bytes=lambda pool: 1.0, usable_basis="reported", parts=parts
    )
    decode = table[table.pool == "decode"].iloc[0]
    assert decode.step_communication_ms == pytest.approx(parts.parts_s["communication"] * 1e3)
    assert decode.collective_link == "scale_up"


def test_layout_search_takes_a_per_request_ttft_target_from_the_page_and_the_url():
    """The Planner offered only the whole-batch TTFT target, which the layout search does not apply: the search's
    own per-request target (the CLI's frontier --max-gpus --ttft-target-ms) sits beside its budget, in the URL."""
    at = run_page("planner", model="deepseek-r1", hardware="b200", gpus="8", weights="fp8", kv="fp8",
                  planner_section="gpus", planner_request_ttft_ms="300")  # fmt: skip
    assert not at.exception, at.exception
    assert at.number_input(key="planner.request_ttft_ms").value == 300
    m, hw = load_model_catalog()["deepseek-r1"], load_hardware_catalog()["b200"]
    s = Scenario(context_tokens=4096, output_tokens=1024, weights="fp8", kv_cache="fp8")
    engines = lo.best_engines(hw)  # the layout search's default
    loose = lo.best_deployment(m, hw, s, engines, max_gpus=8, tpot_target_s=0.05)
    held = lo.best_deployment(m, hw, s, engines, max_gpus=8, tpot_target_s=0.05, ttft_target_s=0.3)
    assert held.ttft_s <= 0.3 < loose.ttft_s  # it binds: 395 ms without it (1 × DEP8), 122 ms with it (1 × TP8)
    assert held.tokens_per_s_per_gpu < loose.tokens_per_s_per_gpu
    assert _layout_metrics(at)["pl_m_layout_ttft"] == fmt.duration(held.ttft_s)
    assert EN("pl_layout_request_ttft_met", target="300 ms", ttft=fmt.duration(held.ttft_s)) in [
        c.value for c in at.main.caption
    ]
    assert at.query_params["planner_request_ttft_ms"] == "300"
    at.number_input(key="planner.request_ttft_ms").set_value(0.0).run()  # none: the parameter leaves the link
    assert _layout_metrics(at)["pl_m_layout_ttft"] == fmt.duration(loose.ttft_s)
    assert "planner_request_ttft_ms" not in at.query_params


def test_a_wiki_readers_run_of_its_link_writes_no_planner_parameters():
    """Embedded, the link as given is the view: a reader's run writes none of the Planner's parameters (a message to
    every reader of a wiki link); the full view writes them; a change in the embed view writes them too."""
    at = run_page("planner", model="llama-3.1-70b", hardware="h200", gpus="2", weights="fp8", embedded=True)
    assert not at.exception, at.exception
    assert not any(k.startswith(("planner_", "spec_", "prefix_")) for k in at.query_params), dict(at.query_params)
    full = run_page("planner", model="llama-3.1-70b", hardware="h200", gpus="2", weights="fp8")
    assert full.query_params["planner_target_ms"] == "50" and full.query_params["planner_max_gpus"] == "8"
    at.session_state["planner.request_ttft_ms"] = 300.0
    at.run()
    assert at.query_params["planner_request_ttft_ms"] == "300"
    # the change wrote every parameter, planner_section too: the page stays folded (the link named no tab)
    assert at.query_params["planner_section"] == "hardware" and at.toggle(key="embed.more").value is False
    named = run_page("planner", model="llama-3.1-70b", embedded=True, planner_section="gpus")
    assert "embed.more" not in [t.key for t in named.toggle]  # a link naming a tab shows it


@pytest.mark.parametrize("tr", [EN, ZH])
def test_layout_says_when_its_decode_pool_goes_beyond_the_measured_recipes(tr):
    """DeepSeek-R1 FP8 on GB200 at the chat target (50 ms TPOT), 4K/1K, within the NVL72 domain: the search's decode
    pool, DEP16 at ~318 sequences per GPU where the most any published DEP16 run decoded is 246
    (frontier_check.beyond_measured against the serving data's reach), is said to extrapolate, with its numbers."""
    from tpot_model import frontier_check
    from tpot_model.disaggregated import decode_reach
    from tpot_model.serving_calibration import load_serving_measurements

    q = {"model": "deepseek-r1", "hardware": "gb200", "gpus": "8", "weights": "fp8", "kv": "fp8",
         "planner_section": "gpus", "planner_best_engine": "0", "lang": tr.lang}  # fmt: skip
    at = run_page("planner", **q)  # the sidebar's engine, typical
    assert not at.exception, at.exception
    m, hw = load_model_catalog()["deepseek-r1"], load_hardware_catalog()["gb200"]
    s = Scenario(context_tokens=4096, output_tokens=1024, weights="fp8", kv_cache="fp8")
    d = lo.best_deployment(m, hw, s, resolve_profile("typical"), max_gpus=72, tpot_target_s=0.05)
    far = frontier_check.beyond_measured(d, m.id, decode_reach(load_serving_measurements()), hw)
    captions = [p for c in at.main.caption for p in c.value.split("\n\n")]
    assert d.decode.label == "1 × DEP16" and far is not None and far[0] > far[1]  # ~318 per GPU against 246 measured
    layout = d.decode.layout_name
    said = (tr("pl_layout_beyond", seqs=fmt.integer(far[0]), most=fmt.integer(far[1]), layout=layout)
            if far[1] is not None else tr("pl_layout_beyond_new", seqs=fmt.integer(far[0]), layout=layout))  # fmt: skip
    assert said in captions, (said, captions)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_layout_sets_the_measured_frontier_at_the_target_beside_it(lang):
    """The layout search's caption names the measured frontier at the target (frontier_check.measured_at over the
    runs like the sidebar's scenario within the budget): DeepSeek-R1 FP8 1k/1k on GB200 at 40 ms (25 tok/s per user)
    within 72 GPUs, 6,392 tokens/s per GPU between IX-381 and IX-363, and the chosen layout's rate over it; within 8
    GPUs on B200 no run is near 25 tok/s per user (the least interactive single-node run is at 35.7): no caption."""
    import math

    tr = Translator(lang)
    q = dict(model="deepseek-r1", weights="fp8", kv="fp8", context="1024", output="1024", planner_target_ms="40",
             planner_section="gpus", lang=lang)  # fmt: skip
    at = run_page("planner", hardware="gb200", planner_max_gpus="72", **q)
    assert not at.exception, at.exception
    (said,) = [c.value for c in at.caption if "IX-381" in c.value]
    w = math.log(25 / 12.09) / math.log(37.03 / 12.09)
    tps = math.exp(math.log(8258.7) + w * math.log(5564.9 / 8258.7))
    assert (
        fmt.rate(tps) in said
        and "IX-363" in said
        and said.startswith(tr("pl_layout_measured_at", tps="", how="", hw="")[:6])
    )
    s = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    m, hw = load_model_catalog()["deepseek-r1"], load_hardware_catalog()["gb200"]
    d = lo.best_deployment(m, hw, s, lo.best_engines(hw), max_gpus=72, tpot_target_s=0.040)
    assert said.endswith(tr("pl_layout_measured_ratio", ratio=fmt.number(d.tokens_per_s_per_gpu / tps)))
    at = run_page("planner", hardware="b200", planner_max_gpus="8", **q)
    lead = tr("pl_layout_measured_at", tps="", how="", hw="")[:6]
    assert not at.exception and not [c.value for c in at.caption if c.value.startswith(lead)]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_link_parameter_no_page_reads_is_said_not_ignored_silently(lang):
    """A Planner link with max_gpus (its parameter is planner_max_gpus) says so above the page, and the page runs."""
    tr = Translator(lang)
    at = run_page("planner", max_gpus="16", lang=lang)
    assert not at.exception, at.exception
    hint = tr("notice_unknown_hint_label", name=control_name(tr("pl_budget"), "planner_max_gpus", tr))
    assert [w.value for w in at.warning] == [tr.sentences([tr("notice_unknown_param", param="max_gpus"), hint])]
    assert "max_gpus" not in at.query_params  # out of the link copied on (the notice said so once)
    assert not [w.value for w in run_page("planner", planner_max_gpus="16", lang=lang).warning if "max_gpus" in w.value]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_layout_search_takes_the_best_engine_unless_told_the_sidebars(lang):
    """The layout search runs under the best engine by default (the CLI's frontier --max-gpus too): DeepSeek-R1 FP8
    1k/1k on B200 at 25 tok/s per user, the faster of SGLang and TensorRT-LLM, named in a caption and in the CSV;
    planner_best_engine=0 in the link (the toggle off) times it under the sidebar's profile, and the link says so."""
    tr = Translator(lang)
    q = dict(model="deepseek-r1", hardware="b200", gpus="8", weights="fp8", kv="fp8", context="1024", output="1024",
             planner_target_ms="40", planner_max_gpus="72", planner_section="gpus", lang=lang)  # fmt: skip
    m, hw = load_model_catalog()["deepseek-r1"], load_hardware_catalog()["b200"]
    s = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    best = lo.best_deployment(m, hw, s, lo.best_engines(hw), max_gpus=72, tpot_target_s=0.040)
    own = lo.best_deployment(m, hw, s, resolve_profile("typical"), max_gpus=72, tpot_target_s=0.040)
    assert best.engine == "tensorrt-llm" and best.tokens_per_s_per_gpu > own.tokens_per_s_per_gpu * 1.2
    at = run_page("planner", **q)
    assert not at.exception, at.exception
    assert at.toggle(key="planner.best_engine").value is True and "planner_best_engine" not in at.query_params
    assert _metric(at, tr("pl_m_layout_tps")) == fmt.rate(best.tokens_per_s_per_gpu)
    names = tr.join([tr("profile_sglang") if tr.has("profile_sglang") else "SGLang", "TensorRT-LLM"])
    assert tr("pl_layout_engine", engine="TensorRT-LLM", vendor="NVIDIA", engines=names) in [
        c.value for c in at.main.caption
    ]
    off = run_page("planner", **q, planner_best_engine="0")
    assert not off.exception, off.exception
    assert off.toggle(key="planner.best_engine").value is False and off.query_params["planner_best_engine"] == "0"
    assert _metric(off, tr("pl_m_layout_tps")) == fmt.rate(own.tokens_per_s_per_gpu)
    lead = tr("pl_layout_engine", engine="", vendor="", engines="")[:5]
    assert not [c.value for c in off.main.caption if c.value.startswith(lead)]
    # a TPU: no engine is fitted to serving runs on Google's chips, so the search is typical's, and says so
    tpu = run_page("planner", model="llama-3.1-70b", hardware="tpu-v6e", weights="fp8", planner_section="gpus",
                   lang=lang)  # fmt: skip
    assert not tpu.exception, tpu.exception
    assert tr("pl_layout_engine_none", engine=tr("profile_typical"), vendor="Google") in [
        c.value for c in tpu.main.caption
    ]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_bad_switch_in_a_link_says_on_or_off(lang):
    """planner_best_engine=maybe: the notice names what the page uses as the link writes it and in words,
    '`1` (on)', not a bare 1; the switch stays on."""
    tr = Translator(lang)
    at = run_page("planner", planner_section="gpus", planner_best_engine="maybe", lang=lang)
    assert not at.exception, at.exception
    name = control_name(tr("pl_best_engine"), "planner_best_engine", tr)
    said = tr("notice_switch_param", name=name, given="maybe", state=tr("notice_switch_on"))
    assert [w.value for w in at.warning] == [said]
    assert at.toggle(key="planner.best_engine").value is True


def test_the_chosen_pools_table_groups_thousands():
    """The layout search's pool table read 'Batch per instance 11094' beside '8,170 tok/s': its numbers are shown
    with thousands grouped, the batch included; in a static table that wraps (at 900 px a scrolled grid had hidden
    the batch column: browser review)."""
    at = run_page("planner", model="deepseek-r1", hardware="gb200", weights="fp8", kv="fp8", context="1024",
                  output="1024", planner_section="gpus", planner_target_ms="40", planner_max_gpus="72")  # fmt: skip
    assert not at.exception, at.exception
    (pools,) = [t for t in at.table if t.value.columns[0] == EN("pl_col_pool")]
    batches = list(pools.value[EN("pl_col_instance_batch")])
    assert any(len(b) > 4 and b[-4] == "," for b in batches), batches  # '1,234'
    assert list(pools.value.columns[2:7]) == [EN("pl_col_gpus"), "TP", "EP", "DP", "PP"]


@pytest.mark.parametrize("tr", [EN, ZH])
def test_the_served_row_takes_the_ttft_target_and_the_chips_price(tr):
    """DeepSeek-R1 FP8 on 8 x H200 at 50 ms TPOT (second browser review). With a 100 ms TTFT target no static batch
    meets it: the served row had still shown 132 ms TTFT per request under 'the same target', and 'No public price'
    (read off the static row's blank cost) for a chip priced at $4.54 an hour. Now it is searched under the TTFT
    target too and says none meets the targets; at 200 ms it holds 139 requests in flight, priced."""
    from dataclasses import replace

    q = dict(model="deepseek-r1", hardware="h200", gpus="8", weights="fp8", kv="fp8", lang=tr.lang)
    at = run_page("planner", **q, planner_ttft_ms="100")
    assert not at.exception, at.exception
    assert tr("served_row_none") in [m.value for m in at.main.markdown]
    assert tr("served_m_in_flight") not in [m.label for m in at.metric]
    at = run_page("planner", **q, planner_ttft_ms="200")
    assert not at.exception, at.exception
    m, hw = load_model_catalog()["deepseek-r1"], load_hardware_catalog()["h200"]
    s = Scenario(context_tokens=4096, output_tokens=1024, num_gpus=8, weights="fp8", kv_cache="fp8")
    served = pl.frontier(m, hw, replace(s, batching="continuous"), resolve_profile("typical"), 0.05, 0.2)
    assert served.feasible and served.ttft_s <= 0.2
    shown = [(m.label, m.value) for m in at.metric]
    assert (tr("served_m_in_flight"), fmt.integer(served.batch)) in shown
    assert (tr("pl_m_cost"), fmt.usd(served.usd_per_1M_tokens)) in shown
    # an MoE model: the GPU-count search, with the pool correction, times this row's step longer, and says by how much
    # (a review: 2,176 here against 1,467 output tok/s per GPU in the search on the same 8 GPUs, unexplained)
    sc = replace(s, batching="continuous", batch=served.batch)
    f = lo.plain_step_factor(m, hw, sc, resolve_profile("typical"))
    said = tr("served_row_pool", b=f"{served.batch / 8:,.3g}", f=f"{f:.2f}")
    assert f > 1.05 and said in [c.value for c in at.main.caption]
    dense = run_page("planner", model="llama-3.1-70b", hardware="h200", gpus="2", weights="fp8", lang=tr.lang)
    assert not [c for c in dense.main.caption if c.value.startswith(tr("served_row_pool").split("{")[0])]


def test_the_hardware_grid_is_counted_as_the_served_row():
    """The hardware x precision grid is on the served row's basis (continuous batching, prompts prefilled between
    the decode steps): its H200 FP8 cell on the sidebar's GPU count is the served row's $ and tok/s per GPU (one
    static batch with no prefill had read $0.96 beside the served $1.97)."""
    from dataclasses import replace

    from ui.state import ScenarioState

    at = run_page("planner", planner_section="hardware")
    at.radio(key="planner.table_gpus").set_value("sidebar").run()
    st = ScenarioState()
    m, hw = load_model_catalog()[st.model], load_hardware_catalog()[st.hardware]
    served = pl.frontier(m, hw, replace(st.to_scenario(), batching="continuous"), resolve_profile(st.profile), 0.05)
    (heat,) = [t for f in figures(at) for t in f["data"] if t.get("type") == "heatmap"]
    row, col = heat["y"].index(fmt.chip_short(hw)), heat["x"].index(EN("pl_prec_fp8"))  # its short name
    z = decode(heat["z"]).reshape(len(heat["y"]), len(heat["x"]))
    assert z[row, col] == pytest.approx(np.log10(served.usd_per_1M_tokens))  # coloured on a log scale
    cell = f"<b>{fmt.usd(served.usd_per_1M_tokens)}</b><br>{served.tokens_per_s_per_gpu:,.0f} {EN('pl_unit_tps_gpu')}"
    # two lines in the cell (three overprinted at 900 px), the GPUs and requests in flight in its hover too
    assert heat["text"][row][col] == cell
    assert heat["customdata"][row][col] == f"{cell}<br>{EN('pl_cell_where', gpus=st.gpus, batch=served.batch)}"


def test_planner_layout_export_states_its_budget_and_engine_not_the_sidebars():
    """Browser review: the layout's CSV was named '..._2xgb200_..._b32_..._typical' (the sidebar's 2 GPUs, batch and
    engine) for a 40-of-72-GPU deployment timed under the best engine: it says the budget ('max72xgb200', 'best layout
    within 72 GPUs'), no batch, and the engine searched."""
    import json

    at = run_page("planner", model="deepseek-r1", hardware="gb200", weights="fp8", planner_section="gpus",
                  planner_max_gpus="72", planner_target_ms="16.6667", planner_best_engine="1")  # fmt: skip
    assert not at.exception, at.exception
    payloads = [json.loads(el.proto.bytes) for el in at.get("bidi_component") if el.proto.bytes]
    (layout,) = [p["export"] for p in payloads if p["export"]["filename"].startswith("planner-layout_")]
    assert "_max72xgb200_" in layout["filename"] and "_b32_" not in layout["filename"], layout["filename"]
    assert layout["filename"].endswith("_best_tpot16.67ms") and "within 72 GPUs" in json.dumps(layout["decor"])
    # the grid of chips: the target in its name, no batch (helper review: two targets' files had one name)
    at = run_page("planner", planner_target_ms="16.6667")
    payloads = [json.loads(el.proto.bytes) for el in at.get("bidi_component") if el.proto.bytes]
    (cost,) = [p["export"] for p in payloads if p["export"]["filename"].startswith("planner-cost_")]
    assert cost["filename"].endswith("_tpot16.67ms") and "_b32_" not in cost["filename"], cost["filename"]


def test_the_cost_grid_says_your_own_price_is_the_sidebar_chips_alone():
    """Economics' 'Use this $/GPU-hour' sets the basis to your own: the Planner's grid had then said 'Catalog prices;
    the sidebar's price override applies only to H200' over grey 'no price' cells of every other chip. Under your own
    price it says those chips have none under it; under a published basis it says nothing of an override."""
    from apptest_util import run_page

    own = run_page("planner", price_basis="custom", price="1.22")
    assert not own.exception
    said = EN("cost_basis_unpriced_own", hws="", bases="").split(":")[0]  # one owner: the basis caption, on every page
    assert any(said in c.value for c in own.caption)
    assert not any("enter your own" in c.value for c in own.caption)  # it cannot be entered for the others
    published = run_page("planner")
    assert not any("override" in c.value or said in c.value for c in published.caption)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_capacity_counts_users_as_the_served_row_does(lang):
    """A helper review: Llama-3.1-70B FP8 on 2 x H200 (4K/1K, 50 ms): the Capacity tab read 114 users at the target
    (one static batch, no prefill) where the same page's served row, Cost and Economics read 64 requests in flight.
    It counts them as a server runs them, and its KV metric says at how many tokens."""
    tr = Translator(lang)
    at = _open(run_page("planner", lang=lang, model="llama-3.1-70b", hardware="h200", gpus="2", weights="fp8",
                        kv="bf16", batch="32", context="4096", output="1024"), "capacity", tr=tr)  # fmt: skip
    models, hw = load_model_catalog(), load_hardware_catalog()["h200"]
    s = Scenario(batch=32, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8", batching="continuous")
    served = pl.frontier(models["llama-3.1-70b"], hw, s, resolve_profile("typical"), 0.05)
    static = pl.frontier(models["llama-3.1-70b"], hw, Scenario(batch=32, context_tokens=4096, output_tokens=1024,
                                                                num_gpus=2, weights="fp8"), resolve_profile("typical"), 0.05)  # fmt: skip
    assert served.batch < static.batch  # 64 against 114: the prompts' prefill rides the steps
    (users,) = [m for m in at.metric if m.label == tr("pl_m_users")]
    assert users.value == f"{served.batch:,}"
    assert f"{served.batch:,}" in " ".join(m.value for m in at.markdown if tr("pl_capacity_text")[:10] in m.value)
    # the whole copy, said to be over the instance's GPUs (the text under it gives each GPU's share: a review read the
    # two as one quantity)
    (kv,) = [
        m for m in at.metric if m.label == tr("pl_m_kv_user", tokens=fmt.tokens(5120), devices=fmt.devices(hw, 2, tr))
    ]
    assert kv.value == fmt.gb(
        cap_kv := pl.capacity(models["llama-3.1-70b"], hw, s, resolve_profile("typical"), 0.05).kv_bytes_per_user
    )
    assert cap_kv == pytest.approx(
        2 * pl.capacity(models["llama-3.1-70b"], hw, s, resolve_profile("typical"), 0.05).kv_bytes_per_user_per_gpu
    )
    # memory alone: 113 users as a server runs them (a prefill chunk's workspace held), 114 as the frontier's static
    # batch above ('batch 115 would no longer fit'): both said, so the two counts do not read as an off-by-one
    cap = pl.capacity(models["llama-3.1-70b"], hw, s, resolve_profile("typical"), 0.05)
    assert (cap.max_users_memory, cap.max_users_memory_static) == (113, 114)
    text = " ".join(m.value for m in at.markdown if tr("pl_capacity_text")[:10] in m.value)
    assert tr("pl_capacity_static", static="114") in text and " 113 " in text.replace("，", " ").replace("位", " ")


def test_the_static_rows_tokens_per_mw_name_their_batch():
    """A helper review: under the static row 'Tokens/s per MW 931 K' read in Overview's words at the frontier's batch
    of 114 (Overview's 523 K is at the sidebar's 32): it names the batch."""
    at = run_page("planner", model="llama-3.1-70b", hardware="h200", gpus="2", weights="fp8", kv="bf16", batch="32",
                  context="4096", output="1024")  # fmt: skip
    want = EN("m_tokens_per_mw_batch", batch="114")
    assert any(want in c.value for c in at.caption), [c.value for c in at.caption]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_scenario_that_does_not_fit_is_not_blamed_on_a_price(lang):
    """A helper review: Llama-3.1-405B BF16 on one H100: the $ metric's help read 'No price for this hardware' beside
    the $2.49 per GPU-hour the page showed, and the rate's 'In total n/a on 1 GPU'; both say no batch meets it."""
    tr = Translator(lang)
    at = run_page("planner", lang=lang, model="llama-3.1-405b", hardware="h100-sxm", gpus="1", weights="bf16",
                  kv="bf16", batch="32", context="4096", output="1024")  # fmt: skip
    shown = {m.label: m for m in at.metric}
    for label in (tr("pl_m_cost"), tr("pl_m_tps_gpu")):
        assert shown[label].value == "—" and shown[label].proto.help == tr("pl_m_no_point")
    assert not [m for m in at.metric if "n/a" in m.proto.help]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_layout_search_says_tensorrt_llm_sizes_its_cache_from_the_free_memory(lang):
    """Under TensorRT-LLM (the toggle off, the sidebar's engine) the fits are checked layout by layout, the KV cache
    taking 0.9 of what the weights, workspace and reservation leave (free_gpu_memory_fraction), so the caption gives
    the rule and the chosen layout's figure; under vLLM one figure, 0.9 x 193.3 GB - 4.45 GB = 169.5 GB per B200 GPU."""
    from tpot_model.estimate import usable_memory

    tr, b200 = Translator(lang), load_hardware_catalog()["b200"]
    q = dict(model="deepseek-r1", hardware="b200", weights="fp8", kv="fp8", planner_section="gpus",
             planner_best_engine="0", lang=lang)  # fmt: skip
    for engine, name in (("tensorrt-llm", "TensorRT-LLM"), ("vllm", "vLLM")):
        at = run_page("planner", profile=engine, **q)
        assert not at.exception, at.exception
        captions = [c.value for c in at.main.caption]
        g = usable_memory(b200, resolve_profile(engine))
        whose = tr("pl_reserved_inherited", engine=name) if engine == "tensorrt-llm" else tr("pl_reserved_vllm")
        common = dict(fraction="0.9", reserved=fmt.gb(g.reserved_bytes), whose=whose, engine=name)
        if engine == "tensorrt-llm":
            said = tr("pl_layout_memory_free", capacity=fmt.capacity(g, tr), **common)
            # and the chosen layout's usable memory, a share of what its weights and workspace leave
            chosen = tr("pl_layout_memory_chosen", layout="\0", usable="\0").split("\0")[0]
            assert any(c.startswith(said + chosen) for c in captions), (said, captions)
            continue
        assert fmt.gb(g.budget_bytes) == "170 GB"  # 169.50 GB, to 3 significant figures
        said = tr("pl_layout_memory_reported", usable=fmt.gb(g.budget_bytes), capacity=fmt.capacity(g, tr), **common)
        assert said in captions, (said, captions)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_gpu_count_chart_draws_only_splits_of_the_heads(lang):
    """A browser review: DeepSeek-R1 on GB200 NVL72 drew TP72, a split of none of its 128 attention heads (engines
    refuse it); the chart stops at 64 and the note says what was left out and why."""
    tr = Translator(lang)
    at = _open(
        run_page("planner", lang=lang, model="deepseek-r1", hardware="gb200", gpus="8", weights="fp8"), "gpus", tr
    )
    assert not at.exception, at.exception
    fig = _figure(at, "pl_tp_title", tr=tr, batch=32)
    assert list(fig["layout"]["xaxis"]["tickvals"]) == ["1", "2", "4", "8", "16", "32", "64"]
    said = tr("pl_tp_left_out_one", heads=128, counts="72")
    assert any(said in m.value for m in at.markdown)


def test_a_layout_on_a_chip_without_a_price_says_why_under_its_dash():
    """MI355X has no public on-demand price: the layout search's $ per 1M read a bare '—' where the batch section's
    row says 'No public price' under its dash (a browser review); both say it."""
    at = run_page("planner", model="llama-3.1-70b", hardware="mi355x", gpus="8", weights="fp8",
                  price_basis="on_demand", planner_section="gpus")  # fmt: skip
    assert not at.exception, at.exception
    (m,) = [m for m in at.metric if m.label == EN("pl_m_layout_usd")]
    assert m.value == "—" and m.delta == EN("no_public_price_short")


def test_the_default_budget_covers_the_sidebars_gpus_on_a_chip_that_is_its_own_domain():
    """A review: on 2 x GB10 (each a scale-up domain of one) the GPU-count tab searched within 1 and read 'No layout
    within 1 x NVIDIA GB10'; the default budget is the chip's domain or the sidebar's GPUs, the more (8 on 2 x H200)."""
    at = run_page("planner", hardware="gb10", gpus="2", planner_section="gpus")
    assert not at.exception, at.exception
    assert at.session_state["planner.max_gpus"] == 2
    assert run_page("planner", hardware="h200", gpus="2").session_state["planner.max_gpus"] == 8


def test_the_planners_dollars_read_as_costs_three_significant_figures():
    """MI355X, Llama 3.1 70B FP8 1k / 1k at 50 ms, hyperscaler: the Planner had shown '$0.11' and '$0.07' where Cost
    showed '$0.115' and '$0.0700', and its grid 'B200 FP4 $0.06' beside 'MI355X FP4 $0.07' hid up to ±8 %. Every $
    per 1M on the page is fmt.usd's, as Cost's: the rows' metrics, the grid's cells and the sidebar batch's line."""
    from dataclasses import replace

    q = dict(model="llama-3.1-70b", hardware="mi355x", gpus="1", weights="fp8", kv="fp8", context="1024",
             output="1024", price_basis="hyperscaler")  # fmt: skip
    at = run_page("planner", **q)
    assert not at.exception, at.exception
    m, hw = load_model_catalog()["llama-3.1-70b"], load_hardware_catalog()["mi355x"]
    s = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8", price_basis="hyperscaler")
    static = pl.frontier(m, hw, s, resolve_profile("typical"), 0.05)
    served = pl.frontier(m, hw, replace(s, batching="continuous"), resolve_profile("typical"), 0.05)
    costs = [v.value for v in at.metric if v.label == EN("pl_m_cost")]
    assert costs == [fmt.usd(static.usd_per_1M_tokens), fmt.usd(served.usd_per_1M_tokens)], costs
    assert all(re.fullmatch(r"\$0\.\d{3}|\$0\.0\d{3}", c) for c in costs), costs  # 3 figures, not to the cent
    from tests.apptest_util import visible_texts

    cost = run_page("cost", **q)  # Cost's same served row, in the same words
    assert any(fmt.usd(served.usd_per_1M_tokens) in t for t in visible_texts(cost))
    grid = run_page("planner", **q, planner_section="hardware")
    (heat,) = [t for f in figures(grid) for t in f["data"] if t.get("type") == "heatmap"]
    z = 10 ** decode(heat["z"]).reshape(len(heat["y"]), len(heat["x"]))
    for i, row in enumerate(heat["text"]):
        for j, text in enumerate(row):
            if np.isfinite(z[i, j]):
                assert text.startswith(f"<b>{fmt.usd(z[i, j])}</b>"), text


# --------------------------------------------------------------------------------------------------- grid chips


def _grid(at) -> dict:
    """The hardware x precision heat map's trace."""
    (table,) = [f for f in figures(at) if f["data"][0].get("type") == "heatmap"]
    return table["data"][0]


def _export(at, chart_id: str) -> dict:
    """A chart's export settings as its component carries them (file name, title and scenario lines)."""
    from ui import chart

    payloads = [json.loads(el.proto.bytes) for el in at.get("bidi_component")
                if el.proto.component_name == chart.CHART_COMPONENT and el.proto.bytes]  # fmt: skip
    (match,) = [p["export"] for p in payloads if p["export"]["filename"].startswith(chart_id + "_")]
    return match


@pytest.mark.parametrize("tr", [EN, ZH])
def test_a_link_sets_the_grids_chips_and_the_sidebars_joins_them(tr):
    """planner_chips=gb200,mi455x,tpu-8i: the grid has those rows and the sidebar's H200 after them, each with its
    model's numbers: GB200 priced under the sidebar's on-demand basis, MI455X and TPU 8i (announced, marked) priced
    under none, their cells saying so beside their tokens/s; the multiselect, the link and the exports carry them."""
    from dataclasses import replace

    from ui.state import ScenarioState

    at = run_page("planner", lang=tr.lang, planner_chips="gb200,mi455x,tpu-8i")
    assert not at.exception, at.exception
    assert not at.warning
    ids = ("gb200", "mi455x", "tpu-8i", "h200")
    hws = [load_hardware_catalog()[h] for h in ids]
    heat = _grid(at)
    names = fmt.chip_names(hws, tr=tr)  # short names, an announced chip marked
    assert names[:3] == ["GB200 NVL72", tr("hw_announced_name", name="MI455X"), tr("hw_announced_name", name="TPU 8i")]
    assert heat["y"] == [wrap_label(n) for n in names]  # the mark on a line of its own
    assert at.multiselect(key="planner.chips").value == ["gb200", "mi455x", "tpu-8i"]
    assert at.query_params["planner_chips"] == "gb200,mi455x,tpu-8i"
    st = ScenarioState()
    grid = pl.cost_grid(load_model_catalog()[st.model], hws, replace(st.to_scenario(), batching="continuous"),
                        resolve_profile(st.profile), tpot_target_s=0.05, gpu_options=pl.DOMAIN,
                        price_applies_to="h200")  # fmt: skip
    z = decode(heat["z"]).reshape(len(ids), -1)
    gb200, mi455x = grid.cells[0], grid.cells[1]
    assert all(c.feasible for c in gb200) and 0.3 < gb200[1].usd_per_1M_tokens < 3  # FP8: under $3 per 1M
    assert np.allclose(z[0], np.log10([c.usd_per_1M_tokens for c in gb200]))  # real prices, each cell's own
    assert heat["text"][0][1].startswith(f"<b>{fmt.usd(gb200[1].usd_per_1M_tokens)}</b>")
    assert np.isnan(z[1]).all() and np.isnan(z[2]).all()  # no price under any basis: grey
    for cell, text in zip(mi455x, heat["text"][1], strict=True):  # '— no price —' and its tokens/s per chip
        assert cell.feasible and text.startswith(tr("pl_cell_no_price"))
        assert f"{cell.tokens_per_s_per_gpu:,.0f} {tr.for_device('chip')('pl_unit_tps_gpu')}" in text
    captions = [c.value for c in at.caption]
    chip_tr = tr.for_device("chip")
    unpriced = chip_tr("cost_basis_unpriced_nowhere", hws=tr.join([fmt.chip(h, tr) for h in hws[1:3]]),
                       own=chip_tr("own_price_select"))  # fmt: skip
    assert any(unpriced in c for c in captions), captions
    export = _export(at, "planner-cost")
    assert "gb200-mi455x-tpu-8i-h200" in export["filename"]  # the file names the chips charted
    assert all(fmt.chip(h, tr, short=True) in json.dumps(export["decor"], ensure_ascii=False) for h in hws)


def test_a_bad_chip_in_the_link_is_said_and_dropped():
    """planner_chips with a chip no catalog entry answers to: a notice quoting it and the chips it resembles, the
    grid of the others (and the sidebar's), no exception; none readable: the default set."""
    at = run_page("planner", planner_chips="gb200,gb20")
    assert not at.exception, at.exception
    name = control_name(EN("pl_chips"), "planner_chips", EN)
    said = EN.sentences([EN("notice_bad_param", name=name, given="gb20", used="GB200 NVL72"),
                         EN("notice_near", names=EN.join(["`gb200`", "`gb10`", "`b200`"]))])  # fmt: skip
    assert [w.value for w in at.warning] == [said]
    assert [y.replace("<br>", " ") for y in _grid(at)["y"]] == ["GB200 NVL72", "H200 SXM 141GB"]
    assert at.query_params["planner_chips"] == "gb200"  # the link copied on: what the grid shows
    none = run_page("planner", planner_chips="not-a-chip", lang="zh-TW")
    assert not none.exception, none.exception
    (warning,) = [w.value for w in none.warning]
    assert "not-a-chip" in warning and ZH("pl_chips") in warning and "MI300X" in warning  # the default set, named
    assert len(_grid(none)["y"]) == len(figs.TABLE_HARDWARE) and "planner_chips" not in none.query_params


def test_the_default_grid_is_unchanged(default):
    """No planner_chips: the grid is the set it always was (H100, H200, B200, MI300X, MI355X; the sidebar's H200
    among them), in that order, and the link carries no planner_chips."""
    hws = [load_hardware_catalog()[h] for h in figs.TABLE_HARDWARE]
    assert _grid(default)["y"] == fmt.chip_names(hws, tr=EN)
    assert default.multiselect(key="planner.chips").value == list(figs.TABLE_HARDWARE)
    assert "planner_chips" not in default.query_params
    assert EN("pl_chips_help", hw="H200 SXM 141GB", n=12) == default.multiselect(key="planner.chips").help
    assert "always in the grid" in default.multiselect(key="planner.chips").help


def test_the_grids_chips_follow_the_sidebar_until_chosen_and_an_empty_choice_falls_back():
    """An untouched choice follows the sidebar's chip (the default set and it); a chosen one stays, the sidebar's
    chip added to the grid; emptied: the default set, said, and no planner_chips in the link."""
    at = run_page("planner")
    at.sidebar.selectbox(key="hardware").set_value("b300").run()
    assert at.multiselect(key="planner.chips").value == [*figs.TABLE_HARDWARE, "b300"]
    assert _grid(at)["y"][-1] == "B300" and "planner_chips" not in at.query_params
    at.multiselect(key="planner.chips").set_value(["gb200", "mi455x"]).run()
    assert at.query_params["planner_chips"] == "gb200,mi455x"
    assert [y.split("<br>")[0] for y in _grid(at)["y"]] == ["GB200 NVL72", "MI455X", "B300"]
    at.sidebar.selectbox(key="hardware").set_value("h100-sxm").run()
    assert at.multiselect(key="planner.chips").value == ["gb200", "mi455x"]  # chosen: kept
    assert _grid(at)["y"][-1] == "H100 SXM5 80GB"  # the sidebar's chip always compared
    at.multiselect(key="planner.chips").set_value([]).run()
    assert not at.exception, at.exception
    names = EN.join([fmt.chip(load_hardware_catalog()[h], EN, short=True) for h in figs.TABLE_HARDWARE])
    assert EN("pl_chips_none", chips=names) in [i.value for i in at.info]
    assert len(_grid(at)["y"]) == len(figs.TABLE_HARDWARE) and "planner_chips" not in at.query_params


@pytest.mark.parametrize("tr", [EN, ZH])
def test_the_grids_cheapest_option_counts_each_device_in_its_own_word(tr):
    """A browser review: with a TPU in the grid, zh-TW's option 'the cheapest up to each chip's scale-up domain' had
    counted every device with 張 (a GPU's counter; a TPU is 顆 across the app). A grid of GPUs keeps its words; one
    with a TPU or Trainium (fmt.device_tr) names each count's device: GPUs by 張, a TPU pod's chips by 顆, up to the
    pod size the search tries (planner.MAX_DOMAIN_GPUS_SEARCHED)."""
    options = {}
    for chips in ("gb200,b200", "gb200,tpu7x", "trainium3"):
        at = run_page("planner", lang=tr.lang, planner_chips=chips)
        assert not at.exception, at.exception
        radio = at.radio(key="planner.table_gpus")
        options[chips] = radio.format_func("cheapest")
        assert radio.label == tr("pl_table_gpus" if chips == "gb200,b200" else "pl_table_gpus_chip")
    assert options["gb200,b200"] == tr("pl_table_gpus_cheapest")
    assert options["gb200,tpu7x"] == options["trainium3"] == tr("pl_table_gpus_cheapest_chip")
    assert f"{pl.MAX_DOMAIN_GPUS_SEARCHED} chips of a TPU pod" in EN("pl_table_gpus_cheapest_chip")
    if tr is ZH:
        mixed = options["gb200,tpu7x"]
        assert "HGX 為 8 張" in mixed and f"最多 {pl.MAX_DOMAIN_GPUS_SEARCHED} 顆晶片" in mixed
        assert "張" in options["gb200,b200"] and "顆" not in options["gb200,b200"]
    # no 'GPU' in it: the Serving frontier quotes it in a TPU scenario's words, which say chip
    assert "GPU" not in tr("pl_table_gpus_cheapest_chip")


def test_the_grids_export_of_many_chips_has_a_short_name():
    """The grid's CSV / HTML had been named for every chip charted (12 chosen and the sidebar's: ~170 characters in
    all): the first chip, how many more and a digest of the list (export.chips_stem), the rest of the scenario as
    before."""
    chips = "h100-sxm,b200,mi300x,mi355x,gb200,gb300,b300,mi325x,tpu7x,trainium3,vr200,rtx-pro-6000"
    at = run_page("planner", planner_chips=chips)
    assert not at.exception, at.exception
    ids = "+".join([*chips.split(","), "h200"])  # the sidebar's H200 after the chosen ones
    name = _export(at, "planner-cost")["filename"]
    assert name.startswith(f"planner-cost_llama-3.1-70b_{export_mod.slug(export_mod.chips_stem(ids))}_")
    assert "_h100-sxm-12more-" in name and "mi300x" not in name and len(name) <= 100, name  # ids alone had been 98
