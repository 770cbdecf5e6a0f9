"""Interactive Altair charts that need no network: in the built book and in live notebooks.

Altair's default renderer loads vega, vega-lite and vega-embed from a CDN, so offline its charts
are blank boxes. This module registers an Altair renderer, ``"sweeper-offline"``, whose output
is a ``<div>`` plus a small script that loads ONE local copy of the three bundles (shipped in
``book/_static/vega/``, copied by Sphinx to ``_build/html/_static/vega/``) and calls
``vegaEmbed`` on the div. Charts stay fully interactive: tooltips, selections, and Vega params
bound to widgets, e.g. a slider ``alt.param(bind=alt.binding_range(...))``.

Use it in a notebook (once, before the first chart)::

    from sweeper.viz import offline
    offline.enable_offline()

Where the script looks for the bundles: :func:`enable_offline`. When none loads (say VS Code, or
a server that cannot see the files) the div shows a one-line notice instead of the chart; nothing
raises. Pages that have RequireJS (ipywidgets pages, classic Notebook) load the bundles through a
private RequireJS context, so the UMD bundles do not clash with it.

Each chart adds about 4 KB plus its spec (data included) to the page; the bundles (830 KB,
280 KB gzipped) are fetched once per page and cached by the browser. Chart cells differ from run
to run (each div gets a fresh id), so don't mark them ``# NBVAL_CHECK_OUTPUT``.

``alt.renderers.set_embed_options(...)`` works too, but resets ``base_url`` to the default: pass
a non-default ``base_url`` and the options together to :func:`enable_offline` instead.
"""

from __future__ import annotations

import json
import os
import re
import uuid
from pathlib import Path
from typing import Any

RENDERER_NAME = "sweeper-offline"

#: Versions of the bundles in ``book/_static/vega/`` (see ``VERSIONS.txt`` there).
VEGA_VERSION = "6.4.0"
VEGALITE_VERSION = "6.4.1"
VEGAEMBED_VERSION = "7.3.0"

#: The shipped files, in load order.
BUNDLE_FILES = ("vega.min.js", "vega-lite.min.js", "vega-embed.min.js")

#: Where the bundles are in this repository.
BUNDLE_DIR = Path(__file__).resolve().parents[2] / "book" / "_static" / "vega"

#: The bundle folder relative to a built page ``_build/html/book/<page>.html``.
DEFAULT_BASE_URL = "../_static/vega/"

_DEFAULT_EMBED_OPTIONS: dict[str, Any] = {
    # The "Open in Vega Editor" action needs the network; export and "view source" work offline.
    "actions": {"export": True, "source": True, "compiled": False, "editor": False},
}

# The loader. Each %%NAME%% is replaced in one pass (not str.format: the JavaScript is full of braces).
_TEMPLATE = """\
<style>
  #%%DIV%%.vega-embed { width: 100%; display: flex; flex-direction: column; align-items: flex-start; }
  #%%DIV%%.vega-embed details, #%%DIV%%.vega-embed details summary { position: relative; }
  #%%DIV%%.vega-embed .vega-bind select { max-width: 100%; }
</style>
<div id="%%DIV%%" class="sweeper-chart" data-chart-status="loading"></div>
<script type="text/javascript">
(function (spec, embedOpt, baseUrl, jupyterDir, divId) {
  "use strict";
  var el = document.getElementById(divId);
  if (!el) { return; }
  var KEY = "sweeperVegaEmbed_%%VERSIONS%%";
  var NAMES = ["vega", "vega-lite", "vega-embed"];
  var FILES = {"vega": "vega.min", "vega-lite": "vega-lite.min", "vega-embed": "vega-embed.min"};

  function fail(msg) {
    el.setAttribute("data-chart-status", "error");
    el.textContent = "Chart not shown: " + msg;
    el.style.cssText = "color:#a00; font-size:0.9em; padding:0.5em; border:1px dashed #a00;";
    if (window.console) { console.warn("sweeper.viz.offline: " + msg); }
  }

  function absolute(url) {
    try { return new URL(url, document.baseURI).href; } catch (e) { return null; }
  }

  function candidates() {
    var out = [absolute(baseUrl)];
    var opts = document.querySelector('script[src*="_static/documentation_options.js"]');
    if (opts) { out.push(opts.src.replace(/documentation_options\\.js.*$/, "vega/")); }
    var m = window.location.pathname.match(
      /^(.*?\\/)(?:notebooks|lab\\/tree|lab\\/workspaces\\/[^\\/]+\\/tree|doc\\/tree|tree)\\/(?:(.*)\\/)?[^\\/]*\\.ipynb$/);
    if (m && jupyterDir !== null) {
      var dir = m[2] ? m[2] + "/" : "";
      out.push(absolute(m[1] + "files/" + dir + jupyterDir));
    }
    return out.filter(function (b, i) { return b && out.indexOf(b) === i; });
  }

  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement("script");
      s.async = false;
      s.onload = function () { resolve(); };
      s.onerror = function () { s.remove(); reject(new Error("cannot load " + src)); };
      s.src = src;
      document.head.appendChild(s);
    });
  }

  function withScriptTags(bases) {
    var i = 0;
    function attempt() {
      if (i >= bases.length) {
        return Promise.reject(new Error("vega bundles not found (tried " + bases.join(", ") + ")"));
      }
      var base = bases[i++];
      return loadScript(base + FILES["vega"] + ".js").then(function () {
        return loadScript(base + FILES["vega-lite"] + ".js");
      }).then(function () {
        return loadScript(base + FILES["vega-embed"] + ".js");
      }).then(function () { return window.vegaEmbed; }, attempt);
    }
    return attempt();
  }

  function withRequire(bases) {
    var paths = {};
    NAMES.forEach(function (n) {
      paths[n] = bases.map(function (b) { return b + FILES[n]; });
    });
    var req = window.requirejs.config({context: KEY, paths: paths});
    return new Promise(function (resolve, reject) {
      req(["vega-embed"], resolve, function (err) {
        reject(new Error("vega bundles not found (" + err.message + ")"));
      });
    });
  }

  function vegaEmbedPromise() {
    if (typeof window.vegaEmbed === "function") { return Promise.resolve(window.vegaEmbed); }
    if (!window[KEY]) {
      var amd = typeof window.define === "function" && window.define.amd &&
        typeof window.requirejs === "function";
      window[KEY] = (amd ? withRequire : withScriptTags)(candidates());
      window[KEY].catch(function () { window[KEY] = null; });
    }
    return window[KEY];
  }

  // A slider whose end follows another param (sweeper.viz.offline.slider_max): spec.usermeta names, for each
  // slider param, the param that holds its end; the slider is kept within it as that param changes.
  function followEnds(view) {
    var ends = (spec.usermeta && spec.usermeta.%%USERMETA_KEY%%) || {};
    Object.keys(ends).forEach(function (slider) {
      var input = el.querySelector('input[type="range"][name="' + slider + '"]');
      function apply() {
        var end = view.signal(ends[slider]);
        if (input) { input.max = end; }
        // a listener runs inside the dataflow: move the slider once the current run is over
        if (view.signal(slider) > end) { view.runAfter(function () { view.signal(slider, end).runAsync(); }); }
      }
      view.addSignalListener(ends[slider], apply);
      apply();
    });
  }

  vegaEmbedPromise().then(function (vegaEmbed) {
    return vegaEmbed(el, spec, embedOpt).then(function (result) {
      followEnds(result.view);
      el.setAttribute("data-chart-status", "ready");
      el.vegaEmbedResult = result;
    }, function (err) {
      fail("Vega could not draw this spec: " + err.message);
    });
  }, function (err) { fail(err.message); });
})(%%SPEC%%, %%EMBED_OPTIONS%%, %%BASE_URL%%, %%JUPYTER_DIR%%, "%%DIV%%");
</script>
"""

_PLACEHOLDER = re.compile(r"%%([A-Z_]+)%%")
#: The key of a spec's ``usermeta`` under which :func:`slider_max` names each slider's end.
SLIDER_ENDS = "sweeperSliderEnds"
_PLAIN = "<interactive Altair chart: shown by the sweeper-offline renderer where JavaScript runs>"


def _js_literal(value: Any) -> str:
    """JSON for use inside an inline ``<script>``: no ``<``, ``>`` or ``&`` can end the tag."""
    text = json.dumps(value, separators=(",", ":"), allow_nan=False)
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


def _jupyter_dir() -> str | None:
    """The bundle folder relative to the kernel's working directory (the notebook's folder in
    Jupyter), as a URL path, or None if it is not below the same root."""
    try:
        rel = os.path.relpath(BUNDLE_DIR, Path.cwd())
    except ValueError:
        return None
    return Path(rel).as_posix().rstrip("/") + "/"


def chart_html(spec: dict, *, base_url: str = DEFAULT_BASE_URL,
               embed_options: dict | None = None, output_div: str | None = None) -> str:
    """The HTML fragment that draws the Vega-Lite ``spec`` (a dict, e.g. ``chart.to_dict()``)
    with the local bundles. ``base_url`` is the bundle folder relative to the page (ending
    in ``/``); ``embed_options`` are vega-embed options, merged over this module's defaults."""
    if not base_url.endswith("/"):
        base_url += "/"
    options = {**_DEFAULT_EMBED_OPTIONS, **(embed_options or {})}
    div = output_div or f"sweeper-chart-{uuid.uuid4().hex}"
    versions = f"{VEGA_VERSION}_{VEGALITE_VERSION}_{VEGAEMBED_VERSION}".replace(".", "_")
    values = {
        "SPEC": _js_literal(spec),
        "EMBED_OPTIONS": _js_literal(options),
        "BASE_URL": _js_literal(base_url),
        "JUPYTER_DIR": _js_literal(_jupyter_dir()),
        "DIV": div,
        "VERSIONS": versions,
        "USERMETA_KEY": SLIDER_ENDS,
    }
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], _TEMPLATE)


def slider_max(chart, ends: dict):
    """``chart`` with sliders whose end follows the data: ``ends`` maps the name of a param bound to a range
    slider to the name of a param (an ``expr``) that gives its end, e.g. ``{"step": "step_end"}`` with
    ``step_end = lasts[game]``. Vega-Lite fixes a slider's range in the spec (keep it at the largest end, for
    viewers without this module); the loader of :func:`chart_html` sets the slider's end to that param's value,
    and moves the slider back within it, whenever it changes. Returns the chart with the ends in its
    ``usermeta``; raises ``ValueError`` if a name is not a param of the chart."""
    import altair as alt

    names = set() if chart.params is alt.Undefined else {p.name for p in chart.params}
    missing = [n for pair in ends.items() for n in pair if n not in names]
    if missing:
        raise ValueError(f"slider_max: no param named {missing} in the chart")
    meta = chart.usermeta if isinstance(chart.usermeta, dict) else {}
    return chart.properties(usermeta={**meta, SLIDER_ENDS: {**meta.get(SLIDER_ENDS, {}), **ends}})


def renderer(spec: dict, **metadata: Any) -> dict[str, str]:
    """Altair renderer: ``metadata`` may hold ``base_url`` and ``embed_options`` (as set by
    :func:`enable_offline` or ``alt.renderers.set_embed_options``)."""
    html = chart_html(spec, base_url=metadata.get("base_url", DEFAULT_BASE_URL),
                      embed_options=metadata.get("embed_options"))
    return {"text/html": html, "text/plain": _PLAIN}


def register() -> None:
    """Register the renderer with Altair under :data:`RENDERER_NAME` (done on import)."""
    import altair as alt

    alt.renderers.register(RENDERER_NAME, renderer)


def enable_offline(base_url: str = DEFAULT_BASE_URL, **embed_options: Any) -> None:
    """Make every Altair chart displayed from now on use the local Vega bundles.

    ``base_url``: the bundle folder relative to the built page; the default suits notebooks in
    ``book/``. ``embed_options``: vega-embed options, e.g. ``actions=False``.

    Where the script looks for the bundles, in order (the first one that loads wins):

    1. ``vegaEmbed`` already on the page (another chart loaded it): used as is;
    2. ``base_url`` (default ``"../_static/vega/"``), relative to the page: right for the built
       pages ``_build/html/book/*.html``;
    3. on a Sphinx page, the ``vega/`` folder next to the page's own ``_static/`` (any page depth);
    4. in a live Jupyter server (classic Notebook, Notebook 7, JupyterLab), the bundle folder of this
       repository served under ``<server>/files/``, found from the kernel's working directory.
    """
    import altair as alt

    register()
    alt.renderers.enable(RENDERER_NAME, base_url=base_url, embed_options=embed_options or None)


register()
