"""Every page: renders with defaults in both languages, restores a scenario from the URL, reacts to the sidebar."""

import html
import json
import re

import pytest

from tests.apptest_util import ROOT, chart_texts, figures, run_page, visible_texts, warning_lines
from ui import fmt, navigation
from ui.figures.planner import CHART_SECTION
from ui.i18n import EN, Translator
from ui.notices import control_name

PAGES = sorted(p.stem for p in (ROOT / "pages").glob("*.py"))
SCENARIO_FREE = {"glossary", "validation"}  # pages that do not depend on the sidebar scenario


def _rendered(at) -> str:
    """Everything a reader sees that depends on the scenario: metrics, text and chart data."""
    parts = [f"{m.label}={m.value}" for m in at.metric]
    parts += [md.value for md in at.markdown] + [c.value for c in at.caption]
    parts += [json.dumps(f) for f in figures(at)]
    return json.dumps(parts)


def test_pages_exist():
    assert {"overview", "roofline", "breakdown", "kv_cache", "cost", "hardware", "compare", "methodology"} <= set(PAGES)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("page", PAGES)
def test_page_renders(page, lang):
    at = run_page(page, lang=lang)
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]  # the default scenario fits and is valid


@pytest.mark.parametrize("page", sorted(set(PAGES) - SCENARIO_FREE))
def test_sidebar_change_changes_page(page):
    at = run_page(page)
    before = _rendered(at)
    at.sidebar.select_slider(key="batch").set_value(1).run()
    assert not at.exception
    assert _rendered(at) != before


@pytest.mark.parametrize("page", PAGES)
def test_url_restores_scenario(page):
    query = dict(
        model="deepseek-v3",
        hardware="b200",
        gpus="8",
        weights="nvfp4",
        kv="fp8",
        batch="64",
        context="8192",
        output="256",
        profile="ideal",
        price="3.5",
        lang="zh-TW",
    )
    at = run_page(page, **query)
    assert not at.exception
    for key, value in query.items():
        got = at.session_state[key]
        assert str(got) == value or (isinstance(got, float) and got == float(value)), key
    assert not at.warning, [w.value for w in at.warning]


def test_url_takes_the_names_people_type():
    """A link written by hand may name the chip and model as people write them: no notice, the catalog's entries."""
    at = run_page("overview", hardware="GB200 NVL72", model="deepseek-ai/DeepSeek-R1-0528")
    assert not at.exception and not at.warning, [w.value for w in at.warning]
    assert (at.session_state["hardware"], at.session_state["model"]) == ("gb200", "deepseek-r1")
    # a name no entry answers to (or several: the four A100s) keeps its notice, which names the ids it resembles
    at = run_page("overview", hardware="a100")
    (said,) = [w.value for w in at.warning]
    assert "`hardware`" in said and EN("notice_near", names="")[:12] in said and "`a100-80gb-sxm`" in said, said


def test_page_links_take_the_names_people_type():
    """The pages' own chip and model parameters read names as the scenario's do: Compare's sides, the Serving
    frontier's chips and Economics' chips; an unknown one still gets its notice."""
    from tpot_model import load_hardware_catalog, load_model_catalog, load_profiles
    from ui import page_state

    hw, models, profiles = set(load_hardware_catalog()), set(load_model_catalog()), set(load_profiles())
    side, notices = page_state.parse_side_query(
        {"b_hardware": "GB200 NVL72", "b_model": "deepseek-ai/DeepSeek-R1"}, "b", models, hw, profiles
    )
    assert (side["hardware"], side["model"], notices) == ("gb200", "deepseek-r1", [])
    inputs, notices = page_state.parse_frontier_query({"fr_hw": "GB200 NVL72,hgx-b200,h900"}, hw, profiles)
    assert inputs.hardware == ("gb200", "b200") and [n.param for n in notices] == ["fr_hw"]
    assert (notices[0].given, notices[0].used) == ("h900", "gb200,b200")  # the item it could not read, not the list
    side, notices = page_state.parse_side_query({"b_hardware": "a100"}, "b", models, hw, profiles)
    assert [n.param for n in notices] == ["b_hardware"] and "a100-80gb-sxm" in notices[0].near
    inputs, notices = page_state.parse_economics_query({"ec_chips": "H100,NVIDIA B200"}, hw)
    assert inputs.chips == ("h100-sxm", "b200") and notices == []
    # a chip it cannot read: quoted, with the ids it resembles; one chip named twice (id, alias): read once, unsaid
    inputs, notices = page_state.parse_economics_query({"ec_chips": "b200,gb20,B200"}, hw)
    assert inputs.chips == ("b200",) and [(n.given, n.used) for n in notices] == [("gb20", "b200")]
    assert "gb200" in notices[0].near
    inputs, notices = page_state.parse_economics_query({"ec_chips": "h200,hgx-h200"}, hw)
    assert inputs.chips == ("h200",) and notices == []


def test_bad_url_values_fall_back_with_notice():
    """Every reader of a bad link is told (the link is parsed once per server, its notices kept for each session)."""
    bad = dict(batch="lots", context="<script>alert(1)</script>", model="no-such-model", gpus="-3", price="1e400")
    for _ in range(2):
        at = run_page("overview", **bad)
        assert not at.exception
        texts = [w.value for w in at.warning]  # one box, a line each
        assert len(texts) == 1 and texts[0].startswith(EN("notice_link_many", n=5)), texts
        assert len(warning_lines(at)) == 5 and "<script>" not in texts[0]
        assert at.session_state["batch"] == 32 and at.session_state["model"] == "llama-3.1-70b"


def test_url_number_between_slider_stops_snaps_to_the_nearest_and_says_so():
    """A valid number that is not a slider stop is not 'invalid': the page uses the nearest stop and says which."""
    at = run_page("overview", context="1000000", batch="30")
    assert not at.exception
    assert at.session_state["context"] == 1_048_576 and at.session_state["batch"] == 32
    batch, context = (control_name(EN(f"control_{p}"), p, EN) for p in ("batch", "context"))
    assert warning_lines(at)[:2] == [  # the context as its slider shows it; then the context window's notice
        EN("notice_snapped_param", name=batch, given="30", used="32"),
        EN("notice_snapped_param", name=context, given="1000000", used="1M"),
    ]


def test_does_not_fit_offers_only_remedies_that_work():
    """70B in bf16 on one H100: fp8 weights would fit, and the latency targets are conditional. At batch 4,096 x 1M
    tokens no lower precision is enough, and the notice says so instead of suggesting one."""
    at = run_page("overview", model="llama-3.1-70b", hardware="h100-sxm", gpus="1", weights="bf16", kv="bf16",
                  batch="1", context="128", output="128")  # fmt: skip
    notice = at.error[0].value
    # the remedies, one sentence, the GPU count at the scenario's batch (another page's batch needs another count)
    remedies = [
        EN("remedy_gpus", n=2, batch="1"),
        EN("remedy_precision", what=EN("remedy_precision_weights", fmt="fp8")),
    ]
    assert EN("fit_remedy", remedy="; or ".join(remedies)) in notice
    assert any(m.value.startswith(EN("ov_targets_met_nofit", met="")[:20]) for m in at.markdown)
    at = run_page("overview", batch="4096", context="1048576")
    notice = at.error[0].value
    # at the scenario's GPU count (the default 2), not at every count: a wider split may fit at lower precision
    assert (
        EN("remedy_precision_not_enough", devices="2 GPUs") in notice and EN("remedy_precision", what="") not in notice
    )
    # 1M tokens of context run past Llama 3.1 70B's 128K window: the remedy that works, first (helper review); what
    # would not help is said apart from the remedies, in sentences of its own
    # shortening it alone would not do: what else it then takes, worked out at the window's length
    # the prompt's length that fits, prompt + output (1,024) within the window (helper review: at a 128K prompt it had
    # said 'shorten the context to within the 131,072-token window' of a context already 131,072 tokens long)
    context = EN("remedy_context", model="Llama 3.1 70B", max="131,072", within="130,048")
    then = EN("remedy_batch", n=4)
    assert EN("fit_remedy", remedy=EN("remedy_context_then", context=context, then=then)) in notice
    # two things it then takes are one clause (a review: '; or' had read as an alternative to shortening it)
    fp8 = run_page("overview", context="1048576", weights="fp8", kv="fp8").error[0].value
    then = f"{EN('remedy_gpus', n=8, batch='32')} or {EN('remedy_batch', n=8)}"
    assert EN("fit_remedy", remedy=EN("remedy_context_then", context=context, then=then)) in fp8
    assert notice.endswith(
        f"{EN('fit_no_gpu_count', batch='4,096', ways=8)} {EN('remedy_precision_not_enough', devices='2 GPUs')}"
    )
    # where the window's length fits, shortening the context is the whole remedy
    one = run_page("overview", batch="1", context="1048576")
    assert EN("fit_remedy", remedy=context) in one.error[0].value
    # MLA's latent is not split by tensor parallelism: said so, not 'at most 1 ways'
    mla = run_page("overview", model="deepseek-v3", hardware="h200", gpus="8", batch="512", context="131072")
    assert EN("fit_no_gpu_count_whole", batch="512") in mla.error[0].value
    # where a lower KV-cache format lets a GPU count hold it, that is a remedy, with the count (as Hardware and the
    # CLI say it, estimate.no_gpu_count): DeepSeek-R1 FP4 on L40S, 64 x 8K, bf16 cache: fp8 on 32 GPUs
    at_kv = run_page("overview", model="deepseek-r1", hardware="l40s", gpus="2", weights="fp4", kv="bf16", batch="64",
                     context="8192")  # fmt: skip
    kv = at_kv.error[0].value
    # its minimum GPUs: none ('> 1,024' had read as if a bigger cluster would hold it)
    assert [m.value for m in at_kv.metric if m.label == EN("m_min_gpus")] == [EN("min_gpus_none")]
    assert EN("fit_remedy", remedy=EN("remedy_kv_gpus", fmt="fp8", n=32, batch="64")) in kv
    assert EN("fit_no_gpu_count_whole", batch="64") in kv
    # the latency chart's bars carry their value in the axis label, as a duration ('240 s', not '240,000.00 ms')
    (bars,) = [
        t for f in figures(at) for t in f["data"] if any(str(y).startswith(EN("ov_estimate")) for y in t.get("y") or [])
    ]
    estimate_label = next(y for y in bars["y"] if y.startswith(EN("ov_estimate")))
    assert estimate_label == f"{EN('ov_estimate')} · {EN('if_fitted_mark', value='240 s')}"  # it does not fit
    # on its log axis the five targets lie within a decade: one label names them all, each with its number, 'feels
    # laggy' sits apart (not on the bars), and the ticks are full numbers (no bare '2', '5' between decades)
    (chart,) = [f for f in figures(at) if bars in f["data"]]
    notes = [a["text"].replace("\xa0", " ").replace("<br>", " ") for a in chart["layout"]["annotations"]]
    targets = [EN(f"target_{k}", ms="").strip() for k in ("code_completion", "chat", "agents", "batch_jobs", "reading")]
    (joined,) = [n for n in notes if all(k in n for k in targets)]
    assert all(k in joined for k in targets) and EN("target_reading", ms="179 ms") in joined  # 1 / 5.6 tok/s
    # 'feels laggy' the block's last line, in red: beside it, the targets' line had run over it at 900 px
    laggy = EN("target_laggy", ms="200 ms").replace("<br>", " ")
    assert joined.endswith(f"<span style='color:#a00'>{laggy}</span>") and not set(targets) & set(notes)
    axis = chart["layout"]["xaxis"]
    assert axis["type"] == "log" and all(len(t.replace(",", "")) > 1 for t in axis["ticktext"])


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_overview_names_the_precision_a_chip_runs_the_math_at_where_it_lacks_the_one_asked(lang):
    """FP4 weights on an H200 (no FP4 rate): Overview's notice says its matrix multiplies run at BF16, in the words the
    Serving frontier and Hardware use for it (notices.compute_fallback_text over Estimate.compute_fallback); on a B200,
    which has FP4 math, nothing is said."""
    tr = Translator(lang)
    lead = tr("compute_fallback", requested="\0", used="\0", chips="\0").split("\0")[1]
    at = run_page("overview", lang=lang, hardware="h200", weights="fp4")
    assert not at.exception, at.exception
    (said,) = [i.value for i in at.info if lead in i.value]
    from tpot_model import resolve_hardware

    hw = resolve_hardware("h200").name
    assert said == tr("compute_fallback", requested="FP4", used="BF16", chips=hw)
    b200 = run_page("overview", lang=lang, hardware="b200", weights="fp4")
    assert not any(lead in i.value for i in b200.info)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_one_output_token_says_its_tpot_is_a_second_tokens(lang):
    """Browser review: with output=1 the Overview showed a TPOT, 70.8 tok/s per user and 'meets: code completion' for
    an answer that has no decode step, under 'Time to serve 1 tokens': it now says the answer is its first token and
    whose step the TPOT is; the time to serve is TTFT alone (TTFT + TPOT x (1 - 1))."""
    tr = Translator(lang)
    at = run_page("overview", lang=lang, output="1", context="0")
    assert not at.exception
    (info,) = [i.value for i in at.info if tr("ov_one_token", ttft="\0").split("\0")[0] in i.value]
    labels = {m.label: m.value for m in at.metric}
    assert info == tr("ov_one_token", ttft=labels[tr("m_ttft")]) and labels[tr("m_serve_one")] == labels[tr("m_ttft")]
    assert not any(
        tr("ov_one_token", ttft="\0").split("\0")[0] in i.value for i in run_page("overview", lang=lang).info
    )
    # the $ headline: the one token's cost is the prefill's ($452 per 1M on the default scenario), not a decode
    # step's that never runs ($1.34 had headed the row as '$ / 1M output tokens, decode'); the decode one in its help
    one = run_page("overview", lang=lang, output="1")  # a 4K-token prompt before the one token
    (cost,) = [m for m in one.metric if m.label == tr("m_cost_one")]
    (decode,) = (float(x.replace(",", "")) for x in re.findall(r"\$([\d,]+(?:\.\d+)?)", cost.help))
    assert float(cost.value.lstrip("$").replace(",", "")) > 10 * decode and tr("m_cost") not in labels
    assert tr("m_cost") in {m.label for m in run_page("overview", lang=lang).metric}


@pytest.mark.parametrize("page", ["overview", "cost", "hardware", "planner", "kv_cache", "methodology"])
def test_scenario_lines_count_one_output_token_in_the_singular(page):
    """Browser review: the scenario lines read '1 output tokens' at output=1 (Overview, Cost, Hardware); every string
    that counts the output tokens (or its decode steps) now takes the count's own noun (fmt.counted)."""
    text = "\n".join(visible_texts(run_page(page, output="1")))
    assert "1 output token" in text and not re.search(r"\b1 (output tokens|decode steps)\b", text)
    assert "1K output tokens" in "\n".join(visible_texts(run_page(page)))


def test_why_names_the_bases_of_its_numbers():
    """Llama 3.1 70B fp8 on 2 x H200, batch 32, 4K + 1K: the KV cache a step reads is the mean over the output
    (32 x 4,608 tokens x 320 KiB / 2 GPUs = 24.2 GB; the KV page's 21.5 GB is at 4K, the memory chart's peak at 5K),
    and the memory time is the model's own at the rates it used (the typical profile's 80 % of what an H200
    attains, 90 % of 4.8 TB/s (NVIDIA prior): 3.456 TB/s; the cache at 85 % of that): 35.3 GB / 3.456 TB/s +
    24.2 GB / 2.938 TB/s = 10.2 + 8.2 = 18.4 ms, not the ideal bound's peak."""
    at = run_page("overview")
    (why,) = [m.value.split("\n\n")[1] for m in at.markdown if "\n\nWhy: each decode step reads" in m.value]
    assert "24.2 GB of KV cache at 2.94 TB/s per GPU (its mean over the 1K output tokens)" in why
    assert "35.3 GB of weights (and activations) at 3.46 TB/s and 24.2 GB of KV cache at 2.94 TB/s" in why
    # the time follows the reads, the bandwidths' basis after it (a browser review read '…its peak 4.80 TB/s →
    # 18.4 ms' as the time at the peak, which would be 12.4 ms)
    assert (
        "(its mean over the 1K output tokens) → 18.4 ms of memory reads, at the profile's shares of the 4.32 TB/s the "
        "chip reaches (the chip family's prior: no microbenchmark published for this chip), out of its 4.80 TB/s peak;"
    ) in why
    # helper review: AWQ INT4's weights are unpacked (the profile's low-bit factor, 80 %): they read at 3.456 x 0.8 =
    # 2.76 TB/s, not at the 3.46 TB/s the paragraph had quoted for every byte
    at = run_page("overview", weights="awq-int4")
    (why,) = [m.value.split("\n\n")[1] for m in at.markdown if "\n\nWhy: each decode step reads" in m.value]
    assert "of weights (and activations) at 2.76 TB/s and" in why
    assert "out of its 4.80 TB/s peak, the weights' × 0.8 for unpacking them to 16-bit math; compute" in why
    # the ideal bound reads at the peak, and says so (a review: it had said 'the profile's share' of it)
    at = run_page("overview", profile="ideal")
    (why,) = [m.value.split("\n\n")[1] for m in at.markdown if "\n\nWhy: each decode step reads" in m.value]
    assert "per GPU (its mean over the 1K output tokens) → " in why
    assert " of memory reads, at the 4.80 TB/s peak (the ideal bound); compute" in why
    # H100 SXM's bandwidth is measured (2.80 TB/s), its FLOP/s the family's prior: each said of its own rate
    at = run_page("overview", hardware="h100-sxm")
    (why,) = [m.value.split("\n\n")[1] for m in at.markdown if "\n\nWhy: each decode step reads" in m.value]
    assert "the 2.80 TB/s the chip reaches (published microbenchmark), out of its 3.35 TB/s peak" in why
    assert "the 1,781 TFLOP/s the chip reaches (the chip family's prior" in why
    at = run_page("overview")
    (why,) = [m.value.split("\n\n")[1] for m in at.markdown if "\n\nWhy: each decode step reads" in m.value]
    # browser review: the paragraph named 18.4 ms of reads against a 20.0 ms TPOT; it now says where the rest goes
    # (communication, fixed overhead), in parts that add up to the TPOT as printed
    total, *parts = (float(x) for x in re.findall(r"([\d.]+) ms", why.split("The TPOT of ", 1)[1]))
    assert total == pytest.approx(sum(parts), abs=0.06) and len(parts) == 5  # each part to 3 significant figures
    # a browser review, 405B at batch 4,096 and 1M tokens of context: '281,407 GB of KV cache' beside the memory tile's
    # TB, and 'compute needs 8,814 ms' in the sentence of '95.9 s': TB from 10 TB, the reads and the math in one unit,
    # the TPOT's parts in its own (they add up to it as printed)
    at = run_page("overview", model="llama-3.1-405b", batch="4096", context="1048576")
    (why,) = [m.value.split("\n\n")[1] for m in at.markdown if "\n\nWhy: each decode step reads" in m.value]
    assert " TB of KV cache at " in why and " GB of KV cache" not in why
    assert re.search(r"→ [\d.]+ s of memory reads", why) and re.search(r"compute needs [\d.]+ s at", why)
    total, *parts = (float(x) for x in re.findall(r"([\d.]+) s\b", why.split("The TPOT of ", 1)[1]))
    assert total == pytest.approx(sum(parts), rel=0.01) and len(parts) == 5 and " ms " not in why.split("The TPOT")[1]
    # the compute time's rate and where it comes from: MI355X's 5,000 TFLOP/s fp8 peak x the AMD prior's 45 %
    # (no microbenchmark of the chip published) x the typical profile's 60 % = 1,350 TFLOP/s, below B200's 2,430
    # (4,500 x NVIDIA's 90 % x 60 %): why its compute time is the longer one despite the higher peak
    for hw, rate, reached, peak in (("mi355x", "1,350", "2,250", "5,000"), ("b200", "2,430", "4,050", "4,500")):
        at = run_page("overview", hardware=hw)
        (why,) = [m.value.split("\n\n")[1] for m in at.markdown if "\n\nWhy: each decode step reads" in m.value]
        assert (
            f" ms at {rate} TFLOP/s of fp8 GEMM: the profile's share of the {reached} TFLOP/s the chip reaches (the "
            f"chip family's prior: no microbenchmark published for this chip), its peak {peak} TFLOP/s."
        ) in why


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_pages_say_what_a_models_own_runs_measured_when_no_fit_has_seen_it(lang):
    """DeepSeek-V4-Pro on 8 x MI355X: the 80% band (10.0-17.3 ms around 13.6 ms) rests on other models'
    measurements, while V4's own 9 published single-node runs (the transfer check, data/disaggregated_check.json)
    measured 2.02x the modelled TPOT (median of model / measured 0.50): a notice under each page's scenario line says
    so (it had been the last sentence of the band's grey caption), on every page that shows the model's numbers.
    DeepSeek-R1, which the serving fit has seen, has none."""
    tr = Translator(lang)
    check = json.loads((ROOT / "data" / "disaggregated_check.json").read_text(encoding="utf-8"))
    single = check["transfer"]["single_node"]["deepseek-v4-pro"]
    assert single["runs"] == 9 and f"{1 / single['median_tpot_ratio']:.2f}" == "2.02"
    want = tr("model_transfer", model="DeepSeek-V4-Pro", runs=9, measured="2.02")
    scenario = dict(hardware="mi355x", gpus="8", weights="fp8", kv="fp8", batch="8", lang=lang)
    for page in ("overview", "kv_cache", "frontier", "hardware", "economics"):
        at = run_page(page, model="deepseek-v4-pro", **scenario)
        assert not at.exception, page
        assert [i.value for i in at.info].count(want) == 1, page
    r1 = run_page("overview", model="deepseek-r1", **scenario)
    assert not r1.exception and not [
        i for i in r1.info if tr("model_transfer", model="", runs=0, measured="")[:12] in i.value
    ]


def test_gpu_count_that_does_not_divide_the_heads_is_flagged():
    """Llama 3.1 70B has 64 attention heads: 3 GPUs cannot split them (2 or 4 can); 8 can, and says nothing."""
    at = run_page("overview", gpus="3")
    assert [i.value for i in at.info] == [EN("split_heads", gpus=3, model="Llama 3.1 70B", heads=64, options="2, 4")]
    assert not run_page("overview", gpus="8").info


def test_more_gpus_than_one_domain_says_the_collectives_cross_the_network():
    """16 H200s: two 8-GPU NVLink domains (450 GB/s); since issue 18 the collectives that cross them are costed on the
    NICs (catalog: one 400 Gb/s ConnectX-7 per GPU = 50 GB/s), and the notice says so; at 8, no notice."""
    at = run_page("overview", gpus="16")
    assert EN("scale_beyond_node", gpus=16, hw="NVIDIA H200 SXM 141GB", bw="450 GB/s", node=8, out="50.0 GB/s") in [
        i.value for i in at.info
    ]
    assert not run_page("overview", gpus="8").info


def test_a_chip_that_is_its_own_domain_or_lists_no_link_says_so():
    """GB10 (DGX Spark) is a scale-up domain of one: at 2 GPUs the notice had named a '32.0 GB/s per-GPU link' inside
    the domain, the PCIe default, where there is none; every collective crosses its 200 Gb/s ConnectX-7 (25.0 GB/s).
    Inferentia2 (12 chips to an Inf2 instance, NeuronLink-v2 of unpublished bandwidth): past 12 chips the link inside
    an instance is said to be assumed."""
    gb10 = [i.value for i in run_page("overview", hardware="gb10", gpus="2").info]
    assert EN("scale_own_domain", gpus=2, hw="NVIDIA GB10 (DGX Spark)", out="25.0 GB/s") in gb10
    assert not [v for v in gb10 if "32.0 GB/s" in v]
    inf2 = [i.value for i in run_page("overview", hardware="inferentia2", gpus="16").info]
    bw = EN("scale_link_assumed", bw="32.0 GB/s")
    assert EN("scale_beyond_node_chip", gpus=16, hw="AWS Inferentia2", bw=bw, node=12, out="50.0 GB/s") in inf2


WIDGET_KINDS = ("selectbox", "select_slider", "slider", "multiselect", "radio", "number_input", "checkbox", "toggle",
                "text_input", "button", "download_button", "tabs", "expander", "file_uploader")  # fmt: skip


def _widgets(at) -> int:
    return sum(len(at.get(kind)) for kind in WIDGET_KINDS)


@pytest.mark.parametrize("page", PAGES)
def test_embed_collapses_controls_and_keeps_downloads(page):
    """?embed=true: the sidebar's controls are not drawn (they wait, closed, in one expander at the top of the page);
    the URL's scenario still holds, and every chart keeps its downloads, in one section at the end of the page whose
    buttons are sent only once it is opened (a button costs the server about 1 ms a reader)."""
    at = run_page(page, embedded=True, batch="64", model="deepseek-v3")
    assert not at.exception, at.exception
    assert len(at.sidebar) == 0  # nothing in the sidebar: no sidebar, no toggle
    labels = [e.label for e in at.expander]
    if page in navigation.SCENARIO_FREE:  # browser review: Validation's embed offered controls it never reads
        assert EN("embed_controls") not in labels, labels
    else:
        assert labels[0] == EN("embed_controls")  # the first thing on the page, closed:
    keys = {getattr(w, "key", None) for kind in WIDGET_KINDS for w in at.get(kind)}
    assert not keys & {"model", "hardware", "gpus", "batch", "context", "price", "lang"}  # their widgets not sent
    charts = len(figures(at))
    if not charts:  # Glossary: no chart, no downloads section
        assert not any(lb.startswith(EN("embed_downloads_one")[:12]) for lb in labels), labels
        return
    # every chart's downloads wait in one closed section under the controls: its buttons are sent once it is opened
    downloads = labels[0 if page in navigation.SCENARIO_FREE else 1]
    assert downloads == (EN("embed_downloads", n=charts) if charts > 1 else EN("embed_downloads_one"))
    assert not {b.proto.id for b in at.get("download_button")} & {f"csv-{c}" for c in ("roofline", "memory")}
    at.session_state["embed.downloads"] = True
    at.run()
    assert not at.exception, at.exception
    buttons = at.get("download_button")
    assert sum(b.label == EN("download_html") for b in buttons) == charts  # each chart's HTML
    zip_label = EN("download_zip_two") if charts == 2 else EN("download_zip", n=charts)  # 'both', not 'all 2'
    assert sum(b.label == zip_label for b in buttons) == (charts > 1)  # and the zip of them all
    assert at.session_state["batch"] == 64 and at.session_state["model"] == "deepseek-v3"


@pytest.mark.parametrize(("page", "chart_id"), [("roofline", "roofline"), ("overview", "memory"), ("cost", "frontier")])
@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_embed_only_draws_that_chart_alone(page, chart_id, lang):
    """?embed=true&only=<chart id>: that chart and its caption (scenario, link to the full view), nothing else."""
    tr = Translator(lang)
    at = run_page(page, embedded=True, only=chart_id, lang=lang, model="deepseek-v3", hardware="b200", gpus="8")
    assert not at.exception, at.exception
    payloads = [json.loads(el.proto.bytes) for el in at.get("bidi_component") if el.proto.bytes]
    assert len(payloads) == 1 and payloads[0]["export"]["filename"].startswith(f"{chart_id}_deepseek-v3_8xb200_")
    assert _widgets(at) == 0 and len(at.sidebar) == 0
    assert not at.metric and not at.markdown and not at.title and not at.get("arrow_data_frame")
    (caption,) = [c.value for c in at.caption]
    assert "DeepSeek" in caption and "8 × NVIDIA B200" in caption and f"[{tr('embed_full_view')}](?" in caption
    link = caption.split("](?", 1)[1]
    assert "model=deepseek-v3" in link and "only=" not in link and "embed=" not in link


@pytest.mark.parametrize("chart_id", sorted(CHART_SECTION))
def test_embed_only_draws_a_chart_from_a_closed_planner_tab(chart_id):
    """The planner computes only its open tab; a chart of another tab embedded alone had been refused (the page then
    drew in full with a notice naming only the first tab's charts, helper review): it runs that chart's tab."""
    at = run_page("planner", embedded=True, only=chart_id, model="deepseek-r1", hardware="b200", gpus="8",
                  weights="fp8", kv="fp8")  # fmt: skip
    assert not at.exception, at.exception
    payloads = [json.loads(el.proto.bytes) for el in at.get("bidi_component") if el.proto.bytes]
    assert len(payloads) == 1 and payloads[0]["export"]["filename"].startswith(f"{chart_id}_")
    assert not at.warning and _widgets(at) == 0


@pytest.mark.parametrize(("page", "key"), [("frontier", "frontier.hardware"), ("planner", "planner.target"),
                                          ("economics", "econ.chips"), ("cost", "cost.sweep")])  # fmt: skip
def test_embed_collapses_a_pages_own_controls_too(page, key):
    """A 900 x 700 wiki frame of /frontier showed only the page's own inputs: in the embed view they sit in one
    closed expander above the first chart (their values still hold); in the full view they are on the page."""
    at = run_page(page, embedded=True)
    assert not at.exception, at.exception
    (box,) = [e for e in at.expander if e.label == EN("embed_page_controls")]
    assert not {getattr(w, "key", None) for kind in WIDGET_KINDS for w in box.get(kind)}  # sent once it is opened
    at.session_state["embed.page_controls"] = True
    at.run()
    (box,) = [e for e in at.expander if e.label == EN("embed_page_controls")]
    assert key in {getattr(w, "key", None) for kind in WIDGET_KINDS for w in box.get(kind)}
    full = run_page(page)
    assert not full.exception and not [e for e in full.expander if e.label == EN("embed_page_controls")]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_embed_only_draws_a_chart_from_a_closed_section(lang):
    """The analysts' rack-scale comparison sits in a section that opens on demand; embedded alone
    (?only=rack-scale-vs-scale-out, the id its downloads are named by) it is drawn, not reported missing."""
    tr = Translator(lang)
    at = run_page("frontier", embedded=True, only="rack-scale-vs-scale-out", lang=lang, model="deepseek-r1",
                  weights="fp8", kv="fp8")  # fmt: skip
    assert not at.exception, at.exception
    assert not at.warning
    payloads = [json.loads(el.proto.bytes) for el in at.get("bidi_component") if el.proto.bytes]
    assert len(payloads) == 1 and payloads[0]["export"]["filename"].startswith(
        "rack-scale-vs-scale-out_deepseek-r1_gb200-b200-mi355x-vr200-mi455x-max72gpus_"
    )
    assert _widgets(at) == 0 and len(at.sidebar) == 0 and not at.get("arrow_data_frame")
    (caption,) = [c.value for c in at.caption]
    assert f"[{tr('embed_full_view')}](?" in caption and tr("export_price_each_chip", basis="")[:6] in caption


# the long pages' folds in the embed view: the string naming what is below each
FOLDS = {"breakdown": "embed_more_breakdown", "compare": "embed_more_compare", "cost": "embed_more_cost",
         "economics": "embed_more_economics",
         "frontier": "embed_more_frontier", "hardware": "embed_more_hardware", "methodology": "embed_more_methodology",
         "planner": "embed_more_planner",
         "validation": "embed_more_validation"}  # fmt: skip


def _shown(at) -> list:
    """What a run drew of the page: its charts' titles and its paragraphs."""
    return [f["layout"]["title"]["text"] for f in figures(at)] + [m.value for m in at.markdown]


@pytest.mark.parametrize("page", sorted(FOLDS))
@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_embed_runs_a_long_page_up_to_its_fold_and_the_rest_on_request(page, lang):
    """Issue 19 (fifty readers of one wiki link): in the embed view a long page is run and sent up to its fold (what
    a 900 x 700 frame shows: Cost's numbers and its cost chart); "Show the rest of this page: <what>" runs the rest,
    and so does a link with ?more=true. The full view has no fold."""
    tr = Translator(lang)
    link = dict(model="deepseek-v3", hardware="b200", gpus="8", batch="64", lang=lang)
    at = run_page(page, embedded=True, **link)
    assert not at.exception, at.exception
    more = at.toggle(key="embed.more")
    assert more.label == tr("embed_more", what=tr(FOLDS[page])) and more.value is False
    folded = _shown(at)
    more.set_value(True).run()
    assert not at.exception, at.exception
    whole = _shown(at)
    assert len(whole) > len(folded) and set(folded) <= set(whole)
    by_link = run_page(page, embedded=True, more="true", **link)
    assert _shown(by_link) == whole and by_link.toggle(key="embed.more").value is True
    full = run_page(page, **link)
    assert not full.exception and "embed.more" not in [t.key for t in full.toggle]
    assert [f["layout"]["title"]["text"] for f in figures(full)] == [f["layout"]["title"]["text"] for f in figures(at)]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_embed_more_with_a_bad_value_says_so_and_stops_at_the_fold(lang):
    """The notice stands above the page, with the link's other notices (under the first chart, it was missed)."""
    at = run_page("cost", embedded=True, more="perhaps<b>", lang=lang)
    assert not at.exception
    assert [w.value for w in at.warning] == [Translator(lang)("embed_more_bad", given="perhapsb")]
    assert at.toggle(key="embed.more").value is False and len(_payloads(at)) == 1

    def in_order(block):
        for e in block.children.values():
            yield e
            if hasattr(e, "children"):
                yield from in_order(e)

    kinds = [type(e).__name__ for e in in_order(at.main) if type(e).__name__ in ("Warning", "Title")]
    assert kinds == ["Warning", "Title"]


def test_embed_fold_on_cost_keeps_the_numbers_and_the_cost_chart():
    """Cost's embed view before its fold: the headline numbers and the cost chart, not the four charts below (their
    downloads come with them); the full view's link leaves ?more out."""
    at = run_page("cost", embedded=True, model="deepseek-v3", hardware="b200", gpus="8", more="false")
    assert not at.exception
    assert [f["export"]["filename"].split("_")[0] for f in _payloads(at)] == ["cost-by-batch"]
    assert any("headline-row" in m.value for m in at.markdown)
    # a chart below the fold embedded alone is drawn; its link to the full view leaves the embed's ?more out
    alone = run_page("cost", embedded=True, only="cost-heatmap", more="true", model="deepseek-v3")
    assert [f["export"]["filename"].split("_")[0] for f in _payloads(alone)] == ["cost-heatmap"]
    link = alone.caption[0].value.split("](?", 1)[1]
    assert "model=deepseek-v3" in link and "more=" not in link and "only=" not in link


def test_embed_leaves_the_links_url_as_it_is_until_the_scenario_changes():
    """A wiki reader's run of its link sends no URL rewrite (one message and ~0.5 ms of server time a reader): the
    link already says the scenario. A change in the embed's controls writes the whole scenario, as the full view
    does on its first run."""
    link = dict(model="deepseek-v3", hardware="b200", gpus="8", batch="64")
    at = run_page("cost", embedded=True, **link)
    assert not at.exception
    assert dict(at.query_params) == link
    at.session_state["batch"] = 32
    at.run()
    assert at.query_params["batch"] == "32" and at.query_params["kv"]  # the whole scenario, changed
    full = run_page("cost", **link)
    assert full.query_params["batch"] == "64" and full.query_params["kv"]


def _payloads(at) -> list[dict]:
    return [json.loads(el.proto.bytes) for el in at.get("bidi_component") if el.proto.bytes]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_embed_only_unknown_chart_says_so_and_falls_back(lang):
    at = run_page("roofline", embedded=True, only="no-such-chart", lang=lang)
    assert not at.exception
    (warning,) = [w.value for w in at.warning]
    assert warning == Translator(lang)("embed_only_unknown", given="no-such-chart", charts="roofline")
    assert len(figures(at)) == 1 and _headline_cells(at)  # the whole embed view, its headline numbers
    ignored = run_page("roofline", only="roofline")  # not embedded: the whole page
    assert not ignored.exception and ignored.metric and not ignored.warning


def test_chart_bundle_is_plotly_pythons_plotly_js():
    """The plotly.js build the charts draw with is the version the installed plotly serialises figures for."""
    from plotly.offline import get_plotlyjs_version

    from ui import chart

    bundle = ROOT / "static" / chart.PLOTLY_JS
    assert f"v{get_plotlyjs_version()}" in bundle.read_text(encoding="utf-8")[:200]
    assert f"plotly-cartesian-{get_plotlyjs_version()}.min.js" == chart.PLOTLY_JS
    for lang, name in chart.PLOTLY_LOCALES.items():  # its translations: the same release, registering `lang`
        assert name == f"plotly-locale-{lang.lower()}-{get_plotlyjs_version()}.js"
        assert f'name:"{lang}"' in (ROOT / "static" / name).read_text(encoding="utf-8")


def test_chart_elements_carry_no_translations_nor_escaped_slashes():
    """Wiki readers (issue 19): the chart code sent with each chart element leaves out plotly.js's zh-TW
    translations (the browser loads them from static/ once, for a zh-TW chart) and its comments (11 KB a chart ->
    ~6.5 KB, with the code that puts a long title on as many lines as it needs; ~7.3 KB with the code that draws a
    chart's changes for wider frames, common.for_wider: Hardware's labels where a frame has room); the figure's
    JSON writes '/' as itself (plotly's \\u002f, for HTML, cost 6 bytes a '/' of the base64 arrays) and parses to
    the same figure. Since 2026-12-07 the chart's code is a module served from static/ (static/plotly_chart.js),
    imported once per browser page by a loader of about 1 KB (it tries a failed import again), the only code an element carries: its version the
    module's hash, so a changed module is fetched anew; the module names the plotly.js files ui.chart serves."""
    import hashlib

    from ui import chart

    at = run_page("cost", embedded=True, more="true")  # the whole page: its five charts
    elements = [el.proto for el in at.get("bidi_component") if el.proto.component_name == chart.CHART_COMPONENT]
    assert len(elements) == 5
    module = chart.CHART_MODULE.read_text(encoding="utf-8")
    version = hashlib.sha256(module.encode()).hexdigest()[:12]
    for el in elements:
        assert 'moduleType:"locale"' not in el.js_content and "//" not in el.js_content.splitlines()[0]
        assert len(el.js_content.encode()) < 1200 and f'app/static/plotly_chart.js?v={version}"' in el.js_content
        assert b"\\u002f" not in el.bytes
    assert f'const PLOTLY_FILE = "{chart.PLOTLY_JS}";' in module
    assert f"const PLOTLY_LOCALES = {json.dumps(chart.PLOTLY_LOCALES).replace('{', '{ ').replace('}', ' }')};" in module
    assert all((chart.CHART_MODULE.parent / f).is_file() for f in (chart.PLOTLY_JS, *chart.PLOTLY_LOCALES.values()))
    heat = json.loads(elements[-1].bytes)["figure"]["data"][-2]
    assert heat["type"] == "heatmap" and "/" in heat["customdata"]["bdata"]


def test_chart_payload_is_the_figure_with_translated_labels():
    at = run_page("overview", lang="zh-TW")
    payload = next(json.loads(el.proto.bytes) for el in at.get("bidi_component") if el.proto.bytes)
    zh = Translator("zh-TW")
    assert payload["labels"] == {"fullscreen": "全螢幕", "load_error": zh("chart_load_error"), "png": zh("chart_png"),
                                 "svg": zh("chart_svg")}  # fmt: skip
    title = payload["export"]["decor"]["layout"]["title"]["text"]  # the PNG / SVG: scenario under the title
    assert title.startswith(payload["figure"]["layout"]["title"]["text"]) and "批次 32" in title
    assert payload["export"]["decor"]["annotation"]["text"].startswith(
        "資料來源：TPOT 儀表板"
    )  # the app's name in zh-TW too
    assert payload["config"] == {"displaylogo": False, "responsive": True, "showSendToCloud": False, "locale": "zh-TW"}
    english = run_page("overview", lang="en")
    payload = next(json.loads(el.proto.bytes) for el in english.get("bidi_component") if el.proto.bytes)
    assert payload["config"] == {"displaylogo": False, "responsive": True, "showSendToCloud": False}
    assert payload["figure"]["data"][0]["type"] == "bar"  # TPOT against the targets, first on the page


VIEWS = [(p, {}) for p in PAGES] + [
    ("planner", {"planner_section": s}) for s in ("gpus", "capacity", "speculative", "levers")
]


@pytest.mark.parametrize(("page", "query"), VIEWS)
def test_figures_serialise_the_same_without_plotly_validation(page, query, monkeypatch):
    """The app builds figures without Plotly's property checks (ui.figures.common.Figure); the tests build them with
    the checks on. Both must give the same figures."""
    from ui.figures import common

    assert common.VALIDATE  # conftest turns the checks on
    checked = figures(run_page(page, **query))
    monkeypatch.setattr(common, "VALIDATE", False)
    assert figures(run_page(page, **query)) == checked


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_overview_headline_ttft_is_per_request_and_the_whole_batch_prefill_is_named(lang):
    """Llama-3.1-70B FP8 on 2 x H200, 32 x 4K prompts (issue 19): the headline TTFT is what one user waits under
    continuous batching (~0.3 s), not the 9.4 s prefill of all 32 prompts, which is named as such beside it."""
    from tpot_model import Scenario, estimate, resolve_hardware, resolve_model, resolve_profile
    from ui import fmt

    tr = Translator(lang)
    est = estimate(
        resolve_model("llama-3.1-70b"),
        resolve_hardware("h200"),
        Scenario(batch=32, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8"),
        resolve_profile("typical"),
    )
    per_request, whole = float(est.ttft_per_request_s), float(est.batch_prefill_s)
    assert per_request < 0.5 < 5.0 < whole
    at = run_page("overview", lang=lang)
    (ttft,) = [m for m in at.metric if m.label == tr("m_ttft")]
    assert ttft.value == fmt.duration(per_request, tr=tr)
    assert fmt.duration(whole, tr=tr) in ttft.proto.help and tr("m_batch_prefill") in ttft.proto.help
    (serve,) = [m for m in at.metric if m.label == tr("m_serve", n=fmt.tokens(1024))]
    # the steady state's inter-token time, named in the help (the static TPOT beside it had read 23.2 s, not 33.0;
    # 32.7 since a request's decode steps prefill the other 31 requests' prompts, not 32)
    assert serve.value == fmt.duration(per_request + 1023 * float(est.serving.tpot_s), tr=tr) == "32.7 " + tr("unit_s")
    assert fmt.ms(float(est.serving.tpot_s)) in serve.proto.help
    at.session_state["explain.overview"] = True  # 'how is each number above computed?': both, each in its row
    at.run()
    (how,) = [e for e in at.expander if e.label == tr("how_computed_all")]
    rows = how.markdown[0].value.splitlines()
    assert any(r.startswith(f"| {tr('m_batch_prefill')} |") and fmt.duration(whole, tr=tr) in r for r in rows)
    assert any(r.startswith(f"| {tr('m_ttft')} |") and fmt.duration(per_request, tr=tr) in r for r in rows)
    assert tr("m_ttft") != tr("m_batch_prefill")


R1_ON_ONE_H100 = dict(model="deepseek-r1", hardware="h100-sxm", gpus="1", weights="bf16", kv="bf16")


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_scenario_that_does_not_fit_greys_its_headline_numbers_if_it_fitted(lang):
    """DeepSeek-R1 BF16 on one H100 (1.3 TB of weights on 80 GB, issue 19): under the red banner the speeds and the
    cost are what the chip would reach if it fitted, greyed and marked so; memory and the GPU count stay plain (they
    are the real answer). A scenario that fits shows plain numbers."""
    tr = Translator(lang)
    at = run_page("overview", lang=lang, **R1_ON_ONE_H100)
    assert at.error  # the does-not-fit notice with its remedies
    by_label = {m.label: m for m in at.metric}
    for key in ("m_tpot", "m_tps_user", "m_tps_total", "m_ttft", "m_cost"):
        m = by_label[tr(key)]
        assert m.value.startswith(":gray[") and m.value.endswith("]"), (key, m.value)
        assert m.proto.delta == tr("if_fitted"), key
    for key in ("m_memory", "m_min_gpus"):
        assert not by_label[tr(key)].value.startswith(":gray["), key
    fits = run_page("overview", lang=lang)
    assert not any(m.value.startswith(":gray[") for m in fits.metric)
    assert all(tr("if_fitted") not in (m.proto.delta, m.proto.delta_description) for m in fits.metric)


def test_the_cost_line_gives_the_all_in_and_the_board_power_j_per_token():
    """Overview's line under the cost: J per token at all-in power and at board power alone (Compare's table and
    Methodology give the board figure: 0.978 J beside Overview's 1.91 J, with nothing saying they differ in basis).
    Default scenario: Llama 3.1 70B fp8 on 2 x H200 at batch 32; per GPU 1,432 / 2 tok/s; H200 board 700 W."""
    from tpot_model import estimate, resolve_hardware, resolve_model, resolve_profile
    from ui import fmt
    from ui.state import ScenarioState

    at = run_page("overview")
    est = estimate(resolve_model("llama-3.1-70b"), resolve_hardware("h200"), ScenarioState().to_scenario(),
                   resolve_profile("typical"))  # fmt: skip
    per_gpu = float(est.tokens_per_s_per_gpu)
    want = EN("j_all_in", j=fmt.number(est.all_in_w_per_gpu / per_gpu), board=f"{fmt.number(700.0 / per_gpu)} J")
    assert est.hardware.tdp_w == 700.0 and any(want in c.value for c in at.caption)
    assert fmt.number(700.0 / per_gpu) == fmt.number(float(est.joules_per_token))  # Compare's board figure


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_roofline_and_breakdown_say_a_scenario_that_does_not_fit_is_a_what_if(lang):
    """Under the red banner, Roofline's intensity, MBU and MFU are greyed 'if it fitted' (the ridge point, the chip's
    own, stays plain) and Breakdown's decomposition says so in its title: they had read as plain figures (helper
    review: 'TPOT (total) 344.2', 'MBU 60.1%' with nothing saying the scenario does not fit)."""
    tr = Translator(lang)
    roof = run_page("roofline", lang=lang, **R1_ON_ONE_H100)
    assert roof.error and not roof.exception
    by_label = {m.label: m for m in roof.metric}
    for key in ("roofline_m_intensity", "roofline_m_mbu", "roofline_m_mfu"):
        assert by_label[tr(key)].value.startswith(":gray[") and by_label[tr(key)].proto.delta == tr("if_fitted"), key
    (ridge,) = [m for label, m in by_label.items() if label.startswith(tr("roofline_m_ridge", precision="\0")[:6])]
    assert not ridge.value.startswith(":gray[")
    chip = tr("roofline_chart_title", hw="NVIDIA H100 SXM5 80GB")  # and the chart's title (re-review)
    # zh-TW: the mark inside the title's own bracket, not a second pair after it ('（每張 GPU）（若放得下）')
    what_if = {"en": f"{chip}, if it fitted", "zh-TW": "NVIDIA H100 SXM5 80GB 屋頂線圖（每張 GPU，若放得下）"}[lang]
    assert what_if in [f["layout"]["title"]["text"] for f in figures(roof)]
    title = {"en": "This scenario's decomposition, if it fitted", "zh-TW": "本情境的拆解（若放得下）"}[lang]
    assert title in [h.value for h in run_page("breakdown", lang=lang, **R1_ON_ONE_H100).subheader]
    assert tr("breakdown_table_title") in [h.value for h in run_page("breakdown", lang=lang).subheader]
    assert not any(m.value.startswith(":gray[") for m in run_page("roofline", lang=lang).metric)


def _headline_cells(at) -> list[str]:
    """The embed view's headline numbers: the cells of the one element that draws a row of them."""
    rows = [m.value for m in at.markdown if 'class="headline-row"' in m.value]
    return [cell for row in rows for cell in row.split('<div class="headline-number"')[1:]]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_embed_view_draws_a_row_of_headline_numbers_as_one_element(lang):
    """In the embed view (fifty wiki readers of one link) a row of headline numbers is one element, not an st.metric
    each: the same labels, values and notes in the same order, each definition as its label's hover text; a
    what-if value greyed as in the full view. The full view keeps st.metric (its help popover)."""
    tr = Translator(lang)
    full = run_page("overview", lang=lang, model="deepseek-v3", hardware="b200", gpus="8", weights="fp8")
    at = run_page("overview", embedded=True, lang=lang, model="deepseek-v3", hardware="b200", gpus="8", weights="fp8")
    assert not at.exception and not at.metric
    cells = _headline_cells(at)
    assert len(cells) == len(full.metric) == 8
    for cell, m in zip(cells, full.metric, strict=True):
        assert f">{html.escape(m.label)}</span>" in cell and f">{html.escape(m.value)}</div>" in cell, m.label
        assert f'title="{html.escape(m.help)}"' in cell and (m.proto.delta or "") in cell, m.label
    assert "padding-bottom:4px;color:" not in "".join(cells)  # no value greyed: it fits
    what_if = _headline_cells(run_page("overview", embedded=True, lang=lang, **R1_ON_ONE_H100))
    tpot = next(c for c in what_if if f">{tr('m_tpot')}</span>" in c)
    assert "padding-bottom:4px;color:#686255" in tpot and tr("if_fitted") in tpot


def test_an_embed_views_row_of_numbers_wraps_into_even_rows():
    """In a 900 px frame (740 px of content: three numbers of 220 px fit) Roofline's four read 3 + 1 and Overview's
    eight 3 + 3 + 2; at 1400 px Overview's read 5 + 3. The row is a grid whose columns a container query a width
    sets: the most numbers that divide the row evenly, where that is more than half of what fits (4: 2 + 2 or 4;
    8: 2 + 2 + 2 + 2 or 4 + 4), else as few rows as hold them (5 where 3 fit: 3 + 2)."""
    from ui import metrics

    assert [metrics.per_row(4, fit) for fit in range(1, 5)] == [1, 2, 2, 4]
    assert [metrics.per_row(8, fit) for fit in range(1, 9)] == [1, 2, 2, 4, 4, 4, 4, 8]
    assert [metrics.per_row(6, fit) for fit in range(1, 7)] == [1, 2, 3, 3, 3, 6]  # Planner's wide six: 3 + 3
    assert [metrics.per_row(5, fit) for fit in range(1, 6)] == [1, 2, 3, 3, 5]
    assert [metrics.per_row(3, fit) for fit in range(1, 4)] == [1, 2, 3]

    def row(page: str) -> str:
        (html_row,) = [m.value for m in run_page(page, embedded=True).markdown if 'class="headline-row"' in m.value]
        return html_row

    def query(n: int, fit: int, k: int) -> str:  # fit numbers of 220 px and the gaps between them: k a row
        return f"@container (min-width:{fit * 220 + (fit - 1) * 16}px){{.headline-grid-{n}-220{{grid-template-columns:repeat({k},220px)}}}}"

    overview, roofline = row("overview"), row("roofline")
    assert query(8, 3, 2) in overview and query(8, 5, 4) in overview and overview.count("@container") == 7
    assert query(4, 3, 2) in roofline and query(4, 4, 4) in roofline
    assert ".headline-grid-4-220{display:grid;gap:16px;grid-template-columns:220px}" in roofline  # one, narrower
    assert len(_headline_cells(run_page("overview", embedded=True))) == 8


def test_readers_of_one_link_share_the_estimate_and_figure(monkeypatch):
    """Two sessions opening the same link: the second reuses the first's estimate and roofline figure (built once
    per server for the scenario, ui.cache); a changed scenario builds its own."""
    import tpot_model
    from ui import cache, chart
    from ui.figures import roofline as roofline_figs

    monkeypatch.setattr(chart, "CHECK_CACHED", False)  # counts builds: no check build
    calls = {"estimate": 0, "figure": 0}
    estimate, roofline = tpot_model.estimate, roofline_figs.roofline

    def counted(name, fn):
        def wrapper(*a, **k):
            calls[name] += 1
            return fn(*a, **k)

        return wrapper

    monkeypatch.setattr(cache, "model_estimate", counted("estimate", estimate))
    monkeypatch.setattr(roofline_figs, "roofline", counted("figure", roofline))
    link = dict(model="qwen3-32b", hardware="mi300x", gpus="4", batch="12", context="6144", profile="vllm")
    first = run_page("roofline", embedded=True, **link)
    after_first = dict(calls)
    second = run_page("roofline", embedded=True, **link)
    assert not first.exception and not second.exception
    assert after_first["figure"] == 1 and after_first["estimate"] >= 1
    assert calls == after_first  # the second reader computed nothing
    assert figures(first) == figures(second)
    run_page("roofline", embedded=True, **{**link, "batch": "24"})
    assert calls["figure"] == 2 and calls["estimate"] > after_first["estimate"]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_bare_fp4_says_which_block_format_it_is_taken_as(lang):
    """Issue 19: 'fp4' on a B200 is NVFP4 at 4.5 bits (scales included), on an MI355X MXFP4 at 4.25; the page says
    so, and its memory reads the block format's bytes."""
    tr = Translator(lang)
    for hw, name, bits in (("b200", "NVFP4", "4.5"), ("mi355x", "MXFP4", "4.25")):
        at = run_page("overview", lang=lang, hardware=hw, gpus="1", weights="fp4")
        assert not at.exception
        from tpot_model import resolve_hardware

        assert tr("notice_fp4", fmt=name, bits=bits, hw=resolve_hardware(hw).name) in [i.value for i in at.info]
    assert not any("NVFP4" in i.value for i in run_page("overview", lang=lang, hardware="b200", weights="nvfp4").info)
    # a chip without FP4 units (H200) is not said to have a block format of its own: FP4 is storage there
    at = run_page("overview", lang=lang, hardware="h200", weights="fp4")
    infos = [i.value for i in at.info]
    assert tr("notice_fp4_storage", fmt="NVFP4", bits="4.5", hw=resolve_hardware("h200").name) in infos
    assert tr("notice_fp4", fmt="NVFP4", bits="4.5", hw=resolve_hardware("h200").name) not in infos


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_profile_control_says_which_fields_are_fitted_and_which_inherited(lang):
    """Issue 19: the sidebar's engine profile help names the fields fitted to measurements, the documented ones and
    those inherited from Typical (vLLM's MoE step cost among them)."""
    tr = Translator(lang)
    at = run_page("overview", lang=lang, profile="vllm")
    help_text = at.sidebar.selectbox(key="profile").help
    assert tr("profile_basis_fitted", fields="flops_efficiency") in help_text
    inherited = tr("profile_basis_inherited", fields="\0").split("\0")[0]
    assert inherited in help_text and "moe_layer_overhead_us" in help_text.split(inherited)[1]
    assert (
        tr("profile_basis_fitted", fields="")[:6]
        not in run_page("overview", lang=lang).sidebar.selectbox(key="profile").help
    )  # typical: no per-field basis


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("hw", ["tpu7x", "trainium2"])
def test_overview_calls_tpus_and_trainium_chips(lang, hw):
    """Issue 19: Overview's memory chart (title, axis) and its memory and minimum-count metrics say chips for a TPU or
    Trainium in the sidebar (fmt.device_kind), GPUs for a GPU."""
    tr = Translator(lang)
    at = run_page("overview", lang=lang, hardware=hw)
    assert not at.exception
    words = chart_texts(at)
    assert not [w for w in words if "GPU" in w], words
    assert tr("ov_memory_title_chip") in words and tr("axis_gb_per_gpu_chip") in words
    labels = [m.label for m in at.metric]
    assert tr("m_memory_chip") in labels and tr("m_min_gpus_chip") in labels
    at.session_state["explain.overview"] = True  # open 'how is each number above computed?'
    at.run()
    (how,) = [e for e in at.expander if e.label == tr("how_computed_all")]
    assert f"| {tr('m_memory_chip')} |" in how.markdown[0].value
    assert any(f"\n\n{tr('ov_why_chip').split('{')[0]}" in md.value for md in at.markdown)
    gpu = run_page("overview", lang=lang, hardware="h200")
    assert tr("ov_memory_title") in chart_texts(gpu) and tr("m_memory") in [m.label for m in gpu.metric]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_sidebar_and_price_notices_say_chip_hour_for_a_tpu_or_trainium(lang):
    """Issue 19: with Trainium2 in the sidebar (no public hyperscaler price), the sidebar's own-price box, its help
    texts, the no-public-price notice and its button, and a does-not-fit error say chip(-hour), not GPU(-hour);
    with a GPU they keep GPU."""
    from tests.apptest_util import visible_texts

    tr = Translator(lang)
    at = run_page("overview", lang=lang, hardware="trainium2", price_basis="hyperscaler")
    assert not at.exception
    assert at.sidebar.number_input(key="price").label == tr("control_price_chip")
    assert at.sidebar.select_slider(key="gpus").help == tr("help_gpus_chip")
    assert at.sidebar.selectbox(key="price_basis").help == tr("help_price_basis_chip")
    notice = {  # the one basis that prices it named; your own price in the chip's word
        "en": "No public price for AWS Trainium2 under the basis 'Hyperscaler TCO': the figures that need its "
        "$/chip-hour (the cost per 1M tokens and those built on it) are not shown. Enter your own $/chip-hour in the sidebar, or set "
        "the sidebar's price basis to On-demand cloud.",
        "zh-TW": "AWS Trainium2 在「超大規模業者 TCO」價格基準下沒有公開價格：需要其每晶片小時價格的數字（每百萬 Token 成本"
        "及以其計算的數字）不顯示。請在側邊欄輸入自訂的每晶片小時價格，或在側邊欄改選以下任一價格基準：雲端隨需。",
    }[lang]
    assert notice in [i.value for i in at.info]
    assert tr("enter_own_price_chip") in [b.label for b in at.button]
    assert not [t for t in visible_texts(at) if "GPU" in t]
    big = run_page("overview", lang=lang, hardware="tpu7x", model="llama-3.1-405b", weights="bf16", gpus="1")
    (error,) = [e.value for e in big.error]
    assert error.startswith(tr("does_not_fit_chip").split("{")[0]) and "GPU" not in error
    gpu = run_page("overview", lang=lang, hardware="h200")
    assert gpu.sidebar.number_input(key="price").label == tr("control_price")
    assert gpu.sidebar.select_slider(key="gpus").help == tr("help_gpus")


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_overview_cost_help_and_how_computed_say_chip_hour_for_a_tpu_or_trainium(lang):
    """Issue 19: on Trainium2 (a public on-demand price) Overview's $ per 1M tokens help read '$/GPU-hour × GPUs' and
    its 'how is it computed?' formulas (memory per GPU, minimum GPUs, $ per 1M tokens) 'per GPU'; they say chip
    (zh-TW 晶片); on an H200 they keep GPU."""
    from tpot_model import Scenario, estimate, resolve_hardware, resolve_model, resolve_profile
    from ui import explain

    tr = Translator(lang)
    at = run_page("overview", lang=lang, hardware="trainium2", gpus="8")
    assert not at.exception
    (cost,) = [m for m in at.metric if m.label == tr("m_cost")]
    assert cost.help.startswith(tr("m_cost_def_chip", with_prefill="\0").split("\0")[0])
    assert "GPU" not in cost.help

    def formulas(hw: str) -> list[str]:
        est = estimate(resolve_model("llama-3.1-70b"), resolve_hardware(hw),
                       Scenario(batch=32, context_tokens=4096, output_tokens=1024, num_gpus=8, weights="fp8"),
                       resolve_profile("typical"))  # fmt: skip
        return [t for i in explain.headline(est, tr) for t in (tr(i.key, **i.key_values), i.formula, i.substituted)]

    chip = formulas("trainium2")
    assert tr("ex_cost_chip") in chip and tr("ex_memory_chip") in chip and tr("ex_min_gpus_chip") in chip
    assert not [t for t in chip if "GPU" in t]
    gpu = formulas("h200")
    assert tr("ex_cost") in gpu and tr("ex_memory") in gpu
    gpu_at = run_page("overview", lang=lang, hardware="h200")
    (cost,) = [m for m in gpu_at.metric if m.label == tr("m_cost")]
    assert cost.help.startswith(tr("m_cost_def", with_prefill="\0").split("\0")[0])


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_overview_explains_every_headline_number_in_one_expander_sent_only_when_open(lang):
    """Overview's 'how is each number above computed?' is one expander (it had been ten, one per number: ten
    elements on every run); closed, its content is not sent; open, it holds every headline number's name, formula,
    values and result, as ui.explain.headline works them out."""
    from tpot_model import Scenario, estimate, resolve_hardware, resolve_model, resolve_profile
    from ui import explain

    tr = Translator(lang)
    at = run_page("overview", lang=lang)
    assert not at.exception
    est = estimate(
        resolve_model("llama-3.1-70b"),
        resolve_hardware("h200"),
        Scenario(batch=32, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8"),
        resolve_profile("typical"),
    )  # fmt: skip (the sidebar's default scenario)
    items = explain.headline(est, tr)
    labels = [e.label for e in at.expander]
    assert not {tr("how_computed", what=tr(i.key, **i.key_values)) for i in items} & set(labels)
    (how,) = [e for e in at.expander if e.label == tr("how_computed_all")]
    assert not how.markdown
    at.session_state["explain.overview"] = True
    at.run()
    (how,) = [e for e in at.expander if e.label == tr("how_computed_all")]
    text = how.markdown[0].value
    rows = text.splitlines()
    assert len(items) >= 8 and len(rows) == len(items) + 2  # header, rule, one row per number
    assert rows[0] == f"| {tr('how_col_number')} | {tr('formula')} | {tr('with_values')} | {tr('result')} |"
    for i, row in zip(items, rows[2:], strict=True):
        cells = [c.strip() for c in row.strip("|").split(" | ")]
        assert cells == [tr(i.key, **i.key_values), " ".join(i.formula.split()), " ".join(i.substituted.split()),
                         f"**{i.result}**"]  # fmt: skip


def test_json_slashes_keeps_an_escaped_backslash_before_u002f():
    """'/' written as itself, in both paths: the plain replace (no escaped backslash in the text) and the pattern
    (a text '\\\\u002f' is a backslash then 'u002f', kept as it is); the result parses to the same value."""
    from ui.chart import _json_slashes

    for value in ["a/b/c", ["x/y", "back\\slash /", "\\u002f literal"]]:
        text = json.dumps(value).replace("/", "\\u002f")
        out = _json_slashes(text)
        assert json.loads(out) == value and "\\u002f" not in out.replace("\\\\u002f", "")


def test_a_page_run_freezes_what_the_server_loaded_out_of_the_collectors_reach():
    """After a page run, the objects the process had loaded are frozen (gc.freeze, once per process): a full
    collection then walks only what sessions made (fifty readers had paused for five ~130 ms collections)."""
    import gc

    at = run_page("roofline")
    assert not at.exception
    assert gc.get_freeze_count() > 10_000


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("page", ["overview", "roofline", "cost", "planner"])
def test_an_announced_chip_is_said_to_be_a_projection(page, lang):
    """Issue 18: an announced part (Vera Rubin) in the sidebar: the page says its figures are vendor claims and its
    numbers projections (the sidebar's '(announced)' alone was easy to miss); a shipping chip gets no such notice."""
    tr = Translator(lang)
    at = run_page(page, hardware="vr200", gpus="8", lang=lang)
    assert not at.exception, at.exception
    said = tr("announced_notice", hw="NVIDIA Rubin (per GPU, Vera Rubin NVL72)")
    assert said in [i.value for i in at.info]
    shipping = run_page(page, hardware="b200", gpus="8", lang=lang)
    assert not any(i.value == tr("announced_notice", hw="NVIDIA B200 (HGX, 1000 W)") for i in shipping.info)


def test_an_announced_chips_single_chart_embed_names_it_announced():
    """The single-chart embed's caption (and every export's scenario) names an announced chip '(announced)'."""
    at = run_page("roofline", embedded=True, only="roofline", hardware="vr200", gpus="8")
    assert not at.exception, at.exception
    (caption,) = [c.value for c in at.caption]
    assert EN("hw_announced_name", name="NVIDIA Rubin (per GPU, Vera Rubin NVL72)") in caption


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_bad_link_value_names_what_is_used_instead_in_words_or_as_the_link_writes_it(lang):
    """'using h200 instead' read as a word and 'using — instead' as nothing: the value used is the one its control
    shows (the chip's name, the engine date's 'newest'), or 'the default' where the link's value is simply dropped (a
    bad price)."""
    tr = Translator(lang)
    at = run_page("overview", lang=lang, hardware="nope", as_of="yesterday", price="abc")
    assert not at.exception
    name = {p: control_name(tr(f"control_{p}"), p, tr) for p in ("hardware", "as_of", "price")}
    assert warning_lines(at) == [
        tr("notice_bad_param", name=name["hardware"], given="nope", used="NVIDIA H200 SXM 141GB"),
        tr("notice_bad_param", name=name["as_of"], given="yesterday", used=tr("as_of_newest")),
        tr("notice_bad_param_default", name=name["price"], given="abc"),
    ]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_sidebar_price_box_shows_one_price_and_its_help_every_basis(lang):
    """The custom-price box's placeholder is short enough for the sidebar ('公開價格：雲端隨需 $4.5' was cut): the
    chosen basis's published price (it showed the first basis's: TPU7x under Hyperscaler TCO read the Neocloud
    $1.21, not $1.03; helper review), 'no public price' when it has none; its help lists every published basis
    with its price, in the language's list style."""
    tr = Translator(lang)
    at = run_page("overview", lang=lang, hardware="h200")
    box = at.number_input(key="price")
    assert box.proto.placeholder == tr("price_placeholder", price="$4.54")  # on-demand, the default basis
    tpu = run_page("overview", lang=lang, hardware="tpu7x", price_basis="hyperscaler")
    assert tpu.number_input(key="price").proto.placeholder == tr("price_placeholder", price="$1.03")
    tpu = run_page("overview", lang=lang, hardware="tpu7x", price_basis="on_demand")
    assert tpu.number_input(key="price").proto.placeholder == tr("no_price")
    listed = tr.join([f"{tr('basis_on_demand')} $4.54", f"{tr('basis_neocloud')} $1.59",
                      f"{tr('basis_hyperscaler')} $1.22", f"{tr('basis_rental_3yr')} $2.90"])  # fmt: skip
    assert box.help == tr("help_price", prices=listed)


@pytest.mark.parametrize("page", PAGES)
def test_a_second_reader_of_a_link_builds_no_figure(page, monkeypatch):
    """Issue 19 (50 readers of one wiki link): each chart is built once per server for its scenario and the page's
    inputs, and shared, so the second reader of a link builds no figure and is shown the same ones (the check
    build of every cached chart, ui.chart.CHECK_CACHED, is off here: it would count)."""
    from ui import chart
    from ui.figures import common

    monkeypatch.setattr(chart, "CHECK_CACHED", False)
    built = []
    init = common.Figure.__init__

    def counted(self, *a, **k):
        built.append(type(self).__name__)
        init(self, *a, **k)

    monkeypatch.setattr(common.Figure, "__init__", counted)
    link = dict(model="qwen3-235b-a22b", hardware="h200", gpus="8", batch="24", context="3072")
    first = run_page(page, embedded=True, **link)
    after_first = len(built)
    second = run_page(page, embedded=True, **link)
    assert not first.exception and not second.exception
    assert len(built) == after_first, f"{page}: {len(built) - after_first} figures built again for the second reader"
    assert figures(first) == figures(second)


def _guarded_chart_script():
    """A chart whose figure reads session state `n`; `depends` says whether its cache key holds it (`keyed`)."""
    import streamlit as st

    from ui import chart
    from ui.figures.common import Figure
    from ui.i18n import EN

    n = st.session_state.get("n", 1)
    depends = n if st.session_state.get("keyed") else ()
    chart.figure(lambda: Figure().add_bar(x=[1], y=[n]), None, "guard-test", EN, about=None, depends=depends)


@pytest.mark.parametrize("keyed", [False, True])
def test_a_shared_chart_whose_key_misses_an_input_fails_in_the_tests(keyed):
    """The guard behind sharing charts between readers (ui.chart.CHECK_CACHED, on in the tests): a chart cached under
    a key that leaves out an input it reads is built again and compared, and the run fails instead of showing one
    reader another scenario's chart; with the input in its key, it runs."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_guarded_chart_script)
    at.session_state["keyed"] = keyed
    at.session_state["n"] = 1
    at.run()
    assert not at.exception
    at.session_state["n"] = 2
    at.run()
    assert bool(at.exception) is not keyed


# a view control of each page, a value other than its default, and the widget that shows it
VIEW_LINKS = [
    ("roofline", "roofline.overlay", "b200,mi355x", ["b200", "mi355x"]),
    ("breakdown", "breakdown.heatmap_metric", "fits", "fits"),
    ("kv_cache", "kv_cache.x_scale", "linear", "linear"),
    ("cost", "cost.sweep", "context", "context"),
    ("cost", "cost.cost_unit", "tokens_per_usd", "tokens_per_usd"),
    ("cost", "cost.target", "agents", "agents"),
    ("cost", "cost.heatmap_metric", "tps_gpu", "tps_gpu"),
    ("hardware", "hardware.vendors", "NVIDIA,AMD", ["AMD", "NVIDIA"]),
    ("hardware", "hardware.log_x", "1", True),
    ("validation", "validation.metric", "tpot_ms", "tpot_ms"),
    ("validation", "validation.include_all", "1", True),
    ("validation", "validation.mlperf_group", "engine", "engine"),
    ("glossary", "glossary.search", "KV", "KV"),
]


@pytest.mark.parametrize(("page", "key", "given", "value"), VIEW_LINKS)
def test_a_links_view_controls_come_back_and_a_change_is_written(page, key, given, value):
    """Every view is a link: a page's view control (an axis, what a heat map shows, the chips overlaid) is read from
    the link on the first visit and written back when it differs from its default (at the default the link leaves it
    out)."""
    from ui.page_state import VIEW_CONTROLS

    param = VIEW_CONTROLS[key][0]
    at = run_page(page, **{param: given})
    assert not at.exception and not [w.value for w in at.warning if "`" + param + "`" in w.value]
    shown = at.session_state[key]
    assert (sorted(shown) if isinstance(value, list) else shown) == value
    assert at.query_params[param] == given  # the link as given stays
    default = run_page(page)
    assert param not in default.query_params and default.session_state[key] != shown


def test_a_bad_view_link_value_is_named_and_the_default_kept():
    """A view control's bad value: a notice naming the parameter and what is used; the known chips of a list kept."""
    at = run_page("cost", ce_sweep="sideways")
    sweep = control_name(EN("ce_sweep"), "ce_sweep", EN)
    said = EN("notice_bad_param", name=sweep, given="sideways", used=EN("ce_sweep_batch"))
    assert warning_lines(at) == [EN.sentences([said, EN("notice_options", options="`batch` or `context`")])]
    assert at.session_state["cost.sweep"] == "batch" and "ce_sweep" not in at.query_params
    at = run_page("roofline", roof_overlay="b200,nope")
    overlay = control_name(EN("roofline_overlay"), "roof_overlay", EN)
    b200 = "NVIDIA B200 (HGX, 1000 W)"  # the name the overlay's list shows
    assert warning_lines(at) == [EN("notice_bad_param", name=overlay, given="nope", used=b200)]
    assert at.session_state["roofline.overlay"] == ["b200"] and at.query_params["roof_overlay"] == "b200"


def test_the_economics_tco_inputs_changed_from_the_preset_are_in_the_link():
    """The TCO built from parts (capex, power, financing) and the rack: a link carries the inputs changed from the
    chip's preset and opens with them (the same $/GPU-hour); a bad one is named and the preset kept."""
    at = run_page("economics", hardware="h200")
    assert not at.exception and not any(k in at.query_params for k in ("ec_capex", "ec_rack", "ec_pue"))
    capex = next(n for n in at.number_input if n.key.endswith(".capex_usd"))
    preset_tco = at.metric[0].value
    capex.set_value(80000.0).run()
    assert at.query_params["ec_capex"] == "80000" and at.metric[0].value != preset_tco
    linked = run_page("economics", hardware="h200", ec_capex="80000", ec_rack="16", ec_pue="9")
    assert next(n for n in linked.number_input if n.key.endswith(".capex_usd")).value == 80000
    assert next(n for n in linked.number_input if n.key.endswith(".gpus_per_rack")).value == 16
    assert next(n for n in linked.number_input if n.key.endswith(".pue")).value == 1.25  # the preset's
    assert linked.metric[0].value == at.metric[0].value  # the same TCO as the view linked
    pue = control_name(EN("ec_pue"), "ec_pue", EN)
    said = EN("notice_bad_param", name=pue, given="9", used=EN("ec_tco_preset"))
    assert warning_lines(linked) == [EN.sentences([said, EN("notice_allowed", lo="1", hi="3")])]  # and its range


def test_link_values_a_page_would_change_silently_are_named():
    """A planner target under its input's 1 ms floor was raised to 1 ms and rewritten without a word; an empty chip
    list on Economics fell back to the default three unsaid: both are named now, with what is used."""
    from ui import page_state

    inputs, bad = page_state.parse_planner_query({"planner_target_ms": "0.5"})
    assert inputs.custom_ms == 50.0 and [(n.param, n.given) for n in bad] == [("planner_target_ms", "0.5")]
    inputs, bad = page_state.parse_planner_query({"planner_target_ms": "1"})
    assert inputs.custom_ms == 1.0 and not bad
    inputs, bad = page_state.parse_economics_query({"ec_chips": ""}, {"h200"})
    assert inputs.chips is None and [(n.param, n.used) for n in bad] == [("ec_chips", "—")]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_an_embedded_page_says_what_its_numbers_are_when_and_links_to_the_full_view(lang):
    """A wiki's frame of a page had no way back to the app and no source or date (a review): a line at its top says
    modelled values, the app's version and the date, and links to the full view with the link's own scenario; the
    single-chart view says it too. Roofline's overlay control waits in the page's closed settings."""
    from ui import export

    tr = Translator(lang)
    at = run_page("roofline", embedded=True, lang=lang, batch="64")
    assert not at.exception, at.exception
    source = tr("embed_source", app=tr("app_name"), version=export.APP_VERSION, date=export.stamp()["exported_on"])
    line = next(c.value for c in at.caption if source in c.value)
    assert f"[{tr('embed_full_view')}](?" in line and "batch=64" in line and "embed" not in line.split("(?")[1]
    (box,) = [e for e in at.expander if e.label == tr("embed_page_controls")]
    assert [w.key for w in box.multiselect] == ["roofline.overlay"]
    alone = run_page("roofline", embedded=True, lang=lang, only="roofline")
    assert any(source in c.value and tr("embed_full_view") in c.value for c in alone.caption)


def test_view_links_read_lists_as_people_write_them_and_keep_every_item():
    """A list link's items in any letter case ('nvidia'); none known: the default, as its notice says (the list had
    emptied: 'No vendor selected'); Validation's rows of no engine profile (id '') as '-' (a trailing comma had
    been dropped); the default in another order writes no parameter; a search past 80 characters is cut, said."""
    from ui import page_state as ps

    vendors = ps.ViewControl("hardware.vendors", ("AMD", "Intel", "NVIDIA"), ["AMD", "Intel", "NVIDIA"])
    assert ps.parse_view({"hw_vendors": "nvidia,amd"}, vendors) == (["NVIDIA", "AMD"], [])
    value, bad = ps.parse_view({"hw_vendors": "acme"}, vendors)
    assert value is None and [(n.given, n.used) for n in bad] == [("acme", "AMD,Intel,NVIDIA")]
    assert ps.view_query(vendors, ["NVIDIA", "Intel", "AMD"]) == {}
    engines = ps.ViewControl("validation.engines", ("llama.cpp", "vllm", ""), ["llama.cpp", "vllm", ""])
    link = ps.view_query(engines, ["vllm", ""])
    assert link == {"val_engines": "vllm,-"} and ps.parse_view(link, engines) == (["vllm", ""], [])
    search = ps.ViewControl("glossary.search", (), "")
    value, bad = ps.parse_view({"gl_q": "k" * 90}, search)
    assert value == "k" * 80 and [n.param for n in bad] == ["gl_q"]
    at = run_page("hardware", hw_vendors="nvidia,acme")
    assert at.session_state["hardware.vendors"] == ["NVIDIA"] and at.query_params["hw_vendors"] == "NVIDIA"


def test_the_embedded_full_view_link_carries_a_control_changed_in_that_run():
    """The embed view's 'Open the full view' link was written before the page ran, one change behind (a review):
    it is written once the page has run, with the view as it is now."""
    at = run_page("roofline", embedded=True)
    at.multiselect(key="roofline.overlay").set_value(["mi300x"]).run()
    assert not at.exception, at.exception
    line = next(c.value for c in at.caption if EN("embed_full_view") in c.value)
    assert "roof_overlay=mi300x" in line


def test_economics_links_keep_every_digit_typed():
    """A capex of $1,234,567 was written '1.23457e+06' and came back as 1,234,570."""
    from ui import page_state as ps

    link = ps.tco_query({"capex_usd": 1234567.0}, {"capex_usd": 30000.0})
    assert link == {"ec_capex": "1234567"} and ps.parse_tco_query(link)[0] == {"capex_usd": 1234567.0}
    assert ps.economics_query(ps.EconomicsInputs(out=1234567.0))["ec_out"] == "1234567"


def test_a_parameter_given_twice_is_said_with_the_one_read():
    """/overview?model=llama-3.1-70b&model=deepseek-r1 read the last silently (helper review): a notice now says the
    parameter came twice and which value is used; one given twice with one value says nothing."""
    from streamlit.testing.v1 import AppTest

    from tests.apptest_util import APP

    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["model"] = ["llama-3.1-70b", "deepseek-r1"]
    at.run()
    assert not at.exception
    name = control_name(EN("control_model"), "model", EN)
    said = EN("notice_repeated_param", name=name, given="llama-3.1-70b, deepseek-r1", used="deepseek-r1")
    assert [w.value for w in at.warning] == [said]
    assert at.selectbox(key="model").value == "deepseek-r1"


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_overview_says_the_served_tpot_where_it_differs(lang):
    """A helper review: Llama-3.1-70B FP8 on 8 x H200 at 8 x 128K: Overview read TPOT 13.4 ms and 'Meets: code
    completion, chat ...' where a server running it (the other requests' prompts riding the steps) takes 77.2 ms a
    token, the time to serve's and the Serving frontier's figure: a caption says it and the targets it meets."""
    from tpot_model import Scenario, estimate, resolve_hardware, resolve_model, resolve_profile
    from ui import fmt

    tr = Translator(lang)
    q = dict(model="llama-3.1-70b", hardware="h200", gpus="8", weights="fp8", kv="fp8", batch="8", context="131072",
             output="1024")  # fmt: skip
    at = run_page("overview", lang=lang, **q)
    est = estimate(resolve_model("llama-3.1-70b"), resolve_hardware("h200"),
                   Scenario(batch=8, context_tokens=131072, output_tokens=1024, num_gpus=8, weights="fp8",
                            kv_cache="fp8"), resolve_profile("typical"))  # fmt: skip
    served = float(est.serving.tpot_s)
    assert served > 5 * float(est.tpot_s)
    (said,) = [c.value for c in at.caption if fmt.ms(served) in c.value]
    assert said == tr("ov_served_tpot", served=fmt.ms(served), ratio=f"{served / float(est.tpot_s):.2g}×",
                      meets=tr("ov_served_meets", met=tr.join([tr("target_agents"), tr("target_batch_jobs")])))  # fmt: skip
    # the line above it names its batch: two bare 'meets' lists, one under the other, had read as a contradiction
    static_met = tr.join([tr(f"target_{k}") for k in ("code_completion", "chat", "agents", "batch_jobs")])
    markdown = [m.value for m in at.markdown]
    assert tr("ov_targets_met_static", met=static_met) in markdown
    assert not [m for m in markdown if m.startswith(tr("ov_targets_met", met="")[:6])]
    # one output token: no decode step to serve, nothing said
    assert not [c for c in run_page("overview", lang=lang, batch="1", output="1").caption
                if tr("ov_served_tpot", served="", ratio="", meets="")[:20] in c.value]  # fmt: skip


def test_overviews_how_computed_lines_add_up_and_name_the_deciding_ridge():
    """Overview's 'how is this computed?': the time to serve adds up as shown (a digit more in the inter-token time:
    32.0 ms x 1,023 had made 33.1 s beside 33.0), and the bound's line gives the ridge at the profile's rates, which
    decides it (373 FLOP/byte beside a 412 peak ridge read 'compute-bound' unexplained)."""
    import re

    from tpot_model import Scenario, estimate, resolve_hardware, resolve_model, resolve_profile
    from ui import explain, fmt
    from ui.i18n import EN

    m, hw, p = resolve_model("llama-3.1-70b"), resolve_hardware("h200"), resolve_profile("typical")
    est = estimate(m, hw, Scenario(batch=32, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8"), p)
    items = {e.key: e for e in explain.headline(est, EN)}
    a, b = re.search(r"([\d.,]+) ms \+ ([\d.,]+) ms × \(", items["m_serve"].substituted).groups()
    assert abs(float(a) / 1e3 + float(b) / 1e3 * 1023 - float(items["m_serve"].result.split()[0])) <= 0.05
    between = estimate(m, hw, Scenario(batch=300, context_tokens=128, num_gpus=8, weights="fp8"), p)
    bound = {e.key: e for e in explain.headline(between, EN)}["m_bound"]
    assert bound.substituted.endswith(f"= {fmt.number(between.effective_ridge_flop_per_byte)} FLOP/byte")
    assert bound.result == EN("bound_compute")


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_an_engine_on_a_chip_it_does_not_run_on_is_said_to_be_a_what_if(lang):
    """A browser review: TensorRT-LLM on an MI355X gave a full estimate with no word that NVIDIA's library does not
    run there (engines.VENDOR_ONLY); now a warning says the numbers are a what-if. On a B200, nothing; ATOM likewise
    on an NVIDIA chip."""
    tr = Translator(lang)
    q = dict(model="llama-3.1-70b", weights="fp8", kv="fp8", lang=lang)
    at = run_page("overview", hardware="mi355x", profile="tensorrt-llm", **q)
    assert not at.exception, at.exception
    lead = tr("platform_notice", engine="\0", vendor="\0", hw="\0").split("\0")[1]
    assert any(lead in w.value and "TensorRT-LLM" in w.value and "NVIDIA" in w.value for w in at.warning)
    assert not any(lead in w.value for w in run_page("overview", hardware="b200", profile="tensorrt-llm", **q).warning)
    atom = run_page("overview", hardware="h200", profile="atom", **q)
    assert any(lead in w.value and "AMD" in w.value for w in atom.warning)


def test_the_sidebars_widgets_fall_back_to_the_scenario_not_to_their_first_options():
    """A browser review: with a dozen sessions opening a link at once, some sessions' selectboxes (or select sliders)
    all fell back to their first options (Llama 2 7B on an A100 40GB, fp32; or 1 GPU, batch 1, context 0) and the
    URL was rewritten so: the browser re-creates a widget from its default when it has lost the value it held, and
    the default was the first option. Each scenario widget's default is now the scenario's value (ui.controls._at)."""
    at = run_page("overview", model="deepseek-r1", hardware="b200", gpus="4", weights="fp8", kv="fp8", batch="16",
                  context="8192", profile="vllm", lang="zh-TW")  # fmt: skip
    assert not at.exception, at.exception
    for key, value in (("model", "deepseek-r1"), ("hardware", "b200"), ("weights", "fp8"), ("kv", "fp8"),
                       ("profile", "vllm"), ("lang", "zh-TW")):  # fmt: skip
        box = at.sidebar.selectbox(key=key)
        assert box.value == value and box.proto.default == box.options.index(box.format_func(value)), key
    for key, value in (("gpus", 4), ("batch", 16), ("context", 8192)):
        slider = at.sidebar.select_slider(key=key)
        assert slider.value == value and [slider.options[int(i)] for i in slider.proto.default] == [
            slider.format_func(value)
        ], key


UNPRICED_HELP = {  # fmt.no_price_text: Rubin (no basis prices it), MI355X (the TCO tiers and rental do, on demand not)
    ("vr200", "en"): (
        "NVIDIA Rubin (per GPU, Vera Rubin NVL72) (announced) has no published price in any basis: the figures that "
        "need its $/GPU-hour (the cost per 1M tokens and those built on it) are not shown. Enter your own $/GPU-hour in the sidebar."
    ),
    ("vr200", "zh-TW"): (
        "NVIDIA Rubin (per GPU, Vera Rubin NVL72)（已發表，尚未出貨）在任何價格基準下都沒有公開價格：需要其每 GPU 小時價格的"
        "數字（每百萬 Token 成本及以其計算的數字）不顯示。請在側邊欄輸入自訂的每 GPU 小時價格。"
    ),
    ("mi355x", "en"): (
        "No public price for AMD Instinct MI355X under the basis 'On-demand cloud': the figures that need its "
        "$/GPU-hour (the cost per 1M tokens and those built on it) are not shown. Enter your own $/GPU-hour in the sidebar, or set the "
        "sidebar's price basis to Neocloud TCO, Hyperscaler TCO or 3-year rental."
    ),
    ("mi355x", "zh-TW"): (
        "AMD Instinct MI355X 在「雲端隨需」價格基準下沒有公開價格：需要其每 GPU 小時價格的數字（每百萬 Token 成本及以其計算的數字）不顯示。"
        "請在側邊欄輸入自訂的每 GPU 小時價格，或在側邊欄改選以下任一價格基準：新雲端業者 TCO、超大規模業者 TCO、三年租用。"
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("hw", ["vr200", "mi355x"])
def test_a_cost_metric_without_a_price_says_which_bases_price_the_chip_or_that_none_does(hw, lang):
    """A review: Overview's '$ per 1M tokens' help on a chip with no price under the basis read 'No price for this
    hardware: set one in the sidebar.', whether another basis prices it or none does. It now says what holds, in the
    notice's words (fmt.no_price_text): the bases that price it, or none in any basis and your own price in the
    sidebar; so do the Planner's $ metrics."""
    tr = Translator(lang)
    said = UNPRICED_HELP[hw, lang]
    at = run_page("overview", lang=lang, hardware=hw)
    assert not at.exception, at.exception
    (cost,) = [m for m in at.metric if m.label == tr("m_cost")]
    assert (cost.value, cost.proto.delta, cost.help) == ("—", tr("no_public_price_short"), said)
    assert said in [i.value for i in at.info]  # the notice under the row: the same words
    planner = run_page("planner", lang=lang, hardware=hw)
    assert not planner.exception, planner.exception
    helps = {m.label: m.help for m in planner.metric}
    assert helps[tr("pl_m_cost")] == said  # the best batch's $ (the served row shares its label)
    assert "this hardware" not in said and "此硬體" not in said


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_dollar_metric_under_your_own_basis_with_no_price_asks_for_one(lang):
    """Under 'Your own' with no $/GPU-hour entered, a $ metric's note had read 'No public price' (Economics' gross
    margin, Overview's cost, the Planner's): the reader is to enter one, and the note says so and where (own_price,
    fmt.no_price_short), its help the notice's words (fmt.no_price_text)."""
    tr = Translator(lang)
    own, why = tr("own_price"), tr("no_own_price")
    at = run_page("overview", lang=lang, price_basis="custom")
    assert not at.exception, at.exception
    (cost,) = [m for m in at.metric if m.label == tr("m_cost")]
    assert (cost.value, cost.proto.delta, cost.help) == ("—", own, why)
    econ = run_page("economics", lang=lang, price_basis="custom")
    assert not econ.exception, econ.exception
    (margin,) = [m for m in econ.metric if m.label == tr("ec_m_margin")]
    assert (margin.value, margin.proto.delta, margin.help) == ("—", own, why)
    planner = run_page("planner", lang=lang, price_basis="custom")
    assert not planner.exception, planner.exception
    costs = [m for m in planner.metric if m.label == tr("pl_m_cost")]  # the best batch's and the served row's
    assert len(costs) == 2 and all((m.value, m.proto.delta) == ("—", own) for m in costs)
    assert tr("no_public_price_short") not in [m.proto.delta for m in (*at.metric, *econ.metric, *planner.metric)]


def test_the_no_price_notice_marks_an_announced_chip():
    """An announced chip is named "(announced)" wherever a page names it (a review found the shared no-price notice,
    and the price captions under the Planner's, Hardware's and Serving frontier's tables, naming Vera Rubin bare)."""
    from tpot_model.catalog import load_hardware_catalog
    from ui import fmt

    marked = fmt.chip(load_hardware_catalog()["vr200"], EN)
    at = run_page("overview", hardware="vr200", price_basis="on_demand")
    assert not at.exception, at.exception
    (notice,) = [i.value for i in at.info if "no published price in any basis" in i.value]  # none prices Rubin
    assert notice.startswith(f"{marked} has no published price")


def test_a_session_without_apps_frame_reruns_through_it_whatever_the_process_flag(monkeypatch):
    """A fresh server given five deep links at one moment (a wiki page of embeds) runs them all in Streamlit's legacy
    pages/ mode; the first to switch the process to st.navigation had cleared the flag the others then read, so they
    went on without app.py's frame (its sidebar list, 'Page not found', an uncaught fold: a browser review). A session
    app.py has not marked reruns through it even with the process already switched; a marked one goes on, and so does
    a page file run as the app itself (a test of the page alone: no app.py to rerun through)."""
    from types import SimpleNamespace

    from streamlit.runtime.pages_manager import PagesManager

    from ui import controls

    class Rerun(Exception):
        pass

    def rerun():
        raise Rerun

    monkeypatch.setattr(PagesManager, "uses_pages_directory", False)  # another session switched the process first
    monkeypatch.setattr(controls.st, "rerun", rerun)
    monkeypatch.setattr(controls.st, "session_state", {})
    run = SimpleNamespace(main_script_path=str(ROOT / "pages" / "planner.py"))
    monkeypatch.setattr(controls, "get_script_run_ctx", lambda: run)
    controls._require_navigation()  # the page file is the app: it goes on
    run.main_script_path = str(ROOT / "app.py")  # served by app.py, this run without its frame: rerun through it
    with pytest.raises(Rerun):
        controls._require_navigation()
    controls.mark_app_run()
    controls._require_navigation()  # app.py's run: no rerun


NO_BASIS_PAGES = ("overview", "cost", "planner", "compare", "hardware", "economics", "frontier")


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("page", NO_BASIS_PAGES)
def test_a_chip_no_basis_prices_is_said_to_have_none_not_sent_to_another_basis(page, lang):
    """Rubin has no entry in data/prices.yaml: every page that shows $ had said '... or choose another price basis in
    the sidebar', which prices it under none. Now each says it has no published price in any basis (the notice for
    the sidebar's chip, the caption under a table of chips), and points to no other basis; MI355X (no on-demand price,
    priced under the TCO tiers) is pointed to those tiers, by name (economics.priced_bases)."""
    tr = Translator(lang)
    q = {"frontier": {"more": "true"}, "economics": {"ec_chips": "vr200,mi355x"}}.get(page, {})
    at = run_page(page, lang=lang, hardware="vr200", **q)
    assert not at.exception, at.exception
    text = "\n".join(visible_texts(at))
    nowhere = {"en": "no published price in any basis", "zh-TW": "在任何價格基準下都沒有公開價格"}[lang]
    assert nowhere in text.lower(), page
    another = {"en": "another price basis", "zh-TW": "其他價格基準"}[lang]
    assert another not in text and {"en": "another basis", "zh-TW": "其他基準"}[lang] not in text
    if page in ("hardware", "planner", "economics", "frontier"):  # a table of chips with MI355X: its bases named
        tiers = fmt.alternatives([tr(f"basis_{b}") for b in ("neocloud", "hyperscaler", "rental_3yr")], tr)
        assert any(tiers in c.value for c in at.caption), [c.value for c in at.caption]
        # your own price is the sidebar chip's alone: Rubin, the sidebar's, takes it there as it is (it had been told
        # to be selected there); the Serving frontier prices chips under its own tiers and its own price, which
        # prices every chip drawn (it had sent the reader to the sidebar: test_page_frontier)
        from tpot_model import resolve_hardware

        marked = fmt.chip(resolve_hardware("vr200"), tr)
        own = {"en": f"{marked}, the sidebar's chip", "zh-TW": f"側邊欄的晶片 {marked}"}[lang]
        if page == "frontier":
            own = tr("fr_own_price_all", custom=tr("fr_tier_custom"), tier=tr("fr_tier"), usd=tr("fr_usd"))
        said = [c.value for c in at.caption if nowhere in c.value.lower()]
        assert said and all(own in c for c in said), said


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_cost_lines_board_power_energy_is_marked_where_the_tdp_is_an_estimate(lang):
    """Under every page's $ figure the cost line gives the all-in and the board-power J per token
    (notices.power_text): on a chip whose TDP is the catalog's estimate the board figure says '(estimate)'."""
    from dataclasses import replace

    from tpot_model import estimate, resolve_hardware, resolve_model, resolve_profile
    from tpot_model.prices import ChipPrices
    from tpot_model.scenario import Scenario
    from ui import notices

    tr = Translator(lang)
    tpu = resolve_hardware("tpu7x")
    powered = replace(tpu, prices=ChipPrices(all_in_w=1800.0))  # an all-in power, so the line is given
    for hw, marked in ((powered, True), (replace(powered, estimated_figures=()), False)):
        est = estimate(resolve_model("llama-3.1-8b"), hw, Scenario(batch=8), resolve_profile("typical"))
        board = f"{fmt.number(float(est.joules_per_token))} J"
        text = notices.power_text(est, tr)
        want = tr("estimate_mark", value=board) if marked else board
        assert tr("j_all_in", j=fmt.number(1800.0 / float(est.tokens_per_s_per_gpu)), board=want) in text, text
