"""The chapter "How good can it get?", its section on the searching solver: the one-step solver and the searching
solver on every suite of the benchmark (the stored runs of ``ext:benchmark_search`` at the page's scale), compared
board by board, and set beside other solvers' published expert figures under the rules each states.

Nothing here computes a result: the functions read the stored runs, or take the frames :func:`search_runs` gives,
so a test can hand them made ones. Win rates carry their 95% Wilson interval; the searching solver against the
one-step solver is :func:`~sweeper.experiments.stats.compare_paired` on the same boards (a paired bootstrap interval
and the exact McNemar p); against a published figure, Newcombe's interval of the difference where the source states
its games (:func:`~sweeper.experiments.stats.difference_interval`), else the published value taken as exact.
"""

from __future__ import annotations

import pandas as pd

from ...experiments.paper import published_solver, published_solver_figures
from ...experiments.stats import compare_paired, difference_interval, wilson
from ...experiments.suites import LEVELS, OPENINGS
from .results import ensure_spec
from .prose import and_list

#: The spec of the stored runs, and the page's names of its two players.
SPEC = "ext:benchmark_search"
NAMES = {"solver": "one-step solver", "search": "searching solver"}
#: Each opening's first click in words (the benchmark's suites click first at the top left corner, (0, 0)).
RULES = {"safe": "first click (0,0), never a mine",
         "zero": "first click (0,0), a 0: no mine in its 3x3 square",
         "reference": "no first click; the game itself opens the first tile with no mine around it, column by column"}
#: Tu et al.'s solver figures (``published-solver.csv``) under our rules: their rule names and the source in short.
PSEQ_RULES = {"safe": "SFAR: the first click is safe", "zero": "SNR: the first click and its neighbours are safe"}
PSEQ_SOURCE = "Tu et al. 2017 (PSEQ), github.com/b1f6c1c4/MineSweeperProb"
PSEQ_GAMES = 100_000_000


def search_outputs() -> list:
    """``(task, output)`` of every stored run of :data:`SPEC` at the page's scale (an error naming the command when
    one is missing)."""
    st, tasks = ensure_spec(SPEC)
    return [(t, st.load(t)) for t in tasks]


def search_runs(outputs=None) -> dict:
    """The stored runs as tidy frames: ``scores`` (one row per player, opening and level: wins, games, win rate with
    its Wilson interval, regret per decision and its decisions, CPU ms per game as recorded, the machine's CPU) and
    ``games`` (one row per player, opening, level and board: won)."""
    outputs = search_outputs() if outputs is None else outputs
    scores, games = [], []
    for t, out in outputs:
        agent, opening = out.info["agent"], t.params["test"]["opening"]
        cpu = out.info["test_cpu_seconds"]
        for _, r in out.tables["scores"].iterrows():
            lo, hi = wilson(int(r["wins"]), int(r["games"]))
            scores.append({"agent": agent, "opening": opening, "level": r["level"], "games": int(r["games"]),
                           "wins": int(r["wins"]), "win_rate": r["wins"] / r["games"], "low": lo, "high": hi,
                           "regret_per_decision": float(r["regret_per_decision"]),
                           "regret_decisions": int(r.get("regret_decisions", 0)),
                           "regret_games": int(r["regret_games"]),
                           "cpu_ms_per_game": 1000 * cpu[r["level"]] / r["games"],
                           "cpu": out.info.get("machine", {}).get("cpu", "not recorded")})
        g = out.tables["games"][["level", "board", "won"]]
        games.append(g.assign(agent=agent, opening=opening))
    return {"scores": pd.DataFrame(scores), "games": pd.concat(games, ignore_index=True)}


def _outcomes(games: pd.DataFrame, agent: str, opening: str, level: str) -> pd.Series:
    g = games[(games["agent"] == agent) & (games["opening"] == opening) & (games["level"] == level)]
    return g.set_index("board")["won"].sort_index().astype(int)


def paired(runs: dict) -> pd.DataFrame:
    """One row per suite both players played (levels, then openings, in the suites' order): each player's win rate
    with its Wilson interval and CPU ms per game, the searching solver's regret per decision (and the one-step
    solver's), and :func:`~sweeper.experiments.stats.compare_paired` of search against the one-step solver on the
    same boards (``difference``, ``low``, ``high``, ``only_search``, ``only_solver``, ``mcnemar_p``, ``verdict``)."""
    s = runs["scores"].set_index(["agent", "opening", "level"])
    rows = []
    for level in LEVELS:
        for opening in OPENINGS:
            if ("search", opening, level) not in s.index or ("solver", opening, level) not in s.index:
                continue
            a = _outcomes(runs["games"], "search", opening, level)
            b = _outcomes(runs["games"], "solver", opening, level)
            if not a.index.equals(b.index):
                raise ValueError(f"{level}-{opening}: the two players' runs hold different boards")
            c = compare_paired(a.to_numpy(), b.to_numpy())
            se, so = s.loc[("search", opening, level)], s.loc[("solver", opening, level)]
            rows.append({"suite": f"{level}-{opening}", "level": level, "opening": opening, "boards": c["boards"],
                         "solver_rate": so["win_rate"], "solver_low": so["low"], "solver_high": so["high"],
                         "search_rate": se["win_rate"], "search_low": se["low"], "search_high": se["high"],
                         "difference": c["difference"], "low": c["low"], "high": c["high"],
                         "only_search": c["only_a"], "only_solver": c["only_b"], "mcnemar_p": c["mcnemar_p"],
                         "verdict": c["verdict"], "solver_ms": so["cpu_ms_per_game"],
                         "search_ms": se["cpu_ms_per_game"], "search_regret": se["regret_per_decision"],
                         "search_regret_decisions": se["regret_decisions"],
                         "solver_regret": so["regret_per_decision"]})
    return pd.DataFrame(rows)


def _rate(v, lo, hi) -> str:
    return f"{v:.4f} [{lo:.4f}, {hi:.4f}]"


def _points(v, lo, hi) -> str:
    return f"{100 * v:+.2f} [{100 * lo:+.2f}, {100 * hi:+.2f}]"


def _p(p: float) -> str:
    return f"{p:.2g}" if p >= 1e-4 else f"{p:.1e}"


#: The two halves of each wide table of the page, so that each fits the text column: column names by part.
PAIRED_PARTS = {"rates": ("one-step [95%]", "search [95%]", "search − one-step, pts [95%]"),
                "evidence": ("only one won", "McNemar p", "ms/game", "regret/dec.")}
PUBLISHED_PARTS = {"figures": ("win rate", "games", "ms/game", "beside"), "rules": ("rules as published",),
                   "ours": ("search − it, pts [95%]", "one-step − it, pts [95%]")}


def paired_table(p: pd.DataFrame, part: str | None = None) -> pd.DataFrame:
    """:func:`paired` for the page: one row per suite, numbers as text; ``part``, one of :data:`PAIRED_PARTS` (the
    win rates, or the evidence beside them), or None for every column."""
    if part is not None and part not in PAIRED_PARTS:
        raise ValueError(f"part must be one of {', '.join(PAIRED_PARTS)} or None, got {part!r}")
    table = pd.DataFrame({
        "one-step [95%]": [_rate(*r) for r in zip(p["solver_rate"], p["solver_low"], p["solver_high"])],
        "search [95%]": [_rate(*r) for r in zip(p["search_rate"], p["search_low"], p["search_high"])],
        "search − one-step, pts [95%]": [_points(*r) for r in zip(p["difference"], p["low"], p["high"])],
        "only one won": [f"{a:,} / {b:,}" for a, b in zip(p["only_search"], p["only_solver"])],
        "McNemar p": p["mcnemar_p"].map(_p),
        "ms/game": [f"{a:.2f} / {b:.2f}" for a, b in zip(p["solver_ms"], p["search_ms"])],
        "regret/dec.": p["search_regret"].map(lambda v: f"{v:.5f}")}).set_index(p["suite"].rename("suite"))
    return table if part is None else table[list(PAIRED_PARTS[part])]


def paired_caption(p: pd.DataFrame) -> str:
    """The caption under :func:`paired_table`."""
    n = sorted(set(p["boards"]))
    boards = f"{n[0]:,} boards per suite" if len(n) == 1 else f"{n[0]:,} to {n[-1]:,} boards per suite"
    return (f"*Both solvers on the same boards of each suite ({boards}), neither drawing at random. \"[95%]\": the "
            "Wilson interval of the win rate; \"search − one-step\": the difference in win rate in points, with a "
            "paired bootstrap interval over the boards (10,000 resamples); \"only one won\": the boards only the "
            "searching solver won / only the one-step solver won, on which the exact McNemar p is computed; "
            "\"ms/game\": test CPU milliseconds per game as recorded in the scoring process (one-step / search), on "
            "the machine of the stored runs; \"regret/dec.\": the searching solver's regret per click on the first "
            f"boards of each suite ({int(p['search_regret_decisions'].sum()):,} clicks in all); the one-step "
            f"solver's is {'0 on every suite' if (p['solver_regret'] == 0).all() else 'not 0 on some suite'}.*")


def _pseq_rows() -> list:
    """Tu et al.'s expert figures with their first click in the corner, the tile of our suites, by our opening."""
    d = published_solver()
    d = d[(d["board"] == "16x30x99") & d["opening"].isin(list(PSEQ_RULES)) & (d["first"] == (0, 0))]
    return [{"solver": r["strategy"], "setting": PSEQ_RULES[r["opening"]].split(":")[0],  # SFAR or SNR
             "rule": f"{PSEQ_RULES[r['opening']]}, at [1,1]",
             "match": "same rules", "games": PSEQ_GAMES, "win_rate": float(r["win_rate"]), "cpu_ms_per_game": None,
             "suite": f"expert-{r['opening']}", "source": PSEQ_SOURCE} for _, r in d.iterrows()]


def _match(r) -> str:
    if not r["opening"]:
        return "rule not stated"
    return "same rules" if r["first_click"] == "corner" else "first click differs"


def published_figures() -> pd.DataFrame:
    """Every published expert figure the chapter sets beside a suite: the new solvers' (``published-solver-
    figures.csv``) and Tu et al.'s PSEQ with the first click in the corner; ``match`` says whether the rules are ours
    (``same rules``, ``first click differs``, ``rule not stated``)."""
    d = published_solver_figures()
    rows = [{"solver": r["solver"], "setting": r["setting"], "rule": r["rule"], "match": _match(r),
             "games": None if pd.isna(r["games"]) else int(r["games"]), "win_rate": float(r["win_rate"]),
             "cpu_ms_per_game": None if pd.isna(r["cpu_ms_per_game"]) else float(r["cpu_ms_per_game"]),
             "suite": r["compare_with"], "source": r["source"]} for _, r in d.iterrows()]
    return pd.DataFrame(rows + _pseq_rows())


def _against(wins: int, games: int, pub) -> tuple:
    """Our rate minus a published one, with Newcombe's interval where its games are known, else against ours."""
    if pub["games"] is not None and not pd.isna(pub["games"]):
        g = int(pub["games"])
        return difference_interval(wins, games, round(pub["win_rate"] * g), g)
    lo, hi = wilson(wins, games)
    return wins / games - pub["win_rate"], lo - pub["win_rate"], hi - pub["win_rate"]


def _word(lo: float, hi: float) -> str:
    return "ahead of" if lo > 0 else "behind" if hi < 0 else "cannot be told apart from"


def beside_published(runs: dict, published: pd.DataFrame | None = None) -> pd.DataFrame:
    """Each published figure (:func:`published_figures`) whose suite both players played, with each player's
    difference from it (``search_diff``, ``search_low``, ``search_high``, ``search_word``; ``solver_...`` the
    same): "ahead of" / "behind" where the 95% interval excludes 0, else "cannot be told apart from"."""
    published = published_figures() if published is None else published
    s = runs["scores"].assign(suite=lambda x: x["level"] + "-" + x["opening"]).set_index(["agent", "suite"])
    rows = []
    for _, pub in published.iterrows():
        if ("search", pub["suite"]) not in s.index or ("solver", pub["suite"]) not in s.index:
            continue
        row = pub.to_dict()
        for agent in ("search", "solver"):
            o = s.loc[(agent, pub["suite"])]
            d, lo, hi = _against(int(o["wins"]), int(o["games"]), pub)
            row.update({f"{agent}_diff": d, f"{agent}_low": lo, f"{agent}_high": hi, f"{agent}_word": _word(lo, hi)})
        rows.append(row)
    return pd.DataFrame(rows)


def _name(r) -> str:
    return f"{r['solver']} {r['setting']}".strip()


def published_table(b: pd.DataFrame, part: str | None = None) -> pd.DataFrame:
    """:func:`beside_published` for the page: one row per published figure, numbers as text; ``part``, one of
    :data:`PUBLISHED_PARTS` (the published figures, their rules and the suite beside them, or our solvers against
    them), or None for every column."""
    if part is not None and part not in PUBLISHED_PARTS:
        raise ValueError(f"part must be one of {', '.join(PUBLISHED_PARTS)} or None, got {part!r}")
    table = pd.DataFrame({
        "beside": [s if m == "same rules" else f"{s} ({m})" for s, m in zip(b["suite"], b["match"])],
        "rules as published": b["rule"].to_numpy(),
        "games": [("not stated" if pd.isna(g) else f"{int(g):,}") for g in b["games"]],
        "win rate": [f"{v:.4f}" for v in b["win_rate"]],
        "ms/game": [("" if pd.isna(v) else f"{v:g}") for v in b["cpu_ms_per_game"]],
        "search − it, pts [95%]": [_points(*r) for r in zip(b["search_diff"], b["search_low"], b["search_high"])],
        "one-step − it, pts [95%]": [_points(*r) for r in zip(b["solver_diff"], b["solver_low"],
                                                             b["solver_high"])]},
        index=pd.Index([_name(r) for _, r in b.iterrows()], name="published solver"))
    return table if part is None else table[list(PUBLISHED_PARTS[part])]


def published_caption(b: pd.DataFrame) -> str:
    """The caption under :func:`published_table`, naming every source."""
    by_source = {}
    for _, r in b.iterrows():
        names = by_source.setdefault(r["source"], [])
        if r["solver"] not in names:
            names.append(r["solver"])
    sources = "; ".join(f"{and_list(names)}: {src}" for src, names in by_source.items())
    return ("*Published expert figures (16x30x99), each beside the suite with the same first-click rule; in "
            "brackets where the published rule names another first-click tile (first click differs) or is not "
            "stated in the figures we have (set beside expert-safe, the classic rule of a safe first click). "
            "\"search − it\" and \"one-step − it\": our rate minus the published one, in points, with Newcombe's "
            "95% interval where the source states its games, else our Wilson interval less the published value "
            "(taken as exact; JSMinesweeper's are rounded as published). \"ms/game\": CPU per game where the source "
            f"states it, on its own machine. Sources: {sources}.*")


def _figures(rows: pd.DataFrame) -> str:
    """Published figures in words, grouped by solver: ``minesolve at depths 2, 3 and 4 (0.4027, 0.4068, 0.4080)``."""
    parts = []
    for solver, g in rows.groupby("solver", sort=False):
        settings = [s for s in g["setting"] if s]
        rates = ", ".join(f"{v:.4f}" for v in g["win_rate"])
        if settings and all(s.startswith("depth ") for s in settings):
            ds = [s.removeprefix("depth ") for s in settings]
            where = f" at depth{'s' if len(ds) > 1 else ''} {and_list(ds)}"
        else:
            where = f" {and_list(settings)}" if settings else ""
        parts.append(f"{solver}{where} ({rates})")
    return and_list(parts)


def _standing(rows: pd.DataFrame, agent: str) -> str:
    """Where one of our players stands against published figures: ahead of / cannot be told apart from / behind."""
    said = []
    for word in ("ahead of", "cannot be told apart from", "behind"):
        g = rows[rows[f"{agent}_word"] == word]
        if len(g):
            said.append(f"{'is ' if word != 'cannot be told apart from' else ''}{word} {_figures(g)}")
    return and_list(said)


def _suite_sentence(r, rows: pd.DataFrame) -> str:
    """One suite's sentence: the two players on the same boards, then where they stand against the figures."""
    search = _rate(r["search_rate"], r["search_low"], r["search_high"])
    matched = [f"{_name(o)}" for _, o in rows[rows["match"] == "same rules"].iterrows()]
    rule = RULES[r["opening"]] + (f"; the rule of {and_list(matched)}" if matched else "")
    text = (f"On **{r['suite']}** ({rule}) the searching solver wins {search} of {r['boards']:,} "
            f"boards, the one-step solver {_rate(r['solver_rate'], r['solver_low'], r['solver_high'])}: on the same "
            f"boards the difference is "
            f"{_points(r['difference'], r['low'], r['high'])} points (exact McNemar p = {_p(r['mcnemar_p'])}).")
    same = rows[rows["match"] != "first click differs"]
    if len(same):
        text += (f" Against the published figures set beside this suite, the searching solver {_standing(same, 'search')}; "
                 f"the one-step solver {_standing(same, 'solver')}.")
    unstated = rows[rows["match"] == "rule not stated"]
    if len(unstated):
        text += f" ({and_list(list(dict.fromkeys(unstated['solver'])))}: no first-click rule stated in the figures.)"
    for _, o in rows[rows["match"] == "first click differs"].iterrows():
        text += (f" {_name(o)}'s {o['win_rate']:.4f} is not under our rule ({o['rule']}; our suite clicks "
                 f"the corner){_tile_effect(r['opening'])}.")
    return text


def _tile_effect(opening: str) -> str:
    """How much the first-click tile moves PSEQ's published expert figure under ``opening``'s rule, if published."""
    d = published_solver()
    d = d[(d["board"] == "16x30x99") & (d["opening"] == opening) & (d["strategy"] == "PSEQ")]
    corner = d[d["first"] == (0, 0)]
    other = d[d["first"] != (0, 0)]
    if not len(corner) or not len(other):
        return ""
    o = other.iloc[0]
    return (f"; the tile matters: PSEQ's published figures under the same rule go from "
            f"{corner['win_rate'].iloc[0]:.4f} in the corner to {o['win_rate']:.4f} at tile {o['first_click']} "
            f"(1-based)")


def ceiling_sentences(p: pd.DataFrame, b: pd.DataFrame) -> list:
    """The section's statements, generated from :func:`paired` and :func:`beside_published`: one per suite with
    published figures (what the intervals show, and how the openings differ), then one for the reference opening."""
    out = [_suite_sentence(r, b[b["suite"] == r["suite"]]) for _, r in p.iterrows() if r["suite"] in set(b["suite"])]
    ref = p[(p["opening"] == "reference") & (p["level"] == "expert")]
    for _, r in ref.iterrows():
        out.append(f"**{r['suite']}** has no published counterpart (the reference opening: {RULES['reference']}): "
                   f"no first click is risked and play starts from an opened area. There "
                   f"the searching solver wins {r['search_rate']:.4f} and the one-step solver {r['solver_rate']:.4f}, "
                   f"{_points(r['difference'], r['low'], r['high'])} points on the same boards (exact McNemar p = "
                   f"{_p(r['mcnemar_p'])}).")
    return out


def paired_sentence(p: pd.DataFrame) -> str:
    """Over every suite: where the searching solver wins more than the one-step solver (the paired interval above
    0), where the two cannot be told apart, and what it costs in CPU per game."""
    more = p[p["low"] > 0]
    less = p[p["high"] < 0]
    rest = p[(p["low"] <= 0) & (p["high"] >= 0)]
    text = (f"**Measured.** The searching solver wins more games than the one-step solver on {len(more)} of the "
            f"{len(p)} suites (the paired interval above 0)")
    if len(more):
        text += f", by {100 * more['difference'].min():.2f} to {100 * more['difference'].max():.2f} points"
    if len(less):
        text += f"; fewer on {and_list(list(less['suite']))}"
    if len(rest):
        text += f"; on {and_list(list(rest['suite']))} the interval contains 0: they cannot be told apart there"
    ratio = p["search_ms"] / p["solver_ms"]
    e = p[p["level"] == "expert"]
    text += (f". It costs {ratio.min():.1f} to {ratio.max():.1f} times the one-step solver's CPU per game"
             + (f" ({e['search_ms'].min():.1f} to {e['search_ms'].max():.1f} ms per expert game, as recorded)"
                if len(e) else "") + ".")
    return text


def oracle_sentence(p: pd.DataFrame) -> str:
    """Why the one-step solver stays the regret's oracle, with the searching solver's regret as recorded."""
    e = p[p["level"] == "expert"] if (p["level"] == "expert").any() else p
    lo, hi = e["search_regret"].min(), e["search_regret"].max()
    regret = f"{lo:.5f}" if round(lo, 5) == round(hi, 5) else f"{lo:.5f} to {hi:.5f}"
    zero = "0 on every suite" if (p["solver_regret"] == 0).all() else "not 0 on some suite, which needs a look"
    gain = (f"and it wins {100 * e['difference'].min():.2f} to {100 * e['difference'].max():.2f} points more games there "
            f"(the paired intervals above 0)" if (e["low"] > 0).all() else
            "but the paired intervals do not show it winning more games on every one of those suites")
    return (f"The one-step solver stays the oracle of the regret ([the regret chapter](05b_regret.html) and [the "
            f"leaderboard](15_benchmark.html)): a "
            f"click's regret is its tile's mine probability minus the lowest one on offer, so the solver that always "
            f"clicks a safest tile has regret 0 by construction (its stored runs: {zero}). The searching solver "
            f"sometimes clicks a slightly riskier tile whose number will tell it more: its regret is {regret} per "
            f"click on the first boards of the {e['level'].iloc[0]} suites, {gain}. Regret measures a click against the "
            f"safest tile; the searching solver measures what always taking the safest tile leaves on the table.")

# ------------------------------------------------------------ fresh boards --

#: The two solvers on fresh classic-expert boards (:func:`~sweeper.experiments.leaderboard.search_fresh_tasks`).
FRESH_SPEC = "ext:benchmark_search_fresh"


def fresh_runs(outputs=None) -> dict:
    """The stored runs of :data:`FRESH_SPEC` at the page's scale: ``seeds`` (one row per player and seed: wins,
    games, win rate) and ``games`` (one row per player and board, the seeds' boards numbered one after another:
    won), the same boards for both players."""
    if outputs is None:
        st, tasks = ensure_spec(FRESH_SPEC)
        outputs = [(t, st.load(t)) for t in tasks]
    seeds, games = [], []
    for t, out in outputs:
        agent, seed = out.info["agent"], t.params["test"]["fresh"]
        g = out.tables["games"]
        seeds.append({"agent": agent, "seed": seed, "wins": int(g["won"].sum()), "games": len(g),
                      "win_rate": float(g["won"].mean())})
        games.append(pd.DataFrame({"agent": agent, "seed": seed, "board": g["board"].to_numpy(),
                                   "won": g["won"].astype(int).to_numpy()}))
    return {"seeds": pd.DataFrame(seeds), "games": pd.concat(games, ignore_index=True)}


def _pooled(fresh: dict, agent: str) -> pd.Series:
    g = fresh["games"]
    return g[g["agent"] == agent].sort_values(["seed", "board"])["won"].reset_index(drop=True)


#: :func:`_word` as the predicate of a sentence whose subject is the searching solver.
VERDICT = {"ahead of": "is ahead of", "behind": "is behind", "cannot be told apart from": "cannot be told apart from"}


def fresh_values(fresh: dict, runs: dict, published: pd.DataFrame | None = None) -> dict:
    """The numbers and words the page's paragraph on fresh boards pastes: the boards (``boards``, ``seeds``,
    ``per_seed``); each player's pooled win rate with its Wilson interval (``search``, ``search_low``,
    ``search_high``; ``solver_...``) and the searching solver's lowest and highest seed; the paired difference
    search - one-step on the same boards (``diff``, ``diff_low``, ``diff_high``, ``only_search``, ``only_solver``,
    ``p``: :func:`~sweeper.experiments.stats.compare_paired`); the searching solver's public ``expert-safe`` score
    (``suite``, ``suite_games``) and the suite minus the fresh boards (``suite_diff``, ``suite_low``, ``suite_high``,
    ``suite_word``); and against each published figure of the same rule, ``minesolve`` (depth 4) and ``jsm``
    (JSMinesweeper's classic): its rate, games (0 where unpublished) and the searching solver's difference and word
    (:func:`beside_published`), and that word as a predicate (``_verdict``, :data:`VERDICT`)."""
    per = fresh["seeds"]
    mine = per[per["agent"] == "search"]
    a, b = _pooled(fresh, "search"), _pooled(fresh, "solver")
    values = {"boards": len(a), "seeds": len(mine), "per_seed": int(mine["games"].iloc[0]),
              "search_seed_min": float(mine["win_rate"].min()), "search_seed_max": float(mine["win_rate"].max())}
    for agent, o in (("search", a), ("solver", b)):
        lo, hi = wilson(int(o.sum()), len(o))
        values.update({agent: float(o.mean()), f"{agent}_low": lo, f"{agent}_high": hi})
    c = compare_paired(a.to_numpy(), b.to_numpy())
    values.update(diff=c["difference"], diff_low=c["low"], diff_high=c["high"], only_search=c["only_a"],
                  only_solver=c["only_b"], p=c["mcnemar_p"])
    s = runs["scores"]
    suite = s[(s["agent"] == "search") & (s["level"] == "expert") & (s["opening"] == "safe")].iloc[0]
    d, lo, hi = difference_interval(int(suite["wins"]), int(suite["games"]), int(a.sum()), len(a))
    values.update(suite=float(suite["win_rate"]), suite_games=int(suite["games"]), suite_diff=d, suite_low=lo,
                  suite_high=hi, suite_word=_word(lo, hi))
    pooled = {"scores": pd.DataFrame([{"agent": k, "level": "expert", "opening": "safe", "wins": int(o.sum()),
                                       "games": len(o)} for k, o in (("search", a), ("solver", b))])}
    beside = beside_published(pooled, published)
    for key, solver, setting in (("minesolve", "minesolve", "depth 4"), ("jsm", "JSMinesweeper", "classic expert")):
        r = beside[(beside["solver"] == solver) & (beside["setting"] == setting)].iloc[0]
        values.update({key: float(r["win_rate"]), f"{key}_games": 0 if pd.isna(r["games"]) else int(r["games"]),
                       f"{key}_diff": float(r["search_diff"]), f"{key}_low": float(r["search_low"]),
                       f"{key}_high": float(r["search_high"]), f"{key}_word": r["search_word"],
                       f"{key}_verdict": VERDICT[r["search_word"]]})
    return values


def fresh_table(fresh: dict) -> pd.DataFrame:
    """:func:`fresh_runs` for the page: one row per seed, each player's win rate on that seed's boards."""
    per = fresh["seeds"].pivot(index="seed", columns="agent", values="win_rate")
    games = fresh["seeds"].groupby("seed")["games"].first()
    return pd.DataFrame({"boards": games.map(lambda n: f"{n:,}"),
                         NAMES["search"]: per["search"].map(lambda v: f"{v:.4f}"),
                         NAMES["solver"]: per["solver"].map(lambda v: f"{v:.4f}"),
                         "search − one-step": (per["search"] - per["solver"]).map(lambda v: f"{v:+.4f}")})
