"""The neural chapter's data (sweeper/viz/figures/neural.py) on hand-made stored outputs: no torch needed."""

from collections import Counter

import numpy as np
import pandas as pd
import pytest

from sweeper.bench import work_cost
from sweeper.experiments.runner import Output, Task
from sweeper.experiments.stats import wilson
from sweeper.viz.figures import neural as nf, neural_symmetric as ns

from made_benchmark import made_bench
from sweeper.experiments.reproduce import REPO


def _output(board, seed, own_wins, others, points=None):
    """One run's output: 1,000 test games per level, in the order of the levels (as the experiment stores them: the
    i-th plays the boards of ``held_out_seed(seed, i)``, the checkpoints those of 0); ``others`` maps a test level to
    its wins; ``points``: the wins at the two checkpoints (100 and 300 games, 2,000 and 6,000 decisions, 130 and 400
    gradient steps: the end of training), by default half of ``own_wins`` and ``own_wins``."""
    tests = []
    wins_on = {board: own_wins, **others}
    for test, wins in ((t, wins_on[t]) for t in nf.LEVELS if t in wins_on):
        lo, hi = wilson(wins, 1000)
        tests.append({"board": test, "test_games": 1000, "wins": wins, "win_rate": wins / 1000, "lo": lo, "hi": hi,
                      "revealed": 0.9, "quality_games": 20, "quality_decisions": 400 + seed,
                      "quality_sure_share": 0.9, "quality_missed_per_sure": 0.01 * seed,
                      "quality_regret_per_decision": 0.001 * seed})
    points = points or (own_wins // 2, own_wins)
    points = pd.DataFrame({"games": [100, 300], "decisions": [2_000, 6_000], "updates": [130, 400],
                           "cpu_seconds": [60.0, 1700.0], "wins": list(points),
                           "test_games": 1000, "win_rate": [w / 1000 for w in points]})
    view = np.full((8, 8), 9, np.int8)
    mines = np.zeros((8, 8), bool)
    mistakes = pd.DataFrame({"board": [board], "name": [f"{board}_0"], "game": [3], "decision": [5], "tile": [7],
                             "net": [0.2], "exact": [1.0], "covered": [64]})
    cal = pd.DataFrame({"bin": ["0.00-0.10", "0.90-1.00"], "tiles": [90, 10], "net": [0.05, 0.95],
                        "exact": [0.05 + 0.01 * seed, 0.95], "mines": [0.05, 0.9], "board": board})
    mistakes["net"] = 0.2 / seed
    out = Output(tables={"checkpoints": points, "tests": pd.DataFrame(tests), "mistakes": mistakes,
                         "calibration": cal},
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
    assert list(table.index) == ["from 8x8x10", "from 16x16x40"]
    assert table.loc["from 8x8x10", "on 8x8x10"] == "0.860 [{:.3f}, {:.3f}]".format(*wilson(2580, 3000))
    assert nf.transfer_table(_runs()["tests"], spread=True).loc["from 8x8x10", "on 8x8x10"] == "0.850-0.870"


def test_targets_and_their_values_agree_with_the_numbers():
    r, players = _runs(), _players()
    t = nf.against_targets(r["tests"], players).set_index("board")
    assert t.loc["8x8x10", "own"] == pytest.approx(0.86) and t.loc["8x8x10", "short"] == pytest.approx(0.01)
    assert t.loc["8x8x10", "seed_min"] == pytest.approx(0.85) and not t.loc["8x8x10", "met"]
    assert t.loc["16x16x40", "own"] == pytest.approx(0.6) and t.loc["16x16x40", "short"] == pytest.approx(0.2)
    # the best network on intermediate was trained on beginner (0.702 pooled against 0.600)
    assert t.loc["16x16x40", "best_from"] == "8x8x10" and t.loc["16x16x40", "best"] == pytest.approx(0.702)
    assert t.loc["16x16x40", "solver"] == pytest.approx(0.851)
    v = nf.target_values(nf.against_targets(r["tests"], players))
    assert v["beg_own"] == pytest.approx(0.86) and (v["beg_lo"], v["beg_hi"]) == pytest.approx(wilson(2580, 3000))
    assert v["beg_seed_min"] == pytest.approx(0.85) and v["beg_target"] == 0.87 and v["beg_met"] == "not met"
    assert v["int_own"] == pytest.approx(0.6) and v["int_met"] == "not met" and v["slack"] == 0.02
    assert v["int_best_from"] == "8x8x10" and v["int_best"] == pytest.approx(0.702)
    assert v["int_solver"] == pytest.approx(0.851) and v["beg_greedy"] == pytest.approx(0.73)
    assert not any(k.startswith("exp_") for k in v)  # no expert networks: no expert values
    # per seed, and the mean over the seeds with its Student t-interval (3 seeds: 2 degrees of freedom)
    assert t.loc["8x8x10", "seed_rates"] == pytest.approx((0.85, 0.86, 0.87))
    half = 4.302653 * 0.01 / 3 ** 0.5
    assert (t.loc["8x8x10", "mean_lo"], t.loc["8x8x10", "mean_hi"]) == pytest.approx((0.86 - half, 0.86 + half))
    assert v["beg_seeds"] == "0.850, 0.860 and 0.870" and v["beg_mean"] == pytest.approx(0.86)
    assert v["beg_t_below"] == "below"  # 0.835 < 0.87
    table = nf.targets_table(nf.against_targets(r["tests"], players), "networks")
    assert table.loc["8x8x10", "seeds"] == "0.850 / 0.860 / 0.870"
    assert table.loc["8x8x10", "mean [95% t]"] == f"0.860 [{0.86 - half:.3f}, {0.86 + half:.3f}]"
    w = nf.work_values(r["facts"])
    assert (w["beg_decisions"], w["beg_steps"], w["beg_games"]) == (6_000, 400, 300)
    assert (w["beg_own_decisions"], w["beg_own_games"], w["beg_spread"]) == (6_000, 300, 0)
    assert not any("cpu" in k for k in w)  # the work, counted; never the recorded seconds
    rise = nf.rising_values(r["checkpoints"])
    assert (rise["beg_before"], rise["beg_after"]) == pytest.approx((0.43, 0.86))
    assert (rise["beg_before_decisions"], rise["beg_after_decisions"]) == (2_000, 6_000)
    assert rise["beg_step"] == pytest.approx(0.43) and 0 < rise["beg_lo"] < 0.43 < rise["beg_hi"]
    assert rise["beg_verdict"] == nf.RISING[1] == "still rising when the budget ran out"
    for values in (v, w, rise):  # what the page glues: plain Python values, which MyST-NB's roles can format
        assert all(type(x) in (float, int, str) for x in values.values())


def test_a_level_is_called_still_rising_only_when_the_seeds_agree():
    """The checkpoints play the same boards every time: each seed's last step is paired, and the step's t-interval
    over the seeds decides."""
    outs = [_output("16x16x40", s, w, {}, points=(p, w)) for s, p, w in ((1, 690, 700), (2, 705, 700), (3, 690, 710))]
    rising = nf.rising_values(nf.neural_runs(outs)["checkpoints"])
    assert rising["int_step"] == pytest.approx(0.025 / 3) and rising["int_lo"] < 0 < rising["int_hi"]
    assert rising["int_verdict"] == "the seeds cannot tell whether it was still rising"
    outs = [_output("16x16x40", s, 700, {}, points=(600, 700)) for s in (1, 2, 3)]
    rising = nf.rising_values(nf.neural_runs(outs)["checkpoints"])
    assert (rising["int_lo"], rising["int_hi"]) == pytest.approx((0.1, 0.1))
    assert rising["int_verdict"] == "still rising when the budget ran out"
    outs = [_output("16x16x40", s, 700, {}, points=(800, 700)) for s in (1, 2, 3)]
    assert nf.rising_values(nf.neural_runs(outs)["checkpoints"])["int_verdict"] == "falling at the end"
    one = nf.neural_runs([_output("16x16x40", 1, 700, {})])["checkpoints"]
    assert nf.rising_values(one) == {}  # one seed: no interval, no verdict


def test_the_regret_values_keep_both_oracles_apart():
    q = pd.DataFrame([{"train": "8x8x10", "test": "8x8x10", "games": 60, "decisions": 1141,
                       "regret_per_decision": 0.0035, "regret_per_game": 0.066}])
    w = pd.DataFrame([{"trained games": 1_000_000, "test games": 10_000, "regret per decision": 0.0096,
                       "regret per game": 0.236, "gap per game": 0.187}])
    v = nf.regret_values(q, w)
    assert (v["nets_game"], v["nets_decision"], v["nets_decisions"], v["nets_games"]) == (0.066, 0.0035, 1141, 60)
    assert (v["table_trained"], v["table_game"], v["table_decision"], v["table_games"], v["table_gap"]) == (
        1_000_000, 0.236, 0.0096, 10_000, 0.187)
    assert "boards" not in v and not any(k.endswith("_click") for k in v)  # no benchmark: nothing on one scale
    assert nf.regret_values(q.assign(test="16x16x40"), w) == {}


def test_a_target_is_met_only_when_no_seed_falls_more_than_002_below_it():
    met = nf.against_targets(nf.neural_runs([_output("8x8x10", s, w, {}) for s, w in
                                             ((1, 860), (2, 880), (3, 880))])["tests"], _players())
    assert met["met"].iloc[0] and met["own"].iloc[0] == pytest.approx(0.8733, abs=1e-4)
    runs = nf.neural_runs([_output("8x8x10", s, w, {}) for s, w in ((1, 840), (2, 900), (3, 880))])
    low = nf.against_targets(runs["tests"], _players())
    assert not low["met"].iloc[0] and low["own"].iloc[0] == pytest.approx(0.8733, abs=1e-4)
    assert nf.target_values(low)["beg_met"] == "not met" and nf.target_values(met)["beg_met"] == "met"
    assert nf.targets_table(low).loc["8x8x10", "met"] == "no"


def test_quality_pools_the_seeds_by_their_decisions():
    q = nf.quality(_runs()["tests"]).set_index(["train", "test"])
    own = q.loc[("8x8x10", "8x8x10")]
    n = np.array([401, 402, 403])
    assert (own["games"], own["decisions"], own["seeds"]) == (60, 1206, 3)
    assert own["regret_per_decision"] == pytest.approx((n * [0.001, 0.002, 0.003]).sum() / n.sum())
    assert own["regret_per_game"] == pytest.approx((n * [0.001, 0.002, 0.003]).sum() / 60)
    assert own["missed_per_sure"] == pytest.approx((n * 0.9 * [0.01, 0.02, 0.03]).sum() / (n * 0.9).sum())
    assert nf.quality_table(q.reset_index()).shape == (4, 6)


def test_calibration_weights_the_bins_by_their_tiles():
    c = nf.calibration(_runs()).set_index(["train", "test", "bin"])
    low = c.loc[("8x8x10", "8x8x10", "0.00-0.10")]
    assert low["tiles"] == 270 and low["exact"] == pytest.approx(0.07) and low["net"] == pytest.approx(0.05)


def test_the_worst_mistake_per_level_is_the_furthest_from_the_exact_probability():
    w = nf.worst_mistakes(_runs()["mistakes"])
    assert w["test"].tolist() == ["8x8x10", "16x16x40"]  # reading order of the levels
    assert w["seed"].tolist() == [3, 3] and w["net"].iloc[0] == pytest.approx(0.2 / 3)
    v = nf.mistakes_values(w)
    assert (v["beg_net"], v["beg_exact"], v["beg_covered"], v["beg_decision"]) == pytest.approx((0.2 / 3, 1.0, 64, 5))
    assert "int_net" in v and "exp_net" not in v


def test_the_charts_draw_the_hand_made_runs():
    from sweeper.viz import neural_charts as nc
    r = _runs()
    players = _players()
    spec = nc.checkpoints_chart(r["checkpoints"], players, nf.TARGETS).to_dict()
    assert len(spec["hconcat"]) == 2 and spec["hconcat"][0]["title"] == "beginner (8x8x10)"
    line = spec["hconcat"][0]["layer"][2]["encoding"]
    assert line["x"]["field"] == "decisions_all" and line["x"]["title"] == "training decisions"  # the caption says the curriculum is included
    assert "CPU" not in str(spec)  # the chart's axis and tooltips are the work, counted
    assert len(nc.calibration_chart(nf.calibration(r)).to_dict()["hconcat"]) == 2
    row = nf.worst_mistakes(r["mistakes"]).iloc[0]
    assert "the exact P(mine) is 100%" in nc.mistake_chart(row).to_dict()["title"]
    with pytest.raises(ValueError, match="decisions_all"):
        nc.checkpoints_chart(r["checkpoints"], players, nf.TARGETS, x="cpu_minutes")


# ------------------------------------------------------------- on the benchmark's boards (ext:benchmark) --

def test_the_comparison_players_come_from_the_benchmark_boards():
    bench = made_bench(networks=False)
    p = nf.comparison_players(bench).set_index(["player", "board"])
    assert p.loc[("solver", "8x8x10"), "win_rate"] == pytest.approx(0.88) and p.loc[("solver", "8x8x10"), "seeds"] == 1
    g = p.loc[("greedy", "8x8x10")]
    assert g["seeds"] == 3 and g["games"] == 300 and g["wins"] == 222 and g["win_rate"] == pytest.approx(0.74)
    assert g["lo"] < 0.74 < g["hi"] and g["hi"] - g["lo"] < 0.1  # the t-interval over the seeds (0.74 +- 0.025)
    # on the first 40 boards only (those the networks play): each seed's rate over them
    from sweeper.viz.figures import benchmark as bf
    first = nf.comparison_players(bench, boards=40).set_index(["player", "board"]).loc[("greedy", "8x8x10")]
    want = [r[:40].mean() for r in bf.outcomes(bench["games"], "greedy table", "beginner")]
    assert first["boards"] == 40 and first["games"] == 120 and first["seed_rates"] == pytest.approx(tuple(want))


def test_transfer_verdicts_rest_on_the_seeds():
    t = nf.transfer_verdict_table(_runs()["tests"])
    # beginner networks on intermediate: 0.701-0.703 against the intermediate networks' 0.600 on every seed
    r = t.loc[("16x16x40", "8x8x10")]
    assert r["win rate (seeds)"] == "0.702 (0.701-0.703)" and r["trained there"] == "0.600 (0.600-0.600)"
    assert r["difference [95%]"].startswith("+0.102 [") and r["verdict"] == "more than"
    assert r["boards"] == "1,000" and r["seeds"] == "3 + 3"
    assert len(t) == 2 and all(i[0] != i[1] for i in t.index)


def _learners_bench(greedy=(21_000, 22_000, 23_000), cnn_steps=1_000):
    """The benchmark's runs for :func:`nf.learners`, each trained one recording its counted work: the solver, random
    clicks, the greedy table (73, 74, 75 of 100 beginner boards; ``greedy``: its training decisions, a None: that
    seed's not recorded), the per-tile PPO (50, 55, 60; 4,000 environment steps) and the CNN PPO (10, 12, 14;
    ``cnn_steps``)."""
    from made_benchmark import bench_output
    from sweeper.viz.figures import benchmark as bf
    outs = [bench_output("solver", 0, "solver", {"beginner": 88, "intermediate": 17, "expert": 9}),
            bench_output("random", 0, "random", {})]
    for s, d in zip((1, 2, 3), greedy):
        outs.append(bench_output("greedy", s, "table", {"beginner": 72 + s, "intermediate": 8}, train_board="8x8x10"))
        outs[-1][1].info["train_decisions"] = d or 0
    for policy, steps, wins in (("tiles", 4_000, (50, 55, 60)), ("cnn", cnn_steps, (10, 12, 14))):
        for s, w in zip((1, 2, 3), wins):
            outs.append(bench_output(f"ppo:{policy}", s, "PPO", {"beginner": w}, boards=(100,), train_board="8x8x10",
                                     cpu=1500.0))
            outs[-1][1].info["steps"] = steps
    bench = bf.benchmark_runs(outs)
    s = bench["scores"]
    s.loc[(s["spec"] == "greedy") & s["seed"].isin([i + 1 for i, d in enumerate(greedy) if d is None]),
          "train_decisions"] = np.nan
    return bench


def _hundred_boards(r):
    """The runs with checkpoints on 100 boards (the benchmark's made runs hold 100 beginner boards)."""
    cp = r["checkpoints"]
    r["checkpoints"] = cp.assign(test_games=100, wins=(cp["wins"] // 10), win_rate=(cp["wins"] // 10) / 100)
    return r


def test_learners_sets_every_learner_side_by_side_by_the_work_of_its_training():
    r = _hundred_boards(_runs())
    c = nf.learners(r, _learners_bench())
    beg = c[c["board"] == "8x8x10"].set_index("agent")
    nets = beg.loc["network"]
    assert nets["decisions"].tolist() == [2_000, 6_000] and nets["gradient_steps"].tolist() == [130, 400]
    assert nets["games"].tolist() == [100, 300] and nets["env_steps"].isna().all()
    greedy = beg.loc["greedy table (the paper's)"]
    assert greedy["decisions"] == 22_000 and greedy["games"] == 1000 and np.isnan(greedy["env_steps"])
    assert greedy["win_rate"] == pytest.approx(0.74) and greedy["seeds"] == 3
    tiles = beg.loc["MaskablePPO, per-tile policy"]
    assert tiles["decisions"] == tiles["env_steps"] == 4_000  # a PPO policy's decisions are its environment steps
    solver = beg.loc["exact solver (trains nothing)"]
    assert solver["decisions"] == 0 and solver["seeds"] == 1 and solver["µs_per_decision"] == pytest.approx(10.0)
    assert "cpu_minutes" not in c and "cpu_seconds" not in c  # no recorded CPU of training on this table
    # the benchmark holds 20 intermediate boards, fewer than the networks played: no row on other boards
    assert set(c.loc[c["board"] == "16x16x40", "agent"]) == {"network"}
    table = nf.learners_table(c)
    assert list(table.columns) == ["agent", "seeds", "training decisions", "gradient steps", "training games",
                                   "win rate [95%]", "seeds' range", "test µs / decision (as recorded)"]
    row = table[table["agent"] == "greedy table (the paper's)"].iloc[0]
    assert row["training decisions"] == "22,000"
    tiles = table[table["agent"] == "MaskablePPO, per-tile policy"].iloc[0]
    assert tiles["training decisions"] == "4,000"  # its environment steps: no column of its own to repeat them
    assert list(nf.learners_table(c, "work").columns) == nf.TABLE_PARTS["learners"]["work"]
    assert list(nf.learners_table(c, "wins").columns) == nf.TABLE_PARTS["learners"]["wins"]
    # a run that recorded no decisions: said so, never a number
    missing = nf.learners(r, _learners_bench(greedy=(21_000, None, 23_000)))
    assert np.isnan(missing.set_index("agent").loc["greedy table (the paper's)", "decisions"])
    table = nf.learners_table(missing)
    assert table[table["agent"] == "greedy table (the paper's)"]["training decisions"].iloc[0] == "not recorded"
    assert not any(k.startswith("greedy_") for k in nf.learners_values(missing))  # no number for unrecorded work


def test_the_learners_values_compare_the_work_and_the_clock_only_beyond_its_noise():
    r = _hundred_boards(_runs())
    c = nf.learners(r, _learners_bench())
    v = nf.learners_values(c, noise=1.5)
    # the greedy table made more decisions than the networks ever did: their end is within as many
    assert (v["greedy_decisions"], v["greedy_games"], v["greedy_seeds"]) == (22_000, 1_000, 3)
    assert v["greedy_rate"] == pytest.approx(0.74) and v["greedy_which"] == "last checkpoint within as many decisions"
    assert v["greedy_net_decisions"] == 6_000 and v["greedy_ratio"] == pytest.approx(6 / 22)
    assert v["greedy_net_rate"] == pytest.approx(0.86) and v["greedy_order"] == "below"
    assert (v["tile_decisions"], v["tile_rate"], v["tile_net_decisions"]) == (4_000, pytest.approx(0.55), 2_000)
    assert v["tile_ratio"] == pytest.approx(0.5) and v["tile_net_rate"] == pytest.approx(0.43 - 0.01 / 3)
    # the CNN made fewer decisions than the networks' first checkpoint: that first one is set against it
    assert v["cnn_decisions"] == 1_000 and v["cnn_ratio"] == pytest.approx(2.0)
    assert v["cnn_which"] == "first checkpoint (none came within as many decisions)" and v["cnn_order"] == "below"
    assert (v["end_decisions"], v["end_steps"], v["end_rate"]) == (6_000, 400, pytest.approx(0.86))
    assert "solver_rate" not in v  # the networks' test CPU is not in these runs: no comparison
    # with the networks' test CPU: in order only beyond the clock's noise
    r["tests"] = r["tests"].assign(test_cpu_seconds=0.2, test_decisions=1_000)  # 200 µs per decision
    c = nf.learners(r, _learners_bench())
    v = nf.learners_values(c, noise=1.5)
    assert (v["solver_rate"], v["solver_us"], v["nets_us"]) == pytest.approx((0.88, 10.0, 200.0))
    assert v["cpu_ratio"] == pytest.approx(20.0) and v["cpu_order"] == "the solver's decisions are the cheaper"
    assert nf.learners_values(c, noise=25.0)["cpu_order"] == "neither can be called the cheaper"
    assert nf.learners_values(c)["cpu_order"] == "neither can be called the cheaper"  # noise unknown: no order


def test_the_how_good_chapter_sets_its_players_beside_the_leaderboard():
    from sweeper.viz.figures import benchmark as bf
    d = pd.DataFrame({"player": ["solver", "greedy", "greedy"], "board": ["8x8x10", "8x8x10", "8x8x10"],
                      "opening": ["reference", "reference", "safe"], "win_rate": [0.879, 0.7235, 0.7]})
    text = bf.chapter_note(d, made_bench(networks=False))
    assert "exact solver 0.8790 here, 0.8800 there; greedy table 0.7235 here, 0.7400 there (mean of 3 seeds, " \
        "0.7300 to 0.7500)" in text
    assert "up to 0.016 apart" in text and "the benchmark's 100 beginner boards" in text
    assert "Whether one bandit beats another" not in text  # no other bandit of the chapter's table: no verdict
    d = pd.concat([d, pd.DataFrame({"player": ["ucb:0.1"], "board": ["8x8x10"], "opening": ["reference"],
                                    "win_rate": [0.7]})])
    assert "the UCB table wins less than the greedy table (-0.130)" in bf.chapter_note(d, made_bench(networks=False))
    assert bf.chapter_note(d.assign(board="16x30x99"), made_bench(networks=False)) == ""  # none of them on beginner


def test_the_regret_values_add_the_benchmarks_one_scale():
    q = pd.DataFrame([{"train": "8x8x10", "test": "8x8x10", "games": 60, "decisions": 1141,
                       "decisions_per_game": 19.0, "sure_share": 0.95, "missed_per_sure": 0.01,
                       "regret_per_decision": 0.0035, "regret_per_game": 0.066}])
    w = pd.DataFrame([{"trained games": 1_000_000, "test games": 10_000, "regret per game": 0.236,
                       "regret per decision": 0.0096, "gap per game": 0.187}])
    bench = made_bench()
    s = bench["scores"]
    s.loc[(s["label"] == "network (beg.)") & (s["level"] == "beginner"), "regret_per_decision"] = [0.004, 0.005, 0.006]
    v = nf.regret_values(q, w, bench)
    assert v["boards"] == 20 and (v["nets_click"], v["nets_click_min"], v["nets_click_max"]) == pytest.approx(
        (0.005, 0.004, 0.006))
    assert v["nets_seeds"] == 3 and v["table_click"] == pytest.approx(0.001)
    assert "boards" not in nf.regret_values(q, w, made_bench(networks=False))


def test_the_facts_name_the_curriculum_and_count_its_work():
    task, out = _output("16x30x99", 1, 300, {})
    out.info.update(curriculum_boards=["8x8x10", "16x16x40"], curriculum_games=[10_000, 2_000],
                    curriculum_decisions=[100_000, 50_000], curriculum_updates=[5_000, 1_000],
                    curriculum_cpu_seconds=[150.0, 450.0], total_train_cpu_seconds=2_150.0)
    out.tables["checkpoints"] = out.tables["checkpoints"].assign(total_cpu_seconds=[660.0, 2_150.0])
    r = nf.neural_runs([(task, out)])
    f = r["facts"].iloc[0]
    assert f["path"] == "8x8x10 → 16x16x40 → 16x30x99" and f["games_all"] == 12_300 and f["cpu_seconds"] == 2_150.0
    assert f["decisions"] == 156_000 and f["updates"] == 6_400
    assert (f["decisions_own"], f["updates_own"]) == (6_000, 400)
    cp = r["checkpoints"]
    assert cp["cpu_seconds"].tolist() == [660.0, 2_150.0]
    # the checkpoints' work with the curriculum's: its 150,000 decisions and 6,000 gradient steps added
    assert cp["decisions_all"].tolist() == [152_000, 156_000] and cp["updates_all"].tolist() == [6_130, 6_400]
    assert cp["games_all"].tolist() == [12_100, 12_300]
    table = nf.facts_table(r["facts"])
    assert table.loc["16x30x99", "learnt on"] == "8x8x10 → 16x16x40 → 16x30x99"
    assert table.loc["16x30x99", "decisions"] == "156,000" and table.loc["16x30x99", "gradient steps"] == "6,400"
    # the recorded CPU stays as a record, named so; no rate per CPU second
    assert table.loc["16x30x99", "CPU min (as recorded)"] == "35.8"
    assert [c for c in table.columns if "CPU" in c] == ["CPU min (as recorded)"]


def test_mistakes_per_game_multiply_the_decisions_sure_share_and_misses():
    r = _runs()
    q = nf.quality(r["tests"])
    m = nf.mistakes_per_game(q, nf.against_targets(r["tests"], _players())).set_index("board")
    own = q[(q["train"] == "8x8x10") & (q["test"] == "8x8x10")].iloc[0]
    assert m.loc["8x8x10", "missed_per_game"] == pytest.approx(
        own["decisions_per_game"] * own["sure_share"] * own["missed_per_sure"])
    assert m.loc["8x8x10", "solver_gap"] == pytest.approx(0.879 - 0.86)
    assert list(m.index) == ["8x8x10", "16x16x40"]


def test_the_gap_values_say_where_the_regret_covers_the_gap():
    gap = pd.DataFrame([{"board": "8x8x10", "decisions_per_game": 19.0, "missed_per_game": 0.05,
                         "regret_per_game": 0.03, "solver_gap": 0.02, "games": 60, "networks": 3},
                        {"board": "16x30x99", "decisions_per_game": 110.0, "missed_per_game": 1.5,
                         "regret_per_game": 0.08, "solver_gap": 0.15, "games": 60, "networks": 3}])
    v = nf.gap_values(gap)
    assert (v["beg_missed"], v["beg_regret"], v["beg_decisions"], v["beg_gap"]) == (0.05, 0.03, 19.0, 0.02)
    assert (v["exp_missed"], v["exp_regret"], v["exp_gap"]) == (1.5, 0.08, 0.15)
    assert v["enough"] == "beginner" and (v["games"], v["networks"], v["per_network"]) == (60, 3, 20)
    assert nf.gap_values(gap.iloc[1:])["enough"] == "no level"
    assert nf.gap_values(gap.assign(solver_gap=[0.02, 0.05]))["enough"] == "beginner and expert"
    assert nf.gap_values(gap.assign(solver_gap=[-0.01, 0.15]))["enough"] == "no level"  # a network above the solver


def test_the_budget_values_name_the_checkpoints_it_had():
    r = _runs()
    greedy = pd.Series({"win_rate": 0.74, "lo": 0.72, "hi": 0.76, "seeds": 3})
    points = r["checkpoints"]
    ci = [wilson(int(w), int(n)) for w, n in zip(points["wins"], points["test_games"])]
    points = points.assign(lo=[c[0] for c in ci], hi=[c[1] for c in ci])
    first = points[(points["board"] == "8x8x10") & (points["lo"] > greedy["hi"])].groupby("seed").head(1)
    v = nf.budget_values(first, greedy, points)
    assert (v["greedy"], v["greedy_lo"], v["greedy_hi"], v["greedy_seeds"]) == (0.74, 0.72, 0.76, 3)
    assert (v["seeds"], v["passed"], v["never"]) == (3, len(set(first["seed"])), "none" if len(
        set(first["seed"])) == 3 else v["never"])
    beg = points[points["board"] == "8x8x10"]
    assert v["checkpoints"] == beg.groupby("seed").size().max() and v["games"] == int(beg["test_games"].iloc[0])
    assert v["first_at"] == pytest.approx(beg.groupby("seed")["decisions_all"].min().mean())
    assert (v["decisions_min"], v["games_max"]) == (first["decisions_all"].min(), first["games_all"].max())
    # a network never above the table is named; one above only later is not counted at its first checkpoint
    later = first[first["seed"] != 3]
    v2 = nf.budget_values(later, greedy, points)
    assert (v2["passed"], v2["never"]) == (2, "3")
    assert v2["at_first"] == sum(int(i in later.index) for i in
                                 beg.sort_values("decisions_all").groupby("seed").head(1).index)


def test_symmetric_play_pairs_each_network_with_itself_on_the_same_boards():
    from made_benchmark import bench_output
    from sweeper.viz.figures import benchmark as bf
    outs = [bench_output("solver", 0, "solver", {"beginner": 88, "intermediate": 17, "expert": 9})]
    # beginner networks: 85, 86, 87 of 100 boards as trained; symmetric 87, 88, 90 (+2, +2, +3)
    outs += [bench_output(f"neural:neural_bandit/b{s}", s, "neural bandit", {"beginner": 84 + s},
                          train_board="8x8x10") for s in (1, 2, 3)]
    outs += [bench_output(f"neural-symmetric:neural_bandit/b{s}", s, "neural bandit", {"beginner": w},
                          boards=(100,), train_board="8x8x10") for s, w in ((1, 87), (2, 88), (3, 90))]
    for o in outs[4:]:
        o[1].info["test_cpu_seconds"] = {"beginner": 0.08}
    bench = bf.benchmark_runs(outs)
    t = ns.symmetric_play(bench)
    assert list(t["board"]) == ["8x8x10"]  # no level without both
    r = t.iloc[0]
    assert r["plain"] == pytest.approx(0.86) and r["symmetric"] == pytest.approx(0.265 / 3 * 10)
    assert r["difference"] == pytest.approx(0.07 / 3) and 0 < r["diff_lo"] < 0.07 / 3 < r["diff_hi"]
    assert r["pooled"] == pytest.approx(265 / 300) and r["seed_min"] == pytest.approx(0.87) and r["met"]
    assert r["us_symmetric"] / r["us_plain"] == pytest.approx(8.0)
    v = ns.symmetric_values(t)
    assert (v["boards"], v["networks"]) == (100, 3) and v["beg_change"] == "win more than as trained"
    assert (v["beg_plain"], v["beg_symmetric"], v["beg_diff"]) == pytest.approx((0.86, 0.8833, 0.07 / 3), abs=1e-4)
    # the cost of symmetric play at the committed bench's unit costs, not the runs' recorded 8 times
    assert v["beg_times"] == pytest.approx(work_cost("neural-symmetric", "8x8x10", 1, "test")
                                           / work_cost("neural", "8x8x10", 1, "test")) and "beg_cost" not in v
    assert (v["beg_pooled"], v["beg_seed_min"], v["beg_target"], v["beg_met"]) == pytest.approx(
        (265 / 300, 0.87, 0.87, "met"))
    first = ns.symmetric_play(bench, boards=50).iloc[0]
    assert first["boards"] == 50 and first["plain"] == pytest.approx(1.0)  # the first 50 boards are all won
    assert ns.symmetric_table(t).loc["8x8x10", "met"] == "yes" and "met" not in ns.symmetric_table(t, targets=False)
    assert bf.label("neural-symmetric:neural_bandit/b1", {"board": "8x8x10"}) == "network, symmetric (beg.)"


def _unit_record(us: dict) -> dict:
    """A made bench record with one test cost per learner on expert, µs per decision."""
    return {"unit_costs": [{"learner": k, "level": "expert", "board": "16x30x99", "what": "test",
                            "us_per_decision": v} for k, v in us.items()]}


def test_the_price_of_symmetric_play_sets_it_beside_the_solver_at_the_benchs_costs():
    sym = pd.DataFrame([{"board": "16x30x99", "difference": 0.05, "diff_lo": 0.01, "diff_hi": 0.09,
                         "us_plain": 1.0, "us_symmetric": 1.0, "symmetric": 0.36, "boards": 1000, "seeds": 3}])
    clock = pd.DataFrame([{"board": "16x30x99", "agent": "exact solver (trains nothing)", "win_rate": 0.45,
                           "µs_per_decision": 1.0}, {"board": "16x30x99", "agent": "network", "win_rate": 0.3,
                                                     "µs_per_decision": 1.0}])
    record = _unit_record({"neural": 400.0, "neural-symmetric": 1600.0, "solver": 8000.0})
    p = ns.symmetric_price(sym, clock, record=record).iloc[0]  # the runs' recorded µs are not read
    assert (p["us_plain"], p["us_symmetric"], p["us_solver"], p["extra_us"]) == (400.0, 1600.0, 8000.0, 1200.0)
    assert p["change_per_ms"] == pytest.approx(0.05 / 1.2) and p["gap"] == pytest.approx(0.09)
    v = ns.price_values(ns.symmetric_price(sym, clock, record=record))
    assert (v["exp_extra_us"], v["exp_change"], v["exp_us"], v["exp_solver_us"]) == (1200.0, 0.05, 1600.0, 8000.0)
    assert v["exp_ratio"] == pytest.approx(0.2) and v["exp_per_ms"] == pytest.approx(0.05 / 1.2)
    assert v["exp_verdict"] == "win more than as trained" and v["exp_gap"] == pytest.approx(0.09)
    assert (v["cheaper"], v["boards"], v["networks"]) == ("expert", 1000, 3)
    assert ns.price_values(ns.symmetric_price(sym, clock, record=record), noise=1.5)["cheaper"] == "expert"
    assert ns.price_values(ns.symmetric_price(sym, clock, record=record), noise=6.0)["cheaper"] == "no level"
    apart = ns.symmetric_price(sym.assign(diff_lo=-0.01), clock, record=record)
    assert ns.price_values(apart)["exp_verdict"] == "cannot be told apart from themselves as trained"
    dear = ns.symmetric_price(sym, clock, record=_unit_record({"neural": 400.0, "neural-symmetric": 1600.0,
                                                               "solver": 4.0}))
    assert ns.price_values(dear)["cheaper"] == "no level" and ns.price_values(dear)["exp_ratio"] == 400.0


def test_without_symmetric_runs_the_section_says_how_to_make_them():
    bench = made_bench(networks=True)
    t = ns.symmetric_play(bench)
    assert t.empty and list(t.columns) == ns.COLUMNS and ns.symmetric_table(t).empty
    with pytest.raises(ValueError, match="ext:benchmark_neural_work_symmetric"):
        ns.symmetric_values(t)
    with pytest.raises(ValueError, match="ext:benchmark_neural_work_symmetric"):
        ns.price_values(ns.symmetric_price(t, pd.DataFrame(columns=["board", "agent"])))


def test_the_averaged_networks_are_set_against_the_recipes_seed_by_seed():
    from made_benchmark import bench_output
    from sweeper.viz.figures import benchmark as bf, neural_averaged as na

    def trained(wins):
        return nf.neural_runs([_output("16x30x99", s, w, {}) for s, w in zip((1, 2, 3), wins)])

    def symmetric(wins):
        return bf.benchmark_runs([bench_output(f"neural-symmetric:neural_bandit/e{s}", s, "neural bandit",
                                               {"expert": w}, boards=(1, 1, 1000), train_board="16x30x99")
                                  for s, w in zip((1, 2, 3), wins)])
    runs, bench = trained((311, 315, 301)), symmetric((340, 334, 340))
    online = pd.DataFrame({"board": "16x30x99", "test_games": 1000, "wins": [305, 320, 310], "seed": [1, 2, 3]})
    averaged = {"runs": trained((320, 325, 318)), "bench": symmetric((352, 350, 355)), "online": online}
    play = na.averaged_play(runs, bench, averaged)
    assert len(play) == 9 and set(play["boards"]) == {1000}
    s = na.averaged_summary(play).set_index(["play", "recipe"])
    sym = s.loc[("symmetric", na.RECIPES["averaged"])]
    assert sym["pooled"] == pytest.approx(1057 / 3000) and sym["seed_min"] == pytest.approx(0.350) and sym["met"]
    assert sym["change"] == pytest.approx(0.043 / 3) and 0 < sym["change_lo"] < sym["change"] < sym["change_hi"]
    plain = s.loc[("as trained", na.RECIPES["averaged"])]
    assert plain["pooled"] == pytest.approx(963 / 3000) and not plain["met"]
    assert np.isnan(s.loc[("symmetric", na.RECIPES["recipe"]), "change"])
    assert s.loc[("as trained", na.RECIPES["online"]), "pooled"] == pytest.approx(935 / 3000)
    assert ("symmetric", na.RECIPES["online"]) not in s.index  # the own last weights play as trained only
    d, lo, hi, n = na.averaging_effect(play)
    assert d == pytest.approx(0.028 / 3) and n == 3 and lo < 0 < hi  # +15, +5, +8 of 1,000
    table = na.averaged_table(na.averaged_summary(play))
    assert table.loc[("symmetric", na.RECIPES["averaged"]), "target 0.35 met"] == "yes"
    seeds = na.TABLE_PARTS["wins"][0]
    assert seeds == "seeds 1\u00a0/\u00a02\u00a0/\u00a03"  # its numbers never wrap apart
    assert table.loc[("symmetric", na.RECIPES["averaged"]), seeds] == "0.352 / 0.350 / 0.355"
    assert [c for p in ("wins", "recipe") for c in na.averaged_table(na.averaged_summary(play), p)] == list(
        table.columns)
    # the values the section's prose pastes: the verdicts follow the intervals, the work its counts
    v = na.averaged_values(na.averaged_summary(play), (d, lo, hi, n), na.work_table(runs["facts"], averaged))
    assert (v["boards"], v["seeds"], v["target"], v["alone_seeds"]) == (1000, 3, 0.35, 3)
    assert v["trained_change"] == "win more than the recipe's" and v["trained_diff"] == pytest.approx(0.036 / 3)
    assert (v["trained_pooled"], v["trained_recipe"]) == pytest.approx((963 / 3000, 927 / 3000))
    assert v["trained_met"] == "not met" and v["trained_seed_min"] == pytest.approx(0.318)
    assert v["sym_change"] == "win more than the recipe's" and v["sym_met"] == "met"
    assert v["online"] == pytest.approx(935 / 3000) and v["alone"] == pytest.approx(0.028 / 3)
    assert v["alone_verdict"] == "made no difference the seeds can tell from none"
    assert (v["decisions"], v["steps"], v["recipe_decisions"], v["decisions_ratio"]) == (6000, 400, 6000, 1.0)
    assert v["work_verdict"] == na.WORK_WORDS[0]
    assert v["bench_ratio"] == pytest.approx(v["bench_us"] / v["bench_recipe_us"])
    faster = {**averaged, "runs": {**averaged["runs"], "facts": averaged["runs"]["facts"].assign(decisions=12000)}}
    more = na.averaged_values(na.averaged_summary(play), (d, lo, hi, n), na.work_table(runs["facts"], faster))
    assert more["work_verdict"] == na.WORK_WORDS[1] and more["decisions_ratio"] == 2.0
    slower = {**averaged, "runs": {**averaged["runs"], "facts": averaged["runs"]["facts"].assign(decisions=4000)}}
    less = na.averaged_values(na.averaged_summary(play), (d, lo, hi, n), na.work_table(runs["facts"], slower))
    assert less["work_verdict"] == na.WORK_WORDS[-1]
    assert na.averaged_values(na.averaged_summary(play), (0.02, 0.01, 0.03, 3), na.work_table(
        runs["facts"], averaged))["alone_verdict"] == "raised the win rate"
    assert na.averaged_values(na.averaged_summary(play), (-0.02, -0.03, -0.01, 3), na.work_table(
        runs["facts"], averaged))["alone_verdict"] == "lowered the win rate"
    # a pooled rate at the target with a seed too far below it reaches the target pooled only
    low = play.copy()
    low.loc[(low["recipe"] == "averaged"), "plain_wins"] = [400, 400, 250]
    lv = na.averaged_values(na.averaged_summary(low), (d, lo, hi, n), na.work_table(runs["facts"], averaged))
    assert lv["trained_met"] == na.TARGET_WORDS[1] and lv["trained_change"] == "cannot be told apart from the recipe's"
    summary, effect = na.averaged_summary(play), na.averaging_effect(play)
    g = na.gain_values(summary, effect, na.work_table(runs["facts"], faster))
    assert (g["diff"], g["boards"], g["seeds"]) == (pytest.approx(0.012), 1000, 3) and g["lo"] > 0
    assert g["total"] == "a gain the seeds agree on" and g["alone_words"] == "cannot be told apart from nothing"
    assert (g["decisions_ratio"], g["steps_ratio"]) == (2.0, 1.0)
    assert g["reading"] == "the training the budgets bought, not the averaging alone"
    assert na.gain_values(summary, effect, na.work_table(runs["facts"], averaged))["reading"] == \
        "these runs cannot tell"  # the same decisions: the training does not explain it
    assert na.gain_values(summary, (0.02, 0.01, 0.03, 3), na.work_table(runs["facts"], faster))["alone_words"] == \
        "is a gain"
    assert na.gain_values(summary, (0.02, 0.01, 0.03, 3), na.work_table(runs["facts"], faster))["reading"] == \
        "these runs cannot tell"  # the averaging alone shows a gain
    assert na.gain_values(na.averaged_summary(low), effect, na.work_table(runs["facts"], faster))["total"] == \
        "a change the seeds cannot tell from nothing"
    with pytest.raises(ValueError, match="ext:benchmark_neural_averaged"):
        na.gain_values(summary, effect, na.work_table(runs["facts"], None))
    empty = na.averaged_play(runs, bench, None)
    with pytest.raises(ValueError, match="ext:benchmark_neural_averaged"):
        na.averaged_values(na.averaged_summary(empty), na.averaging_effect(empty), na.work_table(runs["facts"], None))
    assert na.averaged_table(na.averaged_summary(empty)).empty
    assert "ext:benchmark_neural_averaged" in na.MISSING


# ------------------------------------------------------------- the two recipes --

def test_the_books_networks_are_set_beside_the_first_ones_by_their_work():
    from sweeper.viz.figures import neural_recipes as nrc
    book = _runs()
    outs = [_output("8x8x10", s, w, {}) for s, w in ((1, 700), (2, 710), (3, 720))]
    outs += [_output("16x16x40", s, 600 + s, {}) for s in (1, 2, 3)]
    first = nf.neural_runs(outs)
    first["facts"] = first["facts"].assign(decisions=first["facts"]["decisions"] // 2)
    c = nrc.recipes_compared(book, first)
    assert list(zip(c["board"], c["recipe"])) == [("8x8x10", "work"), ("8x8x10", "cpu"),
                                                  ("16x16x40", "work"), ("16x16x40", "cpu")]
    beg = c[(c["board"] == "8x8x10") & (c["recipe"] == "work")].iloc[0]
    assert beg["win_rate"] == pytest.approx(0.86) and beg["difference"] == pytest.approx(0.15)
    assert beg["verdict"] == "more than" and beg["diff_lo"] > 0
    inter = c[(c["board"] == "16x16x40") & (c["recipe"] == "work")].iloc[0]
    assert inter["difference"] == pytest.approx(-0.002) and inter["verdict"] == "level with"
    table = nrc.recipes_table(c)
    assert table.loc[("8x8x10", "first"), "decisions (seeds' range)"] == "3,000 (3,000-3,000)"
    assert table.loc[("8x8x10", "first"), "book's minus first [95%]"] == ""
    assert table.loc[("8x8x10", "book's"), "book's minus first [95%]"].endswith("(more than)")
    v = nrc.recipes_values(c)
    assert (v["beg_ratio"], v["beg_book"], v["beg_first"], v["beg_diff"]) == pytest.approx((2.0, 0.86, 0.71, 0.15))
    assert v["beg_lo"] > 0 and v["beg_verdict"] == "the book's networks win more"
    assert v["int_verdict"] == "the two are level within ±0.01" and (v["seeds"], v["boards"]) == (3, 1000)
    assert nrc.recipes_values(c[c["recipe"] == "work"]) == {}


def test_the_recipe_is_told_from_its_spec_and_priced_by_the_committed_bench():
    from sweeper.bench import work_cost
    from sweeper.experiments import neural_runs as nr
    from sweeper.viz.figures import neural_recipes as nrc
    v = nrc.learning_values()
    for board, level in nr.WORK_LEVELS.items():
        k = nf.KEYS[board]
        assert (v[f"{k}_own"], v[f"{k}_total"]) == (level["decisions"], nr.work_total(board))
        assert v[f"{k}_minutes"] == pytest.approx(work_cost("neural", board, level["decisions"]) / 60)
    assert (v["warm_level"], v["warm_decisions"], v["warm_minibatch"], v["warm_per"]) == (
        "beginner", nr.WORK_WARM_START[1], 16, 16.0)
    assert (v["minibatch"], v["per"], v["lr"]) == (128, 256.0, 0.001)
    assert (v["exp_phase_level"], v["exp_phase_decisions"]) == ("intermediate", 640_000)
    assert v["exp_phase_minutes"] == pytest.approx(work_cost("neural", "16x16x40", 640_000) / 60)
    assert v["checkpoints"] == "25%, 50% and 75%" and v["test_boards"] == nr.NEURAL_TEST["paper"]


def test_the_stretch_goals_are_the_solver_on_small_boards_and_the_published_agent_on_expert():
    from sweeper.viz.figures import neural_recipes as nrc
    goals = nrc.stretch_goals()
    assert goals["8x8x10"] == ("solver", 0.02) and goals["16x30x99"][1] == 0.411
    t = nf.against_targets(_runs()["tests"], _players())
    sym = pd.DataFrame({"board": ["8x8x10"], "pooled": [0.875]})
    v = nrc.stretch_values(t, sym)
    assert v["slack"] == 0.02 and v["beg_bar"] == pytest.approx(0.879 - 0.02) and v["int_bar"] == pytest.approx(0.831)
    assert (v["beg_trained"], v["beg_trained_met"], v["beg_symmetric"], v["beg_symmetric_met"]) == pytest.approx(
        (0.86, "met", 0.875, "met"))
    assert (v["int_trained"], v["int_trained_met"]) == pytest.approx((0.6, "not met")) and "int_symmetric" not in v
    assert v["agent"] == goals["16x30x99"][2]["agent"] and "exp_bar" not in v  # no expert networks here


def test_the_wide_tables_come_in_parts_that_hold_every_column():
    """Each wide table of the chapter is shown in parts that each fit the book's text column (tests/test_browser.py
    measures them); together the parts hold every column of the table, each once."""
    r = _runs()
    tables = {"facts": lambda part=None: nf.facts_table(r["facts"], part),
              "learners": lambda part=None: nf.learners_table(nf.learners(_hundred_boards(r), _learners_bench()),
                                                              part),
              "transfer verdicts": lambda part=None: nf.transfer_verdict_table(r["tests"], part)}
    for name, table in tables.items():
        whole = list(table().columns)
        counts = Counter(c for p in nf.TABLE_PARTS[name] for c in table(p).columns)
        assert set(counts) == set(whole), name
        assert all(n == 1 or c == "agent" for c, n in counts.items()), name  # only a row's name is repeated


def test_the_checkpoints_values_say_where_the_checkpoints_fall():
    from sweeper.experiments import neural_runs as nr
    from sweeper.viz.figures import neural_recipes as nrc
    v = nrc.checkpoints_values()
    assert v["shares"] == "25%, 50% and 75%"
    first = sum(ph[1] for ph in nr.WORK_LEVELS["16x30x99"]["curriculum"])
    assert (v["exp_first"], v["exp_boards"], v["exp_total"]) == (first, "8x8x10 then 16x16x40",
                                                                 nr.work_total("16x30x99"))
    kept = [f for f in nr.WORK_CHECKPOINTS if round(f * nr.work_total("16x30x99")) > first]
    assert (v["exp_points"], v["exp_from"]) == (len(kept) + 1, min(kept))
    assert (v["beg_points"], v["beg_from"], v["int_points"]) == (4, 0.25, 4)  # their warm start ends before 25%


def test_a_stored_network_s_phases_are_priced_by_the_bench_s_units():
    """A book network's training in the bench's units: its warm start, its curriculum, its own level (a stored
    expert network of ext:neural_work_expert); a learning the bench does not measure is refused."""
    import json
    from sweeper.bench import bench_learner
    from sweeper.viz.figures.results import network_work
    meta = json.loads((REPO / "results/runs/paper/neural_bandit/9db10fc9b202556c/meta.json").read_text())
    assert network_work(meta["task"]["params"], meta["info"]) == [
        ("neural-warm-start", "8x8x10", 360_607), ("neural", "16x16x40", 642_177), ("neural", "16x30x99", 1_705_309)]
    with pytest.raises(ValueError, match="the bench has no unit cost for it"):
        network_work({**meta["task"]["params"], "replay": 1.0}, meta["info"])
    assert bench_learner("neural:neural_bandit/9db10fc9b202556c") == "neural"
    assert bench_learner("neural-symmetric:neural_bandit/x") == "neural-symmetric" and bench_learner("greedy") == "greedy"
