"""No response ever names a card the player cannot see: many random games through the API."""

from __future__ import annotations

import random
from typing import Any

from starlette.testclient import TestClient

from bonanza.core import CARDS, Deal, Game, Rules

RULE_SETS = [
    Rules.preset("klondike"),
    Rules.preset("klondike-3"),
    Rules.preset("vegas-1"),
    Rules.from_dict({"draw": 3, "passes": 3, "empty_column": "any", "recall": False}),
]


def hidden_cards(game: Game) -> set[int]:
    position = game.position
    hidden = {
        card
        for column, down in zip(position.tableau, position.down, strict=True)
        for card in column[:down]
    }
    return hidden | set(position.stock)


def assert_no_leak(text: str, data: Any, hidden: set[int]) -> None:
    lowered = text.lower()
    for card in hidden:
        code = str(CARDS[card])
        assert f'"{code}"' not in text, f"{code} leaked in {text[:300]}"
        assert CARDS[card].name not in lowered, f"{CARDS[card].name} leaked in {text[:300]}"
    if isinstance(data, dict):
        for key, value in data.items():
            if key not in ("deal", "deal_code"):
                walk(value, hidden)


def walk(value: Any, hidden: set[int]) -> None:
    codes = {str(CARDS[c]).lower() for c in hidden}
    if isinstance(value, str):
        assert value.lower() not in codes, value
    elif isinstance(value, dict):
        for item in value.values():
            walk(item, hidden)
    elif isinstance(value, list):
        for item in value:
            walk(item, hidden)


def truth(state: dict[str, Any]) -> Game:
    """The whole game, rebuilt by the test from the deal ID and the move history."""
    game = Game(Deal.parse(state["deal"]), Rules.from_dict(state["rules"]))
    for move in state["history"]:
        game.play(move)
    return game


def test_random_games_never_leak_hidden_cards(client: TestClient) -> None:
    rng = random.Random(20261129)
    requests = 0
    for game_number in range(40):
        rules = RULE_SETS[game_number % len(RULE_SETS)]
        response = client.post("/api/games", json={"rules": rules.to_dict()})
        state = response.json()
        game = truth(state)
        assert_no_leak(response.text, state, hidden_cards(game))
        gid = state["id"]
        for _ in range(rng.randrange(20, 90)):
            roll = rng.random()
            legal = state["position"]["legal"]
            if roll < 0.08:
                response = client.post(f"/api/games/{gid}/undo")
            elif roll < 0.12:
                response = client.post(f"/api/games/{gid}/redo")
            elif roll < 0.16:
                response = client.get(f"/api/games/{gid}/hint")
            elif roll < 0.18:
                response = client.get(f"/api/games/{gid}/progress")
            elif roll < 0.2:
                response = client.get("/api/games/current")
            elif roll < 0.28:  # an illegal or malformed move
                body = rng.choice(
                    [
                        {
                            "source": rng.randrange(13),
                            "dest": rng.randrange(13),
                            "count": rng.randrange(1, 14),
                        },
                        {"move": rng.choice(["12", "7f", "w1", "ws", "fh3", "67:4", "s1"])},
                    ]
                )
                response = client.post(f"/api/games/{gid}/moves", json=body)
            elif roll < 0.3:
                response = client.post(f"/api/games/{gid}/auto")
            else:
                non_draw = [m for m in legal if m["source"] != 7 and m["dest"] != 7]
                pool = non_draw if non_draw and rng.random() < 0.7 else legal
                if not pool:
                    break
                response = client.post(f"/api/games/{gid}/moves", json=rng.choice(pool))
            requests += 1
            assert response.status_code < 500, response.text
            if response.status_code == 200 and "position" in response.json():
                state = response.json()
            current = client.get(f"/api/games/{gid}")
            state = current.json()
            game = truth(state)
            hidden = hidden_cards(game)
            assert_no_leak(response.text, response.json(), hidden)
            assert_no_leak(current.text, state, hidden)
            if state["status"] != "playing":
                break
    assert requests > 1000
