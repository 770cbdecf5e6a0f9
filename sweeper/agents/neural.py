"""The neural contextual bandit: a fully convolutional network's P(mine | view) for every tile.

The paper's agent models the context with a table over 3x3 windows. This agent, :class:`NeuralAgent` (its
docstring says how the network reads a view, chooses and explores), replaces the table by a network (it needs the
optional extra ``deep``: ``make deep``; the rest of the package, and the book, never import torch). How it learns:
:class:`sweeper.running.neural_play.NeuralLearning`.

Determinism: torch runs on one thread with deterministic algorithms (:func:`require_torch` sets both), the
initial weights come from the seed's own stream (:func:`sweeper.rng.neural_generator`), so the same seed gives
bit-identical weights on one machine; and torch's CPU kernels are pinned to AVX2 before torch is imported
(:mod:`sweeper.machine`), so that machines with AVX-512 give the same weights as machines with AVX2 only.

The agent file
    A NumPy ``.npz`` (no pickle; never ``torch.save``): one ``float32`` array per tensor of the network's state,
    named as in its ``state_dict`` (``inp.weight``, ``body.0.bias``, ``head.weight``...), and ``metadata``, a 0-d
    string of JSON with exactly the fields :data:`FIELDS`: ``format`` (``"bandit-sweeper-neural"``), ``version``
    (2), ``agent`` (``"neural"``), ``channels``, ``layers``, ``codes`` (10), ``epsilon``, ``init_seed`` (the seed
    of the initial weights), ``games``, ``decisions`` and ``updates`` (what it was trained on: games played
    learning, their decisions, gradient steps), ``boards`` (the settings it learnt on, e.g. ``["8x8x10"]``) and
    ``mines_left`` (whether the network reads the mine counter); version 3 adds ``symmetric`` (whether it plays on
    the mean of its logits over the board's symmetries), written only when true. Version-1 files, without
    ``mines_left``, and version-2 files are read as networks that do neither.
    Reading checks the metadata, then that the members are exactly the arrays this architecture has, with their
    shapes and dtypes read from the ``.npy`` headers before any data is decompressed, then that every weight is
    finite. Loading runs no code.
"""

from __future__ import annotations

import json
import math
import os
import sys
import tempfile
import zipfile
import zlib
from pathlib import Path

import numpy as np

from ..checks import boolean, whole
from ..machine import pin_cpu
from ..game.engine import Setting
from ..game.grid import COVERED, FLAG, turned, undone
from ..rng import check_seed, neural_generator
from .files import MAX_METADATA_CHARS, no_repeated_keys, RepeatedKey, check_target

#: What the optional extra ``deep`` installs (``make deep``; pinned: torch 2.13.0 is the CPU build this machine
#: class keeps on disk). The neural bandit needs torch; the deep-RL experiment all three.
REQUIREMENTS = ("torch==2.13.0", "stable-baselines3==2.9.2", "sb3-contrib==2.9.2")
#: The cell codes the network reads, one-hot: the numbers 0-8 and covered (9).
CODES = COVERED + 1
FORMAT = "bandit-sweeper-neural"
FORMAT_VERSION = 3
#: The metadata fields of versions 1 (no mine counter), 2 and 3 (written only for a network that plays symmetric).
FIELDS_V1 = ("format", "version", "agent", "channels", "layers", "codes", "epsilon", "init_seed", "games",
             "decisions", "updates", "boards")
FIELDS_V2 = FIELDS_V1 + ("mines_left",)
FIELDS = FIELDS_V2 + ("symmetric",)
#: The widest and deepest networks accepted (so a file cannot declare a huge one).
MAX_CHANNELS = 512
MAX_LAYERS = 32
#: The fewest views a forward pass of play runs on. torch's CPU convolution (oneDNN) computes a view's logits
#: bit for bit the same in any batch of at least 16 views, but with other sums in a smaller one (measured on this
#: package's network: a view's logits in batches of 1-15 differ from its logits in batches of 16-512 in the last
#: bits, which could break a near tie the other way). So a smaller batch of views is padded to 16 (repeats of its
#: first view, whose logits are dropped), and a board's choices do not depend on how many boards are played at
#: once: the one-board player (the env's :func:`~sweeper.running.policies.neural_policy`) and the batched one
#: (:func:`~sweeper.running.neural_play.evaluate_neural`) click alike (``tests/test_neural.py`` checks it).
PLAY_ROWS = 16


class ExtraMissing(ValueError):
    """The optional extra ``deep`` (torch, Stable-Baselines3, sb3-contrib) is not installed: the message says what
    needs it and how to install it (``make deep``)."""


def import_extra(what: str, *names: str) -> list:
    """The modules ``names`` of the optional extra ``deep``, imported, or one clear :class:`ExtraMissing` (a
    ``ValueError``) saying that ``what`` needs the extra and how to install it. The one place the package imports
    torch (and the libraries built on it): torch's CPU instruction set is pinned first
    (:func:`sweeper.machine.pin_cpu`), so that a run comes out the same on machines with and without AVX-512."""
    if not all(name in sys.modules for name in names):
        pin_cpu()  # before the first import only: once imported, torch has chosen its kernels
    try:
        for name in names:
            __import__(name)
    except ImportError as exc:
        raise ExtraMissing(f"{what} needs the optional extra 'deep' ({', '.join(REQUIREMENTS)}): `make deep` "
                           f"installs it ({exc.name} is missing)") from None
    return [sys.modules[name] for name in names]


def require_torch():
    """torch, set to one thread and deterministic algorithms, or a clear ``ValueError`` without the extra."""
    torch, = import_extra("the neural bandit", "torch")
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    return torch


def tile_trunk(torch, codes: int, channels: int, layers: int, head: bool = False):
    """The network's convolutional trunk as a torch module: one-hot cells ``(batch, codes, rows, cols)`` ->
    conv3x3 -> relu -> (``layers - 1``) x residual conv3x3 -> ``(batch, channels, rows, cols)``, features per tile
    that see a square ``2 * layers + 1`` tiles wide. With ``head=True`` a 1x1 convolution follows, giving one
    logit per tile ``(batch, rows, cols)``: the neural bandit's network. The deep-RL chapter's per-tile policy
    (:mod:`sweeper.experiments.deep_rl`) uses the same trunk, so that the two compare learning signals, not
    architectures."""
    nn = torch.nn

    class Trunk(nn.Module):
        def __init__(self):
            super().__init__()
            self.channels = channels
            self.inp = nn.Conv2d(codes, channels, 3, padding=1)
            self.body = nn.ModuleList(nn.Conv2d(channels, channels, 3, padding=1) for _ in range(layers - 1))

        def forward(self, x):
            if torch.is_inference_mode_enabled():  # no autograd: the same sums, in place (less memory traffic)
                h = self.inp(x).relu_()
                for conv in self.body:
                    h += conv(h).relu_()
                return h
            h = torch.relu(self.inp(x))
            for conv in self.body:
                h = h + torch.relu(conv(h))
            return h

    class BoardNet(Trunk):
        """One-hot view -> the trunk -> 1x1 head: a logit per tile."""

        def __init__(self):
            super().__init__()
            self.head = nn.Conv2d(channels, 1, 1)

        def forward(self, x):
            return self.head(super().forward(x))[:, 0]

    return BoardNet() if head else Trunk()


def check_views(views, what: str = "views") -> np.ndarray:
    """``views`` as an ``(n, rows, cols)`` int8 array of codes 0-9 (one 2-D view is made a batch of one)."""
    v = np.asarray(views)
    if v.ndim == 2:
        v = v[None]
    if v.ndim != 3 or v.size == 0 or not np.issubdtype(v.dtype, np.integer):
        raise ValueError(f"{what} must be a non-empty 2-D view or 3-D stack of views of integer cell codes, "
                         f"got {v.dtype} of shape {v.shape}")
    if (v == FLAG).any():
        raise ValueError("the neural bandit never flags and reads no flags: a view with flagged tiles (code "
                         f"{FLAG}) is refused")
    if ((v < 0) | (v > COVERED)).any():
        raise ValueError(f"{what} must hold the codes 0-8 (revealed numbers) and {COVERED} (covered) only")
    return v.astype(np.int8, copy=False)


class NeuralAgent:
    """The neural contextual bandit: a fully convolutional network's P(mine | view) for every tile, clicked
    greedily (the model, the choice and the exploration: Notes below).

    Train it with :func:`sweeper.running.neural_play.train_neural`, test it with
    :func:`~sweeper.running.neural_play.evaluate_neural`, play it in the Gymnasium env with
    :func:`sweeper.running.policies.neural_policy`; ``save`` and :func:`load_neural` keep it as plain data.

    Parameters
    ----------
    channels : int
        Channels of every convolution (32; at one CPU minute of training on beginner boards, with the first stored
        networks' learning, 32 won 0.758 of 1,000 test games against 0.598 for 64, which take three times as long
        per decision: ``python -m sweeper bench`` times both).
    layers : int
        3x3 convolutions (5: each tile's output sees the 11x11 square around it).
    epsilon : float
        While learning, the probability of a uniformly random covered tile instead of the greedy one (0).
    seed : int
        Draws the initial weights.
    mines_left : bool
        Whether the network also reads the mine counter (one more input plane); then ``logits``, ``choose`` and
        ``probabilities`` take the board's ``mines``.
    symmetric : bool
        Whether it plays on the mean of its logits over the board's symmetries (Notes): an equivariant model, at 8
        forward passes per view on a square board and 4 on an oblong one; learning ignores it (False).

    Attributes
    ----------
    net : torch.nn.Module
        The network.
    games, decisions, updates : int
        What it has learnt from: games played learning, their decisions, gradient steps.
    boards : list of str
        The boards it learnt on, in order.
    init_seed : int
        The seed of the initial weights.

    Raises
    ------
    ValueError
        Without the optional extra ``deep`` (torch), for a size or ``epsilon`` out of range, or for ``mines_left``
        or ``symmetric`` not a bool.

    Notes
    -----
    The model. The player's view, one-hot per cell (:data:`CODES` codes: the numbers 0-8 and covered), goes
    through ``layers`` 3x3 convolutions of ``channels`` channels (the first maps the codes to the channels, each
    later one is residual: ``h + relu(conv(h))``; zero padding, so the board's edge is seen as cells with no code)
    and a 1x1 head that gives one logit per tile: the network's log-odds that the tile hides a mine. It is fully
    convolutional, so one network plays every board size (a network trained on beginner boards plays expert boards
    unchanged). Its receptive field is ``2 * layers + 1`` tiles wide (11 for 5 layers). With ``mines_left=True``
    it also reads the mine counter every player sees: one more input plane holding the mines left per covered tile
    (the board's mines over its covered tiles, as the agent never flags), the same on every cell, so that a
    pattern can be read differently on a dense board than on a sparse one.

    Symmetric play (``symmetric=True``). Turning or mirroring the board changes no rule, so it should not change a
    tile's probability; a network learns that only approximately. A symmetric agent runs the network on the view
    turned by every symmetry of its board (:func:`~sweeper.game.grid.turned`: 8 on a square board, 4 on an oblong
    one) in one batch, turns each output back and plays on their mean: exactly equivariant. ``choose``,
    ``probabilities``, test games and the env use the mean; learning reads each view once (the ``symmetries`` of
    :class:`~sweeper.running.neural_play.NeuralLearning` turn the training views instead).

    The choice. Greedy: the covered tile of lowest predicted probability (lowest logit), ties to the first in
    row-major order. The agent never flags: the engine's game is won when every safe tile is revealed
    (:mod:`sweeper.game.engine`), so flags cannot win a game; they only matter to the paper's agents because their
    windows see them. A view with flags is refused.

    Exploration (``epsilon``). While it learns, with probability ``epsilon`` the agent clicks a uniformly random
    covered tile instead (drawn on the run's agent stream, :mod:`sweeper.rng`). Epsilon, and not Thompson sampling
    over an ensemble or a Bayesian last layer, because the feedback is not a bandit's: the end-of-game label is the
    whole mine layout, so every covered tile of every view is labelled, the clicked one or not; nothing is learnt
    only by clicking it, and exploration's one use is to reach views the greedy player would not. Thompson
    sampling would also cost an ensemble's forward passes (K networks) or a posterior over the last layer at every
    decision. The default is greedy (``epsilon=0``), as the paper's best agent is; test games are always greedy.
    """

    label = "neural"

    def __init__(self, channels: int = 32, layers: int = 5, epsilon: float = 0.0, seed: int = 0,
                 mines_left: bool = False, symmetric: bool = False):
        self.channels = whole(channels, "channels", 1)
        self.layers = whole(layers, "layers", 1)
        if self.channels > MAX_CHANNELS or self.layers > MAX_LAYERS:
            raise ValueError(f"a network of at most {MAX_CHANNELS} channels and {MAX_LAYERS} layers, got "
                             f"{self.channels} and {self.layers}")
        if isinstance(epsilon, (bool, np.bool_)) or not isinstance(epsilon, (int, float, np.integer, np.floating)) \
                or not 0.0 <= float(epsilon) <= 1.0:
            raise ValueError(f"epsilon must be a number in [0, 1], got {epsilon!r}")
        self.epsilon = float(epsilon)
        self.init_seed = check_seed(seed)
        self.mines_left = boolean(mines_left, "mines_left")
        self.symmetric = boolean(symmetric, "symmetric")
        self.games = self.decisions = self.updates = 0
        self.boards: list[str] = []
        torch = require_torch()
        with torch.random.fork_rng(devices=[]):  # the initial weights from the seed's own stream only
            torch.manual_seed(int(neural_generator(self.init_seed).integers(2 ** 63)))
            self.net = tile_trunk(torch, CODES + self.mines_left, self.channels, self.layers, head=True)

    def __repr__(self) -> str:
        return (f"NeuralAgent(channels={self.channels}, layers={self.layers}, epsilon={self.epsilon}"
                f"{', mines_left=True' if self.mines_left else ''}{', symmetric=True' if self.symmetric else ''}; "
                f"{self.games:,} games learnt on {'+'.join(self.boards) or 'nothing'})")

    @property
    def name(self) -> str:
        """The agent's name: ``neural{channels}x{layers}``, then ``+mines`` with the mine counter, ``+sym`` for
        symmetric play and ``:{epsilon}`` for a non-zero epsilon (``"neural32x5"``, ``"neural32x5+mines+sym:0.1"``)."""
        return (f"neural{self.channels}x{self.layers}" + ("+mines" if self.mines_left else "")
                + ("+sym" if self.symmetric else "")
                + (f":{self.epsilon:g}" if self.epsilon else ""))

    @property
    def parameters(self) -> int:
        """The number of weights of the network."""
        return int(sum(p.numel() for p in self.net.parameters()))

    # the model --------------------------------------------------------------
    def logits(self, views, pad: bool = True, mines: int | None = None, symmetric: bool | None = None):
        """The network's logits of a batch of checked views: its log-odds that each tile hides a mine.

        The one-hot input is a row of the identity matrix per cell, laid out channels-last
        (``(n, codes, rows, cols)`` with the codes innermost in memory: the layout, and so the convolution's sums,
        of ``one_hot(views).permute(0, 3, 1, 2)``); with the mine counter, one more plane holds the board's mines
        over the view's covered tiles. Gradients are tracked unless torch's inference mode is on.

        Parameters
        ----------
        views : numpy.ndarray
            ``(n, rows, cols)`` int8 cell codes 0-9, as :func:`check_views` returns them (not checked again).
        pad : bool, default True
            Pad fewer than :data:`PLAY_ROWS` views to that many (play: the same logits whatever the batch);
            training passes ``pad=False`` (its gradient sums over exactly its views).
        mines : int, optional
            The board's mines, for a network that reads the mine counter (required then, refused otherwise:
            see :meth:`counter`).
        symmetric : bool, optional
            The mean of the logits over the board's symmetries (the class's Notes); default: the agent's
            ``symmetric``. Learning passes ``False``.

        Returns
        -------
        torch.Tensor
            ``(n, rows, cols)`` float32 logits, one per tile of each view (the padding's rows dropped).

        Raises
        ------
        ValueError
            If ``mines`` is missing for a network that reads the mine counter, given for one that does not, or
            not an integer >= 1; or without the optional extra ``deep`` (torch).
        """
        torch = require_torch()
        self._check_mines(mines)
        if self.symmetric if symmetric is None else symmetric:
            return self._symmetric_logits(torch, views, pad, mines)
        v = torch.from_numpy(np.ascontiguousarray(views))
        n = v.shape[0]
        if pad and n < PLAY_ROWS:
            v = torch.cat([v, v[:1].expand(PLAY_ROWS - n, *v.shape[1:])])
        x = torch.nn.functional.embedding(v.long(), _identity(torch)).permute(0, 3, 1, 2)
        if self.mines_left:
            left = mines / (v == COVERED).sum(dim=(1, 2)).clamp(min=1).float()
            x = torch.cat([x, left.view(-1, 1, 1, 1).expand(-1, 1, *v.shape[1:])], 1)
        return self.net(x)[:n]

    def _symmetric_logits(self, torch, views, pad, mines):
        """The mean of the logits over the views' symmetries: every turned copy in one forward pass, each output
        turned back, summed in the order of the symmetries (so the mean is the same in any batch)."""
        n, rows, cols = views.shape
        turns = range(8 if rows == cols else 4)
        out = self.logits(np.concatenate([turned(views, k) for k in turns]), pad, mines, symmetric=False)
        out = out.detach().numpy()  # no gradient: learning reads each view once
        total = out[:n].copy()
        for i in turns[1:]:
            total += turned(out[i * n:(i + 1) * n], undone(i))
        return torch.from_numpy(total / np.float32(len(turns)))

    def counter(self, mines: int) -> int | None:
        """What :meth:`logits`, :meth:`choose` and :meth:`probabilities` take as ``mines`` on a board of ``mines``
        mines.

        Parameters
        ----------
        mines : int
            The board's mine count.

        Returns
        -------
        int or None
            ``mines`` for a network that reads the mine counter, ``None`` for one that does not.
        """
        return mines if self.mines_left else None

    def _check_mines(self, mines) -> None:
        if self.mines_left and mines is None:
            raise ValueError("this network reads the mine counter (mines_left=True): give the board's mines")
        if not self.mines_left and mines is not None:
            raise ValueError("this network does not read the mine counter (mines_left=False): give no mines")
        if mines is not None:
            whole(mines, "mines", 1)

    def probabilities(self, views, mines: int | None = None) -> np.ndarray:
        """P(mine) the network gives each tile of ``views``.

        Parameters
        ----------
        views : array_like of int
            One ``(rows, cols)`` view or a stack ``(n, rows, cols)`` of them: cell codes 0-8 (revealed numbers)
            and 9 (covered); no flags.
        mines : int, optional
            The board's mines, for a network that reads the mine counter (only then: see :meth:`counter`).

        Returns
        -------
        numpy.ndarray
            float64 of the shape of ``views``: the sigmoid of each tile's logit (revealed tiles get a value too;
            only covered ones mean anything).

        Raises
        ------
        ValueError
            If ``views`` is not a non-empty 2-D or 3-D array of integer codes 0-9 (a flag, code 10, is refused);
            ``mines`` is missing for a network that reads the mine counter, given for one that does not, or not an
            integer >= 1; or without the optional extra ``deep`` (torch).
        """
        v = check_views(views)
        torch = require_torch()
        with torch.inference_mode():
            p = torch.sigmoid(self.logits(v, mines=mines)).double().numpy()
        return p if np.ndim(views) == 3 else p[0]

    def choose(self, views, mines: int | None = None) -> np.ndarray:
        """The greedy choice on each view: the covered tile of lowest logit (ties to the first in row-major order).

        Parameters
        ----------
        views : array_like of int
            One ``(rows, cols)`` view or a stack ``(n, rows, cols)`` of them: cell codes 0-8 (revealed numbers)
            and 9 (covered); no flags.
        mines : int, optional
            The board's mines, for a network that reads the mine counter (only then: see :meth:`counter`).

        Returns
        -------
        numpy.ndarray
            int64 of shape ``(n,)``, ``(1,)`` for a single 2-D view: per view the flat index ``r * cols + c`` of
            the chosen tile, ``-1`` for a view with no covered tile.

        Raises
        ------
        ValueError
            If ``views`` is not a non-empty 2-D or 3-D array of integer codes 0-9 (a flag, code 10, is refused);
            ``mines`` is missing for a network that reads the mine counter, given for one that does not, or not an
            integer >= 1; or without the optional extra ``deep`` (torch).
        """
        v = check_views(views)
        torch = require_torch()
        with torch.inference_mode():
            return lowest(self.logits(v, mines=mines), v)

    # persistence ------------------------------------------------------------
    def copy(self) -> "NeuralAgent":
        """An independent copy of the agent: same architecture, ``epsilon``, ``symmetric``, ``init_seed`` and weights,
        same ``games``, ``decisions``, ``updates`` and ``boards``.

        Returns
        -------
        NeuralAgent
            The copy; training it leaves this agent unchanged.
        """
        other = NeuralAgent(self.channels, self.layers, self.epsilon, self.init_seed, self.mines_left,
                            self.symmetric)
        other.net.load_state_dict(self.net.state_dict())
        other.games, other.decisions, other.updates, other.boards = (self.games, self.decisions, self.updates,
                                                                     list(self.boards))
        return other

    def metadata(self) -> dict:
        """The metadata the agent file stores (see the module docstring).

        Returns
        -------
        dict
            The fields :data:`FIELDS_V2`: ``format``, ``version`` (2), ``agent``, ``channels``, ``layers``,
            ``codes``, ``epsilon``, ``init_seed``, ``games``, ``decisions``, ``updates``, ``boards`` (the agent's
            own list, not a copy) and ``mines_left``; for a symmetric agent :data:`FIELDS`, version 3, with
            ``symmetric`` (true).
        """
        meta = {"format": FORMAT, "version": 3 if self.symmetric else 2, "agent": self.label,
                "channels": self.channels, "layers": self.layers, "codes": CODES, "epsilon": self.epsilon,
                "init_seed": self.init_seed, "games": self.games, "decisions": self.decisions,
                "updates": self.updates, "boards": self.boards, "mines_left": self.mines_left}
        if self.symmetric:
            meta["symmetric"] = True
        return meta

    def file_arrays(self) -> dict:
        """The arrays of the agent's file, in file order (``np.savez_compressed(file, **agent.file_arrays())``).

        Returns
        -------
        dict of str to numpy.ndarray
            One little-endian float32 array per tensor of the network's ``state_dict``, under its name
            (``inp.weight``, ``body.0.bias``, ``head.weight``...), then ``metadata``: a 0-d string array holding
            :meth:`metadata` as JSON.
        """
        arrays = {k: v.detach().numpy().astype("<f4") for k, v in self.net.state_dict().items()}
        return {**arrays, "metadata": np.array(json.dumps(self.metadata()))}

    def save(self, path) -> Path:
        """Write the agent file (see the module docstring) atomically: a unique temporary file in the same
        folder, renamed into place.

        Parameters
        ----------
        path : str or os.PathLike
            Where to write: a new file or a regular one, which is replaced (the name is kept as given: no
            ``.npz`` is added).

        Returns
        -------
        pathlib.Path
            ``path``, written.

        Raises
        ------
        ValueError
            If ``path`` exists and is not a regular file, or is a symbolic link.
        OSError
            If the file cannot be written (a missing or read-only folder, a full disk...).
        """
        path = check_target(path)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        tmp = Path(tmp)
        try:
            with os.fdopen(fd, "wb") as fh:
                np.savez_compressed(fh, **self.file_arrays())
            tmp.replace(path)
        finally:
            tmp.unlink(missing_ok=True)
        return path


_IDENTITY = []


def _identity(torch):
    """The ``CODES x CODES`` float identity matrix (made once): its rows are the one-hot codes."""
    if not _IDENTITY:
        with torch.inference_mode(False):  # a plain tensor, usable in training too
            _IDENTITY.append(torch.eye(CODES))
    return _IDENTITY[0]


def lowest(logits, views) -> np.ndarray:
    """Per view, the flat index of the covered tile of lowest logit (first in row-major order among equals;
    ``-1`` when none is covered): the greedy choice. ``logits`` a torch tensor, ``views`` int8 ``(n, r, c)``."""
    torch = require_torch()
    covered = torch.from_numpy(np.ascontiguousarray(views) == COVERED).flatten(1)
    masked = logits.flatten(1).masked_fill(~covered, math.inf)
    pick = masked.argmin(1).numpy().astype(np.int64)
    pick[~covered.any(1).numpy()] = -1
    return pick


# ------------------------------------------------------------- the file --

def _int_field(meta, path, field, lo, hi):
    v = meta[field]
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ValueError(f"{path}: metadata field {field!r} must be an integer from {lo} to {hi}, got {v!r}")
    return v


def check_format(meta, path, fmt: str, fields) -> None:
    """That a weights file's metadata names the format ``fmt`` and has exactly the fields ``fields``."""
    kind = meta.get("format") if isinstance(meta, dict) else type(meta).__name__
    if kind != fmt:
        raise ValueError(f"{path}: not a {fmt} file (its metadata's 'format' is {kind!r})")
    odd = sorted(set(meta) ^ set(fields))
    if odd:
        raise ValueError(f"{path}: metadata fields {odd} are missing or not part of the format (it has exactly "
                         f"{', '.join(fields)})")


def _check_metadata(meta, path) -> dict:
    version = meta.get("version") if isinstance(meta, dict) else None
    check_format(meta, path, FORMAT, {1: FIELDS_V1, 2: FIELDS_V2}.get(version, FIELDS))
    _int_field(meta, path, "version", 1, FORMAT_VERSION)
    for flag in ("mines_left", "symmetric"):
        if not isinstance(meta.setdefault(flag, False), bool):
            raise ValueError(f"{path}: metadata field {flag!r} must be true or false, got {meta[flag]!r}")
    if meta["agent"] != NeuralAgent.label:
        raise ValueError(f"{path}: metadata field 'agent' must be 'neural', got {meta['agent']!r}")
    _int_field(meta, path, "channels", 1, MAX_CHANNELS)
    _int_field(meta, path, "layers", 1, MAX_LAYERS)
    _int_field(meta, path, "codes", CODES, CODES)
    for f in ("init_seed", "games", "decisions", "updates"):
        _int_field(meta, path, f, 0, 2 ** 64 - 1 if f == "init_seed" else 2 ** 63 - 1)
    e = meta["epsilon"]
    if isinstance(e, bool) or not isinstance(e, (int, float)) or not 0.0 <= e <= 1.0:
        raise ValueError(f"{path}: metadata field 'epsilon' must be a number in [0, 1], got {e!r}")
    b = meta["boards"]
    if not isinstance(b, list) or not all(isinstance(s, str) for s in b):
        raise ValueError(f"{path}: metadata field 'boards' must be a list of board settings, got {b!r}")
    for s in b:
        try:
            Setting.parse(s)
        except ValueError as exc:
            raise ValueError(f"{path}: metadata field 'boards' holds {s!r}, not a board ({exc})") from None
    return meta


def _npy_header(zf, info, path):
    """(shape, dtype) from a member's ``.npy`` header (only the header is decompressed), checked against its
    zip entry's size."""
    name = info.filename[:-4]
    try:
        with zf.open(info) as fh:
            version = np.lib.format.read_magic(fh)
            if version not in ((1, 0), (2, 0)):
                raise ValueError(f"unsupported .npy version {version}")
            read = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
            shape, _, dtype = read(fh, max_header_size=10_000)
            start = fh.tell()
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, NotImplementedError, zlib.error, RuntimeError) as exc:
        raise ValueError(f"{path}: array {name!r} has no valid .npy header ({exc})") from None
    if dtype.hasobject:
        raise ValueError(f"{path}: array {name!r} holds Python objects; agent files hold numbers and text only")
    if info.file_size != start + math.prod(shape) * dtype.itemsize:
        raise ValueError(f"{path}: array {name!r}'s header disagrees with the size of its zip entry")
    return shape, dtype


def read_weights(path, what: str, check_metadata, shapes) -> tuple[dict, dict]:
    """The metadata and the float32 arrays of a weights file (an ``.npz`` of named arrays and one JSON string
    ``metadata``, never a pickle), every part checked before it is used: ``check_metadata(meta, path)`` validates
    the metadata (raising ``ValueError``), ``shapes(meta)`` gives the arrays the file must hold exactly, with their
    shapes, checked from the ``.npy`` headers before any data is decompressed; every weight must be finite.
    ``what`` names the kind of file in messages. Returns ``(meta, {name: array})``."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no {what} file at {path}")
    try:  # an NpzFile: its zip's directory is read, nothing is decompressed yet
        npz = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise ValueError(f"{path} is not a readable {what} file ({exc})") from None
    if not isinstance(npz, np.lib.npyio.NpzFile):
        raise ValueError(f"{path} is not a readable {what} file (a single array, not an .npz archive)")
    with npz:
        zf = npz.zip
        infos = {i.filename: i for i in zf.infolist()}
        meta = _read_metadata(zf, infos, path, what)
        meta = check_metadata(meta, path)
        want = {f"{k}.npy": tuple(v) for k, v in shapes(meta).items()}
        names = set(infos) - {"metadata.npy"}
        if names != set(want):
            odd = sorted(names ^ set(want))
            raise ValueError(f"{path}: the arrays do not match the network its metadata describes (missing or "
                             f"unexpected: {', '.join(odd[:4])})")
        for name, shp in want.items():
            shape, dtype = _npy_header(zf, infos[name], path)
            if shape != shp or dtype != np.dtype("<f4"):
                raise ValueError(f"{path}: array {name[:-4]!r} must be float32 of shape {shp}, got {dtype} of "
                                 f"shape {shape}")
        state = {}
        for name in want:
            try:
                with zf.open(infos[name]) as fh:
                    arr = np.lib.format.read_array(fh, allow_pickle=False)
            except (ValueError, OSError, EOFError, zipfile.BadZipFile, zlib.error, RuntimeError) as exc:
                raise ValueError(f"{path}: array {name[:-4]!r} is damaged or encrypted ({exc})") from None
            if not np.isfinite(arr).all():
                raise ValueError(f"{path}: array {name[:-4]!r} holds weights that are not finite")
            state[name[:-4]] = arr
    return meta, state


def _read_metadata(zf, infos, path, what: str):
    """The JSON of a weights file's single ``metadata`` member (one string, of bounded length)."""
    if "metadata.npy" not in infos or len(infos) != len(zf.infolist()):
        raise ValueError(f"{path} is not a {what} file: no single 'metadata' member")
    shape, dtype = _npy_header(zf, infos["metadata.npy"], path)
    if shape != () or dtype.kind != "U" or dtype.itemsize > 4 * MAX_METADATA_CHARS:
        raise ValueError(f"{path}: 'metadata' must be one string of at most {MAX_METADATA_CHARS:,} characters")
    try:
        with zf.open(infos["metadata.npy"]) as fh:
            text = str(np.lib.format.read_array(fh, allow_pickle=False))
        return json.loads(text, object_pairs_hook=no_repeated_keys)
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, zlib.error, RuntimeError) as exc:
        raise ValueError(f"{path}: metadata is not valid JSON ({exc})") from None
    except RepeatedKey as exc:
        raise ValueError(f"{path}: metadata names {exc} twice") from None


def load_neural(path) -> NeuralAgent:
    """The :class:`NeuralAgent` saved at ``path`` (see the module docstring), every part checked first
    (:func:`read_weights`).

    Parameters
    ----------
    path : str or os.PathLike
        An agent file written by :meth:`NeuralAgent.save` (version 1, 2 or 3 of the format).

    Returns
    -------
    NeuralAgent
        The agent: its architecture, ``epsilon``, ``symmetric`` and ``init_seed`` from the metadata, its weights from
        the arrays, and ``games``, ``decisions``, ``updates`` and ``boards`` as saved.

    Raises
    ------
    ValueError
        If there is no file at ``path``, or it is not a neural agent file: not a readable ``.npz``, metadata
        missing, not JSON or out of range, arrays that do not fit the network the metadata describes, or weights
        that are not finite (the message names the file); or without the optional extra ``deep`` (torch).
    """
    made = {}

    def shapes(meta):
        made["agent"] = NeuralAgent(meta["channels"], meta["layers"], float(meta["epsilon"]), meta["init_seed"],
                                    meta["mines_left"], meta["symmetric"])
        return {k: v.shape for k, v in made["agent"].net.state_dict().items()}

    meta, arrays = read_weights(path, "neural agent", _check_metadata, shapes)
    agent = made["agent"]
    torch = require_torch()
    agent.net.load_state_dict({k: torch.from_numpy(v.copy()) for k, v in arrays.items()})
    agent.games, agent.decisions, agent.updates = meta["games"], meta["decisions"], meta["updates"]
    agent.boards = list(meta["boards"])
    return agent


def as_neural(agent, what: str = "agent") -> NeuralAgent:
    """``agent`` if it is a :class:`NeuralAgent`, else a clear ``ValueError``."""
    if not isinstance(agent, NeuralAgent):
        raise ValueError(f"{what} must be a NeuralAgent (sweeper.agents.neural), got {type(agent).__name__}")
    return agent


__all__ = ["NeuralAgent", "load_neural", "read_weights", "require_torch", "import_extra", "ExtraMissing",
           "check_views", "lowest", "as_neural", "tile_trunk", "REQUIREMENTS", "CODES"]
