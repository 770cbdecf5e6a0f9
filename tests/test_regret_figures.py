"""The regret chapter's tables and sentences (sweeper/viz/figures/regret.py) on hand-made runs."""

import numpy as np
import pandas as pd
import pytest

from sweeper.viz import regret_charts as rc
from sweeper.viz.figures import regret as rf


def _run(agent, board, seed, episodes, per_decision, decisions_per_game, sure_share=0.9, flags_share=0.2,
         gap_per_decision=0.01, sure_decisions=0.8, win_rate=0.5):
    """A run's running totals at a thousandth, a hundredth, a tenth and (if it got there) all of the length: a
    constant regret and gap per decision (so the learning regret per decision is constant too), each split between
    sure decisions and guesses in the share ``sure_share``."""
    long, short = rf.lengths()
    marks = [m for m in (long // 1000, long // 100, short, long) if m <= episodes]
    rows = []
    for g in marks:
        d = g * decisions_per_game
        reg = per_decision * d
        gap = gap_per_decision * d
        rows.append({"games": g, "wins": int(win_rate * g), "decisions": d, "sure_decisions": int(sure_decisions * d),
                     "flags": d // 10, "regret": reg, "regret_sure": sure_share * reg,
                     "regret_guess": (1 - sure_share) * reg, "regret_flags": flags_share * reg,
                     "gap": gap, "gap_sure": sure_share * gap, "gap_guess": (1 - sure_share) * gap,
                     "learning": reg - gap, "learning_sure": sure_share * (reg - gap),
                     "learning_guess": (1 - sure_share) * (reg - gap), "actions_recorded": 3 * g,
                     "regret_per_decision": per_decision, "gap_per_decision": gap_per_decision,
                     "learning_per_decision": per_decision - gap_per_decision,
                     "agent": agent, "board": board, "seed": seed, "episodes": episodes})
    return rows


@pytest.fixture
def runs():
    long, short = rf.lengths()
    rows = []
    for seed in (1, 2):
        n = long if seed == 1 else short
        rows += _run("greedy", "8x8x10", seed, n, 0.03 + 0.002 * seed, 20)
        rows += _run("ucb:0.1", "8x8x10", seed, n, 0.10 + 0.002 * seed, 4, sure_share=0.95)
        rows += _run("ucb:0.1", "16x16x40", seed, short, 0.08, 10, sure_decisions=0.9, win_rate=0.25)
    return pd.DataFrame(rows)


@pytest.fixture
def frozen_runs():
    return pd.DataFrame([{"agent": "greedy", "trained games": 1000, "test games": 100, "win rate": 0.7,
                          "regret per decision": 0.011, "gap per decision": 0.009, "learning per decision": 0.002}])


def test_at_games_gives_mean_and_range_over_the_runs(runs):
    long, short = rf.lengths()
    t = rf.at_games((short, long), r=runs, agents=("greedy", "ucb:0.1"))
    g = t[(t["agent"] == "greedy") & (t["games"] == short)].iloc[0]
    assert g["runs"] == 2 and g["low"] == pytest.approx(0.032 * 20 * short)
    assert g["high"] == pytest.approx(0.034 * 20 * short) and g["per decision"] == pytest.approx(0.033)
    assert t[(t["agent"] == "greedy") & (t["games"] == long)].iloc[0]["runs"] == 1


def test_split_gives_rates_per_decision_of_each_kind(runs):
    s = rf.split(r=runs, agents=("greedy", "ucb:0.1")).set_index("agent")
    # greedy: 0.033 per decision on average, 90% of it on the 80% of sure decisions
    assert s.loc["greedy", "regret per sure decision"] == pytest.approx(0.9 * 0.033 / 0.8, rel=1e-3)
    assert s.loc["greedy", "regret per guess"] == pytest.approx(0.1 * 0.033 / 0.2, rel=1e-3)
    assert s.loc["greedy", "gap per sure decision"] == pytest.approx(0.9 * 0.01 / 0.8, rel=1e-3)
    assert s.loc["greedy", "sure decisions"] == pytest.approx(0.8, abs=1e-3)


def test_findings_say_what_the_tables_show(runs, frozen_runs):
    f = rf.findings(r=runs, frozen_table=frozen_runs)
    # greedy has the lower regret per decision, UCB (4 decisions a game) the lower cumulative regret
    assert "from 0.0330 (greedy) to 0.1030 (UCB (c = 0.1))" in f["ranking"]
    assert "UCB (c = 0.1) has the least" in f["ranking"] and "4.0 decisions per game against 20.0" in f["ranking"]
    # the split compares rates: sure decisions cost less per decision here, so no claim that guesses cost more
    # is made unless every agent's rates show it
    assert "0.0371 to 0.1069" not in f["split"] and "in regret, and a guess" in f["split"]
    assert ("guesses cost every agent more" in f["split"]) == bool(
        (rf.split(r=runs)["regret per guess"] > rf.split(r=runs)["regret per sure decision"]).all())
    # seed 1's greedy run has the same learning regret per decision in every stretch: the sentence says "stays"
    assert f["growth"].startswith("Greedy's learning regret per decision stays at 0.0220 from games")
    assert "between 0.0100 and 0.0100" in f["growth"]
    # the frozen sentence quotes the frozen table and the last decade of training
    assert "0.0110 per decision over 100 test games" in f["frozen"] and "0.0090 of representation gap" in f["frozen"]
    # the glance sentence says over which games its rates are: the last decade here (no last-tenth block stored)
    long, short = rf.lengths()
    assert f["glance"].endswith(f"over games {short:,}-{long:,} of its {long:,} training games, a representation gap "
                                f"of 0.0100 per decision and a learning regret of 0.0220.")
    assert "no window agent can remove" not in f["glance"] and "by the end" not in f["glance"]


def test_the_glance_gives_the_last_tenth_of_training_as_its_end(runs, frozen_runs):
    long, short = rf.lengths()
    end = runs[(runs["agent"] == "greedy") & (runs["seed"] == 1) & (runs["games"] == long)].iloc[0]
    # the running totals at nine tenths of the run: the last tenth adds 1,000 decisions, 8 of gap, 5 of learning
    nine = end.copy()
    nine["games"], nine["decisions"] = long - long // 10, end["decisions"] - 1000
    nine["gap"], nine["learning"] = end["gap"] - 8, end["learning"] - 5
    f = rf.findings(r=pd.concat([runs, nine.to_frame().T], ignore_index=True), frozen_table=frozen_runs)
    assert f["glance"].endswith(f"a learning regret of 0.0220; over the last {long // 10:,} games (games "
                                f"{long - long // 10:,}-{long:,}), 0.0080 and 0.0050.")


def test_the_boards_paradox_is_explained_from_the_numbers(runs):
    f = rf.findings(r=runs, frozen_table=pd.DataFrame())
    # UCB on intermediate: 0.080 per decision (lower than 0.103 on beginner) but wins 0.25 against 0.5
    b = f["boards"]
    assert "UCB (c = 0.1) 0.1030 on beginner, 0.0800 on intermediate" in b
    assert "wins 0.250 of its intermediate games against 0.500 on beginner" in b
    assert "a game needs 10.0 decisions (beginner 4.0)" in b and "more often sure (90% offer" in b
    # both boards' runs carry the split: the sentence gives each part per decision on each board
    assert ("UCB (c = 0.1)'s representation gap 0.0100 on beginner and 0.0100 on intermediate, its learning regret "
            "0.0930 and 0.0700") in b
    # the regret per game adds up a game's decisions: it is not said to move with the win rate
    assert "moves with the win rate" not in b and "as many decisions as a game lasts" in b


def test_the_regret_per_game_is_no_stand_in_for_the_win_rate(runs):
    long, short = rf.lengths()
    # Thompson on intermediate: 0.0201 x 40 = 0.804 per game, about UCB's 0.08 x 10, but winning 0.6 against 0.25
    more = pd.DataFrame(_run("thompson", "16x16x40", 1, short, 0.0201, 40, win_rate=0.6))
    b = rf.findings(r=pd.concat([runs, more], ignore_index=True), frozen_table=pd.DataFrame())["boards"]
    assert ("on intermediate, UCB (c = 0.1) has 0.800 per game over 10.0 decisions and wins 0.250 of its games, "
            "Thompson 0.804 over 40.0 and wins 0.600.") in b
    assert "the regret per game does not stand in for the win rate" in b
    # a regret per game twice as large: the two are shown, nothing more is claimed
    more = pd.DataFrame(_run("thompson", "16x16x40", 1, short, 0.04, 40, win_rate=0.6))
    b = rf.findings(r=pd.concat([runs, more], ignore_index=True), frozen_table=pd.DataFrame())["boards"]
    assert "Thompson 1.600 over 40.0 and wins 0.600." in b and "does not stand in" not in b


def test_the_comparator_note_gives_the_convergence_and_no_bound():
    def note(gaps, learning):
        conv = pd.DataFrame({"parts": [2 ** i for i in range(len(gaps))], "games": [1000 * 2 ** i for i in
                             range(len(gaps))], "keys": 100, "gap_per_decision": gaps,
                             "learning_per_decision": learning, "unknown_share": 0.01})
        c = {"keys": 100, "decisions": 1000, "games": 10, "play": "hand-made", "candidates": 5000, "command": "x",
             "commit": "0123456789abc", "convergence": conv, "convergence_games": {"games": 50, "train": 500}}
        return rf.comparator_note(c)
    # as on intermediate: the gap still falls by about as much per doubling as the learning regret is
    text = note([0.0185, 0.0102, 0.0073, 0.0057, 0.0043], [-0.012, -0.0037, -0.0008, 0.0008, 0.0021])
    assert "by 0.00160 and 0.00140 per decision over the last two doublings" in text
    assert "went from -0.01200 (1 part) to 0.00210 (16 parts)" in text
    assert "these numbers do not say by how much" in text and "of the order of the last difference" not in text
    assert ("The split is not settled at this sample size: the last doubling alone moved 0.00140 per decision from "
            "one part to the other, against a learning regret of 0.00210.") in text
    # as on beginner: the last doubling moved a tenth of the learning regret; no verdict on the split
    text = note([0.0113, 0.0098, 0.0085, 0.0080], [0.0024, 0.0039, 0.0052, 0.0057])
    assert "still falling" in text and "not settled" not in text
    # a gap that no longer falls: nothing is said of it
    assert "still falling" not in note([0.0113, 0.0098, 0.0098], [0.002, 0.003, 0.003])


def test_growth_gives_decisions_per_game_and_parts_chart_takes_games(runs):
    g = rf.growth(r=runs, agents=("greedy",))
    assert np.allclose(g["decisions per game"], 20.0)
    gap, learning = rf.bands(r=runs, agents=("greedy",), column="gap"), rf.bands(r=runs, agents=("greedy",),
                                                                                    column="learning")
    spec = rc.parts_chart(gap, learning, x="games").to_dict()
    assert spec["hconcat"][0]["layer"][0]["encoding"]["x"]["field"] == "games"
    with pytest.raises(ValueError, match="x must be"):
        rc.parts_chart(gap, learning, x="tiles")


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


def test_the_regret_chapter_s_wide_tables_come_in_parts_that_hold_every_column():
    """05b's boards table and its leaderboard table are shown in two parts each (the book's text column is 676 px);
    the parts hold every column of the whole."""
    import pandas as pd
    from sweeper.viz.figures import benchmark as fb, regret as rf
    b = pd.DataFrame({"agent": ["greedy"], "board": ["8x8x10"], "seeds": [3], "win rate": [0.5],
                      "decisions per game": [20.0], "sure decisions": [0.9], "regret per decision": [0.02],
                      "regret per sure decision": [0.01], "regret per guess": [0.05], "regret per game": [0.4],
                      "learning per decision": [0.01], "gap per decision": [0.01]})
    whole = rf.boards_table(b)
    parts = [rf.boards_table(b, p) for p in rf.BOARDS_PARTS]
    assert sorted(c for p in parts for c in p.columns) == sorted(whole.columns)
    assert set(fb.TABLE_PARTS["wins"]) | set(fb.TABLE_PARTS["cost"]) == set(fb.leaderboard_table(
        fb.leaderboard(fb.benchmark_runs(), "beginner")).columns)
