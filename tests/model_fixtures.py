"""Tiny hand-built models and accelerators, in code, so that catalog edits never break the model tests.

Every shape here is small enough to count by hand; the tests derive their expected values from these numbers, not
from the code under test. Importing this module also puts the repository root on ``sys.path`` (the project is not
installed into the venv), so test modules import it before ``tpot_model``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dataclasses import replace  # noqa: E402

from tpot_model.catalog import (  # noqa: E402
    MLA,
    CompressedAttention,
    Hardware,
    LinearAttention,
    ModelSpec,
    MoE,
    SlidingWindow,
    SparseAttention,
)

# --------------------------------------------------------------------------------------------------- models

# Dense GQA: L=2, D=64, H=4, K=2, h=16, F=128, V=100, SwiGLU, untied.
#   attention per layer: q 64*64 + k 64*32 + v 64*32 + o 64*64 = 12,288
#   MLP per layer: 3*64*128 = 24,576
#   norms: (2*2 + 1)*64 = 320; embedding 100*64 = 6,400; LM head 6,400
#   total = 2*(12,288 + 24,576) + 320 + 6,400 + 6,400 = 86,848
TINY_L, TINY_D, TINY_H, TINY_K, TINY_HD, TINY_F, TINY_V = 2, 64, 4, 2, 16, 128, 100
TINY_ATTN_PER_LAYER = 12_288
TINY_MLP_PER_LAYER = 24_576
TINY_NORMS = 320
TINY_EMBED = 6_400
TINY_TOTAL = 86_848
TINY_KV_PER_TOKEN_PER_LAYER_ELEMS = 2 * TINY_K * TINY_HD  # K and V: 64 elements per token per layer


def tiny_dense(**overrides) -> ModelSpec:
    fields = dict(
        id="tiny-dense",
        name="Tiny dense",
        num_layers=TINY_L,
        d_model=TINY_D,
        num_heads=TINY_H,
        num_kv_heads=TINY_K,
        head_dim=TINY_HD,
        d_ff=TINY_F,
        vocab_size=TINY_V,
        tied_embeddings=False,
        mlp="swiglu",
        max_context_tokens=1_000_000,
    )
    fields.update(overrides)
    return ModelSpec(**fields)


TINY_DENSE = tiny_dense()
TINY_TIED = tiny_dense(id="tiny-tied", tied_embeddings=True)

# MoE: the dense shape above with every MLP replaced by 8 experts of d_ff 32, top-2.
#   one expert: 3*64*32 = 6,144 parameters; router 64*8 = 512 per layer
TINY_MOE_E, TINY_MOE_K, TINY_MOE_FF = 8, 2, 32
TINY_EXPERT_PARAMS = 3 * TINY_D * TINY_MOE_FF
TINY_ROUTER_PER_LAYER = TINY_D * TINY_MOE_E
TINY_MOE = tiny_dense(id="tiny-moe", moe=MoE(TINY_MOE_E, TINY_MOE_K, TINY_MOE_FF))

# Sliding window: one of the two layers attends to the last 16 tokens only; and a model whose every layer does.
TINY_WINDOW_W = 16
TINY_WINDOW = tiny_dense(id="tiny-window", sliding_window=SlidingWindow(TINY_WINDOW_W, 1))
TINY_ALL_WINDOW = tiny_dense(id="tiny-all-window", sliding_window=SlidingWindow(TINY_WINDOW_W, 2))

# MLA: latent 32 + rope key 8 cached per layer per token; K = H (as the catalog stores DeepSeek).
TINY_MLA_LORA, TINY_MLA_ROPE = 32, 8
TINY_MLA = tiny_dense(
    id="tiny-mla",
    num_kv_heads=TINY_H,
    head_dim=24,
    mla=MLA(
        q_lora_rank=0, kv_lora_rank=TINY_MLA_LORA, qk_nope_head_dim=16, qk_rope_head_dim=TINY_MLA_ROPE, v_head_dim=16
    ),
)

# Hybrid linear attention: 4 layers, 3 Gated DeltaNet + 1 full attention.
#   recurrent state per layer 4 V-heads * 16 * 16 = 1,024; conv state (2*2*16 + 4*16) * (4 - 1) = 384
TINY_HYBRID = tiny_dense(
    id="tiny-hybrid",
    num_layers=4,
    linear_attention=LinearAttention(
        num_layers=3, num_key_heads=2, key_head_dim=16, num_value_heads=4, value_head_dim=16, conv_kernel=4
    ),
)
TINY_HYBRID_STATE_ELEMS = 3 * (1_024 + 384)

# DeepSeek Sparse Attention on TINY_MLA: an indexer of 2 heads x 4 scoring every cached token, attention to the top 16.
#   index key cached per token and layer: 4 elements (beside the 32 + 8 latent); indexer parameters per layer (no query
#   latent, so the indexer query comes from d_model): 64*2*4 + 64*4 + 2*4 (LayerNorm) + 64*2 = 904
TINY_DSA_HEADS, TINY_DSA_DIM, TINY_DSA_TOPK = 2, 4, 16
TINY_DSA_INDEXER_PARAMS = 904
TINY_DSA = replace(
    TINY_MLA, id="tiny-dsa", sparse_attention=SparseAttention(TINY_DSA_HEADS, TINY_DSA_DIM, TINY_DSA_TOPK)
)

# Chunked local attention (Llama 4): one of the two layers attends within 16-token chunks.
TINY_CHUNKED = tiny_dense(id="tiny-chunked", sliding_window=SlidingWindow(TINY_WINDOW_W, 1, chunked=True))

# DeepSeek-V4 compressed attention: 3 layers (1 CSA, 1 HCA, 1 window only), 4 query heads of 16 on one shared entry.
#   CSA caches (16 + 4) / 4 elements per token, HCA 16 / 16: 6 per token over the layers; each layer keeps a 4-token
#   window of 16-element entries (3 x 4 x 16 = 192 elements once T >= 4).
#   attention parameters: per layer q 64*8 + 8 + 8*4*16 = 1,032, entry 64*16 + 16 + 4 sinks = 1,044, output
#   4*16*8 + 2*8*64 = 1,536 (x 3 = 10,836); CSA compressor 2*64*2*16 + 4*2*16 + 16 = 4,240 and indexer 8*2*4 + 64*2 +
#   (2*64*2*4 + 4*2*4 + 4) = 1,252; HCA compressor 2*64*16 + 16*16 + 16 = 2,320: 18,648 in all
TINY_V4 = tiny_dense(
    id="tiny-v4",
    num_layers=3,
    num_kv_heads=1,
    compressed_attention=CompressedAttention(
        q_lora_rank=8,
        o_groups=2,
        o_lora_rank=8,
        window_tokens=4,
        csa_layers=1,
        csa_compression=4,
        hca_layers=1,
        hca_compression=16,
        index_heads=2,
        index_head_dim=4,
        top_k_tokens=8,
    ),
)
TINY_V4_ATTENTION_PARAMS = 18_648

# --------------------------------------------------------------------------------------------------- hardware

TOY_BW = 1.0e12  # B/s
TOY_BF16 = 1.0e14  # FLOP/s -> ridge point 100 FLOP/B
TOY_LINK = 1.0e11  # B/s per direction
TOY_TDP = 400.0
TOY_PRICE = 2.0

TOY_GPU = Hardware(
    id="toy-gpu",
    name="Toy GPU",
    memory_bytes=10e9,
    memory_bandwidth_bytes_per_s=TOY_BW,
    dense_flop_per_s={"bf16": TOY_BF16, "fp16": TOY_BF16, "fp8": 2 * TOY_BF16},
    tdp_w=TOY_TDP,
    interconnect_bytes_per_s=TOY_LINK,
    price_usd_per_hour=TOY_PRICE,
)

TOY_GPU_NO_PRICE = Hardware(
    id="toy-gpu-no-price",
    name="Toy GPU without a price",
    memory_bytes=10e9,
    memory_bandwidth_bytes_per_s=TOY_BW,
    dense_flop_per_s={"bf16": TOY_BF16},
    tdp_w=TOY_TDP,
    interconnect_bytes_per_s=TOY_LINK,
)


def legend_below(legend) -> bool:
    """A legend in rows under the plot and its axis title, as ui.figures.common.legend_placement lays it out: pinned to
    the figure's bottom edge, Plotly's bottom margin holding it at any width."""
    return (legend.orientation, legend.yref, legend.yanchor, legend.y) == ("h", "container", "bottom", 0)
