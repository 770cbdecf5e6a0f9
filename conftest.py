"""The tests and the notebooks test this checkout's ``sweeper``: pytest refuses to start when ``sweeper`` would be
imported from anywhere else (another checkout's editable install, say), and the notebooks' kernels, which nbval
starts as new processes, find this checkout first on their path and talk over Unix sockets (book/_ext/ipc_kernels.py:
two xdist workers starting kernels at once over TCP can be handed the same port)."""

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent


def pytest_configure(config):
    os.environ["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])
    import sweeper
    where = Path(sweeper.__file__).resolve().parent
    if where != REPO / "sweeper":
        raise pytest.UsageError(f"these tests are for the sweeper of {REPO}, but Python imports {where}: run "
                                f"`make venv` in {REPO} and use its .venv/bin/python")
    sys.path.insert(0, str(REPO / "book" / "_ext"))
    from ipc_kernels import use_ipc_kernels
    use_ipc_kernels()
