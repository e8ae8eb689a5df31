"""The inference engines calibration knows: their profile ids and file order, names and descriptions, the values
documented for engines without measurements (with the reason for each), and the engines' release periods where the
measurements show their speed changed.

Facts about engines only: the fits themselves are in calibration.py (batch-1 decode) and serving_calibration.py.
"""

from __future__ import annotations

import difflib
from dataclasses import replace

from .profiles import EfficiencyProfile
from .units import GiB

# The profiles.yaml entries calibrate maintains, in file order. `ideal` and `typical` are never rewritten.
PROFILE_ORDER = (
    "ideal",
    "typical",
    "llama.cpp",
    "vllm",
    "tensorrt-llm",
    "sglang",
    "atom",
    "gpt-fast",
    "exllamav2",
    "mlc-llm",
)

# profile id -> (name, description)
ENGINES = {
    "llama.cpp": (
        "llama.cpp",
        "llama.cpp's llama-bench. Current values: CUDA builds of September-December 2025 with flash attention "
        "on, fitted to llama.cpp's own pull-request tables and DGX Spark benchmark page and a public RTX PRO 6000 "
        "run (RTX 3090 to RTX PRO 6000, DGX Spark; Llama, Qwen2.5, gpt-oss); its history holds the "
        "builds of May 2024 (flash attention off: a fixed ~2 ms per token of host and launch work, GEMV kernels "
        "that stop near 1.2 TB/s on HBM devices, attention that reads the KV cache once per query head).",
    ),
    "vllm": ("vLLM", "vLLM (paged attention, CUDA graphs). No measurements yet: documented values."),
    "tensorrt-llm": (
        "TensorRT-LLM",
        "TensorRT-LLM (C++ runtime, fused kernels, in-flight batching). Its per-MoE-layer step cost is fitted to "
        "InferenceX DeepSeek-R1 serving runs on H200 and B200 (with a slower release period before 2026); the "
        "other fields are documented values.",
    ),
    "sglang": (
        "SGLang",
        "SGLang (radix cache, overlapped scheduler). Its per-MoE-layer step cost is fitted to InferenceX "
        "DeepSeek-R1 serving runs on H200, B200 and MI355X (with a slower ROCm image in October 2025); the other "
        "fields are documented values.",
    ),
    "atom": (
        "AMD ATOM",
        "AMD ATOM (ROCm inference engine for Instinct GPUs). Its per-MoE-layer step cost is fitted to InferenceX "
        "DeepSeek-R1 serving runs on MI355X; the other fields are typical's values.",
    ),
    "gpt-fast": (
        "gpt-fast",
        "pytorch-labs/gpt-fast (torch.compile with CUDA graphs, bf16 / int8 / int4 weight-only, tensor parallel).",
    ),
    "exllamav2": ("ExLlamaV2", "ExLlamaV2 (GPTQ and EXL2 2.5-5 bit weights on consumer GPUs)."),
    "mlc-llm": ("MLC LLM", "MLC LLM (TVM-compiled kernels). No measurements yet: documented values."),
}

# The serving engines fitted to measured serving runs on each vendor's chips (data/serving_measurements.csv,
# InferenceX; vLLM's runs there are display-only): the layout search's best engine (BEST) is the faster of them at
# each target, as a measured frontier is the best engine at each point. A vendor without any: `typical`.
BEST = "best"
SERVING_ENGINES: dict[str, tuple[str, ...]] = {"NVIDIA": ("sglang", "tensorrt-llm"), "AMD": ("sglang", "atom")}


def serving_engines(vendor: str) -> tuple[str, ...]:
    """The profile ids the best-engine layout search tries on a chip of this vendor (SERVING_ENGINES, else typical)."""
    return SERVING_ENGINES.get(vendor, ("typical",))


# The fields (SI attributes) of an engine that differ from `typical` by the engine's documentation, with their reason:
# an engine without batch-1 measurements takes them all; a fitted engine those its measurements do not fit (memory).
# Every other field is typical's.
_CUDA_CONTEXT = (
    0.75 * GiB,
    "the CUDA context and kernels a process loads before its first tensor: 723 MiB at discuss.pytorch.org/t/73021, "
    "'~700+ MB' at discuss.pytorch.org/t/81330, rounded up to 0.75 GiB; weights, cache and workspace are allocated as "
    "needed and counted by the model",
)
_AS_NEEDED = (1.0, "allocates its weights, cache and buffers as it needs them: no pool of a fraction of the memory")
DOCUMENTED: dict[str, dict[str, tuple[float, str]]] = {
    "gpt-fast": {"usable_memory_fraction": _AS_NEEDED, "reserved_memory_bytes": _CUDA_CONTEXT},
    "llama.cpp": {"usable_memory_fraction": _AS_NEEDED, "reserved_memory_bytes": _CUDA_CONTEXT},
    "vllm": {
        "usable_memory_fraction": (0.9, "vLLM's default gpu_memory_utilization is 0.9"),
        "kv_gqa_reread_fraction": (
            0.0,
            "decode attention (FlashAttention / FlashInfer paged kernels) reads each KV head once per query-head group",
        ),
    },
    "tensorrt-llm": {
        "kv_gqa_reread_fraction": (0.0, "the XQA / MMHA decode kernels read each KV head once per query-head group"),
        "usable_memory_fraction": (
            0.9,
            "TensorRT-LLM's KvCacheConfig free_gpu_memory_fraction defaults to 0.9: of the memory free once the "
            "weights and activations are loaded (nvidia.github.io/TensorRT-LLM, llm-api KvCacheConfig)",
        ),
    },
    "sglang": {
        "kv_gqa_reread_fraction": (0.0, "FlashInfer / Triton decode kernels read each KV head once per group"),
    },
    "mlc-llm": {
        "kv_gqa_reread_fraction": (0.0, "its paged decode attention reads each KV head once per query-head group"),
    },
}

# The engines whose usable_memory_fraction is of the memory left free once the weights and workspace are loaded (the
# KV-cache pool takes that share of it), not of all the memory as vLLM's gpu_memory_utilization and SGLang's
# mem_fraction_static are: profile id -> the setting (estimate.usable_memory).
OF_FREE_MEMORY = {"tensorrt-llm": "KvCacheConfig free_gpu_memory_fraction"}

# The engines built for one vendor's GPUs only: profile id -> (vendor, why). On another chip their profile's rates are
# a what-if (the pages say so); the other engines run on several vendors' chips.
VENDOR_ONLY = {
    "tensorrt-llm": ("NVIDIA", "NVIDIA's own CUDA library (github.com/NVIDIA/TensorRT-LLM)"),
    "atom": ("AMD", "AMD's ROCm inference engine for Instinct GPUs (github.com/ROCm/ATOM)"),
}


def runs_on(profile_id: str, vendor: str | None) -> bool:
    """Whether the engine runs on this vendor's chips (VENDOR_ONLY; any engine not listed there: yes)."""
    only = VENDOR_ONLY.get(profile_id)
    return only is None or only[0] == vendor


# Checks of documented values against measurements that cannot fit them (not batch-1 dense decode): written in the
# entry's `source` when calibrate first adds it (with the values documented here).
CHECKS: dict[str, str] = {
    "tensorrt-llm": (
        "check, not a fit: its 8 static-batch rows in data/measurements.csv are within 16% for the 7B/13B "
        "single-GPU runs and 2.3-6.4x the published throughput for the 70B multi-GPU runs"
    ),
}

# Engine release periods where the serving measurements show the engine's fixed per-step cost changed: profile id ->
# ((until, note), ...), `until` the first release of the current generation in the data (an ISO date).
RELEASE_PERIODS: dict[str, tuple[tuple[str, str], ...]] = {
    "llama.cpp": (
        (
            "2025-09-04",
            "llama.cpp builds of May 2024 (b2795-b2843, llama-bench, flash attention off by default): the batch-1 "
            "rows of github.com/XiongjieDai/GPU-Benchmarks-on-LLM-Inference; the current values are fitted to the "
            "builds of September-December 2025 (flash attention on), the first of them dated 2025-09-04",
        ),
    ),
    "sglang": (
        (
            "2025-11-01",
            "SGLang's ROCm image of early October 2025: on MI355X (MXFP4, TP4) its step cost is ~1.8x that of the "
            "2026 images on the same chip, precision and TP size",
        ),
    ),
    "tensorrt-llm": (
        (
            "2026-01-01",
            "TensorRT-LLM 1.1.0rc2 and earlier (runs of Nov-Dec 2025); 1.2.0rc6 (Jan 2026) and 1.3.0rc14 (May 2026) "
            "step faster: H200 FP8 TP8/EP8 at concurrency 8, 16.3 ms in Dec 2025, 14.7 ms in May 2026",
        ),
    ),
}


def unknown_engine(pid: str) -> str | None:
    """Why a measurement row's profile id is not an engine calibration knows (a typo would fit a profile of its
    own), or None for a known id or none."""
    if not pid or pid in ENGINES:
        return None
    near = difflib.get_close_matches(pid, ENGINES, n=1)
    hint = f"did you mean {near[0]!r}? " if near else ""
    return f"unknown engine profile {pid!r} ({hint}known: {', '.join(ENGINES)}; a new engine goes in engines.ENGINES)"


def engine_profile(pid: str, typical: EfficiencyProfile) -> EfficiencyProfile:
    """Typical's values under the engine's id, name and description (the common base every fit starts from)."""
    name, description = ENGINES.get(pid, (pid, ""))
    return replace(typical, id=pid, name=name, description=description, source="")


def documented_profile(pid: str, typical: EfficiencyProfile) -> EfficiencyProfile:
    """An engine without measurements: typical's values except the documented ones (DOCUMENTED)."""
    return replace(engine_profile(pid, typical), **{a: float(v) for a, (v, _) in DOCUMENTED.get(pid, {}).items()})


def documented_reason(pid: str, attr: str) -> str | None:
    """'documented: <why>' when the engine's field has a documented value, else None."""
    documented = DOCUMENTED.get(pid, {})
    return f"documented: {documented[attr][1]}" if attr in documented else None


# Chip families: chips of one family share an architecture and, in practice, the software stack's kernels (the unit
# calibration leaves out in leave-one-chip-family-out, and what a calibration band asks: has this engine been
# measured on this family?). family id -> (name, hardware catalog ids).
CHIP_FAMILIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "ampere": ("NVIDIA Ampere", ("a100-40gb", "a100-40gb-pcie", "a100-80gb-sxm", "a100-80gb-pcie", "rtx-3090")),
    "ada": ("NVIDIA Ada Lovelace", ("l40s", "l4", "rtx-4090")),
    "hopper": ("NVIDIA Hopper", ("h100-sxm", "h100-pcie", "h100-nvl", "h200", "h200-nvl", "h20")),
    "blackwell": ("NVIDIA Blackwell data-centre GPUs", ("b200", "gb200", "b300", "gb300")),
    "blackwell-rtx": ("NVIDIA Blackwell RTX and GB10", ("rtx-5090", "rtx-pro-6000", "rtx-pro-4500", "gb10")),
    "rubin": ("NVIDIA Rubin", ("vr200",)),
    "cdna2": ("AMD CDNA 2", ("mi250x",)),
    "cdna3": ("AMD CDNA 3", ("mi300x", "mi325x")),
    "cdna4": ("AMD CDNA 4", ("mi350x", "mi355x")),
    "cdna5": ("AMD CDNA 5", ("mi455x",)),
    "gaudi": ("Intel Gaudi", ("gaudi2", "gaudi3")),
    "arc-pro": ("Intel Arc Pro Xe2", ("arc-pro-b50", "arc-pro-b60", "arc-pro-b70")),
    "tpu": ("Google TPU", ("tpu-v4", "tpu-v5e", "tpu-v5p", "tpu-v6e", "tpu7x", "tpu-8i", "tpu-8t")),
    "trainium": ("AWS Trainium and Inferentia", ("trainium2", "trainium3", "inferentia2")),
    "apple-m": ("Apple M-series unified memory", ("m2-ultra", "m3-max", "m4-max", "m5-max")),
}
_FAMILY_OF = {hw: fam for fam, (_, ids) in CHIP_FAMILIES.items() for hw in ids}


def chip_family(hardware_id: str) -> str | None:
    """The chip family id of a hardware catalog id (CHIP_FAMILIES); None for a chip outside them (a user's file)."""
    return _FAMILY_OF.get(hardware_id)
