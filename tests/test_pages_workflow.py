"""The GitHub Pages workflow builds the book with the README's command and deploys what it builds."""

import re
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
WORKFLOW = REPO / ".github" / "workflows" / "pages.yml"


def _steps(job):
    return yaml.safe_load(WORKFLOW.read_text())["jobs"][job]["steps"]


def test_the_build_runs_the_readmes_commands_only():
    readme = (REPO / "README.md").read_text()
    commands = set(re.findall(r"^(make \w+)", readme.split("## Two commands")[1].split("```")[1], re.M))
    runs = [s["run"].strip() for s in _steps("build") if "run" in s]
    assert runs == ["make book"] and set(runs) <= commands


def test_it_uploads_the_built_book_with_the_current_pages_actions():
    build, deploy = _steps("build"), _steps("deploy")
    uses = {s["uses"].split("@")[0]: s["uses"].split("@")[1] for s in build + deploy if "uses" in s}
    # the v2 pair of the Pages actions stopped working in 2025
    assert uses["actions/upload-pages-artifact"] == "v3" and uses["actions/deploy-pages"] == "v4"
    assert uses["actions/setup-python"] and next(s for s in build if "setup-python" in s.get("uses", ""))[
        "with"]["python-version"] == "3.11"
    upload = next(s for s in build if "upload-pages-artifact" in s.get("uses", ""))
    assert upload["with"]["path"] == "_build/html"
    workflow = yaml.safe_load(WORKFLOW.read_text())
    assert workflow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    assert workflow["jobs"]["deploy"]["needs"] == "build"


def test_every_notebook_page_offers_its_notebook_as_a_download():
    """The theme's download button links each notebook page's .ipynb, marked to download (not to open)."""
    built = REPO / "_build" / "html" / "book"
    if not built.exists():
        import pytest
        pytest.skip("the book is not built (make book)")
    for nb in sorted((REPO / "book").glob("*.ipynb")):
        html = (built / f"{nb.stem}.html").read_text()
        links = re.findall(r'<a [^>]*href="\.\./_sources/book/' + re.escape(nb.name) + r'"[^>]*>', html)
        assert links and all(" download" in a for a in links), nb.name
        assert (REPO / "_build" / "html" / "_sources" / "book" / nb.name).exists()
