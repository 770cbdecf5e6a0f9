"""The leaderboard's data in other chapters (sweeper/viz/figures/benchmark.py) on hand-made stored runs."""

from sweeper.viz.figures import benchmark as bf

from made_benchmark import made_bench


def test_the_regret_chapter_sorts_the_frozen_tables_and_lets_the_seeds_rank():
    runs = made_bench(networks=False)
    t = bf.tables_frozen(runs)
    assert list(t["agent"]) == ["greedy table", "UCB table"]  # the learners with a table, best mean first
    text = bf.tables_frozen_note(runs)
    assert "the table agents sorted by mean win rate are greedy table, UCB table" in text
    assert "on 3 seeds, every seed on the same boards" in text and "the same order" in text
    assert "UCB table win less than the greedy table" in text
    assert "not on one scale" in text


def test_results_at_a_glance_names_the_best_learner_and_what_the_seeds_say():
    text = bf.glance_sentence(made_bench())
    # beginner: the networks trained on beginner (0.86, 0.87, 0.88) are the highest mean and beat greedy (0.74)
    assert "on beginner (100 boards) the exact solver wins 0.880, the paper's greedy table 0.740 (mean of 3 seeds), " \
        "and the learner of highest mean, the network (beg.), 0.870 (3 seeds): more than the greedy table" in text
    assert text.startswith("On [the leaderboard](15_benchmark.html): on beginner")
    no_nets = bf.glance_sentence(made_bench(networks=False))
    assert "on beginner (100 boards) the exact solver wins 0.880, the paper's greedy table 0.740 (mean of 3 seeds);" \
        in no_nets  # greedy is the best learner: nothing more to say


def test_the_deep_rl_chapter_reads_ppo_against_the_networks_on_the_same_boards(monkeypatch):
    monkeypatch.setattr(bf, "scale", lambda: "paper")
    assert "not yet, PPO (per tile), PPO (CNN) are not scored" in bf.ppo_sentence(made_bench())
    text = bf.ppo_sentence(made_bench(ppo=True))
    assert "the PPO (per tile) 0.550 [" in text and "after 161k environment steps of training" in text
    assert "the network (beg.) 0.870 [" in text and "after 1.43M decisions and 15k gradient steps of training" in text
    assert "CPU" not in text
    assert "On beginner, the PPO (per tile) wins less than the network (beg.): a difference of -0.320" in text
    assert text.endswith("no verdict about the two signals.")
    monkeypatch.setattr(bf, "scale", lambda: "quick")
    assert "only at paper scale" in bf.ppo_sentence(made_bench(ppo=True))


# ------------------------------------------------------------------------ counted work, not seconds (issue 61) --

import math  # noqa: E402

import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from sweeper.experiments.runner import Output  # noqa: E402
from sweeper.viz import benchmark_charts as bc  # noqa: E402
from sweeper.viz.figures import benchmark_cost as fc  # noqa: E402

from made_benchmark import bench_output  # noqa: E402


def _source(name):
    """A network's own run as :func:`~sweeper.viz.figures.benchmark_cost.network_checkpoints` loads it: checkpoints
    on the benchmark's first 50 beginner boards, after a curriculum of 100,000 decisions."""
    seed = int(name[-1])
    c = pd.DataFrame({"games": [400, 2_000], "decisions": [300_000, 1_332_679], "updates": [3_000, 15_022],
                      "test_games": [50, 50], "wins": [40 + seed, 42 + seed]})
    c["win_rate"] = c["wins"] / c["test_games"]
    return ({"board": "8x8x10", "boards": "benchmark"},
            Output(tables={"checkpoints": c}, info={"curriculum_decisions": [100_000], "curriculum_games": [500]}))


def test_the_leaderboard_counts_training_work_and_its_table_shows_it():
    runs = made_bench(ppo=True)
    board = bf.leaderboard(runs, "beginner")
    assert {"training games", "training decisions", "gradient steps"} <= set(board.columns)
    assert "training CPU min" not in board.columns
    rows = board.set_index("agent")
    assert rows.loc["greedy table", "training decisions"] == 23_500  # mean over the three seeds
    assert rows.loc["network (beg.)", "gradient steps"] == 15_022
    assert rows.loc["PPO (CNN)", "training decisions"] == 60_416 and math.isnan(rows.loc["PPO (CNN)", "gradient steps"])
    trained = bf.leaderboard_table(board)["trained"]
    assert trained["greedy table"] == "1k games, 23.5k dec."
    assert trained["network (beg.)"] == "1.43M dec., 15k steps"
    assert trained["PPO (per tile)"] == "161k env steps" and trained["PPO (CNN)"] == "60.4k env steps"
    assert trained["exact solver"] == "" and trained["random clicks"] == ""
    assert "decisions" in bf.WORK_KEY and "gradient steps" in bf.WORK_KEY and "environment steps" in bf.WORK_KEY


def test_counted_work_is_written_in_three_digits():
    assert bf.work_text("table", 1_000_000, 23_567_435, float("nan")) == "10⁶ games, 23.6M dec."
    assert bf.work_text("table", 75_000, 1_722_775, float("nan")) == "75k games, 1.72M dec."
    assert bf.work_text("neural bandit", 26_413, 1_432_679, 15_022) == "1.43M dec., 15k steps"
    assert bf.work_text("neural bandit", 247_019, 4_708_499, 25_470) == "4.71M dec., 25.5k steps"
    assert bf.work_text("PPO", 27_157, 160_768, float("nan")) == "161k env steps"
    assert bf.work_text("solver", 0, float("nan"), float("nan")) == ""
    assert [bf.count_text(v) for v in (999_600, 640, 10_000, 1e6, 2e6)] == ["1M", "640", "10k", "10⁶", "2M"]


def test_a_trained_run_without_its_counted_work_names_the_migration():
    for kind, fact in (("table", "checkpoint_train_decisions"), ("neural bandit", "train_updates"), ("PPO", "steps")):
        t, out = bench_output("greedy" if kind == "table" else "ppo:cnn" if kind == "PPO" else "neural:x/y", 1, kind,
                              {"beginner": 5}, train_board="8x8x10")
        del out.info[fact]
        with pytest.raises(ValueError, match=r"records no counted work .*" + fact
                           + r".*`python -m sweeper\.experiments\.migrate`"):
            bf.benchmark_runs([(t, out)])
    untrained = [bench_output("solver", 0, "solver", {"beginner": 88}), bench_output("random", 0, "random", {})]
    assert math.isnan(bf.benchmark_runs(untrained)["scores"]["train_decisions"].iloc[0])  # nothing to count


def _with_symmetric_and_windows(runs=None):
    """:func:`made_bench` with PPO, a beginner network playing symmetric (seed 1) and the best window agents of
    beginner and intermediate boards."""
    outs = [bench_output("neural-symmetric:neural_bandit/b1", 1, "neural bandit", {"beginner": 90},
                         train_board="8x8x10"),
            bench_output("best-window:8x8x10", 0, "best window", {"beginner": 80}),
            bench_output("best-window:16x16x40", 0, "best window", {"beginner": 70})]
    extra = bf.benchmark_runs(outs)
    runs = made_bench(ppo=True) if runs is None else runs
    return {k: pd.concat([runs[k], extra[k]], ignore_index=True) for k in ("scores", "games")} | {
        "checkpoints": runs["checkpoints"]}


def test_the_cost_chart_puts_every_point_on_the_same_boards_against_counted_work():
    runs = _with_symmetric_and_windows()
    nets = fc.network_checkpoints(runs, load=_source)
    assert list(nets.loc[nets["seed"] == 2, "train_decisions"]) == [400_000, 1_432_679]  # the curriculum's counted
    assert list(nets.loc[nets["seed"] == 2, "games_trained"]) == [900, 2_500]
    pts = fc.cost_points(runs, nets)
    assert set(pts["boards"]) == {50}  # the checkpoints' boards, for the ends of training too
    greedy = pts[(pts["label"] == "greedy table") & (pts["seed"] == 1)]
    assert list(greedy["train_decisions"]) == [2_000, 23_500] and list(greedy["win_rate"]) == [21 / 50, 36 / 50]
    ppo = pts[pts["label"] == "PPO (CNN)"]
    assert list(ppo["shown"]) == ["end of training"] * 3 and set(ppo["train_decisions"]) == {60_416}
    assert list(ppo["win_rate"]) == [10 / 50, 12 / 50, 14 / 50]  # its games on the first 50 boards
    assert set(pts.loc[pts["label"] == "network (beg.)", "shown"]) == {"checkpoint"}
    assert "network (int.)" not in set(pts["label"])  # trained on another level
    assert "network, symmetric (beg.)" not in set(pts["label"])  # the same training as the plain network's
    rules = fc.untrained(runs, "beginner", 50)
    assert dict(zip(rules["agent"], rules["win_rate"])) == {"exact solver": 1.0, "random clicks": 0.0,
                                                            "best window (beg.)": 1.0}
    assert set(rules["boards"]) == {50}  # the best window agent of intermediate boards: on the leaderboard only
    spec = bc.cost_chart(pts, rules).to_dict()
    layers = spec["layer"]
    xs = {layer["encoding"]["x"]["field"] for layer in layers if "x" in layer.get("encoding", {})}
    assert "train_decisions" in xs and "train_cpu_seconds" not in xs
    scale = next(layer["encoding"]["x"]["scale"] for layer in layers if layer["encoding"].get("x", {}).get("field")
                 == "train_decisions")
    assert scale["type"] == "log"
    texts = [layer for layer in layers if (layer["mark"]["type"] if isinstance(layer["mark"], dict)
                                           else layer["mark"]) == "text"]
    assert texts and all(layer["mark"]["fontSize"] >= 11 for layer in texts)
    caption = fc.cost_caption(pts, rules, runs)
    assert "the first 50 boards of the beginner suite" in caption and "the leaderboard scores them on 100" in caption
    assert "PPO (per tile) and PPO (CNN): the end of training only" in caption
    assert "training games. Network (beg.): the checkpoints their own training runs stored" in caption
    assert "Not drawn: the network, symmetric (beg.), the same training" in caption
    assert "keep no checkpoint" in caption and "were not kept" not in caption
    assert "the best window (int.), of another level's boards, on the leaderboard only" in caption
    assert "another level" not in fc.cost_caption(pts, rules, made_bench(ppo=True))  # none to leave out


def test_the_cost_chart_names_few_series_the_paper_s_agent_alone():
    """The greedy table is named alone; a family of more learners than GROUPED is named once, together."""
    runs = made_bench(ppo=True)
    outs = [bench_output(spec, s, "table", {"beginner": 50 + s}, train_board="8x8x10")
            for spec in ("thompson", "egreedy:0.01", "rule:softmax:0.05", "rule:ucb1:1", "rule:decaying-eps:1000")
            for s in (1, 2)]
    extra = bf.benchmark_runs(outs)
    runs = {k: pd.concat([runs[k], extra[k]], ignore_index=True) for k in runs}
    pts = fc.cost_points(runs, fc.network_checkpoints(runs, load=_source))
    named = pts.drop_duplicates("label").set_index("label")["series"]
    assert named["greedy table"] == "greedy table" and named["network (beg.)"] == "network (beg.)"
    assert {named[w] for w in ("UCB table", "Thompson table", "ε-greedy table")} == {"3 other table agents"}
    assert {named[w] for w in ("softmax rule", "UCB1 rule", "decaying ε rule")} == {"3 plug-in rules"}
    assert named["PPO (CNN)"] == "PPO (CNN)"  # two PPO policies: each named
    placed = bc._labels(pts.drop_duplicates("series").assign(label=lambda d: d["series"]), pd.DataFrame(
        columns=["agent", "win_rate"]), pts, 1e2, 1e6)
    assert sorted(placed["text"]) == sorted(set(named))  # one label per series
    caption = fc.cost_caption(pts, fc.untrained(runs, "beginner", 50), runs)
    assert "Thin lines: 3 other table agents (" in caption and "3 plug-in rules (" in caption


def test_the_chart_labels_overprint_nothing():
    ends = pd.DataFrame({"label": ["a table", "another table", "a rule", "a network", "its twin"],
                         "family": ["table agent", "table agent", "plug-in rule", "neural bandit", "neural bandit"],
                         "train_decisions": [2e7, 2.1e7, 2e7, 4e6, 4e6], "win_rate": [0.74, 0.737, 0.735, 0.87, 0.868]})
    rules = pd.DataFrame({"agent": ["best window (beg.)", "best window (int.)"], "win_rate": [0.763, 0.733]})
    placed = bc._labels(ends, rules, ends, 5e4, 3e7)
    assert len(placed) == 7
    px = placed.assign(top=(1 - placed["y"]) * bc.HEIGHT)
    width = bc.CHAR * px["text"].str.len() + 4
    px["x0"] = px["lx"].where(px["align"] == "left", px["lx"] - width)
    px["x1"] = px["x0"] + width
    boxes = list(px[["x0", "x1", "top"]].itertuples(index=False))
    for i, a in enumerate(boxes):  # no two labels' boxes overlap: one line apart, or side by side
        for b in boxes[i + 1:]:
            assert abs(a.top - b.top) >= bc.LINE - 1e-6 or a.x1 <= b.x0 or b.x1 <= a.x0, (a, b)
    column = px[px["lx"] > bc.WIDTH].sort_values("top")["text"].tolist()  # in the order of their points
    assert column == ["best window (beg.) (0.763)", "a table", "another table", "a rule", "best window (int.) (0.733)"]


def test_the_cost_exercise_sets_the_unit_cost_here_beside_the_recorded_seconds():
    outs = [bench_output("greedy", s, "table", {"beginner": 70}, train_board="8x8x10", cpu=cpu,
                         work={"train_decisions": d, "checkpoint_train_decisions": [d // 10, d]})
            for s, cpu, d in ((1, 53.0, 23_400_000), (2, 54.0, 23_500_000), (3, 66.0, 23_600_000))]
    text = bf.work_sentence(bf.benchmark_runs(outs), cpu_seconds=0.94, decisions=470_000, games=20_000)
    assert text.startswith("Here 20,000 training games of the greedy table made 470,000 decisions in 0.94 CPU "
                           "seconds: 2.00 µs per training decision.")
    assert "made 23,500,000 training decisions (mean of 3 seeds, 1,000 games each)" in text
    assert "at this unit cost, 47 CPU seconds here" in text  # 2 µs x 23.5M; 47 / 57.67 = 0.815
    assert "recorded 53 to 66 s (mean 58 s, 3 seeds, on a CPU), as recorded" in text
    assert "a spread of 1.25 times for the same count of games, whose decisions differ by 0.9% at most" in text
    quick = bf.benchmark_runs([bench_output("greedy", s, "table", {"beginner": 70}, train_board="8x8x10", cpu=cpu)
                               for s, cpu in ((1, 0.41), (2, 0.43))])
    assert "recorded 0.41 to 0.43 s (mean 0.42 s" in bf.work_sentence(quick, 0.5, 25_000, 20_000)  # short: in 1/100 s
    assert "The estimate is below that range (0.82 times their mean)" in text


def test_the_clock_note_words_the_noise_from_the_same_work_trained_twice():
    pairs = pd.DataFrame({"policy": ["tiles", "tiles", "cnn"], "seed": [1, 2, 1], "same": [True, True, True],
                          "cpu_seconds": [1527.0, 1507.0, 370.0], "bench_cpu_seconds": [1323.0, 1043.0, 335.0]})
    text = bf.clock_note(pairs)
    assert "3 PPO networks (per-tile, CNN; seeds 1, 2)" in text
    assert "1.10 to 1.44 times apart for the same work" in text  # 370/335 and 1507/1043
    assert "per-tile network of seed 2: 1,507 s and 1,043 s, as recorded" in text
    assert "`python -m sweeper bench`" in text and "more than that factor of 1.44" in text
    assert "shared machine vary with its load" in bf.clock_note(pairs.iloc[:0])


# ------------------------------------------------ the leaderboard as a forest plot, its tables (issue 62) --

import json  # noqa: E402
import re  # noqa: E402

import numpy as np  # noqa: E402


def test_a_rate_keeps_three_decimals_and_never_hides_a_bound():
    assert bf.interval_text(0.738367, 0.718690, 0.758044) == "0.738 [0.719, 0.758]"
    assert bf.interval_text(0.019467, 0.017602, 0.021331) == "0.019 [0.018, 0.021]"  # was "0.019 [0.02, 0.02]"
    assert bf.interval_text(0.0, 1e-19, 0.000384) == "0.000 [0.000, 0.0004]"  # was "0.000 [0.00, 0.00]"
    assert bf.interval_text(0.000033, 0.0, 0.000177) == "0.00003 [0.000, 0.0002]"  # 1 win in 30,000 is not 0
    assert bf.rate_text(0.7325) in ("0.732", "0.733") and bf.rate_text(1.0) == "1.000"
    rng = np.random.default_rng(1)
    for _ in range(2000):  # the printed interval holds the printed mean, and no bound prints as a mean it is not
        lo, m, hi = np.sort(rng.choice([rng.random(), rng.random() / 1000, 0.0, 1.0], 3))
        text = bf.interval_text(m, lo, hi)
        mean, low, high = map(float, re.match(r"(\S+) \[(\S+), (\S+)\]$", text).groups())
        assert low <= mean <= high, (m, lo, hi, text)
        for v, shown in ((lo, low), (hi, high)):
            assert shown != mean or abs(v - m) < 0.001, (m, lo, hi, text)  # apart by more: printed apart


def test_the_leaderboard_table_prints_three_decimals_and_comes_in_parts():
    board = bf.leaderboard(made_bench(ppo=True), "beginner")
    wins = bf.leaderboard_table(board, "wins")
    assert list(wins.columns) == bf.TABLE_PARTS["wins"] == ["win rate [95%]", "seeds", "revealed", "regret/dec."]
    assert list(bf.leaderboard_table(board, "cost").columns) == ["trained", "µs/dec."]
    assert list(bf.leaderboard_table(board).columns) == bf.TABLE_PARTS["wins"][:3] + ["trained", "µs/dec.",
                                                                                      "regret/dec."]
    for text in wins["win rate [95%]"]:
        assert re.fullmatch(r"\d\.\d{3,} \[\d\.\d{3,}, \d\.\d{3,}\]", text), text
    assert wins.loc["greedy table", "seeds"] == "3: 0.730–0.750"
    assert wins.loc["random clicks", "win rate [95%]"].startswith("0.000 [0.000, 0.0")  # the Wilson bound kept


def test_the_forest_plot_draws_every_entry_its_interval_and_its_seeds():
    runs = made_bench(ppo=True)
    data = bf.forest(runs, "beginner")
    rows, seeds = data["rows"].set_index("agent"), data["seeds"]
    assert list(data["rows"]["agent"]) == list(bf.leaderboard(runs, "beginner")["agent"])  # best mean first
    assert rows.loc["exact solver", "family"] == "untrained" and rows.loc["exact solver", "interval"] == "Wilson"
    assert rows.loc["greedy table", "interval"] == "t over seeds"
    assert rows.loc["greedy table", "family"] == "table agent"
    assert rows.loc["greedy table", "text"] == bf.leaderboard_table(bf.leaderboard(runs, "beginner")).loc[
        "greedy table", "win rate [95%]"]  # the chart's numbers are the table's
    low, high = rows.loc["greedy table", ["low", "high"]]
    assert low < 0.74 < high
    assert sorted(seeds.loc[seeds["agent"] == "greedy table", "win_rate"]) == [0.73, 0.74, 0.75]
    assert not set(seeds["agent"]) & {"exact solver", "random clicks"}  # one run: no seeds to draw
    spec = bc.forest_chart(data, "beginner", 100).to_dict()
    plot, numbers = spec["hconcat"]
    assert {v["mark"]["type"] for v in plot["layer"]} == {"bar", "tick", "circle"}
    assert numbers["mark"]["type"] == "text" and numbers["mark"]["fontSize"] >= bc.FONT
    assert plot["height"] == bc.ROW * len(rows)
    assert "win rate on the first 100 beginner boards" in json.dumps(spec)



def test_how_to_read_the_verdicts_counts_them_and_states_their_power():
    import re

    from sweeper.experiments.stats import compare_seeds, seed_half_width, seeds_to_resolve
    runs = made_bench(networks=False)
    lines, text = bf.verdicts(runs), bf.verdicts_read(runs)
    n = len(lines)
    assert n == 1 and text.startswith("This is one verdict at 95%: were the two learners alike")
    two = made_bench(networks=False, ppo=True)
    m = len(bf.verdicts(two))
    assert m > 1 and bf.verdicts_read(two).startswith(f"These are {m} verdicts at 95% each.")
    assert f"at least one of the {m} with a chance of up to {1 - 0.95 ** m:.0%}" in bf.verdicts_read(two)
    greedy = bf.outcomes(runs["games"], "greedy table", "beginner")
    s = runs["scores"]
    others = [w for w, k in s[s["level"] == "beginner"].groupby("label")["seed"].nunique().items()
              if k >= 2 and w != "greedy table"]
    halves = [(c["high"] - c["low"]) / 2 for c in (compare_seeds(bf.outcomes(runs["games"], w, "beginner"), greedy)
                                                    for w in others)]
    typical = sorted(halves)[len(halves) // 2] if len(halves) % 2 else sum(sorted(halves)[len(halves) // 2 - 1:
                                                                                      len(halves) // 2 + 1]) / 2
    assert f"half-widths of {min(halves):.3f} to {max(halves):.3f} (typically {typical:.3f}" in text
    need = seeds_to_resolve(typical / seed_half_width(1.0, 3), 0.01)
    assert f"needs about {need} seeds a side" in text
    assert bf.verdicts_read(runs, against="nobody") == ""


# ------------------------------------------- issue 65: page 15's own policy, paired --

def _made_entry(score, won):
    import numpy as np
    import pandas as pd
    rows = pd.DataFrame({"seed": 0, "board": np.arange(len(won)), "won": np.asarray(won, bool)})
    rows.attrs.update(suite=score.suite.name, opening=score.suite.opening, suite_sha256=score.suite.checksum)
    return rows


def test_own_policy_values_pair_the_boards_on_made_entries(monkeypatch):
    """The policy of one's own is set beside each entry board by board (was: point estimates on 500 boards against
    the leaderboard's 10,000). Made entries: one that wins every board, one that wins none."""
    import pandas as pd
    from sweeper.experiments import benchmark as bm, board_results as br
    own = bm.score("solver", games=40, regret_games=3)
    made = {"all": [True] * 60, "none": [False] * 60}
    monkeypatch.setattr(br, "entry_boards", lambda name, level, results=None: _made_entry(own, made[name]))
    runs = {"scores": pd.DataFrame({"spec": ["all", "none"], "level": "beginner", "regret_per_decision": [.1, .3]})}
    v = bf.own_policy_values(own, runs, {"a": "all", "n": "none"})
    w = own.wins
    assert (v["own_wins"], v["own_boards"], v["own_regret_boards"]) == (w, 40, 3)
    assert v["a_rate"] == 1.0 and v["n_rate"] == 0.0 and (v["a_regret"], v["n_regret"]) == (.1, .3)
    assert v["a_diff"] == w / 40 - 1 and v["n_diff"] == w / 40
    assert (v["a_only_own"], v["a_only_entry"], v["n_only_own"], v["n_only_entry"]) == (0, 40 - w, w, 0)
    assert v["a_low"] <= v["a_diff"] <= v["a_high"] < 0 < v["n_low"] <= v["n_diff"] <= v["n_high"]
    assert v["a_verdict"] == "wins less than" and v["n_verdict"] == "wins more than"
    assert float(v["a_p"]) == float(f"{min(1.0, 2 * 0.5 ** (40 - w)):.2g}")  # exact McNemar: all one way
    assert all(isinstance(x, (int, float, str)) for x in v.values())


def test_own_policy_values_on_the_stored_runs():
    from sweeper.experiments import benchmark as bm
    own = bm.score("solver", games=300, regret_games=5)
    runs = bf.benchmark_runs()
    v = bf.own_policy_values(own, runs)
    assert v["own_boards"] == 300 and v["random_rate"] < v["own_rate"] and v["random_verdict"] == "wins more than"
    assert v["random_only_entry"] <= v["random_only_own"] and 0 < v["window_rate"] < 1
    assert v["random_regret"] > v["window_regret"] > 0


def test_the_suites_caption_says_the_openings_from_the_engines_table():
    """Issue 64: page 15's caption of the suites listed the openings and their first click by hand."""
    from sweeper.game.engine import OPENING_TABLE
    said = bf.openings_said()
    assert said.count(" — ") == len(OPENING_TABLE) and "--first" not in said
    for o in OPENING_TABLE:
        assert said.count(f"{o.name} — ") == 1
    assert "tile (0, 0) on every level" in said
