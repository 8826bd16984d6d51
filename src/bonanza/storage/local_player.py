"""The player of this machine: one identity for ``bonanza play`` and a local ``serve``."""

from __future__ import annotations

import secrets

from bonanza.storage.protocol import Storage

LOCAL_PLAYER_SETTING = "local_player"
TOKEN_BYTES = 18


def local_player(storage: Storage) -> str:
    """This machine's player token, made on first use and kept in the store."""
    token = storage.get_setting(LOCAL_PLAYER_SETTING)
    if token is None:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        storage.set_setting(LOCAL_PLAYER_SETTING, token)
    return token
