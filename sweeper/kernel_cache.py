"""Numba's on-disk cache, made safe for a package whose kernels call one another.

The kernels are compiled with ``@njit(cache=True)``. Numba keys each cached
function on the source file that defines it, and only that file: when a kernel
in ``agents/kernels.py`` inlines ``values.update`` from ``agents/values.py``, an
edit to ``values.py`` leaves the cached ``kernels`` functions in place, still running
the old update. The results would be silently wrong.

Importing this module (``sweeper/__init__.py`` does it first, before any kernel
is defined) registers cache locators for the package's own files whose source
stamp is the file's usual stamp *plus* a fingerprint of every kernel-bearing
source file of the package. Any edit to any of them invalidates every cached
kernel of the package, so they are recompiled together; the caches of other
libraries are untouched. Where the cache lives is numba's usual choice
(``NUMBA_CACHE_DIR`` if set, else ``__pycache__`` beside the source, else the
user-wide directory), in a sub-folder named after the fingerprint, so that a cache index written by other
sources is never even unpickled (numba reads a whole index before it compares stamps).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from numba.core import caching

PACKAGE = Path(__file__).resolve().parent


@lru_cache(maxsize=None)
def kernel_fingerprint() -> str:
    """SHA-256 over the package's Python files that use numba (relative paths and bytes)."""
    h = hashlib.sha256()
    for f in sorted(PACKAGE.rglob("*.py")):
        data = f.read_bytes()
        if b"numba" in data:
            h.update(f.relative_to(PACKAGE).as_posix().encode() + b"\0" + data + b"\0")
    return h.hexdigest()


def _inside(py_file) -> bool:
    try:
        Path(py_file).resolve().relative_to(PACKAGE)
    except (ValueError, OSError):
        return False
    return True


class _WholePackageStamp:
    """Mixin: only for this package's files; the stamp also covers every kernel source of the package."""

    @classmethod
    def from_function(cls, py_func, py_file):
        if not _inside(py_file):
            return None
        return super().from_function(py_func, py_file)

    def get_source_stamp(self):
        return (super().get_source_stamp(), kernel_fingerprint())

    def get_cache_path(self):
        """A folder per fingerprint: numba unpickles an index before it compares stamps, so an index written by
        other sources (a kernel module renamed, a bundle's fields changed) must never be opened at all; a stale
        folder is simply not read again."""
        return str(Path(super().get_cache_path()) / f"sweeper-{kernel_fingerprint()[:16]}")


class PackageUserProvidedLocator(_WholePackageStamp, caching.UserProvidedCacheLocator):
    """``NUMBA_CACHE_DIR``, when set."""


class PackageInTreeLocator(_WholePackageStamp, caching.InTreeCacheLocator):
    """``__pycache__`` beside the source file."""


class PackageUserWideLocator(_WholePackageStamp, caching.UserWideCacheLocator):
    """The user-wide cache directory, when ``__pycache__`` is not writable."""


OURS = [PackageUserProvidedLocator, PackageInTreeLocator, PackageUserWideLocator]


def install() -> None:
    """Put this package's locators first in numba's list (idempotent)."""
    classes = caching.CacheImpl._locator_classes
    classes[:] = OURS + [c for c in classes if c not in OURS]


install()


#: Where numba's compiler runs: its own package and llvmlite's (Python code between the long calls into LLVM).
_COMPILER = tuple(str(Path(m.__file__).resolve().parent) for m in (__import__("numba"), __import__("llvmlite")))


def compiling(frame) -> bool:
    """Whether a signal handler called with ``frame`` interrupts numba's compiler, not a kernel: a handler runs
    only between Python instructions, never inside a running kernel, so a frame of numba or llvmlite's own code
    means a kernel is being compiled (or loaded from the cache) and none of it has run yet."""
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(_COMPILER):
            return True
        if not name.startswith("<"):  # the innermost frame of real code decides
            return False
        frame = frame.f_back
    return False
