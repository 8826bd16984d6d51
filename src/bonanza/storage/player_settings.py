"""A player's settings, kept in the store's settings under the player's token.

Both games read them: a local ``bonanza serve`` and ``bonanza play`` share this
machine's player, and so its settings.
"""

from __future__ import annotations

from typing import Final

from bonanza.storage.protocol import Storage

SAFE_HOME: Final = "safe_home"
"""Safe auto-play: safe cards go home by themselves after each move (off by default)."""
ON: Final = "on"
OFF: Final = "off"


def _key(name: str, player: str) -> str:
    return f"player:{player}:{name}"


def safe_home(storage: Storage, player: str) -> bool:
    """Whether the player has safe auto-play on."""
    return storage.get_setting(_key(SAFE_HOME, player)) == ON


def set_safe_home(storage: Storage, player: str, on: bool) -> None:
    """Store the player's safe auto-play setting."""
    storage.set_setting(_key(SAFE_HOME, player), ON if on else OFF)
