"""Hints and the stuck check, delegated to the solver package when it is there."""

from __future__ import annotations

from bonanza.core.moves import Move
from bonanza.core.position import Position

PROGRESS_NODE_LIMIT = 20_000


def hint(position: Position) -> Move | None:
    """One useful move, chosen without looking at hidden cards."""
    try:
        from bonanza.solver.hint import hint as solver_hint
    except ImportError:
        return _fallback_hint(position)
    return solver_hint(position)


def progress_possible(position: Position) -> bool | None:
    """False when no sequence of moves can make progress; None when unknown."""
    try:
        from bonanza.solver.progress import progress_possible as solver_progress
    except ImportError:
        return None
    return solver_progress(position, node_limit=PROGRESS_NODE_LIMIT)


def _fallback_hint(position: Position) -> Move | None:
    """A plain preference order used until the solver's hint exists."""
    moves = position.legal_moves()

    def rank(move: Move) -> int:
        if move.source.is_foundation:
            return 9
        if move.dest.is_foundation:
            return 0
        if (
            move.source.is_tableau
            and move.count == len(position.tableau[move.source]) - position.down[move.source]
            and position.down[move.source]
        ):
            return 1
        if move.source.is_tableau and move.dest.is_tableau:
            return 5 if move.count == len(position.tableau[move.source]) else 3
        if move.is_draw or move.is_recycle:
            return 8
        return 2

    useful = [m for m in moves if rank(m) < 5]
    return (
        min(useful, key=rank)
        if useful
        else next((m for m in moves if m.is_draw or m.is_recycle), None)
    )
