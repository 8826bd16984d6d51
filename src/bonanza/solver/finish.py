"""Auto finish that never fails: the solver's winning line, foundation moves first.

An auto finish is offered only when the player knows every card (nothing face
down, the whole stock seen) *and* the exact solver proves the position won,
so it is offered before every card is face up in the tableau and never starts
a finish that stalls. The line played is the solver's, with its detours cut
(:func:`~bonanza.solver.lines.clean_line`). Cards go home as early as the line
allows: before each move that is not a foundation move, a later foundation
move of the line that is open already is brought forward (lowest rank first)
when the rest of the line, replayed, still wins. So the finish is one proven
win from start to end.

The games ask ``finish_view`` (through ``SolverAdvisor.finish``): the input is
the player's view, which knows a card by elimination or from before an undo
too, and holds no card the player has not seen.
"""

from __future__ import annotations

from bonanza.core.moves import Move
from bonanza.core.position import Position
from bonanza.core.view import PlayerView
from bonanza.solver.lines import clean_line
from bonanza.solver.quiet import is_known
from bonanza.solver.search import compiled, solve

FINISH_NODES = 200_000
"""Nodes for one proof; known positions late in a game need far fewer."""
FINISH_MEMORY = 64 * 2**20
"""Bytes for one proof's table."""
GENERIC_FINISH_NODES = 40_000
"""Nodes for one proof by the generic search (rules the C core does not
take; set when it ran in Python, some thirty times slower a position)."""


def winning_line(position: Position, node_limit: int = FINISH_NODES) -> list[Move] | None:
    """A proven winning line from a position the player knows whole, its
    detours cut; None when a card is unknown or no win is proven in the limit."""
    if position.is_won() or not is_known(position):
        return None
    return _proven_line(position, node_limit)


def finish_line(position: Position, node_limit: int = FINISH_NODES) -> list[Move] | None:
    """The whole auto finish: a proven win with foundation moves first where it
    allows (see the module); None when no win is proven."""
    plan = winning_line(position, node_limit)
    return None if plan is None else _home_early(position, plan)


def finish_view(view: PlayerView, node_limit: int = FINISH_NODES) -> list[Move] | None:
    """The auto finish for what the player knows: ``finish_line`` of the
    position the view is, when it places every card (``PlayerView.is_known``:
    also a face-down card known by elimination, or seen before an undo).
    Made from the view alone, it cannot use a card the player has not seen."""
    if not view.is_known():
        return None
    position = view.layout(())
    if position.is_won():
        return None
    plan = _proven_line(position, node_limit)
    return None if plan is None else _home_early(position, plan)


def _proven_line(position: Position, node_limit: int) -> list[Move] | None:
    """The solver's winning line from ``position`` (every card as it lies),
    detours cut; None when no win is proven within ``node_limit``."""
    if not compiled(position):
        node_limit = min(node_limit, GENERIC_FINISH_NODES)
    result = solve(position, node_limit=node_limit, memory_limit=FINISH_MEMORY)
    if not result.solved:
        return None
    return clean_line(position, list(result.moves))


def _home_early(position: Position, plan: list[Move]) -> list[Move]:
    """``plan`` with its foundation moves brought forward where the rest still wins."""
    board = position.copy()
    line: list[Move] = []
    while plan:
        if not plan[0].dest.is_foundation:
            plan = _home_first(board, plan)
        board.apply(plan[0])
        line.append(plan[0])
        plan = plan[1:]
    return line


def first_finish_move(position: Position, node_limit: int = FINISH_NODES) -> Move | None:
    """The next move of the auto finish, or None when none is proven."""
    line = finish_line(position, node_limit)
    return line[0] if line else None


def _home_first(board: Position, plan: list[Move]) -> list[Move]:
    """``plan`` with one of its later foundation moves brought to the front, if
    that move is open now and the rest still replays to a win; else ``plan``.
    Lowest ranks first, so the foundations grow evenly."""
    open_now = set(board.legal_moves())
    later = [
        index
        for index, move in enumerate(plan)
        if index > 0 and move in open_now and move.dest.is_foundation
    ]
    later.sort(key=lambda index: board.foundations[plan[index].dest.foundation_index])
    for index in later:
        hoisted = [plan[index], *plan[:index], *plan[index + 1 :]]
        if board.wins_with(hoisted):
            return hoisted
    return plan


__all__ = ["FINISH_NODES", "finish_line", "finish_view", "first_finish_move", "winning_line"]
