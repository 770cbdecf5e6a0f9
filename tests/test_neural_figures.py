"""The neural chapter's data (sweeper/viz/figures/neural.py) on hand-made stored outputs: no torch needed."""

import numpy as np
import pandas as pd
import pytest

from sweeper.experiments.runner import Output, Task
from sweeper.experiments.stats import wilson
from sweeper.viz.figures import neural as nf


def _output(board, seed, own_wins, others):
    """One run's output: 1,000 test games per level; ``others`` maps a test level to its wins."""
    tests = []
    for test, wins in {board: own_wins, **others}.items():
        lo, hi = wilson(wins, 1000)
        tests.append({"board": test, "test_games": 1000, "wins": wins, "win_rate": wins / 1000, "lo": lo, "hi": hi,
                      "revealed": 0.9, "quality_missed_per_sure": 0.01})
    points = pd.DataFrame({"games": [100, 300], "cpu_seconds": [60.0, 1700.0], "wins": [own_wins // 2, own_wins],
                           "test_games": 1000, "win_rate": [own_wins / 2000, own_wins / 1000]})
    view = np.full((8, 8), 9, np.int8)
    mines = np.zeros((8, 8), bool)
    mistakes = pd.DataFrame({"board": [board], "name": [f"{board}_0"], "game": [3], "decision": [5], "tile": [7],
                             "net": [0.2], "exact": [1.0], "covered": [64]})
    out = Output(tables={"checkpoints": points, "tests": pd.DataFrame(tests), "mistakes": mistakes},
                 arrays={"mistakes": {f"{board}_0_view": view, f"{board}_0_mines": mines}},
                 info={"train_games": 300, "train_decisions": 6000, "train_updates": 400, "train_cpu_seconds": 1700.0,
                       "parameters": 37000, "agent": "neural32x5"})
    return Task.make("neural_bandit", board=board, seed=seed), out


def _runs():
    outs = [_output("8x8x10", s, w, {"16x16x40": 700 + s}) for s, w in ((1, 850), (2, 860), (3, 870))]
    outs += [_output("16x16x40", s, 600, {"8x8x10": 800}) for s in (1, 2, 3)]
    return nf.neural_runs(outs)


def _players():
    rows = [("random", "8x8x10", 5), ("greedy", "8x8x10", 7300), ("solver", "8x8x10", 8790),
            ("random", "16x16x40", 0), ("greedy", "16x16x40", 3000), ("solver", "16x16x40", 8510)]
    df = pd.DataFrame(rows, columns=["player", "board", "wins"]).assign(games=10_000)
    df["win_rate"] = df["wins"] / df["games"]
    return df


def test_the_runs_become_tidy_frames():
    r = _runs()
    assert len(r["facts"]) == 6 and set(r["facts"]["board"]) == {"8x8x10", "16x16x40"}
    assert len(r["checkpoints"]) == 12 and len(r["tests"]) == 12
    assert r["mistakes"]["view"].iloc[0].shape == (8, 8) and r["mistakes"]["train"].iloc[0] == "8x8x10"


def test_pooled_rates_add_the_seeds_and_keep_their_spread():
    p = nf.pooled(_runs()["tests"])
    own = p[(p["train"] == "8x8x10") & (p["test"] == "8x8x10")].iloc[0]
    assert (own["wins"], own["games"], own["seeds"]) == (2580, 3000, 3)
    assert own["win_rate"] == pytest.approx(0.86) and (own["lo"], own["hi"]) == wilson(2580, 3000)
    assert (own["seed_min"], own["seed_max"]) == (0.85, 0.87)
    table = nf.transfer_table(_runs()["tests"])
    assert list(table.index) == ["trained on 8x8x10", "trained on 16x16x40"]
    assert table.loc["trained on 8x8x10", "tested on 8x8x10"].startswith("0.860 [")


def test_targets_and_sentences_agree_with_the_numbers():
    r, players = _runs(), _players()
    t = nf.against_targets(r["tests"], players).set_index("board")
    assert t.loc["8x8x10", "own"] == pytest.approx(0.86) and t.loc["8x8x10", "short"] == pytest.approx(0.0)
    assert t.loc["16x16x40", "own"] == pytest.approx(0.6) and t.loc["16x16x40", "short"] == pytest.approx(0.15)
    # the best network on intermediate was trained on beginner (0.702 pooled against 0.600)
    assert t.loc["16x16x40", "best_from"] == "8x8x10" and t.loc["16x16x40", "best"] == pytest.approx(0.702)
    assert t.loc["16x16x40", "solver"] == pytest.approx(0.851)
    f = nf.findings(r, players)
    assert "on 8x8x10, the networks trained there win 0.860" in f["targets"] and "reaches the target of 0.86" in \
        f["targets"]
    assert "falls 0.150 short of the target of 0.75;" in f["targets"]
    assert "trained on 8x8x10, a network wins 0.702 on 16x16x40, more than the networks trained on 16x16x40" \
        in f["transfer"]
    assert "8x8x10: 300 games in 28.3 CPU minutes" in f["speed"]


def test_the_budget_reads_the_last_checkpoint_within_it():
    a = nf.at_cpu(_runs()["checkpoints"], 1800)
    assert len(a) == 6 and (a["cpu_seconds"] == 1700.0).all()
    assert nf.at_cpu(_runs()["checkpoints"], 100)["games"].eq(100).all()


def test_a_rate_just_under_the_target_says_the_interval_holds_it():
    outs = [_output("8x8x10", s, w, {}) for s, w in ((1, 850), (2, 855), (3, 860))]
    f = nf.findings(nf.neural_runs(outs), _players())
    assert "falls 0.005 short of the target of 0.86 (inside the interval)" in f["targets"]
