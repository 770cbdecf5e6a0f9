"""One game loop: every agent kind plays the same games in every consumer, or is refused.

The matrix: agent kinds (greedy, epsilon-greedy, UCB, Thompson, state-action, and a plug-in rule that
always clicks the *last* candidate, in plain Python and in numba) against the consumers of the engine
(train, evaluate, Episode, the audit, the Gymnasium policy through ``run_episodes``, a runner task).
On the same seeds each consumer plays the games ``train``/``evaluate`` record: same wins, same decision
counts and, where a consumer records them, the same tiles chosen. Where a combination cannot be played
as trained, it is refused with a clear error.
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pandas as pd
import pytest
from numba import njit

from sweeper import Rule, RuleAgent, evaluate, make_agent, train
from sweeper.running.belief import audit
from sweeper.running.env import MinesweeperEnv
from sweeper.running.episode import Episode
from sweeper.running.policies import bandit_policy, run_episodes


def last_candidate(q, n, t, params, rng):
    """Always click the last candidate in scan order (greedy would never play like this)."""
    return len(q) - 1, False


last_candidate_njit = njit(last_candidate)

KINDS = {
    "greedy": lambda: make_agent("greedy"),
    "egreedy": lambda: make_agent("egreedy:0.1"),
    "ucb": lambda: make_agent("ucb:0.1"),
    "thompson": lambda: make_agent("thompson"),
    "sa": lambda: make_agent("sa"),
    "rule-python": lambda: RuleAgent(Rule(last_candidate, name="last_candidate")),
    "rule-njit": lambda: RuleAgent(Rule(last_candidate_njit, name="last_candidate_njit")),
    "noflags": lambda: make_agent("greedy", flags=False),
}
BOARD = {"sa": "4x4x3"}
TRAIN = 120  # games of training before the comparisons (the agent then has values to act on)


def board_of(kind):
    return BOARD.get(kind, "8x8x10")


def trained(kind):
    agent = KINDS[kind]()
    train(agent, board_of(kind), TRAIN, seed=5, progress=False)
    return agent


@pytest.fixture(scope="module")
def agents():
    return {k: trained(k) for k in KINDS}


def same_games(a: pd.DataFrame, b: pd.DataFrame):
    assert len(a) == len(b)
    assert np.array_equal(a["won"].to_numpy(), b["won"].to_numpy())
    assert np.array_equal(a["decisions"].to_numpy(), b["decisions"].to_numpy())


@pytest.mark.parametrize("kind", list(KINDS))
def test_audit_with_learning_plays_the_training_games(kind):
    board = board_of(kind)
    run = train(KINDS[kind](), board, 60, seed=9, progress=False)
    a = audit(KINDS[kind](), board, 60, seed=9, learn=True)
    same_games(run.records, a.games)
    assert len(a.decisions) == run.records["decisions"].sum()


@pytest.mark.parametrize("kind", list(KINDS))
def test_audit_frozen_plays_the_evaluation_games(agents, kind):
    agent, board = agents[kind], board_of(kind)
    run = evaluate(agent, board, 60, seed=3, freeze=True, progress=False)
    a = audit(agent, board, 60, seed=3)
    same_games(run.records, a.games)


@pytest.mark.parametrize("kind", list(KINDS))
def test_episode_plays_the_first_training_game_tile_for_tile(agents, kind):
    agent, board = agents[kind], board_of(kind)
    for seed in range(4):
        ep = Episode(agent, board, seed=seed).play()
        run = train(agent.copy(), board, 1, seed=seed, progress=False)
        a = audit(agent, board, 1, seed=seed, learn=True)
        assert (ep.status == "won") == bool(run.records["won"].iloc[0])
        assert len(ep.history) == run.records["decisions"].iloc[0]
        tiles = [(d.tile[0], d.tile[1], d.action) for d in ep.history]
        assert tiles == list(zip(a.decisions["row"], a.decisions["col"], a.decisions["action"]))


class _Layouts(gymnasium.Wrapper):
    """Keeps the mine layout of every episode the environment deals."""

    def __init__(self, env):
        super().__init__(env)
        self.layouts = []

    def reset(self, **kw):
        out = self.env.reset(**kw)
        self.layouts.append(self.env.unwrapped.mines.copy())
        return out


@pytest.mark.parametrize("kind", list(KINDS))
def test_env_policy_plays_the_frozen_evaluation_games(agents, kind):
    agent, board = agents[kind], board_of(kind)
    env = _Layouts(MinesweeperEnv(board, flags=True))
    results = pd.DataFrame(run_episodes(env, bandit_policy(agent, env, seed=4), 40, seed=11))
    run = evaluate(agent, board, 40, seed=4, freeze=True, layouts=env.layouts, progress=False)
    r = run.records
    assert np.array_equal(results["won"].to_numpy(), r["won"].to_numpy())
    # an env step per click and per flag; a forced removal is a flag toggled off, then a click; private
    # marks take no step
    steps = r["clicks"] if not agent.flags else r["decisions"] + 2 * r["removals"]
    assert np.array_equal(results["steps"].to_numpy(), steps.to_numpy())
    assert (results["invalid"] == 0).all()


@pytest.mark.parametrize("kind", ["greedy", "rule-python"])
def test_an_agent_with_visible_flags_is_refused_by_an_env_without_flag_actions(agents, kind):
    with pytest.raises(ValueError, match="no flag actions"):
        bandit_policy(agents[kind], MinesweeperEnv("8x8x10", flags=False))


def test_an_agent_with_private_marks_plays_an_env_without_flag_actions(agents):
    agent = agents["noflags"]
    env = _Layouts(MinesweeperEnv("8x8x10", flags=False))
    results = pd.DataFrame(run_episodes(env, bandit_policy(agent, env, seed=2), 30, seed=1))
    run = evaluate(agent, "8x8x10", 30, seed=2, freeze=True, layouts=env.layouts, progress=False)
    assert np.array_equal(results["won"].to_numpy(), run.records["won"].to_numpy())
    assert np.array_equal(results["steps"].to_numpy(), run.records["clicks"].to_numpy())


def test_the_last_candidate_rule_is_not_greedy(agents):
    """The case of the issue: the rule must not be replaced by greedy in any consumer."""
    greedy = make_agent("greedy")
    rule = KINDS["rule-python"]()
    a = audit(rule, "8x8x10", 100, seed=1)
    g = audit(greedy, "8x8x10", 100, seed=1)
    n = min(len(a.decisions), len(g.decisions))
    assert not a.decisions[["row", "col"]].iloc[:n].equals(g.decisions[["row", "col"]].iloc[:n])
    assert (a.decisions["action"] == "click").all()  # the rule never flags


@pytest.mark.parametrize("spec", ["greedy", "rule:decaying-eps", "thompson"])
def test_a_runner_task_plays_the_training_games(spec):
    from sweeper.experiments.runner import execute
    from sweeper.experiments.specs import bandit
    out, _ = execute(bandit(spec, "8x8x10", 200, 6, block=50))
    run = train(make_agent(spec), "8x8x10", 200, seed=6, progress=False)
    assert out.info["wins"] == run.wins
    curve = out.tables["curve"]
    assert np.array_equal(curve["block_wins"].to_numpy(), run.records["won"].to_numpy().reshape(-1, 50).sum(axis=1))


def test_the_kernels_refuse_a_rule_agent_without_its_rule():
    """No consumer can hand a plug-in rule's agent to the loop without its rule (it would play greedy)."""
    from sweeper.agents.loop import check_rule
    pol = RuleAgent(Rule(last_candidate))._policy()
    with pytest.raises(ValueError, match="needs its rule"):
        check_rule(pol, None)
    with pytest.raises(ValueError, match="rule agent|plug-in rule's agent only"):
        check_rule(make_agent("greedy")._policy(), (None,) * 8)


# ------------------------------------------------------------------------------ regret --

@pytest.mark.parametrize("kind", ["greedy", "thompson", "rule-njit", "noflags"])
def test_regret_runs_play_the_training_games(kind):
    """The regret of a run is measured on the games `train` plays with the same seed, and leaves the
    same agent behind."""
    from sweeper.running.regret import regret
    board = board_of(kind)
    a, b = KINDS[kind](), KINDS[kind]()
    run = train(a, board, 300, seed=8, progress=False)
    r = regret(b, board, 300, seed=8)
    pd.testing.assert_frame_equal(run.records, r.run.records)
    for x, y in zip(a.table.recorded(), b.table.recorded()):
        assert np.array_equal(x, y)
    assert np.array_equal(r.games["decisions"].to_numpy(), run.records["decisions"].to_numpy())


@pytest.mark.parametrize("kind", ["greedy", "ucb", "egreedy", "rule-python"])
def test_the_regret_kernel_agrees_with_the_step_through(agents, kind):
    """Each game's regret, summed by the kernel's probe, equals the sum of the step-through's per-decision
    regret (best move minus the chosen move's chance of being right, computed in Python from the exact
    probabilities)."""
    from sweeper.running.regret import regret
    agent, board = agents[kind], board_of(kind)
    for seed in range(3):
        ep = Episode(agent, board, seed=seed, exact=True).play()
        r = regret(agent.copy(), board, 1, seed=seed)
        assert r.games["regret"].iloc[0] == pytest.approx(sum(d.regret for d in ep.history), abs=1e-9)
        sure = [d for d in ep.history if d.best >= 1 - 1e-9]
        assert r.games["sure_decisions"].iloc[0] == len(sure)
        for d in ep.history:
            assert 0.5 <= d.best <= 1.0 and 0.0 <= d.regret <= d.best
