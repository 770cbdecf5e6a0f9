"""Bandit Sweeper: the paper "Multi-Armed Bandits for Minesweeper" as a fast, tested package."""

import sys as _sys

if _sys.argv[:1] == ["-m"]:  # `python -m sweeper` is starting: Ctrl-C while it imports is one line too, no traceback
    def _one_line(kind, value, tb, _hook=_sys.excepthook):
        if issubclass(kind, KeyboardInterrupt):
            print("interrupted", file=_sys.stderr)
        else:
            _hook(kind, value, tb)
    _sys.excepthook = _one_line

from . import kernel_cache  # noqa: E402,F401  first: numba's cache must see every kernel source (see its docstring)

from .agents.windows import decode_key, key_of, to_paper_tuple
from .agents.custom import Rule, RuleError
from .agents.kinds import (EpsilonGreedy, Greedy, RuleAgent, StateAction, Thompson, UCBAgent, load_agent,
                           make_agent)
from .game.engine import PRESETS, Game, Setting
from .running.episode import Decision, Episode
from .running.training import Run, evaluate, play, train
from .version import BEHAVIOUR_VERSION, __version__

__all__ = ["Game", "Setting", "PRESETS", "Greedy", "EpsilonGreedy", "UCBAgent", "Thompson", "StateAction", "make_agent",
           "load_agent", "train", "evaluate", "play", "Run", "key_of", "decode_key", "to_paper_tuple", "Episode",
           "Decision", "RuleAgent", "Rule", "RuleError", "BEHAVIOUR_VERSION", "__version__"]
