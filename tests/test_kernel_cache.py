"""Numba's disk cache never serves a kernel compiled from old code (sweeper/kernel_cache.py).

Numba alone keys a cached kernel on its own source file, so a kernel that calls a
function from another file keeps the old compiled callee after that file is edited.
The test builds that situation in a copy of the package: ``b.g`` calls ``a.f``;
after ``a.f`` changes, ``b.g`` must change too. With numba's own locators only, it
does not (which shows the test can fail)."""

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import sweeper

SCRIPT = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[1])
    import sweeper  # installs the package's locators
    from sweeper import kernel_cache
    from numba.core import caching
    if sys.argv[2] == "plain":
        caching.CacheImpl._locator_classes[:] = [c for c in caching.CacheImpl._locator_classes
                                                  if c not in kernel_cache.OURS]
    from sweeper.game.probe_b import g
    print(g())
""")


def run(root, mode):
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(root), mode], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return float(out.stdout.strip())


def package_copy(tmp_path):
    root = tmp_path / "copy"
    shutil.copytree(Path(sweeper.__file__).parent, root / "sweeper",
                    ignore=shutil.ignore_patterns("__pycache__"))
    game = root / "sweeper" / "game"
    (game / "probe_a.py").write_text("from numba import njit\n\n\n@njit(cache=True)\ndef f():\n    return 1.0\n")
    (game / "probe_b.py").write_text("from numba import njit\n\nfrom .probe_a import f\n\n\n"
                                     "@njit(cache=True)\ndef g():\n    return f() + 1.0\n")
    return root, game / "probe_a.py"


def edit(probe_a):
    probe_a.write_text(probe_a.read_text().replace("return 1.0", "return 2.0"))


def test_editing_a_callee_recompiles_its_callers(tmp_path):
    root, probe_a = package_copy(tmp_path)
    assert run(root, "ours") == 2.0
    assert run(root, "ours") == 2.0  # served from the cache
    assert list((probe_a.parent / "__pycache__").glob("sweeper-*/probe_b.g-*.nbi")), "the kernel was not cached"
    edit(probe_a)
    assert run(root, "ours") == 3.0


def test_numba_alone_would_serve_the_stale_kernel(tmp_path):
    root, probe_a = package_copy(tmp_path)
    assert run(root, "plain") == 2.0
    edit(probe_a)
    assert run(root, "plain") == 2.0  # stale: the reason for sweeper/kernel_cache.py


def test_an_index_written_by_other_sources_is_never_opened():
    """numba unpickles a cache index before it compares stamps, so an index that names a module since renamed
    would raise on load (seen when agents/rules.py became agents/kernels.py): each fingerprint has its own folder."""
    from sweeper import kernel_cache
    from sweeper.agents import kernels
    locator = kernel_cache.PackageInTreeLocator(kernels.choose_greedy.py_func, kernels.__file__)
    assert Path(locator.get_cache_path()).name == f"sweeper-{kernel_cache.kernel_fingerprint()[:16]}"
