"""The server holds the truth: statistics cannot be farmed, shares and limits behave."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bonanza.core import Deal, Position, Rules, format_move
from bonanza.core.view import PlayerView
from bonanza.session import Hint
from bonanza.storage import SQLiteStorage, StorageError
from bonanza.web import create_app
from bonanza.web.limits import ServerLimits

from . import deals

VEGAS_1 = Rules.preset("vegas-1").to_dict()
CUMULATIVE = Rules.from_dict({"scoring": "vegas-cumulative"}).to_dict()


class CountingAdvisor:
    """Draws when it can; counts its searches; ``gate`` makes a search wait."""

    def __init__(self) -> None:
        self.searches = 0
        self.gate: threading.Event | None = None

    def hint(self, view: PlayerView) -> Hint:
        self.searches += 1
        if self.gate is not None:
            self.gate.wait(5)
        move = next(iter(view.legal_moves()), None)
        return Hint(move, f"Try {format_move(move)}" if move else "")

    def progress(self, position: Position) -> bool | None:
        self.searches += 1
        return True


class SleepyAdvisor:
    """A search that takes far too long (module level: worker processes can load it)."""

    def hint(self, view: PlayerView) -> Hint:
        time.sleep(60)
        return Hint(None, "")

    def progress(self, position: Position) -> bool | None:
        return None


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Table:
    """One app with a fixed sequence of random deals, a hand clock and a fake advisor."""

    def __init__(
        self,
        tmp_path: Path,
        limits: ServerLimits | None = None,
        advisor: Any = None,
    ) -> None:
        numbers = itertools.count(100)
        self.clock = Clock()
        self.advisor = CountingAdvisor()
        self.storage = SQLiteStorage(tmp_path / "games.db")
        self.app = create_app(
            self.storage,
            self.clock,
            limits or ServerLimits(search_processes=False),  # the counting advisor stays here
            advisor=advisor or self.advisor,
            random_deals=lambda: Deal.from_number(next(numbers)),
        )

    def client(self) -> TestClient:
        return TestClient(self.app)


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path)


@pytest.fixture
def client(table: Table) -> Iterator[TestClient]:
    with table.client() as test_client:
        yield test_client


def new(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def act(client: TestClient, gid: str, path: str, **body: Any) -> Any:
    return client.post(f"/api/games/{gid}/{path}", json=body)


def stats(client: TestClient) -> dict[str, Any]:
    data: dict[str, Any] = client.get("/api/stats").json()
    return data


def test_undo_cannot_erase_a_loss(client: TestClient) -> None:
    gid = new(client)["id"]
    assert act(client, gid, "moves", move="sw").status_code == 200
    assert act(client, gid, "undo").status_code == 200
    new(client)
    (group,) = stats(client)["groups"]
    assert (group["played"], group["won"]) == (1, 0)


def test_restart_cannot_erase_a_loss(client: TestClient) -> None:
    gid = new(client)["id"]
    act(client, gid, "moves", move="sw")
    act(client, gid, "moves", move="sw")
    assert act(client, gid, "restart").json()["moves"] == 0
    new(client)
    assert stats(client)["groups"][0]["played"] == 1


def test_chosen_deals_never_count_as_fresh_wins(client: TestClient) -> None:
    number, moves = deals.winning()
    texts = deals.texts(moves)
    for _ in range(10):
        state = new(client, deal=number)
        assert state["origin"] == "typed"
        for text in texts:
            state = act(client, state["id"], "moves", move=text).json()
        assert state["won"]
    replay = new(client, replay=state["id"])
    assert replay["origin"] == "replay"
    data = stats(client)
    assert data["groups"] == []  # ten wins of a chosen deal: no headline streak, no best time
    (chosen,) = data["chosen"]
    assert chosen["won"] == 10


def test_a_random_deal_seen_before_counts_as_a_replay(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.app.state.service.random_deals = lambda: Deal.from_number(5)
    with table.client() as client:
        assert new(client)["origin"] == "random"
        assert new(client)["origin"] == "replay"


def test_in_vegas_undo_cannot_show_the_stock_for_free(client: TestClient) -> None:
    state = new(client, rules=VEGAS_1)
    gid = state["id"]
    for _ in range(24):
        state = act(client, gid, "moves", move="sw").json()
    assert not state["can_undo"] and not state["can_restart"]
    refused = act(client, gid, "undo")
    assert refused.status_code == 409 and "stays seen" in refused.json()["error"]
    assert act(client, gid, "restart").status_code == 409
    assert client.get(f"/api/games/{gid}").json()["position"]["stock"]["count"] == 0


def test_the_vegas_ante_is_paid_when_the_deal_is_dealt(client: TestClient) -> None:
    new(client, rules=CUMULATIVE)
    second = new(client, rules=CUMULATIVE)  # the first, left with no move, still cost $52
    assert second["bankroll"] == -104
    new(client)
    (group,) = [g for g in stats(client)["groups"] if "bankroll" in g]
    assert group["played"] == 2 and group["bankroll"] == -104


def test_the_bankroll_shows_from_the_start_of_a_game(client: TestClient) -> None:
    state = new(client, rules=CUMULATIVE)
    assert state["bankroll"] == -52 and state["score"] == -52


def test_the_deal_id_is_shown_once_the_game_is_over(client: TestClient) -> None:
    state = new(client)
    assert "deal" not in state and "deal_code" not in state and state["announce"] == "New deal"
    new(client)
    over = client.get(f"/api/games/{state['id']}").json()
    assert over["status"] == "abandoned" and over["deal"] == "100"


def test_a_typed_deal_shows_what_was_typed(client: TestClient) -> None:
    state = new(client, deal=" 42 ")
    assert state["typed"] == " 42 " and "deal" not in state


def test_a_share_link_opens_the_same_deal_for_another_player_once_over(table: Table) -> None:
    with table.client() as alice, table.client() as bob:
        state = new(alice)
        share = act(alice, state["id"], "share").json()
        assert share["url"] == f"/?share={share['share']}" and not share["opens_now"]
        early = bob.post("/api/games", json={"share": share["share"]})
        assert early.status_code == 409 and "opens once" in early.json()["error"]
        act(alice, state["id"], "moves", move="sw")
        new(alice)
        opened = new(bob, share=share["share"])
        assert opened["origin"] == "shared"
        assert opened["position"]["columns"] == state["position"]["columns"]
        missing = bob.post("/api/games", json={"share": "nope"})
        assert missing.status_code == 404


def test_one_search_per_position_however_often_it_is_asked(table: Table) -> None:
    with table.client() as client:
        gid = new(client)["id"]
        for _ in range(20):
            assert client.get(f"/api/games/{gid}/hint").status_code == 200
        assert table.advisor.searches == 1


def test_searches_are_rate_limited_per_player(tmp_path: Path) -> None:
    table = Table(tmp_path, ServerLimits(searches_per_minute=3, search_processes=False))
    with table.client() as client, table.client() as other:
        gid = new(client)["id"]
        codes = []
        for _ in range(5):
            act(client, gid, "moves", move="sw")
            codes.append(client.get(f"/api/games/{gid}/hint").status_code)
        assert codes == [200, 200, 200, 429, 429]
        other_gid = new(other)["id"]
        assert other.get(f"/api/games/{other_gid}/hint").status_code == 200


def test_many_cookies_from_one_address_are_limited_together(tmp_path: Path) -> None:
    """Issue 31: cookies are free, so a flood from one address under many cookies
    is held to the address's limit; another address is not."""
    limits = ServerLimits(
        searches_per_minute=100, searches_per_address_per_minute=4, search_processes=False
    )
    table = Table(tmp_path, limits)
    codes = []
    with table.client() as client:
        for _ in range(6):  # a fresh cookie each time, one address (the test client's)
            client.cookies.clear()
            gid = new(client)["id"]
            answer = client.get(f"/api/games/{gid}/hint")
            codes.append(answer.status_code)
    assert codes == [200] * 4 + [429] * 2
    assert "address" in answer.json()["error"]


def test_a_search_past_its_deadline_answers_503(tmp_path: Path) -> None:
    table = Table(tmp_path, ServerLimits(search_deadline=0.2, search_processes=False))
    table.advisor.gate = threading.Event()
    with table.client() as client:
        gid = new(client)["id"]
        slow = client.get(f"/api/games/{gid}/hint")
        table.advisor.gate.set()
        assert slow.status_code == 503 and "longer than" in slow.json()["error"]
        assert client.get(f"/api/games/{gid}").status_code == 200


def test_new_games_are_rate_limited(tmp_path: Path) -> None:
    table = Table(tmp_path, ServerLimits(new_games_per_minute=2))
    with table.client() as client:
        new(client)
        new(client)
        refused = client.post("/api/games", json={})
        assert refused.status_code == 429 and "a minute" in refused.json()["error"]


def test_the_history_is_capped(tmp_path: Path) -> None:
    table = Table(tmp_path, ServerLimits(max_history_moves=5))
    with table.client() as client:
        gid = new(client)["id"]
        for _ in range(5):
            assert act(client, gid, "moves", move="sw").status_code == 200
        refused = act(client, gid, "moves", move="sw")
        assert refused.status_code == 409 and "limit of 5 moves" in refused.json()["error"]


def test_a_failed_write_rolls_back_and_answers_503(table: Table, client: TestClient) -> None:
    gid = new(client)["id"]
    act(client, gid, "moves", move="sw")
    real = table.storage.update_game

    def broken(record: Any) -> None:
        raise StorageError("disk full")

    table.storage.update_game = broken  # type: ignore[method-assign]
    failed = act(client, gid, "moves", move="sw")
    assert failed.status_code == 503 and "try again" in failed.json()["error"]
    table.storage.update_game = real  # type: ignore[method-assign]
    state = client.get(f"/api/games/{gid}").json()
    assert state["moves"] == 1  # what is stored, not what was played in memory


def test_a_search_in_a_worker_process_is_stopped_at_its_deadline(tmp_path: Path) -> None:
    limits = ServerLimits(search_deadline=1.0, search_processes=True)
    table = Table(tmp_path, limits, advisor=SleepyAdvisor())
    with table.client() as client:
        gid = new(client)["id"]
        started = time.monotonic()
        slow = client.get(f"/api/games/{gid}/hint")
        assert slow.status_code == 503 and time.monotonic() - started < 30
        assert act(client, gid, "moves", move="sw").status_code == 200


def test_hints_from_the_solver_run_in_worker_processes(tmp_path: Path) -> None:
    app = create_app(SQLiteStorage(tmp_path / "games.db"), limits=ServerLimits())
    with TestClient(app) as client:
        gid = new(client)["id"]
        answer = client.get(f"/api/games/{gid}/hint").json()
        assert answer["move"] is not None and answer["text"]
        assert client.get(f"/api/games/{gid}/progress").json()["progress"] is True


def test_most_progress_checks_are_decided_without_a_worker(tmp_path: Path) -> None:
    app = create_app(SQLiteStorage(tmp_path / "games.db"))
    with TestClient(app) as client:
        gid = new(client)["id"]
        for _ in range(10):
            assert client.get(f"/api/games/{gid}/progress").json()["progress"] is True
            act(client, gid, "moves", move="sw")
        pool = app.state.service.searches
        assert pool.searches_run == 0 and pool.quick is not None
