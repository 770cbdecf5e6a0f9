"""The shared base of the agents, :class:`Agent`: the value table, the two options of the paper's model
(``symmetric``, ``flags``), the policy array the kernels read, and saving to a plain-data file. The agents
themselves are in :mod:`sweeper.agents.kinds` and :mod:`sweeper.agents.state_action`."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np

from .kernels import GREEDY, P_A0, P_B0, P_C, P_EPS, P_KIND, P_LEARN, P_SYM, P_VISIBLE, POL_SIZE
from .files import FORMAT, FORMAT_VERSION, WINDOW, agent_arrays, write_agent_file
from .values import ValueTable


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
        other = copy.copy(self)  # the same class, parameters and options (all immutable)
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
