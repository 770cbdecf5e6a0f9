"""Statistics for win rates: Wilson intervals, Mann-Whitney comparisons, seed-level and paired verdicts.

The paper marks the significantly best agent of each transfer column using
Mann-Whitney U tests on game outcomes (0 loss, 1 win) at alpha = 0.05. We do
the same, and put a Wilson score interval (95%) on every win rate. Learners are
compared at the level of their seeds (:func:`compare_seeds`); two players on the
same boards, board by board (:func:`compare_paired`: exact McNemar on the boards
only one of them won, a paired bootstrap interval of the difference), and a
fixed player against a learner's seeds by :func:`compare_run_to_seeds`.
Bad input (a dict of seeds, a 2-D array of rates, a confidence of NaN, a
negative z, an empty sample) is a ``ValueError`` that says what was wrong.
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


def _count(v, what: str) -> int:
    """A whole number of games or wins (a float that is whole too), else a ``ValueError``."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer, float, np.floating)) or \
            not math.isfinite(v) or v != int(v):
        raise ValueError(f"{what} must be a whole number, got {v!r}")
    return int(v)


def _positive_z(z) -> float:
    if isinstance(z, (bool, np.bool_)) or not isinstance(z, (int, float, np.integer, np.floating)) or \
            not math.isfinite(z) or z <= 0:
        raise ValueError(f"z must be a finite number above 0 (1.96 for 95%), got {z!r}")
    return float(z)


def check_confidence(confidence) -> float:
    """``confidence`` as a float strictly between 0 and 1, else a ``ValueError`` (NaN too)."""
    if isinstance(confidence, (bool, np.bool_)) or not isinstance(confidence, (int, float, np.integer, np.floating)) \
            or not 0 < confidence < 1:
        raise ValueError(f"confidence must be a number between 0 and 1 (0.95 for 95%), got {confidence!r}")
    return float(confidence)


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (``(nan, nan)`` for 0 games); ``z`` above 0."""
    wins, games, z = _count(wins, "wins"), _count(games, "games"), _positive_z(z)
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
    ``{name: (is_best, p_value_vs_leader)}``. An empty sample is refused: it has no mean to lead or to tie; so is
    a sample holding NaN or an infinity (its mean would be no number, or lead whatever the others hold)."""
    if not isinstance(samples, dict):
        raise ValueError(f"best_of takes a dict of samples (name: outcomes), got {type(samples).__name__}")
    if not samples:
        return {}
    empty = [k for k, v in samples.items() if len(v) == 0]
    if empty:
        raise ValueError(f"best_of: the sample {empty[0]!r} is empty: it can be neither best nor tied with the best")
    for k, v in samples.items():
        try:
            finite = bool(np.isfinite(np.asarray(v, dtype=float)).all())
        except (TypeError, ValueError):
            raise ValueError(f"best_of: the sample {k!r} is not a list of numbers") from None
        if not finite:
            raise ValueError(f"best_of: the sample {k!r} holds NaN or an infinity: it can be neither best nor tied "
                             f"with the best")
    means = {k: float(np.mean(v)) for k, v in samples.items()}
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


def _per_seed(outcomes, what: str) -> list:
    """One 1-D float array of game outcomes per seed, from a sequence of arrays or a 2-D array (seeds x boards)."""
    if isinstance(outcomes, dict):
        raise ValueError(f"{what}: give a list of per-seed outcome arrays, not a dict (its keys would be read as "
                         f"outcomes): e.g. list(outcomes.values())")
    if isinstance(outcomes, np.ndarray) and outcomes.ndim != 2:
        raise ValueError(f"{what}: an array of outcomes must be 2-D (seeds x boards), got {outcomes.ndim}-D; one "
                         f"seed's outcomes are [outcomes]")
    try:
        rows = [np.asarray(o, dtype=float) for o in outcomes]
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what}: give one array of game outcomes (0 or 1) per seed ({exc})") from None
    bad = [r.ndim for r in rows if r.ndim != 1]
    if bad:
        raise ValueError(f"{what}: each seed's outcomes must be a 1-D array of games, got a {bad[0]}-D one"
                         + (" (a number: one seed's outcomes are [outcomes])" if bad[0] == 0 else ""))
    return rows


def _seed_rates(outcomes, what: str) -> tuple[np.ndarray, int]:
    """Per-seed win rates and the games per seed, from per-seed outcome arrays (0/1 per board, the same boards)."""
    rows = _per_seed(outcomes, what)
    if not rows or any(len(r) == 0 for r in rows):
        raise ValueError(f"{what}: give one array of game outcomes (0 or 1) per seed, none empty")
    if len({len(r) for r in rows}) != 1:
        raise ValueError(f"{what}: every seed must be tested on the same boards (got {sorted({len(r) for r in rows})} "
                         f"games)")
    if any(((r != 0) & (r != 1)).any() for r in rows):
        raise ValueError(f"{what}: outcomes must be 0 (lost) or 1 (won)")
    return np.array([r.mean() for r in rows]), len(rows[0])


def _spread(rates: np.ndarray) -> bool:
    """Whether the seeds' values differ at all (``std() > 0`` is true of equal floats to rounding)."""
    return len(rates) > 0 and bool(rates.max() > rates.min())


def _values(values, what: str) -> np.ndarray:
    v = np.asarray(values, dtype=float)
    if v.ndim > 1:
        raise ValueError(f"{what}: give one value per seed (a 1-D list), got a {v.ndim}-D array {v.shape}")
    return v.ravel()


def mean_interval(values, confidence: float = 0.95) -> tuple[float, float, float]:
    """The mean of per-seed values (rates, or steps between two rates) with its Student t-interval over the seeds:
    ``(mean, low, high)``; the interval is NaN with fewer than two values. ``values`` is 1-D (one per seed)."""
    confidence = check_confidence(confidence)
    v = _values(values, "mean_interval")
    if len(v) < 2:
        return float(v.mean()) if len(v) else float("nan"), float("nan"), float("nan")
    half = _scipy_stats().t.ppf(0.5 + confidence / 2, len(v) - 1) * v.std(ddof=1) / math.sqrt(len(v))
    return float(v.mean()), float(v.mean() - half), float(v.mean() + half)


def seed_half_width(spread: float, seeds: int, confidence: float = 0.95) -> float:
    """The half-width of the t-interval for the difference of two learners' mean rates over ``seeds`` seeds each,
    when the seeds of either differ with standard deviation ``spread`` (pooled variances, ``2 * seeds - 2`` degrees
    of freedom; Welch's interval, which the verdicts use, is this wide when the two spreads are equal)."""
    confidence = check_confidence(confidence)
    if not (isinstance(seeds, (int, np.integer)) and seeds >= 2) or not (np.isfinite(spread) and spread >= 0):
        raise ValueError(f"seed_half_width needs 2 or more seeds and a finite spread >= 0, got {seeds!r}, {spread!r}")
    return float(_scipy_stats().t.ppf(0.5 + confidence / 2, 2 * seeds - 2) * spread * math.sqrt(2 / seeds))


def seeds_to_resolve(spread: float, difference: float, confidence: float = 0.95, most: int = 10_000) -> int | None:
    """The fewest seeds a side whose :func:`seed_half_width` is at most ``difference`` (None beyond ``most``)."""
    if not (np.isfinite(difference) and difference > 0):
        raise ValueError(f"seeds_to_resolve needs a difference > 0, got {difference!r}")
    for n in range(2, most + 1):
        if seed_half_width(spread, n, confidence) <= difference:
            return n
    return None


def _z(confidence: float) -> float:
    return float(_scipy_stats().norm.ppf(0.5 + confidence / 2))


def seed_summary(outcomes, confidence: float = 0.95) -> dict:
    """One learner's test over its seeds: ``outcomes`` holds one array of game outcomes (0/1) per seed, all on
    the same boards. Returns the per-seed win rates (``seeds``), their mean with a Student t-interval over the
    seeds (``mean``, ``low``, ``high``; NaN with one seed; the pooled Wilson interval when every seed has the same
    rate, so that no spread is not read as no uncertainty), their range, and the pooled win rate with its Wilson
    interval (``pooled``, ``pooled_low``, ``pooled_high``: every game counted as independent, which the seeds'
    spread may contradict)."""
    confidence = check_confidence(confidence)
    rates, games = _seed_rates(outcomes, "seed_summary")
    k = len(rates)
    wins = int(round(sum(rates) * games))
    lo_p, hi_p = wilson(wins, k * games, _z(confidence))
    if k > 1 and _spread(rates):
        _, lo, hi = mean_interval(rates, confidence)
        lo, hi = max(0.0, lo), min(1.0, hi)
    elif k > 1:  # every seed the same rate: the seeds show no spread, the games still do
        lo, hi = lo_p, hi_p
    else:
        lo = hi = float("nan")
    return {"seeds": rates.tolist(), "n_seeds": k, "games_per_seed": games, "mean": float(rates.mean()),
            "low": float(lo), "high": float(hi), "min": float(rates.min()), "max": float(rates.max()),
            "pooled": wins / (k * games), "pooled_low": lo_p, "pooled_high": hi_p}


#: How :func:`compare_seeds` and :func:`compare_run_to_seeds` judge when no seed differs from another.
NO_SPREAD = ("with no spread over the seeds, Newcombe's interval of the pooled games (every game counted as "
             "independent), as seed_summary does")


def _margin(margin) -> float:
    if isinstance(margin, (bool, np.bool_)) or not isinstance(margin, (int, float, np.integer, np.floating)) or \
            not math.isfinite(margin) or margin < 0:
        raise ValueError(f"margin must be a finite number >= 0, got {margin!r}")
    return float(margin)


def _verdict(lo: float, hi: float, margin: float) -> str:
    if math.isnan(lo):
        return "cannot be told apart"
    if lo > 0:
        return "more than"
    if hi < 0:
        return "less than"
    return "level with" if -margin <= lo and hi <= margin else "cannot be told apart"


def compare_seeds(a, b, margin: float = 0.01, confidence: float = 0.95) -> dict:
    """Whether learner ``a`` wins more than learner ``b``, at the level of seeds (see :data:`SEED_METHOD`).

    ``a`` and ``b`` hold one array of game outcomes (0/1) per seed (a list of 1-D arrays, or a 2-D array seeds x
    boards; a dict is refused), every seed of both on the same boards. The difference of their mean win rates gets
    Welch's t-interval (``scipy.stats.ttest_ind`` with unequal variances): ``verdict`` is ``"more than"`` or
    ``"less than"`` when the interval excludes 0, ``"level with"`` when it lies within ``[-margin, margin]``, else
    ``"cannot be told apart"`` (the seeds are too few or too spread to say). With fewer than two seeds on either
    side the verdict is ``"cannot be told apart"``; with two or more a side and no spread on either, the interval
    is the pooled games' (:data:`NO_SPREAD`, as :func:`seed_summary`), so that no spread is not read as no
    uncertainty. ``pooled_verdict`` is what the pooled Wilson intervals would say (:func:`order`), to show where
    counting every game as independent would claim more."""
    confidence, margin = check_confidence(confidence), _margin(margin)
    (ra, ga), (rb, gb) = _seed_rates(a, "compare_seeds: a"), _seed_rates(b, "compare_seeds: b")
    if ga != gb:
        raise ValueError("compare_seeds: a and b must be tested on the same boards")
    out = compare_seed_rates(ra, rb, margin, confidence)
    sa, sb = seed_summary(a, confidence), seed_summary(b, confidence)
    out["method"] = SEED_METHOD
    if len(ra) >= 2 and len(rb) >= 2 and not _spread(ra) and not _spread(rb):
        wa, wb = int(round(ra.sum() * ga)), int(round(rb.sum() * gb))
        _, lo, hi = difference_interval(wa, len(ra) * ga, wb, len(rb) * gb, _z(confidence))
        lo, hi = max(-1.0, lo), min(1.0, hi)
        out.update(low=lo, high=hi, verdict=_verdict(lo, hi, margin), method=f"{SEED_METHOD}; {NO_SPREAD}")
    pooled = order((sa["pooled"], sa["pooled_low"], sa["pooled_high"]), (sb["pooled"], sb["pooled_low"],
                                                                          sb["pooled_high"]))
    out["pooled_verdict"] = {1: "more than", -1: "less than", 0: "overlapping"}[pooled]
    return out


SEED_METHOD_UNPAIRED = ("Welch's t-interval (95%) for the difference of the mean win rates over seeds, each seed "
                        "tested on boards of its own (unpaired: the boards' noise is inside each seed's rate); "
                        "'level with' when the whole interval lies within the margin")


def compare_seed_rates(ra, rb, margin: float = 0.01, confidence: float = 0.95) -> dict:
    """The verdict of :func:`compare_seeds` from the seeds' win rates alone (``ra``, ``rb``: one rate in [0, 1]
    per seed, 1-D): for learners whose seeds were not all tested on the same boards (:data:`SEED_METHOD_UNPAIRED`;
    each seed's rate then carries its boards' noise too, so the interval is wider than a paired one). Rates alone
    say nothing of the games behind them: with no spread on either side the verdict is ``"cannot be told
    apart"`` (unless the two are equal), where :func:`compare_seeds` reads the games."""
    confidence, margin = check_confidence(confidence), _margin(margin)
    ra, rb = _values(ra, "compare_seed_rates"), _values(rb, "compare_seed_rates")
    if not len(ra) or not len(rb) or not (np.isfinite(ra).all() and np.isfinite(rb).all()):
        raise ValueError("compare_seed_rates: give at least one finite win rate per learner")
    if ((ra < 0) | (ra > 1)).any() or ((rb < 0) | (rb > 1)).any():
        raise ValueError("compare_seed_rates: win rates must lie in [0, 1]")
    diff = float(ra.mean() - rb.mean())
    lo = hi = float("nan")
    if len(ra) >= 2 and len(rb) >= 2 and (_spread(ra) or _spread(rb)):
        ci = _scipy_stats().ttest_ind(ra, rb, equal_var=False).confidence_interval(confidence)
        lo, hi = float(ci.low), float(ci.high)
    verdict = _verdict(lo, hi, margin)
    if math.isnan(lo) and diff == 0 and len(ra) >= 2 and len(rb) >= 2:
        verdict = "level with"
    return {"difference": diff, "low": lo, "high": hi, "verdict": verdict, "n_seeds": (len(ra), len(rb)),
            "method": SEED_METHOD_UNPAIRED}


# ----------------------------------------------------------- on the same boards --

#: The bootstrap's resamples and the seed of its generator (a fixed seed: the same data give the same interval).
BOOTSTRAP_RESAMPLES = 10_000
BOOTSTRAP_SEED = 0
#: How :func:`compare_paired` judges two players on the same boards.
PAIRED_METHOD = ("board by board on the same boards: the exact McNemar test (two-sided binomial test of the boards "
                 "only one of the two won) and a paired bootstrap interval (95%, 10,000 resamples of the boards) of "
                 "the difference in win rate")
#: How :func:`compare_run_to_seeds` judges a fixed player against a learner's seeds.
RUN_METHOD = ("the fixed player's win rate minus each seed's, all on the same boards, with a Student t-interval "
              "(95%) over the seeds (their training is what varies); 'level with' when the whole interval lies "
              "within the margin")


def _outcomes(x, what: str) -> np.ndarray:
    try:
        v = np.asarray(x, dtype=float) if not isinstance(x, dict) else None
    except (TypeError, ValueError):
        v = None
    if v is None or v.ndim != 1 or not len(v):
        raise ValueError(f"{what}: give one 1-D array of game outcomes (0 or 1), one per board, not empty")
    if ((v != 0) & (v != 1)).any():
        raise ValueError(f"{what}: outcomes must be 0 (lost) or 1 (won)")
    return v.astype(bool)


def _resamples(resamples) -> int:
    if isinstance(resamples, (bool, np.bool_)) or not isinstance(resamples, (int, np.integer)) or resamples < 100:
        raise ValueError(f"resamples must be a whole number >= 100, got {resamples!r}")
    return int(resamples)


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """The exact McNemar p-value (two-sided): of the boards exactly one player won, ``only_a`` went to ``a`` and
    ``only_b`` to ``b``; under no difference each is a fair coin (1.0 when no board is discordant)."""
    only_a, only_b = _count(only_a, "only_a"), _count(only_b, "only_b")
    if only_a < 0 or only_b < 0:
        raise ValueError(f"the discordant counts must be >= 0, got {only_a} and {only_b}")
    n = only_a + only_b
    return 1.0 if n == 0 else float(_scipy_stats().binomtest(only_a, n, 0.5).pvalue)


def compare_paired(a, b, margin: float = 0.01, confidence: float = 0.95, resamples: int = BOOTSTRAP_RESAMPLES,
                   seed: int = BOOTSTRAP_SEED) -> dict:
    """Two players on the same boards, board by board (:data:`PAIRED_METHOD`): ``a`` and ``b`` are their game
    outcomes (0/1), one per board, in the boards' order.

    Returns ``boards``, ``wins_a``, ``wins_b``, ``difference`` (a's win rate minus b's), its percentile bootstrap
    interval ``low``, ``high`` (``resamples`` resamples of the boards, drawn as counts of the three kinds of board
    (only a won, only b won, the same) from a generator seeded with ``seed``: the same data give the same interval),
    ``only_a``, ``only_b`` (the discordant boards), ``mcnemar_p`` (:func:`mcnemar_exact`) and ``verdict`` (as
    :func:`compare_seeds`' words, from the interval; where no board differs the bootstrap's interval is [0, 0],
    and "level with" needs enough boards that the exact upper bound of the share of boards that would differ is
    within the margin)."""
    confidence, margin, resamples = check_confidence(confidence), _margin(margin), _resamples(resamples)
    a, b = _outcomes(a, "compare_paired: a"), _outcomes(b, "compare_paired: b")
    if len(a) != len(b):
        raise ValueError(f"compare_paired: a and b must be played on the same boards (got {len(a)} and {len(b)})")
    n, only_a, only_b = len(a), int((a & ~b).sum()), int((~a & b).sum())
    counts = np.random.default_rng(seed).multinomial(n, [only_a / n, only_b / n, 1 - (only_a + only_b) / n],
                                                     size=resamples)
    diffs = (counts[:, 0] - counts[:, 1]) / n
    lo, hi = (float(v) for v in np.quantile(diffs, [(1 - confidence) / 2, (1 + confidence) / 2]))
    verdict = _verdict(lo, hi, margin)
    if only_a + only_b == 0 and 1 - ((1 - confidence) / 2) ** (1 / n) > margin:
        verdict = "cannot be told apart"  # no board differs, but too few boards to bound the share that would
    return {"boards": n, "wins_a": int(a.sum()), "wins_b": int(b.sum()), "difference": (only_a - only_b) / n,
            "low": lo, "high": hi, "only_a": only_a, "only_b": only_b, "mcnemar_p": mcnemar_exact(only_a, only_b),
            "verdict": verdict, "method": PAIRED_METHOD}


def compare_run_to_seeds(run, seeds, margin: float = 0.01, confidence: float = 0.95) -> dict:
    """A fixed player (``run``: its outcomes, one per board) against a learner's seeds (``seeds``: one outcome array
    per seed, as :func:`compare_seeds`), all on the same boards (:data:`RUN_METHOD`): ``difference`` (the run's win
    rate minus the seeds' mean), ``low``, ``high``, ``verdict``, ``seeds`` (each seed's rate). With one seed the
    verdict is ``"cannot be told apart"`` (compare the boards instead, :func:`compare_paired`); with no spread over
    the seeds, the interval is the pooled games' (:data:`NO_SPREAD`)."""
    confidence, margin = check_confidence(confidence), _margin(margin)
    mine = _outcomes(run, "compare_run_to_seeds: run")
    rates, games = _seed_rates(seeds, "compare_run_to_seeds: seeds")
    if games != len(mine):
        raise ValueError(f"compare_run_to_seeds: the run and the seeds must be played on the same boards (got "
                         f"{len(mine)} and {games})")
    rate = float(mine.mean())
    diff, lo, hi = mean_interval(rate - rates, confidence)
    method = RUN_METHOD
    if len(rates) >= 2 and not _spread(rates):
        diff, lo, hi = difference_interval(int(mine.sum()), games, int(round(rates.sum() * games)),
                                           len(rates) * games, _z(confidence))
        lo, hi = max(-1.0, lo), min(1.0, hi)
        method = f"{RUN_METHOD}; {NO_SPREAD}"
    return {"difference": float(diff), "low": float(lo), "high": float(hi), "verdict": _verdict(lo, hi, margin),
            "rate": rate, "seeds": rates.tolist(), "n_seeds": len(rates), "boards": games, "method": method}


def bootstrap_ratio(numerator, denominator, confidence: float = 0.95, resamples: int = BOOTSTRAP_RESAMPLES,
                    seed: int = BOOTSTRAP_SEED) -> tuple[float, float, float]:
    """A ratio of sums over boards (regret per decision: each board's regret summed over the decisions scored on
    it, and those decisions) with its percentile bootstrap interval over the boards: ``(ratio, low, high)``
    (NaN where no board has a denominator). The boards are resampled with replacement ``resamples`` times from a
    generator seeded with ``seed``."""
    confidence, resamples = check_confidence(confidence), _resamples(resamples)
    num, den = _values(numerator, "bootstrap_ratio"), _values(denominator, "bootstrap_ratio")
    if len(num) != len(den) or not (np.isfinite(num).all() and np.isfinite(den).all()) or (den < 0).any():
        raise ValueError("bootstrap_ratio: give one finite numerator and one denominator >= 0 per board")
    n = len(num)
    if not n or den.sum() == 0:
        return float("nan"), float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    ratios, chunk = [], max(1, 2_000_000 // n)
    for start in range(0, resamples, chunk):
        w = rng.multinomial(n, np.full(n, 1 / n), size=min(chunk, resamples - start)).astype(float)
        top, bottom = w @ num, w @ den
        with np.errstate(invalid="ignore", divide="ignore"):
            ratios.append(np.where(bottom > 0, top / np.where(bottom > 0, bottom, 1), np.nan))
    r = np.concatenate(ratios)
    lo, hi = np.nanquantile(r, [(1 - confidence) / 2, (1 + confidence) / 2])
    return float(num.sum() / den.sum()), float(lo), float(hi)


def _board_values(x, name: str) -> np.ndarray:
    try:
        v = None if isinstance(x, dict) else np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        v = None
    if v is None or v.ndim != 1 or not len(v) or not np.isfinite(v).all() or (v < 0).any() or (v > 1).any():
        raise ValueError(f"bootstrap_difference: {name} must be a 1-D array of one value in [0, 1] per board, "
                         "not empty")
    return v


def bootstrap_difference(a, b, confidence: float = 0.95, resamples: int = BOOTSTRAP_RESAMPLES,
                         seed: int = BOOTSTRAP_SEED) -> tuple[float, float, float]:
    """The difference of two means over two independent sets of boards, with its percentile bootstrap interval:
    ``(mean(a) - mean(b), low, high)``. ``a`` and ``b`` hold one value per board (a player's outcome, or the mean
    of a fixed set of players' outcomes on that board, in [0, 1]); each set's boards are resampled with
    replacement, independently of the other's, ``resamples`` times from a generator seeded with ``seed``.

    This is the interval for one entry on two board sets (the public suite's first boards and fresh ones): the
    entry's seeds are the fixed players, and what varies is the boards, which every seed shares within a set."""
    confidence, resamples = check_confidence(confidence), _resamples(resamples)
    va, vb = _board_values(a, "a"), _board_values(b, "b")
    rng = np.random.default_rng(seed)
    diffs, chunk = [], max(1, 2_000_000 // max(len(va), len(vb)))
    for start in range(0, resamples, chunk):
        size = min(chunk, resamples - start)
        wa = rng.multinomial(len(va), np.full(len(va), 1 / len(va)), size=size)
        wb = rng.multinomial(len(vb), np.full(len(vb), 1 / len(vb)), size=size)
        diffs.append(wa @ va / len(va) - wb @ vb / len(vb))
    lo, hi = np.quantile(np.concatenate(diffs), [(1 - confidence) / 2, (1 + confidence) / 2])
    return float(va.mean() - vb.mean()), float(lo), float(hi)
