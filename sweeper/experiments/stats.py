"""Statistics for win rates: Wilson intervals and Mann-Whitney comparisons.

The paper marks the significantly best agent of each transfer column using
Mann-Whitney U tests on game outcomes (0 loss, 1 win) at alpha = 0.05. We do
the same, and put a Wilson score interval (95%) on every win rate.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats as _st

Z95 = 1.959963984540054


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


def mann_whitney(a, b) -> float:
    """Two-sided Mann-Whitney U p-value for two samples of outcomes."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    if len(a) == 0 or len(b) == 0:
        return float("nan")
    if np.all(a == a[0]) and np.all(b == b[0]) and a[0] == b[0]:
        return 1.0
    return float(_st.mannwhitneyu(a, b, alternative="two-sided").pvalue)


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
