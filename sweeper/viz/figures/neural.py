"""The chapter "From a table to a network": the book's networks, the stored runs of ``ext:neural_work_beginner``,
``ext:neural_work_intermediate`` and ``ext:neural_work_expert`` (three seeds each, one recipe, each trained on a budget
of decisions, curriculum included), beside random clicks, the paper's greedy table, MaskablePPO and the exact solver on
the same boards of the benchmark; and the chapter's first networks, ``ext:neural`` (budgets of 30 CPU minutes), kept
as an ablation (``recipe="cpu"``).
Training is counted in work (decisions, gradient steps, environment steps); the CPU seconds the runs recorded are a
record only (:func:`~sweeper.viz.figures.deep.clock_noise`).

Training a network needs the optional extra ``deep`` (``make deep``), so the chapter always reads the committed
paper-scale runs, whatever :func:`~sweeper.viz.figures.results.scale` says (as the deep-RL chapter does). Every
network is tested, at its checkpoints and at the end, on the first 1,000 boards of each level's benchmark suite;
the other players are read from the benchmark's stored runs on exactly those boards (:func:`comparison_players`).
Nothing here computes a result; every function takes its input frames, so a test can hand it made ones.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...experiments import specs as ex
from ...experiments.reproduce import store_for
from ...experiments.stats import compare_seed_rates, mean_interval, order as interval_order, seed_summary, wilson
from . import benchmark as bf
from . import regret as rf
from .beyond import belief, calibration_error
from .prose import and_list
from .results import curriculum_work, paper_spec

#: The three levels, in reading order.
LEVELS = ("8x8x10", "16x16x40", "16x30x99")
#: The stored runs of each level, per recipe: ``work``, the book's networks (``ext:neural_work``: one recipe, budgets of
#: decisions); ``cpu``, the chapter's first networks (``ext:neural``: budgets of 30 CPU minutes, kept as an ablation).
RECIPES = {"work": {"8x8x10": "ext:neural_work_beginner", "16x16x40": "ext:neural_work_intermediate",
                    "16x30x99": "ext:neural_work_expert"},
           "cpu": {"8x8x10": "ext:neural_beginner", "16x16x40": "ext:neural_intermediate",
                   "16x30x99": "ext:neural_expert"}}
#: The book's networks.
SPECS = RECIPES["work"]
#: The seeds the chapter's networks were trained with.
SEEDS = (1, 2, 3)
#: The targets the project set for the book's networks under the reference opening, on the first 1,000 boards of each
#: level's suite: the pooled win rate of the three seeds, and no seed more than :data:`SEED_SLACK` below it.
TARGETS = {"8x8x10": 0.87, "16x16x40": 0.80, "16x30x99": 0.35}
SEED_SLACK = 0.02
#: What the comparison players are called on the page.
PLAYERS = {"random": "random clicks", "greedy": "greedy bandit (table, trained on beginner)",
           "solver": "exact solver"}


def stored_outputs(recipe: str = "work") -> list:
    """``(task, output)`` of every stored run of the three levels by ``recipe`` (a key of :data:`RECIPES`; paper
    scale, :data:`SEEDS`), or one clear error naming the command that trains the missing ones."""
    if recipe not in RECIPES:
        raise ValueError(f"recipe must be one of {', '.join(RECIPES)}, got {recipe!r}")
    outputs = []
    for spec in RECIPES[recipe].values():
        st, tasks = paper_spec(spec, SEEDS, needs="`make deep` installs the optional extra 'deep', then ")
        outputs += [(t, st.load(t)) for t in tasks]
    return outputs


def neural_runs(outputs=None, recipe: str = "work") -> dict:
    """The stored runs as tidy frames: ``facts`` (per network: board, seed, ``path`` (the boards it learnt on, in
    order), games, decisions and gradient steps of training on its own board (``games``, ``decisions_own``,
    ``updates_own``) and in all phases (``games_all``, ``decisions``, ``updates``), the CPU seconds recorded (a
    record only), the machine's CPU, weights), ``checkpoints`` (the same counts so far, ``*_all`` with the
    curriculum's, frozen test win rate on its own level [95% Wilson]), ``tests`` (train board, seed, test board, win
    rate [95% Wilson], revealed share, test decisions and CPU, the quality of its decisions), ``mistakes`` (train
    board, seed, the worst decisions' rows with their views and mines as arrays in the columns ``view`` and
    ``mines``) and ``calibration`` (train board, seed, test board and the bins of the network's P(mine) against the
    exact probabilities). Every test of every network plays the same boards: the first ones of its level's
    benchmark suite. ``recipe``: whose stored runs are read when ``outputs`` is not given (:data:`RECIPES`)."""
    outputs = stored_outputs(recipe) if outputs is None else outputs
    facts, points, tests, wrong, cal = [], [], [], [], []
    for t, out in outputs:
        board, seed = t.params["board"], t.params["seed"]
        i = out.info
        before = curriculum_work(i)
        path = list(dict.fromkeys(i.get("curriculum_boards", []) + [board]))
        facts.append({"board": board, "seed": seed, "path": " → ".join(path), "games": i["train_games"],
                      "games_all": i["train_games"] + before["games"],
                      "decisions": i["train_decisions"] + before["decisions"],
                      "updates": i["train_updates"] + before["updates"],
                      "decisions_own": i["train_decisions"], "updates_own": i["train_updates"],
                      "cpu_seconds": i.get("total_train_cpu_seconds", i["train_cpu_seconds"]),
                      "machine": (i.get("machine") or {}).get("cpu", "not recorded"),
                      "parameters": i["parameters"], "agent": i["agent"]})
        cp = out.tables["checkpoints"]
        if "total_cpu_seconds" in cp:
            cp = cp.assign(cpu_seconds=cp["total_cpu_seconds"]).drop(columns="total_cpu_seconds")
        points.append(cp.assign(board=board, seed=seed, games_all=cp["games"] + before["games"],
                                decisions_all=cp["decisions"] + before["decisions"],
                                updates_all=cp["updates"] + before["updates"]))
        tt = out.tables["tests"]
        tests.append(tt.rename(columns={"board": "test"}).assign(train=board, seed=seed))
        if "calibration" in out.tables:
            cal.append(out.tables["calibration"].rename(columns={"board": "test"}).assign(train=board, seed=seed))
        m = out.tables["mistakes"]
        if len(m):
            arrays = out.arrays.get("mistakes", {})
            wrong.append(m.rename(columns={"board": "test"}).assign(
                train=board, seed=seed, view=[arrays[f"{n}_view"] for n in m["name"]],
                mines=[arrays[f"{n}_mines"] for n in m["name"]]))
    return {"facts": pd.DataFrame(facts), "checkpoints": pd.concat(points, ignore_index=True),
            "tests": pd.concat(tests, ignore_index=True),
            "mistakes": pd.concat(wrong, ignore_index=True) if wrong else pd.DataFrame(),
            "calibration": pd.concat(cal, ignore_index=True) if cal else pd.DataFrame()}


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


def transfer_table(tests: pd.DataFrame, spread: bool = False) -> pd.DataFrame:
    """Rows: the level a network was trained on; columns: the level it is tested on; each cell the pooled win
    rate [95% Wilson] of the seeds' networks, or with ``spread=True`` the lowest and highest seed's own rate."""
    p = pooled(tests)
    cell = {(r.train, r.test): (f"{r.seed_min:.3f}-{r.seed_max:.3f}" if spread else
                                f"{r.win_rate:.3f} [{r.lo:.3f}, {r.hi:.3f}]") for r in p.itertuples()}
    trains = [b for b in LEVELS if b in set(p["train"])]
    tests_ = [b for b in LEVELS if b in set(p["test"])]
    return pd.DataFrame({f"on {b}": [cell.get((a, b), "") for a in trains] for b in tests_},
                        index=pd.Index([f"from {a}" for a in trains], name=None))


def yardstick(outputs=None, networks: str = "work") -> dict:
    """The benchmark's stored paper-scale runs (``ext:benchmark``, and the networks' and ``ext:benchmark_ppo`` when
    all of a spec's runs are stored) as the frames of :func:`~sweeper.viz.figures.benchmark.benchmark_runs`; an error
    naming the command when a table run is missing. ``networks``: whose networks' scoring is read (a key of
    :data:`RECIPES`: the book's, ``ext:benchmark_neural_work``, or the first ones', ``ext:benchmark_neural``)."""
    if networks not in RECIPES:
        raise ValueError(f"networks must be one of {', '.join(RECIPES)}, got {networks!r}")
    if outputs is None:
        st = store_for(None, "paper")
        tasks = ex.all_tasks(["ext:benchmark"], "paper")
        if any(st.status(t) != "ok" for t in tasks):
            raise ValueError("the paper-scale benchmark runs are missing: `python -m sweeper reproduce ext:benchmark` "
                             "computes them")
        outputs = [(t, st.load(t)) for t in tasks]
        for spec in bf.NETWORK_SPECS[networks] + bf.PPO_SPECS:  # all of a spec's runs or none
            more = ex.all_tasks([spec], "paper")
            if more and all(st.status(t) == "ok" for t in more):
                outputs += [(t, st.load(t)) for t in more]
    return bf.benchmark_runs(outputs)


def comparison_players(bench: dict | None = None, boards: int | None = None) -> pd.DataFrame:
    """Random clicks, the paper's greedy table (trained on 10^6 beginner games, frozen; seeds 1-3) and the exact
    solver on each level's boards of the benchmark (:func:`yardstick`), or on its first ``boards`` boards (those the
    chapter's networks are tested on): player, board, seeds, boards, wins and games (pooled over the seeds), the
    win rate (the mean over the seeds, on the same boards) with its 95% interval (over the seeds, a Student
    t-interval, for the table; Wilson for a player run once), and each seed's own rate (``seed_rates``)."""
    bench = yardstick() if bench is None else bench
    names = {"random": "random clicks", "greedy": "greedy table", "solver": "exact solver"}
    rows = []
    for board in LEVELS:
        level = bf.LEVEL_OF[board]
        for player, name in names.items():
            runs = bf.outcomes(bench["games"], name, level)
            if not runs:
                continue
            runs = [r[:boards] if boards else r for r in runs]
            summ = seed_summary(runs)
            one = summ["n_seeds"] == 1
            rows.append({"player": player, "board": board, "seeds": summ["n_seeds"], "boards": len(runs[0]),
                         "wins": int(sum(r.sum() for r in runs)), "games": int(sum(len(r) for r in runs)),
                         "win_rate": summ["mean"], "lo": summ["pooled_low"] if one else summ["low"],
                         "hi": summ["pooled_high"] if one else summ["high"], "seed_rates": tuple(summ["seeds"])})
    return pd.DataFrame(rows)


def _over_seeds(rates, wins: int, games: int) -> tuple:
    """The mean of per-seed win rates with a Student t-interval (95%) over the seeds; with one seed, or seeds that
    do not differ, the pooled Wilson interval (no spread is not no uncertainty)."""
    rates = np.asarray(rates, dtype=float)
    if len(rates) > 1 and rates.std() > 0:
        mean, lo, hi = mean_interval(rates)
        return mean, max(0.0, lo), min(1.0, hi)
    lo, hi = wilson(wins, games)
    return float(rates.mean()), lo, hi


def transfer_verdict_table(tests: pd.DataFrame, part: str | None = None) -> pd.DataFrame:
    """Per level, the networks trained elsewhere against those trained there, at the level of seeds: one row per
    network moved to another level, its seeds' mean win rate and range there, the same for the networks trained on
    that level, and the difference of the two means with Welch's 95% interval over the seeds and its verdict
    (:func:`~sweeper.experiments.stats.compare_seed_rates`). Every seed of both plays the same boards. ``part``:
    "rates" or "verdicts" only."""
    rows = []
    for (train, test), g in tests[tests["train"] != tests["test"]].groupby(["train", "test"], sort=False):
        own = tests[(tests["train"] == test) & (tests["test"] == test)]
        if own.empty:
            continue
        a, b = g.sort_values("seed")["win_rate"].to_numpy(), own.sort_values("seed")["win_rate"].to_numpy()
        c = compare_seed_rates(a, b)
        ci = "" if np.isnan(c["low"]) else f" [{c['low']:+.3f}, {c['high']:+.3f}]"
        rows.append({"trained on": train, "tested on": test, "boards": f"{int(g['test_games'].iloc[0]):,}",
                     "win rate (seeds)": f"{a.mean():.3f} ({a.min():.3f}-{a.max():.3f})",
                     "trained there": f"{b.mean():.3f} ({b.min():.3f}-{b.max():.3f})",
                     "difference [95%]": f"{c['difference']:+.3f}{ci}",
                     "verdict": c["verdict"] + (" (within ±0.01)" if c["verdict"] == "level with" else ""),
                     "seeds": f"{len(a)} + {len(b)}"})
    order = {b: i for i, b in enumerate(LEVELS)}
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    out = out.sort_values(["tested on", "trained on"], key=lambda s: s.map(order)).reset_index(drop=True)
    return _part(out.set_index(["tested on", "trained on"]), "transfer verdicts", part)


#: The agents of :func:`learners` beside the networks: the benchmark's label -> the page's name.
LEARNERS = {"greedy table": "greedy table (the paper's)", "PPO (per tile)": "MaskablePPO, per-tile policy",
            "PPO (CNN)": "MaskablePPO, CNN policy", "exact solver": "exact solver (trains nothing)"}


def learners(runs: dict, bench: dict) -> pd.DataFrame:
    """Every learner side by side on the same boards (the first ones of each level's suite that the networks
    played), by the work of its training: the networks at each checkpoint and at the end, the benchmark's greedy
    table and PPO policies after their training (its runs' ``train_decisions``: a PPO policy's are its environment
    steps, one click each), and the exact solver. Columns: board, agent, seeds, the means over the seeds of training
    ``decisions`` (NaN: not recorded), ``gradient_steps`` (networks, curriculum included), ``env_steps`` (PPO) and
    ``games``, the mean win rate with its 95% interval (over the seeds; Wilson for one run) and the seeds' range,
    test µs per decision as recorded."""
    rows = []
    for board in LEVELS:
        cp = runs["checkpoints"][runs["checkpoints"]["board"] == board]
        if cp.empty:
            continue
        n = int(cp["test_games"].iloc[0])
        cp = cp.assign(step=cp.sort_values("decisions_all").groupby("seed").cumcount())
        for _, g in cp.groupby("step"):
            rate, lo, hi = _over_seeds(g["win_rate"], int(g["wins"].sum()), int(g["test_games"].sum()))
            rows.append({"board": board, "agent": "network", "seeds": g["seed"].nunique(),
                         "decisions": g["decisions_all"].mean(), "gradient_steps": g["updates_all"].mean(),
                         "env_steps": np.nan, "games": g["games_all"].mean(), "win_rate": rate, "lo": lo, "hi": hi,
                         "seed_min": g["win_rate"].min(), "seed_max": g["win_rate"].max()})
        own = runs["tests"][(runs["tests"]["train"] == board) & (runs["tests"]["test"] == board)]
        if "test_cpu_seconds" in own and len(own):
            rows[-1]["µs_per_decision"] = float((1e6 * own["test_cpu_seconds"] / own["test_decisions"]).mean())
        level = bf.LEVEL_OF[board]
        s = bench["scores"][bench["scores"]["level"] == level]
        for label, name in LEARNERS.items():
            who = s[s["label"] == label]
            runs_ = [r[:n] for r in bf.outcomes(bench["games"], label, level)]
            if who.empty or not runs_ or len(runs_[0]) < n:
                continue
            rates = [r.mean() for r in runs_]
            rate, lo, hi = _over_seeds(rates, int(sum(r.sum() for r in runs_)), n * len(runs_))
            d = who.get("train_decisions", pd.Series(np.nan, index=who.index))
            d = 0.0 if label == "exact solver" else float(d.mean()) if d.notna().all() else np.nan
            rows.append({"board": board, "agent": name, "seeds": len(runs_), "decisions": d, "gradient_steps": np.nan,
                         "env_steps": d if label.startswith("PPO") else np.nan,
                         "games": float(who["train_games"].mean()),
                         "win_rate": rate, "lo": lo, "hi": hi, "seed_min": min(rates), "seed_max": max(rates),
                         "µs_per_decision": float((1e6 * who["test_cpu_seconds"] / who["decisions"]).mean())})
    return pd.DataFrame(rows)


def against_targets(tests: pd.DataFrame, players: pd.DataFrame) -> pd.DataFrame:
    """Per level: the networks trained on it (seeds pooled, on the same boards), their lowest seed, the target and
    whether it is met (the pooled rate at least the target and no seed more than :data:`SEED_SLACK` below it), the
    best networks tested on it whatever they were trained on, and the players beside them on the same boards.
    Columns: board, target, own with own_lo and own_hi (95% Wilson, seeds pooled), ``seed_rates`` (seeds in order),
    ``mean`` with ``mean_lo``, ``mean_hi`` (its 95% t-interval over the seeds), seed_min, met, short (target minus
    pooled rate), best and best_from, random, greedy, solver."""
    p = pooled(tests)
    rows = []
    for b in LEVELS:
        own = p[(p["train"] == b) & (p["test"] == b)]
        on = p[p["test"] == b]
        if on.empty:
            continue
        best = on.loc[on["win_rate"].idxmax()]
        nan = not len(own)
        rates = tests[(tests["train"] == b) & (tests["test"] == b)].sort_values("seed")["win_rate"].to_numpy(float)
        mean, mean_lo, mean_hi = mean_interval(rates) if len(rates) else (np.nan,) * 3
        row = {"board": b, "target": TARGETS[b], "own": np.nan if nan else float(own["win_rate"].iloc[0]),
               "own_lo": np.nan if nan else float(own["lo"].iloc[0]),
               "own_hi": np.nan if nan else float(own["hi"].iloc[0]),
               "seed_rates": tuple(float(x) for x in rates), "mean": mean, "mean_lo": mean_lo, "mean_hi": mean_hi,
               "seed_min": np.nan if nan else float(own["seed_min"].iloc[0]),
               "best": float(best["win_rate"]), "best_from": best["train"]}
        row["met"] = (not nan) and row["own"] >= row["target"] and row["seed_min"] >= row["target"] - SEED_SLACK
        for name in PLAYERS:
            r = players[(players["player"] == name) & (players["board"] == b)]
            row[name] = float(r["win_rate"].iloc[0]) if len(r) else np.nan
        row["short"] = row["target"] - row["own"]
        rows.append(row)
    return pd.DataFrame(rows)


#: The short names of the levels in the names of the values the page glues into its prose (:func:`target_values` ...).
KEYS = {"8x8x10": "beg", "16x16x40": "int", "16x30x99": "exp"}


def target_values(t: pd.DataFrame) -> dict:
    """:func:`against_targets` as named values for the page's prose, per level (``<key>_`` of :data:`KEYS`): the
    target, the pooled rate of the networks trained there with its 95% Wilson interval, the seeds' rates in words
    (``seeds``), their mean with its 95% t-interval (``mean``, ``mean_lo``, ``mean_hi``; ``t_below``: "below" or "not
    below" the target), the lowest seed, the verdict ``met`` ("met" or "not met"), the solver and the greedy table on
    the same boards, and the level the best networks tested there were trained for (``best_from``) with their pooled
    rate; and ``slack`` (:data:`SEED_SLACK`)."""
    values = {"slack": float(SEED_SLACK)}
    for r in t.itertuples():
        if np.isnan(r.own):
            continue
        k = KEYS[r.board]
        values.update({f"{k}_target": float(r.target), f"{k}_own": float(r.own), f"{k}_lo": float(r.own_lo),
                       f"{k}_hi": float(r.own_hi), f"{k}_seed_min": float(r.seed_min),
                       f"{k}_seeds": and_list(f"{x:.3f}" for x in r.seed_rates), f"{k}_mean": float(r.mean),
                       f"{k}_mean_lo": float(r.mean_lo), f"{k}_mean_hi": float(r.mean_hi),
                       f"{k}_t_below": "below" if r.mean_lo < r.target else "not below",
                       f"{k}_met": "met" if r.met else "not met", f"{k}_solver": float(r.solver),
                       f"{k}_greedy": float(r.greedy), f"{k}_best_from": str(r.best_from), f"{k}_best": float(r.best)})
    return values


def work_values(facts: pd.DataFrame) -> dict:
    """What each level's networks were trained on (:func:`neural_runs`' ``facts``) as named values for the page's
    prose, per level (``<key>_`` of :data:`KEYS`), the means over the seeds of all phases: ``decisions``,
    ``steps`` (gradient steps) and ``games``; ``own_decisions`` and ``own_games``, those of the last phase, on the
    level's own board; ``spread``, how many decisions the seeds' budgets differ by at most (a game in progress is
    finished)."""
    values = {}
    for b, g in facts.groupby("board", sort=False):
        k = KEYS[b]
        values.update({f"{k}_decisions": float(g["decisions"].mean()), f"{k}_steps": float(g["updates"].mean()),
                       f"{k}_games": float(g["games_all"].mean()),
                       f"{k}_own_decisions": float(g["decisions_own"].mean()),
                       f"{k}_own_games": float(g["games"].mean()),
                       f"{k}_spread": int(g["decisions"].max() - g["decisions"].min())})
    return values


#: What the step between the last two checkpoints says, by its 95% interval over the seeds (:func:`rising_values`).
RISING = {1: "still rising when the budget ran out", -1: "falling at the end",
          0: "the seeds cannot tell whether it was still rising"}


def rising_values(points: pd.DataFrame) -> dict:
    """Per level (``<key>_`` of :data:`KEYS`), the last step of the checkpoints as named values for the page's prose:
    the mean win rate over the seeds ``before`` and ``after`` it, the training decisions (means over the seeds,
    curriculum included) at both, the mean of the seeds' own steps (``step``; each seed's step is on the same boards:
    paired) with its 95% t-interval over the seeds (``lo``, ``hi``) and the verdict those allow (:data:`RISING`).
    A level with fewer than two seeds or two checkpoints has none."""
    values = {}
    for board in LEVELS:
        last = points[points["board"] == board].sort_values("decisions_all").groupby("seed").tail(2)
        if last.empty or (last.groupby("seed").size() < 2).any() or last["seed"].nunique() < 2:
            continue
        before = last.groupby("seed").head(1).set_index("seed").sort_index()
        end = last.groupby("seed").tail(1).set_index("seed").sort_index()
        step, lo, hi = mean_interval((end["win_rate"] - before["win_rate"]).to_numpy())
        k = KEYS[board]
        values.update({f"{k}_before": float(before["win_rate"].mean()), f"{k}_after": float(end["win_rate"].mean()),
                       f"{k}_before_decisions": float(before["decisions_all"].mean()),
                       f"{k}_after_decisions": float(end["decisions_all"].mean()), f"{k}_step": float(step),
                       f"{k}_lo": float(lo), f"{k}_hi": float(hi),
                       f"{k}_verdict": RISING[1 if lo > 0 else -1 if hi < 0 else 0]})
    return values


def quality(tests: pd.DataFrame) -> pd.DataFrame:
    """The quality of the networks' decisions against the exact probabilities, per train and test level, the
    seeds pooled (each seed's first ``quality_games`` test games): games, decisions, decisions per game, the share
    of decisions with a proven-safe tile on offer, the share of those where another tile was clicked, and the
    regret per decision and per game against the best click (how much likelier than the exact oracle's click the
    network's was to hit a mine)."""
    rows = []
    for (train, test), g in tests.groupby(["train", "test"], sort=False):
        n, games = g["quality_decisions"], g["quality_games"]
        sure = n * g["quality_sure_share"]
        regret = float((n * g["quality_regret_per_decision"]).sum())
        rows.append({"train": train, "test": test, "seeds": g["seed"].nunique(), "games": int(games.sum()),
                     "decisions": int(n.sum()), "decisions_per_game": n.sum() / games.sum(),
                     "sure_share": sure.sum() / n.sum(),
                     "missed_per_sure": float((sure * g["quality_missed_per_sure"]).sum() / sure.sum()),
                     "regret_per_decision": regret / n.sum(), "regret_per_game": regret / games.sum()})
    return pd.DataFrame(rows)


def window_agents() -> pd.DataFrame:
    """The paper's greedy agent after 10^6 beginner games, frozen, on its 10,000 beginner test games (``ext:regret``,
    paper scale): its regret per decision and per game against the exact oracle, and the representation gap (the
    regret of the best window agent, whose table is estimated from a sample) per decision and per game. Its
    decisions include flags, and its oracle may flag, so only the per-game figures are in the same unit as the
    networks' (:func:`quality`): expected excess mistakes per game."""
    f = rf.frozen(paper=True)
    f = f[f["agent"] == rf.LABELS["greedy"]].copy()
    f["regret per game"] = f["regret per decision"] * f["decisions per game"]
    f["gap per game"] = f["gap per decision"] * f["decisions per game"]
    return f.reset_index(drop=True)


def calibration(runs: dict) -> pd.DataFrame:
    """The networks' P(mine) against the exact probabilities, per train and test level and bin, the seeds pooled
    (tile-weighted means): bin, tiles, net, exact and mines (the share of the bin's tiles that were mines)."""
    c = runs["calibration"]
    w = c.assign(**{k: c[k] * c["tiles"] for k in ("net", "exact", "mines")})
    g = w.groupby(["train", "test", "bin"], sort=False)[["tiles", "net", "exact", "mines"]].sum().reset_index()
    for k in ("net", "exact", "mines"):
        g[k] = g[k] / g["tiles"]
    return g


def calibration_errors(runs: dict) -> pd.DataFrame:
    """Per test level, the calibration error (tile-weighted mean distance between the predicted and the exact
    P(mine) over the bins) of the networks trained on each level, the seeds pooled, beside the paper's greedy
    table's (``ext:belief``, paper scale: its belief (Q + 1) / 2 on every candidate's target). The network's bins
    are tenths of P(mine) over every covered tile; the table's are twentieths over its candidates' targets, the
    tiles next to revealed numbers."""
    cal = calibration(runs)
    rows = []
    for (train, test), g in cal.groupby(["train", "test"], sort=False):
        rows.append({"test": test, "model": f"network trained on {train}", "tiles": int(g["tiles"].sum()),
                     "error": float((g["tiles"] * (g["net"] - g["exact"]).abs()).sum() / g["tiles"].sum())})
    table = belief(paper=True)["calibration"]
    table = table[(table["agent"] == "greedy") & (table["which"] == "all")]
    for test, g in table.groupby("board", sort=False):
        rows.append({"test": test, "model": "greedy table (trained on 8x8x10)", "tiles": int(g["count"].sum()),
                     "error": calibration_error(g)})
    out = pd.DataFrame(rows)
    out["order"] = out["test"].map(LEVELS.index)
    return out.sort_values(["order", "model"], kind="stable").drop(columns="order").reset_index(drop=True)


def worst_mistakes(mistakes: pd.DataFrame) -> pd.DataFrame:
    """Per test level, the networks' most confident mistake among the stored ones of the networks trained on that
    level: a decision where a tile was proven safe and the network clicked one with the largest ``exact - net``
    (exact P(mine) against its prediction)."""
    own = mistakes[mistakes["train"] == mistakes["test"]]
    own = own.assign(surprise=own["exact"] - own["net"])
    rows = [g.sort_values(["surprise", "seed"], ascending=[False, True]).iloc[0] for _, g in own.groupby("test")]
    out = pd.DataFrame(rows).reset_index(drop=True)
    out["order"] = out["test"].map(LEVELS.index)
    return out.sort_values("order").drop(columns="order").reset_index(drop=True)


__all__ = ["LEVELS", "SPECS", "SEEDS", "TARGETS", "SEED_SLACK", "PLAYERS", "stored_outputs", "neural_runs", "pooled",
           "transfer_table", "yardstick", "comparison_players", "transfer_verdict_table", "learners",
           "LEARNERS", "against_targets", "KEYS", "target_values", "work_values", "RISING",
           "rising_values", "quality", "window_agents", "calibration", "calibration_errors",
           "worst_mistakes"]


# ------------------------------------------------------------------------------------- for the page --

def _ci(rate, lo, hi) -> str:
    return f"{rate:.3f} [{lo:.3f}, {hi:.3f}]"


#: The page's wide tables in narrower parts, each of which fits the book's text column: table -> part -> columns.
TABLE_PARTS = {"facts": {"work": ["learnt on", "seeds", "games (own board)", "games (all)", "decisions",
                                  "gradient steps"], "record": ["weights", "CPU min (as recorded)", "machine"]},
               "targets": {"networks": ["seeds", "mean [95% t]", "pooled [95%]", "target", "met"],
                           "players": ["best (from)", "random", "table", "solver"]},
               "learners": {"work": ["agent", "seeds", "training decisions", "gradient steps", "training games"],
                            "wins": ["agent", "win rate [95%]", "seeds' range", "test µs / decision (as recorded)"]},
               "transfer verdicts": {"rates": ["boards", "win rate (seeds)", "trained there", "seeds"],
                                     "verdicts": ["difference [95%]", "verdict"]}}


def _part(table: pd.DataFrame, name: str, part: str | None) -> pd.DataFrame:
    """``table`` whole (``part`` None), or the columns of its ``part`` (:data:`TABLE_PARTS` ``[name]``)."""
    return table if part is None or table.empty else table[TABLE_PARTS[name][part]]


def facts_table(facts: pd.DataFrame, part: str | None = None) -> pd.DataFrame:
    """What the networks were trained on, per level (mean over the seeds): the boards in order, games on its own
    board and in all, decisions and gradient steps (all phases), the network's weights, the CPU minutes its run
    recorded (all phases; a record, not a measure of work) and the machine; ``part``: "work" or "record" only."""
    rows = {}
    for b, g in facts.groupby("board", sort=False):
        rows[b] = {"learnt on": g["path"].iloc[0], "seeds": f"{g['seed'].nunique()}",
                   "games (own board)": f"{g['games'].mean():,.0f}", "games (all)": f"{g['games_all'].mean():,.0f}",
                   "decisions": f"{g['decisions'].mean():,.0f}", "gradient steps": f"{g['updates'].mean():,.0f}",
                   "weights": f"{int(g['parameters'].iloc[0]):,}",
                   "CPU min (as recorded)": f"{g['cpu_seconds'].mean() / 60:.1f}",
                   "machine": ", ".join(sorted(set(g["machine"])))}
    return _part(pd.DataFrame(rows).T.rename_axis("trained for"), "facts", part)


def targets_table(t: pd.DataFrame, part: str | None = None) -> pd.DataFrame:
    """:func:`against_targets` for the page; ``part``: "networks" (against the targets) or "players" (the others on
    the same boards) only."""
    f3 = lambda v: "" if pd.isna(v) else f"{v:.3f}"  # noqa: E731
    table = pd.DataFrame({"seeds": [" / ".join(f"{x:.3f}" for x in r.seed_rates) for r in t.itertuples()],
                         "mean [95% t]": [_ci(r.mean, r.mean_lo, r.mean_hi) if len(r.seed_rates) > 1 else ""
                                          for r in t.itertuples()],
                         "pooled [95%]": [_ci(r.own, r.own_lo, r.own_hi) if not np.isnan(r.own) else ""
                                          for r in t.itertuples()],
                         "target": t["target"].map(lambda v: f"{v:.2f}"),
                         "met": t["met"].map(lambda v: "yes" if v else "no"),
                         "best (from)": [f"{r.best:.3f} ({r.best_from})" for r in t.itertuples()],
                         "random": t["random"].map(f3), "table": t["greedy"].map(f3),
                         "solver": t["solver"].map(f3)}).set_index(t["board"].rename("level"))
    return _part(table, "targets", part)


def learners_table(c: pd.DataFrame, part: str | None = None) -> pd.DataFrame:
    """:func:`learners` for the page: the work first (a run that recorded no decisions says so; a PPO policy's
    training decisions are its environment steps), then the wins; the test CPU per decision as the runs recorded it;
    ``part``: "work" or "wins" only."""
    f = lambda v: "" if pd.isna(v) else f"{v:,.0f}"  # noqa: E731
    table = pd.DataFrame({
        "agent": c["agent"], "seeds": c["seeds"],
        "training decisions": c["decisions"].map(lambda v: "not recorded" if pd.isna(v) else f(v)),
        "gradient steps": c["gradient_steps"].map(f), "training games": c["games"].map(f),
        "win rate [95%]": [_ci(r.win_rate, r.lo, r.hi) for r in c.itertuples()],
        "seeds' range": [f"{r.seed_min:.3f}-{r.seed_max:.3f}" if r.seeds > 1 else "" for r in c.itertuples()],
        "test µs / decision (as recorded)": c.get("µs_per_decision", pd.Series(np.nan, index=c.index)).map(f)},
    ).set_index(c["board"].rename("level"))
    return _part(table, "learners", part)


def calibration_errors_table(e: pd.DataFrame) -> pd.DataFrame:
    """:func:`calibration_errors` for the page."""
    return pd.DataFrame({"tested on": e["test"], "model": e["model"], "tiles": e["tiles"].map(lambda v: f"{v:,}"),
                         "calibration error": e["error"].map(lambda v: f"{v:.4f}")}).set_index(["tested on", "model"])


def quality_table(q: pd.DataFrame) -> pd.DataFrame:
    """:func:`quality` for the page."""
    return pd.DataFrame({"games": q["games"], "dec./game": q["decisions_per_game"].map(lambda v: f"{v:.1f}"),
                         "safe on offer": q["sure_share"].map(lambda v: f"{v:.1%}"),
                         "missed": q["missed_per_sure"].map(lambda v: f"{v:.2%}"),
                         "regret/dec.": q["regret_per_decision"].map(lambda v: f"{v:.4f}"),
                         "regret/game": q["regret_per_game"].map(lambda v: f"{v:.3f}")}
                        ).set_index([q["train"].rename("trained on"), q["test"].rename("tested on")])


def regret_values(q: pd.DataFrame, window: pd.DataFrame, bench: dict | None = None) -> dict:
    """The beginner networks' regret beside the paper's greedy table's, as named values for the page's prose: the
    networks' (:func:`quality` on beginner: ``nets_game``, ``nets_decision``, over ``nets_decisions`` of ``nets_games``
    games, against an oracle that takes the best click) and the table's (:func:`window_agents`: ``table_game``,
    ``table_decision``, over ``table_games`` test games after ``table_trained`` training games, against one that may
    flag, and its representation gap per game, ``table_gap``): two oracles, so no order between them. With ``bench``
    (:func:`yardstick`, the networks in it), the two on one scale: the benchmark's regret per click on its first
    ``boards`` beginner boards, the mean over the seeds with their range (``nets_click``, ``nets_click_min``,
    ``nets_click_max``, ``nets_seeds``; the same for ``table_``)."""
    own = q[(q["train"] == "8x8x10") & (q["test"] == "8x8x10")]
    if own.empty or window.empty:
        return {}
    r, w = own.iloc[0], window.iloc[0]
    values = {"nets_game": float(r["regret_per_game"]), "nets_decision": float(r["regret_per_decision"]),
              "nets_decisions": int(r["decisions"]), "nets_games": int(r["games"]),
              "table_trained": int(w["trained games"]), "table_game": float(w["regret per game"]),
              "table_decision": float(w["regret per decision"]), "table_games": int(w["test games"]),
              "table_gap": float(w["gap per game"])}
    s = bench["scores"] if bench is not None else pd.DataFrame(columns=["level", "label", "spec"])
    s = s[s["level"] == "beginner"]
    nets, table = s[s["label"] == "network (beg.)"], s[s["spec"] == "greedy"]
    if len(nets) and len(table):
        values["boards"] = int(s["regret_games"].max())
        for k, g in (("nets", nets), ("table", table)):
            v = g["regret_per_decision"]
            values.update({f"{k}_click": float(v.mean()), f"{k}_click_min": float(v.min()),
                           f"{k}_click_max": float(v.max()), f"{k}_seeds": int(g["seed"].nunique())})
    return values


def mistakes_values(worst: pd.DataFrame) -> dict:
    """The shown mistakes (:func:`worst_mistakes`) as named values for the page's prose, per level (``<key>_`` of
    :data:`KEYS`): the network's P(mine) for the tile it clicked (``net``), the tile's exact probability (``exact``),
    the tiles still covered (``covered``) and the decision's number in its game (``decision``)."""
    values = {}
    for r in worst.itertuples():
        k = KEYS[r.test]
        values.update({f"{k}_net": float(r.net), f"{k}_exact": float(r.exact), f"{k}_covered": int(r.covered),
                       f"{k}_decision": int(r.decision)})
    return values


def budget_values(first: pd.DataFrame, greedy, points: pd.DataFrame) -> dict:
    """The budget exercise's answer as named values for its prose: the greedy table's win rate with its interval
    (``greedy``, ``greedy_lo``, ``greedy_hi``) over its ``greedy_seeds``; of the beginner networks (``seeds``), how
    many had a checkpoint above it (``passed``; ``first``: each one's first such, of the checkpoints ``points``) and
    which never did (``never``: "none" or their seeds); the fewest and most training decisions and games of those
    first checkpoints (``decisions_min``, ``decisions_max``, ``games_min``, ``games_max``) and their win rates
    (``rate_min``, ``rate_max``); the checkpoints each network had (``checkpoints``, the end's included), where the
    first fell (``first_at``: the mean over the seeds) and how many networks passed the table there
    (``at_first``); and the test ``games`` of a checkpoint."""
    beg = points[points["board"] == "8x8x10"].sort_values("decisions_all")
    step = beg.groupby("seed").cumcount()
    seeds, passed, firsts = sorted(beg["seed"].unique()), set(first["seed"]), beg[step == 0]
    values = {"greedy": float(greedy["win_rate"]), "greedy_lo": float(greedy["lo"]), "greedy_hi": float(greedy["hi"]),
              "greedy_seeds": int(greedy.get("seeds", 1)), "seeds": len(seeds), "passed": len(passed),
              "never": and_list(str(s) for s in seeds if s not in passed) if len(passed) < len(seeds) else "none",
              "checkpoints": int(step.max()) + 1, "first_at": float(firsts["decisions_all"].mean()),
              "at_first": int(firsts.index.isin(first.index).sum()), "games": int(beg["test_games"].iloc[0])}
    for k, col in (("decisions", "decisions_all"), ("games", "games_all"), ("rate", "win_rate")):
        values.update({f"{k}_min": float(first[col].min()), f"{k}_max": float(first[col].max())})
    return values


#: The agents :func:`learners_values` sets beside the beginner networks: the page's name -> the key of its values.
RIVALS = {"greedy table (the paper's)": "greedy", "MaskablePPO, per-tile policy": "tile",
          "MaskablePPO, CNN policy": "cnn"}
#: How a rival's win rate stands against the networks' checkpoint, by their 95% intervals (:func:`learners_values`).
ORDER = {1: "above", 0: "not told apart from", -1: "below"}


def learners_values(c: pd.DataFrame, noise: float | None = None) -> dict:
    """:func:`learners` on beginner as named values for the page's prose. Per rival (``<key>_`` of :data:`RIVALS`):
    its training ``decisions`` (a PPO policy's are its environment steps), ``games`` and win rate (``rate``, ``lo``,
    ``hi``: the mean over its ``seeds`` with its 95% interval); the networks' checkpoint it is set against, the last
    within as many decisions or, with none, their first (``which`` says which), its ``net_decisions``, how many times
    the rival's decisions those are (``ratio``), its win rate (``net_rate``, ``net_lo``, ``net_hi``) and ``order``,
    the rival's rate against it (:data:`ORDER`). Then the networks' ``end`` (``end_decisions``, ``end_steps``,
    ``end_rate``, ``end_lo``, ``end_hi``) and the exact solver's ``solver_rate``, its test CPU per decision as recorded
    against the networks' (``solver_us``, ``nets_us``, ``cpu_ratio``: the larger over the smaller) and ``cpu_order``:
    which is cheaper, only where the factor is beyond ``noise`` (the clock's,
    :func:`~sweeper.viz.figures.deep.clock_noise`; ``noise``: that factor)."""
    b = c[c["board"] == "8x8x10"]
    nets = b[b["agent"] == "network"].sort_values("decisions")
    if nets.empty:
        return {}
    end = nets.iloc[-1]
    values = {"end_decisions": float(end["decisions"]), "end_steps": float(end["gradient_steps"]),
              "end_rate": float(end["win_rate"]), "end_lo": float(end["lo"]), "end_hi": float(end["hi"])}
    for name, k in RIVALS.items():
        row = b[b["agent"] == name]
        if row.empty or pd.isna(row["decisions"].iloc[0]):
            continue
        r = row.iloc[0]
        within = nets[nets["decisions"] <= r["decisions"]]
        at = within.iloc[-1] if len(within) else nets.iloc[0]
        o = interval_order((r["win_rate"], r["lo"], r["hi"]), (at["win_rate"], at["lo"], at["hi"]))
        values.update({f"{k}_decisions": float(r["decisions"]), f"{k}_games": float(r["games"]),
                       f"{k}_seeds": int(r["seeds"]), f"{k}_rate": float(r["win_rate"]), f"{k}_lo": float(r["lo"]),
                       f"{k}_hi": float(r["hi"]),
                       f"{k}_which": ("last checkpoint within as many decisions" if len(within) else
                                      "first checkpoint (none came within as many decisions)"),
                       f"{k}_net_decisions": float(at["decisions"]),
                       f"{k}_ratio": float(at["decisions"] / r["decisions"]),
                       f"{k}_net_rate": float(at["win_rate"]), f"{k}_net_lo": float(at["lo"]),
                       f"{k}_net_hi": float(at["hi"]), f"{k}_order": ORDER[o]})
    solver, mine = b[b["agent"].str.startswith("exact solver")], end.get("µs_per_decision", np.nan)
    if len(solver) and not pd.isna(mine):
        us = float(solver["µs_per_decision"].iloc[0])
        ratio = max(mine, us) / min(mine, us)
        values.update({"solver_rate": float(solver["win_rate"].iloc[0]), "solver_us": us, "nets_us": float(mine),
                       "cpu_ratio": float(ratio), "noise": float(noise) if noise else float("nan"),
                       "cpu_order": ("neither can be called the cheaper" if not noise or ratio <= noise else
                                     "the solver's decisions are the cheaper" if us < mine else
                                     "the networks' decisions are the cheaper")})
    return values


def mistakes_per_game(q: pd.DataFrame, targets: pd.DataFrame) -> pd.DataFrame:
    """Per level, the networks trained there (:func:`quality`'s rows on their own level): decisions per game, the
    sure decisions per game they missed (a tile was proven safe and they clicked another), the regret per game (the
    excess chance of a mine over the best click, summed over a game's decisions) and the gap to the exact solver's
    win rate on the same boards (:func:`against_targets`)."""
    own = q[q["train"] == q["test"]].set_index("test")
    t = targets.set_index("board")
    rows = []
    for b in LEVELS:
        if b not in own.index or b not in t.index:
            continue
        r = own.loc[b]
        rows.append({"board": b, "decisions_per_game": r["decisions_per_game"],
                     "missed_per_game": r["decisions_per_game"] * r["sure_share"] * r["missed_per_sure"],
                     "regret_per_game": r["regret_per_game"], "solver_gap": t.loc[b, "solver"] - t.loc[b, "own"],
                     "games": int(r["games"]), "networks": int(r["seeds"])})
    return pd.DataFrame(rows)


def gap_values(gap: pd.DataFrame) -> dict:
    """The gap exercise's answer (:func:`mistakes_per_game`) as named values for its prose, per level (``<key>_`` of
    :data:`KEYS`): the proven-safe tiles missed (``missed``) and the ``regret`` per game, the ``decisions`` per game
    and the ``gap`` to the solver's win rate; ``enough``: the levels where the regret per game is at least a positive
    gap ("no level" if none); and the ``games`` per level, the ``networks`` of a level and the games of each
    (``per_network``) they rest on."""
    enough = [bf.LEVEL_OF[r.board] for r in gap.itertuples() if r.regret_per_game >= r.solver_gap > 0]
    values = {"enough": and_list(enough) if enough else "no level", "games": int(gap["games"].max()),
              "networks": int(gap["networks"].max())}
    values["per_network"] = values["games"] // values["networks"]
    for r in gap.itertuples():
        k = KEYS[r.board]
        values.update({f"{k}_missed": float(r.missed_per_game), f"{k}_regret": float(r.regret_per_game),
                       f"{k}_decisions": float(r.decisions_per_game), f"{k}_gap": float(r.solver_gap)})
    return values


__all__ += ["facts_table", "targets_table", "learners_table", "RIVALS", "ORDER", "learners_values", "gap_values",
            "mistakes_per_game", "calibration_errors_table", "quality_table",
            "regret_values", "mistakes_values", "budget_values"]

