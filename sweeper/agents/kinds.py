"""The bandit agents of the paper (Sections IV-A, IV-B) and the state-action agent.

One small class per agent over a shared base. An agent is its parameters plus
its :class:`~sweeper.agents.values.ValueTable`; all play happens in the kernels of
:mod:`sweeper.agents.kernels`. Shared options:

``symmetric`` (default True)
    Identify windows related by the symmetries of Section IV-C (paper model).
    False: each of the 8 target directions is its own action, no mirroring.
``flags`` (default True)
    True: the agent places real flags, which its windows see (paper model).
    False, the *invisible flags* ablation (Fig. 10, ``fig:exp_4``): the agent decides
    exactly the same way (a believed mine, Q >= 0, is set aside; the flag limit,
    forced removal and delayed learning all apply), but the mark is private: the
    board does not show it, so every window still sees a covered tile there. It
    removes exactly what the paper credits flags with, passing the information
    "this tile is a mine" on to the neighbouring windows.

Saved agents are plain data: an ``.npz`` with the recorded keys, Q and N and a
JSON metadata string (no pickle), defined in :mod:`sweeper.agents.files`;
:func:`load_agent` validates everything before it builds the agent.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .kernels import (EGREEDY, GREEDY, P_A0, P_B0, P_C, P_EPS, P_KIND, P_LEARN, P_SYM, P_VISIBLE, POL_SIZE, RULE, SA,
                    THOMPSON, UCB)
from .custom import Rule
from .rule_library import library_rule, rule_from_spec, with_values
from .files import FORMAT, FORMAT_VERSION, WINDOW, agent_arrays, read_agent_file, write_agent_file
from .values import ValueTable
from .windows import FLAG, check_window_keys, first_key_showing


class Agent:
    """Shared base: the value table, the options, the policy array for the kernels."""

    kind: int = GREEDY
    label: str = "agent"

    def __init__(self, symmetric: bool = True, flags: bool = True):
        if not isinstance(symmetric, (bool, np.bool_)) or not isinstance(flags, (bool, np.bool_)):
            raise ValueError("symmetric and flags must be booleans")
        self.symmetric = bool(symmetric)
        self.flags = bool(flags)
        self.table = ValueTable()

    # parameters ------------------------------------------------------------
    def params(self) -> dict:
        return {}

    def policy(self, learn: bool = True) -> np.ndarray:
        pol = np.zeros(POL_SIZE)
        pol[P_KIND] = self.kind
        pol[P_SYM] = self.symmetric
        pol[P_VISIBLE] = self.flags
        pol[P_LEARN] = learn
        for k, v in self.policy_params().items():
            pol[{"epsilon": P_EPS, "c": P_C, "a0": P_A0, "b0": P_B0}[k]] = v
        return pol

    def policy_params(self) -> dict:
        """The parameters the kernels read from the policy array (all of them, for a built-in kind)."""
        return self.params()

    @property
    def name(self) -> str:
        """A short name such as ``greedy``, ``egreedy:0.01``, ``ucb:0.1``, with ablations appended."""
        params = self.params()
        base = self.label + (":" + ",".join(f"{v:g}" for v in params.values()) if params else "")
        if not self.symmetric:
            base += "+nosym"
        if not self.flags:
            base += "+noflags"
        return base

    def __repr__(self) -> str:
        return (f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.params().items())}"
                f"{', ' if self.params() else ''}symmetric={self.symmetric}, flags={self.flags}; "
                f"{self.table.actions_recorded} actions recorded)")

    # table summaries ---------------------------------------------------------
    @property
    def actions_recorded(self) -> int:
        return self.table.actions_recorded

    @property
    def perfect_actions(self) -> int:
        return self.table.perfect_actions

    def copy(self) -> "Agent":
        other = _build(self.label, self.params(), self.symmetric, self.flags)
        other.table = self.table.copy()
        return other

    # persistence -------------------------------------------------------------
    def metadata(self) -> dict:
        return {"format": FORMAT, "version": FORMAT_VERSION, "agent": self.label, "params": self.params(),
                "symmetric": self.symmetric, "flags": self.flags, "window": WINDOW,
                "decisions": self.table.decisions, "actions_recorded": self.actions_recorded}

    def file_arrays(self) -> dict:
        """The arrays of the agent's file (:mod:`sweeper.agents.files`), e.g. to store with a task."""
        return agent_arrays(*self.table.recorded(), self.metadata())

    def save(self, path) -> Path:
        """Write the agent as ``.npz`` (keys, q, n arrays + JSON metadata). Atomic."""
        return write_agent_file(path, *self.table.recorded(), self.metadata())


class Greedy(Agent):
    """Purely greedy: largest |Q|, ties to the larger N, then to the first in scan order."""

    kind, label = GREEDY, "greedy"


class EpsilonGreedy(Agent):
    """With probability ``epsilon`` a uniformly random candidate, otherwise greedy."""

    kind, label = EGREEDY, "egreedy"

    def __init__(self, epsilon: float = 0.01, **kw):
        epsilon = float(epsilon)
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be in [0, 1], got {epsilon}")
        self.epsilon = epsilon
        super().__init__(**kw)

    def params(self) -> dict:
        return {"epsilon": self.epsilon}


class UCBAgent(Agent):
    """UCB(c): |Q + sign(Q) c sqrt(ln t / N)|, unseen actions first, ties to the last."""

    kind, label = UCB, "ucb"

    def __init__(self, c: float = 0.1, **kw):
        c = float(c)
        if not (c >= 0.0 and np.isfinite(c)):
            raise ValueError(f"c must be a finite number >= 0, got {c}")
        self.c = c
        super().__init__(**kw)

    def params(self) -> dict:
        return {"c": self.c}


class Thompson(Agent):
    """Thompson sampling (not in the paper): each action's outcomes so far, mines m and safe
    tiles s (read off its Q and N: m = (Q + 1) N / 2), give a Beta(a0 + m, b0 + s) posterior
    of P(mine). At each decision every candidate gets a sample p from the posterior of its
    action: one draw per action (the bandit's arm), shared by all the candidates with that
    window and target (on large boards many candidates share an action: most covered tiles
    far from the revealed ones see the same all-covered windows). The most certain draw
    (largest |2p - 1|, the first candidate in scan order on ties) is clicked if p < 1/2,
    otherwise flagged. Flags, the flag limit
    (the lowest-Q flag is given up) and delayed learning are as for the other agents.

    The prior is a choice. The default is the uniform Beta(1, 1). An *optimistic* prior like
    the paper's unseen Q = -1 is a small ``a0`` with ``b0 = 1`` (``thompson:0.1,1``): an unseen
    window then often draws a near-certain "safe", and among the dozens of actions weighed at a
    decision one such draw nearly always beats a well-established safe window, so the agent
    keeps trying new windows and learns much more slowly.

    Every distinct action draws a Beta variate at every decision (by inversion, one uniform
    draw, when a0 + m or b0 + s is 1, which covers the "perfect" actions under the uniform
    prior; otherwise as a ratio of two Gamma variates), so this agent is slower than the
    others: see ``python -m sweeper bench`` for the measured games/s."""

    kind, label = THOMPSON, "thompson"

    def __init__(self, a0: float = 1.0, b0: float = 1.0, **kw):
        a0, b0 = float(a0), float(b0)
        if not (a0 > 0 and b0 > 0 and np.isfinite(a0) and np.isfinite(b0)):
            raise ValueError(f"the Beta prior needs a0 > 0 and b0 > 0, got {a0}, {b0}")
        self.a0, self.b0 = a0, b0
        super().__init__(**kw)

    def params(self) -> dict:
        return {"a0": self.a0, "b0": self.b0}


class StateAction(Agent):
    """Greedy over (whole player view, target tile) pairs: the paper's SA agent (4x4 table).

    Keys are exact base-11 codes of the view, so boards are limited to 16 tiles, and a table is of one board
    shape: ``shape`` (rows, cols) is set by the first games the agent plays (or given), saved with it, and a
    board of another shape is refused (:meth:`claim`), since its views would be read as views of the other shape."""

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

    def policy_params(self) -> dict:
        return {}

    @property
    def name(self) -> str:
        return "sa" + ("" if self.flags else "+noflags")

    def __repr__(self) -> str:
        return f"StateAction(shape={self.shape!r}, flags={self.flags}; {self.table.actions_recorded} actions recorded)"

    def claim(self, settings, adopt: bool = True) -> None:
        """Check that the agent can play every board of ``settings`` (at most :data:`MAX_TILES` tiles, all of the
        table's shape, or of one shape when the table has none yet), then (``adopt``) make that shape the
        agent's; ``ValueError`` naming both shapes otherwise (the agent is left unchanged)."""
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


class RuleAgent(Agent):
    """A bandit agent whose choice among the candidates is a plug-in :class:`~sweeper.agents.custom.Rule`
    (see :mod:`sweeper.agents.custom` for the contract); windows, flags, learning and everything else
    are the engine's, as for the built-in agents. ``rule``: a Rule or a spec such as ``"softmax:0.05"``."""

    kind, label = RULE, "rule"

    def __init__(self, rule, **kw):
        if callable(rule) and not isinstance(rule, Rule):
            raise ValueError("RuleAgent takes a Rule (or a library rule's name such as 'softmax:0.05'): wrap the "
                             "function as RuleAgent(Rule(choose))")
        self.rule = rule if isinstance(rule, Rule) else rule_from_spec(rule)
        super().__init__(**kw)

    def params(self) -> dict:
        return dict(self.rule.params)

    def policy_params(self) -> dict:
        return {}  # the rule's parameters go to the rule, not to the policy array

    @property
    def name(self) -> str:
        """``rule:NAME[:P1,...]`` with ablations appended, e.g. ``rule:softmax:0.05``."""
        return "rule:" + self.rule.label + ("" if self.symmetric else "+nosym") + ("" if self.flags else "+noflags")

    def __repr__(self) -> str:
        return (f"RuleAgent({self.rule!r}, symmetric={self.symmetric}, flags={self.flags}; "
                f"{self.table.actions_recorded} actions recorded)")

    def copy(self) -> "RuleAgent":
        other = RuleAgent(self.rule, symmetric=self.symmetric, flags=self.flags)
        other.table = self.table.copy()
        return other

    def metadata(self) -> dict:
        """A library rule is saved under its name (it reloads by that name); any other rule under
        ``user:NAME`` (it reloads only when the rule is passed to :func:`load_agent`)."""
        meta = super().metadata()
        name = self.rule.name if self.rule.library else USER + self.rule.name
        meta["params"] = {"rule": name, "values": dict(self.rule.params)}
        return meta


#: The prefix of a saved rule's name when the rule is the user's own, not the library's.
USER = "user:"


AGENTS = {"greedy": Greedy, "egreedy": EpsilonGreedy, "ucb": UCBAgent, "sa": StateAction, "thompson": Thompson,
          "rule": RuleAgent}


def _build(label, params, symmetric, flags, rule=None) -> Agent:
    cls = AGENTS[label]
    if cls is StateAction:
        return cls(flags=flags, shape=(params["rows"], params["cols"]) if params else None)
    if cls is RuleAgent:
        saved = params["rule"]
        own = saved.startswith(USER)
        if rule is None:
            if own:
                raise ValueError(f"the agent's rule {saved[len(USER):]!r} is not the library's: load it with "
                                 f"load_agent(path, rule=...) and the Rule it was trained with")
            rule = library_rule(saved)
        elif not isinstance(rule, Rule):
            raise ValueError(f"rule must be a sweeper.agents.custom.Rule, got {rule!r}")
        elif (saved[len(USER):] if own else saved) != rule.name or own == rule.library:
            which = "your own rule" if own else "the library's rule"
            raise ValueError(f"the file's agent was trained with {which} {saved.removeprefix(USER)!r}, "
                             f"not with {'the library' if rule.library else 'your'} rule {rule.name!r}")
        names = list(rule.params)
        if list(params["values"]) != names:
            raise ValueError(f"the file's rule parameters {list(params['values'])} are not the rule's {names}")
        return RuleAgent(with_values(rule, list(params["values"].values()), saved) if names else rule,
                         symmetric=symmetric, flags=flags)
    return cls(**params, symmetric=symmetric, flags=flags)


def make_agent(spec: str, symmetric: bool | None = None, flags: bool | None = None) -> Agent:
    """Build an agent from its spec.

    Parameters
    ----------
    spec : str or Agent
        ``greedy``, ``egreedy:EPS`` (default 0.01), ``ucb:C`` (default 0.1), ``thompson[:A0,B0]`` (default
        1,1), ``sa`` or ``rule:NAME[:P1,...]`` (a plug-in rule, :mod:`sweeper.agents.custom`: a rule of
        :mod:`sweeper.agents.rule_library` or ``module.function``, imported). An :class:`Agent` is returned
        as it is.
    symmetric : bool, optional
        Identify windows related by the symmetries of Section IV-C. None means True (the paper's model),
        except for the state-action agent, which has no symmetries.
    flags : bool, optional
        True (the default, None): the agent places real flags; False: invisible flags (the ablation of
        Fig. 10).

    Returns
    -------
    Agent
        A new agent with an empty table (:class:`Greedy`, :class:`EpsilonGreedy`, :class:`UCBAgent`,
        :class:`Thompson`, :class:`StateAction` or :class:`RuleAgent`), or ``spec`` itself if it is an agent.

    Raises
    ------
    ValueError
        If the kind is unknown; ``greedy`` or ``sa`` is given a parameter; a parameter is not a number or
        out of range (epsilon outside [0, 1], c negative or not finite, a0 or b0 not > 0 and finite); a
        plug-in rule is unknown, cannot be imported or gets the wrong number of parameters; ``symmetric``
        or ``flags`` is not a bool; ``symmetric=True`` is given for ``sa``; or ``spec`` is an agent whose
        own ``symmetric`` or ``flags`` differs from the one given (it would have no effect).
    """
    if isinstance(spec, Agent):
        for name, given in (("symmetric", symmetric), ("flags", flags)):
            if given is not None and bool(given) != getattr(spec, name):
                raise ValueError(f"make_agent was given an agent object, which keeps its own {name}="
                                 f"{getattr(spec, name)}: {name}={given!r} would have no effect (build the agent "
                                 f"with it instead)")
        return spec
    is_sa = str(spec).strip().lower() == "sa"
    if is_sa and symmetric:
        raise ValueError("the state-action agent has no symmetries (its keys are whole views): symmetric=True "
                         "would have no effect")
    symmetric = (not is_sa) if symmetric is None else symmetric
    flags = True if flags is None else flags
    if str(spec).strip().startswith("rule:"):
        return RuleAgent(rule_from_spec(str(spec).strip()[5:]), symmetric=symmetric, flags=flags)
    name, _, arg = str(spec).strip().lower().partition(":")
    if name not in AGENTS:
        raise ValueError(f"agent must be one of greedy, egreedy:EPS, ucb:C, thompson:A0,B0, sa, rule:NAME; "
                         f"got {spec!r}")
    if name in ("greedy", "sa") and arg:
        raise ValueError(f"agent {name!r} takes no parameter, got {spec!r}")
    try:
        if name == "thompson":
            a0, b0 = (float(v) for v in arg.split(",")) if arg else (1.0, 1.0)
            params = {"a0": a0, "b0": b0}
        else:
            params = {"egreedy": {"epsilon": float(arg or 0.01)}, "ucb": {"c": float(arg or 0.1)}}.get(name, {})
    except ValueError:
        raise ValueError(f"bad agent parameter in {spec!r}: expected numbers after ':'") from None
    return _build(name, params, symmetric, flags)


def load_agent(path, rule: Rule | None = None) -> Agent:
    """Load an agent saved by :meth:`Agent.save`, after checking every part of the file
    (:func:`sweeper.agents.files.read_agent_file`).

    Loading never imports or runs anything the file names: a plug-in rule agent whose rule is one of the
    library's (:mod:`sweeper.agents.rule_library`) gets it by name.

    Parameters
    ----------
    path : str or pathlib.Path
        The agent file (``.npz`` of keys, Q and N arrays with JSON metadata, no pickle).
    rule : Rule, optional
        For a plug-in rule agent whose rule is not the library's: the :class:`~sweeper.agents.custom.Rule`
        it was trained with (its name must be the file's). Refused for any other agent.

    Returns
    -------
    Agent
        The agent of the file's kind and options, with its value table.

    Raises
    ------
    ValueError
        Naming the file and field: if there is no file at ``path`` or it is not a valid agent file (a
        missing, extra, damaged or oversized array, a bad metadata field, a key the agent cannot make, a
        window showing a flag in an invisible-flags agent); if ``rule`` is given for an agent that is not a
        plug-in rule agent, is not a :class:`~sweeper.agents.custom.Rule`, or is not the rule the file
        names (name, library or not, parameter names); or if the file's rule is the user's own and no
        ``rule`` is given.
    """
    meta, keys, q, n = read_agent_file(path)
    if rule is not None and meta["agent"] != "rule":
        raise ValueError(f"{path} holds a {meta['agent']} agent: rule= is for agents of a plug-in rule, and would "
                         f"have no effect here")
    if meta["agent"] == "rule" and meta["version"] < 2 and rule is None:
        raise ValueError(f"{path}: a plug-in rule agent saved by format version {meta['version']} does not say "
                         f"whether its rule {meta['params']['rule']!r} is the library's: load it with "
                         f"load_agent(path, rule=...)")
    if meta["agent"] == "rule" and meta["version"] < 2:  # the rule given stands for the saved name, if it is its
        saved = meta["params"]["rule"]
        if getattr(rule, "name", None) != saved:
            raise ValueError(f"{path} holds an agent of the rule {saved!r}, not of the rule given, "
                             f"{getattr(rule, 'name', rule)!r}")
        meta["params"]["rule"] = rule.name if getattr(rule, "library", False) else USER + rule.name
    try:
        agent = _build(meta["agent"], meta["params"], meta["symmetric"], meta["flags"], rule)
    except ValueError as exc:
        raise ValueError(f"{path}: metadata field 'params': {exc}") from None
    _check_keys(agent, keys, path)
    agent.table = ValueTable.from_recorded(keys, q, n, meta["decisions"])
    return agent


def _check_keys(agent: Agent, keys, path) -> None:
    """Every key of a loaded table must be one the agent can make: a window and target (canonical with
    symmetries), or for the state-action agent a view of its board (of at most 16 tiles) and a target."""
    if isinstance(agent, StateAction):
        tiles = StateAction.MAX_TILES if agent.shape is None else agent.shape[0] * agent.shape[1]
        over = np.flatnonzero(keys >= tiles * 11 ** tiles)
        bad = int(over[0]) if over.size else -1
        what = ("a state-action pair of a board of at most 16 tiles" if agent.shape is None else
                f"a state-action pair of a {agent.shape[0]}x{agent.shape[1]} board")
    else:
        bad = check_window_keys(keys, agent.symmetric)
        what = "a window and target" + (" in canonical orientation (the agent uses symmetries)"
                                         if agent.symmetric else "")
    if bad >= 0:
        raise ValueError(f"{path}: entry {bad:,} of 'keys' ({int(keys[bad])}) is not the key of {what}")
    if not isinstance(agent, StateAction) and not agent.flags:
        shown = first_key_showing(keys, agent.symmetric, FLAG)
        if shown >= 0:
            raise ValueError(f"{path}: metadata field 'flags' is false (invisible flags), but entry {shown:,} of "
                             f"'keys' ({int(keys[shown])}) is a window that shows a flag: the file contradicts itself")
