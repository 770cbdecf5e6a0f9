"""The Gymnasium environment: API conformance, seeding, rewards, invalid actions, rendering, policies."""

import copy
import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from sweeper import Game, make_agent, train
from sweeper.game.grid import COVERED, EXPLODED, FLAG
from sweeper.running.env import ENV_ID, TILE_PX, MinesweeperEnv, Rewards, action_mask
from sweeper.experiments.suites import load_suite
from sweeper.running.players import play_solver
from sweeper.running.policies import bandit_policy, random_policy, run_episodes, solver_action, solver_policy
from sweeper.running.episode import Episode


def random_valid_episode(env, seed, rng_seed=0):
    """Play uniformly random valid actions (from the info mask); returns (observations, rewards, last info)."""
    rng = np.random.default_rng(rng_seed)
    obs, info = env.reset(seed=seed)
    observations, rewards = [obs], []
    done = info["status"] != "ongoing"
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        assert not info["invalid"]
        observations.append(obs)
        rewards.append(reward)
        done = terminated or truncated
    return observations, rewards, info


@pytest.mark.parametrize("flags", [False, True])
@pytest.mark.parametrize("render_mode", [None, "ansi", "rgb_array"])
def test_check_env_passes_without_warnings(flags, render_mode):
    env = gymnasium.make(ENV_ID, board="4x4x3", flags=flags, render_mode=render_mode)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)  # through its spec it also builds every render mode
    assert [str(w.message) for w in caught] == []


def test_make_registration_and_spaces():
    env = gymnasium.make("sweeper/Minesweeper-v0", board="4x4x3")
    assert isinstance(env.unwrapped, MinesweeperEnv)
    assert env.observation_space == gymnasium.spaces.Box(0, 12, (4, 4), np.int8)
    assert env.action_space == gymnasium.spaces.Discrete(16)
    obs, info = env.reset(seed=0)
    assert obs.dtype == np.int8 and obs.shape == (4, 4)
    assert {"status", "revealed", "mines", "action_mask", "flags", "invalid", "board_seed"} <= set(info)
    assert info["mines"] == 3
    flagged = gymnasium.make("sweeper.running.env:sweeper/Minesweeper-v0", board="beginner", flags=True)
    assert flagged.action_space == gymnasium.spaces.Discrete(128)
    assert ENV_ID in gymnasium.registry


def test_importing_again_does_not_register_twice():
    code = "import importlib, sweeper.running.env as e; importlib.reload(e); import gymnasium; gymnasium.make(e.ENV_ID)"
    done = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_same_seed_same_observations_along_the_same_actions():
    def trajectory(seed):
        env = MinesweeperEnv("8x8x10", flags=True)
        out = []
        for episode in range(3):  # the seed fixes the whole sequence of boards
            observations, _, _ = random_valid_episode(env, seed if episode == 0 else None, rng_seed=episode)
            out += observations
        return out

    a, b, c = trajectory(5), trajectory(5), trajectory(6)
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))
    assert len(a) != len(c) or not all(np.array_equal(x, y) for x, y in zip(a, c))


def test_board_seed_is_the_engines_board():
    env = MinesweeperEnv("8x8x10", opening="safe", first=(3, 4))
    _, info = env.reset(seed=9)
    game = Game("8x8x10", seed=info["board_seed"], opening="safe", first=(3, 4))
    assert np.array_equal(env.mines, game.mines)
    obs, info = env.reset(options={"board_seed": 42})
    game = Game("8x8x10", seed=42, opening="safe", first=(3, 4))
    assert np.array_equal(obs, game.view) and np.array_equal(env.mines, game.mines)
    assert info["board_seed"] == 42
    layout = np.zeros((8, 8), bool)
    layout[7, :] = True
    layout[6, :2] = True
    obs, info = env.reset(options={"mines": layout})
    assert np.array_equal(env.mines, layout) and info["board_seed"] is None
    with pytest.raises(ValueError):
        env.reset(options={"bogus": 1})
    with pytest.raises(ValueError):
        env.reset(options={"mines": layout, "board_seed": 1})


@pytest.mark.parametrize("seed", range(5))
def test_random_valid_episode_ends_with_a_consistent_reward(seed):
    env = MinesweeperEnv("8x8x10")
    _, rewards, info = random_valid_episode(env, seed, rng_seed=seed)
    assert info["status"] in ("won", "lost") and info["steps"] == len(rewards)
    assert sum(rewards) == (1.0 if info["status"] == "won" else -1.0)
    assert all(r == 0.0 for r in rewards[:-1])
    assert not info["action_mask"].any()
    # the progress scheme: 1/safe per revealed tile on top of +-1
    env = MinesweeperEnv("6x6x6", rewards="progress")
    _, info0 = env.reset(seed=seed)
    _, rewards, info = random_valid_episode(env, seed, rng_seed=seed)
    if info0["status"] == "won":  # the opening itself may win a small board: no step, no reward
        assert rewards == []
    else:
        expected = (info["revealed"] - info0["revealed"]) / 30 + (1.0 if info["status"] == "won" else -1.0)
        assert sum(rewards) == pytest.approx(expected)


def test_random_valid_actions_with_flags_end_by_termination_or_truncation():
    env = MinesweeperEnv("6x6x5", flags=True, max_steps=60)
    for seed in range(5):
        _, rewards, info = random_valid_episode(env, seed, rng_seed=seed)
        assert info["steps"] <= 60
        if info["status"] == "ongoing":
            assert info["steps"] == 60 and sum(rewards) == 0.0
        else:
            assert sum(rewards) == (1.0 if info["status"] == "won" else -1.0)


def test_invalid_actions_are_penalised_no_ops():
    env = MinesweeperEnv("8x8x10", flags=True, rewards={"invalid": -0.5})
    obs, info = env.reset(seed=3)
    n = 64
    revealed = int(np.flatnonzero(obs.ravel() <= 8)[0])
    covered = int(np.flatnonzero(obs.ravel() == COVERED)[0])
    for action in (revealed, n + revealed):  # click or flag a revealed tile
        new, reward, terminated, truncated, info = env.step(action)
        assert info["invalid"] and reward == -0.5 and not terminated and not truncated
        assert np.array_equal(new, obs)
    new, reward, _, _, info = env.step(n + covered)  # flag: valid, free
    assert not info["invalid"] and reward == 0.0 and new.flat[covered] == FLAG and info["flags"] == 1
    assert info["action_mask"][covered] == 0 and info["action_mask"][n + covered] == 1
    same, reward, _, _, info = env.step(covered)  # clicking a flagged tile
    assert info["invalid"] and reward == -0.5 and np.array_equal(same, new)
    new, reward, _, _, info = env.step(n + covered)  # unflag
    assert new.flat[covered] == COVERED and info["flags"] == 0 and not info["invalid"]
    for bad in (-1, 2 * n, 1.5, "3"):
        with pytest.raises(ValueError):
            env.step(bad)
    # the mask says exactly which actions are valid
    obs, info = env.reset(seed=4)
    for action in range(2 * n):
        probe = copy.deepcopy(env)
        _, _, _, _, after = probe.step(action)
        assert after["invalid"] == (info["action_mask"][action] == 0)
    assert np.array_equal(info["action_mask"], action_mask(obs, flags=True))
    # after the end: a no-op
    env.reset(seed=5)
    mine = int(np.flatnonzero(env.mines.ravel() & (env._obs().ravel() == COVERED))[0])
    obs, reward, terminated, _, info = env.step(mine)
    assert terminated and info["status"] == "lost" and reward == -1.0 and obs.flat[mine] == EXPLODED
    again, reward, terminated, truncated, info = env.step(mine)
    assert reward == 0.0 and terminated and not truncated and info["invalid"] and np.array_equal(again, obs)
    with pytest.raises(RuntimeError):
        MinesweeperEnv("4x4x3").step(0)


def test_rendering():
    env = MinesweeperEnv("8x8x10", flags=True, render_mode="rgb_array")
    obs, _ = env.reset(seed=1)
    img = env.render()
    assert img.shape == (8 * TILE_PX, 8 * TILE_PX, 3) and img.dtype == np.uint8
    covered = int(np.flatnonzero(obs.ravel() == COVERED)[0])
    env.step(64 + covered)
    r, c = divmod(covered, 8)
    tile = env.render()[r * TILE_PX:(r + 1) * TILE_PX, c * TILE_PX:(c + 1) * TILE_PX]
    assert (tile == (255, 0, 0)).all(axis=2).any()  # the flag is red
    text_env = MinesweeperEnv("4x5x3", render_mode="ansi")
    text_env.reset(seed=2)
    text = text_env.render()
    board_lines = text.splitlines()[:4]
    assert isinstance(text, str) and len(board_lines) == 4 and all(len(line.split()) == 5 for line in board_lines)
    assert board_lines == text_env._game.render().splitlines()
    quiet = MinesweeperEnv("4x4x3")
    quiet.reset(seed=0)
    with pytest.warns(UserWarning):
        assert quiet.render() is None


def test_arguments_are_validated():
    with pytest.raises(ValueError):
        MinesweeperEnv("8x8x64")
    with pytest.raises(ValueError):
        MinesweeperEnv("8x8x10", opening="first")
    with pytest.raises(ValueError):
        MinesweeperEnv("8x8x10", render_mode="human")
    with pytest.raises(ValueError):
        MinesweeperEnv("8x8x10", rewards={"winning": 2})
    with pytest.raises(ValueError):
        MinesweeperEnv("8x8x10", rewards="dense")
    with pytest.raises(ValueError):
        Rewards(win=float("nan"))
    with pytest.raises(ValueError):
        MinesweeperEnv("8x8x10", max_steps=0)
    assert MinesweeperEnv("2x2x0").reset(seed=0)[1]["status"] == "won"  # the opening already wins


def test_solver_policy_beats_random_clicks_on_beginner():
    env = MinesweeperEnv("beginner")
    solver = run_episodes(env, solver_policy(env), 200, seed=2024)
    floor = run_episodes(env, random_policy(7), 200, seed=2024)
    solver_wins = np.mean([r["won"] for r in solver])
    random_wins = np.mean([r["won"] for r in floor])
    assert solver_wins > 0.7 and random_wins < 0.1  # measured 0.84 and 0.0
    assert all(r["return"] == (1.0 if r["won"] else -1.0) and r["invalid"] == 0 for r in solver + floor)


def test_solver_action_picks_a_certainly_safe_tile():
    # 1 x 3 board, 1 mine: the "1" at (0,0) touches only (0,1), so (0,1) is the mine and (0,2) is safe
    view = np.array([[1, COVERED, COVERED]])
    assert solver_action(view, 1) == 2  # (0,1) is certainly the mine
    with pytest.raises(ValueError):
        solver_action(np.array([[EXPLODED, 1]]), 1)


def test_the_solver_policy_clicks_a_turns_safe_tiles_in_row_major_order_from_one_analysis():
    # 1 x 4 board, 1 mine at (0,1): (0,2) and (0,3) are certainly safe in one analysis; the tie-break alone (fewest
    # covered neighbours) would click (0,3) first, the kernel's turn clicks them in row-major order
    first = np.array([[1, COVERED, COVERED, COVERED]])
    then = np.array([[1, COVERED, 1, COVERED]])
    assert solver_action(first, 1) == 2  # the first click of the turn
    policy = solver_policy(1)
    assert [policy(first), policy(then)] == [2, 3]
    assert policy(then) == 3  # the same observation again: the same action
    assert policy(first) == 2  # an observation that does not continue the last one: a new turn


def _clicks(policy, action_log):
    """``policy``, each action it returns appended to ``action_log``."""
    def logged(obs):
        action_log.append(policy(obs))
        return action_log[-1]
    return logged


@pytest.mark.parametrize("level, games", [("beginner", 50), ("intermediate", 50), ("expert", 10)])
def test_the_solver_policy_makes_the_kernels_clicks_on_every_board(level, games):
    """The solver's two paths (issue 65): through the environment, :func:`solver_policy` plays the games of
    :func:`play_solver` (the numba kernel) click for click: per board the same outcome, revealed share and number
    of clicks (the kernel keeps no list of its clicks; a different order of the safe tiles changes their number,
    as it did before: 13, 5 and 9 of the first 50 boards of the three levels agreed)."""
    suite = load_suite(level)
    layouts = list(suite.layouts[:games])
    kernel = play_solver(suite.setting, None, 0, suite.opening, suite.first, layouts=layouts)
    env = MinesweeperEnv(suite.setting, opening=suite.opening, first=suite.first)
    played = run_episodes(env, solver_policy(env), layouts=layouts)
    safe = suite.setting.tiles - suite.setting.mines
    np.testing.assert_array_equal([e["steps"] for e in played], kernel["decisions"])
    np.testing.assert_array_equal([e["won"] for e in played], kernel["won"])
    np.testing.assert_allclose([e["revealed"] / safe for e in played], kernel["revealed"])
    assert all(e["invalid"] == 0 for e in played)


def test_one_solver_policy_plays_many_episodes_as_fresh_ones_do():
    """Its kept turn is per game: dropped at ``reset()`` and, without one, when the observation starts a new game."""
    suite = load_suite("beginner")
    layouts = list(suite.layouts[:60])
    env = MinesweeperEnv(suite.setting, opening=suite.opening, first=suite.first)
    fresh = []
    for layout in layouts:
        run_episodes(env, _clicks(solver_policy(env), fresh), layouts=[layout])
    one = []
    run_episodes(env, _clicks(solver_policy(env), one), layouts=layouts)  # reset() at each episode
    assert one == fresh
    never_reset, policy = [], solver_policy(suite.setting.mines)  # a plain loop that never calls reset()
    for layout in layouts:
        obs, info = env.reset(options={"mines": layout})
        while info["status"] == "ongoing":
            never_reset.append(policy(obs))
            obs, _, _, _, info = env.step(never_reset[-1])
    assert never_reset == fresh


@pytest.fixture(scope="module")
def trained(trained_agent):
    return trained_agent("greedy", seed=1), trained_agent("greedy", seed=1, flags=False)


@pytest.mark.parametrize("flags", [True, False])
def test_bandit_policy_plays_the_kernels_game(trained, flags):
    """Same agent, same board: the env game ends exactly like the frozen kernel Episode."""
    agent = trained[0] if flags else trained[1]
    before = [x.copy() for x in agent.table.recorded()]
    env = MinesweeperEnv("8x8x10", flags=flags)
    policy = bandit_policy(agent, env)
    removals = 0
    for seed in range(300):  # the first 20 boards, then on until a game with a forced flag removal (flags > mines)
        if seed >= 20 and removals:
            break
        obs, info = env.reset(options={"board_seed": seed})
        policy.reset()
        while info["status"] == "ongoing":
            obs, _, _, truncated, info = env.step(policy(obs))
            assert not info["invalid"] and not truncated
        ep = Episode(agent, "8x8x10", seed=seed, learn=False).play()
        removals += sum(d.removed is not None for d in ep.history)
        assert info["status"] == ep.status and np.array_equal(obs, ep.view)
    assert removals > 0  # the removal path is exercised
    assert all(np.array_equal(x, y) for x, y in zip(before, agent.table.recorded()))  # never learns
    results = run_episodes(env, policy, 100, seed=3)
    assert np.mean([r["won"] for r in results]) > 0.1  # measured 0.3; random clicks win 0 of 200
    assert all(r["invalid"] == 0 and r["status"] != "ongoing" for r in results)


@pytest.mark.parametrize("spec,board", [("sa", "4x4x3"), ("ucb:0.1", "6x6x5"), ("egreedy:0.1", "6x6x5")])
def test_every_agent_kind_plays_valid_moves(spec, board):
    agent = make_agent(spec)
    train(agent, board, 1000, seed=2, progress=False)
    env = gymnasium.make(ENV_ID, board=board, flags=True)
    results = run_episodes(env, bandit_policy(agent, env, seed=1), 30, seed=0)
    assert all(r["invalid"] == 0 and r["status"] in ("won", "lost") for r in results)
    assert all(r["return"] == (1.0 if r["won"] else -1.0) for r in results)
    with pytest.raises(ValueError, match="no flag actions"):  # it could not play as trained there
        bandit_policy(agent, gymnasium.make(ENV_ID, board=board, flags=False))


@pytest.mark.parametrize("flags", [False, True])
def test_action_masks_is_the_info_mask_for_maskable_policies(flags):
    """sb3-contrib's MaskablePPO calls ``action_masks()`` on the env (through Gymnasium's wrappers)."""
    env = gymnasium.make(ENV_ID, board="8x8x10", flags=flags)
    with pytest.raises(RuntimeError, match="call reset"):
        env.unwrapped.action_masks()
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(200):
        masks = env.get_wrapper_attr("action_masks")()
        assert masks.dtype == bool and np.array_equal(masks, info["action_mask"].astype(bool))
        if info["status"] != "ongoing":
            assert not masks.any()
            obs, info = env.reset()
            continue
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(masks))))
