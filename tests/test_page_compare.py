"""Compare page through the app (AppTest): A (sidebar) vs B (and C) defined on the page, deltas, charts, URL, zh-TW."""

from __future__ import annotations

import math
import re
from dataclasses import replace

import numpy as np
import pytest

from tests.apptest_util import decode, figures, run_page
from ui import fmt
from ui.i18n import EN, Translator
from ui.notices import control_name

ZH = Translator("zh-TW")
NBSP = "\u00a0"


def _table(at, *, raw: bool = False):
    """The headline table's cells; unless `raw`, their non-breaking spaces (number and unit) read as spaces."""
    (df,) = [d.value for d in at.table]
    return df if raw else df.replace(NBSP, " ", regex=True)


def _fig(at, title_key: str, tr=EN) -> dict:
    (fig,) = [f for f in figures(at) if f["layout"]["title"]["text"] == tr(title_key)]
    return fig


def test_renders_with_defaults_b_is_mi300x_in_as_formats_sized_to_fit():
    """B's default is the MI300X at A's formats (issue 19: it was BF16 against A's FP8, a precision gap read as a
    chip gap); a changed A format carries over, an own format stays."""
    at = run_page("compare")
    assert not at.exception, at.exception
    assert not at.error
    df = _table(at)
    assert list(df.columns) == ["A", "B", EN("cmp_delta_col", x="B")]
    assert df.loc[EN("cmp_row_hardware"), "B"] == "AMD Instinct MI300X"
    assert df.loc[EN("cmp_row_formats"), "A"] == df.loc[EN("cmp_row_formats"), "B"] == "fp8 / bf16"
    assert "b_weights" not in at.query_params and "b_kv" not in at.query_params  # same as A: not in the link
    at.sidebar.selectbox(key="kv").set_value("fp8").run()
    assert _table(at).loc[EN("cmp_row_formats"), "B"] == "fp8 / fp8"
    at.selectbox(key="compare.b.weights").set_value("bf16").run()
    assert _table(at).loc[EN("cmp_row_formats"), "B"] == "bf16 / fp8" and at.query_params["b_weights"] == "bf16"
    assert df.loc[EN("cmp_row_fits"), "B"] == "✓"
    gpus_b = int(df.loc[EN("cmp_row_gpus"), "B"])
    assert gpus_b == int(df.loc[EN("cmp_row_min_gpus"), "B"])  # auto: the fewest that fit
    assert at.query_params["b_hardware"] == "mi300x"
    assert len(figures(run_page("compare"))) == 2


def test_deltas_are_signed_and_coloured():
    at = run_page("compare")
    df = _table(at)
    delta = df.loc[EN("cmp_row_tpot"), EN("cmp_delta_col", x="B")]
    a_ms = float(df.loc[EN("cmp_row_tpot"), "A"].split()[0])
    b_ms = float(df.loc[EN("cmp_row_tpot"), "B"].split()[0])
    assert delta.startswith("+" if b_ms > a_ms else "−") and delta.endswith("%)")


def test_h200_fp8_vs_mi300x_bf16_decomposition_and_curves():
    at = run_page("compare", hardware="h200", weights="fp8", gpus="1", batch="16")
    assert not at.exception
    decomp = _fig(at, "cmp_decomp_title")
    assert [t["name"].split(" · ")[0] for t in decomp["data"]] == ["A", "B"]
    # the bars of each scenario sum to its TPOT (in the legend)
    for trace in decomp["data"]:
        tpot = float(trace["name"].rsplit("TPOT ", 1)[1].split()[0])
        assert decode(trace["y"]).sum() == pytest.approx(tpot, abs=0.06)
    sweep = _fig(at, "cmp_sweep_title")
    assert sweep["layout"]["xaxis"]["type"] == "log"
    assert sweep["layout"]["xaxis"]["title"]["text"] == EN("axis_batch")
    dashed = [t for t in sweep["data"] if t.get("line", {}).get("dash") == "dash"]
    assert dashed  # at batch 4096 neither holds the KV cache: dashed
    assert EN("cmp_no_fit_trace", x="A") in [t["name"] for t in dashed]


def test_b_controls_change_the_output():
    at = run_page("compare")
    before = _table(at).loc[EN("cmp_row_tpot"), "B"]
    at.selectbox(key="compare.b.hardware").set_value("b200").run()
    assert not at.exception
    df = _table(at)
    assert df.loc[EN("cmp_row_hardware"), "B"].startswith("NVIDIA B200")
    assert df.loc[EN("cmp_row_tpot"), "B"] != before
    assert at.query_params["b_hardware"] == "b200"
    # B's own batch (in the expander) does not move A
    a_before = df.loc[EN("cmp_row_tpot"), "A"]
    at.selectbox(key="compare.b.batch").set_value(256).run()
    df = _table(at)
    assert df.loc[EN("cmp_row_tpot"), "A"] == a_before and "batch 256" in df.loc[EN("cmp_row_shape"), "B"]
    assert at.query_params["b_batch"] == "256"


def test_b_follows_the_sidebar_unless_set():
    at = run_page("compare")
    at.sidebar.select_slider(key="batch").set_value(128).run()
    assert not at.exception
    assert "batch 128" in _table(at).loc[EN("cmp_row_shape"), "B"]


def test_b_that_does_not_fit_is_shown_not_raised():
    at = run_page("compare")
    at.selectbox(key="compare.b.gpus").set_value(1).run()
    at.selectbox(key="compare.b.batch").set_value(1024).run()
    assert not at.exception
    df = _table(at)
    assert df.loc[EN("cmp_row_fits"), "B"] == "✗"
    assert df.loc[EN("cmp_row_fits"), EN("cmp_delta_col", x="B")] == EN("cmp_no_longer_fits")
    assert at.error  # notices.fit_notice with the remedies
    sweep = _fig(at, "cmp_sweep_title")
    b_solid = [t for t in sweep["data"] if t["name"].startswith("B · ")][0]
    assert np.isnan(decode(b_solid["y"])[-1])  # the large batches are only on the dashed trace


def test_third_scenario():
    at = run_page("compare")
    at.toggle(key="compare.c.on").set_value(True).run()
    assert not at.exception
    df = _table(at)
    assert "C" in df.columns and EN("cmp_delta_col", x="C") in df.columns
    assert len(_fig(at, "cmp_decomp_title")["data"]) == 3
    assert at.query_params["c_hardware"] == "b200"
    at.toggle(key="compare.c.on").set_value(False).run()
    assert "c_hardware" not in at.query_params
    # A on B200: C opens on a chip not yet compared (it had opened on B200, A drawn twice)
    at = run_page("compare", hardware="b200")
    at.toggle(key="compare.c.on").set_value(True).run()
    assert not at.exception and at.query_params["c_hardware"] == "h200" and at.query_params["b_hardware"] == "mi300x"


def test_zh_tw():
    at = run_page("compare", lang="zh-TW")
    assert not at.exception
    assert at.title[0].value == ZH("cmp_title")
    assert _fig(at, "cmp_decomp_title", ZH)["layout"]["yaxis"]["title"]["text"] == ZH("cmp_axis_part_ms")
    assert _fig(at, "cmp_sweep_title", ZH)
    assert ZH("cmp_row_tpot") in _table(at).index
    # each scenario's TPOT and band under the table in Chinese punctuation ("A：22.4 ms，80% 區間 …"), not "A: …, …"
    bands_line = next(c.value for c in at.caption if "\n\nA：" in c.value).split("\n\n")[-1]  # under the table's
    assert "，" in bands_line and "B：" in bands_line and ", " not in bands_line


def test_sidebar_keeps_page_params():
    """ui.controls.sidebar() keeps parameters it does not own when it writes the URL (needed for b_*)."""
    at = run_page("overview", b_hardware="h100-sxm")
    assert "b_hardware" in at.query_params


def test_url_restores_b():
    at = run_page("compare", b_hardware="h100-sxm", b_gpus="4", b_weights="fp8", b_kv="fp8", b_batch="64")
    assert not at.exception
    df = _table(at)
    assert df.loc[EN("cmp_row_hardware"), "B"] == "NVIDIA H100 SXM5 80GB"
    assert df.loc[EN("cmp_row_gpus"), "B"] == "4" and "batch 64" in df.loc[EN("cmp_row_shape"), "B"]
    assert not at.warning


def test_bad_url_values_warn():
    at = run_page("compare", b_hardware="<script>", b_gpus="lots", b_profile="fastest")
    assert not at.exception
    (text,) = [w.value for w in at.warning]  # one box, a line each, each naming the side and its control
    lines = text.split("\n- ")[1:]
    assert text.startswith(EN("notice_link_many", n=3)) and len(lines) == 3 and "<script>" not in text
    gpus = EN("cmp_link_label", x="B", field=EN("cmp_gpus"))
    said = EN("notice_bad_param", name=control_name(gpus, "b_gpus", EN), given="lots",
              used=EN("cmp_gpus_auto"))  # fmt: skip
    assert EN.sentences([said, EN("notice_allowed_from", lo="1")]) in lines  # with the range it takes
    assert _table(at).loc[EN("cmp_row_hardware"), "B"] == "AMD Instinct MI300X"


def test_b_survives_a_page_switch():
    at = run_page("compare")
    at.selectbox(key="compare.b.hardware").set_value("h100-sxm").run()
    at.switch_page("pages/overview.py").run()
    at.switch_page("pages/compare.py").run()
    assert not at.exception
    assert _table(at).loc[EN("cmp_row_hardware"), "B"] == "NVIDIA H100 SXM5 80GB"


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_ttft_row_is_per_request_and_the_whole_batch_prefill_has_its_own_row(lang):
    """Issue 19: Compare's TTFT is the per-request TTFT Overview shows, not the prefill of all B prompts, which has
    its own named row."""
    from tpot_model import Scenario, estimate, resolve_hardware, resolve_model, resolve_profile
    from ui import fmt

    tr = Translator(lang)
    est = estimate(
        resolve_model("llama-3.1-70b"),
        resolve_hardware("h200"),
        Scenario(batch=32, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8"),
        resolve_profile("typical"),
    )
    df = _table(run_page("compare", lang=lang))
    assert df.loc[tr("cmp_row_ttft"), "A"] == fmt.duration(float(est.ttft_per_request_s), tr=tr)
    assert df.loc[tr("cmp_row_batch_prefill"), "A"] == fmt.duration(float(est.batch_prefill_s), tr=tr)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_b_that_does_not_fit_has_its_speeds_and_costs_marked_if_it_fitted(lang):
    tr = Translator(lang)
    at = run_page("compare", lang=lang)
    at.selectbox(key="compare.b.gpus").set_value(1).run()
    at.selectbox(key="compare.b.batch").set_value(1024).run()
    df = _table(at)
    mark = tr("if_fitted_mark", value="")  # zh-TW: a full-width bracket ('（若放得下）'), not ' ('
    assert (" (" in mark) is (lang == "en")
    for key in ("cmp_row_tpot", "cmp_row_ttft", "cmp_row_energy", "cmp_row_tps_gpu", "cmp_row_cost"):
        assert df.loc[tr(key), "B"].endswith(mark) and not df.loc[tr(key), "A"].endswith(mark), key
    assert not df.loc[tr("cmp_row_memory"), "B"].endswith(mark)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_cost_with_prefill_beside_decode_only(lang):
    """Helper review: AWQ INT4 on 2 x H200 decodes 19 % cheaper than FP8 ($1.16 against $1.44 per 1M output tokens)
    but prefills at bf16, so each request with its 4K prompt costs more ($2.60 against $2.23): the table gives both
    rows, each labelled with its basis, and the Estimate's own numbers."""
    from tpot_model import Scenario, estimate, resolve_hardware, resolve_model, resolve_profile

    tr = Translator(lang)
    q = dict(model="llama-3.1-70b", hardware="h200", gpus="2", weights="fp8", kv="fp8", batch="32")
    df = _table(run_page("compare", lang=lang, b_hardware="h200", b_gpus="2", b_weights="awq-int4", **q))
    m, hw, prof = resolve_model("llama-3.1-70b"), resolve_hardware("h200"), resolve_profile("typical")
    s = Scenario(batch=32, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8", kv_cache="fp8")
    fp8, int4 = estimate(m, hw, s, prof), estimate(m, hw, replace(s, weights="awq-int4"), prof)
    decode, prefill = df.loc[tr("cmp_row_cost")], df.loc[tr("cmp_row_cost_prefill")]
    assert (decode["A"], decode["B"]) == (fmt.usd(float(fp8.usd_per_1M_tokens)), fmt.usd(float(int4.usd_per_1M_tokens)))
    assert (prefill["A"], prefill["B"]) == (
        fmt.usd(float(fp8.usd_per_1M_tokens_with_prefill)), fmt.usd(float(int4.usd_per_1M_tokens_with_prefill)))  # fmt: skip
    assert float(int4.usd_per_1M_tokens) < float(fp8.usd_per_1M_tokens)
    assert float(int4.usd_per_1M_tokens_with_prefill) > float(fp8.usd_per_1M_tokens_with_prefill)
    assert decode[tr("cmp_delta_col", x="B")].startswith("−") and prefill[tr("cmp_delta_col", x="B")].startswith("+")


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_tokens_per_mw_and_its_difference_to_three_significant_figures(lang):
    """Issue 19: every large rate on Compare goes through fmt.large, the B - A difference too, in the prefix of the
    two rates (H200 x 2 fp8 vs MI300X: '534 K' and '603 K tok/s', the difference '+68.6 K tok/s', was '+68,608')."""
    tr = Translator(lang)
    df = _table(run_page("compare", lang=lang))
    row = tr("cmp_row_tokens_per_mw")
    a, b = df.loc[row, "A"], df.loc[row, "B"]
    assert a.endswith(" K tok/s") and b.endswith(" K tok/s")
    delta = df.loc[row, tr("cmp_delta_col", x="B")]
    shown, pct = delta.split(" (")
    assert shown[0] in "+−" and shown.endswith(" K tok/s")
    digits = shown[1:].removesuffix(" K tok/s")
    assert len(digits.replace(".", "").lstrip("0")) == 3  # 3 significant figures
    # the difference of the two shown values, each rounded to 3 figures (±0.5 K each)
    assert abs(float(digits) - abs(float(b.split()[0]) - float(a.split()[0]))) <= 1.0


def test_headline_csv_carries_each_scenarios_price_basis_date_and_source():
    """Issue 20: the headline CSV says what each scenario's $ rests on: its $/GPU-hour, basis, date and source
    (H200 hyperscaler TCO of 2026-09-20; Trainium2 has no public hyperscaler price: empty price, no date)."""
    from tpot_model import Scenario, estimate, resolve_hardware, resolve_model, resolve_profile
    from tpot_model.prices import load_prices
    from ui.figures import compare as cf

    model, profile = resolve_model("llama-3.1-8b"), resolve_profile("typical")
    scen = Scenario(batch=8, price_basis="hyperscaler")
    ests = {
        "A": estimate(model, resolve_hardware("h200"), scen, profile),
        "B": estimate(model, resolve_hardware("trainium2"), scen, profile),
        "C": estimate(model, resolve_hardware("h200"), Scenario(batch=8, price_basis="on_demand"), profile),
    }
    df = cf.headline_table(ests).set_index("metric")
    h200 = load_prices()["h200"]
    assert list(df.loc["price_basis", ["A", "B", "C"]]) == ["hyperscaler", "hyperscaler", "on_demand"]
    assert list(df.loc["price_as_of", ["A", "B", "C"]]) == [
        h200.price("hyperscaler").as_of, "", h200.price("on_demand").as_of,
    ]  # fmt: skip
    assert df.loc["price_as_of", "A"] == "2026-09-20" and "InferenceX" in df.loc["price_source", "A"]
    assert df.loc["price", "A"] == 1.22 and df.loc["price", "C"] == h200.price("on_demand").usd_per_gpu_hour
    assert math.isnan(df.loc["price", "B"]) and df.loc["price", "unit"] == "usd_per_gpu_hour"
    assert df.loc["price", "C_minus_A"] == pytest.approx(df.loc["price", "C"] - 1.22)
    # the $ per 1M tokens row is the price over the throughput, for the same scenario
    tps = df.loc["tps_gpu", "A"]
    assert df.loc["cost", "A"] == pytest.approx(1.22 * 1e6 / (tps * 3600))
    text = cf.headline_table(ests).to_csv(index=False)
    assert "\nprice_basis,text,,hyperscaler,hyperscaler,,,on_demand,,\n" in text  # columns A, B, B - A, ..., C, ...


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("hw", ["tpu7x", "trainium2"])
def test_a_tpu_or_trainium_scenario_counts_chips(lang, hw):
    """Issue 19: Compare's count row and its per-device rows say chips when a scenario runs on a TPU or Trainium
    (the neutral word beside a GPU scenario), GPUs when every scenario is on GPUs; B's count box follows B's chip."""
    tr = Translator(lang)
    at = run_page("compare", lang=lang, hardware=hw, gpus="8")
    assert not at.exception
    rows = list(_table(at).index)
    for key in ("cmp_row_gpus", "cmp_row_tps_gpu", "cmp_row_memory", "cmp_row_min_gpus"):
        assert tr(f"{key}_chip") in rows and tr(key) not in rows, key
    assert any(c.value.startswith(tr("cmp_table_caption_chip") + "\n\n") for c in at.caption)
    assert at.selectbox(key="compare.b.gpus").label == tr("cmp_gpus")  # B is the MI300X, a GPU
    at.selectbox(key="compare.b.hardware").set_value(hw).run()
    assert at.selectbox(key="compare.b.gpus").label == tr("cmp_gpus_chip")
    rows = list(_table(run_page("compare", lang=lang)).index)
    assert tr("cmp_row_gpus") in rows and tr("cmp_row_gpus_chip") not in rows


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_compare_intro_auto_count_and_price_box_say_chips_for_a_tpu_or_trainium(lang):
    """Issue 19: with a TPU as A and Trainium2 as B, Compare's intro, B's 'set automatically' caption, B's price box
    and the headline table's price row say chips / chip-hour; with GPUs only (H200 against MI300X) they say GPUs."""
    from tests.apptest_util import visible_texts

    tr = Translator(lang)
    at = run_page("compare", lang=lang, hardware="tpu7x", b_hardware="trainium2")
    assert not at.exception
    assert at.markdown[0].value == tr("cmp_intro_chip")
    auto = tr("cmp_auto_used_chip", n=0).split("0")[0]  # the template up to the count
    assert any(line.startswith(auto) for c in at.caption for line in c.value.split("  \n"))  # B's price caption
    assert at.number_input(key="compare.b.price").label == tr("cmp_price_chip")
    assert not [t for t in visible_texts(at) if "GPU" in t]
    gpu = run_page("compare", lang=lang)
    assert gpu.markdown[0].value == tr("cmp_intro")
    auto = tr("cmp_auto_used", n=0).split("0")[0]
    assert any(line.startswith(auto) for c in gpu.caption for line in c.value.split("  \n"))
    assert gpu.number_input(key="compare.b.price").label == tr("cmp_price")
    mixed = run_page("compare", lang=lang, b_hardware="tpu7x")  # a GPU against a TPU: the neutral 'chips'
    assert mixed.markdown[0].value == tr("cmp_intro_chip")


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_chip_without_a_published_price_reads_no_public_price_and_its_deltas_a_dash(lang):
    """Issue 19: TPU7x has no public on-demand price. Compare's price row said 'none' / '無' and the Δ of its cost
    'n/a'; it says 'No public price' / '無公開價格' as the cost row and Overview do, and a Δ with no value on one side
    is an em dash. Two scenarios and three (the compact table) alike; every text says chip, none GPU."""
    from tests.apptest_util import visible_texts
    from ui import fmt

    tr = Translator(lang)
    at = run_page("compare", lang=lang, hardware="tpu7x", gpus="4", b_hardware="trainium2")
    assert not at.exception
    df = _table(at)
    price = tr("cmp_row_price_chip")
    assert df.loc[price, "A"].startswith(tr("no_public_price_short") + " · ")
    assert df.loc[price, "B"].startswith(fmt.usd(2.235) + " · ")  # Trainium2's on-demand price
    delta = tr("cmp_delta_col", x="B")
    for key in ("cmp_row_cost", "cmp_row_tokens_per_mw"):  # no price for A; no all-in power for either
        assert df.loc[tr(key), delta] == "—", key
    cells = [str(v) for v in df.to_numpy().ravel()]
    assert not [v for v in cells if v in ("n/a", tr("no_price"))]
    assert not [t for t in visible_texts(at) if "GPU" in t]
    at.toggle(key="compare.c.on").set_value(True).run()
    assert not at.exception
    df = _table(at)
    assert df.loc[price, "A"] == tr("no_public_price_short")
    assert df.loc[tr("cmp_row_cost"), tr("cmp_delta_col", x="B")] == "—"
    assert not [v for v in (str(v) for v in df.to_numpy().ravel()) if v in ("n/a", tr("no_price"))]
    gpu = _table(run_page("compare", lang=lang, hardware="h200"))
    assert tr("cmp_row_price") in gpu.index and tr("cmp_row_price_chip") not in gpu.index


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_chart_exports_state_b_and_c_not_only_a(lang):
    """Compare's chart exports named A's scenario alone: the CSV's B rows said scenario_hardware=b200 and A's price,
    the file name and the chart's caption named A only (helper review). Each row states its own scenario; the
    caption and the file name name B and C too."""
    import csv
    import io
    import json

    from ui import export
    from ui.figures import compare as cf

    tr = Translator(lang)
    at = run_page("compare", lang=lang, model="deepseek-r1", hardware="b200", gpus="8", weights="fp8", kv="fp8",
                  b_gpus="8", c_hardware="mi355x", c_gpus="8")  # fmt: skip
    assert not at.exception, at.exception
    payloads = {p["export"]["filename"].split("_")[0]: p for p in
                (json.loads(el.proto.bytes) for el in at.get("bidi_component") if el.proto.bytes)}  # fmt: skip
    for chart_id in ("compare-decomposition", "compare-tpot-vs-batch"):
        p = payloads[chart_id]
        assert "_vs-8xmi300x-fp8-fp8-vs-8xmi355x-fp8-fp8" in p["export"]["filename"]
        subtitle = json.dumps(p["export"]["decor"], ensure_ascii=False)
        assert tr("export_vs_side", x="B", gpus=8, hw="MI300X", weights="fp8", kv="fp8", price="")[:-1] in subtitle
        assert tr("export_vs_side", x="C", gpus=8, hw="MI355X", weights="fp8", kv="fp8", price="")[:-1] in subtitle
    # the CSV: B's and C's rows carry their own chip and price
    from tpot_model import Scenario, estimate, resolve_hardware, resolve_model, resolve_profile

    model, profile = resolve_model("deepseek-r1"), resolve_profile("typical")
    s = Scenario(batch=32, num_gpus=8, weights="fp8", kv_cache="fp8")
    ests = {x: estimate(model, resolve_hardware(h), s, profile) for x, h in (("A", "b200"), ("B", "h200"))}
    about = cf.compared_about({"scenario_hardware": "b200", "scenario_price_usd_per_gpu_hour": 6.03}, ests, tr)
    b_price = ests["B"].price  # B's price in the subtitle with its basis and date, as A's ('$1.99/GPU-hour' alone was)
    assert export.price_text(cf.scenario_columns(ests["B"]), tr) in about["scenario_vs"]
    assert (
        b_price.as_of and b_price.as_of in about["scenario_vs"] and tr(f"basis_{b_price.basis}") in about["scenario_vs"]
    )
    rows = list(
        csv.DictReader(io.StringIO(export.csv_bytes(cf.decomposition_table(ests), about, {}).decode("utf-8-sig")))
    )
    b = [r for r in rows if r["scenario"] == "B"]
    assert b and {r["scenario_hardware"] for r in b} == {"h200"} and ests["B"].price_usd_per_gpu_hour != 6.03
    assert {float(r["scenario_price_usd_per_gpu_hour"]) for r in b} == {float(ests["B"].price_usd_per_gpu_hour)}
    assert {r["scenario_hardware"] for r in rows if r["scenario"] == "A"} == {"b200"}


def test_embed_sends_b_and_c_controls_only_once_their_section_is_opened():
    """In the embed view B's and C's controls wait in the closed "This page's settings" section (issue 19: a dozen
    widgets cost every reader of a wiki link; server CPU per reader 16.5 -> 14 ms): the link's B and C still apply;
    opened, the section holds their controls with those values, and a change there holds once it is closed again."""
    linked = dict(b_hardware="h100-sxm", b_gpus="4", c_hardware="b200")
    at = run_page("compare", embedded=True, **linked)
    assert not at.exception, at.exception
    # no widget but the fold's 'show the rest' toggle
    assert not at.selectbox and [t.key for t in at.toggle] == ["embed.more"] and not at.number_input
    df = _table(at)
    assert df.loc[EN("cmp_row_hardware"), "B"] == "H100 SXM5 80GB" and df.loc[EN("cmp_row_gpus"), "B"] == "4"
    assert "C" in df.columns  # the link's C is shown
    at.session_state["embed.page_controls"] = True
    at.run()
    assert at.selectbox(key="compare.b.hardware").value == "h100-sxm" and at.toggle(key="compare.c.on").value
    at.selectbox(key="compare.b.gpus").set_value(8).run()
    at.session_state["embed.page_controls"] = False
    at.run()
    assert not at.exception and not at.selectbox
    assert _table(at).loc[EN("cmp_row_gpus"), "B"] == "8"
    full = run_page("compare", **linked)  # the full view draws them in B's and C's boxes, as before
    assert full.selectbox(key="compare.b.hardware").value == "h100-sxm" and full.toggle(key="compare.c.on").value
    # the intro says where A's and B's controls are: no sidebar in a wiki's frame (helper review: it said "the
    # sidebar's" and "below"), in both languages
    for tr in (EN, ZH):
        embedded = run_page("compare", embedded=True, lang=tr.lang, **linked)
        intro = embedded.markdown[0].value
        assert tr("embed_controls") in intro and tr("embed_page_controls") in intro, intro
        assert run_page("compare", lang=tr.lang, **linked).markdown[0].value == tr("cmp_intro")


def test_a_scenarios_heading_sits_above_its_controls_and_the_bands_name_tpot():
    """B's heading comes before B's controls in the full view (a helper saw the pickers above it once the heading
    had joined the summary); in the embed view, where the controls wait in the settings section, heading and summary
    are one element. The band line under the table names what it is a band of: TPOT."""
    full = run_page("compare")
    assert not full.exception
    assert EN("cmp_side", x="B") in [h.value for h in full.subheader]
    embedded = run_page("compare", embedded=True)
    assert any(m.value.startswith(f"### {EN('cmp_side', x='B')}\n\n**B**") for m in embedded.markdown)
    assert EN("cmp_side", x="B") not in [h.value for h in embedded.subheader]
    for tr in (EN, ZH):
        at = run_page("compare", lang=tr.lang)
        assert any(tr("cmp_band_side", x="A", tpot="", band="").rstrip(",， ") in c.value for c in at.caption)


def _in_order(node, out=None) -> list:
    """The page's elements in the order they are drawn (depth first), each as (type, label or value, node)."""
    out = [] if out is None else out
    for k in sorted(node.children or {}):
        child = node.children[k]
        out.append((child.type, str(getattr(child, "label", None) or getattr(child, "value", "")), child))
        if hasattr(child, "children"):
            _in_order(child, out)
    return out


@pytest.mark.parametrize("tr", [EN, ZH], ids=["en", "zh-TW"])
def test_embed_downloads_sit_above_the_charts_below_the_fold_not_above_the_title(tr):
    """Embed view, the fold opened: the section "Downloads of the 2 charts below" stood at the top of the page, above
    the title (helper review); it sits under the fold's toggle, just above the two charts it names."""
    at = run_page("compare", embedded=True, more="true", lang=tr.lang)
    assert not at.exception, at.exception
    kinds = [(t, label) for t, label, _ in _in_order(at.main)]
    title = next(i for i, (t, _) in enumerate(kinds) if t == "title")
    fold = next(
        i for i, (t, label) in enumerate(kinds) if t == "toggle" and label.startswith(tr("embed_more", what=""))
    )
    downloads = [i for i, (t, label) in enumerate(kinds) if t == "expander" and label == tr("embed_downloads", n=2)]
    charts = [i for i, (t, _) in enumerate(kinds) if t == "bidi_component"]
    assert len(downloads) == 1 and len(charts) == 2, kinds
    assert title < fold < downloads[0] < charts[0], kinds
    at.session_state["embed.downloads"] = True  # opened, it holds both charts' buttons and the zip, in its place
    at.run()
    assert not at.exception
    assert sum(b.label == tr("download_html") for b in at.get("download_button")) == 2


@pytest.mark.parametrize("tr", [EN, ZH], ids=["en", "zh-TW"])
def test_a_part_at_zero_ms_says_which_scenarios_and_why_not_zero_zero(tr):
    """Llama 3.1 70B fp8, batch 32: every operator is memory-bound on both chips, so the compute part is exactly 0 ms
    (it runs under the reads), and B's one MI300X exchanges nothing. The bars read "0 0" (helper review); no '0' is
    written over an empty bar, and the part's name says who is at 0 ms and why."""
    from tpot_model import BUCKETS

    fig = _fig(run_page("compare", lang=tr.lang), "cmp_decomp_title", tr)
    a, b = fig["data"]
    compute, comm = BUCKETS.index("compute"), BUCKETS.index("communication")
    assert decode(a["y"])[compute] == decode(b["y"])[compute] == 0 and decode(b["y"])[comm] == 0
    assert a["text"][compute] == b["text"][compute] == b["text"][comm] == "" and a["text"][comm] != ""
    # the names and notes on lines that share a narrow column (900 px, sidebar open: they had run into each other)
    ticks = {
        v: t.replace("<br>", " ").replace("， ", "，")
        for v, t in zip(fig["layout"]["xaxis"]["tickvals"], fig["layout"]["xaxis"]["ticktext"], strict=True)
    }
    assert tr("cmp_zero_part", who=tr.join(["A", "B"])) in ticks[tr("bucket_compute")]
    assert tr("zero_memory_bound") in ticks[tr("bucket_compute")]
    assert tr("cmp_zero_part", who="B") in ticks[tr("bucket_communication")]
    assert tr("zero_one_gpu") in ticks[tr("bucket_communication")]
    assert ticks[tr("bucket_weights")].replace(" （", "（").replace("） ", "）") == tr(
        "bucket_weights"
    )  # the name alone
    lines = [x.strip() for t in fig["layout"]["xaxis"]["ticktext"] for x in re.split("<[^>]+>", t) if x.strip()]
    # a line's words fit 12 widths, but for a bracketed aside kept whole ('(+ activation)': common.wrap_label)
    assert all(fmt.text_px(x, 1) <= 12 or " " not in x or x.startswith("(") for x in lines), lines
    assert tr("zero_memory_bound") in b["hovertemplate"][compute]


def _legend(fig: dict) -> list[str]:
    """The legend's entries in the order plotly.js lists them: by group (first appearance), then legendrank, then
    trace order; reversed within groups when traceorder says so or, unset, when a trace fills to the next."""
    order = fig["layout"].get("legend", {}).get("traceorder")
    if order is None:
        order = "reversed" if any(t.get("fill") in ("tonexty", "tonextx") for t in fig["data"]) else "normal"
    shown = [(i, t) for i, t in enumerate(fig["data"]) if t.get("showlegend", True) and t.get("name")]
    groups = list(dict.fromkeys(t.get("legendgroup", "") for _, t in shown))
    sign = -1 if "reversed" in order else 1
    key = lambda it: (groups.index(it[1].get("legendgroup", "")), sign * it[1].get("legendrank", 1000), sign * it[0])  # noqa: E731
    return [t["name"] for _, t in sorted(shown, key=key)]


def test_batch_legend_lists_each_line_before_its_does_not_fit_a_before_b_before_c():
    """TPOT against batch: plotly.js reverses a legend with a filled band, so "A: does not fit" came before A's line
    (helper review). Each scenario's line, then its 'does not fit' dashes, then its band; A, B, C."""
    at = run_page("compare", c_hardware="b200")
    legend = _legend(_fig(at, "cmp_sweep_title"))
    lines = [n for n in legend if " · " in n]
    assert [n.split(" · ")[0] for n in lines] == ["A", "B", "C"]
    for x, line in zip("ABC", lines, strict=True):
        i = legend.index(line)
        assert legend[i + 1] == EN("cmp_no_fit_trace", x=x), legend
        assert legend[i + 2].startswith(f"{x}: ") and legend[i + 2] != EN("cmp_no_fit_trace", x=x), legend


@pytest.mark.parametrize("tr", [EN, ZH], ids=["en", "zh-TW"])
def test_values_and_differences_read_whole_in_a_narrow_table(tr):
    """At 900 px the Δ cells broke between a number and its unit ('−18.9 tok/s' / '(−42.2%)') and the energy row's
    label took two lines (helper review): a value and its difference are unbreakable (non-breaking spaces), and the
    energy row's label is short. The same row says what its J are: board power (the all-in J are under each box)."""
    df = _table(run_page("compare", lang=tr.lang), raw=True)
    delta = tr("cmp_delta_col", x="B")
    for key in ("cmp_row_tpot", "cmp_row_tps_user", "cmp_row_tokens_per_mw", "cmp_row_energy", "cmp_row_memory"):
        cells = [df.loc[tr(key), c] for c in ("A", "B", delta)]
        assert all(NBSP in c and " " not in c for c in cells), (key, cells)
    shape = df.loc[tr("cmp_row_shape"), "B"].split(" · ")  # the workload wraps between its parts only
    assert len(shape) == 3 and all(" " not in part for part in shape), shape
    # no longer than 'Tokens/s per MW (all-in)', which fits the names' column at 900 px
    assert len(tr("cmp_row_energy")) <= len(EN("cmp_row_tokens_per_mw")) and tr("cmp_row_energy") in df.index


@pytest.mark.parametrize("tr", [EN, ZH], ids=["en", "zh-TW"])
def test_b_without_a_price_says_where_its_price_goes_and_shows_its_all_in_j_as_a_does(tr):
    """B (MI355X: no public on-demand price) was sent to "Model, batch and context of B", whose price box was ignored
    under any basis but the sidebar's 'Your own' (helper review). The caption names B's price box and its section
    (in the embed view: inside "This page's settings"); a price entered there prices B; and B's box, as A's and C's,
    shows tokens/s per MW and the all-in J per token beside the table's board-power J."""
    from ui import fmt

    at = run_page("compare", lang=tr.lang, b_hardware="mi355x", c_hardware="mi300x")
    assert not at.exception
    all_in = tr("j_all_in", j="\0", board="").split("\0")[0]
    assert sum(all_in in c.value for c in at.caption) == 3  # A's, B's and C's boxes
    section = tr("cmp_own_settings", x="B")
    (b,) = [c.value for c in at.caption if "AMD Instinct MI355X" in c.value]
    no_price, power = b.split("  \n")[:2]  # where its price goes first, as A's caption starts with its price
    field = tr("cmp_price").replace("$", "\\$")  # markdown: a bare $ ... $ reads as LaTeX
    assert field in no_price and section in no_price and power.startswith(tr("m_tokens_per_mw"))
    assert tr("basis_on_demand") in b
    assert at.number_input(key="compare.b.price").label == tr("cmp_price")  # the box the caption names
    with_section = [e for e in at.expander if e.label == section]
    assert with_section and with_section[0].number_input(key="compare.b.price")
    at.number_input(key="compare.b.price").set_value(2.5).run()
    df = _table(at)
    assert df.loc[tr("cmp_row_price"), "B"].startswith(fmt.usd(2.5)) and df.loc[tr("cmp_row_cost"), "B"][0] == "$"
    assert not [c.value for c in at.caption if "AMD Instinct MI355X" in c.value and field in c.value]
    embedded = run_page("compare", embedded=True, lang=tr.lang, b_hardware="mi355x")
    (b,) = [c.value for c in embedded.caption if "AMD Instinct MI355X" in c.value]
    assert tr("cmp_where_embed", settings=tr("embed_page_controls"), section=section) in b


def test_the_table_key_says_percent_only_when_c_is_shown():
    """With C shown the Δ cells are percentages only (five columns on the page): the key under the table says so;
    with A and B it says absolute and in % (helper review)."""
    at = run_page("compare", c_hardware="mi355x")
    assert not at.exception
    assert any(c.value.startswith(EN("cmp_table_caption_pct") + "\n\n") for c in at.caption)
    two = run_page("compare")
    assert any(c.value.startswith(EN("cmp_table_caption") + "\n\n") for c in two.caption)


def test_zh_tw_durations_read_in_chinese_units():
    """A browser review: Compare in zh-TW read '整批預填充 23.5 min' and '+27.0 min (+114.9%)', Overview '生成 1K 個
    Token 的總時間 24.7 min'. Durations on a zh-TW page name their unit in Chinese (分鐘, 秒, 小時)."""
    url = dict(lang="zh-TW", model="qwen3.5-397b-a17b", hardware="mi355x", gpus="8", weights="mxfp4", kv="fp8",
               batch="256", context="32768")  # fmt: skip
    at = run_page("compare", b_hardware="mi300x", **url)
    assert not at.exception, at.exception
    df = _table(at)
    cells = [str(v) for v in df.loc[ZH("cmp_row_batch_prefill")]] + [str(v) for v in df.loc[ZH("cmp_row_ttft")]]
    assert any("分鐘" in c or "秒" in c for c in cells), cells
    assert not any(re.search(r"\d (min|s|h|d)\b", c) for c in cells), cells
    at = run_page("overview", **url)
    serve = [m for m in at.metric if m.label.startswith("生成")]
    assert serve and re.search(r"\d (秒|分鐘|小時)$", serve[0].value), [(m.label, m.value) for m in at.metric]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_energy_on_an_estimated_tdp_is_marked_in_its_cell_its_delta_and_the_csv(lang):
    """Trainium3's board power is the catalog's estimate: its J/token cell (and a Δ against it) had read as a
    datasheet figure. They say '(estimate)'; B200's own J/token is not marked; the CSV has board_power_estimated."""
    from tpot_model import load_hardware_catalog
    from ui.figures import compare as figs

    tr = Translator(lang)
    at = run_page("compare", lang=lang, hardware="trainium3", b_hardware="b200")
    assert not at.exception
    df = _table(at)
    row = fmt.device_text("cmp_row_energy", "chip", tr)
    a, b = df.loc[row, "A"], df.loc[row, "B"]
    assert re.fullmatch(r"[\d.,]+ J", b), b
    assert a == tr("estimate_mark", value=a.split(" J")[0] + " J"), a
    delta = df.loc[row, tr("cmp_delta_col", x="B")]
    assert delta.endswith(tr("estimate_mark", value="").strip()), delta
    hw = load_hardware_catalog()
    from tpot_model import estimate, resolve_model, resolve_profile
    from tpot_model.scenario import Scenario

    ests = {x: estimate(resolve_model("llama-3.1-8b"), hw[h], Scenario(batch=8), resolve_profile("typical"))
            for x, h in (("A", "trainium3"), ("B", "b200"))}  # fmt: skip
    table = figs.headline_table(ests).set_index("metric")
    assert table.loc["board_power_estimated", "A"] is True and table.loc["board_power_estimated", "B"] is False


B_NO_PRICE = {  # B's caption (markdown: the $ escaped): the pages' words (fmt.no_price_text), B's own box its remedy
    ("mi355x", "en"): (
        "No public price for AMD Instinct MI355X under the basis 'On-demand cloud': the figures that need its "
        "\\$/GPU-hour (the cost per 1M tokens and those built on it) are not shown. Enter B's own in “Price (\\$/GPU-hour)” under "
        "“Model, batch, context and price of B”, or set the sidebar's price basis to Neocloud TCO, Hyperscaler TCO or "
        "3-year rental."
    ),
    ("mi355x", "zh-TW"): (
        "AMD Instinct MI355X 在「雲端隨需」價格基準下沒有公開價格：需要其每 GPU 小時價格的數字（每百萬 Token 成本及以其計算的數字）不顯示。"
        "請在「B 的模型、批次、上下文與價格」的「價格（美元／GPU 小時）」輸入 B 的價格，或在側邊欄改選以下任一價格基準："
        "新雲端業者 TCO、超大規模業者 TCO、三年租用。"
    ),
    ("vr200", "en"): (
        "NVIDIA Rubin (per GPU, Vera Rubin NVL72) (announced) has no published price in any basis: the figures that "
        "need its \\$/GPU-hour (the cost per 1M tokens and those built on it) are not shown. Enter B's own in “Price (\\$/GPU-hour)” "
        "under “Model, batch, context and price of B”."
    ),
    ("vr200", "zh-TW"): (
        "NVIDIA Rubin (per GPU, Vera Rubin NVL72)（已發表，尚未出貨）在任何價格基準下都沒有公開價格：需要其每 GPU 小時價格的"
        "數字（每百萬 Token 成本及以其計算的數字）不顯示。請在「B 的模型、批次、上下文與價格」的「價格（美元／GPU 小時）」輸入 B 的價格。"
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("b", ["mi355x", "vr200"])
def test_bs_no_price_caption_is_the_pages_notice_with_bs_own_box(b, lang):
    """A review: Compare kept its own no-price sentences beside the pages' (fmt.no_price_text). B's caption is now
    the pages' words, what holds (the bases that price it, or none in any basis: an announced chip marked) and what
    is not shown, with B's own price box as the remedy's place; A's notice under the sidebar's chip says the same
    with the sidebar's box."""
    at = run_page("compare", lang=lang, b_hardware=b)
    assert not at.exception, at.exception
    said = [c.value.split("  \n")[0] for c in at.caption]
    assert B_NO_PRICE[b, lang] in said, said
    a = run_page("compare", lang=lang, hardware=b)  # the same chip as A: the pages' notice, the sidebar's box
    own = {"en": "Enter your own $/GPU-hour in the sidebar", "zh-TW": "請在側邊欄輸入自訂的每 GPU 小時價格"}[lang]
    fact = B_NO_PRICE[b, lang].replace("\\$", "$").split({"en": ". Enter B", "zh-TW": "。請在「B"}[lang])[0]
    assert any(i.value.startswith(fact) and own in i.value for i in a.info), [i.value for i in a.info]
