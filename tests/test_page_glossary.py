"""Glossary page: built from ui/strings/glossary.yaml; every term in both languages; search in either language."""

import pytest
import yaml

from tests.apptest_util import ROOT, run_page
from ui.i18n import Translator

GLOSSARY = ROOT / "ui" / "strings" / "glossary.yaml"
REQUIRED = {
    "tpot", "ttft", "itl", "tps_user", "tps_total", "throughput", "interactivity", "prefill", "decode", "batch",
    "concurrency", "context_length", "kv_cache", "gqa", "mqa", "mla", "moe", "sliding_window", "linear_attention",
    "memory_bandwidth", "hbm", "arithmetic_intensity", "roofline", "ridge_point", "memory_bound", "compute_bound",
    "tensor_parallel", "pipeline_parallel", "expert_parallel", "all_reduce", "quantization", "fp8", "fp4", "int4",
    "gguf", "mbu", "mfu", "sparse_flops", "speculative_decoding", "continuous_batching", "tco",
}  # fmt: skip


def _strings() -> dict:
    return yaml.safe_load(GLOSSARY.read_text(encoding="utf-8"))


def _terms() -> list[str]:
    return [k.removeprefix("gl_").removesuffix("_term") for k in _strings() if k.endswith("_term")]


def test_every_term_has_both_languages_and_a_definition():
    strings = _strings()
    terms = _terms()
    assert set(terms) >= REQUIRED, REQUIRED - set(terms)
    for t in terms:
        for key in (f"gl_{t}_term", f"gl_{t}_def"):
            assert set(strings[key]) == {"en", "zh-TW"}, key
            assert strings[key]["en"].strip() and strings[key]["zh-TW"].strip(), key
        assert strings[f"gl_{t}_def"]["en"] != strings[f"gl_{t}_def"]["zh-TW"], t
    defs = {k.removeprefix("gl_").removesuffix("_def") for k in strings if k.startswith("gl_") and k.endswith("_def")}
    assert defs == set(terms)  # no orphan definitions


def test_taiwan_usage():
    text = "\n".join(v["zh-TW"] for v in _strings().values())
    assert "引數" not in text  # "parameter" is 參數 in Taiwan usage
    for simplified in ("内存", "带宽", "芯片", "数据", "参数", "缓存", "计算", "为"):
        assert simplified not in text, simplified


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_page_renders_all_terms_in_the_chosen_language(lang):
    at = run_page("glossary", lang=lang)
    assert not at.exception, at.exception
    tr = Translator(lang)
    assert at.title[0].value == tr("page_glossary")
    table = at.table[0].value
    assert list(table.columns) == [tr("gl_header_en"), tr("gl_header_zh"), tr("gl_header_definition")]
    assert len(table) == len(_terms())
    row = table[table[tr("gl_header_en")] == "Ridge point"].iloc[0]
    assert row[tr("gl_header_zh")] == "屋脊點（拐點）"
    assert row[tr("gl_header_definition")] == tr("gl_ridge_point_def")
    button = at.download_button(key="glossary.csv")
    assert button.label == tr("download_csv")


def test_search_filters_in_either_language():
    at = run_page("glossary")
    at.text_input(key="glossary.search").set_value("屋脊").run()
    terms = at.table[0].value["English term"].tolist()
    assert "Ridge point" in terms and len(terms) < len(_terms())
    at.text_input(key="glossary.search").set_value("speculative").run()
    assert at.table[0].value["繁體中文"].tolist() == ["推測解碼"]
    at.text_input(key="glossary.search").set_value("no-such-term-xyz").run()
    assert not at.exception and not at.table
    assert at.info[0].value == Translator("en")("gl_no_match", query="no-such-term-xyz")


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_terms_the_app_models_say_where_not_that_they_are_not_modelled(lang):
    """Issue 19: the Glossary said continuous batching, speculative decoding and pipeline parallelism were not
    modelled, which the Serving frontier and the Serving planner contradict; each now names the page that models it."""
    tr = Translator(lang)
    at = run_page("glossary", lang=lang)
    table = at.table[0].value
    definition = dict(zip(table[tr("gl_header_en")], table[tr("gl_header_definition")], strict=True))
    pages = {
        "Continuous batching": ["page_frontier", "page_overview", "page_compare"],
        "Speculative decoding": ["page_planner", "page_frontier"],
        "Pipeline parallelism (PP)": ["page_planner", "page_frontier"],
        "Prefill-decode disaggregation": ["page_planner", "page_frontier"],
        "Expert parallelism (EP)": ["page_planner", "page_frontier"],
    }
    for term, page_keys in pages.items():
        text = definition[term]
        assert "Not modelled" not in text and "未模擬" not in text and "模擬的是靜態批次" not in text, term
        for key in page_keys:
            assert tr(key) in text, (term, key)
    assert tr("m_batch_prefill").lower() in definition["Time to first token (TTFT)"].lower()
