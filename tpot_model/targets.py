"""TPOT targets analysts judge a deployment against (seconds per output token), strictest first."""

from .units import ms

TPOT_TARGETS_S = {
    "code_completion": 30 * ms,
    "chat": 50 * ms,
    "agents": 80 * ms,
    "batch_jobs": 200 * ms,
}
READING_SPEED_TPOT_S = 1 / 5.6  # ~250 words/min read = ~4.2 words/s = ~5.6 tokens/s at ~1.33 tokens/word
LAGGY_ABOVE_S = 200 * ms


def targets_met(tpot_s: float) -> dict[str, bool]:
    """Which targets a TPOT meets."""
    return {name: tpot_s <= limit for name, limit in TPOT_TARGETS_S.items()}
