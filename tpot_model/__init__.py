"""Analytical model of LLM decode and prefill speed, memory and cost on accelerators. Pure Python + numpy, SI units.

Typical use::

    from tpot_model import Scenario, estimate, resolve_model, resolve_hardware, resolve_profile
    e = estimate(resolve_model("llama-3.1-70b"), resolve_hardware("h200"),
                 Scenario(batch=[1, 8, 64], context_tokens=4096, num_gpus=2, weights="fp8"),
                 resolve_profile("typical"))
    e.tpot_s, e.breakdown_s, e.usd_per_1M_tokens
"""

from .catalog import (
    CatalogError,
    Hardware,
    ModelSpec,
    load_hardware_catalog,
    load_model_catalog,
    resolve_hardware,
    resolve_model,
)
from .estimate import Estimate, estimate
from .precision import FORMATS, KV_FORMATS, NumberFormat, parse_format
from .profiles import IDEAL, EfficiencyProfile, load_profiles, resolve_profile
from .roofline import BUCKETS, active_params, kv_bytes_per_token, kv_cache_bytes_per_sequence, total_params
from .scenario import Scenario

__all__ = [
    "BUCKETS",
    "FORMATS",
    "IDEAL",
    "KV_FORMATS",
    "CatalogError",
    "EfficiencyProfile",
    "Estimate",
    "Hardware",
    "ModelSpec",
    "NumberFormat",
    "Scenario",
    "active_params",
    "estimate",
    "kv_bytes_per_token",
    "kv_cache_bytes_per_sequence",
    "load_hardware_catalog",
    "load_model_catalog",
    "load_profiles",
    "parse_format",
    "resolve_hardware",
    "resolve_model",
    "resolve_profile",
    "total_params",
]
