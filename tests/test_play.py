"""Agents in play: determinism, hand-made learning cases, the step API, learning works."""

import numpy as np
import pandas as pd
import pytest

from sweeper import EpsilonGreedy, Greedy, KernelCalls, StateAction, UCBAgent, evaluate, make_agent, play, train
from sweeper.game.grid import COVERED
from sweeper.agents.windows import key_of
from sweeper.running.episode import Episode


@pytest.mark.parametrize("spec", ["greedy", "egreedy:0.1", "ucb:0.1", "sa", "thompson"])
def test_same_seed_gives_bit_identical_runs(spec):
    board = "4x4x3" if spec == "sa" else "8x8x10"
    a, b = make_agent(spec), make_agent(spec)
    ra = train(a, board, 3000, seed=11, progress=False)
    rb = train(b, board, 3000, seed=11, progress=False, calls=KernelCalls(chunk=7))  # chunking must not matter
    assert ra.records.equals(rb.records)
    for x, y in zip(a.table.recorded(), b.table.recorded()):
        assert np.array_equal(x, y)
    rc = train(make_agent(spec), board, 3000, seed=12, progress=False)
    assert not ra.records.equals(rc.records)


def test_a_one_tile_with_one_covered_neighbour_is_learned_as_a_mine():
    """1x5 board, mine in the middle: the opening reveals 0, 1 on the left. Game 1 clicks the
    mine (unseen actions look safe) and loses; game 2 flags it and clicks its way to a win."""
    mines = np.array([[False, False, True, False, False]])
    agent = Greedy()
    run = play(agent, "1x5x1", 2, layouts=[mines, mines], progress=False)
    assert list(run.records["won"]) == [False, True]
    view = np.array([[0, 1, COVERED, COVERED, COVERED]])
    q, n = agent.table[key_of(view, (0, 1), (0, 2))]
    assert q == 1.0 and n == 3  # the click, the end-of-game update, then the flag action in game 2
    assert run.records["flags"].tolist() == [0, 1]


def test_frozen_evaluation_leaves_the_agent_untouched():
    agent = Greedy()
    train(agent, "8x8x10", 2000, seed=1, progress=False)
    before = [x.copy() for x in agent.table.recorded()]
    run = evaluate(agent, "16x16x40", 300, seed=2, freeze=True, progress=False)
    after = agent.table.recorded()
    assert all(np.array_equal(x, y) for x, y in zip(before, after))
    assert run.summary()["learning"] is False
    run2 = evaluate(agent, "16x16x40", 300, seed=2, progress=False)  # keeps learning
    assert agent.actions_recorded > len(before[0])
    assert run2.summary()["learning"] is True


def test_greedy_learns_far_beyond_a_random_clicker():
    random_clicker = evaluate(EpsilonGreedy(1.0), "8x8x10", 3000, seed=3, freeze=True, progress=False)
    agent = Greedy()
    train(agent, "8x8x10", 5000, seed=3, progress=False)
    late = train(agent, "8x8x10", 3000, seed=4, progress=False)
    assert random_clicker.win_rate < 0.05
    assert late.win_rate > 0.30  # measured about 0.45
    assert late.win_rate - random_clicker.win_rate > 0.2


def test_counters_match_the_table():
    agent = UCBAgent(0.1)
    run = train(agent, "8x8x10", 1000, seed=5, progress=False)
    keys, q, n = agent.table.recorded()
    assert run.records["actions_recorded"].iloc[-1] == len(keys) == agent.actions_recorded
    assert agent.perfect_actions == int(np.sum(np.abs(q) == 1.0))
    assert agent.table.decisions == run.records["decisions"].sum()


@pytest.mark.parametrize("spec, board", [("greedy", "8x8x10"), ("ucb:0.1", "8x8x10"), ("egreedy:0.2", "6x6x6"),
                                         ("sa", "4x4x4")])
def test_an_episode_replays_the_first_training_game(spec, board):
    trained = make_agent(spec)
    train(trained, board, 500, seed=1, progress=False)
    a, b = trained.copy(), trained.copy()
    run = train(a, board, 1, seed=9, progress=False)
    ep = Episode(b, board, seed=9, copy=False).play()
    rec = run.records.iloc[0]
    assert ep.status == ("won" if rec["won"] else "lost")
    assert len(ep.history) == rec["decisions"]
    assert sum(d.action == "flag" for d in ep.history) == rec["flags"]
    for x, y in zip(a.table.recorded(), b.table.recorded()):
        assert np.array_equal(x, y)


@pytest.mark.parametrize("spec, board", [("greedy", "8x8x10"), ("egreedy:0.3", "8x8x10"), ("ucb:0.1", "8x8x10"),
                                         ("thompson", "8x8x10"), ("sa", "4x4x3")])
def test_episode_candidates_are_what_the_kernel_compared(trained_agent, spec, board):
    """For every agent kind: the candidates shown before a step are those of the decision the step makes,
    the chosen one is marked, and it is ranked first unless epsilon-greedy explored."""
    agent = trained_agent(spec, board, games=2000, seed=2)
    decisions = explored = 0
    for seed in range(8):
        ep = Episode(agent, board, seed=seed)
        while not ep.done:
            cands = ep.candidates()
            d = ep.step()
            pd.testing.assert_frame_equal(cands, d.candidates)
            chosen = cands[cands["chosen"]]
            assert len(chosen) == 1
            top = chosen.iloc[0]
            assert (top["row"], top["col"]) == d.tile and top["q"] == d.q and top["n"] == d.n
            if d.centre is not None:
                assert (top["centre_row"], top["centre_col"]) == d.centre
            assert top["score"] == d.score
            if d.explored:
                explored += 1
            else:
                assert top["rank"] == 1
            assert sorted(cands["rank"]) == list(range(1, len(cands) + 1))
            decisions += 1
        with pytest.raises(ValueError, match="over"):
            ep.step()
    assert decisions > 20
    assert (explored > 0) == spec.startswith("egreedy")


def test_state_action_agent_rejects_large_boards():
    with pytest.raises(ValueError, match="at most 16 tiles"):
        train(StateAction(), "5x5x3", 10, progress=False)


@pytest.mark.parametrize("kw, message", [
    (dict(agent="nope"), "agent must be"), (dict(agent="egreedy:x"), "bad agent parameter"),
    (dict(episodes=-1), "episodes"), (dict(seed=-4), "seed"), (dict(boards="8x8"), "8x8x10"),
    (dict(opening="lucky"), "opening"),
])
def test_bad_training_arguments(kw, message):
    args = dict(agent="greedy", boards="8x8x10", episodes=10, seed=0, progress=False) | kw
    with pytest.raises(ValueError, match=message):
        train(**args)


def test_bad_agent_parameters():
    with pytest.raises(ValueError, match="epsilon"):
        EpsilonGreedy(1.5)
    with pytest.raises(ValueError, match="c must be"):
        UCBAgent(-1)


def test_thompson_sampling_learns_and_its_beta_draws_are_right():
    from sweeper.rng import beta, make_state
    from scipy import stats
    s = make_state(5, 9)
    # the inversion branches (a or b equal to 1) and the gamma-ratio branch, against scipy's Beta CDF
    for a, b in [(1.0, 1.0), (1.0, 500.0), (40.0, 1.0), (0.1, 1.0), (0.1, 37.0), (3.0, 7.0), (200.0, 50.0)]:
        x = np.array([beta(s, a, b) for _ in range(20_000)])
        mean, var = a / (a + b), a * b / ((a + b) ** 2 * (a + b + 1))
        assert abs(x.mean() - mean) < 4 * np.sqrt(var / len(x)) + 1e-9
        assert abs(x.var() - var) < 0.1 * var
        assert stats.kstest(x, stats.beta(a, b).cdf).pvalue > 1e-3, (a, b)
    agent = make_agent("thompson")
    assert agent.name == "thompson:1,1" and make_agent(agent.name).params() == agent.params()
    train(agent, "8x8x10", 6000, seed=3, progress=False)
    late = train(agent, "8x8x10", 4000, seed=4, progress=False)
    assert late.win_rate > 0.10  # measured 0.16; a random clicker wins < 0.05 (test above)


def test_thompson_draws_once_per_action_and_picks_the_most_certain_draw():
    """A readable re-enactment of each Thompson decision from a copy of the agent's random
    stream: one Beta draw per distinct action in scan order, candidates of one action sharing it."""
    from sweeper.game.grid import COVERED
    from sweeper.running.episode import Episode
    from sweeper.rng import beta
    agent = make_agent("thompson")
    train(agent, "8x8x10", 3000, seed=5, progress=False)
    checked = 0
    for seed in range(6):
        ep = Episode(agent, "8x8x10", seed=seed)
        b, c = ep.board, ep.cache
        while not ep.done:
            rng = ep.rng_agent.copy()
            draws, best = {}, (-1.0, None, None)
            for p in b.tiles:
                if b.shown[p] != COVERED or b.flg[p]:
                    continue
                for i in range(p * 8, p * 8 + 8):
                    if c.cn[i] < 0:
                        continue
                    slot = int(c.cslot[i])
                    if slot not in draws:
                        m = np.floor((c.cq[i] + 1) * 0.5 * c.cn[i] + 0.5)
                        draws[slot] = beta(rng, 1.0 + m, 1.0 + (c.cn[i] - m))
                    if abs(2 * draws[slot] - 1) > best[0]:
                        best = (abs(2 * draws[slot] - 1), p, draws[slot])
            d = ep.step()
            assert ep._rc(best[1]) == d.tile and best[2] == d.score
            assert d.action == ("flag" if best[2] >= 0.5 else "click")
            checked += 1
    assert checked > 30


def test_episode_table_lists_every_decision(trained_agent):
    ep = Episode(trained_agent("greedy"), "8x8x10", seed=3, learn=False).play()
    t = ep.table()
    assert len(t) == len(ep.history) and list(t.index) == list(range(1, len(t) + 1))
    assert t["action"].isin(["click", "flag"]).all() and t["game"].iloc[-1] == ep.status
    assert (t["Q"].to_numpy() == [d.q for d in ep.history]).all()


def test_blocks_split_the_run_into_labelled_win_rates():
    run = train("greedy", "8x8x10", 2_500, seed=3, progress=False)
    b = run.blocks(1_000)
    assert list(b.index) == ["games 1-1,000", "games 1,001-2,000", "games 2,001-2,500"]
    assert b["win rate"].tolist() == [run.records["won"].iloc[k:k + 1_000].mean() for k in (0, 1_000, 2_000)]
    assert b["actions recorded"].iloc[-1] == run.records["actions_recorded"].iloc[-1] == run.agent.actions_recorded
    with pytest.raises(ValueError, match="size must be a positive integer"):
        run.blocks(0)
