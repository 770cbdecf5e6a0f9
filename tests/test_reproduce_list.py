"""``reproduce --list``: each experiment's games, and the stored runs that no experiment asks for (issue 64)."""

import json
import re
from pathlib import Path

from sweeper.cli import main
from sweeper.experiments import reproduce as rp
from sweeper.experiments import specs as ex
from sweeper.experiments.runner import Task

REPO = Path(__file__).resolve().parents[1]


def _stored(results: Path, task: Task, scale: str = "quick") -> str:
    """A stored run's folder with its ``meta.json`` (no games played: the listing reads folders and meta files)."""
    folder = results / "runs" / scale / task.kind / task.id
    folder.mkdir(parents=True)
    (folder / "meta.json").write_text(json.dumps({"task": {"kind": task.kind, "params": task.params, "id": task.id}}))
    return f"{task.kind}/{task.id}"


def _listing(capsys, *argv) -> list[str]:
    assert main(["reproduce", "--list", "--scale", "quick", *argv]) == 0
    return capsys.readouterr().out.splitlines()


def test_the_listing_names_exactly_the_orphan(tmp_path, capsys):
    wanted = _stored(tmp_path, ex.all_tasks(["ext:pseq"], "quick")[0])
    band = _stored(tmp_path, ex.base_task("greedy", ex.SCALES["quick"], ex.BAND_SEEDS["quick"][-1]))  # a seed band's
    deep = _stored(tmp_path, ex.EXTRA_SPECS["ext:deep_rl"].tasks("quick", rp.DEEP_SEEDS)[-1])  # make deep's seeds
    orphan = _stored(tmp_path, Task.make("player", player="random", board="8x8x10", episodes=7, seed=1,
                                         opening="reference", label="an old run"))
    out = _listing(capsys, "--results", str(tmp_path), "ext:pseq")
    head = [i for i, line in enumerate(out) if "that no spec asks for" in line]
    assert len(head) == 1 and out[head[0]].endswith(": 1 player"), out
    named = [line for line in out if re.search(r"\b[a-z_]+/[0-9a-f]{16}\b", line)]
    assert named == [f"  {orphan}  an old run"], out
    assert not any(run.split("/")[1] in "\n".join(out) for run in (wanted, band, deep))
    assert out[-1] == f"  nothing reads them; remove each with `rm -r {tmp_path}/runs/quick/KIND/ID`"


def test_a_store_without_orphans_says_none(tmp_path, capsys):
    _stored(tmp_path, ex.all_tasks(["ext:pseq"], "quick")[0])
    out = _listing(capsys, "--results", str(tmp_path), "ext:pseq")
    assert out[-1].endswith("that no spec asks for (seeds 1; 1,2; 1,2,3): none"), out
    assert rp.orphans(rp.store_for(tmp_path / "nothing", "quick"), "quick") == []  # no store at all


def test_a_run_of_the_committed_results_is_removed_with_git():
    assert rp.removal_command(rp.store_for(None, "paper")) == "git rm -r results/runs/paper/KIND/ID"


def test_an_unreadable_meta_is_named_not_a_traceback(tmp_path):
    folder = tmp_path / "runs" / "quick" / "bandit" / ("0" * 16)
    folder.mkdir(parents=True)
    (folder / "meta.json").write_text("{not json")
    assert rp.orphans(rp.store_for(tmp_path, "quick"), "quick") == [
        (f"bandit/{'0' * 16}", "(its meta.json cannot be read)")]


def test_each_experiment_lists_its_games_and_the_games_still_to_play(tmp_path, capsys):
    tasks = ex.all_tasks(["ext:own_rule"], "quick", ex.BAND_SEEDS["quick"])
    _stored(tmp_path, tasks[0])  # not a whole run: listed, but not done
    out = _listing(capsys, "--results", str(tmp_path), "--seeds", "1,2", "ext:own_rule")
    games = sum(rp.task_games(t) for t in tasks)
    assert re.match(rf"ext:own_rule +{len(tasks)} tasks, +0 done, +{games:,} games  Write your own", out[0]), out
    assert out[1].strip() == f"to run: {len(tasks)} tasks, {games:,} games", out


def test_the_games_of_a_task_are_read_from_its_parameters():
    sc = ex.SCALES["paper"]
    own = [t for t in ex.all_tasks(["ext:own_rule"], "paper") if t.params["agent"] in ex.OWN_RULE_AGENTS]
    assert {rp.task_games(t) for t in own} == {sc.train}  # training on beginner only, no test games
    transfer = ex.transfer_task("greedy", ("8x8x10",), sc, 1)
    assert rp.task_games(transfer) == sc.train + 3 * 2 * sc.test  # tests on three levels, frozen and learning
    how_good = [t for t in ex.all_tasks(["ext:how_good"], "paper") if t.kind == "bandit"]
    assert {rp.task_games(t) for t in how_good} == {sc.train + 3 * len(ex.OPENINGS) * sc.test}
    regret = ex.regret_spec_task("greedy", "8x8x10", sc.train, 1, 1000, frozen=sc.test)
    assert rp.task_games(regret) == sc.train + sc.test


def test_the_seeds_of_make_deep_are_a_seed_set_of_the_listing():
    """A run of ``make deep`` is made with ``--seeds 1,2,3`` (Makefile): the listing counts it as wanted."""
    makefile = (REPO / "Makefile").read_text()
    given = {tuple(int(s) for s in m.split(",")) for m in re.findall(r"--seeds ([\d,]+)", makefile)}
    assert given and given <= set(rp.book_seed_sets("paper")), given
