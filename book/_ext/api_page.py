"""The API page's body, generated from ``sweeper.__all__``: the directive ``sweeper-api`` (book/api.md) writes one
section per module that defines a public name (in the order of ``__all__``), headed by the module's summary line,
with each of its public names documented by autodoc from its docstring:

* a function: ``autofunction``; an exception: ``autoexception``; a constant: ``autodata`` (its ``#:`` comment);
* a class: ``autoclass`` with its public methods and properties (:func:`members`): those defined in the class itself,
  leaving out the ones that override a member of a base class on the page (documented there once).

So a name added to ``__all__`` appears on the page with no edit to it, and tests/test_api_docs.py checks each one's
numpydoc sections from the same list (:func:`api_items`).
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

def defining_modules() -> dict[str, str]:
    """Each name that ``sweeper/__init__.py`` makes public -> the module it comes from (read from its imports and
    its table of lazily loaded names, so that constants, which do not know their module, are placed too)."""
    import sweeper
    found = dict(sweeper._LAZY)
    for node in ast.parse(Path(sweeper.__file__).read_text()).body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            for alias in node.names:
                found[alias.asname or alias.name] = "sweeper." + node.module
    return found


def api_items() -> list[tuple[str, str, str]]:
    """(module, name, kind) for each name of ``sweeper.__all__``, in its order; kind is ``function``, ``class``,
    ``exception`` or ``data``."""
    import sweeper
    modules = defining_modules()
    items = []
    for name in sweeper.__all__:
        obj = getattr(sweeper, name)
        kind = ("exception" if inspect.isclass(obj) and issubclass(obj, BaseException) else "class"
                if inspect.isclass(obj) else "function" if inspect.isfunction(obj) else "data")
        module = obj.__module__ if kind != "data" else modules[name]  # a constant does not know its module
        items.append((module, name, kind))
    return items


def members(cls) -> list[str]:
    """The public methods and properties of ``cls`` the page documents: defined in the class itself, in source
    order, except those that override a member of one of its public base classes."""
    inherited = {m for base in cls.__mro__[1:] if base.__module__.startswith("sweeper") for m in vars(base)}
    return [m for m, v in vars(cls).items()
            if not m.startswith("_") and m not in inherited
            and (inspect.isfunction(v) or isinstance(v, (property, staticmethod, classmethod)))]


def rst_lines() -> list[str]:
    """The page body as reStructuredText."""
    lines, done = [], set()
    items = api_items()
    for module in dict.fromkeys(m for m, _, _ in items):
        mod = importlib.import_module(module)
        summary = inspect.cleandoc(mod.__doc__).splitlines()[0].rstrip(".")
        title = f"``{module}``"
        lines += [title, "-" * len(title), "", summary + ".", ""]
        for mod_name, name, kind in items:
            if mod_name != module or name in done:
                continue
            done.add(name)
            lines.append(f".. auto{kind}:: {module}.{name}")
            if kind == "class":
                found = members(getattr(mod, name))
                if found:
                    lines += [f"   :members: {', '.join(found)}", "   :member-order: bysource"]
            lines.append("")
    return lines


class SweeperAPI(SphinxDirective):
    """``.. sweeper-api::``: the sections of :func:`rst_lines`."""

    has_content = False

    def run(self):
        node = nodes.section()
        node.document = self.state.document
        nested_parse_with_titles(self.state, StringList(rst_lines(), source="sweeper.__all__"), node)
        return node.children


def setup(app):
    app.add_directive("sweeper-api", SweeperAPI)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
