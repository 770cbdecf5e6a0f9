"""The exploring twins beside the book's beginner networks (sweeper/viz/figures/neural_explore.py) on made runs."""

import math

import pandas as pd
import pytest

from sweeper.experiments.runner import Output, Task
from sweeper.viz.figures import neural_explore as ne


def _twin(seed, wins, games=1000):
    info = {"train_decisions": 2_230_050, "train_updates": 8_710, "curriculum_decisions": [360_000],
            "curriculum_updates": [22_500]}
    tests = pd.DataFrame({"board": ["8x8x10", "16x16x40"], "test_games": [games, games], "wins": [wins, 5],
                          "win_rate": [wins / games, 5 / games]})
    return Task.make("neural_bandit", board="8x8x10", seed=seed, epsilon=0.05), Output(tables={"tests": tests},
                                                                                        info=info)


def _checkpoints(wins_by_seed, games=1000):
    rows = []
    for seed, wins in wins_by_seed.items():
        for k, w in ((1, wins), (2, wins + 10)):  # the first checkpoint, then a later one
            rows.append({"board": "8x8x10", "seed": seed, "decisions": 2_230_016 * k, "decisions_all": 2_590_016 * k,
                         "updates_all": 31_000 * k, "test_games": games, "wins": w, "win_rate": w / games})
    rows.append({"board": "16x16x40", "seed": 1, "decisions": 1, "decisions_all": 1, "updates_all": 1,
                 "test_games": games, "wins": 1, "win_rate": 0.001})
    return pd.DataFrame(rows)


def test_each_twin_is_set_beside_the_first_checkpoint_of_its_seed():
    tw = ne.twins([_twin(s, w) for s, w in ((2, 838), (1, 840), (3, 848))], _checkpoints({1: 860, 2: 856, 3: 870}))
    assert list(tw["seed"]) == [1, 2, 3]
    assert list(tw["greedy_wins"]) == [860, 856, 870] and list(tw["exploring_wins"]) == [840, 838, 848]
    assert list(tw["difference"].round(3)) == [-0.020, -0.018, -0.022]
    assert (tw["exploring_decisions"] == 2_590_050).all() and (tw["greedy_decisions"] == 2_590_016).all()
    v = ne.explore_values(tw)
    assert v["difference"] == pytest.approx(-0.020) and v["hi"] < 0 and v["verdict"] == ne.VERDICTS[-1]
    assert v["greedy"] == pytest.approx(862 / 1000) and v["greedy_lo"] < v["greedy"] < v["greedy_hi"]
    assert (v["seeds"], v["games"], v["epsilon"]) == (3, 1000, 0.05)
    table = ne.explore_table(tw)
    assert table.loc[1, "exploring − greedy"] == "-0.020" and table.loc[1, "decisions (greedy / exploring)"] == \
        "2,590,016 / 2,590,050"


def test_seeds_that_disagree_make_no_verdict_and_one_seed_has_no_interval():
    tw = ne.twins([_twin(s, w) for s, w in ((1, 870), (2, 850), (3, 860))], _checkpoints({1: 860, 2: 856, 3: 860}))
    assert ne.explore_values(tw)["verdict"] == ne.VERDICTS[0]
    one = ne.explore_values(tw.iloc[:1])
    assert math.isnan(one["lo"]) and one["verdict"] == ne.VERDICTS[0]


def test_a_twin_on_other_boards_than_its_checkpoint_is_refused():
    with pytest.raises(ValueError, match="must play the same ones"):
        ne.twins([_twin(1, 800, games=500)], _checkpoints({1: 860}))
    with pytest.raises(ValueError, match="no checkpoint stored"):
        ne.twins([_twin(4, 800)], _checkpoints({1: 860}))
