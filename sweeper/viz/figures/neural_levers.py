"""The chapter "From a table to a network", its ablation: the stored runs of ``ext:neural_levers`` (one lever of the
neural bandit's learning changed at a time, seed 1, 10 CPU minutes of training on intermediate boards, tested on the
first 1,000 intermediate boards of the benchmark). Nothing here computes a result; every function takes its input,
so a test can hand it made runs.
"""

from __future__ import annotations

import pandas as pd

from ...experiments.neural_runs import LEVER_BOARD, LEVER_BUDGET, LEVERS
from ...experiments.stats import difference_interval
from .results import paper_spec

#: The ablation's seed (one seed: what a row says holds for that seed's network on these boards).
LEVER_SEEDS = (1,)
#: The row every other row is set against.
BASELINE = "defaults"


def lever_outputs() -> list:
    """``(lever, output)`` of every stored run of ``ext:neural_levers`` (paper scale, :data:`LEVER_SEEDS`), in the
    order of :data:`~sweeper.experiments.neural_runs.LEVERS`, or one clear error naming the command."""
    st, tasks = paper_spec("ext:neural_levers", LEVER_SEEDS,
                           needs="`make deep` installs the optional extra 'deep', then ")
    return [(name, st.load(t)) for name, t in zip(LEVERS, tasks)]


def lever_runs(outputs=None) -> pd.DataFrame:
    """One row per lever: the training it bought in its budget (games, decisions, gradient steps, training CPU
    seconds with the curriculum's, decisions per CPU second) and its frozen test on the level's boards (wins, games,
    win rate [95% Wilson], share of safe tiles revealed), with the share of sure decisions it missed (a tile was
    proven safe and it clicked another: its first test games set against the exact probabilities)."""
    outputs = lever_outputs() if outputs is None else outputs
    rows = []
    for name, out in outputs:
        i = out.info
        t = out.tables["tests"]
        t = t[t["board"] == LEVER_BOARD].iloc[0]
        cpu = i.get("total_train_cpu_seconds", i["train_cpu_seconds"])
        decisions = i["train_decisions"] + sum(i.get("curriculum_decisions", []))
        rows.append({"lever": name, "games": i["train_games"] + sum(i.get("curriculum_games", [])),
                     "decisions": decisions, "updates": i["train_updates"] + sum(i.get("curriculum_updates", [])),
                     "cpu_seconds": cpu, "decisions_per_cpu_second": decisions / cpu, "wins": int(t["wins"]),
                     "test_games": int(t["test_games"]), "win_rate": float(t["win_rate"]), "lo": float(t["lo"]),
                     "hi": float(t["hi"]), "revealed": float(t["revealed"]),
                     "missed_per_sure": float(t.get("quality_missed_per_sure", float("nan")))})
    return pd.DataFrame(rows)


def with_differences(levers: pd.DataFrame, baseline: str = BASELINE) -> pd.DataFrame:
    """``levers`` with each row's difference from the baseline's win rate, its 95% interval (Newcombe's, as if the
    two samples were independent: conservative on the same boards) and a verdict for this seed: ``"more"`` or
    ``"less"`` when the interval excludes 0, else ``"cannot be told apart"``."""
    base = levers.set_index("lever").loc[baseline]
    out = levers.copy()
    diffs = [difference_interval(int(r.wins), int(r.test_games), int(base["wins"]), int(base["test_games"]))
             for r in levers.itertuples()]
    out["difference"], out["diff_lo"], out["diff_hi"] = zip(*diffs) if diffs else ((), (), ())
    out["verdict"] = ["" if r.lever == baseline else "more" if r.diff_lo > 0 else "less" if r.diff_hi < 0
                      else "cannot be told apart" for r in out.itertuples()]
    return out


def lever_table(levers: pd.DataFrame) -> pd.DataFrame:
    """The ablation as the page shows it (from :func:`with_differences`)."""
    rows = []
    for r in levers.itertuples():
        base = r.lever == BASELINE
        rows.append({"lever": r.lever, "win rate [95%]": f"{r.win_rate:.3f} [{r.lo:.3f}, {r.hi:.3f}]",
                     "against the defaults [95%]": "" if base else
                     f"{r.difference:+.3f} [{r.diff_lo:+.3f}, {r.diff_hi:+.3f}]",
                     "verdict (seed 1)": r.verdict, "safe tiles revealed": f"{r.revealed:.3f}",
                     "sure decisions missed": f"{r.missed_per_sure:.4f}", "games": f"{r.games:,}",
                     "gradient steps": f"{r.updates:,}", "decisions per CPU s": f"{r.decisions_per_cpu_second:,.0f}",
                     "training CPU s": f"{r.cpu_seconds:,.0f}"})
    return pd.DataFrame(rows).set_index("lever")


def lever_sentence(levers: pd.DataFrame) -> str:
    """What the ablation shows, in the words its numbers allow: the levers that won more than the defaults on this
    seed, those that won less, and those the 1,000 boards cannot tell apart from them."""
    rows = levers[levers["lever"] != BASELINE]
    base = levers.set_index("lever").loc[BASELINE]
    def named(verdict):
        return [f"{r.lever} ({r.win_rate:.3f}, {r.difference:+.3f})" for r in rows.itertuples() if r.verdict == verdict]
    more, less, apart = named("more"), named("less"), named("cannot be told apart")
    games = int(base["test_games"])
    parts = [f"With the defaults (the first networks' learning: their own level from the start, 16 views per 16 "
             f"decisions), one network (seed 1) trained for {LEVER_BUDGET / 60:.0f} CPU minutes "
             f"won {base['win_rate']:.3f} of the first {games:,} intermediate boards of the benchmark."]
    if more:
        parts.append(f"Changed one at a time, these levers won more on the same boards: {'; '.join(more)}.")
    if less:
        parts.append(f"These won less: {'; '.join(less)}.")
    if apart:
        parts.append(f"These cannot be told apart from the defaults on {games:,} boards (the 95% interval of the "
                     f"difference holds 0): {'; '.join(apart)}.")
    parts.append("Each row is one seed: a difference says what that seed's network did, not what the lever does on "
                 "average over seeds.")
    return " ".join(parts)


def cost_sentence(levers: pd.DataFrame) -> str:
    """What each lever did with the same CPU time, from the cost columns: decisions played per CPU second and
    gradient steps, against the defaults' (where they differ by more than a tenth)."""
    base = levers.set_index("lever").loc[BASELINE]
    parts = []
    for r in levers[levers["lever"] != BASELINE].itertuples():
        speed = r.decisions_per_cpu_second / base["decisions_per_cpu_second"]
        steps = r.updates / base["updates"]
        if abs(speed - 1) > 0.1 or abs(steps - 1) > 0.1:
            parts.append(f"{r.lever}: {speed:.2f} times the defaults' decisions per CPU second and {steps:.2f} times "
                         f"their gradient steps")
    head = (f"In the same {LEVER_BUDGET / 60:.0f} CPU minutes the defaults played "
            f"{base['decisions_per_cpu_second']:,.0f} decisions per CPU second and took {int(base['updates']):,} "
            f"gradient steps.")
    return head + (" Changed by more than a tenth: " + "; ".join(parts) + "." if parts else
                   " No lever changed either by more than a tenth.")
