"""The data behind each of the paper's figures and tables, read from stored results.

One function per figure or table (named after its LaTeX label), each returning
a tidy DataFrame; :mod:`sweeper.viz.paper_charts` draws them. Results come from the
reproduction (:mod:`sweeper.experiments.reproduce`):

* normally the committed paper-scale results in ``results/``
  (``python -m sweeper reproduce`` / ``make reproduce`` recomputes them);
* with the environment variable ``SWEEPER_SCALE=quick`` (the notebook tests),
  a quick-scale reproduction in ``.cache/quick-results`` (``make quick-results``,
  which ``make test`` runs first).

Nothing here computes a result: a missing one is an error that names the
command computing it. The paper's own numbers and the published solver figures
come from :mod:`sweeper.experiments.paper` (package data, with their citations).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from ..experiments import specs as ex
from ..agents.kinds import load_agent
from ..experiments.paper import PAPER_BOLD, paper_results, published_solver_rate  # noqa: F401  (paper_results re-exported)
from ..experiments.reproduce import REPO, default_results, store_for, train_label, transfer_best
from ..experiments.specs import BAND_SEEDS
from ..game.engine import OPENING_NAMES, Setting
from .glance import agent_name
from .glance import order as interval_order

SCALE_ENV = "SWEEPER_SCALE"


def scale() -> str:
    s = os.environ.get(SCALE_ENV, "paper")
    if s not in ex.SCALES:
        raise ValueError(f"{SCALE_ENV} must be one of {sorted(ex.SCALES)}, got {s!r}")
    return s


def results_dir() -> Path:
    return default_results(scale())


def reproduce_command(ids=(), seeds=None) -> str:
    """The command that computes the given experiments (all of the paper's by default) at the current scale."""
    sc = scale()
    where = "" if sc == "paper" else f" --scale {sc} --results {results_dir().relative_to(REPO)}"
    extra = f" --seeds {','.join(map(str, seeds))}" if seeds else ""
    return f"python -m sweeper reproduce {' '.join(ids)}{' ' if ids else ''}{where.strip()}{extra}".replace("  ", " ")


def _ready(sc: str) -> Path:
    """The comparison file of scale ``sc`` (an error naming the command that makes it if it is missing)."""
    root = results_dir()
    name = "comparison.csv" if sc == "paper" else f"comparison-{sc}.csv"
    if not (root / name).exists():
        make = "make reproduce" if sc == "paper" else "make quick-results"
        raise ValueError(f"no {sc}-scale results in {root}: run `{make}` (or `{reproduce_command()}`)")
    return root / name


def comparison() -> pd.DataFrame:
    """Every number we report beside the paper's (see :func:`sweeper.experiments.reproduce.comparison_table`)."""
    return pd.read_csv(_ready(scale()))


def store():
    _ready(scale())
    return store_for(results_dir(), scale(), exact_source=scale() != "paper")


def scale_note() -> str:
    """A one-line statement of which results a page shows."""
    sc = ex.SCALES[scale()]
    where = "committed in `results/`" if scale() == "paper" else "computed for this test run"
    return (f"Results on this page: **{sc.name} scale** ({sc.train:,} training games per agent, {sc.test:,} test "
            f"games per level, seed 1), {where}; rerun with `python -m sweeper reproduce --scale {sc.name}`.")


def _scale():
    return ex.SCALES[scale()]


def _curve(task) -> pd.DataFrame:
    return store().load(task).tables["curve"]


# ------------------------------------------------------------------- figures --

def fig_exp_1() -> pd.DataFrame:
    """Cumulative training win rate over episodes, every agent of fig:exp_1."""
    frames = []
    for a in ex.EXP1_AGENTS:
        c = _curve(ex.base_task(a, _scale(), 1))
        frames.append(c.assign(agent=a)[["agent", "episode", "cum_win_rate", "block_win_rate"]])
    return pd.concat(frames, ignore_index=True)


def fig_exp_2() -> pd.DataFrame:
    """Actions recorded and perfect actions over episodes, greedy vs UCB(0.1)."""
    frames = []
    for a in ("greedy", "ucb:0.1"):
        c = _curve(ex.base_task(a, _scale(), 1))
        for col, name in (("actions_recorded", "recorded"), ("perfect_actions", "perfect")):
            frames.append(pd.DataFrame({"agent": a, "episode": c["episode"], "actions": name, "count": c[col]}))
    return pd.concat(frames, ignore_index=True)


def trained_agent(agent: str = "greedy"):
    """The agent trained for fig:exp_1 (greedy or ucb:0.1 on 8x8x10), as saved with its run."""
    if agent not in ex.TRANSFER_TRAINING:
        raise ValueError(f"only {sorted(ex.TRANSFER_TRAINING)} are saved with their runs")
    path = store().path(ex.base_task(agent, _scale(), 1)) / "agent.npz"
    return load_agent(path)


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
    sc = _scale()
    frames = []
    variants = (("flags + symmetries", True, True), ("no flags", True, False), ("no symmetries", False, True),
                ("neither", False, False))
    for a in ("greedy", "ucb:0.1"):
        for name, sym, fl in variants:
            t = ex.base_task(a, sc, 1) if sym and fl else ex.bandit(a, "8x8x10", sc.train, 1, block=sc.block,
                                                                    symmetric=sym, flags=fl)
            c = _curve(t)
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


def _fmt(v, lo=None, hi=None, digits=4):
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
                         ("win rate", "ours [95% interval]"): _fmt(w["ours"], w["ci_low"], w["ci_high"]),
                         ("win rate", "paper"): _fmt(w["paper"]), ("recorded", "ours"): _fmt(k["ours"]),
                         ("recorded", "paper"): _fmt(k["paper"])})
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
            pv = pr["value"].iloc[0] if len(pr) and _scale().train == pr["train_episodes"].iloc[0] else float("nan")
            bold = (name, label, scenario) in PAPER_BOLD
            rows.append({"tested on": "(training)" if scenario == "training" else ex.LEVEL[scenario],
                         "trained on": label, "ours [95% interval]": _fmt(r["ours"], r["ci_low"], r["ci_high"]) + star,
                         "paper": _fmt(pv) + ("*" if bold and pd.notna(pv) else "")})
    return pd.DataFrame(rows).set_index(["tested on", "trained on"])


def learning_minus_frozen(c: pd.DataFrame) -> pd.DataFrame:
    """Every transfer test cell of the comparison table ``c``: the agent, what it was trained and tested on, its
    win rate still learning minus frozen, and ``order``: +1 / -1 when the two 95% intervals are apart (learning
    higher / lower), 0 when they overlap (:func:`sweeper.viz.glance.order`)."""
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
                         "win rate [95% interval]": [_fmt(v, lo, hi) for v, lo, hi in
                                                     zip(f["ours"], f["ci_low"], f["ci_high"])],
                         "paper": [_fmt(v) for v in f["paper"]]}).set_index("agent")


#: The first-click tile of our ``safe`` and ``zero`` openings in the stored runs (the engine's default corner).
FIRST_CLICK = (0, 0)


def _ensure(spec_id: str):
    """Make sure an extra spec's runs (seed 1) exist at the current scale; returns (store, tasks)."""
    tasks = ex.all_tasks([spec_id], scale())
    return _ensure_tasks(tasks, spec_id, seeds=None), tasks


def how_good() -> pd.DataFrame:
    """Win rate [95% CI] and games/s of the floor, the bandits and the ceiling, per level and opening."""
    from ..experiments.stats import wilson
    st, tasks = _ensure("ext:how_good")
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


# ------------------------------------------------------------------ seed bands --

def band_seeds() -> tuple:
    return BAND_SEEDS[scale()]


def _ensure_tasks(tasks, what: str, seeds="band"):
    """The store, after making sure ``tasks`` are done (quick scale: computed on demand;
    paper scale: an error naming the command that computes them)."""
    st = store()
    missing = [t for t in dict.fromkeys(tasks) if st.status(t) != "ok"]
    if missing:
        raise ValueError(f"{len(missing)} runs of {what} are missing: run "
                         f"`{reproduce_command([what], band_seeds() if seeds == 'band' else None)}`")
    return st


def _band(frame: pd.DataFrame, by: list, value: str) -> pd.DataFrame:
    """Mean, lowest and highest of ``value`` over the seeds, per ``by`` (the band of a curve)."""
    g = frame.groupby(by, sort=False)[value]
    out = g.agg(mean="mean", low="min", high="max", sd="std", seeds="size").reset_index()
    return out.rename(columns={"mean": value})


def seed_runs(spec_id: str) -> pd.DataFrame:
    """Every run of a spec over the band seeds: task, seed and the run's final facts (``info``)."""
    spec = {**ex.SPECS, **ex.EXTRA_SPECS}[spec_id]
    tasks = spec.tasks(scale(), band_seeds())
    st = _ensure_tasks(tasks, spec_id)
    rows = []
    for t in tasks:
        p = t.params
        rows.append({"task": t, "agent": p.get("agent"), "boards": "+".join(p.get("boards", [])),
                     "seed": p["seed"], **st.meta(t)["info"]})
    return pd.DataFrame(rows)


def fig_exp_1_band() -> pd.DataFrame:
    """fig:exp_1 over the band seeds: per agent and episode the mean cumulative win rate
    (``cum_win_rate``), the lowest and highest run (``low``, ``high``), the standard deviation
    and the number of seeds."""
    runs = seed_runs("fig:exp_1")
    st = store()
    frames = [st.load(t).tables["curve"].assign(agent=a, seed=s)[["agent", "seed", "episode", "cum_win_rate"]]
              for t, a, s in zip(runs["task"], runs["agent"], runs["seed"])]
    return _band(pd.concat(frames, ignore_index=True), ["agent", "episode"], "cum_win_rate")


def fig_exp_2_band() -> pd.DataFrame:
    """fig:exp_2 over the band seeds: actions recorded and perfect actions (mean, low, high)."""
    sc = _scale()
    st = _ensure_tasks([ex.base_task(a, sc, s) for a in ("greedy", "ucb:0.1") for s in band_seeds()], "fig:exp_2")
    frames = []
    for a in ("greedy", "ucb:0.1"):
        for s in band_seeds():
            c = st.load(ex.base_task(a, sc, s)).tables["curve"]
            for col, name in (("actions_recorded", "recorded"), ("perfect_actions", "perfect")):
                frames.append(pd.DataFrame({"agent": a, "seed": s, "episode": c["episode"], "actions": name,
                                            "count": c[col]}))
    return _band(pd.concat(frames, ignore_index=True), ["agent", "actions", "episode"], "count")


def final_by_seed(spec_id: str = "fig:exp_1") -> pd.DataFrame:
    """Final training win rate of each agent of a spec, per seed, with the mean, the standard
    deviation over seeds and a 95% t interval of the mean (seeds as independent runs)."""
    from scipy import stats
    runs = seed_runs(spec_id)
    wide = runs.pivot_table(index="agent", columns="seed", values="win_rate", aggfunc="first")
    wide.columns = [f"seed {s}" for s in wide.columns]
    vals = wide.to_numpy()
    k = vals.shape[1]
    mean, sd = vals.mean(axis=1), vals.std(axis=1, ddof=1) if k > 1 else np.zeros(len(vals))
    half = stats.t.ppf(0.975, k - 1) * sd / np.sqrt(k) if k > 1 else np.full(len(vals), np.nan)
    wide["mean"], wide["sd"], wide["t95_low"], wide["t95_high"] = mean, sd, mean - half, mean + half
    order = [a for a in ex.EXP1_AGENTS + ex.THOMPSON_AGENTS if a in wide.index]
    return wide.reindex(order + [a for a in wide.index if a not in order])


def seed_table(final: pd.DataFrame) -> pd.DataFrame:
    """:func:`final_by_seed` as the book shows it (narrow enough for the text column): per agent the mean over
    seeds with its 95% t interval, the standard deviation over seeds and the lowest and highest seed's value."""
    seeds = final[[c for c in final.columns if c.startswith("seed ")]]
    return pd.DataFrame({"mean [95% t interval]": [_fmt(m, lo, hi) for m, lo, hi in
                                                   zip(final["mean"], final["t95_low"], final["t95_high"])],
                         "sd": final["sd"].map(lambda v: f"{v:.4f}"),
                         "lowest seed": seeds.min(axis=1).map(lambda v: f"{v:.4f}"),
                         "highest seed": seeds.max(axis=1).map(lambda v: f"{v:.4f}")}, index=final.index)


def _heat_band(boards, spec_id: str) -> pd.DataFrame:
    sc = _scale()
    tasks = [(b, s, ex.bandit("greedy", b, sc.heat_train, s, block=sc.heat_block)) for b in boards
             for s in band_seeds()]
    st = _ensure_tasks([t for *_, t in tasks], spec_id)
    df = pd.DataFrame([{"train_setting": b, "seed": s, "win_rate": st.meta(t)["info"]["win_rate"]}
                       for b, s, t in tasks])
    return _band(df, ["train_setting"], "win_rate")


def size_reversals(heat: pd.DataFrame) -> pd.DataFrame:
    """Neighbouring cells of a board-size heatmap (:func:`fig_exp_6_band`: one more column, or one more row) where
    the larger board has the higher win rate with the seed ranges apart (its lowest seed above the smaller board's
    highest), with both boards' mine densities: rounding the mine count makes neighbouring boards' densities differ."""
    cells = heat.set_index(["rows", "cols"])
    rows = []
    for (r, c), small in cells.iterrows():
        for big_at in ((r, c + 1), (r + 1, c)):
            if big_at not in cells.index:
                continue
            big = cells.loc[big_at]
            if big["low"] > small["high"]:
                density = [Setting.parse(x).density for x in (small["train_setting"], big["train_setting"])]
                rows.append({"smaller": small["train_setting"], "larger": big["train_setting"],
                             "smaller win rate": small["win_rate"], "larger win rate": big["win_rate"],
                             "smaller density": density[0], "larger density": density[1]})
    return pd.DataFrame(rows, columns=["smaller", "larger", "smaller win rate", "larger win rate", "smaller density",
                                       "larger density"])


def size_trend(heat: pd.DataFrame) -> str:
    """What :func:`size_reversals` finds, in a sentence for the page: how many of the neighbouring pairs reverse
    the trend beyond the seed ranges, how many of those have a lower density on the larger board, and the largest."""
    rev = size_reversals(heat)
    cells = set(zip(heat["rows"], heat["cols"]))
    pairs = sum((r, c + 1) in cells for r, c in cells) + sum((r + 1, c) in cells for r, c in cells)
    if rev.empty:
        return (f"**Measured.** In all {pairs} pairs of neighbouring cells the larger board wins less or the seed "
                "ranges overlap.")
    lower = int((rev["larger density"] < rev["smaller density"]).sum())
    top = rev.loc[(rev["larger win rate"] - rev["smaller win rate"]).idxmax()]
    return (f"**Measured.** In {len(rev)} of the {pairs} pairs of neighbouring cells the larger board wins *more*, "
            f"beyond the seed ranges; in {lower} of those {len(rev)} the larger board has the lower mine density, "
            f"because the mine count is rounded. The largest: {top['smaller']} {top['smaller win rate']:.3f} "
            f"(density {top['smaller density']:.3f}) against {top['larger']} {top['larger win rate']:.3f} "
            f"(density {top['larger density']:.3f}).")


def fig_exp_6_band() -> pd.DataFrame:
    """fig:exp_6 over the band seeds: per cell the mean training win rate, the lowest and highest
    seed, and the standard deviation over seeds."""
    cells = pd.DataFrame(ex.exp6_boards(), columns=["rows", "cols", "train_setting"])
    return cells.merge(_heat_band(list(cells["train_setting"]), "fig:exp_6"), on="train_setting")


def fig_exp_7_band() -> pd.DataFrame:
    """fig:exp_7 over the band seeds (as :func:`fig_exp_6_band`; two target densities may share a board)."""
    cells = pd.DataFrame(ex.exp7_boards(), columns=["rows", "target_density", "train_setting"])
    band = _heat_band(list(dict.fromkeys(cells["train_setting"])), "fig:exp_7")
    return cells.merge(band, on="train_setting")


def thompson_band() -> tuple[pd.DataFrame, pd.DataFrame]:
    """(training-curve bands, test win rates per seed) of ext:thompson over the band seeds:
    greedy, UCB(0.1) and Thompson sampling with the uniform and the optimistic prior."""
    runs = seed_runs("ext:thompson")
    st = store()
    curves, tests = [], []
    for t, a, s in zip(runs["task"], runs["agent"], runs["seed"]):
        out = st.load(t)
        curves.append(out.tables["curve"].assign(agent=a, seed=s)[["agent", "seed", "episode", "cum_win_rate"]])
        for (board, mode), g in out.tables["tests"].groupby(["test", "mode"], sort=False):
            tests.append(dict(agent=a, seed=s, test=board, mode=mode, win_rate=float(g["won"].mean()), games=len(g)))
    band = _band(pd.concat(curves, ignore_index=True), ["agent", "episode"], "cum_win_rate")
    speed = runs.groupby("agent", sort=False)["games_per_second"].mean().rename("training games/s")
    return band.merge(speed, left_on="agent", right_index=True), pd.DataFrame(tests)


# --------------------------------------------------------- beliefs and the truth --

def belief() -> dict:
    """The ext:belief audits (agents trained on 8x8x10, frozen, seed 1): ``calibration`` (belief
    bins against exact probabilities, chosen actions and all candidates, per level), ``losses``
    (lost games by cause, per agent and level), ``decisions`` (counts of guesses and of clicks
    on known mines) and ``facts`` (seconds, solver fallbacks)."""
    st, tasks = _ensure("ext:belief")
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


# ------------------------------------------------- tables of "How good can it get?" --

#: The three levels in reading order, the opening rules, and the players from floor to ceiling.
LEVELS = ("8x8x10", "16x16x40", "16x30x99")
OPENINGS = OPENING_NAMES
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
    """One player's frozen test win rates per level (rows) and opening rule (columns) from :func:`how_good`,
    as "rate [95% interval]", and a sentence per level naming the highest rule and the rules its interval
    separates it from (a rule is *better* only where the intervals are disjoint)."""
    x = d[d["player"] == player]
    if x.empty:
        raise ValueError(f"no runs of {player!r} in the data")
    est = {(b, o): (w, lo, hi) for b, o, w, lo, hi in zip(x["board"], x["opening"], x["win_rate"], x["ci_low"],
                                                          x["ci_high"])}
    table = pd.DataFrame({o: [_fmt(*est[(b, o)], digits=3) for b in LEVELS] for o in OPENINGS},
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
                         "ours [95% interval]": [_fmt(w, lo, hi) for w, lo, hi in
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


def own_rule_band() -> tuple[pd.DataFrame, pd.DataFrame]:
    """(training-curve bands, summary) of ext:own_rule over the band seeds: the plug-in rules beside greedy,
    UCB(0.1) and Thompson sampling. The summary has, per agent, the final training win rate per seed, its mean
    and t interval, the mean actions recorded and the training games/s."""
    runs = seed_runs("ext:own_rule")
    st = store()
    curves = [st.load(t).tables["curve"].assign(agent=a, seed=s)[["agent", "seed", "episode", "cum_win_rate"]]
              for t, a, s in zip(runs["task"], runs["agent"], runs["seed"])]
    band = _band(pd.concat(curves, ignore_index=True), ["agent", "episode"], "cum_win_rate")
    summary = final_by_seed("ext:own_rule").join(
        runs.groupby("agent").agg(**{"actions recorded": ("actions_recorded", "mean"),
                                     "training games/s": ("games_per_second", "mean")}))
    order = ["greedy", "ucb:0.1", "thompson", *ex.OWN_RULE_AGENTS]
    return band, summary.reindex([a for a in order if a in summary.index])


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


# ------------------------------------------------------------------ other readings --

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
    from ..experiments.stats import wilson
    sc = _scale()
    st, _ = _ensure("ext:readings")
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
                     f"{near} ({r[f'{near}: win rate']:.4f}, ours minus the paper's {diff:+.4f}, "
                     + ("inside" if inside else "outside") + f" its interval); its {int(r['paper: pairs']):,} pairs "
                     f"are {where} ({int(r['flags hidden: pairs']):,} hidden, {int(r['flags shown: pairs']):,} shown).")
    return "\n".join(parts)


GUESS_NAMES = {"fewest": "lowest P, then fewest covered neighbours", "pseq": "PSEQ"}


def pseq() -> pd.DataFrame:
    """The solver with each guessing rule of ``ext:pseq`` (seed 1): per level, opening and rule, wins, games,
    win rate [95% Wilson], games/s, and the published PSEQ figure under the same conditions."""
    from ..experiments.stats import wilson
    st, tasks = _ensure("ext:pseq")
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
    """:func:`pseq` as one row per level, opening and guessing rule (long, so that it fits a page): our win rate
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
    """What :func:`pseq` shows, in sentences generated from it: per guessing rule the range of the gaps to the
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
        better = [f"{b} ({o})" for (b, o), r in wide.iterrows() if r[("ci_low", "pseq")] > r[("ci_high", "fewest")]]
        worse = [f"{b} ({o})" for (b, o), r in wide.iterrows() if r[("ci_high", "pseq")] < r[("ci_low", "fewest")]]
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
    return pd.DataFrame({"mean [95% t interval]": [_fmt(m, lo, hi) for m, lo, hi in
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


def band_facts(final: pd.DataFrame, heat6: pd.DataFrame, heat7: pd.DataFrame) -> dict:
    """What the seed bands say about ranking: the largest standard deviation over seeds among the agents of
    ``final`` (:func:`final_by_seed`), the gaps between neighbours in their ranking and the pairs closer than four
    standard deviations; and the spread (highest minus lowest seed) of the heatmap cells (:func:`fig_exp_6_band`,
    :func:`fig_exp_7_band`; cells of one board counted once), its median, maximum and the board of the maximum."""
    sd = float(final["sd"].max())
    m = final["mean"].sort_values(ascending=False)
    gaps = m.iloc[:-1].to_numpy() - m.iloc[1:].to_numpy()
    close = [(a, b) for a, b, g in zip(m.index[:-1], m.index[1:], gaps) if g < 4 * sd]
    cells = pd.concat([heat6, heat7.drop_duplicates("train_setting")], ignore_index=True)
    spread = cells["high"] - cells["low"]
    return {"sd": sd, "gap_min": float(gaps.min()), "gap_max": float(gaps.max()), "close": close,
            "spread_median": float(spread.median()), "spread_max": float(spread.max()),
            "spread_max_board": cells.loc[spread.idxmax(), "train_setting"]}
