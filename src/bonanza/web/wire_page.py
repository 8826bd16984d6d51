"""What the page carries in its data block, as a declared type (``page``)."""

from __future__ import annotations

from msgspec import UNSET, Struct, UnsetType

from bonanza.web.wire import GameView
from bonanza.web.wire_answers import Settings


class PageData(Struct):
    """The player's ``settings`` and latest game (``current``: null before the first),
    each left out when it cannot be read; a new player's first deal (``started``)."""

    settings: Settings | UnsetType = UNSET
    current: GameView | UnsetType | None = UNSET
    started: GameView | UnsetType = UNSET
