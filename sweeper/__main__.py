import signal
import sys

try:
    from .cli import main
    code = main(ending=True)
except KeyboardInterrupt:  # Ctrl-C while Python was still starting, before the command's own handling
    print("interrupted", file=sys.stderr)
    code = 130
signal.signal(signal.SIGINT, signal.SIG_IGN)  # the process ends: a late Ctrl-C changes nothing
sys.exit(code)
