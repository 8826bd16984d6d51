"""Checking a requested move, with errors that never name a hidden card."""

from __future__ import annotations

from collections.abc import Sequence

from bonanza.core import BonanzaError, Move, MoveSyntaxError, Position, format_move, parse_move
from bonanza.play.errors import Invalid


def checked_move(
    position: Position, move: Move | str, legal: Sequence[Move] | None = None
) -> Move:
    """The legal move meant, or ``Invalid`` whose message names the move and never the hidden cards.

    ``legal``: the position's legal moves, if known. Core errors name the whole
    position, so they are not passed on as they are.
    """
    if isinstance(move, str):
        try:
            return parse_move(move, position, legal)
        except MoveSyntaxError:
            raise Invalid(
                f"{move!r} is not a move: write it like sw, w3, 6f, fh2 or 47:3"
            ) from None
        except BonanzaError:  # illegal, or fits several moves
            raise Invalid(f"{move!r} is not legal now") from None
    if not position.is_legal(move):
        column = move.source.column_index  # columns 8-10 are piles 13-15
        if move.count < 1 or (
            move.source.is_tableau
            and (column >= len(position.tableau)
                 or move.count > len(position.tableau[column]) - position.down[column])
        ):
            raise Invalid(f"{format_move(move)} is not legal now: no such run of cards")
        raise Invalid(f"{format_move(move)} is not legal now: {position.why_illegal(move)}")
    return move
