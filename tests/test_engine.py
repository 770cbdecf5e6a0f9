"""Engine invariants: numbers, flood fill, win/loss, openings, validation, determinism."""

from collections import deque

import numpy as np
import pytest

from sweeper.game.grid import COVERED, EXPLODED, FLAG
from sweeper.game.engine import Game, Setting


def neighbours(r, c, rows, cols):
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols:
                yield r + dr, c + dc


def slow_numbers(mines):
    rows, cols = mines.shape
    return np.array([[sum(mines[y, x] for y, x in neighbours(r, c, rows, cols)) for c in range(cols)]
                     for r in range(rows)])


def slow_region(mines, start):
    """Tiles a click on safe ``start`` reveals: its zero-connected region and that region's border."""
    nums = slow_numbers(mines)
    rows, cols = mines.shape
    seen, todo = {start}, deque([start])
    while todo:
        r, c = todo.popleft()
        if nums[r, c] == 0:
            for y, x in neighbours(r, c, rows, cols):
                if (y, x) not in seen:
                    seen.add((y, x))
                    todo.append((y, x))
    return seen


@pytest.mark.parametrize("board", ["8x8x10", "16x16x40", "16x30x99", "5x7x1", "1x9x2"])
def test_numbers_count_neighbouring_mines(board):
    for seed in range(5):
        g = Game(board, seed=seed)
        nums = slow_numbers(g.mines)
        assert np.array_equal(g.numbers[~g.mines], nums[~g.mines])
        revealed = g.view != COVERED
        assert np.array_equal(g.view[revealed], nums[revealed])
        assert g.mines.sum() == Setting.parse(board).mines


def test_flood_fill_reveals_exactly_the_zero_region_and_its_border():
    rng = np.random.default_rng(0)
    for _ in range(60):
        rows, cols = rng.integers(2, 12, size=2)
        k = int(rng.integers(0, rows * cols // 3 + 1))
        mines = np.zeros(rows * cols, bool)
        mines[rng.choice(rows * cols, k, replace=False)] = True
        mines = mines.reshape(rows, cols)
        safe = np.argwhere(~mines)
        r, c = safe[rng.integers(len(safe))]
        g = Game(f"{rows}x{cols}x{k}", mines=mines, opening="safe", first=(int(r), int(c)))
        expect = slow_region(mines, (int(r), int(c)))
        got = {tuple(map(int, t)) for t in np.argwhere(g.view != COVERED)}
        assert got == expect


def test_flood_fill_skips_flags_and_clicks_win_and_lose():
    mines = np.zeros((3, 4), bool)
    mines[0, 3] = True
    g2 = Game("3x4x1", mines=mines)  # reference opening clicks (0,0), a zero
    assert g2.status == "won"  # the fill opens every safe tile: won by the opening
    g3 = Game("3x4x1", mines=mines, opening="safe", first=(0, 2))
    g3.toggle_flag(2, 0)
    g3.click(2, 3)  # a zero: opens everything but the flagged tile and the mine
    assert g3.view[2, 0] == FLAG and g3.status == "ongoing"
    g3.toggle_flag(2, 0)
    assert g3.click(2, 0) == "won"
    g4 = Game("3x4x1", mines=mines, opening="safe", first=(0, 2))
    assert g4.click(0, 3) == "lost" and g4.view[0, 3] == EXPLODED


def test_reference_opening_scans_column_by_column():
    for seed in range(40):
        g = Game("8x8x10", seed=seed)
        nums, mines = g.numbers, g.mines
        zeros = [(r, c) for c in range(8) for r in range(8) if not mines[r, c] and nums[r, c] == 0]
        if not zeros:
            assert (g.view == COVERED).all()
            continue
        assert {tuple(map(int, t)) for t in np.argwhere(g.view != COVERED)} == slow_region(mines, zeros[0])


def test_reference_opening_can_leave_the_board_covered():
    covered = [s for s in range(300) if (Game("4x4x6", seed=s).view == COVERED).all()]
    assert covered, "some 4x4x6 boards have no zero"


def test_safe_and_zero_openings_protect_the_first_click():
    for seed in range(50):
        g = Game("8x8x30", seed=seed, opening="safe", first=(3, 4))
        assert not g.mines[3, 4] and g.view[3, 4] != COVERED and g.mines.sum() == 30
        g = Game("8x8x30", seed=seed, opening="zero", first=(3, 4))
        assert not g.mines[2:5, 3:6].any() and g.view[3, 4] == 0
        g = Game("8x8x10", seed=seed, opening="zero")  # default: corner
        assert not g.mines[0:2, 0:2].any()


def test_same_seed_same_board_and_different_seeds_differ():
    a, b, c = Game("16x30x99", seed=5), Game("16x30x99", seed=5), Game("16x30x99", seed=6)
    assert np.array_equal(a.mines, b.mines) and np.array_equal(a.view, b.view)
    assert not np.array_equal(a.mines, c.mines)


@pytest.mark.parametrize("board, message", [
    ("8x8x64", "do not fit"), ("8x8x70", "do not fit"), ("0x8x1", "positive"), ("8x-1x1", "8x8x10"),
    ("banana", "8x8x10"), ((3, 3, -1), ">= 0"),
])
def test_bad_settings_are_rejected(board, message):
    with pytest.raises(ValueError, match=message):
        Setting.parse(board)


def test_bad_openings_and_clicks_are_rejected():
    with pytest.raises(ValueError, match="cannot fit"):
        Game("3x3x1", opening="zero", first=(1, 1))
    with pytest.raises(ValueError, match="opening must be"):
        Game("3x3x1", opening="lucky")
    with pytest.raises(ValueError, match="off the"):
        Game("3x3x1", opening="safe", first=(3, 0))
    g = Game("8x8x10", seed=0)
    with pytest.raises(ValueError, match="off the"):
        g.click(8, 0)
    r, c = map(int, np.argwhere(g.view != COVERED)[0])
    with pytest.raises(ValueError, match="already revealed"):
        g.click(r, c)
    with pytest.raises(ValueError, match="seed"):
        Game("8x8x10", seed=-1)
    with pytest.raises(ValueError, match="shape"):
        Game("3x3x1", mines=np.zeros((2, 2), bool))


def test_presets_are_the_windows_98_levels():
    assert str(Setting.parse("beginner")) == "8x8x10"
    assert str(Setting.parse("intermediate")) == "16x16x40"
    assert str(Setting.parse("expert")) == "16x30x99"
