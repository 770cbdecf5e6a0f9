"""Chapter 11's searching solver beside the one-step solver and the published solvers (sweeper/viz/figures/ceiling.py)
on hand-made stored runs, the published figures it reads, and the numbers it states from the committed runs."""

import numpy as np
import pandas as pd
import pytest

from sweeper.experiments import paper
from sweeper.experiments.reproduce import store_for
from sweeper.experiments.runner import Output, Task
from sweeper.experiments.specs import BOOK_EXTRAS, all_tasks
from sweeper.experiments.stats import mcnemar_exact, wilson
from sweeper.viz.figures import ceiling


def _run(agent, opening, won_by_level, regret=0.0, cpu=1.0):
    """One made run of ext:benchmark_search's kind: ``won_by_level`` maps a level to its boards' outcomes (0/1)."""
    scores, games = [], []
    for level, won in won_by_level.items():
        won = np.asarray(won, bool)
        scores.append({"level": level, "games": len(won), "wins": int(won.sum()), "win_rate": won.mean(),
                       "regret_games": 2, "regret_decisions": 20, "regret_per_decision": regret})
        games.append(pd.DataFrame({"level": level, "board": np.arange(len(won)), "won": won, "revealed": 0.5,
                                   "clicks": 10}))
    info = {"agent": agent, "kind": agent, "machine": {"cpu": "a CPU"},
            "test_cpu_seconds": {level: cpu * len(w) / 1000 for level, w in won_by_level.items()}}
    t = Task.make("benchmark", agent=agent, seed=0, test={"opening": opening, "levels": list(won_by_level)})
    return t, Output(tables={"scores": pd.DataFrame(scores), "games": pd.concat(games, ignore_index=True)},
                     info=info)


def _made(n=1000):
    """Expert-safe: the searching solver wins boards 0-419 (0.42), the one-step solver boards 20-399 (0.38): 40
    boards only search won, 0 only the one-step one. Beginner-safe: the same 800 boards each (no difference)."""
    b = np.arange(n)
    search = {"expert": b < 420, "beginner": b < 800}
    solver = {"expert": (b >= 20) & (b < 400), "beginner": b < 800}
    return ceiling.search_runs([_run("search", "safe", search, regret=0.0002, cpu=4.0),
                                _run("solver", "safe", solver, cpu=0.5)])


def test_paired_compares_the_two_solvers_board_by_board():
    p = ceiling.paired(_made()).set_index("suite")
    assert list(p.index) == ["beginner-safe", "expert-safe"]  # levels, then openings, in the suites' order
    e = p.loc["expert-safe"]
    assert (e["search_rate"], e["solver_rate"], e["boards"]) == (0.42, 0.38, 1000)
    assert (e["search_low"], e["search_high"]) == pytest.approx(wilson(420, 1000))
    assert e["difference"] == pytest.approx(0.04) and (e["only_search"], e["only_solver"]) == (40, 0)
    assert e["mcnemar_p"] == pytest.approx(mcnemar_exact(40, 0)) and e["low"] > 0 and e["verdict"] == "more than"
    assert (e["search_ms"], e["solver_ms"]) == pytest.approx((4.0, 0.5))
    assert p.loc["beginner-safe", "difference"] == 0 and p.loc["beginner-safe", "mcnemar_p"] == 1.0
    t = ceiling.paired_table(p.reset_index())
    assert t.loc["expert-safe", "search [95%]"].startswith("0.4200 [")
    assert t.loc["expert-safe", "only one won"] == "40 / 0"
    assert t.loc["expert-safe", "ms/game"] == "0.50 / 4.00"
    assert "0 on every suite" in ceiling.paired_caption(p.reset_index())


def test_paired_refuses_runs_on_different_boards():
    runs = _made()
    g = runs["games"]
    runs["games"] = g[~((g["agent"] == "solver") & (g["board"] == 5))]
    with pytest.raises(ValueError, match="different boards"):
        ceiling.paired(runs)


def _published(rows):
    base = {"setting": "", "rule": "a rule", "match": "same rules", "games": None, "cpu_ms_per_game": None,
            "suite": "expert-safe", "source": "somewhere"}
    return pd.DataFrame([{**base, **r} for r in rows])


def test_a_published_figure_is_ahead_behind_or_cannot_be_told_apart_by_the_interval():
    runs = _made()
    pub = _published([{"solver": "low", "win_rate": 0.30}, {"solver": "near", "win_rate": 0.41},
                      {"solver": "high", "win_rate": 0.50, "games": 10**7},
                      {"solver": "other", "win_rate": 0.60, "match": "first click differs", "rule": "at (3,3)"},
                      {"solver": "elsewhere", "win_rate": 0.5, "suite": "intermediate-safe"}])
    b = ceiling.beside_published(runs, pub).set_index("solver")
    assert "elsewhere" not in b.index  # no run of that suite
    assert b.loc["low", "search_word"] == "ahead of" and b.loc["near", "search_word"] == "cannot be told apart from"
    assert b.loc["high", "search_word"] == "behind" and b.loc["high", "solver_word"] == "behind"
    assert b.loc["low", "solver_word"] == "ahead of"
    lo, hi = wilson(420, 1000)  # no games stated: our interval less the published value
    assert (b.loc["near", "search_low"], b.loc["near", "search_high"]) == pytest.approx((lo - 0.41, hi - 0.41))
    p = ceiling.paired(runs)
    text = ceiling.ceiling_sentences(p, b.reset_index())
    assert len(text) == 1 and text[0].startswith("On **expert-safe** (first click (0,0), never a mine; the rule of "
                                                 "low, near and high)")
    assert "the searching solver is ahead of low (0.3000), cannot be told apart from near (0.4100) and is behind " \
           "high (0.5000)" in text[0]
    assert "other's 0.6000 is not under our rule (at (3,3); our suite clicks the corner)" in text[0]
    assert "+4.00 [" in text[0] and "0.4200 [" in text[0]
    table = ceiling.published_table(b.reset_index())
    assert list(table.index) == ["low", "near", "high", "other"]
    assert table.loc["high", "games"] == "10,000,000" and table.loc["low", "games"] == "not stated"


def test_sentences_state_what_the_paired_intervals_show():
    p = ceiling.paired(_made())
    s = ceiling.paired_sentence(p)
    assert "on 1 of the 2 suites" in s and "by 4.00 to 4.00 points" in s
    assert "on beginner-safe the interval contains 0" in s and "8.0 to 8.0 times" in s
    o = ceiling.oracle_sentence(p)
    assert "regret 0 by construction (its stored runs: 0 on every suite)" in o
    assert "0.00020 per click on the first boards of the expert suites" in o and "wins 4.00 to 4.00 points more games" in o


def test_published_solver_figures_are_the_issues_with_their_rules_and_sources():
    d = paper.published_solver_figures()
    assert list(d["solver"]) == ["minesolve"] * 4 + ["JSMinesweeper"] * 2
    ms = d[d["solver"] == "minesolve"]
    assert list(ms["win_rate"]) == [0.39, 0.4027, 0.4068, 0.408]
    assert list(ms["games"]) == [10**7, 10**7, 10**6, 10**6]
    assert ms["cpu_ms_per_game"].iloc[0] == 2.2 and ms["cpu_ms_per_game"].iloc[3] == 830
    assert (ms["opening"] == "").all() and (ms["compare_with"] == "expert-safe").all()
    js = d[d["solver"] == "JSMinesweeper"].set_index("setting")
    assert js.loc["classic expert", ["win_rate", "opening", "first_click", "compare_with"]].tolist() == \
        [0.41, "safe", "corner", "expert-safe"]
    assert js.loc["modern expert", ["win_rate", "opening", "first_click", "compare_with"]].tolist() == \
        [0.543, "zero", "(3,3)", "expert-zero"]
    assert (d["board"] == "16x30x99").all() and d["source"].str.len().gt(0).all()
    assert js["source"].eq("github.com/DavidNHill/JSMinesweeper").all()
    f = ceiling.published_figures().set_index(["solver", "suite"])
    assert f.loc[("PSEQ", "expert-safe"), "win_rate"] == paper.published_solver_rate("16x30x99", "safe")
    assert f.loc[("PSEQ", "expert-zero"), "win_rate"] == paper.published_solver_rate("16x30x99", "zero")


def test_the_book_runs_the_searching_solver():
    assert "ext:benchmark_search" in BOOK_EXTRAS


def test_the_chapter_states_the_stored_numbers(monkeypatch):
    monkeypatch.setenv("SWEEPER_SCALE", "paper")  # the committed paper-scale runs
    runs = ceiling.search_runs()
    p = ceiling.paired(runs).set_index("suite")
    st = store_for(None, "paper")
    for t in all_tasks(["ext:benchmark_search"], "paper"):
        out = st.load(t)
        agent, opening = out.info["agent"], t.params["test"]["opening"]
        for _, r in out.tables["scores"].iterrows():
            row = p.loc[f"{r['level']}-{opening}"]
            assert row[f"{agent}_rate"] == r["win_rate"] and row["boards"] == r["games"] == 10_000
            assert (row[f"{agent}_low"], row[f"{agent}_high"]) == pytest.approx((r["win_low"], r["win_high"]))
            assert row[f"{agent}_ms"] == pytest.approx(1000 * out.info["test_cpu_seconds"][r["level"]] / r["games"])
    e = p.loc["expert-safe"]
    assert (round(e["search_rate"], 4), round(e["solver_rate"], 4)) == (0.4048, 0.3875)
    b = ceiling.beside_published(runs)
    text = " ".join(ceiling.ceiling_sentences(p.reset_index(), b))
    assert "the searching solver wins 0.4048 [0.3952, 0.4145] of 10,000 boards, the one-step solver 0.3875 " in text
    assert "the searching solver is ahead of minesolve at depth 1 (0.3900) and cannot be told apart from minesolve " \
           "at depths 2, 3 and 4 (0.4027, 0.4068, 0.4080), JSMinesweeper classic expert (0.4100)" in text
    assert "JSMinesweeper modern expert's 0.5430 is not under our rule" in text
    assert "**expert-reference** has no published counterpart" in text
    assert "regret 0 by construction" in ceiling.oracle_sentence(p.reset_index())


def test_the_captions_say_what_the_columns_hold():
    p = ceiling.paired(_made())
    assert "(1,000 boards per suite)" in ceiling.paired_caption(p)
    pub = _published([{"solver": "A", "win_rate": 0.3, "source": "here"}, {"solver": "B", "win_rate": 0.4},
                      {"solver": "A", "setting": "again", "win_rate": 0.3, "source": "here",
                       "match": "rule not stated"}])
    b = ceiling.beside_published(_made(), pub)
    assert ceiling.published_caption(b).endswith("Sources: A: here; B: somewhere.*")
    assert list(ceiling.published_table(b)["beside"]) == ["expert-safe", "expert-safe", "expert-safe (rule not stated)"]


def _fresh_run(agent, seed, won):
    """One made run of ext:benchmark_search_fresh's kind: the outcomes of one seed's fresh expert-safe boards."""
    won = np.asarray(won, bool)
    games = pd.DataFrame({"level": "expert", "board": np.arange(len(won)), "won": won, "revealed": 0.5, "clicks": 10,
                          "regret_decisions": 0, "regret": 0.0})
    t = Task.make("benchmark", agent=agent, seed=0, test={"opening": "safe", "levels": ["expert"], "fresh": seed})
    return t, Output(tables={"games": games}, info={"agent": agent})


def test_fresh_boards_are_pooled_over_seeds_and_paired_board_by_board():
    """Two seeds of 1,000 boards: the searching solver wins boards 0-409 of each (0.41), the one-step solver 0-379
    of seed 1 and 0-389 of seed 2: 30 + 20 boards only search won; the made suite (0.42 on 1,000) beside them."""
    b = np.arange(1000)
    fresh = ceiling.fresh_runs([_fresh_run("search", 1, b < 410), _fresh_run("solver", 1, b < 380),
                                _fresh_run("search", 2, b < 410), _fresh_run("solver", 2, b < 390)])
    v = ceiling.fresh_values(fresh, _made())
    assert (v["boards"], v["seeds"], v["per_seed"]) == (2000, 2, 1000)
    assert v["search"] == pytest.approx(0.41) and v["solver"] == pytest.approx(0.385)
    assert (v["search_low"], v["search_high"]) == pytest.approx(wilson(820, 2000))
    assert (v["only_search"], v["only_solver"]) == (50, 0) and v["diff"] == pytest.approx(0.025)
    assert v["p"] == pytest.approx(mcnemar_exact(50, 0)) and v["diff_low"] > 0
    assert v["suite"] == pytest.approx(0.42) and v["suite_games"] == 1000 and v["suite_word"] == "cannot be told apart from"
    assert v["minesolve"] == pytest.approx(0.408) and v["minesolve_games"] == 1_000_000 and v["jsm_games"] == 0
    assert v["minesolve_word"] == "cannot be told apart from" and v["minesolve_diff"] == pytest.approx(0.002)
    assert v["minesolve_verdict"] == "cannot be told apart from" and ceiling.VERDICT["ahead of"] == "is ahead of"
    table = ceiling.fresh_table(fresh)
    assert list(table.index) == [1, 2] and table.loc[2, "search − one-step"] == "+0.0200"


def test_the_chapter_states_the_fresh_boards_stored_numbers(monkeypatch):
    """The committed runs of ext:benchmark_search_fresh: 12 seeds of 5,000 boards, both players on the same boards."""
    monkeypatch.setenv("SWEEPER_SCALE", "paper")
    st = store_for(None, "paper")
    tasks = all_tasks(["ext:benchmark_search_fresh"], "paper")
    if any(st.status(t) != "ok" for t in tasks):
        pytest.skip("the runs of ext:benchmark_search_fresh are not stored")
    wins = {"search": 0, "solver": 0}
    for t in tasks:
        out = st.load(t)
        assert len(out.tables["games"]) == 5_000 and t.params["test"]["opening"] == "safe"
        wins[out.info["agent"]] += int(out.tables["games"]["won"].sum())
    v = ceiling.fresh_values(ceiling.fresh_runs(), ceiling.search_runs())
    assert v["boards"] == 60_000 and v["search"] == wins["search"] / 60_000 and v["solver"] == wins["solver"] / 60_000
    assert "ext:benchmark_search_fresh" in BOOK_EXTRAS


def test_each_wide_table_is_two_parts_that_together_hold_every_column():
    p = ceiling.paired(_made()).reset_index()
    whole = ceiling.paired_table(p)
    parts = [ceiling.paired_table(p, k) for k in ceiling.PAIRED_PARTS]
    assert [c for t in parts for c in t.columns] == list(whole.columns)
    b = ceiling.beside_published(_made())
    whole = ceiling.published_table(b)
    assert sorted(c for k in ceiling.PUBLISHED_PARTS for c in ceiling.published_table(b, k).columns) == \
        sorted(whole.columns)
    with pytest.raises(ValueError, match="part must be one of"):
        ceiling.paired_table(p, "all")

