"""Deep RL on the same board (sweeper/experiments/deep_rl.py): the env works with Stable-Baselines3 and
sb3-contrib as it is, training is seeded, the test games' audit adds up. These need the optional extra
``deep`` (``make test-deep`` installs it and runs this file; ``make test`` skips them and says why, and
``SWEEPER_REQUIRE_DEEP=1`` makes a missing extra a failure)."""

import json
import warnings

import numpy as np
import pandas as pd
import pytest

from deep_extra import hide, need
from sweeper.experiments import deep_rl
from sweeper.experiments.runner import Task


def _extra():
    return need(deep_rl.require)


def test_a_missing_extra_is_a_clear_error(monkeypatch):
    hide(monkeypatch, "torch", "sb3_contrib", "stable_baselines3")
    with pytest.raises(ValueError, match="the optional extra 'deep' .*`make deep` installs it"):
        deep_rl.require()


def test_the_pins_agree_everywhere():
    from pathlib import Path
    import tomllib
    repo = Path(__file__).resolve().parents[1]
    listed = [ln.strip() for ln in (repo / "requirements-deep.txt").read_text().splitlines()
              if ln.strip() and not ln.startswith("#")]
    extra = tomllib.loads((repo / "pyproject.toml").read_text())["project"]["optional-dependencies"]["deep"]
    assert listed == extra == list(deep_rl.REQUIREMENTS)
    assert not any(ln.split("==")[0] in (repo / "requirements.txt").read_text() for ln in listed)


def test_the_env_passes_stable_baselines3s_checker():
    _extra()
    from stable_baselines3.common.env_checker import check_env
    from sweeper.running.env import MinesweeperEnv
    for flags in (False, True):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(MinesweeperEnv("8x8x10", flags=flags))
        assert [str(w.message) for w in caught if "sweeper" in str(w.filename)] == []


def test_maskable_ppo_takes_the_registered_env_without_a_wrapper():
    _extra()
    import gymnasium
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.env_util import make_vec_env
    from sweeper.running.env import ENV_ID
    env = make_vec_env(ENV_ID, n_envs=1, seed=0, env_kwargs={"board": "4x4x3"})
    assert is_masking_supported(env)
    env.reset()
    masks = get_action_masks(env)
    assert masks.shape == (1, 16) and masks.dtype == bool and masks.any()
    model = MaskablePPO("MlpPolicy", gymnasium.make(ENV_ID, board="4x4x3"), n_steps=64, batch_size=32, seed=0,
                        device="cpu")
    model.learn(128)
    assert model.num_timesteps >= 128


def test_the_same_seed_trains_the_same_network():
    _extra()
    runs = [deep_rl.deep_ppo_task("8x8x10", 1_024, seed=3, block=50, test_episodes=20, audit_games=5)
            for _ in range(2)]
    for name in ("curve", "tests"):
        pd.testing.assert_frame_equal(runs[0].tables[name].drop(columns="cpu_seconds", errors="ignore"),
                                      runs[1].tables[name].drop(columns="cpu_seconds", errors="ignore"))
    assert runs[0].info["steps"] >= 1_024 and runs[0].info["games"] == runs[0].tables["curve"]["episode"].iloc[-1]
    other = deep_rl.deep_ppo_task("8x8x10", 1_024, seed=4, block=50, test_episodes=20, audit_games=5)
    assert not other.tables["curve"]["block_wins"].equals(runs[0].tables["curve"]["block_wins"]) or \
        not other.tables["tests"].equals(runs[0].tables["tests"])


def test_the_audit_of_test_clicks_adds_up():
    _extra()
    model = deep_rl.make_model("8x8x10", seed=1)
    games, audit = deep_rl.test_games(model, "8x8x10", 12, seed=5, audit_games=6)
    assert len(games) == 12 and games["steps"].ge(1).all()
    assert audit["decisions"] == games["steps"].iloc[:6].sum()
    assert audit["clicked_safe_known"] + audit["clicked_known_mine"] + audit["guesses"] == audit["decisions"]
    assert audit["guesses_with_safe_known"] <= min(audit["guesses"], audit["safe_known"])


def test_bad_arguments_are_refused():
    _extra()
    with pytest.raises(ValueError, match="kernel must be 3"):
        deep_rl.make_model("8x8x10", kernel=4)
    assert np.isclose(deep_rl.curve_table([(True, 5, 0.1), (False, 9, 0.2)], 1)["cum_win_rate"].iloc[-1], 0.5)


def test_the_tile_policy_shares_the_neural_bandits_trunk_and_keeps_checkpoints(tmp_path):
    """policy="tiles": the features are the neural bandit's trunk (the same weights' names and shapes, 13 codes in),
    one logit per tile; the checkpoints are tested on the task's own test boards, the last being its end."""
    _extra()
    from sweeper.agents.neural import NeuralAgent
    model = deep_rl.make_model("8x8x10", seed=2, policy="tiles")
    trunk = {k.split("trunk.", 1)[1]: v.shape for k, v in model.policy.state_dict().items()
             if k.startswith("features_extractor.trunk.")}
    bandit = {k: v.shape for k, v in NeuralAgent(seed=1).net.state_dict().items() if not k.startswith("head.")}
    assert trunk.keys() == bandit.keys() and trunk["inp.weight"][1] == deep_rl.CODES
    assert all(trunk[k] == bandit[k] for k in trunk if k != "inp.weight")
    assert model.policy.action_net(torch_zeros(model)).shape == (1, 64)
    out = deep_rl.deep_ppo_task("8x8x10", 600, seed=3, block=20, test_episodes=15, audit_games=3, policy="tiles",
                                checkpoints=[256])
    points, tests = out.tables["checkpoints"], out.tables["tests"]
    assert points["steps"].tolist()[0] >= 256 and points["steps"].iloc[-1] == out.info["steps"]
    assert points["wins"].iloc[-1] == tests["won"].sum() and points["test_games"].eq(15).all()
    assert points["revealed"].iloc[-1] == pytest.approx(tests["revealed"].mean())
    hp = out.info["hyperparameters"]
    assert hp["policy"] == "TilePolicy" and hp["n_epochs"] == 10 and hp["rewards"]["reveal"] == pytest.approx(1 / 54)
    from sweeper.experiments.runner import Store, provenance
    store = Store(str(tmp_path))
    task = Task.make("deep_ppo", board="8x8x10", steps=600, seed=3, policy="tiles", checkpoints=[256])
    store.save(task, out, 1.0, provenance())
    assert store.load(task).info["hyperparameters"] == hp
    with pytest.raises(ValueError, match="checkpoints must increase"):
        deep_rl.deep_ppo_task("8x8x10", 600, seed=3, policy="tiles", checkpoints=[700])
    with pytest.raises(ValueError, match="policy must be one of"):
        deep_rl.make_model("8x8x10", policy="mlp")
    with pytest.raises(ValueError, match="tiles policy"):
        deep_rl.make_model("8x8x10", kernel=5, policy="tiles")


def torch_zeros(model):
    import torch
    return torch.zeros(1, model.policy.features_extractor.features_dim)


def test_the_random_floor_plays_the_same_boards_and_is_audited():
    _extra()
    out = deep_rl.deep_random_task("8x8x10", seed=2, test_episodes=30, audit_games=5)
    again = deep_rl.deep_random_task("8x8x10", seed=2, test_episodes=30, audit_games=5)
    pd.testing.assert_frame_equal(out.tables["tests"], again.tables["tests"])
    a = {k[len("audit_"):-len("_8x8x10")]: v for k, v in out.info.items() if k.startswith("audit_")}
    assert a["decisions"] == out.tables["tests"]["steps"].iloc[:5].sum()
    assert a["clicked_safe_known"] + a["clicked_known_mine"] + a["guesses"] == a["decisions"]


def test_a_ppo_policy_file_plays_as_the_trained_policy_and_runs_no_code(tmp_path):
    """Issue 48: a trained policy is kept as plain data (weights and JSON), loaded without unpickling anything, and
    plays the very clicks of the policy it was saved from; the benchmark scores it from the file."""
    _extra()
    from sweeper.experiments.benchmark import resolve_agent, score
    from sweeper.game.engine import Game
    policy, facts = deep_rl.train_ppo("8x8x10", 256, seed=2, policy="tiles")
    assert facts["steps"] >= 256 and facts["train_cpu_seconds"] > 0
    path = tmp_path / "ppo.npz"
    np.savez_compressed(path, **facts["arrays"])
    back = resolve_agent(str(path))
    assert isinstance(back, deep_rl.PPOPolicy) and back.meta["policy"] == "tiles" and back.board == "8x8x10"
    for seed in range(5):
        view = Game("8x8x10", seed=seed).view
        assert back(view) == policy(view)
    s = score(back, "beginner", games=6, regret_games=2)
    assert s.summary()["games"] == 6
    with pytest.raises(ValueError, match="plays 8x8x10 boards only"):
        back(np.full((16, 16), 9))
    meta = json.loads(str(facts["arrays"]["metadata"]))
    bad = {**facts["arrays"], "metadata": np.array(json.dumps({**meta, "policy": "mlp"}))}
    np.savez_compressed(tmp_path / "bad.npz", **bad)
    with pytest.raises(ValueError, match="a policy of"):
        deep_rl.load_ppo(tmp_path / "bad.npz")
    with pytest.raises(ValueError, match="is neither a bandit agent file .* nor a neural bandit file .* nor a PPO"):
        resolve_agent(str(tmp_path / "bad.npz"))


def test_the_leaderboards_ppo_run_keeps_its_policy_and_verifies(tmp_path):
    _extra()
    from sweeper.experiments import specs
    from sweeper.experiments.runner import Store, run_tasks
    from sweeper.experiments.verify import select, verify
    tasks = specs.all_tasks(["ext:benchmark_ppo"], "quick")
    assert {t.params["agent"] for t in tasks} == {"ppo:tiles", "ppo:cnn"}
    assert all(t.params["test"]["levels"] == ["beginner"] for t in tasks)
    store = Store(tmp_path)
    run_tasks(tasks[:1], store, progress=False)
    out = store.load(tasks[0])
    assert out.info["kind"] == "PPO" and out.info["train_cpu_seconds"] > 0 and "policy" in out.arrays
    assert list(out.tables["scores"]["level"]) == ["beginner"]
    v = verify(store, select(store, every=True), log=lambda *_: None)
    assert [x.status for x in v] == ["identical"], v[0].line()
