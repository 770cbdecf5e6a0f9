"""Kernels started side by side cannot be handed the same port (book/_ext/ipc_kernels.py).

Over TCP the starting process picks five free ports and closes them before the kernel binds them, so two
notebooks executed at once (``make book``'s parallel reading, ``make test``'s two nbval workers) could race for
one port. The root conftest.py makes IPC the transport of every kernel the tests start; this starts two kernels at
once and checks that both run over Unix sockets with distinct, short socket paths."""

import os

from jupyter_client.manager import start_new_kernel


def test_the_tests_kernels_talk_over_unix_sockets():
    kernels = [start_new_kernel(kernel_name="python3") for _ in range(2)]
    try:
        infos = [km.get_connection_info() for km, _ in kernels]
        assert [i["transport"] for i in infos] == ["ipc", "ipc"]
        paths = [f"{i['ip']}-{i[name]}" for i in infos for name in ("shell_port", "iopub_port", "stdin_port",
                                                                    "control_port", "hb_port")]
        assert len(set(paths)) == 10                       # no socket shared between the two kernels
        assert all(len(p.encode()) < 107 for p in paths)   # within a Unix socket path's limit
        assert all(p.startswith(os.environ["SWEEPER_KERNEL_SOCKETS"]) for p in paths)
        for km, kc in kernels:
            reply = kc.execute_interactive("x = 6 * 7", timeout=60)
            assert reply["content"]["status"] == "ok"
    finally:
        for km, kc in kernels:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
