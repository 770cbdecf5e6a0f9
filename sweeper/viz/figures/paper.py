"""The data of the paper's own figures and tables (the chapters "The paper, step by step" and "The
experiments"), one function per figure or table, named after its LaTeX label; :mod:`sweeper.viz.paper_charts`
draws them. The paper's numbers come from :mod:`sweeper.experiments.paper`.
"""

from __future__ import annotations


import numpy as np
import pandas as pd

from ...experiments import specs as ex
from ...experiments.paper import PAPER_BOLD, paper_results
from ...experiments.reproduce import train_label, transfer_best
from ...experiments.stats import order as interval_order
from ..glance import agent_name
from .results import curve, current_scale, comparison, scale, store, trained_agent


def fig_exp_1() -> pd.DataFrame:
    """Cumulative training win rate over episodes, every agent of fig:exp_1."""
    frames = []
    for a in ex.EXP1_AGENTS:
        c = curve(ex.base_task(a, current_scale(), 1))
        frames.append(c.assign(agent=a)[["agent", "episode", "cum_win_rate", "block_win_rate"]])
    return pd.concat(frames, ignore_index=True)


def fig_exp_2() -> pd.DataFrame:
    """Actions recorded and perfect actions over episodes, greedy vs UCB(0.1)."""
    frames = []
    for a in ("greedy", "ucb:0.1"):
        c = curve(ex.base_task(a, current_scale(), 1))
        for col, name in (("actions_recorded", "recorded"), ("perfect_actions", "perfect")):
            frames.append(pd.DataFrame({"agent": a, "episode": c["episode"], "actions": name, "count": c[col]}))
    return pd.concat(frames, ignore_index=True)


def fig_exp_5(points: int = 400) -> pd.DataFrame:
    """ECDF of the learned Q values of greedy and UCB(0.1) (at most ``points`` steps each)."""
    frames = []
    for a in ("greedy", "ucb:0.1"):
        _, q, _ = trained_agent(a).table.recorded()
        qs = np.sort(q)
        idx = np.unique(np.linspace(0, len(qs) - 1, min(points, len(qs))).astype(int))
        frames.append(pd.DataFrame({"agent": a, "q": qs[idx], "ecdf": (idx + 1) / len(qs)}))
    return pd.concat(frames, ignore_index=True)


def value_facts(tables: dict) -> str:
    """What Fig. 9 cannot show, in a sentence for the page: per agent (``tables``: name -> (keys, q, n) of its
    recorded actions) the share of perfect actions (|Q| = 1) and how many of those were seen exactly once."""
    parts = []
    for name, (_, q, n) in tables.items():
        perfect = np.abs(q) == 1.0
        parts.append(f"{name}: {perfect.mean():.0%} of its {len(q):,} recorded actions are perfect, and "
                     f"{(n[perfect] == 1).mean():.0%} of those were seen exactly once")
    return "**Measured.** " + "; ".join(parts) + "."


def tab_action_cnt() -> pd.DataFrame:
    """Mean N of perfect, non-perfect and all recorded actions, ours beside the paper's."""
    c = comparison()
    c = c[c["experiment"] == "action_counts"]
    rows = []
    for metric, label in (("mean_count_perfect", "Yes"), ("mean_count_nonperfect", "No"), ("mean_count_all", "Both")):
        row = {"perfect action?": label}
        for agent, name in (("greedy", "greedy"), ("ucb(c=0.1)", "UCB(0.1)")):
            r = c[(c["agent"] == agent) & (c["metric"] == metric)].iloc[0]
            row[f"{name} ours"] = r["ours"]
            row[f"{name} paper"] = r["paper"]
        rows.append(row)
    return pd.DataFrame(rows).set_index("perfect action?")


def fig_exp_4() -> pd.DataFrame:
    """Training curves of greedy and UCB(0.1): paper model and the three ablations."""
    sc = current_scale()
    frames = []
    variants = (("flags + symmetries", True, True), ("no flags", True, False), ("no symmetries", False, True),
                ("neither", False, False))
    for a in ("greedy", "ucb:0.1"):
        for name, sym, fl in variants:
            t = ex.base_task(a, sc, 1) if sym and fl else ex.bandit(a, "8x8x10", sc.train, 1, block=sc.block,
                                                                    symmetric=sym, flags=fl)
            c = curve(t)
            frames.append(c.assign(agent=a, variant=name)[["agent", "variant", "episode", "cum_win_rate",
                                                           "actions_recorded"]])
    return pd.concat(frames, ignore_index=True)


def _heat(experiment: str) -> pd.DataFrame:
    c = comparison()
    c = c[(c["experiment"] == experiment) & (c["metric"] == "win_rate")].copy()
    dims = c["train_setting"].str.split("x", expand=True).astype(int)
    c["rows"], c["cols"], c["mines"] = dims[0], dims[1], dims[2]
    c["density"] = c["mines"] / (c["rows"] * c["cols"])
    return c[["train_setting", "rows", "cols", "mines", "density", "ours", "ci_low", "ci_high", "games"]].rename(
        columns={"ours": "win_rate"}).reset_index(drop=True)


def fig_exp_6() -> pd.DataFrame:
    """Greedy training win rate per board height x width at density 0.15625."""
    return _heat("dimensions")


def fig_exp_7() -> pd.DataFrame:
    """Greedy training win rate per height x target density at width 10."""
    cells = _heat("density").set_index("train_setting")
    grid = pd.DataFrame(ex.exp7_boards(), columns=["rows", "target_density", "train_setting"])
    # two target densities can round to the same mine count (one board, one run, two cells)
    return grid.join(cells.drop(columns=["rows"]), on="train_setting")


def fmt(v, lo=None, hi=None, digits=4):
    """``v`` for a table cell: empty if missing, an integer with thousands separators, else ``digits``
    decimals; with ``lo`` and ``hi``, followed by its interval ``[lo, hi]``."""
    if pd.isna(v):
        return ""
    if lo is None or pd.isna(lo):
        return f"{v:,.{digits}f}" if isinstance(v, float) and not float(v).is_integer() else f"{int(v):,}"
    return f"{v:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def tab_sa_vs_mab(c: pd.DataFrame | None = None) -> pd.DataFrame:
    """Table II (tab:SAvsMAB) in long form, so that it fits the text column: per board, training length and agent
    (the bandit with its symmetries, without them, and the state-action agent) the win rate [95% interval] and the
    actions (bandit) or state-action pairs (SA) recorded, each beside the paper's. ``c``: the comparison table
    (default: :func:`comparison`)."""
    c = comparison() if c is None else c
    c = c[c["experiment"] == "sa_vs_mab"]
    rows = []
    for (setting, episodes), g in c.groupby(["train_setting", "train_episodes"], sort=True):
        for agent, name in (("mab-greedy", "MAB"), ("mab-greedy+nosym", "MAB no sym."), ("sa-greedy", "SA")):
            w = g[(g["agent"] == agent) & (g["metric"] == "win_rate")].iloc[0]
            k = g[(g["agent"] == agent) & (g["metric"] != "win_rate")].iloc[0]
            rows.append({"board": setting, "games": f"{int(episodes):,}", "agent": name,
                         ("win rate", "ours [95% interval]"): fmt(w["ours"], w["ci_low"], w["ci_high"]),
                         ("win rate", "paper"): fmt(w["paper"]), ("recorded", "ours"): fmt(k["ours"]),
                         ("recorded", "paper"): fmt(k["paper"])})
    t = pd.DataFrame(rows).set_index(["board", "games", "agent"])
    t.columns = pd.MultiIndex.from_tuples(t.columns)
    return t


def tab_transfer(agent: str = "greedy", mode: str = "learning") -> pd.DataFrame:
    """A transfer table (tab:exp_1 for greedy, tab:tl_ucb for ucb:0.1) in long form, so that it fits the text
    column and the paper's value stays beside ours: one block per scenario (the training itself, then the test on
    each level), one row per training setting within it, so that the agents compare down a block as down a
    column of the paper's table. Each row: our win rate [95% CI], ``*`` = significantly best of its block
    (Mann-Whitney, 0.05), and the paper's value (its bold cells also marked ``*``). ``mode``: test games still
    ``learning`` (the paper's code) or ``frozen``."""
    if agent not in ex.TRANSFER_TRAINING:
        raise ValueError(f"agent must be one of {sorted(ex.TRANSFER_TRAINING)}")
    c = comparison()
    name = "greedy" if agent == "greedy" else "ucb(c=0.1)"
    c = c[(c["experiment"] == "transfer") & (c["agent"] == name)]
    best = transfer_best(store(), scale())
    best = best[(best["agent"] == name)]
    paper = paper_results()
    paper = paper[paper["experiment"].isin(["transfer", "initial"])]
    metric = "win_rate" if mode == "learning" else "win_rate_frozen"
    rows = []
    for scenario in ("training",) + ex.STANDARD_TESTS:
        m = "win_rate" if scenario == "training" else metric
        bmode = "learning" if scenario == "training" else mode
        for boards in ex.TRANSFER_TRAINING[agent]:
            label = train_label(boards)
            r = c[(c["train_setting"] == label) & (c["eval_setting"] == scenario) & (c["metric"] == m)].iloc[0]
            b = best[(best["train_setting"] == label) & (best["eval_setting"] == scenario) & (best["mode"] == bmode)]
            star = "*" if bool(b["best"].iloc[0]) else ""
            pr = paper[(paper["agent"] == name) & (paper["train_setting"] == label)
                       & (paper["eval_setting"] == scenario) & (paper["metric"] == "win_rate")]
            same_length = len(pr) and current_scale().train == pr["train_episodes"].iloc[0]
            pv = pr["value"].iloc[0] if same_length else float("nan")
            bold = (name, label, scenario) in PAPER_BOLD
            rows.append({"tested on": "(training)" if scenario == "training" else ex.LEVEL[scenario],
                         "trained on": label, "ours [95% interval]": fmt(r["ours"], r["ci_low"], r["ci_high"]) + star,
                         "paper": fmt(pv) + ("*" if bold and pd.notna(pv) else "")})
    return pd.DataFrame(rows).set_index(["tested on", "trained on"])


def learning_minus_frozen(c: pd.DataFrame) -> pd.DataFrame:
    """Every transfer test cell of the comparison table ``c``: the agent, what it was trained and tested on, its
    win rate still learning minus frozen, and ``order``: +1 / -1 when the two 95% intervals are apart (learning
    higher / lower), 0 when they overlap (:func:`sweeper.experiments.stats.order`)."""
    t = c[(c["experiment"] == "transfer") & (c["eval_setting"] != "training")
          & c["metric"].isin(["win_rate", "win_rate_frozen"])]
    t = t.pivot_table(index=["agent", "train_setting", "eval_setting"], columns="metric",
                      values=["ours", "ci_low", "ci_high"])
    rows = []
    for (agent, trained, test), r in t.iterrows():
        learning, frozen = ((r[("ours", m)], r[("ci_low", m)], r[("ci_high", m)])
                            for m in ("win_rate", "win_rate_frozen"))
        rows.append({"agent": agent_name(agent), "trained on": trained, "tested on": ex.LEVEL[test],
                     "learning − frozen": learning[0] - frozen[0], "order": interval_order(learning, frozen)})
    return pd.DataFrame(rows)


def learning_minus_frozen_table(diff: pd.DataFrame) -> pd.DataFrame:
    """:func:`learning_minus_frozen` as the book shows it: one row per agent and training, one column per level."""
    shown = diff.pivot_table(index=["agent", "trained on"], columns="tested on", values="learning − frozen")
    shown.columns.name = None
    return shown[[ex.LEVEL[t] for t in ex.STANDARD_TESTS if ex.LEVEL[t] in shown.columns]].map(lambda v: f"{v:+.4f}")


def timings() -> pd.DataFrame:
    """Wall times: the paper's (hours) beside ours, from the stored runs."""
    c = comparison()
    t = c[c["experiment"] == "timing"]
    return t[["agent", "train_setting", "train_episodes", "eval_setting", "eval_episodes", "ours", "paper"]].rename(
        columns={"ours": "ours (hours)", "paper": "paper (hours)"}).reset_index(drop=True)


def duration(seconds: float) -> str:
    """A wall time in the unit a reader takes in at a glance: ``42 s``, ``3.1 min``, ``14 h``."""
    if not seconds >= 0:
        raise ValueError(f"a duration is a number of seconds >= 0, got {seconds!r}")
    if seconds < 60:
        return f"{seconds:.0f} s" if seconds >= 10 else f"{seconds:.1f} s"
    if seconds < 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h".replace(".0 h", " h")


def timings_table(t: pd.DataFrame) -> pd.DataFrame:
    """:func:`timings` as the book shows it (narrow enough for the text column): what was timed, the paper's
    wall time and ours (one core), and how many times faster ours ran."""
    rows = []
    for _, r in t.iterrows():
        what = (f"training, {r['train_setting']}, {int(r['train_episodes']):,} games" if r["eval_setting"] == "training"
                else f"testing, {r['eval_setting']}, {int(r['eval_episodes']):,} games")
        ours, paper = r["ours (hours)"] * 3600, r["paper (hours)"] * 3600
        rows.append({"what": what, "paper": "" if pd.isna(paper) else duration(paper), "ours": duration(ours),
                     "× faster": "" if pd.isna(paper) else f"{paper / ours:,.0f}"})
    return pd.DataFrame(rows).set_index("what")


def run_times() -> pd.DataFrame:
    """Seconds and games/s of every stored run (from each run's meta.json)."""
    s = store()
    rows = []
    for t in ex.all_tasks(scale=scale()):
        meta = s.meta(t)
        info = meta["info"]
        rows.append({"task": t.label, "seconds": meta["seconds"], "train_seconds": info.get("train_seconds"),
                     "games": info.get("games"), "games_per_second": info.get("games_per_second")})
    return pd.DataFrame(rows)


def slowest_runs(runs: pd.DataFrame, n: int = 8) -> pd.DataFrame:
    """The ``n`` longest runs of :func:`run_times`: the wall time of the whole run (training and tests), its
    training games and their speed."""
    r = runs.sort_values("seconds", ascending=False).head(n)
    return pd.DataFrame({"run": r["task"], "wall time": r["seconds"].map(duration),
                         "training games": r["games"].map(lambda v: "" if pd.isna(v) else f"{int(v):,}"),
                         "games/s": r["games_per_second"].map(lambda v: "" if pd.isna(v) else f"{v:,.0f}")}
                        ).set_index("run")


def final_win_rates(c: pd.DataFrame) -> pd.DataFrame:
    """Each agent's final training win rate of Fig. 7 (``initial`` rows of :func:`comparison`) with its 95%
    Wilson interval, beside the paper's value where it gives one."""
    f = c[(c["experiment"] == "initial") & (c["metric"] == "win_rate")]
    return pd.DataFrame({"agent": f["agent"].map(agent_name),
                         "win rate [95% interval]": [fmt(v, lo, hi) for v, lo, hi in
                                                     zip(f["ours"], f["ci_low"], f["ci_high"])],
                         "paper": [fmt(v) for v in f["paper"]]}).set_index("agent")


def tinkering_effects(by_height: float, by_density: float, rel_height: float, rel_density: float) -> str:
    """Which of height and density lowers the win rate more, in points and relative to the starting win rate,
    said against the paper's finding (the larger effect in density)."""
    larger = lambda a, b: "height" if a > b else "density"  # noqa: E731
    pts, rel = larger(by_height, by_density), larger(rel_height, rel_density)
    if pts == rel == "density":
        return "The paper finds the larger effect in density; so do we, in points and relative to the starting win rate."
    if pts == rel:
        return (f"The paper finds the larger effect in density; ours is larger in {pts}, in points and relative to "
                f"the starting win rate.")
    return (f"The paper finds the larger effect in density; ours is larger in {pts} in points, but in {rel} "
            f"relative to the starting win rate.")


def sa_vs_bandit_verdict(s: pd.DataFrame) -> str:
    """Table II after the longest training, in generated sentences: the state-action agent against the bandit
    without symmetries and against the one with them (above or below only where the 95% intervals are
    disjoint), whether the paper's summary ("a higher ceiling, more experience needed") holds against the bandit
    its table matches, and on how many boards the paper's own SA agent ends above its bandit. ``s``: rows of the
    comparison table for tab:SAvsMAB's win rates (``train_setting``, ``train_episodes``, ``agent`` among
    ``sa-greedy``, ``mab-greedy``, ``mab-greedy+nosym``, with ``ours``, ``ci_low``, ``ci_high``, ``paper``)."""
    w = s.set_index(["train_setting", "train_episodes", "agent"])
    last = w.reset_index().groupby("train_setting")["train_episodes"].max()
    est = lambda r: (r["ours"], r["ci_low"], r["ci_high"])  # noqa: E731
    vs = {other: {b: interval_order(est(w.loc[(b, n, "sa-greedy")]), est(w.loc[(b, n, other)]))
                  for b, n in last.items()} for other in ("mab-greedy+nosym", "mab-greedy")}
    word = {1: "above", 0: "indistinguishable from", -1: "below"}
    above = [b for b, o in vs["mab-greedy+nosym"].items() if o > 0]
    claim = ("**The paper's summary does not hold against the bandit that matches its table** (the one without "
             'symmetries, see the finding above): it says the SA agent\'s "performance ceiling is higher but '
             'ultimately requires more experience", yet after the longest training the SA agent is above that bandit '
             "on " + (", ".join(above) if above else "no board") + ". ") if len(above) < len(last) else ""
    has_paper = all(pd.notna(w.loc[(b, n, "sa-greedy"), "paper"]) and pd.notna(w.loc[(b, n, "mab-greedy"), "paper"])
                    for b, n in last.items())
    if has_paper:
        higher = [b for b, n in last.items() if w.loc[(b, n, "sa-greedy"), "paper"] > w.loc[(b, n, "mab-greedy"), "paper"]]
        paper = (f"In the paper's own table the SA agent ends above its bandit on {len(higher)} of the {len(last)} boards"
                 + (f" ({', '.join(higher)})." if higher else "."))
    else:
        paper = "The paper's table has no values at this scale's training lengths."
    return ("**Measured.** After the longest training the SA agent is "
            + "; ".join(f"{word[o]} the no-symmetry bandit on {b}" for b, o in vs["mab-greedy+nosym"].items())
            + "; and " + "; ".join(f"{word[o]} the symmetric bandit on {b}" for b, o in vs["mab-greedy"].items())
            + " (95% intervals; *above* and *below* only where they are disjoint). " + claim + paper)


#: The readings of Table II's bandit column, in the order the book shows them.
TABLE2_READINGS = ("the paper (Table II)", "the paper's published code", "ours, with symmetries",
                   "ours, without symmetries")


def table2_bandit_readings() -> pd.DataFrame:
    """Table II's bandit column read four ways, per board and training length (a tenth of the scale's training and
    all of it): the paper's printed numbers; the paper's published code on the recorded layouts of ``ext:paper_code``
    (lengths it was run for only); our greedy agent with its symmetries and without them (``tab:SAvsMAB``, seed 1).
    Columns: board, games, reading, win_rate, ci_low, ci_high (95% Wilson; none for the paper), actions (recorded
    after that many games), and for the published code ``identical`` (games our agent, fed the same layouts,
    played identically: same win, decisions and actions recorded)."""
    from ...experiments.paper import TABLE2_PAPER_CODE
    from ...experiments.stats import wilson
    from .results import ensure_spec
    sc = current_scale()
    st, _ = ensure_spec("ext:paper_code")
    paper = comparison()
    paper = paper[(paper["experiment"] == "sa_vs_mab") & (paper["agent"] == "mab-greedy")]
    rows = []

    def measured(board, games, reading, at, actions, **extra):
        lo, hi = wilson(int(at["cum_wins"]), games)
        rows.append({"board": board, "games": games, "reading": reading, "win_rate": at["cum_wins"] / games,
                     "ci_low": lo, "ci_high": hi, "actions": int(actions), **extra})

    for board, file in TABLE2_PAPER_CODE.items():
        code = ex.paper_code(file, min(sc.train, ex.PAPER_CODE_EPISODES), sc.block)
        code_out = st.load(code)
        code_curve = code_out.tables["paper_code"]
        ours = {sym: st.load(ex.bandit("greedy", board, sc.train, 1, block=sc.block, symmetric=sym))
                .tables["curve"] for sym in (True, False)}
        for games in (sc.train // 10, sc.train):
            p = paper[paper["train_setting"].eq(board) & paper["train_episodes"].eq(games) & paper["paper"].notna()]
            w, n = p[p["metric"] == "win_rate"]["paper"], p[p["metric"] == "actions_recorded"]["paper"]
            if len(w):
                rows.append({"board": board, "games": games, "reading": TABLE2_READINGS[0],
                             "win_rate": float(w.iloc[0]), "ci_low": np.nan, "ci_high": np.nan,
                             "actions": int(n.iloc[0]) if len(n) else np.nan})
            at = code_curve[code_curve["episode"] == games]
            if len(at):
                played = code_out.info["identical_games"] if games == code_out.info["games"] else np.nan
                measured(board, games, TABLE2_READINGS[1], at.iloc[0], at.iloc[0]["actions_recorded"],
                         identical=played, replayed=code_out.info["games"])
            for sym, reading in ((True, TABLE2_READINGS[2]), (False, TABLE2_READINGS[3])):
                at = ours[sym][ours[sym]["episode"] == games].iloc[0]
                measured(board, games, reading, at, at["actions_recorded"])
    return pd.DataFrame(rows)


def table2_bandit_table(t: pd.DataFrame) -> pd.DataFrame:
    """:func:`table2_bandit_readings` as the page shows it: one row per board, games and reading."""
    show = pd.DataFrame({"board": t["board"], "games": [f"{g:,}" for g in t["games"]], "reading": t["reading"],
                         "win rate [95% interval]": [fmt(w, lo, hi) for w, lo, hi in
                                                     zip(t["win_rate"], t["ci_low"], t["ci_high"])],
                         "actions recorded": [fmt(a) for a in t["actions"]]})
    return show.set_index(["board", "games", "reading"])


def table2_bandit_verdict(t: pd.DataFrame) -> str:
    """What :func:`table2_bandit_readings` shows, in generated sentences: for each length the published code was
    run for, whether its win rate's 95% interval holds the paper's printed value and how its action count compares;
    whether our agent fed the same layouts played the same games; and which of our two agents the printed numbers
    are nearer."""
    r = t.set_index(["board", "games", "reading"])
    paper_r, code_r, sym_r, nosym_r = TABLE2_READINGS
    both = [(b, g) for b, g in r.index.droplevel(2).unique()
            if (b, g, paper_r) in r.index and (b, g, code_r) in r.index]
    if not both:
        return ("The paper's table has no values at the lengths the published code was run for at this scale; at "
                "paper scale this paragraph compares them.")
    parts, outside = [], 0
    for b, g in both:
        p, c = r.loc[(b, g, paper_r)], r.loc[(b, g, code_r)]
        inside = c["ci_low"] <= p["win_rate"] <= c["ci_high"]
        outside += not inside
        gap = p["win_rate"] - c["win_rate"]
        parts.append(f"on {b} it wins {c['win_rate']:.4f} [{c['ci_low']:.4f}, {c['ci_high']:.4f}] where the paper "
                     f"prints {p['win_rate']:.4f} ({'inside' if inside else 'outside'} the code's interval, "
                     f"{abs(gap) * 100:.1f} points {'below' if gap < 0 else 'above'} the code's), and records "
                     f"{int(c['actions']):,} actions where the paper prints {p['actions']:,.0f} (the paper's count "
                     f"is {p['actions'] / c['actions']:.1f} times the code's)")
    games = sorted({g for _, g in both})
    lengths = " and ".join(f"{g:,}" for g in games)
    same = [(b, g) for b, g in both if r.loc[(b, g, code_r), "identical"] == r.loc[(b, g, code_r), "replayed"]]
    total = sum(int(r.loc[(b, g, code_r), "replayed"]) for b, g in same)
    replay = (f"Fed the same layouts in the same order, our agent with symmetries played the same {total:,} games as "
              f"the published code (every win, decision count and action count). " if len(same) == len(both) else
              "Fed the same layouts, our agent with symmetries did **not** play the published code's games on "
              + ", ".join(f"{b}" for b, g in both if (b, g) not in same) + ". ")
    near = sum(abs(r.loc[(b, g, nosym_r), "win_rate"] - r.loc[(b, g, paper_r), "win_rate"])
               < abs(r.loc[(b, g, sym_r), "win_rate"] - r.loc[(b, g, paper_r), "win_rate"]) for b, g in both)
    agree = sum(interval_order(tuple(r.loc[(b, g, code_r), ["win_rate", "ci_low", "ci_high"]]),
                               tuple(r.loc[(b, g, sym_r), ["win_rate", "ci_low", "ci_high"]])) == 0 for b, g in both)
    verdict = (f"**The paper's published code does not produce Table II's bandit column.** " if outside == len(both)
               else f"**The paper's published code produces {len(both) - outside} of the {len(both)} win rates.** ")
    return (verdict + f"After {lengths} games, " + "; ".join(parts) + ". " + replay
            + f"Our own run with symmetries (seed 1, other layouts) cannot be told apart from the published code on "
            f"{agree} of the {len(both)} boards (95% intervals overlap), and the printed win rates are nearer our "
            f"agent without symmetries on {near} of the {len(both)} boards.")


def paper_code_numbers(t: pd.DataFrame | None = None) -> pd.DataFrame:
    """What the paper's published code gives for the numbers of the paper it was run for, one row per number, as
    :func:`sweeper.viz.glance.verdicts` takes them: Table II's bandit column (``sa_vs_mab``) from
    :func:`table2_bandit_readings` ``t`` (default: read it), win rate with its 95% interval and actions recorded."""
    t = table2_bandit_readings() if t is None else t
    code = t[t["reading"] == TABLE2_READINGS[1]]
    rows = []
    for _, r in code.iterrows():
        at = {"experiment": "sa_vs_mab", "train_setting": r["board"], "train_episodes": int(r["games"])}
        rows.append({**at, "metric": "win_rate", "value": r["win_rate"], "ci_low": r["ci_low"],
                     "ci_high": r["ci_high"]})
        rows.append({**at, "metric": "actions_recorded", "value": float(r["actions"]), "ci_low": np.nan,
                     "ci_high": np.nan})
    return pd.DataFrame(rows, columns=["experiment", "train_setting", "train_episodes", "metric", "value", "ci_low",
                                       "ci_high"])


# -- the symmetries chapter's pictures (Figs. 5 and 6) ---------------------------------------------------------

#: The eight transforms of the square, as the symmetries chapter names them: ``rot K°`` is ``np.rot90`` by K
#: (counter-clockwise), ``+ mirror`` then transposes (reflects across the diagonal from top-left to bottom-right).
TRANSFORMS = tuple(f"rot {90 * k}°" + (" + mirror" if mirror else "") for k in range(4) for mirror in (False, True))


def transform_images(window, target) -> list[tuple[str, np.ndarray, tuple, int, int]]:
    """The eight images of a 3x3 ``window`` whose target is the cell ``target`` ``(row, col)``, one per
    :data:`TRANSFORMS`: ``(name, image, target in the image, key, key without symmetries)``."""
    from ...agents.windows import key_of

    w = np.asarray(window)
    if w.shape != (3, 3):
        raise ValueError(f"a window is 3x3, got shape {w.shape}")
    r, c = target
    if not (0 <= r < 3 and 0 <= c < 3) or (r, c) == (1, 1):
        raise ValueError(f"the target must be a cell of the window other than its centre, got {target!r}")
    where = np.zeros((3, 3), dtype=bool)
    where[r, c] = True
    out = []
    for name, (k, mirror) in zip(TRANSFORMS, [(k, m) for k in range(4) for m in (False, True)]):
        m, pos = np.rot90(w, k), np.rot90(where, k)
        m, pos = (m.T, pos.T) if mirror else (m, pos)
        t = tuple(int(v) for v in np.argwhere(pos)[0])
        out.append((name, m, t, int(key_of(m, (1, 1), t)), int(key_of(m, (1, 1), t, symmetric=False))))
    return out


def transform_sentence(images) -> str:
    """What :func:`transform_images` gives, in words: the keys with and without symmetries, and, when the eight
    images are fewer distinct windows, why (the transforms that leave the window and its target unchanged)."""
    keys = sorted({i[3] for i in images})
    plain = {i[4] for i in images}
    distinct = {(i[1].tobytes(), i[2]) for i in images}
    first = images[0]
    fixed = [i[0] for i in images[1:] if np.array_equal(i[1], first[1]) and i[2] == first[2]]
    with_sym = (f"With symmetries all {len(images)} images get one key ({keys[0]})" if len(keys) == 1 else
                f"With symmetries the {len(images)} images get {len(keys)} keys ({', '.join(map(str, keys))})")
    if len(distinct) == len(images):
        why = f"the {len(images)} images are {len(images)} different windows"
    else:
        why = (f"the {len(images)} images are only {len(distinct)} different windows, each drawn "
               f"{len(images) // len(distinct)} times, because this window is its own image under "
               + " and ".join(fixed) + (" (it equals its transpose: the mirror across the diagonal through its "
                                        "centre and its target leaves it as it is)" if fixed == ["rot 0° + mirror"]
                                        else ""))
    return (f"{with_sym}; without symmetries {len(plain)} distinct keys, one per different window: {why}.")


def sa_paper_ties(c: pd.DataFrame | None = None) -> str:
    """Where Table II (tab:SAvsMAB) prints one win rate for two agents at the same board and training length, a
    sentence per tie saying what this page can tell about it: whether our runs of the same two agents tie too
    (their 95% Wilson intervals), and how often two runs of that many games with equal true win rates would print
    the same four decimals (the normal approximation of the difference of two binomial rates). Empty when the
    paper prints no tie. ``c``: the comparison table (default: :func:`comparison`)."""
    from math import erf, sqrt

    c = comparison() if c is None else c
    s = c[(c["experiment"] == "sa_vs_mab") & (c["metric"] == "win_rate") & c["paper"].notna()]
    names = {"mab-greedy": "bandit", "sa-greedy": "state-action agent"}
    out = []
    for (board, games), g in s.groupby(["train_setting", "train_episodes"], sort=True):
        g = g.set_index("agent")
        if not {"mab-greedy", "sa-greedy"} <= set(g.index) or g.loc["mab-greedy", "paper"] != g.loc["sa-greedy", "paper"]:
            continue
        p, n = float(g.loc["mab-greedy", "paper"]), int(games)
        sd = sqrt(2 * p * (1 - p) / n)                      # of the difference of two independent rates
        chance = erf(0.00005 / (sd * sqrt(2)))              # |difference| < half a unit of the 4th decimal
        sa = tuple(g.loc["sa-greedy", ["ours", "ci_low", "ci_high"]])
        ours = []
        for agent, name in (("mab-greedy", "with symmetries"), ("mab-greedy+nosym", "without symmetries")):
            if agent in g.index:
                b = tuple(g.loc[agent, ["ours", "ci_low", "ci_high"]])
                gap = 100 * (sa[0] - b[0])
                ours.append(f"{abs(gap):.2f} points {'above' if gap > 0 else 'below'} our bandit {name} (95% "
                            f"intervals that {'do not overlap' if interval_order(sa, b) else 'overlap'})")
        out.append(
            f"**One number twice.** Table II prints {p:.4f} for both its {names['mab-greedy']} and its "
            f"{names['sa-greedy']} on {board} after {n:,} games. This page cannot tell whether that is a copy error: "
            f"the paper gives no intervals and no code for its state-action agent. What it can tell: on that board our "
            f"state-action agent ends " + " and ".join(ours) + "; and even two agents with equal true win rates, "
            f"each run for {n:,} games, would print the same four decimals only about {chance:.0%} of the time. So "
            f"the tie is either that chance or a slip; the tables of this page take the printed number as it stands.")
    return "\n\n".join(out)


def keys_ratio_sentence(ratios: dict, stored: float, stored_games: int = 1_000_000) -> str:
    """The ratio of the keys recorded without and with symmetries after each training length (``{games: ratio}``,
    from one seed of each agent), set beside the ratio ``stored`` of the chapter's table after ``stored_games``."""
    if not ratios:
        raise ValueError("no ratios to compare")
    said = ", ".join(f"{r:.1f} after {g:,} games" for g, r in sorted(ratios.items()))
    rising = all(b > a for a, b in zip(*[[r for _, r in sorted(ratios.items())][i:] for i in (0, 1)]))
    return (f"The ratio is {said}, against {stored:.2f} after {stored_games:,} games in the chapter's table. "
            + ("It grows with training: " if rising else "It is not monotone over these lengths (one seed each): ")
            + "a window met once is one key for either agent, and only when the same situation comes back in "
              "another orientation does the agent without symmetries record a new key, up to 8 for one of the "
              "symmetric agent's.")


def openings_table(preset: str = "beginner") -> pd.DataFrame:
    """The engine's openings (:data:`~sweeper.game.engine.OPENING_TABLE`) for the game chapter, a row each: what the
    opening keeps free of mines (from its guard radius) and where its first click goes when the player names none,
    written out on ``preset``'s board ("—" for an opening that finds its own first tile)."""
    from ...game.engine import FIRST_CLICKS, OPENING_TABLE, PRESETS

    def guarded(radius: int) -> str:
        if radius < 0:
            return "nothing: the game finds its own first tile"
        side = 2 * radius + 1
        return "the first click" if radius == 0 else f"the first click's {side}x{side} square"
    rows, cols, _ = PRESETS[preset]
    return pd.DataFrame(
        [(o.name, guarded(o.guard), f"{o.first}, {FIRST_CLICKS[o.first](rows, cols)} on {preset}" if o.takes_first
          else "—") for o in OPENING_TABLE],
        columns=["opening", "no mine on", "first click if none is given"]).set_index("opening")
