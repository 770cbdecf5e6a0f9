"""Issue 13, "results you can trust": each case of the issue as a regression test.

Stores: edited numbers, results of another behaviour version, concurrent writers, stale
temporary directories, killed runners. Agent files: huge declared arrays, bad metadata. CLI:
destinations checked before the run, valid JSON, --first with the reference opening, messages
of a partial reproduction. Long runs: Ctrl-C between kernel calls, calls sized by work.
"""

import contextlib
import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sweeper.agents.agent as agent_module
import sweeper.experiments.runner as runner
from sweeper import evaluate, load_agent, make_agent, train
from sweeper.agents.files import MAX_ACTIONS
from sweeper.cli import main
from sweeper.experiments.reproduce import QUICK_RESULTS, REPO, default_results
from sweeper.experiments.runner import Output, Store, Task, run_tasks, task_kind
from sweeper.running import training
from sweeper.version import BEHAVIOUR_VERSION


@task_kind("test-trust")
def _rate(x: int, label: str = "rate") -> Output:
    return Output(tables={"t": pd.DataFrame({"x": [x]})}, info={"win_rate": x / 10, "wins": x})


def tasks(n=3):
    return [Task.make("test-trust", x=i) for i in range(n)]


# ------------------------------------------------------------ 1. an edited meta.json --

def test_an_edited_number_in_meta_json_is_refused_and_recomputed(tmp_path):
    store = Store(tmp_path)
    run_tasks(tasks(), store, progress=False)
    meta = store.path(tasks()[2]) / "meta.json"
    meta.write_text(meta.read_text().replace('"win_rate": 0.2', '"win_rate": 0.9999'))
    assert store.status(tasks()[2]).startswith("corrupt: meta.json does not match its checksum")
    with pytest.raises(ValueError, match="does not match its checksum"):
        store.load(tasks()[2])
    logged = []
    assert run_tasks(tasks(), store, progress=False, log=logged.append)["computed"] == 1
    assert "meta.json does not match its checksum" in logged[0]
    assert store.load(tasks()[2]).info["win_rate"] == 0.2


# ------------------------------------------------------------ 2. behaviour version --

def test_results_record_the_behaviour_version(tmp_path):
    store = Store(tmp_path)
    run_tasks(tasks(1), store, progress=False)
    meta = store.meta(tasks()[0])
    assert meta["behaviour"] == BEHAVIOUR_VERSION and meta["provenance"]["source"] == runner.source_fingerprint()


def test_results_of_another_behaviour_version_are_recomputed_or_refused(tmp_path, monkeypatch):
    store = Store(tmp_path)
    run_tasks(tasks(), store, progress=False)
    monkeypatch.setattr(runner, "BEHAVIOUR_VERSION", BEHAVIOUR_VERSION + 1)
    assert store.status(tasks()[0]) == (f"stale: made by behaviour version {BEHAVIOUR_VERSION}, "
                                        f"this code computes version {BEHAVIOUR_VERSION + 1}")
    with pytest.raises(ValueError, match="stale: made by behaviour version"):
        store.load(tasks()[0])
    assert run_tasks(tasks(), store, progress=False, log=lambda *_: None)["computed"] == 3
    assert store.meta(tasks()[0])["behaviour"] == BEHAVIOUR_VERSION + 1


def test_results_without_a_version_are_stale(tmp_path):
    store = Store(tmp_path)
    run_tasks(tasks(1), store, progress=False)
    path = store.path(tasks()[0]) / "meta.json"
    meta = json.loads(path.read_text())
    del meta["behaviour"], meta["checksum"]  # what the runner wrote before versions
    path.write_text(json.dumps(meta))
    assert store.status(tasks()[0]).startswith("stale")
    assert run_tasks(tasks(1), store, progress=False, log=lambda *_: None)["computed"] == 1


def test_exact_source_stores_recompute_results_of_other_source(tmp_path, monkeypatch):
    run_tasks(tasks(1), Store(tmp_path), progress=False)
    monkeypatch.setattr(runner, "source_fingerprint", lambda: "other")
    assert Store(tmp_path).status(tasks()[0]) == "ok"
    assert Store(tmp_path, exact_source=True).status(tasks()[0]) == "stale: made by other source code"


# ------------------------------------------------------------ 3. concurrent writers --

RACE = textwrap.dedent("""
    import sys, time
    import pandas as pd
    from sweeper.experiments.runner import Output, Store, Task
    from pathlib import Path
    root, who, tries = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    store = Store(root)
    errors = 0
    ready = Path(root).parent / f"ready-{who}"  # start together once all three have imported
    ready.touch()
    while len(list(Path(root).parent.glob("ready-*"))) < 3:
        time.sleep(0.01)
    start = max(p.stat().st_mtime for p in Path(root).parent.glob("ready-*")) + 0.5
    for i in range(tries):
        task = Task.make("race", x=i)
        out = Output(tables={"t": pd.DataFrame({"x": range(1000)})}, info={"win_rate": 0.5})
        while time.time() < start + 0.05 * i:  # both writers save task i at the same moment
            pass
        try:
            if who < 2:
                store.save(task, out, 0.0, {})
            else:  # a reader: a task is missing or ok, never corrupt
                st = store.status(task)
                if st not in ("ok", "missing"):
                    raise ValueError(st)
            if who < 2 and store.status(task) != "ok":
                raise ValueError(store.status(task))
        except Exception as exc:
            errors += 1
            print(f"{who} {i}: {exc!r}", file=sys.stderr)
    print(errors)
""")


def race(root, tries):
    """Two writers save the same tasks at the same moments while a reader checks them: errors."""
    script = Path(root) / "race.py"
    script.write_text(RACE)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    procs = [subprocess.Popen([sys.executable, str(script), str(Path(root) / "store"), str(who), str(tries)],
                              stdout=subprocess.PIPE, text=True, env=env) for who in range(3)]
    return sum(int(p.communicate(timeout=600)[0].split()[-1]) for p in procs)


@pytest.mark.slow
def test_two_processes_saving_one_task_neither_crash_nor_misread(tmp_path):
    assert race(tmp_path, 40) == 0
    assert not list((tmp_path / "store").glob("*/.tmp-*")) and not list((tmp_path / "store").glob("*/.old-*"))


def test_a_stale_or_corrupt_result_is_replaced_by_a_save(tmp_path):
    store = Store(tmp_path)
    run_tasks(tasks(1), store, progress=False)
    (store.path(tasks()[0]) / "t.parquet").write_bytes(b"garbage")
    store.save(tasks()[0], _rate(0), 0.0, {})
    assert store.status(tasks()[0]) == "ok" and len(list(tmp_path.glob("*/.*"))) == 0


def test_stale_temporary_directories_are_cleaned_up(tmp_path):
    store = Store(tmp_path)
    run_tasks(tasks(1), store, progress=False)
    host = socket.gethostname()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    kind = tmp_path / "test-trust"
    killed = kind / f".tmp-{tasks()[0].id}-{dead}-0000-{host}"
    old = kind / f".old-{tasks()[0].id}-{os.getpid()}-0001-{host}"
    live = kind / f".tmp-{tasks()[0].id}-{os.getpid()}-0002-{host}"
    for d in (killed, old, live):
        d.mkdir()
    os.utime(old, (time.time() - 2 * runner.STALE_TMP_SECONDS,) * 2)
    run_tasks(tasks(1), store, progress=False)
    assert not killed.exists() and not old.exists() and live.exists()


# ------------------------------------------------------------ 4. killing the runner --

RUNNER = textwrap.dedent("""
    import sys
    from sweeper.experiments import specs as ex
    from sweeper.experiments.runner import Store, run_tasks
    if __name__ == "__main__":
        tasks = [ex.bandit("greedy", "16x30x99", 10**7, seed=s, block=10**6) for s in (1, 2)]
        run_tasks(tasks, Store(sys.argv[1]), workers=2, progress=False)
""")


def _children(pid):
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _cpu_seconds(pid):
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("inf")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _alive(pid):
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_killing_the_runner_stops_its_workers(tmp_path, sig):
    script = tmp_path / "runner.py"
    script.write_text(RUNNER)
    # a shell's background job starts with SIGINT ignored, and a child inherits that: give it Ctrl-C back
    proc = subprocess.Popen([sys.executable, str(script), str(tmp_path / "store")],
                            env=dict(os.environ, PYTHONPATH=str(REPO)),
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.time() + 120
        while len(_children(proc.pid)) < 3 and time.time() < deadline:  # 2 workers + resource tracker
            time.sleep(0.5)
        kids = _children(proc.pid)
        workers = [k for k in kids if "spawn_main" in Path(f"/proc/{k}/cmdline").read_text()]
        assert len(workers) == 2
        while min(_cpu_seconds(k) for k in workers) < 4 and time.time() < deadline:  # imported, now computing
            time.sleep(0.5)
        proc.send_signal(sig)
        proc.wait(timeout=30)
        deadline = time.time() + 30
        while any(_alive(k) for k in kids) and time.time() < deadline:
            time.sleep(0.2)
        assert not [k for k in kids if _alive(k)]
    finally:
        proc.kill()
        for k in _children(proc.pid):
            os.kill(k, signal.SIGKILL)


# ------------------------------------------------------------ 5. --save and the CLI --

def test_bad_save_destinations_fail_before_training(tmp_path, capsys, monkeypatch):
    calls = []
    monkeypatch.setattr(training, "play", lambda *a, **k: calls.append(1))
    (tmp_path / "dir").mkdir()
    (tmp_path / "file").write_text("x")
    for dest, message in [(tmp_path / "missing" / "a.npz", "does not exist"),
                          (tmp_path / "dir", "is a directory"),
                          (tmp_path / "file", "exists; add --force"),
                          (tmp_path / "file" / "a.npz", "is not a directory"),
                          (Path("/proc/sweeper-agent.npz"), "cannot write")]:
        assert main(["train", "--episodes", "1000000", "--save", str(dest), "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1
    assert not calls


def test_save_replaces_a_file_with_force(tmp_path, capsys):
    path = tmp_path / "a.npz"
    path.write_text("old")
    assert main(["train", "--episodes", "50", "--save", str(path), "--force", "--no-progress"]) == 0
    assert load_agent(path).name == "greedy"


def test_a_failed_save_keeps_the_summary_and_the_agent(tmp_path, capsys, monkeypatch):
    target = tmp_path / "a.npz"
    real = agent_module.write_agent_file

    def full_disk(path, *a):
        if Path(path) == target:
            raise OSError(28, "No space left on device")
        return real(path, *a)
    monkeypatch.setattr(agent_module, "write_agent_file", full_disk)
    assert main(["train", "--episodes", "200", "--save", str(target), "--json", "--no-progress"]) == 1
    out = capsys.readouterr()
    summary = json.loads(out.out.strip().splitlines()[-1])
    assert summary["episodes"] == 200 and "No space left on device" in out.err
    rescued = Path(summary["saved"])
    assert rescued != target and load_agent(rescued).actions_recorded == summary["actions_recorded"]
    rescued.unlink()


def test_bad_results_directory_fails_before_work(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    for dest, message in [(tmp_path / "file", "is not a directory"), (tmp_path / "file" / "r", "is not a directory"),
                          (Path("/proc/sweeper-results"), "cannot write")]:
        assert main(["reproduce", "fig:exp_1", "--scale", "quick", "--results", str(dest), "--no-progress"]) == 2
        assert message in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["train"], ["eval", "--agent", "random"], ["eval", "--agent", "solver"]])
def test_zero_episodes_give_valid_json(argv, capsys):
    assert main(argv + ["--episodes", "0", "--json", "--no-progress"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    d = json.loads(line, parse_constant=lambda c: pytest.fail(f"bare {c} in {line}"))
    assert d["episodes"] == 0 and d["win_rate"] is None


def test_first_with_the_reference_opening_is_an_error(capsys):
    assert main(["train", "--first", "3,3", "--no-progress"]) == 2
    assert "--first is for the safe and zero openings" in capsys.readouterr().err
    assert main(["train", "--first", "3,3", "--opening", "safe", "--episodes", "10", "--no-progress"]) == 0


def test_partial_reproduce_says_the_summary_is_not_written(tmp_path, capsys, monkeypatch):
    import sweeper.experiments.reproduce as rep
    monkeypatch.setattr(rep, "reproduce", lambda *a, **k: {"tasks": 8, "cached": 8, "computed": 0, "summary": None,
                                                           "missing": 115})
    assert main(["reproduce", "fig:exp_1", "--scale", "quick", "--results", str(tmp_path), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "summary not written yet: 115 tasks" in out and "summary written" not in out


def test_reproduce_below_paper_scale_recomputes_results_of_older_code(tmp_path, capsys, monkeypatch):
    """The command the book's error messages name must refresh a quick store whose runs older code made."""
    import sweeper.experiments.reproduce as rep
    seen = []

    def fake(*a, **k):
        seen.append(k["exact_source"])
        return {"tasks": 1, "cached": 0, "computed": 1, "summary": None, "missing": 0}

    monkeypatch.setattr(rep, "reproduce", fake)
    for scale in ("quick", "paper"):
        assert main(["reproduce", "fig:exp_1", "--scale", scale, "--results", str(tmp_path), "--no-progress"]) == 0
    assert seen == [True, False]


def test_quick_results_go_to_a_git_ignored_place():
    assert default_results("quick") == QUICK_RESULTS and default_results("paper") == REPO / "results"
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    probe = QUICK_RESULTS / "runs" / "quick" / "bandit" / "x" / "meta.json"
    assert subprocess.run(["git", "check-ignore", "-q", str(probe)], cwd=REPO).returncode == 0


# ------------------------------------------------------------ 6. agent files --

def _npy(array=None, header=None, data=b""):
    buf = io.BytesIO()
    if header is None:
        np.save(buf, array)
    else:
        np.lib.format.write_array_header_1_0(buf, header)
        buf.write(data)
    return buf.getvalue()


def _agent_file(path, meta_changes=(), keys=None):
    agent = make_agent("ucb:0.1")
    train(agent, "8x8x10", 300, seed=1, progress=False)
    arrays = agent.file_arrays()
    meta = json.loads(str(arrays["metadata"]))
    for k, v in dict(meta_changes).items():
        if v is KeyError:
            del meta[k]
        else:
            meta[k] = v
    arrays["metadata"] = np.array(json.dumps(meta))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, a in arrays.items():
            zf.writestr(f"{name}.npy", keys if (name == "keys" and keys is not None) else _npy(a))
    return path


def test_a_file_declaring_a_huge_array_is_refused_before_decompressing(tmp_path):
    bomb = _agent_file(tmp_path / "bomb.npz",
                       keys=_npy(header={"descr": "<i8", "fortran_order": False, "shape": (400_000_000,)}))
    t = time.perf_counter()
    with pytest.raises(ValueError, match=f"declares 400,000,000 entries, more than the limit of {MAX_ACTIONS:,}"):
        load_agent(bomb)
    assert time.perf_counter() - t < 2


def test_a_file_whose_data_disagrees_with_its_header_is_refused(tmp_path):
    bad = _agent_file(tmp_path / "bad.npz", keys=_npy(header={"descr": "<i8", "fortran_order": False,
                                                               "shape": (1000,)}, data=bytes(80)))
    with pytest.raises(ValueError, match="declares 8,000 bytes of data"):
        load_agent(bad)


@pytest.mark.parametrize("changes, message", [
    ({"decisions": -5}, "'decisions' must be an integer from 0 to 2**63 - 1"),
    ({"decisions": 1.5}, "'decisions' must be an integer from 0 to 2**63 - 1"),
    ({"symmetric": "false"}, "'symmetric' must be true or false"),
    ({"flags": 1}, "'flags' must be true or false"),
    ({"params": KeyError}, "'params' is missing"),
    ({"params": {}}, "'params' of a ucb agent must have exactly ['c']"),
    ({"params": {"epsilon": 0.1}}, "'params' of a ucb agent must have exactly ['c']"),
    ({"params": {"c": "0.1"}}, "'params.c' must be a finite number"),
    ({"params": {"c": -1.0}}, "'params': c must be a finite number >= 0"),
    ({"version": True}, "'version' is True"),
    ({"window": 5}, "'window' must be 3"),
    ({"agent": "magic"}, "'agent' must be one of"),
    ({"actions_recorded": "7"}, "'actions_recorded' must be an integer"),
    ({"extra": 1}, "'extra' is not part of the format"),
])
def test_every_metadata_field_is_checked(tmp_path, changes, message):
    path = _agent_file(tmp_path / "a.npz", changes)
    with pytest.raises(ValueError, match=re.escape(str(path)) + ".*" + re.escape(message)):
        load_agent(path)


def test_a_checked_file_loads(tmp_path):
    agent = load_agent(_agent_file(tmp_path / "a.npz"))
    assert agent.name == "ucb:0.1" and agent.table.decisions > 0


# ------------------------------------------------------------ 7. long kernel calls --

def test_kernel_calls_are_sized_by_work(monkeypatch):
    calls = []
    real = training.play_games

    def timed(*args):
        t = time.perf_counter()
        out = real(*args)
        calls.append((len(args[-1]), time.perf_counter() - t))  # the range of the call's games
        return out
    train("greedy", "5x5x3", 10, progress=False)  # compiled before timing
    monkeypatch.setattr(training, "play_games", timed)
    train("greedy", "40x40x300", 100, seed=1, progress=False)
    big = list(calls)
    calls.clear()
    train("greedy", "8x8x10", 30_000, seed=1, progress=False)
    small = list(calls)
    assert big[0][0] == training.FIRST_CALL_WORK // 1600 and small[0][0] == training.FIRST_CALL_WORK // 64
    assert max(s for _, s in big + small) < 4 * training.CALL_SECONDS  # the bar moves every second or so
    assert max(c for c, _ in small) > 10 * max(c for c, _ in big)
    assert training.next_chunk(100, 0.5) == 200 and training.next_chunk(100, 0.0) == 400
    assert training.next_chunk(100, 10.0) == 10 and training.next_chunk(1, 60.0) == 1


@contextlib.contextmanager
def _ctrl_c_after(seconds: float):
    """Press Ctrl-C ``seconds`` from now, with Python's own handler installed (even when pytest runs as a
    background job, which starts with SIGINT ignored); yields the start time and checks the handler is back."""
    outer = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
        t = time.perf_counter()
        timer.start()
        yield t
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, outer)


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals need the main thread")
def test_ctrl_c_stops_a_long_run_between_kernel_calls():
    training.warm_up(make_agent("greedy"), "5x5x3")  # compiled before timing, the growing of the table too
    agent = make_agent("greedy")
    with _ctrl_c_after(1.0) as t:
        with pytest.raises(KeyboardInterrupt, match="stopped after"):
            train(agent, "100x100x1500", 20_000, seed=1, progress=False)  # about 30 minutes in one call before
        assert time.perf_counter() - t < 1.0 + 4 * training.CALL_SECONDS
        keys, q, n = agent.table.recorded()
        assert agent.actions_recorded == len(keys) > 0  # the games played were learned, consistently


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals need the main thread")
def test_ctrl_c_stops_a_slow_python_rule_within_a_decision():
    """A plain Python rule that takes 0.2 s a decision: Ctrl-C stops the run at its next decision (before: only
    at the end of a kernel call sized in games, 30 s and more), with a one-line KeyboardInterrupt."""
    from sweeper import Rule, RuleAgent

    def slow(q, n, t, params, rng):
        time.sleep(0.2)
        return 0, False

    rule = Rule(slow)
    train(RuleAgent(rule), "2x2x1", 1, progress=False)  # its wrapper compiled before timing
    agent = RuleAgent(rule)
    with _ctrl_c_after(1.0) as t:
        with pytest.raises(KeyboardInterrupt, match="stopped after .* games"):
            train(agent, "16x16x40", 1_000, seed=1, progress=False)
        assert time.perf_counter() - t < 1.0 + 3.0  # the timer, then one decision (0.2 s) and the return
    train(RuleAgent(Rule(lambda q, n, t, p, r: (0, False))), "5x5x3", 3, progress=False)  # runs again after


def _slow_compiled(q, n, t, params, rng):
    """A plain Python busy loop that Rule compiles: about 0.05 to 0.3 s a decision."""
    s = 0.0
    for k in range(60_000_000):
        s += (k % 7) * 1e-9
    return (0 if s < 0 else len(q) - 1), False


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals need the main thread")
def test_ctrl_c_stops_a_slow_compiled_rule_within_a_second():
    """Issue 41: a slow rule compiled automatically (before: still running 88 s after Ctrl-C, since compiled kernels
    stopped only between calls). Its kernel asks about Ctrl-C every tenth of a second of decisions."""
    from sweeper import Rule, RuleAgent

    rule = Rule(_slow_compiled)
    assert rule.compiled
    train(RuleAgent(rule), "2x2x1", 1, progress=False)  # compiled before timing
    agent = RuleAgent(rule)
    with _ctrl_c_after(1.0) as t:
        with pytest.raises(KeyboardInterrupt, match="stopped after .* games"):
            train(agent, "16x16x40", 1_000, seed=1, progress=False)
        assert time.perf_counter() - t < 1.0 + 3.0
    keys, q, n = agent.table.recorded()
    assert agent.actions_recorded == len(keys)  # consistent: what was learned is recorded
    assert len(train(RuleAgent(rule), "5x5x3", 3, progress=False).records) == 3  # runs again after


# ------------------------------------------------------------ 8. evaluate(spec, freeze=True) --

def test_evaluate_takes_a_spec_string_frozen_or_learning():
    frozen = evaluate("ucb:0.1", "8x8x10", 50, seed=2, freeze=True, progress=False)
    learning = evaluate("ucb:0.1", "8x8x10", 50, seed=2, progress=False)
    assert frozen.agent.name == learning.agent.name == "ucb:0.1" and frozen.agent.actions_recorded == 0


# ------------------------------------------------------------ 9. agent files: the hostile cases of issue 26 --

def _saved(tmp_path, name="a.npz"):
    agent = make_agent("greedy")
    train(agent, "8x8x10", 200, seed=1, progress=False)
    return agent, agent.save(tmp_path / name)


def test_repeated_metadata_keys_are_refused(tmp_path):
    _, path = _saved(tmp_path)
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    text = str(arrays["metadata"])
    arrays["metadata"] = np.array(text[:-1] + ', "decisions": 0}')  # JSON keeps the last: silently 0 before
    np.savez_compressed(path, **arrays)
    with pytest.raises(ValueError, match="metadata names 'decisions' twice"):
        load_agent(path)


def test_a_huge_decision_count_is_a_clear_error(tmp_path):
    path = _agent_file(tmp_path / "a.npz", {"decisions": 10**30})  # before: OverflowError
    with pytest.raises(ValueError, match="'decisions' must be an integer from 0 to 2\\*\\*63 - 1"):
        load_agent(path)


def test_one_large_n_no_longer_switches_off_the_mean_check(tmp_path):
    agent, path = _saved(tmp_path)
    keys, q, n = agent.table.recorded()
    n = n.copy()
    q = q.copy()
    n[0] = 10**9  # before: the tolerance was 1e-6 * max N = 1,000 mines, for every entry
    i = int(np.argmax(n[1:] >= 2)) + 1
    n[i] = 10  # Q = 0.123 over N = 10 would be 5.615 mines: not a mean of +-1 rewards
    q[i] = 0.123
    from sweeper.agents.files import write_agent_file
    write_agent_file(path, keys, q, n, agent.metadata())
    with pytest.raises(ValueError, match="not means of \\+-1 rewards"):
        load_agent(path)


@pytest.mark.parametrize("damage", ["flip", "encrypted"])
def test_a_damaged_or_encrypted_file_is_a_clear_error(tmp_path, damage):
    _, path = _saved(tmp_path)
    data = bytearray(path.read_bytes())
    if damage == "flip":  # one byte inside the compressed data of the first member (before: zlib.error)
        with zipfile.ZipFile(path) as zf:
            info = zf.infolist()[0]
        start = info.header_offset + 30 + len(info.filename) + len(info.extra)
        data[start + info.compress_size // 2] ^= 0xFF
    else:  # the general-purpose flag's encryption bit, in the local and central headers (before: RuntimeError)
        for sig in (b"PK\x03\x04", b"PK\x01\x02"):
            at = data.find(sig)
            while at >= 0:
                data[at + (6 if sig == b"PK\x03\x04" else 8)] |= 1
                at = data.find(sig, at + 4)
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=re.escape(str(path))):
        load_agent(path)


def test_saving_over_a_node_that_is_not_a_regular_file_is_refused(tmp_path):
    agent, _ = _saved(tmp_path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="not a regular file"):
        agent.save(fifo)  # before: replaced the node itself (as root, /dev/full became a regular file)
    assert fifo.exists() and not fifo.is_file()
    with pytest.raises(ValueError, match="not a regular file"):
        agent.save(tmp_path)


def test_concurrent_saves_of_one_path_never_share_a_temporary_file(tmp_path):
    agent, path = _saved(tmp_path)
    errors = []

    def save_many():
        for _ in range(40):
            try:
                agent.save(path)
            except Exception as exc:  # noqa: BLE001 - counted: before, 146 of 600 saves raised
                errors.append(exc)

    threads = [threading.Thread(target=save_many) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert load_agent(path).actions_recorded == agent.actions_recorded
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left behind


# ------------------------------------------------ issue 26: the tables the book reads --

def _tables(tmp_path, n=3):
    """A results folder with ``n`` stored runs and the two summary tables written from them."""
    from sweeper.experiments.reproduce import write_tables
    store = Store(tmp_path / "runs" / "paper")
    run_tasks(tasks(n), store, progress=False)
    frame = pd.DataFrame({"x": [store.load(t).info["win_rate"] for t in tasks(n)]})
    write_tables({"summary": frame, "comparison": frame.assign(paper=0.5)}, tmp_path, "paper", store, tasks(n))
    return store, frame


def test_an_edited_comparison_table_is_refused(tmp_path):
    from sweeper.experiments.reproduce import read_table
    _, frame = _tables(tmp_path)
    pd.testing.assert_frame_equal(read_table("summary", tmp_path), frame)
    path = tmp_path / "comparison.csv"
    path.write_text(path.read_text().replace("0.2,", "0.9,"))  # before: shown as it was
    with pytest.raises(ValueError, match="comparison.csv cannot be shown: it does not match its checksum.*"
                                         "python -m sweeper reproduce"):
        read_table("comparison", tmp_path, attempts=1)
    (tmp_path / "tables.json").unlink()
    with pytest.raises(ValueError, match="tables.json is missing"):
        read_table("summary", tmp_path, attempts=1)


def test_a_table_whose_runs_were_recomputed_or_are_of_another_version_is_refused(tmp_path, monkeypatch):
    from sweeper.experiments.reproduce import read_table
    store, _ = _tables(tmp_path)
    meta = store.path(tasks()[1]) / "meta.json"
    data = json.loads(meta.read_text())
    data["seconds"] += 1  # the run made again (its checksum changes), the table not rewritten
    data["checksum"] = runner.meta_checksum(data)
    meta.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=f"the run test-trust/{tasks()[1].id} behind it has been removed or "
                                         "recomputed"):
        read_table("summary", tmp_path, attempts=1)
    _tables(tmp_path)
    import sweeper.experiments.reproduce as rep
    monkeypatch.setattr(rep, "BEHAVIOUR_VERSION", BEHAVIOUR_VERSION + 1)
    with pytest.raises(ValueError, match=f"made by behaviour version {BEHAVIOUR_VERSION}; this code computes"):
        read_table("summary", tmp_path, attempts=1)


def test_readers_never_see_a_half_written_table(tmp_path):
    """A reader beside a writer that keeps rewriting the tables (before: 59 empty files and a truncated table)."""
    from sweeper.experiments.reproduce import read_table
    store, frame = _tables(tmp_path, n=40)
    stop, errors, reads = threading.Event(), [], []

    def write():
        from sweeper.experiments.reproduce import write_tables
        while not stop.is_set():
            write_tables({"summary": frame, "comparison": frame}, tmp_path, "paper", store, tasks(40))

    writer = threading.Thread(target=write)
    writer.start()
    try:
        for _ in range(300):
            try:
                reads.append(len(read_table("summary", tmp_path)))
            except ValueError as exc:  # a clear error is allowed; a wrong table is not
                errors.append(str(exc))
    finally:
        stop.set()
        writer.join()
    assert set(reads) == {40} and len(reads) + len(errors) == 300 and not errors


def test_a_data_file_named_outside_the_run_folder_is_refused(tmp_path):
    store = Store(tmp_path / "runs")
    run_tasks(tasks(1), store, progress=False)
    (tmp_path / "secret.parquet").write_bytes(b"")
    meta = store.path(tasks()[0]) / "meta.json"
    data = json.loads(meta.read_text())
    data["files"] = {"../../../secret.parquet": runner.sha256_hex(b"")}  # before: read and returned as a table
    data["checksum"] = runner.meta_checksum(data)
    meta.write_text(json.dumps(data))
    assert store.status(tasks()[0]) == ("corrupt: meta.json names '../../../secret.parquet', not a data file of "
                                        "the task's folder")


def test_a_kind_folder_that_is_a_file_is_a_clear_error(tmp_path, capsys):
    store = Store(tmp_path / "runs" / "quick")
    (tmp_path / "runs" / "quick").mkdir(parents=True)
    (tmp_path / "runs" / "quick" / "test-trust").write_text("")
    with pytest.raises(ValueError, match="test-trust is a file, not a folder of results"):
        run_tasks(tasks(1), store, progress=False)  # before: FileExistsError traceback
    (tmp_path / "runs" / "quick" / "paper_code").write_text("")
    assert main(["reproduce", "ext:paper_code", "--scale", "quick", "--results", str(tmp_path),
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "paper_code is a file" in err and "Traceback" not in err


# ------------------------------------------------------ issue 26: agent files' keys --

@pytest.mark.parametrize("make, bad, message", [
    ("greedy", lambda k: k.max() + 2 * 12**8 * 2, "is not the key of a window and target in canonical"),
    ("greedy", None, "in canonical orientation"),
    ("greedy+nosym", lambda k: np.int64(8 * 12**8 + 3), "is not the key of a window and target"),
    ("sa", lambda k: np.int64(16 * 11**16), "is not the key of a state-action pair"),
])
def test_keys_that_no_window_gives_are_refused(tmp_path, make, bad, message):
    from sweeper.agents.files import write_agent_file
    from sweeper.agents.windows import check_window_keys
    spec, _, nosym = make.partition("+")
    agent = make_agent(spec, symmetric=False if nosym else None)
    train(agent, "4x4x3", 300, seed=2, progress=False)
    keys, q, n = (a.copy() for a in agent.table.recorded())
    if bad is None:  # in range, centre on the board, but not the orientation the agent would store
        keys[0] = next(k + 2 * d for k in keys for d in range(1, 200)
                       if check_window_keys(np.array([k + 2 * d]), True) >= 0 and (k + 2 * d) not in keys)
    else:
        keys[0] = bad(keys)
    order = np.argsort(keys)
    path = write_agent_file(tmp_path / "a.npz", keys[order], q[order], n[order], agent.metadata())
    with pytest.raises(ValueError, match=message):  # before: accepted
        load_agent(path)


# ------------------------------------------- issue 26: one line where a traceback was --

def test_too_many_games_for_memory_is_refused_before_work(capsys):
    assert main(["train", "--episodes", str(10**10), "--no-progress"]) == 2  # before: _ArrayMemoryError traceback
    err = capsys.readouterr().err
    assert err.startswith("error: 10,000,000,000 games in one run keep") and "play at most" in err


@pytest.mark.parametrize("seeds, message", [("", "comma-separated whole numbers"), ("1,,2", "comma-separated"),
                                            ("1,1", "seeds repeat"), ("-1", "whole numbers >= 0")])
def test_bad_seed_lists_are_refused(seeds, message, capsys, tmp_path):
    assert main(["reproduce", "--seeds", seeds, "--results", str(tmp_path), "--no-progress"]) == 2  # before: KeyError
    assert message in capsys.readouterr().err


def test_a_dask_address_where_nothing_listens_is_one_line(capsys, tmp_path):
    assert main(["reproduce", "ext:paper_code", "--scale", "quick", "--dask", "tcp://127.0.0.1:9",
                 "--results", str(tmp_path), "--no-progress"]) == 2  # before: 30 s, then an OSError traceback
    assert "no Dask scheduler answers at tcp://127.0.0.1:9" in capsys.readouterr().err


def test_a_full_disk_during_reproduce_is_one_line_and_keeps_finished_tasks(tmp_path, capsys, monkeypatch):
    import errno as errno_
    saved = []
    real = Store.save

    def save(self, task, *a, **k):
        if saved:
            raise OSError(errno_.ENOSPC, "No space left on device", str(self.path(task)))
        saved.append(task)
        return real(self, task, *a, **k)

    monkeypatch.setattr(Store, "save", save)
    assert main(["reproduce", "ext:paper_code", "--scale", "quick", "--results", str(tmp_path),
                 "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: No space left on device (") and "Traceback" not in err
    assert Store(tmp_path / "runs" / "quick").status(saved[0]) == "ok"


def test_ctrl_c_in_the_command_line_is_one_line_and_exit_130(capsys, monkeypatch):
    def interrupted(*a, **k):
        raise KeyboardInterrupt("stopped after 5 of 10 games")

    monkeypatch.setattr(training, "play", interrupted)
    assert main(["train", "--episodes", "10", "--no-progress"]) == 130
    assert capsys.readouterr().err == "interrupted: stopped after 5 of 10 games\n"


def _rule_run(choose):
    from sweeper import Rule, RuleAgent
    rule = choose if isinstance(choose, Rule) else Rule(choose)
    return train(RuleAgent(rule), "8x8x10", 3, progress=False)


def test_a_python_rule_returning_a_huge_index_or_exiting_is_a_rule_error():
    from sweeper import Rule
    from sweeper.agents.custom import PythonRuleNotice, RuleError

    def huge(q, n, t, p, rng):
        return 2**70, False  # computed when called: compiled by numba it would wrap to 0 (see custom.py)

    def literal(q, n, t, p, rng):
        return 1180591620717411303424, False

    def exits(q, n, t, p, rng):
        raise SystemExit(3)

    with pytest.warns(PythonRuleNotice, match="Int value is too large: 1180591620717411303424"):
        kept = Rule(literal)  # a constant numba would wrap stays in Python
    assert not kept.compiled
    for rule in (Rule(huge, compile=False), kept):
        with pytest.raises(RuleError, match="IndexError: the index 1180591620717411303424 is far beyond"):
            _rule_run(rule)  # before: SystemError: ... returned a result with an exception set
    for rule in (Rule(exits, compile=False), Rule(exits)):
        with pytest.raises(RuleError, match="SystemExit: 3"):
            _rule_run(rule)


def test_ctrl_c_inside_a_python_rule_stops_the_run():
    def interrupted(q, n, t, p, rng):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt, match="stopped after 0 of 3 games"):
        _rule_run(interrupted)


def test_an_njit_rule_returning_a_huge_index_is_reported_with_that_index():
    import numba
    from sweeper.agents.custom import RuleError

    @numba.njit
    def huge(q, n, t, p, rng):
        return 2**62, False

    # before: index -1; since issue 41 the message is the Python path's, from the rule's Python source
    with pytest.raises(RuleError, match="in game 1 .*IndexError: the index 4611686018427387904 is far beyond"):
        _rule_run(huge)


# ----------------------------------------- issue 26, the sweep: no argument without effect --

def test_flags_that_are_not_booleans_are_refused():
    agent = make_agent("greedy")
    for call, message in [(lambda: evaluate(agent, "8x8x10", 5, freeze="no", progress=False), "freeze must be True"),
                          (lambda: training.play(agent, "8x8x10", 5, learn="yes", progress=False), "learn must be"),
                          (lambda: training.play(agent, "8x8x10", 5, progress="x"), "progress must be")]:
        with pytest.raises(ValueError, match=message):  # before: 'no' was truthy, so the games were frozen
            call()
    with pytest.raises(ValueError, match="train always learns"):
        train(agent, "8x8x10", 5, learn=False, progress=False)  # before: TypeError, multiple values for 'learn'


def test_make_agent_refuses_options_it_would_ignore():
    with pytest.raises(ValueError, match="symmetric=False would have no effect"):
        make_agent(make_agent("greedy"), symmetric=False)  # before: returned the symmetric agent
    with pytest.raises(ValueError, match="flags=False would have no effect"):
        make_agent(make_agent("ucb:0.1"), flags=False)
    with pytest.raises(ValueError, match="state-action agent has no symmetries"):
        make_agent("sa", symmetric=True)  # before: a state-action agent without symmetries, silently
    assert make_agent("sa").symmetric is False and make_agent("greedy").symmetric is True
    assert make_agent(make_agent("greedy", symmetric=False), symmetric=False).symmetric is False


def test_task_options_without_effect_are_refused():
    from sweeper.experiments.specs import BanditTask, Evaluation, all_tasks, bandit_task
    for kw, message in [(dict(tests=["8x8x10"]), "tests and test_episodes go together"),
                        (dict(test_episodes=10), "tests and test_episodes go together"),
                        (dict(test_openings=["safe"]), "test_openings apply to the test games"),
                        (dict(block=0), "block must be a positive")]:
        with pytest.raises(ValueError, match=message):  # before: tests of 0 games; block 0 divided by zero
            bandit_task(BanditTask("greedy", ["8x8x10"], 10, 1, **kw))
    with pytest.raises(ValueError, match="tests and test_episodes go together"):
        Evaluation(["8x8x10"])  # the spec's test games are checked as the task's
    with pytest.raises(ValueError, match="scale must be one of"):
        all_tasks(None, "bogus")  # before: KeyError: 'bogus'


@pytest.mark.parametrize("argv, message", [
    (["train", "--force"], "--force lets --save replace a file"),
    (["train", "--agent", "sa", "--no-symmetry", "--board", "4x4x3"], "state-action agent has no symmetries"),
    (["eval", "--agent", "solver", "--freeze"], "the solver and the random player learn nothing"),
    (["eval", "--load", "a.npz", "--freeze", "--save", "b.npz"], "would write the loaded agent unchanged"),
    (["reproduce", "--list", "--workers", "2"], "--list runs nothing"),
    (["reproduce", "--dask", "tcp://127.0.0.1:9", "--workers", "2"], "--workers is for local processes"),
])
def test_command_line_options_without_effect_are_refused(argv, message, capsys):
    assert main(argv + ["--episodes", "5"] * (argv[0] != "reproduce") + ["--no-progress"] * (argv[0] != "reproduce")) == 2
    assert message in capsys.readouterr().err


def test_first_under_the_reference_opening_is_refused_by_every_entry_point():
    from sweeper import Episode
    from sweeper.running.belief import audit
    from sweeper.running.env import MinesweeperEnv
    agent = make_agent("greedy")
    for call in (lambda: train(agent, "8x8x10", 5, first=(3, 3), progress=False),  # before: ignored
                 lambda: Episode(agent, "8x8x10", 0, first=(3, 3)),
                 lambda: audit(agent, "8x8x10", 3, first=(3, 3)),
                 lambda: MinesweeperEnv("8x8x10", first=(3, 3))):
        with pytest.raises(ValueError, match="first is for the safe and zero openings"):
            call()


def test_layouts_whose_count_is_not_the_episodes_are_refused():
    layout = np.zeros((8, 8), dtype=bool)
    layout.flat[:10] = True
    with pytest.raises(ValueError, match="must be the number of layouts given"):  # before: 1 game played, silently
        evaluate(make_agent("greedy"), "8x8x10", 5, layouts=[layout], progress=False)


def test_with_layouts_the_episodes_may_be_left_out_or_zero():
    """One game per layout: episodes left out, 0 ("as many as the layouts") or the count give the same run."""
    layouts = [np.random.default_rng(i).permutation(64).reshape(8, 8) < 10 for i in range(3)]
    runs = [train(make_agent("greedy"), "8x8x10", layouts=layouts, progress=False, **kw).records
            for kw in ({}, {"episodes": 0}, {"episodes": 3})]
    assert len(runs[0]) == 3 and runs[0].equals(runs[1]) and runs[0].equals(runs[2])
    assert len(evaluate(make_agent("greedy"), "8x8x10", layouts=layouts, progress=False).records) == 3
    assert len(train(make_agent("greedy"), "8x8x10", 4, progress=False).records) == 4
    with pytest.raises(ValueError, match="episodes must be given"):
        training.play(make_agent("greedy"), "8x8x10", None, progress=False)


def test_rule_arguments_without_effect_or_of_the_wrong_kind_are_refused(tmp_path):
    from sweeper import Rule, RuleAgent
    from sweeper.running.policies import solver_policy
    agent, path = _saved(tmp_path)

    def first(q, n, t, p, rng):
        return 0, False

    with pytest.raises(ValueError, match="holds a greedy agent: rule= is for agents of a plug-in rule"):
        load_agent(path, rule=Rule(first))  # before: the rule was ignored and greedy loaded
    with pytest.raises(ValueError, match="name must be a non-empty string"):
        Rule(first, name="")  # before: the function's name, silently
    with pytest.raises(ValueError, match="wrap the function as RuleAgent\\(Rule\\(choose\\)\\)"):
        RuleAgent(first)  # before: "cannot import rule '<function ...>'"
    with pytest.raises(ValueError, match="mines must be a non-negative integer"):
        solver_policy(-1)  # before: accepted


# ------------------------------------------------ issue 41: late failures, workers, agent and table files --

@pytest.mark.parametrize("argv", [
    ["time-reproduction", "--scale", "quick", "--paper-only", "--out", "{file}/t.json"],
    ["bench", "--save", "{file}/b.json"],
    ["bench", "--save", "{dir}"],
])
def test_an_output_under_a_file_is_refused_before_the_work(argv, tmp_path, capsys, monkeypatch):
    """Before: time-reproduction ran to the end (1 h 44 min at paper scale), then `error: File exists`."""
    import sweeper.bench as bench
    import sweeper.experiments.timing as timing
    monkeypatch.setattr(bench, "run_benchmarks", lambda **k: pytest.fail("the bench ran"))
    monkeypatch.setattr(timing, "reproduce", lambda *a, **k: pytest.fail("the reproduction ran"))
    (tmp_path / "file").write_text("x")
    argv = [a.format(file=tmp_path / "file", dir=tmp_path) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and ("is not a directory" in err or "is a directory" in err)


def test_a_write_that_fails_after_the_work_keeps_the_record_elsewhere(tmp_path, monkeypatch):
    from sweeper.experiments import measurements
    real = measurements.write_record
    target = tmp_path / "gone" / "b.json"

    def failing(path, record):
        if Path(path) == target:
            raise OSError(28, "No space left on device")
        real(path, record)

    monkeypatch.setattr(measurements, "write_record", failing)
    with pytest.raises(OSError, match="could not write the bench to .*b.json \\(No space left on device\\); the "
                                      "bench was written to (\\S+) instead") as info:
        measurements.write_record_or_rescue(target, {"rows": [1]}, "bench")
    kept = Path(re.search(r"written to (\S+) instead", str(info.value)).group(1))
    assert json.loads(kept.read_text()) == {"rows": [1]}
    kept.unlink()


def test_workers_above_the_bound_are_refused(tmp_path, capsys):
    from sweeper.checks import max_workers
    for argv in (["time-reproduction", "--scale", "quick", "--paper-only", "--workers", "100000"],
                 ["reproduce", "fig:exp_1", "--scale", "quick", "--workers", "1000", "--results", str(tmp_path)]):
        assert main(argv) == 2
        assert f"--workers must be at most {max_workers()}" in capsys.readouterr().err
    with pytest.raises(ValueError, match="workers must be at most"):
        run_tasks(tasks(1), Store(tmp_path / "s"), workers=max_workers() + 1, progress=False)


def test_a_version_1_rule_file_loads_only_with_a_rule_of_its_name(tmp_path):
    from sweeper import Rule, RuleAgent
    from sweeper.agents.rule_library import softmax_rule

    def foo(q, n, t, p, rng):
        return 0, False

    agent = RuleAgent(softmax_rule(0.1))
    train(agent, "6x6x5", 20, seed=1, progress=False)
    path = agent.save(tmp_path / "a.npz")
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays["metadata"]))
    meta["version"] = 1
    arrays["metadata"] = np.array(json.dumps(meta))
    np.savez_compressed(path, **arrays)
    with pytest.raises(ValueError, match="holds an agent of the rule 'softmax', not of the rule given, 'foo'"):
        load_agent(path, rule=Rule(foo, {"tau": 0.1}))  # before: loaded as foo
    assert load_agent(path, rule=softmax_rule(0.1)).name == "rule:softmax:0.1"


def test_an_agent_file_whose_flags_label_its_table_contradicts_is_refused(tmp_path):
    agent = make_agent("greedy")
    train(agent, "8x8x10", 300, seed=1, progress=False)
    path = agent.save(tmp_path / "a.npz")
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays["metadata"]))
    meta["flags"] = False
    arrays["metadata"] = np.array(json.dumps(meta))
    np.savez_compressed(path, **arrays)
    with pytest.raises(ValueError, match="'flags' is false .* a window that shows a flag: the file contradicts itself"):
        load_agent(path)
    blind = make_agent("greedy", flags=False)
    train(blind, "8x8x10", 300, seed=1, progress=False)
    assert not load_agent(blind.save(tmp_path / "b.npz")).flags  # a true invisible-flags table loads


@pytest.mark.parametrize("drop", ["tables", "runs"])
def test_a_forged_tables_manifest_is_a_clear_error(tmp_path, drop):
    from sweeper.experiments.reproduce import read_table
    from sweeper.experiments.runner import meta_checksum
    _tables(tmp_path)
    path = tmp_path / "tables.json"
    manifest = json.loads(path.read_text())
    manifest.pop(drop)
    manifest["checksum"] = meta_checksum(manifest)  # recomputed: before, KeyError / AttributeError
    path.write_text(json.dumps(manifest))
    with pytest.raises(ValueError, match="tables.json is not a manifest of tables"):
        read_table("summary", tmp_path, attempts=1)
    manifest[drop] = {"../../etc": "x"} if drop == "runs" else ["summary.csv"]
    manifest["checksum"] = meta_checksum(manifest)
    path.write_text(json.dumps(manifest))
    with pytest.raises(ValueError, match="is not a manifest of tables"):
        read_table("summary", tmp_path, attempts=1)


# ------------------------------------------------------------ issue 49: stopping --
# Ctrl-C pressed in a terminal: SIGINT to the command's whole process group (its worker processes too). Each test
# starts the command in a session of its own, waits until it is working, sends SIGINT to the group and checks that it
# stops within 2 s with the one line "interrupted", status 130, no traceback and no file left behind.

def _sweeper(argv, code=None, **kw):
    """``python -m sweeper ARGV`` of this checkout (or ``python -c CODE ARGV``), as a process of its own session,
    Ctrl-C given back to it (a background job's children start with SIGINT ignored), its output unbuffered."""
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONUNBUFFERED="1")
    start = ["-m", "sweeper"] if code is None else ["-c", code]
    return subprocess.Popen([sys.executable, *start, *argv], cwd=REPO, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL), **kw)


def _cpu_of_run(argv) -> float:
    """CPU seconds a whole run of ``python -m sweeper ARGV`` takes (its start-up, warm-up and work) once numba's cache
    holds its kernels (the first of two runs may compile them); checks that it ran."""
    import resource
    for _ in range(2):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = _sweeper(argv)
        out, err = proc.communicate(timeout=900)
        assert proc.returncode == 0, err
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def _ctrl_c(proc, ready, presses=1, gap=0.3):
    """Wait for ``ready(proc)``, press Ctrl-C ``presses`` times ``gap`` s apart; (seconds from the first press to
    the exit, exit status, stdout, stderr, the processes the command had started)."""
    deadline = time.time() + 300
    try:
        while not ready(proc):
            assert proc.poll() is None, proc.communicate()
            assert time.time() < deadline, "the command never got to work"
            time.sleep(0.05)
        kids = _children(proc.pid)
        t = time.perf_counter()
        for k in range(presses):
            if k:
                time.sleep(gap)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=2 + (presses - 1) * gap)
        except subprocess.TimeoutExpired:
            pytest.fail("still running 2 s after Ctrl-C")
        took = time.perf_counter() - t
        out, err = proc.communicate(timeout=10)
        return took, proc.returncode, out, err, kids
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


def _stopped(result, stopped_after=False):
    took, code, out, err, kids = result
    assert code == 130 and took < 2.0, (code, took, err)
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1 and err.startswith("interrupted"), err
    if stopped_after:
        assert re.fullmatch(r"interrupted: stopped after [\d,]+ of [\d,]+ games\n", err), err
    deadline = time.time() + 5
    while any(_alive(k) for k in kids) and time.time() < deadline:
        time.sleep(0.1)
    assert not [k for k in kids if _alive(k)], "worker processes left running"


def _working(cpu_seconds):
    """Ready once the process has used ``cpu_seconds`` of CPU."""
    return lambda proc: _cpu_seconds(proc.pid) >= cpu_seconds


def _first_line(proc):
    """Ready once the process has printed its first line (kept in ``proc.first``)."""
    proc.first = proc.stdout.readline()
    return True


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
@pytest.mark.parametrize("player", ["solver", "random"])
def test_ctrl_c_stops_the_solver_and_the_random_player(player):
    """Issue 49: `eval --agent solver --board 16x30x99` still ran 60 s after Ctrl-C (every game in one kernel call)."""
    argv = ["eval", "--agent", player, "--board", "16x30x99", "--no-progress"]
    start = _cpu_of_run(argv + ["--episodes", "1"])  # start-up and warm-up (the kernels compiled and cached)
    result = _ctrl_c(_sweeper(argv + ["--episodes", "10000000"]), _working(start + 1.0))
    _stopped(result, stopped_after=True)


# ``python -m sweeper`` run by runpy, as ``-m`` runs it, beside a probe of how the process ends: a line from an exit
# handler (they must run: multiprocessing's, tempfile's) and one from the interpreter's teardown of the modules
ENDING_PROBE = """
import atexit, os, runpy
atexit.register(lambda write=os.write: write(2, b"exit handlers ran\\n"))
class Probe:
    def __del__(self, write=os.write):
        write(2, b"interpreter teardown\\n")
probe = Probe()
runpy.run_module("sweeper", run_name="__main__")
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
def test_after_ctrl_c_the_process_ends_without_the_interpreters_teardown():
    """After Ctrl-C everything is already stopped and removed; the interpreter's teardown of its thousand modules
    (numba, pandas, scipy, pyarrow) then took 1.3 to 1.5 s on a busy machine, most of the 2 s a command has to stop.
    The exit handlers still run; the teardown is skipped."""
    argv = ["eval", "--agent", "random", "--board", "16x30x99", "--no-progress"]
    start = _cpu_of_run(argv + ["--episodes", "1"])
    proc = _sweeper(argv + ["--episodes", "10000000"], code=ENDING_PROBE)
    took, code, out, err, kids = _ctrl_c(proc, _working(start + 1.0))
    assert code == 130
    assert re.fullmatch(r"interrupted: stopped after [\d,]+ of [\d,]+ games\nexit handlers ran\n", err), err


def test_the_players_play_the_games_of_one_kernel_call_in_short_calls(monkeypatch):
    """The players' games in calls of about a tenth of a second (so that Ctrl-C is acted on), the streams carrying
    on from call to call: every game as one call plays it."""
    from sweeper.game.engine import Setting, new_board
    from sweeper.rng import streams
    from sweeper.running import players

    def one_call(randomly, board, n, seed, opening, pseq=False):
        b = new_board(Setting.parse(board), opening, None)
        arrays = [np.zeros(n, np.bool_)] + [np.zeros(n, np.int64) for _ in range(3)]
        rng = streams(seed)
        no_layouts = np.zeros((0, Setting.parse(board).tiles), np.uint8)
        fallbacks = players._play(b, rng.boards, rng.agent, randomly, pseq, players.NODE_BUDGET, no_layouts,
                                  *arrays)
        return arrays, fallbacks

    calls = []
    kernel = players._play
    monkeypatch.setattr(players, "_play", lambda *a: calls.append(len(a[7])) or kernel(*a))
    for randomly, board, n, opening, guess in ((False, "8x8x10", 3000, "safe", "fewest"),
                                               (True, "16x30x99", 2000, "reference", "fewest"),
                                               (False, "8x8x10", 300, "zero", "pseq")):
        calls.clear()
        fn = (lambda *a, **k: players.play_random(*a, **k)) if randomly else \
            (lambda *a, **k: players.play_solver(*a, guess=guess, **k))
        r = fn(board, n, seed=5, opening=opening)
        assert len(calls) > 1 and sum(calls) == n
        (won, dec, rev, gue), fallbacks = one_call(randomly, board, n, 5, opening, guess == "pseq")
        s = Setting.parse(board)
        assert np.array_equal(r["won"], won) and np.array_equal(r["decisions"], dec)
        assert np.array_equal(r["guesses"], gue) and np.array_equal(r["revealed"], rev / (s.tiles - s.mines))
        assert r["fallbacks"] == fallbacks


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
def test_ctrl_c_stops_verify_of_a_player_run(tmp_path):
    """Issue 49: `verify player/3d0290c42d31574a` (the solver on expert) still ran 60 s after Ctrl-C."""
    from sweeper.experiments.reproduce import store_for
    from sweeper.experiments.specs import player
    store = store_for(tmp_path, "quick")
    small, long = player("random", "8x8x10", 300, 1, "reference"), player("solver", "16x30x99", 10**6, 1, "safe")
    run_tasks([small], store, progress=False, log=lambda *_: None)
    # the long run is stored as a placeholder, sound to the store: verify recomputes it, for minutes
    store.save(long, Output(tables={"games": pd.DataFrame({"won": [True]})}), 0.0, runner.provenance())
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    proc = _sweeper(["verify", "--scale", "quick", "--results", str(tmp_path), f"player/{small.id}",
                     f"player/{long.id}"])
    # its first line is the small run's verdict: then it computes the long one (after a moment's warm-up)
    result = _ctrl_c(proc, lambda p: _first_line(p) and time.sleep(1.5) is None)
    assert proc.first.startswith(f"player/{small.id}: identical")
    _stopped(result)
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before  # nothing written


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
@pytest.mark.parametrize("workers, presses", [(1, 1), (2, 1), (2, 2)])
def test_ctrl_c_stops_best_window(tmp_path, workers, presses):
    """Issue 49: with --workers 2 a quick double Ctrl-C printed `interrupted` and then waited forever on its idle
    workers; two Ctrl-Cs 0.3 s apart printed the workers' raw tracebacks."""
    from sweeper.experiments.comparator import estimate_part
    estimate_part("6x6x5", 10, 1)  # its kernels compiled here first, into numba's cache (else Ctrl-C waits for LLVM)
    out = tmp_path / "table.npz"
    proc = _sweeper(["best-window", "--board", "6x6x5", "--games", "100000", "--parts", "4", "--workers",
                     str(workers), "--out", str(out)])
    result = _ctrl_c(proc, lambda p: _first_line(p) and time.sleep(2.5) is None, presses=presses)
    assert proc.first.startswith("best-window 6x6x5: 4 parts")
    _stopped(result)
    assert list(tmp_path.iterdir()) == []  # no table, no temporary file


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
def test_ctrl_c_stops_reproduce(tmp_path):
    """Ctrl-C in the middle of a task: the finished tasks stay stored, the one in progress leaves nothing."""
    results = tmp_path / "results"
    start = _cpu_of_run(["reproduce", "ext:pseq", "--scale", "quick", "--results", str(tmp_path / "r"), "--list"])
    proc = _sweeper(["reproduce", "ext:pseq", "--scale", "quick", "--results", str(results), "--no-progress"])
    _stopped(_ctrl_c(proc, _working(start + 2.0)))  # its first task, the longest, takes many seconds
    store = Store(results / "runs" / "quick")
    left = [p for p in results.rglob("*") if p.name.startswith(".") and p.name != Store.LOCK]
    assert not left, left  # no temporary or set-aside folder
    for d in (results / "runs" / "quick").glob("*/*"):  # what was stored, if anything, is whole
        meta = json.loads((d / "meta.json").read_text())
        task = Task.make(meta["task"]["kind"], **meta["task"]["params"])
        assert store.status(task) == "ok"


# ------------------------------------------------------------ issue 49: best-window's arguments and file --

@pytest.mark.parametrize("argv, message", [
    (["--parts", "100000000"], "--parts must be at most 128"),
    (["--parts", "0"], "--parts must be a positive integer"),
    (["--workers", "100000", "--parts", "128"], "--workers must be at most"),
    (["--games", "0"], "--games must be a positive integer"),
])
def test_best_window_bounds_its_arguments(argv, message, capsys, tmp_path):
    """Issue 49: `--parts 100000000` grew memory with no output; `--workers` had no bound."""
    assert main(["best-window", "--board", "5x5x3", "--out", str(tmp_path / "t.npz"), *argv]) == 2
    assert message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_best_window_replaces_a_table_only_with_force(capsys, tmp_path, monkeypatch):
    """Issue 49: it overwrote the package's own table in place without --force."""
    from sweeper.agents import best_window as bw
    from sweeper.experiments import comparator

    class Computing(Exception):
        pass

    def make_table(*a, **k):  # never computes here: the tables take many minutes
        raise Computing(k["out"])

    monkeypatch.setattr(comparator, "make_table", make_table)
    package = bw.default_path("8x8x10")
    assert package.exists()
    assert main(["best-window", "--board", "8x8x10"]) == 2
    assert f"{package} exists (the package's table of 8x8x10): add --force to replace it" in capsys.readouterr().err
    mine = tmp_path / "t.npz"
    mine.write_bytes(b"old")
    assert main(["best-window", "--board", "8x8x10", "--out", str(mine)]) == 2
    assert "exists (a file): add --force" in capsys.readouterr().err
    with pytest.raises(Computing, match=str(mine)):  # with --force it goes on to compute the table
        main(["best-window", "--board", "8x8x10", "--out", str(mine), "--force", "--parts", "2", "--games", "10"])


def test_a_best_window_table_is_written_atomically(tmp_path, monkeypatch):
    from sweeper.agents import best_window as bw
    table = bw.BestWindow("5x5x3", [1, 5], [0.25, 1.0], [3, 1], info={"games": 1})
    path = table.save(tmp_path / "t.npz")
    assert bw.BestWindow.load(path).info == {"games": 1} and [p.name for p in tmp_path.iterdir()] == ["t.npz"]
    assert oct(path.stat().st_mode & 0o777) != oct(0o600)  # readable as package data, not a private temporary file

    def interrupted(f, **arrays):
        f.write(b"half a table")
        raise KeyboardInterrupt

    monkeypatch.setattr(bw.np, "savez_compressed", interrupted)
    with pytest.raises(KeyboardInterrupt):
        bw.BestWindow("5x5x3", [2], [0.5], [1]).save(path)
    assert [p.name for p in tmp_path.iterdir()] == ["t.npz"]  # no temporary file left
    assert bw.BestWindow.load(path).info == {"games": 1}  # the old table, whole
