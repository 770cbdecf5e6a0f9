"""Exact mine probabilities: what a perfect reasoner knows about each covered tile.

:func:`mine_probabilities` gives every covered tile its exact probability of
hiding a mine, given the revealed numbers and the total mine count, all mine
layouts consistent with the view being equally likely. Flags are read as
covered tiles: the solver never trusts them.

* The *frontier* is the covered tiles next to a revealed number; every other
  covered tile is *unconstrained* (``U`` of them). Each revealed number is a
  constraint: its covered neighbours hold exactly that many mines.
* The frontier splits into independent *groups*, connected through shared
  constraints. Within a group, tiles next to exactly the same numbers form a
  *box* (at most 8 tiles); a box of ``s`` tiles holding ``j`` mines stands for
  ``C(s, j)`` layouts.
* Each group is enumerated by depth-first backtracking over its boxes (in
  breadth-first order from the group's first tile in row-major order), with
  propagation: every box's mine count is confined to the values that keep each
  of its constraints satisfiable by the boxes still unassigned. For each mine
  count ``m`` of the group this records the number of layouts and, per tile,
  the number of those layouts with a mine there.
* Groups combine by convolution over their mine counts; a frontier total ``F``
  is weighted by ``C(U, K - F)``, the ways to place the other mines among the
  unconstrained tiles (computed as ``lgamma`` differences relative to the
  largest weight, and every array is rescaled as it is built, so expert boards
  neither overflow nor underflow). An unconstrained tile's probability is
  ``E[K - F] / U``.
* A tile gets exactly ``0.0`` when no consistent layout puts a mine on it.

A group's enumeration has a budget; a group that exceeds it falls back (:func:`mine_probabilities` says how).
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import njit, types
from numba.typed import List

from ..checks import whole
from .grid import COVERED, FLAG, pad_view, padded_offsets

#: Default most box values one group's enumeration may assign before it falls back.
NODE_BUDGET = 1_000_000
INCONSISTENT = -1
BINOM = np.array([[math.comb(n, k) for k in range(9)] for n in range(9)], dtype=np.float64)

#: The frontier's groups, as one bundle for the kernels: ``gid`` the group of each padded cell (-1: none),
#: ``box`` its box within the group, ``order`` the group members one group after another (group ``g`` is
#: ``order[start[g]:start[g+1]]``), ``ok[g]`` whether group ``g`` was enumerated within budget, and per
#: group ``sols`` (layouts by the group's mine count) and ``cnts`` (per box, layouts with a mine on a tile).
Groups = namedtuple("Groups", ["gid", "box", "order", "start", "ok", "sols", "cnts"])


# ---------------------------------------------------------------- kernels --

@njit(cache=True, inline="always")
def _covered(v):
    return v == COVERED or v == FLAG


@njit(cache=True, inline="always")
def _number(v):
    return v <= 8


@njit(cache=True)
def _numbers_fit(view, tiles, off8):
    """Whether every revealed number is at most its count of covered neighbours."""
    for j in range(tiles.shape[0]):
        p = tiles[j]
        if _number(view[p]):
            c = 0
            for k in range(8):
                if _covered(view[p + off8[k]]):
                    c += 1
            if view[p] > c:
                return False
    return True


@njit(cache=True)
def _same_numbers(view, x, r, off8):
    """Whether covered tiles ``x`` and ``r`` touch exactly the same revealed numbers."""
    nt = 0
    nr = 0
    for k in range(8):
        if _number(view[r + off8[k]]):
            nr += 1
        q = x + off8[k]
        if _number(view[q]):
            nt += 1
            near = False
            for k2 in range(8):
                if q - r == off8[k2]:
                    near = True
            if not near:
                return False
    return nt == nr


@njit(cache=True)
def _group(view, start, g, off8, gid, cid, order, pos, need, cap):
    """Collect the group of frontier tile ``start`` breadth-first into ``order[pos:]``,
    numbering its constraints from 0 (``cid``, ``need``, ``cap``); returns (end, constraints)."""
    gid[start] = g
    order[pos] = start
    end = pos + 1
    nc = 0
    head = pos
    while head < end:
        x = order[head]
        head += 1
        for k in range(8):
            q = x + off8[k]
            if _number(view[q]) and cid[q] == -1:
                cid[q] = nc
                need[nc] = view[q]
                cap[nc] = 0
                for k2 in range(8):
                    r = q + off8[k2]
                    if _covered(view[r]):
                        cap[nc] += 1
                        if gid[r] == -1:
                            gid[r] = g
                            order[end] = r
                            end += 1
                nc += 1
    return end, nc


@njit(cache=True)
def _boxes(view, order, a, b, off8, box, cid):
    """Split ``order[a:b]`` into boxes; returns (count, sizes, constraints per box, their number)."""
    T = b - a
    size = np.zeros(T, np.int64)
    bc = np.zeros((T, 8), np.int64)
    nbc = np.zeros(T, np.int64)
    nb = 0
    for i in range(a, b):
        x = order[i]
        q0 = -1
        for k in range(8):
            if q0 == -1 and _number(view[x + off8[k]]):
                q0 = x + off8[k]
        found = -1
        for k in range(8):
            r = q0 + off8[k]
            if found == -1 and box[r] != -1 and _same_numbers(view, x, r, off8):
                found = box[r]
        if found == -1:
            found = nb
            nb += 1
            for k in range(8):
                q = x + off8[k]
                if _number(view[q]):
                    bc[found, nbc[found]] = cid[q]
                    nbc[found] += 1
        box[x] = found
        size[found] += 1
    return nb, size, bc, nbc


@njit(cache=True)
def _step(d, v, size, bc, nbc, rem, cp, sign):
    for k in range(nbc[d]):
        c = bc[d, k]
        rem[c] -= sign * v
        cp[c] -= sign * size[d]


@njit(cache=True)
def _enumerate(nb, size, bc, nbc, need, cap, T, budget):
    """Backtracking over the boxes. Returns (layouts per mine count m, mines per
    box per m, completed within ``budget``)."""
    rem = need.copy()
    cp = cap.copy()
    sols = np.zeros(T + 1)
    cnt = np.zeros((T + 1, nb))
    val = np.zeros(nb, np.int64)
    top = np.zeros(nb, np.int64)
    msum = np.zeros(nb + 1, np.int64)
    wp = np.ones(nb + 1)
    nodes = 0
    d = 0
    descend = True
    while d >= 0:
        if descend:
            if d == nb:
                m = msum[nb]
                w = wp[nb]
                sols[m] += w
                for i in range(nb):
                    cnt[m, i] += w * val[i]
                d -= 1
                descend = False
                continue
            lo = 0
            hi = size[d]
            for k in range(nbc[d]):
                c = bc[d, k]
                lo = max(lo, rem[c] - (cp[c] - size[d]))
                hi = min(hi, rem[c])
            if lo > hi:
                d -= 1
                descend = False
                continue
            val[d] = lo
            top[d] = hi
        else:
            _step(d, val[d], size, bc, nbc, rem, cp, -1)
            if val[d] == top[d]:
                d -= 1
                continue
            val[d] += 1
        _step(d, val[d], size, bc, nbc, rem, cp, 1)
        msum[d + 1] = msum[d] + val[d]
        wp[d + 1] = wp[d] * BINOM[size[d], val[d]]
        nodes += 1
        if nodes > budget:
            return sols, cnt, False
        d += 1
        descend = True
    return sols, cnt, True


@njit(cache=True)
def _conv_scaled(a, b):
    """Convolution of two nonnegative arrays, rescaled to a maximum of 1, and the log of the factor
    divided out (0 when all is zero)."""
    out = np.zeros(a.shape[0] + b.shape[0] - 1)
    for i in range(a.shape[0]):
        if a[i] != 0.0:
            for j in range(b.shape[0]):
                out[i + j] += a[i] * b[j]
    top = out.max()
    if top > 0.0:
        out /= top
        return out, math.log(top)
    return out, 0.0


@njit(cache=True)
def _conv(a, b):
    """Convolution of two nonnegative arrays, rescaled to a maximum of 1."""
    return _conv_scaled(a, b)[0]


@njit(cache=True)
def _weights(tot, mines, U):
    """Relative weights ``C(U, mines - F)`` of the frontier totals ``F`` that ``tot``
    allows (0 elsewhere; all zero when no total is possible), and the log of the factor
    ``U! / C(U, mines - F)`` they were divided by (-inf when none is possible)."""
    logw = np.full(tot.shape[0], -np.inf)
    best = -np.inf
    for F in range(tot.shape[0]):
        k = mines - F
        if tot[F] > 0.0 and 0 <= k <= U:
            logw[F] = -math.lgamma(k + 1.0) - math.lgamma(U - k + 1.0)
            best = max(best, logw[F])
    return (np.exp(logw - best) if best > -np.inf else np.zeros(tot.shape[0])), best


@njit(cache=True)
def _solve_groups(view, tiles, off8, budget, gr):
    """Find and enumerate the frontier groups into the bundle ``gr`` (:data:`Groups`). Returns (groups,
    unconstrained tiles, fallbacks, the log of the factors the groups' layout counts were divided by);
    ``groups`` is ``INCONSISTENT`` when a group has no solution."""
    gid, box, order, start, ok, sols_l, cnt_l = gr
    P = view.shape[0]
    n = tiles.shape[0]
    cid = np.full(P, -1, np.int64)
    need = np.empty(n, np.int64)
    cap = np.empty(n, np.int64)
    U = 0
    ng = 0
    fallbacks = 0
    logscale = 0.0
    for j in range(n):
        x = tiles[j]
        if not _covered(view[x]) or gid[x] != -1:
            continue
        near = False
        for k in range(8):
            near = near or _number(view[x + off8[k]])
        if not near:
            U += 1
            continue
        end, nc = _group(view, x, ng, off8, gid, cid, order, start[ng], need, cap)
        nb, size, bc, nbc = _boxes(view, order, start[ng], end, off8, box, cid)
        T = end - start[ng]
        sols, cnt, done = _enumerate(nb, size, bc, nbc, need[:nc], cap[:nc], T, budget)
        if done:
            top = sols.max()
            if top == 0.0:
                return INCONSISTENT, U, fallbacks, logscale
            logscale += math.log(top)
            for i in range(nb):
                cnt[:, i] /= size[i] * top
            sols /= top
        else:
            fallbacks += 1
            U += T
        ok[ng] = done
        sols_l.append(sols)
        cnt_l.append(cnt)
        ng += 1
        start[ng] = end
    return ng, U, fallbacks, logscale


@njit(cache=True)
def _combine(view, tiles, mines, U, ng, gr, prob, logz):
    """Combine the ``ng`` groups of ``gr`` (:data:`Groups`) with the ``U`` unconstrained tiles into
    ``prob``; False if no total mine count is possible. Adds to ``logz[0]`` the log of what the layout
    count was divided by."""
    _, box, order, start, ok, sols_l, cnt_l = gr
    pre = List.empty_list(types.float64[:])
    suf = List.empty_list(types.float64[:])
    pre.append(np.ones(1))
    suf.append(np.ones(1))
    for g in range(ng):
        if ok[g]:
            nxt, lt = _conv_scaled(pre[g], sols_l[g])
            logz[0] += lt
            pre.append(nxt)
        else:
            pre.append(pre[g])
    for g in range(ng - 1, -1, -1):
        suf.append(_conv(sols_l[g], suf[-1]) if ok[g] else suf[-1])
    tot = pre[ng]
    w, logw = _weights(tot, mines, U)
    den = 0.0
    num = 0.0
    for F in range(tot.shape[0]):
        den += tot[F] * w[F]
        num += tot[F] * w[F] * (mines - F)
    if den == 0.0:
        return False
    logz[0] += math.log(den) + logw + math.lgamma(U + 1.0)
    pu = num / den / U if U > 0 else 0.0
    for j in range(tiles.shape[0]):
        prob[tiles[j]] = pu if _covered(view[tiles[j]]) else np.nan
    for g in range(ng):
        if ok[g]:
            _fill_group(order[start[g]:start[g + 1]], box, sols_l[g], cnt_l[g],
                        _conv(pre[g], suf[ng - 1 - g]), w, prob)
    return True


@njit(cache=True)
def analyse(view, tiles, off8, mines, budget, prob):
    """Mine probabilities of the padded ``view`` into ``prob`` (NaN on revealed tiles).

    Returns the number of groups that fell back, or ``INCONSISTENT``."""
    return analyse_counted(view, tiles, off8, mines, budget, prob, np.zeros(1))


@njit(cache=True)
def analyse_counted(view, tiles, off8, mines, budget, prob, logz):
    """:func:`analyse`, and the natural log of the number of mine layouts consistent with the view
    into ``logz[0]`` (exact when no group fell back; -inf when inconsistent)."""
    logz[0] = -np.inf
    if not _numbers_fit(view, tiles, off8):
        return INCONSISTENT
    P = view.shape[0]
    n = tiles.shape[0]
    gr = Groups(gid=np.full(P, -1, np.int64), box=np.full(P, -1, np.int64), order=np.empty(n, np.int64),
                start=np.zeros(n + 1, np.int64), ok=np.zeros(n, np.bool_),
                sols=List.empty_list(types.float64[:]), cnts=List.empty_list(types.float64[:, :]))
    ng, U, fallbacks, logscale = _solve_groups(view, tiles, off8, budget, gr)
    if ng == INCONSISTENT:
        return INCONSISTENT
    logz[0] = logscale
    if not _combine(view, tiles, mines, U, ng, gr, prob, logz):
        logz[0] = -np.inf
        return INCONSISTENT
    return fallbacks


@njit(cache=True)
def _fill_group(members, box, sols, cnt, others, w, prob):
    """Probabilities of one group's tiles, given the other groups' mine-count
    distribution ``others`` and the weights ``w`` of frontier totals."""
    T = sols.shape[0] - 1
    tm = np.zeros(T + 1)
    z = 0.0
    for m in range(T + 1):
        for f in range(others.shape[0]):
            tm[m] += others[f] * w[m + f]
        z += sols[m] * tm[m]
    for x in members:
        b = box[x]
        s = 0.0
        for m in range(T + 1):
            s += cnt[m, b] * tm[m]
        prob[x] = s / z



# ------------------------------------------------------------- Python face --

def check_budget(budget) -> int:
    return whole(budget, "budget", 1)


def prepared_view(view2d, mines, budget):
    """Check a 2-D view and its mine count; returns (padded view, tiles, off8, mines, budget)."""
    view = np.asarray(view2d)
    if view.ndim != 2 or view.size == 0 or not np.issubdtype(view.dtype, np.integer):
        raise ValueError(f"the view must be a non-empty 2-D integer array, got {view.dtype} of shape {view.shape}")
    if ((view < 0) | (view > FLAG)).any():
        raise ValueError(f"view cells must be 0-8 (numbers), {COVERED} (covered) or {FLAG} (flagged)")
    mines = whole(mines, "mines", 0)
    budget = check_budget(budget)
    rows, cols = view.shape
    padded = pad_view(view)
    tiles = np.array([(r + 1) * (cols + 2) + c + 1 for r in range(rows) for c in range(cols)], dtype=np.int64)
    off8, _ = padded_offsets(cols)
    return padded, tiles, off8, int(mines), budget


def mine_probabilities(view2d, mines, *, budget: int = NODE_BUDGET, return_fallbacks: bool = False):
    """Each covered tile's probability of hiding a mine (float64, NaN on revealed tiles).

    ``view2d`` holds cell codes (0-8 numbers, 9 covered, 10 flagged: read as
    covered); ``mines`` is the board's total. With ``return_fallbacks`` the
    result is ``(probabilities, groups that fell back)``.

    Budget and fallback: a group's enumeration may assign at most ``budget`` box values (:data:`NODE_BUDGET` by
    default) before it is abandoned. An abandoned group's constraints are dropped: its tiles count as
    unconstrained tiles (they get the unconstrained probability and join ``U``), the other groups stay exact.
    Every abandoned group is counted: the count is returned with ``return_fallbacks=True``, and the players report
    it as ``fallbacks``."""
    padded, tiles, off8, mines, budget = prepared_view(view2d, mines, budget)
    rows, cols = np.asarray(view2d).shape
    prob = np.full(padded.shape[0], np.nan)
    f = analyse(padded, tiles, off8, mines, budget, prob)
    if f == INCONSISTENT:
        raise ValueError(f"no layout of {mines} mines is consistent with this view")
    out = prob.reshape(rows + 2, cols + 2)[1:-1, 1:-1].copy()
    return (out, int(f)) if return_fallbacks else out


def count_layouts(view2d, mines, *, log: bool = False, budget: int = NODE_BUDGET) -> float:
    """How many placements of ``mines`` mines on the covered (or flagged) tiles match every revealed
    number of ``view2d`` (0 when none does); with ``log``, its natural logarithm (-inf for none), which
    stays finite where the count itself would overflow."""
    padded, tiles, off8, mines, budget = prepared_view(view2d, mines, budget)
    logz = np.zeros(1)
    analyse_counted(padded, tiles, off8, mines, budget, np.full(padded.shape[0], np.nan), logz)
    return float(logz[0]) if log else float(math.exp(logz[0]))
