"""The whole reproduction, timed end to end: ``python -m sweeper time-reproduction``.

The command runs the reproduction from nothing into an empty scratch directory,
as a reader with a bare clone would, and writes what it measured to a plain JSON
file (by default ``results/reproduction-timing.json``; the speed chapter reads
that file and never times anything itself). Two parts, one after the other, in
the same scratch directory:

``paper``
    ``python -m sweeper reproduce --scale paper --workers N``: every experiment
    of the paper, seed 1.
``book``
    ``python -m sweeper reproduce --book --workers N`` run next in the same
    directory: the seed bands and the experiments beyond the paper (the paper's
    tasks are found done). The two wall times add up to ``--book`` from nothing.

For each part the file records the wall time, the CPU time of this process and
its worker processes, the tasks' own seconds (each task's ``meta.json``), and
the seconds the repository's stored runs recorded for the same tasks; then the
seconds of each experiment's tasks (an experiment's share; experiments share
tasks, so the shares do not add up), and whether the comparison table written
into the scratch directory equals the stored one. Only the wall-time rows of
the paper's timing sentence may differ (they are measurements of this
machine); any other difference is listed in the file.

Numba's compiled kernels are cached beside the package (``__pycache__``), so a
first run on a fresh clone also times the compilation.
"""

from __future__ import annotations

import resource
import shutil
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

from ..checks import boolean, output_file
from ..checks import workers as check_workers
from . import specs as ex
from .measurements import machine, read_record, write_record_or_rescue
from .reproduce import book_reproduction, default_results, reproduce, store_for, table_path
from .runner import provenance

#: The format of the timing file.
FORMAT = 1
#: The comparison rows whose measured value is a wall time of this machine (never compared across runs).
WALL_TIME_EXPERIMENT = "timing"


def default_path(scale: str = "paper") -> Path:
    """Where the timing of ``scale`` is kept: beside the stored results of that scale."""
    return default_results(scale) / "reproduction-timing.json"


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _seconds(store, tasks) -> tuple[float, int]:
    """The recorded seconds of the tasks ``store`` holds, and how many it holds."""
    total, found = 0.0, 0
    for t in tasks:
        if store.status(t) == "ok":
            total += float(store.meta(t)["seconds"])
            found += 1
    return total, found


def _comparison_differences(scratch: Path, stored: Path, scale: str) -> tuple[int, list[dict]]:
    """Rows of the scratch comparison table that differ from the stored one, the wall-time rows apart:
    (how many wall-time rows differ, the other differences)."""
    new = pd.read_csv(table_path("comparison", scratch, scale), dtype=str, keep_default_na=False)
    old = pd.read_csv(table_path("comparison", stored, scale), dtype=str, keep_default_na=False)
    if list(new.columns) != list(old.columns) or len(new) != len(old):
        return 0, [{"table": f"{len(old)} stored rows, {len(new)} new rows; columns "
                             f"{'equal' if list(new.columns) == list(old.columns) else 'differ'}"}]
    wall, other = 0, []
    for i in range(len(new)):
        a, b = old.iloc[i], new.iloc[i]
        if a.equals(b):
            continue
        if a["experiment"] == WALL_TIME_EXPERIMENT == b["experiment"]:
            changed = [c for c in new.columns if a[c] != b[c]]
            if set(changed) <= {"ours", "difference"}:
                wall += 1
                continue
        other.append({c: f"{a[c]} -> {b[c]}" if a[c] != b[c] else a[c] for c in new.columns
                      if a[c] != b[c] or c in ("experiment", "agent", "metric", "eval_setting")})
    return wall, other


def time_reproduction(scale: str = "paper", workers: int = 2, scratch=None, book: bool = True,
                      out=None, log=print) -> dict:
    """Run the reproduction of ``scale`` from nothing into ``scratch`` (an empty or new directory; by
    default a temporary one, removed afterwards) on ``workers`` local processes, the paper's part and
    then (``book``) the rest of what the book reads; write the measurements as JSON to ``out`` (default
    :func:`default_path`) and return them."""

    boolean(book, "book")
    if scale not in ex.SCALES:
        raise ValueError(f"scale must be one of {sorted(ex.SCALES)}, got {scale!r}")
    workers = check_workers(workers)
    stored = default_results(scale)
    if not table_path("comparison", stored, scale).is_file():
        raise ValueError(f"there is no stored comparison table in {stored} to compare the timed run with: "
                         f"`python -m sweeper reproduce --scale {scale}` writes it")
    out = output_file(default_path(scale) if out is None else out, f"the timing file {out or default_path(scale)}")
    temporary = scratch is None
    scratch = Path(tempfile.mkdtemp(prefix="sweeper-timing-")) if temporary else Path(scratch)
    if scratch.exists() and (not scratch.is_dir() or any(scratch.iterdir())):
        raise ValueError(f"{scratch} is not an empty directory: the reproduction is timed from nothing")
    if scratch.resolve() == stored.resolve():
        raise ValueError("the scratch directory must not be the stored results")
    exact = scale != "paper"
    stored_store = store_for(stored, scale)
    record = {"format": FORMAT, "scale": scale, "workers": workers,
              "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
              "machine": machine(),
              "provenance": provenance(), "parts": []}
    quiet = lambda *_: None  # noqa: E731
    parts = [("paper", f"python -m sweeper reproduce --scale {scale} --workers {workers}")]
    if book:
        parts.append(("book", f"python -m sweeper reproduce --book --scale {scale} --workers {workers}"))
    try:
        scratch.mkdir(parents=True, exist_ok=True)
        scratch_store = store_for(scratch, scale, exact_source=exact)
        seen = set()
        for name, command in parts:
            log(f"timing {name}: {command} (into {scratch}) ...")
            cpu0, t0 = _cpu_seconds(), time.perf_counter()
            if name == "paper":
                counts = [reproduce(None, scale, (1,), workers=workers, results=scratch, progress=False, log=quiet,
                                    exact_source=exact)]
            else:
                counts = book_reproduction(scale, workers=workers, results=scratch, progress=False, log=quiet)
            wall, cpu = time.perf_counter() - t0, _cpu_seconds() - cpu0
            tasks = [t for t in _book_tasks(scale, name == "book") if t.id not in seen]
            seen.update(t.id for t in tasks)
            own, _ = _seconds(scratch_store, tasks)
            before, found = _seconds(stored_store, tasks)
            record["parts"].append({"name": name, "command": command, "wall_seconds": round(wall, 1),
                                    "cpu_seconds": round(cpu, 1), "tasks": len(tasks),
                                    "computed": sum(c["computed"] for c in counts),
                                    "task_seconds": round(own, 1), "stored_task_seconds": round(before, 1),
                                    "stored_tasks": found})
            log(f"  {name}: {wall:,.1f} s wall, {cpu:,.1f} s CPU, {len(tasks)} tasks")
        record["experiments"] = _experiment_seconds(scale, book, scratch_store, stored_store)
        wall_rows, other = _comparison_differences(scratch, stored, scale)
        record["comparison"] = {"unchanged": not other, "wall_time_rows_differing": wall_rows,
                                "other_differences": other}
    finally:
        if temporary:
            shutil.rmtree(scratch, ignore_errors=True)
    write_record_or_rescue(out, record, "timing")
    log(f"written to {out}")
    return record


def _book_tasks(scale: str, rest: bool) -> list:
    """The paper's tasks (seed 1), or with ``rest`` everything the book reads beyond them."""
    if not rest:
        return ex.all_tasks(None, scale, (1,))
    return (ex.all_tasks(None, scale, (1,)) + ex.all_tasks(list(ex.BAND_SPECS), scale, ex.BAND_SEEDS[scale])
            + ex.all_tasks(list(ex.BOOK_EXTRAS), scale, (1,)))


def _experiment_seconds(scale: str, book: bool, scratch_store, stored_store) -> list[dict]:
    """Each experiment's tasks' seconds in the timed run and as stored, costliest first."""
    runs = [(sid, (1,)) for sid in ex.SPECS]
    if book:
        band = {sid: ex.BAND_SEEDS[scale] for sid in ex.BAND_SPECS}
        runs = [(sid, band.get(sid, (1,))) for sid in ex.SPECS] + [
            (sid, band.get(sid, (1,))) for sid in dict.fromkeys(ex.BAND_SPECS + ex.BOOK_EXTRAS) if sid not in ex.SPECS]
    rows = []
    for sid, seeds in runs:
        tasks = ex.all_tasks([sid], scale, seeds)
        own, _ = _seconds(scratch_store, tasks)
        before, _ = _seconds(stored_store, tasks)
        rows.append({"experiment": sid, "seeds": len(seeds), "tasks": len(tasks), "task_seconds": round(own, 1),
                     "stored_task_seconds": round(before, 1)})
    return sorted(rows, key=lambda r: -r["task_seconds"])


def read_timing(path=None, scale: str = "paper") -> dict:
    """The timing file written by :func:`time_reproduction` (checked: format and fields)."""
    path = default_path(scale) if path is None else Path(path)
    need = {"format", "scale", "workers", "date", "machine", "provenance", "parts", "experiments", "comparison"}
    return read_record(path, FORMAT, need, "a timing file",
                       f"`python -m sweeper time-reproduction --scale {scale}` writes it")
