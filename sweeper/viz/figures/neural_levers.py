"""The chapter "From a table to a network", its two ablations: the stored runs of ``ext:neural_levers`` (one lever
of the neural bandit's learning changed at a time, seed 1, 10 CPU minutes of training on intermediate boards, tested
on the first 1,000 intermediate boards of the benchmark) and of ``ext:neural_levers_expert`` (the same on expert
boards, 15 CPU minutes, from the expert networks' recipe). Nothing here computes a result; every function takes its
input, so a test can hand it made runs.
"""

from __future__ import annotations

import pandas as pd

from ...experiments.neural_runs import LEVER_STUDIES, NEURAL_BUDGET, NEURAL_LEVELS
from ...experiments.stats import difference_interval
from .results import paper_spec

#: The ablations' seed (one seed: what a row says holds for that seed's network on these boards).
LEVER_SEEDS = (1,)
#: Per study (:data:`~sweeper.experiments.neural_runs.LEVER_STUDIES`): its spec, the row every other row is set
#: against, and how the page names that row.
STUDIES = {"intermediate": ("ext:neural_levers", "defaults", "the defaults"),
           "expert": ("ext:neural_levers_expert", "expert recipe", "the recipe")}
#: The row every other row of the intermediate study is set against.
BASELINE = STUDIES["intermediate"][1]
_LEVEL = {"16x16x40": "intermediate", "16x30x99": "expert"}


def lever_outputs(study: str = "intermediate") -> list:
    """``(lever, output)`` of every stored run of the ``study``'s spec (paper scale, :data:`LEVER_SEEDS`), in the
    order of its levers, or one clear error naming the command."""
    st, tasks = paper_spec(STUDIES[study][0], LEVER_SEEDS, needs="`make deep` installs the optional extra 'deep', then ")
    return [(name, st.load(t)) for name, t in zip(LEVER_STUDIES[study][3], tasks)]


def lever_runs(outputs=None, study: str = "intermediate") -> pd.DataFrame:
    """One row per lever of the ``study``: the training it bought in its budget (games, decisions, gradient steps,
    all counted with the curriculum's; the training CPU seconds and decisions per CPU second as recorded, a record
    only) and its frozen test on the level's boards
    (wins, games, win rate [95% Wilson], share of safe tiles revealed), with the share of sure decisions it missed (a
    tile was proven safe and it clicked another: its first test games set against the exact probabilities)."""
    outputs = lever_outputs(study) if outputs is None else outputs
    board = LEVER_STUDIES[study][0]
    rows = []
    for name, out in outputs:
        i = out.info
        t = out.tables["tests"]
        t = t[t["board"] == board].iloc[0]
        cpu = i.get("total_train_cpu_seconds", i["train_cpu_seconds"])
        decisions = i["train_decisions"] + sum(i.get("curriculum_decisions", []))
        rows.append({"study": study, "lever": name, "games": i["train_games"] + sum(i.get("curriculum_games", [])),
                     "decisions": decisions, "updates": i["train_updates"] + sum(i.get("curriculum_updates", [])),
                     "cpu_seconds": cpu, "decisions_per_cpu_second": decisions / cpu, "wins": int(t["wins"]),
                     "test_games": int(t["test_games"]), "win_rate": float(t["win_rate"]), "lo": float(t["lo"]),
                     "hi": float(t["hi"]), "revealed": float(t["revealed"]),
                     "missed_per_sure": float(t.get("quality_missed_per_sure", float("nan")))})
    return pd.DataFrame(rows)


def _baseline(levers: pd.DataFrame) -> tuple[str, str]:
    """(the baseline row's lever, how the page names it) of a study's ``levers``."""
    return STUDIES[levers["study"].iloc[0]][1:]


def with_differences(levers: pd.DataFrame) -> pd.DataFrame:
    """``levers`` with each row's difference from the baseline's win rate (:data:`STUDIES`), its 95% interval
    (Newcombe's, as if the two samples were independent: conservative on the same boards) and a verdict for this
    seed: ``"more"`` or ``"less"`` when the interval excludes 0, else ``"cannot be told apart"``."""
    baseline = _baseline(levers)[0]
    base = levers.set_index("lever").loc[baseline]
    out = levers.copy()
    diffs = [difference_interval(int(r.wins), int(r.test_games), int(base["wins"]), int(base["test_games"]))
             for r in levers.itertuples()]
    out["difference"], out["diff_lo"], out["diff_hi"] = zip(*diffs) if diffs else ((), (), ())
    out["verdict"] = ["" if r.lever == baseline else "more" if r.diff_lo > 0 else "less" if r.diff_hi < 0
                      else "cannot be told apart" for r in out.itertuples()]
    return out


#: The ablation's table in two parts, each of which fits the book's text column: what each lever won against the
#: baseline, and how it played and what its budget bought.
TABLE_PARTS = {"wins": ["win rate [95%]", "against", "verdict (seed 1)"],
               "work": ["safe tiles revealed", "sure decisions missed", "games", "decisions", "gradient steps",
                        "CPU min (as recorded)"]}


def lever_table(levers: pd.DataFrame, part: str | None = None) -> pd.DataFrame:
    """The ablation as the page shows it (from :func:`with_differences`); ``part``: the columns of
    :data:`TABLE_PARTS` ``[part]`` only ("against" stands for the column set against the baseline)."""
    baseline, called = _baseline(levers)
    rows = []
    for r in levers.itertuples():
        rows.append({"lever": r.lever, "win rate [95%]": f"{r.win_rate:.3f} [{r.lo:.3f}, {r.hi:.3f}]",
                     f"against {called} [95%]": "" if r.lever == baseline else
                     f"{r.difference:+.3f} [{r.diff_lo:+.3f}, {r.diff_hi:+.3f}]",
                     "verdict (seed 1)": r.verdict, "safe tiles revealed": f"{r.revealed:.3f}",
                     "sure decisions missed": f"{r.missed_per_sure:.4f}", "games": f"{r.games:,}",
                     "decisions": f"{r.decisions:,}", "gradient steps": f"{r.updates:,}",
                     "CPU min (as recorded)": f"{r.cpu_seconds / 60:.1f}"})
    table = pd.DataFrame(rows).set_index("lever")
    if part is None:
        return table
    return table[[f"against {called} [95%]" if c == "against" else c for c in TABLE_PARTS[part]]]


_START = {"intermediate": "With the defaults (the first networks' learning: their own level from the start, 16 views "
                          "per 16 decisions), one network (seed 1)",
          "expert": "With the expert networks' recipe (150 CPU seconds on beginner boards, 250 on intermediate ones, "
                    "then expert boards, with the symmetries), one network (seed 1)"}


def lever_sentence(levers: pd.DataFrame) -> str:
    """What the ablation shows, in the words its numbers allow: the levers that won more than the baseline on this
    seed, those that won less, and those the 1,000 boards cannot tell apart from it."""
    baseline, called = _baseline(levers)
    study = levers["study"].iloc[0]
    board, budget = LEVER_STUDIES[study][:2]
    rows = levers[levers["lever"] != baseline]
    base = levers.set_index("lever").loc[baseline]
    def named(verdict):
        return [f"{r.lever} ({r.win_rate:.3f}, {r.difference:+.3f})" for r in rows.itertuples() if r.verdict == verdict]
    more, less, apart = named("more"), named("less"), named("cannot be told apart")
    games = int(base["test_games"])
    parts = [f"{_START[study]} trained for {budget / 60:.0f} CPU minutes won {base['win_rate']:.3f} of the first "
             f"{games:,} {_LEVEL[board]} boards of the benchmark."]
    if more:
        parts.append(f"Changed one at a time, these levers won more on the same boards: {'; '.join(more)}.")
    if less:
        parts.append(f"These won less: {'; '.join(less)}.")
    if apart:
        parts.append(f"These cannot be told apart from {called} on {games:,} boards (the 95% interval of the "
                     f"difference holds 0): {'; '.join(apart)}.")
    parts.append("Each row is one seed: a difference says what that seed's network did, not what the lever does on "
                 "average over seeds.")
    return " ".join(parts)


def cost_sentence(levers: pd.DataFrame, noise: float | None = None) -> str:
    """What each lever's budget bought, counted: its training decisions and gradient steps against the baseline's.
    Every lever ran on the same CPU budget, and a CPU second buys more or less work with the load of the machine, so
    a lever is said to have changed the work only where a count differs from the baseline's by more than ``noise``
    times (the clock's measured noise, :func:`~sweeper.viz.figures.deep.clock_noise`); the others are named as
    within it. Without ``noise``, no lever is set apart."""
    baseline, called = _baseline(levers)
    budget = LEVER_STUDIES[levers["study"].iloc[0]][1]
    base = levers.set_index("lever").loc[baseline]
    beyond, within, whose = [], [], called + ("'" if called.endswith("s") else "'s")
    for r in levers[levers["lever"] != baseline].itertuples():
        dec, steps = r.decisions / base["decisions"], r.updates / base["updates"]
        far = noise is not None and max(dec, 1 / dec, steps, 1 / steps) > noise
        (beyond if far else within).append(f"{r.lever} ({dec:.2f} and {steps:.2f})")
    head = (f"In the same {budget / 60:.0f} CPU minutes of budget {called} made {int(base['decisions']):,} training "
            f"decisions and took {int(base['updates']):,} gradient steps, all phases counted. Each lever's decisions "
            f"and gradient steps, as factors of {whose}: ")
    if noise is None:
        return head + "; ".join(within) + ". The clock's noise is not measured here, so no lever is set apart."
    return head + (f"beyond the clock's noise ({noise:.2f} times), {'; '.join(beyond)}" if beyond else
                   f"none beyond the clock's noise ({noise:.2f} times)") + (
        f"; within it, where the load of the machine may account for the difference, {'; '.join(within)}"
        if within else "") + "."


def doubled_budget_sentence(levers: pd.DataFrame, tests: pd.DataFrame) -> str:
    """The expert study's recipe after its 15 CPU minutes against the stored expert network of the same seed after
    about 30 (``tests``: the chapter's test table, ``neural_runs()["tests"]``), on the same boards: what twice the
    budget bought that seed, with Newcombe's interval (as the rows of the table); and, when neither that nor any
    lever won more, says so."""
    baseline = _baseline(levers)[0]
    board = LEVER_STUDIES[levers["study"].iloc[0]][0]
    base = levers.set_index("lever").loc[baseline]
    seed = LEVER_SEEDS[0]
    own = tests[(tests["train"] == board) & (tests["test"] == board) & (tests["seed"] == seed)]
    if own.empty:
        return ""
    r = own.iloc[0]
    d, lo, hi = difference_interval(int(r["wins"]), int(r["test_games"]), int(base["wins"]), int(base["test_games"]))
    verdict = ("more" if lo > 0 else "less" if hi < 0 else
               f"a difference the {int(base['test_games']):,} boards cannot tell from 0")
    phases = ", ".join(f"{ph[1]:.0f} on {ph[0]}" for ph in NEURAL_LEVELS[board]["curriculum"])
    none = "more" not in set(levers["verdict"]) and lo <= 0
    reading = (" Neither one of the levers nor about twice the CPU won more on this seed than its boards can "
               "detect." if none else "")
    return (f"With about twice the budget, the stored {_LEVEL[board]} network of the same seed ({NEURAL_BUDGET / 60:.0f} "
            f"CPU minutes of the same learning, of which {phases} first) won {r['win_rate']:.3f} of the same boards "
            f"against the recipe's {base['win_rate']:.3f} here: {d:+.3f} [{lo:+.3f}, {hi:+.3f}], {verdict}." + reading)
