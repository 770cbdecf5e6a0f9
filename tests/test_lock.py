"""constraints.txt locks every installed version and agrees with requirements.txt."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _pins(name: str) -> dict:
    pins = {}
    for line in (REPO / name).read_text().splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-"):
            m = re.fullmatch(r"([A-Za-z0-9_.\-\[\]]+)==(\S+)", line)
            assert m, f"{name}: {line!r} is not pinned with =="
            pins[re.sub(r"[-_.]+", "-", m[1]).lower().split("[")[0]] = m[2]
    return pins


def test_every_direct_dependency_is_locked_at_its_pinned_version():
    req, lock = _pins("requirements.txt"), _pins("constraints.txt")
    assert {k: (v, lock.get(k)) for k, v in req.items() if lock.get(k) != v} == {}
    assert len(lock) > 3 * len(req)  # the dependencies of the dependencies too
    assert "bandit-sweeper" not in lock


def test_jupyter_book_stays_below_2():
    assert int(_pins("constraints.txt")["jupyter-book"].split(".")[0]) < 2


def test_make_installs_with_the_lock():
    make = (REPO / "Makefile").read_text()
    assert "-c constraints.txt -r requirements.txt" in make
    assert re.search(r"^\$\(STAMP\): requirements\.txt constraints\.txt$", make, re.M)
