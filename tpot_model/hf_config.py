"""Hugging Face config.json -> the project's model entry (the format of data/models.yaml), which catalog validates
into a ModelSpec: the attention, MoE, MLA, sliding-window and linear-attention structure read from the keys each
architecture's config class uses, with transformers' defaults where a config leaves them out."""

from __future__ import annotations

import math
from typing import Any

from .files import CatalogError, integer_field

_HF_KEYS = ("model_type", "text_config", "architectures", "hidden_size", "num_hidden_layers")
ASSUMED_CONTEXT_TOKENS = 4096  # the context window of a config.json without max_position_embeddings


def is_hf_config(data: Any) -> bool:
    """A parsed file that is a Hugging Face config.json (it names a model_type, wraps one in text_config, or has
    keys only a config.json has: one without model_type is then told so)."""
    return isinstance(data, dict) and any(k in data for k in _HF_KEYS)


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
    # transformers' Llama4TextConfig: MoE every interleave_moe_layer_step-th layer, every 4th layer global (NoPE),
    # the others chunked local attention
    "llama4_text": {"interleave_moe_layer_step": 1, "attention_chunk_size": 8192, "no_rope_layer_interval": 4,
                    "num_experts_per_tok": 1, "tie_word_embeddings": False},
    "deepseek_v32": {"index_n_heads": 64, "index_head_dim": 128, "index_topk": 2048},
}  # fmt: skip
_HF_DEFAULTS["llama4"] = _HF_DEFAULTS["llama4_text"]
_DEEPSEEK_LIKE = ("deepseek_v3", "deepseek_v2", "deepseek_v32", "kimi_k2")  # MLA + DeepSeek MoE keys


def model_entry_from_hf_config(model_id: str, cfg: Any, where: str, name: str = "") -> tuple[dict[str, Any], bool]:
    """(the project's model entry (catalog.model_from_dict's format), whether its context window was assumed: no
    max_position_embeddings) for a Hugging Face config.json (llama, llama4, mistral, mixtral, qwen2/3, qwen3_moe,
    qwen3_next, qwen3_5_moe, deepseek_v3/v32, kimi_k2, glm4_moe, minimax_m2, gpt_oss, gemma2, gemma3); catalog
    validates it. Its name: the config's _name_or_path, else its architectures[0], else `name` (the file's), else
    model_id. CatalogError names every missing field at once."""
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
        "qwen3_5_moe",
        "qwen3_5_moe_text",
        "deepseek_v3",
        "deepseek_v2",
        "deepseek_v32",
        "deepseek_v4",
        "kimi_k2",
        "glm4_moe",
        "llama4",
        "llama4_text",
        "minimax_m2",
        "gpt_oss",
        "gemma",
        "gemma2",
        "gemma3",
        "gemma3_text",
        "phi3",
    )
    if not model_type:  # a config.json had read as a models.yaml entry: ~19 missing and unknown fields
        raise CatalogError(f"{where}: field 'model_type' is missing (a config.json names its architecture: one of "
                           f"{', '.join(supported)})")  # fmt: skip
    if model_type not in supported:
        raise CatalogError(
            f"{where}: " + f"field 'model_type': {model_type!r} is not supported (supported: {', '.join(supported)})"
        )

    missing: list[str] = []  # every required field the config lacks, said at once (the first alone had been)
    problems: list[str] = []

    def need(key: str) -> int:
        if cfg.get(key) is None:  # it had read 'must be a whole number, got None'
            missing.append(key)
            return 1  # a stand-in, so the other fields are still read
        return iopt(key, 1)

    def iopt(key: str, default: int) -> int:
        try:
            return integer_field(where, cfg, key) if cfg.get(key) is not None else default
        except CatalogError as e:
            problems.append(str(e))
            return default

    try:
        entry = _entry(model_id, cfg, where, model_type, need, iopt, name)
    except CatalogError:
        if not (missing or problems):
            raise
        entry = {}  # a stand-in's consequence: the fields found missing or malformed are the problem
    if missing:
        fields = ", ".join(repr(k) for k in dict.fromkeys(missing))
        them = "fields " + fields + " are" if len(set(missing)) > 1 else "field " + fields + " is"
        problems.insert(
            0, f"{where}: {them} missing (a {model_type} config.json needs {'them' if them[-1] == 'e' else 'it'})"
        )
    if problems:
        raise CatalogError(*problems)
    return entry, cfg.get("max_position_embeddings") is None


def _name(cfg: dict, name: str) -> str:
    """A config.json's model name: its _name_or_path, else its architectures[0] ('LlamaForCausalLM'), else `name`."""
    archs = cfg.get("architectures")
    for given in (cfg.get("_name_or_path"), archs[0] if isinstance(archs, list) and archs else None, name):
        if isinstance(given, str) and given.strip():
            return given.strip()
    return ""


def _entry(model_id, cfg, where, model_type, need, iopt, name) -> dict[str, Any]:
    """model_entry_from_hf_config's entry, its required whole numbers read by need, its optional ones by iopt."""

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
    moe = mla = window = linear = sparse = compressed = None
    d_ff = iopt("intermediate_size", 0)
    gate = False
    qk_norm = model_type in ("qwen3", "qwen3_moe", "qwen3_next", "qwen3_5_moe", "qwen3_5_moe_text", "gemma3",
                             "gemma3_text")  # fmt: skip
    if model_type == "mixtral":
        moe = _moe(need("num_local_experts"), need("num_experts_per_tok"), d_ff)
    elif model_type in ("qwen3_moe", "qwen3_next", "qwen3_5_moe", "qwen3_5_moe_text"):
        shared_ff = iopt("shared_expert_intermediate_size", 0)
        moe = _moe(
            need("num_experts"),
            need("num_experts_per_tok"),
            need("moe_intermediate_size"),
            1 if shared_ff else 0,
            shared_ff,
            0,
        )
    elif model_type in _DEEPSEEK_LIKE:
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
        if model_type == "deepseek_v32":
            sparse = dict(index_heads=need("index_n_heads"), index_head_dim=need("index_head_dim"),
                          top_k_tokens=need("index_topk"))  # fmt: skip
    elif model_type == "deepseek_v4":
        # every layer is MoE (the first num_hash_layers route by a token-id table); one 512-wide entry is both key and
        # value; compress_ratios per layer (a trailing entry for the MTP layer): 0 window only, 4 CSA, 128 HCA
        n_shared = iopt("n_shared_experts", 0)
        expert_ff = need("moe_intermediate_size")
        moe = _moe(need("n_routed_experts"), need("num_experts_per_tok"), expert_ff, n_shared,
                   expert_ff if n_shared else 0, 0)  # fmt: skip
        rates = opt("compress_rates", {})
        rates = rates if isinstance(rates, dict) else {}
        csa_rate = integer_field(where, {"compress_rates.csa": rates.get("compressed_sparse_attention", 4)},
                                 "compress_rates.csa")  # fmt: skip
        hca_rate = integer_field(where, {"compress_rates.hca": rates.get("heavily_compressed_attention", 128)},
                                 "compress_rates.hca")  # fmt: skip
        ratios = cfg.get("compress_ratios")
        if (
            not isinstance(ratios, list)
            or len(ratios) < num_layers
            or any(r not in (0, csa_rate, hca_rate) for r in ratios[:num_layers])
        ):
            raise CatalogError(
                f"{where}: field 'compress_ratios': expected one of 0, {csa_rate} or {hca_rate} for each of the "
                f"{num_layers} layers"
            )
        num_kv_heads = 1
        head_dim = need("head_dim")
        compressed = dict(
            q_lora_rank=need("q_lora_rank"), o_groups=need("o_groups"), o_lora_rank=need("o_lora_rank"),
            window_tokens=need("sliding_window"),
            csa_layers=sum(1 for r in ratios[:num_layers] if r == csa_rate), csa_compression=csa_rate,
            hca_layers=sum(1 for r in ratios[:num_layers] if r == hca_rate), hca_compression=hca_rate,
            index_heads=need("index_n_heads"), index_head_dim=need("index_head_dim"), top_k_tokens=need("index_topk"),
        )  # fmt: skip
    elif model_type == "glm4_moe":
        n_shared = iopt("n_shared_experts", 0)
        expert_ff = need("moe_intermediate_size")
        moe = _moe(need("n_routed_experts"), need("num_experts_per_tok"), expert_ff, n_shared,
                   expert_ff if n_shared else 0, iopt("first_k_dense_replace", 0))  # fmt: skip
        qk_norm = bool(cfg.get("use_qk_norm", False))
    elif model_type in ("llama4", "llama4_text"):
        # routed experts and the shared expert are intermediate_size wide; dense layers intermediate_size_mlp
        step = max(iopt("interleave_moe_layer_step", 1), 1)
        n_moe = len(range(step - 1, num_layers, step))
        expert_ff = need("intermediate_size")
        d_ff = iopt("intermediate_size_mlp", expert_ff) if n_moe < num_layers else 0
        moe = _moe(need("num_local_experts"), need("num_experts_per_tok"), expert_ff, 1, expert_ff,
                   num_layers - n_moe)  # fmt: skip
        chunk = iopt("attention_chunk_size", 0)
        nope, types = cfg.get("no_rope_layers"), cfg.get("layer_types")
        if isinstance(types, list) and len(types) == num_layers:
            n_chunked = sum(1 for t in types if t == "chunked_attention")
        elif isinstance(nope, list) and len(nope) == num_layers:
            n_chunked = sum(1 for use_rope in nope if use_rope)  # RoPE layers are the chunked ones
        else:
            interval = max(iopt("no_rope_layer_interval", 4), 1)
            n_chunked = num_layers - num_layers // interval
        if chunk > 0 and n_chunked:
            window = {"window_tokens": chunk, "num_layers": n_chunked, "chunked": True}
    elif model_type == "minimax_m2":
        moe = _moe(need("num_local_experts"), need("num_experts_per_tok"), d_ff)
        qk_norm = bool(cfg.get("use_qk_norm", False))
    elif model_type == "gpt_oss":
        moe = _moe(need("num_local_experts"), need("num_experts_per_tok"), d_ff)
    if model_type in ("qwen3_next", "qwen3_5_moe", "qwen3_5_moe_text"):
        interval = max(iopt("full_attention_interval", 4), 1)
        layer_types = cfg.get("layer_types")
        if isinstance(layer_types, list) and len(layer_types) == num_layers:
            n_linear = sum(1 for t in layer_types if t == "linear_attention")
        else:
            n_linear = num_layers - num_layers // interval
        linear = dict(
            num_layers=n_linear,
            num_key_heads=need("linear_num_key_heads"),
            key_head_dim=need("linear_key_head_dim"),
            num_value_heads=need("linear_num_value_heads"),
            value_head_dim=need("linear_value_head_dim"),
            conv_kernel=iopt("linear_conv_kernel_dim", 4),
        )
        gate = bool(cfg.get("attn_output_gate", True))
    if moe is None and d_ff == 0:  # a dense model's MLP width: it had read "field 'd_ff' must be positive"
        d_ff = need("intermediate_size")
    sw = cfg.get("sliding_window")
    if (
        window is None
        and compressed is None
        and isinstance(sw, (int, float))
        and not isinstance(sw, bool)
        and math.isfinite(sw)
        and sw > 0
    ):
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
    # the draft modules a checkpoint ships for multi-token prediction: DeepSeek / GLM / Kimi, Qwen3-Next / 3.5, MiniMax
    mtp = max([iopt(k, 0) for k in ("num_nextn_predict_layers", "mtp_num_hidden_layers", "num_mtp_modules")], default=0)
    if str(cfg.get("use_mtp", True)).strip().lower() in ("false", "0", "no", "off"):  # false, 0, "false": off
        mtp = 0
    act = str(opt("hidden_act", opt("hidden_activation", "silu"))).lower()
    gelu_plain = model_type not in ("gemma", "gemma2", "gemma3", "gemma3_text") and act.startswith("gelu")
    entry = dict(
        name=_name(cfg, name) or model_id,
        num_layers=num_layers,
        d_model=d_model,
        num_heads=num_heads,
        num_kv_heads=num_kv_heads,
        head_dim=head_dim,
        d_ff=d_ff,
        vocab_size=vocab,
        tied_embeddings=bool(opt("tie_word_embeddings", model_type.startswith("gemma"))),
        mlp="gelu" if gelu_plain else "swiglu",
        max_context_tokens=iopt("max_position_embeddings", ASSUMED_CONTEXT_TOKENS),
        qk_norm=qk_norm,
        attention_output_gate=gate,
        moe=moe,
        mla=mla,
        sliding_window=window,
        linear_attention=linear,
        sparse_attention=sparse,
        compressed_attention=compressed,
        mtp_modules=mtp,
        source=where,
    )
    return {k: v for k, v in entry.items() if v is not None}
