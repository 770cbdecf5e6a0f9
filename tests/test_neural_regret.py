"""The neural bandit's training regret (sweeper/running/neural_regret.py) and its stored runs (ext:neural_regret)."""

import numpy as np
import pandas as pd
import pytest

from deep_extra import need
from sweeper.agents import neural


def _small(seed=1, epsilon=0.0):
    need(neural.require_torch)
    return neural.NeuralAgent(channels=8, layers=2, epsilon=epsilon, seed=seed)


def test_each_decisions_regret_is_its_click_against_the_safest_tile_of_the_exact_probabilities():
    """Scored from a recorded run, the regret equals the calibration's by-tile sums (the same views, another path)."""
    from sweeper.running.neural_play import calibration, decisions, evaluate_neural
    from sweeper.running.neural_regret import training_regret
    agent = _small()
    run = evaluate_neural(agent, "8x8x10", 8, seed=2, record=True)
    games = training_regret(run)
    dec = decisions(calibration(agent, "8x8x10", 8, seed=2))
    by_game = dec.groupby("game").agg(decisions=("regret", "size"), sure=("sure", "sum"), missed=("missed", "sum"),
                                      regret=("regret", "sum"))
    g = games.set_index("game").loc[by_game.index]
    assert list(g["decisions"]) == list(by_game["decisions"]) and list(g["sure_decisions"]) == list(by_game["sure"])
    assert list(g["missed"]) == list(by_game["missed"])
    assert np.allclose(g["regret"], by_game["regret"]) and (games["regret"] >= -1e-12).all()
    assert np.allclose(games["regret"], games["regret_sure"] + games["regret_guess"])
    assert list(games["won"]) == list(run.records["won"]) and games["decisions"].sum() == run.decisions


def test_recording_a_training_changes_nothing_in_it():
    from sweeper.running.neural_play import train_neural
    from sweeper.running.neural_regret import training_regret
    a, b = _small(seed=3), _small(seed=3)
    plain = train_neural(a, "6x6x5", decisions=400, seed=3)
    kept = train_neural(b, "6x6x5", decisions=400, seed=3, record=True)
    assert plain.records.drop(columns="cpu_seconds").equals(kept.records.drop(columns="cpu_seconds"))
    sa, sb = a.net.state_dict(), b.net.state_dict()
    assert all(np.array_equal(sa[k].numpy(), sb[k].numpy()) for k in sa)
    games = training_regret(kept)
    assert games["decisions"].sum() == kept.decisions and list(games["game"]) == list(kept.records["game"])
    with pytest.raises(ValueError, match="record=True"):
        training_regret(plain)
    with pytest.raises(ValueError, match="NeuralRun"):
        training_regret(games)
    with pytest.raises(ValueError, match="budget"):
        training_regret(kept, budget=0)


def test_blocks_sum_the_games_by_hand():
    from sweeper.running.neural_regret import GAME_COLUMNS, regret_blocks
    games = pd.DataFrame([(7, True, 3, 2, 0, 0.5, 0.0, 0.5), (2, False, 4, 4, 1, 1.0, 1.0, 0.0),
                          (5, True, 2, 1, 0, 0.25, 0.0, 0.25)], columns=list(GAME_COLUMNS))
    b = regret_blocks(games, 2)
    assert list(b["games"]) == [2, 3] and list(b["wins"]) == [1, 1] and list(b["decisions"]) == [7, 2]
    assert list(b["decisions_so_far"]) == [7, 9] and list(b["cumulative_regret"]) == pytest.approx([1.5, 1.75])
    assert list(b["missed"]) == [1, 0] and list(b["sure_decisions"]) == [6, 1]
    with pytest.raises(ValueError, match="size"):
        regret_blocks(games, 0)


def test_the_regret_runs_are_the_book_network_and_its_twin_with_their_decisions_scored():
    """``ext:neural_regret``: the greedy task is the book's beginner network to its first checkpoint, the exploring
    one its twin of ``ext:neural_explore``; both only add the scoring (and test on beginner boards only)."""
    from sweeper.experiments import neural_runs as nr
    from sweeper.experiments.specs import EXTRA_SPECS
    for scale in ("paper", "quick"):
        tasks = EXTRA_SPECS["ext:neural_regret"].tasks(scale, (1, 2, 3))
        twins = {t.params["seed"]: t.params for t in EXTRA_SPECS["ext:neural_explore"].tasks(scale, (1, 2, 3))}
        assert [(t.params["epsilon"], t.params["seed"]) for t in tasks] == \
            [(e, s) for e in (0.0, nr.EXPLORE_EPSILON) for s in (1, 2, 3)]
        for t in tasks:
            p, q = t.params, twins[t.params["seed"]]
            assert p["regret_block"] == nr.REGRET_BLOCK[scale] and p["tests"] == [nr.EXPLORE_BOARD]
            extra = ("epsilon", "label", "tests", "regret_block")
            assert {k: v for k, v in p.items() if k not in extra} == {k: v for k, v in q.items() if k not in extra}


def test_a_regret_run_at_quick_scale_scores_every_training_decision(tmp_path):
    need(neural.require_torch)
    from sweeper.experiments.runner import Store, run_tasks
    from sweeper.experiments.specs import EXTRA_SPECS
    task = EXTRA_SPECS["ext:neural_regret"].tasks("quick", (1,))[0]
    store = Store(tmp_path)
    run_tasks([task], store, progress=False)
    out = store.load(task)
    r = out.tables["regret"]
    assert r["decisions"].sum() == out.info["train_decisions"] + sum(out.info["curriculum_decisions"])
    assert r["decisions"].sum() == out.info["training_regret_decisions"]
    assert out.info["training_regret"] == pytest.approx(r["regret"].sum())
    assert list(r["phase"].unique()) == [0, 1] and r["games"].is_monotonic_increasing
    assert r["games"].iloc[-1] == out.info["train_games"] + sum(out.info["curriculum_games"])
    assert np.allclose(r["cumulative_regret"], r["regret"].cumsum())
    assert list(out.tables["tests"]["board"]) == ["8x8x10"]


def _made_runs():
    """Two seeds of each learner, each run a straight line of regret against decisions (slopes 0.01 / 0.02 / 0.03,
    doubled for seed 2), their block ends at different decisions."""
    rows = []
    for learner, slope in (("network", 0.01), ("exploring", 0.02), ("table", 0.03)):
        for seed in (1, 2):
            ends = np.arange(1, 11) * (10_000 + 1_000 * seed)
            rows.append(pd.DataFrame({"learner": learner, "seed": seed, "games": np.arange(1, 11) * 100,
                                      "decisions": ends, "regret": slope * seed * ends,
                                      "gap": 0.01 * ends if learner == "table" else np.nan,
                                      "flags": ends / 4 if learner == "table" else np.nan,
                                      "regret_flags": 0.01 * seed * ends if learner == "table" else np.nan}))
    return pd.concat(rows, ignore_index=True)


def test_the_learners_are_read_at_common_decisions_and_summed_by_hand():
    from sweeper.viz.figures import neural_regret as nr
    runs = _made_runs()
    assert nr.horizon(runs) == 110_000  # seed 1's last block end, the shorter
    v = nr.regret_values(runs)
    assert v["network"] == pytest.approx(0.015 * 110_000) and v["network_low"] == pytest.approx(0.01 * 110_000)
    assert v["table_high"] == pytest.approx(0.06 * 110_000) and v["exploring_seeds"] == 2
    assert v["network_early"] == pytest.approx(0.015) and v["table_late"] == pytest.approx(0.045)
    assert (v["table_late_low"], v["table_late_high"]) == pytest.approx((0.03, 0.06))
    assert v["table_gap_late"] == pytest.approx(0.01) and v["gap_times"] == pytest.approx(0.01 / 0.015)
    assert v["table_flag_share"] == pytest.approx(0.25) and v["network_per_decision"] == pytest.approx(0.015)
    assert v["table_per_click"] == pytest.approx(np.mean([0.02 / 0.75, 0.04 / 0.75]))  # (0.03 - 0.01) s per 3/4
    assert v["click_times"] == pytest.approx(v["table_per_click"] / 0.015)
    assert v["one_in"] == pytest.approx(20) and v["exploring_vs_table"] == nr.AGAINST[0]  # seeds' ranges overlap
    assert nr.regret_values(runs[runs["seed"] == 1])["exploring_vs_table"] == nr.AGAINST[-1]
    assert v["table_times"] == pytest.approx(3) and v["exploring_times"] == pytest.approx(2)
    assert v["exploring_late_extra"] == pytest.approx(0.015) and v["per_random_click"] == pytest.approx(0.015 / 0.05)
    assert v["network_fall"] == pytest.approx(1) and v["table_late_times"] == pytest.approx(3)
    c = nr.curves(runs, points=8)
    assert list(c["learner"].unique()) == ["network", "exploring", "table"]
    assert c["decisions"].min() == 12_000 and c["decisions"].max() == 110_000  # from the latest first block end
    one = c[c["learner"] == "exploring"]
    assert np.allclose(one["mean"], 0.03 * one["decisions"]) and np.allclose(one["rate"].iloc[1:], 0.03)
    assert np.diff(one["decisions"]).min() >= 12_000  # never two points within one block (seed 2's are 12,000 wide)
    assert np.isnan(one["rate"].iloc[0]) and (one["low"] <= one["mean"]).all() and (one["mean"] <= one["high"]).all()
    q = nr.quarter_rates(runs)
    assert len(q) == 6 and np.allclose(q["ratio"], 1)  # straight lines: the same rate in every quarter
    bent = runs.assign(regret=np.sqrt(runs["decisions"]) * np.where(runs["learner"] == "table", 1, 0.5))
    qv = nr.quarter_values(nr.quarter_rates(bent))
    assert qv["table_trend"] == nr.TRENDS["all"] and 0 < qv["table_fall"] < 1 and qv["network_seeds"] == 2
    mixed = bent.assign(regret=np.where((bent["learner"] == "network") & (bent["seed"] == 2),
                                        bent["decisions"] ** 2 / 1e6, bent["regret"]))  # seed 2 rising, seed 1 not
    assert nr.quarter_values(nr.quarter_rates(mixed))["network_trend"] == nr.TRENDS["some"]
    rising = bent.assign(regret=bent["decisions"] ** 2 / 1e6)
    assert nr.quarter_values(nr.quarter_rates(rising))["exploring_trend"] == nr.TRENDS["none"]
    table = nr.regret_table(runs)
    assert table.loc[nr.LEARNERS["table"], "per decision, last tenth"] == "0.0450 (0.0300 to 0.0600)"


def test_the_stored_runs_add_up_and_the_page_reads_them_at_the_fewest_decisions_any_made():
    """The committed runs of ``ext:neural_regret`` (and the greedy table's of ``ext:regret``): every training decision
    scored once, and the page's horizon and end values recomputed from the stored totals and blocks by hand."""
    from sweeper.experiments.specs import EXTRA_SPECS, REGRET_SEEDS
    from sweeper.experiments.reproduce import store_for
    from sweeper.viz.figures import neural_regret as nreg
    st = store_for(None, "paper")
    nets = EXTRA_SPECS["ext:neural_regret"].tasks("paper", (1, 2, 3))
    if any(st.status(t) != "ok" for t in nets):
        pytest.skip("the runs of ext:neural_regret are not stored")
    ends, at_end = [], {}
    for t in nets:
        out = st.load(t)
        r, info = out.tables["regret"], out.info
        total = info["train_decisions"] + sum(info["curriculum_decisions"])
        assert r["decisions"].sum() == info["training_regret_decisions"] == total
        assert r["regret"].sum() == pytest.approx(info["training_regret"]) and (r["regret"] >= 0).all()
        ends.append(total)
        at_end[t.id] = r
    tables = [t for t in EXTRA_SPECS["ext:regret"].tasks("paper", REGRET_SEEDS["paper"])
              if t.params["agent"] == "greedy" and t.params["board"] == "8x8x10"]
    ends += [st.load(t).tables["blocks"]["decisions"].sum() for t in tables]
    runs = nreg.learners()
    v = nreg.regret_values(runs)
    assert v["horizon"] == min(ends) and len(tables) == v["table_seeds"] == 5 and v["network_seeds"] == 3
    for learner, greedy in (("network", True), ("exploring", False)):  # the regret at the horizon, seed by seed
        at = [np.interp(v["horizon"], [0, *at_end[t.id]["decisions_so_far"]], [0, *at_end[t.id]["cumulative_regret"]])
              for t in nets if (t.params["epsilon"] == 0) == greedy]
        assert v[learner] == pytest.approx(np.mean(at)) and v[f"{learner}_low"] == pytest.approx(min(at))
