"""The value table: the paper's update rule, counters, growth without loss."""

import numpy as np

from sweeper.agents.values import PERFECT, RECORDED, USED, Table, ValueTable, ensure_room, find, find_or_insert, update


def test_update_rule_on_hand_made_sequences():
    t = ValueTable()
    s = find_or_insert(t.keys, t.q, t.n, t.meta, 42)
    assert t[42] == (-1.0, 0)  # unseen: surely safe
    update(t.q, t.n, t.meta, s, 1.0)  # a mine: N=1, Q = -1 + (1 - -1)/1 = 1
    assert t[42] == (1.0, 1)
    update(t.q, t.n, t.meta, s, -1.0)  # Q = 1 + (-1 - 1)/2 = 0
    assert t[42] == (0.0, 2)
    update(t.q, t.n, t.meta, s, -1.0)  # Q = 0 + (-1 - 0)/3
    q, n = t[42]
    assert n == 3 and np.isclose(q, -1 / 3)
    assert t.actions_recorded == 1 and t.perfect_actions == 0


def test_perfect_and_recorded_counters_follow_the_values():
    t = ValueTable()
    a = find_or_insert(t.keys, t.q, t.n, t.meta, 1)
    b = find_or_insert(t.keys, t.q, t.n, t.meta, 2)
    assert t.meta[USED] == 2 and t.meta[RECORDED] == 0  # reserved, not recorded
    for _ in range(5):
        update(t.q, t.n, t.meta, a, -1.0)
    assert t[1] == (-1.0, 5) and t.meta[PERFECT] == 1
    update(t.q, t.n, t.meta, b, 1.0)
    assert t.meta[PERFECT] == 2 and t.meta[RECORDED] == 2
    update(t.q, t.n, t.meta, b, -1.0)
    assert t.meta[PERFECT] == 1
    keys, q, n = t.recorded()
    assert list(keys) == [1, 2] and list(n) == [5, 2]


def test_table_grows_without_losing_keys():
    t = ValueTable(16)
    rng = np.random.default_rng(1)
    keys = rng.choice(10**12, size=5000, replace=False)
    for i, k in enumerate(keys):
        t.adopt(Table(*ensure_room(t.keys, t.q, t.n, t.meta, 1), t.meta))
        s = find_or_insert(t.keys, t.q, t.n, t.meta, k)
        for _ in range(i % 3 + 1):
            update(t.q, t.n, t.meta, s, 1.0 if i % 2 else -1.0)
    assert t.capacity >= 2 * 5000
    for i, k in enumerate(keys):
        assert t[k] == (1.0 if i % 2 else -1.0, i % 3 + 1)
    assert find(t.keys, 10**13) == -1
    rebuilt = ValueTable.from_recorded(*t.recorded())
    assert all(rebuilt[k] == t[k] for k in keys[:200])
    assert rebuilt.perfect_actions == t.perfect_actions == 5000


def test_slots_share_one_record_per_key():
    """keys, Q and N are strided views of one buffer: a slot's three fields sit side by side."""
    t = ValueTable(16)
    assert t.keys.strides == t.q.strides == t.n.strides == (24,)
    assert t.keys.base is not None and t.nbytes() == 16 * 24 + t.meta.nbytes
    s = find_or_insert(t.keys, t.q, t.n, t.meta, 7)
    update(t.q, t.n, t.meta, s, 1.0)
    c = t.copy()
    assert c.keys.strides == (24,) and c[7] == t[7] == (1.0, 1)
    update(c.q, c.n, c.meta, s, -1.0)
    assert t[7] == (1.0, 1) and c[7] == (0.0, 2)  # the copy owns its buffer


def test_growing_between_kernel_calls_changes_no_game():
    """play_games stops before a decision when the table needs room and the game goes on after it
    grows: a table that starts at 16 slots (grown mid-game many times) and one that never grows play the
    same games and learn the same values (where a key sits in the table decides nothing)."""
    from sweeper.agents.kinds import make_agent
    from sweeper.running.training import train

    runs = []
    for capacity in (16, 1 << 20):
        for kind in ("greedy", "thompson"):
            agent = make_agent(kind)
            agent.table = ValueTable(capacity)
            run = train(agent, "8x8x10", 300, seed=3, progress=False)
            runs.append((kind, capacity, agent.table, run.records.drop(columns="setting").to_numpy()))
    for (kind, cap, small, rec_small), (_, _, big, rec_big) in zip(runs[:2], runs[2:]):
        assert small.capacity < big.capacity == 1 << 20
        assert np.array_equal(rec_small, rec_big), kind
        for a, b in zip(small.recorded(), big.recorded()):
            assert np.array_equal(a, b), kind
        assert small.decisions == big.decisions
