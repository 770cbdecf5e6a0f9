"""Issue 65: a benchmark others can trust and build on. Per-board results out (--save), paired comparisons with the
leaderboard's stored entries (--compare), fresh boards (--fresh), the policy contract exact and documented, and every
hostile input of the issue's list a clear one-line error or the right result."""

import hashlib
import io
import json
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest

from sweeper.cli import build_parser, main
from sweeper.experiments import benchmark as bm, board_results as br, suites
from sweeper.experiments.reproduce import store_for
from sweeper.experiments.runner import Task, run_tasks
from sweeper.game import engine
from sweeper.running.policies import solver_action


# ------------------------------------------------------------------ suites --

@pytest.fixture
def suite_dir(tmp_path, monkeypatch):
    """Every suite of 5 boards written into a folder the benchmark reads instead of the package's (whose suites,
    for the length of the test, are of 5 boards)."""
    bm.write_suites(tmp_path, games=5)
    monkeypatch.setattr(suites, "SUITE_DIR", tmp_path)
    monkeypatch.setattr(suites, "SUITE_GAMES", 5)
    return tmp_path


def _manifest(d):
    return json.loads((d / "manifest.json").read_text())


def _entry(man, name):
    return next(e for e in man["suites"] if e["name"] == name)


def _forge(d, name, data: bytes, **fields):
    """Write a suite file and, as a careful forger would, its file checksum (and ``fields``) into the manifest."""
    man = _manifest(d)
    (d / f"{name}.npz").write_bytes(data)
    _entry(man, name).update(file_sha256=hashlib.sha256(data).hexdigest(), **fields)
    (d / "manifest.json").write_text(json.dumps(man))


def _npz(**arrays) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def _cli_error(capsys, *argv):
    """Run the command line in-process: its exit status 2 and its one line on stderr (no traceback)."""
    rc = main(["benchmark", *argv])
    out, err = capsys.readouterr()
    assert rc == 2 and err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err, (rc, err)
    assert out == ""
    return err


def test_a_suite_whose_shape_is_rewritten_is_refused(suite_dir, capsys):
    """Before: an expert suite whose ``shape`` said 30x16 passed its layouts checksum (the same bits) and was scored
    on the wrong boards, rc 0: the board was read from the file, not from the level."""
    with np.load(suite_dir / "expert-reference.npz") as z:
        mines = z["mines"]
    _forge(suite_dir, "expert-reference", _npz(mines=mines, shape=np.array([5, 30, 16], np.int64)))
    with pytest.raises(ValueError, match=r"says its boards are \[5, 30, 16\] \(games, rows, cols\), but its "
                                         r"level's are \[5, 16, 30\]: it was changed"):
        bm.load_suite("expert")
    assert "says its boards are [5, 30, 16]" in _cli_error(capsys, "solver", "--level", "expert", "--games", "2")
    man = _manifest(suite_dir)
    _entry(man, "expert-reference").update(rows=30, cols=16)
    (suite_dir / "manifest.json").write_text(json.dumps(man))
    with pytest.raises(ValueError, match="the entry of expert-reference gives rows 30, cols 16, but the suite's is "
                                         "16, 30"):
        bm.load_suite("expert")


def test_the_manifests_file_checksum_is_checked(suite_dir):
    """Before: ``file_sha256`` was never checked; the same layouts in other bytes (compressed) now fail it."""
    with np.load(suite_dir / "beginner-reference.npz") as z:
        buf = io.BytesIO()
        np.savez_compressed(buf, mines=z["mines"], shape=z["shape"])
    (suite_dir / "beginner-reference.npz").write_bytes(buf.getvalue())
    with pytest.raises(ValueError, match=r"does not match its checksum in the manifest \(file_sha256\)"):
        bm.load_suite("beginner")


def test_the_manifests_seed_is_checked_against_the_suites_seeds(suite_dir):
    """Before: the manifest's ``seed`` was never checked; a suite dealt from another seed, every checksum
    recomputed, is refused too (the layouts must be the engine's deal of the suite's seed)."""
    man = _manifest(suite_dir)
    _entry(man, "beginner-reference")["seed"] = 7
    (suite_dir / "manifest.json").write_text(json.dumps(man))
    with pytest.raises(ValueError, match="gives seed 7, but the suite's is 1000"):
        bm.load_suite("beginner")
    bm.write_suites(suite_dir, games=5)
    other = bm.fresh_suite("beginner", "reference", 7, 5)
    flat = other.layouts.reshape(5, -1)
    _forge(suite_dir, "beginner-reference", _npz(mines=np.packbits(flat, axis=1), shape=np.array([5, 8, 8])),
           layouts_sha256=other.checksum)
    with pytest.raises(ValueError, match="is not the engine's deal of its seed 1000: it was changed"):
        bm.load_suite("beginner")


def test_a_flipped_byte_in_a_suite_file_is_a_clear_error(suite_dir, capsys):
    """Before: one flipped byte gave a raw ``zipfile.BadZipFile``. With the file checksum left as it was, the
    checksum says so; with it recomputed (a forger), the reading does, wherever the byte is: a clear error, or
    (a byte that changes nothing read, such as a header's date) the engine's own boards."""
    path = suite_dir / "beginner-reference.npz"
    original = path.read_bytes()
    dealt = bm.deal_suite("beginner", "reference", 5).layouts
    errors = 0
    for at in range(0, len(original), 3):
        data = bytearray(original)
        data[at] ^= 0xFF
        path.write_bytes(bytes(data))
        with pytest.raises(ValueError, match="does not match its checksum in the manifest"):
            bm.load_suite("beginner")
        _forge(suite_dir, "beginner-reference", bytes(data))
        try:
            np.testing.assert_array_equal(bm.load_suite("beginner").layouts, dealt)
        except ValueError as exc:
            assert "beginner-reference.npz" in str(exc) and "\n" not in str(exc)
            errors += 1
    assert errors > len(original) // 6
    data = bytearray(original)
    data[0] ^= 0xFF
    _forge(suite_dir, "beginner-reference", bytes(data))
    assert "cannot read the suite" in _cli_error(capsys, "solver", "--games", "2")


@pytest.mark.parametrize("text, message", [
    ("{}", "must be an object whose 'suites' is a list of entries .* got dict without a list 'suites'"),
    ("[]", "must be an object whose 'suites' is a list of entries .* got list"),
    ('{"suites": {}}', "must be an object whose 'suites' is a list"),
    ('{"suites": [1, "x"]}', "has no suite beginner-reference"),
    ("[" * 100_000 + "]" * 100_000, r"too deeply nested"),
    ("{not json", "cannot read the benchmark's manifest"),
    (None, "the entry of beginner-reference has no file"),
    ("layouts", "the entry of beginner-reference has no layouts_sha256"),
    ("twice", "names the suite beginner-reference 2 times"),
    ("outside", "names the file '../x.npz', not a file of its folder"),
    ("seed-text", "has seed '1000', not a int"),
])
def test_a_broken_manifest_is_a_clear_error(suite_dir, text, message, capsys):
    """Before: a manifest of ``{}`` / ``[]`` / an entry without ``file`` or ``layouts_sha256`` ended in a raw
    KeyError, TypeError or RecursionError."""
    man = _manifest(suite_dir)
    e = _entry(man, "beginner-reference")
    edits = {None: lambda: e.pop("file"), "layouts": lambda: e.pop("layouts_sha256"),
             "twice": lambda: man["suites"].append(dict(e)), "outside": lambda: e.update(file="../x.npz"),
             "seed-text": lambda: e.update(seed="1000")}
    if text in edits:
        edits[text]()
        text = json.dumps(man)
    (suite_dir / "manifest.json").write_text(text)
    with pytest.raises(ValueError, match=message):
        bm.load_suite("beginner")
    _cli_error(capsys, "solver", "--games", "2")


def _fifo_or_device(tmp_path, target, kind):
    path = tmp_path / target
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")


@pytest.mark.parametrize("target", ["beginner-reference.npz", "manifest.json"])
@pytest.mark.parametrize("kind, said", [("fifo", "is a pipe \\(FIFO\\)"), ("zero", "is a character device")])
def test_a_data_file_or_manifest_that_is_a_device_or_a_pipe_is_refused_unread(tmp_path, target, kind, said):
    """Before: a symlink to /dev/zero was read until memory ran out (then blamed on "play fewer games"); a FIFO
    blocked until Ctrl-C. Only regular files are read (a separate process, so that a regression cannot hang the
    tests)."""
    bm.write_suites(tmp_path, games=3)
    _fifo_or_device(tmp_path, target, kind)
    code = (f"from sweeper.experiments import suites; suites.SUITE_GAMES = 3; "
            f"suites.load_suite('beginner', 'reference', {str(tmp_path)!r})")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "ValueError" in r.stderr
    assert re.search(f"{said}, not a regular file: only regular files are read", r.stderr)


# ---------------------------------------------------------------- policies --

def _corner(view):
    r, c = np.argwhere(view == 9)[0]
    return int(r) * view.shape[1] + int(c)


def test_a_policy_returning_a_0d_array_is_scored_as_its_index():
    """Before: ``np.array(i)`` ended in a raw ``len() of unsized object``."""
    as_int = bm.score(_corner, games=20, regret_games=0)
    as_array = bm.score(lambda view: np.array(_corner(view)), games=20, regret_games=0)
    assert as_array.games.equals(as_int.games)
    for bad, said in ((lambda view: np.array([[1]]), r"returned array\(\[\[1\]\]\) \(ndarray\)"),
                      (lambda view: np.array(2.0), r"returned array\(2\.\) \(ndarray\)")):
        with pytest.raises(bm.BenchmarkError, match="board 0 of the suite beginner-reference, decision 1: the "
                                                    "policy " + said):
            bm.score(bad, games=2, regret_games=0)

    class Unreadable:
        def __len__(self):
            raise RuntimeError("no length")
    with pytest.raises(bm.BenchmarkError, match="cannot be read as a tile|return \\(row, col\\)"):
        bm.score(lambda view: Unreadable(), games=2, regret_games=0)


def test_sys_exit_in_a_policy_is_an_error_naming_the_board_and_decision(tmp_path, monkeypatch, capsys):
    """Before: a policy (or its module) calling ``sys.exit(0)`` made ``benchmark --json`` exit 0 printing
    nothing."""
    def leaves(view):
        sys.exit(0)
    with pytest.raises(bm.BenchmarkError, match=r"leaves on board 0 of the suite beginner-reference, decision 1: "
                                                r"the policy raised SystemExit: 0 \(sys.exit ends no game"):
        bm.score(leaves, games=2, regret_games=0)
    (tmp_path / "exits_in_play.py").write_text("import sys\ndef f(view):\n    sys.exit(0)\n")
    (tmp_path / "exits_on_import.py").write_text("import sys\nsys.exit(0)\ndef f(view):\n    return 0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    err = _cli_error(capsys, "exits_in_play:f", "--games", "2", "--json")
    assert "f on board 0 of the suite beginner-reference, decision 1: the policy raised SystemExit: 0" in err
    err = _cli_error(capsys, "exits_on_import:f", "--games", "2", "--json")
    assert "importing 'exits_on_import' for the policy exits_on_import:f raised SystemExit: 0" in err

    def stops(view):
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):  # Ctrl-C still stops it
        bm.score(stops, games=2, regret_games=0)


class _Counting:
    """A policy with a reset and the mine count as its second argument."""

    def __init__(self):
        self.games, self.mines = 0, set()

    def reset(self):
        self.games += 1

    def __call__(self, view, mines):
        self.mines.add(mines)
        return _corner(view)


def test_the_mine_count_reaches_every_policy_that_can_take_it():
    """Before: only a required second parameter got it (``def policy(view, mines=None)`` silently got none: 181
    wins instead of 187 on the first 300 beginner boards); a keyword ``mines`` never did."""
    seen = []

    def optional(view, mines=None):
        seen.append(("optional", mines))
        return solver_action(view, mines)

    def keyword(view, *, mines):
        seen.append(("keyword", mines))
        return solver_action(view, mines)

    def other_name(view, n=None):
        seen.append(("other_name", n))
        return _corner(view)

    def view_only(view, **kw):
        seen.append(("view_only", kw.get("mines")))
        return _corner(view)

    solver = bm.score("solver", games=30, regret_games=0).wins
    for fn in (optional, keyword):
        assert bm.score(fn, games=30, regret_games=0).wins == solver
    for fn in (other_name, view_only):
        bm.score(fn, games=3, regret_games=0)
    assert {s for s in seen} == {("optional", 10), ("keyword", 10), ("other_name", 10), ("view_only", None)}
    counting = _Counting()
    bm.score(counting, "intermediate", games=4, regret_games=0)
    assert counting.games == 4 and counting.mines == {40}  # its reset kept when it is given the mine count
    for bad, said in ((lambda view, *, rng: 0, "needs the keyword argument 'rng'"),
                      (lambda *, view: 0, "takes no positional argument"),
                      (lambda a, b, c: 0, "takes 3 required arguments")):
        with pytest.raises(bm.BenchmarkError, match=said):
            bm.score(bad, games=1, regret_games=0)


def test_the_view_is_int8_as_documented_and_help_names_only_options_that_exist():
    """Before: the view arrived as int8, undocumented; ``--opening``'s help named ``--first``, which benchmark does
    not have."""
    types = []
    bm.score(lambda view: types.append((view.dtype, view.shape)) or _corner(view), games=1, regret_games=0)
    assert types[0] == (np.int8, (8, 8))
    sub = next(a for a in build_parser()._actions if a.dest == "command").choices["benchmark"]
    text = sub.format_help()
    options = {o for a in sub._actions for o in a.option_strings}
    named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", text))
    assert named <= options, named - options
    assert "int8" in " ".join(text.split()) and "0-8" in text and "9 covered" in " ".join(text.split())
    assert "int8" in bm.player_of.__doc__ and "int8" in bm.VIEW
    readme = (bm.SUITE_DIR.parents[3] / "README.md").read_text()
    section = readme[readme.index("`benchmark` scores an agent"):]
    assert "int8" in section[:1500] and "--save" in section[:3000] and "--compare" in section[:3000]


# -------------------------------------------------------------- fresh boards --

def test_fresh_boards_are_the_engines_deal_of_the_seed_given():
    s = bm.score("solver", games=30, regret_games=2, fresh=7)
    assert s.suite.fresh and s.suite.seed == 7 and len(s.suite) == 30
    dealt = bm.fresh_suite("beginner", "reference", 7, 30)
    np.testing.assert_array_equal(s.suite.layouts, dealt.layouts)
    assert not np.array_equal(dealt.layouts, bm.load_suite("beginner").layouts[:30])
    r = s.report()
    assert (r["fresh"], r["fresh_seed"], r["suite_sha256"]) == (True, 7, dealt.checksum)
    assert bm.score("solver", games=30, regret_games=0).report()["fresh"] is False
    with pytest.raises(ValueError, match="--fresh 1000 is the seed of the public suite beginner-reference"):
        bm.score("solver", games=3, fresh=1000)
    with pytest.raises(ValueError, match="fresh deals boards of its own"):
        bm.score("solver", suite=bm.load_suite("beginner"), fresh=7)
    with pytest.raises(ValueError, match="seed must be"):
        bm.score("solver", games=3, fresh=-1)


def test_fresh_boards_are_said_in_the_json(tmp_path, capsys):
    assert main(["benchmark", "random", "--fresh", "12", "--games", "20", "--regret-games", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["fresh"] is True and out["fresh_seed"] == 12 and out["games"] == 20
    assert out["regret_low"] <= out["regret_per_decision"] <= out["regret_high"]
    assert out["paths_agree"] == out["paths_agree_clicks"] == 4
    assert main(["benchmark", "random", "--fresh", "12", "--games", "20", "--regret-games", "0"]) == 0
    assert "20 fresh boards dealt from seed 12" in capsys.readouterr().out


# -------------------------------------------------------------- saved results --

@pytest.mark.parametrize("ext", ["csv", "parquet"])
def test_per_board_results_are_saved_with_their_summary(tmp_path, ext, capsys):
    path = tmp_path / f"scores.{ext}"
    assert main(["benchmark", "solver", "--games", "25", "--regret-games", "5", "--save", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    rows, meta = br.read_boards(path)
    assert list(rows.columns) == list(br.COLUMNS) and rows["board"].tolist() == list(range(25))
    s = bm.score("solver", games=25, regret_games=5)
    assert rows["won"].tolist() == s.games["won"].tolist() and rows["clicks"].tolist() == s.games["clicks"].tolist()
    assert rows["regret_decisions"].notna().sum() == 5 and rows["regret"].isna().sum() == 20
    assert meta["suite_sha256"] == out["suite_sha256"] == s.suite.checksum and meta["agent"] == "solver"
    assert meta["machine"]["cpu"] and meta["provenance"]["commit"] and meta["columns"]["won"]
    if ext == "csv":
        assert out["saved"] == [str(path), str(path) + ".json"]
        assert pd.read_csv(path)["won"].sum() == s.wins  # plain CSV, readable by any tool
        assert json.loads((tmp_path / "scores.csv.json").read_text())["rows_sha256"] == \
            hashlib.sha256(path.read_bytes()).hexdigest()
        path.write_text(path.read_text().replace("True", "False", 1))
        with pytest.raises(ValueError, match="does not name this file's SHA-256"):
            br.read_boards(path)
    else:
        import pyarrow.parquet as pq
        assert json.loads(pq.read_schema(path).metadata[br.METADATA_KEY.encode()])["wins"] == s.wins
    assert "exists; add --force" in _cli_error(capsys, "solver", "--games", "5", "--save", str(path))
    assert main(["benchmark", "solver", "--games", "5", "--regret-games", "0", "--save", str(path), "--force"]) == 0


def test_a_saved_result_that_is_not_one_is_refused_unread(tmp_path, capsys):
    (tmp_path / "zero.parquet").symlink_to("/dev/zero")
    assert "the saved result " + str(tmp_path / "zero.parquet") + " is a character device, not a regular file" in \
        _cli_error(capsys, "solver", "--games", "3", "--compare", str(tmp_path / "zero.parquet"))
    (tmp_path / "junk.parquet").write_bytes(b"not parquet")
    assert "cannot read the saved result" in _cli_error(capsys, "solver", "--compare", str(tmp_path / "junk.parquet"))
    (tmp_path / "alone.csv").write_text("board,won\n0,True\n")
    assert "cannot read its metadata" in _cli_error(capsys, "solver", "--compare", str(tmp_path / "alone.csv"))


def test_bad_save_destinations_are_refused_before_any_work(tmp_path, capsys):
    assert "extension gives its format" in _cli_error(capsys, "solver", "--save", str(tmp_path / "x.txt"))
    (tmp_path / "d.csv").mkdir()
    assert "is a directory" in _cli_error(capsys, "solver", "--save", str(tmp_path / "d.csv"))
    assert "got no extension" in _cli_error(capsys, "solver", "--save", str(tmp_path / "x"))
    assert "--force lets --save replace a file" in _cli_error(capsys, "solver", "--force")
    (tmp_path / "s.csv.json").write_text("{}")
    assert "s.csv.json exists; add --force" in _cli_error(capsys, "solver", "--save", str(tmp_path / "s.csv"))


# ------------------------------------------------- comparisons with the board --

@pytest.fixture(scope="module")
def leaderboard(tmp_path_factory):
    """A results folder holding small leaderboard runs: the solver (one run) and greedy on two seeds."""
    results = tmp_path_factory.mktemp("results")
    test = {"levels": ["beginner"], "games": [40], "regret_games": [2], "opening": "reference",
            "checkpoint_games": 10}
    train = {"board": "8x8x10", "games": 300, "chunk": 100, "checkpoints": [300]}
    tasks = [Task.make("benchmark", agent="solver", seed=0, test=test, label="solver"),
             *(Task.make("benchmark", agent="greedy", seed=s, test=test, train=train, label=f"greedy {s}")
               for s in (1, 2))]
    fresh = Task.make("benchmark", agent="greedy", seed=1, test={**test, "fresh": 7}, train=train,
                      label="greedy 1, fresh boards")  # stored beside the entries, not one of them
    run_tasks([*tasks, fresh], store_for(results, "paper"), progress=False, log=lambda *_: None)
    (results / "entries.json").write_text(json.dumps([t.id for t in tasks]))
    return results


@pytest.fixture(autouse=True)
def _entries(request, monkeypatch):
    """The scratch leaderboard's entries are its three runs (the repository's are those of its specs)."""
    if "leaderboard" in request.fixturenames:
        ids = json.loads((request.getfixturevalue("leaderboard") / "entries.json").read_text())
        monkeypatch.setattr(br, "leaderboard_entries", lambda: set(ids))


def test_the_leaderboards_entries_are_its_specs_runs_not_every_benchmark_run():
    from sweeper.experiments import specs as ex
    entries = br.leaderboard_entries()
    assert {t.id for t in ex.all_tasks(["ext:benchmark"], "paper")} <= entries
    assert not entries & {t.id for t in ex.all_tasks(["ext:benchmark_fresh", "ext:benchmark_search"], "paper")}


def test_a_score_is_set_beside_an_untrained_entry_board_by_board(leaderboard, capsys):
    argv = ["benchmark", "random", "--games", "40", "--regret-games", "0", "--compare", "solver", "--results",
            str(leaderboard)]
    assert main([*argv, "--json"]) == 0
    c = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["compare"]
    mine, theirs = bm.score("random", games=40, regret_games=0), bm.score("solver", games=40, regret_games=0)
    a, b = mine.games["won"].to_numpy(), theirs.games["won"].to_numpy()
    assert (c["test"], c["boards"], c["runs"]) == ("paired", 40, 1)
    assert (c["only_mine"], c["only_entry"]) == (int((a & ~b).sum()), int((~a & b).sum()))
    assert c["difference"] == pytest.approx(a.mean() - b.mean()) and c["low"] <= c["difference"] <= c["high"]
    assert 0 <= c["mcnemar_p"] <= 1 and c["verdict"] == "less than"
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "compared with solver on the same 40 boards" in text and "exact McNemar p =" in text
    assert main([*argv[:3], "60", *argv[4:]]) == 0  # more boards than the entry holds: the first 40
    assert "the entry holds only the first 40 of these boards" in capsys.readouterr().out
    rows = br.entry_boards("solver", "beginner", leaderboard)
    assert rows["won"].tolist() == b.tolist() and list(rows.columns) == ["seed", *br.COLUMNS]


def test_a_score_is_set_beside_a_learners_seeds(leaderboard, capsys):
    assert main(["benchmark", "solver", "--games", "40", "--regret-games", "0", "--compare", "greedy", "--results",
                 str(leaderboard), "--json"]) == 0
    c = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["compare"]
    assert (c["test"], c["runs"], c["seeds"], len(c["entry_seed_rates"])) == ("seeds", 2, [1, 2], 2)
    assert c["verdict"] in ("more than", "cannot be told apart") and "seeds" in c["method"]


def test_comparisons_without_boards_in_common_are_refused(leaderboard, tmp_path, capsys):
    res = ["--results", str(leaderboard)]
    assert "no stored leaderboard entry 'nobody'" in _cli_error(capsys, "solver", "--compare", "nobody", *res)
    assert "greedy, solver" in _cli_error(capsys, "solver", "--compare", "nobody", *res)
    err = _cli_error(capsys, "solver", "--fresh", "5", "--compare", "solver", *res)
    assert "--fresh deals boards of its own: no board in common" in err
    assert "not on beginner-safe" in _cli_error(capsys, "solver", "--opening", "safe", "--compare", "solver", *res)
    assert "was not scored on expert" in _cli_error(capsys, "solver", "--level", "expert", "--compare", "solver", *res)
    assert "--results is where --compare NAME reads" in _cli_error(capsys, "solver", *res)
    assert "no stored leaderboard runs in" in _cli_error(capsys, "solver", "--compare", "solver", "--results",
                                                         str(tmp_path))
    saved = tmp_path / "fresh.parquet"
    assert main(["benchmark", "solver", "--fresh", "5", "--games", "30", "--regret-games", "0", "--save",
                 str(saved)]) == 0
    capsys.readouterr()
    assert main(["benchmark", "random", "--fresh", "5", "--games", "30", "--regret-games", "0", "--compare",
                 str(saved), "--json"]) == 0  # the same fresh boards: meaningful
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["compare"]["boards"] == 30
    err = _cli_error(capsys, "random", "--fresh", "6", "--games", "30", "--compare", str(saved))
    assert "fresh boards of seed 5), this score on beginner-reference (fresh boards of seed 6): no board" in err
    assert "(the public suite): no board in common" in _cli_error(capsys, "random", "--compare", str(saved))


# ------------------------------------------------------------ the two paths --

def test_every_agent_with_a_fast_player_reports_whether_the_paths_agree_on_clicks():
    for who in ("random", "solver"):
        r = bm.score(who, games=30, regret_games=20).report()
        assert r["paths_agree"] == 20 and r["paths_agree_clicks"] is not None
    assert bm.score("random", games=30, regret_games=20).report()["paths_agree_clicks"] == 20


def test_the_solvers_two_paths_play_the_same_games_click_for_click():
    """Issue 65: the environment's solver (``solver_policy``) clicked a turn's safe tiles one analysis at a time by
    the tie-break, the kernel all of one analysis in row-major order: 13 of these 50 boards agreed on clicks."""
    r = bm.score("solver", games=50, regret_games=50).report()
    assert r["paths_agree_clicks"] == 50


# ----------------------------------------------------------- the opening table --

@pytest.mark.parametrize("row, message", [
    (lambda: engine.Opening("wide", -5, "h"), "guard is a whole number of tiles, -1 .* got -5"),
    (lambda: engine.Opening("wide", 1.5, "h"), "guard is a whole number of tiles, -1 .* got 1.5"),
    (lambda: engine.Opening("wide", True, "h"), "got True"),
    (lambda: engine.Opening("Wide Open", 1, "h"), "a word in lower case"),
    (lambda: engine.Opening("wide", 2, ""), "help is one line of text"),
])
def test_a_bad_opening_row_is_refused_where_it_is_written(row, message):
    """Before: a guard of -5 was accepted silently, one of 1.5 ended in a TypeError inside the dealer."""
    with pytest.raises(ValueError, match=message):
        row()


def test_a_duplicate_opening_row_is_refused_at_import_and_where_the_table_is_read(monkeypatch):
    """Before: a second ``safe`` row was accepted silently (the later one won)."""
    twice = engine.OPENING_TABLE + (engine.Opening("safe", 1, "another safe"),)
    with pytest.raises(ValueError, match="names the opening 'safe' 2 times"):
        engine.opening_rows(twice)
    monkeypatch.setattr(engine, "OPENING_TABLE", twice)
    with pytest.raises(ValueError, match="names the opening 'safe' 2 times"):
        engine.check_opening("safe", engine.Setting.parse("8x8x10"))
    code = textwrap.dedent("""
        import sys, types, sweeper.game.engine as e
        src = open(e.__file__).read().replace('Opening("safe", 0,', 'Opening("zero", 0,', 1)  # a contributor's slip
        copy = sys.modules["sweeper.game.engine_copy"] = types.ModuleType("sweeper.game.engine_copy")
        copy.__package__ = "sweeper.game"
        exec(compile(src, e.__file__, "exec"), copy.__dict__)
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "OPENING_TABLE names the opening 'zero' 2 times" in r.stderr


# ------------------------------------------------------ issue 65: the audit's gaps --

def test_a_suite_cut_short_with_consistent_checksums_is_refused(tmp_path, monkeypatch, capsys):
    """Before: a 5-board suite whose manifest said ``games: 5`` (every checksum consistent, the engine's first five
    boards) was played, 5 boards and exit status 0, where the help says "default all 10,000"."""
    bm.write_suites(tmp_path, games=5)
    monkeypatch.setattr(suites, "SUITE_DIR", tmp_path)
    with pytest.raises(ValueError, match="the entry of beginner-reference gives 5 games, not the suites' 10,000: a "
                                         "suite cut short"):
        bm.load_suite("beginner")
    assert "gives 5 games, not the suites' 10,000" in _cli_error(capsys, "solver")


def test_a_manifest_that_is_a_directory_is_named(tmp_path, capsys, monkeypatch):
    """Before: a manifest.json that is a directory gave "error: Is a directory (3)", naming no path."""
    (tmp_path / "manifest.json").mkdir()
    monkeypatch.setattr(suites, "SUITE_DIR", tmp_path)
    said = f"the benchmark's manifest {tmp_path / 'manifest.json'} is a directory, not a regular file"
    with pytest.raises(ValueError, match=re.escape(said)):
        bm.load_suite("beginner")
    assert said in _cli_error(capsys, "solver")
    with pytest.raises(ValueError, match=re.escape(f"the saved result {tmp_path} is a directory")):
        suites.read_regular(tmp_path, 10, "the saved result")


def test_the_refusal_of_a_public_seed_names_exactly_the_public_seeds(capsys):
    """Before: "not 1000 to 1022", although 1003 to 1009 deal fresh boards; the message lists the seeds refused."""
    seeds = sorted(bm.SUITE_SEEDS.values())
    with pytest.raises(ValueError, match="not one of the public suites' seeds, " + ", ".join(map(str, seeds)) + r"\)"):
        bm.fresh_suite("beginner", "reference", seeds[-1])
    gap = next(v for v in range(seeds[0], seeds[-1]) if v not in seeds)
    assert bm.fresh_suite("beginner", "reference", gap, 2).fresh
    assert f"--fresh {seeds[1]} is the seed of the public suite" in _cli_error(capsys, "solver", "--fresh",
                                                                              str(seeds[1]))


def _saved(tmp_path, ext, games=20):
    path = tmp_path / f"s.{ext}"
    s = bm.score("solver", games=games, regret_games=2)
    br.save_boards(s.boards(), path, s.report())
    return path, s


def test_a_parquet_result_edited_after_the_save_is_refused(tmp_path, capsys):
    """Before: one ``won`` flipped in a saved Parquet file went unnoticed, and ``--compare FILE`` used it. Its
    metadata now names the SHA-256 of its rows (as a CSV's sidecar does), and the rows must agree with the summary."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    path, s = _saved(tmp_path, "parquet")
    rows, meta = br.read_boards(path)
    assert meta["rows_sha256"] == br.rows_sha256(s.boards()) and rows["won"].sum() == s.wins
    table = pq.read_table(path)
    flipped = rows.copy()
    flipped.loc[0, "won"] = not flipped.loc[0, "won"]
    edited = pa.Table.from_pandas(flipped, preserve_index=False).replace_schema_metadata(table.schema.metadata)
    pq.write_table(edited, path)
    with pytest.raises(ValueError, match="does not name the SHA-256 of its rows: they were changed after the save"):
        br.read_boards(path)
    assert "they were changed after the save" in _cli_error(capsys, "random", "--games", "20", "--compare", str(path))
    forged = json.loads(table.schema.metadata[br.METADATA_KEY.encode()])  # a forger who recomputes the digest
    forged["rows_sha256"] = br.rows_sha256(flipped)
    pq.write_table(edited.replace_schema_metadata({**table.schema.metadata,
                                                   br.METADATA_KEY.encode(): json.dumps(forged).encode()}), path)
    with pytest.raises(ValueError, match=f"its rows do not agree with its summary \\({int(flipped['won'].sum())} "
                                         f"boards won in its rows, {s.wins} wins in its summary\\)"):
        br.read_boards(path)


def test_a_csv_result_whose_rows_and_sidecar_were_both_rewritten_must_agree_with_its_summary(tmp_path):
    path, s = _saved(tmp_path, "csv")
    text = path.read_text()
    path.write_text(text.replace("True", "False", 1) if "True" in text else text.replace("False", "True", 1))
    meta = json.loads(br.sidecar(path).read_text())
    meta["rows_sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    br.sidecar(path).write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="its rows do not agree with its summary"):
        br.read_boards(path)


def test_the_policy_contract_says_what_a_reset_count_does_in_the_regret_games():
    """A stateful policy's reset() count carries into the regret games, which replay boards 0, 1, ...: said where
    the contract is (player_of's docstring, the command's help)."""
    resets = []

    class Counting:
        def reset(self):
            resets.append(1)

        def __call__(self, view):
            return tuple(int(v) for v in np.argwhere(view == 9)[0])

    bm.score(Counting(), games=6, regret_games=3)
    assert len(resets) == 6 + 3
    assert "the regret games included" in bm.player_of.__doc__
    bench = next(a for a in build_parser()._subparsers._group_actions[0].choices["benchmark"]._actions
                 if a.dest == "agent")
    assert "the regret games included" in bench.help
