"""The data of the chapter on regret (beyond the paper), read from the stored runs of ``ext:regret``.

One function per figure or table of the chapter, each reading the stored
results (:mod:`sweeper.experiments.specs`' ``regret`` tasks) and computing
nothing but sums, means and ranges of them; :mod:`sweeper.viz.regret_charts` draws them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...agents.rule_library import rule_title
from ...experiments import specs as ex
from ...running.regret import cumulative
from . import results as figures

#: Short labels of the chapter's agents: the built-in agents', and every plug-in rule of the experiment and of the
#: book's rules named by its title in the rule library (:func:`~sweeper.agents.rule_library.rule_title`).
LABELS = {"greedy": "greedy", "egreedy:0.01": "ε-greedy (0.01)", "ucb:0.1": "UCB (c = 0.1)", "thompson": "Thompson",
          **{a: f"{rule_title(a)} (plug-in)" for a in (*ex.REGRET_AGENTS, *ex.OWN_RULE_AGENTS) if a.startswith("rule:")}}


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


#: The parts of the regret (:mod:`sweeper.running.regret`) and their names on the page.
PARTS = {"regret": "regret", "gap": "representation gap", "learning": "learning regret"}


def bands(board: str = "8x8x10", agents=ex.REGRET_AGENTS, points: int = 120, r: pd.DataFrame | None = None,
          column: str = "regret") -> pd.DataFrame:
    """Cumulative ``column`` (``regret``, ``gap`` or ``learning``) against games, per agent: the mean, lowest and
    highest over the seeds, for the games every seed played (the bands' length), and seed 1 alone beyond
    (``seeds`` says how many runs a row rests on); at about ``points`` log-spaced game counts per agent."""
    if column not in PARTS:
        raise ValueError(f"column must be one of {list(PARTS)}, got {column!r}")
    r = runs() if r is None else r
    r = r[(r["board"] == board) & r["agent"].isin(agents)]
    out = []
    for a, g in r.groupby("agent", sort=False):
        short = g.groupby("seed")["games"].max().min()
        common = g[g["games"] <= short]
        s = common.groupby("games").agg(mean=(column, "mean"), low=(column, "min"), high=(column, "max"),
                                        decisions=("decisions", "mean"), seeds=("seed", "nunique")).reset_index()
        tail = g[(g["games"] > short) & (g["seed"] == g["seed"].min())]
        s = pd.concat([s, pd.DataFrame({"games": tail["games"], "mean": tail[column], "low": tail[column],
                                        "high": tail[column], "decisions": tail["decisions"], "seeds": 1})])
        s = s[s["games"].isin(_log_thin(s["games"].to_numpy(), points))]
        out.append(s.assign(agent=a, label=LABELS.get(a, a), part=PARTS[column]))
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
                         "per decision": x["regret_per_decision"].mean(), "decisions": x["decisions"].mean(),
                         "learning per decision": x["learning_per_decision"].mean(),
                         "gap per decision": x["gap_per_decision"].mean(), "wins": x["wins"].mean()})
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
    """Where each agent's regret comes from, over the bands' length (mean over seeds), as rates: the regret, the
    representation gap and the learning regret per decision where a sure move was on offer (a tile certainly
    safe or certainly a mine) and per guess (every move a guess), with the share of decisions of each kind."""
    _, short = lengths()
    r = runs() if r is None else r
    r = r[(r["board"] == board) & r["agent"].isin(agents) & (r["games"] == short)]
    cols = ["regret", "regret_sure", "regret_guess", "regret_flags", "decisions", "sure_decisions", "flags",
            "gap_sure", "gap_guess", "learning_sure", "learning_guess"]
    g = r.groupby("agent", sort=False)[cols].mean()
    guesses = g["decisions"] - g["sure_decisions"]
    out = pd.DataFrame({
        "agent": [LABELS.get(a, a) for a in g.index],
        "regret": g["regret"].to_numpy(),
        "sure decisions": (g["sure_decisions"] / g["decisions"]).to_numpy(),
        "regret per sure decision": (g["regret_sure"] / g["sure_decisions"]).to_numpy(),
        "regret per guess": (g["regret_guess"] / guesses).to_numpy(),
        "gap per sure decision": (g["gap_sure"] / g["sure_decisions"]).to_numpy(),
        "gap per guess": (g["gap_guess"] / guesses).to_numpy(),
        "learning per sure decision": (g["learning_sure"] / g["sure_decisions"]).to_numpy(),
        "learning per guess": (g["learning_guess"] / guesses).to_numpy(),
        "share on flags": (g["regret_flags"] / g["regret"]).to_numpy(),
    })
    return out


def growth(board: str = "8x8x10", agents=ex.REGRET_AGENTS, r: pd.DataFrame | None = None) -> pd.DataFrame:
    """Does the cumulative regret flatten? For seed 1's long run, per decade of games (a thousandth to a
    hundredth of the training length, then to a tenth, then to all of it): the regret, the representation gap
    and the learning regret per decision, the learning regret the decade added, the decisions per game and the
    actions recorded newly per game. A regret that grows like the logarithm of the decisions adds about the same amount each decade."""
    long, _ = lengths()
    r = runs() if r is None else r
    r = r[(r["board"] == board) & r["agent"].isin(agents) & (r["seed"] == 1) & (r["episodes"] == long)]
    edges = [e for e in (long // 1000, long // 100, long // 10, long) if e >= 1]
    rows = []
    for a in agents:
        g = r[r["agent"] == a].set_index("games")[["regret", "gap", "learning", "decisions", "actions_recorded"]]
        if g.empty:
            continue
        for lo, hi in zip(edges[:-1], edges[1:]):
            if lo not in g.index or hi not in g.index:
                continue
            d = g.loc[hi] - g.loc[lo]
            rows.append({"agent": LABELS.get(a, a), "games": f"{lo:,}-{hi:,}",
                         "regret per decision": d["regret"] / d["decisions"],
                         "gap per decision": d["gap"] / d["decisions"],
                         "learning per decision": d["learning"] / d["decisions"],
                         "learning added": d["learning"],
                         "regret per game": d["regret"] / (hi - lo),
                         "decisions per game": d["decisions"] / (hi - lo),
                         "new actions per game": d["actions_recorded"] / (hi - lo)})
    return pd.DataFrame(rows)


def frozen(board: str = "8x8x10", agents=ex.REGRET_AGENTS, paper: bool = False) -> pd.DataFrame:
    """The long runs' agents after training, frozen: their test games' regret, gap and learning regret per
    decision, decisions per game and win rate. At the scale the pages show, or with ``paper=True`` the committed
    paper-scale runs (for a chapter that compares with paper-scale runs)."""
    st, tasks = figures.paper_spec("ext:regret") if paper else (figures.store(), _tasks())
    rows = []
    for t in tasks:
        p = t.params
        if p["board"] != board or p["agent"] not in agents or not p.get("frozen"):
            continue
        f = st.load(t).tables["frozen"].sum(numeric_only=True)
        rows.append({"agent": LABELS.get(p["agent"], p["agent"]), "trained games": p["episodes"],
                     "test games": p["frozen"], "win rate": f["wins"] / p["frozen"],
                     "decisions per game": f["decisions"] / p["frozen"],
                     "regret per decision": f["regret"] / f["decisions"], "gap per decision": f["gap"] / f["decisions"],
                     "learning per decision": f["learning"] / f["decisions"]})
    return pd.DataFrame(rows)


def tradeoff(board: str = "8x8x10", r: pd.DataFrame | None = None, column: str = "regret") -> pd.DataFrame:
    """Cumulative ``column`` (``regret`` or ``learning``) after the bands' length against the exploration
    parameter: UCB's c and epsilon-greedy's epsilon (mean, lowest and highest over the seeds), and per decision."""
    if column not in ("regret", "learning"):
        raise ValueError(f"column must be 'regret' or 'learning', got {column!r}")
    _, short = lengths()
    r = runs() if r is None else r
    r = r[(r["board"] == board) & (r["games"] == short)]
    rows = []

    def row(rule, v, x):
        per = x[column] / x["decisions"]
        return {"rule": rule, "parameter": v, "regret": x[column].mean(), "low": x[column].min(),
                "high": x[column].max(), "seeds": len(x), "win rate": x["wins"].mean() / short,
                "per decision": per.mean(), "per decision low": per.min(), "per decision high": per.max()}

    for fam, values, fmt in (("UCB", ex.REGRET_UCB_C, "ucb:{:g}"), ("ε-greedy", ex.REGRET_EPSILON, "egreedy:{:g}")):
        for v in values:
            x = r[r["agent"] == fmt.format(v)]
            if not x.empty:
                rows.append(row(fam, v, x))
    g = r[r["agent"] == "greedy"]
    rows.append(row("greedy", np.nan, g))
    return pd.DataFrame(rows).assign(part=PARTS[column])


def boards_compared(agents=ex.REGRET_INTERMEDIATE, r: pd.DataFrame | None = None) -> pd.DataFrame:
    """Beginner against intermediate over the bands' length (mean over seeds 1-3): win rate, decisions per game,
    the share of sure decisions, the regret per decision, per sure decision, per guess and per game, and the
    learning regret and representation gap per decision."""
    _, short = lengths()
    r = runs() if r is None else r
    r = r[r["agent"].isin(agents) & (r["games"] == short) & (r["seed"] <= 3)]
    cols = ["regret", "regret_sure", "regret_guess", "decisions", "sure_decisions", "wins", "gap", "learning"]
    g = r.groupby(["agent", "board"], sort=False)[cols].mean()
    g["seeds"] = r.groupby(["agent", "board"], sort=False)["seed"].nunique()
    g = g.reset_index()
    guesses = g["decisions"] - g["sure_decisions"]
    return pd.DataFrame({"agent": g["agent"].map(lambda a: LABELS.get(a, a)), "board": g["board"],
                         "seeds": g["seeds"], "win rate": g["wins"] / short,
                         "decisions per game": g["decisions"] / short,
                         "sure decisions": g["sure_decisions"] / g["decisions"],
                         "regret per decision": g["regret"] / g["decisions"],
                         "regret per sure decision": g["regret_sure"] / g["sure_decisions"],
                         "regret per guess": g["regret_guess"] / guesses,
                         "regret per game": g["regret"] / short,
                         "learning per decision": g["learning"] / g["decisions"],
                         "gap per decision": g["gap"] / g["decisions"]})


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


def _range(values, fmt="{:.3f}") -> str:
    """``0.021 to 0.046``, or one number when both ends print alike."""
    lo, hi = fmt.format(min(values)), fmt.format(max(values))
    return lo if lo == hi else f"{lo} to {hi}"


def _per_game(b: pd.DataFrame) -> str:
    """What the regret per game says, from one board's rows of :func:`boards_compared`: it adds up as many decisions
    as a game lasts, shown on the two agents whose regret per game is closest; if those are within 5% of each other
    while their win rates are more than 0.05 apart, it is no stand-in for the win rate."""
    text = (" Per decision, the regret says how well moves are chosen; per game, it adds up as many decisions as a "
            "game lasts, and a player that loses sooner makes fewer of them.")
    if len(b) < 2:
        return text
    b = b.sort_values("regret per game")
    i = int(np.argmin(np.diff(b["regret per game"].to_numpy())))
    x, y = b.iloc[i], b.iloc[i + 1]
    text = text[:-1] + (f": on intermediate, {x['agent']} has {x['regret per game']:.3f} per game over "
                        f"{x['decisions per game']:.1f} decisions and wins {x['win rate']:.3f} of its games, "
                        f"{y['agent']} {y['regret per game']:.3f} over {y['decisions per game']:.1f} and wins "
                        f"{y['win rate']:.3f}.")
    if y["regret per game"] <= 1.05 * x["regret per game"] and abs(x["win rate"] - y["win rate"]) > 0.05:
        text += (" Regrets per game this close go with win rates this far apart: the regret per game does not stand "
                 "in for the win rate.")
    return text


def findings(r: pd.DataFrame | None = None, frozen_table: pd.DataFrame | None = None) -> dict:
    """The chapter's sentences that compare numbers, generated from the tables above (so they say what the
    page's tables and charts show): ``ranking``, ``split``, ``growth``, ``frozen``, ``tradeoff_*``,
    ``learning_ranking``, ``boards``, and ``glance`` (one sentence for the summary pages). ``r``: the runs
    (default: :func:`runs`); ``frozen_table``: :func:`frozen` (default: read from the store)."""
    long, short = lengths()
    r = runs() if r is None else r
    out = _ranking_sentences(at_games((short,), r=r), short)
    out["split"] = _split_sentence(split(r=r), short)
    g = growth(r=r)
    gg = g[g["agent"] == LABELS["greedy"]]
    if len(gg) >= 2:
        out["growth"] = _growth_sentence(gg)
    fz = frozen() if frozen_table is None else frozen_table
    fg = fz[fz["agent"] == LABELS["greedy"]] if len(fz) else fz
    if len(fg) and len(gg):
        out["frozen"] = _frozen_sentence(fg.iloc[0], gg.iloc[-1])
    out.update(_tradeoff_sentences(r, short))
    boards = _boards_sentence(boards_compared(r=r), short)
    if boards:
        out["boards"] = boards
    if "split" in out and "growth" in out:
        out["glance"] = _glance_sentence(gg.iloc[-1], r, long)
    return out


def _ranking_sentences(t: pd.DataFrame, short: int) -> dict:
    """``ranking`` (regret per decision, and the cumulative regret when it orders the agents otherwise) and
    ``learning_ranking`` (the learning regret and the representation gap per decision), after ``short`` games."""
    out = {}
    by_dec = t.sort_values("per decision")
    best, worst = by_dec.iloc[0], by_dec.iloc[-1]
    most = t.sort_values("regret").iloc[-1]
    least = t.sort_values("regret").iloc[0]
    per_game = lambda x: x["decisions"] / short  # noqa: E731
    text = (f"After {short:,} games, the regret per decision runs from {best['per decision']:.4f} ({best['agent']}) "
            f"to {worst['per decision']:.4f} ({worst['agent']}).")
    if least["agent"] != best["agent"]:
        text += (f" The cumulative regret ranks the agents differently: {least['agent']} has the least "
                 f"({least['regret']:,.0f}) and {most['agent']} the most ({most['regret']:,.0f}); {least['agent']} "
                 f"makes {per_game(least):.1f} decisions per game against {per_game(best):.1f} for {best['agent']}: "
                 f"it loses sooner, so it has fewer decisions in which to be wrong.")
    out["ranking"] = text
    by_learn = t.sort_values("learning per decision")
    lb, lw = by_learn.iloc[0], by_learn.iloc[-1]
    text = (f"With the gap taken out, the learning regret per decision runs from {lb['learning per decision']:.4f} "
            f"({lb['agent']}) to {lw['learning per decision']:.4f} ({lw['agent']}), and the representation gap from "
            f"{t['gap per decision'].min():.4f} to {t['gap per decision'].max():.4f} per decision.")
    same = list(by_learn["agent"]) == list(by_dec["agent"])
    text += (" The two orders of the agents are the same." if same else
             " Ranked by learning regret the agents come in the order " + ", ".join(by_learn["agent"])
             + "; by regret per decision " + ", ".join(by_dec["agent"]) + ".")
    out["learning_ranking"] = text
    return out


def _split_sentence(s: pd.DataFrame, short: int) -> str:
    """What sure decisions and guesses cost, each split into representation gap and learning regret."""
    guess_dearer = (s["regret per guess"] > s["regret per sure decision"]).all()
    return (
        f"Over their first {short:,} games, a decision where a move certain to be right was on offer cost the agents "
        f"{_range(s['regret per sure decision'])} in regret, and a guess {_range(s['regret per guess'])}"
        + (": per decision, guesses cost every agent more." if guess_dearer else ".")
        + f" Sure decisions are {_span(s['sure decisions'])} of all decisions, which is why most of the total comes "
        f"from them. On sure decisions the representation gap is {_range(s['gap per sure decision'])} per decision "
        f"and the learning regret {_range(s['learning per sure decision'])}; on guesses "
        f"{_range(s['gap per guess'])} and {_range(s['learning per guess'])}.")


def _growth_sentence(gg: pd.DataFrame) -> str:
    """How greedy's learning regret per decision and its gap per decision change over its decades of games."""
    first, last = gg.iloc[0], gg.iloc[-1]
    a, b = first["learning per decision"], last["learning per decision"]
    if f"{a:.4f}" == f"{b:.4f}":
        trend = f"stays at {a:.4f} from games {first['games']} to games {last['games']}"
    else:
        trend = (f"{'falls' if b < a else 'rises'} from {a:.4f} (games {first['games']}) to {b:.4f} "
                 f"(games {last['games']})")
    added = ", ".join(f"{x:,.0f}" for x in gg["learning added"])
    text = (f"Greedy's learning regret per decision {trend}, while its representation gap per decision stays "
            f"between {gg['gap per decision'].min():.4f} and {gg['gap per decision'].max():.4f}: the gap grows in "
            f"proportion to the decisions. The learning regret added per decade of games is {added}")
    ratios = gg["learning added"].to_numpy()
    if (ratios > 0).all() and len(ratios) >= 2:
        growth_ = ratios[1:] / ratios[:-1]
        text += (f" (each decade {_range(growth_, '{:.1f}')} times the one before; a regret growing like the "
                 f"logarithm of the decisions would add the same amount each decade, a linear one ten times "
                 f"as much).")
    else:
        text += "."
    return text


def _frozen_sentence(f: pd.Series, last: pd.Series) -> str:
    """Greedy frozen after training against the last decade of its training."""
    return (
        f"Frozen after its {int(f['trained games']):,} training games, greedy has a regret of "
        f"{f['regret per decision']:.4f} per decision over {int(f['test games']):,} test games: "
        f"{f['gap per decision']:.4f} of representation gap and {f['learning per decision']:.4f} of learning "
        f"regret, against {last['regret per decision']:.4f} ({last['gap per decision']:.4f} and "
        f"{last['learning per decision']:.4f}) in the last decade of its training.")


def _tradeoff_sentences(r: pd.DataFrame, short: int) -> dict:
    """``tradeoff_UCB``, ``tradeoff_ε-greedy`` (and their ``tradeoff_learning_*`` twins): the best parameter of
    each family against greedy; ``tradeoff_order``: whether taking the gap out changes the ranking."""
    out = {}
    for column, key in (("regret", "tradeoff"), ("learning", "tradeoff_learning")):
        tr = tradeoff(r=r, column=column)
        greedy = tr[tr["rule"] == "greedy"]
        word = PARTS[column]
        for fam, name in (("UCB", "c"), ("ε-greedy", "ε")):
            d = tr[tr["rule"] == fam]
            if d.empty:
                continue
            b = d.sort_values("regret").iloc[0]
            tied = [x for x in _tied(d, b) if x["parameter"] != b["parameter"]]
            text = (f"{fam}: the lowest cumulative {word} after {short:,} games is at {name} = {b['parameter']:g} "
                    f"({b['regret']:,.0f}, range {b['low']:,.0f}-{b['high']:,.0f} over {int(b['seeds'])} seeds)")
            if tied:
                text += (f", but the seeds cannot tell it from {name} = "
                         + " and ".join(f"{x['parameter']:g}" for x in tied) + " (their ranges overlap)")
            text += f"; the worst {name} tried gives {d['regret'].max():,.0f}."
            if not greedy.empty:
                gr = greedy.iloc[0]
                if gr["high"] < b["low"]:
                    text += (f" Greedy, with no exploration at all, is lower still ({gr['regret']:,.0f}, range "
                             f"{gr['low']:,.0f}-{gr['high']:,.0f}).")
                elif gr["low"] > b["high"]:
                    text += f" Greedy is higher ({gr['regret']:,.0f}): exploring pays here."
                else:
                    text += f" Greedy ({gr['regret']:,.0f}) cannot be told apart from it."
            out[f"{key}_{fam}"] = text
    both = {c: tradeoff(r=r, column=c) for c in ("regret", "learning")}
    orders = []
    for fam, name in (("UCB", "c"), ("ε-greedy", "ε")):
        o = {c: [f"{v:g}" for v in t_[t_["rule"] == fam].sort_values("regret")["parameter"]] for c, t_ in both.items()}
        if o["regret"]:
            same = o["regret"] == o["learning"]
            orders.append(f"{fam}'s {name} values rank " + (
                "in the same order by both (" + ", ".join(o["regret"]) + ", best first)" if same else
                f"{', '.join(o['regret'])} by regret and {', '.join(o['learning'])} by learning regret (best first)"))
    if orders:
        out["tradeoff_order"] = "Taking the gap out " + (
            "changes no ranking: " if all("same order" in x for x in orders) else "changes the ranking: ") \
            + "; ".join(orders) + "."
    return out


def _boards_sentence(bc: pd.DataFrame, short: int) -> str | None:
    """Regret per decision and per game on beginner against intermediate (None without both boards)."""
    rows = []
    for a, x in bc.groupby("agent", sort=False):
        if set(x["board"]) >= {"8x8x10", "16x16x40"}:
            b8 = x[x["board"] == "8x8x10"].iloc[0]
            b16 = x[x["board"] == "16x16x40"].iloc[0]
            rows.append((a, b8, b16))
    if not rows:
        return None
    a, b8, b16 = rows[0]
    parts = "; ".join(f"{n} {x['regret per decision']:.4f} on beginner, {y['regret per decision']:.4f} on "
                      f"intermediate" for n, x, y in rows)
    text = f"Regret per decision over the first {short:,} games: {parts}."
    if b16["regret per decision"] < b8["regret per decision"] and b16["win rate"] < b8["win rate"]:
        text += (f" Yet {a} wins {b16['win rate']:.3f} of its intermediate games against {b8['win rate']:.3f} "
                 f"on beginner.")
        if b16["sure decisions"] > b8["sure decisions"]:
            text += (f" Intermediate decisions are more often sure ({b16['sure decisions']:.0%} offer a sure move, "
                     f"beginner {b8['sure decisions']:.0%}), and sure decisions cost less: that lowers the "
                     f"average per decision.")
        if b16["regret per game"] > b8["regret per game"]:
            text += (f" But a game needs {b16['decisions per game']:.1f} decisions (beginner "
                     f"{b8['decisions per game']:.1f}), so the regret per game is {b16['regret per game']:.2f} "
                     f"against {b8['regret per game']:.2f}: more chances per game for the wrong click that ends "
                     f"it.")
    text += _per_game(bc[bc["board"] == "16x16x40"])
    split_rows = [(n, x, y) for n, x, y in rows
                  if np.isfinite([x["gap per decision"], y["gap per decision"]]).all()]
    if split_rows:
        text += " Split in two, per decision: " + "; ".join(
            f"{n}'s representation gap {x['gap per decision']:.4f} on beginner and {y['gap per decision']:.4f} "
            f"on intermediate, its learning regret {x['learning per decision']:.4f} and "
            f"{y['learning per decision']:.4f}" for n, x, y in split_rows) + "."
    return text


def _glance_sentence(gl: pd.Series, r: pd.DataFrame, long: int) -> str:
    """One sentence for the summary pages: greedy's regret split in two, at its last decade and last tenth."""
    text = (f"Scored against the best window agent (an estimate of the best agent that reads the board through "
            f"the same windows), greedy's regret splits in two: over games {gl['games']} of its {long:,} "
            f"training games, a representation gap of {gl['gap per decision']:.4f} per decision and a learning "
            f"regret of {gl['learning per decision']:.4f}")
    end = _last_tenth(r)
    if end is not None:
        text += (f"; over the last {long // 10:,} games (games {long - long // 10:,}-{long:,}), "
                 f"{end['gap']:.4f} and {end['learning']:.4f}")
    return text + "."


def _last_tenth(r: pd.DataFrame, board: str = "8x8x10", agent: str = "greedy") -> dict | None:
    """Seed 1's long run of ``agent``: the representation gap and the learning regret per decision over the last
    tenth of its training games (differences of the stored running totals), or None when those block ends are not
    stored."""
    long, _ = lengths()
    g = r[(r["board"] == board) & (r["agent"] == agent) & (r["seed"] == 1) & (r["episodes"] == long)]
    g = g.set_index("games")
    lo = long - long // 10
    if lo not in g.index or long not in g.index:
        return None
    d = g.loc[long, ["gap", "learning", "decisions"]] - g.loc[lo, ["gap", "learning", "decisions"]]
    return {"gap": d["gap"] / d["decisions"], "learning": d["learning"] / d["decisions"]}


# ----------------------------------------------------------------------- tables for the page --

def _power(n: int) -> str:
    """10,000 -> 10⁴ (powers of ten), else the number with separators."""
    e = len(str(n)) - 1
    sup = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
    return f"10{str(e).translate(sup)}" if n == 10 ** e else f"{n:,}"


def split_table(s: pd.DataFrame) -> pd.DataFrame:
    """:func:`split` for the page: rates per decision of each kind, the share of sure decisions in percent."""
    f4 = lambda v: f"{v:.4f}"  # noqa: E731
    cols = {"sure decisions": s["sure decisions"].map(lambda v: f"{100 * v:.1f}%")}
    for part, word in (("regret", "regret"), ("gap", "gap"), ("learning", "learning")):
        cols[f"{word}: sure"] = s[f"{part} per sure decision"].map(f4)
        cols[f"{word}: guess"] = s[f"{part} per guess"].map(f4)
    return pd.DataFrame(cols).set_index(s["agent"].rename(None))


def growth_table(g: pd.DataFrame) -> pd.DataFrame:
    """:func:`growth` for the page: one block per agent, the stretches of games as rows (a stretch such as
    ``1,000‑10,000`` joined by a non-breaking hyphen, so a narrow row label never splits it)."""
    f4 = lambda v: f"{v:.4f}"  # noqa: E731
    out = pd.DataFrame({"agent": g["agent"], "games": g["games"].astype(str).str.replace("-", "\u2011"),
                        "regret": g["regret per decision"].map(f4), "gap": g["gap per decision"].map(f4),
                        "learning": g["learning per decision"].map(f4),
                        "learning added": g["learning added"].map(lambda v: f"{v:,.0f}"),
                        "decisions per game": g["decisions per game"].map(lambda v: f"{v:.1f}"),
                        "new actions per game": g["new actions per game"].map(lambda v: f"{v:.2f}")})
    return out.set_index(["agent", "games"]).rename_axis([None, "games"])


def frozen_table(f: pd.DataFrame) -> pd.DataFrame:
    """:func:`frozen` for the page."""
    f4 = lambda v: f"{v:.4f}"  # noqa: E731
    return pd.DataFrame({"test games": f["test games"].map(lambda v: f"{v:,}"),
                         "win rate": f["win rate"].map(lambda v: f"{v:.3f}"),
                         "regret": f["regret per decision"].map(f4), "gap": f["gap per decision"].map(f4),
                         "learning": f["learning per decision"].map(f4)}).set_index(f["agent"].rename(None))


#: :func:`boards_table`'s columns in two parts, each narrower than the book's text column: how the agents play, and
#: their regret.
BOARDS_PARTS = {"play": ["win rate", "decisions per game", "sure", "seeds"],
                "regret": ["per decision", "per sure decision", "per guess", "per game", "gap per decision",
                           "learning per decision"]}


def boards_table(b: pd.DataFrame, part: str | None = None) -> pd.DataFrame:
    """:func:`boards_compared` for the page; ``part``: only the columns of :data:`BOARDS_PARTS` ``[part]``."""
    f4 = lambda v: f"{v:.4f}"  # noqa: E731
    table = pd.DataFrame({"board": b["board"], "win rate": b["win rate"].map(lambda v: f"{v:.3f}"),
                         "decisions per game": b["decisions per game"].map(lambda v: f"{v:.1f}"),
                         "sure": b["sure decisions"].map(lambda v: f"{100 * v:.0f}%"),
                         "per decision": b["regret per decision"].map(f4),
                         "per sure decision": b["regret per sure decision"].map(f4),
                         "per guess": b["regret per guess"].map(f4),
                         "per game": b["regret per game"].map(lambda v: f"{v:.3f}"),
                         "gap per decision": b["gap per decision"].map(f4),
                         "learning per decision": b["learning per decision"].map(f4),
                         "seeds": b["seeds"]}).set_index([b["agent"].rename(None), "board"])
    return table if part is None else table[BOARDS_PARTS[part]]


def comparator(board: str = "8x8x10") -> dict:
    """What the page says of the best window agent's table of ``board`` (read from the package's file): its
    keys, the sample it was estimated on (``play``, ``games``, ``decisions``, ``candidates``), the command that
    made it, its commit, and its convergence (a table: the gap and learning regret per decision of fixed frozen
    games scored with the tables of the first 1, 2, 4, ... parts of the sample, and the share of decisions with a
    key the table had never met)."""
    from ...agents.best_window import default
    t = default(board)
    if t is None:
        raise ValueError(f"the package has no best-window table for {board}")
    info = t.info
    conv = pd.DataFrame(info.get("convergence", []))
    return {"keys": len(t), "play": info.get("play", ""), "games": info.get("games"), "decisions": t.decisions,
            "candidates": info.get("candidates"), "command": info.get("command", ""),
            "commit": info.get("provenance", {}).get("commit", "unknown"), "convergence": conv,
            "convergence_games": info.get("convergence_games", {})}


def convergence_table(c: dict) -> pd.DataFrame:
    """The convergence of :func:`comparator` for the page."""
    conv = c["convergence"]
    return pd.DataFrame({"games in the sample": conv["games"].map(lambda v: f"{v:,}"),
                         "keys": conv["keys"].map(lambda v: f"{v:,}"),
                         "gap per decision": conv["gap_per_decision"].map(lambda v: f"{v:.5f}"),
                         "learning per decision": conv["learning_per_decision"].map(lambda v: f"{v:.5f}"),
                         "decisions with an unknown key": conv["unknown_share"].map(lambda v: f"{100 * v:.2f}%")
                         }).set_index(conv["parts"].rename("parts"))


def comparator_note(c: dict) -> str:
    """Sentences on the table's sample and its convergence, generated from :func:`comparator` (see
    :func:`_unsettled`)."""
    conv = c["convergence"]
    first, last = conv.iloc[0], conv.iloc[-1]
    cg = c["convergence_games"]
    prev = conv.iloc[-2] if len(conv) > 1 else first
    return (f"The table holds {c['keys']:,} keys, estimated over {c['decisions']:,} decisions ({c['games']:,} games: "
            f"{c['play']}; {c['candidates']:,} candidates in all), made by `{c['command']}` at commit "
            f"`{c['commit'][:10]}`. The convergence check scores {cg.get('games', 0):,} frozen games of a greedy agent "
            f"trained for {cg.get('train', 0):,} games with the tables of the first parts of the sample: the gap per "
            f"decision goes from {first['gap_per_decision']:.5f} ({int(first['parts'])} part) to "
            f"{last['gap_per_decision']:.5f} ({int(last['parts'])} parts), "
            f"{abs(last['gap_per_decision'] - prev['gap_per_decision']):.5f} apart from the table of half the sample, "
            f"and the share of decisions with a key the table never met "
            f"{'falls' if last['unknown_share'] < first['unknown_share'] else 'goes'} from "
            f"{first['unknown_share']:.2%} to "
            f"{last['unknown_share']:.2%}."
            + _unsettled(conv))


def _unsettled(conv: pd.DataFrame) -> str:
    """What the convergence table says of the split, if the gap is still falling at its last doubling: the last
    steps of the gap, the learning regret's path over the sample, and whether the split is settled. It is not when
    the last doubling moved more than half the learning regret the whole table measures, or that learning regret
    is not positive; the table gives no bound on how much further the gap would fall."""
    if len(conv) < 2:
        return ""
    gap, learn = conv["gap_per_decision"].to_numpy(), conv["learning_per_decision"].to_numpy()
    if gap[-1] >= gap[-2]:
        return ""
    steps = -np.diff(gap)[-2:]
    last, final = steps[-1], learn[-1]
    text = (f" The gap is still falling as the sample grows: by "
            + " and ".join(f"{x:.5f}" for x in steps)
            + f" per decision over the last {'two doublings' if len(steps) > 1 else 'doubling'}, while the learning "
            f"regret on these games went from {learn[0]:.5f} ({int(conv['parts'].iloc[0])} part) to {final:.5f} "
            f"({int(conv['parts'].iloc[-1])} parts). "
            f"A table estimated from more games would rank the keys better, so the gaps on this page overstate the "
            f"best window agent's and understate the learning regret; these numbers do not say by how much.")
    if final <= 0 or last > final / 2:
        text += (f" The split is not settled at this sample size: the last doubling alone moved {last:.5f} per "
                 f"decision from one part to the other, against a learning regret of {final:.5f}.")
    return text


def scale_note() -> str:
    """Which results the chapter shows, and the command that recomputes them."""
    long, short = lengths()
    sc = figures.scale()
    where = "committed in `results/`" if sc == "paper" else "computed for this test run"
    return (f"Results on this page: **{sc} scale**, {where}: each agent's seed 1 trains for {long:,} games, the "
            f"other seeds for {short:,}; each table says how many runs it rests on. Rerun with "
            f"`python -m sweeper reproduce ext:regret --scale {sc}`.")
