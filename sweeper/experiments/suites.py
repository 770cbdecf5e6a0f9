"""The benchmark's test suites: fixed boards per level and opening, dealt by the engine, stored and checked.

A *suite* is 10,000 mine layouts of one level (beginner 8x8x10, intermediate 16x16x40, expert 16x30x99) under one
opening of the engine's table (:data:`OPENINGS`; one that takes a first click clicks its row's, :func:`first_click`),
dealt by the engine's own dealer (``new_game``) from a :mod:`sweeper.rng` stream of its own
(:data:`~sweeper.rng.STREAM_SUITES`, one seed per suite, :data:`SUITE_SEEDS`). The suites ship with the package as
data (``data/suites/``): one ``.npz`` per suite holding ``mines`` (each layout's tiles row by row, packed eight to a byte by ``numpy.packbits``) and ``shape``
(games, rows, cols), and ``manifest.json`` naming, per suite, its board, opening, how the first click is made, seed,
stream, the SHA-256 of its layouts (of the ``uint8`` array ``games x rows x cols``, 1 for a mine) and of its file.
They can be read without this package::

    z = numpy.load("beginner-reference.npz"); games, rows, cols = z["shape"]
    mines = numpy.unpackbits(z["mines"], axis=1, count=rows * cols).reshape(games, rows, cols).astype(bool)

:func:`load_suite` trusts nothing in the files: it reads regular files only, of a bounded size (never a device, a
pipe or a link to one), checks the manifest's shape and every field it uses, the file's and the layouts' checksums,
the seed against :data:`SUITE_SEEDS`, the count of boards against :data:`SUITE_GAMES` (a suite cut short is
refused), the board's shape against the level (not the file's word for it), and that the layouts are the engine's
deal of that seed (dealing 10,000 boards takes a tenth of a second).

*Fresh boards* (:func:`fresh_suite`): the same level and opening dealt by the same dealer from a seed given at
scoring time, so that no policy can have seen them (``python -m sweeper benchmark --fresh SEED``).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import stat
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..checks import whole
from ..game.engine import OPENING_TABLE, Setting, mines_of, new_board, new_game
from ..rng import STREAM_SUITES, check_seed, make_state

#: The levels of the benchmark.
LEVELS = ("beginner", "intermediate", "expert")
#: The openings of the benchmark: every opening of the engine's table.
OPENINGS = tuple(o.name for o in OPENING_TABLE)
#: Boards per suite.
SUITE_GAMES = 10_000
#: The seed of each suite (dealt on stream :data:`~sweeper.rng.STREAM_SUITES`).
SUITE_SEEDS = {f"{lv}-{op}": 1000 + 10 * i + j for i, lv in enumerate(LEVELS) for j, op in enumerate(OPENINGS)}
#: Where the suites live.
SUITE_DIR = Path(__file__).resolve().parent / "data" / "suites"
#: The largest manifest and suite file read, in bytes (the stored ones: 5 KB, and at most 600 KB).
MAX_MANIFEST_BYTES = 1 << 20
MAX_SUITE_BYTES = 1 << 24
#: The fields of a manifest's entry that :func:`load_suite` reads, with their types.
ENTRY_FIELDS = {"name": str, "level": str, "opening": str, "file": str, "layouts_sha256": str, "file_sha256": str,
                "seed": int, "games": int, "rows": int, "cols": int, "mines": int}


@dataclass(frozen=True)
class Suite:
    """A test suite: ``layouts`` (games x rows x cols, bool) of ``setting`` under ``opening``, dealt from ``seed``;
    ``fresh`` when they were dealt at scoring time (:func:`fresh_suite`), not read from the package."""

    name: str
    level: str
    setting: Setting
    opening: str
    first: tuple | None
    seed: int
    layouts: np.ndarray = field(repr=False)
    fresh: bool = False

    def __len__(self) -> int:
        return len(self.layouts)

    @property
    def checksum(self) -> str:
        """The SHA-256 of the layouts (``uint8``, games x rows x cols, 1 for a mine)."""
        return layouts_checksum(self.layouts)


def layouts_checksum(layouts) -> str:
    """The SHA-256 of mine layouts as the ``uint8`` array ``games x rows x cols`` (1 for a mine), in hex."""
    return hashlib.sha256(np.ascontiguousarray(np.asarray(layouts), dtype=np.uint8).tobytes()).hexdigest()


def suite_name(level: str, opening: str = "reference") -> str:
    """``"beginner-reference"`` ..., after checking the level and the opening."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    if opening not in OPENINGS:
        raise ValueError(f"opening must be one of {', '.join(OPENINGS)}, got {opening!r}")
    return f"{level}-{opening}"


def level_of(board) -> str:
    """The benchmark level of a board (a :class:`~sweeper.game.engine.Setting` or its text, e.g. ``"16x16x40"``),
    or a clear error for a board that is none of them."""
    setting = Setting.parse(board)
    for level in LEVELS:
        if Setting.parse(level) == setting:
            return level
    raise ValueError(f"the benchmark has suites for {', '.join(f'{lv} ({Setting.parse(lv)})' for lv in LEVELS)}, "
                     f"not for {setting}")


def first_click(opening: str, setting: Setting):
    """The suites' first click under ``opening`` on ``setting``: its row's (``(0, 0)`` in the corner) where the
    opening takes one, else None."""
    row = next(o for o in OPENING_TABLE if o.name == opening)
    return row.first_click(setting) if row.takes_first else None


def _deal(level: str, opening: str, seed: int, games: int, fresh: bool) -> Suite:
    name = suite_name(level, opening)
    games = whole(games, "games", 0)
    setting = Setting.parse(level)
    first = first_click(opening, setting)
    board = new_board(setting, opening, first)
    rng = make_state(seed, STREAM_SUITES)
    empty = np.zeros(0, np.uint8)
    layouts = np.zeros((games, setting.rows, setting.cols), bool)
    for g in range(games):
        new_game(board, rng, empty)
        layouts[g] = mines_of(board)
    return Suite(name, level, setting, opening, first, seed, layouts, fresh)


def deal_suite(level: str, opening: str = "reference", games: int = SUITE_GAMES) -> Suite:
    """Deal the first ``games`` boards of a suite from its seed with the engine's dealer (the stored suites are
    ``deal_suite(level, opening)``; :func:`load_suite` reads them)."""
    return _deal(level, opening, SUITE_SEEDS[suite_name(level, opening)], games, fresh=False)


def fresh_suite(level: str, opening: str, seed, games: int = SUITE_GAMES) -> Suite:
    """``games`` boards of ``level`` and ``opening`` dealt as the suites are (the engine's dealer, stream
    :data:`~sweeper.rng.STREAM_SUITES`) from ``seed``, chosen at scoring time: boards no policy can have read. A
    seed of a stored suite (:data:`SUITE_SEEDS`) is refused: it would deal public boards."""
    try:
        seed = check_seed(seed)
    except ValueError as exc:
        raise ValueError(f"the fresh boards' {exc}") from None
    suite_name(level, opening)
    if seed in SUITE_SEEDS.values():
        public = next(k for k, v in SUITE_SEEDS.items() if v == seed)
        raise ValueError(f"--fresh {seed} is the seed of the public suite {public}: its boards ship with the package; "
                         f"choose a seed of your own (not one of the public suites' seeds, "
                         f"{', '.join(str(v) for v in sorted(SUITE_SEEDS.values()))})")
    games = whole(games, "games", 1)
    if games > SUITE_GAMES:
        raise ValueError(f"games must be at most {SUITE_GAMES:,} on fresh boards, as on a suite, got {games:,}")
    return _deal(level, opening, seed, games, fresh=True)


# ----------------------------------------------------------------- writing --

def _manifest_entry(suite: Suite, file_bytes: bytes) -> dict:
    s = suite.setting
    rule = next(o for o in OPENING_TABLE if o.name == suite.opening)
    return {"name": suite.name, "level": suite.level, "board": str(s), "rows": s.rows, "cols": s.cols,
            "mines": s.mines, "opening": suite.opening, "first_click": rule.help,
            "first": list(suite.first) if suite.first else None, "games": len(suite), "seed": suite.seed,
            "stream": STREAM_SUITES, "file": f"{suite.name}.npz", "layouts_sha256": suite.checksum,
            "file_sha256": hashlib.sha256(file_bytes).hexdigest()}


def _npz_bytes(suite: Suite) -> bytes:
    buf = io.BytesIO()
    flat = suite.layouts.reshape(len(suite), -1)
    np.savez(buf, mines=np.packbits(flat, axis=1), shape=np.array(suite.layouts.shape, np.int64))
    return buf.getvalue()


def write_suites(directory=SUITE_DIR, games: int = SUITE_GAMES) -> dict:
    """Deal every suite and write its ``.npz`` and the ``manifest.json`` into ``directory``; returns the manifest."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    entries = []
    for level in LEVELS:
        for opening in OPENINGS:
            suite = deal_suite(level, opening, games)
            data = _npz_bytes(suite)
            (directory / f"{suite.name}.npz").write_bytes(data)
            entries.append(_manifest_entry(suite, data))
    manifest = {"format": 1, "about": "Fixed Minesweeper test suites of the Bandit Sweeper benchmark. Per suite: "
                "mines = numpy.packbits of each layout's tiles row by row (axis 1), shape = (games, rows, cols); "
                "layouts_sha256 is the SHA-256 of the unpacked uint8 array games x rows x cols (1 for a mine).",
                "dealer": "the engine's new_game kernel, xoshiro256** seeded by SplitMix64 from (seed, stream)",
                "suites": entries}
    (directory / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


# ----------------------------------------------------------------- reading --

def _kind(mode: int) -> str:
    for test, what in ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a pipe (FIFO)"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return what
    return "not a file"


def read_regular(path, limit: int, what: str) -> bytes:
    """The bytes of ``path``, a regular file (or a link to one) of at most ``limit`` bytes; anything else (a
    device such as ``/dev/zero``, a pipe, a directory, a larger file) is a ``ValueError`` naming ``what``, raised
    before reading (a pipe is opened without waiting for a writer)."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ValueError(f"cannot read {what} {path} ({exc.strerror or exc})") from None
    try:
        mode = os.fstat(fd).st_mode  # before os.fdopen, which refuses a directory with an error naming no path
    except OSError as exc:
        os.close(fd)
        raise ValueError(f"cannot read {what} {path} ({exc.strerror or exc})") from None
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise ValueError(f"{what} {path} is {_kind(mode)}, not a regular file: only regular files are read")
    with os.fdopen(fd, "rb") as f:
        size = os.fstat(fd).st_size
        if size > limit:
            raise ValueError(f"{what} {path} is {size:,} bytes, more than the {limit:,} it can be")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"{what} {path} grew past {limit:,} bytes while it was read")
    return data


def manifest(directory=None) -> dict:
    """The suites' manifest (see the module's text) in ``directory`` (default :data:`SUITE_DIR`): an object whose
    ``suites`` is a list, else a ``ValueError``."""
    path = Path(SUITE_DIR if directory is None else directory) / "manifest.json"
    data = read_regular(path, MAX_MANIFEST_BYTES, "the benchmark's manifest")
    try:
        man = json.loads(data)
    except RecursionError:
        raise ValueError(f"cannot read the benchmark's manifest {path} (too deeply nested)") from None
    except ValueError as exc:
        raise ValueError(f"cannot read the benchmark's manifest {path} ({exc})") from None
    if not isinstance(man, dict) or not isinstance(man.get("suites"), list):
        raise ValueError(f"the benchmark's manifest {path} must be an object whose 'suites' is a list of entries "
                         f"(as write_suites writes it), got {type(man).__name__}"
                         + (" without a list 'suites'" if isinstance(man, dict) else ""))
    return man


def _is_hex(v) -> bool:
    return isinstance(v, str) and len(v) == 64 and all(c in "0123456789abcdef" for c in v)


def _entry(directory, name: str, level: str, opening: str) -> dict:
    """The manifest's entry of suite ``name``, every field :func:`load_suite` reads checked."""
    entries = [e for e in manifest(directory)["suites"] if isinstance(e, dict) and e.get("name") == name]
    where = f"the benchmark's manifest {Path(directory) / 'manifest.json'}"
    if not entries:
        raise ValueError(f"{where} has no suite {name}")
    if len(entries) > 1:
        raise ValueError(f"{where} names the suite {name} {len(entries)} times")
    e = entries[0]
    missing = [k for k in ENTRY_FIELDS if k not in e]
    if missing:
        raise ValueError(f"{where}: the entry of {name} has no {', '.join(missing)}")
    for k, kind in ENTRY_FIELDS.items():
        if not isinstance(e[k], kind) or isinstance(e[k], bool):
            raise ValueError(f"{where}: the entry of {name} has {k} {e[k]!r}, not a {kind.__name__}")
    for k in ("layouts_sha256", "file_sha256"):
        if not _is_hex(e[k]):
            raise ValueError(f"{where}: the entry of {name} has {k} {e[k]!r}, not 64 hex digits")
    if e["file"] != Path(e["file"]).name or e["file"].startswith("."):
        raise ValueError(f"{where}: the entry of {name} names the file {e['file']!r}, not a file of its folder")
    s = Setting.parse(level)
    told = {"level": e["level"], "opening": e["opening"], "rows": e["rows"], "cols": e["cols"], "mines": e["mines"],
            "seed": e["seed"]}
    true = {"level": level, "opening": opening, "rows": s.rows, "cols": s.cols, "mines": s.mines,
            "seed": SUITE_SEEDS[name]}
    wrong = [k for k in told if told[k] != true[k]]
    if wrong:
        raise ValueError(f"{where}: the entry of {name} gives {', '.join(f'{k} {told[k]!r}' for k in wrong)}, but the "
                         f"suite's is {', '.join(f'{true[k]!r}' for k in wrong)}")
    if e["games"] != SUITE_GAMES:  # the module's constant read now (a test's folder of small suites sets it)
        raise ValueError(f"{where}: the entry of {name} gives {e['games']:,} games, not the suites' {SUITE_GAMES:,}: "
                         f"a suite cut short (or grown) is not the benchmark's")
    return e


def _unpack(data: bytes, path: Path, games: int, s: Setting) -> np.ndarray:
    """The layouts of a suite file's bytes, its arrays checked against the level's board and the manifest's games."""
    packed = (s.rows * s.cols + 7) // 8
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            if any(i.file_size > MAX_SUITE_BYTES for i in z.infolist()):
                raise ValueError("an array larger than a suite can be")
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            if set(z.files) != {"mines", "shape"}:
                raise ValueError(f"arrays {sorted(z.files)}, not mines and shape")
            shape, mines = z["shape"], z["mines"]
    except ValueError as exc:
        raise ValueError(f"cannot read the suite {path} ({exc})") from None
    except Exception as exc:  # noqa: BLE001  (zipfile.BadZipFile, a damaged member: the file is not a suite)
        raise ValueError(f"cannot read the suite {path} ({type(exc).__name__}: {exc})") from None
    if shape.shape != (3,) or shape.dtype.kind not in "iu" or tuple(int(v) for v in shape) != (games, s.rows, s.cols):
        raise ValueError(f"the suite {path} says its boards are {shape.tolist()} (games, rows, cols), but its level's "
                         f"are {[games, s.rows, s.cols]}: it was changed")
    if mines.dtype != np.uint8 or mines.shape != (games, packed):
        raise ValueError(f"the suite {path} holds mines of {mines.dtype} {mines.shape}, not uint8 {(games, packed)}")
    return np.unpackbits(mines, axis=1, count=s.rows * s.cols).reshape(games, s.rows, s.cols).astype(bool)


def load_suite(level: str, opening: str = "reference", directory=None) -> Suite:
    """The stored suite of ``level`` and ``opening`` in ``directory`` (default :data:`SUITE_DIR`), read and checked
    as the module's text says (a ``ValueError`` names what does not hold)."""
    name = suite_name(level, opening)
    directory = SUITE_DIR if directory is None else directory
    e = _entry(directory, name, level, opening)
    path = Path(directory) / e["file"]
    data = read_regular(path, MAX_SUITE_BYTES, "the suite")
    if hashlib.sha256(data).hexdigest() != e["file_sha256"]:
        raise ValueError(f"the suite {path} does not match its checksum in the manifest (file_sha256): it was changed "
                         f"or damaged")
    s = Setting.parse(level)
    layouts = _unpack(data, path, e["games"], s)
    if layouts_checksum(layouts) != e["layouts_sha256"]:
        raise ValueError(f"the suite {path} does not match its checksum in the manifest (layouts_sha256): it was "
                         f"changed")
    dealt = deal_suite(level, opening, e["games"])
    if not np.array_equal(dealt.layouts, layouts):
        raise ValueError(f"the suite {path} is not the engine's deal of its seed {e['seed']}: it was changed")
    return Suite(name, level, s, opening, first_click(opening, s), e["seed"], layouts)
