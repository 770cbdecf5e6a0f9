"""The machine a result is computed on, and the pin of torch's CPU instruction set.

torch (the optional extra ``deep``) chooses its CPU kernels by the processor's instruction set: on a machine with
AVX-512 its convolutions and matrix products run other code than with AVX2, whose float sums are rounded in
another order. Each run is still deterministic on its machine, but a network trained for thousands of games ends
elsewhere: a 1-layer beginner network trained for 7,500 games differed from its 2,101st game on between the two
when this was measured, and so did a ``deep_ppo`` run. Pinned to AVX2 (:data:`CPU_PIN`), an AVX-512 machine reproduces the
stored runs (values and weights bit for bit), as this package's stored runs were made on an AVX2 machine.

:func:`pin_cpu` sets the three variables of :data:`CPU_PIN` in ``os.environ``; the package calls it before it
first imports torch (:func:`sweeper.agents.neural.import_extra`, the one place it imports torch, Stable-Baselines3
and sb3-contrib), so the pin holds in every process that runs a torch task, worker processes included. Rules:

* a variable the user has already set is kept as it is (an explicit choice: another pin, or ``default`` to
  measure torch's own kernels); provenance records the value in force;
* on a CPU without AVX2 (an older x86, an ARM machine) nothing is pinned: ``avx2`` there would make torch run
  instructions the CPU lacks. torch then runs its own kernels, and the stored torch runs may not come out the same.

Unpinned on an AVX-512 machine, the stored runs do not come out bit for bit, but in that measurement their
conclusions held: a beginner network trained for 75,000 games won 0.871 of its beginner test games against the 0.858
of its pinned run, inside that run's 95% interval (0.835 to 0.878).

:func:`machine` is the one home of the machine's facts: every stored run's provenance records them
(:func:`sweeper.experiments.provenance.provenance`), and so do the bench and the timed reproduction. While a
measurement runs, :class:`LoadWatch` reads what the other processes use (``/proc/stat``) and
:func:`alone_on_one_cpu` pins this process to one CPU (the bench's unit costs, :mod:`sweeper.bench`).
"""

from __future__ import annotations

import os
import platform
import re
import sys
import time
from contextlib import contextmanager
from pathlib import Path

#: The environment variables that pin torch's CPU kernels to AVX2: ATen's own kernels (``ATEN_CPU_CAPABILITY``),
#: oneDNN's convolutions (``ONEDNN_MAX_CPU_ISA``) and MKL's (``MKL_ENABLE_INSTRUCTIONS``).
CPU_PIN = {"ATEN_CPU_CAPABILITY": "avx2", "ONEDNN_MAX_CPU_ISA": "AVX2", "MKL_ENABLE_INSTRUCTIONS": "AVX2"}
#: The instruction-set flags that decide which CPU kernels torch runs (``avx512`` stands for every AVX-512 flag).
ISA_FLAGS = re.compile(r"^(avx|avx2|fma|avx512.*|avx_vnni.*|amx.*)$")


def _cpuinfo() -> tuple[str | None, list[str] | None]:
    """The CPU model and its flags from ``/proc/cpuinfo`` (Linux), each None where it says nothing."""
    model = flags = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            key = key.strip().lower()
            if key == "model name" and model is None:
                model = value.strip()
            elif key == "flags" and flags is None:
                flags = value.split()
    except OSError:
        pass
    return model, flags


def instruction_sets() -> list[str] | None:
    """The instruction-set flags of :data:`ISA_FLAGS` this CPU has, sorted (``/proc/cpuinfo``; elsewhere LLVM's view
    of the host through llvmlite, which numba brings), or None where neither says."""
    _, flags = _cpuinfo()
    if flags is None:
        try:
            import llvmlite.binding as llvm
            flags = [k for k, v in llvm.get_host_cpu_features().items() if v]
        except Exception:  # noqa: BLE001 (no llvmlite, or it cannot read this host: unknown)
            return None
    return sorted(f for f in set(flags) if ISA_FLAGS.match(f))


def cpu_pin() -> dict:
    """The pin in force (or to be set by :func:`pin_cpu` before torch is imported): each variable of
    :data:`CPU_PIN` -> the user's value where one is set, else the pin's where the CPU has AVX2, else None."""
    avx2 = "avx2" in (instruction_sets() or [])
    return {k: os.environ.get(k, v if avx2 else None) for k, v in CPU_PIN.items()}


def pin_cpu() -> dict:
    """Set the pin (:func:`cpu_pin`) in ``os.environ`` before torch is imported, leaving a value the user has set;
    returns it. Called by the package wherever it imports torch; calling it again changes nothing."""
    pin = cpu_pin()
    for key, value in pin.items():
        if value is not None:
            os.environ.setdefault(key, value)
    return pin


def torch_version() -> str | None:
    """torch's version if it is imported or installed (read from its package metadata: torch is never imported
    here), else None."""
    if "torch" in sys.modules:
        return str(sys.modules["torch"].__version__)
    try:
        from importlib.metadata import PackageNotFoundError, version
        return version("torch")
    except PackageNotFoundError:
        return None


def machine() -> dict:
    """The facts of this machine that results and measurements are recorded with: ``cpu`` (the CPU model),
    ``cores``, ``system`` (the operating system), ``architecture`` (``x86_64``, ``arm64``...), ``isa`` (the
    instruction-set flags of :data:`ISA_FLAGS` the CPU has; None if unknown), ``cpu_pin`` (:func:`cpu_pin`: torch's
    instruction set pinned or not) and, only where torch is already imported (never imported here),
    ``torch_cpu_capability``: the instruction set torch's kernels run (``AVX2``, ``AVX512``, ``DEFAULT``)."""
    model, _ = _cpuinfo()
    facts = {"cpu": model or platform.processor() or platform.machine(), "cores": os.cpu_count(),
             "system": platform.system(), "architecture": platform.machine(), "isa": instruction_sets(),
             "cpu_pin": cpu_pin()}
    torch = sys.modules.get("torch")
    if torch is not None:
        try:
            facts["torch_cpu_capability"] = str(torch.backends.cpu.get_cpu_capability())
        except Exception:  # noqa: BLE001 (a torch without the call: unknown)
            facts["torch_cpu_capability"] = None
    return facts


#: Clock ticks per second, the unit of ``/proc/stat``.
CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") and "SC_CLK_TCK" in os.sysconf_names else 100


def busy_ticks() -> int | None:
    """The CPU time every process has used since boot, summed over every CPU, in clock ticks (``/proc/stat``: user,
    nice, system, irq, softirq and steal, the time the hypervisor gave to others; not idle or iowait; guest time is
    inside user); None where the file cannot be read (not Linux)."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
    except OSError:
        return None
    if len(fields) < 5 or fields[0] != "cpu":
        return None
    v = [int(x) for x in fields[1:9]] + [0] * (9 - len(fields[1:9]))
    return v[0] + v[1] + v[2] + v[5] + v[6] + v[7]


class LoadWatch:
    """What this process and the others use while a block runs: ``with LoadWatch() as w: ...`` sets ``w.wall``
    (seconds), ``w.cpu`` (this process's CPU seconds, every thread: :func:`time.process_time`), ``w.other`` (every
    other process's CPU seconds: the machine's busy time from ``/proc/stat`` less this process's; None where
    ``/proc/stat`` cannot be read) and ``w.other_load`` (``other`` per second of wall time: cores)."""

    def __enter__(self):
        self._ticks, self._cpu, self._wall = busy_ticks(), time.process_time(), time.perf_counter()
        self.wall = self.cpu = self.other = None
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self._wall
        self.cpu = time.process_time() - self._cpu
        ticks = busy_ticks()
        self.other = None if ticks is None or self._ticks is None else \
            max(0.0, (ticks - self._ticks) / CLOCK_TICKS - self.cpu)
        return False

    @property
    def other_load(self) -> float | None:
        return None if self.other is None else self.other / max(self.wall, 1e-9)


def other_load_now(seconds: float = 1.0) -> float | None:
    """Cores other processes use now: their CPU over ``seconds`` of this process sleeping (None without
    ``/proc/stat``)."""
    with LoadWatch() as w:
        time.sleep(seconds)
    return w.other_load


def _threads() -> list[int]:
    try:
        return [int(t) for t in os.listdir("/proc/self/task")]
    except OSError:
        return [0]


@contextmanager
def alone_on_one_cpu():
    """Pin this process, every thread of it, to one CPU (the last it may run on: the first often serves the
    interrupts) while the block runs, then give it back every CPU it had; yields what was done: ``pinned_cpu``
    (None where ``os.sched_setaffinity`` is missing, not Linux), ``allowed_cpus`` and ``pinning``. The work
    measured in the block runs in one thread (torch is set to one, :func:`~sweeper.agents.neural.require_torch`)."""
    if not hasattr(os, "sched_setaffinity"):
        yield {"pinned_cpu": None, "allowed_cpus": os.cpu_count(),
               "pinning": "none: os.sched_setaffinity is not available on this system"}
        return
    before = os.sched_getaffinity(0)
    cpu = max(before)
    for tid in _threads():
        try:
            os.sched_setaffinity(tid, {cpu})
        except OSError:  # a thread that ended meanwhile
            pass
    try:
        yield {"pinned_cpu": cpu, "allowed_cpus": sorted(before),
               "pinning": "os.sched_setaffinity, every thread of the process"}
    finally:
        for tid in _threads():
            try:
                os.sched_setaffinity(tid, before)
            except OSError:
                pass


__all__ = ["CPU_PIN", "ISA_FLAGS", "instruction_sets", "cpu_pin", "pin_cpu", "torch_version", "machine", "CLOCK_TICKS",
           "busy_ticks", "LoadWatch", "other_load_now", "alone_on_one_cpu"]
