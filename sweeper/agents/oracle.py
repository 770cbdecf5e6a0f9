"""The exact one-step oracle: what the best move of a decision was worth, and what the agent's was.

At every decision of a game the exact probability ``p`` that each covered tile
hides a mine, given what the board shows, can be computed
(:func:`sweeper.game.probability.analyse`). A move is *right* when it is a click
on a safe tile or a flag on a mine: a click on tile ``x`` is right with
probability ``1 - p(x)``, a flag with probability ``p(x)``. The best move on
offer is right with probability

    best = max over the agent's candidate tiles of max(p, 1 - p),

and the decision's (one-step, expected) *regret* is ``best`` minus the
probability that the move the agent made is right. Summed over the decisions of
training, it is the cumulative regret of bandit theory, measured against an
oracle that knows the exact probabilities but nothing of the future.

The oracle is a *probe* of the one game loop (:func:`sweeper.agents.kernels.play_games`):
given a :data:`Probe` bundle, the loop calls :func:`before_choice` before each
decision and :func:`after_move` after it, and :func:`end_of_game` at each game's
end. The probe never changes what the agent does; the games are those of
training (or evaluation) with the same seed.

Besides the per-game sums (:data:`GAME_FLOAT_COLUMNS`, :data:`GAME_INT_COLUMNS`)
a probe can record one row per decision (the audit of
:mod:`sweeper.running.belief`): give it row arrays with room for every decision,
or arrays of length 0 to record the sums only.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from ..game.engine import G_K, LOST, ST
from ..game.grid import COVERED
from ..game.probability import INCONSISTENT, analyse

#: Probabilities within EPS of 0 or 1 count as known.
EPS = 1e-9
#: Belief bins of the calibration tables: Q = -1 exactly, 20 equal bins of (Q + 1) / 2, Q = 1 exactly.
N_BINS = 22
#: Why a game was lost (or that it was won): the tile that blew up was a guess no click could avoid, a
#: guess where a known-safe tile was on offer, or a tile the view proves to be a mine.
CAUSES = ("won", "forced guess", "missed a safe tile", "clicked a known mine")
WON, FORCED, MISSED, KNOWN_MINE = range(4)
# per-decision integer columns ``di`` and float columns ``df``
D_GAME, D_NUM, D_TILE, D_FLAG, D_N, D_CLICKED, D_SAFE_KNOWN, D_EXPLODED, D_REMOVED = range(9)
D_SIZE = 9
F_Q, F_EXACT, F_LOWEST, F_CLICKED_EXACT, F_BEST = range(5)
F_SIZE = 5
# per-game integer columns ``games``: won, cause, lost by a forced flag removal, decisions, decisions where a
# sure move (p = 0 or 1 within EPS) was on offer, flags placed
G_WON, G_CAUSE, G_REMOVAL, G_DECISIONS, G_SURE, G_FLAGS = range(6)
GAME_INT_COLUMNS = ("won", "cause", "by_removal", "decisions", "sure_decisions", "flags")
# per-game float columns ``gsum``: regret summed over the decisions where a sure move was on offer, over the
# others (every move a guess), over the flag decisions; the summed probability that the chosen move was right
S_REGRET_SURE, S_REGRET_GUESS, S_REGRET_FLAGS, S_RIGHT = range(4)
GAME_FLOAT_COLUMNS = ("regret_sure", "regret_guess", "regret_flags", "right")
# the probe's counters ``state``: rows written, solver fallbacks, and of the game in progress: cause, lost by
# a removal, decisions; ``fstate``: of the decision in progress: lowest P among the candidates, best, P(target)
R_ROWS, R_FALLBACKS, R_CAUSE, R_REMOVAL, R_DEC = range(5)
X_LOWEST, X_BEST, X_EXACT = range(3)

#: The probe bundle: ``prob`` (the exact probabilities of the current view, by padded tile), ``budget``
#: (the solver's node budget, one int), ``state``/``fstate`` (counters above), ``di``/``df`` (per-decision
#: rows; length 0: none recorded), ``games``/``gsum`` (per game, indexed like the loop's records), ``cbins``
#: (every candidate's count, belief sum, exact sum, known-safe, known-mine by belief bin).
Probe = namedtuple("Probe", ["prob", "budget", "state", "fstate", "di", "df", "games", "gsum", "cbins"])


def new_probe(board, games: int, rows: int, budget: int) -> Probe:
    """A probe for ``games`` games on ``board`` (a :class:`~sweeper.game.engine.Board`), with room for
    ``rows`` per-decision rows (0: per-game sums only)."""
    return Probe(prob=np.zeros(board.shown.shape[0]), budget=np.array([budget], np.int64),
                 state=np.zeros(5, np.int64), fstate=np.zeros(3), di=np.zeros((rows, D_SIZE), np.int64),
                 df=np.zeros((rows, F_SIZE)), games=np.zeros((games, len(GAME_INT_COLUMNS)), np.int64),
                 gsum=np.zeros((games, len(GAME_FLOAT_COLUMNS))), cbins=np.zeros((N_BINS, 5)))


@njit(cache=True)
def belief_bin(qv):
    """The calibration bin of a value Q: 0 for Q = -1, 21 for Q = 1, else 1 + 20 equal bins of (Q + 1) / 2."""
    if qv <= -1.0:
        return 0
    if qv >= 1.0:
        return N_BINS - 1
    return 1 + min(int((qv + 1.0) * 0.5 * 20.0), 19)


@njit(cache=True)
def begin_game(probe):
    st = probe.state
    st[R_CAUSE] = WON
    st[R_REMOVAL] = 0
    st[R_DEC] = 0


@njit(cache=True)
def before_choice(b, c, window_agent, probe):
    """The exact probabilities of the view the agent is about to decide on, the lowest and the best move
    among its candidates (live tiles), and (window agents) every seen candidate into the belief bins."""
    tiles, view, flg, prob = b.tiles, b.shown, b.flg, probe.prob
    f = analyse(view, tiles, b.off8, b.geo[G_K], probe.budget[0], prob)
    if f == INCONSISTENT:
        raise RuntimeError("the solver found a real board's view inconsistent")
    probe.state[R_FALLBACKS] += f
    cq, cn, cbins = c.cq, c.cn, probe.cbins
    lowest = 2.0
    best = 0.0
    for j in range(tiles.shape[0]):
        p = tiles[j]
        if view[p] != COVERED or flg[p] != 0:  # not a live tile (sweeper.agents.kernels.live)
            continue
        pp = prob[p]
        lowest = min(lowest, pp)
        best = max(best, pp, 1.0 - pp)
        if window_agent:
            for i in range(p * 8, p * 8 + 8):
                if cn[i] > 0:
                    k = belief_bin(cq[i])
                    cbins[k, 0] += 1.0
                    cbins[k, 1] += (cq[i] + 1.0) * 0.5
                    cbins[k, 2] += pp
                    cbins[k, 3] += pp <= EPS
                    cbins[k, 4] += pp >= 1.0 - EPS
    probe.fstate[X_LOWEST] = lowest
    probe.fstate[X_BEST] = best


@njit(cache=True)
def after_move(b, probe, g, x, flag, qv, nv, removed):
    """Score the move just made on target ``x`` (a flag if ``flag``; ``removed``: the tile of a flag
    given up and clicked, or -1) in game ``g``: regret, the per-game sums and, if the probe has room for
    rows, the decision's row."""
    prob, st, fs = probe.prob, probe.state, probe.fstate
    exact = prob[x]
    best = fs[X_BEST]
    right = exact if flag else 1.0 - exact
    regret = max(best - right, 0.0)
    sure = best >= 1.0 - EPS
    gs, gi = probe.gsum, probe.games
    gs[g, S_RIGHT] += right
    if sure:
        gs[g, S_REGRET_SURE] += regret
        gi[g, G_SURE] += 1
    else:
        gs[g, S_REGRET_GUESS] += regret
    if flag:
        gs[g, S_REGRET_FLAGS] += regret
        gi[g, G_FLAGS] += 1
    clicked = removed if flag else x
    lowest = fs[X_LOWEST]
    if b.gs[ST] == LOST:  # the tile that blew up is the one clicked
        pc = prob[clicked]
        if pc >= 1.0 - EPS:
            st[R_CAUSE] = KNOWN_MINE
        elif lowest <= EPS:
            st[R_CAUSE] = MISSED
        else:
            st[R_CAUSE] = FORCED
        st[R_REMOVAL] = 1 if flag else 0
    row = st[R_ROWS]
    di, df = probe.di, probe.df
    if row < di.shape[0]:
        di[row, D_GAME] = g
        di[row, D_NUM] = st[R_DEC]
        di[row, D_TILE] = x
        di[row, D_FLAG] = flag
        di[row, D_N] = nv
        di[row, D_CLICKED] = clicked
        di[row, D_SAFE_KNOWN] = lowest <= EPS
        di[row, D_EXPLODED] = clicked >= 0 and b.mine[clicked] != 0
        di[row, D_REMOVED] = removed
        df[row, F_Q] = qv
        df[row, F_EXACT] = exact
        df[row, F_LOWEST] = lowest
        df[row, F_CLICKED_EXACT] = prob[clicked] if clicked >= 0 else np.nan
        df[row, F_BEST] = best
        st[R_ROWS] = row + 1
    st[R_DEC] += 1


@njit(cache=True)
def end_of_game(b, probe, g):
    st, gi = probe.state, probe.games
    gi[g, G_WON] = b.gs[ST] != LOST
    gi[g, G_CAUSE] = st[R_CAUSE]
    gi[g, G_REMOVAL] = st[R_REMOVAL]
    gi[g, G_DECISIONS] = st[R_DEC]
