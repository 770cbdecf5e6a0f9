"""`python -m sweeper time-reproduction`: the reproduction timed from nothing, and the file the speed chapter reads."""

import json
import shutil

import pandas as pd
import pytest

from sweeper.experiments import specs as ex
from sweeper.experiments import timing
from sweeper.experiments.reproduce import quick_reproduction, table_path
from sweeper.viz import figures
from sweeper.viz.figures.speed import BENCH_LABELS


@pytest.fixture(scope="module")
def timed(tmp_path_factory):
    quick_reproduction()  # the stored quick comparison table the timed run is compared with (shared, made once)
    out = tmp_path_factory.mktemp("timing") / "timing.json"
    scratch = tmp_path_factory.mktemp("scratch") / "results"
    record = timing.time_reproduction("quick", workers=2, scratch=scratch, book=False, out=out, log=lambda *_: None)
    return record, out, scratch


def test_the_paper_part_is_timed_from_nothing_and_remakes_the_comparison_table(timed):
    record, out, scratch = timed
    assert json.loads(out.read_text()) == record
    (part,) = record["parts"]
    tasks = ex.all_tasks(None, "quick", (1,))
    assert part["name"] == "paper" and part["tasks"] == len(tasks) and part["computed"] == len(tasks)
    assert part["stored_tasks"] == len(tasks)  # every task has a stored run to compare with
    assert part["wall_seconds"] > 0 and part["cpu_seconds"] > 0 and part["task_seconds"] > 0
    assert record["comparison"] == {"unchanged": True, "wall_time_rows_differing": 2, "other_differences": []}
    assert [e["experiment"] for e in record["experiments"]] == sorted(
        ex.SPECS, key=lambda s: -next(e["task_seconds"] for e in record["experiments"] if e["experiment"] == s))
    assert record["workers"] == 2 and record["machine"]["cores"] >= 1 and record["provenance"]["commit"]
    assert (scratch / "runs").is_dir()  # a scratch directory given by the caller is kept


def test_the_book_reads_the_timing_as_tables_and_sentences(timed):
    record, _, _ = timed
    parts = figures.timing_parts(record)
    assert list(parts.index) == ["the paper (seed 1)"]
    assert list(parts.columns) == ["tasks", "wall", "CPU", "tasks' own", "as stored"]
    assert parts.loc["the paper (seed 1)", "tasks"] == f"{record['parts'][0]['tasks']:,}"
    top = figures.costliest_experiments(record, n=3)
    assert len(top) == 3 and top.index[0] == record["experiments"][0]["experiment"]
    assert "equals the stored one row for row" in figures.comparison_sentence(record)
    assert figures.duration(record["parts"][0]["wall_seconds"]) in figures.timing_verdict(record)
    assert record["provenance"]["commit"][:7] in figures.timing_sentence(record)


def test_a_changed_number_of_the_comparison_table_is_listed(tmp_path):
    quick_reproduction()
    stored = table_path("comparison", scale="quick")
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        d.mkdir()
        shutil.copy(stored, table_path("comparison", d, "quick"))
    t = pd.read_csv(stored, dtype=str, keep_default_na=False)
    wall = t.index[t["experiment"] == timing.WALL_TIME_EXPERIMENT][0]
    t.loc[wall, "ours"] = "0.5"
    t.to_csv(table_path("comparison", b, "quick"), index=False)
    assert timing._comparison_differences(b, a, "quick") == (1, [])  # a wall time: a measurement of the machine
    other = t.index[t["experiment"] != timing.WALL_TIME_EXPERIMENT][0]
    t.loc[other, "ours"] = "0.123"
    t.to_csv(table_path("comparison", b, "quick"), index=False)
    wall_rows, diffs = timing._comparison_differences(b, a, "quick")
    assert wall_rows == 1 and len(diffs) == 1 and diffs[0]["ours"].endswith("-> 0.123")


def test_bad_arguments_are_refused_before_any_work(tmp_path):
    full = tmp_path / "full"
    full.mkdir()
    (full / "something").write_text("x")
    with pytest.raises(ValueError, match="not an empty directory"):
        timing.time_reproduction("quick", scratch=full, out=tmp_path / "t.json")
    with pytest.raises(ValueError, match="workers"):
        timing.time_reproduction("quick", workers=0, out=tmp_path / "t.json")
    with pytest.raises(ValueError, match="book must be True or False"):
        timing.time_reproduction("quick", book="no", out=tmp_path / "t.json")
    with pytest.raises(ValueError, match="scale"):
        timing.time_reproduction("huge", out=tmp_path / "t.json")
    with pytest.raises(ValueError, match="is a directory: give a file name"):
        timing.time_reproduction("quick", out=full)
    assert not (tmp_path / "t.json").exists()


def test_the_command_line_refuses_a_scratch_directory_that_is_not_empty(tmp_path, capsys):
    from sweeper.cli import main
    (tmp_path / "old").write_text("x")
    assert main(["time-reproduction", "--scale", "quick", "--scratch", str(tmp_path),
                 "--out", str(tmp_path / "t.json")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not an empty directory" in err[0]


def test_a_missing_or_foreign_timing_file_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="time-reproduction"):
        timing.read_timing(tmp_path / "none.json")
    (tmp_path / "bad.json").write_text('{"format": 99}')
    with pytest.raises(ValueError, match="not a timing file"):
        timing.read_timing(tmp_path / "bad.json")
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(ValueError, match="cannot be read"):
        timing.read_timing(tmp_path / "broken.json")


def test_the_committed_timing_is_of_the_paper_scale_and_both_parts():
    record = figures.reproduction_timing()
    assert record["scale"] == "paper" and [p["name"] for p in record["parts"]] == ["paper", "book"]
    assert record["parts"][0]["tasks"] == len(ex.all_tasks(None, "paper", (1,)))
    assert all(p["stored_tasks"] == p["tasks"] for p in record["parts"])
    assert record["comparison"]["unchanged"]


def test_the_book_reads_the_committed_bench():
    """The speed chapter's bench table and sentences come from results/bench.json and agree with it."""
    record = figures.bench_record()
    assert record["provenance"]["commit"] and not record["provenance"]["sweeper_modified"]
    table = figures.bench_table(record)
    assert len(table) == len(BENCH_LABELS) and table.loc["greedy", "× greedy"] == "1"
    rows = {r["workload"]: r for r in record["rows"]}
    thompson = next(r for w, r in rows.items() if w.startswith("thompson train"))
    draws = next(r for w, r in rows.items() if w.startswith("thompson's Beta draws alone"))
    assert table.loc["Thompson sampling", "games/s"] == f"{thompson['games_per_second']:,.0f}"
    text = figures.thompson_cost_sentence(record)
    assert f"**{thompson['x_greedy']:.2f}**" in text and f"**{draws['share_of_time']:.0%}**" in text
    assert draws["share_of_time"] == pytest.approx(draws["us_per_decision_drawing"] / draws["us_per_decision_trained"],
                                                   abs=2e-3)
    loop = next(r for w, r in rows.items() if "Python loop, compiled by Rule" in w)
    assert f"**{loop['x_greedy']:.2f}**" in figures.rule_cost_sentence(record)
    probe = figures.probe_cost_table(record)
    assert list(probe.index) == ["beginner", "intermediate", "expert"]
    assert record["date"][:10] in figures.bench_sentence(record)


def test_the_neural_bandits_rows_of_the_bench_become_a_table_and_a_sentence():
    from sweeper.viz.figures import speed
    record = {"date": "2026-11-28T02:05Z", "machine": {"cores": 2, "cpu": "a CPU", "system": "Linux"},
              "provenance": {"commit": "abcdef0123"}, "rows": [{"workload": "greedy train 8x8x10 (100,000 games)"}]}
    assert speed.neural_speed(record).empty
    with pytest.raises(ValueError, match="has no rows of the neural bandit"):
        speed.speed_values(speed.neural_speed(record), record)
    for board, rate in (("8x8x10", 2000.0), ("16x16x40", 900.0), ("16x30x99", 500.0)):
        for how, k in (("default learning", 1), ("minibatch 128, replay 0.5", 3), ("minibatch 128, replay 0.25", 4)):
            record["rows"].append({"workload": f"neural bandit (32 ch, 5 layers) train {board}, {how} (10 games, CPU s)",
                                   "decisions_per_second": rate * k})
        record["rows"].append({"workload": f"neural bandit {board} test games, frozen, batched (10 games, CPU s)",
                               "decisions_per_second": rate * 8})
    t = speed.neural_speed(record)
    assert list(t.index) == ["beginner", "intermediate", "expert"]
    assert speed.neural_speed_table(t).loc["expert", "training, 128 per 256"] == "1,500"
    v = speed.speed_values(t, record)
    assert (v["recipe"], v["first"], v["ratio"], v["test"]) == (6000.0, 2000.0, 3.0, 16000.0)
    assert (v["date"], v["time"], v["commit"], v["cores"]) == ("2026-11-28", "02:05", "abcdef0", 2)
