"""Hugging Face config.json -> the project's model entry (the format of data/models.yaml), which catalog validates
into a ModelSpec: the attention, MoE, MLA, sliding-window and linear-attention structure read from the keys each
architecture's config class uses, with transformers' defaults where a config leaves them out."""

from __future__ import annotations

import math
from typing import Any

from .files import CatalogError, integer_field


def is_hf_config(data: Any) -> bool:
    """A parsed file that is a Hugging Face config.json (it names a model_type, or wraps one in text_config)."""
    return isinstance(data, dict) and ("model_type" in data or "text_config" in data)


def _moe(num_experts, experts_per_token, expert_d_ff, num_shared_experts=0, shared_expert_d_ff=0, num_dense_layers=0):
    return dict(num_experts=num_experts, experts_per_token=experts_per_token, expert_d_ff=expert_d_ff,
                num_shared_experts=num_shared_experts, shared_expert_d_ff=shared_expert_d_ff,
                num_dense_layers=num_dense_layers)  # fmt: skip


# Values transformers fills in when a config.json leaves them out (its config classes' defaults).
_HF_DEFAULTS = {
    "gemma3": {"vocab_size": 262208, "head_dim": 256, "max_position_embeddings": 131072, "sliding_window": 4096,
               "sliding_window_pattern": 6, "tie_word_embeddings": True, "hidden_activation": "gelu_pytorch_tanh"},
    "gemma3_text": {"vocab_size": 262208, "head_dim": 256, "max_position_embeddings": 131072, "sliding_window": 4096,
                    "sliding_window_pattern": 6, "tie_word_embeddings": True,
                    "hidden_activation": "gelu_pytorch_tanh"},
    "gemma2": {"vocab_size": 256000, "head_dim": 256, "max_position_embeddings": 8192, "sliding_window": 4096,
               "tie_word_embeddings": True},
}  # fmt: skip


def model_entry_from_hf_config(model_id: str, cfg: Any, where: str) -> dict[str, Any]:
    """The project's model entry (catalog.model_from_dict's format) for a Hugging Face config.json (llama, mistral,
    mixtral, qwen2/3, qwen3_moe, qwen3_next, deepseek_v3, gpt_oss, gemma2, gemma3); catalog validates it."""
    if not isinstance(cfg, dict):
        raise CatalogError(f"{where}: " + "a config.json must be a JSON object")
    if isinstance(cfg.get("text_config"), dict):  # gemma3 / multimodal wrappers keep the LM in text_config
        cfg = {**cfg["text_config"], "model_type": cfg["text_config"].get("model_type", cfg.get("model_type"))}
    model_type = str(cfg.get("model_type", "")).lower()
    cfg = {**_HF_DEFAULTS.get(model_type, {}), **{k: v for k, v in cfg.items() if v is not None}}
    supported = (
        "llama",
        "mistral",
        "mixtral",
        "qwen2",
        "qwen3",
        "qwen3_moe",
        "qwen3_next",
        "deepseek_v3",
        "deepseek_v2",
        "gpt_oss",
        "gemma",
        "gemma2",
        "gemma3",
        "gemma3_text",
        "phi3",
    )
    if model_type not in supported:
        raise CatalogError(
            f"{where}: " + f"field 'model_type': {model_type!r} is not supported (supported: {', '.join(supported)})"
        )

    def need(key: str) -> int:
        return integer_field(where, cfg, key)

    def iopt(key: str, default: int) -> int:
        return integer_field(where, cfg, key) if cfg.get(key) is not None else default

    def opt(key: str, default: Any) -> Any:
        return cfg.get(key) if cfg.get(key) is not None else default

    num_layers = need("num_hidden_layers")
    d_model = need("hidden_size")
    num_heads = need("num_attention_heads")
    num_kv_heads = iopt("num_key_value_heads", num_heads)
    if num_heads < 1 or num_layers < 1 or d_model < 1:
        raise CatalogError(
            f"{where}: " + "fields 'num_hidden_layers', 'hidden_size' and 'num_attention_heads' must be positive"
        )
    head_dim = iopt("head_dim", d_model // num_heads)
    vocab = need("vocab_size")
    moe = mla = window = linear = None
    d_ff = iopt("intermediate_size", 0)
    gate = False
    if model_type == "mixtral":
        moe = _moe(need("num_local_experts"), need("num_experts_per_tok"), d_ff)
    elif model_type in ("qwen3_moe", "qwen3_next"):
        shared_ff = iopt("shared_expert_intermediate_size", 0)
        moe = _moe(
            need("num_experts"),
            need("num_experts_per_tok"),
            need("moe_intermediate_size"),
            1 if shared_ff else 0,
            shared_ff,
            0,
        )
    elif model_type in ("deepseek_v3", "deepseek_v2"):
        n_shared = iopt("n_shared_experts", 0)
        expert_ff = need("moe_intermediate_size")
        moe = _moe(
            need("n_routed_experts"),
            need("num_experts_per_tok"),
            expert_ff,
            n_shared,
            expert_ff if n_shared else 0,
            iopt("first_k_dense_replace", 0),
        )
        mla = dict(
            q_lora_rank=iopt("q_lora_rank", 0),
            kv_lora_rank=need("kv_lora_rank"),
            qk_nope_head_dim=need("qk_nope_head_dim"),
            qk_rope_head_dim=need("qk_rope_head_dim"),
            v_head_dim=need("v_head_dim"),
        )
        head_dim = mla["qk_nope_head_dim"] + mla["qk_rope_head_dim"]
        num_kv_heads = num_heads
    elif model_type == "gpt_oss":
        moe = _moe(need("num_local_experts"), need("num_experts_per_tok"), d_ff)
    if model_type == "qwen3_next":
        interval = max(iopt("full_attention_interval", 4), 1)
        n_linear = num_layers - num_layers // interval
        linear = dict(
            num_layers=n_linear,
            num_key_heads=need("linear_num_key_heads"),
            key_head_dim=need("linear_key_head_dim"),
            num_value_heads=need("linear_num_value_heads"),
            value_head_dim=need("linear_value_head_dim"),
            conv_kernel=iopt("linear_conv_kernel_dim", 4),
        )
        gate = True
    sw = cfg.get("sliding_window")
    if isinstance(sw, (int, float)) and not isinstance(sw, bool) and math.isfinite(sw) and sw > 0:
        layer_types = cfg.get("layer_types")
        if isinstance(layer_types, list) and layer_types:
            n_window = sum(1 for t in layer_types if t == "sliding_attention")
        elif model_type == "gemma2":
            n_window = num_layers // 2
        elif model_type in ("gemma3", "gemma3_text"):
            pattern = max(iopt("sliding_window_pattern", 6), 1)
            n_window = num_layers - num_layers // pattern
        elif model_type == "mistral" and cfg.get("use_sliding_window", True):
            n_window = num_layers
        elif model_type in ("qwen2", "qwen3", "qwen3_moe") and cfg.get("use_sliding_window"):
            n_window = num_layers - iopt("max_window_layers", 0)
        else:
            n_window = 0
        if 0 < n_window <= num_layers - (linear["num_layers"] if linear else 0):
            window = {"window_tokens": int(sw), "num_layers": n_window}
    act = str(opt("hidden_act", opt("hidden_activation", "silu"))).lower()
    gelu_plain = model_type not in ("gemma", "gemma2", "gemma3", "gemma3_text") and act.startswith("gelu")
    entry = dict(
        name=str(opt("_name_or_path", model_id)) or model_id,
        num_layers=num_layers,
        d_model=d_model,
        num_heads=num_heads,
        num_kv_heads=num_kv_heads,
        head_dim=head_dim,
        d_ff=d_ff,
        vocab_size=vocab,
        tied_embeddings=bool(opt("tie_word_embeddings", model_type.startswith("gemma"))),
        mlp="gelu" if gelu_plain else "swiglu",
        max_context_tokens=iopt("max_position_embeddings", 4096),
        qk_norm=model_type in ("qwen3", "qwen3_moe", "qwen3_next", "gemma3", "gemma3_text"),
        attention_output_gate=gate,
        moe=moe,
        mla=mla,
        sliding_window=window,
        linear_attention=linear,
        source=where,
    )
    return {k: v for k, v in entry.items() if v is not None}
