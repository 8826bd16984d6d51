"""The storage contract (SQLite and PostgreSQL alike): games, two writers of one game and
the new-game limit."""

from __future__ import annotations

import dataclasses
import threading
from typing import Any

import pytest

from bonanza.core import Deal, Rules
from bonanza.session import Session
from bonanza.session.status import Origin, Status
from bonanza.storage import StorageError
from bonanza.storage.protocol import StaleGameError
from bonanza.storage.records import GameRecord

from .conftest import KLONDIKE, NOW, Opener, finished, record

# -- games --------------------------------------------------------------------------------


def test_a_game_comes_back_exactly_as_stored(store: Any) -> None:
    game = record(
        "g1",
        origin=Origin.SHARED,
        created_at=1234.5,
        started_at=1240.25,
        finished_at=None,
        elapsed=12.75,
        moves=7,
        score=-52,
        cards_home=3,
        version=4,
        client="terminal",
        assisted=True,
        extra={"typed": "7", "nested": {"a": [1, 2.5, None]}},
    )
    store.insert_game(game)
    assert store.get_game("g1") == game
    assert store.get_game("nobody") is None


def test_an_id_with_a_nul_byte_names_nothing_on_every_backend(store: Any) -> None:
    """PostgreSQL cannot hold NUL: asking for such an ID must find nothing, as on
    SQLite, not fail as if the store were down (a 503 for a bad link)."""
    store.insert_game(record("g1"))
    store.add_share("s1", "g1")
    for text in ("g1\x00", "\x00", "s1\x00x"):
        assert store.get_game(text) is None
        assert store.game_version(text) is None
        assert store.get_share(text) is None


def test_inserting_a_game_id_twice_fails(store: Any) -> None:
    store.insert_game(record("g1"))
    with pytest.raises(StorageError):
        store.insert_game(record("g1", player="bob"))
    assert store.get_game("g1").player == "ann"


def test_an_update_replaces_every_field_but_the_games_identity(store: Any) -> None:
    store.insert_game(record("g1"))
    changed = record(
        "g1",
        status=Status.LOST,
        origin=Origin.REPLAY,
        started_at=NOW + 1,
        finished_at=NOW + 60,
        elapsed=59.5,
        moves=40,
        score=15,
        cards_home=20,
        archived=True,
        version=1,
        assisted=True,
        extra={"k": "v"},
    )
    changed.state = {"replaced": True}
    store.update_game(changed)
    assert store.get_game("g1") == changed


def test_an_update_keeps_the_games_identity_as_inserted(store: Any) -> None:
    store.insert_game(record("g1"))
    other = record("g1", player="bob", deal=5, created_at=NOW + 9, client="terminal", moves=3)
    store.update_game(dataclasses.replace(other, version=1))
    stored = store.get_game("g1")
    assert (stored.player, stored.deal, stored.created_at, stored.client) == (
        "ann",
        record("g1").deal,
        NOW,
        "web",
    )
    assert (stored.moves, stored.version) == (3, 1)
    assert store.latest_game("ann").id == "g1"


def test_a_game_stored_as_over_can_be_written_back_in_play_and_over_again(store: Any) -> None:
    store.insert_game(finished("g1", NOW + 60, status=Status.LOST))
    in_play = record("g1", moves=8, version=1)
    store.update_game(in_play)
    assert store.get_game("g1") == in_play
    assert [game.id for game in store.playing_games("ann")] == ["g1"]
    store.update_game(record("g1", moves=9, version=2))
    won = finished("g1", NOW + 90, moves=10, version=3)
    store.update_game(won)
    assert store.get_game("g1") == won
    assert store.playing_games("ann") == []
    with pytest.raises(StaleGameError):
        store.update_game(record("g1", moves=11, version=3))  # read at 2, stored at 3
    assert store.get_game("g1") == won


def test_what_is_stored_outlives_the_store(opener: Opener) -> None:
    first = opener()
    first.insert_game(record("g1"))
    first.set_setting("player", "ann")
    first.close()
    again = opener()
    assert again.get_game("g1") == record("g1")
    assert again.get_setting("player") == "ann"


def test_the_latest_game_is_the_last_created_on_that_front_end(store: Any) -> None:
    assert store.latest_game("ann") is None
    store.insert_game(record("old", created_at=NOW))
    store.insert_game(record("new", created_at=NOW + 5))
    store.insert_game(record("older", created_at=NOW - 5))
    store.insert_game(record("tui", created_at=NOW + 9, client="terminal"))
    store.insert_game(record("bobs", player="bob", created_at=NOW + 9))
    assert store.latest_game("ann").id == "new"
    assert store.latest_game("ann", "terminal").id == "tui"
    assert store.latest_game("carl") is None


def test_of_games_created_at_the_same_time_the_last_stored_is_the_latest(store: Any) -> None:
    for name in ("b", "a", "c"):
        store.insert_game(record(name, created_at=NOW))
    assert store.latest_game("ann").id == "c"


def test_playing_games_are_the_players_games_in_progress_on_that_front_end(store: Any) -> None:
    assert store.playing_games("ann") == []
    store.insert_game(record("p1"))
    store.insert_game(record("p2"))
    store.insert_game(finished("won", NOW + 1))
    store.insert_game(record("gone", status=Status.ABANDONED))
    store.insert_game(record("tui", client="terminal"))
    store.insert_game(record("bobs", player="bob"))
    assert sorted(game.id for game in store.playing_games("ann")) == ["p1", "p2"]
    assert [game.id for game in store.playing_games("ann", "terminal")] == ["tui"]
    assert store.playing_games("ann")[0].state == record("p1").state


def test_finished_games_are_won_and_lost_oldest_first_without_their_state(store: Any) -> None:
    assert store.finished_games("ann") == []
    store.insert_game(finished("late", NOW + 30))
    store.insert_game(finished("early", NOW + 10, Status.LOST))
    store.insert_game(finished("tie-1", NOW + 20))
    store.insert_game(finished("tie-2", NOW + 20, client="terminal"))
    store.insert_game(record("playing"))
    store.insert_game(record("gone", status=Status.ABANDONED, finished_at=NOW))
    store.insert_game(finished("bobs", NOW, player="bob"))
    games = store.finished_games("ann")
    assert [game.id for game in games] == ["early", "tie-1", "tie-2", "late"]
    assert all(game.state == {} for game in games)
    assert games[0] == dataclasses.replace(finished("early", NOW + 10, Status.LOST), state={})




def test_has_played_deal_counts_any_game_of_the_player(store: Any) -> None:
    deal = record("g", deal=3).deal
    assert not store.has_played_deal("ann", deal, KLONDIKE)
    store.insert_game(record("g", deal=3, status=Status.ABANDONED))
    assert store.has_played_deal("ann", deal, KLONDIKE)
    assert store.has_played_deal("ann", deal, Rules(draw=3))  # the same layout, drawn by 3
    assert not store.has_played_deal("bob", deal, KLONDIKE)
    assert not store.has_played_deal("ann", record("x", deal=4).deal, KLONDIKE)


@pytest.mark.parametrize("other", ["double-klondike", "westcliff", "easthaven"])
def test_a_deal_number_of_another_game_is_another_deal(store: Any, other: str) -> None:
    """Deal 5 of Double Klondike (or of Westcliff's table) is not Klondike's deal 5."""
    rules = Rules.preset(other)
    game = Session.new(Deal.from_number(5, rules.decks), rules, NOW)
    other_game = GameRecord.of("other", "ann", game, NOW)
    store.insert_game(dataclasses.replace(other_game, status=Status.LOST, finished_at=NOW))
    assert game.game.deal.id == "5"
    for pruned in (False, True):
        assert store.has_played_deal("ann", "5", rules)
        assert not store.has_played_deal("ann", "5", KLONDIKE)
        assert store.prune_finished(NOW + 1) == (0 if pruned else 1)
    store.insert_game(record("klondike", deal=5))
    assert store.has_played_deal("ann", "5", KLONDIKE)


def test_games_in_play_before_a_time_are_every_players_oldest_first(store: Any) -> None:
    store.insert_game(record("ann-new", created_at=NOW + 50))
    store.insert_game(record("bob-old", player="bob", created_at=NOW + 10))
    store.insert_game(record("ann-old", created_at=NOW + 20))
    store.insert_game(finished("ann-over", NOW + 30, created_at=NOW))
    assert [g.id for g in store.games_in_play_before(NOW + 50)] == ["bob-old", "ann-old"]
    assert store.games_in_play_before(NOW + 51)[-1] == record("ann-new", created_at=NOW + 50)
    assert store.games_in_play_before(NOW + 10) == []


def test_archiving_takes_finished_games_out_of_the_statistics(store: Any) -> None:
    assert store.archive_finished_games("ann") == 0
    store.insert_game(finished("won", NOW + 1))
    store.insert_game(finished("lost", NOW + 2, Status.LOST))
    store.insert_game(record("playing"))
    store.insert_game(finished("bobs", NOW, player="bob"))
    assert store.archive_finished_games("ann") == 2
    assert store.archive_finished_games("ann") == 0
    assert store.finished_games("ann") == []
    assert store.get_game("won").archived and not store.get_game("playing").archived
    assert [game.id for game in store.finished_games("bob")] == ["bobs"]
    store.insert_game(finished("after", NOW + 3))
    assert [game.id for game in store.finished_games("ann")] == ["after"]


# -- two writers of one game ----------------------------------------------------------------

WRITERS = 6
"""Threads (on two stores) updating one game from the same version at once."""


def moved(game: GameRecord, moves: int) -> GameRecord:
    """``game`` as a writer who read it makes it: ``moves`` moves, the next version."""
    return dataclasses.replace(game, moves=moves, version=game.version + 1)


def test_of_two_writers_who_read_one_version_the_second_is_refused(opener: Opener) -> None:
    first, second = opener(), opener()  # two processes' stores on one database
    first.insert_game(record("g1"))
    read_by_first, read_by_second = first.get_game("g1"), second.get_game("g1")
    first.update_game(moved(read_by_first, 5))
    with pytest.raises(StaleGameError) as refused:
        second.update_game(moved(read_by_second, 9))
    assert isinstance(refused.value, StorageError)
    assert (refused.value.game_id, refused.value.read_version) == ("g1", 0)
    assert "g1" in str(refused.value)
    assert first.get_game("g1") == second.get_game("g1") == moved(read_by_first, 5)
    again = second.get_game("g1")  # read again, the second writer may go on
    second.update_game(moved(again, 9))
    assert first.get_game("g1") == moved(again, 9)
    assert first.game_version("g1") == second.game_version("g1") == 2


def test_of_writers_racing_from_one_version_exactly_one_succeeds(opener: Opener) -> None:
    stores = [opener(), opener()]
    stores[0].insert_game(record("g1"))
    read = stores[0].get_game("g1")
    outcomes: dict[int, str] = {}
    start = threading.Barrier(WRITERS)

    def write(n: int) -> None:
        start.wait()
        try:
            stores[n % 2].update_game(moved(read, n + 1))
            outcomes[n] = "stored"
        except StaleGameError:
            outcomes[n] = "stale"

    threads = [threading.Thread(target=write, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = [n for n, outcome in outcomes.items() if outcome == "stored"]
    assert len(outcomes) == WRITERS and len(winners) == 1
    assert stores[1].get_game("g1") == moved(read, winners[0] + 1)


def test_an_update_of_a_game_that_is_gone_is_refused(store: Any) -> None:
    with pytest.raises(StaleGameError):
        store.update_game(moved(record("nobody"), 1))
    assert store.get_game("nobody") is None
    assert store.game_version("nobody") is None


def test_a_stale_update_in_a_batch_fails_alone(opener: Opener) -> None:
    store, other = opener(), opener()
    for name in ("g1", "g2"):
        store.insert_game(record(name))
    other.update_game(moved(record("g1"), 7))  # another process moves g1 first
    results = store.write_batch(
        [
            lambda: store.update_game(moved(record("g1"), 3)),  # read before that: stale
            lambda: store.update_game(moved(record("g2"), 4)),
            lambda: store.set_setting("after", "yes"),
        ]
    )
    assert isinstance(results[0], StaleGameError) and results[0].game_id == "g1"
    assert results[1:] == [None, None]
    assert other.get_game("g1") == moved(record("g1"), 7)  # the winner's state
    assert other.get_game("g2") == moved(record("g2"), 4)
    assert other.get_setting("after") == "yes"


def test_updates_one_after_another_in_a_batch_each_add_one(store: Any) -> None:
    store.insert_game(record("g1"))
    once = moved(record("g1"), 1)
    twice = moved(once, 2)
    assert store.write_batch(
        [lambda: store.update_game(once), lambda: store.update_game(twice)]
    ) == [
        None,
        None,
    ]
    assert store.get_game("g1") == twice and store.game_version("g1") == 2


def test_archiving_a_game_changes_its_version(store: Any) -> None:
    store.insert_game(finished("won", NOW + 1, version=4))
    assert store.game_version("won") == 4
    store.archive_finished_games("ann")
    assert store.game_version("won") == 5


# -- the new-game limit --------------------------------------------------------------------

LIMIT = 3
WINDOW = 60.0
COUNTERS = 8
"""Threads (on two stores) counting new games of one client at once."""


def test_new_games_are_counted_per_client_within_the_window(store: Any) -> None:
    assert [store.count_new_game("1.2.3.4", NOW + n, LIMIT, WINDOW) for n in range(4)] == [
        True,
        True,
        True,
        False,
    ]
    assert store.count_new_game("5.6.7.8", NOW + 4, LIMIT, WINDOW)  # another client
    assert not store.count_new_game("1.2.3.4", NOW + WINDOW - 1, LIMIT, WINDOW)
    assert store.count_new_game("1.2.3.4", NOW + WINDOW + 0.5, LIMIT, WINDOW)  # the first left
    assert not store.count_new_game("1.2.3.4", NOW + WINDOW + 0.6, LIMIT, WINDOW)


def test_expired_counts_are_deleted(store: Any) -> None:
    for n in range(20):
        store.count_new_game(f"client-{n}", NOW, LIMIT, WINDOW)
    rows = {size.name: size.rows for size in store.table_sizes()}
    assert rows["new_game_starts"] == 20
    store.count_new_game("late", NOW + 2 * WINDOW, LIMIT, WINDOW)
    rows = {size.name: size.rows for size in store.table_sizes()}
    assert rows["new_game_starts"] == 1


def test_processes_counting_at_once_hold_the_limit_together(opener: Opener) -> None:
    stores = [opener(), opener()]
    allowed: list[bool] = []
    start = threading.Barrier(COUNTERS)

    def count(n: int) -> None:
        start.wait()
        allowed.append(stores[n % 2].count_new_game("1.2.3.4", NOW + n / 100, LIMIT, WINDOW))

    threads = [threading.Thread(target=count, args=(n,)) for n in range(COUNTERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(allowed) == [False] * (COUNTERS - LIMIT) + [True] * LIMIT


def test_a_batch_can_count_new_games(store: Any) -> None:
    results = store.write_batch(
        [lambda: store.count_new_game("c", NOW, 1, WINDOW)] * 2
        + [lambda: store.insert_game(record("g"))]
    )
    assert results == [True, False, None]
