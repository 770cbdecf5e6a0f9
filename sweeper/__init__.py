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
from .agents.agent import Agent
from .agents.kinds import EpsilonGreedy, Greedy, RuleAgent, Thompson, UCBAgent, load_agent, make_agent
from .agents.state_action import StateAction
from .game.engine import PRESETS, Game, Setting
from .running.episode import Decision, Episode
from .running.training import KernelCalls, Run, evaluate, play, train
from .version import BEHAVIOUR_VERSION, __version__

#: Public names that load their module on first use (PEP 562): the environment imports gymnasium, the benchmark the
#: experiments layer, the neural bandit the optional extra ``deep`` (torch) when it is used.
_LAZY = {"audit": "sweeper.running.belief", "regret": "sweeper.running.regret", "play_solver": "sweeper.running.players",
         "MinesweeperEnv": "sweeper.running.env", "score": "sweeper.experiments.benchmark",
         "NeuralAgent": "sweeper.agents.neural", "load_neural": "sweeper.agents.neural",
         "train_neural": "sweeper.running.neural_play", "NeuralLearning": "sweeper.running.neural_play",
         "evaluate_neural": "sweeper.running.neural_play"}

#: The public API, in the order of the API page (book/api.md, generated from this list).
__all__ = ["Game", "Setting", "PRESETS",
           "train", "evaluate", "play", "KernelCalls", "Run", "Episode", "Decision",
           "make_agent", "load_agent", "Agent", "Greedy", "EpsilonGreedy", "UCBAgent", "Thompson", "StateAction",
           "RuleAgent", "Rule", "RuleError", "key_of", "decode_key", "to_paper_tuple",
           "audit", "regret", "play_solver", "score", "MinesweeperEnv",
           "NeuralAgent", "load_neural", "train_neural", "NeuralLearning", "evaluate_neural",
           "BEHAVIOUR_VERSION", "__version__"]


def __getattr__(name: str):
    if name in _LAZY:
        import importlib
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'sweeper' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
