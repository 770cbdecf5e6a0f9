"""Write your own bandit: a plug-in choice rule, played by the same engine as the paper's agents.

The contract
------------
A rule is one function, called once per decision::

    choose(q, n, t, params, rng) -> (index, flag)

``q``
    float64 array: the value estimate Q of every candidate action of the
    decision (-1 for an action never tried), in scan order (tiles row-major,
    for each covered unflagged tile its windows' centres in the fixed order of
    :mod:`sweeper.agents.kernels`).
``n``
    int64 array, same length: how often each action was tried (N, 0 if never).
``t``
    int: the agent's decisions so far, this one included (1, 2, ...).
``params``
    float64 array: the rule's parameters, in the order given to :class:`Rule`.
``rng``
    a :class:`numpy.random.Generator`: the rule's own random stream, seeded
    from the run's seed (same seed, same games).

It returns the index of the candidate to act on (``0 <= index < len(q)``) and
whether to flag its target (True) or click it (False).

Optionally a second function picks the flag to give up when the agent has
placed one flag more than there are mines::

    give_up(q, n, t, params) -> index

over every (flagged tile, window) pair in scan order; the default, the paper's
rule, is the lowest Q, ties to the last (:func:`lowest_value_last`).

Everything else is the engine's, exactly as for the built-in agents: windows and
their symmetries, the flag limit and forced removals, clicks learned at once and
flags at the end of the game, the records, saving, the step-through
(:class:`~sweeper.running.episode.Episode`) and the experiment runner (agent
spec ``rule:NAME[:P1,P2,...]`` for the rules of :mod:`sweeper.agents.rule_library` or ``module.function``).

Two speeds, one contract. A rule numba can compile runs compiled inside the
kernel: a function decorated with :func:`numba.njit`, and also a plain
Python/NumPy function, which :class:`Rule` hands to numba itself (with bounds
checks on, so an index past the end of ``q`` is an ``IndexError`` as in
Python; globals the function reads are fixed when the Rule is made: pass numbers
that change as ``params``; numba's integers have 64 bits: numba refuses a larger
integer constant, so such a rule stays in Python, but arithmetic that passes
2**63 wraps where Python's would grow). A function numba cannot compile (one that uses
Python objects numba does not know, for instance) is called from inside the
kernel through numba's object mode instead, each decision crossing into Python
and back, and :class:`Rule` says so once, with numba's reason, as a
:class:`PythonRuleNotice`; ``compile=False`` chooses that path on purpose (for
``print`` or a debugger inside the rule). ``python -m sweeper bench`` measures
both paths beside the built-in greedy.

A bad rule gets a clear error, never a crash or a silent result: an index out
of range or not an integer, a flag that is not a truth value, a wrong return
shape, or an exception inside the rule stop the run with :class:`RuleError`,
which names the game and decision, chains the rule's own exception (for a
compiled rule, the error its Python source raises on the same inputs, when it
does) and carries the finished games in ``error.run``.
"""

from __future__ import annotations

import copy
import math
import types as pytypes
import warnings

import numpy as np
from numba import njit, objmode, types
from numba.core.dispatcher import Dispatcher
from numba.core.errors import NumbaError, NumbaExperimentalFeatureWarning

from . import kernels
from .kernels import E_CODE, E_COUNT, E_DECISION, E_GAME, E_INDEX, E_SIZE, RULE_BAD_GIVE_UP, RULE_BAD_INDEX, \
    RULE_GIVE_UP_RAISED, RULE_RAISED



class RuleError(RuntimeError):
    """A plug-in rule failed; ``run`` holds the games finished before (a :class:`~sweeper.running.training.Run`,
    or None outside a run)."""

    def __init__(self, message, run=None):
        super().__init__(message)
        self.run = run


# The kernels hold the rule's functions as first-class functions of these fixed signatures, so one compiled
# (and disk-cached) kernel serves every rule; each rule is adapted to them by a small compiled wrapper.
_Q = types.Array(types.float64, 1, "C")
_N = types.Array(types.int64, 1, "C")
_RNG = types.NumPyRandomGeneratorType("NumPyRandomGeneratorType")
CHOOSE_ARGS = (_Q, _N, types.int64, _Q, _RNG)
GIVE_UP_ARGS = (_Q, _N, types.int64, _Q)
CHOOSE_SIG = types.UniTuple(types.int64, 2)(*CHOOSE_ARGS)
GIVE_UP_SIG = types.int64(*GIVE_UP_ARGS)


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


class PythonRuleNotice(UserWarning):
    """A plug-in rule runs as plain Python because numba could not compile it (the message says why)."""


def _jit(fn, depth: int = 4):
    """``fn`` compiled by numba (bounds checked), with the plain Python functions of its own module that it calls
    (its helpers, such as a greedy rule that an exploring rule falls back on) compiled the same way, to ``depth``
    levels: numba compiles calls to compiled functions only. The helpers are replaced in a copy of ``fn``'s
    globals; the reader's functions are not changed."""
    if isinstance(fn, Dispatcher) or not isinstance(fn, pytypes.FunctionType):
        return fn
    helpers = {}
    if depth > 0:
        for name in fn.__code__.co_names:
            obj = fn.__globals__.get(name)
            if (isinstance(obj, pytypes.FunctionType) and obj is not fn
                    and getattr(obj, "__module__", None) == fn.__module__):
                helpers[name] = _jit(obj, depth - 1)
    if helpers:
        fn = pytypes.FunctionType(fn.__code__, {**fn.__globals__, **helpers}, fn.__name__, fn.__defaults__,
                                  fn.__closure__)
    return njit(boundscheck=True)(fn)


def _compile_rule(choose, give_up, name):
    """``(choose, give_up, adapted choose, notice)``: the functions compiled by numba (bounds checked) where numba
    compiles them for the contract, else the Python functions and the reason, in one line."""
    try:
        ch = _jit(choose)
        adapted = _adapt_choose(ch)
        gu = give_up
        if give_up is not None and not isinstance(give_up, Dispatcher):
            gu = _jit(give_up)
            _adapt_give_up(gu)
    except TypeError as exc:  # numba's refusal (the cause), or a return type outside the contract
        reason = _numba_reason(exc.__cause__) if exc.__cause__ is not None else " ".join(str(exc).split())
        return choose, give_up, None, (
            f"rule {name!r} runs as plain Python (each decision crosses into Python and back: 4 to 30 times slower "
            f"than compiled, `python -m sweeper bench` measures both), because numba could not compile it: "
            f"{reason}. Rule(..., compile=False) chooses plain Python without this notice.")
    return ch, gu, adapted, None


class _PythonState:
    """The Python rule's random stream for the current call, the exception it raised, if any, and whether
    the run was interrupted (then the rule is not called again)."""

    rng = None
    error = None
    stop = False


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


# ------------------------------------------------------------ compiled rules --

def _compiled_return(fn, args, what):
    """Compile a user's njit function for the contract's argument types; its inferred return type."""
    try:
        fn.compile(args)
    except Exception as exc:  # noqa: BLE001 - NumbaError, and numba's other refusals (unsupported bytecode ...)
        raise TypeError(f"numba cannot compile {what} {_describe(fn)} for the contract's arguments "
                        f"(q float64[:], n int64[:], t int64, params float64[:]{', rng Generator' if len(args) == 5 else ''}): "
                        f"{_numba_reason(exc)}") from exc
    for sig in fn.nopython_signatures:
        if tuple(sig.args) == tuple(args):
            return sig.return_type
    raise TypeError(f"numba compiled {what} {_describe(fn)} for other argument types than the contract's")


def _numba_reason(exc) -> str:
    """numba's reason in one line: its first line after the pipeline's name, and the source line it points at."""
    lines = [ln for ln in str(exc).splitlines()]
    text = [ln.strip() for ln in lines if ln.strip()]
    signature = next((ln[4:] for ln in text if ln.startswith(">>> ")), None)
    specific = next((text[i + 1] for i, ln in enumerate(text[:-1]) if "raised a specific error" in ln), None)
    if signature:  # a call numba has no version of: say which, and its own complaint
        reason = f"no implementation of {signature}" + (f" ({specific})" if specific else "")
    else:
        reason = next((ln for ln in text[1:] if not ln.startswith(("File ", "During:", "- "))),
                      text[0] if text else "")
    reason = reason if len(reason) <= 200 else reason[:197] + "..."
    at = next((i for i, ln in enumerate(lines) if ln.startswith("File ") and ", line " in ln), None)
    if at is not None:
        caret = next((i for i in range(at + 1, min(at + 8, len(lines))) if lines[i].strip() == "^"), None)
        if caret is not None:
            number = lines[at].rsplit(", line ", 1)[1].rstrip(":")
            reason += f" (line {number}: {lines[caret - 1].strip()})"
    return reason


def _integer(t) -> bool:
    return isinstance(t, types.Integer)


def _adapt_choose(fn):
    ret = _compiled_return(fn, CHOOSE_ARGS, "choose")
    if not (isinstance(ret, types.BaseTuple) and len(ret) == 2 and _integer(ret[0])
            and isinstance(ret[1], (types.Boolean, types.Integer))):
        raise TypeError(f"choose {_describe(fn)} must return (integer index, bool flag); numba infers {ret}")

    @njit(CHOOSE_SIG)
    def choose(q, n, t, params, rng):
        i, flag = fn(q, n, t, params, rng)
        return np.int64(i), np.int64(1 if flag else 0)
    return choose


def _adapt_give_up(fn):
    ret = _compiled_return(fn, GIVE_UP_ARGS, "give_up")
    if not _integer(ret):
        raise TypeError(f"give_up {_describe(fn)} must return an integer index; numba infers {ret}")

    @njit(GIVE_UP_SIG)
    def give_up(q, n, t, params):
        return np.int64(fn(q, n, t, params))
    return give_up


# ---------------------------------------------------------------- the rule --

def _describe(fn) -> str:
    fn = getattr(fn, "py_func", fn)
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"


class Rule:
    """A plug-in choice rule: ``choose`` (and optionally ``give_up``), with named parameters.

    ``choose`` and ``give_up`` follow the contract of :mod:`sweeper.agents.custom`; each is a plain
    Python function or a :func:`numba.njit` one. ``params``: a dict of names to numbers (order kept),
    handed to the functions as a float64 array. ``name``: how agents, tables and files name the rule
    (default: the function's name; the named rules of :mod:`sweeper.agents.rule_library` use their key, and
    only they are made with ``library=True``: a saved agent of a library rule reloads by name, any other
    rule's agent reloads only when its rule is passed, whatever its name)."""

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
        if compile and not isinstance(choose, Dispatcher):
            choose, give_up, self._adapted, self.notice = _compile_rule(choose, give_up, self.name)
            if self.notice is not None:
                warnings.warn(self.notice, PythonRuleNotice, stacklevel=2)
        elif not compile and isinstance(choose, Dispatcher):
            raise ValueError(f"compile=False keeps a Python rule in Python; {_describe(choose)} is already "
                             "compiled by numba (pass its .py_func to run it as Python)")
        self.choose = choose
        self.give_up = give_up
        self.compiled = isinstance(choose, Dispatcher)
        self.automatic = self.compiled and not isinstance(self.source[0], Dispatcher)
        self._state = _PythonState()
        self._kernel_fns = None

    def __repr__(self) -> str:
        speed = "compiled automatically" if self.automatic else "njit" if self.compiled else "python"
        return f"Rule({self.name!r}, params={self.params}, {speed}: {_describe(self.choose)})"

    def with_params(self, **params) -> "Rule":
        """The same functions with other parameter values (names must be the rule's own)."""
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

    def kernel_functions(self):
        """(choose, give_up) as functions the kernels can call (Python ones wrapped, compiled once)."""
        if self._kernel_fns is None:
            if self.compiled:
                ch = self._adapted if self._adapted is not None else _adapt_choose(self.choose)
            else:
                ch = _wrap_choose(self.choose, self._state)
            gu = self.give_up
            if gu is None:
                gu = lowest_value_last
            elif isinstance(gu, Dispatcher):
                gu = _adapt_give_up(gu)
            else:
                gu = _wrap_give_up(gu, self._state)
            self._kernel_fns = (ch, gu)
        return self._kernel_fns

    def bundle(self, rng: np.random.Generator, capacity: int) -> tuple:
        """The tuple the kernels take (:func:`sweeper.agents.kernels.choose_by_rule`): functions, parameters,
        random stream, work buffers for ``capacity`` candidates and the status array."""
        ch, gu = self.kernel_functions()
        self._state.rng = rng
        self._state.error = None
        self._state.stop = False
        return ((ch,), (gu,), np.array(list(self.params.values()), dtype=np.float64), rng, np.empty(capacity),
                np.empty(capacity, dtype=np.int64), np.empty(2 * capacity, dtype=np.int64),
                np.zeros(E_SIZE, dtype=np.int64))

    def interrupt(self) -> None:
        """Stop a run of this rule at its next decision (Ctrl-C; a compiled rule stops between kernel calls)."""
        self._state.stop = True

    @property
    def interrupted(self) -> bool:
        return bool(self._state.stop)

    def use_rng(self, rng) -> None:
        """Make ``rng`` the stream a Python rule sees (the kernels take theirs from the bundle)."""
        self._state.rng = rng

    # -- failures ----------------------------------------------------------------
    def failure(self, bundle, games_before: int = 0) -> str | None:
        """None if the bundle's status is clean, else the message of what went wrong (and
        ``self.cause``: the exception to chain, if any)."""
        st = bundle[7]
        code = int(st[E_CODE])
        py_error = self._state.error
        self.cause = py_error
        if code == 0 and py_error is None:
            return None
        where = f"in game {games_before + int(st[E_GAME]) + 1:,} of the run, at the agent's decision {int(st[E_DECISION]):,}"
        fn = "give_up" if code in (RULE_BAD_GIVE_UP, RULE_GIVE_UP_RAISED) else "choose"
        m = int(st[E_COUNT])
        if py_error is not None:
            return f"rule {self.name!r}: {fn} failed {where} ({m} candidates): {type(py_error).__name__}: {py_error}"
        if code in (RULE_BAD_INDEX, RULE_BAD_GIVE_UP):
            return (f"rule {self.name!r}: {fn} returned index {int(st[E_INDEX])} {where}, but there were {m} "
                    f"candidates (valid: 0..{m - 1}, an integer)")
        if code in (RULE_RAISED, RULE_GIVE_UP_RAISED):
            self.cause = self._replay(fn, bundle, m, int(st[E_DECISION]))
            detail = (f": {type(self.cause).__name__}: {self.cause}" if self.cause is not None else
                      " (its Python source does not raise on the same inputs; run the rule without njit to debug)")
            return f"rule {self.name!r}: the compiled {fn} raised an exception {where} ({m} candidates){detail}"
        return f"rule {self.name!r}: status code {code} {where}"

    def _replay(self, fn_name, bundle, m, t):
        """Run the Python source of a compiled function on the inputs that made it raise, for a traceback."""
        fn = self.choose if fn_name == "choose" else self.give_up
        py = getattr(fn, "py_func", None)
        if py is None:
            return None
        q, n = bundle[4][:m].copy(), bundle[5][:m].copy()
        try:
            if fn_name == "choose":
                py(q, n, t, bundle[2].copy(), copy.deepcopy(bundle[3]))
            else:
                py(q, n, t, bundle[2].copy())
        except Exception as exc:  # noqa: BLE001
            return exc
        return None




# The kernels a plug-in rule runs in are the built-in ones (:mod:`sweeper.agents.kernels`), given the rule's tuple.
play_games = kernels.play_games
choose = kernels.choose
apply = kernels.apply


def raise_failure(rule: "Rule", bundle, where: str) -> None:
    """After a kernel call that played one game step by step (an Episode, the env's policy): raise the rule's
    failure, if any, as a :class:`RuleError` naming ``where`` ("in this episode"); Ctrl-C inside the rule
    stays a ``KeyboardInterrupt``."""
    message = rule.failure(bundle)
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
