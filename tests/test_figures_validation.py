"""Validation figures and tables (pure, no Streamlit run): the scatter's traces, axes and points against the
validation table, the metric conversion, the filters, the summaries, the findings and the sources."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from tests.apptest_util import decode
from tpot_model import load_hardware_catalog, load_model_catalog, load_profiles
from tpot_model.calibration import TARGET_MEDIAN
from tpot_model.fitting import ErrorSummary
from ui import fmt
from ui.figures import validation as figs
from ui.figures.common import hardware_colour, log_tick_values, log_ticks, tick_label
from ui.i18n import EN, Translator
from ui.validation_data import build_table, source_url

ZH = Translator("zh-TW")


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return build_table()  # the real cross-validation (a few seconds, once for the module)


def _json(fig) -> dict:
    return json.loads(fig.to_json())


def _group(spec: dict, group: str) -> list[dict]:
    return [t for t in spec["data"] if t.get("legendgroup") == group]


def _xy(traces: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    xs = [decode(t["x"]).astype(float) for t in traces]
    ys = [decode(t["y"]).astype(float) for t in traces]
    return (np.concatenate(xs), np.concatenate(ys)) if xs else (np.array([]), np.array([]))


def _headline(table: pd.DataFrame) -> pd.DataFrame:
    return figs.select_rows(table, figs.engines(table), include_all=False)


# ------------------------------------------------------------------------------------------------ scatter


def test_scatter_traces_axes_and_units(table):
    points = figs.scatter_data(_headline(table), "tokens_per_s")
    spec = _json(figs.scatter(points, "tokens_per_s"))
    names = [t["name"] for t in spec["data"]]
    assert names[:3] == [EN("val_band", pct="25%"), EN("val_identity"), EN("val_ideal_series")]
    hardware = _group(spec, "hardware")
    # ordered by full name, named short in the legend (the full names took half a 900 px frame)
    catalog = load_hardware_catalog()
    # one entry per physical device, the unit the page counts ('12 devices'): an RTX 3090 Ti, modelled on the RTX
    # 3090's entry, has its own, by its published name, in a colour of its own
    assert len(hardware) == points["device"].nunique() == 12
    ti = next(t for t in hardware if t["name"] == "GeForce RTX 3090 Ti 24GB".removeprefix("GeForce "))
    plain = next(t for t in hardware if t["name"] == "RTX 3090")
    assert ti["marker"]["color"] != plain["marker"]["color"]
    hardware = [t for t in hardware if t is not ti]
    points = points[points["device"] != "rtx-3090-ti"]
    by_name = dict(zip(points["hardware_name"], points["hardware_id"], strict=True))
    assert [t["name"] for t in hardware] == [fmt.chip_short(catalog[by_name[n]]) for n in sorted(by_name)]
    assert {t["name"] for t in _group(spec, "engine")} == set(points["engine"])  # marker key: one entry per engine
    layout = spec["layout"]
    assert layout["xaxis"]["type"] == layout["yaxis"]["type"] == "log"
    assert layout["xaxis"]["title"]["text"] == "Measured (tokens/s)"
    assert layout["yaxis"]["title"]["text"] == "Predicted (tokens/s)"
    assert layout["xaxis"]["range"] == layout["yaxis"]["range"]  # same scale: y = x is the diagonal
    ids = {fmt.chip_short(catalog[i]): i for i in by_name.values()}
    for t in hardware:
        assert t["marker"]["color"] == hardware_colour(ids[t["name"]])
    tpot = _json(figs.scatter(figs.scatter_data(_headline(table), "tpot_ms"), "tpot_ms"))["layout"]
    assert tpot["xaxis"]["title"]["text"] == "Measured TPOT (ms)" and tpot["yaxis"]["title"]["text"].endswith("(ms)")


def test_scatter_points_equal_the_table(table):
    head = _headline(table)
    spec = _json(figs.scatter(figs.scatter_data(head, "tokens_per_s"), "tokens_per_s"))
    x, y = _xy(_group(spec, "hardware"))
    assert len(x) == len(head) == 72  # 50 published + 22 llama.cpp rows of 2025
    pairs = sorted(zip(x, y, strict=True))
    expected = sorted(zip(head["measured"].astype(float), head["predicted_loho"].astype(float), strict=True))
    np.testing.assert_allclose(pairs, expected, rtol=1e-12)
    ix, iy = _xy(_group(spec, "ideal"))
    expected = sorted(zip(head["measured"].astype(float), head["predicted_ideal"].astype(float), strict=True))
    np.testing.assert_allclose(sorted(zip(ix, iy, strict=True)), expected, rtol=1e-12)
    # the guides span every point: y = x and the +-25% band
    lo, hi = min(x.min(), y.min(), iy.min()), max(x.max(), y.max(), iy.max())
    bx, by = _xy(_group(spec, "guide")[:1])
    assert bx.min() < lo and bx.max() > hi
    np.testing.assert_allclose(by[:2] / bx[:2], 0.75)
    np.testing.assert_allclose(by[2:4] / bx[2:4], 1.25)


def test_tpot_points_are_one_over_the_rate_and_static_batch_drops_out(table):
    every = figs.select_rows(table, figs.engines(table), include_all=True)
    rate = figs.scatter_data(every, "tokens_per_s")
    tpot = figs.scatter_data(every, "tpot_ms")
    static = int((figs.predicted(every) & (every["category"] == "static_batch")).sum())
    assert static > 0 and len(rate) == int(figs.predicted(every).sum()) and len(tpot) == len(rate) - static
    per_user = rate.set_index("id").loc[tpot["id"]]
    np.testing.assert_allclose(tpot["measured_tpot_ms"], 1e3 / per_user["measured_tokens_per_s"].to_numpy())
    np.testing.assert_allclose(tpot["predicted_loho_tpot_ms"], 1e3 / per_user["predicted_loho_tokens_per_s"].to_numpy())
    np.testing.assert_allclose(tpot["error_loho"], 1.0 / (1.0 + per_user["error_loho"].to_numpy()) - 1.0)
    spec = _json(figs.scatter(tpot, "tpot_ms"))
    assert sum(len(decode(t["x"])) for t in _group(spec, "hardware")) == len(tpot)
    # non-headline points are open markers, and the legend says so
    symbols = [s for t in _group(spec, "hardware") for s in t["marker"]["symbol"]]
    assert sum(s.endswith("-open") for s in symbols) == int((~tpot["headline"]).sum()) > 0
    assert EN("val_leg_open") in [t["name"] for t in spec["data"]]


def test_engine_filter_selects_rows(table):
    only = figs.select_rows(table, ["exllamav2"], include_all=False)
    assert set(only["profile"]) == {"exllamav2"} and only["headline"].all()
    spec = _json(figs.scatter(figs.scatter_data(only, "tokens_per_s"), "tokens_per_s"))
    assert sum(len(decode(t["x"])) for t in _group(spec, "hardware")) == len(only) < len(_headline(table))
    assert figs.scatter_data(figs.select_rows(table, ["tensorrt-llm"], include_all=False), "tokens_per_s").empty
    assert figs.engines(table)[-1] == ""  # rows without a profile: a choice of their own, last
    assert len(figs.select_rows(table, figs.engines(table), include_all=True)) == len(table)


def test_empty_scatter_and_zh_tw_labels(table):
    empty = figs.scatter_data(table.iloc[:0], "tokens_per_s")
    spec = _json(figs.scatter(empty, "tokens_per_s", tr=ZH))
    assert [t["legendgroup"] for t in spec["data"]] == ["guide", "guide"]
    assert (
        spec["layout"]["title"]["text"] == ZH("val_scatter_title_tokens_per_s") != EN("val_scatter_title_tokens_per_s")
    )
    assert spec["layout"]["xaxis"]["title"]["text"] == "實測值（tok/s）"
    points = figs.scatter_data(_headline(table), "tokens_per_s")
    text = figs.scatter(points, "tokens_per_s", tr=ZH).data[3].text[0]
    assert "實測" in text and "LOHO 預測" in text and "https://" in text


def test_hover_names_the_point(table):
    points = figs.scatter_data(_headline(table), "tokens_per_s")
    fig = figs.scatter(points, "tokens_per_s")
    trace = next(t for t in fig.data if t.legendgroup == "hardware")
    catalog = load_hardware_catalog()
    ids = {fmt.chip_short(catalog[i]): i for i in points["hardware_id"].unique()}
    row = points[points["hardware_id"] == ids[trace.name]].iloc[0]
    text = trace.text[0]
    for part in (row["model"], row["hardware_as_published"], row["engine"], f"weights {row['weights']}",
                 "batch 1", f"output {row['output_tokens']:,.0f} tokens", fmt.number(row["measured_tokens_per_s"]),
                 fmt.pct(row['error_loho'], signed=True), row["source_url"]):  # fmt: skip
        assert part in text, part


def test_log_ticks():
    vals = log_tick_values(3.0, 12_000.0)
    labels = [tick_label(v) for v in vals]
    assert vals == [5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000]
    assert labels[-1] == "10,000" and labels[0] == "5"
    # an axis of rates: from 10,000 on with the prefix of the numbers beside the chart ('531 K'), not 1,000,000
    assert [tick_label(v, prefixed=True) for v in (5_000, 20_000, 500_000, 1_000_000, 2e9)] == [
        "5,000", "20 K", "500 K", "1 M", "2 G"]  # fmt: skip
    # on an axis that reaches 10,000, the thousands below take the prefix too: one style ('2 K, 5 K, 10 K')
    assert [tick_label(v, prefixed=True, thousands=True) for v in (500, 2_000, 5_000, 20_000)] == [
        "500", "2 K", "5 K", "20 K"]  # fmt: skip
    assert log_ticks(np.array([300.0, 20_000.0]), prefixed=True)["ticktext"] == [
        "500", "1 K", "2 K", "5 K", "10 K", "20 K"]  # fmt: skip
    assert [tick_label(v) for v in log_tick_values(0.04, 0.3)] == ["0.05", "0.1", "0.2"]


# ------------------------------------------------------------------------------------------------ summaries


def test_headline_summaries_and_cards(table):
    s = figs.headline_summaries(table)
    head = table[table["headline"]]
    assert s["loho"] == ErrorSummary.of(head["error_loho"].to_numpy()) and s["loho"].n == 72
    assert s["ideal"].median > s["loho"].median  # calibration buys accuracy
    cards = figs.headline_cards(table)
    assert [c.value for c in cards] == [fmt.pct(s["loho"].median), fmt.pct(s["loho"].p90),
                                        fmt.pct(s["ideal"].median), fmt.pct(s["ideal"].p90)]  # fmt: skip
    assert cards[0].delta == (EN("val_goal_met") if s["loho"].median <= TARGET_MEDIAN else EN("val_goal_missed"))
    # a table whose predictions are 50% off fails both goals
    bad = table.assign(error_loho=np.where(table["headline"], 0.5, np.nan))
    worse = figs.headline_cards(bad, ZH)
    assert [c.colour for c in worse[:2]] == ["red", "red"] and worse[0].delta == ZH("val_goal_missed")


def test_engine_summary(table):
    summary = figs.engine_summary(table)
    assert list(summary["profile"]) == ["llama.cpp", "gpt-fast", "exllamav2", "tensorrt-llm"]  # checked-only last
    assert summary["headline_rows"].sum() == 72 and summary["predicted_rows"].sum() == int(figs.predicted(table).sum())
    trt = summary.set_index("profile").loc["tensorrt-llm"]
    assert trt["headline_rows"] == 0 and math.isnan(trt["loho_median"])
    shown = figs.engine_summary_display(summary, ZH)
    assert list(shown.columns)[0] == "引擎" and shown.iloc[-1, 3] == "— / —"


# ------------------------------------------------------------------------------------------------ tables, sources


def test_error_table(table):
    shown = figs.error_table(table, ZH)
    assert len(shown) == len(table) and ZH("val_col_loho_error") in shown.columns
    np.testing.assert_allclose(shown[ZH("val_col_loho_error")], table["error_loho"] * 100)
    assert set(shown[ZH("val_col_trust")]) <= {"高", "中高", "中", "中低", "高（資訊不完整）"}
    excluded = shown[table["excluded_because"].astype(bool).to_numpy()]
    assert excluded[ZH("val_col_notes")].str.len().min() > 0
    data = figs.error_data(table)
    assert {"measured", "predicted_loho", "error_loho_fraction", "source_url"} <= set(data.columns)
    ratio = data["predicted_loho"].astype(float) / data["measured"].astype(float) - 1
    assert np.allclose(data["error_loho_fraction"].astype(float), ratio, equal_nan=True)  # a fraction, not percent


def test_sources(table):
    items = figs.sources(table, EN)
    assert sum(s.rows for s in items) == len(table) and len(items) == table["source"].nunique()
    assert all(s.note_key for s in items)  # every source of the data has its note
    lines = figs.source_lines(items, ZH)
    assert all(line.startswith("- ") for line in lines) and "可信度" in lines[0]
    assert source_url("Pope et al., arXiv:2211.05102 / MLSys 2023") == "https://arxiv.org/abs/2211.05102"
    assert source_url("https://github.com/a/b (README.md)") == "https://github.com/a/b"
    assert figs.markdown_safe("a $5 *b* [c]") == "a \\$5 \\*b\\* \\[c\\]"


# ------------------------------------------------------------------------------------------------ findings


def test_findings_come_from_the_profiles(table):
    profiles, models, hardware = load_profiles(), load_model_catalog(), load_hardware_catalog()
    found = dict(figs.findings(table, profiles, models, hardware))
    # the KV re-read finding appears only while a fitted engine re-reads the cache per query head (llama.cpp did
    # until 2025; its current profile, flash attention on, does not)
    rereads = any(p.kv_gqa_reread_fraction > 0 for p in profiles.values() if not p.is_ideal)
    assert {"val_find_overhead", "val_find_tp", "val_find_dequant"} <= set(found)
    assert ("val_find_kv" in found) == rereads
    for key, values in found.items():  # every finding renders in both languages
        assert EN(key, **values) and ZH(key, **values)
    assert fmt.ms(profiles["llama.cpp"].per_token_overhead_s) in found["val_find_overhead"]["listing"]
    assert found["val_find_tp"]["latency"] == fmt.us(profiles["gpt-fast"].allreduce_latency_s)
    # change a fitted parameter: the text follows (nothing typed in)
    changed = {**profiles, "gpt-fast": replace(profiles["gpt-fast"], allreduce_latency_s=50e-6)}
    tp = dict(figs.findings(table, changed, models, hardware))["val_find_tp"]
    assert tp["latency"] == "50.0 µs" and tp["per_token"] == fmt.ms(2 * 32 * 50e-6)
    # the layer split's hop is the two rows' own: (1/multi - 1/single) / (GPUs - 1), not a profile's all-reduce
    # latency (12 µs had stood beside 118 against 131 tokens/s on 8 GPUs, 116 µs a hop: a review)
    split = found["val_find_split"]
    multi, single = (float(split[k].replace(",", "")) for k in ("multi", "single"))
    hop_us = (1 / multi - 1 / single) / (int(split["gpus"]) - 1) * 1e6
    assert split["hops"] == str(int(split["gpus"]) - 1)
    # from the rates as shown (3 significant digits: 118 against 131, 120 µs; unrounded 116 µs)
    assert float(split["hop"].split()[0]) == pytest.approx(hop_us, rel=0.06) and hop_us > 50


def test_error_table_gives_bits_per_weight_their_unit_and_mlperf_chips_short_names():
    """900 px review: the error table's weights read '4.90' (a GGUF file's bits per weight, no unit), and the MLPerf
    chart named chips in full, tilted over half its height, without a title and with two ticks."""
    rows = pd.DataFrame({"weights": ["4.90", "fp16", float("nan")]})
    assert [figs.weights_text(w, ZH) for w in rows["weights"]] == ["4.90 位元", "fp16", "—"]
    assert figs.weights_text("4.9", EN) == "4.90 bits"
    frame = pd.DataFrame({
        "hardware_name": ["NVIDIA GB200 (per B200 GPU, NVL72, 1200 W)"] * 2, "hardware_short": ["GB200 NVL72"] * 2,
        "locfo_error": [0.1, -0.2], "system": ["s", "t"], "round": ["v5.1"] * 2, "measured_tpot_ms": [10.0, 20.0],
        "locfo_tpot_ms": [11.0, 16.0], "model": ["m"] * 2,
    })  # fmt: skip
    fig = figs.mlperf_errors(frame, "hardware_name", tr=EN)
    assert [t.name for t in fig.data] == ["GB200 NVL72"] and fig.layout.yaxis.dtick == 25
    assert fig.layout.title.text == EN("val_mlperf_title", group="chip")


def test_the_charts_csvs_name_their_errors_as_fractions():
    """The Validation charts' CSVs held error_loho, error_lofo, error and locfo_error as fractions while the page
    shows percent (a review): each is named *_fraction, the other columns as they were."""
    t = pd.DataFrame({"id": ["a"], "error": [0.1], "error_loho": [-0.2], "locfo_error": [0.3], "errors_seen": [2]})
    assert list(figs.export_table(t).columns) == [
        "id", "error_fraction", "error_loho_fraction", "locfo_error_fraction", "errors_seen"]  # fmt: skip


def test_a_measurements_unit_is_written_in_the_pages_language(table):
    """The data files write 'tokens/s': the zh-TW hover had read 實測 131 tokens/s beside axes and pages that write
    tok/s (a review); English keeps the files' words. Every hover of the tokens/s scatter carries the unit."""
    zh = Translator("zh-TW")
    for tr, unit in ((zh, "tok/s"), (EN, "tokens/s")):
        spec = _json(figs.scatter(figs.scatter_data(_headline(table), "tokens_per_s"), "tokens_per_s", tr=tr))
        hovers = [h for t in spec["data"] if t.get("hovertemplate") and t.get("text") for h in t["text"]]
        assert hovers and all(unit in h for h in hovers)
        if tr is zh:
            assert not [h for h in hovers if "tokens/s" in h]
    assert figs.unit_text("tokens/s/GPU", zh) == "tok/s/GPU" and figs.unit_text("ms/token", zh) == "ms/token"
