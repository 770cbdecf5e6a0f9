"""A Gymnasium environment for Minesweeper, for teaching.

:class:`MinesweeperEnv` wraps the package's own engine (:mod:`sweeper.game.engine`:
``BoardArrays`` dealt by the ``new_game`` kernel, moves by the ``click`` and
``set_flag`` kernels through :class:`~sweeper.game.engine.Game`) in the standard
Gymnasium API (``reset`` / ``step`` / ``render``), so the usual tools (wrappers,
``check_env``, vector environments, RL libraries) can be used on the very same
game the paper's agents play. Importing this module registers it::

    import gymnasium
    import sweeper.running.env  # registers "sweeper/Minesweeper-v0"
    env = gymnasium.make("sweeper/Minesweeper-v0", board="8x8x10", render_mode="ansi")
    # or, without the import: gymnasium.make("sweeper.running.env:sweeper/Minesweeper-v0")

The environment is for teaching and for trying policies by hand: every step is
a Python call. Training the bandit agents uses the numba kernels directly
(:func:`sweeper.train`, :func:`sweeper.evaluate`), which run whole games
without leaving compiled code and are orders of magnitude faster.

Players of the environment (the solver, a trained bandit agent, random clicks) and the
episode loop live in :mod:`sweeper.running.policies`; :func:`action_mask` gives the valid
actions of an observation.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields

import gymnasium
import numpy as np
from gymnasium import spaces

from ..checks import whole
from ..game.grid import COVERED, EXPLODED, FLAG, OUT, padded_index
from ..game.engine import (LOST, NFL, ONGOING, REV, ST, STATUS, WON, Board, Game, Setting, check_layout, clear_changes,
                           new_game, with_openings)
from ..rng import STREAM_BOARDS, check_seed, make_state

ENV_ID = "sweeper/Minesweeper-v0"
#: Pixels per tile side in ``rgb_array`` renderings.
TILE_PX = 16

__all__ = ["ENV_ID", "MinesweeperEnv", "Rewards", "action_mask", "render_rgb", "TILE_PX"]


# ----------------------------------------------------------------- rewards --

@dataclass(frozen=True)
class Rewards:
    """The reward scheme of :class:`MinesweeperEnv` (every value a finite float).

    ``win``      added on the step that wins the game (every safe tile revealed);
    ``loss``     on the step that clicks a mine;
    ``reveal``   per safe tile newly revealed by a click (the flood fill counts;
                 the opening move does not);
    ``invalid``  for an invalid action (a no-op, see :class:`MinesweeperEnv`);
    ``step``     added to every step (0 by default; a small negative value makes
                 stalling, e.g. toggling flags forever, cost something).

    Named schemes: ``"sparse"`` (default: win +1, loss -1, reveal 0, invalid -0.1,
    step 0: a valid-moves-only episode returns exactly +1 or -1, so the mean
    return is ``2 * win_rate - 1``) and ``"progress"`` (as sparse, plus
    ``1 / safe tiles`` per revealed tile: a denser signal, summing to less than 1).
    """

    win: float = 1.0
    loss: float = -1.0
    reveal: float = 0.0
    invalid: float = -0.1
    step: float = 0.0

    def __post_init__(self):
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) \
                    or not math.isfinite(v):
                raise ValueError(f"reward {f.name!r} must be a finite number, got {v!r}")
            object.__setattr__(self, f.name, float(v))

    @classmethod
    def parse(cls, spec, setting: Setting) -> "Rewards":
        """A :class:`Rewards` from ``"sparse"``, ``"progress"``, a mapping of overrides
        of the sparse values (e.g. ``{"reveal": 0.01}``) or a :class:`Rewards`."""
        if spec is None or (isinstance(spec, str) and spec == "sparse"):
            return cls()
        if isinstance(spec, cls):
            return spec
        if isinstance(spec, str) and spec == "progress":
            return cls(reveal=1.0 / (setting.tiles - setting.mines))
        if isinstance(spec, Mapping):
            names = {f.name for f in fields(cls)}
            unknown = set(spec) - names
            if unknown:
                raise ValueError(f"unknown reward names {sorted(unknown)}; known: {sorted(names)}")
            return cls(**spec)
        raise ValueError(f"rewards must be 'sparse', 'progress', a mapping or a Rewards, got {spec!r}")


# ---------------------------------------------------------- action masks --

def action_mask(obs, flags: bool = False) -> np.ndarray:
    """The valid actions of an observation, as Gymnasium masks them (``int8``, 1 = valid).

    Clicks (actions ``0 .. rows*cols-1``) are valid on covered, unflagged tiles;
    with ``flags`` the second half (flag toggles) is valid on covered or flagged
    tiles. The observation alone cannot tell a won game (covered mines remain):
    use ``info["action_mask"]``, which is all zeros once the game is over.
    Use it as ``env.action_space.sample(mask=info["action_mask"])``."""
    obs = np.asarray(obs).ravel()
    click_ok = obs == COVERED
    if not flags:
        return click_ok.astype(np.int8)
    return np.concatenate([click_ok, click_ok | (obs == FLAG)]).astype(np.int8)


# --------------------------------------------------------------- drawing --

_FONT = {  # 3x5 digits, scaled x2 in the tiles
    1: (".#.", "##.", ".#.", ".#.", "###"), 2: ("###", "..#", "###", "#..", "###"),
    3: ("###", "..#", ".##", "..#", "###"), 4: ("#.#", "#.#", "###", "..#", "..#"),
    5: ("###", "#..", "###", "..#", "###"), 6: ("###", "#..", "###", "#.#", "###"),
    7: ("###", "..#", ".#.", ".#.", ".#."), 8: ("###", "#.#", "###", "#.#", "###"),
}
#: Classic Minesweeper colours of the numbers 1-8.
NUMBER_RGB = {1: (0, 0, 255), 2: (0, 128, 0), 3: (255, 0, 0), 4: (0, 0, 128), 5: (128, 0, 0),
              6: (0, 128, 128), 7: (0, 0, 0), 8: (128, 128, 128)}
_REVEALED_RGB, _GRID_RGB = (224, 224, 224), (160, 160, 160)
_COVERED_RGB, _LIGHT_RGB, _DARK_RGB = (176, 176, 176), (240, 240, 240), (112, 112, 112)


def _tile_images(px: int = TILE_PX) -> np.ndarray:
    """``img[code]``: the ``px x px x 3`` picture of each cell code 0..12."""
    img = np.zeros((13, px, px, 3), dtype=np.uint8)
    yy, xx = np.mgrid[0:px, 0:px]
    for code in range(9):  # revealed numbers
        img[code] = _REVEALED_RGB
        img[code, 0, :] = _GRID_RGB
        img[code, :, 0] = _GRID_RGB
        if code:
            glyph = np.array([[ch == "#" for ch in row] for row in _FONT[code]])
            big = np.kron(glyph, np.ones((2, 2), dtype=bool))  # 10 x 6
            r0, c0 = (px - 10) // 2 + 1, (px - 6) // 2 + 1
            img[code, r0:r0 + 10, c0:c0 + 6][big] = NUMBER_RGB[code]
    covered = np.zeros((px, px, 3), dtype=np.uint8)
    covered[:] = _COVERED_RGB
    covered[(yy < 2) | (xx < 2)] = _LIGHT_RGB  # raised bevel
    covered[(yy >= px - 2) | (xx >= px - 2)] = _DARK_RGB
    img[COVERED] = covered
    flag = covered.copy()
    m = px // 16
    flag[3 * m:13 * m, 8 * m:9 * m] = (0, 0, 0)  # pole
    flag[12 * m:13 * m, 5 * m:12 * m] = (0, 0, 0)  # foot
    # a red pennant pointing left from the pole: rows 3..9, up to 5 px wide in its middle row
    tri = (yy >= 3 * m) & (yy <= 9 * m) & (xx < 8 * m) & (8 * m - xx <= 5 * m * (1 - np.abs(yy - 6 * m) / (4 * m)))
    flag[tri] = (255, 0, 0)
    img[FLAG] = flag
    img[OUT] = 0
    boom = np.zeros((px, px, 3), dtype=np.uint8)
    boom[:] = (255, 0, 0)
    c = (px - 1) / 2
    boom[(yy - c) ** 2 + (xx - c) ** 2 <= (px * 0.3) ** 2] = (0, 0, 0)  # the mine
    boom[(yy - c + 1.5) ** 2 + (xx - c + 1.5) ** 2 <= 1.5] = (255, 255, 255)  # its shine
    img[EXPLODED] = boom
    return img


_TILES = _tile_images()


def render_rgb(obs) -> np.ndarray:
    """An observation drawn as an ``(rows*16, cols*16, 3)`` ``uint8`` image (numpy only)."""
    obs = np.asarray(obs, dtype=np.int64)
    rows, cols = obs.shape
    return _TILES[obs].transpose(0, 2, 1, 3, 4).reshape(rows * TILE_PX, cols * TILE_PX, 3).copy()


# ------------------------------------------------------------ environment --

@with_openings
class MinesweeperEnv(gymnasium.Env):
    """Minesweeper on the engine of :mod:`sweeper` (the paper's game), as a Gymnasium environment.

    Description
    -----------
    A ``rows x cols`` board hides ``mines`` mines. Clicking a covered tile that
    hides a mine loses; clicking a safe tile reveals the number of mines among
    its 8 neighbours, and a revealed 0 opens its neighbours recursively (flood
    fill). The game is won when every safe tile is revealed. Flags only mark
    tiles (the game neither needs nor checks them, and does not limit their
    number). The rules are the engine's own kernels, not a copy: see
    :mod:`sweeper.game.engine`. From the paper *Multi-Armed Bandits for
    Minesweeper: Profiting from Exploration-Exploitation Synergy* (Lordeiro,
    Haddad, Cardoso), which learns from 3x3 windows of this very view.

    This environment is for teaching: every step is a Python call. The paper's
    agents are trained with the compiled kernels (:func:`sweeper.train`), and
    :func:`bandit_policy` lets a trained agent play here.

    Action Space
    ------------
    ``Discrete(rows*cols)``: action ``a = r*cols + c`` clicks tile ``(r, c)``.
    With ``flags=True``: ``Discrete(2*rows*cols)``, where ``rows*cols + r*cols + c``
    toggles a flag on tile ``(r, c)`` (places it on a covered tile, removes it
    from a flagged one).

    *Invalid actions* never raise: clicking a revealed or flagged tile, or
    toggling a flag on a revealed tile, changes nothing, gives the
    ``invalid`` reward (default -0.1) and sets ``info["invalid"] = True``.
    ``info["action_mask"]`` lists the valid actions (see :func:`action_mask`), and so does the method
    :meth:`action_masks` (booleans), which maskable policies such as sb3-contrib's ``MaskablePPO`` call.
    Stepping a finished episode is also a no-op (reward 0, ``invalid``);
    call :meth:`reset`. Only an action outside the action space raises
    ``ValueError``.

    Observation Space
    -----------------
    ``Box(0, 12, (rows, cols), int8)``: the player's view in the cell codes of
    :mod:`sweeper.agents.windows`: ``0-8`` a revealed number, ``9`` covered, ``10``
    flagged, ``12`` the exploded mine (only after a loss). Code ``11`` (out of
    board) is used by the agents' windows and never appears here. Mines are
    never shown.

    Starting State
    --------------
    A new board, mines drawn by the engine's ``new_game`` kernel from a
    :mod:`sweeper.rng` stream, then the opening move of the ``opening`` rule,
    a row of :data:`~sweeper.game.engine.OPENING_TABLE`: {openings}.
    The reference opening is the paper's code: the game opens the first 0 tile
    itself, column by column (if there is none, nothing is revealed). The
    {first_openings} openings deal the mines outside a square around
    ``first`` (its radius is the row's ``guard``: 0, ``first`` alone, never a
    mine; 1, its 3x3 square, so that ``first`` is a 0), then click ``first``.

    Seeding follows Gymnasium: ``reset(seed=s)`` seeds ``self.np_random``, from
    which each reset draws a 63-bit board seed for
    ``make_state(board_seed, STREAM_BOARDS)``; so the same seed gives the same
    sequence of boards. ``info["board_seed"]`` is that seed: the same board is
    ``sweeper.Game(board, seed=info["board_seed"], opening=..., first=...)``.
    ``reset`` options: ``{"board_seed": s}`` deals exactly the board of
    ``Game(board, seed=s)`` (and of ``Episode(agent, board, seed=s)``);
    ``{"mines": layout}`` plays a given 2-D boolean mine layout.

    Rewards
    -------
    See :class:`Rewards` (the ``rewards`` argument). Default ``"sparse"``:
    +1 on the winning step, -1 on the losing step, 0 for other valid steps,
    -0.1 for an invalid action. A valid-moves-only episode thus returns +1
    (won) or -1 (lost). ``"progress"`` adds ``1/safe tiles`` per newly revealed
    safe tile. Note that with ``flags=True`` toggling flags is free by default:
    an agent that never clicks scores 0 until truncation, better than a likely
    -1 (a classic reward hack; a negative ``step`` reward removes it).

    Episode End
    -----------
    *Termination*: the game is won or lost. *Truncation*: after ``max_steps``
    steps (default ``4 * rows * cols``, more than any valid game needs: each
    tile is at most flagged, unflagged and clicked). On degenerate boards the
    opening move may already win (e.g. no mines): ``reset`` then returns
    ``info["status"] == "won"`` and an all-zero mask.

    Information
    -----------
    ``reset`` and ``step`` return ``info`` with ``status`` (``"ongoing"``,
    ``"won"``, ``"lost"``), ``revealed`` (safe tiles revealed), ``safe_tiles``,
    ``mines``, ``flags`` (flags on the board), ``steps``, ``invalid`` (the
    step's action was invalid), ``action_mask`` (``int8``, all zeros once the
    game is over) and ``board_seed`` (``None`` for a given layout).

    Parameters
    ----------
    board : str or Setting, default "8x8x10"
        ``"8x8x10"`` (rows x cols x mines), a preset (``"beginner"``, ``"intermediate"``, ``"expert"``) or a
        :class:`~sweeper.game.engine.Setting`.
    opening : str, default "reference"
        {openings}.
    first : tuple of int, optional
        ``(row, col)`` of the first click for the {first_openings} openings (default {first_default}).
    flags : bool, default False
        Whether the action space includes flag toggles.
    rewards : str, mapping or Rewards, default "sparse"
        ``"sparse"``, ``"progress"``, a mapping of overrides of the sparse values (e.g.
        ``{"reveal": 0.01}``) or a :class:`Rewards`.
    max_steps : int, optional
        The truncation limit, a positive integer (``None``: ``4 * rows * cols``).
    render_mode : str, optional
        ``None``, ``"ansi"`` (the text of :meth:`sweeper.game.engine.Game.render`: ``#``
        covered, ``F`` flag, ``*`` exploded mine, ``.`` zero; then a status line) or
        ``"rgb_array"`` (an ``(rows*16, cols*16, 3)`` ``uint8`` image: covered tiles
        raised grey, numbers in their classic colours, flags red, the exploded mine
        black on red).

    Attributes
    ----------
    setting : Setting
        The board setting.
    opening : str
        The opening, as given.
    first : tuple of int or None
        The first click, as given.
    flags : bool
        Whether the action space includes flag toggles.
    rewards : Rewards
        The reward scheme.
    max_steps : int
        The truncation limit.
    render_mode : str or None
        ``None``, ``"ansi"`` or ``"rgb_array"``.
    n_tiles : int
        ``rows * cols``: the number of click actions (and of flag actions with ``flags=True``).
    observation_space : gymnasium.spaces.Box
        ``Box(0, 12, (rows, cols), int8)`` (see Observation Space).
    action_space : gymnasium.spaces.Discrete
        ``Discrete(rows*cols)``, or ``Discrete(2*rows*cols)`` with ``flags=True`` (see Action Space).
    np_random : numpy.random.Generator
        Gymnasium's generator, seeded by ``reset(seed=...)``, from which each reset draws its board seed.
    metadata : dict
        Gymnasium's metadata: the ``render_modes`` (``"ansi"``, ``"rgb_array"``) and ``render_fps`` (4).

    Raises
    ------
    ValueError
        If ``render_mode`` is not None, ``"ansi"`` or ``"rgb_array"``; ``flags`` is not a bool; the board
        setting does not parse or cannot hold its mines; ``rewards`` is none of the above, names an unknown
        reward or gives one that is not a finite number; ``max_steps`` is not a positive integer; or
        ``opening`` or ``first`` is invalid.

    Version History
    ---------------
    * v0: initial version.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(self, board="8x8x10", opening: str = "reference", first=None, flags: bool = False,
                 rewards="sparse", max_steps: int | None = None, render_mode: str | None = None):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, "
                             f"got {render_mode!r}")
        if not isinstance(flags, (bool, np.bool_)):
            raise ValueError(f"flags must be a boolean, got {flags!r}")
        self.setting = s = Setting.parse(board)
        self.opening, self.first = opening, first
        self.flags = bool(flags)
        self.rewards = Rewards.parse(rewards, s)
        if max_steps is None:
            max_steps = 4 * s.tiles
        self.max_steps = whole(max_steps, "max_steps", 1)
        self.render_mode = render_mode
        # the engine's Python face over its Board: validated opening, click/set_flag kernels, text view
        self._game = Game(s, seed=0, opening=opening, first=first)
        self.n_tiles = s.tiles
        self.observation_space = spaces.Box(low=0, high=EXPLODED, shape=(s.rows, s.cols), dtype=np.int8)
        self.action_space = spaces.Discrete(2 * s.tiles if self.flags else s.tiles)
        self._steps = 0
        self._board_seed = None
        self._started = False

    # -- state -----------------------------------------------------------------
    @property
    def board(self) -> Board:
        """The engine's arrays of the game in progress (read them, don't write them)."""
        return self._game.board

    @property
    def status(self) -> str:
        """The game's status: ``"ongoing"``, ``"won"`` or ``"lost"`` (as ``info["status"]``)."""
        return self._game.status

    @property
    def mines(self) -> np.ndarray:
        """The hidden mine layout (for inspection and teaching; agents must not peek)."""
        return self._game.mines

    def _obs(self) -> np.ndarray:
        return self._game.view.astype(np.int8)

    def _info(self, invalid: bool = False) -> dict:
        gs = self.board.gs
        done = gs[ST] != ONGOING
        mask = np.zeros(self.action_space.n, np.int8) if done else action_mask(self._obs(), self.flags)
        s = self.setting
        return {"status": STATUS[int(gs[ST])], "revealed": int(gs[REV]), "safe_tiles": s.tiles - s.mines,
                "mines": s.mines, "flags": int(gs[NFL]), "steps": self._steps, "invalid": bool(invalid),
                "action_mask": mask, "board_seed": self._board_seed}

    # -- API -------------------------------------------------------------------
    def action_masks(self) -> np.ndarray:
        """The valid actions now, as booleans: the method that maskable policies look for (sb3-contrib's
        ``MaskablePPO`` calls it, through Gymnasium's wrappers, before each step).

        Returns
        -------
        numpy.ndarray
            One bool per action, the same mask as ``info["action_mask"]`` (all False once the game is over).

        Raises
        ------
        RuntimeError
            If :meth:`reset` has not been called.
        """
        if not self._started:
            raise RuntimeError("call reset() before action_masks()")
        return self._info()["action_mask"].astype(bool)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Deal a new board and make the opening move; returns ``(observation, info)``.

        Parameters
        ----------
        seed : int, optional
            Seeds ``self.np_random`` (Gymnasium's rule), from which the board seed is drawn.
        options : dict, optional
            ``{"board_seed": s}`` (the board of ``Game(board, seed=s)``) or
            ``{"mines": layout}`` (a 2-D boolean layout); otherwise the board seed is
            drawn from ``self.np_random``.

        Returns
        -------
        observation : numpy.ndarray
            The view, ``(rows, cols)`` ``int8`` cell codes.
        info : dict
            ``status``, ``revealed``, ``safe_tiles``, ``mines``, ``flags``, ``steps``, ``invalid``,
            ``action_mask`` and ``board_seed`` (see the class's Information section).

        Raises
        ------
        ValueError
            If ``options`` has a key other than ``board_seed`` and ``mines``, or both; ``board_seed`` is not
            an integer in ``[0, 2**64)``; or the layout does not have the setting's shape and mine count or
            does not agree with the opening.
        gymnasium.error.Error
            If Gymnasium refuses ``seed`` (not a non-negative integer).
        """
        super().reset(seed=seed)
        options = dict(options or {})
        unknown = set(options) - {"board_seed", "mines"}
        if unknown:
            raise ValueError(f"unknown reset options {sorted(unknown)}; known: board_seed, mines")
        if "board_seed" in options and "mines" in options:
            raise ValueError("give either options['board_seed'] or options['mines'], not both")
        s, b = self.setting, self.board
        layout = np.zeros(0, dtype=np.uint8)
        if "mines" in options:
            layout = check_layout(options["mines"], s, self.opening, self.first)
            self._board_seed = None
        elif "board_seed" in options:
            self._board_seed = check_seed(options["board_seed"])
        else:
            # 63 random bits: a valid make_state seed that also fits int64 (vector envs stack infos)
            self._board_seed = int(self.np_random.integers(0, 2 ** 63))
        rng = make_state(0 if self._board_seed is None else self._board_seed, STREAM_BOARDS)
        new_game(b, rng, layout)
        clear_changes(b)  # the change log only matters to the agents' kernels (as Game does after a move)
        self._steps = 0
        self._started = True
        return self._obs(), self._info()

    def step(self, action):
        """Click (or, in the second half of a flags action space, toggle a flag on) one tile;
        returns ``(observation, reward, terminated, truncated, info)``.

        Parameters
        ----------
        action : int
            ``r*cols + c`` clicks tile ``(r, c)``; with ``flags=True``, ``rows*cols + r*cols + c`` toggles a
            flag on it. An invalid action (a revealed or flagged tile clicked, a revealed tile's flag toggled)
            is a no-op with the ``invalid`` reward.

        Returns
        -------
        observation : numpy.ndarray
            The view after the step, ``(rows, cols)`` ``int8`` cell codes.
        reward : float
            The step's reward (see :class:`Rewards`).
        terminated : bool
            The game is won or lost.
        truncated : bool
            ``max_steps`` steps were taken and the game goes on.
        info : dict
            As :meth:`reset` gives it, with ``invalid`` the step's.

        Raises
        ------
        RuntimeError
            If :meth:`reset` has not been called.
        ValueError
            If ``action`` is outside the action space.
        """
        if not self._started:
            raise RuntimeError("call reset() before step()")
        if not self.action_space.contains(action):
            raise ValueError(f"action must be an integer in [0, {self.action_space.n}), got {action!r}")
        action = int(action)
        gs, n, rw = self.board.gs, self.n_tiles, self.rewards
        if gs[ST] != ONGOING or self._steps >= self.max_steps:  # stepping a finished episode
            over = bool(gs[ST] != ONGOING)
            return self._obs(), 0.0, over, not over, self._info(True)
        self._steps += 1
        toggle, t = action >= n, action % n
        r, c = divmod(t, self.setting.cols)
        v = int(self.board.shown[padded_index(r, c, self.setting.cols)])
        reward = rw.step
        invalid = (v not in (COVERED, FLAG)) if toggle else (v != COVERED)
        if invalid:
            reward += rw.invalid
        elif toggle:
            self._game.toggle_flag(r, c)
        else:
            before = int(gs[REV])
            self._game.click(r, c)
            reward += rw.reveal * (int(gs[REV]) - before)
            if gs[ST] == WON:
                reward += rw.win
            elif gs[ST] == LOST:
                reward += rw.loss
        terminated = bool(gs[ST] != ONGOING)
        truncated = bool(not terminated and self._steps >= self.max_steps)
        return self._obs(), float(reward), terminated, truncated, self._info(invalid)

    def render(self):
        """The board as text (``"ansi"``) or as an image (``"rgb_array"``).

        Returns
        -------
        str, numpy.ndarray or None
            The text, the ``(rows*16, cols*16, 3)`` ``uint8`` image, or None (with Gymnasium's warning)
            without a ``render_mode``.
        """
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: pass render_mode='ansi' or "
                                  "'rgb_array' when creating the environment")
            return None
        if self.render_mode == "ansi":
            s = self.setting
            gs = self.board.gs
            return (self._game.render() + f"\n{self.status}: {int(gs[REV])}/{s.tiles - s.mines} safe tiles "
                    f"revealed, {int(gs[NFL])} flags, {s.mines} mines\n")
        return render_rgb(self._obs())

    def __repr__(self) -> str:
        return (f"MinesweeperEnv({self.setting}, opening={self.opening!r}, flags={self.flags}, "
                f"render_mode={self.render_mode!r})")


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="sweeper.running.env:MinesweeperEnv")
