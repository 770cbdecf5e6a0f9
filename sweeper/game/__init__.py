"""The game: boards and openings, the engine's kernels, exact mine probabilities.

* :mod:`~sweeper.game.grid` -- the padded flat board every kernel works on, and the view's cell codes;
* :mod:`~sweeper.game.engine` -- settings, dealing, reveal with flood fill, flags, :class:`Game`;
* :mod:`~sweeper.game.probability` -- each covered tile's exact probability of hiding a mine.
"""

from .engine import PRESETS, Game, Setting
from .probability import count_layouts, mine_probabilities

__all__ = ["Game", "Setting", "PRESETS", "count_layouts", "mine_probabilities"]
