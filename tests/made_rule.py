"""The bandit rule of CONTRIBUTING.md's recipe, written as the guide says (parameters first, ``compiled`` last): one
copy for the tests that add it, registered for a test (tests/test_contributing.py) or written from its source into a
scratch copy of the rule library (tests/test_one_registry.py) or of the repository (tests/test_contributing.py, which
follows the recipe to its paper-scale end)."""

from numba import njit

from sweeper.agents import rule_library
from sweeper.agents.custom import Rule


def optimistic(q, n, t, params, rng):
    """Greedy, but an unseen action (N = 0) counts as |Q| = params[0]; flag when Q >= 0."""
    best, pick = -1.0, 0
    for i in range(q.shape[0]):
        v = params[0] if n[i] == 0 else abs(q[i])
        if v > best:
            best, pick = v, i
    return pick, q[pick] >= 0.0


optimistic_nb = njit(cache=False)(optimistic)


def optimistic_rule(c: float = 1.0, compiled: bool = True) -> Rule:
    """The factory exactly as the guide's code block writes it (parameters first, ``compiled`` last)."""
    c = rule_library._positive("c", c, "rule optimistic")
    return Rule(optimistic_nb if compiled else optimistic, {"c": c}, name="optimistic", library=True,
                compile=compiled)
