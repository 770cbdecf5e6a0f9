"""How a plug-in rule's plain Python functions become compiled ones (:class:`sweeper.agents.custom.Rule` does it
when numba can): the signatures the kernels hold a rule's functions by, the compilation of a rule and of the helpers
of its own module (with Python's checks on ``int`` kept, :func:`checked_int`), what compilation fixes or may change
(:func:`changed_globals`, :func:`compiled_notice`), and the small compiled wrappers that adapt a compiled rule to
the kernels' signatures (:func:`adapt_choose`, :func:`adapt_give_up`)."""

from __future__ import annotations

import operator
import types as pytypes

import numpy as np
from numba import njit, types
from numba.core.dispatcher import Dispatcher
from numba.extending import overload

# The kernels hold the rule's functions as first-class functions of these fixed signatures, so one compiled
# (and disk-cached) kernel serves every rule; each rule is adapted to them by a small compiled wrapper.
_Q = types.Array(types.float64, 1, "C")
_N = types.Array(types.int64, 1, "C")
_RNG = types.NumPyRandomGeneratorType("NumPyRandomGeneratorType")
CHOOSE_ARGS = (_Q, _N, types.int64, _Q, _RNG)
GIVE_UP_ARGS = (_Q, _N, types.int64, _Q)
CHOOSE_SIG = types.UniTuple(types.int64, 2)(*CHOOSE_ARGS)
GIVE_UP_SIG = types.int64(*GIVE_UP_ARGS)
POLL_SIG = types.int64()


class PythonRuleNotice(UserWarning):
    """A plug-in rule runs as plain Python because numba could not compile it (the message says why)."""


def checked_int(x):
    """``int(x)`` inside a rule :class:`Rule` compiles: as Python's, a NaN is a ``ValueError`` and an infinity an
    ``OverflowError`` (numba's own ``int`` gives some integer); so is a float beyond numba's 64-bit integers."""
    return int(x)


@overload(checked_int)
def _checked_int_impl(x):
    if not isinstance(x, types.Float):
        return lambda x: int(x)

    def impl(x):
        if x != x:
            raise ValueError("cannot convert float NaN to integer")
        if x == np.inf or x == -np.inf:
            raise OverflowError("cannot convert float infinity to integer")
        if not -9.223372036854775808e18 <= x < 9.223372036854775808e18:
            raise OverflowError("float too large for a compiled rule's 64-bit integers")
        return int(x)
    return impl


class _Compiling:
    """What :func:`_jit` found while compiling a rule: the data its functions read from their globals and closures
    (numba fixes them at compile time: ``frozen``, (place, name, value when compiled)) and the functions it
    compiled."""

    def __init__(self):
        self.frozen = []
        self.compiled = []


def _data(obj) -> bool:
    """A value numba would fix in the compiled code (not a module, function, class or compiled function)."""
    return not isinstance(obj, (pytypes.ModuleType, pytypes.FunctionType, pytypes.BuiltinFunctionType, type,
                                Dispatcher)) and not callable(obj)


def _snapshot(obj):
    """A copy of an array (in tuples and lists too), to see a change in place; any other object itself."""
    if isinstance(obj, np.ndarray):
        return obj.copy()
    if isinstance(obj, (tuple, list)):
        return type(obj)(_snapshot(x) for x in obj)
    return obj


def _same(a, b) -> bool:
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001
        return False


def _jit(fn, depth: int = 4, found: _Compiling | None = None):
    """``fn`` compiled by numba (bounds checked), with the plain Python functions of its own module that it calls
    (its helpers, such as a greedy rule that an exploring rule falls back on) compiled the same way, to ``depth``
    levels: numba compiles calls to compiled functions only. The helpers (and ``int``, by :func:`checked_int`)
    are replaced in a copy of ``fn``'s globals; the reader's functions are not changed. ``found`` collects the
    data the functions read from globals and closures, which numba fixes now."""
    if isinstance(fn, Dispatcher) or not isinstance(fn, pytypes.FunctionType):
        return fn
    found = found if found is not None else _Compiling()
    extra = {}
    for name in fn.__code__.co_names:
        if name not in fn.__globals__:
            if name == "int":  # the builtin: Python's checks kept
                extra[name] = checked_int
            continue
        obj = fn.__globals__[name]
        if (depth > 0 and isinstance(obj, pytypes.FunctionType) and obj is not fn
                and getattr(obj, "__module__", None) == fn.__module__):
            extra[name] = _jit(obj, depth - 1, found)
        elif _data(obj):
            found.frozen.append((fn.__globals__, name, _snapshot(obj)))
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if _data(value):
            found.frozen.append((cell, name, _snapshot(value)))
    if extra:
        fn = pytypes.FunctionType(fn.__code__, {**fn.__globals__, **extra}, fn.__name__, fn.__defaults__,
                                  fn.__closure__)
    compiled = njit(boundscheck=True)(fn)
    found.compiled.append(compiled)
    return compiled


def changed_globals(frozen) -> list[str]:
    """The names among ``frozen`` (see :class:`_Compiling`) whose value is no longer the one compiled."""
    names = []
    for place, name, value in frozen:
        if isinstance(place, dict):
            now, gone = place.get(name), name not in place
        else:
            try:
                now, gone = place.cell_contents, False
            except ValueError:
                now, gone = None, True
        if gone or not _same(now, value):
            names.append(name)
    return names


#: The integer operations whose result outgrows 64 bits quickly (numba wraps it; Python's integer grows).
_WIDE = {operator.mul, operator.pow, operator.lshift, operator.imul, operator.ipow, operator.ilshift}


def _statements(compiled):
    """``(statement, typemap)`` of every assignment of an expression in the typed code of ``compiled`` (numba
    dispatchers, compiled)."""
    from numba.core import ir
    for fn in compiled:
        for cres in fn.overloads.values():
            ann = getattr(cres, "type_annotation", None)
            if ann is None:
                continue
            for block in ann.blocks.values():
                for stmt in block.body:
                    if isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.Expr):
                        yield stmt, ann.typemap


def _wide_integer_lines(compiled) -> list[int]:
    """The source lines of ``compiled`` functions (numba dispatchers, compiled) with an integer product, power or
    left shift: where a compiled rule's 64-bit integers may wrap where Python's would grow."""
    return sorted({stmt.loc.line for stmt, typemap in _statements(compiled)
                   if stmt.value.op in ("binop", "inplace_binop")
                   and (stmt.value.fn in _WIDE or stmt.value._kws.get("immutable_fn") in _WIDE)
                   and isinstance(typemap.get(stmt.target.name), types.Integer)})


def _float_to_integer_lines(compiled) -> list[int]:
    """The source lines of ``compiled`` functions where a float becomes an integer through a NumPy integer type
    (``np.int64(x)``, ``np.int32(x)`` ...): numba gives some integer for a NaN or an infinity there (even for the
    constant ``np.nan``), where Python raises or NumPy gives -2**63 with a warning. (``int(x)`` keeps Python's
    checks: :func:`checked_int`.)"""
    return sorted({stmt.loc.line for stmt, typemap in _statements(compiled)
                   if stmt.value.op == "call"
                   and isinstance(typemap.get(stmt.value.func.name), types.NumberClass)
                   and isinstance(typemap[stmt.value.func.name].instance_type, types.Integer)
                   and any(isinstance(typemap.get(a.name), types.Float) for a in stmt.value.args)})


def compile_rule(choose, give_up, name):
    """``(choose, give_up, adapted choose, notice, found)``: the functions compiled by numba (bounds checked, ``int``
    checked as Python's) where numba compiles them for the contract, else the Python
    functions and the reason, in one line; ``found``: what :func:`_jit` found (a :class:`_Compiling`)."""
    found = _Compiling()
    try:
        ch = _jit(choose, found=found)
        adapted = adapt_choose(ch)
        gu = give_up
        if give_up is not None and not isinstance(give_up, Dispatcher):
            gu = _jit(give_up, found=found)
            adapt_give_up(gu)
    except TypeError as exc:  # numba's refusal (the cause), or a return type outside the contract
        reason = _numba_reason(exc.__cause__) if exc.__cause__ is not None else " ".join(str(exc).split())
        return choose, give_up, None, (
            f"rule {name!r} runs as plain Python (each decision crosses into Python and back: 4 to 30 times slower "
            f"than compiled, `python -m sweeper bench` measures both), because numba could not compile it: "
            f"{reason}. Rule(..., compile=False) chooses plain Python without this notice."), found
    return ch, gu, adapted, None, found


class CompiledRuleNotice(UserWarning):
    """A plug-in rule compiled by :class:`Rule` may differ from its Python self: the message says where."""


def _lines(lines) -> str:
    return f"line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))}"


def compiled_notice(name, found) -> str | None:
    """The notice of what compiling a rule cannot keep, if its code shows it: integer products, powers or shifts
    (64-bit integers wrap past 2**63 where Python's grow), and floats made integers by a NumPy integer type (a NaN
    or an infinity gives some integer, silently)."""
    wide, cast = _wide_integer_lines(found.compiled), _float_to_integer_lines(found.compiled)
    if not wide and not cast:
        return None
    parts = []
    if wide:
        parts.append(f"its integer arithmetic at {_lines(wide)} wraps past 2**63 (numba's integers have 64 bits) "
                     f"where Python's grow (use floats there)")
    if cast:
        parts.append(f"its conversion of a float to a NumPy integer at {_lines(cast)} gives some integer for a NaN "
                     f"or an infinity, where Python raises or NumPy gives -2**63 (use int(x): compiled, it keeps "
                     f"Python's checks)")
    return (f"rule {name!r} is compiled by numba, which may then play other games than the same rule in Python: "
            f"{'; and '.join(parts)}. Rule(..., compile=False) keeps Python's behaviour.")


# ------------------------------------------------------------ compiled rules --

def _compiled_return(fn, args, what):
    """Compile a user's njit function for the contract's argument types; its inferred return type."""
    try:
        fn.compile(args)
    except Exception as exc:  # noqa: BLE001 - NumbaError, and numba's other refusals (unsupported bytecode ...)
        raise TypeError(f"numba cannot compile {what} {describe(fn)} for the contract's arguments "
                        f"(q float64[:], n int64[:], t int64, params float64[:]{', rng Generator' if len(args) == 5 else ''}): "
                        f"{_numba_reason(exc)}") from exc
    for sig in fn.nopython_signatures:
        if tuple(sig.args) == tuple(args):
            return sig.return_type
    raise TypeError(f"numba compiled {what} {describe(fn)} for other argument types than the contract's")


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


def adapt_choose(fn):
    ret = _compiled_return(fn, CHOOSE_ARGS, "choose")
    if not (isinstance(ret, types.BaseTuple) and len(ret) == 2 and _integer(ret[0])
            and isinstance(ret[1], (types.Boolean, types.Integer))):
        raise TypeError(f"choose {describe(fn)} must return (integer index, bool flag); numba infers {ret}")

    @njit(CHOOSE_SIG)
    def choose(q, n, t, params, rng):
        i, flag = fn(q, n, t, params, rng)
        return np.int64(i), np.int64(flag)  # a flag other than a bool, 0 or 1 is refused by the kernel
    return choose


def adapt_give_up(fn):
    ret = _compiled_return(fn, GIVE_UP_ARGS, "give_up")
    if not _integer(ret):
        raise TypeError(f"give_up {describe(fn)} must return an integer index; numba infers {ret}")

    @njit(GIVE_UP_SIG)
    def give_up(q, n, t, params):
        return np.int64(fn(q, n, t, params))
    return give_up


def describe(fn) -> str:
    fn = getattr(fn, "py_func", fn)
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"
