"""The benchmark board by board: a score's per-board rows saved with its summary, read back, and set beside a
leaderboard entry's stored rows on the same boards.

*Saved results* (``python -m sweeper benchmark ... --save FILE``, :func:`save_boards`): one row per board
(:data:`COLUMNS`), as CSV or Parquet by the file's extension, with the summary's metadata (the score's
:meth:`~sweeper.experiments.benchmark.Score.report`: agent, suite and its checksum, fresh seed, machine; the
provenance of the code) beside it: for Parquet in the file's key-value metadata (key :data:`METADATA_KEY`), for
CSV in a sidecar ``FILE.json`` (plain CSV stays readable by any tool). Either way the metadata's ``rows_sha256`` is
the SHA-256 of the rows as CSV (:func:`rows_sha256`: for a CSV file, its bytes), so rows edited after the save are
caught. :func:`read_boards` reads either back, checked: the digest, and the rows against the summary (one row per
board of its ``games``, its ``wins`` the rows' won).

*Leaderboard entries* (:func:`entry_boards`): the stored runs of task kind ``benchmark`` (``ext:benchmark`` and the
others of :mod:`~sweeper.experiments.leaderboard`) hold the same rows per board (without regret, which they store
as totals); an entry is named by its agent spec as stored (``solver``, ``greedy``, ``best-window:8x8x10``, ...).

*Comparisons* (:func:`compare`, ``--compare NAME|FILE``): on the boards both played, an entry of one run (an
untrained player, a single network) is compared board by board
(:func:`~sweeper.experiments.stats.compare_paired`: exact McNemar, paired bootstrap of the difference); a
learner's seeds by the seed-level verdict (:func:`~sweeper.experiments.stats.compare_run_to_seeds`). Fresh
boards share no board with the public suite: they are compared only with a saved result of the same fresh seed.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from ..checks import output_file
from .stats import compare_paired, compare_run_to_seeds
from .suites import read_regular

#: The format of a saved result (its metadata's ``format``).
SAVED_FORMAT = 1
#: The key of a Parquet file's key-value metadata that holds the summary (JSON).
METADATA_KEY = "sweeper.benchmark"
#: The extensions ``--save`` writes, and the largest saved file read back (bytes).
FORMATS = (".csv", ".parquet")
MAX_SAVED_BYTES = 1 << 26
#: The columns of a saved result, one row per board.
COLUMNS = {"board": "the board's index in the suite (or in the fresh deal), from 0",
           "won": "whether the game was won",
           "clicks": "decisions: the tiles clicked after the opening (placing or removing a flag is none)",
           "revealed": "the share of the board's safe tiles revealed at the game's end",
           "regret_decisions": "the decisions whose regret was scored (the regret boards only; empty elsewhere)",
           "regret": "their regret against the exact probabilities, summed (the regret boards only)"}


def sidecar(path) -> Path:
    """Where a CSV result's metadata goes: ``FILE.json`` beside ``FILE``."""
    path = Path(path)
    return path.with_name(path.name + ".json")


def _format(path: Path, what: str) -> str:
    ext = path.suffix.lower()
    if ext not in FORMATS:
        raise ValueError(f"{what}: the file's extension gives its format, .csv (its metadata in {path.name}.json "
                         f"beside it) or .parquet (its metadata inside), got {repr(path.suffix) if path.suffix else 'no extension'}")
    return ext


def check_save_path(path, force: bool = False) -> Path:
    """Check a ``--save`` destination before any work: a ``.csv`` or ``.parquet`` file name whose folder takes
    files; an existing file (or a CSV's existing sidecar) is replaced only with ``force``."""
    p = Path(path)
    what = f"--save {p}"
    ext = _format(p, what)
    for q in (p, sidecar(p)) if ext == ".csv" else (p,):
        output_file(q, what if q == p else f"{what} (its metadata, {q})")
        if q.exists() and not force:
            raise ValueError(f"{what}: {q} exists; add --force to replace it")
    return p


def _plain(v):
    """JSON's form of a value: NaN and infinities as null, NumPy numbers as Python's, in lists and dicts too."""
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return float(v) if math.isfinite(v) else None
    return v


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def rows_sha256(rows: pd.DataFrame) -> str:
    """The SHA-256 of per-board rows as CSV (``rows.to_csv(index=False)``, lines ending in ``\\n``), in hex: the bytes
    a CSV save writes, and the digest a Parquet save keeps in its metadata."""
    return hashlib.sha256(rows.to_csv(index=False, lineterminator="\n").encode()).hexdigest()


def save_boards(rows: pd.DataFrame, path, facts: dict) -> list[Path]:
    """Write the per-board ``rows`` (:meth:`~sweeper.experiments.benchmark.Score.boards`) to ``path``, CSV or
    Parquet by its extension, with ``facts`` (the summary) as its metadata (see the module's text); returns the
    files written."""
    path = Path(path)
    meta = _plain({"format": SAVED_FORMAT, **facts, "columns": COLUMNS})
    if _format(path, f"--save {path}") == ".parquet":
        meta["rows_sha256"] = rows_sha256(rows)
        import pyarrow as pa
        import pyarrow.parquet as pq
        table = pa.Table.from_pandas(rows, preserve_index=False)
        table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                               METADATA_KEY.encode(): json.dumps(meta, allow_nan=False).encode()})
        buf = io.BytesIO()
        pq.write_table(table, buf)
        _write(path, buf.getvalue())
        return [path]
    data = rows.to_csv(index=False, lineterminator="\n").encode()
    meta["rows_file"], meta["rows_sha256"] = path.name, hashlib.sha256(data).hexdigest()
    _write(path, data)
    _write(sidecar(path), (json.dumps(meta, indent=1, allow_nan=False) + "\n").encode())
    return [path, sidecar(path)]


def read_boards(path) -> tuple[pd.DataFrame, dict]:
    """A saved result read back: ``(rows, metadata)``, checked (regular files of a bounded size, the metadata
    present and, for CSV, its sidecar naming the CSV's SHA-256; the columns of :data:`COLUMNS`)."""
    path = Path(path)
    what = f"the saved result {path}"
    ext = _format(path, what)
    data = read_regular(path, MAX_SAVED_BYTES, "the saved result")
    try:
        if ext == ".parquet":
            import pyarrow.parquet as pq
            table = pq.read_table(io.BytesIO(data))
            raw = (table.schema.metadata or {}).get(METADATA_KEY.encode())
            if raw is None:
                raise ValueError(f"it holds no {METADATA_KEY!r} metadata: it was not written by benchmark --save")
            meta, rows = json.loads(raw), table.to_pandas()
            if not isinstance(meta, dict) or meta.get("rows_sha256") != rows_sha256(rows):
                raise ValueError(f"its {METADATA_KEY!r} metadata does not name the SHA-256 of its rows: they were "
                                 f"changed after the save")
        else:
            meta = json.loads(read_regular(sidecar(path), MAX_SAVED_BYTES, "its metadata"))
            if not isinstance(meta, dict) or meta.get("rows_sha256") != hashlib.sha256(data).hexdigest():
                raise ValueError(f"its metadata {sidecar(path).name} does not name this file's SHA-256: they are not "
                                 f"a pair (or one was changed)")
            rows = pd.read_csv(io.BytesIO(data))
    except RecursionError:
        raise ValueError(f"cannot read {what} (its metadata is too deeply nested)") from None
    except ValueError as exc:
        raise ValueError(f"cannot read {what}: {exc}") from None
    except Exception as exc:  # noqa: BLE001  (a damaged Parquet file: pyarrow's own errors)
        raise ValueError(f"cannot read {what} ({type(exc).__name__}: {exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != SAVED_FORMAT or list(rows.columns) != list(COLUMNS):
        raise ValueError(f"{what} is not a saved benchmark result of format {SAVED_FORMAT} (columns "
                         f"{list(COLUMNS)})")
    if not rows["board"].tolist() == list(range(len(rows))) or len(rows) != meta.get("games"):
        raise ValueError(f"{what} must hold one row per board, boards 0 to {meta.get('games')} - 1 in order")
    won = rows["won"]
    counted = int(won.sum()) if won.dtype == bool else None
    if counted is None or counted != meta.get("wins"):
        raise ValueError(f"{what}: its rows do not agree with its summary ({counted if counted is not None else 'no'} "
                         f"boards won in its rows, {meta.get('wins')!r} wins in its summary)")
    return rows, meta


# ------------------------------------------------------- leaderboard entries --

def leaderboard_entries() -> set:
    """The task ids of the leaderboard's runs at paper scale: those of
    :data:`~sweeper.experiments.leaderboard.LEADERBOARD_SPECS`."""
    from . import specs as ex
    from .leaderboard import LEADERBOARD_SPECS
    return {t.id for t in ex.all_tasks(list(LEADERBOARD_SPECS), "paper")}


def _entry_runs(name: str, results=None) -> list:
    """``(task, output)`` of every stored run of the leaderboard entry ``name`` (its agent spec) at paper scale, among
    the runs of :data:`~sweeper.experiments.leaderboard.LEADERBOARD_SPECS`, each checked by the store (checksums,
    provenance), by seed."""
    from .reproduce import store_for
    from .runner import Task
    store = store_for(results, "paper")
    entries = leaderboard_entries()
    folder = store.root / "benchmark"
    if not folder.is_dir():
        raise ValueError(f"no stored leaderboard runs in {folder}: `python -m sweeper reproduce ext:benchmark` "
                         f"computes them")
    tasks, names = [], set()
    for d in sorted(folder.iterdir()):
        if d.name.startswith(".") or not d.is_dir():
            continue
        try:
            meta = json.loads(read_regular(d / "meta.json", MAX_SAVED_BYTES, "a stored run's meta.json"))
            agent, task = meta["info"]["agent"], Task.make(meta["task"]["kind"], **meta["task"]["params"])
        except (ValueError, KeyError, TypeError, RecursionError):
            continue  # not an entry; the store says what is wrong with it where it is read
        if d.name not in entries:
            continue  # a benchmark run that is not one of the leaderboard's (fresh boards, ablations, suites)
        names.add(str(agent))
        if agent == name and task.id == d.name:
            tasks.append(task)
    if not tasks:
        raise ValueError(f"no stored leaderboard entry {name!r} in {folder}; its entries: {', '.join(sorted(names))}")
    out = []
    for task in sorted(tasks, key=lambda t: t.params.get("seed", 0)):
        status = store.status(task)
        if status != "ok":
            raise ValueError(f"the stored run {task.id} of the leaderboard entry {name} is {status}")
        out.append((task, store.load(task)))
    return out


def entry_boards(name: str, level: str, results=None) -> pd.DataFrame:
    """The stored per-board rows of leaderboard entry ``name`` on ``level``: one row per seed and board, the
    columns of :data:`COLUMNS` (regret empty: the stored runs keep it as totals) and ``seed``, with the score's
    ``suite``, ``opening`` and ``suite_sha256`` in ``attrs``."""
    frames, facts = [], None
    for task, out in _entry_runs(name, results):
        scores = out.tables["scores"]
        row = scores[scores["level"] == level]
        if row.empty:
            raise ValueError(f"the leaderboard entry {name} was not scored on {level} (only on "
                             f"{', '.join(scores['level'])})")
        row = row.iloc[0]
        here = {"suite": row["suite"], "opening": row["opening"], "suite_sha256": row["suite_sha256"]}
        if facts not in (None, here):
            raise ValueError(f"the leaderboard entry {name}'s runs were scored on other suites")
        facts = here
        g = out.tables["games"]
        g = g[g["level"] == level].sort_values("board")
        if g["board"].tolist() != list(range(len(g))):
            raise ValueError(f"the stored run {task.id} of {name} does not hold boards 0 to {len(g) - 1} of {level}")
        frames.append(pd.DataFrame({"seed": int(task.params.get("seed", 0)), "board": g["board"].to_numpy(),
                                    "won": g["won"].to_numpy(bool), "clicks": g["clicks"].to_numpy(np.int64),
                                    "revealed": g["revealed"].to_numpy(float),
                                    "regret_decisions": pd.array([None] * len(g), dtype="Int64"),
                                    "regret": pd.array([None] * len(g), dtype="Float64")}))
    boards = pd.concat(frames, ignore_index=True)
    boards.attrs.update(facts)
    return boards


# ---------------------------------------------------------------- comparing --

def compare(score, target: str, results=None) -> dict:
    """``score`` (a :class:`~sweeper.experiments.benchmark.Score`) beside ``target``, on the boards both played:
    a leaderboard entry's name, or a result saved by ``--save`` (a path ending in ``.csv`` or ``.parquet``). See
    the module's text; refused where the two played no board in common (fresh boards against the public suite,
    another level, opening or fresh seed)."""
    s = score.suite
    return compared(score, against(target, s.level, s.opening, s.seed if s.fresh else None, results))


def _boards_said(suite, fresh, seed) -> str:
    return f"{suite} ({f'fresh boards of seed {seed}' if fresh else 'the public suite'})"


def against(target: str, level: str, opening: str, fresh: int | None = None, results=None) -> dict:
    """What ``--compare`` names, read and checked before any scoring (see :func:`compare`): the other side's
    outcomes per run (``theirs``), its name (``who``), the boards it played (``suite``, ``fresh_seed``,
    ``suite_sha256``) and what the comparison reports besides (``extra``)."""
    name = f"{level}-{opening}"
    if str(target).lower().endswith(FORMATS):
        rows, meta = read_boards(target)
        if (meta.get("suite"), bool(meta.get("fresh")), meta.get("fresh_seed") if meta.get("fresh") else None) != \
                (name, fresh is not None, fresh):
            raise ValueError(f"--compare {target}: it was scored on "
                             f"{_boards_said(meta.get('suite'), meta.get('fresh'), meta.get('fresh_seed'))}, this "
                             f"score on {_boards_said(name, fresh is not None, fresh)}: no board in common")
        return {"theirs": [rows["won"].to_numpy(bool)], "who": f"{meta.get('agent')} ({Path(target).name})",
                "suite_sha256": None if fresh is not None else meta.get("suite_sha256"),
                "extra": {"entry_regret_per_decision": [meta.get("regret_per_decision")]}}
    if fresh is not None:
        raise ValueError(f"--compare {target}: the leaderboard's entries were scored on the public suite's boards, and "
                         f"--fresh deals boards of its own: no board in common (to compare on fresh boards, score "
                         f"both with the same --fresh seed, one with --save FILE, then --compare FILE)")
    boards = entry_boards(target, level, results)
    if boards.attrs["opening"] != opening:
        raise ValueError(f"--compare {target}: the entry was scored on the suite {boards.attrs['suite']}, not on "
                         f"{name}: no board in common")
    return {"theirs": [g["won"].to_numpy(bool) for _, g in boards.groupby("seed", sort=True)], "who": target,
            "suite_sha256": boards.attrs["suite_sha256"],
            "extra": {"seeds": sorted(int(v) for v in boards["seed"].unique())}}


def compared(score, other: dict) -> dict:
    """:func:`compare`'s result from :func:`against`'s reading, once ``score`` is known to have played the same
    boards (the public suite's checksum or the same fresh seed)."""
    if other["suite_sha256"] is not None and other["suite_sha256"] != score.suite.checksum:
        raise ValueError(f"--compare {other['who']}: it was scored on a suite of sha256 {other['suite_sha256'][:16]}, "
                         f"this score on {score.suite.name} of sha256 {score.suite.checksum[:16]}: other boards")
    return _compared(score, other["theirs"], other["who"], other["extra"])


def _compared(score, theirs: list, who: str, extra: dict) -> dict:
    n = min(len(score.games), len(theirs[0]))
    mine = score.games["won"].to_numpy(bool)[:n]
    theirs = [t[:n] for t in theirs]
    out = {"entry": who, "runs": len(theirs), "boards": n, **extra,
           "note": "" if n == len(score.games) else f"the entry holds only the first {n:,} of these boards"}
    if len(theirs) == 1:
        c = compare_paired(mine, theirs[0])
        out.update(test="paired", entry_wins=c["wins_b"], entry_win_rate=c["wins_b"] / n,
                   **{k: c[k] for k in ("difference", "low", "high", "only_a", "only_b", "mcnemar_p", "verdict",
                                        "method")})
        out["only_mine"], out["only_entry"] = out.pop("only_a"), out.pop("only_b")
    else:
        c = compare_run_to_seeds(mine, theirs)
        out.update(test="seeds", entry_seed_rates=c["seeds"],
                   **{k: c[k] for k in ("difference", "low", "high", "verdict", "method")})
    return _plain(out)


#: How a verdict reads in a sentence whose subject is the agent scored.
SAID = {"more than": "wins more than", "less than": "wins less than", "level with": "is level with",
        "cannot be told apart": "cannot be told apart from"}


def describe_comparison(c: dict) -> list[str]:
    """The lines a person reads of :func:`compare`'s result."""
    sign = lambda v: "nan" if v is None else f"{v + 0.0:+.4f}"  # noqa: E731
    head = (f"compared with {c['entry']} on the same {c['boards']:,} boards"
            + (f" ({c['runs']} seeds)" if c["runs"] > 1 else "") + (f"; {c['note']}" if c["note"] else ""))
    diff = f"  difference in win rate: {sign(c['difference'])} [{sign(c['low'])}, {sign(c['high'])}]"
    if c["test"] == "paired":
        return [head, diff + " (paired bootstrap over the boards, 95%)",
                f"  won by this agent only: {c['only_mine']:,} boards; by {c['entry']} only: {c['only_entry']:,}; "
                f"exact McNemar p = {c['mcnemar_p']:.4g}",
                f"  verdict: this agent {SAID[c['verdict']]} {c['entry']}"]
    rates = ", ".join(f"{r:.4f}" for r in c["entry_seed_rates"])
    return [head, diff + " (this agent's rate minus each seed's, t-interval over the seeds, 95%)",
            f"  the entry's seeds: {rates}",
            f"  verdict: this agent {SAID[c['verdict']]} {c['entry']} (at the level of its seeds)"]
