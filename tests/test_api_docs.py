"""The public API reads like a library's: each item of the book's API page (``book/api.md``) has a numpydoc
docstring whose sections are there (``Parameters``, ``Returns`` where a value is returned, ``Raises``), whose
parameters are exactly the signature's, and whose ``Raises`` names every exception the code raises itself; the
page documents each item once and is in the table of contents."""

import ast
import dataclasses
import importlib
import inspect
import re
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
PAGE = REPO / "book" / "api.md"

sys.path.insert(0, str(REPO / "book" / "_ext"))
from api_page import api_items, members  # noqa: E402  the page's own list: sweeper.__all__


def _documented() -> list[tuple[str, str]]:
    """(dotted name, what) for every item the page shows: each public name, and each documented member of a
    class (``method`` or ``property``)."""
    out = []
    for module, name, kind in api_items():
        out.append((f"{module}.{name}", kind))
        if kind == "class":
            cls = getattr(importlib.import_module(module), name)
            out += [(f"{module}.{name}.{m}", "property" if isinstance(vars(cls)[m], property) else "method")
                    for m in members(cls)]
    return out


def _resolve(dotted: str):
    module, _, name = dotted.rpartition(".")
    try:
        return getattr(importlib.import_module(module), name)
    except ImportError:  # a method: Class.method
        return getattr(_resolve(module), name)


def sections(doc: str) -> dict[str, list[str]]:
    """A numpydoc docstring's sections: header (a line underlined with dashes) to its lines (dedented);
    ``""`` holds the text before the first header."""
    lines = inspect.cleandoc(doc).splitlines()
    out, name, i = {"": []}, "", 0
    while i < len(lines):
        if i + 1 < len(lines) and lines[i].strip() and re.fullmatch(r"-{3,}", lines[i + 1].strip()) \
                and len(lines[i + 1].strip()) == len(lines[i].strip()):
            name = lines[i].strip()
            assert name not in out, f"section {name} twice"
            out[name] = []
            i += 2
            continue
        out[name].append(lines[i])
        i += 1
    return out


def entries(lines: list[str]) -> list[str]:
    """The names a section lists: its unindented lines, up to `` : type`` (``a, b : int`` lists two)."""
    names = []
    for line in lines:
        if line.strip() and not line[0].isspace():
            names += [n.strip() for n in line.split(" : ")[0].split(",")]
    return names


def _signature_names(obj) -> tuple[set, set]:
    """(the parameters that must be documented, every name a docstring may document: ``**kw`` spelled so)."""
    params = inspect.signature(obj).parameters.values()
    must = {p.name for p in params if p.kind is not p.VAR_KEYWORD and p.name != "self"}
    may = must | {"**" + p.name for p in params if p.kind is p.VAR_KEYWORD} \
        | {"*" + p.name for p in params if p.kind is p.VAR_POSITIONAL}
    return must, may


def _raised(fn) -> set[str]:
    """The exception classes a function's own body raises (``raise X(...)``, ``raise module.X(...)``)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(exc, ast.Name):
                names.add(exc.id)
            elif isinstance(exc, ast.Attribute):
                names.add(exc.attr)
    return names


def _napoleon_params(doc: str) -> set[str]:
    """The parameter names Sphinx's napoleon (the book's renderer) reads from the docstring."""
    from sphinx.ext.napoleon import Config
    from sphinx.ext.napoleon.docstring import NumpyDocstring
    text = str(NumpyDocstring(inspect.cleandoc(doc), Config(napoleon_use_param=True)))
    return {n.replace("\\*", "*") for n in re.findall(r"^:param (\S+):", text, re.M)}


DOCUMENTED = _documented()


def _returns_nothing(fn) -> bool:
    return inspect.signature(fn).return_annotation in (None, "None")


def _data_comment(dotted: str) -> str:
    """The ``#:`` comment above a module constant (what autodata shows), or ""."""
    from sphinx.pycode import ModuleAnalyzer
    module, _, name = dotted.rpartition(".")
    docs = ModuleAnalyzer.for_module(module).find_attr_docs()
    return " ".join(docs.get(("", name), [])).strip()


@pytest.mark.parametrize("dotted,what", DOCUMENTED, ids=[d for d, _ in DOCUMENTED])
def test_each_item_has_the_numpydoc_sections_and_its_signatures_parameters(dotted, what):
    """A function or method: a summary, ``Parameters`` (exactly its signature's), ``Returns`` (unless it returns
    None) and ``Raises`` listing every exception its body raises; a class: a summary, ``Parameters`` (its
    constructor's) and ``Attributes``; a property or an exception: a summary; a constant: its ``#:`` comment."""
    if what == "data":
        assert _data_comment(dotted), f"{dotted}: no #: comment above it (autodata shows nothing)"
        return
    obj = _resolve(dotted)
    if what == "property":
        obj = obj.fget
    doc = obj.__doc__
    assert doc and sections(doc)[""] and sections(doc)[""][0].strip(), f"{dotted}: no summary line"
    if what in ("property", "exception"):
        return
    found = sections(doc)
    fn = obj if what != "class" else getattr(obj, "__post_init__", None) \
        if dataclasses.is_dataclass(obj) else obj.__init__  # a dataclass checks its fields in __post_init__
    must, may = _signature_names(obj)
    # a dataclass's parameters are its fields: its Attributes section documents them (once, not twice)
    params = "Attributes" if what == "class" and dataclasses.is_dataclass(obj) else "Parameters"
    if params == "Attributes":
        assert "Parameters" not in found, f"{dotted}: a dataclass documents its fields under Attributes only"
        must, may = must, may | set(entries(found.get("Attributes", [])))
    if must or len(may) > len(must):
        assert params in found, f"{dotted}: no {params} section"
        documented = entries(found[params])
        assert len(documented) == len(set(documented)), f"{dotted}: a parameter documented twice"
        assert must <= set(documented), f"{dotted}: undocumented parameters {sorted(must - set(documented))}"
        assert set(documented) <= may, f"{dotted}: documents {sorted(set(documented) - may)}, not in its signature"
        if params == "Parameters":
            assert _napoleon_params(doc) == set(documented), f"{dotted}: napoleon reads other parameters"
    if what == "class":
        assert "Attributes" in found and entries(found["Attributes"]), f"{dotted}: no Attributes section"
    elif not _returns_nothing(obj):
        assert "Returns" in found and entries(found["Returns"]), f"{dotted}: no Returns section"
    raised = _raised(fn) if inspect.isfunction(fn) else set()
    if not raised and "Raises" not in found:
        return
    assert "Raises" in found, f"{dotted} raises {sorted(raised)}: no Raises section"
    raises = entries(found["Raises"])
    assert raises and all(re.fullmatch(r"[A-Za-z_][\w.]*", r) for r in raises), raises
    listed = {r.rpartition(".")[2] for r in raises}
    assert raised <= listed, f"{dotted} raises {sorted(raised - listed)} without saying so"
    for line in found["Raises"]:
        if line.strip() and line[0].isspace():
            assert line.startswith("    "), f"{dotted}: Raises text must be indented under its exception"


def test_the_page_lists_every_public_name_once():
    """The page's list is ``sweeper.__all__`` itself: every name, once, each under the module that defines it."""
    import sweeper
    items = api_items()
    assert [n for _, n, _ in items] == list(sweeper.__all__) and len(set(sweeper.__all__)) == len(sweeper.__all__)
    for module, name, _ in items:
        assert getattr(importlib.import_module(module), name) is getattr(sweeper, name), (module, name)
    for must in ("Game", "Greedy", "Thompson", "RuleAgent", "audit", "regret", "score", "MinesweeperEnv",
                 "NeuralAgent", "train_neural"):
        assert must in sweeper.__all__, must


def test_the_section_reader_reads_a_numpydoc_docstring():
    doc = """Summary.

    Parameters
    ----------
    a, b : int
        Two.
    **kw
        More.

    Raises
    ------
    ValueError
        If so.
    """
    found = sections(doc)
    assert list(found) == ["", "Parameters", "Raises"]
    assert entries(found["Parameters"]) == ["a", "b", "**kw"] and entries(found["Raises"]) == ["ValueError"]
    assert _napoleon_params(doc) == {"a", "b", "**kw"}


def test_the_api_page_is_generated_by_its_directive():
    text = PAGE.read_text()
    assert text.count(".. sweeper-api::") == 1
    assert not re.search(r"^\.\. auto\w+::", text, re.M), "a hand-written autodoc item: the directive lists them"
    assert ":noindex:" not in text and "intersphinx" not in text


def test_the_api_page_is_in_the_reference_part_and_rendered_by_autodoc_and_napoleon():
    toc = yaml.safe_load((REPO / "_toc.yml").read_text())
    reference = next(p for p in toc["parts"] if p["caption"] == "Reference")
    assert [c["file"] for c in reference["chapters"]] == ["book/glossary", "book/api"]
    sphinx = yaml.safe_load((REPO / "_config.yml").read_text())["sphinx"]
    assert {"sphinx.ext.autodoc", "sphinx.ext.napoleon"} <= set(sphinx["extra_extensions"])
    assert not any("intersphinx" in e for e in sphinx["extra_extensions"])  # nothing fetched
    assert sphinx["config"]["napoleon_numpy_docstring"] is True
    assert sphinx["config"]["napoleon_google_docstring"] is False
    # every underlined section of the environment's docstring is napoleon's own or a declared custom one
    from sphinx.ext.napoleon.docstring import NumpyDocstring
    from sphinx.ext.napoleon import Config
    own = set(NumpyDocstring("", Config())._sections)
    custom = {s.lower() for s in sphinx["config"]["napoleon_custom_sections"]}
    for dotted, what in DOCUMENTED:
        if what == "data":
            continue
        obj = _resolve(dotted)
        for name in sections((obj.fget if what == "property" else obj).__doc__ or ""):
            assert not name or name.lower() in own | custom, f"{dotted}: section {name!r} is unknown to napoleon"


@pytest.mark.parametrize("kw, message", [({"learn": "no"}, "learn must be True or False"),
                                         ({"copy": 0}, "copy must be True or False"),
                                         ({"exact": "yes"}, "exact must be True or False"),
                                         ({"runners_up": -1}, "runners_up must be a non-negative integer"),
                                         ({"runners_up": 2.5}, "runners_up must be a non-negative integer")])
def test_episode_refuses_what_its_raises_section_names(kw, message):
    """Episode's Raises section names these refusals: a string such as "no" would otherwise be taken as true, and
    a negative runners_up would keep all but the last runners-up."""
    from sweeper import Episode, make_agent
    with pytest.raises(ValueError, match=message):
        Episode(make_agent("greedy"), "8x8x10", seed=0, **kw)
