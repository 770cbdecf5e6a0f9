"""Issue 41: ``python -m sweeper verify`` recomputes stored runs and reports which differ; the committed
paper-scale runs say which committed code made them, or which commit reproduced them byte for byte."""

import importlib
import io
import json
import os
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from deep_extra import need
from sweeper.cli import main
import sweeper.experiments.provenance as prov
import sweeper.experiments.runner as runner
from sweeper.experiments.reproduce import REPO, store_for
from sweeper.experiments.runner import (Output, Store, Task, sha256_hex, meta_checksum, run_tasks, task_kind,
                                        verified_problem)
from sweeper.experiments.specs import paper_code, player, register_kinds
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
    runs = select(store, every=True)
    assert len(runs) == 2
    assert [v.status for v in verify(store, runs, log=lambda *_: None)] == ["identical", "identical"]
    assert main(["verify", "--scale", "quick", "--results", str(results), "--sample", "1"]) == 0
    _forge(store, tasks[0], "curve.parquet")
    assert main(["verify", "--scale", "quick", "--results", str(results), "--all"]) == 1
    out = capsys.readouterr().out
    assert f"paper_code/{tasks[0].id}: differs: curve.parquet" in out
    assert f"player/{tasks[1].id}: identical" in out and "1 not (paper_code/" in out


#: The kinds whose tasks need the optional extra ``deep``, and the check that it is installed.
DEEP_KINDS = {"neural_bandit": "sweeper.agents.neural:require_torch",
              "deep_ppo": "sweeper.experiments.deep_rl:require"}


@pytest.mark.parametrize("kind", register_kinds())
def test_a_small_run_of_every_kind_verifies_identical(kind, tmp_path):
    """A small run of each task kind of the experiments (every kind :func:`register_kinds` finds, its small task
    as its registration declares it), stored, then recomputed: identical, byte for byte, with no
    timing column in its data files (they are in ``info``, and the store reads them back into the tables). The
    kinds that need the optional extra ``deep`` are skipped without it (and fail under ``SWEEPER_REQUIRE_DEEP=1``,
    as ``make test-deep`` runs)."""
    if kind in DEEP_KINDS:
        module, name = DEEP_KINDS[kind].split(":")
        need(getattr(importlib.import_module(module), name))
    register_kinds()
    task = runner.small_task(kind)
    store = store_for(tmp_path, "quick")
    run_tasks([task], store, progress=False, log=lambda *_: None)
    tables = [f for f in store.meta(task)["files"] if f.endswith(".parquet")]
    assert [(f, c) for f in tables for c in pd.read_parquet(store.path(task) / f).columns
            if runner.timing_field(str(c))] == []
    timings, read = store.meta(task)["info"].get(runner.TABLE_SECONDS, {}), store.load(task).tables
    assert all(set(t["values"]) <= set(read[name].columns) for name, t in timings.items())  # read back in place
    verdicts = verify(store, select(store, every=True), log=lambda *_: None)
    assert [v.status for v in verdicts] == ["identical"], [v.line() for v in verdicts]


def test_every_kind_of_the_experiments_has_a_small_run_to_verify():
    """A new task kind declares its small run where it is registered (``task_kind(NAME, small=...)``), so that the
    test above verifies it with no list here to update."""
    kinds = register_kinds()
    assert {"bandit", "player", "benchmark"} <= set(kinds)
    for kind in kinds:
        assert runner.small_task(kind).kind == kind


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
    for run in select(store, every=True):
        meta = json.loads((store.root / run / "meta.json").read_text())
        if meta["provenance"].get("sweeper_modified"):
            if "verified" not in meta or verified_problem(meta) is not None:
                unaccounted.append(run)
    assert not unaccounted


# ------------------------------------------------------------------ issue 49 --

RAISE = {"on": False}


@task_kind("test-verify")
def _facts(x: int, label: str | None = None) -> Output:
    """A cheap task whose facts include a NaN (as a bandit run's ``mean_count_nonperfect`` with no non-perfect
    action), which raises when ``RAISE["on"]`` is set and ``x`` is odd (as a task does after its inputs changed)."""
    if RAISE["on"] and x % 2:
        raise ValueError("the best-window table of 8x8x10 is not the one this task names")
    return Output(tables={"t": pd.DataFrame({"x": [x]})}, info={"wins": x, "mean_count_nonperfect": float("nan"),
                                                                "seconds": 0.1 * x})


@pytest.fixture
def fact_store(tmp_path):
    store = Store(tmp_path / "runs" / "quick")
    tasks = [Task.make("test-verify", x=i) for i in (1, 2)]
    run_tasks(tasks, store, progress=False, log=lambda *_: None)
    return store, tasks


def test_a_nan_fact_stored_and_recomputed_is_identical(fact_store):
    """Before: ``differs: info mean_count_nonperfect`` (NaN != NaN), so no store with such a run could pass."""
    store, tasks = fact_store
    assert [v.status for v in verify(store, select(store, every=True), log=lambda *_: None)] == ["identical"] * 2


def test_a_task_that_raises_is_named_and_the_batch_goes_on(fact_store, capsys, monkeypatch):
    """Before: the ValueError of the first run stopped the batch, naming no run."""
    store, tasks = fact_store
    monkeypatch.setitem(RAISE, "on", True)
    verdicts = {v.run: v for v in verify(store, select(store, every=True), log=lambda *_: None)}
    bad = verdicts[f"test-verify/{tasks[0].id}"]
    assert bad.status.startswith("cannot verify: the task failed: ValueError: the best-window table of 8x8x10")
    assert verdicts[f"test-verify/{tasks[1].id}"].status == "identical"
    assert main(["verify", "--scale", "quick", "--results", str(store.root.parents[1]), "--all"]) == 1
    out = capsys.readouterr().out
    assert f"test-verify/{tasks[0].id}: cannot verify: the task failed" in out and "1 not (test-verify/" in out


def test_a_deeply_nested_meta_json_is_corrupt_not_a_recursion_error(fact_store):
    """Before: a raw RecursionError from the JSON reader."""
    store, tasks = fact_store
    (store.path(tasks[0]) / "meta.json").write_text("[" * 100_000 + "]" * 100_000)
    assert store.status(tasks[0]).startswith("corrupt: meta.json cannot be read (too deeply nested)")
    v = verify(store, [f"test-verify/{tasks[0].id}"], log=lambda *_: None)[0]
    assert v.status.startswith("corrupt: meta.json cannot be read (too deeply nested)")


@pytest.mark.parametrize("argv, message", [
    (["x", "--exclude", "bandit"], "--exclude chooses among the stored runs"),
    (["x", "--all"], "--all verifies every stored run"),
    (["--all", "--kind", "player"], "--all verifies every stored run"),
    (["--seed", "3"], "--seed draws --sample"),
    ([], "say which runs to verify"),
])
def test_verify_refuses_options_without_effect(argv, message, capsys, tmp_path):
    """Before: ``--exclude`` with run ids (and ``--seed`` without ``--sample``) were ignored."""
    assert main(["verify", "--scale", "quick", "--results", str(tmp_path), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_every_kind_of_the_store_is_known_to_verify():
    """Before: ``verify`` imported the kinds of ``specs`` and ``deep_rl`` but not ``neural``: ``unknown task kind
    'neural_bandit'`` for its 18 stored runs. In a fresh process, as the command line starts."""
    code = ("import json, sys; from sweeper.experiments.verify import known_kinds; "
            "from sweeper.experiments.runner import TASKS; "
            "known = sorted(known_kinds()); "
            "ours = sorted(k for k, f in TASKS.items() if f.__module__.startswith('sweeper.')); "
            "from sweeper.experiments.specs import register_kinds; print(json.dumps([known, ours, register_kinds(), 'torch' in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=dict(os.environ, PYTHONPATH=str(REPO)))
    known, ours, kinds, torch = json.loads(out.stdout)
    stored = {k.name for k in store_for(None, "paper").root.iterdir() if k.is_dir()}
    assert stored and stored <= set(known)
    assert ours == kinds  # every kind the package defines is found by register_kinds
    assert not torch  # registering a kind imports no torch: only running a deep task does


def _git(repo, *args):
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture
def history(tmp_path, monkeypatch):
    """A git repository of two commits standing in for the package's checkout (so that the test does not depend on
    how this checkout was cloned): (repo, first commit, second commit)."""
    repo = tmp_path / "repo"
    (repo / "sweeper" / "game").mkdir(parents=True)
    (repo / "sweeper" / "viz").mkdir()
    _git(repo, "init", "-q")
    for key, value in (("user.email", "t@example.org"), ("user.name", "t"), ("commit.gpgsign", "false")):
        _git(repo, "config", key, value)
    commits = []
    for rule in ("first", "second"):
        (repo / "sweeper" / "game" / "rule.py").write_text(f"RULE = {rule!r}\n")
        (repo / "sweeper" / "viz" / "chart.py").write_text(f"CHART = {rule!r}\n")
        (repo / "sweeper" / "version.py").write_text("BEHAVIOUR_VERSION = 2\n")
        _git(repo, "add", "-A")
        _git(repo, "commit", "-qm", rule)
        commits.append(_git(repo, "rev-parse", "HEAD"))
    monkeypatch.setattr(prov, "REPO", repo)
    return repo, *commits


def _rewrite(store, task, change):
    """Change a stored run's meta.json and recompute its checksums, as a careful forger would."""
    path = store.path(task) / "meta.json"
    meta = json.loads(path.read_text())
    change(meta)
    meta["checksum"] = meta_checksum(meta)
    if "verified" in meta:
        meta["verified"]["checksum"] = prov.verified_checksum(meta)
    path.write_text(json.dumps(meta))
    return meta


def test_a_commits_fingerprint_is_computed_from_git_as_from_its_files(history):
    repo, first, second = history
    assert prov.commit_fingerprint(second) == prov.tree_fingerprint(repo / "sweeper")
    assert prov.commit_fingerprint(first) != prov.commit_fingerprint(second)
    _git(repo, "checkout", "-q", first)
    assert prov.commit_fingerprint(first) == prov.tree_fingerprint(repo / "sweeper")
    assert prov.commit_fingerprint("0" * 40) is None and prov.commit_fingerprint("bogus") is None


def _provenance(commit, source, modified=False):
    return lambda m: m.update(provenance={**m["provenance"], "commit": commit, "source": source,
                                          "sweeper_modified": modified})


def test_provenance_naming_a_commit_not_in_the_history_or_not_its_code_is_refused(fact_store, history):
    """Before: a meta.json naming commit 000...0 (``sweeper_modified: false``), or a ``verified`` record naming
    commit 222...2 with source "bogus", checksums recomputed, passed ``Store.status`` and verified as identical."""
    store, (task, _) = fact_store
    repo, first, second = history
    run = f"test-verify/{task.id}"
    _rewrite(store, task, _provenance(first, prov.commit_fingerprint(first)))
    assert store.status(task) == "ok" and verify(store, [run], log=lambda *_: None)[0].status == "identical"
    _rewrite(store, task, _provenance("0" * 40, prov.commit_fingerprint(first)))
    message = "corrupt: its provenance names commit '000000000000', which is not in this repository's history"
    assert store.status(task) == message
    assert verify(store, [run], log=lambda *_: None)[0].status == message
    _rewrite(store, task, _provenance(first, prov.commit_fingerprint(second)))
    assert store.status(task).startswith(f"corrupt: its provenance says commit {first[:12]}'s committed code made "
                                         f"it, but records the source fingerprint "
                                         f"{prov.commit_fingerprint(second)[:12]}..., not that commit's")
    _rewrite(store, task, _provenance(first, "made from uncommitted changes", modified=True))
    assert store.status(task) == "ok"  # the commit it was made from exists; its code was not that commit's

    def record(commit, source):
        return lambda m: m.update(verified={"commit": commit, "source": source, "date": "d", "files": m["files"],
                                            "command": "c", "checksum": ""})
    _rewrite(store, task, record("2" * 40, "bogus"))
    assert store.status(task) == ("corrupt: its 'verified' record names commit '222222222222', which is not in "
                                  "this repository's history")
    _rewrite(store, task, record(second, prov.commit_fingerprint(first)))
    assert store.status(task).startswith("corrupt: its 'verified' record's source fingerprint")
    _rewrite(store, task, record(second, prov.commit_fingerprint(second)))
    assert store.status(task) == "ok" and verify(store, [run], log=lambda *_: None)[0].status == "identical"


def test_without_a_git_history_verify_says_it_cannot_check_the_commits(fact_store, tmp_path, monkeypatch):
    store, (task, other) = fact_store
    _rewrite(store, task, _provenance("0" * 40, "x"))
    _rewrite(store, other, lambda m: m.update(provenance={}))  # names no commit: nothing to check
    monkeypatch.setattr(prov, "REPO", tmp_path / "export")  # as an sdist: no .git
    assert "no git history here" in prov.history_problem()
    assert store.status(task) == "ok"  # the store reads it (the book builds); verify says what it cannot check
    v = {v.run.split("/")[1]: v for v in verify(store, select(store, every=True), log=lambda *_: None)}
    assert v[task.id].status.startswith("cannot verify: the commits its meta.json names cannot be checked: no git "
                                        "history here")
    assert v[other.id].status == "unvouched"  # recomputed byte for byte, but nothing names the code that made it


def test_stored_paper_runs_name_commits_of_the_history_with_their_fingerprints():
    """Every commit the committed paper-scale runs name is in this checkout's history, with the source fingerprint
    recorded beside it (recomputed from git: the same algorithm as the files' fingerprint)."""
    if prov.history_problem():
        pytest.skip(prov.history_problem())
    store = store_for(None, "paper")
    problems = {}
    for run in select(store, every=True):
        meta = json.loads((store.root / run / "meta.json").read_text())
        try:
            problem = prov.provenance_problem(meta)
        except prov.HistoryUnavailable as exc:
            pytest.skip(str(exc))
        if problem:
            problems[run] = problem
    assert not problems


@task_kind("test-verify-timed")
def _timed_table(x: int, label: str | None = None) -> Output:
    """A table with a CPU-second column (as the neural bandit's and deep_ppo's curves and tests): never the same."""
    import time
    return Output(tables={"curve": pd.DataFrame({"games": [x, 2 * x], "cpu_seconds": [time.process_time()] * 2,
                                                 "wins": [1, 2], "games_per_cpu_second": [1e9, time.time()]})},
                  info={"wins": 2})


def test_timing_columns_stay_out_of_the_data_files_so_a_recomputed_run_is_identical(tmp_path):
    """Before: the CPU seconds were in the parquet file, so such a run verified as "same values" at best."""
    store = Store(tmp_path)
    task = Task.make("test-verify-timed", x=3)
    run_tasks([task], store, progress=False)
    assert list(pd.read_parquet(store.path(task) / "curve.parquet").columns) == ["games", "wins"]
    meta = store.meta(task)
    assert list(meta["info"]["table_seconds"]["curve"]["values"]) == ["cpu_seconds", "games_per_cpu_second"]
    out = store.load(task)  # as the task returned it: the columns back in their places
    assert list(out.tables["curve"].columns) == ["games", "cpu_seconds", "wins", "games_per_cpu_second"]
    assert out.tables["curve"]["cpu_seconds"].dtype == "float64" and out.info == {"wins": 2}
    assert verify(store, [f"test-verify-timed/{task.id}"], log=lambda *_: None)[0].status == "identical"
    _rewrite(store, task, lambda m: m["info"]["table_seconds"]["curve"]["values"]["cpu_seconds"].pop())
    with pytest.raises(ValueError, match="info\\['table_seconds'\\] does not fit the table 'curve' of this run"):
        store.load(task)  # a forged record is one clear error, not a KeyError


def test_runs_stored_with_timing_columns_are_migrated_to_the_same_tables(tmp_path, monkeypatch):
    """Stored runs of the old layout (timing columns in their data files) rewritten by the committed migration:
    sound for the store, the same tables for their readers, identical for verify, with a record of the rewrite."""
    from sweeper.experiments.migrate import WHAT, migrate_timings
    store = Store(tmp_path)
    tasks = [Task.make("test-verify-timed", x=3), Task.make("test-verify", x=2)]
    with monkeypatch.context() as old:  # the store as it wrote runs before issue 49
        old.setattr(runner, "stored_form", lambda out: (runner.output_files(out), dict(out.info)))
        run_tasks(tasks, store, progress=False)
    before = store.load(tasks[0])
    old_files = dict(store.meta(tasks[0])["files"])
    assert "cpu_seconds" in pd.read_parquet(store.path(tasks[0]) / "curve.parquet")
    assert verify(store, [f"test-verify-timed/{tasks[0].id}"], log=lambda *_: None)[0].status == "same values"
    head = prov.provenance()["commit"]
    assert migrate_timings(store, head, log=lambda *_: None) == [f"test-verify-timed/{tasks[0].id}"]
    meta = store.meta(tasks[0])
    assert store.status(tasks[0]) == "ok" and meta["checksum"] == meta_checksum(meta)
    assert [{k: r[k] for k in ("commit", "what", "files")} for r in meta["migrated"]] == [
        {"commit": head, "what": WHAT, "files": old_files}]
    after = store.load(tasks[0])
    pd.testing.assert_frame_equal(after.tables["curve"], before.tables["curve"])
    assert after.info == before.info and "migrated" not in store.meta(tasks[1])
    assert verify(store, [f"test-verify-timed/{tasks[0].id}"], log=lambda *_: None)[0].status == "identical"
    assert migrate_timings(store, head, log=lambda *_: None) == []  # nothing left to migrate
    forged = _rewrite(store, tasks[0], lambda m: m["migrated"][0].update(commit="3" * 40))
    assert store.status(tasks[0]) == ("corrupt: its 'migrated' record names commit '333333333333', which is not in "
                                      "this repository's history") or prov.history_problem()
    assert forged["migrated"][0]["commit"] == "3" * 40


def _forge_bytes(store, task, name, change):
    """Rewrite a stored data file through ``change(path)`` and recompute every checksum: only recomputing can tell."""
    folder = store.path(task)
    change(folder / name)
    meta = json.loads((folder / "meta.json").read_text())
    meta["files"][name] = sha256_hex((folder / name).read_bytes())
    meta["checksum"] = meta_checksum(meta)
    (folder / "meta.json").write_text(json.dumps(meta))
    assert store.status(task) == "ok"


@task_kind("test-verify-values")
def _values(x: int, label: str | None = None) -> Output:
    """A table of numbers and names and an array file (as a neural bandit's calibration table and its network)."""
    return Output(tables={"calibration": pd.DataFrame({"bin": ["low", "high"], "tiles": [3, 4], "net": [0.1, 0.7]})},
                  arrays={"agent": {"weight": np.arange(4, dtype=np.float32) * x, "metadata": np.array('{"v": 2}')}})


def test_a_run_that_differs_names_the_columns_and_arrays_and_by_how_much(tmp_path):
    """Before: ``differs: agent.npz; calibration.parquet``, naming no column, array or size (a neural bandit run
    whose calibration differs in the last bits of one column, and whose network file differs in its metadata
    only, read the same as a run that differs everywhere)."""
    store = Store(tmp_path)
    task = Task.make("test-verify-values", x=2)
    run_tasks([task], store, progress=False)

    def table(path):
        frame = pd.read_parquet(path)
        frame.loc[1, "net"] += 1e-8
        frame.loc[0, "bin"] = "lowest"
        frame.to_parquet(path, index=False)

    def arrays(path):
        with np.load(path) as z:
            kept = {k: z[k] for k in z.files}
        np.savez_compressed(path, **{**kept, "metadata": np.array('{"v": 1, "older": true}')})

    _forge_bytes(store, task, "calibration.parquet", table)
    _forge_bytes(store, task, "agent.npz", arrays)
    v = verify(store, [f"test-verify-values/{task.id}"], log=lambda *_: None)[0]
    assert v.status == "differs"
    assert v.detail == "agent.npz (metadata); calibration.parquet (bin, net: up to 1e-08)"


def test_value_differences_say_what_differs_in_shape_type_and_numbers():
    """Before: only whether a file held the same values."""
    from sweeper.experiments.verify import value_differences

    def parquet(frame):
        buf = io.BytesIO()
        frame.to_parquet(buf, index=False)
        return buf.getvalue()

    def npz(**arrays):
        buf = io.BytesIO()
        np.savez(buf, **arrays)
        return buf.getvalue()

    a = pd.DataFrame({"n": [1, 2], "p": [0.5, float("nan")], "cpu_seconds": [1.0, 2.0]})
    same = a.assign(cpu_seconds=[3.0, 4.0])  # timing columns are no difference
    assert value_differences("t.parquet", parquet(a), parquet(same)) == []
    assert value_differences("t.parquet", parquet(a), parquet(a.assign(n=[1, 5]))) == ["n: up to 3"]
    assert value_differences("t.parquet", parquet(a), parquet(a.assign(p=[0.5, 1.0]))) == ["p: NaN on one side"]
    assert value_differences("t.parquet", parquet(a), parquet(a.assign(n=[1.0, 2.0]))) == [
        "n: int64 stored, float64 computed"]
    assert value_differences("t.parquet", parquet(a), parquet(a.iloc[:1])) == ["2 rows stored, 1 computed"]
    assert value_differences("t.parquet", parquet(a), parquet(a.drop(columns="p"))) == [
        "columns ['n', 'p'] stored, ['n'] computed"]
    w = np.zeros((2, 3), np.float32)
    assert value_differences("a.npz", npz(w=w), npz(w=w.copy())) == []
    assert value_differences("a.npz", npz(w=w), npz(w=w[:1])) == ["w: shape (2, 3) stored, (1, 3) computed"]
    assert value_differences("a.npz", npz(w=w), npz(w=w + 0.25)) == ["w: up to 0.25"]
    assert value_differences("a.npz", npz(w=w), npz(v=w)) == ["arrays ['w'] stored, ['v'] computed"]


def test_verify_counts_the_verdicts_per_kind(fact_store, capsys, monkeypatch):
    """Before: one total line only, so a verify of the whole store said how many runs failed but not of which
    kinds."""
    store, tasks = fact_store
    timed = Task.make("test-verify-timed", x=3)
    run_tasks([timed], store, progress=False, log=lambda *_: None)
    monkeypatch.setitem(RAISE, "on", True)
    assert main(["verify", "--scale", "quick", "--results", str(store.root.parents[1]), "--all"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[-4] == "per kind:"
    assert re.fullmatch(r"  test-verify: 2 runs: 1 identical, 1 cannot verify \[\d+\.\d s\]", lines[-3])
    assert re.fullmatch(r"  test-verify-timed: 1 run: 1 identical \[\d+\.\d s\]", lines[-2])
    assert lines[-1] == f"3 runs verified: 2 identical, 0 same values, 1 not (test-verify/{tasks[0].id})"


def test_a_neural_run_without_torch_says_the_extra_is_missing(tmp_path, monkeypatch):
    """Before: ``cannot verify: the task failed: ValueError: ...``, as if the run's code had broken. A stored
    neural bandit run (written here without training it) verified where torch is not installed."""
    from deep_extra import hide
    store = Store(tmp_path)
    task = Task.make("neural_bandit", board="6x6x5", seed=1, games=40, channels=8, layers=1)
    store.save(task, Output(tables={"curve": pd.DataFrame({"games": [40]})}), 1.0, prov.provenance())
    hide(monkeypatch, "torch")
    v = verify(store, [f"neural_bandit/{task.id}"], log=lambda *_: None)[0]
    assert v.status.startswith("cannot verify: the neural bandit needs the optional extra 'deep' (torch==")
    assert v.status.endswith("`make deep` installs it (torch is missing)")


def test_the_cheapest_committed_run_of_each_kind_verifies_identical():
    """The committed paper-scale store, recomputed by the current code: of each task kind whose cheapest stored
    run took under 10 s to make, that run verifies identical, byte for byte (the other kinds' runs take minutes
    each: ``python -m sweeper verify --kind KIND``)."""
    store = store_for(None, "paper")
    cheapest = {}
    for run in select(store, every=True):
        meta = json.loads((store.root / run / "meta.json").read_text())
        kind = run.split("/")[0]
        if meta["seconds"] < 10 and meta["seconds"] < cheapest.get(kind, (float("inf"),))[0]:
            cheapest[kind] = (meta["seconds"], run, meta)
    assert {"bandit", "player", "paper_code"} <= set(cheapest)
    for _, _, meta in cheapest.values():
        try:
            prov.provenance_problem(meta)
        except prov.HistoryUnavailable as exc:
            pytest.skip(str(exc))
    verdicts = verify(store, sorted(run for _, run, _ in cheapest.values()), log=lambda *_: None)
    assert [v.status for v in verdicts] == ["identical"] * len(cheapest), [v.line() for v in verdicts]


NUMPY_FACT = {"on": False}


@task_kind("test-verify-facts")
def _numpy_fact(x: int, label: str | None = None) -> Output:
    """A cheap task whose fact ``wins`` becomes a NumPy integer, which JSON cannot write, when ``NUMPY_FACT["on"]``
    is set and ``x`` is odd (as after a change to the code that computes it)."""
    wins = np.int64(x) if NUMPY_FACT["on"] and x % 2 else x
    return Output(tables={"t": pd.DataFrame({"x": [x]})}, info={"wins": wins})


def test_a_recomputed_output_the_store_cannot_write_is_named_and_the_batch_goes_on(tmp_path, monkeypatch):
    """Before: the TypeError of the first run's facts stopped the batch, naming no run."""
    store = Store(tmp_path)
    tasks = [Task.make("test-verify-facts", x=i) for i in (1, 2)]
    run_tasks(tasks, store, progress=False, log=lambda *_: None)
    monkeypatch.setitem(NUMPY_FACT, "on", True)
    verdicts = {v.run: v.status for v in verify(store, select(store, every=True), log=lambda *_: None)}
    assert verdicts == {f"test-verify-facts/{tasks[0].id}": "cannot verify: the recomputed output cannot be compared: "
                                                           "TypeError: Object of type int64 is not JSON serializable",
                        f"test-verify-facts/{tasks[1].id}": "identical"}


def test_benchmark_runs_record_their_counted_work_and_old_runs_are_migrated_to_it(tmp_path, monkeypatch):
    """Issue 61: a benchmark run of a table agent records its training decisions (in all and at each checkpoint); a
    run stored before that is migrated by playing its training again (the same games) and then verifies identical,
    with a record of the migration."""
    import sweeper.experiments.leaderboard as lb
    from sweeper.experiments.migrate import WORK_WHAT, migrate_work
    from sweeper.running.training import train
    test = {"levels": ["beginner"], "games": [20], "regret_games": [0], "opening": "reference",
            "checkpoint_games": 10}
    task = Task.make("benchmark", agent="greedy", seed=3, test=test,
                     train={"board": "8x8x10", "games": 300, "chunk": 100, "checkpoints": [100, 300]})
    store = Store(tmp_path)
    with monkeypatch.context() as old:  # the benchmark's runs as they were stored before they counted their work
        old.setattr(lb, "table_work", lambda run, at: {})
        run_tasks([task], store, progress=False)
    assert "train_decisions" not in store.meta(task)["info"]
    head = prov.provenance()["commit"]
    assert migrate_work(store, head, log=lambda *_: None) == [f"benchmark/{task.id}"]
    meta = store.meta(task)
    played = train("greedy", "8x8x10", 300, seed=3, progress=False).records["decisions"].to_numpy()
    assert meta["info"]["train_decisions"] == int(played.sum()) > 300
    assert meta["info"]["checkpoint_train_decisions"] == [int(played[:100].sum()), int(played.sum())]
    assert store.status(task) == "ok" and meta["migrated"][-1]["what"] == WORK_WHAT
    assert verify(store, [f"benchmark/{task.id}"], log=lambda *_: None)[0].status == "identical"
    assert migrate_work(store, head, log=lambda *_: None) == []  # nothing left to migrate


# ------------------------------------------- issue 65: unvouched provenance --

@pytest.mark.parametrize("change, said", [
    (lambda m: m["provenance"].update(commit="unknown"), "commit 'unknown'"),
    (lambda m: m["provenance"].update(commit=None), "commit null"),
    (lambda m: m["provenance"].pop("commit"), "commit absent"),
    (lambda m: m.pop("provenance"), "has no provenance"),
    (lambda m: m.update(provenance=None), "has no provenance"),
])
def test_a_run_that_names_no_commit_is_unvouched_not_identical(fact_store, change, said, capsys, monkeypatch):
    """Before: a provenance whose commit is "unknown", null or absent (with ``sweeper_modified: false`` and any
    source fingerprint), or no provenance at all, verified ``identical``; ``verify --record`` on it ended in a raw
    KeyError or AttributeError."""
    store, (task, other) = fact_store

    def forged(m):
        if isinstance(m.get("provenance"), dict):
            m["provenance"].update(sweeper_modified=False, source="any fingerprint")
        change(m)
    _rewrite(store, task, forged)
    run = f"test-verify/{task.id}"
    v = verify(store, [run], log=lambda *_: None)[0]
    assert v.status == "unvouched" and v.detail.startswith("identical when recomputed, but its meta.json")
    assert said in v.detail and "nothing vouches for which code made it" in v.detail
    results = str(store.root.parents[1])
    assert main(["verify", "--scale", "quick", "--results", results, "--all"]) == 1  # not a clean verification
    out = capsys.readouterr().out
    assert f"{run}: unvouched" in out and f"1 not ({run}), of which 1 unvouched (no commit named)" in out
    assert "identical, 0 same values, 1 not" in out  # the unvouched run counted once, among those not verified
    clean = {**prov.provenance(), "sweeper_modified": False}
    monkeypatch.setattr("sweeper.experiments.verify.provenance", lambda: clean)  # as from committed code
    assert main(["verify", "--scale", "quick", "--results", results, "--record", run]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --record cannot vouch for {run}: ") and said in err and err.count("\n") == 1
    assert "Traceback" not in err and "verified" not in json.loads((store.path(task) / "meta.json").read_text())
