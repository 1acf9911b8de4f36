"""Binomial estimates for make-probabilities: the Wilson score interval.

The Wilson interval (Wilson 1927) is used rather than the normal approximation because it stays
inside [0, 1] and is sensible at 0 or n successes, which are common here (a certain solo, a
hopeless misère).
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # two-sided 95 % quantile of the standard normal


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval ``(low, high)`` for ``successes`` out of ``n`` trials.

    ``n == 0`` gives the uninformative ``(0.0, 1.0)``.
    """
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4 * n * n)) / denom
    # Clamp the rounding noise at the ends (0 or n successes give exactly 0 or 1).
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def wilson_half_width(successes: int, n: int, z: float = Z95) -> float:
    """Half the width of the Wilson interval (the ``--precision`` criterion)."""
    low, high = wilson_interval(successes, n, z)
    return (high - low) / 2.0
