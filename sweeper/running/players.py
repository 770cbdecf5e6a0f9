"""The ceiling and the floor: the solver and the random player.

*Solver* (the ceiling, :func:`play_solver`): at each turn it computes the exact probabilities
(:mod:`sweeper.game.probability`), then clicks every covered tile of probability 0; if there is none it guesses,
by default the covered tile of lowest probability (then the fewest covered neighbours), or with ``guess="pseq"``
by the guessing strategy Tu et al. published with their solver (:func:`pseq_choices`). It never places flags.
Its docstring states both rules in full. *Random* (the floor, :func:`play_random`): clicks a uniformly random
covered tile (``below`` on the seed's agent stream), a guess when its probability is not 0.

Both play boards dealt by the engine's own kernels (:func:`~sweeper.game.engine.new_game`
on the seed's board stream, :func:`~sweeper.game.engine.click` for every move), so
one seed gives the solver and the random player the same boards.

The games are played in kernel calls of about a tenth of a second each (:data:`~sweeper.agents.custom.
POLL_SECONDS`, as a plug-in rule's kernel asks about Ctrl-C), the streams carrying on from call to call, so the
games are those of one call; Ctrl-C stops the run with ``KeyboardInterrupt`` once the call in progress returns.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pandas as pd
from numba import njit

from ..game.engine import (G_C, G_K, G_R, ONGOING, REV, ST, WON, Setting, check_layout, click, new_board, new_game,
                           with_openings)
from ..game.grid import COVERED, FLAG
from ..game.probability import INCONSISTENT, NODE_BUDGET, analyse, analyse_counted, check_budget, prepared_view
from ..rng import below, check_seed, streams
from ..agents.custom import POLL_SECONDS
from .training import InterruptBetweenCalls, check_episodes, next_chunk

#: Probabilities closer than this count as equal for the tie-break.
TIE = 1e-12
#: PSEQ's relative tolerance: values within this share of the best count as equal.
PSEQ_TOL = 1e-8
#: The guessing strategies of :func:`play_solver`.
GUESSES = ("fewest", "pseq")


@njit(cache=True)
def covered_neighbours(view, x, off8):
    """How many of tile ``x``'s 8 neighbours are covered (the solver's tie-break counts them)."""
    c = 0
    for k in range(8):
        if view[x + off8[k]] == COVERED:
            c += 1
    return c


@njit(cache=True)
def lowest_tile(view, tiles, prob, off8):
    """The covered tile the tie-break picks among the lowest probabilities."""
    best = np.inf
    for j in range(tiles.shape[0]):
        p = tiles[j]
        if view[p] == COVERED and prob[p] < best:
            best = prob[p]
    pick = -1
    fewest = 9
    for j in range(tiles.shape[0]):
        p = tiles[j]
        if view[p] == COVERED and prob[p] <= best + TIE:
            c = covered_neighbours(view, p, off8)
            if c < fewest:
                fewest = c
                pick = p
    return pick


@njit(cache=True)
def _largest(vals, keep, m):
    """PSEQ's filter over list positions ``0..m-1`` still in ``keep``: keep those within a relative
    :data:`PSEQ_TOL` of the highest value (at least ``1e-12``)."""
    mx = -np.inf
    for i in range(m):
        if keep[i] and vals[i] > mx:
            mx = vals[i]
    lim = mx - max(abs(mx) * PSEQ_TOL, 1e-12)
    for i in range(m):
        if keep[i]:
            keep[i] = vals[i] >= lim


@njit(cache=True)
def _numbers_near(view, x, off8):
    """Whether covered tile ``x`` touches a revealed number."""
    for k in range(8):
        if view[x + off8[k]] <= 8:
            return True
    return False


@njit(cache=True)
def interchangeable(view, x, off8):
    """No revealed number touches ``x`` or any of its covered neighbours."""
    if _numbers_near(view, x, off8):
        return False
    for k in range(8):
        q = x + off8[k]
        if view[q] == COVERED and _numbers_near(view, q, off8):
            return False
    return True


@njit(cache=True)
def _reveal_outcomes(view, hyp, tiles, off8, mines, budget, b, p2, lz, out):
    """PSEQ's S and E (before the factor ``1 - P``) and Q of tile ``b`` into ``out``: for every number
    ``b`` could show, the view is analysed with ``b`` revealed as that number."""
    nc = covered_neighbours(view, b, off8)
    logw = np.full(9, -np.inf)
    safe = np.zeros(9)
    for w in range(nc + 1):
        hyp[b] = w
        if analyse_counted(hyp, tiles, off8, mines, budget, p2, lz) == INCONSISTENT:
            continue
        logw[w] = lz[0]
        for j in range(tiles.shape[0]):
            x = tiles[j]
            if hyp[x] == COVERED and p2[x] == 0.0:
                safe[w] += 1
    hyp[b] = COVERED
    top = logw.max()
    tot = 0.0
    for w in range(9):
        tot += math.exp(logw[w] - top)
    s = 0.0
    e = 0.0
    h = 0.0
    for w in range(9):
        r = math.exp(logw[w] - top) / tot
        if r > 0.0:
            s += r if safe[w] > 0 else 0.0
            e += r * safe[w]
            h -= r * math.log2(r)
    out[0], out[1], out[2] = s, e, h + (top + math.log(tot)) / math.log(2.0)


@njit(cache=True)
def pseq_choices(view, tiles, prob, off8, rows, cols, mines, budget):
    """The tiles PSEQ would pick from (the rule: :func:`play_solver`), given the view's probabilities ``prob``:
    (candidates in list order, which survive every criterion, their scores P, S, E, Q by row)."""
    cand = np.empty(tiles.shape[0], np.int64)
    m = 0
    for c in range(cols):  # the published code lists tiles column by column
        for r in range(rows):
            x = tiles[r * cols + c]
            if view[x] == COVERED and prob[x] < 1.0:
                cand[m] = x
                m += 1
    keep = np.ones(m, np.bool_)
    score = np.full((4, m), np.nan)
    for i in range(m):
        score[0, i] = -prob[cand[i]]
    _largest(score[0], keep, m)
    hyp = view.copy()
    p2 = np.empty(view.shape[0])
    lz = np.zeros(1)
    out = np.zeros(3)
    known = np.full((9, 3), np.nan)  # interchangeable tiles, by their count of covered neighbours
    for i in range(m):
        if not keep[i]:
            continue
        b = cand[i]
        nc = covered_neighbours(view, b, off8)
        same = interchangeable(view, b, off8)
        if same and not np.isnan(known[nc, 0]):
            out[:] = known[nc]
        else:
            _reveal_outcomes(view, hyp, tiles, off8, mines, budget, b, p2, lz, out)
            if same:
                known[nc] = out
        safe = 1.0 - prob[b]
        score[1, i], score[2, i], score[3, i] = out[0] * safe, out[1] * safe, out[2]
    for k in range(1, 4):
        _largest(score[k], keep, m)
    score[0] = -score[0]
    return cand[:m], keep, score


@njit(cache=True)
def pseq_tile(view, tiles, prob, off8, rows, cols, mines, budget, rng):
    """The covered tile PSEQ guesses: uniformly at random among :func:`pseq_choices`' survivors."""
    cand, keep, _ = pseq_choices(view, tiles, prob, off8, rows, cols, mines, budget)
    m = cand.shape[0]
    left = 0
    for i in range(m):
        left += keep[i]
    pick = 0 if left == 1 else below(rng, left)
    for i in range(m):
        if keep[i]:
            if pick == 0:
                return cand[i]
            pick -= 1
    return -1


@njit(cache=True)
def random_tile(view, tiles, rng):
    covered = 0
    for j in range(tiles.shape[0]):
        if view[tiles[j]] == COVERED:
            covered += 1
    k = below(rng, covered)
    for j in range(tiles.shape[0]):
        if view[tiles[j]] == COVERED:
            if k == 0:
                return tiles[j]
            k -= 1
    return -1


@njit(cache=True)
def _play(b, rng_b, rng_a, randomly, pseq, budget, layouts, won, dec, rev, gue):
    """Play ``won.shape[0]`` games (on ``layouts``, one per game, when it has rows; else dealt from ``rng_b``);
    fills the per-game arrays, returns the fallback count."""
    tiles, view, off8 = b.tiles, b.shown, b.off8
    n = tiles.shape[0]
    K = b.geo[G_K]
    R, C = b.geo[G_R], b.geo[G_C]
    prob = np.empty(view.shape[0])
    no_layout = layouts.reshape(layouts.size)[:0]
    fallbacks = 0
    for e in range(won.shape[0]):
        new_game(b, rng_b, layouts[e] if layouts.shape[0] > 0 else no_layout)
        while b.gs[ST] == ONGOING:
            f = analyse(view, tiles, off8, K, budget, prob)
            if f == INCONSISTENT:
                raise RuntimeError("the solver found a real board's view inconsistent")
            fallbacks += f
            if randomly:
                x = random_tile(view, tiles, rng_a)
                gue[e] += prob[x] > 0.0
                dec[e] += 1
                click(b, x)
                continue
            safe = 0
            for j in range(n):
                x = tiles[j]
                if b.gs[ST] == ONGOING and view[x] == COVERED and prob[x] == 0.0:
                    safe += 1
                    click(b, x)
            dec[e] += safe
            if safe == 0:
                dec[e] += 1
                gue[e] += 1
                if pseq:
                    click(b, pseq_tile(view, tiles, prob, off8, R, C, K, budget, rng_a))
                else:
                    click(b, lowest_tile(view, tiles, prob, off8))
        won[e] = b.gs[ST] == WON
        rev[e] = b.gs[REV]
    return fallbacks


# ------------------------------------------------------------- Python face --



def drive(board, episodes, seed, opening, first, layouts, kernel) -> dict:
    """The one driver of the players' kernels: checks the games (``episodes``, or the ``layouts`` to play, one game
    each) and the seed, then plays them in calls of about :data:`POLL_SECONDS` each, so that Ctrl-C (noted
    meanwhile) is acted on within a call; the streams carry on from call to call, so the games are those of one call.
    ``kernel(board, rng, layouts, won, decisions, revealed, guesses)`` plays the games of one call (``rng``: the
    seed's :func:`~sweeper.rng.streams`) and returns its fallbacks. Returns the per-game arrays and the totals."""
    setting = Setting.parse(board)
    if layouts is None:
        episodes = check_episodes(episodes)
        lay = np.zeros((0, setting.tiles), np.uint8)
    else:
        if episodes is not None and check_episodes(episodes) != len(layouts):
            raise ValueError(f"episodes ({episodes:,}) must be the number of layouts given ({len(layouts):,}), "
                             "or None")
        episodes = len(layouts)
        lay = np.stack([check_layout(m, setting, opening, first) for m in layouts]) if episodes else \
            np.zeros((0, setting.tiles), np.uint8)
    seed = check_seed(seed)
    b = new_board(setting, opening, first)
    won = np.zeros(episodes, np.bool_)
    dec = np.zeros(episodes, np.int64)
    rev = np.zeros(episodes, np.int64)
    gue = np.zeros(episodes, np.int64)
    t0 = time.perf_counter()
    rng = streams(seed)
    interrupt = InterruptBetweenCalls()
    fallbacks = start = 0
    size = 1
    try:
        while start < episodes:
            count = min(size, episodes - start)
            t_call = time.perf_counter()
            part = slice(start, start + count)
            fallbacks += kernel(b, rng, lay[part] if lay.shape[0] else lay, won[part], dec[part], rev[part],
                                gue[part])
            start += count
            size = next_chunk(count, time.perf_counter() - t_call, POLL_SECONDS)
            if interrupt.hit:
                raise KeyboardInterrupt(f"stopped after {start:,} of {episodes:,} games")
    finally:
        interrupt.restore()
    seconds = time.perf_counter() - t0
    return {"won": won, "decisions": dec, "revealed": rev / (setting.tiles - setting.mines), "guesses": gue,
            "fallbacks": int(fallbacks), "seconds": seconds}


def _run(randomly: bool, board, episodes, seed, opening, first, budget, guess="fewest", layouts=None) -> dict:
    if guess not in GUESSES:
        raise ValueError(f"guess must be one of {', '.join(GUESSES)}, got {guess!r}")
    Setting.parse(board)
    check_seed(seed)
    budget = check_budget(budget)
    pseq = guess == "pseq"
    return drive(board, episodes, seed, opening, first, layouts,
                 lambda b, rng, lay, won, dec, rev, gue: _play(b, rng.boards, rng.agent, randomly, pseq, budget, lay,
                                                               won, dec, rev, gue))


@with_openings
def play_solver(board, episodes: int | None, seed: int = 0, opening: str = "reference", first=None, *,
                budget: int = NODE_BUDGET, guess: str = "fewest", layouts=None) -> dict:
    """Play ``episodes`` games with the solver (the ceiling).

    Parameters
    ----------
    board : str or Setting
        One board setting: ``"8x8x10"`` (rows x cols x mines), a preset name or a
        :class:`~sweeper.game.engine.Setting`.
    episodes : int or None
        Games, a non-negative integer; with ``layouts``, None or the number of layouts.
    seed : int, default 0
        The seed, in ``[0, 2**64)``: boards come from its board stream (unless ``layouts`` are given), PSEQ's
        random picks from its agent stream (the random player of the same seed plays the same boards).
    opening : str, default "reference"
        The opening: {openings}.
    first : tuple of int, optional
        ``(row, col)`` of the first click for the {first_openings} openings.
    budget : int, default 1000000
        The exact solver's budget, a positive integer: a group of tiles whose enumeration assigns more box
        values than this is abandoned (its tiles get the unconstrained probability) and counted in
        ``fallbacks`` (see :mod:`sweeper.game.probability`).
    guess : str, default "fewest"
        How it guesses: ``"fewest"`` (lowest probability, then fewest covered neighbours) or ``"pseq"``
        (the published PSEQ strategy).
    layouts : sequence of numpy.ndarray, optional
        The boards to play, one game each: 2-D boolean mine layouts of the setting that agree with the opening
        (a benchmark suite's, :mod:`sweeper.running.benchmark`).

    Returns
    -------
    dict
        Per-game arrays ``won`` (bool), ``decisions`` (clicks after the opening), ``revealed`` (fraction of
        safe tiles), ``guesses`` (clicks on a tile of probability > 0) and the totals ``fallbacks`` (groups
        over the budget, an int) and ``seconds`` (a float).

    Raises
    ------
    ValueError
        If ``guess`` is not ``"fewest"`` or ``"pseq"``; the board setting does not parse or cannot hold its
        mines; ``episodes`` is not a non-negative integer; ``seed`` is not an integer in ``[0, 2**64)``;
        ``budget`` is not a positive integer; ``opening`` or ``first`` is invalid; or a layout does not fit the
        setting or the opening, or their number is not ``episodes``.

    Notes
    -----
    The solver. At each turn it computes the probabilities, then clicks every covered tile of probability 0 in
    row-major order (skipping those a previous click of the same turn already revealed). If there is none it
    clicks the covered tile of lowest probability, which is a *guess*. Ties: tiles within :data:`TIE` of the
    lowest probability are equal; among them the one with the fewest covered neighbours wins (on an open board a
    corner before an edge before the interior: a 0 and its flood fill are likelier there), then the first in
    row-major order. It never places flags. (Measured on 2,000 paired games per setting, this tie-break won 0.2-2.3
    points more than row-major order alone.)

    The solver with PSEQ (``guess="pseq"``): the same, except for how it guesses. It follows the guessing strategy
    Tu et al. published with their solver (named PSEQ, for its four criteria P, S, E, Q), as their code computes
    it, applied in turn to the covered tiles listed column by column: **P**, keep the tiles of lowest mine
    probability; **S**, then those most likely to make at least one other tile certainly safe: ``(1 - P) *
    Pr(some covered tile gets probability 0 | the tile is safe)``, the number the tile would show being drawn from
    the consistent layouts; **E**, then those that make the most tiles certainly safe on average: ``(1 - P) *
    E[tiles of probability 0 | the tile is safe]``; **Q**, then those whose number is least predictable: the
    entropy (bits) of the number the tile would show, given it is safe, plus ``log2`` of the count of layouts in
    which it is safe (the published code divides both by that count; among tiles tied on P the count is the same,
    so only the entropy decides); then it clicks one of the tiles left uniformly at random (``below`` on the seed's
    agent stream). Each criterion keeps every tile within a relative ``1e-8`` of the highest value (at least
    ``1e-12``, so that rounding cannot split a tie at 0). (The published code's filter also drops the tiles listed
    before the first highest value, even within the tolerance: which of two mathematically tied tiles survives
    then depends on rounding in the last bit. We keep both.) The numbers a tile could show are weighed exactly:
    for each one the exact analysis is rerun with the tile revealed, and the count of layouts it returns
    (:func:`~sweeper.game.probability.analyse_counted`) is that number's weight; tiles with no number in reach
    whose covered neighbours have none either are interchangeable, so they are computed once per count of covered
    neighbours. Two quirks of the published code are not copied: its count of "tiles made safe" can include the
    tile itself and can read an outside part's size from the wrong set; their measured effect on its win rate is
    below one standard error of 10^6 games.
    """
    return _run(False, board, episodes, seed, opening, first, budget, guess, layouts)


def play_random(board, episodes: int | None, seed: int = 0, opening: str = "reference", first=None, *,
                budget: int = NODE_BUDGET, layouts=None) -> dict:
    """Play ``episodes`` games clicking uniformly random covered tiles (the floor);
    same boards, arguments and record as :func:`play_solver` (probabilities are computed to count guesses)."""
    return _run(True, board, episodes, seed, opening, first, budget, layouts=layouts)


def pseq_scores(view2d, mines, *, budget: int = NODE_BUDGET) -> pd.DataFrame:
    """Where PSEQ would guess on ``view2d`` (cell codes as in :func:`~sweeper.game.probability.mine_probabilities`;
    flags are read as covered tiles): one row per covered tile in PSEQ's order (column by column) with its
    ``row``, ``col``, mine probability ``P``, the scores ``S``, ``E`` and ``Q`` (NaN where the tile was
    already out after P), and ``kept``: whether it survives all four criteria (PSEQ clicks one of those
    uniformly at random). Tiles sure to be mines are left out."""
    view = np.asarray(view2d)
    padded, tiles, off8, mines, budget = prepared_view(view, mines, budget)
    padded[padded == FLAG] = COVERED
    prob = np.full(padded.shape[0], np.nan)
    if analyse(padded, tiles, off8, mines, budget, prob) == INCONSISTENT:
        raise ValueError(f"no layout of {mines} mines is consistent with this view")
    rows, cols = view.shape
    cand, keep, score = pseq_choices(padded, tiles, prob, off8, rows, cols, mines, budget)
    r, c = np.divmod(cand, cols + 2)
    return pd.DataFrame({"row": r - 1, "col": c - 1, "P": score[0], "S": score[1], "E": score[2],
                         "Q": score[3], "kept": keep})
