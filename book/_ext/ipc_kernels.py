"""Kernels that talk over Unix sockets, so that kernels started side by side cannot take each other's ports.

A Jupyter kernel over TCP is given five free ports by the process that starts it, which closes them again before
the kernel binds them: two builders starting kernels at once (Sphinx's parallel reading in ``make book``, or
pytest-xdist's workers running nbval in ``make test``) can be handed the same port, and one kernel then dies with
"Address already in use". Over IPC a kernel's five sockets are files named ``<ip>-<port>``. jupyter_client's own
default ``ip`` for IPC is ``kernel-ipc`` in the working directory, shared by every kernel started there, so
``use_ipc_kernels()`` also gives each kernel its own ``ip``: a fresh name (process id and a count) in a short
private directory, since a Unix socket's path may not be longer than 107 bytes. It applies to this process and
to the processes it forks.
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import tempfile

_COUNT = itertools.count()


def use_ipc_kernels() -> str:
    """Make IPC the transport of every kernel this process (or a child) starts; returns the socket directory."""
    from jupyter_client.connect import ConnectionFileMixin

    runtime = os.environ.get("SWEEPER_KERNEL_SOCKETS", "")
    if not os.path.isdir(runtime):
        runtime = tempfile.mkdtemp(prefix="jk", dir="/tmp" if os.path.isdir("/tmp") else None)
        os.environ["SWEEPER_KERNEL_SOCKETS"] = runtime
        atexit.register(shutil.rmtree, runtime, True)  # by the process that made it (forked children skip atexit)
    ConnectionFileMixin.transport.default_value = "ipc"
    write = getattr(ConnectionFileMixin.write_connection_file, "_writes_relative_ip", None)
    write = write or ConnectionFileMixin.write_connection_file

    def write_connection_file(self, **kwargs):
        if self.transport == "ipc" and not os.path.isabs(self.ip):  # the shared default: one name per kernel
            self.ip = os.path.join(os.environ["SWEEPER_KERNEL_SOCKETS"], f"k{os.getpid()}-{next(_COUNT)}")
        return write(self, **kwargs)

    write_connection_file._writes_relative_ip = write
    ConnectionFileMixin.write_connection_file = write_connection_file
    return runtime
