"""The exact Klondike solver: a C search core behind ``solve``."""

from bonanza.solver.search import SolverError, SolveResult, solve

__all__ = ["SolveResult", "SolverError", "solve"]
