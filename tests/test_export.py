"""Exports say what they are: the scenario in every CSV (columns) and every exported chart (title and a "source: ...,
date" footnote), file names that carry it, no 17-digit floats, one plotly.js per file or per zip of charts."""

from __future__ import annotations

import datetime as dt
import io
import zipfile

import pandas as pd
import plotly.graph_objects as go
import pytest

from tpot_model import estimate, resolve_hardware, resolve_model, resolve_profile
from ui import chart, export, fmt
from ui.i18n import EN, Translator
from ui.state import ScenarioState

DAY = dt.date(2026, 3, 5)
CARTESIAN_HEADER = "* plotly.js (cartesian - minified) v"


@pytest.fixture(scope="module")
def about() -> dict:
    state = ScenarioState()  # Llama 3.1 70B, 2 x H200, fp8 / bf16, batch 32, 4K in, 1K out, typical
    est = estimate(resolve_model(state.model), resolve_hardware(state.hardware), state.to_scenario(),
                   resolve_profile(state.profile))  # fmt: skip
    return export.scenario_fields(state, est, est.model.name, est.hardware.name, "Typical serving engine")


def test_scenario_fields_name_the_whole_scenario(about):
    assert about["scenario_model"] == "llama-3.1-70b" and about["scenario_hardware"] == "h200"
    assert about["scenario_model_name"] == "Llama 3.1 70B" and "H200" in about["scenario_hardware_name"]
    assert (about["scenario_gpus"], about["scenario_batch"]) == (2, 32)
    # which language its names are in (a zh-TW export's names are Chinese under English column names: said), in
    # every export, one of no scenario too
    assert export.stamp(DAY)["text_language"] == "en" and export.stamp(DAY, "zh-TW")["text_language"] == "zh-TW"
    assert (about["scenario_context_tokens"], about["scenario_output_tokens"]) == (4096, 1024)
    assert (about["scenario_weights"], about["scenario_kv_cache"], about["scenario_profile"]) == (
        "fp8",
        "bf16",
        "typical",
    )
    assert about["scenario_price_usd_per_gpu_hour"] > 0 and about["scenario_price_basis"]  # the price and its basis
    # the precision the math ran in, not the sidebar's 'auto' (a review: the CSV read 'auto' beside the page's fp8)
    assert ScenarioState().compute == "auto" and about["scenario_compute"] == "fp8"
    assert export.scenario_fields(ScenarioState(), None, "", "", "")["scenario_compute"] == "auto"  # no estimate


@pytest.mark.parametrize("tr", [EN, Translator("zh-TW")])
def test_a_chart_of_several_chips_states_each_chips_own_price_and_a_search_no_batch(about, tr):
    """The sidebar's one price (H200's) is not stated for a chart of several chips: each chip at its own price under
    the basis; a chart whose layout search sets its own batches states none; the basis's date in the reader's
    punctuation."""
    one = export.caption(about, tr)
    assert (
        tr("export_price", usd=fmt.usd(about["scenario_price_usd_per_gpu_hour"]), basis=export._basis(about, tr)) in one
    )
    assert tr("export_basis_dated", basis=tr(f"basis_{about['scenario_price_basis']}"),
              date=about["scenario_price_as_of"]) in one  # fmt: skip
    many = {**about, "scenario_price_usd_per_gpu_hour": None, "scenario_price_as_of": None,
            "scenario_price_each_chip": True, "scenario_batch": None}  # fmt: skip
    said = export.caption(many, tr)
    assert tr("export_price_each_chip", basis=tr(f"basis_{about['scenario_price_basis']}")) in said
    assert fmt.usd(about["scenario_price_usd_per_gpu_hour"]) not in said and about["scenario_model_name"] in said
    assert ("batch" if tr.lang == "en" else "批次") not in said
    assert "_b32_" in export.file_stem("x", about, export.stamp(DAY))
    assert "_b32_" not in export.file_stem("x", many, export.stamp(DAY))


@pytest.mark.parametrize("tr", [EN, Translator("zh-TW")])
def test_a_chart_of_several_chips_under_ones_own_price_names_the_chip_it_prices(tr):
    """Economics' chart of H200, B200 and MI355X under a $/GPU-hour of one's own entered for the sidebar's H200: the
    title had said 'each chip at its own $/GPU-hour (Your own)'; one's own price is the sidebar chip's alone."""
    from tpot_model import load_hardware_catalog
    from ui.controls import chips_about
    from ui.state import ScenarioState

    catalog = load_hardware_catalog()
    state = ScenarioState(hardware="h200", price_basis="custom", price=3.0)
    about = chips_about(["h200", "b200", "mi355x"], catalog, tr, state)
    said = export.price_text(about, tr)
    assert said == tr("export_price_one_chip", usd="$3.00", hw=catalog["h200"].name, basis=tr("basis_custom"))
    assert about["scenario_price_usd_per_gpu_hour"] == 3.0  # the CSV's column: the price, for its chip
    published = chips_about(["h200", "b200"], catalog, tr, ScenarioState(hardware="h200"))  # on-demand: each its own
    assert export.price_text(published, tr) == tr("export_price_each_chip", basis=export._basis(published, tr))


def test_csv_writes_whole_number_columns_exactly_and_no_exponent(about):
    """FLOPs and bytes (whole numbers up to 1e15) as exact integers; other large or tiny floats positional."""
    table = pd.DataFrame({"flops": [606387123456.0, 1.338402e15], "bytes": [2.0**52, float("nan")],
                          "share": [1.2345678e-7, 0.5]})  # fmt: skip
    lines = export.csv_bytes(table, None, export.stamp(DAY)).decode("utf-8-sig").splitlines()
    assert lines[1].split(",")[:3] == ["606387123456", "4503599627370496", "0.0000001234568"]
    assert lines[2].split(",")[:3] == ["1338402000000000", "", "0.5"]
    assert "e+" not in "".join(lines) and "e-" not in "".join(lines)


def test_csv_carries_its_scenario_with_integers_as_integers_and_no_long_floats(about):
    table = pd.DataFrame({"batch": [1.0, 32.0], "tpot_ms": [0.1 + 0.2, 1 / 3], "bound": ["memory", "compute"]})
    stamp = export.stamp(DAY)
    lines = export.csv_bytes(table, about, stamp).decode("utf-8-sig").splitlines()
    header = lines[0].split(",")
    assert header[:3] == ["batch", "tpot_ms", "bound"]
    assert header[3:] == [
        *about,
        "exported_on",
        "app_version",
        "text_language",
    ]  # scenario, date and version as the last columns
    row = dict(zip(header, lines[1].split(","), strict=True))
    assert (row["batch"], row["tpot_ms"]) == ("1", "0.3")  # not 1.0 nor 0.30000000000000004
    assert lines[2].split(",")[:2] == ["32", "0.3333333"]  # 7 significant digits
    assert (row["scenario_gpus"], row["scenario_batch"], row["scenario_context_tokens"]) == ("2", "32", "4096")
    assert row["scenario_model"] == "llama-3.1-70b" and row["exported_on"] == "2026-03-05"
    assert row["app_version"] == export.APP_VERSION and export.APP_VERSION.count(".") == 2
    assert float(row["scenario_price_usd_per_gpu_hour"]) == pytest.approx(about["scenario_price_usd_per_gpu_hour"])
    assert not any(len(cell) > 12 and cell.replace(".", "").isdigit() for line in lines for cell in line.split(","))


def test_csv_opens_in_spreadsheets_and_writes_floats_of_mixed_columns_short(about):
    """A byte-order mark first (Excel then reads ×, · and Chinese as UTF-8); a column of text rows over numbers
    (Compare's headline: price basis and date above the rates) writes its floats with 7 significant digits too
    ('16.62267664014939' was written whole)."""
    table = pd.DataFrame({"metric": ["price_basis", "tpot_ms"], "A": ["on_demand", 16.62267664014939]})
    raw = export.csv_bytes(table, about, export.stamp(DAY))
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = raw.decode("utf-8-sig").splitlines()
    assert rows[1].split(",")[:2] == ["price_basis", "on_demand"] and rows[2].split(",")[:2] == ["tpot_ms", "16.62268"]


def test_csv_headers_drop_the_soft_hyphens_a_page_breaks_them_at():
    """A review: the Roofline CSV's header was 'Acti\u00advations (MB)' (the page table's break point): a reader's
    code looking for 'Activations (MB)' did not find it."""
    table = pd.DataFrame({EN("roofline_col_act_mb"): [1.5]})
    assert "\u00ad" in EN("roofline_col_act_mb")
    head = export.csv_bytes(table, None, export.stamp(DAY)).decode("utf-8-sig").splitlines()[0]
    assert head.startswith("Activations (MB),") and "\u00ad" not in head


def test_scenario_free_csv_has_only_the_stamp():
    text = export.csv_bytes(pd.DataFrame({"x": [2.5]}), None, export.stamp(DAY)).decode("utf-8-sig")
    assert text.splitlines() == ["x,exported_on,app_version,text_language", f"2.5,2026-03-05,{export.APP_VERSION},en"]


def test_file_names_carry_the_scenario(about):
    stamp = export.stamp(DAY)
    assert (
        export.file_stem("roofline", about, stamp)
        == "roofline_llama-3.1-70b_2xh200_fp8-bf16_b32_ctx4096_out1024_typical"
    )
    assert export.file_stem("validation-tpot", None, stamp) == "validation-tpot_2026-03-05"  # no scenario: the date
    assert chart.slug("Cost by batch") == "cost-by-batch"


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_exported_chart_carries_scenario_under_its_title_and_a_dated_source(about, lang):
    tr = Translator(lang)
    fig = go.Figure(go.Scatter(x=[1, 2], y=[3, 4]), layout={"title": {"text": "TPOT vs batch"}, "height": 400})
    caption = export.caption(about, tr)
    decor = export.export_decor(fig, caption, export.footnote(export.stamp(DAY), tr))
    out = export.apply_decor(fig, decor)
    lines = export.wrap_subtitle(caption)  # the scenario in lines that fit the chart's width, at its separators
    assert " · ".join(lines) == caption and all(len(x) <= export.SUBTITLE_CHARS for x in lines if " · " in x)
    assert out.layout.title.text == "TPOT vs batch<br>" + "<br>".join(f"<sup>{x}</sup>" for x in lines)
    price = fmt.usd(about["scenario_price_usd_per_gpu_hour"])
    assert "Llama 3.1 70B" in caption and "2 × NVIDIA H200" in caption and price in caption
    note = out.layout.annotations[-1]
    assert note.text == tr("export_footnote", app=tr("app_name"), version=export.APP_VERSION, date="2026-03-05")
    assert out.layout.height == 400 + export.SUBTITLE_PX * len(lines) + export.FOOTNOTE_PX  # the plot keeps its size
    assert chart._title_text(decor) == f"TPOT vs batch · {' · '.join(lines)}"  # the HTML <title>: no '· ·'
    # a legend in rows below the plot gets room above the footnote (the footnote was drawn over its first row)
    below = go.Figure([go.Scatter(x=[1], y=[1], name=f"s{i}") for i in range(9)],
                      layout={"height": 500, "legend": {"orientation": "h", "y": -0.18, "yanchor": "top"}})  # fmt: skip
    d = export.export_decor(below, None, "note")
    base = below.layout.template.layout.margin  # the house template's margins
    plot_px = 500 - base.t - base.b
    assert d["layout"]["margin"]["b"] - export.FOOTNOTE_PX >= 0.18 * plot_px + 3 * 22  # 9 entries: 3 rows of 22 px
    assert d["layout"]["height"] - 500 == d["layout"]["margin"]["b"] - base.b  # what the margin grew, the figure grew
    assert out.layout.margin.b == 55 + export.FOOTNOTE_PX  # the house template's bottom margin, plus the note's room
    # a legend pinned to the image's bottom edge (Hardware's TPOT chart) rises above the footnote's rows
    pinned = go.Figure(go.Bar(x=[1], y=["a"], name="Estimate"), layout={"height": 330, "legend": {
        "orientation": "h", "xref": "container", "yref": "container", "y": 0.0, "yanchor": "bottom"}})  # fmt: skip
    d = export.export_decor(pinned, None, "note")
    assert d["layout"]["height"] == 330 + export.FOOTNOTE_PX
    assert d["layout"]["legend"]["y"] * d["layout"]["height"] == pytest.approx(export.FOOTNOTE_PX)
    assert d["layout"]["legend"]["orientation"] == "h" and d["layout"]["legend"]["yref"] == "container"
    # legend_placement's pinned rows: a bottom margin holding them as the narrowest frame wraps them, so plotly.js does
    # not grow it and lift the plot with the footnote under it onto the legend (browser re-review, 2+ rows)
    from ui.figures.common import BOTTOM_MARGIN_PX, LEGEND_ROW_PX, legend_placement, legend_rows

    rows = go.Figure([go.Scatter(x=[1], y=[1], name=f"series number {i} of the chart") for i in range(9)])
    rows.update_layout(**legend_placement(rows, 440, side_max=0))
    d = export.export_decor(rows, None, "note")
    held = BOTTOM_MARGIN_PX + legend_rows([t.name for t in rows.data]) * LEGEND_ROW_PX
    assert legend_rows([t.name for t in rows.data]) >= 5 and d["layout"]["margin"]["b"] >= held + export.FOOTNOTE_PX
    plot_px = d["layout"]["height"] - d["layout"]["margin"]["t"] - d["layout"]["margin"]["b"]
    assert plot_px == pytest.approx(440 - rows.layout.template.layout.margin.t - BOTTOM_MARGIN_PX, abs=1)
    assert "legend" not in export.export_decor(below, None, "note")["layout"]  # a legend in the margin stays put
    assert fig.layout.title.text == "TPOT vs batch" and not fig.layout.annotations  # the chart on screen unchanged


def test_standalone_html_has_a_title_and_plotly_js_once():
    fig = go.Figure(go.Bar(x=["a"], y=[1]))
    html = chart.standalone_html(fig, "zh-TW", "Roofline · Llama 3.1 70B <2 × H200>").decode("utf-8")
    assert "<title>Roofline · Llama 3.1 70B &lt;2 × H200&gt;</title>" in html
    assert html.count(CARTESIAN_HEADER) == 1 and 'name:"zh-TW"' in html  # the 1.5 MB build, inline, and its locale
    assert len(html) < 2_000_000  # not the 4.8 MB full bundle


def test_zip_of_charts_shares_one_plotly_js(about):
    stamp = export.stamp(DAY)
    charts = []
    for name, v in (("roofline", 1.5), ("memory", 2.5)):
        fig = go.Figure(go.Scatter(x=[1], y=[2]), layout={"title": {"text": name}})
        decor = export.export_decor(fig, export.caption(about, EN), export.footnote(stamp, EN))
        charts.append(
            chart.PageChart(name, export.file_stem(name, about, stamp), fig, pd.DataFrame({"v": [v]}), decor, about)
        )
    with zipfile.ZipFile(io.BytesIO(chart.charts_zip(charts, "en", stamp))) as z:
        names = sorted(z.namelist())
        pages = [z.read(n).decode() for n in names if n.endswith(".html")]
        assert names == sorted([export.PLOTLY_FILE, *(f"{c.stem}.{ext}" for c in charts for ext in ("html", "csv"))])
        assert z.read(export.PLOTLY_FILE).decode().count(CARTESIAN_HEADER) == 1
        csv = z.read(f"{charts[0].stem}.csv").decode("utf-8-sig").splitlines()
    for page in pages:
        assert f'<script src="{export.PLOTLY_FILE}"></script>' in page and CARTESIAN_HEADER not in page
        assert "<title>" in page and "Source: TPOT dashboard" in page
    assert csv[0].startswith("v,scenario_model,") and csv[1].startswith("1.5,llama-3.1-70b,")


def test_zip_writes_a_table_two_charts_share_once(about):
    """Browser review: the Serving frontier's two LOHO charts (TPOT, output tokens/s) read one table, which its zip
    carried twice under two names; it is written once, under the first chart's name, beside both charts' HTML."""
    stamp = export.stamp(DAY)
    table = pd.DataFrame({"v": [1.5]})
    decor = export.export_decor(go.Figure(), export.caption(about, EN), export.footnote(stamp, EN))
    charts = [
        chart.PageChart(name, export.file_stem(name, about, stamp), go.Figure(), table, decor, about)
        for name in ("loho-tpot", "loho-output")
    ]
    with zipfile.ZipFile(io.BytesIO(chart.charts_zip(charts, "en", stamp))) as z:
        names = set(z.namelist())
    assert names == {export.PLOTLY_FILE, *(f"{c.stem}.html" for c in charts), f"{charts[0].stem}.csv"}


@pytest.mark.parametrize("tr", [EN, Translator("zh-TW")])
def test_an_export_says_mtp_and_measured_recipes_in_its_caption_and_file_name(about, tr):
    """Browser review: the Serving frontier's exports read the same with MTP on (GB200 at 125 tok/s per user: 62.7 ->
    1,057 tok/s/GPU) and with the search held to measured recipes, under one file name. The caption says both, the
    file name ends in 'mtp3' / 'recipes'; a scenario without them is written as before."""
    stamp = export.stamp(DAY)
    plain = export.caption(about, tr)
    on = about | {
        "scenario_mtp_draft_tokens": 3,
        "scenario_mtp_acceptance": 0.5,
        "scenario_measured_recipes_only": True,
    }
    said = export.caption(on, tr)
    assert said == plain + f" · {tr('export_mtp', k=3, a='50%')} · {tr('export_recipes_only')}"
    stem = export.file_stem("rack", on, stamp)
    assert stem == export.file_stem("rack", about, stamp) + "_mtp3_recipes"
    assert "mtp" not in export.file_stem("rack", about, stamp)


@pytest.mark.parametrize("tr", [EN, Translator("zh-TW")])
def test_an_export_at_a_target_or_for_a_demand_says_them(about, tr):
    """Helper review: the Planner's and Economics' exports at two TPOT targets had one name and no word of the target,
    and Economics' capacity files none of the demand they size for. The caption says the target (both forms) and the
    demand; the file name ends in 'tpot50ms'; CSV rows carry every field."""
    stamp = export.stamp(DAY)
    at = about | {"scenario_tpot_target_ms": 50.0}
    assert export.caption(at, tr) == export.caption(about, tr) + " · " + tr(
        "export_target", target=fmt.target(0.05, tr)
    )
    assert export.file_stem("planner-cost", at, stamp) == export.file_stem("planner-cost", about, stamp) + "_tpot50ms"
    demand = at | {"scenario_output_tokens_per_day": 5.12e10, "scenario_input_tokens_per_day": 2.048e11,
                   "scenario_peak_to_average": 1.5, "scenario_utilisation": 0.7}  # fmt: skip
    said = export.caption(demand, tr)
    assert said.endswith(tr("export_demand", out=fmt.token_count(5.12e10, tr), inp=fmt.token_count(2.048e11, tr),
                            peak="1.5", util="70%"))  # fmt: skip
    rows = export.csv_bytes(pd.DataFrame({"gpus": [1]}), demand, stamp).decode("utf-8-sig").splitlines()
    header = rows[0].split(",")
    assert {"scenario_tpot_target_ms", "scenario_output_tokens_per_day", "scenario_utilisation"} <= set(header)


def test_a_file_name_lists_a_few_chips_and_counts_many(about):
    """Browser review: the Planner grid's export named every chip charted, twelve and the sidebar's ('h100-sxm-h200-
    b200-...', ~90 characters of ids). A list up to STEM_CHIPS_CHARS is named whole, as the rack-scale view's five
    chips; a longer one by its first chip, how many more and 6 hex digits of the whole list: two lists of as many
    chips from the same first chip still name two files; the budget and the count each keep their place."""
    import hashlib

    stamp = export.stamp(DAY)
    five = "gb200+b200+mi355x+vr200+mi455x"
    many = "h100-sxm+h200+b200+mi300x+mi355x+gb200+gb300+b300+mi325x+tpu7x+trainium3+vr200+rtx-pro-6000"
    other = many.replace("tpu7x", "tpu-v6e")
    assert export.chips_stem(five) == five and export.chips_stem("h200") == "h200"
    digest = hashlib.sha1(many.encode()).hexdigest()[:6]
    assert export.chips_stem(many) == f"h100-sxm+12more+{digest}"
    assert export.chips_stem(other) != export.chips_stem(many) and export.chips_stem(other).startswith(
        "h100-sxm+12more+"
    )
    grid = about | {"scenario_hardware": many, "scenario_gpus": None, "scenario_batch": None}
    stem = export.file_stem("planner-cost", grid, stamp)
    assert stem == f"planner-cost_llama-3.1-70b_h100-sxm-12more-{digest}_fp8-bf16_ctx4096_out1024_typical"
    budget = grid | {"scenario_gpus": 72, "scenario_gpus_budget": True}
    assert f"_h100-sxm-12more-{digest}-max72gpus_" in export.file_stem("rack", budget, stamp)
    assert "_gb200-b200-mi355x-vr200-mi455x-8each_" in export.file_stem(
        "x", grid | {"scenario_hardware": five, "scenario_gpus": 8}, stamp
    )


def test_a_search_of_one_chip_within_a_budget_says_so(about):
    """Browser review: the Planner's layout CSV was named and captioned '2 × GB200' (the sidebar's GPUs) for a
    40-of-72-GPU deployment: a one-chip export with a GPU budget says 'best layout within 72 GPUs' and is named
    'max72x<chip>'."""
    budget = about | {"scenario_gpus": 72, "scenario_gpus_budget": True, "scenario_batch": None}
    assert EN("export_device_budget_one", gpus=72, hw=about["scenario_hardware_name"]) in export.caption(budget, EN)
    assert "_max72xh200_" in export.file_stem("planner-layout", budget, export.stamp(DAY))
    assert "_2xh200_" in export.file_stem("planner-layout", about, export.stamp(DAY))


def test_a_pages_zip_is_named_for_the_scenario_most_of_its_charts_state(about):
    """Browser re-review: the Planner's zip took its first chart's name ('_max72xgb200_..._best', the layout search)
    while it held the sidebar scenario's charts ('2xh200_..._b32'): the zip is named for the scenario most of its
    charts state, the first of equals."""
    budget = about | {"scenario_gpus": 72, "scenario_gpus_budget": True, "scenario_batch": None}

    def chart_of(a):
        return chart.PageChart("c", "c", go.Figure(), None, {}, a)

    assert chart.zip_about([chart_of(budget), chart_of(about), chart_of(about), chart_of(None)]) == about
    assert chart.zip_about([chart_of(budget), chart_of(about)]) == budget and chart.zip_about([chart_of(None)]) is None


def test_an_exported_chart_reads_as_drawn_at_the_exports_width():
    """A chart with changes for wider frames (common.for_wider: Hardware's TPOT bars carry their whole labels from a
    900 px wiki frame on) is exported as drawn at the export's width (1200 px, EXPORT_WIDTH_PX; the PNG / SVG in
    static/plotly_chart.js alike): its wider labels and axis, without the entries, the figure given unchanged."""
    from ui.figures.common import WIDER_KEY, for_wider

    fig = go.Figure(go.Bar(x=[100.0, 483.0], y=["a", "b"], text=["100 ms", "483 ms"]), layout={"height": 300})
    fig.update_xaxes(range=[0, 1100], title_text="ms")
    for_wider(
        fig, 740, traces={0: {"text": ["100 ms", "483 ms · needs 8 GPUs"]}}, layout={"xaxis": {"range": [0, 860]}}
    )
    for_wider(
        fig, 940, traces={0: {"text": ["100 ms", "483 ms · needs 32 GPUs"]}}, layout={"xaxis": {"range": [0, 780]}}
    )
    out = export.apply_decor(fig, export.export_decor(fig, None, "note"))
    assert list(out.data[0].text) == ["100 ms", "483 ms · needs 32 GPUs"] and list(out.layout.xaxis.range) == [0, 780]
    assert out.layout.xaxis.title.text == "ms" and not (out.layout.meta or {}).get(WIDER_KEY)
    assert list(fig.data[0].text) == ["100 ms", "483 ms"] and list(fig.layout.xaxis.range) == [0, 1100]
    assert export.EXPORT_WIDTH_PX >= 940


def test_an_exported_chart_with_its_legend_elsewhere_when_wider_has_room_for_that_legend():
    """Hardware's bubble chart has its vendors under the plot in the narrow frames and at its right from a 900 px wiki
    frame on (for_wider): its export (1200 px) is sized for the legend at the right, not for rows under the plot (the
    image would have had a blank band where they were)."""
    from tpot_model import load_hardware_catalog
    from ui.figures import hardware as hf
    from ui.figures.common import at_width

    fig = hf.bandwidth_by_year(list(load_hardware_catalog().values()))
    assert fig.layout.legend.orientation == "h"  # on screen, narrow: under the plot
    decor = export.export_decor(fig, None, "note")
    out, wide = export.apply_decor(fig, decor), at_width(fig, export.EXPORT_WIDTH_PX)
    assert "legend" not in decor["layout"] and out.layout.legend.orientation == "v"
    assert out.layout.height == wide.layout.height + export.FOOTNOTE_PX < fig.layout.height + export.FOOTNOTE_PX
    assert list(out.data[-1].text) == list(wide.data[-1].text)
