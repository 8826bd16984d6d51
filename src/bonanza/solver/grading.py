"""Winnable deals graded easy, medium or hard by a fair measure of difficulty.

A deal is graded only once the exact solver has proven it winnable (a
``solved`` verdict; ``unknown`` never counts). Its measure is the **fair
share**: how many layouts a player could not tell from the real one are
proven winnable within the fair hint engine's own node cap per layout
(``fair_budget.SAMPLE_NODES``), at the deal and at a few points along the solver's
winning line: when ``CHECKPOINTS`` of the cards hidden at the deal are still
unseen, or, with draw 1 and unlimited passes (where any stock card can be
seen at will, so what stays hidden is the face-down cards), when
``DOWN_CHECKPOINTS`` of the face-down cards are still face down. At each
point ``SAMPLES`` layouts are drawn by shuffling the cards the player has not
seen yet into the places they could be (``fair.sample_layout``); a layout
that is lost, or that the solver cannot decide within the cap, counts as not
won. The share runs from 0 to 1, higher is easier.

It follows what the fair hint engine meets: where the layouts it samples are
won and quickly decided, its hindsight sees the way; where they are lost or
undecided (it counts those as half a win), its choices are blind. Grades cut
the share at ``AT_WILL_THRESHOLDS`` (draw 1, unlimited passes) or
``THRESHOLDS``: terciles of the share over winnable random deals
(``benchmarks/grading.py --calibrate``). The measure costs at
most ``len(CHECKPOINTS) * SAMPLES`` capped solves (a second or so), is seeded
by the deal, and never plays the deal: ``benchmarks/grading.py`` checks that
the fair autoplay wins easy deals more often than hard ones.
"""

from __future__ import annotations

import enum
import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bonanza.core.deal import Deal
from bonanza.core.moves import Move
from bonanza.core.position import Position
from bonanza.core.rules import Rules
from bonanza.core.view import PlayerView, visible_cards
from bonanza.solver.fair import sample_layout
from bonanza.solver.fair_budget import HINT_PRUNE, HINT_SIDES, SAMPLE_NODES
from bonanza.solver.lines import clean_line
from bonanza.solver.search import solve, verdict

SOLVE_SECONDS: Final = 1.0
"""The time limit of the proof that a deal is winnable (deals not decided
within it are passed over: many random deals are decided in milliseconds)."""
SOLVE_MEMORY: Final = 256 * 1024 * 1024
"""Bytes of solver memory the proof may take."""
SAMPLES: Final = 32
"""Layouts drawn at each checkpoint."""
CHECKPOINTS: Final = (1.0, 0.8, 0.6, 0.4)
"""Points of the winning line where layouts are drawn: when this share of the
cards hidden at the deal is still unseen (1.0 is the deal itself)."""
DOWN_CHECKPOINTS: Final = (1.0, 0.75, 0.5, 0.25)
"""The same with draw 1 and unlimited passes, by the share of the face-down
cards still face down: one pass shows the whole stock, so checkpoints by every
hidden card would all fall in the opening."""
AT_WILL_THRESHOLDS: Final = (0.855, 0.94)
"""Fair shares below the first are hard, from the second up easy, with draw 1
and unlimited passes: terciles over winnable random deals."""
THRESHOLDS: Final = (0.66, 0.785)
"""The same under any other stock rule (the terciles with draw 3)."""


class Grade(enum.StrEnum):
    """How hard a winnable deal is for a player who cannot see the hidden cards."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


@dataclass(frozen=True, slots=True)
class GradedDeal:
    """A deal proven winnable, its grade, its fair share and the proof's nodes."""

    deal: Deal
    grade: Grade
    measure: float
    nodes: int


def grade_of(measure: float, rules: Rules) -> Grade:
    """The grade of a fair share under ``rules``."""
    hard_below, easy_from = AT_WILL_THRESHOLDS if stock_at_will(rules) else THRESHOLDS
    if measure >= easy_from:
        return Grade.EASY
    return Grade.HARD if measure < hard_below else Grade.MEDIUM


def grade_deal(
    deal: Deal,
    rules: Rules,
    *,
    time_limit: float = SOLVE_SECONDS,
    stopping: Callable[[], bool] = lambda: False,
) -> GradedDeal | None:
    """The grade of ``deal`` under ``rules`` once the solver proves it winnable;
    None when it does not (lost, undecided in ``time_limit``, or ``stopping``)."""
    start = Position.initial(deal, rules)
    proof = solve(start, time_limit=time_limit, memory_limit=SOLVE_MEMORY)
    if not proof.solved or stopping():
        return None
    measure = fair_share(start, clean_line(start, proof.moves), _seed(deal, rules), stopping)
    if measure is None:
        return None
    return GradedDeal(deal, grade_of(measure, rules), measure, proof.nodes)


def fair_share(
    start: Position,
    line: list[Move],
    seed: int,
    stopping: Callable[[], bool] = lambda: False,
) -> float | None:
    """The share of sampled layouts proven won within the cap, at the deal and
    at each checkpoint of the winning ``line`` (None if ``stopping``)."""
    rng = random.Random(seed)
    won = tried = 0
    for view in checkpoint_views(start, line):
        for _ in range(SAMPLES):
            if stopping():
                return None
            answer, _, _ = verdict(sample_layout(view, rng), SAMPLE_NODES, HINT_PRUNE, HINT_SIDES)
            won += answer == "solved"
            tried += 1
    return won / tried


def stock_at_will(rules: Rules) -> bool:
    """Whether any stock card can be brought to the waste at any time (draw 1,
    unlimited passes)."""
    return rules.draw == 1 and rules.passes is None


def checkpoint_views(start: Position, line: list[Move]) -> list[PlayerView]:
    """The player's views at the deal and along ``line`` at each checkpoint."""
    board = start.copy()
    seen = visible_cards(board)
    at_will = stock_at_will(start.rules)

    def hidden_now() -> int:
        return sum(board.down) if at_will else 52 - len(seen)

    hidden = hidden_now()
    marks = list(DOWN_CHECKPOINTS if at_will else CHECKPOINTS)
    views = []
    moves: list[Move | None] = [*line, None]
    for move in moves:
        while marks and hidden_now() <= marks[0] * hidden:
            marks.pop(0)
            views.append(PlayerView.of(board, seen))
        if move is None or not marks:
            break
        board.apply(move)
        seen |= visible_cards(board)
    return views


def _seed(deal: Deal, rules: Rules) -> int:
    digest = hashlib.blake2b(f"{deal.id}|{rules!r}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")

