"""The exact solver on the true position: "still winnable?" and the review of a lost game.

Unlike the fair hints (``fair.py``), both look at the hidden cards. The game
asks ``still_winnable`` only when the player opts in (the game then counts as
assisted), and gives a ``review`` only once the game is over.

Along a game's line of moves the winnable positions form a prefix (a position
from which the next one can be won can be won itself), so a binary search over
the history finds the move that lost the deal with one solve per halving.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from bonanza.core.moves import Move
from bonanza.core.position import Position
from bonanza.solver.explain import action
from bonanza.solver.lines import clean_line
from bonanza.solver.search import SolveResult, solve

Winnable = Literal["winnable", "lost", "unknown"]
Finding = Literal["lost_at", "still_winnable", "never_winnable", "unknown"]

WINNABLE_SECONDS: Final = 1.0
"""The time "still winnable?" gives the solver."""
REVIEW_SOLVE_SECONDS: Final = 0.5
"""The time each of a review's solves may take."""
REVIEW_TOTAL_SECONDS: Final = 4.0
"""The time a whole review may take (within the server's search deadline)."""

LOST_AT: Final = (
    "The deal was lost at move {number}: {move}. With every card known, a line of moves "
    "still won before it, and none did after it."
)
STILL_WON: Final = "The deal could still be won where you stopped: here is a line that wins."
NEVER_WON: Final = "This deal could not be won from the start, even with every card known."
UNDECIDED_END: Final = (
    "The solver could not decide in its time whether the deal could still be won where you "
    "stopped."
)
UNDECIDED_START: Final = (
    "The solver could not decide in its time whether this deal could be won at all."
)
UNDECIDED_MOVE: Final = (
    "The solver could not decide in its time where the deal was lost: somewhere from move "
    "{first} to move {last}."
)

_WINNABLE: Final[dict[str, Winnable]] = {
    "solved": "winnable",
    "unsolvable": "lost",
    "unknown": "unknown",
}


def still_winnable(position: Position, time_limit: float = WINNABLE_SECONDS) -> Winnable:
    """Whether ``position`` can be won with every card known, as the solver finds
    within ``time_limit`` seconds: only the word, never the line."""
    return _WINNABLE[solve(position, time_limit=time_limit, shorten=False).result]


@dataclass(frozen=True, slots=True)
class Review:
    """Where a game was lost.

    ``index`` is the last position of the history (``positions[index]``) from
    which the deal could still be won, ``line`` a winning line from there
    (without detours). ``critical`` is the move played there that lost it
    (``moves[index]``, move number ``index + 1``), None when the last position
    could still be won or none ever could. When the solver cannot decide in
    its time, ``finding`` is "unknown" and the loss lies between
    ``positions[low]`` (winnable, or the deal) and ``positions[high]`` (lost,
    or the last position).
    """

    finding: Finding
    index: int | None
    critical: Move | None
    line: tuple[Move, ...]
    low: int
    high: int
    solves: int
    text: str

    @property
    def move_number(self) -> int | None:
        """The critical move's number in the game (the first move is 1)."""
        return None if self.critical is None or self.index is None else self.index + 1


class _Solver:
    """Solves under a cap each and a budget for them all, counting them."""

    def __init__(self, time_limit: float, total_limit: float) -> None:
        self.time_limit = time_limit
        self.deadline = time.monotonic() + total_limit
        self.solves = 0

    def __call__(self, position: Position) -> SolveResult | None:
        """The solver's answer, or None when the budget is spent."""
        left = self.deadline - time.monotonic()
        if left <= 0:
            return None
        self.solves += 1
        return solve(position, time_limit=min(self.time_limit, left))


def review(
    positions: Sequence[Position],
    moves: Sequence[Move],
    time_limit: float = REVIEW_SOLVE_SECONDS,
    total_limit: float = REVIEW_TOTAL_SECONDS,
) -> Review:
    """Find the move that lost the deal: ``positions`` are the game's positions
    from the deal on, ``moves[i]`` leads from ``positions[i]`` to ``positions[i + 1]``.

    Each solve is capped at ``time_limit`` seconds, all of them at ``total_limit``.
    """
    if len(positions) != len(moves) + 1:
        needed = len(moves) + 1
        raise ValueError(f"{len(moves)} moves need {needed} positions, not {len(positions)}")
    solver = _Solver(time_limit, total_limit)
    last = len(moves)
    end = solver(positions[last])
    if end is None or end.result == "unknown":
        return Review("unknown", None, None, (), last, last, solver.solves, UNDECIDED_END)
    if end.solved:
        line = tuple(clean_line(positions[last], end.moves))
        return Review("still_winnable", last, None, line, last, last, solver.solves, STILL_WON)
    start = solver(positions[0]) if last else end
    if start is None or start.result == "unknown":
        return Review("unknown", None, None, (), 0, last, solver.solves, UNDECIDED_START)
    if not start.solved:
        return Review("never_winnable", None, None, (), 0, 0, solver.solves, NEVER_WON)
    low, high, winning = 0, last, start
    while high - low > 1:
        middle = (low + high) // 2
        found = solver(positions[middle])
        if found is None or found.result == "unknown":
            text = UNDECIDED_MOVE.format(first=low + 1, last=high)
            return Review("unknown", None, None, (), low, high, solver.solves, text)
        if found.solved:
            low, winning = middle, found
        else:
            high = middle
    line = tuple(clean_line(positions[low], winning.moves))
    text = LOST_AT.format(number=low + 1, move=action(moves[low], positions[low]))
    return Review("lost_at", low, moves[low], line, low, high, solver.solves, text)


def line_words(start: Position, line: Sequence[Move]) -> list[str]:
    """Each move of ``line`` from ``start`` as an instruction (``Move 7♥ onto 8♣``)."""
    board = start.copy()
    words = []
    for move in line:
        words.append(action(move, board))
        board.apply(move)
    return words
