"""Moves packed into text: the exact moves of a game, read back without a position.

A move's notation (``sw``, ``6f``) needs the position to be read (how many cards
a draw turns, which foundation ``f`` means), so reading a history from it means
replaying the game. This code keeps each move exactly, as three bytes (source,
destination, count) in base64, so a saved game's moves come back in time linear
in their number with no move played.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable
from typing import Final

from bonanza.core.errors import SaveError
from bonanza.core.moves import ALL_PILES, Move

MOVE_BYTES: Final = 3
"""Bytes per move: source pile, destination pile, count."""
_MOVES: dict[tuple[int, int, int], Move] = {}
"""Moves read so far, shared: a game's moves are few distinct values."""


CODE_CHARS: Final = 4
"""Characters of one move's code: base64 writes three bytes as four characters, with no
padding, so the code of several moves is their codes one after another."""
_CODES: dict[Move, str] = {}
"""Codes made so far, shared."""


def move_code(move: Move) -> str:
    """One move as text: :func:`encode_moves` of it alone (``CODE_CHARS`` characters)."""
    code = _CODES.get(move)
    if code is None:
        data = bytes((move.source, move.dest, move.count))
        code = _CODES[move] = base64.b64encode(data).decode("ascii")
    return code


def encode_moves(moves: Iterable[Move]) -> str:
    """``moves`` as text (base64 of three bytes each)."""
    return "".join(map(move_code, moves))


def decode_moves(text: object) -> list[Move]:
    """The moves :func:`encode_moves` wrote; ``SaveError`` for anything else."""
    if not isinstance(text, str):
        raise SaveError(f"saved moves {text!r} are not text")
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise SaveError("saved moves are not base64") from None
    if len(data) % MOVE_BYTES:
        raise SaveError(f"saved moves are {len(data)} bytes, not a multiple of {MOVE_BYTES}")
    moves = []
    for at in range(0, len(data), MOVE_BYTES):
        key = (data[at], data[at + 1], data[at + 2])
        move = _MOVES.get(key)
        if move is None:
            source, dest, count = key
            if source >= len(ALL_PILES) or dest >= len(ALL_PILES) or not count:
                raise SaveError(f"saved move {key} names no move")
            move = _MOVES[key] = Move(ALL_PILES[source], ALL_PILES[dest], count)
        moves.append(move)
    return moves
