"""``GET /healthz``: 200 while the store reads, 503 naming the problem when it does not."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bonanza.storage import SQLiteStorage, StorageError
from bonanza.web import create_app, health

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


class CountingStore(SQLiteStorage):
    """A store that counts the health checks' reads, and can be broken or slowed."""

    reads = 0
    broken: Exception | None = None
    delay = 0.0

    def get_setting(self, key: str) -> str | None:
        if key == health.PROBE_KEY:
            type(self).reads += 1
            time.sleep(self.delay)
            if self.broken is not None:
                raise self.broken
        return super().get_setting(key)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[CountingStore]:
    store = CountingStore(tmp_path / "games.db")
    CountingStore.reads = 0
    yield store
    store.close()


def probe(store: SQLiteStorage, **options: Any) -> TestClient:
    return TestClient(create_app(store, **options))


def test_a_usable_store_is_ok_without_a_cookie(store: CountingStore) -> None:
    with probe(store) as client:
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}
    assert "set-cookie" not in response.headers
    assert store.reads == 1


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (StorageError("disk I/O error"), "a read failed: disk I/O error"),
        (RuntimeError("boom"), "a read failed: RuntimeError"),
    ],
)
def test_a_broken_store_is_503_naming_the_problem(
    store: CountingStore, error: Exception, said: str
) -> None:
    store.broken = error
    with probe(store) as client:
        response = client.get("/healthz")
        assert response.status_code == 503
        assert response.json() == {"status": "unavailable", "database": said}
        assert client.get("/api/settings").status_code in (200, 503)  # the game still answers


def test_a_closed_store_is_503(tmp_path: Path) -> None:
    store = SQLiteStorage(tmp_path / "games.db")
    client = probe(store)
    store.close()
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"].startswith("a read failed")


def test_a_store_that_does_not_answer_is_503(
    store: CountingStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(health, "READ_TIMEOUT_SECONDS", 0.05)
    store.delay = 0.5
    with probe(store) as client:
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "no answer to a read within 0.05 s"


def test_probes_are_not_limited_and_read_the_store_once_a_second(store: CountingStore) -> None:
    with probe(store) as client:
        answers = [client.get("/healthz").status_code for _ in range(100)]
        assert answers == [200] * 100
        assert store.reads <= 2  # one check a second
        time.sleep(health.CHECK_SECONDS)
        assert client.get("/healthz").status_code == 200
        assert store.reads >= 2


def test_any_host_may_probe_and_other_methods_are_405(store: CountingStore) -> None:
    with probe(store, allowed_hosts=["game.example"]) as client:
        assert client.get("/healthz", headers={"host": "10.0.0.5:8000"}).status_code == 200
        refused = client.post("/healthz")
        assert refused.status_code == 405
        assert refused.json() == {"error": "POST is not allowed on /healthz", "status": 405}
        assert client.head("/healthz").status_code == 200


class FullStore(SQLiteStorage):
    """A store that reads but, while ``full``, takes no write: as on a full disk."""

    full = False

    def write_batch(self, writes: Sequence[Callable[[], Any]]) -> list[Any]:
        if self.full:
            return [StorageError("database or disk is full") for _ in writes]
        return super().write_batch(writes)


def test_a_store_that_cannot_be_written_is_503_until_a_write_goes_through(
    tmp_path: Path,
) -> None:
    store = FullStore(tmp_path / "games.db")
    with probe(store) as client:
        assert client.get("/healthz").status_code == 200
        store.full = True
        assert client.post("/api/games", json={"deal": "7"}).status_code == 503
        time.sleep(health.CHECK_SECONDS)  # past the last check's answer
        response = client.get("/healthz")
        assert response.status_code == 503
        assert response.json() == {
            "status": "unavailable", "database": "a write failed: database or disk is full"
        }
        store.full = False  # room made on the disk: the check's own write goes through
        time.sleep(health.CHECK_SECONDS)
        assert client.get("/healthz").json() == {"status": "ok", "database": "ok"}
        assert client.post("/api/games", json={"deal": "7"}).status_code == 201
    store.close()
