"""The leaderboard page's fresh boards: every entry's score on the public suite beside its score on boards dealt at
scoring time from one seed that no public suite uses (the stored runs of ``ext:benchmark_fresh``), so that a score
resting on knowledge of the public boards shows, and each entry's regret per decision with an interval; and what
that regret's one-step oracle measures (:func:`oracle_note`).

Nothing here computes a result: the functions read stored runs, or take the frames
:func:`~sweeper.viz.figures.benchmark.benchmark_runs` gives, so a test can hand them made ones.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...experiments import specs as ex
from ...experiments.leaderboard import FRESH_GAMES, FRESH_SEED
from ...experiments.reproduce import store_for
from ...experiments.stats import bootstrap_difference, bootstrap_ratio, difference_interval
from . import benchmark as bf
from .prose import and_list
from .results import scale

#: The specs of the fresh runs: the entries of ``ext:benchmark``, and the networks' and PPO's (paper scale, ``make
#: deep``).
SPEC, DEEP_SPEC = "ext:benchmark_fresh", "ext:benchmark_fresh_deep"
#: A public win rate is flagged when the lower end of the 95% interval of (public - fresh) is above this: a gap
#: beyond both the boards' noise and a small margin.
FLAG_MARGIN = 0.02
#: The columns of :func:`fresh_comparison` (also of its empty frame).
COLUMNS = ["level", "agent", "seeds", "boards", "public", "fresh", "difference", "diff_lo", "diff_hi", "flagged",
           "regret", "regret_lo", "regret_hi", "regret_boards"]


def fresh_outputs() -> tuple[list, int]:
    """``(task, output)`` of the stored runs of :data:`SPEC` at the page's scale, and how many runs the spec has (at
    paper scale the networks' and PPO's need the extra ``deep``; a run not stored is left out, and the page says
    how many)."""
    st = store_for(None, scale())
    tasks = ex.all_tasks([SPEC, DEEP_SPEC], scale())
    return [(t, st.load(t)) for t in tasks if st.status(t) == "ok"], len(tasks)


def fresh_frames(outputs: list) -> dict:
    """The frames of :func:`~sweeper.viz.figures.benchmark.benchmark_runs` of the fresh runs ``outputs``
    (:func:`fresh_outputs`), or empty ones when none is stored."""
    if outputs:
        return bf.benchmark_runs(outputs)
    return {"scores": pd.DataFrame(columns=["level", "label"]), "games": pd.DataFrame(columns=["level", "label"])}


def fresh_comparison(runs: dict, fresh: dict) -> pd.DataFrame:
    """Per level and entry scored on fresh boards: its win rate on the first boards of the public suite (as many as
    the fresh ones) and on the fresh boards (the means over its seeds), the difference public - fresh with its 95%
    interval, ``flagged`` when that interval lies above :data:`FLAG_MARGIN`, and its regret per decision on the fresh
    regret boards with its 95% interval. Both intervals are bootstraps over the boards: an entry's seeds are fixed
    players that share every board of a set, so a board's outcome is averaged (its regret summed) over the seeds
    and the boards are resampled, each set independently of the other
    (:func:`~sweeper.experiments.stats.bootstrap_difference`, :func:`~sweeper.experiments.stats.bootstrap_ratio`);
    where every game has the same outcome on both sets (an entry that wins none), Newcombe's interval of the games
    pooled, since no spread is not no uncertainty.
    ``runs``/``fresh``: the frames of :func:`~sweeper.viz.figures.benchmark.benchmark_runs` of the public and the
    fresh runs."""
    rows = []
    g = fresh["games"]
    for (level, who), _ in fresh["scores"].groupby(["level", "label"], sort=False):
        new = bf.outcomes(g, who, level)
        old = bf.outcomes(runs["games"], who, level)
        n = len(new[0])
        if len(old) != len(new) or len(old[0]) < n:
            continue
        old = np.array([r[:n] for r in old], dtype=float)
        new = np.array(new, dtype=float)
        if np.ptp(old) == 0 and np.ptp(new) == 0:  # every game the same (all lost): nothing to resample, and no
            diff, lo, hi = difference_interval(int(old.sum()), old.size, int(new.sum()), new.size)  # spread is not
        else:                                                                  # no uncertainty: Newcombe's, pooled
            diff, lo, hi = bootstrap_difference(old.mean(axis=0), new.mean(axis=0))
        mine = g[(g["label"] == who) & (g["level"] == level) & g["regret_decisions"].notna()]
        per_seed = [(grp["regret"].to_numpy(float), grp["regret_decisions"].to_numpy(float))
                    for _, grp in mine.groupby("seed")]
        if per_seed and len({len(r) for r, _ in per_seed}) == 1:  # the same regret boards for every seed
            regret, r_lo, r_hi = bootstrap_ratio(np.sum([r for r, _ in per_seed], axis=0),
                                                 np.sum([d for _, d in per_seed], axis=0))
        else:
            regret = r_lo = r_hi = np.nan
        rows.append({"level": level, "agent": who, "seeds": len(old), "boards": n, "public": old.mean(),
                     "fresh": new.mean(), "difference": diff, "diff_lo": lo, "diff_hi": hi,
                     "flagged": bool(lo > FLAG_MARGIN), "regret": regret, "regret_lo": r_lo, "regret_hi": r_hi,
                     "regret_boards": len(per_seed[0][0]) if per_seed else 0})
    order = {lv: i for i, lv in enumerate(bf.LEVEL_OF.values())}
    out = pd.DataFrame(rows, columns=COLUMNS)
    return out.sort_values(["level", "fresh"], key=lambda c: c.map(order) if c.name == "level" else -c,
                           kind="stable").reset_index(drop=True)


def fresh_table(c: pd.DataFrame, level: str) -> pd.DataFrame:
    """:func:`fresh_comparison` on ``level`` for the page, best on the fresh boards first."""
    c = c[c["level"] == level]
    ci = lambda v, lo, hi, f: f"{v:{f}}" + ("" if np.isnan(lo) else f" [{lo:{f}}, {hi:{f}}]")  # noqa: E731
    return pd.DataFrame({
        "seeds": c["seeds"].to_numpy(),
        "public": c["public"].map(lambda v: f"{v:.3f}").to_numpy(),
        "fresh": c["fresh"].map(lambda v: f"{v:.3f}").to_numpy(),
        "public − fresh [95%]": [ci(r.difference, r.diff_lo, r.diff_hi, "+.3f") for r in c.itertuples()],
        "flag": c["flagged"].map(lambda v: "public far above" if v else "").to_numpy(),
        "regret/dec., fresh [95%]": [ci(r.regret, r.regret_lo, r.regret_hi, ".4f") for r in c.itertuples()]},
        index=pd.Index(c["agent"], name="agent"))


def fresh_caption(c: pd.DataFrame, stored: int, total: int) -> str:
    """The caption under the fresh tables: the seed, the boards, what each column holds, and how many runs of the
    spec are stored."""
    n = int(c["boards"].max()) if len(c) else FRESH_GAMES[scale()]
    missing = "" if stored == total else (f" {total - stored} of the spec's {total} runs are not stored (`python -m "
                                          f"sweeper reproduce {SPEC} {DEEP_SPEC}`; the second needs `make deep`), so "
                                          f"their entries are missing.")
    return (f"*Each entry on the first {n:,} boards of the level's public suite and on {n:,} fresh boards dealt at "
            f"scoring time from seed {FRESH_SEED} (the same boards for every entry; no public suite uses that seed), "
            f"the means over its seeds. \"public − fresh\": the difference with its 95% interval; flagged where that "
            f"interval lies above {FLAG_MARGIN}. Regret per decision on the fresh regret boards, with its 95% "
            f"interval. Both intervals are bootstraps over the boards: an entry's seeds are fixed players that share "
            f"every board, so each board's outcome is averaged over them (its regret summed) and the boards are "
            f"resampled, the public and the fresh sets each on its own (an entry whose every game has the same "
            f"outcome: Newcombe's interval of the games pooled).*"
            + missing)


def fresh_sentence(c: pd.DataFrame) -> str:
    """What the fresh boards show, in words: how many entries and levels, which are flagged, and the largest gap
    either way."""
    if c.empty:
        return (f"No entry has been scored on fresh boards yet: `python -m sweeper reproduce {SPEC}` scores them.")
    flagged = c[c["flagged"]]
    big = c.loc[c["difference"].abs().idxmax()]
    head = (f"{c['agent'].nunique()} entries were scored on fresh boards of seed {FRESH_SEED}, {len(c)} scores in all "
            f"over the levels. ")
    if flagged.empty:
        head += (f"None scores far above its fresh rate on the public boards: every interval of public − fresh "
                 f"reaches {FLAG_MARGIN} or below.")
    else:
        head += "Flagged, the public rate far above the fresh one: " + "; ".join(
            f"{r.agent} on {r.level} ({r.public:.3f} against {r.fresh:.3f})" for r in flagged.itertuples()) + "."
    head += (f" The largest gap either way is {big['agent']}'s on {big['level']}: {big['difference']:+.3f} "
             f"[{big['diff_lo']:+.3f}, {big['diff_hi']:+.3f}].")
    return head + _yardstick(c)


#: The entries that learn from no board: their gap between the two board sets is the sets' own difference.
YARDSTICK = ("exact solver", "searching solver")


def _yardstick(c: pd.DataFrame) -> str:
    """The solvers' gaps, level by level: what the two board sets differ by for players that learnt nothing."""
    s = c[c["agent"].isin(YARDSTICK)]
    if s.empty:
        return ""
    levels = ", ".join(and_list(f"{r.difference:+.3f}" for r in grp.itertuples()) + f" on {lv}"
                       for lv, grp in s.groupby("level", sort=False))
    who = and_list(f"the {a}" for a in dict.fromkeys(s["agent"]))
    return (f" Players that learn from no board show gaps too, since two sets of {int(s['boards'].max()):,} boards "
            f"differ in how hard they are: public − fresh is {levels} for {who}. "
            f"A learner's gap is read beside theirs on its level.")


__all__ = ["SPEC", "DEEP_SPEC", "FLAG_MARGIN", "fresh_outputs", "fresh_frames", "fresh_comparison", "fresh_table",
           "fresh_caption", "fresh_sentence", "YARDSTICK"]


def oracle_note(runs: dict, level: str = "beginner") -> str:
    """What the regret's oracle measures, from the leaderboard's runs (``runs``:
    :func:`~sweeper.viz.figures.benchmark.benchmark_runs`): it is one-step, so the exact solver's regret is 0 by
    construction while it still loses boards, and the searching solver pays regret and wins more; and the boards
    and decisions the regret rests on, level by level."""
    s = runs["scores"]
    at = s[s["level"] == level].drop_duplicates("label").set_index("label")
    solver = at.loc["exact solver"]
    text = (f"The oracle is *one-step*: it grades each click against the safest tile on offer at that moment, not "
            f"against the best way to play the rest of the game. The exact solver always clicks a safest tile, so "
            f"its regret is 0 by construction, and it still loses {solver['games'] - solver['wins']:,} of the "
            f"{solver['games']:,} {level} boards ({1 - solver['win_rate']:.1%}), each lost on a guess where every tile on offer "
            f"had some risk.")
    if "searching solver" in at.index:
        search = at.loc["searching solver"]
        text += (f" The searching solver of [How good can it get?](11_how_good.html) sometimes takes a tile the "
                 f"oracle calls riskier, for what its click will reveal: it pays a regret of "
                 f"{search['regret_per_decision']:.6f} per decision and wins {search['win_rate']:.3f} against the "
                 f"exact solver's {solver['win_rate']:.3f} on the same boards. Regret per decision measures each "
                 f"click against the safest, not the plan; a learner's regret above 0 is what it leaves beside the "
                 f"safest tile, and a better plan could still beat the solver.")
    per = s.drop_duplicates("level").set_index("level")
    boards = " / ".join(f"{int(per.loc[lv, 'regret_games']):,}" for lv in per.index)
    decisions = " / ".join(f"{int(per.loc[lv, 'regret_decisions']):,}" for lv in per.index)
    return text + (f" The regret is scored on the first {boards} boards of the {' / '.join(per.index)} suites, fewer "
                   f"than the win rate, since the oracle computes the exact probability of every covered tile before "
                   f"every click, played through the Gymnasium environment; those boards hold many decisions each "
                   f"(the exact solver made {decisions} there); the section on fresh boards below gives each "
                   f"entry's regret an interval.")
