"""A new game's start on SQLite (``Storage.start_game``): the games it ends, its insert
and the checks that what its start read still holds, in one transaction.

SQLite lets one connection write at a time, across processes: once the transaction
holds the write lock (``BEGIN IMMEDIATE``, or the batch's), its reads see every commit
and no other write can come between them and its own, so the starts of one player
take turns. Within a batch the start is a savepoint, undone alone when it is stale.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from bonanza.storage.protocol import (
    DEAL_HAD,
    ENDED_CHANGED,
    OTHER_STARTED,
    NewGame,
    StaleStartError,
)
from bonanza.storage.records import GameRecord, rules_of_key
from bonanza.storage.rows import COLUMNS, FIELDS, game_row, on_same_table
from bonanza.storage.schema import PLAYING
from bonanza.storage.sqlite_update import update_game_row

INSERT_GAME: Final = f"INSERT INTO games ({COLUMNS}) VALUES ({', '.join('?' * len(FIELDS))})"
OTHER_IN_PLAY: Final = (
    f"SELECT 1 FROM games WHERE player=? AND client=? AND status='{PLAYING}' AND id<>? LIMIT 1"
)
"""Another game of the player in play on the front end (the partial index games_playing)."""
DEAL_TABLES: Final = (
    "SELECT rules_key FROM games WHERE player=? AND deal=? AND id<>?"
    " UNION SELECT rules_key FROM folded_games WHERE player=? AND deal=?"
)
"""The tables of the player's other games of one deal (the (player, deal) indexes)."""
START_SAVEPOINT: Final = "start_game"


def insert_game_row(db: sqlite3.Connection, record: GameRecord) -> None:
    db.execute(INSERT_GAME, game_row(record))


@contextmanager
def _atomic(db: sqlite3.Connection) -> Iterator[None]:
    """One transaction that holds the write lock from its start, or a savepoint of the
    batch's transaction; undone if the block raises."""
    if db.in_transaction:
        db.execute(f"SAVEPOINT {START_SAVEPOINT}")
        try:
            yield
        except BaseException:
            db.execute(f"ROLLBACK TO {START_SAVEPOINT}")
            db.execute(f"RELEASE {START_SAVEPOINT}")
            raise
        db.execute(f"RELEASE {START_SAVEPOINT}")
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def start_game_rows(db: sqlite3.Connection, new: NewGame) -> None:
    """``Storage.start_game`` on the writing connection ``db``."""
    record = new.record
    with _atomic(db):
        for ended in new.ended:
            if update_game_row(db, ended) == 0:
                raise StaleStartError(record.id, ENDED_CHANGED.format(game_id=ended.id))
        insert_game_row(db, record)
        if db.execute(OTHER_IN_PLAY, (record.player, record.client, record.id)).fetchone():
            raise StaleStartError(record.id, OTHER_STARTED)
        rules = rules_of_key(record.rules_key)
        for deal in new.first_of:
            params = (record.player, deal, record.id, record.player, deal)
            if on_same_table([key for (key,) in db.execute(DEAL_TABLES, params)], rules):
                raise StaleStartError(record.id, DEAL_HAD)
