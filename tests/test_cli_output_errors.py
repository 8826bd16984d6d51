"""Output that cannot be written: a reader that closed the pipe ends a command
quietly with 141, as a shell's SIGPIPE would; a full disk is one line and 74
(EX_IOERR); never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bonanza.cli import EXIT_BROKEN_PIPE, EXIT_OUTPUT_ERROR

BUFFERING = {
    "buffered": {},
    "unbuffered": {"PYTHONUNBUFFERED": "1"},
}
"""Python's stdout either way: a write fails at once, or at a later flush."""
FULL = "/dev/full"
"""A device every write to fails with ENOSPC, as on a full disk."""


def bonanza_into(stdout: int, argv: list[str], buffering: str) -> tuple[int, str]:
    """Exit status and stderr of ``python -m bonanza ARGV`` writing into ``stdout``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    done = subprocess.run(
        [sys.executable, "-m", "bonanza", *argv], stdout=stdout, stderr=subprocess.PIPE,
        text=True, env={**env, **BUFFERING[buffering]}, timeout=120, check=False,
    )
    return done.returncode, done.stderr


def into_closed_pipe(argv: list[str], buffering: str) -> tuple[int, str]:
    """``bonanza_into`` a pipe whose reader has gone."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return bonanza_into(writer, argv, buffering)
    finally:
        os.close(writer)


@pytest.mark.parametrize("buffering", list(BUFFERING))
@pytest.mark.parametrize("argv", [["--version"], ["--version", "solve", "7"], ["deal", "5"]])
def test_a_closed_pipe_ends_quietly_with_141(argv: list[str], buffering: str) -> None:
    assert into_closed_pipe(argv, buffering) == (EXIT_BROKEN_PIPE, "")


def test_help_into_a_closed_pipe_ends_quietly() -> None:
    # (argparse itself drops a failed write of the help: unbuffered, it ends 0.)
    assert into_closed_pipe(["solve", "--help"], "buffered") == (EXIT_BROKEN_PIPE, "")


@pytest.mark.skipif(not os.path.exists(FULL), reason=f"no {FULL}")
@pytest.mark.parametrize("buffering", list(BUFFERING))
@pytest.mark.parametrize(("argv", "prefix"), [
    (["deal", "5"], "bonanza deal"),
    (["solve", "5", "--json"], "bonanza solve"),
    (["--version"], "bonanza"),
])
def test_a_full_disk_is_one_line_and_status_74(
    argv: list[str], prefix: str, buffering: str,
) -> None:
    with open(FULL, "w") as full:
        status, err = bonanza_into(full.fileno(), argv, buffering)
    assert (status, err) == (
        EXIT_OUTPUT_ERROR, f"{prefix}: cannot write the output: No space left on device\n"
    )
