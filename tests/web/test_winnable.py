"""The API's "still winnable?" and review of a lost game, with the real solver."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bonanza.core import Position
from bonanza.core.notation import parse_move
from bonanza.session import Session
from bonanza.session.winnable import ANSWERS, LABEL
from bonanza.solver import solve
from bonanza.solver.review import REVIEW_TOTAL_SECONDS
from bonanza.storage import SQLiteStorage
from bonanza.web import create_app
from bonanza.web.app import STATIC
from bonanza.web.limits import ServerLimits
from bonanza.web.searches import review_budget

ONE_PASS = {"draw": 1, "passes": 1}
LOSING_DRAWS = 5
"""Deal 0 in one pass is lost after five draws."""
SOLVE_SECONDS = 5.0


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(SQLiteStorage(tmp_path / "games.db"))) as test_client:
        yield test_client


def new_game(client: TestClient, deal: str, rules: dict[str, Any] | None = None) -> str:
    response = client.post("/api/games", json={"deal": deal, "rules": rules or {"draw": 1}})
    assert response.status_code == 201, response.text
    game_id: str = response.json()["id"]
    return game_id


def play(client: TestClient, game_id: str, *moves: str) -> dict[str, Any]:
    state: dict[str, Any] = {}
    for move in moves:
        response = client.post(f"/api/games/{game_id}/moves", json={"move": move})
        assert response.status_code == 200, response.text
        state = response.json()
    return state


def winnable(client: TestClient, game_id: str) -> Any:
    return client.post(f"/api/games/{game_id}/winnable", json={})


def stored(client: TestClient, game_id: str) -> Session:
    record = client.app.state.service.storage.get_game(game_id)  # type: ignore[attr-defined]
    assert record is not None
    return Session.from_json(record.state)


def lost_game(client: TestClient) -> str:
    gid = new_game(client, "0", ONE_PASS)
    play(client, gid, *["sw"] * LOSING_DRAWS)
    return gid


def test_the_answer_is_the_verdict_in_words_and_the_game_is_marked_assisted(
    client: TestClient,
) -> None:
    gid = new_game(client, "0")
    assert client.get(f"/api/games/{gid}").json()["assisted"] is False
    response = winnable(client, gid)
    assert response.status_code == 200
    assert response.json() == {
        "winnable": "winnable", "text": ANSWERS["winnable"], "assisted": True,
    }  # fmt: skip
    assert client.get(f"/api/games/{gid}").json()["assisted"] is True
    assert stored(client, gid).assisted  # stored before the answer went out


def test_a_lost_position_is_said_lost(client: TestClient) -> None:
    answer = winnable(client, lost_game(client)).json()
    assert (answer["winnable"], answer["text"]) == ("lost", ANSWERS["lost"])


def test_a_position_is_searched_once_and_its_key_stays_on_the_server(
    client: TestClient,
) -> None:
    gid = new_game(client, "0")
    pool = client.app.state.service.searches  # type: ignore[attr-defined]
    first = winnable(client, gid).json()
    assert winnable(client, gid).json() == first and pool.searches_run == 1
    (key,) = [key for key in pool._answers if key.startswith("winnable")]
    assert key not in str(first)


def test_it_is_offered_labelled_as_peeking(client: TestClient) -> None:
    page = (STATIC / "index.html").read_text()
    assert f'aria-label="{LABEL}"' in page
    assert "the game then counts as assisted" in page


def test_it_is_refused_once_the_game_is_over_or_not_the_players(client: TestClient) -> None:
    gid = new_game(client, "0")
    play(client, gid, "sw")
    new_game(client, "1")  # the first game is lost now
    response = winnable(client, gid)
    assert response.status_code == 409 and "over" in response.json()["error"]
    assert not stored(client, gid).assisted
    assert client.get(f"/api/games/{gid}/winnable").status_code == 405
    other = winnable(TestClient(client.app), new_game(client, "2"))  # another player
    assert other.status_code == 404 and "not found" in other.json()["error"]


def test_assisted_games_count_apart_in_the_statistics(client: TestClient) -> None:
    vegas = {"draw": 1, "scoring": "vegas-cumulative"}
    helped = new_game(client, "0", vegas)
    play(client, helped, "4f")
    winnable(client, helped)
    fair = new_game(client, "1", vegas)  # the assisted game ends lost
    assert client.get(f"/api/games/{fair}").json()["bankroll"] == -52  # its -47 not carried
    play(client, fair, "sw")
    new_game(client, "2")
    stats = client.get("/api/stats").json()
    (chosen,) = stats["chosen"]
    assert chosen["played"] == 1 and chosen["bankroll"] == -52
    assert stats["assisted"] == {"played": 1, "won": 0}
    export = client.get("/api/stats/export").json()
    assert {game["id"]: game["assisted"] for game in export["games"]} == {
        helped: True, fair: False,
    }  # fmt: skip


def solved(position: Position) -> bool:
    result = solve(position, time_limit=SOLVE_SECONDS)
    assert result.result != "unknown"
    return result.solved


def test_the_review_of_a_lost_game_names_the_move_that_lost_it(client: TestClient) -> None:
    gid = lost_game(client)
    assert client.get(f"/api/games/{gid}/review").status_code == 409  # in play: no review
    new_game(client, "1")
    response = client.get(f"/api/games/{gid}/review")
    assert response.status_code == 200, response.text
    review = response.json()
    assert review["finding"] == "lost_at"
    critical = review["critical"]
    number = critical["number"]
    assert review["after_moves"] == number - 1
    game = stored(client, gid).game
    assert critical["move"]["text"] == "sw" and critical["words"] == "Draw from the stock"
    assert solved(game.positions[number - 1]) and not solved(game.positions[number])
    board = game.positions[number - 1].copy()
    for step in review["line"]:
        board.play(parse_move(step["text"], board))
        assert step["words"]
    assert board.is_won()  # the line replays to a win through the engine


def test_no_review_while_in_play_or_for_a_game_not_lost(client: TestClient) -> None:
    gid = new_game(client, "0")
    response = client.get(f"/api/games/{gid}/review")
    assert response.status_code == 409 and "still in play" in response.json()["error"]
    new_game(client, "1")  # left without a move: abandoned, not lost
    assert client.get(f"/api/games/{gid}/review").status_code == 409


def test_a_game_left_while_winnable_reviews_from_where_it_stopped(client: TestClient) -> None:
    gid = new_game(client, "0")
    play(client, gid, "sw")
    new_game(client, "1")
    review = client.get(f"/api/games/{gid}/review").json()
    assert review["finding"] == "still_winnable" and review["critical"] is None
    assert review["after_moves"] == 1 and review["line"]
    board = stored(client, gid).position.copy()
    for step in review["line"]:
        board.play(parse_move(step["text"], board))
    assert board.is_won()


def test_the_review_fits_in_the_search_deadline() -> None:
    assert review_budget(ServerLimits()) == REVIEW_TOTAL_SECONDS < ServerLimits().search_deadline
    assert review_budget(ServerLimits(search_deadline=2.0)) == 1.0


def test_both_run_in_worker_processes_too(tmp_path: Path) -> None:
    app = create_app(
        SQLiteStorage(tmp_path / "games.db"), limits=ServerLimits(search_processes=True)
    )
    with TestClient(app) as client:
        gid = lost_game(client)
        assert winnable(client, gid).json()["winnable"] == "lost"
        new_game(client, "1")
        assert client.get(f"/api/games/{gid}/review").json()["finding"] == "lost_at"
