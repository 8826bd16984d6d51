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
from bonanza.solver.quiet import position_key


def clean_line(start: Position, moves: list[Move]) -> list[Move]:
    """``moves`` from ``start`` with every detour cut out (see the module)."""
    board = start.copy()
    kept: list[Move] = []
    at = {position_key(board): 0}
    for move in moves:
        board.apply(move)
        key = position_key(board)
        earlier = at.get(key)
        if earlier is not None:
            del kept[earlier:]
            at = {seen: index for seen, index in at.items() if index <= earlier}
        else:
            kept.append(move)
            at[key] = len(kept)
    return kept
