"""The exact Klondike solver: a C search core behind ``solve``."""

from bonanza.solver.search import SolverError, SolveResult, solve
from bonanza.solver.switches import Prune, Sides

__all__ = ["Prune", "Sides", "SolveResult", "SolverError", "solve"]
