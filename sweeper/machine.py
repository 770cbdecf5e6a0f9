"""What machine a result was measured on: the facts recorded beside every CPU time.

A CPU second on one machine is not a CPU second on another, and torch's kernels pick their instructions from the
processor (so a network trained on an AVX-512 machine can differ from one trained on an AVX2 machine from the same
seed). :func:`machine` gathers, without importing torch, the facts a reader needs to compare or repeat a
measurement: the processor's model and the instruction-set extensions that change numerical kernels, the core count,
and the versions of Python, NumPy, numba and (when installed) torch.
"""

from __future__ import annotations

import os
import platform
import sys
from importlib import metadata

#: The instruction-set extensions recorded (those that change which vector kernels numba and torch run).
ISA_FLAGS = ("sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512_vnni", "avx512_bf16",
             "amx_tile", "neon", "asimd", "sve")
#: The environment variables that pin torch's CPU kernels to an instruction set (recorded as they are set).
TORCH_PIN_VARIABLES = ("ATEN_CPU_CAPABILITY", "ONEDNN_MAX_CPU_ISA", "MKL_ENABLE_INSTRUCTIONS")


def _cpuinfo() -> tuple[str, list[str]]:
    """The processor's model name and flags from ``/proc/cpuinfo`` (Linux); else ``platform``'s and none."""
    model, flags = platform.processor() or platform.machine(), []
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                key, _, value = line.partition(":")
                key = key.strip().lower()
                if key == "model name" and value.strip():
                    model = value.strip()
                elif key in ("flags", "features") and not flags:
                    flags = value.split()
                if key == "" and flags and model:
                    break
    except OSError:
        pass
    return model, flags


def _version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def machine() -> dict:
    """The facts of this machine and environment, as plain JSON-ready data.

    Returns
    -------
    dict
        ``cpu`` (the processor's model name), ``arch`` (``x86_64``, ``aarch64`` ...), ``isa`` (the extensions
        of :data:`ISA_FLAGS` this processor has), ``cores`` (logical cores), ``system``, ``python``, ``numpy``,
        ``numba``, ``torch`` (None when not installed; read from the package's metadata, torch is not imported)
        and ``torch_pin`` (the values of :data:`TORCH_PIN_VARIABLES` in this process, None where unset).
    """
    model, flags = _cpuinfo()
    have = set(flags)
    return {"cpu": model, "arch": platform.machine(), "isa": [f for f in ISA_FLAGS if f in have],
            "cores": os.cpu_count(), "system": platform.system(), "python": sys.version.split()[0],
            "numpy": _version("numpy"), "numba": _version("numba"), "torch": _version("torch"),
            "torch_pin": {v: os.environ.get(v) for v in TORCH_PIN_VARIABLES}}
