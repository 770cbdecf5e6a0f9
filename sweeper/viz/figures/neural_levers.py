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
from .prose import and_list
from .results import curriculum_work, paper_spec

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
        before = curriculum_work(i)
        decisions = i["train_decisions"] + before["decisions"]
        rows.append({"study": study, "lever": name, "games": i["train_games"] + before["games"],
                     "decisions": decisions, "updates": i["train_updates"] + before["updates"],
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


def _names(rows) -> str:
    """The levers of ``rows`` as a sentence lists them, each in quotes (a lever's name may hold a comma), or "none"."""
    names = [f"“{n}”" for n in rows["lever"]]
    return and_list(names) if names else "none"


def work_factors(levers: pd.DataFrame, noise: float | None = None) -> pd.DataFrame:
    """What each lever's budget bought against the baseline's (:data:`STUDIES`), counted: its training decisions and
    gradient steps as factors of the baseline's (all phases), and whether either factor is beyond ``noise`` (the
    clock's measured noise, :func:`~sweeper.viz.figures.deep.clock_noise`: every lever ran on the same CPU budget,
    and a CPU second buys more or less work with the load of the machine). Without ``noise`` no lever is beyond it."""
    baseline = _baseline(levers)[0]
    base = levers.set_index("lever").loc[baseline]
    rows = levers[levers["lever"] != baseline]
    dec, steps = rows["decisions"] / base["decisions"], rows["updates"] / base["updates"]
    far = (pd.concat([dec, 1 / dec, steps, 1 / steps], axis=1).max(axis=1) > noise if noise
           else pd.Series(False, index=dec.index))
    return pd.DataFrame({"lever": rows["lever"], "verdict": rows["verdict"], "decisions": dec, "steps": steps,
                         "beyond_noise": far}).set_index("lever")


def lever_values(levers: pd.DataFrame, noise: float | None = None) -> dict:
    """What the ablation shows (from :func:`with_differences`), as named values for the page's prose: the baseline's
    win rate (``base``) on its ``games`` boards after its ``budget`` of CPU minutes, and the training decisions and
    gradient steps that budget bought (``decisions``, ``steps``, all phases); the levers that won more than the
    baseline on this seed, those that won less and those the boards cannot tell apart from it (``more``, ``less``,
    ``apart``: their names, or "none"; ``*_n``: how many); the lever of the largest difference (``top``, its
    ``top_rate``, ``top_diff`` with Newcombe's interval ``top_lo``, ``top_hi``); and by :func:`work_factors`, the
    levers whose work differs from the baseline's by more than ``noise`` (``beyond``, ``beyond_n``, the others
    ``within_n``) and, of those that won more or less, the ones beyond it (``differ_beyond``) and within it
    (``differ_within``)."""
    baseline = _baseline(levers)[0]
    base = levers.set_index("lever").loc[baseline]
    rows = levers[levers["lever"] != baseline]
    top = rows.loc[rows["difference"].idxmax()]
    f = work_factors(levers, noise).reset_index()
    differ = f[f["verdict"].isin(["more", "less"])]
    values = {"budget": LEVER_STUDIES[levers["study"].iloc[0]][1] / 60, "games": int(base["test_games"]),
              "base": float(base["win_rate"]), "decisions": int(base["decisions"]), "steps": int(base["updates"]),
              "top": str(top["lever"]), "top_rate": float(top["win_rate"]), "top_diff": float(top["difference"]),
              "top_lo": float(top["diff_lo"]), "top_hi": float(top["diff_hi"]),
              "noise": float(noise) if noise else float("nan"), "beyond": _names(f[f["beyond_noise"]]),
              "beyond_n": int(f["beyond_noise"].sum()), "within_n": int((~f["beyond_noise"]).sum()),
              "differ_beyond": _names(differ[differ["beyond_noise"]]),
              "differ_within": _names(differ[~differ["beyond_noise"]])}
    for verdict, k in (("more", "more"), ("less", "less"), ("cannot be told apart", "apart")):
        values.update({k: _names(rows[rows["verdict"] == verdict]), f"{k}_n": int((rows["verdict"] == verdict).sum())})
    return values


def doubled_budget_values(levers: pd.DataFrame, tests: pd.DataFrame) -> dict:
    """The expert study's recipe after its budget against the stored expert network of the same seed after about
    twice as much (``tests``: the first networks' test table, ``neural_runs(recipe="cpu")["tests"]``, whose recipe
    the study shortens), on the same boards, as named values for the page's prose: the ``seed``, the stored
    network's budget (``minutes``) and curriculum (``phases``: CPU seconds per board), its win rate (``rate``)
    against the recipe's (``base``), the difference with Newcombe's interval (``diff``, ``lo``, ``hi``, as the rows
    of the table) and its ``verdict``, and ``reading``: whether neither a lever nor that budget won more than the
    boards can detect. Empty without the stored network."""
    baseline = _baseline(levers)[0]
    board = LEVER_STUDIES[levers["study"].iloc[0]][0]
    base = levers.set_index("lever").loc[baseline]
    seed, games = LEVER_SEEDS[0], int(base["test_games"])
    own = tests[(tests["train"] == board) & (tests["test"] == board) & (tests["seed"] == seed)]
    if own.empty:
        return {}
    r = own.iloc[0]
    d, lo, hi = difference_interval(int(r["wins"]), int(r["test_games"]), int(base["wins"]), games)
    none = "more" not in set(levers["verdict"]) and lo <= 0
    return {"seed": seed, "minutes": NEURAL_BUDGET / 60, "rate": float(r["win_rate"]), "base": float(base["win_rate"]),
            "phases": and_list(f"{ph[1]:.0f} CPU seconds on {ph[0]}" for ph in NEURAL_LEVELS[board]["curriculum"]),
            "diff": float(d), "lo": float(lo), "hi": float(hi),
            "verdict": ("won more" if lo > 0 else "won less" if hi < 0 else
                        f"cannot be told apart from the recipe's on {games:,} boards"),
            "reading": ("neither one of the levers nor about twice the CPU won more than these boards can detect"
                        if none else "a lever or about twice the CPU won more than these boards can detect")}
