"""The guard: cross-site and non-JSON writes are refused before they touch a game."""

from __future__ import annotations

import concurrent.futures
import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from starlette.testclient import TestClient
from starlette.types import Message

from bonanza.storage import SQLiteStorage
from bonanza.web import players
from bonanza.web.app import create_app
from bonanza.web.guard import parse_origin, request_origin
from bonanza.web.limits import ServerLimits

EVIL = "https://evil.example"
SLOW_BODY_TIMEOUT = 0.2
STALL = 5.0
"""Seconds a slow client stalls: far past the body timeout."""


def start(client: TestClient) -> str:
    """A new game on deal 0 with one move played: its id."""
    game = client.post("/api/games", json={"deal": "0"})
    assert game.status_code == 201, game.text
    gid: str = game.json()["id"]
    assert client.post(f"/api/games/{gid}/moves", json={"move": "4f"}).status_code == 200
    return gid


def assert_refused(response: Any, status: int, words: str) -> None:
    assert response.status_code == status, response.text
    data = response.json()
    assert data["status"] == status and words in data["error"], data


def test_a_cross_site_form_cannot_end_the_players_game(client: TestClient) -> None:
    gid = start(client)
    attacks = [
        ({"Content-Type": "text/plain", "Origin": EVIL}, 403),
        ({"Content-Type": "text/plain"}, 415),  # an old browser that sends no Origin
        ({"Content-Type": "application/x-www-form-urlencoded", "Origin": "null"}, 403),
        ({"Content-Type": "multipart/form-data; boundary=x"}, 415),
        ({"Content-Type": "text/plain", "Sec-Fetch-Site": "cross-site"}, 403),
        ({"Content-Type": "application/json", "Origin": EVIL}, 403),
    ]
    for headers, status in attacks:
        for path in ("/api/games", f"/api/games/{gid}/restart", f"/api/games/{gid}/undo"):
            response = client.post(path, content='{"deal": "1"}', headers=headers)
            assert response.status_code == status, (headers, path, response.text)
            assert "error" in response.json()
        response = client.delete("/api/stats", headers=headers)
        assert response.status_code == status, (headers, response.text)
    state = client.get("/api/games/current").json()
    assert state["id"] == gid and state["status"] == "playing" and state["history"] == ["4f"]


def test_same_origin_json_and_curl_like_clients_play(client: TestClient) -> None:
    same = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
    response = client.post("/api/games", json={"deal": "0"}, headers=same)
    assert response.status_code == 201, response.text
    gid = response.json()["id"]
    moved = client.post(f"/api/games/{gid}/moves", json={"move": "4f"}, headers=same)
    assert moved.status_code == 200, moved.text
    # no Origin (curl, scripts); a charset; the bodiless POST that curl -X POST sends
    plain = {"Content-Type": "application/json; charset=utf-8"}
    assert client.post(f"/api/games/{gid}/undo", content=b"{}", headers=plain).status_code == 200
    assert client.post(f"/api/games/{gid}/redo").status_code == 200
    assert client.post(f"/api/games/{gid}/undo", json={}, headers=same).status_code == 200
    assert client.get("/api/games/current").json()["history"] == []


def test_reads_are_not_guarded(client: TestClient) -> None:
    gid = start(client)
    hostile = {"Origin": EVIL, "Sec-Fetch-Site": "cross-site", "Content-Type": "text/plain"}
    assert client.get(f"/api/games/{gid}", headers=hostile).status_code == 200
    assert client.get("/api/stats", headers=hostile).status_code == 200
    assert client.get("/", headers=hostile).status_code == 200


@pytest.mark.parametrize(
    ("headers", "status", "words"),
    [
        ({"Origin": "null"}, 403, "Origin 'null' is not this site"),
        ({"Origin": "http://testserver:8080"}, 403, "cross-origin"),
        ({"Origin": "https://testserver"}, 403, "cross-origin"),
        ({"Origin": "http://testserver.evil.example"}, 403, "cross-origin"),
        ({"Origin": "http://user@testserver"}, 403, "cross-origin"),
        ({"Origin": "http://testserver:99999"}, 403, "cross-origin"),
        ({"Sec-Fetch-Site": "cross-site"}, 403, "Sec-Fetch-Site"),
        ({"Content-Type": "text/plain"}, 415, "'text/plain' is not application/json"),
        ({"Content-Type": "application/json-seq"}, 415, "is not application/json"),
        ({"Content-Type": ""}, 415, "is not application/json"),
    ],
)
def test_refusals_name_the_problem(
    client: TestClient, headers: dict[str, str], status: int, words: str
) -> None:
    body = {"Content-Type": "application/json", **headers}
    response = client.post("/api/games", content=b'{"deal": "0"}', headers=body)
    assert_refused(response, status, words)


def test_a_body_without_a_content_type_is_refused(client: TestClient) -> None:
    response = client.post("/api/games", content=b'{"deal": "0"}')
    assert_refused(response, 415, "no Content-Type")
    chunked = client.post("/api/games", content=iter([b'{"deal"', b': "0"}']))
    assert_refused(chunked, 415, "no Content-Type")
    assert client.get("/api/games/current").status_code == 204  # no game was started


def test_a_header_sent_twice_is_checked_in_each_copy(client: TestClient) -> None:
    for name, values in [
        ("origin", ["http://testserver", EVIL]),
        ("content-type", ["application/json", "text/plain"]),
        ("sec-fetch-site", ["same-origin", "cross-site"]),
    ]:
        headers = [("content-type", "application/json")] if name != "content-type" else []
        headers += [(name, value) for value in values]
        response = client.post("/api/games", content=b"{}", headers=headers)
        assert response.status_code in (403, 415), (name, response.text)


def test_origins_compare_scheme_host_and_port() -> None:
    def target(host: str, scheme: str = "http") -> Any:
        scope = {"scheme": scheme, "server": ("127.0.0.1", 8000)}
        return request_origin(scope, host)

    assert parse_origin("http://127.0.0.1:8000") == target("127.0.0.1:8000")
    assert parse_origin("http://LOCALHOST") == target("localhost:80")
    assert parse_origin("https://example.org") == target("example.org", "https")
    assert parse_origin("http://[::1]:8000") == target("[::1]:8000")
    assert parse_origin("http://127.0.0.1:8000") == target("")  # HTTP/1.0: no Host
    assert parse_origin("https://example.org") != target("example.org")
    assert parse_origin("http://example.org:81") != target("example.org")
    for bad in ("null", "", "example.org", "http://", "http://a/b", "http://[::1", "ftp//x"):
        assert parse_origin(bad) is None, bad
    assert target("a b/c") is None


def test_a_body_that_arrives_too_slowly_is_408(tmp_path: Path) -> None:
    """The client sends the start of its body, then stalls: 408 in JSON, connection closed."""
    limits = ServerLimits(body_timeout=SLOW_BODY_TIMEOUT)
    app = create_app(SQLiteStorage(tmp_path / "games.db"), limits=limits)
    sent: list[Message] = []
    incoming: list[Message] = [{"type": "http.request", "body": b'{"deal"', "more_body": True}]

    async def receive() -> Message:
        if incoming:
            return incoming.pop()
        await anyio.sleep(STALL)
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/games",
        "raw_path": b"/api/games",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }

    async def call() -> float:
        began = anyio.current_time()
        await app(scope, receive, send)
        return anyio.current_time() - began

    # In a thread of its own: an earlier test may leave this thread's event loop set.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        took = pool.submit(anyio.run, call).result()
    assert took < STALL / 2
    start_message = sent[0]
    assert start_message["status"] == 408
    assert (b"connection", b"close") in start_message["headers"]
    data = json.loads(b"".join(m.get("body", b"") for m in sent[1:]))
    assert data["status"] == 408 and "took more than 0.2 seconds" in data["error"]


def test_the_player_of_a_cookie_header_is_remembered_within_bounds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(players, "KNOWN_HEADERS", 3)
    middleware = players.KnownPlayers()  # as the player middleware and the hot path keep them
    token = "a" * 24
    good = f"theme=dark; bonanza_player={token}".encode()
    assert middleware.player_in(good) == token
    assert middleware.player_in(good) == token  # the second time, from memory
    assert middleware.player_in(b"bonanza_player=short") is None  # still no identity
    assert middleware.player_in(b'bonanza_player="' + b"x" * 30) is None
    for n in range(5):
        assert middleware.player_in(f"bonanza_player={n}{token}".encode()) == f"{n}{token}"
    assert len(middleware._known) == 3  # the oldest forgotten
    assert middleware.player_in(b"bonanza_player=" + b"b" * 40 + b"; x=" + b"y" * 2000) == "b" * 40
    assert len(middleware._known) == 3  # a long header is read each time, not kept
