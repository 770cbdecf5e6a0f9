"""The numba kernels against the slow, readable reference (tests/slow_reference.py).

Both play the same mine layouts with a fresh agent; every game's outcome and
move counts, and the final value tables (as multisets of (Q, N)), must agree."""

from collections import Counter

import numpy as np
import pytest

from slow_reference import play_reference
from sweeper import EpsilonGreedy, Greedy, StateAction, UCBAgent, play
from sweeper.game.engine import Game


def layouts(board, count, seed):
    return [Game(board, seed=seed * 1000 + i).mines for i in range(count)]


def compare(agent, board, lays, **ref_kw):
    run = play(agent, board, len(lays), layouts=lays, progress=False)
    games, table = play_reference(lays, **ref_kw)
    rec = run.records
    assert list(rec["won"]) == [g["won"] for g in games]
    assert list(rec["decisions"]) == [g["decisions"] for g in games]
    clicks = [sum(k != "flag" for k, *_ in g["moves"]) for g in games]
    flags = [sum(k == "flag" for k, *_ in g["moves"]) for g in games]
    assert list(rec["clicks"]) == clicks
    assert list(rec["flags"]) == flags
    keys, q, n = agent.table.recorded()
    assert len(keys) == len(table)
    ours = Counter(zip(np.round(q, 12), n))
    theirs = Counter((round(v, 12), c) for v, c in table.values())
    assert ours == theirs
    return run


@pytest.mark.parametrize("board, count", [("8x8x10", 40), ("5x5x6", 80), ("6x4x7", 80)])
def test_greedy_matches_reference(board, count):
    run = compare(Greedy(), board, layouts(board, count, 1), policy="greedy")
    if board == "5x5x6":
        assert run.records["removals"].sum() > 0  # the flag-limit rule was exercised


@pytest.mark.parametrize("board", ["8x8x10", "5x5x6"])
def test_ucb_matches_reference(board):
    compare(UCBAgent(0.1), board, layouts(board, 40, 2), policy="ucb", c=0.1)


def test_ablations_match_reference():
    compare(Greedy(symmetric=False), "6x6x6", layouts("6x6x6", 60, 3), policy="greedy", symmetric=False)
    compare(Greedy(flags=False), "6x6x6", layouts("6x6x6", 60, 4), policy="greedy", flags=False)
    compare(UCBAgent(0.5, flags=False, symmetric=False), "5x5x5", layouts("5x5x5", 60, 5), policy="ucb", c=0.5,
            symmetric=False, flags=False)


def test_state_action_matches_reference():
    compare(StateAction(), "4x4x3", layouts("4x4x3", 150, 6), policy="sa")
    compare(StateAction(), "4x4x5", layouts("4x4x5", 150, 7), policy="sa")


def test_epsilon_zero_is_greedy():
    lays = layouts("6x6x7", 60, 8)
    a = play(EpsilonGreedy(0.0), "6x6x7", len(lays), layouts=lays, progress=False)
    b = play(Greedy(), "6x6x7", len(lays), layouts=lays, progress=False)
    assert a.records.equals(b.records)
