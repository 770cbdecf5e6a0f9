"""Wilson intervals and the Mann-Whitney 'significantly best' marks on hand-made cases."""

import math

import pytest

from sweeper.experiments.stats import best_of, mann_whitney, wilson


def test_wilson_on_worked_cases():
    lo, hi = wilson(5, 10)  # centre 0.5: symmetric
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(0, 10)  # no wins: [0, z^2 / (n + z^2)]
    z2 = 1.959963984540054 ** 2
    assert lo == 0.0 and hi == pytest.approx(z2 / (10 + z2))
    lo, hi = wilson(10, 10)
    assert hi == pytest.approx(1.0) and lo == pytest.approx(10 / (10 + z2))
    assert all(math.isnan(v) for v in wilson(0, 0))
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_mann_whitney_exact_small_sample():
    # no ties, every a below every b: U = 0, and 2 of the C(6, 3) = 20 orderings are as extreme
    assert mann_whitney([1, 2, 3], [4, 5, 6]) == pytest.approx(0.1)
    assert mann_whitney([0, 0, 0], [0, 0, 0]) == 1.0
    assert math.isnan(mann_whitney([], [1]))


def test_best_of_marks_the_leader_and_its_ties():
    strong = [1] * 60 + [0] * 40
    close = [1] * 58 + [0] * 42
    weak = [1] * 20 + [0] * 80
    marks = best_of({"strong": strong, "close": close, "weak": weak})
    assert marks["strong"] == (True, 1.0)
    assert marks["close"][0] and marks["close"][1] > 0.05
    assert not marks["weak"][0] and marks["weak"][1] < 1e-6


def test_the_difference_interval_is_newcombes_on_his_worked_cases():
    """Newcombe (1998), 'Interval estimation for the difference between independent proportions', Statistics in
    Medicine 17, Table II, method 10 (the hybrid score interval), examples (a) to (d)."""
    from sweeper.experiments.stats import difference_interval
    cases = {(56, 70, 48, 80): (0.0524, 0.3339), (9, 10, 3, 10): (0.1705, 0.8090), (6, 7, 2, 7): (0.0582, 0.8062),
             (5, 56, 0, 29): (-0.0381, 0.1926)}
    for (a, n, b, m), (lo, hi) in cases.items():
        d, low, high = difference_interval(a, n, b, m)
        assert d == pytest.approx(a / n - b / m) and round(low, 4) == lo and round(high, 4) == hi
