"""The one game loop of the bandit agents, and the moves it makes (paper Section IV-B), as numba kernels.

:mod:`sweeper.agents.kernels` says how an agent sees a board and chooses (the cache of window keys, the choice
rules); this module plays: it carries a choice out (:func:`apply`: a click learned at once, or a flag remembered,
with the removal of a flag at the flag limit), learns at the end of a game (:func:`end_game`), and runs games one
after another (:func:`_games`, the one game loop, behind :func:`play_games`: training, evaluation, the audit and
the regret runs). A probe of :mod:`sweeper.agents.oracle` can watch each decision of the loop against the exact
probabilities; it changes nothing. The step-through (:class:`~sweeper.running.episode.Episode`) and the Gymnasium
policy call the same steps one decision at a time. The rules are those of ``book/reference_rules.md``. The loop is
compiled without reference counts and allocates nothing (:func:`_play_games` says why); the table and the probe
grow in :func:`play_games`, between kernel calls.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..game.engine import G_C, G_K, G_R, LOST, NFL, ONGOING, REV, ST, click, new_game, set_flag
from ..game.grid import OUT
from . import oracle
from .kernels import (CLK, DEC, E_CODE, E_GAME, FLP, LAST, NREC, P_C, P_KIND, P_LEARN, P_SYM, P_VISIBLE, R_CLK,
                      R_DEC, R_FLP, R_PERFECT, R_RECORDED, R_REM, R_REV, R_WON, R_WRONG, REM, RULE, RULE_BAD_GIVE_UP,
                      RULE_GIVE_UP_RAISED, RULE_OK, SA, U8, UCB, WRONG, begin_game, choose, first_candidate,
                      learn_slot, refresh_keys, rule_failed, sa_code, table_room, ucb_score)
from .values import DECISIONS, PERFECT, RECORDED, find, find_or_insert, needs_room, update
from .windows import window_key

# ----------------------------------------------------- flags and learning --

@njit(cache=True, inline="always")
def flag_windows(b, sym, kbuf, tbuf):
    """The actions that flagged the tiles now flagged: every (flagged tile, window around it) pair in scan
    order, its key into ``kbuf`` and its tile into ``tbuf``. Returns how many (at most 8 per flag)."""
    tiles, view, flg, off8, off9 = b.tiles, b.shown, b.flg, b.off8, b.off9
    m = 0
    for j in range(tiles.shape[0]):
        f = tiles[j]
        if flg[f] == 0:
            continue
        for k in range(8):
            ctr = f + off8[k]
            if view[ctr] == OUT:
                continue
            kbuf[m] = window_key(view, ctr, off9, 7 - k, sym)
            tbuf[m] = f
            m += 1
    return m


@njit(cache=True, inline="always")
def give_up_by_rule(b, table, pol, rule):
    """A plug-in rule's choice of the flag to give up: every pair of :func:`flag_windows`, with Q and N
    (unseen: -1, 0), goes to ``rule.give_up``; returns (tile, key), or (-1, -1) on a failure."""
    give_up_fn, params, qbuf, nbuf, ibuf = rule.give_up[0], rule.params, rule.values, rule.counts, rule.indices
    keys, q, n = table.keys, table.q, table.n
    gen = max(table.meta[DECISIONS], 1)
    cap = qbuf.shape[0]
    m = flag_windows(b, pol[P_SYM] != 0, ibuf[:cap], ibuf[cap:])
    for i in range(m):
        s = find(keys, ibuf[i])
        qbuf[i] = -1.0 if s < 0 else q[s]
        nbuf[i] = 0 if s < 0 else n[s]
    try:
        i = give_up_fn(qbuf[:m], nbuf[:m], gen, params)
    except Exception:  # noqa: BLE001
        rule_failed(rule, RULE_GIVE_UP_RAISED, gen, -1, m)
        return -1, -1
    if not (i >= 0 and i < m) or i != np.int64(i):
        rule_failed(rule, RULE_BAD_GIVE_UP, gen, np.int64(i) if i == i and abs(i) < 1e18 else -1, m)
        return -1, -1
    return ibuf[cap + np.int64(i)], ibuf[np.int64(i)]


@njit(cache=True)
def flag_to_remove(b, cache, table, pol):
    """The flag the agent gives up when flags exceed mines: (tile, key). The lowest value wins, the
    last in scan order on ties; an action never seen counts as -1 (the state-action agent scores the
    flagged tile itself, the others each pair of :func:`flag_windows`, UCB by its score)."""
    kind = np.int64(pol[P_KIND])
    tiles, view, flg = b.tiles, b.shown, b.flg
    keys, q, n = table.keys, table.q, table.n
    nt = tiles.shape[0]
    best = np.inf
    best_t = -1
    best_key = -1
    if kind == SA:
        for j in range(nt):
            f = tiles[j]
            if flg[f] == 0:
                continue
            key = sa_code(tiles, view, f) * nt + j
            s = find(keys, key)
            v = -1.0 if s < 0 else q[s]
            if v <= best:
                best, best_t, best_key = v, f, key
        return best_t, best_key
    logt = math.log(max(table.meta[DECISIONS], 1))
    half = cache.pend.shape[0] // 2  # the cache's scratch space: 8 keys and tiles per flag at most
    kbuf = cache.pend[:half]
    tbuf = cache.pend[half:]
    for i in range(flag_windows(b, pol[P_SYM] != 0, kbuf, tbuf)):
        s = find(keys, kbuf[i])
        if kind == UCB:
            v = -1.0 if s < 0 else ucb_score(q[s], n[s], pol[P_C], logt, -1.0)
        else:
            v = -1.0 if s < 0 else q[s]
        if v <= best:
            best, best_t, best_key = v, tbuf[i], kbuf[i]
    return best_t, best_key


@njit(cache=True, _nrt=False, inline="always")
def move(b, cache, table, pol, tile, key, slot, do_flag):
    """:func:`apply` up to the flag limit: click (learned at once) or flag (remembered). Returns whether
    flags now exceed mines (then :func:`give_up_flag` must follow)."""
    ac = cache.ac
    ac[DEC] += 1
    if not do_flag:
        ac[CLK] += 1
        if pol[P_LEARN] != 0:
            if slot < 0:
                slot = find_or_insert(table.keys, table.q, table.n, table.meta, key)
            learn_slot(b, cache, table, slot, 1.0 if b.mine[tile] != 0 else -1.0)
        click(b, tile)
        return False
    if key < 0:
        key = table.keys[slot]
    set_flag(b, tile, True, pol[P_VISIBLE] != 0)
    ac[FLP] += 1
    frec = cache.frec
    frec[2 * ac[NREC]] = key
    frec[2 * ac[NREC] + 1] = tile
    ac[NREC] += 1
    return b.gs[NFL] > b.geo[G_K]


@njit(cache=True)
def give_up_choice(b, cache, table, pol, rule=None):
    """The flag the agent gives up when flags exceed mines, (tile, key): :func:`flag_to_remove`, or a
    plug-in rule's ``give_up`` (:func:`give_up_by_rule`; (-1, -1) when it failed, or when a plug-in rule's
    agent comes without its rule)."""
    if rule is not None:
        return give_up_by_rule(b, table, pol, rule)
    if np.int64(pol[P_KIND]) == RULE:
        return np.int64(-1), np.int64(-1)
    return flag_to_remove(b, cache, table, pol)


@njit(cache=True)
def give_up_flag(b, cache, table, pol, rule=None):
    """Flags exceed mines: remove the flag the agent gives up (:func:`give_up_choice`), click its tile
    and learn it at once. Returns the tile, or -1 when the rule failed (the flag stays and the caller
    stops)."""
    f, fkey = give_up_choice(b, cache, table, pol, rule)
    if f < 0:
        return -1
    set_flag(b, f, False, pol[P_VISIBLE] != 0)
    cache.ac[REM] += 1
    cache.ac[CLK] += 1
    if pol[P_LEARN] != 0:
        slot = find_or_insert(table.keys, table.q, table.n, table.meta, fkey)
        learn_slot(b, cache, table, slot, 1.0 if b.mine[f] != 0 else -1.0)
    click(b, f)
    return f


@njit(cache=True, inline="always")
def apply(b, cache, table, pol, tile, key, slot, do_flag, rule=None):
    """Carry out a decision: click (learned at once) or flag (remembered; may
    force the removal of a flag and a click). Returns the removed flag's tile or -1
    (``rule``: a plug-in rule's tuple, whose ``give_up`` picks the flag; on its failure
    the flag stays and the caller stops)."""
    if move(b, cache, table, pol, tile, key, slot, do_flag):
        return give_up_flag(b, cache, table, pol, rule)
    return -1


@njit(cache=True, inline="always")
def end_game(b, cache, table, pol):
    """Delayed learning: flags by the truth of their tiles, then every candidate of
    the last decision's board by the truth of its target. Counts wrong flags."""
    learn = pol[P_LEARN] != 0
    kind = np.int64(pol[P_KIND])
    tiles, mine = b.tiles, b.mine
    ac, frec, cslot, last_live = cache.ac, cache.frec, cache.cslot, cache.last_live
    keys, q, n, meta = table.keys, table.q, table.n, table.meta
    wrong = 0
    for r in range(ac[NREC]):
        x = frec[2 * r + 1]
        if mine[x] == 0:
            wrong += 1
        if learn:
            update(q, n, meta, find_or_insert(keys, q, n, meta, frec[2 * r]), 1.0 if mine[x] != 0 else -1.0)
    ac[WRONG] = wrong
    if not learn:
        return
    nt = tiles.shape[0]
    for j in range(nt):
        x = tiles[j]
        if last_live[x] == 0:
            continue
        reward = 1.0 if mine[x] != 0 else -1.0
        if kind == SA:
            update(q, n, meta, find_or_insert(keys, q, n, meta, ac[LAST] * nt + j), reward)
            continue
        base = first_candidate(x)  # not ``b``: that is the board
        for k in range(U8):
            if cslot[base + k] >= 0:
                update(q, n, meta, cslot[base + k], reward)


@njit(cache=True, inline="always")
def _games(b, cache, table, pol, rngs, layouts, records, start, count, resume, rule, probe):
    """The one game loop: plays games ``start .. start+count-1`` until the value table needs room before a
    decision. Returns the index of the game it stopped in (``start + count`` when all are played, or the
    game where no choice could be made: a plug-in rule failed, and its status says so, or a rule agent
    came without its rule). ``resume``: the game ``start`` is under way (stopped for room: its table, or the
    probe's, has just grown; every cached slot is looked up again). ``probe``: None, or an :data:`~sweeper.agents.oracle.Probe`
    that measures every decision against the exact probabilities without changing it. ``rngs``: the boards' and
    the agent's random streams, as one pair."""
    rng_boards, rng_agent = rngs
    gs, ac, meta = b.gs, cache.ac, table.meta
    room = table_room(b.geo[G_R], b.geo[G_C])
    no_layout = layouts.reshape(layouts.size)[:0]
    window_agent = np.int64(pol[P_KIND]) != SA
    for g in range(start, start + count):
        moved = resume and g == start
        if not moved:
            new_game(b, rng_boards, layouts[g] if layouts.shape[0] > 0 else no_layout)
            begin_game(cache)
            if probe is not None:
                oracle.begin_game(probe)
        while True:
            if needs_room(table.keys, meta, room):
                return g
            if probe is not None:
                if oracle.needs_room(probe, room):  # its best-window table grows between calls too
                    return g
            refresh_keys(b, cache, table, pol, moved)
            moved = False
            if gs[ST] != ONGOING:
                break
            if probe is not None:
                oracle.before_choice(b, cache, window_agent, probe)
            x, key, slot, qv, nv, sc, fl, _ = choose(b, cache, table, pol, rng_agent, rule)
            if x < 0:
                if rule is not None:
                    rule.status[E_GAME] = g
                return g
            removed = apply(b, cache, table, pol, x, key, slot, fl, rule)
            if rule is not None:
                if rule.status[E_CODE] != RULE_OK:
                    rule.status[E_GAME] = g
                    return g
            if probe is not None:
                oracle.after_move(b, probe, g, x, fl, qv, nv, removed)
            if gs[ST] != ONGOING:
                break
        end_game(b, cache, table, pol)
        if probe is not None:
            oracle.end_of_game(b, probe, g)
        records[g, R_WON] = 1 if gs[ST] != LOST else 0
        records[g, R_DEC] = ac[DEC]
        records[g, R_CLK] = ac[CLK]
        records[g, R_FLP] = ac[FLP]
        records[g, R_WRONG] = ac[WRONG]
        records[g, R_REV] = gs[REV]
        records[g, R_REM] = ac[REM]
        records[g, R_RECORDED] = meta[RECORDED]
        records[g, R_PERFECT] = meta[PERFECT]
    return start + count


@njit(cache=True, _nrt=False)
def _play_games(b, cache, table, pol, rngs, layouts, records, start, count, resume, rule=None):
    """The loop :func:`_games` without a probe, compiled without reference counting (``_nrt=False``).

    No reference counts on the hot path: numba counts a reference, atomically, for every array a function
    receives, and the counts it cannot prove useless stay: with bundles, about 110 increments and 110 decrements
    per decision, an eighth of the run time. This loop and the per-decision steps are compiled with
    ``_nrt=False``: they allocate nothing and keep no array, so they need no counts, and a bundle costs nothing to
    hand on. (Numba compiles the functions such a kernel calls under the same flag, so none of them may allocate:
    the table grows in :func:`play_games`, between kernel calls, and :func:`flag_to_remove` uses the cache's
    scratch space.) No argument copying: numba passes an array as seven machine words, so a call with three
    bundles would copy about 200 words; the steps are inlined (``inline="always"``) into the loop."""
    return _games(b, cache, table, pol, rngs, layouts, records, start, count, resume, rule, None)


@njit(cache=True)
def _play_games_probed(b, cache, table, pol, rngs, layouts, records, start, count, resume, rule, probe):
    """The loop :func:`_games` with a probe (its solver allocates, so this one keeps reference counting)."""
    return _games(b, cache, table, pol, rngs, layouts, records, start, count, resume, rule, probe)


def check_rule(pol, rule) -> None:
    """A plug-in rule's tuple goes with a rule agent's policy, and only there (else ``ValueError``): a rule
    agent never falls back on another kind's choice."""
    is_rule = int(pol[P_KIND]) == RULE
    if is_rule and rule is None:
        raise ValueError("a plug-in rule's agent needs its rule's RuleArgs (sweeper.agents.custom.Rule._kernel_args)")
    if rule is not None and not is_rule:
        raise ValueError("a rule's tuple goes with a plug-in rule's agent only")


def play_games(b, cache, table, pol, rngs, layouts, records, games: range, rule=None, probe=None):
    """Play the games ``games`` (a range of game indices), writing their rows of ``records``: the one game loop,
    behind training, evaluation, the audit and the regret runs.

    ``b``, ``cache``: the board and cache bundles; ``rngs``: the boards' and the agent's random streams, as one pair
    (the kernel's); ``table``: the agent's
    :class:`~sweeper.agents.values.ValueTable`, grown here whenever it needs room before a
    decision (then the game in progress goes on, every window key recomputed). ``layouts`` is
    either empty (boards drawn from the boards' stream) or holds one mine layout per game. ``rule``: a
    plug-in rule's tuple (:mod:`sweeper.agents.custom`); when it fails, the game in progress is
    abandoned, its index is recorded in the rule's status and the call returns. ``probe``: an
    :data:`~sweeper.agents.oracle.Probe` to measure every decision against the exact probabilities; returns it
    (a new bundle when its best-window table grew: :func:`sweeper.agents.oracle.grow`), or None without one.

    The kernel :func:`_games` runs the steps :func:`refresh_keys`, :func:`choose` and
    :func:`apply`; the table grows here, between its calls, because the kernel allocates nothing
    (see :func:`_play_games`)."""
    check_rule(pol, rule)
    room = table_room(int(b.geo[G_R]), int(b.geo[G_C]))
    start, end = games.start, games.stop
    resume = False
    while start < end:
        if probe is None:
            extra = () if rule is None else (rule,)
            start = _play_games(b, cache, table.bundle, pol, rngs, layouts, records, start, end - start, resume,
                                *extra)
        else:
            start = _play_games_probed(b, cache, table.bundle, pol, rngs, layouts, records, start, end - start,
                                       resume, rule, probe)
        if start >= end or (rule is not None and rule.status[E_CODE] != RULE_OK):
            return probe
        grown = False
        if needs_room(table.bundle.keys, table.bundle.meta, room):
            table.make_room(room)
            grown = True
        if probe is not None and oracle.needs_room(probe, room):
            probe = oracle.grow(probe, room)
            grown = True
        if not grown:
            raise RuntimeError(f"no choice could be made in game {start} (the agent had no candidate)")
        resume = True
    return probe
