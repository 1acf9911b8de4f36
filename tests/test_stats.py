"""Shared statistics (analyser.stats): Wilson interval values, edge cases, paired gain."""

import numpy as np
import pytest

from analyser.stats import paired_gain_upper, wilson_half_width, wilson_interval


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        (0, 10, 0.0, 0.2775),  # z^2 / (n + z^2)
        (1, 10, 0.0179, 0.4042),
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_known_values(k, n, low, high):
    lo, hi = wilson_interval(k, n)
    assert lo == pytest.approx(low, abs=1e-4)
    assert hi == pytest.approx(high, abs=1e-4)


def test_symmetry_and_bounds():
    for n in (1, 7, 50, 1000):
        for k in range(0, n + 1, max(1, n // 7)):
            lo, hi = wilson_interval(k, n)
            lo2, hi2 = wilson_interval(n - k, n)
            assert 0.0 <= lo <= k / n <= hi <= 1.0
            assert lo == pytest.approx(1 - hi2, abs=1e-12)
            assert hi == pytest.approx(1 - lo2, abs=1e-12)


def test_half_width_shrinks_like_one_over_root_n():
    w100 = wilson_half_width(50, 100)
    w400 = wilson_half_width(200, 400)
    assert w400 == pytest.approx(w100 / 2, rel=0.02)
    assert wilson_half_width(0, 0) == 0.5


def test_empty_sample_and_bad_input():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)
    with pytest.raises(ValueError):
        wilson_interval(-1, 5)


def test_paired_gain_upper_reads_only_the_discordant_deals():
    same = np.array([1, 0, 1, 1, 0] * 20, dtype=np.int8)
    # made on exactly the same deals: no evidence of any gain
    assert paired_gain_upper(same, same) == 0.0
    # a makes where b fails on 10 deals and never the other way: the gain's upper end is
    # the observed 0.1 (every discordant deal already favours a)
    better = same.copy()
    better[np.flatnonzero(same == 0)[:10]] = 1
    assert paired_gain_upper(better, same) == pytest.approx(0.1)
    # the reverse comparison: the gain's upper end is below zero, by McNemar's bound
    # (Wilson upper end of 0 of 10 is 0.278, so (2 * 0.278 - 1) * 10 / 100)
    assert paired_gain_upper(same, better) == pytest.approx(
        (2 * wilson_interval(0, 10)[1] - 1) * 10 / 100
    )
    assert paired_gain_upper(same, better) < -0.04
    # an unknown answer (-1) counts in the first one's favour
    unknown = same.copy()
    unknown[np.flatnonzero(same == 0)[:10]] = -1
    assert paired_gain_upper(unknown, same) == paired_gain_upper(better, same)
    with pytest.raises(ValueError):
        paired_gain_upper(same, same[:-1])
