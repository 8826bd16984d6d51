"""The JSON API plays Klondike's relatives: Double Klondike, Westcliff, Easthaven."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bonanza.core import VARIANT_PRESETS, Deal, Game, Position, Rules, RulesError
from bonanza.core.cards import DECK_SIZE, Card, twinned
from bonanza.core.notation import format_move
from bonanza.session import Hint
from bonanza.storage import SQLiteStorage
from bonanza.web.app import create_app
from bonanza.web.limits import ServerLimits
from bonanza.web.view import card_text

RELATIVES = tuple(VARIANT_PRESETS)
WESTCLIFF_WIN = (
    "12 39 23:2 18 71 7f 28 sw sw wf sw sw wf sw sw sw sw sw sw sw sw sw wf 7f 47 104 510 "
    "5f 5f 41:2 84:3 107:2 65 610 sw wf sw wf sw sw sw wf sw wf 5f 95:2 w7 sw w7 w7 wf 6f "
    "1f wf 3f 1f 3f 3f 1f 107 73:4 86 sw wf 110 91 w9 39:2 w8 18 w1 w6 wf 25 w2 wf 10f 9f "
    "10f w4 wf 4f 5f 9f 4f 3f 5f 4f 9f 3f 5f 4f 9f 4f 3f 7f 8f 7f 8f 1f 6f 8f 7f 6f 2f"
)
"""A line that wins Westcliff's deal 1 (found by the solver; the engine's rules are frozen)."""
CARD_CODE = re.compile(r'"([A2-9TJQK][CDHS])"')
RANDOM_IDS = re.compile(r'"id": ?"[^"]*"')


def start(client: TestClient, name: str, deal: str | None = None, **extra: Any) -> Any:
    body = {"rules": Rules.preset(name).to_dict(), "deal": deal, **extra}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def play(client: TestClient, gid: str, body: dict[str, Any]) -> Any:
    answer = client.post(f"/api/games/{gid}/moves", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


def true_game(name: str, deal: str) -> Game:
    rules = Rules.preset(name)
    return Game(Deal.parse(deal, rules.decks), rules)


@pytest.mark.parametrize(
    ("name", "title", "columns", "foundations", "waste", "waste_cards"),
    [
        ("double-klondike", "Double Klondike", 9, 8, True, 0),
        ("double-klondike-3", "Double Klondike", 9, 8, True, 0),
        ("westcliff", "Westcliff", 10, 4, True, 1),
        ("easthaven", "Easthaven", 7, 4, False, 0),
    ],
)
def test_each_relative_is_dealt_with_the_table_the_page_lays_out(
    client: TestClient, name: str, title: str, columns: int, foundations: int, waste: bool,
    waste_cards: int,
) -> None:
    state = start(client, name)
    table = state["table"]
    assert (table["title"], table["columns"], table["foundations"]) == (title, columns, foundations)
    assert table["waste"] is waste
    assert state["rules"] == VARIANT_PRESETS[name].to_dict()
    assert state["rules_label"].startswith(f"{title}: ")
    position = state["position"]
    assert len(position["columns"]) == columns
    assert position["foundations"] == [None] * foundations
    assert len(position["waste"]) == waste_cards
    rules = Rules.preset(name)
    assert sum(c["down"] + len(c["up"]) for c in position["columns"]) == rules.dealt_cards
    assert position["stock"] == {"count": rules.stock_size}
    assert "deal" not in state and "deal_code" not in state


def test_klondike_says_its_table_too(client: TestClient) -> None:
    table = start(client, "klondike")["table"]
    assert table == {"game": "klondike", "title": "Klondike", "columns": 7, "foundations": 4,
                     "decks": 1, "waste": True, "stock": "waste"}


def test_a_random_double_klondike_deal_has_two_decks(client: TestClient) -> None:
    state = start(client, "double-klondike")
    up = [code for c in state["position"]["columns"] for code in c["up"]]
    assert len(up) == 9 and state["position"]["stock"]["count"] == 59
    gid = state["id"]
    client.post("/api/games", json={"rules": Rules().to_dict()})  # ends it: its deal is shown
    ended = client.get(f"/api/games/{gid}").json()
    deal = Deal.parse(ended["deal"], 2)
    assert deal.decks == 2 and ended["deal_code"].startswith("D") and len(ended["deal_code"]) == 86


def test_easthaven_deals_a_card_onto_every_column_and_undo_takes_it_back(
    client: TestClient,
) -> None:
    state = start(client, "easthaven", "3")
    before = state["position"]
    deal = next(m for m in before["legal"] if m["text"] == "st")
    assert (deal["source"], deal["dest"], deal["count"]) == (7, 0, 7)
    after = play(client, state["id"], {"source": 7, "dest": 0, "count": 7})
    assert after["last"]["text"] == "st" and after["announce"].startswith("Dealt 7 cards")
    assert [len(c["up"]) for c in after["position"]["columns"]] == [2] * 7
    assert after["position"]["stock"]["count"] == 24 and after["position"]["waste"] == []
    game = true_game("easthaven", "3")
    game.play(game.position.legal_moves()[[m["text"] for m in before["legal"]].index("st")])
    assert [c["up"] for c in after["position"]["columns"]] == [
        [str(card) for card in column[down:]]
        for column, down in zip(game.position.tableau, game.position.down, strict=True)
    ]
    undone = client.post(f"/api/games/{state['id']}/undo", json={}).json()
    assert undone["position"]["columns"] == before["columns"]
    assert undone["position"]["stock"] == before["stock"]
    again = play(client, state["id"], {"move": "st"})  # as text too
    assert again["position"]["columns"] == after["position"]["columns"]
    assert client.post(f"/api/games/{state['id']}/moves", json={"move": "sw"}).status_code == 422


def test_moves_reach_columns_eight_to_ten_by_pile_number_and_by_text(client: TestClient) -> None:
    for number in range(1, 200):
        state = start(client, "westcliff", str(number))
        wide = [m for m in state["position"]["legal"] if m["dest"] in (13, 14, 15)]
        if wide:
            break
    else:
        raise AssertionError("no Westcliff deal of 200 has a move to columns 8-10 at once")
    move = wide[0]
    game = true_game("westcliff", str(number))
    column = [13, 14, 15].index(move["dest"]) + 7
    played = play(client, state["id"], {k: move[k] for k in ("source", "dest", "count")})
    assert client.get(f"/api/games/{state['id']}").json()["history"] == [move["text"]]
    assert played["position"]["columns"][column]["up"][-1] == str(
        game.position.tableau[[0, 1, 2, 3, 4, 5, 6, 13, 14, 15].index(move["source"])][-1]
    )
    undone = client.post(f"/api/games/{state['id']}/undo", json={}).json()
    assert undone["position"]["columns"] == state["position"]["columns"]
    by_text = play(client, state["id"], {"move": move["text"]})
    assert by_text["position"]["columns"] == played["position"]["columns"]
    # Column 10's pile (15) does not exist in Klondike: no such run, a 422 that says so.
    klondike = start(client, "klondike", "0")
    refused = client.post(f"/api/games/{klondike['id']}/moves", json={"source": 15, "dest": 0})
    assert refused.status_code == 422 and "not legal" in refused.json()["error"]


def test_double_klondike_plays_to_the_second_foundation_of_a_suit(client: TestClient) -> None:
    state = start(client, "double-klondike", "7")
    second = next(m for m in state["position"]["legal"] if m["dest"] >= 16)
    assert re.fullmatch(r"\d+f[cdhs]2", second["text"])
    played = play(client, state["id"], {k: second[k] for k in ("source", "dest", "count")})
    foundations = played["position"]["foundations"]
    assert foundations[second["dest"] - 16 + 4] is not None and foundations[:4] == [None] * 4
    assert played["position"]["home"] == 1


def test_typed_double_klondike_codes_and_numbers_deal_the_same(client: TestClient) -> None:
    deal = Deal.from_number(7, 2)
    by_number = start(client, "double-klondike", "7")
    by_code = start(client, "double-klondike", deal.code)
    assert by_code["position"] == by_number["position"]
    assert by_code["typed"] == deal.code and by_code["origin"] == "typed"
    check = client.post("/api/deals/check", json={"deal": deal.code, "decks": 2})
    assert check.status_code == 200
    one_deck = client.post("/api/deals/check", json={"deal": deal.code, "decks": 1})
    assert one_deck.status_code == 422
    refused = client.post(
        "/api/games", json={"rules": Rules().to_dict(), "deal": deal.code}
    )
    assert refused.status_code == 422 and "not a deal" in refused.json()["error"]


@pytest.mark.parametrize(("passes", "words"), [
    (None, "passes must be 1, not unlimited"),  # JSON's null: not Python's "None"
    (0, "passes must be a whole number of at least 1, or unlimited, not 0"),
])
def test_rules_errors_give_the_passes_in_a_players_words(
    client: TestClient, passes: int | None, words: str
) -> None:
    rules = {**Rules.preset("easthaven").to_dict(), "passes": passes}
    answer = client.post("/api/games", json={"rules": rules})
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert words in error and "None" not in error


def test_a_custom_table_is_refused_naming_why(client: TestClient) -> None:
    for rules in ({**Rules().to_dict(), "decks": 2, "columns": 7}, {"columns": 8}):
        answer = client.post("/api/games", json={"rules": rules})
        assert answer.status_code == 422
        assert "not a custom table" in answer.json()["error"]


def test_winnable_deals_are_refused_for_the_relatives_in_words(client: TestClient) -> None:
    answer = client.post(
        "/api/games", json={"rules": Rules.preset("westcliff").to_dict(), "grade": "easy"}
    )
    assert answer.status_code == 422
    assert "Klondike only" in answer.json()["error"]


def test_statistics_are_kept_per_game_and_name_it(client: TestClient) -> None:
    for name in ("westcliff", "easthaven", "double-klondike", "westcliff"):
        state = start(client, name)
        play(client, state["id"], {"move": state["position"]["legal"][0]["text"]})
    client.post("/api/games", json={"rules": Rules().to_dict()})  # ends the last one: lost
    groups = {g["game"]: g for g in client.get("/api/stats").json()["groups"]}
    assert set(groups) == {"Westcliff", "Easthaven", "Double Klondike"}
    assert (groups["Westcliff"]["played"], groups["Westcliff"]["won"]) == (2, 0)
    assert groups["Easthaven"]["played"] == 1
    assert groups["Double Klondike"]["label"].startswith("Double Klondike: ")


def test_a_westcliff_win_is_counted_under_westcliff(client: TestClient) -> None:
    state = start(client, "westcliff", "1")
    for text in WESTCLIFF_WIN.split():
        state = play(client, state["id"], {"move": text})
    assert state["won"] and state["status"] == "won"
    assert state["deal"] == "1"
    chosen = client.get("/api/stats").json()["chosen"]
    assert [(g["game"], g["won"]) for g in chosen] == [("Westcliff", 1)]


def hidden_texts(position: Position) -> set[str]:
    cards = [card for column, down in zip(position.tableau, position.down, strict=True)
             for card in column[:down]]
    return {card_text(card) for card in (*cards, *position.stock)}


def visible_texts(position: Position) -> set[str]:
    cards = [card for column, down in zip(position.tableau, position.down, strict=True)
             for card in column[down:]]
    return {card_text(card) for card in (*cards, *position.waste, *position.home_cards())}


@pytest.mark.parametrize("name", RELATIVES)
def test_no_answer_names_a_hidden_card_nor_the_deal(client: TestClient, name: str) -> None:
    chance = random.Random(name)
    number = str(chance.randrange(10**6))
    state = start(client, name, number)
    game = true_game(name, number)
    deal_code = game.deal.code
    for _step in range(60):
        text = RANDOM_IDS.sub("", json.dumps(state))
        named = set(CARD_CODE.findall(text))
        # A two-deck card shows as its twin's face: only faces in sight may be named.
        assert not named & (hidden_texts(game.position) - visible_texts(game.position))
        assert deal_code not in text and '"deal"' not in text
        legal = state["position"]["legal"]
        if not legal or state["status"] != "playing":
            break
        move = chance.choice(legal)
        state = play(client, state["id"], {k: move[k] for k in ("source", "dest", "count")})
        game.play(next(m for m in game.position.legal_moves() if format_move(m) == move["text"]))


def test_a_double_klondike_card_never_tells_its_deck(client: TestClient) -> None:
    """Two deals alike but for which deck a face-up card came from look the same.

    A deal lists twins first deck first, so a face-up second-deck card would tell
    that its twin lies earlier in the deal, under the cards."""
    deal = Deal.from_number(11, 2)
    rules = Rules.preset("double-klondike")
    layout = deal.layout(rules)
    starts = [sum(rules.column_sizes[:n]) for n in range(rules.columns)]
    face_up = [start + size - 1 for start, size in zip(starts, rules.column_sizes, strict=True)]
    cards = list(deal.cards)
    index, twin = next(
        (at, cards.index(Card(cards[at] - DECK_SIZE))) for at in face_up if cards[at] >= DECK_SIZE
    )
    later = next(at for at in range(len(cards) - 1, index, -1)
                 if at not in face_up and cards[at] % DECK_SIZE != cards[index] % DECK_SIZE)
    cards[twin], cards[later] = cards[later], cards[twin]  # the twin now lies after it
    other = Deal(twinned([Card(card % DECK_SIZE) for card in cards]))
    assert other.cards[index] < DECK_SIZE <= deal.cards[index]  # the first deck's now
    assert layout.columns != other.layout(rules).columns
    one = start(client, "double-klondike", deal.code)
    two = start(client, "double-klondike", other.code)
    assert one["position"] == two["position"]


class FailingAdvisor:
    """A solver that does not play the game yet: every question raises ``RulesError``."""

    def hint(self, view: Any) -> Hint:
        raise RulesError("the search plays Klondike only")

    def progress(self, position: Position) -> bool | None:
        raise RulesError("the search plays Klondike only")


class BrokenAdvisor:
    """A solver with a bug: every question raises something other than ``RulesError``."""

    def hint(self, view: Any) -> Hint:
        raise ValueError("a bug in the search")

    def progress(self, position: Position) -> bool | None:
        raise ValueError("a bug in the search")


@pytest.fixture
def failing(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        SQLiteStorage(tmp_path / "games.db"), limits=ServerLimits(), advisor=FailingAdvisor()
    )
    with TestClient(app) as test:
        yield test


def test_a_bug_in_a_relatives_search_is_a_server_error_not_a_notice(tmp_path: Path) -> None:
    """Only a refusal of the rules (``RulesError``) reads "not available": any
    other error is a bug, answered and logged as one, as in Klondike."""
    app = create_app(
        SQLiteStorage(tmp_path / "games.db"), limits=ServerLimits(), advisor=BrokenAdvisor()
    )
    with TestClient(app, raise_server_exceptions=False) as broken:
        state = start(broken, "westcliff", "3")
        hint = broken.get(f"/api/games/{state['id']}/hint")
        assert hint.status_code == 500
        assert "not available" not in hint.text


def test_a_solver_that_fails_for_a_relative_answers_in_words_not_a_server_error(
    failing: TestClient,
) -> None:
    state = start(failing, "easthaven", "3")
    hint = failing.get(f"/api/games/{state['id']}/hint")
    assert hint.status_code == 200
    assert hint.json()["text"] == "Hints are not available for Easthaven yet."
    assert hint.json()["move"] is None and hint.json()["unavailable"] is True
    progress = failing.get(f"/api/games/{state['id']}/progress")
    assert progress.status_code == 200
    words = "The progress check is not available for Easthaven yet."
    assert progress.json()["unavailable"] == words
    assert progress.json()["progress"] is None


@pytest.mark.parametrize("name", RELATIVES)
def test_hints_and_the_progress_check_answer_in_every_game(client: TestClient, name: str) -> None:
    state = start(client, name, "7")
    hint = client.get(f"/api/games/{state['id']}/hint")
    assert hint.status_code == 200 and hint.json()["text"]
    move = hint.json()["move"]
    assert move is None or move["text"] in [m["text"] for m in state["position"]["legal"]]
    progress = client.get(f"/api/games/{state['id']}/progress")
    assert progress.status_code == 200
    assert progress.json()["progress"] is not False  # a fresh deal can make progress


def test_auto_finish_plays_a_known_westcliff_game_home(client: TestClient) -> None:
    line = WESTCLIFF_WIN.split()
    state = start(client, "westcliff", "1")
    for text in line[:-30]:
        state = play(client, state["id"], {"move": text})
    assert not state["auto_finish"]  # offered once solved, after the progress check
    progress = client.get(f"/api/games/{state['id']}/progress").json()
    assert progress["auto_finish"] is True
    for _step in range(len(line)):
        state = client.post(f"/api/games/{state['id']}/auto", json={}).json()
        if state["won"]:
            break
    assert state["won"] and state["status"] == "won"
