"""Plug-in choice rules (sweeper/agents/custom.py): faithful to the built-in agents, seeded, and loud when wrong."""

import math

import numpy as np
import pytest
from numba import njit

from sweeper import Episode, Greedy, UCBAgent, make_agent, play
from sweeper.agents import rule_library as lib
from sweeper.agents.custom import Rule, RuleError
from sweeper.agents.rule_library import rule_from_spec
from sweeper.agents.kinds import RuleAgent, load_agent
from sweeper.game.engine import Game


def layouts(board, count, seed):
    return [Game(board, seed=seed * 1000 + i).mines for i in range(count)]


def same_games(first, second, board, lays):
    """Two agents (a built-in and a rule, or two rules: the compiled and the plain form of one) play the same
    games on the layouts ``lays`` of ``board``, and end with the same table; returns the second's records."""
    ours = play(second, board, len(lays), layouts=lays, progress=False).records
    theirs = play(first, board, len(lays), layouts=lays, progress=False).records
    assert ours.equals(theirs)
    keys, q, n = second.table.recorded()
    k2, q2, n2 = first.table.recorded()
    assert np.array_equal(keys, k2) and np.array_equal(q, q2) and np.array_equal(n, n2)
    return ours


def lowest_last(q, n, t, params):
    """The paper's give_up re-stated: the lowest Q, the last on ties."""
    return len(q) - 1 - np.argmin(q[::-1])


@pytest.mark.parametrize("give_up", ["default", "python", "njit"])
@pytest.mark.parametrize("compiled", [True, False], ids=["njit", "python"])
@pytest.mark.parametrize("board, count", [("8x8x10", 400), ("5x5x6", 300)])
def test_restated_greedy_plays_the_builtin_games(compiled, board, count, give_up):
    gu = {"default": None, "python": lowest_last, "njit": njit(lowest_last)}[give_up]
    rule = Rule(lib.greedy_nb if compiled else lib.greedy, give_up=gu, name="greedy")
    rec = same_games(Greedy(), RuleAgent(rule), board, layouts(board, count, 1))
    if board == "5x5x6":
        assert rec["removals"].sum() > 0  # the flag limit and give_up were exercised


@pytest.mark.parametrize("compiled", [True, False], ids=["njit", "python"])
@pytest.mark.parametrize("board, count", [("8x8x10", 400), ("5x5x6", 300)])
def test_restated_ucb_plays_the_builtin_games(compiled, board, count):
    same_games(UCBAgent(0.1), RuleAgent(lib.ucb_rule(0.1, compiled)), board, layouts(board, count, 2))


def random_decisions(seed, count):
    """``count`` random decisions (Q, N, t) with many ties: Q in {-1, -0.5, 0, 0.5, 1}, unseen (N = 0) at Q = -1."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        m = int(rng.integers(1, 30))
        n = rng.integers(0, 4, m)
        yield np.where(n == 0, -1.0, rng.choice([-1.0, -0.5, 0.0, 0.5, 1.0], m)), n, int(rng.integers(1, 10_000))


def test_ucb_give_up_matches_the_builtin_choice():
    """UCB(0.1) agents rarely exceed the flag limit, so its give_up is checked on its own: on random Q and N,
    the re-stated give_up picks what the built-in rule does (lowest score, unseen -1, the last on ties)."""
    for q, n, t in random_decisions(0, 200):
        m = len(q)
        v = [-1.0 if n[i] == 0 else q[i] + np.sign(q[i]) * 0.1 * math.sqrt(math.log(t) / n[i]) for i in range(m)]
        want = max(i for i in range(m) if v[i] == min(v))
        assert lib.ucb_give_up(q, n, t, np.array([0.1])) == want == lib.ucb_give_up_nb(q, n, t, np.array([0.1]))


def test_no_flag_rules_click_what_the_flagging_agents_click():
    """The no-flags readings (``safest``, ``ucb_safest``) never flag, and whenever the greedy (UCB) rule would
    click, they click the same candidate; on random Q and N with ties."""
    c = np.array([0.1])
    for q, n, t in random_decisions(1, 300):
        for flagging, never in ((lib.greedy, (lib.safest, lib.safest_nb)),
                                (lib.ucb, (lib.ucb_safest, lib.ucb_safest_nb))):
            i, flag = flagging(q, n, t, c, None)
            picks = [fn(q, n, t, c, None) for fn in never]
            assert not picks[0][1] and not picks[1][1]
            assert picks[0][0] == picks[1][0]
            if not flag:
                assert picks[0][0] == i


def test_a_no_flag_agent_never_flags():
    run = play(make_agent("rule:safest"), "8x8x10", 300, seed=4, progress=False)
    assert run.records["flags"].sum() == 0 and run.records["removals"].sum() == 0
    run = play(make_agent("rule:ucb-safest:0.1"), "8x8x10", 300, seed=4, progress=False)
    assert run.records["flags"].sum() == 0


def test_restated_rules_with_ablations():
    lays = layouts("6x6x6", 200, 3)
    same_games(Greedy(symmetric=False), RuleAgent(lib.greedy_rule(), symmetric=False), "6x6x6", lays)
    same_games(Greedy(flags=False), RuleAgent(lib.greedy_rule(), flags=False), "6x6x6", lays)


@pytest.mark.parametrize("compiled", [True, False], ids=["njit", "python"])
def test_step_through_matches_the_builtin(compiled):
    a = Episode(Greedy(), "8x8x10", seed=5).play()
    b = Episode(RuleAgent(lib.greedy_rule(compiled)), "8x8x10", seed=5)
    while not b.done:
        cands = b.candidates()
        d = b.step()
        assert cands.loc[cands["chosen"], ["row", "col", "key"]].values.tolist() == \
            [[d.tile[0], d.tile[1], d.key]]
    assert b.table().drop(columns="score").equals(a.table().drop(columns="score"))
    ua = Episode(UCBAgent(0.1), "8x8x10", seed=6).play()
    ub = Episode(RuleAgent(lib.ucb_rule(0.1, compiled)), "8x8x10", seed=6).play()
    assert ub.table()[["target", "window centre", "action", "game"]].equals(
        ua.table()[["target", "window centre", "action", "game"]])


@pytest.mark.parametrize("spec", ["rule:softmax:0.05", "rule:decaying-eps:100", "rule:ucb1:1"])
def test_random_rules_are_seeded(spec):
    runs = [play(make_agent(spec), "8x8x10", 300, seed=s, progress=False).records for s in (4, 4, 5)]
    assert runs[0].equals(runs[1])
    assert not runs[0].equals(runs[2])


def test_python_and_compiled_versions_of_a_random_rule_agree():
    """Numba's Generator draws what NumPy's does, so the two speeds of one rule play the same games."""
    a = play(RuleAgent(lib.softmax_rule(0.05, compiled=True)), "8x8x10", 300, seed=2, progress=False).records
    b = play(RuleAgent(lib.softmax_rule(0.05, compiled=False)), "8x8x10", 300, seed=2, progress=False).records
    assert a.equals(b)


def test_spec_name_and_file_round_trip(tmp_path):
    agent = make_agent("rule:softmax:0.2")
    assert agent.name == "rule:softmax:0.2" and agent.rule.params == {"tau": 0.2}
    play(agent, "8x8x10", 200, seed=1, progress=False)
    path = agent.save(tmp_path / "soft.npz")
    back = load_agent(path)
    assert back.name == agent.name
    assert np.array_equal(back.table.recorded()[1], agent.table.recorded()[1])
    with pytest.raises(ValueError, match="takes 1 parameter"):
        rule_from_spec("softmax:1,2")
    with pytest.raises(ValueError, match="unknown rule"):
        make_agent("rule:nosuchrule")


def pick_last(q, n, t, params, rng):
    return len(q) - 1, False


def test_a_notebook_rule_loads_when_given(tmp_path):
    agent = RuleAgent(Rule(pick_last, name="pick_last"))
    play(agent, "6x6x5", 20, progress=False)
    path = agent.save(tmp_path / "last.npz")
    with pytest.raises(ValueError, match="is not the library.s: load it with load_agent"):
        load_agent(path)
    assert load_agent(path, rule=Rule(pick_last, name="pick_last")).name == "rule:pick_last"


# ------------------------------------------------------------------ bad rules --

def raises_later(q, n, t, params, rng):
    if t > 50:
        raise KeyError("no such candidate")
    return 0, False


def out_of_range(q, n, t, params, rng):
    return len(q), False


def float_index(q, n, t, params, rng):
    return 1.5, False


def not_a_pair(q, n, t, params, rng):
    return 3


def bad_flag(q, n, t, params, rng):
    return 0, "yes"


def nan_softmax(q, n, t, params, rng):  # tau = 0 makes NaN weights: searchsorted then points past the end
    w = np.exp((np.abs(q) - np.abs(q).max()) / params[0])
    cum = np.cumsum(w)
    return np.searchsorted(cum, rng.random() * cum[-1], side="right"), False


@pytest.mark.parametrize("fn, match", [
    (raises_later, "KeyError: 'no such candidate'"),
    (out_of_range, "returned index"),
    (float_index, "index must be an integer"),
    (not_a_pair, r"must return a pair \(index, flag\)"),
    (bad_flag, "flag must be True or False"),
])
@pytest.mark.parametrize("compile", [False, True], ids=["python", "compiled-if-numba-can"])
@pytest.mark.filterwarnings("ignore::sweeper.agents.custom.PythonRuleNotice")
def test_a_bad_python_rule_stops_with_a_clear_error_and_keeps_finished_games(fn, match, compile):
    with pytest.raises(RuleError, match=match) as info:
        play(RuleAgent(Rule(fn, compile=compile)), "8x8x10", 50, seed=1, progress=False)
    run = info.value.run
    assert run is not None and len(run.records) == run.episodes
    if fn is raises_later:
        assert 0 < run.episodes < 50  # the games before the failure are kept
        assert isinstance(info.value.__cause__, KeyError) and info.value.__cause__.__traceback__ is not None


def test_a_bad_compiled_rule_stops_with_a_clear_error():
    with pytest.raises(RuleError, match="returned index") as info:
        play(RuleAgent(Rule(njit(nan_softmax), {"tau": 0.0})), "8x8x10", 20, seed=1, progress=False)
    assert info.value.run.episodes == 0
    with pytest.raises(RuleError, match="KeyError") as info:
        play(RuleAgent(Rule(njit(raises_later))), "8x8x10", 50, seed=1, progress=False)
    assert isinstance(info.value.__cause__, KeyError)  # re-raised by the rule's Python source on the same inputs
    with pytest.raises(TypeError, match="must return \\(integer index, bool flag\\)"):
        play(RuleAgent(Rule(njit(float_index))), "8x8x10", 5, progress=False)


def test_bad_rule_definitions_are_refused():
    with pytest.raises(TypeError, match="choose must be a function"):
        Rule(3)
    with pytest.raises(ValueError, match="finite number"):
        Rule(pick_last, {"c": math.nan})
    with pytest.raises(ValueError, match="has parameters"):
        lib.softmax_rule().with_params(temperature=1.0)


# ------------------------------------------------------------ saved rules are data --

def greedy(q, n, t, params, rng):
    """A user's rule that happens to share a library rule's name (it always clicks the first candidate)."""
    return 0, False


def test_a_user_rule_named_like_a_library_rule_never_reloads_as_the_library_rule(tmp_path):
    agent = RuleAgent(Rule(greedy))
    play(agent, "8x8x10", 30, progress=False)
    path = agent.save(tmp_path / "mine.npz")
    with pytest.raises(ValueError, match="not the library's"):
        load_agent(path)  # before: the library's greedy, silently (2.60 decisions a game became 7.24)
    with pytest.raises(ValueError, match="trained with your own rule 'greedy', not with the library rule"):
        load_agent(path, rule=lib.greedy_rule())
    back = load_agent(path, rule=Rule(greedy))
    assert back.rule.source[0] is greedy and back.actions_recorded == agent.actions_recorded


def test_loading_an_agent_file_imports_nothing(tmp_path, monkeypatch):
    """A file naming module.function as its rule: loading it imports nothing (before: it imported the module,
    one in the current directory included)."""
    import json
    import sys
    evil = tmp_path / "evilmod.py"
    evil.write_text("import pathlib\npathlib.Path(__file__).with_name('ran').write_text('yes')\n"
                    "def rule(q, n, t, p, rng):\n    return 0, False\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    agent = RuleAgent(Rule(greedy))
    play(agent, "8x8x10", 5, progress=False)
    path = agent.save(tmp_path / "a.npz")
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays["metadata"]))
    meta["params"]["rule"] = "evilmod.rule"
    arrays["metadata"] = np.array(json.dumps(meta))
    np.savez_compressed(path, **arrays)
    with pytest.raises(ValueError, match="not a rule of the library"):
        load_agent(path)
    assert "evilmod" not in sys.modules and not (tmp_path / "ran").exists()


def test_a_library_rule_reloads_by_name(tmp_path):
    agent = make_agent("rule:softmax:0.1")
    play(agent, "8x8x10", 30, progress=False)
    back = load_agent(agent.save(tmp_path / "s.npz"))
    assert back.rule.library and back.rule.name == "softmax" and back.rule.params == {"tau": 0.1}


@pytest.mark.parametrize("spec", ["softmax:0", "softmax:-1", "decaying-eps:0", "ucb1:-0.5", "ucb:-1"])
def test_a_library_rule_checks_its_parameters(spec):
    """Before: rule:softmax:0 divided by zero and rule:softmax:-1 trained with the preference inverted."""
    with pytest.raises(ValueError, match="must be a number"):
        make_agent("rule:" + spec)


# ---------------------------------------------------- plain Python, compiled for you --

from sweeper.bench import greedy_loop  # noqa: E402  (greedy as a student writes it: a Python loop)


def random_pick(q, n, t, params, rng):
    return rng.integers(0, len(q)), rng.random() < params[0]


@pytest.mark.parametrize("fn, params", [(greedy_loop, {}), (random_pick, {"p": 0.05})])
def test_a_plain_python_rule_is_compiled_for_you_and_plays_the_same_games(fn, params):
    auto, python = Rule(fn, params), Rule(fn, params, compile=False)
    assert auto.compiled and auto.automatic and auto.notice is None and "compiled automatically" in repr(auto)
    assert not python.compiled and auto.source[0] is fn
    games = [play(RuleAgent(r), "8x8x10", 300, seed=4, progress=False).records for r in (auto, python)]
    assert games[0].equals(games[1])  # numba's Generator draws NumPy's numbers: same seed, same games
    if fn is greedy_loop:
        assert games[0].equals(play(Greedy(), "8x8x10", 300, seed=4, progress=False).records)


def uses_counter(q, n, t, params, rng):
    import collections
    return collections.Counter(n.tolist()).most_common(1)[0][0] % len(q), False


def test_a_rule_numba_cannot_compile_runs_as_python_and_says_why_once():
    from sweeper.agents.custom import PythonRuleNotice
    with pytest.warns(PythonRuleNotice, match="runs as plain Python .* because numba could not compile it: Use of "
                                             "unsupported opcode \\(IMPORT_NAME\\)") as caught:
        rule = Rule(uses_counter)
    assert len(caught) == 1 and not rule.compiled and rule.notice
    assert len(play(RuleAgent(rule), "8x8x10", 5, seed=1, progress=False).records) == 5
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not Rule(uses_counter, compile=False).compiled  # chosen on purpose: no notice


def past_the_end(q, n, t, params, rng):
    return 0, q[len(q)] > 0


def test_a_compiled_rule_checks_its_indexing_like_python():
    with pytest.raises(RuleError, match="IndexError") as info:  # numba without bounds checks would read garbage
        play(RuleAgent(Rule(past_the_end)), "8x8x10", 5, seed=1, progress=False)
    assert isinstance(info.value.__cause__, IndexError)


def test_compile_takes_a_boolean_and_only_for_python_functions():
    with pytest.raises(ValueError, match="compile must be True or False"):
        Rule(greedy_loop, compile="no")
    with pytest.raises(ValueError, match="already compiled by numba"):
        Rule(njit(greedy_loop), compile=False)


# ------------------------------------- issue 41: a compiled rule behaves as its Python self --

def flag_two(q, n, t, params, rng):
    return 0, 2


def int_of_nan(q, n, t, params, rng):
    x = float("nan")
    return int(x), False


def int_of_computed_nan(q, n, t, params, rng):
    x = q[0] * 0.0 * np.inf  # NaN at run time (Q is never infinite)
    return int(x), False


@pytest.mark.parametrize("fn, match", [
    (flag_two, "TypeError: the flag must be True or False, got 2 \\(int\\)"),
    (int_of_nan, "ValueError: cannot convert float NaN to integer"),
    (int_of_computed_nan, "ValueError: cannot convert float NaN to integer"),
])
def test_a_compiled_rule_stops_with_the_same_rule_error_as_in_python(fn, match):
    """Before: compiled, (0, 2) was taken as a flag and int(NaN) played candidate 0, silently."""
    messages = []
    for compile in (True, False):
        rule = Rule(fn, compile=compile)
        assert rule.compiled == compile
        with pytest.raises(RuleError, match=match) as info:
            play(RuleAgent(rule), "8x8x10", 5, seed=1, progress=False)
        messages.append(str(info.value))
        assert type(info.value.__cause__).__name__ == match.split(":")[0]
    assert messages[0] == messages[1]


LIMIT = 0


def below_limit(q, n, t, params, rng):
    return min(LIMIT, len(q) - 1), False


def test_a_global_changed_after_compiling_is_read_again():
    """Numba fixes the globals a rule reads when it compiles; the rule is compiled again when one changed, so it
    plays what its Python self plays (before: the value of Rule() time, silently)."""
    global LIMIT
    auto, python = Rule(below_limit), Rule(below_limit, compile=False)
    before = play(RuleAgent(auto), "8x8x10", 40, seed=1, progress=False).records
    try:
        LIMIT = 5
        after = [play(RuleAgent(r), "8x8x10", 40, seed=1, progress=False).records for r in (auto, python)]
    finally:
        LIMIT = 0
    assert auto.compiled and after[0].equals(after[1]) and not after[0].equals(before)


def wraps(q, n, t, params, rng):
    k = t * 4611686018427387904  # 2**62: past 2**63 at t = 2, where Python's integer grows
    return 0 if k > 0 else len(q) - 1, False


def test_integer_arithmetic_that_wraps_is_named_at_rule_time():
    from sweeper.agents.custom import CompiledRuleNotice
    with pytest.warns(CompiledRuleNotice, match="its integer arithmetic at line \\d+ wraps past 2\\*\\*63"):
        rule = Rule(wraps)
    assert rule.compiled and "64 bits" in rule.notice
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Rule(greedy_loop)  # no integer product: no notice
        Rule(wraps, compile=False)


def np_int_of_nan(q, n, t, params, rng):
    return np.int64(np.nan), False  # numba computes the constant when it compiles: some integer, silently


def np_int_of_computed_nan(q, n, t, params, rng):
    x = q[0] * 0.0 * np.inf
    return np.int32(x), False


@pytest.mark.parametrize("fn", [np_int_of_nan, np_int_of_computed_nan])
def test_a_float_made_a_numpy_integer_is_named_at_rule_time(fn):
    """Compiled, np.int64(NaN) gives some integer and the rule plays on, where in Python it raises (a constant
    NaN) or gives -2**63 (an index out of range): numba cannot check it, so Rule() names the line."""
    from sweeper.agents.custom import CompiledRuleNotice
    line = fn.__code__.co_firstlineno + (1 if fn is np_int_of_nan else 2)
    with pytest.warns(CompiledRuleNotice, match=f"conversion of a float to a NumPy integer at line {line} gives some "
                                                "integer for a NaN"):
        rule = Rule(fn)
    assert rule.compiled and "int(x)" in rule.notice
    with pytest.raises(RuleError):
        play(RuleAgent(Rule(fn, compile=False)), "8x8x10", 5, seed=1, progress=False)
