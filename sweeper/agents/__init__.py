"""The agents' rules: the paper's action model, the value table, the choice and learning kernels.

* :mod:`~sweeper.agents.windows` -- an action is a 3x3 window plus a target; keys and symmetries;
* :mod:`~sweeper.agents.values` -- Q(a) and N(a) of every action met (a growable hash table);
* :mod:`~sweeper.agents.rules` -- the numba kernels: the choice among candidates, flags, delayed learning;
* :mod:`~sweeper.agents.kinds` -- one class per agent (greedy, epsilon-greedy, UCB, Thompson, state-action),
  saving and loading.
"""

from .kinds import (AGENTS, Agent, EpsilonGreedy, Greedy, StateAction, Thompson, UCBAgent, load_agent,
                    make_agent)

__all__ = ["Agent", "Greedy", "EpsilonGreedy", "UCBAgent", "Thompson", "StateAction", "AGENTS", "make_agent",
           "load_agent"]
