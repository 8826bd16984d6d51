"""Scores: standard, timed standard, Vegas and cumulative Vegas (the desktop scheme).

Standard: +10 a card to a foundation, +5 a waste card to the tableau, +5 a
face-down card turned up, -15 a card back from a foundation; a recycle costs
100 in draw 1 (every pass after the first) and 20 otherwise for every pass
after the third. The running score never drops below 0.
Timed adds -2 every 10 s and, on a win after at least 30 s, 700,000 / seconds.
The time penalty meets the 0 floor as it goes: ten seconds at 0 cost nothing,
so no debt builds up for later points to pay (``timed_charge``).
Vegas starts at -52 (a dollar a card: -104 with two decks) and pays 5 a card
to a foundation, -5 a card back.
"""

from __future__ import annotations

from bonanza.core.moves import Move, Pile
from bonanza.core.rules import Rules, Scoring

VEGAS_ANTE = 52
"""Vegas's stake for a deal of one deck (a dollar a card)."""
TIMED_TICK_SECONDS = 10
TIMED_TICK_POINTS = 2


def initial_score(rules: Rules) -> int:
    """The score before the first move."""
    return -VEGAS_ANTE * rules.decks if rules.scoring.is_vegas else 0


def move_points(rules: Rules, move: Move, revealed: bool, recycles_before: int) -> int:
    """The points ``move`` earns, before the floor at 0."""
    scoring = rules.scoring
    to_foundation = move.dest.is_foundation
    from_foundation = move.source.is_foundation
    if scoring.is_vegas:
        return 5 if to_foundation else -5 if from_foundation else 0
    if scoring is Scoring.NONE:
        return 0
    points = 5 if revealed else 0
    if to_foundation:
        points += 10
    elif from_foundation:
        points -= 15
    elif move.source == Pile.WASTE and move.dest.is_tableau:
        points += 5
    elif move.is_recycle:
        pass_number = recycles_before + 2
        if rules.draw == 1:
            points -= 100
        elif pass_number > 3:
            points -= 20
    return points


def add_points(rules: Rules, score: int, points: int) -> int:
    """The running score after ``points``: standard scores stop at 0."""
    if rules.scoring.is_vegas:
        return score + points
    return max(0, score + points)


def time_penalty(elapsed: float) -> int:
    """Timed scoring's -2 for every full 10 seconds, before the floor."""
    return TIMED_TICK_POINTS * time_ticks(elapsed)


def time_ticks(elapsed: float) -> int:
    """The full 10-second periods in ``elapsed`` seconds."""
    return int(max(0.0, elapsed) // TIMED_TICK_SECONDS)


def timed_charge(running: int, charged: int, new_ticks: int) -> int:
    """The time penalty taken so far, after ``new_ticks`` more periods at ``running``.

    ``charged`` is what was taken before; each period takes 2 points, or what
    is left above 0, so the shown score ``running - charged`` never goes below 0.
    """
    left = max(0, running - charged)
    return charged + min(TIMED_TICK_POINTS * max(0, new_ticks), left)


def time_bonus(elapsed: float) -> int:
    """Timed scoring's bonus for a win: 700,000 / seconds, from 30 s on."""
    return int(700_000 // elapsed) if elapsed >= 30 else 0


def game_score(rules: Rules, running: int, elapsed: float, won: bool) -> int:
    """The score shown: the running score with the clock's part for timed games."""
    if rules.scoring is not Scoring.TIMED:
        return running
    return max(0, running - time_penalty(elapsed)) + (time_bonus(elapsed) if won else 0)


def vegas_bankroll(previous: int, game: int) -> int:
    """Cumulative Vegas: the bankroll after a game that scored ``game`` dollars."""
    return previous + game
