"""A new game's start on PostgreSQL (``Storage.start_game``): the games it ends, its insert
and the checks that what its start read still holds, in one transaction.

Under READ COMMITTED two transactions could each check and insert unaware of the other,
so the starts of one player take turns under an advisory transaction lock of the player:
once it is held, each statement sees every start of the player committed before. A
deadlock with another writer of the player's games (PostgreSQL ends one of the two) is
stale too: the start is tried again.
"""

from __future__ import annotations

from typing import Final

import psycopg
from psycopg.rows import TupleRow

from bonanza.storage.protocol import (
    DEAL_HAD,
    ENDED_CHANGED,
    OTHER_STARTED,
    NewGame,
    StaleStartError,
)
from bonanza.storage.records import rules_of_key
from bonanza.storage.rows import (
    COLUMNS,
    FIELDS,
    UPDATED_FIELDS,
    game_row,
    on_same_table,
    updated_values,
)
from bonanza.storage.schema import PLAYING

INSERT_GAME: Final = (
    f"INSERT INTO games ({COLUMNS}) VALUES ({', '.join(['%s'] * len(FIELDS))})"
)
UPDATE_GAME: Final = (
    f"UPDATE games SET {', '.join(f'{name}=%s' for name in UPDATED_FIELDS)}"
    " WHERE id=%s AND version=%s"
)
"""An update of a game, if it is still at the version its writer read (``Storage.update_game``).
Under READ COMMITTED a second writer waits for the first's row lock, then finds the new
version and updates nothing."""
STARTS_LOCK: Final = 0x626F6E62
"""The first key of the advisory locks (the second is the player's hash) that keep the
starts of one player apart ("bonb")."""
OTHER_IN_PLAY: Final = (
    f"SELECT 1 FROM games WHERE player=%s AND client=%s AND status='{PLAYING}' AND id<>%s"
    " LIMIT 1"
)
DEAL_TABLES: Final = (
    "SELECT rules_key FROM games WHERE player=%s AND deal=%s AND id<>%s"
    " UNION SELECT rules_key FROM folded_games WHERE player=%s AND deal=%s"
)


def start_game_rows(db: psycopg.Connection[TupleRow], new: NewGame) -> None:
    """``Storage.start_game`` on ``db`` (a transaction, or a savepoint within a batch's)."""
    record = new.record
    try:
        with db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                       (STARTS_LOCK, record.player))  # fmt: skip
            for ended in new.ended:
                values = (*updated_values(game_row(ended, bool)), ended.id, ended.version - 1)
                if db.execute(UPDATE_GAME, values).rowcount == 0:
                    raise StaleStartError(record.id, ENDED_CHANGED.format(game_id=ended.id))
            db.execute(INSERT_GAME, game_row(record, bool))
            if db.execute(OTHER_IN_PLAY, (record.player, record.client, record.id)).fetchone():
                raise StaleStartError(record.id, OTHER_STARTED)
            rules = rules_of_key(record.rules_key)
            for deal in new.first_of:
                params = (record.player, deal, record.id, record.player, deal)
                keys = [key for (key,) in db.execute(DEAL_TABLES, params).fetchall()]
                if on_same_table(keys, rules):
                    raise StaleStartError(record.id, DEAL_HAD)
    except psycopg.errors.DeadlockDetected as error:
        raise StaleStartError(record.id, str(error).splitlines()[0]) from None
