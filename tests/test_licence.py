"""Open material: the licence travels with the wheel, and the citation file is valid CFF."""

import subprocess
import sys
import zipfile
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent


def test_the_wheel_carries_the_licence(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
                    "--disable-pip-version-check", "-w", str(tmp_path), str(REPO)], check=True,
                   capture_output=True, cwd=tmp_path)
    (wheel,) = tmp_path.glob("bandit_sweeper-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        licence = [n for n in names if n.endswith("LICENSE") and ".dist-info/" in n]
        assert licence, names
        text = z.read(licence[0]).decode()
        meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "MIT License" in text and "CC BY 4.0" in text
    assert "License: MIT" in meta or "License-Expression: MIT" in meta


def test_the_citation_file_has_the_fields_cff_requires():
    cff = yaml.safe_load((REPO / "CITATION.cff").read_text())
    for field in ("cff-version", "message", "title", "authors"):
        assert cff.get(field), field
    assert cff["cff-version"] == "1.2.0"
    assert all("name" in a or "family-names" in a for a in cff["authors"])
    (paper,) = cff["references"]
    assert paper["title"].startswith("Multi-Armed Bandits for Minesweeper")
    assert [a["family-names"] for a in paper["authors"]] == ["Lordeiro", "Haddad", "Cardoso"]


def test_the_book_footer_and_the_readme_state_the_licence():
    config = yaml.safe_load((REPO / "_config.yml").read_text())
    assert "CC BY 4.0" in config["html"]["extra_footer"] and "MIT" in config["html"]["extra_footer"]
    readme = (REPO / "README.md").read_text()
    assert "## Licence" in readme and "## How to cite" in readme
