"""The Minesweeper engine: boards, openings, reveal with flood fill, flags.

Rules (the spec)
----------------
A board ``rows x cols`` hides ``mines`` mines (``0 <= mines < rows*cols``).
Clicking a covered tile that hides a mine loses the game. Clicking a safe tile
reveals its number (mines among its 8 neighbours); a revealed 0 also reveals
its covered, unflagged neighbours, recursively (flood fill; flags are never
opened by it). The game is won when every safe tile is revealed. A flag marks a
covered tile; it can be removed again. The opening move is made by the game,
by one of the *openings* of :data:`OPENING_TABLE` (each one row of data):

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

Same seed, same boards: mines are drawn by :mod:`sweeper.rng` streams only. The state of a game lives in one
:class:`Board` bundle; nothing here knows about agents. :class:`Game` is the Python face for playing by hand, on
the very same kernels.
"""

from __future__ import annotations

import re
from collections import namedtuple
from dataclasses import dataclass

import numpy as np
from numba import njit

from ..checks import whole
from ..rng import STREAM_BOARDS, below, make_state
from .grid import COVERED, EXPLODED, FLAG, OUT, padded_index, padded_offsets, padded_tiles, unpad



@dataclass(frozen=True)
class Opening:
    """One opening, as data (a row of :data:`OPENING_TABLE`; the kernels read ``guard`` from the setting array).

    ``name`` what the user types; ``guard`` the tiles kept free of mines around the first click, as a radius: -1
    none (the board is dealt uniformly and the game finds its own first tile to open: the reference opening), 0
    the first tile only, 1 its 3x3 square, r the (2r+1)x(2r+1) square (clipped at the edges); ``help`` one line
    for the command line and the docs, where ``{first}`` is written out from ``first`` (:func:`first_click_text`);
    ``first`` the first click when none is given (:data:`FIRST_CLICKS`)."""

    name: str
    guard: int
    help: str
    first: str = "corner"

    def __post_init__(self):
        """A contributor's row checked where it is written: a name, a whole radius of at least -1, a help line."""
        if not isinstance(self.name, str) or not re.fullmatch(r"[a-z][a-z0-9_-]*", self.name):
            raise ValueError(f"an opening's name is a word in lower case (what the user types), got {self.name!r}")
        g = self.guard
        if isinstance(g, (bool, np.bool_)) or not isinstance(g, (int, np.integer)) or g < -1:
            raise ValueError(f"opening {self.name!r}: guard is a whole number of tiles, -1 (guard nothing: the "
                             f"reference opening) or a radius r >= 0 (the (2r+1)x(2r+1) square around the first "
                             f"click), got {g!r}")
        if not isinstance(self.help, str) or not self.help.strip():
            raise ValueError(f"opening {self.name!r}: help is one line of text for the command line and the docs")
        if self.first not in FIRST_CLICKS:
            raise ValueError(f"opening {self.name!r}: first is one of {sorted(FIRST_CLICKS)}, got {self.first!r}")
        object.__setattr__(self, "help", self.help.replace("{first}", first_click_text(self.first)))

    def first_click(self, setting: "Setting") -> tuple[int, int]:
        """The tile this opening clicks first on ``setting`` when none is given (:data:`FIRST_CLICKS`)."""
        return FIRST_CLICKS[self.first](setting.rows, setting.cols)

    @property
    def takes_first(self) -> bool:
        """Whether the opening clicks a tile the user may choose (``first``); the reference opening finds its own."""
        return self.guard >= 0


#: Where an opening clicks first when no ``first`` is given (its row's ``first``): the corner, (0, 0), or the centre
#: tile, ((rows - 1) // 2, (cols - 1) // 2).
FIRST_CLICKS = {"corner": lambda rows, cols: (0, 0), "centre": lambda rows, cols: ((rows - 1) // 2, (cols - 1) // 2)}


def first_click_text(first: str) -> str:
    """A row's ``first`` as its help text says it (``{first}`` in ``Opening.help``): ``--first, default 0,0`` for the
    corner, ``--first, default the centre tile`` for the centre."""
    return "--first, default " + ("0,0" if first == "corner" else f"the {first} tile")


#: Every opening the engine knows (the kernels read an opening's ``guard`` from the setting array). Adding a row adds an
#: opening to ``new_game``, ``check_opening``, ``check_layout``, the command line and the env, and to no experiment
#: (each names the openings it ran, :mod:`sweeper.experiments.specs`).
OPENING_TABLE = (
    Opening("reference", -1, "the paper's code: mines uniform; the game opens the first safe tile with no mine "
                             "around it, column by column"),
    Opening("safe", 0, "the first click ({first}) is never a mine"),
    Opening("zero", 1, "the first click ({first}) is a 0: no mine in its 3x3 square"),
)


def opening_rows(table=None) -> dict:
    """The openings of ``table`` (default :data:`OPENING_TABLE`) by name, the table checked: a tuple of
    :class:`Opening` rows, no name twice (``ValueError`` naming what is wrong, at import and wherever it is read)."""
    table = OPENING_TABLE if table is None else table
    if not isinstance(table, tuple) or not table or not all(isinstance(o, Opening) for o in table):
        raise ValueError("OPENING_TABLE must be a tuple of Opening(name, guard, help) rows")
    names = [o.name for o in table]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"OPENING_TABLE names the opening {twice[0]!r} {names.count(twice[0])} times: one row per "
                         f"opening")
    return {o.name: o for o in table}


opening_rows()  # a contributor's duplicate row is refused at import


def _names(names: list[str], last: str, quote: bool) -> str:
    shown = [f'``"{n}"``' if quote else f"``{n}``" for n in names]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + f" {last} " + shown[-1]


def openings_text(first_only: bool = False) -> str:
    """The openings of :data:`OPENING_TABLE` as docstrings and messages name them, so that a new row shows up in
    all of them: every name, quoted, as a choice ("reference", "safe" or "zero"), or with ``first_only`` the
    names of those that take a first click, as a list (safe and zero); each name marked up as literal text."""
    if first_only:
        return _names([o.name for o in OPENING_TABLE if o.takes_first], "and", quote=False)
    return _names([o.name for o in OPENING_TABLE], "or", quote=True)


def first_default_text(literal: bool = True) -> str:
    """Where the openings that take a first click click when none is given, from the rows' ``first``:
    ``(0, 0)``, or with an opening of another first click, ``(0, 0); the centre tile for middle``."""
    rows = [o for o in OPENING_TABLE if o.takes_first]
    other = [o for o in rows if o.first != "corner"]
    mark = (lambda s: f"``{s}``") if literal else (lambda s: s)
    return ("``(0, 0)``" if literal else "0,0") + "".join(f"; the {o.first} tile for {mark(o.name)}" for o in other)


def with_openings(obj):
    """Decorator: write the openings of :data:`OPENING_TABLE` into ``obj``'s docstring where it says
    ``{openings}`` or ``{first_openings}`` (:func:`openings_text`); returns ``obj``."""
    if obj.__doc__:
        obj.__doc__ = obj.__doc__.replace("{openings}", openings_text()).replace(
            "{first_openings}", openings_text(first_only=True)).replace("{first_default}", first_default_text())
    return obj


#: The board settings that :meth:`Setting.parse` knows by name, each name with its ``(rows, cols, mines)``. They
#: are the classic beginner (8x8, 10 mines), intermediate (16x16, 40 mines) and expert (16x30, 99 mines) boards.
PRESETS = {"beginner": (8, 8, 10), "intermediate": (16, 16, 40), "expert": (16, 30, 99)}

# game status
ONGOING, WON, LOST = 0, 1, 2
STATUS = ("ongoing", "won", "lost")
# indices of the game's counters ``Board.gs``: status, safe tiles revealed, flags on the board,
# length of the change log
ST, REV, NFL, ND = range(4)
GS_SIZE = 4
# indices of the setting array ``geo``
G_R, G_C, G_K, G_W, G_P, G_GUARD, G_FIRST = range(7)


@dataclass(frozen=True)
class Setting:
    """A board setting: ``rows x cols`` tiles hiding ``mines`` mines (validated on creation; immutable).

    ``str(setting)`` is its text form, ``"8x8x10"``, which :meth:`parse` reads back.

    Attributes
    ----------
    rows : int
        The number of rows, at least 1.
    cols : int
        The number of columns, at least 1.
    mines : int
        The number of mines, at least 0 and fewer than ``rows * cols``.

    Raises
    ------
    ValueError
        If ``rows``, ``cols`` or ``mines`` is not an integer (a bool is not one); ``rows`` or ``cols`` is below 1;
        ``mines`` is negative or not below ``rows * cols``; or the board has more than 10^6 tiles.
    """

    rows: int
    cols: int
    mines: int

    def __post_init__(self):
        for name in ("rows", "cols", "mines"):
            whole(getattr(self, name), name)
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
        """A setting from its text, ``Setting.parse("8x8x10")`` (rows x cols x mines), or a preset name.

        Parameters
        ----------
        text : str, tuple, list or Setting
            ``"RxCxK"`` (rows x cols x mines; case and spaces around the ``x`` do not matter), a name of
            :data:`PRESETS` (``"beginner"``, ``"intermediate"``, ``"expert"``), a ``(rows, cols, mines)`` tuple or
            list (each value converted with ``int``), or a :class:`Setting`, returned as it is.

        Returns
        -------
        Setting
            The setting, validated.

        Raises
        ------
        ValueError
            If ``text`` is none of the above, or its values do not make a valid setting (see :class:`Setting`).
        TypeError
            If a value of a tuple or list cannot be converted with ``int`` (``None``, say).
        """
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
        """The number of tiles, ``rows * cols``."""
        return self.rows * self.cols

    @property
    def density(self) -> float:
        """The fraction of the tiles that hide a mine, ``mines / tiles``."""
        return self.mines / self.tiles

    def __str__(self) -> str:
        return f"{self.rows}x{self.cols}x{self.mines}"


def check_opening(opening: str, setting: Setting, first=None) -> tuple[Opening, tuple[int, int]]:
    """Validate an opening (a name of :data:`OPENING_TABLE`) and its first click; returns the opening's row and
    the first-click tile."""
    known = opening_rows()
    if not isinstance(opening, str) or opening not in known:
        raise ValueError(f"opening must be one of {sorted(known)}, got {opening!r}")
    o = known[opening]
    if first is not None and not o.takes_first:
        names = openings_text(first_only=True).replace("``", "")
        raise ValueError(f"first is for the {names} openings; the {opening} opening opens a tile of its own (the "
                         "first safe tile with no mine around it, column by column)")
    if first is not None and not (isinstance(first, (tuple, list)) and len(first) == 2 and all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in first)):
        raise ValueError(f"first must be a (row, col) pair of integers, got {first!r}")
    r, c = o.first_click(setting) if first is None else (int(first[0]), int(first[1]))
    if not (0 <= r < setting.rows and 0 <= c < setting.cols):
        raise ValueError(f"first click {(r, c)} is off the {setting.rows}x{setting.cols} board")
    free = _guarded(setting, o, (r, c)).sum()
    if setting.mines > setting.tiles - free:
        raise ValueError(f"a {opening} opening at {(r, c)} cannot fit {setting.mines} mines on a "
                         f"{setting.rows}x{setting.cols} board (at most {setting.tiles - free})")
    return o, (r, c)


def _guarded(setting: Setting, opening: Opening, first) -> np.ndarray:
    """The tiles ``opening`` keeps free of mines around ``first`` (a bool array of the board's shape)."""
    out = np.zeros((setting.rows, setting.cols), dtype=bool)
    if opening.guard >= 0:
        g, (r, c) = opening.guard, first
        out[max(r - g, 0):r + g + 1, max(c - g, 0):c + g + 1] = True
    return out


#: The arrays of one game in progress, as one bundle for the kernels: flat arrays over the board padded with one
#: ring of ``OUT`` cells (:mod:`sweeper.game.grid`), so that windows never need bounds checks. Besides the mines,
#: numbers, view and flags it keeps a *change log*: every cell whose 3x3 neighbourhood changed since the log was
#: last read (an agent reads it to recompute only the windows that changed, then clears it).
#: ``geo`` the setting (``G_*`` indices), ``tiles`` the padded index of every tile (row-major),
#: ``off8``/``off9`` neighbour and window offsets, ``mine``, ``cnt`` (numbers), ``shown`` (the player's
#: view, cell codes) and ``flg`` per padded cell,
#: ``dirty``/``dlist`` the change log (a flag per cell and the list of flagged cells), ``stack`` and
#: ``pool`` scratch space of the flood fill and the dealer, ``gs`` the game's counters (``ST``...).
Board = namedtuple("Board", ["geo", "tiles", "off8", "off9", "mine", "cnt", "shown", "flg", "dirty", "dlist",
                             "stack", "pool", "gs"])


def new_board(setting: Setting, opening: str = "reference", first=None) -> Board:
    """Allocate the arrays of one game of ``setting`` under an opening (validated)."""
    o, (fr, fc) = check_opening(opening, setting, first)
    R, C, K = setting.rows, setting.cols, setting.mines
    P = (R + 2) * (C + 2)
    off8, off9 = padded_offsets(C)
    return Board(geo=np.array([R, C, K, C + 2, P, o.guard, padded_index(fr, fc, C)], dtype=np.int64),
                 tiles=padded_tiles(R, C), off8=off8, off9=off9,
                 mine=np.zeros(P, dtype=np.uint8), cnt=np.zeros(P, dtype=np.int8),
                 shown=np.full(P, OUT, dtype=np.int8), flg=np.zeros(P, dtype=np.uint8),
                 dirty=np.zeros(P, dtype=np.uint8), dlist=np.zeros(P, dtype=np.int64),
                 stack=np.zeros(P, dtype=np.int64), pool=np.zeros(R * C, dtype=np.int64),
                 gs=np.zeros(GS_SIZE, dtype=np.int64))


def view_of(board: Board) -> np.ndarray:
    """The player's view as a ``rows x cols`` array of cell codes (a copy)."""
    R, C = int(board.geo[G_R]), int(board.geo[G_C])
    return unpad(board.shown, R, C).astype(np.int64)


def mines_of(board: Board) -> np.ndarray:
    """The mine layout as a ``rows x cols`` boolean array (a copy)."""
    R, C = int(board.geo[G_R]), int(board.geo[G_C])
    return unpad(board.mine, R, C).astype(bool)


def clear_changes(board: Board) -> None:
    """Empty the change log (when no agent reads it)."""
    board.dirty[:] = 0
    board.gs[ND] = 0


# ---------------------------------------------------------------- kernels --

# Kernels take the :class:`Board` bundle. Those the agents call at every move (``reveal``, ``click``,
# ``set_flag``) allocate nothing, so they are compiled without reference counting (``_nrt=False``: numba
# would otherwise count, atomically, a reference for every array of the bundle) and inlined into their
# callers (``inline="always"``: no copying of the bundle's arrays as arguments).

@njit(cache=True, _nrt=False)
def touch(view, dirty, dlist, gs, off8, x):
    """Log tile ``x`` and its 8 neighbours (every window centre that sees ``x``) as changed
    (only the arrays it needs are passed: it runs for every revealed tile)."""
    if view[x] != OUT and dirty[x] == 0:
        dirty[x] = 1
        dlist[gs[ND]] = x
        gs[ND] += 1
    for k in range(8):
        y = x + off8[k]
        if view[y] != OUT and dirty[y] == 0:
            dirty[y] = 1
            dlist[gs[ND]] = y
            gs[ND] += 1


@njit(cache=True, _nrt=False, inline="always")
def reveal(b, tile):
    """Reveal safe covered tile ``tile`` with flood fill of zeros.

    Flagged tiles (``view == FLAG``) are never opened by the fill; a tile the
    agent only marked (invisible-flag mode: ``flg`` set, view still covered) is
    opened and loses its mark."""
    cnt, view, flg, gs, stack, off8, dirty, dlist = b.cnt, b.shown, b.flg, b.gs, b.stack, b.off8, b.dirty, b.dlist
    sp = 0
    view[tile] = cnt[tile]
    gs[REV] += 1
    touch(view, dirty, dlist, gs, off8, tile)
    stack[sp] = tile
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
                    gs[NFL] -= 1
                view[y] = cnt[y]
                gs[REV] += 1
                touch(view, dirty, dlist, gs, off8, y)
                if cnt[y] == 0:
                    stack[sp] = y
                    sp += 1


@njit(cache=True, _nrt=False)
def new_game(b, rng, layout):
    """Reset the arrays and deal a new board (from ``rng``, or ``layout`` if it
    has one entry per tile), then make the opening move. Every tile starts in the change log."""
    geo, tiles, mine, cnt, view, flg = b.geo, b.tiles, b.mine, b.cnt, b.shown, b.flg
    gs, pool, off8, dirty, dlist = b.gs, b.pool, b.off8, b.dirty, b.dlist
    R = geo[G_R]
    C = geo[G_C]
    K = geo[G_K]
    W = geo[G_W]
    guard = geo[G_GUARD]
    first = geo[G_FIRST]
    fr = first // W
    fc = first % W
    n = R * C
    for i in range(gs.shape[0]):
        gs[i] = 0
    for j in range(n):
        p = tiles[j]
        mine[p] = 0
        cnt[p] = 0
        view[p] = COVERED
        flg[p] = 0
        dirty[p] = 1
        dlist[j] = p
    gs[ND] = n
    if layout.shape[0] == n:
        for j in range(n):
            mine[tiles[j]] = layout[j]
    else:
        m = 0
        for j in range(n):
            p = tiles[j]
            if guard >= 0 and abs(p // W - fr) <= guard and abs(p % W - fc) <= guard:
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
        near = 0
        for k in range(8):
            near += mine[p + off8[k]]
        cnt[p] = near
    if guard < 0:
        done = False
        for c in range(C):
            for r in range(R):
                p = (r + 1) * W + c + 1
                if mine[p] == 0 and cnt[p] == 0:
                    reveal(b, p)
                    done = True
                    break
            if done:
                break
    else:
        if mine[first] != 0:
            view[first] = EXPLODED
            gs[ST] = LOST
        else:
            reveal(b, first)
    if gs[ST] == ONGOING and gs[REV] == n - K:
        gs[ST] = WON


@njit(cache=True, _nrt=False, inline="always")
def click(b, tile):
    """Click covered tile ``tile``: lose on a mine, else reveal; sets the status."""
    gs, geo = b.gs, b.geo
    if b.mine[tile] != 0:
        b.shown[tile] = EXPLODED
        gs[ST] = LOST
    else:
        reveal(b, tile)
        if gs[REV] == geo[G_R] * geo[G_C] - geo[G_K]:
            gs[ST] = WON


@njit(cache=True, _nrt=False, inline="always")
def set_flag(b, tile, on, visible):
    """Place (``on``) or remove a flag on covered tile ``tile``. With ``visible``
    false the flag is only the agent's mark: the view keeps showing a covered tile."""
    gs = b.gs
    b.flg[tile] = 1 if on else 0
    gs[NFL] += 1 if on else -1
    if visible:
        b.shown[tile] = FLAG if on else COVERED
    touch(b.shown, b.dirty, b.dlist, gs, b.off8, tile)


# ------------------------------------------------------------- Python face --

@with_openings
class Game:
    """One game of Minesweeper to play by hand (or to inspect), on the engine kernels.

    >>> g = Game("beginner", seed=3)
    >>> g.status
    'ongoing'

    ``view`` uses the cell codes of :mod:`sweeper.agents.windows` (0-8 numbers,
    9 covered, 10 flagged, 12 the exploded mine after a loss).

    The board is dealt and the opening move made on creation; the same ``board``, ``seed``, ``opening`` and
    ``first`` always deal the same mines.

    Parameters
    ----------
    board : str, tuple or Setting, default "beginner"
        The board setting: ``"8x8x10"`` (rows x cols x mines), a preset name, a ``(rows, cols, mines)`` tuple or
        a :class:`Setting` (see :meth:`Setting.parse`).
    seed : int, default 0
        The seed of the board's random stream, in ``[0, 2**64)`` (checked, but not used, when ``mines`` is given).
    opening : str, default "reference"
        The opening move: {openings} (see :mod:`sweeper.game.engine`).
    first : tuple of int, optional
        ``(row, col)`` of the first click for the {first_openings} openings (default {first_default}); the
        ``reference`` opening takes none.
    mines : numpy.ndarray, optional
        A 2-D boolean (or 0/1) mine layout of the setting's shape and mine count to play instead of a dealt
        board.

    Attributes
    ----------
    setting : Setting
        The board setting.
    board : Board
        The engine's arrays of the game (padded by one ring of ``OUT`` cells); read them, don't write them.

    Raises
    ------
    ValueError
        If the board setting does not parse or cannot hold its mines; ``seed`` is not an integer in
        ``[0, 2**64)``; ``opening`` or ``first`` is invalid; or ``mines`` does not have the setting's shape and
        mine count or does not agree with the opening.
    """

    def __init__(self, board="beginner", seed: int = 0, opening: str = "reference", first=None, mines=None):
        self.setting = Setting.parse(board)
        self.board = b = new_board(self.setting, opening, first)
        layout = np.zeros(0, dtype=np.uint8)
        if mines is not None:
            layout = check_layout(mines, self.setting, opening, first)
        new_game(b, make_state(seed, STREAM_BOARDS), layout)
        clear_changes(b)

    @property
    def view(self) -> np.ndarray:
        """The player's view: a ``rows x cols`` int64 array of cell codes (a copy)."""
        return view_of(self.board)

    @property
    def mines(self) -> np.ndarray:
        """The mine layout: a ``rows x cols`` bool array, True on a mine (a copy)."""
        return mines_of(self.board)

    @property
    def numbers(self) -> np.ndarray:
        """Each tile's number, the mines among its 8 neighbours, revealed or not (mines too): a ``rows x cols``
        int64 array (a copy)."""
        return unpad(self.board.cnt, self.setting.rows, self.setting.cols).astype(np.int64)

    @property
    def status(self) -> str:
        """The game's status: ``"ongoing"``, ``"won"`` or ``"lost"``."""
        return STATUS[int(self.board.gs[ST])]

    @property
    def flags(self) -> int:
        """The number of flags on the board."""
        return int(self.board.gs[NFL])

    def _tile(self, row, col, action):
        if self.status != "ongoing":
            raise ValueError(f"the game is over ({self.status})")
        s = self.setting
        if not (isinstance(row, (int, np.integer)) and isinstance(col, (int, np.integer))):
            raise ValueError(f"tile must be two integers, got {(row, col)!r}")
        if not (0 <= row < s.rows and 0 <= col < s.cols):
            raise ValueError(f"tile {(row, col)} is off the {s.rows}x{s.cols} board")
        p = padded_index(row, col, s.cols)
        v = self.board.shown[p]
        if action == "click" and v != COVERED:
            raise ValueError(f"cannot click {(row, col)}: it is "
                             f"{'flagged' if v == FLAG else 'already revealed'}")
        if action == "flag" and v not in (COVERED, FLAG):
            raise ValueError(f"cannot flag {(row, col)}: it is already revealed")
        return p

    def click(self, row: int, col: int) -> str:
        """Click a covered, unflagged tile: a mine loses the game, a safe tile is revealed (a 0 with flood fill).

        Parameters
        ----------
        row : int
            The tile's row, in ``[0, rows)``.
        col : int
            The tile's column, in ``[0, cols)``.

        Returns
        -------
        str
            The status after the click: ``"ongoing"``, ``"won"`` or ``"lost"``.

        Raises
        ------
        ValueError
            If the game is over; ``row`` or ``col`` is not an integer; the tile is off the board; or it is flagged
            or already revealed.
        """
        p = self._tile(row, col, "click")
        click(self.board, p)
        clear_changes(self.board)
        return self.status

    def toggle_flag(self, row: int, col: int) -> bool:
        """Flag a covered tile, or remove the flag of a flagged one (the number of flags is not limited).

        Parameters
        ----------
        row : int
            The tile's row, in ``[0, rows)``.
        col : int
            The tile's column, in ``[0, cols)``.

        Returns
        -------
        bool
            Whether the tile is flagged now.

        Raises
        ------
        ValueError
            If the game is over; ``row`` or ``col`` is not an integer; the tile is off the board; or it is already
            revealed.
        """
        p = self._tile(row, col, "flag")
        on = self.board.shown[p] != FLAG
        set_flag(self.board, p, on, True)
        clear_changes(self.board)
        return bool(on)

    def render(self) -> str:
        """The view as text: ``#`` covered, ``F`` flag, ``*`` exploded mine, ``.`` zero.

        Returns
        -------
        str
            One line per row, its tiles separated by spaces: ``#``, ``F``, ``*``, ``.`` or the number 1-8 (a mine not
            clicked shows as ``#``, or ``F`` if flagged, even after a loss).
        """
        sym = {COVERED: "#", FLAG: "F", EXPLODED: "*", 0: "."}
        return "\n".join(" ".join(sym.get(int(v), str(int(v))) for v in row) for row in self.view)


def check_layout(mines, setting: Setting, opening: str, first) -> np.ndarray:
    """Validate a given mine layout (2-D bool array) against the setting and opening."""
    arr = np.asarray(mines)
    if arr.shape != (setting.rows, setting.cols):
        raise ValueError(f"mine layout must have shape {(setting.rows, setting.cols)}, got {arr.shape}")
    if arr.dtype != bool and not np.isin(arr, (0, 1)).all():
        raise ValueError("mine layout must hold booleans (or 0/1)")
    arr = arr.astype(bool)
    if int(arr.sum()) != setting.mines:
        raise ValueError(f"mine layout has {int(arr.sum())} mines, the setting says {setting.mines}")
    o, first = check_opening(opening, setting, first)
    if (arr & _guarded(setting, o, first)).any():
        where = "at" if o.guard == 0 else f"within {o.guard} tile{'s' if o.guard > 1 else ''} of"
        raise ValueError(f"a {opening} opening needs no mine {where} {first}")
    return arr.ravel().astype(np.uint8)
