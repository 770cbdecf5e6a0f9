"""The experiment runner and the reproduction: resumable, atomic, verified, parallel."""


import numpy as np
import pandas as pd
import pytest

from sweeper.experiments import specs as ex
from sweeper.experiments.paper import paper_results
from sweeper.experiments.reproduce import COLUMNS, quick_reproduction, reproduce, store_for
from sweeper.experiments.runner import Output, Store, Task, run_tasks, task_kind


@task_kind("test-square")
def _square(x: int, label: str = "square") -> Output:
    return Output(tables={"t": pd.DataFrame({"x": [x], "y": [x * x]})},
                  arrays={"a": {"v": np.arange(x)}}, info={"y": x * x})


def tasks(n=4):
    return [Task.make("test-square", x=i) for i in range(n)]


def test_tasks_are_identified_by_their_parameters():
    assert Task.make("k", a=1, b=2).id == Task.make("k", b=2, a=1).id
    assert Task.make("k", a=1).id != Task.make("k", a=2).id


def test_results_are_stored_verified_and_skipped(tmp_path):
    store = Store(tmp_path)
    assert run_tasks(tasks(), store, progress=False) == {"tasks": 4, "cached": 0, "computed": 4}
    out = store.load(tasks()[3])
    assert out.info["y"] == 9 and out.tables["t"]["y"].item() == 9 and list(out.arrays["a"]["v"]) == [0, 1, 2]
    meta = store.meta(tasks()[3])
    assert {"commit", "numba", "numpy"} <= set(meta["provenance"]) and meta["seconds"] >= 0
    assert run_tasks(tasks(), store, progress=False)["computed"] == 0


def test_corrupt_and_partial_results_are_recomputed(tmp_path):
    store = Store(tmp_path)
    run_tasks(tasks(), store, progress=False)
    d = store.path(tasks()[1])
    (d / "t.parquet").write_bytes(b"garbage")
    (store.path(tasks()[2]) / "a.npz").unlink()
    meta = store.path(tasks()[0]) / "meta.json"
    meta.write_text(meta.read_text()[:20])
    assert store.status(tasks()[1]).startswith("corrupt")
    with pytest.raises(ValueError, match="corrupt"):
        store.load(tasks()[1])
    logged = []
    counts = run_tasks(tasks(), store, progress=False, log=logged.append)
    assert counts["computed"] == 3 and len(logged) == 3
    assert all(store.status(t) == "ok" for t in tasks())
    # a leftover temporary directory from a killed run is ignored and replaced
    (tmp_path / "test-square" / ".tmp-x-1").mkdir()
    assert run_tasks(tasks(), store, progress=False)["computed"] == 0


def test_local_processes_give_the_same_results(tmp_path):
    real = [ex.bandit("greedy", "5x5x4", 500, seed=s, block=100) for s in (1, 2, 3)]
    a, b = Store(tmp_path / "a"), Store(tmp_path / "b")
    run_tasks(real, a, workers=1, progress=False)
    run_tasks(real, b, workers=2, progress=False)
    for t in real:
        assert a.load(t).tables["curve"].equals(b.load(t).tables["curve"])


def test_dask_local_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    real = [ex.bandit("greedy", "4x4x3", 400, seed=s, block=100) for s in (1, 2)]
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        counts = run_tasks(real, Store(tmp_path / "d"), dask=client, progress=False)
    assert counts["computed"] == 2
    local = Store(tmp_path / "l")
    run_tasks(real, local, progress=False)
    for t in real:
        assert Store(tmp_path / "d").load(t).tables["curve"].equals(local.load(t).tables["curve"])


def test_quick_reproduction_of_every_spec():
    """The shared quick store (``.cache/quick-results``, also read by the notebook tests and
    pinned by tests/test_behaviour.py), computed here if the source changed since it was made."""
    root = quick_reproduction(workers=2)
    store = store_for(root, "quick", exact_source=True)
    assert all(store.status(t) == "ok" for t in ex.all_tasks(scale="quick"))
    summary = pd.read_csv(root / "summary-quick.csv")
    assert list(summary.columns) == list(paper_results().columns) == COLUMNS
    assert set(summary["experiment"]) >= {"initial", "ablation", "dimensions", "density", "sa_vs_mab", "transfer",
                                          "action_counts", "timing"}
    rates = summary[summary["metric"].str.startswith("win_rate")]["value"]
    assert rates.between(0, 1).all()
    comparison = pd.read_csv(root / "comparison-quick.csv")
    assert len(comparison) == len(summary)
    counts = reproduce(scale="quick", results=root, progress=False)
    assert counts["computed"] == 0 and counts["summary"] == root / "summary-quick.csv"


def test_spec_ids_are_validated():
    with pytest.raises(ValueError, match="unknown experiment"):
        ex.all_tasks(["fig:nope"])


def test_committed_paper_results_are_reproduced_from_their_seeds(tmp_path):
    """A sample of the committed paper-scale runs, rerun at reduced length: the learning
    curve's first blocks must match bit for bit (training is a deterministic prefix)."""
    store = store_for(scale="paper")
    sc = ex.SCALES["paper"]
    sample = [ex.base_task("greedy", sc, 1), ex.bandit("greedy", "4x4x3", sc.train, 1, block=sc.block),
              ex.bandit("sa", "4x4x5", sc.train, 1, block=sc.block, symmetric=False)]
    if any(store.status(t) != "ok" for t in sample):
        pytest.skip("paper-scale results are not in results/ yet")
    for t in sample:
        p = t.params
        short = Task.make("bandit", **dict(p, episodes=3 * p["block"], tests=[], test_episodes=0, save_agent=False))
        run_tasks([short], Store(tmp_path), progress=False)
        got = Store(tmp_path).load(short).tables["curve"]
        want = store.load(t).tables["curve"].iloc[:3]
        cols = ["episode", "block_wins", "actions_recorded", "perfect_actions"]
        assert got[cols].equals(want[cols].reset_index(drop=True))


def test_every_stored_run_belongs_to_an_experiment():
    """No stored paper-scale run is left behind by a spec that changed: each is a task of some spec with the seeds
    the book and the Makefile use (one seed, the leaderboard's and the networks' three, the seed bands' five)."""
    from pathlib import Path
    known = set()
    for seeds in ((1,), (1, 2, 3), (1, 2, 3, 4, 5)):
        for spec in list(ex.SPECS) + list(ex.EXTRA_SPECS):
            known |= {f"{t.kind}/{t.id}" for t in ex.all_tasks([spec], "paper", seeds)}
    root = Path(__file__).resolve().parents[1] / "results" / "runs" / "paper"
    stored = {f"{m.parent.parent.name}/{m.parent.name}" for m in root.glob("*/*/meta.json")}
    assert stored, "the repository's stored runs are missing"
    assert not sorted(stored - known), "stored runs that no experiment makes: remove them"
