"""A small Sphinx extension that keeps the built pages quiet in a browser with no network.

* sphinx-thebe adds its configuration script (``const THEBE_JS_URL = ...``) at every
  ``env-before-read-docs`` event, and in this book's build it came out twice on every page: the
  second copy redeclares the constants, a SyntaxError in the console. Each page now keeps one
  copy of each script.

* The site's root ``index.html`` is only a redirect to the first chapter, written by sphinx-external-toc as one
  ``<meta>`` line. A browser that finishes loading it before it follows the redirect asks the server for
  ``/favicon.ico``, which does not exist: a 404 in the console. It is rewritten as a small page that names the
  book's icon, says where it leads and links there for a browser that does not follow the refresh.

* The theme's download button links a notebook page's source ``.ipynb`` in a new tab, where a browser
  shows the JSON; the link gets the ``download`` attribute, so that it saves the notebook (to run with
  ``make lab`` in a clone of the repository).

* Two extensions jupyter-book adds, ``sphinx_multitoc_numbering`` and ``sphinx_jupyterbook_latex``, do not declare
  whether they are safe for parallel reading, so Sphinx reads (and myst-nb executes) the notebooks one at a time
  when built with several jobs (``book/_ext/parallel_build.py``). The first changes only the numbering of sections,
  which Sphinx runs in the main process after every document is read and merged; the second only transforms each
  document's own tree (and acts for LaTeX builds). Both are declared safe here, so the notebooks execute on every
  core.

(The theme's "Got invalid theme mode" console error is avoided in ``_config.yml``:
``html_context: {default_mode: auto}``.)

tests/test_browser.py checks the result: no console error and no request outside the book.
"""

from __future__ import annotations

import html
import re
from pathlib import Path


def _one_copy_of_each_script(app, pagename, templatename, context, doctree) -> None:
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, kept = set(), []
    for script in scripts:
        # the same script is registered once with filename None and once with "" (an inline body)
        key = (str(getattr(script, "filename", script) or ""),
               tuple(sorted((k, str(v)) for k, v in getattr(script, "attributes", {}).items())))
        if key not in seen:
            seen.add(key)
            kept.append(script)
    scripts[:] = kept


_NOTEBOOK_LINK = re.compile(r'<a ([^>]*href="[^"]*_sources/[^"]*\.ipynb"[^>]*)>')


def _notebooks_download(app, exception) -> None:
    """Add ``download`` to every link to a page's source notebook, in every built page."""
    if exception is not None or app.builder.format != "html":
        return
    for page in Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        new = _NOTEBOOK_LINK.sub(lambda m: m.group(0) if " download" in m.group(1) else f"<a {m.group(1)} download>",
                                 text)
        if new != text:
            page.write_text(new, encoding="utf-8")


_REDIRECT = re.compile(r'^\s*<meta http-equiv="Refresh" content="0; url=([^"]+)" />\s*$')

_REDIRECT_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta http-equiv="Refresh" content="0; url={url}" />
<link rel="icon" href="{icon}" />
<title>{title}</title>
</head>
<body>
<p><a href="{url}">{title}: the book starts here</a>.</p>
</body>
</html>
"""


def _redirect_page(app, exception) -> None:
    """Rewrite the one-line root redirect as a page that names the book's icon (no request for /favicon.ico)."""
    if exception is not None or app.builder.format != "html":
        return
    index = Path(app.outdir) / "index.html"
    if not index.exists():
        return
    found = _REDIRECT.match(index.read_text(encoding="utf-8"))
    if found is None:  # a real page (the root document is index) or already rewritten
        return
    icon = app.config.html_favicon
    if not icon:
        return
    if "://" not in icon:  # a local file: Sphinx copies it into _static
        icon = "_static/" + Path(icon).name
    title = html.escape(str(app.config.html_title or app.config.project))
    index.write_text(_REDIRECT_PAGE.format(url=found.group(1), icon=icon, title=title), encoding="utf-8")


#: jupyter-book's own extensions that leave their parallel-reading safety undeclared (see the module docstring)
READ_SAFE = ("sphinx_multitoc_numbering", "sphinx_jupyterbook_latex")


def _read_in_parallel(app) -> None:
    for name in READ_SAFE:
        ext = app.extensions.get(name)
        if ext is not None and ext.parallel_read_safe is None:
            ext.parallel_read_safe = True


def setup(app):
    app.connect("builder-inited", _read_in_parallel)
    app.connect("html-page-context", _one_copy_of_each_script)
    app.connect("build-finished", _notebooks_download)
    # after sphinx-external-toc's own build-finished handler (priority 500), which writes the redirect
    app.connect("build-finished", _redirect_page, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
