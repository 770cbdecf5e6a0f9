"""Argument checks shared by every public entry point (one clear ``ValueError`` each)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np


def whole(value, name: str, minimum: int | None = None) -> int:
    """``value`` as a Python int if it is an integer (not a bool) and at least ``minimum``; else ``ValueError``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        kind = {None: "an integer", 0: "a non-negative integer", 1: "a positive integer"}.get(
            minimum, f"an integer >= {minimum}")
        raise ValueError(f"{name} must be {kind}, got {value!r}")
    if minimum is not None and value < minimum:
        kind = {0: "a non-negative integer", 1: "a positive integer"}.get(minimum, f"an integer >= {minimum}")
        raise ValueError(f"{name} must be {kind}, got {value!r}")
    return int(value)


def boolean(value, name: str) -> bool:
    """``value`` as a bool if it is one (``True``/``False``, NumPy's too); else ``ValueError`` (a string such as
    ``"no"`` is truthy, so taking it would silently mean yes)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def probe_directory(directory: Path, what: str) -> None:
    """Fail now, not after the work, if ``directory`` cannot take a new file (``ValueError`` naming ``what``)."""
    trial = Path(directory) / f".sweeper-probe-{os.getpid()}"
    try:
        trial.open("xb").close()
        trial.unlink()
    except OSError as exc:
        raise ValueError(f"{what}: cannot write in {directory} ({exc.strerror or exc})") from None


def output_file(path, what: str) -> Path:
    """Check, before any work, a file that a command writes after it (``what`` names it in the message, e.g.
    ``"--out results/t.json"``): not a directory nor another kind of node; its folder either exists and takes
    files, or can be made (its nearest existing ancestor is a directory that takes files, none is a file)."""
    p = Path(path)
    if p.is_dir():
        raise ValueError(f"{what} is a directory: give a file name, e.g. {p / 'out.json'}")
    if (p.exists() or p.is_symlink()) and (not p.is_file() or p.is_symlink()):
        raise ValueError(f"{what} is not a regular file (a link, a device or a pipe): give a file name")
    existing = p.parent if str(p.parent) else Path(".")
    while not existing.exists() and not existing.is_symlink():
        existing = existing.parent
    if not existing.is_dir():
        raise ValueError(f"{what}: {existing} is not a directory")
    probe_directory(existing, what)
    return p


#: The most local worker processes a command starts: more than this per core only wait for one another.
WORKERS_PER_CORE = 4


def max_workers() -> int:
    """The bound on ``workers``: :data:`WORKERS_PER_CORE` per core of this machine (at least 4)."""
    return max(4, WORKERS_PER_CORE * (os.cpu_count() or 1))


def workers(value, name: str = "workers") -> int:
    """``value`` as a number of local worker processes: a whole number from 1 to :func:`max_workers`."""
    value = whole(value, name, 1)
    if value > max_workers():
        raise ValueError(f"{name} must be at most {max_workers()} ({WORKERS_PER_CORE} per core of this machine's "
                         f"{os.cpu_count() or 1}; more only wait for one another), got {value}")
    return value
