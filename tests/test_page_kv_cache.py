"""KV-cache page through the app (AppTest): renders, follows the sidebar and the URL, its own controls, the
architecture cases (MLA, sliding window, hybrid linear attention, MHA), extremes, and zh-TW."""

from __future__ import annotations

import numpy as np
import pytest

from tests.apptest_util import decode, figures, run_page
from ui.i18n import EN, Translator

ZH = Translator("zh-TW")


def _fig(at, title_key: str, tr=EN, **values) -> dict:
    title = tr(title_key, **values)
    matches = [f for f in figures(at) if f["layout"]["title"]["text"] == title]
    assert matches, f"no chart {title!r} in {[f['layout']['title']['text'] for f in figures(at)]}"
    return matches[0]


def _metric(at, label: str) -> str:
    (m,) = [m for m in at.metric if m.label == label]
    return m.value


def test_renders_with_defaults():
    at = run_page("kv_cache")
    assert not at.exception, at.exception
    assert not at.error
    assert at.title[0].value == EN("page_kv_cache")
    assert _metric(at, EN("kvc_m_per_token")) == "320 KiB"  # Llama 3.1 70B: 80 layers x 2 x 8 x 128 x 2 B
    assert _metric(at, EN("kvc_m_per_seq", context="4K")) == "1.34 GB"
    # the per-token figure in decimal too: 327,680 B = 328 KB, x 4,096 = 1.34 GB (a review: KiB beside GB)
    (m,) = [m for m in at.metric if m.label == EN("kvc_m_per_token")]
    assert m.delta == "327,680 B = 328 KB"
    for key in ("kvc_size_title", "kvc_max_batch_title", "kvc_arch_title"):
        _fig(at, key)
    _fig(at, "kvc_prec_title", b=32)
    assert any("GQA" in md.value for md in at.markdown)
    assert at.info  # all layers are full attention: no composition chart


def test_sidebar_batch_changes_the_page():
    at = run_page("kv_cache")
    before = _metric(at, EN("kvc_m_batch", b=32, context="4K"))
    at.sidebar.select_slider(key="batch").set_value(128).run()
    assert not at.exception
    after = _metric(at, EN("kvc_m_batch", b=128, context="4K"))
    assert float(after.split()[0].replace(",", "")) == pytest.approx(float(before.split()[0]) * 4, rel=0.01)
    names = [t["name"] for t in _fig(at, "kvc_size_title")["data"]]
    assert EN("kvc_batch_scenario", b=128) in names


def test_url_restores_an_mla_scenario():
    at = run_page("kv_cache", model="deepseek-v3", hardware="h200", gpus="8", kv="fp8", context="8192")
    assert not at.exception
    assert at.session_state["model"] == "deepseek-v3" and at.session_state["kv"] == "fp8"
    assert any("MLA" in md.value for md in at.markdown)
    assert _metric(at, EN("kvc_m_per_token")) == "34.3 KiB"  # 61 x (512 + 64) x 1 B
    bars = _fig(at, "kvc_arch_title")
    labels = list(bars["data"][0]["y"])
    assert labels[0] == EN("kvc_var_stored_mla", kind="MLA") and EN("kvc_var_mla_naive", k=128) in labels
    prec = _fig(at, "kvc_prec_title", b=32)
    assert EN("kvc_prec_current", fmt="fp8") in [t["name"] for t in prec["data"]]


def test_x_scale_radio_switches_the_context_axis():
    at = run_page("kv_cache")
    assert _fig(at, "kvc_size_title")["layout"]["xaxis"]["type"] == "log"
    at.radio(key="kv_cache.x_scale").set_value("linear").run()
    assert not at.exception
    fig = _fig(at, "kvc_size_title")
    assert fig["layout"]["xaxis"].get("type") != "log"
    assert decode(fig["data"][0]["x"])[0] == 0


def test_sliding_window_model_shows_the_composition():
    at = run_page("kv_cache", model="gemma-3-27b", gpus="1")
    assert not at.exception
    comp = _fig(at, "kvc_comp_title")
    names = [t["name"] for t in comp["data"]]
    assert EN("kvc_part_window", w="1,024") in names and EN("kvc_part_full") in names
    window = decode([t for t in comp["data"] if t["name"] == EN("kvc_part_window", w="1,024")][0]["y"])
    assert np.allclose(window[-5:], window[-1])  # flat after the window
    at.radio(key="kv_cache.composition").set_value("pct").run()
    assert not at.exception
    assert _fig(at, "kvc_comp_title")["layout"]["yaxis"]["range"] == [0, 100]


def test_hybrid_model_shows_a_constant_state_band():
    at = run_page("kv_cache", model="qwen3-next-80b-a3b")
    assert not at.exception
    comp = _fig(at, "kvc_comp_title")
    (state,) = [t for t in comp["data"] if t["name"] == EN("kvc_part_state", w="")]
    y = decode(state["y"])
    assert np.all(y == y[0]) and y[0] > 0
    assert any("Gated DeltaNet" in md.value for md in at.markdown)


def test_mha_model_compares_with_gqa_and_mqa():
    at = run_page("kv_cache", model="llama-2-7b", gpus="1")
    assert not at.exception
    labels = list(_fig(at, "kvc_arch_title")["data"][0]["y"])
    assert labels == [EN("kvc_var_stored", kind="MHA", k=32), EN("kvc_var_gqa", k=8), EN("kvc_var_mqa", k=1)]


def test_extremes_render_and_say_they_do_not_fit():
    for query in ({"context": "1048576"}, {"batch": "4096"}, {"hardware": "tpu-v5e"}):
        at = run_page("kv_cache", **query)
        assert not at.exception, query
        assert at.error, query  # the fit notice
    at = run_page("kv_cache", context="1048576")
    mb = _fig(at, "kvc_max_batch_title")
    assert any(a["text"] == EN("kvc_none_fits") for a in mb["layout"]["annotations"])
    assert any(a.get("label", {}).get("text") == EN("kvc_max_context", n="128K") for a in
               _fig(at, "kvc_size_title")["layout"]["shapes"])  # fmt: skip


def test_no_room_for_the_cache_is_said_not_shown_as_negative_room():
    """405B in bf16 on one H100 (80 GB): the weights alone overflow it. The caption gives the (negative) balance and
    says there is no room; the batch metric's help says 0; the largest-batch chart's note sits mid-plot, clear of the
    scenario's batch line near the top."""
    at = run_page("kv_cache", lang="zh-TW", model="llama-3.1-405b", hardware="h100-sxm", gpus="1", weights="bf16",
                  batch="4096")  # fmt: skip
    assert not at.exception
    (caption,) = [c.value for c in at.caption if "− 工作區" in c.value]  # the memory balance
    said = ZH("kvc_size_caption_no_room", shards=1, usable="@", weights="", workspace="", room="")
    assert caption.startswith(said.split("@")[0])
    assert "沒有留給 KV 快取的空間" in caption and "留給 KV 快取的 -" not in caption
    assert "虛線" not in caption  # no dashed line is drawn (a browser review: the caption had described one)
    # the charts' 'no room' note in the bottom-right corner, under the rising caches (top left it had covered
    # the bf16 line of the KV-precision chart)
    size = _fig(at, "kvc_size_title", tr=ZH)
    (room,) = [a for a in size["layout"]["annotations"] if a["text"] == ZH("kvc_no_room")]
    assert (room["x"], room["y"], room["xanchor"], room["yanchor"]) == (0.98, 0.02, "right", "bottom")
    (batch_metric,) = [m for m in at.metric if m.label == ZH("kvc_m_batch", b="4,096", context="4K")]
    assert "0 GB" in batch_metric.help
    mb = _fig(at, "kvc_max_batch_title", tr=ZH)
    (note,) = [a for a in mb["layout"]["annotations"] if a["text"] == ZH("kvc_none_fits")]
    assert (note["x"], note["y"]) == (0.5, 0.5)


def test_zh_tw():
    at = run_page("kv_cache", lang="zh-TW", model="gemma-3-27b")
    assert not at.exception
    assert at.title[0].value == ZH("page_kv_cache")
    for key in ("kvc_size_title", "kvc_max_batch_title", "kvc_arch_title", "kvc_comp_title"):
        fig = _fig(at, key, tr=ZH)
        assert fig["layout"]["title"]["text"] != EN(key)
    assert any("滑動視窗" in md.value for md in at.markdown)


@pytest.mark.parametrize("model", ["deepseek-v3.2", "llama-4-maverick"])
def test_2025_26_attention_kinds_render_and_are_named(model):
    """DeepSeek-V3.2 (MLA + sparse attention) at 128K on 8 x B200, and Llama 4 Maverick (chunked local attention):
    the page draws (the MHA / GQA / MQA comparison included) and names the attention kind."""
    at = run_page("kv_cache", model=model, hardware="b200", gpus="8", weights="fp8", kv="fp8", context="131072")
    assert not at.exception, at.exception
    text = " ".join(m.value for m in at.markdown)
    assert ("DSA" in text) if model == "deepseek-v3.2" else ("chunked local attention" in text)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("hw", ["tpu7x", "trainium2"])
def test_kv_cache_says_per_chip_for_a_tpu_or_trainium(lang, hw):
    """Issue 19: the KV cache page of a TPU or Trainium says 'per chip' (charts' titles, axes, hovers, the room
    line, captions, metric helps, the attention text), never GPU; a GPU keeps 'per GPU'."""
    from tests.apptest_util import visible_texts

    tr = Translator(lang)
    at = run_page("kv_cache", lang=lang, hardware=hw)
    assert not at.exception
    texts = visible_texts(at)
    assert not [t for t in texts if "GPU" in t]
    assert tr("kvc_size_title_chip") in texts and tr("kvc_axis_gb_per_gpu_chip") in texts
    gpu = visible_texts(run_page("kv_cache", lang=lang, hardware="h200"))
    assert tr("kvc_size_title") in gpu


@pytest.mark.parametrize(("model", "key"), [("llama-3.1-70b", "kvc_formula_gqa"), ("deepseek-v3", "kvc_formula_mla")])
def test_per_token_formula_is_translated(model, key):
    """The 'KV per token' expander's formula comes from ui/strings (it was hard-coded English): zh-TW reads
    '每元素位元組數' where English reads 'bytes/element'; the config.json field names stay as they are."""
    for tr in (EN, ZH):
        at = run_page("kv_cache", lang=tr.lang, model=model)
        at.session_state["explain.kvc_m_per_token"] = True  # open the lazy expander
        at.run()
        assert not at.exception
        (text,) = [m.value for m in at.markdown if m.value.startswith(tr("formula"))]
        assert f"{tr('formula')}{tr('label_colon')}{tr(key)}" in text  # zh-TW: '公式：', not '公式:'
        assert tr is EN or ("bytes/element" not in text and "K and V" not in text)


def test_room_for_the_cache_adds_up_as_printed():
    """DeepSeek-R1 on 8 x B200 (helper review): 'usable 170 GB − weights 83.9 GB − workspace 0.162 GB = 85.5 GB' did
    not add up as printed (usable is 169.50 GB). Every term is shown to 0.01 GB, and they add up."""
    import re

    at = run_page("kv_cache", model="deepseek-r1", hardware="b200", gpus="8", weights="fp8", kv="fp8", batch="64")
    (caption,) = [c.value for c in at.caption if "−" in c.value and "=" in c.value]
    usable, weights, workspace, room = (float(x.replace(",", "")) for x in re.findall(r"([\d,]+\.\d\d) GB", caption))
    assert usable == pytest.approx(169.50, abs=0.01) and weights == pytest.approx(83.88, abs=0.01)
    assert usable - weights - workspace == pytest.approx(room, abs=0.015)


def test_a_huge_cache_reads_in_tb_as_overview_says_it():
    """Batch 4,096 at 1M tokens: '1,407,375 GB / 703,687 GB per GPU' beside Overview's '704 TB' (helper review)."""
    at = run_page("kv_cache", batch="4096", context="1048576")
    assert not at.exception
    (m,) = [m for m in at.metric if m.label == EN("kvc_m_batch", b="4,096", context="1M")]
    assert m.value.endswith(" TB") and m.proto.delta == EN("kvc_per_gpu_value", gb="704 TB")
    overview = run_page("overview", batch="4096", context="1048576")
    assert "704 TB" in [x.value for x in overview.metric]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_replicated_cache_says_how_many_copies_the_gpus_hold(lang):
    """A helper review: DeepSeek-R1 on 8 x B200 (MLA: the latent on every GPU) read 'Batch of 64 at 8K = 18.4 GB, all
    GPUs together' where the node holds 8 copies, 147 GB. The help says one copy and the copies held; a GQA cache split
    as many ways as GPUs says no copies."""
    tr = Translator(lang)
    at = run_page("kv_cache", lang=lang, model="deepseek-r1", hardware="b200", gpus="8", weights="nvfp4", kv="fp8",
                  batch="64", context="8192", output="1024")  # fmt: skip
    (m,) = [m for m in at.metric if m.label == tr("kvc_m_batch", b="64", context="8K")]
    per_gpu = float(m.value.split()[0])
    total = f"{per_gpu * 8:.0f}"
    assert ("8 copies" if lang == "en" else "8 份副本") in m.proto.help and total in m.proto.help.replace(",", "")
    at = run_page("kv_cache", lang=lang, model="llama-3.1-70b", hardware="h200", gpus="8", weights="fp8")
    (m,) = [m for m in at.metric if m.label.startswith(tr("kvc_m_batch", b="@", context="@").split("@")[0])]
    assert ("copies" if lang == "en" else "副本，合計") not in m.proto.help  # 8 KV heads over 8 GPUs: one copy


@pytest.mark.parametrize("tr", [EN, ZH])
def test_the_star_is_the_cache_the_fit_check_takes(tr):
    """Llama-3.1-70B on 2 x H200 (bf16 KV, batch 32, 4K prompts): with 32K output tokens the batch does not fit
    (the page's red notice) while the star, at the prompt's 21.5 GB, sat far under the 96 GB room line (a review).
    The star is the cache at the scenario's last token (4,096 + 32,768 tokens: 32 x 36,864 x 163,840 B / 1 GPU's
    share), above the room line there; with 1K output it sits under it, at 4,096 + 1,024."""
    for output, fits in ((32768, False), (1024, True)):
        at = run_page("kv_cache", lang=tr.lang, model="llama-3.1-70b", hardware="h200", gpus="2", weights="fp8",
                      kv="bf16", batch="32", context="4096", output=str(output))  # fmt: skip
        assert not at.exception, at.exception
        fig = _fig(at, "kvc_size_title", tr)
        (star,) = [t for t in fig["data"] if t.get("name") == tr("kvc_scenario")]
        x, y = float(decode(star["x"])[0]), float(decode(star["y"])[0])
        assert x == 4096 + output
        # Llama-3.1-70B: 80 layers x 8 KV heads x 128 x 2 (K, V) x 2 B = 327,680 B a token, split over 2 GPUs
        assert y == pytest.approx(32 * (4096 + output) * 327_680 / 2 / 1e9, rel=1e-6)
        room = [s for s in fig["layout"]["shapes"] if s.get("type") == "line" and s.get("y0") == s.get("y1")]
        assert room and (y <= float(room[0]["y0"])) is fits
        assert bool(at.error) is not fits
