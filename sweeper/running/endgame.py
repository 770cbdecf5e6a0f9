"""The searching solver's endgame: an exact game-tree search once few layouts remain.

When the mine layouts consistent with a view are few (at most ``limit``), they are listed one by one
(:func:`layouts_of`, a backtracking over the covered tiles in row-major order that checks every revealed number
and the mine count), and the guess is chosen by the exact probability of winning from there under the best play
(:func:`endgame_tile`): with ``S`` the set of layouts still possible,

* ``V(S) = 1`` when one layout is left (every safe tile is then known);
* every covered tile that is safe in all of ``S`` is revealed for free (the solver clicks it without risk), which
  splits ``S`` by the numbers those tiles show: ``V(S) = sum_parts |S_part| / |S| V(S_part)``;
* otherwise ``V(S) = max over covered tiles t of sum over numbers v of |S(t safe, shows v)| / |S| V(S(t safe,
  shows v))``.

Since every layout consistent with the view is equally likely, this is the chance of winning the game from the
view with the best guesses from then on. Values are memoised by the set ``S`` (a 64-bit hash of its members); the
search stops, and the caller falls back to its own rule, once it has expanded ``nodes`` sets. Nothing is drawn at
random: the tiles are tried in row-major order and the first of the highest value (within ``TIE``) is kept.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict

from ..game.grid import COVERED

#: Values closer than this count as equal (the first tile in row-major order is kept).
TIE = 1e-12
_MIX = np.uint64(0x9E3779B97F4A7C15)
#: Most backtracking steps of the listing of layouts (:func:`layouts_of`) before it gives up.
STEPS = 2_000_000


@njit(cache=True)
def layouts_of(view, tiles, off8, mines, limit, cov, steps=STEPS):
    """The mine layouts consistent with the padded ``view`` and ``mines``, over its covered tiles ``cov`` (in
    row-major order): a boolean array (layouts x len(cov)), or an empty one (0 rows) if there are more than
    ``limit`` or the backtracking would take more than ``steps`` steps."""
    m = cov.shape[0]
    P = view.shape[0]
    # per revealed number: mines still needed, covered neighbours not yet assigned
    need = np.zeros(P, np.int64)
    left = np.zeros(P, np.int64)
    for j in range(tiles.shape[0]):
        q = tiles[j]
        if view[q] <= 8:
            need[q] = view[q]
            for k in range(8):
                if view[q + off8[k]] == COVERED:
                    left[q] += 1
    out = np.zeros((limit + 1, m), np.bool_)
    cur = np.zeros(m, np.bool_)
    val = np.full(m, -1, np.int64)
    n = 0
    placed = 0
    d = 0
    while d >= 0:
        steps -= 1
        if steps < 0:
            return out[:0]
        if d == m:
            if placed == mines:
                if n == limit:
                    return out[:0]
                out[n] = cur
                n += 1
            d -= 1
            continue
        x = cov[d]
        if val[d] >= 0:  # undo the value tried last
            for k in range(8):
                q = x + off8[k]
                if view[q] <= 8:
                    left[q] += 1
                    need[q] += val[d]
            placed -= val[d]
            cur[d] = False
        if val[d] == 1:
            val[d] = -1
            d -= 1
            continue
        val[d] += 1
        v = val[d]
        ok = placed + v <= mines and placed + v + (m - d - 1) >= mines
        for k in range(8):
            q = x + off8[k]
            if view[q] <= 8:
                left[q] -= 1
                need[q] -= v
                if need[q] < 0 or need[q] > left[q]:
                    ok = False
        placed += v
        cur[d] = v == 1
        if ok:
            d += 1
            if d < m:
                val[d] = -1
        # else: the loop comes back to depth d and tries its next value
    return out[:n].copy()


@njit(cache=True)
def _numbers(lay, cov, off8, P):
    """The number each covered tile would show under each layout (its count of neighbouring mines)."""
    L, m = lay.shape
    where = np.full(P, -1, np.int64)
    for i in range(m):
        where[cov[i]] = i
    num = np.zeros((L, m), np.int8)
    for i in range(m):
        for k in range(8):
            j = where[cov[i] + off8[k]]
            if j >= 0:
                for a in range(L):
                    num[a, i] += lay[a, j]
    return num


@njit(cache=True)
def _key(sub):
    h = np.uint64(0)
    for a in sub:
        z = (np.uint64(a) + np.uint64(1)) * _MIX
        z ^= z >> np.uint64(31)
        z *= np.uint64(0xBF58476D1CE4E5B9)
        z ^= z >> np.uint64(29)
        h += z
    return np.int64(h ^ np.uint64(sub.shape[0]))


@njit(cache=True)
def _split(sub, lay, num, t):
    """The layouts of ``sub`` where tile ``t`` is safe, grouped by its number: (indices, group starts)."""
    cnt = np.zeros(10, np.int64)
    for a in sub:
        if not lay[a, t]:
            cnt[num[a, t] + 1] += 1
    start = np.cumsum(cnt)
    pos = start[:9].copy()
    idx = np.empty(start[9], np.int64)
    for a in sub:
        if not lay[a, t]:
            idx[pos[num[a, t]]] = a
            pos[num[a, t]] += 1
    return idx, start


@njit(cache=True)
def _value(sub, lay, num, memo, budget):
    """The chance of winning from the layouts ``sub`` under the best play (see the module's text); -1 once
    ``budget[0]`` sets have been expanded."""
    n = sub.shape[0]
    if n == 1:
        return 1.0
    key = _key(sub)
    if key in memo:
        return memo[key]
    if budget[0] <= 0:
        return -1.0
    budget[0] -= 1
    m = lay.shape[1]
    # a tile safe in every layout that tells them apart: reveal it for free
    for t in range(m):
        safe = True
        for a in sub:
            if lay[a, t]:
                safe = False
                break
        if safe:
            first = num[sub[0], t]
            split = False
            for a in sub:
                if num[a, t] != first:
                    split = True
                    break
            if split:
                idx, start = _split(sub, lay, num, t)
                tot = 0.0
                for v in range(9):
                    if start[v + 1] > start[v]:
                        r = _value(idx[start[v]:start[v + 1]], lay, num, memo, budget)
                        if r < 0.0:
                            return -1.0
                        tot += (start[v + 1] - start[v]) * r
                memo[key] = tot / n
                return tot / n
    best = 0.0
    for t in range(m):
        mine = 0
        for a in sub:
            mine += lay[a, t]
        if mine == n or mine == 0:
            continue  # a certain mine, or a safe tile that tells nothing
        if (n - mine) <= best * n:
            continue  # cannot beat the best even if it won every time it is safe
        idx, start = _split(sub, lay, num, t)
        tot = 0.0
        for v in range(9):
            if start[v + 1] > start[v]:
                r = _value(idx[start[v]:start[v + 1]], lay, num, memo, budget)
                if r < 0.0:
                    return -1.0
                tot += (start[v + 1] - start[v]) * r
        if tot / n > best + TIE:
            best = tot / n
    memo[key] = best
    return best


@njit(cache=True)
def endgame_tile(view, tiles, off8, mines, limit, nodes):
    """The guess of the exact endgame search on the padded ``view``: (tile, its winning chance), or (-1, -1.0)
    when the view has more than ``limit`` consistent layouts or the search would expand more than ``nodes`` sets."""
    m = 0
    for j in range(tiles.shape[0]):
        if view[tiles[j]] == COVERED:
            m += 1
    cov = np.empty(m, np.int64)
    i = 0
    for j in range(tiles.shape[0]):
        if view[tiles[j]] == COVERED:
            cov[i] = tiles[j]
            i += 1
    lay = layouts_of(view, tiles, off8, mines, limit, cov)
    L = lay.shape[0]
    if L == 0:
        return -1, -1.0
    num = _numbers(lay, cov, off8, view.shape[0])
    live = np.zeros(m, np.bool_)  # tiles that are not a mine in every layout (the others are never clicked)
    for t in range(m):
        for a in range(L):
            if not lay[a, t]:
                live[t] = True
                break
    cov, lay, num = cov[live], lay[:, live].copy(), num[:, live].copy()
    m = cov.shape[0]
    memo = Dict.empty(key_type=types.int64, value_type=types.float64)
    budget = np.array([nodes], np.int64)
    sub = np.arange(L)
    best, pick = -1.0, -1
    for t in range(m):
        mine = 0
        for a in range(L):
            mine += lay[a, t]
        if mine == L:
            continue
        if (L - mine) <= best * L:
            continue
        idx, start = _split(sub, lay, num, t)
        tot = 0.0
        for v in range(9):
            if start[v + 1] > start[v]:
                r = _value(idx[start[v]:start[v + 1]], lay, num, memo, budget)
                if r < 0.0:
                    return -1, -1.0
                tot += (start[v + 1] - start[v]) * r
        if tot / L > best + TIE:
            best, pick = tot / L, cov[t]
    return pick, best
