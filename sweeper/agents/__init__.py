"""The agents: the paper's action model, the value table, the choice and learning kernels.

* :mod:`~sweeper.agents.windows` -- an action is a 3x3 window plus a target; keys and symmetries;
* :mod:`~sweeper.agents.values` -- Q(a) and N(a) of every action met (a growable hash table);
* :mod:`~sweeper.agents.kernels` -- the numba kernels: the choice among candidates, flags, delayed learning;
* :mod:`~sweeper.agents.kinds` -- one class per agent (greedy, epsilon-greedy, UCB, Thompson, state-action,
  a plug-in rule), saving and loading;
* :mod:`~sweeper.agents.neural` -- the neural contextual bandit: a fully convolutional network's P(mine | view)
  (imported on demand: it needs the optional extra ``deep``);
* :mod:`~sweeper.agents.custom` -- write your own bandit: the plug-in choice rule's contract;
* :mod:`~sweeper.agents.rule_library` -- rules written to that contract (greedy and UCB re-stated, decaying
  epsilon, softmax, UCB1).
"""

from .custom import Rule, RuleError
from .kinds import (AGENTS, Agent, EpsilonGreedy, Greedy, RuleAgent, StateAction, Thompson, UCBAgent, load_agent,
                    make_agent)

__all__ = ["Agent", "Greedy", "EpsilonGreedy", "UCBAgent", "Thompson", "StateAction", "RuleAgent", "Rule",
           "RuleError", "AGENTS", "make_agent", "load_agent"]
