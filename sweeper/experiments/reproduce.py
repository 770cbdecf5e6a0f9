"""Reproduce the paper's tables and figures, and tabulate ours beside the paper's numbers.

``python -m sweeper reproduce [ID ...] [--scale paper|quick] [--workers N] [--dask ADDRESS]``
runs the specs of :mod:`sweeper.experiments` through :mod:`sweeper.experiments.runner`
(finished runs are kept and skipped) into ``<results>/runs/<scale>/`` and then writes

* ``<results>/summary[-quick].csv``: one row per number we report, with exactly
  the columns of the paper's ``paper-results.csv`` (source = ours; see
  :mod:`sweeper.experiments.paper`);
* ``<results>/comparison[-quick].csv``: each number beside the paper's, with
  its Wilson 95% interval, whether the paper's value lies in it, and the
  Mann-Whitney "significantly best" marks of the transfer tables.

``<results>`` is the repository's ``results/`` at paper scale (committed) and
the git-ignored ``.cache/quick-results/`` at quick scale (the store the book's
notebook tests and ``tests/test_behaviour.py`` share).

The two tables are guarded like the runs: each is written under a temporary
name and renamed into place, and ``<results>/tables[-quick].json`` records
their SHA-256, the behaviour version, and the runs behind them (each run's
``meta.json`` checksum). :func:`read_table` refuses a table that does not match
(edited, half-written, or made from runs that have since been recomputed or
belong to another behaviour version), with the command that rewrites it.

``reproduce --list`` (:func:`list_specs`) plays no game: each spec's tasks, the stored ones, the games they play,
and the stored runs that no spec asks for under the book's seeds (:func:`orphans`), with how to remove them.
"""

from __future__ import annotations

import io
import json
import os
import re
import secrets
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ..experiments import specs as ex
from .paper import PAPER_ALIAS, PAPER_BOLD, paper_results
from ..version import BEHAVIOUR_VERSION
from .runner import Store, sha256_hex, meta_checksum, run_tasks, task_games  # noqa: F401  (task_games: as before)
from .stats import best_of, wilson

REPO = Path(__file__).resolve().parents[2]
COLUMNS = ["experiment", "agent", "train_setting", "train_episodes", "eval_setting", "eval_episodes", "metric",
           "value", "source"]


QUICK_RESULTS = REPO / ".cache" / "quick-results"


def default_results(scale="paper") -> Path:
    """Where a scale's results go by default: ``results/`` (paper, committed) or ``.cache/quick-results``."""
    return REPO / "results" if scale == "paper" else QUICK_RESULTS


def table_path(name: str, results=None, scale="paper") -> Path:
    """Where a scale's summary table lives: ``name`` is ``summary`` or ``comparison``
    (``results/comparison.csv`` at paper scale, ``<results>/comparison-quick.csv`` at quick scale)."""
    root = default_results(scale) if results is None else Path(results)
    return root / (f"{name}.csv" if scale == "paper" else f"{name}-{scale}.csv")


def store_for(results=None, scale="paper", exact_source: bool = False) -> Store:
    root = default_results(scale) if results is None else Path(results)
    return Store(root / "runs" / scale, exact_source=exact_source)


def paper_agent(spec: str, symmetric=True, flags=True) -> str:
    """Our agent spec in the paper CSV's naming: greedy, egreedy(e=0.01), ucb(c=0.1), ..."""
    name, _, arg = spec.partition(":")
    label = {"egreedy": f"egreedy(e={arg})", "ucb": f"ucb(c={arg})"}.get(name, name)
    return label + ("" if symmetric else "+nosym") + ("" if flags else "+noflags")


def train_label(boards) -> str:
    if len(boards) == 1:
        return boards[0]
    ks = [b.rsplit("x", 1)[1] for b in boards]
    return f"{boards[0].rsplit('x', 1)[0]}x({ks[0]}..{ks[-1]})"


def reproduce(ids=None, scale="paper", seeds=(1,), workers=1, dask=None, results=None,
              progress=True, log=print, exact_source: bool = False) -> dict:
    """Run (or reuse) every task of the given specs, then write the summary files.

    Returns the runner's counts plus ``summary``: the summary file written, or None
    when tasks of other specs are not done yet (``missing`` of them)."""
    results = default_results(scale) if results is None else Path(results)
    tasks = ex.all_tasks(ids, scale, seeds)
    store = store_for(results, scale, exact_source)
    counts = run_tasks(tasks, store, workers=workers, dask=dask, progress=progress, log=log)
    missing = [t for t in ex.all_tasks(None, scale, seeds) if store.status(t) != "ok"]
    counts.update(summary=None, missing=len(missing))
    if missing:
        return counts
    summary = summary_table(store, scale, seeds)
    write_tables({"summary": summary[COLUMNS], "comparison": comparison_table(summary)}, results, scale, store,
                 ex.all_tasks(None, scale, seeds))
    counts["summary"] = table_path("summary", results, scale)
    return counts


# ------------------------------------------------------------ checked tables --

TABLES_FORMAT = 1


def manifest_path(results=None, scale="paper") -> Path:
    """The record of the summary tables: ``results/tables.json`` (``<results>/tables-quick.json`` at quick scale)."""
    return table_path("tables", results, scale).with_suffix(".json")


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a reader sees the old file or the new one, never a part."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_tables(tables: dict, results, scale: str, store: Store, tasks) -> None:
    """Write the summary tables (name -> DataFrame) as CSV, each atomically, then their manifest: checksums,
    behaviour version, and the ``meta.json`` checksum of every run behind them (``tasks``)."""
    results = Path(results)
    results.mkdir(parents=True, exist_ok=True)
    data = {name: frame.to_csv(index=False).encode() for name, frame in tables.items()}
    manifest = {"format": TABLES_FORMAT, "behaviour": BEHAVIOUR_VERSION, "scale": scale,
                "tables": {table_path(n, results, scale).name: sha256_hex(d) for n, d in data.items()},
                "runs": {f"{t.kind}/{t.id}": store.meta(t)["checksum"] for t in dict.fromkeys(tasks)}}
    manifest["checksum"] = meta_checksum(manifest)
    for name, d in data.items():
        _write_atomic(table_path(name, results, scale), d)
    _write_atomic(manifest_path(results, scale), (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())


def _table_problem(name: str, results: Path, scale: str, data: bytes) -> str | None:
    """Why the bytes ``data`` read from a summary table may not be shown, or None."""
    where = manifest_path(results, scale)
    try:
        manifest = json.loads(where.read_text())
    except FileNotFoundError:
        return f"{where.name} is missing (written by an older version?)"
    except (OSError, ValueError) as exc:
        return f"{where.name} cannot be read ({exc})"
    if not isinstance(manifest, dict) or manifest.get("checksum") != meta_checksum(manifest):
        return f"{where.name} does not match its checksum (edited after it was written?)"
    if manifest.get("format") != TABLES_FORMAT or manifest.get("scale") != scale:
        return f"{where.name} describes other tables (format {manifest.get('format')}, scale {manifest.get('scale')})"
    if manifest.get("behaviour") != BEHAVIOUR_VERSION:
        return (f"it was made by behaviour version {manifest.get('behaviour')}; this code computes version "
                f"{BEHAVIOUR_VERSION}")
    tables, run_sums = manifest.get("tables"), manifest.get("runs")
    if not (isinstance(tables, dict) and isinstance(run_sums, dict)
            and all(isinstance(v, str) for v in (*tables.values(), *run_sums.values()))
            and all(isinstance(r, str) and re.fullmatch(r"[\w:.+-]+/[\w:.+-]+", r) and ".." not in r
                    for r in run_sums)):
        return (f"{where.name} is not a manifest of tables: it needs 'tables' (file -> checksum) and 'runs' "
                f"(kind/id -> checksum)")
    fname = table_path(name, results, scale).name
    if tables.get(fname) != sha256_hex(data):
        return f"it does not match its checksum in {where.name} (edited, or being rewritten)"
    runs = Path(store_for(results, scale).root)
    for run, checksum in run_sums.items():
        try:
            now = json.loads((runs / run / "meta.json").read_text()).get("checksum")
        except (OSError, ValueError, AttributeError):
            now = None
        if now != checksum:
            return f"the run {run} behind it has been removed or recomputed since it was written"
    return None


def read_table(name: str, results=None, scale="paper", attempts: int = 5) -> pd.DataFrame:
    """A summary table (``summary`` or ``comparison``), checked against its manifest (see the module's text):
    a ``ValueError`` naming the command that rewrites it if it is missing, edited, half-written or stale. A table
    being rewritten by a concurrent ``reproduce`` is read again (up to ``attempts`` times, 0.2 s apart)."""
    results = default_results(scale) if results is None else Path(results)
    path = table_path(name, results, scale)
    rerun = "python -m sweeper reproduce" + ("" if scale == "paper" else f" --scale {scale} --results {results}")
    problem = None
    for attempt in range(attempts):
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise ValueError(f"no {scale}-scale results in {results}: run `{rerun}`") from None
        problem = _table_problem(name, results, scale, data)
        if problem is None:
            return pd.read_csv(io.BytesIO(data))
        time.sleep(0.2)
    raise ValueError(f"{path} cannot be shown: {problem}; `{rerun}` rewrites it from the stored runs")


def book_reproduction(scale="paper", workers=1, dask=None, results=None, progress=True, log=print) -> list:
    """Everything the book reads at ``scale``: every spec of the paper (seed 1), the seed bands
    (:data:`~sweeper.experiments.specs.BAND_SEEDS` of :data:`~sweeper.experiments.specs.BAND_SPECS`) and the
    experiments beyond the paper that it shows. Resumable; below paper scale every task not made by exactly the
    current source code is recomputed (a quick store is a cache). Returns the three runs' counts."""
    exact = scale != "paper"
    common = dict(scale=scale, workers=workers, dask=dask, results=results, progress=progress, log=log,
                  exact_source=exact)
    return [reproduce(None, **common),
            reproduce(list(ex.BAND_SPECS), seeds=ex.BAND_SEEDS[scale], **common),
            reproduce(list(ex.BOOK_EXTRAS), **common)]


def quick_reproduction(workers: int = 1, progress: bool = False) -> Path:
    """The quick-scale reproduction in ``.cache/quick-results``, (re)computing every task not
    made by exactly the current source code; returns the results directory. The book's
    notebook tests and the behaviour test share it, so ``make test`` computes it once."""
    counts = reproduce(scale="quick", workers=workers, results=QUICK_RESULTS, progress=progress,
                       log=lambda *_: None, exact_source=True)
    if counts["summary"] is None:
        raise RuntimeError(f"the quick reproduction in {QUICK_RESULTS} is incomplete ({counts['missing']} tasks)")
    return QUICK_RESULTS


# ------------------------------------------------------- the list of runs --

#: The seeds of ``make deep``'s runs (``--seeds 1,2,3`` in the Makefile: the networks and the PPO policies).
DEEP_SEEDS = (1, 2, 3)


def book_seed_sets(scale="paper", seeds=(1,)) -> list[tuple]:
    """The seed sets the book's runs are made with at ``scale``: seed 1 (every spec of ``reproduce --book``), the
    seed bands (:data:`~sweeper.experiments.specs.BAND_SEEDS`, which ``--book`` gives
    :data:`~sweeper.experiments.specs.BAND_SPECS`), ``make deep``'s :data:`DEEP_SEEDS`, and ``seeds``."""
    return list(dict.fromkeys([(1,), tuple(ex.BAND_SEEDS[scale]), DEEP_SEEDS, ex.check_seeds(seeds)]))


def wanted_runs(scale="paper", seeds=(1,)) -> set[str]:
    """Every run (``kind/id``) that a spec asks for under one of :func:`book_seed_sets` (task ids only: no games)."""
    specs = {**ex.SPECS, **ex.EXTRA_SPECS}.values()
    return {f"{t.kind}/{t.id}" for s in book_seed_sets(scale, seeds) for spec in specs for t in spec.tasks(scale, s)}


def _label(folder: Path) -> str:
    """What a stored run was, from its ``meta.json`` (its task's label), or why that cannot be read."""
    try:
        task = json.loads((folder / "meta.json").read_text())["task"]
        if task["id"] != folder.name:
            return "(its meta.json describes another task)"
        return task["params"].get("label") or task["kind"]
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return "(its meta.json cannot be read)"


def orphans(store: Store, scale="paper", seeds=(1,)) -> list[tuple[str, str]]:
    """The stored runs of ``store`` that no spec asks for (not in :func:`wanted_runs`): ``(kind/id, label)``,
    sorted. Nothing reads them: left from a spec that changed (a budget, a list of openings) or was removed."""
    from .verify import stored_runs
    wanted = wanted_runs(scale, seeds)
    return [(r, _label(store.root / r)) for r in stored_runs(store) if r not in wanted]


def _shown(path: Path) -> Path:
    """``path`` as a reader types it: relative to the repository when it is inside it."""
    path = Path(path).resolve()
    return path.relative_to(REPO) if path.is_relative_to(REPO) else path


def removal_command(store: Store) -> str:
    """How to remove a stored run of ``store``: ``git rm -r`` in the committed ``results/``, else ``rm -r``."""
    committed = Path(store.root).resolve().is_relative_to(REPO / "results")
    return f"{'git rm -r' if committed else 'rm -r'} {_shown(store.root)}/KIND/ID"


def _games(tasks) -> str:
    """The games of ``tasks``, and how many of them count their work otherwise."""
    counts = [task_games(t) for t in tasks]
    other = sum(g is None for g in counts)
    games = f"{sum(g for g in counts if g is not None):,} games"
    if not other:
        return games
    return ("" if other == len(counts) else f"{games} and ") + f"{_n(other, 'run')} not counted in games"


def _n(count: int, what: str) -> str:
    return f"{count:,} {what}{'' if count == 1 else 's'}"


def _recorded_speed(store: Store, done) -> str:
    """Games per second of recorded wall time of the stored runs ``done`` (their ``meta.json``'s ``seconds``)."""
    games = seconds = 0
    for t in done:
        g = task_games(t)
        if g is not None:
            games, seconds = games + g, seconds + float(store.meta(t).get("seconds") or 0)
    return f"; its stored runs played {games / seconds:,.0f} games per second of recorded wall time" if seconds else ""


def list_specs(ids=(), scale="paper", seeds=(1,), results=None) -> list[str]:
    """``reproduce --list``: each spec (``ids``, default all) with its tasks under ``seeds``, how many are stored,
    the games they play and, for those not stored, the games still to play; then the stored runs that no spec asks
    for under the book's seeds (:func:`orphans`), with how to remove them. Reads ``meta.json`` files; plays no game."""
    store = store_for(results, scale, exact_source=scale != "paper")
    known = {**ex.SPECS, **ex.EXTRA_SPECS}
    for sid in ids:
        if sid not in known:
            raise ValueError(f"unknown experiment id {sid!r}; known: {list(known)}")
    width = max(map(len, ids or known))
    lines = []
    for sid in (ids or known):
        tasks = list(dict.fromkeys(known[sid].tasks(scale, seeds)))
        done = [t for t in tasks if store.status(t) == "ok"]
        todo = [t for t in tasks if t not in set(done)]
        lines.append(f"{sid:<{width}} {_n(len(tasks), 'task'):>10}, {len(done):>4} done, {_games(tasks):>14}  "
                     f"{known[sid].title}")
        if todo:
            lines.append(f"{'':<{width}}   to run: {_n(len(todo), 'task')}, {_games(todo)}{_recorded_speed(store, done)}")
    lost = orphans(store, scale, seeds)
    sets = "; ".join(",".join(map(str, s)) for s in book_seed_sets(scale, seeds))
    kinds = pd.Series([r.split("/")[0] for r, _ in lost], dtype=object).value_counts().sort_index()
    lines.append(f"stored runs in {_shown(store.root)} that no spec asks for (seeds {sets}): "
                 + (", ".join(f"{n} {k}" for k, n in kinds.items()) if lost else "none"))
    lines += [f"  {r}  {label}" for r, label in lost]
    if lost:
        lines.append(f"  nothing reads them; remove each with `{removal_command(store)}`")
    return lines


# ---------------------------------------------------------------- tabulation --

def _training_row(task, out, experiment) -> dict:
    """The row of a run's cumulative training win rate (base for its other rows)."""
    p = task.params
    return dict(experiment=experiment, agent=paper_agent(p["agent"], p["symmetric"], p["flags"]),
                train_setting=train_label(p["boards"]), train_episodes=p["episodes"] * len(p["boards"]),
                eval_setting="training", eval_episodes=None, metric="win_rate", value=out.info["win_rate"],
                wins=out.info["wins"], games=out.info["games"], seed=p["seed"], task=task.id)


def _fact(row, metric, value, **kw) -> dict:
    return dict(row, metric=metric, value=value, wins=None, games=None, **kw)


def summary_table(store: Store, scale="paper", seeds=(1,)) -> pd.DataFrame:
    """Every number we report, one row each (extra columns: wins, games, seed, task)."""
    sc = ex.SCALES[scale]
    rows = []
    for s in seeds:
        for a in ex.EXP1_AGENTS:  # fig:exp_1, and exp_2 / exp_5 / tab:action_cnt from greedy and UCB(0.1)
            t = ex.base_task(a, sc, s)
            out = store.load(t)
            row = _training_row(t, out, "initial")
            rows += [row] + [_fact(row, m, out.info[m]) for m in ("actions_recorded", "perfect_actions")]
            if a in ("greedy", "ucb:0.1"):
                rows += [_fact(row, m, out.info[m], experiment="action_counts")
                         for m in ("mean_count_perfect", "mean_count_nonperfect", "mean_count_all")]
        for a in ("greedy", "ucb:0.1"):  # fig:exp_4
            for sym, fl in ((True, False), (False, True), (False, False)):
                t = ex.bandit(a, "8x8x10", sc.train, s, block=sc.block, symmetric=sym, flags=fl)
                out = store.load(t)
                row = _training_row(t, out, "ablation")
                rows += [row, _fact(row, "actions_recorded", out.info["actions_recorded"])]
        for experiment, boards in (("dimensions", ex.exp6_boards()), ("density", ex.exp7_boards())):
            for b in dict.fromkeys(b for *_, b in boards):  # fig:exp_6, fig:exp_7 (each board once)
                t = ex.bandit("greedy", b, sc.heat_train, s, block=sc.heat_block)
                rows.append(_training_row(t, store.load(t), experiment))
        for k in (3, 4, 5):  # tab:SAvsMAB, at a tenth of the training and at its end
            for a, sym in ex.SA_VS_MAB_AGENTS:
                t = ex.bandit(a, f"4x4x{k}", sc.train, s, block=sc.block, symmetric=sym)
                curve = store.load(t).tables["curve"]
                counted = "actions_recorded" if a == "greedy" else "state_actions_recorded"
                name = "sa-greedy" if a == "sa" else "mab-greedy" + ("" if sym else "+nosym")
                for episodes in (sc.train // 10, sc.train):
                    at = curve[curve["episode"] == episodes].iloc[0]
                    row = dict(experiment="sa_vs_mab", agent=name,
                               train_setting=f"4x4x{k}", train_episodes=episodes, eval_setting="training",
                               eval_episodes=None, metric="win_rate", value=float(at["cum_win_rate"]),
                               wins=int(at["cum_wins"]), games=episodes, seed=s, task=t.id)
                    rows += [row, _fact(row, counted, int(at["actions_recorded"]))]
        for a, trainings in ex.TRANSFER_TRAINING.items():  # tab:exp_1, tab:tl_ucb
            for boards in trainings:
                t = ex.transfer_task(a, boards, sc, s)
                out = store.load(t)
                row = _training_row(t, out, "transfer")
                rows.append(row)
                for (board, mode), g in out.tables["tests"].groupby(["test", "mode"], sort=False):
                    rows.append(dict(row, eval_setting=board, eval_episodes=len(g),
                                     metric="win_rate" if mode == "learning" else "win_rate_frozen",
                                     value=float(g["won"].mean()), wins=int(g["won"].sum()), games=len(g)))
                if a == "greedy" and boards == ("8x8x15",):  # the paper's conclusion times this agent
                    rows.append(_fact(row, "wall_hours", out.info["train_seconds"] / 3600, experiment="timing"))
                    rows.append(_fact(row, "wall_hours", out.info["test_seconds_16x30x99_learning"] / 3600,
                                      experiment="timing", eval_setting="16x30x99", eval_episodes=sc.test))
    df = pd.DataFrame(rows)
    df["source"] = [f"ours (seed {s}, {scale} scale)" for s in df["seed"]]
    for c in ("train_episodes", "eval_episodes", "wins", "games"):
        df[c] = df[c].astype("Int64")
    return df


def transfer_best(store: Store, scale="paper", seed=1) -> pd.DataFrame:
    """Mann-Whitney 'significantly best' marks per column of both transfer tables."""
    sc = ex.SCALES[scale]
    rows = []
    for a, trainings in ex.TRANSFER_TRAINING.items():
        outs = {train_label(b): store.load(ex.transfer_task(a, b, sc, seed)) for b in trainings}
        columns = {"training": {k: o.tables["training"]["won"].to_numpy() for k, o in outs.items()}}
        for board in ex.STANDARD_TESTS:
            for mode in ("learning", "frozen"):
                col = {}
                for k, o in outs.items():
                    t = o.tables["tests"]
                    col[k] = t[(t["test"] == board) & (t["mode"] == mode)]["won"].to_numpy()
                columns[(board, mode)] = col
        for column, samples in columns.items():
            for k, (best, p) in best_of(samples).items():
                board, mode = column if isinstance(column, tuple) else ("training", "learning")
                rows.append(dict(agent=paper_agent(a), train_setting=k, eval_setting=board, mode=mode, best=best,
                                 p_vs_leader=p))
    return pd.DataFrame(rows)


def _note(r) -> str:
    """A one-line reason where our number and the paper's differ beyond our interval."""
    if pd.isna(r.paper):
        return ""
    if r.experiment == "sa_vs_mab" and r.agent == "mab-greedy":
        return "the paper's 4x4 bandit numbers match our agent without symmetries (rows mab-greedy+nosym)"
    if r.experiment == "sa_vs_mab" and r.agent == "sa-greedy":
        return "the paper does not define its state-action key; ours is the whole view, flags included"
    if r.experiment == "sa_vs_mab" and r.metric.endswith("recorded"):
        return "counts depend on the exact key; compare orders of magnitude"
    if pd.notna(r.ci_low) and not (r.ci_low <= r.paper <= r.ci_high):
        if r.metric == "win_rate_frozen":
            return "frozen test; the paper's code keeps learning during tests (compare the win_rate row)"
        if r.eval_setting == "training":
            return ("one training run (seed 1): the interval covers the game outcomes' binomial noise, "
                    "not the run-to-run variation of learning")
        return "one trained agent per row: its training's run-to-run variation is not in the interval"
    return ""


def comparison_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Our numbers beside the paper's (where the paper has one, see :mod:`sweeper.experiments.paper`), with intervals."""
    paper = paper_results()
    key = ["experiment", "agent", "train_setting", "train_episodes", "eval_setting", "metric"]
    ours = summary.copy()
    ours["metric_join"] = ours["metric"].replace({"win_rate_frozen": "win_rate"})
    ours["paper_agent"] = ours["agent"].replace(PAPER_ALIAS)
    for c in ("train_episodes",):
        ours[c] = pd.to_numeric(ours[c], errors="coerce")
        paper[c] = pd.to_numeric(paper[c], errors="coerce")
    merged = ours.merge(paper[key + ["value", "source"]].rename(columns={"value": "paper", "source": "paper_source",
                                                                            "metric": "metric_join",
                                                                            "agent": "paper_agent"}),
                        how="left", on=["experiment", "paper_agent"] + key[2:-1] + ["metric_join"])
    lo, hi = [], []
    for w, g in zip(merged["wins"], merged["games"]):
        if pd.notna(w) and pd.notna(g) and g > 0:
            a, b = wilson(int(w), int(g))
        else:
            a, b = np.nan, np.nan
        lo.append(a)
        hi.append(b)
    merged["ci_low"], merged["ci_high"] = lo, hi
    merged["difference"] = merged["value"] - merged["paper"]
    merged["paper_in_ci"] = np.where(merged["paper"].notna() & merged["ci_low"].notna(),
                                     (merged["paper"] >= merged["ci_low"]) & (merged["paper"] <= merged["ci_high"]),
                                     pd.NA)
    merged["paper_bold"] = [x == "transfer" and (a, t, e) in PAPER_BOLD and m == "win_rate" for x, a, t, e, m in
                            zip(merged["experiment"], merged["agent"], merged["train_setting"], merged["eval_setting"],
                                merged["metric"])]
    merged["note"] = [_note(r) for r in merged.itertuples()]
    cols = ["experiment", "agent", "train_setting", "train_episodes", "eval_setting", "eval_episodes", "metric",
            "value", "ci_low", "ci_high", "paper", "difference", "paper_in_ci", "paper_bold", "note", "wins",
            "games", "seed", "task", "paper_source"]
    return merged[cols].rename(columns={"value": "ours"})

