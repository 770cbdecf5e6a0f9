"""The best window agent and the regret's split (sweeper/agents/best_window.py, sweeper/agents/oracle.py,
sweeper/running/regret.py): the probe's best window agent is the one a slow readable version computes from each
decision's view, the split adds up, the estimate is deterministic and does not depend on how its table grows,
and bad tables and arguments are refused."""

import numpy as np
import pytest

from sweeper import Episode, make_agent, train
from sweeper.agents import best_window as bw
from sweeper.agents import oracle
from sweeper.agents.windows import key_of
from sweeper.experiments.comparator import combine
from sweeper.game.grid import COVERED
from sweeper.game.probability import mine_probabilities
from sweeper.running.belief import Recorder
from sweeper.running.regret import DECOMPOSED, estimate_best_window, regret
from sweeper.running.training import KernelCalls, play


@pytest.fixture(scope="module")
def table():
    return estimate_best_window("8x8x10", 400, seed=7)


def slow_window_right(view, mines, table: bw.BestWindow) -> float:
    """The best window agent's P(right) on a 2-D view, read off the definition: every (window centre, covered
    unflagged target) pair, its key's value (1/2 when unknown), the most certain value wins, ties averaged."""
    p = mine_probabilities(view, mines)
    rows, cols = view.shape
    cands = []
    for r in range(rows):
        for c in range(cols):
            if view[r, c] != COVERED:
                continue
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    cr, cc = r + dr, c + dc
                    if (dr, dc) == (0, 0) or not (0 <= cr < rows and 0 <= cc < cols):
                        continue
                    v = table[key_of(view, (cr, cc), (r, c), table.symmetric)]
                    right = p[r, c] if v > 0.5 else 1.0 - p[r, c]
                    cands.append((max(v, 1.0 - v), right))
    top = max(cert for cert, _ in cands)
    return float(np.mean([right for cert, right in cands if cert == top]))


def test_the_probe_plays_the_best_window_agent_of_the_definition(table):
    agent = train("greedy", "8x8x10", 300, seed=3, progress=False).agent
    checked = 0
    for seed in range(6):
        rec = Recorder(rows=True, window=(table.table(), True), mode=oracle.WINDOW_SCORE)
        play(agent.copy(), "8x8x10", 1, seed=seed, learn=False, progress=False, calls=KernelCalls(recorder=rec))
        _, df = rec.decision_arrays()
        ep = Episode(agent, "8x8x10", seed=seed, learn=False).play()
        assert len(ep.history) == len(df)
        for d, row in zip(ep.history, df):
            assert row[oracle.F_WINDOW] == pytest.approx(slow_window_right(d.view, 10, table), abs=1e-12)
            checked += 1
    assert checked >= 30


def test_the_split_adds_up_and_leaves_the_games_alone(table):
    with_split = regret("greedy", "8x8x10", 300, seed=2, window=table)
    plain = regret("greedy", "8x8x10", 300, seed=2, window=None)
    g = with_split.games
    # the games, the agent left behind and the regret are those of a run without the split
    assert plain.games["regret"].equals(g["regret"]) and plain.run.records.equals(with_split.run.records)
    assert np.allclose(g["gap"] + g["learning"], g["regret"], rtol=0, atol=1e-9)
    assert np.allclose(g["gap_sure"] + g["gap_guess"], g["gap"], rtol=0, atol=1e-9)
    assert np.allclose(g["learning_sure"] + g["learning_guess"], g["learning"], rtol=0, atol=1e-9)
    assert (g["gap"] >= 0).all() and g["gap"].sum() > 0
    assert plain.games[list(DECOMPOSED)].isna().all().all()
    # per decision, too: best - window and window - right add up to the decision's regret
    rec = Recorder(rows=True, window=(table.table(), True), mode=oracle.WINDOW_SCORE)
    play(make_agent("greedy"), "8x8x10", 50, seed=2, progress=False, calls=KernelCalls(recorder=rec))
    di, df = rec.decision_arrays()
    right = np.where(di[:, oracle.D_FLAG] != 0, df[:, oracle.F_EXACT], 1 - df[:, oracle.F_EXACT])
    gap, learning = df[:, oracle.F_BEST] - df[:, oracle.F_WINDOW], df[:, oracle.F_WINDOW] - right
    assert np.allclose(gap + learning, df[:, oracle.F_BEST] - right, rtol=0, atol=1e-12)
    assert (gap >= -1e-12).all()


def test_the_estimate_is_deterministic_and_the_mean_exact_probability(table):
    again = estimate_best_window("8x8x10", 400, seed=7)
    assert np.array_equal(again.keys, table.keys) and np.array_equal(again.value, table.value)
    assert np.array_equal(again.count, table.count)
    assert table.info["candidates"] == int(table.count.sum()) and table.info["decisions"] > 0
    assert ((table.value >= 0) & (table.value <= 1)).all() and len(table) > 1000
    # some keys prove their target safe (a number whose mines are all shown): their value is exactly 0
    assert (table.value == 0).sum() > 0


def test_parts_add_up():
    a = estimate_best_window("8x8x10", 60, seed=11)
    b = estimate_best_window("8x8x10", 60, seed=12)
    both = combine([a, b])
    assert both.count.sum() == a.count.sum() + b.count.sum()
    k = np.intersect1d(a.keys, b.keys)[0]
    ia, ib, i = (np.searchsorted(x.keys, k) for x in (a, b, both))
    want = (a.value[ia] * a.count[ia] + b.value[ib] * b.count[ib]) / (a.count[ia] + b.count[ib])
    assert both.value[i] == pytest.approx(want, abs=1e-12)


def test_a_table_round_trips_and_bad_files_are_refused(tmp_path, table):
    path = table.save(tmp_path / "t.npz")
    back = bw.BestWindow.load(path)
    assert np.array_equal(back.keys, table.keys) and np.array_equal(back.value, table.value)
    assert back.board == "8x8x10" and back.info == table.info
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="is not a best-window table"):
        bw.BestWindow.load(tmp_path / "junk.npz")
    np.savez(tmp_path / "other.npz", keys=np.arange(3))
    with pytest.raises(ValueError, match="is not a best-window table"):
        bw.BestWindow.load(tmp_path / "other.npz")
    with pytest.raises(ValueError, match="no best-window table"):
        bw.BestWindow.load(tmp_path / "missing.npz")
    with pytest.raises(ValueError, match="probabilities"):
        bw.BestWindow("8x8x10", [1, 2], [0.5, 1.5], [1, 1])
    with pytest.raises(ValueError, match="sorted"):
        bw.BestWindow("8x8x10", [2, 1], [0.5, 0.5], [1, 1])


def test_regret_refuses_a_table_of_another_board(table):
    with pytest.raises(ValueError, match="is for 8x8x10, the games are on 16x16x40"):
        regret("greedy", "16x16x40", 1, seed=1, window=table)
    with pytest.raises(ValueError, match="window must be"):
        regret("greedy", "8x8x10", 1, seed=1, window="best")
    with pytest.raises(ValueError, match="window must be"):
        regret("greedy", "8x8x10", 1, seed=1, window=3)


def test_the_growth_of_the_estimate_changes_nothing():
    """The estimate's table starts small and grows between kernel calls: one game per call, or all at once,
    gives the same table."""
    from sweeper.agents.values import ValueTable
    from sweeper.running.training import KernelCalls, play as play_

    def estimate(chunk):
        rec = Recorder(rows=False, window=(ValueTable(16), True), mode=oracle.WINDOW_ESTIMATE)
        play_(make_agent("greedy"), "8x8x10", 40, seed=5, progress=False, calls=KernelCalls(chunk, rec))
        k, s, n = rec.window_sums()
        o = np.argsort(k)
        return k[o], s[o], n[o]

    a, b = estimate(1), estimate(40)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
