"""Issue 19, "readable as an image": the one formatter per kind of number (ui/fmt.py), the one word for a device,
short chip names, and the figure properties that make a chart readable as a picture (labels, legend and annotation
placement, orientation), in both languages where text is involved."""

from __future__ import annotations

from dataclasses import replace

import pytest
from model_fixtures import TOY_GPU

from tpot_model import load_hardware_catalog
from ui import fmt
from ui.i18n import EN, Translator

ZH = Translator("zh-TW")
CATALOG = load_hardware_catalog()


# ------------------------------------------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    ("value", "text"),
    [(1_610_000, "1.61 M tok/s"), (1_598, "1,598 tok/s"), (12.34, "12.3 tok/s"), (2.5e9, "2.50 G tok/s"),
     (999_999, "999,999 tok/s")],
)  # fmt: skip
def test_large_rates_to_three_significant_figures(value, text):
    assert fmt.rate(value) == text


@pytest.mark.parametrize(
    ("prefill_per_decode", "text"), [(1 / 210, "1 : 210"), (1 / 2.3, "1 : 2.3"), (3.4, "3.4 : 1"), (1.0, "1.0 : 1")]
)
def test_ratios_in_plain_numbers(prefill_per_decode, text):
    assert fmt.ratio(prefill_per_decode) == text
    assert "e" not in fmt.ratio(1 / 12345)  # never an exponent: '1 : 12,345'


def test_money_with_two_decimals_where_asked():
    assert fmt.usd(1234.5, 2) == "$1,234.50"
    assert fmt.usd(0.1, 2) == "$0.10"
    assert fmt.usd(0.1234) == "$0.123"  # three significant figures otherwise


# ------------------------------------------------------------------------------------------------- devices


def test_tpus_and_trainium_are_chips_everything_else_gpus():
    for hw_id in ("tpu-v6e", "tpu7x", "trainium2", "inferentia2"):
        assert fmt.device_kind(CATALOG[hw_id]) == "chip"
    for hw_id in ("h200", "mi300x", "gb200"):
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
