"""Hardware page through the app (AppTest): renders, follows the sidebar and the URL, vendor filter, zh-TW."""

from __future__ import annotations

import numpy as np
import pytest

from tests.apptest_util import decode, figures, run_page
from tpot_model import load_hardware_catalog
from ui import fmt, notices
from ui.i18n import EN, Translator

ZH = Translator("zh-TW")
CATALOG = load_hardware_catalog()


def _tpot_fig(at) -> dict:
    (fig,) = [
        f for f in figures(at) if f["layout"]["xaxis"]["title"]["text"] in (EN("axis_tpot_ms"), ZH("axis_tpot_ms"))
    ]
    return fig


def _ideal_bars(fig: dict) -> tuple[list[str], np.ndarray]:
    """Full names (the hover's: the axis names chips shortly) and values of the ideal-bound bars (the trace named
    like the ideal label that carries data)."""
    (bar,) = [t for t in fig["data"] if t.get("name") in (EN("label_ideal"), ZH("label_ideal")) and t.get("customdata")]
    return [row[4] for row in bar["customdata"]], decode(bar["x"])


def test_renders_with_defaults():
    at = run_page("hardware")
    assert not at.exception, at.exception
    assert at.title[0].value == EN("hw_title")
    titles = [f["layout"]["title"]["text"] for f in figures(at)]
    assert titles[:2] == [EN("hw_bw_year_title"), EN("hw_bw_rank_title")]
    assert titles[3] == EN("hw_frontier_title")
    assert "Llama 3.1 70B" in titles[2] and "2 chip" in titles[2]  # every kind listed: the neutral word (issue 19)
    names, _ = _ideal_bars(_tpot_fig(at))
    assert len(names) == len(CATALOG)  # every chip of the catalog
    assert any(EN("hw_caption")[:30] in c.value for c in at.caption)  # decimal TB/s, dense compute
    assert len(at.dataframe) == 2  # the scenario on every chip, memory generations
    at.session_state["hardware.specs_open"] = True  # the datasheet table is sent once its expander opens
    at.run()
    assert not at.exception and len(at.dataframe) == 3


def test_bandwidth_chart_is_the_datasheet():
    at = run_page("hardware")
    (rank,) = [f for f in figures(at) if f["layout"]["title"]["text"] == EN("hw_bw_rank_title")]
    bar = rank["data"][0]
    expected = sorted((h.memory_bandwidth_bytes_per_s / 1e12 for h in CATALOG.values()), reverse=True)
    np.testing.assert_allclose(decode(bar["x"]), expected)
    assert rank["layout"]["xaxis"]["title"]["text"] == "Peak memory bandwidth (TB/s)"


def test_sidebar_batch_changes_the_tpot_bars():
    at = run_page("hardware")
    _, before = _ideal_bars(_tpot_fig(at))
    at.sidebar.select_slider(key="batch").set_value(1).run()
    assert not at.exception
    _, after = _ideal_bars(_tpot_fig(at))
    assert after.sum() < before.sum()  # less KV cache to read per step


def test_url_restores_scenario_and_reproduces_the_classic_table():
    # 70B FP16 on one GPU, batch 1, no context: the ideal bound is weight bytes / bandwidth
    at = run_page("hardware", model="llama-3.1-70b", weights="fp16", gpus="1", batch="1", context="0", output="1")
    assert not at.exception
    fig = _tpot_fig(at)
    assert "fp16" in fig["layout"]["title"]["text"] and "1 chip" in fig["layout"]["title"]["text"]  # every kind
    names, ms = _ideal_bars(fig)
    ideal = dict(zip(names, ms, strict=True))
    assert 60 < ideal[CATALOG["a100-80gb-sxm"].name] < 75  # ~68 ms
    assert 37 < ideal[CATALOG["h100-sxm"].name] < 45  # ~41 ms
    assert 26 < ideal[CATALOG["h200"].name] < 32  # ~29 ms
    assert 15 < ideal[CATALOG["b200"].name] < 20  # ~17 ms
    # the 80 GB parts do not hold 140 GB of weights: hatched, with the GPUs they need
    estimate_bar = fig["data"][0]
    h100 = names.index(CATALOG["h100-sxm"].name)
    assert estimate_bar["marker"]["pattern"]["shape"][h100] == "/"
    assert EN("hw_needs_gpus", devices="2 GPUs") in estimate_bar["text"][h100]


def test_vendor_filter():
    at = run_page("hardware")
    at.multiselect(key="hardware.vendors").set_value(["AMD", "Intel"]).run()
    assert not at.exception
    names, _ = _ideal_bars(_tpot_fig(at))
    # an unshipped part carries its mark on the chart too (issue 18): MI455X is announced
    expected = {EN("hw_announced_name", name=h.name) if h.announced else h.name
                for h in CATALOG.values() if h.vendor in ("AMD", "Intel")}  # fmt: skip
    assert set(names) == expected and "AMD Instinct MI455X (Helios) (announced)" in names
    at.multiselect(key="hardware.vendors").set_value([]).run()
    assert not at.exception
    assert not figures(at) and at.info[0].value == EN("hw_none")


def test_ideal_profile_shows_one_bar_per_chip_and_log_toggle():
    at = run_page("hardware", profile="ideal")
    assert not at.exception
    fig = _tpot_fig(at)
    assert EN("hw_estimate") not in [t.get("name") for t in fig["data"]]
    at.toggle(key="hardware.log_x").set_value(True).run()
    assert _tpot_fig(at)["layout"]["xaxis"]["type"] == "log"


def test_chip_without_price_and_model_that_does_not_fit():
    at = run_page("hardware", model="deepseek-v3", gpus="1", batch="4096", context="1048576")
    assert not at.exception
    table = at.dataframe[0].value
    assert not table[EN("hw_col_fits")].any()
    tpu = table.set_index(EN("hw_col_hardware")).loc[fmt.chip_short(CATALOG["tpu-v5e"])]  # short, as on the axis
    assert np.isnan(tpu[EN("hw_col_usd_1m")])  # no catalog price: blank, not zero


def test_zh_tw():
    at = run_page("hardware", lang="zh-TW")
    assert not at.exception
    titles = [f["layout"]["title"]["text"] for f in figures(at)]
    assert titles[0] == ZH("hw_bw_year_title") and titles[3] == ZH("hw_frontier_title")
    assert "每款" in titles[2]
    assert at.title[0].value == ZH("hw_title")


def test_vendor_filter_survives_a_page_switch():
    at = run_page("hardware")
    at.multiselect(key="hardware.vendors").set_value(["Google"]).run()
    at.switch_page("pages/overview.py").run()
    at.switch_page("pages/hardware.py").run()
    assert not at.exception
    names, _ = _ideal_bars(_tpot_fig(at))
    assert all(n.startswith("Google") for n in names)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_tpot_note_names_the_price_basis_and_its_date(lang):
    """Issue 19: the note under the TPOT chart said 'Prices are the catalog's; the sidebar's price override applies to
    {hw} only', stale since prices come from the sidebar's price basis (data/prices.yaml): it names the basis and its
    date (every chip's hyperscaler TCO is dated 2026-09-20), or, under 'Your own', the price and the one chip it
    prices."""
    tr = Translator(lang)
    at = run_page("hardware", lang=lang, price_basis="hyperscaler")
    assert not at.exception
    captions = [c.value for c in at.caption]
    note = tr("price_basis_note", basis=tr("basis_hyperscaler"), as_of="2026-09-20")
    (text,) = [c for c in captions if tr("hw_prices_basis", note=note) in c]
    assert tr("hw_prices_custom", price="$2.50", hw=CATALOG["h200"].name) not in text
    at = run_page("hardware", lang=lang, hardware="h200", price_basis="custom", price="2.5")
    assert not at.exception
    custom = tr("hw_prices_custom", price="$2.50", hw=CATALOG["h200"].name)
    assert any(custom in c.value for c in at.caption)


# ------------------------------------------------------------------------------------------------ MLPerf measured


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_mlperf_measured_beside_modelled_for_llama2(lang):
    """Llama 2 70B has MLPerf results on 15 catalog chips: a section with the chart (one measured bar per chip and
    scenario, H200 Server = ASUSTeK's v5.1 4,274.2262 tok/s per GPU) and the table of measured beside modelled."""
    tr = EN if lang == "en" else ZH
    at = run_page("hardware", model="llama-2-70b", lang=lang)
    assert not at.exception and not at.error
    assert tr("hw_mlperf_header") in [h.value for h in at.header]
    (fig,) = [f for f in figures(at) if f["layout"]["title"]["text"] == tr("hw_mlperf_title", model="Llama 2 70B")]
    (bars,) = [t for t in fig["data"] if t.get("name") == tr("hw_mlperf_measured") and t.get("hovertext")]
    x = dict(zip(bars["y"], decode(bars["x"]), strict=True))
    assert x["H200 SXM 141GB · Server"] == 4274.2262 and len(x) == 19
    table = at.dataframe[1].value  # after the scenario-on-every-chip table
    chips = fmt.device_tr([CATALOG["h200"], CATALOG["gaudi2"]], tr)  # Intel Gaudi 2 among them: a chip, not a GPU
    assert {chips("hw_mlperf_col_measured_tps"), chips("hw_mlperf_col_modelled_tps")} <= set(table.columns)
    assert len(table) == 19
    assert any(chips("hw_mlperf_caption")[:40] in c.value for c in at.caption)


@pytest.mark.parametrize("tr", [EN, ZH])
def test_mlperf_chart_and_table_write_each_number_alike(tr):
    """A review: DeepSeek-R1's MLPerf chart labelled GB300's Server run '2,907' where the table under it read
    '2,910' (NVIDIA's 72-GPU v5.1 run, 2,907.33 tok/s per GPU): both write it at 3 significant figures
    (fmt.figures), and so every measured and modelled value of the chart."""
    at = run_page("hardware", model="deepseek-r1", lang=tr.lang)
    assert not at.exception, at.exception
    import plotly.graph_objects as go

    from ui.figures.common import FRAME_FIGURE_PX, at_width

    (fig,) = [f for f in figures(at) if f["layout"]["title"]["text"] == tr("hw_mlperf_title", model="DeepSeek-R1")]
    wide = at_width(go.Figure(fig), FRAME_FIGURE_PX[2])  # at 1400 px, every label whole
    (bars,) = [t for t in wide.data if t.text]
    labels = dict(zip(bars.y, bars.text, strict=True))
    assert labels["GB300 NVL72 · Server"] == tr("hw_mlperf_bar_label", tps="2,910", round="v5.1")
    (df,) = [d for d in at.dataframe if tr("hw_mlperf_col_measured_tps") in d.value.columns]
    rows = zip(df.value[tr("hw_col_hardware")], df.value[tr("hw_mlperf_col_scenario")], strict=True)
    cells = _cells(df)
    for i, (name, scenario) in enumerate(rows):
        short = fmt.chip_short(next(h for h in CATALOG.values() if h.name == name))
        measured = cells[tr("hw_mlperf_col_measured_tps")].iloc[i]
        modelled = cells[tr("hw_mlperf_col_modelled_tps")].iloc[i]
        said = (tr("hw_mlperf_bar_label_both", tps=measured, model=modelled, round="v5.1") if modelled
                else tr("hw_mlperf_bar_label", tps=measured, round="v5.1"))  # fmt: skip
        assert labels[f"{short} · {scenario}"] == said
    assert cells[tr("hw_mlperf_col_measured_tps")].iloc[0] == "2,910"  # GB300's, the first row
    (narrow,) = [t for t in fig["data"] if t.get("text")]  # at 900 px beside the sidebar: B200's value alone
    assert tr("hw_mlperf_bar_short", tps="2,320") in narrow["text"]


def test_mlperf_section_follows_the_vendor_filter_and_is_absent_without_results():
    at = run_page("hardware", model="llama-2-70b")
    at.multiselect(key="hardware.vendors").set_value(["AMD"]).run()
    assert not at.exception
    (fig,) = [f for f in figures(at) if f["layout"]["title"]["text"] == EN("hw_mlperf_title", model="Llama 2 70B")]
    (bars,) = [t for t in fig["data"] if t.get("name") == EN("hw_mlperf_measured") and t.get("hovertext")]
    assert {y.split(" · ")[0] for y in bars["y"]} == {"MI300X", "MI325X"}
    at.multiselect(key="hardware.vendors").set_value(["Google"]).run()
    assert not at.exception
    assert any(i.value.startswith("MLPerf Inference has results for Llama 2 70B on") for i in at.info)
    at = run_page("hardware")  # Llama 3.1 70B: MLPerf has none; no section, no error
    assert not at.exception and EN("hw_mlperf_header") not in [h.value for h in at.header]
    assert any(
        c.value.startswith("MLPerf Inference (rounds v4.0–v5.1) has no results for Llama 3.1 70B") for c in at.caption
    )


def test_mlperf_section_in_the_embed_view():
    at = run_page("hardware", embedded=True, model="llama-2-70b", more="true")  # below the page's fold
    assert not at.exception
    assert any(f["layout"]["title"]["text"] == EN("hw_mlperf_title", model="Llama 2 70B") for f in figures(at))
    alone = run_page("hardware", embedded=True, only="hardware-mlperf", model="llama-2-70b")  # the chart by itself
    assert not alone.exception and not alone.warning
    assert [f["layout"]["title"]["text"] for f in figures(alone)] == [EN("hw_mlperf_title", model="Llama 2 70B")]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_list_of_every_kind_says_chips_and_a_gpu_only_list_gpus(lang):
    """Issue 19: the Hardware page lists GPUs, TPUs and Trainium side by side: its intro, chart title, note, table
    headers and caption use the neutral 'chips' ('on 2 chips of each type', not 'chip(s)'); with only NVIDIA chosen
    they say GPUs (one: 'GPU'). A chip that does not fit is labelled with its own word ('needs 16 chips' on a TPU)."""
    tr = Translator(lang)
    at = run_page("hardware", lang=lang)
    assert not at.exception
    title = _tpot_fig(at)["layout"]["title"]["text"]
    two_chips = "2 chips" if lang == "en" else "2 顆晶片"
    assert title == tr("hw_tpot_title_chip", model="Llama 3.1 70B", weights="fp8", batch=32, context="4K",
                       devices=two_chips) and "GPU" not in title and "(s)" not in title  # fmt: skip
    captions = [c.value for c in at.caption]
    for key in ("hw_tpot_note_chip", "hw_table_caption_chip"):  # the template up to its first placeholder
        assert any(c.startswith(tr(key).split("{")[0]) for c in captions), key
    (table,) = [d.value for d in at.dataframe if tr("hw_col_tpot_ideal") in d.value.columns]
    assert tr("hw_col_tps_gpu_chip") in table.columns and tr("hw_col_min_gpus_chip") in table.columns
    at.multiselect(key="hardware.vendors").set_value(["NVIDIA"]).run()
    title = _tpot_fig(at)["layout"]["title"]["text"]
    two_gpus = "2 GPUs" if lang == "en" else "2 張 GPU"
    assert title == tr("hw_tpot_title", model="Llama 3.1 70B", weights="fp8", batch=32, context="4K", devices=two_gpus)
    at.sidebar.select_slider(key="gpus").set_value(1).run()  # one of each: 'on 1 GPU of each type'
    one = _tpot_fig(at)["layout"]["title"]["text"]
    assert one.endswith("on 1 GPU of each type" if lang == "en" else "每款 1 張 GPU"), one
    (table,) = [d.value for d in at.dataframe if tr("hw_col_tpot_ideal") in d.value.columns]
    assert tr("hw_col_tps_gpu") in table.columns
    # a TPU that does not fit names its need in chips
    at = run_page("hardware", lang=lang, model="llama-3.1-405b", gpus="1")
    bars = [t for t in _tpot_fig(at)["data"] if t.get("text") and t.get("y")]  # y: the chips' short names
    labels = {y: text for t in bars for y, text in zip(t["y"], t["text"], strict=True)}
    (table,) = [d.value for d in at.dataframe if tr("hw_col_tpot_ideal") in d.value.columns]
    need = table.set_index(tr("hw_col_hardware")).loc[fmt.chip_short(CATALOG["tpu7x"]), tr("hw_col_min_gpus_chip")]
    tpu = labels[fmt.chip_short(CATALOG["tpu7x"])]
    assert tr("hw_needs_gpus", devices=fmt.devices(CATALOG["tpu7x"], need, tr)) in tpu and "GPU" not in tpu
    # TPU v5e (16 GB) holds 405B on no count up to 1,024: said in chips too
    v5e = labels[fmt.chip_short(CATALOG["tpu-v5e"])]
    assert tr("hw_needs_no_count_chip") in v5e and "GPU" not in v5e


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_mlperf_block_with_tpus_and_trainium_listed(lang):
    """Issue 19: the MLPerf block's words follow the chips it shows (fmt.device_tr over its rows). MLPerf has results
    on GPUs and Intel's Gaudi 2 (a chip, not a GPU) for Llama 2 70B, so with a TPU in the sidebar and TPUs /
    Trainium among the listed chips the block still draws, in chips; a figure built for GPU rows only says 'per
    GPU'."""
    tr = Translator(lang)
    at = run_page("hardware", model="llama-2-70b", hardware="tpu7x", lang=lang)
    assert not at.exception and not at.error
    assert tr("hw_mlperf_header") in [h.value for h in at.header]
    (fig,) = [f for f in figures(at) if f["layout"]["title"]["text"] == tr("hw_mlperf_title", model="Llama 2 70B")]
    assert fig["layout"]["xaxis"]["title"]["text"] == tr("hw_mlperf_axis_chip")  # Gaudi 2 among the measured
    chips = fmt.device_tr([CATALOG["h200"], CATALOG["tpu7x"]], tr)  # were a TPU ever measured
    assert any(c.value.startswith(chips("hw_mlperf_caption")[:40]) for c in at.caption)
    assert chips("hw_mlperf_axis") == tr("hw_mlperf_axis_chip") and "GPU" not in chips("hw_mlperf_caption")
    assert "GPU" not in chips("hw_mlperf_hover_run", round="v5.1", date="", scenario="", benchmark="", submitter="",
                              system="", gpus=8, weights="fp8")  # fmt: skip


def _cells(frame):
    """A dataframe's cells as its Styler writes them (display values; '' where the page's placeholder shows)."""
    import pyarrow as pa

    return pa.ipc.open_stream(frame.proto.arrow_data.styler.display_values).read_pandas()


def test_tables_show_one_count_of_decimals_per_column():
    """Hardware's tables read 2.751, 7.53, 10.4, 17.84 ms and 1.555, 3.7, 22 TB/s down one column: every number
    column has one format (fmt.column_decimals of its largest value; the memory generations' bandwidth at least two
    decimals, as the bars' labels beside it read: 0.86, not 0.9); a column that needs none for its largest value
    reads 3 significant figures each, their zeros kept ('46.0' tok/s per user beside '43.7': the locale's format
    had dropped it, '46'), and stays a column of numbers (sorted as such)."""
    import json
    import math

    from ui import fmt

    at = run_page("hardware")
    assert not at.exception
    for df in at.dataframe:
        shown, config, cells = df.value, json.loads(df.proto.columns or "{}"), _cells(df)
        for c in [c for c in shown.columns if shown[c].dtype.kind == "f"]:
            if c == EN("hw_col_usd_1m"):  # dollars, as every other $ figure (it read '1.55', a review): still numbers
                assert "format" not in config[c].get("type_config", {}), c
                assert list(cells[c]) == [fmt.usd(v) if math.isfinite(v) else "" for v in shown[c]], c
                continue
            d = fmt.column_decimals(shown[c].to_numpy(), lo=2 if c == EN("hw_col_best_bw") else 0)
            if d:
                assert config[c]["type_config"]["format"] == f"%.{d}f", c
                continue
            assert "format" not in config[c].get("type_config", {}), c  # it would override the text below
            assert list(cells[c]) == [fmt.number(v) if math.isfinite(v) else "" for v in shown[c]], c
    (df,) = [d for d in at.dataframe if EN("hw_col_tps_user") in d.value.columns]
    user = dict(zip(df.value[EN("hw_col_hardware")], _cells(df)[EN("hw_col_tps_user")], strict=True))
    assert (user["TPU 8t*"], user["H200 SXM 141GB"], user["Rubin NVL72*"], user["RTX 3090"]) == (
        "46.0", "44.8", "130", "8.71")  # fmt: skip
    usd = dict(zip(df.value[EN("hw_col_hardware")], _cells(df)[EN("hw_col_usd_1m")], strict=True))
    # H200 at $4.54 per GPU-hour, as Compare's and Overview's $1.76; MI325X to 3 significant figures; Rubin: no price
    assert (usd["H200 SXM 141GB"], usd["MI325X"], usd["Rubin NVL72*"]) == ("$1.76", "$0.687", "")


def _shown(h) -> str:
    """A chip's name in the datasheet table: its short name, starred when announced (specs_display_table)."""
    return fmt.chip_short(h) + ("*" if h.announced else "")


def _datasheet(lang: str = "en", **query):
    """The datasheet table of the Hardware page (its expander opened): the AppTest element, its cells' text, its
    column config and the page run."""
    import json

    tr = Translator(lang)
    at = run_page("hardware", lang=lang, **query)
    at.session_state["hardware.specs_open"] = True
    at.run()
    assert not at.exception, at.exception
    df = next(d for d in at.dataframe if tr("hw_col_spec_bw") in d.value.columns)
    return df, _cells(df), json.loads(df.proto.columns), at


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_datasheet_table_writes_each_column_at_three_significant_figures(lang):
    """A review: its 16-bit TFLOP/s column read '312.00' for every chip because L40S's is 362.05 (each column had
    the decimals its most precise value has). Each column now reads 3 significant figures (cache.display_numbers:
    '312', '362', '27.2', '2,250'; bandwidth at two decimals, as the bars and the generations table beside it), the
    cells numbers still (sorted as such); the price in dollars."""
    tr = Translator(lang)
    df, cells, config, _ = _datasheet(lang)
    name = list(df.value[tr("hw_col_hardware")])

    def cell(hw_id: str, key: str) -> str:
        return cells[tr(key)].iloc[name.index(_shown(CATALOG[hw_id]))]

    assert [cell(h, "hw_col_spec_tflops") for h in ("a100-80gb-sxm", "l40s", "b200", "mi300x", "rtx-3090")] == [
        "312", "362", "2,250", "1,310", "71.0"]  # fmt: skip
    assert [cell(h, "hw_col_spec_gb") for h in ("tpu-v4", "h200", "a100-80gb-sxm")] == ["34.4", "141", "80.0"]
    assert [cell(h, "hw_col_spec_gib_reported") for h in ("h100-sxm", "b300", "h200-nvl")] == ["79.6", "269", ""]
    assert [cell(h, "hw_col_spec_tdp") for h in ("l4", "b200", "mi455x")] == ["72", "1,000", ""]  # whole watts
    assert config[tr("hw_col_spec_bw")]["type_config"]["format"] == "%.2f"  # '0.22', '1.55', '22.00' TB/s
    l40s = df.value[df.value[tr("hw_col_hardware")] == _shown(CATALOG["l40s"])].iloc[0]
    assert l40s[tr("hw_col_spec_tflops")] == 362.0 and l40s[tr("hw_col_spec_bw")] == 0.864  # numbers: sorted so
    assert "format" not in config[tr("hw_col_spec_tflops")]["type_config"]  # it would override the text
    assert config[tr("hw_col_spec_price")]["type_config"]["format"] == "dollar"  # '$1.49', not '1.490'


def test_tokens_per_mw_in_thousands_as_the_cards_say_them():
    """The TPOT table's tokens/s per MW read '631,000' where every card reads '523 K': the column is in thousands,
    its header says so (the CSV keeps tokens/s per MW)."""
    from tpot_model import Scenario, estimate, resolve_hardware, resolve_model, resolve_profile

    at = run_page("hardware")
    (df,) = [d.value for d in at.dataframe if EN("hw_col_tps_mw_k") in d.value.columns]
    h200 = df[df[EN("hw_col_hardware")] == "H200 SXM 141GB"][EN("hw_col_tps_mw_k")].iloc[0]
    e = estimate(resolve_model("llama-3.1-70b"), resolve_hardware("h200"),
                 Scenario(batch=32, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8"),
                 resolve_profile("typical"))  # fmt: skip
    assert h200 == pytest.approx(float(e.tokens_per_s_per_mw) / 1e3, rel=0.01) and 100 < h200 < 10_000


def test_a_band_basis_shared_by_every_chip_is_said_once_under_the_table():
    """Under the typical profile every chip's band is the widest (no engine measured): the table drops the column
    that repeated it and one caption under it says it in full, with its width."""
    at = run_page("hardware")
    assert not at.exception
    said = [c.value for c in at.caption if c.value.startswith(EN("hw_band_common", basis=""))]
    assert len(said) == 1 and EN("band_basis_unmeasured", engine="", n="", lo="", hi="")[:20] in said[0]
    # in the table's device word: it lists TPUs and Trainium, so 'per chip' (the first chip listed is a GPU)
    assert "in total and per chip, and $ per 1M tokens, use the band" in said[0] and "per GPU" not in said[0]
    (table,) = [d.value for d in at.dataframe if EN("hw_col_tpot_profile") in d.value.columns]
    assert EN("hw_col_band") not in table.columns
    assert list(table.columns[:4]) == [EN("hw_col_hardware"), EN("hw_col_tpot_ideal"), EN("hw_col_tpot_profile"),
                                       EN("hw_col_usd_1m")]  # fmt: skip
    # announced parts starred as on the chart's axis, the key under the table (the long mark pushed columns out)
    names = list(table[EN("hw_col_hardware")])
    assert "Rubin NVL72*" in names and not any(EN("hw_announced_name", name="") in n for n in names)
    assert any(c.value.endswith("\\" + EN("hw_announced_key")) for c in at.caption)  # '\*': not a list item


def test_the_datasheet_table_prices_each_chip_under_the_sidebars_basis_and_says_which():
    """Its price column read None for every catalog chip (a review); now each chip's published price under the
    sidebar's basis, dated, the basis said under the table (in the header it cut the column at 1400 px)."""
    at = run_page("hardware", price_basis="hyperscaler")
    at.session_state["hardware.specs_open"] = True
    at.run()
    assert not at.exception, at.exception
    assert any(c.value.startswith(EN("hw_specs_price_note", basis=EN("basis_hyperscaler"))) for c in at.caption)
    table = next(d.value for d in at.dataframe if EN("hw_col_spec_price") in d.value.columns)
    h200 = table[table[EN("hw_col_hardware")].str.contains("H200 SXM")].iloc[0]
    published = load_hardware_catalog()["h200"].prices.price("hyperscaler")
    assert h200[EN("hw_col_spec_price")] == published.usd_per_gpu_hour
    assert h200[EN("hw_col_spec_price_as_of")] == published.as_of


@pytest.mark.parametrize("tr", [EN, ZH])
def test_a_chip_with_no_fp4_math_is_named_with_the_precision_it_runs_at(tr):
    """A review: 'this scenario on every chip' in FP4 timed the H200 (no FP4 rate: its matrix multiplies run in BF16,
    Estimate.compute_precision) with no word of it. A caption under the table names every such chip with the
    precision used (BF16; FP16 on Apple's), each bar's hover says it, the CSV has the column; B200 is not named."""
    at = run_page("hardware", model="deepseek-r1", weights="fp4", batch="64", context="8192", lang=tr.lang)
    assert not at.exception, at.exception
    tail = tr("compute_fallback", requested="FP4", used="BF16", chips="\0").split("\0")[1]  # after the chips
    (said,) = [c.value for c in at.caption if tail in c.value]
    bf16, rest = said.split(tail)
    name = lambda h: fmt.chip(CATALOG[h], tr, short=True)  # noqa: E731
    assert name("h200") in bf16 and name("mi300x") in bf16 and name("b200") not in said
    assert tr("compute_fallback", requested="FP4", used="FP16", chips="\0").split("\0")[1] in rest
    assert name("m4-max") in rest and name("m4-max") not in bf16
    (bar,) = [t for t in _tpot_fig(at)["data"] if t.get("name") == tr("label_ideal") and t.get("customdata")]
    rows = {row[4]: row[3] for row in bar["customdata"]}  # full name -> the hover's notes line
    one = tr("compute_fallback_one", requested="FP4", used="BF16")
    assert one in rows[fmt.chip(CATALOG["h200"], tr)] and one not in rows[fmt.chip(CATALOG["b200"], tr)]
    from tpot_model import Scenario, estimate, resolve_model
    from ui.figures import hardware as hardware_figs

    e = estimate(resolve_model("deepseek-r1"), CATALOG["h200"], Scenario(weights="fp4", num_gpus=8))
    assert list(hardware_figs.tpot_table([(e.tpot_s, e)])["compute_precision"]) == ["bf16"]  # the CSV's column
    # in FP8 the H200 runs its own rate: not named; the A100, which has no FP8 rate, is
    fp8 = run_page("hardware", model="deepseek-r1", weights="fp8", batch="64", context="8192", lang=tr.lang)
    tail8 = tr("compute_fallback", requested="FP8", used="BF16", chips="\0").split("\0")[1]
    (said,) = [c.value for c in fp8.caption if tail8 in c.value]
    assert name("a100-80gb-sxm") in said.split(tail8)[0] and name("h200") not in said and "FP4" not in said


@pytest.mark.parametrize("tr", [EN, ZH])
def test_a_chip_no_gpu_count_holds_says_why_and_what_would(tr):
    """A review: /hardware?model=deepseek-r1&weights=fp4&batch=64&context=8192 labelled small-memory chips 'needs >
    1,024 GPUs', which reads as if a bigger cluster would do: every GPU keeps all of MLA's latent KV cache under
    tensor parallelism, so none does. Their bars say no count fits, and a caption names them with why and what
    would (estimate.no_gpu_count, the CLI's owner): a lower batch or context, or an FP8 KV cache on so many GPUs."""
    at = run_page("hardware", model="deepseek-r1", weights="fp4", batch="64", context="8192", lang=tr.lang)
    assert not at.exception, at.exception
    bars = [t for t in _tpot_fig(at)["data"] if t.get("text") and t.get("y")]
    labels = {y: text for t in bars for y, text in zip(t["y"], t["text"], strict=True)}
    assert tr("hw_needs_no_count") in labels[fmt.chip_short(CATALOG["l40s"])]
    assert not any("1,024" in v for v in labels.values())
    why = tr("no_count_why_whole_chip", model="DeepSeek-R1")  # the chips listed include TPUs: 'chip'
    (said,) = [c.value for c in at.caption if why in c.value]
    l40s = tr("no_count_kv_item", name=fmt.chip(CATALOG["l40s"], tr, short=True),
              devices=fmt.devices(CATALOG["l40s"], 32, tr))  # fmt: skip
    assert l40s in said and tr("no_count_fix_cache") in said
    assert fmt.chip(CATALOG["rtx-4090"], tr, short=True) in said  # no FP8 cache holds it there: the batch or context
    assert fmt.chip(CATALOG["b200"], tr, short=True) not in said  # 8 B200s hold it


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_datasheet_table_marks_each_estimated_figure_in_its_cell_and_shows_price_and_tdp_first(lang):
    """A review: Apple's 16-bit TFLOP/s (the catalog's estimate: Apple publishes no tensor rate) read as datasheet
    figures, marked only on Methodology and in `list hardware`; the TDP's estimate was a column of ticks that sat,
    with the price and its date, past the right edge at 1400 px. Each estimated TFLOP/s and TDP cell is marked as
    every other estimated figure (fmt.estimate: '27.2 (estimate)'), the column wide enough for it; the price and its
    date stand beside the name, bandwidth, capacity, compute and power next; one caption says what the mark means.
    The CSV keeps every column, both flags among them."""
    tr = Translator(lang)
    df, cells, config, at = _datasheet(lang)
    columns = list(df.value.columns)
    assert columns[:7] == [tr(k) for k in ("hw_col_hardware", "hw_col_spec_price", "hw_col_spec_price_as_of",
                                           "hw_col_spec_bw", "hw_col_spec_gb", "hw_col_spec_tflops", "hw_col_spec_tdp")]  # fmt: skip
    assert "TDP an estimate" not in columns and len(columns) == 11
    name = list(df.value[tr("hw_col_hardware")])

    def cell(hw_id: str, key: str) -> str:
        return cells[tr(key)].iloc[name.index(_shown(CATALOG[hw_id]))]

    assert cell("m4-max", "hw_col_spec_tflops") == fmt.estimate("18.4", True, tr)
    assert cell("m4-max", "hw_col_spec_tdp") == fmt.estimate("100", True, tr)
    assert cell("trainium3", "hw_col_spec_tdp") == fmt.estimate("1,000", True, tr)
    assert cell("trainium3", "hw_col_spec_tflops") == "671"  # its TDP is an estimate, its compute is published
    assert (cell("h200", "hw_col_spec_tflops"), cell("h200", "hw_col_spec_tdp")) == ("989", "700")
    marked = {c: [n for n, t in zip(name, cells[tr(c)], strict=True) if t.endswith(fmt.estimate("", True, tr))]
              for c in ("hw_col_spec_tflops", "hw_col_spec_tdp")}  # fmt: skip
    by_name = {_shown(h): h for h in CATALOG.values()}
    assert marked["hw_col_spec_tflops"] == [n for n in name if by_name[n].estimated("dense_TFLOP_per_s.fp16")]
    apple = marked["hw_col_spec_tflops"]
    assert {by_name[n].vendor for n in apple} == {"Apple"} and len(apple) == 4
    assert marked["hw_col_spec_tdp"] == [n for n in name if by_name[n].estimated("tdp_W")]
    # as wide as '1,000 (estimate)' (sized by the first rows, it had been cut to 'estimate)')
    from ui.cache import CELL_CHAR_PX

    assert config[tr("hw_col_spec_tdp")]["width"] >= fmt.text_px(cell("trainium3", "hw_col_spec_tdp"), CELL_CHAR_PX)
    assert any(tr("hw_specs_estimated") in c.value.split("  \n") for c in at.caption), [c.value for c in at.caption]
    from ui.figures import hardware as figs

    specs = figs.specs_table([CATALOG["m4-max"], CATALOG["trainium3"], CATALOG["h200"]]).set_index("hardware_id")
    assert specs["dense_16bit_tflop_per_s_estimated"].tolist() == [True, False, False]
    assert specs["tdp_w_estimated"].tolist() == [True, True, False]
    assert set(figs.specs_table_labels()) < set(specs.reset_index().columns)  # the CSV: every column and more
    # a list of chips with no estimated figure: no mark, no caption
    df, cells, _, at = _datasheet(lang, hardware="h200")
    at.multiselect(key="hardware.vendors").set_value(["NVIDIA"]).run()
    assert not at.exception
    assert not any(tr("hw_specs_estimated") in c.value for c in at.caption)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_datasheet_tables_pinned_names_are_whole_short_and_starred_when_announced(lang):
    """A browser review at 1400 px: the pinned name column, sized by the grid from its first rows, cut the longer
    names below them ('NVIDIA GB300 (per Blackw', 'NVIDIA RTX PRO 6000 Black'); made as wide as the longest full
    name, it took 40 % of the table and the TDP out of view, and the announced chips (Rubin, MI455X, TPU 8i ...)
    stood unmarked, alone of the page's lists. The chips' short names now, as the TPOT table's beside it, an
    announced one starred and the star said under the table; the column as wide as the longest (cache.column_width),
    pinned; the CSV keeps the full names."""
    from ui.cache import CELL_CHAR_PX, CELL_PAD_PX, column_width

    tr = Translator(lang)
    df, _, config, at = _datasheet(lang)
    names = list(df.value[tr("hw_col_hardware")])
    assert sorted(names) == sorted(_shown(h) for h in CATALOG.values())
    assert {"Rubin NVL72*", "MI455X*", "TPU 8i*", "H200 SXM 141GB"} <= set(names)
    assert sum(n.endswith("*") for n in names) == sum(h.announced for h in CATALOG.values()) >= 4
    assert any(c.value.endswith(notices.announced_key(tr)) for c in at.caption), [c.value for c in at.caption]
    longest = max(names, key=lambda n: fmt.text_px(n, CELL_CHAR_PX))
    name = config[tr("hw_col_hardware")]
    assert name["pinned"] is True
    assert name["width"] == column_width([tr("hw_col_hardware"), *names]) < 250  # 339 px for the full names
    assert name["width"] >= fmt.text_px(longest, CELL_CHAR_PX) + CELL_PAD_PX
    assert column_width([]) == CELL_PAD_PX and column_width(["ab", "機"]) == 38  # a wide glyph counts twice
