"""The paper's action model (Section IV-A) and its symmetries (Section IV-C).

An *action* is a 3x3 window of the player's view plus a *target*: one of the
window's 8 border cells, which must be a covered, unflagged tile. Every window
cell is in one of 12 states (its code): 0..8 a revealed number, 9 covered,
10 flagged, 11 out of board.

Cells of a window are numbered row-major, 0..8, the centre being 4. The target
is named by its *border position* ``bp`` in 0..7, the index into the border
cells ``(0, 1, 2, 3, 5, 6, 7, 8)``; in compass terms (north up) these are
NW, N, NE, W, E, SW, S, SE as seen from the centre.

Keys
----
Each action has an exact integer key. The target cell itself is always
"covered", so a key encodes the other 8 cells (base 12, most significant first).

* With symmetries (the paper's model): rotate the window so the target is at
  the top-left corner (corner class) or the top-middle cell (edge class); the
  window and its mirror image across the axis through the centre and the target
  are one action, and the key uses the numerically smaller of the two codes:
  ``key = 2 * code + class`` (class 0 = corner, 1 = edge).
* Without symmetries: ``key = 8 * code + bp`` with the 8 non-target cells in
  row-major order: every direction is its own action, nothing is mirrored.

The two classes never mix (paper fig. ``sim_example_3``): rotations and mirror
images of the square map corners to corners and edges to edges.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..game.grid import COVERED, FLAG, OUT, pad_view, padded_offsets  # noqa: F401  (cell codes of windows)

N_STATES = 12

#: Border positions (row-major cell numbers of the 3x3 window) in ``bp`` order.
BORDER = np.array([0, 1, 2, 3, 5, 6, 7, 8], dtype=np.int64)
DIRECTIONS = ("NW", "N", "NE", "W", "E", "SW", "S", "SE")
CORNER, EDGE = 0, 1
CANONICAL_TARGET = (0, 1)  # cell number of the target, per class


def _build_permutations():
    """PERM[bp, m, i]: window cell read into canonical slot i (m=0 rotated, m=1 mirrored);
    RAW[bp, i]: window cell read into slot i without symmetries; CLASS[bp]."""
    idx = np.arange(9).reshape(3, 3)
    perm = np.zeros((8, 2, 8), dtype=np.int64)
    raw = np.zeros((8, 8), dtype=np.int64)
    cls = np.zeros(8, dtype=np.int64)
    for bp, cell in enumerate(BORDER):
        c = CORNER if cell in (0, 2, 6, 8) else EDGE
        cls[bp] = c
        target = CANONICAL_TARGET[c]
        for k in range(4):
            rot = np.rot90(idx, k)
            if rot.flat[target] == cell:
                break
        mirror = rot.T if c == CORNER else np.fliplr(rot)
        slots = [j for j in range(9) if j != target]
        perm[bp, 0] = rot.flat[slots]
        perm[bp, 1] = mirror.flat[slots]
        raw[bp] = [j for j in range(9) if j != cell]
    return perm, raw, cls


PERM, RAW, CLASS = _build_permutations()


def _build_weights():
    """WEIGHT[bp, m, j]: weight of window cell j in the code of variant m (0 rotated,
    1 mirrored) for target ``bp``; RAW_WEIGHT[bp, j]: the same without symmetries.
    A code is the sum of cell codes times weights (the target's weight is 0)."""
    weight = np.zeros((8, 2, 9), dtype=np.int64)
    raw = np.zeros((8, 9), dtype=np.int64)
    for bp in range(8):
        for i in range(8):
            weight[bp, 0, PERM[bp, 0, i]] = 12 ** (7 - i)
            weight[bp, 1, PERM[bp, 1, i]] = 12 ** (7 - i)
            raw[bp, RAW[bp, i]] = 12 ** (7 - i)
    return weight, raw


WEIGHT, RAW_WEIGHT = _build_weights()


@njit(cache=True, inline="always")
def window_code(view, centre, offsets9):
    """Base-12 code of the 9 cells of the window centred at ``centre`` (identifies its content)."""
    code = np.int64(0)
    for j in range(9):
        code = code * 12 + np.int64(view[centre + offsets9[j]])
    return code


@njit(cache=True, inline="always")
def window_key(view, centre, offsets9, bp, symmetric):
    """Key of the action (window around padded index ``centre``, target ``bp``).

    ``view`` is the padded flat view (border cells = OUT); ``offsets9`` are the
    9 padded offsets of the window cells in row-major order.
    """
    if symmetric:
        a = np.int64(0)
        b = np.int64(0)
        for j in range(9):
            v = np.int64(view[centre + offsets9[j]])
            a += v * WEIGHT[bp, 0, j]
            b += v * WEIGHT[bp, 1, j]
        if b < a:
            a = b
        return 2 * a + CLASS[bp]
    a = np.int64(0)
    for j in range(9):
        a += np.int64(view[centre + offsets9[j]]) * RAW_WEIGHT[bp, j]
    return 8 * a + bp


def key_of(view2d, centre, target, symmetric: bool = True) -> int:
    """Key of the action with window centre ``centre`` = (row, col) and target
    ``target`` = (row, col) on the 2-D view ``view2d``.

    Cells of the window off the board read as out of board (11). The key is the one the agents compute for the
    same window and target (see the module's *Keys*).

    Parameters
    ----------
    view2d : array_like of int
        The player's view, a ``rows x cols`` array of cell codes.
    centre : tuple of int
        ``(row, col)`` of the window's centre, a tile of the board.
    target : tuple of int
        ``(row, col)`` of the target: one of the centre's 8 neighbours, a covered, unflagged tile.
    symmetric : bool, default True
        The paper's keys, in which rotations and mirror images of a window are one action; False gives every
        direction its own key (``8 * code + bp``).

    Returns
    -------
    int
        The action's key, a non-negative integer.

    Raises
    ------
    ValueError
        If ``centre`` is off the board; ``target`` is not one of its 8 neighbours; or ``target`` is off the
        board or not a covered, unflagged tile.
    """
    view2d = np.asarray(view2d)
    rows, cols = view2d.shape
    (cr, cc), (tr, tc) = centre, target
    if not (0 <= cr < rows and 0 <= cc < cols):
        raise ValueError(f"window centre {centre} is off the {rows}x{cols} board")
    dr, dc = tr - cr, tc - cc
    if max(abs(dr), abs(dc)) != 1:
        raise ValueError(f"target {target} is not a border cell of the window centred at {centre}")
    if not (0 <= tr < rows and 0 <= tc < cols) or view2d[tr, tc] != COVERED:
        raise ValueError(f"target {target} must be a covered, unflagged tile")
    bp = int(np.flatnonzero(BORDER == (dr + 1) * 3 + (dc + 1))[0])
    _, off9 = padded_offsets(cols)
    p = (cr + 1) * (cols + 2) + (cc + 1)
    return int(window_key(pad_view(view2d), p, off9, bp, bool(symmetric)))


def raw_window(view2d, centre) -> np.ndarray:
    """The 3x3 window (cell codes, OUT off the board) centred at ``centre``."""
    padded = pad_view(view2d).reshape(np.asarray(view2d).shape[0] + 2, -1)
    r, c = centre
    return padded[r:r + 3, c:c + 3].astype(np.int64)


@njit(cache=True)
def _decode(key, symmetric, cells):
    """Fill ``cells`` (9, row-major) with the window of ``key``, its target covered; return the target's cell
    number, or -1 if the key is negative or beyond every window's code. The one decoder of keys."""
    if key < 0:
        return -1
    if symmetric:
        code = key // 2
        target = CANONICAL_TARGET[0] if key % 2 == 0 else CANONICAL_TARGET[1]
    else:
        code = key // 8
        target = BORDER[key % 8]
    if code >= N_STATES ** 8:
        return -1
    for j in range(8, -1, -1):  # the 8 digits fill the cells other than the target, the last digit last
        if j == target:
            cells[j] = COVERED
            continue
        cells[j] = code % N_STATES
        code //= N_STATES
    return target


def decode_key(key: int, symmetric: bool = True) -> tuple[np.ndarray, int]:
    """Inverse of the key: ``(window 3x3 of cell codes, target cell number)``.

    With symmetries the window is drawn in canonical orientation (target at the
    top-left corner or the top-middle cell). A key is not checked to be one that :func:`key_of` can give (with
    symmetries, the smaller code of a window and its mirror image): :func:`check_window_keys` does that.

    Parameters
    ----------
    key : int
        The key, a non-negative integer (converted with ``int``).
    symmetric : bool, default True
        Whether ``key`` is a key with symmetries (the paper's) or without; it must be the ``symmetric`` the key
        was made with.

    Returns
    -------
    window : numpy.ndarray
        The 3x3 ``int64`` window of cell codes, its target cell covered (9).
    target : int
        The target's cell number, row-major in 0..8 and never the centre 4: with symmetries 0 (a corner) or 1
        (an edge).

    Raises
    ------
    ValueError
        If ``key`` is negative; is beyond every window's key; or has its window centre off the board.
    """
    key = int(key)
    if key < 0:
        raise ValueError(f"keys are non-negative, got {key}")
    cells = np.empty(9, dtype=np.int64)
    target = _decode(np.int64(key), bool(symmetric), cells) if key < 2**63 else -1
    if target < 0:
        raise ValueError(f"key {key} is out of range")
    window = cells.reshape(3, 3)
    if window[1, 1] == OUT:
        raise ValueError(f"key {key} has its window centre off the board")
    return window, int(target)


def to_paper_tuple(window: np.ndarray, target: int) -> tuple:
    """The paper's 10-tuple notation: 9 cells row-major (-1 off board, 'C'
    covered, 'F' flagged, else the number) and the target's compass direction.

    Parameters
    ----------
    window : array_like of int
        A 3x3 window of cell codes (such as :func:`decode_key` gives), read row-major.
    target : int
        The target's cell number, row-major: a border cell, in 0..8 but not 4.

    Returns
    -------
    tuple
        Ten entries: the 9 cells (``-1`` off the board, ``"C"`` covered, ``"F"`` flagged, else the cell code as an
        int, a number 0-8), then the direction of the target as seen from the centre: ``"NW"``, ``"N"``,
        ``"NE"``, ``"W"``, ``"E"``, ``"SW"``, ``"S"`` or ``"SE"``.

    Raises
    ------
    IndexError
        If ``target`` is not a border cell (the centre 4, or outside 0..8).
    """
    names = []
    for v in np.asarray(window).ravel():
        v = int(v)
        names.append(-1 if v == OUT else "C" if v == COVERED else "F" if v == FLAG else v)
    return tuple(names) + (DIRECTIONS[int(np.flatnonzero(BORDER == target)[0])],)


def actions_of(view2d, tile, symmetric: bool = True) -> list[dict]:
    """Every action targeting ``tile`` = (row, col) on a 2-D view, in the agents' scan
    order of window centres: centre, direction, the paper's 10-tuple and the key."""
    view2d = np.asarray(view2d)
    rows, cols = view2d.shape
    r, c = tile
    out = []
    for dr, dc in [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]:
        centre = (r + dr, c + dc)
        if 0 <= centre[0] < rows and 0 <= centre[1] < cols:
            cell = (1 - dr) * 3 + (1 - dc)  # the target as seen from the centre
            out.append({"centre": centre, "direction": DIRECTIONS[int(np.flatnonzero(BORDER == cell)[0])],
                        "paper": to_paper_tuple(raw_window(view2d, centre), cell),
                        "key": key_of(view2d, centre, tile, symmetric)})
    return out


@njit(cache=True)
def _first_bad_key(keys, symmetric, off9):
    """Index of the first key that no window gives, or -1: each key is decoded (:func:`_decode`) and encoded
    again (:func:`window_key`, on a 3x3 board holding the window), and must come back unchanged (with
    symmetries only the canonical orientation does)."""
    cells = np.empty(9, dtype=np.int64)
    view = np.full(25, OUT, dtype=np.int64)  # the window as a padded 3x3 board, its centre at padded index 12
    for i in range(keys.size):
        target = _decode(keys[i], symmetric, cells)
        if target < 0 or cells[4] == OUT:
            return i
        for j in range(9):
            view[(j // 3 + 1) * 5 + j % 3 + 1] = cells[j]
        bp = 0
        while BORDER[bp] != target:
            bp += 1
        if window_key(view, 12, off9, bp, symmetric) != keys[i]:
            return i
    return -1


def check_window_keys(keys, symmetric: bool) -> int:
    """-1 if every key of ``keys`` (int64) is the key of some window and target, else the index of the first that
    is not (see :func:`decode_key`; with symmetries a key must also be its window's canonical one)."""
    return int(_first_bad_key(np.ascontiguousarray(keys, dtype=np.int64), bool(symmetric), padded_offsets(3)[1]))


@njit(cache=True)
def _first_key_showing(keys, symmetric, state):
    cells = np.empty(9, dtype=np.int64)
    for i in range(keys.size):
        if _decode(keys[i], symmetric, cells) >= 0:
            for j in range(9):
                if cells[j] == state:
                    return i
    return -1


def first_key_showing(keys, symmetric: bool, state: int) -> int:
    """The index of the first key of ``keys`` whose window has a cell in ``state`` (``FLAG``, say), or -1."""
    return int(_first_key_showing(np.ascontiguousarray(keys, dtype=np.int64), bool(symmetric), np.int64(state)))
