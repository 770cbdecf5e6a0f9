"""The folders are layers: a module imports only from its own layer or the ones below it."""

import ast
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
