"""The chapter "Deep RL on the same board": the stored runs of ``ext:deep_rl`` beside the paper's greedy agent.

Training the network needs the optional extra ``deep`` (``make deep``), so the chapter always reads the
committed paper-scale runs, whatever :func:`~sweeper.viz.figures.results.scale` says (its quick-scale tests
read them too). Nothing here computes a result.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...experiments import specs as ex
from ...experiments.reproduce import store_for
from ...experiments.stats import compare_seeds, order as interval_order
from ...experiments.stats import wilson
from .prose import and_list

#: The label of the paper's greedy agent in the chapter's tables and charts.
GREEDY = "greedy (bandit)"


def greedy_run() -> dict:
    """The paper's greedy agent beside the networks: ``curve`` (agent, episode, block_win_rate per block of the
    training games of its run of Fig. 7, seed 1), ``games``, ``decisions`` (the training decisions of 10⁶
    games, the mean of its three seeds' stored benchmark runs; NaN while a run has not recorded them),
    ``seconds`` and ``cpu_seconds`` (the process CPU seconds those runs recorded: their mean and each seed's,
    :func:`~sweeper.viz.figures.benchmark.paper_training`)."""
    from .benchmark import paper_training
    st = store_for(None, "paper")
    out = st.load(ex.base_task("greedy", ex.SCALES["paper"], 1))
    c = out.tables["curve"]
    cost = paper_training("greedy")
    done = [st.load(t).info.get("train_decisions") for t in ex.all_tasks(["ext:benchmark"], "paper")
            if t.params["agent"] == "greedy"]
    return {"curve": pd.DataFrame({"agent": GREEDY, "episode": c["episode"], "block_win_rate": c["block_win_rate"]}),
            "games": cost["games"], "decisions": float(np.mean(done)) if None not in done else np.nan,
            "seconds": cost["mean"], "cpu_seconds": list(cost["cpu_seconds"])}


def published_learned_agents() -> pd.DataFrame:
    """Other projects' learned agents as the page shows them (win rates as reported, not measured here)."""
    from ...experiments.paper import published_learned_agents as table
    t = table()
    return pd.DataFrame({"agent": t["agent"], "learning": t["learning"], "board": t["board"],
                         "first click": t["first_click"], "win rate": t["win_rate"].map("{:.1%}".format)}
                        ).set_index("agent")


def published_sources() -> str:
    """Where each row of :func:`published_learned_agents` was reported, row by row, as a sentence (the
    repositories' addresses are too long for a column of the table)."""
    from ...experiments.paper import published_learned_agents as table
    t = table()
    return "Reported by, row by row: " + "; ".join(f"{a}: `{s}`" for a, s in zip(t["agent"], t["source"])) + "."


def training_reported() -> str:
    """How the published learned agents were trained, as reported, where the table of
    :func:`published_learned_agents` states it."""
    from ...experiments.paper import published_learned_agents as table
    rows = [r for r in table().itertuples() if r.training != "not stated here"]
    return ("Training as reported: " + "; ".join(f"the {r.agent} ({r.source.split('/')[-1]}) for {r.training}"
                                                   for r in rows) + ".")


def solvers_beside_published(how_good: pd.DataFrame, paired: pd.DataFrame) -> str:
    """The book's two solvers beside the published learned agents, as the page's sentence: the one-step solver on
    beginner under the chapter's opening (``how_good``: :func:`~sweeper.viz.figures.how_good`) and where its other
    beginner figures come from; then the published figure on 16x16x40 beside both solvers on that board
    (``paired``: :func:`~sweeper.viz.figures.ceiling.paired`, the suites of ``ext:benchmark_search``), and how the
    rules differ."""
    from ...experiments.paper import published_learned_agents as table
    solver = how_good[how_good["player"] == "solver"].set_index(["board", "opening"])
    beg, mid = solver.loc[("8x8x10", "reference")], solver.loc[("16x16x40", "reference")]
    suite = paired.set_index("suite")
    pub = table().set_index("board").loc["16x16x40"]
    ref, zero = suite.loc["intermediate-reference"], suite.loc["intermediate-zero"]
    b = suite.loc["beginner-reference"]
    gap = abs(beg["win_rate"] - b["solver_rate"])
    se = np.sqrt(sum(r * (1 - r) / n for r, n in ((beg["win_rate"], beg["games"]),
                                                  (b["solver_rate"], b["boards"]))))
    noise = "within" if gap < 1.96 * se else "beyond"
    above = pub["win_rate"] > max(ref["search_rate"], zero["search_rate"], mid["win_rate"])
    return (f"The book's exact one-step solver ([How good can it get?](11_how_good.html)) plays this chapter's rules "
            f"with no learning at all: it wins {beg['win_rate']:.1%} of {int(beg['games']):,} beginner games under "
            f"this chapter's opening. The same player's {b['solver_rate']:.3f} on the benchmark's "
            f"{int(b['boards']):,} beginner boards ([The benchmark](15_benchmark.html)) is another deal of the same "
            f"rules; the two differ by {gap:.3f}, {noise} sampling error (1.96 standard errors: {1.96 * se:.3f}). "
            f"The first row's {pub['win_rate']:.1%} on 16x16x40 ({pub['agent']}) is "
            f"{'above' if above else 'not above'} both of this book's solvers on that board: on "
            f"{int(ref['boards']):,} boards each, the one-step solver wins {ref['solver_rate']:.3f} and the "
            f"searching solver {ref['search_rate']:.3f} under the reference opening, {zero['solver_rate']:.3f} and "
            f"{zero['search_rate']:.3f} when the first click, in the corner (0,0), is a 0. Its rules are not these: "
            f"its first click opens a {pub['first_click'].replace(' opening', '')} square, and {pub['note']}. The "
            f"figures are therefore not on equal terms (and the published one rests on a sample this page cannot "
            f"check); the comparison on equal terms is that network's policy scored on this book's boards, as "
            f"[The benchmark](15_benchmark.html) scores an outside policy.")


# ----------------------------------------------------- three seeds, the per-tile policy and the floor --

#: The seeds of the chapter's runs.
SEEDS = (1, 2, 3)
#: Safe tiles of a beginner board (the share of them revealed is the chapter's measure that is not stuck at 0).
BEGINNER_SAFE = 54


def stored_outputs() -> list:
    """``(task, output)`` of every stored run of ``ext:deep_rl`` with :data:`SEEDS`, or one clear error naming
    the command that trains the missing ones."""
    from .results import paper_spec
    st, tasks = paper_spec("ext:deep_rl", SEEDS, needs="`make deep` installs the optional extra 'deep', then ")
    return [(t, st.load(t)) for t in tasks]


def agent_label(params: dict) -> str:
    """A PPO run named short (the page introduces the algorithm): 'CNN, 60,000 steps', 'CNN 5×5 first, 60,000
    steps', 'per tile, 160,000 steps'; the floor is 'random clicks'."""
    if "steps" not in params:
        return "random clicks"
    if params.get("policy", "cnn") == "tiles":
        return f"per tile, {params['steps']:,} steps"
    k = params.get("kernel", 3)
    return f"CNN{'' if k == 3 else f' {k}×{k} first'}, {params['steps']:,} steps"


def _audit(info: dict, board: str = "8x8x10") -> dict:
    return {k[len("audit_"):-len(f"_{board}")]: v for k, v in info.items()
            if k.startswith("audit_") and k.endswith(f"_{board}")}


def deep_runs(outputs=None) -> dict:
    """The stored runs as tidy frames: ``runs`` (one row per trained network and per random floor: agent, policy,
    seed, steps, games, CPU seconds, weights, hyperparameters, its 1,000 test games' wins, safe tiles revealed per
    game and the audit's counts), ``curves`` (agent, seed, per block of training games: episode, cpu_seconds,
    block_win_rate) and ``checkpoints`` (the per-tile policy frozen on the way: seed, steps, games, cpu_seconds,
    wins, test_games, revealed: the share of safe tiles revealed per test game)."""
    outputs = stored_outputs() if outputs is None else outputs
    rows, curves, points = [], [], []
    for t, out in outputs:
        p, i = t.params, out.info
        g = out.tables["tests"]
        g = g[g["test"] == "8x8x10"]
        label = agent_label(p if t.kind == "deep_ppo" else {})
        rows.append({"agent": label, "policy": p.get("policy", "cnn") if t.kind == "deep_ppo" else "random",
                     "kernel": p.get("kernel", 3) if t.kind == "deep_ppo" else np.nan, "seed": p["seed"], "steps": i.get("steps", 0), "games": i.get("games", 0),
                     "cpu_seconds": i.get("train_cpu_seconds", 0.0), "parameters": i.get("parameters", 0),
                     "hyperparameters": i.get("hyperparameters"), "test_games": len(g), "wins": int(g["won"].sum()),
                     "revealed": float(g["revealed"].mean()) / BEGINNER_SAFE if "revealed" in g else np.nan,
                     **{f"audit_{k}": v for k, v in _audit(i).items()}})
        if "curve" in out.tables:
            c = out.tables["curve"]
            curves.append(pd.DataFrame({"agent": label, "seed": p["seed"], "episode": c["episode"],
                                        "cpu_seconds": c["cpu_seconds"], "block_win_rate": c["block_win_rate"]}))
        if "checkpoints" in out.tables:
            c = out.tables["checkpoints"]
            points.append(c.assign(seed=p["seed"], agent=label, revealed=c["revealed"] / BEGINNER_SAFE))
    return {"runs": pd.DataFrame(rows),
            "curves": pd.concat(curves, ignore_index=True) if curves else pd.DataFrame(),
            "checkpoints": pd.concat(points, ignore_index=True) if points else pd.DataFrame()}


def pooled_tests(runs: pd.DataFrame) -> pd.DataFrame:
    """Per agent, its seeds pooled: the seeds, test games and wins with the win rate's 95% Wilson interval, the
    share of safe tiles revealed per game (mean over the seeds, and their range), and over the audited clicks: the
    share made with a tile known to be safe on offer, the share of those that took one, and the share that clicked
    a known mine."""
    out = []
    for agent, g in runs.groupby("agent", sort=False):
        wins, games = int(g["wins"].sum()), int(g["test_games"].sum())
        lo, hi = wilson(wins, games)
        d = g["audit_decisions"].sum()
        safe = g["audit_safe_known"].sum()
        out.append({"agent": agent, "seeds": g["seed"].nunique(), "test_games": games, "wins": wins,
                    "win_rate": wins / games, "lo": lo, "hi": hi, "revealed": float(g["revealed"].mean()),
                    "revealed_min": float(g["revealed"].min()), "revealed_max": float(g["revealed"].max()),
                    "audited": int(d), "safe_on_offer": safe / d if d else np.nan,
                    "took_safe": g["audit_clicked_safe_known"].sum() / safe if safe else np.nan,
                    "known_mine": g["audit_clicked_known_mine"].sum() / d if d else np.nan})
    return pd.DataFrame(out)


def pooled_tests_table(p: pd.DataFrame) -> pd.DataFrame:
    """:func:`pooled_tests` for the page: win rate [95% Wilson], safe tiles revealed per game (the seeds' range is
    in :func:`tests_sentences`), and of the audited clicks the share that took a known safe tile when one was on
    offer and the share that hit a known mine."""
    pct = lambda v: "" if pd.isna(v) else f"{v:.0%}"  # noqa: E731
    return pd.DataFrame({"win rate [95%]": [f"{r.win_rate:.3f} [{r.lo:.3f}, {r.hi:.3f}]" for r in p.itertuples()],
                         "tiles revealed": p["revealed"].map("{:.1%}".format),
                         "safe taken": p["took_safe"].map(pct),
                         "mine hit": p["known_mine"].map(pct)}).set_index(p["agent"].rename(None))


def hyperparameters_table(runs: pd.DataFrame) -> pd.DataFrame:
    """PPO's settings as the stored runs hold them, one column per policy (the rewards in one row)."""
    cols = {}
    for policy, g in runs[runs["policy"] != "random"].groupby("policy", sort=False):
        hp = g["hyperparameters"].iloc[0]
        if not isinstance(hp, dict):
            continue
        r = hp["rewards"]
        cols[policy] = {**{k: (f"{v:g}" if isinstance(v, float) else str(v)) for k, v in hp.items()
                           if k != "rewards"},
                        "rewards": f"win {r['win']:g}, loss {r['loss']:g}, per safe tile {r['reveal']:.4f}",
                        "weights": f"{int(g['parameters'].iloc[0]):,}"}
    return pd.DataFrame(cols)


def signal_points(points: pd.DataFrame, neural_points: pd.DataFrame) -> pd.DataFrame:
    """The per-tile PPO's checkpoints beside the neural bandit's on beginner (the same architecture, two learning
    signals): learner, seed, the work of training so far: ``decisions`` (PPO's environment steps, one click each; the
    network's decisions, its warm start's included), ``gradient_steps`` (the network's; NaN for PPO) and games (a
    network's all its games), the CPU minutes recorded (a record only), frozen test win rate [95% Wilson] and share
    of safe tiles revealed, each on 1,000 test games."""
    rows = []
    for learner, d in (("PPO, per tile (reward)", points),
                       ("neural bandit (labels)", neural_points[neural_points["board"] == "8x8x10"])):
        for r in d.itertuples():
            lo, hi = wilson(int(r.wins), int(r.test_games))
            ppo = learner.startswith("PPO")
            rows.append({"learner": learner, "seed": int(r.seed),
                         "decisions": int(r.steps if ppo else r.decisions_all),
                         "gradient_steps": np.nan if ppo else float(r.updates_all),
                         "games": int(getattr(r, "games_all", r.games)), "cpu_minutes": r.cpu_seconds / 60,
                         "wins": int(r.wins), "test_games": int(r.test_games),
                         "win_rate": r.wins / r.test_games, "lo": lo, "hi": hi, "revealed": float(r.revealed)})
    return pd.DataFrame(rows)


def signal_at_budget(sp: pd.DataFrame) -> pd.DataFrame:
    """The points the signals are compared at (:func:`signal_points`' rows, with ``within``): the per-tile PPO's
    last checkpoint of each seed (the end of its training), and the neural bandit's last checkpoint of each seed
    within the most training decisions of those (``within`` True), or, for a seed with none that early, its first
    checkpoint (``within`` False: it had made more decisions than PPO)."""
    ppo = sp[sp["learner"].str.startswith("PPO")]
    net = sp[~sp["learner"].str.startswith("PPO")].sort_values("decisions")
    if ppo.empty or net.empty:
        return sp.iloc[:0].assign(within=pd.Series(dtype=bool))
    last = ppo.sort_values("decisions").groupby("seed").tail(1).assign(within=True)
    most = float(last["decisions"].max())
    pick = [g[g["decisions"] <= most].tail(1).assign(within=True) if (g["decisions"] <= most).any()
            else g.head(1).assign(within=False) for _, g in net.groupby("seed")]
    return pd.concat([last, *pick], ignore_index=True)


def signal_verdict(sp: pd.DataFrame) -> str:
    """The learning signals compared at :func:`signal_at_budget`'s points, the work first: the per-tile PPO's
    training decisions (its environment steps), pooled frozen win rate and share of safe tiles revealed at the end
    of its training, against the neural bandit's within as many decisions, or, where it has no checkpoint that
    early, at its first one, with how many times PPO's decisions that is. Counted work only: the CPU the runs
    recorded is no measure of it (:func:`clock_noise`), and the bench has no unit for this neural bandit's first
    recipe, so no CPU time is compared."""
    at = signal_at_budget(sp)
    if at.empty:
        return ""
    last = at[at["learner"].str.startswith("PPO")]
    net = at[~at["learner"].str.startswith("PPO")]

    def pooled(d):
        wins, games = int(d["wins"].sum()), int(d["test_games"].sum())
        lo, hi = wilson(wins, games)
        return wins / games, lo, hi
    a, b = pooled(last), pooled(net)
    games = lambda d: [np.r_[np.ones(int(w)), np.zeros(int(n) - int(w))]  # noqa: E731
                       for w, n in zip(d["wins"], d["test_games"])]
    c = compare_seeds(games(last), games(net))
    word = {"more than": "more", "less than": "fewer", "level with": "as many",
            "cannot be told apart": "a number of wins that three seeds cannot tell from the neural bandit's"}[c["verdict"]]
    within, some = bool(net["within"].all()), bool(net["within"].any())
    times = net["decisions"].mean() / last["decisions"].mean()
    work = (f"{net['decisions'].mean():,.0f} decisions on average, its warm start included"
            + ("" if within else f", {times:.1f} times PPO's") + f"; {net['gradient_steps'].mean():,.0f} gradient "
            f"steps and {net['games'].mean():,.0f} games, {len(net)} seeds")
    where = (f"at its last checkpoint within as many decisions ({work}) wins " if within else
             f"at its last checkpoint within as many decisions, or its first for a seed with none that early "
             f"({work}), wins " if some else f"has no checkpoint within as many decisions; at its first ({work}) it "
                                             f"wins ")
    text = (f"After {_listed(sorted(last['decisions'].unique()))} training decisions (its environment steps; "
            f"{len(last)} seeds, {last['games'].mean():,.0f} games on average), the per-tile PPO wins {a[0]:.3f} "
            f"[{a[1]:.3f}, {a[2]:.3f}] of its frozen test games and reveals {last['revealed'].mean():.0%} of the "
            f"safe tiles per game. The neural bandit, the same architecture trained on the end-of-game labels, "
            + where + f"{b[0]:.3f} [{b[1]:.3f}, {b[2]:.3f}] and reveals {net['revealed'].mean():.0%} (pooled Wilson "
              f"intervals; each on its own test boards). Over the seeds, this PPO configuration, with the settings "
              f"above and untuned, won {word} "
            + ("with at least as many training decisions" if within else "at these checkpoints" if some else
               f"after {times:.1f} times fewer training decisions")
            + f" (a difference of {c['difference']:+.3f}"
            + ("" if np.isnan(c["low"]) else f", [{c['low']:+.3f}, {c['high']:+.3f}] by Welch's t-interval") +
            "): a comparison of these two learners as built, not of the two signals.")
    if not within:
        text += (" The stored runs do not show the two after equal work: that needs a neural bandit checkpoint "
                 "within PPO's decisions.")
    if a[0] == 0:
        text += (" PPO won no test game at this budget, so these runs say nothing about what it would reach with "
                 "more training or other settings.")
    return text


def ppo_unit(policy: str, kernel) -> str | None:
    """The bench's learner that a PPO run of ``policy`` and ``kernel`` is (``ppo:tiles``, ``ppo:cnn``: the bench
    times the chapter's 3×3 CNN), or None: the bench has no unit for it."""
    return f"ppo:{policy}" if policy == "tiles" or (policy == "cnn" and kernel == 3) else None


def training_costs(runs: pd.DataFrame, greedy: dict, record=None) -> pd.DataFrame:
    """Per network (its seeds averaged) and for greedy: its training decisions (a PPO policy's environment steps;
    greedy's as its benchmark runs recorded them) and what they cost at the committed bench's unit costs
    (``bench_seconds``: decisions times the bench's CPU per training decision, :func:`sweeper.bench.work_cost`; NaN
    where the bench has no unit), beside the process CPU seconds the runs recorded (``recorded_seconds``, the
    seeds' mean, with ``recorded_min``, ``recorded_max``) and their ``ratio`` (recorded over the bench's)."""
    from ...bench import work_cost
    rows = []
    for agent, g in runs[runs["policy"] != "random"].groupby("agent", sort=False):
        learner = ppo_unit(g["policy"].iloc[0], g["kernel"].iloc[0])
        d = float(g["steps"].mean())
        rows.append({"agent": agent, "decisions": d, "learner": learner,
                     "bench_seconds": np.nan if learner is None else work_cost(learner, "beginner", d, record=record),
                     "recorded_seconds": g["cpu_seconds"].mean(), "recorded_min": g["cpu_seconds"].min(),
                     "recorded_max": g["cpu_seconds"].max()})
    d, cpu = greedy.get("decisions", np.nan), greedy.get("cpu_seconds") or [greedy["seconds"]]
    rows.append({"agent": GREEDY, "decisions": d, "learner": "greedy",
                 "bench_seconds": np.nan if pd.isna(d) else work_cost("greedy", "beginner", d, record=record),
                 "recorded_seconds": greedy["seconds"], "recorded_min": min(cpu), "recorded_max": max(cpu)})
    out = pd.DataFrame(rows)
    return out.assign(ratio=out["recorded_seconds"] / out["bench_seconds"])


def costs_table(runs: pd.DataFrame, greedy: dict, record=None) -> pd.DataFrame:
    """What each network's training cost in work, its seeds averaged: its training decisions (environment steps, one
    click each), games, decisions per game and weights; then those decisions priced at the committed
    bench's unit costs (:func:`training_costs`; "not measured" where the bench has no unit), and the CPU seconds its
    runs recorded (their mean and range over the seeds: a record, not a measure of work). Greedy's 10⁶ games below
    (its decisions as its benchmark runs recorded them, or "not recorded")."""
    rows = []
    priced = training_costs(runs, greedy, record).set_index("agent")
    bench = lambda a: ("not measured" if pd.isna(priced.loc[a, "bench_seconds"])  # noqa: E731
                       else f"{priced.loc[a, 'bench_seconds']:,.0f}")
    for agent, g in runs[runs["policy"] != "random"].groupby("agent", sort=False):
        cpu = g["cpu_seconds"]
        rows.append({"agent": agent, "training decisions": f"{g['steps'].mean():,.0f}",
                     "games": f"{g['games'].mean():,.0f}",
                     "decisions / game": f"{(g['steps'] / g['games']).mean():.1f}",
                     "weights": f"{int(g['parameters'].iloc[0]):,}", "CPU s at the bench": bench(agent),
                     "CPU s (as recorded)": f"{cpu.mean():,.0f} ({cpu.min():,.0f}-{cpu.max():,.0f})"})
    d, cpu = greedy.get("decisions", np.nan), greedy.get("cpu_seconds") or [greedy["seconds"]]
    rows.append({"agent": GREEDY, "training decisions": "not recorded" if pd.isna(d) else f"{d:,.0f}",
                 "games": f"{greedy['games']:,}",
                 "decisions / game": "" if pd.isna(d) else f"{d / greedy['games']:.1f}", "weights": "—",
                 "CPU s at the bench": bench(GREEDY),
                 "CPU s (as recorded)": f"{greedy['seconds']:,.0f} ({min(cpu):,.0f}-{max(cpu):,.0f})"})
    return pd.DataFrame(rows).set_index("agent").rename_axis(None)


def cost_values(runs: pd.DataFrame, greedy: dict, record=None) -> dict:
    """:func:`training_costs` as named values for the page's prose: the lowest and highest ratio of the recorded
    CPU to the bench's price over the rows the bench prices (``ratio_low``, ``ratio_high``), the bench's date
    (``date``) and the rows it cannot price, in words (``unpriced``; "none")."""
    from ...bench import read_bench
    t = training_costs(runs, greedy, record)
    priced = t[t["bench_seconds"].notna()]
    rec = read_bench(record) if record is None or not isinstance(record, dict) else record
    return {"ratio_low": float(priced["ratio"].min()), "ratio_high": float(priced["ratio"].max()),
            "date": str(rec.get("date", ""))[:10],
            "unpriced": and_list(t[t["bench_seconds"].isna()]["agent"]) if t["bench_seconds"].isna().any() else "none"}


def mean_curves(curves: pd.DataFrame, greedy: dict, runs: pd.DataFrame, record=None) -> pd.DataFrame:
    """Each network's training curve, its seeds averaged block by block (only the blocks every seed reached), with
    greedy's curve: the frame :func:`sweeper.viz.paper_charts.deep_rl_curves` draws. Beside the games, each block
    has ``bench_seconds``: the agent's training priced at the committed bench (:func:`training_costs`: its
    decisions times the bench's unit), spread evenly over its training games (the mean of its seeds'), up to the
    block's end; NaN for an agent the bench has no unit for. The runs' recorded CPU is not drawn: it is a record of
    the machine's load, not of the work."""
    n = curves.groupby("agent", sort=False)["seed"].nunique()
    m = (curves.groupby(["agent", "episode"], sort=False)
         .agg(seeds=("seed", "nunique"), block_win_rate=("block_win_rate", "mean")).reset_index())
    m = m[m["seeds"] == m["agent"].map(n)].drop(columns="seeds")
    m = pd.concat([m, greedy["curve"]], ignore_index=True)
    priced = training_costs(runs, greedy, record).set_index("agent")["bench_seconds"]
    games = runs[runs["policy"] != "random"].groupby("agent")["games"].mean()
    games[GREEDY] = greedy["games"]
    return m.assign(bench_seconds=m["agent"].map(priced) * m["episode"] / m["agent"].map(games))


def _separated(a: pd.Series, b: pd.Series) -> int:
    """1 if every value of ``a`` lies above every value of ``b``, -1 if below, 0 if the ranges overlap."""
    return 1 if a.min() > b.max() else -1 if a.max() < b.min() else 0


def tests_sentences(runs: pd.DataFrame) -> str:
    """What the frozen tests show, generated from the stored runs (Markdown: a sentence on the random floor, then a
    bullet per trained agent): its wins, the share of safe tiles it revealed per game against the floor's (*more*
    or *fewer* only where every seed lies beyond every seed of the floor), and how often it took a tile known to be
    safe when one was on offer; where a network won no test game, that its budget supports no verdict about the
    method."""
    p = pooled_tests(runs).set_index("agent")
    floor = p.loc["random clicks"]
    floor_seeds = runs.loc[runs["policy"] == "random", "revealed"]
    out = [f"**Measured** ({int(floor['seeds'])} seeds of each agent, {int(floor['test_games']) // int(floor['seeds']):,} "
           f"frozen test games per seed). Random valid clicks win {int(floor['wins'])} of "
           f"{int(floor['test_games']):,} games and reveal {floor['revealed']:.1%} of the safe tiles per game (much "
           f"of it the opening's cascade); when a tile known to be safe is on offer they take one "
           f"{floor['took_safe']:.0%} of the time.", ""]
    zero = []
    for agent, r in p.drop(index="random clicks").iterrows():
        seeds = runs.loc[runs["agent"] == agent, "revealed"]
        word = {1: "more than", 0: "not separated from", -1: "fewer than"}[_separated(seeds, floor_seeds)]
        won = (f"wins {r['win_rate']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}]" if r["wins"] else
               f"wins none of {int(r['test_games']):,} games")
        out.append(f"* **{agent}**: {won}; reveals {r['revealed']:.1%} of the safe tiles per game (seeds "
                   f"{r['revealed_min']:.0%}-{r['revealed_max']:.0%}), {word} the floor; takes a known safe tile "
                   f"{r['took_safe']:.0%} of the times one is on offer.")
        if r["wins"] == 0:
            zero.append(agent)
    if zero:
        out += ["", f"{len(zero)} of the {len(p) - 1} trained agents ({'; '.join(zero)}) won no test game: "
                f"{'their budgets say' if len(zero) > 1 else 'its budget says'} nothing about what PPO with "
                f"{'these networks' if len(zero) > 1 else 'this network'} can learn, only how far "
                f"{'they' if len(zero) > 1 else 'it'} got in that time."]
    return "\n".join(out)


def kernel_table(runs: pd.DataFrame, steps: int) -> pd.DataFrame:
    """The exercise's two CNNs at ``steps`` (first convolution 3×3 and 5×5), seeds pooled: test games, win rate
    [95% Wilson], safe tiles revealed per game (seed range) and how often a known safe tile was taken."""
    p = pooled_tests(runs[runs["agent"].isin([agent_label({"steps": steps}),
                                              agent_label({"steps": steps, "kernel": 5})])])
    return pooled_tests_table(p)


def kernel_sentence(runs: pd.DataFrame, steps: int) -> str:
    """The exercise's answer, generated: the 5×5 first view against the 3×3 one at ``steps``, by wins (95% Wilson
    intervals, *above* or *below* only where they are disjoint) and by safe tiles revealed (*more* or *fewer* only
    where every seed lies beyond every seed of the other)."""
    a_label, b_label = agent_label({"steps": steps}), agent_label({"steps": steps, "kernel": 5})
    p = pooled_tests(runs[runs["agent"].isin([a_label, b_label])]).set_index("agent")
    if not {a_label, b_label} <= set(p.index):
        return f"The stored runs do not hold both first-kernel sizes at {steps:,} steps."
    a, b = p.loc[a_label], p.loc[b_label]
    o = interval_order((b["win_rate"], b["lo"], b["hi"]), (a["win_rate"], a["lo"], a["hi"]))
    by_wins = {1: "above", 0: "indistinguishable from", -1: "below"}[o]
    rev = _separated(runs.loc[runs["agent"] == b_label, "revealed"], runs.loc[runs["agent"] == a_label, "revealed"])
    by_rev = {1: "more", 0: "about as many", -1: "fewer"}[rev]
    text = (f"Over {int(a['test_games']):,} frozen test games each ({int(a['seeds'])} seeds), the 5×5 network's "
            f"{int(b['wins'])} wins are {by_wins} the 3×3 network's {int(a['wins'])}, and it reveals {by_rev} safe "
            f"tiles per game ({b['revealed']:.1%} against {a['revealed']:.1%}; the seeds' own means "
            f"{'overlap' if rev == 0 else 'do not overlap'}).")
    if a["wins"] == 0 and b["wins"] == 0:
        text += (" Neither won a game in this budget, so the comparison of views rests on the tiles revealed only; "
                 "whether a wider view helps a network that wins needs a budget in which it does.")
    return text


# ------------------------------------------------ the benchmark's PPO rows: the same networks --

#: The chapter's networks that the benchmark scores again (``ext:benchmark_ppo``), by policy, in the page's order.
BENCHMARK_PPO = {"tiles": "per-tile network", "cnn": "CNN"}


def benchmark_ppo_outputs() -> list:
    """``(task, output)`` of every stored run of ``ext:benchmark_ppo`` (paper scale, whatever the page's scale, as
    the chapter's own runs), or one clear error naming the command that computes the missing ones."""
    from .results import paper_spec
    st, tasks = paper_spec("ext:benchmark_ppo", SEEDS, needs="`make deep` installs the optional extra 'deep', then ")
    return [(t, st.load(t)) for t in tasks]


def ppo_pairs(outputs=None, bench_outputs=None) -> pd.DataFrame:
    """One row per PPO network and seed stored by both ``ext:deep_rl`` (the chapter; its 3×3 CNN and its per-tile
    network) and ``ext:benchmark_ppo`` (the benchmark): ``policy``, ``seed``; each run's training budget
    (``budget``, ``bench_budget``: steps asked), environment steps done (``steps``, ``bench_steps``), training
    games (``games``, ``bench_games``) and process CPU seconds as recorded (``cpu_seconds``, ``bench_cpu_seconds``);
    ``same``: the same budget, steps and training games; and the boards each scored it on, from the runs' params and
    tables: here ``test_games`` beginner boards dealt from the seed's test seed (``test_board``), with ``wins``;
    there the first ``bench_games`` boards of the suite ``suite`` (opening ``opening``), with ``bench_wins``."""
    outputs = stored_outputs() if outputs is None else outputs
    bench_outputs = benchmark_ppo_outputs() if bench_outputs is None else bench_outputs
    bench = {}
    for t, out in bench_outputs:
        if not str(t.params.get("agent", "")).startswith("ppo:"):
            continue
        beginner = out.tables["scores"]
        beginner = beginner[beginner["level"] == "beginner"].iloc[0]
        bench[(t.params["agent"].split(":", 1)[1], int(t.params["seed"]))] = {
            "bench_budget": int(t.params["train"]["steps"]), "bench_steps": int(out.info["steps"]),
            "bench_games": int(out.info["games"]), "bench_cpu_seconds": float(out.info["train_cpu_seconds"]),
            "suite": beginner["suite"], "opening": beginner["opening"], "bench_test_games": int(beginner["games"]),
            "bench_wins": int(beginner["wins"])}
    rows = []
    for t, out in outputs:
        p = t.params
        key = (p.get("policy", "cnn"), int(p["seed"]))
        if t.kind != "deep_ppo" or p.get("kernel", 3) != 3 or key not in bench:
            continue
        board = p.get("tests", ["8x8x10"])[0]
        g = out.tables["tests"]
        g = g[g["test"] == board]
        row = {"policy": key[0], "seed": key[1], "budget": int(p["steps"]), "steps": int(out.info["steps"]),
               "games": int(out.info["games"]), "cpu_seconds": float(out.info["train_cpu_seconds"]),
               "test_board": board, "test_games": len(g), "wins": int(g["won"].sum()), **bench[key]}
        row["same"] = (row["budget"], row["steps"], row["games"]) == (row["bench_budget"], row["bench_steps"],
                                                                       row["bench_games"])
        rows.append(row)
    order = list(BENCHMARK_PPO)
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    return out.sort_values(["policy", "seed"], key=lambda c: c.map(order.index) if c.name == "policy" else c,
                           ignore_index=True)


def _level(board: str) -> str:
    """``"beginner (8x8x10)"`` for a board of the benchmark's levels, else the board."""
    from ...experiments.benchmark import level_of
    try:
        return f"{level_of(board)} ({board})"
    except ValueError:
        return board


def _listed(values, fmt="{:,}") -> str:
    return and_list(fmt.format(x) for x in values)


def same_networks_sentence(pairs: pd.DataFrame) -> str:
    """Whether the benchmark's PPO rows are the chapter's networks, worded from :func:`ppo_pairs`' check (the same
    budget, environment steps and training games, seed for seed); if so, that their two scores differ only by the
    boards, which boards each is played on, and by what factor the CPU seconds recorded for the same training
    differ (the lowest and highest ratio over the seeds): the machine's load, not the method. Training cost is
    stated first as counted work, in environment steps."""
    if pairs.empty:
        return "The benchmark's PPO runs (`ext:benchmark_ppo`) hold none of this chapter's networks."
    seeds = sorted(pairs["seed"].unique())
    same = {p: bool(g["same"].all()) for p, g in pairs.groupby("policy", sort=False)}
    names = [BENCHMARK_PPO.get(p, p) for p in same]
    if not all(same.values()):
        parts = []
        for p, g in pairs.groupby("policy", sort=False):
            bad = g[~g["same"]]
            if len(bad):
                parts.append(f"the {BENCHMARK_PPO.get(p, p)}'s on seed{'s' if len(bad) > 1 else ''} "
                             f"{_listed(bad['seed'])} ({_listed(bad['games'])} training games here, "
                             f"{_listed(bad['bench_games'])} there)")
        return (f"**Not the same networks.** The benchmark's PPO rows ([the leaderboard](15_benchmark.html), "
                f"`ext:benchmark_ppo`) train the {_listed(names, '{}')} again with seeds {_listed(seeds)}, but their "
                f"training differs from this chapter's: {'; '.join(parts)}. Their scores there and here differ by "
                f"the networks as well as by the boards, and their CPU times are not of the same work.")
    first = pairs.iloc[0]
    groups = list(pairs.groupby("policy", sort=False))
    name = lambda p: BENCHMARK_PPO.get(p, p)  # noqa: E731
    work = "; ".join(f"the {name(p)} {_listed(g['steps'].unique())} environment steps"
                     f"{' per seed' if g['steps'].nunique() == 1 else ''}, in {_listed(g['games'])} games"
                     for p, g in groups)

    def wins(p, g):
        here, there = (int(g["wins"].sum()), int(g["test_games"].sum())), (int(g["bench_wins"].sum()),
                                                                         int(g["bench_test_games"].sum()))
        rated = min(here[0] / here[1], there[0] / there[1]) >= 0.0005  # a rate that shows in three decimals
        rate = lambda w, n: f" ({w / n:.3f})" if rated else ""  # noqa: E731
        return (f"the {name(p)} {here[0]:,} of {here[1]:,}{rate(*here)} here and {there[0]:,} of "
                f"{there[1]:,}{rate(*there)} there")

    def cpu(p, g):
        r = g["cpu_seconds"] / g["bench_cpu_seconds"]
        return (f"{r.min():.2f} to {r.max():.2f} times as many here as there for the {name(p)} (as recorded: "
                f"{_listed(g['cpu_seconds'], '{:,.0f}')} s here, mean {g['cpu_seconds'].mean() / 60:.0f} minutes; "
                f"{_listed(g['bench_cpu_seconds'], '{:,.0f}')} s there, mean "
                f"{g['bench_cpu_seconds'].mean() / 60:.0f} minutes)")
    return (f"**The same networks.** The benchmark's PPO rows ([the leaderboard](15_benchmark.html), "
            f"`ext:benchmark_ppo`) are this chapter's {_listed(names, '{}')}: trained again with the same seeds "
            f"({_listed(seeds)}) and budgets, they took the same environment steps and played the same training "
            f"games, seed for seed ({work}). Their scores there and here differ only by the boards they are played "
            f"on: here each seed's frozen policy plays {int(first['test_games']):,} {_level(first['test_board'])} "
            f"boards dealt from that seed's own test seed, different for each seed; there every seed plays the first "
            f"{int(first['bench_test_games']):,} boards of the benchmark's suite `{first['suite']}` "
            f"({first['opening']} opening), the same for every seed and every agent. Wins, the seeds pooled: "
            + "; ".join(wins(p, g) for p, g in groups) + ". Their training cost is the environment steps above; "
            "the process CPU seconds recorded for that same work were, seed for seed, "
            + " and ".join(cpu(p, g) for p, g in groups)
            + ": the load of the machine when each ran, not the method.")


def clock_noise(pairs: pd.DataFrame) -> dict:
    """How far the process CPU seconds recorded for the same work differ, from :func:`ppo_pairs`: per network and
    seed trained twice with the same budget, environment steps and training games, the larger recorded CPU time over
    the smaller. ``pairs`` (how many), ``low`` and ``high`` (the least and the largest factor), ``factors`` (each
    pair's, in the frame's order); empty when no pair did the same work. A sentence may set two recorded CPU times
    in order only where they differ by more than ``high`` times."""
    same = pairs[pairs["same"]] if len(pairs) else pairs
    if same.empty:
        return {}
    r = same["cpu_seconds"] / same["bench_cpu_seconds"]
    f = np.maximum(r, 1 / r)
    return {"pairs": len(f), "low": float(f.min()), "high": float(f.max()), "factors": [float(x) for x in f],
            "policies": [BENCHMARK_PPO.get(p, p) for p in dict.fromkeys(same["policy"])],
            "seeds": sorted(int(x) for x in same["seed"].unique())}


#: What the page says when no network of the stored runs was trained twice with the same work (:func:`noise_values`).
NO_NOISE = ("No network of the stored runs was trained twice with the same work (the deep-RL chapter's PPO runs "
            "and the benchmark's, `ext:benchmark_ppo`), so the clock's noise is not measured.")


def noise_values(noise: dict) -> dict:
    """:func:`clock_noise` as named values for a page's prose: the least and the largest factor between the CPU
    seconds recorded for the same work (``low``, ``high``), over how many ``pairs``, and which networks
    (``policies``) and ``seeds`` were trained twice, in words. An error saying how to measure it (:data:`NO_NOISE`)
    when no pair did the same work."""
    if not noise:
        raise ValueError(NO_NOISE)
    return {"low": float(noise["low"]), "high": float(noise["high"]), "pairs": int(noise["pairs"]),
            "policies": and_list(noise["policies"]), "seeds": _listed(noise["seeds"])}
