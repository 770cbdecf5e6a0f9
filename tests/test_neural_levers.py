"""The neural chapter's ablation (sweeper/viz/figures/neural_levers.py) on hand-made stored outputs."""

import pandas as pd
import pytest

from sweeper.experiments.runner import Output
from sweeper.experiments.stats import wilson
from sweeper.viz.figures import neural_levers as nl


def _lever(wins, cpu=600.0, curriculum=None):
    lo, hi = wilson(wins, 1000)
    tests = pd.DataFrame([{"board": "16x16x40", "test_games": 1000, "wins": wins, "win_rate": wins / 1000, "lo": lo,
                           "hi": hi, "revealed": 0.8, "quality_missed_per_sure": 0.01}])
    info = {"train_games": 1000, "train_decisions": 60_000, "train_updates": 3_000, "train_cpu_seconds": cpu,
            "total_train_cpu_seconds": cpu + (150.0 if curriculum else 0.0)}
    if curriculum:
        info.update(curriculum_games=[curriculum], curriculum_decisions=[10 * curriculum],
                    curriculum_updates=[curriculum], curriculum_cpu_seconds=[150.0])
    return Output(tables={"tests": tests}, info=info)


def test_the_ablation_sets_every_lever_against_the_defaults():
    outputs = [("defaults", _lever(640)), ("curriculum", _lever(740, 450.0, curriculum=10_000)),
               ("symmetries", _lever(650)), ("exploration 0.05", _lever(560))]
    levers = nl.with_differences(nl.lever_runs(outputs))
    row = levers.set_index("lever")
    assert list(row["verdict"]) == ["", "more", "cannot be told apart", "less"]
    assert row.loc["curriculum", "games"] == 11_000 and row.loc["curriculum", "cpu_seconds"] == 600.0
    assert row.loc["curriculum", "decisions_per_cpu_second"] == pytest.approx(160_000 / 600)
    assert row.loc["curriculum", "difference"] == pytest.approx(0.1)
    assert row.loc["symmetries", "diff_lo"] < 0 < row.loc["symmetries", "diff_hi"]
    table = nl.lever_table(levers)
    assert table.loc["defaults", "against the defaults [95%]"] == ""
    assert table.loc["curriculum", "win rate [95%]"].startswith("0.740 [")
    assert table.loc["curriculum", "decisions"] == "160,000" and table.loc["curriculum", "gradient steps"] == "13,000"
    assert table.loc["curriculum", "CPU min (as recorded)"] == "10.0"
    assert [c for c in table.columns if "CPU" in c] == ["CPU min (as recorded)"]  # no rate per CPU second
    text = nl.lever_sentence(levers)
    assert "won 0.640 of the first 1,000 intermediate boards" in text
    assert "won more on the same boards: curriculum (0.740, +0.100)" in text
    assert "These won less: exploration 0.05 (0.560, -0.080)" in text
    assert "cannot be told apart from the defaults on 1,000 boards" in text and "symmetries (0.650, +0.010)" in text
    assert "one seed" in text.lower()


def test_the_cost_sentence_sets_apart_only_the_levers_beyond_the_clocks_noise():
    outputs = [("defaults", _lever(640)), ("symmetries", _lever(650))]
    fast, slow = _lever(700), _lever(600)
    fast.info.update(train_decisions=180_000, train_updates=1_500)
    slow.info.update(train_decisions=72_000, train_updates=3_600)  # 1.2 times the defaults': within a noise of 1.5
    levers = nl.with_differences(nl.lever_runs(outputs + [("minibatch 128, replay 0.5", fast), ("mine counter", slow)]))
    text = nl.cost_sentence(levers, noise=1.5)
    assert text.startswith("In the same 10 CPU minutes of budget the defaults made 60,000 training decisions and took "
                           "3,000 gradient steps, all phases counted. Each lever's decisions and gradient steps, as "
                           "factors of the defaults': ")
    assert "beyond the clock's noise (1.50 times), minibatch 128, replay 0.5 (3.00 and 0.50)" in text
    assert ("within it, where the load of the machine may account for the difference, symmetries (1.00 and 1.00); "
            "mine counter (1.20 and 1.20).") in text
    assert "per CPU second" not in text
    assert "none beyond the clock's noise (4.00 times)" in nl.cost_sentence(levers, noise=4.0)
    assert "no lever is set apart" in nl.cost_sentence(levers)  # the noise unknown: no lever set apart


def _expert(wins, decisions=300_000, updates=1_200):
    out = _lever(wins, 500.0, curriculum=10_000)
    out.tables["tests"]["board"] = "16x30x99"
    out.info.update(train_decisions=decisions, train_updates=updates)
    return out


def test_the_expert_study_sets_its_levers_against_the_expert_recipe():
    outputs = [("expert recipe", _expert(300)), ("mine counter", _expert(305)),
               ("replay 1", _expert(360, decisions=150_000, updates=2_400))]
    levers = nl.with_differences(nl.lever_runs(outputs, study="expert"))
    assert list(levers["verdict"]) == ["", "cannot be told apart", "more"]
    table = nl.lever_table(levers)
    assert table.loc["expert recipe", "against the recipe [95%]"] == ""
    assert table.loc["replay 1", "against the recipe [95%]"].startswith("+0.060 [")
    text = nl.lever_sentence(levers)
    assert "trained for 15 CPU minutes won 0.300 of the first 1,000 expert boards" in text
    assert "won more on the same boards: replay 1 (0.360, +0.060)" in text
    assert "cannot be told apart from the recipe on 1,000 boards" in text
    cost = nl.cost_sentence(levers, noise=1.5)
    assert cost.startswith("In the same 15 CPU minutes of budget the recipe made 400,000 training decisions")
    assert "as factors of the recipe's: beyond the clock's noise (1.50 times), replay 1 (0.62 and 1.11)" in cost
    assert "within it, where the load of the machine may account for the difference, mine counter (1.00 and 1.00)" \
        in cost


def test_the_doubled_budget_is_set_against_the_same_seeds_stored_network():
    levers = nl.with_differences(nl.lever_runs([("expert recipe", _expert(300))], study="expert"))
    tests = pd.DataFrame([{"train": "16x30x99", "test": "16x30x99", "seed": 1, "wins": 310, "test_games": 1000,
                           "win_rate": 0.31},
                          {"train": "16x30x99", "test": "16x30x99", "seed": 2, "wins": 400, "test_games": 1000,
                           "win_rate": 0.4}])
    text = nl.doubled_budget_sentence(levers, tests)
    assert "the stored expert network of the same seed (29 CPU minutes of the same learning, of which 150 on 8x8x10" in text
    assert "won 0.310 of the same boards against the recipe's 0.300 here: +0.010 [" in text
    assert "a difference the 1,000 boards cannot tell from 0. Neither one of the levers nor about twice" in text
    faster = nl.with_differences(nl.lever_runs([("expert recipe", _expert(300)), ("replay 1", _expert(380))],
                                               study="expert"))
    assert "Neither" not in nl.doubled_budget_sentence(faster, tests)
