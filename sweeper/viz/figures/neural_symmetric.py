"""The chapter "From a table to a network", its section on the symmetries at play time: the stored networks of
``ext:neural`` as they were trained (``ext:benchmark_neural``) and playing on the mean of their logits over the
board's symmetries (``ext:benchmark_neural_symmetric``), on the same boards of the benchmark, and what that costs
beside the exact solver. Nothing here computes a result; every function takes its input, so a test can hand it made
runs.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...bench import work_cost
from ...experiments.stats import mean_interval, wilson
from . import benchmark as bf
from .neural import KEYS, LEVELS, SEED_SLACK, TARGETS
from .prose import and_list


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


#: What a change of win rate allows, by its 95% interval over the networks (:func:`symmetric_values`).
CHANGE = {1: "win more than as trained", -1: "win less than as trained",
          0: "cannot be told apart from themselves as trained"}


def symmetric_values(t: pd.DataFrame, record=None) -> dict:
    """What :func:`symmetric_play` shows, as named values for the page's prose, per level (``<key>_`` of
    :data:`~sweeper.viz.figures.neural.KEYS`): the mean win rate over the networks as trained (``plain``) and playing
    symmetric (``symmetric``), the mean of each network's change with its 95% t-interval over them (``diff``, ``lo``,
    ``hi``) and the verdict it allows (``change``: :data:`CHANGE`); the test CPU per decision of symmetric play over
    that as trained at the committed bench's unit costs (``times``; ``record`` as for
    :func:`sweeper.bench.unit_costs`); the symmetric networks pooled (``pooled``), their
    lowest network (``seed_min``), the ``target`` and whether it is ``met``; and the ``boards`` and ``networks`` of a
    level. An error saying how to score them (:data:`MISSING`) when no symmetric run is stored."""
    if t.empty:
        raise ValueError(MISSING)
    values = {}
    for r in t.itertuples():
        k = KEYS[r.board]
        times = work_cost("neural-symmetric", r.board, 1, "test", record) / work_cost("neural", r.board, 1, "test", record)
        values.update({f"{k}_plain": float(r.plain), f"{k}_symmetric": float(r.symmetric),
                       f"{k}_diff": float(r.difference), f"{k}_lo": float(r.diff_lo), f"{k}_hi": float(r.diff_hi),
                       f"{k}_change": CHANGE[1 if r.diff_lo > 0 else -1 if r.diff_hi < 0 else 0],
                       f"{k}_times": times,
                       f"{k}_pooled": float(r.pooled), f"{k}_seed_min": float(r.seed_min),
                       f"{k}_target": float(r.target), f"{k}_met": "met" if r.met else "not met",
                       "boards": int(r.boards), "networks": int(r.seeds)})
    return values


def symmetric_price(sym: pd.DataFrame, learners: pd.DataFrame, record=None) -> pd.DataFrame:
    """Per level, what symmetric play buys and costs (from :func:`symmetric_play` on the boards of
    :func:`~sweeper.viz.figures.neural.learners`): the change of win rate with its interval over the networks, the
    test CPU per decision (µs) of the networks as trained and playing symmetric and of the exact solver at the
    committed bench's unit costs (``record`` as for :func:`sweeper.bench.unit_costs`), the extra µs and the change per
    extra ms, and the solver's win rate on the same boards beside the symmetric networks'."""
    rows = []
    for r in sym.itertuples():
        solver = learners[(learners["board"] == r.board) & learners["agent"].str.startswith("exact solver")]
        if solver.empty:
            continue
        us = {k: work_cost(k, r.board, 1, "test", record=record) * 1e6
              for k in ("neural", "neural-symmetric", "solver")}
        extra = us["neural-symmetric"] - us["neural"]
        rows.append({"board": r.board, "change": r.difference, "change_lo": r.diff_lo, "change_hi": r.diff_hi,
                     "us_plain": us["neural"], "us_symmetric": us["neural-symmetric"], "extra_us": extra,
                     "change_per_ms": 1e3 * r.difference / extra if extra > 0 else np.nan,
                     "symmetric": r.symmetric, "us_solver": us["solver"], "solver": float(solver.iloc[0]["win_rate"]),
                     "gap": float(solver.iloc[0]["win_rate"]) - r.symmetric, "boards": int(r.boards),
                     "networks": int(r.seeds)})
    return pd.DataFrame(rows)


def price_values(price: pd.DataFrame, noise: float | None = None) -> dict:
    """:func:`symmetric_price` as named values for the exercise's prose, per level (``<key>_`` of
    :data:`~sweeper.viz.figures.neural.KEYS`): the ``extra_us`` of symmetric play per test decision and the change it
    bought (``change``, ``lo``, ``hi``, ``per_ms``; ``verdict``: :data:`CHANGE`); the symmetric networks' and the
    solver's µs per decision (``us``, ``solver_us``) and the first over the second (``ratio``); their win rates
    (``symmetric``, ``solver``) and the solver's minus theirs (``gap``). Then ``cheaper``: the levels where the
    symmetric networks' decisions are the cheaper by more than ``noise`` times (the clock's; "no level" if none),
    and the ``boards`` and ``networks`` of a level. An error (:data:`MISSING`) when no symmetric run is stored."""
    if price.empty:
        raise ValueError(MISSING)
    values, cheaper = {"boards": int(price["boards"].iloc[0]), "networks": int(price["networks"].iloc[0])}, []
    for r in price.itertuples():
        k, ratio = KEYS[r.board], float(r.us_symmetric / r.us_solver)
        if ratio < 1 and (not noise or 1 / ratio > noise):
            cheaper.append(bf.LEVEL_OF[r.board])
        values.update({f"{k}_extra_us": float(r.extra_us), f"{k}_change": float(r.change),
                       f"{k}_lo": float(r.change_lo), f"{k}_hi": float(r.change_hi), f"{k}_per_ms": float(r.change_per_ms),
                       f"{k}_verdict": CHANGE[1 if r.change_lo > 0 else -1 if r.change_hi < 0 else 0],
                       f"{k}_us": float(r.us_symmetric), f"{k}_solver_us": float(r.us_solver), f"{k}_ratio": ratio,
                       f"{k}_symmetric": float(r.symmetric), f"{k}_solver": float(r.solver), f"{k}_gap": float(r.gap)})
    values["cheaper"] = and_list(cheaper) if cheaper else "no level"
    return values
