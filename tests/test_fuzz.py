"""Fuzzing: the URL parser and the model API never crash and stay physical; 500 random UI scenarios, 0 exceptions."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.apptest_util import APP
from tpot_model import FORMATS, KV_FORMATS, Scenario, estimate, load_hardware_catalog, load_model_catalog, load_profiles
from tpot_model.catalog import Hardware, ModelSpec, MoE, entry_problems
from tpot_model.prices import CUSTOM, PRICE_BASES
from ui.state import (
    BATCH_OPTIONS,
    COMPUTE_OPTIONS,
    CONTEXT_OPTIONS,
    GPU_OPTIONS,
    KV_OPTIONS,
    OUTPUT_OPTIONS,
    WEIGHT_OPTIONS,
    ScenarioState,
    decode_spec,
    encode_spec,
    parse_query,
)

MODELS = load_model_catalog()
HARDWARE = load_hardware_catalog()
PROFILES = load_profiles()
PARAMS = [
    "model",
    "hardware",
    "gpus",
    "weights",
    "kv",
    "compute",
    "batch",
    "context",
    "output",
    "profile",
    "price",
    "lang",
]
NASTY = st.sampled_from(
    ["", " ", "<script>alert(1)</script>", "[x](javascript:alert(1))", "**bold**", "1e400", "-1", "nan", "inf",
     "0", "1.5", "99999999999", "llama-3.1-70b", "h200", "fp8", "zh-TW", "`rm -rf`", "\u202e", "%00", "😀" * 50]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(st.sampled_from(PARAMS + ["junk", "embed"]), st.one_of(NASTY, st.text(max_size=80)), max_size=14)
)
def test_query_parser_never_crashes_and_validates(params):
    state, notices = parse_query(params, set(MODELS), set(HARDWARE), set(PROFILES))
    assert isinstance(state, ScenarioState)
    assert state.model in MODELS and state.hardware in HARDWARE and state.profile in PROFILES
    assert state.batch in BATCH_OPTIONS and state.context in CONTEXT_OPTIONS and state.output in OUTPUT_OPTIONS
    assert state.gpus in GPU_OPTIONS and state.weights in WEIGHT_OPTIONS and state.kv in KV_OPTIONS
    assert state.compute in COMPUTE_OPTIONS and state.lang in ("en", "zh-TW")
    assert state.price is None or (math.isfinite(state.price) and state.price >= 0)
    for n in notices:
        assert not set(n.given) & set("<>`[]()*_#\\|{}"), n.given
        assert len(n.given) <= 41
    state.to_scenario()  # always a valid model scenario


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_spec_token_decoder_rejects_garbage_cleanly(token):
    """A link's custom spec is either rejected with ValueError or decodes to text the validator handles."""
    try:
        text = decode_spec(token)
    except ValueError:
        return
    obj, problems = entry_problems("hardware", text, "custom_hw")
    assert (obj is None) == bool(problems)


def test_spec_token_round_trip():
    text = (
        "my-chip:\n  name: My chip\n  memory_GB: 96\n  memory_bandwidth_TB_per_s: 4\n  dense_TFLOP_per_s: {bf16: 500}\n"
    )
    obj, problems = entry_problems("hardware", decode_spec(encode_spec(text)), "custom_hw")
    assert not problems and obj.memory_bandwidth_bytes_per_s == 4e12


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    model=st.sampled_from(sorted(MODELS)),
    hw=st.sampled_from(sorted(HARDWARE)),
    profile=st.sampled_from(sorted(PROFILES)),
    weights=st.sampled_from(sorted(FORMATS)),
    kv=st.sampled_from(KV_FORMATS),
    batch=st.integers(1, 100_000),
    context=st.integers(0, 10_000_000),
    output=st.integers(1, 100_000),
    gpus=st.integers(1, 1024),
)
def test_model_extremes_are_finite_and_physical(model, hw, profile, weights, kv, batch, context, output, gpus):
    e = estimate(MODELS[model], HARDWARE[hw], Scenario(batch=batch, context_tokens=context, output_tokens=output,
                                                        num_gpus=gpus, weights=weights, kv_cache=kv), PROFILES[profile])  # fmt: skip
    for value in (e.tpot_s, e.ttft_s, e.time_to_serve_s, e.memory_per_gpu_bytes, e.kv_cache_bytes):
        assert np.all(np.isfinite(value)) and np.all(value >= 0)
    assert float(e.tpot_s) > 0
    # no step can beat moving its bytes at peak bandwidth
    assert float(e.tpot_s) >= float(e.decode.bytes) / e.hardware.memory_bandwidth_bytes_per_s * (1 - 1e-9)
    assert float(e.mbu) <= 1 + 1e-9 and float(e.mfu) <= 1 + 1e-9


@settings(max_examples=120, deadline=None)
@given(
    layers=st.integers(1, 200),
    heads_per_kv=st.sampled_from([1, 2, 4, 8, 16]),
    kv_heads=st.sampled_from([1, 2, 4, 8, 16, 32]),
    head_dim=st.sampled_from([64, 128, 256]),
    ff_mult=st.floats(1.0, 8.0),
    vocab=st.integers(1000, 300_000),
    experts=st.sampled_from([0, 8, 64, 256, 512]),
    batch=st.integers(1, 100_000),
)
def test_synthetic_models_100m_to_2t(layers, heads_per_kv, kv_heads, head_dim, ff_mult, vocab, experts, batch):
    """Random architectures from ~100 M to ~2 T parameters give finite, positive results."""
    heads = heads_per_kv * kv_heads
    d_model = heads * head_dim
    d_ff = int(d_model * ff_mult)
    moe = MoE(experts, min(8, experts), max(d_ff // 8, 64), 1, max(d_ff // 8, 64), 1) if experts else None
    m = ModelSpec(id="synthetic", name="synthetic", num_layers=layers, d_model=d_model, num_heads=heads,
                  num_kv_heads=kv_heads, head_dim=head_dim, d_ff=d_ff, vocab_size=vocab, tied_embeddings=False,
                  mlp="swiglu", max_context_tokens=131072, moe=moe)  # fmt: skip
    hw = Hardware(id="x", name="x", memory_bytes=192e9, memory_bandwidth_bytes_per_s=8e12,
                  dense_flop_per_s={"bf16": 2.25e15}, interconnect_bytes_per_s=900e9)  # fmt: skip
    e = estimate(m, hw, Scenario(batch=batch, context_tokens=4096, num_gpus=8), PROFILES["typical"])
    assert all(np.isfinite(v) and v > 0 for v in (float(e.tpot_s), float(e.ttft_s), e.weight_bytes))


@pytest.mark.parametrize("seed", [0])
def test_500_random_ui_scenarios_no_exception(seed):
    """Random sidebar values on random pages, one AppTest session: 500 reruns, zero exceptions."""
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    rng = random.Random(seed)
    pages = sorted(p.name for p in (Path(APP).parent / "pages").glob("*.py"))
    at = AppTest.from_file(APP, default_timeout=120).run()
    assert not at.exception
    sliders = {"gpus": GPU_OPTIONS, "batch": BATCH_OPTIONS, "context": CONTEXT_OPTIONS, "output": OUTPUT_OPTIONS}
    boxes = {"model": sorted(MODELS), "hardware": sorted(HARDWARE), "weights": WEIGHT_OPTIONS, "kv": KV_OPTIONS,
             "compute": COMPUTE_OPTIONS, "profile": sorted(PROFILES), "lang": ["en", "zh-TW"]}  # fmt: skip
    runs = 0
    for i in range(500):
        if i % 25 == 0:
            at.switch_page(f"pages/{pages[(i // 25) % len(pages)]}")
        for key, options in sliders.items():
            at.sidebar.select_slider(key=key).set_value(rng.choice(options))
        for key, options in boxes.items():
            at.sidebar.selectbox(key=key).set_value(rng.choice(list(options)))
        basis = rng.choice(PRICE_BASES)
        at.sidebar.selectbox(key="price_basis").set_value(basis)
        if basis == CUSTOM:  # the $/GPU-hour box takes input only under the custom basis: enable it first
            at.run()
            at.sidebar.number_input(key="price").set_value(rng.choice([None, 0.0, 0.5, 2.5, 999.0]))
        at.run()
        runs += 1
        assert not at.exception, (i, at.session_state["model"], at.session_state["hardware"], at.exception)
    assert runs == 500
