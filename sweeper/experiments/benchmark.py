"""The benchmark: fixed test suites of boards, and one way of scoring any agent on them.

Suites
------
A *suite* is 10,000 mine layouts of one level (beginner 8x8x10, intermediate 16x16x40, expert 16x30x99) under one
opening (``reference``, ``safe`` or ``zero``, with the first click at (0, 0) for the last two), dealt by the engine's
own dealer (``new_game``) from a :mod:`sweeper.rng` stream of its own (:data:`~sweeper.rng.STREAM_SUITES`, one seed
per suite, :data:`SUITE_SEEDS`). The suites ship with the package as data (``data/suites/``): one ``.npz`` per suite
holding ``mines`` (each layout's tiles row by row, packed eight to a byte by ``numpy.packbits``) and ``shape``
(games, rows, cols), and ``manifest.json`` naming, per suite, its board, opening, how the first click is made, seed,
stream and the SHA-256 of its layouts (of the ``uint8`` array ``games x rows x cols``, 1 for a mine). They can be
read without this package::

    z = numpy.load("beginner-reference.npz"); games, rows, cols = z["shape"]
    mines = numpy.unpackbits(z["mines"], axis=1, count=rows * cols).reshape(games, rows, cols).astype(bool)

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
fast player they are also a check that both ways play the same games (``paths_agree``).
"""

from __future__ import annotations

import hashlib
import importlib
import io
import inspect
import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..agents.kinds import Agent, make_agent
from ..checks import whole
from ..game.engine import OPENING_TABLE, Setting, mines_of, new_board, new_game, with_openings
from ..game.grid import COVERED
from ..game.probability import mine_probabilities
from ..machine import machine
from ..rng import STREAM_SUITES, make_state
from ..running.env import MinesweeperEnv
from ..running.neural_play import evaluate_neural
from ..running.players import play_random, play_solver
from ..running.policies import bandit_policy, neural_policy, random_policy, run_episodes, solver_policy
from ..running.training import evaluate, train
from .stats import wilson

#: The levels of the benchmark.
LEVELS = ("beginner", "intermediate", "expert")
#: The openings of the benchmark: every opening of the engine's table.
OPENINGS = tuple(o.name for o in OPENING_TABLE)
#: Boards per suite.
SUITE_GAMES = 10_000
#: The seed of each suite (dealt on stream :data:`~sweeper.rng.STREAM_SUITES`).
SUITE_SEEDS = {f"{lv}-{op}": 1000 + 10 * i + j for i, lv in enumerate(LEVELS) for j, op in enumerate(OPENINGS)}
#: The seed of the agents' own draws in benchmark games (exploration, Thompson's samples, random clicks).
AGENT_SEED = 0
#: Boards of each level on which regret is measured by default (the first ones of the suite).
REGRET_GAMES = {"beginner": 200, "intermediate": 100, "expert": 50}
#: Where the suites live.
SUITE_DIR = Path(__file__).resolve().parent / "data" / "suites"
ORACLE = ("exact mine probabilities given the numbers shown and the mine count (flags read as covered tiles); "
          "a click's regret is its tile's probability minus the lowest on offer; flags are not decisions")


class BenchmarkError(ValueError):
    """An agent or policy that cannot be scored: the message names the board and the decision."""


# ------------------------------------------------------------------ suites --

@dataclass(frozen=True)
class Suite:
    """A fixed test suite: ``layouts`` (games x rows x cols, bool) of ``setting`` under ``opening``."""

    name: str
    level: str
    setting: Setting
    opening: str
    first: tuple | None
    seed: int
    layouts: np.ndarray = field(repr=False)

    def __len__(self) -> int:
        return len(self.layouts)

    @property
    def checksum(self) -> str:
        """The SHA-256 of the layouts (``uint8``, games x rows x cols, 1 for a mine)."""
        return layouts_checksum(self.layouts)


def layouts_checksum(layouts) -> str:
    """The SHA-256 of mine layouts as the ``uint8`` array ``games x rows x cols`` (1 for a mine), in hex."""
    return hashlib.sha256(np.ascontiguousarray(np.asarray(layouts), dtype=np.uint8).tobytes()).hexdigest()


def suite_name(level: str, opening: str = "reference") -> str:
    """``"beginner-reference"`` ..., after checking the level and the opening."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    if opening not in OPENINGS:
        raise ValueError(f"opening must be one of {', '.join(OPENINGS)}, got {opening!r}")
    return f"{level}-{opening}"


def level_of(board) -> str:
    """The benchmark level of a board (a :class:`~sweeper.game.engine.Setting` or its text, e.g. ``"16x16x40"``),
    or a clear error for a board that is none of them."""
    setting = Setting.parse(board)
    for level in LEVELS:
        if Setting.parse(level) == setting:
            return level
    raise ValueError(f"the benchmark has suites for {', '.join(f'{lv} ({Setting.parse(lv)})' for lv in LEVELS)}, "
                     f"not for {setting}")


def _first(opening: str):
    return (0, 0) if next(o for o in OPENING_TABLE if o.name == opening).takes_first else None


def deal_suite(level: str, opening: str = "reference", games: int = SUITE_GAMES) -> Suite:
    """Deal the first ``games`` boards of a suite from its seed with the engine's dealer (the stored suites are
    ``deal_suite(level, opening)``; :func:`load_suite` reads them)."""
    name = suite_name(level, opening)
    games = whole(games, "games", 0)
    setting, first = Setting.parse(level), _first(opening)
    board = new_board(setting, opening, first)
    rng = make_state(SUITE_SEEDS[name], STREAM_SUITES)
    empty = np.zeros(0, np.uint8)
    layouts = np.zeros((games, setting.rows, setting.cols), bool)
    for g in range(games):
        new_game(board, rng, empty)
        layouts[g] = mines_of(board)
    return Suite(name, level, setting, opening, first, SUITE_SEEDS[name], layouts)


def _manifest_entry(suite: Suite, file_bytes: bytes) -> dict:
    s = suite.setting
    rule = next(o for o in OPENING_TABLE if o.name == suite.opening)
    return {"name": suite.name, "level": suite.level, "board": str(s), "rows": s.rows, "cols": s.cols,
            "mines": s.mines, "opening": suite.opening, "first_click": rule.help,
            "first": list(suite.first) if suite.first else None, "games": len(suite), "seed": suite.seed,
            "stream": STREAM_SUITES, "file": f"{suite.name}.npz", "layouts_sha256": suite.checksum,
            "file_sha256": hashlib.sha256(file_bytes).hexdigest()}


def _npz_bytes(suite: Suite) -> bytes:
    buf = io.BytesIO()
    flat = suite.layouts.reshape(len(suite), -1)
    np.savez(buf, mines=np.packbits(flat, axis=1), shape=np.array(suite.layouts.shape, np.int64))
    return buf.getvalue()


def write_suites(directory=SUITE_DIR, games: int = SUITE_GAMES) -> dict:
    """Deal every suite and write its ``.npz`` and the ``manifest.json`` into ``directory``; returns the manifest."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    entries = []
    for level in LEVELS:
        for opening in OPENINGS:
            suite = deal_suite(level, opening, games)
            data = _npz_bytes(suite)
            (directory / f"{suite.name}.npz").write_bytes(data)
            entries.append(_manifest_entry(suite, data))
    manifest = {"format": 1, "about": "Fixed Minesweeper test suites of the Bandit Sweeper benchmark. Per suite: "
                "mines = numpy.packbits of each layout's tiles row by row (axis 1), shape = (games, rows, cols); "
                "layouts_sha256 is the SHA-256 of the unpacked uint8 array games x rows x cols (1 for a mine).",
                "dealer": "the engine's new_game kernel, xoshiro256** seeded by SplitMix64 from (seed, stream)",
                "suites": entries}
    (directory / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def manifest(directory=SUITE_DIR) -> dict:
    """The suites' manifest (see the module's text)."""
    path = Path(directory) / "manifest.json"
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read the benchmark's manifest {path} ({exc})") from None


def load_suite(level: str, opening: str = "reference", directory=SUITE_DIR) -> Suite:
    """The stored suite of ``level`` and ``opening``, checked against the manifest's checksum."""
    name = suite_name(level, opening)
    entry = next((e for e in manifest(directory)["suites"] if e["name"] == name), None)
    if entry is None:
        raise ValueError(f"the benchmark's manifest has no suite {name}")
    path = Path(directory) / entry["file"]
    try:
        with np.load(path, allow_pickle=False) as z:
            games, rows, cols = (int(v) for v in z["shape"])
            layouts = np.unpackbits(z["mines"], axis=1, count=rows * cols).reshape(games, rows, cols).astype(bool)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"cannot read the suite {path} ({exc})") from None
    if layouts_checksum(layouts) != entry["layouts_sha256"]:
        raise ValueError(f"the suite {path} does not match its checksum in the manifest: it was changed")
    return Suite(name, level, Setting(rows, cols, entry["mines"]), opening, _first(opening), entry["seed"], layouts)


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
        return random_policy(AGENT_SEED) if self.randomly else solver_policy(env)


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
        self.takes_mines = _arity(fn) >= 2

    def policy(self, env):
        mines = env.setting.mines
        fn = self.fn
        return (lambda view: fn(view, mines)) if self.takes_mines else fn


#: A policy's entry point on the command line: ``module.sub:function`` (or ``module:Class.method``).
ENTRY_POINT = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")


def resolve_agent(text: str):
    """What the command line's AGENT names: ``"solver"`` or ``"random"``; an agent file (``.npz``: a bandit agent
    saved by ``train --save``, or, with the extra ``deep``, a neural bandit or a PPO policy file, e.g. the
    ``policy.npz`` of a stored run of ``ext:benchmark_ppo``); or ``MODULE:FUNCTION``, a policy
    imported from the Python path (the current directory first), see :func:`player_of`."""
    if text in ("solver", "random"):
        return text
    path = Path(text)
    if text.endswith(".npz") or path.is_file():
        return _load_file(path)
    if not ENTRY_POINT.fullmatch(text):
        raise ValueError(f"agent must be solver, random, an agent file (.npz) or MODULE:FUNCTION, got {text!r}")
    module, _, attr = text.partition(":")
    try:
        obj = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise ValueError(f"cannot import {module!r} for the policy {text} ({exc}); run from the folder that holds "
                         f"it, or add that folder to PYTHONPATH") from None
    except Exception as exc:  # the user's module failed while importing: name it, no traceback
        raise ValueError(f"importing {module!r} for the policy {text} raised {type(exc).__name__}: {exc}") from None
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


def _arity(fn) -> int:
    """How many positional arguments ``fn`` takes (1: the view; 2: the view and the mine count)."""
    try:
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty]
    except (TypeError, ValueError):
        return 1
    if len(params) not in (1, 2):
        raise BenchmarkError(f"a policy takes the view (and optionally the mine count): {_label(fn)} takes "
                             f"{len(params)} required arguments")
    return len(params)


def _label(fn) -> str:
    return getattr(fn, "__name__", None) or type(fn).__name__


def player_of(agent, name: str | None = None) -> _Player:
    """The benchmark's player of ``agent``: ``"solver"``, ``"random"``, a trained bandit agent (any kind, a
    plug-in rule too), a trained neural bandit, or a policy: a callable given the view (rows x cols cell codes:
    0-8 numbers, 9 covered; and, if it takes a second argument, the mine count) that returns the tile to click,
    as ``(row, col)`` or as the index ``row * cols + col`` (so a Gymnasium policy of
    :class:`~sweeper.running.env.MinesweeperEnv` without flags is one). A policy with a ``reset()`` method has it
    called before each game."""
    if isinstance(agent, str):
        if agent in ("solver", "random"):
            return _Solver(agent == "random")
        raise BenchmarkError(f"agent must be 'solver', 'random', a trained agent or a policy, got {agent!r}")
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
        except KeyboardInterrupt:
            raise
        except Exception as exc:  # the user's code: any failure is named, never a traceback
            raise BenchmarkError(f"{self._where()}: the policy raised {type(exc).__name__}: {exc}") from exc

    def _action(self, out, view) -> int:
        rows, cols = view.shape
        n = rows * cols
        if isinstance(out, (tuple, list, np.ndarray)) and len(out) == 2 and all(
                isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in out):
            r, c = int(out[0]), int(out[1])
            if not (0 <= r < rows and 0 <= c < cols):
                raise BenchmarkError(f"{self._where()}: tile {(r, c)} is off the {rows}x{cols} board")
            a = r * cols + c
        elif isinstance(out, (int, np.integer)) and not isinstance(out, (bool, np.bool_)):
            a = int(out)
            if not 0 <= a < (2 * n if self.flags else n):
                raise BenchmarkError(f"{self._where()}: action {a} is off the board (0 to {n - 1}: row * {cols} "
                                     f"+ col)")
        else:
            raise BenchmarkError(f"{self._where()}: the policy returned {out!r} ({type(out).__name__}); return "
                                 f"(row, col) or the index row * {cols} + col")
        if a < n and view.flat[a] != COVERED:
            what = "flagged" if view.flat[a] == 10 else "already revealed"
            raise BenchmarkError(f"{self._where()}: tile {divmod(a, cols)} is {what}")
        return a

    def __call__(self, obs):
        view = np.asarray(obs)
        a = self._action(self._call(self.policy, view.copy()), view)
        if a < view.size:
            if self.oracle:
                p = mine_probabilities(view, self.suite.setting.mines)
                scored = self.regret[-1]
                scored[0] += 1
                gap = float(p.flat[a] - np.nanmin(p))
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


def describe(summary: dict) -> list:
    """The lines a person reads of a score's :meth:`Score.summary` (the command line prints them)."""
    r = summary
    lines = [f"agent: {r['agent']}",
             f"suite: {r['suite']} ({r['board']}, {r['opening']} opening), the first {r['games']:,} boards",
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
        lines += [f"regret: {r['regret_per_decision']:.4f} per decision, {r['regret_per_game']:.4f} per game",
                  f"  {r['regret_decisions']:,} decisions on the first {r['regret_games']:,} boards",
                  f"  oracle: {r['oracle']}"]
    if r["paths_agree"] is not None and r["paths_agree"] != r["regret_games"]:
        lines.append(f"note: the environment's games agreed with the fast player's on {r['paths_agree']} of "
                     f"{r['regret_games']} boards")
    return lines


@with_openings
def score(agent, level: str = "beginner", opening: str = "reference", games: int | None = None,
          regret_games: int | None = None, *, name: str | None = None, suite: Suite | None = None) -> Score:
    """Score ``agent`` (see :func:`player_of`) on the suite of ``level`` and ``opening``.

    Parameters
    ----------
    agent : str, Agent, NeuralAgent or callable
        ``"solver"``, ``"random"``, a trained agent, a trained neural bandit or a policy (:func:`player_of`).
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

    Returns
    -------
    Score

    Raises
    ------
    ValueError
        If the level, opening, ``games`` or ``regret_games`` is invalid, or the agent cannot be scored:
        :class:`BenchmarkError` names the board and the decision where a policy failed (it raised, returned
        something that is not a tile, or a tile off the board, revealed or flagged).
    """
    if suite is None:
        suite = load_suite(level, opening)
    elif (level, opening) != (suite.level, suite.opening):
        raise ValueError(f"suite {suite.name} is of level {suite.level} and opening {suite.opening}: level and "
                         f"opening have no effect with it; leave them at the suite's")
    n = len(suite) if games is None else whole(games, "games", 1)
    if n > len(suite):
        raise ValueError(f"games must be at most the suite's {len(suite):,} boards, got {n:,}")
    k = min(REGRET_GAMES[suite.level], n) if regret_games is None else whole(regret_games, "regret_games", 0)
    if k > n:
        raise ValueError(f"regret_games ({k:,}) must be at most games ({n:,}): regret is scored on the same boards")
    player = player_of(agent, name)
    layouts = suite.layouts[:n]
    warm = warm_up(player, suite)
    cpu0 = time.process_time()
    table = player.fast(suite, layouts)
    if table is None:
        table, _ = _env_games(player, suite, layouts, oracle=False)
    cpu = time.process_time() - cpu0
    agree = None
    regret = pd.DataFrame({"decisions": pd.Series(dtype=np.int64), "regret": pd.Series(dtype=float)})
    if k:
        env_table, scored = _env_games(player, suite, layouts[:k], oracle=True)
        regret = pd.DataFrame(scored, columns=["decisions", "regret"])
        if type(player) is not _Policy:
            agree = int((env_table["won"].to_numpy() == table["won"].to_numpy()[:k]).sum())
    return Score(player.name, suite, table.reset_index(drop=True), cpu, regret, agree, machine(), warm)


def warm_up(player: _Player, suite: Suite) -> float:
    """Compile the kernels of the path that ``player``'s test games take (or load them from the compiler's disk
    cache) on the suite's first board, before the timing; returns the wall seconds it took.

    An agent with a fast player plays that board with it, called as for its test games. A policy is not called:
    its games, and any state of its own (a random generator, a count of games), are left as they were; the
    package's solver plays the board through the same environment and referee instead, which compiles the
    environment's kernels and the exact probabilities (the regret's oracle, and
    :func:`~sweeper.running.policies.solver_action`'s). What the policy's own code compiles on its first call is its
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
