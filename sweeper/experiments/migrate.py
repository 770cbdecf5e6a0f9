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

``python -m sweeper.experiments.migrate [STORE]`` migrates every run of ``STORE`` (default: the paper-scale store,
``results/runs/paper``) and says which; runs already in the new layout are left alone.
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


def migrate_timings(store: Store, commit: str | None = None, log=print) -> list[str]:
    """Migrate every stored run of ``store`` that holds timing columns in its data files; returns them. ``commit``:
    the commit whose code migrates them (default: this checkout's ``HEAD``, refused unless ``sweeper/`` is
    committed: the record must say which code did it)."""
    if commit is None:
        prov = provenance()
        if prov["sweeper_modified"] or len(prov["commit"]) != 40:
            raise ValueError("a migration record names the commit whose code migrated the runs: commit the changes "
                             "to sweeper/ first (it has uncommitted changes, or this is not a git checkout)")
        commit = prov["commit"]
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
        done = migrate_timings(store)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{len(done)} runs migrated in {store.root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
