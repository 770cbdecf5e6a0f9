"""The bandit agents of the paper (Sections IV-A, IV-B) and the state-action agent.

One small class per agent over a shared base, :class:`Agent`. An agent is its parameters plus
its :class:`~sweeper.agents.values.ValueTable`; all play happens in the kernels of
:mod:`sweeper.agents.kernels`. Every agent takes the two options ``symmetric`` and ``flags``
(the paper's model and its ablations), described in :class:`Agent`.

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
    """The shared base of the agents: the value table, the two options, the policy array for the kernels.

    Build an agent with :func:`make_agent` or one of the subclasses (:class:`Greedy`, :class:`EpsilonGreedy`,
    :class:`UCBAgent`, :class:`Thompson`, :class:`StateAction`, :class:`RuleAgent`), each of which passes these
    options on to this class. The methods and properties below are those of every agent.

    Parameters
    ----------
    symmetric : bool, default True
        Identify windows related by the symmetries of Section IV-C (the paper's model), so that they share one
        action. False: each of the 8 target directions is its own action, with no mirroring.
    flags : bool, default True
        True: the agent places real flags, which its windows see (the paper's model). False is the *invisible
        flags* ablation (Fig. 10, ``fig:exp_4``): the agent decides exactly the same way (a believed mine,
        Q >= 0, is set aside; the flag limit, forced removal and delayed learning all apply), but the mark is
        private: the board does not show it, so every window still sees a covered tile there. This removes
        exactly what the paper credits flags with, passing the information "this tile is a mine" on to the
        neighbouring windows.

    Attributes
    ----------
    table : ValueTable
        Q and N of every action the agent has met (:class:`~sweeper.agents.values.ValueTable`), and its count
        of decisions; a new agent's is empty.
    symmetric : bool
        The ``symmetric`` option, as a Python bool.
    flags : bool
        The ``flags`` option, as a Python bool.
    kind : int
        Class attribute: the code of the agent kind that the kernels read from the policy array
        (:mod:`sweeper.agents.kernels`).
    label : str
        Class attribute: the kind's name in specs and in the agent file's ``agent`` field (``greedy``,
        ``egreedy``, ``ucb``, ``thompson``, ``sa`` or ``rule``).

    Raises
    ------
    ValueError
        If ``symmetric`` or ``flags`` is not a bool (a NumPy bool is accepted).
    """

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
        """The agent's parameters by name, in the order of its spec.

        Returns
        -------
        dict
            ``{}`` for :class:`Greedy`; ``{"epsilon": float}``, ``{"c": float}``, ``{"a0": float, "b0": float}``
            for :class:`EpsilonGreedy`, :class:`UCBAgent`, :class:`Thompson`; for :class:`StateAction` the board
            shape of its table, ``{"rows": int, "cols": int}`` (``{}`` until it has one); for :class:`RuleAgent`
            its rule's parameters. A new dict each call; :attr:`name` and :meth:`metadata` are built from it.
        """
        return {}

    def _policy(self, learn: bool = True) -> np.ndarray:
        pol = np.zeros(POL_SIZE)
        pol[P_KIND] = self.kind
        pol[P_SYM] = self.symmetric
        pol[P_VISIBLE] = self.flags
        pol[P_LEARN] = learn
        for k, v in self._policy_params().items():
            pol[{"epsilon": P_EPS, "c": P_C, "a0": P_A0, "b0": P_B0}[k]] = v
        return pol

    def _policy_params(self) -> dict:
        """The parameters the kernels read from the policy array (all of them, for a built-in kind)."""
        return self.params()

    @property
    def name(self) -> str:
        """A short name: the label and parameters (``greedy``, ``egreedy:0.01``, ``thompson:1,1``), then ``+nosym``
        when ``symmetric`` is False and ``+noflags`` when ``flags`` is False."""
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
        """The number of actions in the value table that have been tried at least once (N > 0)."""
        return self.table.actions_recorded

    @property
    def perfect_actions(self) -> int:
        """The number of recorded actions whose Q is exactly -1 or +1: every outcome so far was the same."""
        return self.table.perfect_actions

    def copy(self) -> "Agent":
        """An independent copy: training the copy leaves this agent unchanged, and the other way round.

        Returns
        -------
        Agent
            A new agent of the same class, parameters and options, with a copy of the value table (its
            decision count included). A :class:`RuleAgent`'s copy plays the same :class:`~sweeper.agents.custom.Rule`
            object.
        """
        other = _build(self.label, self.params(), self.symmetric, self.flags)
        other.table = self.table.copy()
        return other

    # persistence -------------------------------------------------------------
    def metadata(self) -> dict:
        """The JSON metadata of the agent's file (:mod:`sweeper.agents.files` defines each field).

        Returns
        -------
        dict
            ``format`` (``"bandit-sweeper-agent"``), ``version`` (2), ``agent`` (the :attr:`label`), ``params``
            (:meth:`params`; for a :class:`RuleAgent`, ``rule``, the rule's saved name, and ``values``, its
            parameters), ``symmetric``, ``flags``, ``window`` (3), ``decisions`` (the table's decision count)
            and ``actions_recorded``.
        """
        return {"format": FORMAT, "version": FORMAT_VERSION, "agent": self.label, "params": self.params(),
                "symmetric": self.symmetric, "flags": self.flags, "window": WINDOW,
                "decisions": self.table.decisions, "actions_recorded": self.actions_recorded}

    def file_arrays(self) -> dict:
        """The arrays of the agent's file (:mod:`sweeper.agents.files`), e.g. to store with a task.

        Returns
        -------
        dict
            In file order: ``keys`` (int64), ``q`` (float64) and ``n`` (int64), the recorded actions (N > 0)
            sorted by key, and ``metadata``, a 0-d string array holding :meth:`metadata` as JSON; so
            ``numpy.savez_compressed(file, **agent.file_arrays())`` writes what :meth:`save` writes.
        """
        return agent_arrays(*self.table.recorded(), self.metadata())

    def save(self, path) -> Path:
        """Write the agent to an ``.npz`` file (keys, q, n arrays and JSON metadata, no pickle), atomically.

        The file is written under a temporary name in the same folder and then renamed into place, so that a
        reader never sees half a file; an existing regular file at ``path`` is replaced. :func:`load_agent`
        reads it back.

        Parameters
        ----------
        path : str or pathlib.Path
            The file to write, used as given (no ``.npz`` suffix is added); its folder must exist.

        Returns
        -------
        pathlib.Path
            ``path``, as a :class:`pathlib.Path`.

        Raises
        ------
        ValueError
            If ``path`` exists but is not a regular file (a folder, a device, a pipe), or is a symbolic link.
        OSError
            If the file cannot be written there (e.g. its folder does not exist).
        """
        return write_agent_file(path, *self.table.recorded(), self.metadata())


class Greedy(Agent):
    """The paper's purely greedy agent (spec ``greedy``): the candidate of largest |Q|, clicked if Q < 0, else flagged.

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
    """The paper's UCB agent (spec ``ucb:C``): the candidate of largest |Q + sign(Q) c sqrt(ln t / N)|.

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
    revealed ones see the same all-covered windows). The most certain draw (largest |2p - 1|, the first
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


class StateAction(Agent):
    """Greedy over (whole player view, target tile) pairs: the paper's state-action agent (spec ``sa``, 4x4 table).

    One candidate per covered unflagged tile, chosen by :class:`Greedy`'s rule. Keys are exact
    base-11 codes of the view, so boards are limited to :attr:`MAX_TILES` (16) tiles, and a table is of one
    board shape: ``shape`` (rows, cols) is set by the first games the agent plays (or given), saved with it, and
    a board of another shape is refused (:meth:`claim`), since its views would be read as views of the other
    shape. The agent has no parameter of its choice: its :meth:`~Agent.params` is the board shape of its
    table, ``{"rows": rows, "cols": cols}`` (``{}`` until it has one), saved in its file; its name is ``sa``,
    or ``sa+noflags`` with invisible flags (the shape is not part of it).

    Parameters
    ----------
    flags : bool, default True
        Place real flags; False: the invisible-flags ablation (see :class:`Agent`).
    symmetric : bool, default False
        Must be false: a whole view has no window symmetries.
    shape : tuple of int, optional
        ``(rows, cols)`` of the boards the table is for, positive integers with at most 16 tiles; None (the
        default): set by the first boards the agent plays.

    Attributes
    ----------
    shape : tuple of int or None
        ``(rows, cols)`` of the table's boards, or None while the agent has not played.
    table : ValueTable
        Q and N of every (view, tile) action met, and the decision count (see :class:`Agent`).
    symmetric : bool
        Always False.
    flags : bool
        The ``flags`` option.
    MAX_TILES : int
        Class attribute: 16, the most tiles of a board the agent can play.
    kind : int
        Class attribute: the kernels' code of the state-action agent.
    label : str
        Class attribute: ``"sa"``.

    Raises
    ------
    ValueError
        If ``symmetric`` is true; ``flags`` is not a bool; or ``shape`` is not a pair of positive integers or
        has more than 16 tiles.
    """

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

    def _policy_params(self) -> dict:
        return {}

    @property
    def name(self) -> str:
        return "sa" + ("" if self.flags else "+noflags")

    def __repr__(self) -> str:
        return f"StateAction(shape={self.shape!r}, flags={self.flags}; {self.table.actions_recorded} actions recorded)"

    def claim(self, settings, adopt: bool = True) -> None:
        """Check that the agent can play every board of ``settings``, then (``adopt``) make their shape its own.

        Every board must have at most :attr:`MAX_TILES` tiles and the table's shape, or, when the table has no
        shape yet, all the boards must have one shape. Training and :class:`~sweeper.running.episode.Episode`
        call this before the agent plays. No settings: nothing is checked or changed.

        Parameters
        ----------
        settings : iterable of Setting
            The board settings (:class:`~sweeper.game.engine.Setting`) the agent is to play.
        adopt : bool, default True
            Make the boards' shape the agent's :attr:`shape` when all fit (no change if it already has it);
            False only checks.

        Raises
        ------
        ValueError
            If a board has more than 16 tiles or another shape than the table's (or, with no shape yet, than
            the first board's); the message names both shapes. The agent is then left unchanged.
        """
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
