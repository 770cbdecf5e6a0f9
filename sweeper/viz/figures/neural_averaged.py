"""The chapter "From a table to a network", its section on averaging the weights: the expert networks trained by
the recipe of ``ext:neural_expert`` with the weights they keep averaged over their last Adam steps
(``ext:neural_expert_averaged``), as trained and playing symmetric (``ext:benchmark_neural_averaged``), each beside
the stored recipe's network of the same seed on the same boards (the first ones of the expert suite). Nothing here
computes a result; every function takes its input, so a test can hand it made runs.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...experiments import specs as ex
from ...experiments.reproduce import store_for
from ...experiments.stats import mean_interval, wilson
from . import benchmark as bf
from .neural import SEED_SLACK, SEEDS, TARGETS, neural_runs
from .neural_symmetric import change_words

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


def training_minutes(averaged: dict | None) -> tuple:
    """The least and most CPU minutes of training of the averaged networks (curriculum included), as their runs
    recorded them; ``(nan, nan)`` when they are not stored."""
    if averaged is None:
        return (np.nan, np.nan)
    minutes = averaged["runs"]["facts"]["cpu_seconds"] / 60
    return (float(minutes.min()), float(minutes.max()))


def averaged_sentence(s: pd.DataFrame, minutes: tuple = (np.nan, np.nan),
                      effect: tuple = (np.nan, np.nan, np.nan, 0)) -> str:
    """What :func:`averaged_summary` shows, in the words its numbers allow: per way of playing, the averaged
    networks' change against the recipe's (a gain only where the interval over the seeds excludes 0) and where
    they stand against the target; with ``effect`` (:func:`averaging_effect`), the averaging alone; with
    ``minutes`` (:func:`training_minutes`), their training CPU."""
    if s.empty:
        return MISSING
    parts = []
    for how, g in s.groupby("play", sort=False):
        avg = g[g["recipe"] == RECIPES["averaged"]]
        if avg.empty:
            continue
        r = avg.iloc[0]
        if np.isnan(r.change):
            change = "have no recipe networks to be set against"
        else:
            change = change_words(r.change, r.change_lo, r.change_hi, " than the recipe's", "the recipe's",
                                  " over the seeds")
        if r.met:
            target = f"meet the target of {r.target:.2f} (pooled {r.pooled:.3f}, lowest seed {r.seed_min:.3f})"
        elif r.pooled >= r.target:
            target = (f"reach the target of {r.target:.2f} pooled ({r.pooled:.3f}) but not with every seed (lowest "
                      f"{r.seed_min:.3f}, more than {SEED_SLACK:.2f} below it)")
        else:
            target = (f"stay {r.target - r.pooled:.3f} below the target of {r.target:.2f} pooled ({r.pooled:.3f}, "
                      f"lowest seed {r.seed_min:.3f})")
        parts.append(f"{how}, the networks with averaged weights {change}, and {target}")
    if not parts:
        return MISSING
    if not np.isnan(effect[0]):
        d, lo, hi, n = effect
        verdict = "wins more" if lo > 0 else "wins less" if hi < 0 else "cannot be told apart from them"
        parts.append(f"the averaging alone, set against the same {n} trainings' own last weights on the same boards, "
                     f"{verdict}: {d:+.3f} [{lo:+.3f}, {hi:+.3f}] over the seeds")
    trained = ("" if np.isnan(minutes[1]) else
               f" Each averaged network trained for {minutes[0]:.1f} to {minutes[1]:.1f} CPU minutes, curriculum "
               f"included, as its run recorded.")
    return f"On the first {int(s['boards'].iloc[0]):,} expert boards: " + "; ".join(parts) + "." + trained


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


def work_clause(facts: pd.DataFrame, averaged: dict | None) -> str:
    """:func:`work_table` in words, and what a difference in it means for the comparison with the recipe."""
    w = work_table(facts, averaged)
    if w.empty:
        return ""
    (d0, u0, r0), (d1, u1, r1) = (tuple(w.loc[RECIPES[k], ["decisions", "updates", "decisions_per_cpu_second"]])
                                  for k in ("recipe", "averaged"))
    text = (f"In their budgets the averaged networks made {d1:,.0f} decisions and {u1:,.0f} gradient steps each (the "
            f"means over the seeds, all phases: {r1:,.0f} decisions per CPU second), the recipe's {d0:,.0f} and "
            f"{u0:,.0f} ({r0:,.0f} per CPU second).")
    if r1 > 1.2 * r0 or r0 > 1.2 * r1:
        text += (" The averaging costs a few multiply-adds per step and the rest of the code is the same, so the "
                 "difference is not the method's but the machine's: the two sets of runs were made under different "
                 "loads, and a process's CPU second buys less training when it shares the cores with more runs. The "
                 "comparison with the recipe's networks mixes the averaging with that; the comparison with the same "
                 "trainings' own last weights does not.")
    return text


def gain_sentence(summary: pd.DataFrame, effect: tuple, work: pd.DataFrame) -> str:
    """The exercise's answer: the averaged networks' gain over the recipe's as trained, split into what the averaging
    alone shows (:func:`averaging_effect`) and the training the budgets bought (:func:`work_table`)."""
    row = summary[(summary["play"] == "as trained") & (summary["recipe"] == RECIPES["averaged"])]
    if row.empty or work.empty or np.isnan(effect[0]) or np.isnan(row["change"].iloc[0]):
        return MISSING
    r = row.iloc[0]
    d, lo, hi, n = effect
    more = work.loc[RECIPES["averaged"]] / work.loc[RECIPES["recipe"]]
    alone = ("cannot be told apart from nothing" if lo <= 0 <= hi else "is a gain" if lo > 0 else "is a loss")
    total = ("a gain the seeds agree on" if r.change_lo > 0 else "a loss the seeds agree on" if r.change_hi < 0
             else "a change the seeds cannot tell from nothing")
    return (f"As trained, on the same {r.boards:,} boards, the averaged networks win {r.change:+.3f} "
            f"[{r.change_lo:+.3f}, {r.change_hi:+.3f}] against the recipe's ({r.seeds.count('/') + 1} seeds, a "
            f"t-interval over them): {total}. The averaging alone, against the same {n} trainings' own last weights, "
            f"{alone}: {d:+.3f} [{lo:+.3f}, {hi:+.3f}]. Their budgets bought {more['decisions']:.1f} times the "
            f"decisions and {more['updates']:.1f} times the gradient steps of the recipe's, in "
            f"{work.loc[RECIPES['averaged'], 'cpu_minutes']:.1f} CPU minutes against "
            f"{work.loc[RECIPES['recipe'], 'cpu_minutes']:.1f}." + (
                " So the averaging alone does not account for the gain; it goes with the training the budgets bought."
                if lo <= 0 <= hi and r.change_lo > 0 and more["decisions"] >= 1.5 else "")
            + " The averaged runs' own last weights come close to the recipe trained again under the same load: they "
              "differ from it only in that each phase began from the previous phase's averaged weights; training the "
              "recipe again on the same seeds under the same load would close that gap.")
