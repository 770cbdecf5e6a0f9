"""Wilson intervals and the Mann-Whitney 'significantly best' marks on hand-made cases."""

import math

import numpy as np

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


# ------------------------------------------------ issue 65: bad input, paired tests --

import numpy as np  # noqa: E402

from sweeper.experiments.stats import (bootstrap_ratio, compare_paired, compare_run_to_seeds,  # noqa: E402
                                       compare_seed_rates, compare_seeds, mcnemar_exact, mean_interval, seed_summary)


def _seeds(rates, games=1000):
    return [np.r_[np.ones(int(round(r * games))), np.zeros(games - int(round(r * games)))] for r in rates]


def test_a_dict_of_seeds_is_refused_not_read_as_outcomes():
    """Before: compare_seeds({0: a, 1: b}, ...) read the dict's keys 0 and 1 as outcomes: learners at 0.9 and 0.1
    were 'cannot be told apart', difference 0.0."""
    a, b = _seeds([0.9, 0.9]), _seeds([0.1, 0.1])
    with pytest.raises(ValueError, match="not a dict"):
        compare_seeds(dict(enumerate(a)), dict(enumerate(b)))
    with pytest.raises(ValueError, match="not a dict"):
        seed_summary(dict(enumerate(a)))
    with pytest.raises(ValueError, match="got 1-D; one seed's outcomes are"):
        compare_seeds(a[0], b[0])  # one array of outcomes: its numbers are not seeds
    assert compare_seeds(np.array(a), np.array(b))["verdict"] == "more than"  # 2-D: seeds x boards


def test_zero_spread_learners_far_apart_are_told_apart_as_seed_summary_reads_no_spread():
    """Before: two learners that won every game and none of 1,000 on each of three seeds 'cannot be told apart'."""
    c = compare_seeds(_seeds([1.0] * 3), _seeds([0.0] * 3))
    assert c["verdict"] == "more than" and c["difference"] == 1.0 and 0.9 < c["low"] <= c["high"] <= 1.0
    assert "no spread" in c["method"]
    assert compare_seeds(_seeds([0.5] * 3, 100_000), _seeds([0.5] * 3, 100_000))["verdict"] == "level with"
    assert compare_seeds(_seeds([0.5] * 3, 20), _seeds([0.5] * 3, 20))["verdict"] == "cannot be told apart"


@pytest.mark.parametrize("call", [
    lambda c: compare_seeds(_seeds([0.5, 0.6]), _seeds([0.4, 0.5]), confidence=c),
    lambda c: seed_summary(_seeds([0.5, 0.6]), confidence=c),
    lambda c: mean_interval([0.1, 0.2, 0.3], confidence=c),
    lambda c: compare_seed_rates([0.5, 0.6], [0.4, 0.5], confidence=c),
    lambda c: compare_paired([1, 0], [0, 0], confidence=c),
])
@pytest.mark.parametrize("confidence", [float("nan"), 0.0, 1.0, 95, -0.5])
def test_a_confidence_outside_0_to_1_is_refused(call, confidence):
    """Before: confidence=nan gave the interval [0, 1]."""
    with pytest.raises(ValueError, match="confidence must be a number between 0 and 1"):
        call(confidence)


def test_wilson_refuses_a_z_that_is_not_positive():
    """Before: wilson(1, 3, z=-1.96) gave low > high."""
    for z in (-1.96, 0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="z must be a finite number above 0"):
            wilson(1, 3, z=z)
    with pytest.raises(ValueError, match="whole number"):
        wilson(1.5, 3)


def test_best_of_refuses_an_empty_sample():
    """Before: best_of({'a': []}) declared the empty sample best."""
    with pytest.raises(ValueError, match="the sample 'a' is empty"):
        best_of({"a": []})
    with pytest.raises(ValueError, match="the sample 'b' is empty"):
        best_of({"a": [1, 0], "b": []})


def test_two_dimensional_rates_are_refused_not_flattened_into_seeds():
    """Before: a 2 x 3 array of rates was read as six seeds."""
    with pytest.raises(ValueError, match="2-D array"):
        compare_seed_rates([[0.5, 0.6, 0.7], [0.5, 0.6, 0.7]], [0.4, 0.5])
    with pytest.raises(ValueError, match="2-D array"):
        mean_interval(np.ones((2, 3)))
    with pytest.raises(ValueError, match="1-D array of games, got a 2-D one"):
        seed_summary([np.ones((2, 5)), np.ones((2, 5))])
    with pytest.raises(ValueError, match="must be 2-D \\(seeds x boards\\), got 3-D"):
        seed_summary(np.ones((2, 2, 5)))


def test_the_exact_mcnemar_test_on_worked_cases():
    assert mcnemar_exact(10, 0) == pytest.approx(2 * 0.5 ** 10)  # ten discordant boards, all one way
    assert mcnemar_exact(0, 0) == 1.0 and mcnemar_exact(5, 5) == 1.0
    assert mcnemar_exact(2, 8) == pytest.approx(2 * (1 + 10 + 45) / 2 ** 10)
    with pytest.raises(ValueError):
        mcnemar_exact(-1, 3)


def test_the_paired_comparison_counts_the_discordant_boards_and_bootstraps_the_difference():
    a = np.r_[np.ones(60), np.zeros(40)]
    b = np.r_[np.ones(50), np.zeros(50)]  # a won every board b won, and 10 more
    c = compare_paired(a, b)
    assert (c["boards"], c["wins_a"], c["wins_b"], c["only_a"], c["only_b"]) == (100, 60, 50, 10, 0)
    assert c["difference"] == pytest.approx(0.1) and c["low"] <= 0.1 <= c["high"] and c["low"] > 0
    assert c["mcnemar_p"] == pytest.approx(2 * 0.5 ** 10) and c["verdict"] == "more than"
    assert compare_paired(a, b) == c  # seeded: the same data, the same interval
    same = compare_paired(a, a)
    assert (same["difference"], same["low"], same["high"], same["mcnemar_p"]) == (0.0, 0.0, 0.0, 1.0)
    assert same["verdict"] == "cannot be told apart"  # 100 boards alike cannot bound the share that would differ
    assert compare_paired(np.ones(1000), np.ones(1000))["verdict"] == "level with"
    with pytest.raises(ValueError, match="same boards"):
        compare_paired(a, b[:50])
    with pytest.raises(ValueError, match="0 \\(lost\\) or 1 \\(won\\)"):
        compare_paired(a * 0.5, b)


def test_a_fixed_player_against_a_learners_seeds():
    run = _seeds([0.8])[0]
    c = compare_run_to_seeds(run, _seeds([0.70, 0.72, 0.74]))
    assert c["verdict"] == "more than" and c["difference"] == pytest.approx(0.08) and c["n_seeds"] == 3
    assert compare_run_to_seeds(run, _seeds([0.6, 0.8, 0.99]))["verdict"] == "cannot be told apart"
    assert compare_run_to_seeds(run, _seeds([0.7]))["verdict"] == "cannot be told apart"  # one seed: no spread known
    flat = compare_run_to_seeds(run, _seeds([0.7, 0.7, 0.7]))
    assert flat["verdict"] == "more than" and "no spread" in flat["method"]
    with pytest.raises(ValueError, match="same boards"):
        compare_run_to_seeds(run[:10], _seeds([0.7, 0.7]))


def test_the_bootstrap_interval_of_a_ratio_over_boards():
    regret, decisions = np.array([0.5, 1.0, 1.5, 2.0]), np.array([5, 10, 15, 20])
    assert bootstrap_ratio(regret, decisions) == pytest.approx((0.1, 0.1, 0.1))  # the same ratio on every board
    rng = np.random.default_rng(3)
    r, lo, hi = bootstrap_ratio(rng.random(200), rng.integers(1, 30, 200))
    assert lo < r < hi and hi - lo < r
    assert all(math.isnan(v) for v in bootstrap_ratio([0.0, 0.0], [0, 0]))
    with pytest.raises(ValueError, match="bootstrap_ratio"):
        bootstrap_ratio([1.0], [-1])


def test_the_bootstrap_interval_of_a_difference_over_two_sets_of_boards():
    from sweeper.experiments.stats import bootstrap_difference, difference_interval
    rng = np.random.default_rng(5)
    a, b = (rng.random(2000) < 0.5).astype(float), (rng.random(2000) < 0.45).astype(float)
    d, lo, hi = bootstrap_difference(a, b)
    assert d == pytest.approx(a.mean() - b.mean()) and lo < d < hi
    _, n_lo, n_hi = difference_interval(int(a.sum()), 2000, int(b.sum()), 2000)  # Newcombe: the same width
    assert hi - lo == pytest.approx(n_hi - n_lo, rel=0.08)
    assert bootstrap_difference(a, b) == (d, lo, hi)  # the same data, the same interval
    assert bootstrap_difference(np.ones(50), np.ones(80)) == (0.0, 0.0, 0.0)
    for bad in ([], [1.5], [[0.0, 1.0]], {0: 1.0}, [float("nan")], "x"):
        with pytest.raises(ValueError, match="bootstrap_difference: a must be a 1-D array"):
            bootstrap_difference(bad, [0.0, 1.0])
    with pytest.raises(ValueError, match="resamples"):
        bootstrap_difference([0.0], [1.0], resamples=10)


def test_the_half_width_of_a_seed_level_difference_and_the_seeds_it_takes():
    from scipy import stats as ss
    from sweeper.experiments.stats import seed_half_width, seeds_to_resolve
    assert seed_half_width(0.01, 3) == pytest.approx(ss.t.ppf(0.975, 4) * 0.01 * (2 / 3) ** 0.5)
    # the same as Welch's interval of two samples with the same spread
    a, b = np.array([0.70, 0.71, 0.72]), np.array([0.60, 0.61, 0.62])
    half = ss.t.ppf(0.975, 4) * np.sqrt(a.var(ddof=1) / 3 + b.var(ddof=1) / 3)
    assert seed_half_width(a.std(ddof=1), 3) == pytest.approx(half)
    n = seeds_to_resolve(0.01, 0.01)
    assert seed_half_width(0.01, n) <= 0.01 < seed_half_width(0.01, n - 1)
    assert seeds_to_resolve(0.0, 0.01) == 2 and seeds_to_resolve(1.0, 1e-6, most=50) is None
    for bad in [lambda: seed_half_width(0.01, 1), lambda: seed_half_width(float("nan"), 3),
                lambda: seeds_to_resolve(0.01, 0), lambda: seed_half_width(0.01, 3, confidence=float("nan"))]:
        with pytest.raises(ValueError):
            bad()


def test_names_are_listed_as_a_sentence_lists_them():
    from sweeper.viz.figures.prose import and_list
    assert and_list(["a"]) == "a" and and_list(["a", "b"]) == "a and b" and and_list("abc") == "a, b and c"
    assert and_list(["greedy", "UCB"], capital=True) == "Greedy and UCB"
    with pytest.raises(ValueError, match="at least one"):
        and_list([])


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_best_of_refuses_a_sample_that_is_not_finite(bad):
    """Issue 65. Before: best_of({'a': [nan] * 3, 'b': [.5, .6, .7]}) declared the all-NaN sample best."""
    with pytest.raises(ValueError, match="the sample 'a' holds NaN or an infinity"):
        best_of({"a": [bad] * 3, "b": [.5, .6, .7]})
    with pytest.raises(ValueError, match="the sample 'b' holds NaN or an infinity"):
        best_of({"a": [.5, .6, .7], "b": [.1, bad]})
    with pytest.raises(ValueError, match="the sample 'a' is not a list of numbers"):
        best_of({"a": ["x"], "b": [.5]})
    assert best_of({"a": [.5, .6, .7], "b": [.1, .2]})["a"] == (True, 1.0)
