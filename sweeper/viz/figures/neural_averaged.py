"""The chapter "From a table to a network", its section on averaging the weights: the expert networks trained by
the recipe of ``ext:neural_expert`` with the weights they keep averaged over their last Adam steps
(``ext:neural_expert_averaged``), as trained and playing symmetric (``ext:benchmark_neural_averaged``), each beside
the stored recipe's network of the same seed on the same boards (the first ones of the expert suite). Nothing here
computes a result; every function takes its input, so a test can hand it made runs.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...bench import work_cost
from ...experiments import specs as ex
from ...experiments.reproduce import store_for
from ...experiments.stats import mean_interval, wilson
from . import benchmark as bf
from .neural import SEED_SLACK, SEEDS, TARGETS, neural_runs

#: The training runs and the symmetric scoring of the averaged networks.
SPEC, BENCH_SPEC = "ext:neural_expert_averaged", "ext:benchmark_neural_averaged"
#: The level of the section.
BOARD = "16x30x99"
#: What the page says when the runs are not all stored.
MISSING = ("The networks with averaged weights are not stored yet: `python -m sweeper reproduce "
           "ext:neural_expert_averaged --seeds 1,2,3`, then `python -m sweeper reproduce "
           "ext:benchmark_neural_averaged` (with the extra `deep`) make them.")
#: The networks of the section, as the page names them: the stored recipe's, the averaged ones, and the same
#: trainings' own last weights (which the averaged ones replaced).
RECIPES = {"recipe": "the first expert recipe", "averaged": "the recipe, weights averaged",
           "online": "the same trainings' own last weights"}


def stored_outputs() -> tuple[list, list]:
    """``(task, output)`` of the averaged networks' training runs and of their symmetric scoring: all of a spec's
    runs (paper scale, :data:`SEEDS`), or none of it."""
    st = store_for(None, "paper")
    found = []
    for spec in (SPEC, BENCH_SPEC):
        tasks = ex.all_tasks([spec], "paper", SEEDS)
        found.append([(t, st.load(t)) for t in tasks] if tasks and all(st.status(t) == "ok" for t in tasks) else [])
    return found[0], found[1]


def averaged_runs(outputs=None) -> dict | None:
    """The averaged networks' stored runs: ``runs`` (the frames of :func:`~sweeper.viz.figures.neural.neural_runs`)
    and ``bench`` (those of :func:`~sweeper.viz.figures.benchmark.benchmark_runs`); None when either is not all
    stored. ``outputs``: ``(training outputs, scoring outputs)``."""
    train, scored = stored_outputs() if outputs is None else outputs
    if not train or not scored:
        return None
    online = [out.tables["online"].assign(seed=int(t.params["seed"])) for t, out in train if "online" in out.tables]
    return {"runs": neural_runs(train), "bench": bf.benchmark_runs(scored),
            "online": pd.concat(online, ignore_index=True) if online else pd.DataFrame()}


def _own(tests: pd.DataFrame) -> pd.DataFrame:
    t = tests[(tests["train"] == BOARD) & (tests["test"] == BOARD)]
    return t.set_index("seed")[["wins", "test_games"]]


def _symmetric(bench: dict, boards: int) -> dict:
    label = f"network, symmetric ({bf.SHORT[BOARD]})"
    g = bench["games"]
    g = g[(g["label"] == label) & (g["level"] == bf.LEVEL_OF[BOARD])]
    return {int(s): grp.sort_values("board")["won"].to_numpy(int)[:boards] for s, grp in g.groupby("seed")}


def averaged_play(runs: dict, bench: dict, averaged: dict | None) -> pd.DataFrame:
    """Per seed and recipe (``recipe``: ``ext:neural_expert``; ``averaged``: its weights averaged), the expert
    network's wins on the first expert boards of the benchmark as trained (its own test games) and playing
    symmetric (its benchmark run, on the same first boards); ``runs``/``bench``: the chapter's frames of the
    recipe's networks, ``averaged``: :func:`averaged_runs`. Empty when the averaged networks are not stored."""
    cols = ["recipe", "seed", "boards", "plain_wins", "symmetric_wins"]
    if averaged is None:
        return pd.DataFrame(columns=cols)
    rows = []
    for recipe, (r, b) in {"recipe": (runs, bench), "averaged": (averaged["runs"], averaged["bench"])}.items():
        own = _own(r["tests"])
        n = int(own["test_games"].min())
        sym = _symmetric(b, n)
        for seed in SEEDS:
            if seed in own.index and seed in sym and len(sym[seed]) == n:
                rows.append({"recipe": recipe, "seed": seed, "boards": n, "plain_wins": int(own.loc[seed, "wins"]),
                             "symmetric_wins": int(sym[seed].sum())})
    online = averaged.get("online", pd.DataFrame())
    for r in online.itertuples() if len(online) else ():
        if r.board == BOARD:
            rows.append({"recipe": "online", "seed": int(r.seed), "boards": int(r.test_games),
                         "plain_wins": int(r.wins), "symmetric_wins": np.nan})
    return pd.DataFrame(rows, columns=cols)


def _pooled(g: pd.DataFrame, col: str) -> tuple:
    wins, games = int(g[col].sum()), int(g["boards"].sum())
    return (wins / games, *wilson(wins, games))


def averaged_summary(play: pd.DataFrame) -> pd.DataFrame:
    """:func:`averaged_play` per recipe and way of playing (as trained, symmetric): the seeds' rates, pooled with
    the 95% Wilson interval, the lowest seed, whether the expert target is met, and the change of the averaged
    networks against the recipe's, paired by seed (the same seed, curriculum and boards), with a Student
    t-interval over the seeds."""
    rows = []
    for how, col in (("as trained", "plain_wins"), ("symmetric", "symmetric_wins")):
        rates = {}
        for recipe, g in play.dropna(subset=[col]).groupby("recipe", sort=False):
            g = g.sort_values("seed")
            rate, lo, hi = _pooled(g, col)
            rates[recipe] = (g[col] / g["boards"]).to_numpy(float)
            seed_min = float(rates[recipe].min())
            rows.append({"play": how, "recipe": RECIPES[recipe], "boards": int(g["boards"].iloc[0]),
                         "seeds": " / ".join(f"{v:.3f}" for v in rates[recipe]), "pooled": rate, "lo": lo, "hi": hi,
                         "seed_min": seed_min, "target": TARGETS[BOARD],
                         "met": rate >= TARGETS[BOARD] and seed_min >= TARGETS[BOARD] - SEED_SLACK,
                         "change": np.nan, "change_lo": np.nan, "change_hi": np.nan})
        if {"recipe", "averaged"} <= set(rates) and len(rates["recipe"]) == len(rates["averaged"]) > 1:
            diff, dlo, dhi = mean_interval(rates["averaged"] - rates["recipe"])
            i = next(k for k, r in enumerate(rows) if r["play"] == how and r["recipe"] == RECIPES["averaged"])
            rows[i].update(change=diff, change_lo=dlo, change_hi=dhi)
    return pd.DataFrame(rows)


def averaging_effect(play: pd.DataFrame) -> tuple:
    """The averaging alone: the mean over the seeds of each averaged network's win rate as trained minus that of
    the same training's own last weights (the same games of training, the same boards), with a Student t-interval
    over the seeds; ``(nan, nan, nan, 0)`` without both. The last element: the seeds."""
    a = play[play["recipe"] == "averaged"].set_index("seed")
    o = play[play["recipe"] == "online"].set_index("seed")
    seeds = sorted(set(a.index) & set(o.index))
    if len(seeds) < 2:
        return (np.nan, np.nan, np.nan, len(seeds))
    d = (a.loc[seeds, "plain_wins"] / a.loc[seeds, "boards"] - o.loc[seeds, "plain_wins"] / o.loc[seeds, "boards"])
    return (*mean_interval(d.to_numpy(float)), len(seeds))


#: The table's columns in two parts, each of which fits the book's text column (its header's numbers joined by
#: non-breaking spaces: they never wrap apart).
TABLE_PARTS = {"wins": ["seeds 1\u00a0/\u00a02\u00a0/\u00a03", "pooled [95%]"],
               "recipe": ["against the recipe, by seed [95%]", f"target {TARGETS[BOARD]:.2f} met"]}


def averaged_table(s: pd.DataFrame, part: str | None = None) -> pd.DataFrame:
    """:func:`averaged_summary` for the page (empty when it is); ``part``: the columns of :data:`TABLE_PARTS`
    ``[part]`` only."""
    if s.empty:
        return pd.DataFrame()
    table = pd.DataFrame({
        "play": s["play"], "networks": s["recipe"], TABLE_PARTS["wins"][0]: s["seeds"],
        "pooled [95%]": [f"{r.pooled:.3f} [{r.lo:.3f}, {r.hi:.3f}]" for r in s.itertuples()],
        "against the recipe, by seed [95%]": ["" if np.isnan(r.change) else
                                              f"{r.change:+.3f} [{r.change_lo:+.3f}, {r.change_hi:+.3f}]"
                                              for r in s.itertuples()],
        f"target {TARGETS[BOARD]:.2f} met": s["met"].map(lambda v: "yes" if v else "no"),
    }).set_index(["play", "networks"])
    return table if part is None else table[TABLE_PARTS[part]]


def work_table(facts: pd.DataFrame, averaged: dict | None) -> pd.DataFrame:
    """How much training each recipe's expert networks bought with their CPU (``facts``: the chapter's, of the
    recipe; the averaged networks' own), all phases, the means over the seeds: decisions, gradient steps, CPU
    minutes and decisions per CPU second; empty without the averaged networks."""
    if averaged is None:
        return pd.DataFrame()
    rows = []
    for name, f in (("recipe", facts), ("averaged", averaged["runs"]["facts"])):
        f = f[f["board"] == BOARD]
        rows.append({"networks": RECIPES[name], "seeds": len(f), "decisions": f["decisions"].mean(),
                     "updates": f["updates"].mean(), "cpu_minutes": f["cpu_seconds"].mean() / 60,
                     "decisions_per_cpu_second": (f["decisions"] / f["cpu_seconds"]).mean()})
    return pd.DataFrame(rows).set_index("networks")


#: How much the work per CPU second of the two recipes' runs may differ before the page says one trained more
#: (:func:`averaged_values`).
WORK_FACTOR = 1.2
#: How many times the recipe's decisions the averaged networks' budgets must have bought before the exercise's answer
#: puts a gain the averaging alone does not show on that training (:func:`gain_values`).
GAIN_DECISIONS = 1.5
#: What a win rate's target comes to (:func:`averaged_values`): met (pooled and every seed), reached pooled only, not.
TARGET_WORDS = {2: "met", 1: "reached by the seeds pooled but not by every seed", 0: "not met"}
#: What the work the budgets bought means for the comparison with the recipe's networks (:func:`averaged_values`):
#: the averaged networks' decisions per CPU second more than :data:`WORK_FACTOR` times the recipe's (1), less (-1),
#: neither (0).
WORK_WORDS = {1: "also trained more, and that comparison mixes the averaging with the extra training",
              -1: "also trained less, and that comparison mixes the averaging with the training they missed",
              0: f"trained about as much (their decisions per CPU second within a factor of {WORK_FACTOR:g}), so that "
                 f"comparison is close to the averaging's alone"}


def _verdict(lo: float, hi: float, words: tuple) -> str:
    """``words[0]`` where the interval is above 0, ``words[1]`` where it is below, else ``words[2]``."""
    return words[0] if lo > 0 else words[1] if hi < 0 else words[2]


def averaged_values(s: pd.DataFrame, effect: tuple, work: pd.DataFrame, record=None) -> dict:
    """What the section shows, as named values for the page's prose, from :func:`averaged_summary` (``s``),
    :func:`averaging_effect` (``effect``) and :func:`work_table` (``work``): per way of playing (``trained``,
    ``sym``), the averaged networks pooled and the recipe's (``pooled``, ``recipe``), their lowest seed
    (``seed_min``), the change against the recipe's by seed with its 95% t-interval (``diff``, ``lo``, ``hi``), the
    verdict it allows (``change``: "win more/less than the recipe's" only where the interval excludes 0) and the
    target's (``met``: :data:`TARGET_WORDS`); the same trainings' own last weights (``online``) and the averaging
    alone against them (``alone``, ``alone_lo``, ``alone_hi``, ``alone_seeds``, ``alone_verdict``); the training each
    recipe's budget bought (``decisions``, ``steps``, ``recipe_decisions``, ``recipe_steps``, their ratios
    ``decisions_ratio``, ``steps_ratio``) and what that means for the comparison (``work_verdict``: one recipe trained
    more where its decisions per CPU second are more than :data:`WORK_FACTOR` times the other's); the averaging's own
    cost per expert training decision at the committed bench's unit costs (``bench_us`` with it, ``bench_recipe_us``
    without, ``bench_ratio``; ``record`` as for :func:`sweeper.bench.unit_costs`); and ``boards``, ``seeds``,
    ``target``. An error saying how to make the runs (:data:`MISSING`) when they are not stored."""
    if s.empty or work.empty or np.isnan(effect[0]):
        raise ValueError(MISSING)
    values = {"boards": int(s["boards"].iloc[0]), "target": float(TARGETS[BOARD])}
    for how, k in (("as trained", "trained"), ("symmetric", "sym")):
        g = s[s["play"] == how].set_index("recipe")
        a, r = g.loc[RECIPES["averaged"]], g.loc[RECIPES["recipe"]]
        values.update({f"{k}_pooled": float(a["pooled"]), f"{k}_recipe": float(r["pooled"]),
                       f"{k}_seed_min": float(a["seed_min"]), f"{k}_diff": float(a["change"]),
                       f"{k}_lo": float(a["change_lo"]), f"{k}_hi": float(a["change_hi"]),
                       f"{k}_change": _verdict(a["change_lo"], a["change_hi"], (
                           "win more than the recipe's", "win less than the recipe's",
                           "cannot be told apart from the recipe's")),
                       f"{k}_met": TARGET_WORDS[2 if a["met"] else 1 if a["pooled"] >= a["target"] else 0]})
    values["online"] = float(s[(s["play"] == "as trained") & (s["recipe"] == RECIPES["online"])]["pooled"].iloc[0])
    d, lo, hi, n = effect
    values.update({"alone": float(d), "alone_lo": float(lo), "alone_hi": float(hi), "alone_seeds": int(n),
                   "alone_verdict": _verdict(lo, hi, ("raised the win rate", "lowered the win rate",
                                                      "made no difference the seeds can tell from none"))})
    w0, w1 = work.loc[RECIPES["recipe"]], work.loc[RECIPES["averaged"]]
    r0, r1 = w0["decisions_per_cpu_second"], w1["decisions_per_cpu_second"]
    values.update({"seeds": int(w1["seeds"]), "decisions": float(w1["decisions"]), "steps": float(w1["updates"]),
                   "recipe_decisions": float(w0["decisions"]), "recipe_steps": float(w0["updates"]),
                   "decisions_ratio": float(w1["decisions"] / w0["decisions"]),
                   "steps_ratio": float(w1["updates"] / w0["updates"]),
                   "work_verdict": WORK_WORDS[1 if r1 > WORK_FACTOR * r0 else -1 if r0 > WORK_FACTOR * r1 else 0]})
    us = {k: work_cost(k, BOARD, 1, record=record) * 1e6 for k in ("neural-averaged", "neural")}
    values.update({"bench_us": us["neural-averaged"], "bench_recipe_us": us["neural"],
                   "bench_ratio": us["neural-averaged"] / us["neural"]})
    return values


def gain_values(summary: pd.DataFrame, effect: tuple, work: pd.DataFrame, record=None) -> dict:
    """The exercise's answer as named values for its prose: of :func:`averaged_values`, the averaged networks'
    change against the recipe's as trained (``diff``, ``lo``, ``hi``) on the same ``boards`` over the ``seeds``, the
    averaging alone against the same trainings' own last weights (``alone``, ``alone_lo``, ``alone_hi``,
    ``alone_seeds``) and the decisions and gradient steps each budget bought (``decisions_ratio``, ``steps_ratio``);
    the words each interval allows (``total``, ``alone_words``); and ``reading``: "the training the budgets bought,
    not the averaging alone" where the averaging alone cannot be told from nothing while the gain is agreed on and
    the budgets bought at least :data:`GAIN_DECISIONS` times the decisions, else "these runs cannot tell". An error
    (:data:`MISSING`) when the runs are not stored."""
    v = averaged_values(summary, effect, work, record=record)
    values = {k: v[k] for k in ("boards", "seeds", "alone", "alone_lo", "alone_hi", "alone_seeds", "decisions_ratio",
                                "steps_ratio")}
    values.update({"diff": v["trained_diff"], "lo": v["trained_lo"], "hi": v["trained_hi"],
                   "total": _verdict(v["trained_lo"], v["trained_hi"], (
                       "a gain the seeds agree on", "a loss the seeds agree on",
                       "a change the seeds cannot tell from nothing")),
                   "alone_words": _verdict(v["alone_lo"], v["alone_hi"], (
                       "is a gain", "is a loss", "cannot be told apart from nothing"))})
    alone_none = v["alone_lo"] <= 0 <= v["alone_hi"]
    told = alone_none and v["trained_lo"] > 0 and v["decisions_ratio"] >= GAIN_DECISIONS
    values["reading"] = "the training the budgets bought, not the averaging alone" if told else "these runs cannot tell"
    return values
