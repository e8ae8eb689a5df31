"""Cost & energy page through the app (AppTest): renders, follows the sidebar and the URL, price override and no
price, its own controls (sweep, cost unit, frontier axes, TPOT target, heat-map metric), extremes, and zh-TW."""

from __future__ import annotations

import numpy as np
import pytest

from tests.apptest_util import chart_texts, decode, figures, run_page
from tpot_model import load_hardware_catalog
from tpot_model.targets import TPOT_TARGETS_S
from ui import fmt, notices
from ui.i18n import EN, Translator

ZH = Translator("zh-TW")
CATALOG = load_hardware_catalog()


def _titles(at) -> list[str]:
    return [f["layout"]["title"]["text"] for f in figures(at)]


def _fig(at, title: str) -> dict:
    matches = [f for f in figures(at) if f["layout"]["title"]["text"] == title]
    assert matches, f"no chart {title!r} in {_titles(at)}"
    return matches[0]


def _metric(at, label: str) -> float:
    (m,) = [m for m in at.metric if m.label == label]
    return float(m.value.split()[0].replace("$", "").replace(",", ""))


def test_renders_with_defaults():
    at = run_page("cost")
    assert not at.exception, at.exception
    assert not at.error and not at.info
    assert at.title[0].value == EN("page_cost")
    titles = _titles(at)
    for key in ("ce_cost_title_batch", "ce_tps_title", "ce_energy_title", "ce_frontier_title"):
        assert EN(key) in titles
    assert EN("ce_heat_title", metric=EN("ce_heat_usd_1m")) in titles
    usd = _metric(at, EN("ce_m_usd_1m"))
    assert _metric(at, EN("ce_m_usd_prefill")) > usd
    assert _metric(at, EN("ce_m_usd_1k")) * 1000 == usd
    assert EN("ce_energy_caption", tdp="700 W", devices="2 GPUs") in [c.value for c in at.caption]  # published


def test_sidebar_batch_changes_cost():
    at = run_page("cost")
    before = _metric(at, EN("ce_m_usd_1m"))
    at.sidebar.select_slider(key="batch").set_value(1).run()
    assert not at.exception
    assert _metric(at, EN("ce_m_usd_1m")) > before * 5  # batch 1 shares the GPUs with nobody


def test_price_override_from_the_url_scales_cost():
    base = _metric(run_page("cost"), EN("ce_m_usd_1m"))
    at = run_page("cost", price="9.08")  # twice the H200 on-demand price of $4.54 (Spheron, 2026-03-17; was $3.59)
    assert not at.exception
    assert at.session_state["price"] == 9.08
    assert abs(_metric(at, EN("ce_m_usd_1m")) / base - 2) < 0.02
    assert any(EN("basis_custom") in c.value for c in at.caption)  # a link's own price is the basis "Your own"
    assert at.session_state["price_basis"] == "custom"


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_price_is_stated_once(lang):
    """The page's price per GPU-hour is said once, in the caption with its basis and date (the intro sentence said
    it too)."""
    tr = Translator(lang)
    at = run_page("cost", lang=lang, price="9.08")
    per_hour = fmt.device_text("usd_per_gpu_hour", CATALOG["h200"], tr, usd=fmt.usd_markdown(9.08))
    texts = [t.value for t in (*at.markdown, *at.caption)]
    assert [t for t in texts if "9.08" in t] == [t for t in texts if per_hour in t and "9.08" in t], texts
    assert len([t for t in texts if "9.08" in t]) == 1, [t for t in texts if "9.08" in t]


def test_hardware_without_a_price_still_shows_throughput_and_energy():
    at = run_page("cost", hardware="tpu-v5e", model="llama-3.1-8b", gpus="4")
    assert not at.exception
    # a TPU: the notice and its button say chip-hour (issue 19; were pinned to the GPU-hour wording); no basis prices
    # TPU v5e, so the notice says so, not "choose another price basis"
    no_price = (
        "Google TPU v5e has no published price in any basis: the figures that need its $/chip-hour (the cost per 1M "
        "tokens and those built on it) are not shown. Enter your own $/chip-hour in the sidebar."
    )
    assert any(no_price == i.value for i in at.info)
    assert EN("enter_own_price_chip") in [b.label for b in at.button]  # the one click that enters a price
    titles = _titles(at)
    assert EN("ce_cost_title_batch") not in titles
    # a TPU: its throughput is per chip (issue 19), the titles and the heat map's metric say so
    energy = EN("tdp_estimate_title", title=EN("ce_energy_title"))  # TPU v5e's TDP is the catalog's estimate
    assert EN("ce_tps_title_chip") in titles and energy in titles and EN("ce_frontier_title") in titles
    assert EN("ce_m_usd_1m") not in [m.label for m in at.metric]
    assert at.selectbox(key="cost.heatmap_metric").options == [EN("ce_heat_tps_gpu_chip"), EN("ce_heat_j_per_token")]


def test_sweep_and_unit_radios():
    at = run_page("cost")
    at.radio(key="cost.sweep").set_value("context").run()
    assert not at.exception
    fig = _fig(at, EN("ce_cost_title_context"))
    assert fig["layout"]["xaxis"]["title"]["text"] == EN("axis_context")
    at.radio(key="cost.cost_unit").set_value("tokens_per_usd").run()
    fig = _fig(at, EN("ce_cost_title_per_usd_context"))  # tokens per $ is not a cost: its own title (review)
    assert fig["layout"]["yaxis"]["title"]["text"] == EN("ce_axis_tokens_per_usd")
    y = decode(fig["data"][0]["y"])
    assert np.all(np.diff(y) < 0)  # longer context: fewer tokens per dollar


def test_embed_holds_the_sweep_and_unit_while_their_section_is_closed():
    """In the embed view the cost chart's sweep and unit wait in the closed "This page's settings" section (sent once
    opened, issue 19); chosen there, they hold once it is closed again."""
    at = run_page("cost", embedded=True)
    assert not at.exception and "cost.sweep" not in [r.key for r in at.radio]
    at.session_state["embed.page_controls"] = True
    at.run()
    at.radio(key="cost.sweep").set_value("context").run()
    at.radio(key="cost.cost_unit").set_value("tokens_per_usd").run()
    at.session_state["embed.page_controls"] = False
    at.run()
    assert not at.exception and not at.radio
    fig = _fig(at, EN("ce_cost_title_per_usd_context"))
    assert fig["layout"]["yaxis"]["title"]["text"] == EN("ce_axis_tokens_per_usd")


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_frontier_has_one_orientation_and_no_axes_choice(lang):
    """Issue 19: ONE orientation for throughput-latency curves, InferenceX's (tok/s per user across, tok/s per GPU
    up): the 'TPOT up' alternative and its radio are gone; a link from before, with the radio's key as a parameter,
    still loads (unknown parameters are ignored)."""
    tr = Translator(lang)
    at = run_page("cost", lang=lang, **{"cost.frontier_axes": "gpu_vs_tpot", "frontier_axes": "gpu_vs_tpot"})
    assert not at.exception and not at.error
    assert not [r for r in at.radio if r.key == "cost.frontier_axes"]
    labels = [w.label for w in [*at.radio, *at.selectbox]]
    assert "Frontier axes" not in labels and "效率前緣座標軸" not in labels
    fig = _fig(at, tr("ce_frontier_title"))
    assert fig["layout"]["xaxis"]["title"]["text"] == tr("ce_axis_tps_user")
    assert fig["layout"]["yaxis"]["title"]["text"] == tr("ce_axis_tps_gpu")
    # per user across: a larger batch sits to the left, and the caption under the chart says so (it said 'right',
    # from the old orientation; helper review)
    curve = max((t for t in fig["data"] if t.get("mode") and "lines" in t["mode"]), key=lambda t: len(decode(t["x"])))
    x = np.asarray(decode(curve["x"]), dtype=float)
    x = x[np.isfinite(x)]  # the batches that fit
    assert x[0] > x[-1]  # the sweep runs from batch 1 (fastest per user) to the largest batch
    caption = next(c.value for c in at.caption if c.value.startswith(tr("ce_frontier_caption")[:6]))
    assert ("Moving left" if lang == "en" else "沿曲線向左") in caption


def test_frontier_axes_and_target():
    at = run_page("cost")
    fig = _fig(at, EN("ce_frontier_title"))
    # issue 19: one orientation for throughput-latency curves, InferenceX's (per user across, per GPU up)
    assert fig["layout"]["xaxis"]["title"]["text"] == EN("ce_axis_tps_user")
    assert fig["layout"]["yaxis"]["title"]["text"] == EN("ce_axis_tps_gpu")
    chat = [t["name"] for t in fig["data"] if t["name"].startswith("best")]
    at.selectbox(key="cost.target").set_value("code_completion").run()
    assert not at.exception
    fig = _fig(at, EN("ce_frontier_title"))
    strict = [t["name"] for t in fig["data"] if t["name"].startswith("best")]
    assert chat and strict and chat != strict  # a stricter target forces a smaller batch
    assert any(EN("target_code_completion") in md.value for md in at.markdown)


def test_best_batch_is_the_serving_planners():
    """Cost's best batch at a target (sentence and starred point) is the planner's exact one, not the nearest point
    of the curve's coarse batch grid."""
    from tpot_model import planner
    from ui import controls

    limits = {}
    for target in ("chat", "agents", "code_completion"):
        at = run_page("cost")
        at.selectbox(key="cost.target").set_value(target).run()
        state = controls.ScenarioState(**{k: at.session_state[k] for k in controls._FIELDS})
        model, hw, profile = controls.resolve(state)
        point = planner.frontier(model, hw, state.to_scenario(), profile, TPOT_TARGETS_S[target])
        assert point.feasible
        star = [t["name"] for t in _fig(at, EN("ce_frontier_title"))["data"] if t["name"].startswith("best")]
        assert star == [EN("ce_best", b=point.batch)]
        (sentence,) = [md.value for md in at.markdown if EN("target_" + target) in md.value and "**" in md.value]
        assert f"**{point.batch}**" in sentence
        # where memory, not the target, stops the batch, the sentence says so (the default scenario at 'chat': 114)
        assert sentence.endswith(EN("ce_best_memory")) == (point.limited_by == "memory")
        limits[target] = point.limited_by
    assert limits == {"chat": "memory", "agents": "memory", "code_completion": "slo"}


def test_heatmap_metric_selectbox():
    at = run_page("cost")
    at.selectbox(key="cost.heatmap_metric").set_value("tps_gpu").run()
    assert not at.exception
    fig = _fig(at, "O" + EN("ce_heat_title", metric=EN("ce_heat_tps_gpu"))[1:])  # a title starts in capitals
    heat = [t for t in fig["data"] if t["type"] == "heatmap"]
    assert len(heat) == 2  # the does-not-fit mask and the metric


def test_heatmap_metric_comes_back_with_a_price_unless_another_was_chosen():
    """A browser review: Cost's $ map, on a chip without a public price (MI355X on demand), fell back to tokens/s per
    GPU, and back on H200 it stayed there, the link writing ce_heatmap=tps_gpu that nobody chose. The fallback lasts
    as long as the price is missing; a metric the reader picks meanwhile stays."""
    at = run_page("cost", price_basis="on_demand")
    assert at.selectbox(key="cost.heatmap_metric").value == "usd_1m"
    at.session_state["hardware"] = "mi355x"
    at.run()
    assert at.selectbox(key="cost.heatmap_metric").value == "tps_gpu"  # no price: the map it can draw
    at.session_state["hardware"] = "h200"
    at.run()
    assert not at.exception, at.exception
    assert at.selectbox(key="cost.heatmap_metric").value == "usd_1m" and "ce_heatmap" not in at.query_params
    at.session_state["hardware"] = "mi355x"
    at.run()
    at.selectbox(key="cost.heatmap_metric").set_value("j_per_token").run()  # chosen on MI355X: kept on H200
    at.session_state["hardware"] = "h200"
    at.run()
    assert at.selectbox(key="cost.heatmap_metric").value == "j_per_token"


def test_extremes_render():
    for query in ({"context": "1048576"}, {"batch": "4096"}, {"model": "deepseek-v3", "hardware": "h200", "gpus": "8"}):
        at = run_page("cost", **query)
        assert not at.exception, query
    at = run_page("cost", context="1048576")
    chat = EN("target_with_user", label=EN("target_chat"), user="20")  # both forms: the chart's axis is tok/s/user
    # nothing fits at 1M tokens on 2 x H200: the line points at the does-not-fit notice, which names what would
    # help (it had offered 'a lower precision' under a notice saying lower precision alone is not enough)
    assert any(EN("ce_best_text_no_fit", target=chat) == md.value for md in at.markdown) and at.error
    slow = run_page("cost", model="llama-3.1-8b", hardware="l4", gpus="1", weights="bf16", kv="bf16", batch="1")
    assert not slow.error  # it fits, at 53 ms a token or more: above the chat target's 50 ms
    assert any(EN("ce_best_text_none", target=chat) == md.value for md in slow.markdown)


def test_zh_tw():
    at = run_page("cost", lang="zh-TW")
    assert not at.exception
    assert at.title[0].value == ZH("page_cost")
    titles = _titles(at)
    for key in ("ce_cost_title_batch", "ce_tps_title", "ce_energy_title", "ce_frontier_title"):
        assert ZH(key) in titles and ZH(key) != EN(key)


def test_zero_price_leaves_out_the_cost_charts():
    at = run_page("cost", price="0")
    assert not at.exception
    assert any(EN("ce_zero_price", hw="NVIDIA H200 SXM 141GB") == i.value for i in at.info)
    assert EN("ce_cost_title_batch") not in _titles(at) and EN("ce_frontier_title") in _titles(at)


def test_a_scenario_that_does_not_fit_greys_its_cost_if_it_fitted():
    """DeepSeek-R1 BF16 on one H100 (issue 19): the $ per 1M and throughput are greyed and marked 'if it fitted'."""
    at = run_page("cost", model="deepseek-r1", hardware="h100-sxm", gpus="1", weights="bf16", kv="bf16")
    by_label = {m.label: m for m in at.metric}
    for key in ("ce_m_usd_1m", "ce_m_usd_prefill", "ce_m_tps_gpu"):
        m = by_label[EN(key)]
        assert m.value.startswith(":gray[") and m.proto.delta == EN("if_fitted"), key
    assert by_label[EN("ce_m_usd_1m")].value.startswith(":gray[\\$")  # escaped: markdown, not LaTeX
    assert not any(m.value.startswith(":gray[") for m in run_page("cost").metric)
    # the tokens/s per MW line under the $ figure is the same what-if: greyed and marked (it read plainly)
    mw = [c.value for c in at.caption if EN("m_tokens_per_mw") in c.value]
    assert mw and all(f":gray[{EN('m_tokens_per_mw')}" in c and EN("if_fitted") in c for c in mw)
    assert not any(":gray[" in c.value for c in run_page("cost").caption if EN("m_tokens_per_mw") in c.value)
    # a chip with no published all-in power has no such rate to mark: the sentence that says so is not a what-if
    none = fmt.device_text("m_tokens_per_mw_none", load_hardware_catalog()["rtx-pro-6000"], EN)
    rtx = run_page("cost", model="deepseek-v3", hardware="rtx-pro-6000", gpus="8", weights="fp8", batch="64")
    assert not rtx.exception and rtx.error  # it does not fit: the red notice
    (line,) = [c.value for c in rtx.caption if none in c.value]
    assert f"{none} ({EN('if_fitted')})" not in line and ":gray[" not in line


def test_board_power_names_the_device_count_and_word():
    """Issue 19: 'Board power (8 GPUs)', 'chips' for TPUs, in both languages."""
    at = run_page("cost", gpus="8")
    assert not at.exception
    assert "Board power (8 GPUs)" in [m.label for m in at.metric]
    at = run_page("cost", hardware="tpu-v6e", gpus="8", lang="zh-TW")
    assert not at.exception
    assert "板卡功耗（8 顆晶片）" in [m.label for m in at.metric]
    # beyond the sidebar and the board power: the energy metric's help and the energy caption count chips too
    (energy,) = [m for m in at.metric if m.label == ZH("ce_m_j")]
    assert "8 顆晶片" in energy.help and "GPU" not in energy.help
    assert any("8 顆晶片" in c.value for c in at.caption)
    at = run_page("cost", hardware="trainium2", gpus="16")
    (energy,) = [m for m in at.metric if m.label == EN("ce_m_j")]
    assert "16 chips" in energy.help and "GPU" not in energy.help


def test_sidebar_counts_chips_for_tpus():
    at = run_page("cost", hardware="tpu-v6e", gpus="8")
    assert [s.label for s in at.sidebar.select_slider if s.key == "gpus"] == ["Chips (tensor parallel)"]
    at = run_page("cost", hardware="h200", lang="zh-TW")
    assert [s.label for s in at.sidebar.select_slider if s.key == "gpus"] == ["GPU 數量（張量平行）"]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("hw", ["tpu7x", "trainium2"])
def test_tpus_and_trainium_are_chips_not_gpus(lang, hw):
    """Issue 19: with a TPU or Trainium in the sidebar, Cost's chart titles and axes, its throughput metric, its help
    (÷ chips) and the board-power help (8 chips × TDP) say chips, not GPUs (the word from fmt.device_kind)."""
    tr = Translator(lang)
    at = run_page("cost", lang=lang, hardware=hw, gpus="8")
    assert not at.exception
    texts = chart_texts(at)
    assert not [t for t in texts if "GPU" in t], texts
    assert tr("ce_tps_title_chip") in texts and tr("ce_axis_tps_gpu_chip") in texts
    (tps,) = [m for m in at.metric if m.label == tr("ce_m_tps_gpu_chip")]
    assert tps.help.startswith(tr("ce_m_tps_gpu_def_chip", total="", user="")[:12]) and "GPU" not in tps.help
    powers = [m for m in at.metric if m.label == tr("ce_m_power", devices=fmt.devices(CATALOG[hw], 8, tr))]
    for m in powers:  # chips with a published TDP
        assert m.help == tr(
            "ce_m_power_def", devices=fmt.devices(CATALOG[hw], 8, tr), tdp=fmt.board_power(CATALOG[hw], tr)
        )
        assert ("8 chips" if lang == "en" else "8 顆晶片") in m.help
    assert powers or CATALOG[hw].tdp_w is None
    assert any(fmt.device_text("ce_frontier_caption", "chip", tr) == c.value for c in at.caption)
    assert tr("ce_heat_tps_gpu_chip") in at.selectbox(key="cost.heatmap_metric").options
    # the cost formulas and the price line count chips too (Trainium2 has a price under the default basis; TPU7x none)
    assert not [c.value for c in at.caption if "× GPUs" in c.value or "GPU 數" in c.value or "GPU-hour" in c.value
                or "GPU 小時" in c.value or "per GPU" in c.value or "每 GPU" in c.value]  # fmt: skip
    if hw == "trainium2":
        assert any(c.value.startswith(tr("ce_cost_caption_chip").split("{")[0]) for c in at.caption)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_cost_formula_is_translated_and_says_chip_hour_for_a_tpu(lang):
    """Issues 19 and the i18n rule: the '$ per 1M' expander's formula comes from ui/strings (it was hard-coded
    English) and on a TPU reads '$/chip-hour × chips'; the values line is the scenario's: $1.03 (TPU7x, hyperscaler
    TCO) × 2 ÷ 3600 × TPOT ÷ 32 × 10⁶ = the metric."""
    from tests.apptest_util import visible_texts

    tr = Translator(lang)
    at = run_page("cost", lang=lang, hardware="tpu7x", price_basis="hyperscaler")
    at.session_state["explain.ce_m_usd_1m"] = True  # open the lazy 'how is this computed?' expander
    at.run()
    assert not at.exception
    (text,) = [m.value for m in at.markdown if "3600" in m.value]
    assert f"{tr('formula')}{tr('label_colon')}{tr('ce_formula_usd_1m_chip')}" in text
    assert "$/chip-hour" in tr("ce_formula_usd_1m_chip") or "晶片小時" in tr("ce_formula_usd_1m_chip")
    second = " s ÷ 32 × 10⁶" if tr.lang == "en" else " 秒 ÷ 32 × 10⁶"  # the TPOT's seconds in the reader's words
    assert f"{tr('with_values')}{tr('label_colon')}$1.03 × 2 ÷ 3600 × " in text and second in text
    assert not [t for t in visible_texts(at) if "GPU" in t]
    gpu = run_page("cost", lang=lang, hardware="h200", price_basis="hyperscaler")
    gpu.session_state["explain.ce_m_usd_1m"] = True
    gpu.run()
    assert any(tr("ce_formula_usd_1m") in m.value for m in gpu.markdown)


def test_best_batch_says_its_static_basis_and_the_served_figure():
    """Cost's 'best batch for chat 50 ms: 114 ... $0.975' is one static batch (no prefill): the page gives the same
    target as a server runs it (continuous batching, the Serving frontier's basis) beside it, as the planner does."""
    from dataclasses import replace

    from tpot_model import load_hardware_catalog, load_model_catalog, planner, resolve_profile
    from ui import fmt
    from ui.state import ScenarioState

    at = run_page("cost")
    assert not at.exception
    st_ = ScenarioState()
    m, hw = load_model_catalog()[st_.model], load_hardware_catalog()[st_.hardware]
    served = planner.frontier(
        m, hw, replace(st_.to_scenario(), batching="continuous"), resolve_profile("typical"), 0.05
    )
    said = EN("served_basis", target=fmt.target(0.05, EN), batch=served.batch,
              requests=EN("requests_n", n=fmt.integer(served.batch)),
              per_gpu=fmt.rate(served.tokens_per_s_per_gpu), usd=fmt.usd(served.usd_per_1M_tokens),
              ttft=fmt.duration(served.ttft_s))  # fmt: skip
    assert served.batch > 1
    one = planner.frontier(m, hw, replace(st_.to_scenario(), batching="continuous", batch=1), resolve_profile("typical"),
                           0.05)  # fmt: skip
    assert "1 request in flight" in notices.served_basis_text(replace(one, batch=1), 0.05, EN, True)
    # its money as the page's other figures, 3 significant figures (it had read '$0.69', '$45,169.20')
    for usd, shown in ((0.69, "$0.690 per 1M"), (45_169.2, "$45,169 per 1M"), (0.3456, "$0.346 per 1M")):
        assert shown in notices.served_basis_text(replace(one, usd_per_1M_tokens=usd), 0.05, EN, True)
    assert "每百萬輸出 Token $0.690" in notices.served_basis_text(replace(one, usd_per_1M_tokens=0.69), 0.05, ZH, True)
    assert said in [m.value for m in at.markdown]  # as the static figure is, not a grey caption


@pytest.mark.parametrize(("output", "steps"), [("1024", "1,023 decode steps"), ("2", "1 decode step"),
                                               ("1", "no decode step")])  # fmt: skip
def test_with_prefill_counts_the_decode_steps_after_the_first_token(output, steps):
    """A helper review: at one output token the with-prefill help read 'plus 1 decode step' beside a figure with none:
    N output tokens take N - 1 decode steps, the first token coming from the prefill (as Methodology says)."""
    at = run_page("cost", output=output)
    (m,) = [m for m in at.metric if m.label == EN("ce_m_usd_prefill")]
    assert f"plus {steps}," in m.proto.help, m.proto.help


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_one_output_token_heads_the_row_with_the_prefills_figures(lang):
    """A browser review: at one output token the row read '$/1M out, decode only $1.69', '746 tok/s' per GPU and
    0.938 J a token, the figures of a decode step that never runs (the one token is the prefill's). As Overview's $
    headline there: the with-prefill figures (batch x 1 token over the prefill's time), the decode step's in the help,
    and a notice says so."""
    from dataclasses import replace

    from tpot_model import estimate, load_model_catalog, resolve_profile
    from ui.state import ScenarioState

    tr = Translator(lang)
    at = run_page("cost", lang=lang, output="1")
    assert not at.exception
    shown = {m.label: m for m in at.metric}
    st_ = ScenarioState()
    hw = CATALOG[st_.hardware]
    e = estimate(
        load_model_catalog()[st_.model], hw, replace(st_.to_scenario(), output_tokens=1), resolve_profile("typical")
    )
    prefill_s, b, n = float(e.ttft_s), st_.batch, st_.gpus  # the one token's whole time: its batch's prefill
    usd = e.price_usd_per_gpu_hour * n * prefill_s / 3600 / b * 1e6  # $ per 1M output tokens
    assert tr("ce_m_usd_1m") not in shown  # no decode-only $ at the head of the row
    cost = shown[tr("ce_m_usd_prefill")]
    assert cost.value == fmt.usd(usd) and fmt.usd(float(e.usd_per_1M_tokens)) in cost.help  # a decode step's in help
    assert shown[tr("ce_m_usd_1k")].value == fmt.usd(usd / 1e3)
    assert shown[tr("ce_m_tokens_per_usd")].value == fmt.large(1e6 / usd)
    assert tr("ce_m_tps_gpu") not in shown  # 'Decode tok/s' where no decode step runs: the prefill's token, named so
    tps = shown[tr("ce_m_tps_gpu_one")]
    assert tps.value == fmt.rate(b / prefill_s / n) and fmt.rate(float(e.tokens_per_s_per_gpu)) in tps.help
    j = shown[tr("ce_m_j")]
    assert j.value == f"{fmt.number(hw.tdp_w * n * prefill_s / b)} J"
    assert f"{fmt.number(float(e.joules_per_token))} J" in j.help
    assert shown[tr("ce_m_tokens_per_j")].value == f"{fmt.number(b / (hw.tdp_w * n * prefill_s))} tok/J"
    assert tr("ce_one_token") in [i.value for i in at.info]
    # Overview's $ headline at one output token is the same figure
    (overview,) = [m for m in run_page("overview", lang=lang, output="1").metric if m.label == tr("m_cost_one")]
    assert overview.value == cost.value
    # two tokens: a decode step runs, the decode-only figures head the row again, no notice
    two = run_page("cost", lang=lang, output="2")
    assert tr("ce_m_usd_1m") in {m.label for m in two.metric} and tr("ce_one_token") not in [i.value for i in two.info]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_energy_resting_on_an_estimated_tdp_is_marked_wherever_it_is_shown(lang):
    """cost?hardware=trainium3 had read 'Board power (2 chips) 2,000 W' and 'J per token (board) 0.8 J' as datasheet
    figures: Trainium3's 1 kW is the catalog's estimate (Hardware.estimated). The three energy numbers carry a
    note, their helps and the energy caption say '1,000 W (estimate)', the energy curve's and the J/token heat map's
    titles say so, and their CSVs have board_power_estimated; H200's published TDP is not marked."""
    hw = CATALOG["trainium3"]
    tr = fmt.device_tr(hw, Translator(lang))
    at = run_page("cost", lang=lang, hardware="trainium3", gpus="2")
    assert not at.exception
    tdp = tr("estimate_mark", value="1,000 W")
    assert fmt.board_power(hw, tr) == tdp and fmt.board_power(hw, tr, 2) == tr("estimate_mark", value="2,000 W")
    shown = {m.label: m for m in at.metric}
    power = shown[tr("ce_m_power", devices=fmt.devices(hw, 2, tr))]
    assert power.value == "2,000 W" and power.help == tr("ce_m_power_def", devices=fmt.devices(hw, 2, tr), tdp=tdp)
    for label in (tr("ce_m_j"), tr("ce_m_tokens_per_j"), power.label):
        assert shown[label].proto.delta == tr("tdp_estimate_note"), label
    assert tdp in shown[tr("ce_m_j")].help
    assert fmt.device_text("ce_energy_caption", hw, tr, tdp=tdp, devices=fmt.devices(hw, 2, tr)) in [
        c.value for c in at.caption
    ]
    assert tr("tdp_estimate_title", title=tr("ce_energy_title")) in _titles(at)
    at.selectbox(key="cost.heatmap_metric").set_value("j_per_token").run()
    heat = tr("ce_heat_title", metric=tr("ce_heat_j_per_token"))
    assert tr("tdp_estimate_title", title=heat[:1].upper() + heat[1:]) in _titles(at)
    from ui.figures import cost as figs

    x, j, fits = np.array([1.0, 2.0]), np.array([0.8, 0.5]), np.array([True, True])
    assert figs.energy_table(x, j, fits, sweep="batch", estimated=True)["board_power_estimated"].all()
    table = figs.heatmap_table(x, x, np.ones((2, 2)), np.ones((2, 2), bool), "j_per_token", estimated=True)
    assert table["board_power_estimated"].all()
    assert "board_power_estimated" not in figs.heatmap_table(x, x, np.ones((2, 2)), np.ones((2, 2), bool), "tps_gpu")
    h200 = run_page("cost", lang=lang, hardware="h200")
    assert not [m for m in h200.metric if m.proto.delta == tr("tdp_estimate_note")]
    assert Translator(lang)("ce_energy_title") in _titles(h200)
