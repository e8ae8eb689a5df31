"""KV cache: how big the cache gets with context and batch, how many sequences fit, and what the attention
architecture and the KV precision change."""

import numpy as np
import streamlit as st

from ui import chart, controls, expanders, fmt, metrics, notices
from ui.figures import kv_cache as figs

state = controls.scenario_state()
tr = controls.translator()
est = controls.evaluate(state)
model, hw, s = est.model, est.hardware, est.scenario
tr = fmt.device_tr(hw, tr)  # 'per chip', not 'per GPU', for a TPU or Trainium
kvb = s.kv_cache.bytes_per_element
k = figs.summary(est)
context = fmt.tokens(state.context)
window = figs.window_tokens(model)

st.title(tr("page_kv_cache"))
# the chip's short name: its full one has brackets of its own, and this one sits in brackets
chip = fmt.chip(hw, tr, short=True)
st.markdown(tr("kvc_intro", model=model.name, kv=state.kv, gpus=fmt.gpus(state.gpus), hw=chip))
notices.scenario_notices(est, tr)
notices.fp4_notice(est, state.weights, state.kv, tr)
st.markdown(figs.attention_text(model, kvb, state.gpus, tr=tr))

if model.linear_attention:
    per_token_help = tr("kvc_m_per_token_def_linear", full=model.num_full_attention_layers, kv=state.kv,
                        state=fmt.gb(k.state_bytes))  # fmt: skip
elif model.compressed_attention:  # DeepSeek-V4: the per-token figure is the compressed entries' growth
    recent = float(figs.composition_bytes(model, np.array([window]), kvb)["recent"][0])
    per_token_help = tr("kvc_m_per_token_def_compressed", layers=model.num_layers, kv=state.kv, w=f"{window:,}",
                        recent=fmt.kib_and_bytes(recent))  # fmt: skip
elif window:
    per_token_help = tr("kvc_m_per_token_def_window", kv=state.kv, w=f"{window:,}",
                        growing=fmt.kib_and_bytes(k.growing_bytes_per_token))  # fmt: skip
else:
    per_token_help = tr("kvc_m_per_token_def", layers=model.num_full_attention_layers, kv=state.kv)
with metrics.Row() as row:
    row.metric(
        tr("kvc_m_per_token"),
        figs.kib(k.bytes_per_token),
        # in decimal too, as the per-sequence GB beside it (a review: 160 KiB x 4,096 had not read as 0.671 GB)
        f"{k.bytes_per_token:,.0f} B = {fmt.nbytes(k.bytes_per_token)}",
        delta_color="off",
        delta_arrow="off",
        help=per_token_help,
    )
    row.metric(
        tr("kvc_m_per_seq", context=context),
        fmt.gb(k.per_sequence_bytes),
        help=tr("kvc_m_per_seq_def", context=context),
    )
    row.metric(
        tr("kvc_m_batch", b=fmt.integer(state.batch), context=context),
        fmt.memory(k.batch_bytes),  # '1,407 TB' as Overview says a scenario's memory, not '1,407,375 GB'
        tr("kvc_per_gpu_value", gb=fmt.memory(k.batch_bytes_per_gpu)),
        delta_color="off",
        delta_arrow="off",
        help=tr(
            "kvc_m_batch_def",
            per_gpu=fmt.memory(k.batch_bytes_per_gpu),
            shards=int(k.shards),
            # replicated where split fewer ways than the GPUs (an MLA latent under tensor parallelism: 8 copies on 8
            # GPUs; 'all GPUs together' had read one copy as the node's whole cache)
            copies=tr(
                "kvc_copies",
                devices=fmt.devices(hw, state.gpus, tr),
                n=f"{state.gpus / k.shards:.3g}",
                total=fmt.memory(k.batch_bytes_per_gpu * state.gpus),
            )
            if k.shards < state.gpus
            else "",
            room=fmt.gb(max(k.room_bytes, 0.0)),
        ),
    )
    row.metric(
        tr("kvc_m_max_batch", context=context, output=fmt.tokens(state.output)),
        f"{k.max_batch:,}",
        help=tr(
            "kvc_m_max_batch_def",
            gpus=fmt.gpus(state.gpus),
            hw=hw.name,
            context=context,
            output_tokens=fmt.counted("n_output_tokens", state.output, tr),
        ),
    )
formula, substituted = figs.per_token_formula(model, kvb, tr)
expanders.explain(tr, "kvc_m_per_token", formula, substituted, fmt.kib_and_bytes(k.bytes_per_token))


def scale_option(v: str) -> str:
    return tr(f"kvc_x_{v}")


def composition_option(v: str) -> str:
    return tr(f"kvc_comp_{v}")


controls.linked_view("kv_cache.x_scale", ("log", "linear"), "log", tr=tr, label=tr("kvc_x_scale"), shows=scale_option)
scale = st.radio(
    tr("kvc_x_scale"),
    ["log", "linear"],
    format_func=scale_option,
    key="kv_cache.x_scale",
    horizontal=True,
)
log_x = scale == "log"
contexts = figs.context_grid(model, state.context, log_x=log_x, output_tokens=state.output)

batches = figs.line_batches(state.batch)


def kv_bytes_per_gpu():
    return figs.kv_per_gpu_bytes(model, s, contexts, batches)


def precision_bytes():
    return figs.precision_bytes_per_gpu(model, s, contexts, figs.precision_names(state.kv))


def composition_bytes():
    return figs.composition_bytes(model, contexts, kvb)


chart.figure(  # the sidebar's scenario and the x scale: built once, shared by every reader
    lambda: figs.kv_vs_context(
        contexts,
        batches,
        kv_bytes_per_gpu(),
        k.room_bytes,
        state.context,
        state.batch,
        log_x=log_x,
        max_context_tokens=model.max_context_tokens,
        output_tokens=state.output,
        tr=tr,
    ),
    lambda: figs.kv_vs_context_table(contexts, batches, kv_bytes_per_gpu()),
    "kv-cache-per-gpu",
    tr,
    depends=log_x,
)
st.caption(
    tr(
        # no room: no dashed line is drawn, and 'a batch fits while its line stays under it' fits none (browser review)
        "kvc_size_caption" if k.room_bytes > 0 else "kvc_size_caption_no_room",
        shards=int(k.shards),
        usable=fmt.gb(k.usable_bytes, 2),  # a difference worked out: every term to the same 0.01 GB
        weights=fmt.gb(k.weights_bytes_per_gpu, 2),
        workspace=fmt.gb(k.workspace_bytes_per_gpu, 2),
        room=tr("kvc_room_left", gb=fmt.gb(k.room_bytes, 2)) if k.room_bytes > 0 else fmt.gb(k.room_bytes, 2),
    )
    + fmt.memory_rule(est, tr)
)

left, right = st.columns(2)
with left:
    sweep = controls.evaluate(state, context_tokens=contexts)
    chart.figure(
        lambda: figs.max_batch_vs_context(contexts, sweep.max_batch, state.context, state.batch, log_x=log_x, tr=tr),
        lambda: figs.max_batch_table(contexts, sweep.max_batch),
        "kv-max-batch",
        tr,
        depends=log_x,
    )
    st.caption(tr("kvc_max_batch_caption", output_tokens=fmt.counted("n_output_tokens", state.output, tr)))
with right:
    chart.figure(
        lambda: figs.precision_lines(
            contexts, precision_bytes(), state.kv, k.room_bytes, state.batch, log_x=log_x, tr=tr
        ),
        lambda: figs.precision_table(contexts, precision_bytes()),
        "kv-precision",
        tr,
        depends=log_x,
    )
    st.caption(tr("kvc_prec_caption"))

chart.figure(
    lambda: figs.architecture_bars(figs.attention_variants(model, kvb), model.kind, window, tr=tr),
    lambda: figs.architecture_table(figs.attention_variants(model, kvb), model.kind, tr=tr),
    "kv-architecture",
    tr,
    depends=(),
)
st.caption(figs.architecture_caption(model, tr=tr))
if window or model.linear_attention:
    controls.linked_view("kv_cache.composition", ("log", "linear", "pct"), "log", tr=tr, label=tr("kvc_comp_as"),
                         shows=composition_option)  # fmt: skip
    view = st.radio(
        tr("kvc_comp_as"),
        ["log", "linear", "pct"],
        format_func=composition_option,
        key="kv_cache.composition",
        horizontal=True,
    )
    chart.figure(
        lambda: figs.composition_area(contexts, composition_bytes(), window, log_x=log_x, view=view, tr=tr),
        lambda: figs.composition_table(contexts, composition_bytes()),
        "kv-composition",
        tr,
        depends=(log_x, view),
    )
    st.caption(figs.composition_caption(model, tr=tr))
else:
    st.info(tr("kvc_comp_none", layers=model.num_layers))
