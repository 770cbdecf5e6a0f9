"""The behaviour version: stored results record it, and the pinned checksums of a quick-scale
reproduction catch any change of behaviour made without bumping it.

``tests/data/quick-checksums.json`` holds the SHA-256 of every data file of every task of
``python -m sweeper reproduce --scale quick`` (task id -> {file: sha256}), for
``sweeper.version.BEHAVIOUR_VERSION``. If :func:`test_quick_reproduction_matches_the_pinned_checksums`
fails, the code now computes other results: bump ``BEHAVIOUR_VERSION`` and rewrite the pinned
file with ``python tests/test_behaviour.py --update`` in the same commit (a docstring or a
refactor changes neither). The quick store is the one the book's notebook tests read
(``.cache/quick-results``), recomputed there whenever the source code changed, so
``make test`` computes it once.
"""

import hashlib
import io
import json
import os
import sys
from pathlib import Path

import pandas as pd
import pytest

from sweeper.experiments import specs as ex
from sweeper.experiments.reproduce import COLUMNS, REPO, quick_reproduction, store_for, summary_table
from sweeper.experiments.runner import Store, Task
from sweeper.version import BEHAVIOUR_VERSION

PINNED = Path(__file__).parent / "data" / "quick-checksums.json"


def data_checksums(store: Store, tasks) -> dict:
    """task id -> {data file: SHA-256 of its bytes}, read from the files themselves."""
    out = {}
    for t in tasks:
        d = store.path(t)
        files = sorted(f.name for f in d.iterdir() if f.name != "meta.json")
        out[t.id] = {f: hashlib.sha256((d / f).read_bytes()).hexdigest() for f in files}
    return out


def quick_checksums() -> dict:
    quick_reproduction(workers=min(2, os.cpu_count() or 1))
    return data_checksums(store_for(scale="quick", exact_source=True), ex.all_tasks(scale="quick"))


@pytest.mark.slow
def test_quick_reproduction_matches_the_pinned_checksums():
    pinned = json.loads(PINNED.read_text())
    got = quick_checksums()
    assert set(got) == set(pinned), "the quick reproduction's tasks changed"
    changed = sorted(k for k in pinned if got[k] != pinned[k])
    assert not changed, (f"{len(changed)} of {len(pinned)} quick-scale tasks now give other data (e.g. {changed[:3]}): "
                         f"the behaviour changed. Bump BEHAVIOUR_VERSION (now {BEHAVIOUR_VERSION}) in sweeper/version.py "
                         "and run `python tests/test_behaviour.py --update`")


def test_committed_results_are_of_the_current_version():
    """Every committed paper-scale result was made under this behaviour version and is intact."""
    root = REPO / "results" / "runs" / "paper"
    metas = sorted(root.rglob("meta.json"))
    if not metas:
        pytest.skip("no committed paper-scale results")
    store = Store(root)
    bad = []
    for m in metas:
        meta = json.loads(m.read_text())
        assert meta["behaviour"] == BEHAVIOUR_VERSION, f"{m} was made by behaviour version {meta['behaviour']}"
        task = Task.make(meta["task"]["kind"], **meta["task"]["params"])
        if store.status(task) != "ok":
            bad.append(f"{m.parent.name}: {store.status(task)}")
    assert not bad, bad[:5]
    # the results every figure and table of the paper reads are among them
    assert all(store.status(t) == "ok" for t in ex.all_tasks(scale="paper"))


def test_committed_summary_is_read_from_the_verified_runs():
    """results/summary.csv holds exactly the numbers the checksummed, current-version runs give."""
    store = store_for(scale="paper")
    if not (REPO / "results" / "summary.csv").exists() or any(store.status(t) != "ok"
                                                              for t in ex.all_tasks(scale="paper")):
        pytest.skip("no committed paper-scale results")
    buf = io.StringIO()
    summary_table(store, "paper")[COLUMNS].to_csv(buf, index=False)
    buf.seek(0)
    assert pd.read_csv(buf).equals(pd.read_csv(REPO / "results" / "summary.csv"))


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python tests/test_behaviour.py --update  (rewrites tests/data/quick-checksums.json)")
    sums = quick_checksums()
    PINNED.write_text(json.dumps(sums, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(sums)} tasks' checksums to {PINNED} (behaviour version {BEHAVIOUR_VERSION})")
