"""Validation page: renders in both languages, shows cross_validate's numbers, its controls change the chart and the
table, it ignores the sidebar scenario, and its reruns are fast (the cross-validation is cached per process)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.apptest_util import decode, figures, run_page
from tpot_model.calibration import cross_validate, cross_validate_families, default_priors, load_measurements
from ui import cache, fmt
from ui.figures import validation as vfigs
from ui.i18n import Translator

EN, ZH = Translator("en"), Translator("zh-TW")
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def cv():
    return cross_validate(load_measurements())  # independent of the page's cached table


def _loho_points(at) -> int:
    fig = figures(at)[0]
    return sum(len(decode(t["x"])) for t in fig["data"] if t.get("legendgroup") == "hardware")


def _metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_renders_and_shows_cross_validations_numbers(cv):
    at = run_page("validation")
    assert not at.exception, at.exception
    shown = _metrics(at)
    head = cv.summary()
    assert head.n == 72  # 50 published + 22 llama.cpp rows of 2025 (lc25-*)
    assert shown[EN("val_m_loho_median")] == fmt.pct(head.median)
    assert shown[EN("val_m_loho_p90")] == fmt.pct(head.p90)
    # per engine: the LOHO median / p90 cells are cross_validate's per-profile numbers
    table = at.table[0].value.set_index(EN("val_sum_engine"))  # a static table: it fits a 900 px frame
    names = {"llama.cpp": "llama.cpp", "gpt-fast": "gpt-fast", "exllamav2": "ExLlamaV2"}
    for pid, s in cv.by_profile().items():
        assert table.loc[names[pid], EN("val_sum_loho")] == f"{fmt.pct(s.median)} / {fmt.pct(s.p90)}"
        assert table.loc[names[pid], EN("val_sum_headline_rows")] == s.n
    fig = figures(at)[0]
    assert fig["layout"]["title"]["text"] == EN("val_scatter_title_tokens_per_s")
    assert _loho_points(at) == 72
    assert len(at.dataframe[0].value) == 72  # the error table: the headline rows by default
    assert len(at.markdown) > 10 and any("overhead-bound" in md.value for md in at.markdown)


def test_leave_one_chip_family_out_is_shown_as_cross_validate_families_computes_it():
    """Issue 17: the batch-1 figures under leave-one-chip-family-out, on the page as calibrate prints them."""
    rows = load_measurements()
    fam = cross_validate_families(rows, default_priors(rows)).summary()
    assert fam.n == 72 and 0.05 < fam.median < fam.p90 < 0.5
    at = run_page("validation")
    caption = " ".join(c.value for c in at.caption)
    assert f"{fmt.pct(fam.median)}, p90 {fmt.pct(fam.p90)}" in caption


def test_zh_tw():
    at = run_page("validation", lang="zh-TW")
    assert not at.exception, at.exception
    assert at.title[0].value == ZH("page_validation")
    assert figures(at)[0]["layout"]["title"]["text"] == ZH("val_scatter_title_tokens_per_s")
    assert ZH("val_m_loho_median") in _metrics(at)
    assert ZH("val_col_loho_error") in at.dataframe[0].value.columns
    assert any("開銷" in md.value for md in at.markdown)


def test_engine_filter_changes_the_scatter():
    at = run_page("validation")
    before = _loho_points(at)
    at.multiselect(key="validation.engines").set_value(["exllamav2"]).run()
    assert not at.exception
    after = _loho_points(at)
    assert 0 < after < before and after == 16
    assert set(at.dataframe[0].value[EN("val_col_engine")]) == {"ExLlamaV2"}
    at.multiselect(key="validation.engines").set_value(["tensorrt-llm"]).run()  # static batch only: nothing at batch 1
    # the MLPerf chart and the engine-over-time chart ignore the filter
    scatters = [
        f
        for f in figures(at)
        if f["data"][0]["type"] != "box" and f["layout"].get("title", {}).get("text") != EN("val_time_title")
    ]
    assert not at.exception and not scatters and at.info[0].value == EN("val_scatter_none")


def test_mlperf_section_shows_every_fit_result_by_chip_and_by_round():
    at = run_page("validation")
    boxes = [f for f in figures(at) if f["data"][0]["type"] == "box"]
    assert len(boxes) == 1
    rows = cache.mlperf_table()
    assert sum(len(decode(t["y"])) for t in boxes[0]["data"]) == len(rows) == 204
    at.segmented_control(key="validation.mlperf_group").set_value("round").run()
    assert not at.exception
    box = [f for f in figures(at) if f["data"][0]["type"] == "box"][0]
    assert [t["name"] for t in box["data"]] == sorted(set(rows["round"]))


def test_include_all_and_tpot():
    at = run_page("validation")
    at.checkbox(key="validation.include_all").check().run()
    assert not at.exception
    # 81 predictable rows of the published set + the 22 llama.cpp rows of 2025 (lc25-*); 112 rows in the table
    assert _loho_points(at) == 103 and len(at.dataframe[0].value) == 112
    at.radio(key="validation.metric").set_value("tpot_ms").run()
    assert not at.exception
    fig = figures(at)[0]
    assert fig["layout"]["xaxis"]["title"]["text"] == EN("val_axis_measured_tpot_ms")
    assert _loho_points(at) == 103 - 8  # static-batch throughput has no TPOT (the 103 predicted rows above)
    assert any(c.value == EN("val_scatter_dropped", n=8) for c in at.caption)
    x = np.concatenate([decode(t["x"]) for t in fig["data"] if t.get("legendgroup") == "hardware"])
    assert 10 < np.median(x) < 100  # milliseconds, not tokens/s


def test_sidebar_scenario_does_not_change_the_page():
    at = run_page("validation")
    before = json.dumps([_metrics(at), figures(at)[0]["data"]], sort_keys=True)
    at.sidebar.select_slider(key="batch").set_value(1).run()
    assert not at.exception
    assert json.dumps([_metrics(at), figures(at)[0]["data"]], sort_keys=True) == before


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_band_coverage_and_an_engine_over_time(lang):
    """Issue 17: the band's coverage on its own cross-validation, per level and overall, as data/bands.json has it
    (read, not computed); llama.cpp's May-2024 and 2025 measurements on the same chips beside the dated model."""
    tr = Translator(lang)
    at = run_page("validation", lang=lang)
    assert not at.exception, at.exception
    assert any(h.value == tr("val_h_bands") for h in at.header) and any(h.value == tr("val_h_time") for h in at.header)
    bands = json.loads((ROOT / "data" / "bands.json").read_text(encoding="utf-8"))
    shown = next(d.value for d in at.table if tr("val_band_col_coverage") in d.value.columns)
    levels = ["same_family", "other_family", "unmeasured"]
    assert list(shown[tr("val_band_col_level")]) == [tr(f"val_band_level_{v}") for v in [*levels, "overall"]]
    expected = [bands["levels"][v] for v in levels] + [bands["overall"]]
    assert list(shown[tr("val_band_col_coverage")]) == [fmt.pct(e["coverage"], 0) for e in expected]
    # each level's own held-out residuals (a level pooled with a wider one draws its band from more: "n")
    assert list(shown[tr("val_band_col_n")]) == [e.get("n_own", e["n"]) for e in expected]
    assert bands["overall"]["n"] == sum(bands["levels"][v]["n_own"] for v in levels)
    intro = tr("val_bands_intro", n=bands["overall"]["n"], coverage=fmt.pct(bands["overall"]["coverage"], 0),
               ratio=f"{bands['overall']['median_high_low_ratio']:.2f}")  # fmt: skip
    assert any(md.value == intro for md in at.markdown)
    # llama.cpp on the RTX 3090: 115.42 tok/s (May 2024, Q4_K_M) and 156.56 tok/s (Sept 2025, Q4_0), measured
    fig = next(f for f in figures(at) if f["layout"].get("title", {}).get("text") == tr("val_time_title"))
    measured = {t["name"]: list(decode(t["y"])) for t in fig["data"]}
    assert measured[tr("val_time_measured", chip="NVIDIA GeForce RTX 3090")] == [115.42, 87.49, 47.40, 156.56]
    assert tr("val_time_model", chip="NVIDIA GeForce RTX 4090") in measured
    legend = fig["layout"]["legend"]  # below the plot: not printed over the title, nor beside it in a narrow page
    assert (legend["orientation"], legend["yref"], legend["yanchor"]) == ("h", "container", "bottom")
    table = next(d.value for d in at.dataframe if tr("val_time_col_measured") in d.value.columns)
    assert {"2024-05-15", "2025-09-04", "2025-11-25"} <= set(table[tr("val_time_col_date")])
    assert list(table[tr("val_time_col_output")][:2]) == ["512", "8K"]  # tg512 and tg8192 on the RTX 3090
    # the intro names the model as its measurements do, not the catalog id it is modelled as (browser review)
    intro = next(md.value for md in at.markdown if md.value.startswith(tr("val_time_intro", engine="llama.cpp",
                                                                          model="")[:8]))  # fmt: skip
    assert "Meta-Llama-3-8B" in intro and "llama-3.1-8b" not in intro, intro


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_mlperf_summary_table_has_headers_in_words_and_errors_in_percent(lang):
    """The MLPerf summary table showed its raw column names (hardware_name, locfo_p90_abs_error) and fractions
    (0.1355) beside text in %: headers in the page's language, errors as percentages to one decimal (Streamlit's
    'percent' format had printed 13.14% beside 23.2%). A static table that wraps: at 900 px in zh-TW a scrolled grid
    had hidden the error columns, their headers showing over blank cells (browser review)."""
    tr = Translator(lang)
    at = run_page("validation", lang=lang)
    header = tr("val_mlperf_col_locfo_p90_abs_error")
    (table,) = [t for t in at.table if header in t.value.columns]
    labels = vfigs.mlperf_summary_labels("hardware_name", tr=tr)
    assert list(table.value.columns) == list(labels.values())
    fractions = vfigs.mlperf_summary(cache.mlperf_table(), "hardware_name")
    for c in vfigs.MLPERF_SUMMARY_FRACTIONS:  # in %, one decimal; the signed median with its sign and a true minus
        signed = c == "locfo_median_error"
        want = [f"{100 * v:{'+' if signed else ''}.1f}%".replace("-", "−") for v in fractions[c]]
        assert list(table.value[labels[c]]) == want
    assert any(v.startswith("+") for v in table.value[labels["locfo_median_error"]])
    assert any(v.startswith("−") for v in table.value[labels["locfo_median_error"]])
    assert list(table.value[labels["rows"]]) == list(fractions["rows"])


def test_findings_give_a_weight_format_in_bits_its_unit():
    """'What the data shows' read 'Llama-2-7B, weights 3, on the NVIDIA GeForce RTX 3090' (helper review): a GGUF
    file's bits per weight with its unit, as the tables give it ('3.00 bits'); a named format stays as it is."""
    import re

    at = run_page("validation")
    assert not at.exception, at.exception
    said = [m.value for m in at.markdown]
    assert not [s for s in said if re.search(r"weights \d+(\.\d+)?[,;)]", s)], said
    assert any(re.search(r"weights \d+\.\d\d bits", s) for s in said)
