"""The Minesweeper engine: boards, openings, reveal with flood fill, flags.

Rules (the spec)
----------------
A board ``rows x cols`` hides ``mines`` mines (``0 <= mines < rows*cols``).
Clicking a covered tile that hides a mine loses the game. Clicking a safe tile
reveals its number (mines among its 8 neighbours); a revealed 0 also reveals
its covered, unflagged neighbours, recursively (flood fill; flags are never
opened by it). The game is won when every safe tile is revealed. A flag marks a
covered tile; it can be removed again. The opening move is made by the game,
by one of three *opening rules*:

``reference`` (default; what the paper's published code does; the book page
"The reference rules", ``book/reference_rules.md``, states this rule set in full)
    Mines are drawn uniformly among all tiles. The game then opens the first
    tile that is safe and has no neighbouring mine, scanning column by column
    from the top-left (down column 0, then column 1, ...). If no such tile
    exists the game starts with nothing revealed.
``safe``
    The first click, at ``first`` (default the top-left corner), is never a mine:
    mines are drawn uniformly among the other tiles, then ``first`` is opened.
``zero``
    The first click is a 0: mines are drawn among tiles outside the 3x3
    neighbourhood of ``first``, then ``first`` is opened (flood fill).

Same seed, same boards: mines are drawn by :mod:`sweeper.rng` streams only.

The state lives in flat arrays over the board padded with one ring of
``OUT`` cells (so windows never need bounds checks); numba kernels here and in
:mod:`sweeper.agents.rules` share them. :class:`Game` is the Python face for playing
by hand, on the very same kernels.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from numba import njit

from .grid import COVERED, EXPLODED, FLAG, OUT, padded_offsets
from ..rng import STREAM_BOARDS, make_state, uniform  # noqa: F401  (uniform re-exported for kernels)
from ..rng import below

OPENINGS = {"reference": 0, "safe": 1, "zero": 2}
PRESETS = {"beginner": (8, 8, 10), "intermediate": (16, 16, 40), "expert": (16, 30, 99)}

# game status
ONGOING, WON, LOST = 0, 1, 2
# indices of the per-game integer state ``gi``
ST, REV, NFL, DEC, CLK, FLP, NREC, ND, LAST, REM, WRONG = range(11)
GI_SIZE = 11
# indices of the setting array ``geo``
G_R, G_C, G_K, G_W, G_P, G_OPEN, G_FIRST = range(7)


@dataclass(frozen=True)
class Setting:
    """A board setting ``rows x cols`` with ``mines`` mines (validated)."""

    rows: int
    cols: int
    mines: int

    def __post_init__(self):
        for name in ("rows", "cols", "mines"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise ValueError(f"{name} must be an integer, got {v!r}")
        if self.rows < 1 or self.cols < 1:
            raise ValueError(f"board size must be positive, got {self.rows}x{self.cols}")
        if self.mines < 0:
            raise ValueError(f"mines must be >= 0, got {self.mines}")
        if self.mines >= self.rows * self.cols:
            raise ValueError(
                f"{self.mines} mines do not fit a {self.rows}x{self.cols} board: need mines < {self.rows * self.cols}")
        if self.rows * self.cols > 1_000_000:
            raise ValueError("boards larger than 10^6 tiles are not supported")

    @classmethod
    def parse(cls, text) -> "Setting":
        """``Setting.parse("8x8x10")`` (rows x cols x mines) or a preset name."""
        if isinstance(text, Setting):
            return text
        if isinstance(text, (tuple, list)) and len(text) == 3:
            return cls(*(int(v) for v in text))
        s = str(text).strip().lower()
        if s in PRESETS:
            return cls(*PRESETS[s])
        m = re.fullmatch(r"(\d+)\s*x\s*(\d+)\s*x\s*(\d+)", s)
        if not m:
            raise ValueError(f"board must look like 8x8x10 (rows x cols x mines) or be one of "
                             f"{sorted(PRESETS)}, got {text!r}")
        return cls(*(int(g) for g in m.groups()))

    @property
    def tiles(self) -> int:
        return self.rows * self.cols

    @property
    def density(self) -> float:
        return self.mines / self.tiles

    def __str__(self) -> str:
        return f"{self.rows}x{self.cols}x{self.mines}"


def check_opening(opening: str, setting: Setting, first=None) -> tuple[int, tuple[int, int]]:
    """Validate an opening rule; returns its code and the first-click tile."""
    if opening not in OPENINGS:
        raise ValueError(f"opening must be one of {sorted(OPENINGS)}, got {opening!r}")
    r, c = (0, 0) if first is None else first
    if not (0 <= r < setting.rows and 0 <= c < setting.cols):
        raise ValueError(f"first click {(r, c)} is off the {setting.rows}x{setting.cols} board")
    if opening == "zero":
        free = (min(r + 1, setting.rows - 1) - max(r - 1, 0) + 1) * (min(c + 1, setting.cols - 1) - max(c - 1, 0) + 1)
        if setting.mines > setting.tiles - free:
            raise ValueError(f"a zero opening at {(r, c)} cannot fit {setting.mines} mines on a "
                             f"{setting.rows}x{setting.cols} board (at most {setting.tiles - free})")
    return OPENINGS[opening], (r, c)


class BoardArrays:
    """The flat, padded arrays of one game in progress (allocated per setting)."""

    def __init__(self, setting: Setting, opening: str = "reference", first=None):
        code, (fr, fc) = check_opening(opening, setting, first)
        R, C, K = setting.rows, setting.cols, setting.mines
        W = C + 2
        P = (R + 2) * W
        self.setting, self.opening = setting, opening
        self.geo = np.array([R, C, K, W, P, code, (fr + 1) * W + fc + 1], dtype=np.int64)
        self.tiles = np.array([(r + 1) * W + c + 1 for r in range(R) for c in range(C)], dtype=np.int64)
        self.off8, self.off9 = padded_offsets(C)
        self.mine = np.zeros(P, dtype=np.uint8)
        self.cnt = np.zeros(P, dtype=np.int8)
        self.view = np.full(P, OUT, dtype=np.int8)
        self.flg = np.zeros(P, dtype=np.uint8)
        self.dirty = np.zeros(P, dtype=np.uint8)
        self.dlist = np.zeros(P, dtype=np.int64)
        self.last_live = np.zeros(P, dtype=np.uint8)
        # per candidate, indexed target tile * 8 + k (k: the scan order of its window
        # centres): value-table slot and a copy of its Q and N; off-board centres
        # hold the sentinel Q = 0, N = -1, which never wins a choice
        self.cslot = np.full(P * 8, -1, dtype=np.int64)
        self.cq = np.full(P * 8, -1.0)
        self.cn = np.zeros(P * 8, dtype=np.int64)
        inboard = np.zeros(P, dtype=bool)
        inboard[self.tiles] = True
        off_board = ~inboard[self.tiles[:, None] + self.off8[None, :]]
        idx = (self.tiles[:, None] * 8 + np.arange(8))[off_board]
        self.cq[idx] = 0.0
        self.cn[idx] = -1
        # per centre: code of the 9 window cells when its keys were last computed (-1: never)
        self.rawc = np.full(P, -1, dtype=np.int64)
        # Thompson sampling's draws of one decision, by value-table slot: a small hash map
        # (slot, the decision it was drawn at, the draw), one entry per distinct action
        m = 1 << int(max(16, 2 * 8 * R * C) - 1).bit_length()
        self.tslot = np.full(m, -1, dtype=np.int64)
        self.tgen = np.zeros(m, dtype=np.int64)
        self.tdraw = np.zeros(m)
        self.frec = np.zeros(2 * R * C + 2, dtype=np.int64)
        self.stack = np.zeros(P, dtype=np.int64)
        self.pool = np.zeros(R * C, dtype=np.int64)
        self.gi = np.zeros(GI_SIZE, dtype=np.int64)

    @property
    def cand(self) -> tuple:
        """The per-candidate caches, as one tuple for the kernels."""
        return self.cslot, self.cq, self.cn, self.rawc, self.tslot, self.tgen, self.tdraw

    def unpad(self, flat) -> np.ndarray:
        R, C = self.setting.rows, self.setting.cols
        return np.asarray(flat).reshape(R + 2, C + 2)[1:-1, 1:-1].copy()


# ---------------------------------------------------------------- kernels --

@njit(cache=True, inline="always")
def touch(x, view, dirty, dlist, gi, off8):
    """Mark the window centres around tile ``x`` (and ``x``) as needing new keys."""
    if view[x] != OUT and dirty[x] == 0:
        dirty[x] = 1
        dlist[gi[ND]] = x
        gi[ND] += 1
    for k in range(8):
        y = x + off8[k]
        if view[y] != OUT and dirty[y] == 0:
            dirty[y] = 1
            dlist[gi[ND]] = y
            gi[ND] += 1


@njit(cache=True, inline="always")
def reveal(t, mine, cnt, view, flg, dirty, dlist, gi, stack, off8):
    """Reveal safe covered tile ``t`` with flood fill of zeros.

    Flagged tiles (``view == FLAG``) are never opened by the fill; a tile the
    agent only marked (invisible-flag mode: ``flg`` set, view still covered) is
    opened and loses its mark."""
    sp = 0
    view[t] = cnt[t]
    gi[REV] += 1
    touch(t, view, dirty, dlist, gi, off8)
    stack[sp] = t
    sp += 1
    while sp > 0:
        sp -= 1
        x = stack[sp]
        if cnt[x] != 0:
            continue
        for k in range(8):
            y = x + off8[k]
            if view[y] == COVERED:
                if flg[y] != 0:
                    flg[y] = 0
                    gi[NFL] -= 1
                view[y] = cnt[y]
                gi[REV] += 1
                touch(y, view, dirty, dlist, gi, off8)
                if cnt[y] == 0:
                    stack[sp] = y
                    sp += 1


@njit(cache=True)
def new_game(geo, tiles, mine, cnt, view, flg, dirty, dlist, gi, stack, pool, off8, rng, layout):
    """Reset the arrays and deal a new board (from ``rng``, or ``layout`` if it
    has one entry per tile), then make the opening move."""
    R = geo[G_R]
    C = geo[G_C]
    K = geo[G_K]
    W = geo[G_W]
    opening = geo[G_OPEN]
    first = geo[G_FIRST]
    n = R * C
    for i in range(gi.shape[0]):
        gi[i] = 0
    for j in range(n):
        p = tiles[j]
        mine[p] = 0
        cnt[p] = 0
        view[p] = COVERED
        flg[p] = 0
        dirty[p] = 1
        dlist[j] = p
    gi[ND] = n
    if layout.shape[0] == n:
        for j in range(n):
            mine[tiles[j]] = layout[j]
    else:
        m = 0
        for j in range(n):
            p = tiles[j]
            if opening == 1 and p == first:
                continue
            if opening == 2:
                d = p - first
                if d == 0 or d == -W - 1 or d == -W or d == -W + 1 or d == -1 or d == 1 \
                        or d == W - 1 or d == W or d == W + 1:
                    continue
            pool[m] = p
            m += 1
        for i in range(K):
            j = i + below(rng, m - i)
            tmp = pool[i]
            pool[i] = pool[j]
            pool[j] = tmp
            mine[pool[i]] = 1
    for j in range(n):
        p = tiles[j]
        c = 0
        for k in range(8):
            c += mine[p + off8[k]]
        cnt[p] = c
    if opening == 0:
        done = False
        for c in range(C):
            for r in range(R):
                p = (r + 1) * W + c + 1
                if mine[p] == 0 and cnt[p] == 0:
                    reveal(p, mine, cnt, view, flg, dirty, dlist, gi, stack, off8)
                    done = True
                    break
            if done:
                break
    else:
        if mine[first] != 0:
            view[first] = EXPLODED
            gi[ST] = LOST
        else:
            reveal(first, mine, cnt, view, flg, dirty, dlist, gi, stack, off8)
    if gi[ST] == ONGOING and gi[REV] == n - K:
        gi[ST] = WON


@njit(cache=True, inline="always")
def click(t, mine, cnt, view, flg, dirty, dlist, gi, stack, off8, n_safe):
    """Click covered tile ``t``: lose on a mine, else reveal; sets the status."""
    if mine[t] != 0:
        view[t] = EXPLODED
        gi[ST] = LOST
        return
    reveal(t, mine, cnt, view, flg, dirty, dlist, gi, stack, off8)
    if gi[REV] == n_safe:
        gi[ST] = WON


@njit(cache=True, inline="always")
def set_flag(t, on, visible, view, flg, dirty, dlist, gi, off8):
    """Place (``on``) or remove a flag on covered tile ``t``. With ``visible``
    false the flag is only the agent's mark: the view keeps showing a covered tile."""
    if on:
        flg[t] = 1
        gi[NFL] += 1
        if visible:
            view[t] = FLAG
    else:
        flg[t] = 0
        gi[NFL] -= 1
        if visible:
            view[t] = COVERED
    touch(t, view, dirty, dlist, gi, off8)


# ------------------------------------------------------------- Python face --

class Game:
    """One game of Minesweeper to play by hand (or to inspect), on the engine kernels.

    >>> g = Game("beginner", seed=3)
    >>> g.status
    'ongoing'

    ``view`` uses the cell codes of :mod:`sweeper.agents.windows` (0-8 numbers,
    9 covered, 10 flagged, 12 the exploded mine after a loss).
    """

    def __init__(self, board="beginner", seed: int = 0, opening: str = "reference", first=None, mines=None):
        self.setting = Setting.parse(board)
        self.arrays = a = BoardArrays(self.setting, opening, first)
        layout = np.zeros(0, dtype=np.uint8)
        if mines is not None:
            layout = check_layout(mines, self.setting, opening, first)
        rng = make_state(seed, STREAM_BOARDS)
        new_game(a.geo, a.tiles, a.mine, a.cnt, a.view, a.flg, a.dirty, a.dlist, a.gi, a.stack, a.pool,
                 a.off8, rng, layout)

    @property
    def view(self) -> np.ndarray:
        return self.arrays.unpad(self.arrays.view).astype(np.int64)

    @property
    def mines(self) -> np.ndarray:
        return self.arrays.unpad(self.arrays.mine).astype(bool)

    @property
    def numbers(self) -> np.ndarray:
        return self.arrays.unpad(self.arrays.cnt).astype(np.int64)

    @property
    def status(self) -> str:
        return ("ongoing", "won", "lost")[int(self.arrays.gi[ST])]

    @property
    def flags(self) -> int:
        return int(self.arrays.gi[NFL])

    def _tile(self, row, col, action):
        if self.status != "ongoing":
            raise ValueError(f"the game is over ({self.status})")
        s = self.setting
        if not (isinstance(row, (int, np.integer)) and isinstance(col, (int, np.integer))):
            raise ValueError(f"tile must be two integers, got {(row, col)!r}")
        if not (0 <= row < s.rows and 0 <= col < s.cols):
            raise ValueError(f"tile {(row, col)} is off the {s.rows}x{s.cols} board")
        p = (row + 1) * (s.cols + 2) + col + 1
        v = self.arrays.view[p]
        if action == "click" and v != COVERED:
            raise ValueError(f"cannot click {(row, col)}: it is "
                             f"{'flagged' if v == FLAG else 'already revealed'}")
        if action == "flag" and v not in (COVERED, FLAG):
            raise ValueError(f"cannot flag {(row, col)}: it is already revealed")
        return p

    def click(self, row: int, col: int) -> str:
        """Click a covered, unflagged tile; returns the new status."""
        a = self.arrays
        p = self._tile(row, col, "click")
        click(p, a.mine, a.cnt, a.view, a.flg, a.dirty, a.dlist, a.gi, a.stack, a.off8,
              self.setting.tiles - self.setting.mines)
        a.gi[ND] = 0
        a.dirty[:] = 0
        return self.status

    def toggle_flag(self, row: int, col: int) -> bool:
        """Flag or unflag a covered tile; returns whether it is flagged now."""
        a = self.arrays
        p = self._tile(row, col, "flag")
        on = a.view[p] != FLAG
        set_flag(p, on, True, a.view, a.flg, a.dirty, a.dlist, a.gi, a.off8)
        a.gi[ND] = 0
        a.dirty[:] = 0
        return bool(on)

    def render(self) -> str:
        """The view as text: ``#`` covered, ``F`` flag, ``*`` exploded mine, ``.`` zero."""
        sym = {COVERED: "#", FLAG: "F", EXPLODED: "*", 0: "."}
        return "\n".join(" ".join(sym.get(int(v), str(int(v))) for v in row) for row in self.view)


def check_layout(mines, setting: Setting, opening: str, first) -> np.ndarray:
    """Validate a given mine layout (2-D bool array) against the setting and opening rule."""
    arr = np.asarray(mines)
    if arr.shape != (setting.rows, setting.cols):
        raise ValueError(f"mine layout must have shape {(setting.rows, setting.cols)}, got {arr.shape}")
    if arr.dtype != bool and not np.isin(arr, (0, 1)).all():
        raise ValueError("mine layout must hold booleans (or 0/1)")
    arr = arr.astype(bool)
    if int(arr.sum()) != setting.mines:
        raise ValueError(f"mine layout has {int(arr.sum())} mines, the setting says {setting.mines}")
    r, c = (0, 0) if first is None else first
    if opening == "safe" and arr[r, c]:
        raise ValueError(f"a safe opening needs no mine at {(r, c)}")
    if opening == "zero" and arr[max(r - 1, 0):r + 2, max(c - 1, 0):c + 2].any():
        raise ValueError(f"a zero opening needs no mine around {(r, c)}")
    return arr.ravel().astype(np.uint8)
