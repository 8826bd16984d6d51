"""The action numbering shared by the Gymnasium environment and the OpenSpiel game.

Every move of a rule set has one fixed number, whatever the position, so that
an agent sees a discrete action space of fixed size. With ``C`` tableau
columns and ``F`` foundations (7 and 4 in Klondike), the numbers are, in order:

=========================  =================  ==============================
block                      size               action number
=========================  =================  ==============================
draw                       1                  0
recycle                    1                  1
waste to column c          C                  2 + c
waste to foundation f      F                  2 + C + f
column c to foundation f   C * F              2 + C + F + c * F + f
foundation f to column c   F * C              2 + C + F + C*F + f * C + c
column a to column b,      C * (C - 1) * 13   2 + C + F + 2*C*F
count n (1 to 13)                             + (a * (C - 1) + b') * 13 + n - 1
=========================  =================  ==============================

Columns and foundations count from 0 (foundation ``f`` is suit ``f``: clubs,
diamonds, hearts, spades); ``b'`` is ``b`` with column ``a`` left out
(``b - 1`` when ``b > a``). Klondike has 615 actions. A draw's number does not
depend on how many cards it turns.
"""

from __future__ import annotations

from typing import Final

from bonanza.core.moves import FOUNDATIONS, TABLEAU, Move, Pile
from bonanza.core.position import Position

COLUMNS: Final = len(TABLEAU)
FOUNDATION_COUNT: Final = len(FOUNDATIONS)
LONGEST_RUN: Final = 13
"""The most cards one tableau move can carry (a King down to an Ace)."""

DRAW: Final = 0
RECYCLE: Final = 1
WASTE_TO_COLUMN: Final = 2
WASTE_TO_FOUNDATION: Final = WASTE_TO_COLUMN + COLUMNS
COLUMN_TO_FOUNDATION: Final = WASTE_TO_FOUNDATION + FOUNDATION_COUNT
FOUNDATION_TO_COLUMN: Final = COLUMN_TO_FOUNDATION + COLUMNS * FOUNDATION_COUNT
COLUMN_TO_COLUMN: Final = FOUNDATION_TO_COLUMN + FOUNDATION_COUNT * COLUMNS
ACTION_COUNT: Final = COLUMN_TO_COLUMN + COLUMNS * (COLUMNS - 1) * LONGEST_RUN


class ActionError(ValueError):
    """A number that is not an action, or an action that is not legal here."""


def action_of(move: Move) -> int:
    """The number of ``move``."""
    source, dest = move.source, move.dest
    if source == Pile.STOCK:
        return DRAW
    if dest == Pile.STOCK:
        return RECYCLE
    if source == Pile.WASTE:
        if dest.is_tableau:
            return WASTE_TO_COLUMN + dest
        return WASTE_TO_FOUNDATION + _foundation(dest)
    if source.is_tableau and dest.is_foundation:
        return COLUMN_TO_FOUNDATION + source * FOUNDATION_COUNT + _foundation(dest)
    if source.is_foundation and dest.is_tableau:
        return FOUNDATION_TO_COLUMN + _foundation(source) * COLUMNS + dest
    if source.is_tableau and dest.is_tableau and source != dest:
        if not 1 <= move.count <= LONGEST_RUN:
            raise ActionError(f"a tableau move carries 1 to {LONGEST_RUN} cards, not {move.count}")
        slot = source * (COLUMNS - 1) + (dest - 1 if dest > source else dest)
        return COLUMN_TO_COLUMN + slot * LONGEST_RUN + move.count - 1
    raise ActionError(f"{move!r} has no action number")


def legal_actions(position: Position) -> dict[int, Move]:
    """The legal moves of ``position`` by action number, in increasing order."""
    return dict(sorted((action_of(move), move) for move in position.legal_moves()))


def move_of(action: int, position: Position) -> Move:
    """The legal move of ``position`` numbered ``action``."""
    if not 0 <= action < ACTION_COUNT:
        raise ActionError(f"action {action} is not a number from 0 to {ACTION_COUNT - 1}")
    try:
        return legal_actions(position)[action]
    except KeyError:
        raise ActionError(f"action {action} is not legal in {position.to_text()!r}") from None


def _foundation(pile: Pile) -> int:
    return pile - FOUNDATIONS[0]
