"""The regret chapter's tables and sentences (sweeper/viz/regret_figures.py) on hand-made runs."""

import numpy as np
import pandas as pd
import pytest

from sweeper.viz import regret_figures as rf


def _run(agent, board, seed, episodes, per_decision, decisions_per_game, sure_share=0.9, flags_share=0.2):
    """A run's running totals at a thousandth, a hundredth, a tenth and (if it got there) all of the length."""
    long, short = rf.lengths()
    marks = [m for m in (long // 1000, long // 100, short, long) if m <= episodes]
    rows = []
    for g in marks:
        d = g * decisions_per_game
        reg = per_decision * d
        rows.append({"games": g, "wins": g // 2, "decisions": d, "sure_decisions": int(0.8 * d), "flags": d // 10,
                     "regret": reg, "regret_sure": sure_share * reg, "regret_guess": (1 - sure_share) * reg,
                     "regret_flags": flags_share * reg, "actions_recorded": 3 * g,
                     "regret_per_decision": per_decision, "agent": agent, "board": board, "seed": seed,
                     "episodes": episodes})
    return rows


@pytest.fixture
def runs():
    long, short = rf.lengths()
    rows = []
    for seed in (1, 2):
        n = long if seed == 1 else short
        rows += _run("greedy", "8x8x10", seed, n, 0.03 + 0.002 * seed, 20)
        rows += _run("ucb:0.1", "8x8x10", seed, n, 0.10 + 0.002 * seed, 4, sure_share=0.95)
        rows += _run("ucb:0.1", "16x16x40", seed, short, 0.08, 10)
    return pd.DataFrame(rows)


def test_at_games_gives_mean_and_range_over_the_runs(runs):
    long, short = rf.lengths()
    t = rf.at_games((short, long), r=runs, agents=("greedy", "ucb:0.1"))
    g = t[(t["agent"] == "greedy") & (t["games"] == short)].iloc[0]
    assert g["runs"] == 2 and g["low"] == pytest.approx(0.032 * 20 * short)
    assert g["high"] == pytest.approx(0.034 * 20 * short) and g["per decision"] == pytest.approx(0.033)
    assert t[(t["agent"] == "greedy") & (t["games"] == long)].iloc[0]["runs"] == 1


def test_split_divides_each_part_by_its_decisions(runs):
    s = rf.split(r=runs, agents=("greedy", "ucb:0.1")).set_index("agent")
    assert s.loc["greedy", "share on sure decisions"] == pytest.approx(0.9)
    assert s.loc["UCB (c = 0.1)", "share on sure decisions"] == pytest.approx(0.95)
    assert s.loc["greedy", "sure decisions"] == pytest.approx(0.8, abs=1e-3)


def test_findings_say_what_the_tables_show(runs):
    f = rf.findings(r=runs)
    _, short = rf.lengths()
    # greedy has the lower regret per decision, UCB (4 decisions a game) the lower cumulative regret
    assert "from 0.033 (greedy) to 0.103 (UCB (c = 0.1))" in f["ranking"]
    assert "UCB (c = 0.1) has the least" in f["ranking"] and "4.0 decisions per game against 20.0" in f["ranking"]
    assert "90% to 95%" in f["split"]
    # seed 1's greedy run has the same regret per decision in every stretch: the sentence must not say "falls"
    assert f["growth"].startswith("Greedy's regret per decision stays at 0.032")
    assert "keeps rising" in f["growth"]


def test_bands_thin_to_log_spaced_points_and_name_their_seeds(runs):
    b = rf.bands(r=runs, agents=("greedy",), points=3)
    long, short = rf.lengths()
    assert b["games"].max() == long and b["games"].is_monotonic_increasing
    assert (b.loc[b["games"] <= short, "seeds"] == 2).all() and (b.loc[b["games"] > short, "seeds"] == 1).all()
    assert len(b) <= 4


def test_boards_compared_keeps_both_boards(runs):
    t = rf.boards_compared(r=runs, agents=("ucb:0.1",))
    assert set(t["board"]) == {"8x8x10", "16x16x40"}
    assert np.allclose(t.set_index("board").loc["16x16x40", "regret per decision"], 0.08)
