"""The bench's unit costs per learner (sweeper/bench.py): every learner of the leaderboard measured, each row the
fastest of at least 3 repeats with its spread, a busy machine detected and a busy record refused. No test asserts a
timing value: performance lives in the bench, not in timed tests."""

import copy
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sweeper import bench, machine
from sweeper.cli import main
from sweeper.experiments.benchmark import LEVELS

HAS_TORCH = __import__("importlib").util.find_spec("torch") is not None
PROC_STAT = Path("/proc/stat").is_file()


@pytest.fixture(scope="module")
def quick_units():
    lines = []
    units = bench.unit_cost_section(quick=True, out=lines.append)
    return units, lines


def _measured(units):
    return [r for r in units["rows"] if r["what"] in ("train", "test")]


def test_the_quick_unit_costs_have_every_learner_with_its_fields_and_spread(quick_units):
    units, lines = quick_units
    rows = _measured(units)
    assert rows and len(lines) >= len(rows) + 2  # the legend and the header, then a line per row
    for r in rows:
        assert list(r) == list(bench.UNIT_FIELDS), r["learner"]
        assert r["repeats"] >= 3 and r["decisions"] > 0 and r["cpu_seconds"] >= 0
        assert r["us_min"] <= r["us_median"] <= r["us_max"] and r["us_per_decision"] == r["us_min"]
        assert r["busy"] in (True, False, None) and (r["other_load"] is None or r["other_load"] >= 0)
        assert r["busy"] is None or r["busy"] == (r["other_load"] > bench.BUSY_LOAD)
        assert r["level"] in LEVELS and r["what"] in ("train", "test")
    have = {(r["learner"], r["level"], r["what"]) for r in rows}
    learners = bench.unit_learners(quick=True)
    deep = [x for x in learners if x.startswith(("ppo:", "neural"))]
    for name in learners:
        if name in deep and not HAS_TORCH:
            continue
        if name in ("solver", "search", "random") or name.startswith(("best-window:", "neural-symmetric")):
            assert {(name, lv, "test") for lv in LEVELS} <= have and not any(
                k[0] == name and k[2] == "train" for k in have), name
        elif name == "neural-averaged":
            assert (name, "expert", "train") in have
        elif name == "neural-warm-start":  # the warm start: beginner, training only
            assert {k for k in have if k[0] == name} == {(name, "beginner", "train")}
        elif name.startswith("ppo:"):
            assert {(name, "beginner", "train"), (name, "beginner", "test")} <= have
        else:  # the table agents and the neural bandit: trained, then tested on every level
            levels = LEVELS if name == "neural" else ("beginner",)
            assert {(name, lv, "train") for lv in levels} | {(name, lv, "test") for lv in LEVELS} <= have, name
    assert {(x, lv, "test") for x in ("solver-env",) for lv in LEVELS} <= have  # the solver's environment path
    for r in rows:
        if r["learner"].startswith("ppo:") and r["what"] == "train":
            assert r["env_steps"] == r["decisions"] and r["gradient_steps_per_decision"] > 0
        elif r["learner"].startswith("neural") and r["what"] == "train":
            assert r["gradient_steps_per_decision"] is not None and r["env_steps"] is None
        else:
            assert r["gradient_steps_per_decision"] is None and r["env_steps"] is None
    if not HAS_TORCH:
        skipped = [r for r in units["rows"] if r["what"] == "skipped"]  # the neural bandit's learners, and PPO's
        assert any("neural" in r["learner"] for r in skipped) and all("deep" in r["reason"] for r in skipped)
    setup = units["setup"]
    assert setup["repeats"] >= 3 and setup["busy_load"] == bench.BUSY_LOAD and setup["mode"] == "quick"
    if hasattr(os, "sched_setaffinity"):
        assert setup["pinned_cpu"] in setup["allowed_cpus"]
    assert units["busy"] == any(r["busy"] for r in rows) and units["busy_rows"] == sum(bool(r["busy"]) for r in rows)


def _quiet(units):
    """The same record as if measured on a quiet machine."""
    units = copy.deepcopy(units)
    for r in units["rows"]:
        if "busy" in r:
            r["busy"], r["other_load"] = False, 0.0
    units["busy"], units["busy_rows"] = False, 0
    return units


def test_a_saved_bench_keeps_the_unit_costs_and_a_reader_turns_decisions_into_cost(quick_units, tmp_path):
    units = _quiet(quick_units[0])
    record = bench.save_bench([{"workload": "greedy train 8x8x10 (10 games)"}], tmp_path / "b.json", 3, units)
    back = bench.read_bench(tmp_path / "b.json")
    assert back == json.loads(json.dumps(record)) and back["format"] == bench.FORMAT and back["busy"] is False
    assert {"cpu", "cores"} <= set(back["machine"]) and back["unit_setup"]["repeats"] >= 3
    costs = bench.unit_costs(back)
    assert list(costs.columns) == list(bench.UNIT_FIELDS) and len(costs) == len(_measured(units))
    assert costs.attrs["busy"] is False
    greedy = costs[(costs["learner"] == "greedy") & (costs["what"] == "train")].iloc[0]
    assert bench.work_cost("greedy", "beginner", 2_000_000, record=back) == pytest.approx(
        2_000_000 * greedy["us_per_decision"] / 1e6)
    expert = costs[(costs["learner"] == "solver") & (costs["level"] == "expert")].iloc[0]
    assert bench.work_cost("solver", "16x30x99", 10, what="test", record=tmp_path / "b.json") == pytest.approx(
        10 * expert["us_per_decision"] / 1e6)
    assert bench.work_cost("thompson", "beginner", 0, record=back) == 0.0


def test_a_busy_record_is_refused_unless_allowed(quick_units, tmp_path):
    units = _quiet(quick_units[0])
    units["rows"][0]["busy"], units["rows"][0]["other_load"] = True, 1.5
    units["busy"], units["busy_rows"] = True, 1
    with pytest.raises(bench.BusyBench, match=r"the machine was busy: in 1 of \d+ unit-cost rows other processes "
                                              r"used more than 0.1 of a core \(up to 1.50\)") as info:
        bench.save_bench([], tmp_path / "b.json", 3, units)
    assert not (tmp_path / "b.json").exists() and "\n" not in str(info.value) and "--allow-busy" in str(info.value)
    kept = Path(str(info.value).split("(the record is in ")[1].split(")")[0])
    assert json.loads(kept.read_text())["busy"] is True
    kept.unlink()
    record = bench.save_bench([], tmp_path / "b.json", 3, units, allow_busy=True)
    assert record["busy"] and bench.read_bench(tmp_path / "b.json")["busy_rows"] == 1
    assert bench.unit_costs(tmp_path / "b.json").attrs["busy"] is True


def _units_of(rows, busy=False):
    return {"rows": rows, "setup": {"repeats": 3}, "busy": busy, "busy_rows": int(busy), "other_load": 0.0}


def _row(learner, level, what, us=2.0, busy=False):
    return {"learner": learner, "level": level, "board": "", "what": what, "path": "", "games": 1, "decisions": 10,
            "cpu_seconds": us * 1e-5, "us_per_decision": us, "us_min": us, "us_median": us, "us_max": us,
            "repeats": 3, "gradient_steps_per_decision": None, "env_steps": None, "win_rate": None, "busy": busy,
            "other_load": 1.0 if busy else 0.0}


@pytest.fixture
def made_record():
    rows = [_row("greedy", "beginner", "train", 1.5), _row("greedy", "expert", "test", 6.0),
            _row("ppo:tiles", "beginner", "train", 3000.0), _row("neural", "beginner", "test", 60.0),
            _row("neural-symmetric", "expert", "test", 1700.0),
            {"learner": "ppo:cnn", "what": "skipped", "reason": "no extra"}]
    return {"format": bench.FORMAT, "date": "2026-12-01T00:00Z", "unit_costs": rows, "busy": False}


def test_work_cost_names_learners_as_the_leaderboard_does(made_record):
    assert bench.work_cost("greedy", "8x8x10", 1_000_000, record=made_record) == pytest.approx(1.5)
    assert bench.work_cost("neural:neural_bandit/abc", "beginner", 1000, "test", made_record) == pytest.approx(0.06)
    assert bench.work_cost("neural-symmetric:neural_bandit/x", "expert", 1000, "test", made_record) == \
        pytest.approx(1.7)


@pytest.mark.parametrize("args, message", [
    (("magic", "beginner", 10), "unknown learner 'magic': the bench measured greedy, ppo:tiles, neural"),
    (("greedy", "huge", 10), "huge"),
    (("greedy", "8x8x11", 10), "not for 8x8x11"),
    (("greedy", 3, 10), "level must be"),
    (("greedy", "beginner", -1), "decisions must be a non-negative number"),
    (("greedy", "beginner", True), "decisions must be a non-negative number"),
    (("greedy", "beginner", float("nan")), "decisions must be a non-negative number"),
    (("greedy", "beginner", 10, "play"), "what must be 'train' or 'test'"),
    (("greedy", "intermediate", 10, "test"), "no test cost of greedy on intermediate: it measured train on "
                                             "beginner, test on expert"),
    (("ppo:tiles", "expert", 10), "no train cost of ppo:tiles on expert"),
    (("ppo:cnn", "beginner", 10), "the bench skipped ppo:cnn: no extra"),
    ((None, "beginner", 10), "learner and level must be names"),
])
def test_bad_input_to_work_cost_is_a_clear_error(made_record, args, message):
    with pytest.raises(ValueError, match=__import__("re").escape(message)):
        bench.work_cost(*args, record=made_record)


def test_a_bench_of_the_first_format_reads_but_has_no_unit_costs(tmp_path):
    old = {"format": 1, "date": "2026-11-28T02:54Z", "machine": {"cores": 2}, "provenance": {"commit": "abc"},
           "repeat": 3, "rows": [{"workload": "greedy train 8x8x10 (100,000 games)", "games": 100_000}]}
    (tmp_path / "old.json").write_text(json.dumps(old))
    assert bench.read_bench(tmp_path / "old.json") == old
    with pytest.raises(ValueError, match="has no unit costs \\(format 1\\): `python -m sweeper bench --save"):
        bench.unit_costs(tmp_path / "old.json")
    (tmp_path / "bad.json").write_text(json.dumps({**old, "format": 2}))  # format 2 without its fields
    with pytest.raises(ValueError, match="not a bench file of format 2"):
        bench.read_bench(tmp_path / "bad.json")
    with pytest.raises(ValueError, match="must be a bench record"):
        bench.unit_costs(42)


def test_the_load_watch_counts_only_the_other_processes(monkeypatch):
    """On a made /proc/stat: the machine's busy ticks are this process's CPU (quiet), then 0.5 s more per reading."""
    extra = {"ticks": 0}
    monkeypatch.setattr(machine, "busy_ticks",
                        lambda: int(time.process_time() * machine.CLOCK_TICKS) + extra["ticks"])

    def work():
        t = time.process_time()
        while time.process_time() - t < 0.05:
            pass
        return {"decisions": 100}
    quiet = bench.measure(work, repeats=3)
    assert quiet["busy"] is False and quiet["other_load"] <= bench.BUSY_LOAD and quiet["repeats"] == 3

    def busy_work():
        extra["ticks"] += machine.CLOCK_TICKS // 2  # others used half a CPU second meanwhile
        return work()
    busy = bench.measure(busy_work, repeats=3)
    assert busy["busy"] is True and busy["other_load"] > bench.BUSY_LOAD
    monkeypatch.setattr(machine, "busy_ticks", lambda: None)  # no /proc/stat: unknown, not quiet
    assert bench.measure(work, repeats=3)["busy"] is None
    with pytest.raises(ValueError, match="must make decisions"):
        bench.measure(lambda: {"decisions": 0})


@pytest.mark.skipif(not PROC_STAT, reason="busy detection reads /proc/stat (Linux)")
@pytest.mark.skipif(hasattr(os, "sched_getaffinity") and len(os.sched_getaffinity(0)) < 2,
                    reason="one usable CPU: a second process would share this one's")
def test_a_second_process_burning_cpu_marks_the_measurement_busy():
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.3)  # running

        def work():
            t = time.process_time()
            while time.process_time() - t < 0.3:
                pass
            return {"decisions": 1000}
        with bench.alone_on_one_cpu():
            m = bench.measure(work, repeats=3)
    finally:
        spinner.kill()
        spinner.wait()
    assert m["busy"] is True and m["other_load"] > bench.BUSY_LOAD


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no os.sched_setaffinity on this system")
def test_pinning_holds_one_cpu_and_gives_every_cpu_back():
    before = os.sched_getaffinity(0)
    with bench.alone_on_one_cpu() as pin:
        assert os.sched_getaffinity(0) == {pin["pinned_cpu"]} and pin["pinned_cpu"] in before
    assert os.sched_getaffinity(0) == before


def _fake_bench(monkeypatch, busy):
    rows = [_row("greedy", "beginner", "train", busy=busy)]
    monkeypatch.setattr(bench, "run_benchmarks", lambda **k: [{"workload": "greedy train 8x8x10 (10 games)"}])
    monkeypatch.setattr(bench, "unit_cost_section", lambda **k: _units_of(rows, busy))


def test_the_command_line_refuses_to_save_a_busy_bench_without_allow_busy(monkeypatch, tmp_path, capsys):
    _fake_bench(monkeypatch, busy=True)
    out = tmp_path / "b.json"
    assert main(["bench", "--save", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: the machine was busy") and "--allow-busy" in err[0]
    assert not out.exists()
    Path(err[0].split("(the record is in ")[1].split(")")[0]).unlink()
    assert main(["bench", "--save", str(out), "--allow-busy"]) == 0
    assert "(marked busy)" in capsys.readouterr().out and bench.read_bench(out)["busy"] is True
    _fake_bench(monkeypatch, busy=False)
    assert main(["bench", "--save", str(out), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert printed["busy"] is False and printed["unit_costs"][0]["learner"] == "greedy"
    assert bench.read_bench(out)["busy"] is False


@pytest.mark.parametrize("argv, message", [
    (["bench", "--allow-busy"], "--allow-busy lets --save write"),
    (["bench", "--units-only", "--save", "b.json"], "--units-only measures the unit costs alone"),
    (["bench", "--units-only", "--repeat", "0"], "repeat must be a whole number >= 1"),
])
def test_unit_cost_options_that_cannot_work_are_refused(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(bench, "unit_cost_section", lambda **k: pytest.fail("the bench ran"))
    assert main(argv) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "b.json").exists()
