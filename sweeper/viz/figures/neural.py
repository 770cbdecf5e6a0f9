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
from ...experiments.stats import compare_seed_rates, compare_seeds, wilson
from . import benchmark as bf
from . import regret as rf
from .beyond import belief, calibration_error
from .results import paper_spec

#: The three levels, in reading order.
LEVELS = ("8x8x10", "16x16x40", "16x30x99")
#: The seeds the chapter's networks were trained with.
SEEDS = (1, 2, 3)
#: The win rates set as targets for a network trained for about 30 CPU minutes on each level, under the reference
#: opening: most of the way from the paper's bandit to the exact solver (the solver's own rates are in the table
#: beside them).
TARGETS = {"8x8x10": 0.86, "16x16x40": 0.75, "16x30x99": 0.25}
#: The CPU budget per network those targets were set for (the games of each level were sized from its speed).
BUDGET_MINUTES = 30
#: What the comparison players are called on the page.
PLAYERS = {"random": "random clicks", "greedy": "greedy bandit (table, trained on beginner)",
           "solver": "exact solver"}


def stored_outputs(spec: str = "ext:neural") -> list:
    """``(task, output)`` of every stored run of ``spec`` (``ext:neural`` or ``ext:neural_field``; paper scale,
    :data:`SEEDS`), or one clear error naming the command that trains the missing ones."""
    st, tasks = paper_spec(spec, SEEDS, needs="`make deep` installs the optional extra 'deep', then ")
    return [(t, st.load(t)) for t in tasks]


def neural_runs(outputs=None) -> dict:
    """The stored runs as four tidy frames: ``facts`` (per network: board, seed, games, decisions, gradient steps,
    CPU seconds of training, parameters), ``checkpoints`` (board, seed, games and CPU seconds of training so far,
    frozen test win rate on its own board [95% Wilson]), ``tests`` (train board, seed, test board, win rate [95%
    Wilson], revealed share, the quality of its decisions, and ``board_set``: the place of the test board in the
    run's tests, whose games are those of ``held_out_seed(seed, board_set)``; the checkpoints play set 0) and
    ``mistakes`` (train board, seed, and the worst
    decisions' rows with their views and mines as arrays in the columns ``view`` and ``mines``), and
    ``calibration`` (train board, seed, test board and the bins of the network's P(mine) against the exact
    probabilities)."""
    outputs = stored_outputs() if outputs is None else outputs
    facts, points, tests, wrong, cal = [], [], [], [], []
    for t, out in outputs:
        board, seed = t.params["board"], t.params["seed"]
        i = out.info
        facts.append({"board": board, "seed": seed, "games": i["train_games"], "decisions": i["train_decisions"],
                      "updates": i["train_updates"], "cpu_seconds": i["train_cpu_seconds"],
                      "parameters": i["parameters"], "agent": i["agent"]})
        points.append(out.tables["checkpoints"].assign(board=board, seed=seed))
        tt = out.tables["tests"]
        tests.append(tt.rename(columns={"board": "test"}).assign(train=board, seed=seed, board_set=range(len(tt))))
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


def yardstick(outputs=None) -> dict:
    """The benchmark's stored paper-scale runs (``ext:benchmark``, and ``ext:benchmark_neural`` when all its runs
    are stored: the chapter's networks on the benchmark's boards) as the frames of
    :func:`~sweeper.viz.figures.benchmark.benchmark_runs`; an error naming the command when a table run is
    missing."""
    if outputs is None:
        st = store_for(None, "paper")
        tasks = ex.all_tasks(["ext:benchmark"], "paper")
        if any(st.status(t) != "ok" for t in tasks):
            raise ValueError("the paper-scale benchmark runs are missing: `python -m sweeper reproduce ext:benchmark` "
                             "computes them")
        outputs = [(t, st.load(t)) for t in tasks]
        nets = ex.all_tasks(["ext:benchmark_neural"], "paper")
        if nets and all(st.status(t) == "ok" for t in nets):  # all nine or none: never a partial set of seeds
            outputs += [(t, st.load(t)) for t in nets]
    return bf.benchmark_runs(outputs)


def comparison_players(bench: dict | None = None) -> pd.DataFrame:
    """Random clicks, the paper's greedy table (trained on 10^6 beginner games, frozen; seeds 1-3) and the exact
    solver on each level's boards of the benchmark (:func:`yardstick`): player, board, seeds, wins and games
    (pooled over the seeds), the win rate (the mean over the seeds, on the same boards) and its 95% interval (over
    the seeds, a Student t-interval, for the table; Wilson for a player run once), and each seed's own rate
    (``seed_rates``)."""
    bench = yardstick() if bench is None else bench
    names = {"random": "random clicks", "greedy": "greedy table", "solver": "exact solver"}
    rows = []
    for board in LEVELS:
        level = bf.LEVEL_OF[board]
        if not (bench["scores"]["level"] == level).any():
            continue
        lb = bf.leaderboard(bench, level).set_index("agent")
        g = bench["games"][bench["games"]["level"] == level]
        for player, name in names.items():
            if name not in lb.index:
                continue
            r, mine = lb.loc[name], g[g["label"] == name]
            won = mine["won"]
            rows.append({"player": player, "board": board, "seeds": int(r["seeds"]), "wins": int(won.sum()),
                         "games": int(len(won)), "win_rate": float(r["win rate"]), "lo": float(r["low"]),
                         "hi": float(r["high"]),
                         "seed_rates": tuple(float(x) for x in mine.groupby("seed")["won"].mean())})
    return pd.DataFrame(rows)


def network_scores(bench: dict) -> dict:
    """The chapter's networks on the benchmark's boards (the runs of ``ext:benchmark_neural`` in ``bench``), in the
    shape of :func:`neural_runs`'s ``tests`` (``tests``: train, test, seed, test_games, wins, win_rate, lo, hi,
    revealed) and their games (``games``: train, test, seed, board, won); ``None`` when the networks are not in
    ``bench``."""
    s = bench["scores"]
    s = s[s["kind"] == "neural bandit"]
    if s.empty:
        return None
    board_of = {v: k for k, v in bf.LEVEL_OF.items()}
    ci = [wilson(int(w), int(n)) for w, n in zip(s["wins"], s["games"])]
    tests = pd.DataFrame({"train": s["train_board"], "test": s["level"].map(board_of), "seed": s["seed"],
                          "test_games": s["games"].astype(int), "wins": s["wins"].astype(int),
                          "win_rate": s["win_rate"], "lo": [c[0] for c in ci], "hi": [c[1] for c in ci],
                          "revealed": s["safe_revealed"]}).reset_index(drop=True)
    train_of = dict(zip(s["label"], s["train_board"]))
    g = bench["games"][bench["games"]["label"].isin(train_of)]
    games = pd.DataFrame({"train": g["label"].map(train_of), "test": g["level"].map(board_of), "seed": g["seed"],
                          "board": g["board"], "won": g["won"].astype(int)}).reset_index(drop=True)
    return {"tests": tests, "games": games}


def _outcomes(games: pd.DataFrame, train: str, test: str) -> list:
    """One 0/1 array per seed (in seed order, boards in order) of the networks trained on ``train``, on ``test``."""
    g = games[(games["train"] == train) & (games["test"] == test)]
    return [grp.sort_values("board")["won"].to_numpy(int) for _, grp in g.groupby("seed")]


def transfer_verdict_table(scored: dict) -> pd.DataFrame:
    """Per level, the networks trained elsewhere against those trained there, on the same boards, at the level of
    seeds: one row per network moved to another level, its pooled win rate and
    its seeds' range there, the win rate of the networks trained on that level, and the seed-level difference with
    its 95% interval and verdict (:func:`~sweeper.experiments.stats.compare_seeds`), every seed on the same
    boards."""
    p = pooled(scored["tests"])
    rows = []
    for r in p[p["train"] != p["test"]].itertuples():
        own = p[(p["train"] == r.test) & (p["test"] == r.test)]
        if own.empty:
            continue
        a, b = _outcomes(scored["games"], r.train, r.test), _outcomes(scored["games"], r.test, r.test)
        c = compare_seeds(a, b)
        ci = "" if np.isnan(c["low"]) else f" [{c['low']:+.3f}, {c['high']:+.3f}]"
        rows.append({"trained on": r.train, "tested on": r.test, "boards": f"{len(a[0]):,}",
                     "win rate (seeds)": f"{r.win_rate:.3f} ({r.seed_min:.3f}-{r.seed_max:.3f})",
                     "trained there": f"{own['win_rate'].iloc[0]:.3f} ({own['seed_min'].iloc[0]:.3f}-"
                                      f"{own['seed_max'].iloc[0]:.3f})",
                     "difference [95%]": f"{c['difference']:+.3f}{ci}",
                     "verdict": c["verdict"] + (" (within ±0.01)" if c["verdict"] == "level with" else ""),
                     "seeds": f"{c['n_seeds'][0]} + {c['n_seeds'][1]}"})
    order = {b: i for i, b in enumerate(LEVELS)}
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    out = out.sort_values(["tested on", "trained on"], key=lambda s: s.map(order)).reset_index(drop=True)
    return out.set_index(["tested on", "trained on"])


def equal_cpu_sentence(points: pd.DataFrame, bench: dict) -> str:
    """The beginner networks and the greedy table on one clock: the table's training CPU (its benchmark runs), the
    networks' checkpoints nearest below and above it, and their first checkpoint above the table's win rate."""
    s = bench["scores"]
    g = s[(s["spec"] == "greedy") & (s["level"] == "beginner")]
    cp = points[points["board"] == "8x8x10"].sort_values(["seed", "cpu_seconds"])
    if g.empty or cp.empty:
        return ""
    cpu, rate = float(g["train_cpu_seconds"].mean()), float(g["win_rate"].mean())
    near = cp.loc[(cp["cpu_seconds"] - cpu).abs().groupby(cp["seed"]).idxmin()]
    above = cp[cp["win_rate"] > rate].groupby("seed").head(1)
    text = (f"On one clock, process CPU of the training alone: the greedy table's 10^6 beginner games took "
            f"{cpu:.0f} CPU seconds (mean of {g['seed'].nunique()} seeds, on {g['cpu'].iloc[0]}) and it wins "
            f"{rate:.3f} of the benchmark's beginner boards. The networks' checkpoints nearest that time "
            f"({near['cpu_seconds'].min():.0f} to {near['cpu_seconds'].max():.0f} CPU seconds, "
            f"{near['games'].min():,} to {near['games'].max():,} games) win {near['win_rate'].min():.3f} to "
            f"{near['win_rate'].max():.3f} of their 1,000 test boards")
    if len(above):
        text += (f"; their first checkpoints with a higher rate than the table's came at "
                 f"{above['cpu_seconds'].min():.0f} to {above['cpu_seconds'].max():.0f} CPU seconds "
                 f"({above['win_rate'].min():.3f} to {above['win_rate'].max():.3f}, {above['seed'].nunique()} of "
                 f"{cp['seed'].nunique()} seeds; their boards are not the benchmark's, so this places the networks "
                 f"on the clock, it does not rank them)")
    text += (". The exact solver trains nothing; its cost is at play, "
             + _per_decision(bench, "exact solver") + " against " + _per_decision(bench, "network (beg.)")
             + " for a network. The networks' runs did not record their machine (the tables' did): their CPU "
               "seconds may be a slower or faster machine's, which the chapter's next runs will record.")
    return text


def _per_decision(bench: dict, who: str) -> str:
    """Test CPU per decision of ``who`` on the beginner boards of the benchmark, in words."""
    s = bench["scores"]
    r = s[(s["label"] == who) & (s["level"] == "beginner")]
    if r.empty:
        return "an unmeasured time per decision"
    us = float((1e6 * r["test_cpu_seconds"] / r["decisions"]).mean())
    return f"{us:,.0f} µs of CPU per beginner decision"


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


def findings(runs: dict, players: pd.DataFrame, scored: dict | None = None) -> dict:
    """Sentences generated from the numbers: ``targets`` (each level against its target and the solver),
    ``transfer`` (without ``scored``: what a network trained on one level does on the others, the rates and no
    verdict; with it, empty: :func:`transfer_verdict_table` gives the seed-level verdicts on the same boards),
    ``speed`` (CPU seconds and games) and ``rising`` (the pooled win rate at the last two checkpoints of each level:
    was it still rising when the budget ran out? Only where the step exceeds what the boards alone move, see
    :func:`_rising`). ``targets`` reads ``scored`` too when given."""
    tests = runs["tests"] if scored is None else scored["tests"]
    t = against_targets(tests, players)
    p = pooled(tests)
    parts = []
    for r in t.itertuples():
        if np.isnan(r.own):
            continue
        verdict = "at or above" if r.own >= r.target else f"{r.target - r.own:.3f} below"
        within = " (the target is inside the interval)" if r.own < r.target <= r.own_hi else ""
        n = int(p.loc[(p["train"] == r.board) & (p["test"] == r.board), "seeds"].iloc[0])
        parts.append(f"on {r.board}, the networks trained there win {r.own:.3f} ([{r.own_lo:.3f}, "
                     f"{r.own_hi:.3f}], {n} seed{'s' if n > 1 else ''} pooled), {verdict} the target of "
                     f"{r.target:.2f}{within}; the "
                     f"exact solver wins {r.solver:.3f} and the paper's greedy agent {r.greedy:.3f}")
    moved = []
    if scored is None:  # with the networks' benchmark runs, the verdicts are transfer_verdict_table's
        for r in p[p["train"] != p["test"]].itertuples():
            own = p[(p["train"] == r.test) & (p["test"] == r.test)]
            if len(own):
                moved.append(f"Trained on {r.train}, the networks win {r.win_rate:.3f} on {r.test} (seeds "
                             f"{r.seed_min:.3f} to {r.seed_max:.3f}), the networks trained on {r.test} "
                             f"{own['win_rate'].iloc[0]:.3f}")
        if moved:
            moved.append("No order is drawn: these tests play other boards per seed, and a seed-level verdict needs "
                         "the networks' runs on the benchmark's boards (`python -m sweeper reproduce "
                         "ext:benchmark_neural`)")
    rising = [_rising(b, runs) for b in LEVELS]
    rising = [x for x in rising if x]
    n = runs["checkpoints"]["test_games"].unique()
    boards = f"{int(n[0]):,}" if len(n) == 1 else f"{int(n.min()):,} to {int(n.max()):,}"
    f = runs["facts"]
    speed = "; ".join(f"{b}: {g['games'].mean():,.0f} games in {g['cpu_seconds'].mean() / 60:.1f} CPU minutes"
                      + (f" (over the {BUDGET_MINUTES}-minute budget its games were sized for: the seeds took "
                         f"{g['cpu_seconds'].min() / 60:.0f} to {g['cpu_seconds'].max() / 60:.0f})"
                         if g["cpu_seconds"].mean() > BUDGET_MINUTES * 60 else "")
                      for b, g in f.groupby("board", sort=False))
    return {"targets": ("Per level: " + "; ".join(parts) + ".") if parts else "",
            "transfer": (". ".join(moved) + ".") if moved else "", "speed": f"Training, mean over the seeds: {speed}.",
            "rising": (f"The checkpoints test each network on the same {boards} boards every time; its run's final "
                       "test plays the trained network, which is the last checkpoint, on boards of its own (other than "
                       "the benchmark's of the table above). Where those are "
                       "other boards, the two rates differ by the boards alone, and a level is called still rising "
                       "only if its last step is larger than that difference. Between the last two checkpoints (seeds "
                       "pooled) the networks' win rate on their own level went " + "; ".join(rising) + ".")
            if rising else ""}


def _rising(board: str, runs: dict) -> str:
    """One level's clause of ``findings()["rising"]``: the pooled win rate at the last two checkpoints, and whether
    the step exceeds what the boards alone move (the last checkpoint against the final test of the same networks on
    other boards), or that these runs cannot tell."""
    cp, tests, facts = runs["checkpoints"], runs["tests"], runs["facts"]
    pts = cp[cp["board"] == board].sort_values("games")
    if pts.empty:
        return ""
    last_two = pts.groupby("seed").tail(2)
    before = last_two.groupby("seed").head(1).set_index("seed").sort_index()
    end = last_two.groupby("seed").tail(1).set_index("seed").sort_index()
    if not (before["games"] < end["games"]).all():
        return ""
    # rates, steps and differences at the precision printed, so that the sentence's numbers add up
    r0 = round(before["wins"].sum() / before["test_games"].sum(), 3)
    r1 = round(end["wins"].sum() / end["test_games"].sum(), 3)
    step = round(r1 - r0, 3)
    text = (f"on {board}, from {r0:.3f} at {before['games'].mean():,.0f} games to {r1:.3f} at "
            f"{end['games'].mean():,.0f} ({step:+.3f})")
    own = tests[(tests["train"] == board) & (tests["test"] == board)].set_index("seed")
    trained = facts[facts["board"] == board].set_index("seed")["games"]
    final = (set(own.index) == set(end.index)
             and all(trained.get(s_) == end.loc[s_, "games"] for s_ in end.index))  # the last checkpoint is the end
    cannot = "these runs cannot tell whether it was still rising"
    if not final:
        return text + f"; no test of the same networks on other boards measures the boards' effect, so {cannot}"
    if (own["board_set"] == 0).all():
        return (text + f"; the run's final test of these networks played the checkpoints' boards ({r1:.3f}, the same "
                f"games), so no board-to-board difference is measured on {board} and {cannot}")
    if (own["board_set"] == 0).any():
        return text + f"; the runs' final tests played the checkpoints' boards for some seeds only, so {cannot}"
    rt = round(own["wins"].sum() / own["test_games"].sum(), 3)
    moved = round(abs(rt - r1), 3)
    verdict = (f"the step is larger, so it was still {'rising' if step > 0 else 'falling'} when the budget ran out"
               if abs(step) > moved else f"the step is not larger, so {cannot}")
    return (text + f"; the runs' final test, the same networks on other boards, gives {rt:.3f}, {moved:.3f} away: the "
            f"boards alone move the rate that much, and {verdict}")


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
    rows = [g.sort_values(["surprise", "seed"], ascending=[False, True]).iloc[0] for _, g in own.groupby(
        "test", sort=False)]
    out = pd.DataFrame(rows).reset_index(drop=True)
    out["order"] = out["test"].map(LEVELS.index)
    return out.sort_values("order").drop(columns="order").reset_index(drop=True)


def field(outputs=None, runs: dict | None = None, players: pd.DataFrame | None = None) -> pd.DataFrame:
    """The receptive-field exercise: per number of layers (1, 2, 3 from ``ext:neural_field``; 5 from the chapter's
    networks at their checkpoint nearest 7,500 games), the width of the square it sees, the beginner test win rate
    pooled over the seeds [95% Wilson] with the seeds' range and rates (``seed_rates``), the games and CPU seconds of
    training (mean over the seeds); and the paper's greedy table (``players``) as the last row."""
    outputs = stored_outputs("ext:neural_field") if outputs is None else outputs
    rows = []
    for t, out in outputs:
        r = out.tables["tests"].iloc[0]
        rows.append({"layers": t.params["layers"], "seed": t.params["seed"], "wins": int(r["wins"]),
                     "test_games": int(r["test_games"]), "win_rate": float(r["win_rate"]),
                     "games": out.info["train_games"], "cpu_seconds": out.info["train_cpu_seconds"]})
    if runs is not None:
        p = runs["checkpoints"]
        p = p[p["board"] == "8x8x10"]
        for seed, g in p.groupby("seed"):
            r = g.loc[(g["games"] - 7_500).abs().idxmin()]
            rows.append({"layers": 5, "seed": seed, "wins": int(r["wins"]), "test_games": int(r["test_games"]),
                         "win_rate": float(r["win_rate"]), "games": int(r["games"]),
                         "cpu_seconds": float(r["cpu_seconds"])})
    df = pd.DataFrame(rows)
    table = []
    for n, g in df.groupby("layers"):
        wins, games = int(g["wins"].sum()), int(g["test_games"].sum())
        lo, hi = wilson(wins, games)
        table.append({"model": f"network, {n} layer{'s' if n > 1 else ''}", "sees": f"{2 * n + 1}x{2 * n + 1}",
                      "seeds": g["seed"].nunique(), "games": g["games"].mean(), "cpu_seconds": g["cpu_seconds"].mean(),
                      "wins": wins, "test_games": games, "win_rate": wins / games, "lo": lo, "hi": hi,
                      "seed_min": g["win_rate"].min(), "seed_max": g["win_rate"].max(),
                      "seed_rates": tuple(g.sort_values("seed")["win_rate"].astype(float))})
    if players is not None:
        r = players[(players["player"] == "greedy") & (players["board"] == "8x8x10")].iloc[0]
        table.append({"model": "greedy table (the paper's)", "sees": "3x3 windows", "seeds": int(r.get("seeds", 1)),
                      "games": np.nan,
                      "cpu_seconds": np.nan, "wins": int(r["wins"]), "test_games": int(r["games"]),
                      "win_rate": r["win_rate"], "lo": r["lo"], "hi": r["hi"],
                      "seed_min": min(r.get("seed_rates", (r["win_rate"],))),
                      "seed_max": max(r.get("seed_rates", (r["win_rate"],))),
                      "seed_rates": tuple(r.get("seed_rates", (r["win_rate"],)))})
    return pd.DataFrame(table)


__all__ = ["LEVELS", "SEEDS", "TARGETS", "PLAYERS", "stored_outputs", "neural_runs", "pooled", "transfer_table",
           "yardstick", "comparison_players", "network_scores", "transfer_verdict_table", "equal_cpu_sentence", "against_targets", "at_cpu", "findings", "quality", "window_agents",
           "calibration", "calibration_errors", "worst_mistakes", "field"]


# ------------------------------------------------------------------------------------- for the page --

def _ci(rate, lo, hi) -> str:
    return f"{rate:.3f} [{lo:.3f}, {hi:.3f}]"


def facts_table(facts: pd.DataFrame) -> pd.DataFrame:
    """What the networks were trained on, per level (mean over the seeds): games, decisions, gradient steps, CPU
    minutes, games per CPU second, and the network's weights."""
    rows = {}
    for b, g in facts.groupby("board", sort=False):
        rows[b] = {"seeds": f"{g['seed'].nunique()}", "games": f"{g['games'].mean():,.0f}",
                   "decisions": f"{g['decisions'].mean():,.0f}", "gradient steps": f"{g['updates'].mean():,.0f}",
                   "CPU minutes": f"{g['cpu_seconds'].mean() / 60:.1f}",
                   "games / CPU s": f"{(g['games'] / g['cpu_seconds']).mean():.1f}",
                   "weights": f"{int(g['parameters'].iloc[0]):,}"}
    return pd.DataFrame(rows).T.rename_axis("trained on")


def targets_table(t: pd.DataFrame) -> pd.DataFrame:
    """:func:`against_targets` for the page."""
    f3 = lambda v: "" if pd.isna(v) else f"{v:.3f}"  # noqa: E731
    return pd.DataFrame({"trained here": [_ci(r.own, r.own_lo, r.own_hi) if not np.isnan(r.own) else ""
                                          for r in t.itertuples()],
                         "target": t["target"].map(lambda v: f"{v:.2f}"),
                         "best (from)": [f"{r.best:.3f} ({r.best_from})" for r in t.itertuples()],
                         "random": t["random"].map(f3), "table": t["greedy"].map(f3),
                         "solver": t["solver"].map(f3)}).set_index(t["board"].rename("level"))


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


def regret_sentence(q: pd.DataFrame, window: pd.DataFrame, bench: dict | None = None) -> str:
    """The beginner networks' regret per game beside the paper's greedy table's and its representation gap, each
    with its oracle and its games: they are not on one scale, so no order between them is drawn. With ``bench``
    (:func:`yardstick`, the networks in it), the two on one scale follow: the benchmark's regret per click, one
    oracle, the same boards."""
    own = q[(q["train"] == "8x8x10") & (q["test"] == "8x8x10")]
    if own.empty or window.empty:
        return ""
    r, w = own.iloc[0], window.iloc[0]
    return _regret_apart(r, w) + (_regret_together(bench) if bench is not None else "")


def _regret_together(bench: dict) -> str:
    """The beginner networks' and the greedy table's regret per click on the benchmark's boards (one oracle)."""
    s = bench["scores"]
    s = s[s["level"] == "beginner"]
    nets, table = s[s["label"] == "network (beg.)"], s[s["spec"] == "greedy"]
    if nets.empty or table.empty:
        return ""
    return (f" On one scale, the benchmark's (regret per click against the safest tile on offer, flags not counted, on "
            f"the first {int(s['regret_games'].max()):,} beginner boards, the same for both): the networks "
            f"{nets['regret_per_decision'].mean():.4f} per decision (mean of {nets['seed'].nunique()} seeds, "
            f"{nets['regret_per_decision'].min():.4f} to {nets['regret_per_decision'].max():.4f}), the greedy table "
            f"{table['regret_per_decision'].mean():.4f} ({table['seed'].nunique()} seeds, "
            f"{table['regret_per_decision'].min():.4f} to {table['regret_per_decision'].max():.4f}).")


def _regret_apart(r, w) -> str:
    return (f"On beginner the networks' regret is {r['regret_per_game']:.3f} per game against an oracle that takes "
            f"the best click ({r['regret_per_decision']:.4f} per decision over {int(r['decisions']):,} decisions of "
            f"{int(r['games'])} test games). The paper's greedy table, frozen after {int(w['trained games']):,} "
            f"games, has {w['regret per game']:.3f} per game against an oracle that takes the best click or flag, "
            f"over its own {int(w['test games']):,} test games ({w['regret per decision']:.4f} per decision; its "
            f"decisions include flags, so only the rates per game share a unit). Of that, {w['gap per game']:.3f} "
            f"per game is its representation gap, measured on the same games against the best window agent, whose "
            f"table is itself estimated from a sample (the regret chapter). Two oracles, two sets of games and an "
            f"estimated comparator: the numbers are not on one scale, so this page ranks neither against the other "
            f"and sets no floor for agents that read 3×3 windows. The networks' figure also rests on "
            f"{int(r['games'])} games, too few for an interval as narrow as the table's.")


def mistakes_sentence(worst: pd.DataFrame) -> str:
    """What the shown mistakes have in common, from their numbers."""
    parts = [f"on {r.test}, {r.net:.1%} for a tile whose exact P(mine) is {r.exact:.0%}, with {r.covered} tiles "
             f"covered (decision {r.decision})" for r in worst.itertuples()]
    return ("The network's prediction for the tile it clicked, against the exact probability: " + "; ".join(parts)
            + ". Each is one decision, picked as the worst of a few stored ones: an illustration, not a rate; the "
              "rates are in the table above.") if parts else ""


def budget_sentence(first: pd.DataFrame, greedy, points: pd.DataFrame) -> str:
    """The exercise's conclusion: per seed, the first checkpoint above the greedy table."""
    seeds = sorted(points.loc[points["board"] == "8x8x10", "seed"].unique())
    if first.empty:
        return (f"No beginner checkpoint of seeds {', '.join(map(str, seeds))} is above the greedy table's "
                f"{greedy['win_rate']:.4f} with separated intervals.")
    parts = [f"seed {int(r.seed)} after {r.cpu_seconds / 60:.1f} CPU minutes ({int(r.games):,} games: "
             f"{r.win_rate:.3f} [{r.lo:.3f}, {r.hi:.3f}])" for r in first.itertuples()]
    missing = [str(s) for s in seeds if s not in set(first["seed"])]
    return ("Above the greedy table's " + f"{greedy['win_rate']:.4f} [{greedy['lo']:.4f}, {greedy['hi']:.4f}]: "
            + "; ".join(parts) + (f"; seeds {', '.join(missing)} never" if missing else "")
            + ". The checkpoints are few (at a thirtieth, a tenth, a third and two thirds of the training, and its "
              "end), so each is an upper bound on the time needed; 1,000 test games per checkpoint.")


def field_table(f: pd.DataFrame) -> pd.DataFrame:
    """:func:`field` for the page."""
    return pd.DataFrame({"sees": f["sees"], "seeds": f["seeds"],
                         "training games": f["games"].map(lambda v: "" if pd.isna(v) else f"{v:,.0f}"),
                         "CPU s": f["cpu_seconds"].map(lambda v: "" if pd.isna(v) else f"{v:,.0f}"),
                         "win rate [95%]": [_ci(r.win_rate, r.lo, r.hi) for r in f.itertuples()],
                         "seeds' range": [f"{r.seed_min:.3f}-{r.seed_max:.3f}" if r.seeds > 1 else ""
                                          for r in f.itertuples()],
                         "test games": f["test_games"].map(lambda v: f"{v:,}")}).set_index(f["model"].rename(None))


def field_sentence(f: pd.DataFrame) -> str:
    """The receptive-field exercise's conclusion: each network against the table over the seeds
    (:func:`~sweeper.experiments.stats.compare_seed_rates`, unpaired: the networks' seeds and the table's were
    tested on different boards)."""
    table = f[f["model"].str.startswith("greedy")]
    nets = f[~f["model"].str.startswith("greedy")]
    if table.empty or nets.empty:
        return ""
    t = table.iloc[0]
    words = []
    for r in nets.itertuples():
        c = compare_seed_rates(r.seed_rates, t["seed_rates"])
        ci = "" if np.isnan(c["low"]) else f" [{c['low']:+.3f}, {c['high']:+.3f}]"
        word = {"more than": "more than the table", "less than": "less than the table",
                "level with": "level with the table (within ±0.01)",
                "cannot be told apart": "not told apart from the table by these seeds"}[c["verdict"]]
        words.append(f"{r.sees} ({r.model.split(', ')[1]}): {r.win_rate:.3f}, {word} "
                     f"({c['difference']:+.3f}{ci})")
    boards = int(t["test_games"]) // max(int(t["seeds"]), 1)
    per_net = int(nets["test_games"].iloc[0] / nets["seeds"].iloc[0])
    return (f"Against the paper's table ({t['win_rate']:.3f}, the mean of {int(t['seeds'])} seeds on the benchmark's "
            f"{boards:,} beginner boards): " + "; ".join(words) + f". Each network row has {int(nets['seeds'].max())} "
            f"seeds, each tested on {per_net:,} boards of its own after about {nets['games'].mean():,.0f} training "
            "games; the table trained on 1,000,000. The boards differ between the two sides, so each verdict is "
            "Welch's 95% interval over the seeds' rates, unpaired (a seed's rate carries its boards' noise). The "
            "5-layer row is the chapter's networks at their checkpoint nearest 7,500 games, tested on the same "
            "boards as the other networks of their seed.")


def transfer_sentence(runs: dict, scored: dict | None = None) -> str:
    """The transfer exercise's conclusion: what differed between the beginner and intermediate training, from the
    facts, and what the runs cannot separate; the two kinds of network compared on intermediate over their seeds on
    the benchmark's boards (``scored``, :func:`network_scores`), or, without it, only their rates."""
    f = runs["facts"].groupby("board")[["games", "decisions", "updates", "cpu_seconds"]].mean()
    if not {"8x8x10", "16x16x40"} <= set(f.index):
        return ""
    b, i = f.loc["8x8x10"], f.loc["16x16x40"]
    p = pooled(runs["tests"] if scored is None else scored["tests"])
    on = p[p["test"] == "16x16x40"].set_index("train")
    if not {"8x8x10", "16x16x40"} <= set(on.index):
        return ""
    small, big = on.loc["8x8x10"], on.loc["16x16x40"]
    if scored is None:
        joint = ("at about the same CPU time, the two trainings gave intermediate players these runs cannot order "
                 "(their tests play other boards per seed)")
    else:
        c = compare_seeds(_outcomes(scored["games"], "8x8x10", "16x16x40"),
                          _outcomes(scored["games"], "16x16x40", "16x16x40"))
        joint = "at about the same CPU time, " + {
            "more than": "training on the small board gave the better intermediate player",
            "less than": "training on the intermediate board gave the better intermediate player",
            "level with": "the two trainings gave intermediate players level with each other",
            "cannot be told apart": "the two trainings gave intermediate players that three seeds cannot tell apart"}[
            c["verdict"]] + f" ({c['difference']:+.3f} over the seeds, on the same boards)"
    return (f"On intermediate, the beginner networks win {_ci(small['win_rate'], small['lo'], small['hi'])} and the "
            f"intermediate ones {_ci(big['win_rate'], big['lo'], big['hi'])} ({int(small['seeds'])} and "
            f"{int(big['seeds'])} seeds, pooled{', on the benchmark' + chr(39) + 's boards' if scored else ''}). "
            f"Trained on beginner, a network played {b['games'] / i['games']:.0f} times as many games, made "
            f"{b['decisions'] / i['decisions']:.1f} times as many decisions and took "
            f"{b['updates'] / i['updates']:.1f} times as many gradient steps, in {b['cpu_seconds'] / 60:.0f} "
            f"against {i['cpu_seconds'] / 60:.0f} CPU minutes: a beginner decision costs less, its board having a "
            f"quarter of the tiles. It also saw other views: more openings and board edges per tile, fewer long "
            f"frontiers. These runs change all of these at once, so they support only the joint statement: {joint}. "
            f"Training on "
            f"intermediate for as many gradient steps, or on beginner for as few, would separate the number of "
            f"steps from the kind of board.")


__all__ += ["facts_table", "targets_table", "calibration_errors_table", "quality_table", "regret_sentence",
            "mistakes_sentence", "budget_sentence", "field_table", "field_sentence", "transfer_sentence"]
