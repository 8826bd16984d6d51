"""What a search answers: its verdict, the limit it hit and ``SolveResult``.

Both the C core's ``solve`` (``search.py``) and the generic search
(``generic.py``) answer in these terms."""

from __future__ import annotations

import dataclasses
from typing import Literal

from bonanza.core.moves import Move
from bonanza.core.notation import format_move
from bonanza.solver.switches import Prune

Verdict = Literal["solved", "unsolvable", "unknown"]
Limit = Literal["nodes", "time", "memory", "interrupted"]
Clock = Literal["wall", "cpu"]
"""What a time limit counts: seconds on the wall, or the CPU time of the thread
that searches (its own work only, however busy the machine)."""
CLOCKS: tuple[Clock, ...] = ("wall", "cpu")
VERDICTS: dict[str, Verdict] = {"solved": "solved", "unsolvable": "unsolvable",
                                "unknown": "unknown"}
"""The C searches' verdict words as ``Verdict``."""
LIMITS: dict[str | None, Limit | None] = {None: None, "nodes": "nodes", "time": "time",
                                          "memory": "memory", "interrupted": "interrupted"}
"""The C searches' limit words (None: no limit met) as ``Limit``."""


@dataclasses.dataclass(frozen=True)
class SolveResult:
    """What ``solve`` found.

    ``result`` is ``solved`` (``moves`` wins from the start position),
    ``unsolvable`` (proven) or ``unknown`` (``limit`` names the limit hit).
    ``states`` is how many distinct positions the search stored, ``memory``
    the bytes it held.  ``fired`` counts, per pruning rule, the positions or
    moves it pruned or forced; ``side_wins`` the wins its side searches found;
    ``kept_hits`` (searched with ``Sides.KEPT_HITS``, for tests) the table hits
    on an entry stored under another set of rule 12's kept-out cards;
    ``forgotten`` the entries its table forgot when full (a forgotten position
    is searched again if met again; see ``search_forget.h``), and ``states``
    then counts the positions it held at the end.  ``reach_known`` counts
    the dead-end tests it did not make, their answer known by proof (``home``
    after a card sent home, ``column`` after one put on a column), and
    ``reach_wrong`` (searched with ``Sides.CHECK_SKIPS``, for tests) those of
    them that would have dropped the position.  ``relaxed_ended`` counts rule
    11's side searches ended early by a draw-1 win found without recall
    (``Sides.RELAXED_WIN``: they could no longer prove the position lost).
    ``seconds`` is the core's whole time: the search's own
    (``search_seconds``), then for a win the expansion of its line into the
    engine's moves (``expand_seconds``) and its shortening (``cut_seconds``;
    ``cut`` is how many moves it took out of the line the search found). The
    replay that checks a line is not in it. ``seconds`` and its parts are
    wall-clock time; ``cpu_seconds`` is the CPU time of the thread that ran
    the core over the same span (its probes and side searches included), which
    a loaded machine does not inflate (the generic search's too).
    """

    result: Verdict
    moves: list[Move]
    nodes: int
    seconds: float
    limit: Limit | None = None
    states: int = 0
    memory: int = 0
    fired: dict[Prune, int] = dataclasses.field(default_factory=dict, compare=False)
    side_wins: int = 0
    cut: int = dataclasses.field(default=0, compare=False)
    cut_seconds: float = dataclasses.field(default=0.0, compare=False)
    expand_seconds: float = dataclasses.field(default=0.0, compare=False)
    kept_hits: int = dataclasses.field(default=0, compare=False)
    cpu_seconds: float = dataclasses.field(default=0.0, compare=False)
    forgotten: int = dataclasses.field(default=0, compare=False)
    reach_known: dict[str, int] = dataclasses.field(default_factory=dict, compare=False)
    reach_wrong: int = dataclasses.field(default=0, compare=False)
    relaxed_ended: int = dataclasses.field(default=0, compare=False)

    def __repr__(self) -> str:
        moves = " ".join(format_move(move) for move in self.moves)
        limit = f", limit={self.limit!r}" if self.limit else ""
        return (
            f"SolveResult({self.result!r}, {len(self.moves)} moves [{moves}], "
            f"nodes={self.nodes}, seconds={self.seconds:.4f}{limit})"
        )

    @property
    def search_seconds(self) -> float:
        """The search's own time: ``seconds`` less the line's expansion and shortening."""
        return max(self.seconds - self.expand_seconds - self.cut_seconds, 0.0)

    @property
    def solved(self) -> bool:
        return self.result == "solved"
