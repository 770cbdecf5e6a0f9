"""Hand-made checks of the slow reference implementation (tests/slow_reference.py)."""
import math

import numpy as np
import pytest

from slow_reference import (COVERED, FLAG, OUT, Agent, Board, open_board, play_game,
                            play_reference, window_key)

# 1x4 board: safe, safe, mine, safe. The opening clicks (0,0) (a 0) and reveals (0,1) (a 1).
LINE = np.array([[False, False, True, False]])


def row(a, b, c):
    """A 3x3 window of a one-row board: out-of-board rows above and below."""
    return ((OUT,) * 3, (a, b, c), (OUT,) * 3)


A = (row(0, 1, COVERED), (1, 2))        # centre (0,1), target (0,2) on its right
B = (row(COVERED, COVERED, OUT), (1, 0))  # centre (0,3), target (0,2) on its left
C = (row(1, COVERED, COVERED), (1, 2))  # centre (0,2), target (0,3)
D = (row(1, FLAG, COVERED), (1, 2))     # as C with (0,2) flagged


def test_flood_fill_stops_at_numbers():
    mines = np.zeros((5, 5), dtype=bool)
    mines[:, 2] = True
    board = Board(mines)
    board.click(0, 0)
    expected = np.zeros((5, 5), dtype=bool)
    expected[:, :2] = True
    assert (board.revealed == expected).all() and not board.lost


def test_opening_scans_columns_first():
    mines = np.zeros((3, 4), dtype=bool)
    mines[0, 1] = True  # (0,0) and (1,0) are 1s, (2,0) is the first 0 in column order
    board = Board(mines)
    open_board(board)
    assert board.revealed[2, 0] and not board.revealed[0, 0] and not board.revealed[0, 1]
    assert board.revealed[2, 3] and board.revealed[0, 3]  # flood fill went round


def test_opening_without_zero_leaves_board_covered():
    board = Board(np.array([[True, False], [False, False]]))
    open_board(board)
    assert not board.revealed.any()


def test_update_rule_numbers():
    agent = Agent()
    assert agent.value("k") == (-1.0, 0)
    agent.learn("k", 1.0)
    assert agent.value("k") == (1.0, 1)
    agent.learn("k", -1.0)
    assert agent.value("k") == (0.0, 2)
    agent.learn("k", 1.0)
    assert agent.value("k") == (pytest.approx(1 / 3), 3)


def test_ucb_score():
    agent = Agent("ucb", c=0.1)
    agent.t = 4
    agent.table["k"], agent.table["z"] = (-0.5, 2), (0.0, 3)
    assert agent.ucb_score("k", -1e10) == -0.5 - 0.1 * math.sqrt(math.log(4) / 2)
    assert agent.ucb_score("z", -1e10) == 0.0
    assert agent.ucb_score("new", -1e10) == -1e10


def dihedral(view, centre):
    """The 8 symmetries of a square view about ``centre`` (the view's middle), as index maps."""
    n = view.shape[0]
    maps = []
    for k in range(4):
        for mirror in (False, True):
            def f(p, k=k, mirror=mirror):
                r, c = p
                if mirror:
                    r, c = c, r
                for _ in range(k):
                    r, c = n - 1 - c, r  # np.rot90 moves (r, c) to (n-1-c, r)
                return (r, c)
            image = np.empty_like(view)
            for r in range(n):
                for c in range(n):
                    image[f((r, c))] = view[r, c]
            maps.append((image, f))
    return maps


@pytest.mark.parametrize("target", [(1, 1), (1, 2), (2, 3), (3, 3)])
def test_symmetric_windows_share_a_key(target):
    rng = np.random.default_rng(0)
    view = rng.integers(0, 12, size=(5, 5))
    centre = (2, 2)
    key = window_key(view, target, centre)
    raw_keys = set()
    for image, f in dihedral(view, centre):
        assert window_key(image, f(target), centre) == key
        raw_keys.add(window_key(image, f(target), centre, symmetric=False))
    assert len(raw_keys) == 8  # a random window has no symmetry of its own
    changed = view.copy()
    changed[3, 2] = (changed[3, 2] + 1) % 12
    assert window_key(changed, target, centre) != key


def test_corner_and_edge_classes_differ():
    view = np.full((3, 3), COVERED)
    assert window_key(view, (0, 0), (1, 1)) != window_key(view, (0, 1), (1, 1))
    assert window_key(view, (0, 0), (1, 1)) == window_key(view, (2, 2), (1, 1))


def test_one_tile_with_single_covered_neighbour_becomes_a_flag():
    games, table = play_reference([LINE, LINE], symmetric=False)
    assert games[0] == {"moves": [("click", 0, 2)], "won": False, "decisions": 1}
    assert games[1] == {"moves": [("flag", 0, 2), ("click", 0, 3)], "won": True, "decisions": 2}
    assert table == {A: (1.0, 3), B: (1.0, 1), C: (-1.0, 1), D: (-1.0, 2)}


def test_invisible_flags_show_covered():
    games, table = play_reference([LINE, LINE], symmetric=False, flags=False)
    assert games[1]["moves"] == [("flag", 0, 2), ("click", 0, 3)]
    assert table == {A: (1.0, 3), B: (1.0, 1), C: (-1.0, 3)}


def test_flag_limit_removes_lowest_q_last_in_order():
    agent = Agent(symmetric=False)
    agent.table[C], agent.table[A] = (1.0, 5), (1.0, 1)
    game = play_game(agent, LINE)
    assert game == {"moves": [("flag", 0, 3), ("flag", 0, 2), ("unflag_click", 0, 3)],
                    "won": True, "decisions": 2}
    b_flag = (row(COVERED, FLAG, OUT), (1, 0))  # centre (0,3) flagged, target (0,2)
    assert agent.table == {A: (1.0, 3), b_flag: (1.0, 1), C: (pytest.approx(2 / 3), 6), D: (-1.0, 1)}


def test_ucb_takes_last_unseen():
    games, table = play_reference([LINE], policy="ucb", symmetric=False)
    assert games[0] == {"moves": [("click", 0, 3)], "won": True, "decisions": 1}  # all unseen: last wins
    assert table[C] == (-1.0, 2) and table[A] == (1.0, 1) and table[B] == (1.0, 1)


def test_state_action_agent():
    games, table = play_reference([LINE, LINE], policy="sa")
    assert games[0]["moves"] == [("click", 0, 2)]
    assert games[1]["moves"] == [("flag", 0, 2), ("click", 0, 3)] and games[1]["won"]
    view1 = ((0, 1, COVERED, COVERED),)
    assert table[(view1, 2)] == (1.0, 3) and table[(view1, 3)] == (-1.0, 1)


def test_game_won_by_opening_still_learns():
    layout = np.array([[False, False, False, True]])  # opening reveals 0,0,1: won
    games, table = play_reference([layout], symmetric=False)
    assert games[0] == {"moves": [], "won": True, "decisions": 0}
    assert table == {(row(0, 1, COVERED), (1, 2)): (1.0, 1)}


def test_random_games_run_and_are_consistent():
    rng = np.random.default_rng(1)
    layouts = []
    for _ in range(30):
        flat = np.zeros(64, dtype=bool)
        flat[rng.choice(64, 10, replace=False)] = True
        layouts.append(flat.reshape(8, 8))
    for policy in ("greedy", "ucb", "sa"):
        games, table = play_reference(layouts, policy=policy)
        assert all(g["decisions"] >= sum(k != "unflag_click" for k, _, _ in g["moves"]) for g in games)
        assert all(n > 0 and -1 <= q <= 1 for q, n in table.values())
