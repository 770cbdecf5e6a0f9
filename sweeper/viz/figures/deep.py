"""The chapter "Deep RL on the same board": the stored runs of ``ext:deep_rl`` beside the paper's greedy agent.

Training the network needs the optional extra ``deep`` (``make deep``), so the chapter always reads the
committed paper-scale runs, whatever :func:`~sweeper.viz.figures.results.scale` says (its quick-scale tests
read them too). Nothing here computes a result.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...experiments import specs as ex
from ...experiments.reproduce import store_for
from ...experiments.stats import order as interval_order
from ...experiments.stats import wilson

#: The label of each agent in the chapter's tables and charts.
GREEDY = "greedy (bandit)"


def _ppo_label(steps: int, kernel: int = 3) -> str:
    """MaskablePPO's runs, named short (the page introduces the algorithm): 'PPO, 60,000 steps'."""
    return f"PPO{'' if kernel == 3 else f' (first kernel {kernel}×{kernel})'}, {steps:,} steps"


def deep_rl_runs() -> dict:
    """The stored runs: ``curves`` (per block of 1,000 training games of each network, and greedy's first games
    at the same resolution of its own blocks: agent, episode, cpu_seconds, block_win_rate, cum_win_rate),
    ``tests`` (agent, test games, wins, win rate [95% Wilson], frozen), ``facts`` (per network: steps, games,
    CPU seconds, steps and games per CPU second, parameters, the audit of its test clicks) and ``greedy`` (the
    facts of greedy's run)."""
    st = store_for(None, "paper")
    sc = ex.SCALES["paper"]
    tasks = ex.all_tasks(["ext:deep_rl"], "paper")
    missing = [t for t in tasks if st.status(t) != "ok"]
    if missing:
        raise ValueError(f"{len(missing)} runs of ext:deep_rl are missing: `make deep` trains them (it installs "
                         f"the optional extra 'deep' first)")
    curves, tests, facts = [], [], []
    for t in tasks:
        out = st.load(t)
        kernel = t.params.get("kernel", 3)
        label = _ppo_label(t.params["steps"], kernel)
        c = out.tables["curve"]
        curves.append(pd.DataFrame({"agent": label, "episode": c["episode"], "cpu_seconds": c["cpu_seconds"],
                                    "block_win_rate": c["block_win_rate"], "cum_win_rate": c["cum_win_rate"]}))
        g = out.tables["tests"]
        wins, n = int(g["won"].sum()), len(g)
        lo, hi = wilson(wins, n)
        tests.append({"agent": label, "test games": n, "wins": wins, "win_rate": wins / n, "ci_low": lo,
                      "ci_high": hi})
        i = out.info
        a = {k[len("audit_"):-len("_8x8x10")]: v for k, v in i.items() if k.startswith("audit_")}
        facts.append({"agent": label, "kernel": kernel, "steps": i["steps"], "games": i["games"], "cpu_seconds": i["train_cpu_seconds"],
                      "steps_per_cpu_second": i["steps"] / i["train_cpu_seconds"],
                      "games_per_cpu_second": i["games"] / i["train_cpu_seconds"], "parameters": i["parameters"],
                      "torch": i["torch"], **{f"audit {k}": v for k, v in a.items()}})
    greedy_task = ex.base_task("greedy", sc, 1)
    out = st.load(greedy_task)
    c = out.tables["curve"]
    rate = out.info["games"] / out.info["train_seconds"]
    curves.append(pd.DataFrame({"agent": GREEDY, "episode": c["episode"], "cpu_seconds": c["episode"] / rate,
                                "block_win_rate": c["block_win_rate"], "cum_win_rate": c["cum_win_rate"]}))
    tg = out.tables["tests"]
    frozen = tg[(tg["test"] == "8x8x10") & (tg["mode"] == "frozen")]["won"]
    lo, hi = wilson(int(frozen.sum()), len(frozen))
    tests.append({"agent": f"{GREEDY}, after 10⁶ games", "test games": len(frozen), "wins": int(frozen.sum()),
                  "win_rate": float(frozen.mean()), "ci_low": lo, "ci_high": hi})
    greedy = {"games": out.info["games"], "seconds": out.info["train_seconds"], "games_per_second": rate,
              "block": int(c["block_games"].iloc[0])}
    return {"curves": pd.concat(curves, ignore_index=True), "tests": pd.DataFrame(tests),
            "facts": pd.DataFrame(facts), "greedy": greedy}


def deep_rl_tests_table(tests: pd.DataFrame) -> pd.DataFrame:
    """The frozen test win rates as the page shows them."""
    return pd.DataFrame({"agent": tests["agent"], "test games": [f"{n:,}" for n in tests["test games"]],
                         "win rate [95% interval]": [f"{w:.4f} [{lo:.4f}, {hi:.4f}]" for w, lo, hi in
                                                     zip(tests["win_rate"], tests["ci_low"], tests["ci_high"])]}
                        ).set_index("agent")


def deep_rl_facts_table(facts: pd.DataFrame, greedy: dict) -> pd.DataFrame:
    """Training cost per network beside greedy's: steps, games, CPU seconds, steps and games per CPU second."""
    rows = [{"agent": r["agent"], "steps": f"{r['steps']:,}",
             "games": f"{r['games']:,}", "CPU s": f"{r['cpu_seconds']:,.0f}",
             "steps / CPU s": f"{r['steps_per_cpu_second']:,.0f}", "games / CPU s": f"{r['games_per_cpu_second']:,.0f}",
             "weights": f"{r['parameters']:,}"} for _, r in facts.iterrows()]
    rows.append({"agent": GREEDY, "steps": "—", "games": f"{greedy['games']:,}", "CPU s": f"{greedy['seconds']:,.0f}",
                 "steps / CPU s": "—", "games / CPU s": f"{greedy['games_per_second']:,.0f}", "weights": "—"})
    return pd.DataFrame(rows).set_index("agent")


def deep_rl_verdict(runs: dict) -> str:
    """The chapter's finding in generated sentences: the longest-trained network's frozen test win rate against
    greedy's training win rate after as many games and after as much CPU time, and what its clicks were."""
    curves, tests, facts = runs["curves"], runs["tests"], runs["facts"]
    best = facts[facts["kernel"] == 3].sort_values("steps").iloc[-1]
    ppo = tests.set_index("agent").loc[best["agent"]]
    g = curves[curves["agent"] == GREEDY].sort_values("episode")
    first = g.iloc[0]
    at_games = g[g["episode"] >= best["games"]].iloc[0]
    reach = g[g["block_win_rate"] >= ppo["win_rate"]]
    cpu_reach = (f"greedy's first block of {int(first['episode']):,} games already wins "
                 f"{first['block_win_rate']:.1%}, after {first['cpu_seconds']:.1f} CPU seconds"
                 if len(reach) and reach.iloc[0]["episode"] == first["episode"] else
                 f"greedy first wins as often in a block of games after {int(reach.iloc[0]['episode']):,} games "
                 f"({reach.iloc[0]['cpu_seconds']:.0f} CPU seconds)" if len(reach) else
                 "greedy never wins as often in its training blocks")
    lo, hi = wilson(int(round(first["block_win_rate"] * runs["greedy"]["block"])), runs["greedy"]["block"])
    versus = interval_order((ppo["win_rate"], ppo["ci_low"], ppo["ci_high"]), (first["block_win_rate"], lo, hi))
    word = {1: "above", 0: "indistinguishable from", -1: "below"}[versus]
    audit = (f" In {int(best['audit decisions']):,} audited test clicks a tile known to be safe was on offer "
             f"{best['audit safe_known'] / best['audit decisions']:.0%} of the time; the network clicked one "
             f"{best['audit clicked_safe_known'] / best['audit decisions']:.0%} of the time and a known mine "
             f"{best['audit clicked_known_mine'] / best['audit decisions']:.0%} of the time."
             if best.get("audit decisions", 0) else "")
    return (f"**Measured.** After {int(best['steps']):,} environment steps ({int(best['games']):,} games, "
            f"{best['cpu_seconds']:,.0f} CPU seconds) the network wins {ppo['win_rate']:.4f} "
            f"[{ppo['ci_low']:.4f}, {ppo['ci_high']:.4f}] of {int(ppo['test games']):,} frozen test games on beginner: "
            f"{word} greedy's win rate in its first {int(first['episode']):,} training games "
            f"({first['block_win_rate']:.4f} [{lo:.4f}, {hi:.4f}]; 95% intervals, *above* or *below* only where "
            f"they are disjoint). After as many games as the network played, greedy wins "
            f"{at_games['block_win_rate']:.1%} of a block; {cpu_reach}.{audit}")


def published_learned_agents() -> pd.DataFrame:
    """Other projects' learned agents as the page shows them (win rates as reported, not measured here)."""
    from ...experiments.paper import published_learned_agents as table
    t = table()
    return pd.DataFrame({"agent": t["agent"], "learning": t["learning"], "board": t["board"],
                         "first click": t["first_click"], "win rate": t["win_rate"].map("{:.1%}".format)}
                        ).set_index("agent")


def published_sources() -> str:
    """Where each row of :func:`published_learned_agents` was reported, row by row, as a sentence (the
    repositories' addresses are too long for a column of the table)."""
    from ...experiments.paper import published_learned_agents as table
    t = table()
    return "Reported by, row by row: " + "; ".join(f"{a}: `{s}`" for a, s in zip(t["agent"], t["source"])) + "."


def kernel_comparison(runs: dict) -> pd.DataFrame:
    """The runs of the shortest budget, one per first-kernel size: test win rate [95% Wilson] over the frozen
    test games, and the win rate of the last block of training games."""
    facts = runs["facts"]
    shortest = facts["steps"].min()
    rows = []
    for _, f in facts[facts["steps"] == shortest].iterrows():
        t = runs["tests"].set_index("agent").loc[f["agent"]]
        c = runs["curves"][runs["curves"]["agent"] == f["agent"]].iloc[-1]
        rows.append({"run": f["agent"], "test games": int(t["test games"]),
                     "test win rate [95% interval]": f"{t['win_rate']:.4f} [{t['ci_low']:.4f}, {t['ci_high']:.4f}]",
                     "last training block": f"{c['block_win_rate']:.4f}"})
    return pd.DataFrame(rows).set_index("run")


def kernel_verdict(runs: dict) -> str:
    """The exercise's answer, generated: the shortest budget's two first-kernel sizes, test against test."""
    facts = runs["facts"]
    short = facts[facts["steps"] == facts["steps"].min()].set_index("kernel")
    if not {3, 5} <= set(short.index):
        return "The stored runs do not hold both first-kernel sizes at the shortest budget."
    t = runs["tests"].set_index("agent")
    a, b = (t.loc[short.loc[k, "agent"]] for k in (3, 5))
    o = interval_order((b["win_rate"], b["ci_low"], b["ci_high"]), (a["win_rate"], a["ci_low"], a["ci_high"]))
    word = {1: "above", 0: "indistinguishable from", -1: "below"}[o]
    none = a["wins"] == 0 and b["wins"] == 0
    return (f"Over {int(a['test games']):,} frozen test games each, the 5×5 network ({int(b['wins']):,} wins) is "
            f"{word} the 3×3 one ({int(a['wins']):,} wins)" + (
                ": neither has learned to win within this budget, so the budget, not the view, limits both."
                if none else "."))


# ----------------------------------------------------- three seeds, the per-tile policy and the floor --

#: The seeds of the chapter's runs.
SEEDS = (1, 2, 3)
#: Safe tiles of a beginner board (the share of them revealed is the chapter's measure that is not stuck at 0).
BEGINNER_SAFE = 54


def stored_outputs() -> list:
    """``(task, output)`` of every stored run of ``ext:deep_rl`` with :data:`SEEDS`, or one clear error naming
    the command that trains the missing ones."""
    from .results import paper_spec
    st, tasks = paper_spec("ext:deep_rl", SEEDS, needs="`make deep` installs the optional extra 'deep', then ")
    return [(t, st.load(t)) for t in tasks]


def agent_label(params: dict) -> str:
    """A deep-RL run named short: 'PPO, CNN, 60,000 steps', 'PPO, CNN 5×5 first, 60,000 steps', 'PPO, per tile,
    160,000 steps'; the floor is 'random clicks'."""
    if "steps" not in params:
        return "random clicks"
    if params.get("policy", "cnn") == "tiles":
        return f"PPO, per tile, {params['steps']:,} steps"
    k = params.get("kernel", 3)
    return f"PPO, CNN{'' if k == 3 else f' {k}×{k} first'}, {params['steps']:,} steps"


def _audit(info: dict, board: str = "8x8x10") -> dict:
    return {k[len("audit_"):-len(f"_{board}")]: v for k, v in info.items()
            if k.startswith("audit_") and k.endswith(f"_{board}")}


def deep_runs(outputs=None) -> dict:
    """The stored runs as tidy frames: ``runs`` (one row per trained network and per random floor: agent, policy,
    seed, steps, games, CPU seconds, weights, hyperparameters, its 1,000 test games' wins, safe tiles revealed per
    game and the audit's counts), ``curves`` (agent, seed, per block of training games: episode, cpu_seconds,
    block_win_rate) and ``checkpoints`` (the per-tile policy frozen on the way: seed, steps, games, cpu_seconds,
    wins, test_games, revealed: the share of safe tiles revealed per test game)."""
    outputs = stored_outputs() if outputs is None else outputs
    rows, curves, points = [], [], []
    for t, out in outputs:
        p, i = t.params, out.info
        g = out.tables["tests"]
        g = g[g["test"] == "8x8x10"]
        label = agent_label(p if t.kind == "deep_ppo" else {})
        rows.append({"agent": label, "policy": p.get("policy", "cnn") if t.kind == "deep_ppo" else "random",
                     "seed": p["seed"], "steps": i.get("steps", 0), "games": i.get("games", 0),
                     "cpu_seconds": i.get("train_cpu_seconds", 0.0), "parameters": i.get("parameters", 0),
                     "hyperparameters": i.get("hyperparameters"), "test_games": len(g), "wins": int(g["won"].sum()),
                     "revealed": float(g["revealed"].mean()) / BEGINNER_SAFE if "revealed" in g else np.nan,
                     **{f"audit_{k}": v for k, v in _audit(i).items()}})
        if "curve" in out.tables:
            c = out.tables["curve"]
            curves.append(pd.DataFrame({"agent": label, "seed": p["seed"], "episode": c["episode"],
                                        "cpu_seconds": c["cpu_seconds"], "block_win_rate": c["block_win_rate"]}))
        if "checkpoints" in out.tables:
            c = out.tables["checkpoints"]
            points.append(c.assign(seed=p["seed"], agent=label, revealed=c["revealed"] / BEGINNER_SAFE))
    return {"runs": pd.DataFrame(rows),
            "curves": pd.concat(curves, ignore_index=True) if curves else pd.DataFrame(),
            "checkpoints": pd.concat(points, ignore_index=True) if points else pd.DataFrame()}


def pooled_tests(runs: pd.DataFrame) -> pd.DataFrame:
    """Per agent, its seeds pooled: the seeds, test games and wins with the win rate's 95% Wilson interval, the
    share of safe tiles revealed per game (mean over the seeds, and their range), and over the audited clicks: the
    share made with a tile known to be safe on offer, the share of those that took one, and the share that clicked
    a known mine."""
    out = []
    for agent, g in runs.groupby("agent", sort=False):
        wins, games = int(g["wins"].sum()), int(g["test_games"].sum())
        lo, hi = wilson(wins, games)
        d = g["audit_decisions"].sum()
        safe = g["audit_safe_known"].sum()
        out.append({"agent": agent, "seeds": g["seed"].nunique(), "test_games": games, "wins": wins,
                    "win_rate": wins / games, "lo": lo, "hi": hi, "revealed": float(g["revealed"].mean()),
                    "revealed_min": float(g["revealed"].min()), "revealed_max": float(g["revealed"].max()),
                    "audited": int(d), "safe_on_offer": safe / d if d else np.nan,
                    "took_safe": g["audit_clicked_safe_known"].sum() / safe if safe else np.nan,
                    "known_mine": g["audit_clicked_known_mine"].sum() / d if d else np.nan})
    return pd.DataFrame(out)


def pooled_tests_table(p: pd.DataFrame) -> pd.DataFrame:
    """:func:`pooled_tests` for the page."""
    pct = lambda v: "" if pd.isna(v) else f"{v:.0%}"  # noqa: E731
    return pd.DataFrame({"seeds": p["seeds"], "test games": p["test_games"].map(lambda v: f"{v:,}"),
                         "win rate [95%]": [f"{r.win_rate:.3f} [{r.lo:.3f}, {r.hi:.3f}]" for r in p.itertuples()],
                         "safe tiles revealed": [f"{r.revealed:.1%} ({r.revealed_min:.0%}-{r.revealed_max:.0%})"
                                                 for r in p.itertuples()],
                         "safe tile taken when known": p["took_safe"].map(pct),
                         "known mine clicked": p["known_mine"].map(pct)}).set_index(p["agent"].rename(None))


def hyperparameters_table(runs: pd.DataFrame) -> pd.DataFrame:
    """PPO's settings as the stored runs hold them, one column per policy (the rewards in one row)."""
    cols = {}
    for policy, g in runs[runs["policy"] != "random"].groupby("policy", sort=False):
        hp = g["hyperparameters"].iloc[0]
        if not isinstance(hp, dict):
            continue
        r = hp["rewards"]
        cols[policy] = {**{k: (f"{v:g}" if isinstance(v, float) else str(v)) for k, v in hp.items()
                           if k != "rewards"},
                        "rewards": f"win {r['win']:g}, loss {r['loss']:g}, per safe tile {r['reveal']:.4f}",
                        "weights": f"{int(g['parameters'].iloc[0]):,}"}
    return pd.DataFrame(cols)


def signal_points(points: pd.DataFrame, neural_points: pd.DataFrame) -> pd.DataFrame:
    """The per-tile PPO's checkpoints beside the neural bandit's on beginner (the same trunk, two learning
    signals): learner, seed, CPU minutes and games of training, frozen test win rate [95% Wilson] and share of
    safe tiles revealed, each on 1,000 test games of the seed's boards."""
    rows = []
    for learner, d in (("PPO, per tile (reward)", points),
                       ("neural bandit (labels)", neural_points[neural_points["board"] == "8x8x10"])):
        for r in d.itertuples():
            lo, hi = wilson(int(r.wins), int(r.test_games))
            rows.append({"learner": learner, "seed": int(r.seed), "cpu_minutes": r.cpu_seconds / 60,
                         "games": int(r.games), "win_rate": r.wins / r.test_games, "lo": lo, "hi": hi,
                         "revealed": float(r.revealed)})
    return pd.DataFrame(rows)


def signal_verdict(sp: pd.DataFrame) -> str:
    """The learning signals compared at the per-tile PPO's longest training: its pooled frozen win rate and share
    of safe tiles revealed, against the neural bandit's checkpoints reached within the same CPU time."""
    ppo = sp[sp["learner"].str.startswith("PPO")]
    net = sp[~sp["learner"].str.startswith("PPO")]
    if ppo.empty or net.empty:
        return ""
    last = ppo.sort_values("cpu_minutes").groupby("seed").tail(1)
    budget = float(last["cpu_minutes"].max())
    within = net[net["cpu_minutes"] <= budget].sort_values("cpu_minutes").groupby("seed").tail(1)
    def pooled(d):
        wins = int(round((d["win_rate"] * 1000).sum()))
        games = 1000 * len(d)
        lo, hi = wilson(wins, games)
        return wins / games, lo, hi
    a, b = pooled(last), pooled(within)
    order = interval_order(a, b)
    word = {1: "more wins than", 0: "as many wins as (the intervals overlap)", -1: "fewer wins than"}[order]
    text = (f"After {last['cpu_minutes'].mean():.0f} CPU minutes of training (mean of {len(last)} seeds, "
            f"{last['games'].mean():,.0f} games), the per-tile PPO wins {a[0]:.3f} [{a[1]:.3f}, {a[2]:.3f}] of its "
            f"frozen test games and reveals {last['revealed'].mean():.0%} of the safe tiles per game; the neural "
            f"bandit, the same trunk trained on the end-of-game labels, at its last checkpoint within that CPU time "
            f"({within['cpu_minutes'].mean():.1f} minutes, {within['games'].mean():,.0f} games, {len(within)} seeds) "
            f"wins {b[0]:.3f} [{b[1]:.3f}, {b[2]:.3f}] and reveals {within['revealed'].mean():.0%}. In the same time, "
            f"with the same network, the reward bought {word} the labels.")
    if a[0] == 0:
        text += (" PPO won no test game at this budget, so these runs say nothing about what it would reach with "
                 "more time or other settings; they measure what one CPU budget buys with each signal.")
    return text
