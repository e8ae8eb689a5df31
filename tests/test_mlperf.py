"""MLPerf Inference results as calibration data (data/mlperf.csv, tpot_model/mlperf.py) and the chips' attainable
rates (hardware.yaml attainable_*, roofline.rates_for)."""

from __future__ import annotations

import csv
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tpot_model import engines, load_hardware_catalog, load_profiles, mlperf
from tpot_model.catalog import hardware_from_dict
from tpot_model.files import DATA_DIR, CatalogError
from tpot_model.profiles import IDEAL
from tpot_model.roofline import attainable_bandwidth_bytes_per_s, attainable_flop_per_s, rates_for
from tpot_model.scenario import Scenario

ROOT = Path(__file__).resolve().parent.parent
PUBLIC = Path("/work/shared/reference/mlperf-inference-public.csv")


@pytest.fixture(scope="module")
def rows():
    return mlperf.load_mlperf()


def test_file_holds_no_round_after_v5_1_and_no_repeated_run(rows):
    assert {r.round for r in rows} <= {"v4.0", "v4.1", "v5.0", "v5.1"}
    assert not any("identical to llama2-70b-99 result" in r.fields["notes"] for r in rows)
    assert len(rows) == 887 - 260  # the source's 887 rows less the 260 it flags as a 99.9 repeat of a 99 run


def test_every_fit_row_is_a_catalog_chip_and_model_with_its_source(rows):
    hardware = load_hardware_catalog()
    fit = [r for r in rows if r.fitted]
    assert len(fit) > 150
    for r in fit:
        assert r.hardware_id in hardware and r.model is not None
        assert r.fields["source"].startswith(("mlcommons/", "openshift-psap/", "ntuhpc/"))
        assert r.fields["division"] == "closed" and r.fields["scenario"] in ("Server", "Interactive")


def test_concurrency_is_littles_law_in_the_models_form(rows):
    """C = tok/s per replica x (TTFT + (OSL - 1) TPOT) / OSL, worked by hand for the first fit row."""
    r = next(r for r in rows if r.fitted)
    f = r.fields
    tp = float(f["tensor_parallel"])
    osl = float(f["implied_mean_output_tokens"])
    c = float(f["per_accelerator_tokens_per_s"]) * tp
    c *= (float(f["ttft_mean_ms"]) + (osl - 1) * float(f["tpot_mean_ms"])) * 1e-3 / osl
    assert float(f["concurrency_per_replica"]) == pytest.approx(c, rel=1e-3)


@pytest.mark.skipif(not PUBLIC.exists(), reason="the public MLPerf file is not on this machine")
def test_builder_reproduces_the_committed_file(tmp_path):
    import subprocess
    import sys

    out = tmp_path / "mlperf.csv"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_mlperf.py"), str(PUBLIC), "-o", str(out)], check=True)
    assert out.read_text(encoding="utf-8") == (DATA_DIR / "mlperf.csv").read_text(encoding="utf-8")


def test_committed_predictions_are_what_the_profiles_give(rows):
    """data/mlperf_predictions.json (written by calibrate) holds the model's TPOT with the committed profiles."""
    records = mlperf.read_table(DATA_DIR / mlperf.MLPERF_TABLE_NAME, rows)
    tpot, out = mlperf.predict_rows(rows, load_profiles())
    fit = [i for i, r in enumerate(rows) if r.fitted]
    np.testing.assert_allclose([x["predicted_tpot_s"] for x in records], tpot[fit], rtol=1e-9)
    np.testing.assert_allclose([x["predicted_output_tokens_per_s_per_gpu"] for x in records], out[fit], rtol=1e-9)


def test_chip_families_are_the_engines_ones(rows):
    """One definition of chip families (engines.CHIP_FAMILIES): the MLPerf folds use it, so the RTX PRO 6000 is
    in NVIDIA's RTX Blackwell family (not the data-centre one) and the Arc Pro B60 in 'arc-pro'."""
    assert not hasattr(mlperf, "FAMILIES")
    assert mlperf.family("rtx-pro-6000") == "blackwell-rtx" == engines.chip_family("rtx-pro-6000")
    assert mlperf.family("arc-pro-b60") == "arc-pro"
    assert mlperf.family("my-own-chip") == "my-own-chip"  # outside every family: its own fold
    for r in rows:
        if r.hardware_id:
            assert r.family == (engines.chip_family(r.hardware_id) or r.hardware_id)


def test_fit_picks_the_grid_value_with_least_squared_log_error():
    grid = np.array(mlperf.FLOPS_GRID)
    measured = np.array([2.0, 4.0])
    table = np.outer(1.0 / grid, [1.0, 2.0])  # TPOT inversely proportional to the FLOP efficiency
    assert mlperf.fit_flops(table, measured, np.array([True, True])) == 0.5


def test_a_dual_gpu_card_counts_as_two_gpus_and_w4a8_multiplies_in_int8(rows):
    """The MAXSUN Arc Pro B60 Dual 48G carries two 24 GB B60 GPUs: MLPerf's 4 accelerators are 8 GPUs, its
    per-accelerator tokens/s are per card (llama2-70b Server: 527.5125 per card, 2110.05 for the system), and its
    4-bit weights with UINT8 inputs multiply in int8."""
    (r,) = [r for r in rows if r.hardware_id == "arc-pro-b60" and r.fitted and r.model.id == "llama-2-70b"]
    assert r.fields["gpus_per_accelerator"] == "2" and r.num_gpus == 8
    assert r.output_tokens_per_s_per_gpu == pytest.approx(527.5125 / 2)
    assert r.output_tokens_per_s_per_gpu * r.num_gpus == pytest.approx(2110.05)
    assert r.scenario.compute == "int8" and r.scenario.weights.name == "int4"
    others = [x for x in rows if x.hardware_id != "arc-pro-b60"]
    assert {x.fields["gpus_per_accelerator"] for x in others} == {"1"} and not any(x.fields["compute"] for x in others)


def test_forward_in_time_predicts_the_newest_round_from_the_older_ones_only():
    def row(i, rnd, engine, tpot):
        fields = {"round": rnd, "hardware_id": "h200"}
        return mlperf.MLPerfResult(i, fields, None, None, engine, tpot, math.nan, "fit", Scenario())

    grid = np.array(mlperf.FLOPS_GRID)
    # older: engine a measured as if at FLOP efficiency 0.5 (twice), engine c as if at 1.0; newest: a, and b (no older)
    rows = [row(0, "v5.0", "a", 2.0), row(1, "v4.1", "a", 2.0), row(2, "v5.0", "c", 1.0),
            row(3, "v5.1", "a", 9.9), row(4, "v5.1", "b", 9.9)]  # fmt: skip
    table = np.outer(1.0 / grid, [1.0, 1.0, 1.0, 1.0, 1.0])
    out = mlperf.forward_tpot(rows, table)
    assert np.isnan(out[:3]).all()  # only the newest round is predicted
    assert out[3] == pytest.approx(1.0 / 0.5)  # a's own older rows: 0.5, whatever the newest row measured
    pooled = mlperf.fit_flops(table, np.array([2.0, 2.0, 1.0, 9.9, 9.9]), np.array([1, 1, 1, 0, 0], dtype=bool))
    assert 0.5 < pooled < 1.0 and out[4] == pytest.approx(1.0 / pooled)  # b: every engine's older rows


def test_a_misspelt_engine_is_named_with_the_one_meant(tmp_path):
    """A typo in a profile id fitted (serving) or checked (MLPerf) an engine of its own; now each file's loader
    names the file, line and field and the engine meant."""
    from tpot_model.serving_calibration import SERVING_MEASUREMENTS_PATH, load_serving_measurements

    for source, load, meant in (
        (mlperf.MLPERF_PATH, mlperf.load_mlperf, "vllm"),
        (SERVING_MEASUREMENTS_PATH, load_serving_measurements, "sglang"),
    ):
        with open(source, newline="") as f:
            rows = list(csv.reader(f))
        col = rows[0].index("profile")
        line = next(i for i, r in enumerate(rows) if r[col] == meant)
        rows[line][col] = meant[:-1]
        p = tmp_path / source.name
        with p.open("w", newline="") as f:
            csv.writer(f).writerows(rows)
        with pytest.raises(CatalogError) as info:
            load(p)
        assert str(info.value).startswith(f"{p}: line {line + 1}")
        assert f"field 'profile': unknown engine profile '{meant[:-1]}' (did you mean '{meant}'?" in str(info.value)


def test_unknown_column_is_a_clear_error(tmp_path):
    p = tmp_path / "m.csv"
    with p.open("w", newline="") as f:
        csv.writer(f).writerow(["round"])
    with pytest.raises(CatalogError, match="missing column 'division'"):
        mlperf.load_mlperf(p)


# --------------------------------------------------------------------------------------------- attainable rates


def test_rates_for_uses_the_chips_attainable_rates_and_ideal_the_peaks():
    """MI300X: 4.3 TB/s measured of 5.3 and 1,177 fp8 TFLOP/s of 2,614.9; typical's 0.8 and 0.6 on top."""
    hw = load_hardware_catalog()["mi300x"]
    s = Scenario(weights="fp8", kv_cache="fp8")
    typical = load_profiles()["typical"]
    r = rates_for(hw, typical, s)
    assert r.memory_bytes_per_s == pytest.approx(4.3e12 * typical.bandwidth_efficiency)
    assert r.gemm_flop_per_s == pytest.approx(1177e12 * typical.flops_efficiency)
    ideal = rates_for(hw, IDEAL, s)
    assert ideal.memory_bytes_per_s == pytest.approx(5.3e12)
    assert ideal.gemm_flop_per_s == pytest.approx(2614.9e12)


def test_unpublished_chips_take_their_familys_prior():
    """H200 has no published microbenchmark in the catalog: NVIDIA's prior, 90% of 4.8 TB/s and of 1,978.9 fp8."""
    hw = load_hardware_catalog()["h200"]
    assert attainable_bandwidth_bytes_per_s(hw) == pytest.approx(0.9 * 4.8e12)
    assert attainable_flop_per_s(hw, "fp8") == pytest.approx(0.9 * 1978.9e12)


def test_same_engine_on_two_chips_differs_by_what_the_chips_reach():
    """One profile, the same peaks: a chip measured at a lower fraction runs slower, by that fraction."""
    base = {"name": "x", "memory_GB": 80, "memory_bandwidth_TB_per_s": 4.0, "dense_TFLOP_per_s": {"bf16": 1000}}
    a = hardware_from_dict("a", base | {"attainable_memory_bandwidth_TB_per_s": 3.6}, "t")
    b = hardware_from_dict("b", base | {"attainable_memory_bandwidth_TB_per_s": 2.4}, "t")
    p = replace(IDEAL, id="engine", bandwidth_efficiency=0.8)
    ra, rb = rates_for(a, p, Scenario()), rates_for(b, p, Scenario())
    assert ra.memory_bytes_per_s / rb.memory_bytes_per_s == pytest.approx(3.6 / 2.4)


def test_attainable_above_peak_counts_as_the_peak_and_needs_a_peak():
    base = {"name": "x", "memory_GB": 80, "memory_bandwidth_TB_per_s": 4.0, "dense_TFLOP_per_s": {"bf16": 1000}}
    hw = hardware_from_dict("a", base | {"attainable_dense_TFLOP_per_s": {"bf16": 1100}}, "t")
    assert hw.attainable_flop_fraction["bf16"] == 1.0
    with pytest.raises(CatalogError, match="precision 'fp8' has no peak"):
        hardware_from_dict("a", base | {"attainable_dense_TFLOP_per_s": {"fp8": 900}}, "t")
    with pytest.raises(CatalogError, match="attainable_source"):
        hardware_from_dict(
            "a",
            base | {"attainable_memory_bandwidth_TB_per_s": 3.0, "source": "s", "tdp_W": 1},
            "t",
            require_source=True,
        )
    assert math.isclose(attainable_bandwidth_bytes_per_s(hw), 4e12 * 0.85)  # no vendor: the default prior


# --------------------------------------------------------------------------------------------------- what the pages draw


def test_measured_points_are_closed_server_and_interactive_with_a_tpot(rows):
    """Llama-2-70B on H200: 29 results (23 Server, 6 Interactive), the Cisco 16 x H200 multi-node run among them;
    on H100 SXM the NeuralMagic open-division runs are left out; Offline never appears."""
    h200 = mlperf.measured_points(rows, "llama-2-70b", {"h200"})
    assert len(h200) == 29 and sum(r.fields["scenario"] == "Server" for r in h200) == 23
    (cisco,) = [r for r in h200 if r.fields["system_name"] == "Cisco UCS C885A M8 (16x H200-SXM-141GB, TensorRT)"]
    assert cisco.num_gpus == 16 and not cisco.fitted
    h100 = mlperf.measured_points(rows, "llama-2-70b", {"h100-sxm"})
    open_ = [r for r in rows if r.fields["submitter"] == "NeuralMagic" and r.fields["scenario"] == "Server"]
    assert h100 and open_ and not {r.index for r in open_} & {r.index for r in h100}
    every = mlperf.measured_points(rows, "llama-2-70b")
    assert {r.fields["scenario"] for r in every} == {"Server", "Interactive"}
    assert all(r.fields["division"] == "closed" and r.tpot_s > 0 for r in every)
    assert mlperf.measured_points(rows, "llama-3.1-70b") == []


def test_result_lengths_software_and_total_tokens(rows):
    """NVIDIA's H200 x8 v4.1 Server run: ISL 222.3 (the dataset mean), OSL 291.2628 (the run's), total tokens/s
    per GPU = 3,653.5275 x (222.3 + 291.2628) / 291.2628 = 6,442.0; v5.0 rows declare no software."""
    (r,) = [r for r in rows if r.fields["system_name"] == "NVIDIA H200 (8x H200-SXM-141GB, TensorRT)"
            and (r.round, r.fields["scenario"], r.fields["benchmark"]) == ("v4.1", "Server", "llama2-70b-99")]  # fmt: skip
    assert (r.isl_tokens, r.osl_tokens, r.num_gpus) == (222.3, 291.2628, 8)
    assert r.total_tokens_per_s_per_gpu == pytest.approx(3653.5275 * 513.5628 / 291.2628)
    assert r.total_tokens_per_s_per_gpu == pytest.approx(6442.0, abs=0.1)
    assert r.software.startswith("TensorRT 10.2.0, CUDA 12.4; ")
    assert next(r for r in rows if r.round == "v5.0" and r.fields["scenario"] == "Server").software == ""


def test_best_per_chip_is_the_most_output_tokens_per_gpu(rows):
    """H200 Server: ASUSTeK's v5.1 run, 4,274.2262 tok/s per GPU, the highest of the 23; Server before Interactive."""
    best = mlperf.best_per_chip(mlperf.measured_points(rows, "llama-2-70b"))
    r = best[("h200", "Server")]
    assert (r.round, r.fields["submitter"], r.output_tokens_per_s_per_gpu) == ("v5.1", "ASUSTeK", 4274.2262)
    servers = [x for x in mlperf.measured_points(rows, "llama-2-70b", {"h200"}) if x.fields["scenario"] == "Server"]
    assert r.output_tokens_per_s_per_gpu == max(x.output_tokens_per_s_per_gpu for x in servers)
    keys = list(best)
    assert keys.index(("h200", "Server")) + 1 == keys.index(("h200", "Interactive"))
    assert best[("h200", "Interactive")].output_tokens_per_s_per_gpu == 2884.9938
