"""Translations: every string in both languages with the same placeholders, and no English left on zh-TW pages."""

from __future__ import annotations

import json
import re

import pytest

from tests.apptest_util import ROOT, figures, run_page, visible_texts
from ui.i18n import EN, LANGUAGES, Translator, catalog

PAGES = sorted(p.stem for p in (ROOT / "pages").glob("*.py"))
PLACEHOLDER = re.compile(r"\{([a-z_0-9]*)\}")


def test_every_key_has_both_languages():
    missing = [k for k, v in catalog().items() if not all(isinstance(v.get(lang), str) and v[lang].strip()
                                                          for lang in LANGUAGES)]  # fmt: skip
    assert not missing, missing


def test_placeholders_match_between_languages():
    bad = [k for k, v in catalog().items() if set(PLACEHOLDER.findall(v["en"])) != set(PLACEHOLDER.findall(v["zh-TW"]))]
    assert not bad, bad


def test_english_counts_devices_and_ways_in_words_not_with_a_bracketed_plural():
    """'on 2 GPU(s) of each type', 'splits 1 way(s)' (issue 19): a device count is fmt.devices' ('2 GPUs', '1 GPU',
    '2 chips'), a split is 'split 8-way'."""
    bracketed = {k: v["en"] for k, v in catalog().items() if re.search(r"\b(GPU|chip|way)\(s\)", v["en"])}
    assert not bracketed, bracketed


def test_bold_closes_where_markdown_closes_it():
    """A '**' that closes a bold span after punctuation must be followed by a space, punctuation or the end, as
    CommonMark requires: '本段說的是它。**對側邊欄' was drawn with its asterisks (a screenshot); '它**。對' is bold.
    A placeholder ('{requests}**時') is left out: its value ends the span; a zh-TW string that ends in one is placed
    before more text with no space ('{lead}對側邊欄'), an English one before a space."""
    import unicodedata

    def punctuation(c: str) -> bool:
        return unicodedata.category(c)[0] in "PS"

    bad = []
    for key, entry in catalog().items():
        for lang, text in entry.items():
            for p in [m.start() for m in re.finditer(r"\*\*", text)][1::2]:  # every second '**' closes
                before, after = text[p - 1], text[p + 2 : p + 3] or (" " if lang == "en" else "對")
                if before != "}" and punctuation(before) and not (after.isspace() or punctuation(after)):
                    bad.append((key, text[max(0, p - 12) : p + 6]))
    assert not bad, bad


def test_zh_tw_names_sit_in_the_sentence_without_spaces():
    """A name that may itself be Chinese (a profile's: '一般推論服務引擎') placed into a zh-TW sentence is not set off
    by spaces ('採用 一般推論服務引擎 設定檔' read as three words): no ' *{x}* ' emphasis between CJK characters,
    and the bands' {engine} (a profile's name) in 「」."""
    emphasis = re.compile(r"[\u4e00-\u9fff] \*\{[a-z_]+\}\* [\u4e00-\u9fff]")
    bad = [k for k, v in catalog().items() if emphasis.search(v["zh-TW"])]
    bad += [k for k, v in catalog().items() if k.startswith("band_") and "{engine}" in v["zh-TW"]
            and "「{engine}」" not in v["zh-TW"]]  # fmt: skip
    assert not bad, bad


def test_zh_tw_sets_latin_words_and_numbers_off_from_chinese_by_a_space():
    """zh-TW strings put a space between Chinese and a Latin word or number ('每 MW 每秒', '與 MW'), as everywhere
    else in the catalog: '每 MW每秒輸出 Token 數' read as one run (placeholders, whose values may be either, left out)."""
    touching = re.compile(r"[\u4e00-\u9fff][A-Za-z0-9]|[A-Za-z0-9][\u4e00-\u9fff]")
    bad = [k for k, v in catalog().items() if touching.search(PLACEHOLDER.sub("", v["zh-TW"]))]
    assert not bad, bad


def test_zh_tw_prose_in_parentheses_uses_full_width_ones():
    """A parenthesis of zh-TW prose (its text has a full-width comma or colon) is full-width: '首 Token 延遲（TTFT，每個
    請求）', not '(TTFT，每個請求)'; formulas keep ASCII ones (max(a, b))."""
    prose = re.compile(r"\([^()]*[，：][^()]*\)")
    bad = [k for k, v in catalog().items() if prose.search(v["zh-TW"])]
    assert not bad, bad


def test_the_sidebar_has_one_name_and_the_embed_views_controls_carry_it():
    """Strings that point the reader to the sidebar use one word for it (zh-TW: 側邊欄, not also 側欄), and the embed
    view's box of the sidebar's controls (there is no sidebar there) is labelled with that word, so "choose another
    price basis in the sidebar" leads somewhere in an embedded page too."""
    words = {"en": "sidebar", "zh-TW": "側邊欄"}
    assert not [k for k, v in catalog().items() if re.search("側欄", v["zh-TW"])]
    pointing = [k for k, v in catalog().items() if words["en"] in v["en"].lower()]
    assert len(pointing) > 20 and all(
        words["zh-TW"] in catalog()[k]["zh-TW"] for k in pointing if k != "embed_controls"
    )
    for lang, word in words.items():
        assert word in Translator(lang)("embed_controls").lower()


def test_zh_tw_writes_each_unit_and_term_one_way():
    """zh-TW: 'Token' (not also 'token'), 'MW' (not also 百萬瓦), joules as 'J' beside values that read 'J', one
    word for all-in power (全口徑功耗, not also 含全部設施用電), and a rate of tokens as 每秒 Token 數 in words and
    'tok/s' as a unit, as values print it (not also 'Token/s' or 'tokens/s')."""
    zh = {k: v["zh-TW"] for k, v in catalog().items()}
    assert not [k for k, v in zh.items() if re.search(r"tokens?/s", v, re.IGNORECASE)]
    assert "每秒 Token 數" in zh["hw_col_tps_gpu"] and zh["pl_unit_tps_gpu"] == "tok/s/GPU"
    # one word per term: activations 激活值 (not also 啟動值), chip family 晶片家族 (not also 晶片系列); the roofline's
    # attainable (any software on the chip) and achievable (this engine) roofs under two names, not both 可達上限
    assert not [k for k, v in zh.items() if "啟動值" in v or "晶片系列" in v]
    assert zh["roofline_achievable"].split("（")[0] != zh["roofline_attainable"].split("（")[0].split(" ")[-1]
    # seconds as 's', as beside 'ms' (units stay as they are): not 秒 as a unit after a number or in an axis title
    assert not [k for k, v in zh.items() if re.search(r"\d 秒|（秒）", v)]
    assert not [k for k, v in zh.items() if re.search(r"(?<![A-Za-z{_])token(?![A-Za-z_}])", v)]
    assert not [k for k, v in zh.items() if "百萬瓦" in v or "含全部設施用電" in v]
    assert not [k for k in ("ce_unit_j_per_token", "ce_unit_tokens_per_j", "ce_axis_j_per_token") if "焦耳" in zh[k]]
    # energy per token is board power; all-in power is said where it is used
    assert "(board)" in catalog()["ce_m_j"]["en"] and "板卡" in zh["ce_m_j"]


def test_built_in_profiles_describe_themselves_in_the_readers_language():
    """Methodology printed 'A well-tuned serving engine at steady state. The default.' in zh-TW: every built-in
    profile's description has a translation, whose English is the data's own text (a change there must reach it)."""
    from tpot_model import load_profiles
    from ui import fmt

    for pid, p in load_profiles().items():
        assert fmt.profile_description(p, Translator("en")) == p.description, pid
        zh = fmt.profile_description(p, Translator("zh-TW"))
        assert zh != p.description and re.search(r"[\u4e00-\u9fff]", zh), pid


def test_sidebar_engine_date_reads_newest_in_the_readers_language():
    """The engine-date box's 'newest' (None) showed Streamlit's English 'Choose an option' placeholder in zh-TW."""
    for lang in ("en", "zh-TW"):
        at = run_page("overview", lang=lang)
        assert at.sidebar.selectbox(key="as_of").placeholder == Translator(lang)("as_of_newest")


def test_translator_formats_and_refuses_unknown_keys():
    tr = Translator("zh-TW")
    assert "TPOT" in tr("m_tpot") and tr("m_tpot") != Translator("en")("m_tpot")
    with pytest.raises(KeyError):
        tr("no-such-key")


def _english_fragments() -> set[str]:
    """Pieces of English text (between placeholders) long enough that their presence means an untranslated string."""
    out = set()
    for v in catalog().values():
        if v["en"].strip() == v["zh-TW"].strip():
            continue
        for piece in PLACEHOLDER.split(v["en"])[::2]:
            piece = piece.strip(" .,:;()*—-–/")
            if len(piece) >= 14 and re.search(r"[a-z]{3,} [a-z]{3,}", piece) and piece not in v["zh-TW"]:
                out.add(piece)
    return out


def _visible_text(at) -> str:
    parts: list[str] = []
    for kind in ("title", "header", "subheader", "markdown", "caption", "info", "warning", "error", "success"):
        parts += [str(el.value) for el in getattr(at, kind)]
    parts += [m.label for m in at.metric]
    parts += [e.label for e in at.expander]
    for kind in ("selectbox", "multiselect", "slider", "select_slider", "number_input", "radio", "checkbox",
                 "text_input", "toggle"):  # fmt: skip
        parts += [str(w.label) for w in getattr(at, kind)]
    for df in [*at.dataframe, *at.table]:
        parts += [str(c) for c in df.value.columns]
    for spec in figures(at):
        layout = spec.get("layout", {})
        parts.append(json.dumps(layout.get("title", "")))
        parts += [json.dumps(layout.get(ax, {}).get("title", "")) for ax in layout if ax.startswith(("xaxis", "yaxis"))]
        parts += [str(a.get("text", "")) for a in layout.get("annotations", [])]
        parts += [str(t.get("name", "")) + str(t.get("hovertemplate", "")) for t in spec.get("data", [])]
    return "\n".join(parts)


@pytest.mark.parametrize("page", PAGES)
def test_zh_tw_page_has_no_untranslated_strings(page):
    at = run_page(page, lang="zh-TW")
    assert not at.exception
    text = _visible_text(at)
    leftovers = sorted(f for f in _english_fragments() if f in text)
    assert not leftovers, leftovers
    assert not re.findall(r".{0,30}。 \S.{0,10}", text)  # sentences joined with an English space
    assert not re.findall(r".{0,30} （.{0,10}", text)  # nor a space before a full-width bracket


def test_zh_tw_sentences_joined_without_a_space_after_the_full_stop():
    """The Serving frontier's cost section (after its fold): the price-basis caption goes on with the chips that
    have no public price under the basis (MI355X on demand) as a second sentence, 。 then no space."""
    at = run_page("frontier", lang="zh-TW", more="true")
    assert not at.exception
    basis = [c.value for c in at.caption if "MI355X" in c.value and "價格基準下沒有公開價格" in c.value]
    assert basis and "。AMD Instinct MI355X" in basis[0], basis
    assert not re.findall(r".{0,30}。 \S.{0,10}", _visible_text(at))


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("page", PAGES)
def test_no_label_shows_an_unfilled_placeholder(page, lang):
    """Titles, headings, captions, metric, expander and widget labels: every {placeholder} filled in."""
    at = run_page(page, lang=lang)
    labels = [str(el.value) for kind in ("title", "header", "subheader", "caption") for el in getattr(at, kind)]
    labels += [m.label for m in at.metric] + [e.label for e in at.expander]
    for kind in ("selectbox", "multiselect", "slider", "select_slider", "number_input", "radio", "checkbox", "toggle"):
        labels += [str(w.label) for w in getattr(at, kind)]
    assert not [label for label in labels if re.search(r"(?<![%$\\])\{[a-z_]+\}", label)]


def test_a_chip_translator_gives_each_strings_chip_variant():
    """Issue 19: Translator.for_device('chip') (ui.fmt.device_tr on a TPU or Trainium) gives a key's '_chip' variant
    where ui/strings has one, the key itself elsewhere; 'gpu' gives the key as written."""
    from tpot_model import load_hardware_catalog
    from ui import fmt

    hw = load_hardware_catalog()
    chip, gpu = fmt.device_tr(hw["tpu7x"], Translator("en")), fmt.device_tr(hw["h200"], Translator("en"))
    assert chip("per_gpu_hour") == "per chip-hour" and gpu("per_gpu_hour") == "per GPU-hour"
    assert chip("control_price") == "Your own $/chip-hour" and chip("page_planner") == gpu("page_planner")
    zh = fmt.device_tr(hw["trainium2"], Translator("zh-TW"))
    assert zh("enter_own_price") == "輸入自訂每晶片小時價格" and zh.lang == "zh-TW"
    variants = [k for k in catalog() if k.endswith("_chip") and k.removesuffix("_chip") in catalog()]
    fields = re.compile(r"(?<!\{)\{(\w+)")  # '{hw}', not the hover templates' '%{x}'
    for k in variants:  # a variant takes the same values as its key (the page fills either)
        for lang in LANGUAGES:
            ours, base = catalog()[k][lang], catalog()[k.removesuffix("_chip")][lang]
            assert set(fields.findall(ours)) == set(fields.findall(base)), (k, lang)


SHOWN_CALLS = {"markdown", "caption", "info", "warning", "error", "success", "title", "header", "subheader", "metric",
               "button", "expander", "write", "text", "explain", "selectbox", "radio", "number_input", "slider",
               "select_slider", "multiselect", "toggle", "checkbox", "download_button", "tabs"}  # fmt: skip
NOT_SHOWN_KWARGS = {"key", "icon", "file_name", "mime", "format", "on_click", "type", "width", "persist_state"}


def _english_words(node) -> list[str]:
    """The English words of a string literal or f-string's literal parts (placeholders, tags and units dropped)."""
    import ast

    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = " ".join(v.value for v in node.values if isinstance(v, ast.Constant))
    else:
        return []
    text = re.sub(r"%\{[^}]*\}|<[^>]*>|\{[^}]*\}", " ", text)
    if re.fullmatch(r"[\w.\-|:/ ]*", text) and not re.search(r"[A-Za-z]{3,}\s+[A-Za-z]{2,}|[A-Z][a-z]{2,}", text):
        return []  # an id, a key, a file name, an option value ('ce_m_usd_1m', 'revenue.csv', 'off')
    units = {"ms", "tok", "FLOP", "byte", "TPOT", "TTFT", "GB", "KiB", "MB", "TB", "kW", "MW"}
    return [w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in units]


def test_pages_show_no_hard_coded_english():
    """Every text a page shows comes from ui/strings (en + zh-TW): no string literal with English words is passed to
    a Streamlit element or the 'how is this computed?' expander in pages/*.py (the Cost formula was one)."""
    import ast

    found = []
    for path in sorted((ROOT / "pages").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr not in SHOWN_CALLS:
                continue
            args = [*node.args, *(k.value for k in node.keywords if k.arg not in NOT_SHOWN_KWARGS)]
            found += [f"{path.name}:{a.lineno}" for a in args if _english_words(a)]
    assert not found, found


def test_strings_are_read_once_when_sessions_start_together(monkeypatch):
    """Fifty readers of a fresh server had each parsed ui/strings (0.7 s a parse with the pure-Python YAML loader,
    interleaved on the GIL: 46 s for 50 sessions): threads that ask together wait for the first reader."""
    import threading

    from ui import i18n

    calls = []
    real = i18n.load_yaml
    monkeypatch.setattr(i18n, "load_yaml", lambda text: calls.append(1) or real(text))
    i18n._CATALOG.clear()
    try:
        threads = [threading.Thread(target=i18n.catalog) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(calls) == len(list(i18n.STRINGS_DIR.glob("*.yaml")))  # each file parsed once, not 8 times
    finally:
        i18n._CATALOG.clear()


def test_zh_tw_says_per_million_as_the_glossary_does():
    """每百萬 Token (the glossary's 'per 1M tokens'), never 每百萬個 Token, on every page."""
    assert not [k for k, v in catalog().items() if "每百萬個" in v["zh-TW"]]


def test_zh_tw_bold_ends_before_its_full_width_punctuation():
    """'**為何此處的 TPOT 與總覽不同**。對…', not '**…不同。** 對…': the bold's closing ** after a full-width 。 or ：
    left an English space between two Chinese sentences (21 strings did)."""
    assert not [k for k, v in catalog().items() if re.search(r"[。：；，]\*\* ", v["zh-TW"])]


def test_durations_name_their_unit_in_the_readers_language():
    """zh-TW pages read '24.7 min' and '+27.0 min (+114.9%)': fmt.duration and fmt.ms (from 10 s) wrote English
    units whatever the language. Given a translator, seconds, minutes, hours and days read 秒, 分鐘, 小時, 天;
    English is unchanged, and ms stays ms."""
    from ui import fmt

    zh, en = Translator("zh-TW"), Translator("en")
    cases = [(30.0, "30.0 s", "30.0 秒"), (1482.0, "24.7 min", "24.7 分鐘"), (20 * 3600.0, "20.0 h", "20.0 小時"),
             (3 * 86400.0, "3.00 d", "3.00 天"), (0.0412, "41.2 ms", "41.2 ms")]  # fmt: skip
    for seconds, english, chinese in cases:
        assert fmt.duration(seconds) == fmt.duration(seconds, tr=en) == english
        assert fmt.duration(seconds, tr=zh) == chinese
    assert fmt.ms(216.0, tr=zh) == "216 秒" and fmt.ms(216.0) == "216 s"
    assert fmt.fine_duration(1482.0, tr=zh) == "24.7 分鐘"


NO_DATA_PAGES = {  # pages and scenarios whose numbers may not exist: a chip without a TDP, a price or an all-in power
    "compare": dict(model="deepseek-r1", hardware="vr200", gpus="8", weights="fp4", kv="fp8", batch="64",
                    context="8192", output="1024", price_basis="hyperscaler", b_hardware="mi455x", c_hardware="b200"),
    "methodology": dict(hardware="mi455x"),
    "cost": dict(hardware="mi455x"),
    "overview": dict(hardware="tpu-8i"),
    "economics": dict(ec_chips="b200,tpu-8i,trainium3"),
}  # fmt: skip


@pytest.mark.parametrize("page", sorted(NO_DATA_PAGES))
def test_zh_tw_pages_say_a_missing_number_in_chinese_not_n_a(page):
    """Compare in zh-TW (DeepSeek-R1 on Rubin, MI455X, B200) had read 'n/a' in MI455X's 每 Token 能耗 (board power)
    cell beside translated ones, and Methodology '每百萬 Token n/a' of an unpriced chip: every placeholder a zh-TW
    page shows is in ui/strings (MI455X's cell says it has no published board power)."""
    at = run_page(page, lang="zh-TW", **NO_DATA_PAGES[page])
    assert not at.exception
    texts = visible_texts(at)
    for t in at.table:
        v = getattr(t.value, "data", t.value)
        texts += [str(x) for x in v.to_numpy().ravel()]
    assert not [t for t in texts if re.search(r"(?<![A-Za-z])(n/a|N/A|None|nan)(?![A-Za-z])", t)], page
    if page == "compare":
        df = getattr(at.table[0].value, "data", at.table[0].value)
        zh = Translator("zh-TW")
        assert df.loc[zh("cmp_row_energy"), "B"] == zh("no_public_tdp_short")


def test_zh_drops_the_space_after_a_name_that_ends_in_a_full_width_bracket():
    """A browser review: 'NVIDIA Rubin (per GPU, Vera Rubin NVL72)（已發表，尚未出貨） 在任何價格基準下…': the template's
    space after a Latin name stays, after a full-width bracket it goes; English is untouched."""
    from tpot_model import resolve_hardware
    from ui import fmt

    zh = Translator("zh-TW")
    rubin, l40s = resolve_hardware("vr200"), resolve_hardware("l40s")
    said = zh("no_public_price_nowhere", hw=fmt.chip(rubin, zh))
    assert said.startswith(f"{fmt.chip(rubin, zh)}在任何價格基準下") and "） 在" not in said
    assert zh("no_public_price_nowhere", hw=l40s.name).startswith(f"{l40s.name} 在任何價格基準下")  # after Latin: kept
    assert EN("no_public_price_nowhere", hw="X (a)").startswith("X (a) has no published price")


def test_zh_tw_drops_a_templates_space_between_two_chinese_characters():
    """A template's space sets a Latin word or number off from Chinese ('{devices} 以內': '72 張 GPU 以內'); where the
    value ends in Chinese it had left a gap inside a word run ('72 顆晶片 以內', '8 顆晶片 內'). English is as written."""
    zh = Translator("zh-TW")
    assert zh("fr_rack_fit_precision", devices="8 張 GPU", items="x") == "或在 8 張 GPU 內降低精度：x。"
    assert zh("fr_rack_fit_precision", devices="8 顆晶片", items="x") == "或在 8 顆晶片內降低精度：x。"
    search = zh(
        "ec_cap_help_search",
        budget="72 顆晶片",
        tier="x",
        max="144",
        counted=zh("ec_counted_rented"),
        fewest=zh("ec_fewest_rented"),
    )
    assert "72 顆晶片以內" in search and "（72 顆晶片本身" in search and "72 顆晶片 " not in search
    # the capex's tier, a Latin name, set off from the Chinese after it ('超大規模業者 TCO價格' had touched)
    help_text = zh("ec_cap_help", tier=zh("basis_hyperscaler"), max="144", counted=zh("ec_counted_rented"))
    assert "超大規模業者 TCO 價格" in help_text
    assert (
        Translator("en")("fr_rack_fit_precision", devices="8 chips", items="x")
        == "Or, within 8 chips, a lower precision: x."
    )
