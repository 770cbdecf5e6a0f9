"""The leaderboard page's chart of what training buys: win rate against the counted work of training, every point
on the same boards (the first boards of a level's suite), read from the stored runs of ``ext:benchmark`` and of the
networks' own training runs; and the chart's caption, written from what it draws.

Nothing here computes a result: the functions take the frames :func:`~sweeper.viz.figures.benchmark.benchmark_runs`
gives, so a test can hand them made ones.
"""

from __future__ import annotations

import pandas as pd

from ...experiments.reproduce import store_for
from .benchmark import LEVEL_OF, UNTRAINED, WORK_KEY, count_text, family, leaderboard, levels, outcomes, work_text
from .prose import and_list
from .results import curriculum_work

#: The learners the chart draws as lines of their own, named (the paper's agent); the others of a family of more than
#: :data:`GROUPED` learners are drawn thin and named together.
EMPHASIS = ("greedy table",)
GROUPED = 2
#: How a network playing symmetric is named in the runs' specs.
SYMMETRIC = "neural-symmetric:"
#: How a family's learners are named together.
GROUP_NAMES = {"table agent": "table agents", "plug-in rule": "plug-in rules"}


def series(points: pd.DataFrame) -> dict:
    """Each learner's label on the chart: its own for a learner of :data:`EMPHASIS` or of a family of at most
    :data:`GROUPED` learners; else its family's learners together, counted (:data:`GROUP_NAMES`: "N other table
    agents", "N plug-in rules", N the family's learners on the chart)."""
    out = {}
    for fam, g in points.drop_duplicates("label").groupby("family", sort=False):
        labels = list(g["label"])
        rest = [w for w in labels if w not in EMPHASIS]
        name = f"{len(rest)} {'other ' if len(rest) < len(labels) else ''}{GROUP_NAMES.get(fam, fam + 's')}"
        out.update({w: name if len(labels) > GROUPED and w not in EMPHASIS else w for w in labels})
    return out


def network_checkpoints(runs: dict, load=None) -> pd.DataFrame:
    """The plain networks' checkpoints as their own runs stored them (``ext:neural_work``, the run named by the
    benchmark run's ``source``), when those runs scored them on the benchmark's suite (``boards="benchmark"``: the
    first boards of their level's suite, reference opening); none for a run scored on held-out boards. One row per
    checkpoint: label, seed, level, games trained, decisions of training so far (the curriculum's included), boards
    (``games``), wins and win rate. ``load``: a source run's name to its ``(params, Output)`` (default: the
    paper-scale store)."""
    load = _load_source if load is None else load
    s = runs["scores"]
    nets = s[(s["kind"] == "neural bandit") & s["spec"].str.startswith("neural:") & (s["source"] != "")]
    rows = []
    for (who, seed, source), _ in nets.groupby(["label", "seed", "source"], sort=False):
        params, out = load(source)
        if params.get("boards") != "benchmark":
            continue
        c, i = out.tables["checkpoints"], out.info
        before = curriculum_work(i)
        rows.append(pd.DataFrame({"label": who, "seed": seed, "level": LEVEL_OF[params["board"]],
                                  "games_trained": c["games"] + before["games"],
                                  "train_decisions": c["decisions"] + before["decisions"], "games": c["test_games"],
                                  "wins": c["wins"], "win_rate": c["win_rate"]}))
    return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(
        columns=["label", "seed", "level", "games_trained", "train_decisions", "games", "wins", "win_rate"])


def _load_source(source: str):
    """A network's own stored run (``neural_bandit/ID``, paper scale): its params and output."""
    import json
    from ...experiments.runner import Task
    st = store_for(None, "paper")
    meta = json.loads((st.root / source / "meta.json").read_text())
    task = Task.make(meta["task"]["kind"], **meta["task"]["params"])
    return task.params, st.load(task)


def cost_points(runs: dict, nets: pd.DataFrame | None = None, level: str = "beginner") -> pd.DataFrame:
    """Win rate against the training's counted work, every point on the same boards (the first boards of
    ``level``'s suite that the checkpoints are scored on): every checkpoint of every trained table agent, the
    networks' own checkpoints (``nets``: :func:`network_checkpoints`) on those boards, and the end of training of
    every other learner trained on ``level`` (a PPO policy), from its games on them; not a network playing symmetric,
    the same training as a plain network's, played another way. Columns: label, family, ``series`` (:func:`series`),
    seed, level, ``step`` (the checkpoint's rank in its run), games trained, train_decisions (a PPO policy's
    environment steps), boards, win rate and ``shown`` ("checkpoint" or "end of training")."""
    cols = ["label", "family", "series", "seed", "level", "step", "games_trained", "train_decisions", "boards",
            "win_rate", "shown"]
    s = runs["scores"]
    fam = {r.label: family(r.kind, r.spec) for r in s.drop_duplicates("label").itertuples()}
    c = runs["checkpoints"]
    c = c[c["level"] == level] if len(c) else c
    boards = int(c["games"].iloc[0]) if len(c) else None
    pts = []
    for frame in (c, nets if nets is not None else pd.DataFrame()):
        if len(frame):
            f = frame[(frame["level"] == level) & ((frame["games"] == boards) if boards else True)]
            f = f.sort_values(["label", "seed", "train_decisions"], kind="stable")
            pts.append(f.assign(family=f["label"].map(fam), boards=f["games"], shown="checkpoint",
                                step=f.groupby(["label", "seed"]).cumcount()))
    drawn = set().union(*(set(p["label"]) for p in pts)) if pts else set()
    ends = s[s["kind"].isin(["neural bandit", "PPO"]) & (s["level"] == level) & ~s["spec"].str.startswith(SYMMETRIC)
             & (s["train_board"].map(LEVEL_OF) == level) & ~s["label"].isin(drawn)]
    g_ = runs["games"]
    for (who, seed), g in ends.groupby(["label", "seed"], sort=False):
        games = g_[(g_["label"] == who) & (g_["seed"] == seed) & (g_["level"] == level)].sort_values("board")["won"]
        n = len(games) if boards is None else min(boards, len(games))
        pts.append(pd.DataFrame([{"label": who, "family": fam[who], "seed": seed, "level": level, "step": 0,
                                  "games_trained": g["train_games"].iloc[0],
                                  "train_decisions": g["train_decisions"].iloc[0],
                                  "boards": n, "win_rate": float(games.iloc[:n].mean()), "shown": "end of training"}]))
    if not pts:
        return pd.DataFrame(columns=cols)
    out = pd.concat(pts, ignore_index=True)
    return out.assign(series=out["label"].map(series(out)))[cols]


def cost_caption(points: pd.DataFrame, rules: pd.DataFrame, runs: dict, level: str = "beginner") -> str:
    """The cost chart's caption, from what it draws (``points``: :func:`cost_points`, ``rules``:
    :func:`untrained`): the boards, which learners are named alone and which together, which show checkpoints and
    which their end of training only, what is left out, and what the dashed rules are."""
    if points.empty:
        return f"*No trained learner on {level} to draw.*"
    n = int(points["boards"].max())
    full = int(leaderboard(runs, level)["boards"].iloc[0])
    ck = points[points["shown"] == "checkpoint"]
    tables = ck[ck["family"].isin(["table agent", "plug-in rule"])]
    nets = ck[ck["family"] == "neural bandit"]
    ends = points[points["shown"] == "end of training"]
    parts = [f"*Win rate on the first {n:,} boards of the {level} suite (reference opening), the same boards for "
             f"every point and every rule, against the counted work of training so far (log scale): decisions; for a "
             f"PPO policy, environment steps (one decision each). A line joins the means of a learner's seeds at its "
             f"checkpoints; the small points are the seeds of the learners named alone."]
    groups = points[points["series"] != points["label"]].drop_duplicates("label").groupby("series", sort=False)
    if len(groups):
        named = [f"{s} ({', '.join(g['label'])})" for s, g in groups]
        parts.append(f"Thin lines: {'; '.join(named)}, named together.")
    if len(tables):
        g = sorted(tables["games_trained"].unique())
        parts.append(f"Table agents and plug-in rules: their {len(g)} checkpoints, {count_text(g[0])} to "
                     f"{count_text(g[-1])} training games.")
    if len(nets):
        parts.append(f"{and_list(dict.fromkeys(nets['label']), capital=True)}: the checkpoints their own training runs stored, "
                     f"which were scored on these same {n:,} boards; their decisions count the curriculum's.")
    if len(ends):
        why = (" (the benchmark's PPO runs keep no checkpoint; the deep-RL chapter tests its per-tile policy's "
               "checkpoints on boards of its own, not these)") if (ends["family"] == "PPO").any() else ""
        parts.append(f"{and_list(dict.fromkeys(ends['label']), capital=True)}: the end of training only, from their games on "
                     f"these boards in the leaderboard's runs{why}.")
    s = runs["scores"]
    sym = s[(s["level"] == level) & s["spec"].str.startswith(SYMMETRIC)]
    if len(sym):
        parts.append(f"Not drawn: the {' and the '.join(dict.fromkeys(sym['label']))}, the same training as the plain "
                     f"network's, played on the mean over the board's symmetries (on the leaderboard above).")
    if len(rules):
        windows = s[(s["level"] == level) & (s["kind"] == "best window") & ~s["label"].isin(rules["agent"])]["label"]
        other = (f"; the {' and the '.join(dict.fromkeys(windows))}, of another level's boards, on the leaderboard "
                 f"only" if len(windows) else "")
        parts.append(f"Dashed rules: the players without training on these {n:,} boards, with their win rate there "
                     f"(the leaderboard scores them on {full:,}{other}).")
    return " ".join(parts) + "*"


def untrained(runs: dict, level: str, boards: int | None = None) -> pd.DataFrame:
    """The players without training on ``level`` (the solvers, random clicks and the best window agent of
    ``level``'s boards): label, win rate on the first ``boards`` boards of the suite (all the leaderboard's: None) and
    those boards, for the rules of the cost chart."""
    s = runs["scores"]
    board = {lv: b for b, lv in LEVEL_OF.items()}[level]
    s = s[(s["level"] == level) & s["kind"].isin(UNTRAINED)
          & ((s["kind"] != "best window") | s["spec"].str.endswith(":" + board))]
    rates = [outcomes(runs["games"], who, level)[0][:boards] for who in s["label"]]
    return pd.DataFrame({"agent": list(s["label"]), "win_rate": [float(r.mean()) for r in rates],
                         "boards": [len(r) for r in rates]})


# -------------------------------------------------------------- what each entry cost, at the bench --

def training_price(runs: dict, record=None) -> pd.DataFrame:
    """Each trained entry's counted work priced at the committed bench's unit costs (:func:`sweeper.bench.work_cost`,
    ``record`` as for :func:`sweeper.bench.unit_costs`), per seed: a table agent's training decisions and a PPO
    policy's environment steps at their learner's CPU per training decision on the board it trained on; a network's
    phases (:func:`~sweeper.viz.figures.results.network_work`: its warm start, its curriculum, its own level) each at
    its unit; a network playing symmetric, the same training as the plain one's. Columns: label, seed, seconds."""
    from ...bench import bench_learner, work_cost
    from .results import network_work
    s = runs["scores"].drop_duplicates(["label", "seed"])
    rows = []
    for r in s[~s["kind"].isin(UNTRAINED)].itertuples():
        if r.kind == "neural bandit":
            params, out = _load_source(r.source)
            seconds = sum(work_cost(*phase, record=record) for phase in network_work(params, out.info))
        else:
            seconds = work_cost(bench_learner(r.spec), r.train_board, r.train_decisions, record=record)
        rows.append({"label": r.label, "seed": r.seed, "seconds": seconds})
    return pd.DataFrame(rows, columns=["label", "seed", "seconds"])


def cost_table(runs: dict, record=None) -> pd.DataFrame:
    """What every entry of the leaderboard cost, its levels in one table, all at the committed bench's unit costs:
    the counted work of its training (:func:`~sweeper.viz.figures.benchmark.work_text`: one training serves every
    level), that work's CPU minutes (:func:`training_price`, the mean over the seeds) and its test CPU per decision
    on each level it played (the leaderboard's, at the same bench; blank where it did not play), under a header of
    two rows. Rows: the entries in the
    order of the first level's leaderboard, then those of the later levels that it lacks."""
    boards = {lv: leaderboard(runs, lv, record).set_index("agent") for lv in levels(runs)}
    order = list(dict.fromkeys(a for b in boards.values() for a in b.index))
    first = [next(b.loc[a] for b in boards.values() if a in b.index) for a in order]
    price = training_price(runs, record).groupby("label")["seconds"].mean()
    table = {("training", "counted work"): [work_text(r["kind"], r["training games"], r["training decisions"],
                                                      r["gradient steps"]) for r in first],
             ("training", "CPU min"): [f"{price[a] / 60:,.1f}" if a in price.index else "" for a in order]}
    for lv, b in boards.items():
        table[("test µs / decision", lv)] = [f"{b.loc[a, 'test µs / decision']:,.0f}" if a in b.index else ""
                                            for a in order]
    return pd.DataFrame(table, index=pd.Index(order, name="agent"))


def cost_caption_table(record=None) -> str:
    """The caption under :func:`cost_table`, naming the bench it prices by (``record`` as for
    :func:`sweeper.bench.unit_costs`)."""
    from ...bench import read_bench
    rec = record if isinstance(record, dict) else read_bench(record)
    return ("*Every entry of the three leaderboards, in the order of the first. \"Counted work\": what its "
            "training did, " + WORK_KEY + ". \"CPU min\" and \"test µs / decision\": that work, and a test "
            f"decision on each level, at the unit costs of the committed bench (`python -m sweeper bench` of "
            f"{str(rec.get('date', ''))[:10]}: one process alone on one core, the fastest of "
            f"{rec.get('unit_setup', {}).get('repeats', 3)} repeats), not the seconds the runs recorded; a network's "
            "minutes price its warm start, its curriculum and its own level each at its own unit, and a network "
            "playing symmetric had the same training as the plain one. Blank: no training, or not scored on that "
            "level. The random player's fast path also computes the exact probabilities, to count its guesses, so "
            "its time is not the cost of a random click.*")
