"""Fair hints: one useful move, chosen without peeking at hidden cards.

The policy, in order:

1. a safe move to a foundation (no card could ever need it in the tableau);
2. when every card is known (thoughtful games, or late in a game), the first
   move of the solver's winning line;
3. the first move of the shortest line of quiet moves that turns up a
   face-down card (see ``quiet``: the search never follows a move that
   would show a hidden card, so hidden cards cannot sway it);
4. any other move to a foundation;
5. the first move of the shortest line that shows an unseen stock card;
6. nothing: no move makes progress.
"""

from __future__ import annotations

from bonanza.core.moves import Move
from bonanza.core.position import Position
from bonanza.core.safety import is_safe_move_home
from bonanza.solver.quiet import (
    Budget,
    Step,
    explore,
    is_known,
    shows_unseen,
    turns_up,
)

DEFAULT_NODE_LIMIT = 20_000
SOLVER_SECONDS = 0.5
SOLVER_MEMORY = 128 * 2**20


def is_safe_to_foundation(position: Position, move: Move) -> bool:
    """Whether ``move`` sends home a card no tableau card could still need, and
    not off the waste with draw 3 (``bonanza.core.safety.is_safe_move_home``)."""
    return is_safe_move_home(position, move)


def hint(position: Position, node_limit: int = DEFAULT_NODE_LIMIT) -> Move | None:
    """A useful move by the policy above, or ``None`` when none makes progress.

    Each line found is a shortest one, so following hints shortens it by one
    move at a time and never goes round in circles.
    """
    moves = position.legal_moves()
    for move in moves:
        if is_safe_to_foundation(position, move):
            return move
    if is_known(position):
        return _solver_hint(position)
    reveal: Step | None = None
    draw: Step | None = None
    for step in explore(position, Budget(node_limit)):
        if reveal is not None and step.start_depth >= reveal.depth:
            break
        if turns_up(step.before, step.move):
            if reveal is None or step.depth < reveal.depth:
                reveal = step
        elif shows_unseen(step.before, step.move) and (draw is None or step.depth < draw.depth):
            draw = step
    if reveal is not None:
        return reveal.first
    for move in moves:
        if move.dest.is_foundation:
            return move
    return draw.first if draw is not None else None


def _solver_hint(position: Position) -> Move | None:
    from bonanza.solver.search import solve

    result = solve(position, time_limit=SOLVER_SECONDS, memory_limit=SOLVER_MEMORY)
    if result.result == "solved" and result.moves:
        return result.moves[0]
    return None
