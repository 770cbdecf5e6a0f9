"""The data behind each of the paper's figures and tables, read from stored results.

One function per figure or table (named after its LaTeX label), each returning
a tidy DataFrame; :mod:`sweeper.viz.paper_charts` draws them. Results come from the
reproduction (:mod:`sweeper.experiments.reproduce`):

* normally the committed paper-scale results in ``results/``
  (``python -m sweeper reproduce`` / ``make reproduce`` recomputes them);
* with the environment variable ``SWEEPER_SCALE=quick`` (the notebook tests),
  a quick-scale reproduction computed on first use into ``.cache/quick-results``.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from ..experiments import specs as ex
from ..agents.kinds import load_agent
from ..experiments.reproduce import (PAPER_BOLD, PAPER_CSV, default_results, quick_reproduction, store_for,
                                     train_label, transfer_best)

SCALE_ENV = "SWEEPER_SCALE"


def scale() -> str:
    s = os.environ.get(SCALE_ENV, "paper")
    if s not in ex.SCALES:
        raise ValueError(f"{SCALE_ENV} must be one of {sorted(ex.SCALES)}, got {s!r}")
    return s


def results_dir() -> Path:
    return default_results(scale())


@lru_cache(maxsize=None)
def _ready(sc: str) -> Path:
    """The comparison file of scale ``sc``; at quick scale after (re)computing, in
    ``.cache/quick-results``, every task not made by exactly this source code."""
    root = results_dir()
    name = "comparison.csv" if sc == "paper" else f"comparison-{sc}.csv"
    if sc == "paper":
        if not (root / name).exists():
            raise ValueError(f"no paper-scale results in {root}: run `make reproduce` "
                             "(or set SWEEPER_SCALE=quick for a quick run)")
    else:
        quick_reproduction(workers=min(2, os.cpu_count() or 1))
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


def paper_results() -> pd.DataFrame:
    return pd.read_csv(PAPER_CSV)


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


def tab_sa_vs_mab() -> pd.DataFrame:
    """Win rate and actions (MAB) / state-action pairs (SA) recorded, ours beside the paper's."""
    c = comparison()
    c = c[c["experiment"] == "sa_vs_mab"]
    rows = []
    for (setting, episodes), g in c.groupby(["train_setting", "train_episodes"], sort=True):
        row = {"setting": setting, "games": int(episodes)}
        for agent, name in (("mab-greedy", "MAB"), ("mab-greedy+nosym", "MAB no sym."), ("sa-greedy", "SA")):
            w = g[(g["agent"] == agent) & (g["metric"] == "win_rate")].iloc[0]
            k = g[(g["agent"] == agent) & (g["metric"] != "win_rate")].iloc[0]
            row[f"{name} win rate"] = _fmt(w["ours"], w["ci_low"], w["ci_high"])
            row[f"{name} win rate (paper)"] = _fmt(w["paper"])
            row[f"{name} recorded"] = _fmt(k["ours"])
            row[f"{name} recorded (paper)"] = _fmt(k["paper"])
        rows.append(row)
    return pd.DataFrame(rows).set_index(["setting", "games"])


def tab_transfer(agent: str = "greedy", mode: str = "learning") -> pd.DataFrame:
    """A transfer table (tab:exp_1 for greedy, tab:tl_ucb for ucb:0.1): win rate [95% CI]
    per training setting and scenario, ``*`` = significantly best (Mann-Whitney, 0.05),
    beside the paper's value (its bold cells also marked ``*``). ``mode``: test games
    still ``learning`` (the paper's code) or ``frozen``."""
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
    for boards in ex.TRANSFER_TRAINING[agent]:
        label = train_label(boards)
        row = {"trained on": label}
        for scenario in ("training",) + ex.STANDARD_TESTS:
            m = "win_rate" if scenario == "training" else metric
            r = c[(c["train_setting"] == label) & (c["eval_setting"] == scenario) & (c["metric"] == m)].iloc[0]
            bmode = "learning" if scenario == "training" else mode
            b = best[(best["train_setting"] == label) & (best["eval_setting"] == scenario) & (best["mode"] == bmode)]
            star = "*" if bool(b["best"].iloc[0]) else ""
            col = "training" if scenario == "training" else ex.LEVEL[scenario]
            row[col] = _fmt(r["ours"], r["ci_low"], r["ci_high"]) + star
            pr = paper[(paper["agent"] == name) & (paper["train_setting"] == label)
                       & (paper["eval_setting"] == scenario) & (paper["metric"] == "win_rate")]
            pv = pr["value"].iloc[0] if len(pr) and _scale().train == pr["train_episodes"].iloc[0] else float("nan")
            bold = (name, label, scenario) in PAPER_BOLD
            row[f"{col} (paper)"] = _fmt(pv) + ("*" if bold and pd.notna(pv) else "")
        rows.append(row)
    return pd.DataFrame(rows).set_index("trained on")


def learning_vs_frozen() -> pd.DataFrame:
    """The test win rates with learning on minus frozen, for every transfer agent and level."""
    c = comparison()
    c = c[(c["experiment"] == "transfer") & c["metric"].isin(["win_rate", "win_rate_frozen"])
          & (c["eval_setting"] != "training")]
    p = c.pivot_table(index=["agent", "train_setting", "eval_setting"], columns="metric", values="ours")
    p["difference"] = p["win_rate"] - p["win_rate_frozen"]
    return p.reset_index().rename(columns={"win_rate": "learning", "win_rate_frozen": "frozen"})


def timings() -> pd.DataFrame:
    """Wall times: the paper's (hours) beside ours, from the stored runs."""
    c = comparison()
    t = c[c["experiment"] == "timing"]
    return t[["agent", "train_setting", "train_episodes", "eval_setting", "eval_episodes", "ours", "paper"]].rename(
        columns={"ours": "ours (hours)", "paper": "paper (hours)"}).reset_index(drop=True)


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



#: Published win rates of a solver to stand beside ours (safe first click in a corner, and zero opening):
#: the safe figures are the heuristic solver the paper cites (Jinzheng 2017), the zero ones were
#: given with our project brief.
PUBLISHED_SOLVER = {("8x8x10", "safe"): 0.816, ("8x8x10", "zero"): 0.901, ("16x16x40", "safe"): 0.781,
                    ("16x16x40", "zero"): 0.889, ("16x30x99", "safe"): 0.396, ("16x30x99", "zero"): 0.528}


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
    df["published"] = [PUBLISHED_SOLVER.get((b, o)) if pl == "solver" else None
                       for pl, b, o in zip(df["player"], df["board"], df["opening"])]
    return df


# ------------------------------------------------------------------ seed bands --

#: Seeds of the seed bands: five independent runs at paper scale, two at quick scale (the tests).
BAND_SEEDS = {"paper": (1, 2, 3, 4, 5), "quick": (1, 2)}


def band_seeds() -> tuple:
    return BAND_SEEDS[scale()]


def _ensure_tasks(tasks, what: str, seeds="band"):
    """The store, after making sure ``tasks`` are done (quick scale: computed on demand;
    paper scale: an error naming the command that computes them)."""
    st = store()
    missing = [t for t in dict.fromkeys(tasks) if st.status(t) != "ok"]
    if missing:
        if scale() == "paper":
            extra = f" --seeds {','.join(map(str, band_seeds()))}" if seeds == "band" else ""
            raise ValueError(f"{len(missing)} runs of {what} are missing: run "
                             f"`python -m sweeper reproduce {what}{extra}`")
        from ..experiments.runner import run_tasks
        run_tasks(missing, st, workers=min(2, os.cpu_count() or 1), progress=False, log=lambda *_: None)
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


def _heat_band(boards, spec_id: str) -> pd.DataFrame:
    sc = _scale()
    tasks = [(b, s, ex.bandit("greedy", b, sc.heat_train, s, block=sc.heat_block)) for b in boards
             for s in band_seeds()]
    st = _ensure_tasks([t for *_, t in tasks], spec_id)
    df = pd.DataFrame([{"train_setting": b, "seed": s, "win_rate": st.meta(t)["info"]["win_rate"]}
                       for b, s, t in tasks])
    return _band(df, ["train_setting"], "win_rate")


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
