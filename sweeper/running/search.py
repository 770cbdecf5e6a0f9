"""The searching solver: the exact solver's probabilities, and guesses chosen by what a click is expected to bring.

The one-step solver (:func:`~sweeper.running.players.play_solver`) guesses the safest covered tile. The searching
solver (:func:`play_search`) plays the same turns (the exact probabilities of :func:`~sweeper.game.probability.analyse`,
then every covered tile of probability 0 clicked in row-major order) and differs only in its guess, in this order:

1. An *unavoidable* guess first (:func:`forced_tile`): the covered neighbours of a revealed number, some but not all of
   them mines, that no other click can ever tell apart; they must be guessed anyway, and sooner tells more.
2. At most ``limit`` layouts: the exact endgame search's guess (:func:`~sweeper.running.endgame.endgame_tile`: the
   highest chance of winning under the best play), unless the search exceeds its budget.
3. Else the *candidate* of highest *score* (:func:`guess_values`; a candidate is a covered tile whose probability P,
   less its *50/50 share* S, is within ``margin`` of the lowest P), a *live* one if any (a *dead* tile, which can show
   only one number, tells nothing but its own safety, and its click can wait):

    score(c) = (1 + FIFTY S(c) / (1 - P(c))) x sum over the numbers v c can show of Pr(c safe, shows v) x next(c = v)

where ``next`` is 1 if the view with ``c`` revealed as ``v`` has a covered tile of probability 0 or no safe tile left,
else the safety ``1 - min P`` of its best guess; and ``S(c)`` (:func:`fifty_share`, JSMinesweeper's long-term risk) is
the chance that ``c`` holds the mine of a 2-tile 50/50 with an orthogonal neighbour (every tile next to just one of the
two a mine, at most 3 of them not certain ones: 1 to admit a tile beyond the margin), capped at min(P, 1 - P): a risk
that may have to be taken anyway (:data:`FIFTY`). Every chance is an exact count of layouts over the view's
(:func:`~sweeper.game.probability.analyse_counted`). Among the candidates within :data:`NEAR` of the best score, the one
of most *expected clears* (tiles its number is expected to make certainly safe); then the higher score, the lower P,
the fewest covered neighbours, row-major. Tiles no revealed number touches, nor their covered neighbours, are
interchangeable up to their count of covered neighbours (shares: of covered flanks). What each part measured:
:func:`play_search`. Nothing is drawn at random. Games are played by the engine's kernels
(:func:`~sweeper.game.engine.new_game`, :func:`~sweeper.game.engine.click`) in calls of about a tenth of a second;
Ctrl-C stops the run with ``KeyboardInterrupt`` once the call in progress returns. :class:`SearchPolicy` plays the
same turns in :class:`~sweeper.running.env.MinesweeperEnv`, click for click.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..checks import whole
from ..game.engine import G_K, ONGOING, REV, ST, WON, Setting, click, new_game, with_openings
from ..game.grid import COVERED, OUT
from ..game.probability import INCONSISTENT, NODE_BUDGET, analyse_counted, check_budget, prepared_view
from .endgame import endgame_tile
from .players import TIE, covered_neighbours, drive, interchangeable
from .policies import SolverPolicy

#: Default candidate margin: tiles whose mine probability is at most this much above the lowest are weighed.
MARGIN = 0.05
#: The weight of the second-best guess's safety in a view's worth (:func:`_next_value`): 0, the best guess's alone
#: (measured on 3,000 fresh expert boards of the safe opening: 0.2, JSMinesweeper's weight, won 0.4060 against
#: 0.4080 with 0).
BLEND = 0.0
#: Candidates whose score is within this of the best are ranked by their expected clears first (see the module's
#: text). With :data:`FIFTY`, measured as :data:`FIFTY` says; alone, on fresh expert-safe boards of seeds 9031 and
#: 9032 (5,000 each; the first form, see :data:`FIFTY`) against the rule before: 0.002: 74 / 58 boards won only by
#: it / only by the rule; 0.005: 116 / 97; 0.01: 158 / 145; exact ties only (seed 9031): 18 / 12.
NEAR = 0.005
#: The weight of a candidate's 50/50 share in its score (JSMinesweeper's 0.9; see the module's text). The share and
#: :data:`NEAR` together, against the rule before them, on fresh expert-safe boards (``fresh_suite("expert", "safe",
#: seed)``, never the public suite): chosen on seeds 9031-9033 (15,000 boards: 231 / 194 boards won only by it / only
#: by the rule; on the first 10,000 a first form of the near-best rule, scanning with a running best); confirmed on
#: seeds 9011-9014 (20,000 boards, declared beforehand): 8,191 wins against 8,152 (338 / 299, exact McNemar
#: p = 0.13), then seed 9015 (5,000 more): 1,935 against 1,908 (82 / 55, p = 0.03); on the 25,000, 10,126 against
#: 10,060 (420 / 354, p = 0.02), +0.26 points [0.05, 0.48] (paired bootstrap). CPU per expert game about 11 ms
#: against 10 (two busy cores). The share alone (with tiles admitted by it), seeds 9031 and 9032: 74 / 60.
FIFTY = 0.9
#: Most covered flank tiles, not certain mines, of a pair whose 50/50 share is counted: for a candidate's score, and
#: for a tile beyond the margin to be admitted as a candidate by its share (JSMinesweeper's 3 and 1).
FLANKS, FLANKS_ADMIT = 3, 1
#: Default most layouts for the exact endgame search (:mod:`~sweeper.running.endgame`; 0: never); was 200 (see
#: :func:`play_search`'s Notes: 5,000 won more, at about 11 ms instead of 4 ms per expert game).
LIMIT = 5_000
#: Default most sets of layouts the endgame search may expand before it gives up (then the look-ahead guesses);
#: was 20,000, raised with :data:`LIMIT`.
NODES = 1_000_000


@njit(cache=True)
def _next_value(hyp, tiles, p2, c, blend):
    """What the view ``hyp`` (just analysed into ``p2``, tile ``c`` revealed in it) is worth to the next turn: 1 if a
    covered tile other than ``c`` has probability 0 or none is safe, else the safety of its best guess (with
    ``blend`` > 0, blended with the second best's: ``(1 - blend) s1 + blend s2``)."""
    low = 1.0
    low2 = 1.0
    for j in range(tiles.shape[0]):
        x = tiles[j]
        if x != c and hyp[x] == COVERED:
            if p2[x] < low:
                low2 = low
                low = p2[x]
            elif p2[x] < low2:
                low2 = p2[x]
    if low == 0.0 or low >= 1.0:
        return 1.0
    if low2 >= 1.0:
        return 1.0 - low
    return 1.0 - low - blend * (low2 - low)


@njit(cache=True)
def _value(view, hyp, tiles, off8, mines, budget, c, logz0, p2, lz, blend):
    """The look-ahead value of clicking covered tile ``c`` of ``view`` (``logz0``: the log count of the view's
    layouts), how many numbers ``c`` can show (1: a *dead* tile) and its expected clears (the expected count of
    other covered tiles of probability 0 once it is revealed); ``hyp`` is a copy of ``view``, left as it was."""
    nc = covered_neighbours(view, c, off8)
    total = 0.0
    clears = 0.0
    shows = 0
    for v in range(nc + 1):
        hyp[c] = v
        if analyse_counted(hyp, tiles, off8, mines, budget, p2, lz) == INCONSISTENT:
            continue
        shows += 1
        w = math.exp(lz[0] - logz0)
        total += w * _next_value(hyp, tiles, p2, c, blend)
        z = 0
        for j in range(tiles.shape[0]):
            x = tiles[j]
            if x != c and hyp[x] == COVERED and p2[x] == 0.0:
                z += 1
        clears += w * z
    hyp[c] = COVERED
    return total, shows, clears


@njit(cache=True)
def _free(view, x, off8):
    """No revealed number touches tile ``x``."""
    for k in range(8):
        if view[x + off8[k]] <= 8:
            return False
    return True


@njit(cache=True)
def _as_mine(hyp, x, off8, sign):
    """With ``sign`` 1, covered tile ``x`` of ``hyp`` becomes a known mine (off the board, each revealed neighbour
    counting one mine less); with -1 it is covered again. Whether no number went below 0."""
    hyp[x] = OUT if sign > 0 else COVERED
    ok = True
    for k in range(8):
        q = x + off8[k]
        if hyp[q] <= 8:
            hyp[q] -= sign
            ok = ok and hyp[q] >= 0
    return ok


@njit(cache=True)
def pair_share(view, tiles, off8, mines, budget, prob, c, d, most, logz0, scratch):
    """The chance that the orthogonal neighbours ``c`` and ``d`` are a 2-tile 50/50 with the mine on ``c``: every
    *flank* tile (next to one of them only) a mine, ``c`` a mine, ``d`` safe; then no click but theirs tells them
    apart. 0 unless ``d`` is covered, neither is a certain mine, every flank tile is covered or off the board and at
    most ``most`` of them are not certain mines. ``scratch`` is (``hyp``, a copy of ``view``, left as it was; ``p2``
    and ``lz``, for the analysis; ``known``, the shares of pairs no revealed number touches, nor their flanks, by their
    count of covered flanks: such tiles are interchangeable)."""
    hyp, p2, lz, known = scratch
    if view[d] != COVERED or prob[c] >= 1.0 or prob[d] >= 1.0:
        return 0.0
    flank = np.empty(6, np.int64)
    nf = miss = 0
    free = _free(view, c, off8) and _free(view, d, off8)
    for a, b in ((c, d), (d, c)):
        for k in range(8):
            q = a + off8[k]
            if q == b or _adjacent(q, b, off8) or view[q] == OUT:
                continue
            if view[q] != COVERED:
                return 0.0  # a revealed flank tile tells c from d
            flank[nf] = q
            nf += 1
            if prob[q] < 1.0:
                miss += 1
            free = free and _free(view, q, off8)
    if miss > most or miss + 1 > mines:
        return 0.0
    if free and not np.isnan(known[miss]):
        return known[miss]
    ok = _as_mine(hyp, c, off8, 1)
    for i in range(nf):
        ok = _as_mine(hyp, flank[i], off8, 1) and ok
    r = 0.0
    if ok and analyse_counted(hyp, tiles, off8, mines - nf - 1, budget, p2, lz) != INCONSISTENT:
        r = math.exp(lz[0] - logz0) * (1.0 - p2[d])
    for i in range(nf):
        _as_mine(hyp, flank[i], off8, -1)
    _as_mine(hyp, c, off8, -1)
    if free:
        known[miss] = r
    return r


@njit(cache=True)
def fifty_share(view, tiles, off8, mines, budget, prob, c, most, logz0, scratch):
    """Covered tile ``c``'s 50/50 share: the sum of :func:`pair_share` over its four orthogonal neighbours, capped at
    ``min(P, 1 - P)`` of ``c``."""
    w = 0
    for k in range(8):
        w = max(w, off8[k] - 1)  # the padded row's length
    tot = 0.0
    for d in (c - 1, c + 1, c - w, c + w):
        tot += pair_share(view, tiles, off8, mines, budget, prob, c, d, most, logz0, scratch)
    return min(tot, prob[c], 1.0 - prob[c])


@njit(cache=True)
def guess_values(view, tiles, prob, off8, mines, budget, margin, logz0, blend):
    """The candidates of a guess in row-major order (covered tiles of probability below 1 whose probability, less
    their 50/50 share of at most :data:`FLANKS_ADMIT` uncertain flanks, is within ``margin`` of the lowest), their
    scores (see the module's text), whether each is *alive* (can show more than one number, so that clicking it may
    tell something besides its own safety) and their expected clears."""
    low = np.inf
    for j in range(tiles.shape[0]):
        x = tiles[j]
        if view[x] == COVERED and prob[x] < low:
            low = prob[x]
    hyp = view.copy()
    p2 = np.empty(view.shape[0])
    lz = np.zeros(1)
    scratch = (hyp, p2, lz, np.full(8, np.nan))  # the last: pair shares of interchangeable tiles
    cand = np.empty(tiles.shape[0], np.int64)
    share = np.empty(tiles.shape[0])
    m = 0
    for j in range(tiles.shape[0]):
        x = tiles[j]
        if view[x] != COVERED or prob[x] >= 1.0:
            continue
        if prob[x] > low + margin + TIE:
            admit = fifty_share(view, tiles, off8, mines, budget, prob, x, FLANKS_ADMIT, logz0, scratch)
            if prob[x] - admit > low + margin + TIE:
                continue
        cand[m] = x
        share[m] = fifty_share(view, tiles, off8, mines, budget, prob, x, FLANKS, logz0, scratch)
        m += 1
    val = np.empty(m)
    alive = np.empty(m, np.bool_)
    clears = np.empty(m)
    known_v = np.full(9, np.nan)  # interchangeable tiles' values, shows, clears by their covered neighbours
    known_s = np.zeros(9, np.int64)
    known_c = np.zeros(9)
    for i in range(m):
        c = cand[i]
        same = interchangeable(view, c, off8)
        nc = covered_neighbours(view, c, off8)
        if same and not np.isnan(known_v[nc]):
            v, shows, cl = known_v[nc], known_s[nc], known_c[nc]
        else:
            v, shows, cl = _value(view, hyp, tiles, off8, mines, budget, c, logz0, p2, lz, blend)
            if same:
                known_v[nc], known_s[nc], known_c[nc] = v, shows, cl
        val[i], alive[i], clears[i] = v * (1.0 + FIFTY * share[i] / (1.0 - prob[c])), shows > 1, cl
    return cand[:m], val, alive, clears


@njit(cache=True)
def search_tile(view, tiles, prob, off8, mines, budget, margin, logz0, blend):
    """The searching solver's guess: among the live candidates if there is one (a dead tile's click can wait: see
    :func:`play_search`), of those within :data:`NEAR` of the best score the one of most expected clears (within
    ``1e-9``), then of the higher score, then of the lower probability, then of the fewest covered neighbours, then
    the first in row-major order (ties within ``TIE``)."""
    cand, val, alive, clears = guess_values(view, tiles, prob, off8, mines, budget, margin, logz0, blend)
    eligible = alive if alive.any() else np.ones(cand.shape[0], np.bool_)
    top = val[eligible].max()
    pick = -1
    for i in range(cand.shape[0]):
        if not eligible[i] or val[i] < top - NEAR:
            continue
        if pick < 0 or clears[i] > clears[pick] + 1e-9:
            pick = i
            continue
        if clears[i] < clears[pick] - 1e-9:
            continue
        c, q = cand[i], cand[pick]
        if val[i] > val[pick] + TIE:
            pick = i
        elif val[i] >= val[pick] - TIE:
            if prob[c] < prob[q] - TIE or (prob[c] <= prob[q] + TIE and
                                           covered_neighbours(view, c, off8) < covered_neighbours(view, q, off8)):
                pick = i
    return cand[pick]


@njit(cache=True)
def _adjacent(a, b, off8):
    for k in range(8):
        if b - a == off8[k]:
            return True
    return False


@njit(cache=True)
def _unavoidable(view, prob, off8, w, group):
    """The covered neighbours of revealed tile ``w`` that are not certain mines, written into ``group``: their
    number if they hold an *unavoidable* guess (some but not all of them are mines, and every other tile next to one
    of them that is not a certain mine, revealed or covered, is next to all of them), else 0."""
    n = 0
    k = view[w]
    for a in range(8):
        q = w + off8[a]
        if view[q] == COVERED:
            if prob[q] >= 1.0:
                k -= 1
            else:
                group[n] = q
                n += 1
    if n < 2 or k <= 0 or k >= n:
        return 0
    for i in range(n):
        for a in range(8):
            q = group[i] + off8[a]
            if view[q] > COVERED or (view[q] == COVERED and prob[q] >= 1.0):
                continue  # off the board, or a certain mine
            inside = False
            for j in range(n):
                inside = inside or q == group[j]
            if inside:
                continue
            for j in range(n):
                if not _adjacent(q, group[j], off8):
                    return 0
    return n


@njit(cache=True)
def forced_tile(view, tiles, prob, off8, mines, budget, logz0, blend):
    """A tile of the first unavoidable guess (:func:`_unavoidable`, revealed tiles in row-major order), the one of
    highest look-ahead value (ties: the first in row-major order, as the endgame search breaks them), or -1 if there
    is none."""
    group = np.empty(8, np.int64)
    hyp = view.copy()
    p2 = np.empty(view.shape[0])
    lz = np.zeros(1)
    for j in range(tiles.shape[0]):
        w = tiles[j]
        if view[w] > 8:
            continue
        n = _unavoidable(view, prob, off8, w, group)
        if n == 0:
            continue
        members = np.sort(group[:n])
        pick, best = -1, -1.0
        for i in range(n):
            c = members[i]
            v, _, _ = _value(view, hyp, tiles, off8, mines, budget, c, logz0, p2, lz, blend)
            if pick < 0 or v > best + TIE:
                pick, best = c, v
        return pick
    return -1


@njit(cache=True)
def search_turn(view, tiles, off8, mines, budget, margin, blend, limit, nodes, prob, out):
    """One turn on the padded ``view``: writes into ``out`` the tiles to click (every covered tile of probability 0
    in row-major order, else the one guess: an unavoidable one first, then the endgame's, then the look-ahead's)
    and returns (their number, fallbacks, whether it is a guess);
    -1 tiles when the view is inconsistent."""
    lz = np.zeros(1)
    f = analyse_counted(view, tiles, off8, mines, budget, prob, lz)
    if f == INCONSISTENT:
        return -1, 0, False
    k = 0
    for j in range(tiles.shape[0]):
        x = tiles[j]
        if view[x] == COVERED and prob[x] == 0.0:
            out[k] = x
            k += 1
    if k > 0:
        return k, f, False
    pick = forced_tile(view, tiles, prob, off8, mines, budget, lz[0], blend)
    if pick >= 0:
        out[0] = pick
        return 1, f, True
    if limit > 0 and lz[0] <= math.log(limit) + 1e-9:
        pick, _ = endgame_tile(view, tiles, off8, mines, limit, nodes)
        if pick >= 0:
            out[0] = pick
            return 1, f, True
    out[0] = search_tile(view, tiles, prob, off8, mines, budget, margin, lz[0], blend)
    return 1, f, True


@njit(cache=True)
def _play_search(b, rng_b, budget, margin, blend, limit, nodes, layouts, won, dec, rev, gue):
    """Play ``won.shape[0]`` games (on ``layouts`` when it has rows, else dealt from ``rng_b``); fills the per-game
    arrays, returns the fallback count."""
    tiles, view, off8 = b.tiles, b.shown, b.off8
    K = b.geo[G_K]
    prob = np.empty(view.shape[0])
    out = np.empty(tiles.shape[0], np.int64)
    no_layout = layouts.reshape(layouts.size)[:0]
    fallbacks = 0
    for e in range(won.shape[0]):
        new_game(b, rng_b, layouts[e] if layouts.shape[0] > 0 else no_layout)
        while b.gs[ST] == ONGOING:
            k, f, guess = search_turn(view, tiles, off8, K, budget, margin, blend, limit, nodes, prob, out)
            if k < 0:
                raise RuntimeError("the searching solver found a real board's view inconsistent")
            fallbacks += f
            for i in range(k):
                if b.gs[ST] == ONGOING and view[out[i]] == COVERED:
                    dec[e] += 1
                    click(b, out[i])
            gue[e] += guess
        won[e] = b.gs[ST] == WON
        rev[e] = b.gs[REV]
    return fallbacks


# ------------------------------------------------------------- Python face --

def _fraction(x, name: str) -> float:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, float, np.integer, np.floating)) \
            or not 0.0 <= float(x) <= 1.0:
        raise ValueError(f"{name} must be a number in [0, 1], got {x!r}")
    return float(x)


def _checked(budget, margin, limit, nodes) -> tuple:
    """The rule's parameters, checked, in the kernels' order (budget, margin, :data:`BLEND`, limit, nodes)."""
    budget = check_budget(budget)
    margin = _fraction(margin, "margin")
    limit = whole(limit, "limit", 0)
    nodes = whole(nodes, "nodes", 1)
    if limit == 0 and nodes != NODES:
        raise ValueError("nodes bounds the endgame search, which limit=0 turns off: leave nodes at its default")
    return budget, margin, BLEND, limit, nodes


@with_openings
def play_search(board, episodes: int | None, seed: int = 0, opening: str = "reference", first=None, *,
                budget: int = NODE_BUDGET, margin: float = MARGIN, limit: int = LIMIT, nodes: int = NODES,
                layouts=None) -> dict:
    """Play ``episodes`` games with the searching solver (the one-step solver's turns, guesses by look-ahead).

    Parameters
    ----------
    board : str or Setting
        One board setting: ``"8x8x10"`` (rows x cols x mines), a preset name or a
        :class:`~sweeper.game.engine.Setting`.
    episodes : int or None
        Games, a non-negative integer; with ``layouts``, None or the number of layouts.
    seed : int, default 0
        The seed, in ``[0, 2**64)``: boards come from its board stream (unless ``layouts`` are given; the rule
        itself draws nothing, so the one-step solver of the same seed plays the same boards).
    opening : str, default "reference"
        The opening: {openings}.
    first : tuple of int, optional
        ``(row, col)`` of the first click for the {first_openings} openings.
    budget : int, default 1000000
        The exact analysis's budget, a positive integer (as :func:`~sweeper.running.players.play_solver`'s).
    margin : float, default 0.05
        Candidates of a guess: the covered tiles whose mine probability is at most ``margin`` above the lowest,
        a number in [0, 1] (0: only the safest tiles, ranked by their look-ahead value).
    limit : int, default 5000
        The exact endgame search (:mod:`~sweeper.running.endgame`) chooses the guess when the view has at most this
        many consistent layouts (0: never).
    nodes : int, default 1000000
        The most sets of layouts the endgame search may expand for one guess, a positive integer; beyond it the
        look-ahead chooses (refused with ``limit=0``, where it would have no effect).
    layouts : sequence of numpy.ndarray, optional
        The boards to play, one game each (as :func:`~sweeper.running.players.play_solver`'s).

    Returns
    -------
    dict
        Per-game arrays ``won``, ``decisions`` (clicks after the opening), ``revealed`` (fraction of safe tiles),
        ``guesses`` (turns that ended in a guess) and the totals ``fallbacks`` and ``seconds``, as
        :func:`~sweeper.running.players.play_solver` returns them.

    Raises
    ------
    ValueError
        If the board setting does not parse; ``episodes``, ``seed`` or ``budget`` is invalid; ``margin`` is not
        a number in [0, 1]; ``limit`` is not a non-negative integer or ``nodes`` not a positive one
        (or not its default with ``limit=0``); ``opening`` or ``first`` is invalid; or a layout does not fit the
        setting or the opening, or their number is not ``episodes``.
    KeyboardInterrupt
        On Ctrl-C, once the kernel call in progress returns (about a tenth of a second).

    Notes
    -----
    What was measured, always on fresh expert boards of the safe opening (``fresh_suite("expert", "safe", seed)``,
    seeds 9002 and 9005, 10,000 boards each, never the public suite), each variant beside the rule before it on the
    same boards (wins; boards only the variant won / only the rule won; exact McNemar p):

    * kept, the unavoidable guess first and live tiles before dead ones (together, as in this module): seed 9002
      4,143 against 4,132 (18 / 7), seed 9005 3,974 against 3,966 (23 / 15); on the 20,000, 41 / 22, p = 0.02. Apart,
      on seed 9002: the unavoidable guess alone 4,139 (9 / 2), dead tiles alone 4,136 (9 / 5).
    * kept, the larger endgame search (``limit`` 5,000 and ``nodes`` 1,000,000, from 200 and 20,000), on top of the
      above: seed 9002 4,148 against 4,143 (32 / 27), seed 9005 3,995 against 3,974 (49 / 28); on the 20,000, 81 /
      55, p = 0.03. Alone on seed 9002, before: 4,143 against 4,132 (37 / 26); ``limit`` 1,000 (``nodes`` 200,000):
      4,133 (23 / 22). CPU per expert game about 11 ms instead of 4.
    * the rule with these changes against the rule before them: 8,143 against 8,098 of the 20,000 boards
      (116 / 71, p = 0.001), +0.22 points [0.09, 0.36] (paired bootstrap).
    * kept, on top of all that (other seeds: see :data:`FIFTY`): the 50/50 share in the score (a tile admitted by
      it) and the most expected clears near the best score (:data:`NEAR`).
    * dropped (seed 9002, against the rule before): ``margin`` 0.10: 4,140 against 4,132 (71 / 63, p = 0.55) at 22 ms
      per game; ``margin`` 0.02: 4,102 (105 / 135, p = 0.06); a third step of look-ahead for the three best
      candidates (``next`` in a view without progress the best look-ahead value there): 4,144 (240 / 228, p = 0.61)
      at 21 ms per game; a safer tile that is safe whenever the guess is (JSMinesweeper's "dominating" tile):
      never found among 1,087 guesses of 300 games, so not kept.
    """
    Setting.parse(board)
    budget, margin, blend, limit, nodes = _checked(budget, margin, limit, nodes)
    return drive(board, episodes, seed, opening, first, layouts,
                 lambda b, rng, lay, won, dec, rev, gue: _play_search(b, rng.boards, budget, margin, blend, limit,
                                                                      nodes, lay, won, dec, rev, gue))


# ------------------------------------------------------ the environment's path --

class SearchPolicy(SolverPolicy):
    """The searching solver of :func:`play_search` as a policy ``obs -> action`` of
    :class:`~sweeper.running.env.MinesweeperEnv` (an environment without flags): it plays the kernel's turns click
    for click, as :class:`~sweeper.running.policies.SolverPolicy` plays the one-step solver's. A turn is
    :func:`search_turn` on the observation (every covered tile of probability 0 in row-major order, else the one
    guess); the policy keeps the turn's tiles not clicked yet and clicks the next one still covered (a tile a
    cascade revealed meanwhile is skipped, as the kernel skips it). The kept turn is dropped at :meth:`reset` and
    whenever an observation does not continue the last one. Fed the suite's layouts, it makes the clicks of
    ``play_search(..., layouts=...)`` with the same parameters."""

    def __init__(self, mines: int, setting: Setting | None = None, *, budget: int = NODE_BUDGET,
                 margin: float = MARGIN, limit: int = LIMIT, nodes: int = NODES):
        self.params = _checked(budget, margin, limit, nodes)
        super().__init__(mines, setting, budget=self.params[0])

    def _new_turn(self, view) -> list:
        padded, tiles, off8, mines, _ = prepared_view(view, self.mines, self.params[0])
        prob = np.full(padded.shape[0], np.nan)
        out = np.empty(tiles.shape[0], np.int64)
        k, _, _ = search_turn(padded, tiles, off8, mines, *self.params, prob, out)
        if k < 0:
            raise ValueError(f"no layout of {mines} mines is consistent with this observation")
        cols = view.shape[1]
        return [int((p // (cols + 2) - 1) * cols + p % (cols + 2) - 1) for p in out[:k]]

    def _view(self, obs) -> np.ndarray:
        view = np.asarray(obs)
        if view.ndim != 2 or not np.issubdtype(view.dtype, np.integer) or ((view < 0) | (view > COVERED)).any():
            raise ValueError(f"an observation of the searching solver is a 2-D array of cell codes 0-8 and "
                             f"{COVERED} (covered; no flags, no exploded tile)")
        if self.setting is not None and view.shape != (self.setting.rows, self.setting.cols):
            raise ValueError(f"observation shape {view.shape} does not match the board {self.setting}")
        if not (view == COVERED).any():
            raise ValueError("no covered tile to click")
        return view


def search_policy(mines, **params) -> SearchPolicy:
    """``obs -> action`` playing the turns of :func:`play_search` click for click (see :class:`SearchPolicy`);
    ``mines`` is the mine count or the environment (then observations of another shape are refused); ``params``
    are :func:`play_search`'s ``budget``, ``margin``, ``limit`` and ``nodes``."""
    setting = None
    if not isinstance(mines, (int, np.integer)):
        setting = mines.unwrapped.setting
        mines = setting.mines
    return SearchPolicy(mines, setting, **params)
