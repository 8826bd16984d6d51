"""Dead ends: can anything still be gained from this position?

Progress means turning up a face-down card or seeing a stock card for the
first time; once every card is known, it means the game can still be won.
The answer is exact, or ``None`` when the node cap was reached first.
"""

from __future__ import annotations

from bonanza.core.position import Position
from bonanza.solver.quiet import Budget, explore, is_informative, is_known

DEFAULT_NODE_LIMIT = 20_000


def progress_possible(position: Position, node_limit: int = DEFAULT_NODE_LIMIT) -> bool | None:
    """Whether some sequence of legal moves makes progress; ``None`` if undecided."""
    if position.is_won():
        return False
    if is_known(position):
        return winnable(position, node_limit)
    budget = Budget(node_limit)
    for step in explore(position, budget):
        if is_informative(step.before, step.move):
            return True
    return None if budget.spent else False


def winnable(position: Position, node_limit: int = DEFAULT_NODE_LIMIT) -> bool | None:
    """Whether a fully known position can still be won; ``None`` if undecided."""
    from bonanza.solver.search import solve

    result = solve(position, node_limit=max(node_limit, 1) * 50, memory_limit=128 * 2**20)
    if result.result == "solved":
        return True
    if result.result == "unsolvable":
        return False
    return None
