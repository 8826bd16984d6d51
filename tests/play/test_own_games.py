"""A front end's own games straight on the store (``bonanza.play.own_games``), as the
terminal plays them, on a real SQLite store."""

from __future__ import annotations

from dataclasses import dataclass

from bonanza.core import Rules
from bonanza.play import StartRequest
from bonanza.play.deal_stock import DealStock
from bonanza.play.own_games import OwnGames
from bonanza.session import Origin, Session, Status
from bonanza.storage import SQLiteStorage

from .test_games import DEAL_SEVEN, NOON, PLAYER, stock, storage, stored  # noqa: F401 (fixtures)


@dataclass(frozen=True)
class Asked:
    """A player's choice: a request, or their last game here again."""

    rules: Rules
    deal_text: str | None = None
    share: str | None = None
    replay: bool = False

    def request(self, last_game: str | None = None) -> StartRequest:
        replay = last_game if self.replay else None
        return StartRequest(self.rules, self.deal_text, self.share, replay)


def games_of(store: SQLiteStorage, deals: DealStock) -> OwnGames:
    """The player's terminal games (random deals are deal 7)."""
    return OwnGames(store, PLAYER, deals, lambda: DEAL_SEVEN)


def test_a_new_game_ends_the_others_here_and_the_latest_is_resumed(
    storage: SQLiteStorage,  # noqa: F811 (the imported fixture)
    stock: DealStock,  # noqa: F811
) -> None:
    web = stored(storage, StartRequest(Rules()), stock)  # a web game in play
    first = games_of(storage, stock).open(Rules(), None, NOON)
    assert (first.record.client, first.stored, first.resumed) == ("terminal", True, False)
    assert first.record.origin is Origin.REPLAY  # deal 7 again, after the web game of it
    typed = games_of(storage, stock).open(Rules(), Asked(Rules(), "8"), NOON + 1)
    assert typed.record.deal == "8" and typed.announce == "New deal"
    ended = storage.get_game(first.record.id)
    assert ended is not None and ended.status is not Status.PLAYING
    web_now = storage.get_game(web.id)
    assert web_now is not None and web_now.status is Status.PLAYING  # not the terminal's
    again = games_of(storage, stock).open(Rules(draw=3), None, NOON + 2)
    assert again.resumed and again.record.id == typed.record.id


def test_a_choice_that_cannot_be_dealt_says_why_and_the_game_in_play_goes_on(
    storage: SQLiteStorage,  # noqa: F811 (the imported fixture)
    stock: DealStock,  # noqa: F811
) -> None:
    games = games_of(storage, stock)
    playing = games.open(Rules(), Asked(Rules(), "9"), NOON)
    opened = games.open(Rules(), Asked(Rules(), share="nope"), NOON + 1)
    assert opened.resumed and opened.record.id == playing.record.id
    assert games.notes == ["shared deal 'nope' not found"]
    replay = games.begin(games.prepare(Asked(Rules(), replay=True), NOON + 2), NOON + 2)
    assert (replay.record.deal, replay.record.origin) == ("9", Origin.REPLAY)


def test_a_start_another_terminal_came_before_is_dealt_again_on_the_store_as_it_is(
    storage: SQLiteStorage,  # noqa: F811 (the imported fixture)
    stock: DealStock,  # noqa: F811
) -> None:
    first, second = games_of(storage, stock), games_of(storage, stock)  # two terminals
    prepared = first.prepare(Asked(Rules()), NOON)  # deal 7, the player's first of it
    assert prepared.record.origin is Origin.RANDOM
    other = second.open(Rules(), Asked(Rules(), "7"), NOON + 1)  # meanwhile, typed there
    opened = first.begin(prepared, NOON + 2)
    assert opened.stored and opened.record.deal == DEAL_SEVEN.id
    assert opened.record.origin is Origin.REPLAY  # not a second first game of deal 7
    ended = storage.get_game(other.record.id)
    assert ended is not None and ended.status is not Status.PLAYING
    playing = storage.playing_games(PLAYER, "terminal")
    assert [game.id for game in playing] == [opened.record.id]


def test_a_game_in_play_that_cannot_be_read_back_is_ended_and_a_new_one_stored(
    storage: SQLiteStorage,  # noqa: F811 (the imported fixture)
    stock: DealStock,  # noqa: F811
) -> None:
    games = games_of(storage, stock)
    damaged = games.open(Rules(), Asked(Rules(), "9"), NOON).record
    damaged.state = {"format": "bonanza-session", "version": 1, "game": {"deal": 5}}
    damaged.moves, damaged.version = 3, damaged.version + 1
    storage.update_game(damaged)
    opened = games_of(storage, stock).open(Rules(), Asked(Rules(), "8"), NOON + 1)
    assert opened.stored and opened.record.deal == "8"  # before: every start stale, unstored
    ended = storage.get_game(damaged.id)
    assert ended is not None and ended.status is Status.LOST  # it had moves: it counted
    assert [game.id for game in storage.playing_games(PLAYER, "terminal")] == [opened.record.id]


def test_the_last_lost_game_is_the_latest_lost_here_and_a_pruned_one_is_passed_over(
    storage: SQLiteStorage,  # noqa: F811 (the imported fixture)
    stock: DealStock,  # noqa: F811
) -> None:
    games = games_of(storage, stock)
    assert games.last_lost() is None
    played = games.open(Rules(), Asked(Rules(), "9"), NOON)
    played.session.draw(NOON)
    played.record.update(played.session, NOON)
    played.record.version += 1
    storage.update_game(played.record)
    games.open(Rules(), Asked(Rules(), "8"), NOON + 1)  # deal 9 counts as lost
    web = stored(storage, StartRequest(Rules()), stock)  # a web game lost later: not here
    web_session = Session.from_json(web.state)
    web_session.draw(NOON + 2)
    web_session.end(NOON + 2)
    web.update(web_session, NOON + 2)
    web.version += 1
    storage.update_game(web)
    assert web.status is Status.LOST
    found = games_of(storage, stock).last_lost()
    assert found is not None
    session, record = found
    assert record.id == played.record.id and session.status is Status.LOST
    assert session.game.history == played.session.game.history
    storage.prune_finished(NOON + 3)  # its moves are gone: nothing left to review
    assert games_of(storage, stock).last_lost() is None
