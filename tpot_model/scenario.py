"""A deployment scenario: what runs, how many sequences, how long, on how many GPUs. Numeric fields may be arrays."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

import numpy as np

from .precision import FORMATS, NumberFormat, parse_format
from .prices import DEFAULT_BASIS, PRICE_BASES

PARALLELISMS = ("tp", "tp-ep", "dp-ep")
BATCHINGS = ("static", "continuous")


def _as_array(name: str, value: object, minimum: float) -> np.ndarray:
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if arr.size == 0:
        raise ValueError(f"{name} is empty")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite, got {value!r}")
    if np.any(arr < minimum):
        raise ValueError(f"{name} must be >= {minimum:g}, got {arr.min():g}")
    return arr


MAX_INPUT_COUNT = 100_000_000  # the most a batch or token count typed in takes (past every model's window: a typo)


@dataclass(frozen=True, eq=False)
class Scenario:
    """Batch (concurrent sequences), tokens in the KV cache when decoding starts, tokens to generate, GPU count,
    number formats. batch, context_tokens, output_tokens and num_gpus broadcast against each other.

    parallelism: how the GPUs split the model. "tp": tensor parallel everywhere; "tp-ep": tensor-parallel attention,
    expert-parallel MoE layers (each GPU holds E/N whole experts); "dp-ep": data-parallel attention (each GPU holds
    all the attention weights and the KV cache of its own sequences), expert-parallel MoE layers. EP applies to MoE
    layers only: a dense model's MLP stays tensor parallel under tp-ep and is replicated under dp-ep.
    batching: "static" (one batch of `batch` sequences decoding together: the dashboard's decode step) or
    "continuous" (the steady state of a server with `batch` requests in flight, each with a `context_tokens`
    prompt and `output_tokens` to generate; arriving prompts are prefilled in chunks between the decode steps;
    see serving.py)."""

    batch: np.ndarray | float = 1
    context_tokens: np.ndarray | float = 0
    output_tokens: np.ndarray | float = 1
    num_gpus: np.ndarray | float = 1
    weights: NumberFormat = field(default_factory=lambda: FORMATS["bf16"])
    kv_cache: NumberFormat = field(default_factory=lambda: FORMATS["bf16"])
    compute: str | None = None  # None: the weight format's own compute precision
    price_usd_per_gpu_hour: float | None = None  # the user's own $/GPU-hour (basis "custom"); None: price_basis's
    parallelism: str = "tp"  # one of PARALLELISMS
    batching: str = "static"  # one of BATCHINGS
    price_basis: str = DEFAULT_BASIS  # one of PRICE_BASES: which of the chip's prices (data/prices.yaml) applies
    # the engine as of this ISO date (YYYY-MM-DD): its profile's dated history (EfficiencyProfile.as_of); None: newest
    as_of: str | None = None
    # the model's speculative draft head is loaded (its MTP modules: roofline.draft_head_params): its weights count
    draft_head: bool = False

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "batch", np.floor(_as_array("batch", self.batch, 1)))
        set_(self, "context_tokens", np.floor(_as_array("context_tokens", self.context_tokens, 0)))
        set_(self, "output_tokens", np.floor(_as_array("output_tokens", self.output_tokens, 1)))
        set_(self, "num_gpus", np.floor(_as_array("num_gpus", self.num_gpus, 1)))
        for name in ("weights", "kv_cache"):
            value = getattr(self, name)
            if not isinstance(value, NumberFormat):
                set_(self, name, parse_format(value))
        if self.price_usd_per_gpu_hour is not None and not (
            np.isfinite(self.price_usd_per_gpu_hour) and self.price_usd_per_gpu_hour >= 0
        ):
            raise ValueError(f"price must be a non-negative number, got {self.price_usd_per_gpu_hour!r}")
        if self.price_usd_per_gpu_hour is not None and np.ndim(self.price_usd_per_gpu_hour) == 0:
            set_(self, "price_usd_per_gpu_hour", float(self.price_usd_per_gpu_hour) + 0.0)  # -0 is 0 ('$-0.00' printed)
        if self.price_basis not in PRICE_BASES:
            raise ValueError(f"price basis must be one of {', '.join(PRICE_BASES)}, got {self.price_basis!r}")
        if self.as_of is not None:
            try:
                set_(self, "as_of", datetime.date.fromisoformat(str(self.as_of)).isoformat())
            except ValueError:
                raise ValueError(f"as_of must be an ISO date (YYYY-MM-DD), got {self.as_of!r}") from None
        if self.parallelism not in PARALLELISMS:
            raise ValueError(f"parallelism must be one of {', '.join(PARALLELISMS)}, got {self.parallelism!r}")
        if self.batching not in BATCHINGS:
            raise ValueError(f"batching must be one of {', '.join(BATCHINGS)}, got {self.batching!r}")

    @property
    def compute_requested(self) -> str:
        return self.compute or self.weights.compute
