"""The searching solver (sweeper.running.search, sweeper.running.endgame): its rule against slow readable
references, its safety, its determinism, its interrupts and its arguments."""

import itertools
import math
import os
import signal
import threading
import time

import numpy as np
import pytest

from sweeper.game.grid import COVERED
from sweeper.game.probability import count_layouts, mine_probabilities, prepared_view
from sweeper.running.endgame import endgame_tile, layouts_of
from sweeper.running.env import MinesweeperEnv
from sweeper.running.players import play_solver
from sweeper.running.policies import run_episodes
from sweeper.running.search import forced_tile, guess_values, play_search, search_policy


def _neighbours(i, R, C):
    r, c = divmod(i, C)
    return [a * C + b for a in range(r - 1, r + 2) for b in range(c - 1, c + 2)
            if 0 <= a < R and 0 <= b < C and (a, b) != (r, c)]


def _random_view(rng, R, C, K, share):
    mines = np.zeros(R * C, bool)
    mines[rng.choice(R * C, K, replace=False)] = True
    view = np.full(R * C, COVERED, np.int8)
    for i in np.flatnonzero(~mines):
        if rng.random() < share:
            view[i] = mines[_neighbours(i, R, C)].sum()
    return view.reshape(R, C)


def _all_layouts(view, K):
    R, C = view.shape
    flat = view.ravel()
    cov = [i for i in range(R * C) if flat[i] == COVERED]
    out = []
    for comb in itertools.combinations(cov, K):
        m = np.zeros(R * C, bool)
        m[list(comb)] = True
        if all(m[_neighbours(i, R, C)].sum() == flat[i] for i in range(R * C) if flat[i] <= 8):
            out.append(m)
    return cov, out


# ------------------------------------------------------- slow readable references --

def _reference_values(view, K, margin, blend):
    """The look-ahead value of every candidate, computed from the public probabilities and layout counts, and
    whether it is alive (can show more than one number)."""
    R, C = view.shape
    p = mine_probabilities(view, K)
    low = np.nanmin(p)
    z = count_layouts(view, K)
    out = {}
    for r, c in zip(*np.nonzero(view == COVERED)):
        if not (p[r, c] < 1 and p[r, c] <= low + margin + 1e-12):
            continue
        total = 0.0
        shows = 0
        covered = sum(view[a, b] == COVERED for a in range(max(r - 1, 0), min(r + 2, R))
                      for b in range(max(c - 1, 0), min(c + 2, C))) - 1
        for v in range(covered + 1):
            hyp = view.copy()
            hyp[r, c] = v
            n = count_layouts(hyp, K)
            if n == 0:
                continue
            shows += 1
            q = mine_probabilities(hyp, K)
            rest = sorted(q[(hyp == COVERED)].tolist())
            if not rest or rest[0] == 0.0 or rest[0] >= 1.0:
                nxt = 1.0
            elif len(rest) == 1 or rest[1] >= 1.0:
                nxt = 1.0 - rest[0]
            else:
                nxt = (1 - blend) * (1.0 - rest[0]) + blend * (1.0 - rest[1])
            total += n / z * nxt
        out[r * C + c] = (total, shows > 1)
    return out


def _reference_endgame(view, K):
    """The best winning chance from ``view`` by an exhaustive search over its layouts (every covered tile safe in
    all remaining layouts revealed for free)."""
    R, C = view.shape
    cov, lays = _all_layouts(view, K)
    nums = [np.array([m[_neighbours(i, R, C)].sum() for i in range(R * C)]) for m in lays]
    memo = {}

    def value(S):
        if len(S) == 1:
            return 1.0
        if S in memo:
            return memo[S]
        best = 0.0
        for t in cov:
            mine = sum(lays[a][t] for a in S)
            groups = {}
            for a in S:
                if not lays[a][t]:
                    groups.setdefault(nums[a][t], []).append(a)
            if mine == 0 and len(groups) > 1:  # free
                memo[S] = sum(len(g) * value(tuple(g)) for g in groups.values()) / len(S)
                return memo[S]
            if 0 < mine < len(S):
                best = max(best, sum(len(g) * value(tuple(g)) for g in groups.values()) / len(S))
        memo[S] = best
        return best

    return value(tuple(range(len(lays)))), len(lays)


@pytest.mark.parametrize("seed", range(3))
def test_guess_values_match_the_reference(seed):
    rng = np.random.default_rng(seed)
    checked = 0
    for _ in range(40):
        view = _random_view(rng, 4, 5, 5, 0.35)
        if not (view == COVERED).any():
            continue
        padded, tiles, off8, K, budget = prepared_view(view, 5, 10 ** 6)
        prob = np.full(padded.shape[0], np.nan)
        from sweeper.game.probability import analyse_counted
        lz = np.zeros(1)
        analyse_counted(padded, tiles, off8, K, budget, prob, lz)
        if (prob[tiles][padded[tiles] == COVERED] == 0).any():
            continue  # a turn with a certain tile: no guess
        for margin, blend in ((0.0, 0.0), (0.1, 0.2)):
            cand, val, alive = guess_values(padded, tiles, prob, off8, K, budget, margin, lz[0], blend)
            ref = _reference_values(view, 5, margin, blend)
            got = {int((x // 7 - 1) * 5 + x % 7 - 1): (float(v), bool(a)) for x, v, a in zip(cand, val, alive)}
            assert got.keys() == ref.keys()
            for k in ref:
                assert got[k][0] == pytest.approx(ref[k][0], abs=1e-9)
                assert got[k][1] == ref[k][1]
            checked += 1
    assert checked >= 10


def _reference_unavoidable(view, K):
    """The first revealed tile (row-major) whose covered neighbours that are not certain mines, G, hold an
    unavoidable guess, by its meaning: some but not all of G are mines in every layout, and exchanging a mine of G
    with a safe tile of G gives a layout again in which every tile outside G that is not a certain mine has the same
    count of neighbouring mines (so nothing but a click on G tells them apart). Returns G's tiles, or None."""
    R, C = view.shape
    cov, lays = _all_layouts(view, K)
    flat = view.ravel()
    certain = {t for t in cov if all(m[t] for m in lays)}
    keys = {m.tobytes() for m in lays}
    for w in range(R * C):
        if flat[w] > 8:
            continue
        g = [t for t in _neighbours(w, R, C) if flat[t] == COVERED and t not in certain]
        if len(g) < 2 or not all(0 < sum(m[t] for t in g) < len(g) for m in lays):
            continue
        outside = [t for t in range(R * C) if t not in g and t not in certain]
        ok = True
        for m in lays:
            for a, b in itertools.permutations(g, 2):
                if m[a] and not m[b]:
                    x = m.copy()
                    x[a], x[b] = False, True
                    ok = ok and x.tobytes() in keys and all(
                        m[_neighbours(t, R, C)].sum() == x[_neighbours(t, R, C)].sum() for t in outside)
        if ok:
            return g
    return None


def test_unavoidable_guesses_match_the_reference():
    rng = np.random.default_rng(11)
    found = none = 0
    for _ in range(150):  # two rows: unavoidable guesses are common there
        view = _random_view(rng, 2, 5, 3, 0.6)
        if not (view == COVERED).any():
            continue
        p = mine_probabilities(view, 3)
        if np.nanmin(p) == 0.0:
            continue  # not a guess
        padded, tiles, off8, K, budget = prepared_view(view, 3, 10 ** 6)
        prob = np.full(padded.shape[0], np.nan)
        lz = np.zeros(1)
        from sweeper.game.probability import analyse_counted
        analyse_counted(padded, tiles, off8, K, budget, prob, lz)
        pick = forced_tile(padded, tiles, prob, off8, K, budget, lz[0], 0.0)
        ref = _reference_unavoidable(view, 3)
        if ref is None:
            assert pick == -1
            none += 1
        else:
            assert int((pick // 7 - 1) * 5 + pick % 7 - 1) in ref
            found += 1
    assert found >= 5 and none >= 5, (found, none)


def test_a_dead_tile_and_a_forced_fifty_fifty():
    view = np.array([[1, 1], [COVERED, COVERED]], np.int8)  # one mine: a 50/50 no other click can settle
    padded, tiles, off8, K, budget = prepared_view(view, 1, 10 ** 6)
    prob = np.full(padded.shape[0], np.nan)
    lz = np.zeros(1)
    from sweeper.game.probability import analyse_counted
    analyse_counted(padded, tiles, off8, K, budget, prob, lz)
    cand, val, alive = guess_values(padded, tiles, prob, off8, K, budget, 0.05, lz[0], 0.0)
    assert len(cand) == 2 and not alive.any()  # each shows 1 if safe
    assert forced_tile(padded, tiles, prob, off8, K, budget, lz[0], 0.0) == cand[0]


def test_the_guess_is_a_live_tile_when_one_is_on_offer():
    from sweeper.game.probability import analyse_counted
    from sweeper.running.search import search_tile
    rng = np.random.default_rng(2)
    mixed = 0
    for _ in range(200):  # two rows: dead tiles are common there
        view = _random_view(rng, 2, 5, 3, 0.6)
        padded, tiles, off8, K, budget = prepared_view(view, 3, 10 ** 6)
        prob = np.full(padded.shape[0], np.nan)
        lz = np.zeros(1)
        analyse_counted(padded, tiles, off8, K, budget, prob, lz)
        p = prob[tiles][padded[tiles] == COVERED]
        if not (p < 1).any() or (p == 0).any():
            continue  # no guess to make
        cand, val, alive = guess_values(padded, tiles, prob, off8, K, budget, 0.05, lz[0], 0.0)
        pick = search_tile(padded, tiles, prob, off8, K, budget, 0.05, lz[0], 0.0)
        i = list(cand).index(pick)
        if alive.any():
            assert alive[i] and val[i] >= val[alive].max() - 1e-12
            mixed += not alive.all()
        else:
            assert val[i] >= val.max() - 1e-12
    assert mixed >= 5, mixed


def test_layouts_and_endgame_match_brute_force():
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(600):
        view = _random_view(rng, 4, 5, 5, 0.45)
        cov, lays = _all_layouts(view, 5)
        padded, tiles, off8, K, _ = prepared_view(view, 5, 10 ** 6)
        cov_p = tiles[padded[tiles] == COVERED]
        assert layouts_of(padded, tiles, off8, K, 100_000, cov_p).shape[0] == len(lays)
        if len(lays) > 60 or any(all(not m[t] for m in lays) for t in cov):
            continue
        pick, val = endgame_tile(padded, tiles, off8, K, 1_000, 10 ** 6)
        ref, _ = _reference_endgame(view, 5)
        assert val == pytest.approx(ref, abs=1e-12)
        assert pick >= 0 and padded[pick] == COVERED
        checked += 1
    assert checked >= 8
    many = _random_view(np.random.default_rng(0), 4, 5, 5, 0.0)  # all covered: C(20, 5) layouts
    padded, tiles, off8, K, _ = prepared_view(many, 5, 10 ** 6)
    assert endgame_tile(padded, tiles, off8, K, 100, 10 ** 6) == (-1, -1.0)  # over the limit: no pick


# ------------------------------------------------------------------ its safety --

class _Checked:
    """A policy that checks each click of the searching solver against the exact probabilities."""

    def __init__(self, policy, mines):
        self.policy, self.mines, self.clicks = policy, mines, 0

    def reset(self):
        self.policy.reset()

    def __call__(self, obs):
        a = self.policy(obs)
        p = mine_probabilities(obs, self.mines).ravel()
        assert obs.flat[a] == COVERED
        assert p[a] < 1.0, "clicked a tile the exact probabilities prove to be a mine"
        if np.nanmin(p) == 0.0:
            assert p[a] == 0.0, "guessed while a certainly safe tile was on offer"
        self.clicks += 1
        return a


@pytest.mark.parametrize("board, opening", [("8x8x10", "safe"), ("9x9x15", "reference")])
def test_never_clicks_a_proven_mine_and_takes_safe_tiles_first(board, opening):
    env = MinesweeperEnv(board, opening=opening, first=(0, 0) if opening == "safe" else None)
    policy = _Checked(search_policy(env), env.setting.mines)
    out = run_episodes(env, policy, 25, seed=3)
    assert policy.clicks > 100 and len(out) == 25


def test_the_environment_path_plays_the_kernel_clicks():
    from sweeper.experiments.suites import load_suite
    s = load_suite("beginner", "safe")
    layouts = list(s.layouts[:30])
    fast = play_search(s.setting, None, 0, s.opening, s.first, layouts=layouts)
    env = MinesweeperEnv(s.setting, opening=s.opening, first=s.first)
    slow = run_episodes(env, search_policy(env), layouts=layouts)
    assert [e["won"] for e in slow] == fast["won"].tolist()
    assert [e["steps"] for e in slow] == fast["decisions"].tolist()


# -------------------------------------------------------- determinism, interrupts --

def test_same_seed_same_games_and_it_beats_the_one_step_solver_nowhere_badly():
    a = play_search("9x9x10", 60, seed=4, opening="safe", first=(0, 0))
    b = play_search("9x9x10", 60, seed=4, opening="safe", first=(0, 0))
    for k in ("won", "decisions", "revealed", "guesses"):
        assert np.array_equal(a[k], b[k])
    assert a["fallbacks"] == b["fallbacks"]
    one = play_solver("9x9x10", 60, seed=4, opening="safe", first=(0, 0))
    assert (a["won"] | one["won"]).sum() >= one["won"].sum()  # the same boards (the seed deals them)
    c = play_search("9x9x10", 60, seed=5, opening="safe", first=(0, 0))
    assert not np.array_equal(a["decisions"], c["decisions"])


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals need the main thread")
def test_ctrl_c_stops_it_between_kernel_calls():
    play_search("16x30x99", 1, seed=1)  # compiled before timing
    # Python's own handler, even when pytest runs as a background job (which starts with SIGINT ignored: the press
    # would then be lost and the 100,000 games played to the end)
    outer = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    try:
        t = time.perf_counter()
        timer.start()
        with pytest.raises(KeyboardInterrupt, match="stopped after .* games"):
            play_search("16x30x99", 100_000, seed=1)
        assert time.perf_counter() - t < 1.0 + 3.0
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, outer)
    assert play_search("5x5x3", 2, seed=1)["won"].shape == (2,)  # runs again after


# ------------------------------------------------------------------ arguments --

@pytest.mark.parametrize("kw, match", [
    ({"margin": -0.1}, "margin"), ({"margin": 2}, "margin"), ({"margin": "0.1"}, "margin"),
    ({"margin": True}, "margin"), ({"limit": -1}, "limit"), ({"limit": 2.5}, "limit"),
    ({"nodes": 0}, "nodes"), ({"limit": 0, "nodes": 5}, "nodes"), ({"budget": 0}, "budget"),
    ({"seed": -1}, "seed"), ({"episodes": -1}, "episodes"), ({"opening": "nope"}, "opening")])
def test_bad_arguments_are_refused(kw, match):
    args = {"board": "8x8x10", "episodes": 2, **kw}
    with pytest.raises(ValueError, match=match):
        play_search(**args)


def test_bad_observations_are_refused():
    policy = search_policy(10)
    with pytest.raises(ValueError, match="cell codes"):
        policy(np.full((8, 8), 10, np.int8))  # flags
    with pytest.raises(ValueError, match="no covered"):
        policy(np.zeros((8, 8), np.int8))
    with pytest.raises(ValueError, match="margin"):
        search_policy(10, margin=-1)
