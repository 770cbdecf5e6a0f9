"""Re-verify stored runs: recompute them with the current code and compare (``python -m sweeper verify``).

A stored run (``<results>/runs/<scale>/<kind>/<id>/``) records the data files it wrote and their checksums. To
verify it, its task is computed again in this process, its output serialised as the store writes it
(:func:`sweeper.experiments.runner.stored_form`: the tables' timing columns go to ``info``, not to the data
files), and compared with what is stored:

``identical``
    every data file byte for byte, and the facts of ``info`` equal (:func:`same_fact`: NaN equals NaN), except the
    times measured on the way (:func:`~sweeper.experiments.runner.timing_field`);
``same values``
    the bytes differ but every table and array holds the same values, and ``info`` agrees as above;
``differs``
    anything else, named: which files (their columns or arrays, and by how much: :func:`value_differences`) or
    fields of ``info``;
``unvouched``
    identical or the same values, but its ``meta.json`` names no commit that made it (no provenance, or a commit
    ``"unknown"``, null or absent) and holds no ``verified`` record: nothing vouches for which code made it;
``cannot verify: ...``
    the task needs the optional extra ``deep``, which is not installed here; or it raised, or returned what the store
    cannot write; or the commits its ``meta.json`` names cannot be checked here (no git history). The batch goes on.

:func:`summary` counts the verdicts per task kind. A run stored as corrupt or stale
(:meth:`~sweeper.experiments.runner.Store.status`) is reported as such and not recomputed; one that differs is
reported with the machine it was made on where that differs from this one (:func:`sweeper.machine.machine`: torch's
kernels depend on the CPU's instruction set). With ``record=True`` an identical run made from uncommitted code gets a
``verified`` record (:func:`verify`); an unvouched run is refused before any work.
"""

from __future__ import annotations

import io
import json
import random
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .provenance import HistoryUnavailable, meta_checksum, provenance, provenance_problem, sha256_hex, \
    source_fingerprint, verified_checksum
from .runner import REPLAYS, TASKS, Store, Task, execute, stored_form, timing_field
from .specs import register_kinds
from ..agents.neural import ExtraMissing
from ..machine import machine

COMMAND = "python -m sweeper verify --record"


@dataclass
class Verdict:
    """The outcome of verifying one stored run: ``status`` is ``identical``, ``same values``, ``unvouched``,
    ``differs``, ``corrupt: ...``, ``stale: ...`` or ``cannot verify: ...``; ``detail`` says what differs."""

    run: str
    status: str
    detail: str = ""
    seconds: float = 0.0
    recorded: bool = False

    def line(self) -> str:
        extra = f": {self.detail}" if self.detail else ""
        note = " (verified record written)" if self.recorded else ""
        return f"{self.run}: {self.status}{extra} [{self.seconds:.1f} s]{note}"


def stored_runs(store: Store) -> list[str]:
    """Every stored run of ``store`` as ``kind/id``, sorted (folders only; temporary ones left out)."""
    if not store.root.is_dir():
        return []
    return sorted(f"{k.name}/{d.name}" for k in store.root.iterdir() if k.is_dir() and not k.name.startswith(".")
                  for d in k.iterdir() if d.is_dir() and not d.name.startswith("."))


def select(store: Store, ids=(), sample: int | None = None, seed: int | None = None, kinds=(), exclude=(),
           every: bool = False) -> list[str]:
    """The runs to verify: ``ids`` (``kind/id`` or a bare id), or, among the stored runs, every one (``every``,
    ``--all``), those of ``kinds`` (``--kind``), none of ``exclude`` (``--exclude``), of which ``sample`` drawn at
    random (seeded by ``seed``, default 0) when it is given. Something must be chosen (a whole paper-scale store
    takes hours), and an option that would have no effect in the combination is refused (``ValueError``): ids
    with any of the others, ``every`` with ``kinds``, ``seed`` without ``sample``."""
    if ids and (sample is not None or kinds):
        raise ValueError("give run ids, or --sample/--kind to choose among the stored runs, not both")
    if ids and exclude:
        raise ValueError("--exclude chooses among the stored runs: it has no effect with run ids (leave those runs "
                         "out of the ids)")
    if every and (ids or kinds):
        raise ValueError(f"--all verifies every stored run: give {'run ids' if ids else '--kind'} or --all, not both")
    if seed is not None and sample is None:
        raise ValueError("--seed draws --sample: it has no effect without --sample")
    if not (ids or every or kinds or exclude or sample is not None):
        raise ValueError("say which runs to verify: run ids (KIND/ID or ID), --kind KIND, --sample N or --all "
                         "(every stored run: hours at paper scale)")
    runs = stored_runs(store)
    if ids:
        chosen = []
        for rid in ids:
            hits = [r for r in runs if r == rid or r.split("/")[1] == rid]
            if not hits:
                raise ValueError(f"no stored run {rid!r} in {store.root}")
            chosen.extend(hits)
        return list(dict.fromkeys(chosen))
    known = {r.split("/")[0] for r in runs}
    for k in (*kinds, *exclude):
        if k not in known:
            raise ValueError(f"no stored runs of kind {k!r} in {store.root}; kinds: {sorted(known)}")
    runs = [r for r in runs if (not kinds or r.split("/")[0] in kinds) and r.split("/")[0] not in exclude]
    if sample is not None:
        if isinstance(sample, bool) or not isinstance(sample, int) or sample < 1:
            raise ValueError(f"--sample must be a whole number >= 1, got {sample!r}")
        runs = sorted(random.Random(0 if seed is None else seed).sample(runs, min(sample, len(runs))))
    return runs


def _difference(name: str, a: np.ndarray, b: np.ndarray) -> str:
    """A column or array ``name`` that differs, stored ``a`` and computed ``b``, said with how: another shape or
    dtype, or the largest difference where they hold numbers (NaN on both sides is no difference)."""
    if a.shape != b.shape:
        return f"{name}: shape {a.shape} stored, {b.shape} computed"
    if a.dtype.kind in "USO" and b.dtype.kind in "USO":  # text (of any length): other text
        return name
    if a.dtype != b.dtype:
        return f"{name}: {a.dtype} stored, {b.dtype} computed"
    if a.dtype.kind in "biuf" and a.size:
        x, y = a.astype(np.float64), b.astype(np.float64)
        with np.errstate(invalid="ignore"):  # inf - inf
            gap = np.where((x == y) | (np.isnan(x) & np.isnan(y)), 0.0, np.abs(x - y))
        return f"{name}: up to {np.max(gap):.3g}" if not np.isnan(gap).any() else f"{name}: NaN on one side"
    return name


def value_differences(name: str, stored: bytes, ours: bytes) -> list[str]:
    """What differs between two versions of a data file ``name``, value for value (empty: the same values; another
    pandas or pyarrow may write them in other bytes): the columns of a table or the arrays of an ``.npz`` that
    differ, with the largest difference where they hold numbers (``net: up to 1.08e-08``), or that only one side
    has. Timing columns of tables are left out (a run stored before they left the data files holds them, see
    :mod:`~sweeper.experiments.migrate`); NaN equals NaN."""
    if name.endswith(".parquet"):
        a, b = pd.read_parquet(io.BytesIO(stored)), pd.read_parquet(io.BytesIO(ours))
        ca, cb = ([str(c) for c in f.columns if not timing_field(str(c))] for f in (a, b))
        if ca != cb:
            return [f"columns {ca} stored, {cb} computed"]
        if len(a) != len(b):
            return [f"{len(a)} rows stored, {len(b)} computed"]
        pairs = [(c, a[c].to_numpy(), b[c].to_numpy()) for c in ca if not a[c].equals(b[c])]
    else:
        with np.load(io.BytesIO(stored), allow_pickle=False) as za, \
                np.load(io.BytesIO(ours), allow_pickle=False) as zb:
            if set(za.files) != set(zb.files):
                return [f"arrays {sorted(za.files)} stored, {sorted(zb.files)} computed"]
            pairs = [(k, za[k], zb[k]) for k in za.files if not (
                za[k].dtype == zb[k].dtype and np.array_equal(za[k], zb[k], equal_nan=za[k].dtype.kind in "fc"))]
    return [_difference(k, x, y) for k, x, y in pairs]


def same_fact(a, b) -> bool:
    """Whether two facts of ``info`` (JSON values) are equal: as ``==`` (so ``1 == 1.0``), in lists and objects
    too, except that NaN equals NaN (a mean over nothing, such as a bandit run's ``mean_count_nonperfect`` when
    every action is perfect: with ``NaN != NaN`` such a run would differ from itself)."""
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_fact(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_fact(x, y) for x, y in zip(a, b))
    return a == b


def _info_differences(stored: dict, ours: dict) -> list[str]:
    """The facts of ``info`` that are not the same (absent on one side, or :func:`same_fact` false), timings
    left out."""
    keys = sorted(set(stored) | set(ours), key=str)
    return [k for k in keys if not timing_field(str(k))
            and not (k in stored and k in ours and same_fact(stored[k], ours[k]))]


def unvouched(meta: dict) -> str | None:
    """None if ``meta.json`` names the commit whose code made the run (its provenance's ``commit``: 40 hex digits,
    which :func:`~sweeper.experiments.provenance.provenance_problem` checks against the history) or carries a
    ``verified`` record (the commit that reproduced it); else why nothing vouches for which code made it."""
    prov = meta.get("provenance")
    if isinstance(meta.get("verified"), dict):
        return None
    if not isinstance(prov, dict):
        return "its meta.json has no provenance" if prov is None else "its meta.json's provenance is not an object"
    commit = prov.get("commit")
    if isinstance(commit, str) and len(commit) == 40 and all(c in "0123456789abcdef" for c in commit):
        return None
    said = "absent" if "commit" not in prov else "null" if commit is None else repr(commit)
    return f"its meta.json names no commit that made it (commit {said})"


def _machine_note(meta: dict) -> list[str]:
    """Where the machine a run was made on differs from this one in what decides torch's kernels (its instruction
    sets, torch's pin), a line that says so; runs stored before machines were recorded say nothing."""
    prov = meta.get("provenance")
    theirs = prov.get("machine") if isinstance(prov, dict) else None
    if not isinstance(theirs, dict):
        return []
    ours = machine()
    keys = ("isa", "cpu_pin")
    if all(theirs.get(k) == ours.get(k) for k in keys):
        return []
    say = lambda m: f"{m.get('cpu')}, instruction sets {m.get('isa')}, torch pin {m.get('cpu_pin')}"  # noqa: E731
    return [f"made on {say(theirs)}; this machine: {say(ours)}"]


def known_kinds() -> set:
    """The task kinds this process can recompute: every kind of the experiments (:func:`specs.register_kinds`),
    and any other registered here (a test's)."""
    register_kinds()
    return set(TASKS)


def verify_run(store: Store, run: str, record: bool = False) -> Verdict:
    """Recompute one stored run (``kind/id``) and compare it (see the module's text)."""
    kind, rid = run.split("/")
    folder = store.root / kind / rid
    try:
        meta = json.loads((folder / "meta.json").read_text())
        task = Task.make(meta["task"]["kind"], **meta["task"]["params"])
    except RecursionError:
        return Verdict(run, "corrupt: meta.json cannot be read (too deeply nested)")
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        return Verdict(run, f"corrupt: meta.json cannot be read ({type(exc).__name__}: {exc})")
    if task.id != rid or task.kind != kind:
        return Verdict(run, "corrupt: meta.json describes another task")
    status = store.status(task)
    if status != "ok":
        return Verdict(run, status)
    try:
        provenance_problem(meta)  # sound if the store found it ok, unless the history cannot tell
    except HistoryUnavailable as exc:
        return Verdict(run, f"cannot verify: the commits its meta.json names cannot be checked: {exc}")
    t0 = time.perf_counter()
    try:
        known_kinds()
        out, _ = execute(task, _replay_of(store, task, meta))
    except ExtraMissing as exc:  # torch is not installed here: say so, not that the task failed
        return Verdict(run, f"cannot verify: {exc}", "", time.perf_counter() - t0)
    except Exception as exc:  # noqa: BLE001 (one run's failure is its verdict; the batch goes on)
        return Verdict(run, f"cannot verify: the task failed: {type(exc).__name__}: {exc}", "",
                       time.perf_counter() - t0)
    seconds = time.perf_counter() - t0
    try:
        problems, same_bytes = _compare(folder, meta, out)
    except Exception as exc:  # noqa: BLE001 (e.g. facts the store cannot write: the batch goes on)
        return Verdict(run, f"cannot verify: the recomputed output cannot be compared: {type(exc).__name__}: {exc}",
                       "", seconds)
    if problems:
        return Verdict(run, "differs", "; ".join(problems + _machine_note(meta)), seconds)
    same = "identical" if same_bytes else "same values"
    why = unvouched(meta)
    if why:
        return Verdict(run, "unvouched", f"{same} when recomputed, but {why}: nothing vouches for which code made "
                                         f"it", seconds)
    verdict = Verdict(run, same, "", seconds)
    prov = meta.get("provenance")
    if record and same_bytes and isinstance(prov, dict) and prov.get("sweeper_modified") is True:
        _record(folder, meta)
        verdict.recorded = True
    return verdict


def _compare(folder: Path, meta: dict, out) -> tuple[list[str], bool]:
    """What differs between a stored run (its ``folder`` and ``meta``) and its recomputed output ``out`` in the form
    the store writes (data files and ``info``), and whether every data file is the same bytes."""
    files, info = stored_form(out)
    stored = {f: (folder / f).read_bytes() for f in meta["files"]}
    problems = []
    if set(files) != set(stored):
        problems.append(f"files {sorted(stored)} stored, {sorted(files)} computed")
    same_bytes = not problems and all(sha256_hex(files[f]) == meta["files"][f] for f in files)
    if not problems and not same_bytes:
        for f in sorted(files):
            what = value_differences(f, stored[f], files[f])
            if what:
                problems.append(f"{f} ({', '.join(what)})")
    info = _info_differences(meta["info"], json.loads(json.dumps(info)))
    if info:
        problems.append("info " + ", ".join(map(str, info)))
    return problems, same_bytes


def _replay_of(store: Store, task: Task, meta: dict) -> dict:
    """The extra parameters that recompute a run stopped on a CPU budget exactly (its kind's replay, from the
    stored run: :data:`~sweeper.experiments.runner.REPLAYS`); ``{}`` for every other run."""
    replay = REPLAYS.get(task.kind)
    if replay is None:
        return {}
    stored = store.load(task)
    return replay(task.params, meta["info"], stored.tables)


def _record(folder: Path, meta: dict) -> None:
    """Write the ``verified`` record of a run recomputed byte for byte by the current, committed code."""
    prov = provenance()
    meta["verified"] = {"commit": prov["commit"], "source": source_fingerprint(),
                        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "files": meta["files"],
                        "command": COMMAND}
    assert meta["checksum"] == meta_checksum(meta)  # the run's own checksum is unchanged by the record
    meta["verified"]["checksum"] = verified_checksum(meta)
    tmp = folder / ".meta.json.verify.tmp"
    tmp.write_text(json.dumps(meta, indent=1, sort_keys=True))
    tmp.replace(folder / "meta.json")


def verify(store: Store, runs, record: bool = False, log=print) -> list[Verdict]:
    """Verify ``runs`` (``kind/id``, see :func:`select`) of ``store`` one by one, logging a line each.
    ``record``: write the ``verified`` record of identical runs made from uncommitted code; refused unless the
    code is committed (``ValueError``).

    With ``record=True`` an identical run made from uncommitted code (``provenance.sweeper_modified``) gets a
    ``verified`` record in its ``meta.json``: the commit that reproduced it byte for byte, with that code's source
    fingerprint and a checksum of its own (:func:`sweeper.experiments.provenance.verified_problem` checks it),
    while the run's own checksum, which the summary tables' manifest names, stays as it was. Recording needs a
    clean ``sweeper/`` (committed code), else the commit would not say which code verified it."""
    if record:
        prov = provenance()
        if prov["sweeper_modified"] or len(prov["commit"]) != 40:
            raise ValueError("--record names the commit whose code reproduced the runs: commit the changes to "
                             "sweeper/ first (it has uncommitted changes, or this is not a git checkout)")
        for run in runs:  # before any work: a record would vouch for a run whose maker nothing names
            why = _unvouched_run(store, run)
            if why:
                raise ValueError(f"--record cannot vouch for {run}: {why}; recompute it instead (`python -m sweeper "
                                 f"reproduce` stores it with this code's provenance)")
    verdicts = []
    for run in runs:
        v = verify_run(store, run, record)
        log(v.line())
        verdicts.append(v)
    return verdicts


def _unvouched_run(store: Store, run: str) -> str | None:
    """:func:`unvouched` of a stored run's ``meta.json``, None where it cannot be read (its verdict says so)."""
    kind, _, rid = run.partition("/")
    try:
        meta = json.loads((store.root / kind / rid / "meta.json").read_text())
    except (OSError, ValueError, RecursionError):
        return None
    return unvouched(meta) if isinstance(meta, dict) else None


#: The verdicts in the order :func:`summary` counts them (a status is counted by its word before ``:``).
OUTCOMES = ("identical", "same values", "unvouched", "differs", "corrupt", "stale", "cannot verify")


def summary(verdicts) -> list[str]:
    """The lines that close ``python -m sweeper verify``: one per task kind (its runs, how many had each verdict
    of :data:`OUTCOMES`, the seconds their recomputation took), then the total, naming every run that is neither
    identical nor the same values."""
    kinds: dict[str, list[Verdict]] = {}
    for v in verdicts:
        kinds.setdefault(v.run.split("/")[0], []).append(v)
    lines = []
    for kind, vs in sorted(kinds.items()):
        counts = [(o, sum(v.status.split(":")[0] == o for v in vs)) for o in OUTCOMES]
        said = ", ".join(f"{n} {o}" for o, n in counts if n)
        lines.append(f"  {kind}: {len(vs)} run{'s' * (len(vs) != 1)}: {said} [{sum(v.seconds for v in vs):.1f} s]")
    bad = [v for v in verdicts if v.status not in ("identical", "same values")]
    loose = sum(v.status == "unvouched" for v in verdicts)  # counted among the runs not verified, not beside them
    lines.append(f"{len(verdicts)} runs verified: {sum(v.status == 'identical' for v in verdicts)} identical, "
                 f"{sum(v.status == 'same values' for v in verdicts)} same values, {len(bad)} not"
                 + (f" ({', '.join(v.run for v in bad)})" if bad else "")
                 + (f", of which {loose} unvouched (no commit named)" if loose else ""))
    return ["per kind:"] + lines if len(kinds) > 1 else lines[1:]
