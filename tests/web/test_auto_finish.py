"""The solver's auto finish on the web: offered in the progress answer, played by /auto."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from bonanza.core.notation import format_move
from bonanza.storage import SQLiteStorage
from bonanza.web import create_app
from bonanza.web.limits import ServerLimits
from tests.session.test_auto_finish_solver import THOUGHTFUL_3, late_known_session

from .test_api import new_game, play


def test_the_progress_answer_offers_the_finish_and_auto_plays_it_to_a_win(
    client: TestClient,
) -> None:
    session = late_known_session(5)  # the greedy finish is not offered there
    state = new_game(client, session.game.deal.id, THOUGHTFUL_3.to_dict())
    for move in session.game.history:
        state = play(client, state["id"], format_move(move))
    assert not state["auto_finish"]
    gid = state["id"]
    progress = client.get(f"/api/games/{gid}/progress").json()
    assert progress["auto_finish"] is True and set(progress) == {"progress", "auto_finish"}
    assert client.get(f"/api/games/{gid}").json()["auto_finish"]
    steps = 0
    while not state["won"]:
        response = client.post(f"/api/games/{gid}/auto", json={})
        assert response.status_code == 200, response.text
        state = response.json()
        steps += 1
        assert steps < 300
    assert state["status"] == "won" and "line" not in state


def test_auto_solves_the_finish_itself_when_the_page_has_not_asked(client: TestClient) -> None:
    session = late_known_session(5)
    state = new_game(client, session.game.deal.id, THOUGHTFUL_3.to_dict())
    for move in session.game.history:
        state = play(client, state["id"], format_move(move))
    response = client.post(f"/api/games/{state['id']}/auto", json={})
    assert response.status_code == 200, response.text
    assert response.json()["auto_finish"]


def test_no_finish_is_offered_while_cards_are_unknown(client: TestClient) -> None:
    state = new_game(client, "7")
    assert client.get(f"/api/games/{state['id']}/progress").json()["auto_finish"] is False
    assert client.post(f"/api/games/{state['id']}/auto", json={}).status_code == 409


def test_at_the_history_limit_no_finish_is_offered_that_could_not_be_played(
    tmp_path: Path,
) -> None:
    session = late_known_session(5)  # the finish is solved when the page asks
    limit = session.game.move_count  # its last move fills the history
    app = create_app(
        SQLiteStorage(tmp_path / "games.db"), limits=ServerLimits(max_history_moves=limit)
    )
    with TestClient(app) as client:
        state = new_game(client, session.game.deal.id, THOUGHTFUL_3.to_dict())
        for move in session.game.history:
            state = play(client, state["id"], format_move(move))
        gid = state["id"]
        assert not state["auto_finish"] and not state.get("progress", {}).get("auto_finish")
        progress = client.get(f"/api/games/{gid}/progress").json()
        assert progress["auto_finish"] is False
        assert client.get(f"/api/games/{gid}").json()["auto_finish"] is False
        refused = client.post(f"/api/games/{gid}/auto", json={})
        assert refused.status_code == 409
        assert (
            refused.json()["error"]
            == f"this game has reached its limit of {limit} moves: start a new one"
        )
