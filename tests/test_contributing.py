"""CONTRIBUTING.md's recipes, followed as written (temporary registrations, nothing left behind)."""

import re
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from sweeper import RuleAgent, make_agent, train
from sweeper.agents import rule_library
from sweeper.agents.custom import Rule

GUIDE = Path(__file__).resolve().parents[1] / "CONTRIBUTING.md"


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


def test_the_guide_shows_this_factory_shape():
    """The recipe's code block has the parameters first and ``compiled`` last, and names the checking helpers."""
    text = GUIDE.read_text()
    block = re.search(r"```python\n[ ]*(def NAME_rule\(.*?)```", text, re.S)
    assert block, "the bandit-rule recipe's code block is missing"
    head = block.group(1).splitlines()[0].strip()
    assert re.fullmatch(r"def NAME_rule\(c: float = 1\.0, compiled: bool = True\) -> Rule:", head)
    assert "_positive" in block.group(1) and "`_not_negative`" in text


def test_a_rule_added_as_the_guide_says_plays_from_its_spec_and_refuses_a_bad_parameter(monkeypatch):
    monkeypatch.setitem(rule_library.RULES, "optimistic", optimistic_rule)
    agent = make_agent("rule:optimistic:0.3")
    assert agent.rule.name == "optimistic" and agent.rule.params == {"c": 0.3}
    run = train(agent, "8x8x10", 50, seed=1, progress=False)
    assert len(run.records) == 50
    # compiled and plain forms play the same games
    plain = train(RuleAgent(optimistic_rule(0.3, compiled=False)), "8x8x10", 50, seed=1, progress=False)
    assert plain.records.equals(run.records)
    with pytest.raises(ValueError, match="rule optimistic: c must be a number > 0"):
        make_agent("rule:optimistic:-1")
