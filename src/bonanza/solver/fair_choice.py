"""How a sampled fair hint chooses among its candidate moves (``bonanza.solver.fair``).

Each candidate is scored on the same sampled layouts (1 won, 0 lost, ½
undecided). Moves clearly behind the best are dropped round by round
(``still_close``); among those left, ``choose`` takes the best, breaking near-ties
by the rules that ``Rule`` names, and says which rule decided (``Scored`` keeps
every candidate's score for the caller).

A commitment (``best_commitment``) is a quiet line ending in a move that shows
the player something (a card turned up, an unseen stock card drawn).
Hindsight scores a quiet move as well as the best that each layout's solver
can do after it, a different thing in each layout; scored on the same
layouts, a commitment is one decision for all of them, as the player must
make it.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from bonanza.core.moves import Move
from bonanza.core.position import Position
from bonanza.solver.fair_budget import (
    DROP_MARGIN,
    HINT_PRUNE,
    HINT_SIDES,
    MAX_COMMITMENTS,
    PROGRESS_NODES,
    TIE_MARGIN,
    UNDECIDED_SCORE,
    Sampling,
)
from bonanza.solver.quiet import Budget, explore, is_informative
from bonanza.solver.search import Verdict, verdict

_T = TypeVar("_T")


class Rule(enum.Enum):
    """What decided a sampled hint among the moves it tried."""

    SCORE = "score"  # no other move within noise of it
    HOME = "home"  # a card no tableau card can need, sent home off the waste
    VOTES = "votes"  # the move the layouts' solver played first strictly most often
    COMMITMENT = "commitment"  # starts the quiet line to the reveal that wins most layouts
    PROGRESS = "progress"  # the first move of the shortest quiet line to progress
    PREFERENCE = "preference"  # the move that shows most (see fair._preference)


@dataclass(frozen=True, slots=True)
class Scored:
    """One move a sampled hint tried: what it scored on the layouts (``wins`` of
    ``samples``, an undecided layout counting ½) and how many of the layouts'
    solves played it first (``votes``)."""

    move: Move
    wins: float
    samples: int
    votes: int


@dataclass(slots=True)
class Candidate:
    """A move under test and its score on each layout tried so far."""

    move: Move
    preference: tuple[int, ...]
    scores: list[float] = field(default_factory=list)
    votes: int = 0

    @property
    def mean(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else 0.0

    def scored(self) -> Scored:
        return Scored(self.move, sum(self.scores), len(self.scores), self.votes)


class Spending(Protocol):
    """What the choice spends its quiet searches from: a hint's node budget."""

    @property
    def sampling(self) -> Sampling: ...

    @property
    def spent(self) -> bool: ...

    def spend(self, nodes: int) -> None: ...

    def cap(self, most: int) -> int: ...


def choose(tried: list[Candidate], layout: Position, same: dict[Move, Move],
           back: frozenset[Move], nodes: Spending,
           homing: frozenset[Move] = frozenset(),
           layouts: Sequence[tuple[Position, Verdict]] = ()) -> tuple[Candidate, Rule]:
    """The best move, and the rule that chose it. Among moves within noise of
    it, and not moving back (``back``) where some do not: a card no tableau card
    can need sent home off the waste (``homing``); else the one the layouts'
    solver played first strictly most often, if one did; else the one that
    starts the quiet line to the reveal that wins in most of ``layouts``
    (``best_commitment``), or without layouts to choose by the one that
    starts the shortest such line; else the one that shows most.

    Hindsight scores reversible moves alike (each layout's solver can undo
    them), so without this the hints could shuffle cards back and forth.
    The solver's first moves are one plan, which the next hint's layouts
    mostly share: following them, hint after hint, goes somewhere. (The
    shortest quiet line to progress, alone, led draw-1 games to wander for
    hundreds of moves in positions that most layouts win in a few dozen
    solver nodes.)
    """
    leader = max(tried, key=lambda c: (c.mean, c.votes))
    close = not_back({c.move: c for c in tried if c is leader or is_close(leader, c)}, back)
    if leader.move not in close:
        leader = max(close.values(), key=lambda c: (c.mean, c.votes))
    if len(close) == 1:
        return leader, Rule.SCORE
    for candidate in close.values():
        if candidate.move in homing:
            return candidate, Rule.HOME
    planned = max(close.values(), key=lambda c: c.votes)
    if planned.votes > 0 and all(c.votes < planned.votes for c in close.values()
                                 if c is not planned):
        return planned, Rule.VOTES
    lines = commitments(layout, same, set(close), nodes)
    committed = best_commitment(lines, nodes, layouts)
    if committed is not None:
        return close[committed], Rule.COMMITMENT
    if lines:
        return close[lines[0][0]], Rule.PROGRESS
    return min(close.values(), key=lambda c: (c.preference, -c.mean, -c.votes)), Rule.PREFERENCE


def not_back(moves: dict[Move, _T], back: frozenset[Move]) -> dict[Move, _T]:
    """``moves`` without those that move back, unless that leaves none."""
    kept = {move: value for move, value in moves.items() if move not in back}
    return kept or moves


def is_close(leader: Candidate, other: Candidate) -> bool:
    """Whether ``other`` trails ``leader`` by at most ``TIE_MARGIN`` standard
    errors of their paired differences."""
    if not leader.scores or not other.scores:
        return False
    mean, error = _paired_gap(leader.scores, other.scores)
    return mean <= TIE_MARGIN * error + 1e-9


def _paired_gap(best: list[float], other: list[float]) -> tuple[float, float]:
    """The mean of ``best``'s lead over ``other``, layout by layout (the layouts
    both were tried on), and its standard error."""
    gaps = [b - c for b, c in zip(best, other, strict=False)]
    mean = sum(gaps) / len(gaps)
    spread = math.sqrt(sum((gap - mean) ** 2 for gap in gaps) / max(len(gaps) - 1, 1))
    return mean, spread / math.sqrt(len(gaps))


def nearest_progress(layout: Position, same: dict[Move, Move], among: set[Move],
                     nodes: Spending) -> Move | None:
    """The move among ``among`` that starts a shortest line of quiet moves to
    turning up a card or showing an unseen stock card, if the search finds one.
    (A card sent home is no such progress: a recall can bring it back.)"""
    lines = commitments(layout, same, among, nodes, most=1)
    return lines[0][0] if lines else None


def commitments(layout: Position, same: dict[Move, Move], among: set[Move],
                nodes: Spending, most: int = MAX_COMMITMENTS
                ) -> list[tuple[Move, tuple[Move, ...]]]:
    """The first ``most`` quiet lines to a reveal that start with a move of
    ``among`` (as ``same`` names it), shortest first, each with that move."""
    budget = Budget(PROGRESS_NODES)
    lines: list[tuple[Move, tuple[Move, ...]]] = []
    try:
        for step in explore(layout, budget):
            if not is_informative(step.before, step.move):
                continue
            first = same.get(step.first, step.first)
            if first in among:
                lines.append((first, (*step.line, step.move)))
                if len(lines) == most:
                    break
    finally:
        nodes.spend(budget.used * nodes.sampling.quiet_node_cost)
    return lines


def best_commitment(lines: list[tuple[Move, tuple[Move, ...]]], nodes: Spending,
                    layouts: Sequence[tuple[Position, Verdict]]) -> Move | None:
    """The first move of the line (of ``commitments``) that wins in most of
    ``layouts``, the shortest such line on a tie; None where no layout is
    given or every line starts alike.

    Quiet moves show no hidden card, so each line is legal in every layout
    that fits the view, and scoring it there peeks at nothing the layouts
    do not already stand for. Layouts are scored while the budget lasts, all
    lines on each, so the totals stay paired.
    """
    if not layouts or len({first for first, _ in lines}) < 2:
        return None
    wins = [0.0] * len(lines)
    for sample, root in layouts:
        if nodes.spent:
            break
        for index, (_, line) in enumerate(lines):
            wins[index] += line_score(sample, root, line, nodes)
    best = max(range(len(lines)), key=lambda index: (wins[index], -index))
    return lines[best][0]


def line_score(sample: Position, root: Verdict, line: tuple[Move, ...],
               nodes: Spending) -> float:
    """What playing ``line`` scores on one layout whose own verdict is ``root``:
    1 won, 0 lost, half when undecided."""
    if root == "unsolvable":
        return 0.0  # nothing wins where the position itself is lost
    after = sample.copy()
    for move in line:
        after.apply(move)
    answer, _, spent = verdict(after, nodes.cap(nodes.sampling.sample_nodes), HINT_PRUNE,
                               HINT_SIDES)
    nodes.spend(spent)
    return {"solved": 1.0, "unsolvable": 0.0}.get(answer, UNDECIDED_SCORE)


def still_close(alive: list[Candidate]) -> list[Candidate]:
    """The moves not clearly behind the best, by paired differences."""
    if len(alive) <= 1:
        return alive
    best = max(alive, key=lambda c: c.mean)
    kept = []
    for candidate in alive:
        count = min(len(candidate.scores), len(best.scores))
        if candidate is best or count == 0:
            kept.append(candidate)
            continue
        mean, error = _paired_gap(best.scores, candidate.scores)
        if mean <= DROP_MARGIN * error + 1e-9 or mean == 0:
            kept.append(candidate)
    return kept
