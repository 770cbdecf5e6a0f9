"""The data of the chapters beyond the paper: how good it can get (floor, bandits, ceiling, the published
solver), Thompson sampling, the agent's beliefs against the truth, the other readings of the paper, and your own
rules."""

from __future__ import annotations

import inspect

import numpy as np
import pandas as pd

from ...experiments import specs as ex
from ...experiments.paper import published_solver_rate
from ...experiments.stats import order as interval_order
from .bands import final_by_seed, seed_runs
from .paper import fmt
from .results import FIRST_CLICK, ensure_spec, current_scale, comparison, paper_spec


def how_good() -> pd.DataFrame:
    """Win rate [95% CI] and games/s of the floor, the bandits and the ceiling, per level and opening."""
    from ...experiments.stats import wilson
    st, tasks = ensure_spec("ext:how_good")
    rows = []
    for t in tasks:
        out = st.load(t)
        p = t.params
        if t.kind == "player":
            g = out.tables["games"]
            rows.append(dict(player=p["player"], board=p["board"], opening=p["opening"], wins=int(g["won"].sum()),
                             games=len(g), games_per_second=out.info["games_per_second"],
                             fallbacks=out.info["fallbacks"]))
            continue
        tests = out.tables["tests"]
        for (board, rule), g in tests.groupby(["test", "opening"], sort=False):
            secs = out.info[f"test_seconds_{board}_{rule}"]
            rows.append(dict(player=p["agent"], board=board, opening=rule, wins=int(g["won"].sum()), games=len(g),
                             games_per_second=len(g) / secs if secs else None, fallbacks=None))
    df = pd.DataFrame(rows)
    df["win_rate"] = df["wins"] / df["games"]
    ci = [wilson(w, n) for w, n in zip(df["wins"], df["games"])]
    df["ci_low"], df["ci_high"] = [c[0] for c in ci], [c[1] for c in ci]
    df["published"] = [published_solver_rate(b, o, FIRST_CLICK) if pl == "solver" else None
                       for pl, b, o in zip(df["player"], df["board"], df["opening"])]
    return df


def belief(paper: bool = False) -> dict:
    """The ext:belief audits (agents trained on 8x8x10, frozen, seed 1): ``calibration`` (belief
    bins against exact probabilities, chosen actions and all candidates, per level), ``losses``
    (lost games by cause, per agent and level), ``decisions`` (counts of guesses and of clicks
    on known mines) and ``facts`` (seconds, solver fallbacks). At the scale the pages show, or with
    ``paper=True`` the committed paper-scale runs (for a chapter that compares with paper-scale runs)."""
    st, tasks = paper_spec("ext:belief") if paper else ensure_spec("ext:belief")
    calib, losses, decisions, facts = [], [], [], []
    for t in tasks:
        out = st.load(t)
        a = t.params["agent"]
        calib.append(out.tables["calibration"].assign(agent=a))
        g = out.tables["games"]
        for board, gb in g.groupby("board", sort=False):
            lost = gb[~gb["won"]]
            for cause in ("forced guess", "missed a safe tile", "clicked a known mine"):
                m = lost[lost["cause"].astype(str) == cause]
                losses.append(dict(agent=a, board=board, cause=cause, games=len(m), share_of_games=len(m) / len(gb),
                                   share_of_losses=len(m) / max(len(lost), 1),
                                   by_flag_removal=int(m["by_removal"].sum())))
            facts.append(dict(agent=a, board=board, games=len(gb), win_rate=float(gb["won"].mean()),
                              seconds=out.info[f"audit_seconds_{board}"], fallbacks=out.info[f"fallbacks_{board}"]))
        decisions.append(out.tables["decisions"].assign(agent=a))
    return {"calibration": pd.concat(calib, ignore_index=True), "losses": pd.DataFrame(losses),
            "decisions": pd.concat(decisions, ignore_index=True), "facts": pd.DataFrame(facts)}


#: The three levels in reading order, the openings, and the players from floor to ceiling.
LEVELS = ("8x8x10", "16x16x40", "16x30x99")

#: The openings ext:how_good ran (its own list).
OPENINGS = ex.OPENINGS


PLAYERS = ("random", "ucb:0.1", "egreedy:0.01", "thompson", "greedy", "solver")


def _by_level_and_opening(d: pd.DataFrame, values: str) -> pd.DataFrame:
    """One row per level and opening, one column per player from floor to ceiling (narrow enough for the text
    column)."""
    rows = pd.MultiIndex.from_product([LEVELS, OPENINGS], names=["board", "opening"])
    table = d.pivot_table(index=["board", "opening"], columns="player", values=values, aggfunc="first")
    table = table.reindex(index=rows, columns=list(PLAYERS))
    table.columns.name = "player"
    return table


def how_good_table(d: pd.DataFrame) -> pd.DataFrame:
    """Win rate of every player (columns, floor to ceiling) per level and opening (rows), from :func:`how_good`;
    :func:`how_good_interval` gives the widest 95% interval (the chart of :func:`~sweeper.viz.paper_charts.how_good`
    draws each one)."""
    return _by_level_and_opening(d, "win_rate").map(lambda v: "" if pd.isna(v) else f"{v:.3f}")


def how_good_interval(d: pd.DataFrame) -> str:
    """The largest half-width of the 95% intervals of :func:`how_good`, in words for the page."""
    half = float(((d["ci_high"] - d["ci_low"]) / 2).max())
    games = int(d["games"].min()) if "games" in d else None
    return (f"Each win rate has a 95% Wilson interval no wider than ±{half:.3f}"
            + (f" ({games:,} games per cell or more)" if games else "") + "; the chart draws every interval.")


def opening_effect(d: pd.DataFrame, player: str = "greedy") -> tuple[pd.DataFrame, str]:
    """One player's frozen test win rates per level (rows) and opening (columns) from :func:`how_good`,
    as "rate [95% interval]", and a sentence per level naming the highest rule and the rules its interval
    separates it from (a rule is *better* only where the intervals are disjoint)."""
    x = d[d["player"] == player]
    if x.empty:
        raise ValueError(f"no runs of {player!r} in the data")
    est = {(b, o): (w, lo, hi) for b, o, w, lo, hi in zip(x["board"], x["opening"], x["win_rate"], x["ci_low"],
                                                          x["ci_high"])}
    table = pd.DataFrame({o: [fmt(*est[(b, o)], digits=3) for b in LEVELS] for o in OPENINGS},
                         index=[ex.LEVEL[b] for b in LEVELS])
    lines = []
    for b in LEVELS:
        best = max(OPENINGS, key=lambda o: est[(b, o)][0])
        beaten = [o for o in OPENINGS if o != best and interval_order(est[(b, best)], est[(b, o)]) > 0]
        tied = [o for o in OPENINGS if o != best and o not in beaten]
        lines.append(f"on {ex.LEVEL[b]}, **{best}** is highest"
                     + (f" and its interval separates it from {' and '.join(beaten)}" if beaten else "")
                     + (f"; {' and '.join(tied)} cannot be told apart from it" if tied else ""))
    games = int(x["games"].min())
    text = (f"**Measured** ({games:,} frozen test games per cell, 95% Wilson intervals): " + "; ".join(lines)
            + ". A rule is *better* only where the intervals are disjoint.")
    return table, text


def how_good_speeds(d: pd.DataFrame) -> pd.DataFrame:
    """Games per second of every player per level and opening, from :func:`how_good` (thousands separated)."""
    return _by_level_and_opening(d, "games_per_second").map(lambda v: "" if pd.isna(v) else f"{v:,.0f}")


def solver_table(d: pd.DataFrame) -> pd.DataFrame:
    """The solver's rows of :func:`how_good` that have a published figure: our win rate [95% interval], the
    published figure, ours minus the published in points, and our games/s."""
    s = d[(d["player"] == "solver") & d["published"].notna()]
    return pd.DataFrame({"board": s["board"], "opening": s["opening"],
                         "ours [95% interval]": [fmt(w, lo, hi) for w, lo, hi in
                                                 zip(s["win_rate"], s["ci_low"], s["ci_high"])],
                         "published": s["published"].map(lambda v: f"{v:.4f}"),
                         "gap, points": [f"{round((w - p) * 100, 2) + 0.0:+.2f}" for w, p in
                                         zip(s["win_rate"], s["published"])],
                         "games/s": s["games_per_second"].map(lambda v: f"{v:,.0f}")}).set_index(["board", "opening"])


def thompson_summary() -> pd.DataFrame:
    """Final training win rate per seed of the Thompson spec's agents with its mean and t interval, and the
    mean actions recorded and training games/s of their runs."""
    final = final_by_seed("ext:thompson")
    runs = seed_runs("ext:thompson")
    extra = runs.groupby("agent").agg(**{"actions recorded": ("actions_recorded", "mean"),
                                         "training games/s": ("games_per_second", "mean")})
    return final.join(extra)


_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def own_rules_text() -> str:
    """The chapter's list of the plug-in rules that ``ext:own_rule`` trains (:data:`OWN_RULE_AGENTS
    <sweeper.experiments.specs.OWN_RULE_AGENTS>`): each rule's name, its spec, the rule as its function's docstring
    states it and its parameter values; generated, so that a rule added to the experiment is listed and counted."""
    from ...agents.rule_library import rule_from_spec
    lines = []
    for spec in ex.OWN_RULE_AGENTS:
        rule = rule_from_spec(spec.removeprefix("rule:"))
        fn = getattr(rule.source[0], "py_func", rule.source[0])
        said = " ".join(inspect.getdoc(fn).split("\n\n")[0].split()).rstrip(".")
        said = said[0].lower() + said[1:] if said[1:2].islower() else said  # "With ..." -> "with ..."
        values = ", ".join(f"{name} = {value:g}" for name, value in rule.params.items())
        lines.append(f"* **{rule.name}** (`{spec}`): {said}" + (f"; {values}." if values else "."))
    n = len(lines)
    count = _WORDS[n] if n < len(_WORDS) else f"{n:,}"
    return (f"The experiment `ext:own_rule` trains {count} rule{'s' if n != 1 else ''} of "
            f"`sweeper.agents.rule_library` that the paper did not try, each written to the same contract:\n\n"
            + "\n".join(lines))


def own_rule_verdict(summary: pd.DataFrame, reference: str = "greedy") -> str:
    """Sentences comparing each agent of :func:`own_rule_band`'s summary with ``reference``, generated from the
    numbers: a difference is called real only when the two 95% t intervals do not overlap."""
    if reference not in summary.index:
        raise ValueError(f"{reference!r} is not in the summary ({list(summary.index)})")
    ref = summary.loc[reference]
    parts = []
    for agent, r in summary.drop(index=reference).iterrows():
        gap = r["mean"] - ref["mean"]
        if r["t95_low"] > ref["t95_high"]:
            verdict = "above it, and the intervals do not overlap"
        elif r["t95_high"] < ref["t95_low"]:
            verdict = "below it, and the intervals do not overlap"
        else:
            verdict = "within seed noise of it (the intervals overlap)"
        parts.append(f"* {agent} ends at {r['mean']:.4f} ({gap:+.4f}), {verdict};")
    best = summary["mean"].idxmax()
    return (f"Against {reference} (final win rate {ref['mean']:.4f}):\n\n" + "\n".join(parts)
            + f"\n\nThe highest mean is {best}'s.")


def _verdict_vs(value_low_high, threshold: float) -> int:
    """-1, 0 or 1: the 95% interval (low, high) below, around or above ``threshold``."""
    _, low, high = value_low_high
    return -1 if high < threshold else 1 if low > threshold else 0


def readings() -> tuple[pd.DataFrame, pd.DataFrame]:
    """The two readings of ``ext:readings`` beside the ones the reproduction uses (seed 1).

    First table, the no-flags agents of Fig. 10 (the paper: "less than 12%"): per agent, the final training win
    rate [95% Wilson] of the paper's model, of flags kept as private marks (fig:exp_4's reading) and of an agent
    that never flags. Second table, Table II's state-action agent: win rate [95% Wilson] and pairs recorded at a
    tenth of the training and at its end, with the flags shown in the state (tab:SAvsMAB's reading) and hidden,
    beside the paper's values (empty where the paper has none at this scale's lengths)."""
    from ...experiments.stats import wilson
    sc = current_scale()
    st, _ = ensure_spec("ext:readings")
    rows = []
    for a, never in ex.NO_FLAG_READINGS.items():
        variants = (("flags (the paper's model)", ex.base_task(a, sc, 1)),
                    ("flags as private marks (Fig. 10 here)", ex.bandit(a, "8x8x10", sc.train, 1, block=sc.block,
                                                                        flags=False)),
                    ("never flags", ex.bandit(never, "8x8x10", sc.train, 1, block=sc.block)))
        for name, t in variants:
            c = st.load(t).tables["curve"].iloc[-1]
            lo, hi = wilson(int(c["cum_wins"]), int(c["episode"]))
            rows.append({"agent": a, "reading": name, "win_rate": float(c["cum_win_rate"]), "ci_low": lo,
                         "ci_high": hi, "games": int(c["episode"])})
    no_flags = pd.DataFrame(rows)
    paper = comparison()
    paper = paper[(paper["experiment"] == "sa_vs_mab") & (paper["agent"] == "sa-greedy")]
    rows = []
    for k in (3, 4, 5):
        shown = ex.bandit("sa", f"4x4x{k}", sc.train, 1, block=sc.block, symmetric=False)
        hidden = ex.bandit("sa", f"4x4x{k}", sc.train, 1, block=sc.block, symmetric=False, flags=False)
        for episodes in (sc.train // 10, sc.train):
            row = {"board": f"4x4x{k}", "games": episodes}
            for name, t in (("flags shown", shown), ("flags hidden", hidden)):
                c = st.load(t).tables["curve"]
                at = c[c["episode"] == episodes].iloc[0]
                lo, hi = wilson(int(at["cum_wins"]), episodes)
                row.update({f"{name}: win rate": float(at["cum_win_rate"]), f"{name}: low": lo,
                            f"{name}: high": hi, f"{name}: pairs": int(at["actions_recorded"])})
            p = paper[paper["train_setting"].eq(f"4x4x{k}") & paper["train_episodes"].eq(episodes)]
            w = p[p["metric"] == "win_rate"]["paper"]
            n = p[p["metric"] != "win_rate"]["paper"]
            row["paper: win rate"] = float(w.iloc[0]) if len(w) else np.nan
            row["paper: pairs"] = float(n.iloc[0]) if len(n) else np.nan
            rows.append(row)
    return no_flags, pd.DataFrame(rows)


def no_flags_verdict(no_flags: pd.DataFrame, threshold: float = 0.12) -> str:
    """Which no-flags readings end below the paper's "less than 12%", from :func:`readings`' first table
    (below or above only where the 95% interval is on one side)."""
    parts = []
    for a, g in no_flags.groupby("agent", sort=False):
        said = []
        for _, r in g[g["reading"] != "flags (the paper's model)"].iterrows():
            side = _verdict_vs((r["win_rate"], r["ci_low"], r["ci_high"]), threshold)
            said.append(f"{r['reading']} ends at {r['win_rate']:.3f}, "
                        + {-1: "below", 0: "not separable from", 1: "above"}[side] + f" {threshold:.0%}")
        parts.append(f"* {a}: " + "; ".join(said) + ".")
    return "\n".join(parts)


def sa_verdict(sa: pd.DataFrame) -> str:
    """Which state-action reading is nearer the paper's Table II, from :func:`readings`' second table: per board
    at the longest training, the reading whose win rate is closer (and whether the paper's value is inside its
    95% interval), and where the paper's pair count lies."""
    last = sa[sa["games"] == sa["games"].max()]
    if last["paper: win rate"].isna().all():
        return "The paper's Table II has no values at this scale's training lengths."
    parts = []
    for _, r in last.iterrows():
        gaps = {name: abs(r[f"{name}: win rate"] - r["paper: win rate"]) for name in ("flags shown", "flags hidden")}
        near = min(gaps, key=gaps.get)
        inside = r[f"{near}: low"] <= r["paper: win rate"] <= r[f"{near}: high"]
        lo, hi = sorted((r["flags shown: pairs"], r["flags hidden: pairs"]))
        where = ("between ours" if lo <= r["paper: pairs"] <= hi else
                 "below both of ours" if r["paper: pairs"] < lo else "above both of ours")
        diff = r[f"{near}: win rate"] - r["paper: win rate"]
        parts.append(f"* {r['board']}: the paper's win rate {r['paper: win rate']:.4f} is nearer the reading with "
                     f"{near} ({r[f'{near}: win rate']:.4f}, ours minus the paper's {diff:+.4f}; the paper's value lies "
                     + ("inside" if inside else "outside") + " that reading's 95% interval); its "
                     f"{int(r['paper: pairs']):,} pairs are {where} ({int(r['flags hidden: pairs']):,} hidden, {int(r['flags shown: pairs']):,} shown).")
    return "\n".join(parts)


GUESS_NAMES = {"fewest": "lowest P, then fewest covered neighbours", "pseq": "PSEQ"}


def pseq() -> pd.DataFrame:
    """The solver with each guessing strategy of ``ext:pseq`` (seed 1): per level, opening and strategy, wins, games,
    win rate [95% Wilson], games/s, and the published PSEQ figure under the same conditions."""
    from ...experiments.stats import wilson
    st, tasks = ensure_spec("ext:pseq")
    rows = []
    for t in tasks:
        out, p = st.load(t), t.params
        g = out.tables["games"]
        wins, games = int(g["won"].sum()), len(g)
        lo, hi = wilson(wins, games)
        rows.append(dict(board=p["board"], opening=p["opening"], guess=p.get("guess", "fewest"), wins=wins,
                         games=games, win_rate=wins / games, ci_low=lo, ci_high=hi,
                         games_per_second=out.info["games_per_second"], fallbacks=out.info["fallbacks"],
                         published=published_solver_rate(p["board"], p["opening"], FIRST_CLICK)))
    return pd.DataFrame(rows)


def pseq_table(d: pd.DataFrame) -> pd.DataFrame:
    """:func:`pseq` as one row per level, opening and guessing strategy (long, so that it fits a page): our win rate
    [95% interval], the published PSEQ figure and ours minus the published, in points (no "-0.00")."""
    rows = []
    for (board, opening), g in d.groupby(["board", "opening"], sort=False):
        for _, r in g.iterrows():
            rows.append({"level": board, "opening": opening, "guessing": "PSEQ" if r["guess"] == "pseq" else "lowest P",
                         "ours [95% interval]": f"{r['win_rate']:.4f} [{r['ci_low']:.4f}, {r['ci_high']:.4f}]",
                         "published": f"{r['published']:.4f}",
                         "gap, points": f"{round((r['win_rate'] - r['published']) * 100, 2) + 0.0:+.2f}"})
    return pd.DataFrame(rows).set_index(["level", "opening", "guessing"])


def pseq_verdict(d: pd.DataFrame) -> str:
    """What :func:`pseq` shows, in sentences generated from it: per guessing strategy the range of the gaps to the
    published figures and in how many settings the published value lies inside our interval; then the settings
    where the two rules differ beyond their intervals."""
    parts = []
    for guess, g in d.groupby("guess", sort=False):
        gap = (g["win_rate"] - g["published"]) * 100
        inside = int(((g["ci_low"] <= g["published"]) & (g["published"] <= g["ci_high"])).sum())
        far = ", ".join(f"{b} ({o})" for b, o in zip(g["board"][gap.abs() > 1], g["opening"][gap.abs() > 1]))
        parts.append(f"* Guessing by {GUESS_NAMES[guess]}: ours minus the published ranges from {gap.min():+.2f} to "
                     f"{gap.max():+.2f} points; the published figure is inside our 95% interval in {inside} of "
                     f"{len(g)} settings; " + (f"the gap exceeds 1 point in {far}." if far else
                                                 "no gap exceeds 1 point."))
    wide = d.pivot_table(index=["board", "opening"], columns="guess", values=["win_rate", "ci_low", "ci_high"],
                         sort=False)
    if {"fewest", "pseq"} <= set(d["guess"]):
        est = {(b, o): {g: (r[("win_rate", g)], r[("ci_low", g)], r[("ci_high", g)]) for g in ("pseq", "fewest")}
               for (b, o), r in wide.iterrows()}
        better = [f"{b} ({o})" for (b, o), e in est.items() if interval_order(e["pseq"], e["fewest"]) > 0]
        worse = [f"{b} ({o})" for (b, o), e in est.items() if interval_order(e["pseq"], e["fewest"]) < 0]
        parts.append("* PSEQ against lowest P alone: "
                     + (f"higher, with the intervals apart, in {', '.join(better)}" if better
                        else "higher with the intervals apart in no setting")
                     + (f"; lower in {', '.join(worse)}" if worse else "; lower in none")
                     + "; elsewhere the intervals overlap.")
        speed = d.pivot_table(index=["board", "opening"], columns="guess", values="games_per_second", sort=False)
        ratio = speed["fewest"] / speed["pseq"]
        parts.append(f"* The price: PSEQ scores every tied candidate by enumerating the board once per number it "
                     f"could show, and plays {ratio.min():.1f} to {ratio.max():.1f} times fewer games per second "
                     f"than lowest P alone (wall-clock speeds of the stored runs).")
    return "\n".join(parts)


def thompson_tests_table(tests: pd.DataFrame) -> pd.DataFrame:
    """The test win rates of :func:`thompson_band`, one row per level and agent, one column per mode (still
    learning, frozen): the mean over seeds with the lowest and highest seed, ``mean (low–high)``."""
    t = tests.assign(test=pd.Categorical(tests["test"], list(LEVELS), ordered=True))
    agents = list(dict.fromkeys(tests["agent"]))
    t = t.assign(agent=pd.Categorical(t["agent"], agents, ordered=True))
    g = t.groupby(["test", "agent", "mode"], observed=True)["win_rate"].agg(["mean", "min", "max"])
    cells = g.apply(lambda r: f"{r['mean']:.4f} ({r['min']:.4f}–{r['max']:.4f})", axis=1).unstack("mode")
    cells = cells.reindex(columns=[m for m in ("learning", "frozen") if m in cells.columns])
    cells.index.names = ["test", "agent"]
    cells.columns.name = None
    return cells


def thompson_table(final: pd.DataFrame) -> pd.DataFrame:
    """:func:`thompson_summary` as the book shows it: per agent the mean final training win rate over seeds
    with its 95% t interval, the standard deviation, the mean actions recorded and the training speed."""
    return pd.DataFrame({"mean [95% t interval]": [fmt(m, lo, hi) for m, lo, hi in
                                                   zip(final["mean"], final["t95_low"], final["t95_high"])],
                         "sd": final["sd"].map(lambda v: f"{v:.4f}"),
                         "actions recorded": final["actions recorded"].map(lambda v: f"{v:,.0f}"),
                         "games/s": final["training games/s"].map(lambda v: f"{v:,.0f}")}, index=final.index)


def calibration_error(bins: pd.DataFrame) -> float:
    """Count-weighted mean distance between the belief and the exact probability over calibration bins."""
    return float((bins["count"] * (bins["belief"] - bins["exact"]).abs()).sum() / bins["count"].sum())


def calibration_summary(cal: pd.DataFrame) -> pd.DataFrame:
    """Per agent, level and kind of actions (``all`` candidates or ``chosen`` ones), from the calibration bins of
    :func:`belief`: the count, the calibration error, the share of "surely safe" beliefs (Q = -1) on a provable
    mine, and the share of unsure beliefs (strictly between 0 and 1) whose target the board already settles."""
    rows = []
    for (agent, board, which), t in cal.groupby(["agent", "board", "which"], sort=False):
        sure_safe = t[t["bin"] == 0]
        unsure = t[~t["bin_label"].str.startswith("Q")]
        rows.append({"agent": agent, "board": board, "actions": which, "count": int(t["count"].sum()),
                     "calibration error": calibration_error(t),
                     "surely safe (Q = -1) on a known mine": sure_safe["known_mine"].sum()
                     / max(sure_safe["count"].sum(), 1),
                     "unsure belief, target already known": (unsure["known_safe"] + unsure["known_mine"]).sum()
                     / max(unsure["count"].sum(), 1)})
    return pd.DataFrame(rows).set_index(["agent", "board", "actions"])


def calibration_table(calib: pd.DataFrame) -> pd.DataFrame:
    """:func:`calibration_summary` as the book shows it, with short headers so that it fits the text column:
    ``count`` (k: thousands, M: millions), ``error`` (the calibration error), ``Q = −1, a mine`` (the share of
    "surely safe" beliefs aimed at a provable mine) and ``unsure, settled`` (the share of unsure beliefs whose
    target the board already settles)."""
    def count(v):
        return f"{v / 1e6:,.1f}M" if v >= 1e6 else f"{v / 1e3:,.0f}k" if v >= 1e4 else f"{v:,}"
    return pd.DataFrame({"count": calib["count"].map(count),
                         "error": calib["calibration error"].map(lambda v: f"{v:.4f}"),
                         "Q = −1, a mine": calib["surely safe (Q = -1) on a known mine"].map(lambda v: f"{v:.1%}"),
                         "unsure, settled": calib["unsure belief, target already known"].map(lambda v: f"{v:.0%}")},
                        index=calib.index)


def loss_display(losses: pd.DataFrame) -> pd.DataFrame:
    """:func:`loss_table` as the book shows it: the shares of games lost by each cause and the win rate as
    percentages, then the games and the solver's fallbacks, under short headers."""
    pct = lambda v: "" if pd.isna(v) else f"{v:.1%}"  # noqa: E731
    return pd.DataFrame({"forced guess": losses["forced guess"].map(pct),
                         "missed safe": losses["missed a safe tile"].map(pct),
                         "known mine": losses["clicked a known mine"].map(pct),
                         "won": losses["win rate"].map(pct), "games": losses["games"].map(lambda v: f"{int(v):,}"),
                         "fallbacks": losses["fallbacks"].map(lambda v: f"{int(v):,}")}, index=losses.index)


def loss_table(bel: dict) -> pd.DataFrame:
    """Share of games lost by cause, per agent and level, beside the audit's win rate, games and fallbacks."""
    losses = bel["losses"].assign(board=lambda t: pd.Categorical(t["board"], list(LEVELS), ordered=True))
    table = losses.pivot_table(index=["agent", "board"], columns="cause", values="share_of_games", observed=True)
    facts = bel["facts"].assign(board=lambda t: pd.Categorical(t["board"], list(LEVELS), ordered=True))
    return table.join(facts.set_index(["agent", "board"])[["win_rate", "games", "fallbacks"]]).rename(
        columns={"win_rate": "win rate"})


def sa_readings_summary(sa: pd.DataFrame) -> str:
    """Over the boards of :func:`readings`' second table at the longest training: on how many the hidden-flags
    reading is nearer the paper's win rate, and on how many the paper's pair count lies between our two readings
    (then neither reading is the paper's agent exactly)."""
    last = sa[sa["games"] == sa["games"].max()].dropna(subset=["paper: win rate"])
    if last.empty:
        return ""
    nearer = [r["board"] for _, r in last.iterrows()
              if abs(r["flags hidden: win rate"] - r["paper: win rate"]) < abs(r["flags shown: win rate"]
                                                                              - r["paper: win rate"])]
    between = [r["board"] for _, r in last.iterrows()
               if min(r["flags shown: pairs"], r["flags hidden: pairs"]) <= r["paper: pairs"]
               <= max(r["flags shown: pairs"], r["flags hidden: pairs"])]
    return (f"The hidden-flags reading is nearer the paper's win rate on {len(nearer)} of {len(last)} boards, and the "
            f"paper's pair count lies between our two readings on {len(between)} of {len(last)}. "
            + ("Neither reading reproduces the paper's state-action agent exactly: it recorded fewer pairs than ours "
               "with the flags in the state and more than ours without them." if len(between) == len(last) else ""))
