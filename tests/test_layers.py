"""The folders are layers: a module imports only from its own layer or the ones below it."""

import ast
import re
from pathlib import Path

import sweeper

LAYERS = ["game", "agents", "running", "experiments", "viz"]  # bottom to top
PACKAGE = Path(sweeper.__file__).parent


def _imports(path: Path):
    """Absolute dotted names of the sweeper modules that ``path`` imports."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(parts[:-node.level]) + ([node.module] if node.module else [])
                yield ".".join(base)
            elif node.module and node.module.startswith("sweeper"):
                yield node.module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("sweeper"):
                    yield alias.name


def test_each_layer_imports_only_itself_and_the_layers_below():
    bad = []
    for layer in LAYERS:
        for path in sorted((PACKAGE / layer).glob("*.py")):
            for name in _imports(path):
                dotted = name.split(".")
                if len(dotted) > 1 and dotted[1] in LAYERS and LAYERS.index(dotted[1]) > LAYERS.index(layer):
                    bad.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert not bad, "\n".join(bad)


def test_the_core_modules_do_not_reach_into_layers():
    for name in ("rng.py", "checks.py"):
        assert not [m for m in _imports(PACKAGE / name) if m != "sweeper"], name


def _module_graph() -> dict:
    """Each module of the package (dotted name) -> the package modules it imports, anywhere in its body
    (a name imported from a package is counted against the module of that name when there is one)."""
    modules = {".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__"): p
               for p in PACKAGE.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        out = set()
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.ImportFrom):
                parts = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                base = (".".join(parts[:len(parts) - node.level + 1] + ([node.module] if node.module else []))
                        if node.level else (node.module or ""))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            out |= {t for t in targets if t in modules and t != name and not name.startswith(t + ".")}
        graph[name] = out
    return graph


def test_no_module_imports_one_that_imports_it_back():
    """No import circle between modules, counting the imports inside functions too."""
    graph = _module_graph()
    circles = set()

    def visit(node, path):
        for nxt in graph[node]:
            if nxt in path:
                circles.add(" -> ".join(path[path.index(nxt):] + [nxt]))
            elif len(path) < 6:
                visit(nxt, path + [nxt])

    for start in graph:
        visit(start, [start])
    assert not circles, "\n".join(sorted(circles)[:10])


def test_every_import_in_the_package_resolves():
    """Imports inside functions too: a module moved into a sub-package must not leave a relative import
    pointing at nothing (found only when the function runs)."""
    import importlib
    bad = []
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        package = parts[:-1]  # a module's package; for an __init__, the package itself
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package[:len(package) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
                try:
                    mod = importlib.import_module(name)
                except ImportError as exc:
                    bad.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {exc}")
                    continue
                for alias in node.names:
                    if not hasattr(mod, alias.name) and alias.name != "*":
                        try:
                            importlib.import_module(f"{name}.{alias.name}")
                        except ImportError:
                            bad.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {name} has no {alias.name}")
    assert not bad, "\n".join(bad)


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def test_no_module_uses_another_modules_private_names():
    """A name with a leading underscore belongs to its module: another module neither imports it
    (``from .x import _y``, ``from sweeper.x import _y``) nor reads it as an attribute of an imported module
    (``x._y``). A name used elsewhere is public API of its module and is named without the underscore."""
    modules = {".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
               for p in PACKAGE.rglob("*.py")}
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        package = parts[:-1]
        tree = ast.parse(path.read_text())
        module_names = set()  # local names bound to a module of the package
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = (".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
                        if node.level else (node.module or ""))
                if not base.startswith("sweeper"):
                    continue
                for alias in node.names:
                    if _private(alias.name):
                        bad.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: from {base} import {alias.name}")
                    if f"{base}.{alias.name}" in modules:
                        module_names.add(alias.asname or alias.name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("sweeper"):
                        module_names.add(alias.asname or alias.name.split(".")[0])
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name)
                    and node.value.id in module_names):
                bad.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {node.value.id}.{node.attr}")
    assert not bad, "\n".join(bad)


#: The calls that seed a random generator: their stream numbers are named in ``sweeper/rng.py``.
SEEDING_CALLS = {"make_state", "SeedSequence", "default_rng", "PCG64", "Generator", "RandomState", "_generator",
                 "manual_seed", "seed"}


def _literal_numbers(node) -> list:
    """The number literals of an argument, outside the calls nested in it (``integers(2 ** 63)`` draws a seed)."""
    if isinstance(node, ast.Call):
        return []
    if isinstance(node, ast.Constant):
        return [node.value] if isinstance(node.value, (int, float)) and not isinstance(node.value, bool) else []
    return [v for child in ast.iter_child_nodes(node) for v in _literal_numbers(child)]


def _is_seed(node) -> bool:
    return isinstance(node, ast.Name) and (node.id == "seed" or node.id.endswith("_seed"))


def test_every_random_stream_and_seed_offset_is_named_in_rng():
    """Outside ``sweeper/rng.py`` no generator is seeded with a literal number (``make_state(seed, 99)``,
    ``default_rng(7)``, ``SeedSequence([seed, 3])``) and no seed is derived from one (``seed * 1000 + 1``,
    ``seed + 100``): the streams and offsets are constants of :mod:`sweeper.rng`, where they are listed."""
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "rng.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                fn = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                args = list(node.args) + [k.value for k in node.keywords]
                if fn == "make_state":  # make_state(seed, stream): a run's default seed may be a literal
                    args = args[1:2] + [k.value for k in node.keywords if k.arg == "stream"]
                if fn in SEEDING_CALLS and any(_literal_numbers(a) for a in args):
                    bad.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {ast.unparse(node)}")
            elif isinstance(node, ast.BinOp):
                sides = (node.left, node.right)
                if any(_is_seed(s) for s in sides) and \
                        any(isinstance(s, ast.Constant) and isinstance(s.value, int) for s in sides):
                    bad.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {ast.unparse(node)}")
    assert not bad, "\n".join(bad)


def test_one_gymnasium_loop():
    """Only ``running.policies.run_episodes`` steps the Gymnasium env in a loop (the deep-RL test games and every
    policy go through it); the env's own module defines the step."""
    loops = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel in ("running/env.py", "running/policies.py"):
            continue
        text = path.read_text()
        if re.search(r"\benv\.step\(|\.reset\(seed=", text):
            loops.append(rel)
    assert not loops, f"a second Gymnasium loop in {loops}: use running.policies.run_episodes"


def test_no_module_over_700_lines_and_no_kernel_over_12_arguments():
    """Issue 40: a module a reader can hold in mind (the game loop has its own, sweeper/agents/loop.py; a rule's
    compilation too, sweeper/agents/rule_compiler.py), and no compiled kernel with more than 12 arguments (the loop
    takes its two random streams as one pair)."""
    long, wide = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text()
        if text.count("\n") > 700:
            long.append(f"{path.relative_to(PACKAGE)}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef) and any("njit" in ast.unparse(d) for d in node.decorator_list):
                n = len(node.args.posonlyargs) + len(node.args.args) + len(node.args.kwonlyargs)
                if n > 12:
                    wide.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name}: {n} arguments")
    assert not long, long
    assert not wide, wide


def _parameters(fn) -> int:
    """A function's parameters: positional, keyword-only, ``*args`` and ``**kw``, without ``self`` and ``cls``."""
    a = fn.args
    names = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs] + [p.arg for p in (a.vararg, a.kwarg) if p]
    return len([n for n in names if n not in ("self", "cls")])


def test_no_function_over_80_lines_or_10_parameters_and_no_module_docstring_over_30_lines():
    """A function a reader can take in: at most 80 lines (from its ``def``) and at most 10 parameters (those
    that travel together go as one settings object; a compiled kernel may take 12, the test above); a module's
    docstring says what the module holds in at most 30 lines (the rest is in the book, or in the docstrings of
    the functions and classes it is about)."""
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        tree = ast.parse(path.read_text())
        if tree.body and isinstance(tree.body[0], ast.Expr) and isinstance(tree.body[0].value, ast.Constant):
            lines = tree.body[0].end_lineno - tree.body[0].lineno + 1
            if lines > 30:
                bad.append(f"{rel}: a module docstring of {lines} lines")
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            lines = node.end_lineno - node.lineno + 1
            if lines > 80:
                bad.append(f"{rel}:{node.lineno} {node.name}: {lines} lines")
            kernel = any("njit" in ast.unparse(d) for d in node.decorator_list)
            if _parameters(node) > 10 and not kernel:
                bad.append(f"{rel}:{node.lineno} {node.name}: {_parameters(node)} parameters")
    assert not bad, "\n".join(bad)


def test_the_engine_s_short_names_mean_one_thing():
    """In the engine (``sweeper/game/``, ``sweeper/agents/``) ``t`` is the agent's decisions so far, as in the
    plug-in rule's contract ``choose(q, n, t, params, rng)``, and ``c`` an exploration constant (UCB's c): neither
    names a bundle of the kernels (the value table is ``table``, the agent's cache ``cache``); ``probe`` is the
    oracle's bundle, not a lookup of the value table (``values.slot_of``)."""
    bad = []
    for path in sorted((PACKAGE / "game").rglob("*.py")) + sorted((PACKAGE / "agents").rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef):
                continue
            if node.name == "probe":
                bad.append(f"{rel}:{node.lineno}: a function named probe")
            params = {a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs} & {"t", "c"}
            for sub in ast.walk(node):
                if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id in params:
                    bad.append(f"{rel}:{sub.lineno} {node.name}: {sub.value.id}.{sub.attr}")
    assert not bad, "\n".join(bad)
