"""What a new game deals for a player (``bonanza.play.games``), on a real SQLite store."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from bonanza.core import Deal, Rules, Scoring
from bonanza.play import (
    Conflict,
    Invalid,
    NotFound,
    Start,
    StartRequest,
    choose_start,
    start_game,
)
from bonanza.play.chosen_deals import daily_overview
from bonanza.play.deal_stock import DealStock, stock_key
from bonanza.play.games import MAX_ID_LENGTH, end, last_game, share_deal
from bonanza.play.ledger import bankroll_before
from bonanza.session import Origin, Session, Status
from bonanza.solver.grading import Grade
from bonanza.storage import SQLiteStorage
from bonanza.storage.player_settings import set_safe_home
from bonanza.storage.protocol import StockedDeal
from bonanza.storage.records import GameRecord

NOON = 1_764_590_400.0  # 2025-12-01 12:00 UTC
PLAYER = "ann"
DEAL_SEVEN = Deal.from_number(7)


def never_finds(rules: Rules, stopping: object) -> None:
    """A finder that finds nothing: the tests stock deals by hand."""
    return None


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[SQLiteStorage]:
    store = SQLiteStorage(tmp_path / "games.db")
    yield store
    store.close()


@pytest.fixture
def stock(storage: SQLiteStorage) -> DealStock:
    return DealStock(storage, lambda: NOON, finder=never_finds, first_delay=0)


def choose(
    storage: SQLiteStorage, stock: DealStock, request: StartRequest, player: str = PLAYER
) -> Start:
    """What ``request`` deals for ``player`` at noon (random deals are deal 7)."""
    return choose_start(storage, stock, player, request, NOON, lambda: DEAL_SEVEN)


def stored(storage: SQLiteStorage, request: StartRequest, stock: DealStock) -> GameRecord:
    """Start ``request`` for the player and store it, as a front end does."""
    start = choose(storage, stock, request)
    record, _session = start_game(storage, PLAYER, start, NOON)
    storage.insert_game(record)
    return record


def finish(storage: SQLiteStorage, record: GameRecord, score: int = 0) -> None:
    session = Session.from_json(record.state)
    end(session, NOON + 60)
    record.update(session, NOON + 60)
    record.score = score
    record.version += 1
    storage.update_game(record)


def test_a_random_deal_is_random_until_the_player_has_had_it(
    storage: SQLiteStorage, stock: DealStock
) -> None:
    first = stored(storage, StartRequest(Rules()), stock)
    assert first.origin is Origin.RANDOM and first.deal == DEAL_SEVEN.id
    again = choose(storage, stock, StartRequest(Rules()))
    assert again.origin is Origin.REPLAY  # seen before: a chosen deal, counted apart
    other_table = choose(storage, stock, StartRequest(Rules.preset("double-klondike")))
    assert other_table.origin is Origin.RANDOM and other_table.deal.decks == 2


def test_a_typed_deal_keeps_its_text_and_a_bad_one_is_invalid(
    storage: SQLiteStorage, stock: DealStock
) -> None:
    start = choose(storage, stock, StartRequest(Rules(), deal_text="7"))
    assert (start.origin, start.typed, start.deal) == (Origin.TYPED, "7", DEAL_SEVEN)
    with pytest.raises(Invalid, match="not a deal"):
        choose(storage, stock, StartRequest(Rules(), deal_text="seven?"))


def test_at_most_one_way_to_choose_the_deal() -> None:
    with pytest.raises(Invalid, match="at most one"):
        StartRequest(Rules(), deal_text="7", share="abc")
    with pytest.raises(Invalid, match="winnable or daily"):
        StartRequest(Rules(), grade=Grade.EASY, replay="abc")


def test_a_replay_deals_the_same_deal_and_rules_and_only_the_players_own(
    storage: SQLiteStorage, stock: DealStock
) -> None:
    vegas = Rules(draw=3, scoring=Scoring.VEGAS)
    old = stored(storage, StartRequest(vegas, deal_text="123"), stock)
    again = choose(storage, stock, StartRequest(Rules(), replay=old.id))
    assert again.origin is Origin.REPLAY
    assert again.deal == Deal.from_number(123) and again.rules == vegas  # the old game's rules
    assert last_game(storage, PLAYER, "web").id == old.id
    with pytest.raises(NotFound):
        choose(storage, stock, StartRequest(Rules(), replay=old.id), "bob")
    with pytest.raises(NotFound):
        choose(storage, stock, StartRequest(Rules(), replay="x" * (MAX_ID_LENGTH + 1)))
    with pytest.raises(Conflict, match="no earlier game"):
        last_game(storage, "bob", "web")


def test_no_share_id_begins_with_a_dash(
    storage: SQLiteStorage, stock: DealStock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``bonanza play --share -x...`` would read the code as an option (a CI run met one)."""
    shared_from = stored(storage, StartRequest(Rules(), deal_text="42"), stock)
    drawn = iter(["-leading", "-again", "plain"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda _size: next(drawn))
    assert share_deal(storage, shared_from.id) == "plain"


def test_a_shared_deal_opens_once_its_game_is_over(
    storage: SQLiteStorage, stock: DealStock
) -> None:
    shared_from = stored(storage, StartRequest(Rules(draw=3), deal_text="42"), stock)
    storage.add_share("s1", shared_from.id)
    with pytest.raises(Conflict, match="opens once"):
        choose(storage, stock, StartRequest(Rules(), share="s1"), "bob")
    finish(storage, shared_from)
    start = choose(storage, stock, StartRequest(Rules(), share="s1"), "bob")
    assert (start.origin, start.deal, start.rules) == (Origin.SHARED, Deal.from_number(42),
                                                       Rules(draw=3))  # fmt: skip
    with pytest.raises(NotFound):
        choose(storage, stock, StartRequest(Rules(), share="nope"), "bob")


def test_a_winnable_deal_comes_from_the_stock_with_its_grade(
    storage: SQLiteStorage, stock: DealStock
) -> None:
    with pytest.raises(Conflict, match="No winnable deal is ready"):
        choose(storage, stock, StartRequest(Rules(), grade=Grade.EASY))
    storage.add_stocked_deal(StockedDeal(Deal.from_number(9).id, stock_key(Rules()), "hard", 0.5))
    start = choose(storage, stock, StartRequest(Rules(), grade=Grade.EASY))
    assert start.origin is Origin.WINNABLE and start.deal == Deal.from_number(9)
    assert start.extra == {"grade": "hard"} and "No easy deal was ready" in start.announce
    record, _session = start_game(storage, PLAYER, start, NOON)
    storage.insert_game(record)
    again = choose(storage, stock, StartRequest(Rules(), replay=record.id))
    assert (again.origin, again.extra) == (Origin.REPLAY, {"grade": "hard"})  # still hard
    with pytest.raises(Invalid, match="Klondike only"):
        choose(storage, stock, StartRequest(Rules.preset("westcliff"), grade=Grade.EASY))


def test_the_daily_deal_is_the_same_for_every_player_and_labelled_with_its_day(
    storage: SQLiteStorage, stock: DealStock
) -> None:
    storage.add_stocked_deal(StockedDeal(Deal.from_number(5).id, stock_key(Rules()), "medium", 0.7))
    ann = choose(storage, stock, StartRequest(Rules(), daily="today"))
    bob = choose(storage, stock, StartRequest(Rules(), daily="2025-12-01"), "bob")
    assert ann.deal == bob.deal == Deal.from_number(5)
    assert ann.extra == {"daily": "2025-12-01", "grade": "medium"}
    assert ann.origin is Origin.SHARED  # the same for everyone: a chosen deal
    with pytest.raises(Invalid, match="not out yet"):
        choose(storage, stock, StartRequest(Rules(), daily="2025-12-02"))
    with pytest.raises(Conflict, match="not ready yet"):
        choose(storage, stock, StartRequest(Rules(draw=3), daily="today"))


def test_a_new_game_takes_the_players_settings(storage: SQLiteStorage, stock: DealStock) -> None:
    set_safe_home(storage, PLAYER, False)
    start = choose(storage, stock, StartRequest(Rules()))
    record, session = start_game(storage, PLAYER, start, NOON, client="terminal")
    assert not session.safe.on and record.client == "terminal"
    assert record.status is Status.PLAYING and record.player == PLAYER


def test_ending_a_game_counts_it_lost_once_and_leaves_a_finished_one(
    storage: SQLiteStorage, stock: DealStock
) -> None:
    record = stored(storage, StartRequest(Rules()), stock)
    session = Session.from_json(record.state)
    session.play("sw", NOON + 1)
    assert end(session, NOON + 2) and session.status is Status.LOST
    assert not end(session, NOON + 3)  # over already: left as it is


def test_the_bankroll_carries_over_games_of_the_same_rules_and_kind(
    storage: SQLiteStorage, stock: DealStock
) -> None:
    vegas = Rules(scoring=Scoring.VEGAS_CUMULATIVE)
    won_some = stored(storage, StartRequest(vegas, deal_text="1"), stock)
    finish(storage, won_some, score=-52)
    chosen = stored(storage, StartRequest(vegas, deal_text="2"), stock)
    finish(storage, chosen, score=-40)
    random_one = stored(storage, StartRequest(vegas), stock)
    finish(storage, random_one, score=-45)
    other_rules = stored(storage, StartRequest(Rules(draw=3, scoring=Scoring.VEGAS_CUMULATIVE)),
                         stock)  # fmt: skip
    finish(storage, other_rules, score=-10)
    now = stored(storage, StartRequest(vegas, deal_text="3"), stock)
    earlier = storage.finished_games(PLAYER)
    assert bankroll_before(earlier, now) == -92  # the two typed deals, not the random one


def test_the_daily_page_sees_a_daily_game_in_play_on_any_front_end(
    storage: SQLiteStorage, stock: DealStock
) -> None:
    storage.add_stocked_deal(StockedDeal(Deal.from_number(5).id, stock_key(Rules()), "medium", 0.7))
    start = choose(storage, stock, StartRequest(Rules(), daily="today"))
    record, _session = start_game(storage, PLAYER, start, NOON, client="terminal")
    storage.insert_game(record)
    overview = daily_overview(stock, storage, PLAYER, 1, NOON)
    assert overview["days"][0] == {"day": "2025-12-01", "today": True, "result": "playing"}
