"""The deep-RL chapter's data for three seeds, the per-tile policy and the random floor
(sweeper/viz/figures/deep.py), on hand-made stored outputs: no torch needed."""

import numpy as np
import pandas as pd
import pytest

from sweeper.bench import work_cost

from sweeper.experiments.runner import Output, Task
from sweeper.experiments.stats import wilson
from sweeper.viz.figures import deep

HP = {"policy": "TilePolicy", "n_steps": 1024, "batch_size": 256, "n_epochs": 10, "learning_rate": 3e-4,
      "gamma": 0.99, "gae_lambda": 0.95, "clip_range": 0.2, "ent_coef": 0.0, "vf_coef": 0.5,
      "rewards": {"win": 1.0, "loss": -1.0, "reveal": 1 / 54, "invalid": -0.1, "step": 0.0}}


def _tests(wins, revealed):
    return pd.DataFrame({"won": [True] * wins + [False] * (1000 - wins), "steps": 10, "revealed": revealed,
                         "test": "8x8x10"})


def _audit(d=100, safe=90, took=30, mine=10):
    return {"audit_decisions_8x8x10": d, "audit_safe_known_8x8x10": safe, "audit_clicked_safe_known_8x8x10": took,
            "audit_clicked_known_mine_8x8x10": mine}


def _outputs():
    outs = []
    for s in (1, 2, 3):
        t = Task.make("deep_ppo", board="8x8x10", steps=160_000, seed=s, policy="tiles", checkpoints=[16_000])
        points = pd.DataFrame({"steps": [16_000, 160_000], "games": [1_000, 9_000], "cpu_seconds": [150.0, 1500.0],
                               "test_games": 1000, "wins": [0, 10 * s], "revealed": [10.8, 27.0]})
        curve = pd.DataFrame({"episode": [1000, 2000], "cpu_seconds": [100.0, 200.0], "block_win_rate": [0.0, 0.01]})
        outs.append((t, Output(tables={"tests": _tests(10 * s, 27), "curve": curve, "checkpoints": points},
                               info={"steps": 160_000, "games": 9_000, "train_cpu_seconds": 1500.0,
                                     "parameters": 40_834, "hyperparameters": HP, **_audit()})))
        t = Task.make("deep_ppo", board="8x8x10", steps=60_000, seed=s)
        outs.append((t, Output(tables={"tests": _tests(0, 9), "curve": curve},
                               info={"steps": 60_000, "games": 5_000, "train_cpu_seconds": 100.0,
                                     "parameters": 574_689, "hyperparameters": {**HP, "policy": "MaskableActorCriticPolicy"},
                                     **_audit(took=20)})))
        t = Task.make("deep_random", board="8x8x10", seed=s)
        outs.append((t, Output(tables={"tests": _tests(0, 5.4)}, info=_audit(took=15, mine=12))))
    return outs


def test_the_runs_become_tidy_frames_with_their_labels():
    r = deep.deep_runs(_outputs())
    runs = r["runs"]
    assert runs["agent"].unique().tolist() == ["per tile, 160,000 steps", "CNN, 60,000 steps",
                                              "random clicks"]
    assert runs.loc[runs["agent"] == "random clicks", "revealed"].tolist() == pytest.approx([0.1] * 3)
    assert len(r["checkpoints"]) == 6 and r["checkpoints"]["revealed"].iloc[0] == pytest.approx(0.2)
    assert deep.agent_label({"steps": 60_000, "kernel": 5}) == "CNN 5×5 first, 60,000 steps"


def test_pooled_tests_add_the_seeds_and_the_audits():
    p = deep.pooled_tests(deep.deep_runs(_outputs())["runs"]).set_index("agent")
    tiles = p.loc["per tile, 160,000 steps"]
    assert (tiles["wins"], tiles["test_games"], tiles["seeds"]) == (60, 3000, 3)
    assert (tiles["lo"], tiles["hi"]) == wilson(60, 3000) and tiles["revealed"] == pytest.approx(0.5)
    assert tiles["took_safe"] == pytest.approx(30 / 90) and tiles["known_mine"] == pytest.approx(0.1)
    assert p.loc["random clicks", "took_safe"] == pytest.approx(15 / 90)
    table = deep.pooled_tests_table(p.reset_index())
    assert table.loc["random clicks", "safe taken"] == "17%"


def test_the_hyperparameters_come_from_the_runs():
    h = deep.hyperparameters_table(deep.deep_runs(_outputs())["runs"])
    assert list(h.columns) == ["tiles", "cnn"]
    assert h.loc["n_epochs", "tiles"] == "10" and h.loc["learning_rate", "cnn"] == "0.0003"
    assert h.loc["rewards", "tiles"] == "win 1, loss -1, per safe tile 0.0185" and h.loc["weights", "cnn"] == "574,689"


def _neural_points(decisions=(100_000, 1_000_000)):
    """The neural bandit's beginner checkpoints, hand-made: two per seed, at ``decisions`` (its warm start's
    included), 7,500 and 75,000 games, 155 and 1,545 CPU seconds recorded."""
    return pd.DataFrame({"board": "8x8x10", "seed": [1, 1, 2, 2, 3, 3], "games_all": [7_500, 75_000] * 3,
                         "games": [7_000, 74_500] * 3, "decisions_all": list(decisions) * 3,
                         "updates_all": [2_000, 9_000] * 3, "cpu_seconds": [155.0, 1545.0] * 3, "test_games": 1000,
                         "wins": [780, 858] * 3, "revealed": [0.94, 0.955] * 3})


def test_the_signals_are_compared_after_as_many_training_decisions():
    r = deep.deep_runs(_outputs())
    sp = deep.signal_points(r["checkpoints"], _neural_points())
    assert set(sp["learner"]) == {"PPO, per tile (reward)", "neural bandit (labels)"} and len(sp) == 12
    ppo = sp[sp["learner"].str.startswith("PPO")]
    assert ppo["decisions"].tolist() == [16_000, 160_000] * 3 and ppo["gradient_steps"].isna().all()
    text = deep.signal_verdict(sp)
    # the work first: PPO's environment steps are its decisions; the bandit's checkpoint within as many
    assert text.startswith("After 160,000 training decisions (its environment steps; 3 seeds, 9,000 games on "
                           "average), the per-tile PPO wins 0.020 [")
    assert ("at its last checkpoint within as many decisions (100,000 decisions on average, its warm start "
            "included; 2,000 gradient steps and 7,500 games, 3 seeds) wins 0.780") in text
    assert "reveals 50% of the safe tiles" in text
    # a seed-level verdict, and no claim about the signals beyond the two learners as built
    assert "this PPO configuration, with the settings above and untuned, won fewer with at least as many training " \
        "decisions" in text
    assert "do not show the two after equal work" not in text
    assert "a comparison of these two learners as built, not of the two signals." in text
    # counted work only: the CPU the runs recorded is no measure of it, and the bench prices no first recipe
    assert "CPU" not in text and "minutes" not in text
    assert "bought" not in text and "same CPU time" not in text
    at = deep.signal_at_budget(sp)
    assert at.groupby("learner")["games"].max().to_dict() == {"PPO, per tile (reward)": 9_000,
                                                               "neural bandit (labels)": 7_500}
    assert at["within"].all()


def test_without_a_checkpoint_within_ppos_decisions_the_verdict_says_so():
    r = deep.deep_runs(_outputs())
    sp = deep.signal_points(r["checkpoints"], _neural_points(decisions=(500_000, 1_000_000)))
    at = deep.signal_at_budget(sp)
    net = at[~at["learner"].str.startswith("PPO")]
    assert net["decisions"].tolist() == [500_000] * 3 and not net["within"].any()  # the first, past PPO's
    text = deep.signal_verdict(sp)
    assert ("has no checkpoint within as many decisions; at its first (500,000 decisions on average, its warm start "
            "included, 3.1 times PPO's; 2,000 gradient steps and 7,500 games, 3 seeds) it wins 0.780") in text
    assert "won fewer after 3.1 times fewer training decisions" in text
    assert "The stored runs do not show the two after equal work" in text
    # one seed with a checkpoint within PPO's decisions, two without: both named
    mixed = _neural_points(decisions=(500_000, 1_000_000))
    mixed.loc[0, "decisions_all"] = 150_000
    text = deep.signal_verdict(deep.signal_points(r["checkpoints"], mixed))
    assert "at its last checkpoint within as many decisions, or its first for a seed with none that early (383,333 " \
        "decisions on average" in text and "won fewer at these checkpoints" in text
    assert "The stored runs do not show the two after equal work" in text


def test_the_costs_count_the_work_first_and_keep_the_cpu_as_recorded():
    runs = deep.deep_runs(_outputs())["runs"]
    greedy = {"games": 1_000_000, "decisions": 23_500_000.0, "seconds": 25.0, "cpu_seconds": [20.0, 25.0, 30.0]}
    c = deep.costs_table(runs, greedy)
    assert list(c.index) == ["per tile, 160,000 steps", "CNN, 60,000 steps", deep.GREEDY]
    assert list(c.columns) == ["training decisions", "games", "decisions / game", "weights", "CPU s at the bench",
                               "CPU s (as recorded)"]
    cnn = c.loc["CNN, 60,000 steps"]
    assert cnn["training decisions"] == "60,000" and cnn["games"] == "5,000"
    assert cnn["decisions / game"] == "12.0" and cnn["CPU s (as recorded)"] == "100 (100-100)"
    # the work priced at the committed bench's unit cost (CPU per training decision), beside the record
    assert cnn["CPU s at the bench"] == f"{work_cost('ppo:cnn', 'beginner', 60_000):,.0f}"
    g = c.loc[deep.GREEDY]
    assert g["training decisions"] == "23,500,000" and g["decisions / game"] == "23.5"
    assert g["CPU s (as recorded)"] == "25 (20-30)"
    assert g["CPU s at the bench"] == f"{work_cost('greedy', 'beginner', 23_500_000):,.0f}"
    t = deep.training_costs(runs, greedy).set_index("agent")
    assert t.loc[deep.GREEDY, "ratio"] == pytest.approx(25.0 / work_cost("greedy", "beginner", 23_500_000))
    v = deep.cost_values(runs, greedy)
    assert v["ratio_low"] == pytest.approx(t["ratio"].min()) and v["unpriced"] == "none"
    # a CNN whose first layer the bench never timed is not priced
    assert deep.ppo_unit("cnn", 5) is None and deep.ppo_unit("tiles", 3) == "ppo:tiles"
    # greedy's runs have not recorded their decisions yet: said so
    assert deep.costs_table(runs, {**greedy, "decisions": np.nan}).loc[deep.GREEDY, "training decisions"] == \
        "not recorded"


def test_the_mean_curves_keep_the_blocks_every_seed_reached_and_price_them_at_the_bench():
    curves = pd.DataFrame({"agent": "a", "seed": [1, 1, 2, 2, 2], "episode": [1000, 2000, 1000, 2000, 3000],
                           "cpu_seconds": [1.0, 2.0, 3.0, 4.0, 5.0], "block_win_rate": [0.0, 0.2, 0.1, 0.4, 0.5]})
    runs = pd.DataFrame({"agent": ["a", "a", "b", "b"], "policy": ["tiles", "tiles", "cnn", "cnn"],
                         "kernel": [3, 3, 5, 5], "seed": [1, 2, 1, 2], "steps": [9_000, 11_000, 5_000, 5_000],
                         "games": [2_000, 4_000, 1, 1], "cpu_seconds": [100.0, 300.0, 1.0, 1.0]})
    greedy = {"curve": pd.DataFrame({"agent": deep.GREEDY, "episode": [10_000], "block_win_rate": [0.33]}),
              "games": 20_000, "decisions": 400_000.0, "seconds": 0.4, "cpu_seconds": [0.3, 0.5]}
    m = deep.mean_curves(curves, greedy, runs)
    assert m["episode"].tolist() == [1000, 2000, 10_000]
    assert m["block_win_rate"].tolist() == pytest.approx([0.05, 0.3, 0.33])
    # a's 10,000 decisions on average at the bench's per-tile PPO unit, over its 3,000 games on average; greedy's
    # 400,000 at greedy's over its 20,000
    a, g = work_cost("ppo:tiles", "beginner", 10_000), work_cost("greedy", "beginner", 400_000)
    assert m["bench_seconds"].tolist() == pytest.approx([a / 3, 2 * a / 3, g / 2])
    assert "cpu_seconds" not in m  # the runs' recorded CPU is a record of the machine's load, never drawn
    # an agent the bench has no unit for (the 5x5-first CNN) is priced NaN: left out of the CPU panel
    b = pd.DataFrame({"agent": "b", "seed": [1, 2], "episode": 1, "cpu_seconds": 1.0, "block_win_rate": 0.0})
    assert np.isnan(deep.mean_curves(b, greedy, runs)["bench_seconds"].iloc[0])


def test_the_test_sentences_set_each_agent_against_the_floor():
    runs = deep.deep_runs(_outputs())["runs"]
    text = deep.tests_sentences(runs)
    assert text.startswith("**Measured** (3 seeds of each agent, 1,000 frozen test games per seed). Random valid "
                           "clicks win 0 of 3,000 games and reveal 10.0% of the safe tiles")
    assert "\n* **per tile, 160,000 steps**: wins 0.020 [" in text and "50.0% of the safe tiles per game (seeds " \
        "50%-50%), more than the floor; takes a known safe tile 33% of the times" in text
    assert "\n* **CNN, 60,000 steps**: wins none of 3,000 games; reveals 16.7%" in text
    assert text.endswith("1 of the 2 trained agents (CNN, 60,000 steps) won no test game: its budget says nothing "
                         "about what PPO with this network can learn, only how far it got in that time.")


def test_the_kernel_sentence_compares_wins_and_tiles_and_refuses_a_verdict_without_wins():
    outs = _outputs()
    for s in (1, 2, 3):
        t = Task.make("deep_ppo", board="8x8x10", steps=60_000, seed=s, kernel=5)
        outs.append((t, type(outs[0][1])(tables={"tests": _tests(0, 9 + s)},
                                          info={"steps": 60_000, "games": 5_000, "train_cpu_seconds": 100.0,
                                                "parameters": 600_000, **_audit()})))
    runs = deep.deep_runs(outs)["runs"]
    text = deep.kernel_sentence(runs, 60_000)
    assert "the 5×5 network's 0 wins are indistinguishable from the 3×3 network's 0, and it reveals more safe " \
        "tiles per game (20.4% against 16.7%; the seeds' own means do not overlap)." in text
    assert text.endswith("whether a wider view helps a network that wins needs a budget in which it does.")
    assert list(deep.kernel_table(runs, 60_000).index) == ["CNN, 60,000 steps", "CNN 5×5 first, 60,000 steps"]


def test_published_agents_table_and_its_sources_row_by_row():
    """The other projects' agents: one row each, as reported, and a sentence that names each row's repository."""
    from sweeper.experiments.paper import published_learned_agents
    t, data = deep.published_learned_agents(), published_learned_agents()
    assert list(t.index) == list(data["agent"])
    assert list(t.columns) == ["learning", "board", "first click", "win rate"]
    assert t.loc["PPO with a residual CNN", "win rate"] == "87.2%"
    sources = deep.published_sources()
    positions = [sources.index(f"{a}: `{s}`") for a, s in zip(data["agent"], data["source"])]
    assert positions == sorted(positions)


# ------------------------------------------------ the benchmark's PPO rows: the same networks --

def _bench_outputs(games=None):
    """ext:benchmark_ppo's runs, hand-made: the chapter's networks of _outputs() trained again (the same steps and
    training games unless ``games`` says otherwise), with other CPU seconds, scored on 10,000 suite boards."""
    outs = []
    for policy, steps, played, cpu in (("tiles", 160_000, 9_000, 1200.0), ("cnn", 60_000, 5_000, 80.0)):
        for s in (1, 2, 3):
            t = Task.make("benchmark", agent=f"ppo:{policy}", seed=s, train={"board": "8x8x10", "steps": steps},
                          test={"levels": ["beginner"], "games": [10_000], "regret_games": [200],
                                "opening": "reference", "checkpoint_games": 1000})
            scores = pd.DataFrame({"level": ["beginner"], "suite": "beginner-reference", "opening": "reference",
                                   "games": 10_000, "wins": 150 * s if policy == "tiles" else 0})
            n = (games or {}).get((policy, s), played)
            outs.append((t, Output(tables={"scores": scores}, info={"steps": steps, "games": n,
                                                                    "train_cpu_seconds": cpu * (1 + s / 10)})))
    return outs


def test_the_benchmarks_ppo_rows_are_checked_to_be_the_chapters_networks():
    pairs = deep.ppo_pairs(_outputs(), _bench_outputs())
    assert pairs[["policy", "seed"]].values.tolist() == [["tiles", 1], ["tiles", 2], ["tiles", 3], ["cnn", 1],
                                                         ["cnn", 2], ["cnn", 3]]
    assert pairs["same"].all() and pairs["test_games"].tolist() == [1000] * 6
    text = deep.same_networks_sentence(pairs)
    assert text.startswith("**The same networks.** The benchmark's PPO rows")
    assert ("seed for seed (the per-tile network 160,000 environment steps per seed, in 9,000, 9,000 and 9,000 "
            "games; the CNN 60,000 environment steps per seed, in 5,000, 5,000 and 5,000 games)") in text
    assert ("here each seed's frozen policy plays 1,000 beginner (8x8x10) boards dealt from that seed's own test seed, "
            "different for each seed; there every seed plays the first 10,000 boards of the benchmark's suite "
            "`beginner-reference` (reference opening)") in text
    assert "the per-tile network 60 of 3,000 (0.020) here and 900 of 30,000 (0.030) there" in text
    assert "the CNN 0 of 3,000 here and 0 of 30,000 there" in text  # no rate that rounds to nothing
    # the CPU factor: here over there, per seed, its lowest and highest (1500 / 1320 ... 1500 / 1560)
    assert (f"seed for seed, {1500 / 1560:.2f} to {1500 / 1320:.2f} times as many here as there for the per-tile "
            "network (as recorded:") in text
    assert text.index("environment steps") < text.index("CPU seconds")  # counted work first
    assert text.endswith("the load of the machine when each ran, not the method.")
    # one seed's training games differ: not the same networks, and no CPU factor of "the same work"
    other = deep.same_networks_sentence(deep.ppo_pairs(_outputs(), _bench_outputs({("tiles", 2): 9_001})))
    assert other.startswith("**Not the same networks.**")
    assert "the per-tile network's on seed 2 (9,000 training games here, 9,001 there)" in other
    assert "times as many" not in other
    # the 5×5 CNN of the exercise is not on the benchmark: it pairs with nothing; no benchmark runs, no pairs
    wide = [(Task.make("deep_ppo", board="8x8x10", steps=60_000, seed=s, kernel=5), out)
            for s, (_, out) in zip((1, 2, 3), [o for o in _outputs() if o[0].params.get("steps") == 60_000])]
    assert deep.ppo_pairs(_outputs() + wide, _bench_outputs()).equals(pairs)
    assert deep.ppo_pairs(_outputs(), []).empty


def test_the_clock_noise_is_the_spread_of_the_cpu_recorded_for_the_same_work():
    pairs = deep.ppo_pairs(_outputs(), _bench_outputs())
    noise = deep.clock_noise(pairs)
    # the chapter's 1,500 and 100 s against 1,200 * 1.1 ... 1.3 and 80 * 1.1 ... 1.3: each pair's larger over smaller
    want = [1500 / 1320, 1500 / 1440, 1560 / 1500, 100 / 88, 100 / 96, 104 / 100]
    assert noise["factors"] == pytest.approx(want) and noise["pairs"] == 6
    assert noise["low"] == pytest.approx(min(want)) and noise["high"] == pytest.approx(1500 / 1320)
    assert noise["policies"] == ["per-tile network", "CNN"] and noise["seeds"] == [1, 2, 3]
    v = deep.noise_values(noise)
    assert v == {"low": pytest.approx(min(want)), "high": pytest.approx(1500 / 1320), "pairs": 6,
                 "policies": "per-tile network and CNN", "seeds": "1, 2 and 3"}
    # a pair that did not do the same work measures nothing
    other = deep.ppo_pairs(_outputs(), _bench_outputs({("tiles", 1): 9_001}))
    assert deep.clock_noise(other)["pairs"] == 5
    assert deep.clock_noise(pairs.iloc[:0]) == {}
    with pytest.raises(ValueError, match="not measured"):
        deep.noise_values({})


def test_the_clock_noise_of_the_stored_runs_is_that_of_their_meta_json():
    """On the committed paper-scale runs: the factors are those of the recorded CPU seconds, seed by seed."""
    pairs = deep.ppo_pairs()
    noise = deep.clock_noise(pairs)
    ratios = [max(a / b, b / a) for a, b in zip(pairs["cpu_seconds"], pairs["bench_cpu_seconds"])]
    assert noise["pairs"] == len(pairs) == 6 and pairs["same"].all()
    assert noise["low"] == pytest.approx(min(ratios)) and noise["high"] == pytest.approx(max(ratios))
    v = deep.noise_values(noise)
    assert (v["low"], v["high"], v["pairs"]) == (pytest.approx(min(ratios)), pytest.approx(max(ratios)), 6)


def test_the_same_networks_sentence_holds_the_stored_numbers():
    """The chapter's sentence on the committed paper-scale runs: its numbers are those of their meta.json."""
    import json
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent / "results" / "runs" / "paper"
    metas = [json.loads(p.read_text()) for kind in ("deep_ppo", "benchmark") for p in (root / kind).glob("*/meta.json")]
    chapter, bench = {}, {}
    for m in metas:
        t, i = m["task"], m["info"]
        p = t["params"]
        if t["kind"] == "deep_ppo" and p.get("kernel", 3) == 3:
            chapter[(p.get("policy", "cnn"), p["seed"])] = i
        elif t["kind"] == "benchmark" and str(p["agent"]).startswith("ppo:"):
            bench[(p["agent"][4:], p["seed"])] = (i, p)
    assert sorted(chapter) == sorted(bench) == sorted((p, s) for p in ("tiles", "cnn") for s in (1, 2, 3))
    text = deep.same_networks_sentence(deep.ppo_pairs())
    assert text.startswith("**The same networks.**")
    for policy, name in deep.BENCHMARK_PPO.items():
        games = [chapter[(policy, s)]["games"] for s in (1, 2, 3)]
        assert games == [bench[(policy, s)][0]["games"] for s in (1, 2, 3)]  # the check the sentence words
        steps = chapter[(policy, 1)]["steps"]
        assert (f"the {name} {steps:,} environment steps per seed, in {games[0]:,}, {games[1]:,} and "
                f"{games[2]:,} games") in text
        ratio = [chapter[(policy, s)]["train_cpu_seconds"] / bench[(policy, s)][0]["train_cpu_seconds"]
                 for s in (1, 2, 3)]
        here = ", ".join(f"{chapter[(policy, s)]['train_cpu_seconds']:,.0f}" for s in (1, 2)) + \
            f" and {chapter[(policy, 3)]['train_cpu_seconds']:,.0f} s here"
        assert f"{min(ratio):.2f} to {max(ratio):.2f} times as many here as there for the {name} (as recorded: " \
            f"{here}" in text
        test = bench[(policy, 1)][1]["test"]
        assert (f"the first {test['games'][0]:,} boards of the benchmark's suite `{test['levels'][0]}-"
                f"{test['opening']}` ({test['opening']} opening)") in text


def test_the_solvers_beside_the_published_figure_read_the_stored_runs():
    from sweeper.viz.figures import ceiling, how_good
    hg, p = how_good(), ceiling.paired(ceiling.search_runs())
    text = deep.solvers_beside_published(hg, p)
    beg = hg[(hg["player"] == "solver") & (hg["board"] == "8x8x10") & (hg["opening"] == "reference")].iloc[0]
    ref = p.set_index("suite").loc["intermediate-reference"]
    assert f"{beg['win_rate']:.1%} of {int(beg['games']):,} beginner games" in text
    assert f"the one-step solver wins {ref['solver_rate']:.3f} and the searching solver {ref['search_rate']:.3f}" in text
    zero = p.set_index("suite").loc["intermediate-zero"]
    mid = hg[(hg["player"] == "solver") & (hg["board"] == "16x16x40") & (hg["opening"] == "reference")].iloc[0]
    above = 0.872 > max(ref["search_rate"], zero["search_rate"], mid["win_rate"])  # paper scale: 0.856 at most
    assert f"87.2% on 16x16x40 (PPO with a residual CNN) is {'above' if above else 'not above'} both" in text
    b = p.set_index("suite").loc["beginner-reference"]
    assert f"The same player's {b['solver_rate']:.3f} on the benchmark's {int(b['boards']):,} beginner boards" in text
    assert deep.training_reported().startswith("Training as reported: the PPO with a residual CNN (minesweeper-ppo)")
