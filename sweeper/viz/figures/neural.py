"""The chapter "From a table to a network": the stored runs of ``ext:neural`` beside the floor, the paper's bandit
and the exact solver.

Training a network needs the optional extra ``deep`` (``make deep``), so the chapter always reads the committed
paper-scale runs, whatever :func:`~sweeper.viz.figures.results.scale` says (as the deep-RL chapter does), and the
players it is compared with at the same scale (``ext:how_good``: random clicks, the paper's greedy agent trained on
beginner and frozen, and the exact solver, each on its 10,000 test games of every level under the reference
opening). Nothing here computes a result; every function takes its input frames, so a test can hand it made ones.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...experiments import specs as ex
from ...experiments.reproduce import store_for
from ...experiments.stats import wilson

#: The three levels, in reading order.
LEVELS = ("8x8x10", "16x16x40", "16x30x99")
#: The seeds the chapter's networks were trained with.
SEEDS = (1, 2, 3)
#: The win rates set as targets for a network trained for about 30 CPU minutes on each level, under the reference
#: opening: most of the way from the paper's bandit to the exact solver (the solver's own rates are in the table
#: beside them).
TARGETS = {"8x8x10": 0.86, "16x16x40": 0.75, "16x30x99": 0.25}
#: What the comparison players are called on the page.
PLAYERS = {"random": "random clicks", "greedy": "greedy bandit (table, trained on beginner)",
           "solver": "exact solver"}


def stored_outputs() -> list:
    """``(task, output)`` of every stored run of ``ext:neural`` (paper scale, :data:`SEEDS`), or one clear error
    naming the command that trains the missing ones."""
    st = store_for(None, "paper")
    tasks = ex.all_tasks(["ext:neural"], "paper", SEEDS)
    missing = [t for t in tasks if st.status(t) != "ok"]
    if missing:
        raise ValueError(f"{len(missing)} runs of ext:neural are missing: `make deep` installs the optional extra "
                         f"'deep', then `python -m sweeper reproduce ext:neural --seeds 1,2,3` trains them")
    return [(t, st.load(t)) for t in tasks]


def neural_runs(outputs=None) -> dict:
    """The stored runs as four tidy frames: ``facts`` (per network: board, seed, games, decisions, gradient steps,
    CPU seconds of training, parameters), ``checkpoints`` (board, seed, games and CPU seconds of training so far,
    frozen test win rate on its own board [95% Wilson]), ``tests`` (train board, seed, test board, win rate [95%
    Wilson], revealed share, the quality of its decisions) and ``mistakes`` (train board, seed, and the worst
    decisions' rows with their views and mines as arrays in the column ``arrays``)."""
    outputs = stored_outputs() if outputs is None else outputs
    facts, points, tests, wrong = [], [], [], []
    for t, out in outputs:
        board, seed = t.params["board"], t.params["seed"]
        i = out.info
        facts.append({"board": board, "seed": seed, "games": i["train_games"], "decisions": i["train_decisions"],
                      "updates": i["train_updates"], "cpu_seconds": i["train_cpu_seconds"],
                      "parameters": i["parameters"], "agent": i["agent"]})
        points.append(out.tables["checkpoints"].assign(board=board, seed=seed))
        tests.append(out.tables["tests"].rename(columns={"board": "test"}).assign(train=board, seed=seed))
        m = out.tables["mistakes"]
        if len(m):
            arrays = out.arrays.get("mistakes", {})
            wrong.append(m.rename(columns={"board": "test"}).assign(
                train=board, seed=seed, view=[arrays[f"{n}_view"] for n in m["name"]],
                mines=[arrays[f"{n}_mines"] for n in m["name"]]))
    return {"facts": pd.DataFrame(facts), "checkpoints": pd.concat(points, ignore_index=True),
            "tests": pd.concat(tests, ignore_index=True),
            "mistakes": pd.concat(wrong, ignore_index=True) if wrong else pd.DataFrame()}


def pooled(tests: pd.DataFrame, by=("train", "test")) -> pd.DataFrame:
    """Win rates over the seeds: per group the seeds, the wins and games pooled with their 95% Wilson interval,
    and the lowest and highest seed's rate (the spread between networks, which the pooled interval does not
    show)."""
    rows = []
    for key, g in tests.groupby(list(by), sort=False):
        wins, games = int(g["wins"].sum()), int(g["test_games"].sum())
        lo, hi = wilson(wins, games)
        rows.append({**dict(zip(by, key if isinstance(key, tuple) else (key,))), "seeds": g["seed"].nunique(),
                     "wins": wins, "games": games, "win_rate": wins / games, "lo": lo, "hi": hi,
                     "seed_min": float(g["win_rate"].min()), "seed_max": float(g["win_rate"].max())})
    return pd.DataFrame(rows)


def transfer_table(tests: pd.DataFrame) -> pd.DataFrame:
    """Rows: the level a network was trained on; columns: the level it is tested on; each cell the pooled win
    rate [95% Wilson] and the range over the seeds."""
    p = pooled(tests)
    cell = {(r.train, r.test): f"{r.win_rate:.3f} [{r.lo:.3f}, {r.hi:.3f}]; seeds {r.seed_min:.3f}-{r.seed_max:.3f}"
            for r in p.itertuples()}
    trains = [b for b in LEVELS if b in set(p["train"])]
    tests_ = [b for b in LEVELS if b in set(p["test"])]
    return pd.DataFrame({f"tested on {b}": [cell.get((a, b), "") for a in trains] for b in tests_},
                        index=pd.Index([f"trained on {a}" for a in trains], name=None))


def comparison_players() -> pd.DataFrame:
    """Random clicks, the paper's greedy agent (trained on beginner, frozen) and the exact solver on each level
    under the reference opening (``ext:how_good``, paper scale, seed 1): player, board, wins, games, win rate and
    its 95% Wilson interval."""
    st = store_for(None, "paper")
    rows = []
    for t in ex.all_tasks(["ext:how_good"], "paper"):
        p = t.params
        if t.kind == "player" and p["opening"] == "reference" and p["player"] in PLAYERS:
            g = st.load(t).tables["games"]
            rows.append({"player": p["player"], "board": p["board"], "wins": int(g["won"].sum()), "games": len(g)})
        elif t.kind != "player" and p["agent"] == "greedy":
            tests = st.load(t).tables["tests"]
            for board, g in tests[tests["opening"] == "reference"].groupby("test", sort=False):
                rows.append({"player": "greedy", "board": board, "wins": int(g["won"].sum()), "games": len(g)})
    if not rows:
        raise ValueError("the runs of ext:how_good are missing: `python -m sweeper reproduce ext:how_good`")
    df = pd.DataFrame(rows)
    df["win_rate"] = df["wins"] / df["games"]
    ci = [wilson(w, n) for w, n in zip(df["wins"], df["games"])]
    df["lo"], df["hi"] = [c[0] for c in ci], [c[1] for c in ci]
    return df


def against_targets(tests: pd.DataFrame, players: pd.DataFrame) -> pd.DataFrame:
    """Per level: the networks trained on it (pooled over the seeds), the best network tested on it whatever it
    was trained on, the target, and the players beside them; ``short`` is how far the networks trained on the
    level fall below the target (negative: above it). Columns: board, target, own (the networks trained on the
    level) with own_lo and own_hi (95% Wilson, seeds pooled), best and best_from (the best network on the level
    and the level it was trained on), random, greedy, solver, short."""
    p = pooled(tests)
    rows = []
    for b in LEVELS:
        own = p[(p["train"] == b) & (p["test"] == b)]
        on = p[p["test"] == b]
        if on.empty:
            continue
        best = on.loc[on["win_rate"].idxmax()]
        row = {"board": b, "target": TARGETS[b],
               "own": float(own["win_rate"].iloc[0]) if len(own) else np.nan,
               "own_lo": float(own["lo"].iloc[0]) if len(own) else np.nan,
               "own_hi": float(own["hi"].iloc[0]) if len(own) else np.nan,
               "best": float(best["win_rate"]), "best_from": best["train"]}
        for name in PLAYERS:
            r = players[(players["player"] == name) & (players["board"] == b)]
            row[name] = float(r["win_rate"].iloc[0]) if len(r) else np.nan
        row["short"] = row["target"] - row["own"]
        rows.append(row)
    return pd.DataFrame(rows)


def at_cpu(points: pd.DataFrame, seconds: float) -> pd.DataFrame:
    """Per level and seed, the last checkpoint reached within ``seconds`` CPU seconds of training (its frozen test
    win rate on its own level): what the budget bought."""
    within = points[points["cpu_seconds"] <= seconds]
    return within.sort_values("cpu_seconds").groupby(["board", "seed"], sort=False).tail(1).sort_values(
        ["board", "seed"]).reset_index(drop=True)


def findings(runs: dict, players: pd.DataFrame) -> dict:
    """Sentences generated from the numbers: ``targets`` (each level against its target and the solver),
    ``transfer`` (what a network trained on one level does on the others) and ``speed`` (CPU seconds and games)."""
    t = against_targets(runs["tests"], players)
    parts = []
    for r in t.itertuples():
        if np.isnan(r.own):
            continue
        verdict = "reaches" if r.own >= r.target else f"falls {r.target - r.own:.3f} short of"
        within = " (inside the interval)" if r.own < r.target <= r.own_hi else ""
        parts.append(f"on {r.board}, the networks trained there win {r.own:.3f} ([{r.own_lo:.3f}, "
                     f"{r.own_hi:.3f}], seeds pooled) and so {verdict} the target of {r.target:.2f}{within}; the "
                     f"exact solver wins {r.solver:.3f} and the paper's greedy agent {r.greedy:.3f}")
    p = pooled(runs["tests"])
    moved = []
    for r in p[p["train"] != p["test"]].itertuples():
        own = p[(p["train"] == r.test) & (p["test"] == r.test)]
        if len(own):
            word = "more than" if r.lo > own["hi"].iloc[0] else "less than" if r.hi < own["lo"].iloc[0] else \
                "as much as (the intervals overlap)"
            moved.append(f"trained on {r.train}, a network wins {r.win_rate:.3f} on {r.test}, {word} the networks "
                         f"trained on {r.test} ({own['win_rate'].iloc[0]:.3f})")
    f = runs["facts"]
    speed = "; ".join(f"{b}: {g['games'].mean():,.0f} games in {g['cpu_seconds'].mean() / 60:.1f} CPU minutes"
                      for b, g in f.groupby("board", sort=False))
    return {"targets": ("Per level: " + "; ".join(parts) + ".") if parts else "",
            "transfer": ("; ".join(moved) + ".") if moved else "", "speed": f"Training, mean over the seeds: {speed}."}


__all__ = ["LEVELS", "SEEDS", "TARGETS", "PLAYERS", "stored_outputs", "neural_runs", "pooled", "transfer_table",
           "comparison_players", "against_targets", "at_cpu", "findings"]
