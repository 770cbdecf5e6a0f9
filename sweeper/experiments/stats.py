"""Statistics for win rates: Wilson intervals and Mann-Whitney comparisons.

The paper marks the significantly best agent of each transfer column using
Mann-Whitney U tests on game outcomes (0 loss, 1 win) at alpha = 0.05. We do
the same, and put a Wilson score interval (95%) on every win rate.
"""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def _scipy_stats():
    """``scipy.stats``, imported on first use: it costs about a second, which every command line that never tests a
    difference would pay at start."""
    from scipy import stats
    return stats


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (``(nan, nan)`` for 0 games)."""
    if games < 0 or wins < 0 or wins > games:
        raise ValueError(f"need 0 <= wins <= games, got {wins}/{games}")
    if games == 0:
        return float("nan"), float("nan")
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def difference_interval(wins_a: int, games_a: int, wins_b: int, games_b: int, z: float = Z95) -> tuple:
    """The difference of two win rates ``a - b`` with Newcombe's hybrid score interval (his method 10: from the two
    Wilson intervals), treating the two samples as independent: ``(difference, low, high)``. On the same boards
    the samples are paired and the interval is conservative (wider than a paired one)."""
    la, ha = wilson(wins_a, games_a, z)
    lb, hb = wilson(wins_b, games_b, z)
    if not games_a or not games_b:
        return float("nan"), float("nan"), float("nan")
    pa, pb = wins_a / games_a, wins_b / games_b
    d = pa - pb
    return d, d - math.sqrt((pa - la) ** 2 + (hb - pb) ** 2), d + math.sqrt((ha - pa) ** 2 + (pb - lb) ** 2)


def mann_whitney(a, b) -> float:
    """Two-sided Mann-Whitney U p-value for two samples of outcomes."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    if len(a) == 0 or len(b) == 0:
        return float("nan")
    if np.all(a == a[0]) and np.all(b == b[0]) and a[0] == b[0]:
        return 1.0
    return float(_scipy_stats().mannwhitneyu(a, b, alternative="two-sided").pvalue)


def best_of(samples: dict, alpha: float = 0.05) -> dict:
    """Which samples are 'best' the way the paper bolds them.

    The sample with the highest mean leads; every sample whose Mann-Whitney
    p-value against the leader is >= alpha is tied with it. Returns
    ``{name: (is_best, p_value_vs_leader)}``."""
    if not samples:
        return {}
    means = {k: float(np.mean(v)) if len(v) else float("-inf") for k, v in samples.items()}
    leader = max(means, key=means.get)
    out = {}
    for k, v in samples.items():
        p = 1.0 if k == leader else mann_whitney(samples[leader], v)
        out[k] = (k == leader or p >= alpha, p)
    return out


def check_interval(name, est, lo, hi):
    """Raise ``ValueError`` naming ``name`` unless ``est``, ``lo``, ``hi`` are numbers and
    ``lo <= est <= hi`` (to 1e-9)."""
    vals = (est, lo, hi)
    if any(v is None or (isinstance(v, float) and math.isnan(v)) for v in vals):
        raise ValueError(f"{name}: estimate and interval must be numbers, got {vals}")
    if not lo - 1e-9 <= est <= hi + 1e-9:
        raise ValueError(f"{name}: interval [{lo}, {hi}] does not contain its estimate {est}")


def order(a: tuple, b: tuple) -> int:
    """+1 if estimate ``a = (est, low, high)`` is above ``b`` with disjoint 95% intervals,
    -1 if below, 0 if the intervals overlap (the data cannot order them)."""
    check_interval("a", *a)
    check_interval("b", *b)
    if a[1] > b[2]:
        return 1
    if a[2] < b[1]:
        return -1
    return 0


# ------------------------------------------------------------- seed level --

#: How a seed-level verdict is reached (the sentence a page prints beside it).
SEED_METHOD = ("Welch's t-interval (95%) for the difference of the mean win rates over seeds, every seed tested on "
               "the same boards; 'level with' when the whole interval lies within the margin")


def _seed_rates(outcomes, what: str) -> np.ndarray:
    """Per-seed win rates from a sequence of per-seed outcome arrays (0/1 per board, the same boards)."""
    rows = [np.asarray(o, dtype=float).ravel() for o in outcomes]
    if not rows or any(len(r) == 0 for r in rows):
        raise ValueError(f"{what}: give one array of game outcomes (0 or 1) per seed, none empty")
    if len({len(r) for r in rows}) != 1:
        raise ValueError(f"{what}: every seed must be tested on the same boards (got {sorted({len(r) for r in rows})} "
                         f"games)")
    if any(((r != 0) & (r != 1)).any() for r in rows):
        raise ValueError(f"{what}: outcomes must be 0 (lost) or 1 (won)")
    return np.array([r.mean() for r in rows])


def mean_interval(values, confidence: float = 0.95) -> tuple[float, float, float]:
    """The mean of per-seed values (rates, or steps between two rates) with its Student t-interval over the seeds:
    ``(mean, low, high)``; the interval is NaN with fewer than two values."""
    v = np.asarray(values, dtype=float).ravel()
    if len(v) < 2:
        return float(v.mean()) if len(v) else float("nan"), float("nan"), float("nan")
    half = _scipy_stats().t.ppf(0.5 + confidence / 2, len(v) - 1) * v.std(ddof=1) / math.sqrt(len(v))
    return float(v.mean()), float(v.mean() - half), float(v.mean() + half)


def seed_summary(outcomes, confidence: float = 0.95) -> dict:
    """One learner's test over its seeds: ``outcomes`` holds one array of game outcomes (0/1) per seed, all on
    the same boards. Returns the per-seed win rates (``seeds``), their mean with a Student t-interval over the
    seeds (``mean``, ``low``, ``high``; NaN with one seed; the pooled Wilson interval when every seed has the same
    rate, so that no spread is not read as no uncertainty), their range, and the pooled win rate with its Wilson
    interval (``pooled``, ``pooled_low``, ``pooled_high``: every game counted as independent, which the seeds'
    spread may contradict)."""
    rates = _seed_rates(outcomes, "seed_summary")
    games = len(np.asarray(outcomes[0]).ravel())
    k = len(rates)
    wins = int(round(sum(rates) * games))
    lo_p, hi_p = wilson(wins, k * games)
    if k > 1 and rates.std() > 0:
        _, lo, hi = mean_interval(rates, confidence)
        lo, hi = max(0.0, lo), min(1.0, hi)
    elif k > 1:  # every seed the same rate: the seeds show no spread, the games still do
        lo, hi = lo_p, hi_p
    else:
        lo = hi = float("nan")
    return {"seeds": rates.tolist(), "n_seeds": k, "games_per_seed": games, "mean": float(rates.mean()),
            "low": float(lo), "high": float(hi), "min": float(rates.min()), "max": float(rates.max()),
            "pooled": wins / (k * games), "pooled_low": lo_p, "pooled_high": hi_p}


def compare_seeds(a, b, margin: float = 0.01, confidence: float = 0.95) -> dict:
    """Whether learner ``a`` wins more than learner ``b``, at the level of seeds (see :data:`SEED_METHOD`).

    ``a`` and ``b`` hold one array of game outcomes (0/1) per seed, every seed of both on the same boards. The
    difference of their mean win rates gets Welch's t-interval (``scipy.stats.ttest_ind`` with unequal
    variances): ``verdict`` is ``"more than"`` or ``"less than"`` when the interval excludes 0, ``"level with"``
    when it lies within ``[-margin, margin]``, else ``"cannot be told apart"`` (the seeds are too few or too
    spread to say). With fewer than two seeds on either side, or no spread at all, the verdict is
    ``"cannot be told apart"`` unless the two are equal. ``pooled_verdict`` is what the pooled Wilson intervals
    would say (:func:`order`), to show where counting every game as independent would claim more."""
    ra, rb = _seed_rates(a, "compare_seeds: a"), _seed_rates(b, "compare_seeds: b")
    if len(np.asarray(a[0]).ravel()) != len(np.asarray(b[0]).ravel()):
        raise ValueError("compare_seeds: a and b must be tested on the same boards")
    out = compare_seed_rates(ra, rb, margin, confidence)
    sa, sb = seed_summary(a, confidence), seed_summary(b, confidence)
    pooled = order((sa["pooled"], sa["pooled_low"], sa["pooled_high"]), (sb["pooled"], sb["pooled_low"],
                                                                          sb["pooled_high"]))
    out["pooled_verdict"] = {1: "more than", -1: "less than", 0: "overlapping"}[pooled]
    out["method"] = SEED_METHOD
    return out


SEED_METHOD_UNPAIRED = ("Welch's t-interval (95%) for the difference of the mean win rates over seeds, each seed "
                        "tested on boards of its own (unpaired: the boards' noise is inside each seed's rate); "
                        "'level with' when the whole interval lies within the margin")


def compare_seed_rates(ra, rb, margin: float = 0.01, confidence: float = 0.95) -> dict:
    """The verdict of :func:`compare_seeds` from the seeds' win rates alone (``ra``, ``rb``: one rate in [0, 1]
    per seed): for learners whose seeds were not all tested on the same boards (:data:`SEED_METHOD_UNPAIRED`;
    each seed's rate then carries its boards' noise too, so the interval is wider than a paired one)."""
    ra, rb = np.asarray(ra, dtype=float).ravel(), np.asarray(rb, dtype=float).ravel()
    if not len(ra) or not len(rb) or not (np.isfinite(ra).all() and np.isfinite(rb).all()):
        raise ValueError("compare_seed_rates: give at least one finite win rate per learner")
    if ((ra < 0) | (ra > 1)).any() or ((rb < 0) | (rb > 1)).any():
        raise ValueError("compare_seed_rates: win rates must lie in [0, 1]")
    diff = float(ra.mean() - rb.mean())
    lo = hi = float("nan")
    if len(ra) >= 2 and len(rb) >= 2 and (ra.std() > 0 or rb.std() > 0):
        ci = _scipy_stats().ttest_ind(ra, rb, equal_var=False).confidence_interval(confidence)
        lo, hi = float(ci.low), float(ci.high)
    if math.isnan(lo):
        verdict = "level with" if diff == 0 and len(ra) >= 2 and len(rb) >= 2 else "cannot be told apart"
    elif lo > 0:
        verdict = "more than"
    elif hi < 0:
        verdict = "less than"
    elif -margin <= lo and hi <= margin:
        verdict = "level with"
    else:
        verdict = "cannot be told apart"
    return {"difference": diff, "low": lo, "high": hi, "verdict": verdict, "n_seeds": (len(ra), len(rb)),
            "method": SEED_METHOD_UNPAIRED}
