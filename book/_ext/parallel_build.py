"""``jupyter-book build`` with Sphinx's parallel jobs: the book's notebooks execute on every core.

jupyter-book 1.x builds through Sphinx, whose reading of the documents (and so myst-nb's execution of the
notebooks) can run in several processes, but its command line has no option for it. This runs its ``build``
command unchanged, with Sphinx's ``jobs`` set: ``BOOK_JOBS`` (default: the number of cores, at most 4). The pages are
the same as a serial build's; ``offline_html.py`` declares jupyter-book's section-numbering extension safe for
parallel reading, and the kernels talk over Unix sockets (``ipc_kernels.py``: parallel kernels over TCP can be handed
the same port). Usage (the Makefile's ``book`` target): ``python book/_ext/parallel_build.py . --all ...``, with
the arguments of ``jupyter-book build``.
"""

from __future__ import annotations

import os
import sys


def jobs() -> int:
    text = os.environ.get("BOOK_JOBS", "")
    if text:
        if not text.isdigit() or not 1 <= int(text) <= 64:
            sys.exit(f"BOOK_JOBS must be a whole number from 1 to 64, got {text!r}")
        return int(text)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(cores, 4))


def main(argv: list[str]) -> None:
    import jupyter_book.sphinx as jb_sphinx
    from ipc_kernels import use_ipc_kernels
    from jupyter_book.cli.main import main as jupyter_book

    serial, n = jb_sphinx.build_sphinx, jobs()
    use_ipc_kernels()

    def build_sphinx(*args, **kwargs):
        kwargs["jobs"] = n
        return serial(*args, **kwargs)

    jb_sphinx.build_sphinx = build_sphinx  # the build command imports it from there when it runs
    jupyter_book(["build", *argv], prog_name="jupyter-book")


if __name__ == "__main__":
    main(sys.argv[1:])
