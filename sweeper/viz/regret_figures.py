"""The data of the chapter on regret (beyond the paper), read from the stored runs of ``ext:regret``.

One function per figure or table of the chapter, each reading the stored
results (:mod:`sweeper.experiments.specs`' ``regret`` tasks) and computing
nothing but sums, means and ranges of them; the two chart functions at the end draw them.
"""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from ..experiments import specs as ex
from ..running.regret import cumulative
from . import figures

#: Short labels of the chapter's agents.
LABELS = {"greedy": "greedy", "egreedy:0.01": "ε-greedy (0.01)", "ucb:0.1": "UCB (c = 0.1)",
          "thompson": "Thompson", "rule:ucb1:1": "UCB1 (plug-in)", "rule:softmax:0.05": "softmax (plug-in)",
          "rule:decaying-eps:1000": "decaying ε (plug-in)"}


def _tasks():
    return ex.EXTRA_SPECS["ext:regret"].tasks(figures.scale())


def runs() -> pd.DataFrame:
    """Every stored regret run as running totals per block (:func:`sweeper.running.regret.cumulative`),
    with its ``agent``, ``board``, ``seed`` and training length ``episodes``."""
    st = figures.store()
    frames = []
    for t in _tasks():
        p = t.params
        c = cumulative(st.load(t).tables["blocks"])
        frames.append(c.assign(agent=p["agent"], board=p["board"], seed=p["seed"], episodes=p["episodes"]))
    return pd.concat(frames, ignore_index=True)


def lengths() -> tuple[int, int]:
    """(the long run's games, the bands' games) at the current scale."""
    sc = ex.SCALES[figures.scale()]
    return sc.train, sc.train // 10


def _log_thin(games: np.ndarray, points: int) -> np.ndarray:
    """The stored block ends nearest to ``points`` log-spaced game counts (for a chart on log axes)."""
    games = np.unique(games)
    if len(games) <= points:
        return games
    want = np.geomspace(games[0], games[-1], points)
    return np.unique(games[np.clip(np.searchsorted(games, want), 0, len(games) - 1)])


def bands(board: str = "8x8x10", agents=ex.REGRET_AGENTS, points: int = 120, r: pd.DataFrame | None = None) -> pd.DataFrame:
    """Cumulative regret against games, per agent: the mean, lowest and highest over the seeds, for the games
    every seed played (the bands' length), and seed 1 alone beyond (``seeds`` says how many runs a row
    rests on); at about ``points`` log-spaced game counts per agent."""
    r = runs() if r is None else r
    r = r[(r["board"] == board) & r["agent"].isin(agents)]
    out = []
    for a, g in r.groupby("agent", sort=False):
        short = g.groupby("seed")["games"].max().min()
        common = g[g["games"] <= short]
        s = common.groupby("games").agg(mean=("regret", "mean"), low=("regret", "min"), high=("regret", "max"),
                                        decisions=("decisions", "mean"), seeds=("seed", "nunique")).reset_index()
        tail = g[(g["games"] > short) & (g["seed"] == g["seed"].min())]
        s = pd.concat([s, pd.DataFrame({"games": tail["games"], "mean": tail["regret"], "low": tail["regret"],
                                        "high": tail["regret"], "decisions": tail["decisions"], "seeds": 1})])
        s = s[s["games"].isin(_log_thin(s["games"].to_numpy(), points))]
        out.append(s.assign(agent=a, label=LABELS.get(a, a)))
    return pd.concat(out, ignore_index=True)


def at_games(marks=None, board: str = "8x8x10", agents=ex.REGRET_AGENTS, r: pd.DataFrame | None = None) -> pd.DataFrame:
    """Cumulative regret after ``marks`` games (default: a hundredth, a tenth and all of the training length),
    per agent: mean, lowest and highest over the runs that reached it, their number, and the regret per
    decision so far (mean)."""
    long, short = lengths()
    marks = marks or (long // 100, short, long)
    r = runs() if r is None else r
    r = r[(r["board"] == board) & r["agent"].isin(agents)]
    rows = []
    for a in agents:
        g = r[r["agent"] == a]
        for m in marks:
            x = g[g["games"] == m]
            if x.empty:
                continue
            rows.append({"agent": LABELS.get(a, a), "games": m, "regret": x["regret"].mean(),
                         "low": x["regret"].min(), "high": x["regret"].max(), "runs": len(x),
                         "per decision": x["regret_per_decision"].mean(), "decisions": x["decisions"].mean()})
    return pd.DataFrame(rows)


def at_games_table(marks=None, board: str = "8x8x10", r: pd.DataFrame | None = None) -> pd.DataFrame:
    """:func:`at_games` for the page: one row per agent, for each mark the mean with its range over the runs."""
    t = at_games(marks, board, r=r)
    t["cell"] = [f"{m:,.0f}" + ("" if n == 1 else f" ({lo:,.0f}-{hi:,.0f})")
                 for m, lo, hi, n in zip(t["regret"], t["low"], t["high"], t["runs"])]
    wide = t.pivot(index="agent", columns="games", values="cell")
    wide = wide.reindex([LABELS.get(a, a) for a in ex.REGRET_AGENTS if LABELS.get(a, a) in wide.index])
    runs_ = t.pivot(index="agent", columns="games", values="runs")
    wide.columns = [f"{_power(g)} games, {int(runs_[g].max())} seed{'s' if runs_[g].max() > 1 else ''}"
                    for g in wide.columns]
    wide.index.name = None
    return wide


def split(board: str = "8x8x10", agents=ex.REGRET_AGENTS, r: pd.DataFrame | None = None) -> pd.DataFrame:
    """Where each agent's regret comes from, over the bands' length (mean over seeds): decisions where a
    sure move was on offer (a tile certainly safe or certainly a mine) against decisions where every move
    was a guess; and the flags' part."""
    _, short = lengths()
    r = runs() if r is None else r
    r = r[(r["board"] == board) & r["agent"].isin(agents) & (r["games"] == short)]
    g = r.groupby("agent", sort=False)[["regret", "regret_sure", "regret_guess", "regret_flags", "decisions",
                                        "sure_decisions", "flags"]].mean()
    out = pd.DataFrame({
        "agent": [LABELS.get(a, a) for a in g.index],
        "regret": g["regret"].to_numpy(),
        "share on sure decisions": (g["regret_sure"] / g["regret"]).to_numpy(),
        "sure decisions": (g["sure_decisions"] / g["decisions"]).to_numpy(),
        "regret per sure decision": (g["regret_sure"] / g["sure_decisions"]).to_numpy(),
        "regret per guess": (g["regret_guess"] / (g["decisions"] - g["sure_decisions"])).to_numpy(),
        "share on flags": (g["regret_flags"] / g["regret"]).to_numpy(),
    })
    return out


def growth(board: str = "8x8x10", agents=ex.REGRET_AGENTS, r: pd.DataFrame | None = None) -> pd.DataFrame:
    """Does the cumulative regret flatten? For seed 1's long run: the regret per decision and the actions
    recorded newly, per decade of games (1-10, 10-100, ... of the training length's tenths)."""
    long, _ = lengths()
    r = runs() if r is None else r
    r = r[(r["board"] == board) & r["agent"].isin(agents) & (r["seed"] == 1) & (r["episodes"] == long)]
    edges = [e for e in (long // 1000, long // 100, long // 10, long) if e >= 1]
    rows = []
    for a in agents:
        g = r[r["agent"] == a].set_index("games")[["regret", "decisions", "actions_recorded"]]
        if g.empty:
            continue
        for lo, hi in zip(edges[:-1], edges[1:]):
            if lo not in g.index or hi not in g.index:
                continue
            d = g.loc[hi] - g.loc[lo]
            rows.append({"agent": LABELS.get(a, a), "games": f"{lo:,}-{hi:,}",
                         "regret per decision": d["regret"] / d["decisions"],
                         "regret per game": d["regret"] / (hi - lo),
                         "new actions per game": d["actions_recorded"] / (hi - lo)})
    return pd.DataFrame(rows)


def tradeoff(board: str = "8x8x10", r: pd.DataFrame | None = None) -> pd.DataFrame:
    """Cumulative regret after the bands' length against the exploration parameter: UCB's c and
    epsilon-greedy's epsilon (mean, lowest and highest over the seeds)."""
    _, short = lengths()
    r = runs() if r is None else r
    r = r[(r["board"] == board) & (r["games"] == short)]
    rows = []
    for fam, values, fmt in (("UCB", ex.REGRET_UCB_C, "ucb:{:g}"), ("ε-greedy", ex.REGRET_EPSILON, "egreedy:{:g}")):
        for v in values:
            x = r[r["agent"] == fmt.format(v)]
            if x.empty:
                continue
            rows.append({"rule": fam, "parameter": v, "regret": x["regret"].mean(), "low": x["regret"].min(),
                         "high": x["regret"].max(), "seeds": len(x), "win rate": x["wins"].mean() / short})
    g = r[r["agent"] == "greedy"]
    rows.append({"rule": "greedy", "parameter": np.nan, "regret": g["regret"].mean(), "low": g["regret"].min(),
                 "high": g["regret"].max(), "seeds": len(g), "win rate": g["wins"].mean() / short})
    return pd.DataFrame(rows)


def boards_compared(agents=ex.REGRET_INTERMEDIATE, r: pd.DataFrame | None = None) -> pd.DataFrame:
    """Beginner against intermediate over the bands' length: regret per decision and per game (mean over
    seeds) of the agents run on both."""
    _, short = lengths()
    r = runs() if r is None else r
    r = r[r["agent"].isin(agents) & (r["games"] == short) & (r["seed"] <= 3)]
    g = r.groupby(["agent", "board"], sort=False).agg(regret=("regret", "mean"), decisions=("decisions", "mean"),
                                                      wins=("wins", "mean"), seeds=("seed", "nunique"))
    g = g.reset_index()
    return pd.DataFrame({"agent": g["agent"].map(lambda a: LABELS.get(a, a)), "board": g["board"],
                         "seeds": g["seeds"], "win rate": g["wins"] / short, "regret per game": g["regret"] / short,
                         "regret per decision": g["regret"] / g["decisions"]})


# ------------------------------------------------------------------------------ charts --

def curves_chart(data: pd.DataFrame, x: str = "games", log: bool = True) -> alt.LayerChart:
    """Cumulative regret against ``x`` (``games`` or ``decisions``), one line and band per agent."""
    title = {"games": "games played", "decisions": "decisions made"}[x]
    scale = alt.Scale(type="log") if log else alt.Scale()
    legend = alt.Legend(orient="bottom", columns=3, symbolOpacity=1, symbolType="stroke")  # not the bands' tint
    base = alt.Chart(data).encode(x=alt.X(f"{x}:Q", title=title, scale=scale),
                                  color=alt.Color("label:N", title="agent", legend=legend))
    band = base.mark_area(opacity=0.2).encode(y=alt.Y("low:Q", title="cumulative regret", scale=scale), y2="high:Q")
    line = base.mark_line().encode(y="mean:Q", tooltip=["label:N", alt.Tooltip(f"{x}:Q", format=","),
                                                          alt.Tooltip("mean:Q", format=",.0f"), "seeds:Q"])
    return alt.layer(band, line).properties(width=560, height=300)


def tradeoff_chart(data: pd.DataFrame) -> alt.HConcatChart:
    """Regret after a fixed budget against c (UCB) and epsilon (epsilon-greedy), greedy as a rule across."""
    greedy = data[data["rule"] == "greedy"]
    panels = []
    for fam, name in (("UCB", "c"), ("ε-greedy", "ε")):
        d = data[data["rule"] == fam]
        base = alt.Chart(d).encode(x=alt.X("parameter:Q", scale=alt.Scale(type="log"), title=name))
        pts = base.mark_line(point=True).encode(y=alt.Y("regret:Q", title="cumulative regret",
                                                        scale=alt.Scale(zero=False)),
                                                tooltip=["parameter:Q", alt.Tooltip("regret:Q", format=",.0f")])
        err = base.mark_errorbar().encode(y="low:Q", y2="high:Q")
        rule = alt.Chart(greedy).mark_rule(strokeDash=[4, 3], color="gray").encode(y="regret:Q")
        panels.append(alt.layer(err, pts, rule).properties(width=250, height=220, title=fam))
    return alt.hconcat(*panels)


# --------------------------------------------------------------------------- sentences --

def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _span(values) -> str:
    """``98% to 99%``, or ``99%`` when both ends round alike."""
    lo, hi = _pct(min(values)), _pct(max(values))
    return lo if lo == hi else f"{lo} to {hi}"


def _tied(d: pd.DataFrame, best) -> list:
    """The rows of ``d`` whose range (low-high over the seeds) overlaps the range of ``best``."""
    return [x for _, x in d.iterrows() if x["low"] <= best["high"] and x["high"] >= best["low"]]


def findings(r: pd.DataFrame | None = None) -> dict:
    """The chapter's sentences that compare numbers, generated from the tables above (so they say what the
    page's tables and charts show): ``ranking``, ``split``, ``growth``, ``tradeoff_*``, ``boards``. ``r``: the
    runs (default: :func:`runs`)."""
    long, short = lengths()
    r = runs() if r is None else r
    out = {}
    t = at_games((short,), r=r)
    t = t.sort_values("per decision")
    best, worst = t.iloc[0], t.iloc[-1]
    most = t.sort_values("regret").iloc[-1]
    least = t.sort_values("regret").iloc[0]
    per_game = lambda r: r["decisions"] / short  # noqa: E731
    if least["agent"] != best["agent"]:
        why = (f"{least['agent']} makes {per_game(least):.1f} decisions per game against "
               f"{per_game(best):.1f} for {best['agent']}: fewer decisions, fewer chances to be wrong")
        out["ranking"] = (
            f"After {short:,} games, the regret per decision runs from {best['per decision']:.3f} ({best['agent']}) "
            f"to {worst['per decision']:.3f} ({worst['agent']}). The cumulative regret ranks the agents "
            f"differently: {least['agent']} has the least ({least['regret']:,.0f}) and {most['agent']} the most "
            f"({most['regret']:,.0f}); {why}.")
    else:
        out["ranking"] = (
            f"After {short:,} games, the regret per decision runs from {best['per decision']:.3f} ({best['agent']}) "
            f"to {worst['per decision']:.3f} ({worst['agent']}), and the cumulative regret from "
            f"{least['regret']:,.0f} ({least['agent']}) to {most['regret']:,.0f} ({most['agent']}).")
    s = split(r=r)
    out["split"] = (
        f"For every agent, {_span(s['share on sure decisions'])} of the regret of its first {short:,} games comes "
        f"from decisions where a move certain to be right was on offer ({_span(s['sure decisions'])} of the "
        f"decisions): the agents lose most where an exact solver would have lost nothing.")
    g = growth(r=r)
    gg = g[g["agent"] == LABELS["greedy"]]
    if len(gg) >= 2:
        first, last = gg.iloc[0], gg.iloc[-1]
        a, b = first["regret per decision"], last["regret per decision"]
        if a == b:
            trend = f"stays at {a:.3f} from games {first['games']} to games {last['games']}"
        else:
            verb = "falls" if b < a else "rises"
            trend = f"{verb} from {a:.3f} (games {first['games']}) to {b:.3f} (games {last['games']})"
        rising = last["regret per game"] > 0
        out["growth"] = (
            f"Greedy's regret per decision {trend}"
            + (f", but it does not reach zero: each game of the last stretch still adds {last['regret per game']:.2f} "
               f"to the cumulative regret, and {last['new actions per game']:.2f} actions the agent has never "
               f"seen, so the curve keeps rising." if rising else "; the cumulative regret has stopped growing."))
    tr = tradeoff(r=r)
    greedy = tr[tr["rule"] == "greedy"]
    for fam, name in (("UCB", "c"), ("ε-greedy", "ε")):
        d = tr[tr["rule"] == fam]
        if d.empty:
            continue
        b = d.sort_values("regret").iloc[0]
        tied = [x for x in _tied(d, b) if x["parameter"] != b["parameter"]]
        text = (f"{fam}: the lowest cumulative regret after {short:,} games is at {name} = {b['parameter']:g} "
                f"({b['regret']:,.0f}, range {b['low']:,.0f}-{b['high']:,.0f} over {int(b['seeds'])} seeds)")
        if tied:
            text += (f", but the seeds cannot tell it from {name} = "
                     + " and ".join(f"{x['parameter']:g}" for x in tied) + " (their ranges overlap)")
        text += f"; the worst {name} tried gives {d['regret'].max():,.0f}."
        if not greedy.empty:
            g = greedy.iloc[0]
            if g["high"] < b["low"]:
                text += (f" Greedy, with no exploration at all, is lower still ({g['regret']:,.0f}, range "
                         f"{g['low']:,.0f}-{g['high']:,.0f}).")
            elif g["low"] > b["high"]:
                text += f" Greedy is higher ({g['regret']:,.0f}): exploring pays here."
            else:
                text += f" Greedy ({g['regret']:,.0f}) cannot be told apart from it."
        out[f"tradeoff_{fam}"] = text
    bc = boards_compared(r=r)
    rows = []
    for a, x in bc.groupby("agent", sort=False):
        if set(x["board"]) >= {"8x8x10", "16x16x40"}:
            b8 = x[x["board"] == "8x8x10"].iloc[0]
            b16 = x[x["board"] == "16x16x40"].iloc[0]
            rows.append(f"{a} {b8['regret per decision']:.3f} on beginner, {b16['regret per decision']:.3f} on "
                        f"intermediate")
    if rows:
        out["boards"] = f"Regret per decision over the first {short:,} games: " + "; ".join(rows) + "."
    return out


# ----------------------------------------------------------------------- tables for the page --

def _power(n: int) -> str:
    """10,000 -> 10⁴ (powers of ten), else the number with separators."""
    e = len(str(n)) - 1
    sup = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
    return f"10{str(e).translate(sup)}" if n == 10 ** e else f"{n:,}"


def split_table(s: pd.DataFrame) -> pd.DataFrame:
    """:func:`split` for the page: short headers, shares in percent, regret in whole numbers."""
    pct = lambda v: f"{100 * v:.1f}%"  # noqa: E731
    return pd.DataFrame({"regret": s["regret"].map(lambda v: f"{v:,.0f}"),
                         "on sure decisions": s["share on sure decisions"].map(pct),
                         "sure decisions": s["sure decisions"].map(pct),
                         "per sure decision": s["regret per sure decision"].map(lambda v: f"{v:.3f}"),
                         "per guess": s["regret per guess"].map(lambda v: f"{v:.3f}"),
                         "on flags": s["share on flags"].map(pct)}).set_index(s["agent"].rename(None))


def growth_table(g: pd.DataFrame) -> pd.DataFrame:
    """:func:`growth` for the page: one block per agent, the stretches of games as rows."""
    out = g.assign(**{"regret per decision": g["regret per decision"].map(lambda v: f"{v:.4f}"),
                      "regret per game": g["regret per game"].map(lambda v: f"{v:.3f}"),
                      "new actions per game": g["new actions per game"].map(lambda v: f"{v:.2f}")})
    return out.set_index(["agent", "games"]).rename_axis([None, "games"])


def boards_table(b: pd.DataFrame) -> pd.DataFrame:
    """:func:`boards_compared` for the page."""
    return pd.DataFrame({"board": b["board"], "win rate": b["win rate"].map(lambda v: f"{v:.3f}"),
                         "regret per game": b["regret per game"].map(lambda v: f"{v:.3f}"),
                         "regret per decision": b["regret per decision"].map(lambda v: f"{v:.4f}"),
                         "seeds": b["seeds"]}).set_index([b["agent"].rename(None), "board"])


def scale_note() -> str:
    """Which results the chapter shows, and the command that recomputes them."""
    long, short = lengths()
    sc = figures.scale()
    where = "committed in `results/`" if sc == "paper" else "computed for this test run"
    return (f"Results on this page: **{sc} scale**, {where}: each agent's seed 1 trains for {long:,} games, the "
            f"other seeds for {short:,}; each table says how many runs it rests on. Rerun with "
            f"`python -m sweeper reproduce ext:regret --scale {sc}`.")
