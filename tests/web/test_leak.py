"""Nothing the browser receives while a game is in play decodes to a hidden card.

The truth comes from the server's own store, never from the answers. Every
string and number in every answer, and every word inside every string, is
tried as a deal (with the project's own parser) and as a share ID; the test
fails if any of them rebuilds the game's hidden cards. It also fails on any
hidden card named in any form (``7H``, ``7♥``, ``seven of hearts``).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bonanza.core import CARDS, BonanzaError, Deal, Rules
from bonanza.session import Session
from bonanza.solver.advisor import SolverAdvisor
from bonanza.storage import SQLiteStorage
from bonanza.web import create_app
from bonanza.web.limits import ServerLimits
from bonanza.web.service import GameService

RULE_SETS = [
    Rules.preset("klondike"),
    Rules.preset("klondike-3"),
    Rules.preset("vegas-1"),
    Rules.from_dict({"draw": 3, "passes": 3, "empty_column": "any", "recall": False}),
    Rules.from_dict({"draw": 1, "scoring": "timed", "partial_runs": False}),
    Rules.from_dict({"draw": 3, "scoring": "vegas-cumulative"}),
]
GAMES = 300
HINT_GAMES = 18
HINT_BUDGET = 0.02
"""Seconds a hint may take here: the engine's words are the same kind at any budget."""
WORDS = re.compile(r"[^\s\"',;:()\[\]{}]+")
RANDOM_IDS = re.compile(r'"(id|share|url)": ?"[^"]*"')
"""Game and share IDs are random letters: a card's code may occur in them by chance."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """One player who may start games and searches as fast as the test likes, with
    the solver's own hints on a small budget."""
    limits = ServerLimits(
        new_games_per_minute=GAMES * 2,
        searches_per_minute=GAMES * 100,
        searches_per_address_per_minute=GAMES * 1000,
    )
    storage = SQLiteStorage(tmp_path / "games.db")
    advisor = SolverAdvisor(budget=HINT_BUDGET)
    with TestClient(create_app(storage, limits=limits, advisor=advisor)) as test:
        yield test


def service(client: TestClient) -> GameService:
    svc: GameService = client.app.state.service  # type: ignore[attr-defined]
    return svc


def stored_session(client: TestClient, game_id: str) -> Session:
    record = service(client).storage.get_game(game_id)
    assert record is not None
    return Session.from_json(record.state)


def hidden_cards(session: Session) -> set[int]:
    position = session.position
    hidden = {
        card
        for column, down in zip(position.tableau, position.down, strict=True)
        for card in column[:down]
    }
    return hidden | set(position.stock)


def unknown_to_player(session: Session) -> set[int]:
    """The hidden cards the player has never been shown (not even before an undo,
    nor as the stock's cards once it was turned over), unless the last one,
    which is known by elimination. A hint may name the others (it is asked of
    the player's view), though the game's own answers never do."""
    unknown = hidden_cards(session) - session.seen
    return unknown if len(unknown) > 1 else set()


def atoms(value: Any) -> list[str]:
    """Every string and number inside ``value`` (keys too), as text."""
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in (str(key), *atoms(item))]
    if isinstance(value, list):
        return [text for item in value for text in atoms(item)]
    if value is None or isinstance(value, bool):
        return []
    return [str(value)]


def candidates(data: Any) -> set[str]:
    found = set()
    for text in atoms(data):
        found.add(text)
        found.update(WORDS.findall(text))
    return found


def open_shares(client: TestClient) -> dict[str, str]:
    """Every share ID that opens now, with its deal (as the server would resolve it)."""
    storage = service(client).storage
    assert isinstance(storage, SQLiteStorage)
    ids = [row[0] for row in storage._db.execute("SELECT id FROM shares")]
    shares = {share_id: storage.get_share(share_id) for share_id in ids}
    return {key: share.deal for key, share in shares.items() if share and share.opens}


NEW_PLAYERS = 40
NAVIGATION = {"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate"}
"""What a browser says when it opens the page to show it (a new player's gets a deal)."""


def page_data(client: TestClient) -> tuple[str, Any]:
    """The page's data block, as text and as data: what the page carries of the game."""
    found = re.search(r'id="page-data">(.*?)</script>', client.get("/").text, re.S)
    assert found is not None, "the page carries no data block"
    return found[1], json.loads(found[1])


def decodes_to(text: str, shares: dict[str, str]) -> Deal | None:
    try:
        return Deal.parse(text)
    except BonanzaError:
        pass
    return Deal.parse(shares[text]) if text in shares else None


def assert_no_leak(
    client: TestClient, text: str, data: Any, session: Session, hidden: set[int] | None = None
) -> int:
    """Fail on any hidden card in ``text``/``data`` (``hidden``, by default every
    face-down and stock card); return how many candidates were tried."""
    if session.rules.thoughtful:
        return 0
    if hidden is None:
        hidden = hidden_cards(session)
    text = RANDOM_IDS.sub("", text)
    lowered = text.lower()
    for card in hidden:
        code = str(CARDS[card])
        assert not re.search(rf"\b{code}\b", text), f"{code} leaked in {text[:300]}"
        for face in (CARDS[card].symbol, CARDS[card].face):
            assert face not in text, f"{face} leaked in {text[:300]}"
        assert CARDS[card].name not in lowered, f"{CARDS[card].name} leaked in {text[:300]}"
    tried = 0
    if session.is_over:
        return tried  # the portable deal ID is shown once the game is over
    shares = open_shares(client)
    for candidate in candidates(data):
        tried += 1
        deal = decodes_to(candidate, shares)
        assert deal is None or deal != session.game.deal, f"{candidate!r} decodes to the deal"
    return tried


def test_the_deal_is_never_sent_while_playing_and_always_after(client: TestClient) -> None:
    state = client.post("/api/games", json={}).json()
    assert "deal" not in state and "deal_code" not in state
    session = stored_session(client, state["id"])
    client.post(f"/api/games/{state['id']}/moves", json={"move": "sw"})
    _, page = page_data(client)
    assert page["current"]["id"] == state["id"] and "deal" not in page["current"]
    client.post("/api/games", json={})
    over = client.get(f"/api/games/{state['id']}").json()
    assert over["status"] == "lost"
    assert over["deal"] == session.game.deal.id
    assert Deal.parse(over["deal_code"]) == session.game.deal


def test_a_new_players_page_never_leaks_their_first_deal(client: TestClient) -> None:
    """The page of a browser with no cookie carries its first deal: the whole page,
    headers and data block, names none of its hidden cards, nor the deal."""
    tried = 0
    for _ in range(NEW_PLAYERS):
        client.cookies.clear()
        page = client.get("/", headers=NAVIGATION)
        found = re.search(r'id="page-data">(.*?)</script>', page.text, re.S)
        assert found is not None
        data = json.loads(found[1])
        session = stored_session(client, data["started"]["id"])
        assert not session.is_over and "deal" not in data["started"]
        headers = [f"{k}: {v}" for k, v in page.headers.items() if k != "set-cookie"]
        whole = "\n".join([page.text, *headers])  # the cookie is a random token
        tried += assert_no_leak(client, whole, [data, whole], session)
    assert tried > NEW_PLAYERS * 100


GAME_SLICES = 3
"""The random games run in slices that the test workers share out."""


@pytest.mark.parametrize("part", range(GAME_SLICES))
def test_random_games_never_leak_hidden_cards(client: TestClient, part: int) -> None:
    """300 random games in all (a slice of them here), every answer checked."""
    rng = random.Random(20261201 + part)
    requests = tried = 0
    for game_number in range(part, GAMES, GAME_SLICES):
        rules = RULE_SETS[game_number % len(RULE_SETS)]
        response = client.post("/api/games", json={"rules": rules.to_dict()})
        state = response.json()
        gid = state["id"]
        tried += assert_no_leak(client, response.text, state, stored_session(client, gid))
        for _ in range(rng.randrange(6, 24)):
            roll = rng.random()
            legal = state["position"]["legal"]
            if roll < 0.08:
                response = client.post(f"/api/games/{gid}/undo", json={})
            elif roll < 0.12:
                response = client.post(f"/api/games/{gid}/redo", json={})
            elif roll < 0.13:
                response = client.get(f"/api/games/{gid}/hint")
            elif roll < 0.135:
                response = client.get(f"/api/games/{gid}/progress")
            elif roll < 0.14:  # "still winnable?" looks at the hidden cards: says only a word
                response = client.post(f"/api/games/{gid}/winnable", json={})
            elif roll < 0.16:
                response = client.post(f"/api/games/{gid}/share", json={})
            elif roll < 0.18:
                response = client.get("/api/games/current")
                text, data = page_data(client)  # the same game, as the page carries it
                assert data["current"]["id"] == gid
                tried += assert_no_leak(client, text, data, stored_session(client, gid))
            elif roll < 0.24:  # an illegal or malformed move
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
            elif roll < 0.26:
                response = client.post(f"/api/games/{gid}/auto", json={})
            elif roll < 0.27:
                response = client.post(f"/api/games/{gid}/restart", json={})
            else:
                non_draw = [m for m in legal if m["source"] != 7 and m["dest"] != 7]
                pool = non_draw if non_draw and rng.random() < 0.7 else legal
                if not pool:
                    break
                response = client.post(f"/api/games/{gid}/moves", json=rng.choice(pool))
            requests += 1
            assert response.status_code < 500, response.text
            session = stored_session(client, gid)
            hidden = unknown_to_player(session) if "/hint" in str(response.url) else None
            tried += assert_no_leak(client, response.text, response.json(), session, hidden)
            if response.status_code != 200 or "position" not in response.json():
                response = client.get(f"/api/games/{gid}")
                tried += assert_no_leak(client, response.text, response.json(), session)
            state = response.json()
            if state["status"] != "playing":
                break
    assert requests > 3000 // GAME_SLICES and tried > 50_000 // GAME_SLICES


def test_hints_never_name_a_card_the_player_has_not_seen(client: TestClient) -> None:
    """A hint at every turn, through draws, recycles and undos: its words and
    piles come from the player's view, so they name no card never shown."""
    rng = random.Random(20261202)
    hints = 0
    for game_number in range(HINT_GAMES):
        rules = RULE_SETS[game_number % len(RULE_SETS)]
        state = client.post("/api/games", json={"rules": rules.to_dict()}).json()
        gid = state["id"]
        for _ in range(rng.randrange(8, 20)):
            response = client.get(f"/api/games/{gid}/hint")
            assert response.status_code == 200, response.text
            answer = response.json()
            hints += 1
            assert answer["text"] and set(answer) == {"move", "text", "source", "dest"}
            session = stored_session(client, gid)
            assert_no_leak(client, response.text, answer, session, unknown_to_player(session))
            legal = state["position"]["legal"]
            if answer["move"] is not None:
                assert answer["move"] in legal
                assert (answer["source"], answer["dest"]) == (
                    answer["move"]["source"],
                    answer["move"]["dest"],
                )
            if state["can_undo"] and rng.random() < 0.15:
                state = client.post(f"/api/games/{gid}/undo", json={}).json()
                continue
            draws = [m for m in legal if 7 in (m["source"], m["dest"])]
            pool = draws if draws and rng.random() < 0.5 else legal
            if not pool:
                break
            state = client.post(f"/api/games/{gid}/moves", json=rng.choice(pool)).json()
            if state["status"] != "playing":
                break
    assert hints > 150


def test_still_winnable_answers_only_a_word_and_a_sentence(client: TestClient) -> None:
    """The one answer made from the hidden cards: at every turn of random games,
    it names no hidden card (not even one the player has seen before an undo),
    neither the deal nor a share, and holds only its three fields."""
    rng = random.Random(20261203)
    asked = 0
    for game_number in range(len(RULE_SETS) * 2):
        rules = RULE_SETS[game_number % len(RULE_SETS)]
        state = client.post("/api/games", json={"rules": rules.to_dict()}).json()
        gid = state["id"]
        for _ in range(rng.randrange(4, 10)):
            response = client.post(f"/api/games/{gid}/winnable", json={})
            assert response.status_code == 200, response.text
            answer = response.json()
            asked += 1
            assert set(answer) == {"winnable", "text", "assisted"}
            assert answer["winnable"] in ("winnable", "lost", "unknown") and answer["assisted"]
            assert_no_leak(client, response.text, answer, stored_session(client, gid))
            legal = state["position"]["legal"]
            if not legal:
                break
            state = client.post(f"/api/games/{gid}/moves", json=rng.choice(legal)).json()
            if state["status"] != "playing":
                break
    assert asked > 40


def test_winnable_and_daily_deals_never_leak_hidden_cards(tmp_path: Path) -> None:
    """Deals from the stock, and the daily deals and their page: the answers name
    a grade and a day, never the deal, while the game is in play."""
    from bonanza.play.deal_stock import DealStock
    from bonanza.solver.grading import Grade, GradedDeal

    rng = random.Random(20261204)
    grades = list(Grade)

    def finder(rules: Rules, stopping: object) -> GradedDeal:
        return GradedDeal(Deal.from_number(rng.getrandbits(64)), rng.choice(grades), 0.5, 1)

    limits = ServerLimits(
        new_games_per_minute=GAMES,
        searches_per_minute=GAMES * 100,
        searches_per_address_per_minute=GAMES * 1000,
    )
    app = create_app(SQLiteStorage(tmp_path / "games.db"), limits=limits)
    svc: GameService = app.state.service
    svc.stock = DealStock(svc.storage, svc.clock, finder=finder, per_grade=2, first_delay=0)
    tried = 0
    with TestClient(app) as test:
        test.get("/api/games/current")
        requests = [
            {"grade": "easy"},
            {"grade": "hard", "rules": Rules.preset("klondike-3").to_dict()},
            {"daily": "today", "draw": 1},
            {"daily": "today", "draw": 3},
        ]
        for game_number in range(24):
            body = requests[game_number % len(requests)]
            response = test.post("/api/games", json=body)
            if response.status_code == 409:  # the stock is filling: try the next
                continue
            assert response.status_code == 201, response.text
            state = response.json()
            gid = state["id"]
            for _ in range(rng.randrange(4, 12)):
                session = stored_session(test, gid)
                tried += assert_no_leak(test, response.text, response.json(), session)
                for extra in (
                    test.get("/api/daily?draw=1"),
                    test.get("/api/daily?draw=3"),
                    test.post("/api/deals/check", json={"deal": "hello"}),
                    test.get("/api/games/current"),
                ):
                    assert extra.status_code < 500
                    tried += assert_no_leak(test, extra.text, extra.json(), session)
                legal = state["position"]["legal"]
                if not legal or state["status"] != "playing":
                    break
                response = test.post(f"/api/games/{gid}/moves", json=rng.choice(legal))
                state = response.json()
    assert tried > 2000
