import atexit
import contextlib
import os
import signal
import sys

try:
    from .cli import main
    code = main(ending=True)
except KeyboardInterrupt:  # Ctrl-C while Python was still starting, before the command's own handling
    print("interrupted", file=sys.stderr)
    code = 130
signal.signal(signal.SIGINT, signal.SIG_IGN)  # the process ends: a late Ctrl-C changes nothing
if code == 130:
    # Ctrl-C: files and workers are already seen to and the exit handlers run now, but the interpreter's teardown
    # of its thousand modules (1.3 to 1.5 s on a busy machine) is skipped, so that the command stops at once
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)
sys.exit(code)
