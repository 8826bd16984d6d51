"""Reading a move from a request: notation text or source, dest and count."""

from __future__ import annotations

from typing import Final

from bonanza.core import Move, Pile
from bonanza.core.cards import DECK_SIZE, MAX_DECKS
from bonanza.core.moves import ALL_PILES
from bonanza.web.bodies import MoveBody
from bonanza.web.errors import ApiError

UNPROCESSABLE: Final = 422
MAX_MOVE_TEXT: Final = 16
"""Characters of the longest text read as a move."""


def read_move(body: MoveBody) -> Move | str:
    """``{"move": "w3"}`` or ``{"source": 8, "dest": 2, "count": 1}``."""
    if body.move is not None:
        if len(body.move) > MAX_MOVE_TEXT:
            raise ApiError(UNPROCESSABLE, "field 'move' is too long to be a move")
        return body.move
    source, dest, count = body.source, body.dest, 1 if body.count is None else body.count
    if source is None or dest is None:
        raise ApiError(
            UNPROCESSABLE, "give a move as 'move' (like \"w3\") or as 'source' and 'dest'"
        )
    last_pile, most = len(ALL_PILES) - 1, MAX_DECKS * DECK_SIZE
    for name, value in (("source", source), ("dest", dest)):
        if not 0 <= value <= last_pile:
            raise ApiError(
                UNPROCESSABLE,
                f"field {name!r} must be a pile number from 0 to {last_pile}, not {value}",
            )
    if not 1 <= count <= most:
        raise ApiError(UNPROCESSABLE, f"field 'count' must be from 1 to {most}, not {count}")
    return Move(Pile(source), Pile(dest), count)
