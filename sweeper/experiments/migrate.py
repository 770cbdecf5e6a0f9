"""Stored runs rewritten to the store's current layout without recomputing them (timings moved out of the
data files).

Until then a task's tables were stored whole, timing columns included (``cpu_seconds``, ``test_cpu_seconds``,
``games_per_cpu_second`` ... of the ``neural_bandit`` and ``deep_ppo`` runs), so a recomputed run could never be
byte-identical to the stored one, only "same values". The store now keeps those columns in ``info``
(:func:`~sweeper.experiments.runner.stored_form`). :func:`migrate_timings` rewrites a stored run of the old layout
into the new one, which is what the store would write for its task today:

* each parquet file with timing columns is rewritten without them (the other columns as they were, values and
  types: the table read back and written again); other data files are left byte for byte;
* the columns' values go to ``info["table_seconds"]`` exactly as :func:`~sweeper.experiments.runner.stored_form`
  puts them (so :meth:`~sweeper.experiments.runner.Store.load` returns the same tables as before);
* the data files' checksums and the run's checksum are recomputed as the store computes them;
* a record is appended to the run's ``migrated`` list: ``commit`` (the commit whose code migrated it: committed
  code only, and :func:`~sweeper.experiments.provenance.provenance_problem` checks that it is in the history),
  ``date``, ``what`` (:data:`WHAT`) and ``files``, the data files' checksums before, which the run's provenance
  (the commit that computed it) vouches for.

So the provenance still says which code computed the run, the record which code rewrote its files and from what;
``python -m sweeper verify`` checks the result by recomputing the run with the current code (byte-identical). A run
with a ``verified`` record is not migrated (that record vouches for the old files): recompute it instead.

A second migration (:func:`migrate_work`) adds to a stored benchmark run's ``info`` the counted work of its training
(decisions, and gradient steps for a network), which the benchmark's runs record since budgets and costs are
counted in work: a table agent's by playing its training again, the same games, a network's from its own run.

``python -m sweeper.experiments.migrate [STORE]`` applies both to every run of ``STORE`` (default: the paper-scale
store, ``results/runs/paper``) and says which; runs already in the new layout are left alone.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path

import pandas as pd

from .provenance import meta_checksum, provenance, sha256_hex
from .runner import TABLE_SECONDS, Output, Store, Task, stored_form, timing_field

#: What a migration did, as its record says.
WHAT = "timing columns moved from the data files to info['table_seconds'] "


def needs_migration(folder: Path, meta: dict) -> list[str]:
    """The parquet files of a stored run (its folder and ``meta.json``) that hold timing columns."""
    import pyarrow.parquet as pq
    return [f for f in sorted(meta["files"]) if f.endswith(".parquet")
            and any(timing_field(c) for c in pq.read_schema(folder / f).names)]


def migrate_run(store: Store, run: str, commit: str) -> bool:
    """Rewrite one stored run (``kind/id``) to the current layout (see the module's text); ``commit``: the commit
    whose code migrates it. Returns whether anything was rewritten; ``ValueError`` if the run is not ok or carries
    a ``verified`` record."""
    kind, rid = run.split("/")
    folder = store.root / kind / rid
    meta = json.loads((folder / "meta.json").read_text())
    task = Task.make(meta["task"]["kind"], **meta["task"]["params"])
    status = store.status(task)
    if status != "ok":
        raise ValueError(f"{run} is {status}: recompute it (`python -m sweeper reproduce`), do not migrate it")
    timed = needs_migration(folder, meta)
    if not timed:
        return False
    if "verified" in meta:
        raise ValueError(f"{run} carries a 'verified' record, which vouches for its present data files: recompute "
                         "it instead of migrating it")
    if TABLE_SECONDS in meta["info"]:
        raise ValueError(f"{run} already has info[{TABLE_SECONDS!r}] and timing columns in {timed}")
    tables = {f.rsplit(".", 1)[0]: pd.read_parquet(folder / f) for f in timed}
    files, info = stored_form(Output(tables=tables, info=meta["info"]))
    before = dict(meta["files"])
    meta["info"] = info
    meta["files"].update({f: sha256_hex(data) for f, data in files.items()})
    meta["migrated"] = [*meta.get("migrated", []), {"commit": commit, "what": WHAT, "files": before,
                                                     "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}]
    meta["checksum"] = meta_checksum(meta)
    tmp = folder.with_name(f".tmp-migrate-{rid}-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(folder, tmp)
    try:
        for f, data in files.items():
            (tmp / f).write_bytes(data)
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True))
        old = folder.with_name(f".old-migrate-{rid}-{os.getpid()}")
        os.rename(folder, old)  # the folder is swapped whole: run the migration while nothing else uses the store
        os.rename(tmp, folder)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if store.status(task) != "ok":  # what was written must be sound, or this function is wrong
        raise AssertionError(f"{run} migrated but not ok: {store.status(task)}")
    return True


#: What the second migration did, as its record says.
WORK_WHAT = "info: the training's counted work added (train_decisions, and checkpoint_train_decisions or train_updates)"


def _counted_work(meta: dict, store: Store) -> dict:
    """The counted work of a stored benchmark run's training, as :func:`~sweeper.experiments.leaderboard.
    benchmark_task` records it today: a table agent's by playing its training again (deterministic: the same games),
    a stored network's from its run's ``info``; ``{}`` for a player that is not trained here (the solver, random
    clicks, a best window agent) or a PPO policy (its work, ``steps``, is recorded already)."""
    from ..agents.kinds import make_agent
    from ..running.training import KernelCalls, play
    from .leaderboard import table_work, training_work
    info, params = meta["info"], meta["task"]["params"]
    if info.get("kind") == "table":
        train = params["train"]
        run = play(make_agent(params["agent"]), train["board"], train["games"], params["seed"], learn=True,
                   progress=False, calls=KernelCalls(train.get("chunk")))
        return table_work(run, sorted(train.get("checkpoints", ())))
    if info.get("kind") == "neural bandit":
        source = json.loads((store.root / info["source"] / "meta.json").read_text())
        return training_work(source["info"])
    return {}


def migrate_work(store: Store, commit: str, log=print) -> list[str]:
    """Add the training's counted work (:func:`_counted_work`) to the ``info`` of every stored benchmark run of
    ``store`` that lacks it, with a ``migrated`` record (:data:`WORK_WHAT`) naming ``commit``; the data files are
    not touched. Returns the runs migrated."""
    done = []
    root = store.root / "benchmark"
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")) \
            if root.is_dir() else []:
        meta = json.loads((folder / "meta.json").read_text())
        task = Task.make(meta["task"]["kind"], **meta["task"]["params"])
        if "train_decisions" in meta["info"] or store.status(task) != "ok":
            continue
        if "verified" in meta:
            raise ValueError(f"benchmark/{folder.name} carries a 'verified' record: recompute it instead")
        work = _counted_work(meta, store)
        if not work:
            continue
        meta["info"].update(work)
        meta["migrated"] = [*meta.get("migrated", []), {"commit": commit, "what": WORK_WHAT,
                                                         "files": dict(meta["files"]),
                                                         "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}]
        meta["checksum"] = meta_checksum(meta)
        tmp = folder / f".meta-{os.getpid()}.json"
        tmp.write_text(json.dumps(meta, indent=1, sort_keys=True))
        os.replace(tmp, folder / "meta.json")
        if store.status(task) != "ok":
            raise AssertionError(f"benchmark/{folder.name} migrated but not ok: {store.status(task)}")
        log(f"benchmark/{folder.name}: {', '.join(f'{k}={v}' for k, v in work.items() if not isinstance(v, list))}")
        done.append(f"benchmark/{folder.name}")
    return done


def _committed() -> str:
    """The commit of this checkout's ``HEAD``, refused unless ``sweeper/`` is committed (a migration record says
    which code did it)."""
    prov = provenance()
    if prov["sweeper_modified"] or len(prov["commit"]) != 40:
        raise ValueError("a migration record names the commit whose code migrated the runs: commit the changes "
                         "to sweeper/ first (it has uncommitted changes, or this is not a git checkout)")
    return prov["commit"]


def migrate_timings(store: Store, commit: str | None = None, log=print) -> list[str]:
    """Migrate every stored run of ``store`` that holds timing columns in its data files; returns them. ``commit``:
    the commit whose code migrates them (default: this checkout's ``HEAD``, refused unless ``sweeper/`` is
    committed: the record must say which code did it)."""
    commit = _committed() if commit is None else commit
    done = []
    for kind in sorted(p for p in store.root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        for folder in sorted(p for p in kind.iterdir() if p.is_dir() and not p.name.startswith(".")):
            run = f"{kind.name}/{folder.name}"
            if migrate_run(store, run, commit):
                log(f"{run}: migrated")
                done.append(run)
    return done


def main(argv=None) -> int:
    """``python -m sweeper.experiments.migrate [STORE]``: one line per migrated run; one line and exit 2 on error."""
    from .reproduce import store_for
    argv = sys.argv[1:] if argv is None else argv
    try:
        if len(argv) > 1:
            raise ValueError("usage: python -m sweeper.experiments.migrate [STORE]")
        store = Store(argv[0]) if argv else store_for(None, "paper")
        if not store.root.is_dir():
            raise ValueError(f"no store at {store.root}")
        commit = _committed()
        done = migrate_timings(store, commit) + migrate_work(store, commit)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{len(done)} runs migrated in {store.root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
