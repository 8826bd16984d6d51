"""The solver as the session's ``Advisor``: fair hints and the dead-end check."""

from __future__ import annotations

from dataclasses import dataclass

from bonanza.core.moves import Move
from bonanza.core.position import Position
from bonanza.solver.hint import DEFAULT_NODE_LIMIT, hint
from bonanza.solver.progress import progress_possible

PROGRESS_NODE_LIMIT = 20_000


@dataclass(frozen=True, slots=True)
class SolverAdvisor:
    """Hints and progress checks from the solver package, with their search budgets."""

    hint_nodes: int = DEFAULT_NODE_LIMIT
    progress_nodes: int = PROGRESS_NODE_LIMIT

    def hint(self, position: Position) -> Move | None:
        return hint(position, node_limit=self.hint_nodes)

    def progress(self, position: Position) -> bool | None:
        return progress_possible(position, node_limit=self.progress_nodes)
