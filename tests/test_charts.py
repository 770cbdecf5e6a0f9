"""The offline Altair renderer (sweeper.viz.offline): its HTML, the shipped Vega bundles, and, when
Chromium is installed, a headless check with no network that the chart really draws and that
its slider (a Vega param) drives it."""

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import altair as alt
import pandas as pd
import pytest
import yaml

from sweeper.viz import offline

REPO = Path(__file__).resolve().parent.parent
CDN_HOSTS = ("jsdelivr", "unpkg", "cdnjs", "cloudflare", "googleapis", "esm.sh", "skypack")


def slider_chart():
    """A small 'recorded game' chart: tile colours appear as a slider steps through the clicks."""
    board = pd.DataFrame({"row": [i // 4 for i in range(16)], "col": [i % 4 for i in range(16)],
                          "revealed_at": [(7 * i) % 16 for i in range(16)]})
    step = alt.param(name="step", value=3, bind=alt.binding_range(min=0, max=15, step=1))
    return alt.Chart(board).mark_rect().encode(
        x="col:O", y="row:O",
        color=alt.condition(alt.datum.revealed_at <= step, alt.value("steelblue"), alt.value("#ccc")),
    ).add_params(step)


def chart_div(html):
    return re.search(r'<div id="(sweeper-chart-[0-9a-f]+)"', html).group(1)


@pytest.fixture
def restore_renderer():
    state = alt.renderers._get_state()
    yield
    alt.renderers._set_state(state)


# --- the HTML -------------------------------------------------------------------------------

def test_html_loads_only_local_bundles_and_holds_the_spec():
    spec = slider_chart().to_dict()
    html = offline.chart_html(spec)
    assert '"../_static/vega/"' in html
    for name in ("vega.min", "vega-lite.min", "vega-embed.min"):
        assert f'"{name}"' in html
    # the only absolute URL is the spec's own "$schema" (an identifier, never fetched)
    urls = set(re.findall(r"https?://[^\s\"'<>)]+", html))
    assert urls == {spec["$schema"]}
    assert not any(host in html for host in CDN_HOSTS)
    assert re.findall(r"<script[^>]*>", html) == ['<script type="text/javascript">']  # no src=
    assert offline._js_literal(spec) in html  # the full spec, data included
    assert '"name":"step"' in html and '"input":"range"' in html
    assert html.count(chart_div(html)) >= 3  # style, div, embed call agree on the id


def test_each_chart_gets_its_own_div():
    spec = slider_chart().to_dict()
    assert chart_div(offline.chart_html(spec)) != chart_div(offline.chart_html(spec))


def test_data_cannot_break_out_of_the_script():
    spec = alt.Chart(pd.DataFrame({"s": ["</script><script>alert(1)</script>", "a & b <!--"]})) \
        .mark_text().encode(text="s").to_dict()
    html = offline.chart_html(spec)
    assert html.count("</script>") == 1 and "<!--" not in html
    literal = re.search(r"\}\)\((\{.*?\}), \{", html, re.S).group(1)
    assert json.loads(literal)["datasets"] == spec["datasets"]


def test_base_url_and_embed_options():
    html = offline.chart_html({"mark": "point"}, base_url="../../_static/vega", embed_options={"actions": False})
    assert '"../../_static/vega/"' in html and '{"actions":false}' in html


def test_enable_offline_is_what_altair_uses(restore_renderer):
    offline.enable_offline()
    assert alt.renderers.active == offline.RENDERER_NAME
    bundle = slider_chart()._repr_mimebundle_()
    bundle = bundle[0] if isinstance(bundle, tuple) else bundle
    assert set(bundle) == {"text/html", "text/plain"}
    assert 'class="sweeper-chart"' in bundle["text/html"] and "../_static/vega/" in bundle["text/html"]
    alt.renderers.set_embed_options(actions=False)  # Altair's own API keeps working
    bundle = slider_chart()._repr_mimebundle_()
    bundle = bundle[0] if isinstance(bundle, tuple) else bundle
    assert '{"actions":false}' in bundle["text/html"]


# --- the bundles ----------------------------------------------------------------------------

def test_bundles_are_shipped_with_versions_and_licenses():
    d = offline.BUNDLE_DIR
    assert d == REPO / "book" / "_static" / "vega"
    versions = (d / "VERSIONS.txt").read_text()
    for name in offline.BUNDLE_FILES:
        data = (d / name).read_bytes()
        assert len(data) > 50_000
        assert hashlib.sha256(data).hexdigest() in versions, name
    for package in ("vega", "vega-lite", "vega-embed"):
        assert "Redistribution and use" in (d / f"LICENSE-{package}.txt").read_text()
    assert f'"{offline.VEGA_VERSION}"' in (d / "vega.min.js").read_text()
    assert f'"{offline.VEGALITE_VERSION}"' in (d / "vega-lite.min.js").read_text()
    assert f'"{offline.VEGAEMBED_VERSION}"' in (d / "vega-embed.min.js").read_text()


def test_bundles_match_what_altair_expects():
    # Altair writes Vega-Lite specs of VEGALITE_VERSION: the shipped compiler must be that minor
    # release (refresh the bundles when altair is upgraded, see VERSIONS.txt).
    assert offline.VEGALITE_VERSION.split(".")[:2] == alt.VEGALITE_VERSION.split(".")[:2]
    assert offline.VEGA_VERSION.split(".")[0] == alt.VEGA_VERSION.split(".")[0]
    assert offline.VEGAEMBED_VERSION.split(".")[0] == alt.VEGAEMBED_VERSION.split(".")[0]


def test_sphinx_copies_the_bundles_next_to_the_built_pages():
    config = yaml.safe_load((REPO / "_config.yml").read_text())
    assert "book/_static" in config["sphinx"]["config"]["html_static_path"]
    # a built page is _build/html/book/<page>.html and _static is _build/html/_static
    assert offline.DEFAULT_BASE_URL == "../_static/vega/"


# --- headless Chromium, no network ----------------------------------------------------------

def _chromium():
    for name in (os.environ.get("CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def _no_network_prefix():
    """`unshare -n` (an empty network namespace) where we may use it; Chromium's own flags below
    block name resolution and route anything else to a closed loopback port anyway."""
    try:
        ok = subprocess.run(["unshare", "-n", "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        ok = False
    return ["unshare", "-n"] if ok else []


def dump_dom(url):
    exe = _chromium()
    if exe is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as profile:
        cmd = _no_network_prefix() + [
            exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync",
            "--disable-background-networking", "--disable-component-update",
            "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9",
            f"--user-data-dir={profile}", "--virtual-time-budget=5000", "--dump-dom", url]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


# After the chart is drawn, move its slider as a reader would and record what the view saw.
MOVE_SLIDER = """<script>
(function poll() {
  var el = document.querySelector(".sweeper-chart");
  if (!el || !el.vegaEmbedResult) { return setTimeout(poll, 20); }
  var view = el.vegaEmbedResult.view, input = el.querySelector("input[type=range]");
  input.value = 12;
  input.dispatchEvent(new Event("input", {bubbles: true}));
  view.runAsync().then(function () { document.body.setAttribute("data-step", view.signal("step")); });
})();
</script>"""


def page(tmp_path, html, where="book"):
    """A page laid out like the built book: <root>/<where>/page.html, bundles in <root>/_static."""
    shutil.copytree(offline.BUNDLE_DIR, tmp_path / "_static" / "vega")
    p = tmp_path / where / "page.html"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>{html}</body></html>")
    return p.as_uri()


def test_chart_draws_offline_and_its_slider_drives_it(tmp_path):
    html = offline.chart_html(slider_chart().to_dict())
    dom = dump_dom(page(tmp_path, html + MOVE_SLIDER))
    div = re.search(r'<div id="%s"[^>]*>(.*?</svg>)' % chart_div(html), dom, re.S)
    assert div, dom[-3000:]
    assert 'data-chart-status="ready"' in dom
    assert re.search(r'<svg[^>]*class="marks"', div.group(1))
    assert div.group(1).count('role="graphics-symbol"') >= 16  # the 16 tiles
    assert re.search(r'<input type="range"[^>]*name="step"', dom)
    assert 'data-step="12"' in dom  # the slider reached the Vega param ...
    assert div.group(1).count('fill="steelblue"') == 13  # ... and redrew: tiles 0..12 revealed


def test_missing_bundles_show_a_notice_instead_of_failing(tmp_path):
    html = offline.chart_html({"mark": "point"}, base_url="../nowhere/")
    dom = dump_dom(page(tmp_path, html))
    assert 'data-chart-status="error"' in dom and "Chart not shown: vega bundles not found" in dom
