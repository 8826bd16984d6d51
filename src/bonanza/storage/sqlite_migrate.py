"""Bringing an SQLite file's schema to this code's version (``storage.schema``)."""

from __future__ import annotations

import sqlite3

from bonanza.storage.schema import SCHEMA_VERSION, SQLITE_LEGACY_COLUMNS, SQLITE_MIGRATIONS, pending


def has_table(db: sqlite3.Connection, name: str) -> bool:
    """Whether the database has a table of this name."""
    found = db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,))
    return found.fetchone() is not None


def migrate(db: sqlite3.Connection) -> int:
    """Bring the schema of ``db`` to this code's version; return the version it had.

    The version is SQLite's ``user_version`` (0: none). A file from before schema
    versions (version 0, a ``games`` table) is step 1 once it has every column of
    ``SQLITE_LEGACY_COLUMNS``. One immediate transaction: processes opening the
    file together upgrade it once, and a step that fails leaves it as it was. A
    file newer than this code raises ``SchemaTooNewError`` and is not touched.
    """
    db.execute("BEGIN IMMEDIATE")
    try:
        found = int(db.execute("PRAGMA user_version").fetchone()[0])
        steps = pending(found, SQLITE_MIGRATIONS)
        if found == 0 and has_table(db, "games"):
            present = {row[1] for row in db.execute("PRAGMA table_info(games)")}
            for name, kind in SQLITE_LEGACY_COLUMNS.items():
                if name not in present:
                    db.execute(f"ALTER TABLE games ADD COLUMN {name} {kind}")
        for step in steps:
            for statement in step.statements:
                db.execute(statement)
        if steps:
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return found
