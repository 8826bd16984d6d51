"""The hint over the API: the engine's words and piles, asked of the player's view only."""

from __future__ import annotations

import functools
import pickle
from collections.abc import Iterator
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bonanza.core import CARDS, Deal, Game, Move, Pile, Position, Rules
from bonanza.core.view import PlayerView
from bonanza.session import Hint, Session, messages
from bonanza.solver.advisor import SolverAdvisor
from bonanza.solver.fair_budget import DEFAULT_BUDGET
from bonanza.storage import SQLiteStorage
from bonanza.web import create_app
from bonanza.web.limits import ServerLimits
from bonanza.web.searches import hint_answer, hint_budget, hint_key

QUICK = 0.05
"""Seconds a test's hint may take."""


@dataclass
class Recording:
    """The solver's advisor on a small budget, keeping every view it is asked about."""

    solver: SolverAdvisor = field(default_factory=lambda: SolverAdvisor(budget=QUICK))
    views: list[PlayerView] = field(default_factory=list)

    def hint(self, view: PlayerView) -> Any:
        self.views.append(view)
        return self.solver.hint(view)

    def progress(self, position: Position) -> bool | None:
        return self.solver.progress(position)


class Silent:
    """An advisor with no move and no words (module level: picklable)."""

    def hint(self, view: PlayerView) -> Hint:
        return Hint(None, "")

    def progress(self, position: Position) -> bool | None:
        return None


def app_with(tmp_path: Path, advisor: Any, **limits: Any) -> Any:
    limits.setdefault("search_processes", False)
    return create_app(
        SQLiteStorage(tmp_path / "games.db"), limits=ServerLimits(**limits), advisor=advisor
    )


@pytest.fixture
def advisor() -> Recording:
    return Recording()


@pytest.fixture
def client(tmp_path: Path, advisor: Recording) -> Iterator[TestClient]:
    with TestClient(app_with(tmp_path, advisor)) as test_client:
        yield test_client


def new_game(client: TestClient, deal: str) -> dict[str, Any]:
    response = client.post("/api/games", json={"deal": deal, "rules": {"draw": 1}})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def stored(client: TestClient, game_id: str) -> Session:
    record = client.app.state.service.storage.get_game(game_id)  # type: ignore[attr-defined]
    assert record is not None
    return Session.from_json(record.state)


def twin(deal: Deal) -> Deal:
    """``deal`` with the deepest cards of columns 6 and 7 swapped: both lie face
    down, so the player cannot tell the two games apart."""
    cards = list(deal.cards)
    cards[15], cards[21] = cards[21], cards[15]
    return Deal(cards)


# -- the answer -------------------------------------------------------------------------


def test_the_hint_answer_carries_the_engines_words_and_its_piles(
    client: TestClient, advisor: Recording
) -> None:
    state = new_game(client, "0")  # the ace of clubs lies on column 4
    answer = client.get(f"/api/games/{state['id']}/hint").json()
    assert answer["move"] in state["position"]["legal"]
    assert answer["source"] == answer["move"]["source"] == Pile.T4
    assert answer["dest"] == answer["move"]["dest"] == Pile.FC
    assert CARDS[0].symbol in answer["text"]  # the engine's words name the card
    (view,) = advisor.views
    assert view == stored(client, state["id"]).view()  # the view, not the position


def test_no_move_says_so_in_the_games_words(tmp_path: Path) -> None:
    with TestClient(app_with(tmp_path, Silent())) as client:
        state = new_game(client, "0")
        answer = client.get(f"/api/games/{state['id']}/hint").json()
    assert answer == {"move": None, "text": messages.NO_HINT, "source": None, "dest": None}


def test_the_hint_sees_cards_shown_before_an_undo(client: TestClient, advisor: Recording) -> None:
    gid = new_game(client, "0")["id"]
    drawn = client.post(f"/api/games/{gid}/moves", json={"move": "sw"}).json()
    client.post(f"/api/games/{gid}/undo", json={})
    client.get(f"/api/games/{gid}/hint")
    (view,) = advisor.views
    seen = drawn["position"]["waste"][-1]
    assert any(card is not None and str(card) == seen for card in view.stock)
    assert view.unknown_places == 21 + 23  # face-down cards, and the stock but that card


HISTORY_LIMIT = 3
"""A history limit a test reaches in a few draws."""
CONFLICT = HTTPStatus.CONFLICT


def test_at_the_history_limit_no_hint_suggests_a_move_the_server_refuses(
    tmp_path: Path, advisor: Recording
) -> None:
    app = app_with(tmp_path, advisor, max_history_moves=HISTORY_LIMIT)
    with TestClient(app) as client:
        gid = new_game(client, "0")["id"]
        for _ in range(HISTORY_LIMIT):
            assert client.post(f"/api/games/{gid}/moves", json={"move": "sw"}).is_success
        refused = client.post(f"/api/games/{gid}/moves", json={"move": "sw"})
        hint = client.get(f"/api/games/{gid}/hint")
        assert refused.status_code == hint.status_code == CONFLICT, hint.text
        assert hint.json()["error"] == refused.json()["error"]
        assert f"limit of {HISTORY_LIMIT} moves" in hint.json()["error"]
        assert advisor.views == []  # no search was run
        assert client.post(f"/api/games/{gid}/undo", json={}).is_success
        assert client.get(f"/api/games/{gid}/hint").status_code == HTTPStatus.OK


def test_a_hint_runs_in_a_worker_process_on_a_pickled_view(tmp_path: Path) -> None:
    session = Session.new(Deal.from_number(0), Rules(), 0.0)
    session.draw(1.0)
    view = session.view()
    assert view.earlier  # the deal, already played
    back = pickle.loads(pickle.dumps(view))
    assert back == view and back.earlier == view.earlier and hint_key(back) == hint_key(view)
    work = functools.partial(hint_answer, SolverAdvisor(budget=QUICK), view)
    assert pickle.loads(pickle.dumps(work))().text
    app = app_with(tmp_path, SolverAdvisor(budget=QUICK), search_processes=True)
    with TestClient(app) as client:
        state = new_game(client, "0")
        answer = client.get(f"/api/games/{state['id']}/hint")
        assert answer.status_code == 200 and answer.json()["source"] == Pile.T4


# -- the cache key ----------------------------------------------------------------------


def test_the_cache_key_is_the_view_and_the_positions_played() -> None:
    deal = Deal.from_number(3)
    game = Game(deal, Rules())
    position = game.position
    view = PlayerView.of(position)
    twin_view = PlayerView.of(Game(twin(deal), Rules()).position)
    assert twin_view == view and hint_key(twin_view) == hint_key(view)  # no hidden card in it
    game.play(Move(Pile.STOCK, Pile.WASTE, 1))
    later = PlayerView.of(position, earlier=[game.position])
    assert later == view and hint_key(later) != hint_key(view)  # the hint avoids those
    swapped = position.copy()
    swapped.tableau[0], swapped.tableau[1] = swapped.tableau[1], swapped.tableau[0]
    swapped.down[0], swapped.down[1] = swapped.down[1], swapped.down[0]
    moved = PlayerView.of(swapped)
    assert moved.key() == view.key()  # the same for "this position again"...
    assert hint_key(moved) != hint_key(view)  # ...but not for a hint, which names columns


def test_two_games_the_player_cannot_tell_apart_share_one_search(
    tmp_path: Path, advisor: Recording
) -> None:
    deal = Deal.from_number(3)
    with TestClient(app_with(tmp_path, advisor)) as client:
        for each in (deal, twin(deal)):
            state = new_game(client, each.id)
            assert client.get(f"/api/games/{state['id']}/hint").status_code == 200
        pool = client.app.state.service.searches  # type: ignore[attr-defined]
        assert pool.searches_run == 1 and len(advisor.views) == 1
        (key,) = [key for key in pool._answers if key.startswith("hint")]
        position = Game(deal, Rules()).position
        hidden = {card for col, down in zip(position.tableau, position.down, strict=True)
                  for card in col[:down]} | set(position.stock)
        for card in hidden:
            for text in (str(CARDS[card]), CARDS[card].symbol, CARDS[card].face):
                assert text not in key


# -- the budget ---------------------------------------------------------------------------


def test_the_servers_hint_budget_fits_in_its_search_deadline() -> None:
    limits = ServerLimits()
    assert hint_budget(limits) == DEFAULT_BUDGET < limits.search_deadline
    assert hint_budget(ServerLimits(search_deadline=1.0)) == 0.5


def test_the_view_is_made_once_a_turn_however_often_the_hint_is_asked(
    client: TestClient, advisor: Recording, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[PlayerView] = []
    real = Session.view

    def counted(session: Session) -> PlayerView:
        made.append(real(session))
        return made[-1]

    monkeypatch.setattr(Session, "view", counted)
    gid = new_game(client, "0")["id"]
    for _ in range(3):
        assert client.get(f"/api/games/{gid}/hint").status_code == 200
    assert len(made) == 1 and len(advisor.views) == 1
    client.post(f"/api/games/{gid}/moves", json={"move": "sw"})
    client.post(f"/api/games/{gid}/undo", json={})  # back where it was, one card more seen
    assert client.get(f"/api/games/{gid}/hint").status_code == 200
    assert len(made) == 2 and made[1] != made[0] and len(advisor.views) == 2
