"""The repository stands alone: a copy of its tracked files in an empty directory, with nothing beside it,
imports, reproduces the comparison with the paper from the stored runs, executes a chapter, and builds
a wheel that carries the paper's numbers."""

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pandas as pd
import pytest

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def _tracked_files() -> list[str]:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    r = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True)
    if r.returncode != 0 or not r.stdout:
        pytest.skip("not a git checkout: nothing to copy")
    return [f for f in r.stdout.decode().split("\0") if f and (REPO / f).is_file()]


@pytest.fixture(scope="module")
def bare(tmp_path_factory) -> Path:
    """The working tree's tracked files, copied alone into an empty directory."""
    root = tmp_path_factory.mktemp("alone")
    copy = root / "bandit-sweeper"
    for f in _tracked_files():
        (copy / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / f, copy / f)
    assert [p.name for p in root.iterdir()] == ["bandit-sweeper"]
    return copy


def _run(args, cwd, pythonpath, timeout=600) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("SWEEPER_SCALE", "PYTHONPATH")}
    env["PYTHONPATH"] = str(pythonpath)
    r = subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, f"{args} failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r.stdout


def test_the_copy_names_no_path_outside_itself(bare):
    outside = re.compile(r'\.\./shared|shared/(paper|notes)|/w[o]rk/|"shar[e]d"')
    for f in bare.rglob("*"):
        rel = f.relative_to(bare)
        if f.is_file() and rel.parts[0] != "results" and rel.parts[:2] != ("book", "_static"):
            text = f.read_bytes().decode("utf-8", errors="replace")
            assert not outside.search(text), f"{rel} names a path outside the repository"


def test_the_copy_imports_its_own_package(bare):
    out = _run(["-c", "import sweeper, sweeper.experiments.paper as p; print(sweeper.__file__); "
                      "print(len(p.paper_results()), len(p.published_solver()))"], bare, bare)
    where, counts = out.split("\n")[:2]
    assert Path(where).resolve().is_relative_to(bare.resolve())
    assert counts.split() == ["66", "20"]


def test_reproduce_writes_the_comparison_from_the_stored_runs(bare):
    target = bare / "results" / "comparison.csv"
    committed = pd.read_csv(target)
    target.unlink()
    (bare / "results" / "summary.csv").unlink()
    out = _run(["-m", "sweeper", "reproduce", "--no-progress"], bare, bare)
    assert " 0 computed" in out, out
    assert target.exists() and (bare / "results" / "summary.csv").exists()
    pd.testing.assert_frame_equal(pd.read_csv(target), committed)


def test_a_chapter_executes_in_the_copy(bare, tmp_path):
    out = tmp_path / "08.ipynb"
    _run(["-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", "--ExecutePreprocessor.timeout=600",
          "--output", str(out), "08_state_action.ipynb"], bare / "book", bare)
    nb = json.loads(out.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code and all(c["outputs"] for c in code)
    assert not [o for c in code for o in c["outputs"] if o["output_type"] == "error"]
    assert "paper scale" in json.dumps(code[0]["outputs"])


def test_a_wheel_of_the_copy_ships_the_paper_data(bare, tmp_path):
    """A non-editable install (wheel, no source tree around it) finds the paper's numbers."""
    _run(["-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet", "--disable-pip-version-check",
          "-w", str(tmp_path / "dist"), str(bare)], tmp_path, "")
    wheel, = (tmp_path / "dist").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for sub in ("game", "agents", "running", "experiments", "viz"):
        assert f"sweeper/{sub}/__init__.py" in names
    assert {"sweeper/experiments/data/paper-results.csv", "sweeper/experiments/data/published-solver.csv"} <= names
    site = tmp_path / "site"
    _run(["-m", "pip", "install", "--no-deps", "--quiet", "--disable-pip-version-check", "--target", str(site),
          str(wheel)], tmp_path, "")
    out = _run(["-c", "import sweeper.experiments.paper as p; print(p.__file__); print(p.headline())"], tmp_path, site)
    where, value = out.split("\n")[:2]
    assert Path(where).resolve().is_relative_to(site.resolve())
    assert float(value) == pd.read_csv(bare / "sweeper/experiments/data/paper-results.csv").query(
        "experiment == 'initial' and agent == 'greedy'")["value"].item()
