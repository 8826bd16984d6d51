"""Where games, shares and settings are kept: the protocol, its SQLite and PostgreSQL forms."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

from bonanza.storage.local_player import local_player
from bonanza.storage.location import default_db_path
from bonanza.storage.protocol import (
    NewGame,
    Share,
    StaleGameError,
    StaleStartError,
    Storage,
    StorageError,
)
from bonanza.storage.records import GameRecord, rules_key, rules_of_key
from bonanza.storage.schema import SCHEMA_VERSION, SchemaTooNewError
from bonanza.storage.sqlite import SQLiteStorage
from bonanza.storage.urls import POSTGRES_SCHEMES, is_database_url, redacted, url_scheme

POSTGRES_EXTRA = (
    "pip install -e '.[postgres]' in a checkout, "
    "or pip install 'bonanza-….whl[postgres]' from a wheel"
)
"""How to get what PostgreSQL storage needs (psycopg 3 and its pool)."""


def open_storage(spec: str | Path, **sqlite_options: Any) -> Storage:
    """The store a ``--db`` value names: ``postgresql://user@host/dbname`` (or
    ``postgres://``) is PostgreSQL, anything else a SQLite file (created if need
    be), opened with ``sqlite_options`` (such as ``synchronous``).

    Anything that keeps it from opening (an unknown URL scheme, a malformed URL,
    a server that cannot be reached, psycopg missing, a file that is not a
    database, a schema newer than this code) raises ``StorageError`` with a
    one-line message that shows no password.
    """
    if is_database_url(spec):
        url = str(spec)
        if url_scheme(url) not in POSTGRES_SCHEMES:
            raise StorageError(
                f"cannot open the game store {redacted(url)}: unknown database URL scheme"
                f" {url_scheme(url)!r} (give postgresql://user@host/dbname or a SQLite file)"
            )
        try:
            from bonanza.storage.postgres import PostgresStorage
        except ImportError as error:
            raise StorageError(
                f"PostgreSQL storage needs psycopg 3 ({error}): {POSTGRES_EXTRA}"
            ) from None
        return PostgresStorage(url)
    try:
        return SQLiteStorage(spec, **sqlite_options)
    except (sqlite3.Error, OSError) as error:
        raise StorageError(cannot_open(spec, error)) from None


def cannot_open(spec: str | Path, error: Exception) -> str:
    """Why the SQLite store ``spec`` could not be opened, in one line: the error's
    words, and why the file cannot be written where SQLite says only that it could not."""
    reason = error.strerror if isinstance(error, OSError) and error.strerror else error
    why = unwritable(Path(spec)) if isinstance(error, sqlite3.Error) else None
    more = f" ({why})" if why else ""
    return f"cannot open the game store {spec}: {reason}{more}"


def unwritable(path: Path) -> str | None:
    """Why a SQLite file cannot be written, if it cannot: it, or the folder where SQLite
    keeps its write-ahead log beside it, is read-only (a read-only disk, or permissions).
    SQLite itself only says that it is "unable to open database file"."""
    folder = path.absolute().parent
    if not folder.is_dir():
        return None
    try:
        read_only_disk = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        read_only_disk = False
    if read_only_disk:
        return f"{folder} is on a read-only file system"
    if path.exists() and not os.access(path, os.W_OK):
        return "the file is read-only"
    if not os.access(folder, os.W_OK):
        return f"its folder {folder} is read-only, and SQLite writes its log beside the file"
    return None


__all__ = [
    "SCHEMA_VERSION",
    "GameRecord",
    "NewGame",
    "SQLiteStorage",
    "SchemaTooNewError",
    "Share",
    "StaleGameError",
    "StaleStartError",
    "Storage",
    "StorageError",
    "cannot_open",
    "default_db_path",
    "is_database_url",
    "local_player",
    "open_storage",
    "redacted",
    "rules_key",
    "rules_of_key",
    "unwritable",
]
