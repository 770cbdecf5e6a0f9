"""Run many independent experiment tasks, resumably, on local processes or Dask.

A :class:`Task` is a kind (a registered function) plus JSON-able parameters;
its id is a hash of both, so the same run is computed once and found again.
Finished tasks are stored under ``<root>/<kind>/<id>/``:

* ``*.parquet``  tidy tables returned by the task, without their timing columns
  (:func:`stored_form`: those are kept in ``info``, and :meth:`Store.load` puts them back),
* ``*.npz``      plain arrays (e.g. a trained agent; never pickle),
* ``meta.json``  the task, the behaviour version of the code that made it
  (:data:`sweeper.version.BEHAVIOUR_VERSION`), its outputs' SHA-256 checksums,
  the facts the summaries publish (``info``), provenance (commit, source
  fingerprint, package versions, wall time) and a SHA-256 ``checksum`` of all
  of the above, so an edited number is caught like an edited data file.

A stored result is used only if it is *ok*: its ``meta.json`` matches its
checksum and describes this task, every data file matches its checksum, and
it was made under the current behaviour version. Otherwise it is *corrupt* or
*stale*: the runner reports and recomputes it, :meth:`Store.load` refuses it
with a message saying why.

Each task directory is written under a temporary name (``.tmp-*``) and renamed
into place under a lock on the store, after checking that no other writer got
there first; a finished (ok) result is never removed, so two runners (or a Dask
run beside a local one) on one directory neither crash nor misread, and a
killed run loses at most the tasks in flight. Temporary directories left by
killed runs are removed when the next run starts. Results are written by the
calling process, so Dask workers need no shared file system; local worker
processes stop when the runner is interrupted, terminated or killed.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import json
import os
import secrets
import shutil
import signal
import socket
import threading
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..checks import workers as check_workers
from ..version import BEHAVIOUR_VERSION
from .provenance import (HistoryUnavailable, meta_checksum, provenance, provenance_problem, sha256_hex,  # noqa: F401
                         source_fingerprint, verified_checksum, verified_problem)  # (the runner's names since before)

#: Layout of a task directory; part of every task id (the behaviour version is not: a result of
#: another behaviour version keeps its id and directory, and is recomputed in place).
RESULT_FORMAT = 1
#: Temporary and set-aside directories older than this (seconds) are removed even if their writer's
#: process id looks alive (it may have been reused).
STALE_TMP_SECONDS = 3600
TASKS: dict = {}
#: Per task kind whose runs may stop on a CPU budget: ``replay(params, info, tables) -> extra params``, the
#: deterministic budgets, read from a stored run, that recompute it (``verify``; ``{}`` when none are needed).
REPLAYS: dict = {}
#: Per task kind: a function of no arguments returning a small task of the kind (``task_kind(..., small=...)``).
SMALL_TASKS: dict = {}
#: Per task kind: a function of a task's parameters returning the games it plays (``task_kind(..., games=...)``).
GAMES: dict = {}


#: The parameters every task has that are the runner's, not its kind's: what the progress bar calls the task and
#: its rough relative cost (the longest start first). Both are part of the task's id, but its kind's function is
#: called without them.
RUNNER_PARAMS = ("label", "cost")


@dataclass(frozen=True)
class _WithParams:
    """A kind's function of one frozen dataclass of its parameters, called as ``fn(**params)`` (picklable: the
    function and the class go by reference)."""

    fn: object
    params: type

    def __call__(self, **params):
        return self.fn(self.params(**params))


def task_kind(name: str, replay=None, params: type | None = None, small=None, games=None):
    """Register a function ``fn(**params) -> Output`` as the task kind ``name`` (and, for a kind whose runs can
    stop on a CPU budget, its ``replay``: see :data:`REPLAYS`). A kind of many parameters takes them as one frozen
    dataclass, ``params``, whose fields are the task's parameters with their defaults: it is then called as
    ``fn(params(**task_params))``. The kind is called without :data:`RUNNER_PARAMS`. ``small``, a function of no
    arguments, returns a small task of the kind (a few seconds of CPU: :data:`SMALL_TASKS`); ``games``, a function
    of a task's parameters, the games it plays (:func:`task_games`)."""
    def register(fn):
        TASKS[name] = fn if params is None else _WithParams(fn, params)
        if replay is not None:
            REPLAYS[name] = replay
        if small is not None:
            SMALL_TASKS[name] = small
        if games is not None:
            GAMES[name] = games
        return fn
    return register


def task_games(task: "Task") -> int | None:
    """The games a task plays, training, tests and checkpoints included, from its parameters, as its kind declares
    them (``task_kind(NAME, games=...)``); None for work counted otherwise (a network's budget of decisions, PPO's
    environment steps) and for a kind that declares none."""
    count = GAMES.get(task.kind)
    return None if count is None else count(task.params)


def small_task(kind: str) -> "Task":
    """The small task of ``kind`` that its :func:`task_kind` registration declares (``tests/test_verify.py`` stores
    one of every kind and verifies it byte for byte)."""
    if kind not in SMALL_TASKS:
        raise ValueError(f"task kind {kind!r} declares no small task (task_kind({kind!r}, small=...))")
    return SMALL_TASKS[kind]()


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


def kind_function(task: Task):
    """The function of a task's kind (registered by :func:`task_kind` where the kind is defined)."""
    if task.kind not in TASKS:
        raise ValueError(f"unknown task kind {task.kind!r}")
    return TASKS[task.kind]


def _timed(fn, params: dict) -> tuple[Output, float]:
    t0 = time.perf_counter()
    out = fn(**{k: v for k, v in params.items() if k not in RUNNER_PARAMS})
    return out, time.perf_counter() - t0


def execute(task: Task, extra: dict | None = None) -> tuple[Output, float]:
    """Run one task (in whatever process this is) and time it. A worker process is handed the kind's
    function itself (pickled by reference: the worker imports the module that defines it), so the runner
    needs no knowledge of where the kinds live. ``extra``: parameters added for this call only (a replay's
    budgets, :data:`REPLAYS`); the task, and its id, stay as they are."""
    return _timed(kind_function(task), {**task.params, **(extra or {})})


def timing_field(name: str) -> bool:
    """A fact of ``info`` or a column of a table that measures the machine's time (``seconds``, ``cpu_seconds``,
    ``games_per_second``, ``train_cpu_seconds`` ...): its name has ``second`` in it. No two runs share these:
    they are never compared (:mod:`~sweeper.experiments.verify`), and a table's are stored in ``info``, not in its
    data file (:func:`stored_form`). The facts of the machine that measured them (``machine``, as the benchmark's
    runs record it beside their CPU times) are never compared either."""
    return "second" in name or name == "machine"


#: The fact of ``info`` that holds the timing columns of a run's tables (:func:`stored_form`); a timing itself.
TABLE_SECONDS = "table_seconds"


def stored_form(out: Output) -> tuple[dict, dict]:
    """The data files (name -> bytes: tables as parquet, arrays as npz) and the facts (``info``) of a task's output,
    as the store writes them. The timing columns of its tables (:func:`timing_field`) are kept out of the data
    files, so that a run recomputed by the same code is byte-identical, not only equal in value: ``info`` holds them
    under :data:`TABLE_SECONDS`, as ``{table: {"columns": [every column, in order], "values": {column: [...]}}}``,
    from which :meth:`Store.load` puts them back."""
    info, timings = dict(out.info), {}
    if TABLE_SECONDS in info:
        raise ValueError(f"a task's info may not have the fact {TABLE_SECONDS!r}: the store keeps its tables' "
                         "timing columns under that name")
    tables = {}
    for name, frame in out.tables.items():
        timed = [c for c in frame.columns if timing_field(str(c))]
        if timed:
            timings[name] = {"columns": [str(c) for c in frame.columns],
                             "values": {str(c): frame[c].tolist() for c in timed}}
            frame = frame.drop(columns=timed)
        tables[name] = frame
    if timings:
        info[TABLE_SECONDS] = timings
    return output_files(Output(tables, out.arrays)), info


def restore_timings(tables: dict, info: dict) -> tuple[dict, dict]:
    """The inverse of :func:`stored_form` on read tables and facts: the timing columns put back into their tables,
    in their places, and :data:`TABLE_SECONDS` taken out of the facts. Runs stored before timings left the data
    files are returned as they are."""
    info = dict(info)
    timings = info.pop(TABLE_SECONDS, {})
    tables = dict(tables)
    for name, spec in timings.items():
        try:
            frame = tables[name].copy()
            for column, values in spec["values"].items():
                if len(values) != len(frame) or column in frame:
                    raise ValueError
                frame[column] = pd.Series(values, index=frame.index, dtype=None if values else "float64")
            tables[name] = frame[spec["columns"]]
        except (KeyError, TypeError, ValueError, AttributeError):
            raise ValueError(f"info[{TABLE_SECONDS!r}] does not fit the table {name!r} of this run") from None
    return tables, info


def output_files(out: Output) -> dict:
    """The data files of a task's output, name -> bytes, as they are stored (tables as parquet, arrays as npz;
    :func:`stored_form` takes the timing columns out first)."""
    files = {}
    for name, frame in out.tables.items():
        buf = io.BytesIO()
        frame.to_parquet(buf, index=False)
        files[f"{name}.parquet"] = buf.getvalue()
    for name, arrays in out.arrays.items():
        buf = io.BytesIO()
        np.savez_compressed(buf, **arrays)
        files[f"{name}.npz"] = buf.getvalue()
    return files


class Store:
    """Finished task results under one root directory.

    With ``exact_source=True`` a result also counts as stale unless the very same
    source code made it (:func:`source_fingerprint`): for caches such as the
    quick-scale reproduction of the tests, which must show what the current code
    computes."""

    LOCK = ".store.lock"

    def __init__(self, root, exact_source: bool = False):
        self.root = Path(root)
        self.exact_source = exact_source

    def path(self, task: Task) -> Path:
        return self.root / task.kind / task.id

    @contextlib.contextmanager
    def _lock(self):
        """An exclusive lock on the store (``flock`` on ``<root>/.store.lock``) where the OS has one."""
        try:
            import fcntl
        except ImportError:  # no flock: the rename-then-verify loop of save() still holds
            yield
            return
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / self.LOCK, "a") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)

    def _scratch(self, task: Task, what: str) -> Path:
        """A fresh sibling name of the task directory, naming the writing process and host."""
        tag = f".{what}-{task.id}-{os.getpid()}-{secrets.token_hex(4)}-{socket.gethostname()}"
        return self.path(task).with_name(tag)

    def save(self, task: Task, out: Output, seconds: float, prov: dict) -> Path:
        """Write a task's result. Safe for concurrent writers: the files are written under a
        temporary name, then, under the store's lock, renamed into place unless an ok result is
        already there (another writer's: it is kept and ours is dropped); a stale or corrupt one is
        set aside first and then removed."""
        final = self.path(task)
        for folder in (self.root, final.parent):
            if folder.exists() and not folder.is_dir():
                raise ValueError(f"{folder} is a file, not a folder of results: move it away, or store the results "
                                 "elsewhere (--results)")
        final.parent.mkdir(parents=True, exist_ok=True)
        tmp = self._scratch(task, "tmp")
        tmp.mkdir()
        try:
            files, info = stored_form(out)
            for fname, data in files.items():
                (tmp / fname).write_bytes(data)
            meta = {"task": {"kind": task.kind, "params": task.params, "id": task.id}, "format": RESULT_FORMAT,
                    "behaviour": BEHAVIOUR_VERSION, "files": {f: sha256_hex(d) for f, d in files.items()},
                    "info": info, "seconds": seconds, "provenance": prov,
                    "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
            meta["checksum"] = meta_checksum(meta)
            (tmp / "meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True))
            aside = []
            with self._lock():
                for _ in range(10):
                    if self.status(task) == "ok":  # another writer finished first
                        break
                    if final.exists():
                        old = self._scratch(task, "old")
                        with contextlib.suppress(FileNotFoundError):
                            os.rename(final, old)
                            aside.append(old)
                    try:
                        os.rename(tmp, final)
                        break
                    except OSError as exc:  # another writer's directory arrived in between
                        if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                            raise
                else:
                    raise OSError(f"could not store {task.label} in {final}: other writers keep replacing it")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        for old in aside:
            shutil.rmtree(old, ignore_errors=True)
        return final

    def clean(self, max_age: float = STALE_TMP_SECONDS) -> int:
        """Remove temporary (``.tmp-*``) and set-aside (``.old-*``) directories left by killed
        writers: those of processes of this host that no longer run, and any older than
        ``max_age`` seconds. Returns how many were removed."""
        removed = 0
        host = socket.gethostname()
        for d in list(self.root.glob("*/.tmp-*")) + list(self.root.glob("*/.old-*")):
            parts = d.name.split("-", 4)
            try:
                age = time.time() - d.stat().st_mtime
            except FileNotFoundError:
                continue
            dead = len(parts) == 5 and parts[4] == host and parts[2].isdigit() and not _alive(int(parts[2]))
            if dead or age > max_age:
                shutil.rmtree(d, ignore_errors=True)
                removed += 1
        return removed

    def status(self, task: Task) -> str:
        """``missing``, ``ok``, ``corrupt: <reason>`` or ``stale: <reason>``. Besides the checksums, the commits
        that ``meta.json`` names must be in this checkout's history with their source fingerprints
        (:func:`~sweeper.experiments.provenance.provenance_problem`); where that history cannot be read (no git
        checkout, a shallow clone: :func:`~sweeper.experiments.provenance.history_problem`) they are not checked
        here, and ``python -m sweeper verify`` says so."""
        d = self.path(task)
        if not d.exists():
            return "missing"
        try:
            meta = json.loads((d / "meta.json").read_text())
            if meta.get("format") != RESULT_FORMAT or meta["task"]["id"] != task.id:
                return "corrupt: meta.json does not describe this task"
            if "checksum" not in meta:
                return "stale: meta.json has no checksum (written by an older runner)"
            if meta["checksum"] != meta_checksum(meta):
                return "corrupt: meta.json does not match its checksum (edited after it was written?)"
            problem = verified_problem(meta)
            if problem is not None:
                return f"corrupt: {problem}"
            try:
                problem = provenance_problem(meta)
            except HistoryUnavailable:  # cannot be checked here (verify says so)
                problem = None
            if problem is not None:
                return f"corrupt: {problem}"
            if meta.get("behaviour") != BEHAVIOUR_VERSION:
                return (f"stale: made by behaviour version {meta.get('behaviour')}, "
                        f"this code computes version {BEHAVIOUR_VERSION}")
            for fname, sha in meta["files"].items():
                if not _data_file_name(fname):
                    return f"corrupt: meta.json names {fname!r}, not a data file of the task's folder"
                f = d / fname
                if not f.exists():
                    return f"corrupt: {fname} is missing"
                if sha256_hex(f.read_bytes()) != sha:
                    return f"corrupt: {fname} does not match its checksum"
            if self.exact_source and meta["provenance"].get("source") != source_fingerprint():
                return "stale: made by other source code"
        except RecursionError:
            return "corrupt: meta.json cannot be read (too deeply nested)"
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            return f"corrupt: {exc.__class__.__name__}: {exc}"
        return "ok"

    def meta(self, task: Task) -> dict:
        return json.loads((self.path(task) / "meta.json").read_text())

    def load(self, task: Task) -> Output:
        """The stored output of a finished task (``ValueError`` if missing, corrupt or stale), as the task returned
        it: its tables with their timing columns (:func:`restore_timings`)."""
        st = self.status(task)
        if st != "ok":
            raise ValueError(f"result of {task.label} ({task.id}) in {self.root} is {st}; "
                             "`python -m sweeper reproduce` recomputes it")
        d = self.path(task)
        meta = self.meta(task)
        if meta_checksum(meta) != meta["checksum"]:  # changed since status() looked
            raise ValueError(f"result of {task.label} ({task.id}) changed while it was read")
        out = Output()
        for fname in meta["files"]:
            name, ext = fname.rsplit(".", 1)
            if ext == "parquet":
                out.tables[name] = pd.read_parquet(d / fname)
            else:
                with np.load(d / fname, allow_pickle=False) as z:
                    out.arrays[name] = {k: z[k] for k in z.files}
        out.tables, out.info = restore_timings(out.tables, meta["info"])
        return out


def _data_file_name(name) -> bool:
    """A data file a task folder may hold: a plain name (no folder, no ``..``) ending in .parquet or .npz."""
    return (isinstance(name, str) and name == Path(name).name and not name.startswith(".")
            and name.rsplit(".", 1)[-1] in ("parquet", "npz") and "/" not in name and "\\" not in name)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists but not ours
        return True
    return True


def _watch_parent(parent: int, every: float = 1.0) -> None:
    """Worker initializer: exit as soon as the runner that started this worker is gone
    (e.g. ``kill -9``), instead of computing on for nobody."""
    def watch():
        while True:
            time.sleep(every)
            if os.getppid() != parent:
                os._exit(1)
    threading.Thread(target=watch, daemon=True, name="sweeper-watch-parent").start()


@contextlib.contextmanager
def _sigterm_raises():
    """SIGTERM raises SystemExit (as Ctrl-C raises KeyboardInterrupt), so the cleanup runs."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        raise SystemExit(128 + signum)
    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a process pool now: drop the queued tasks and terminate the running workers (a second Ctrl-C
    meanwhile is ignored: stopping takes a moment, and the first one already stops everything)."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # taken now: shutdown forgets it
    with _ctrl_c_ignored():
        pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            with contextlib.suppress(Exception):
                p.terminate()
        for p in procs:
            with contextlib.suppress(Exception):
                p.join(timeout=5)
                if p.is_alive():
                    p.kill()
        # the pool's own thread closes its queues once it sees the workers gone; joined here, so that a process that
        # ends at once (os._exit after Ctrl-C) never stops it between removing a queue's semaphore and telling the
        # resource tracker, which then printed warnings about a leaked semaphore it could not find
        if manager is not None and manager is not threading.current_thread():
            with contextlib.suppress(Exception):
                manager.join(timeout=5)


@contextlib.contextmanager
def _ctrl_c_ignored():
    """Ctrl-C ignored in this process for the duration (main thread only; elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def _ctrl_c_held():
    """Ctrl-C held back in this thread (SIGINT blocked, delivered when the block ends). Processes started
    meanwhile inherit the block for good: Ctrl-C in a terminal reaches every process of its group, and worker
    processes born this way leave it to the process that started them, which stops them."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    from multiprocessing import resource_tracker
    resource_tracker.ensure_running()  # started now, since starting it unblocks SIGINT (it is born blocking it)
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def in_processes(calls, workers: int, finished) -> None:
    """Run ``calls`` (``(function, args)`` pairs) on ``workers`` local worker processes (spawned, so that they
    share nothing with this one) and call ``finished(i, result)`` here as call ``i`` returns, in the order they
    return. The workers ignore Ctrl-C and exit when this process is gone; on Ctrl-C, SIGTERM or any error here or
    in a call, the queued calls are dropped and the workers terminated at once before the exception goes on."""
    import multiprocessing as mp
    calls = list(calls)
    pool = None
    with _sigterm_raises():
        try:
            with _ctrl_c_held():  # a Ctrl-C meanwhile is raised as the block ends, with the pool there to stop
                pool = ProcessPoolExecutor(max_workers=max(1, min(workers, len(calls))),
                                           mp_context=mp.get_context("spawn"), initializer=_watch_parent,
                                           initargs=(os.getpid(),))
                futures = {pool.submit(fn, *args): i for i, (fn, args) in enumerate(calls)}
            for fut in as_completed(futures):
                finished(futures[fut], fut.result())
        except BaseException:
            if pool is not None:
                _stop_pool(pool)
            raise
        pool.shutdown(wait=True)


def run_tasks(tasks, store: Store, workers: int = 1, dask: str | None = None, progress: bool = True,
              log=print) -> dict:
    """Compute every task whose result is missing or corrupt; return counts.

    ``workers`` local processes (1: in this process), or a Dask scheduler
    address (``tcp://host:8786``, or a ``distributed.Client``) with ``dask``. ``workers`` above
    :func:`sweeper.checks.max_workers` is refused; no more processes start than there are tasks to compute."""
    workers = check_workers(workers)
    unique = list(dict.fromkeys(tasks))
    if store.root.exists():
        store.clean()
    todo = []
    for t in unique:
        st = store.status(t)
        if st not in ("ok", "missing"):
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
                if store.status(t) == "ok":  # another runner on this store finished it meanwhile
                    counts["cached"] += 1
                    if bar is not None:
                        bar.update(1)
                    continue
                finished(t, *execute(t))
        else:
            in_processes([(_timed, (kind_function(t), t.params)) for t in todo], workers,
                         lambda i, result: finished(todo[i], *result))
    finally:
        if bar is not None:
            bar.close()
    return counts


def _run_dask(todo, address, finished):
    from distributed import Client, as_completed as dask_completed
    if isinstance(address, Client):
        client = address
    else:
        try:
            client = Client(address, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise ValueError(f"no Dask scheduler answers at {address} ({exc}); start one (`dask scheduler`) or "
                             "run without --dask") from None
    try:
        futures = {client.submit(_timed, kind_function(t), t.params, pure=False, key=f"sweeper-{t.id}"): t
                   for t in todo}
        for fut in dask_completed(list(futures)):
            finished(futures[fut], *fut.result())
    finally:
        if client is not address:
            client.close()
