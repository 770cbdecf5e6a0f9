"""The bandit agents of the paper (Sections IV-A, IV-B) and the state-action agent.

One small class per agent over a shared base, :class:`~sweeper.agents.agent.Agent`; the state-action agent is
in :mod:`sweeper.agents.state_action`. An agent is its parameters plus
its :class:`~sweeper.agents.values.ValueTable`; all play happens in the kernels of
:mod:`sweeper.agents.kernels`. Every agent takes the two options ``symmetric`` and ``flags``
(the paper's model and its ablations), described in :class:`Agent`.

Saved agents are plain data: an ``.npz`` with the recorded keys, Q and N and a
JSON metadata string (no pickle), defined in :mod:`sweeper.agents.files`;
:func:`load_agent` validates everything before it builds the agent.
"""

from __future__ import annotations

import numpy as np

from .agent import Agent
from .kernels import EGREEDY, GREEDY, RULE, THOMPSON, UCB
from .custom import Rule
from .rule_library import library_rule, rule_from_spec, with_values
from .files import read_agent_file
from .state_action import StateAction
from .values import ValueTable
from .windows import FLAG, check_window_keys, first_key_showing


class Greedy(Agent):
    """The paper's purely greedy agent (spec ``greedy``): the candidate of largest ``|Q|``, clicked if Q < 0.

    Otherwise (Q >= 0) the tile is flagged as a believed mine.

    Ties go to the larger N, then to the first candidate in scan order. It has no parameters: its
    :meth:`~Agent.params` is ``{}`` and its name ``greedy`` (with the ablations appended).

    Parameters
    ----------
    symmetric : bool, default True
        Identify windows related by the symmetries of Section IV-C (see :class:`Agent`).
    flags : bool, default True
        Place real flags; False: the invisible-flags ablation (see :class:`Agent`).

    Attributes
    ----------
    table : ValueTable
        Q and N of every action met, and the decision count (see :class:`Agent`).
    symmetric : bool
        The ``symmetric`` option.
    flags : bool
        The ``flags`` option.
    kind : int
        Class attribute: the kernels' code of greedy.
    label : str
        Class attribute: ``"greedy"``.

    Raises
    ------
    ValueError
        If ``symmetric`` or ``flags`` is not a bool.
    """

    kind, label = GREEDY, "greedy"


class EpsilonGreedy(Agent):
    """The paper's epsilon-greedy agent (spec ``egreedy:EPS``): a random candidate with probability ``epsilon``.

    Otherwise it makes :class:`Greedy`'s choice. The random candidate is drawn uniformly from all the
    candidates of the decision and is clicked if its Q < 0, else flagged. Its :meth:`~Agent.params` is
    ``{"epsilon": epsilon}`` and its name e.g. ``egreedy:0.01``.

    Parameters
    ----------
    epsilon : float, default 0.01
        The probability of exploring at each decision, in [0, 1] (converted with ``float``).
    **kw
        ``symmetric`` and ``flags``, passed on to :class:`Agent`.

    Attributes
    ----------
    epsilon : float
        The exploration probability.
    table : ValueTable
        Q and N of every action met, and the decision count (see :class:`Agent`).
    symmetric : bool
        The ``symmetric`` option.
    flags : bool
        The ``flags`` option.
    kind : int
        Class attribute: the kernels' code of epsilon-greedy.
    label : str
        Class attribute: ``"egreedy"``.

    Raises
    ------
    ValueError
        If ``epsilon`` is not a number in [0, 1] (NaN and a string that is not a number included), or
        ``symmetric`` or ``flags`` is not a bool.
    TypeError
        If ``epsilon`` cannot be converted with ``float`` (e.g. None).
    """

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
    """The paper's UCB agent (spec ``ucb:C``): the candidate of largest ``|Q + sign(Q) c sqrt(ln t / N)|``.

    ``t`` counts the agent's decisions over its whole life, this one included. An action never tried scores
    -1e10, so unseen actions are chosen first (and clicked); ties go to the last candidate in scan order. The
    chosen candidate is clicked if its score is < 0, else flagged. Its :meth:`~Agent.params` is ``{"c": c}`` and
    its name e.g. ``ucb:0.1``.

    Parameters
    ----------
    c : float, default 0.1
        The weight of the exploration bonus: a finite number >= 0 (converted with ``float``).
    **kw
        ``symmetric`` and ``flags``, passed on to :class:`Agent`.

    Attributes
    ----------
    c : float
        The weight of the exploration bonus.
    table : ValueTable
        Q and N of every action met, and the decision count (see :class:`Agent`).
    symmetric : bool
        The ``symmetric`` option.
    flags : bool
        The ``flags`` option.
    kind : int
        Class attribute: the kernels' code of UCB.
    label : str
        Class attribute: ``"ucb"``.

    Raises
    ------
    ValueError
        If ``c`` is not a finite number >= 0 (a string that is not a number included), or ``symmetric`` or
        ``flags`` is not a bool.
    TypeError
        If ``c`` cannot be converted with ``float`` (e.g. None).
    """

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
    """Thompson sampling (spec ``thompson:A0,B0``, not in the paper): P(mine) drawn from each action's posterior.

    Each action's outcomes so far, mines m and safe tiles s (read off its Q and N: m = (Q + 1) N / 2), give a
    Beta(a0 + m, b0 + s) posterior of P(mine). At each decision every candidate gets a sample p from the
    posterior of its action: one draw per action (the bandit's arm), shared by all the candidates with that
    window and target (on large boards many candidates share an action: most covered tiles far from the
    revealed ones see the same all-covered windows). The most certain draw (largest ``|2p - 1|``, the first
    candidate in scan order on ties) is clicked if p < 1/2, otherwise flagged. Flags, the flag limit (the
    lowest-Q flag is given up) and delayed learning are as for the other agents. Its :meth:`~Agent.params` is
    ``{"a0": a0, "b0": b0}`` and its name e.g. ``thompson:1,1``.

    Parameters
    ----------
    a0 : float, default 1.0
        The prior's pseudo-count of mines: a finite number > 0 (converted with ``float``).
    b0 : float, default 1.0
        The prior's pseudo-count of safe tiles: a finite number > 0 (converted with ``float``).
    **kw
        ``symmetric`` and ``flags``, passed on to :class:`Agent`.

    Attributes
    ----------
    a0 : float
        The Beta prior's pseudo-count of mines.
    b0 : float
        The Beta prior's pseudo-count of safe tiles.
    table : ValueTable
        Q and N of every action met, and the decision count (see :class:`Agent`).
    symmetric : bool
        The ``symmetric`` option.
    flags : bool
        The ``flags`` option.
    kind : int
        Class attribute: the kernels' code of Thompson sampling.
    label : str
        Class attribute: ``"thompson"``.

    Raises
    ------
    ValueError
        If ``a0`` or ``b0`` is not a finite number > 0 (a string that is not a number included), or
        ``symmetric`` or ``flags`` is not a bool.
    TypeError
        If ``a0`` or ``b0`` cannot be converted with ``float`` (e.g. None).

    Notes
    -----
    The prior is a choice. The default is the uniform Beta(1, 1). An *optimistic* prior like the paper's unseen
    Q = -1 is a small ``a0`` with ``b0 = 1`` (``thompson:0.1,1``): an unseen window then often draws a
    near-certain "safe", and among the dozens of actions weighed at a decision one such draw nearly always
    beats a well-established safe window, so the agent keeps trying new windows and learns much more slowly.

    Every distinct action draws a Beta variate at every decision (by inversion, one uniform draw, when a0 + m
    or b0 + s is 1, which covers the "perfect" actions under the uniform prior; otherwise as a ratio of two
    Gamma variates), so this agent is slower than the others: see ``python -m sweeper bench`` for the measured
    games/s.
    """

    kind, label = THOMPSON, "thompson"

    def __init__(self, a0: float = 1.0, b0: float = 1.0, **kw):
        a0, b0 = float(a0), float(b0)
        if not (a0 > 0 and b0 > 0 and np.isfinite(a0) and np.isfinite(b0)):
            raise ValueError(f"the Beta prior needs a0 > 0 and b0 > 0, got {a0}, {b0}")
        self.a0, self.b0 = a0, b0
        super().__init__(**kw)

    def params(self) -> dict:
        return {"a0": self.a0, "b0": self.b0}


class RuleAgent(Agent):
    """A bandit agent whose choice among the candidates is a plug-in :class:`~sweeper.agents.custom.Rule`.

    The rule follows the contract of :mod:`sweeper.agents.custom`; windows, flags, learning and everything else
    are the engine's, as for the built-in agents. Its :meth:`~Agent.params` are the rule's parameters, and its
    name is ``rule:NAME[:P1,...]`` (the rule's :attr:`~sweeper.agents.custom.Rule.label`) with ``+nosym`` and
    ``+noflags`` appended for the ablations, e.g. ``rule:softmax:0.05``. Its :meth:`~Agent.copy` plays the same
    Rule object. In its file (:meth:`~Agent.metadata`), ``params`` holds ``rule``, the rule's name, and
    ``values``, its parameters: a library rule (:mod:`sweeper.agents.rule_library`) is saved under its name and
    reloads by that name; any other rule is saved as ``user:NAME`` and reloads only when the rule is passed to
    :func:`load_agent` (``rule=``).

    Parameters
    ----------
    rule : Rule or str
        The :class:`~sweeper.agents.custom.Rule`, or the spec of one as it follows ``rule:`` in an agent spec:
        a library rule such as ``"softmax:0.05"`` or ``"module.function[:P1,...]"`` (imported). A bare function
        is refused: wrap it as ``Rule(choose)``.
    **kw
        ``symmetric`` and ``flags``, passed on to :class:`Agent`.

    Attributes
    ----------
    rule : Rule
        The rule the agent plays.
    table : ValueTable
        Q and N of every action met, and the decision count (see :class:`Agent`).
    symmetric : bool
        The ``symmetric`` option.
    flags : bool
        The ``flags`` option.
    kind : int
        Class attribute: the kernels' code of a plug-in rule's agent.
    label : str
        Class attribute: ``"rule"``.

    Raises
    ------
    ValueError
        If ``rule`` is a callable that is not a Rule; a spec names no library rule and no importable
        ``module.attribute`` (a Rule or a function), or gives the wrong number of parameters or values that are
        not numbers or that the library rule refuses; or ``symmetric`` or ``flags`` is not a bool.
    """

    kind, label = RULE, "rule"

    def __init__(self, rule, **kw):
        if callable(rule) and not isinstance(rule, Rule):
            raise ValueError("RuleAgent takes a Rule (or a library rule's name such as 'softmax:0.05'): wrap the "
                             "function as RuleAgent(Rule(choose))")
        self.rule = rule if isinstance(rule, Rule) else rule_from_spec(rule)
        super().__init__(**kw)

    def params(self) -> dict:
        return dict(self.rule.params)

    def _policy_params(self) -> dict:
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
