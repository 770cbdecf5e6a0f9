"""Shared fixtures: agents trained once per test session."""

from functools import lru_cache

import pytest

from sweeper import make_agent, train


@lru_cache(maxsize=None)
def _trained(spec: str, board: str, games: int, seed: int, flags: bool):
    agent = make_agent(spec, flags=flags)
    train(agent, board, games, seed=seed, progress=False)
    return agent


@pytest.fixture(scope="session")
def trained_agent():
    """``trained_agent(spec="greedy", board="8x8x10", games=3000, seed=1, flags=True)``: a fresh copy of an
    agent trained once per session with those arguments (tests may change their copy)."""
    def get(spec="greedy", board="8x8x10", games=3000, seed=1, flags=True):
        return _trained(spec, board, games, seed, flags).copy()
    return get
