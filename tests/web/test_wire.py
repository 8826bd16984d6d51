"""The declared types of what goes over the wire: they match what they spell, and a
request body of the wrong shape is a 4xx that names the field."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgspec
import pytest
from starlette.testclient import TestClient

from bonanza.core import Rules
from bonanza.storage.player_settings import SETTINGS
from bonanza.web.bodies import RulesBody, SettingsBody
from bonanza.web.responses import encode
from bonanza.web.wire import RulesData
from bonanza.web.wire_answers import Settings

from .test_api import new_game

JSON = {"Content-Type": "application/json"}


def test_the_types_name_every_setting_and_every_rule() -> None:
    assert Settings.__struct_fields__ == tuple(SETTINGS)
    assert SettingsBody.__struct_fields__ == tuple(SETTINGS)
    names = tuple(field.name for field in dataclasses.fields(Rules))
    assert RulesBody.__struct_fields__ == names == RulesData.__struct_fields__


PRESETS = ["klondike", "vegas-3", "westcliff", "easthaven", "double-klondike"]


@pytest.mark.parametrize("name", PRESETS)
def test_rules_go_out_as_to_dict_writes_them_and_come_back(name: str) -> None:
    rules = Rules.preset(name)
    data = msgspec.convert(rules.to_dict(), RulesData)
    assert msgspec.json.decode(encode(data)) == rules.to_dict()  # the same keys: none added
    assert msgspec.json.decode(encode(data), type=RulesBody).rules() == rules


def post(client: TestClient, path: str, body: bytes) -> Any:
    return client.post(path, content=body, headers=JSON)


def test_unknown_fields_are_ignored_but_in_rules_and_settings(client: TestClient) -> None:
    gid = new_game(client, "0")["id"]
    moved = post(client, f"/api/games/{gid}/moves", b'{"move": "sw", "why": [1, {"a": 2}]}')
    assert moved.status_code == 200, moved.text
    assert post(client, f"/api/games/{gid}/undo", b'{"please": true}').status_code == 200
    refused = post(client, "/api/games", b'{"rules": {"draw": 3, "drew": 3}}')
    assert refused.status_code == 422
    assert refused.json()["error"] == "field 'rules' has an unknown field 'drew'"
    refused = post(client, "/api/settings", b'{"theme": "dark", "colour": "red"}')
    assert refused.status_code == 422 and "unknown setting 'colour'" in refused.json()["error"]


@pytest.mark.parametrize(
    ("path", "body", "status", "words"),
    [
        ("/api/games", b'{"rules": {"draw": "3"}}', 422,
         "field 'rules.draw' has the wrong type: expected int, got str"),
        ("/api/games", b'{"rules": 7}', 422,
         "field 'rules' has the wrong type: expected object | null, got int"),
        ("/api/games", b'{"draw": 1.5, "daily": "today"}', 422,
         "field 'draw' has the wrong type: expected int | null, got float"),
        ("/api/settings", b'{"sound": "on"}', 422,
         "setting 'sound' has the wrong type: expected bool, got str"),
        ("/api/settings", b'{"volume": 1e400}', 400, "too large: 'volume'"),
        ("/api/deals/check", b'{"deal": ["7"]}', 422, "field 'deal' has the wrong type"),
        ("/api/deals/check", b'[{"deal": "7"}]', 422, "must be a JSON object, not array"),
        ("/api/deals/check", b'{"deal": "7"', 400, "not valid JSON"),
        ("/api/deals/check", b'{"deal": "7", "x": [Infinity]}', 400, "contains Infinity"),
    ],
)
def test_a_body_of_the_wrong_shape_is_a_4xx_naming_the_field(
    client: TestClient, path: str, body: bytes, status: int, words: str
) -> None:
    answer = post(client, path, body)
    assert answer.status_code == status, answer.text
    assert answer.json() == {"error": answer.json()["error"], "status": status}
    assert words in answer.json()["error"]


def test_a_byte_order_mark_is_ignored_and_strings_keep_their_brackets(client: TestClient) -> None:
    answer = post(client, "/api/deals/check", '\ufeff{"deal": "7"}'.encode())
    assert answer.status_code == 200 and answer.json() == {"valid": True}
    deep = b'{"deal": "7", "note": "' + b"[{" * 100 + b'"}'
    assert post(client, "/api/deals/check", deep).status_code == 200  # in a string: no depth
