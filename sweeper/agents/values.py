"""The action-value table: Q(a) and N(a) for every action key, without limit.

An open-addressing hash table whose slots are records of three 8-byte fields
(key, N, Q) in one buffer, seen as three strided NumPy arrays (``keys``, ``q``,
``n``), plus a small ``meta`` array of counters, so that numba kernels can read
and update it directly. It doubles whenever it becomes half full (the kernels
check before every decision), so it never overflows and never drops a key.

Speed: a beginner agent's table holds 25 MB after 10^5 games, so most lookups
miss the CPU caches. A slot's key, N and Q share one record, so a lookup and the
reads of its Q and N touch one cache line, and one :func:`prefetch` (issued
before the lookup, while other work goes on) brings all three.

Conventions (paper Section IV-B): an unseen action has Q = -1 and N = 0. An
update with reward R is ``N += 1; Q += (1 / N) * (R - Q)``, in exactly that
floating-point order: the step size ``1 / N`` is rounded first, then multiplied
by the error. This is the order of the paper's published code. Written as
``Q + (R - Q) / N`` the result can differ in the last bit, and since the agents
break ties on exact equality of |Q|, one such bit can change which window is
credited and, games later, which games are played (see ``tests/test_paper_games.py``).
A key may sit in the table with N = 0 (the kernels reserve a slot when they first meet a window);
such keys are not "recorded": *actions recorded* counts keys with N > 0 and
*perfect actions* counts those whose |Q| is exactly 1.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

EMPTY = -1
# meta layout
USED, RECORDED, PERFECT, DECISIONS = 0, 1, 2, 3
META_SIZE = 4
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)

#: A value table as one bundle for the kernels: ``keys``, ``q``, ``n`` (the fields of the slots, as
#: strided views of one buffer: :func:`new_slots`) and ``meta`` (the counters ``USED``, ``RECORDED``,
#: ``PERFECT``, ``DECISIONS``).
Table = namedtuple("Table", ["keys", "q", "n", "meta"])


@njit(cache=True, inline="always")
def _home(key, mask):
    h = np.uint64(key) * _GOLDEN
    return np.int64((h ^ (h >> np.uint64(29))) & np.uint64(mask))


@njit(cache=True, inline="always")
def _slot_of(keys, key):
    """The slot holding ``key``, or the empty slot where it would go (linear probing)."""
    mask = keys.shape[0] - 1
    i = _home(key, mask)
    while keys[i] != key and keys[i] != EMPTY:
        i = (i + 1) & mask
    return i


@intrinsic
def _prefetch_item(typingctx, arr, idx):
    """Emit LLVM's ``prefetch`` (read, keep in all cache levels) for the address of ``arr[idx]``."""
    if not isinstance(arr, types.Array) or not isinstance(idx, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(arr, idx), codegen


@njit(cache=True, inline="always")
def prefetch(keys, key):
    """Start loading the cache line of ``key``'s home slot, without waiting for it (a hint to the CPU:
    it changes no result). Most lookups in a large table miss the cache; a kernel that knows several
    keys before it looks them up requests all their lines first, so the misses overlap."""
    _prefetch_item(keys, _home(key, keys.shape[0] - 1))


@njit(cache=True, inline="always")
def find(keys, key):
    """Slot of ``key`` or -1."""
    i = _slot_of(keys, key)
    return i if keys[i] == key else -1


@njit(cache=True, inline="always")
def slot_of(keys, key):
    """The slot holding ``key``, or the empty slot where :func:`insert` would put it."""
    return _slot_of(keys, key)


@njit(cache=True, _nrt=False)
def insert(keys, q, n, meta, slot, key):
    """Put ``key`` into the empty ``slot`` (from :func:`slot_of`) as unseen (Q=-1, N=0)."""
    keys[slot] = key
    q[slot] = -1.0
    n[slot] = 0
    meta[USED] += 1


@njit(cache=True, inline="always")
def find_or_insert(keys, q, n, meta, key):
    """Slot of ``key``, inserting it as unseen (Q=-1, N=0) if absent."""
    i = _slot_of(keys, key)
    if keys[i] == EMPTY:
        insert(keys, q, n, meta, i, key)
    return i


@njit(cache=True, inline="always")
def update(q, n, meta, slot, reward):
    """Sample-average update of one slot, keeping the recorded/perfect counters."""
    old_q = q[slot]
    old_n = n[slot]
    was_perfect = (old_n > 0) & (abs(old_q) == 1.0)
    new_n = old_n + 1
    new_q = old_q + (1.0 / new_n) * (reward - old_q)  # the paper code's order, bit for bit
    n[slot] = new_n
    q[slot] = new_q
    # branch-free counters: no array is last used under a condition, so numba prunes the
    # reference counts of the arrays when this is inlined in a loop
    meta[RECORDED] += np.int64(old_n == 0)
    meta[PERFECT] += np.int64(abs(new_q) == 1.0) - np.int64(was_perfect)


@njit(cache=True)
def new_slots(capacity):
    """``(keys, q, n)`` of ``capacity`` empty slots: strided views of one (capacity, 3) buffer, so that the
    key, N and Q of a slot sit side by side (key = EMPTY, Q = -1, N = 0)."""
    buf = np.empty((capacity, 3), dtype=np.int64)
    keys = buf[:, 0]
    n = buf[:, 1]
    q = buf.view(np.float64)[:, 2]
    keys[:] = EMPTY
    n[:] = 0
    q[:] = -1.0
    return keys, q, n


def numpy_slots(capacity):
    """:func:`new_slots` allocated by NumPy, outside the kernels: NumPy asks Linux for huge pages for a large array
    (``madvise``), so the lookups in a large table that is built once (a loaded agent's, a best-window table) miss
    the TLB less often. The same slots, the same lookups."""
    buf = np.empty((capacity, 3), dtype=np.int64)
    keys, n, q = buf[:, 0], buf[:, 1], buf.view(np.float64)[:, 2]
    keys[:] = EMPTY
    n[:] = 0
    q[:] = -1.0
    return keys, q, n


@njit(cache=True)
def rehash(keys, q, n, new_capacity):
    """New slots (:func:`new_slots`) of ``new_capacity`` (a power of two) holding every key."""
    nk, nq, nn = new_slots(new_capacity)
    rehash_into(keys, q, n, nk, nq, nn)
    return nk, nq, nn


@njit(cache=True)
def rehash_into(keys, q, n, nk, nq, nn):
    """Put every key of ``keys`` (with its Q and N) into the empty slots ``nk, nq, nn``."""
    mask = nk.shape[0] - 1
    for s in range(keys.shape[0]):
        k = keys[s]
        if k != EMPTY:
            i = _home(k, mask)
            while nk[i] != EMPTY:
                i = (i + 1) & mask
            nk[i] = k
            nq[i] = q[s]
            nn[i] = n[s]


@njit(cache=True, inline="always")
def needs_room(keys, meta, room):
    """Would ``room`` more keys make the table more than half full?"""
    return 2 * (meta[USED] + room) > keys.shape[0]


@njit(cache=True)
def ensure_room(keys, q, n, meta, room):
    """Grow (doubling) until ``room`` more keys keep the table at most half full."""
    cap = keys.shape[0]
    if not needs_room(keys, meta, room):
        return keys, q, n
    while 2 * (meta[USED] + room) > cap:
        cap *= 2
    return rehash(keys, q, n, cap)


class ValueTable:
    """Q and N for every action key an agent has met (a growable hash table).

    ``table[key]`` gives ``(Q, N)`` (``(-1.0, 0)`` for an unseen key);
    :meth:`recorded` returns the keys with N > 0 and their values as arrays.
    """

    def __init__(self, capacity: int = 1 << 14):
        if capacity < 16 or capacity & (capacity - 1):
            raise ValueError("capacity must be a power of two >= 16")
        self.keys, self.q, self.n = new_slots(capacity)
        self.meta = np.zeros(META_SIZE, dtype=np.int64)

    # -- views ---------------------------------------------------------------
    @property
    def capacity(self) -> int:
        return int(self.keys.shape[0])

    @property
    def actions_recorded(self) -> int:
        return int(self.meta[RECORDED])

    @property
    def perfect_actions(self) -> int:
        return int(self.meta[PERFECT])

    @property
    def decisions(self) -> int:
        """Decisions taken over the agent's life (UCB's t)."""
        return int(self.meta[DECISIONS])

    def __len__(self) -> int:
        return self.actions_recorded

    def __getitem__(self, key) -> tuple[float, int]:
        s = find(self.keys, np.int64(key))
        return (-1.0, 0) if s < 0 else (float(self.q[s]), int(self.n[s]))

    def recorded(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(keys, Q, N)`` of the recorded actions (N > 0), sorted by key."""
        sel = self.n > 0
        order = np.argsort(self.keys[sel], kind="stable")
        return self.keys[sel][order], self.q[sel][order], self.n[sel][order]

    def nbytes(self) -> int:
        """Bytes held by the table's arrays (including empty and reserved slots)."""
        return int(self.keys.nbytes + self.q.nbytes + self.n.nbytes + self.meta.nbytes)

    def copy(self) -> "ValueTable":
        t = ValueTable.__new__(ValueTable)
        t.keys, t.q, t.n = new_slots(self.capacity)
        t.keys[:], t.q[:], t.n[:] = self.keys, self.q, self.n
        t.meta = self.meta.copy()
        return t

    @property
    def bundle(self) -> Table:
        """The arrays as one :data:`Table` for the kernels."""
        return Table(self.keys, self.q, self.n, self.meta)

    def make_room(self, room: int) -> None:
        """Grow (doubling) until ``room`` more keys keep the table at most half full."""
        self.keys, self.q, self.n = ensure_room(self.keys, self.q, self.n, self.meta, room)

    def adopt(self, bundle: Table) -> None:
        """Take back the arrays a kernel returned (they move when the table grows)."""
        self.keys, self.q, self.n = bundle.keys, bundle.q, bundle.n

    @classmethod
    def from_recorded(cls, keys, q, n, decisions: int = 0) -> "ValueTable":
        """Rebuild a table from recorded ``(keys, Q, N)`` arrays (validated by the caller)."""
        cap = 1 << 14
        while cap < 2 * len(keys) + 16:
            cap *= 2
        t = cls()
        t.keys, t.q, t.n = numpy_slots(cap)
        if len(keys):
            rehash_into(np.asarray(keys, np.int64), np.asarray(q, np.float64), np.asarray(n, np.int64),
                        t.keys, t.q, t.n)
        t.meta[USED] = len(keys)
        t.meta[RECORDED] = len(keys)
        t.meta[PERFECT] = int(np.count_nonzero(np.abs(np.asarray(q)) == 1.0))
        t.meta[DECISIONS] = int(decisions)
        return t
