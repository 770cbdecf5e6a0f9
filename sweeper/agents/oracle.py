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

The oracle is a *probe* of the one game loop (:func:`sweeper.agents.loop.play_games`):
given a :data:`Probe` bundle, the loop calls :func:`before_choice` before each
decision and :func:`after_move` after it, and :func:`end_of_game` at each game's
end. The probe never changes what the agent does; the games are those of
training (or evaluation) with the same seed.

The regret splits in two (:mod:`sweeper.agents.best_window`): the best window agent, which
knows every key's true value, would have made a move right with probability ``window``
(the mean over its tied best candidates). The *representation gap* ``best - window`` is
what no agent that reads the board through windows can win back; the *learning regret*
``window - right`` is what the agent has still to learn. They add up to the regret.
What a probe measures and records: :func:`new_probe`.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from ..game.engine import G_K, LOST, ST
from ..game.grid import COVERED, FLAG, OUT
from ..game.probability import INCONSISTENT, analyse
from .values import EMPTY, USED, ensure_room, find, prefetch, slot_of
from .windows import window_code, window_key

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
F_Q, F_EXACT, F_LOWEST, F_CLICKED_EXACT, F_BEST, F_WINDOW = range(6)
F_SIZE = 6
# per-game integer columns ``games``: won, cause, lost by a forced flag removal, decisions, decisions where a
# sure move (p = 0 or 1 within EPS) was on offer, flags placed, decisions where a candidate's key was unknown to
# the best-window table
G_WON, G_CAUSE, G_REMOVAL, G_DECISIONS, G_SURE, G_FLAGS, G_UNKNOWN = range(7)
GAME_INT_COLUMNS = ("won", "cause", "by_removal", "decisions", "sure_decisions", "flags", "unknown_key_decisions")
# per-game float columns ``gsum``: regret summed over the decisions where a sure move was on offer, over the
# others (every move a guess), over the flag decisions; the summed probability that the chosen move was right;
# the representation gap (best - window) summed over the sure decisions and over the guesses (0 without a table)
S_REGRET_SURE, S_REGRET_GUESS, S_REGRET_FLAGS, S_RIGHT, S_GAP_SURE, S_GAP_GUESS = range(6)
GAME_FLOAT_COLUMNS = ("regret_sure", "regret_guess", "regret_flags", "right", "gap_sure", "gap_guess")
# the probe's counters ``state``: rows written, solver fallbacks, and of the game in progress: cause, lost by
# a removal, decisions; the fallbacks of the last view analysed (-1: none yet); ``fstate``: of the decision in progress: lowest P among the candidates, best, P(target),
# the best window agent's P(right), whether a candidate's key was unknown to its table
R_ROWS, R_FALLBACKS, R_CAUSE, R_REMOVAL, R_DEC, R_SOLVED = range(6)
X_LOWEST, X_BEST, X_EXACT, X_WINDOW, X_UNKNOWN = range(5)
#: What a probe does with its best-window table ``wkeys/wq/wn/wmeta`` (``wmode[0]``): nothing, score each decision
#: against it (Q holds each key's value), or estimate it (Q sums each key's exact probabilities, N counts them).
WINDOW_NONE, WINDOW_SCORE, WINDOW_ESTIMATE = 0, 1, 2
#: An empty slot of the best-window table.
EMPTY_KEY = EMPTY
#: The value of a key the table has never met: no information.
UNKNOWN = 0.5
#: The certainty of no candidate (a window centre off the board): below every value's max(v, 1 - v).
NO_CERTAINTY = -2.0

#: The probe bundle: ``prob`` (the exact probabilities of the current view, by padded tile), ``pview`` (the view
#: they were computed from, flags shown as covered tiles, as the solver reads them; -1: none yet), ``budget``
#: (the solver's node budget, one int), ``state``/``fstate`` (counters above), ``di``/``df`` (per-decision
#: rows; length 0: none recorded), ``games``/``gsum`` (per game, indexed like the loop's records), ``cbins``
#: (every candidate's count, belief sum, exact sum, known-safe, known-mine by belief bin; 0 rows: not gathered);
#: the best-window table
#: ``wkeys``/``wq``/``wn``/``wmeta`` (a :class:`~sweeper.agents.values.Table`'s arrays) with ``wmode`` (what is
#: done with it, and whether its keys are symmetric) and, per candidate (``tile * 8 + k``), its slot (``wslot``, -1:
#: not in the table); estimating, the window code that slot was looked up for (``wcode``, -1: never); scoring, that
#: slot's value (``wval``, a copy: :data:`UNKNOWN` when absent) and its certainty ``max(v, 1 - v)`` (``wcert``,
#: -2: none, off the board), with per tile the largest certainty of its candidates (``tcert``) and whether one of
#: them is unknown to the table (``tunk``), and per window centre the code its candidates were looked up for
#: (``ccode``, -1: never); ``codes``: scratch space, the window code of each tile of the current view (for a
#: state-action agent: a window agent's cache holds them); ``wpend``: scratch space, scoring, the candidates whose
#: slots are looked up, with their keys; estimating, ``wacc``/``wcnt``: the exact probabilities each candidate
#: gathered for its current slot and their number, added to the slot when its window changes (:func:`flush` adds
#: them all).
Probe = namedtuple("Probe", ["prob", "pview", "budget", "state", "fstate", "di", "df", "games", "gsum", "cbins",
                             "wkeys", "wq", "wn", "wmeta", "wmode", "wcode", "wslot", "wval", "wcert", "tcert",
                             "tunk", "ccode", "codes", "wpend", "wacc", "wcnt"])


def new_probe(board, games: int, rows: int, budget: int, window=None, mode: int = WINDOW_NONE,
              symmetric: bool = True) -> Probe:
    """A probe for ``games`` games on ``board`` (a :class:`~sweeper.game.engine.Board`), with room for
    ``rows`` per-decision rows (0: per-game sums only). ``window``: a best-window
    :class:`~sweeper.agents.values.ValueTable` and ``mode`` (:data:`WINDOW_SCORE` or :data:`WINDOW_ESTIMATE`),
    its keys ``symmetric`` or not.

    A probe scores against a best-window table (``WINDOW_SCORE``), or, to estimate one, adds every candidate's
    exact probability to its key's sum (``WINDOW_ESTIMATE``); in that mode its table grows between kernel calls
    like the agent's (:func:`needs_room`, :func:`grow`). Besides the per-game sums (:data:`GAME_FLOAT_COLUMNS`,
    :data:`GAME_INT_COLUMNS`) it can record one row per decision (the audit of :mod:`sweeper.running.belief`)."""
    P = board.shown.shape[0]
    if window is None:
        from .values import ValueTable
        window, mode = ValueTable(16), WINDOW_NONE
    table = window.bundle
    return Probe(prob=np.zeros(P), pview=np.full(P, -1, np.int8), budget=np.array([budget], np.int64),
                 state=np.array([0, 0, 0, 0, 0, -1], np.int64), fstate=np.zeros(5), di=np.zeros((rows, D_SIZE), np.int64),
                 df=np.zeros((rows, F_SIZE)), games=np.zeros((games, len(GAME_INT_COLUMNS)), np.int64),
                 gsum=np.zeros((games, len(GAME_FLOAT_COLUMNS))), cbins=np.zeros((N_BINS, 5)),
                 wkeys=table.keys, wq=table.q, wn=table.n, wmeta=table.meta,
                 wmode=np.array([mode, int(bool(symmetric))], np.int64),
                 wcode=np.full(P * 8, -1, np.int64), wslot=np.full(P * 8, -1, np.int64), wval=np.full(P * 8, UNKNOWN),
                 wcert=np.full(P * 8, NO_CERTAINTY), tcert=np.full(P, NO_CERTAINTY), tunk=np.zeros(P, np.uint8),
                 ccode=np.full(P, -1, np.int64), codes=np.zeros(P, np.int64), wpend=np.zeros(2 * P * 8, np.int64),
                 wacc=np.zeros(P * 8), wcnt=np.zeros(P * 8, np.int64))


@njit(cache=True)
def needs_room(probe, room):
    """Is the probe estimating a best-window table that ``room`` more keys would make more than half full?"""
    return probe.wmode[0] == WINDOW_ESTIMATE and 2 * (probe.wmeta[USED] + room) > probe.wkeys.shape[0]


@njit(cache=True)
def flush(probe):
    """Estimating: add every candidate's gathered sums to its slot (before the slots move, and at the end)."""
    wq, wn, wslot, wacc, wcnt = probe.wq, probe.wn, probe.wslot, probe.wacc, probe.wcnt
    for i in range(wcnt.shape[0]):
        if wcnt[i] > 0:
            wq[wslot[i]] += wacc[i]
            wn[wslot[i]] += wcnt[i]
            wacc[i] = 0.0
            wcnt[i] = 0


def grow(probe: Probe, room: int) -> Probe:
    """The probe with its best-window table grown (doubling) to hold ``room`` more keys at most half full;
    every candidate's remembered slot is forgotten (slots move)."""
    flush(probe)
    keys, q, n = ensure_room(probe.wkeys, probe.wq, probe.wn, probe.wmeta, room)
    probe.wcode[:] = -1
    return probe._replace(wkeys=keys, wq=q, wn=n)


@njit(cache=True)
def window_slot(probe, symmetric, view, off9, centre, code, bp, i):
    """Estimating: the slot, in the probe's best-window table, of the candidate with cache index ``i`` (window around
    ``centre``, whose cells have the code ``code``, target direction ``bp``), its key added when absent, remembered
    with the code; the sums the candidate gathered for its previous key are first added to that key's slot. The
    caller looks up only windows that changed."""
    keys, wq, wn, wmeta, wcode, wslot, wacc, wcnt = probe.wkeys, probe.wq, probe.wn, probe.wmeta, probe.wcode, \
        probe.wslot, probe.wacc, probe.wcnt
    if wcnt[i] > 0:  # the sums gathered for the window's previous key go to its slot
        wq[wslot[i]] += wacc[i]
        wn[wslot[i]] += wcnt[i]
        wacc[i] = 0.0
        wcnt[i] = 0
    key = window_key(view, centre, off9, bp, symmetric)
    s = slot_of(keys, key)
    if keys[s] == EMPTY:
        keys[s] = key
        wq[s] = 0.0
        wn[s] = 0
        wmeta[USED] += 1
    wcode[i] = code
    wslot[i] = s
    return s


@njit(cache=True)
def scored_slots(b, codes, probe):
    """Scoring: look up, in the best-window table, the slot of every candidate (covered target) of every window that
    changed since its candidates were looked up (its code, in ``codes``, is not the one the centre remembers), keep
    the slot's value (:data:`UNKNOWN` when absent) and certainty beside it, and bring its tile's largest certainty
    and unknown mark up to date. As :func:`sweeper.agents.kernels.refresh_keys` does for the agent's table, the keys
    are computed first and their slots' cache lines requested at once, then looked up in the same order: the table
    is large, most lookups miss the CPU caches, and the misses then overlap. (A window's code holds its target cells,
    so a target that is covered now was covered when the window last changed, and was looked up then.)"""
    tiles, view, off8, off9 = b.tiles, b.shown, b.off8, b.off9
    keys, wq, wslot, wval, wcert = probe.wkeys, probe.wq, probe.wslot, probe.wval, probe.wcert
    tcert, tunk, ccode, pend = probe.tcert, probe.tunk, probe.ccode, probe.wpend
    symmetric = probe.wmode[1] != 0
    m = 0
    for j in range(tiles.shape[0]):
        ctr = tiles[j]
        code = codes[ctr]
        if code == ccode[ctr]:
            continue
        ccode[ctr] = code
        for bp in range(8):
            x = ctr + off8[bp]
            if view[x] == COVERED:
                key = window_key(view, ctr, off9, bp, symmetric)
                prefetch(keys, key)
                pend[2 * m] = x * 8 + 7 - bp  # the candidate's index: its target, then the centre as seen from it
                pend[2 * m + 1] = key
                m += 1
    for r in range(m):
        i = pend[2 * r]
        s = find(keys, pend[2 * r + 1])
        v = wq[s] if s >= 0 else UNKNOWN
        wslot[i] = s
        wval[i] = v
        wcert[i] = max(v, 1.0 - v)
    for r in range(m):  # the tiles whose candidates changed
        x = pend[2 * r] // 8
        top = NO_CERTAINTY
        unknown = False
        for i in range(x * 8, x * 8 + 8):
            top = max(top, wcert[i])
            unknown |= wslot[i] < 0 and wcert[i] != NO_CERTAINTY
        tcert[x] = top
        tunk[x] = unknown


@njit(cache=True)
def best_window_right(b, probe):
    """Scoring: the best window agent's move on the current view (candidates looked up by :func:`scored_slots`):
    the largest certainty among the live tiles' candidates; its tied candidates' summed probability that the move
    is right (a click when the value is at most 1/2, else a flag), in scan order; their number; and whether a live
    candidate's key is unknown to the table. The tiles' largest certainties find the tied candidates without a test
    of every candidate."""
    tiles, view, flg, prob = b.tiles, b.shown, b.flg, probe.prob
    wval, wcert, tcert, tunk = probe.wval, probe.wcert, probe.tcert, probe.tunk
    top = -1.0
    unknown = False
    for j in range(tiles.shape[0]):
        p = tiles[j]
        if view[p] == COVERED and flg[p] == 0:  # a live tile
            top = max(top, tcert[p])
            unknown |= tunk[p] != 0
    right = 0.0
    ties = 0
    for j in range(tiles.shape[0]):
        p = tiles[j]
        if view[p] != COVERED or flg[p] != 0 or tcert[p] != top:
            continue
        pp = prob[p]
        for i in range(p * 8, p * 8 + 8):
            if wcert[i] == top:
                right += pp if wval[i] > 0.5 else 1.0 - pp
                ties += 1
    return right, ties, unknown


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
def before_choice(b, cache, window_agent, probe):
    """The exact probabilities of the view the agent is about to decide on, the lowest and the best move
    among its candidates (live tiles), (window agents, if the probe has bins) every seen candidate into the belief
    bins, and the
    best window agent's move (scoring) or every candidate's probability into its key's sum (estimating)."""
    tiles, view, flg, prob, pview, st = b.tiles, b.shown, b.flg, probe.prob, probe.pview, probe.state
    # the solver reads a flag as a covered tile: after a flag (a third of the decisions) it would see the view it saw
    # before, so the probabilities of that view are kept (the same numbers: the solver is a function of the view)
    same = st[R_SOLVED] >= 0
    for j in range(tiles.shape[0]):
        p = tiles[j]
        v = view[p] if view[p] != FLAG else np.int8(COVERED)
        if pview[p] != v:
            pview[p] = v
            same = False
    if same:
        f = st[R_SOLVED]
    else:
        f = analyse(view, tiles, b.off8, b.geo[G_K], probe.budget[0], prob)
        if f == INCONSISTENT:
            raise RuntimeError("the solver found a real board's view inconsistent")
        st[R_SOLVED] = f
    st[R_FALLBACKS] += f
    cq, cn, cbins = cache.cq, cache.cn, probe.cbins
    off8, off9 = b.off8, b.off9
    mode = probe.wmode[0]
    estimate = mode == WINDOW_ESTIMATE
    symmetric = probe.wmode[1] != 0
    wcode, wacc, wcnt = probe.wcode, probe.wacc, probe.wcnt
    # every window's code (a window is the centre of 8 candidates): a window agent's cache holds them, up to date
    # (its refresh recomputes the code of every window that changed, sweeper.agents.kernels.refresh_keys)
    codes = cache.rawc if window_agent else probe.codes
    if mode != WINDOW_NONE and not window_agent:
        for j in range(tiles.shape[0]):
            codes[tiles[j]] = window_code(view, tiles[j], off9)
    if mode == WINDOW_SCORE:
        scored_slots(b, codes, probe)
    bins = window_agent and cbins.shape[0] > 0
    lowest = 2.0
    best = 0.0
    for j in range(tiles.shape[0]):
        p = tiles[j]
        if view[p] != COVERED or flg[p] != 0:  # not a live tile (sweeper.agents.kernels.live)
            continue
        pp = prob[p]
        lowest = min(lowest, pp)
        best = max(best, pp, 1.0 - pp)
        if estimate:  # gathered per candidate while its window stays the same (no memory traffic)
            for k in range(8):
                ctr = p + off8[k]
                if view[ctr] == OUT:
                    continue
                i = p * 8 + k
                if codes[ctr] != wcode[i]:  # the window changed since its slot was looked up
                    window_slot(probe, symmetric, view, off9, ctr, codes[ctr], 7 - k, i)
                wacc[i] += pp
                wcnt[i] += 1
        if bins:
            for i in range(p * 8, p * 8 + 8):
                if cn[i] > 0:
                    k = belief_bin(cq[i])
                    cbins[k, 0] += 1.0
                    cbins[k, 1] += (cq[i] + 1.0) * 0.5
                    cbins[k, 2] += pp
                    cbins[k, 3] += pp <= EPS
                    cbins[k, 4] += pp >= 1.0 - EPS
    w_right, w_ties, unknown = 0.0, 0, False
    if mode == WINDOW_SCORE:
        w_right, w_ties, unknown = best_window_right(b, probe)
    probe.fstate[X_LOWEST] = lowest
    probe.fstate[X_BEST] = best
    probe.fstate[X_WINDOW] = w_right / w_ties if w_ties > 0 else best
    probe.fstate[X_UNKNOWN] = 1.0 if unknown else 0.0


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
    gap = max(best - fs[X_WINDOW], 0.0)
    sure = best >= 1.0 - EPS
    gs, gi = probe.gsum, probe.games
    gs[g, S_RIGHT] += right
    if sure:
        gs[g, S_REGRET_SURE] += regret
        gs[g, S_GAP_SURE] += gap
        gi[g, G_SURE] += 1
    else:
        gs[g, S_REGRET_GUESS] += regret
        gs[g, S_GAP_GUESS] += gap
    gi[g, G_UNKNOWN] += np.int64(fs[X_UNKNOWN] != 0.0)
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
        df[row, F_WINDOW] = fs[X_WINDOW]
        st[R_ROWS] = row + 1
    st[R_DEC] += 1


@njit(cache=True)
def end_of_game(b, probe, g):
    st, gi = probe.state, probe.games
    gi[g, G_WON] = b.gs[ST] != LOST
    gi[g, G_CAUSE] = st[R_CAUSE]
    gi[g, G_REMOVAL] = st[R_REMOVAL]
    gi[g, G_DECISIONS] = st[R_DEC]


def click_regret(prob: np.ndarray, tile: int) -> tuple[float, bool]:
    """The one-step regret of a click, for a player that only clicks: ``(gap, sure)``, where ``gap`` is how much
    likelier the clicked ``tile`` (a flat index) was to hide a mine than the safest tile on offer,
    ``prob[tile] - nanmin(prob)`` (``prob``: the exact probabilities of
    :func:`~sweeper.game.probability.mine_probabilities`, NaN on revealed tiles), and ``sure`` whether a tile proven
    safe was on offer (the lowest probability within :data:`EPS` of 0). The benchmark's regret per click and the neural
    bandit's training regret both score clicks with it."""
    p = np.asarray(prob, dtype=float).ravel()
    best = float(np.nanmin(p))
    return float(p[int(tile)]) - best, best <= EPS
