"""A small Sphinx extension that keeps the built pages quiet in a browser with no network.

* sphinx-thebe adds its configuration script (``const THEBE_JS_URL = ...``) at every
  ``env-before-read-docs`` event, and in this book's build it came out twice on every page: the
  second copy redeclares the constants, a SyntaxError in the console. Each page now keeps one
  copy of each script.

(The theme's "Got invalid theme mode" console error is avoided in ``_config.yml``:
``html_context: {default_mode: auto}``.)

tests/test_browser.py checks the result: no console error and no request outside the book.
"""

from __future__ import annotations


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


def setup(app):
    app.connect("html-page-context", _one_copy_of_each_script)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
