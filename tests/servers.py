"""Servers that tests and benchmarks start: ``bonanza serve`` in a subprocess, and a
throwaway PostgreSQL (``initdb`` and ``pg_ctl`` in a temporary folder).

No pytest here: ``benchmarks/`` uses these too.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import glob
import itertools
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

STARTUP_SECONDS = 30
"""How long a ``bonanza serve`` may take to answer on a loaded machine."""
START_SECONDS = 60
"""How long ``pg_ctl start`` may take on a loaded machine."""
SERVER_USER = "postgres"
"""The OS user that runs PostgreSQL when the tests run as root (initdb refuses root)."""
DEBIAN_BINARIES = "/usr/lib/postgresql/*/bin"
TEST_DATABASE = "bonanza_tests"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Server:
    """A ``bonanza serve`` subprocess on a loopback port."""

    db: Path | str
    """The store: a SQLite file, or a PostgreSQL URL."""
    port: int
    args: tuple[str, ...] = ()
    """More options for ``bonanza serve``."""
    environment: dict[str, str] = dataclasses.field(default_factory=dict)
    """More environment variables for it."""
    settings_from_environment: bool = False
    """Give the port and the store as ``BONANZA_PORT`` and ``BONANZA_DB``, not options."""
    log_path: Path | None = None
    """Where its output goes (default: beside a SQLite file, else a temporary folder)."""
    merge_output: bool = True
    """Its stdout in the log too (else only its stderr: the logs, no start-up line)."""
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @functools.cached_property
    def log(self) -> Path:
        """Where the server's output goes (its request log among it)."""
        if self.log_path is not None:
            return self.log_path
        if isinstance(self.db, Path):
            return self.db.with_suffix(".log")
        return Path(tempfile.mkdtemp(prefix="bonanza-serve-")) / "server.log"

    def command(self) -> tuple[list[str], dict[str, str]]:
        """The command line and environment that start it."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.environment}
        command = [sys.executable, "-m", "bonanza", "serve", *self.args]
        if self.settings_from_environment:
            env |= {"BONANZA_PORT": str(self.port), "BONANZA_DB": str(self.db)}
        else:
            command += ["--port", str(self.port), "--db", str(self.db)]
        return command, env

    def start(self, seconds: float = STARTUP_SECONDS) -> Server:
        """Start it and wait until it answers (or fail)."""
        command, env = self.command()
        # A file, not a pipe: the server logs every request, and a pipe nobody
        # reads would block it once full.
        with self.log.open("ab") as log:
            stdout = log if self.merge_output else subprocess.DEVNULL
            self.process = subprocess.Popen(command, env=env, stdout=stdout, stderr=log)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early: {self.log.read_text()}")
            try:
                httpx.get(self.url + "/static/style.css", timeout=1)
                return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


def server_binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``: on the PATH, else Debian's newest."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).resolve().parent
    versions = sorted(
        glob.glob(DEBIAN_BINARIES), key=lambda p: int(Path(p).parent.name), reverse=True
    )
    for folder in versions:
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


@dataclass
class PostgresServer:
    """A throwaway PostgreSQL server; :meth:`new_database` gives each test its own database."""

    binaries: Path
    folder: Path
    port: int
    as_user: list[str]
    durable: bool = False
    """Commits reach the disk (PostgreSQL's defaults); else fsync and synchronous
    commits are off, which only a crash of the machine would notice."""
    _names: Iterator[int] = dataclasses.field(default_factory=itertools.count)
    _stores: Iterator[int] = dataclasses.field(default_factory=itertools.count)

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def run(self, tool: str, *args: str) -> None:
        subprocess.run(
            [*self.as_user, str(self.binaries / tool), *args],
            cwd=self.folder,
            check=True,
            capture_output=True,
            timeout=START_SECONDS,
        )

    def start(self) -> PostgresServer:
        self.run(
            "initdb",
            "-D",
            str(self.data),
            "-A",
            "trust",
            "-U",
            SERVER_USER,
            "-E",
            "UTF8",
            "--no-sync",
            "--no-instructions",
        )
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self.run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.folder / "server.log"),
            "-w",
            "-t",
            str(START_SECONDS),
            "start",
        )
        return self

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self.run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def url(self, database: str = SERVER_USER) -> str:
        return f"postgresql://{SERVER_USER}@127.0.0.1:{self.port}/{database}"

    def new_store(self) -> str:
        """The URL of a new, empty store: a schema of its own in the tests' database
        (made in a millisecond, where a database takes about one second)."""
        import psycopg

        if next(self._stores) == 0:
            with psycopg.connect(self.url(), autocommit=True) as db:
                db.execute(f"CREATE DATABASE {TEST_DATABASE}")
        name = f"store_{next(self._names)}"
        with psycopg.connect(self.url(TEST_DATABASE), autocommit=True) as db:
            db.execute(f"CREATE SCHEMA {name}")
        return f"{self.url(TEST_DATABASE)}?options=-csearch_path%3D{name}"




class PostgresUnavailable(Exception):
    """No PostgreSQL can be started here (the reason is the message)."""


@contextlib.contextmanager
def throwaway_postgres(durable: bool = False) -> Iterator[PostgresServer]:
    """A PostgreSQL server in a temporary folder on a free port, stopped and removed
    afterwards. Run as root, it runs as ``SERVER_USER`` (initdb refuses root).
    :class:`PostgresUnavailable` without psycopg or the server binaries; a
    :class:`RuntimeError` with the server's log if it does not start."""
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError as error:
        raise PostgresUnavailable(
            f"psycopg 3 is not installed ({error}): pip install -e '.[test]'"
        ) from None
    binaries = server_binaries()
    if binaries is None:
        raise PostgresUnavailable("initdb and pg_ctl were not found (apt-get install postgresql)")
    folder = Path(tempfile.mkdtemp(prefix="bonanza-pg-"))  # short: the socket's path must fit
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(folder, SERVER_USER)
        as_user = ["runuser", "-u", SERVER_USER, "--"]
    server = PostgresServer(binaries, folder, free_port(), as_user, durable)
    try:
        try:
            server.start()
        except subprocess.CalledProcessError as error:
            log = folder / "server.log"
            detail = log.read_text() if log.exists() else ""
            message = f"PostgreSQL did not start: {error.stderr.decode()}{detail}"
            raise RuntimeError(message) from None
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"
