"""Argument checks shared by every public entry point (one clear ``ValueError`` each)."""

from __future__ import annotations

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
