"""Small statistics for latency samples (nearest-rank percentiles, in milliseconds)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of already sorted values (q in 0..100)."""
    if not sorted_values:
        return float("nan")
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def summary_ms(seconds: Sequence[float], digits: int = 3) -> dict[str, float | int]:
    """p50/p90/p99/max/mean of samples given in seconds, as milliseconds."""
    values = sorted(seconds)
    if not values:
        return {"n": 0}
    return {"n": len(values),
            "p50_ms": round(percentile(values, 50) * 1000, digits),
            "p90_ms": round(percentile(values, 90) * 1000, digits),
            "p99_ms": round(percentile(values, 99) * 1000, digits),
            "max_ms": round(values[-1] * 1000, digits),
            "mean_ms": round(sum(values) / len(values) * 1000, digits)}
