"""Saving and loading agents as plain data; corrupt files are rejected with a clear error."""

import json
import zipfile

import numpy as np
import pytest

from sweeper import evaluate, load_agent, make_agent, train


@pytest.mark.parametrize("spec, board, kw", [
    ("greedy", "8x8x10", {}), ("ucb:0.3", "8x8x10", {}), ("egreedy:0.05", "6x6x6", dict(symmetric=False)),
    ("greedy", "6x6x6", dict(flags=False)), ("sa", "4x4x3", {}), ("thompson:0.5,2", "8x8x10", {}),
])
def test_save_load_round_trip(tmp_path, spec, board, kw):
    agent = make_agent(spec, **kw)
    train(agent, board, 500, seed=1, progress=False)
    path = agent.save(tmp_path / "agent.npz")
    back = load_agent(path)
    assert type(back) is type(agent) and back.name == agent.name and back.params() == agent.params()
    for x, y in zip(agent.table.recorded(), back.table.recorded()):
        assert np.array_equal(x, y)
    assert back.table.decisions == agent.table.decisions
    assert back.perfect_actions == agent.perfect_actions
    # the loaded agent plays exactly as the original
    a = evaluate(agent, board, 200, seed=3, progress=False)
    b = evaluate(back, board, 200, seed=3, progress=False)
    assert a.records.equals(b.records)


def _saved(tmp_path):
    agent = make_agent("greedy")
    train(agent, "8x8x10", 300, seed=1, progress=False)
    path = agent.save(tmp_path / "a.npz")
    with np.load(path) as z:
        return path, {k: z[k] for k in z.files}


def _rewrite(path, arrays):
    with open(path, "wb") as fh:
        np.savez(fh, **arrays)


@pytest.mark.parametrize("corrupt, message", [
    (lambda a: a.pop("q"), "missing 'q'"),
    (lambda a: a.update(metadata=np.array("{not json")), "not valid JSON"),
    (lambda a: a.update(metadata=np.array(json.dumps({"format": "other"}))), "not a bandit-sweeper"),
    (lambda a: a.update(n=a["n"].astype(np.float32)), "must be 1-D int64"),
    (lambda a: a.update(n=a["n"][:-1]), "one length"),
    (lambda a: a["n"].__setitem__(0, 0), "N >= 1"),
    (lambda a: a["q"].__setitem__(0, 1.5), "-1 <= Q <= 1"),
    (lambda a: a["q"].__setitem__(np.argmax(a["n"]), 0.123456789), "means of"),
    (lambda a: a["keys"].__setitem__(1, a["keys"][0]), "distinct"),
])
def test_corrupt_files_are_rejected(tmp_path, corrupt, message):
    path, arrays = _saved(tmp_path)
    corrupt(arrays)
    _rewrite(path, arrays)
    with pytest.raises(ValueError, match=message):
        load_agent(path)


def test_truncated_and_foreign_files_are_rejected(tmp_path):
    path, _ = _saved(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="not a readable agent file"):
        load_agent(path)
    other = tmp_path / "x.npz"
    with zipfile.ZipFile(other, "w") as z:
        z.writestr("hello.txt", "hi")
    with pytest.raises(ValueError):
        load_agent(other)
    with pytest.raises(ValueError, match="no agent file"):
        load_agent(tmp_path / "missing.npz")


def test_pickled_object_arrays_are_refused(tmp_path):
    path, arrays = _saved(tmp_path)
    arrays["keys"] = np.array([object()], dtype=object)
    with open(path, "wb") as fh:
        np.savez(fh, **arrays)  # would need allow_pickle to read
    with pytest.raises(ValueError):
        load_agent(path)
