"""The best window agent: the in-class comparator of the regret chapter (beyond the paper).

The paper's agents read the board through 3x3 windows: an action is a window
and a target on its border, merged with its symmetric images into one *key*
(:mod:`sweeper.agents.windows`). Whatever an agent learns, it can only tell two
decisions apart through the keys on offer. The *best window agent* is the
agent that knows, for every key, its true value

    v(key) = the mean, over the decisions where the key is on offer, of the
             exact probability that its target hides a mine,

under a stated play distribution (the decisions of a named agent's training
games, see :func:`sweeper.running.regret.estimate_best_window`), and at every
decision takes the candidate whose key is most certain (largest
``max(v, 1 - v)``): a click when ``v <= 1/2``, else a flag. Ties between
candidates of equal certainty are broken uniformly at random, so the agent is
scored by the mean, over the tied candidates, of the probability that its move is
right. A key the table has never met counts as ``v = 1/2`` (no information): it
is taken only when nothing else is on offer. In what sense it is the best, and why
it averages the exact probabilities rather than the labels: :class:`BestWindow`.

A :class:`BestWindow` is plain data: the sorted keys, their values and the number
of on-offer decisions each rests on, with the sample it was estimated from (saved
as ``.npz`` with a JSON header, never pickle). The tables of the book's boards
are package data (:func:`default`), made by ``python -m sweeper best-window``.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..game.engine import Setting
from .values import ValueTable

__all__ = ["BestWindow", "default", "default_path", "FORMAT"]

#: The file format version of a saved table.
FORMAT = 1
#: Where the package keeps the tables of the book's boards.
DATA = Path(__file__).with_name("data") / "best-window"
#: Most keys a file may hold (checked from the header before any array is read).
MAX_KEYS = 1 << 26


@dataclass
class BestWindow:
    """The best window agent's table for one board setting: ``keys`` (sorted, unique), ``value`` (each key's
    mean exact probability that its target is a mine), ``count`` (the on-offer decisions it rests on),
    ``symmetric`` (the keys merge symmetric windows, as the paper's agents do) and ``info`` (the sample: agent,
    games, seed, decisions, provenance).

    In what sense it is the best. A window agent ranks keys; the best window agent ranks them by their true mean.
    If a key's target probability did not depend on which other keys are on offer, this ranking would maximise the
    expected probability of a right move at every decision among all agents that choose by key alone: the
    *sleeping-bandit* comparator of Kleinberg, Niculescu-Mizil & Sharma (2010), the best ordering of the arms. In
    Minesweeper the board around a window also changes the odds, so another ranking could do slightly better on
    some decisions; the regret chapter measures how much (a negative learning regret). It is also what a window
    agent's values tend to: an agent's ``(Q + 1) / 2`` is a running mean of the labels of its key, and the label's
    mean given the view is the exact probability.

    Why the exact probabilities and not the +-1 labels. Given the view, the label of a target (mine or safe) is a
    Bernoulli variable with mean ``p``, the exact probability. Averaging ``p`` instead of the label keeps the mean
    and removes the label's Bernoulli noise (Rao-Blackwell: the variance of ``p`` is at most that of the label),
    and a decision needs no finished game to be counted."""

    board: str
    keys: np.ndarray
    value: np.ndarray
    count: np.ndarray
    symmetric: bool = True
    info: dict = field(default_factory=dict)

    def __post_init__(self):
        self.board = str(Setting.parse(self.board))
        self.keys = np.asarray(self.keys, np.int64)
        self.value = np.asarray(self.value, np.float64)
        self.count = np.asarray(self.count, np.int64)
        if not (self.keys.ndim == self.value.ndim == self.count.ndim == 1
                and len(self.keys) == len(self.value) == len(self.count)):
            raise ValueError("keys, value and count must be 1-D arrays of one length")
        if len(self.keys) > 1 and not np.all(np.diff(self.keys) > 0):
            raise ValueError("keys must be sorted and unique")
        if len(self.value) and (not np.all(np.isfinite(self.value)) or self.value.min() < 0 or self.value.max() > 1):
            raise ValueError("values must be probabilities (finite, in [0, 1])")
        if len(self.count) and self.count.min() < 1:
            raise ValueError("every key must rest on at least one decision (count >= 1)")
        if not isinstance(self.symmetric, (bool, np.bool_)):
            raise ValueError(f"symmetric must be True or False, got {self.symmetric!r}")
        self.symmetric = bool(self.symmetric)

    def __len__(self) -> int:
        return len(self.keys)

    def __getitem__(self, key) -> float:
        """The value of ``key`` (1/2 for a key the table has never met)."""
        i = np.searchsorted(self.keys, np.int64(key))
        return float(self.value[i]) if i < len(self.keys) and self.keys[i] == key else 0.5

    @property
    def decisions(self) -> int:
        """The decisions of the sample (each counted once)."""
        return int(self.info.get("decisions", 0))

    def table(self) -> ValueTable:
        """The values as a hash table for the kernels (Q holds the value, N the count)."""
        return ValueTable.from_recorded(self.keys, self.value, self.count)

    # -- files ------------------------------------------------------------------------------------------
    def save(self, path) -> Path:
        """Write the table as ``.npz`` (arrays) with its header as JSON (no pickle), atomically: into a temporary
        file of its own in the same folder, renamed into place (removed if the write fails or is interrupted)."""
        path = Path(path)
        header = {"format": FORMAT, "board": self.board, "symmetric": self.symmetric, "keys": len(self.keys),
                  "info": self.info}
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        tmp = Path(tmp)
        try:
            with os.fdopen(fd, "wb") as f:
                np.savez_compressed(f, header=np.array(json.dumps(header, sort_keys=True)), keys=self.keys,
                                    value=self.value, count=self.count)
            os.chmod(tmp, 0o644 & ~_umask())
            tmp.replace(path)
        finally:
            tmp.unlink(missing_ok=True)
        return path

    @classmethod
    def load(cls, path) -> "BestWindow":
        """Read a table written by :meth:`save`; anything else is refused with a one-line ``ValueError``."""
        path = Path(path)
        try:
            with zipfile.ZipFile(path) as z:
                names = set(z.namelist())
            if names != {"header.npy", "keys.npy", "value.npy", "count.npy"}:
                raise ValueError(f"it holds {sorted(names)}")
            with np.load(path, allow_pickle=False) as z:
                header = json.loads(str(z["header"][()]))
                if not isinstance(header, dict) or header.get("format") != FORMAT:
                    raise ValueError(f"format {header.get('format') if isinstance(header, dict) else header!r}, "
                                     f"expected {FORMAT}")
                n = header.get("keys")
                if not isinstance(n, int) or not 0 <= n <= MAX_KEYS:
                    raise ValueError(f"its header gives {n!r} keys")
                arrays = {k: z[k] for k in ("keys", "value", "count")}
        except FileNotFoundError:
            raise ValueError(f"no best-window table at {path}") from None
        except (OSError, zipfile.BadZipFile, KeyError, json.JSONDecodeError) as exc:
            raise ValueError(f"{path} is not a best-window table: {exc}") from None
        except ValueError as exc:
            raise ValueError(f"{path} is not a best-window table: {exc}") from None
        if any(len(a) != header["keys"] for a in arrays.values()):
            raise ValueError(f"{path} is not a best-window table: its arrays do not hold {header['keys']} keys")
        if arrays["keys"].dtype != np.int64 or arrays["count"].dtype != np.int64 or arrays["value"].dtype != np.float64:
            raise ValueError(f"{path} is not a best-window table: wrong array types")
        try:
            return cls(header.get("board"), arrays["keys"], arrays["value"], arrays["count"],
                       header.get("symmetric"), header.get("info") or {})
        except ValueError as exc:
            raise ValueError(f"{path} is not a best-window table: {exc}") from None

    @staticmethod
    def checksum(path) -> str:
        """SHA-256 of a saved table's file: what the regret runs record to name their comparator."""
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _umask() -> int:
    """This process's umask (read by setting it, then put back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def default_path(board) -> Path:
    """The package's table file for ``board`` (it may not exist: see :func:`default`)."""
    return DATA / f"{Setting.parse(board)}.npz"


def default(board) -> BestWindow | None:
    """The package's best-window table of ``board``, or None when the package has none for that board."""
    path = default_path(board)
    return BestWindow.load(path) if path.exists() else None
