"""The command line: train/eval with --json, saving and loading, clear errors."""

import json
import subprocess
import sys

import pytest

from sweeper.cli import main

KEYS = {"agent", "board", "episodes", "wins", "win_rate", "actions_recorded", "perfect_actions", "seconds",
        "games_per_second"}


def last_json(capsys):
    out = capsys.readouterr().out.strip().splitlines()
    return json.loads(out[-1])


def test_train_then_eval(tmp_path, capsys):
    path = tmp_path / "g.npz"
    assert main(["train", "--agent", "greedy", "--board", "8x8x10", "--episodes", "2000", "--seed", "3",
                 "--save", str(path), "--json", "--no-progress"]) == 0
    t = last_json(capsys)
    assert KEYS <= set(t) and t["episodes"] == 2000 and t["agent"] == "greedy" and path.exists()
    assert main(["eval", "--load", str(path), "--board", "16x30x99", "--episodes", "200", "--freeze", "--json",
                 "--no-progress"]) == 0
    e = last_json(capsys)
    assert KEYS <= set(e) and e["board"] == "16x30x99" and e["learning"] is False
    assert e["actions_recorded"] == t["actions_recorded"]  # frozen: the agent did not change


def test_same_seed_same_json_numbers(capsys):
    outs = []
    for _ in range(2):
        main(["train", "--agent", "ucb:0.1", "--episodes", "500", "--seed", "5", "--json", "--no-progress"])
        d = last_json(capsys)
        outs.append({k: d[k] for k in ("wins", "actions_recorded", "perfect_actions")})
    assert outs[0] == outs[1]


def test_mixed_boards_and_openings(capsys):
    assert main(["train", "--agent", "egreedy:0.01", "--board", "8x8x10,8x8x11", "--episodes", "300",
                 "--opening", "safe", "--first", "3,3", "--json", "--no-progress"]) == 0
    d = last_json(capsys)
    assert d["episodes"] == 600 and d["board"] == "8x8x10+8x8x11" and d["opening"] == "safe"


@pytest.mark.parametrize("argv, message", [
    (["train", "--agent", "magic"], "agent must be"),
    (["train", "--board", "8x8x64"], "do not fit"),
    (["train", "--episodes", "-5"], "episodes"),
    (["train", "--first", "x"], "ROW,COL"),
    (["eval", "--load", "/nonexistent.npz"], "no agent file"),
])
def test_bad_arguments_exit_2_with_a_message(argv, message, capsys):
    assert main(argv + ["--no-progress"]) == 2
    assert message in capsys.readouterr().err


def test_module_entry_point_runs():
    out = subprocess.run([sys.executable, "-m", "sweeper", "train", "--episodes", "100", "--json", "--no-progress"],
                         capture_output=True, text=True, check=True).stdout
    assert KEYS <= set(json.loads(out.strip().splitlines()[-1]))


def test_bench_quick_prints_every_workload():
    from sweeper.bench import run_benchmarks
    lines = []
    rows = run_benchmarks(quick=True, out=lines.append)
    names = [r["workload"] for r in rows]
    for part in ("greedy train", "slow reference", "plug-in rule, njit", "plug-in rule, NumPy",
                 "plug-in rule, Python loop", "thompson", "regret probe 8x8x10", "regret probe 16x30x99"):
        assert any(part in n for n in names), part
    assert len(lines) == len(rows) + 2  # the reference's note and the header
    timed = [r for r in rows if "games" in r]
    assert all(r["games_per_second"] > 0 and r["x_greedy"] > 0 and r["x_reference"] > 0 for r in timed)
    assert rows[0]["x_greedy"] == 1.0
    # Thompson's cost explained: its Beta draws timed alone, on the draws of a sample of its decisions
    draws = next(r for r in rows if "Beta draws alone" in r["workload"])
    assert draws["draws_per_decision"] > 1 and draws["ns_per_draw"] > 0 and 0 <= draws["closed_form_share"] <= 1
    assert draws["us_per_decision_drawing"] == pytest.approx(draws["draws_per_decision"] * draws["ns_per_draw"] / 1000,
                                                             rel=2e-3)
    assert draws["share_of_time"] == pytest.approx(draws["us_per_decision_drawing"] / draws["us_per_decision_trained"],
                                                   rel=2e-3)
    assert draws["games_timed"] == 2_000 and "games" not in draws  # no games/s: it explains, it does not time
    assert all(r["runs"] == 1 for r in timed if "runs" in r)  # quick: one run each
    # the three plug-in forms of greedy and the built-in play the same games
    rates = {n: r["win_rate"] for n, r in zip(names, rows) if "win_rate" in r}
    same_length = lambda part, games: next(v for n, v in rates.items() if part in n and f"({games:,} games)" in n)  # noqa: E731
    assert (same_length("NumPy, in Python", 1_000) == same_length("Python loop, compile=False", 1_000))
    assert (same_length("greedy train 8x8x10", 10_000) == same_length("plug-in rule, njit", 10_000)
            == same_length("NumPy, in Python", 10_000) == same_length("Python loop, compiled by Rule", 10_000))
    assert [r["us_per_decision"] > 0 for r in rows if "regret probe" in r["workload"]] == [True] * 3


def test_a_saved_bench_reads_back_and_a_bad_one_is_refused(tmp_path):
    from sweeper.bench import read_bench, save_bench
    rows = [{"workload": "greedy train 8x8x10 (10 games)", "games": 10, "seconds": 0.1, "games_per_second": 100.0,
             "x_greedy": 1.0, "x_reference": 50.0}]
    record = save_bench(rows, tmp_path / "bench.json", repeat=3)
    back = read_bench(tmp_path / "bench.json")
    assert back == json.loads(json.dumps(record)) and back["rows"] == rows
    assert {"cpu", "cores", "system"} <= set(back["machine"]) and "commit" in back["provenance"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left
    (tmp_path / "bad.json").write_text('{"format": 1, "rows": []}')
    with pytest.raises(ValueError, match="not a bench file"):
        read_bench(tmp_path / "bad.json")
    with pytest.raises(ValueError, match="does not exist"):
        read_bench(tmp_path / "none.json")


@pytest.mark.parametrize("argv, message", [
    (["bench", "--quick", "--save", "b.json"], "--save keeps a full bench"),
    (["bench", "--repeat", "0"], "repeat must be a whole number >= 1"),
])
def test_bench_options_that_cannot_work_are_refused(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "b.json").exists()


@pytest.mark.parametrize("player", ["solver", "random"])
def test_eval_solver_and_random_players(player, capsys):
    assert main(["eval", "--agent", player, "--board", "8x8x10", "--opening", "zero", "--episodes", "200",
                 "--seed", "2", "--json", "--no-progress"]) == 0
    d = last_json(capsys)
    assert KEYS <= set(d) and d["agent"] == player and d["episodes"] == 200 and d["opening"] == "zero"
    assert (d["win_rate"] > 0.6) if player == "solver" else (d["win_rate"] < 0.05)
    assert main(["eval", "--agent", player, "--episodes", "200", "--seed", "2", "--opening", "zero", "--json",
                 "--no-progress"]) == 0
    assert last_json(capsys)["wins"] == d["wins"]  # same seed, same games


def test_audit_a_saved_agent(tmp_path, capsys):
    path = tmp_path / "g.npz"
    assert main(["train", "--episodes", "2000", "--seed", "3", "--save", str(path), "--json", "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["audit", "--load", str(path), "--episodes", "200", "--seed", "5", "--json"]) == 0
    a = last_json(capsys)
    lost = a["lost: forced guess"] + a["lost: missed a safe tile"] + a["lost: clicked a known mine"]
    assert a["episodes"] == 200 and lost == 200 - a["wins"] and a["fallbacks"] == 0
    assert main(["eval", "--load", str(path), "--episodes", "200", "--seed", "5", "--freeze", "--json",
                 "--no-progress"]) == 0
    assert last_json(capsys)["wins"] == a["wins"]  # the same frozen games
    assert main(["audit", "--load", str(path), "--episodes", "20", "--board", "8x8x10,8x8x11"]) == 2
    assert "one board" in capsys.readouterr().err
    assert main(["audit", "--load", str(path), "--episodes", "30"]) == 0
    assert "calibration over every candidate" in capsys.readouterr().out


def test_save_force_refuses_a_node_that_is_not_a_regular_file(tmp_path, capsys):
    """Before: ``--save /dev/full --force`` replaced the device with a regular file and reported success."""
    import os
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code = main(["train", "--episodes", "10", "--save", str(fifo), "--force", "--no-progress"])
    assert code != 0 and "not a regular file" in capsys.readouterr().err
    assert fifo.exists() and not fifo.is_file()


# ------------------------------------------------------------ issue 49: clear errors --

def test_a_failing_rule_is_a_one_line_error(tmp_path):
    """Issue 49: `train --agent rule:mybad.choose`, whose rule returns len(q), printed a raw traceback."""
    import os
    from pathlib import Path

    import sweeper
    (tmp_path / "mybad.py").write_text("def choose(q, n, t, params, rng):\n    return len(q), False\n")
    repo = Path(sweeper.__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(repo)]))
    save = tmp_path / "agent.npz"
    r = subprocess.run([sys.executable, "-m", "sweeper", "train", "--agent", "rule:mybad.choose", "--board", "5x5x3",
                        "--episodes", "5", "--no-progress", "--save", str(save)], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.startswith("error: rule 'mybad.choose': choose returned index ") and r.stderr.count("\n") == 1
    assert "(after 0 finished games; nothing was written)" in r.stderr and not save.exists()


@pytest.mark.parametrize("source, message", [
    ("def choose(q, n, t, params, rng)\n    return 0, False\n", "SyntaxError"),
    ("raise RuntimeError('no')\n", "RuntimeError: no"),
])
def test_a_rule_module_that_fails_to_import_is_a_one_line_error(source, message, tmp_path, monkeypatch, capsys):
    (tmp_path / "mybroken.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["train", "--agent", "rule:mybroken.choose", "--episodes", "5", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: cannot import rule 'mybroken.choose': importing 'mybroken' raised " + message)
    assert err.count("\n") == 1


def test_a_state_action_agent_plays_only_boards_of_its_table_shape(tmp_path, capsys):
    """Issue 49: a 4x4 state-action agent file played 2x8 and 3x3 boards without a word (its keys are whole views:
    a 2x8 view read as a 4x4 one means nothing)."""
    from sweeper import Episode, StateAction, evaluate, load_agent, make_agent, train
    path = tmp_path / "sa.npz"
    assert main(["train", "--agent", "sa", "--board", "4x4x3", "--episodes", "300", "--save", str(path),
                 "--no-progress"]) == 0
    capsys.readouterr()
    agent = load_agent(path)
    assert agent.shape == (4, 4) and agent.metadata()["params"] == {"rows": 4, "cols": 4}
    for board in ("2x8x3", "3x3x1"):
        for play in (lambda: evaluate(agent, board, 5, freeze=True, progress=False),
                     lambda: train(agent, board, 5, progress=False), lambda: Episode(agent, board)):
            with pytest.raises(ValueError, match=rf"table is of 4x4 boards .*: it cannot play {board}"):
                play()
        assert main(["eval", "--load", str(path), "--board", board, "--episodes", "5", "--no-progress"]) == 2
        assert f"it cannot play {board}, a {board[0]}x{board[2]} board" in capsys.readouterr().err
    assert len(evaluate(agent, "4x4x5", 5, freeze=True, progress=False).records) == 5
    fresh = make_agent("sa")  # a new agent takes the shape of the boards it first plays, one shape
    with pytest.raises(ValueError, match="holds the views of one board shape: 4x4x3 .4x4. and 2x8x3 .2x8. differ"):
        train(fresh, ["4x4x3", "2x8x3"], 5, progress=False)
    assert fresh.shape is None  # refused before any change
    train(fresh, "2x8x3", 5, progress=False)
    assert fresh.shape == (2, 8) and fresh.copy().shape == (2, 8)
    with pytest.raises(ValueError, match="at most 16 tiles"):
        StateAction(shape=(5, 4))


def test_an_agent_file_whose_state_action_shape_is_bad_is_refused(tmp_path):
    import json as _json

    import numpy as np

    from sweeper import load_agent, make_agent, train
    agent = train(make_agent("sa"), "3x3x1", 50, progress=False).agent
    path = agent.save(tmp_path / "sa.npz")
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    meta = _json.loads(str(arrays["metadata"]))
    for params, message in (({"rows": 5, "cols": 4}, "a 5x4 board; the state-action agent's boards have at most 16"),
                            ({"rows": 0, "cols": 3}, "params.rows' must be a positive integer"),
                            ({"rows": 3}, r"must have exactly \[\] \(or \['rows', 'cols'\]"),
                            ({"rows": 2, "cols": 2}, "is not the key of a state-action pair of a 2x2 board")):
        arrays["metadata"] = np.array(_json.dumps({**meta, "params": params}))
        bad = tmp_path / "bad.npz"
        np.savez_compressed(bad, **arrays)
        with pytest.raises(ValueError, match=message):
            load_agent(bad)
    arrays["metadata"] = np.array(_json.dumps({**meta, "params": {}}))  # a file of older code: no shape
    np.savez_compressed(tmp_path / "old.npz", **arrays)
    assert load_agent(tmp_path / "old.npz").shape is None


WARM_PROBE = """
import gc, json, sys
from numba.core.dispatcher import Dispatcher

def overloads():  # every kernel of the package this process has compiled or loaded from numba's cache
    return {id(d): len(d.overloads) for d in gc.get_objects()
            if isinstance(d, Dispatcher) and d.py_func.__module__.startswith("sweeper")}

during = []
def timed(fn, warm_up=0):  # the first ``warm_up`` calls are the warm-up: not timed
    calls = []
    def run(*a, **k):
        calls.append(1)
        before = overloads()
        out = fn(*a, **k)
        if len(calls) > warm_up:
            during.extend(i for i, n in overloads().items() if n != before.get(i, 0))
        return out
    return run
"""

WARM_RUN = WARM_PROBE + """
import sweeper.cli
from sweeper.running import players, training

training.train, training.evaluate = timed(training.train), timed(training.evaluate)
players.play_solver = timed(players.play_solver, warm_up=1)  # the players' warm-up is a game of the player
code = sweeper.cli.main(sys.argv[1:])
print(json.dumps({"code": code, "kernels loaded while timed": len(during)}))
"""


@pytest.mark.parametrize("argv", [["train", "--agent", "ucb:0.1", "--board", "6x6x5,7x7x6"],
                                  ["eval", "--agent", "solver", "--board", "6x6x5"]])
def test_the_games_per_second_leave_out_compiling(argv, tmp_path):
    """Issue 49: the first run's games_per_second included numba compiling (337 games/s printed, 7,819 on the
    second run). A warm-up game now compiles (or loads from the cache) every kernel before the timed games; its
    time is reported apart as compile_seconds."""
    import os
    from pathlib import Path

    import sweeper
    script = tmp_path / "warm.py"
    script.write_text(WARM_RUN)
    repo = Path(sweeper.__file__).resolve().parents[1]
    r = subprocess.run([sys.executable, str(script), *argv, "--episodes", "300", "--json", "--no-progress"],
                       env=dict(os.environ, PYTHONPATH=str(repo)), capture_output=True, text=True, timeout=600)
    lines = r.stdout.strip().splitlines()
    summary, check = json.loads(lines[-2]), json.loads(lines[-1])
    assert check == {"code": 0, "kernels loaded while timed": 0}, r.stderr
    assert summary["compile_seconds"] > 0 and summary["games_per_second"] > 0


WARM_TASK = WARM_PROBE + """
from sweeper.experiments import audits, bandits

bandits.play, bandits.evaluate, audits.play = timed(bandits.play), timed(bandits.evaluate), timed(audits.play)
kind = sys.argv[1]
if kind == "bandit":
    out = bandits.bandit_task(bandits.BanditTask("ucb:0.1", ["6x6x5", "7x7x6"], 200, 1, tests=["8x8x10"],
                                                 test_episodes=50))
else:
    out = audits.audit_task("greedy", ["6x6x5"], 200, 1, audits=["6x6x5"], audit_episodes=5)
print(json.dumps({"kernels loaded while timed": len(during), "compile_seconds": out.info["compile_seconds"] > 0}))
"""


@pytest.mark.parametrize("kind", ["bandit", "audit"])
def test_stored_training_times_leave_out_compiling(kind, tmp_path):
    """As on the command line, in what is stored: a run's train_seconds and games_per_second (the book's "training
    games/s") included compiling the kernels, or loading them from the cache, in the first task of each worker
    process. A warm-up game now comes first, its time stored apart as compile_seconds."""
    import os
    from pathlib import Path

    import sweeper
    script = tmp_path / "warm.py"
    script.write_text(WARM_TASK)
    repo = Path(sweeper.__file__).resolve().parents[1]
    r = subprocess.run([sys.executable, str(script), kind], env=dict(os.environ, PYTHONPATH=str(repo)),
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout.strip().splitlines()[-1]) == {"kernels loaded while timed": 0, "compile_seconds": True}
