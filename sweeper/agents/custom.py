"""Write your own bandit: a plug-in choice rule, played by the same engine as the paper's agents.

A rule is one function, called once per decision::

    choose(q, n, t, params, rng) -> (index, flag)

``q`` and ``n`` are the Q and N of every candidate action of the decision, in scan order; ``t`` the agent's
decisions so far, this one included; ``params`` the rule's parameters; ``rng`` its own random stream. It returns
the candidate to act on and whether to flag its target (True) or click it (False). Optionally a second function,
``give_up(q, n, t, params) -> index``, picks the flag to give up when the agent has placed one flag more than
there are mines. :class:`Rule` holds them with their parameters (its docstring states the contract in full and
what compiling a rule keeps and changes); :class:`RuleError` is how a bad rule stops a run.

Everything else is the engine's, exactly as for the built-in agents: windows and
their symmetries, the flag limit and forced removals, clicks learned at once and
flags at the end of the game, the records, saving, the step-through
(:class:`~sweeper.running.episode.Episode`) and the experiment runner (agent
spec ``rule:NAME[:P1,P2,...]`` for the rules of :mod:`sweeper.agents.rule_library` or ``module.function``).
The book's chapter "Write your own bandit" shows it at work.
"""

from __future__ import annotations

import copy
import math
import time
import warnings

import numpy as np
from numba import njit, objmode
from numba.core.dispatcher import Dispatcher
from numba.core.errors import NumbaExperimentalFeatureWarning

from . import kernels, loop
from .rule_compiler import (CHOOSE_SIG, GIVE_UP_SIG, POLL_SIG, CompiledRuleNotice, PythonRuleNotice,  # noqa: F401
                            adapt_choose, adapt_give_up, changed_globals, checked_int, compile_rule,
                            compiled_notice, describe)
from .kernels import E_CODE, E_COUNT, E_DECISION, E_GAME, E_INDEX, E_SIZE, RULE_BAD_FLAG, RULE_BAD_GIVE_UP, \
    RULE_BAD_INDEX, RULE_GIVE_UP_RAISED, RULE_RAISED


class RuleError(RuntimeError):
    """A plug-in rule failed; ``run`` holds the games finished before (a :class:`~sweeper.running.training.Run`,
    or None outside a run).

    A bad rule gets a clear error, never a crash or a silent result: an index out of range or not an integer, a
    flag that is not a truth value, a wrong return shape, or an exception inside the rule stop the run with this
    error, which names the game and decision, chains the rule's own exception (for a compiled rule, the error its
    Python source gives on the same inputs, when it gives one, so that the message is the Python path's) and
    carries the finished games in ``error.run``.

    Parameters
    ----------
    message : str
        What went wrong, naming the game and the decision (and the rule's own error, which is chained).
    run : Run, optional
        The games finished before the failure (:class:`~sweeper.running.training.Run`); None outside a run.

    Attributes
    ----------
    run : Run or None
        As given: the finished games, kept so that a failure late in a long run loses nothing."""

    def __init__(self, message, run=None):
        super().__init__(message)
        self.run = run


@njit(GIVE_UP_SIG, cache=True)
def lowest_value_last(q, n, t, params):
    """The paper's choice of the flag to give up: the lowest Q, the last in scan order on ties."""
    best = np.inf
    at = -1
    for i in range(q.shape[0]):
        if q[i] <= best:
            best = q[i]
            at = i
    return at


# -------------------------------------------------------- plain Python rules --
# A Python function runs inside the kernel through numba's object mode: a small compiled
# wrapper (one per rule) calls it with the candidates' arrays and checks its answer there.

#: Beyond this an index cannot name a candidate (and would not fit the kernel's 64-bit integer).
_INDEX_LIMIT = 2**62


def _as_index(value):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"the index must be an integer, got {value!r} ({type(value).__name__})")
    if not -_INDEX_LIMIT <= int(value) < _INDEX_LIMIT:
        raise IndexError(f"the index {int(value)} is far beyond any candidate's (valid: 0 .. candidates - 1)")
    return int(value)


def _as_flag(value):
    if isinstance(value, (bool, np.bool_)) or (isinstance(value, (int, np.integer)) and value in (0, 1)):
        return int(bool(value))
    raise TypeError(f"the flag must be True or False, got {value!r} ({type(value).__name__})")


def _call_choose(fn, q, n, t, params, state):
    if state.stop:  # Ctrl-C was pressed: no more decisions (the run reports the interrupt)
        state.error = KeyboardInterrupt("interrupted")
        return -1, 0
    try:
        answer = fn(q, n, int(t), params, state.rng)
        if not isinstance(answer, tuple) or len(answer) != 2:
            raise TypeError(f"choose must return a pair (index, flag), got {answer!r}")
        return _as_index(answer[0]), _as_flag(answer[1])
    except BaseException as exc:  # noqa: BLE001 - kept and re-raised (chained) once the kernel has returned;
        _keep(state, exc)         # SystemExit and KeyboardInterrupt too: they cannot cross the compiled loop
        return -1, 0


def _call_give_up(fn, q, n, t, params, state):
    try:
        return _as_index(fn(q, n, int(t), params))
    except BaseException as exc:  # noqa: BLE001
        _keep(state, exc)
        return -1


#: A compiled rule asks Python whether Ctrl-C was pressed about this often (seconds of its decisions), so that
#: a slow rule stops within about a second and a fast one pays nothing measurable (one check per many decisions).
POLL_SECONDS = 0.1
_POLL_MAX = 1 << 20


def _poll(state) -> int:
    """Called from inside the kernel (object mode) when the countdown of :func:`~sweeper.agents.kernels.
    choose_by_rule` runs out: -1 if the run was interrupted (Ctrl-C, whose handler runs here), else the
    decisions until the next call, sized from the time the last ones took."""
    try:
        now = time.perf_counter()
        if state.stop:
            state.error = KeyboardInterrupt("interrupted")
            return -1
        if state.polled is not None:
            per = (now - state.polled) / max(state.every, 1)
            state.every = int(max(1, min(_POLL_MAX, POLL_SECONDS / max(per, 1e-9))))
        state.polled = now
        return state.every
    except BaseException as exc:  # noqa: BLE001 - a KeyboardInterrupt raised by the default handler
        _keep(state, exc)
        return -1


def _wrap_poll(state):
    @njit(POLL_SIG)
    def poll():
        with objmode(k="int64"):
            k = _poll(state)
        return k
    return poll


_POLL_NEVER = 1 << 62


@njit(POLL_SIG, cache=True)
def never_poll():
    """The poll of a plain Python rule, which is asked about Ctrl-C at every decision anyway."""
    return np.int64(_POLL_NEVER)


def _keep(state, exc):
    """Keep the exception a Python rule raised; a KeyboardInterrupt (Ctrl-C inside the rule) stops the run as
    Ctrl-C between decisions does."""
    state.error = exc
    if isinstance(exc, KeyboardInterrupt):
        state.stop = True


def _checked_params(params) -> dict:
    """A rule's parameters: names (non-empty strings) to finite numbers, as floats, in the order given."""
    params = dict(params or {})
    for k, v in params.items():
        if not isinstance(k, str) or not k:
            raise ValueError(f"parameter names must be non-empty strings, got {k!r}")
        if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) \
                or not math.isfinite(float(v)):
            raise ValueError(f"parameter {k!r} must be a finite number, got {v!r}")
    return {k: float(v) for k, v in params.items()}


class _PythonState:
    """The Python rule's random stream for the current call, the exception it raised, if any, and whether
    the run was interrupted (then the rule is not called again)."""

    rng = None
    error = None
    stop = False
    polled = None  # when a compiled rule's kernel last asked about Ctrl-C (time.perf_counter)
    every = 1      # and how many decisions it was told to wait


def _wrap_choose(fn, state):
    @njit(CHOOSE_SIG)
    def choose(q, n, t, params, rng):
        with objmode(i="int64", flag="int64"):
            i, flag = _call_choose(fn, q, n, t, params, state)
        return i, flag
    return choose


def _wrap_give_up(fn, state):
    @njit(GIVE_UP_SIG)
    def give_up(q, n, t, params):
        with objmode(i="int64"):
            i = _call_give_up(fn, q, n, t, params, state)
        return i
    return give_up


# ---------------------------------------------------------------- the rule --

class Rule:
    """A plug-in choice rule: ``choose`` (and optionally ``give_up``), with named parameters.

    A plain Python function is compiled by numba when numba can (else it runs in Python, and the Rule says
    why); play it with :class:`~sweeper.agents.kinds.RuleAgent`.

    Parameters
    ----------
    choose : callable
        ``choose(q, n, t, params, rng) -> (index, flag)``, following the contract of
        :mod:`sweeper.agents.custom`: a plain Python function or a :func:`numba.njit` one.
    params : dict, optional
        Names (non-empty strings) to finite numbers, order kept, handed to the functions as a float64
        array. None: no parameters.
    give_up : callable, optional
        ``give_up(q, n, t, params) -> index``, the flag to give up when the agent has placed one flag more
        than there are mines; default (None): the paper's rule, the lowest Q, ties to the last.
    name : str, optional
        How agents, tables and files name the rule (default: the function's name).
    library : bool, default False
        True only for the named rules of :mod:`sweeper.agents.rule_library`, which use their key as
        ``name``: a saved agent of a library rule reloads by name, any other rule's agent reloads only when
        its rule is passed, whatever its name.
    compile : bool, default True
        Have numba compile a plain Python ``choose`` (and ``give_up``); False keeps it in Python (for
        ``print`` or a debugger inside the rule).

    Attributes
    ----------
    name : str
        The rule's name: ``name`` if given, else the function's ``__name__`` (``"rule"`` if it has none).
    params : dict
        Parameter names to values (floats), in the order given; :meth:`with_params` makes a copy with others.
    library : bool
        Whether the rule is one of :mod:`sweeper.agents.rule_library`'s named rules.
    choose : callable
        The ``choose`` the engine calls: a numba-compiled function when :attr:`compiled`, else the Python one.
    give_up : callable or None
        The ``give_up`` the engine calls (numba-compiled if given so, or when the Rule compiles ``choose``);
        None: the paper's rule, the lowest Q, ties to the last.
    source : tuple
        ``(choose, give_up)`` as passed in: a Python function stays one here, compiled or not.
    compiled : bool
        Whether ``choose`` runs compiled by numba (a :func:`numba.njit` function, or compiled by the Rule).
    automatic : bool
        Whether the Rule compiled a plain Python ``choose`` itself; only such a rule is compiled again when a
        global or closure variable it reads has changed by the start of a run.
    notice : str or None
        The message of the :class:`PythonRuleNotice` or :class:`CompiledRuleNotice` warned when the Rule was
        made; None if there was none.

    Raises
    ------
    TypeError
        If ``choose`` is not callable, or ``give_up`` is neither callable nor None.
    ValueError
        If a parameter name is not a non-empty string or its value not a finite number; ``compile`` is not
        a bool; ``name`` is not None or a non-empty string; or ``compile=False`` is given with a function
        numba has already compiled.

    Warns
    -----
    PythonRuleNotice
        When numba cannot compile the rule, which then runs as plain Python (the message says why).
    CompiledRuleNotice
        When the compiled rule may differ from its Python self (integer products, powers or shifts that
        may wrap at 64 bits: the message names their lines).

    Notes
    -----
    The contract. ``choose(q, n, t, params, rng)`` is called once per decision with ``q``, a float64 array: the
    value estimate Q of every candidate action of the decision (-1 for an action never tried), in scan order
    (tiles row-major, for each covered unflagged tile its windows' centres in the fixed order of
    :mod:`sweeper.agents.kernels`); ``n``, an int64 array of the same length: how often each action was tried (N,
    0 if never); ``t``, an int: the agent's decisions so far, this one included (1, 2, ...); ``params``, a float64
    array: the rule's parameters, in the order given here; ``rng``, a :class:`numpy.random.Generator`: the rule's
    own random stream, seeded from the run's seed (same seed, same games). It returns the index of the candidate
    to act on (``0 <= index < len(q)``) and whether to flag its target (True) or click it (False).
    ``give_up(q, n, t, params) -> index`` is called over every (flagged tile, window) pair in scan order when the
    agent has placed one flag more than there are mines; the default, the paper's rule, is the lowest Q, ties to
    the last (:func:`lowest_value_last`).

    Two speeds, one contract. A rule numba can compile runs compiled inside the kernel: a function decorated with
    :func:`numba.njit`, and also a plain Python/NumPy function, which the Rule hands to numba itself. Compiled, it
    plays the games it plays in Python, or stops with the same :class:`RuleError`: bounds are checked (an index
    past the end of ``q`` is an ``IndexError``), its answer is checked in the kernel as in Python (an index in
    range, a flag that is a bool, 0 or 1), ``int(x)`` of a NaN or an infinity raises as Python's does, and the
    globals (and closure variables) it reads, which numba fixes when it compiles, are compared with their values
    at the start of every run: the rule is compiled again when one has changed. What compiling cannot keep is
    said once, when the Rule is made, as a :class:`CompiledRuleNotice`: numba's integers have 64 bits, so integer
    products, powers and shifts that pass 2**63 wrap where Python's grow (the notice names their lines; numba
    refuses a larger integer constant, so such a rule stays in Python), and a float made an integer by a NumPy
    type (``np.int64(x)``) gives some integer for a NaN, even the constant ``np.nan``, where Python raises (the
    notice names those lines too; ``int(x)`` keeps Python's checks). A function numba cannot compile (one that
    uses Python objects numba does not know, for instance) is called from inside the kernel through numba's
    object mode instead, each decision crossing into Python and back, and the Rule says so once, with numba's
    reason, as a :class:`PythonRuleNotice`; ``compile=False`` chooses that path on purpose (for ``print`` or a
    debugger inside the rule). ``python -m sweeper bench`` measures both paths beside the built-in greedy. Ctrl-C
    stops either within about a second: a Python rule is asked at every decision, a compiled one's kernel every
    tenth of a second of decisions (:data:`POLL_SECONDS`).
    """

    def __init__(self, choose, params=None, *, give_up=None, name: str | None = None, library: bool = False,
                 compile: bool = True):
        if not callable(choose):
            raise TypeError(f"choose must be a function, got {choose!r}")
        if give_up is not None and not callable(give_up):
            raise TypeError(f"give_up must be a function or None, got {give_up!r}")
        params = _checked_params(params)
        if not isinstance(compile, (bool, np.bool_)):
            raise ValueError(f"compile must be True or False, got {compile!r}")
        if name is not None and (not isinstance(name, str) or not name.strip()):
            raise ValueError(f"name must be a non-empty string (or None for the function's name), got {name!r}")
        self.name = name or getattr(getattr(choose, "py_func", choose), "__name__", "rule")
        self.params = params
        self.library = bool(library)  # one of sweeper.agents.rule_library's named rules (set there only)
        #: the functions as the reader wrote them (a Python function stays one here, compiled or not)
        self.source = (choose, give_up)
        self.notice = None
        self._adapted = None
        self._found = None
        if compile and not isinstance(choose, Dispatcher):
            choose, give_up, self._adapted, self.notice, self._found = compile_rule(choose, give_up, self.name)
            if self.notice is not None:
                warnings.warn(self.notice, PythonRuleNotice, stacklevel=2)
            else:
                self.notice = compiled_notice(self.name, self._found)
                if self.notice is not None:
                    warnings.warn(self.notice, CompiledRuleNotice, stacklevel=2)
        elif not compile and isinstance(choose, Dispatcher):
            raise ValueError(f"compile=False keeps a Python rule in Python; {describe(choose)} is already "
                             "compiled by numba (pass its .py_func to run it as Python)")
        self.choose = choose
        self.give_up = give_up
        self.compiled = isinstance(choose, Dispatcher)
        self.automatic = self.compiled and not isinstance(self.source[0], Dispatcher)
        self._state = _PythonState()
        self._kernel_fns = None

    def __repr__(self) -> str:
        speed = "compiled automatically" if self.automatic else "njit" if self.compiled else "python"
        return f"Rule({self.name!r}, params={self.params}, {speed}: {describe(self.choose)})"

    def with_params(self, **params) -> "Rule":
        """The same functions with other parameter values (names must be the rule's own).

        Parameters
        ----------
        **params
            New values (finite numbers) of some of the rule's parameters, by name; the others keep theirs.

        Returns
        -------
        Rule
            A copy of the rule with those values, its functions not compiled again.

        Raises
        ------
        ValueError
            If a name is not one of the rule's parameters, or a value is not a finite number.
        """
        unknown = sorted(set(params) - set(self.params))
        if unknown:
            raise ValueError(f"rule {self.name!r} has parameters {list(self.params)}, not {unknown}")
        other = copy.copy(self)  # the same functions, compiled or not, without compiling them again
        other.params = {**self.params, **_checked_params(params)}
        other._state = _PythonState()
        other._kernel_fns = None
        return other

    @property
    def label(self) -> str:
        """``NAME`` or ``NAME:P1,P2``: the part of an agent spec after ``rule:``."""
        values = ",".join(f"{v:g}" for v in self.params.values())
        return self.name + (":" + values if values else "")

    def _recompile_if_globals_changed(self) -> None:
        """A rule compiled automatically reads the globals (and closure variables) it had when compiled; when one
        has changed since, compile it again, so that it plays what its Python self would."""
        if not self.automatic or self._found is None or not changed_globals(self._found.frozen):
            return
        choose, give_up, adapted, notice, found = compile_rule(*self.source, self.name)
        if notice is not None:  # the new values are beyond numba: Python then
            warnings.warn(notice, PythonRuleNotice, stacklevel=3)
        self.choose, self.give_up, self._adapted, self._found = choose, give_up, adapted, found
        self.compiled = self.automatic = isinstance(choose, Dispatcher)
        self._kernel_fns = None

    def _kernel_functions(self):
        """(choose, poll, give_up) as functions the kernels can call (Python ones wrapped, compiled once)."""
        self._recompile_if_globals_changed()
        if self._kernel_fns is None:
            if self.compiled:
                ch = self._adapted if self._adapted is not None else adapt_choose(self.choose)
                poll = _wrap_poll(self._state)
            else:
                ch = _wrap_choose(self.choose, self._state)
                poll = never_poll
            gu = self.give_up
            if gu is None:
                gu = lowest_value_last
            elif isinstance(gu, Dispatcher):
                gu = adapt_give_up(gu)
            else:
                gu = _wrap_give_up(gu, self._state)
            self._kernel_fns = (ch, poll, gu)
        return self._kernel_fns

    def _kernel_args(self, rng: np.random.Generator, capacity: int) -> kernels.RuleArgs:
        """What the kernels take (:class:`sweeper.agents.kernels.RuleArgs`): the functions, parameters, random
        stream, work buffers for ``capacity`` candidates, the status array and the interrupt poll."""
        ch, poll, gu = self._kernel_functions()
        self._state.rng = rng
        self._state.error = None
        self._state.stop = False
        self._state.polled, self._state.every = None, 1
        return kernels.RuleArgs(choose=(ch,), give_up=(gu,),
                                params=np.array(list(self.params.values()), dtype=np.float64), rng=rng,
                                values=np.empty(capacity), counts=np.empty(capacity, dtype=np.int64),
                                indices=np.empty(2 * capacity, dtype=np.int64),
                                status=np.zeros(E_SIZE, dtype=np.int64), poll=(poll,))

    def _interrupt(self) -> None:
        """Stop a run of this rule at its next decision (Ctrl-C; a compiled rule stops between kernel calls)."""
        self._state.stop = True

    @property
    def _interrupted(self) -> bool:
        return bool(self._state.stop)

    def _use_rng(self, rng) -> None:
        """Make ``rng`` the stream a Python rule sees (the kernels take theirs from :meth:`_kernel_args`)."""
        self._state.rng = rng

    # -- failures ----------------------------------------------------------------
    def _failure(self, args, games_before: int = 0) -> str | None:
        """None if the status of ``args`` (:meth:`_kernel_args`) is clean, else the message of what went wrong (and
        ``self.cause``: the exception to chain, if any)."""
        st = args.status
        code = int(st[E_CODE])
        py_error = self._state.error
        self.cause = py_error
        if code == 0 and py_error is None:
            return None
        where = (f"in game {games_before + int(st[E_GAME]) + 1:,} of the run, at the agent's decision "
                 f"{int(st[E_DECISION]):,}")
        fn = "give_up" if code in (RULE_BAD_GIVE_UP, RULE_GIVE_UP_RAISED) else "choose"
        m = int(st[E_COUNT])
        failed = f"rule {self.name!r}: {fn} failed {where} ({m} candidates): "
        if py_error is not None:
            return failed + f"{type(py_error).__name__}: {py_error}"
        # a compiled rule's bad answer: the error its Python source gives on the same inputs, as the Python path
        # would report it (raised, or an answer the Python path refuses), when it gives one
        self.cause = self._replay(fn, args, m, int(st[E_DECISION]))
        if self.cause is not None:
            return failed + f"{type(self.cause).__name__}: {self.cause}"
        if code == RULE_BAD_FLAG:
            self.cause = TypeError(f"the flag must be True or False, got {int(st[E_INDEX])} (int)")
            return failed + f"TypeError: {self.cause}"
        if code in (RULE_BAD_INDEX, RULE_BAD_GIVE_UP):
            return (f"rule {self.name!r}: {fn} returned index {int(st[E_INDEX])} {where}, but there were {m} "
                    f"candidates (valid: 0..{m - 1}, an integer)")
        if code in (RULE_RAISED, RULE_GIVE_UP_RAISED):
            return (f"rule {self.name!r}: the compiled {fn} raised an exception {where} ({m} candidates) (its Python "
                    f"source does not raise on the same inputs; run the rule without njit to debug)")
        return f"rule {self.name!r}: status code {code} {where}"

    def _replay(self, fn_name, args, m, t):
        """Run the Python source of a compiled function on the inputs of its failed decision: the exception it
        raises there, or the one the Python path's checks raise on its answer (``_as_index``, ``_as_flag``), or
        None. (The rule's random stream is the one after the compiled call.)"""
        fn = self.choose if fn_name == "choose" else self.give_up
        py = getattr(fn, "py_func", None)
        if py is None:
            return None
        q, n = args.values[:m].copy(), args.counts[:m].copy()
        try:
            if fn_name == "choose":
                answer = py(q, n, t, args.params.copy(), copy.deepcopy(args.rng))
                if not isinstance(answer, tuple) or len(answer) != 2:
                    raise TypeError(f"choose must return a pair (index, flag), got {answer!r}")
                _as_index(answer[0]), _as_flag(answer[1])
            else:
                _as_index(py(q, n, t, args.params.copy()))
        except Exception as exc:  # noqa: BLE001
            return exc
        return None




# The kernels a plug-in rule runs in are the built-in ones (:mod:`sweeper.agents.kernels` and
# :mod:`sweeper.agents.loop`), given the rule's arguments.
play_games = loop.play_games
choose = kernels.choose
apply = loop.apply


def raise_failure(rule: "Rule", args, where: str) -> None:
    """After a kernel call that played one game step by step (an Episode, the env's policy): raise the rule's
    failure, if any, as a :class:`RuleError` naming ``where`` ("in this episode"); Ctrl-C inside the rule
    stays a ``KeyboardInterrupt``."""
    message = rule._failure(args)
    if message is None:
        return
    if isinstance(rule.cause, KeyboardInterrupt):
        raise KeyboardInterrupt(f"interrupted inside the rule {rule.name!r}")
    raise RuleError(message.replace("in game 1 of the run", where)) from rule.cause


def quiet(fn, *args):
    """Call a kernel with a rule tuple (numba calls functions held in a tuple an experimental feature)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)
        return fn(*args)
