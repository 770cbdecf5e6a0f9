"""The chapter "From a table to a network", its section on the symmetries at play time: the stored networks of
``ext:neural`` as they were trained (``ext:benchmark_neural``) and playing on the mean of their logits over the
board's symmetries (``ext:benchmark_neural_symmetric``), on the same boards of the benchmark, and what that costs
beside the exact solver. Nothing here computes a result; every function takes its input, so a test can hand it made
runs.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...experiments.stats import mean_interval, wilson
from . import benchmark as bf
from .neural import KEYS, LEVELS, SEED_SLACK, TARGETS


#: The columns of :func:`symmetric_play` (also of its empty frame, when no symmetric run is stored).
COLUMNS = ["board", "boards", "seeds", "plain", "plain_min", "plain_max", "symmetric", "pooled", "pooled_lo",
           "pooled_hi", "seed_min", "seed_max", "difference", "diff_lo", "diff_hi", "target", "met", "us_plain",
           "us_symmetric"]
#: What the page says when the symmetric runs are not stored.
MISSING = ("The networks have not been scored playing symmetric yet: `python -m sweeper reproduce "
           "ext:benchmark_neural_work_symmetric` (with the extra `deep`) scores them.")


def symmetric_play(bench: dict, boards: int | None = None) -> pd.DataFrame:
    """Per level, the networks trained there as they were trained and playing symmetric (the mean of their logits
    over the board's symmetries: ``ext:benchmark_neural`` and ``ext:benchmark_neural_symmetric``), on the level's
    benchmark boards (or its first ``boards``): each seed's two win rates on the same boards, their means, the
    symmetric networks pooled with the 95% Wilson interval and their lowest seed, the mean of each network's
    change with a Student t-interval over the networks (paired: the same network and boards), the level's target
    and whether symmetric play meets it, and the test CPU per decision of both (µs, mean over the seeds)."""
    rows = []
    for board in LEVELS:
        level, short = bf.LEVEL_OF[board], bf.SHORT[board]
        plain_label, sym_label = f"network ({short})", f"network, symmetric ({short})"
        plain = bf.outcomes(bench["games"], plain_label, level)
        sym = bf.outcomes(bench["games"], sym_label, level)
        if not plain or not sym or len(plain) != len(sym):
            continue
        plain, sym = [r[:boards] for r in plain], [r[:boards] for r in sym]
        a, b = np.array([r.mean() for r in plain]), np.array([r.mean() for r in sym])
        diff, lo, hi = mean_interval(b - a)
        wins, games = int(sum(r.sum() for r in sym)), int(sum(len(r) for r in sym))
        p_lo, p_hi = wilson(wins, games)
        s = bench["scores"][bench["scores"]["level"] == level]
        cost = {who: float((1e6 * g["test_cpu_seconds"] / g["decisions"]).mean())
                for who, g in s[s["label"].isin([plain_label, sym_label])].groupby("label")}
        rows.append({"board": board, "boards": len(sym[0]), "seeds": len(sym), "plain": a.mean(),
                     "plain_min": a.min(), "plain_max": a.max(), "symmetric": b.mean(), "pooled": wins / games,
                     "pooled_lo": p_lo, "pooled_hi": p_hi, "seed_min": b.min(), "seed_max": b.max(),
                     "difference": diff, "diff_lo": lo, "diff_hi": hi, "target": TARGETS[board],
                     "met": wins / games >= TARGETS[board] and b.min() >= TARGETS[board] - SEED_SLACK,
                     "us_plain": cost.get(plain_label, np.nan), "us_symmetric": cost.get(sym_label, np.nan)})
    return pd.DataFrame(rows, columns=COLUMNS)


#: The table in two parts, each of which fits the book's text column: the change, and the symmetric networks against
#: the target with their test CPU.
TABLE_PARTS = {"change": ["boards", "as trained (seeds)", "symmetric (seeds)", "change [95%, over the networks]"],
               "targets": ["symmetric, pooled [95%]", "target", "met", "µs / decision (as trained → symmetric)"]}


def symmetric_table(t: pd.DataFrame, targets: bool = True, part: str | None = None) -> pd.DataFrame:
    """:func:`symmetric_play` for the page (without the target columns when ``targets`` is false: on other boards
    than those the targets are stated on); ``part``: the columns of :data:`TABLE_PARTS` ``[part]`` only."""
    table = pd.DataFrame({
        "boards": t["boards"].map(lambda v: f"{v:,}"),
        "as trained (seeds)": [f"{r.plain:.3f} ({r.plain_min:.3f}-{r.plain_max:.3f})" for r in t.itertuples()],
        "symmetric (seeds)": [f"{r.symmetric:.3f} ({r.seed_min:.3f}-{r.seed_max:.3f})" for r in t.itertuples()],
        "change [95%, over the networks]": [f"{r.difference:+.3f} [{r.diff_lo:+.3f}, {r.diff_hi:+.3f}]"
                                            for r in t.itertuples()],
        "symmetric, pooled [95%]": [f"{r.pooled:.3f} [{r.pooled_lo:.3f}, {r.pooled_hi:.3f}]" for r in t.itertuples()],
        "target": t["target"].map(lambda v: f"{v:.2f}"), "met": t["met"].map(lambda v: "yes" if v else "no"),
        "µs / decision (as trained → symmetric)": [f"{r.us_plain:,.0f} → {r.us_symmetric:,.0f}"
                                                   for r in t.itertuples()]},
    ).set_index(t["board"].rename("level"))
    table = table if targets else table.drop(columns=["target", "met"])
    return table if part is None else table[[c for c in TABLE_PARTS[part] if c in table]]


def change_words(d: float, lo: float, hi: float, than: str, apart_from: str, tail: str = "") -> str:
    """A change of win rate with its interval, in the words it allows: "win more" or "win less" (followed by
    ``than``) only where the interval excludes 0, else "cannot be told apart from" ``apart_from`` (then ``tail``)."""
    ci = f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]"
    if lo > 0:
        return f"win more{than}: {ci}"
    if hi < 0:
        return f"win less{than}: {ci}"
    return f"cannot be told apart from {apart_from}: {ci}{tail}"


#: What a change of win rate allows, by its 95% interval over the networks (:func:`symmetric_values`).
CHANGE = {1: "win more than as trained", -1: "win less than as trained",
          0: "cannot be told apart from themselves as trained"}


def symmetric_values(t: pd.DataFrame, noise: float | None = None) -> dict:
    """What :func:`symmetric_play` shows, as named values for the page's prose, per level (``<key>_`` of
    :data:`~sweeper.viz.figures.neural.KEYS`): the mean win rate over the networks as trained (``plain``) and playing
    symmetric (``symmetric``), the mean of each network's change with its 95% t-interval over them (``diff``, ``lo``,
    ``hi``) and the verdict it allows (``change``: :data:`CHANGE`); the test CPU per decision of symmetric play over
    that as trained (``times``, as recorded) and whether that factor is beyond ``noise`` (the clock's,
    :func:`~sweeper.viz.figures.deep.clock_noise`; ``cost``); the symmetric networks pooled (``pooled``), their
    lowest network (``seed_min``), the ``target`` and whether it is ``met``; and the ``boards`` and ``networks`` of a
    level. An error saying how to score them (:data:`MISSING`) when no symmetric run is stored."""
    if t.empty:
        raise ValueError(MISSING)
    values = {}
    for r in t.itertuples():
        k, times = KEYS[r.board], float(r.us_symmetric / r.us_plain)
        values.update({f"{k}_plain": float(r.plain), f"{k}_symmetric": float(r.symmetric),
                       f"{k}_diff": float(r.difference), f"{k}_lo": float(r.diff_lo), f"{k}_hi": float(r.diff_hi),
                       f"{k}_change": CHANGE[1 if r.diff_lo > 0 else -1 if r.diff_hi < 0 else 0],
                       f"{k}_times": times,
                       f"{k}_cost": ("beyond the clock's noise" if noise and max(times, 1 / times) > noise else
                                     "within the clock's noise" if noise else "of a clock whose noise is not measured"),
                       f"{k}_pooled": float(r.pooled), f"{k}_seed_min": float(r.seed_min),
                       f"{k}_target": float(r.target), f"{k}_met": "met" if r.met else "not met",
                       "boards": int(r.boards), "networks": int(r.seeds)})
    return values


def symmetric_price(sym: pd.DataFrame, learners: pd.DataFrame) -> pd.DataFrame:
    """Per level, what symmetric play buys and costs (from :func:`symmetric_play` on the boards of
    :func:`~sweeper.viz.figures.neural.learners`):
    the change of win rate, the extra test CPU per decision (µs), the change per extra ms, and the exact solver's
    win rate and test CPU per decision on the same boards beside the symmetric networks'."""
    rows = []
    for r in sym.itertuples():
        solver = learners[(learners["board"] == r.board) & learners["agent"].str.startswith("exact solver")]
        if solver.empty:
            continue
        s = solver.iloc[0]
        extra = r.us_symmetric - r.us_plain
        rows.append({"board": r.board, "change": r.difference, "extra_us": extra,
                     "change_per_ms": 1e3 * r.difference / extra if extra > 0 else np.nan,
                     "symmetric": r.symmetric, "us_symmetric": r.us_symmetric, "solver": float(s["win_rate"]),
                     "us_solver": float(s["µs_per_decision"]), "gap": float(s["win_rate"]) - r.symmetric})
    return pd.DataFrame(rows)


def price_sentence(price: pd.DataFrame, noise: float | None = None) -> str:
    """:func:`symmetric_price` in words: per level, the symmetric networks' test CPU per decision against the
    solver's as recorded (in order only where they differ by more than ``noise`` times, the clock's), and how far
    they still trail it (or lead it)."""
    parts = []
    for r in price.itertuples():
        ratio = max(r.us_solver / r.us_symmetric, r.us_symmetric / r.us_solver)
        times = f"{ratio:,.0f}" if ratio >= 10 else f"{ratio:.1f}"
        cheaper = ("within the clock's noise of the solver's CPU per decision" if noise and ratio <= noise else
                   f"{times} times cheaper per decision than the solver" if r.us_symmetric < r.us_solver else
                   f"{times} times the solver's CPU per decision")
        trail = (f"{r.gap:.3f} below the solver's {r.solver:.3f}" if r.gap > 0 else
                 f"{-r.gap:.3f} above the solver's {r.solver:.3f}")
        parts.append(f"on {r.board}, {r.extra_us:,.0f} µs more per decision bought {r.change:+.3f}; at "
                     f"{r.us_symmetric:,.0f} µs the symmetric networks are {cheaper}, and win {r.symmetric:.3f}, {trail}")
    return ("Symmetric play, per level: " + "; ".join(parts) + ".") if parts else MISSING
