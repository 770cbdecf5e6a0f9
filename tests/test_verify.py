"""Issue 41: ``python -m sweeper verify`` recomputes stored runs and reports which differ; the committed
paper-scale runs say which committed code made them, or which commit reproduced them byte for byte."""

import json

import pandas as pd
import pytest

from sweeper.cli import main
from sweeper.experiments.reproduce import store_for
from sweeper.experiments.runner import sha256_hex, meta_checksum, run_tasks, verified_problem
from sweeper.experiments.specs import paper_code, player
from sweeper.experiments.verify import select, verify


@pytest.fixture(scope="module")
def quick_store(tmp_path_factory):
    """Two cheap quick-scale tasks computed into a fresh store (what CI verifies)."""
    results = tmp_path_factory.mktemp("results")
    store = store_for(results, "quick")
    tasks = [paper_code("greedy-4x4x5", 2_000, 500), player("random", "8x8x10", 300, 1, "reference")]
    run_tasks(tasks, store, progress=False, log=lambda *_: None)
    return results, store, tasks


def _forge(store, task, table):
    """Change one stored table and recompute every checksum, as a careful forger would: the store finds the run
    sound, only recomputing it can tell."""
    folder = store.path(task)
    meta = json.loads((folder / "meta.json").read_text())
    frame = pd.read_parquet(folder / table)
    frame.loc[0, "cum_wins"] += 1
    frame.to_parquet(folder / table, index=False)
    meta["files"][table] = sha256_hex((folder / table).read_bytes())
    meta["checksum"] = meta_checksum(meta)
    (folder / "meta.json").write_text(json.dumps(meta))
    assert store.status(task) == "ok"


def test_verify_finds_the_runs_identical_then_reports_a_forged_one(quick_store, capsys):
    results, store, tasks = quick_store
    runs = select(store)
    assert len(runs) == 2
    assert [v.status for v in verify(store, runs, log=lambda *_: None)] == ["identical", "identical"]
    assert main(["verify", "--scale", "quick", "--results", str(results), "--sample", "1"]) == 0
    _forge(store, tasks[0], "curve.parquet")
    assert main(["verify", "--scale", "quick", "--results", str(results)]) == 1
    out = capsys.readouterr().out
    assert f"paper_code/{tasks[0].id}: differs: curve.parquet" in out
    assert f"player/{tasks[1].id}: identical" in out and "1 not (paper_code/" in out


def test_verify_refuses_what_it_cannot_do(quick_store, capsys):
    results, store, _ = quick_store
    for argv, message in ((["nosuchid"], "no stored run 'nosuchid'"), (["--kind", "bandit"], "no stored runs of kind"),
                          (["--sample", "0"], "--sample must be a whole number >= 1"),
                          (["--sample", "1", "abc"], "not both")):
        assert main(["verify", "--scale", "quick", "--results", str(results), *argv]) == 2
        assert message in capsys.readouterr().err


def test_a_verified_record_is_checked(quick_store, tmp_path):
    _, store, tasks = quick_store
    meta = store.meta(tasks[1])
    assert verified_problem(meta) is None  # no record: nothing to check
    meta["verified"] = {"commit": "0" * 40, "source": "x", "date": "d", "files": meta["files"], "command": "c",
                        "checksum": "forged"}
    assert "does not match its checksum" in verified_problem(meta)
    meta["verified"]["files"] = {}
    assert "other data files" in verified_problem(meta)
    del meta["verified"]["command"]
    assert "exactly the fields" in verified_problem(meta)


def test_committed_paper_runs_say_which_committed_code_made_or_reproduced_them():
    """Every stored paper-scale run was made from committed code, or carries a sound record of the commit that
    reproduced it byte for byte (``verify --record``)."""
    store = store_for(None, "paper")
    unaccounted = []
    for run in select(store):
        meta = json.loads((store.root / run / "meta.json").read_text())
        if meta["provenance"].get("sweeper_modified"):
            if "verified" not in meta or verified_problem(meta) is not None:
                unaccounted.append(run)
    assert not unaccounted
