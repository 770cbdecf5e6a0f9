"""Deep RL on the paper's board: MaskablePPO with a small convolutional network, as a stored experiment.

The optional extra ``deep`` (``make deep``; torch, Stable-Baselines3 and sb3-contrib, about 860 MB) is
needed to *train*; the book reads the stored results and builds without it.

The agent sees what the bandit agent sees, the player's view of the board (``sweeper/Minesweeper-v0``, the
paper's reference opening, clicks only), one-hot coded per cell (13 codes), through two convolutions
(``kernel`` x ``kernel`` then 3 x 3, 32 channels, the board's size kept) and a linear layer; MaskablePPO
(sb3-contrib) acts only on covered tiles, through the env's :meth:`~sweeper.running.env.MinesweeperEnv.action_masks`.
Training is single-threaded and seeded, its budget a number of environment steps (the same seed gives the
same network); the curve records, per block of games, the wins, the steps and the process CPU seconds, so
that it can be drawn against games and against CPU time beside the bandit agents' curves.

Test games are frozen: the network's most probable valid click (``deterministic=True``), on boards of the
test seed. For the first ``audit_games`` of them each click is scored against the exact mine probabilities
(:func:`sweeper.game.probability.mine_probabilities`), like the bandit audit's decisions: was a tile known
to be safe on offer, and did the network click one?

A Stable-Baselines3 file is a pickle, which this package never writes or reads (saved results are plain data).
A trained policy is kept instead as a PPO policy file (:func:`policy_arrays`, :func:`load_ppo`): an ``.npz`` of
the policy's float32 weights, named as in its ``state_dict``, and one JSON string ``metadata`` with exactly the
fields :data:`PPO_FIELDS` (``format`` ``"bandit-sweeper-ppo"``, ``version`` 1, ``policy`` (:data:`POLICIES`),
``kernel``, ``board``, ``seed``, ``steps`` and ``games`` of training). Loading checks the metadata, rebuilds the
policy's modules from it and checks every array's name, shape and dtype from the ``.npy`` headers before reading
any weight (:func:`sweeper.agents.neural.read_weights`): it runs no code from the file.
"""

from __future__ import annotations

import copy
import json
import time

import numpy as np
import pandas as pd

from ..agents.neural import REQUIREMENTS, import_extra, tile_trunk  # noqa: F401  (REQUIREMENTS: what `make deep` installs)
from ..game.engine import Setting
from ..game.probability import mine_probabilities
from ..rng import held_out_seed
from ..running.env import MinesweeperEnv, action_mask
from ..running.policies import random_policy, run_episodes
from .runner import Output, Task, task_kind

#: Cell codes of the observation (0-8 numbers, covered, flagged, exploded, and one spare).
CODES = 13


def require():
    """The optional modules ``(torch, MaskablePPO, BaseFeaturesExtractor, BaseCallback)``, or a clear error."""
    torch, contrib, callbacks, layers = import_extra("deep RL", "torch", "sb3_contrib",
                                                     "stable_baselines3.common.callbacks",
                                                     "stable_baselines3.common.torch_layers")
    return torch, contrib.MaskablePPO, layers.BaseFeaturesExtractor, callbacks.BaseCallback


def _extractor_class():
    torch, _, BaseFeaturesExtractor, _ = require()
    nn = torch.nn

    class BoardCNN(BaseFeaturesExtractor):
        """One-hot cells -> conv(kernel) -> ReLU -> conv(3) -> ReLU -> linear(features) -> ReLU."""

        def __init__(self, observation_space, kernel: int = 3, channels: int = 32, features: int = 256):
            super().__init__(observation_space, features)
            rows, cols = observation_space.shape
            self.net = nn.Sequential(
                nn.Conv2d(CODES, channels, kernel, padding=kernel // 2), nn.ReLU(),
                nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(), nn.Flatten(),
                nn.Linear(channels * rows * cols, features), nn.ReLU())

        def forward(self, obs):
            cells = torch.nn.functional.one_hot(obs.long().clamp(0, CODES - 1), CODES)
            return self.net(cells.permute(0, 3, 1, 2).float())

    return BoardCNN


def _tile_classes():
    """The per-tile policy: the neural bandit's trunk (:func:`sweeper.agents.neural.tile_trunk`) as the features
    extractor, a 1x1 convolution giving each tile its action logit (the bandit's head, read as a policy), and the
    value as a linear function of the features averaged over the tiles."""
    torch, _, BaseFeaturesExtractor, _ = require()
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    nn = torch.nn

    class TileFeatures(BaseFeaturesExtractor):
        """One-hot cells -> the trunk -> per-tile features, flattened (the policy's heads unflatten them)."""

        def __init__(self, observation_space, channels: int = 32, layers: int = 5):
            rows, cols = observation_space.shape
            super().__init__(observation_space, channels * rows * cols)
            self.shape = (channels, rows, cols)
            self.trunk = tile_trunk(torch, CODES, channels, layers)

        def forward(self, obs):
            cells = torch.nn.functional.one_hot(obs.long().clamp(0, CODES - 1), CODES)
            return self.trunk(cells.permute(0, 3, 1, 2).float()).flatten(1)

    class TileLogits(nn.Module):
        def __init__(self, shape):
            super().__init__()
            self.shape, self.conv = shape, nn.Conv2d(shape[0], 1, 1)

        def forward(self, latent):
            return self.conv(latent.view(-1, *self.shape)).flatten(1)

    class TileValue(nn.Module):
        def __init__(self, shape):
            super().__init__()
            self.shape, self.linear = shape, nn.Linear(shape[0], 1)

        def forward(self, latent):
            return self.linear(latent.view(-1, *self.shape).mean(dim=(2, 3)))

    class TilePolicy(MaskableActorCriticPolicy):
        """MaskablePPO's actor-critic with per-tile heads over the shared trunk (``net_arch=[]``: no MLP)."""

        def _build(self, lr_schedule):
            super()._build(lr_schedule)
            shape = self.features_extractor.shape
            self.action_net, self.value_net = TileLogits(shape), TileValue(shape)
            if self.ortho_init:  # as the parent: small initial logits, unit gain for the value
                self.action_net.apply(lambda m: self.init_weights(m, gain=0.01))
                self.value_net.apply(lambda m: self.init_weights(m, gain=1.0))
            self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    return TileFeatures, TilePolicy


#: The policies of the deep-RL experiment: ``cnn`` (two convolutions then a dense layer, the first version of
#: the chapter) and ``tiles`` (the neural bandit's fully convolutional trunk with a logit per tile).
POLICIES = ("cnn", "tiles")


def make_model(board="8x8x10", seed: int = 1, kernel: int = 3, rewards="progress", n_steps: int = 1024,
               batch_size: int = 256, policy: str = "cnn"):
    """A MaskablePPO agent on ``board`` (one env, single-threaded, on the CPU) with the policy ``policy``
    (:data:`POLICIES`): ``cnn``, :class:`BoardCNN` whose first kernel is ``kernel``, or ``tiles``, the neural
    bandit's trunk (32 channels, 5 layers) with a logit per tile (``kernel`` must then stay 3)."""
    torch, MaskablePPO, _, _ = require()
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {POLICIES}, got {policy!r}")
    if kernel not in (3, 5):
        raise ValueError(f"kernel must be 3 (the paper's window) or 5, got {kernel!r}")
    if policy == "tiles" and kernel != 3:
        raise ValueError("kernel sets the cnn policy's first convolution; the tiles policy's are all 3x3")
    torch.set_num_threads(1)
    env = MinesweeperEnv(board, rewards=rewards)
    if policy == "tiles":
        features, tile_policy = _tile_classes()
        return MaskablePPO(tile_policy, env, seed=seed, device="cpu", n_steps=n_steps, batch_size=batch_size,
                           policy_kwargs={"features_extractor_class": features, "net_arch": []}, verbose=0)
    return MaskablePPO("MlpPolicy", env, seed=seed, device="cpu", n_steps=n_steps, batch_size=batch_size,
                       policy_kwargs={"features_extractor_class": _extractor_class(),
                                      "features_extractor_kwargs": {"kernel": kernel}, "net_arch": [64]},
                       verbose=0)


def _curve_callback(block: int):
    _, _, _, BaseCallback = require()

    class Curve(BaseCallback):
        """Every finished training game: won or not, and the steps and CPU seconds so far."""

        def __init__(self):
            super().__init__()
            self.rows = []
            self.cpu0 = time.process_time()

        def _on_step(self) -> bool:
            for info, done in zip(self.locals["infos"], self.locals["dones"]):
                if done:
                    self.rows.append((info["status"] == "won", self.num_timesteps, time.process_time() - self.cpu0))
            return True

    return Curve()


def curve_table(rows, block: int) -> pd.DataFrame:
    """Finished games ``(won, steps, cpu seconds)`` -> per block of games: games so far, wins, steps, CPU s."""
    if not rows:
        return pd.DataFrame(columns=["episode", "block_wins", "block_games", "cum_wins", "cum_win_rate",
                                     "block_win_rate", "steps", "cpu_seconds"])
    won = np.array([r[0] for r in rows], dtype=bool)
    ends = np.minimum(np.arange(block, len(rows) + block, block), len(rows))
    starts = np.concatenate([[0], ends[:-1]])
    wins = np.array([won[a:b].sum() for a, b in zip(starts, ends)])
    t = pd.DataFrame({"episode": ends, "block_wins": wins, "block_games": ends - starts,
                      "cum_wins": np.cumsum(wins), "steps": [rows[e - 1][1] for e in ends],
                      "cpu_seconds": [rows[e - 1][2] for e in ends]})
    t["cum_win_rate"] = t["cum_wins"] / t["episode"]
    t["block_win_rate"] = t["block_wins"] / t["block_games"]
    return t


class AuditedPolicy:
    """A policy of :func:`~sweeper.running.policies.run_episodes` (the one Gymnasium loop) whose clicks in the
    first ``audit_games`` games are scored against the exact mine probabilities into ``audit`` (see
    :func:`test_games`): ``choose(obs) -> action`` is the player (a frozen model's most probable valid click, or
    random clicks)."""

    def __init__(self, choose, mines: int, audit_games: int = 0):
        self.choose, self.mines, self.audit_games, self.game = choose, mines, audit_games, -1
        self.audit = dict(decisions=0, safe_known=0, clicked_safe_known=0, clicked_known_mine=0, guesses=0,
                          guesses_with_safe_known=0)

    def reset(self):
        self.game += 1
        if hasattr(self.choose, "reset"):
            self.choose.reset()

    def __call__(self, obs) -> int:
        action = int(self.choose(obs))
        if self.game < self.audit_games:
            a = self.audit
            p = mine_probabilities(obs, self.mines).ravel()
            covered = ~np.isnan(p)
            known = covered & (p <= 1e-12)
            a["decisions"] += 1
            a["safe_known"] += bool(known.any())
            a["clicked_safe_known"] += bool(known[action])
            a["clicked_known_mine"] += bool(p[action] >= 1 - 1e-12)
            guess = 1e-12 < p[action] < 1 - 1e-12
            a["guesses"] += bool(guess)
            a["guesses_with_safe_known"] += bool(guess and known.any())
        return action


def frozen_choice(model):
    """``obs -> action``: ``model``'s most probable valid click."""
    def choose(obs):
        action, _ = model.predict(obs, action_masks=action_mask(obs).astype(bool), deterministic=True)
        return int(action)
    return choose


def test_games(model, board: str, games: int, seed: int, audit_games: int = 0) -> tuple[pd.DataFrame, dict]:
    """Frozen test games of ``model`` (its most probable valid click; or, with ``model=None``, uniformly random
    valid clicks drawn on the seed's agent stream), played by :func:`~sweeper.running.policies.run_episodes`: per
    game ``won``, ``steps`` and ``revealed`` (safe tiles revealed); and, over the first ``audit_games`` games, every
    click scored against the exact mine probabilities (``decisions``, ``safe_known``: a tile known to be safe was
    on offer, ``clicked_safe_known``, ``clicked_known_mine``, ``guesses``: clicks on a tile neither known safe nor
    known mine)."""
    choose = random_policy(seed) if model is None else frozen_choice(model)
    policy = AuditedPolicy(choose, Setting.parse(board).mines, audit_games)
    played = run_episodes(MinesweeperEnv(board), policy, games, seed)
    table = pd.DataFrame({"won": [bool(e["won"]) for e in played], "steps": [int(e["steps"]) for e in played],
                          "revealed": [int(e["revealed"]) for e in played]})
    return table, policy.audit


def _snapshots_callback(at):
    """A callback that keeps a copy of the policy's weights, with the games, steps and CPU seconds so far, when
    training passes each of ``at`` (environment steps)."""
    _, _, _, BaseCallback = require()

    class Snapshots(BaseCallback):
        def __init__(self):
            super().__init__()
            self.todo, self.taken, self.games, self.cpu0 = list(at), [], 0, time.process_time()

        def _on_step(self) -> bool:
            self.games += int(sum(self.locals["dones"]))
            if self.todo and self.num_timesteps >= self.todo[0]:
                self.todo.pop(0)
                self.taken.append({"steps": int(self.num_timesteps), "games": self.games,
                                   "cpu_seconds": time.process_time() - self.cpu0,
                                   "weights": copy.deepcopy(self.model.policy.state_dict())})
            return True

    return Snapshots()


def _test_rows(model, tests, test_episodes, seed, audit_games, out):
    rows = []
    for i, test in enumerate(tests):
        t0 = time.process_time()
        games, audit = test_games(model, test, test_episodes, held_out_seed(seed, i), audit_games)
        rows.append(games.assign(test=test))
        out.info[f"test_cpu_seconds_{test}"] = time.process_time() - t0
        out.info.update({f"audit_{k}_{test}": v for k, v in audit.items()})
    return pd.concat(rows, ignore_index=True)


@task_kind("deep_ppo", small=lambda: Task.make("deep_ppo", board="8x8x10", steps=512, seed=3, block=50,
                                               tests=["8x8x10"], test_episodes=5, audit_games=2))
def deep_ppo_task(board: str, steps: int, seed: int, kernel: int = 3, block: int = 1_000, tests=("8x8x10",),
                  test_episodes: int = 1_000, audit_games: int = 200, policy: str = "cnn", checkpoints=()) -> Output:
    """Train MaskablePPO with ``policy`` (:data:`POLICIES`) for ``steps`` environment steps on ``board`` (seed
    ``seed``), then test it frozen on each of ``tests`` (``test_episodes`` games, seed ``held_out_seed(seed, i)``,
    the bandit tasks' test seeds). At each of ``checkpoints`` (steps, increasing, below ``steps``) the policy is
    also kept and tested the same way on ``board``: the table ``checkpoints`` (steps, games and CPU seconds of
    training so far, wins, games and safe tiles revealed per game), of which the end of training is the last
    row."""
    at = [int(c) for c in checkpoints]
    if any(not 0 < c < steps for c in at) or at != sorted(set(at)):
        raise ValueError(f"checkpoints must increase strictly and lie between 0 and steps ({steps}), got {at}")
    model = make_model(board, seed, kernel, policy=policy)
    curve, snaps = _curve_callback(block), _snapshots_callback(at)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    model.learn(total_timesteps=steps, callback=[curve, snaps])
    train_cpu, train_wall = time.process_time() - cpu0, time.perf_counter() - wall0
    out = Output(tables={"curve": curve_table(curve.rows, block)})
    out.tables["tests"] = _test_rows(model, tests, test_episodes, seed, audit_games, out)
    if at:
        final = copy.deepcopy(model.policy.state_dict())
        points = snaps.taken + [{"steps": int(model.num_timesteps), "games": len(curve.rows),
                                 "cpu_seconds": train_cpu, "weights": None}]
        rows = []
        tested = out.tables["tests"]
        for point in points:
            weights = point.pop("weights")
            if weights is None and board in tests and list(tests).index(board) == 0:
                games = tested[tested["test"] == board]  # the end of training: its test games on these boards
            else:
                model.policy.load_state_dict(final if weights is None else weights)
                games, _ = test_games(model, board, test_episodes, held_out_seed(seed, 0))
            rows.append({**point, "test_games": len(games), "wins": int(games["won"].sum()),
                         "revealed": float(games["revealed"].mean())})
        out.tables["checkpoints"] = pd.DataFrame(rows)
    torch = require()[0]
    out.info.update(train_cpu_seconds=train_cpu, train_wall_seconds=train_wall, steps=int(model.num_timesteps),
                    games=len(curve.rows), wins=int(sum(r[0] for r in curve.rows)),
                    parameters=int(sum(p.numel() for p in model.policy.parameters())),
                    torch=torch.__version__, steps_per_cpu_second=model.num_timesteps / max(train_cpu, 1e-9),
                    hyperparameters=hyperparameters(model))
    return out


def hyperparameters(model) -> dict:
    """What the page shows of a trained MaskablePPO: its policy, PPO's settings as the model holds them, and the
    rewards of its env (plain numbers and strings)."""
    env = model.get_env().envs[0].unwrapped
    value = lambda v: float(v(1.0)) if callable(v) else float(v)  # noqa: E731 (a schedule: its initial value)
    return {"policy": type(model.policy).__name__, "n_steps": int(model.n_steps), "batch_size": int(model.batch_size),
            "n_epochs": int(model.n_epochs), "learning_rate": value(model.learning_rate), "gamma": float(model.gamma),
            "gae_lambda": float(model.gae_lambda), "clip_range": value(model.clip_range),
            "ent_coef": float(model.ent_coef), "vf_coef": float(model.vf_coef),
            "rewards": {k: float(getattr(env.rewards, k)) for k in ("win", "loss", "reveal", "invalid", "step")}}


# ------------------------------------------------------------------ the policy file --

PPO_FORMAT = "bandit-sweeper-ppo"
PPO_FIELDS = ("format", "version", "policy", "kernel", "board", "seed", "steps", "games")


def policy_arrays(model, board: str, policy: str, kernel: int, seed: int, games: int) -> dict:
    """The arrays of a PPO policy file of ``model`` (see the module docstring), in file order
    (``np.savez_compressed(file, **policy_arrays(...))``)."""
    meta = {"format": PPO_FORMAT, "version": 1, "policy": policy, "kernel": int(kernel),
            "board": str(Setting.parse(board)), "seed": int(seed), "steps": int(model.num_timesteps),
            "games": int(games)}
    arrays = {k: v.detach().numpy().astype("<f4") for k, v in model.policy.state_dict().items()}
    return {**arrays, "metadata": np.array(json.dumps(meta))}


def _check_ppo_metadata(meta, path) -> dict:
    from ..agents.neural import check_format
    check_format(meta, path, PPO_FORMAT, PPO_FIELDS)
    if meta["version"] != 1 or meta["policy"] not in POLICIES or meta["kernel"] not in (3, 5):
        raise ValueError(f"{path}: metadata must have version 1, a policy of {POLICIES} and a kernel of 3 or 5, got "
                         f"{meta['version']!r}, {meta['policy']!r} and {meta['kernel']!r}")
    for f in ("seed", "steps", "games"):
        if isinstance(meta[f], bool) or not isinstance(meta[f], int) or not 0 <= meta[f] < 2 ** 63:
            raise ValueError(f"{path}: metadata field {f!r} must be a whole number, got {meta[f]!r}")
    try:
        Setting.parse(meta["board"])
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{path}: metadata field 'board' is not a board ({exc})") from None
    return meta


class PPOPolicy:
    """A trained MaskablePPO policy, frozen, as a policy of the benchmark and of
    :func:`~sweeper.running.policies.run_episodes`: ``policy(view)`` is its most probable click on a covered tile
    (an index ``row * cols + col``) of a board of its own size (``board``). ``meta``: its file's metadata."""

    def __init__(self, model, meta: dict):
        self.model, self.meta, self.board = model, meta, meta["board"]
        self.shape = Setting.parse(self.board).rows, Setting.parse(self.board).cols
        self.choose = frozen_choice(model)
        self.__name__ = f"ppo-{meta['policy']} ({self.board}, seed {meta['seed']})"

    def __call__(self, view) -> int:
        view = np.asarray(view)
        if view.shape != self.shape:
            raise ValueError(f"this PPO policy plays {self.board} boards only (its network is sized for "
                             f"{self.shape[0]}x{self.shape[1]}), got a view of shape {view.shape}")
        return self.choose(view)


def load_ppo(path) -> PPOPolicy:
    """The frozen policy of a PPO policy file (see the module docstring; needs the extra ``deep``), every part
    checked before a weight is read; a file that is not one is refused with a ``ValueError`` naming it."""
    from ..agents.neural import read_weights
    made = {}

    def shapes(meta):
        made["model"] = make_model(meta["board"], meta["seed"], meta["kernel"], policy=meta["policy"])
        return {k: v.shape for k, v in made["model"].policy.state_dict().items()}

    meta, arrays = read_weights(path, "PPO policy", _check_ppo_metadata, shapes)
    torch = require()[0]
    model = made["model"]
    model.policy.load_state_dict({k: torch.from_numpy(v.copy()) for k, v in arrays.items()})
    model.policy.set_training_mode(False)
    return PPOPolicy(model, meta)


def train_ppo(board: str, steps: int, seed: int, policy: str = "tiles", kernel: int = 3) -> tuple:
    """Train MaskablePPO as the deep-RL chapter does (:func:`make_model`, one thread) for ``steps`` environment
    steps: ``(PPOPolicy, facts)``, facts holding the games, the steps and the process CPU seconds of the training
    alone."""
    model = make_model(board, seed, kernel, policy=policy)
    curve = _curve_callback(1)
    cpu0 = time.process_time()
    model.learn(total_timesteps=steps, callback=[curve])
    cpu = time.process_time() - cpu0
    arrays = policy_arrays(model, board, policy, kernel, seed, len(curve.rows))
    meta = json.loads(str(arrays["metadata"]))
    return PPOPolicy(model, meta), {"games": len(curve.rows), "steps": int(model.num_timesteps),
                                    "train_cpu_seconds": cpu, "arrays": arrays}


@task_kind("deep_random", games=lambda p: p["test_episodes"],
           small=lambda: Task.make("deep_random", board="8x8x10", seed=1, tests=["8x8x10"], test_episodes=5,
                                   audit_games=2))
def deep_random_task(board: str, seed: int, tests=("8x8x10",), test_episodes: int = 1_000,
                     audit_games: int = 200) -> Output:
    """The floor of the deep-RL chapter: uniformly random valid clicks on the test boards of ``deep_ppo`` tasks
    with the same ``seed`` (the same games, played through the same env and loop), audited the same way."""
    out = Output()
    out.tables["tests"] = _test_rows(None, tests, test_episodes, seed, audit_games, out)
    return out


# ------------------------------------------------------------------ the spec ext:deep_rl --

#: The CNN policy's training budgets in environment steps per scale: at paper scale about 6 minutes of one CPU core
#: on this machine class (about 160 steps per CPU second, measured by the stored runs; a budget of 360,000 steps,
#: about 37 minutes each, was dropped before its runs were made); ``ext:deep_rl`` needs the extra ``deep``.
DEEP_RL_STEPS = {"paper": (60_000,), "quick": (2_048,)}


#: The per-tile policy's budget (the neural bandit's trunk and a logit per tile, ``policy="tiles"``): environment
#: steps and the checkpoints tested on the way, chosen from its measured speed (about 106 steps per CPU second on
#: this machine class) to match the neural bandit's checkpoints at about 2.5, 8 and 25 CPU minutes on beginner.
DEEP_RL_TILES = {"paper": {"steps": 160_000, "checkpoints": (16_000, 48_000)},
                 "quick": {"steps": 1_024, "checkpoints": (512,)}}


def deep_rl_tasks(sc, seeds):
    test = sc.test // 10 if sc.name == "paper" else 50
    def task(steps, seed, kernel=3):
        extra = {} if kernel == 3 else {"kernel": kernel}  # the default keeps the ids of the first runs
        return Task.make("deep_ppo", board="8x8x10", steps=steps, seed=seed, block=1_000, tests=["8x8x10"],
                         test_episodes=test, audit_games=min(200, test), cost=steps * 20.0,
                         label=f"MaskablePPO (CNN{'' if kernel == 3 else f', first kernel {kernel}'}) on 8x8x10, "
                               f"{steps:,} steps, seed {seed}",
                         **extra)

    shortest, tiles = DEEP_RL_STEPS[sc.name][0], DEEP_RL_TILES[sc.name]
    return ([task(steps, s) for steps in DEEP_RL_STEPS[sc.name] for s in seeds]
            + [task(shortest, s, kernel=5) for s in seeds]  # the chapter's exercise: a wider first view
            + [Task.make("deep_ppo", board="8x8x10", steps=tiles["steps"], seed=s, block=1_000, tests=["8x8x10"],
                         test_episodes=test, audit_games=min(200, test), policy="tiles",
                         checkpoints=list(tiles["checkpoints"]), cost=tiles["steps"] * 120.0,
                         label=f"MaskablePPO (the neural bandit's trunk, a logit per tile) on 8x8x10, "
                               f"{tiles['steps']:,} steps, seed {s}") for s in seeds]
            + [Task.make("deep_random", board="8x8x10", seed=s, tests=["8x8x10"], test_episodes=test,
                         audit_games=min(200, test), cost=test * 10.0,
                         label=f"random valid clicks on the deep-RL test boards, seed {s}") for s in seeds])
