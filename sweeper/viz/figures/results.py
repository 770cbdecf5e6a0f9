"""Where the book's results live, and how a page reads them.

Normally the committed paper-scale results in ``results/`` (``python -m sweeper reproduce`` / ``make reproduce``
recomputes them); with the environment variable ``SWEEPER_SCALE=quick`` (the notebook tests) a quick-scale
reproduction in ``.cache/quick-results`` (``make quick-results``, which ``make test`` runs first). Nothing here
computes a result: a missing one is an error that names the command computing it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from ...agents.kinds import load_agent
from ...experiments import specs as ex
from ...experiments.reproduce import REPO, default_results, read_table, store_for, table_path
from ...experiments.specs import BAND_SEEDS


SCALE_ENV = "SWEEPER_SCALE"


def scale() -> str:
    s = os.environ.get(SCALE_ENV, "paper")
    if s not in ex.SCALES:
        raise ValueError(f"{SCALE_ENV} must be one of {sorted(ex.SCALES)}, got {s!r}")
    return s


def results_dir() -> Path:
    return default_results(scale())


def reproduce_command(ids=(), seeds=None) -> str:
    """The command that computes the given experiments (all of the paper's by default) at the current scale."""
    sc = scale()
    root = results_dir()
    shown = root.relative_to(REPO) if root.is_relative_to(REPO) else root
    where = "" if sc == "paper" else f" --scale {sc} --results {shown}"
    extra = f" --seeds {','.join(map(str, seeds))}" if seeds else ""
    return " ".join(part for part in ["python -m sweeper reproduce", *ids, where.strip(), extra.strip()] if part)


def _ready(sc: str) -> Path:
    """The comparison file of scale ``sc`` (an error naming the command that makes it if it is missing)."""
    root = results_dir()
    path = table_path("comparison", root, sc)
    if not path.exists():
        make = "make reproduce" if sc == "paper" else "make quick-results"
        raise ValueError(f"no {sc}-scale results in {root}: run `{make}` (or `{reproduce_command()}`)")
    return path


def comparison() -> pd.DataFrame:
    """Every number we report beside the paper's (see :func:`sweeper.experiments.reproduce.comparison_table`),
    checked against its manifest (:func:`sweeper.experiments.reproduce.read_table`): an edited, half-written or
    stale table is an error, never shown."""
    _ready(scale())
    return read_table("comparison", results_dir(), scale())


def store():
    """The stored runs of the scale the pages show. A page reads its own experiment through it without the rest
    of the reproduction (:func:`ensure_spec` / :func:`ensure_tasks` name the command computing a missing run);
    only the summary tables (:func:`comparison`) need every spec of the scale."""
    return store_for(results_dir(), scale(), exact_source=scale() != "paper")


def scale_note() -> str:
    """A one-line statement of which results a page shows."""
    sc = ex.SCALES[scale()]
    where = "committed in `results/`" if scale() == "paper" else "computed for this test run"
    return (f"Results on this page: **{sc.name} scale** ({sc.train:,} training games per agent, {sc.test:,} test "
            f"games per level, seed 1), {where}; rerun with `python -m sweeper reproduce --scale {sc.name}`.")


def current_scale():
    """The :class:`~sweeper.experiments.specs.Scale` of the scale the pages show (:func:`scale`)."""
    return ex.SCALES[scale()]


def curve(task) -> pd.DataFrame:
    """The stored learning curve (table ``curve``) of ``task``'s run."""
    return store().load(task).tables["curve"]


def trained_agent(agent: str = "greedy"):
    """The agent trained for fig:exp_1 (greedy or ucb:0.1 on 8x8x10), as saved with its run."""
    if agent not in ex.TRANSFER_TRAINING:
        raise ValueError(f"only {sorted(ex.TRANSFER_TRAINING)} are saved with their runs")
    path = store().path(ex.base_task(agent, current_scale(), 1)) / "agent.npz"
    return load_agent(path)


#: The first-click tile of our ``safe`` and ``zero`` openings in the stored runs (the engine's default corner).
FIRST_CLICK = (0, 0)


def ensure_spec(spec_id: str):
    """Make sure an extra spec's runs (seed 1) exist at the current scale; returns (store, tasks)."""
    tasks = ex.all_tasks([spec_id], scale())
    return ensure_tasks(tasks, spec_id, seeds=None), tasks


def paper_spec(spec_id: str, seeds=None, needs: str = ""):
    """(store, tasks) of an experiment's committed paper-scale runs, whatever scale the pages show: for a chapter
    that compares with paper-scale runs it cannot recompute (the networks of the optional extra ``deep``). A
    missing run is one clear error naming the command (and ``needs``, what that command needs first)."""
    st = store_for(None, "paper")
    tasks = ex.all_tasks([spec_id], "paper", seeds or (1,))
    missing = [t for t in tasks if st.status(t) != "ok"]
    if missing:
        extra = f" --seeds {','.join(map(str, seeds))}" if seeds else ""
        raise ValueError(f"{len(missing)} runs of {spec_id} are missing: {needs}`python -m sweeper reproduce "
                         f"{spec_id}{extra}` computes them")
    return st, tasks


def band_seeds() -> tuple:
    return BAND_SEEDS[scale()]


def ensure_tasks(tasks, what: str, seeds="band"):
    """The store, after making sure ``tasks`` are done (quick scale: computed on demand;
    paper scale: an error naming the command that computes them)."""
    st = store()
    missing = [t for t in dict.fromkeys(tasks) if st.status(t) != "ok"]
    if missing:
        raise ValueError(f"{len(missing)} runs of {what} are missing: run "
                         f"`{reproduce_command([what], band_seeds() if seeds == 'band' else None)}`")
    return st


def curriculum_work(info: dict) -> dict:
    """The work a stored neural run did before its own board (its curriculum's phases, from the ``info`` of a
    ``neural_bandit`` task): ``games``, ``decisions`` and ``updates`` (gradient steps) summed over the phases, 0 for a
    run without a curriculum."""
    return {k: sum(int(v) for v in info.get(f"curriculum_{k}", [])) for k in ("games", "decisions", "updates")}


def network_work(params: dict, info: dict) -> list:
    """The phases of a stored neural run (the ``params`` of its ``neural_bandit`` task and its ``info``) as the
    bench prices them: ``(learner, board, decisions)`` per phase, in order. A curriculum phase that learns as the book's
    warm start (:data:`~sweeper.experiments.neural_runs.WORK_WARM_START`) is the bench's ``neural-warm-start``; every
    other phase, the run's own board last, is ``neural``, which the bench measures with the book's learning (a run
    that learns otherwise is refused: the bench has no unit for it)."""
    from ...experiments.neural_runs import NEURAL_LEARNING, WORK_LEARNING, WORK_WARM_START
    own = {k: params.get(k) for k in NEURAL_LEARNING}
    if own != NEURAL_LEARNING or params.get("learning") != WORK_LEARNING:
        raise ValueError(f"the run learns otherwise than the book's recipe ({own}, {params.get('learning')}): the "
                         f"bench has no unit cost for it")
    phases = []
    for spec, board, decisions in zip(params.get("curriculum") or [], info.get("curriculum_boards", []),
                                      info.get("curriculum_decisions", [])):
        warm = len(spec) > 2 and spec[2] == WORK_WARM_START[2]
        if len(spec) > 2 and not warm:
            raise ValueError(f"a curriculum phase learns otherwise than the bench measures: {spec}")
        phases.append(("neural-warm-start" if warm else "neural", board, int(decisions)))
    return phases + [("neural", params["board"], int(info["train_decisions"]))]
