"""The bandit agents' play and learning, as numba kernels (paper Sections IV-A and IV-B).

These kernels are the one implementation of the agents' rules; training,
evaluation, the step-through API and the widgets all call them. The rules are
those of ``shared/notes/reference-behaviour.md`` (the ``reference`` rule set):

* Candidates of a decision, in *scan order*: tiles row-major; for each covered,
  unflagged tile its in-board neighbour centres in the order (-1,-1), (-1,0),
  (-1,+1), (0,-1), (0,+1), (+1,-1), (+1,0), (+1,+1). Each (centre, tile) pair
  is one action (window + target), valued by its key's Q and N.
* Greedy: largest |Q|, then largest N, then first in scan order (best |Q| and
  N start at 0). Click when Q < 0, else flag.
* epsilon-greedy: with probability epsilon a uniformly random candidate from the
  full list (click or flag by the sign of its Q); else greedy.
* UCB(c): t = decisions over the agent's life, incremented before scoring;
  seen: score = Q + sign(Q) c sqrt(ln t / N); unseen: -1e10; largest |score|,
  ties to the *last* in scan order; click when score < 0, else flag.
* Clicks are learned at once (reward +1 mine, -1 safe). A flag is learned at
  the game's end. After a flag, if flags exceed mines: over every flagged tile
  (shown as covered) and each of its windows, the lowest Q (UCB: lowest score,
  unseen scoring -1), ties to the last; that flag is removed and its tile
  clicked and learned at once.
* End of game: every flag action is rewarded by the truth of its tile; every
  candidate of the board of the last ordinary decision (before its move) is
  rewarded by the truth of its target.
* Thompson sampling (beyond the paper): each action (key) among the candidates
  draws P(mine) once from Beta(a0 + mines seen, b0 + safe seen), candidates of
  the same action sharing the draw; the most certain draw, first in scan order
  on ties, is clicked below 1/2 and flagged otherwise.
* State-action agent: the same rules, one candidate per covered unflagged tile,
  keyed by the whole view and the tile.

Speed: window keys are cached per (centre, target direction) and recomputed only
for centres next to a tile that changed since the previous decision; each cached
key holds a reserved slot of the value table, so a decision is one pass that
reads Q and N by slot, with no hashing.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..game.grid import COVERED, OUT
from .windows import key_from_cells, window_cells, window_key
from ..game.engine import (CLK, DEC, FLP, G_C, G_K, G_R, LAST, LOST, ND, NFL, NREC, ONGOING, REM, REV, ST, WRONG, click, new_game, set_flag)
from ..rng import below, beta, uniform
from .values import DECISIONS, ensure_room, find, find_or_insert, update

# agent kinds and the layout of the policy array ``pol``
GREEDY, EGREEDY, UCB, SA, THOMPSON = 0, 1, 2, 3, 4
P_KIND, P_EPS, P_C, P_SYM, P_VISIBLE, P_LEARN, P_A0, P_B0 = range(8)
POL_SIZE = 8
UNSEEN_UCB = -1e10
# per-game record columns
R_WON, R_DEC, R_CLK, R_FLP, R_WRONG, R_REV, R_REM, R_RECORDED, R_PERFECT = range(9)
REC_SIZE = 9


@njit(cache=True)
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
def refresh(geo, tiles, view, flg, cand, dirty, dlist, gi, last_live, off8, off9, keys, q, n, meta, pol):
    """Bring cached keys up to date before a decision and snapshot the candidates.

    ``cand`` = (cslot, cq, cn, rawc). For every window centre marked dirty since
    the last call whose 9 cells changed, recompute the key of each direction whose
    target cell is covered, reserve its slot and copy its Q and N. Grows the value
    table first if needed (then every key is recomputed). Returns the table arrays."""
    cslot, cq, cn, rawc = cand[0], cand[1], cand[2], cand[3]
    R = geo[G_R]
    C = geo[G_C]
    cap = keys.shape[0]
    keys, q, n = ensure_room(keys, q, n, meta, 8 * R * C + 16)
    kind = np.int64(pol[P_KIND])
    if kind == SA:
        gi[LAST] = sa_code(tiles, view, -1)
        for j in range(gi[ND]):
            dirty[dlist[j]] = 0
        gi[ND] = 0
    else:
        if keys.shape[0] != cap:  # slots moved: recompute every window
            for j in range(gi[ND]):
                dirty[dlist[j]] = 0
            for j in range(tiles.shape[0]):
                dirty[tiles[j]] = 1
                dlist[j] = tiles[j]
                rawc[tiles[j]] = -1
            gi[ND] = tiles.shape[0]
        sym = pol[P_SYM] != 0
        cells = np.empty(9, dtype=np.int64)
        for j in range(gi[ND]):
            c = dlist[j]
            dirty[c] = 0
            code = window_cells(view, c, off9, cells)
            same = code == rawc[c]
            rawc[c] = code
            for bp in range(8):
                t = c + off8[bp]
                if view[t] == COVERED:
                    i = t * 8 + 7 - bp
                    if not same:
                        cslot[i] = find_or_insert(keys, q, n, meta, key_from_cells(cells, bp, sym))
                    s = cslot[i]
                    cq[i] = q[s]
                    cn[i] = n[s]
        gi[ND] = 0
    for j in range(tiles.shape[0]):
        p = tiles[j]
        last_live[p] = 1 if (view[p] == COVERED and flg[p] == 0) else 0
    return keys, q, n


@njit(cache=True, inline="always")
def learn_slot(q, n, meta, cand, slot, reward, tiles, view, flg):
    """Update one slot and refresh the cached copies held by every live candidate.

    (A tile that becomes live again later is re-read by ``refresh``.)"""
    update(q, n, meta, slot, reward)
    cslot, cq, cn = cand[0], cand[1], cand[2]
    qv = q[slot]
    nv = n[slot]
    for j in range(tiles.shape[0]):
        p = tiles[j]
        if view[p] == COVERED and flg[p] == 0:
            for i in range(p * 8, p * 8 + 8):
                if cslot[i] == slot:
                    cq[i] = qv
                    cn[i] = nv


@njit(cache=True)
def thompson_choice(tiles, view, flg, cand, gen, pol, rng):
    """Thompson sampling: every action (value-table slot) among the candidates draws once,
    P(mine) ~ Beta(a0 + mines seen, b0 + safe seen); candidates sharing an action share its
    draw. The most certain draw (largest |2p - 1|, first candidate in scan order on ties)
    is clicked if p < 1/2, else flagged. ``gen`` (the decision number) marks this
    decision's entries in the draw map ``cand[4:7]``. Returns what :func:`choose` returns,
    with the draw as the score."""
    cslot, cq, cn = cand[0], cand[1], cand[2]
    tslot, tgen, tdraw = cand[4], cand[5], cand[6]
    mask = tslot.shape[0] - 1
    a0 = pol[P_A0]
    b0 = pol[P_B0]
    best = -1.0
    best_i = -1
    best_p = 0.0
    for j in range(tiles.shape[0]):
        p = tiles[j]
        if view[p] != COVERED or flg[p] != 0:
            continue
        for i in range(p * 8, p * 8 + 8):
            nv = cn[i]
            if nv < 0:
                continue
            slot = cslot[i]
            h = np.int64((np.uint64(slot) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)) & mask
            while tgen[h] == gen and tslot[h] != slot:
                h = (h + 1) & mask
            if tgen[h] == gen:
                draw = tdraw[h]
            else:
                mines = np.floor((cq[i] + 1.0) * 0.5 * nv + 0.5)
                draw = beta(rng, a0 + mines, b0 + (nv - mines))
                tgen[h] = gen
                tslot[h] = slot
                tdraw[h] = draw
            certainty = abs(2.0 * draw - 1.0)
            if certainty > best:
                best, best_i, best_p = certainty, i, draw
    return best_i // 8, -1, cslot[best_i], cq[best_i], cn[best_i], best_p, best_p >= 0.5, best_i


@njit(cache=True, inline="always")
def ucb_score(qv, nv, c, logt, unseen):
    if nv == 0:
        return unseen
    s = 0.0
    if qv > 0:
        s = 1.0
    elif qv < 0:
        s = -1.0
    return qv + s * c * math.sqrt(logt / nv)


@njit(cache=True, inline="always")
def choose(geo, tiles, view, flg, cand, gi, off8, keys, q, n, meta, pol, rng):
    """The agent's decision. Returns (tile, key, slot, Q, N, score, flag?, index).

    ``key`` is only meaningful for the state-action agent (window agents give
    the slot); ``score`` is the UCB score (or Q for the others); ``index`` is the
    chosen candidate's cache index (target tile * 8 + k), -1 for the SA agent."""
    kind = np.int64(pol[P_KIND])
    cslot, cq, cn = cand[0], cand[1], cand[2]
    meta[DECISIONS] += 1
    best_t = -1
    best_s = -1
    best_key = -1
    best_q = 0.0
    best_n = 0
    best_abs = 0.0
    best_score = 0.0
    best_i = -1
    if kind == SA:
        code = gi[LAST]
        nt = tiles.shape[0]
        for j in range(nt):
            p = tiles[j]
            if view[p] != COVERED or flg[p] != 0:
                continue
            key = code * nt + j
            s = find(keys, key)
            qv = -1.0
            nv = 0
            if s >= 0:
                qv = q[s]
                nv = n[s]
            a = abs(qv)
            if a > best_abs or (a == best_abs and nv > best_n):
                best_abs, best_n, best_q, best_t, best_s, best_key = a, nv, qv, p, s, key
        return best_t, best_key, best_s, best_q, best_n, best_q, best_q >= 0.0, -1
    explore = False
    if kind == EGREEDY:
        explore = uniform(rng) < pol[P_EPS]
    if explore:
        total = 0
        for j in range(tiles.shape[0]):
            p = tiles[j]
            if view[p] == COVERED and flg[p] == 0:
                for k in range(8):
                    if cn[p * 8 + k] >= 0:
                        total += 1
        pick = below(rng, total)
        for j in range(tiles.shape[0]):
            p = tiles[j]
            if view[p] == COVERED and flg[p] == 0:
                for i in range(p * 8, p * 8 + 8):
                    if cn[i] >= 0:
                        if pick == 0:
                            return p, -1, cslot[i], cq[i], cn[i], cq[i], cq[i] >= 0.0, i
                        pick -= 1
    if kind == THOMPSON:
        return thompson_choice(tiles, view, flg, cand, meta[DECISIONS], pol, rng)
    if kind != UCB:
        for j in range(tiles.shape[0]):
            p = tiles[j]
            if view[p] != COVERED or flg[p] != 0:
                continue
            for i in range(p * 8, p * 8 + 8):
                a = abs(cq[i])
                if a > best_abs or (a == best_abs and cn[i] > best_n):
                    best_abs, best_n, best_i = a, cn[i], i
        return best_i // 8, -1, cslot[best_i], cq[best_i], cn[best_i], cq[best_i], cq[best_i] >= 0.0, best_i
    cc = pol[P_C]
    logt = math.log(meta[DECISIONS])
    for j in range(tiles.shape[0]):
        p = tiles[j]
        if view[p] != COVERED or flg[p] != 0:
            continue
        for i in range(p * 8, p * 8 + 8):
            nv = cn[i]
            if nv < 0:
                continue
            qv = cq[i]
            sc = ucb_score(qv, nv, cc, logt, UNSEEN_UCB)
            a = abs(sc)
            if a >= best_abs:
                best_abs, best_n, best_q, best_t, best_s, best_score, best_i = a, nv, qv, p, cslot[i], sc, i
    return best_t, -1, best_s, best_q, best_n, best_score, best_score >= 0.0, best_i


@njit(cache=True)
def flag_to_remove(geo, tiles, view, flg, off8, off9, keys, q, n, meta, pol):
    """The flag the agent gives up when flags exceed mines: (tile, key)."""
    kind = np.int64(pol[P_KIND])
    sym = pol[P_SYM] != 0
    nt = tiles.shape[0]
    logt = math.log(max(meta[DECISIONS], 1))
    best = np.inf
    best_t = -1
    best_key = -1
    for j in range(nt):
        f = tiles[j]
        if flg[f] == 0:
            continue
        if kind == SA:
            key = sa_code(tiles, view, f) * nt + j
            s = find(keys, key)
            v = -1.0 if s < 0 else q[s]
            if v <= best:
                best, best_t, best_key = v, f, key
            continue
        for k in range(8):
            c = f + off8[k]
            if view[c] == OUT:
                continue
            key = window_key(view, c, off9, 7 - k, sym)
            s = find(keys, key)
            if kind == UCB:
                v = -1.0 if s < 0 else ucb_score(q[s], n[s], pol[P_C], logt, -1.0)
            else:
                v = -1.0 if s < 0 else q[s]
            if v <= best:
                best, best_t, best_key = v, f, key
    return best_t, best_key


@njit(cache=True, inline="always")
def apply(geo, tiles, mine, cnt, view, flg, dirty, dlist, gi, stack, frec, off8, off9,
          keys, q, n, meta, pol, cand, tile, key, slot, do_flag):
    """Carry out a decision: click (learned at once) or flag (remembered; may
    force the removal of a flag and a click). Returns the removed flag's tile or -1."""
    R = geo[G_R]
    C = geo[G_C]
    K = geo[G_K]
    n_safe = R * C - K
    learn = pol[P_LEARN] != 0
    visible = pol[P_VISIBLE] != 0
    gi[DEC] += 1
    if not do_flag:
        gi[CLK] += 1
        if learn:
            if slot < 0:
                slot = find_or_insert(keys, q, n, meta, key)
            learn_slot(q, n, meta, cand, slot, 1.0 if mine[tile] != 0 else -1.0, tiles, view, flg)
        click(tile, mine, cnt, view, flg, dirty, dlist, gi, stack, off8, n_safe)
        return -1
    if key < 0:
        key = keys[slot]
    set_flag(tile, True, visible, view, flg, dirty, dlist, gi, off8)
    gi[FLP] += 1
    frec[2 * gi[NREC]] = key
    frec[2 * gi[NREC] + 1] = tile
    gi[NREC] += 1
    if gi[NFL] <= K:
        return -1
    f, fkey = flag_to_remove(geo, tiles, view, flg, off8, off9, keys, q, n, meta, pol)
    set_flag(f, False, visible, view, flg, dirty, dlist, gi, off8)
    gi[REM] += 1
    gi[CLK] += 1
    if learn:
        learn_slot(q, n, meta, cand, find_or_insert(keys, q, n, meta, fkey), 1.0 if mine[f] != 0 else -1.0,
                   tiles, view, flg)
    click(f, mine, cnt, view, flg, dirty, dlist, gi, stack, off8, n_safe)
    return f


@njit(cache=True, inline="always")
def end_game(geo, tiles, mine, view, gi, last_live, cand, frec, off8, keys, q, n, meta, pol):
    """Delayed learning: flags by the truth of their tiles, then every candidate of
    the last decision's board by the truth of its target. Counts wrong flags."""
    learn = pol[P_LEARN] != 0
    kind = np.int64(pol[P_KIND])
    wrong = 0
    for r in range(gi[NREC]):
        t = frec[2 * r + 1]
        if mine[t] == 0:
            wrong += 1
        if learn:
            update(q, n, meta, find_or_insert(keys, q, n, meta, frec[2 * r]), 1.0 if mine[t] != 0 else -1.0)
    gi[WRONG] = wrong
    if not learn:
        return
    cslot = cand[0]
    nt = tiles.shape[0]
    for j in range(nt):
        t = tiles[j]
        if last_live[t] == 0:
            continue
        reward = 1.0 if mine[t] != 0 else -1.0
        if kind == SA:
            update(q, n, meta, find_or_insert(keys, q, n, meta, gi[LAST] * nt + j), reward)
            continue
        for i in range(t * 8, t * 8 + 8):
            if cslot[i] >= 0:
                update(q, n, meta, cslot[i], reward)


@njit(cache=True)
def play_games(geo, tiles, mine, cnt, view, flg, dirty, dlist, gi, stack, pool, frec, last_live, cand,
               off8, off9, keys, q, n, meta, pol, rng_boards, rng_agent, layouts, records, start, count):
    """Play ``count`` games, writing rows ``start .. start+count-1`` of ``records``.

    ``layouts`` is either empty (boards drawn from ``rng_boards``) or holds one
    mine layout per game. Returns the (possibly regrown) table arrays."""
    no_layout = np.zeros(0, dtype=np.uint8)
    R = geo[G_R]
    C = geo[G_C]
    K = geo[G_K]
    for g in range(start, start + count):
        layout = layouts[g] if layouts.shape[0] > 0 else no_layout
        new_game(geo, tiles, mine, cnt, view, flg, dirty, dlist, gi, stack, pool, off8, rng_boards, layout)
        keys, q, n = refresh(geo, tiles, view, flg, cand, dirty, dlist, gi, last_live, off8, off9,
                             keys, q, n, meta, pol)
        while gi[ST] == ONGOING:
            t, key, slot, qv, nv, sc, fl, _ = choose(geo, tiles, view, flg, cand, gi, off8, keys, q, n, meta,
                                                  pol, rng_agent)
            apply(geo, tiles, mine, cnt, view, flg, dirty, dlist, gi, stack, frec, off8, off9,
                  keys, q, n, meta, pol, cand, t, key, slot, fl)
            if gi[ST] == ONGOING:
                keys, q, n = refresh(geo, tiles, view, flg, cand, dirty, dlist, gi, last_live, off8, off9,
                                     keys, q, n, meta, pol)
        end_game(geo, tiles, mine, view, gi, last_live, cand, frec, off8, keys, q, n, meta, pol)
        records[g, R_WON] = 1 if gi[ST] != LOST else 0
        records[g, R_DEC] = gi[DEC]
        records[g, R_CLK] = gi[CLK]
        records[g, R_FLP] = gi[FLP]
        records[g, R_WRONG] = gi[WRONG]
        records[g, R_REV] = gi[REV]
        records[g, R_REM] = gi[REM]
        records[g, R_RECORDED] = meta[1]
        records[g, R_PERFECT] = meta[2]
    return keys, q, n
