"""Step through one episode (game) played by an agent, decision by decision.

The paper calls each game an *episode*. :class:`Episode` runs the very kernels
that :func:`sweeper.train` runs (``new_game``, ``refresh``, ``choose``,
``apply``, ``end_game``), one decision per :meth:`Episode.step`, and exposes
what the agent saw: every candidate action with its window, Q and N, the
choice, and its outcome. With the same agent and seed, an episode plays
exactly the first game of ``train(agent, board, 1, seed=seed)``.

By default the episode plays a *copy* of the agent, learning as in training,
so stepping through games never changes the agent you pass in. With
``exact=True`` every decision also carries the solver's exact probability of
each covered tile (:attr:`Decision.exact`), beside the agent's belief
``(Q + 1) / 2`` (:attr:`Decision.belief`), and the exact one-step oracle's verdict:
its best move (:attr:`Decision.best_move`), the probability that move is right
(:attr:`Decision.best`) and the regret of the agent's move (:attr:`Decision.regret`).
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..agents import custom
from ..agents.kinds import Agent, RuleAgent, StateAction
from ..agents.kernels import DEC, EXPLORED, P_KIND, SA, begin_game, candidate_scores, choose, new_cache, refresh
from ..agents.loop import apply, end_game
from ..agents.values import Table
from ..agents.windows import DIRECTIONS, decode_key
from ..game.engine import (ONGOING, ST, STATUS, Setting, check_layout, mines_of, new_board, new_game, view_of,
                           with_openings)
from ..game.grid import COVERED, tile_of, unpad
from ..checks import boolean, whole
from ..rng import check_seed, streams

CANDIDATE_COLUMNS = ["row", "col", "centre_row", "centre_col", "direction", "key", "q", "n", "score", "rank",
                     "chosen"]


@dataclass
class Decision:
    """One decision of an episode and its outcome.

    :meth:`Episode.step` makes one and :attr:`Episode.history` keeps them; a reader reads their fields.

    Attributes
    ----------
    number : int
        The decision's number in its game, from 1.
    tile : tuple of int
        ``(row, col)`` of the target.
    centre : tuple of int or None
        ``(row, col)`` of the chosen window's centre (None for the state-action agent).
    direction : str or None
        Where the target sits as seen from the centre: ``"NW"``, ``"N"``, ``"NE"``, ``"W"``, ``"E"``, ``"SW"``,
        ``"S"`` or ``"SE"`` (None for the state-action agent).
    key : int
        The key of the chosen action in the agent's table (for a window agent, the window's pattern:
        see :meth:`Episode.window`).
    q : float
        The action's value estimate Q when it was chosen (-1 for an action never tried).
    n : int
        How often the action had been tried before (N).
    score : float
        What the rule compared: Q (greedy), the UCB score, the Thompson draw.
    action : str
        ``"click"`` or ``"flag"``.
    mine : bool
        Whether the target hides a mine (the truth of the tile).
    removed : tuple of int or None
        ``(row, col)`` of the flag removed (and clicked) because the flags exceeded the mines, else None.
    status : str
        The game's status after the decision: ``"ongoing"``, ``"won"`` or ``"lost"``.
    view : numpy.ndarray
        The ``rows x cols`` view the agent decided on (int64 cell codes: 0-8 numbers, 9 covered, 10 flagged).
    runners_up : pandas.DataFrame
        The best ranked candidates not chosen, best first, at most the episode's ``runners_up`` of them: the
        columns of :meth:`Episode.candidates` but ``chosen``.
    exact : numpy.ndarray or None
        The exact P(mine) of every covered tile of ``view`` (``rows x cols`` float64, NaN on revealed tiles, as
        :meth:`Episode.probabilities`), with ``exact=True``; else None.
    explored : bool
        Epsilon-greedy only: the choice was the random exploration, not the ranking.
    candidates : pandas.DataFrame or None
        Every candidate with what the rule compared (see :meth:`Episode.candidates`).
    best : float or None
        The exact one-step oracle: the probability that its best move is right (with ``exact=True``).
    best_move : tuple or None
        That move, ``("click" or "flag", (row, col))``: the covered unflagged tile whose probability is furthest
        from 1/2, flagged if above it, else clicked; the first in row-major order on a tie (with ``exact=True``).
    """

    number: int
    tile: tuple            # (row, col) of the target
    centre: tuple | None   # window centre (None for the state-action agent)
    direction: str | None  # target as seen from the centre (NW, N, ..., SE)
    key: int
    q: float
    n: int
    score: float           # what the rule compared: Q (greedy), the UCB score, the Thompson draw
    action: str            # "click" or "flag"
    mine: bool             # the truth of the target tile
    removed: tuple | None  # flag removed (and clicked) because flags exceeded mines
    status: str            # game status after the decision
    view: np.ndarray       # the view the agent decided on
    runners_up: pd.DataFrame
    exact: np.ndarray | None = None  # exact P(mine) of every covered tile of ``view`` (with ``exact=True``)
    explored: bool = False  # epsilon-greedy only: the choice was the random exploration, not the ranking
    candidates: pd.DataFrame | None = None  # every candidate with what the rule compared (see Episode.candidates)
    best: float | None = None  # the exact one-step oracle: the probability its best move is right (``exact=True``)
    best_move: tuple | None = None  # that move: ("click" or "flag", (row, col)), the first in row-major order

    @property
    def right(self) -> float | None:
        """The exact probability that this move was right (a click on a safe tile, a flag on a mine)."""
        p = self.target_exact
        return None if p is None else (p if self.action == "flag" else 1.0 - p)

    @property
    def regret(self) -> float | None:
        """The decision's regret against the exact one-step oracle: ``best`` minus ``right``
        (see :mod:`sweeper.agents.oracle`; None without ``exact=True``)."""
        return None if self.best is None else max(self.best - self.right, 0.0)

    @property
    def belief(self) -> float:
        """The agent's estimate that the target is a mine, (Q + 1) / 2."""
        return (self.q + 1.0) / 2.0

    @property
    def target_exact(self) -> float | None:
        """The exact probability that the target is a mine (None without ``exact=True``)."""
        return None if self.exact is None else float(self.exact[self.tile])


@with_openings
class Episode:
    """A game of ``agent`` on ``board`` (seeded), to be played one decision at a time.

    With the same agent and seed, an episode plays exactly the first game of
    ``train(agent, board, 1, seed=seed)``. The properties ``view``, ``mines`` and ``flags`` give the board as
    ``rows x cols`` arrays, ``status`` and ``done`` the state of the game.

    Parameters
    ----------
    agent : Agent
        The agent that plays (an agent object, not a spec: see :func:`~sweeper.agents.kinds.make_agent`).
    board : str or Setting, default "8x8x10"
        The board setting: ``"8x8x10"`` (rows x cols x mines), a preset name or a
        :class:`~sweeper.game.engine.Setting`.
    seed : int, default 0
        The seed of the board (unless ``mines`` is given) and of the agent's draws, in ``[0, 2**64)``.
    opening : str, default "reference"
        The opening: {openings}.
    first : tuple of int, optional
        ``(row, col)`` of the first click for the {first_openings} openings (default {first_default}).
    mines : numpy.ndarray, optional
        A 2-D boolean (or 0/1) mine layout to play instead of the seed's board.
    learn : bool, default True
        Whether the agent learns from the game, as in training.
    copy : bool, default True
        Play a copy of the agent, so that stepping through games never changes the agent passed in;
        False plays (and teaches) ``agent`` itself.
    runners_up : int, default 5
        How many of the candidates not chosen, best ranked first, each :class:`Decision` keeps in
        ``runners_up``.
    exact : bool, default False
        Also give every decision the solver's exact probability of each covered tile (:attr:`Decision.exact`)
        and the exact one-step oracle's verdict (:attr:`Decision.best_move`, :attr:`Decision.best`,
        :attr:`Decision.regret`).

    Raises
    ------
    ValueError
        If ``agent`` is not an :class:`~sweeper.agents.kinds.Agent`; the board setting does not parse or
        cannot hold its mines; the state-action agent is given a board of more than 16 tiles or of another
        shape than its table's; ``seed`` is not an integer in ``[0, 2**64)``; ``learn``, ``copy`` or ``exact``
        is not ``True`` or ``False``; ``runners_up`` is not a non-negative integer; ``opening`` or ``first`` is
        invalid; or ``mines`` does not have the setting's shape and mine count or does not agree with the opening.

    Attributes
    ----------
    history : list of Decision
        The :class:`Decision` of every step so far, in order.
    agent : Agent
        The agent that plays: a copy of ``agent`` (``copy=True``) or ``agent`` itself.
    setting : Setting
        The board setting, parsed.
    seed : int
        The seed.
    exact : bool
        Whether decisions carry the exact probabilities and the oracle's verdict.
    opened : numpy.ndarray
        The view after the opening, before the first decision (``rows x cols`` int64 cell codes).
    """

    def __init__(self, agent: Agent, board="8x8x10", seed: int = 0, *, opening: str = "reference", first=None,
                 mines=None, learn: bool = True, copy: bool = True, runners_up: int = 5, exact: bool = False):
        if not isinstance(agent, Agent):
            raise ValueError("agent must be an Agent (see sweeper.make_agent)")
        self.setting = Setting.parse(board)
        if isinstance(agent, StateAction):
            agent.claim([self.setting], adopt=False)
        learn, copy, exact = boolean(learn, "learn"), boolean(copy, "copy"), boolean(exact, "exact")
        self.k_runners = whole(runners_up, "runners_up", 0)
        self.agent = agent.copy() if copy else agent
        self.seed = check_seed(seed)
        self.exact = exact
        self.board = b = new_board(self.setting, opening, first)
        self.cache = new_cache(b)
        self.pol = self.agent._policy(learn)
        rng_boards, self.rng_agent, rule_stream = streams(self.seed)
        self.rule = None  # a plug-in rule's tuple for the kernels (sweeper.agents.custom)
        if isinstance(self.agent, RuleAgent):
            self.rule = self.agent.rule._kernel_args(rule_stream, 8 * b.shown.shape[0])
        layout = np.zeros(0, np.uint8) if mines is None else check_layout(mines, self.setting, opening, first)
        if isinstance(self.agent, StateAction):
            self.agent.claim([self.setting])  # the board shape of the table it plays (and may teach)
        new_game(b, rng_boards, layout)
        begin_game(self.cache)
        self.opened = self.view
        self.history: list[Decision] = []
        self._refresh()
        self._finished = False
        if b.gs[ST] != ONGOING:
            self._finish()

    # -- state ---------------------------------------------------------------
    @property
    def view(self) -> np.ndarray:
        """The player's view now, a ``rows x cols`` int64 array of cell codes (a copy): 0-8 a revealed number,
        9 covered, 10 flagged, 12 the mine that was clicked (after a loss)."""
        return view_of(self.board)

    @property
    def mines(self) -> np.ndarray:
        """The mine layout, a ``rows x cols`` boolean array (a copy)."""
        return mines_of(self.board)

    @property
    def flags(self) -> np.ndarray:
        """Tiles the agent has flagged (or, with invisible flags, set aside)."""
        return unpad(self.board.flg, self.setting.rows, self.setting.cols).astype(bool)

    @property
    def status(self) -> str:
        """The game's status: ``"ongoing"``, ``"won"`` or ``"lost"``."""
        return STATUS[int(self.board.gs[ST])]

    @property
    def done(self) -> bool:
        """Whether the game is over (won or lost): no decision is left to make."""
        return bool(self.board.gs[ST] != ONGOING)

    def probabilities(self) -> np.ndarray:
        """The exact probability that each covered tile of the current view is a mine.

        Computed by :func:`sweeper.game.probability.mine_probabilities` from the view and the setting's mine count,
        every consistent layout equally likely; flags are read as covered tiles. A frontier group too large to
        enumerate within the solver's budget falls back to the unconstrained probability
        (:data:`sweeper.game.probability.NODE_BUDGET`).

        Returns
        -------
        numpy.ndarray
            ``rows x cols`` float64: P(mine) of each covered (or flagged) tile, NaN on revealed tiles.

        Raises
        ------
        ValueError
            After a loss: the view then shows the exploded mine, which the solver does not read.
        """
        from ..game.probability import mine_probabilities
        return mine_probabilities(self.view, self.setting.mines)

    def _rc(self, p) -> tuple:
        return tile_of(p, self.setting.cols)

    # -- kernels ---------------------------------------------------------------
    def _refresh(self):
        self.agent.table.adopt(refresh(self.board, self.cache, self.agent.table.bundle, self.pol))

    def _finish(self):
        end_game(self.board, self.cache, self.agent.table.bundle, self.pol)
        self._finished = True

    # -- what the agent weighs -------------------------------------------------
    def _scored(self, cache, table: Table, chosen: int) -> pd.DataFrame:
        """The candidates as the rule compared them at the decision ``choose`` just made on
        (``cache``, ``table``), ranked by the rule's own order; ``chosen`` is the chosen index."""
        idx, key, qs, ns, score, strength, second, ties_last = candidate_scores(self.board, cache, table, self.pol)
        m = idx.shape[0]
        sa = int(self.pol[P_KIND]) == SA
        tiles = idx if sa else idx // 8
        rc = np.array([self._rc(p) for p in tiles], dtype=np.int64).reshape(-1, 2)
        if sa:
            centres = np.full((m, 2), -1, np.int64)
            direction = [None] * m
        else:
            k = idx % 8
            centres = np.array([self._rc(p) for p in tiles + self.board.off8[k]], dtype=np.int64).reshape(-1, 2)
            direction = [DIRECTIONS[7 - x] for x in k]
        order = np.arange(m)
        # the rule keeps the lexicographic maximum of (strength, second), the first or the last on a tie
        rank_key = np.lexsort((-order if ties_last else order, -second, -strength))
        rank = np.empty(m, np.int64)
        rank[rank_key] = np.arange(1, m + 1)
        df = pd.DataFrame({"row": rc[:, 0], "col": rc[:, 1], "centre_row": centres[:, 0],
                           "centre_col": centres[:, 1], "direction": direction, "key": key, "q": qs, "n": ns,
                           "score": score, "rank": rank, "chosen": (tiles if sa else idx) == chosen})
        if sa:
            df[["centre_row", "centre_col"]] = df[["centre_row", "centre_col"]].astype("Int64").mask(df["centre_row"] < 0)
        return df[CANDIDATE_COLUMNS]

    def candidates(self) -> pd.DataFrame:
        """Every candidate action of the next decision, in scan order.

        A plug-in rule (:mod:`sweeper.agents.custom`) keeps its preferences to itself: its candidates show
        Q as the score and the greedy order as the rank, and ``chosen`` marks what the rule picked.
        Computed by the agent's own kernels on a copy of its random stream, so the ranking and the choice
        are exactly the ones the next :meth:`step` makes (for an epsilon-greedy exploration, ``chosen``
        marks the random pick).

        Returns
        -------
        pandas.DataFrame
            One row per candidate: its target (``row``, ``col``), its window's centre (``centre_row``,
            ``centre_col``) and where the target sits in it (``direction``), ``key``, ``q``, ``n``,
            ``score`` (what the rule compares: Q for the greedy agents, the UCB score, the Thompson draw),
            ``rank`` in the rule's own order (1 = preferred) and ``chosen``.

        Raises
        ------
        ValueError
            If the episode is over: there is no next decision.
        RuleError
            If the agent's plug-in rule fails on the copy of its stream
            (:class:`~sweeper.agents.custom.RuleError`).
        """
        if self.done:
            raise ValueError(f"the episode is over ({self.status})")
        kept, bundle = self.cache, self.agent.table.bundle
        cache = kept._replace(tslot=kept.tslot.copy(), tgen=kept.tgen.copy(), tdraw=kept.tdraw.copy(),
                              ac=kept.ac.copy())
        table = bundle._replace(meta=bundle.meta.copy())
        if self.rule is None:
            choice = choose(self.board, cache, table, self.pol, self.rng_agent.copy())
        else:
            r = self.rule
            rule = r._replace(rng=deepcopy(r.rng), status=r.status.copy())
            self.agent.rule._use_rng(rule.rng)
            try:
                choice = custom.quiet(choose, self.board, cache, table, self.pol, self.rng_agent.copy(), rule)
            finally:
                self.agent.rule._use_rng(r.rng)
            self._check_rule(rule)
        return self._scored(cache, table, choice[0] if choice[7] < 0 else choice[7])

    def _check_rule(self, rule):
        custom.raise_failure(self.agent.rule, rule, "in this episode")

    def window(self, decision: Decision) -> tuple[np.ndarray, int]:
        """The chosen action's pattern as the agent stores it (canonical 3x3 + target cell).

        Parameters
        ----------
        decision : Decision
            A decision of this episode (one of ``history``).

        Returns
        -------
        tuple of (numpy.ndarray, int)
            The 3x3 window of cell codes, in canonical orientation when the agent uses symmetries, and the
            number (0-8, row-major) of the target's cell in it.

        Raises
        ------
        ValueError
            If ``decision.key`` is not the key of a window (negative, out of range, or with the window's
            centre off the board).
        """
        return decode_key(decision.key, symmetric=self.agent.symmetric)

    # -- play ------------------------------------------------------------------
    def step(self) -> Decision:
        """Make one decision; returns what happened.

        Returns
        -------
        Decision
            The decision (also appended to ``history``): ``number``, the target ``tile`` and the window's
            ``centre`` and ``direction`` (None for the state-action agent), its ``key``, ``q``, ``n`` and
            ``score``, the ``action`` (``"click"`` or ``"flag"``), whether the target was a ``mine``, the
            flag ``removed`` (and clicked) because flags exceeded mines (or None), the game's ``status``
            after the move, the ``view`` decided on, the ``runners_up`` and every ``candidates`` row (as
            :meth:`candidates`), ``explored`` (an epsilon-greedy exploration), the agent's ``belief``
            (Q + 1) / 2 and, with ``exact=True``, ``exact``, ``best``, ``best_move``, ``right`` and
            ``regret``.

        Raises
        ------
        ValueError
            If the episode is over.
        RuleError
            If the agent's plug-in rule fails (:class:`~sweeper.agents.custom.RuleError`).
        """
        if self.done:
            raise ValueError(f"the episode is over ({self.status})")
        b, cache = self.board, self.cache
        before = self.view
        exact = self.probabilities() if self.exact else None
        best = best_move = None
        if exact is not None:
            live = (before == COVERED) & ~self.flags
            sure = np.where(live, np.maximum(exact, 1.0 - exact), -1.0)
            br, bc = np.unravel_index(int(np.argmax(sure)), sure.shape)
            best = float(sure[br, bc])
            best_move = ("flag" if exact[br, bc] > 0.5 else "click", (int(br), int(bc)))
        table = self.agent.table.bundle
        if self.rule is None:
            x, key, slot, qv, nv, score, flag, idx = choose(b, cache, table, self.pol, self.rng_agent)
        else:
            x, key, slot, qv, nv, score, flag, idx = custom.quiet(choose, b, cache, table, self.pol, self.rng_agent,
                                                                  self.rule)
            self._check_rule(self.rule)
        cands = self._scored(cache, table, x if idx < 0 else idx)
        if key < 0:
            key = int(table.keys[slot])
        if self.rule is None:
            removed = apply(b, cache, table, self.pol, x, key, slot, flag)
        else:
            removed = custom.quiet(apply, b, cache, table, self.pol, x, key, slot, flag, self.rule)
            self._check_rule(self.rule)
        centre = direction = None
        if idx >= 0:
            centre, direction = self._rc(x + b.off8[idx % 8]), DIRECTIONS[7 - idx % 8]
        runners = cands[~cands["chosen"]].sort_values("rank").head(self.k_runners).reset_index(drop=True)
        d = Decision(number=int(cache.ac[DEC]), tile=self._rc(x), centre=centre, direction=direction, key=int(key),
                     q=float(qv), n=int(nv), score=float(score), action="flag" if flag else "click",
                     mine=bool(b.mine[x]), removed=None if removed < 0 else self._rc(removed),
                     status="", view=before, runners_up=runners[CANDIDATE_COLUMNS[:-1]], exact=exact,
                     explored=bool(cache.ac[EXPLORED]), candidates=cands, best=best, best_move=best_move)
        if b.gs[ST] == ONGOING:
            self._refresh()
        else:
            self._finish()
        d.status = self.status
        self.history.append(d)
        return d

    def table(self) -> pd.DataFrame:
        """The decisions made so far, one row each (numbered from 1).

        Returns
        -------
        pandas.DataFrame
            Indexed by ``decision``: the ``target`` tile, the ``window centre`` and where the target sits in
            it (``target in window``), ``Q``, ``N``, the ``score`` the rule compared, the ``action``, whether
            the target was a ``mine``, and the ``game``'s status after the move.
        """
        rows = [{"target": d.tile, "window centre": d.centre, "target in window": d.direction, "Q": d.q, "N": d.n,
                 "score": d.score, "action": d.action, "mine": d.mine, "game": d.status} for d in self.history]
        return pd.DataFrame(rows, index=pd.RangeIndex(1, len(rows) + 1, name="decision"),
                            columns=["target", "window centre", "target in window", "Q", "N", "score", "action",
                                     "mine", "game"])

    def play(self) -> "Episode":
        """Play to the end of the game.

        Returns
        -------
        Episode
            This episode, finished (so that ``Episode(agent, board, seed=s).play().history`` reads every
            decision).

        Raises
        ------
        RuleError
            If the agent's plug-in rule fails (:class:`~sweeper.agents.custom.RuleError`).
        """
        while not self.done:
            self.step()
        return self

    def __repr__(self) -> str:
        return (f"Episode({self.agent.name}, {self.setting}, seed={self.seed}: {len(self.history)} decisions, "
                f"{self.status})")

