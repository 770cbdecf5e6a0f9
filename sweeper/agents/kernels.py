"""The bandit agents' view of a board and their choice rules, as numba kernels (paper Sections IV-A and IV-B).

These kernels and the loop that plays them (:mod:`sweeper.agents.loop`) are the one implementation of how the
agents choose and learn; training, evaluation, the step-through API, the audit, the Gymnasium policy and the
widgets all call them. The rules are those of the ``reference`` rule set, stated in full in the book page "The
reference rules" (``book/reference_rules.md``): the candidates of a decision in *scan order* (tiles row-major;
for each covered, unflagged tile its in-board window centres in the order (-1,-1), (-1,0), (-1,+1), (0,-1),
(0,+1), (+1,-1), (+1,0), (+1,+1)), each (centre, tile) pair one action valued by its key's Q and N, and one
choice rule per agent kind: greedy, epsilon-greedy, UCB(c), Thompson sampling (beyond the paper), the
state-action agent (one candidate per tile, keyed by the whole view) and a plug-in rule
(:mod:`sweeper.agents.custom`: the candidates' Q and N, in scan order, go to the user's function).

Kernels take three bundles: the game's :class:`~sweeper.game.engine.Board`, the agent's :class:`Cache` (what it
remembers of the current game) and its value :class:`~sweeper.agents.values.Table`, plus the policy array ``pol``
(the agent's kind and parameters, ``P_*`` indices). A decision is three steps, :func:`refresh`, :func:`choose`
(here) and :func:`~sweeper.agents.loop.apply`. There is one game loop, :func:`sweeper.agents.loop._games`, run by
:func:`~sweeper.agents.loop.play_games` for training, evaluation, the audit and the regret runs (the last two hand
it a probe of :mod:`sweeper.agents.oracle`, which measures each decision against the exact probabilities and
changes nothing). The step-through (:class:`~sweeper.running.episode.Episode`) and the Gymnasium policy call the
same three steps one decision at a time. A plug-in rule's agent is never played without its rule:
:func:`~sweeper.agents.loop.check_rule` refuses it, and :func:`choose` makes no choice for it.

How the kernels are made fast (measured with perf on 10^5 and 2x10^5 beginner games; ``python -m sweeper bench``
measures the current figures): window keys cached by :class:`Cache`, lookups that overlap their cache misses
(:func:`refresh_keys`), and no reference counts and no argument copying in the loop
(:func:`~sweeper.agents.loop._play_games`).
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ..game.engine import G_C, G_R, ND
from ..game.grid import COVERED
from ..rng import below, beta, uniform
from .values import (DECISIONS, EMPTY, Table, ensure_room, find, insert, needs_room,
                     prefetch, slot_of, update)
from .windows import window_code, window_key

# agent kinds and the layout of the policy array ``pol``
GREEDY, EGREEDY, UCB, SA, THOMPSON, RULE = 0, 1, 2, 3, 4, 5
P_KIND, P_EPS, P_C, P_SYM, P_VISIBLE, P_LEARN, P_A0, P_B0 = range(8)
POL_SIZE = 8
UNSEEN_UCB = -1e10
# the agent's counters of the current game, ``Cache.ac``: decisions, clicks, flag placements, flag records,
# state code of the last decision (state-action agent), forced removals, wrong flags, and whether the last
# decision explored (epsilon-greedy)
DEC, CLK, FLP, NREC, LAST, REM, WRONG, EXPLORED = range(8)
AC_SIZE = 8
# per-game record columns
R_WON, R_DEC, R_CLK, R_FLP, R_WRONG, R_REV, R_REM, R_RECORDED, R_PERFECT = range(9)
REC_SIZE = 9
# a plug-in rule's status array ``rule.status`` (see :mod:`sweeper.agents.custom`): error code, the game and
# decision where it happened, the index (or flag) the rule returned, the number of candidates, and the decisions
# left before the rule's ``poll`` is asked whether the run was interrupted (Ctrl-C)
E_CODE, E_GAME, E_DECISION, E_INDEX, E_COUNT, E_TICK = range(6)
E_SIZE = 6

#: What the kernels take for a plug-in rule (made by :meth:`sweeper.agents.custom.Rule._kernel_args`), by name:
#: ``choose`` and ``give_up`` (each a 1-tuple of the compiled function), ``params`` (float64), ``rng`` (the rule's
#: stream), the work buffers ``values``, ``counts`` and ``indices`` for the candidates on offer, ``status`` (the
#: ``E_*`` fields: what went wrong, where) and ``poll`` (a 1-tuple of the interrupt check).
RuleArgs = namedtuple("RuleArgs", ["choose", "give_up", "params", "rng", "values", "counts", "indices", "status",
                                   "poll"])
RULE_OK, RULE_BAD_INDEX, RULE_RAISED, RULE_BAD_GIVE_UP, RULE_GIVE_UP_RAISED, RULE_BAD_FLAG = 0, 1, 2, 3, 4, 5

#: What the agent keeps about the current game, as one bundle for the kernels.
#: Per candidate, indexed ``target tile * 8 + k`` (``k``: the scan order of its window centres):
#: ``cslot`` its value-table slot, ``cq``/``cn`` a copy of that slot's Q and N (off-board centres
#: hold the sentinel Q = 0, N = -1, which never wins a choice). Per window centre: ``rawc`` the code of
#: its 9 cells when its keys were last computed (-1: never). Thompson sampling's draws of one decision
#: by slot (a small hash map: ``tslot`` the slot, ``tgen`` the decision it was drawn at, ``tdraw`` the
#: draw). ``last_live`` the live tiles of the last ordinary decision, ``frec`` the flags placed
#: (key, tile) awaiting the end of the game, ``ac`` the agent's counters (``DEC``...), ``pend`` scratch
#: space of :func:`refresh_keys` (the candidates whose keys it must look up, with their keys); ``lives`` the
#: live tiles of the current decision in scan order, their count in its last entry (written by
#: :func:`refresh_keys`, so that the choices scan the live tiles only, with no test per tile that the processor
#: would mispredict); ``full`` per tile: 1 when all 8 window centres around it are on the board (a plug-in
#: rule's :func:`gather` copies such a tile's 8 candidates without testing each).
#: (Kernels read a bundle's arrays into local names once, outside their loops: an array taken out of a
#: bundle inside a loop costs a reference count each time.) The window keys are cached per (centre, target
#: direction) and recomputed only for centres next to a tile that changed since the previous decision; each cached
#: key holds a reserved slot of the value table, so a decision reads Q and N by slot, with no hashing.
Cache = namedtuple("Cache", ["cslot", "cq", "cn", "rawc", "tslot", "tgen", "tdraw", "last_live", "frec", "ac",
                             "pend", "lives", "full"])


def new_cache(board) -> Cache:
    """Allocate an agent's cache for the board bundle ``board`` (every candidate unseen)."""
    R, C = int(board.geo[G_R]), int(board.geo[G_C])
    P = int(board.shown.shape[0])
    tiles, off8 = board.tiles, board.off8
    cq = np.full(P * 8, -1.0)
    cn = np.zeros(P * 8, dtype=np.int64)
    inboard = np.zeros(P, dtype=bool)
    inboard[tiles] = True
    off_board = ~inboard[tiles[:, None] + off8[None, :]]
    idx = (tiles[:, None] * 8 + np.arange(8))[off_board]
    cq[idx] = 0.0
    cn[idx] = -1
    full = np.zeros(P, dtype=np.uint8)
    full[tiles] = ~off_board.any(axis=1)
    m = 1 << int(max(16, 2 * 8 * R * C) - 1).bit_length()
    return Cache(cslot=np.full(P * 8, -1, dtype=np.int64), cq=cq, cn=cn, rawc=np.full(P, -1, dtype=np.int64),
                 tslot=np.full(m, -1, dtype=np.int64), tgen=np.zeros(m, dtype=np.int64), tdraw=np.zeros(m),
                 last_live=np.zeros(P, dtype=np.uint8), frec=np.zeros(2 * R * C + 2, dtype=np.int64),
                 ac=np.zeros(AC_SIZE, dtype=np.int64), pend=np.zeros(2 * P * 8, dtype=np.int64),
                 lives=np.zeros(tiles.shape[0] + 1, dtype=np.int64), full=full)


@njit(cache=True, inline="always")
def live(view, flg, p):
    """Is tile ``p`` a possible target (covered and not flagged)?"""
    return (view[p] == COVERED) & (flg[p] == 0)  # no short circuit: one basic block, no reference counts


#: 8 as an unsigned integer: see :func:`first_candidate`.
U8 = np.uint64(8)


@njit(cache=True, inline="always")
def first_candidate(p):
    """The cache index of tile ``p``'s first candidate (its 8 follow), as an unsigned integer: numba adds a test
    for negative values to every array index that may be negative, and the hot loops index with these."""
    return np.uint64(p) * U8


@njit(cache=True, _nrt=False)
def sa_code(tiles, view, skip):
    """Base-11 code of the whole view (cell codes 0..10), tile ``skip`` shown covered."""
    code = np.int64(0)
    for j in range(tiles.shape[0]):
        p = tiles[j]
        v = view[p]
        if p == skip:
            v = COVERED
        code = code * 11 + v
    return code


@njit(cache=True, inline="always")
def begin_game(cache):
    ac = cache.ac
    for i in range(ac.shape[0]):
        ac[i] = 0


@njit(cache=True, _nrt=False, inline="always")
def refresh_keys(b, cache, table, pol, moved):
    """:func:`refresh` once the value table has room (``moved``: it was just regrown, so every cached
    slot is stale).

    Lookups overlap their cache misses: at 10^5 games the table holds about 280,000 keys in 25 MB, so most lookups
    miss the CPU's caches. This first computes the keys of all windows that changed and asks the CPU to fetch each
    key's slot (:func:`~sweeper.agents.values.prefetch`), then looks them up in the same order; a slot's key, N and
    Q share one record, so the lookup and the reads of Q and N touch one cache line."""
    tiles, view, flg, dirty, dlist, gs, off8, off9 = b.tiles, b.shown, b.flg, b.dirty, b.dlist, b.gs, b.off8, b.off9
    cslot, cq, cn, rawc = cache.cslot, cache.cq, cache.cn, cache.rawc
    last_live, ac, pend, lives = cache.last_live, cache.ac, cache.pend, cache.lives
    keys, q, n, meta = table.keys, table.q, table.n, table.meta
    kind = np.int64(pol[P_KIND])
    sym = pol[P_SYM] != 0
    if kind == SA:
        ac[LAST] = sa_code(tiles, view, -1)
        for j in range(gs[ND]):
            dirty[dlist[j]] = 0
        gs[ND] = 0
    else:
        if moved:  # slots moved: recompute every window
            for j in range(gs[ND]):
                dirty[dlist[j]] = 0
            for j in range(tiles.shape[0]):
                dirty[tiles[j]] = 1
                dlist[j] = tiles[j]
                rawc[tiles[j]] = -1
            gs[ND] = tiles.shape[0]
        # first pass: the keys of the windows that changed, their slots' cache lines requested at once
        # (the lookups that follow then wait for their misses together, not one after another)
        m = 0
        for j in range(gs[ND]):
            ctr = dlist[j]
            dirty[ctr] = 0
            code = window_code(view, ctr, off9)
            same = code == rawc[ctr]
            rawc[ctr] = code
            for bp in range(8):
                x = ctr + off8[bp]
                if view[x] == COVERED:
                    i = x * 8 + 7 - bp
                    if same:
                        s = cslot[i]
                        cq[i] = q[s]
                        cn[i] = n[s]
                    else:
                        key = window_key(view, ctr, off9, bp, sym)
                        prefetch(keys, key)
                        pend[2 * m] = i
                        pend[2 * m + 1] = key
                        m += 1
        # second pass: find or reserve their slots, in the order met
        for r in range(m):
            i = pend[2 * r]
            key = pend[2 * r + 1]
            s = slot_of(keys, key)
            if keys[s] == EMPTY:
                insert(keys, q, n, meta, s, key)
            cslot[i] = s
            cq[i] = q[s]
            cn[i] = n[s]
        gs[ND] = 0
    nl = 0
    for j in range(tiles.shape[0]):
        p = tiles[j]
        lv = live(view, flg, p)
        last_live[p] = lv
        lives[nl] = p  # branch-free: kept only when live
        nl += np.int64(lv)
    lives[tiles.shape[0]] = nl


@njit(cache=True, inline="always")
def table_room(rows, cols):
    """The free slots of the value table a decision may need on a ``rows x cols`` board: a key for each of the 8
    directions of every tile, and 16 to spare."""
    return 8 * rows * cols + 16


@njit(cache=True, inline="always")
def refresh(b, cache, table, pol):
    """Bring cached keys up to date before a decision and snapshot the candidates.

    For every window centre in the board's change log whose 9 cells changed,
    recompute the key of each direction whose target cell is covered, reserve its
    slot and copy its Q and N; then clear the log. Grows the value table first if
    needed (then every key is recomputed). Returns the (possibly new) table."""
    room = table_room(b.geo[G_R], b.geo[G_C])
    moved = needs_room(table.keys, table.meta, room)
    if moved:
        keys, q, n = ensure_room(table.keys, table.q, table.n, table.meta, room)
        table = Table(keys, q, n, table.meta)
    refresh_keys(b, cache, table, pol, moved)
    return table


@njit(cache=True, _nrt=False, inline="always")
def learn_slot(b, cache, table, slot, reward):
    """Update one slot and refresh the cached copies held by every live candidate.

    (A tile that becomes live again later is re-read by ``refresh``.)"""
    tiles, view, flg, cslot, cq, cn, q, n = b.tiles, b.shown, b.flg, cache.cslot, cache.cq, cache.cn, table.q, table.n
    update(q, n, table.meta, slot, reward)
    qv = q[slot]
    nv = n[slot]
    for j in range(tiles.shape[0]):
        p = tiles[j]
        if live(view, flg, p):
            base = first_candidate(p)  # not ``b``: that is the board
            for k in range(U8):
                if cslot[base + k] == slot:
                    cq[base + k] = qv
                    cn[base + k] = nv


# ------------------------------------------------------------ the choice --
# A decision (:func:`choose`) returns (tile, key, slot, Q, N, score, flag?, index):
# ``key`` only for the state-action agent (window agents give the slot), ``score`` what the rule compared
# (Q, the UCB score, the Thompson draw), ``index`` the chosen candidate's cache index (-1 for the
# state-action agent). The window kinds' helpers return that index (with the score when it is not Q),
# and :func:`chosen` builds the tuple; the state-action helper builds it itself.

@njit(cache=True, inline="always")
def greedy_beats(a, nv, best_a, best_n):
    """The greedy order: larger |Q| first, then larger N (earlier in scan order on a full tie)."""
    return a > best_a or (a == best_a and nv > best_n)


@njit(cache=True, inline="always")
def _draw_entry(tslot, tgen, slot, gen):
    """Position of ``slot``'s entry of decision ``gen`` in the draw map (or of the free entry for it)."""
    mask = tslot.shape[0] - 1
    h = np.int64((np.uint64(slot) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)) & mask
    while tgen[h] == gen and tslot[h] != slot:
        h = (h + 1) & mask
    return h


@njit(cache=True, inline="always")
def thompson_posterior(qv, nv, a0, b0):
    """Thompson sampling's posterior of an action whose Q is ``qv`` after ``nv`` tries: Beta(a, b) with
    a = a0 + mines seen, b = b0 + safe seen, the mines read off Q as m = (Q + 1) N / 2 (rounded). Returns (a, b)."""
    mines = np.floor((qv + 1.0) * 0.5 * nv + 0.5)
    return a0 + mines, b0 + (nv - mines)


@njit(cache=True, inline="always")
def thompson_draw(tslot, tgen, tdraw, slot, qv, nv, gen, a0, b0, rng):
    """The draw of P(mine) at decision ``gen`` of the action in value-table slot ``slot`` (its Q and N:
    ``qv``, ``nv``): a Beta(a0 + mines seen, b0 + safe seen) variate, drawn once per action and decision
    (candidates of one action share the draw through the map ``tslot/tgen/tdraw``)."""
    h = _draw_entry(tslot, tgen, slot, gen)
    if tgen[h] == gen:
        return tdraw[h]
    a, b = thompson_posterior(qv, nv, a0, b0)
    draw = beta(rng, a, b)
    tgen[h] = gen
    tslot[h] = slot
    tdraw[h] = draw
    return draw


@njit(cache=True, inline="always")
def ucb_score(qv, nv, c, logt, unseen):
    """The paper's code's UCB score: Q + sign(Q) c sqrt(ln t / N); ``unseen`` when N = 0."""
    if nv == 0:
        return unseen
    s = 0.0
    if qv > 0:
        s = 1.0
    elif qv < 0:
        s = -1.0
    return qv + s * c * math.sqrt(logt / nv)


#: The choice tuple of no choice (a plug-in rule's agent asked to choose without its rule).
NO_CHOICE = (np.int64(-1), np.int64(-1), np.int64(-1), 0.0, np.int64(0), 0.0, False, np.int64(-1))


@njit(cache=True, inline="always")
def chosen(cslot, cq, cn, i, score, flag):
    """The choice tuple of the candidate with cache index ``i``."""
    return i // 8, -1, cslot[i], cq[i], cn[i], score, flag, i


@njit(cache=True, _nrt=False)
def choose_greedy(lives, cq, cn):
    """Largest |Q|, then largest N, then first in scan order (the cache index; click when Q < 0, else flag)."""
    best_a = 0.0
    best_n = 0
    best_i = np.uint64(0)
    found = False
    for r in range(lives[lives.shape[0] - 1]):
        base = first_candidate(lives[r])
        for k in range(U8):
            i = base + k
            a = abs(cq[i])
            if greedy_beats(a, cn[i], best_a, best_n):
                best_a, best_n, best_i, found = a, cn[i], i, True
    return np.int64(best_i) if found else np.int64(-1)


@njit(cache=True, _nrt=False)
def choose_random(lives, cn, rng):
    """epsilon-greedy's exploration: a uniformly random candidate (click or flag by the sign of its Q)."""
    total = 0
    for r in range(lives[lives.shape[0] - 1]):
        base = first_candidate(lives[r])
        for k in range(U8):
            total += np.int64(cn[base + k] >= 0)
    pick = below(rng, total)
    for r in range(lives[lives.shape[0] - 1]):
        base = first_candidate(lives[r])
        for k in range(U8):
            if cn[base + k] >= 0:
                if pick == 0:
                    return np.int64(base + k)
                pick -= 1
    return np.int64(-1)


@njit(cache=True, _nrt=False)
def choose_ucb(lives, cq, cn, cc, logt):
    """Largest |UCB score| (unseen actions score -1e10), ties to the last in scan order: (index, score)."""
    best_a = 0.0
    best_i = np.int64(-1)
    best_s = 0.0
    for r in range(lives[lives.shape[0] - 1]):
        base = first_candidate(lives[r])
        for k in range(U8):
            i = base + k
            nv = cn[i]
            if nv < 0:
                continue
            sc = ucb_score(cq[i], nv, cc, logt, UNSEEN_UCB)
            a = abs(sc)
            if a >= best_a:
                best_a, best_i, best_s = a, np.int64(i), sc
    return best_i, best_s


@njit(cache=True, _nrt=False)
def choose_thompson(cache, gen, a0, b0, rng):
    """The most certain draw (largest |2p - 1|, first in scan order on ties): (index, draw); click below
    1/2, else flag."""
    cslot, cq, cn, lives = cache.cslot, cache.cq, cache.cn, cache.lives
    tslot, tgen, tdraw = cache.tslot, cache.tgen, cache.tdraw
    best = -1.0
    best_i = np.int64(-1)
    best_p = 0.0
    for r in range(lives[lives.shape[0] - 1]):
        base = first_candidate(lives[r])
        for k in range(U8):
            i = base + k
            if cn[i] < 0:
                continue
            draw = thompson_draw(tslot, tgen, tdraw, cslot[i], cq[i], cn[i], gen, a0, b0, rng)
            certainty = abs(2.0 * draw - 1.0)
            if certainty > best:
                best, best_i, best_p = certainty, np.int64(i), draw
    return best_i, best_p


@njit(cache=True, _nrt=False)
def choose_sa(tiles, view, flg, keys, q, n, code):
    """State-action: one candidate per live tile keyed by (the whole view ``code``, the tile); greedy order."""
    nt = tiles.shape[0]
    best_a = 0.0
    best_n = 0
    best_q = 0.0
    best_t = -1
    best_s = -1
    best_key = -1
    for j in range(nt):
        p = tiles[j]
        if not live(view, flg, p):
            continue
        key = code * nt + j
        s = find(keys, key)
        qv = -1.0
        nv = 0
        if s >= 0:
            qv = q[s]
            nv = n[s]
        a = abs(qv)
        if greedy_beats(a, nv, best_a, best_n):
            best_a, best_n, best_q, best_t, best_s, best_key = a, nv, qv, p, s, key
    return best_t, best_key, best_s, best_q, best_n, best_q, best_q >= 0.0, -1


@intrinsic
def copy8(typingctx, src, i, dst, j):
    """``dst[j:j + 8] = src[i:i + 8]`` as one block move (LLVM's ``memcpy`` of 64 bytes, which the processor does
    in one or two vector moves; numba copies item by item, as the arrays might overlap). The two arrays must not
    overlap, and the caller keeps both ranges in bounds."""
    if not (isinstance(src, types.Array) and isinstance(dst, types.Array) and src.dtype == dst.dtype
            and isinstance(i, types.Integer) and isinstance(j, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        sty, _, dty, _ = signature.args
        s = context.make_array(sty)(context, builder, args[0])
        d = context.make_array(dty)(context, builder, args[2])
        sp = cgutils.get_item_pointer(context, builder, sty, s, [args[1]], wraparound=False)
        dp = cgutils.get_item_pointer(context, builder, dty, d, [args[3]], wraparound=False)
        size = context.get_abi_sizeof(context.get_data_type(sty.dtype))
        cgutils.raw_memcpy(builder, dp, sp, context.get_constant(types.intp, 8), size)
        return context.get_dummy_value()

    return types.void(src, i, dst, j), codegen


@njit(cache=True, _nrt=False)
def gather(lives, full, cq, cn, qbuf, nbuf, ibuf):
    """The live candidates in scan order: their Q, N and cache index in ``qbuf``/``nbuf``/``ibuf``.
    Returns how many."""
    m = np.uint64(0)
    for r in range(lives[lives.shape[0] - 1]):
        p = lives[r]
        base = first_candidate(p)
        if full[p]:  # its 8 candidates side by side: Q and N moved as two blocks
            copy8(cq, base, qbuf, m)
            copy8(cn, base, nbuf, m)
            for k in range(U8):
                ibuf[m + k] = base + k
            m += U8
            continue
        for k in range(U8):
            i = base + k
            if cn[i] >= 0:
                qbuf[m] = cq[i]
                nbuf[m] = cn[i]
                ibuf[m] = i
                m += np.uint64(1)
    return np.int64(m)


@njit(cache=True, inline="always")
def rule_failed(rule, code, gen, index, m):
    st = rule.status
    st[E_CODE] = code
    st[E_DECISION] = gen
    st[E_INDEX] = index
    st[E_COUNT] = m


@njit(cache=True, inline="always")
def choose_by_rule(lives, full, cslot, cq, cn, gen, rule):
    """A plug-in rule's choice: ``rule`` is the tuple ((choose,), (give_up,), params, rng, q, n, index
    buffers, status, (poll,)) built by :mod:`sweeper.agents.custom` (each function in a 1-tuple, which numba types
    as a first-class function of fixed signature: one compiled kernel serves every rule). ``poll()``, called when
    the status's countdown ``E_TICK`` runs out, returns the decisions until the next call (about a tenth of a
    second of them), or -1 when the run was interrupted (Ctrl-C). The answer is checked as the Python path
    checks it: an index in range, a flag 0 or 1. On a bad answer, an exception or an interrupt the status records
    it and the tile returned is -1 (the callers stop the run)."""
    choose_fn, params, gen_rng, qbuf, nbuf, ibuf = rule.choose[0], rule.params, rule.rng, rule.values, rule.counts, rule.indices
    m = gather(lives, full, cq, cn, qbuf, nbuf, ibuf)
    st = rule.status
    st[E_TICK] -= 1
    if st[E_TICK] <= 0:
        st[E_TICK] = rule.poll[0]()
        if st[E_TICK] < 0:  # interrupted: the poll has noted it for the caller
            rule_failed(rule, RULE_RAISED, gen, -1, m)
            return chosen(cslot, cq, cn, -1, 0.0, False)
    try:
        i, fl = choose_fn(qbuf[:m], nbuf[:m], gen, params, gen_rng)
    except Exception:  # noqa: BLE001 - reported by the caller, with the rule's traceback when it can be had
        rule_failed(rule, RULE_RAISED, gen, -1, m)
        return chosen(cslot, cq, cn, -1, 0.0, False)
    if not (i >= 0 and i < m) or i != np.int64(i):
        rule_failed(rule, RULE_BAD_INDEX, gen, np.int64(i), m)  # the adapters give an int64 index
        return chosen(cslot, cq, cn, -1, 0.0, False)
    if fl != 0 and fl != 1:  # the adapters give the flag as returned (a bool as 0 or 1)
        rule_failed(rule, RULE_BAD_FLAG, gen, np.int64(fl), m)
        return chosen(cslot, cq, cn, -1, 0.0, False)
    k = ibuf[np.int64(i)]
    return chosen(cslot, cq, cn, k, cq[k], fl != 0)


@njit(cache=True, _nrt=False, inline="always")
def choose(b, cache, table, pol, rng, rule=None):
    """The agent's decision (counts it in the table's decision counter first). ``rule``: a plug-in
    rule's tuple (:func:`choose_by_rule`), for the agents of :mod:`sweeper.agents.custom` only."""
    tiles, view, flg, meta = b.tiles, b.shown, b.flg, table.meta
    cslot, cq, cn, ac = cache.cslot, cache.cq, cache.cn, cache.ac
    kind = np.int64(pol[P_KIND])
    meta[DECISIONS] += 1
    ac[EXPLORED] = 0
    if rule is not None:
        return choose_by_rule(cache.lives, cache.full, cslot, cq, cn, meta[DECISIONS], rule)
    if kind == RULE:  # a plug-in rule's agent without its rule: no choice (never another kind's)
        return NO_CHOICE
    if kind == SA:
        return choose_sa(tiles, view, flg, table.keys, table.q, table.n, ac[LAST])
    if kind == EGREEDY and uniform(rng) < pol[P_EPS]:
        ac[EXPLORED] = 1
        i = choose_random(cache.lives, cn, rng)
        return chosen(cslot, cq, cn, i, cq[i], cq[i] >= 0.0)
    if kind == THOMPSON:
        i, draw = choose_thompson(cache, meta[DECISIONS], pol[P_A0], pol[P_B0], rng)
        return chosen(cslot, cq, cn, i, draw, draw >= 0.5)
    if kind == UCB:
        i, sc = choose_ucb(cache.lives, cq, cn, pol[P_C], math.log(meta[DECISIONS]))
        return chosen(cslot, cq, cn, i, sc, sc >= 0.0)
    i = choose_greedy(cache.lives, cq, cn)
    return chosen(cslot, cq, cn, i, cq[i], cq[i] >= 0.0)


@njit(cache=True)
def candidate_scores(b, cache, table, pol):
    """What the last :func:`choose` compared, candidate by candidate (call it right after ``choose``,
    before the move): for each candidate in scan order its cache index (the tile for the state-action
    agent), key, Q, N, score, and the pair the rule maximised lexicographically (``strength``, then
    ``second``). Returns those seven arrays and whether ties go to the last in scan order."""
    cap = b.shown.shape[0] * 8
    idx = np.empty(cap, np.int64)
    key = np.empty(cap, np.int64)
    ns = np.empty(cap, np.int64)
    qs = np.empty(cap)
    score = np.empty(cap)
    strength = np.empty(cap)
    second = np.empty(cap)
    tiles, view, flg = b.tiles, b.shown, b.flg
    cslot, cq, cn, tslot, tgen, tdraw = cache.cslot, cache.cq, cache.cn, cache.tslot, cache.tgen, cache.tdraw
    keys, q, n = table.keys, table.q, table.n
    kind = np.int64(pol[P_KIND])
    gen = table.meta[DECISIONS]
    m = 0
    nt = tiles.shape[0]
    for j in range(nt):
        p = tiles[j]
        if not live(view, flg, p):
            continue
        if kind == SA:
            k = cache.ac[LAST] * nt + j
            s = find(keys, k)
            qv = -1.0 if s < 0 else q[s]
            nv = 0 if s < 0 else n[s]
            idx[m], key[m], qs[m], ns[m], score[m], strength[m], second[m] = p, k, qv, nv, qv, abs(qv), nv
            m += 1
            continue
        for i in range(p * 8, p * 8 + 8):
            nv = cn[i]
            if nv < 0:
                continue
            qv = cq[i]
            sc = qv
            st = abs(qv)
            nd = float(nv)
            if kind == UCB:
                sc = ucb_score(qv, nv, pol[P_C], math.log(gen), UNSEEN_UCB)
                st = abs(sc)
                nd = 0.0
            elif kind == THOMPSON:  # the draw choose() made for this candidate's action
                h = _draw_entry(tslot, tgen, cslot[i], gen)
                sc = tdraw[h] if tgen[h] == gen else np.nan
                st = abs(2.0 * sc - 1.0)
                nd = 0.0
            idx[m], key[m], qs[m], ns[m], score[m], strength[m], second[m] = i, keys[cslot[i]], qv, nv, sc, st, nd
            m += 1
    return idx[:m], key[:m], qs[:m], ns[:m], score[:m], strength[:m], second[:m], kind == UCB
