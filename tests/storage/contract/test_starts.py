"""The storage contract of a new game's start (``Storage.start_game``), on SQLite and
PostgreSQL: the games it ends and its insert in one transaction, refused whole
(``StaleStartError``) when what the start read no longer holds."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bonanza.core import Deal, Rules
from bonanza.session import Session
from bonanza.session.status import Origin, Status
from bonanza.storage import NewGame, StaleStartError
from bonanza.storage.records import GameRecord

from .conftest import NOW, record

LATER = NOW + 5


def ended(game: GameRecord) -> GameRecord:
    """``game``'s new state as a start ends it (abandoned), at the next version."""
    return dataclasses.replace(
        game, status=Status.ABANDONED, finished_at=LATER, version=game.version + 1
    )


def playing_ids(store: Any, player: str = "ann", client: str = "web") -> list[str]:
    return [game.id for game in store.playing_games(player, client)]


def test_a_start_ends_the_games_it_read_and_stores_the_new_one(store: Any) -> None:
    store.insert_game(old := record("old"))
    store.start_game(NewGame(record("new", deal=4), (ended(old),), ("4",)))
    assert playing_ids(store) == ["new"]
    assert store.get_game("old").status is Status.ABANDONED and store.game_version("old") == 1


@pytest.mark.parametrize(
    ("stored_first", "start", "why"),
    [
        # Another start ended the old game first: this one read it at version 0.
        (["old", "old+1"], ("old",), "changed meanwhile"),
        # Another game of the player started on the front end after the reads.
        (["other"], (), "another game of the player started"),
        # A game of the deal, on another front end, stored after the reads: not the first.
        (["terminal"], (), "not the player's first"),
    ],
)
def test_a_start_whose_reads_no_longer_hold_stores_nothing(
    store: Any, stored_first: list[str], start: tuple[str, ...], why: str
) -> None:
    old = record("old")
    stored = {
        "old": old,
        "old+1": ended(old),
        "other": record("other", deal=5),
        "terminal": record("terminal", deal=4, client="terminal", status=Status.LOST),
    }
    for name in stored_first:
        if name == "old+1":
            store.update_game(stored[name])
        else:
            store.insert_game(stored[name])
    before = {name: store.get_game(name) for name in ("old", "other", "terminal")}
    new = record("new", deal=4, origin=Origin.RANDOM)
    with pytest.raises(StaleStartError, match=why):
        store.start_game(NewGame(new, tuple(ended(old) for _ in start), ("4",)))
    assert store.get_game("new") is None
    assert {name: store.get_game(name) for name in before} == before


def test_a_deal_had_on_another_table_or_by_another_player_leaves_the_first_game_first(
    store: Any,
) -> None:
    double = Session.new(Deal.from_number(4, 2), Rules.preset("double-klondike"), NOW)
    store.insert_game(GameRecord.of("double", "ann", double, NOW, client="terminal"))
    store.insert_game(record("bobs", player="bob", deal=4))
    store.start_game(NewGame(record("new", deal=4), (), ("4",)))
    assert playing_ids(store) == ["new"]


def test_a_start_in_a_batch_that_is_stale_fails_alone(store: Any) -> None:
    store.insert_game(record("other", deal=5))
    results = store.write_batch([
        lambda: store.start_game(NewGame(record("new", deal=4))),
        lambda: store.insert_game(record("bobs", player="bob")),
    ])  # fmt: skip
    assert isinstance(results[0], StaleStartError) and results[1] is None
    assert store.get_game("new") is None and store.get_game("bobs") is not None
