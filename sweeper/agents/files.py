"""The agent file: its one definition, used by :meth:`~sweeper.agents.kinds.Agent.save`,
:func:`~sweeper.agents.kinds.load_agent` and the experiment tasks that store trained agents.

An agent file is a NumPy ``.npz`` (a zip archive of ``.npy`` arrays, no pickle)
with exactly four members:

``keys`` (int64, 1-D), ``q`` (float64, 1-D), ``n`` (int64, 1-D)
    The recorded actions (N > 0) of the value table, sorted by key.
``metadata`` (a 0-d unicode string)
    JSON with exactly these fields: ``format`` (``"bandit-sweeper-agent"``),
    ``version`` (2; version 1 is read too), ``agent`` (``greedy``, ``egreedy``, ``ucb``, ``thompson``,
    ``sa`` or ``rule``), ``params`` (an object with exactly the agent's parameters:
    ``epsilon``; ``c``; ``a0`` and ``b0``; none for greedy; for sa ``rows`` and ``cols``, the board shape
    of its table, whose keys are whole views of that board, so a board of another shape is refused (none
    before it has played, or from older code: the first board it plays then sets it); for a plug-in
    rule ``rule``, its name -- ``user:NAME`` for a rule that is not the library's -- and ``values``, its
    parameters), ``symmetric``
    and ``flags`` (JSON booleans; ``sa`` is never symmetric), ``window`` (3),
    ``decisions`` (an integer >= 0) and ``actions_recorded`` (the length of the
    arrays).

Reading trusts nothing in the file (:func:`read_agent_file` says what it checks, and what the arrays cannot vouch
for). Every error is a ``ValueError`` naming the file and the field.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
import zipfile
import zlib
from pathlib import Path

import numpy as np

FORMAT = "bandit-sweeper-agent"
#: Version 2: a plug-in rule that is not the library's is saved as ``user:NAME`` (version 1 did not say).
FORMAT_VERSION = 2
READS_VERSIONS = (1, 2)
WINDOW = 3
#: The most recorded actions an agent file may hold: 2**24 (16.8 million), about 9 times the
#: largest table of the paper-scale runs (1.9 million actions); its arrays then take 400 MB.
MAX_ACTIONS = 1 << 24
#: The longest metadata string accepted (characters).
MAX_METADATA_CHARS = 100_000
#: Each agent kind's parameters, in order.
PARAMS = {"greedy": (), "egreedy": ("epsilon",), "ucb": ("c",), "thompson": ("a0", "b0"), "sa": (),
          "rule": ("rule", "values")}
#: The parameters of a state-action agent that has played: the board shape of its table (its keys are whole views).
SA_SHAPE = ("rows", "cols")
#: The most tiles of a state-action agent's board.
SA_TILES = 16
FIELDS = ("format", "version", "agent", "params", "symmetric", "flags", "window", "decisions", "actions_recorded")
_ARRAYS = {"keys": np.dtype("<i8"), "q": np.dtype("<f8"), "n": np.dtype("<i8")}


def agent_arrays(keys, q, n, metadata: dict) -> dict:
    """The arrays of an agent file, in file order (``np.savez_compressed(file, **agent_arrays(...))``)."""
    return {"keys": keys, "q": q, "n": n, "metadata": np.array(json.dumps(metadata))}


def check_target(path) -> Path:
    """``path`` as a place to write an agent file: absent, or a regular file (a device, a folder, a pipe or any
    other node is refused: writing would replace the node itself)."""
    path = Path(path)
    if path.exists() and not path.is_file():
        raise ValueError(f"{path} exists and is not a regular file: an agent is saved to a new or regular file")
    if path.is_symlink():
        raise ValueError(f"{path} is a symbolic link: give the file itself")
    return path


def write_agent_file(path, keys, q, n, metadata: dict) -> Path:
    """Write an agent file atomically: a temporary file of its own (unique, so concurrent saves of one path never
    share it) in the same folder, renamed into place."""
    path = check_target(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(tmp)
    try:
        with os.fdopen(fd, "wb") as fh:
            np.savez_compressed(fh, **agent_arrays(keys, q, n, metadata))
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def _header(zf: zipfile.ZipFile, info: zipfile.ZipInfo, path: Path):
    """Shape and dtype from a member's ``.npy`` header (only the header is decompressed)."""
    name = info.filename[:-4]
    try:
        with zf.open(info) as fh:
            version = np.lib.format.read_magic(fh)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(fh, max_header_size=10_000)
            elif version == (2, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(fh, max_header_size=10_000)
            else:
                raise ValueError(f"unsupported .npy version {version}")
            start = fh.tell()
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, NotImplementedError, zlib.error, RuntimeError) as exc:
        raise ValueError(f"{path}: array {name!r} has no valid .npy header ({exc})") from None
    if dtype.hasobject:
        raise ValueError(f"{path}: array {name!r} holds Python objects; agent files hold numbers and text only")
    if name == "metadata":
        if shape != () or dtype.kind != "U" or dtype.itemsize > 4 * MAX_METADATA_CHARS:
            raise ValueError(f"{path}: array 'metadata' must be one string of at most {MAX_METADATA_CHARS:,} "
                             f"characters, got shape {shape} dtype {dtype}")
    else:
        if dtype != _ARRAYS[name] or len(shape) != 1:
            raise ValueError(f"{path}: array {name!r} must be 1-D {_ARRAYS[name]}, got shape {shape} dtype {dtype}")
        if shape[0] > MAX_ACTIONS:
            raise ValueError(f"{path}: array {name!r} declares {shape[0]:,} entries, more than the limit of "
                             f"{MAX_ACTIONS:,} recorded actions (sweeper.agents.files.MAX_ACTIONS)")
    size = math.prod(shape) * dtype.itemsize
    if info.file_size != start + size:
        raise ValueError(f"{path}: array {name!r} declares {size:,} bytes of data but its zip entry holds "
                         f"{info.file_size - start:,}")
    return shape, dtype


def _meta_error(path, field, what):
    return ValueError(f"{path}: metadata field {field!r} {what}")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_metadata(meta, path, length: int) -> dict:
    """Type- and range-check every metadata field (``length``: the arrays' length)."""
    if not isinstance(meta, dict):
        raise ValueError(f"{path}: metadata is not a JSON object")
    if meta.get("format") != FORMAT:
        raise ValueError(f"{path}: not a {FORMAT} file (metadata field 'format' is {meta.get('format')!r})")
    missing = [f for f in FIELDS if f not in meta]
    if missing:
        raise _meta_error(path, missing[0], "is missing")
    unknown = sorted(set(meta) - set(FIELDS))
    if unknown:
        raise _meta_error(path, unknown[0], "is not part of the format")
    if not _is_int(meta["version"]) or meta["version"] not in READS_VERSIONS:
        raise _meta_error(path, "version", f"is {meta['version']!r}; this code reads versions "
                                           f"{', '.join(map(str, READS_VERSIONS))}")
    if meta["agent"] not in PARAMS:
        raise _meta_error(path, "agent", f"must be one of {list(PARAMS)}, got {meta['agent']!r}")
    if not _is_int(meta["window"]) or meta["window"] != WINDOW:
        raise _meta_error(path, "window", f"must be {WINDOW}, got {meta['window']!r}")
    for f in ("symmetric", "flags"):
        if not isinstance(meta[f], bool):
            raise _meta_error(path, f, f"must be true or false, got {meta[f]!r}")
    if meta["agent"] == "sa" and meta["symmetric"]:
        raise _meta_error(path, "symmetric", "must be false for the state-action agent")
    for f in ("decisions", "actions_recorded"):
        if not _is_int(meta[f]) or not 0 <= meta[f] < 2 ** 63:
            raise _meta_error(path, f, f"must be an integer from 0 to 2**63 - 1, got {meta[f]!r}")
    if meta["actions_recorded"] != length:
        raise _meta_error(path, "actions_recorded", f"says {meta['actions_recorded']} actions, the file has {length}")
    params = meta["params"]
    want = PARAMS[meta["agent"]]
    if not isinstance(params, dict):
        raise _meta_error(path, "params", f"must be an object, got {params!r}")
    if meta["agent"] == "sa" and set(params) == set(SA_SHAPE):  # the board shape of its table
        for k in SA_SHAPE:
            if not _is_int(params[k]) or params[k] < 1:
                raise _meta_error(path, f"params.{k}", f"must be a positive integer, got {params[k]!r}")
        if params["rows"] * params["cols"] > SA_TILES:
            raise _meta_error(path, "params", f"gives a {params['rows']}x{params['cols']} board; the state-action "
                                              f"agent's boards have at most {SA_TILES} tiles")
    elif set(params) != set(want):
        also = f" (or {list(SA_SHAPE)}, the board shape of its table)" if meta["agent"] == "sa" else ""
        raise _meta_error(path, "params", f"of a {meta['agent']} agent must have exactly {list(want)}{also}, "
                                          f"got {sorted(params)}")
    if meta["agent"] == "rule":  # a plug-in rule: its name and its parameters' values
        if not isinstance(params["rule"], str) or not params["rule"]:
            raise _meta_error(path, "params.rule", f"must be the rule's name, got {params['rule']!r}")
        if not isinstance(params["values"], dict):
            raise _meta_error(path, "params.values", f"must be an object, got {params['values']!r}")
        params = params["values"]
    for k, v in params.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise _meta_error(path, f"params.{k}", f"must be a finite number, got {v!r}")
    return meta


def check_table(keys, q, n, path) -> None:
    """The arrays must be a valid table: distinct keys >= 0, N >= 1, Q a mean of +-1 rewards over N."""
    if not len(keys) == len(q) == len(n):
        raise ValueError(f"{path}: keys, q and n must have one length")
    if len(keys) and (keys.min() < 0 or np.unique(keys).size != keys.size):
        raise ValueError(f"{path}: keys must be distinct and non-negative")
    if len(n) and (n.min() < 1 or not np.all(np.isfinite(q)) or np.abs(q).max() > 1.0):
        raise ValueError(f"{path}: every recorded action needs N >= 1 and -1 <= Q <= 1")
    mines = (q + 1.0) / 2.0 * n  # Q is a mean of +-1 rewards: (Q+1)/2*N counts the mines
    # each entry against its own N, not the largest N of the file: the incremental mean's rounding error in Q grows
    # at most like N * 1e-16, so in the mine count like N**2 * 1e-16 (here a hundred times that, at most 0.25)
    tol = np.minimum(1e-14 * n.astype(np.float64) ** 2 + 1e-9, 0.25)
    if len(n) and np.any(np.abs(mines - np.round(mines)) > tol):
        raise ValueError(f"{path}: Q values are not means of +-1 rewards over N")


class RepeatedKey(Exception):
    """Raised by :func:`no_repeated_keys` on a JSON object that repeats a key (its message is the key)."""


def no_repeated_keys(pairs):
    """A JSON object whose keys are distinct (JSON itself would keep the last of a repeated key, silently)."""
    out = {}
    for k, v in pairs:
        if k in out:
            raise RepeatedKey(repr(k))
        out[k] = v
    return out


def read_agent_file(path):
    """``(metadata, keys, q, n)`` of an agent file (its format: the module docstring), every part checked.

    Reading trusts nothing in the file. The shape and type of every array are read from its ``.npy`` header inside
    the zip, and anything larger than :data:`MAX_ACTIONS` recorded actions (or :data:`MAX_METADATA_CHARS`
    characters of metadata), or whose declared size disagrees with its header, is refused *before* any array is
    decompressed; so a small file that declares a huge array costs no memory. Then every metadata field is type-
    and range-checked and the arrays must form a valid table (distinct keys >= 0, N >= 1, Q a mean of +-1 rewards
    over N). Every error is a ``ValueError`` naming the file and the field.

    What the arrays can and cannot vouch for. Metadata that the table contradicts is refused: a symmetric agent's
    keys must be canonical windows, an agent with invisible flags (``flags: false``) has no window that shows a
    flag, a state-action table holds views of at most 16 tiles (of its board shape when it gives one), and a
    version-1 plug-in rule agent loads only with a rule of the name it saved. The rest of the metadata cannot be
    checked against the table, since two agents that differ there learn tables of the same form: the agent kind
    and its parameters (a greedy table labelled ``ucb`` or ``egreedy``), the plug-in rule's name and values, a
    non-symmetric label on a symmetric table (its canonical keys are also valid non-symmetric ones), ``flags:
    true`` on a table that never saw a flag, and ``decisions``. A file edited there loads, and plays as its label
    says; the file carries no signature, so trust such a file as much as its source."""
    path = Path(path)
    if not path.exists():
        raise ValueError(f"no agent file at {path}")
    if not path.is_file():
        raise ValueError(f"{path} is not a file")
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise ValueError(f"{path} is not a readable agent file ({exc})") from None
    with zf:
        infos = zf.infolist()
        names = [i.filename for i in infos]
        for k in (*_ARRAYS, "metadata"):
            if f"{k}.npy" not in names:
                raise ValueError(f"{path} is not an agent file: missing {k!r}")
        if len(names) != 4 or len(set(names)) != 4:
            extra = sorted(set(names) - {f"{k}.npy" for k in (*_ARRAYS, "metadata")}) or "a repeated member"
            raise ValueError(f"{path} is not an agent file: unexpected members {extra}")
        shapes = {i.filename[:-4]: _header(zf, i, path) for i in infos}  # every header before any data
        if not shapes["keys"][0] == shapes["q"][0] == shapes["n"][0]:
            raise ValueError(f"{path}: keys, q and n must have one length")
        arrays = {}
        for i in infos:
            try:
                with zf.open(i) as fh:
                    arrays[i.filename[:-4]] = np.lib.format.read_array(fh, allow_pickle=False)
            except (ValueError, OSError, EOFError, zipfile.BadZipFile, zlib.error, RuntimeError,
                    NotImplementedError) as exc:  # a flipped byte (zlib), an encrypted member (RuntimeError)
                raise ValueError(f"{path}: array {i.filename[:-4]!r} is damaged or encrypted ({exc})") from None
    try:
        meta = json.loads(str(arrays["metadata"]), object_pairs_hook=no_repeated_keys)
    except (json.JSONDecodeError, TypeError):
        raise ValueError(f"{path}: metadata is not valid JSON") from None
    except RepeatedKey as exc:
        raise ValueError(f"{path}: metadata names {exc} twice") from None
    keys, q, n = arrays["keys"], arrays["q"], arrays["n"]
    check_metadata(meta, path, len(keys))
    check_table(keys, q, n, path)
    return meta, keys, q, n
