"""Seed bands: the spread of the paper's curves, heatmaps and final win rates over independent seeds."""

from __future__ import annotations


import numpy as np
import pandas as pd

from ...experiments import specs as ex
from ...game.engine import Setting
from .paper import fmt
from .results import ensure_tasks, current_scale, band_seeds, scale, store


def seed_band(frame: pd.DataFrame, by: list, value: str) -> pd.DataFrame:
    """Mean, lowest and highest of ``value`` over the seeds, per ``by`` (the band of a curve)."""
    g = frame.groupby(by, sort=False)[value]
    out = g.agg(mean="mean", low="min", high="max", sd="std", seeds="size").reset_index()
    return out.rename(columns={"mean": value})


def seed_runs(spec_id: str) -> pd.DataFrame:
    """Every run of a spec over the band seeds: task, seed and the run's final facts (``info``)."""
    spec = {**ex.SPECS, **ex.EXTRA_SPECS}[spec_id]
    tasks = spec.tasks(scale(), band_seeds())
    st = ensure_tasks(tasks, spec_id)
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
    return seed_band(pd.concat(frames, ignore_index=True), ["agent", "episode"], "cum_win_rate")


def fig_exp_2_band() -> pd.DataFrame:
    """fig:exp_2 over the band seeds: actions recorded and perfect actions (mean, low, high)."""
    sc = current_scale()
    st = ensure_tasks([ex.base_task(a, sc, s) for a in ("greedy", "ucb:0.1") for s in band_seeds()], "fig:exp_2")
    frames = []
    for a in ("greedy", "ucb:0.1"):
        for s in band_seeds():
            c = st.load(ex.base_task(a, sc, s)).tables["curve"]
            for col, name in (("actions_recorded", "recorded"), ("perfect_actions", "perfect")):
                frames.append(pd.DataFrame({"agent": a, "seed": s, "episode": c["episode"], "actions": name,
                                            "count": c[col]}))
    return seed_band(pd.concat(frames, ignore_index=True), ["agent", "actions", "episode"], "count")


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
    return pd.DataFrame({"mean [95% t interval]": [fmt(m, lo, hi) for m, lo, hi in
                                                   zip(final["mean"], final["t95_low"], final["t95_high"])],
                         "sd": final["sd"].map(lambda v: f"{v:.4f}"),
                         "lowest seed": seeds.min(axis=1).map(lambda v: f"{v:.4f}"),
                         "highest seed": seeds.max(axis=1).map(lambda v: f"{v:.4f}")}, index=final.index)


def _heat_band(boards, spec_id: str) -> pd.DataFrame:
    sc = current_scale()
    tasks = [(b, s, ex.bandit("greedy", b, sc.heat_train, s, block=sc.heat_block)) for b in boards
             for s in band_seeds()]
    st = ensure_tasks([t for *_, t in tasks], spec_id)
    df = pd.DataFrame([{"train_setting": b, "seed": s, "win_rate": st.meta(t)["info"]["win_rate"]}
                       for b, s, t in tasks])
    return seed_band(df, ["train_setting"], "win_rate")


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
    band = seed_band(pd.concat(curves, ignore_index=True), ["agent", "episode"], "cum_win_rate")
    speed = runs.groupby("agent", sort=False)["games_per_second"].mean().rename("training games/s")
    return band.merge(speed, left_on="agent", right_index=True), pd.DataFrame(tests)


def own_rule_band() -> tuple[pd.DataFrame, pd.DataFrame]:
    """(training-curve bands, summary) of ext:own_rule over the band seeds: the plug-in rules beside greedy,
    UCB(0.1) and Thompson sampling. The summary has, per agent, the final training win rate per seed, its mean
    and t interval, the mean actions recorded and the training games/s."""
    runs = seed_runs("ext:own_rule")
    st = store()
    curves = [st.load(t).tables["curve"].assign(agent=a, seed=s)[["agent", "seed", "episode", "cum_win_rate"]]
              for t, a, s in zip(runs["task"], runs["agent"], runs["seed"])]
    band = seed_band(pd.concat(curves, ignore_index=True), ["agent", "episode"], "cum_win_rate")
    summary = final_by_seed("ext:own_rule").join(
        runs.groupby("agent").agg(**{"actions recorded": ("actions_recorded", "mean"),
                                     "training games/s": ("games_per_second", "mean")}))
    order = ["greedy", "ucb:0.1", "thompson", *ex.OWN_RULE_AGENTS]
    return band, summary.reindex([a for a in order if a in summary.index])


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
