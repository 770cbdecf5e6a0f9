"""The data behind each of the paper's figures and tables, read from stored results.

One function per figure or table (named after its LaTeX label), each returning
a tidy DataFrame; :mod:`sweeper.plots` draws them. Results come from the
reproduction (:mod:`sweeper.reproduce`):

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

from . import experiments as ex
from .agents import load_agent
from .reproduce import PAPER_BOLD, PAPER_CSV, REPO, reproduce, store_for, train_label, transfer_best

SCALE_ENV = "SWEEPER_SCALE"


def scale() -> str:
    s = os.environ.get(SCALE_ENV, "paper")
    if s not in ex.SCALES:
        raise ValueError(f"{SCALE_ENV} must be one of {sorted(ex.SCALES)}, got {s!r}")
    return s


def results_dir() -> Path:
    return REPO / "results" if scale() == "paper" else REPO / ".cache" / "quick-results"


@lru_cache(maxsize=None)
def _ready(sc: str) -> Path:
    root = results_dir()
    name = "comparison.csv" if sc == "paper" else f"comparison-{sc}.csv"
    if not (root / name).exists():
        if sc == "paper":
            raise ValueError(f"no paper-scale results in {root}: run `make reproduce` "
                             "(or set SWEEPER_SCALE=quick for a quick run)")
        reproduce(scale=sc, workers=min(2, os.cpu_count() or 1), results=root, progress=False, log=lambda *_: None)
    return root / name


def comparison() -> pd.DataFrame:
    """Every number we report beside the paper's (see :func:`sweeper.reproduce.comparison_table`)."""
    return pd.read_csv(_ready(scale()))


def store():
    _ready(scale())
    return store_for(results_dir(), scale())


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
    """Make sure an extra spec's runs exist at the current scale (quick: computed on demand)."""
    st = store()
    tasks = ex.all_tasks([spec_id], scale())
    missing = [t for t in tasks if st.status(t) != "ok"]
    if missing:
        if scale() == "paper":
            raise ValueError(f"{len(missing)} runs of {spec_id} are missing: run "
                             f"`python -m sweeper reproduce {spec_id}`")
        from .runner import run_tasks
        run_tasks(missing, st, workers=min(2, os.cpu_count() or 1), progress=False, log=lambda *_: None)
    return st, tasks


def how_good() -> pd.DataFrame:
    """Win rate [95% CI] and games/s of the floor, the bandits and the ceiling, per level and opening."""
    from .stats import wilson
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


def thompson() -> tuple[pd.DataFrame, pd.DataFrame]:
    """(training curves, test win rates) of the ext:thompson runs: greedy, UCB(0.1) and
    Thompson sampling with the uniform and the optimistic prior."""
    from .stats import wilson
    st, tasks = _ensure("ext:thompson")
    curves, tests = [], []
    for t in tasks:
        out = st.load(t)
        name = t.params["agent"]
        curves.append(out.tables["curve"].assign(agent=name)[["agent", "episode", "cum_win_rate", "actions_recorded"]])
        for (board, mode), g in out.tables["tests"].groupby(["test", "mode"], sort=False):
            w, n = int(g["won"].sum()), len(g)
            lo, hi = wilson(w, n)
            tests.append(dict(agent=name, test=board, mode=mode, win_rate=w / n, ci_low=lo, ci_high=hi, games=n))
    return pd.concat(curves, ignore_index=True), pd.DataFrame(tests)
