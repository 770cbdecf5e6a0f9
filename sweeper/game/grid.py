"""The padded board: cell codes and index arithmetic shared by every kernel.

A ``rows x cols`` board is stored flat, row-major, with one ring of ``OUT``
cells around it (``(rows + 2) * (cols + 2)`` cells), so a tile's 8 neighbours
and its 3x3 window are fixed offsets and never need bounds checks. Tile
``(r, c)`` sits at padded index ``(r + 1) * (cols + 2) + c + 1``.

Cell codes of a player's view (also the window states of
:mod:`sweeper.agents.windows`): 0..8 a revealed number, 9 covered, 10 flagged,
11 out of board, 12 the exploded mine (only after a loss).
"""

from __future__ import annotations

import numpy as np

COVERED = 9
FLAG = 10
OUT = 11
#: Only in a view after a loss: the mine that was clicked (never in a window).
EXPLODED = 12


def padded_index(row: int, col: int, cols: int) -> int:
    """Padded index of tile ``(row, col)`` on a board ``cols`` wide."""
    return (row + 1) * (cols + 2) + col + 1


def tile_of(p, cols: int) -> tuple:
    """``(row, col)`` of padded index ``p`` (the inverse of :func:`padded_index`): two ints, or two
    arrays for an array of indices."""
    r, c = np.divmod(p, cols + 2)
    if np.ndim(p) == 0:
        return int(r) - 1, int(c) - 1
    return r - 1, c - 1


def padded_tiles(rows: int, cols: int) -> np.ndarray:
    """Padded indices of every tile, row-major (int64)."""
    r, c = np.divmod(np.arange(rows * cols, dtype=np.int64), cols)
    return (r + 1) * (cols + 2) + c + 1


def unpad(flat, rows: int, cols: int) -> np.ndarray:
    """The ``rows x cols`` board of a flat padded array (a copy)."""
    return np.asarray(flat).reshape(rows + 2, cols + 2)[1:-1, 1:-1].copy()

def padded_offsets(cols: int) -> tuple[np.ndarray, np.ndarray]:
    """(offsets of the 8 neighbours in bp order, offsets of the 9 window cells)."""
    w = cols + 2
    off8 = np.array([-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1], dtype=np.int64)
    off9 = np.array([-w - 1, -w, -w + 1, -1, 0, 1, w - 1, w, w + 1], dtype=np.int64)
    return off8, off9


def pad_view(view2d: np.ndarray) -> np.ndarray:
    """Flat padded copy of a 2-D view (cell codes as above), border = OUT."""
    view2d = np.asarray(view2d)
    r, c = view2d.shape
    out = np.full((r + 2, c + 2), OUT, dtype=np.int8)
    out[1:-1, 1:-1] = view2d
    return out.ravel()


def turned(a, k: int) -> np.ndarray:
    """A board array, or a stack of them (the last two axes), turned by the ``k``-th of the board's symmetries:
    bit 2 transposes (square boards only), then bit 0 flips the rows and bit 1 the columns; ``k = 0`` is the
    identity. A square board has the 8 (``k < 8``: its rotations and reflections), an oblong one the first 4 (its
    flips). The neural bandit's training turns views by them, and its symmetric play averages over them."""
    if k & 4:
        a = np.swapaxes(a, -1, -2)
    if k & 1:
        a = a[..., ::-1, :]
    if k & 2:
        a = a[..., ::-1]
    return np.ascontiguousarray(a)


def undone(k: int) -> int:
    """The symmetry that undoes the ``k``-th of :func:`turned`: itself for a flip; for a transpose followed by flips,
    the transpose preceded by the swapped flips (``turned(turned(a, k), undone(k))`` is ``a``)."""
    return k if k < 4 else 4 | ((k & 1) << 1) | ((k & 2) >> 1)
