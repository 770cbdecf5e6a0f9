"""The seed-band helpers of sweeper.viz.figures (the tables behind the bands)."""

import numpy as np
import pandas as pd
import pytest

from sweeper.viz import figures


def test_band_is_mean_low_high_over_seeds():
    df = pd.DataFrame({"agent": ["a"] * 6, "seed": [1, 2, 3] * 2, "episode": [10] * 3 + [20] * 3,
                       "cum_win_rate": [0.1, 0.3, 0.2, 0.5, 0.7, 0.6]})
    b = figures.seed_band(df, ["agent", "episode"], "cum_win_rate")
    assert list(b["cum_win_rate"].round(12)) == [0.2, 0.6]
    assert list(b["low"]) == [0.1, 0.5] and list(b["high"]) == [0.3, 0.7] and list(b["seeds"]) == [3, 3]
    assert b["sd"].round(12).tolist() == [0.1, 0.1]


def test_band_seeds_follow_the_scale(monkeypatch):
    monkeypatch.setenv(figures.SCALE_ENV, "paper")
    assert figures.band_seeds() == (1, 2, 3, 4, 5)
    monkeypatch.setenv(figures.SCALE_ENV, "quick")
    assert len(figures.band_seeds()) >= 2
    monkeypatch.setenv(figures.SCALE_ENV, "huge")
    with pytest.raises(ValueError, match="SWEEPER_SCALE"):
        figures.band_seeds()


def test_calibration_summary_on_hand_made_bins():
    cal = pd.DataFrame({
        "agent": ["g"] * 3, "board": ["8x8x10"] * 3, "which": ["all"] * 3, "bin": [0, 5, 21],
        "bin_label": ["Q = -1", "0.20-0.25", "Q = +1"], "count": [10, 4, 6],
        "belief": [0.0, 0.225, 1.0], "exact": [0.1, 0.225, 0.5],
        "known_safe": [8, 1, 0], "known_mine": [1, 1, 3]})
    row = figures.calibration_summary(cal).loc[("g", "8x8x10", "all")]
    assert row["count"] == 20
    assert row["calibration error"] == pytest.approx((10 * 0.1 + 0 + 6 * 0.5) / 20)
    assert row["surely safe (Q = -1) on a known mine"] == pytest.approx(1 / 10)
    assert row["unsure belief, target already known"] == pytest.approx(2 / 4)


def test_how_good_table_orders_players_floor_to_ceiling():
    d = pd.DataFrame({"player": ["solver", "random"], "board": ["8x8x10", "8x8x10"], "opening": ["safe", "safe"],
                      "win_rate": [0.8113, 0.0], "ci_low": [0.8036, 0.0], "ci_high": [0.8188, 0.0004],
                      "games_per_second": [21000.4, 30000.6]})
    t = figures.how_good_table(d)
    assert list(t.columns) == list(figures.PLAYERS)
    assert [o for b, o in t.index if b == "8x8x10"] == list(figures.OPENINGS)
    assert t.loc[("8x8x10", "safe"), "solver"] == "0.811"
    assert t.loc[("8x8x10", "safe"), "random"] == "0.000"
    assert t.loc[("8x8x10", "zero"), "solver"] == ""
    assert figures.how_good_speeds(d).loc[("8x8x10", "safe"), "random"] == "30,001"
    assert figures.how_good_interval(d.assign(games=[10_000, 10_000])).startswith(
        "Each win rate has a 95% Wilson interval no wider than ±0.008 (10,000 games")


def test_band_facts_finds_the_close_pairs_and_the_widest_cell():
    final = pd.DataFrame({"mean": [0.70, 0.64, 0.639], "sd": [0.001, 0.001, 0.002]}, index=["greedy", "a", "b"])
    h6 = pd.DataFrame({"train_setting": ["4x4x3", "5x5x4"], "low": [0.5, 0.6], "high": [0.51, 0.63]})
    h7 = pd.DataFrame({"train_setting": ["5x5x4", "5x5x4"], "low": [0.6, 0.6], "high": [0.63, 0.63]})
    f = figures.band_facts(final, h6, h7)
    assert f["sd"] == 0.002 and f["close"] == [("a", "b")]
    assert f["gap_max"] == pytest.approx(0.06) and f["spread_max_board"] == "5x5x4"
    assert f["spread_median"] == pytest.approx(0.03)


def test_own_rule_verdict_calls_a_difference_real_only_when_intervals_separate():
    import pandas as pd
    from sweeper.viz.figures import own_rule_verdict
    summary = pd.DataFrame({"mean": [0.70, 0.72, 0.60, 0.705], "t95_low": [0.69, 0.715, 0.59, 0.69],
                            "t95_high": [0.71, 0.725, 0.61, 0.72]},
                           index=["greedy", "rule:a", "rule:b", "rule:c"])
    text = own_rule_verdict(summary)
    assert "rule:a ends at 0.7200 (+0.0200), above it, and the intervals do not overlap" in text
    assert "rule:b ends at 0.6000 (-0.1000), below it" in text
    assert "rule:c ends at 0.7050 (+0.0050), within seed noise" in text
    assert text.endswith("The highest mean is rule:a's.")


def test_no_flags_verdict_places_each_reading_against_the_bound():
    nf = pd.DataFrame({"agent": ["greedy"] * 3, "reading": ["flags (the paper's model)", "flags as private marks",
                                                             "never flags"],
                       "win_rate": [0.70, 0.40, 0.09], "ci_low": [0.69, 0.39, 0.085], "ci_high": [0.71, 0.41, 0.095],
                       "games": [10**6] * 3})
    text = figures.no_flags_verdict(nf)
    assert "paper's model" not in text
    assert "flags as private marks ends at 0.400, above 12%" in text
    assert "never flags ends at 0.090, below 12%" in text
    nf.loc[2, ["ci_low", "ci_high"]] = [0.11, 0.13]
    assert "not separable from 12%" in figures.no_flags_verdict(nf)


def test_sa_verdict_names_the_nearer_reading_and_where_the_paper_s_pairs_lie():
    sa = pd.DataFrame([{"board": "4x4x4", "games": 10**6,
                        "flags shown: win rate": 0.736, "flags shown: low": 0.735, "flags shown: high": 0.737,
                        "flags shown: pairs": 290_000, "flags hidden: win rate": 0.754, "flags hidden: low": 0.753,
                        "flags hidden: high": 0.755, "flags hidden: pairs": 148_000,
                        "paper: win rate": 0.7462, "paper: pairs": 223_094}])
    text = figures.sa_verdict(sa)
    assert ("nearer the reading with flags hidden (0.7540, ours minus the paper's +0.0078; the paper's value lies "
            "outside that reading's 95% interval)") in text
    assert "223,094 pairs are between ours" in text
    assert figures.sa_verdict(sa.assign(**{"paper: win rate": float("nan")})).startswith("The paper's Table II has")


def _pseq_rows():
    """Two settings, both guessing strategies; PSEQ apart from (above) lowest P on the first only."""
    rows = []
    settings = [("8x8x10", "zero", 0.8828, (0.8779, 0.8759, 0.8799), (0.8833, 0.8813, 0.8853)),
                ("16x30x99", "safe", 0.3961, (0.3879, 0.3849, 0.3909), (0.3880, 0.3850, 0.3910))]
    for board, opening, published, fewest, pseq in settings:
        for guess, (rate, lo, hi), speed in [("fewest", fewest, 1000.0), ("pseq", pseq, 250.0)]:
            rows.append(dict(board=board, opening=opening, guess=guess, wins=int(rate * 10**5), games=10**5,
                             win_rate=rate, ci_low=lo, ci_high=hi, games_per_second=speed, fallbacks=0,
                             published=published))
    return pd.DataFrame(rows)


def test_pseq_table_puts_both_rules_beside_the_published_figure():
    t = figures.pseq_table(_pseq_rows())
    assert list(t.index) == [("8x8x10", "zero", "lowest P"), ("8x8x10", "zero", "PSEQ"),
                             ("16x30x99", "safe", "lowest P"), ("16x30x99", "safe", "PSEQ")]
    assert list(t.columns) == ["ours [95% interval]", "published", "gap, points"]
    assert t.loc[("8x8x10", "zero", "PSEQ"), "ours [95% interval]"] == "0.8833 [0.8813, 0.8853]"
    assert t.loc[("8x8x10", "zero", "PSEQ"), "published"] == "0.8828"
    assert t.loc[("8x8x10", "zero", "lowest P"), "gap, points"] == "-0.49"
    assert t.loc[("16x30x99", "safe", "PSEQ"), "gap, points"] == "-0.81"
    tiny = _pseq_rows().assign(win_rate=lambda d: d["published"] - 0.00001)
    assert set(figures.pseq_table(tiny)["gap, points"]) == {"+0.00"}  # no "-0.00"


def test_pseq_verdict_counts_gaps_intervals_and_separations():
    text = figures.pseq_verdict(_pseq_rows())
    assert ("Guessing by lowest P, then fewest covered neighbours: ours minus the published ranges from -0.82 to "
            "-0.49 points; the published figure is inside our 95% interval in 0 of 2 settings; no gap exceeds 1 "
            "point.") in text
    assert "Guessing by PSEQ: ours minus the published ranges from -0.81 to +0.05 points; the published figure is "\
           "inside our 95% interval in 1 of 2 settings" in text
    assert "higher, with the intervals apart, in 8x8x10 (zero); lower in none; elsewhere the intervals overlap." in text
    assert "4.0 to 4.0 times fewer games per second" in text
    # a published value inside our interval counts, a gap beyond one point is named
    d = _pseq_rows()
    d.loc[d["guess"] == "fewest", ["win_rate", "ci_low", "ci_high"]] -= 0.02
    assert "the gap exceeds 1 point in 8x8x10 (zero), 16x30x99 (safe)." in figures.pseq_verdict(d)


def test_duration_picks_a_unit_a_reader_takes_in():
    assert [figures.duration(s) for s in (0.42, 27.3, 75, 186, 14 * 3600, 7.5 * 3600)] == \
        ["0.4 s", "27 s", "1.2 min", "3.1 min", "14 h", "7.5 h"]
    with pytest.raises(ValueError, match="seconds"):
        figures.duration(float("nan"))


def test_timings_table_states_what_was_timed_and_the_speed_up():
    t = pd.DataFrame({"agent": ["greedy", "greedy"], "train_setting": ["8x8x15", "8x8x15"],
                      "train_episodes": [1_000_000, 1_000_000], "eval_setting": ["training", "16x30x99"],
                      "eval_episodes": [None, 10_000], "ours (hours)": [0.05, 0.0075], "paper (hours)": [14.0, 7.5]})
    tt = figures.timings_table(t)
    assert list(tt.index) == ["training, 8x8x15, 1,000,000 games", "testing, 16x30x99, 10,000 games"]
    assert tt.iloc[0].tolist() == ["14 h", "3.0 min", "280"]
    assert tt.iloc[1].tolist() == ["7.5 h", "27 s", "1,000"]


def test_slowest_runs_come_first_formatted():
    runs = pd.DataFrame({"task": ["a", "b", "c"], "seconds": [30.0, 300.0, 90.0], "train_seconds": [20.0, 250.0, None],
                         "games": [100_000, 1_000_000, None], "games_per_second": [5000.0, 4000.4, None]})
    s = figures.slowest_runs(runs, n=2)
    assert list(s.index) == ["b", "c"]
    assert s.loc["b"].tolist() == ["5.0 min", "1,000,000", "4,000"]
    assert s.loc["c"].tolist() == ["1.5 min", "", ""]


def test_final_win_rates_put_the_interval_beside_the_paper_s_value():
    c = pd.DataFrame({"experiment": ["initial", "initial", "initial", "transfer"],
                      "agent": ["greedy", "ucb(c=0.1)", "greedy", "greedy"],
                      "metric": ["win_rate", "win_rate", "actions_recorded", "win_rate"],
                      "ours": [0.70330, 0.6387, 270669.0, 0.5], "ci_low": [0.70240, 0.6377, None, 0.4],
                      "ci_high": [0.70419, 0.6396, None, 0.6], "paper": [0.7025, None, None, 0.5]})
    f = figures.final_win_rates(c)
    assert list(f.index) == ["greedy", "ucb:0.1"]
    assert f.loc["greedy"].tolist() == ["0.7033 [0.7024, 0.7042]", "0.7025"]
    assert f.loc["ucb:0.1"].tolist() == ["0.6387 [0.6377, 0.6396]", ""]


def test_seed_table_shows_the_mean_interval_spread_and_range():
    final = pd.DataFrame({"seed 1": [0.70, 0.60], "seed 2": [0.72, 0.64], "mean": [0.71, 0.62], "sd": [0.0141, 0.0283],
                          "t95_low": [0.58, 0.37], "t95_high": [0.84, 0.87]}, index=pd.Index(["greedy", "ucb:0.1"],
                                                                                          name="agent"))
    t = figures.seed_table(final)
    assert t.loc["greedy"].tolist() == ["0.7100 [0.5800, 0.8400]", "0.0141", "0.7000", "0.7200"]
    assert t.loc["ucb:0.1", "highest seed"] == "0.6400"


def test_table_ii_in_long_form_keeps_the_paper_beside_each_agent():
    rows = []
    for agent, w, k in (("mab-greedy", 0.95, 3000.0), ("mab-greedy+nosym", 0.947, 17864.0), ("sa-greedy", 0.93, 19354.0)):
        metric = "state_actions_recorded" if agent == "sa-greedy" else "actions_recorded"
        rows.append(dict(experiment="sa_vs_mab", agent=agent, train_setting="4x4x3", train_episodes=100_000,
                         metric="win_rate", ours=w, ci_low=w - 0.001, ci_high=w + 0.001,
                         paper=0.9379 if agent == "sa-greedy" else 0.9466))
        rows.append(dict(experiment="sa_vs_mab", agent=agent, train_setting="4x4x3", train_episodes=100_000,
                         metric=metric, ours=k, ci_low=None, ci_high=None,
                         paper=15170.0 if agent == "sa-greedy" else 13940.0))
    t = figures.tab_sa_vs_mab(pd.DataFrame(rows))
    assert list(t.index) == [("4x4x3", "100,000", a) for a in ("MAB", "MAB no sym.", "SA")]
    assert t.loc[("4x4x3", "100,000", "SA")].tolist() == ["0.9300 [0.9290, 0.9310]", "0.9379", "19,354", "15,170"]
    assert t.loc[("4x4x3", "100,000", "MAB no sym."), ("recorded", "paper")] == "13,940"


def test_solver_table_puts_the_published_figure_and_the_gap_beside_ours():
    d = pd.DataFrame({"player": ["solver", "solver", "greedy"], "board": ["8x8x10", "8x8x10", "8x8x10"],
                      "opening": ["safe", "reference", "safe"], "win_rate": [0.8113, 0.878, 0.7],
                      "ci_low": [0.8036, 0.87, 0.69], "ci_high": [0.8188, 0.885, 0.71],
                      "published": [0.8164, None, 0.8164], "games_per_second": [14576.4, 14705.0, 15130.0]})
    t = figures.solver_table(d)
    assert list(t.index) == [("8x8x10", "safe")]
    assert t.iloc[0].tolist() == ["0.8113 [0.8036, 0.8188]", "0.8164", "-0.51", "14,576"]


def test_thompson_tables_fit_one_row_per_agent_and_level():
    final = pd.DataFrame({"seed 1": [0.70, 0.68], "mean": [0.7026, 0.6802], "sd": [0.0014, 0.0008],
                          "t95_low": [0.7009, 0.6792], "t95_high": [0.7043, 0.6811],
                          "actions recorded": [270159.6, 334351.4], "training games/s": [6165.7, 1280.6]},
                         index=pd.Index(["greedy", "thompson"], name="agent"))
    assert figures.thompson_table(final).loc["thompson"].tolist() == ["0.6802 [0.6792, 0.6811]", "0.0008",
                                                                      "334,351", "1,281"]
    tests = pd.DataFrame({"agent": ["thompson", "greedy"] * 4, "test": ["16x16x40"] * 4 + ["8x8x10"] * 4,
                          "mode": ["learning", "learning", "frozen", "frozen"] * 2, "seed": [1] * 8,
                          "win_rate": [0.43, 0.44, 0.42, 0.43, 0.73, 0.74, 0.72, 0.735]})
    tt = figures.thompson_tests_table(pd.concat([tests, tests.assign(seed=2, win_rate=tests["win_rate"] + 0.01)]))
    assert list(tt.index) == [("8x8x10", "thompson"), ("8x8x10", "greedy"), ("16x16x40", "thompson"),
                              ("16x16x40", "greedy")]
    assert list(tt.columns) == ["learning", "frozen"]
    assert tt.loc[("8x8x10", "greedy"), "frozen"] == "0.7400 (0.7350–0.7450)"


def test_calibration_and_loss_tables_for_the_page():
    idx = pd.MultiIndex.from_tuples([("greedy", "8x8x10", "chosen")], names=["agent", "board", "actions"])
    calib = pd.DataFrame({"count": [244384], "calibration error": [0.00421], "surely safe (Q = -1) on a known mine":
                          [0.0011], "unsure belief, target already known": [0.871]}, index=idx)
    assert figures.calibration_table(calib).iloc[0].tolist() == ["244k", "0.0042", "0.1%", "87%"]
    assert figures.calibration_table(calib.assign(count=1_722_925_715))["count"].iloc[0] == "1,722.9M"
    idx = pd.MultiIndex.from_tuples([("greedy", "8x8x10")], names=["agent", "board"])
    losses = pd.DataFrame({"clicked a known mine": [0.046], "forced guess": [0.06], "missed a safe tile": [0.1705],
                           "win rate": [0.724], "games": [10000], "fallbacks": [0]}, index=idx)
    t = figures.loss_display(losses)
    assert list(t.columns) == ["forced guess", "missed safe", "known mine", "won", "games", "fallbacks"]
    assert t.iloc[0].tolist() == ["6.0%", "17.1%", "4.6%", "72.4%", "10,000", "0"]


def test_transfer_tables_are_blocks_of_scenarios_with_the_paper_beside_ours(monkeypatch):
    monkeypatch.setenv(figures.SCALE_ENV, "paper")  # the committed paper-scale results
    t = figures.tab_transfer("greedy")
    assert list(t.columns) == ["ours [95% interval]", "paper"]
    assert list(dict.fromkeys(t.index.get_level_values("tested on"))) == ["(training)", "beginner", "intermediate",
                                                                          "expert"]
    assert len(t) == 4 * 5
    head = t.loc[("(training)", "8x8x10")]
    assert head["paper"].rstrip("*") == "0.7025" and head["ours [95% interval]"].startswith("0.70")
    with pytest.raises(ValueError, match="agent must be one of"):
        figures.tab_transfer("thompson")


def test_learning_minus_frozen_marks_only_separated_intervals():
    rows = []
    for test, (lw, ll, lh), (fw, fl, fh) in (("8x8x10", (0.74, 0.73, 0.75), (0.70, 0.69, 0.71)),
                                              ("16x16x40", (0.44, 0.43, 0.45), (0.435, 0.425, 0.445))):
        rows.append(dict(experiment="transfer", agent="greedy", train_setting="8x8x15", eval_setting=test,
                         metric="win_rate", ours=lw, ci_low=ll, ci_high=lh))
        rows.append(dict(experiment="transfer", agent="greedy", train_setting="8x8x15", eval_setting=test,
                         metric="win_rate_frozen", ours=fw, ci_low=fl, ci_high=fh))
    d = figures.learning_minus_frozen(pd.DataFrame(rows)).set_index("tested on")
    assert d.loc["beginner", "order"] == 1 and d.loc["intermediate", "order"] == 0
    assert d.loc["beginner", "learning − frozen"] == pytest.approx(0.04)
    t = figures.learning_minus_frozen_table(d.reset_index())
    assert list(t.columns) == ["beginner", "intermediate"]
    assert t.loc[("greedy", "8x8x15")].tolist() == ["+0.0400", "+0.0050"]


def test_size_reversals_are_larger_boards_that_win_more_beyond_the_seed_ranges():
    heat = pd.DataFrame({"rows": [3, 3, 3, 4], "cols": [5, 6, 7, 5],
                         "train_setting": ["3x5x2", "3x6x3", "3x7x3", "4x5x3"],
                         "win_rate": [0.97, 0.91, 0.95, 0.90], "low": [0.96, 0.90, 0.94, 0.89],
                         "high": [0.98, 0.92, 0.96, 0.91]})
    r = figures.size_reversals(heat)
    assert r[["smaller", "larger"]].values.tolist() == [["3x6x3", "3x7x3"]]
    assert r["larger density"].iloc[0] == pytest.approx(3 / 21)
    text = figures.size_trend(heat)
    assert "In 1 of the 3 pairs of neighbouring cells the larger board wins *more*" in text
    assert "in 1 of those 1 the larger board has the lower mine density" in text
    assert "In all 3 pairs" in figures.size_trend(heat.assign(low=heat["win_rate"] - 0.1))


def test_value_facts_count_perfect_actions_seen_once():
    q = np.array([-1.0, 1.0, -1.0, 0.5, -0.2])
    n = np.array([1, 3, 1, 4, 7])
    text = figures.value_facts({"greedy": (np.arange(5), q, n)})
    assert text == ("**Measured.** greedy: 60% of its 5 recorded actions are perfect, and 67% of those were seen "
                    "exactly once.")


def test_tinkering_effects_name_the_larger_effect_both_ways():
    both = figures.tinkering_effects(0.10, 0.20, 0.2, 0.3)
    assert both.endswith("so do we, in points and relative to the starting win rate.")
    assert "ours is larger in height, in points and relative" in figures.tinkering_effects(0.3, 0.2, 0.4, 0.3)
    mixed = figures.tinkering_effects(0.3, 0.2, 0.2, 0.3)
    assert "ours is larger in height in points, but in density relative to the starting win rate" in mixed


def _sa_rows():
    """tab:SAvsMAB win rates at one board and length: the SA agent above the no-symmetry bandit, below the other."""
    base = dict(train_setting="4x4x3", train_episodes=10**6)
    return pd.DataFrame([
        dict(base, agent="sa-greedy", ours=0.90, ci_low=0.899, ci_high=0.901, paper=0.95),
        dict(base, agent="mab-greedy+nosym", ours=0.85, ci_low=0.849, ci_high=0.851, paper=float("nan")),
        dict(base, agent="mab-greedy", ours=0.955, ci_low=0.954, ci_high=0.956, paper=0.9466),
    ])


def test_sa_vs_bandit_verdict_orders_by_disjoint_intervals():
    text = figures.sa_vs_bandit_verdict(_sa_rows())
    assert "the SA agent is above the no-symmetry bandit on 4x4x3; and below the symmetric bandit on 4x4x3" in text
    assert "does not hold" not in text  # above on every board: the paper's summary is not contradicted
    assert "In the paper's own table the SA agent ends above its bandit on 1 of the 1 boards (4x4x3)." in text
    d = _sa_rows()
    d.loc[d["agent"] == "sa-greedy", ["ours", "ci_low", "ci_high"]] = [0.85, 0.845, 0.855]
    assert "indistinguishable from the no-symmetry bandit" in figures.sa_vs_bandit_verdict(d)
    assert "does not hold" in figures.sa_vs_bandit_verdict(d)


def test_sa_readings_summary_counts_boards():
    sa = pd.DataFrame([{"board": "4x4x3", "games": 10**6, "paper: win rate": 0.95, "paper: pairs": 500.0,
                        "flags hidden: win rate": 0.949, "flags shown: win rate": 0.90,
                        "flags hidden: pairs": 400, "flags shown: pairs": 600}])
    text = figures.sa_readings_summary(sa)
    assert text.startswith("The hidden-flags reading is nearer the paper's win rate on 1 of 1 boards")
    assert "between our two readings on 1 of 1" in text and "Neither reading" in text
    assert figures.sa_readings_summary(sa.assign(**{"paper: win rate": float("nan")})) == ""


def _readings(code_win=0.7415, code_lo=0.7388, code_hi=0.7442, identical=100_000):
    """table2_bandit_readings' rows for one board at 10^5 games."""
    at = dict(board="4x4x4", games=100_000)
    return pd.DataFrame([
        dict(at, reading="the paper (Table II)", win_rate=0.68, ci_low=np.nan, ci_high=np.nan, actions=66573),
        dict(at, reading="the paper's published code", win_rate=code_win, ci_low=code_lo, ci_high=code_hi,
             actions=13086, identical=identical, replayed=100_000),
        dict(at, reading="ours, with symmetries", win_rate=0.7428, ci_low=0.7401, ci_high=0.7455, actions=13025),
        dict(at, reading="ours, without symmetries", win_rate=0.6797, ci_low=0.6768, ci_high=0.6826, actions=78136),
    ])


def test_table2_bandit_verdict_says_what_the_published_code_gives():
    text = figures.table2_bandit_verdict(_readings())
    assert text.startswith("**The paper's published code does not produce Table II's bandit column.**")
    assert ("0.7415 [0.7388, 0.7442] where the paper prints 0.6800 (outside the code's interval, 6.2 points below the "
            "code's)") in text
    assert "records 13,086 actions where the paper prints 66,573 (the paper's count is 5.1 times the code's)" in text
    assert "played the same 100,000 games" in text and "on 1 of the 1 boards (95% intervals overlap)" in text
    assert "nearer our agent without symmetries on 1 of the 1 boards" in text
    inside = figures.table2_bandit_verdict(_readings(0.681, 0.679, 0.683, identical=99_999))
    assert inside.startswith("**The paper's published code produces 1 of the 1 win rates.**")
    assert "did **not** play the published code's games on 4x4x4" in inside
    shown = figures.table2_bandit_table(_readings())
    assert shown.loc[("4x4x4", "100,000", "the paper's published code"), "actions recorded"] == "13,086"
    assert figures.table2_bandit_verdict(_readings().iloc[1:]).startswith("The paper's table has no values")


def test_table2_readings_from_the_stored_runs(monkeypatch):
    """The committed paper-scale runs: the published code's three boards after 10^5 games, each replayed game for
    game by our agent, and the numbers the glance page judges."""
    monkeypatch.setenv("SWEEPER_SCALE", "paper")
    t = figures.table2_bandit_readings()
    code = t[t["reading"] == "the paper's published code"].set_index("board")
    assert code["games"].tolist() == [100_000] * 3
    assert code["identical"].tolist() == [100_000] * 3
    assert (code["win_rate"] * 100_000).round().astype(int).tolist() == [95_579, 74_153, 41_839]
    assert code["actions"].tolist() == [2_806, 13_086, 35_743]
    numbers = figures.paper_code_numbers(t)
    assert len(numbers) == 6 and set(numbers["metric"]) == {"win_rate", "actions_recorded"}


def test_the_neural_bandits_speed_values_come_from_the_bench_record():
    from sweeper.viz.figures import speed
    record = {"date": "2026-11-28T02:05Z", "machine": {"cores": 2, "cpu": "a CPU", "system": "Linux"},
              "provenance": {"commit": "abcdef0123"}, "rows": [{"workload": "greedy train 8x8x10 (100,000 games)"}]}
    with pytest.raises(ValueError, match="optional extra `deep`"):
        speed.speed_values(speed.neural_speed(record), record)
    for board, rate in (("8x8x10", 2000.0), ("16x16x40", 900.0), ("16x30x99", 500.0)):
        for how, k in (("default learning", 1), ("minibatch 128, replay 0.5", 3), ("minibatch 128, replay 0.25", 4)):
            workload = f"neural bandit (32 ch, 5 layers) train {board}, {how} (10 games, CPU s)"
            record["rows"].append({"workload": workload, "decisions_per_second": rate * k})
        record["rows"].append({"workload": f"neural bandit {board} test games, frozen, batched (10 games, CPU s)",
                               "decisions_per_second": rate * 8})
    v = speed.speed_values(speed.neural_speed(record), record)
    assert (v["recipe"], v["first"], v["ratio"], v["test"]) == (6000.0, 2000.0, 3.0, 16000.0)
    assert (v["date"], v["time"], v["cores"], v["cpu"], v["system"], v["commit"]) == (
        "2026-11-28", "02:05", 2, "a CPU", "Linux", "abcdef0")
