"""Catalogs: every real entry loads; malformed files fail with a CatalogError naming the file, the entry and the key;
YAML is read safely; Hugging Face config.json files parse to the same shapes as the catalog entries."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path

import model_fixtures  # noqa: F401  (puts the repository root on sys.path)
import numpy as np
import pytest
import yaml

from tpot_model import (
    CatalogError,
    kv_bytes_per_token,
    kv_cache_bytes_per_sequence,
    load_hardware_catalog,
    load_model_catalog,
    load_profiles,
    resolve_hardware,
    resolve_model,
    total_params,
)
from tpot_model.catalog import hardware_figures, hardware_from_text, model_from_dict, model_from_text
from tpot_model.files import DATA_DIR, MAX_FILE_BYTES
from tpot_model.roofline import gpus_per_rack

REQUIRED_HARDWARE = (
    "a100-40gb",
    "a100-80gb-sxm",
    "h100-sxm",
    "h100-pcie",
    "h200",
    "b200",
    "gb200",
    "b300",
    "mi300x",
    "mi325x",
    "mi355x",
    "gaudi3",
    "tpu-v5e",
    "tpu-v5p",
    "tpu-v6e",
    "l40s",
    "rtx-4090",
    "rtx-5090",
    "m2-ultra",
    "m4-max",
)
REQUIRED_MODELS = (
    "llama-2-7b",
    "llama-2-70b",
    "llama-3.1-8b",
    "llama-3.1-70b",
    "llama-3.1-405b",
    "mixtral-8x7b",
    "deepseek-v3",
    "qwen3-32b",
    "qwen3-235b-a22b",
    "qwen3-next-80b-a3b",
    "gpt-oss-20b",
    "gpt-oss-120b",
    "gemma-3-27b",
    # models of 2025-26 (issue 19)
    "kimi-k2",
    "kimi-k2-thinking",
    "deepseek-v3.1",
    "deepseek-v3.2",
    "llama-4-scout",
    "llama-4-maverick",
    "glm-4.5",
    "glm-4.6",
    "qwen3-coder-480b-a35b",
    "qwen3.5-397b-a17b",
    "minimax-m2",
    "deepseek-v4-pro",
)


# --------------------------------------------------------------------------------------------------- real catalogs


def _raw(name: str) -> dict:
    return yaml.safe_load((DATA_DIR / name).read_text(encoding="utf-8"))


def test_every_hardware_entry_loads():
    raw, loaded = _raw("hardware.yaml"), load_hardware_catalog()
    assert list(loaded) == [str(k) for k in raw]
    assert len(loaded) >= 25


def test_every_model_entry_loads():
    raw, loaded = _raw("models.yaml"), load_model_catalog()
    assert list(loaded) == [str(k) for k in raw]
    assert len(loaded) >= 20


def test_every_profile_entry_loads():
    raw, loaded = _raw("profiles.yaml"), load_profiles()
    assert set(raw) <= set(loaded)
    assert {"ideal", "typical"} <= set(loaded)


@pytest.mark.parametrize("hw_id", REQUIRED_HARDWARE)
def test_required_hardware_present(hw_id):
    assert hw_id in load_hardware_catalog()


@pytest.mark.parametrize("model_id", REQUIRED_MODELS)
def test_required_models_present(model_id):
    assert model_id in load_model_catalog()


def test_every_entry_has_a_source():
    for hw in load_hardware_catalog().values():
        assert hw.source and all(s.strip() for s in hw.source), hw.id
        # a TDP is required, except for announced parts whose vendor has not published one (issue 18: never invent)
        assert hw.tdp_w is not None or hw.announced, hw.id
        if hw.scale_up_domain_gpus or hw.scale_out_bytes_per_s or hw.memory_reported_bytes:
            assert hw.system_source or hw.source, hw.id  # the system fields carry their own source
    for m in load_model_catalog().values():
        assert m.source and all(s.strip() for s in m.source), m.id
    for profile_id, entry in _raw("profiles.yaml").items():
        assert entry.get("source"), profile_id
        assert load_profiles()[profile_id].source.strip(), profile_id


def test_compute_rates_are_dense_not_sparse():
    h100 = load_hardware_catalog()["h100-sxm"]
    assert h100.dense_flop_per_s["bf16"] == pytest.approx(989.4e12, rel=1e-12)  # not the 1,979 sparse headline
    assert h100.dense_flop_per_s["fp8"] == pytest.approx(1978.9e12, rel=1e-12)  # not 3,958
    assert h100.memory_bandwidth_bytes_per_s == pytest.approx(3.35e12, rel=1e-12)
    assert h100.memory_bytes == pytest.approx(80e9, rel=1e-12)


def test_catalog_units_are_si():
    h200 = load_hardware_catalog()["h200"]
    assert h200.memory_bytes == pytest.approx(141e9, rel=1e-12)
    assert h200.memory_bandwidth_bytes_per_s == pytest.approx(4.8e12, rel=1e-12)
    assert h200.interconnect_bytes_per_s == pytest.approx(450e9, rel=1e-12)


# --------------------------------------------------------------------------------------------------- malformed files

GOOD_HW = {
    "name": "Toy accelerator",
    "memory_GB": 80,
    "memory_bandwidth_TB_per_s": 3.35,
    "dense_TFLOP_per_s": {"bf16": 989.4},
    "tdp_W": 700,
    "source": "https://example.com/datasheet",
}
GOOD_MODEL = {
    "name": "Toy model",
    "num_layers": 2,
    "d_model": 64,
    "num_heads": 4,
    "num_kv_heads": 2,
    "head_dim": 16,
    "d_ff": 128,
    "vocab_size": 100,
    "tied_embeddings": False,
    "mlp": "swiglu",
    "max_context_tokens": 4096,
    "source": "https://example.com/config.json",
}


def _write(tmp_path: Path, name: str, data) -> Path:
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return p


def _hw(**changes) -> dict:
    d = copy.deepcopy(GOOD_HW)
    for k, v in changes.items():
        if v is None:
            d.pop(k)
        else:
            d[k] = v
    return d


def _model(**changes) -> dict:
    d = copy.deepcopy(GOOD_MODEL)
    for k, v in changes.items():
        if v is None:
            d.pop(k)
        else:
            d[k] = v
    return d


def test_good_tmp_entries_load(tmp_path):
    hw = load_hardware_catalog(_write(tmp_path, "hw.yaml", {"toy-gpu": GOOD_HW}))["toy-gpu"]
    assert hw.memory_bandwidth_bytes_per_s == pytest.approx(3.35e12, rel=1e-12)
    m = load_model_catalog(_write(tmp_path, "models.yaml", {"toy-model": GOOD_MODEL}))["toy-model"]
    assert m.num_layers == 2


BAD_HARDWARE = [
    pytest.param(_hw(clock_MHz=1830), "clock_MHz", id="unknown-key"),
    pytest.param(_hw(memory_GB=None), "memory_GB", id="missing-key"),
    pytest.param(_hw(memory_bandwidth_TB_per_s="4.8e12"), "memory_bandwidth_TB_per_s", id="string-for-number"),
    pytest.param(_hw(memory_bandwidth_TB_per_s=-3.35), "memory_bandwidth_TB_per_s", id="negative-bandwidth"),
    pytest.param(_hw(memory_GB=0), "memory_GB", id="zero-memory"),
    pytest.param(_hw(dense_TFLOP_per_s={"bf16": "989.4"}), "bf16", id="string-rate"),
    pytest.param(_hw(dense_TFLOP_per_s={"bf16": 989.4, "fp9": 5}), "fp9", id="unknown-precision"),
    pytest.param(_hw(aliases="h100"), "aliases", id="alias-not-a-list"),
    pytest.param(_hw(aliases=["--"]), "aliases", id="alias-without-a-letter"),
    pytest.param(_hw(source=None), "source", id="missing-source-in-data"),
]


@pytest.mark.parametrize(("entry", "key"), BAD_HARDWARE)
def test_bad_hardware_catalog_names_file_entry_key(tmp_path, entry, key):
    path = _write(tmp_path, "bad_hardware.yaml", {"good-gpu": GOOD_HW, "toy-gpu": entry})
    with pytest.raises(CatalogError) as err:
        load_hardware_catalog(path)
    message = str(err.value)
    assert "bad_hardware.yaml" in message, message
    assert "toy-gpu" in message, message
    assert key in message, message


@pytest.mark.parametrize(("entry", "key"), [p for p in BAD_HARDWARE if p.id != "missing-source-in-data"])
def test_bad_hardware_text_names_file_entry_key(entry, key):
    with pytest.raises(CatalogError) as err:
        hardware_from_text(yaml.safe_dump({"toy-gpu": entry}), "my_gpu.yaml")
    message = str(err.value)
    assert "my_gpu.yaml" in message, message
    assert "toy-gpu" in message, message
    assert key in message, message


BAD_MODELS = [
    pytest.param(_model(n_experts=8), "n_experts", id="unknown-key"),
    pytest.param(_model(vocab_size=None), "vocab_size", id="missing-key"),
    pytest.param(_model(num_layers="2"), "num_layers", id="string-for-number"),
    pytest.param(_model(d_model=64.5), "d_model", id="fractional-count"),
    pytest.param(_model(num_kv_heads=3), "num_kv_heads", id="heads-not-divisible-by-kv-heads"),
    pytest.param(_model(d_model=0), "d_model", id="zero-width"),
    pytest.param(_model(mlp="relu"), "mlp", id="unknown-mlp"),
    pytest.param(_model(tied_embeddings="no"), "tied_embeddings", id="string-for-bool"),
    pytest.param(_model(moe={"num_experts": 8}), "experts_per_token", id="moe-missing-subkey"),
    pytest.param(
        _model(
            compressed_attention={
                "q_lora_rank": 8,
                "o_groups": 2,
                "o_lora_rank": 8,
                "window_tokens": 4,
                "csa_layers": 1,
                "csa_compression": 4,
                "hca_layers": 1,
                "hca_compression": 16,
                "index_heads": 2,
                "index_head_dim": 4,
                "top_k_tokens": 8,
            }
        ),
        "num_kv_heads",
        id="compressed-attention-needs-one-kv-head",
    ),  # fmt: skip
    pytest.param(
        _model(
            num_kv_heads=1,
            compressed_attention={
                "q_lora_rank": 8,
                "o_groups": 2,
                "o_lora_rank": 8,
                "window_tokens": 4,
                "csa_layers": 2,
                "csa_compression": 4,
                "hca_layers": 2,
                "hca_compression": 16,
                "index_heads": 2,
                "index_head_dim": 4,
                "top_k_tokens": 8,
            },
        ),
        "csa_layers",
        id="compressed-attention-more-layers-than-the-model",
    ),  # fmt: skip
]


@pytest.mark.parametrize(("entry", "key"), BAD_MODELS)
def test_bad_model_catalog_names_file_entry_key(tmp_path, entry, key):
    path = _write(tmp_path, "bad_models.yaml", {"good-model": GOOD_MODEL, "toy-model": entry})
    with pytest.raises(CatalogError) as err:
        load_model_catalog(path)
    message = str(err.value)
    assert "bad_models.yaml" in message, message
    assert "toy-model" in message, message
    assert key in message, message


@pytest.mark.parametrize(("entry", "key"), BAD_MODELS)
def test_bad_model_text_names_file_entry_key(entry, key):
    with pytest.raises(CatalogError) as err:
        model_from_text(yaml.safe_dump({"toy-model": entry}), "my_model.yaml")
    message = str(err.value)
    assert "my_model.yaml" in message, message
    assert "toy-model" in message, message
    assert key in message, message


def test_catalog_error_is_a_value_error():
    assert issubclass(CatalogError, ValueError)


def test_malformed_yaml_names_file_and_line(tmp_path):
    path = _write(tmp_path, "broken.yaml", "toy-gpu:\n  name: [unclosed\n  memory_GB: 80\n")
    with pytest.raises(CatalogError) as err:
        load_hardware_catalog(path)
    message = str(err.value)
    assert "broken.yaml" in message and "line" in message, message
    with pytest.raises(CatalogError) as err:
        model_from_text('{"model_type": "llama", "hidden_size": 4096,,}', "config.json")
    assert "config.json" in str(err.value) and "line" in str(err.value)


def test_file_over_size_limit_is_refused(tmp_path):
    path = _write(tmp_path, "huge.yaml", "# " + "x" * (MAX_FILE_BYTES + 10) + "\ntoy-gpu: {}\n")
    with pytest.raises(CatalogError) as err:
        load_hardware_catalog(path)
    assert "huge.yaml" in str(err.value) and "limit" in str(err.value)
    with pytest.raises(CatalogError) as err:
        hardware_from_text("a: 1\n" + "#" * (MAX_FILE_BYTES + 10), "upload.yaml")
    assert "upload.yaml" in str(err.value)


def test_python_tags_are_rejected_not_executed(tmp_path):
    marker = tmp_path / "executed"
    payload = f"toy-gpu: !!python/object/apply:os.system ['touch {marker}']\n"
    with pytest.raises(CatalogError) as err:
        load_hardware_catalog(_write(tmp_path, "evil.yaml", payload))
    assert "evil.yaml" in str(err.value)
    with pytest.raises(CatalogError):
        model_from_text(payload, "evil_model.yaml")
    with pytest.raises(CatalogError):
        hardware_from_text("toy: !!python/object:pathlib.Path {}\n", "evil2.yaml")
    assert not marker.exists()


# --------------------------------------------------------------------------------------------------- names

NAMES = [
    ("hardware", "gb200", "gb200"),
    ("hardware", "GB200", "gb200"),
    ("hardware", "GB200 NVL72", "gb200"),  # the chart label
    ("hardware", "gb200-nvl72", "gb200"),
    ("hardware", "NVIDIA B200", "b200"),  # the vendor's word dropped
    ("hardware", "hgx-b200", "b200"),  # an alias
    ("hardware", "h100", "h100-sxm"),
    ("hardware", "AMD Instinct MI355X", "mi355x"),  # the catalog name
    ("hardware", "Vera Rubin NVL72", "vr200"),
    ("model", "DeepSeek-R1", "deepseek-r1"),
    ("model", "deepseek-ai/DeepSeek-R1-0528", "deepseek-r1"),  # a repository, with its revision
    ("model", "nvidia/DeepSeek-R1-0528-FP4", "deepseek-r1"),  # ... and its weight format
    ("model", "meta-llama/Llama-3.1-70B-Instruct", "llama-3.1-70b"),
    ("model", "meta-llama/Meta-Llama-3.1-8B-Instruct", "llama-3.1-8b"),
    ("model", "moonshotai/Kimi-K2-Instruct-0905", "kimi-k2"),
    ("model", "mistralai/Mixtral-8x7B-Instruct-v0.1", "mixtral-8x7b"),
    ("model", "Qwen/Qwen3.5-397B-A17B-FP8", "qwen3.5-397b-a17b"),
    ("model", "deepseek-ai/DeepSeek-V3.1", "deepseek-v3.1"),  # not V3's
    ("model", "Llama 3.1 70B", "llama-3.1-70b"),
]


@pytest.mark.parametrize(("kind", "ref", "expected"), NAMES)
def test_names_people_type_resolve(kind, ref, expected):
    resolve = resolve_model if kind == "model" else resolve_hardware
    assert resolve(ref).id == expected


@pytest.mark.parametrize(
    ("kind", "ref", "near"),
    [
        ("hardware", "a100", ["a100-40gb", "a100-80gb-sxm"]),  # ambiguous: every A100 offered, none chosen
        ("hardware", "h900", ["h200", "h100-sxm"]),
        ("model", "qwen3", ["qwen3-8b", "qwen3-32b"]),
        ("model", "org/llama-9", ["llama-2-7b"]),  # a repository no entry answers to is not read as a file
    ],
)
def test_unknown_names_say_the_nearest_ids(kind, ref, near):
    resolve = resolve_model if kind == "model" else resolve_hardware
    with pytest.raises(CatalogError) as err:
        resolve(ref)
    message = str(err.value)
    assert f"unknown {kind} {ref!r}" in message and "did you mean" in message, message
    for i in near:
        assert i in message, (i, message)
    assert "\n" not in message


def test_an_alias_naming_another_entry_is_refused(tmp_path):
    path = _write(tmp_path, "hw.yaml", {"toy-gpu": GOOD_HW, "other-gpu": _hw(aliases=["Toy GPU"])})
    with pytest.raises(CatalogError) as err:
        load_hardware_catalog(path)
    message = str(err.value)
    assert "hw.yaml" in message and "other-gpu" in message and "aliases" in message and "toy-gpu" in message


def test_every_catalog_alias_names_its_own_entry():
    for catalog, resolve in ((load_hardware_catalog(), resolve_hardware), (load_model_catalog(), resolve_model)):
        for i, entry in catalog.items():
            assert resolve(entry.name).id == i  # every catalog name resolves to its own entry
            for alias in entry.aliases:
                assert resolve(alias).id == i


def test_empty_catalog_is_refused(tmp_path):
    with pytest.raises(CatalogError) as err:
        load_model_catalog(_write(tmp_path, "empty.yaml", ""))
    assert "empty.yaml" in str(err.value)


# --------------------------------------------------------------------------------------------------- config.json

# Minimal but realistic Hugging Face config.json files: the keys the publisher ships, dimensions from
# /work/shared/reference/model_facts.yaml.
HF_CONFIGS: dict[str, tuple[str, dict]] = {
    "llama": (
        "llama-3.1-8b",
        {
            "architectures": ["LlamaForCausalLM"],
            "model_type": "llama",
            "hidden_act": "silu",
            "hidden_size": 4096,
            "intermediate_size": 14336,
            "max_position_embeddings": 131072,
            "num_attention_heads": 32,
            "num_hidden_layers": 32,
            "num_key_value_heads": 8,
            "rms_norm_eps": 1e-05,
            "rope_scaling": {
                "factor": 8.0,
                "low_freq_factor": 1.0,
                "high_freq_factor": 4.0,
                "original_max_position_embeddings": 8192,
                "rope_type": "llama3",
            },
            "rope_theta": 500000.0,
            "tie_word_embeddings": False,
            "torch_dtype": "bfloat16",
            "vocab_size": 128256,
        },
    ),
    "mistral": (
        "mistral-7b-v0.1",
        {
            "architectures": ["MistralForCausalLM"],
            "model_type": "mistral",
            "hidden_act": "silu",
            "hidden_size": 4096,
            "intermediate_size": 14336,
            "max_position_embeddings": 32768,
            "num_attention_heads": 32,
            "num_hidden_layers": 32,
            "num_key_value_heads": 8,
            "rms_norm_eps": 1e-05,
            "rope_theta": 10000.0,
            "sliding_window": 4096,
            "tie_word_embeddings": False,
            "torch_dtype": "bfloat16",
            "vocab_size": 32000,
        },
    ),
    "mixtral": (
        "mixtral-8x7b",
        {
            "architectures": ["MixtralForCausalLM"],
            "model_type": "mixtral",
            "hidden_act": "silu",
            "hidden_size": 4096,
            "intermediate_size": 14336,
            "max_position_embeddings": 32768,
            "num_attention_heads": 32,
            "num_experts_per_tok": 2,
            "num_hidden_layers": 32,
            "num_key_value_heads": 8,
            "num_local_experts": 8,
            "rms_norm_eps": 1e-05,
            "rope_theta": 1e6,
            "sliding_window": None,
            "tie_word_embeddings": False,
            "vocab_size": 32000,
        },
    ),
    "qwen2": (
        "qwen2.5-7b",
        {
            "architectures": ["Qwen2ForCausalLM"],
            "model_type": "qwen2",
            "hidden_act": "silu",
            "hidden_size": 3584,
            "intermediate_size": 18944,
            "max_position_embeddings": 131072,
            "max_window_layers": 28,
            "num_attention_heads": 28,
            "num_hidden_layers": 28,
            "num_key_value_heads": 4,
            "rope_theta": 1000000.0,
            "sliding_window": 131072,
            "tie_word_embeddings": False,
            "use_sliding_window": False,
            "vocab_size": 152064,
        },
    ),
    "qwen3": (
        "qwen3-32b",
        {
            "architectures": ["Qwen3ForCausalLM"],
            "model_type": "qwen3",
            "head_dim": 128,
            "hidden_act": "silu",
            "hidden_size": 5120,
            "intermediate_size": 25600,
            "max_position_embeddings": 40960,
            "max_window_layers": 64,
            "num_attention_heads": 64,
            "num_hidden_layers": 64,
            "num_key_value_heads": 8,
            "rope_theta": 1000000,
            "sliding_window": None,
            "tie_word_embeddings": False,
            "use_sliding_window": False,
            "vocab_size": 151936,
        },
    ),
    "qwen3_moe": (
        "qwen3-235b-a22b",
        {
            "architectures": ["Qwen3MoeForCausalLM"],
            "model_type": "qwen3_moe",
            "decoder_sparse_step": 1,
            "head_dim": 128,
            "hidden_act": "silu",
            "hidden_size": 4096,
            "intermediate_size": 12288,
            "max_position_embeddings": 40960,
            "max_window_layers": 94,
            "mlp_only_layers": [],
            "moe_intermediate_size": 1536,
            "norm_topk_prob": True,
            "num_attention_heads": 64,
            "num_experts": 128,
            "num_experts_per_tok": 8,
            "num_hidden_layers": 94,
            "num_key_value_heads": 4,
            "sliding_window": None,
            "tie_word_embeddings": False,
            "use_sliding_window": False,
            "vocab_size": 151936,
        },
    ),
    "qwen3_next": (
        "qwen3-next-80b-a3b",
        {
            "architectures": ["Qwen3NextForCausalLM"],
            "model_type": "qwen3_next",
            "decoder_sparse_step": 1,
            "full_attention_interval": 4,
            "head_dim": 256,
            "hidden_act": "silu",
            "hidden_size": 2048,
            "intermediate_size": 5120,
            "linear_conv_kernel_dim": 4,
            "linear_key_head_dim": 128,
            "linear_num_key_heads": 16,
            "linear_num_value_heads": 32,
            "linear_value_head_dim": 128,
            "max_position_embeddings": 262144,
            "mlp_only_layers": [],
            "moe_intermediate_size": 512,
            "norm_topk_prob": True,
            "num_attention_heads": 16,
            "num_experts": 512,
            "num_experts_per_tok": 10,
            "num_hidden_layers": 48,
            "num_key_value_heads": 2,
            "partial_rotary_factor": 0.25,
            "shared_expert_intermediate_size": 512,
            "tie_word_embeddings": False,
            "use_sliding_window": False,
            "vocab_size": 151936,
        },
    ),
    "deepseek_v3": (
        "deepseek-v3",
        {
            "architectures": ["DeepseekV3ForCausalLM"],
            "model_type": "deepseek_v3",
            "first_k_dense_replace": 3,
            "hidden_act": "silu",
            "hidden_size": 7168,
            "intermediate_size": 18432,
            "kv_lora_rank": 512,
            "max_position_embeddings": 163840,
            "moe_intermediate_size": 2048,
            "moe_layer_freq": 1,
            "n_group": 8,
            "n_routed_experts": 256,
            "n_shared_experts": 1,
            "num_attention_heads": 128,
            "num_experts_per_tok": 8,
            "num_hidden_layers": 61,
            "num_key_value_heads": 128,
            "num_nextn_predict_layers": 1,
            "q_lora_rank": 1536,
            "qk_nope_head_dim": 128,
            "qk_rope_head_dim": 64,
            "tie_word_embeddings": False,
            "topk_group": 4,
            "v_head_dim": 128,
            "vocab_size": 129280,
        },
    ),
    "gpt_oss": (
        "gpt-oss-120b",
        {
            "architectures": ["GptOssForCausalLM"],
            "model_type": "gpt_oss",
            "attention_bias": True,
            "experts_per_token": 4,
            "head_dim": 64,
            "hidden_act": "silu",
            "hidden_size": 2880,
            "initial_context_length": 4096,
            "intermediate_size": 2880,
            "layer_types": ["sliding_attention", "full_attention"] * 18,
            "max_position_embeddings": 131072,
            "num_attention_heads": 64,
            "num_experts_per_tok": 4,
            "num_hidden_layers": 36,
            "num_key_value_heads": 8,
            "num_local_experts": 128,
            "rope_theta": 150000,
            "sliding_window": 128,
            "swiglu_limit": 7.0,
            "tie_word_embeddings": False,
            "vocab_size": 201088,
        },
    ),
    "gemma2": (
        "gemma-2-27b",
        {
            "architectures": ["Gemma2ForCausalLM"],
            "model_type": "gemma2",
            "attn_logit_softcapping": 50.0,
            "final_logit_softcapping": 30.0,
            "head_dim": 128,
            "hidden_act": "gelu_pytorch_tanh",
            "hidden_activation": "gelu_pytorch_tanh",
            "hidden_size": 4608,
            "intermediate_size": 36864,
            "max_position_embeddings": 8192,
            "num_attention_heads": 32,
            "num_hidden_layers": 46,
            "num_key_value_heads": 16,
            "query_pre_attn_scalar": 144,
            "sliding_window": 4096,
            "vocab_size": 256000,
        },
    ),
    # transformers re-saves a Gemma 3 text config with its defaults written out
    "gemma3": (
        "gemma-3-27b",
        {
            "architectures": ["Gemma3ForConditionalGeneration"],
            "model_type": "gemma3",
            "text_config": {
                "model_type": "gemma3_text",
                "head_dim": 128,
                "hidden_activation": "gelu_pytorch_tanh",
                "hidden_size": 5376,
                "intermediate_size": 21504,
                "max_position_embeddings": 131072,
                "num_attention_heads": 32,
                "num_hidden_layers": 62,
                "num_key_value_heads": 16,
                "query_pre_attn_scalar": 168,
                "rope_scaling": {"factor": 8.0, "rope_type": "linear"},
                "sliding_window": 1024,
                "sliding_window_pattern": 6,
                "vocab_size": 262208,
            },
            "vision_config": {"model_type": "siglip_vision_model", "hidden_size": 1152, "num_hidden_layers": 27},
        },
    ),
    # google/gemma-3-27b-it config.json as published (transformers 4.50): text_config omits the class defaults
    # (vocab_size 262208, max_position_embeddings 131072, sliding_window_pattern 6, tied embeddings)
    "gemma3-as-published": (
        "gemma-3-27b",
        {
            "architectures": ["Gemma3ForConditionalGeneration"],
            "boi_token_index": 255999,
            "eoi_token_index": 256000,
            "eos_token_id": [1, 106],
            "image_token_index": 262144,
            "initializer_range": 0.02,
            "mm_tokens_per_image": 256,
            "model_type": "gemma3",
            "text_config": {
                "head_dim": 128,
                "hidden_size": 5376,
                "intermediate_size": 21504,
                "model_type": "gemma3_text",
                "num_attention_heads": 32,
                "num_hidden_layers": 62,
                "num_key_value_heads": 16,
                "query_pre_attn_scalar": 168,
                "rope_scaling": {"factor": 8.0, "rope_type": "linear"},
                "sliding_window": 1024,
            },
            "torch_dtype": "bfloat16",
            "transformers_version": "4.50.0.dev0",
            "vision_config": {
                "hidden_size": 1152,
                "image_size": 896,
                "intermediate_size": 4304,
                "model_type": "siglip_vision_model",
                "num_attention_heads": 16,
                "num_hidden_layers": 27,
                "patch_size": 14,
                "vision_use_head": False,
            },
        },
    ),
    # ---- models of 2025-26: the keys of each publisher's config.json (data/models.yaml cites each repository)
    "kimi_k2": (
        "kimi-k2",
        {
            "architectures": ["DeepseekV3ForCausalLM"],
            "model_type": "kimi_k2",
            "first_k_dense_replace": 1,
            "hidden_act": "silu",
            "hidden_size": 7168,
            "intermediate_size": 18432,
            "kv_lora_rank": 512,
            "max_position_embeddings": 262144,
            "moe_intermediate_size": 2048,
            "moe_layer_freq": 1,
            "n_group": 1,
            "n_routed_experts": 384,
            "n_shared_experts": 1,
            "num_attention_heads": 64,
            "num_experts_per_tok": 8,
            "num_hidden_layers": 61,
            "num_key_value_heads": 64,
            "num_nextn_predict_layers": 0,
            "q_lora_rank": 1536,
            "qk_nope_head_dim": 128,
            "qk_rope_head_dim": 64,
            "rope_scaling": {"factor": 64.0, "original_max_position_embeddings": 4096, "type": "yarn"},
            "routed_scaling_factor": 2.827,
            "tie_word_embeddings": False,
            "topk_group": 1,
            "v_head_dim": 128,
            "vocab_size": 163840,
        },
    ),
    "deepseek_v32": (
        "deepseek-v3.2",
        {
            "architectures": ["DeepseekV32ForCausalLM"],
            "model_type": "deepseek_v32",
            "first_k_dense_replace": 3,
            "hidden_act": "silu",
            "hidden_size": 7168,
            "index_head_dim": 128,
            "index_n_heads": 64,
            "index_topk": 2048,
            "intermediate_size": 18432,
            "kv_lora_rank": 512,
            "max_position_embeddings": 163840,
            "moe_intermediate_size": 2048,
            "n_routed_experts": 256,
            "n_shared_experts": 1,
            "num_attention_heads": 128,
            "num_experts_per_tok": 8,
            "num_hidden_layers": 61,
            "num_key_value_heads": 128,
            "num_nextn_predict_layers": 1,
            "q_lora_rank": 1536,
            "qk_nope_head_dim": 128,
            "qk_rope_head_dim": 64,
            "tie_word_embeddings": False,
            "v_head_dim": 128,
            "vocab_size": 129280,
        },
    ),
    "deepseek_v4": (
        "deepseek-v4-pro",
        {
            "architectures": ["DeepseekV4ForCausalLM"],
            "model_type": "deepseek_v4",
            "compress_ratios": [128, 128] + [4, 128] * 29 + [4, 0],
            "head_dim": 512,
            "hidden_act": "silu",
            "hidden_size": 7168,
            "hc_mult": 4,
            "index_head_dim": 128,
            "index_n_heads": 64,
            "index_topk": 1024,
            "max_position_embeddings": 1048576,
            "moe_intermediate_size": 3072,
            "n_routed_experts": 384,
            "n_shared_experts": 1,
            "num_attention_heads": 128,
            "num_experts_per_tok": 6,
            "num_hash_layers": 3,
            "num_hidden_layers": 61,
            "num_key_value_heads": 1,
            "num_nextn_predict_layers": 1,
            "o_groups": 16,
            "o_lora_rank": 1024,
            "q_lora_rank": 1536,
            "qk_rope_head_dim": 64,
            "sliding_window": 128,
            "tie_word_embeddings": False,
            "vocab_size": 129280,
        },
    ),
    "llama4-scout": (
        "llama-4-scout",
        {
            "architectures": ["Llama4ForConditionalGeneration"],
            "model_type": "llama4",
            "text_config": {
                "attention_chunk_size": 8192,
                "head_dim": 128,
                "hidden_act": "silu",
                "hidden_size": 5120,
                "interleave_moe_layer_step": 1,
                "intermediate_size": 8192,
                "intermediate_size_mlp": 16384,
                "max_position_embeddings": 10485760,
                "model_type": "llama4_text",
                "num_attention_heads": 40,
                "num_experts_per_tok": 1,
                "num_hidden_layers": 48,
                "num_key_value_heads": 8,
                "num_local_experts": 16,
                "rope_scaling": {"factor": 16.0, "original_max_position_embeddings": 8192, "rope_type": "llama3"},
                "use_qk_norm": True,
                "vocab_size": 202048,
            },
            "vision_config": {"model_type": "llama4_vision_model", "hidden_size": 1408, "num_hidden_layers": 34},
        },
    ),
    "llama4-maverick": (
        "llama-4-maverick",
        {
            "architectures": ["Llama4ForConditionalGeneration"],
            "model_type": "llama4",
            "text_config": {
                "attention_chunk_size": 8192,
                "head_dim": 128,
                "hidden_act": "silu",
                "hidden_size": 5120,
                "interleave_moe_layer_step": 2,
                "intermediate_size": 8192,
                "intermediate_size_mlp": 16384,
                "max_position_embeddings": 1048576,
                "model_type": "llama4_text",
                "num_attention_heads": 40,
                "num_experts_per_tok": 1,
                "num_hidden_layers": 48,
                "num_key_value_heads": 8,
                "num_local_experts": 128,
                "tie_word_embeddings": False,
                "use_qk_norm": False,
                "vocab_size": 202048,
            },
        },
    ),
    "glm4_moe": (
        "glm-4.5",
        {
            "architectures": ["Glm4MoeForCausalLM"],
            "model_type": "glm4_moe",
            "attention_bias": True,
            "first_k_dense_replace": 3,
            "head_dim": 128,
            "hidden_act": "silu",
            "hidden_size": 5120,
            "intermediate_size": 12288,
            "max_position_embeddings": 131072,
            "moe_intermediate_size": 1536,
            "n_routed_experts": 160,
            "n_shared_experts": 1,
            "num_attention_heads": 96,
            "num_experts_per_tok": 8,
            "num_hidden_layers": 92,
            "num_key_value_heads": 8,
            "num_nextn_predict_layers": 1,
            "partial_rotary_factor": 0.5,
            "tie_word_embeddings": False,
            "use_qk_norm": True,
            "vocab_size": 151552,
        },
    ),
    "qwen3_moe-coder": (
        "qwen3-coder-480b-a35b",
        {
            "architectures": ["Qwen3MoeForCausalLM"],
            "model_type": "qwen3_moe",
            "decoder_sparse_step": 1,
            "head_dim": 128,
            "hidden_act": "silu",
            "hidden_size": 6144,
            "intermediate_size": 8192,
            "max_position_embeddings": 262144,
            "moe_intermediate_size": 2560,
            "num_attention_heads": 96,
            "num_experts": 160,
            "num_experts_per_tok": 8,
            "num_hidden_layers": 62,
            "num_key_value_heads": 8,
            "tie_word_embeddings": False,
            "vocab_size": 151936,
        },
    ),
    "qwen3_5_moe": (
        "qwen3.5-397b-a17b",
        {
            "architectures": ["Qwen3_5MoeForConditionalGeneration"],
            "model_type": "qwen3_5_moe",
            "text_config": {
                "attn_output_gate": True,
                "full_attention_interval": 4,
                "head_dim": 256,
                "hidden_act": "silu",
                "hidden_size": 4096,
                "layer_types": (["linear_attention"] * 3 + ["full_attention"]) * 15,
                "linear_conv_kernel_dim": 4,
                "linear_key_head_dim": 128,
                "linear_num_key_heads": 16,
                "linear_num_value_heads": 64,
                "linear_value_head_dim": 128,
                "max_position_embeddings": 262144,
                "model_type": "qwen3_5_moe_text",
                "mtp_num_hidden_layers": 1,
                "moe_intermediate_size": 1024,
                "num_attention_heads": 32,
                "num_experts": 512,
                "num_experts_per_tok": 10,
                "num_hidden_layers": 60,
                "num_key_value_heads": 2,
                "shared_expert_intermediate_size": 1024,
                "tie_word_embeddings": False,
                "vocab_size": 248320,
            },
            "vision_config": {"model_type": "qwen3_5_moe", "depth": 27},
        },
    ),
    "minimax_m2": (
        "minimax-m2",
        {
            "architectures": ["MiniMaxM2ForCausalLM"],
            "model_type": "minimax_m2",
            "head_dim": 128,
            "hidden_act": "silu",
            "hidden_size": 3072,
            "intermediate_size": 1536,
            "max_position_embeddings": 196608,
            "num_attention_heads": 48,
            "num_experts_per_tok": 8,
            "num_hidden_layers": 62,
            "num_key_value_heads": 8,
            "num_local_experts": 256,
            "num_mtp_modules": 3,
            "qk_norm_type": "per_layer",
            "rotary_dim": 64,
            "scoring_func": "sigmoid",
            "tie_word_embeddings": False,
            "use_qk_norm": True,
            "vocab_size": 200064,
        },
    ),
}


@pytest.mark.parametrize("config_kind", list(HF_CONFIGS))
def test_hf_config_matches_catalog_entry(config_kind):
    catalog_id, cfg = HF_CONFIGS[config_kind]
    parsed = model_from_text(json.dumps(cfg, indent=2), "config.json", model_id=f"hf-{config_kind}")
    expected = resolve_model(catalog_id)
    assert total_params(parsed) == pytest.approx(total_params(expected), rel=0.01)
    assert kv_bytes_per_token(parsed, 2.0) == pytest.approx(kv_bytes_per_token(expected, 2.0), rel=0.01)
    tokens = np.array([1.0, 4_096.0, 100_000.0])
    assert kv_cache_bytes_per_sequence(parsed, tokens, 2.0) == pytest.approx(
        kv_cache_bytes_per_sequence(expected, tokens, 2.0), rel=0.01
    )
    # architecture features carried over
    assert parsed.kind == expected.kind
    assert parsed.num_layers == expected.num_layers
    assert parsed.tied_embeddings == expected.tied_embeddings
    assert parsed.mlp == expected.mlp
    assert parsed.max_context_tokens == expected.max_context_tokens
    assert parsed.num_window_layers == expected.num_window_layers
    assert parsed.num_linear_layers == expected.num_linear_layers
    assert (parsed.moe is None) == (expected.moe is None)
    if parsed.moe:
        assert parsed.moe == expected.moe
    assert parsed.sparse_attention == expected.sparse_attention
    assert parsed.compressed_attention == expected.compressed_attention
    assert parsed.qk_norm == expected.qk_norm
    assert parsed.attention_output_gate == expected.attention_output_gate
    if any(k in json.dumps(cfg) for k in ("num_nextn_predict_layers", "mtp_num_hidden_layers", "num_mtp_modules")):
        assert parsed.mtp_modules == expected.mtp_modules  # the MTP modules where the config says (Qwen3-Next's: not)
    if expected.sliding_window and expected.sliding_window.chunked:  # Llama 4's chunked local attention, exactly
        assert parsed.sliding_window == expected.sliding_window


def test_hf_config_unsupported_model_type_names_the_field():
    with pytest.raises(CatalogError) as err:
        model_from_text(json.dumps({"model_type": "mamba", "hidden_size": 64}), "config.json")
    assert "config.json" in str(err.value) and "model_type" in str(err.value) and "mamba" in str(err.value)


@pytest.mark.parametrize(
    "kind, extra, want",
    [
        ("llama", {}, 0),  # Llama ships none
        ("deepseek_v3", {}, 1),  # num_nextn_predict_layers 1
        ("kimi_k2", {}, 0),  # num_nextn_predict_layers 0
        ("qwen3_5_moe", {}, 1),  # mtp_num_hidden_layers 1 (in text_config)
        ("minimax_m2", {}, 3),  # num_mtp_modules 3
        ("minimax_m2", {"use_mtp": False}, 0),  # modules listed but switched off
        ("minimax_m2", {"use_mtp": "false"}, 0),  # as text, or 0 (helper review: both had left MTP on)
        ("minimax_m2", {"use_mtp": 0}, 0),
        ("llama", {"num_nextn_predict_layers": 2}, 2),
        ("llama", {"num_nextn_predict_layers": 0, "mtp_num_hidden_layers": 1}, 1),  # two names: the one that has it
    ],
)
def test_hf_config_reads_the_mtp_modules_under_each_name(kind, extra, want):
    _, cfg = HF_CONFIGS[kind]
    parsed = model_from_text(json.dumps({**cfg, **extra}), "config.json", model_id="hf")
    assert parsed.mtp_modules == want


def test_mtp_modules_must_be_a_whole_number_and_name_the_field():
    entry = _raw("models.yaml")["llama-3.1-8b"]
    for bad in (-1, 1.5, "one", 17, 10**9):
        with pytest.raises(CatalogError, match="field 'mtp_modules'"):
            model_from_dict("m", {**entry, "mtp_modules": bad}, "models.yaml")
    assert model_from_dict("m", {**entry, "mtp_modules": 16}, "models.yaml").mtp_modules == 16


def test_hf_config_missing_field_names_it():
    _, cfg = HF_CONFIGS["llama"]
    cfg = {k: v for k, v in cfg.items() if k != "num_hidden_layers"}
    with pytest.raises(CatalogError) as err:
        model_from_text(json.dumps(cfg), "config.json")
    assert str(err.value).endswith("config.json: field 'num_hidden_layers' is missing (a llama config.json needs it)")


@pytest.mark.parametrize(
    ("ratios", "rates"),
    [([4, 7, 128], None), ([4, 128], None), ("4,128", None), ([4, 128, 4], {"compressed_sparse_attention": "four"})],
    ids=["unknown-ratio", "too-short", "not-a-list", "bad-rate"],
)
def test_hf_config_deepseek_v4_bad_compression_names_the_field(ratios, rates):
    """A DeepSeek-V4 config.json whose compress_ratios (or compress_rates) cannot be read: one clear error naming the
    file and the field, never a traceback."""
    _, cfg = HF_CONFIGS["deepseek_v4"]
    cfg = {**cfg, "num_hidden_layers": 3, "compress_ratios": ratios}
    if rates is not None:
        cfg["compress_rates"] = rates
    with pytest.raises(CatalogError) as err:
        model_from_text(json.dumps(cfg), "config.json")
    assert "config.json" in str(err.value) and "compress_rat" in str(err.value), str(err.value)


# --------------------------------------------------------------------------------------------------- systems (issue 18)

NEW_SYSTEM_IDS = ("vr200", "mi455x", "tpu-8i", "tpu-8t", "trainium3", "rtx-pro-6000", "gb10", "m5-max",
                  "rtx-pro-4500", "h200-nvl", "mi350x", "arc-pro-b50", "arc-pro-b60", "arc-pro-b70")  # fmt: skip


@pytest.mark.parametrize("hw_id", NEW_SYSTEM_IDS)
def test_new_chips_are_in_the_catalog_with_sources(hw_id):
    hw = load_hardware_catalog()[hw_id]
    assert hw.source and hw.notes


def test_system_fields_in_si():
    c = load_hardware_catalog()
    gb200, b200, gb300 = c["gb200"], c["b200"], c["gb300"]
    assert (gb200.scale_up_domain_gpus, b200.scale_up_domain_gpus, gb300.scale_up_domain_gpus) == (72, 8, 72)
    assert gb200.scale_out_bytes_per_s == pytest.approx(400e9 / 8)  # one 400 Gb/s ConnectX-7 per GPU = 50 GB/s
    assert gb300.scale_out_bytes_per_s == pytest.approx(100e9)  # ConnectX-8, 800 Gb/s
    assert gb200.memory_reported_bytes == pytest.approx(185.0 * 2**30)  # nvidia-smi 185.0 GiB = 198.6 GB
    assert gb200.scale_up_bytes_per_s == gb200.interconnect_bytes_per_s == pytest.approx(900e9)
    assert c["vr200"].announced and c["mi455x"].announced and not c["b200"].announced


def test_interconnect_key_is_still_read_and_not_both(tmp_path):
    entry = {"name": "X", "memory_GB": 10, "memory_bandwidth_TB_per_s": 1, "dense_TFLOP_per_s": {"bf16": 100}}
    old = hardware_from_text(yaml.safe_dump({"x": {**entry, "interconnect_GB_per_s": 50}}), "old.yaml")
    new = hardware_from_text(yaml.safe_dump({"x": {**entry, "scale_up_GB_per_s": 50}}), "new.yaml")
    assert old.interconnect_bytes_per_s == new.interconnect_bytes_per_s == pytest.approx(50e9)
    with pytest.raises(CatalogError, match="not both"):
        hardware_from_text(
            yaml.safe_dump({"x": {**entry, "interconnect_GB_per_s": 50, "scale_up_GB_per_s": 60}}), "both.yaml"
        )
    with pytest.raises(CatalogError, match="scale_up_domain_gpus"):
        hardware_from_text(yaml.safe_dump({"x": {**entry, "scale_up_domain_gpus": 0}}), "zero.yaml")
    with pytest.raises(CatalogError, match="rack_gpus"):
        hardware_from_text(yaml.safe_dump({"x": {**entry, "rack_gpus": 0}}), "zero.yaml")


def test_a_rack_is_the_domain_unless_the_domain_spans_racks():
    """Accelerators per physical rack: a TPU pod spans racks of 64 chips (Ironwood: 16 trays of 4; v5p: a 4x4x4
    cube); an NVL72 rack is its domain; an HGX server (8) stands for itself; unlisted: one server of 8."""
    c = load_hardware_catalog()
    assert c["tpu7x"].scale_up_domain_gpus == 9216 and gpus_per_rack(c["tpu7x"]) == 64
    assert gpus_per_rack(c["tpu-v5p"]) == gpus_per_rack(c["tpu-v4"]) == 64
    assert [gpus_per_rack(c[h]) for h in ("gb200", "gb300", "b200", "mi355x", "l40s")] == [72, 72, 8, 8, 8]


# --------------------------------------------------------------------------------------------------- per-figure sources


RACK_SCALE_IDS = ("h100-sxm", "h200", "b200", "gb200", "b300", "gb300", "mi300x", "mi325x", "mi355x")


@pytest.mark.parametrize("hw_id", NEW_SYSTEM_IDS + RACK_SCALE_IDS)
def test_new_chips_cite_every_figure(hw_id):
    """Issue 18: every new catalog entry has sources per field: each figure it gives (memory, bandwidth, every dense
    rate, TDP, the system fields, launch year) is stated by a source line that names it, or says how it was derived;
    every cited line is one of the entry's sources. So do the chips of the rack-scale comparison."""
    from tpot_model.catalog import hardware_figures

    hw = load_hardware_catalog()[hw_id]
    figures = hardware_figures(hw)
    assert {"memory_GB", "memory_bandwidth_TB_per_s", "launch_year"} <= set(figures)
    assert [f for f in figures if f not in hw.field_sources and f not in hw.derived] == []
    cited = {c for cites in hw.field_sources.values() for c in cites}
    assert cited <= set(hw.source) | set(hw.system_source)


def test_per_figure_sources_read_back_in_datasheet_units():
    from tpot_model.catalog import figure_value

    hw = load_hardware_catalog()["vr200"]
    assert figure_value(hw, "memory_GB") == (pytest.approx(288.0), "GB") and figure_value(hw, "tdp_W") == (2300.0, "W")
    assert figure_value(hw, "dense_TFLOP_per_s.fp4") == (pytest.approx(50000.0), "TFLOP/s")
    assert figure_value(hw, "scale_up_GB_per_s") == (pytest.approx(1800.0), "GB/s")
    assert hw.derived["dense_TFLOP_per_s.bf16"].startswith("FP8 / 2")
    assert any("silicontales" in c for c in hw.field_sources["memory_bandwidth_TB_per_s"])


_CITED = {
    "cite": "https://example.com/datasheet",
    "fields": ["memory_GB", "memory_bandwidth_TB_per_s", "dense_TFLOP_per_s"],
}


def test_a_cited_entry_loads_with_its_figures(tmp_path):
    entry = _hw(source=[_CITED, "https://example.com/other"], derived={"tdp_W": "ESTIMATE: board power"},
                estimated=["tdp_W"], interconnect_GB_per_s=450, system_source=[{"cite": "NVLink page", "fields": ["interconnect_GB_per_s"]}])  # fmt: skip
    hw = load_hardware_catalog(_write(tmp_path, "hw.yaml", {"toy-gpu": entry}))["toy-gpu"]
    assert hw.source == ("https://example.com/datasheet", "https://example.com/other")
    assert hw.field_sources == {
        "memory_GB": ("https://example.com/datasheet",),
        "memory_bandwidth_TB_per_s": ("https://example.com/datasheet",),
        "dense_TFLOP_per_s.bf16": ("https://example.com/datasheet",),
        "scale_up_GB_per_s": ("NVLink page",),  # the older YAML name read as the one figure it is
    }
    assert hw.derived == {"tdp_W": "ESTIMATE: board power"} and hw.estimated("tdp_W")


BAD_CITES = [
    pytest.param(_hw(source=[_CITED]), "tdp_W", id="figure-left-uncited"),
    pytest.param(_hw(source=[{**_CITED, "fields": ["memory_GB", "clock_MHz"]}]), "clock_MHz", id="unknown-figure"),
    pytest.param(
        _hw(source=[{**_CITED, "fields": ["scale_out_Gbit_per_s"]}]), "scale_out_Gbit_per_s", id="figure-not-given"
    ),  # fmt: skip
    pytest.param(_hw(source=[{"cite": "x"}]), "fields", id="cite-without-fields"),
    pytest.param(_hw(source=[{**_CITED, "fields": []}]), "fields", id="empty-fields"),
    pytest.param(_hw(source=[_CITED], derived={"tdp_W": ""}), "derived", id="empty-derivation"),
    pytest.param(_hw(source=[_CITED], derived={"tdp_W": "x", "memory_type": "y"}), "memory_type", id="derived-unknown"),
]


@pytest.mark.parametrize(("entry", "key"), BAD_CITES)
def test_bad_per_figure_sources_name_the_figure(entry, key):
    with pytest.raises(CatalogError) as err:
        hardware_from_text(yaml.safe_dump({"toy-gpu": entry}), "my_gpu.yaml")
    message = str(err.value)
    assert "my_gpu.yaml" in message and "toy-gpu" in message and key in message, message


ESTIMATED_TDP = ("tpu-v4", "tpu-v5e", "tpu-v5p", "tpu-v6e", "tpu7x", "trainium2", "inferentia2", "trainium3",
                 "m2-ultra", "m3-max", "m4-max", "m5-max")  # fmt: skip


def test_estimated_figures_are_data_and_agree_with_the_notes():
    """The TPUs', Trainium / Inferentia's and Apple's board power is not published: their notes said "tdp_W ESTIMATE"
    (Trainium3's and M5 Max's `derived` too) and the app showed it as a datasheet figure. Each lists it in
    `estimated`, and no other entry does; every entry whose notes or derived text call a figure an ESTIMATE lists it
    (Apple's TFLOP/s too), the notes kept."""
    catalog = load_hardware_catalog()
    assert sorted(h for h, hw in catalog.items() if hw.estimated("tdp_W")) == sorted(ESTIMATED_TDP)
    for hw in catalog.values():
        said = "tdp_W ESTIMATE" in hw.notes or hw.derived.get("tdp_W", "").startswith("ESTIMATE")
        assert said == hw.estimated("tdp_W"), hw.id
        assert set(hw.estimated_figures) <= set(hardware_figures(hw)), hw.id
    assert catalog["m5-max"].estimated_figures == ("dense_TFLOP_per_s.fp16", "tdp_W")
    assert catalog["m4-max"].estimated("dense_TFLOP_per_s.fp32") and not catalog["h200"].estimated_figures
    assert "tdp_W ESTIMATE" in catalog["tpu7x"].notes  # the notes say how it was estimated


BAD_ESTIMATED = [
    pytest.param("tdp_W", "must be a list of figure names, e.g. [tdp_W], got 'tdp_W'", id="not-a-list"),
    pytest.param({"tdp_W": True}, "must be a list of figure names", id="a-mapping"),
    pytest.param([1], "must be a list of figure names", id="not-text"),
    pytest.param(["tdp"], "estimated: 'tdp' is not a figure of this entry (it has: memory_GB", id="unknown-figure"),
    pytest.param(["dense_TFLOP_per_s.fp4"], "'dense_TFLOP_per_s.fp4' is not a figure", id="rate-not-given"),
    pytest.param(["scale_out_Gbit_per_s"], "'scale_out_Gbit_per_s' is not a figure", id="figure-not-given"),
]


@pytest.mark.parametrize(("value", "message"), BAD_ESTIMATED)
def test_a_bad_estimated_list_is_refused_with_a_message_in_the_cli_and_the_upload(capsys, tmp_path, value, message):
    """A hardware file's `estimated` is validated as the other fields are: the CLI refuses it in one line, the web
    upload lists the problem (never a traceback)."""
    from tpot_model import cli
    from ui import uploads

    path = _write(tmp_path, "my_gpu.yaml", _hw(estimated=value))
    assert cli.main(["estimate", "--model", "llama-3.1-8b", "--hardware", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err
    obj, problems, _ = uploads.read_upload("hardware", path.read_bytes(), "my_gpu.yaml")
    assert obj is None and len(problems) == 1 and message in problems[0] and "my_gpu.yaml" in problems[0], problems


def test_an_estimate_in_derived_must_be_listed_and_plain_dense_tflops_names_every_rate():
    derived = {"tdp_W": "ESTIMATE: ~1 kW from a news site"}
    with pytest.raises(CatalogError, match="derived: 'tdp_W' is an ESTIMATE: list it in 'estimated' too"):
        hardware_from_text(yaml.safe_dump({"toy-gpu": _hw(source=[_CITED], derived=derived)}), "my_gpu.yaml")
    rates = {"bf16": 100, "fp8": 200}
    hw = hardware_from_text(yaml.safe_dump({"toy-gpu": _hw(dense_TFLOP_per_s=rates, estimated=["dense_TFLOP_per_s"])}),
                            "my_gpu.yaml")  # fmt: skip
    assert hw.estimated_figures == ("dense_TFLOP_per_s.bf16", "dense_TFLOP_per_s.fp8") and not hw.estimated("tdp_W")


def test_architecture_twins_share_measurements_only_when_the_shapes_match():
    """DeepSeek-V3 and V3.1 have R1's shapes: R1's runs stand for them. V3.2 (DSA on top), V4-Pro and Kimi K2 differ
    in shape: nothing stands for them but their own runs."""
    from tpot_model.catalog import architecture_twin

    measured = ["deepseek-r1"]
    assert architecture_twin("deepseek-v3", measured) == "deepseek-r1"
    assert architecture_twin("deepseek-v3.1", measured) == "deepseek-r1"
    for own in ("deepseek-v3.2", "deepseek-v4-pro", "kimi-k2", "not-in-the-catalog"):
        assert architecture_twin(own, measured) == own
    assert architecture_twin("deepseek-v3", ["deepseek-v3", "deepseek-r1"]) == "deepseek-v3"  # its own runs first


def test_past_window_is_the_one_test_of_a_run_beyond_the_context_window():
    """Llama 3.1 70B's window is 131,072 tokens: a 131,000-token prompt with 72 output tokens fills it exactly, with
    73 it runs one past; the CLI's note (cli_text.window_note) and the pages' warning ask this one test."""
    from tpot_model.cli_text import window_note

    m = resolve_model("llama-3.1-70b")
    assert m.max_context_tokens == 131_072
    assert m.past_window(131_000, 72) is None and m.past_window(131_000.0, 73) == 131_073
    assert window_note(m.name, m.max_context_tokens, 131_000, 72) is None
    assert window_note(m.name, m.max_context_tokens, 131_000, 73).startswith(
        "context + output = 131,073 tokens, beyond Llama 3.1 70B's 131,072-token window"
    )


# --------------------------------------------------------------------------------------------------- user's files

UPLOAD_HW = "name: Lab GPU\nmemory_GB: 80\nmemory_bandwidth_TB_per_s: 3\ndense_TFLOP_per_s: {bf16: 1000}\n"


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("scale_up_GB_per_s: -100", "field 'scale_up_GB_per_s' must be positive, got -100"),
        ("scale_out_Gbit_per_s: -1", "field 'scale_out_Gbit_per_s' must be positive, got -1"),
        ("scale_up_latency_us: -1", "field 'scale_up_latency_us' must be positive, got -1"),
        ("memory_reported_GiB: -1", "field 'memory_reported_GiB' must be positive, got -1"),
        ("memory_reported_GiB: 0", "field 'memory_reported_GiB' must be positive, got 0"),
        ("tdp_W: 0", "field 'tdp_W' must be positive, got 0"),
    ],
)
def test_a_hardware_files_errors_quote_its_own_number_and_name_no_entry_it_lacks(line, said):
    """A review: the errors quoted the SI value ('got -100000000000.0', 'got -1e-06'), gave a MiB hint for -1, and
    named an entry 'custom' the file does not have."""
    from tpot_model.catalog import entry_problems

    obj, problems = entry_problems("hardware", UPLOAD_HW + line + "\n", "lab.yaml")
    assert obj is None and problems == [f"lab.yaml: {said}"], problems
    named = "lab-gpu:\n" + "".join(f"  {x}\n" for x in (UPLOAD_HW + line).splitlines())
    obj, problems = entry_problems("hardware", named, "lab.yaml")
    assert problems == [f"lab.yaml: entry 'lab-gpu': {said}"], problems  # an entry the file names is named


def test_every_field_problem_of_a_hardware_file_is_said_at_once():
    """A review: memory_GB 0 was said only once the NaN bandwidth and the text rate were fixed."""
    from tpot_model.catalog import entry_problems

    text = "name: X\nmemory_GB: 0\nmemory_bandwidth_TB_per_s: .nan\ndense_TFLOP_per_s: {bf16: 1e400}\n"
    obj, problems = entry_problems("hardware", text, "x.yaml")
    assert obj is None and len(problems) == 3, problems
    for key in ("'memory_GB' must be positive, got 0", "memory_bandwidth_TB_per_s", "bf16"):
        assert any(key in p for p in problems), (key, problems)
    with pytest.raises(CatalogError) as err:  # the CLI's one line holds them all, the file named once
        hardware_from_text(text, "x.yaml")
    assert str(err.value).count("x.yaml") == 1 and "\n" not in str(err.value)
    assert all(p.removeprefix("x.yaml: ") in str(err.value) for p in problems)
    # rates missing, or not a mapping: said once, not again as 'must list bf16 or fp16' (a review)
    for rates in ("", "dense_TFLOP_per_s: 100\n"):
        _, problems = entry_problems(
            "hardware", f"name: X\nmemory_GB: 80\nmemory_bandwidth_TB_per_s: 3\n{rates}", "x.yaml"
        )
        assert len(problems) == 1 and "dense_TFLOP_per_s" in problems[0] and "bf16" not in problems[0], problems


def test_a_file_of_the_other_kind_is_said_to_be_one():
    """A review: a hardware file uploaded as a model listed 13 missing fields, a config.json uploaded as hardware 15."""
    from tpot_model.catalog import entry_problems

    obj, problems = entry_problems("model", UPLOAD_HW, "chip.yaml")
    assert obj is None and len(problems) == 1 and "chip.yaml: this looks like a hardware file" in problems[0]
    config = json.dumps({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096})
    obj, problems = entry_problems("hardware", config, "config.json")
    assert obj is None and len(problems) == 1 and "config.json: this looks like a model file" in problems[0]
    obj, problems = entry_problems("hardware", yaml.safe_dump({"toy-model": GOOD_MODEL}), "toy.yaml")
    assert obj is None and len(problems) == 1 and "this looks like a model file" in problems[0]


def test_a_config_json_says_every_missing_field_at_once_and_a_missing_model_type_in_a_line():
    """A review: only the first missing field was said (an upload per field), and a config.json without model_type
    got ~19 errors about data/models.yaml's format."""
    from tpot_model.catalog import entry_problems

    obj, problems = entry_problems("model", json.dumps({"model_type": "llama", "vocab_size": 32000}), "config.json")
    assert obj is None and len(problems) == 1, problems
    for key in ("hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size"):
        assert repr(key) in problems[0], (key, problems)
    assert "are missing (a llama config.json needs them)" in problems[0]
    no_type = {"architectures": ["LlamaForCausalLM"], "hidden_size": 4096, "num_hidden_layers": 32,
               "num_attention_heads": 32, "intermediate_size": 11008, "vocab_size": 32000}  # fmt: skip
    for cfg in (no_type, {k: v for k, v in no_type.items() if k != "architectures"}):
        obj, problems = entry_problems("model", json.dumps(cfg), "config.json")
        assert obj is None and len(problems) == 1 and "field 'model_type' is missing" in problems[0], problems


def test_a_config_json_without_a_window_says_it_was_assumed_and_is_named_from_the_file():
    """A review: no max_position_embeddings gave 4,096 tokens silently, and the model was called 'custom'."""
    cfg = {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
           "intermediate_size": 11008, "vocab_size": 32000}  # fmt: skip
    m = model_from_text(json.dumps(cfg), "my-llama.json")
    assert m.id == "custom" and m.name == "my-llama" and m.context_window_assumed and m.max_context_tokens == 4096
    m = model_from_text(json.dumps(cfg | {"architectures": ["LlamaForCausalLM"]}), "config.json")
    assert m.name == "LlamaForCausalLM"
    m = model_from_text(json.dumps(cfg | {"max_position_embeddings": 8192}), "config.json", model_id="llama-x")
    assert m.name == "llama-x" and not m.context_window_assumed
    assert replace(m, context_window_assumed=True).architecture == m.architecture  # the flag is not the shape
