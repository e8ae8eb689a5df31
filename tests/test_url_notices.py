"""A shared link's bad parameters (ui.notices.url_notices): one box however many, each named by its control's label in
the reader's language with the value used as the control shows it, and names no page reads dropped from the URL."""

from __future__ import annotations

import re

import pytest

from tests.apptest_util import run_page, warning_lines
from tpot_model import load_hardware_catalog, load_model_catalog
from tpot_model.profiles import load_profiles
from ui import fmt, page_state
from ui.figures import frontier as figs
from ui.i18n import Translator
from ui.notices import control_name
from ui.state import PRICE_BASES, WEIGHT_OPTIONS

# thirteen bad sidebar parameters (a browser review: thirteen stacked boxes filled the first screen)
GARBAGE = dict(batch="abc", hardware="nope", context="zz", gpus="-3", weights="foo", kv="bar", compute="x",
               output="lots", profile="zzz", price_basis="q", as_of="yesterday", price="1e400", model="llama")  # fmt: skip
CJK = "\u4e00-\u9fff"


def _name(tr: Translator, label_key: str, param: str) -> str:
    return control_name(tr(label_key), param, tr)


def _taking(tr: Translator, said: str, options) -> str:
    """A choice's notice with the values a link may give it, as the link writes them."""
    return tr.sentences([said, tr("notice_options", options=fmt.alternatives([f"`{o}`" for o in options], tr))])


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_many_bad_parameters_are_one_box_with_a_line_each(lang):
    tr = Translator(lang)
    at = run_page("overview", lang=lang, **GARBAGE)
    assert not at.exception
    (box,) = [w.value for w in at.warning]
    lines = warning_lines(at)
    assert box.startswith(tr("notice_link_many", n=13) + "\n\n- ") and len(lines) == 13, box
    # each line names its control as the sidebar labels it, the parameter beside it
    for param in GARBAGE:
        name = control_name(tr(f"control_{'gpus_gpu' if param == 'gpus' else param}"), param, tr)
        assert sum(line.startswith(name + tr("label_colon")) for line in lines) == 1
    h200, llama = load_hardware_catalog()["h200"], load_model_catalog()["llama-3.1-70b"]
    assert tr("notice_bad_param", name=_name(tr, "control_hardware", "hardware"), given="nope",
              used=fmt.chip(h200, tr)) in lines  # fmt: skip
    assert any(line.startswith(tr("notice_bad_param", name=_name(tr, "control_model", "model"), given="llama",
                                  used=llama.name)) for line in lines)  # fmt: skip
    # a choice lists the values it takes, as the link writes them (a bare 'not valid here' had left them to guess)
    profile = tr(
        "notice_bad_param", name=_name(tr, "control_profile", "profile"), given="zzz", used=tr("profile_typical")
    )
    assert _taking(tr, profile, sorted(load_profiles())) in lines
    assert _taking(tr, tr("notice_bad_param", name=_name(tr, "control_price_basis", "price_basis"), given="q",
                          used=tr("basis_on_demand")), PRICE_BASES) in lines  # fmt: skip
    assert _taking(tr, tr("notice_bad_param", name=_name(tr, "control_weights", "weights"), given="foo",
                          used="fp8"), WEIGHT_OPTIONS) in lines  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_sidebars_and_the_pages_bad_parameters_share_the_box(lang):
    """/frontier with bad sidebar and page parameters: one box; the page's named by their controls (the workload's
    'Sidebar', the rack-scale view's 'GB200 NVL72 vs B200, MI355X', not `custom` or `blackwell`)."""
    tr = Translator(lang)
    at = run_page("frontier", lang=lang, batch="abc", fr_io="zz", fr_rack_chips="hopper", fr_hw="h200,nope")
    assert not at.exception
    assert len(at.warning) == 1 and at.warning[0].value.startswith(tr("notice_link_many", n=4))
    rack = tr("fr_rack_chips_option", rack="GB200 NVL72", others=tr.join(["B200", "MI355X"]))
    assert warning_lines(at) == [
        tr.sentences(
            [
                tr("notice_bad_param", name=_name(tr, "control_batch", "batch"), given="abc", used="32"),
                tr("notice_allowed_from", lo="1"),
            ]
        ),  # the range it takes, said (a review)
        _taking(tr, tr("notice_bad_param", name=_name(tr, "fr_io", "fr_io"), given="zz", used=tr("fr_io_custom")),
                figs.IO_OPTIONS),
        tr("notice_bad_param", name=_name(tr, "fr_hardware", "fr_hw"), given="nope", used="H200 SXM 141GB"),
        _taking(tr, tr("notice_bad_param", name=_name(tr, "fr_rack_chips", "fr_rack_chips"), given="hopper",
                       used=rack), ("blackwell", "blackwell_ultra")),
    ]  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_numbers_used_read_as_their_controls_show_them_and_zh_tw_sets_no_space_between_words(lang):
    """A batch snapped to 1,024 (thousands separated, as 'the nearest, 4,096' was and 'using 1024' was not), an output
    length as its slider shows it (1K); zh-TW '改用預設值', not '改用 預設值'."""
    tr = Translator(lang)
    at = run_page("overview", lang=lang, batch="1000", output="abc", price="abc")
    lines = warning_lines(at)
    assert lines == [
        tr("notice_snapped_param", name=_name(tr, "control_batch", "batch"), given="1000", used="1,024"),
        tr.sentences(
            [
                tr("notice_bad_param", name=_name(tr, "control_output", "output"), given="abc", used="1K"),
                tr("notice_allowed_from", lo="1"),
            ]
        ),
        tr("notice_bad_param_default", name=_name(tr, "control_price", "price"), given="abc"),
    ]
    assert not [line for line in lines if re.search(f"[{CJK}] [{CJK}]", line)]
    if lang == "zh-TW":
        assert lines[2].endswith("改用預設值。") and lines[0].endswith("改用最接近的「1,024」。")


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_an_unknown_parameter_names_this_pages_own_and_leaves_the_link(lang):
    """/frontier?max_gpus=abc: the Serving frontier's budget (fr_rack_gpus), not the Planner's planner_max_gpus; the
    name leaves the URL, so the link copied on opens without the notice; another page's parameter stays (it survives
    a switch of pages) and is not called unknown."""
    tr = Translator(lang)
    at = run_page("frontier", lang=lang, max_gpus="abc", planner_max_gpus="16")
    assert not at.exception
    hint = tr("notice_unknown_hint_label", name=_name(tr, "fr_rack_budget", "fr_rack_gpus"))
    assert [w.value for w in at.warning] == [tr.sentences([tr("notice_unknown_param", param="max_gpus"), hint])]
    assert "max_gpus" not in at.query_params and at.query_params["planner_max_gpus"] == "16"
    shared = run_page("frontier", **{k: at.query_params[k] for k in at.query_params})  # lang among them
    assert not shared.exception and not shared.warning, [w.value for w in shared.warning]
    # Overview has no budget: the nearest the sidebar reads, never another page's
    (said,) = [w.value for w in run_page("overview", lang=lang, max_gpus="abc").warning]
    hint = tr("notice_unknown_hint_label", name=_name(tr, "control_gpus_gpu", "gpus"))
    assert said == tr.sentences([tr("notice_unknown_param", param="max_gpus"), hint])


def test_unknown_parameters_are_matched_among_the_pages_own_and_the_sidebars():
    known = page_state.page_params() | {"gpus", "model", "batch"}
    params = {"max_gpus": "1", "best_engine": "0", "accept": "0.5", "fr_io": "1k1k"}

    def meant(page: str | None) -> list[str]:
        return [n.used for n in page_state.unknown_params(params, known, page)]

    assert meant("planner") == ["planner_max_gpus", "planner_best_engine", "spec_accept"]
    assert meant("frontier") == ["fr_rack_gpus", "fr_rack_best_engine", "fr_accept"]
    assert meant("overview") == ["gpus", "", ""]  # no page's own: only the sidebar's
    assert meant("economics")[0] == "ec_max_gpus"  # the layout search's budget of Economics' fleets
    assert page_state.params_by_page()["cost"] >= {"ce_sweep", "ce_target"}


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_config_json_in_use_is_named_from_it_and_its_assumed_window_is_said(lang):
    """A review: an uploaded config.json was 'custom' in the headline and the sidebar, its 4,096-token window unsaid."""
    import json

    from ui.state import encode_spec

    cfg = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32,
           "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256}  # fmt: skip
    from streamlit.testing.v1 import AppTest

    from tests.apptest_util import APP

    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(dict(lang=lang, model="custom", custom_model=encode_spec(json.dumps(cfg))))
    at.session_state["upload.open"] = True  # the sidebar's upload box open, as after an upload
    at.run()
    tr = Translator(lang)
    assert not at.exception
    captions = [c.value for c in at.sidebar.caption]
    assert tr("upload_in_use", name="LlamaForCausalLM") in captions, captions
    # on the page itself, not only in the sidebar's upload box (closed, or for whoever opens the link, it went unsaid)
    assert tr("upload_window_assumed", tokens="4,096") in [i.value for i in at.main.info]
    assert any("**LlamaForCausalLM**" in m.value for m in at.markdown)  # the headline


def test_an_uploaded_config_json_named_by_its_file_keeps_its_name_in_the_link():
    """A config.json with neither _name_or_path nor architectures is named by its file ('my-llama'); the link's copy
    had none of it, and whoever opened the link read 'custom': the stored text carries the name."""
    import json

    from tpot_model.catalog import entry_problems
    from ui.uploads import named, read_upload

    cfg = {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
           "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256}  # fmt: skip
    obj, problems, text = read_upload("model", json.dumps(cfg).encode(), "my-llama.json")
    assert not problems and obj.name == "my-llama"
    linked, _ = entry_problems("model", named(text, obj.name), "custom_model")  # as from_url reads a link's copy
    assert linked.name == "my-llama"
    assert named("tiny: {name: Tiny}", "x") == "tiny: {name: Tiny}"  # a models.yaml entry names itself


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_number_out_of_range_says_the_range_it_takes_in_its_controls_unit(lang):
    """A review: /planner?planner_target_ms=1e9 read 'not valid here; using 50 ms' alone, then 'It takes 1 to 10,000.'
    without the unit: the range, each end as the control shows a value."""
    from ui import fmt
    from ui.figures import planner as pl

    tr = Translator(lang)
    at = run_page("planner", lang=lang, planner_target_ms="1e9")
    lo, hi = (fmt.target_ms(v / 1e3) for v in (pl.MIN_TARGET_MS, pl.MAX_TARGET_MS))
    assert "ms" in lo and "ms" in hi
    assert any(tr("notice_allowed", lo=lo, hi=hi) in line for line in warning_lines(at)), warning_lines(at)


def test_a_label_in_brackets_takes_the_parameter_inside_them_not_in_a_second_pair():
    """?batch=-3 had read 'Batch (concurrent sequences) (`batch`)': the label's own bracket holds the parameter, in
    the bracket's width; a label without one keeps its pair; an unknown name's hint names its control the same way."""
    en = warning_lines(run_page("overview", batch="-3", model="zzz", bach="4"))
    assert en == [
        "Model (`model`): “zzz” is not valid here; using Llama 3.1 70B.",
        "Batch (concurrent sequences; `batch`): “-3” is not valid here; using 32. It takes 1 or more.",
        "Link parameter `bach` is not one this app reads; it was ignored. Did you mean Batch (concurrent sequences; "
        "`batch`)?",
    ]
    zh = warning_lines(run_page("overview", lang="zh-TW", batch="-3", model="zzz", bach="4"))
    assert zh == [
        "模型（`model`）：「zzz」無效；改用「Llama 3.1 70B」。",
        "批次大小（並行序列數；`batch`）：「-3」無效；改用「32」。可用範圍：1 以上。",
        "連結參數 `bach` 不是本應用程式讀取的參數，已忽略。是否指「批次大小（並行序列數；`batch`）」？",
    ]
    assert not [line for line in en + zh if re.search(r"[)）] ?[(（]", line)]  # no two pairs side by side
    zh_tr = Translator("zh-TW")
    # a half-width bracket holds Latin text (zh-TW's '語言 (Language)'): the English separator; '$' escaped
    assert control_name(zh_tr("control_lang"), "lang", zh_tr) == "語言 (Language; `lang`)"
    assert control_name("Price ($/GPU-hour)", "b_price", Translator()) == "Price (\\$/GPU-hour; `b_price`)"
