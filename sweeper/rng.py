"""Explicit, seedable random streams for the numba kernels.

Every random draw in the package comes from a xoshiro256** generator whose
state is a ``uint64[4]`` array passed into the kernels and advanced in place.
The state is built from an integer seed and a *stream* number with SplitMix64,
so that, for one seed, the board generator and the agent's exploration
generator are independent streams. Same seed, same streams, same results:
there is no global random state anywhere in ``sweeper``.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import njit

_MASK = (1 << 64) - 1

#: Stream numbers used by the package (any distinct integers would do): the boards, the agent's own draws
#: (exploration, Thompson sampling, the floor and the solver's guesses), a plug-in rule's generator, the neural
#: bandit's network (its initial weights and the replay buffer's minibatches).
STREAM_BOARDS = 1
STREAM_AGENT = 2
STREAM_RULE = 3
STREAM_NEURAL = 4
#: The stream that deals the benchmark's fixed test suites (:mod:`sweeper.running.benchmark`), one seed per suite.
STREAM_SUITES = 5
#: The benchmark's stream (``python -m sweeper bench``, the Thompson draws it times): apart from every run's streams.
STREAM_BENCH = 99

#: Seeds derived from a run's seed (any values would do that keep them apart from the run's own seed): the games on
#: the run's i-th test board use seed ``seed * TEST_SEED_STRIDE + 1 + i`` (:func:`held_out_seed`).
TEST_SEED_STRIDE = 1000
#: The frozen games after a long regret run use seed ``seed + FROZEN_SEED`` (the regret experiment's task kind).
FROZEN_SEED = 100

#: The random streams of one seed, as :func:`streams` makes them.
Streams = namedtuple("Streams", ["boards", "agent", "rule"])


def _splitmix64(x: int) -> tuple[int, int]:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return x, z ^ (z >> 31)


def check_seed(seed) -> int:
    """Return ``seed`` as a Python int, or raise ``ValueError``."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    seed = int(seed)
    if seed < 0 or seed > _MASK:
        raise ValueError(f"seed must be in [0, 2**64), got {seed}")
    return seed


def make_state(seed: int, stream: int) -> np.ndarray:
    """A fresh xoshiro256** state for ``(seed, stream)``."""
    seed = check_seed(seed)
    x = (seed ^ ((stream * 0xD1B54A32D192ED03) & _MASK)) & _MASK
    words = []
    for _ in range(4):
        x, z = _splitmix64(x)
        words.append(z)
    if not any(words):  # the all-zero state is the one forbidden state
        words[0] = 1
    return np.array(words, dtype=np.uint64)


def _generator(seed: int, stream: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([check_seed(seed), stream])))


def rule_generator(seed: int) -> np.random.Generator:
    """The NumPy generator a plug-in rule draws from in a run with ``seed`` (its own stream)."""
    return _generator(seed, STREAM_RULE)


def neural_generator(seed: int) -> np.random.Generator:
    """The NumPy generator of the neural bandit's network in a run with ``seed`` (its own stream): the seed of its
    initial weights, the replay buffer's minibatches."""
    return _generator(seed, STREAM_NEURAL)


def held_out_seed(seed: int, i: int) -> int:
    """The seed of the games a run with ``seed`` plays on its ``i``-th test board (``i`` from 0):
    ``seed * TEST_SEED_STRIDE + 1 + i``, the same in every experiment that tests a trained agent."""
    return seed * TEST_SEED_STRIDE + 1 + i


def streams(seed: int) -> Streams:
    """Every random stream of a run with ``seed``: ``boards`` and ``agent`` (xoshiro256** states for the
    kernels) and ``rule`` (a plug-in rule's NumPy generator). The one place the streams are named: same seed,
    same streams, in every consumer."""
    seed = check_seed(seed)
    return Streams(make_state(seed, STREAM_BOARDS), make_state(seed, STREAM_AGENT), rule_generator(seed))


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, _nrt=False)
def next_u64(s):
    """Advance the state ``s`` and return the next 64-bit output."""
    result = _rotl(s[1] * np.uint64(5), 7) * np.uint64(9)
    t = s[1] << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@njit(cache=True, _nrt=False)
def uniform(s):
    """A float in [0, 1) with 53 random bits."""
    return float(next_u64(s) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, _nrt=False)
def below(s, n):
    """An integer uniform on ``0 .. n-1`` (n >= 1), by rejection: no bias."""
    un = np.uint64(n)
    limit = np.uint64(0xFFFFFFFFFFFFFFFF) - (np.uint64(0xFFFFFFFFFFFFFFFF) % un)
    while True:
        x = next_u64(s)
        if x < limit:
            return np.int64(x % un)


@njit(cache=True, _nrt=False)
def normal(s):
    """A standard normal draw (Marsaglia's polar method)."""
    while True:
        u = 2.0 * uniform(s) - 1.0
        v = 2.0 * uniform(s) - 1.0
        r = u * u + v * v
        if 0.0 < r < 1.0:
            return u * np.sqrt(-2.0 * np.log(r) / r)


@njit(cache=True, _nrt=False)
def gamma(s, shape):
    """A Gamma(shape, 1) draw (Marsaglia and Tsang; shape < 1 by the U^(1/shape) boost)."""
    boost = 1.0
    if shape < 1.0:
        boost = uniform(s) ** (1.0 / shape)
        shape += 1.0
    d = shape - 1.0 / 3.0
    c = 1.0 / np.sqrt(9.0 * d)
    while True:
        x = normal(s)
        v = 1.0 + c * x
        if v <= 0.0:
            continue
        v = v * v * v
        u = uniform(s)
        if u < 1.0 - 0.0331 * x ** 4 or np.log(u) < 0.5 * x * x + d * (1.0 - v + np.log(v)):
            return d * v * boost


@njit(cache=True, _nrt=False)
def beta(s, a, b):
    """A Beta(a, b) draw.

    Exact in every case: by inversion when a or b is 1 (Beta(1, b) has the CDF
    1 - (1 - x)^b, Beta(a, 1) has x^a: one uniform draw), otherwise as
    X / (X + Y) with X ~ Gamma(a), Y ~ Gamma(b). With the uniform prior the
    agent's "perfect" actions (never or always a mine) take the cheap branch."""
    if a == 1.0:
        return -math.expm1(math.log(1.0 - uniform(s)) / b)
    if b == 1.0:
        return math.exp(math.log(1.0 - uniform(s)) / a)
    x = gamma(s, a)
    y = gamma(s, b)
    return x / (x + y)
