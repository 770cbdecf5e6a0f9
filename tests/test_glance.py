import math

import pandas as pd
import pytest

from sweeper.viz import glance


def test_paper_numbering_follows_the_pdf():
    assert glance.paper_ref("fig:exp_1") == "Fig. 7 (fig:exp_1)"
    assert glance.paper_ref("fig:exp_4") == "Fig. 10 (fig:exp_4)"
    assert glance.paper_ref("tab:SAvsMAB") == "Table II (tab:SAvsMAB)"
    assert glance.paper_section("subsec:inires") == "Section V-A"
    assert glance.paper_section("subsec:msvsmab", title=True) == "Section IV-B, Distinctions From Standard MAB"
    figs = [v for v in glance.PAPER_FLOATS.values() if v.startswith("Fig.")]
    assert sorted(int(v.split()[1]) for v in figs) == list(range(1, 13))
    with pytest.raises(ValueError, match="unknown figure"):
        glance.paper_ref("fig:nope")
    with pytest.raises(ValueError, match="unknown section"):
        glance.paper_section("3.2")


def test_compare_calls_a_difference_real_only_with_disjoint_intervals():
    assert glance.order((0.5, 0.49, 0.51), (0.4, 0.39, 0.41)) == 1
    assert glance.order((0.4, 0.39, 0.41), (0.5, 0.49, 0.51)) == -1
    assert glance.order((0.5, 0.45, 0.55), (0.52, 0.50, 0.54)) == 0
    s = glance.compare("A", (0.5, 0.49, 0.51), "B", (0.4, 0.39, 0.41))
    assert "A (0.5000 [0.4900, 0.5100]) is above B" in s and "10.00 points" in s
    assert "cannot be told apart" in glance.compare("A", (0.5, 0.45, 0.55), "B", (0.52, 0.5, 0.54))
    with pytest.raises(ValueError, match="does not contain"):
        glance.order((0.6, 0.4, 0.5), (0.5, 0.4, 0.6))
    with pytest.raises(ValueError, match="must be numbers"):
        glance.order((math.nan, 0.4, 0.5), (0.5, 0.4, 0.6))


def test_gap_words():
    assert glance.gap_words((0.46, 0.45, 0.47), 0.528).startswith("6.8 points below")
    assert glance.gap_words((0.81, 0.80, 0.82), 0.816).startswith("inside our interval")


def test_agent_names_have_one_spelling():
    assert glance.agent_name("ucb(c=0.1)") == "ucb:0.1"
    assert glance.agent_name("ucb(c=0.1)+noflags") == "ucb:0.1+noflags"
    assert glance.agent_name("egreedy(e=0.01)") == "egreedy:0.01"
    assert glance.agent_name("greedy+nosym") == "greedy+nosym"
    with pytest.raises(ValueError):
        glance.agent_name("")


def _rows():
    base = dict(train_setting="8x8x10", train_episodes=1_000_000, eval_setting="training", paper_source="Table exp_1")
    return pd.DataFrame([
        dict(base, experiment="initial", agent="greedy", metric="win_rate", ours=0.70, ci_low=0.699, ci_high=0.701,
             paper=0.7025),
        dict(base, experiment="initial", agent="greedy", metric="win_rate_frozen", ours=0.70, ci_low=0.699,
             ci_high=0.701, paper=0.7025),
        dict(base, experiment="action_counts", agent="greedy", metric="mean_count_all", ours=300.0, ci_low=None,
             ci_high=None, paper=306.0, paper_source="Table action_cnt"),
        dict(base, experiment="timing", agent="greedy", metric="wall_hours", ours=0.03, ci_low=None, ci_high=None,
             paper=14.0, paper_source="Conclusion (i7)"),
    ])


def _no_flags():
    """The two readings of the paper's no-flags agents, as figures.readings() gives them."""
    return pd.DataFrame({"agent": ["greedy", "ucb:0.1", "greedy", "ucb:0.1"],
                         "reading": ["never flags", "never flags", "flags as private marks (Fig. 10 here)",
                                     "flags as private marks (Fig. 10 here)"],
                         "win_rate": [0.1155, 0.30, 0.40, 0.10], "ci_low": [0.1148, 0.29, 0.39, 0.09],
                         "ci_high": [0.1161, 0.31, 0.41, 0.11], "games": [10**6] * 4})


def test_verdicts_follow_the_stated_rule():
    t = glance.verdicts(_rows(), seed_sd=0.001, no_flags=_no_flags())
    # the no-flags bound is judged on the agents that never flag (the book's one reading), not on private marks
    assert list(t["verdict"]) == ["reproduced", "differs", "not comparable", "reproduced", "differs"]
    assert t["paper's source"].iloc[0] == "Table III (tab:exp_1)"
    assert t["paper's source"].iloc[2] == "Section VI, Conclusion"
    assert t["agent"].iloc[4] == "ucb:0.1, never flags" and t["paper"].iloc[4] == "< 0.12"
    assert t["tested on"].iloc[0] == "(training)" and t["games"].iloc[0] == "1,000,000"
    # with no seed tolerance the paper's 0.7025 falls outside [0.699, 0.701]
    assert glance.verdicts(_rows(), seed_sd=0.0, no_flags=_no_flags())["verdict"].iloc[0] == "differs"
    counts = glance.verdict_counts(t)
    assert counts.to_dict() == {"reproduced": 2, "differs": 2, "not produced by its code": 0, "not comparable": 1}
    shown = glance.linked(t)
    assert '<a href="06_first_experiments.html">' in shown["chapter"].iloc[0]
    assert list(shown.columns[:4]) == ["number", "paper", "ours [95% interval]", "verdict"]
    assert shown["number"].iloc[0] == "greedy, 8x8x10 (1,000,000 games): win rate"


def test_verdicts_reject_bad_input():
    with pytest.raises(ValueError, match="lacks columns"):
        glance.verdicts(pd.DataFrame({"x": [1]}), 0.001, _no_flags())
    with pytest.raises(ValueError, match="seed_sd"):
        glance.verdicts(_rows(), -1.0, _no_flags())


def test_reading_verdicts_judge_the_other_readings_by_the_same_rule():
    nf = _no_flags()
    sa = pd.DataFrame([{"board": "4x4x5", "games": 10**6, "flags hidden: win rate": 0.411, "flags hidden: low": 0.410,
                        "flags hidden: high": 0.412, "paper: win rate": 0.4137},
                       {"board": "4x4x5", "games": 10**5, "flags hidden: win rate": 0.289, "flags hidden: low": 0.286,
                        "flags hidden: high": 0.292, "paper: win rate": float("nan")}])
    t = glance.reading_verdicts(nf, sa, seed_sd=0.001)
    # the other reading of the no-flags agents (private marks), then Table II's: the NaN row is left out
    assert list(t["verdict"]) == ["differs", "reproduced", "reproduced"]  # 0.4137 <= 0.412 + 0.002
    assert t["number"].iloc[0].startswith("greedy with flags as private marks")
    assert glance.reading_verdicts(nf, sa, seed_sd=0.0)["verdict"].tolist() == ["differs", "reproduced", "differs"]
    with pytest.raises(ValueError, match="seed_sd"):
        glance.reading_verdicts(nf, sa, seed_sd=-1)


def _table2_rows():
    """Table II's bandit column for one board: our agent with symmetries, and the same paper numbers compared with
    our agent without them (both rows as comparison.csv has them)."""
    base = dict(experiment="sa_vs_mab", train_setting="4x4x4", train_episodes=100_000, eval_setting="training",
                paper_source="Table SAvsMAB")
    return pd.DataFrame([
        dict(base, agent="mab-greedy", metric="win_rate", ours=0.7428, ci_low=0.7401, ci_high=0.7455, paper=0.68),
        dict(base, agent="mab-greedy", metric="actions_recorded", ours=13025.0, ci_low=None, ci_high=None,
             paper=66573.0),
        dict(base, agent="mab-greedy+nosym", metric="win_rate", ours=0.6797, ci_low=0.6768, ci_high=0.6826,
             paper=0.68),
    ])


def _code(win=0.7415, low=0.7388, high=0.7442, actions=13086.0):
    at = dict(experiment="sa_vs_mab", train_setting="4x4x4", train_episodes=100_000)
    return pd.DataFrame([dict(at, metric="win_rate", value=win, ci_low=low, ci_high=high),
                         dict(at, metric="actions_recorded", value=actions, ci_low=float("nan"),
                              ci_high=float("nan"))])


def test_a_number_the_papers_own_code_does_not_give_has_its_own_verdict():
    without = glance.verdicts(_table2_rows(), 0.001, _no_flags())
    assert list(without["verdict"][:3]) == ["differs", "differs", "reproduced"]
    t = glance.verdicts(_table2_rows(), 0.001, _no_flags(), paper_code=_code())
    # the paper's numbers in the row of our agent in the code's configuration; the no-symmetry row keeps its verdict
    assert list(t["verdict"][:3]) == ["not produced by its code", "not produced by its code", "reproduced"]
    assert "the paper's code: 0.7415 [0.7388, 0.7442]" in t["ours [95% interval]"].iloc[0]
    assert t["ours [95% interval]"].iloc[1] == "13,025; the paper's code: 13,086"
    assert glance.verdict_counts(t)["not produced by its code"] == 2
    # where the code gives the paper's number (by the same rule), the usual verdict stands
    same = glance.verdicts(_table2_rows(), 0.001, _no_flags(), paper_code=_code(0.681, 0.679, 0.683, 66600.0))
    assert list(same["verdict"][:2]) == ["differs", "differs"]
    with pytest.raises(ValueError, match="unknown experiments"):
        glance.verdicts(_table2_rows(), 0.001, _no_flags(), paper_code=_code().assign(experiment="transfer"))
    with pytest.raises(ValueError, match="lacks columns"):
        glance.verdicts(_table2_rows(), 0.001, _no_flags(), paper_code=_code().drop(columns="value"))
