"""The optional extra ``deep`` in the tests (tests/test_deep_rl.py, tests/test_neural.py): a test that needs it is
skipped without it, and says why, unless ``SWEEPER_REQUIRE_DEEP=1`` (``make test-deep``) makes that a failure."""

import builtins
import os

import pytest


def need(require):
    """``require()`` (a module's check for the extra), or skip the test (fail it under SWEEPER_REQUIRE_DEEP=1)."""
    try:
        return require()
    except ValueError as exc:
        if os.environ.get("SWEEPER_REQUIRE_DEEP") == "1":
            pytest.fail(str(exc))
        pytest.skip(str(exc))


def hide(monkeypatch, *packages):
    """Make importing any of ``packages`` fail, as on a machine without the extra."""
    real = builtins.__import__

    def without(name, *a, **k):
        if name.split(".")[0] in packages:
            raise ImportError(f"No module named {name!r}", name=name)
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", without)
