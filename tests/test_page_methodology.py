"""Methodology page: formulas with this scenario's numbers, read from the Estimate; reference points; both languages.

Pure tests call ui.figures.methodology directly on model estimates (no Streamlit); page tests run the app with AppTest.
"""

import json
import re

import numpy as np
import pandas as pd
import pytest

from tests.apptest_util import decode, figures, run_page
from tpot_model import (
    Scenario,
    estimate,
    load_hardware_catalog,
    load_model_catalog,
    resolve_hardware,
    resolve_model,
    resolve_profile,
)
from tpot_model.roofline import expected_experts_touched
from ui import fmt
from ui.figures import methodology as figs
from ui.i18n import EN, Translator

ZH = Translator("zh-TW")
DEFAULT = dict(batch=32, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8", kv_cache="bf16")


def _est(model="llama-3.1-70b", hardware="h200", profile="typical", **scenario):
    return estimate(
        resolve_model(model), resolve_hardware(hardware), Scenario(**{**DEFAULT, **scenario}), resolve_profile(profile)
    )


def _all_blocks(est, tr=EN):
    pair = estimate(est.model, est.hardware, Scenario(**{**DEFAULT, "batch": np.array([1.0, 32.0])}), est.profile)
    return [
        *figs.memory_blocks(est, tr),
        *figs.roofline_blocks(est, tr),
        *figs.step_blocks(est, tr),
        *figs.prefill_blocks(est, tr),
        *figs.moe_blocks(est, tr),
        *figs.intensity_blocks(est, tr),
        *figs.cost_blocks(est, tr),
        *figs.definition_blocks(est, tr),
        *figs.misreading_blocks(est, pair, tr),
        *figs.source_blocks(est, tr),
        *figs.limit_blocks(tr),
    ]


def _text(blocks) -> str:
    return "\n".join(text for _, text in blocks)


# --------------------------------------------------------------------------------------------------- pure content


@pytest.mark.parametrize("model_id", sorted(load_model_catalog()))
@pytest.mark.parametrize("tr", [EN, ZH], ids=["en", "zh-TW"])
def test_every_model_builds_and_every_substituted_line_ends_with_its_result(model_id, tr):
    blocks = _all_blocks(_est(model_id), tr)
    assert {kind for kind, _ in blocks} <= {"h", "latex", "md", "caption"}
    substituted = [text for kind, text in blocks if kind == "md" and "= **" in text]
    assert len(substituted) >= 15
    for text in substituted:
        assert text.rstrip().endswith("**"), text  # "... = **<result> <unit>**"
        assert "n/a" not in text.rsplit("= **", 1)[1], text


def test_numbers_are_read_from_the_estimate():
    est = _est()
    text = _text(_all_blocks(est))
    assert "327,680 bytes/token" in text  # 2 x 80 layers x 8 KV heads x 128 x 2 bytes
    for shown in (
        fmt.gb(est.weight_bytes),
        fmt.gb(float(est.kv_cache_bytes)),
        fmt.gb(float(est.memory_per_gpu_bytes)),
        fmt.ms(float(est.tpot_s)),
        fmt.duration(float(est.batch_prefill_s)),  # a static estimate's ttft_s: the whole batch's prefill
        fmt.duration(float(est.ttft_per_request_s)),
        fmt.duration(float(est.time_to_serve_per_request_s)),  # what one user waits (issue 19), not time_to_serve_s
        fmt.number(float(est.arithmetic_intensity_flop_per_byte)),
        fmt.number(est.ridge_point_flop_per_byte),
        fmt.pct(float(est.mbu)),
        fmt.pct(float(est.mfu)),
        fmt.usd(float(est.usd_per_1M_tokens)).replace("$", "\\$"),
        fmt.number(float(est.joules_per_token)),
    ):
        assert f"**{shown}" in text or f"{shown}**" in text or f"MBU {shown}" in text or f"MFU {shown}" in text, shown


def test_attention_types_use_their_own_kv_formula():
    mla = _text(figs.memory_blocks(_est("deepseek-v3"), EN))
    assert "(kv_lora_rank 512 + rope dim 64) × 61 layers × 2 B = **70,272 bytes/token**" in mla
    window = _text(figs.memory_blocks(_est("gemma-2-27b"), EN))
    assert "Sliding-window layers stop growing at W = 4,096 tokens" in window
    hybrid = _text(figs.memory_blocks(_est("qwen3-next-80b-a3b"), EN))
    assert "24,576 bytes/token" in hybrid and "Gated DeltaNet" in hybrid
    latex = [t for k, t in figs.memory_blocks(_est("deepseek-v3"), EN) if k == "latex"]
    assert any("r_{kv}" in t for t in latex) and not any(r"2 \times L \times K" in t for t in latex)
    # DeepSeek-V3.2: the DSA indexer key (128) cached beside the latent, (512 + 64 + 128) x 61 x 2 B = 85,888 B
    dsa = _text(figs.memory_blocks(_est("deepseek-v3.2"), EN))
    assert "(kv_lora_rank 512 + rope dim 64 + index dim 128) × 61 layers × 2 B = **85,888 bytes/token**" in dsa
    assert "索引維度 128" in _text(figs.memory_blocks(_est("deepseek-v3.2"), Translator("zh-TW")))


def test_moe_experts_touched_for_this_batch():
    est = _est("deepseek-v3", batch=32)
    touched = float(expected_experts_touched(256, 8, 32))
    assert f"**{fmt.number(touched)} experts per MoE layer per step**" in _text(figs.moe_blocks(est, EN))
    assert "is dense" in _text(figs.moe_blocks(_est(), EN))


def test_one_gpu_has_no_communication_and_no_price_is_explained():
    est = _est(hardware="tpu-v5e", num_gpus=1, model="llama-3.1-8b")
    step = _text(figs.step_blocks(est, EN))
    assert "One GPU: no all-reduce" in step
    cost = _text(figs.cost_blocks(est, EN))
    assert "Google TPU v5e has no published price in any basis" in cost  # the pages' notice (fmt.no_price_text)
    assert "\\$/chip-hour" in cost and " $/" not in cost  # escaped: a bare $ ... $ read as LaTeX


def test_misreadings_compare_batch_one_with_this_batch():
    est = _est()
    pair = estimate(est.model, est.hardware, Scenario(**{**DEFAULT, "batch": np.array([1.0, 32.0])}), est.profile)
    text = _text(figs.misreading_blocks(est, pair, EN))
    t1, t32 = (fmt.ms(float(x)) for x in pair.tpot_s)
    assert f"at batch 1: TPOT {t1}" in text and f"at batch 32: TPOT {t32}" in text
    assert float(pair.tpot_s[0]) < float(pair.tpot_s[1])
    assert float(pair.usd_per_1M_tokens[0]) > float(pair.usd_per_1M_tokens[1])  # batch 1: best TPOT, worst $/token


def test_gib_misreading_says_what_the_fit_uses_where_the_tool_reports_more():
    """Browser review: 'the 141 GB of H200 is 131 GiB' beside the catalog's 'reported 141 GiB', which the fit uses
    (usable 131.8 GB = 0.9 x 141 GiB - 4.14 GiB): the misreading now says the tool reports more, and which it fits."""
    est = _est(hardware="h200")
    pair = estimate(est.model, est.hardware, Scenario(**{**DEFAULT, "batch": np.array([1.0, 32.0])}), est.profile)
    text = _text(figs.misreading_blocks(est, pair, EN))
    assert "141 GB of NVIDIA H200 SXM 141GB is 131 GiB" in text
    assert EN("meth_mis_gib_reported", gib="141", gb="151") in text
    assert est.usable_memory_basis == "reported"
    l4 = _est(hardware="l4", model="llama-3.1-8b")  # no reported figure: the conversion alone
    pair = estimate(l4.model, l4.hardware, Scenario(**{**DEFAULT, "batch": np.array([1.0, 32.0])}), l4.profile)
    assert "vendor's tool reports" not in _text(figs.misreading_blocks(l4, pair, EN))


def test_roofline_formula_reproduces_the_rates_it_names():
    """Browser review: 'η_F = 0.6, η_M = 0.8' beside Π and β at the datasheet's peaks, while the estimate ran at
    1,069 TFLOP/s and 3.46 TB/s (0.54 and 0.72 of them), and 'the profile caps bandwidth' where nothing capped it:
    Π and β are the rates the chip reaches (0.9 of the datasheet's on H200), Π x η_F and β x η_M the rates used."""
    from tpot_model.roofline import attainable_bandwidth_bytes_per_s, attainable_flop_per_s

    est = _est(kv_cache="fp8")
    hw, p = est.hardware, est.profile
    text = _text(figs.roofline_blocks(est, EN))
    pi, beta = attainable_flop_per_s(hw, est.compute_precision), attainable_bandwidth_bytes_per_s(hw)
    assert f"Π = {fmt.tflops(pi)}" in text and f"β = {fmt.tb_per_s(beta)}" in text
    assert pi * p.flops_efficiency == pytest.approx(est.rates.gemm_flop_per_s)
    assert beta * p.bandwidth_efficiency == pytest.approx(est.rates.weight_bytes_per_s)
    assert f"GEMMs {fmt.tflops(est.rates.gemm_flop_per_s)}" in text and "caps bandwidth" not in text
    # where Π and β come from, each its own (a review: every chip's had read 'reaches in microbenchmarks', H200's
    # and M4 Max's priors and guesses too)
    assert "(0.9 of its datasheet 1,979 TFLOP/s; the chip family's prior: no microbenchmark published" in text
    mi300x = _text(figs.roofline_blocks(_est(kv_cache="fp8", hardware="mi300x"), EN))
    assert "of its datasheet 2,615 TFLOP/s; published microbenchmark)" in mi300x
    assert "of its datasheet 5.30 TB/s; published microbenchmark)" in mi300x
    m4 = _text(figs.roofline_blocks(_est(hardware="m4-max", model="llama-3.1-8b"), EN))
    assert "a generic guess: no microbenchmark published for this chip or its family" in m4
    assert "microbenchmarks (" not in text + mi300x + m4
    # the ideal bound: Π and β the datasheet's peaks, as the rates it ran at (a review: it quoted the attainable)
    ideal = _est(kv_cache="fp8", profile="ideal")
    text = _text(figs.roofline_blocks(ideal, EN))
    assert "Π = 1,979 TFLOP/s" in text and "β = 4.80 TB/s" in text and "GEMMs 1,979 TFLOP/s" in text
    assert "(1 of its datasheet 4.80 TB/s; the ideal bound runs at the datasheet's peak)" in text
    # a TPU's rates per chip
    tpu = _text(figs.roofline_blocks(_est(hardware="tpu-v6e", model="llama-3.1-8b"), EN))
    assert "The rates this estimate ran at, per chip:" in tpu


def test_catalog_text_cannot_inject_markdown_links():
    assert figs._plain("[x](javascript:alert(1)) <b> ![i](u)") == r"\[x\](javascript:alert(1)) \<b\> \!\[i\](u)"


def test_operator_figure_matches_the_model():
    est = _est()
    fig = figs.operator_times(est, tr=EN)
    assert [t.name for t in fig.data] == ["Memory time", "Compute time"]
    assert fig.layout.xaxis.title.text == "Time per GPU per step (ms, log scale)"
    assert fig.layout.xaxis.type == "log"
    spec = json.loads(fig.to_json())
    memory_ms = decode(spec["data"][0]["x"])
    expected = [float(o.memory_time_s) * 1e3 for o in est.decode.operators]
    np.testing.assert_allclose(memory_ms, expected, rtol=1e-12)
    df = figs.operator_data(est)
    assert list(df.columns) == list(figs.OPERATOR_COLUMNS)
    np.testing.assert_allclose(df["time_ms"].sum(), sum(float(o.time_s) for o in est.decode.operators) * 1e3)
    zh = figs.operator_times(est, tr=ZH)
    assert zh.layout.title.text == ZH("meth_fig_title") and zh.data[0].name == "記憶體時間"


# --------------------------------------------------------------------------------------------------- reference points


def test_reference_points_are_complete_and_resolvable():
    refs = figs.reference_points()
    for p in refs["textbook"]["points"]:
        resolve_hardware(p["hardware"])
    resolve_model(refs["textbook"]["scenario"]["model"])
    assert 4 <= len(refs["measured"]) <= 6
    for p in refs["measured"]:
        resolve_model(p["scenario"]["model"]), resolve_hardware(p["scenario"]["hardware"])
        assert p["source"].startswith("https://") and p["metric"] in ("tpot_ms", "tokens_per_s_per_user")
        assert p["date"] is None or isinstance(p["date"], str)
        assert EN(f"meth_refnote_{p['id']}") != ZH(f"meth_refnote_{p['id']}")
    c = refs["collectives"]
    resolve_model(c["model"]), resolve_hardware(c["hardware"])
    assert c["source"].startswith("https://") and c["tokens_per_gpu"] == 128
    for p in refs["phases"]:  # whole phases at scale: each with its source, date, engine profile and layout
        sc = p["scenario"]
        resolve_model(sc["model"]), resolve_hardware(sc["hardware"]), resolve_profile(p["profile"])
        assert p["source"].startswith("https://") and p["phase"] in ("decode", "prefill") and p["date"]
        assert sc["gpus"] >= 2 and p["value"] > 0 and (p["batch_per_gpu"] is None or p["batch_per_gpu"] >= 1)


def test_textbook_bounds_agree_with_the_ideal_model_within_one_percent():
    refs = figs.reference_points()
    sc = refs["textbook"]["scenario"]
    live = [
        estimate(
            resolve_model(sc["model"]),
            resolve_hardware(p["hardware"]),
            Scenario(batch=1, context_tokens=0, output_tokens=1, num_gpus=1, weights="fp16", kv_cache="fp16"),
            resolve_profile("ideal"),
        )
        for p in refs["textbook"]["points"]
    ]
    df = figs.textbook_data(refs, live)
    assert (df["difference_pct"].abs() < 1).all(), df
    assert df["textbook_tpot_ms"].tolist() == [67.66, 41.18, 28.74, 17.24]


# --------------------------------------------------------------------------------------------------- page


def _markdown(at) -> list[str]:
    return [m.value for m in at.markdown]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_page_renders(lang):
    at = run_page("methodology", lang=lang)
    assert not at.exception, at.exception
    assert not at.error and not at.warning
    tr = Translator(lang)
    assert at.title[0].value == tr("page_methodology")
    assert [s.value for s in at.subheader][:2] == [tr("meth_h_memory"), tr("meth_h_roofline")]
    assert sum(m.value.count("$$") for m in at.markdown) // 2 >= 15  # formulas: display math within the paragraphs
    assert len(at.dataframe) == 0 and len(figures(at)) == 1  # the operator table is sent once its expander opens
    assert len(at.table) == 4  # the reference tables: textbook bounds, measured points, one collective, phases
    alltoall = at.table[2].value  # DeepEP's cross-node timings beside the typical profile's: 11-20 % above
    assert alltoall.iloc[:, 0].tolist() == [16, 32, 64, 128, 256]
    assert alltoall.iloc[:, -1].between(1.0, 1.2).all(), alltoall
    # the headers say on what each side ran: DeepEP on H800 nodes, the tool on the catalog's H100 SXM
    assert tr("meth_col_measured_alltoall_us", measured_on="H800 + ConnectX-7 400 Gb/s") in alltoall.columns
    h100 = fmt.chip(load_hardware_catalog()["h100-sxm"], tr, short=True)
    assert tr("meth_col_tool_alltoall_us", modelled_on=h100) in alltoall.columns and "NVIDIA" not in h100
    at.session_state["methodology.operators_open"] = True
    at.run()
    assert not at.exception and len(at.dataframe) == 1
    chart = figures(at)[0]
    assert chart["layout"]["title"]["text"] == tr("meth_fig_title")


def test_model_change_substitutes_the_model_values():
    default = run_page("methodology")
    dsv3 = run_page("methodology", model="deepseek-v3")
    assert not dsv3.exception
    before, after = _markdown(default), _markdown(dsv3)
    assert any("327,680 bytes/token" in t for t in before)
    kv = [t for t in after if "bytes/token" in t]
    assert kv and "70,272" in kv[0] and kv[0] not in before
    assert any("experts per MoE layer per step" in t for t in after)


def test_sidebar_batch_changes_the_numbers():
    at = run_page("methodology")
    before = _markdown(at)
    at.sidebar.select_slider(key="batch").set_value(128).run()
    assert not at.exception
    after = _markdown(at)
    assert any("\n\nKV cache of the batch at the context: 128 sequences" in t for t in after)
    assert set(after) != set(before)
    assert any("at batch 128: TPOT" in t for t in after)


def test_url_restores_scenario_and_extreme_states_render():
    at = run_page("methodology", model="qwen3-next-80b-a3b", batch="4096", context="1048576", hardware="tpu-v5e")
    assert not at.exception
    assert at.error  # does not fit: shown as a notice, not an exception
    text = "\n".join(_markdown(at))
    assert "4,096 sequences" in text and "1,048,576 tokens" in text and "has no published price in any basis" in text


def test_reference_tables_on_the_page():
    at = run_page("methodology", lang="zh-TW")
    textbook, measured = at.table[0].value, at.table[1].value  # static tables: they fit a 900 px frame
    assert list(textbook.columns)[3] == "教科書下限（ms）"  # issue 19: one unit style in zh-TW, ms (not 毫秒)
    assert len(textbook) == 4 and (textbook["差異 (%)"].abs() < 1).all()
    # printed with the decimals the numbers have and a minus sign (a static table had printed '67.6600', '-0.3700')
    html = figs.display(pd.DataFrame({"textbook_tpot_ms": [67.656, 16.0], "difference_pct": [-0.37, 0.0]})).to_html()
    assert all(f">{v}<" in html for v in ("67.66", "16", "−0.37", "0"))
    html = figs.display(pd.DataFrame({"measured_tok_s_gpu": [13386.0, 2785.25, 22476.0]})).to_html()
    assert all(f">{v}<" in html for v in ("13,386", "2,785", "22,476"))  # had read '1.339e+04'

    assert len(measured) == len(figs.reference_points()["measured"])
    assert "未註明" in measured["日期"].tolist()  # gpt-fast states no date
    # whole phases at scale (SGLang, vLLM posts): the tool's worker of the same layout beside each, its ratio as shown
    phases = next(t.value for t in at.table if "階段" in t.value.columns)
    refs = figs.reference_points()["phases"]
    assert phases["實測（每張 GPU tok/s）"].tolist() == [p["value"] for p in refs]
    tool, ratio = phases["本工具（每張 GPU tok/s）"], phases["本工具 ÷ 實測（tok/s）"]
    assert (ratio == (tool / phases["實測（每張 GPU tok/s）"]).round(2)).all()
    assert ratio.tolist()[1] == 0.88  # SGLang's GB200 NVFP4 decode (13,386): the tool reads 11,798
    assert ratio.tolist()[0] < 0.7 and ratio.tolist()[4] < 0.5  # across InfiniBand nodes (H100): well below


@pytest.mark.parametrize(("gpus", "factor"), [(8, 1.0), (16, 4 / 3), (64, 2.0)])
def test_tensor_parallel_communication_substituted_with_the_groups_latency(gpus, factor):
    """The decode step's all-reduce line substitutes the latency the model used: the profile's up to 8 GPUs, x log2 G
    / 3 beyond (TP16 on a GB200 NVL72: 4/3 of it; TP64: 2x), and its result is the step's communication bucket."""
    est = _est(hardware="gb200", num_gpus=gpus, model="llama-3.1-405b")
    step = _text(figs.step_blocks(est, EN))
    alpha = fmt.fine_duration(factor * resolve_profile("typical").allreduce_latency_s)
    assert f"2 × {est.model.num_layers} layers × ({alpha} + 2 × {gpus - 1}/{gpus} × " in step
    assert f"= **{fmt.fine_duration(float(est.breakdown_s['communication']))}**" in step


def test_tensor_parallel_across_domains_says_so_with_the_network_hops():
    """TP16 on two HGX H100 nodes: the single-link formula does not give the result (a review could not check it); a
    line says the group spans 2 domains of 8, times each all-reduce in its parts (latency, bytes inside the domains,
    across them, 2 network hops of 5.00 µs: NCCL's model) and the parts add up to the step's communication. TP16
    inside a GB200 NVL72 domain has no such line."""
    est = _est(hardware="h100-sxm", num_gpus=16, model="llama-3.1-405b")
    line = next(
        t for kind, t in _all_blocks(est) if kind == "md" and t.startswith("The 16 GPUs span 2 scale-up domains")
    )
    assert f"waits for 2 network hops of {fmt.fine_duration(5.0e-6)}" in line
    alpha, inside, across, hops = (
        float(x)
        for x in re.findall(
            r"\(([\d.]+) µs \+ ([\d.]+) µs inside the domains \+ "
            r"([\d.]+) µs across them \+ ([\d.]+) µs of hops\)",
            line,
        )[0]
    )
    assert hops == 10.0
    result = 2 * est.model.num_layers * (alpha + inside + across + hops) * 1e-6
    assert result == pytest.approx(float(est.breakdown_s["communication"]), rel=2e-3)
    assert line.endswith(f"= **{fmt.fine_duration(float(est.breakdown_s['communication']))}**")
    inside_nvl = _text(figs.step_blocks(_est(hardware="gb200", num_gpus=16, model="llama-3.1-405b"), EN))
    assert "scale-up domains of" not in inside_nvl


def test_fixed_overhead_sum_names_every_term_and_adds_up():
    """DeepSeek-R1 (helper review): the sum read '600 µs per step + 8.00 µs × 61 layers = 6.77 ms', leaving out the
    per-MoE-layer cost (98 µs × 58 layers), most of it. Every term is named and the terms add up to the result."""
    est = _est(model="deepseek-r1", hardware="b200", num_gpus=8, batch=1)
    p, m = est.profile, est.model
    assert m.num_moe_layers == 58 and p.moe_layer_overhead_s > 0
    line = next(t for kind, t in _all_blocks(est) if kind == "md" and t.startswith(EN("meth_overhead_sub_moe")[:30]))
    assert f"{fmt.fine_duration(p.moe_layer_overhead_s)} × 58 MoE layers" in line
    # typical's per-sequence cost (the serving base's) at batch 1: one row sampled, 1 x 16 / (1 + 16) of the field
    terms = (p.per_token_overhead_s + p.per_layer_overhead_s * m.num_layers + p.moe_layer_overhead_s * 58
             + p.per_sequence_overhead_s * 16 / 17)  # fmt: skip
    assert terms == pytest.approx(float(est.decode.breakdown_s["overhead"]), rel=1e-12)
    assert line.endswith(f"**{fmt.fine_duration(terms)}**")
    # an engine fitted to serving runs (SGLang) also pays a cost per sequence each GPU samples: named, and the sum
    # still adds up (batch 32 under tensor parallelism: every GPU samples 32 rows; saturating at 16)
    sg = _est(model="deepseek-r1", hardware="b200", profile="sglang", num_gpus=8, batch=32)
    q = sg.profile
    assert q.per_sequence_overhead_s > 0
    line = next(t for kind, t in _all_blocks(sg) if kind == "md" and t.startswith(EN("meth_overhead_sub_moe")[:30]))
    seq = q.per_sequence_overhead_s * 32 * 16 / (32 + 16)
    assert f"{fmt.fine_duration(q.per_sequence_overhead_s)} × 32 × 16 ÷ (32 + 16)" in line
    total = q.per_token_overhead_s + q.per_layer_overhead_s * m.num_layers + q.moe_layer_overhead_s * 58 + seq
    assert total == pytest.approx(float(sg.decode.breakdown_s["overhead"]), rel=1e-12)
    assert line.endswith(f"**{fmt.fine_duration(total)}**")
    # NVFP4 weights: the MoE layers pay the profile's NVFP4 fraction of their cost; an AMD GPU: its ROCm factor of
    # it; each named, and the sum adds up
    f, g = p.nvfp4_moe_cost_fraction, p.rocm_moe_cost_factor
    assert 0 < f < 1 < g
    for hw, weights, factor, named in (("b200", "nvfp4", f, EN("meth_moe_nvfp4", fraction=f"{f:.3g}")),
                                       ("mi355x", "fp8", g, EN("meth_moe_rocm", factor=f"{g:.3g}"))):  # fmt: skip
        est = _est(model="deepseek-r1", hardware=hw, num_gpus=8, batch=1, weights=weights)
        line = next(
            t for kind, t in _all_blocks(est) if kind == "md" and t.startswith(EN("meth_overhead_sub_moe")[:30])
        )
        per_moe = EN("meth_moe_factors", per_moe=fmt.fine_duration(p.moe_layer_overhead_s), factors=named)
        assert f"{per_moe} × 58 MoE layers" in line
        terms = (p.per_token_overhead_s + p.per_layer_overhead_s * m.num_layers + p.moe_layer_overhead_s * factor * 58
                 + p.per_sequence_overhead_s * 16 / 17)  # fmt: skip
        assert terms == pytest.approx(float(est.decode.breakdown_s["overhead"]), rel=1e-12)
        assert line.endswith(f"**{fmt.fine_duration(terms)}**")
    dense = _text(_all_blocks(_est()))  # a dense model: no MoE term
    assert "MoE layers" not in dense and EN("meth_overhead_sub", per_token="", per_layer="", layers=80, seq="",
                                             result="")[:30] in dense  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_each_figure_of_a_new_chip_names_its_source(lang):
    """Issue 18: a chip cited per figure (Vera Rubin) shows every figure with the numbers of the sources that state it,
    or how it was derived; the system fields' sources are in the numbered list too. A chip cited per entry only
    (L40S) shows no such table."""
    tr = Translator(lang)
    at = run_page("methodology", hardware="vr200", lang=lang)
    assert not at.exception, at.exception
    text = "\n".join(_markdown(at))
    assert tr("meth_fig_intro") in text
    table = text.split(tr("meth_fig_intro"), 1)[1]
    rows = {r.split(" | ")[0].strip("| "): r.split(" | ")[1:] for r in table.splitlines() if r.startswith("| ")}
    assert rows[tr("meth_fig_memory_GB")][0] == "288\u00a0GB"  # a value does not wrap from its unit
    assert rows[tr("meth_fig_dense", precision="BF16")] == [
        "8,350\u00a0TFLOP/s",
        "FP8 / 2 (NVIDIA publishes no BF16 rate for Rubin) |",
    ]
    assert rows[tr("meth_fig_tdp_W")][0] == "2,300\u00a0W"
    assert "DISPUTED" in rows[tr("meth_fig_dense", precision="FP4")][1]  # the dense-or-sparse dispute, on its row
    tdp_ref = int(rows[tr("meth_fig_tdp_W")][1].strip("[] |"))  # its numbered source is the InferenceX blog's TDP line
    assert f"{tr('meth_src_source')} [{tdp_ref}]" in text
    line = next(ln for ln in text.splitlines() if ln.startswith(f"- {tr('meth_src_source')} [{tdp_ref}]"))
    assert "2300W TDP" in line
    assert "NVLink 6" in text  # the system source (scale-up link, domain) is listed
    assert tr("meth_fig_intro") not in "\n".join(_markdown(run_page("methodology", lang=lang, hardware="l40s")))


@pytest.mark.parametrize("model_id", ["llama-3.1-70b", "deepseek-v3"])
def test_the_time_to_serve_line_adds_up_as_shown(model_id):
    """'346 ms + 32.0 ms × 1,023 = 33.0 s' added up to 33.1 s (a review): the inter-token time carries a digit more,
    so the numbers as shown reproduce the result to its last digit."""
    import re

    est = _est(model_id)
    (line,) = [t for _, t in figs.prefill_blocks(est, EN) if "× 1,023 = **" in t]
    a, b, n, r = re.search(r"([\d.,]+) ms \+ ([\d.,]+) ms × ([\d,]+) = \*\*([\d.,]+) s\*\*", line).groups()
    total_s = float(a) / 1e3 + float(b) / 1e3 * float(n.replace(",", ""))
    assert abs(total_s - float(r)) <= 0.05 + 1e-9, line


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_an_estimated_tdp_and_the_energy_resting_on_it_are_marked(lang):
    """Trainium3's TDP is the catalog's estimate (derived: 'ESTIMATE: ~1 kW ...'): its row of the figures table and
    the energy walk-through's board power and result say '(estimate)'; Rubin's published 2,300 W does not."""
    tr = Translator(lang)
    at = run_page("methodology", hardware="trainium3", lang=lang)
    assert not at.exception, at.exception
    text = "\n".join(_markdown(at))
    table = text.split(tr("meth_fig_intro"), 1)[1]
    rows = {r.split(" | ")[0].strip("| "): r.split(" | ")[1:] for r in table.splitlines() if r.startswith("| ")}
    assert rows[tr("meth_fig_tdp_W")][0] == tr("estimate_mark", value="1,000\u00a0W")
    assert rows[tr("meth_fig_dense", precision="BF16")][0] == "671\u00a0TFLOP/s"  # published: not marked
    (energy,) = [ln for m in _markdown(at) for ln in m.splitlines() if tr("meth_energy_sub").split("{")[0] in ln]
    assert tr("estimate_mark", value="1,000 W") in energy
    assert energy.endswith(tr("estimate_mark", value="J/Token" if lang == "zh-TW" else "J/token") + "**")
    rubin = "\n".join(_markdown(run_page("methodology", hardware="vr200", lang=lang)))
    assert tr("estimate_mark", value="").strip() not in rubin.split(tr("meth_fig_intro"), 1)[1]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_cost_walk_through_without_a_price_says_which_bases_have_one(lang):
    """Methodology had said '<chip> has no price in the catalog: enter one in the sidebar (price override)' of B300
    under on-demand (three TCO bases price it) as of Rubin (no basis does). It gives the pages' notice: the bases
    that price it, or none in any basis."""
    from tpot_model import load_hardware_catalog

    tr = Translator(lang)
    catalog = load_hardware_catalog()
    b300 = "\n".join(_markdown(run_page("methodology", hardware="b300", lang=lang)))
    bases = fmt.alternatives([tr(f"basis_{b}") for b in ("neocloud", "hyperscaler", "rental_3yr")], tr)
    said = tr.sentences([tr("no_price_then", fact=tr("no_public_price", hw=catalog["b300"].name,
                                                      basis=tr("basis_on_demand")), then=tr("no_price_hidden")),
                         tr("no_price_remedy", own=tr("own_price"), bases=bases)])  # fmt: skip
    assert said.replace("$", "\\$") in b300  # markdown: a bare $ ... $ had set the words between as LaTeX
    rubin = "\n".join(_markdown(run_page("methodology", hardware="vr200", lang=lang)))
    assert tr("no_public_price_nowhere", hw=fmt.chip(catalog["vr200"], tr)) + tr("label_colon") in rubin
    assert tr("no_price_remedy_nowhere", own=tr("own_price")).replace("$", "\\$") in rubin
