"""Choice rules written against the plug-in contract of :mod:`sweeper.agents.custom`.

Each rule is one plain NumPy function that numba can also compile: the ``*_rule``
functions at the bottom wrap the compiled version (``njit``) for speed, and the
plain function itself can be given to :class:`~sweeper.agents.custom.Rule` to run
the same rule as Python code. Two of them re-state built-in agents and play their
games exactly (``tests/test_custom.py``); the others are textbook rules the paper
did not try, and two more read the paper's no-flags ablation ("just avoided risky
tiles instead of explicitly flagging them", Section V-A) as agents that never flag.
Each function's docstring states its rule:

``greedy``
    The paper's greedy agent.
``ucb``
    The paper code's UCB(c), its ``give_up`` too (:func:`ucb_give_up`).
``decaying_epsilon``
    epsilon-greedy with epsilon_t = min(1, c / t), falling as 1/t over the agent's life.
``softmax``
    Boltzmann exploration over certainty, at temperature tau.
``ucb1``
    Textbook UCB1 (Auer, Cesa-Bianchi and Fischer, 2002) on certainty.
``safest``
    Greedy without flags.
``ucb_safest``
    UCB(c) without flags.
"""

from __future__ import annotations

import importlib
import inspect
import math

import numpy as np
from numba import njit
from numba.extending import register_jitable

from .custom import Rule


@register_jitable  # callable from plain Python and from compiled rules alike
def greedy(q, n, t, params, rng):
    """Largest |Q|, then largest N, then first in scan order; flag when Q >= 0."""
    a = np.abs(q)
    top = np.flatnonzero(a == a.max())
    i = top[np.argmax(n[top])]
    return i, q[i] >= 0.0


@register_jitable
def ucb_scores(q, n, t, c, unseen):
    """The paper code's UCB score of each candidate (``unseen`` where N = 0)."""
    score = np.full(q.shape[0], unseen)
    seen = n > 0
    qs = q[seen]
    score[seen] = qs + np.sign(qs) * c * np.sqrt(math.log(t) / n[seen])
    return score


def ucb(q, n, t, params, rng):
    """The largest |Q + sign(Q) c sqrt(ln t / N)| (unseen: -1e10), ties to the last; flag when >= 0."""
    score = ucb_scores(q, n, t, params[0], -1e10)
    a = np.abs(score)
    i = a.shape[0] - 1 - np.argmax(a[::-1])
    return i, score[i] >= 0.0


def ucb_give_up(q, n, t, params):
    """The flag whose window has the lowest UCB score (unseen: -1), the last on ties."""
    score = ucb_scores(q, n, t, params[0], -1.0)
    return score.shape[0] - 1 - np.argmin(score[::-1])


def decaying_epsilon(q, n, t, params, rng):
    """With probability min(1, c / t) a uniformly random candidate, otherwise greedy.

    epsilon-greedy with epsilon_t = min(1, c / t): it explores a uniformly random candidate (click or flag by the
    sign of its Q) with a probability that falls as 1/t over the agent's life (t counts decisions)."""
    if rng.random() < min(1.0, params[0] / t):
        i = rng.integers(0, q.shape[0])
        return i, q[i] >= 0.0
    return greedy(q, n, t, params, rng)


def softmax(q, n, t, params, rng):
    """Candidate i with probability proportional to exp(|Q_i| / tau); flag when Q_i >= 0."""
    a = np.abs(q)
    w = np.exp((a - a.max()) / params[0])
    cum = np.cumsum(w)
    i = min(np.searchsorted(cum, rng.random() * cum[-1], side="right"), q.shape[0] - 1)
    return i, q[i] >= 0.0


def ucb1(q, n, t, params, rng):
    """Unseen candidates first (first in scan order), then the largest |Q| + c sqrt(2 ln t / N)."""
    unseen = np.flatnonzero(n == 0)
    if unseen.shape[0] > 0:
        i = unseen[0]
        return i, q[i] >= 0.0
    score = np.abs(q) + params[0] * np.sqrt(2.0 * math.log(t) / n)
    i = np.argmax(score)
    return i, q[i] >= 0.0


def safest(q, n, t, params, rng):
    """Never flag: the lowest Q, then the larger N, then the first in scan order.

    Greedy without flags: always click, the candidate with the lowest Q (the surest click). Whenever the greedy
    agent clicks, it clicks the same candidate."""
    top = np.flatnonzero(q == q.min())
    return top[np.argmax(n[top])], False


def ucb_safest(q, n, t, params, rng):
    """Never flag: the lowest UCB score (unseen: -1e10), ties to the last.

    UCB(c) without flags: always click, the candidate with the lowest UCB score (unseen actions come first).
    Whenever the UCB agent clicks, it clicks the same candidate."""
    score = ucb_scores(q, n, t, params[0], -1e10)
    return score.shape[0] - 1 - np.argmin(score[::-1]), False


greedy_nb = njit(cache=True)(greedy)
ucb_nb = njit(cache=True)(ucb)
ucb_give_up_nb = njit(cache=True)(ucb_give_up)
decaying_epsilon_nb = njit(cache=True)(decaying_epsilon)
softmax_nb = njit(cache=True)(softmax)
ucb1_nb = njit(cache=True)(ucb1)
safest_nb = njit(cache=True)(safest)
ucb_safest_nb = njit(cache=True)(ucb_safest)


def _positive(name: str, value: float, what: str) -> float:
    """A library rule's parameter must be a finite number > 0 (else ``ValueError`` naming the rule)."""
    v = float(value)
    if not math.isfinite(v) or v <= 0:
        raise ValueError(f"{what}: {name} must be a number > 0, got {value!r}")
    return v


def _not_negative(name: str, value: float, what: str) -> float:
    v = float(value)
    if not math.isfinite(v) or v < 0:
        raise ValueError(f"{what}: {name} must be a number >= 0, got {value!r}")
    return v


def greedy_rule(compiled: bool = True) -> Rule:
    return Rule(greedy_nb if compiled else greedy, name="greedy", library=True, compile=compiled)


def ucb_rule(c: float = 0.1, compiled: bool = True) -> Rule:
    c = _not_negative("c", c, "rule ucb")
    return Rule(ucb_nb if compiled else ucb, {"c": c}, give_up=ucb_give_up_nb if compiled else ucb_give_up,
                name="ucb", library=True, compile=compiled)


def decaying_epsilon_rule(c: float = 1000.0, compiled: bool = True) -> Rule:
    c = _positive("c", c, "rule decaying-eps")
    return Rule(decaying_epsilon_nb if compiled else decaying_epsilon, {"c": c}, name="decaying-eps", library=True, compile=compiled)


def softmax_rule(tau: float = 0.05, compiled: bool = True) -> Rule:
    tau = _positive("tau", tau, "rule softmax")  # tau = 0 divides by zero, tau < 0 inverts the preference
    return Rule(softmax_nb if compiled else softmax, {"tau": tau}, name="softmax", library=True, compile=compiled)


def ucb1_rule(c: float = 1.0, compiled: bool = True) -> Rule:
    c = _not_negative("c", c, "rule ucb1")
    return Rule(ucb1_nb if compiled else ucb1, {"c": c}, name="ucb1", library=True, compile=compiled)


def safest_rule(compiled: bool = True) -> Rule:
    return Rule(safest_nb if compiled else safest, name="safest", library=True, compile=compiled)


def ucb_safest_rule(c: float = 0.1, compiled: bool = True) -> Rule:
    c = _not_negative("c", c, "rule ucb-safest")
    return Rule(ucb_safest_nb if compiled else ucb_safest, {"c": c}, name="ucb-safest", library=True, compile=compiled)


#: Named rules for agent specs ``rule:NAME[:P1,...]``: name -> function returning a fresh compiled Rule.
RULES = {"greedy": greedy_rule, "ucb": ucb_rule, "decaying-eps": decaying_epsilon_rule, "softmax": softmax_rule,
         "ucb1": ucb1_rule, "safest": safest_rule, "ucb-safest": ucb_safest_rule}
#: The rules of :data:`RULES` that the book trains beside the paper's agents, with their factory's defaults, and
#: their names on its pages: ``name -> title``. The one list every experiment and page of them reads
#: (:func:`book_rules`: chapter "Write your own bandit", the leaderboard, the regret chapter's labels).
BOOK_RULES = {"decaying-eps": "decaying ε", "softmax": "softmax", "ucb1": "UCB1"}


def book_rules() -> tuple:
    """The agent specs of :data:`BOOK_RULES`, in order: ``rule:NAME:P1,...`` with the factory's default parameters
    (``rule:softmax:0.05``), ``rule:NAME`` for a rule without any."""
    specs = []
    for name in BOOK_RULES:
        params = [p.default for p in inspect.signature(RULES[name]).parameters.values() if p.name != "compiled"]
        specs.append(f"rule:{name}" + (":" + ",".join(f"{v:g}" for v in params) if params else ""))
    return tuple(specs)


def rule_title(spec: str) -> str:
    """A rule's name on the book's pages, from an agent spec ``rule:NAME[:P]`` (its :data:`BOOK_RULES` title, else
    ``NAME``)."""
    name = spec.split(":")[1] if spec.startswith("rule:") else spec
    return BOOK_RULES.get(name, name)


# ---------------------------------------------------------------- rules by name --

def known_rules() -> dict:
    """The rules known by name to agent specs (``rule:softmax:0.1``) and saved agents: name -> a function
    returning a fresh :class:`~sweeper.agents.custom.Rule`."""
    return dict(RULES)


def _import(path: str) -> Rule:
    module, _, attr = path.rpartition(".")
    if not module:
        raise ValueError(f"unknown rule {path!r}: not one of {sorted(RULES)} nor module.function")
    try:
        obj = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot import rule {path!r}: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - the module failed as it was imported (a syntax error, ...): one line
        raise ValueError(f"cannot import rule {path!r}: importing {module!r} raised {type(exc).__name__}: {exc}") \
            from None
    if isinstance(obj, Rule):
        return obj
    if callable(obj):
        return Rule(obj, name=path)
    raise ValueError(f"{path!r} is neither a Rule nor a function")


def with_values(base: Rule, values, text: str) -> Rule:
    """``base`` with its parameters set to ``values`` in order (``text``: the spec, for the error); a library
    rule is rebuilt by its factory, which checks them."""
    if len(values) != len(base.params):
        raise ValueError(f"rule {base.name!r} takes {len(base.params)} parameter(s) {list(base.params)}, "
                         f"got {len(values)} in {text!r}")
    if base.library and base.name in RULES:
        return RULES[base.name](*values, compiled=base.compiled)
    return base.with_params(**dict(zip(base.params, values)))


def rule_from_spec(text: str) -> Rule:
    """``NAME`` or ``NAME:P1,P2`` typed by the user (a key of :data:`RULES`, or ``module.attribute`` naming a
    :class:`~sweeper.agents.custom.Rule` or a function, which is imported: the user named it) with its
    parameter values in order. Saved agents never come here: :func:`library_rule` reads their rule."""
    name, _, arg = str(text).strip().partition(":")
    base = RULES[name]() if name in RULES else _import(name)
    if not arg:
        return base
    try:
        values = [float(v) for v in arg.split(",")]
    except ValueError:
        raise ValueError(f"bad rule parameters in {text!r}: expected numbers after ':'") from None
    return with_values(base, values, text)


def library_rule(name: str) -> Rule:
    """The library's rule ``name`` (no import of anything: ``ValueError`` if it is not one of :data:`RULES`)."""
    if name not in RULES:
        raise ValueError(f"{name!r} is not a rule of the library ({sorted(RULES)})")
    return RULES[name]()
