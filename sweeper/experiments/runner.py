"""Run many independent experiment tasks, resumably, on local processes or Dask.

A :class:`Task` is a kind (a registered function) plus JSON-able parameters;
its id is a hash of both, so the same run is computed once and found again.
Finished tasks are stored under ``<root>/<kind>/<id>/``:

* ``*.parquet``  tidy tables returned by the task,
* ``*.npz``      plain arrays (e.g. a trained agent; never pickle),
* ``meta.json``  the task, its outputs' SHA-256 checksums and provenance
  (commit, seed, package versions, episodes, wall time).

Each task directory is written under a temporary name and renamed into place
when complete, so a killed run loses at most the tasks in flight. A directory
whose files are missing or whose checksums do not match is reported and
recomputed, never used. Results are written by the calling process, so Dask
workers need no shared file system.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

RESULT_FORMAT = 1
TASKS: dict = {}


def task_kind(name: str):
    """Register a function ``fn(**params) -> Output`` as the task kind ``name``."""
    def register(fn):
        TASKS[name] = fn
        return fn
    return register


@dataclass(frozen=True)
class Task:
    kind: str
    params_json: str  # canonical JSON of the parameters

    @classmethod
    def make(cls, kind: str, **params) -> "Task":
        return cls(kind, json.dumps(params, sort_keys=True, separators=(",", ":")))

    @property
    def params(self) -> dict:
        return json.loads(self.params_json)

    @property
    def id(self) -> str:
        text = json.dumps({"kind": self.kind, "params": self.params, "format": RESULT_FORMAT}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @property
    def label(self) -> str:
        p = self.params
        return p.get("label") or f"{self.kind} {self.id}"

    def cost(self) -> float:
        """A rough relative cost, to start the longest tasks first."""
        return float(self.params.get("cost", 1.0))


@dataclass
class Output:
    """What a task returns: tidy tables, plain arrays, small JSON-able facts."""

    tables: dict = field(default_factory=dict)   # name -> DataFrame
    arrays: dict = field(default_factory=dict)   # name -> {array name -> ndarray}
    info: dict = field(default_factory=dict)


def execute(task: Task) -> tuple[Output, float]:
    """Run one task (in whatever process this is) and time it."""
    import sweeper.experiments  # noqa: F401  (registers the task kinds in a fresh worker)
    if task.kind not in TASKS:
        raise ValueError(f"unknown task kind {task.kind!r}")
    t0 = time.perf_counter()
    out = TASKS[task.kind](**task.params)
    return out, time.perf_counter() - t0


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def provenance() -> dict:
    """Commit, package versions and machine facts recorded with every result."""
    root = Path(__file__).resolve().parents[2]
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True,
                                timeout=10).stdout.strip() or "unknown"
        dirty = bool(subprocess.run(["git", "status", "--porcelain", "--", "sweeper"], cwd=root,
                                    capture_output=True, text=True, timeout=10).stdout.strip())
    except (OSError, subprocess.SubprocessError):
        commit, dirty = "unknown", False
    import numba
    import sweeper
    return {"commit": commit, "sweeper_modified": dirty, "sweeper": sweeper.__version__, "python": sys.version.split()[0],
            "numpy": np.__version__, "numba": numba.__version__, "pandas": pd.__version__,
            "machine": platform.machine(), "cpus": os.cpu_count()}


class Store:
    """Finished task results under one root directory."""

    def __init__(self, root):
        self.root = Path(root)

    def path(self, task: Task) -> Path:
        return self.root / task.kind / task.id

    def save(self, task: Task, out: Output, seconds: float, prov: dict) -> Path:
        final = self.path(task)
        tmp = final.with_name(f".tmp-{task.id}-{os.getpid()}")
        if tmp.exists():
            shutil.rmtree(tmp)
        tmp.mkdir(parents=True)
        files = {}
        for name, frame in out.tables.items():
            buf = io.BytesIO()
            frame.to_parquet(buf, index=False)
            files[f"{name}.parquet"] = buf.getvalue()
        for name, arrays in out.arrays.items():
            buf = io.BytesIO()
            np.savez_compressed(buf, **arrays)
            files[f"{name}.npz"] = buf.getvalue()
        for fname, data in files.items():
            (tmp / fname).write_bytes(data)
        meta = {"task": {"kind": task.kind, "params": task.params, "id": task.id}, "format": RESULT_FORMAT,
                "files": {f: _sha(d) for f, d in files.items()}, "info": out.info, "seconds": seconds,
                "provenance": prov, "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True))
        if final.exists():
            shutil.rmtree(final)
        os.replace(tmp, final)
        return final

    def status(self, task: Task) -> str:
        """``missing``, ``ok`` or ``corrupt: <reason>``."""
        d = self.path(task)
        if not d.exists():
            return "missing"
        try:
            meta = json.loads((d / "meta.json").read_text())
            if meta.get("format") != RESULT_FORMAT or meta["task"]["id"] != task.id:
                return "corrupt: meta.json does not describe this task"
            for fname, sha in meta["files"].items():
                f = d / fname
                if not f.exists():
                    return f"corrupt: {fname} is missing"
                if _sha(f.read_bytes()) != sha:
                    return f"corrupt: {fname} does not match its checksum"
        except (OSError, ValueError, KeyError, TypeError) as exc:
            return f"corrupt: {exc.__class__.__name__}: {exc}"
        return "ok"

    def meta(self, task: Task) -> dict:
        return json.loads((self.path(task) / "meta.json").read_text())

    def load(self, task: Task) -> Output:
        """The stored output of a finished task (``ValueError`` if missing or corrupt)."""
        st = self.status(task)
        if st != "ok":
            raise ValueError(f"result of {task.label} ({task.id}) is {st}")
        d = self.path(task)
        meta = self.meta(task)
        out = Output(info=meta["info"])
        for fname in meta["files"]:
            name, ext = fname.rsplit(".", 1)
            if ext == "parquet":
                out.tables[name] = pd.read_parquet(d / fname)
            else:
                with np.load(d / fname, allow_pickle=False) as z:
                    out.arrays[name] = {k: z[k] for k in z.files}
        return out


def run_tasks(tasks, store: Store, workers: int = 1, dask: str | None = None, progress: bool = True,
              log=print) -> dict:
    """Compute every task whose result is missing or corrupt; return counts.

    ``workers`` local processes (1: in this process), or a Dask scheduler
    address (``tcp://host:8786``, or a ``distributed.Client``) with ``dask``."""
    unique = list(dict.fromkeys(tasks))
    todo = []
    for t in unique:
        st = store.status(t)
        if st.startswith("corrupt"):
            log(f"recomputing {t.label}: stored result is {st}")
        if st != "ok":
            todo.append(t)
    todo.sort(key=lambda t: -t.cost())
    counts = {"tasks": len(unique), "cached": len(unique) - len(todo), "computed": 0}
    if not todo:
        return counts
    prov = provenance()
    bar = None
    if progress:
        from tqdm.auto import tqdm
        bar = tqdm(total=len(todo), desc="tasks", unit="task")

    def finished(task, out, seconds):
        store.save(task, out, seconds, prov)
        counts["computed"] += 1
        if bar is not None:
            bar.set_postfix_str(f"{task.label} {seconds:.0f}s")
            bar.update(1)

    try:
        if dask is not None:
            _run_dask(todo, dask, finished)
        elif workers <= 1:
            for t in todo:
                finished(t, *execute(t))
        else:
            import multiprocessing as mp
            with ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn")) as pool:
                futures = {pool.submit(execute, t): t for t in todo}
                for fut in as_completed(futures):
                    finished(futures[fut], *fut.result())
    finally:
        if bar is not None:
            bar.close()
    return counts


def _run_dask(todo, address, finished):
    from distributed import Client, as_completed as dask_completed
    client = address if isinstance(address, Client) else Client(address)
    try:
        futures = {client.submit(execute, t, pure=False, key=f"sweeper-{t.id}"): t for t in todo}
        for fut in dask_completed(list(futures)):
            finished(futures[fut], *fut.result())
    finally:
        if client is not address:
            client.close()
