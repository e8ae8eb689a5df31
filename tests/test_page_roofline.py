"""Roofline page through the app (AppTest): renders, follows the sidebar and the URL, overlays hardware, zh-TW."""

from __future__ import annotations

import numpy as np
import pytest

from tests.apptest_util import decode, figures, run_page
from ui.i18n import EN, Translator

ZH = Translator("zh-TW")


def _roofline(at) -> dict:
    (fig,) = [f for f in figures(at) if f["layout"]["title"]["text"].startswith(("Roofline of", "NVIDIA", "Google"))]
    return fig


def _trace(fig: dict, name: str) -> dict:
    (trace,) = [t for t in fig["data"] if t.get("name") == name]
    return trace


def test_renders_with_defaults():
    at = run_page("roofline")
    assert not at.exception, at.exception
    assert at.title[0].value == EN("roofline_title")
    fig = _roofline(at)
    assert fig["layout"]["xaxis"]["title"]["text"] == EN("roofline_axis_intensity")
    assert _trace(fig, EN("roofline_point_decode"))
    assert len(at.table) == 1 and not at.dataframe  # the operator table: static, it wraps at 900 px
    assert any(EN("roofline_skipped", ops="")[:20] in c.value for c in at.caption)


def test_batch_moves_the_decode_point():
    def point(at):
        t = _trace(_roofline(at), EN("roofline_point_decode"))
        return float(decode(t["x"])[0]), float(decode(t["y"])[0])

    default = run_page("roofline")
    at = run_page("roofline")
    at.sidebar.select_slider(key="batch").set_value(256).run()
    assert not at.exception
    (x0, y0), (x1, y1) = point(default), point(at)
    assert x1 > x0 and y1 > y0  # more sequences per weight read: higher intensity and FLOP/s
    assert run_page("roofline", batch="256").metric[0].value == at.metric[0].value


def test_url_restores_scenario_and_precision():
    at = run_page("roofline", model="deepseek-v3", hardware="h200", gpus="8", weights="fp8", batch="64")
    assert not at.exception
    assert at.metric[1].label == EN("roofline_m_ridge", precision="fp8")
    fig = _roofline(at)
    assert "NVIDIA H200" in fig["layout"]["title"]["text"]
    names = [t.get("name") for t in fig["data"]]
    assert EN("roofline_op_experts") in names and EN("roofline_op_shared_experts") in names


def test_overlay_other_hardware():
    at = run_page("roofline")
    at.multiselect(key="roofline.overlay").set_value(["b200", "mi300x", "h200"]).run()
    assert not at.exception
    names = [t.get("name") for t in _roofline(at)["data"]]
    # by their short names: a legend of full names ran past a 900 x 700 frame (helper review)
    assert any(n and n.startswith("B200 ") for n in names)
    assert any(n and n.startswith("MI300X ") for n in names)
    assert sum(1 for n in names if n and n.startswith("H200 SXM 141GB roof")) == 1  # the chip itself only as its roof


def test_does_not_fit_is_shown_not_raised():
    at = run_page("roofline", model="qwen3-next-80b-a3b", hardware="h100-sxm", gpus="1", weights="bf16")
    assert not at.exception
    assert at.error  # the fit notice
    assert _roofline(at)


def test_fallback_and_extremes():
    at = run_page("roofline", hardware="tpu-v5e", weights="fp8", batch="4096", context="1048576", gpus="1")
    assert not at.exception
    assert at.metric[1].label == EN("roofline_m_ridge", precision="bf16")  # no fp8 units on TPU v5e
    at = run_page("roofline", model="llama-3.1-8b", hardware="rtx-4090", gpus="1", weights="q4_k_m", profile="ideal")
    assert not at.exception
    names = [t.get("name") for t in _roofline(at)["data"]]
    assert not [n for n in names if n and n.startswith("Achievable")]


def test_chinese():
    at = run_page("roofline", lang="zh-TW")
    assert not at.exception
    assert at.title[0].value == ZH("roofline_title")
    titles = [f["layout"]["title"]["text"] for f in figures(at)]
    assert ZH("roofline_chart_title", hw="NVIDIA H200 SXM 141GB") in titles
    assert np.all([c.value for c in at.caption])


def test_llama_cpp_roof_is_the_rate_the_estimate_used():
    """llama.cpp as of May 2024 (its dated history) stops near 1.21 TB/s, far below its bandwidth fraction of an
    H200's 4.8 TB/s: the dashed roof, the Overview's 'why' and the Methodology's rates show the rate the model reads
    at (the limit), not the fraction of peak."""
    from tpot_model import estimate, resolve_hardware, resolve_model, resolve_profile
    from tpot_model.scenario import Scenario
    from ui import fmt

    may_2024 = "2024-05-15"
    profile = resolve_profile("llama.cpp").as_of(may_2024)
    hw = resolve_hardware("h200")
    fraction_bytes_per_s = hw.memory_bandwidth_bytes_per_s * profile.bandwidth_efficiency
    assert profile.bandwidth_limit_bytes_per_s < fraction_bytes_per_s / 2
    est = estimate(resolve_model("llama-3.1-8b"), hw, Scenario(as_of=may_2024), resolve_profile("llama.cpp"))
    assert est.rates.memory_bytes_per_s == profile.bandwidth_limit_bytes_per_s
    used, fraction = fmt.tb_per_s(est.rates.memory_bytes_per_s), fmt.tb_per_s(fraction_bytes_per_s)
    assert used != fraction

    query = {"model": "llama-3.1-8b", "hardware": "h200", "profile": "llama.cpp", "batch": "1", "as_of": may_2024}
    at = run_page("roofline", **query)
    assert not at.exception
    roof = next(t for t in _roofline(at)["data"] if str(t.get("name", "")).startswith("Achievable"))
    assert used in roof["hovertemplate"] and fraction not in roof["hovertemplate"]
    slope_bytes_per_s = float(decode(roof["y"])[0]) * 1e12 / float(decode(roof["x"])[0])
    assert slope_bytes_per_s == pytest.approx(est.rates.memory_bytes_per_s, rel=1e-9)

    overview = run_page("overview", **query)
    why = next(m.value.split("\n\n")[1] for m in overview.markdown if "\n\nWhy" in m.value)
    assert used in why and fraction not in why

    methodology = run_page("methodology", **query)
    text = " ".join(m.value for m in methodology.markdown)
    assert EN("meth_rates_cap", cap=used) in text


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("hw", ["tpu7x", "trainium2"])
def test_roofline_says_per_chip_for_a_tpu_or_trainium(lang, hw):
    """Issue 19: the Roofline page of a TPU or Trainium says 'per chip' (intro, chart title, table title, metric
    help), never GPU; a GPU keeps 'per GPU'."""
    from tests.apptest_util import visible_texts

    tr = Translator(lang)
    at = run_page("roofline", lang=lang, hardware=hw)
    assert not at.exception
    assert not [t for t in visible_texts(at) if "GPU" in t]
    assert tr("roofline_table_title_chip") in [s.value for s in at.subheader]
    gpu = run_page("roofline", lang=lang, hardware="h200")
    assert tr("roofline_table_title") in [s.value for s in gpu.subheader]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_operator_table_is_the_scenarios_and_follows_batch_and_language(lang):
    """The operator table (built once per scenario and language, replayed to later runs) holds figs.operator_table
    of the page's estimate, headers in the page's language; another batch is another table, not the cached one."""
    from tpot_model import Scenario, estimate, resolve_hardware, resolve_model, resolve_profile
    from ui.figures import roofline as rf
    from ui.i18n import Translator

    tr = Translator(lang)

    def want(batch):
        est = estimate(resolve_model("llama-3.1-70b"), resolve_hardware("h200"),
                       Scenario(batch=batch, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8",
                                kv_cache="fp8"), resolve_profile("typical"))  # fmt: skip
        return rf.operator_table(est, tr, fitted=True)

    for batch in (32, 128):
        at = run_page("roofline", lang=lang, batch=str(batch), kv="fp8")
        assert not at.exception
        got = at.table[0].value
        assert list(got.columns) == list(want(batch).columns)
        assert got.to_dict("list") == want(batch).to_dict("list")


@pytest.mark.parametrize("tr", [EN, ZH], ids=["en", "zh-TW"])
def test_ridge_and_intensity_are_explained_in_one_expander(tr):
    """One closed 'how is each number above computed?' for both numbers (one element while closed, not two): opened,
    a row each with its formula and the scenario's values, the results those of the metrics above."""
    at = run_page("roofline", lang=tr.lang, model="deepseek-v3", hardware="b200", gpus="8", weights="fp8")
    closed = [e for e in at.expander if e.label != tr("upload_title")]  # the sidebar's upload box aside
    assert [e.label for e in closed] == [tr("how_computed_all")] and not closed[0].markdown  # sent only when opened
    at.session_state["explain.roofline"] = True
    at.run()
    (how,) = [e for e in at.expander if e.label == tr("how_computed_all")]
    rows = how.markdown[0].value.splitlines()
    ridge = [m.value for m in at.metric if m.label == tr("roofline_m_ridge", precision="fp8")]
    intensity = [m.value for m in at.metric if m.label == tr("roofline_m_intensity")]
    assert any(r.startswith(f"| {tr('roofline_m_ridge', precision='fp8')} |") and f"**{ridge[0]} FLOP/byte**" in r
               for r in rows)  # fmt: skip
    assert any(r.startswith(f"| {tr('roofline_m_intensity')} |") and f"**{intensity[0]} FLOP/byte**" in r for r in rows)


def test_embed_view_sends_the_operator_table_once_opened():
    """Fifty wiki readers of the Roofline embed each paid for the operator table under the chart (a dataframe), which
    a 900 x 700 frame does not show: in the embed view it waits in a closed section, sent once opened; the full page
    shows it under its heading."""
    at = run_page("roofline", embedded=True)
    assert not at.exception, at.exception
    assert EN("roofline_table_title") in [e.label for e in at.expander] and not at.table
    at.session_state["roofline.table_open"] = True
    at.run()
    (box,) = [e for e in at.expander if e.label == EN("roofline_table_title")]
    assert len(box.table) == 1 and EN("roofline_col_operator") in box.table[0].value.columns  # in its section
    assert any(c.value.startswith(EN("roofline_table_bound_memory")) for c in box.caption)  # with its notes
    full = run_page("roofline")
    assert len(full.table) == 1 and EN("roofline_table_title") in [s.value for s in full.subheader]


def test_a_tiny_utilisation_keeps_two_significant_figures():
    """Llama-3.1-8B at batch 1 on 8 x B200 uses about 0.02% of the FLOP/s: its MFU had read '0.0%' (a review), as
    if the step did no math. Below 1% a utilisation keeps two significant figures; from 1% one decimal."""
    from tests.apptest_util import run_page as run
    from tpot_model import Scenario, estimate, resolve_hardware, resolve_model, resolve_profile
    from ui import fmt

    assert [fmt.utilisation(f) for f in (0.0002, 0.0049, 0.0123, 0.5, 0.0)] == ["0.020%", "0.49%", "1.2%", "50.0%",
                                                                                 "0.0%"]  # fmt: skip
    at = run(
        "roofline",
        model="llama-3.1-8b",
        hardware="b200",
        gpus="8",
        batch="1",
        context="0",
        output="1",
        weights="bf16",
        kv="bf16",
    )
    assert not at.exception, at.exception
    est = estimate(resolve_model("llama-3.1-8b"), resolve_hardware("b200"),
                   Scenario(batch=1, context_tokens=0, output_tokens=1, num_gpus=8), resolve_profile("typical"))  # fmt: skip
    mfu = next(m.value for m in at.metric if m.label == EN("roofline_m_mfu"))
    assert 0 < float(est.mfu) < 0.001 and mfu == fmt.utilisation(float(est.mfu)) and mfu != "0.0%"


def test_the_kv_column_reconciles_with_the_kv_cache_page_and_overview():
    """A browser review: the operator table's KV column read 24,200 MB per GPU under 'batch 32, 4K tokens of
    context', beside the KV cache page's 21.5 GB ('Batch of 32 at 4K') and Overview's 26.84 GB (peak). The intro names
    the output and the mean step; the column is the cache the mean step reads, and the caption under the table gives
    it (24.2 GB, as Overview's 'Why' says it) beside the other two pages' own figures."""
    from ui import fmt

    at = run_page("roofline")
    assert not at.exception, at.exception
    assert "and 1K of output (every decode figure is the mean step over them)" in at.markdown[0].value
    (caption,) = [c.value for c in at.caption if EN("roofline_col_kv_mb").removesuffix(" (MB)") in c.value]
    assert "4,608 tokens (4,096 + 512), 24.2 GB in all" in caption
    kv = run_page("kv_cache")
    (batch,) = [m for m in kv.metric if m.label == EN("kvc_m_batch", b="32", context="4K")]
    assert batch.delta == EN("kvc_per_gpu_value", gb="21.5 GB") and "holds 21.5 GB at the 4,096 tokens" in caption
    overview = run_page("overview")
    (bar,) = [t for f in figures(overview) for t in f["data"] if t.get("name") == EN("mem_kv_cache")]
    peak_gb = float(decode(bar["x"])[0])
    assert peak_gb == pytest.approx(26.8435456) and f"{fmt.gb(peak_gb * 1e9)} at its peak" in caption  # 26.8 GB
    assert "%{x:,.3r} GB" in bar["hovertemplate"]  # its hover to three figures too (it had read 26.84 GB)
    why = next(m.value for m in overview.markdown if "\n\nWhy" in m.value)
    assert "24.2 GB of KV cache" in why


def test_int4_weights_are_read_at_the_rate_overview_says():
    """A browser review: with INT4 weights the dashed roof said '72% of bandwidth' beside Overview's weights read at
    2.76 TB/s (x 0.8 for unpacking). The roof's legend names the slower reads, the note under the chart their rates,
    the same as Overview's."""
    at = run_page("roofline", weights="int4")
    assert not at.exception, at.exception
    roof = next(t for t in _roofline(at)["data"] if str(t.get("name", "")).startswith("Achievable"))
    assert (
        roof["name"].replace("<br>", " ").endswith("72% of bandwidth (int4 weights 58%, KV cache 61%), 54% of FLOP/s")
    )
    assert "int4 weights read at 2.76 TB/s" in roof["hovertemplate"]
    note = next(m.value for m in at.markdown if "dashed roof's slope" in m.value)
    assert "the int4 weights at 2.76 TB/s (58% of peak: × 0.8 for unpacking them to 16-bit math)" in note
    why = next(m.value for m in run_page("overview", weights="int4").markdown if "\n\nWhy" in m.value)
    assert "at 2.76 TB/s" in why and "× 0.8 for unpacking" in why


def test_the_operator_table_keeps_a_csv_download():
    """The operator table became a static table that wraps (a review: the grid hid four columns at 900 px), which has
    no download of its own: a CSV button under it gives the table's numbers with the scenario, as the grid's did."""
    at = run_page("roofline")
    assert not at.exception, at.exception
    (button,) = [b for b in at.get("download_button") if "roofline.operators_csv" in b.proto.id]
    assert button.proto.label == EN("download_csv")
