"""Winning lines as a player should follow them: no detours, no repeats.

The solver's lines may hold pointless detours, such as a card taken down from
a foundation and sent straight back (``fd5`` then ``5f``). A detour comes
back to a position already on the line, so cutting every stretch between
two visits of one position leaves a line that still wins and never repeats
a position.
"""

from __future__ import annotations

from bonanza.core.moves import Move
from bonanza.core.position import Position


def place_key(position: Position) -> tuple[object, ...]:
    """The position with its columns in place (unlike ``quiet.position_key``:
    a line's later moves name columns, so a cut must come back to the very
    same columns), counting recycles only as none or some when unlimited."""
    recycles = position.recycles
    if position.rules.passes is None:
        recycles = min(recycles, 1)
    return (tuple(map(tuple, position.tableau)), tuple(position.down), tuple(position.stock),
            tuple(position.waste), tuple(position.foundations), recycles)


def clean_line(start: Position, moves: list[Move]) -> list[Move]:
    """``moves`` from ``start`` with every detour cut out (see the module)."""
    board = start.copy()
    kept: list[Move] = []
    at = {place_key(board): 0}
    for move in moves:
        board.apply(move)
        key = place_key(board)
        earlier = at.get(key)
        if earlier is not None:
            del kept[earlier:]
            at = {seen: index for seen, index in at.items() if index <= earlier}
        else:
            kept.append(move)
            at[key] = len(kept)
    return kept
