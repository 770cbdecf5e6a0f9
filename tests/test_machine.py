"""Issue 49, item 3: torch's CPU instruction set is pinned before the package first imports torch, and every stored
run's provenance records the machine (CPU model, instruction sets, the pin in force, numba's and torch's versions)."""

import json
import os
import subprocess
import sys
import textwrap

import pandas as pd
import pytest

import sweeper.machine as machine
from sweeper.experiments.reproduce import REPO
from sweeper.experiments.runner import Output, Store, Task, provenance, run_tasks, task_kind

SPY = textwrap.dedent("""
    import builtins, json, os, sys
    PIN = {pin!r}
    seen = {{}}
    real = builtins.__import__
    def spy(name, *args, **kwargs):
        if name.split(".")[0] in ("torch", "stable_baselines3", "sb3_contrib"):
            seen.setdefault("env", {{k: os.environ.get(k) for k in PIN}})  # when torch's import starts
            raise ImportError("not imported by this test (it takes seconds)", name=name)
        return real(name, *args, **kwargs)
    builtins.__import__ = spy
    {entry}
    try:
        require()
    except ValueError:  # the extra "is missing": the import was attempted after the pin
        pass
    from sweeper.machine import machine
    print(json.dumps({{"env": seen.get("env"), "machine": machine()}}))
""")


def _spy(entry, **env):
    code = SPY.format(pin=machine.CPU_PIN, entry=entry)
    clean = {k: v for k, v in os.environ.items() if k not in machine.CPU_PIN}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=dict(clean, PYTHONPATH=str(REPO), **env))
    return json.loads(out.stdout.splitlines()[-1])


def test_the_pin_is_set_before_torch_is_first_imported():
    """Before: nothing pinned torch's instruction set, so an AVX-512 machine trained other networks. (That torch
    then runs AVX2 kernels is checked with the extra, in tests/test_neural.py.)"""
    if "avx2" not in (machine.instruction_sets() or []):
        pytest.skip("this CPU has no AVX2: nothing is pinned (test_nothing_is_pinned_on_a_cpu_without_avx2)")
    for entry in ("from sweeper.agents.neural import require_torch as require",
                  "from sweeper.experiments.deep_rl import require"):
        seen = _spy(entry)
        assert seen["env"] == machine.CPU_PIN, entry
        assert seen["machine"]["cpu_pin"] == machine.CPU_PIN


def test_a_value_the_user_set_is_kept_and_recorded():
    seen = _spy("from sweeper.agents.neural import require_torch as require", ATEN_CPU_CAPABILITY="default")
    assert seen["env"]["ATEN_CPU_CAPABILITY"] == "default"
    assert seen["machine"]["cpu_pin"]["ATEN_CPU_CAPABILITY"] == "default"


def test_nothing_is_pinned_on_a_cpu_without_avx2(monkeypatch):
    monkeypatch.setattr(machine, "instruction_sets", lambda: ["avx", "fma"])
    for k in machine.CPU_PIN:
        monkeypatch.delenv(k, raising=False)
    assert machine.pin_cpu() == {k: None for k in machine.CPU_PIN}
    assert not any(k in os.environ for k in machine.CPU_PIN)  # avx2 there would run instructions it lacks


@task_kind("test-machine")
def _one(x: int, label=None) -> Output:
    return Output(tables={"t": pd.DataFrame({"x": [x]})})


def test_every_run_records_the_machine_without_importing_torch(tmp_path):
    """Before: provenance named the architecture (x86_64) and the cores, not the CPU, its instruction sets or the
    pin; a bandit run must not import torch to say so."""
    code = ("import json, sys; from sweeper.experiments.runner import provenance; "
            "print(json.dumps([provenance(), 'torch' in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=dict(os.environ, PYTHONPATH=str(REPO)))
    prov, imported = json.loads(out.stdout)
    assert not imported
    m = prov["machine"]
    assert {"cpu", "cores", "system", "architecture", "isa", "cpu_pin"} <= set(m) and "torch_cpu_capability" not in m
    assert m["cpu"] and set(m["cpu_pin"]) == set(machine.CPU_PIN) and prov["numba"]
    assert "torch" in prov  # its version where installed (from its metadata), else None
    assert all(machine.ISA_FLAGS.match(f) for f in m["isa"] or [])
    store = Store(tmp_path)
    run_tasks([Task.make("test-machine", x=1)], store, progress=False)
    assert store.meta(Task.make("test-machine", x=1))["provenance"]["machine"] == provenance()["machine"]
