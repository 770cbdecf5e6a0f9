"""The solver's probabilities against brute force; the players' records, determinism, validation."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sweeper.game.grid import COVERED, FLAG
from sweeper.game.engine import Game
from sweeper.game.probability import mine_probabilities
from sweeper.running.players import play_random, play_solver

C, F = COVERED, FLAG


def neighbours(r, c, rows, cols):
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols:
                yield r + dr, c + dc


def brute_force(view, mines):
    """Exact probabilities over every placement of ``mines`` mines on the covered
    (or flagged) tiles that matches every revealed number; None if there is none."""
    view = np.asarray(view)
    rows, cols = view.shape
    covered = [(r, c) for r in range(rows) for c in range(cols) if view[r, c] in (C, F)]
    column = {t: i for i, t in enumerate(covered)}
    combos = list(itertools.combinations(range(len(covered)), mines))
    combos = np.array(combos, dtype=np.int64).reshape(len(combos), mines)
    layouts = np.zeros((len(combos), len(covered)), dtype=bool)
    layouts[np.arange(len(combos))[:, None], combos] = True
    ok = np.ones(len(combos), dtype=bool)
    for r in range(rows):
        for c in range(cols):
            if view[r, c] <= 8:
                cols_ = [column[t] for t in neighbours(r, c, rows, cols) if t in column]
                ok &= layouts[:, cols_].sum(axis=1) == view[r, c]
    good = layouts[ok]
    if len(good) == 0:
        return None
    out = np.full(view.shape, np.nan)
    for t, i in column.items():
        out[t] = float(Fraction(int(good[:, i].sum()), len(good)))
    return out


def assert_matches_brute_force(view, mines):
    expected = brute_force(view, mines)
    got = mine_probabilities(view, mines)
    assert got.dtype == np.float64 and got.shape == np.asarray(view).shape
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9)
    assert np.all(got[expected == 0] == 0.0)  # proven-safe tiles are exactly 0
    return got


POSITIONS = [
    # a lone 1: every neighbour 1/8
    ([[C, C, C], [C, 1, C], [C, C, C]], 1),
    # 1-2-1: the outer tiles are mines, the middle one is safe
    ([[1, 2, 1], [C, C, C]], 2),
    # a constrained group plus unconstrained tiles
    ([[1, C, C, C], [C, C, C, C], [C, C, C, C]], 3),
    # two independent groups and unconstrained tiles
    ([[0, 1, C, C, C], [1, 2, C, C, C], [C, C, C, C, C], [C, C, C, 2, C], [C, C, C, C, C]], 5),
    # a number whose region is all mines, next to one whose region is safe
    ([[0, 0, 1, C], [1, 1, 2, C], [C, C, C, C]], 2),
    # no unconstrained tiles left
    ([[1, 1, 1], [1, C, 1], [1, 1, 1]], 1),
    # nothing revealed: the plain density
    ([[C, C, C], [C, C, C]], 2),
    # flags are read as covered tiles, right or wrong
    ([[1, F, C], [C, F, C]], 2),
]


@pytest.mark.parametrize("view, mines", POSITIONS)
def test_hand_made_positions_match_brute_force(view, mines):
    assert_matches_brute_force(view, mines)


def test_one_two_one_is_solved():
    got = mine_probabilities([[1, 2, 1], [C, C, C]], 2)
    assert np.isnan(got[0]).all() and list(got[1]) == [1.0, 0.0, 1.0]


def test_revealed_board_is_all_nan():
    assert np.isnan(mine_probabilities([[0, 0], [0, 0]], 0)).all()


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 5), cols=st.integers(1, 5), mines=st.integers(0, 6), seed=st.integers(0, 10**6),
       first=st.integers(0, 24), clicks=st.lists(st.integers(0, 10**6), max_size=3),
       flags=st.lists(st.integers(0, 10**6), max_size=2))
def test_random_positions_match_brute_force(rows, cols, mines, seed, first, clicks, flags):
    mines = min(mines, rows * cols - 1)
    g = Game((rows, cols, mines), seed=seed, opening="safe", first=divmod(first % (rows * cols), cols))
    for pick in clicks:
        safe = np.argwhere((g.view == C) & ~g.mines)
        if g.status != "ongoing" or len(safe) == 0:
            break
        g.click(*(int(v) for v in safe[pick % len(safe)]))
    for pick in flags:
        covered = np.argwhere(g.view == C)
        if g.status == "ongoing" and len(covered):
            g.toggle_flag(*(int(v) for v in covered[pick % len(covered)]))
    got = assert_matches_brute_force(g.view, mines)
    assert np.nansum(got) == pytest.approx(mines)


def test_fallback_treats_the_group_as_unconstrained():
    view = [[1, 2, 1], [C, C, C]]
    got, fallbacks = mine_probabilities(view, 2, budget=1, return_fallbacks=True)
    assert fallbacks == 1
    np.testing.assert_allclose(got[1], [2 / 3] * 3)
    assert mine_probabilities(view, 2, return_fallbacks=True)[1] == 0


@pytest.mark.parametrize("player", [play_solver, play_random])
def test_same_seed_same_games(player):
    a = player("8x8x10", 60, seed=7, opening="safe")
    b = player("8x8x10", 60, seed=7, opening="safe")
    for key in ("won", "decisions", "revealed", "guesses"):
        assert a[key].shape == (60,)
        assert np.array_equal(a[key], b[key])
    assert a["fallbacks"] == b["fallbacks"]
    c = player("8x8x10", 60, seed=8, opening="safe")
    assert not np.array_equal(a["decisions"], c["decisions"])


def test_records_are_consistent():
    r = play_solver("8x8x10", 100, seed=3, opening="zero")
    assert r["won"].dtype == bool and r["fallbacks"] == 0 and r["seconds"] >= 0
    assert np.all(r["revealed"][r["won"]] == 1.0)
    assert np.all((r["revealed"] > 0) & (r["revealed"] <= 1))
    assert np.all(r["guesses"] <= r["decisions"])
    assert np.all(r["guesses"][~r["won"]] >= 1)  # only a guess can lose


def test_solver_beats_random_player():
    solver = play_solver("beginner", 200, seed=11)
    floor = play_random("beginner", 200, seed=11)
    assert solver["won"].mean() > 0.7
    assert floor["won"].mean() < 0.1
    assert solver["revealed"].mean() > floor["revealed"].mean() + 0.4


@pytest.mark.parametrize("kw", [
    {"board": "9x9"}, {"board": "3x3x9"}, {"episodes": -1}, {"episodes": 1.5}, {"seed": -1}, {"seed": "x"},
    {"opening": "corner"}, {"first": (8, 0)}, {"budget": 0}, {"budget": True},
])
@pytest.mark.parametrize("player", [play_solver, play_random])
def test_bad_play_arguments(player, kw):
    args = {"board": "8x8x10", "episodes": 1, **kw}
    with pytest.raises(ValueError):
        player(**args)


@pytest.mark.parametrize("view, mines", [
    ([[C, C], [C, 12]], 1),             # exploded mine is not a view the solver reads
    ([[C, C], [C, -1]], 1),             # not a cell code
    ([C, C, C], 1),                     # not 2-D
    ([[C, C], [C, 1]], -1),             # negative mine count
    ([[C, C], [C, 1]], 1.0),            # not an integer
    ([[C, C], [C, 1]], 4),              # more mines than covered tiles
])
def test_bad_views(view, mines):
    with pytest.raises(ValueError):
        mine_probabilities(view, mines)


@pytest.mark.parametrize("view, mines", [
    ([[1, 1], [1, 1]], 0),              # numbers with no covered neighbour
    ([[C, 3], [1, 1]], 1),              # a 3 with one covered neighbour
    ([[1, 2, 1], [C, C, C]], 1),        # the numbers need two mines
    ([[C, 0], [C, 1]], 1),              # the 0 clears the only tiles the 1 can use
])
def test_inconsistent_views(view, mines):
    with pytest.raises(ValueError, match="consistent"):
        mine_probabilities(view, mines)


# ------------------------------------------------------------------ layout counts and PSEQ --

def consistent_layouts(view, mines):
    """Every placement of ``mines`` mines on the covered tiles that matches every number, as a boolean
    array (layout, covered tile), with the covered tiles listed column by column."""
    view = np.asarray(view)
    rows, cols = view.shape
    covered = [(r, c) for c in range(cols) for r in range(rows) if view[r, c] in (C, F)]
    column = {t: i for i, t in enumerate(covered)}
    good = []
    for combo in itertools.combinations(range(len(covered)), mines):
        layout = np.zeros(len(covered), dtype=bool)
        layout[list(combo)] = True
        if all(view[r, c] > 8 or sum(layout[column[t]] for t in neighbours(r, c, rows, cols) if t in column)
               == view[r, c] for r in range(rows) for c in range(cols)):
            good.append(layout)
    return covered, np.array(good, dtype=bool).reshape(len(good), len(covered))


def largest(values, keep):
    """PSEQ's filter: everything within a relative 1e-8 (at least 1e-12) of the highest value."""
    top = max(values[i] for i in keep)
    return [i for i in keep if values[i] >= top - max(abs(top) * 1e-8, 1e-12)]


def pseq_reference(view, mines):
    """PSEQ's criteria read off the consistent layouts themselves: (tiles, P, S, E, Q, survivors)."""
    view = np.asarray(view)
    rows, cols = view.shape
    covered, good = consistent_layouts(view, mines)
    index = {t: i for i, t in enumerate(covered)}
    p = good.mean(axis=0)
    tiles = [t for i, t in enumerate(covered) if p[i] < 1]
    P = [p[index[t]] for t in tiles]
    keep = largest([-x for x in P], range(len(tiles)))
    S, E, Q = {}, {}, {}
    for i in keep:
        b = index[tiles[i]]
        near = [index[t] for t in neighbours(*tiles[i], rows, cols) if t in index]
        safe_layouts = good[~good[:, b]]
        shown = safe_layouts[:, near].sum(axis=1)
        s = e = h = 0.0
        for w in np.unique(shown):
            these = safe_layouts[shown == w]
            r = len(these) / len(safe_layouts)
            cleared = sum(1 for j in range(len(covered)) if j != b and not these[:, j].any())
            s += r * (cleared > 0)
            e += r * cleared
            h -= r * np.log2(r)
        S[i], E[i] = s * (1 - P[i]), e * (1 - P[i])
        Q[i] = h + np.log2(len(safe_layouts))
    for scores in (S, E, Q):
        keep = largest(scores, keep)
    return tiles, P, S, E, Q, keep


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(1, 4), cols=st.integers(2, 5), mines=st.integers(1, 6), seed=st.integers(0, 10**6),
       first=st.integers(0, 19), clicks=st.lists(st.integers(0, 10**6), max_size=3))
def test_layout_count_and_pseq_match_the_layouts(rows, cols, mines, seed, first, clicks):
    from sweeper.game.probability import count_layouts
    from sweeper.running.players import pseq_scores
    mines = min(mines, rows * cols - 1)
    g = Game((rows, cols, mines), seed=seed, opening="safe", first=divmod(first % (rows * cols), cols))
    for pick in clicks:
        safe = np.argwhere((g.view == C) & ~g.mines)
        if g.status != "ongoing" or len(safe) == 0:
            break
        g.click(*(int(v) for v in safe[pick % len(safe)]))
    if g.status != "ongoing":
        return
    covered, good = consistent_layouts(g.view, mines)
    assert count_layouts(g.view, mines) == pytest.approx(len(good), rel=1e-12)
    assert count_layouts(g.view, mines, log=True) == pytest.approx(np.log(len(good)), abs=1e-9)
    tiles, P, S, E, Q, keep = pseq_reference(g.view, mines)
    got = pseq_scores(g.view, mines)
    assert list(zip(got["row"], got["col"])) == tiles
    np.testing.assert_allclose(got["P"], P, rtol=0, atol=1e-12)
    for name, ref in (("S", S), ("E", E), ("Q", Q)):
        np.testing.assert_allclose(got[name].iloc[sorted(ref)], [ref[i] for i in sorted(ref)], rtol=1e-9,
                                   atol=1e-12)
    assert list(np.flatnonzero(got["kept"])) == keep


def test_pseq_on_an_open_board_prefers_the_corners():
    # nothing revealed but one number far from the corners: every unconstrained tile ties on P; a corner's
    # 3 neighbours are likeliest to show a 0 and clear them
    view = np.full((5, 5), C)
    from sweeper.running.players import pseq_scores
    got = pseq_scores(view, 3)
    kept = set(zip(got["row"][got["kept"]], got["col"][got["kept"]]))
    assert kept <= {(0, 0), (0, 4), (4, 0), (4, 4)} and len(kept) == 4


def test_pseq_solver_is_seeded_and_checked():
    a = play_solver("8x8x10", 40, seed=3, opening="safe", guess="pseq")
    b = play_solver("8x8x10", 40, seed=3, opening="safe", guess="pseq")
    for key in ("won", "decisions", "revealed", "guesses"):
        assert np.array_equal(a[key], b[key])
    with pytest.raises(ValueError, match="guess"):
        play_solver("8x8x10", 1, guess="corner")
    with pytest.raises(ValueError, match="consistent"):
        from sweeper.running.players import pseq_scores
        pseq_scores([[1, 2, 1], [C, C, C]], 1)
