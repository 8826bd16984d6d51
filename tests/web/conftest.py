"""Fixtures: the app in process, a real server in a subprocess, and headless Chromium."""

from __future__ import annotations

import functools
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

with warnings.catch_warnings():
    # Starlette 1.x suggests httpx2 for its TestClient; httpx works the same here.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from bonanza.storage import SQLiteStorage
from bonanza.web import create_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The app in process on a fresh database, as one player (one cookie jar)."""
    app = create_app(SQLiteStorage(tmp_path / "games.db"))
    with TestClient(app) as test_client:
        yield test_client


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
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @functools.cached_property
    def log(self) -> Path:
        """Where the server's output goes (its request log among it)."""
        if isinstance(self.db, Path):
            return self.db.with_suffix(".log")
        return Path(tempfile.mkdtemp(prefix="bonanza-serve-")) / "server.log"

    def start(self) -> Server:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        command = [sys.executable, "-m", "bonanza", "serve", "--port", str(self.port),
                   "--db", str(self.db)]
        # A file, not a pipe: the server logs every request, and a pipe nobody
        # reads would block it once full.
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
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


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("server") / "games.db", free_port()).start()
    yield srv
    srv.stop()


# Package scope: closed after tests/web, as its running event loop stops later anyio tests.
@pytest.fixture(scope="package")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        message = f"browser tests need Debian's chromium at {CHROMIUM}"
        if os.environ.get("BONANZA_REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def table(browser: Any, server: Server) -> Iterator[Any]:
    """A fresh player (new browser context, new cookie) on a desktop-sized page."""
    from .browser import Table

    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield Table(page, server.url)
    context.close()
    assert not errors, errors


@pytest.fixture
def phone(browser: Any, server: Server) -> Iterator[Any]:
    """A fresh player on a phone in portrait (390x844, touch)."""
    from .browser import Table

    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        reduced_motion="reduce",
    )
    page = context.new_page()
    yield Table(page, server.url)
    context.close()
