"""Whatever a client sends, the answer is JSON and never a 500."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bonanza.web.app import create_app
from bonanza.web.sqlite_storage import SQLiteStorage

with __import__("warnings").catch_warnings():
    __import__("warnings").simplefilter("ignore")
    from starlette.testclient import TestClient

CLIENT = TestClient(create_app(SQLiteStorage(":memory:")))
GAME_ID = CLIENT.post("/api/games", json={"deal": "0"}).json()["id"]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=60),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
keys = st.sampled_from(["move", "source", "dest", "count", "deal", "rules", "preset", "x"])
bodies = st.dictionaries(keys, values, max_size=4)
rule_dicts = st.dictionaries(
    st.sampled_from(
        [
            "draw",
            "passes",
            "empty_column",
            "recall",
            "partial_runs",
            "thoughtful",
            "scoring",
            "other",
        ]
    ),
    values,
    max_size=4,
)


def check(response: Any) -> None:
    assert response.status_code < 500, response.text
    assert isinstance(response.json(), dict)
    if response.status_code >= 400:
        assert response.json()["error"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bodies)
def test_any_move_body(body: dict[str, Any]) -> None:
    check(CLIENT.post(f"/api/games/{GAME_ID}/moves", json=body))


@settings(max_examples=150, deadline=None)
@given(st.one_of(bodies, st.builds(lambda r: {"rules": r}, rule_dicts)))
def test_any_new_game_body(body: dict[str, Any]) -> None:
    check(CLIENT.post("/api/games", json=body))


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes(raw: bytes) -> None:
    check(CLIENT.post(f"/api/games/{GAME_ID}/moves", content=raw))


@settings(max_examples=60, deadline=None)
@given(
    st.text(min_size=1, max_size=80).filter(
        lambda t: "/" not in t and "?" not in t and "#" not in t
    )
)
def test_any_game_id(game_id: str) -> None:
    from urllib.parse import quote

    for path in (f"/api/games/{quote(game_id)}", f"/api/games/{quote(game_id)}/undo"):
        response = CLIENT.request("POST" if path.endswith("undo") else "GET", path)
        assert response.status_code in (404, 405, 409), response.text
        json.loads(response.text)
