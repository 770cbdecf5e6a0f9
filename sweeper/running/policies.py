"""Players of :class:`~sweeper.running.env.MinesweeperEnv`: policies ``obs -> action`` and the episode loop.

* :func:`solver_policy` / :class:`SolverPolicy`: the exact-probability solver, playing the turns of
  :func:`sweeper.running.players.play_solver` click for click (every certainly safe tile of one analysis in
  row-major order, else a guess by its tie-break); :func:`solver_action`: one move of such a turn, keeping nothing;
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
from ..game.probability import INCONSISTENT, NODE_BUDGET, analyse, check_budget, prepared_view
from ..game.grid import COVERED, EXPLODED, FLAG, pad_view, tile_of
from ..rng import streams
from .env import MinesweeperEnv
from .players import lowest_tile, random_tile  # the solver's own tie-break; the floor's draw

__all__ = ["BanditPolicy", "bandit_policy", "NeuralPolicy", "neural_policy", "random_policy", "run_episodes",
           "solver_action", "solver_policy", "SolverPolicy"]


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


def _solver_turn(view: np.ndarray, mines: int, budget: int) -> list[int]:
    """One turn of the solver of :func:`sweeper.running.players.play_solver` on a checked observation ``view``,
    as the actions ``r*cols + c`` it clicks in that turn.

    This is the turn of the solver branch of the kernel ``sweeper.running.players._play``, and the only place the
    environment's solver states it: the view is analysed once, by the kernel's own
    :func:`~sweeper.game.probability.analyse` with the same enumeration budget and fallback (flags are read as
    covered tiles); the turn is every covered, unflagged tile of probability exactly 0 of that analysis, in
    row-major order; if there is none, it is one guess: the covered, unflagged tile that the kernel's
    :func:`~sweeper.running.players.lowest_tile` picks (lowest probability, ties within
    :data:`~sweeper.running.players.TIE` to the fewest covered neighbours, then row-major). The kernel skips a
    tile of the turn that an earlier click of the same turn has revealed; the caller does the same."""
    padded, tiles, off8, mines, budget = prepared_view(view, mines, budget)
    prob = np.full(padded.shape[0], np.nan)
    if analyse(padded, tiles, off8, mines, budget, prob) == INCONSISTENT:
        raise ValueError(f"no layout of {mines} mines is consistent with this observation")
    turn = tiles[(padded[tiles] == COVERED) & (prob[tiles] == 0.0)]
    if turn.size == 0:
        p = int(lowest_tile(padded, tiles, prob, off8))
        if p < 0:
            raise ValueError("no covered, unflagged tile to click")
        turn = np.array([p])
    cols = view.shape[1]
    return [int((p // (cols + 2) - 1) * cols + p % (cols + 2) - 1) for p in turn]


def solver_action(obs, mines: int, *, budget: int = NODE_BUDGET) -> int:
    """The exact solver's click on observation ``obs`` of a board with ``mines`` mines, as a single move: the first
    click of the turn that the solver of :func:`sweeper.running.players.play_solver` would play on this
    observation.

    The view is analysed once (the exact probabilities of :mod:`sweeper.game.probability`, with ``budget`` and
    its fallback as in ``play_solver``; flags are read as covered tiles). If some covered, unflagged tile has
    probability exactly 0, the action is the first such tile in row-major order; otherwise it is the guess: the
    covered, unflagged tile of lowest probability, ties broken by the solver's own tie-break (fewest covered
    neighbours, then row-major). Returns the action ``r*cols + c`` (a click in both action layouts).

    It keeps nothing between calls, so in a loop it analyses again after every click and clicks the first
    zero-probability tile of *that* analysis: the same guesses and outcomes as ``play_solver`` (revealing every
    certainly safe tile has one end result whatever the order), but not always its clicks. To play
    ``play_solver``'s games click for click, use :func:`solver_policy`, which keeps the rest of the turn.

    Raises ``ValueError`` if the observation is not a view of cell codes (or shows a lost game), has no covered,
    unflagged tile, or no layout of ``mines`` mines is consistent with it."""
    return _solver_turn(_as_view(obs), whole(mines, "mines", 0), check_budget(budget))[0]


class SolverPolicy:
    """The exact solver of :func:`sweeper.running.players.play_solver` as a policy ``obs -> action`` of
    :class:`~sweeper.running.env.MinesweeperEnv`: it plays the kernel's turns click for click.

    A turn (the kernel's, stated once in this module): the observation is analysed once (the exact probabilities,
    same ``budget`` and fallback as ``play_solver``; flags are read as covered tiles) and every covered, unflagged
    tile of probability exactly 0 is clicked, in row-major order; if there is none, the turn is one guess, the
    covered, unflagged tile of lowest probability (then the fewest covered neighbours, then row-major). Since the
    environment takes one click per step, the policy keeps the turn's tiles not clicked yet: on each observation it
    clicks the next of them, in row-major order, that is still covered (a tile a cascade revealed meanwhile is
    skipped, as the kernel skips it); when none is left it analyses the new observation and starts the next turn.
    Fed the same boards (``reset(options={"mines": layout})`` with the suite's layouts, the same opening), it makes
    the clicks of ``play_solver(..., layouts=...)``: the same games, the same number of clicks per game, and no
    random draws.

    The kept turn belongs to one game. It is dropped at :meth:`reset` (:func:`run_episodes` calls it at every new
    episode) and whenever an observation does not continue the last one: a tile it showed revealed is no longer the
    same, or the tile last clicked is still covered (a new game, or a view this policy did not lead to). Given the
    same observation twice in a row it returns the same action. So one policy object plays any number of episodes,
    each the same as with a fresh object.

    Parameters
    ----------
    mines : int
        The board's mine count.
    setting : Setting, optional
        The environment's board: observations of another shape are refused.
    budget : int, default :data:`~sweeper.game.probability.NODE_BUDGET`
        The exact solver's enumeration budget (``play_solver``'s ``budget``)."""

    def __init__(self, mines: int, setting: Setting | None = None, *, budget: int = NODE_BUDGET):
        self.mines = whole(mines, "mines", 0)
        self.setting = setting
        self.budget = check_budget(budget)
        self.reset()

    def reset(self) -> None:
        """Forget the current game and its turn (call at the start of every episode)."""
        self._turn = []  # the actions of the current turn not clicked yet, in row-major order
        self._last = None  # (the last observation, the action returned for it)

    def _continues(self, view: np.ndarray) -> bool:
        seen, action = self._last
        if seen.shape != view.shape or view.flat[action] == COVERED:
            return False
        shown = seen <= 8
        return bool((view[shown] == seen[shown]).all())

    def _view(self, obs) -> np.ndarray:
        """The observation, checked (a subclass may check it its own way)."""
        return _as_view(obs, self.setting)

    def _new_turn(self, view: np.ndarray) -> list:
        """The actions of the turn that starts at ``view``, in the order they are clicked."""
        return _solver_turn(view, self.mines, self.budget)

    def __call__(self, obs) -> int:
        view = self._view(obs)
        if self._last is not None and np.array_equal(view, self._last[0]):
            return self._last[1]
        if self._last is None or not self._continues(view):
            self._turn = []
        while self._turn:
            a = self._turn.pop(0)
            if view.flat[a] == COVERED:
                break
        else:
            a, *self._turn = self._new_turn(view)
        self._last = (view.copy(), a)
        return a


def solver_policy(mines, *, budget: int = NODE_BUDGET) -> SolverPolicy:
    """``obs -> action`` playing the turns of :func:`sweeper.running.players.play_solver` click for click (see
    :class:`SolverPolicy`); ``mines`` is the mine count or the environment (then observations of another shape are
    refused). One move on its own, keeping nothing: :func:`solver_action`."""
    setting = None
    if not isinstance(mines, (int, np.integer)):
        setting = mines.unwrapped.setting
        mines = setting.mines
    return SolverPolicy(mines, setting, budget=budget)


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
