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
``(Q + 1) / 2`` (:attr:`Decision.belief`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..game.grid import COVERED
from ..agents.windows import DIRECTIONS, decode_key
from ..agents.kinds import Agent, StateAction
from ..game.engine import DEC, G_R, LAST, LOST, ONGOING, ST, WON, BoardArrays, Setting, check_layout, new_game
from ..agents.rules import P_C, SA, UCB, UNSEEN_UCB, choose, apply, end_game, refresh, ucb_score
from ..rng import STREAM_AGENT, STREAM_BOARDS, check_seed, make_state
from ..agents.values import DECISIONS, find


@dataclass
class Decision:
    """One decision of an episode and its outcome."""

    number: int
    tile: tuple            # (row, col) of the target
    centre: tuple | None   # window centre (None for the state-action agent)
    direction: str | None  # target as seen from the centre (NW, N, ..., SE)
    key: int
    q: float
    n: int
    score: float           # UCB score, or Q for the greedy agents
    action: str            # "click" or "flag"
    mine: bool             # the truth of the target tile
    removed: tuple | None  # flag removed (and clicked) because flags exceeded mines
    status: str            # game status after the decision
    view: np.ndarray       # the view the agent decided on
    runners_up: pd.DataFrame
    exact: np.ndarray | None = None  # exact P(mine) of every covered tile of ``view`` (with ``exact=True``)

    @property
    def belief(self) -> float:
        """The agent's estimate that the target is a mine, (Q + 1) / 2."""
        return (self.q + 1.0) / 2.0

    @property
    def target_exact(self) -> float | None:
        """The exact probability that the target is a mine (None without ``exact=True``)."""
        return None if self.exact is None else float(self.exact[self.tile])


class Episode:
    """A game of ``agent`` on ``board`` (seeded), to be played one decision at a time."""

    def __init__(self, agent: Agent, board="8x8x10", seed: int = 0, *, opening: str = "reference", first=None,
                 mines=None, learn: bool = True, copy: bool = True, runners_up: int = 5, exact: bool = False):
        if not isinstance(agent, Agent):
            raise ValueError("agent must be an Agent (see sweeper.make_agent)")
        self.setting = Setting.parse(board)
        if isinstance(agent, StateAction) and self.setting.tiles > StateAction.MAX_TILES:
            raise ValueError(f"the state-action agent handles boards of at most {StateAction.MAX_TILES} tiles")
        self.agent = agent.copy() if copy else agent
        self.seed = check_seed(seed)
        self.k_runners = int(runners_up)
        self.exact = bool(exact)
        self.a = BoardArrays(self.setting, opening, first)
        self.pol = self.agent.policy(learn)
        self.rng_agent = make_state(self.seed, STREAM_AGENT)
        layout = np.zeros(0, np.uint8) if mines is None else check_layout(mines, self.setting, opening, first)
        a = self.a
        new_game(a.geo, a.tiles, a.mine, a.cnt, a.view, a.flg, a.dirty, a.dlist, a.gi, a.stack, a.pool, a.off8,
                 make_state(self.seed, STREAM_BOARDS), layout)
        self.opened = self.view
        self.history: list[Decision] = []
        self._refresh()
        self._finished = False
        if a.gi[ST] != ONGOING:
            self._finish()

    # -- state ---------------------------------------------------------------
    @property
    def view(self) -> np.ndarray:
        return self.a.unpad(self.a.view).astype(np.int64)

    @property
    def mines(self) -> np.ndarray:
        return self.a.unpad(self.a.mine).astype(bool)

    @property
    def flags(self) -> np.ndarray:
        """Tiles the agent has flagged (or, with invisible flags, set aside)."""
        return self.a.unpad(self.a.flg).astype(bool)

    @property
    def status(self) -> str:
        return {ONGOING: "ongoing", WON: "won", LOST: "lost"}[int(self.a.gi[ST])]

    @property
    def done(self) -> bool:
        return self.a.gi[ST] != ONGOING

    def probabilities(self) -> np.ndarray:
        """The exact probability that each covered tile of the current view is a mine
        (:func:`sweeper.game.probability.mine_probabilities`; NaN on revealed tiles, flags read as covered)."""
        from ..game.probability import mine_probabilities
        return mine_probabilities(self.view, self.setting.mines)

    def _rc(self, p) -> tuple:
        w = self.setting.cols + 2
        return int(p // w - 1), int(p % w - 1)

    # -- kernels ---------------------------------------------------------------
    def _table(self):
        t = self.agent.table
        return t.keys, t.q, t.n, t.meta

    def _refresh(self):
        a = self.a
        k, q, n = refresh(a.geo, a.tiles, a.view, a.flg, a.cand, a.dirty, a.dlist, a.gi, a.last_live, a.off8,
                          a.off9, *self._table(), self.pol)
        self.agent.table.set_arrays(k, q, n)

    def _finish(self):
        a = self.a
        end_game(a.geo, a.tiles, a.mine, a.view, a.gi, a.last_live, a.cand, a.frec, a.off8, *self._table(), self.pol)
        self._finished = True

    # -- what the agent sees ---------------------------------------------------
    def candidates(self) -> pd.DataFrame:
        """Every candidate action of the current decision, in scan order, with
        its key, Q, N, score (what the agent compares) and rank (1 = preferred)."""
        a = self.a
        keys, q, n, meta = self._table()
        kind = int(self.pol[0])
        rows = []
        live = [(j, p) for j, p in enumerate(a.tiles) if a.view[p] == COVERED and a.flg[p] == 0]
        if kind == SA:
            nt = len(a.tiles)
            for j, p in live:
                key = int(a.gi[LAST]) * nt + j
                s = find(keys, key)
                qv, nv = (-1.0, 0) if s < 0 else (float(q[s]), int(n[s]))
                rows.append((*self._rc(p), None, None, None, key, qv, nv, qv))
        else:
            logt = np.log(meta[DECISIONS] + 1)  # the next decision's t
            for _, p in live:
                for k in range(8):
                    i = p * 8 + k
                    if a.cn[i] < 0:
                        continue
                    qv, nv = float(a.cq[i]), int(a.cn[i])
                    score = ucb_score(qv, nv, self.pol[P_C], logt, UNSEEN_UCB) if kind == UCB else qv
                    c = p + a.off8[k]
                    rows.append((*self._rc(p), *self._rc(c), DIRECTIONS[7 - k], int(keys[a.cslot[i]]), qv, nv, score))
        df = pd.DataFrame(rows, columns=["row", "col", "centre_row", "centre_col", "direction", "key", "q", "n",
                                         "score"])
        strength = df["score"].abs()
        order = np.arange(len(df))
        if kind == UCB:  # largest |score|, ties to the last
            rank_key = np.lexsort((-order, -strength.to_numpy()))
        else:  # largest |Q|, then largest N, then first
            rank_key = np.lexsort((order, -df["n"].to_numpy(), -strength.to_numpy()))
        df["rank"] = 0
        df.loc[df.index[rank_key], "rank"] = np.arange(1, len(df) + 1)
        return df

    def window(self, decision: Decision) -> tuple[np.ndarray, int]:
        """The chosen action's pattern as the agent stores it (canonical 3x3 + target cell)."""
        return decode_key(decision.key, symmetric=self.agent.symmetric)

    # -- play ------------------------------------------------------------------
    def step(self) -> Decision:
        """Make one decision; returns what happened."""
        if self.done:
            raise ValueError(f"the episode is over ({self.status})")
        a = self.a
        before = self.view
        exact = self.probabilities() if self.exact else None
        cands = self.candidates()
        keys, q, n, meta = self._table()
        t, key, slot, qv, nv, score, flag, idx = choose(a.geo, a.tiles, a.view, a.flg, a.cand, a.gi, a.off8, keys, q,
                                                        n, meta, self.pol, self.rng_agent)
        if key < 0:
            key = int(keys[slot])
        removed = apply(a.geo, a.tiles, a.mine, a.cnt, a.view, a.flg, a.dirty, a.dlist, a.gi, a.stack, a.frec,
                        a.off8, a.off9, keys, q, n, meta, self.pol, a.cand, t, key, slot, flag)
        centre = direction = None
        if idx >= 0:
            centre, direction = self._rc(t + a.off8[idx % 8]), DIRECTIONS[7 - idx % 8]
        tile = self._rc(t)
        chosen = (cands["row"] == tile[0]) & (cands["col"] == tile[1])
        if centre is not None:
            chosen &= (cands["centre_row"] == centre[0]) & (cands["centre_col"] == centre[1])
        runners = cands[~chosen].sort_values("rank").head(self.k_runners).reset_index(drop=True)
        d = Decision(number=int(a.gi[DEC]), tile=tile, centre=centre, direction=direction, key=int(key),
                     q=float(qv), n=int(nv), score=float(score), action="flag" if flag else "click",
                     mine=bool(a.mine[t]), removed=None if removed < 0 else self._rc(removed),
                     status="", view=before, runners_up=runners, exact=exact)
        if a.gi[ST] == ONGOING:
            self._refresh()
        else:
            self._finish()
        d.status = self.status
        self.history.append(d)
        return d

    def play(self) -> "Episode":
        """Play to the end of the game."""
        while not self.done:
            self.step()
        return self

    def __repr__(self) -> str:
        return (f"Episode({self.agent.name}, {self.setting}, seed={self.seed}: {len(self.history)} decisions, "
                f"{self.status})")

