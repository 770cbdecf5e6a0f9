"""The action model: windows, the paper's fig:conf_example tuples, symmetries, keys."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sweeper.agents.windows import BORDER, CLASS, actions_of, decode_key, key_of, raw_window, to_paper_tuple, window_key
from sweeper.game.grid import COVERED, FLAG, OUT, padded_offsets

C = COVERED
# The board of the paper's fig:conf_example (its frame coordinates minus one).
CONF_VIEW = np.array([
    [0, 0, 1, C, C],
    [1, 2, 3, C, C],
    [2, C, C, C, C],
    [C, C, C, C, C],
    [C, C, C, C, C],
])
# The caption's eight 10-tuples for the target tile (3, 2) in the paper's coordinates.
CONF_TUPLES = {
    (0, 0, 1, 1, 2, 3, 2, "C", "C", "S"),
    (-1, 0, 0, -1, 1, 2, -1, 2, "C", "SE"),
    (-1, 1, 2, -1, 2, "C", -1, "C", "C", "E"),
    (-1, 2, "C", -1, "C", "C", -1, "C", "C", "NE"),
    (2, "C", "C", "C", "C", "C", "C", "C", "C", "N"),
    ("C", "C", "C", "C", "C", "C", "C", "C", "C", "NW"),
    (2, 3, "C", "C", "C", "C", "C", "C", "C", "W"),
    (0, 1, "C", 2, 3, "C", "C", "C", "C", "SW"),
}


def windows_of(view, tile):
    """(centre, paper tuple) of every action targeting ``tile``, in scan order."""
    return [(a["centre"], a["paper"]) for a in actions_of(view, tile)]


def test_conf_example_tuples():
    got = windows_of(CONF_VIEW, (2, 1))
    assert len(got) == 8
    assert {t for _, t in got} == CONF_TUPLES


def test_conf_example_keys_are_distinct_and_decode_to_their_windows():
    keys = {}
    for centre, tup in windows_of(CONF_VIEW, (2, 1)):
        key = key_of(CONF_VIEW, centre, (2, 1))
        keys[tup] = key
        window, target = decode_key(key)
        raw = raw_window(CONF_VIEW, centre)
        assert sorted(window.ravel()) == sorted(raw.ravel())  # same cells, canonical orientation
        assert target in (0, 1) and window.flat[target] == COVERED
        assert window[1, 1] == raw[1, 1]
    assert len(set(keys.values())) == 8


def test_decode_without_symmetries_is_the_raw_window():
    for centre, tup in windows_of(CONF_VIEW, (2, 1)):
        key = key_of(CONF_VIEW, centre, (2, 1), symmetric=False)
        window, target = decode_key(key, symmetric=False)
        assert to_paper_tuple(window, target) == tup


def test_mirror_images_share_a_key_but_rotations_of_different_class_do_not():
    # a 1-tile with a single covered neighbour, seen from the west and mirrored
    a = np.array([[0, 0, 0], [0, 1, 0], [0, 0, C]])
    b = a.T.copy()
    assert key_of(a, (1, 1), (2, 2)) == key_of(b, (1, 1), (2, 2))
    assert key_of(a, (1, 1), (2, 2), symmetric=False) == key_of(b, (1, 1), (2, 2), symmetric=False)  # on diagonal
    c = np.array([[0, 0, 0], [0, 1, C], [0, 0, 0]])  # the same idea with an edge target
    assert key_of(c, (1, 1), (1, 2)) % 2 == 1 and key_of(a, (1, 1), (2, 2)) % 2 == 0
    assert list(CLASS) == [0, 1, 0, 1, 1, 0, 1, 0]


def test_key_of_rejects_bad_actions():
    with pytest.raises(ValueError, match="covered"):
        key_of(CONF_VIEW, (1, 1), (0, 0))
    with pytest.raises(ValueError, match="border"):
        key_of(CONF_VIEW, (1, 1), (3, 3))
    with pytest.raises(ValueError, match="off the"):
        key_of(CONF_VIEW, (5, 1), (4, 1))
    with pytest.raises(ValueError):
        decode_key(-3)


def transforms(a):
    """The 8 symmetries of the rectangle/square applied to a 2-D array."""
    for k in range(4):
        r = np.rot90(a, k)
        yield r
        yield r.T


@settings(max_examples=150, deadline=None)
@given(rows=st.integers(1, 6), cols=st.integers(1, 6), data=st.data())
def test_symmetries_of_the_board_preserve_keys(rows, cols, data):
    cells = data.draw(st.lists(st.sampled_from([0, 1, 2, 3, 5, 8, C, C, C, FLAG]),
                               min_size=rows * cols, max_size=rows * cols))
    view = np.array(cells).reshape(rows, cols)
    idx = np.arange(rows * cols).reshape(rows, cols)
    for tview, tidx in zip(transforms(view), transforms(idx)):
        where = {int(v): (int(r), int(c)) for (r, c), v in np.ndenumerate(tidx)}
        for (tr, tc), v in np.ndenumerate(view):
            if v != C:
                continue
            for cr in range(tr - 1, tr + 2):
                for cc in range(tc - 1, tc + 2):
                    if (cr, cc) == (tr, tc) or not (0 <= cr < rows and 0 <= cc < cols):
                        continue
                    k = key_of(view, (cr, cc), (tr, tc))
                    k2 = key_of(tview, where[idx[cr, cc]], where[idx[tr, tc]])
                    assert k == k2


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(list(range(9)) + [C, FLAG, OUT]), min_size=9, max_size=9),
       st.sampled_from(list(BORDER)))
def test_the_symmetric_key_is_exactly_the_orbit(cells, target):
    """Two windows share a key iff one maps onto the other by a symmetry that keeps the target's class place."""
    w = np.array(cells).reshape(3, 3)
    w[1, 1] = w[1, 1] if w[1, 1] != OUT else 0
    w.flat[target] = C
    key = _key3(w, target)
    window, t = decode_key(key)
    assert _key3(window, t) == key
    images = set()
    idx = np.arange(9).reshape(3, 3)
    for tw, ti in zip(transforms(w), transforms(idx)):
        tt = int(np.flatnonzero(ti.ravel() == target)[0])
        images.add(_key3(tw, tt))
    assert images == {key}


def _key3(w, target):
    """Key of a bare 3x3 window (OUT cells allowed): the kernel on a padded 3x3 view."""
    pad = np.full(25, OUT, dtype=np.int8)
    pad.reshape(5, 5)[1:4, 1:4] = w
    _, off9 = padded_offsets(3)
    bp = int(np.flatnonzero(BORDER == target)[0])
    return int(window_key(pad, 12, off9, bp, True))
