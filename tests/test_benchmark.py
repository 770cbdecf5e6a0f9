"""The benchmark (sweeper/experiments/benchmark.py): its suites are the engine's boards of their seeds, readable
without the package and checked; every kind of agent is scored on the same boards by one referee; a policy that
fails is named at its board and decision; the seed-level verdicts of sweeper/experiments/stats.py."""

import json
import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest

from sweeper import Game, evaluate, make_agent, train
from sweeper.experiments import benchmark as bm, leaderboard as lb, suites
from sweeper.experiments.stats import compare_seed_rates, compare_seeds, seed_summary
from sweeper.running.env import MinesweeperEnv
from sweeper.running.policies import run_episodes, solver_action


@pytest.fixture(scope="module")
def greedy():
    return train(make_agent("greedy"), "8x8x10", 20_000, seed=3, progress=False).agent


# ------------------------------------------------------------------ suites --

@pytest.mark.parametrize("level", bm.LEVELS)
@pytest.mark.parametrize("opening", bm.OPENINGS)
def test_a_stored_suite_is_the_engines_deal_of_its_seed(level, opening):
    suite = bm.load_suite(level, opening)
    assert len(suite) == bm.SUITE_GAMES
    assert suite.layouts.shape[1:] == (suite.setting.rows, suite.setting.cols)
    assert (suite.layouts.sum(axis=(1, 2)) == suite.setting.mines).all()
    np.testing.assert_array_equal(bm.deal_suite(level, opening, 40).layouts, suite.layouts[:40])
    entry = next(e for e in bm.manifest()["suites"] if e["name"] == suite.name)
    assert entry["layouts_sha256"] == suite.checksum and entry["seed"] == bm.SUITE_SEEDS[suite.name]


def test_the_openings_guards_hold_on_every_board():
    assert not bm.load_suite("beginner", "safe").layouts[:, 0, 0].any()
    assert not bm.load_suite("expert", "zero").layouts[:, :2, :2].any()
    assert bm.load_suite("beginner", "reference").layouts[:, 0, 0].any()  # the reference opening guards nothing


def test_a_suite_reads_without_the_package_as_its_manifest_says():
    man = json.loads((bm.SUITE_DIR / "manifest.json").read_text())
    e = man["suites"][0]
    z = np.load(bm.SUITE_DIR / e["file"], allow_pickle=False)
    games, rows, cols = z["shape"]
    mines = np.unpackbits(z["mines"], axis=1, count=rows * cols).reshape(games, rows, cols).astype(bool)
    import hashlib
    assert hashlib.sha256(mines.astype(np.uint8).tobytes()).hexdigest() == e["layouts_sha256"]
    assert hashlib.sha256((bm.SUITE_DIR / e["file"]).read_bytes()).hexdigest() == e["file_sha256"]
    assert (rows, cols, e["mines"]) == (8, 8, 10) and e["opening"] == "reference" and e["games"] == games


def test_a_changed_suite_is_refused(tmp_path, monkeypatch):
    bm.write_suites(tmp_path, games=5)
    monkeypatch.setattr(suites, "SUITE_GAMES", 5)  # a folder of 5-board suites
    suite = bm.load_suite("beginner", "reference", tmp_path)
    changed = suite.layouts.copy()
    changed[0] = changed[1]
    flat = changed.reshape(len(changed), -1)
    np.savez(tmp_path / "beginner-reference.npz", mines=np.packbits(flat, axis=1),
             shape=np.array(changed.shape, np.int64))
    with pytest.raises(ValueError, match="does not match its checksum"):
        bm.load_suite("beginner", "reference", tmp_path)
    with pytest.raises(ValueError, match="level must be one of"):
        bm.load_suite("huge")


# ------------------------------------------------------------------ scores --

def _summary(agent, **kw):
    s = bm.score(agent, "beginner", games=kw.pop("games", 150), regret_games=kw.pop("regret_games", 30), **kw)
    return s.summary()


@pytest.mark.parametrize("who", ["solver", "random", "greedy", "thompson"])
def test_every_agent_is_scored_the_same_way_on_both_paths(who, greedy):
    agent = {"greedy": greedy, "thompson": None}.get(who, who)
    if who == "thompson":
        agent = train(make_agent("thompson"), "8x8x10", 5_000, seed=2, progress=False).agent
    s = _summary(agent)
    assert s["games"] == 150 and s["regret_games"] == 30
    assert s["paths_agree"] == 30  # the environment's games are the fast player's games
    assert 0 <= s["win_low"] <= s["win_rate"] <= s["win_high"] <= 1
    assert s["decisions"] > 0 and s["cpu_us_per_decision"] > 0 and 0 < s["safe_revealed"] <= 1
    assert s["machine"]["cpu"] and s["suite_sha256"] == bm.load_suite("beginner").checksum


def test_the_solver_has_no_regret_and_random_clicks_have_some():
    assert _summary("solver")["regret_per_decision"] == 0.0
    assert _summary("random")["regret_per_decision"] > 0.1


def test_a_table_agent_plays_the_games_of_evaluate_on_the_suite(greedy):
    suite = bm.load_suite("beginner")
    s = bm.score(greedy, games=100, regret_games=0)
    run = evaluate(greedy, "8x8x10", None, bm.AGENT_SEED, freeze=True, layouts=list(suite.layouts[:100]),
                   progress=False)
    np.testing.assert_array_equal(s.games["won"].to_numpy(), run.records["won"].to_numpy())


def test_a_policy_is_refereed_and_scored_like_the_agent_it_copies():
    def my_solver(view, mines):
        return solver_action(view, mines)
    mine = _summary(my_solver, regret_games=20)
    ref = _summary("solver", regret_games=20)
    assert mine["agent"] == "my_solver" and mine["paths_agree"] is None
    assert (mine["wins"], mine["regret_per_decision"]) == (ref["wins"], 0.0)


def test_the_same_agent_gets_the_same_score(greedy):
    a, b = _summary(greedy), _summary(greedy)
    for k in ("test_cpu_seconds", "cpu_us_per_decision", "machine"):
        a.pop(k), b.pop(k)
    assert a == b


class _Reset:
    def __init__(self):
        self.games = 0

    def reset(self):
        self.games += 1

    def __call__(self, view):
        r, c = np.argwhere(view == 9)[0]
        return int(r) * view.shape[1] + int(c)


def test_a_policy_with_reset_is_reset_before_each_game():
    p = _Reset()
    bm.score(p, games=7, regret_games=0)
    assert p.games == 7


class _OwnDraws:
    """A policy with a random generator of its own and no reset: any extra call would change its later games."""

    def __init__(self):
        self.rng = np.random.default_rng(11)

    def __call__(self, view):
        return int(self.rng.choice(np.flatnonzero(view.ravel() == 9)))


def test_the_warm_up_leaves_a_policys_games_as_they_were():
    # the scores before the warm-up was added: the policy alone, on a fresh environment, board after board
    suite = bm.load_suite("beginner")
    s = bm.score(_OwnDraws(), games=60, regret_games=0)
    played = run_episodes(MinesweeperEnv("8x8x10"), _OwnDraws(), layouts=list(suite.layouts[:60]))
    assert s.games["won"].tolist() == [e["won"] for e in played]
    assert s.games["clicks"].tolist() == [e["steps"] for e in played]
    assert isinstance(s.compile_seconds, float) and s.summary()["decisions"] == sum(e["steps"] for e in played)


def test_a_policys_test_cpu_starts_after_the_warm_up(monkeypatch):
    """The warm-up plays a board through the environment before the test CPU clock starts, without the policy; the
    timed section holds the scored games' moves and nothing else (no timing value is read)."""
    log = []

    class Logged(bm.MinesweeperEnv):
        def step(self, action):
            log.append("step")
            return super().step(action)

    def policy(view):
        log.append("policy")
        r, c = np.argwhere(view == 9)[0]
        return int(r), int(c)

    clock = iter(range(1_000))
    monkeypatch.setattr(bm, "MinesweeperEnv", Logged)
    monkeypatch.setattr(bm, "time", SimpleNamespace(perf_counter=lambda: 0.0,
                                                    process_time=lambda: log.append("clock") or next(clock)))
    s = bm.score(policy, games=25, regret_games=5)
    assert log.count("clock") == 2
    start, stop = log.index("clock"), len(log) - 1 - log[::-1].index("clock")
    warm, timed, regret = log[:start], log[start + 1:stop], log[stop + 1:]
    assert warm and set(warm) == {"step"}  # a board played through the environment, the policy never called
    assert timed.count("step") == timed.count("policy") == s.games["clicks"].sum() == s.summary()["decisions"]
    assert regret.count("policy") == s.regret["decisions"].sum()  # the regret games come after the timing


def test_an_agent_with_a_fast_player_is_warmed_up_on_its_own_player(greedy, monkeypatch):
    calls = []
    fast = bm._Table.fast
    monkeypatch.setattr(bm._Table, "fast", lambda self, suite, layouts: calls.append(len(layouts)) or
                        fast(self, suite, layouts))
    bm.score(greedy, games=40, regret_games=0)
    assert calls == [1, 40]


@pytest.mark.parametrize("policy, message", [
    (lambda view: 2.5, r"board 0 of the suite beginner-reference, decision 1: the policy returned 2.5 \(float\)"),
    (lambda view: (8, 0), r"tile \(8, 0\) is off the 8x8 board"),
    (lambda view: 64, r"action 64 is off the board"),
    (lambda view: True, r"returned True \(bool\)"),
    (lambda view: tuple(np.argwhere(view != 9)[0]), r"decision 1: tile \(\d, \d\) is already revealed"),
    (lambda view: 1 // 0, r"decision 1: the policy raised ZeroDivisionError: integer division or modulo by zero"),
    (lambda a, b, c: 0, r"takes 3 required arguments"),
])
def test_a_bad_policy_is_named_at_its_board_and_decision(policy, message):
    with pytest.raises(bm.BenchmarkError, match=message):
        bm.score(policy, games=3, regret_games=0)


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="at most the suite's 10,000 boards"):
        bm.score("solver", games=10_001)
    with pytest.raises(ValueError, match="regret_games .* must be at most games"):
        bm.score("solver", games=5, regret_games=6)
    with pytest.raises(ValueError, match="level and opening have no effect"):
        bm.score("solver", "expert", suite=bm.load_suite("beginner"))
    with pytest.raises(ValueError, match="agent must be 'solver', 'search', 'random'"):
        bm.score("greedy")
    with pytest.raises(ValueError, match="not a function"):
        bm.resolve_agent("sweeper.experiments.benchmark:SUITE_GAMES")


def test_the_searching_solver_is_an_agent_and_its_two_paths_agree():
    assert bm.resolve_agent("search") == "search"
    s = bm.score("search", "expert", "safe", games=8, regret_games=3)
    assert s.agent == "search" and len(s.games) == 8
    assert s.paths_agree == 3 and s.paths_agree_clicks == 3  # the environment's games click as the kernel does


def test_the_command_line_scores_a_policy_and_names_a_bad_one(tmp_path):
    (tmp_path / "mine.py").write_text("import numpy as np\n"
                                      "def corner(view):\n    r, c = np.argwhere(view == 9)[0]\n    return int(r), int(c)\n"
                                      "def broken(view):\n    raise KeyError('x')\n")
    run = lambda *a: subprocess.run([sys.executable, "-m", "sweeper", "benchmark", *a], cwd=tmp_path,  # noqa: E731
                                    capture_output=True, text=True, timeout=300)
    ok = run("mine:corner", "--games", "20", "--regret-games", "5", "--json")
    assert ok.returncode == 0, ok.stderr
    out = json.loads(ok.stdout.strip().splitlines()[-1])
    assert out["agent"] == "corner" and out["games"] == 20 and out["regret_games"] == 5
    assert out["compile_seconds"] >= 0  # the warm-up, reported apart from the test CPU
    text = run("mine:corner", "--games", "20", "--regret-games", "0")
    assert text.returncode == 0 and "not counted:" in text.stdout and "before the timing" in text.stdout
    bad = run("mine:broken", "--games", "3")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.strip() == ("error: broken on board 0 of the suite beginner-reference, decision 1: the policy "
                                  "raised KeyError: 'x'")
    for args, message in ((("nothere:f",), "cannot import 'nothere'"), (("mine:nope",), "'mine' has no 'nope'"),
                          (("x.npz",), "no agent file at x.npz"), (("solver", "--name", "s"), "--name names a"),
                          (("greedy",), "agent must be solver, search, random, an agent file")):
        r = run(*args)
        assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)


def test_an_agent_file_is_scored_from_the_command_line(tmp_path, greedy):
    greedy.save(tmp_path / "g.npz")
    r = subprocess.run([sys.executable, "-m", "sweeper", "benchmark", str(tmp_path / "g.npz"), "--games", "50",
                        "--regret-games", "10", "--json"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["agent"] == "greedy" and out["wins"] == _summary(greedy, games=50, regret_games=10)["wins"]


# ------------------------------------------------------ seed-level verdicts --

def _seeds(rates, games=1000):
    return [np.r_[np.ones(int(round(r * games))), np.zeros(games - int(round(r * games)))] for r in rates]


def test_pooled_and_seed_level_answers_can_disagree():
    spread, steady = _seeds([0.60, 0.80, 0.70]), _seeds([0.74, 0.75, 0.76])
    c = compare_seeds(spread, steady)
    assert c["pooled_verdict"] == "less than"  # 3,000 games each counted as independent
    assert c["verdict"] == "cannot be told apart"  # three seeds this spread cannot order them
    assert c["low"] < 0 < c["high"]
    s = seed_summary(spread)
    assert s["seeds"] == [0.6, 0.8, 0.7] and s["low"] < s["pooled_low"] < s["pooled_high"] < s["high"]


def test_seed_level_verdicts():
    assert compare_seeds(_seeds([0.80, 0.81, 0.82]), _seeds([0.70, 0.71, 0.72]))["verdict"] == "more than"
    assert compare_seeds(_seeds([0.70, 0.71, 0.72]), _seeds([0.80, 0.81, 0.82]))["verdict"] == "less than"
    assert compare_seeds(_seeds([0.700, 0.701, 0.702]), _seeds([0.701, 0.700, 0.702]))["verdict"] == "level with"
    assert compare_seeds(_seeds([0.9]), _seeds([0.1]))["verdict"] == "cannot be told apart"  # one seed each
    with pytest.raises(ValueError, match="same boards"):
        compare_seeds(_seeds([0.5, 0.6], 100), _seeds([0.5, 0.6], 200))
    with pytest.raises(ValueError, match="0 \\(lost\\) or 1 \\(won\\)"):
        seed_summary([np.array([0.5, 1.0])])


def test_the_unpaired_verdict_reads_the_seeds_rates_alone():
    # the same verdict and interval as the paired one when the rates are the same
    a, b = _seeds([0.80, 0.81, 0.82]), _seeds([0.70, 0.71, 0.72])
    paired, unpaired = compare_seeds(a, b), compare_seed_rates([0.80, 0.81, 0.82], [0.70, 0.71, 0.72])
    assert unpaired["verdict"] == paired["verdict"] == "more than"
    assert unpaired["low"] == pytest.approx(paired["low"]) and "unpaired" in unpaired["method"]
    # seeds tested on different numbers of boards are fine here; one seed a side orders nothing
    assert compare_seed_rates([0.65, 0.66, 0.64], [0.72, 0.73, 0.74, 0.75])["verdict"] == "less than"
    assert compare_seed_rates([0.9], [0.1])["verdict"] == "cannot be told apart"
    for bad in ([], [1.2], [float("nan")]):
        with pytest.raises(ValueError, match="compare_seed_rates"):
            compare_seed_rates(bad, [0.5, 0.6])


def test_a_board_of_the_suite_is_a_game():
    suite = bm.load_suite("intermediate", "zero")
    g = Game("16x16x40", opening="zero", mines=suite.layouts[7])
    assert g.status == "ongoing" and (g.view[:2, :2] != 9).all()


# ------------------------------------------------------------- stored runs --

def test_a_benchmark_run_stores_scores_games_and_checkpoints_and_keeps_times_out_of_its_tables():
    test = {"levels": ["beginner", "expert"], "games": [30, 5], "regret_games": [5, 2], "opening": "reference",
            "checkpoint_games": 20}
    budget = {"board": "8x8x10", "games": 2_000, "chunk": 500, "checkpoints": [500, 2_000]}
    a = lb.benchmark_task("greedy", 4, test, budget)
    b = lb.benchmark_task("greedy", 4, test, budget)
    for name in ("scores", "games", "checkpoints"):
        assert a.tables[name].equals(b.tables[name])  # deterministic
        assert not [c for c in a.tables[name].columns if "second" in c or "cpu" in c]
    assert list(a.tables["scores"]["level"]) == ["beginner", "expert"]
    assert list(a.tables["checkpoints"]["games_trained"]) == [500, 2_000]
    assert len(a.tables["games"]) == 35 and a.tables["scores"]["agent"].tolist() == ["greedy", "greedy"]
    i = a.info
    assert i["train_cpu_seconds"] > 0 and len(i["checkpoint_train_cpu_seconds"]) == 2
    assert i["checkpoint_train_cpu_seconds"][0] < i["checkpoint_train_cpu_seconds"][1] <= i["train_cpu_seconds"]
    assert set(i["test_cpu_seconds"]) == {"beginner", "expert"} and i["machine"]["cpu"]
    assert i["calibration_games_per_cpu_second"] > 0
    # the last checkpoint is the trained agent: the same boards give the same wins
    final = bm.score(train(make_agent("greedy"), "8x8x10", 2_000, seed=4, progress=False).agent, games=20,
                     regret_games=0)
    assert a.tables["checkpoints"]["wins"].iloc[-1] == final.wins


def test_the_best_window_agent_plays_its_table():
    agent = lb.best_window_agent("8x8x10")
    assert agent.table.meta[0] > 0 or len(agent.table.keys) > 0
    s = bm.score(agent, games=100, regret_games=10).summary()
    assert s["paths_agree"] == 10 and s["win_rate"] > 0.5
    with pytest.raises(ValueError, match="no best-window table of 16x30x99"):
        lb.best_window_agent("16x30x99")
