"""How ``bonanza serve`` ends on a signal, alone or with ``--workers 2``: Ctrl-C (SIGINT)
with ``bonanza serve: interrupted`` and status 130, as ``analyze`` and ``autoplay`` end on
it (it ended with 0, as if nothing had stopped it); SIGTERM by the signal itself (143 as a
shell shows it, a clean stop to a service manager), as SIGHUP does (129)."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from bonanza.cli import EXIT_INTERRUPTED
from tests.servers import Server, free_port

STOP_SECONDS = 30.0


def stopped(tmp_path: Path, sig: signal.Signals, *args: str) -> tuple[int, str]:
    """A real server started on a free port, then sent ``sig``: its exit status (negative:
    ended by a signal) and its output."""
    server = Server(tmp_path / "games.db", free_port(), args=args).start()
    assert server.process is not None
    try:
        server.process.send_signal(sig)
        status = server.process.wait(STOP_SECONDS)
    finally:
        server.stop()
    return status, server.log.read_text()


@pytest.mark.parametrize("args", [(), ("--workers", "2")], ids=["one process", "2 workers"])
def test_ctrl_c_ends_serve_with_status_130_and_says_interrupted(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    status, output = stopped(tmp_path, signal.SIGINT, *args)
    assert status == EXIT_INTERRUPTED
    assert output.endswith("bonanza serve: interrupted\n") and "Traceback" not in output


@pytest.mark.parametrize("args", [(), ("--workers", "2")], ids=["one process", "2 workers"])
def test_sigterm_ends_serve_by_the_signal(tmp_path: Path, args: tuple[str, ...]) -> None:
    status, output = stopped(tmp_path, signal.SIGTERM, *args)
    assert status == -signal.SIGTERM  # 143 in a shell
    assert "Traceback" not in output and "interrupted" not in output
