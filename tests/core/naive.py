"""A deliberately naive second move generator, straight from the rules' text.

It tries every (source, destination, count) and asks whether the rules allow
it, sharing no code with ``Position.legal_moves``.
"""

from __future__ import annotations

from bonanza.core import Move, Pile, Position
from bonanza.core.rules import EmptyColumn

STOCK, WASTE = Pile.STOCK, Pile.WASTE


def _rank(card: int) -> int:
    return card % 13 + 1


def _suit(card: int) -> int:
    return card // 13


def _red(card: int) -> bool:
    return _suit(card) in (1, 2)


def is_legal(position: Position, move: Move) -> bool:
    source, dest, count = move
    rules = position.rules
    if source == dest or count < 1 or position.foundations == [13] * 4:
        return False  # nothing moves once the game is won
    if source == STOCK:
        return (
            dest == WASTE and bool(position.stock) and count == min(rules.draw, len(position.stock))
        )
    if dest == STOCK:
        recycles_left = rules.passes is None or position.recycles < rules.passes - 1
        return (
            source == WASTE
            and not position.stock
            and bool(position.waste)
            and count == len(position.waste)
            and recycles_left
        )
    if dest == WASTE:
        return False
    if source.is_tableau:
        column = position.tableau[source]
        face_up = column[position.down[source] :]
        if count > len(face_up):
            return False
        if not rules.partial_runs and dest.is_tableau and count != len(face_up):
            return False
        moving = column[len(column) - count :]
    elif source == WASTE:
        if count != 1 or not position.waste:
            return False
        moving = [position.waste[-1]]
    else:
        suit = source - Pile.FC
        home = position.foundations[suit]
        if not rules.recall or count != 1 or home == 0 or not dest.is_tableau:
            return False
        moving = [suit * 13 + home - 1]
    for lower, upper in zip(moving[1:], moving, strict=False):
        if _rank(lower) != _rank(upper) - 1 or _red(lower) == _red(upper):
            return False
    first = moving[0]
    if dest.is_foundation:
        suit = dest - Pile.FC
        return (
            count == 1 and _suit(first) == suit and position.foundations[suit] == _rank(first) - 1
        )
    target = position.tableau[dest]
    if not target:
        return rules.empty_column == EmptyColumn.ANY or _rank(first) == 13
    top = target[-1]
    return _rank(top) == _rank(first) + 1 and _red(top) != _red(first)


def legal_moves(position: Position) -> set[Move]:
    return {
        Move(source, dest, count)
        for source in Pile
        for dest in Pile
        for count in range(1, 53)
        if is_legal(position, Move(source, dest, count))
    }
