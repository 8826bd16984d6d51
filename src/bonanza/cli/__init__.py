"""The `bonanza` command: one subcommand per module in this package.

Each subcommand module defines ``register(subparsers)``, which adds its parser
and sets ``func`` (taking the parsed ``argparse.Namespace``, returning an exit
status) as the parser's default.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import signal
import sys
from collections.abc import Sequence
from contextvars import ContextVar
from typing import Any, Final, NoReturn

from bonanza.core.errors import BonanzaError, InternalError

COMMANDS = ("deal", "play", "serve", "solve", "analyze", "report", "autoplay", "db")
EXIT_BAD_INPUT: Final = 2
EXIT_INTERNAL_ERROR: Final = 70  # EX_SOFTWARE of sysexits.h: a bug, not the user's input
# What a shell reports for a process killed by the signal.
EXIT_INTERRUPTED: Final = 128 + signal.SIGINT
EXIT_TERMINATED: Final = 128 + signal.SIGTERM
EXIT_BROKEN_PIPE: Final = 128 + signal.SIGPIPE
EXIT_WORKER_LOST: Final = 71  # EX_OSERR of sysexits.h: the system ended a worker
EXIT_OUTPUT_ERROR: Final = 74  # EX_IOERR of sysexits.h: the output could not be written
OUTPUT_ERRNOS: Final = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})
"""Errors of a write the system could not take (a full disk or quota, a file too
large, a device's I/O error): without a file name, they are the output's
(stdout, as a write to it names no file, or an open ``--out`` file)."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, where a command handles it as Ctrl-C (``analyze`` and ``autoplay`` stop
    their workers, keep their rows and print their summary), with its own status."""


class WorkerLost(RuntimeError):
    """A worker process of ``analyze`` or ``autoplay`` ended while it had a task (killed,
    as by the kernel when memory runs out): the run stops, its rows written kept."""


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, ``bonanza COMMAND: message``
    (no usage block; ``--help`` shows it), with exit status 2."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: {message}", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        # After --help: argparse drops a failed write of it, but what is left
        # unwritten fails here, within main's handlers, rather than at exit.
        sys.stdout.flush()
        super().exit(status, message)


def version() -> str:
    """The installed distribution's version, or the package's ``__version__`` when
    the source tree is imported without being installed."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as distribution_version

    try:
        return distribution_version("bonanza")
    except PackageNotFoundError:
        from bonanza import __version__

        return __version__


class _VersionAction(argparse.Action):
    """``--version``: print ``bonanza <version>`` and exit 0 (the version is read only
    when asked for, not at every start)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest=argparse.SUPPRESS, nargs=0, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> NoReturn:
        print(f"bonanza {version()}")
        sys.stdout.flush()  # a write error raised here reaches main's handlers
        parser.exit()


_COMMAND_NAMED: ContextVar[str | None] = ContextVar("_COMMAND_NAMED", default=None)
"""The command ``main``'s words name, while ``main`` builds its parser."""


def build_parser() -> argparse.ArgumentParser:
    """The ``bonanza`` parser, with every command's parser (each loads its module).

    Inside ``main``, whose words name a command, it has that command's parser
    alone, which parses the words the same and loads that command's module
    only: ``bonanza solve`` loads no web app, storage or terminal interface.
    """
    parser = OneLineParser(prog="bonanza", description="Klondike solitaire.")
    parser.add_argument("--version", action=_VersionAction, help="print the version and exit")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    named = _COMMAND_NAMED.get()
    for name in (named,) if named else COMMANDS:
        importlib.import_module(f"bonanza.cli.{name}").register(subparsers)
    return parser


def _silence_stdout() -> None:
    """Point stdout at the null device, so that flushing it at exit cannot fail again."""
    try:
        descriptor = sys.stdout.fileno()
    except (OSError, ValueError):  # not a real file (as under pytest's capture)
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)


def _flush_or_silence_stdout() -> None:
    """Flush stdout, or silence it where that fails, so that exit cannot fail again."""
    try:
        sys.stdout.flush()
    except OSError:
        _silence_stdout()


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; bad input, a closed pipe or Ctrl-C end it without a traceback.

    Bad input (a ``BonanzaError``, or an ``OSError`` on a named file) prints
    one line ``bonanza COMMAND: message`` and returns 2; Ctrl-C prints
    ``bonanza COMMAND: interrupted`` and returns 130 (SIGTERM, where a command
    turns it into ``Terminated``: ``terminated`` and 143); a reader closing stdout
    early ends the command quietly with 141; output that cannot be written (a
    full disk or an I/O error: ``OUTPUT_ERRNOS``) is one line ``cannot write the
    output: reason``, with 74; a bug caught by a self-check (an
    ``InternalError``, such as a solver line the engine refuses) is one line
    asking for a report, with 70; a worker process lost (``WorkerLost``) is one line,
    with 71. Other errors are bugs and propagate.
    """
    words = sys.argv[1:] if argv is None else list(argv)
    # Named before the commands' modules load, so that a Ctrl-C during that
    # (a second or more on a loaded machine) still names the command.
    named = words[0] if words and words[0] in COMMANDS else None
    prefix = f"bonanza {named}" if named else "bonanza"
    try:
        if words == ["--version"]:  # without loading every command's module to parse it
            print(f"bonanza {version()}")
            sys.stdout.flush()
            return 0
        # (The command named is passed aside, not as an argument: tests put
        # their own build_parser() in its place.)
        token = _COMMAND_NAMED.set(named)
        try:
            parser = build_parser()
        finally:
            _COMMAND_NAMED.reset(token)
        args, unknown = parser.parse_known_args(words)
        prefix = f"bonanza {args.command}"
        if unknown:  # named after the command they were given to
            print(f"{prefix}: unrecognized arguments: {' '.join(unknown)}", file=sys.stderr)
            return EXIT_BAD_INPUT
        status: int = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here rather than at exit
    except BonanzaError as error:
        print(f"{prefix}: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except InternalError as error:
        print(f"{prefix}: internal error, please report it: {error}", file=sys.stderr)
        return EXIT_INTERNAL_ERROR
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as error:
        if error.filename is None and error.errno in OUTPUT_ERRNOS:
            print(f"{prefix}: cannot write the output: {error.strerror}", file=sys.stderr)
            _flush_or_silence_stdout()
            return EXIT_OUTPUT_ERROR
        if error.filename is None:
            raise
        print(f"{prefix}: {error.filename}: {error.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except WorkerLost as error:
        print(f"{prefix}: {error}", file=sys.stderr)
        return EXIT_WORKER_LOST
    except Terminated:
        print(f"{prefix}: terminated", file=sys.stderr)
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        print(f"{prefix}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return status
