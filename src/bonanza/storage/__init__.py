"""Where games, shares and settings are kept: the protocol and its SQLite form."""

from bonanza.storage.local_player import local_player
from bonanza.storage.location import default_db_path
from bonanza.storage.protocol import Share, Storage, StorageError
from bonanza.storage.sqlite import SQLiteStorage

__all__ = ["SQLiteStorage", "Share", "Storage", "StorageError", "default_db_path", "local_player"]
