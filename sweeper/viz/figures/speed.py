"""The speed chapter's measurements: the committed paper-scale file that ``python -m sweeper time-reproduction``
writes (:mod:`sweeper.experiments.timing`), and the committed bench that ``python -m sweeper bench --save
results/bench.json`` writes (:mod:`sweeper.bench`), at every scale of the book (the quick scale has no timing of its
own to show)."""

from __future__ import annotations

import pandas as pd

from ...experiments import specs as ex
from ...experiments.timing import read_timing
from .paper import duration

PART_LABELS = {"paper": "the paper (seed 1)", "book": "the rest of the book"}


def reproduction_timing() -> dict:
    """The stored timing of the paper-scale reproduction (checked by :func:`~sweeper.experiments.timing.read_timing`)."""
    return read_timing(scale="paper")


def _part(record: dict, name: str) -> dict | None:
    return next((p for p in record["parts"] if p["name"] == name), None)


def timing_parts(record: dict | None = None) -> pd.DataFrame:
    """One row per part of the timed reproduction, and their sum when both were timed: tasks, wall time, CPU
    time (the command and its worker processes), the tasks' own seconds in this run, and the seconds the stored
    runs recorded for the same tasks."""
    record = reproduction_timing() if record is None else record
    parts = list(record["parts"])
    if len(parts) > 1:
        parts.append({"name": "all", **{k: sum(p[k] for p in record["parts"]) for k in
                                        ("tasks", "wall_seconds", "cpu_seconds", "task_seconds",
                                         "stored_task_seconds")}})
    label = {**PART_LABELS, "all": "all (--book)"}
    return pd.DataFrame({"part": [label[p["name"]] for p in parts],
                         "tasks": [f"{p['tasks']:,}" for p in parts],
                         "wall": [duration(p["wall_seconds"]) for p in parts],
                         "CPU": [duration(p["cpu_seconds"]) for p in parts],
                         "tasks' own": [duration(p["task_seconds"]) for p in parts],
                         "as stored": [duration(p["stored_task_seconds"]) for p in parts]}
                        ).set_index("part")


def _measured(record: dict) -> str:
    """"Measured on DATE on a N-core machine (CPU, SYSTEM)", from a measurement file's record."""
    m = record["machine"]
    when = record["date"].replace("T", " at ").replace("Z", " UTC")
    return f"Measured on {when} on a {m['cores']}-core machine ({m['cpu']}, {m['system']})"


def timing_sentence(record: dict | None = None) -> str:
    """When, where and with what the timing was measured, and the command that remakes it."""
    r = reproduction_timing() if record is None else record
    prov = r["provenance"]
    return (f"{_measured(r)}, {r['workers']} worker processes, from an empty scratch directory with the code of commit "
            f"`{prov['commit'][:7]}` (Python {prov['python']}, numba {prov['numba']}, NumPy {prov['numpy']}); "
            f"`python -m sweeper time-reproduction --workers {r['workers']}` measures it again and rewrites "
            f"`results/reproduction-timing.json`.")


def timing_verdict(record: dict | None = None) -> str:
    """The wall times in words, beside what the stored runs recorded for the same tasks."""
    r = reproduction_timing() if record is None else record
    paper, book = _part(r, "paper"), _part(r, "book")
    text = (f"The paper's part took **{duration(paper['wall_seconds'])}** on the wall clock "
            f"({paper['tasks']:,} tasks); the stored runs recorded {duration(paper['stored_task_seconds'])} "
            f"for the same tasks, {paper['stored_task_seconds'] / paper['task_seconds']:.1f} times the "
            f"{duration(paper['task_seconds'])} they took in this run.")
    if book is not None:
        total = paper["wall_seconds"] + book["wall_seconds"]
        text += (f" The rest of the book took {duration(book['wall_seconds'])} more ({book['tasks']:,} tasks), "
                 f"so **{duration(total)}** in all for `--book` from nothing.")
    return text


def costliest_experiments(record: dict | None = None, n: int = 5) -> pd.DataFrame:
    """The ``n`` experiments whose tasks took longest in the timed run, with their seconds as stored
    (experiments share tasks, so the rows do not add up to a part's time)."""
    r = reproduction_timing() if record is None else record
    known = {**ex.SPECS, **ex.EXTRA_SPECS}
    rows = sorted(r["experiments"], key=lambda e: -e["task_seconds"])[:n]
    return pd.DataFrame({"experiment": [e["experiment"] for e in rows],
                         "what": [known[e["experiment"]].title if e["experiment"] in known else "" for e in rows],
                         "seeds": [e["seeds"] for e in rows],
                         "tasks": [e["tasks"] for e in rows],
                         "this run": [duration(e["task_seconds"]) for e in rows],
                         "as stored": [duration(e["stored_task_seconds"]) for e in rows]}).set_index("experiment")


def comparison_sentence(record: dict | None = None) -> str:
    """Whether the timed run remade the stored comparison table of the paper's numbers."""
    c = (reproduction_timing() if record is None else record)["comparison"]
    wall = c["wall_time_rows_differing"]
    if c["unchanged"]:
        return (f"The comparison table that the timed run wrote equals the stored one row for row, except the "
                f"{wall} wall-time rows of the paper's timing sentence, which measure the machine.")
    return (f"The comparison table that the timed run wrote differs from the stored one in "
            f"{len(c['other_differences'])} rows besides the {wall} wall-time rows: "
            + "; ".join(", ".join(f"{k} {v}" for k, v in d.items()) for d in c["other_differences"][:5]) + ".")


# ------------------------------------------------------------------ the bench --
# The committed file of ``python -m sweeper bench --save results/bench.json`` (:mod:`sweeper.bench`).

#: The bench's workloads the chapter's table shows, by the start of their names, with the chapter's labels.
BENCH_LABELS = (
    ("greedy train 8x8x10 (100,000 games)", "greedy"),
    ("slow reference greedy", "greedy, slow reference"),
    ("ucb(0.1) train 8x8x10", "UCB(0.1)"),
    ("thompson train 8x8x10", "Thompson sampling"),
    ("greedy as a plug-in rule, Python loop, compiled by Rule", "rule: loop, compiled"),
    ("greedy as a plug-in rule, njit", "rule: NumPy, njit"),
    ("greedy as a plug-in rule, NumPy, in Python (100,000", "rule: NumPy, Python"),
    ("greedy as a plug-in rule, Python loop, compile=False", "rule: loop, Python"),
    ("state-action train 4x4x4", "state-action, 4x4x4"),
    ("greedy train 8x8x10 (1,000,000 games", "greedy, 10⁶ games"),
)


def bench_record() -> dict:
    """The committed bench (checked by :func:`~sweeper.bench.read_bench`)."""
    from ...bench import read_bench
    return read_bench()


def _bench_row(record: dict, start: str) -> dict:
    row = next((r for r in record["rows"] if r["workload"].startswith(start)), None)
    if row is None:
        raise ValueError(f"the bench file has no workload {start!r}: `python -m sweeper bench --save "
                         "results/bench.json` writes a complete one")
    return row


def bench_sentence(record: dict | None = None) -> str:
    """When, where and with what the bench ran, and the command that runs it again."""
    r = bench_record() if record is None else record
    prov = r["provenance"]
    return (f"{_measured(r)}, one core per workload, with the code of commit `{prov['commit'][:7]}` (numba {prov['numba']}); every workload of up to 10⁵ "
            f"games is the fastest of up to {r['repeat']} runs on the same games. "
            f"`python -m sweeper bench` measures it on your machine (`--save results/bench.json` rewrites this file).")


def bench_table(record: dict | None = None) -> pd.DataFrame:
    """The bench's main workloads (all on beginner boards unless named; "rule:" is greedy written as a plug-in rule,
    compiled or kept in Python), with games/s and the two ratios measured in the same command: to the built-in
    greedy agent and to the slow, readable pure-Python reference."""
    r = bench_record() if record is None else record
    rows = [(label, _bench_row(r, start)) for start, label in BENCH_LABELS]
    return pd.DataFrame({"agent": [label for label, _ in rows],
                         "games": [f"{row['games']:,}" for _, row in rows],
                         "games/s": [f"{row['games_per_second']:,.0f}" for _, row in rows],
                         "× greedy": [f"{row['x_greedy']:.3g}" for _, row in rows],
                         "× reference": ["—" if row["x_reference"] is None else f"{row['x_reference']:,.0f}"
                                         for _, row in rows]}).set_index("agent")


def thompson_cost_sentence(record: dict | None = None) -> str:
    """Thompson sampling's speed beside greedy's, and the share of its time that its Beta draws take."""
    r = bench_record() if record is None else record
    greedy, th = _bench_row(r, "greedy train 8x8x10 (100,000"), _bench_row(r, "thompson train")
    d = _bench_row(r, "thompson's Beta draws alone")
    return (f"Thompson sampling trains at {th['games_per_second']:,.0f} games/s, **{th['x_greedy']:.2f}** of "
            f"greedy's {greedy['games_per_second']:,.0f} ({th['us_per_decision']:.1f} µs per decision against "
            f"{greedy['us_per_decision']:.2f}). Once trained (after 10⁵ games), it draws "
            f"{d['draws_per_decision']:.0f} Beta variates per decision, one for each distinct action on offer "
            f"({d['closed_form_share']:.0%} of them in closed form, where a or b is 1; the others as a ratio of two "
            f"gamma variates), at {d['ns_per_draw']:.0f} ns each: {d['us_per_decision_drawing']:.1f} µs of the "
            f"{d['us_per_decision_trained']:.1f} µs that each decision of the trained agent takes, "
            f"**{d['share_of_time']:.0%}**.")


def rule_cost_sentence(record: dict | None = None) -> str:
    """What a plug-in rule costs beside the built-in agent, compiled and in Python."""
    r = bench_record() if record is None else record
    loop = _bench_row(r, "greedy as a plug-in rule, Python loop, compiled by Rule")
    njit = _bench_row(r, "greedy as a plug-in rule, njit")
    py4, py5 = (_bench_row(r, f"greedy as a plug-in rule, NumPy, in Python ({n:,}") for n in (10_000, 100_000))
    off = _bench_row(r, "greedy as a plug-in rule, Python loop, compile=False")
    return (f"Greedy written as a plain Python loop and compiled by `Rule` plays the built-in agent's games at "
            f"**{loop['x_greedy']:.2f}** of its speed; the NumPy version with `numba.njit` at {njit['x_greedy']:.2f} "
            f"(each decision builds temporary arrays). Kept in Python, the NumPy rule plays "
            f"{py4['games_per_second']:,.0f} games/s over 10⁴ games and {py5['games_per_second']:,.0f} over 10⁵, "
            f"and the loop with `compile=False` {off['games_per_second']:,.0f} over 10⁴.")


def probe_cost_table(record: dict | None = None) -> pd.DataFrame:
    """The cost of the exact probabilities at every decision (the audit and the regret runs), by board: the trained
    greedy agent's frozen games, plain and probed (the probabilities computed at every decision)."""
    r = bench_record() if record is None else record
    labels = {"8x8x10": "beginner", "16x16x40": "intermediate", "16x30x99": "expert"}
    rows = [(label, _bench_row(r, f"regret probe {board}")) for board, label in labels.items()]
    return pd.DataFrame({"board": [label for label, _ in rows],
                         "decisions / game": [f"{row['decisions_per_game']:.1f}" for _, row in rows],
                         "µs / decision": [f"{row['us_per_decision']:.1f}" for _, row in rows],
                         "games/s": [f"{row['plain_games_per_second']:,.0f}" for _, row in rows],
                         "games/s, probed": [f"{row['games_per_second']:,.0f}" for _, row in rows]}
                        ).set_index("board")


def probe_cost_sentence(record: dict | None = None) -> str:
    """What the exact probabilities add to a regret run of 10^6 beginner games."""
    r = bench_record() if record is None else record
    b = _bench_row(r, "regret probe 8x8x10")
    extra = b["us_per_decision"] * b["decisions_per_game"]  # µs per game = s per 10^6 games
    return (f"On beginner boards the exact probabilities add {b['us_per_decision']:.1f} µs to each of a game's "
            f"{b['decisions_per_game']:.0f} decisions (the trained greedy agent, frozen), so a regret run of 10⁶ "
            f"games spends about {duration(extra)} on them, one core.")


# ------------------------------------------------------- the neural bandit's rows --
#: The bench's learnings of the neural bandit (:data:`sweeper.bench.NEURAL_LEARNING`), with the page's labels.
NEURAL_LEARNINGS = {"default learning": "16 per 16", "minibatch 128, replay 0.5": "128 per 256",
                    "minibatch 128, replay 0.25": "128 per 512"}
NEURAL_BOARDS = {"8x8x10": "beginner", "16x16x40": "intermediate", "16x30x99": "expert"}
NO_NEURAL = ("The saved bench has no rows of the neural bandit: it was run without the optional extra `deep`. "
             "`python -m sweeper bench` measures them where the extra is installed.")


def neural_speed(record: dict | None = None) -> pd.DataFrame:
    """The neural bandit's rows of the bench (one thread), per level: decisions per CPU second of batched training
    with each learning of the bench (one Adam step of so many views per so many decisions) and of frozen batched
    test games; empty when the bench was saved without the extra."""
    r = bench_record() if record is None else record
    rows = []
    for board, level in NEURAL_BOARDS.items():
        row = {"level": level}
        for how, label in NEURAL_LEARNINGS.items():
            hit = [x for x in r["rows"] if x["workload"].startswith("neural bandit (")
                   and f" train {board}, {how} (" in x["workload"]]
            row[f"training, {label}"] = hit[0]["decisions_per_second"] if hit else float("nan")
        test = [x for x in r["rows"] if x["workload"].startswith(f"neural bandit {board} test games, frozen")]
        row["frozen test games"] = test[0]["decisions_per_second"] if test else float("nan")
        rows.append(row)
    t = pd.DataFrame(rows).set_index("level")
    return t if t.notna().any().any() else t.iloc[0:0]


def neural_speed_table(t: pd.DataFrame) -> pd.DataFrame:
    """:func:`neural_speed` for the page: decisions per CPU second, rounded."""
    return t.apply(lambda col: col.map(lambda v: "" if pd.isna(v) else f"{v:,.0f}"))


def speed_values(t: pd.DataFrame, record: dict | None = None) -> dict:
    """What :func:`neural_speed` shows on beginner boards, as named values for the page's prose: decisions per CPU
    second of batched training with the stored runs' learning after their first phase (``recipe``: a step of 128
    views per 256 decisions) and with the first networks' (``first``: 16 per 16), their ``ratio``, and of frozen
    batched test games (``test``); where and when the bench ran (``date``, ``time`` in UTC, ``cores``, ``cpu``,
    ``system``) and with what code (``commit``). An error (:data:`NO_NEURAL`) when the bench has no such rows."""
    if t.empty:
        raise ValueError(NO_NEURAL)
    r = bench_record() if record is None else record
    b = t.loc["beginner"]
    first = float(b[f"training, {NEURAL_LEARNINGS['default learning']}"])
    recipe = float(b[f"training, {NEURAL_LEARNINGS['minibatch 128, replay 0.5']}"])
    date, _, time = r["date"].rstrip("Z").partition("T")
    m = r["machine"]
    return {"recipe": recipe, "first": first, "ratio": recipe / first, "test": float(b["frozen test games"]),
            "date": date, "time": time, "cores": int(m["cores"]), "cpu": str(m["cpu"]), "system": str(m["system"]),
            "commit": r["provenance"]["commit"][:7]}
