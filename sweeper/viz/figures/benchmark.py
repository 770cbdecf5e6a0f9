"""The leaderboard page: every agent of the book on the benchmark's boards (the stored runs of ``ext:benchmark`` at
the page's scale, and, at paper scale, ``ext:benchmark_neural_work``: the book's networks, of the optional extra).

Nothing here computes a result: the functions read stored runs, or take the frames those give, so a test can hand
them made ones. Every win rate of a trained learner is shown per seed and over its seeds (a Student t-interval over
the seeds' rates) beside the pooled Wilson interval; verdicts between two learners come from
:func:`~sweeper.experiments.stats.compare_seeds`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...agents.rule_library import book_rules, rule_title
from ...experiments import specs as ex
from ...experiments.stats import SEED_METHOD, compare_seeds, seed_half_width, seed_summary, seeds_to_resolve
from ...experiments.reproduce import store_for
from .results import ensure_spec, scale

#: How the agents are named on the page (the neural networks are named by the level they were trained on).
#: The plug-in rules are named from the rule library (its ``BOOK_RULES``: one edit adds a rule everywhere).
LABELS = {"solver": "exact solver", "search": "searching solver", "random": "random clicks", "greedy": "greedy table",
          "egreedy:0.01": "ε-greedy table", "ucb:0.1": "UCB table", "thompson": "Thompson table",
          **{spec: f"{rule_title(spec)} rule" for spec in book_rules()},
          "best-window:8x8x10": "best window (beg.)", "best-window:16x16x40": "best window (int.)",
          "ppo:tiles": "PPO (per tile)", "ppo:cnn": "PPO (CNN)"}
LEVEL_OF = {"8x8x10": "beginner", "16x16x40": "intermediate", "16x30x99": "expert"}
SHORT = {"8x8x10": "beg.", "16x16x40": "int.", "16x30x99": "exp."}
#: What each short label stands for (the page's key to its tables).
KEY = ("exact solver: the one-step solver, which clicks a safest tile by the exact probabilities (the regret's "
       "oracle, so its regret is 0 by construction); searching solver: the same probabilities, guesses chosen by "
       "what a click is expected to reveal and an exact endgame search ([How good can it get?](11_how_good.html)), "
       "the ceiling; greedy, ε-greedy (ε = 0.01) and UCB (c = 0.1) tables: the paper's agents; Thompson table: "
       "Thompson sampling on the same table; " + ", ".join(f"{rule_title(r)} (`{r}`)" for r in book_rules())
       + " rules: the plug-in rules of the chapter \"Write your own bandit\", with their default parameters; "
       "best window (beg., int.): the best window agent of beginner or intermediate boards; "
       "network (beg., int., exp.): the neural bandit trained on that level; network, symmetric: the same network "
       "playing on the mean of its outputs over the board's rotations and reflections, scored on its own level; PPO (per tile) and PPO (CNN): the deep-RL "
       "chapter's two MaskablePPO policies, trained on beginner")


def label(agent: str, facts: dict | None = None) -> str:
    """The page's name of an agent spec of the benchmark's runs."""
    if agent.startswith(("neural:", "neural-symmetric:")):
        how = ", symmetric" if agent.startswith("neural-symmetric:") else ""
        return f"network{how} ({SHORT.get((facts or {}).get('board'), '?')})"
    if agent.startswith("stored-ppo:"):  # a fresh-board run of a stored PPO policy: named as the policy's run
        return LABELS.get((facts or {}).get("trained_as"), agent)
    return LABELS.get(agent, agent)


def stored_outputs() -> list:
    """``(task, output)`` of every stored benchmark run the page shows: ``ext:benchmark`` at the page's scale (an
    error naming the command when one is missing), and at paper scale the runs of the optional extra,
    ``ext:benchmark_neural_work`` (the book's networks) and ``ext:benchmark_ppo`` (the PPO policies), each spec when all its
    runs are stored (else none of it: the page says so)."""
    st, tasks = ensure_spec("ext:benchmark")
    out = [(t, st.load(t)) for t in tasks]
    if scale() == "paper":
        paper = store_for(None, "paper")
        for spec in EXTRA_SPECS:
            runs = ex.all_tasks([spec], "paper")
            if runs and all(paper.status(t) == "ok" for t in runs):  # all or none: never a partial set of seeds
                out += [(t, paper.load(t)) for t in runs]
    return out


#: The scoring of the networks, per recipe (the keys of :data:`~sweeper.viz.figures.neural.RECIPES`): the book's
#: networks (``work``) and the chapter's first ones (``cpu``, an ablation the leaderboard does not show).
NETWORK_SPECS = {"work": ("ext:benchmark_neural_work", "ext:benchmark_neural_work_symmetric"),
                 "cpu": ("ext:benchmark_neural", "ext:benchmark_neural_symmetric")}
#: The PPO policies' scoring.
PPO_SPECS = ("ext:benchmark_ppo",)
#: The specs of the optional extra whose runs the leaderboard adds at paper scale: the book's networks and PPO.
EXTRA_SPECS = NETWORK_SPECS["work"] + PPO_SPECS


#: The players without training: no counted work to record.
UNTRAINED = ("solver", "search", "random", "best window")
#: What a trained run records of its training's counted work, by kind (a PPO policy's decisions are its ``steps``).
WORK_FACTS = {"table": ("train_decisions", "checkpoint_train_decisions"),
              "neural bandit": ("train_decisions", "train_updates"), "PPO": ("steps",)}
#: How the cost chart groups the learners (one colour each).
FAMILIES = ("table agent", "plug-in rule", "neural bandit", "PPO")


def family(kind: str, spec: str) -> str:
    """The family of a trained learner on the cost chart: a table agent, a plug-in rule (a table too), the neural
    bandit or PPO."""
    if kind == "table":
        return "plug-in rule" if spec.startswith("rule:") else "table agent"
    return kind


def _work(t, i: dict) -> dict:
    """A run's counted work of training: ``train_decisions``, ``train_updates`` (a network's gradient steps, else
    NaN) and ``checkpoints`` (a table agent's decisions at each checkpoint); an error naming the migration when a
    trained run was stored before the benchmark counted work."""
    kind = i.get("kind", "")
    if kind in UNTRAINED:
        return {"train_decisions": np.nan, "train_updates": np.nan, "checkpoints": []}
    missing = [k for k in WORK_FACTS.get(kind, ("train_decisions",)) if k not in i]
    if missing:
        raise ValueError(f"the stored benchmark run {t.id} ({i.get('agent')}, seed {t.params.get('seed')}) records "
                         f"no counted work of its training ({', '.join(missing)}): it was stored before the benchmark "
                         f"counted work; `python -m sweeper.experiments.migrate` adds it")
    return {"train_decisions": float(i["steps"] if kind == "PPO" else i["train_decisions"]),
            "train_updates": float(i["train_updates"]) if kind == "neural bandit" else np.nan,
            "checkpoints": i.get("checkpoint_train_decisions", [])}


def benchmark_runs(outputs=None) -> dict:
    """The stored runs as tidy frames: ``scores`` (one row per run and level: label, seed, the score's columns,
    training games, the training's counted work, ``train_decisions`` (a PPO policy's environment steps) and
    ``train_updates`` (a network's gradient steps), its process CPU seconds as recorded, test CPU seconds as
    recorded), ``games`` (one row per run, level and board: label, seed, won) and ``checkpoints`` (label, seed,
    games trained, decisions and CPU seconds of training so far, win rate on the first boards of the training
    level's suite). A trained run stored before the benchmark counted work is an error naming the migration."""
    outputs = stored_outputs() if outputs is None else outputs
    scores, games, points = [], [], []
    for t, out in outputs:
        i = out.info
        name, seed = label(i["agent"], i), int(t.params["seed"])
        work = _work(t, i)
        cpu = i.get("train_cpu_seconds", np.nan)
        s = out.tables["scores"].assign(label=name, seed=seed, train_games=i.get("games", 0), train_cpu_seconds=cpu,
                                        train_decisions=work["train_decisions"], train_updates=work["train_updates"],
                                        kind=i.get("kind", ""), spec=i["agent"], train_board=i.get("board", ""),
                                        source=i.get("source", ""),
                                        cpu=i.get("machine", {}).get("cpu", "not recorded"))
        s["test_cpu_seconds"] = s["level"].map(i["test_cpu_seconds"])
        scores.append(s)
        games.append(out.tables["games"].assign(label=name, seed=seed))
        c = out.tables["checkpoints"]
        if len(c):
            points.append(c.assign(label=name, seed=seed, train_decisions=work["checkpoints"],
                                   train_cpu_seconds=i["checkpoint_train_cpu_seconds"]))
    return {"scores": pd.concat(scores, ignore_index=True), "games": pd.concat(games, ignore_index=True),
            "checkpoints": pd.concat(points, ignore_index=True) if points else pd.DataFrame()}


def outcomes(games: pd.DataFrame, who: str, level: str) -> list:
    """One array of game outcomes (0/1) per seed of agent ``who`` (a label) on ``level``, seeds in order."""
    g = games[(games["label"] == who) & (games["level"] == level)]
    return [grp.sort_values("board")["won"].to_numpy(int) for _, grp in g.groupby("seed")]


def _bench_test_us(record=None):
    """``(spec, level) -> µs`` per test decision at the committed bench (NaN where the bench has no such unit)."""
    from ...bench import bench_learner, unit_costs
    u = unit_costs(record)
    test = u[u["what"] == "test"].set_index(["learner", "level"])["us_per_decision"].to_dict()
    return lambda spec, level: float(test.get((bench_learner(spec), level), np.nan))


def leaderboard(runs: dict, level: str, record=None) -> pd.DataFrame:
    """One row per agent on ``level`` (its seeds together), best first: seeds, the mean win rate over the seeds with
    its t-interval (or, for one run, the Wilson interval), the seeds' lowest and highest rates, the pooled rate with
    its Wilson interval, safe tiles revealed, the training's counted work (means over the seeds: games, decisions, a
    PPO policy's environment steps, and a network's gradient steps), test CPU per decision at the committed bench
    (``record`` as for :func:`sweeper.bench.unit_costs`; NaN where it has no unit) and as the runs recorded it (a
    record only), and regret per decision (means over the seeds)."""
    s = runs["scores"][runs["scores"]["level"] == level]
    bench_us, rows = _bench_test_us(record), []
    for who, g in s.groupby("label", sort=False):
        summ = seed_summary(outcomes(runs["games"], who, level))
        one = summ["n_seeds"] == 1
        rows.append({"agent": who, "kind": g["kind"].iloc[0], "seeds": summ["n_seeds"],
                     "boards": int(g["games"].iloc[0]),
                     "win rate": summ["mean"],
                     "low": summ["pooled_low"] if one else summ["low"], "high": summ["pooled_high"] if one else summ["high"],
                     "seed min": summ["min"], "seed max": summ["max"], "pooled low": summ["pooled_low"],
                     "pooled high": summ["pooled_high"], "safe revealed": g["safe_revealed"].mean(),
                     "training games": g["train_games"].mean(), "training decisions": g["train_decisions"].mean(),
                     "gradient steps": g["train_updates"].mean(),
                     "test µs / decision": bench_us(g["spec"].iloc[0], level),
                     "recorded µs / decision": (1e6 * g["test_cpu_seconds"] / g["decisions"]).mean(),
                     "regret / decision": g["regret_per_decision"].mean()})
    return pd.DataFrame(rows).sort_values("win rate", ascending=False, kind="stable").reset_index(drop=True)


def rate_text(v: float) -> str:
    """A rate as the page prints it: three decimals, or, for a rate above 0 that would print as 0.000, its first
    significant digit (``0.0004``)."""
    v = 0.0 if abs(v) < 1e-12 else float(v)
    d = 3 if v == 0 or abs(v) >= 0.0005 else min(7, -int(np.floor(np.log10(abs(v)))))
    return f"{v:.{d}f}"


def interval_text(mean: float, low: float, high: float) -> str:
    """A mean and its interval as the page prints them (:func:`rate_text`): ``0.738 [0.719, 0.758]``. A bound that
    would print as the mean it is not gets the decimals that tell them apart, as far as the printed interval still
    holds the printed mean: ``0.000 [0.000, 0.0004]``, never ``0.000 [0.000, 0.000]``."""
    m = rate_text(mean)

    def bound(v: float, side: int) -> str:
        text = rate_text(v)
        while float(text) == float(m) and abs(v - mean) > 1e-12 and len(text) < 9:
            longer = f"{v:.{len(text) - 1}f}"  # one decimal more
            if side * (float(longer) - float(m)) < 0:  # it would leave the printed mean outside
                break
            text = longer
        return text
    return f"{m} [{bound(low, -1)}, {bound(high, 1)}]"


#: The leaderboard table's columns by what they tell: how an entry plays, and what its training and its play cost.
TABLE_PARTS = {"wins": ["win rate [95%]", "seeds", "revealed", "regret/dec."], "cost": ["trained", "µs/dec."]}


def leaderboard_table(board: pd.DataFrame, part: str | None = None) -> pd.DataFrame:
    """:func:`leaderboard` for the page: short columns, numbers as text, rates in three decimals (:func:`rate_text`);
    ``part``: only the columns of :data:`TABLE_PARTS` ``[part]``."""
    f = lambda v, fmt: "" if pd.isna(v) else format(v, fmt)  # noqa: E731
    table = pd.DataFrame({
        "win rate [95%]": [interval_text(r["win rate"], r["low"], r["high"]) for _, r in board.iterrows()],
        "seeds": [f"{r.seeds}" if r.seeds == 1 else
                  f"{r.seeds}: {rate_text(r['seed min'])}–{rate_text(r['seed max'])}" for _, r in board.iterrows()],
        "revealed": board["safe revealed"].map(lambda v: f"{100 * v:.0f}%"),
        "trained": [work_text(r["kind"], r["training games"], r["training decisions"], r["gradient steps"])
                    for _, r in board.iterrows()],
        "µs/dec.": board["test µs / decision"].map(lambda v: f(v, ",.0f")),
        "regret/dec.": board["regret / decision"].map(lambda v: f(v, ".4f"))},
    ).set_index(board["agent"].rename("agent"))
    return table if part is None else table[TABLE_PARTS[part]]


def levels(runs: dict) -> list:
    """The levels the stored runs score, in the order of the benchmark's suites."""
    return [lv for lv in LEVEL_OF.values() if (runs["scores"]["level"] == lv).any()]


def forest(runs: dict, level: str) -> dict:
    """The leaderboard of ``level`` as its forest plot draws it: ``rows``, one per entry, best mean first (agent,
    ``family``: :func:`family` of a learner, "untrained" for a player without training; seeds, the mean win rate,
    ``low`` and ``high``, ``interval``: "t over seeds", or "Wilson" for one run or seeds that all scored the same,
    and ``text``: :func:`interval_text`), and ``seeds``, one row per seed of a learner (agent, family, seed, win
    rate on the same boards)."""
    board = leaderboard(runs, level)
    s = runs["scores"][runs["scores"]["level"] == level]
    fam = {r.label: "untrained" if r.kind in UNTRAINED else family(r.kind, r.spec)
           for r in s.drop_duplicates("label").itertuples()}
    spread = (board["seeds"] > 1) & (board["seed min"] < board["seed max"])
    rows = pd.DataFrame({"agent": board["agent"], "family": board["agent"].map(fam), "seeds": board["seeds"],
                         "win_rate": board["win rate"], "low": board["low"], "high": board["high"],
                         "interval": np.where(spread, "t over seeds", "Wilson"),
                         "text": [interval_text(r["win rate"], r["low"], r["high"]) for _, r in board.iterrows()]})
    seeds = s[s["label"].map(fam) != "untrained"]
    seeds = pd.DataFrame({"agent": seeds["label"], "family": seeds["label"].map(fam), "seed": seeds["seed"],
                          "win_rate": seeds["win_rate"]}).reset_index(drop=True)
    return {"rows": rows, "seeds": seeds}


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def count_text(v) -> str:
    """A count in three significant digits: ``23.6M``, ``1.43M``, ``161k``, ``15k``, ``640``; an exact power of ten
    of at least a million as ``10⁶``."""
    if v >= 1e6 and float(v) == 10 ** round(np.log10(v)):
        return "10" + str(round(np.log10(v))).translate(_SUPERSCRIPT)
    v = float(f"{float(v):.3g}")
    for div, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if v >= div:
            return f"{v / div:g}{unit}"
    return f"{v:g}"


def work_text(kind: str, games, decisions, steps) -> str:
    """A learner's counted work of training as the leaderboard's "trained" column shows it: a table agent's games
    and decisions (``10⁶ games, 23.5M dec.``), a network's decisions and gradient steps (``1.43M dec., 15k
    steps``), a PPO policy's environment steps (``161k env steps``); nothing for a player without training."""
    if kind in UNTRAINED or pd.isna(decisions):
        return ""
    if kind == "PPO":
        return f"{count_text(decisions)} env steps"
    if kind == "neural bandit":
        return f"{count_text(decisions)} dec., {count_text(steps)} steps"
    return f"{count_text(games)} games, {count_text(decisions)} dec."


#: What the column of counted work counts (the caption's words).
WORK_KEY = ("the mean over the seeds (M: millions, k: thousands): a table "
            "agent's training games and its decisions (dec.: clicks after the opening, one table update each); a "
            "network's decisions, its curriculum's included, and its gradient steps (one Adam step each); a PPO "
            "policy's environment steps (one decision each)")


def leaderboard_caption() -> str:
    """The caption under the leaderboard's charts and tables (:func:`forest`, :func:`leaderboard_table` with
    ``part="wins"``): what each column holds."""
    return ("*Per level, best first. In the chart, a row per entry: a learner's mean win rate over its seeds (the "
            "tick) with the Student t-interval over them (the pale bar) and each seed's rate (the dots); a player "
            "without training, one run, in grey, with the Wilson interval of its games, as for seeds that all scored "
            "the same. In the table, \"win rate [95%]\": the same mean and interval in three decimals, more where "
            "three would print a rate above 0 as 0.000 or a bound as the mean; \"seeds\": how many, and the lowest "
            "and the highest seed's rate; \"revealed\": safe tiles revealed per game; \"regret/dec.\": regret per "
            "click against the exact one-step oracle, the mean over the seeds.*")


def verdict(runs: dict, a: str, b: str, level: str) -> str:
    """A sentence comparing two learners (labels) on ``level`` at the level of seeds (see
    :data:`~sweeper.experiments.stats.SEED_METHOD`), and what the pooled intervals alone would have said."""
    c = compare_seeds(outcomes(runs["games"], a, level), outcomes(runs["games"], b, level))
    na, nb = c["n_seeds"]
    boards = len(outcomes(runs["games"], a, level)[0])
    signed = lambda v: f"{v + 0.0:+.3f}".replace("-0.000", "+0.000")  # noqa: E731  (no "-0.000")
    diff = f"a difference of {signed(c['difference'])}"
    ci = "" if np.isnan(c["low"]) else f" [{signed(c['low'])}, {signed(c['high'])}]"
    text = {"more than": "wins more than", "less than": "wins less than", "level with": "is level with",
            "cannot be told apart": "cannot be told apart from"}[c["verdict"]]
    pooled = {"more than": "more", "less than": "less", "overlapping": "an overlap"}[c["pooled_verdict"]]
    agree = "agree" if (c["verdict"], c["pooled_verdict"]) in (("more than", "more than"), ("less than", "less than")) \
        or (c["verdict"] in ("level with", "cannot be told apart") and c["pooled_verdict"] == "overlapping") \
        else "would have claimed more"
    return (f"On {level}, the {a} {text} the {b}: {diff}{ci} in win rate ({na} and {nb} seeds, each on the same "
            f"{boards:,} boards). The pooled Wilson intervals, counting every game as independent, show {pooled}: "
            f"they {agree}.")


def suites_table() -> pd.DataFrame:
    """The benchmark's suites as the manifest describes them: board, opening, boards, seed and checksum."""
    from ...experiments.benchmark import manifest
    m = pd.DataFrame(manifest()["suites"])
    return pd.DataFrame({"board": m["board"], "opening": m["opening"], "boards": m["games"].map(lambda v: f"{v:,}"),
                         "seed": m["seed"], "layouts sha256": m["layouts_sha256"].str[:16] + "…"}
                        ).set_index(m["name"].rename("suite"))


def method_note() -> str:
    """How the page's intervals and verdicts are made (one sentence)."""
    return f"Verdicts between two learners: {SEED_METHOD} (a margin of ±0.01 here)."


def clock_note(pairs: pd.DataFrame) -> str:
    """Why training cost is counted work, worded from the stored runs: the same PPO networks trained twice (the
    rows of :func:`~sweeper.viz.figures.deep.ppo_pairs` that took the same budget, environment steps and training
    games, seed for seed) and the factor between the process CPU seconds the two runs recorded (lowest and highest
    over the pairs)."""
    same = pairs[pairs["same"]] if len(pairs) else pairs
    if same.empty:
        return ("Training cost is counted work: decisions, with gradient or environment steps beside them. Process "
                "CPU seconds measured on a shared machine vary with its load; seconds come only from "
                "`python -m sweeper bench`.")
    a, b = same["cpu_seconds"], same["bench_cpu_seconds"]
    ratio = np.maximum(a, b) / np.minimum(a, b)
    worst = same.loc[ratio.idxmax()]
    names = {"tiles": "per-tile", "cnn": "CNN"}
    name = lambda p: names.get(p, p)  # noqa: E731
    return (f"**Training cost is counted work**: decisions (a table agent's clicks, a network's decisions, a PPO "
            f"policy's environment steps), with gradient steps beside them where there are any, never seconds: the "
            f"process CPU seconds of a training measured on a shared machine vary with its load. The deep-RL "
            f"chapter's {len(same)} PPO networks ({', '.join(map(name, same['policy'].unique()))}; seeds "
            f"{', '.join(str(x) for x in sorted(same['seed'].unique()))}) were trained twice, with the same seeds, "
            f"environment steps and training games, and the two runs of each recorded CPU seconds "
            f"{ratio.min():.2f} to {ratio.max():.2f} times apart for the same work (the {name(worst['policy'])} "
            f"network of seed {int(worst['seed'])}: {worst['cpu_seconds']:,.0f} s and "
            f"{worst['bench_cpu_seconds']:,.0f} s, as recorded). A training's cost in seconds is its counted work "
            f"times a unit cost (CPU per decision) that only `python -m sweeper bench` measures, as the fastest of "
            f"three repeats on a quiet machine, and so is every test CPU per decision the leaderboard shows. The "
            f"process CPU a stored run recorded stays in its files, a record: compare two of those only where they "
            f"differ by more than that factor of {ratio.max():.2f}.")


def networks_note(runs: dict) -> str:
    """Which learners of the book are on the leaderboard and which are not, and why."""
    nets = runs["scores"][runs["scores"]["kind"] == "neural bandit"]
    sym = nets[nets["spec"].str.startswith("neural-symmetric:")]
    nets = nets[~nets["spec"].str.startswith("neural-symmetric:")]
    if scale() != "paper":
        first = ("The neural bandit's networks (the optional extra `deep`) are scored from their stored paper-scale "
                 "runs, so they appear only in the paper-scale build of this page.")
    elif len(nets):
        first = (f"The neural bandit's {nets[['label', 'seed']].drop_duplicates().shape[0]} networks are scored from "
                 f"their stored runs of `ext:neural_work`, the book's networks: one recipe, each trained on a budget of "
                 f"decisions (`python -m sweeper reproduce ext:benchmark_neural_work`, which needs the extra `deep`). "
                 f"The chapter's first networks (`ext:neural`, budgets of CPU time) are an ablation of "
                 f"[the neural chapter](05c_neural.html), not shown here.")
        if len(sym):
            first += (f" The same networks also play symmetric ({sym[['label', 'seed']].drop_duplicates().shape[0]} "
                      f"runs of `ext:benchmark_neural_work_symmetric`: the mean of a network's outputs over the board's "
                      f"rotations and reflections, 8 forward passes per decision on a square board and 4 on an "
                      f"oblong one), each on its own level only.")
    else:
        first = ("The neural bandit's networks are not scored yet: `python -m sweeper reproduce "
                 "ext:benchmark_neural_work` (needs the extra `deep`) scores them.")
    ppo = runs["scores"][runs["scores"]["kind"] == "PPO"]
    if len(ppo):
        second = (f" The deep-RL chapter's two PPO policies are trained again by `ext:benchmark_ppo` ("
                  f"{ppo[['label', 'seed']].drop_duplicates().shape[0]} runs, the chapter's budgets) and scored on the "
                  f"beginner boards only: their networks are sized for one board. Each run keeps its policy as a "
                  f"plain-data file (`policy.npz`) that `python -m sweeper benchmark` scores again.")
    elif scale() != "paper":
        second = " The deep-RL chapter's two PPO policies (the extra too) appear in the paper-scale build only."
    else:
        second = (" The deep-RL chapter's two PPO policies are not scored yet: their chapter's runs kept no trained "
                  "policy, and `python -m sweeper reproduce ext:benchmark_ppo` (needs the extra `deep`) trains them "
                  "again with the chapter's budgets and keeps each policy as a plain-data file.")
    return first + second


def verdicts(runs: dict, level: str = "beginner", against: str = "greedy table") -> list:
    """A seed-level verdict (:func:`verdict`) of every learner with two or more seeds against ``against``."""
    s = runs["scores"][runs["scores"]["level"] == level]
    seeds = s.groupby("label")["seed"].nunique()
    if against not in seeds or seeds[against] < 2:
        return [f"The {against} has fewer than two seeds on {level}: no seed-level verdict against it."]
    return [verdict(runs, who, against, level) for who in seeds.index if who != against and seeds[who] >= 2]


def verdicts_read(runs: dict, level: str = "beginner", against: str = "greedy table", resolve: float = 0.01) -> str:
    """How to read the verdicts of :func:`verdicts`: one sentence on multiplicity (how many verdicts at 95% each)
    and one on power: the half-widths of the verdicts' intervals, the spread of seeds a typical one implies (equal
    spreads on both sides), and the seeds a side that would make an interval of half-width ``resolve``."""
    s = runs["scores"][runs["scores"]["level"] == level]
    seeds = s.groupby("label")["seed"].nunique()
    others = [w for w in seeds.index if w != against and seeds[w] >= 2]
    if against not in seeds or seeds[against] < 2 or not others:
        return ""
    games = outcomes(runs["games"], against, level)
    halves = [(c["high"] - c["low"]) / 2 for c in (compare_seeds(outcomes(runs["games"], w, level), games)
                                                    for w in others)]
    n, k, typical = len(others), int(seeds[against]), float(np.median(halves))
    spread = typical / seed_half_width(1.0, k)  # the spread a side that gives the typical half-width
    need = seeds_to_resolve(spread, resolve)
    many = (f"These are {n} verdicts at 95% each. If no learner differed from the {against}, each verdict would "
            f"still say \"more than\" or \"less than\" with a chance of 5%, and at least one of the {n} with a chance "
            f"of up to {1 - 0.95 ** n:.0%} (were they independent; they share the {against}'s seeds), so a single "
            f"verdict near the edge of its interval is weak evidence; holding each to 1 - 0.05/{n} (Bonferroni) "
            f"guards the whole list.") if n > 1 else (
            f"This is one verdict at 95%: were the two learners alike, it would still say \"more than\" or \"less "
            f"than\" with a chance of 5%.")
    return (many + f" What a verdict can resolve is set by the seeds: with {k} seeds a side the "
            f"intervals above have half-widths of {min(halves):.3f} to {max(halves):.3f} (typically {typical:.3f}, "
            f"as if each learner's seeds differed by {spread:.3f}); an interval of half-width {resolve}, which tells a "
            f"true difference of {resolve} from none about half the time, needs about "
            f"{need if need else 'more than 10,000'} seeds a side at that spread.")


def work_sentence(runs: dict, cpu_seconds: float, decisions: int, games: int, spec: str = "greedy",
                  level: str = "beginner") -> str:
    """Cost = counted work × unit cost, for the table agent ``spec``: a training timed on this machine
    (``games`` training games that made ``decisions`` decisions in ``cpu_seconds`` process CPU seconds, compiling
    excluded) gives the CPU per training decision here; times the leaderboard's training decisions of ``spec``
    (mean over its seeds), an estimate of its training's CPU here, set beside the CPU seconds its stored runs
    recorded (their range over the seeds)."""
    s = runs["scores"]
    g = s[(s["spec"] == spec) & (s["level"] == level)]
    if not len(g) or not decisions:
        return f"No stored {spec} run, or no decision timed here: nothing to compare."
    name, unit = LABELS.get(spec, spec), cpu_seconds / decisions
    work, cpu, n = g["train_decisions"].mean(), g["train_cpu_seconds"], g["seed"].nunique()
    here = unit * work
    lo, hi = cpu.min(), cpu.max()
    where = ("inside" if lo <= here <= hi else "below" if here < lo else "above")
    sec = lambda v: f"{v:.0f}" if v >= 10 else f"{v:.2f}"  # noqa: E731
    return (f"Here {games:,} training games of the {name} made {decisions:,} decisions in {cpu_seconds:.2f} CPU "
            f"seconds: {1e6 * unit:.2f} µs per training decision. The leaderboard's {name} made "
            f"{work:,.0f} training decisions (mean of {n} seeds, {int(g['train_games'].iloc[0]):,} games each): at "
            f"this unit cost, {sec(here)} CPU seconds here. Its stored runs recorded {sec(lo)} to {sec(hi)} s "
            f"(mean {sec(cpu.mean())} s, {n} seeds, on {g['cpu'].iloc[0]}), as recorded on a shared machine: a "
            f"spread of {hi / lo:.2f} times for the same count of games, whose decisions differ by "
            f"{100 * (g['train_decisions'].max() / g['train_decisions'].min() - 1):.1f}% at most. The estimate is "
            f"{where} that range ({here / cpu.mean():.2f} times their mean).")


def paper_training(spec: str = "greedy") -> dict:
    """The process CPU seconds of a table agent's training as its stored paper-scale benchmark runs measured them
    (``ext:benchmark``: 10⁶ beginner games, seeds 1-3), as recorded: ``games``, ``cpu_seconds`` (per seed), ``mean``,
    ``seeds`` and the ``cpu`` model of the machine; an error naming the command when the runs are not stored."""
    st = store_for(None, "paper")
    tasks = [t for t in ex.all_tasks(["ext:benchmark"], "paper") if t.params["agent"] == spec]
    if not tasks or any(st.status(t) != "ok" for t in tasks):
        raise ValueError(f"the paper-scale benchmark runs of {spec} are missing: `python -m sweeper reproduce "
                         f"ext:benchmark` computes them")
    info = [st.load(t).info for t in tasks]
    cpu = [i["train_cpu_seconds"] for i in info]
    return {"games": int(info[0]["games"]), "cpu_seconds": cpu, "mean": float(np.mean(cpu)),
            "seeds": [int(t.params["seed"]) for t in tasks], "cpu": info[0]["machine"]["cpu"]}


def chapter_note(d: pd.DataFrame, runs: dict, board: str = "8x8x10") -> str:
    """The how-good chapter's players (``d``: :func:`~sweeper.viz.figures.beyond.how_good`, one trained agent per
    bandit, reference opening) beside the same agents on the leaderboard (the benchmark's boards, every learner on
    its seeds): the two tables' numbers side by side, and which bandits the seeds can order against greedy."""
    level = LEVEL_OF[board]
    if not (runs["scores"]["level"] == level).any():
        return ""
    lb = leaderboard(runs, level).set_index("agent")
    here = d[(d["board"] == board) & (d["opening"] == "reference")].set_index("player")["win_rate"]
    words = {"more than": "wins more than", "less than": "wins less than", "level with": "is level with",
             "cannot be told apart": "cannot be told apart from"}
    parts, verdicts_, apart = [], [], []
    for spec in ("solver", "greedy", "egreedy:0.01", "ucb:0.1", "thompson"):
        name = LABELS[spec]
        if name not in lb.index or spec not in here.index:
            continue
        r = lb.loc[name]
        n = int(r["seeds"])
        seeds = f" (mean of {n} seeds, {r['seed min']:.4f} to {r['seed max']:.4f})" if n > 1 else ""
        parts.append(f"{name} {here[spec]:.4f} here, {r['win rate']:.4f} there{seeds}")
        apart.append(abs(here[spec] - r["win rate"]))
        if spec != "greedy" and n > 1 and LABELS["greedy"] in lb.index:
            c = compare_seeds(outcomes(runs["games"], name, level), outcomes(runs["games"], LABELS["greedy"], level))
            verdicts_.append(f"the {name} {words[c['verdict']]} the greedy table ({c['difference']:+.3f})")
    if not parts:
        return ""
    boards = int(lb["boards"].iloc[0])
    text = (f"This table follows the paper's protocol: one trained agent per bandit, on this experiment's own test "
            f"boards. [The leaderboard](15_benchmark.html) scores the same kinds of player on the benchmark's "
            f"{boards:,} {level} boards, every learner trained on {int(lb['seeds'].max())} seeds. On {level}: "
            + "; ".join(parts) + ". The two columns differ by their boards and, for a learner, by which trained agent "
              f"plays: the same kind of player's two rates are up to {max(apart):.3f} apart.")
    if verdicts_:
        text += (" Whether one bandit beats another is more than one training can tell; over the seeds, on the "
                 "benchmark's boards (Welch's t-interval, as on the leaderboard), " + "; ".join(verdicts_) + ".")
    return text


def tables_frozen(runs: dict, level: str = "beginner") -> pd.DataFrame:
    """The trained table agents of the leaderboard on ``level`` (:func:`leaderboard`'s rows of the learners with a
    table: the paper's, Thompson sampling and the plug-in rules), best first."""
    tables = set(runs["scores"].loc[runs["scores"]["kind"] == "table", "label"])
    board = leaderboard(runs, level)
    return board[board["agent"].isin(tables)].reset_index(drop=True)


def tables_frozen_note(runs: dict, level: str = "beginner") -> str:
    """What :func:`tables_frozen` shows in words: the order by win rate and by regret per decision, and which
    learners the seeds separate from the greedy table."""
    t = tables_frozen(runs, level)
    if t.empty:
        return ""
    regret_games = runs["scores"].loc[runs["scores"]["level"] == level, "regret_games"].max()
    by_rate = ", ".join(t["agent"])
    by_regret = ", ".join(t.sort_values("regret / decision", kind="stable")["agent"])
    same = "the same order" if by_rate == by_regret else "another order"
    text = (f"Frozen after training and scored on the benchmark's {int(t['boards'].iloc[0]):,} {level} boards (each "
            f"learner on {int(t['seeds'].max())} seeds, every seed on the same boards), the table agents sorted by mean "
            f"win rate are {by_rate}; sorted by mean regret per decision (on the first {int(regret_games):,} boards), "
            f"{by_regret}: {same}. Sorting is not ranking: only the seeds can say which differences are real. "
            f"That regret scores clicks only, against the safest tile on offer; this chapter's oracle also "
            f"scores flags, so the two regrets are not on one scale.")
    greedy = LABELS["greedy"]
    if greedy in set(t["agent"]) and int(t.loc[t["agent"] == greedy, "seeds"].iloc[0]) > 1:
        words = {"more than": "win more than", "less than": "win less than", "level with": "are level with",
                 "cannot be told apart": "cannot be told apart from"}
        groups: dict = {}
        for who in t["agent"]:
            if who == greedy or int(t.loc[t["agent"] == who, "seeds"].iloc[0]) < 2:
                continue
            c = compare_seeds(outcomes(runs["games"], who, level), outcomes(runs["games"], greedy, level))
            groups.setdefault(c["verdict"], []).append(who)
        parts = [f"{' and '.join(ws) if len(ws) < 3 else ', '.join(ws[:-1]) + ' and ' + ws[-1]} {words[v]} the "
                 f"greedy table" for v, ws in groups.items()]
        if parts:
            text += " Over the seeds (Welch's t-interval, as on the leaderboard): " + "; ".join(parts) + "."
    return text


def glance_sentence(runs: dict) -> str:
    """Results at a glance: per level, the exact solver, the paper's greedy table and the learner of highest mean
    win rate on the benchmark's boards, and whether the seeds separate that learner from the greedy table."""
    parts = []
    for level in ("beginner", "intermediate", "expert"):
        if not (runs["scores"]["level"] == level).any():
            continue
        lb = leaderboard(runs, level).set_index("agent")
        learners = lb[lb.index.isin(set(runs["scores"].loc[runs["scores"]["kind"].isin(["table", "neural bandit",
                                                                                          "PPO"]),
                                                           "label"]))]
        solver, greedy = LABELS["solver"], LABELS["greedy"]
        if solver not in lb.index or greedy not in lb.index or learners.empty:
            continue
        best = learners.index[0]
        text = (f"on {level} ({int(lb['boards'].iloc[0]):,} boards) the exact solver wins {lb.loc[solver, 'win rate']:.3f}"
                f", the paper's greedy table {lb.loc[greedy, 'win rate']:.3f} (mean of {int(lb.loc[greedy, 'seeds'])} "
                f"seeds)")
        if best != greedy:
            c = compare_seeds(outcomes(runs["games"], best, level), outcomes(runs["games"], greedy, level))
            verdict = {"more than": "more than the greedy table", "less than": "less than the greedy table",
                       "level with": "level with the greedy table",
                       "cannot be told apart": "not told apart from the greedy table by the seeds"}[c["verdict"]]
            text += (f", and the learner of highest mean, the {best}, {lb.loc[best, 'win rate']:.3f} "
                     f"({int(lb.loc[best, 'seeds'])} seeds): {verdict}")
        parts.append(text)
    if not parts:
        return ""
    return "On [the leaderboard](15_benchmark.html): " + "; ".join(parts) + "."


def _work_words(row) -> str:
    """A leaderboard row's counted work of training in words (means over its seeds)."""
    if row["kind"] == "PPO":
        return f"{count_text(row['training decisions'])} environment steps of training"
    steps = "" if pd.isna(row["gradient steps"]) else f" and {count_text(row['gradient steps'])} gradient steps"
    return f"{count_text(row['training decisions'])} decisions{steps} of training"


def ppo_sentence(runs: dict) -> str:
    """The deep-RL chapter's learners on the benchmark's beginner boards: the per-tile PPO, the CNN PPO and the
    beginner networks, each with its training's counted work, and the seed-level verdict of the per-tile PPO against the
    networks (the same trunk, another learning signal); or what is not stored yet."""
    s = runs["scores"]
    have = set(s.loc[s["level"] == "beginner", "label"])
    if scale() != "paper":
        return ("The PPO policies and the networks are scored on the benchmark only at paper scale (they need the "
                "extra `deep`); the paper-scale build of this page reads them.")
    missing = [n for n in ("PPO (per tile)", "PPO (CNN)", "network (beg.)") if n not in have]
    if missing:
        return (f"On the benchmark's boards: not yet, {', '.join(missing)} "
                f"{'is' if len(missing) == 1 else 'are'} not scored (`python -m sweeper reproduce ext:benchmark_ppo "
                f"ext:benchmark_neural_work`, with the extra `deep`).")
    lb = leaderboard(runs, "beginner").set_index("agent")
    part = lambda n: (f"the {n} {lb.loc[n, 'win rate']:.3f} [{lb.loc[n, 'low']:.3f}, {lb.loc[n, 'high']:.3f}] after "  # noqa: E731
                      + _work_words(lb.loc[n]))
    return (f"On the benchmark's {int(lb['boards'].iloc[0]):,} beginner boards, the same for every agent (mean of the "
            f"seeds, with the t-interval over them; the counted work of training, mean of the seeds): "
            + "; ".join(part(n) for n in ("PPO (per tile)", "PPO (CNN)", "network (beg.)"))
            + ". " + verdict(runs, "PPO (per tile)", "network (beg.)", "beginner")
            + " These are the two learners as built, at their budgets: no verdict about the two signals.")


# --------------------------------------------------- page 15's glued prose --

#: The leaderboard entries a policy of one's own is set beside on page 15, board by board: glue prefix: agent spec.
OWN_ENTRIES = {"random": "random", "window": "best-window:8x8x10"}


def own_policy_values(own, runs: dict, entries: dict | None = None, results=None) -> dict:
    """Page 15's policy of one's own (``own``, a :class:`~sweeper.experiments.benchmark.Score` on a public suite)
    beside each leaderboard entry of ``entries`` (default :data:`OWN_ENTRIES`, glue prefix: agent spec) on the same
    boards, the first ``len(own.games)`` both played: a paired comparison of the stored per-board rows
    (:func:`~sweeper.experiments.board_results.compare`: paired bootstrap of the difference in win rate, exact
    McNemar; a learner's seeds by the seed-level verdict). Plain values to glue: ``own_*`` (wins, boards, rate,
    regret per decision with its bootstrap interval) and per entry ``{prefix}_*`` (its rate on these boards, the
    difference own minus it with its interval, ``p`` and the boards only one won, the verdict in words, and its
    leaderboard regret per decision, from stored totals: no regret per board to pair)."""
    from ...experiments.board_results import SAID, compare
    r = own.report()
    out = {"own_wins": int(r["wins"]), "own_boards": int(r["games"]), "own_rate": float(r["win_rate"]),
           "own_regret": float(r["regret_per_decision"]), "own_regret_low": float(r["regret_low"]),
           "own_regret_high": float(r["regret_high"]), "own_regret_boards": int(r["regret_games"])}
    s = runs["scores"]
    for prefix, spec in (OWN_ENTRIES if entries is None else entries).items():
        c = compare(own, spec, results)
        if c["boards"] != len(own.games):
            raise ValueError(f"the entry {spec} holds {c['boards']:,} of the policy's {len(own.games):,} boards")
        regret = s[(s["spec"] == spec) & (s["level"] == own.suite.level)]["regret_per_decision"]
        out.update({f"{prefix}_rate": float(np.mean(c.get("entry_seed_rates") or [c.get("entry_win_rate")])),
                    f"{prefix}_diff": float(c["difference"]), f"{prefix}_low": float(c["low"]),
                    f"{prefix}_high": float(c["high"]), f"{prefix}_verdict": SAID[c["verdict"]],
                    f"{prefix}_regret": float(regret.mean()) if len(regret) else float("nan")})
        if c["test"] == "paired":
            out.update({f"{prefix}_p": f"{c['mcnemar_p']:.2g}", f"{prefix}_only_own": int(c["only_mine"]),
                        f"{prefix}_only_entry": int(c["only_entry"])})
    return out


#: The leaderboard's regret column, said under its tables (page 15).
REGRET_NO_INTERVAL = ("*\"regret/dec.\" has no interval: the stored public runs keep each board's outcome, but their "
                      "regret only as totals over the regret boards, so there is nothing per board to resample. The "
                      "fresh-board tables below give each entry's regret per decision with its interval.*")


def openings_said() -> str:
    """The suites' openings in words for page 15 (``name — help; ...``): each row of the engine's OPENING_TABLE,
    the first click written out as the suites make it (:func:`~sweeper.experiments.suites.first_click`)."""
    from ...experiments.suites import LEVELS, first_click
    from ...game.engine import OPENING_TABLE, Setting, first_click_text
    from .prose import and_list
    parts = []
    for o in OPENING_TABLE:
        text = o.help
        if o.takes_first:
            tiles = {lv: first_click(o.name, Setting.parse(lv)) for lv in LEVELS}
            where = (f"tile {next(iter(tiles.values()))} on every level" if len(set(tiles.values())) == 1 else
                     and_list(f"tile {t} on {lv}" for lv, t in tiles.items()))
            said = f" ({first_click_text(o.first)})"
            text = text.replace(said, f", {where},") if said in text else f"{text} (the first click: {where})"
        parts.append(f"{o.name} — {text}")
    return "; ".join(parts)
