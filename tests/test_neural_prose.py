"""The prose of "From a table to a network" (book/05c_neural.ipynb): its paragraphs are written in the chapter and paste
their numbers and verdict words with MyST-NB's ``{glue:text}`` roles. Every name a paragraph pastes must be glued by
one of the page's code cells (else the role renders empty and the build warns), and the values glued must be the
stored ones: recomputed here from the committed paper-scale runs, without the figure modules' arithmetic."""

import json
import re
from pathlib import Path

import IPython.display
import myst_nb
import numpy as np
import pytest

from sweeper.experiments.stats import wilson
from sweeper.viz.figures import benchmark as bf, neural as nf

PAGE = Path(__file__).resolve().parents[1] / "book" / "05c_neural.ipynb"
#: A MyST-NB role that pastes a glued value: {glue}`name`, {glue:text}`name:.3f`, {glue:md}`name` ...
ROLE = re.compile(r"\{glue(?::[a-z]+)?\}`([^`:]+)(?::[^`]*)?`")


def _sources(kind: str) -> list:
    return ["".join(c["source"]) for c in json.loads(PAGE.read_text())["cells"] if c["cell_type"] == kind]


def _pasted() -> set:
    return {name for text in _sources("markdown") for name in ROLE.findall(text)}


@pytest.fixture(scope="module")
def glued():
    """What the page's code cells glue, name -> value: the cells run in order, up to the last that glues, with
    ``myst_nb.glue`` recording and ``display`` showing nothing."""
    code = _sources("code")
    last = max(i for i, text in enumerate(code) if "glue(" in text)
    values = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(myst_nb, "glue", lambda name, value, display=True: values.__setitem__(name, value))
        mp.setattr(IPython.display, "display", lambda *a, **k: None)
        namespace = {}
        for text in code[:last + 1]:
            exec(compile(text, str(PAGE), "exec"), namespace)  # noqa: S102 - the page's own cells
    return values


def test_the_page_writes_its_findings_and_pastes_their_numbers():
    pasted = _pasted()
    for prefix in ("work_", "tgt_", "rise_", "lrn_", "rec_", "sym_", "str_", "reg_", "mis_", "learn_", "learn_noise_",
                   "avg_"):  # written as prose
        assert any(name.startswith(prefix) for name in pasted), prefix
    code = "\n".join(_sources("code"))
    for gone in ("findings", "learners_sentence", "recipes_sentence", "symmetric_sentence", "stretch_sentence",
                 "regret_sentence", "mistakes_sentence", "learning_sentence", "noise_sentence", "averaged_sentence",
                 "work_clause"):
        assert gone not in code  # no finding is a generated sentence any more


def test_every_pasted_name_is_glued_by_a_code_cell(glued):
    missing = sorted(_pasted() - set(glued))
    assert not missing, f"pasted but never glued (the role would render empty): {missing}"
    for name in _pasted():
        value = glued[name]
        assert type(value) in (int, float, str), name  # a plain value, which the role can format
        assert value == value and value != "", name  # no NaN, no empty text


def _own_tests(recipe="work"):
    """Per level, each seed's test on its own level's boards and its facts, from the stored outputs directly."""
    out = {}
    for task, o in nf.stored_outputs(recipe):
        board = task.params["board"]
        t = o.tables["tests"]
        own = t[t["board"] == board].iloc[0]
        decisions = o.info["train_decisions"] + sum(o.info.get("curriculum_decisions", []))
        out.setdefault(board, []).append({"wins": int(own["wins"]), "games": int(own["test_games"]),
                                          "quality_games": int(own["quality_games"]),
                                          "rate": own["wins"] / own["test_games"], "decisions": decisions,
                                          "checkpoints": o.tables["checkpoints"].sort_values("decisions"),
                                          "before": sum(o.info.get("curriculum_decisions", []))})
    return out


def test_the_targets_and_the_work_are_the_stored_ones(glued):
    for board, seeds in _own_tests().items():
        k = nf.KEYS[board]
        pooled = sum(s["wins"] for s in seeds) / sum(s["games"] for s in seeds)
        lowest = min(s["rate"] for s in seeds)
        assert glued[f"tgt_{k}_own"] == pytest.approx(pooled) and glued[f"tgt_{k}_seed_min"] == pytest.approx(lowest)
        target = nf.TARGETS[board]
        met = pooled >= target and lowest >= target - nf.SEED_SLACK
        assert glued[f"tgt_{k}_met"] == ("met" if met else "not met") and glued[f"tgt_{k}_target"] == target
        assert glued[f"work_{k}_decisions"] == pytest.approx(np.mean([s["decisions"] for s in seeds]))
        ds = [s["decisions"] for s in seeds]
        assert glued[f"work_{k}_spread"] == max(ds) - min(ds)
        # the last two checkpoints of each seed, on the same boards: the step and its verdict
        before = [s["checkpoints"]["win_rate"].iloc[-2] for s in seeds]
        after = [s["checkpoints"]["win_rate"].iloc[-1] for s in seeds]
        assert glued[f"rise_{k}_before"] == pytest.approx(np.mean(before))
        assert glued[f"rise_{k}_after"] == pytest.approx(np.mean(after))
        assert glued[f"rise_{k}_after_decisions"] == pytest.approx(
            np.mean([s["checkpoints"]["decisions"].iloc[-1] + s["before"] for s in seeds]))
        lo, hi = glued[f"rise_{k}_lo"], glued[f"rise_{k}_hi"]
        assert lo < np.mean(after) - np.mean(before) < hi
        assert glued[f"rise_{k}_verdict"] == nf.RISING[1 if lo > 0 else -1 if hi < 0 else 0]


def test_the_players_beside_them_are_the_benchmarks_stored_games(glued):
    games = nf.yardstick()["games"]
    boards = glued["boards"]
    for board, k in nf.KEYS.items():
        level = bf.LEVEL_OF[board]
        solver = bf.outcomes(games, "exact solver", level)[0][:boards]
        table = [r[:boards].mean() for r in bf.outcomes(games, "greedy table", level)]
        assert glued[f"tgt_{k}_solver"] == pytest.approx(solver.mean())
        assert glued[f"tgt_{k}_greedy"] == pytest.approx(np.mean(table))
        if f"sym_{k}_pooled" in glued:
            sym = [r[:boards] for r in bf.outcomes(games, f"network, symmetric ({bf.SHORT[board]})", level)]
            assert glued[f"sym_{k}_pooled"] == pytest.approx(sum(r.sum() for r in sym) / sum(len(r) for r in sym))
            assert glued[f"sym_{k}_met"] == ("met" if glued[f"sym_{k}_pooled"] >= nf.TARGETS[board] and glued[
                f"sym_{k}_seed_min"] >= nf.TARGETS[board] - nf.SEED_SLACK else "not met")
    assert glued["lrn_greedy_rate"] == pytest.approx(glued["tgt_beg_greedy"])  # one table, one set of boards
    assert glued["lrn_solver_rate"] == pytest.approx(glued["tgt_beg_solver"])


def test_the_learners_and_the_two_recipes_are_the_stored_ones(glued):
    book, first = _own_tests("work"), _own_tests("cpu")
    beginner = book["8x8x10"]
    assert glued["reg_nets_games"] == sum(s["quality_games"] for s in beginner)  # the games the regret rests on
    assert glued["lrn_end_rate"] == pytest.approx(np.mean([s["checkpoints"]["win_rate"].iloc[-1] for s in beginner]))
    assert glued["lrn_end_decisions"] == pytest.approx(np.mean([s["decisions"] for s in beginner]))
    for board, k in nf.KEYS.items():
        ratio = np.mean([s["decisions"] for s in book[board]]) / np.mean([s["decisions"] for s in first[board]])
        assert glued[f"rec_{k}_ratio"] == pytest.approx(ratio)
        diff = np.mean([s["rate"] for s in book[board]]) - np.mean([s["rate"] for s in first[board]])
        assert glued[f"rec_{k}_diff"] == pytest.approx(diff) and glued[f"rec_{k}_lo"] < diff < glued[f"rec_{k}_hi"]
        lo, hi = glued[f"rec_{k}_lo"], glued[f"rec_{k}_hi"]
        if lo > 0 or hi < 0:  # an interval clear of 0 orders the two
            assert glued[f"rec_{k}_verdict"] == f"the book's networks win {'more' if lo > 0 else 'less'}"
        else:  # one holding 0 does not
            assert "win" not in glued[f"rec_{k}_verdict"]


def _unit_us(learner: str, level: str) -> float:
    """A training decision's µs in the committed bench, read from results/bench.json directly."""
    bench = json.loads((PAGE.parents[1] / "results" / "bench.json").read_text())
    return next(r["us_per_decision"] for r in bench["unit_costs"]
                if (r["learner"], r["level"], r["what"]) == (learner, level, "train"))


def test_the_recipe_and_its_cost_are_the_specs_and_the_committed_benchs(glued):
    from sweeper.experiments import neural_runs as nr
    levels = {"8x8x10": "beginner", "16x16x40": "intermediate", "16x30x99": "expert"}
    for board, k in nf.KEYS.items():
        own = nr.WORK_LEVELS[board]["decisions"]
        assert glued[f"learn_{k}_own"] == own
        assert glued[f"learn_{k}_total"] == own + sum(ph[1] for ph in nr.WORK_LEVELS[board]["curriculum"])
        assert glued[f"learn_{k}_minutes"] == pytest.approx(own * _unit_us("neural", levels[board]) / 60e6)
    phase = nr.WORK_LEVELS["16x30x99"]["curriculum"][1]
    assert (glued["learn_exp_phase_level"], glued["learn_exp_phase_decisions"]) == (levels[phase[0]], phase[1])
    assert glued["learn_exp_phase_minutes"] == pytest.approx(phase[1] * _unit_us("neural", "intermediate") / 60e6)
    assert glued["learn_warm_decisions"] == nr.WORK_WARM_START[1] and glued["learn_warm_level"] == "beginner"
    warm = nr.WORK_WARM_START[1] * _unit_us("neural-warm-start", "beginner") / 60e6
    assert glued["learn_warm_minutes"] == pytest.approx(warm)
    assert glued["learn_exp_all_minutes"] == pytest.approx(
        glued["learn_exp_minutes"] + glued["learn_exp_phase_minutes"] + warm)
    assert glued["learn_beg_all_minutes"] == pytest.approx(glued["learn_beg_minutes"] + warm)
    assert glued["learn_minibatch"] / glued["learn_per"] == nr.NEURAL_LEARNING["replay"]
    assert glued["learn_lr"] == nr.NEURAL_LEARNING["lr"] and glued["learn_test_boards"] == nr.NEURAL_TEST["paper"]


def test_the_clock_noise_is_that_of_the_stored_ppo_runs(glued):
    from sweeper.viz.figures import deep
    pairs = deep.ppo_pairs()
    ratios = [max(a / b, b / a) for a, b in zip(pairs["cpu_seconds"], pairs["bench_cpu_seconds"])]
    assert glued["learn_noise_pairs"] == len(ratios) and pairs["same"].all()
    assert glued["learn_noise_low"] == pytest.approx(min(ratios))
    assert glued["learn_noise_high"] == pytest.approx(max(ratios)) == glued["lrn_noise"]


def _interval_words(lo, hi, more, less, neither):
    return more if lo > 0 else less if hi < 0 else neither


def test_the_averaged_networks_are_the_stored_ones(glued):
    from sweeper.viz.figures import neural_averaged as na
    board, n = "16x30x99", glued["avg_boards"]
    label, level = f"network, symmetric ({bf.SHORT[board]})", bf.LEVEL_OF[board]
    train, scored = na.stored_outputs()
    seeds = sorted(int(t.params["seed"]) for t, _ in train)
    plain, online, work = {}, {}, []
    for t, o in train:
        tests, own = o.tables["tests"], o.tables["online"]
        row, last = tests[tests["board"] == board].iloc[0], own[own["board"] == board].iloc[0]
        plain[int(t.params["seed"])] = row["wins"] / row["test_games"]
        online[int(t.params["seed"])] = last["wins"] / last["test_games"]
        work.append((o.info["train_decisions"] + sum(o.info["curriculum_decisions"]),
                     o.info["train_updates"] + sum(o.info["curriculum_updates"])))
    recipe, recipe_work = {}, []
    for t, o in nf.stored_outputs("cpu"):
        if t.params["board"] == board:
            row = o.tables["tests"][o.tables["tests"]["board"] == board].iloc[0]
            recipe[int(t.params["seed"])] = row["wins"] / row["test_games"]
            recipe_work.append((o.info["train_decisions"] + sum(o.info["curriculum_decisions"]),
                                o.info["train_updates"] + sum(o.info["curriculum_updates"])))
    assert glued["avg_seeds"] == len(seeds) == 3 and sorted(recipe) == seeds
    assert glued["avg_trained_pooled"] == pytest.approx(np.mean([plain[s] for s in seeds]))  # 1,000 boards each
    assert glued["avg_trained_recipe"] == pytest.approx(np.mean([recipe[s] for s in seeds]))
    assert glued["avg_trained_diff"] == pytest.approx(np.mean([plain[s] - recipe[s] for s in seeds]))
    assert glued["avg_trained_seed_min"] == pytest.approx(min(plain.values()))
    assert glued["avg_online"] == pytest.approx(np.mean([online[s] for s in seeds]))
    assert glued["avg_alone"] == pytest.approx(np.mean([plain[s] - online[s] for s in seeds]))
    sym = [r[:n].mean() for r in bf.outcomes(bf.benchmark_runs(scored)["games"], label, level)]
    first = [r[:n].mean() for r in bf.outcomes(nf.yardstick(networks="cpu")["games"], label, level)]
    assert len(sym) == len(first) == len(seeds)
    assert glued["avg_sym_pooled"] == pytest.approx(np.mean(sym))
    assert glued["avg_sym_seed_min"] == pytest.approx(min(sym))
    assert glued["avg_sym_recipe"] == pytest.approx(np.mean(first))
    assert glued["avg_sym_diff"] == pytest.approx(np.mean(sym) - np.mean(first))
    for k in ("trained", "sym"):
        lo, hi = glued[f"avg_{k}_lo"], glued[f"avg_{k}_hi"]
        assert lo < glued[f"avg_{k}_diff"] < hi
        assert glued[f"avg_{k}_change"] == _interval_words(lo, hi, "win more than the recipe's",
                                                           "win less than the recipe's",
                                                           "cannot be told apart from the recipe's")
        pooled, lowest, target = glued[f"avg_{k}_pooled"], glued[f"avg_{k}_seed_min"], nf.TARGETS[board]
        assert glued[f"avg_{k}_met"] == ("met" if pooled >= target and lowest >= target - nf.SEED_SLACK else
                                         "not met" if pooled < target else na.TARGET_WORDS[1])
    lo, hi = glued["avg_alone_lo"], glued["avg_alone_hi"]
    assert lo < glued["avg_alone"] < hi and glued["avg_alone_verdict"] == _interval_words(
        lo, hi, "raised the win rate", "lowered the win rate", "made no difference the seeds can tell from none")
    (d1, u1), (d0, u0) = np.mean(work, axis=0), np.mean(recipe_work, axis=0)
    assert (glued["avg_decisions"], glued["avg_steps"]) == pytest.approx((d1, u1))
    assert (glued["avg_recipe_decisions"], glued["avg_recipe_steps"]) == pytest.approx((d0, u0))
    assert (glued["avg_decisions_ratio"], glued["avg_steps_ratio"]) == pytest.approx((d1 / d0, u1 / u0))
    assert glued["avg_work_verdict"] == na.WORK_WORDS[1] and d1 / d0 > 1.5  # the same budget bought far more work
    assert glued["avg_bench_us"] == _unit_us("neural-averaged", "expert")
    assert glued["avg_bench_recipe_us"] == _unit_us("neural", "expert")


def test_the_speed_and_the_checkpoints_are_the_committed_benchs_and_the_specs(glued):
    from sweeper.experiments import neural_runs as nr
    bench = json.loads((PAGE.parents[1] / "results" / "bench.json").read_text())
    rate = {r["workload"]: r["decisions_per_second"] for r in bench["rows"]
            if r["workload"].startswith("neural bandit")}
    first = next(v for w, v in rate.items() if " train 8x8x10, default learning (" in w)
    recipe = next(v for w, v in rate.items() if " train 8x8x10, minibatch 128, replay 0.5 (" in w)
    assert (glued["speed_first"], glued["speed_recipe"]) == (first, recipe)
    assert glued["speed_ratio"] == pytest.approx(recipe / first)
    assert glued["speed_test"] == next(v for w, v in rate.items() if w.startswith("neural bandit 8x8x10 test games"))
    assert f"{glued['speed_date']}T{glued['speed_time']}" == bench["date"].rstrip("Z")
    assert bench["provenance"]["commit"].startswith(glued["speed_commit"]) and len(glued["speed_commit"]) == 7
    assert glued["speed_cores"] == bench["machine"]["cores"]
    assert glued["ckpt_shares"] == "25%, 50% and 75%" and nr.WORK_CHECKPOINTS == (0.25, 0.5, 0.75)
    for board, k in nf.KEYS.items():
        curriculum = nr.WORK_LEVELS[board]["curriculum"]
        before = sum(ph[1] for ph in curriculum)
        total = nr.WORK_LEVELS[board]["decisions"] + before
        kept = [f for f in nr.WORK_CHECKPOINTS if f * total > before]
        assert (glued[f"ckpt_{k}_points"], glued[f"ckpt_{k}_from"]) == (len(kept) + 1, min(kept))
    exp = nr.WORK_LEVELS["16x30x99"]["curriculum"]
    assert (glued["ckpt_exp_first"], glued["ckpt_exp_total"]) == (sum(ph[1] for ph in exp), nr.work_total("16x30x99"))
    assert glued["ckpt_exp_boards"] == " then ".join(ph[0] for ph in exp)
    # every checkpoint stored on a network's own level falls where the caption says
    for board, seeds in _own_tests().items():
        assert all(len(s["checkpoints"]) == glued[f"ckpt_{nf.KEYS[board]}_points"] for s in seeds)


def _levers(study):
    """Per lever of a stored ablation: its test on its level's boards and its work, from the stored outputs."""
    from sweeper.viz.figures import neural_levers as nl
    out = {}
    for name, o in nl.lever_outputs(study):
        t = o.tables["tests"]
        t = t[t["board"] == {"intermediate": "16x16x40", "expert": "16x30x99"}[study]].iloc[0]
        out[name] = {"rate": t["wins"] / t["test_games"], "games": int(t["test_games"]),
                     "decisions": o.info["train_decisions"] + sum(o.info.get("curriculum_decisions", [])),
                     "steps": o.info["train_updates"] + sum(o.info.get("curriculum_updates", []))}
    return out


def _quoted(names):
    names = [f"“{n}”" for n in names]
    return "none" if not names else names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


@pytest.mark.parametrize("study, prefix, base", [("intermediate", "lev", "defaults"),
                                                 ("expert", "levx", "expert recipe")])
def test_the_levers_are_the_stored_ablations(glued, study, prefix, base):
    runs = _levers(study)
    b = runs.pop(base)
    v = {k[len(prefix) + 1:]: x for k, x in glued.items() if k.startswith(prefix + "_") and "_twice_" not in k}
    assert (v["base"], v["games"], v["decisions"], v["steps"]) == (pytest.approx(b["rate"]), b["games"],
                                                                  b["decisions"], b["steps"])
    top = max(runs, key=lambda n: runs[n]["rate"])
    assert v["top"] == top and v["top_diff"] == pytest.approx(runs[top]["rate"] - b["rate"])
    assert v["top_lo"] < v["top_diff"] < v["top_hi"]
    noise = glued["learn_noise_high"]
    assert v["noise"] == noise
    far = [n for n, r in runs.items() if max(r["decisions"] / b["decisions"], b["decisions"] / r["decisions"],
                                             r["steps"] / b["steps"], b["steps"] / r["steps"]) > noise]
    assert v["beyond"] == _quoted(far) and v["beyond_n"] + v["within_n"] == len(runs)
    named = [n for key in ("more", "less", "apart") for n in runs if f"“{n}”" in v[key]]
    assert sorted(named) == sorted(runs) and v["more_n"] + v["less_n"] + v["apart_n"] == len(runs)
    for n in runs:  # a lever named as winning more or less differs by more than Newcombe's interval allows
        d = runs[n]["rate"] - b["rate"]
        if f"“{n}”" in v["more"]:
            assert d > 0
        elif f"“{n}”" in v["less"]:
            assert d < 0


def test_the_doubled_budget_is_the_stored_expert_network(glued):
    from sweeper.experiments import neural_runs as nr
    b = _levers("expert")["expert recipe"]
    seed1 = next(o for t, o in nf.stored_outputs("cpu") if t.params["board"] == "16x30x99" and t.params["seed"] == 1)
    t = seed1.tables["tests"]
    own = t[t["board"] == "16x30x99"].iloc[0]
    assert glued["levx_twice_rate"] == pytest.approx(own["wins"] / own["test_games"])
    assert glued["levx_twice_base"] == pytest.approx(b["rate"])
    assert glued["levx_twice_diff"] == pytest.approx(own["wins"] / own["test_games"] - b["rate"])
    assert glued["levx_twice_minutes"] == nr.NEURAL_BUDGET / 60
    lo, hi = glued["levx_twice_lo"], glued["levx_twice_hi"]
    apart = f"cannot be told apart from the recipe's on {b['games']:,} boards"
    assert glued["levx_twice_verdict"] == _interval_words(lo, hi, "won more", "won less", apart)


def test_the_exercises_answers_are_the_stored_runs(glued):
    book = _own_tests()
    # when the beginner networks pass the table: their checkpoints, set against the table's stored games
    beg = book["8x8x10"]
    assert glued["bud_greedy"] == pytest.approx(glued["tgt_beg_greedy"]) and glued["bud_seeds"] == len(beg)
    above = []
    for s in beg:
        c = s["checkpoints"]
        lo = [wilson(int(w), int(n))[0] for w, n in zip(c["wins"], c["test_games"])]
        hit = [i for i, x in enumerate(lo) if x > glued["bud_greedy_hi"]]
        if hit:
            above.append((c["decisions"].iloc[hit[0]] + s["before"], hit[0] == 0))
    assert glued["bud_passed"] == len(above) and glued["bud_at_first"] == sum(f for _, f in above)
    assert (glued["bud_decisions_min"], glued["bud_decisions_max"]) == (min(d for d, _ in above),
                                                                        max(d for d, _ in above))
    assert glued["bud_first_at"] == pytest.approx(np.mean([s["checkpoints"]["decisions"].iloc[0] + s["before"]
                                                           for s in beg]))
    assert glued["bud_checkpoints"] == max(len(s["checkpoints"]) for s in beg)
    # the missed safe tiles and the regret per game, from each network's quality columns
    tests = {}
    for task, o in nf.stored_outputs("work"):
        t = o.tables["tests"]
        tests.setdefault(task.params["board"], []).append(t[t["board"] == task.params["board"]].iloc[0])
    enough = []
    for board, k in nf.KEYS.items():
        rows = tests[board]
        games = sum(r["quality_games"] for r in rows)
        sure = [r["quality_decisions"] * r["quality_sure_share"] for r in rows]
        missed = sum(s * r["quality_missed_per_sure"] for s, r in zip(sure, rows)) / games
        regret = sum(r["quality_decisions"] * r["quality_regret_per_decision"] for r in rows) / games
        gap = glued[f"tgt_{k}_solver"] - glued[f"tgt_{k}_own"]
        assert (glued[f"gap_{k}_missed"], glued[f"gap_{k}_regret"], glued[f"gap_{k}_gap"]) == pytest.approx(
            (missed, regret, gap))
        assert glued["gap_games"] >= games and glued["gap_networks"] == len(rows)
        if regret >= gap > 0:
            enough.append(bf.LEVEL_OF[board])
    assert glued["gap_enough"] == (" and ".join(enough) if enough else "no level")  # at most two levels here
    # symmetric play's price, at the committed bench's test costs
    bench = json.loads((PAGE.parents[1] / "results" / "bench.json").read_text())
    us = {(r["learner"], r["level"]): r["us_per_decision"] for r in bench["unit_costs"] if r.get("what") == "test"}
    cheaper = []
    for board, k in nf.KEYS.items():
        level = bf.LEVEL_OF[board]
        extra = us[("neural-symmetric", level)] - us[("neural", level)]
        assert glued[f"price_{k}_extra_us"] == pytest.approx(extra)
        assert glued[f"price_{k}_ratio"] == pytest.approx(us[("neural-symmetric", level)] / us[("solver", level)])
        assert glued[f"price_{k}_change"] == pytest.approx(glued[f"sym_{k}_diff"])
        assert glued[f"price_{k}_per_ms"] == pytest.approx(1e3 * glued[f"sym_{k}_diff"] / extra)
        assert glued[f"price_{k}_verdict"] == glued[f"sym_{k}_change"]
        assert glued[f"price_{k}_gap"] == pytest.approx(glued[f"tgt_{k}_solver"] - glued[f"price_{k}_symmetric"])
        if glued[f"price_{k}_ratio"] * glued["learn_noise_high"] < 1:
            cheaper.append(level)
    assert glued["price_cheaper"] == (" and ".join(cheaper) if cheaper else "no level")
    # where the expert gain came from: the averaged section's stored values, and the words their intervals allow
    for k, a in (("diff", "trained_diff"), ("lo", "trained_lo"), ("hi", "trained_hi"), ("alone", "alone"),
                 ("decisions_ratio", "decisions_ratio"), ("steps_ratio", "steps_ratio"), ("seeds", "seeds")):
        assert glued[f"gain_{k}"] == glued[f"avg_{a}"]
    assert glued["gain_total"] == _interval_words(glued["gain_lo"], glued["gain_hi"], "a gain the seeds agree on",
                                                  "a loss the seeds agree on",
                                                  "a change the seeds cannot tell from nothing")
    lo, hi = glued["gain_alone_lo"], glued["gain_alone_hi"]
    assert glued["gain_alone_words"] == _interval_words(lo, hi, "is a gain", "is a loss",
                                                        "cannot be told apart from nothing")
    told = lo <= 0 <= hi and glued["gain_lo"] > 0 and glued["gain_decisions_ratio"] >= 1.5
    assert glued["gain_reading"] == ("the training the budgets bought, not the averaging alone" if told else
                                     "these runs cannot tell")
