"""Issue 19, "readable as an image": the one formatter per kind of number (ui/fmt.py), the one word for a device,
short chip names, and the figure properties that make a chart readable as a picture (labels, legend and annotation
placement, orientation), in both languages where text is involved."""

from __future__ import annotations

import math
from dataclasses import replace
from types import SimpleNamespace

import pytest
from model_fixtures import TINY_DENSE, TOY_GPU, legend_below

from tpot_model import load_hardware_catalog
from ui import fmt
from ui.i18n import EN, Translator

ZH = Translator("zh-TW")
CATALOG = load_hardware_catalog()


# ------------------------------------------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    ("value", "text"),
    [(1_610_000, "1.61 M tok/s"), (1_598, "1,598 tok/s"), (12.34, "12.3 tok/s"), (2.5e9, "2.50 G tok/s"),
     (98_765, "98.8 K tok/s"), (58_427, "58.4 K tok/s"), (9_876, "9,876 tok/s"), (928_737, "929 K tok/s"),
     (999_999, "1.00 M tok/s")],
)  # fmt: skip
def test_large_rates_to_three_significant_figures(value, text):
    assert fmt.rate(value) == text


@pytest.mark.parametrize(
    ("value", "like", "text"),
    [(68_608, 603_000, "68.6 K"), (-68_608, 603_000, "-68.6 K"), (625, 1_463, "625"), (1.2e6, 5e9, "1.20 M"),
     (2e8, 5e9, "0.200 G"), (4, 603_000, "4.00"), (68_608, None, "68.6 K"), (6_860, None, "6,860")],
)  # fmt: skip
def test_a_difference_takes_the_prefix_of_the_rates_it_separates(value, like, text):
    """Compare's 'Δ B vs A' of 534 K and 603 K tok/s per MW reads '+68.6 K', not '+68,608' (issue 19)."""
    assert fmt.large(value, like=like) == text


@pytest.mark.parametrize(
    ("prefill_per_decode", "text"),
    [(1 / 210, "1 : 210"), (1 / 2.3, "1 : 2.3"), (0.5, "1 : 2"), (3.4, "3.4 : 1"), (1.0, "1 : 1")],
)
def test_ratios_in_plain_numbers(prefill_per_decode, text):
    assert fmt.ratio(prefill_per_decode) == text
    assert fmt.ratio(1 / 12345) == "1 : 12,000"  # never an exponent (the planner printed '1 : 1.2e+04')


@pytest.mark.parametrize(
    ("seconds", "limit_s", "text"),
    [(0.04998, 0.05, "49.98 ms"), (0.0499996, 0.05, "49.9996 ms"), (0.0442, 0.05, "44.2 ms"), (0.05, 0.05, "50.0 ms"),
     (0.0502, 0.05, "50.2 ms")],
)  # fmt: skip
def test_a_time_under_its_limit_never_reads_as_the_limit(seconds, limit_s, text):
    """Browser review (Planner, DeepSeek-V4-Pro on GB300 at 50 ms): 'batch 1838 would take longer than 50.0 ms per
    token (now 50.0 ms)': a time under a limit printed beside it takes the decimals that tell them apart."""
    assert fmt.ms_below(seconds, limit_s) == text


def test_a_target_reads_as_it_was_set():
    """Browser review: 'within the 50.0 ms target' beside '50 ms TPOT': a target reads as the reader set it, one line."""
    nb = "\u00a0"
    assert [fmt.target_ms(x) for x in (0.05, 0.0447, 0.1, 0.008)] == [
        f"50{nb}ms",
        f"44.7{nb}ms",
        f"100{nb}ms",
        f"8{nb}ms",
    ]
    assert fmt.target_ms(float("nan")) == "n/a"


def test_a_span_of_rounds_reads_from_the_data():
    """Browser review: Hardware said MLPerf 'rounds v4.0–v5.1' and Validation 'v4.1–v5.1', both typed in by hand;
    each now spans the rounds of the rows it reads."""
    assert fmt.span(["v4.0", "v4.1", "v5.1"]) == "v4.0–v5.1" and fmt.span(["v5.1"]) == "v5.1" and fmt.span([]) == "—"


def test_token_counts_in_the_readers_scale_words():
    """Browser review: zh-TW read '每日 1,000 十億輸出 Token' (a thousand ten-hundred-millions); counts now take each
    language's scale words: 1 trillion / 1 兆, 51.2 billion / 512 億, 4 trillion / 4 兆."""
    from ui.i18n import Translator

    zh = Translator("zh-TW")
    assert [fmt.token_count(x, EN) for x in (1e12, 51.2e9, 4e12, 2.5e6, 512)] == [
        "1 trillion", "51.2 billion", "4 trillion", "2.5 million", "512"]  # fmt: skip
    assert [fmt.token_count(x, zh) for x in (1e12, 51.2e9, 4e12, 2.05e11, 3e4)] == [
        "1 兆", "512 億", "4 兆", "2,050 億", "3 萬"]  # fmt: skip


def test_money_with_two_decimals_where_asked():
    assert fmt.usd(1234.5, 2) == "$1,234.50"
    assert fmt.usd(0.1, 2) == "$0.10"
    assert fmt.usd(0.1234) == "$0.123"  # three significant figures otherwise
    # a price quoted to three decimals as quoted (2.235 is 2.23499... in binary: three significant figures read 2.23)
    assert (fmt.usd(2.235), fmt.usd(4.54), fmt.usd(2.5), fmt.usd(7.2512345)) == ("$2.235", "$4.54", "$2.50", "$7.25")


@pytest.mark.parametrize(
    ("fraction", "digits", "signed", "text"),
    [(-0.27, 0, True, "−27%"), (0.26, 0, True, "+26%"), (-0.004, 0, True, "+0%"), (-0.004, 1, False, "−0.4%"),
     (0.123, 1, False, "12.3%"), (-0.0004, 1, False, "0.0%")],
)  # fmt: skip
def test_signed_percentages_take_a_minus_sign_and_never_read_minus_zero(fraction, digits, signed, text):
    """'80% band: −27% to +26%' (a hyphen had stood for the minus; a rounded −0.04% read '-0.0%')."""
    assert fmt.pct(fraction, digits, signed=signed) == text


# ------------------------------------------------------------------------------------------------- devices


def test_several_chips_are_gpus_only_when_all_are_and_texts_take_the_word():
    """A page listing several chips says GPU only when every one is a GPU, else the neutral 'chip'; device_text picks
    the key's '_chip' variant for chips where one exists (issue 19)."""
    assert fmt.device_kind([CATALOG["h200"], CATALOG["mi300x"]]) == "gpu"
    assert fmt.device_kind([CATALOG["h200"], CATALOG["tpu7x"]]) == "chip"
    assert fmt.device_kind([]) == "gpu" and fmt.device_kind("chip") == "chip"
    assert fmt.device_text("ce_axis_tps_gpu", CATALOG["trainium2"], EN) == "Output tokens/s per chip"
    assert fmt.device_text("ce_axis_tps_gpu", CATALOG["h200"], ZH) == ZH("ce_axis_tps_gpu")
    assert fmt.device_text("ce_axis_tps_gpu", CATALOG["tpu7x"], ZH) == "每顆晶片每秒輸出 Token 數"
    assert fmt.device_text("ce_axis_tps_user", CATALOG["tpu7x"], EN) == EN("ce_axis_tps_user")  # no variant: as is
    assert (
        fmt.device_text("ec_rf_title", "chip", EN, hw="X")
        == "Token revenue per chip-hour along the serving frontier · X"
    )


def test_tpus_trainium_and_gaudi_are_chips_everything_else_gpus():
    for hw_id in ("tpu-v6e", "tpu7x", "trainium2", "inferentia2", "gaudi2", "gaudi3"):
        assert fmt.device_kind(CATALOG[hw_id]) == "chip"
    for hw_id in ("h200", "mi300x", "gb200", "arc-pro-b60"):
        assert fmt.device_kind(CATALOG[hw_id]) == "gpu"
    assert fmt.devices(CATALOG["tpu-v6e"], 64, EN) == "64 chips"
    assert fmt.devices(CATALOG["h200"], 8, EN) == "8 GPUs"
    assert fmt.devices(CATALOG["h200"], 1, EN) == "1 GPU"
    assert fmt.devices(CATALOG["trainium2"], 16, ZH) == "16 顆晶片"
    assert fmt.devices(CATALOG["h200"], 8, ZH) == "8 張 GPU"


def test_short_chip_names():
    assert fmt.chip_short(CATALOG["gb200"]) == "GB200 NVL72"  # the catalog's short_name
    assert fmt.chip_short(CATALOG["gb300"]) == "GB300 NVL72"
    assert fmt.chip_short(CATALOG["h200"]) == "H200 SXM 141GB"  # vendor prefix dropped
    assert fmt.chip_short(CATALOG["gaudi3"]) == "Gaudi 3"  # bracketed detail dropped
    assert fmt.chip_short(CATALOG["mi300x"]) == "MI300X"
    assert fmt.chip_short(replace(TOY_GPU, name="Toy")) == "Toy"
    assert all(len(fmt.chip_short(h)) <= 22 for h in CATALOG.values())


# ------------------------------------------------------------------------------------------------- planner


def test_planner_money_as_costs_and_plain_ratios():
    """The Planner's $ per 1M are fmt.usd's, 3 significant figures as on Cost ('$0.115'; to the cent, '$0.11', it had
    hidden up to ±8 % between chips)."""
    from tpot_model import Scenario, load_model_catalog, resolve_profile
    from tpot_model import planner as pl
    from ui.figures import planner as pf

    assert pf.ratio_text(1 / 210) == "1 : 210"  # was '1 : 2.1e+02'
    m, hw = load_model_catalog()["llama-3.1-70b"], CATALOG["h200"]
    s = Scenario(batch=8, context_tokens=4096, output_tokens=1024, num_gpus=2, weights="fp8")
    tp = pl.tp_scaling(m, hw, s, resolve_profile("typical"), (1, 2, 4, 8), tpot_target_s=0.05)
    for lang in (EN, ZH):
        table = pf.tp_display_table(tp, 8, tr=lang)
        usd = [v for v in table[lang("pl_col_usd")] if v != lang("pl_na")]
        assert usd == [fmt.usd(v) for v, f in zip(tp.usd_per_1M_tokens, tp.fits, strict=True) if f], usd
        target = [v for v in table[lang("pl_col_target_usd")] if v != lang("pl_na")]
        assert target and target == [fmt.usd(v) for v in tp.frontier.usd_per_1M_tokens if math.isfinite(v)], target


# ------------------------------------------------------------------------------------------------- frontier


def test_frontier_legend_goes_below_the_plot_with_many_series():
    """Issue 19: the legend goes below the plot (horizontal, the figure taller by its rows), so the plot keeps its
    width; a few series too (at the right they left a 900 px embed's plot ~370 px wide). The frontier's axes: tok/s
    per user across, per GPU up."""
    import tests.test_figures_frontier as tf
    from ui.figures import frontier as figs

    one, _ = tf._series()
    few = figs.frontier_figure([one], [], model_name=tf.MODEL.name)
    assert legend_below(few.layout.legend)
    many_series = [tf._series(hid, precision, layout)[0] for hid in ("h200", "b200", "mi355x")
                   for precision in ("fp8", "fp4") for layout in ("tp", "dp-ep")]  # fmt: skip
    for lang in (EN, ZH):
        many = figs.frontier_figure(many_series, [], model_name=tf.MODEL.name, tr=lang)
        assert legend_below(many.layout.legend)
        assert many.layout.height > few.layout.height
        assert many.layout.xaxis.title.text == lang("fr_axis_tps_user")
        assert many.layout.yaxis.title.text == lang("fr_axis_tps_gpu_output")
        mw = figs.per_mw_figure(many_series, [], tf.ALL_IN_W, tr=lang)
        assert mw.layout.legend.orientation == "h"


# ------------------------------------------------------------------------------------------------- overview


@pytest.mark.parametrize("lang", [EN, ZH])
def test_overview_targets_each_with_its_number_and_values_clear_of_the_lines(lang):
    """Issue 19: every target line's label carries its number (reading speed 179 ms, laggy above 200 ms); the bars'
    values are in their axis labels, not at the bar ends where a target line can run through them."""
    import re

    from ui.figures import overview as ov

    for tpot_s in (0.020, 0.045, 9.0):  # linear axis (a value next to the 50 ms line), and the log axis
        fig = ov.tpot_vs_targets(tpot_s, tpot_s / 2, tr=lang)
        notes = " | ".join(a.text.replace("\xa0", " ") for a in fig.layout.annotations)  # a target unbroken
        for ms_text in ("30 ms", "50 ms", "80 ms", "200 ms", "179 ms"):
            assert ms_text in notes, (ms_text, notes)
        assert "毫秒" not in notes
        (bar,) = fig.data
        assert bar.text is None
        assert list(bar.y) == [
            f"{lang('label_ideal')} · {fmt.ms(tpot_s / 2)}",
            f"{lang('ov_estimate')} · {fmt.ms(tpot_s)}",
        ]
        assert all(re.search(r"\d", y) for y in bar.y)


@pytest.mark.parametrize("lang", [EN, ZH])
def test_overview_target_labels_do_not_run_into_each_other_or_the_bars(lang):
    """DeepSeek-R1 BF16 on one H100 (335 ms) stretched the axis: 'code completion 30 ms' ran into 'agents 80 ms'
    on one row, and 'feels laggy above 200 ms' sat on the Estimate bar. Labels take rows by their width, all above
    the plot; laggy sits there too."""
    from ui.figures import overview as ov

    fig = ov.tpot_vs_targets(0.335, 0.09, tr=lang)
    notes = [a for a in fig.layout.annotations if a.yref == "paper" and a.xref == "x"]
    assert len(notes) == 6 and all(a.y >= 1.0 for a in notes)  # five targets and laggy, all above the plot
    top = fig.layout.xaxis.range[1]
    spans = {}
    for a in notes:
        w = len(a.text) * ov._LABEL_CHAR_PX * top / ov._LABEL_PLOT_PX
        lo = a.x - w / 2 if a.xanchor == "center" else a.x
        spans.setdefault(a.y, []).append((lo, lo + w))
    for row in spans.values():  # no two labels of one row overlap
        row.sort()
        assert all(b[0] > a[1] for a, b in zip(row, row[1:], strict=False)), row
    assert len(spans) >= 2  # the crowded targets needed a second row
    # 1,118 ms (Llama-3.1-405B BF16 on one RTX 4090) squeezed the targets to the left of a linear axis: five rows of
    # labels, up into the title (helper review). Past three rows the axis turns log, with one label for the targets
    fig = ov.tpot_vs_targets(1.118, 0.5, tr=lang)
    assert fig.layout.xaxis.type == "log"
    (joined,) = [a.text.replace("\xa0", " ") for a in fig.layout.annotations if "30\xa0ms" in a.text]
    assert joined.index("80 ms") < joined.index("179 ms") < joined.index("200 ms")  # in the lines' order
    assert max(ov.label_rows([(x, "x" * 20, "center", "") for x in (30, 50, 80, 179, 200)], 1286.0)) >= 3


def test_zh_tw_uses_one_unit_style_for_milliseconds():
    from ui.i18n import catalog

    mixed = [k for k, v in catalog().items() if "毫秒" in (v.get("zh-TW") or "")]
    assert not mixed, mixed  # fmt writes 'ms'; the labels say ms too


# ------------------------------------------------------------------------------------------------- cost


def _cost_frontier(lang):
    from tests.test_figures_kv_cost import _est
    from tpot_model.targets import TPOT_TARGETS_S
    from ui.figures import cost as cf

    b = cf.batch_grid(8)
    est = _est(batch=b)
    target_s = TPOT_TARGETS_S["chat"]
    fig = cf.frontier(b, est.tpot_s, est.tokens_per_s_per_gpu, est.fits, target_s, lang("target_chat"), 8, tr=lang)
    return fig, target_s


@pytest.mark.parametrize("lang", [EN, ZH])
def test_cost_target_label_sits_outside_the_plot_area(lang):
    """Issue 19: Cost's target label clears the markers: it is an annotation above the plot (at the target's
    tokens/s per user), never a label on the line inside the plot area. (The 'TPOT up' orientation, whose label sat
    in the right margin, is gone: one orientation for throughput-latency curves.)"""
    import math

    fig, target_s = _cost_frontier(lang)
    line = next(s for s in fig.layout.shapes if s.type == "line")
    assert not (line.label and line.label.text)
    (note,) = [a for a in fig.layout.annotations if a.text == lang("target_chat")]
    assert note.yref == "paper" and note.y >= 1 and note.yanchor == "bottom"
    assert note.xref == "x" and note.x == pytest.approx(math.log10(1 / target_s))


@pytest.mark.parametrize("lang", [EN, ZH])
def test_cost_frontier_defaults_to_the_inferencex_orientation(lang):
    """Issue 19: one orientation for throughput-latency curves: tok/s per user across, tok/s per GPU up, as the
    Serving frontier draws it."""
    fig, _ = _cost_frontier(lang)
    assert fig.layout.xaxis.title.text == lang("ce_axis_tps_user")
    assert fig.layout.yaxis.title.text == lang("ce_axis_tps_gpu")


# ------------------------------------------------------------------------------------------------- compare

# five columns share ~740 px beside the row names (1400 px window with the sidebar, or the 900 px embed): a scenario's
# value of 'Typical serving engine' length and a delta of '+75.0%' fit; the old '$3.59 · On-demand cloud, as of ...'
# and '+68,608 tok/s (+12.8%)' ran out of the table
VALUE_CHARS_3, DELTA_CHARS_3 = 22, 8


@pytest.mark.parametrize("lang", [EN, ZH])
def test_compare_with_three_scenarios_fits_its_table(lang):
    """Issue 19: with A, B and C the headline table's five columns fit the page: short chip names, the workload as
    numbers, the price's basis and date in rows of their own, deltas as percentages; two scenarios keep full text."""
    from tests.test_figures_hardware_compare import _scenario
    from tpot_model import estimate, load_profiles
    from ui.figures import compare as cf

    s = _scenario(batch=32, context_tokens=4096, output_tokens=1024)
    chips = {"A": "h200", "B": "mi300x", "C": "b200"}
    typical = load_profiles()["typical"]
    ests = {x: estimate(TINY_DENSE, CATALOG[h], s, typical) for x, h in chips.items()}
    frame = cf.headline_display(ests, tr=lang).data
    deltas = [lang("cmp_delta_col", x="B"), lang("cmp_delta_col", x="C")]
    assert list(frame.columns) == ["A", "B", deltas[0], "C", deltas[1]]
    too_long = {(r, c): v for r in frame.index for c, v in frame.loc[r].items()
                if len(v) > (DELTA_CHARS_3 if c in deltas else VALUE_CHARS_3)}  # fmt: skip
    assert not too_long, too_long
    assert frame.loc[lang("cmp_row_hardware"), "C"] == fmt.chip(CATALOG["b200"], lang, short=True)
    assert frame.loc[lang("cmp_row_price_basis"), "A"] == lang(f"basis_{ests['A'].price.basis}")
    tpot_delta = frame.loc[lang("cmp_row_tpot"), lang("cmp_delta_col", x="B")]
    assert tpot_delta.endswith("%") and "ms" not in tpot_delta
    two = cf.headline_display({"A": ests["A"], "B": ests["B"]}, tr=lang).data  # room enough: the full text
    assert two.loc[lang("cmp_row_hardware"), "B"] == CATALOG["mi300x"].name
    assert "ms" in two.loc[lang("cmp_row_tpot"), lang("cmp_delta_col", x="B")]


# ------------------------------------------------------------------------------------------------- breakdown


def test_one_number_of_decimals_per_column():
    assert fmt.column_decimals([21.93, 0.04, 3.1]) == 1  # 3 significant figures of the largest
    assert fmt.column_decimals([0.912, 0.004]) == 3
    assert fmt.column_decimals([335.2, 12.0]) == 0
    assert fmt.column_decimals([335.2, 12.0], lo=1) == 1
    assert fmt.column_decimals([float("nan"), 0.0]) == 0
    assert fmt.fixed(0.04, 1) == "0.0" and fmt.fixed(1234.5, 2) == "1,234.50"
    assert fmt.gb(-795.69e9, 2) == "−795.69 GB" and fmt.gb(1.5e9) == "1.50 GB"  # a true minus (KV page: no room)


def test_chip_names_short_unless_two_coincide():
    """fmt.chip_names, the one place chips get their axis, legend and table names: short where distinct, a star on
    announced parts when asked, the full names where two short ones coincide, a chip outside the catalog by its own."""
    cat = load_hardware_catalog()
    assert fmt.chip_names([cat["b200"], cat["gb200"]]) == ["B200", "GB200 NVL72"]
    assert fmt.chip_names([cat["vr200"], None], ["Vera Rubin", "My chip"], star=True) == ["Rubin NVL72*", "My chip"]
    # with the page's translator: fmt.chip's mark, the one the Serving frontier's and Planner's labels carry
    assert fmt.chip_names([cat["h200"], cat["mi455x"]], tr=ZH) == ["H200 SXM 141GB", "MI455X（已發表，尚未出貨）"]
    twins = [SimpleNamespace(name=f"Acme X1 ({v})", short_name="X1", announced=False) for v in ("SXM", "PCIe")]
    assert fmt.chip_names(twins) == ["Acme X1 (SXM)", "Acme X1 (PCIe)"]


@pytest.mark.parametrize("lang", [EN, ZH])
def test_breakdown_table_has_uniform_decimals(lang):
    """Issue 19: Breakdown's table printed 21.934, 0.1, 1.25 in one column; now every cell of a column has the same
    number of decimals (fmt.column_decimals, at least one). The page shows it as text in a static table that wraps
    (a scrolled grid had hidden its ideal-bound column at 900 px): the same numbers, rounded as the grid had shown
    them; from 1,000 ms whole, thousands grouped."""
    import pandas as pd

    from tests.test_figures_roofline_breakdown import _est
    from tpot_model import IDEAL
    from ui.figures import breakdown as bd

    table = bd.decomposition_table(_est(), _est(profile=IDEAL), lang)
    shown = bd.decomposition_display(table)
    assert list(shown.columns) == list(table.columns) and shown.iloc[:, 0].equals(table.iloc[:, 0])
    for col in table.columns[1:]:
        d = fmt.column_decimals(table[col].to_numpy(), lo=1)
        assert d >= 1 and list(shown[col]) == [f"{v:,.{d}f}" for v in table[col]], col
    assert shown[lang("breakdown_col_pct")].iloc[-1] == "100.0"  # % of TPOT to one decimal
    slow = bd.decomposition_display(pd.DataFrame({"ms": [1234.56, 12.0]}))
    assert list(slow["ms"]) == ["1,235", "12"]


@pytest.mark.parametrize(
    ("value", "text"),
    [(2907.3289, "2,910"), (12_701.0, "12,700"), (999.6, "1,000"), (12.37, "12.4"), (75.0, "75.0"),
     (0.04584, "0.0458"), (0.0, "0"), (float("nan"), "n/a")],
)  # fmt: skip
def test_figures_rounds_the_whole_part_too(value, text):
    """fmt.figures: 3 significant figures whatever the magnitude (fmt.number keeps every whole digit: '2,907'), the
    rule of a table's number column (cache.display_numbers) and of the labels read beside it."""
    assert fmt.figures(value) == text


def test_a_column_spanning_orders_of_magnitude_reads_three_significant_figures():
    """Hardware's TPOT table held 6.826 ms beside 1,200 ms: its column needs no decimals for its largest value, so it
    is shown with thousands separators ('localized'), which printed each value whole ('12.37', '6.826'). Such a
    column's values are shown at 3 significant figures (1,200, 12.4, 6.83), still numbers; the table given is not
    changed; a column with decimals keeps its values and its fixed format."""
    import pandas as pd

    from ui import cache

    table = pd.DataFrame({"chip": ["a", "b", "c", "d"], "tpot_ms": [1203.7, 12.37, 6.826, float("nan")],
                          "user": [129.0, 75.04, 66.3, 46.0], "pct": [12.25, 3.5, 0.25, 1.0]})  # fmt: skip
    styler, columns = cache.display_numbers(table)
    shown = styler.data
    assert shown["tpot_ms"].tolist()[:3] == [1200.0, 12.4, 6.83] and table["tpot_ms"].tolist()[:3] == [
        1203.7,
        12.37,
        6.826,
    ]
    assert columns["tpot_ms"]["type_config"]["format"] is None  # the Styler's text shows, the numbers sort
    # each at 3 significant figures with its zeros: '75.0' beside '66.3' (the locale's format had read '75', '46');
    # a missing one without text (the page's placeholder shows)
    text = styler.hide(axis="index").to_string(delimiter="|").splitlines()
    assert text == ["chip|tpot_ms|user|pct", "a|1,200|129|12.250000", "b|12.4|75.0|3.500000", "c|6.83|66.3|0.250000",
                    "d||46.0|1.000000"]  # fmt: skip
    assert shown["pct"].tolist() == [12.25, 3.5, 0.25, 1.0] and columns["pct"]["type_config"]["format"] == "%.1f"
    assert set(columns) == {"tpot_ms", "user", "pct"} and shown["chip"].tolist() == ["a", "b", "c", "d"]

    # a column held to decimals (the breakdown's ms, lo=1) that reaches thousands: whole, with separators (an absurd
    # scenario's parts had read '239662.2' beside the text's '240 s')
    big = pd.DataFrame({"ms": [239662.2, 312.5, 1.71]})
    shown, columns = cache.display_numbers(big, lo=1)
    assert columns["ms"]["type_config"]["format"] == "localized" and shown.data["ms"].tolist() == [239662.0, 312.0, 2.0]
    # a column may ask for more decimals than its largest value needs: Hardware's memory generations read 0.9 TB/s
    # (one decimal, for Rubin's 22) where the bars beside them read 0.86
    bw = pd.DataFrame({"bw": [22.0, 8.0, 0.864], "gb": [432.0, 288.0, 24.0]})
    _, columns = cache.display_numbers(bw, lo={"bw": 2})
    assert columns["bw"]["type_config"]["format"] == "%.2f" and columns["gb"]["type_config"]["format"] is None
    # a column of $ figures in dollars, as every other (fmt.usd; Hardware's $/1M had read '1.55'), still numbers
    usd = pd.DataFrame({"usd": [1.552125, 0.686907, float("nan")], "tps": [1080.0, 789.0, 716.0]})
    styler, columns = cache.display_numbers(usd, dollars=["usd"])
    assert styler.data["usd"].tolist()[:2] == [1.552125, 0.686907] and columns["usd"]["type_config"]["format"] is None
    text = styler.hide(axis="index").to_string(delimiter="|").splitlines()
    assert text == ["usd|tps", "$1.55|1,080", "$0.687|789", "|716"]


def test_marked_cells_carry_their_mark_and_stay_numbers():
    """Hardware's datasheet marks an estimated figure in its cell ('27.2 (estimate)'): display_numbers writes the
    rows `marked` through `mark`, in a whole-number column too (with separators) and in one with decimals (which
    then has the Styler's text, not a format), each such column as wide as its longest text; the others as before."""
    import pandas as pd

    from ui import cache

    table = pd.DataFrame({"tflops": [312.0, 27.2, 2250.0], "tdp": pd.array([400, 90, 1000], dtype="Int64"),
                          "bw": [1.555, 0.8, 8.0], "year": [2020, 2023, 2024]})  # fmt: skip
    marked = {"tflops": [False, True, False], "tdp": [False, True, True], "bw": [False, True, False]}
    styler, columns = cache.display_numbers(table, lo={"bw": 2}, marked=marked, mark=lambda t: f"{t} (est.)")
    text = styler.hide(axis="index").to_string(delimiter="|").splitlines()
    assert text == ["tflops|tdp|bw|year", "312|400|1.55|2020", "27.2 (est.)|90 (est.)|0.80 (est.)|2023",
                    "2,250|1,000 (est.)|8.00|2024"]  # fmt: skip
    assert styler.data["tflops"].tolist() == [312.0, 27.2, 2250.0] and styler.data["tdp"].dtype == "Int64"
    assert [columns[c]["type_config"].get("format") for c in ("tflops", "tdp", "bw")] == [None] * 3
    assert columns["tdp"]["width"] >= fmt.text_px("1,000 (est.)", cache.CELL_CHAR_PX) and "year" not in columns


# ------------------------------------------------------------------------------------------------- metric labels


def _display_width(text: str) -> int:
    """Columns a label takes: CJK characters and full-width punctuation count two, the rest one."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


# A metric of four in a row has ~150 px for its label and help icon at the 900 px embed width: 'Whole batch (32 seque…',
# '$ per 1M output, with p…' and 'Energy per token, boar…' were cut; '$ per 1M output tokens' (22) was not.
METRIC_LABEL_WIDTH = 22


@pytest.mark.parametrize("lang", [EN, ZH])
def test_kv_cache_and_cost_metric_labels_fit_four_to_a_row(lang):
    """Issue 19: no truncated metric labels (KV cache page; Cost in the embed view at 900 x 700): short labels, the
    detail in the help text; at the longest values a label takes (4,096 sequences, 128K context, 64 chips)."""
    labels = [
        lang("kvc_m_per_token"), lang("kvc_m_per_seq", context="128K"),
        lang("kvc_m_batch", b="4,096", context="128K"), lang("kvc_m_max_batch", context="128K", output="32K"),
        lang("ce_m_usd_1m"), lang("ce_m_usd_prefill"), lang("ce_m_usd_1k"), lang("ce_m_tokens_per_usd"),
        lang("ce_m_tps_gpu"), lang("ce_m_tps_gpu_chip"), lang("ce_m_tps_gpu_one"), lang("ce_m_tps_gpu_one_chip"), lang("ce_m_j"), lang("ce_m_tokens_per_j"),
        lang("ce_m_power", devices=fmt.devices(CATALOG["tpu-v6e"], 64, lang)),
    ]  # fmt: skip
    too_wide = {t: _display_width(t) for t in labels if _display_width(t) > METRIC_LABEL_WIDTH}
    assert not too_wide, too_wide
    said = lang("ce_m_usd_prefill_def", context="4K", output_tokens="1K", decode_steps="1,023")
    assert "prefill" in said or "預填充" in said
    assert lang("ce_m_j_def", tdp="700", devices="8 GPUs").startswith(("Board power", "僅計板卡功耗"))


# ------------------------------------------------------------------------------------------------- orientation


@pytest.mark.parametrize("lang", [EN, ZH])
def test_batch_by_context_heat_maps_share_one_orientation(lang):
    """Issue 19: every batch × context heat map (Breakdown's, Cost's) puts context across and batch up, with the
    scenario marked at (context, batch)."""
    from tests.test_figures_roofline_breakdown import _est as bd_est
    from ui.figures import breakdown as bd
    from ui.figures import cost as cf

    b, c = bd.heatmap_axes(131072, 0)
    grid = bd_est(batch=b[:, None], context_tokens=c[None, :])
    breakdown = bd.heatmap(grid, "tpot", current_batch=8, current_context=4096, tr=lang)
    hb, hc = cf.heat_batches(), cf.heat_contexts(131072, 4096)
    cgrid = bd_est(batch=hb[:, None], context_tokens=hc[None, :])
    cost = cf.heatmap(hb, hc, cgrid.tokens_per_s_per_gpu, cgrid.fits, "tps_gpu", 8, 4096, tr=lang)
    for fig, batches, contexts in ((breakdown, b, c), (cost, hb, hc)):
        assert fig.layout.xaxis.title.text == lang("axis_context")
        assert fig.layout.yaxis.title.text == lang("axis_batch")
        heat = next(t for t in fig.data if t.type == "heatmap")
        assert len(heat.x) == len(contexts) + 1 and len(heat.y) == len(batches) + 1


# ------------------------------------------------------------------------------------------------- page titles

PAGE_TITLES = ("app_title", "roofline_title", "breakdown_title", "page_kv_cache", "page_cost", "hw_title", "cmp_title",
               "page_planner", "page_frontier", "page_economics", "page_glossary", "page_methodology",
               "page_validation")  # fmt: skip
# In a browser (Debian chromium, zh-TW), a title of 34 columns filled one line at the 900 px embed width and 42 at
# 1400 px with the sidebar; 'TPOT 拆解：每個 Token 的時間花在哪裡' (36) left '裡' alone on the second line at 900 px.
TITLE_ONE_LINE_WIDTH = 34


def test_zh_tw_page_titles_do_not_wrap_to_one_character():
    """Issue 19: in zh-TW every page title fits one line at 1400 px and at the 900 px embed width, so none wraps to a
    single character (Hardware's, Roofline's and Breakdown's did)."""
    too_wide = {k: ZH(k) for k in PAGE_TITLES if _display_width(ZH(k)) > TITLE_ONE_LINE_WIDTH}
    assert not too_wide, too_wide


@pytest.mark.parametrize("lang", [EN, ZH])
def test_overview_throughput_help_counts_chips_for_tpus(lang):
    """Issue 19: 'chips' rather than 'GPUs' for TPUs and Trainium beyond the sidebar: Overview's total-throughput
    help names the device count with fmt.devices."""
    tpu = CATALOG["tpu-v6e"]
    text = lang("m_tps_total_def", devices=fmt.devices(tpu, 8, lang), device=fmt.device_word(tpu, lang, 1),
                per_gpu="1,000 tok/s")  # fmt: skip
    assert fmt.devices(tpu, 8, lang) in text and "GPU" not in text


# ------------------------------------------------------------------------------------------------- sources


def test_source_tiers_decided_in_one_place():
    from ui.figures import methodology as mf

    assert mf.source_tier("https://docs.cloud.google.com/tpu/docs/v6e") == "primary"
    assert mf.source_tier("https://github.com/meta-llama/llama-models models/llama3_1/api/sku_list.py") == "primary"
    assert (
        mf.source_tier("https://huggingface.co/mlabonne/Llama-3.1-70B-Instruct-lorablated config.json") == "community"
    )
    assert mf.source_tier("https://aiwiki.ai/wiki/nvidia_h200 (announced Nov 13 2023)") == "community"
    assert mf.source_tier("https://github.com/alpharomercoma/MI300X-vs-H200 METHODOLOGY.md") == "secondary"
    # browser review: a local path is the project's notes (not online), not a 'secondary' source a reader can open;
    # an MLCommons file read raw is as primary as the repository
    assert mf.source_tier("/work/shared/reference/public-2026.md section 3.1 (NVLink 6 ...)") == "notes"
    raw = "https://raw.githubusercontent.com/mlcommons/inference_results_v6.1/main/closed/x.json (4 GPUs per tray)"
    assert mf.source_tier(raw) == "primary"


@pytest.mark.parametrize("lang", [EN, ZH])
def test_methodology_lists_primary_sources_first_with_their_tier(lang):
    """Issue 19: Methodology's source list puts primary sources (vendor docs, official model repos) first, each
    source with its tier shown."""
    from tpot_model import Scenario, estimate, load_model_catalog, load_profiles
    from ui.figures import methodology as mf

    model = load_model_catalog()["llama-3.1-70b"]  # a community copy listed before the official repo
    est = estimate(model, CATALOG["h200"], Scenario(batch=8, context_tokens=4096, output_tokens=256, num_gpus=2,
                   weights="fp8", kv_cache="bf16"), load_profiles()["typical"])  # fmt: skip
    text = "\n".join(t for kind, t in mf.source_blocks(est, lang) if kind == "md")
    model_lines = [ln for ln in text.split("\n**")[2].splitlines() if ln.startswith("- ")]
    tiers = [next(t for t in mf.SOURCE_TIERS if lang(f"meth_tier_{t}") in ln) for ln in model_lines[:3]]
    assert tiers == sorted(tiers, key=mf.SOURCE_TIERS.index) and tiers[0] == "primary"
    assert "meta-llama/llama-models" in model_lines[0]


def test_target_labels_in_zh_tw_take_their_own_rows():
    """900 px review: at DeepSeek-R1 BF16 on one H100 (zh-TW) '閱讀速度 179 ms' and '超過 200 ms 感覺卡頓' shared a row
    and overlapped: a CJK glyph is about twice a Latin one's width, and a 900 px frame's plot is ~540 px wide."""
    from ui.figures import overview as ov

    zh = [(179.0, "閱讀速度 179 ms", "center", "#333"), (200.0, "超過 200 ms 感覺卡頓", "left", "#a00")]
    rows = ov.label_rows(zh, 560.0)
    assert rows[0] != rows[1]
    en = [(179.0, "reading 179 ms", "center", "#333"), (400.0, "feels laggy above 200 ms", "left", "#a00")]
    assert ov.label_rows(en, 560.0) == [0, 0]  # far enough apart: one row
    # 'right': the label ends at x; ~149 px wide at 1.04 ms per px, so from ~406 ms: clear of 'reading' from 560
    assert ov.label_rows([en[0], (560.0, en[1][1], "right", "#a00")], 560.0) == [0, 0]
    assert ov.label_rows([en[0], (330.0, en[1][1], "right", "#a00")], 560.0) == [0, 1]


def test_laggy_label_ends_at_the_plots_right_edge():
    """900 px with the sidebar open (a ~250 px plot): 'feels laggy above 200 ms', from the band's start, ran off the
    chart ('200 ms' cut). It ends at the plot's right edge, in the row where it clears the others."""
    from ui.figures import overview as ov

    fig = ov.tpot_vs_targets(0.0223, 0.0126)
    laggy = EN("target_laggy", ms=fmt.ms(ov.LAGGY_ABOVE_S)).replace("<br>", " ")
    (note,) = [a for a in fig.layout.annotations if a.text == laggy]
    assert note.xanchor == "right" and note.x == fig.layout.xaxis.range[1] == pytest.approx(280.0)  # 1.4 x 200 ms


def test_memory_capacity_is_the_figure_the_fit_starts_from():
    """Browser review: Overview's memory chart said 'capacity 141 GB' for an H200 whose fit starts from the 141 GiB
    nvidia-smi reports (151.4 GB; usable 0.9 x 151.4 - 4.14 GiB = 131.8 GB): the capacity is the gate's, in GB with
    the tool's GiB; a chip without a reported figure keeps its datasheet's."""
    from tpot_model.estimate import usable_memory
    from ui.figures.overview import memory_use

    cat = load_hardware_catalog()
    h200 = usable_memory(cat["h200"])
    assert h200.capacity_bytes == pytest.approx(141 * 2**30) and h200.basis == "reported"
    assert fmt.capacity(h200, EN) == "151 GB (141 GiB, as the vendor's tool reports it)"
    assert fmt.capacity(usable_memory(cat["mi355x"]), EN) == "288 GB"
    fig = memory_use({"weights": 70e9, "kv_cache": 20e9}, 131.8e9, h200.capacity_bytes, reported_gib=141.0)
    assert "capacity 151 GB (141 GiB reported)" in " ".join(a.text for a in fig.layout.annotations)
    # the usable line to 3 figures, as the notices print it (a browser review: 'usable 72 GB' beside '72.5 GB usable')
    assert "usable 132 GB" in " ".join(a.text for a in fig.layout.annotations)
    fig = memory_use({"weights": 70e9}, 72.48e9, 85.5e9)
    assert "usable 72.5 GB" in " ".join(a.text for a in fig.layout.annotations)


def test_legend_rows_as_plotly_lays_a_wrapped_legend_out():
    """Browser re-review: Breakdown's eight keys took eight rows at 900 px with the sidebar open, where the estimate
    packed them three to a row and the plot lost 80 px: plotly.js wraps a horizontal legend into columns as wide as
    its widest entry ('Weight (+ activation) read', 197 px measured, of a ~370 px plot: one column)."""
    from ui.figures.common import LEGEND_LINE_PX, LEGEND_ROW_PX, legend_rows

    breakdown = ["Weight (+ activation) read", "KV-cache read", "Compute", "Communication", "Overhead",
                 "Doesn't fit in memory", "Ideal bound", "80% band"]  # fmt: skip
    assert legend_rows(breakdown) == 8
    assert legend_rows(["A", "B", "C"]) == 1  # side by side where every entry fits
    assert legend_rows(breakdown, width_px=1000) == 2  # four columns of the widest entry's width
    assert legend_rows(["x<br>y", "z"], width_px=1000) == 1 + LEGEND_LINE_PX / LEGEND_ROW_PX  # a second line
    assert legend_rows([]) == 0


def test_targets_chart_of_a_scenario_that_does_not_fit_says_if_it_fitted():
    """Llama 3.1 405B on one H100 (492 GB per GPU on an 80 GB card): the Overview's targets chart alone in a wiki
    frame (&only=tpot-targets) had read 'Estimate · 223 ms' with nothing saying it does not fit, where the full page
    says so above it. Its title, its values and its faded bars say 'if it fitted' now; a scenario that fits: none."""
    from apptest_util import figures, run_page

    from ui.figures import overview as ov

    fig = ov.tpot_vs_targets(0.223, 0.1, fits=False)
    assert fig.layout.title.text.endswith(", if it fitted") and fig.data[0].opacity == 0.4
    assert all(y.endswith("(if it fitted)") for y in fig.data[0].y)
    fits = ov.tpot_vs_targets(0.223, 0.1)
    assert "fitted" not in fits.layout.title.text and fits.data[0].opacity == 1.0
    at = run_page("overview", embedded=True, only="tpot-targets", model="llama-3.1-405b", hardware="h100-sxm", gpus="1")
    assert not at.exception
    (shown,) = figures(at)
    assert shown["layout"]["title"]["text"] == EN("if_fitted_label", label=EN("ov_targets_title"))


def test_wrap_label_keeps_a_bracketed_aside_whole():
    """Helper review: Compare's decomposition labelled its first bars 'Weight (+' / 'activation)' / 'read': the aside
    is one line now, in both languages, and other labels break at spaces as before."""
    from ui.figures.common import wrap_label

    assert wrap_label(EN("bucket_weights"), 10) == "Weight<br>(+ activation)<br>read"
    assert wrap_label(ZH("bucket_weights"), 10) == "權重<br>（含激活值）<br>讀取"
    assert wrap_label("Engine overhead per step", 14) == "Engine<br>overhead per<br>step"
    # no line begins with a full-width colon or comma: the roofline's zh-TW achievable roof had read
    # '實務可達（一般推論服務引擎）' / '：頻寬 72%…' at 900 px
    for width in range(8, 60):
        lines = wrap_label("實務可達（一般推論服務引擎）：頻寬 72%（KV 快取 61%）、算力 54%", width).split("<br>")
        assert not [line for line in lines if line[0] in "：，、"], (width, lines)


def test_axes_separate_thousands_as_the_labels_do_and_years_stay_whole():
    """A browser review: axes read '1000 1500 2000' beside bars labelled '2,560 KiB' and '1,084' (plotly separates
    from 10,000 only). Every axis separates thousands; a launch-year axis keeps 2024, not 2,024."""
    import plotly.graph_objects as go

    from ui.figures import hardware as hw_figs
    from ui.figures.common import style

    axes = style(go.Figure(go.Bar(x=[1000, 1600], y=[1, 2])), "t", "x", "y").layout.template.layout
    assert axes.xaxis.separatethousands is True and axes.yaxis.separatethousands is True  # every x and y axis
    cat = load_hardware_catalog()
    for make in (hw_figs.bandwidth_by_year, hw_figs.bandwidth_frontier):
        assert make([cat["h100-sxm"], cat["b200"]], tr=EN).layout.xaxis.tickformat == "d"


def test_no_label_breaks_beside_a_separator_and_compares_kv_part_reads_whole():
    """A browser review read Compare's 'KV快取讀取' ('KV' over '快取讀取'), its legend's 'MI355X ·mxfp4' (a break after
    the '·') and Cost's '批次 ×上下文' (a title broken after the '×'). No label breaks on either side of a '·' or '×'
    at any width, and Compare's zh-TW part names keep 'KV 快取讀取' on one line."""
    from tests.model_fixtures import TINY_DENSE, TOY_GPU
    from tpot_model import Scenario, estimate
    from ui.figures import compare
    from ui.figures.common import wrap_label

    label = "A · 8 × AMD Instinct MI355X · mxfp4（TPOT 75.0 ms）（若放得下）"
    for width in range(8, 60):
        for line in wrap_label(label, width).split("<br>"):
            assert not line.endswith(("·", "×")) and not line.startswith(("·", "×")), (width, line)
    s = Scenario(batch=4, context_tokens=512, output_tokens=64, num_gpus=1, weights="bf16", kv_cache="bf16")
    e = estimate(TINY_DENSE, TOY_GPU, s)
    ticks = compare.decomposition({"A": e, "B": e}, tr=ZH).layout.xaxis.ticktext
    assert any(t.startswith(ZH("bucket_kv_cache")) for t in ticks), ticks
