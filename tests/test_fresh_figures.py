"""The leaderboard's fresh boards (sweeper/viz/figures/fresh.py) on hand-made stored runs, and the fresh runs' task
(ext:benchmark_fresh) at quick scale."""

import numpy as np
import pandas as pd
import pytest

from sweeper.experiments import specs as ex
from sweeper.experiments.leaderboard import FRESH_SEED, STORED_PPO, fresh_tasks
from sweeper.experiments.runner import Task, execute
from sweeper.viz.figures import benchmark as bf, fresh as ff

from made_benchmark import bench_output, made_bench


def _fresh(agent, seed, wins, regret=0.01, boards=50):
    """A fresh run on beginner only: ``wins`` of ``boards`` boards won, each of the first 20 with ``regret`` over 10
    scored clicks."""
    t, out = bench_output(agent, seed, "solver" if agent in ("solver", "random") else "table",
                          {"beginner": wins}, boards=(boards, 1, 1),
                          train_board="" if agent in ("solver", "random") else "8x8x10")
    g = out.tables["games"]
    g = g[g["level"] == "beginner"].copy()
    k = 20
    g["regret_decisions"] = pd.array([10] * k + [None] * (boards - k), dtype="Int64")
    g["regret"] = pd.array([regret * 10 * (1 + (i % 2)) for i in range(k)] + [None] * (boards - k), dtype="Float64")
    s = out.tables["scores"]
    out.tables.update(games=g, scores=s[s["level"] == "beginner"].assign(fresh_seed=FRESH_SEED))
    return t, out


def _public():
    outs = [bench_output("solver", 0, "solver", {"beginner": 88}),
            *(bench_output("greedy", s, "table", {"beginner": w}, train_board="8x8x10")
              for s, w in ((1, 73), (2, 74), (3, 75)))]
    return bf.benchmark_runs(outs)


def test_a_public_score_far_above_the_fresh_one_is_flagged_and_an_honest_one_is_not():
    # the first 50 public boards: the solver wins all 50 (88 of 100: the first 88 won), greedy 50 of 50 per seed
    fresh = bf.benchmark_runs([_fresh("solver", 0, 47),
                               *(_fresh("greedy", s, w) for s, w in ((1, 20), (2, 22), (3, 21)))])
    c = ff.fresh_comparison(_public(), fresh).set_index("agent")
    assert c.loc["exact solver", "public"] == 1.0 and c.loc["exact solver", "fresh"] == pytest.approx(0.94)
    solver = c.loc["exact solver"]
    assert solver["seeds"] == 1 and solver["diff_lo"] < ff.FLAG_MARGIN and not solver["flagged"]
    greedy = c.loc["greedy table"]
    assert greedy["seeds"] == 3 and greedy["difference"] == pytest.approx(1 - 21 / 50)
    assert greedy["flagged"] and greedy["diff_lo"] > ff.FLAG_MARGIN
    table = ff.fresh_table(c.reset_index(), "beginner")
    assert table.loc["greedy table", "flag"] == "public far above" and table.loc["exact solver", "flag"] == ""
    text = ff.fresh_sentence(c.reset_index())
    assert "Flagged, the public rate far above the fresh one: greedy table on beginner (1.000 against 0.420)" in text
    assert f"seed {FRESH_SEED}" in text and "2 entries" in text


def test_seeds_that_win_the_same_boards_leave_the_boards_noise_in_the_interval():
    """Three seeds that win the same boards differ by the same amount on each seed: a t-interval over the seeds'
    differences would be [d, d]; the boards they share are what varies, so the interval keeps their noise."""
    public = bf.benchmark_runs([bench_output("greedy", s, "table", {"beginner": 60}, train_board="8x8x10")
                                for s in (1, 2, 3)])
    fresh = bf.benchmark_runs([_fresh("greedy", s, 25, boards=100) for s in (1, 2, 3)])
    g = ff.fresh_comparison(public, fresh).set_index("agent").loc["greedy table"]
    assert g["difference"] == pytest.approx(0.35)
    from sweeper.experiments.stats import difference_interval
    _, lo, hi = difference_interval(60, 100, 25, 100)  # one seed's boards, Newcombe
    assert g["diff_hi"] - g["diff_lo"] == pytest.approx(hi - lo, rel=0.15)


def test_an_entry_that_wins_nothing_still_has_an_interval():
    public = bf.benchmark_runs([bench_output("random", 0, "solver", {"beginner": 0})])
    c = ff.fresh_comparison(public, bf.benchmark_runs([_fresh("random", 0, 0)])).iloc[0]
    assert c["difference"] == 0 and c["diff_lo"] < 0 < c["diff_hi"] and not c["flagged"]


def test_the_regret_interval_is_over_the_boards_with_the_seeds_summed():
    fresh = bf.benchmark_runs([_fresh("solver", 0, 44, regret=0.0),
                               *(_fresh("greedy", s, 25, regret=r) for s, r in ((1, 0.01), (2, 0.02), (3, 0.03)))])
    c = ff.fresh_comparison(_public(), fresh).set_index("agent")
    assert (c.loc["exact solver", ["regret", "regret_lo", "regret_hi"]] == 0).all()
    g = c.loc["greedy table"]
    assert g["regret"] == pytest.approx(0.03) and 0 <= g["regret_lo"] < 0.03 < g["regret_hi"]
    assert g["regret_boards"] == 20


def test_no_fresh_run_says_how_to_make_them():
    empty = ff.fresh_comparison(_public(), ff.fresh_frames([]))
    assert empty.empty and ff.SPEC in ff.fresh_sentence(empty)
    assert "2 of the spec's 5 runs are not stored" in ff.fresh_caption(empty, 3, 5)


def test_fresh_tasks_keep_the_agent_and_its_training_and_read_a_ppo_policy_from_its_run():
    tasks = ex.all_tasks(["ext:benchmark"], "paper")
    ppo = [Task.make("benchmark", agent="ppo:tiles", seed=1, test=tasks[0].params["test"],
                     train={"board": "8x8x10", "steps": 100}, label="ppo", cost=10.0)]
    fresh = fresh_tasks(ex.SCALES["paper"], tasks + ppo)
    assert len(fresh) == len(tasks) + 1 and len({t.id for t in fresh} & {t.id for t in tasks}) == 0
    for old, new in zip(tasks, fresh):
        p, q = old.params, new.params
        assert (q["agent"], q["seed"], q.get("train")) == (p["agent"], p["seed"], p.get("train"))
        assert q["test"]["fresh"] == FRESH_SEED and q["test"]["games"] == [1000, 1000, 1000]
        assert q["test"]["regret_games"] == p["test"]["regret_games"]
    assert fresh[-1].params["agent"] == f"{STORED_PPO}benchmark/{ppo[0].id}" and "train" not in fresh[-1].params


def test_a_fresh_run_plays_the_fresh_boards_and_keeps_each_boards_regret():
    t = ex.all_tasks(["ext:benchmark_fresh"], "quick")[0]
    assert t.params["agent"] == "solver"
    out, _ = execute(t)
    g = out.tables["games"]
    assert list(g.columns) == ["level", "board", "won", "revealed", "clicks", "regret_decisions", "regret"]
    assert (out.tables["scores"]["fresh_seed"] == FRESH_SEED).all()
    assert g["regret_decisions"].notna().sum() == sum(t.params["test"]["regret_games"])
    assert (g.loc[g["regret"].notna(), "regret"] == 0).all()  # the solver is the regret's oracle
    from sweeper.experiments.benchmark import score
    s = score("solver", "beginner", games=len(g[g["level"] == "beginner"]), regret_games=0, fresh=FRESH_SEED)
    assert np.array_equal(s.games["won"].to_numpy(bool), g.loc[g["level"] == "beginner", "won"].to_numpy(bool))


def test_a_stored_ppo_run_that_is_missing_is_a_clear_error():
    from sweeper.experiments.leaderboard import _trained
    with pytest.raises(ValueError, match="no stored run benchmark/0000000000000000 with a file policy.npz"):
        _trained(f"{STORED_PPO}benchmark/0000000000000000", 1, {})


def test_the_oracle_note_reads_the_solvers_rows():
    runs = made_bench(networks=False)
    text = ff.oracle_note(runs)
    assert "it still loses 12 of the 100 beginner boards (12.0%)" in text  # the made solver wins 88 of 100
    assert "searching solver" not in text  # no such entry among the made runs
    assert "scored on the first 20 / 20 / 20 boards of the beginner / intermediate / expert suites" in text


def test_the_solvers_gaps_are_the_yardstick_of_the_board_sets():
    fresh = bf.benchmark_runs([_fresh("solver", 0, 47), *(_fresh("greedy", s, 45) for s in (1, 2, 3))])
    c = ff.fresh_comparison(_public(), fresh)
    text = ff.fresh_sentence(c)
    assert "public − fresh is +0.060 on beginner for the exact solver" in text  # 50 of 50 public, 47 fresh
    assert "greedy" not in text.split("Players that learn")[1]
    assert "Players that learn" not in ff.fresh_sentence(c[c["agent"] != "exact solver"])
