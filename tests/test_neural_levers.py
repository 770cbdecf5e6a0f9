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
    v = nl.lever_values(levers)
    assert (v["budget"], v["games"], v["base"], v["decisions"], v["steps"]) == (10.0, 1000, 0.64, 60_000, 3_000)
    assert (v["more"], v["less"], v["apart"]) == ("“curriculum”", "“exploration 0.05”", "“symmetries”")
    assert (v["more_n"], v["less_n"], v["apart_n"]) == (1, 1, 1)
    assert (v["top"], v["top_rate"]) == ("curriculum", 0.74) and v["top_diff"] == pytest.approx(0.1)
    assert v["top_lo"] > 0 and v["beyond"] == "none" and v["within_n"] == 3  # no noise known: none set apart
    only = nl.with_differences(nl.lever_runs(outputs[:1] + outputs[2:3]))
    assert (nl.lever_values(only)["more"], nl.lever_values(only)["less"]) == ("none", "none")


def test_the_work_is_set_apart_only_beyond_the_clocks_noise():
    outputs = [("defaults", _lever(640)), ("symmetries", _lever(650))]
    fast, slow = _lever(700), _lever(560)
    fast.info.update(train_decisions=180_000, train_updates=1_500)
    slow.info.update(train_decisions=72_000, train_updates=3_600)  # 1.2 times the defaults': within a noise of 1.5
    levers = nl.with_differences(nl.lever_runs(outputs + [("minibatch 128, replay 0.5", fast), ("mine counter", slow)]))
    f = nl.work_factors(levers, noise=1.5)
    assert list(f.index) == ["symmetries", "minibatch 128, replay 0.5", "mine counter"]
    assert (f.loc["minibatch 128, replay 0.5", "decisions"], f.loc["minibatch 128, replay 0.5", "steps"]) == (3.0, 0.5)
    assert list(f["beyond_noise"]) == [False, True, False]
    v = nl.lever_values(levers, noise=1.5)
    assert (v["beyond"], v["beyond_n"], v["within_n"], v["noise"]) == ("“minibatch 128, replay 0.5”", 1, 2, 1.5)
    assert v["more"] == "“minibatch 128, replay 0.5”" and v["differ_beyond"] == "“minibatch 128, replay 0.5”"
    assert v["less"] == "“mine counter”" and v["differ_within"] == "“mine counter”"
    assert nl.lever_values(levers, noise=4.0)["beyond"] == "none"
    assert not nl.work_factors(levers)["beyond_noise"].any()  # the noise unknown: no lever set apart


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
    v = nl.lever_values(levers, noise=1.5)
    assert (v["budget"], v["games"], v["base"], v["decisions"]) == (15.0, 1000, 0.3, 400_000)
    assert (v["more"], v["apart"], v["less"]) == ("“replay 1”", "“mine counter”", "none")
    assert (v["top"], v["beyond"], v["differ_beyond"]) == ("replay 1", "“replay 1”", "“replay 1”")
    f = nl.work_factors(levers, noise=1.5)
    assert f.loc["replay 1", "decisions"] == pytest.approx(0.625)
    assert f.loc["replay 1", "steps"] == pytest.approx(12_400 / 11_200)
    assert f.loc["mine counter", "decisions"] == 1.0 and not f.loc["mine counter", "beyond_noise"]


def test_the_doubled_budget_is_set_against_the_same_seeds_stored_network():
    levers = nl.with_differences(nl.lever_runs([("expert recipe", _expert(300))], study="expert"))
    tests = pd.DataFrame([{"train": "16x30x99", "test": "16x30x99", "seed": 1, "wins": 310, "test_games": 1000,
                           "win_rate": 0.31},
                          {"train": "16x30x99", "test": "16x30x99", "seed": 2, "wins": 400, "test_games": 1000,
                           "win_rate": 0.4}])
    v = nl.doubled_budget_values(levers, tests)
    assert (v["seed"], v["minutes"], v["rate"], v["base"]) == (1, 29.0, 0.31, 0.3)
    assert v["phases"] == "150 CPU seconds on 8x8x10 and 450 CPU seconds on 16x16x40"
    assert v["diff"] == pytest.approx(0.01) and v["lo"] < 0 < v["hi"]
    assert v["verdict"] == "cannot be told apart from the recipe's on 1,000 boards"
    assert v["reading"].startswith("neither one of the levers nor about twice the CPU")
    faster = nl.with_differences(nl.lever_runs([("expert recipe", _expert(300)), ("replay 1", _expert(380))],
                                               study="expert"))
    assert nl.doubled_budget_values(faster, tests)["reading"].startswith("a lever or about twice the CPU")
    more = tests.assign(wins=[400, 400], win_rate=[0.4, 0.4])
    assert nl.doubled_budget_values(levers, more)["verdict"] == "won more"
    assert nl.doubled_budget_values(levers, more)["reading"].startswith("a lever or about twice")
    assert nl.doubled_budget_values(levers, tests[tests["seed"] == 2]) == {}
