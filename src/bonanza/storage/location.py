"""The one database a player has on this machine, shared by ``play`` and ``serve``."""

from __future__ import annotations

from pathlib import Path

import platformdirs

APP_NAME = "bonanza"
DB_NAME = "bonanza.db"


def default_db_path() -> Path:
    """The SQLite file in the user's data directory (``platformdirs``)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / DB_NAME
