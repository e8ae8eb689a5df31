"""Number formats: storage bits per element for weights and KV cache, and the compute precision math runs at.

A weight format names what is stored (including block scales: GGUF q4_0 stores 4.5 bits per weight) and which
compute precision its matrix multiplies use by default (W4A16 runs at the fp16 rate, W8A8-FP8 at the fp8 rate).
"""

from __future__ import annotations

from dataclasses import dataclass

COMPUTE_PRECISIONS = ("fp32", "tf32", "bf16", "fp16", "fp8", "int8", "fp4")

# When the hardware lacks a compute precision, math falls back to the next one in this chain.
_COMPUTE_FALLBACK = {
    "fp4": ("fp4", "bf16", "fp16", "fp32"),  # without FP4 units, FP4 weights are dequantized to bf16
    "fp8": ("fp8", "bf16", "fp16", "fp32"),
    "int8": ("int8", "bf16", "fp16", "fp32"),
    "bf16": ("bf16", "fp16", "fp32"),
    "fp16": ("fp16", "bf16", "fp32"),
    "tf32": ("tf32", "fp32", "bf16", "fp16"),
    "fp32": ("fp32", "tf32", "bf16", "fp16"),
}


@dataclass(frozen=True)
class NumberFormat:
    """A storage format: bits per element (block scales included) and the compute precision it implies."""

    name: str
    bits: float
    compute: str
    description: str

    @property
    def bytes_per_element(self) -> float:
        return self.bits / 8.0


# GPTQ/AWQ int4 with group size 128: 4 bits + an fp16 scale and a 4-bit zero point per 128 weights.
_GPTQ_BITS = 4 + (16 + 4) / 128

FORMATS: dict[str, NumberFormat] = {
    f.name: f
    for f in (
        NumberFormat("fp32", 32, "fp32", "IEEE single precision"),
        NumberFormat("bf16", 16, "bf16", "bfloat16"),
        NumberFormat("fp16", 16, "fp16", "IEEE half precision"),
        NumberFormat("fp8", 8, "fp8", "FP8 (E4M3) weights and activations: W8A8 at the fp8 rate"),
        NumberFormat("int8", 8, "int8", "INT8 weights and activations (W8A8) at the int8 rate"),
        NumberFormat("int8-wo", 8, "bf16", "INT8 weight-only (W8A16): math at the bf16 rate"),
        NumberFormat("int4", 4, "bf16", "INT4 weight-only (W4A16), scales ignored: math at the bf16 rate"),
        NumberFormat("gptq-int4", _GPTQ_BITS, "bf16", "GPTQ int4, group 128 (fp16 scale + 4-bit zero per group)"),
        NumberFormat("awq-int4", _GPTQ_BITS, "bf16", "AWQ int4, group 128 (fp16 scale + 4-bit zero per group)"),
        NumberFormat("fp4", 4, "fp4", "FP4 (E2M1): estimate takes the chip's block format (native_fp4)"),
        NumberFormat("nvfp4", 4.5, "fp4", "NVFP4: E2M1 + one FP8 scale per 16 values (4.5 bits)"),
        NumberFormat("mxfp4", 4.25, "fp4", "MXFP4: E2M1 + one 8-bit scale per 32 values (4.25 bits)"),
        NumberFormat("q8_0", 8.5, "bf16", "GGUF Q8_0: 8 bits + fp16 scale per 32 (8.5 bits)"),
        NumberFormat("q6_k", 6.5625, "bf16", "GGUF Q6_K (6.5625 bits)"),
        NumberFormat("q5_k_m", 5.69, "bf16", "GGUF Q5_K_M (~5.69 bits, mixed)"),
        NumberFormat("q4_k_m", 4.85, "bf16", "GGUF Q4_K_M (~4.85 bits, mixed)"),
        NumberFormat("q4_0", 4.5, "bf16", "GGUF Q4_0: 4 bits + fp16 scale per 32 (4.5 bits)"),
        NumberFormat("q3_k_m", 3.91, "bf16", "GGUF Q3_K_M (~3.91 bits, mixed)"),
        NumberFormat("q2_k", 2.63, "bf16", "GGUF Q2_K (~2.63 bits, mixed)"),
    )
}


def native_fp4(vendor: str) -> NumberFormat:
    """The block FP4 format a chip's vendor runs: MXFP4 (E2M1 + an 8-bit scale per 32 values, 4.25 bits) on AMD,
    NVFP4 (E2M1 + an FP8 scale per 16, 4.5 bits) otherwise. Bare 'fp4' (4.0 bits, no scales) stands for it: real
    FP4 weights and caches always carry block scales."""
    return FORMATS["mxfp4"] if vendor.strip().upper() == "AMD" else FORMATS["nvfp4"]


def with_native_fp4(fmt: NumberFormat, vendor: str) -> NumberFormat:
    """`fmt`, or the vendor's block FP4 format (native_fp4) when it is bare 'fp4'."""
    return native_fp4(vendor) if fmt.name == "fp4" else fmt


KV_FORMATS = ("fp32", "bf16", "fp16", "fp8", "int8", "int4", "fp4", "nvfp4", "mxfp4")


def parse_format(text: str | float | int) -> NumberFormat:
    """A format by name ('fp8', 'q4_k_m') or by bits ('5.5', 4.5): raises ValueError naming the bad value."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        bits = float(text)
    else:
        key = str(text).strip().lower()
        if key in FORMATS:
            return FORMATS[key]
        try:
            bits = float(key.removesuffix("bit").removesuffix("bits").strip())
        except ValueError:
            known = ", ".join(FORMATS)
            raise ValueError(f"unknown precision {text!r} (known: {known}, or a number of bits)") from None
    if not 1.0 <= bits <= 32.0:
        raise ValueError(f"bits per element must be between 1 and 32, got {text!r}")
    # A bare bit count is taken as weight-only quantization: the math runs at the bf16 rate.
    return NumberFormat(f"{bits:g}-bit", bits, "bf16", f"{bits:g} bits per element, weight-only")


def resolve_compute(requested: str, available: dict[str, float]) -> str:
    """The compute precision actually used: the requested one if the hardware has it, else its fallback."""
    if requested not in _COMPUTE_FALLBACK:
        raise ValueError(f"unknown compute precision {requested!r} (known: {', '.join(COMPUTE_PRECISIONS)})")
    for candidate in _COMPUTE_FALLBACK[requested]:
        if candidate in available:
            return candidate
    return next(iter(available))
