"""The storage contract (SQLite and PostgreSQL alike): shares, settings, the winnable deal
stock, daily deals, batches, the schema, sizes and pruning."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from bonanza.core import Rules
from bonanza.core.rules import Scoring
from bonanza.play.daily import DAILY_KEY, daily_statistics, utc_day
from bonanza.play.ledger import records_set, statistics
from bonanza.session.status import Origin, Status
from bonanza.storage import SCHEMA_VERSION, Storage, StorageError
from bonanza.storage.protocol import DailyDeal, Share, StockedDeal
from bonanza.storage.records import GameRecord, rules_key
from bonanza.web.writer import BatchWriting

from .conftest import KLONDIKE, NOW, STOCKED, TAKERS, Opener, finished, record

# -- shares -------------------------------------------------------------------------------


def test_a_share_stands_for_its_games_deal_and_opens_once_that_game_is_over(store: Any) -> None:
    game = record("g1")
    store.insert_game(game)
    store.add_share("s1", "g1")
    assert store.get_share("s1") == Share(game.deal, game.rules_key, "g1", opens=False)
    over = dataclasses.replace(game, status=Status.LOST, finished_at=NOW + 1, version=1)
    store.update_game(over)
    assert store.get_share("s1") == Share(game.deal, game.rules_key, "g1", opens=True)
    assert store.get_share("unknown") is None


def test_a_share_id_is_given_once(store: Any) -> None:
    store.insert_game(record("g1"))
    store.insert_game(record("g2"))
    store.add_share("s1", "g1")
    with pytest.raises(StorageError):
        store.add_share("s1", "g2")
    assert store.get_share("s1").game_id == "g1"


def test_a_share_of_an_unknown_game_stands_for_nothing(store: Any) -> None:
    store.add_share("s1", "nobody")
    assert store.get_share("s1") is None


# -- settings -----------------------------------------------------------------------------


def test_settings_are_kept_and_replaced(store: Any) -> None:
    assert store.get_setting("local_player") is None
    store.set_setting("local_player", "ann")
    store.set_setting("other", "x")
    store.set_setting("local_player", "bob")
    assert store.get_setting("local_player") == "bob"
    assert store.get_setting("other") == "x"


# -- the winnable deal stock ----------------------------------------------------------------


def stocked(deal: int, key: str = "d1", grade: str = "easy") -> StockedDeal:
    return StockedDeal(str(deal), key, grade, deal / 100)


def test_stocked_deals_are_taken_oldest_first_per_rules_and_grade(store: Any) -> None:
    assert store.take_stocked_deal("d1", "easy") is None
    assert store.stock_counts() == {}
    for deal in (stocked(5), stocked(1), stocked(9, grade="hard"), stocked(7, key="d3")):
        store.add_stocked_deal(deal)
    store.add_stocked_deal(stocked(3))
    assert store.stock_counts() == {("d1", "easy"): 3, ("d1", "hard"): 1, ("d3", "easy"): 1}
    assert store.take_stocked_deal("d1", "easy") == stocked(5)
    assert store.take_stocked_deal("d1", "easy") == stocked(1)
    assert store.take_stocked_deal("d1", "medium") is None
    assert store.take_stocked_deal("d3", "easy") == stocked(7, key="d3")
    assert store.stock_counts() == {("d1", "easy"): 1, ("d1", "hard"): 1}
    assert store.take_stocked_deal("d1", "easy") == stocked(3)
    assert store.take_stocked_deal("d1", "easy") is None
    assert store.stock_counts() == {("d1", "hard"): 1}


def test_takers_at_once_each_get_a_different_deal(opener: Opener) -> None:
    """Several connections (PostgreSQL: several pooled ones) take from one stock at once."""
    stores = [opener() for _ in range(2)]
    for deal in range(STOCKED):
        stores[0].add_stocked_deal(stocked(deal))
    taken: list[StockedDeal] = []
    lock = threading.Lock()
    start = threading.Barrier(TAKERS)

    def take(store: Any) -> None:
        start.wait()
        while (deal := store.take_stocked_deal("d1", "easy")) is not None:
            with lock:
                taken.append(deal)

    threads = [threading.Thread(target=take, args=(stores[n % 2],)) for n in range(TAKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(int(deal.deal) for deal in taken) == list(range(STOCKED))
    assert stores[1].stock_counts() == {}


# -- daily deals --------------------------------------------------------------------------


def test_the_first_daily_deal_chosen_stands(store: Any) -> None:
    first = DailyDeal("2025-01-02", "draw1", "123", "medium")
    assert store.daily_deal("2025-01-02", "draw1") is None
    assert store.set_daily_deal(first) == first
    assert store.set_daily_deal(DailyDeal("2025-01-02", "draw1", "456", "easy")) == first
    assert store.daily_deal("2025-01-02", "draw1") == first
    other = DailyDeal("2025-01-02", "draw3", "789", "hard")
    assert store.set_daily_deal(other) == other
    assert store.daily_deal("2025-01-03", "draw1") is None


def test_daily_deals_chosen_at_once_agree(opener: Opener) -> None:
    stores = [opener() for _ in range(2)]
    chosen: list[DailyDeal] = []
    start = threading.Barrier(TAKERS)

    def choose(n: int) -> None:
        start.wait()
        chosen.append(stores[n % 2].set_daily_deal(DailyDeal("2025-01-02", "d", str(n), "easy")))

    threads = [threading.Thread(target=choose, args=(n,)) for n in range(TAKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(chosen) == TAKERS and len(set(chosen)) == 1
    assert stores[0].daily_deal("2025-01-02", "d") == chosen[0]


# -- batches ------------------------------------------------------------------------------


def test_the_store_writes_in_batches(store: Any) -> None:
    storage: Storage = store  # and it is a Storage, for the type checker
    assert isinstance(storage, BatchWriting)


def test_a_batch_is_one_commit_and_every_write_is_stored(opener: Opener) -> None:
    store = opener()
    records = [record(f"game-{n}") for n in range(10)]
    writes: list[Callable[[], Any]] = [partial(store.insert_game, r) for r in records]
    store.add_stocked_deal(stocked(1))
    writes += [
        lambda: store.take_stocked_deal("d1", "easy"),
        lambda: store.set_daily_deal(DailyDeal("2025-01-02", "d", "5", "easy")),
        lambda: store.archive_finished_games("ann"),
    ]
    results = store.write_batch(writes)
    assert results == [None] * 10 + [stocked(1), DailyDeal("2025-01-02", "d", "5", "easy"), 0]
    assert store.commits == 1
    other = opener()  # another connection sees it all
    assert all(other.get_game(r.id) == r for r in records)


def test_a_failing_write_in_a_batch_is_undone_alone(store: Any) -> None:
    first, second = record("first"), record("second")

    def refused() -> None:
        raise StorageError("the game store failed: disk I/O error")

    results = store.write_batch(
        [
            lambda: store.insert_game(first),
            lambda: store.insert_game(first),  # a second insert of the same ID: fails
            refused,
            lambda: store.set_setting("after", "yes"),
            lambda: store.insert_game(second),
        ]
    )
    assert results[0] is None and results[3] is None and results[4] is None
    assert isinstance(results[1], StorageError)
    assert isinstance(results[2], StorageError) and "disk I/O" in str(results[2])
    assert store.commits == 1
    assert store.get_game("first") == first and store.get_game("second") == second
    assert store.get_setting("after") == "yes"


def test_a_batch_of_one_is_its_write_alone(store: Any) -> None:
    assert store.write_batch([lambda: store.insert_game(record("one"))]) == [None]
    (failed,) = store.write_batch([lambda: store.insert_game(record("one"))])
    assert isinstance(failed, StorageError)
    assert store.commits == 1
    assert store.get_game("one") == record("one")


def test_writes_after_a_batch_are_on_their_own_again(store: Any) -> None:
    store.write_batch([lambda: store.set_setting("a", "1"), lambda: store.set_setting("b", "2")])
    store.set_setting("c", "3")
    with pytest.raises(StorageError):
        store.insert_game(record("g"))
        store.insert_game(record("g"))
    assert store.get_game("g") is not None and store.get_setting("c") == "3"


# -- schema, sizes and pruning ------------------------------------------------------------

DAY = 86_400.0
CUTOFF = NOW + 100 * DAY
TABLES = {
    "games",
    "folded_games",
    "shares",
    "settings",
    "deal_stock",
    "daily_deals",
    "new_game_starts",
}
VEGAS_CUMULATIVE = rules_key(Rules(draw=3, passes=3, scoring=Scoring.VEGAS_CUMULATIVE))


def test_a_store_is_at_this_codes_schema_version_and_says_what_it_found(opener: Opener) -> None:
    first = opener()
    assert first.found_version == 0
    assert first.schema_version() == SCHEMA_VERSION
    first.close()
    again = opener()
    assert again.found_version == again.schema_version() == SCHEMA_VERSION


def test_table_sizes_count_every_tables_rows(store: Any) -> None:
    store.insert_game(record("g1"))
    store.insert_game(record("g2"))
    store.set_setting("a", "b")
    sizes = {size.name: size for size in store.table_sizes()}
    assert set(sizes) >= TABLES
    assert (sizes["games"].rows, sizes["settings"].rows, sizes["folded_games"].rows) == (2, 1, 0)
    assert all(size.bytes is None or size.bytes > 0 for size in sizes.values())
    assert sizes["games"].bytes is not None  # dbstat here; pg_total_relation_size
    assert store.database_bytes() > 0


def history() -> list[GameRecord]:
    """Ann's games over 200 days (every kind the statistics tell apart), and Bob's."""
    games = []
    for n in range(40):
        at = NOW + n * 5 * DAY
        kind = n % 8
        changes: dict[str, Any] = {"finished_at": at, "created_at": at - 60}
        changes["status"] = Status.LOST if n % 3 == 0 else Status.WON
        changes.update(elapsed=100.0 + n, moves=90 + n % 7, score=n * 7 % 50 - 10)
        if kind == 1:
            changes["origin"] = Origin.TYPED
        elif kind == 2:
            changes["assisted"] = True
        elif kind == 3:
            changes["rules_key"] = VEGAS_CUMULATIVE
        elif kind == 4:
            changes["extra"] = {DAILY_KEY: str(utc_day(at))}
            changes["origin"] = Origin.SHARED
        elif kind == 5:
            changes.update(status=Status.ABANDONED, score=0)
        games.append(record(f"g{n:02}", deal=n, **changes))
    games.append(finished("tie-a", CUTOFF - DAY))  # same finish: stored order settles it
    games.append(finished("tie-b", CUTOFF - DAY, Status.LOST))
    games.append(record("old-playing", deal=90, created_at=NOW))
    games.append(finished("bobs", NOW, player="bob"))
    return games


def figures(store: Any) -> dict[str, Any]:
    """Everything the player's statistics are made of, as the front ends read them."""
    games = store.finished_games("ann")
    last_win = next(g for g in reversed(games) if g.status is Status.WON and not g.assisted)
    return {
        "games": games,
        "statistics": statistics(games),
        "daily": daily_statistics(games, 1, utc_day(CUTOFF + 100 * DAY)),
        "records": records_set(games, last_win),
        "bob": store.finished_games("bob"),
        "deals": [
            store.has_played_deal("ann", record("x", deal=n).deal, KLONDIKE) for n in range(45)
        ],
    }


def test_pruning_folds_old_games_that_are_over_and_keeps_the_statistics(store: Any) -> None:
    games = history()
    for game in games:
        store.insert_game(game)
    store.add_share("old-share", "g01")
    before = figures(store)
    over = [g for g in games if g.status.is_over and (g.finished_at or 0) < CUTOFF]
    assert store.prune_finished(CUTOFF) == len(over) > 0
    assert store.prune_finished(CUTOFF) == 0
    assert figures(store) == before
    assert [store.get_game(g.id) for g in over] == [None] * len(over)
    assert store.get_game("old-playing") == games[-2]  # in play: never pruned
    assert store.get_game("g39") is not None  # finished after the cutoff
    assert store.get_share("old-share").opens
    sizes = {size.name: size.rows for size in store.table_sizes()}
    assert sizes["folded_games"] == len(over)
    assert sizes["games"] == len(games) - len(over)
    assert store.prune_finished(CUTOFF + 1000 * DAY) > 0
    assert figures(store) == before


def test_pruned_games_are_archived_with_the_others(store: Any) -> None:
    store.insert_game(finished("old", NOW))
    store.insert_game(finished("new", NOW + 2 * DAY, Status.LOST))
    store.insert_game(finished("bobs", NOW, player="bob"))
    assert store.prune_finished(NOW + DAY) == 2
    assert store.archive_finished_games("ann") == 2
    assert store.finished_games("ann") == []
    assert [game.id for game in store.finished_games("bob")] == ["bobs"]


def test_a_batch_can_prune(store: Any) -> None:
    store.insert_game(finished("old", NOW))
    results = store.write_batch(
        [lambda: store.prune_finished(NOW + 1), lambda: store.insert_game(record("g"))]
    )
    assert results == [1, None]
    assert store.get_game("old") is None and store.finished_games("ann")[0].id == "old"
