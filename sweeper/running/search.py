"""The searching solver: the exact solver's probabilities, and guesses chosen by what a click is expected to bring.

The one-step solver (:func:`~sweeper.running.players.play_solver`) guesses the safest covered tile. The searching
solver (:func:`play_search`) plays the same turns (the exact probabilities of :func:`~sweeper.game.probability.analyse`,
then every covered tile of probability 0 clicked in row-major order) and differs only in its guess, in this order:

1. An *unavoidable* guess first (:func:`forced_tile`): the covered neighbours of a revealed number, some but not all of
   them mines, that no other click can ever tell apart; they must be guessed anyway, and sooner tells more.
2. At most ``limit`` consistent layouts: the exact endgame search's guess
   (:func:`~sweeper.running.endgame.endgame_tile`: the highest chance of winning under the best play), unless the
   search exceeds its budget.
3. Else among the *candidates*, the covered tiles whose mine probability is within ``margin`` of the lowest, the one of
   highest *look-ahead value* (:func:`guess_values`), a *live* one if any (a *dead* tile, which can show only one
   number, tells nothing but its own safety, and its click can wait):

    value(c) = sum over the numbers v that c can show of Pr(c is safe and shows v) x next(view with c = v)

where ``next`` is 1 if the view with ``c`` revealed as ``v`` has some covered tile of probability 0 (a *progress*) or
no safe tile left, else the safety ``1 - min P`` of its best guess (:data:`BLEND`: JSMinesweeper's blend with the
second best's measured no better). Each ``Pr(c is safe and shows v)`` is exact: the count of layouts of the view with
``c`` revealed as ``v`` (:func:`~sweeper.game.probability.analyse_counted`) over the view's. So the value is the chance
of surviving this guess and, where it brings no certain tile, the next one too. Ties (within
:data:`~sweeper.running.players.TIE`): the lower probability, then the fewest covered neighbours, then row-major.
Tiles that no revealed number touches, nor their covered neighbours, are interchangeable up to their count of covered
neighbours: one of each count is analysed. Nothing is drawn at random. What each part measured: :func:`play_search`.

Games are played by the engine's kernels (:func:`~sweeper.game.engine.new_game`, :func:`~sweeper.game.engine.click`)
in calls of about a tenth of a second; Ctrl-C stops the run with ``KeyboardInterrupt`` once the call in progress
returns. :class:`SearchPolicy` plays the same turns in :class:`~sweeper.running.env.MinesweeperEnv`, click for click.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..checks import whole
from ..game.engine import G_K, ONGOING, REV, ST, WON, Setting, click, new_game, with_openings
from ..game.grid import COVERED
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
    layouts), and how many numbers ``c`` can show (1: a *dead* tile); ``hyp`` is a copy of ``view``, left as it
    was."""
    nc = covered_neighbours(view, c, off8)
    total = 0.0
    shows = 0
    for v in range(nc + 1):
        hyp[c] = v
        if analyse_counted(hyp, tiles, off8, mines, budget, p2, lz) == INCONSISTENT:
            continue
        shows += 1
        total += math.exp(lz[0] - logz0) * _next_value(hyp, tiles, p2, c, blend)
    hyp[c] = COVERED
    return total, shows


@njit(cache=True)
def guess_values(view, tiles, prob, off8, mines, budget, margin, logz0, blend):
    """The candidates of a guess (covered tiles of probability below 1 and within ``margin`` of the lowest, in
    row-major order), their look-ahead values (see the module's text) and whether each is *alive* (can show more
    than one number, so that clicking it may tell something besides its own safety)."""
    low = np.inf
    for j in range(tiles.shape[0]):
        x = tiles[j]
        if view[x] == COVERED and prob[x] < low:
            low = prob[x]
    cand = np.empty(tiles.shape[0], np.int64)
    m = 0
    for j in range(tiles.shape[0]):
        x = tiles[j]
        if view[x] == COVERED and prob[x] < 1.0 and prob[x] <= low + margin + TIE:
            cand[m] = x
            m += 1
    val = np.empty(m)
    alive = np.empty(m, np.bool_)
    hyp = view.copy()
    p2 = np.empty(view.shape[0])
    lz = np.zeros(1)
    known = np.full(9, np.nan)  # interchangeable tiles' values, by their count of covered neighbours
    known_alive = np.zeros(9, np.bool_)
    for i in range(m):
        c = cand[i]
        same = interchangeable(view, c, off8)
        nc = covered_neighbours(view, c, off8)
        if same and not np.isnan(known[nc]):
            val[i], alive[i] = known[nc], known_alive[nc]
            continue
        val[i], shows = _value(view, hyp, tiles, off8, mines, budget, c, logz0, p2, lz, blend)
        alive[i] = shows > 1
        if same:
            known[nc], known_alive[nc] = val[i], alive[i]
    return cand[:m], val, alive


@njit(cache=True)
def search_tile(view, tiles, prob, off8, mines, budget, margin, logz0, blend):
    """The searching solver's guess: the candidate of highest look-ahead value, among the live candidates if there
    is one (a dead tile's click can wait: see :func:`play_search`); ties (within ``TIE``) to the lower probability,
    then the fewest covered neighbours, then row-major order."""
    cand, val, alive = guess_values(view, tiles, prob, off8, mines, budget, margin, logz0, blend)
    any_alive = alive.any()
    pick = -1
    best = 0.0
    for i in range(cand.shape[0]):
        c = cand[i]
        if any_alive and not alive[i]:
            continue
        if pick < 0:
            pick, best = i, val[i]
            continue
        if val[i] > best + TIE:
            pick, best = i, val[i]
        elif val[i] >= best - TIE:
            q = cand[pick]
            if prob[c] < prob[q] - TIE:
                pick, best = i, max(best, val[i])
            elif prob[c] <= prob[q] + TIE and \
                    covered_neighbours(view, c, off8) < covered_neighbours(view, q, off8):
                pick, best = i, max(best, val[i])
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
            v, _ = _value(view, hyp, tiles, off8, mines, budget, c, logz0, p2, lz, blend)
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
    * the rule of this module against the rule before these changes: 8,143 against 8,098 of the 20,000 boards
      (116 / 71, p = 0.001), +0.22 points [0.09, 0.36] (paired bootstrap).
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
