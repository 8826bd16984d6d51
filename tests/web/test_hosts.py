"""``allowed_hosts`` (``--allowed-hosts``): other ``Host`` headers get 400 in JSON."""

from __future__ import annotations

import warnings
from pathlib import Path

from bonanza.storage import SQLiteStorage
from bonanza.web import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def test_only_the_allowed_hosts_are_served(tmp_path: Path) -> None:
    app = create_app(SQLiteStorage(tmp_path / "g.db"), allowed_hosts=["a.example", "*.b.example"])
    with TestClient(app) as client:
        for host in ("a.example", "A.EXAMPLE:8000", "x.b.example"):
            assert client.get("/api/settings", headers={"host": host}).status_code == 200, host
        for host in ("c.example", "b.example.evil", "testserver"):
            refused = client.get("/api/settings", headers={"host": host})
            assert refused.status_code == 400, host
            assert refused.json() == {
                "error": f"this server does not serve the host {host!r}",
                "status": 400,
            }
            assert "set-cookie" not in refused.headers
        page = client.get("/", headers={"host": "evil.example"})
        assert page.status_code == 400 and page.headers["content-type"] == "application/json"


def test_without_a_list_every_host_is_served(tmp_path: Path) -> None:
    with TestClient(create_app(SQLiteStorage(tmp_path / "g.db"))) as client:
        assert client.get("/api/settings", headers={"host": "any.example"}).status_code == 200
