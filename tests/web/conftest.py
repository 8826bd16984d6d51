"""Fixtures: the app in process, a real server in a subprocess, and headless Chromium."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    # Starlette 1.x suggests httpx2 for its TestClient; httpx works the same here.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from bonanza.storage import SQLiteStorage
from bonanza.web import create_app
from tests.servers import Server, free_port

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


NEW_GAMES_PER_MINUTE = "1000"
"""The browser tests' server's limit: every test's new player comes from this one address,
and a new player's page carries their first deal only within the limit."""


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("server") / "games.db"
    srv = Server(db, free_port(), args=("--new-games-per-minute", NEW_GAMES_PER_MINUTE)).start()
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
