"""Which code made a stored result, and the checks that it says so truly.

Every stored run's ``meta.json`` records its :func:`provenance`: the commit it was made from, whether ``sweeper/``
had uncommitted changes, the :func:`source_fingerprint` of the code that computed it, the package versions and the
machine (:func:`sweeper.machine.machine`). Its checksum (:func:`meta_checksum`) catches an edited file; what a
checksum cannot catch, a forger who recomputes it, :func:`provenance_problem` does: every commit ``meta.json`` names
(its provenance, a ``verified`` record of ``python -m sweeper verify --record``, a ``migrated`` record of
:mod:`~sweeper.experiments.migrate`) must be in this checkout's git history, and the source fingerprint recorded
beside it must be that commit's, computed from git (:func:`commit_fingerprint`), never taken from the file.
:meth:`sweeper.experiments.runner.Store.status` applies both.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from ..machine import machine, torch_version


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data`` as 64 hex digits (the checksums of a run's files and of its manifest)."""
    return hashlib.sha256(data).hexdigest()


def meta_checksum(meta: dict) -> str:
    """SHA-256 of ``meta.json``'s content without its ``checksum`` and ``verified`` fields (canonical JSON):
    what the run's maker wrote. A later verification (``verified``, see :func:`verified_problem`) has its own."""
    body = {k: v for k, v in meta.items() if k not in ("checksum", "verified")}
    return sha256_hex(json.dumps(body, sort_keys=True, separators=(",", ":")).encode())


def verified_checksum(meta: dict) -> str:
    """SHA-256 of a ``verified`` record together with the run's own checksum: a record moved to another run, or
    edited, no longer matches."""
    body = {k: v for k, v in meta["verified"].items() if k != "checksum"}
    return sha256_hex(json.dumps({"run": meta["checksum"], "verified": body}, sort_keys=True,
                           separators=(",", ":")).encode())


#: The fields of a ``verified`` record of ``meta.json`` (written by ``python -m sweeper verify --record``).
VERIFIED_FIELDS = {"commit", "source", "date", "files", "command", "checksum"}


def verified_problem(meta: dict) -> str | None:
    """None if ``meta`` has no ``verified`` record or a sound one, else what is wrong with it. A run made from
    uncommitted code (``provenance.sweeper_modified``) may carry one: the commit (with its source fingerprint)
    whose code, recomputing the run, gave every data file byte for byte, which ``verify --record`` checked."""
    v = meta.get("verified")
    if v is None:
        return None
    if not isinstance(v, dict) or set(v) != VERIFIED_FIELDS:
        return f"its 'verified' record must have exactly the fields {sorted(VERIFIED_FIELDS)}"
    if not (isinstance(v["commit"], str) and len(v["commit"]) == 40 and all(c in "0123456789abcdef"
                                                                            for c in v["commit"])):
        return "its 'verified' record does not name a commit"
    if v["files"] != meta.get("files"):
        return "its 'verified' record vouches for other data files"
    if v["checksum"] != verified_checksum(meta):
        return "its 'verified' record does not match its checksum (edited, or copied from another run?)"
    return None


#: The parts of the package whose code makes the stored results (see :func:`source_fingerprint`). The fingerprint
#: of a past commit is computed with this list (:func:`commit_fingerprint`), so it may only grow by files that no
#: earlier commit has: a name added here that an old commit holds would change that commit's fingerprint.
COMPUTING = ("game", "agents", "running", "experiments", "rng.py", "checks.py", "version.py", "__init__.py",
             "machine.py")
#: The checkout the package runs from, whose git history the commits named by stored runs are checked against.
REPO = Path(__file__).resolve().parents[2]


def _computing(rel: str) -> bool:
    """Whether ``rel`` (a path inside ``sweeper/``, with ``/``) is a source of the layers that compute results."""
    return rel.endswith(".py") and rel.split("/")[0] in COMPUTING


def _fingerprint(files) -> str:
    """SHA-256 over ``(path inside sweeper/, bytes)`` pairs, in the order of their paths' parts: the one algorithm of
    :func:`source_fingerprint` (files on disk) and :func:`commit_fingerprint` (a commit's files, from git)."""
    h = hashlib.sha256()
    for rel, data in sorted(files, key=lambda f: f[0].split("/")):
        h.update(rel.encode() + b"\0" + data + b"\0")
    return h.hexdigest()


def tree_fingerprint(pkg: Path) -> str:
    """The fingerprint of the package's files under the folder ``pkg`` (see :func:`source_fingerprint`)."""
    return _fingerprint((f.relative_to(pkg).as_posix(), f.read_bytes()) for f in Path(pkg).rglob("*.py")
                        if _computing(f.relative_to(pkg).as_posix()))


@lru_cache(maxsize=None)
def source_fingerprint() -> str:
    """SHA-256 over the Python sources of the layers that compute results (paths and bytes): which code made a
    result. What only shows results (``viz``), the command line and the benchmarks are left out."""
    return tree_fingerprint(Path(__file__).resolve().parents[1])


class HistoryUnavailable(Exception):
    """The commits named by stored runs cannot be checked here (no git checkout, no git, or a shallow clone that
    lacks the commit); the message says why."""


def _git(repo: Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=repo, input=stdin, capture_output=True, timeout=60)


@lru_cache(maxsize=None)
def _history(repo: Path) -> tuple[str | None, bool]:
    """(why the history of ``repo`` cannot be read, or None; whether it is a shallow clone)."""
    if not (repo / ".git").exists():
        return (f"no git history here ({repo} is not a git checkout: an sdist or an export?), so the commits that "
                "stored runs name cannot be checked"), False
    try:
        r = _git(repo, "rev-parse", "--is-shallow-repository")
    except (OSError, subprocess.SubprocessError) as exc:
        return f"git cannot be run ({exc}), so the commits that stored runs name cannot be checked", False
    if r.returncode:
        return f"git cannot read {repo} ({r.stderr.decode(errors='replace').strip()})", False
    return None, r.stdout.strip() == b"true"


def history_problem() -> str | None:
    """None if the commits named by stored runs can be checked against this checkout's history, else why not."""
    return _history(REPO)[0]


@lru_cache(maxsize=None)
def _commit_fingerprint(repo: Path, commit: str) -> str | None:
    reason, shallow = _history(repo)
    if reason:
        raise HistoryUnavailable(reason)
    r = _git(repo, "merge-base", "--is-ancestor", commit, "HEAD")
    if r.returncode:
        if shallow:
            raise HistoryUnavailable(f"this is a shallow clone, which may lack commit {commit[:12]} (`git fetch "
                                     "--unshallow` fetches the whole history)")
        return None
    tree = _git(repo, "ls-tree", "-r", "-z", "--full-tree", commit, "--", "sweeper/")
    if tree.returncode:
        raise HistoryUnavailable(f"git cannot list commit {commit[:12]} ({tree.stderr.decode(errors='replace')})")
    blobs = []
    for entry in tree.stdout.split(b"\0"):
        if entry:
            info, path = entry.split(b"\t", 1)
            rel = path.decode()[len("sweeper/"):]
            if info.split()[1] == b"blob" and _computing(rel):
                blobs.append((rel, info.split()[2]))
    out = _git(repo, "cat-file", "--batch", stdin=b"".join(sha + b"\n" for _, sha in blobs)).stdout
    files, at = [], 0
    for rel, _ in blobs:  # each answer: "<sha> blob <size>\n<bytes>\n"
        end = out.index(b"\n", at)
        size = int(out[at:end].split()[2])
        files.append((rel, out[end + 1:end + 1 + size]))
        at = end + 1 + size + 1
    return _fingerprint(files)


def commit_fingerprint(commit: str) -> str | None:
    """The source fingerprint of ``commit`` (:func:`source_fingerprint` of its files, read from git with the same
    algorithm), or None if it is not a commit of this checkout's history (an ancestor of ``HEAD``). Cached per
    commit. Raises :class:`HistoryUnavailable` where the history cannot tell (:func:`history_problem`)."""
    if not (isinstance(commit, str) and len(commit) == 40 and all(c in "0123456789abcdef" for c in commit)):
        return None
    return _commit_fingerprint(REPO, commit)


def provenance_problem(meta: dict) -> str | None:
    """None if every commit ``meta`` names is in this checkout's history with the source fingerprint recorded
    beside it (computed from git, never taken from the file), else what does not match:

    * ``provenance.commit`` (unless ``"unknown"``: made outside a git checkout, which claims no commit) must be a
      commit of the history; unless ``provenance.sweeper_modified`` is true (the run was made from that commit with
      uncommitted changes), ``provenance.source`` must be that commit's fingerprint;
    * a ``verified`` record (:func:`verified_problem`) must name a commit of the history whose fingerprint is its
      ``source``: the code that recomputed the run byte for byte;
    * each record of ``migrated`` (its data files rewritten, see :mod:`sweeper.experiments.migrate`) must name a
      commit of the history.

    Raises :class:`HistoryUnavailable` when a commit cannot be checked here."""
    prov = meta.get("provenance") or {}
    if not isinstance(prov, dict):
        return f"its provenance is a {type(prov).__name__}, not an object"
    commit = prov.get("commit")
    if commit is not None and commit != "unknown":
        fp = commit_fingerprint(commit)
        if fp is None:
            return f"its provenance names commit {str(commit)[:12]!r}, which is not in this repository's history"
        if prov.get("sweeper_modified") is not True and prov.get("source") != fp:
            return (f"its provenance says commit {commit[:12]}'s committed code made it, but records the source "
                    f"fingerprint {str(prov.get('source'))[:12]}..., not that commit's ({fp[:12]}...)")
    v = meta.get("verified")
    if isinstance(v, dict):
        fp = commit_fingerprint(v.get("commit"))
        if fp is None:
            return f"its 'verified' record names commit {str(v.get('commit'))[:12]!r}, which is not in this " \
                   "repository's history"
        if v.get("source") != fp:
            return (f"its 'verified' record's source fingerprint {str(v.get('source'))[:12]}... is not that of "
                    f"commit {v['commit'][:12]} ({fp[:12]}...)")
    migrated = meta.get("migrated", [])
    if not isinstance(migrated, list) or not all(isinstance(r, dict) for r in migrated):
        return "its 'migrated' records are not a list of objects"
    for record in migrated:
        if commit_fingerprint(record.get("commit")) is None:
            return f"its 'migrated' record names commit {str(record.get('commit'))[:12]!r}, which is not in this " \
                   "repository's history"
    return None


def provenance() -> dict:
    """Commit, source fingerprint, package versions (torch's where it is installed, without importing it) and the
    machine's facts (:func:`sweeper.machine.machine`: CPU model, instruction sets, torch's CPU pin) recorded with
    every result."""
    root = REPO
    commit, dirty = "unknown", False
    if (root / ".git").exists():  # the package's own checkout, not a repository it happens to be installed in
        try:
            commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True,
                                    timeout=10).stdout.strip() or "unknown"
            dirty = bool(subprocess.run(["git", "status", "--porcelain", "--", "sweeper"], cwd=root,
                                        capture_output=True, text=True, timeout=10).stdout.strip())
        except (OSError, subprocess.SubprocessError):
            commit, dirty = "unknown", False
    import numba
    import sweeper
    return {"commit": commit, "sweeper_modified": dirty, "source": source_fingerprint(),
            "sweeper": sweeper.__version__, "python": sys.version.split()[0],
            "numpy": np.__version__, "numba": numba.__version__, "pandas": pd.__version__,
            "torch": torch_version(), "machine": machine()}
