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
