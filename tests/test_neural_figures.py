"""The neural chapter's data (sweeper/viz/figures/neural.py) on hand-made stored outputs: no torch needed."""

import numpy as np
import pandas as pd
import pytest

from sweeper.experiments.runner import Output, Task
from sweeper.experiments.stats import wilson
from sweeper.viz.figures import neural as nf

from made_benchmark import made_bench


def _output(board, seed, own_wins, others, points=None):
    """One run's output: 1,000 test games per level, in the order of the levels (as the experiment stores them: the
    i-th plays the boards of ``held_out_seed(seed, i)``, the checkpoints those of 0); ``others`` maps a test level to
    its wins; ``points``: the wins at the two checkpoints (100 and 300 games, the end of training), by default half
    of ``own_wins`` and ``own_wins``."""
    tests = []
    wins_on = {board: own_wins, **others}
    for test, wins in ((t, wins_on[t]) for t in nf.LEVELS if t in wins_on):
        lo, hi = wilson(wins, 1000)
        tests.append({"board": test, "test_games": 1000, "wins": wins, "win_rate": wins / 1000, "lo": lo, "hi": hi,
                      "revealed": 0.9, "quality_games": 20, "quality_decisions": 400 + seed,
                      "quality_sure_share": 0.9, "quality_missed_per_sure": 0.01 * seed,
                      "quality_regret_per_decision": 0.001 * seed})
    points = points or (own_wins // 2, own_wins)
    points = pd.DataFrame({"games": [100, 300], "cpu_seconds": [60.0, 1700.0], "wins": list(points),
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


def test_targets_and_sentences_agree_with_the_numbers():
    r, players = _runs(), _players()
    t = nf.against_targets(r["tests"], players).set_index("board")
    assert t.loc["8x8x10", "own"] == pytest.approx(0.86) and t.loc["8x8x10", "short"] == pytest.approx(0.0)
    assert t.loc["16x16x40", "own"] == pytest.approx(0.6) and t.loc["16x16x40", "short"] == pytest.approx(0.15)
    # the best network on intermediate was trained on beginner (0.702 pooled against 0.600)
    assert t.loc["16x16x40", "best_from"] == "8x8x10" and t.loc["16x16x40", "best"] == pytest.approx(0.702)
    assert t.loc["16x16x40", "solver"] == pytest.approx(0.851)
    f = nf.findings(r, players)
    assert "on 8x8x10, the networks trained there win 0.860" in f["targets"] and "3 seeds pooled), at or above the " \
        "target of 0.86;" in f["targets"]
    assert "0.150 below the target of 0.75;" in f["targets"]
    # without the networks' benchmark runs the boards differ per seed: rates, and no order drawn
    assert "Trained on 8x8x10, the networks win 0.702 on 16x16x40 (seeds 0.701 to 0.703), the networks trained on " \
        "16x16x40 0.600" in f["transfer"] and "No order is drawn" in f["transfer"]
    assert "8x8x10: 300 games in 28.3 CPU minutes;" in f["speed"]  # within the budget: nothing more said
    r["facts"].loc[r["facts"]["board"] == "16x16x40", "cpu_seconds"] = [2400.0, 2700.0, 2646.0]
    assert "16x16x40: 300 games in 43.0 CPU minutes (over the 30-minute budget its games were sized for: the seeds " \
        "took 40 to 45)" in nf.findings(r, players)["speed"]
    assert "on 8x8x10, from 0.430 at 100 games to 0.860 at 300 (+0.430)" in f["rising"]


def test_a_level_is_called_still_rising_only_beyond_what_the_boards_move():
    r, players = _runs(), _players()
    own = r["tests"][r["tests"]["train"] == r["tests"]["test"]].set_index("train")["board_set"]
    assert (own["8x8x10"] == 0).all() and (own["16x16x40"] == 1).all()
    rising = nf.findings(r, players)["rising"]
    assert "the same 1,000 boards every time" in rising
    # beginner: the final test is the last checkpoint on the checkpoints' boards, so no board noise is measured
    assert ("the run's final test of these networks played the checkpoints' boards (0.860, the same games), so no "
            "board-to-board difference is measured on 8x8x10 and these runs cannot tell whether it was still "
            "rising") in rising
    # intermediate: the final test (other boards) gives what the last checkpoint gave; the step 0.300 is larger
    assert ("on 16x16x40, from 0.300 at 100 games to 0.600 at 300 (+0.300); the runs' final test, the same networks on "
            "other boards, gives 0.600, 0.000 away: the boards alone move the rate that much, and the step is larger, "
            "so it was still rising when the budget ran out") in rising
    # a step of 0.010 (0.690 -> 0.700) beside a final test 0.020 away on other boards: the data cannot tell
    outs = [_output("16x16x40", s, 720, {"8x8x10": 800}, points=(690, 700)) for s in (1, 2, 3)]
    rising = nf.findings(nf.neural_runs(outs), players)["rising"]
    assert "(+0.010); the runs' final test, the same networks on other boards, gives 0.720, 0.020 away" in rising
    assert "the step is not larger, so these runs cannot tell whether it was still rising" in rising
    assert "still rising when the budget ran out" not in rising
    # the last checkpoint is not the end of training: it is not the tested network, nothing measures the boards
    r = nf.neural_runs(outs)
    r["facts"]["games"] = 400
    assert "no test of the same networks on other boards measures the boards' effect" in nf.findings(
        r, players)["rising"]


def test_the_regret_sentence_names_both_oracles_and_draws_no_order():
    q = pd.DataFrame([{"train": "8x8x10", "test": "8x8x10", "games": 60, "decisions": 1141,
                       "regret_per_decision": 0.0035, "regret_per_game": 0.066}])
    w = pd.DataFrame([{"trained games": 1_000_000, "test games": 10_000, "regret per decision": 0.0096,
                       "regret per game": 0.236, "gap per game": 0.187}])
    text = nf.regret_sentence(q, w)
    assert "0.066 per game against an oracle that takes the best click (0.0035 per decision" in text
    assert "0.236 per game against an oracle that takes the best click or flag, over its own 10,000 test games" in text
    assert "0.187 per game is its representation gap, measured on the same games against the best window agent" in text
    assert "ranks neither against the other and sets no floor" in text
    assert "below that gap" not in text and "the floor of any agent" not in text
    assert nf.regret_sentence(q.assign(test="16x16x40"), w) == ""


def test_the_budget_reads_the_last_checkpoint_within_it():
    a = nf.at_cpu(_runs()["checkpoints"], 1800)
    assert len(a) == 6 and (a["cpu_seconds"] == 1700.0).all()
    assert nf.at_cpu(_runs()["checkpoints"], 100)["games"].eq(100).all()


def test_a_rate_just_under_the_target_says_the_interval_holds_it():
    outs = [_output("8x8x10", s, w, {}) for s, w in ((1, 850), (2, 855), (3, 860))]
    f = nf.findings(nf.neural_runs(outs), _players())
    assert "0.005 below the target of 0.86 (the target is inside the interval)" in f["targets"]


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
    assert "74.7%" not in nf.mistakes_sentence(w) and "6.7% for a tile whose exact P(mine) is 100%" in \
        nf.mistakes_sentence(w)


def test_the_receptive_field_table_sets_each_depth_beside_the_table():
    def field_out(layers, seed, wins):
        lo, hi = wilson(wins, 1000)
        tests = pd.DataFrame([{"board": "8x8x10", "test_games": 1000, "wins": wins, "win_rate": wins / 1000}])
        return (Task.make("neural_bandit", board="8x8x10", seed=seed, layers=layers),
                Output(tables={"tests": tests}, info={"train_games": 7500, "train_cpu_seconds": 60.0 * layers}))
    outs = [field_out(n, s, {1: 650, 2: 730, 3: 800}[n] + s) for n in (1, 2, 3) for s in (1, 2, 3)]
    players = _players().assign(lo=0.72, hi=0.74, seed_rates=[(0.72, 0.73, 0.74)] * 6)
    f = nf.field(outs, _runs(), players)
    assert f["sees"].tolist() == ["3x3", "5x5", "7x7", "11x11", "3x3 windows"]
    one = f.iloc[0]
    assert (one["wins"], one["test_games"]) == (1956, 3000) and (one["lo"], one["hi"]) == wilson(1956, 3000)
    assert f.iloc[3]["games"] == 300  # the hand-made runs' checkpoint nearest 7,500 games
    text = nf.field_sentence(f)
    # seed-level and unpaired: the table's seeds 0.72-0.74 on the benchmark's boards, the networks' on their own
    assert "3x3 (1 layer): 0.652, less than the table (-0.078 [" in text
    assert "7x7 (3 layers): 0.802, more than the table" in text
    assert "5x5 (2 layers): 0.732, not told apart from the table by these seeds (+0.002 [" in text
    assert "Each network row has 3 seeds, each tested on 1,000 boards of its own" in text and "unpaired" in text


def test_the_transfer_sentence_claims_only_what_the_seeds_show():
    # without the benchmark's runs the tests play other boards per seed: no order
    text = nf.transfer_sentence(_runs())
    assert "these runs cannot order (their tests play other boards per seed)" in text
    # on the benchmark's boards: 0.75 against 0.60 on 20 intermediate boards, three seeds each, cannot be told apart
    text = nf.transfer_sentence(_runs(), nf.network_scores(made_bench()))
    assert "0.750 [" in text and "pooled, on the benchmark's boards)" in text
    assert "the two trainings gave intermediate players that three seeds cannot tell apart (+0.150 over the seeds, " \
        "on the same boards)" in text


def test_the_charts_draw_the_hand_made_runs():
    from sweeper.viz import neural_charts as nc
    r = _runs()
    players = _players()
    spec = nc.checkpoints_chart(r["checkpoints"], players, nf.TARGETS).to_dict()
    assert len(spec["hconcat"]) == 2 and spec["hconcat"][0]["title"] == "beginner (8x8x10)"
    assert len(nc.calibration_chart(nf.calibration(r)).to_dict()["hconcat"]) == 2
    row = nf.worst_mistakes(r["mistakes"]).iloc[0]
    assert "the exact P(mine) is 100%" in nc.mistake_chart(row).to_dict()["title"]
    with pytest.raises(ValueError, match="cpu_minutes"):
        nc.checkpoints_chart(r["checkpoints"], players, nf.TARGETS, x="seconds")


# ------------------------------------------------------------- on the benchmark's boards (ext:benchmark) --

def test_the_comparison_players_come_from_the_benchmark_boards():
    p = nf.comparison_players(made_bench(networks=False)).set_index(["player", "board"])
    assert p.loc[("solver", "8x8x10"), "win_rate"] == pytest.approx(0.88) and p.loc[("solver", "8x8x10"), "seeds"] == 1
    g = p.loc[("greedy", "8x8x10")]
    assert g["seeds"] == 3 and g["games"] == 300 and g["wins"] == 222 and g["win_rate"] == pytest.approx(0.74)
    assert g["lo"] < 0.74 < g["hi"] and g["hi"] - g["lo"] < 0.1  # the t-interval over the seeds (0.74 +- 0.025)
    assert nf.network_scores(made_bench(networks=False)) is None


def test_transfer_verdicts_rest_on_the_seeds_and_the_same_boards():
    scored = nf.network_scores(made_bench())
    t = scored["tests"].set_index(["train", "test", "seed"])
    assert t.loc[("8x8x10", "16x16x40", 2), "wins"] == 15 and len(scored["games"]) == 6 * 140
    # on intermediate: 0.75 (seeds 0.70-0.80) against 0.60 (0.50-0.70): pooled Wilson intervals over 60 games
    # each would overlap, and three seeds cannot separate them either
    on_int = nf.transfer_verdict_table(scored).loc[("16x16x40", "8x8x10")]
    assert on_int["verdict"] == "cannot be told apart" and on_int["difference [95%]"].startswith("+0.150 [")
    # the table carries the verdicts; the findings' paragraph is only the fallback without the networks' runs
    assert nf.findings(_runs(), _players(), scored)["transfer"] == ""


def test_the_equal_cpu_sentence_puts_table_and_networks_on_one_clock():
    text = nf.equal_cpu_sentence(_runs()["checkpoints"], made_bench())
    assert "the greedy table's 10^6 beginner games took 58 CPU seconds (mean of 3 seeds, on a CPU)" in text
    assert "wins 0.740 of the benchmark's beginner boards" in text
    # the checkpoints nearest 58 s are those at 60 s: 0.425, 0.430, 0.435 of their boards
    assert "(60 to 60 CPU seconds, 100 to 100 games) win 0.425 to 0.435" in text
    assert "came at 1700 to 1700 CPU seconds (0.850 to 0.870, 3 of 3 seeds" in text
    assert "it does not rank them" in text and "did not record their machine" in text


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


def test_the_regret_sentence_adds_the_benchmarks_one_scale():
    q = pd.DataFrame([{"train": "8x8x10", "test": "8x8x10", "games": 60, "decisions": 1141,
                       "decisions_per_game": 19.0, "sure_share": 0.95, "missed_per_sure": 0.01,
                       "regret_per_decision": 0.0035, "regret_per_game": 0.066}])
    w = pd.DataFrame([{"trained games": 1_000_000, "test games": 10_000, "regret per game": 0.236,
                       "regret per decision": 0.0096, "gap per game": 0.187}])
    bench = made_bench()
    s = bench["scores"]
    s.loc[(s["label"] == "network (beg.)") & (s["level"] == "beginner"), "regret_per_decision"] = [0.004, 0.005, 0.006]
    text = nf.regret_sentence(q, w, bench)
    assert "On one scale, the benchmark's" in text and "on the first 20 beginner boards, the same for both" in text
    assert "the networks 0.0050 per decision (mean of 3 seeds, 0.0040 to 0.0060), the greedy table 0.0010" in text
    assert "On one scale" not in nf.regret_sentence(q, w, made_bench(networks=False))


def test_transfer_verdict_table_has_one_row_per_moved_network_with_the_seed_level_verdict():
    scored = nf.network_scores(made_bench())
    t = nf.transfer_verdict_table(scored)
    r = t.loc[("16x16x40", "8x8x10")]
    assert r["win rate (seeds)"] == "0.750 (0.700-0.800)" and r["trained there"].startswith("0.600 (0.500-")
    assert r["difference [95%]"].startswith("+0.150 [") and r["verdict"] == "cannot be told apart"
    assert r["boards"] == "20" and r["seeds"] == "3 + 3"
    # every moved network, none on its own level: 2 training levels x 1 other level each here
    assert len(t) == 2 and all(i[0] != i[1] for i in t.index)
