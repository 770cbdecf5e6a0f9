"""The chapter "From a table to a network", on its two recipes: how the book's networks learn and what their budgets of
decisions cost at the bench's unit costs (``ext:neural_work``), and the chapter's first networks (``ext:neural``,
budgets of 30 CPU minutes) set beside them on the same boards, by the work each training did. Nothing here computes a
result: the functions read the specs' constants and the committed bench, or take the frames of
:func:`~sweeper.viz.figures.neural.neural_runs`, so a test can hand them made ones.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...bench import work_cost
from ...experiments import neural_runs as nr
from ...experiments.stats import compare_seed_rates, mean_interval
from ...experiments.paper import published_learned_agents
from .neural import KEYS, LEVELS
from .prose import and_list

#: The stretch goals of the book's networks: within this of the exact solver on the same boards (beginner,
#: intermediate), and on expert the best published learned agent's win rate (:func:`stretch_goals`).
SOLVER_SLACK = 0.02

#: How the page names the two recipes.
NAMES = {"work": "the book's networks (`ext:neural_work`)", "cpu": "the first networks (`ext:neural`)"}


def learning_values(record=None) -> dict:
    """How the book's networks learn, from the spec that made them (``ext:neural_work``,
    :mod:`~sweeper.experiments.neural_runs`), as named values for the page's prose: the warm start (``warm_level``,
    ``warm_decisions``, one Adam step on ``warm_minibatch`` views per ``warm_per`` decisions), the expert networks'
    phase before their own level (``exp_phase_level``, ``exp_phase_decisions``), the learning after (``minibatch``
    views per ``per`` decisions, ``lr``), each level's own decisions and all of them (``<key>_own``, ``<key>_total``
    per :data:`~sweeper.viz.figures.neural.KEYS`), the ``checkpoints`` (their shares of a network's decisions, in
    words) and the ``test_boards``; and the CPU minutes the own-level decisions (``<key>_minutes``), the expert
    phase (``exp_phase_minutes``), the warm start (``warm_minutes``) and all of a network's training
    (``<key>_all_minutes``) cost at the unit costs of the committed bench (``record``: a bench record, as for
    :func:`sweeper.bench.unit_costs`)."""
    warm_board, warm_decisions, warm = nr.WORK_WARM_START
    expert = nr.WORK_LEVELS["16x30x99"]["curriculum"][1:]
    values = {"warm_level": nr.WORK_LEVELS[warm_board]["name"], "warm_decisions": int(warm_decisions),
              "warm_minibatch": int(warm["minibatch"]), "warm_per": float(warm["minibatch"] / warm["replay"]),
              "exp_phase_level": " then ".join(nr.WORK_LEVELS[b]["name"] for b, *_ in expert),
              "exp_phase_decisions": int(sum(d for _, d, *_ in expert)),
              "exp_phase_minutes": sum(work_cost("neural", b, d, record=record) for b, d, *_ in expert) / 60,
              "warm_minutes": work_cost("neural-warm-start", warm_board, warm_decisions, record=record) / 60,
              "minibatch": int(nr.NEURAL_LEARNING["minibatch"]),
              "per": float(nr.NEURAL_LEARNING["minibatch"] / nr.NEURAL_LEARNING["replay"]),
              "lr": float(nr.NEURAL_LEARNING["lr"]),
              "checkpoints": and_list(f"{f:.0%}" for f in nr.WORK_CHECKPOINTS),
              "test_boards": int(nr.NEURAL_TEST["paper"])}
    for board, level in nr.WORK_LEVELS.items():
        k = KEYS[board]
        values.update({f"{k}_own": int(level["decisions"]), f"{k}_total": int(nr.work_total(board)),
                       f"{k}_minutes": work_cost("neural", board, level["decisions"], record=record) / 60})
        values[f"{k}_all_minutes"] = values[f"{k}_minutes"] + values["warm_minutes"] + (
            values["exp_phase_minutes"] if board == "16x30x99" else 0.0)
    return values


def recipes_compared(runs: dict, first: dict) -> pd.DataFrame:
    """Per level, the book's networks (``runs``) and the first ones (``first``: the frames of
    :func:`~sweeper.viz.figures.neural.neural_runs` with ``recipe="cpu"``), each on its own level's first boards
    of the suite (the same boards for both): per recipe the means over the seeds of training decisions, gradient
    steps and games (all phases), the mean win rate with its 95% t-interval over the seeds and the seeds' range; then
    the book's minus the first's mean with Welch's 95% interval over the seeds and its verdict
    (:func:`~sweeper.experiments.stats.compare_seed_rates`)."""
    rows = []
    for board in LEVELS:
        rates = {}
        for recipe, r in (("work", runs), ("cpu", first)):
            t, f = r["tests"], r["facts"]
            own = t[(t["train"] == board) & (t["test"] == board)].sort_values("seed")
            fb = f[f["board"] == board]
            if own.empty or fb.empty:
                break
            rates[recipe] = own["win_rate"].to_numpy(float)
            mean, lo, hi = mean_interval(rates[recipe])
            rows.append({"board": board, "recipe": recipe, "seeds": len(own), "boards": int(own["test_games"].iloc[0]),
                         "decisions": float(fb["decisions"].mean()), "gradient_steps": float(fb["updates"].mean()),
                         "games": float(fb["games_all"].mean()), "decisions_min": int(fb["decisions"].min()),
                         "decisions_max": int(fb["decisions"].max()), "win_rate": mean, "lo": lo, "hi": hi,
                         "seed_min": float(rates[recipe].min()), "seed_max": float(rates[recipe].max())})
        if len(rates) == 2:
            c = compare_seed_rates(rates["work"], rates["cpu"])
            rows[-2].update({"difference": c["difference"], "diff_lo": c["low"], "diff_hi": c["high"],
                             "verdict": c["verdict"]})
    return pd.DataFrame(rows)


def recipes_table(c: pd.DataFrame) -> pd.DataFrame:
    """:func:`recipes_compared` for the page: one row per level and recipe, the work first."""
    f = lambda v: f"{v:,.0f}"  # noqa: E731
    diff = [("" if pd.isna(getattr(r, "difference", np.nan)) else
             f"{r.difference:+.3f} [{r.diff_lo:+.3f}, {r.diff_hi:+.3f}] ({r.verdict})") for r in c.itertuples()]
    return pd.DataFrame({
        "level": c["board"], "networks": c["recipe"].map({"work": "book's", "cpu": "first"}),
        "decisions (seeds' range)": [f"{f(r.decisions)} ({f(r.decisions_min)}-{f(r.decisions_max)})"
                                     for r in c.itertuples()],
        "gradient steps": c["gradient_steps"].map(f), "games": c["games"].map(f),
        "win rate [95%, over seeds]": [f"{r.win_rate:.3f} [{r.lo:.3f}, {r.hi:.3f}]" for r in c.itertuples()],
        "seeds": [f"{r.seed_min:.3f}-{r.seed_max:.3f}" for r in c.itertuples()],
        "book's minus first [95%]": diff}).set_index(["level", "networks"])


#: What Welch's interval of the book's minus the first networks' mean allows (:func:`recipes_values`), by the verdict
#: of :func:`~sweeper.experiments.stats.compare_seed_rates`.
RECIPE_VERDICTS = {"more than": "the book's networks win more", "less than": "the book's networks win less",
                   "level with": "the two are level within ±0.01"}


def recipes_values(c: pd.DataFrame) -> dict:
    """:func:`recipes_compared` as named values for the page's prose, per level (``<key>_`` of
    :data:`~sweeper.viz.figures.neural.KEYS`): how many times the first networks' training decisions the book's made
    (``ratio``), the two mean win rates (``book``, ``first``), the difference with Welch's 95% interval over the seeds
    (``diff``, ``lo``, ``hi``) and the verdict it allows (:data:`RECIPE_VERDICTS`; else "the two cannot be told
    apart"); and the ``seeds`` of each side and the ``boards`` each played."""
    values = {}
    for board, g in c.groupby("board", sort=False):
        if len(g) < 2:
            continue
        w, p = g[g["recipe"] == "work"].iloc[0], g[g["recipe"] == "cpu"].iloc[0]
        k = KEYS[board]
        values.update({f"{k}_ratio": float(w["decisions"] / p["decisions"]), f"{k}_book": float(w["win_rate"]),
                       f"{k}_first": float(p["win_rate"]), f"{k}_diff": float(w["difference"]),
                       f"{k}_lo": float(w["diff_lo"]), f"{k}_hi": float(w["diff_hi"]),
                       f"{k}_verdict": RECIPE_VERDICTS.get(w["verdict"], "the two cannot be told apart"),
                       "seeds": int(w["seeds"]), "boards": int(w["boards"])})
    return values


def stretch_goals() -> dict:
    """The stretch goal of each level: ``("solver", SOLVER_SLACK)`` on beginner and intermediate; on expert the best
    win rate a published learned agent reports on 16x30x99 (``published_learned_agents``), with its row."""
    pub = published_learned_agents()
    best = pub[pub["board"] == "16x30x99"].sort_values("win_rate").iloc[-1]
    return {"8x8x10": ("solver", SOLVER_SLACK), "16x16x40": ("solver", SOLVER_SLACK),
            "16x30x99": ("published", float(best["win_rate"]), best)}


def stretch_values(targets: pd.DataFrame, sym: pd.DataFrame) -> dict:
    """Whether the book's networks meet the stretch goals (:func:`stretch_goals`), as named values for the page's
    prose, per level (``<key>_`` of :data:`~sweeper.viz.figures.neural.KEYS`), the seeds pooled on the same boards:
    the ``bar`` (on beginner and intermediate the solver's rate there less :data:`SOLVER_SLACK`, on expert the best
    published learned agent's), ``trained`` and ``symmetric`` (the pooled rates as trained, ``targets``: the frame of
    :func:`~sweeper.viz.figures.neural.against_targets`, and playing symmetric, ``sym``: that of
    :func:`~sweeper.viz.figures.neural_symmetric.symmetric_play`) each with its verdict ("met" or "not met"); and
    ``slack`` and the published agent (``agent``, ``learning``, ``first_click``, ``source``)."""
    goals = stretch_goals()
    row = goals["16x30x99"][2]
    values = {"slack": float(SOLVER_SLACK), **{k: str(row[k]) for k in ("agent", "learning", "first_click", "source")}}
    sym = sym.set_index("board") if len(sym) else sym
    for r in targets.itertuples():
        if np.isnan(r.own):
            continue
        goal, k = goals[r.board], KEYS[r.board]
        bar = r.solver - goal[1] if goal[0] == "solver" else goal[1]
        values.update({f"{k}_bar": float(bar), f"{k}_trained": float(r.own),
                       f"{k}_trained_met": "met" if r.own >= bar else "not met"})
        if r.board in getattr(sym, "index", []):
            v = float(sym.loc[r.board, "pooled"])
            values.update({f"{k}_symmetric": v, f"{k}_symmetric_met": "met" if v >= bar else "not met"})
    return values


__all__ = ["NAMES", "SOLVER_SLACK", "stretch_goals", "stretch_values", "learning_values", "recipes_compared",
           "recipes_table", "RECIPE_VERDICTS", "recipes_values", "checkpoints_values"]


def checkpoints_values() -> dict:
    """Where each level's checkpoints fall, as named values for the chart's caption, from the spec's shares of a
    network's decisions (:data:`~sweeper.experiments.neural_runs.WORK_CHECKPOINTS`; ``shares``) and its curriculum:
    a share that falls in the curriculum is not tested, so a panel with a curriculum starts later and has fewer points.
    Per level (``<key>_`` of :data:`~sweeper.viz.figures.neural.KEYS`): the decisions of its curriculum (``first``)
    and the boards it plays (``boards``), the network's ``total`` decisions, its panel's ``points`` (the end's
    included) and the share of the first (``from``)."""
    values = {"shares": and_list(f"{f:.0%}" for f in nr.WORK_CHECKPOINTS)}
    for board, level in nr.WORK_LEVELS.items():
        first, total, k = sum(ph[1] for ph in level["curriculum"]), nr.work_total(board), KEYS[board]
        kept = [f for f in nr.WORK_CHECKPOINTS if round(f * total) > first]
        values.update({f"{k}_first": int(first), f"{k}_total": int(total), f"{k}_points": len(kept) + 1,
                       f"{k}_from": float(min(kept, default=1.0)),
                       f"{k}_boards": " then ".join(ph[0] for ph in level["curriculum"])})
    return values
