"""The paper's state-action agent (SA, Section IV-B): greedy over (whole player view, target tile) pairs, for
boards of at most 16 tiles."""

from __future__ import annotations

import numpy as np

from .agent import Agent
from .kernels import SA


class StateAction(Agent):
    """Greedy over (whole player view, target tile) pairs: the paper's state-action agent (spec ``sa``, 4x4 table).

    One candidate per covered unflagged tile, chosen by :class:`Greedy`'s rule. Keys are exact
    base-11 codes of the view, so boards are limited to :attr:`MAX_TILES` (16) tiles, and a table is of one
    board shape: ``shape`` (rows, cols) is set by the first games the agent plays (or given), saved with it, and
    a board of another shape is refused (:meth:`claim`), since its views would be read as views of the other
    shape. The agent has no parameter of its choice: its :meth:`~Agent.params` is the board shape of its
    table, ``{"rows": rows, "cols": cols}`` (``{}`` until it has one), saved in its file; its name is ``sa``,
    or ``sa+noflags`` with invisible flags (the shape is not part of it).

    Parameters
    ----------
    flags : bool, default True
        Place real flags; False: the invisible-flags ablation (see :class:`Agent`).
    symmetric : bool, default False
        Must be false: a whole view has no window symmetries.
    shape : tuple of int, optional
        ``(rows, cols)`` of the boards the table is for, positive integers with at most 16 tiles; None (the
        default): set by the first boards the agent plays.

    Attributes
    ----------
    shape : tuple of int or None
        ``(rows, cols)`` of the table's boards, or None while the agent has not played.
    table : ValueTable
        Q and N of every (view, tile) action met, and the decision count (see :class:`Agent`).
    symmetric : bool
        Always False.
    flags : bool
        The ``flags`` option.
    MAX_TILES : int
        Class attribute: 16, the most tiles of a board the agent can play.
    kind : int
        Class attribute: the kernels' code of the state-action agent.
    label : str
        Class attribute: ``"sa"``.

    Raises
    ------
    ValueError
        If ``symmetric`` is true; ``flags`` is not a bool; or ``shape`` is not a pair of positive integers or
        has more than 16 tiles.
    """

    kind, label = SA, "sa"
    MAX_TILES = 16

    def __init__(self, flags: bool = True, symmetric: bool = False, shape=None):
        if symmetric:
            raise ValueError("the state-action agent has no window symmetries (symmetric=False)")
        super().__init__(symmetric=False, flags=flags)
        self.shape = None if shape is None else _sa_shape(shape)

    def params(self) -> dict:
        """The board shape of the table, once it has one (``rows``, ``cols``): the state-action agent has no
        parameter of its choice."""
        return {} if self.shape is None else {"rows": self.shape[0], "cols": self.shape[1]}

    def _policy_params(self) -> dict:
        return {}

    @property
    def name(self) -> str:
        return "sa" + ("" if self.flags else "+noflags")

    def __repr__(self) -> str:
        return f"StateAction(shape={self.shape!r}, flags={self.flags}; {self.table.actions_recorded} actions recorded)"

    def claim(self, settings, adopt: bool = True) -> None:
        """Check that the agent can play every board of ``settings``, then (``adopt``) make their shape its own.

        Every board must have at most :attr:`MAX_TILES` tiles and the table's shape, or, when the table has no
        shape yet, all the boards must have one shape. Training and :class:`~sweeper.running.episode.Episode`
        call this before the agent plays. No settings: nothing is checked or changed.

        Parameters
        ----------
        settings : iterable of Setting
            The board settings (:class:`~sweeper.game.engine.Setting`) the agent is to play.
        adopt : bool, default True
            Make the boards' shape the agent's :attr:`shape` when all fit (no change if it already has it);
            False only checks.

        Raises
        ------
        ValueError
            If a board has more than 16 tiles or another shape than the table's (or, with no shape yet, than
            the first board's); the message names both shapes. The agent is then left unchanged.
        """
        settings = list(settings)
        for s in settings:
            if s.tiles > self.MAX_TILES:
                raise ValueError(f"the state-action agent handles boards of at most {self.MAX_TILES} tiles, got {s}")
        if not settings:
            return
        want = self.shape or (settings[0].rows, settings[0].cols)
        for s in settings:
            if (s.rows, s.cols) == want:
                continue
            if self.shape is None:
                raise ValueError(f"the state-action agent's table holds the views of one board shape: {settings[0]} "
                                 f"({want[0]}x{want[1]}) and {s} ({s.rows}x{s.cols}) differ")
            raise ValueError(f"the state-action agent's table is of {want[0]}x{want[1]} boards (its keys are whole "
                             f"views of them): it cannot play {s}, a {s.rows}x{s.cols} board")
        if adopt:
            self.shape = want


def _sa_shape(shape) -> tuple[int, int]:
    """``shape`` as (rows, cols) of a board of at most 16 tiles, else ``ValueError``."""
    try:
        rows, cols = shape
    except (TypeError, ValueError):
        raise ValueError(f"shape must be (rows, cols), got {shape!r}") from None
    for v in (rows, cols):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or v < 1:
            raise ValueError(f"shape must be (rows, cols) of positive integers, got {shape!r}")
    if rows * cols > StateAction.MAX_TILES:
        raise ValueError(f"the state-action agent handles boards of at most {StateAction.MAX_TILES} tiles, got the "
                         f"shape {rows}x{cols}")
    return int(rows), int(cols)
