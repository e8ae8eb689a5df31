"""Economics page (AppTest), and the price basis across pages: the same scenario and basis give the same $ per 1M
tokens on every page that shows it."""

from __future__ import annotations

import pytest
from apptest_util import run_page

from tpot_model import Scenario, estimate, resolve_hardware, resolve_model, resolve_profile
from tpot_model.fleet import DAY_S
from ui.i18n import Translator

EN, ZH = Translator("en"), Translator("zh-TW")
Q = dict(model="llama-3.1-8b", hardware="mi355x", gpus="1", weights="fp8", batch="32", context="2048", output="512",
         price_basis="hyperscaler")  # fmt: skip


def _metric(at, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def _usd(text: str) -> float:
    return float(text.replace("$", "").replace(",", ""))


def test_same_usd_per_1m_on_every_page_for_the_same_basis():
    e = estimate(resolve_model("llama-3.1-8b"), resolve_hardware("mi355x"),
                 Scenario(batch=32, context_tokens=2048, output_tokens=512, num_gpus=1, weights="fp8",
                          price_basis="hyperscaler"), resolve_profile("typical"))  # fmt: skip
    expected = float(e.usd_per_1M_tokens)  # MI355X has no on-demand price: only the basis gives it one
    assert e.price.usd_per_gpu_hour == 1.50 and e.price.as_of == "2026-09-20"
    overview, cost = run_page("overview", **Q), run_page("cost", **Q)
    for at, label in ((overview, EN("m_cost")), (cost, EN("ce_m_usd_1m"))):
        assert not at.exception
        assert _usd(_metric(at, label)) == pytest.approx(expected, rel=0.01)
        captions = " ".join(c.value for c in at.caption)
        assert EN("basis_hyperscaler") in captions and "2026-09-20" in captions  # basis and date beside the $
        assert EN("m_tokens_per_mw") in captions
    on_demand = run_page("overview", **{**Q, "price_basis": "on_demand"})
    assert EN("enter_own_price") in [b.label for b in on_demand.button]  # no public on-demand price for MI355X


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_economics_page_capacity_tco_revenue(lang):
    tr = Translator(lang)
    at = run_page("economics", **Q, lang=lang)
    assert not at.exception
    for key in ("ec_cap_h", "ec_tco_h", "ec_rev_h"):
        assert tr(key) in [h.value for h in at.header]
    table = at.dataframe[0].value
    assert list(table["hardware"]) == [resolve_hardware(h).name for h in ("h200", "b200", "mi355x")]
    peak = 1000e9 / DAY_S * 1.5
    for _, r in table.iterrows():
        assert r["gpus"] * r["output_tokens_per_s_per_gpu"] * 0.7 >= peak  # the default demand is served
        assert r["price_basis"] == "hyperscaler" and r["price_as_of"]
    # the TCO preset reproduces MI355X's hyperscaler price, and one click makes it the price of every page
    assert _usd(_metric(at, tr("ec_m_tco"))) == pytest.approx(1.50, abs=0.01)
    at.button(key="econ.use_tco").click().run()
    assert at.session_state["price_basis"] == "custom" and at.session_state["price"] == pytest.approx(1.5, abs=1e-3)


def test_tco_part_edit_changes_the_result():
    at = run_page("economics", **Q)
    before = _usd(_metric(at, EN("ec_m_tco")))
    key = next(n.key for n in at.number_input if n.key and n.key.endswith(".kwh"))
    at.number_input(key=key).set_value(0.30).run()
    after = _usd(_metric(at, EN("ec_m_tco")))
    assert after - before == pytest.approx(2.09 * (0.30 - 0.08), abs=0.011)  # MI355X: 2.09 kW all-in, every hour


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_embed_keeps_the_csv_downloads_with_basis_and_date(lang):
    at = run_page("economics", **Q, embedded=True, lang=lang)
    assert not at.exception
    labels = [b.label for b in at.get("download_button")]
    assert Translator(lang)("ec_rev_csv") in labels
