"""Training and evaluation: many games with one agent, with per-game records.

:func:`train` plays games and learns (paper: 10^6 games); :func:`evaluate`
plays test games either still learning (what the paper's code does) or with the
agent frozen (``freeze=True``: nothing in the agent changes). Both return a
:class:`Run` whose ``records`` table has one row per game:

``setting`` (e.g. ``8x8x10``), ``won``, ``decisions``, ``clicks``, ``flags``
(placements), ``wrong_flags``, ``removals`` (forced flag removals),
``revealed`` (fraction of safe tiles revealed), ``actions_recorded`` and
``perfect_actions`` (the table's counts after the game).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..agents import custom
from ..agents.kinds import Agent, RuleAgent, StateAction, make_agent
from ..checks import boolean, whole
from ..agents.kernels import (R_CLK, R_DEC, R_FLP, R_PERFECT, R_RECORDED, R_REM, R_REV, R_WON, R_WRONG, REC_SIZE,
                            new_cache)
from ..agents.loop import play_games
from ..agents.values import ValueTable
from ..game.engine import Setting, check_layout, new_board, with_openings
from ..kernel_cache import compiling
from ..rng import check_seed, streams


@dataclass
@with_openings
class Run:
    """The outcome of :func:`train` or :func:`evaluate` (or :func:`play`): the games' records and how they were played.

    Runs are made by :func:`play`, which :func:`train` and :func:`evaluate` call; a reader reads them.

    Attributes
    ----------
    agent : Agent
        The agent of the run: the one trained or tested in place, the one built from a spec, or, for
        ``evaluate(..., freeze=True)``, the agent passed in (unchanged: a copy of it played).
    settings : list of Setting
        The board settings, in the order they were played.
    episodes : int
        The games the run holds, over all its settings (``len(records)``; fewer than planned when a plug-in
        rule failed: see :class:`~sweeper.agents.custom.RuleError`).
    seed : int
        The run's seed.
    opening : str
        The opening: {openings}.
    learn : bool
        Whether the agent learnt from the games.
    records : pandas.DataFrame
        One row per game, settings in order: ``setting`` (categorical, e.g. ``"8x8x10"``), ``won``,
        ``decisions``, ``clicks``, ``flags`` (placements), ``wrong_flags``, ``removals`` (forced flag
        removals), ``revealed`` (fraction of the safe tiles revealed), ``actions_recorded`` and
        ``perfect_actions`` (the table's counts after the game).
    seconds : float
        Wall-clock seconds the games took, kernel compilation on first use included.
    extra : dict
        Keys that :meth:`summary` adds to its own (and that replace its own of the same name).
    """

    agent: Agent
    settings: list
    episodes: int
    seed: int
    opening: str
    learn: bool
    records: pd.DataFrame
    seconds: float
    extra: dict = field(default_factory=dict)

    @property
    def wins(self) -> int:
        """The number of games won."""
        return int(self.records["won"].sum())

    @property
    def win_rate(self) -> float:
        """The fraction of the games won (NaN for a run of no games)."""
        return self.wins / len(self.records) if len(self.records) else float("nan")

    def blocks(self, size: int = 10_000) -> pd.DataFrame:
        """The run in blocks of ``size`` games (the last may be shorter): per block its win rate and the
        actions recorded at its end.

        Parameters
        ----------
        size : int, default 10_000
            Games per block, an integer >= 1.

        Returns
        -------
        pandas.DataFrame
            One row per block, in order, labelled by its games (``"games 1-5,000"``), with the columns
            ``win rate`` (the fraction of its games won) and ``actions recorded`` (the table's count after its
            last game). No rows for a run of no games.

        Raises
        ------
        ValueError
            If ``size`` is not an integer >= 1.
        """
        size = whole(size, "size", 1)
        r = self.records
        g = r.groupby(np.arange(len(r)) // size)
        out = g.agg(win_rate=("won", "mean"), actions_recorded=("actions_recorded", "last"))
        out.index = [f"games {k * size + 1:,}-{min((k + 1) * size, len(r)):,}" for k in out.index]
        return out.rename(columns=lambda c: c.replace("_", " "))

    def summary(self) -> dict:
        """The run in a few numbers: the CLI's JSON keys.

        Returns
        -------
        dict
            ``agent`` (the agent's name), ``board`` (the settings joined by ``+``), ``opening``, ``episodes``
            (games played), ``seed``, ``learning``, ``wins``, ``win_rate``, ``mean_decisions`` (per game; NaN
            without games), ``actions_recorded`` and ``perfect_actions`` (the agent's table now), ``seconds``
            and ``games_per_second`` (inf when ``seconds`` is 0), then the keys of ``extra``.
        """
        n = len(self.records)
        return {
            "agent": self.agent.name,
            "board": "+".join(str(s) for s in self.settings),
            "opening": self.opening,
            "episodes": n,
            "seed": self.seed,
            "learning": self.learn,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "mean_decisions": float(self.records["decisions"].mean()) if n else float("nan"),
            "actions_recorded": self.agent.actions_recorded,
            "perfect_actions": self.agent.perfect_actions,
            "seconds": self.seconds,
            "games_per_second": n / self.seconds if self.seconds > 0 else float("inf"),
            **self.extra,
        }


def _settings(boards) -> list[Setting]:
    if isinstance(boards, (str, Setting)) or (isinstance(boards, tuple) and len(boards) == 3
                                              and all(isinstance(v, (int, np.integer)) for v in boards)):
        boards = [boards]
    out = [Setting.parse(b) for b in boards]
    if not out:
        raise ValueError("no board setting given")
    return out


def check_episodes(episodes) -> int:
    return whole(episodes, "episodes", 0)


#: Bytes a game's record takes while a run lasts (its kernel row; the run's table takes about as much again).
RECORD_BYTES = 2 * REC_SIZE * 8


def _memory() -> int:
    """This machine's physical memory in bytes (0 where the OS does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 0


def check_record_memory(games: int) -> None:
    """Refuse a run whose per-game records would not fit in half of this machine's memory, before any work."""
    memory = _memory()
    if memory and games * RECORD_BYTES > memory // 2:
        most = memory // 2 // RECORD_BYTES
        raise ValueError(f"{games:,} games in one run keep {games * RECORD_BYTES / 2**30:,.1f} GiB of per-game "
                         f"records, more than half of this machine's {memory / 2**30:.0f} GiB: play at most "
                         f"{most:,} games per run (several runs can continue training the same agent)")


#: Seconds a kernel call should take when ``play`` sizes them itself: how often the progress bar
#: moves and Ctrl-C is acted on.
CALL_SECONDS = 1.0
#: Work (games x tiles) of a setting's first kernel call, before its speed is known.
FIRST_CALL_WORK = 50_000


def next_chunk(count: int, seconds: float, target: float = CALL_SECONDS) -> int:
    """Games for the next kernel call, after ``count`` games took ``seconds``: about ``target``
    seconds of work, growing at most fourfold per call (at least one game)."""
    if seconds <= 0:
        return 4 * count
    return max(1, min(4 * count, int(count * target / seconds)))


@dataclass(frozen=True)
class KernelCalls:
    """How :func:`play` hands its games to the engine: ``chunk`` games per kernel call, each call handed
    ``recorder``. Neither changes the games or what the agent learns.

    Attributes
    ----------
    chunk : int or None
        Games per kernel call. By default (None) each call is sized by its work (games x tiles) to take about
        :data:`CALL_SECONDS`, so the progress bar moves, and Ctrl-C is acted on, about once a second on any board.
    recorder : Recorder or None
        A :class:`sweeper.running.belief.Recorder`, handed to every call: every decision measured against the
        exact probabilities.

    Raises
    ------
    ValueError
        If ``chunk`` is not None or an integer >= 1.
    """

    chunk: int | None = None
    recorder: object = None

    def __post_init__(self):
        chunk = self.chunk
        if chunk is not None and (isinstance(chunk, bool) or not isinstance(chunk, (int, np.integer)) or chunk < 1):
            raise ValueError(f"chunk must be None or an integer >= 1, got {chunk!r}")


class InterruptBetweenCalls:
    """Ctrl-C during a kernel call is noted and acted on once the call has returned and its
    table is stored, so an interrupted agent holds exactly the games it finished; while a
    kernel is compiled (its first use), before any of it runs, Ctrl-C raises at once. Active
    from construction to :meth:`restore` (main thread, default Ctrl-C handler only)."""

    def __init__(self, on_hit=None):
        self.hit = False
        self.on_hit = on_hit
        self.previous = None
        if (threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
            self.previous = signal.signal(signal.SIGINT, self._note)

    def _note(self, signum, frame):
        if compiling(frame):  # a kernel is being compiled on its first use (a minute or more): nothing ran yet
            raise KeyboardInterrupt("while the kernels were being compiled")
        self.hit = True
        if self.on_hit is not None:
            self.on_hit()

    def restore(self):
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
            self.previous = None


@with_openings
def play(agent: Agent, boards, episodes: int | None, seed: int = 0, *, learn: bool = True, opening: str = "reference",
         first=None, layouts=None, progress: bool = True, calls: KernelCalls | None = None) -> Run:
    """Play ``episodes`` games on each setting of ``boards`` (in order) with ``agent``.

    The one entry point behind :func:`train` and :func:`evaluate`. Boards come from the seed's board stream (or
    from ``layouts``); exploration draws come from its agent stream. The result does not depend on ``calls``.
    Ctrl-C stops the run between two kernel calls; the agent keeps what it learned from the games played.

    Parameters
    ----------
    agent : Agent or str
        The agent, played (and, with ``learn=True``, taught) in place, or a spec such as
        ``"ucb:0.1"`` (see :func:`~sweeper.agents.kinds.make_agent`), built afresh.
    boards : str, Setting or list
        One board setting (``"8x8x10"`` as rows x cols x mines, a preset name such as ``"expert"``, a
        :class:`~sweeper.game.engine.Setting` or a ``(rows, cols, mines)`` tuple) or a list of them, played in
        order, ``episodes`` games each.
    episodes : int or None
        Games per setting, a non-negative integer. With ``layouts`` the games are the layouts, one each:
        ``episodes`` may then be None or 0 ("as many as there are layouts") or the number of layouts; any
        other number is refused, since it would have no effect.
    seed : int, default 0
        The run's seed, in ``[0, 2**64)``: the same seed gives the same boards, draws and records.
    learn : bool, default True
        Whether the agent learns from the games (False: its table is left as it is).
    opening : str, default "reference"
        The opening: {openings} (see the book page "The reference rules").
    first : tuple of int, optional
        ``(row, col)`` of the first click for the {first_openings} openings (default {first_default});
        refused with the ``reference`` opening, which opens a tile of its own.
    layouts : list of numpy.ndarray, optional
        2-D boolean mine arrays (or 0/1), one per game, for a single setting; each must have the setting's
        shape and mine count and agree with the opening.
    progress : bool, default True
        Show a progress bar (tqdm).
    calls : KernelCalls, optional
        The games per kernel call and a recorder of every decision (:class:`KernelCalls`); None:
        ``KernelCalls()``, calls sized to take about :data:`CALL_SECONDS` each, no recorder.

    Returns
    -------
    Run
        The agent, the settings, the seed, the opening, whether it learned, the seconds taken and
        ``records``, a DataFrame with one row per game, settings in order: ``setting``, ``won``,
        ``decisions``, ``clicks``, ``flags`` (placements), ``wrong_flags``, ``removals`` (forced flag
        removals), ``revealed`` (fraction of safe tiles revealed), ``actions_recorded`` and
        ``perfect_actions`` (the table's counts after the game). ``win_rate``, ``blocks(size)`` and
        ``summary()`` summarise it.

    Raises
    ------
    ValueError
        If ``agent`` is not an agent or a valid spec; a board setting does not parse or cannot hold its
        mines, or ``boards`` is empty; ``episodes`` is None without ``layouts``, not a non-negative integer,
        or not the number of layouts; ``seed`` is not an integer in ``[0, 2**64)``; ``learn`` or
        ``progress`` is not a bool; ``calls`` is not None or a ``KernelCalls``; the state-action agent is
        given a board of more than 16 tiles, or of another shape than its table's (or boards of two
        shapes); ``layouts`` go with several settings or a layout does not fit the setting or the opening;
        ``opening`` or ``first`` is invalid; or the per-game records would take more than half of this
        machine's memory.
    RuleError
        If a plug-in rule fails (:class:`~sweeper.agents.custom.RuleError`): the finished games are in
        ``error.run``.
    KeyboardInterrupt
        On Ctrl-C, once the kernel call in progress has returned.
    """
    agent = make_agent(agent) if not isinstance(agent, Agent) else agent
    settings = _settings(boards)
    episodes = _checked_episodes(episodes, layouts)
    seed = check_seed(seed)
    learn, progress = boolean(learn, "learn"), boolean(progress, "progress")
    calls = KernelCalls() if calls is None else calls
    if not isinstance(calls, KernelCalls):
        raise ValueError(f"calls must be a KernelCalls (or None for its defaults), got {calls!r}")
    layouts = _checked_layouts(settings, episodes, layouts, opening, first)
    check_record_memory(episodes * len(settings))
    if isinstance(agent, StateAction):  # last of the checks: it gives the agent its board shape
        agent.claim(settings)
    return _Playing(agent, settings, episodes, seed, opening, learn, calls).run(first, layouts, progress)


def _checked_episodes(episodes, layouts) -> int:
    """Games per setting: ``episodes``, needed unless ``layouts`` are given (then None or 0 means one per layout)."""
    if episodes is None and layouts is None:
        raise ValueError("episodes must be given (a number of games), unless layouts are: one game per layout")
    if layouts is not None and (episodes is None or (episodes == 0 and not isinstance(episodes, bool))):
        episodes = len(layouts)
    return check_episodes(episodes)


def _checked_layouts(settings, episodes, layouts, opening, first):
    """The layouts as one array (or None): they go with a single setting, one game each, and fit it."""
    if layouts is None:
        return None
    if len(settings) != 1:
        raise ValueError("layouts go with a single board setting")
    if episodes != len(layouts):
        raise ValueError(f"episodes ({episodes:,}) must be the number of layouts given ({len(layouts):,}): "
                         f"one game is played on each layout")
    if not len(layouts):
        return np.zeros((0, settings[0].tiles), np.uint8)
    return np.stack([check_layout(m, settings[0], opening, first) for m in layouts])


class _Playing:
    """One call of :func:`play`, its arguments checked: the games of each setting, played by kernel calls sized
    to take about :data:`CALL_SECONDS` each (or ``calls.chunk`` games), into one array of records."""

    def __init__(self, agent, settings, episodes, seed, opening, learn, calls: KernelCalls):
        self.agent, self.settings, self.episodes, self.seed = agent, settings, episodes, seed
        self.opening, self.learn, self.chunk, self.recorder = opening, learn, calls.chunk, calls.recorder
        self.total = episodes * len(settings)
        self.records = np.zeros((self.total, REC_SIZE), dtype=np.int64)
        self.rng_b, self.rng_a, rule_stream = streams(seed)
        self.rule_stream = rule_stream if isinstance(agent, RuleAgent) else None
        self.pol = agent._policy(learn)

    def run(self, first, layouts, progress: bool) -> Run:
        """Play every setting in order; the :class:`Run` of all the games."""
        agent = self.agent
        self.bar = None
        if progress:
            from tqdm.auto import tqdm
            self.bar = tqdm(total=self.total, desc=f"{agent.name} {'+'.join(map(str, self.settings))}", unit="game",
                            leave=False)
        self.t0 = time.perf_counter()
        # a rule is told to stop at its next decision (a compiled one's kernel asks about every tenth of a second);
        # the other kernels stop between calls
        self.interrupt = InterruptBetweenCalls(agent.rule._interrupt if self.rule_stream is not None else None)
        try:
            for i, s in enumerate(self.settings):
                self._setting(s, i * self.episodes, first, layouts)
        finally:
            self.interrupt.restore()
            if self.bar is not None:
                self.bar.close()
        return self._run(self.total)

    def _run(self, upto: int) -> Run:
        return _run(self.agent, self.settings, self.episodes, upto, self.records, self.seed, self.opening,
                    self.learn, time.perf_counter() - self.t0)

    def _setting(self, s: Setting, done: int, first, layouts) -> None:
        """The games of setting ``s``, after the ``done`` games of the settings before it."""
        agent, recorder, episodes = self.agent, self.recorder, self.episodes
        board = new_board(s, self.opening, first)
        cache = new_cache(board)
        rule = None if self.rule_stream is None else agent.rule._kernel_args(self.rule_stream, 8 * board.shown.shape[0])
        lay = layouts if layouts is not None else np.zeros((0, s.tiles), np.uint8)
        if recorder is not None:
            recorder.begin_setting(board, s, episodes)
        # a Python rule's speed is unknown: its first call plays one game, then calls grow with its speed
        python_rule = rule is not None and not agent.rule.compiled
        size = self.chunk or (1 if python_rule else max(1, FIRST_CALL_WORK // s.tiles))
        view = self.records[done:done + episodes]
        start = 0
        while start < episodes:
            count = min(size, episodes - start)
            t_call = time.perf_counter()
            probe = None if recorder is None else recorder.call(count)
            games, rngs = range(start, start + count), (self.rng_b, self.rng_a)
            if rule is None:
                extra = () if probe is None else (None, probe)
                probe = play_games(board, cache, agent.table, self.pol, rngs, lay, view, games, *extra)
            else:
                probe = custom.quiet(custom.play_games, board, cache, agent.table, self.pol, rngs, lay, view, games,
                                     rule, probe)
                self._check_rule(rule, done)
            if recorder is not None:
                recorder.adopt(probe)
                recorder.collect()
            if self.bar is not None:
                self.bar.update(count)
            if self.chunk is None:
                size = next_chunk(count, time.perf_counter() - t_call)
            start += count
            if self.interrupt.hit:
                raise KeyboardInterrupt(f"stopped after {done + start:,} of {self.total:,} games")

    def _check_rule(self, rule, done: int) -> None:
        """After a kernel call of a plug-in rule: ``KeyboardInterrupt`` if it was stopped by Ctrl-C, ``RuleError``
        (with the finished games in ``error.run``) if it failed."""
        agent = self.agent
        message = agent.rule._failure(rule, done)
        if message is None:
            return
        finished = done + int(rule.status[custom.E_GAME])
        if agent.rule._interrupted and (self.interrupt.hit or isinstance(agent.rule.cause, KeyboardInterrupt)):
            raise KeyboardInterrupt(f"stopped after {finished:,} of {self.total:,} games (the game in "
                                    f"progress was abandoned)")
        raise custom.RuleError(message + f"; the {finished:,} finished games are in error.run",
                               self._run(finished)) from agent.rule.cause


def warm_up(agent: Agent, board, *, learn: bool = True, opening: str = "reference", first=None) -> float:
    """Play one game of ``board`` with a copy of ``agent`` (``agent`` and the run's streams are untouched) and
    return the seconds it took: compiling the kernels the agent plays with on their first use, or loading
    them from the disk cache, plus the game. A run timed after it times the games alone (the command line's
    ``compile_seconds``); the board's setting, ``opening`` and ``first`` are checked as :func:`play` checks them."""
    t0 = time.perf_counter()
    other = agent.copy()
    other.table = ValueTable(16)  # empty and small, so that the game grows it as a longer run grows its table
    play(other, board, 1, learn=learn, opening=opening, first=first, progress=False)
    return time.perf_counter() - t0


def _run(agent, settings, episodes, upto, records, seed, opening, learn, seconds) -> Run:
    """The :class:`Run` of the first ``upto`` games (settings played in order, ``episodes`` each)."""
    records = records[:upto]
    safe = np.repeat([s.tiles - s.mines for s in settings], episodes)[:upto]
    frame = pd.DataFrame({
        "setting": pd.Categorical(np.repeat([str(s) for s in settings], episodes)[:upto],
                                  categories=list(dict.fromkeys(str(s) for s in settings))),
        "won": records[:, R_WON].astype(bool),
        "decisions": records[:, R_DEC],
        "clicks": records[:, R_CLK],
        "flags": records[:, R_FLP],
        "wrong_flags": records[:, R_WRONG],
        "removals": records[:, R_REM],
        "revealed": np.where(safe > 0, records[:, R_REV] / np.maximum(safe, 1), 1.0),
        "actions_recorded": records[:, R_RECORDED],
        "perfect_actions": records[:, R_PERFECT],
    })
    return Run(agent, settings, upto, seed, opening, learn, frame, seconds)


def _default_episodes(episodes, kw, default):
    """``episodes`` as given; when left out, one game per layout if ``layouts`` are given, else ``default``."""
    if episodes is not None:
        return episodes
    return None if kw.get("layouts") is not None else default


def train(agent, boards="8x8x10", episodes: int | None = None, seed: int = 0, **kw) -> Run:
    """Train ``agent`` for ``episodes`` games on each setting of ``boards``.

    With ``layouts`` (in ``kw``), one game per layout (see :func:`play`).

    Parameters
    ----------
    agent : Agent or str
        The agent, trained in place, or a spec such as ``"ucb:0.1"``
        (see :func:`~sweeper.agents.kinds.make_agent`).
    boards : str, Setting or list, default "8x8x10"
        A setting like ``"8x8x10"`` or a list, e.g. ``["8x8x10", "8x8x11", "8x8x12", "8x8x13"]`` with
        ``episodes=250_000``; played in order.
    episodes : int, optional
        Games per setting; default 10^6, or with ``layouts`` one game per layout.
    seed : int, default 0
        The run's seed (same seed, same games).
    **kw
        The keyword arguments of :func:`play` except ``learn``: ``opening``, ``first``, ``layouts``,
        ``progress``, ``calls``.

    Returns
    -------
    Run
        The run, one record per game (see :func:`play`); ``run.agent`` is the trained agent.

    Raises
    ------
    ValueError
        If ``learn`` is given (train always learns: use ``evaluate(agent, ..., freeze=True)`` for games
        without learning), or for any argument :func:`play` refuses.
    RuleError
        If a plug-in rule fails (the finished games are in ``error.run``).
    """
    if "learn" in kw:
        raise ValueError("train always learns: use evaluate(agent, ..., freeze=True) for games without learning")
    return play(agent, boards, _default_episodes(episodes, kw, 1_000_000), seed, learn=True, **kw)


def evaluate(agent, boards="8x8x10", episodes: int | None = None, seed: int = 0, *, freeze: bool = False,
             **kw) -> Run:
    """Test games of ``agent``, still learning (the paper's code does) or frozen.

    Parameters
    ----------
    agent : Agent or str
        The agent or a spec such as ``"ucb:0.1"`` (see :func:`~sweeper.agents.kinds.make_agent`).
    boards : str, Setting or list, default "8x8x10"
        A board setting or a list of them, played in order.
    episodes : int, optional
        Games per setting; default 10^4, or with ``layouts`` one game per layout (see :func:`play`).
    seed : int, default 0
        The run's seed (same seed, same games).
    freeze : bool, default False
        False keeps learning (the paper's code does), in ``agent`` itself; True plays a copy with learning
        off, leaving ``agent`` untouched.
    **kw
        The keyword arguments of :func:`play` except ``learn``: ``opening``, ``first``, ``layouts``,
        ``progress``, ``calls``.

    Returns
    -------
    Run
        The run, one record per game (see :func:`play`); ``run.agent`` is ``agent`` (with ``freeze=True``
        unchanged by the games).

    Raises
    ------
    ValueError
        If ``learn`` is given (evaluate takes ``freeze``), ``freeze`` is not a bool, or for any argument
        :func:`play` refuses.
    RuleError
        If a plug-in rule fails (the finished games are in ``error.run``).
    """
    episodes = _default_episodes(episodes, kw, 10_000)
    agent = make_agent(agent)
    if "learn" in kw:
        raise ValueError("evaluate takes freeze=, not learn= (freeze=True plays a frozen copy)")
    if boolean(freeze, "freeze"):
        run = play(agent.copy(), boards, episodes, seed, learn=False, **kw)
        run.agent = agent
        return run
    return play(agent, boards, episodes, seed, learn=True, **kw)
