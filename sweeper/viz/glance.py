"""The paper's numbering, comparison sentences generated from the numbers, and the
"results at a glance" verdicts.

* :func:`paper_ref` / :func:`paper_section` name the paper's figures, tables and
  sections as its PDF prints them (``Fig. 7 (fig:exp_1)``, ``Section V-A``). The
  paper is typeset with IEEEtran: sections in Roman numerals, subsections as
  letters (cited ``V-A``), figures in Arabic and tables in Roman numerals, each
  numbered in the order its environment appears in the LaTeX source (the two
  ``subfloat`` panels of ``fig:exp_5`` do not step the figure counter).
* :func:`compare` turns two estimates with 95% intervals into a sentence that
  calls a difference real only when the intervals are disjoint.
* :func:`verdicts` puts every number the paper publishes beside ours with a
  verdict by the rule of :data:`VERDICT_RULE`.
"""

from __future__ import annotations

import math

import pandas as pd

from ..experiments.stats import check_interval, order  # noqa: F401  (one home for ordering two intervals)

#: Sections of the paper: LaTeX label -> (PDF number, title).
PAPER_SECTIONS = {
    "sec:intro": ("I", "Introduction"),
    "sec:walk": ("II", "A Brief Game Walk-Through"),
    "sec:related": ("III", "Related Work"),
    "sec:method": ("IV", "Our Methodology"),
    "subsec:model": ("IV-A", "Initial Problem Modeling"),
    "subsec:msvsmab": ("IV-B", "Distinctions From Standard MAB"),
    "subsec:sim": ("IV-C", "Symmetries"),
    "subsec:TLpot": ("IV-D", "Transfer Learning and Training Optimization"),
    "sec:exp": ("V", "Experimental Evaluation"),
    "subsec:inires": ("V-A", "Initial Impressions"),
    "subsec:tinkering": ("V-B", "Tinkering With Game Mechanics"),
    "subsec:TLres": ("V-C", "Transfer Learning Results"),
    "sec:end": ("VI", "Conclusion"),
}

#: Figures and tables of the paper: LaTeX label -> name in the PDF.
PAPER_FLOATS = {
    "fig:game_example": "Fig. 1", "fig:conf_example": "Fig. 2", "fig:flag_example": "Fig. 3",
    "fig:sim_example_3": "Fig. 4", "fig:sim_example_1": "Fig. 5", "fig:sim_example_2": "Fig. 6",
    "fig:exp_1": "Fig. 7", "fig:exp_2": "Fig. 8", "fig:exp_5": "Fig. 9", "fig:exp_4": "Fig. 10",
    "fig:exp_6": "Fig. 11", "fig:exp_7": "Fig. 12",
    "tab:action_cnt": "Table I", "tab:SAvsMAB": "Table II", "tab:exp_1": "Table III", "tab:tl_ucb": "Table IV",
}


def paper_ref(label: str) -> str:
    """``"Fig. 7 (fig:exp_1)"``: a figure or table of the paper as its PDF names it, with its LaTeX label."""
    if label not in PAPER_FLOATS:
        raise ValueError(f"unknown figure or table label {label!r}; known: {', '.join(PAPER_FLOATS)}")
    return f"{PAPER_FLOATS[label]} ({label})"


def paper_section(label: str, title: bool = False) -> str:
    """``"Section V-A"`` (with ``title=True``: ``"Section V-A, Initial Impressions"``)."""
    if label not in PAPER_SECTIONS:
        raise ValueError(f"unknown section label {label!r}; known: {', '.join(PAPER_SECTIONS)}")
    number, name = PAPER_SECTIONS[label]
    return f"Section {number}" + (f", {name}" if title else "")


# ------------------------------------------------------------ comparisons --

def compare(name_a: str, a: tuple, name_b: str, b: tuple, digits: int = 4) -> str:
    """A sentence comparing two estimates ``(est, low, high)``, generated from them: "above" or
    "below" only when the 95% intervals are disjoint, else "cannot be told apart"."""
    o = order(a, b)
    f = f"{{:.{digits}f}}"
    sa = f"{name_a} ({f.format(a[0])} [{f.format(a[1])}, {f.format(a[2])}])"
    sb = f"{name_b} ({f.format(b[0])} [{f.format(b[1])}, {f.format(b[2])}])"
    if o == 0:
        return f"{sa} and {sb} cannot be told apart: their intervals overlap"
    gap = abs(a[0] - b[0]) * 100
    return f"{sa} is {'above' if o > 0 else 'below'} {sb} by {gap:.2f} points, with disjoint intervals"


def gap_words(ours: tuple, published: float) -> str:
    """How a published value sits against our estimate ``(est, low, high)``, in words and points."""
    check_interval("ours", *ours)
    if ours[1] <= published <= ours[2]:
        return f"inside our interval ({(ours[0] - published) * 100:+.1f} points)"
    side = "below" if ours[0] < published else "above"
    return f"{abs(ours[0] - published) * 100:.1f} points {side} the published value, outside our interval"


# --------------------------------------------------------------- verdicts --

#: Which chapter explains each experiment of results/comparison.csv.
CHAPTER = {"initial": "06_first_experiments", "action_counts": "06_first_experiments",
           "ablation": "06_first_experiments", "sa_vs_mab": "08_state_action", "transfer": "09_transfer",
           "timing": "12_speed"}

#: The chapters' titles, for links.
CHAPTER_TITLES = {"06_first_experiments": "First experiments", "08_state_action": "State-action versus bandit",
                  "09_transfer": "Transfer learning", "12_speed": "Speed"}

#: Where each paper number is printed (the paper_source column of comparison.csv -> PDF name).
_SOURCE = {"Table exp_1": "tab:exp_1", "Table action_cnt": "tab:action_cnt", "Table SAvsMAB": "tab:SAvsMAB",
           "Table tl_ucb": "tab:tl_ucb", "Conclusion": "sec:end"}

#: Relative tolerance for numbers the paper gives without any spread (counts of actions).
COUNT_TOLERANCE = 0.01

VERDICT_RULE = (
    "* **reproduced**: a win rate whose paper value lies in our 95% Wilson interval widened on each side by "
    "twice the largest standard deviation between training runs (seeds) measured for the {fig} agents, here "
    "{tol:.2f} points (the paper's value is one run, and so is ours); a count within {rel:.0%} of ours (the paper "
    "gives no spread for counts).\n"
    "* **differs**: outside those bounds.\n"
    "* **not produced by its code**: a number that the paper's published code was run for, measured (Table II's "
    "bandit column after 10⁵ games: the code's games on recorded layouts, spec `ext:paper_code`, which our agent "
    "with symmetries plays game for game), and that lies outside that program's own bounds by the rule for "
    "*reproduced* (its Wilson interval widened by the same {tol:.2f} points; its count within {rel:.0%}). Counted "
    "apart from *differs*: there our agent agrees with the code, and the code disagrees with the paper.\n"
    "* **not comparable**: a wall time (other machine, other language) or a count of state-action pairs (the "
    "paper does not say what its state-action key contains).\n\n"
    "Test win rates are those of agents that keep learning during the tests, as the paper's code does.")

#: The verdicts, in the order the book counts them.
VERDICTS = ("reproduced", "differs", "not produced by its code", "not comparable")
#: Which of our agents each reading of the paper's published code stands for (our agent in that code's
#: configuration): ``experiment -> agent`` of results/comparison.csv.
PAPER_CODE_AGENT = {"sa_vs_mab": "mab-greedy"}

#: A number the paper states in its text rather than in a table: the no-flags ablation ("just avoided risky tiles
#: instead of explicitly flagging them"). The book reads it literally, once, everywhere: agents that never flag
#: (``ext:readings``) are the paper's no-flags agents and are counted; flags kept as private marks (Fig. 10's
#: ablation, ``fig:exp_4``) are the other reading, shown apart and not counted.
NO_FLAGS_READING, NO_FLAGS_OTHER = "never flags", "flags as private marks"
TEXT_CLAIMS = [
    dict(experiment="ablation", metric="win_rate", paper_text="< 0.12", bound=0.12, where="subsec:inires",
         figure="fig:exp_4"),
]


def _metric_name(m: str) -> str:
    return {"win_rate": "win rate", "actions_recorded": "actions recorded",
            "state_actions_recorded": "state-action pairs recorded", "mean_count_perfect": "mean N, perfect actions",
            "mean_count_nonperfect": "mean N, other actions", "mean_count_all": "mean N, all actions",
            "wall_hours": "wall time (hours)"}.get(m, m.replace("_", " "))


def agent_name(a: str) -> str:
    """One spelling per agent, as the book's tables write it (``ucb(c=0.1)`` -> ``ucb:0.1``)."""
    if not isinstance(a, str) or not a:
        raise ValueError(f"agent must be a non-empty string, got {a!r}")
    out = a
    for long, short in (("egreedy(e=", "egreedy:"), ("ucb(c=", "ucb:")):
        if out.startswith(long):
            close = out.index(")")
            out = short + out[len(long):close] + out[close + 1:]
    return out


def _where(r) -> dict:
    """The agent and what it was trained and tested on, as separate short columns."""
    test = r["eval_setting"]
    return {"agent": agent_name(r["agent"]),
            "trained on": "" if pd.isna(r["train_setting"]) else r["train_setting"],
            "games": "" if pd.isna(r["train_episodes"]) else f"{int(r['train_episodes']):,}",
            "tested on": "(training)" if pd.isna(test) or test == "training" else test}


def _fmt(v, digits=4):
    if isinstance(v, str):
        return v
    if pd.isna(v):
        return "—"
    if float(v).is_integer() and abs(v) >= 100:
        return f"{v:,.0f}"
    return f"{v:,.2f}" if abs(v) >= 10 else f"{v:.{digits}f}"


def _claim_rows(no_flags: pd.DataFrame, reading: str, claim: dict, tol: float):
    """The no-flags claim judged on the agents of one reading of :func:`sweeper.viz.figures.readings`."""
    need = {"agent", "reading", "win_rate", "ci_low", "ci_high", "games"}
    if not need <= set(no_flags.columns):
        raise ValueError(f"no-flags table lacks columns {sorted(need - set(no_flags.columns))}")
    sel = no_flags[no_flags["reading"].astype(str).str.startswith(reading)]
    if sel.empty:
        raise ValueError(f"no-flags table has no {reading!r} rows")
    for _, r in sel.iterrows():
        v = "reproduced" if r["ci_low"] - tol < claim["bound"] else "differs"
        yield r, v


def _paper_code_index(paper_code) -> dict:
    """(experiment, agent, board, games, metric) -> (value, low, high) of the paper's published code."""
    if paper_code is None:
        return {}
    need = {"experiment", "train_setting", "train_episodes", "metric", "value", "ci_low", "ci_high"}
    if not need <= set(paper_code.columns):
        raise ValueError(f"paper-code table lacks columns {sorted(need - set(paper_code.columns))}")
    unknown = set(paper_code["experiment"]) - set(PAPER_CODE_AGENT)
    if unknown:
        raise ValueError(f"paper-code rows of unknown experiments {sorted(unknown)}; known: {list(PAPER_CODE_AGENT)}")
    return {(r["experiment"], PAPER_CODE_AGENT[r["experiment"]], r["train_setting"], int(r["train_episodes"]),
             r["metric"]): (float(r["value"]), r["ci_low"], r["ci_high"]) for _, r in paper_code.iterrows()}


def _within(value, low, high, paper, tol, metric) -> bool:
    """The rule for *reproduced*: a win rate inside the interval widened by ``tol``, a count within 1%."""
    if metric == "win_rate":
        return low - tol <= paper <= high + tol
    return abs(value - paper) <= COUNT_TOLERANCE * abs(paper)


def verdicts(comparison: pd.DataFrame, seed_sd: float, no_flags: pd.DataFrame,
             paper_code: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per number the paper publishes (tables and the no-flags bound of its text), beside ours,
    with a verdict by :data:`VERDICT_RULE`. ``comparison`` is results/comparison.csv; ``seed_sd`` the largest
    standard deviation of the final training win rate between seeds (see :func:`figures.final_by_seed`);
    ``no_flags``: :func:`sweeper.viz.figures.readings`' first table, whose agents that never flag are judged
    against the paper's no-flags bound (the book's one reading, :data:`NO_FLAGS_READING`); ``paper_code``: what
    the paper's published code gives, one row per number (``experiment``, ``train_setting``, ``train_episodes``,
    ``metric``, ``value``, ``ci_low``, ``ci_high``; see :func:`sweeper.viz.figures.paper_code_numbers`), which
    judges the paper's number in the row of our agent in that code's configuration (:data:`PAPER_CODE_AGENT`)."""
    need = {"experiment", "agent", "metric", "ours", "ci_low", "ci_high", "paper", "train_setting",
            "train_episodes", "eval_setting", "paper_source"}
    if not need <= set(comparison.columns):
        raise ValueError(f"comparison table lacks columns {sorted(need - set(comparison.columns))}")
    if not (isinstance(seed_sd, (int, float)) and seed_sd >= 0 and math.isfinite(seed_sd)):
        raise ValueError(f"seed_sd must be a finite number >= 0, got {seed_sd!r}")
    tol = 2 * seed_sd
    code = _paper_code_index(paper_code)
    c = comparison[comparison["paper"].notna() & (comparison["metric"] != "win_rate_frozen")]
    rows = []
    for _, r in c.iterrows():
        m = r["metric"]
        if m in ("wall_hours", "state_actions_recorded"):
            v = "not comparable"
        else:
            v = "reproduced" if _within(r["ours"], r["ci_low"], r["ci_high"], r["paper"], tol, m) else "differs"
        interval = "" if pd.isna(r["ci_low"]) else f" [{r['ci_low']:.4f}, {r['ci_high']:.4f}]"
        key = (r["experiment"], r["agent"], r["train_setting"], int(r["train_episodes"]) if pd.notna(
            r["train_episodes"]) else None, m)
        if key in code:
            value, low, high = code[key]
            if not _within(value, low, high, r["paper"], tol, m):
                v = "not produced by its code"
            interval += "; the paper's code: " + _fmt(value) + (
                "" if pd.isna(low) else f" [{low:.4f}, {high:.4f}]")
        src = str(r["paper_source"])
        label = next((lab for key, lab in _SOURCE.items() if src.startswith(key)), None)
        where = (paper_section(label, title=True) if label in PAPER_SECTIONS else paper_ref(label)) if label else src
        rows.append({**_where(r), "quantity": _metric_name(m),
                     "paper": _fmt(r["paper"]), "ours [95% interval]": _fmt(r["ours"]) + interval,
                     "ours − paper": (f"{(r['ours'] - r['paper']) * 100:+.2f} pts" if m == "win_rate"
                                      else f"{(r['ours'] / r['paper'] - 1):+.1%}"),
                     "verdict": v, "paper's source": where, "chapter": CHAPTER.get(r["experiment"], "")})
    for claim in TEXT_CLAIMS:
        for r, v in _claim_rows(no_flags, NO_FLAGS_READING, claim, tol):
            rows.append({"agent": f"{agent_name(r['agent'])}, never flags", "trained on": "8x8x10",
                         "games": f"{int(r['games']):,}", "tested on": "(training)",
                         "quantity": _metric_name(claim["metric"]), "paper": claim["paper_text"],
                         "ours [95% interval]": f"{r['win_rate']:.4f} [{r['ci_low']:.4f}, {r['ci_high']:.4f}]",
                         "ours − paper": f"{(r['win_rate'] - claim['bound']) * 100:+.2f} pts above the bound"
                         if r["win_rate"] > claim["bound"] else "below the bound",
                         "verdict": v,
                         "paper's source": f"{paper_section(claim['where'])} text, {paper_ref(claim['figure'])}",
                         "chapter": CHAPTER[claim["experiment"]]})
    return pd.DataFrame(rows)


def reading_verdicts(no_flags: pd.DataFrame, sa: pd.DataFrame, seed_sd: float) -> pd.DataFrame:
    """The other readings (:func:`sweeper.viz.figures.readings`) judged by the same rule as :func:`verdicts`,
    not counted there: the no-flags agents with their flags kept as private marks (Fig. 10's ablation) against
    the paper's bound, and the state-action agent with its flags hidden against the paper's Table II win rates
    (where the paper has a value)."""
    if not (isinstance(seed_sd, (int, float)) and seed_sd >= 0 and math.isfinite(seed_sd)):
        raise ValueError(f"seed_sd must be a finite number >= 0, got {seed_sd!r}")
    tol = 2 * seed_sd
    rows = []
    for claim in TEXT_CLAIMS:
        for r, v in _claim_rows(no_flags, NO_FLAGS_OTHER, claim, tol):
            rows.append({"number": f"{r['agent']} with flags as private marks, 8x8x10 ({r['games']:,} games): "
                                   "win rate",
                         "paper": claim["paper_text"],
                         "ours [95% interval]": f"{r['win_rate']:.4f} [{r['ci_low']:.4f}, {r['ci_high']:.4f}]",
                         "verdict": v, "chapter": CHAPTER[claim["experiment"]]})
    for _, r in sa.dropna(subset=["paper: win rate"]).iterrows():
        low, high, ours = r["flags hidden: low"], r["flags hidden: high"], r["flags hidden: win rate"]
        rows.append({"number": f"state-action, flags hidden from the state, {r['board']} ({r['games']:,} games): "
                               "win rate", "paper": _fmt(r["paper: win rate"]),
                     "ours [95% interval]": f"{ours:.4f} [{low:.4f}, {high:.4f}]",
                     "verdict": "reproduced" if low - tol <= r["paper: win rate"] <= high + tol else "differs",
                     "chapter": CHAPTER["sa_vs_mab"]})
    return pd.DataFrame(rows, columns=["number", "paper", "ours [95% interval]", "verdict", "chapter"])


def verdict_counts(table: pd.DataFrame) -> pd.Series:
    """How many paper numbers get each verdict of :data:`VERDICTS`."""
    return table["verdict"].value_counts().reindex(list(VERDICTS), fill_value=0)


def linked(table: pd.DataFrame) -> pd.DataFrame:
    """The verdict table as the book page shows it: the key columns first (which number, the paper's value,
    ours, the verdict, the chapter as an HTML link), then the difference and the paper's source."""
    t = table.copy()
    games = [f" ({g} games)" if g else "" for g in t["games"]]
    tested = ["" if x == "(training)" else f", tested on {x}" for x in t["tested on"]]
    t["number"] = [f"{a}, {tr}{g}{te}: {q}" for a, tr, g, te, q in
                   zip(t["agent"], t["trained on"], games, tested, t["quantity"])]
    t["chapter"] = [f'<a href="{ch}.html">{CHAPTER_TITLES.get(ch, ch)}</a>' if ch else "" for ch in t["chapter"]]
    return t[["number", "paper", "ours [95% interval]", "verdict", "chapter", "ours − paper", "paper's source"]]
