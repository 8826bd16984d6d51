"""A real PostgreSQL server for the storage tests: ``initdb`` and ``pg_ctl`` in a temporary
folder, on a free port, for the whole session, stopped afterwards.

Without the server binaries (or psycopg) the PostgreSQL tests are skipped, except
in CI (``CI`` or ``BONANZA_REQUIRE_POSTGRES`` set), where they fail.
"""

from __future__ import annotations

import contextlib
import dataclasses
import glob
import itertools
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import free_port

START_SECONDS = 60
"""How long ``pg_ctl start`` may take on a loaded machine."""
SERVER_USER = "postgres"
"""The OS user that runs the server when the tests run as root (initdb refuses root)."""
DEBIAN_BINARIES = "/usr/lib/postgresql/*/bin"
OPENERS = 4
"""Processes' worth of stores opening one database at once."""
TEST_DATABASE = "bonanza_tests"


def postgres_required() -> bool:
    """Whether a missing PostgreSQL fails the tests (CI) instead of skipping them."""
    return bool(os.environ.get("CI") or os.environ.get("BONANZA_REQUIRE_POSTGRES"))


def unavailable(reason: str) -> None:
    """Skip the test, or fail it in CI."""
    if postgres_required():
        pytest.fail(f"PostgreSQL tests cannot run: {reason}")
    pytest.skip(reason)


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
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
            " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
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
            db.execute(f"CREATE SCHEMA {name}")  # type: ignore[arg-type]
        return f"{self.url(TEST_DATABASE)}?options=-csearch_path%3D{name}"


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the session (skipped without one, except in CI)."""
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError as error:
        unavailable(f"psycopg 3 is not installed ({error}): pip install -e '.[test]'")
    binaries = server_binaries()
    if binaries is None:
        unavailable("initdb and pg_ctl were not found (apt-get install postgresql)")
        return
    folder = Path(tempfile.mkdtemp(prefix="bonanza-pg-"))  # short: the socket's path must fit
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(folder, SERVER_USER)
        as_user = ["runuser", "-u", SERVER_USER, "--"]
    server = PostgresServer(binaries, folder, free_port(), as_user)
    try:
        server.start()
    except subprocess.CalledProcessError as error:
        log = folder / "server.log"
        detail = log.read_text() if log.exists() else ""
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
        pytest.fail(f"PostgreSQL did not start: {error.stderr.decode()}{detail}")
    yield server
    server.stop()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of a new, empty store on the session's server."""
    return postgres_server.new_store()


def open_at_once(open_store: Callable[[], Any], count: int = OPENERS) -> list[Any]:
    """``count`` stores opened by as many threads at once (one database starting in
    several processes); every one must open."""
    opened: list[Any] = []
    failed: list[BaseException] = []
    start = threading.Barrier(count)

    def open_one() -> None:
        start.wait()
        try:
            opened.append(open_store())
        except BaseException as error:
            failed.append(error)

    threads = [threading.Thread(target=open_one) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failed == [] and len(opened) == count
    return opened
