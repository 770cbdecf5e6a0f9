"""Players of :class:`~sweeper.running.env.MinesweeperEnv`: policies ``obs -> action`` and the episode loop.

* :func:`solver_action` / :func:`solver_policy`: the exact-probability solver's
  choice (lowest mine probability, :mod:`sweeper.running.players`'s tie-break);
* :class:`BanditPolicy` / :func:`bandit_policy`: a trained bandit agent of any
  kind (greedy, epsilon-greedy, UCB, Thompson, state-action, a plug-in rule)
  deciding through the agents' own kernels, never learning;
* :class:`NeuralPolicy` / :func:`neural_policy`: a trained neural bandit (:mod:`sweeper.agents.neural`; needs
  the optional extra ``deep``), greedy, never learning;
* :func:`random_policy`: uniformly random valid clicks (the floor);
* :func:`run_episodes`: the standard Gymnasium loop, one result per episode.
"""

from __future__ import annotations

import numpy as np

from ..agents import custom
from ..agents.kinds import Agent, RuleAgent, StateAction
from ..agents.kernels import choose, new_cache, refresh
from ..agents.loop import check_rule, give_up_choice
from ..agents.neural import as_neural
from ..checks import whole
from ..game.engine import ND, NFL, Setting, new_board, set_flag
from ..game.probability import mine_probabilities
from ..game.grid import COVERED, EXPLODED, FLAG, pad_view, padded_offsets, tile_of
from ..rng import streams
from .env import MinesweeperEnv
from .players import lowest_tile, random_tile  # the solver's own tie-break; the floor's draw

__all__ = ["BanditPolicy", "bandit_policy", "NeuralPolicy", "neural_policy", "random_policy", "run_episodes",
           "solver_action", "solver_policy"]


def _as_view(obs, setting: Setting | None = None) -> np.ndarray:
    obs = np.asarray(obs)
    if obs.ndim != 2 or obs.size == 0 or not np.issubdtype(obs.dtype, np.integer):
        raise ValueError(f"an observation is a non-empty 2-D integer array, got {obs.dtype} of shape {obs.shape}")
    if setting is not None and obs.shape != (setting.rows, setting.cols):
        raise ValueError(f"observation shape {obs.shape} does not match the board {setting}")
    if (obs == EXPLODED).any():
        raise ValueError("the game is over (lost): call env.reset()")
    if ((obs < 0) | (obs > FLAG)).any():
        raise ValueError(f"observation cells must be 0-8, {COVERED} (covered) or {FLAG} (flagged)")
    return obs


def solver_action(obs, mines: int) -> int:
    """The exact solver's click on observation ``obs`` of a board with ``mines`` mines.

    The covered, unflagged tile of lowest exact mine probability
    (:func:`sweeper.game.probability.mine_probabilities`; flags are read as covered tiles),
    ties broken by the solver's own tie-break (fewest covered neighbours, then
    row-major). Returns the action ``r*cols + c`` (a click in both action layouts).

    Playing this in a loop is the solver of :func:`sweeper.running.players.play_solver`
    move by move (that one clicks all the zero-probability tiles of a turn in
    row-major order before recomputing; the guesses follow the same tie-break)."""
    view = _as_view(obs)
    rows, cols = view.shape
    prob = mine_probabilities(view, mines)
    padded = np.full((rows + 2, cols + 2), np.nan)
    padded[1:-1, 1:-1] = prob
    tiles = np.array([(r + 1) * (cols + 2) + c + 1 for r in range(rows) for c in range(cols)], dtype=np.int64)
    off8, _ = padded_offsets(cols)
    p = int(lowest_tile(pad_view(view), tiles, padded.ravel(), off8))
    if p < 0:
        raise ValueError("no covered, unflagged tile to click")
    return (p // (cols + 2) - 1) * cols + p % (cols + 2) - 1


def solver_policy(mines) -> callable:
    """``obs -> action`` playing :func:`solver_action`; ``mines`` is the mine count or the env."""
    if not isinstance(mines, (int, np.integer)):
        mines = mines.unwrapped.setting.mines
    k = whole(mines, "mines", 0)
    return lambda obs: solver_action(obs, k)


def random_policy(seed: int = 0) -> callable:
    """``obs -> action``: a uniformly random covered, unflagged tile clicked (the floor),
    drawn like :func:`sweeper.running.players.play_random` (``below`` on the seed's agent stream)."""
    rng = streams(seed).agent

    def policy(obs):
        view = _as_view(obs)
        rows, cols = view.shape
        if not (view == COVERED).any():
            raise ValueError("no covered, unflagged tile to click")
        tiles = np.array([(r + 1) * (cols + 2) + c + 1 for r in range(rows) for c in range(cols)], dtype=np.int64)
        p = int(random_tile(pad_view(view), tiles, rng))
        return (p // (cols + 2) - 1) * cols + p % (cols + 2) - 1

    return policy


class BanditPolicy:
    """A trained bandit agent playing :class:`~sweeper.running.env.MinesweeperEnv`: ``policy(obs) -> action``.

    Each decision runs the agents' own kernels of :mod:`sweeper.agents.kernels` on the
    observation: ``refresh`` (window keys, Q and N from the agent's table),
    ``choose`` (the agent's own choice, whatever its kind: greedy, epsilon-greedy, UCB,
    Thompson, state-action, or a plug-in rule with its own random stream) and
    ``give_up_choice`` (the flag given up when flags exceed mines). The agent
    never learns here: the policy plays a private copy of it (``learn=False``), so
    the agent you pass is unchanged. Fed the same boards (``options={"mines": m}``
    or ``{"board_seed": s}``), the policy with seed ``seed`` plays exactly the games
    of ``evaluate(agent, board, layouts=..., seed=seed, freeze=True)``.

    Flags are the agent's, as trained:

    * an agent with visible flags (``flags=True``, the paper's) needs an environment
      with flag actions (``MinesweeperEnv(..., flags=True)``): its flags are placed
      on the board; when flags exceed mines, the kernels remove one flag and
      clicks that tile: two env steps. In an environment without flag actions it
      could not play as trained, so it is refused (``ValueError``).
    * an agent with private marks (``flags=False``) plays in either environment:
      its marks take no env step, its windows never see them, and a mark that must
      be given up is clicked at once.

    The policy keeps a little per-game memory (marks, the click after a forced
    flag removal): call :meth:`reset` at each new episode (:func:`run_episodes`
    does). A plug-in rule that fails raises :class:`~sweeper.agents.custom.RuleError`.
    """

    def __init__(self, agent, env, seed: int = 0):
        base = getattr(env, "unwrapped", env)
        if not isinstance(base, MinesweeperEnv):
            raise ValueError("env must be a MinesweeperEnv (or a wrapper of one)")
        if not isinstance(agent, Agent):
            raise ValueError("agent must be an Agent (see sweeper.make_agent)")
        self.setting = base.setting
        if isinstance(agent, StateAction):
            agent.claim([self.setting], adopt=False)  # the board fits its table (it plays a frozen copy)
        if agent.flags and not base.flags:
            raise ValueError(f"agent {agent.name} places flags that its windows see, and this environment has no "
                             f"flag actions: make it with flags=True, or use an agent trained with flags=False "
                             f"(private marks)")
        self.visible = agent.flags
        self.agent = agent.copy()
        self.pol = self.agent._policy(learn=False)
        _, self.rng, rule_stream = streams(seed)
        self.board = new_board(self.setting)
        self.cache = new_cache(self.board)
        self.rule = None
        if isinstance(self.agent, RuleAgent):
            self.rule = self.agent.rule._kernel_args(rule_stream, 8 * self.board.shown.shape[0])
        check_rule(self.pol, self.rule)
        self.reset()

    def reset(self) -> None:
        """Forget the current game (call at the start of every episode)."""
        b = self.board
        b.flg[:] = 0
        b.shown[b.tiles] = COVERED
        self._pending = None  # (tile, the observation expected right before clicking it)

    # helpers -------------------------------------------------------------------
    def _index(self, p) -> int:
        r, c = tile_of(p, self.setting.cols)
        return r * self.setting.cols + c

    def _load(self, view):
        """Put the observation into the arrays, all centres due for a key check."""
        b = self.board
        flat = view.ravel()
        old = b.shown[b.tiles]
        revealed = old <= 8
        if (flat[revealed] != old[revealed]).any():  # a revealed tile changed: a new game
            self.reset()
        b.shown[b.tiles] = flat
        if self.visible:
            b.flg[b.tiles] = flat == FLAG
        else:
            b.flg[b.tiles] &= (flat == COVERED).astype(np.uint8)  # marks on revealed tiles are gone
        b.gs[NFL] = int(b.flg[b.tiles].sum())
        b.dirty[b.tiles] = 1
        n = b.tiles.shape[0]
        b.dlist[:n] = b.tiles
        b.gs[ND] = n

    def _check_rule(self):
        if self.rule is not None:
            custom.raise_failure(self.agent.rule, self.rule, "in this policy's games")

    def _decide(self):
        table = self.agent.table
        table.adopt(refresh(self.board, self.cache, table.bundle, self.pol))
        extra = () if self.rule is None else (self.rule,)
        x, *_, flag, _ = custom.quiet(choose, self.board, self.cache, table.bundle, self.pol, self.rng, *extra)
        self._check_rule()
        if x < 0:
            raise ValueError("no covered, unflagged tile to decide on")
        return int(x), bool(flag)

    def _to_remove(self) -> int:
        extra = () if self.rule is None else (self.rule,)
        f, _ = custom.quiet(give_up_choice, self.board, self.cache, self.agent.table.bundle, self.pol, *extra)
        self._check_rule()
        return int(f)

    # the policy ------------------------------------------------------------------
    def __call__(self, obs) -> int:
        view = _as_view(obs, self.setting)
        if not self.visible and (view == FLAG).any():
            raise ValueError(f"agent {self.agent.name} keeps private marks and never flags; this observation "
                             f"shows flags someone else placed")
        b, n, K = self.board, self.setting.tiles, self.setting.mines
        if self._pending is not None:
            x, expected = self._pending
            self._pending = None
            if np.array_equal(view, expected):  # the forced removal is done: click that tile
                return self._index(x)
        self._load(view)
        if self.visible:
            if b.gs[NFL] > K:  # flags exceed mines: remove one (then click it)
                f = self._to_remove()
                expected = view.copy()
                expected.flat[self._index(f)] = COVERED
                self._pending = (f, expected)
                return n + self._index(f)
            x, flag = self._decide()
            return n + self._index(x) if flag else self._index(x)
        while True:  # private marks: they take no env step, decisions go on until a click
            x, flag = self._decide()
            if not flag:
                return self._index(x)
            set_flag(b, x, True, False)
            if b.gs[NFL] > K:
                f = self._to_remove()
                set_flag(b, f, False, False)
                return self._index(f)


def bandit_policy(agent, env, seed: int = 0) -> BanditPolicy:
    """``obs -> action`` for a trained bandit agent on ``env`` (see :class:`BanditPolicy`);
    ``seed`` seeds the agent's random streams (epsilon-greedy's exploration, Thompson's draws, a
    plug-in rule's generator), as ``evaluate(..., seed=seed)`` does."""
    return BanditPolicy(agent, env, seed)


class NeuralPolicy:
    """A trained neural bandit playing :class:`~sweeper.running.env.MinesweeperEnv`: ``policy(obs) -> action``,
    the click on the covered tile of lowest predicted P(mine) (:meth:`~sweeper.agents.neural.NeuralAgent.choose`).

    It plays a private copy of the agent, greedily, and never learns; it has no random draws (so no seed) and
    no memory between steps. It never flags (in an environment with flag actions it only clicks), and refuses
    an observation with flags someone else placed. The network is fully convolutional, so it plays an
    environment of any board size. Fed the same boards (``options={"mines": m}``), it makes the clicks of
    :func:`~sweeper.running.neural_play.evaluate_neural` (one view at a time here, many there: the same network,
    and ``tests/test_neural.py`` checks that the clicks agree)."""

    def __init__(self, agent, env):
        base = getattr(env, "unwrapped", env)
        if not isinstance(base, MinesweeperEnv):
            raise ValueError("env must be a MinesweeperEnv (or a wrapper of one)")
        self.agent = as_neural(agent).copy()
        self.setting = base.setting

    def __call__(self, obs) -> int:
        view = _as_view(obs, self.setting)
        pick = int(self.agent.choose(view, mines=self.agent.counter(self.setting.mines))[0])
        if pick < 0:
            raise ValueError("no covered, unflagged tile to click")
        return pick


def neural_policy(agent, env) -> NeuralPolicy:
    """``obs -> action`` for a trained neural bandit on ``env`` (see :class:`NeuralPolicy`)."""
    return NeuralPolicy(agent, env)


# --------------------------------------------------------------- the loop --

def run_episodes(env, policy, episodes: int | None = None, seed: int | None = None, layouts=None) -> list[dict]:
    """Play ``episodes`` episodes of ``env`` with ``policy`` (``obs -> action``): the Gymnasium loop.

    The first ``reset`` gets ``seed`` (then the environment's generator carries
    on, so one seed gives one sequence of boards). With ``layouts`` (2-D boolean mine layouts, e.g. a
    benchmark suite's boards) episode ``e`` plays ``layouts[e]`` instead (``reset(options={"mines": ...})``),
    one episode per layout; ``episodes`` may then be left out. If the policy has a
    ``reset()`` method it is called at each new episode. Returns one dict per
    episode: ``return`` (sum of rewards), ``won``, ``status``, ``steps``,
    ``revealed`` (safe tiles) and ``invalid`` (invalid actions taken);
    ``pandas.DataFrame(result)`` makes it a table."""
    if layouts is None:
        if episodes is None:
            raise ValueError("episodes must be given (a number of games), unless layouts are: one game per layout")
        episodes = whole(episodes, "episodes", 0)
    elif seed is not None:
        raise ValueError("seed draws the boards; with layouts the boards are given: give one or the other")
    elif episodes is not None and whole(episodes, "episodes", 0) != len(layouts):
        raise ValueError(f"episodes ({episodes}) must be the number of layouts given ({len(layouts)}), or left out")
    else:
        episodes = len(layouts)
    out = []
    for e in range(int(episodes)):
        if layouts is None:
            obs, info = env.reset(seed=seed if e == 0 else None)
        else:
            obs, info = env.reset(options={"mines": layouts[e]})
        if hasattr(policy, "reset"):
            policy.reset()
        total, steps, invalid = 0.0, 0, 0
        done = info["status"] != "ongoing"
        while not done:
            obs, reward, terminated, truncated, info = env.step(policy(obs))
            total += reward
            steps += 1
            invalid += bool(info["invalid"])
            done = terminated or truncated
        out.append({"return": total, "won": info["status"] == "won", "status": info["status"], "steps": steps,
                    "revealed": info["revealed"], "invalid": invalid})
    return out
