"""Hardware and model catalogs: YAML entries in datasheet units (or a Hugging Face config.json, translated by
hf_config) -> validated frozen dataclasses in SI; a catalog id or a user's file -> Hardware / ModelSpec.

Validation order (house style 2.4): exact key set, value types, then ranges in ``__post_init__``. Every error is a
``CatalogError`` whose message names the file, the entry and the key. YAML is read with ``yaml.safe_load`` only.
"""

from __future__ import annotations

import difflib
import math
import re
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from .files import (
    DATA_DIR,
    CatalogError,
    integer_field,
    parse_structured_text,
    read_structured_file,
    read_text,
)
from .hf_config import is_hf_config, model_entry_from_hf_config
from .numtext import shown
from .precision import COMPUTE_PRECISIONS
from .prices import NO_PRICES, ChipPrices, load_prices
from .units import GB, GB_per_s, Gbit_per_s, GiB, TB_per_s, TFLOP_per_s, us


def _fail(where: str, message: str) -> CatalogError:
    return CatalogError(f"{where}: {message}")


# --------------------------------------------------------------------------------------------------- hardware


@dataclass(frozen=True)
class Hardware:
    """One accelerator, in SI units (bytes, bytes/s, FLOP/s, W, USD/s)."""

    id: str
    name: str
    memory_bytes: float
    memory_bandwidth_bytes_per_s: float
    dense_flop_per_s: dict[str, float]
    tdp_w: float | None = None
    interconnect_bytes_per_s: float | None = None  # scale-up link (YAML scale_up_GB_per_s), per direction, per GPU
    price_usd_per_hour: float | None = None  # a user's file only: its own on-demand price (catalog: prices.yaml)
    vendor: str = ""
    memory_type: str = ""
    launch_year: int | None = None
    successor: str | None = None  # the catalog id of its next generation (the planner's hardware-upgrade lever)
    colour: str = ""  # its colour in every chart ("#rrggbb"; empty: one from a fixed palette)
    short_name: str = ""  # a chart label for a long name ("GB200 NVL72"); empty: ui.fmt.chip_short derives one
    aliases: tuple[str, ...] = ()  # other names people type for it ("gb200-nvl72", "hgx-b200"): find_id
    source: tuple[str, ...] = ()
    notes: str = ""
    prices: ChipPrices = NO_PRICES  # $/GPU-hour by basis, all-in power (data/prices.yaml; a user file: its own)
    # the system around the chip (None: not published; roofline uses documented defaults)
    scale_up_domain_gpus: int | None = None  # GPUs sharing one scale-up (NVLink-class) domain: 72 for an NVL72 rack
    rack_gpus: int | None = None  # accelerators in one physical rack, where a domain spans racks (a TPU7x rack: 64)
    scale_up_latency_s: float | None = None  # one GPU-to-GPU hop inside the domain
    scale_out_bytes_per_s: float | None = None  # the NICs' bandwidth per GPU, per direction (across domains)
    scale_out_latency_s: float | None = None  # one GPU-to-GPU hop across domains (NIC + switch + NIC)
    memory_reported_bytes: float | None = None  # what the vendor's tool (nvidia-smi, rocm-smi) reports per GPU
    announced: bool = False  # not shipping yet: every figure is a vendor claim
    system_source: tuple[str, ...] = ()  # where the system fields come from
    # per figure, by its YAML name (dense rates one precision at a time: "dense_TFLOP_per_s.fp8"): the source lines
    # (of `source` and `system_source`) that state it, and how a figure no source states was derived; empty where the
    # entry cites per entry only
    field_sources: dict[str, tuple[str, ...]] = field(default_factory=dict)
    derived: dict[str, str] = field(default_factory=dict)
    # the figures that are the catalog's estimates, not a published figure (YAML names, as `derived`'s: "tdp_W",
    # "dense_TFLOP_per_s.fp16"): every number resting on one is marked an estimate (estimated)
    estimated_figures: tuple[str, ...] = ()
    # what microbenchmarks measure the chip reaching, as fractions of its peaks (None / absent: not published;
    # roofline.attainable_* then uses the chip family's documented prior): STREAM-like HBM bandwidth, and dense
    # GEMM throughput per compute precision; a measurement above the datasheet peak counts as 1
    attainable_bandwidth_fraction: float | None = None
    attainable_flop_fraction: dict[str, float] = field(default_factory=dict)
    attainable_source: tuple[str, ...] = ()  # where the attainable rates come from

    def estimated(self, figure: str) -> bool:
        """Whether a figure (its YAML name: "tdp_W", "dense_TFLOP_per_s.fp8") is an estimate, not a published one."""
        return figure in self.estimated_figures

    @property
    def scale_up_bytes_per_s(self) -> float | None:
        """The scale-up link per GPU per direction (bytes/s), None if not published (the successor of the single
        interconnect figure: the same value)."""
        return self.interconnect_bytes_per_s

    def __post_init__(self) -> None:
        figures = {k: figure_value(self, k)[0] for k in hardware_figures(self)}
        if self.price_usd_per_hour is not None:
            figures["price_usd_per_hour"] = self.price_usd_per_hour
        if problems := _figure_problems(f"hardware {self.id!r}", figures):
            raise CatalogError(*problems)


_HARDWARE_REQUIRED = {"name", "memory_GB", "memory_bandwidth_TB_per_s", "dense_TFLOP_per_s"}
MAX_BANDWIDTH_TB_PER_S = 200.0  # per chip: ten times Rubin's 22 TB/s; past it, a GB/s figure in the TB/s field
MIN_BANDWIDTH_TB_PER_S = 1e-3  # 1 GB/s: below any accelerator (a phone's LPDDR gives ~50 GB/s)
MAX_MEMORY_GB = 10_000.0  # per chip: 10 TB, 23 times MI455X's 432 GB; past it, a MiB figure typed in GB
MAX_TDP_W = 10_000.0  # board power per chip: four times Rubin's 2,300 W; past it, a server's or a rack's power
MAX_TFLOP_PER_S = 500_000.0  # dense, per chip: ten times Rubin's 50,000 at FP4; past it, a GFLOP/s figure
REPORTED_MEMORY_SHARE = (0.5, 1.25)  # memory_reported over memory_GB: the catalog's run from 1.00 to 1.07
_HARDWARE_OPTIONAL = {
    "tdp_W",
    "scale_up_GB_per_s",
    "interconnect_GB_per_s",  # the older name of scale_up_GB_per_s (users' files); not both
    "scale_up_domain_gpus",
    "rack_gpus",
    "scale_up_latency_us",
    "scale_out_Gbit_per_s",
    "scale_out_latency_us",
    "memory_reported_GiB",
    "announced",
    "system_source",
    "derived",
    "estimated",
    "attainable_memory_bandwidth_TB_per_s",
    "attainable_dense_TFLOP_per_s",
    "attainable_source",
    "price_usd_per_hour",
    "vendor",
    "memory_type",
    "launch_year",
    "successor",
    "colour",
    "short_name",
    "aliases",
    "source",
    "notes",
}
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


def hardware_from_dict(hw_id: str, d: Any, where: str, *, require_source: bool = False, named: bool = True) -> Hardware:
    """Validate one hardware entry in datasheet units and convert it to SI; CatalogError lists every missing, unknown
    or out-of-range field at once, in the file's own units. named: the file names the entry (its id is the top key;
    a user's file may give the fields alone, and its messages then name no entry)."""
    where = f"{where}: entry {hw_id!r}" if named else where
    announced = isinstance(d, dict) and d.get("announced") is True  # an unshipped part may lack a published TDP
    required = {"source"} | (set() if announced else {"tdp_W"}) if require_source else set()
    problems = _key_problems(where, d, _HARDWARE_REQUIRED | required, _HARDWARE_OPTIONAL)
    if isinstance(d, dict):
        problems += _hardware_field_problems(where, d)
    if problems:
        raise CatalogError(*problems)
    rates = d["dense_TFLOP_per_s"]
    if d.get("scale_up_GB_per_s") is not None and d.get("interconnect_GB_per_s") is not None:
        raise _fail(where, "give 'scale_up_GB_per_s' or its older name 'interconnect_GB_per_s', not both")
    scale_up_key = "interconnect_GB_per_s" if d.get("interconnect_GB_per_s") is not None else "scale_up_GB_per_s"
    peak_bw = _number(where, d, "memory_bandwidth_TB_per_s")
    att_bw = _optional_number(where, d, "attainable_memory_bandwidth_TB_per_s")
    if att_bw is not None and att_bw <= 0:
        raise _fail(where, f"field 'attainable_memory_bandwidth_TB_per_s' must be positive, got {att_bw!r}")
    att_rates = d.get("attainable_dense_TFLOP_per_s") or {}
    if not isinstance(att_rates, dict):
        raise _fail(where, "field 'attainable_dense_TFLOP_per_s' must be a mapping of precision to TFLOP/s")
    att_flops = {}
    for k in att_rates:
        if k not in rates:
            raise _fail(where, f"attainable_dense_TFLOP_per_s: precision {k!r} has no peak in dense_TFLOP_per_s")
        v = _number(where, att_rates, k, "attainable_dense_TFLOP_per_s.")
        if v <= 0:
            raise _fail(where, f"field 'attainable_dense_TFLOP_per_s.{k}' must be positive, got {v!r}")
        att_flops[str(k)] = min(1.0, v / _number(where, rates, k, "dense_TFLOP_per_s."))
    if (att_bw is not None or att_flops) and require_source and not d.get("attainable_source"):
        raise _fail(where, "attainable rates need 'attainable_source' (the microbenchmark they come from)")
    source, by_field = _cited_sources(where, d, "source")
    system_source, system_by_field = _cited_sources(where, d, "system_source")
    field_sources, derived = _field_sources(where, d, by_field, system_by_field)
    estimated = _estimated(where, d)
    if unlisted := [
        k for k, how in derived.items() if how.lstrip().upper().startswith("ESTIMATE") and k not in estimated
    ]:
        raise _fail(where, f"derived: {unlisted[0]!r} is an ESTIMATE: list it in 'estimated' too")
    with _located(where):
        return Hardware(
            id=hw_id,
            name=_text(where, d, "name"),
            memory_bytes=_number(where, d, "memory_GB") * GB,
            memory_bandwidth_bytes_per_s=_number(where, d, "memory_bandwidth_TB_per_s") * TB_per_s,
            dense_flop_per_s={str(k): _number(where, rates, k, "dense_TFLOP_per_s.") * TFLOP_per_s for k in rates},
            tdp_w=_optional_number(where, d, "tdp_W"),
            interconnect_bytes_per_s=_scaled(_optional_number(where, d, scale_up_key), GB_per_s),
            price_usd_per_hour=_optional_number(where, d, "price_usd_per_hour"),
            vendor=str(d.get("vendor", "")),
            memory_type=str(d.get("memory_type", "")),
            launch_year=_optional_int(where, d, "launch_year"),
            successor=_text(where, d, "successor") if d.get("successor") is not None else None,
            colour=_colour(where, d),
            short_name=str(d.get("short_name", "") or ""),
            aliases=_aliases(where, d),
            source=source,
            notes=str(d.get("notes", "") or ""),
            scale_up_domain_gpus=_optional_int(where, d, "scale_up_domain_gpus"),
            rack_gpus=_optional_int(where, d, "rack_gpus"),
            scale_up_latency_s=_scaled(_optional_number(where, d, "scale_up_latency_us"), us),
            scale_out_bytes_per_s=_scaled(_optional_number(where, d, "scale_out_Gbit_per_s"), Gbit_per_s),
            scale_out_latency_s=_scaled(_optional_number(where, d, "scale_out_latency_us"), us),
            memory_reported_bytes=_scaled(_optional_number(where, d, "memory_reported_GiB"), GiB),
            announced=_bool(where, d, "announced", False),
            system_source=system_source,
            field_sources=field_sources,
            derived=derived,
            estimated_figures=estimated,
            attainable_bandwidth_fraction=None if att_bw is None else min(1.0, att_bw / peak_bw),
            attainable_flop_fraction=att_flops,
            attainable_source=_sources(where, d, "attainable_source"),
        )


# --------------------------------------------------------------------------------------------------- models


@dataclass(frozen=True)
class MoE:
    """Mixture-of-experts MLP: routed experts (top-k), always-on shared experts, and dense first layers."""

    num_experts: int
    experts_per_token: int
    expert_d_ff: int
    num_shared_experts: int = 0
    shared_expert_d_ff: int = 0
    num_dense_layers: int = 0


@dataclass(frozen=True)
class MLA:
    """Multi-head latent attention (DeepSeek-V2/V3): the cache holds kv_lora_rank + qk_rope_head_dim per token."""

    q_lora_rank: int
    kv_lora_rank: int
    qk_nope_head_dim: int
    qk_rope_head_dim: int
    v_head_dim: int


@dataclass(frozen=True)
class SlidingWindow:
    """num_layers attention layers attend only to the last window_tokens tokens (their cache stops growing).

    chunked: the layers attend within fixed chunks of window_tokens instead (Llama 4's chunked local attention): the
    query at position t sees the (t - 1) mod W + 1 tokens of its own chunk; the cache still holds at most W tokens."""

    window_tokens: int
    num_layers: int
    chunked: bool = False


@dataclass(frozen=True)
class SparseAttention:
    """DeepSeek Sparse Attention (DSA, DeepSeek-V3.2) on the MLA layers: a lightning indexer (index_heads heads of
    index_head_dim, one cached index key of index_head_dim per token and layer) scores every cached token, and each
    query attends only to the top_k_tokens best."""

    index_heads: int
    index_head_dim: int
    top_k_tokens: int


@dataclass(frozen=True)
class CompressedAttention:
    """DeepSeek-V4's hybrid attention, on multi-query heads (num_kv_heads 1, head_dim wide: one cached entry is both
    key and value): every layer keeps its last window_tokens tokens uncompressed; csa_layers (Compressed Sparse
    Attention) also cache one entry per csa_compression tokens (overlapping windows) plus an index key of
    index_head_dim, and each query attends to the top_k_tokens entries a lightning indexer (index_heads heads) picks;
    hca_layers (Heavily Compressed Attention) cache one entry per hca_compression tokens and attend to all of them.
    Queries come through a q_lora_rank latent; the output projection is grouped and low-rank (o_groups groups of
    heads, each to o_lora_rank, then to d_model)."""

    q_lora_rank: int
    o_groups: int
    o_lora_rank: int
    window_tokens: int
    csa_layers: int
    csa_compression: int
    hca_layers: int
    hca_compression: int
    index_heads: int
    index_head_dim: int
    top_k_tokens: int


@dataclass(frozen=True)
class LinearAttention:
    """Hybrid linear-attention (Gated DeltaNet) layers: a constant-size recurrent + convolution state per sequence."""

    num_layers: int
    num_key_heads: int
    key_head_dim: int
    num_value_heads: int
    value_head_dim: int
    conv_kernel: int


@dataclass(frozen=True)
class ModelSpec:
    """A decoder-only transformer's shape. Counts only; bytes depend on the chosen number formats."""

    id: str
    name: str
    num_layers: int
    d_model: int
    num_heads: int
    num_kv_heads: int
    head_dim: int
    d_ff: int
    vocab_size: int
    tied_embeddings: bool
    mlp: str  # "swiglu" (3 matrices) or "gelu" (2 matrices)
    max_context_tokens: int
    qk_norm: bool = False
    attention_output_gate: bool = False
    moe: MoE | None = None
    mla: MLA | None = None
    sliding_window: SlidingWindow | None = None
    linear_attention: LinearAttention | None = None
    sparse_attention: SparseAttention | None = None
    compressed_attention: CompressedAttention | None = None
    # multi-token-prediction modules the checkpoint ships (not counted in the layers or parameters); 0: none listed
    mtp_modules: int = 0
    params_reported: str = ""
    # a config.json without max_position_embeddings: max_context_tokens is hf_config.ASSUMED_CONTEXT_TOKENS, assumed
    context_window_assumed: bool = False
    family: str = ""  # models that share a tokenizer (a draft model must): default, the id's first part
    aliases: tuple[str, ...] = ()  # other names people type for it ("deepseek-r1-0528", "dsr1"): find_id
    source: tuple[str, ...] = field(default=())
    notes: str = ""

    def __post_init__(self) -> None:
        where = f"model {self.id!r}"
        for key in (
            "num_layers",
            "d_model",
            "num_heads",
            "num_kv_heads",
            "head_dim",
            "vocab_size",
            "max_context_tokens",
        ):
            _positive(where, key, getattr(self, key))
        if self.num_heads % self.num_kv_heads:
            raise _fail(where, f"num_heads ({self.num_heads}) is not divisible by num_kv_heads ({self.num_kv_heads})")
        if self.mlp not in ("swiglu", "gelu"):
            raise _fail(where, f"field 'mlp' must be 'swiglu' or 'gelu', got {self.mlp!r}")
        if self.moe is None or self.moe.num_dense_layers:
            _positive(where, "d_ff", self.d_ff)
        if self.moe is not None:
            m = self.moe
            if not 1 <= m.experts_per_token <= m.num_experts:
                raise _fail(where, "moe.experts_per_token must be between 1 and moe.num_experts")
            if not 0 <= m.num_dense_layers <= self.num_layers:
                raise _fail(where, "moe.num_dense_layers must be between 0 and num_layers")
        special = (self.sliding_window.num_layers if self.sliding_window else 0) + (
            self.linear_attention.num_layers if self.linear_attention else 0
        )
        if special > self.num_layers:
            raise _fail(where, "sliding_window.num_layers + linear_attention.num_layers exceeds num_layers")
        if self.sparse_attention is not None:
            if self.mla is None:
                raise _fail(where, "sparse_attention needs mla (the indexer selects MLA latents)")
            for key in ("index_heads", "index_head_dim", "top_k_tokens"):
                _positive(where, f"sparse_attention.{key}", getattr(self.sparse_attention, key))
        if self.sliding_window is not None:
            _positive(where, "sliding_window.window_tokens", self.sliding_window.window_tokens)
        if self.compressed_attention is not None:
            c = self.compressed_attention
            if self.mla or self.sparse_attention or self.sliding_window or self.linear_attention:
                raise _fail(where, "compressed_attention replaces mla, sparse_attention, sliding_window and "
                                   "linear_attention (it has its own window and indexer)")  # fmt: skip
            if self.num_kv_heads != 1:
                raise _fail(where, "compressed_attention needs num_kv_heads 1 (one cached entry, both key and value)")
            for key in ("q_lora_rank", "o_groups", "o_lora_rank", "window_tokens", "csa_compression",
                        "hca_compression", "index_heads", "index_head_dim", "top_k_tokens"):  # fmt: skip
                _positive(where, f"compressed_attention.{key}", getattr(c, key))
            if c.csa_layers < 0 or c.hca_layers < 0 or c.csa_layers + c.hca_layers > self.num_layers:
                raise _fail(where, "compressed_attention: csa_layers + hca_layers must be between 0 and num_layers")
            if self.num_heads % c.o_groups:
                raise _fail(where, f"num_heads ({self.num_heads}) is not divisible by compressed_attention.o_groups")

    @property
    def architecture(self) -> ModelSpec:
        """The shape alone (no id, name, family or sources): equal for models that run the same way (DeepSeek-V3,
        V3.1 and R1)."""
        return replace(self, id="", name="", params_reported="", family="", aliases=(), source=(), notes="",
                       context_window_assumed=False)  # fmt: skip

    def past_window(self, context_tokens, output_tokens) -> int | None:
        """Prompt + output tokens of a run when they exceed the model's context window (its numbers then extrapolate
        the architecture), else None."""
        return tokens_past_window(self.max_context_tokens, context_tokens, output_tokens)

    @property
    def num_linear_layers(self) -> int:
        return self.linear_attention.num_layers if self.linear_attention else 0

    @property
    def num_window_layers(self) -> int:
        return self.sliding_window.num_layers if self.sliding_window else 0

    @property
    def num_full_attention_layers(self) -> int:
        """Layers whose KV cache grows with the whole context (full attention or MLA)."""
        return self.num_layers - self.num_linear_layers - self.num_window_layers

    @property
    def num_moe_layers(self) -> int:
        return self.num_layers - self.moe.num_dense_layers if self.moe else 0

    @property
    def kind(self) -> str:
        """A short architecture label: MHA/GQA/MQA/MLA/CSA-HCA, + MoE, + sliding window, + hybrid linear attention."""
        if self.mla:
            attn = "MLA"
        elif self.compressed_attention:
            attn = "CSA/HCA"  # DeepSeek-V4's compressed sparse / heavily compressed attention
        elif self.num_kv_heads == self.num_heads:
            attn = "MHA"
        elif self.num_kv_heads == 1:
            attn = "MQA"
        else:
            attn = "GQA"
        parts = [attn]
        if self.sparse_attention:
            parts.append("sparse attention")
        if self.sliding_window:
            parts.append("chunked attention" if self.sliding_window.chunked else "sliding window")
        if self.linear_attention:
            parts.append("hybrid linear attention")
        if self.moe:
            parts.append("MoE")
        return " + ".join(parts)


def tokens_past_window(window_tokens: int, context_tokens, output_tokens) -> int | None:
    """context + output tokens (whole numbers) when they exceed window_tokens, else None: the one test of a run past a
    model's context window (ModelSpec.past_window; the CLI's rows carry the window and lengths, not the model)."""
    total = int(context_tokens) + int(output_tokens)
    return total if total > window_tokens else None


_MODEL_REQUIRED = {
    "name",
    "num_layers",
    "d_model",
    "num_heads",
    "num_kv_heads",
    "head_dim",
    "d_ff",
    "vocab_size",
    "tied_embeddings",
    "mlp",
    "max_context_tokens",
}
_MODEL_OPTIONAL = {
    "qk_norm",
    "attention_output_gate",
    "moe",
    "mla",
    "sliding_window",
    "linear_attention",
    "sparse_attention",
    "compressed_attention",
    "mtp_modules",
    "params_reported",
    "family",
    "aliases",
    "source",
    "notes",
}
_SUB_OPTIONAL_DEFAULTS = {
    "moe": {"num_shared_experts": 0, "shared_expert_d_ff": 0, "num_dense_layers": 0},
    "sliding_window": {"chunked": False},
}
_SUB_BOOLS = {"chunked"}  # true / false fields of the sub-mappings (the rest are whole numbers)


def _sub(where: str, d: dict, key: str, cls: type) -> Any:
    if d.get(key) is None:
        return None
    block = d[key]
    if not isinstance(block, dict):
        raise _fail(where, f"field {key!r} must be a mapping")
    names = [f for f in cls.__dataclass_fields__]
    optional = _SUB_OPTIONAL_DEFAULTS.get(key, {})
    _check_keys(f"{where}, field {key!r}", block, set(names) - set(optional), set(optional))
    at = f"{where}, field {key!r}"
    values = {n: _bool(at, block, n) if n in _SUB_BOOLS else integer_field(at, block, n) for n in names if n in block}
    return cls(**{**optional, **values})


MAX_MTP_MODULES = 16  # a checkpoint's multi-token-prediction modules: DeepSeek's 1, MiniMax-M2's 3


def _mtp_modules(where: str, d: dict) -> int:
    """The entry's mtp_modules (0 when absent): a whole number from 0 to MAX_MTP_MODULES."""
    if d.get("mtp_modules") is None:
        return 0
    n = integer_field(where, d, "mtp_modules")
    if n > MAX_MTP_MODULES:
        raise CatalogError(f"{where}: field 'mtp_modules' must be at most {MAX_MTP_MODULES}, got {n}")
    return n


def model_from_dict(model_id: str, d: Any, where: str, *, require_source: bool = False) -> ModelSpec:
    """Validate one model entry of the project's own format."""
    return _model(model_id, d, f"{where}: entry {model_id!r}", require_source=require_source)


def _model(model_id: str, d: Any, where: str, *, require_source: bool = False) -> ModelSpec:
    problems = _key_problems(where, d, _MODEL_REQUIRED | ({"source"} if require_source else set()), _MODEL_OPTIONAL)
    checks = {k: integer_field for k in _MODEL_REQUIRED - {"name", "tied_embeddings", "mlp"}}
    checks.update(name=_text, mlp=_text, tied_embeddings=_bool)
    for key, check in checks.items() if isinstance(d, dict) else ():
        try:
            if d.get(key) is not None:  # a missing one is named above
                check(where, d, key)
        except CatalogError as e:
            problems.append(str(e))
    if problems:
        raise CatalogError(*problems)
    ints = {k: integer_field(where, d, k) for k in _MODEL_REQUIRED - {"name", "tied_embeddings", "mlp"}}
    with _located(where):
        return ModelSpec(
            id=model_id,
            name=_text(where, d, "name"),
            tied_embeddings=_bool(where, d, "tied_embeddings"),
            mlp=_text(where, d, "mlp"),
            qk_norm=_bool(where, d, "qk_norm", False),
            attention_output_gate=_bool(where, d, "attention_output_gate", False),
            moe=_sub(where, d, "moe", MoE),
            mla=_sub(where, d, "mla", MLA),
            sliding_window=_sub(where, d, "sliding_window", SlidingWindow),
            linear_attention=_sub(where, d, "linear_attention", LinearAttention),
            sparse_attention=_sub(where, d, "sparse_attention", SparseAttention),
            compressed_attention=_sub(where, d, "compressed_attention", CompressedAttention),
            mtp_modules=_mtp_modules(where, d),
            params_reported=str(d.get("params_reported", "") or ""),
            family=str(d.get("family", "") or model_id.split("-")[0].lower()),
            aliases=_aliases(where, d),
            source=_sources(where, d),
            notes=str(d.get("notes", "") or ""),
            **ints,
        )


def architecture_twin(model_id: str, among) -> str:
    """The model whose measurements stand for `model_id`'s: itself if `among` (ids with measurements) holds it, else
    the first of `among` with the same architecture in the catalog (ModelSpec.architecture: DeepSeek-V3's and
    V3.1's are DeepSeek-R1's), else model_id itself."""
    among = list(among)
    catalog = load_model_catalog()
    if model_id in among or model_id not in catalog:
        return model_id
    shape = catalog[model_id].architecture
    return next((m for m in among if m in catalog and catalog[m].architecture == shape), model_id)


# --------------------------------------------------------------------------------------------------- loading


@contextmanager
def _located(where: str):
    """Prefix range errors raised by the dataclasses' __post_init__ with the file and entry (in place of their own
    "hardware 'x': "; a message that names them already is left as it is)."""
    try:
        yield
    except CatalogError as e:
        text = str(e)
        if text.startswith(f"{where}: "):
            raise
        own = re.sub(r"^(hardware|model) '[^']*': ", "", text)  # the dataclass's own prefix, replaced
        raise CatalogError(f"{where}: {own}") from None


def _load_mapping(path: Path) -> dict:
    data = read_structured_file(path)
    if not isinstance(data, dict) or not data:
        raise CatalogError(f"{path}: expected a non-empty mapping of id -> entry")
    return data


@lru_cache(maxsize=4)
def load_hardware_catalog(path: str | Path = DATA_DIR / "hardware.yaml") -> dict[str, Hardware]:
    """All accelerators of the catalog, by id."""
    p = Path(path)
    out = {str(k): hardware_from_dict(str(k), v, str(p), require_source=True) for k, v in _load_mapping(p).items()}
    table = load_prices(p.parent / "prices.yaml") if (p.parent / "prices.yaml").is_file() else {}
    for hw in out.values():
        if hw.price_usd_per_hour is not None:
            raise CatalogError(f"{p}: entry {hw.id!r}: field 'price_usd_per_hour': prices live in prices.yaml")
    out = {k: replace(hw, prices=table.get(k, NO_PRICES)) for k, hw in out.items()}
    for hw in out.values():
        if hw.successor is not None and hw.successor not in out:
            raise CatalogError(f"{p}: entry {hw.id!r}: field 'successor': {hw.successor!r} is not in the catalog")
    _check_aliases(p, out)
    return out


@lru_cache(maxsize=4)
def load_model_catalog(path: str | Path = DATA_DIR / "models.yaml") -> dict[str, ModelSpec]:
    """All models of the catalog, by id."""
    p = Path(path)
    out = {str(k): model_from_dict(str(k), v, str(p), require_source=True) for k, v in _load_mapping(p).items()}
    _check_aliases(p, out)
    return out


def _single_entry(data: Any, where: str) -> tuple[str | None, Any]:
    """(its id, its fields) of a user's file of one entry; the id None where the file gives the fields alone."""
    if isinstance(data, dict) and len(data) == 1 and isinstance(next(iter(data.values())), dict):
        key, value = next(iter(data.items()))
        return str(key), value
    if isinstance(data, dict) and len(data) > 1 and all(isinstance(v, dict) for v in data.values()):
        ids = ", ".join(repr(str(k)) for k in list(data)[:4]) + (", ..." if len(data) > 4 else "")
        raise CatalogError(f"{where}: expected one entry, found {len(data)} ({ids}): keep one per file")
    if isinstance(data, dict):
        return None, data
    raise CatalogError(f"{where}: expected a mapping")


# fields only a hardware entry has, and only a model file has (its own format's or a config.json's)
_HARDWARE_SIGNS = ("memory_GB", "memory_bandwidth_TB_per_s", "dense_TFLOP_per_s")
_MODEL_SIGNS = ("model_type", "architectures", "hidden_size", "num_hidden_layers", "num_layers", "d_model", "num_heads")


def _other_kind(kind: str, data: Any, entry: Any, where: str) -> CatalogError | None:
    """The error for a model file given as hardware or a hardware file given as a model (it had listed every field as
    missing or unknown), None for a file of neither look."""
    fields = entry.keys() if isinstance(entry, dict) else ()
    hw_signs = [k for k in _HARDWARE_SIGNS if k in fields]
    model_signs = [k for k in _MODEL_SIGNS if k in fields]
    if kind == "hardware" and not hw_signs and (model_signs or is_hf_config(data)):
        looks, other, signs = "a model file", "a hardware file (one entry of data/hardware.yaml)", model_signs
    elif kind == "model" and hw_signs and not model_signs:
        looks, other, signs = (
            "a hardware file",
            "a model file (a config.json or one entry of data/models.yaml)",
            hw_signs,
        )
    else:
        return None
    has = f" (it has {', '.join(signs)})" if signs else ""
    return CatalogError(f"{where}: this looks like {looks}{has}, not {other}")


def hardware_from_text(text: str, where: str) -> Hardware:
    """A user's hardware file (one entry, with or without its id as the top key; without: the id 'custom')."""
    data = parse_structured_text(text, where)
    hw_id, entry = (None, data) if is_hf_config(data) else _single_entry(data, where)
    if (wrong := _other_kind("hardware", data, entry, where)) is not None:
        raise wrong
    return hardware_from_dict(hw_id or "custom", entry, where, named=hw_id is not None)


def model_from_text(text: str, where: str, model_id: str = "custom") -> ModelSpec:
    """A user's model file: a Hugging Face config.json or one entry of the project's model format."""
    data = parse_structured_text(text, where)
    if is_hf_config(data):
        stem = Path(where).stem if where.endswith((".json", ".yaml", ".yml")) else ""
        entry, assumed = model_entry_from_hf_config(model_id, data, where, "" if stem == "config" else stem)
        return replace(_model(model_id, entry, where), context_window_assumed=assumed)
    mid, entry = _single_entry(data, where)
    if (wrong := _other_kind("model", data, entry, where)) is not None:
        raise wrong
    if mid is None:
        return _model(model_id, entry, where)
    return model_from_dict(mid, entry, where)


def resolve_hardware(ref: str) -> Hardware:
    """A catalog id, name or alias (find_id), or a path to a hardware YAML file."""
    catalog = load_hardware_catalog()
    if ref in catalog:
        return catalog[ref]
    if _is_file_ref(ref):
        p = Path(ref)
        return hardware_from_text(read_text(p), str(p))
    found = find_id(ref, catalog)
    if found is None:
        raise CatalogError(unknown_message("hardware", ref, catalog))
    return catalog[found]


def resolve_model(ref: str) -> ModelSpec:
    """A catalog id, name, alias or Hugging Face repository name (find_id), or a path to a config.json / model YAML
    file."""
    catalog = load_model_catalog()
    if ref in catalog:
        return catalog[ref]
    if _is_file_ref(ref):
        p = Path(ref)
        return model_from_text(read_text(p), str(p), model_id=p.parent.name if p.name == "config.json" else p.stem)
    found = find_id(ref, catalog)
    if found is None:
        raise CatalogError(unknown_message("model", ref, catalog))
    return catalog[found]


# the words a name may start with that no catalog key needs ('NVIDIA B200', 'AMD Instinct MI355X')
_VENDOR_WORDS = ("nvidia", "amd", "instinct", "google", "aws", "amazon", "intel", "apple", "meta")
# what a model's repository name may add to the model: its tuning, its weight format, a revision ('-0528', '-v0.1')
_VARIANT = re.compile(
    r"([-_ .:](instruct|it|chat|hf|base|fp8|fp4|nvfp4|mxfp4|bf16|fp16|awq|gptq|int4|int8|\d{4}|v\d+(\.\d+)?))+$"
)


def name_key(text: str) -> str:
    """How names compare: lower case, letters and digits only, leading vendor words dropped ('NVIDIA B200' = 'b200',
    'Llama-3.1-70B' = 'llama 3.1 70b')."""
    key = re.sub(r"[^a-z0-9]", "", text.lower())
    while (word := next((w for w in _VENDOR_WORDS if key.startswith(w) and len(key) > len(w)), None)) is not None:
        key = key[len(word) :]
    return key


def _keys(entry_id: str, entry) -> set[str]:
    """The name keys an entry answers to: its id's, its name's, its chart label's and its aliases' (an id given
    alone: the catalog entry of that id, if any)."""
    if entry is None:
        entry = load_hardware_catalog().get(entry_id) or load_model_catalog().get(entry_id)
    names = [entry_id] + ([entry.name, getattr(entry, "short_name", ""), *entry.aliases] if entry is not None else [])
    return {name_key(n) for n in names if name_key(n)}


def find_id(ref: str, entries: dict) -> str | None:
    """The id of the one entry of `entries` (id -> Hardware / ModelSpec, or None for a catalog id) that `ref` names:
    its id, or any spelling of its id, name or aliases (name_key); failing that, the part after a repository's
    '/' ('deepseek-ai/DeepSeek-R1') and that without a variant suffix ('-Instruct', '-FP8', '-0528'). None where no
    entry or more than one answers."""
    if ref in entries:
        return ref
    index = {i: _keys(i, e) for i, e in entries.items()}
    tail = ref.rsplit("/", 1)[-1]
    for attempt in dict.fromkeys((ref, tail, _VARIANT.sub("", tail.lower()))):
        key = name_key(attempt)
        hits = [i for i, keys in index.items() if key and key in keys]
        if len(hits) == 1:
            return hits[0]
    return None


def close_ids(ref: str, entries: dict, n: int = 4) -> list[str]:
    """Up to n ids whose names resemble `ref` (a key inside the other, or difflib's close matches), for an error's
    'did you mean'."""
    key = name_key(ref.rsplit("/", 1)[-1])
    by_key = {k: i for i, e in entries.items() for k in sorted(_keys(i, e))}
    inside = [i for k, i in by_key.items() if key and (key in k or k in key)]
    close = [by_key[k] for k in difflib.get_close_matches(key, list(by_key), n=n, cutoff=0.6)]
    return list(dict.fromkeys(inside + close))[:n]


def unknown_message(kind: str, ref: str, entries: dict) -> str:
    """One line for a --model / --hardware no catalog entry answers to, with the nearest ids."""
    near = close_ids(ref, entries)
    hint = f"; did you mean {', '.join(near[:-1])}{' or ' if len(near) > 1 else ''}{near[-1]}?" if near else ""
    listing = "models" if kind == "model" else "hardware"
    return f"unknown {kind} {ref!r}: not a catalog id, name or alias, nor a file{hint} (`python -m tpot_model list {listing}`)"


def _check_aliases(path: Path, entries: dict) -> None:
    """Every alias names its own entry alone: none is another entry's id, name or alias."""
    owners: dict[str, set[str]] = {}
    for i, e in entries.items():
        for k in _keys(i, e):
            owners.setdefault(k, set()).add(i)
    for i, e in entries.items():
        for a in e.aliases:
            others = owners[name_key(a)] - {i}
            if others:
                raise CatalogError(f"{path}: entry {i!r}: field 'aliases': {a!r} also names {sorted(others)[0]!r}")


def _is_file_ref(ref: str) -> bool:
    """Whether `ref` is meant as a file: one that exists, or a name ending .yaml / .yml / .json."""
    return Path(ref).is_file() or ref.endswith((".yaml", ".yml", ".json"))


# --------------------------------------------------------------------------------------------------- field checks


def _check_keys(where: str, d: Any, required: set[str], optional: set[str]) -> None:
    if problems := _key_problems(where, d, required, optional):
        raise CatalogError(*problems)


def _key_problems(where: str, d: Any, required: set[str], optional: set[str]) -> list[str]:
    """An entry's missing fields (in one message) and unknown fields (in one message, with the allowed ones)."""
    if not isinstance(d, dict):
        return [f"{where}: expected a mapping of fields"]
    out = []
    if missing := sorted(required - d.keys()):
        out.append(
            f"{where}: missing field {missing[0]!r}" + (f" (and {', '.join(missing[1:])})" if missing[1:] else "")
        )
    if unknown := sorted(str(k) for k in d.keys() - required - optional):
        out.append(f"{where}: unknown field{'s' if unknown[1:] else ''} {', '.join(map(repr, unknown))} "
                   f"(allowed: {', '.join(sorted(required | optional))})")  # fmt: skip
    return out


def _number(where: str, d: dict, key: str, prefix: str = "") -> float:
    value = d.get(key)
    if isinstance(value, str):  # YAML reads 3e0 (no dot) as text
        try:
            hint = f": write {float(value)!r}" if math.isfinite(float(value)) else ""
        except ValueError:
            hint = ""
        raise _fail(where, f"field {prefix}{key!r} must be a finite number, got the text {value!r}{hint}")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise _fail(where, f"field {prefix}{key!r} must be a finite number, got {value!r}")
    return float(value)


def _optional_number(where: str, d: dict, key: str) -> float | None:
    return None if d.get(key) is None else _number(where, d, key)


def _optional_int(where: str, d: dict, key: str) -> int | None:
    return None if d.get(key) is None else integer_field(where, d, key)


def _scaled(value: float | None, scale: float) -> float | None:
    return None if value is None else value * scale


def _text(where: str, d: dict, key: str) -> str:
    value = d.get(key)
    if not isinstance(value, str) or not value.strip():
        raise _fail(where, f"field {key!r} must be non-empty text, got {value!r}")
    return value.strip()


def _colour(where: str, d: dict) -> str:
    value = d.get("colour")
    if value is None:
        return ""
    if not isinstance(value, str) or not _COLOUR.match(value):
        raise _fail(where, f"field 'colour' must be a colour like \"#1a7f37\", got {value!r}")
    return value


def _bool(where: str, d: dict, key: str, default: bool | None = None) -> bool:
    value = d.get(key, default)
    if not isinstance(value, bool):
        raise _fail(where, f"field {key!r} must be true or false, got {value!r}")
    return value


def _aliases(where: str, d: dict) -> tuple[str, ...]:
    """The entry's `aliases`: a list of names (text), none empty."""
    value = d.get("aliases")
    if value is None:
        return ()
    if not (isinstance(value, list) and all(isinstance(v, str) and name_key(v) for v in value)):
        raise _fail(where, "field 'aliases' must be a list of names (text with a letter or digit)")
    return tuple(value)


def _sources(where: str, d: dict, key: str = "source") -> tuple[str, ...]:
    value = d.get(key)
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise _fail(where, f"field {key!r} must be text or a list of text")


# the figures of a hardware entry a source can state, by their YAML names (dense rates: one per precision)
_RATES = "dense_TFLOP_per_s"
# a figure's Hardware attribute, its datasheet unit in SI and the unit's symbol (what the YAML wrote, read back)
_FIGURE_UNITS = {
    "memory_GB": ("memory_bytes", GB, "GB"),
    "memory_bandwidth_TB_per_s": ("memory_bandwidth_bytes_per_s", TB_per_s, "TB/s"),
    "tdp_W": ("tdp_w", 1.0, "W"),
    "scale_up_GB_per_s": ("interconnect_bytes_per_s", GB_per_s, "GB/s"),
    "interconnect_GB_per_s": ("interconnect_bytes_per_s", GB_per_s, "GB/s"),
    "scale_up_domain_gpus": ("scale_up_domain_gpus", 1.0, ""),
    "rack_gpus": ("rack_gpus", 1.0, ""),
    "scale_up_latency_us": ("scale_up_latency_s", us, "µs"),
    "scale_out_Gbit_per_s": ("scale_out_bytes_per_s", Gbit_per_s, "Gb/s"),
    "scale_out_latency_us": ("scale_out_latency_s", us, "µs"),
    "memory_reported_GiB": ("memory_reported_bytes", GiB, "GiB"),
    "launch_year": ("launch_year", 1.0, ""),
}


def figure_value(hw: Hardware, name: str) -> tuple[float, str]:
    """(value, unit) of one figure of a hardware entry in its datasheet unit, as the catalog wrote it."""
    if name.startswith(_RATES + "."):
        return hw.dense_flop_per_s[name.split(".", 1)[1]] / TFLOP_per_s, "TFLOP/s"
    attr, scale, unit = _FIGURE_UNITS[name]
    return float(getattr(hw, attr)) / scale, unit


def _figure_order(precisions) -> list[str]:
    names = list(_FIGURE_UNITS)
    return names[:2] + [f"{_RATES}.{p}" for p in precisions] + names[2:]


def _given_figures(d: dict) -> list[str]:
    """The figures a hardware entry gives (YAML names; 'dense_TFLOP_per_s.fp8' per precision), in catalog order."""
    rates = d.get(_RATES) if isinstance(d.get(_RATES), dict) else {}
    return [k for k in _figure_order(rates) if k in _FIGURE_UNITS and d.get(k) is not None or k.startswith(_RATES)]


def hardware_figures(hw: Hardware) -> list[str]:
    """Every figure a chip gives (YAML names, the older interconnect_GB_per_s as scale_up_GB_per_s), in catalog order:
    the keys of field_sources and derived, once the entry cites per figure."""
    order = [k for k in _figure_order(hw.dense_flop_per_s) if k != "interconnect_GB_per_s"]
    return [k for k in order if k.startswith(_RATES) or getattr(hw, _FIGURE_UNITS[k][0]) is not None]


def _cited_sources(where: str, d: dict, key: str) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
    """A source list whose lines are text or {cite: text, fields: [figures it states]}: (the lines, figure -> lines).
    'dense_TFLOP_per_s' in fields stands for every precision the entry rates."""
    value = d.get(key)
    items = [value] if isinstance(value, (str, dict)) else value if isinstance(value, list) else None
    if value is None:
        return (), {}
    if items is None:
        raise _fail(where, f"field {key!r} must be text or a list of text or of {{cite, fields}} mappings")
    given = _given_figures(d)
    lines: list[str] = []
    by_field: dict[str, list[str]] = {}
    for i, item in enumerate(items, 1):
        if isinstance(item, str):
            lines.append(item)
            continue
        if not isinstance(item, dict) or set(item) != {"cite", "fields"} or not isinstance(item["cite"], str):
            raise _fail(where, f"{key} line {i}: expected text or a mapping with 'cite' (text) and 'fields' (a list)")
        fields = item["fields"]
        if not isinstance(fields, list) or not fields or not all(isinstance(f, str) for f in fields):
            raise _fail(where, f"{key} line {i}: 'fields' must be a non-empty list of figure names")
        lines.append(item["cite"])
        for name in fields:
            named = [g for g in given if g == name or g.startswith(name + ".")] if name == _RATES else [name]
            if not set(named) <= set(given):
                raise _fail(
                    where, f"{key} line {i}: {name!r} is not a figure of this entry (it has: {', '.join(given)})"
                )
            for g in named:
                by_field.setdefault(g, []).append(item["cite"])
    return tuple(lines), {k: tuple(v) for k, v in by_field.items()}


def _field_sources(
    where: str, d: dict, *cited: dict[str, tuple[str, ...]]
) -> tuple[dict[str, tuple[str, ...]], dict[str, str]]:
    """(figure -> the source lines stating it, figure -> how it was derived). Once an entry cites per figure, every
    figure it gives must be cited or derived."""
    derived = d.get("derived") or {}
    if not isinstance(derived, dict) or not all(isinstance(v, str) and v.strip() for v in derived.values()):
        raise _fail(where, "field 'derived' must map figure names to how each was derived (text)")
    given = _given_figures(d)
    for name in derived:
        if name not in given:
            raise _fail(where, f"derived: {name!r} is not a figure of this entry (it has: {', '.join(given)})")
    by_field: dict[str, tuple[str, ...]] = {}
    for part in cited:
        for k, v in part.items():
            by_field[k] = by_field.get(k, ()) + v
    if (by_field or derived) and (missing := [g for g in given if g not in by_field and g not in derived]):
        raise _fail(where, f"figure {missing[0]!r} has no source line naming it in 'fields' and no 'derived' entry")
    name = {"interconnect_GB_per_s": "scale_up_GB_per_s"}  # the older YAML name: one figure, one name
    return (
        {name.get(g, g): by_field[g] for g in given if g in by_field},
        {name.get(g, g): str(derived[g]) for g in given if g in derived},
    )


def _estimated(where: str, d: dict) -> tuple[str, ...]:
    """The entry's `estimated`: the figures it gives that are estimates, not published (YAML names; plain
    'dense_TFLOP_per_s' is every rate), in catalog order."""
    value = d.get("estimated")
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        got = shown(repr(value), 60, quote=False)
        raise _fail(where, f"field 'estimated' must be a list of figure names, e.g. [tdp_W], got {got}")
    given = _given_figures(d)
    named = set()
    for name in value:
        figures = [g for g in given if g.startswith(name + ".")] if name == _RATES else [name]
        if not figures or not set(figures) <= set(given):
            raise _fail(where, f"estimated: {name!r} is not a figure of this entry (it has: {', '.join(given)})")
        named |= set(figures)
    rename = {"interconnect_GB_per_s": "scale_up_GB_per_s"}  # the older YAML name: one figure, one name
    return tuple(rename.get(g, g) for g in given if g in named)


def _positive(where: str, key: str, value: float) -> None:
    if not value > 0:
        raise _fail(where, f"field {key!r} must be positive, got {value:g}")


_WHOLE_FIGURES = {"scale_up_domain_gpus", "rack_gpus", "launch_year"}


def _hardware_field_problems(where: str, d: dict) -> list[str]:
    """Every field of a hardware entry that is not a number of the right kind, or out of range (_figure_problems),
    one message per field; the values checked in the file's own units."""
    out, figures = [], {}
    for key in _FIGURE_UNITS:
        if d.get(key) is not None:
            try:
                figures[key] = (integer_field if key in _WHOLE_FIGURES else _number)(where, d, key)
            except CatalogError as e:
                out.append(str(e))
    rates = d.get(_RATES)
    if rates is not None and not isinstance(rates, dict):
        out.append(f"{where}: field {_RATES!r} must be a mapping of precision to TFLOP/s")
    for k in rates if isinstance(rates, dict) else ():
        try:
            figures[f"{_RATES}.{k}"] = _number(where, rates, k, f"{_RATES}.")
        except CatalogError as e:
            out.append(str(e))
    try:
        if d.get("price_usd_per_hour") is not None:
            figures["price_usd_per_hour"] = _number(where, d, "price_usd_per_hour")
        if d.get("name") is not None:
            _text(where, d, "name")
    except CatalogError as e:
        out.append(str(e))
    if not isinstance(rates, dict):  # missing or not a mapping: said once above, not again as 'must list bf16'
        return out + _figure_problems(where, figures, ("bf16",))
    return out + _figure_problems(where, figures, rates.keys())


def _figure_problems(where: str, figures: dict[str, float], precisions=None) -> list[str]:
    """The range problems of a chip's figures (YAML names -> values in their datasheet units: 'memory_GB',
    'dense_TFLOP_per_s.bf16', 'price_usd_per_hour'...), one message per figure quoting its value as the file writes it:
    every figure positive, memory, bandwidth and rates within a chip's (a figure in the wrong unit named), the reported
    memory near the datasheet's, the dense rates (`precisions`; default: those in `figures`) known precisions, bf16 or
    fp16 among them."""
    out = []
    if precisions is None:
        precisions = [k.split(".", 1)[1] for k in figures if k.startswith(_RATES + ".")]
    if not {"bf16", "fp16"} & set(precisions):
        out.append(f"{where}: field '{_RATES}' must list bf16 or fp16 (attention and norms run at 16 bits)")
    for key, value in figures.items():
        if key.startswith(_RATES + ".") and (p := key.split(".", 1)[1]) not in COMPUTE_PRECISIONS:
            out.append(f"{where}: {_RATES}: unknown precision {p!r}")
        elif key != "launch_year" and not value > 0:
            out.append(f"{where}: field {key!r} must be positive, got {value:g}")
        elif problem := _figure_range(key, value, figures):
            out.append(f"{where}: field {key!r} {problem}")
    return out


def _figure_range(key: str, v: float, figures: dict[str, float]) -> str | None:
    """What is wrong with one positive figure's size (a figure in the wrong unit named), None if nothing."""
    if key == "memory_GB" and v > MAX_MEMORY_GB:  # 1e30 GB had printed a 34-digit max batch
        hint = f": a MiB figure? ({v:g} MiB = {v * 2**20 / GB:.4g} GB)" if v * 2**20 / GB <= MAX_MEMORY_GB else ""
        return f"must be at most {MAX_MEMORY_GB:,.0f} (GB per chip), got {v:g}{hint}"
    if key == "memory_bandwidth_TB_per_s" and v < MIN_BANDWIDTH_TB_PER_S:  # 1e-30: a 22-digit TPOT
        return f"must be at least {MIN_BANDWIDTH_TB_PER_S:g} (TB/s per chip: 1 GB/s), got {v:g}"
    if key == "memory_bandwidth_TB_per_s" and v > MAX_BANDWIDTH_TB_PER_S:  # a GB/s figure, typed in TB/s
        return (f"must be at most {MAX_BANDWIDTH_TB_PER_S:g} (TB/s per chip), got {v:g}: a GB/s figure? ({v:g} GB/s = "
                f"{v / 1000:g} TB/s)")  # fmt: skip
    if key == "tdp_W" and v > MAX_TDP_W:  # an NVL72 rack's 120 kW typed as one GPU's (every J/token 60x too high)
        return (f"must be at most {MAX_TDP_W:,.0f} (W per chip), got {v:g}: a server's or a rack's power? (tdp_W is "
                "one chip's board power: divide by its chips)")  # fmt: skip
    if key.startswith(_RATES + ".") and v > MAX_TFLOP_PER_S:  # a GFLOP/s figure typed in TFLOP/s
        return (f"must be at most {MAX_TFLOP_PER_S:,.0f} (dense TFLOP/s per chip), got {v:g}: a GFLOP/s figure? "
                f"({v:g} GFLOP/s = {v / 1000:g} TFLOP/s)")  # fmt: skip
    gb = figures.get("memory_GB", 0.0)
    if (
        key == "memory_reported_GiB"
        and 0 < gb <= MAX_MEMORY_GB
        and not (REPORTED_MEMORY_SHARE[0] <= v * GiB / (gb * GB) <= REPORTED_MEMORY_SHARE[1])
    ):  # nvidia-smi's MiB figure in the GiB field had made 87,574 GB usable on an 80 GB chip
        hint = f": a MiB figure? ({v:g} MiB = {v / 1024:.4g} GiB)" if v / 1024 * GiB <= 2 * gb * GB else ""
        return (f"must be {REPORTED_MEMORY_SHARE[0]:g} to {REPORTED_MEMORY_SHARE[1]:g} times memory_GB ({gb:g} GB = "
                f"{gb * GB / GiB:.4g} GiB), as the vendor's tool reports the datasheet's memory; got {v:g}{hint}")  # fmt: skip
    return None


# --------------------------------------------------------------------------------------------------- all problems


def entry_problems(kind: str, text: str, where: str) -> tuple[Any, list[str]]:
    """(the Hardware / ModelSpec or None, every problem found) of a user's hardware or model file, read as the CLI
    reads a --hardware / --model file."""
    try:
        return (hardware_from_text if kind == "hardware" else model_from_text)(text, where), []
    except CatalogError as e:
        return None, e.problems
