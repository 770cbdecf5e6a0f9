"""The benchmark: one way of scoring any agent on the fixed test suites of :mod:`~sweeper.experiments.suites`.

Scores
------
:func:`score` plays an agent on the first ``games`` boards of a suite (all by default) and reports its wins, win
rate with a 95% Wilson interval, the share of safe tiles revealed per game, the process CPU time of the test games
per decision (a decision is a click; the agents' own fast players where they have one, else each move through the
Gymnasium environment; after a warm-up outside the timing, :func:`warm_up`, whose wall time is ``compile_seconds``),
and its *regret* on the first ``regret_games`` boards of the same suite against one oracle
for every agent: before each click, every covered tile's exact probability of hiding a mine given the numbers shown
and the mine count (:func:`~sweeper.game.probability.mine_probabilities`; flags are read as covered tiles, since
they are the player's own marks); the click's regret is its tile's probability minus the lowest one on offer.
Placing or removing a flag is not a decision and has no regret. The regret games are played through
:class:`~sweeper.running.env.MinesweeperEnv` and :func:`~sweeper.running.policies.run_episodes`; for an agent with a
fast player they are also a check that both ways play the same games (``paths_agree``: the same outcome;
``paths_agree_clicks``: and the same clicks). A policy's contract (:func:`player_of`, :func:`mines_contract`):
it is given :data:`VIEW`, and the mine count when it can take it. Per-board rows, saved results and paired
comparisons with the leaderboard's stored entries: :mod:`~sweeper.experiments.board_results`.
"""

from __future__ import annotations

import importlib
import inspect
import re
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..agents.kinds import Agent, make_agent
from ..agents.oracle import click_regret
from ..checks import whole
from ..game.engine import with_openings
from ..game.grid import COVERED
from ..game.probability import mine_probabilities
from ..machine import machine
from ..running.env import MinesweeperEnv
from ..running.neural_play import evaluate_neural
from ..running.players import play_random, play_solver
from ..running.policies import bandit_policy, neural_policy, random_policy, run_episodes, solver_policy
from ..running.search import play_search, search_policy
from ..running.training import evaluate, train
from .stats import bootstrap_ratio, wilson
from .suites import (LEVELS, OPENINGS, SUITE_DIR, SUITE_GAMES, SUITE_SEEDS, Suite, deal_suite,  # noqa: F401
                     fresh_suite, layouts_checksum, level_of, load_suite, manifest, suite_name, write_suites)

#: The seed of the agents' own draws in benchmark games (exploration, Thompson's samples, random clicks).
AGENT_SEED = 0
#: Boards of each level on which regret is measured by default (the first ones of the suite).
REGRET_GAMES = {"beginner": 200, "intermediate": 100, "expert": 50}
#: What a policy is given (the command line's help, the README and :func:`player_of` say the same).
VIEW = ("the view: a NumPy int8 array rows x cols (a copy: changing it changes nothing), one code per tile: 0-8 a "
        "revealed tile and its count of neighbouring mines, 9 covered (a policy places no flags)")
REGRET_INTERVAL = ("a percentile bootstrap interval (95%, 10,000 resamples) of the regret per decision over the "
                   "regret boards")
ORACLE = ("exact mine probabilities given the numbers shown and the mine count (flags read as covered tiles); "
          "a click's regret is its tile's probability minus the lowest on offer; flags are not decisions")


class BenchmarkError(ValueError):
    """An agent or policy that cannot be scored: the message names the board and the decision."""


# ----------------------------------------------------------------- players --

class _Player:
    """How one kind of agent plays the benchmark: ``policy(env)`` for the Gymnasium environment, and ``fast``
    (its own player on many boards at once) where it has one."""

    flags = False

    def __init__(self, name: str):
        self.name = name

    def fast(self, suite: Suite, layouts) -> pd.DataFrame | None:
        return None

    def policy(self, env):
        raise NotImplementedError


class _Table(_Player):
    def __init__(self, agent: Agent):
        super().__init__(agent.name)
        self.agent, self.flags = agent, bool(agent.flags)

    def fast(self, suite, layouts):
        run = evaluate(self.agent, suite.setting, None, AGENT_SEED, freeze=True, opening=suite.opening,
                       first=suite.first, layouts=list(layouts), progress=False)
        return run.records[["won", "revealed", "clicks"]]

    def policy(self, env):
        return bandit_policy(self.agent, env, seed=AGENT_SEED)


class _Solver(_Player):
    def __init__(self, randomly: bool):
        super().__init__("random" if randomly else "solver")
        self.randomly = randomly

    def fast(self, suite, layouts):
        fn = play_random if self.randomly else play_solver
        r = fn(suite.setting, None, AGENT_SEED, suite.opening, suite.first, layouts=list(layouts))
        return pd.DataFrame({"won": r["won"], "revealed": r["revealed"], "clicks": r["decisions"]})

    def policy(self, env):
        # the solver's environment path plays the kernel's turns (same analysis, same budget) click for click
        return random_policy(AGENT_SEED) if self.randomly else solver_policy(env)


class _Search(_Player):
    """The searching solver (:func:`~sweeper.running.search.play_search`, default parameters)."""

    def __init__(self):
        super().__init__("search")

    def fast(self, suite, layouts):
        r = play_search(suite.setting, None, AGENT_SEED, suite.opening, suite.first, layouts=list(layouts))
        return pd.DataFrame({"won": r["won"], "revealed": r["revealed"], "clicks": r["decisions"]})

    def policy(self, env):
        return search_policy(env)  # the kernel's turns, click for click


#: The package's own players, named on the command line and in the leaderboard's specs.
BUILT_IN = ("solver", "search", "random")


class _Neural(_Player):
    def __init__(self, agent):
        super().__init__(agent.name)
        self.agent = agent

    def fast(self, suite, layouts):
        run = evaluate_neural(self.agent, suite.setting, None, AGENT_SEED, opening=suite.opening,
                              layouts=list(layouts))
        r = run.records.sort_values("game")
        return pd.DataFrame({"won": r["won"].to_numpy(), "revealed": r["revealed"].to_numpy(),
                             "clicks": r["decisions"].to_numpy()})

    def policy(self, env):
        return neural_policy(self.agent, env)


class _Policy(_Player):
    def __init__(self, fn, name: str):
        super().__init__(name)
        self.fn = fn
        self.mines = mines_contract(fn)

    def policy(self, env):
        return self.fn if self.mines is None else _WithMines(self.fn, env.setting.mines, self.mines == "keyword")


class _WithMines:
    """A policy called with the mine count too (its ``reset``, if it has one, kept)."""

    def __init__(self, fn, mines: int, keyword: bool):
        self.fn, self.mines, self.keyword = fn, mines, keyword
        if hasattr(fn, "reset"):
            self.reset = fn.reset

    def __call__(self, view):
        return self.fn(view, mines=self.mines) if self.keyword else self.fn(view, self.mines)


#: A policy's entry point on the command line: ``module.sub:function`` (or ``module:Class.method``).
ENTRY_POINT = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")


def resolve_agent(text: str):
    """What the command line's AGENT names: ``"solver"``, ``"search"`` (the searching solver) or ``"random"``; an
    agent file (``.npz``: a bandit agent
    saved by ``train --save``, or, with the extra ``deep``, a neural bandit or a PPO policy file, e.g. the
    ``policy.npz`` of a stored run of ``ext:benchmark_ppo``); or ``MODULE:FUNCTION``, a policy
    imported from the Python path (the current directory first), see :func:`player_of`."""
    if text in BUILT_IN:
        return text
    path = Path(text)
    if text.endswith(".npz") or path.is_file():
        return _load_file(path)
    if not ENTRY_POINT.fullmatch(text):
        raise ValueError(f"agent must be solver, search, random, an agent file (.npz) or MODULE:FUNCTION, got "
                         f"{text!r}")
    module, _, attr = text.partition(":")
    try:
        obj = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise ValueError(f"cannot import {module!r} for the policy {text} ({exc}); run from the folder that holds "
                         f"it, or add that folder to PYTHONPATH") from None
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001  the user's module failed (or called sys.exit) while importing
        how = " (sys.exit while importing: a policy's module must not exit)" if isinstance(exc, SystemExit) else ""
        raise ValueError(f"importing {module!r} for the policy {text} raised {type(exc).__name__}: {exc}{how}") \
            from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"{module!r} has no {attr!r} (the policy {text})")
        obj = getattr(obj, part)
    if not callable(obj):
        raise ValueError(f"{text} is a {type(obj).__name__}, not a function: the policy must be callable")
    return obj


def _load_file(path: Path):
    """A bandit agent file, else a neural bandit file, else a PPO policy file (the last two need the extra
    ``deep``); a file that is none of them is refused naming each reading."""
    from ..agents.kinds import load_agent
    if not path.is_file():
        raise ValueError(f"no agent file at {path}")
    try:
        return load_agent(path)
    except ValueError as table_error:
        errors = [f"a bandit agent file ({table_error})"]
    try:
        from ..agents.neural import load_neural
        from .deep_rl import load_ppo
    except ImportError as exc:
        raise ValueError(f"{path} is not a bandit agent file ({table_error}); as a neural bandit or PPO policy file "
                         f"it needs the optional extra (make deep): {exc}") from None
    for what, load in (("a neural bandit file", load_neural), ("a PPO policy file", load_ppo)):
        try:
            return load(path)
        except ImportError as exc:
            raise ValueError(f"{path} is not a bandit agent file ({table_error}); as {what} it needs the optional "
                             f"extra (make deep): {exc}") from None
        except ValueError as exc:
            errors.append(f"{what} ({exc})")
    raise ValueError(f"{path} is neither " + ", nor ".join(errors))


def mines_contract(fn) -> str | None:
    """How the policy ``fn`` is given the mine count: ``"positional"`` when it has a second positional parameter
    (required or not, whatever its name: ``fn(view, mines)``), else ``"keyword"`` when it has a parameter named
    ``mines`` (``fn(view, mines=mines)``), else None (``fn(view)``; so too a callable whose signature cannot be
    read). A policy that needs more than that (three required positional arguments, a required keyword argument
    other than ``mines``, no parameter for the view) is refused (:class:`BenchmarkError`)."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    if len(required) > 2:
        raise BenchmarkError(f"a policy takes the view (and optionally the mine count): {_label(fn)} takes "
                             f"{len(required)} required arguments")
    if not positional and not any(p.kind == p.VAR_POSITIONAL for p in params):
        raise BenchmarkError(f"a policy takes the view as its first argument: {_label(fn)} takes no positional "
                             f"argument")
    keywords = [p.name for p in params if p.kind == p.KEYWORD_ONLY and p.default is p.empty and p.name != "mines"]
    if keywords:
        raise BenchmarkError(f"a policy takes the view (and optionally the mine count): {_label(fn)} needs the "
                             f"keyword argument {keywords[0]!r}")
    if len(positional) >= 2:
        return "positional"
    if any(p.name == "mines" and p.kind != p.POSITIONAL_ONLY for p in params):
        return "keyword"
    return None


def _shown(v, limit: int = 60) -> str:
    """``repr(v)``, cut to ``limit`` characters (a policy may return a whole board)."""
    try:
        text = repr(v)
    except Exception:  # noqa: BLE001  a repr that fails is the user's
        return f"a {type(v).__name__}"
    return text if len(text) <= limit else text[:limit] + "..."


def _label(fn) -> str:
    return getattr(fn, "__name__", None) or type(fn).__name__


def player_of(agent, name: str | None = None) -> _Player:
    """The benchmark's player of ``agent``: ``"solver"``, ``"search"``, ``"random"``, a trained bandit agent (any kind, a
    plug-in rule too), a trained neural bandit, or a policy: a callable given the view, a NumPy ``int8`` array rows
    x cols (a copy) of cell codes, 0-8 a revealed tile's count of neighbouring mines and 9 covered (a policy places
    no flags, so 10, flagged, never appears), and returning the tile to click, as ``(row, col)``, as the index
    ``row * cols + col`` or as a NumPy integer or 0-d integer array of it (so a Gymnasium policy of
    :class:`~sweeper.running.env.MinesweeperEnv` without flags is one). The mine count reaches any policy that can
    take it (:func:`mines_contract`): a second positional parameter, required or not, gets it (``fn(view,
    mines)``), else a parameter named ``mines`` (``fn(view, mines=mines)``). A policy with a ``reset()`` method
    has it called before each game, the regret games included: after its ``games`` test games the same policy
    object replays the first ``regret_games`` boards (0, 1, ...) for the regret, so a stateful policy (a count of
    its resets, a random generator) carries its state into them and plays those boards as games ``games + 1``
    onwards of its own count, not as it played them first. Whatever a policy raises, ``SystemExit`` too, is a
    :class:`BenchmarkError` naming the board and the decision; ``KeyboardInterrupt`` stops the scoring."""
    if isinstance(agent, str):
        if agent in ("solver", "random"):
            return _Solver(agent == "random")
        if agent == "search":
            return _Search()
        raise BenchmarkError(f"agent must be 'solver', 'search', 'random', a trained agent or a policy, got "
                             f"{agent!r}")
    if isinstance(agent, Agent):
        return _Table(agent)
    if type(agent).__name__ == "NeuralAgent":
        return _Neural(agent)
    if callable(agent):
        return _Policy(agent, name or _label(agent))
    raise BenchmarkError(f"agent must be 'solver', 'random', a trained agent or a callable policy, "
                         f"got {type(agent).__name__}")


# --------------------------------------------------- the environment's path --

class _Refereed:
    """A policy of :func:`~sweeper.running.policies.run_episodes` that checks each move of ``policy`` (naming the
    board and the decision when it fails) and, with ``oracle``, scores each click's regret."""

    def __init__(self, policy, name: str, suite: Suite, flags: bool, oracle: bool):
        self.policy, self.name, self.suite, self.flags, self.oracle = policy, name, suite, flags, oracle
        self.game, self.decision = -1, 0
        self.clicks = []  # per game
        self.regret = []  # per game: [decisions scored, regret summed]

    def reset(self):
        self.game += 1
        self.decision = 0
        self.clicks.append(0)
        self.regret.append([0, 0.0])
        if hasattr(self.policy, "reset"):
            self._call(self.policy.reset)

    def _where(self) -> str:
        return f"{self.name} on board {self.game} of the suite {self.suite.name}, decision {self.decision + 1}"

    def _call(self, fn, *args):
        try:
            return fn(*args)
        except KeyboardInterrupt:  # Ctrl-C stops the scoring, as anywhere
            raise
        except BaseException as exc:  # noqa: BLE001  the user's code: any failure, sys.exit too, is named
            how = " (sys.exit ends no game: return a tile)" if isinstance(exc, SystemExit) else ""
            raise BenchmarkError(f"{self._where()}: the policy raised {type(exc).__name__}: {exc}{how}") from exc

    def _action(self, out, view) -> int:
        try:
            return self._tile(out, view)
        except BenchmarkError:
            raise
        except Exception as exc:  # noqa: BLE001  a return value that breaks the reading of it (len(), ==, ...)
            raise BenchmarkError(f"{self._where()}: the policy returned {_shown(out)} ({type(out).__name__}), which "
                                 f"cannot be read as a tile ({type(exc).__name__}: {exc})") from None

    def _tile(self, out, view) -> int:
        rows, cols = view.shape
        n = rows * cols
        given = out
        if isinstance(out, np.ndarray) and out.dtype.kind in "iu" and out.shape in ((), (2,)):
            out = out.item() if out.ndim == 0 else tuple(out.tolist())  # np.array(i), np.array([r, c])
        whole_number = lambda v: isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))  # noqa: E731
        if isinstance(out, (tuple, list)) and len(out) == 2 and all(whole_number(v) for v in out):
            r, c = int(out[0]), int(out[1])
            if not (0 <= r < rows and 0 <= c < cols):
                raise BenchmarkError(f"{self._where()}: tile {(r, c)} is off the {rows}x{cols} board")
            a = r * cols + c
        elif whole_number(out):
            a = int(out)
            if not 0 <= a < (2 * n if self.flags else n):
                raise BenchmarkError(f"{self._where()}: action {a} is off the board (0 to {n - 1}: row * {cols} "
                                     f"+ col)")
        else:
            raise BenchmarkError(f"{self._where()}: the policy returned {_shown(given)} ({type(given).__name__}); "
                                 f"return (row, col) or the index row * {cols} + col")
        if a < n and view.flat[a] != COVERED:
            what = "flagged" if view.flat[a] == 10 else "already revealed"
            raise BenchmarkError(f"{self._where()}: tile {divmod(a, cols)} is {what}")
        return a

    def __call__(self, obs):
        view = np.asarray(obs)
        a = self._action(self._call(self.policy, view.copy()), view)
        if a < view.size:
            if self.oracle:
                gap, _ = click_regret(mine_probabilities(view, self.suite.setting.mines), a)
                scored = self.regret[-1]
                scored[0] += 1
                scored[1] += gap if gap > 1e-12 else 0.0  # a tie with the best, to rounding, costs nothing
            self.decision += 1
            self.clicks[-1] += 1
        return a


def _env_games(player: _Player, suite: Suite, layouts, oracle: bool) -> tuple[pd.DataFrame, list]:
    env = MinesweeperEnv(suite.setting, opening=suite.opening, first=suite.first, flags=player.flags)
    ref = _Refereed(player.policy(env), player.name, suite, player.flags, oracle)
    played = run_episodes(env, ref, layouts=list(layouts))
    safe = suite.setting.tiles - suite.setting.mines
    table = pd.DataFrame({"won": [bool(e["won"]) for e in played],
                          "revealed": [e["revealed"] / safe for e in played],
                          "clicks": ref.clicks})
    return table, ref.regret


# ------------------------------------------------------------------ scores --

@dataclass
class Score:
    """An agent's score on a suite (see the module's text); ``games`` holds one row per board."""

    agent: str
    suite: Suite
    games: pd.DataFrame
    cpu_seconds: float
    regret: pd.DataFrame
    paths_agree: int | None
    machine: dict
    compile_seconds: float = 0.0  # the warm-up's wall time (:func:`warm_up`), not in ``cpu_seconds``
    paths_agree_clicks: int | None = None  # boards where both paths gave the same outcome and the same clicks

    @property
    def wins(self) -> int:
        return int(self.games["won"].sum())

    @property
    def win_rate(self) -> float:
        return self.wins / len(self.games) if len(self.games) else float("nan")

    def summary(self) -> dict:
        """Plain data: the printed and stored form of the score (without ``compile_seconds``, which the command line
        adds: the stored runs keep no timing in their tables)."""
        n, clicks = len(self.games), int(self.games["clicks"].sum())
        lo, hi = wilson(self.wins, n)
        lo, hi = (0.0 if self.wins == 0 else lo), (1.0 if self.wins == n else hi)  # exact at the ends, not 1e-18
        rd = int(self.regret["decisions"].sum())
        s = self.suite
        return {"agent": self.agent, "suite": s.name, "board": str(s.setting), "opening": s.opening,
                "suite_sha256": s.checksum, "games": n, "wins": self.wins, "win_rate": self.win_rate,
                "win_low": lo, "win_high": hi, "safe_revealed": float(self.games["revealed"].mean()),
                "decisions": clicks, "test_cpu_seconds": self.cpu_seconds,
                "cpu_us_per_decision": 1e6 * self.cpu_seconds / clicks if clicks else float("nan"),
                "regret_games": len(self.regret), "regret_decisions": rd,
                "regret_per_decision": float(self.regret["regret"].sum() / rd) if rd else float("nan"),
                "regret_per_game": float(self.regret["regret"].mean()) if len(self.regret) else float("nan"),
                "oracle": ORACLE, "paths_agree": self.paths_agree, "machine": self.machine}


    def report(self) -> dict:
        """:meth:`summary` and what the command line adds to it (the stored runs' tables keep the summary's
        fields only): ``fresh`` and ``fresh_seed`` (the boards dealt at scoring time, :func:`fresh_suite`, or the
        public suite's), the regret per decision's bootstrap interval over the regret boards (``regret_low``,
        ``regret_high``: :func:`~sweeper.experiments.stats.bootstrap_ratio`, 95%) and ``paths_agree_clicks`` (the
        boards where the environment's games gave the fast player's outcome and clicks too)."""
        _, lo, hi = bootstrap_ratio(self.regret["regret"].to_numpy(float), self.regret["decisions"].to_numpy(float))
        fresh = self.suite.fresh
        return {**self.summary(), "fresh": fresh, "fresh_seed": self.suite.seed if fresh else None,
                "regret_low": lo, "regret_high": hi, "regret_interval": REGRET_INTERVAL,
                "paths_agree_clicks": self.paths_agree_clicks, "view": VIEW}

    def boards(self) -> pd.DataFrame:
        """One row per board played: ``board`` (its index in the suite), ``won``, ``clicks`` (decisions: a flag is
        none), ``revealed`` (the share of the board's safe tiles revealed), and on the regret boards
        ``regret_decisions`` (the clicks scored) and ``regret`` (their regret, summed); empty (``<NA>``) on the
        other boards."""
        n, k = len(self.games), len(self.regret)
        rd = pd.array(list(self.regret["decisions"].astype(int)) + [None] * (n - k), dtype="Int64")
        rg = pd.array(list(self.regret["regret"].astype(float)) + [None] * (n - k), dtype="Float64")
        return pd.DataFrame({"board": np.arange(n), "won": self.games["won"].to_numpy(bool),
                             "clicks": self.games["clicks"].to_numpy(np.int64),
                             "revealed": self.games["revealed"].to_numpy(float), "regret_decisions": rd,
                             "regret": rg})


def describe(summary: dict) -> list:
    """The lines a person reads of a score's :meth:`Score.summary` or :meth:`Score.report` (the command line prints
    them)."""
    r = summary
    boards = (f"{r['games']:,} fresh boards dealt from seed {r['fresh_seed']}" if r.get("fresh")
              else f"the first {r['games']:,} boards")
    lines = [f"agent: {r['agent']}",
             f"suite: {r['suite']} ({r['board']}, {r['opening']} opening), {boards}",
             f"layouts sha256: {r['suite_sha256'][:16]}",
             f"wins: {r['wins']:,} of {r['games']:,}: win rate {r['win_rate']:.4f} [{r['win_low']:.4f}, "
             f"{r['win_high']:.4f}] (95% Wilson)",
             f"safe tiles revealed: {100 * r['safe_revealed']:.1f}% per game",
             f"test CPU: {r['cpu_us_per_decision']:.1f} µs per decision ({r['decisions']:,} decisions)",
             f"  {r['test_cpu_seconds']:.2f} s of process CPU on {r['machine']['cpu']}"]
    if "compile_seconds" in r:
        lines.append(f"  not counted: {r['compile_seconds']:.2f} s (wall) compiling or loading the kernels on one "
                     f"board before the timing")
    if r["regret_games"]:
        ci = f" [{r['regret_low']:.4f}, {r['regret_high']:.4f}] (95% bootstrap over the boards)" \
            if r.get("regret_low") is not None and r["regret_low"] == r["regret_low"] else ""
        lines += [f"regret: {r['regret_per_decision']:.4f} per decision{ci}, {r['regret_per_game']:.4f} per game",
                  f"  {r['regret_decisions']:,} decisions on the first {r['regret_games']:,} boards",
                  f"  oracle: {r['oracle']}"]
    if r["paths_agree"] is not None and r["paths_agree"] != r["regret_games"]:
        lines.append(f"note: the environment's games agreed with the fast player's on {r['paths_agree']} of "
                     f"{r['regret_games']} boards")
    elif r.get("paths_agree_clicks") is not None and r["paths_agree_clicks"] != r["regret_games"]:
        lines.append(f"note: the environment's games had the fast player's outcome on every board, and its clicks "
                     f"on {r['paths_agree_clicks']} of {r['regret_games']}")
    return lines


@with_openings
def score(agent, level: str = "beginner", opening: str = "reference", games: int | None = None,
          regret_games: int | None = None, *, name: str | None = None, suite: Suite | None = None,
          fresh: int | None = None) -> Score:
    """Score ``agent`` (see :func:`player_of`) on the suite of ``level`` and ``opening``.

    Parameters
    ----------
    agent : str, Agent, NeuralAgent or callable
        ``"solver"``, ``"search"``, ``"random"``, a trained agent, a trained neural bandit or a policy
        (:func:`player_of`).
    level : str, default "beginner"
        ``"beginner"``, ``"intermediate"`` or ``"expert"``.
    opening : str, default "reference"
        The suite's opening: {openings}.
    games : int, optional
        Play the first ``games`` boards of the suite (1 to its 10,000; default all).
    regret_games : int, optional
        Score the regret on the first ``regret_games`` of those boards (0 to ``games``; default
        :data:`REGRET_GAMES` of the level, at most ``games``).
    name : str, optional
        The name a policy is reported under (default its function's name).
    suite : Suite, optional
        Another suite to play (a test's); refused together with a ``level`` or ``opening`` other than its own.
    fresh : int, optional
        Play fresh boards instead of the public suite's: ``games`` boards (default 10,000) of the level and opening
        dealt from this seed by the suites' dealer (:func:`fresh_suite`; a public suite's seed is refused).

    Returns
    -------
    Score

    Raises
    ------
    ValueError
        If the level, opening, ``games``, ``regret_games`` or ``fresh`` is invalid, a stored suite does not pass its
        checks (:func:`load_suite`), or the agent cannot be scored:
        :class:`BenchmarkError` names the board and the decision where a policy failed (it raised, returned
        something that is not a tile, or a tile off the board, revealed or flagged).
    """
    suite, n, k = _boards(level, opening, games, regret_games, suite, fresh)
    player = player_of(agent, name)
    layouts = suite.layouts[:n]
    warm = warm_up(player, suite)
    cpu0 = time.process_time()
    table = player.fast(suite, layouts)
    if table is None:
        table, _ = _env_games(player, suite, layouts, oracle=False)
    cpu = time.process_time() - cpu0
    agree = clicks = None
    regret = pd.DataFrame({"decisions": pd.Series(dtype=np.int64), "regret": pd.Series(dtype=float)})
    if k:
        env_table, scored = _env_games(player, suite, layouts[:k], oracle=True)
        regret = pd.DataFrame(scored, columns=["decisions", "regret"])
        if type(player) is not _Policy:
            same = env_table["won"].to_numpy() == table["won"].to_numpy()[:k]
            agree = int(same.sum())
            clicks = int((same & (env_table["clicks"].to_numpy() == table["clicks"].to_numpy()[:k])).sum())
    return Score(player.name, suite, table.reset_index(drop=True), cpu, regret, agree, machine(), warm, clicks)


def _boards(level, opening, games, regret_games, suite, fresh) -> tuple[Suite, int, int]:
    """The suite :func:`score` plays, its boards and its regret boards, every argument checked."""
    if suite is not None and fresh is not None:
        raise ValueError("fresh deals boards of its own: it has no effect with a suite given")
    if suite is None:
        suite = load_suite(level, opening) if fresh is None else \
            fresh_suite(level, opening, fresh, SUITE_GAMES if games is None else games)
    elif (level, opening) != (suite.level, suite.opening):
        raise ValueError(f"suite {suite.name} is of level {suite.level} and opening {suite.opening}: level and "
                         f"opening have no effect with it; leave them at the suite's")
    n = len(suite) if games is None else whole(games, "games", 1)
    if n > len(suite):
        raise ValueError(f"games must be at most the suite's {len(suite):,} boards, got {n:,}")
    k = min(REGRET_GAMES[suite.level], n) if regret_games is None else whole(regret_games, "regret_games", 0)
    if k > n:
        raise ValueError(f"regret_games ({k:,}) must be at most games ({n:,}): regret is scored on the same boards")
    return suite, n, k


def warm_up(player: _Player, suite: Suite) -> float:
    """Compile the kernels of the path that ``player``'s test games take (or load them from the compiler's disk
    cache) on the suite's first board, before the timing; returns the wall seconds it took.

    An agent with a fast player plays that board with it, called as for its test games. A policy is not called:
    its games, and any state of its own (a random generator, a count of games), are left as they were; the
    package's solver plays the board through the same environment and referee instead, which compiles the
    environment's kernels and the exact probabilities (the regret's oracle, and
    :func:`~sweeper.running.policies.solver_policy`'s). What the policy's own code compiles on its first call is its
    cost and stays in its test CPU."""
    t0 = time.perf_counter()
    if player.fast(suite, suite.layouts[:1]) is None:
        _env_games(_Solver(randomly=False), suite, suite.layouts[:1], oracle=False)
    return time.perf_counter() - t0


def calibration(games: int = 20_000) -> dict:
    """A workload timed in this process, so that a CPU time can be scaled to another machine: the paper's greedy
    agent trained on ``games`` beginner games (seed 0), in games per CPU second (after a warm-up)."""
    train(make_agent("greedy"), "8x8x10", 10, seed=0, progress=False)
    cpu0 = time.process_time()
    train(make_agent("greedy"), "8x8x10", games, seed=0, progress=False)
    cpu = time.process_time() - cpu0
    return {"workload": f"greedy, {games:,} beginner training games, seed 0", "games_per_cpu_second": games / cpu}
