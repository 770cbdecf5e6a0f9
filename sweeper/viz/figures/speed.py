"""The speed chapter's timing of the whole reproduction: the committed paper-scale file that
``python -m sweeper time-reproduction`` writes (:mod:`sweeper.experiments.timing`), at every scale of the book
(the quick scale has no timing of its own to show)."""

from __future__ import annotations

import pandas as pd

from ...experiments import specs as ex
from ...experiments.timing import read_timing
from .paper import duration

PART_LABELS = {"paper": "the paper's experiments (seed 1)",
               "book": "the rest of the book (seed bands, experiments beyond the paper)"}


def reproduction_timing() -> dict:
    """The stored timing of the paper-scale reproduction (checked by :func:`~sweeper.experiments.timing.read_timing`)."""
    return read_timing(scale="paper")


def _part(record: dict, name: str) -> dict | None:
    return next((p for p in record["parts"] if p["name"] == name), None)


def timing_parts(record: dict | None = None) -> pd.DataFrame:
    """One row per part of the timed reproduction, and their sum when both were timed: tasks, wall time, CPU
    time (the command and its worker processes), the tasks' own seconds in this run, and the seconds the stored
    runs recorded for the same tasks."""
    record = reproduction_timing() if record is None else record
    parts = list(record["parts"])
    if len(parts) > 1:
        parts.append({"name": "all", **{k: sum(p[k] for p in record["parts"]) for k in
                                        ("tasks", "wall_seconds", "cpu_seconds", "task_seconds",
                                         "stored_task_seconds")}})
    label = {**PART_LABELS, "all": "everything the book reads (`--book` from nothing)"}
    return pd.DataFrame({"part": [label[p["name"]] for p in parts],
                         "tasks": [f"{p['tasks']:,}" for p in parts],
                         "wall time": [duration(p["wall_seconds"]) for p in parts],
                         "CPU time": [duration(p["cpu_seconds"]) for p in parts],
                         "tasks' own time": [duration(p["task_seconds"]) for p in parts],
                         "same tasks, as stored": [duration(p["stored_task_seconds"]) for p in parts]}
                        ).set_index("part")


def timing_sentence(record: dict | None = None) -> str:
    """When, where and with what the timing was measured, and the command that remakes it."""
    r = reproduction_timing() if record is None else record
    m, prov = r["machine"], r["provenance"]
    when = r["date"].replace("T", " at ").replace("Z", " UTC")
    return (f"Measured on {when} on a {m['cores']}-core machine ({m['cpu']}, {m['system']}), "
            f"{r['workers']} worker processes, from an empty scratch directory with the code of commit "
            f"`{prov['commit'][:7]}` (Python {prov['python']}, numba {prov['numba']}, NumPy {prov['numpy']}); "
            f"`python -m sweeper time-reproduction --workers {r['workers']}` measures it again and rewrites "
            f"`results/reproduction-timing.json`.")


def timing_verdict(record: dict | None = None) -> str:
    """The wall times in words, beside what the stored runs recorded for the same tasks."""
    r = reproduction_timing() if record is None else record
    paper, book = _part(r, "paper"), _part(r, "book")
    text = (f"The paper's part took **{duration(paper['wall_seconds'])}** on the wall clock "
            f"({paper['tasks']:,} tasks); the stored runs recorded {duration(paper['stored_task_seconds'])} "
            f"for the same tasks, {paper['stored_task_seconds'] / paper['task_seconds']:.1f} times the "
            f"{duration(paper['task_seconds'])} they took in this run.")
    if book is not None:
        total = paper["wall_seconds"] + book["wall_seconds"]
        text += (f" The rest of the book took {duration(book['wall_seconds'])} more ({book['tasks']:,} tasks), "
                 f"so **{duration(total)}** in all for `--book` from nothing.")
    return text


def costliest_experiments(record: dict | None = None, n: int = 5) -> pd.DataFrame:
    """The ``n`` experiments whose tasks took longest in the timed run, with their seconds as stored
    (experiments share tasks, so the rows do not add up to a part's time)."""
    r = reproduction_timing() if record is None else record
    known = {**ex.SPECS, **ex.EXTRA_SPECS}
    rows = sorted(r["experiments"], key=lambda e: -e["task_seconds"])[:n]
    return pd.DataFrame({"experiment": [e["experiment"] for e in rows],
                         "what": [known[e["experiment"]].title if e["experiment"] in known else "" for e in rows],
                         "seeds": [e["seeds"] for e in rows],
                         "tasks": [e["tasks"] for e in rows],
                         "this run": [duration(e["task_seconds"]) for e in rows],
                         "as stored": [duration(e["stored_task_seconds"]) for e in rows]}).set_index("experiment")


def comparison_sentence(record: dict | None = None) -> str:
    """Whether the timed run remade the stored comparison table of the paper's numbers."""
    c = (reproduction_timing() if record is None else record)["comparison"]
    wall = c["wall_time_rows_differing"]
    if c["unchanged"]:
        return (f"The comparison table that the timed run wrote equals the stored one row for row, except the "
                f"{wall} wall-time rows of the paper's timing sentence, which measure the machine.")
    return (f"The comparison table that the timed run wrote differs from the stored one in "
            f"{len(c['other_differences'])} rows besides the {wall} wall-time rows: "
            + "; ".join(", ".join(f"{k} {v}" for k, v in d.items()) for d in c["other_differences"][:5]) + ".")
