"""`make lab` starts JupyterLab on the book: the server answers, lists the chapters, and a kernel it starts
imports the package and ipywidgets."""

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
VENV = Path(sys.prefix)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _call(url, method="GET", timeout=5):
    """(HTTP status, body: parsed JSON, or text for a page)."""
    req = urllib.request.Request(url, method=method, data=b"{}" if method == "POST" else None,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        body = r.read().decode()
        if r.headers.get_content_type() == "application/json":
            return r.status, json.loads(body)
        return r.status, body


def _wait(what, check, proc, log, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"`make lab` exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            got = check()
            if got:
                return got
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.5)
    pytest.fail(f"{what} within {seconds} s; server log:\n{log.read_text()[-3000:]}")


def _execute(url, code, seconds=90) -> str:
    """Run code on a kernel through the server's websocket, as JupyterLab does; returns its printed output."""
    websocket = pytest.importorskip("websocket")
    ws = websocket.create_connection(url, timeout=seconds)
    try:
        msg_id = secrets.token_hex(8)
        ws.send(json.dumps({"header": {"msg_id": msg_id, "msg_type": "execute_request", "username": "test",
                                       "session": secrets.token_hex(8), "version": "5.3"},
                            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
                            "content": {"code": code, "silent": False, "store_history": False,
                                        "user_expressions": {}, "allow_stdin": False}}))
        printed, deadline = "", time.monotonic() + seconds
        while time.monotonic() < deadline:
            m = json.loads(ws.recv())
            if m.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            if m["msg_type"] == "stream":
                printed += m["content"]["text"]
            elif m["msg_type"] == "error":
                pytest.fail(f"the kernel failed: {m['content']['ename']}: {m['content']['evalue']}")
            elif m["msg_type"] == "execute_reply":
                return printed
        pytest.fail(f"no reply from the kernel within {seconds} s")
    finally:
        ws.close()



@contextlib.contextmanager
def make_lab(tmp_path, *extra_env):
    """`make lab` (the Makefile's own target, on the venv running these tests; -o: never reinstall it) on a free
    port with a fresh token, stopped on exit: yields (process, log file, port, token)."""
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"), JUPYTER_CONFIG_DIR=str(tmp_path / "config"),
               JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "workspaces"))
    args = (f"--no-browser --ServerApp.ip=127.0.0.1 --ServerApp.port={port} --ServerApp.port_retries=0 "
            f"--IdentityProvider.token={token}")
    cmd = ["make", "--no-print-directory", "-o", str(VENV / ".installed"), "lab", f"VENV={VENV}", f"LAB_ARGS={args}"]
    log = tmp_path / "lab.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        yield proc, log, port, token
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=15)
        except ProcessLookupError:
            pass


def test_make_lab_serves_the_book(tmp_path):
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    if not (VENV / "bin" / "jupyter").exists():
        pytest.skip(f"no jupyter in {VENV}")
    with make_lab(tmp_path) as (proc, log, port, token):
        base, auth = f"http://127.0.0.1:{port}", f"token={token}"
        status = _wait("no answer from /api/status", lambda: _call(f"{base}/api/status?{auth}")[1], proc, log, 90)
        assert "started" in status
        with pytest.raises(urllib.error.HTTPError):  # the token is required
            _call(f"{base}/api/status")
        _, book = _call(f"{base}/api/contents/book?{auth}")
        names = {c["name"] for c in book["content"]}
        assert {"05_bandits_flags.ipynb", "10_patterns.ipynb", "reference_rules.md"} <= names
        code, page = _call(f"{base}/lab/tree/book/05_bandits_flags.ipynb?{auth}", timeout=15)
        assert code == 200 and "jupyter" in page.lower()
        with urllib.request.urlopen(f"{base}/?{auth}", timeout=15) as r:  # opens on the book's folder
            assert r.url.split("?")[0].endswith("/lab/tree/book")
        _, kernel = _call(f"{base}/api/kernels?{auth}", method="POST", timeout=30)
        out = _execute(f"ws://127.0.0.1:{port}/api/kernels/{kernel['id']}/channels?{auth}",
                       "import ipywidgets, sweeper; print(sweeper.Episode.__name__, ipywidgets.__version__)")
        assert out.startswith("Episode ")
        _call(f"{base}/api/kernels/{kernel['id']}?{auth}", method="DELETE")
