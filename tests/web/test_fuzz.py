"""Whatever a client sends to any API route, the answer is JSON, never a 5xx, and the
player's next request still works.

The routes are read from ``bonanza.web.routes.routes``, so a new route is fuzzed
without a change here. Most requests come from Hypothesis, many per example,
sent from inside the TestClient's event loop (a TestClient round trip costs a
thread hop, several times the app's own time); the hand-made hostile requests
go through the TestClient itself.
"""

from __future__ import annotations

import dataclasses
import json
import re
import warnings
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bonanza.storage import SQLiteStorage
from bonanza.web.app import create_app
from bonanza.web.limits import ServerLimits
from bonanza.web.routes import routes

with warnings.catch_warnings():
    # Starlette 1.x suggests httpx2 for its TestClient; httpx works the same here.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

MIN_REQUESTS = 20_000
"""Requests the random fuzz must send; counted, so the test cannot silently shrink."""
MAX_OWN_SEARCHES = 20
"""Hint and progress requests on the player's own game (each may run the solver)."""
SEARCH_ROUTES = ("/hint", "/progress")
BASE = "http://testserver"
WRITES = {"POST", "PUT", "PATCH", "DELETE"}
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
PARAM = re.compile(r"\{(\w+)(?::\w+)?\}")
LIMITS = ServerLimits()
DEEP = 1_000
DEEPER = 100_000
BIG_INT_DIGITS = 5_000
HUGE_INT_DIGITS = 1_000_000
INT_DIGIT_LIMIT = 4_300
BIG_BODY_LIMIT = 4 * 1024 * 1024
"""The body limit of an app that lets hostile bodies past the size check to the parser."""
OVER_LIMIT = b"{" + b" " * (LIMITS.max_body_bytes + 1) + b"}"
JSON_MEDIA_TYPE = "application/json"

JSON_TYPES = ["application/json", "application/json; charset=utf-8", "Application/JSON"]
OTHER_TYPES = [
    "text/plain",
    "text/plain;charset=UTF-8",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=xyz",
    "application/json-patch+json",
    "application/jsonx",
    "",
    "*/*",
]
SAME_ORIGINS = [BASE, "http://testserver:80", "HTTP://TESTSERVER"]
FOREIGN_ORIGINS = [
    "null",
    "https://evil.example",
    "http://testserver.evil.example",
    "http://testserver:8080",
    "https://testserver",
    "http://evil.example@testserver",
    "testserver",
    "",
    "http://",
    "http://[::1",
    "http://testserver:99999",
]
SITES = ["same-origin", "same-site", "none", "cross-site", "CROSS-SITE"]


# -- the app, its player and the requests ----------------------------------------------


@dataclass
class World:
    """The app in a TestClient, as one player with a game; another player's game id."""

    client: TestClient
    own: str
    other: str
    sent: Counter[str] = field(default_factory=Counter)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    db = tmp_path_factory.mktemp("fuzz") / "games.db"
    app = create_app(SQLiteStorage(db, synchronous="NORMAL"))  # no fsync per write: speed
    with TestClient(app, raise_server_exceptions=False) as client:
        stranger = TestClient(app, raise_server_exceptions=False)
        other = stranger.post("/api/games", json={"deal": "1"}).json()["id"]
        own = client.post("/api/games", json={"deal": "0"}).json()["id"]
        yield World(client, own, other)


def templates() -> list[tuple[str, str]]:
    """Every (method, path template) of the API: each route's methods, then the others."""
    allowed = allowed_templates()
    paths = sorted({path for _, path in allowed})
    others = [(m, p) for p in paths for m in METHODS if (m, p) not in allowed]
    return allowed + others


def allowed_templates() -> list[tuple[str, str]]:
    """Each route's own (method, path template)s."""
    return [
        (method, route.path)
        for route in routes
        for method in sorted((route.methods or set()) - {"HEAD"})
    ]


TEMPLATES = templates()
EXAMPLES = -(-MIN_REQUESTS // len(TEMPLATES))
"""Hypothesis examples: each is one request shape, sent to every template."""


def fill(template: str, game_id: str) -> str:
    return PARAM.sub(quote(game_id, safe=""), template)


@dataclass(frozen=True)
class Req:
    """One request to send, and what the guard must answer to it."""

    method: str
    path: str
    body: bytes | None = None
    content_type: str | None = None
    origin: str | None = None
    site: str | None = None
    chunked: bool = False

    def headers(self) -> dict[str, str]:
        headers = {}
        if self.content_type is not None:
            headers["Content-Type"] = self.content_type
        if self.origin is not None:
            headers["Origin"] = self.origin
        if self.site is not None:
            headers["Sec-Fetch-Site"] = self.site
        return headers

    def guarded_status(self) -> int | None:
        """403 or 415 if the guard must refuse this request, else None."""
        if self.method not in WRITES or not self.path.startswith("/api/"):
            return None
        if self.site is not None and self.site.lower() == "cross-site":
            return 403
        if self.origin is not None and self.origin not in SAME_ORIGINS:
            return 403
        media_type = (self.content_type or "").split(";")[0].strip().lower()
        if self.content_type is not None and media_type != JSON_MEDIA_TYPE:
            return 415
        if self.content_type is None and (self.body or self.chunked):
            return 415
        return None


def check(req: Req, response: httpx.Response) -> None:
    """Never a 5xx; JSON with a named error for a 4xx; the guard's answer where due."""
    status = response.status_code
    where = f"{req.method} {req.path[:80]} {req.headers()} {(req.body or b'')[:80]!r}"
    assert status < 500, (where, response.text[:300])
    due = req.guarded_status()
    if due is not None:
        assert status == due, (where, status, response.text[:300])
    elif req.method == "GET" or status >= 400:
        assert status not in (403, 415), (where, response.text[:300])
    if status == 204:
        return
    assert response.content, (where, status, dict(response.headers))
    data = response.json()
    assert isinstance(data, dict), (where, data)
    if status >= 400:
        assert isinstance(data.get("error"), str) and data["error"], (where, data)
        assert data.get("status") == status, (where, data)


async def chunks(body: bytes) -> AsyncIterator[bytes]:
    for start in range(0, len(body), 7):
        yield body[start : start + 7]


async def send(client: httpx.AsyncClient, req: Req) -> httpx.Response:
    content: Any = req.body
    if req.chunked:
        content = chunks(req.body or b"")
    return await client.request(req.method, req.path, content=content, headers=req.headers())


async def send_batch(world: World, batch: list[Req]) -> None:
    """Send ``batch`` as the player, checking each answer; then the player's game still loads."""
    transport = httpx.ASGITransport(app=world.client.app, raise_app_exceptions=False)
    async with httpx.AsyncClient(
        transport=transport, base_url=BASE, cookies=dict(world.client.cookies)
    ) as client:
        for req in batch:
            check(req, await send(client, req))
            world.sent["requests"] += 1
            if req.guarded_status() is None and req.method in WRITES:
                world.sent["passed the guard"] += 1
        current = await client.get("/api/games/current")
        assert current.status_code == 200, current.text
        assert client.cookies.get("bonanza_player") == world.client.cookies.get("bonanza_player")


# -- strategies --------------------------------------------------------------------------

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
rule_names = ["draw", "passes", "empty_column", "recall", "partial_runs", "thoughtful", "scoring"]
keys = st.sampled_from(
    ["move", "source", "dest", "count", "deal", "rules", "preset", "share", "replay", "x"]
)
objects = st.one_of(
    st.dictionaries(keys, values, max_size=4),
    st.builds(
        lambda r: {"rules": r}, st.dictionaries(st.sampled_from(rule_names), values, max_size=4)
    ),
    st.sampled_from(
        [
            {"move": "sw"},
            {"move": "ws"},
            {"move": "4f"},
            {"source": 0, "dest": 1},
            {"deal": "0"},
            {"preset": "klondike"},
        ]
    ),
)


def hostile_bodies() -> list[bytes]:
    """Bodies made to break parsers: depth, size, numbers, encodings, not-JSON."""
    return [
        b"[" * DEEP + b"]" * DEEP,
        b'{"a":' * DEEP + b"1" + b"}" * DEEP,
        b"[" * DEEPER,
        b'{"count": ' + b"9" * BIG_INT_DIGITS + b"}",
        b'{"source": -' + b"1" * (INT_DIGIT_LIMIT + 1) + b"}",
        b'{"count": 1' + b"0" * HUGE_INT_DIGITS + b"}",
        b'{"count": 1e999}',
        b'{"count": -1e999}',
        b'{"count": 1' + b"0" * 400 + b".5}",
        b'{"count": NaN}',
        b'{"count": Infinity}',
        b"[-Infinity]",
        b"NaN",
        b"\xef\xbb\xbf{}",
        b"\xef\xbb\xbf" + b'{"move": "sw"}',
        b"\xff\xfe\x00\x00",
        b'{"move": "\xff"}',
        b'{"move": "\xed\xa0\x80"}',
        b'{"move": "\\ud800"}',
        b'{"share": "\\ud800x"}',
        b'{"replay": "\\udfff"}',
        b'{"deal": "\\udbff\\udbff"}',
        b'{"rules": {"\\ud800": 1}}',
        b'{"\\ud800": 1}',
        b'{"deal": "\\ud83d\\ude00"}',
        b'{"deal": "\\\\ud800"}',
        b"\x00" * 100,
        b'{"a": 1, "a": 2}',
        b'{"move": "sw"} trailing',
        b'{"move": "sw"}{"move": "sw"}',
        OVER_LIMIT,
        b'{"x": "' + b"a" * (LIMITS.max_body_bytes - 9) + b'"}',
        b'{"deal": "' + b"9" * 500 + b'"}',
        b'{"rules": ' + b"[" * 40 + b"]" * 40 + b"}",
        b'"[[[[[[[' * 10,
        b"deal=0&draw=3",
        b"--xyz\r\nContent-Disposition: form-data; name=deal\r\n\r\n0\r\n--xyz--\r\n",
        b"[]",
        b'"text"',
        b"123",
        b"null",
        b"true",
        b" \r\n\t ",
    ]


HOSTILE = hostile_bodies()

game_ids = st.one_of(
    st.just("own"),
    st.just("other"),
    st.text(min_size=1, max_size=80),
    st.sampled_from(["current", "..", "%00", "a" * 65, "a" * 1000, "0", " "]),
)
escaped = st.builds(
    lambda key, code: f'{{"{key}": "\\u{code:04x}"}}'.encode(),
    keys,
    st.integers(0xD800, 0xDFFF) | st.integers(0, 0xFFFF),
)
"""A field holding one \\u escape: a lone surrogate, often."""
bodies = st.one_of(
    st.none(),
    escaped,
    objects.map(lambda o: json.dumps(o).encode()),
    st.sampled_from(HOSTILE),
    values.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=120),
    st.text(max_size=120).map(str.encode),
)
content_types = st.one_of(
    st.none(),
    st.sampled_from(JSON_TYPES),
    st.sampled_from(OTHER_TYPES),
    st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=30),
)
origins = st.one_of(st.none(), st.sampled_from(SAME_ORIGINS), st.sampled_from(FOREIGN_ORIGINS))
sites = st.one_of(st.none(), st.sampled_from(SITES))


@st.composite
def shapes(draw: st.DrawFn) -> tuple[str, Req]:
    """A request shape (body and headers) and the game id it names: a role or junk."""
    body = draw(bodies) if draw(st.integers(0, 9)) else None
    content_type = draw(st.one_of(st.sampled_from(JSON_TYPES), content_types))
    chunked = body is not None and draw(st.integers(0, 9)) == 0
    return draw(game_ids), Req("", "", body, content_type, draw(origins), draw(sites), chunked)


def realise(world: World, game_id: str, method: str, template: str, shape: Req) -> Req:
    """``shape`` as a request on a real path: the role's game id, with few solver runs."""
    real = {"own": world.own, "other": world.other}.get(game_id, game_id)
    if real == world.own and template.endswith(SEARCH_ROUTES):
        world.sent["own searches"] += 1
        if world.sent["own searches"] > MAX_OWN_SEARCHES:
            real = world.other
    world.sent[f"route {template}"] += 1
    return dataclasses.replace(shape, method=method, path=fill(template, real))


# -- the tests ---------------------------------------------------------------------------


def test_every_route_survives_random_requests(world: World) -> None:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(shapes())
    def fuzz(shape: tuple[str, Req]) -> None:
        game_id, req = shape
        batch = [realise(world, game_id, m, t, req) for m, t in TEMPLATES]
        portal = world.client.portal
        assert portal is not None  # the client is open (in its with block): it has a portal
        portal.call(send_batch, world, batch)

    fuzz()
    assert world.sent["requests"] >= MIN_REQUESTS, world.sent
    assert world.sent["passed the guard"] >= MIN_REQUESTS // 10, world.sent  # not all refused
    unsent = [route.path for route in routes if not world.sent[f"route {route.path}"]]
    assert not unsent, unsent


def hostile_requests(world: World) -> list[Req]:
    """Each hostile body on each write route, as JSON, and the other ways to send it;
    one write route with a method it does not allow."""
    reqs: list[Req] = []
    writes = [(m, t) for m, t in allowed_templates() if m in WRITES]
    writes.append(("PUT", writes[-1][1]))
    for method, template in writes:
        path = fill(template, world.own)
        for body in HOSTILE:
            reqs.append(Req(method, path, body, "application/json"))
        body = b'{"move": "sw"}'
        reqs += [Req(method, path, body, kind) for kind in OTHER_TYPES]
        reqs += [Req(method, path, body, None), Req(method, path, body, None, chunked=True)]
        reqs += [Req(method, path, body, JSON_TYPES[0], origin) for origin in FOREIGN_ORIGINS]
        reqs += [Req(method, path, body, JSON_TYPES[0], None, "cross-site")]
        reqs.append(Req(method, path, HOSTILE[0], JSON_TYPES[0], chunked=True))
        reqs.append(Req(method, path, OVER_LIMIT, JSON_TYPES[0], chunked=True))
    return reqs


def test_hostile_requests_get_a_named_4xx_and_the_player_plays_on(world: World) -> None:
    client = world.client
    for req in hostile_requests(world):
        content: Any = req.body
        if req.chunked:
            body = req.body or b""
            content = iter([body[i : i + 100] for i in range(0, len(body), 100)])
        response = client.request(req.method, req.path, content=content, headers=req.headers())
        check(req, response)
        current = client.get("/api/games/current")
        assert current.status_code == 200, (req, current.text)


PARSER_CASES = [
    (b"[" * DEEP + b"]" * DEEP, 400, "nested deeper than 32 levels"),
    (b'{"a":' * DEEP + b"1" + b"}" * DEEP, 400, "nested deeper than 32 levels"),
    (b"[" * DEEPER, 413, "over the 8192-byte limit"),
    (b'{"count": ' + b"9" * BIG_INT_DIGITS + b"}", 400, "more than 4300 digits"),
    (b'{"count": 1' + b"0" * HUGE_INT_DIGITS + b"}", 413, "over the 8192-byte limit"),
    (b'{"count": 1e999}', 400, "too large"),
    (b'{"count": NaN}', 400, "NaN"),
    (b'{"count": -Infinity}', 400, "-Infinity"),
    (b'{"move": "\xff"}', 400, "not valid JSON"),
    (b'{"move": "\\ud800"}', 400, "lone surrogate"),
]


@pytest.mark.parametrize(
    ("body", "status", "words"), PARSER_CASES, ids=[words for _, _, words in PARSER_CASES]
)
def test_parser_limits_are_named(world: World, body: bytes, status: int, words: str) -> None:
    path = f"/api/games/{world.own}/moves"
    response = world.client.post(path, content=body, headers={"Content-Type": JSON_TYPES[0]})
    assert response.status_code == status, response.text[:300]
    assert words in response.json()["error"]


def test_hostile_bodies_past_the_size_limit_still_meet_the_depth_and_digit_limits(
    tmp_path: Path,
) -> None:
    """With a body limit of megabytes, deep and huge bodies reach the parser: still 400."""
    limits = ServerLimits(max_body_bytes=BIG_BODY_LIMIT)
    app = create_app(SQLiteStorage(tmp_path / "big.db"), limits=limits)
    cases = [
        (b"[" * DEEPER + b"]" * DEEPER, "nested deeper than 32 levels"),
        (b'{"a":' * DEEPER + b"1" + b"}" * DEEPER, "nested deeper than 32 levels"),
        (b'"' + b"[" * DEEPER + b'"', "must be a JSON object"),
        (b'{"count": 1' + b"0" * HUGE_INT_DIGITS + b"}", "more than 4300 digits"),
        (b'{"x": "' + b"[" * DEEPER + b'", "count": ' + b"7" * 5000 + b"}", "4300 digits"),
    ]
    with TestClient(app, raise_server_exceptions=False) as client:
        game = client.post("/api/games", json={"deal": "0"}).json()["id"]
        for body, words in cases:
            for path in ("/api/games", f"/api/games/{game}/moves", f"/api/games/{game}/undo"):
                response = client.post(path, content=body, headers={"Content-Type": JSON_TYPES[0]})
                assert 400 <= response.status_code < 500, response.text[:300]
                assert words in response.json()["error"], (path, response.json())
            assert client.get("/api/games/current").json()["id"] == game
