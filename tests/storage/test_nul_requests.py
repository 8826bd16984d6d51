"""NUL bytes in every path and ID of the API, on both backends (issue 31, item 9):
never a 5xx, always a named JSON error (PostgreSQL cannot hold NUL; SQLite can)."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from bonanza.storage import SQLiteStorage, Storage
from bonanza.web.app import create_app
from bonanza.web.routes import routes
from tests.servers import PostgresServer

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PARAM = re.compile(r"\{(\w+)(?::\w+)?\}")
NULS = ("\x00", "a\x00b", "%00", "x" * 10 + "\x00")
STATIC = ("/static/js/game.js{}", "/static/{}", "/static/js/{}x.js", "/{}")


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "sqlite":
        yield SQLiteStorage(tmp_path / "games.db")
        return
    from bonanza.storage.postgres import PostgresStorage

    server: PostgresServer = request.getfixturevalue("postgres_server")
    yield PostgresStorage(server.new_store())


def test_nul_bytes_anywhere_get_a_named_4xx(store: Storage) -> None:
    with TestClient(create_app(store), raise_server_exceptions=False) as client:
        own = client.post("/api/games", json={"deal": "0"}).json()["id"]
        sent = 0
        for route in routes:
            for method in sorted((route.methods or set()) - {"HEAD"}):
                for nul in NULS:
                    path = PARAM.sub(quote(nul, safe="%"), route.path)
                    answer = client.request(method, path, json={} if method != "GET" else None)
                    assert answer.status_code < 500, (method, path, answer.text)
                    if answer.status_code >= 400:
                        assert answer.json()["status"] == answer.status_code, (method, path)
                    sent += 1
        for nul in NULS:  # in a body's IDs too
            for body in ({"share": nul}, {"replay": nul}, {"deal": nul}, {"daily": nul}):
                answer = client.post("/api/games", json=body)
                assert 400 <= answer.status_code < 500, (body, answer.text)
                sent += 1
            for template in STATIC:
                answer = client.get(template.format(quote(nul, safe="%")))
                assert answer.status_code < 500, (template, nul, answer.text)
                sent += 1
        assert client.get(f"/api/games/{own}").status_code == 200  # the player plays on
        assert sent > len(routes) * len(NULS)
