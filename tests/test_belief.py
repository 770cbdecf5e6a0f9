"""The audit of an agent's beliefs against the exact probabilities (sweeper.running.belief)."""

import numpy as np
import pytest

from sweeper import evaluate
from sweeper.running.belief import CAUSES, EPS, N_BINS, audit, belief_bin
from sweeper.running.episode import Episode
from sweeper.game.probability import mine_probabilities


@pytest.fixture(scope="module")
def trained(trained_agent):
    return trained_agent("greedy", seed=2)


@pytest.fixture(scope="module")
def report(trained):
    return audit(trained, "8x8x10", 300, seed=11)


def test_audit_plays_the_games_evaluate_plays(trained, report):
    run = evaluate(trained, "8x8x10", 300, seed=11, freeze=True, progress=False)
    assert np.array_equal(report.games["won"].to_numpy(), run.records["won"].to_numpy())
    assert np.array_equal(report.games["decisions"].to_numpy(), run.records["decisions"].to_numpy())
    assert report.fallbacks == 0


def test_audit_probabilities_are_the_solvers_on_the_views_of_a_step_through(trained, report):
    ep = Episode(trained, "8x8x10", seed=11, learn=False)
    rows = report.decisions[report.decisions["game"] == 0]
    assert len(rows) > 0
    for (_, r), d in zip(rows.iterrows(), iter(lambda: ep.step() if not ep.done else None, None)):
        exact = mine_probabilities(d.view, 10)
        assert (r["row"], r["col"]) == d.tile and r["q"] == d.q and r["n"] == d.n
        assert r["exact"] == exact[d.tile]
        clickable = (d.view == 9)
        assert r["lowest"] == exact[clickable].min()
    assert ep.done and len(ep.history) == len(rows)


def test_each_loss_has_the_cause_its_last_click_shows(report):
    d, g = report.decisions, report.games
    assert set(g["cause"].astype(str)) <= set(CAUSES)
    assert (g["won"] == (g["cause"] == "won")).all()
    last = d.groupby("game").tail(1).set_index("game")
    for game, cause in g.loc[~g["won"], ["game", "cause"]].itertuples(index=False):
        p = last.loc[game, "clicked_exact"]
        assert last.loc[game, "exploded"]
        if cause == "clicked a known mine":
            assert p >= 1 - EPS
        else:
            assert EPS < p < 1 - EPS
            assert last.loc[game, "safe_known"] == (cause == "missed a safe tile")
    losses = report.losses()
    assert losses["games"].sum() == (~g["won"]).sum()
    assert np.isclose(losses["share_of_losses"].sum(), 1.0)


def test_calibration_tables_count_every_seen_action(report):
    chosen = report.calibration("chosen")
    assert chosen["count"].sum() == (report.decisions["n"] > 0).sum()
    assert ((chosen["exact"] >= 0) & (chosen["exact"] <= 1)).all()
    every = report.calibration("all")
    assert every["count"].sum() >= chosen["count"].sum()
    assert (every["known_safe"] + every["known_mine"] <= every["count"]).all()
    assert list(every["bin_label"])[0] == "Q = -1"
    with pytest.raises(ValueError, match="which"):
        report.calibration("some")


def test_belief_bins():
    assert belief_bin(-1.0) == 0 and belief_bin(1.0) == N_BINS - 1
    assert belief_bin(-0.999) == 1 and belief_bin(0.999) == N_BINS - 2
    assert belief_bin(0.0) == 11


def test_audit_is_deterministic_and_leaves_the_agent_alone(trained):
    before = trained.table.recorded()
    a = audit(trained, "8x8x10", 50, seed=3, learn=True)
    b = audit(trained, "8x8x10", 50, seed=3, learn=True)
    assert a.decisions.equals(b.decisions) and a.games.equals(b.games)
    for x, y in zip(before, trained.table.recorded()):
        assert np.array_equal(x, y)


def test_audit_rejects_bad_input(trained):
    with pytest.raises(ValueError, match="budget"):
        audit(trained, "8x8x10", 5, budget=0)
    with pytest.raises(ValueError, match="episodes"):
        audit(trained, "8x8x10", -1)



def test_find_episode_replays_the_audited_game(trained):
    from sweeper.running.belief import find_episode
    ep = find_episode(trained, "missed a safe tile", seeds=range(100))
    d = ep.history[-1]
    assert ep.status == "lost" and d.action == "click"
    clickable = d.view == 9
    assert EPS < d.exact[d.tile] < 1 - EPS and d.exact[clickable].min() <= EPS  # a guess beside a safe tile
    with pytest.raises(ValueError, match="cause"):
        find_episode(trained, "bad luck")
