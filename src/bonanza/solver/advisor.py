"""The solver as the session's ``Advisor`` and ``Finisher``: fair hints, the
dead-end check and the auto finish."""

from __future__ import annotations

from dataclasses import dataclass

from bonanza.core.moves import Move
from bonanza.core.position import Position
from bonanza.core.view import PlayerView
from bonanza.solver.fair import Advice, advise
from bonanza.solver.fair_budget import DEFAULT_BUDGET
from bonanza.solver.finish import FINISH_NODES, finish_view
from bonanza.solver.progress import DEFAULT_NODE_LIMIT, progress_possible

PROGRESS_NODE_LIMIT = DEFAULT_NODE_LIMIT
"""The dead-end check's cap: positions of the C quiet-move search (see progress.py)."""


@dataclass(frozen=True, slots=True)
class SolverAdvisor:
    """Hints and progress checks from the solver package, with their search budgets.

    ``budget`` is the seconds one hint may take; ``seed`` makes its sampling
    repeatable, so one view always gets one hint. A hint is asked of the
    player's view only: the advisor never sees a hidden card.
    """

    budget: float = DEFAULT_BUDGET
    seed: int = 0
    progress_nodes: int = PROGRESS_NODE_LIMIT
    finish_nodes: int = FINISH_NODES

    def hint(self, view: PlayerView) -> Advice:
        """The fair hint, with the engine's words (the session's ``Hint.of``
        puts the game's shared words on "no move makes progress")."""
        return advise(view, budget=self.budget, seed=self.seed)

    def progress(self, position: Position) -> bool | None:
        return progress_possible(position, node_limit=self.progress_nodes)

    def finish(self, view: PlayerView) -> list[Move] | None:
        """The auto finish: a proven winning line for a view that places every
        card (``finish.finish_view``); None otherwise."""
        return finish_view(view, node_limit=self.finish_nodes)
