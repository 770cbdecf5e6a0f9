"""The leaderboard page: every agent of the book on the benchmark's boards (the stored runs of ``ext:benchmark`` at
the page's scale, and, at paper scale, ``ext:benchmark_neural``: the networks of the optional extra).

Nothing here computes a result: the functions read stored runs, or take the frames those give, so a test can hand
them made ones. Every win rate of a trained learner is shown per seed and over its seeds (a Student t-interval over
the seeds' rates) beside the pooled Wilson interval; verdicts between two learners come from
:func:`~sweeper.experiments.stats.compare_seeds`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...experiments import specs as ex
from ...experiments.stats import SEED_METHOD, compare_seeds, seed_summary
from ...experiments.reproduce import store_for
from .results import ensure_spec, scale

#: How the agents are named on the page (the neural networks are named by the level they were trained on).
LABELS = {"solver": "exact solver", "random": "random clicks", "greedy": "greedy table",
          "egreedy:0.01": "ε-greedy table", "ucb:0.1": "UCB table", "thompson": "Thompson table",
          "rule:decaying-eps:1000": "decaying-ε rule", "rule:softmax:0.05": "softmax rule", "rule:ucb1:1": "UCB1 rule",
          "best-window:8x8x10": "best window (beg.)", "best-window:16x16x40": "best window (int.)",
          "ppo:tiles": "PPO (per tile)", "ppo:cnn": "PPO (CNN)"}
LEVEL_OF = {"8x8x10": "beginner", "16x16x40": "intermediate", "16x30x99": "expert"}
SHORT = {"8x8x10": "beg.", "16x16x40": "int.", "16x30x99": "exp."}
#: What each short label stands for (the page's key to its tables).
KEY = ("greedy, ε-greedy (ε = 0.01) and UCB (c = 0.1) tables: the paper's agents; Thompson table: Thompson sampling "
       "on the same table; decaying-ε, softmax (τ = 0.05) and UCB1 rules: the plug-in rules of the chapter \"Write "
       "your own bandit\"; best window (beg., int.): the best window agent of beginner or intermediate boards; "
       "network (beg., int., exp.): the neural bandit trained on that level; network, symmetric: the same network "
       "playing on the mean of its outputs over the board's rotations and reflections, scored on its own level; PPO (per tile) and PPO (CNN): the deep-RL "
       "chapter's two MaskablePPO policies, trained on beginner")


def label(agent: str, facts: dict | None = None) -> str:
    """The page's name of an agent spec of the benchmark's runs."""
    if agent.startswith(("neural:", "neural-symmetric:")):
        how = ", symmetric" if agent.startswith("neural-symmetric:") else ""
        return f"network{how} ({SHORT.get((facts or {}).get('board'), '?')})"
    return LABELS.get(agent, agent)


def stored_outputs() -> list:
    """``(task, output)`` of every stored benchmark run the page shows: ``ext:benchmark`` at the page's scale (an
    error naming the command when one is missing), and at paper scale the runs of the optional extra,
    ``ext:benchmark_neural`` (the networks) and ``ext:benchmark_ppo`` (the PPO policies), each spec when all its
    runs are stored (else none of it: the page says so)."""
    st, tasks = ensure_spec("ext:benchmark")
    out = [(t, st.load(t)) for t in tasks]
    if scale() == "paper":
        paper = store_for(None, "paper")
        for spec in EXTRA_SPECS:
            runs = ex.all_tasks([spec], "paper")
            if runs and all(paper.status(t) == "ok" for t in runs):  # all or none: never a partial set of seeds
                out += [(t, paper.load(t)) for t in runs]
    return out


#: The specs of the optional extra whose runs the leaderboard adds at paper scale.
EXTRA_SPECS = ("ext:benchmark_neural", "ext:benchmark_neural_symmetric", "ext:benchmark_ppo")


def benchmark_runs(outputs=None) -> dict:
    """The stored runs as tidy frames: ``scores`` (one row per run and level: label, seed, the score's columns,
    training games and CPU seconds, test CPU seconds), ``games`` (one row per run, level and board: label, seed,
    won) and ``checkpoints`` (label, seed, games trained, CPU seconds of training so far, win rate on the first
    boards of the training level's suite)."""
    outputs = stored_outputs() if outputs is None else outputs
    scores, games, points = [], [], []
    for t, out in outputs:
        i = out.info
        name, seed = label(i["agent"], i), int(t.params["seed"])
        cpu = i.get("train_cpu_seconds", np.nan)
        s = out.tables["scores"].assign(label=name, seed=seed, train_games=i.get("games", 0), train_cpu_seconds=cpu,
                                        kind=i.get("kind", ""), spec=i["agent"], train_board=i.get("board", ""),
                                        calibration=i["calibration_games_per_cpu_second"],
                                        cpu=i.get("machine", {}).get("cpu", "not recorded"))
        s["test_cpu_seconds"] = s["level"].map(i["test_cpu_seconds"])
        scores.append(s)
        games.append(out.tables["games"].assign(label=name, seed=seed))
        c = out.tables["checkpoints"]
        if len(c):
            points.append(c.assign(label=name, seed=seed, train_cpu_seconds=i["checkpoint_train_cpu_seconds"]))
    return {"scores": pd.concat(scores, ignore_index=True), "games": pd.concat(games, ignore_index=True),
            "checkpoints": pd.concat(points, ignore_index=True) if points else pd.DataFrame()}


def outcomes(games: pd.DataFrame, who: str, level: str) -> list:
    """One array of game outcomes (0/1) per seed of agent ``who`` (a label) on ``level``, seeds in order."""
    g = games[(games["label"] == who) & (games["level"] == level)]
    return [grp.sort_values("board")["won"].to_numpy(int) for _, grp in g.groupby("seed")]


def leaderboard(runs: dict, level: str) -> pd.DataFrame:
    """One row per agent on ``level`` (its seeds together), best first: seeds, the mean win rate over the seeds with
    its t-interval (or, for one run, the Wilson interval), the seeds' lowest and highest rates, the pooled rate with
    its Wilson interval, safe tiles revealed, training games and CPU minutes (mean over the seeds), test CPU per
    decision and regret per decision (means over the seeds)."""
    s = runs["scores"][runs["scores"]["level"] == level]
    rows = []
    for who, g in s.groupby("label", sort=False):
        summ = seed_summary(outcomes(runs["games"], who, level))
        one = summ["n_seeds"] == 1
        rows.append({"agent": who, "seeds": summ["n_seeds"], "boards": int(g["games"].iloc[0]),
                     "win rate": summ["mean"],
                     "low": summ["pooled_low"] if one else summ["low"], "high": summ["pooled_high"] if one else summ["high"],
                     "seed min": summ["min"], "seed max": summ["max"], "pooled low": summ["pooled_low"],
                     "pooled high": summ["pooled_high"], "safe revealed": g["safe_revealed"].mean(),
                     "training games": g["train_games"].mean(), "training CPU min": g["train_cpu_seconds"].mean() / 60,
                     "test µs / decision": (1e6 * g["test_cpu_seconds"] / g["decisions"]).mean(),
                     "regret / decision": g["regret_per_decision"].mean()})
    return pd.DataFrame(rows).sort_values("win rate", ascending=False, kind="stable").reset_index(drop=True)


def leaderboard_table(board: pd.DataFrame) -> pd.DataFrame:
    """:func:`leaderboard` for the page: short columns, numbers as text."""
    f = lambda v, fmt: "" if pd.isna(v) else format(v, fmt)  # noqa: E731
    return pd.DataFrame({
        "win rate [95%]": [f"{r['win rate']:.3f} [{r['low']:.2f}, {r['high']:.2f}]" for _, r in board.iterrows()],
        "seeds": [f"{r.seeds}" if r.seeds == 1 else f"{r.seeds}: {r['seed min']:.2f}–{r['seed max']:.2f}"
                  for _, r in board.iterrows()],
        "revealed": board["safe revealed"].map(lambda v: f"{100 * v:.0f}%"),
        "trained": [_training(g, m) for g, m in zip(board["training games"], board["training CPU min"])],
        "µs/dec.": board["test µs / decision"].map(lambda v: f(v, ".0f")),
        "regret/dec.": board["regret / decision"].map(lambda v: f(v, ".4f"))},
    ).set_index(board["agent"].rename("agent"))


def _training(games, minutes) -> str:
    """Training as ``10⁶ g, 58 s`` or ``75k g, 26 min`` (games and CPU time)."""
    if not games:
        return ""
    g = f"{round(games / 1e6, 1):g}M" if games >= 1e6 else (f"{round(games / 1e3, 1):g}k" if games >= 1e3
                                                             else f"{games:g}")
    cpu = "" if pd.isna(minutes) else (f", {60 * minutes:.0f} s" if minutes < 1 else f", {minutes:.0f} min")
    return f"{g}{cpu}"


def cost_points(runs: dict) -> pd.DataFrame:
    """Win rate against CPU seconds of training: every checkpoint of every trained table agent (on the first boards
    of the beginner suite) and every network's final score on its own level, with the agent's label, seed and
    level."""
    pts = []
    c = runs["checkpoints"]
    if len(c):
        pts.append(c[["label", "seed", "level", "games_trained", "train_cpu_seconds", "win_rate"]])
    s = runs["scores"]
    nets = s[s["kind"].isin(["neural bandit", "PPO"])]
    if len(nets):
        own = nets[nets["train_board"].map(LEVEL_OF) == nets["level"]]
        pts.append(own.assign(games_trained=own["train_games"])[
            ["label", "seed", "level", "games_trained", "train_cpu_seconds", "win_rate"]])
    return pd.concat(pts, ignore_index=True) if pts else pd.DataFrame(
        columns=["label", "seed", "level", "games_trained", "train_cpu_seconds", "win_rate"])


def verdict(runs: dict, a: str, b: str, level: str) -> str:
    """A sentence comparing two learners (labels) on ``level`` at the level of seeds (see
    :data:`~sweeper.experiments.stats.SEED_METHOD`), and what the pooled intervals alone would have said."""
    c = compare_seeds(outcomes(runs["games"], a, level), outcomes(runs["games"], b, level))
    na, nb = c["n_seeds"]
    boards = len(outcomes(runs["games"], a, level)[0])
    signed = lambda v: f"{v + 0.0:+.3f}".replace("-0.000", "+0.000")  # noqa: E731  (no "-0.000")
    diff = f"a difference of {signed(c['difference'])}"
    ci = "" if np.isnan(c["low"]) else f" [{signed(c['low'])}, {signed(c['high'])}]"
    text = {"more than": "wins more than", "less than": "wins less than", "level with": "is level with",
            "cannot be told apart": "cannot be told apart from"}[c["verdict"]]
    pooled = {"more than": "more", "less than": "less", "overlapping": "an overlap"}[c["pooled_verdict"]]
    agree = "agree" if (c["verdict"], c["pooled_verdict"]) in (("more than", "more than"), ("less than", "less than")) \
        or (c["verdict"] in ("level with", "cannot be told apart") and c["pooled_verdict"] == "overlapping") \
        else "would have claimed more"
    return (f"On {level}, the {a} {text} the {b}: {diff}{ci} in win rate ({na} and {nb} seeds, each on the same "
            f"{boards:,} boards). The pooled Wilson intervals, counting every game as independent, show {pooled}: "
            f"they {agree}.")


def suites_table() -> pd.DataFrame:
    """The benchmark's suites as the manifest describes them: board, opening, boards, seed and checksum."""
    from ...experiments.benchmark import manifest
    m = pd.DataFrame(manifest()["suites"])
    return pd.DataFrame({"board": m["board"], "opening": m["opening"], "boards": m["games"].map(lambda v: f"{v:,}"),
                         "seed": m["seed"], "layouts sha256": m["layouts_sha256"].str[:16] + "…"}
                        ).set_index(m["name"].rename("suite"))


def method_note() -> str:
    """How the page's intervals and verdicts are made (one sentence)."""
    return f"Verdicts between two learners: {SEED_METHOD} (a margin of ±0.01 here)."


def untrained(runs: dict, level: str) -> pd.DataFrame:
    """The players without training on ``level`` (the solver, random clicks, the best window agents): label and win
    rate, for the rules of the cost chart."""
    s = runs["scores"]
    s = s[(s["level"] == level) & s["kind"].isin(["solver", "random", "best window"])]
    return pd.DataFrame({"agent": s["label"], "win_rate": s["win_rate"]}).reset_index(drop=True)


def networks_note(runs: dict) -> str:
    """Which learners of the book are on the leaderboard and which are not, and why."""
    nets = runs["scores"][runs["scores"]["kind"] == "neural bandit"]
    sym = nets[nets["spec"].str.startswith("neural-symmetric:")]
    nets = nets[~nets["spec"].str.startswith("neural-symmetric:")]
    if scale() != "paper":
        first = ("The neural bandit's networks (the optional extra `deep`) are scored from their stored paper-scale "
                 "runs, so they appear only in the paper-scale build of this page.")
    elif len(nets):
        first = (f"The neural bandit's {nets[['label', 'seed']].drop_duplicates().shape[0]} networks are scored from "
                 f"their stored runs of `ext:neural` (`python -m sweeper reproduce ext:benchmark_neural`, which needs "
                 f"the extra `deep`).")
        if len(sym):
            first += (f" The same networks also play symmetric ({sym[['label', 'seed']].drop_duplicates().shape[0]} "
                      f"runs of `ext:benchmark_neural_symmetric`: the mean of a network's outputs over the board's "
                      f"rotations and reflections, 8 forward passes per decision on a square board and 4 on an "
                      f"oblong one), each on its own level only.")
    else:
        first = ("The neural bandit's networks are not scored yet: `python -m sweeper reproduce ext:benchmark_neural` "
                 "(needs the extra `deep`) scores them.")
    ppo = runs["scores"][runs["scores"]["kind"] == "PPO"]
    if len(ppo):
        second = (f" The deep-RL chapter's two PPO policies are trained again by `ext:benchmark_ppo` ("
                  f"{ppo[['label', 'seed']].drop_duplicates().shape[0]} runs, the chapter's budgets) and scored on the "
                  f"beginner boards only: their networks are sized for one board. Each run keeps its policy as a "
                  f"plain-data file (`policy.npz`) that `python -m sweeper benchmark` scores again.")
    elif scale() != "paper":
        second = " The deep-RL chapter's two PPO policies (the extra too) appear in the paper-scale build only."
    else:
        second = (" The deep-RL chapter's two PPO policies are not scored yet: their chapter's runs kept no trained "
                  "policy, and `python -m sweeper reproduce ext:benchmark_ppo` (needs the extra `deep`) trains them "
                  "again with the chapter's budgets and keeps each policy as a plain-data file.")
    return first + second


def verdicts(runs: dict, level: str = "beginner", against: str = "greedy table") -> list:
    """A seed-level verdict (:func:`verdict`) of every learner with two or more seeds against ``against``."""
    s = runs["scores"][runs["scores"]["level"] == level]
    seeds = s.groupby("label")["seed"].nunique()
    if against not in seeds or seeds[against] < 2:
        return [f"The {against} has fewer than two seeds on {level}: no seed-level verdict against it."]
    return [verdict(runs, who, against, level) for who in seeds.index if who != against and seeds[who] >= 2]


def own_policy_sentence(own: dict, runs: dict) -> str:
    """Where a policy scored with :func:`~sweeper.experiments.benchmark.score` on beginner stands between random
    clicks and the best window agent of the leaderboard (win rate and regret per decision)."""
    board = leaderboard(runs, own["suite"].split("-")[0])
    rows = {r["agent"]: r for _, r in board.iterrows()}
    lo, hi = rows.get("random clicks"), rows.get("best window (beg.)")
    if lo is None or hi is None:
        return "The leaderboard of this level has no random clicks or best window agent to compare with."
    rate = own["win_rate"]
    nearer = "random clicks" if abs(rate - lo["win rate"]) < abs(rate - hi["win rate"]) else "the best window agent"
    mine, r_lo, r_hi = own["regret_per_decision"], lo["regret / decision"], hi["regret / decision"]
    regret = ("above both" if mine > max(r_lo, r_hi) else "below both" if mine < min(r_lo, r_hi)
              else "between the two")
    return (f"The policy wins {own['wins']:,} of {own['games']:,} boards ({rate:.3f} [{own['win_low']:.3f}, "
            f"{own['win_high']:.3f}]), with a regret of {own['regret_per_decision']:.4f} per decision on "
            f"{own['regret_games']} boards; on the leaderboard ({int(board['boards'].iloc[0]):,} boards of the same "
            f"suite) random clicks win {lo['win rate']:.3f} with {lo['regret / decision']:.4f}, the best window agent "
            f"{hi['win rate']:.3f} with {hi['regret / decision']:.4f}. In win rate it is nearer to {nearer}; its regret "
            f"per decision is {regret}.")


def clock_sentence(runs: dict, here: float) -> str:
    """How a CPU second of the stored runs converts to this machine: their calibration workload's speed against
    ``here`` (games per CPU second of :func:`~sweeper.experiments.benchmark.calibration`), applied to the greedy
    table's training."""
    s = runs["scores"]
    g = s[(s["spec"] == "greedy") & (s["level"] == "beginner")]
    if not len(g):
        return "No stored greedy table run to convert."
    there, cpu, train = g["calibration"].mean(), g["cpu"].iloc[0], g["train_cpu_seconds"].mean()
    ratio = there / here
    return (f"The stored runs timed the calibration at {there:,.0f} games per CPU second (on {cpu}); here it runs "
            f"at {here:,.0f}, so a CPU second there is about {ratio:.2f} CPU seconds here. The greedy table's "
            f"{int(g['train_games'].iloc[0]):,} training games took {train:.1f} CPU seconds there (mean of "
            f"{g['seed'].nunique()} seeds): about {train * ratio:.1f} here.")


def paper_training(spec: str = "greedy") -> dict:
    """The process CPU seconds of a table agent's training as its stored paper-scale benchmark runs measured them
    (``ext:benchmark``: 10⁶ beginner games, seeds 1-3): ``games``, ``cpu_seconds`` (per seed), ``mean``, the
    ``cpu`` model of the machine and the ``calibration`` workload's speed there; an error naming the command when
    the runs are not stored."""
    st = store_for(None, "paper")
    tasks = [t for t in ex.all_tasks(["ext:benchmark"], "paper") if t.params["agent"] == spec]
    if not tasks or any(st.status(t) != "ok" for t in tasks):
        raise ValueError(f"the paper-scale benchmark runs of {spec} are missing: `python -m sweeper reproduce "
                         f"ext:benchmark` computes them")
    info = [st.load(t).info for t in tasks]
    cpu = [i["train_cpu_seconds"] for i in info]
    return {"games": int(info[0]["games"]), "cpu_seconds": cpu, "mean": float(np.mean(cpu)),
            "seeds": [int(t.params["seed"]) for t in tasks], "cpu": info[0]["machine"]["cpu"],
            "calibration": float(np.mean([i["calibration_games_per_cpu_second"] for i in info]))}


def chapter_note(d: pd.DataFrame, runs: dict, board: str = "8x8x10") -> str:
    """The how-good chapter's players (``d``: :func:`~sweeper.viz.figures.beyond.how_good`, one trained agent per
    bandit, reference opening) beside the same agents on the leaderboard (the benchmark's boards, every learner on
    its seeds): the two tables' numbers side by side, and which bandits the seeds can order against greedy."""
    level = LEVEL_OF[board]
    if not (runs["scores"]["level"] == level).any():
        return ""
    lb = leaderboard(runs, level).set_index("agent")
    here = d[(d["board"] == board) & (d["opening"] == "reference")].set_index("player")["win_rate"]
    words = {"more than": "wins more than", "less than": "wins less than", "level with": "is level with",
             "cannot be told apart": "cannot be told apart from"}
    parts, verdicts_, apart = [], [], []
    for spec in ("solver", "greedy", "egreedy:0.01", "ucb:0.1", "thompson"):
        name = LABELS[spec]
        if name not in lb.index or spec not in here.index:
            continue
        r = lb.loc[name]
        n = int(r["seeds"])
        seeds = f" (mean of {n} seeds, {r['seed min']:.4f} to {r['seed max']:.4f})" if n > 1 else ""
        parts.append(f"{name} {here[spec]:.4f} here, {r['win rate']:.4f} there{seeds}")
        apart.append(abs(here[spec] - r["win rate"]))
        if spec != "greedy" and n > 1 and LABELS["greedy"] in lb.index:
            c = compare_seeds(outcomes(runs["games"], name, level), outcomes(runs["games"], LABELS["greedy"], level))
            verdicts_.append(f"the {name} {words[c['verdict']]} the greedy table ({c['difference']:+.3f})")
    if not parts:
        return ""
    boards = int(lb["boards"].iloc[0])
    text = (f"This table follows the paper's protocol: one trained agent per bandit, on this experiment's own test "
            f"boards. [The leaderboard](15_benchmark.html) scores the same kinds of player on the benchmark's "
            f"{boards:,} {level} boards, every learner trained on {int(lb['seeds'].max())} seeds. On {level}: "
            + "; ".join(parts) + ". The two columns differ by their boards and, for a learner, by which trained agent "
              f"plays: the same kind of player's two rates are up to {max(apart):.3f} apart.")
    if verdicts_:
        text += (" Whether one bandit beats another is more than one training can tell; over the seeds, on the "
                 "benchmark's boards (Welch's t-interval, as on the leaderboard), " + "; ".join(verdicts_) + ".")
    return text


def tables_frozen(runs: dict, level: str = "beginner") -> pd.DataFrame:
    """The trained table agents of the leaderboard on ``level`` (:func:`leaderboard`'s rows of the learners with a
    table: the paper's, Thompson sampling and the plug-in rules), best first."""
    tables = set(runs["scores"].loc[runs["scores"]["kind"] == "table", "label"])
    board = leaderboard(runs, level)
    return board[board["agent"].isin(tables)].reset_index(drop=True)


def tables_frozen_note(runs: dict, level: str = "beginner") -> str:
    """What :func:`tables_frozen` shows in words: the order by win rate and by regret per decision, and which
    learners the seeds separate from the greedy table."""
    t = tables_frozen(runs, level)
    if t.empty:
        return ""
    regret_games = runs["scores"].loc[runs["scores"]["level"] == level, "regret_games"].max()
    by_rate = ", ".join(t["agent"])
    by_regret = ", ".join(t.sort_values("regret / decision", kind="stable")["agent"])
    same = "the same order" if by_rate == by_regret else "another order"
    text = (f"Frozen after training and scored on the benchmark's {int(t['boards'].iloc[0]):,} {level} boards (each "
            f"learner on {int(t['seeds'].max())} seeds, every seed on the same boards), the table agents sorted by mean "
            f"win rate are {by_rate}; sorted by mean regret per decision (on the first {int(regret_games):,} boards), "
            f"{by_regret}: {same}. Sorting is not ranking: only the seeds can say which differences are real. "
            f"That regret scores clicks only, against the safest tile on offer; this chapter's oracle also "
            f"scores flags, so the two regrets are not on one scale.")
    greedy = LABELS["greedy"]
    if greedy in set(t["agent"]) and int(t.loc[t["agent"] == greedy, "seeds"].iloc[0]) > 1:
        words = {"more than": "win more than", "less than": "win less than", "level with": "are level with",
                 "cannot be told apart": "cannot be told apart from"}
        groups: dict = {}
        for who in t["agent"]:
            if who == greedy or int(t.loc[t["agent"] == who, "seeds"].iloc[0]) < 2:
                continue
            c = compare_seeds(outcomes(runs["games"], who, level), outcomes(runs["games"], greedy, level))
            groups.setdefault(c["verdict"], []).append(who)
        parts = [f"{' and '.join(ws) if len(ws) < 3 else ', '.join(ws[:-1]) + ' and ' + ws[-1]} {words[v]} the "
                 f"greedy table" for v, ws in groups.items()]
        if parts:
            text += " Over the seeds (Welch's t-interval, as on the leaderboard): " + "; ".join(parts) + "."
    return text


def glance_sentence(runs: dict) -> str:
    """Results at a glance: per level, the exact solver, the paper's greedy table and the learner of highest mean
    win rate on the benchmark's boards, and whether the seeds separate that learner from the greedy table."""
    parts = []
    for level in ("beginner", "intermediate", "expert"):
        if not (runs["scores"]["level"] == level).any():
            continue
        lb = leaderboard(runs, level).set_index("agent")
        learners = lb[lb.index.isin(set(runs["scores"].loc[runs["scores"]["kind"].isin(["table", "neural bandit",
                                                                                          "PPO"]),
                                                           "label"]))]
        solver, greedy = LABELS["solver"], LABELS["greedy"]
        if solver not in lb.index or greedy not in lb.index or learners.empty:
            continue
        best = learners.index[0]
        text = (f"on {level} ({int(lb['boards'].iloc[0]):,} boards) the exact solver wins {lb.loc[solver, 'win rate']:.3f}"
                f", the paper's greedy table {lb.loc[greedy, 'win rate']:.3f} (mean of {int(lb.loc[greedy, 'seeds'])} "
                f"seeds)")
        if best != greedy:
            c = compare_seeds(outcomes(runs["games"], best, level), outcomes(runs["games"], greedy, level))
            verdict = {"more than": "more than the greedy table", "less than": "less than the greedy table",
                       "level with": "level with the greedy table",
                       "cannot be told apart": "not told apart from the greedy table by the seeds"}[c["verdict"]]
            text += (f", and the learner of highest mean, the {best}, {lb.loc[best, 'win rate']:.3f} "
                     f"({int(lb.loc[best, 'seeds'])} seeds): {verdict}")
        parts.append(text)
    if not parts:
        return ""
    return "On [the leaderboard](15_benchmark.html): " + "; ".join(parts) + "."


def ppo_sentence(runs: dict) -> str:
    """The deep-RL chapter's learners on the benchmark's beginner boards: the per-tile PPO, the CNN PPO and the
    beginner networks, each with its training CPU, and the seed-level verdict of the per-tile PPO against the
    networks (the same trunk, another learning signal); or what is not stored yet."""
    s = runs["scores"]
    have = set(s.loc[s["level"] == "beginner", "label"])
    if scale() != "paper":
        return ("The PPO policies and the networks are scored on the benchmark only at paper scale (they need the "
                "extra `deep`); the paper-scale build of this page reads them.")
    missing = [n for n in ("PPO (per tile)", "PPO (CNN)", "network (beg.)") if n not in have]
    if missing:
        return (f"On the benchmark's boards: not yet, {', '.join(missing)} "
                f"{'is' if len(missing) == 1 else 'are'} not scored (`python -m sweeper reproduce ext:benchmark_ppo "
                f"ext:benchmark_neural`, with the extra `deep`).")
    lb = leaderboard(runs, "beginner").set_index("agent")
    part = lambda n: (f"the {n} {lb.loc[n, 'win rate']:.3f} [{lb.loc[n, 'low']:.3f}, {lb.loc[n, 'high']:.3f}] after "  # noqa: E731
                      f"{lb.loc[n, 'training CPU min']:.0f} CPU minutes of training")
    return (f"On the benchmark's {int(lb['boards'].iloc[0]):,} beginner boards, the same for every agent (mean of the "
            f"seeds, with the t-interval over them): " + "; ".join(part(n) for n in ("PPO (per tile)", "PPO (CNN)",
                                                                                     "network (beg.)"))
            + ". " + verdict(runs, "PPO (per tile)", "network (beg.)", "beginner")
            + " These are the two learners as built, at their budgets: no verdict about the two signals.")
