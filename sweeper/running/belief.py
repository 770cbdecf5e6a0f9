"""What the agent believes versus the truth (beyond the paper).

A bandit agent's value ``Q`` of an action is the mean of its rewards, +1 when
the target was a mine and -1 when it was safe, so ``(Q + 1) / 2`` is the agent's
estimate that the target hides a mine: its *belief*. :func:`audit` plays games
with the agent's own kernels (:mod:`sweeper.agents.rules`) and, before every decision,
asks the solver (:func:`sweeper.game.probability.mine_probabilities`'s kernel) for the
*exact* probability of every covered tile, given what the board shows. It
records, per decision, the belief behind the chosen action and the exact
probability of its target, and sorts every lost game by its cause:

``forced guess``
    the tile that blew up had a probability strictly between 0 and 1 and no
    tile the agent could click was known to be safe: any player would have had
    to guess here (a lucky guess would have gone on);
``missed a safe tile``
    the same kind of guess, but some tile the agent could click had probability
    0: the solver would not have guessed;
``clicked a known mine``
    the tile that blew up had probability 1: the view proves it is a mine.

"Tiles the agent could click" are its covered, unflagged tiles; the solver
reads flags as covered tiles, so a wrong flag neither helps nor hides anything.
A loss may come from a forced flag removal (the removed flag's tile is
clicked): ``by_removal`` marks it, and that tile's probability is used.
Probabilities within :data:`EPS` of 0 or 1 count as known.

The audit plays frozen agents by default (``learn=False``): what is measured
is the agent as trained.
"""

from __future__ import annotations

import time
from collections import namedtuple

import numpy as np
import pandas as pd
from numba import njit

from ..agents.kinds import Agent, StateAction, make_agent
from ..agents.rules import apply, begin_game, choose, end_game, live, new_cache, refresh
from ..game.engine import G_K, LOST, ONGOING, ST, Setting, new_board, new_game
from ..game.grid import tile_of
from ..game.probability import INCONSISTENT, NODE_BUDGET, analyse, check_budget
from ..rng import STREAM_AGENT, STREAM_BOARDS, check_seed, make_state
from .training import check_episodes

#: Probabilities within EPS of 0 or 1 count as known.
EPS = 1e-9
#: Belief bins of the calibration tables: Q = -1 exactly, 20 equal bins of (Q + 1) / 2, Q = 1 exactly.
N_BINS = 22
CAUSES = ("won", "forced guess", "missed a safe tile", "clicked a known mine")
WON, FORCED, MISSED, KNOWN_MINE = range(4)
# per-decision columns
D_GAME, D_NUM, D_TILE, D_FLAG, D_N, D_CLICKED, D_SAFE_KNOWN, D_EXPLODED, D_REMOVED = range(9)
F_Q, F_EXACT, F_LOWEST, F_CLICKED_EXACT = range(4)


@njit(cache=True)
def belief_bin(qv):
    """The calibration bin of a value Q: 0 for Q = -1, 21 for Q = 1, else 1 + 20 equal bins of (Q + 1) / 2."""
    if qv <= -1.0:
        return 0
    if qv >= 1.0:
        return N_BINS - 1
    return 1 + min(int((qv + 1.0) * 0.5 * 20.0), 19)


#: Where :func:`_audit_games` writes: per decision rows ``di`` (ints, ``D_*`` columns) and ``df`` (floats,
#: ``F_*``), per game (won, cause, by_removal, decisions) ``games``, and every candidate's (count, belief sum,
#: exact sum, known-safe, known-mine) by belief bin ``cbins``.
AuditRecords = namedtuple("AuditRecords", ["di", "df", "games", "cbins"])


@njit(cache=True)
def _audit_games(b, c, t, pol, rng_b, rng_a, count, game0, budget, prob, out):
    """Play ``count`` games (numbered from ``game0``) with the exact probabilities of every view in
    ``prob``, writing into ``out`` (:data:`AuditRecords`). Returns (rows written, fallbacks, the table)."""
    di, df, games, cbins = out
    layout = np.zeros(0, np.uint8)
    K = b.geo[G_K]
    tiles, view, flg, mine, gs, cq, cn = b.tiles, b.shown, b.flg, b.mine, b.gs, c.cq, c.cn
    row = 0
    fallbacks = 0
    for g in range(count):
        new_game(b, rng_b, layout)
        begin_game(c)
        t = refresh(b, c, t, pol)
        cause = WON
        removal = 0
        dec = 0
        while gs[ST] == ONGOING:
            f = analyse(view, tiles, b.off8, K, budget, prob)
            if f == INCONSISTENT:
                raise RuntimeError("the solver found a real board's view inconsistent")
            fallbacks += f
            lowest = 2.0
            for j in range(tiles.shape[0]):
                p = tiles[j]
                if live(view, flg, p):
                    if prob[p] < lowest:
                        lowest = prob[p]
                    for i in range(p * 8, p * 8 + 8):
                        if cn[i] > 0:
                            k = belief_bin(cq[i])
                            cbins[k, 0] += 1.0
                            cbins[k, 1] += (cq[i] + 1.0) * 0.5
                            cbins[k, 2] += prob[p]
                            cbins[k, 3] += prob[p] <= EPS
                            cbins[k, 4] += prob[p] >= 1.0 - EPS
            x, key, slot, qv, nv, sc, fl, _ = choose(b, c, t, pol, rng_a)
            exact = prob[x]
            removed = apply(b, c, t, pol, x, key, slot, fl)
            clicked = removed if fl else x
            di[row, D_GAME] = game0 + g
            di[row, D_NUM] = dec
            di[row, D_TILE] = x
            di[row, D_FLAG] = fl
            di[row, D_N] = nv
            di[row, D_CLICKED] = clicked
            di[row, D_SAFE_KNOWN] = lowest <= EPS
            di[row, D_EXPLODED] = clicked >= 0 and mine[clicked] != 0
            di[row, D_REMOVED] = removed
            df[row, F_Q] = qv
            df[row, F_EXACT] = exact
            df[row, F_LOWEST] = lowest
            df[row, F_CLICKED_EXACT] = prob[clicked] if clicked >= 0 else np.nan
            if gs[ST] == LOST:
                pc = prob[clicked]
                if pc >= 1.0 - EPS:
                    cause = KNOWN_MINE
                elif lowest <= EPS:
                    cause = MISSED
                else:
                    cause = FORCED
                removal = 1 if fl else 0
            row += 1
            dec += 1
            if gs[ST] == ONGOING:
                t = refresh(b, c, t, pol)
        end_game(b, c, t, pol)
        games[game0 + g, 0] = gs[ST] != LOST
        games[game0 + g, 1] = cause
        games[game0 + g, 2] = removal
        games[game0 + g, 3] = dec
    return row, fallbacks, t


class Audit:
    """The result of :func:`audit`: per-decision rows, per-game causes, calibration tables."""

    def __init__(self, agent_name, setting, opening, seed, decisions, games, candidate_bins, fallbacks, seconds):
        self.agent_name, self.setting, self.opening, self.seed = agent_name, setting, opening, seed
        self.decisions = decisions
        self.games = games
        self.candidate_bins = candidate_bins
        self.fallbacks = fallbacks
        self.seconds = seconds

    @property
    def win_rate(self) -> float:
        return float(self.games["won"].mean())

    def losses(self) -> pd.DataFrame:
        """Lost games by cause: count and share of the losses and of all games."""
        lost = self.games[~self.games["won"]]
        out = (lost["cause"].value_counts().reindex(list(CAUSES[1:]), fill_value=0).rename("games").to_frame())
        out["share_of_losses"] = out["games"] / max(len(lost), 1)
        out["share_of_games"] = out["games"] / len(self.games)
        out["by_flag_removal"] = lost.groupby("cause", observed=False)["by_removal"].sum().reindex(
            out.index, fill_value=0).astype(int)
        out.index.name = "cause"
        return out.reset_index()

    def calibration(self, which: str = "chosen") -> pd.DataFrame:
        """Belief (Q + 1) / 2 against the exact probability of the target, by belief bin.

        ``which="chosen"``: the action each decision took; ``"all"``: every
        candidate the agent weighed (seen actions only, N > 0)."""
        if which == "chosen":
            d = self.decisions[self.decisions["n"] > 0]
            b = d["q"].map(_bin_of)
            g = d.assign(bin=b).groupby("bin")
            t = pd.DataFrame({"count": g.size(), "belief": g["belief"].mean(), "exact": g["exact"].mean(),
                              "known_safe": g["exact"].apply(lambda x: int((x <= EPS).sum())),
                              "known_mine": g["exact"].apply(lambda x: int((x >= 1 - EPS).sum()))})
        elif which == "all":
            c = self.candidate_bins
            c = c[c["count"] > 0]
            t = pd.DataFrame({"count": c["count"].astype(np.int64), "belief": c["belief_sum"] / c["count"],
                              "exact": c["exact_sum"] / c["count"], "known_safe": c["known_safe"].astype(np.int64),
                              "known_mine": c["known_mine"].astype(np.int64)}, index=c.index)
        else:
            raise ValueError(f"which must be 'chosen' or 'all', got {which!r}")
        t.index.name = "bin"
        t = t.reset_index()
        t["bin_label"] = t["bin"].map(bin_label)
        return t


def _bin_of(qv: float) -> int:
    return int(belief_bin(float(qv)))


def bin_label(b: int) -> str:
    if b == 0:
        return "Q = -1"
    if b == N_BINS - 1:
        return "Q = 1"
    lo = (b - 1) / 20
    return f"{lo:.2f}-{lo + 0.05:.2f}"


def audit(agent, board="8x8x10", episodes: int = 1_000, seed: int = 0, *, opening: str = "reference", first=None,
          learn: bool = False, budget: int = NODE_BUDGET, chunk: int = 1_000) -> Audit:
    """Play ``episodes`` games of ``agent`` on ``board`` (boards from ``seed``, as
    :func:`sweeper.evaluate` deals them) and audit every decision against the
    exact probabilities. ``learn=False`` (default) plays a frozen copy; with
    ``learn=True`` the copy keeps learning; ``agent`` itself never changes."""
    if not isinstance(agent, Agent):
        agent = make_agent(agent)
    if isinstance(agent, StateAction):
        raise ValueError("the audit reads window actions' Q; the state-action agent has none")
    setting = Setting.parse(board)
    episodes = check_episodes(episodes)
    seed = check_seed(seed)
    budget = check_budget(budget)
    if chunk < 1:
        raise ValueError("chunk must be >= 1")
    ag = agent.copy()
    table = ag.table
    pol = ag.policy(learn)
    board = new_board(setting, opening, first)
    cache = new_cache(board)
    rng_b = make_state(seed, STREAM_BOARDS)
    rng_a = make_state(seed, STREAM_AGENT)
    prob = np.zeros(board.shown.shape[0])
    games = np.zeros((episodes, 4), np.int64)
    cbins = np.zeros((N_BINS, 5))
    parts_i, parts_f = [], []
    fallbacks = 0
    t0 = time.perf_counter()
    for start in range(0, episodes, chunk):
        count = min(chunk, episodes - start)
        cap = count * 2 * setting.tiles + 1
        di = np.zeros((cap, 9), np.int64)
        dfl = np.zeros((cap, 4))
        rows, f, bundle = _audit_games(board, cache, table.bundle, pol, rng_b, rng_a, count, start, budget, prob,
                                       AuditRecords(di, dfl, games, cbins))
        table.adopt(bundle)
        fallbacks += int(f)
        parts_i.append(di[:rows])
        parts_f.append(dfl[:rows])
    seconds = time.perf_counter() - t0
    di = np.concatenate(parts_i) if parts_i else np.zeros((0, 9), np.int64)
    dfl = np.concatenate(parts_f) if parts_f else np.zeros((0, 4))
    r, c = tile_of(di[:, D_TILE], setting.cols)
    cr, cc = tile_of(di[:, D_CLICKED], setting.cols)
    clicked = di[:, D_CLICKED] >= 0
    decisions = pd.DataFrame({
        "game": di[:, D_GAME], "decision": di[:, D_NUM], "row": r, "col": c,
        "action": np.where(di[:, D_FLAG] != 0, "flag", "click"),
        "q": dfl[:, F_Q], "n": di[:, D_N], "belief": (dfl[:, F_Q] + 1) / 2, "exact": dfl[:, F_EXACT],
        "lowest": dfl[:, F_LOWEST], "safe_known": di[:, D_SAFE_KNOWN].astype(bool),
        "clicked_row": np.where(clicked, cr, -1), "clicked_col": np.where(clicked, cc, -1),
        "clicked_exact": dfl[:, F_CLICKED_EXACT], "exploded": di[:, D_EXPLODED].astype(bool),
        "flag_removed": di[:, D_REMOVED] >= 0,
    })
    gframe = pd.DataFrame({"game": np.arange(episodes), "won": games[:, 0].astype(bool),
                           "cause": pd.Categorical.from_codes(games[:, 1], categories=list(CAUSES)),
                           "by_removal": games[:, 2].astype(bool), "decisions": games[:, 3]})
    cb = pd.DataFrame(cbins, columns=["count", "belief_sum", "exact_sum", "known_safe", "known_mine"])
    cb.index.name = "bin"
    return Audit(agent.name, str(setting), opening, seed, decisions, gframe, cb, fallbacks, seconds)



def find_episode(agent, cause: str, board="8x8x10", seeds=range(500), *, learn: bool = False):
    """The first seed's game whose outcome has the given cause (e.g. ``"missed a safe tile"``), as
    an :class:`~sweeper.running.episode.Episode` played with exact probabilities (frozen by default).

    Each seed's cause comes from :func:`audit` of its one game, which is the game the episode
    then replays (same kernels, same seed)."""
    from .episode import Episode
    if cause not in CAUSES:
        raise ValueError(f"cause must be one of {CAUSES}, got {cause!r}")
    for s in seeds:
        if str(audit(agent, board, 1, seed=s, learn=learn).games["cause"].iloc[0]) == cause:
            return Episode(agent, board, seed=s, learn=learn, exact=True).play()
    raise ValueError(f"no game with cause {cause!r} among the seeds given")
