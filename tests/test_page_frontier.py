"""Serving frontier page through the app (AppTest): renders, follows the sidebar and the URL (its own fr_* inputs
included), page controls (workload, hardware, layout, MTP, tokens counted, tier, target), measured points, the LOHO
numbers, extremes and zh-TW."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from tests.apptest_util import decode, figures, run_page, warning_lines
from tpot_model import Scenario, load_model_catalog, resolve_hardware, resolve_model
from tpot_model import layouts as lo
from tpot_model import serving_calibration as sc
from ui import fmt
from ui.figures import rack_scale
from ui.i18n import EN, Translator
from ui.notices import control_name

ROOT = Path(__file__).resolve().parent.parent

ZH = Translator("zh-TW")
DS = dict(model="deepseek-r1", gpus="8", weights="fp8", kv="fp8", fr_io="1k1k")  # InferenceX's 1k/1k, set on the page


def _titles(at) -> list[str]:
    return [f["layout"]["title"]["text"] for f in figures(at)]


def _fig(at, prefix: str) -> dict:
    matches = [f for f in figures(at) if f["layout"]["title"]["text"].startswith(prefix)]
    assert matches, f"no chart starting {prefix!r} in {_titles(at)}"
    return matches[0]


def _trace(fig: dict, name: str) -> dict:
    """The first trace of that name (the ring of the first curve, for the sidebar-batch marker)."""
    return next(t for t in fig["data"] if t.get("name") == name)


def _metric(at, label: str) -> str:
    (m,) = [m for m in at.metric if m.label == label]
    return m.value


def test_renders_with_defaults_and_points_to_the_measured_model():
    at = run_page("frontier")
    assert not at.exception, at.exception
    assert at.title[0].value == EN("page_frontier")
    assert any(EN("fr_no_measured_model", model="Llama 3.1 70B", query="")[:40] in i.value for i in at.info)
    titles = _titles(at)
    assert EN("fr_frontier_title_output", model="Llama 3.1 70B", io="4k/1k") in titles  # the sidebar's workload
    assert EN("fr_mw_title_output") in titles and EN("fr_loho_title_tpot") in titles
    assert at.session_state["frontier.hardware"] == ["h200", "b200", "mi355x"]


def test_deepseek_shows_measured_points_and_the_computed_loho():
    at = run_page("frontier", **DS)
    assert not at.exception and not at.warning and not at.error
    fig = _fig(at, "DeepSeek-R1, 1k/1k")
    names = [t.get("name") for t in fig["data"]]
    for hw, engines in (("H200", "SGLang, TensorRT-LLM"), ("B200", "SGLang, TensorRT-LLM"),
                        ("MI355X", "AMD ATOM, SGLang")):  # fmt: skip
        assert EN("fr_measured", hw=hw, engines=engines) in names
    cv = sc.serving_cross_validate(sc.load_serving_measurements())
    s = cv.summary()
    assert _metric(at, EN("fr_m_loho_tpot")) == f"{s['tpot'].median * 100:.1f}%"
    # beside it, the transfer check's TPOT error on the models the fit has not seen (the headline had read 8.9%
    # above a caption saying DeepSeek-V4-Pro's TPOT is 0.50x the measured)
    from tpot_model.pool_correction import committed_check

    unseen = sorted(v["median_abs_tpot_error"] for v in committed_check()["transfer"]["single_node"].values())
    assert len(unseen) >= 2 and unseen[-1] > 0.3  # DeepSeek-V4-Pro's day-0 runs
    assert _metric(at, EN("fr_m_transfer_tpot")) == f"{unseen[0] * 100:.1f}%–{unseen[-1] * 100:.1f}%"
    assert _metric(at, EN("fr_m_loho_out")) == f"{s['output_tokens_per_s_per_gpu'].median * 100:.1f}%"
    assert _metric(at, EN("fr_m_loho_rows")) == "133"


def test_sidebar_batch_is_the_ringed_concurrency():
    at = run_page("frontier", **DS)
    ring = _trace(_fig(at, "DeepSeek-R1"), EN("fr_marked_legend"))
    before = float(decode(ring["y"])[0])
    at.sidebar.select_slider(key="batch").set_value(256).run()
    assert not at.exception
    after = float(decode(_trace(_fig(at, "DeepSeek-R1"), EN("fr_marked_legend"))["y"])[0])
    assert after > 3 * before  # more requests in flight: more tokens per GPU
    assert any("256" in md.value and EN("fr_marked_legend") not in md.value for md in at.markdown)


def test_url_restores_the_page_inputs():
    at = run_page("frontier", **{**DS, "fr_io": "8k1k"}, fr_hw="b200", fr_prec="fp4", fr_layout="dp-ep", fr_tier="rental_3yr",
                  fr_target="40", fr_y="total", fr_log="0")  # fmt: skip
    assert not at.exception and not at.warning
    assert at.session_state["frontier.io"] == "8k1k" and at.session_state["frontier.layouts"] == ["dp-ep"]
    fig = _fig(at, "DeepSeek-R1, 8k/1k")
    assert fig["layout"]["yaxis"]["title"]["text"] == EN("fr_axis_tps_gpu_total")
    assert fig["layout"]["yaxis"].get("type") != "log"
    assert EN("fr_cost_title_total", target=fmt.target(1 / 40, EN), tier=EN("fr_tier_rental_3yr")) in _titles(at)
    curve = _trace(fig, "B200 · FP4 · DP-attn/EP")
    assert len(decode(curve["x"])) > 5


def test_bad_page_params_fall_back_with_notices():
    at = run_page("frontier", fr_io="9k9k", fr_hw="nope", fr_target="abc")
    assert not at.exception
    lines = warning_lines(at)
    assert len(at.warning) == 1 and len(lines) == 3 and all("fr_" in t for t in lines)
    assert at.session_state["frontier.io"] == "custom"  # a bad workload falls back to the sidebar's


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_mtp_needs_the_models_own_module(lang):
    """MTP drafts with the model's own multi-token-prediction module: for Llama 3.1 70B (none) the switch is off and
    disabled, its help names the models that ship one, and a link asking for it says MTP is off."""
    tr = Translator(lang)
    at = run_page("frontier", model="llama-3.1-70b", weights="fp8", fr_mtp="1", lang=lang)
    assert not at.exception
    toggle = at.toggle(key="frontier.mtp")
    assert toggle.value is False and toggle.disabled
    shipping = [m.name for m in load_model_catalog().values() if m.mtp_modules]
    assert "DeepSeek-R1" in shipping and "MiniMax-M2" in shipping and not any("Llama" in n for n in shipping)
    assert toggle.help == tr("fr_mtp_none", model="Llama 3.1 70B", models=tr.join(shipping))
    assert tr("fr_mtp_none_notice", model="Llama 3.1 70B") in [i.value for i in at.info]
    assert any(tr("fr_mtp_off") in c.value for c in at.caption)
    r1 = run_page("frontier", model="deepseek-r1", weights="fp8", fr_mtp="1", lang=lang)
    assert r1.toggle(key="frontier.mtp").value is True and not r1.toggle(key="frontier.mtp").disabled
    assert tr("fr_mtp_none_notice", model="DeepSeek-R1") not in [i.value for i in r1.info]


def test_page_controls_change_the_charts():
    at = run_page("frontier", **DS)
    at.radio(key="frontier.io").set_value("1k8k").run()
    assert not at.exception and EN("fr_frontier_title_output", model="DeepSeek-R1", io="1k/8k") in _titles(at)
    at.multiselect(key="frontier.hardware").set_value(["b200"]).run()
    at.multiselect(key="frontier.layouts").set_value(["tp", "tp-ep"]).run()
    fig = _fig(at, "DeepSeek-R1")
    names = [t.get("name") for t in fig["data"]]
    assert "B200 · FP8 · TP" in names and "B200 · FP8 · TP/EP" in names and "H200 SXM 141GB · FP8 · TP" not in names
    plain = decode(_trace(fig, "B200 · FP8 · TP")["y"])
    at.toggle(key="frontier.mtp").set_value(True).run()
    assert not at.exception
    mtp = decode(_trace(_fig(at, "DeepSeek-R1"), "B200 · FP8 · TP")["y"])
    assert not np.allclose(plain[: len(mtp)], mtp[: len(plain)])
    assert any(EN("fr_mtp_on", k=3, a="0.56") in c.value for c in at.caption)


def test_tier_follows_the_sidebar_price_basis():
    """The cost tier is the sidebar's price basis (no fr_tier in the URL), and follows a change of it."""
    at = run_page("frontier", **DS, price_basis="neocloud", fr_target="50")
    assert at.session_state["frontier.tier"] == "neocloud" and "fr_tier" not in at.query_params
    assert EN("fr_cost_title_output", target=fmt.target(1 / 50, EN), tier=EN("fr_tier_neocloud")) in _titles(at)
    captions = " ".join(c.value for c in at.caption)
    assert EN("basis_neocloud") in captions and "2026-08" in captions  # the basis and its date beside the $
    at.selectbox(key="price_basis").set_value("rental_3yr").run()
    assert at.session_state["frontier.tier"] == "rental_3yr"
    assert run_page("frontier", **DS, price_basis="neocloud", fr_tier="rental_3yr").session_state[
        "frontier.tier"] == "rental_3yr"  # fmt: skip


def test_tier_and_target_drive_the_cost_bars():
    def modelled(at) -> np.ndarray:  # the curves' bars (the measured ones, hatched, come and go with their runs)
        bar = _fig(at, "$ per 1M")["data"][0]
        return decode(bar["y"])[[s == "" for s in bar["marker"]["pattern"]["shape"]]]

    at = run_page("frontier", **DS, price_basis="hyperscaler", fr_target="50")  # the tier follows the sidebar
    bars = modelled(at)
    at.radio(key="frontier.tier").set_value("rental_3yr").run()
    rental = modelled(at)
    assert np.all(rental > bars)  # rental costs more per GPU-hour than owning, on every hardware
    at.radio(key="frontier.tier").set_value("custom").run()
    at.number_input(key="frontier.usd").set_value(4.0).run()
    custom = modelled(at)
    at.number_input(key="frontier.target").set_value(30.0).run()  # slower per user: more tokens per GPU
    cheaper = modelled(at)
    assert len(cheaper) == 3 and np.all(cheaper < custom)


def test_a_model_that_does_not_fit_is_a_state_not_an_exception():
    at = run_page("frontier", model="deepseek-r1", gpus="1", weights="fp8", kv="fp8")
    assert not at.exception
    assert len(at.warning) == 3  # one per curve
    assert all("8" in w.value for w in at.warning)  # each names the GPUs it needs
    # nothing fits anywhere: no advice to lower the target, which could not help
    assert any(i.value == EN("fr_target_nofit") for i in at.info)
    assert not any(EN("fr_target_off", target="50")[:30] in i.value for i in at.info)


def _paragraphs(at) -> list[str]:
    """The page's captions, paragraph by paragraph (the notes under a chart are one caption)."""
    return [p for c in at.caption for p in c.value.split("\n\n")]


def test_the_chart_caption_names_the_concurrencies_swept():
    """The sweep runs to 1,024, or to the sidebar's batch when that is larger (the ringed concurrency)."""
    for query, cmax in (({}, "1,024"), ({"batch": "4096"}, "4,096")):
        assert EN("fr_frontier_caption", cmax=cmax, mtp=EN("fr_mtp_off")) in _paragraphs(run_page("frontier", **query))


@pytest.mark.parametrize(
    "query",
    [
        dict(model="qwen3-next-80b-a3b", gpus="4", fr_layout="tp,tp-ep,dp-ep"),
        dict(model="llama-3.1-8b", gpus="1", fr_layout="dp-ep", fr_hw="tpu-v5e,h100-sxm", fr_tier="catalog"),
        dict(model="deepseek-v3", gpus="8", batch="4096", fr_io="custom", context="1048576", output="32768"),
        dict(model="deepseek-r1", gpus="8", fr_hw="gb200,gb300", fr_prec="fp4", fr_disagg="1", fr_mtp="1"),
    ],
)
def test_extremes_render(query):
    at = run_page("frontier", **query)
    assert not at.exception, at.exception
    assert len(figures(at)) == 5


def test_disaggregated_runs_only_when_switched_on():
    at = run_page("frontier", model="deepseek-r1", gpus="8", fr_hw="gb200", fr_prec="fp4", fr_io="1k1k")
    assert not any("disaggregated" in (t.get("name") or "") for t in _fig(at, "DeepSeek-R1")["data"])
    at.toggle(key="frontier.disagg").set_value(True).run()
    names = [t.get("name") or "" for t in _fig(at, "DeepSeek-R1")["data"]]
    assert any(n.startswith(EN("fr_measured_disagg", hw="GB200", engines="")) for n in names)


def test_zh_tw():
    at = run_page("frontier", lang="zh-TW", **DS)
    assert not at.exception
    assert at.title[0].value == ZH("page_frontier")
    titles = _titles(at)
    assert ZH("fr_frontier_title_output", model="DeepSeek-R1", io="1k/1k") in titles
    assert ZH("fr_loho_title_tpot") in titles
    assert ZH("fr_m_loho_tpot") in [m.label for m in at.metric]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_reasoning_and_agentic_presets(lang):
    """Long-reasoning (1k/16k, 1k/32k) and agentic long-context (64k/2k) workloads beside InferenceX's three, named in
    both languages; one drives the charts (here DeepSeek-V3.2, whose sparse attention matters at long context)."""
    tr = ZH if lang == "zh-TW" else EN
    at = run_page("frontier", lang=lang, model="deepseek-v3.2", gpus="8", weights="fp8", kv="fp8", fr_io="64k2k")
    assert not at.exception, at.exception
    radio = at.radio(key="frontier.io")
    labels = [tr(f"fr_io_{k}", io=io) for k, io in (("1k1k", "1k/1k"), ("1k8k", "1k/8k"), ("8k1k", "8k/1k"))]
    labels += [tr(f"fr_io_{k}", io=io) for k, io in (("1k16k", "1k/16k"), ("1k32k", "1k/32k"), ("64k2k", "64k/2k"))]
    assert radio.options == [*labels, tr("fr_io_custom")]
    assert radio.value == "64k2k"
    assert tr("fr_frontier_title_output", model="DeepSeek-V3.2", io="64k/2k") in _titles(at)
    radio.set_value("1k32k").run()
    assert not at.exception and tr("fr_frontier_title_output", model="DeepSeek-V3.2", io="1k/32k") in _titles(at)


def test_rack_scale_view_draws_every_chip_and_the_ratio_table():
    """Rack-scale vs scale-out (opened): one curve per chip at a 72-GPU budget, the two announced parts marked as
    projections, GB200 / B200 and GB200 / MI355X ratios at 25, 60, 100, 125 tok/s per user; zh-TW too."""
    for tr in (EN, ZH):
        at = run_page("frontier", model="deepseek-r1", weights="nvfp4", kv="fp8", fr_io="1k1k", lang=tr.lang)
        at.session_state["frontier.rack"] = True
        at.run()
        assert not at.exception, at.exception
        fig = _fig(at, "DeepSeek-R1 · 1k/1k")
        names = {t["name"] for t in fig["data"]}  # each curve and its legend entry (its line alone) by one name
        assert sum(tr("fr_rack_projection", name="") in n or n.endswith(tr("fr_rack_projection", name="")[-3:])
                   for n in names) == 2  # fmt: skip
        assert (
            any("GB200" in n for n in names) and any("B200" in n for n in names) and any("MI355X" in n for n in names)
        )
        # each searched point of a current chip says where measured runs like it sit (frontier_check's cells; the
        # view's best engine against the best-engine check)
        cells = json.loads((ROOT / "data" / "disaggregated_check.json").read_text(encoding="utf-8"))["frontier_best"]
        gb200 = next(t for t in fig["data"] if t["name"].startswith("GB200"))
        marker = tr("fr_rack_hover_range", low="", high="").split("–")[0].strip()
        said = [
            (x, y, h)
            for x, y, h in zip(decode(gb200["x"]), decode(gb200["y"]), gb200["hovertext"], strict=True)
            if marker in h
        ]
        assert said, gb200["hovertext"][:3]
        for x, y, h in said:
            low, high = (float(v.replace(",", "")) for v in re.findall(r"([\d,]+)–([\d,]+)", h)[-1])
            gpus = int(re.findall(r"(\d+) (?:GPUs|張 GPU)", h)[0])
            if "→" not in h:  # aggregated: replicas of one instance read as that instance (its GPUs: TP8, TP4xPP2)
                gpus = math.prod(int(g) for g in re.search(r"\d+ × [A-Z]+(\d+)(?:xPP(\d+))?", h).groups() if g)
            band = cells["cells"][
                ("multi_node" if gpus > 8 else "single_node") + ("|high" if x >= 100 else "|below_high")
            ]
            assert low == pytest.approx(y / band["p90_ratio"], abs=0.6) and high == pytest.approx(
                y / band["p10_ratio"], abs=0.6
            )
        # how far to trust the curves: the committed check of the disaggregated runs, said under the table
        check = json.loads((ROOT / "data" / "disaggregated_check.json").read_text(encoding="utf-8"))
        said = rack_scale.check_caption(
            check, tr, names={"deepseek-r1": "DeepSeek-R1"}
        )  # the best engine: the span of the engines' decode terms and the common ones
        assert said in [c.value for c in at.main.caption] and check["prefill_median_model_over_measured"] > 1
        assert f"{check['fit']['prefill_prompt_s'] * 1e3:.1f} ms" in said  # the fixed cost per prompt, in both
        # and how far the best-engine layout search is from the measured frontier over every engine: a table, a row
        # per question (each run's own GPU count; within 72 GPUs, as the view asks; each chip of the view within 72),
        # and the caption under it saying what it covers and reads
        said = rack_scale.frontier_check_caption(check, tr, best=True, names={"deepseek-r1": "DeepSeek-R1"},
                                                 view_gpus=72)  # fmt: skip
        assert said in [c.value for c in at.main.caption] and tr("fr_rack_group_any") in said
        assert "1k/1k" in said and "NVFP4" in said and tr("fr_rack_frontier_check_budget", gpus=72) in said
        table = _rack_frames(at, tr)[3].value.set_index(tr("fr_check_col_reading"))
        best, budget = check["frontier_best"], check["frontier_budget"]
        own, within = table[tr("fr_check_col_own")], table[tr("fr_check_col_budget", gpus=72)]
        of = tr("fr_check_row_within")
        assert own[of] == tr("fr_check_of", n=best["all"]["within"], runs=183)
        assert within[of] == tr("fr_check_of", n=budget["all"]["within"], runs=183) and best["all"]["runs"] == 183
        median = tr("fr_check_row_median")
        assert own[median] == f"{best['all']['median_ratio']:.2f}×"
        assert within[median] == f"{budget['all']['median_ratio']:.2f}×"
        high = tr("fr_check_row_high", low="40", high="100")
        assert within[high] == f"{budget['high']['median_ratio']:.2f}× ({budget['high']['runs']})"
        runs = budget["by_chip"]["gb200"]["all"]["runs"]
        chip = budget["by_chip"]["gb200"]["all"]
        assert runs > 0 and table["GB200 NVL72"][of] == tr("fr_check_of", n=chip["within"], runs=runs)
        assert not any("Rubin" in c for c in table.columns)  # an announced part has no runs to check
        # its exports state the view's own scenario (1k/1k, the chips, the 72-GPU budget), not the sidebar's
        payloads = [json.loads(el.proto.bytes) for el in at.get("bidi_component") if el.proto.bytes]
        stems = [p["export"]["filename"] for p in payloads]
        rack_stem = next(f for f in stems if f.startswith("rack-scale-vs-scale-out_"))
        # each chip within the 72-GPU budget, not '72xgb200-b200-…' (read as 72 GB200s and one of each other chip)
        assert "_gb200-b200-mi355x-vr200-mi455x-max72gpus_" in rack_stem and "_ctx1024_out1024_" in rack_stem, rack_stem
        rack = next(p for p in payloads if p["export"]["filename"].startswith("rack-scale-vs-scale-out_"))
        said = (
            tr("export_device_budget", gpus=72, hw="").split(",", 1)[-1].split("，", 1)[-1].strip()
        )  # 'each its best…'
        assert "72 × GB200" not in json.dumps(rack["export"]["decor"], ensure_ascii=False)
        decor = json.dumps(rack["export"]["decor"], ensure_ascii=False)
        assert said in decor, re.findall(r"<sup>[^<]*", decor)
        main_stem = next(f for f in stems if f.startswith("serving-frontier_"))
        assert "_ctx1024_out1024_" in main_stem and "_ctx4096_" not in main_stem, main_stem
        # three tables, a row per chip and a column per interactivity (narrow enough for a 900 px frame): tokens/s
        # per GPU, the rack-scale advantage, $ per 1M tokens per chip and price basis (a row each)
        rates, ratios, costs = (frame.value for frame in _rack_frames(at, tr)[:3])
        at_cols = [tr("fr_rack_col_at", x=x) for x in ("25", "60", "100", "125")]
        assert list(rates.columns) == [tr("fr_rack_col_rates"), *at_cols]
        gb200 = rates.set_index(tr("fr_rack_col_rates")).loc[
            next(n for n in rates[tr("fr_rack_col_rates")] if n.startswith("GB200"))
        ]
        b200 = rates.set_index(tr("fr_rack_col_rates")).loc["B200"]
        # rates to 3 significant figures, the ratio to 2 decimals (the table showed 8302.9 beside 28033.04)
        assert all(v == float(f"{v:.3g}") for v in gb200.dropna()) and len(gb200.dropna())
        ratio = ratios.set_index(tr("fr_rack_col_advantage")).loc[f"{gb200.name} / B200"]
        # of the unrounded rates: within the shown ones' rounding (3 significant figures, 2 decimals: 11,100 / 10,000
        # reads 1.10)
        assert ratio.iloc[0] == pytest.approx(gb200.iloc[0] / b200.iloc[0], abs=0.011) and ratio.iloc[0] > 0
        # rates with thousands separators; ratios and dollars with both decimals (a ratio of 2 read "2" beside 1.28)
        shown_rates, shown_ratios = (_cells(f)[at_cols].to_numpy().ravel() for f in _rack_frames(at, tr)[:2])
        number = r"\d{1,3}(,\d{3})*(\.\d+)?"
        assert all(re.fullmatch(f"{number}(–{number})?|—", v) for v in shown_rates), shown_rates  # a range: 'a–b'
        # under a chip with measured runs like its layouts, each value's 80 % range from the check; none under a
        # projection, and its row says why (announced: nothing measured; a review: the page had not said)
        names = list(rates[tr("fr_rack_col_rates")])
        assert names[names.index(gb200.name) + 2] == tr("fr_rack_row_range")
        assert tr("fr_rack_row_range") not in names[names.index("Rubin NVL72*") :][:3]
        none = tr("fr_rack_row_range_none", reason=tr("fr_rack_no_range_announced"))
        assert [names[names.index(p) + 1] for p in ("Rubin NVL72*", "MI455X*")] == [none, none]
        assert any("," in v for v in shown_rates)  # 8,550, not 8550
        assert all(re.fullmatch(r"\d+\.\d\d×|—", v) for v in shown_ratios), shown_ratios  # 1.00×, not 1×
        assert list(costs.columns) == [tr("fr_rack_col_usd"), tr("fr_rack_col_basis"), *at_cols]
        gb_costs = costs[costs[tr("fr_rack_col_usd")] == gb200.name]
        assert list(gb_costs[tr("fr_rack_col_basis")])[0] == tr("fr_tier_short_on_demand")  # the page's basis first
        assert len(gb_costs) == 4  # every published basis (3-year rental was in the CSV, not the table)
        # in dollars, three significant figures each with their zeros ($0.0512 beside $24.3 and $0.0700; two decimals
        # read $0.05 beside $0.15, and a number column 0.07 beside 0.084)
        money = [v for v in gb_costs[at_cols].to_numpy().ravel() if v is not None]
        assert len(money) and all(v == f"${float(v[1:]):#.3g}" for v in money)


@pytest.mark.parametrize("tr", [EN, ZH])
def test_rack_table_says_how_fast_a_chip_that_reads_dash_can_go(tr):
    """A chip that reads '—' at a ratio target on latency is named under the table with the fastest interactivity a
    layout that fits reaches (its layout search's fastest_tpot_s), below that target."""
    at = run_page("frontier", model="deepseek-r1", weights="fp8", kv="fp8", fr_io="1k1k", lang=tr.lang)
    at.session_state["frontier.rack"] = True
    at.run()
    assert not at.exception, at.exception
    rates = _rack_frames(at, tr)[0].value.set_index(tr("fr_rack_col_rates"))  # a row per chip, a column per target
    targets = np.array([25.0, 60.0, 100.0, 125.0])
    # the rows under a chip's ('↳ measured', '↳ GPUs used', '↳ 80% range', or why it has none) are not chips
    missing = [name for name, row in rates.iterrows() if row.isna().any() and not name.startswith("↳")]
    assert missing, "the default view has a chip that misses 125 tok/s per user"
    (said,) = [c.value for c in at.main.caption if c.value.startswith(tr("fr_rack_ceiling", chips="")[:20])]
    for name in missing:
        # the table marks an announced chip 'MI455X*', the caption names it 'MI455X (announced)'
        x = float(re.search(r"(?<!\w)" + re.escape(name.rstrip("*")) + r"[^\d]*(\d+) tok/s", said).group(1))
        reached = rates.loc[name].notna().to_numpy()
        assert x < targets[~reached].min() and (targets[reached] <= x + 1).all()


def _rack_frames(at, tr) -> list:
    """The rack-scale view's tables, found by their first column's header: rates, ratios, $, and the check's."""
    heads = [tr("fr_rack_col_rates"), tr("fr_rack_col_advantage"), tr("fr_rack_col_usd"), tr("fr_check_col_reading")]
    frames = {f.value.columns[0]: f for f in at.table if len(f.value.columns)}
    return [frames[h] for h in heads]


def _cells(frame):
    """A static table's cells as the page shows them (its Styler's display values: '8,550', '1.76×', '—')."""
    import pyarrow as pa

    return pa.ipc.open_stream(frame.proto.arrow_data.styler.display_values).read_pandas()


def _rack_intro(tr, gpus: int, names: tuple[str, str, str] = ("GB200 NVL72", "B200", "MI355X")) -> str:
    devices = fmt.devices("gpu", gpus, tr)
    return tr("fr_rack_intro", devices=devices, **dict(zip(("rack", "hgx", "amd"), names, strict=True)))


@pytest.mark.parametrize("tr", [EN, ZH])
def test_rack_scale_chips_follow_the_sidebars_generation(tr):
    """A GB300 in the sidebar drew GB200 NVL72, B200 and MI355X only (browser review): the view compares the sidebar
    chip's generation (GB300 NVL72 against HGX B300 and MI355X), out of the link while it follows; fr_rack_chips
    picks one, a bad value falls back with a notice."""
    at = run_page("frontier", model="deepseek-r1", hardware="gb300", gpus="8", weights="fp8", kv="fp8", fr_io="1k1k",
                  lang=tr.lang)  # fmt: skip
    assert not at.exception and not at.warning
    assert at.session_state["frontier.rack_chips"] == "blackwell_ultra" and "fr_rack_chips" not in at.query_params
    assert _rack_intro(tr, 72, ("GB300 NVL72", "B300", "MI355X")) in [c.value for c in at.main.caption]
    at.session_state["frontier.rack"] = True
    at.run()
    assert not at.exception, at.exception
    fig = _fig(at, tr("fr_rack_title", model="DeepSeek-R1", io="1k/1k", precision=tr("fr_prec_fp8"),
                      devices=fmt.devices("gpu", 72, tr), engine=tr("fr_rack_title_best")))  # fmt: skip
    names = [t.get("name", "") for t in fig["data"]]
    assert "GB300 NVL72" in names and "B300" in names and "GB200 NVL72" not in names
    ratios = [str(v) for df in at.table for v in df.value.iloc[:, 0]]
    assert tr("fr_rack_col_ratio", rack="GB300 NVL72", other="B300") in ratios
    at.selectbox(key="frontier.rack_chips").set_value("blackwell").run()
    assert at.query_params["fr_rack_chips"] == "blackwell"
    bad = run_page("frontier", fr_rack_chips="hopper", lang=tr.lang)
    assert bad.session_state["frontier.rack_chips"] == "blackwell"
    chips = control_name(tr("fr_rack_chips"), "fr_rack_chips", tr)
    shown = tr("fr_rack_chips_option", rack="GB200 NVL72", others=tr.join(["B200", "MI355X"]))  # as the box shows it
    said = tr("notice_bad_param", name=chips, given="hopper", used=shown)  # and the values it takes
    taken = tr("notice_options", options=fmt.alternatives(["`blackwell`", "`blackwell_ultra`"], tr))
    assert [w.value for w in bad.warning] == [tr.sentences([said, taken])]


@pytest.mark.parametrize("tr", [EN, ZH])
def test_rack_scale_budget_is_an_input_in_the_url(tr):
    """Issue 18: the rack-scale view's GPU budget (was fixed at 72) is an input; fr_rack_gpus carries it, a bad value
    falls back to 72 with a notice; the search and the chart's title use it."""
    at = run_page("frontier", model="deepseek-r1", gpus="8", weights="fp8", kv="fp8", fr_io="1k1k", fr_rack_gpus="8",
                  lang=tr.lang)  # fmt: skip
    assert not at.exception and not at.warning
    assert at.session_state["frontier.rack_gpus"] == 8 and at.query_params["fr_rack_gpus"] == "8"
    assert _rack_intro(tr, 8) in [c.value for c in at.main.caption]
    # the projections it names are the chips the chart draws, by their short names (it said 'Vera Rubin NVL72' where
    # the legend read 'Rubin NVL72 (announced)'; helper review)
    from tpot_model import load_hardware_catalog

    assert load_hardware_catalog()["vr200"].short_name in _rack_intro(tr, 8)
    at.session_state["frontier.rack"] = True
    at.run()
    assert not at.exception, at.exception
    assert _fig(at, tr("fr_rack_title", model="DeepSeek-R1", io="1k/1k", precision=tr("fr_prec_fp8"),
                       devices=fmt.devices("gpu", 8, tr), engine=tr("fr_rack_title_best")))  # fmt: skip
    # the key to 'Rubin NVL72*' a footnote, its '*' escaped (browser review: it had rendered as a list bullet)
    assert "\\" + tr("hw_announced_key") in [c.value for c in at.main.caption]
    at.number_input(key="frontier.rack_gpus").set_value(16).run()
    captions = [c.value for c in at.main.caption]
    assert at.query_params["fr_rack_gpus"] == "16" and _rack_intro(tr, 16) in captions
    bad = run_page("frontier", fr_rack_gpus="abc", lang=tr.lang)
    assert bad.session_state["frontier.rack_gpus"] == 72
    budget = control_name(tr("fr_rack_budget"), "fr_rack_gpus", tr)
    said = tr("notice_bad_param", name=budget, given="abc", used="72")
    assert [w.value for w in bad.warning] == [tr.sentences([said, tr("notice_allowed_whole", lo="1", hi="1,024")])]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_follows_the_sidebar_unless_changed_and_says_when_it_differs(lang):
    """Issue 19: the page read 1k/1k and SGLang while every other page read the sidebar (batch 32 on H200: 17.0 ms
    here, 20.0 ms elsewhere). By default it takes the sidebar's context, output, profile and weight precision, keeps
    them out of the link, follows a sidebar change, and says so when a page choice differs."""
    tr = Translator(lang)
    at = run_page("frontier", lang=lang)
    assert not at.exception
    ss = at.session_state
    assert (ss["frontier.io"], ss["frontier.engine"], ss["frontier.precisions"]) == ("custom", "typical", ["fp8"])
    assert {"fr_io", "fr_engine", "fr_prec"}.isdisjoint(at.query_params)
    assert not any(tr("fr_differs", what="\0").split("\0")[0] in i.value for i in at.info)
    # the ringed sidebar batch reads the continuous TPOT of the sidebar's own scenario
    from tpot_model import Scenario, estimate, resolve_hardware, resolve_model, resolve_profile

    e = estimate(resolve_model("llama-3.1-70b"), resolve_hardware("h200"),
                 Scenario(batch=32, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8",
                          batching="continuous"), resolve_profile("typical"))  # fmt: skip
    assert any(fmt_ms(float(e.tpot_s)) in md.value for md in at.markdown)
    at.sidebar.selectbox(key="profile").set_value("vllm").run()
    at.sidebar.selectbox(key="weights").set_value("bf16").run()
    assert (at.session_state["frontier.engine"], at.session_state["frontier.precisions"]) == ("vllm", ["bf16"])
    at.radio(key="frontier.io").set_value("1k1k").run()
    (note,) = [i.value for i in at.info if tr("fr_differs", what="\0").split("\0")[0] in i.value]
    assert tr("fr_differs_io", io="1k/1k", sidebar="4k/1k") in note
    assert at.query_params["fr_io"] == "1k1k"


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_sidebars_chip_is_drawn_first_and_its_absence_said(lang):
    """The reviewer's TPU v6e x 8 in the sidebar drew H200, B200 and MI355X only: the sidebar's chip leads the chips
    by default (out of the link while it follows), a sidebar change brings the new chip, and leaving it out says so."""
    tr = Translator(lang)
    at = run_page("frontier", lang=lang, hardware="tpu-v6e", gpus="8")
    assert not at.exception, at.exception
    assert at.session_state["frontier.hardware"] == ["tpu-v6e", "h200", "b200", "mi355x"]
    assert "fr_hw" not in at.query_params
    assert any("TPU v6e" in t.get("name", "") for t in _fig(at, "")["data"])
    at.sidebar.selectbox(key="hardware").set_value("b300").run()
    assert at.session_state["frontier.hardware"] == ["b300", "h200", "b200", "mi355x"]
    at.multiselect(key="frontier.hardware").set_value(["h200"]).run()
    from tpot_model import resolve_hardware

    (note,) = [i.value for i in at.info if tr("fr_differs", what="\0").split("\0")[0] in i.value]
    assert tr("fr_differs_hardware", sidebar=fmt.chip(resolve_hardware("b300"), tr)) in note
    assert at.query_params["fr_hw"] == "h200"


def fmt_ms(seconds: float) -> str:
    return fmt.ms(seconds)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_target_shows_both_units(lang):
    """Issue 19: the Planner's '50 ms TPOT' and the Frontier's '50 tok/s per user' are 2.5x apart; each target
    states both forms. The Frontier's default is now the Planner's (chat, 50 ms = 20 tok/s per user: a review had
    read both defaults as '50' and their answers apart); a link's 50 tok/s per user still says 20 ms."""
    tr = Translator(lang)
    at = run_page("frontier", lang=lang)
    assert any(tr("target_both", user="20", tpot="50\u00a0ms") == c.value for c in at.caption)
    assert at.number_input(key="frontier.target").value == 20.0
    at = run_page("frontier", lang=lang, fr_target="50")
    assert any(tr("target_both", user="50", tpot="20\u00a0ms") == c.value for c in at.caption)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_mtp_shows_its_error_on_the_measured_runs_and_only_the_selected_layouts(lang):
    """Issue 19: with MTP on, the page states the switch's error on the measured MTP runs at the k and acceptance
    chosen (serving_calibration.mtp_check), and draws only the measured points of the layouts selected."""
    tr = Translator(lang)
    at = run_page("frontier", lang=lang, **DS)
    at.toggle(key="frontier.mtp").set_value(True).run()
    check, bias = sc.mtp_check(sc.load_serving_measurements(), 3, 0.56)
    want = tr("fr_mtp_check", n=check.n, k=3, a="0.56", median=fmt.pct(check.median), p90=fmt.pct(check.p90),
              bias=fmt.pct(bias, signed=True))  # fmt: skip
    assert want in _paragraphs(at)
    at.slider(key="frontier.accept").set_value(0.7).run()
    check7, _ = sc.mtp_check(sc.load_serving_measurements(), 3, 0.7)
    assert any(fmt.pct(check7.median) in c.value and "0.7" in c.value for c in at.caption)
    # measured markers: circle TP, square TP/EP, diamond DP-attn/EP; only the TP ones while only TP is selected
    symbols = _measured_symbols(at, tr)
    assert symbols and "square" not in symbols and "diamond" not in symbols
    at.multiselect(key="frontier.layouts").set_value(["tp", "dp-ep"]).run()
    assert "diamond" in _measured_symbols(at, tr)


def _measured_symbols(at, tr) -> set[str]:
    """Marker symbols of the measured points on the frontier chart (a symbol per point: its layout)."""
    out = set()
    word = tr("fr_measured", hw="", engines="").strip().split(":")[0].split("：")[0]  # 'measured' / '實測'
    for t in _fig(at, "DeepSeek-R1")["data"]:
        if word in (t.get("name") or ""):
            sym = t.get("marker", {}).get("symbol")
            out |= set(sym) if isinstance(sym, list) else {sym}
    return out


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_says_why_its_tpot_is_not_overviews(lang):
    """Issue 19: at the default scenario (Llama 3.1 70B, 2 x H200, fp8, batch 32, 4K + 1K) Overview shows the static
    batch's TPOT, 22.3 ms, and this page continuous batching's, 31.6 ms; a caption names both and why: every step a
    user decodes through also prefills the other 31 requests' prompts, 31 x 4,096 / 1,024 = 124 prompt tokens on
    average, i.e. 31 steps in 1,024 (one in 33) carry a whole 4,096-token prompt chunk (330 ms), so the mean is
    (1 - 31/1024) x 22.3 + 31/1024 x 330 ≈ 31.6 ms (unrounded terms)."""
    from dataclasses import replace

    from tpot_model import Scenario, estimate, resolve_hardware, resolve_model, resolve_profile, serving

    tr = Translator(lang)
    m, hw, prof = resolve_model("llama-3.1-70b"), resolve_hardware("h200"), resolve_profile("typical")
    s = Scenario(batch=32, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8")
    static = float(estimate(m, hw, s, prof).tpot_s)
    steady = serving.steady_state(m, hw, replace(s, batching="continuous"), prof)
    only, chunk = float(steady.decode_only.time_s), float(steady.first_chunk.time_s)
    assert float(steady.prompt_tokens_per_step) == 124 and float(steady.chunks_per_step) == pytest.approx(31 / 1024)
    assert only == pytest.approx(static)  # the static batch's TPOT is the decode step alone
    assert float(steady.tpot_s) == pytest.approx((1 - 31 / 1024) * only + 31 / 1024 * chunk)
    assert (f"{static * 1e3:.1f}", f"{float(steady.tpot_s) * 1e3:.1f}") == ("22.3", "31.6")
    at = run_page("frontier", lang=lang)
    assert not at.exception
    (note,) = [c.value for c in at.caption if tr("fr_batching_lead") in c.value]
    assert "**22.3 ms**" in note and "**31.6 ms**" in note and "330 ms" in note
    assert "(32 − 1) × 4,096 ÷ 1,024 = 124" in note
    assert tr("fr_batching_mix_few", only="22.3 ms", every="33", chunk="4,096", with_chunk="330 ms") in note
    # MTP switched on: the chart's TPOT at batch 32 is MTP's, and the note says so (it ended at the continuous TPOT,
    # the chart said less: helper review); with a model that ships an MTP module (DeepSeek-R1 FP8 on 8 x B200)
    key = tr("fr_batching_lead")
    at = run_page("frontier", lang=lang, model="deepseek-r1", hardware="b200", gpus="8", weights="fp8", kv="fp8")
    (plain,) = [c.value for c in at.caption if key in c.value]
    at.toggle(key="frontier.mtp").set_value(True).run()
    (note,) = [c.value for c in at.caption if key in c.value]
    (mtp_tpot,) = [m.group(1) for md in at.markdown if (m := re.search(r"TPOT ([0-9.,]+ ms)", md.value))]
    assert (
        tr("fr_batching_mtp", k=3, a="0.56", e="2.05", b=32, tpot=mtp_tpot) in note and f"**{mtp_tpot}**" not in plain
    )
    assert not note.startswith(":gray[")
    # a sidebar scenario that does not fit (DeepSeek-R1 FP8 on 2 x GB200): its two TPOTs are what-ifs, greyed and
    # marked "if it fitted" (they were quoted as plain figures beside the curves' "does not fit": helper review)
    at = run_page("frontier", lang=lang, model="deepseek-r1", hardware="gb200", gpus="2", weights="fp8", kv="fp8")
    (note,) = [c.value for c in at.caption if tr("fr_batching_lead") in c.value]
    assert note.startswith(f":gray[{tr('fr_if_fitted_lead')} ") and note.endswith("]")  # said first, not trailing
    # a batch of 1 reads in the singular ('At 1 requests in flight': helper review), and alone on the server its
    # continuous TPOT is Overview's: the note says so instead of why they differ (no other prompt rides its steps)
    at = run_page("frontier", lang=lang, model="llama-3.1-405b", hardware="rtx-4090", gpus="1", batch="1")
    assert not at.exception, at.exception
    said = " ".join([c.value for c in at.caption] + [m.value for m in at.markdown])
    assert tr("fr_requests_one") in said
    assert tr("fr_batching_lead_alone") in said and tr("fr_batching_lead") not in said
    if lang == "en":
        assert "1 requests" not in said
    # nothing fits at any concurrency: the notice, and no empty cost chart under it
    assert tr("fr_target_nofit") in [i.value for i in at.info]
    cost_title = tr("fr_cost_title_output", target=fmt.target(1 / 50, tr), tier="\0").split("\0")[0]
    assert not [f for f in figures(at) if f["layout"]["title"]["text"].startswith(cost_title)]


# ------------------------------------------------------------------------------------------------ MLPerf overlay
LLAMA2 = dict(model="llama-2-70b", gpus="8")  # the sidebar's FP8: H200's 29 results match, B200's NVFP4 ones do not


def _mlperf_data(fig: dict, name: str) -> dict:
    (t,) = [t for t in fig["data"] if t.get("name") == name and t.get("showlegend") is False]
    return t


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_mlperf_results_overlay_the_frontier_in_both_languages(lang):
    """Llama 2 70B on the default chips (H200, B200, MI355X), FP8 curves: MLPerf's H200 results as matched points
    (v5.1: 19, v4.1: 9, v5.0: 1, as in data/mlperf.csv; B200's v5.0 FP8 runs join v5.0), B200's NVFP4 v5.1 results
    open; a caption says they are at MLPerf's own lengths; the info line no longer says no measurements."""
    tr = EN if lang == "en" else ZH
    at = run_page("frontier", **LLAMA2, lang=lang)
    # the sidebar's 4K + 1K runs past Llama 2's 4,096-token window: said, as on every other page
    window = tr("context_over_max", tokens="5,120", model="Llama 2 70B", max="4,096")
    assert not at.exception and not at.error and [w.value for w in at.warning] == [window]
    fig = _fig(at, "Llama 2 70B")
    keys = [
        t["name"] for t in fig["data"] if t.get("name", "").startswith("MLPerf") and t.get("showlegend") is not False
    ]
    assert tr("fr_mlperf_legend", round="v5.1") in keys and tr("fr_mlperf_legend_other", round="v5.1") in keys
    assert len(decode(_mlperf_data(fig, tr("fr_mlperf_legend", round="v5.1"))["x"])) == 19
    assert len(decode(_mlperf_data(fig, tr("fr_mlperf_legend", round="v4.1"))["x"])) == 9 + 1  # B200's v4.1 FP8 run
    assert len(decode(_mlperf_data(fig, tr("fr_mlperf_legend_other", round="v5.1"))["x"])) == 24
    assert any(tr("fr_mlperf_caption", model="Llama 2 70B", n=57, isl="222", osl="291", io="4k/1k", total="")[:60]
               in c.value for c in at.caption)  # fmt: skip
    assert any(tr("fr_no_inferencex_model", model="Llama 2 70B", query="")[:25] in i.value for i in at.info)
    assert not any(tr("fr_no_measured_model", model="Llama 2 70B", query="")[:25] in i.value for i in at.info)


def test_the_deepseek_link_keeps_the_readers_language_and_view():
    """The 'open this page with DeepSeek-R1' link changes the scenario and keeps the rest of the link (it had been
    typed into the string: a zh-TW or embedded reader landed on the English full page)."""
    at = run_page("frontier", embedded=True, lang="zh-TW", embed="true", price_basis="neocloud")
    (info,) = [i.value for i in at.info if "deepseek-r1" in i.value]
    href = info.split("](frontier?")[1].split(")")[0]
    assert {"model=deepseek-r1", "gpus=8", "weights=fp8", "kv=fp8", "lang=zh-TW", "embed=true",
            "price_basis=neocloud", "fr_io=1k1k", "context=1024", "output=1024"} <= set(href.split("&"))  # fmt: skip
    # followed, it opens on lengths InferenceX measured (the sidebar's 4k/1k had opened a page without a point)
    query = dict(kv.split("=", 1) for kv in href.split("&") if not kv.startswith("embed="))
    followed = run_page("frontier", embedded=True, **query)
    assert not followed.exception and not followed.error
    assert not any(ZH("fr_no_measured_selection", io="1k/1k")[:12] in i.value for i in followed.info)
    names = [t.get("name", "") for t in _fig(followed, "DeepSeek-R1")["data"]]
    assert any(n.startswith(ZH("fr_measured", hw="H200", engines="")) for n in names)


def test_mlperf_overlay_in_the_embed_view_and_on_the_total_axis():
    at = run_page("frontier", embedded=True, **LLAMA2, fr_y="total")
    assert not at.exception
    fig = _fig(at, "Llama 2 70B")
    y = decode(_mlperf_data(fig, EN("fr_mlperf_legend", round="v4.1"))["y"])
    total = 3653.5275 * (222.3 + 291.2628) / 291.2628  # NVIDIA's v4.1 H200 x8 run: output x (ISL + OSL) / OSL
    assert sum(v == pytest.approx(total) for v in y) == 1
    assert any(EN("fr_mlperf_caption_total")[:40] in c.value for c in at.caption)


def test_no_mlperf_match_shows_no_overlay_and_says_why():
    """Llama 3.1 70B (the default): MLPerf has no results for it, so no MLPerf trace and a caption naming the
    models it covers; Llama 2 70B on MI355X only: none on that chip, and the caption names the chips that have."""
    at = run_page("frontier")
    assert not at.exception
    assert not any(t.get("name", "").startswith("MLPerf") for f in figures(at) for t in f["data"])
    assert any(c.startswith(EN("fr_mlperf_none", model="Llama 3.1 70B", models="", rounds="v4.0–v5.1")[:40]) and "Llama 2 70B" in c
               for c in _paragraphs(at))  # fmt: skip
    at = run_page("frontier", **LLAMA2, fr_hw="mi355x")
    assert not at.exception and not at.error
    assert not any(t.get("name", "").startswith("MLPerf") for t in _fig(at, "Llama 2 70B")["data"])
    (c,) = [c for c in _paragraphs(at) if c.startswith("MLPerf Inference has results for Llama 2 70B on")]
    assert "H200" in c and "MI355X" not in c


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_tpu_among_the_curves_makes_the_axis_per_chip(lang):
    """Issue 19: the frontier's title, y axis and throughput metric say 'per GPU' while every chip drawn is a GPU, and
    the neutral 'per chip' once a TPU or Trainium is among them."""
    tr = Translator(lang)
    at = run_page("frontier", lang=lang)
    (fig,) = [f for f in figures(at) if f["layout"]["yaxis"]["title"]["text"] == tr("fr_axis_tps_gpu_output")]
    at.multiselect(key="frontier.hardware").set_value(["h200", "tpu7x"]).run()
    assert not at.exception
    (fig,) = [f for f in figures(at) if f["layout"]["yaxis"]["title"]["text"] == tr("fr_axis_tps_gpu_output_chip")]
    assert "GPU" not in fig["layout"]["title"]["text"]
    target = f"{at.number_input(key='frontier.target').value:g}"
    assert tr("fr_m_tps_output_chip", target=target) in [m.label for m in at.metric]


# Texts of the sections about GPUs only, whatever the sidebar's chip: the rack-scale view (GB200, B200, MI355X and
# their projections), InferenceX's runs and the leave-one-hardware-out check on them.
GPU_ONLY = ("fr_rack_budget", "fr_rack_budget_help", "fr_rack_intro", "fr_disagg_help", "fr_no_measured_model",
            "fr_m_loho_out", "fr_loho_title_out", "fr_axis_measured_out", "fr_axis_predicted_out",
            "fr_loho_caption", "fr_bias_caption")  # fmt: skip


def _hovertexts(at) -> list[str]:
    return [h for f in figures(at) for t in f["data"] for h in (t.get("hovertext") or []) if isinstance(h, str)]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_tpu_scenario_says_chips_in_every_control_caption_metric_and_chart(lang):
    """Issue 19: with a TPU in the sidebar and on the curves, the page's controls ('$ per chip-hour', 'Your $ per
    chip-hour'), scenario line, captions, metric helps, charts and their hover text say chip, not GPU; only the
    sections about GPUs alone (rack scale, InferenceX, its leave-one-out check) keep GPU. A missing price or all-in
    power reads 'No public price' / 'No public all-in power' (was 'n/a'), and no chip with an all-in power draws no
    empty tokens-per-MW chart. A GPU scenario keeps GPU."""
    from tests.apptest_util import visible_texts

    tr = Translator(lang)
    # each GPU-only text by the longest stretch of its template between placeholders
    blanks = dict.fromkeys(("gpus", "devices", "model", "query", "rack", "hgx", "amd"), "\0")
    gpu_only = [max(tr(k, **blanks).split("\0"), key=len) for k in GPU_ONLY]
    at = run_page("frontier", lang=lang, hardware="tpu7x", gpus="4", fr_hw="tpu7x", fr_tier="hyperscaler")
    assert not at.exception
    texts = visible_texts(at) + _hovertexts(at)
    # a title broken onto lines (<br>) read as one line
    assert not [t for t in texts if "GPU" in t and not any(piece in t.replace("<br>", " ") for piece in gpu_only)]
    assert at.radio(key="frontier.tier").label == tr("fr_tier_chip")
    assert at.number_input(key="frontier.usd").label == tr("fr_usd_chip")
    assert tr("fr_caption_chip") in [c.value for c in at.caption]
    cost = [
        h
        for h in _hovertexts(at)
        if h.startswith(tr("fr_hover_cost_output_chip", name="TPU7x · FP8 · TP", usd="", tps="")[:20])
    ]
    assert cost and all(tr("dev_chip_one") in h for h in cost)
    # TPU7x has no public on-demand price nor a published all-in power: the metrics say so
    at = run_page("frontier", lang=lang, hardware="tpu7x", gpus="4", fr_hw="tpu7x")
    values = {m.label: (m.value, m.delta) for m in at.metric}  # a dash and why under it, as on Economics
    assert values[tr("fr_m_usd_output")] == ("—", tr("no_public_price_short"))
    assert values[tr("fr_m_mw")] == ("—", tr("no_public_power_short"))
    # nothing drawn has a price: the best is by throughput, not 'cheapest'
    tier = tr("fr_tier_on_demand")
    assert tr("fr_best_unpriced_chip", target="20", name="TPU7x · FP8 · TP", tier=tier) in [
        m.value for m in at.markdown
    ]
    # no chip drawn has an all-in power: no empty tokens-per-MW chart, a notice naming them
    assert tr("fr_mw_none", hws="TPU7x") in [i.value for i in at.info]
    assert tr("fr_mw_title_output") not in [f["layout"]["title"]["text"] for f in figures(at)]
    assert not [t for t in visible_texts(at) + _hovertexts(at) if "n/a" in t or t == tr("fr_na")]

    # a TPU in the sidebar beside GPU curves: the page's scenario line counts chips (a GPU is a chip too)
    def scenario_line(at) -> str:
        (line,) = [md.value for md in at.markdown if md.value.startswith("**Llama 3.1 70B**")]
        return line

    mixed = run_page("frontier", lang=lang, hardware="tpu7x", gpus="4")
    assert "GPU" not in scenario_line(mixed) and tr("dev_chip_one") in scenario_line(mixed)
    gpu = run_page("frontier", lang=lang, hardware="h200")
    assert gpu.radio(key="frontier.tier").label == tr("fr_tier")
    assert gpu.number_input(key="frontier.usd").label == tr("fr_usd")
    assert tr("fr_caption") in [c.value for c in gpu.caption]
    assert "GPU" in scenario_line(gpu) and tr("dev_chip_one") not in scenario_line(gpu)


def test_rack_table_reads_off_searched_targets_not_interpolations():
    """The ratio table's interactivities (25, 60, 100, 125 tok/s per user) are among the targets the layout search
    runs, so a curve that reaches 125 reads 125's own best deployment there (a curve ending at the grid's 109 had
    left 125 blank though 125 was reached); RackCurve.at returns that deployment's tokens/s per GPU exactly."""
    from types import SimpleNamespace

    assert set(rack_scale.RATIO_AT) <= set(rack_scale.INTERACTIVITY.tolist())
    # deployments as the curve reads them: reached up to 125 tok/s per user, a made-up rate falling with it
    found = tuple(
        SimpleNamespace(feasible=x <= 125.0, tokens_per_s_per_user=float(x), tokens_per_s_per_gpu=1e5 / float(x) ** 1.5)
        for x in rack_scale.INTERACTIVITY
    )
    curve = rack_scale.RackCurve("gb200", "GB200", False, rack_scale.INTERACTIVITY, found, {})
    assert curve.at(125.0) == pytest.approx(1e5 / 125.0**1.5, rel=1e-12)
    assert math.isnan(curve.at(130.0))
    # the deployment that meets 125 reaches 129 (a whole batch): the table reads its rate, as the CSV row does, not
    # the curve between 119 and 129 at 125 (74.1 in the table beside 64.2 in the CSV)
    overshoot = tuple(
        SimpleNamespace(
            feasible=True, tokens_per_s_per_user=float(x) * 1.03, tokens_per_s_per_gpu=1e5 / float(x) ** 1.5
        )
        for x in rack_scale.INTERACTIVITY
    )
    curve = rack_scale.RackCurve("gb200", "GB200", False, rack_scale.INTERACTIVITY, overshoot, {})
    assert curve.at(125.0) == pytest.approx(1e5 / 125.0**1.5, rel=1e-12)


def test_rack_scale_legend_sits_below_the_plot_and_each_chip_has_its_colour():
    """The rack chart's legend (chips, projections, measured points: long names) took 35-45 % of its width beside
    the plot; it goes below, in rows, the figure taller by them."""
    at = run_page("frontier", model="deepseek-r1", weights="fp8", kv="fp8", fr_io="1k1k")
    at.session_state["frontier.rack"] = True
    at.run()
    assert not at.exception, at.exception
    fig = _fig(at, "DeepSeek-R1 · 1k/1k")
    layout = fig["layout"]
    legend = layout["legend"]  # pinned under the axis title (common.legend_placement)
    assert (legend["orientation"], legend["yref"], legend["yanchor"]) == ("h", "container", "bottom")
    assert layout["height"] > 520
    # the five chips' curves in five colours (MI455X's palette purple read as GB200's indigo)
    colours = [t["line"]["color"] for t in fig["data"] if t.get("mode") == "lines+markers"]
    assert len(colours) == 5 and len(set(colours)) == 5, colours
    # its log axis labelled in one style ('1 K' beside '10 K'; helper review: '5,000' sat beside '10 K'), not
    # Plotly's bare '2', '5' and '1000' beside '10k'
    ticks = layout["yaxis"]["ticktext"]
    assert {"1 K", "10 K"} <= set(ticks) and not {"2", "5", "10k", "1,000"} & set(ticks), ticks
    # its key names the measured points' marker only where some are drawn (4k/1k: none measured; helper review)
    notes = [a["text"].replace("<br>", " · ") for a in layout["annotations"]]  # the key on lines of a narrow plot
    measured = EN("fr_rack_measured", hw="", devices="72 GPUs")  # ' measured (within 72 GPUs)'
    assert EN("fr_rack_marker_key") in notes and any(t["name"].endswith(measured) for t in fig["data"])
    at = run_page("frontier", model="deepseek-r1", weights="fp8", kv="fp8", context="4096", output="1024")
    at.session_state["frontier.rack"] = True
    at.run()
    fig = _fig(at, "DeepSeek-R1 · 4k/1k")
    assert EN("fr_rack_marker_key_unmeasured") in [
        a["text"].replace("<br>", " · ") for a in fig["layout"]["annotations"]
    ]
    assert not any(t["name"].endswith(measured) for t in fig["data"])


def test_tokens_per_megawatt_carries_its_unit():
    """900 px review: the best layout's tokens/s per MW read '115 K' with no unit."""
    at = run_page("frontier", model="deepseek-r1", hardware="b200", gpus="8")
    assert not at.exception
    (mw,) = [m.value for m in at.metric if m.label == EN("fr_m_mw")]
    assert mw.endswith(" tok/s") and mw[0].isdigit()


def test_exported_charts_do_not_name_the_sidebar_batch():
    """Browser review: the Frontier's exports said 'batch 32' (the sidebar's) on charts that sweep the concurrency;
    the exported title states the page's scenario without a batch, and the CSV's batch column is empty."""
    from ui import chart

    at = run_page("frontier", batch="32")
    assert not at.exception, at.exception
    payloads = [json.loads(el.proto.bytes) for el in at.get("bidi_component")
                if el.proto.component_name == chart.CHART_COMPONENT and el.proto.bytes]  # fmt: skip
    titles = [p["export"]["decor"]["layout"]["title"]["text"] for p in payloads]
    assert titles and not [t for t in titles if "batch 32" in t], titles
    assert any("DeepSeek" in t or "Llama" in t for t in titles)  # the scenario is still stated


@pytest.mark.parametrize("tr", [EN, ZH])
def test_rack_tables_show_every_header(tr):
    """The rack-scale view's four tables (rates, advantage, $, the check) are static tables: every header whole and
    every column in sight, wrapping in a narrow frame (as data grids their headers had been cut to 'GI' and 'Rubin
    NVL72 (announced): $ per', and at 900 px with the sidebar open the $ table's 100 and 125 columns and the check's
    chips had scrolled out of sight; the browser test measures the frame); a missing value reads '—'."""
    at = run_page("frontier", model="deepseek-r1", weights="fp8", kv="fp8", fr_io="1k1k", lang=tr.lang)
    at.session_state["frontier.rack"] = True
    at.run()
    assert not at.exception
    frames = _rack_frames(at, tr)
    assert not [d for d in at.dataframe if d.value.columns[0] in {f.value.columns[0] for f in frames}]
    at_cols = [tr("fr_rack_col_at", x=x) for x in ("25", "60", "100", "125")]
    for frame in frames[:3]:
        cells = _cells(frame)
        assert list(cells.columns) == list(frame.value.columns) and set(at_cols) <= set(cells.columns)
        assert not cells.isna().any().any() and "None" not in cells.to_numpy() and "nan" not in cells.to_numpy()
    mi355x = _cells(frames[0]).set_index(tr("fr_rack_col_rates")).loc["MI355X"]
    assert mi355x[tr("fr_rack_col_at", x="125")] == "—"  # MI355X reaches no layout at 125 tok/s per user
    assert tr("fr_check_col_budget", gpus=72) in frames[3].value.columns and "B200" in frames[3].value.columns


def test_rack_scale_view_says_which_values_go_beyond_the_measured_recipes():
    """DeepSeek-R1 FP8 1k/1k: GB200's 25 tok/s per user value comes from a DEP32 decode pool at ~341 sequences per
    GPU, past the most any measured DEP32 run decoded (226: IX-375); the caption under the tables says so, and the
    point's hover too; B200's DEP8 value at 25 is within the recipes and is not named. zh-TW alike."""
    for tr in (EN, ZH):
        at = run_page("frontier", model="deepseek-r1", weights="fp8", kv="fp8", fr_io="1k1k", lang=tr.lang)
        at.session_state["frontier.rack"] = True
        at.run()
        assert not at.exception, at.exception
        lead = tr("fr_rack_beyond", items="").split("{")[0][:12]
        (said,) = [c.value for c in at.main.caption if c.value.startswith(lead)]
        gb200 = tr("fr_rack_beyond_item", name="GB200 NVL72", x="25", layout="DEP32", seqs="341", most="226")
        assert gb200 in said, said
        assert tr("fr_rack_beyond_item", name="B200", x="25", layout="DEP8", seqs="", most="")[:14] not in said
        fig = _fig(at, "DeepSeek-R1 · 1k/1k")
        hover = next(t for t in fig["data"] if t["name"].startswith("GB200"))["hovertext"]
        assert any("DEP32" in h and tr("fr_rack_hover_beyond", seqs="341", most="226", layout="DEP32") in h
                   for h in hover)  # fmt: skip


def test_rack_scale_view_within_the_measured_recipes_only():
    """The rack-scale view's 'within the measured recipes only' switch (fr_rack_recipes=1 in the link): GB200's 25
    tok/s per user value drops from the extrapolated DEP32 pool's to one within the recipes, nothing is left beyond
    them at 25, and the link keeps the switch."""

    def rates(q):
        at = run_page("frontier", model="deepseek-r1", weights="fp8", kv="fp8", fr_io="1k1k", fr_rack_recipes=q)
        at.session_state["frontier.rack"] = True
        at.run()
        assert not at.exception, at.exception
        (table,) = [d.value for d in at.table if d.value.columns[0] == EN("fr_rack_col_rates")]
        return at, table.set_index(table.columns[0])[EN("fr_rack_col_at", x="25")]

    free, free_25 = rates("0")
    capped, capped_25 = rates("1")
    assert capped_25["GB200 NVL72"] < free_25["GB200 NVL72"] and capped_25["B200"] == free_25["B200"]
    assert capped.query_params["fr_rack_recipes"] in ("1", ["1"]) and capped.session_state["frontier.rack_recipes"]
    beyond = [c.value for c in capped.main.caption if c.value.startswith(EN("fr_rack_beyond", items="")[:20])]
    assert not [b for b in beyond if "GB200 NVL72 at 25" in b]


@pytest.mark.parametrize("tr", [EN, ZH])
def test_rack_tables_set_the_measured_frontier_beside_the_model(tr):
    """DeepSeek-R1 FP8 1k/1k within 72 GPUs: under each chip with measured runs, its measured frontier at 25 / 60 / 100
    / 125 tok/s per user, and under each ratio the measured one. By hand, GB200 at 25 lies between IX-381 (12.09 tok/s
    per user, 8,258.7 tokens/s per GPU) and IX-363 (37.03, 5,564.9): 6,392 -> 6,390 at 3 significant figures; B200
    at 25 is IX-326's 4,231.3 (at 26.43 it meets 25) -> 4,230; their ratio 1.51 (the model, best engine, reads 1.79 there). The
    caption says how the rows are read, and the CSV names the runs each value comes from."""
    at = run_page("frontier", model="deepseek-r1", weights="fp8", kv="fp8", fr_io="1k1k", lang=tr.lang)
    at.session_state["frontier.rack"] = True
    at.run()
    assert not at.exception, at.exception
    (rates,) = [d.value for d in at.table if d.value.columns[0] == tr("fr_rack_col_rates")]
    (ratios,) = [d.value for d in at.table if d.value.columns[0] == tr("fr_rack_col_advantage")]
    at25 = tr("fr_rack_col_at", x="25")
    measured = tr("fr_rack_row_measured")  # '↳ measured': under its chip's row (and under its ratio's)

    def under(table, name: str):
        i = list(table[table.columns[0]]).index(name)
        assert table.iloc[i + 1, 0] == measured, (name, list(table[table.columns[0]]))
        return table.iloc[i + 1][at25]

    w = math.log(25 / 12.09) / math.log(37.03 / 12.09)
    gb200_25 = math.exp(math.log(8258.7) + w * math.log(5564.9 / 8258.7))
    assert (under(rates, "GB200 NVL72"), under(rates, "B200")) == (6390.0, 4230.0)
    both = tr("fr_rack_col_ratio", rack="GB200 NVL72", other="B200")
    assert under(ratios, both) == round(gb200_25 / 4231.3, 2) == 1.51
    ratios = ratios.set_index(ratios.columns[0])
    # the model's, beside: the best engine's GB200 over B200 at 25 tok/s per user
    m, hws = resolve_model("deepseek-r1"), {h: resolve_hardware(h) for h in ("gb200", "b200")}
    s = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    model = {h: lo.best_deployment(m, hw, s, lo.best_engines(hw), max_gpus=72, tpot_target_s=0.04).tokens_per_s_per_gpu
             for h, hw in hws.items()}  # fmt: skip
    assert ratios.loc[tr("fr_rack_col_ratio", rack="GB200 NVL72", other="B200"), at25] == round(
        model["gb200"] / model["b200"], 2
    )
    assert tr("fr_rack_measured_caption") in [c.value for c in at.main.caption]
    # and how far the modelled advantage sits from the measured one wherever both chips were measured (calibrate's)
    check = json.loads((ROOT / "data" / "disaggregated_check.json").read_text(encoding="utf-8"))
    said = rack_scale.ratio_check_caption(check, tr, {"deepseek-r1": "DeepSeek-R1"})
    assert said in [c.value for c in at.main.caption] and "DeepSeek-R1" in said and "NVFP4" in said
    band = check["rack_ratio"]["all"]
    assert f"{band['median_ratio']:.2f}" in said and str(band["runs"]) in said
    csv = rack_scale.rack_table([], [r for r in sc.load_serving_measurements() if r.id in ("IX-381", "IX-363")])
    row = csv[(csv.source == "measured_frontier_interpolated") & (csv.target_tok_s_per_user == 25.0)].iloc[0]
    assert row.id == "IX-381 + IX-363" and row.tok_s_per_gpu_in_plus_out == pytest.approx(gb200_25)


@pytest.mark.parametrize("tr", [EN, ZH])
def test_cost_at_target_sets_each_chips_measured_bar_beside_its_curve(tr):
    """DeepSeek-R1 FP8 1k/1k on 8 GPUs at 50 tok/s per user: after each chip's curve bar, its measured frontier's
    (hatched; the hover names the runs, the caption says how it is read); the best-layout metric stays the model's."""
    at = run_page("frontier", **DS, lang=tr.lang, fr_target="50")
    assert not at.exception, at.exception
    fig = _fig(at, tr("fr_cost_title_output", target=fmt.target(1 / 50, tr), tier=tr("fr_tier_on_demand")))
    bar = fig["data"][0]
    measured = [i for i, s in enumerate(bar["marker"]["pattern"]["shape"]) if s == "/"]
    assert measured and all(bar["x"][i].endswith(tr("fr_measured_bar", name="")) for i in measured)
    assert all(bar["x"][i - 1].split(" · ")[0] == bar["x"][i].split(" · ")[0] for i in measured)  # after its chip
    assert all("IX-" in bar["hovertext"][i] for i in measured)
    assert any(tr("fr_cost_caption")[:30] in c.value for c in at.caption)


def test_rack_view_takes_the_best_engine_unless_switched_to_the_pages():
    """The rack-scale view runs the best engine by default (the faster of SGLang and TensorRT-LLM on NVIDIA, of
    SGLang and ATOM on AMD, at each interactivity), its hover and CSV naming it; fr_rack_best_engine=0 times every
    chip under the page's engine (fr_engine), and the link keeps the switch. DeepSeek-R1 FP8 1k/1k, B200 at 25 tok/s
    per user within 72 GPUs: by hand from layouts.best_deployment."""
    m, hw = resolve_model("deepseek-r1"), resolve_hardware("b200")
    s = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    want = {
        "1": lo.best_deployment(m, hw, s, lo.best_engines(hw), max_gpus=72, tpot_target_s=0.04),
        "0": lo.best_deployment(m, hw, s, sc.load_profiles()["sglang"], max_gpus=72, tpot_target_s=0.04),
    }
    assert want["1"].engine == "tensorrt-llm" and want["0"].engine == "sglang"
    for flag, d in want.items():
        at = run_page("frontier", model="deepseek-r1", weights="fp8", kv="fp8", fr_io="1k1k", fr_engine="sglang",
                      fr_rack_best_engine=flag)  # fmt: skip
        at.session_state["frontier.rack"] = True
        at.run()
        assert not at.exception, at.exception
        assert at.toggle(key="frontier.rack_best_engine").value is (flag == "1")
        assert at.query_params["fr_rack_best_engine"] in (flag, [flag])
        (table,) = [t.value for t in at.table if t.value.columns[0] == EN("fr_rack_col_rates")]
        shown = table.set_index(table.columns[0]).loc["B200", EN("fr_rack_col_at", x="25")]
        assert shown == float(f"{d.tokens_per_s_per_gpu:.3g}")
        # the title names the engine the curves are timed under (it had not said which)
        engine = EN("fr_rack_title_best") if flag == "1" else "SGLang"
        fig = _fig(
            at, EN("fr_rack_title", model="DeepSeek-R1", io="1k/1k", precision="FP8", devices="72 GPUs", engine=engine)
        )
        b200 = next(t for t in fig["data"] if t["name"] == "B200")
        at25 = next(h for h in b200["hovertext"] if f"{d.tokens_per_s_per_user:.1f} tok/s per user" in h)
        assert {"1": "TensorRT-LLM", "0": "SGLang"}[flag] in at25
        # how far to trust the advantage: the check reads the best engine; off, the caption says the curves do not
        captions = [c.value for c in at.main.caption]
        check = json.loads((ROOT / "data" / "disaggregated_check.json").read_text(encoding="utf-8"))
        own = None if flag == "1" else "SGLang"
        assert rack_scale.ratio_check_caption(check, EN, {"deepseek-r1": "DeepSeek-R1"}, own) in captions
        assert (EN("fr_rack_ratio_check_own", engine="SGLang") in "".join(captions)) is (flag == "0")
    table = rack_scale.rack_table([rack_scale.RackCurve("b200", "B200", False, np.array([25.0]), (want["1"],), {})], [])
    assert table.engine.tolist() == ["tensorrt-llm"]


@pytest.mark.parametrize("tr", [EN, ZH])
def test_rack_title_names_a_generic_profile_by_its_short_name(tr):
    """With the best-engine switch off under the typical profile, the rack chart's title ends with 'typical engine'
    ('一般引擎'): the full name ('Typical serving engine', '一般推論服務引擎') ran the title past its chart in a 900 px
    zh-TW frame, where the browser test measures the default title."""
    at = run_page("frontier", model="deepseek-r1", weights="fp8", kv="fp8", fr_io="1k1k", fr_engine="typical",
                  fr_rack_best_engine="0", lang=tr.lang)  # fmt: skip
    at.session_state["frontier.rack"] = True
    at.run()
    assert not at.exception, at.exception
    title = _fig(at, "DeepSeek-R1 · 1k/1k")["layout"]["title"]["text"]
    assert title.endswith(" · " + tr("profile_short_typical")) and tr("profile_typical") not in title


@pytest.mark.parametrize("tr", [EN, ZH])
def test_rack_view_says_where_gb200_and_b200_run_the_same_layout(tr):
    """Browser review: at 100 and 125 tok/s per user GB200 NVL72 and B200 both run 9 x TP8 (one node each), so the
    advantage reads 1.00 and GB200's line lies under B200's, its hover out of reach. The table's caption says why,
    and B200's hover at those points names GB200's as the same point. DeepSeek-R1 FP8 1k/1k within 72 GPUs."""
    at = run_page("frontier", model="deepseek-r1", weights="fp8", kv="fp8", fr_io="1k1k", lang=tr.lang)
    at.session_state["frontier.rack"] = True
    at.run()
    assert not at.exception, at.exception
    want = tr("fr_rack_same_layout", x=tr.join(["100", "125"]), rack="GB200 NVL72", other="B200", layout="9 × TP8")
    assert want in [c.value for c in at.main.caption]
    fig = _fig(at, "DeepSeek-R1 · 1k/1k")
    b200 = next(t for t in fig["data"] if t["name"] == "B200")
    same = [h for h in b200["hovertext"] if tr("fr_rack_hover_same", name="GB200 NVL72") in h]
    assert any("9 × TP8" in h for h in same)  # and wherever else both run one layout (TP4 → TP8 pools, 94 tok/s)
    gb200 = next(t for t in fig["data"] if t["name"].startswith("GB200"))
    assert not any(tr("fr_rack_hover_same", name="GB200 NVL72") in h for h in gb200["hovertext"])


def test_a_link_with_a_chip_of_the_readers_own_file_names_only_the_catalogs_chips():
    """The page compares catalog chips: with the sidebar on a chip of the reader's own file, the default chips are
    the catalog's (the notice had said 'using custom,h200,...' while the picker held no such chip), and the page
    says why the sidebar's chip is not drawn."""
    from ui.state import encode_spec

    spec = "my-chip:\n  name: My Chip 9000\n  memory_GB: 96\n  memory_bandwidth_TB_per_s: 4.0\n" \
           "  dense_TFLOP_per_s: {bf16: 500, fp8: 1000}\n"  # fmt: skip
    at = run_page("frontier", hardware="custom", custom_hw=encode_spec(spec), fr_hw="custom")
    assert not at.exception, at.exception
    chips = at.session_state["frontier.hardware"]
    assert chips and "custom" not in chips
    warned = [w.value for w in at.warning if "fr_hw" in w.value]
    assert warned and all("custom" not in w.split("using")[-1] for w in warned), warned
    assert any(EN("fr_differs_hardware_own", sidebar="My Chip 9000").split(",")[0] in i.value for i in at.info)


def _rack_export(at) -> dict:
    payloads = [json.loads(el.proto.bytes) for el in at.get("bidi_component") if el.proto.bytes]
    return next(p["export"] for p in payloads if p["export"]["filename"].startswith("rack-scale-vs-scale-out_"))


@pytest.mark.parametrize("tr", [EN, ZH])
def test_rack_exports_say_mtp_and_measured_recipes(tr):
    """Browser review: with MTP on (GB200 at 125 tok/s per user 62.7 -> 1,057 tok/s/GPU) and the search held to the
    measured recipes, the rack chart's CSV / HTML read as without them, under the same file name: the exported caption
    says both and the file name ends in _mtp3_recipes; its CSV's scenario columns carry them."""
    at = run_page("frontier", model="deepseek-r1", weights="fp8", kv="fp8", fr_io="1k1k", fr_mtp="1",
                  fr_rack_recipes="1", lang=tr.lang)  # fmt: skip
    at.session_state["frontier.rack"] = True
    at.run()
    assert not at.exception, at.exception
    exported = _rack_export(at)
    assert exported["filename"].endswith("_mtp3_recipes")
    decor = json.dumps(exported["decor"], ensure_ascii=False)
    assert tr("export_mtp", k=3, a=fmt.pct(0.56, 0)) in decor and tr("export_recipes_only") in decor
    plain = run_page("frontier", model="deepseek-r1", weights="fp8", kv="fp8", fr_io="1k1k", lang=tr.lang)
    plain.session_state["frontier.rack"] = True
    plain.run()
    assert "mtp" not in _rack_export(plain)["filename"] and "MTP" not in json.dumps(_rack_export(plain)["decor"])


@pytest.mark.parametrize("tr", [EN, ZH])
def test_rack_view_says_which_chips_hold_the_model_with_no_layout(tr):
    """Browser review: Kimi K2 BF16 within 8 GPUs: only MI455X holds it; the others' rows read '—', explained as not
    reaching an interactivity. The view names them with the remedy, and the title says '8 GPUs'; within 1 GPU it
    says no chip holds it, in the singular ('1 GPU', not '1 GPUs')."""
    at = run_page("frontier", model="kimi-k2", weights="bf16", kv="bf16", fr_prec="bf16", fr_rack_gpus="8",
                  lang=tr.lang)  # fmt: skip
    at.session_state["frontier.rack"] = True
    at.run()
    assert not at.exception, at.exception
    warnings = [w.value for w in at.warning]
    template = tr("fr_rack_some_unfit", devices="\x00", model="\x00", chips="\x00", remedy="\x00")
    words = max(template.split("\x00"), key=len)  # its longest stretch of words between the names
    unfit = [w for w in warnings if words in w]
    assert len(unfit) == 1 and "B200" in unfit[0] and "MI455X" not in unfit[0], warnings
    assert fmt.devices("gpu", 8, tr) in unfit[0] and "Kimi K2" in unfit[0]
    one = run_page("frontier", model="kimi-k2", weights="bf16", kv="bf16", fr_prec="bf16", fr_rack_gpus="1",
                   lang=tr.lang)  # fmt: skip
    one.session_state["frontier.rack"] = True
    one.run()
    name = resolve_model("kimi-k2").name
    lead = tr("fr_rack_none_fit", devices=fmt.devices("gpu", 1, tr), model=name, remedy="").rstrip()
    (none,) = [w.value for w in one.warning if w.value.startswith(lead)]
    # and what would hold it: the smallest budget on each chip (8 on MI455X's 432 GB and on Rubin's 288 GB under
    # TensorRT-LLM's memory, as DEP8; 16 on the others), as `frontier --max-gpus 1` says it of each
    names = {h: fmt.chip(resolve_hardware(h), tr, short=True) for h in ("gb200", "b200", "mi355x", "vr200", "mi455x")}
    items = [tr("fr_rack_fit_budget_item", devices=fmt.devices("gpu", n, tr), chips=tr.join([names[h] for h in hs]))
             for n, hs in ((8, ("vr200", "mi455x")), (16, ("gb200", "b200", "mi355x")))]  # fmt: skip
    assert tr("fr_rack_fit_budget", items=tr.join(items, "clause_sep")) in none
    assert _rack_intro(tr, 1) in [c.value for c in one.main.caption] and "1 GPUs" not in _rack_intro(tr, 1)


@pytest.mark.parametrize("tr", [EN, ZH])
def test_rack_view_within_a_small_budget_says_what_would_fit_and_where_runs_were_measured(tr):
    """Browser review: DeepSeek-R1 FP8 1k/1k within 3 GPUs: the notice's remedy read only 'a larger budget' where
    `frontier --max-gpus 3` says 'needs >= 4 GPUs (--max-gpus 4)', and the chart's key 'no measured run of these
    lengths' though InferenceX ran 1k/1k on all three chips, on 4 GPUs and more. The notice names the smallest
    budget (4 GPUs: the command's figure) and the chart's key that no run is within the budget."""
    at = run_page("frontier", **DS, fr_rack_gpus="3", lang=tr.lang)
    at.session_state["frontier.rack"] = True
    at.run()
    assert not at.exception, at.exception
    chips = [fmt.chip(resolve_hardware(h), tr, short=True) for h in ("gb200", "b200", "mi355x", "vr200")]
    lead = tr("fr_rack_some_unfit", devices=fmt.devices("gpu", 3, tr), model="DeepSeek-R1", chips=tr.join(chips),
              remedy="").rstrip()  # fmt: skip
    (warning,) = [w.value for w in at.warning if w.value.startswith(lead)]
    smallest = tr("fr_rack_fit_budget_item", devices=fmt.devices("gpu", 4, tr), chips=tr.join(chips))
    assert tr("fr_rack_fit_budget", items=smallest) in warning and "a larger budget" not in warning
    hw = resolve_hardware("b200")  # the command's own figure for one of them
    s = Scenario(context_tokens=1024, output_tokens=1024, weights="fp8", kv_cache="fp8")
    assert lo.budget_no_fit(resolve_model("deepseek-r1"), hw, s, lo.best_engines(hw), 3).min_gpus == 4
    fig = _fig(at, "DeepSeek-R1 · 1k/1k")
    (key,) = [a["text"].replace("<br>", " · ") for a in fig["layout"]["annotations"] if "★" in a["text"]]
    assert key == tr("fr_rack_marker_key_beyond", devices=fmt.devices("gpu", 3, tr), fewest=fmt.devices("gpu", 4, tr))


@pytest.mark.parametrize("tr", [EN, ZH])
def test_rack_view_says_which_measured_points_the_fit_used(tr):
    """Browser review: the note under the rack view's tables said no measured point was in the engine profiles' fit,
    beside B200's and MI355X's single-node runs the main chart's hover calls 'used in the fit and the check'
    (DeepSeek-R1 FP8 1k/1k within 72 GPUs): it counts them per chip, and each such point's hover in both charts
    says the same."""
    at = run_page("frontier", **DS, lang=tr.lang)
    at.session_state["frontier.rack"] = True
    at.run()
    assert not at.exception, at.exception
    drawn = [r for r in sc.load_serving_measurements() if r.id in ("IX-019", "IX-023", "IX-233")]
    assert all(r.fitted for r in drawn)
    rack_fig = _fig(at, "DeepSeek-R1 · 1k/1k")
    rack_hover = {h.split(" · ")[1]: h for t in rack_fig["data"] if t.get("mode") == "markers"
                  for h in t.get("hovertext") or []}  # fmt: skip
    uses = (tr("fr_use_fit"), tr("fr_use_display"))  # the main chart's measured points (not the LOHO check's)
    main_hover = {re.search(r"IX-\d+", h).group(0): h for f in figures(at) if f is not rack_fig for t in f["data"]
                  for h in t.get("hovertext") or [] if isinstance(h, str) and h.endswith(uses)}  # fmt: skip
    for r in drawn:
        assert tr("fr_use_fit") in rack_hover[r.label] and tr("fr_use_fit") in main_hover[r.id], r.id
    notes = " ".join(c.value for c in at.main.caption)
    assert "not in the engine profiles' fit" not in notes and "實測點不在" not in notes
    per_chip = {}
    for h in rack_hover.values():
        chip = h.split(" · ")[0]
        n, runs = per_chip.get(chip, (0, 0))
        per_chip[chip] = (n + h.endswith(tr("fr_use_fit")), runs + 1)
    items = [tr("fr_rack_fit_item", name=chip, n=n, runs=runs) for chip, (n, runs) in per_chip.items() if n]
    assert [c for c in per_chip if per_chip[c][0]] == ["B200", "MI355X"]
    assert tr("fr_rack_measured_fit", items=tr.join(items), use=tr("fr_use_fit")) in notes


def test_single_chart_view_lists_the_rack_chart_among_the_pages_charts():
    """Browser review: &only=rack-scale (a wrong id) listed the page's other charts but not rack-scale-vs-scale-out,
    drawn in a section closed by default: the notice names it too."""
    at = run_page("frontier", embedded=True, only="rack-scale")
    assert not at.exception
    (warning,) = [w.value for w in at.warning if "rack-scale" in w.value]
    assert "rack-scale-vs-scale-out" in warning and "serving-frontier" in warning


def test_rack_cost_table_follows_the_pages_price_basis_and_own_price():
    """Browser review: the rack $ table read the sidebar's basis, not the page's '$ per GPU-hour' choice, and left out
    3-year rental: the page's basis first (its own price too: 'Your own' at $3.00/GPU-hour), then every published
    basis."""
    at = run_page("frontier", model="deepseek-r1", weights="fp8", kv="fp8", fr_io="1k1k", fr_tier="custom",
                  fr_usd="3")  # fmt: skip
    at.session_state["frontier.rack"] = True
    at.run()
    assert not at.exception, at.exception
    (frame,) = [d for d in at.table if d.value.columns[0] == EN("fr_rack_col_usd")]
    costs = frame.value
    # each row names its chip and price basis (a static table: no column scrolls away from them at 900 px)
    assert list(_cells(frame).columns[:2]) == [EN("fr_rack_col_usd"), EN("fr_rack_col_basis")]
    gb200 = costs[costs[EN("fr_rack_col_usd")] == "GB200 NVL72"]
    own = EN("fr_rack_basis_own", usd="$3.00")  # the page's own price, said (browser re-review)
    want = [own, *(EN(f"fr_tier_short_{b}") for b in ("on_demand", "neocloud", "hyperscaler", "rental_3yr"))]
    assert list(gb200[EN("fr_rack_col_basis")]) == want
    # $3.00 against the catalog's $4.54 on demand: the dollars scale with the price, 3 significant figures each
    col = EN("fr_rack_col_at", x="25")
    own, on_demand = (float(v[1:]) for v in gb200[col].iloc[:2])
    assert own == pytest.approx(on_demand * 3.0 / 4.54, rel=0.01)


@pytest.mark.parametrize("tr", [EN, ZH])
def test_rack_view_with_mtp_says_why_memory_decides(tr):
    """Browser re-review: MTP on with the default model (Llama 3.1 70B) crashed the rest of the page: the reason
    'fewer_sequences' (layouts.memory_reason) had no string (it was named fr_rack_memory_fewer). The view runs, and
    every reason memory_reason gives has its words. (MTP now needs the model's own module: GLM-4.5, which ships one,
    gives the same reason, at 8K / 1K since TensorRT-LLM's KV cache takes its share of the free memory.)"""
    at = run_page("frontier", model="glm-4.5", fr_mtp="1", fr_io="8k1k", lang=tr.lang)
    at.session_state["frontier.rack"] = True
    at.run()
    assert not at.exception, at.exception
    said = [i.value for i in at.info]
    blanks = dict.fromkeys(("x", "winner", "other", "layout", "n", "b"), "\0")
    words = max(tr("fr_rack_memory_fewer_sequences", **blanks).split("\0"), key=len)
    assert any(words in s for s in said), said
    for kind in ("does_not_fit", "fewer_sequences"):
        assert tr.has(f"fr_rack_memory_{kind}")


@pytest.mark.parametrize("tr", [EN, ZH])
def test_rack_view_reads_the_pages_own_target_between_its_columns(tr):
    """Helper review: the rack-scale tables read off at 25 / 60 / 100 / 125 tok/s per user, and an analyst's own 50
    had to be read off the chart. At fr_target=50 a caption gives each chip's tokens/s per GPU there (between its 60
    and 25 columns: the curve falls as interactivity rises) and the rack-scale advantage; at 60, a column, none."""
    q = dict(model="deepseek-r1", weights="fp8", kv="fp8", fr_io="1k1k", lang=tr.lang)
    at = run_page("frontier", fr_target="50", **q)
    at.session_state["frontier.rack"] = True
    at.run()
    assert not at.exception, at.exception
    lead = tr("fr_rack_at_target", target="50", rates="\0").split("\0")[0]
    (said,) = [c.value for c in at.main.caption if c.value.startswith(lead)]
    assert ("input + output" if tr.lang == "en" else "輸入 + 輸出") in said  # the tables' tokens, said (a review)
    rates = _rack_frames(at, tr)[0].value.set_index(tr("fr_rack_col_rates"))
    at25, at60 = tr("fr_rack_col_at", x="25"), tr("fr_rack_col_at", x="60")
    for chip in ("GB200 NVL72", "B200", "MI355X"):
        item = tr("fr_rack_at_item", name=chip, rate="\0").split("\0")
        m = re.search(re.escape(item[0]) + r"([\d,]+)" + re.escape(item[1]), said)
        assert m, (chip, said)
        v = float(m.group(1).replace(",", ""))
        assert rates.loc[chip, at60] <= v <= rates.loc[chip, at25], (chip, v)
    # the best deployment that meets 50 tok/s per user, as `frontier --max-gpus 72 --interactivity 50` and the Planner
    # give it (a browser review: read off between searched points, B200's had been interpolated, 2 % above any layout)
    b200 = resolve_hardware("b200")
    s = Scenario(weights="fp8", kv_cache="fp8", context_tokens=1024, output_tokens=1024)
    best = lo.choose(
        lo.engine_tables(resolve_model("deepseek-r1"), b200, s, lo.best_engines(b200), max_gpus=72), 1 / 50
    )
    item = tr("fr_rack_at_item", name="B200", rate="\0").split("\0")
    shown = re.search(re.escape(item[0]) + r"([\d,]+)" + re.escape(item[1]), said).group(1)
    assert shown == f"{float(rack_scale.round_significant(np.array(best.tokens_per_s_per_gpu))):,.0f}"
    assert tr("fr_rack_at_ratios", ratios="\0").split("\0")[0] in said
    at = run_page("frontier", fr_target="60", **q)
    at.session_state["frontier.rack"] = True
    at.run()
    assert not [c.value for c in at.main.caption if c.value.startswith(lead.replace("50", "60"))]


def test_frontier_says_when_its_lengths_run_past_the_models_window():
    """Browser review: DeepSeek-R1 at a 1M prompt and 32K output drew its curves with no caveat, where the Planner
    says the numbers extrapolate past the model's 163,840-token window."""
    at = run_page("frontier", model="deepseek-r1", context="1048576", output="32768")
    said = EN("context_over_max", tokens=f"{1048576 + 32768:,}", model="DeepSeek-R1", max="163,840")
    assert not at.exception and said in [w.value for w in at.warning]
    assert said not in [w.value for w in run_page("frontier", model="deepseek-r1").warning]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_cheapest_counts_a_chip_that_beats_the_target_at_the_most_requests_that_fit(lang):
    """A helper review: at 20 tok/s/user (Llama-3.1-70B FP8, 2 GPUs, 4K/1K) B200's curve stopped at the sweep's 128
    requests (21.1 tok/s/user) where 158 fit; its bar read 'n/a' and the page named H200 ($1.98) cheapest, where the
    Planner serves B200 at $1.22. The curve ends at the most that fit, so B200 is read off it at 20; at 15, below that
    end (17.8), memory sets its batch: its bar is its last point, and a caption says so."""
    tr = Translator(lang)
    q = dict(model="llama-3.1-70b", hardware="h200", gpus="2", weights="fp8", kv="bf16", batch="32", context="4096",
             output="1024")  # fmt: skip
    tier = tr("fr_tier_on_demand")
    caption = tr("fr_best_last_memory", name="B200 · FP8 · TP", n="@", x="@").split("@")[0]
    for target, limited in (("20", False), ("15", True)):
        at = run_page("frontier", lang=lang, fr_target=target, **q)
        assert tr("fr_best", target=target, name="B200 · FP8 · TP", tier=tier) in [m.value for m in at.markdown]
        said = [c.value for c in at.caption if c.value.startswith(caption)]
        assert len(said) == limited and (not limited or ("158" in said[0] and "17.8" in said[0])), said
        cost = _fig(at, tr("fr_cost_title_output", target=fmt.target(1 / float(target), tr), tier=tier)[:10])
        bars = dict(zip(cost["data"][0]["x"], cost["data"][0]["text"], strict=True))
        assert bars["B200 · FP8 · TP"] == fmt.usd(min(float(v) for v in decode(cost["data"][0]["y"]) if v is not None))


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_sidebar_batch_sentence_and_mw_help_name_their_tokens(lang):
    """A helper review: with the total (input + output) axis the sentence read '2,480 tok/s per GPU' and the MW
    metric's help 'tok/s per GPU', as bare as the output axis's: each names the axis's tokens."""
    tr = Translator(lang)
    for y in ("output", "total"):
        at = run_page("frontier", lang=lang, model="llama-3.1-70b", hardware="h200", gpus="2", weights="fp8",
                      batch="32", context="4096", output="1024", fr_y=y)  # fmt: skip
        tokens = tr(f"fr_tokens_{y}", rate="").strip()
        said = [m.value for m in at.markdown if m.value.startswith(tr("fr_marked_text")[:4])]
        assert len(said) == 1 and tokens in said[0], said
        (mw,) = [m for m in at.metric if m.label == tr("fr_m_mw")]
        assert tokens in mw.proto.help


def test_the_link_to_the_measured_model_opens_on_measured_chips():
    """A helper review: on a TPU the link 'open this page with DeepSeek-R1 on 8 GPUs' kept hardware=tpu7x (and its
    drawn chips), with no run of it to show; it opens on measured GPUs, and keeps a measured sidebar chip."""
    at = run_page("frontier", model="qwen3-235b-a22b", hardware="tpu7x", gpus="4", fr_hw="tpu7x")
    (said,) = [
        i.value for i in at.info if EN("fr_no_measured_model", model="@", query="@").split("@")[1][:20] in i.value
    ]
    query = re.search(r"\(frontier\?([^)]*)\)", said).group(1)
    assert "hardware=h200" in query and "fr_hw=h200%2Cb200%2Cmi355x" in query and "tpu7x" not in query
    at = run_page("frontier", model="qwen3-235b-a22b", hardware="b200")
    (said,) = [i.value for i in at.info if "(frontier?" in i.value]
    assert "hardware=b200" in said and "fr_hw=" not in said


def test_the_pool_corrections_size_is_one_figure_in_both_captions():
    """A review read 'non-attention time up to 59% longer' in one caption and 'the rest of it up to 57% longer' in
    the next: the first gave the largest engine's term, the second the common fit's. Under the best engine the trust
    caption gives the span of the engines' terms (and the common ones), whose top is the first caption's; under one
    engine, both give that engine's own."""
    from tpot_model.pool_correction import largest_decode_a

    check = json.loads((ROOT / "data" / "disaggregated_check.json").read_text(encoding="utf-8"))
    names = {"deepseek-r1": "DeepSeek-R1"}
    terms = [check["fit"], *check["decode_fit_by_engine"].values()]
    lo, hi = (fmt.pct(f(t["decode_a"] for t in terms), 0) for f in (min, max))
    assert lo != hi and hi == fmt.pct(largest_decode_a(), 0)
    assert f"the rest of it up to {lo}–{hi} longer" in rack_scale.check_caption(check, EN, None, names)
    for engine in check["decode_fit_by_engine"]:
        own = fmt.pct(largest_decode_a(engine), 0)
        assert own == fmt.pct(check["decode_fit_by_engine"][engine]["decode_a"], 0)
        assert f"the rest of it up to {own} longer" in rack_scale.check_caption(check, EN, engine, names)


@pytest.mark.parametrize("tr", [EN, ZH])
def test_rack_view_says_its_tables_carry_the_pool_correction_the_curves_above_do_not(tr):
    """DeepSeek-R1 FP8 on GB200 at 25 tok/s/user: the cost bars above read 4,316 tok/s per GPU on 8 GPUs, the rack
    table 2,930 for the same chip, GPUs and target (a review): the tables come from the layout search, which applies
    the pool correction; the caption says so, with the correction's largest term. A dense model: no such caption."""
    from tpot_model.pool_correction import largest_decode_a

    said = tr("fr_rack_pool_caption", a=fmt.pct(largest_decode_a(), 0))
    for model, shown in (("deepseek-r1", True), ("llama-3.1-70b", False)):
        at = run_page("frontier", model=model, hardware="gb200", gpus="8", weights="fp8", kv="fp8", fr_io="1k1k",
                      lang=tr.lang)  # fmt: skip
        at.session_state["frontier.rack"] = True
        at.run()
        assert not at.exception, at.exception
        assert (said in [c.value for c in at.main.caption]) is shown, model
    check = json.loads((Path(lo.__file__).parents[1] / "data" / "disaggregated_check.json").read_text())
    terms = [check["fit"]["decode_a"], *(f["decode_a"] for f in check["decode_fit_by_engine"].values())]
    assert largest_decode_a() == max(terms) > 0  # the most any engine's correction lengthens the step


@pytest.mark.parametrize("tr", [EN, ZH])
def test_a_sidebar_format_the_page_has_no_column_for_is_said_to_be_replaced(tr):
    """INT4 in the sidebar: the curves are the FP4 column's, NVFP4 on H200 (unpacked to BF16 math), and the marked
    point's TPOT (37.3 ms) sat above a caption timing the sidebar's own INT4 (36.6 ms) with nothing saying why (a
    review). The page says which format runs in the sidebar's place; NVFP4 on MI355X runs MXFP4, AMD's; FP8 and a
    16-bit format the page runs as it is say nothing."""
    for weights, hw, runs in (("int4", "h200", "nvfp4"), ("nvfp4", "mi355x", "mxfp4"), ("fp8", "h200", None),
                              ("fp16", "h200", None)):  # fmt: skip
        at = run_page("frontier", model="llama-3.1-70b", hardware=hw, gpus="2", weights=weights, lang=tr.lang)
        assert not at.exception, at.exception
        said = [i.value for i in at.info if i.value.startswith(tr("fr_differs", what="").split("{")[0][:6])]
        if runs is None:
            assert not said, weights
        else:
            label = "FP4"
            assert said == [tr("fr_differs", what=tr("fr_differs_format", label=label, runs=runs, sidebar=weights))]


@pytest.mark.parametrize("tr", [EN, ZH])
def test_the_batching_note_names_the_curves_tpot_where_the_page_runs_other_requests(tr):
    """A browser review: at fr_io=1k1k the note under the chart worked through the sidebar's 4K / 1K scenario (Overview's
    static TPOT and its continuous one) while the line above it gave the curves' 1k/1k TPOT: three TPOTs, one unnamed.
    The note now says the curves use the page's requests and gives their TPOT at the sidebar's batch."""
    q = dict(model="deepseek-r1", hardware="gb200", gpus="8", weights="fp8", kv="fp8", lang=tr.lang)
    at = run_page("frontier", fr_io="1k1k", **q)
    assert not at.exception, at.exception
    lead = tr("fr_batching_io", io="\0", name="\0", b="\0", tpot="\0").split("\0")[0]
    (note,) = [c.value for c in at.main.caption if lead in c.value]
    marked = next(m.value for m in at.main.markdown if "32" in m.value and " ms" in m.value)
    tpot = re.search(r"[\d.]+\s?ms", note.split(lead)[1]).group(0)
    assert tpot in marked  # the same figure as the line above
    same = run_page("frontier", fr_io="sidebar", **q)
    assert not any(lead in c.value for c in same.main.caption)


@pytest.mark.parametrize("tr", [EN, ZH])
def test_a_curve_hidden_under_another_is_said(tr):
    """A browser review: DeepSeek-R1 FP8 with GB200 in the sidebar listed 'B200 · FP8 · TP' in the legend, its line
    exactly under GB200 NVL72's (15.8 against 15.9 tok/s per GPU): the same GPU inside a domain of 8. Said under the
    chart; a curve apart from every other is not."""
    from ui.figures import frontier as figs

    at = run_page("frontier", model="deepseek-r1", hardware="gb200", gpus="8", weights="fp8", kv="fp8", lang=tr.lang)
    assert not at.exception, at.exception
    lead = tr("fr_coincide", hidden="\0", top="\0", pct="\0").split("\0")[2][:8]  # "'s: the two" / 的曲線蓋住
    (said,) = [c.value for c in at.caption if lead in c.value]
    assert (
        tr("fr_coincide", hidden="B200 · FP8 · TP", top="GB200 NVL72 · FP8 · TP", pct=fmt.pct(figs.COINCIDE, 0)) in said
    )
    at = run_page("frontier", model="llama-3.1-70b", hardware="h200", gpus="2", weights="fp8", lang=tr.lang)
    assert not [c.value for c in at.caption if lead in c.value]  # H200, B200, MI355X apart: nothing said


def test_a_no_fit_warning_names_its_own_chips_device():
    """DeepSeek-R1 FP8 on one device with Trainium3 in the sidebar: the page's neutral word is 'chips', but each
    no-fit warning speaks of its own chip (a review: 'H200 SXM 141GB · FP8 · TP does not fit ... (chips per
    instance: 1): it needs at least 8 chips'); Trainium3's own warning, if any, keeps 'chips'."""
    at = run_page("frontier", model="deepseek-r1", hardware="trainium3", gpus="1", weights="fp8")
    assert not at.exception, at.exception
    said = [w.value for w in at.warning if "does not fit in memory at any concurrency" in w.value]
    h200 = [w for w in said if w.startswith("H200")]
    assert h200 and "(GPUs per instance: 1)" in h200[0] and "GPUs (set GPUs in the sidebar)" in h200[0], said
    assert all("chips" not in w for w in said if not w.startswith("Trainium"))


@pytest.mark.parametrize("tr", [EN, ZH])
def test_the_line_under_the_chart_and_the_note_under_it_speak_of_one_chip(tr):
    """A review: with Rubin NVL72 listed first and GB200 in the sidebar (DeepSeek-R1 FP4, 8k/1k, batch 64), the line
    under the chart described Rubin NVL72 (12.9 ms) and the note under it, 'Why this TPOT is not Overview's', GB200
    (18.4 ms becoming 22.6 ms). The line now reads the sidebar's chip's curve, whose TPOT is the note's continuous one;
    with the sidebar's chip not drawn, the note says which chip each is about."""
    from tpot_model import estimate, resolve_profile

    q = dict(model="deepseek-r1", hardware="gb200", gpus="8", weights="fp4", kv="fp8", batch="64", context="8192",
             output="1024", price_basis="hyperscaler", fr_io="8k1k", lang=tr.lang)  # fmt: skip
    at = run_page("frontier", fr_hw="vr200,mi455x,tpu-8i,trainium3,b200,gb200,mi355x,h200", **q)
    assert not at.exception, at.exception
    lead_md = tr("fr_marked_text", requests="\0", name="\0", tpot="\0", user="\0", gpu="\0", ttft="\0").split("\0")[0]
    (line,) = [m.value for m in at.main.markdown if m.value.startswith(lead_md)]
    (note,) = [c.value for c in at.main.caption if tr("fr_batching_lead") in c.value]
    assert "GB200 NVL72 · FP4 · TP" in line and "Rubin" not in line
    s = Scenario(batch=64, context_tokens=8192, output_tokens=1024, num_gpus=8, weights="fp4", kv_cache="fp8",
                 batching="continuous")  # fmt: skip
    tpot = fmt.ms(float(estimate(resolve_model("deepseek-r1"), resolve_hardware("gb200"), s,
                                 resolve_profile("typical")).tpot_s), tr=tr)  # fmt: skip
    assert tpot.startswith("22.6") and f"TPOT {tpot}" in line and f"**{tpot}**" in note  # one figure, said twice
    # the sidebar's chip not drawn: the line reads the first curve, and the note says so before its own chip's
    at = run_page("frontier", fr_hw="vr200,mi455x", **q)
    (line,) = [m.value for m in at.main.markdown if m.value.startswith(lead_md)]
    rubin = f"{fmt.chip(resolve_hardware('vr200'), tr, short=True)} · FP4 · TP"
    gb200 = f"{fmt.chip(resolve_hardware('gb200'), tr)} · FP4"
    assert rubin in line
    said = tr("fr_batching_lead_other", curve=rubin, chip=gb200)
    (note,) = [c.value for c in at.main.caption if said in c.value]
    assert note.startswith(said) and tr("fr_batching_lead") not in note
    # the sidebar's chip drawn only in another precision (FP8 in the sidebar, FP4 curves): not its curve, said so (a
    # code review: GB200's FP4 TPOT had been quoted above the note on the sidebar's FP8)
    at = run_page("frontier", fr_hw="gb200,b200", fr_prec="fp4", **(q | {"weights": "fp8"}))
    (line,) = [m.value for m in at.main.markdown if m.value.startswith(lead_md)]
    first = f"{fmt.chip(resolve_hardware('gb200'), tr, short=True)} · FP4 · TP"
    said = tr("fr_batching_lead_other", curve=first, chip=f"{fmt.chip(resolve_hardware('gb200'), tr)} · FP8")
    assert first in line and [c.value for c in at.main.caption if c.value.startswith(said)]


@pytest.mark.parametrize("tr", [EN, ZH])
def test_the_cost_caption_says_which_planner_mode_its_bars_agree_with(tr):
    """A review: Llama-3.1-70B FP8 (FP8 cache), 1k/1k, 20 tok/s per user, Hyperscaler TCO, 2 GPUs: the cost bars read
    B200 $0.097, MI355X $0.133, H200 $0.141 where the Planner's grid by default read $0.084 / $0.114 / $0.132, and the
    caption said the Planner 'can differ by a percent or so'. That holds for its grid on the sidebar's GPUs; by
    default it searches the GPU count up to the domain and comes out cheaper. Both numbers computed, by both pages."""
    q = dict(model="llama-3.1-70b", hardware="h200", gpus="2", weights="fp8", kv="fp8", context="1024", output="1024",
             price_basis="hyperscaler", lang=tr.lang)  # fmt: skip
    at = run_page("frontier", **q)
    assert not at.exception, at.exception
    bar = _fig(at, tr("fr_cost_title_output", target=fmt.target(1 / 20, tr), tier="\0").split("\0")[0])["data"][0]
    chips = {"H200 SXM": "h200", "B200": "b200", "MI355X": "mi355x"}
    bars = {chips[x.split(" · ")[0].removesuffix(" 141GB")]: float(v)
            for x, v, p in zip(bar["x"], decode(bar["y"]), bar["marker"]["pattern"]["shape"], strict=True)
            if p == ""}  # fmt: skip  # the curves' bars, not the measured ones
    said = tr("fr_cost_caption", tab=tr("pl_tab_hardware"), gpus=tr("pl_table_gpus"),
              cheapest=tr("pl_table_gpus_cheapest"), same=tr("pl_table_gpus_sidebar", n=2))  # fmt: skip
    assert said in [c.value for c in at.caption]

    def grid(at) -> dict[str, float]:  # the Planner's FP8 column, $ per 1M output tokens (coloured on log10)
        (heat,) = [t for f in figures(at) for t in f["data"] if t.get("type") == "heatmap"]
        z = 10 ** decode(heat["z"]).reshape(len(heat["y"]), len(heat["x"]))
        names = {fmt.chip_short(resolve_hardware(h)): h for h in chips.values()}
        col = heat["x"].index(tr("pl_prec_fp8"))
        return {names[n]: float(z[i, col]) for i, n in enumerate(heat["y"]) if n in names}

    planner = run_page("planner", planner_section="hardware", **q)
    cheapest = grid(planner)
    planner.radio(key="planner.table_gpus").set_value("sidebar").run()
    same_gpus = grid(planner)
    assert set(bars) == set(cheapest) == set(same_gpus) == set(chips.values())
    for h, usd in bars.items():
        assert same_gpus[h] == pytest.approx(usd, rel=0.01)  # within about a percent: the batch solved for
    assert bars["b200"] == pytest.approx(0.097, abs=0.001)
    assert all(cheapest[h] < 0.95 * bars[h] for h in bars)  # the count searched too: cheaper, here by 6-14%


@pytest.mark.parametrize("tr", [EN, ZH])
def test_a_chip_with_no_fp4_math_is_said_to_run_it_at_another_precision(tr):
    """A review: DeepSeek-R1 8k/1k in FP4 drew and priced 'H200 SXM 141GB · FP4 · TP' with no word that Hopper has no
    FP4 math (the CLI: 'bf16 (fp4 requested; ... has no fp4 rate)'; Overview: a notice). Under the chart a sentence
    names the chips that run it at another precision (Estimate.compute_precision), and each such curve's hover says
    it; GB200 and MI355X, which have FP4 rates, are not named."""
    from tpot_model import estimate

    h200 = resolve_hardware("h200")
    e = estimate(resolve_model("deepseek-r1"), h200, Scenario(weights="fp4", num_gpus=8))
    assert (e.scenario.compute_requested, e.compute_precision, e.compute_fallback) == ("fp4", "bf16", ("fp4", "bf16"))
    at = run_page("frontier", model="deepseek-r1", hardware="gb200", gpus="8", weights="fp4", kv="fp8",
                  fr_io="8k1k", fr_hw="gb200,h200,mi355x", lang=tr.lang)  # fmt: skip
    assert not at.exception, at.exception
    said = tr("compute_fallback", requested="FP4", used="BF16", chips=fmt.chip(h200, tr, short=True))
    assert any(said in p for p in _paragraphs(at))
    one = tr("compute_fallback_one", requested="FP4", used="BF16")
    for t in _fig(at, "DeepSeek-R1")["data"]:
        if t.get("hovertext") and " · FP4 · TP" in t["name"]:
            assert all((one in h) == t["name"].startswith("H200") for h in t["hovertext"]), t["name"]
    from ui.figures import frontier as figs

    one_point = figs.make_series(h200, "fp4", "nvfp4", "tp", [1.0], 0.01, 0.1, 1.0, 2.0, True, est=e)
    assert list(figs.frontier_table([one_point], [])["compute_precision"]) == ["bf16"]  # the CSV's column
    # in FP8, which the H200 runs natively: nothing said
    fp8 = run_page("frontier", model="deepseek-r1", hardware="gb200", gpus="8", weights="fp8", kv="fp8",
                   fr_io="8k1k", fr_hw="gb200,h200,mi355x", lang=tr.lang)  # fmt: skip
    lead = tr("compute_fallback", requested="\0", used="\0", chips="\0").split("\0")[1]
    assert not any(lead in p for p in _paragraphs(fp8))


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_curve_no_gpu_count_holds_says_why_and_what_would(lang):
    """DeepSeek-R1 at a 1M-token prompt on H100s (fp8 weights, bf16 KV cache): under tensor parallelism every GPU
    keeps MLA's whole latent cache, so no GPU count holds even one request; the curve's no-fit warning had said only
    'no power-of-two GPU count up to 1,024 holds it': it now says why and what would (an FP8 KV cache on 32 GPUs), as
    the Hardware page and the CLI say it (estimate.no_gpu_count)."""
    from tpot_model import Scenario, estimate, resolve_hardware, resolve_model, resolve_profile
    from tpot_model.estimate import no_gpu_count
    from ui import notices

    tr = Translator(lang)
    at = run_page("frontier", lang=lang, model="deepseek-r1", hardware="h100-sxm", gpus="8", weights="fp8", kv="bf16",
                  context="1048576", output="1024", fr_io="custom", fr_hw="h100-sxm", fr_prec="fp8", fr_layout="tp")  # fmt: skip
    assert not at.exception, at.exception
    one = estimate(resolve_model("deepseek-r1"), resolve_hardware("h100-sxm"),
                   Scenario(batch=1, context_tokens=1048576, output_tokens=1024, num_gpus=8, weights="fp8",
                            kv_cache="bf16", batching="continuous"), resolve_profile("typical"))  # fmt: skip
    none = no_gpu_count(one)
    assert none is not None and none.cache_ways == 1 and none.kv_cache.name == "fp8" and none.kv_gpus == 32
    why = notices.no_gpu_count_text([one], tr)
    (said,) = [w.value for w in at.warning if tr("remedy_none") in w.value]
    assert said.endswith(why) and said == tr.sentences([said.removesuffix(why).rstrip(), why]) and "32" in why


@pytest.mark.parametrize("tr", [EN, ZH])
def test_the_price_caption_points_to_the_pages_own_basis_and_price(tr):
    """The caption under the cost chart had sent the reader to the sidebar ('choose Neocloud TCO ... in the sidebar',
    'select one as the sidebar's chip to enter your own $/GPU-hour'), though the price basis and one's own $/GPU-hour
    are this page's controls, above it, and the own price prices every chip drawn: it now names them (basis_caption's
    `where` and `own`). Rubin (the sidebar's, no basis prices it) and MI355X (no on-demand price) are drawn."""
    at = run_page("frontier", lang=tr.lang, hardware="vr200", price_basis="on_demand")
    assert not at.exception, at.exception
    marked = fmt.chip(resolve_hardware("vr200"), tr)
    where = tr("fr_basis_where", tier=tr("fr_tier"))
    bases = fmt.alternatives([tr(f"basis_{b}") for b in ("neocloud", "hyperscaler", "rental_3yr")], tr)
    said = [
        tr("cost_basis_unpriced", hws="AMD Instinct MI355X", bases=bases, where=where),
        tr("cost_basis_unpriced_nowhere", hws=marked, own=tr("fr_own_price_all", custom=tr("fr_tier_custom"),
                                                               tier=tr("fr_tier"), usd=tr("fr_usd"))),
    ]  # fmt: skip
    (caption,) = [c.value for c in at.caption if c.value.startswith(tr("cost_basis_many", note="\0").split("\0")[0])]
    assert caption.endswith(tr.sentences(said)), caption
    assert tr("basis_where_sidebar") not in caption and tr("own_price_select") not in caption
    assert "“$ per GPU-hour” above" in caption if tr is EN else "上方的「每 GPU 小時價格」" in caption
