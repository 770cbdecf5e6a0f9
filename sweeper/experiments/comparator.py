"""The best window agent's tables of the book's boards, estimated and checked (``python -m sweeper best-window``).

The best window agent (:mod:`sweeper.agents.best_window`) knows every window
key's true value: the mean exact probability that its target is a mine over the
decisions where the key is on offer. This module estimates that table for one
board over a stated play distribution and writes it where the package keeps it
(:func:`sweeper.agents.best_window.default_path`), with the sample and the code that
made it in its header.

The play distribution is the decisions of the paper's greedy agent over the first
``games`` training games of each of ``parts`` independent runs (seeds
``SEED0 + 1 .. SEED0 + parts``, none of them a seed of the book's experiments).
Each part's sums and counts are computed alone and added, so the parts run in
parallel and the table of the first ``k`` parts is the same estimator on a
smaller sample: its *convergence* is read by scoring one fixed set of games
with the tables of 1, 2, 4, ... parts (the representation gap per decision, and
the share of decisions with a key the table has never met).
"""

from __future__ import annotations

import time

import numpy as np

from ..agents import best_window as bw
from ..checks import whole
from ..checks import workers as check_workers
from ..game.engine import Setting
from ..running.regret import estimate_best_window, regret
from ..running.training import check_record_memory, train
from .runner import in_processes, provenance

__all__ = ["SEED0", "MAX_PARTS", "CONVERGENCE", "estimate_part", "combine", "convergence", "make_table"]

#: Seeds of the parts are SEED0 + 1, SEED0 + 2, ...
SEED0 = 1000
#: The most parts of one table: each part's table is kept until they are added (the book's tables have 8 and 32).
MAX_PARTS = 128
#: The games the convergence is read on: greedy trained for ``train`` games on seed 1, then ``games`` frozen
#: games on seed 2, scored with each partial table.
CONVERGENCE = {"train": 100_000, "games": 5_000}


def estimate_part(board: str, games: int, part: int) -> bw.BestWindow:
    """Part ``part`` (1, 2, ...) of the sample: greedy's first ``games`` training games on seed SEED0 + part."""
    return estimate_best_window(board, games, SEED0 + part, agent="greedy")


def combine(parts) -> bw.BestWindow:
    """One table from several parts' tables (of one board): each key's sums and counts added."""
    parts = list(parts)
    if not parts or len({p.board for p in parts}) != 1 or len({p.symmetric for p in parts}) != 1:
        raise ValueError("combine takes one or more tables of one board and one symmetry")
    keys = np.concatenate([p.keys for p in parts])
    sums = np.concatenate([p.value * p.count for p in parts])
    counts = np.concatenate([p.count for p in parts])
    uniq, inv = np.unique(keys, return_inverse=True)
    total = np.bincount(inv, weights=counts).astype(np.int64)
    # the parts' sums are recovered as value * count: exact for the 0 and 1 values, within rounding otherwise
    value = np.clip(np.bincount(inv, weights=sums) / total, 0.0, 1.0)
    info = {"parts": len(parts), "games": int(sum(p.info.get("games", 0) for p in parts)),
            "decisions": int(sum(p.info.get("decisions", 0) for p in parts)),
            "candidates": int(total.sum()), "seconds": float(sum(p.info.get("seconds", 0.0) for p in parts)),
            "fallbacks": int(sum(p.info.get("fallbacks", 0) for p in parts))}
    return bw.BestWindow(parts[0].board, uniq, value, total, parts[0].symmetric, info)


def convergence(board: str, parts) -> list[dict]:
    """The fixed games of :data:`CONVERGENCE` scored with the tables of the first 1, 2, 4, ... parts (and all):
    per table, the parts, games and keys it rests on, the representation gap and the learning regret per decision,
    and the share of decisions with a key it has never met."""
    agent = train("greedy", board, CONVERGENCE["train"], seed=1, progress=False).agent
    sizes = sorted({min(k, len(parts)) for k in (1, 2, 4, 8, 16, 32) if k <= len(parts)} | {len(parts)})
    rows = []
    for k in sizes:
        table = combine(parts[:k])
        r = regret(agent.copy(), board, CONVERGENCE["games"], seed=2, learn=False, window=table)
        g = r.games
        rows.append({"parts": k, "games": int(table.info["games"]), "keys": len(table),
                     "gap_per_decision": r.per_decision("gap"), "learning_per_decision": r.per_decision("learning"),
                     "unknown_share": float(g["unknown_key_decisions"].sum() / g["decisions"].sum())})
    return rows


def make_table(board: str = "8x8x10", games: int = 125_000, parts: int = 8, workers: int = 1,
               out=None) -> bw.BestWindow:
    """Estimate the table of ``board`` from ``parts`` parts of ``games`` games each (``workers`` processes, at most
    :func:`sweeper.checks.max_workers`; ``parts`` at most :data:`MAX_PARTS`), read its convergence, and write it
    (default: the package's file for the board; atomically, so an interrupted run leaves the old file or none).
    Returns it. Ctrl-C stops the workers at once (``KeyboardInterrupt``) and writes nothing."""
    setting = str(Setting.parse(board))
    games = whole(games, "games", 1)
    parts = whole(parts, "parts", 1)
    workers = check_workers(workers)
    if parts > MAX_PARTS:
        raise ValueError(f"parts must be at most {MAX_PARTS} (every part's table is kept until they are added), "
                         f"got {parts}")
    check_record_memory(games)
    prov = provenance()
    t0 = time.perf_counter()
    calls = [(estimate_part, (setting, games, i + 1)) for i in range(parts)]
    tables = [None] * parts
    if workers == 1:
        tables = [fn(*args) for fn, args in calls]
    else:
        in_processes(calls, workers, tables.__setitem__)
    table = combine(tables)
    conv = convergence(setting, tables)
    table.info.update({
        "play": f"the decisions of the greedy agent's first {games:,} training games on each of {parts} seeds "
                f"({SEED0 + 1}-{SEED0 + parts}), every candidate on offer at every decision",
        "games_per_part": games, "seeds": [SEED0 + i + 1 for i in range(parts)], "agent": "greedy",
        "convergence": conv, "convergence_games": dict(CONVERGENCE), "provenance": prov,
        "wall_seconds": time.perf_counter() - t0, "command": f"python -m sweeper best-window --board {setting} "
                                                            f"--games {games} --parts {parts}"})
    table.save(out or bw.default_path(setting))
    return table
