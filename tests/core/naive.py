"""A deliberately naive second move generator, straight from the rules' text.

It tries every (source, destination, count) and asks whether the rules allow
it, sharing no code with ``Position.legal_moves``. It knows Klondike's
relatives too: more columns, two decks' foundations, the stock dealt onto
every column (docs/variants.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from bonanza.core import Move, Pile, Position
from bonanza.core.rules import EmptyColumn, StockMode

STOCK, WASTE = Pile.STOCK, Pile.WASTE
PILES = list(Pile.__members__.values())


def _rank(card: int) -> int:
    return card % 13 + 1


def _suit(card: int) -> int:
    return card % 52 // 13


def _red(card: int) -> bool:
    return _suit(card) in (1, 2)


def _column(pile: Pile) -> int | None:
    """T1..T10 -> 0..9."""
    return int(pile.name[1:]) - 1 if pile.name.startswith("T") else None


def _foundation(pile: Pile) -> int | None:
    """FC..FS -> 0..3, FC2..FS2 -> 4..7."""
    if not pile.name.startswith("F"):
        return None
    return "CDHS".index(pile.name[1]) + (4 if pile.name.endswith("2") else 0)


def _in_sequence(cards: Sequence[int]) -> bool:
    return all(
        _rank(lower) == _rank(upper) - 1 and _red(lower) != _red(upper)
        for lower, upper in zip(cards[1:], cards, strict=False)
    )


def _exists(position: Position, pile: Pile) -> bool:
    column, home = _column(pile), _foundation(pile)
    if column is not None:
        return column < len(position.tableau)
    if home is not None:
        return home < len(position.foundations)
    return True


def is_legal(position: Position, move: Move) -> bool:
    source, dest, count = move
    rules = position.rules
    if source == dest or count < 1 or all(home == 13 for home in position.foundations):
        return False  # nothing moves once the game is won
    if not _exists(position, source) or not _exists(position, dest):
        return False
    if source == STOCK:
        if rules.stock_mode is StockMode.EVERY_COLUMN:  # one card onto each column
            wanted, size = Pile.T1, len(position.tableau)
        else:
            wanted, size = WASTE, rules.draw
        return dest == wanted and bool(position.stock) and count == min(size, len(position.stock))
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
    source_column, source_home = _column(source), _foundation(source)
    moving: Sequence[int]
    if source_column is not None:
        column = position.tableau[source_column]
        face_up = column[position.down[source_column] :]
        if count > len(face_up):
            return False
        moving = column[len(column) - count :]
        if not rules.partial_runs and _column(dest) is not None:
            longest = max(n for n in range(1, len(face_up) + 1) if _in_sequence(face_up[-n:]))
            if count != longest:
                return False
    elif source == WASTE:
        if count != 1 or not position.waste:
            return False
        moving = [position.waste[-1]]
    else:
        assert source_home is not None
        home = position.foundations[source_home]
        if not rules.recall or count != 1 or home == 0 or _column(dest) is None:
            return False
        moving = [source_home % 4 * 13 + home - 1]
    if not _in_sequence(moving):
        return False
    first = moving[0]
    dest_home = _foundation(dest)
    if dest_home is not None:
        return (
            count == 1
            and _suit(first) == dest_home % 4
            and position.foundations[dest_home] == _rank(first) - 1
        )
    dest_column = _column(dest)
    assert dest_column is not None
    target = position.tableau[dest_column]
    if not target:
        return rules.empty_column == EmptyColumn.ANY or _rank(first) == 13
    top = target[-1]
    return _rank(top) == _rank(first) + 1 and _red(top) != _red(first)


def _most(position: Position, pile: Pile) -> int:
    """The most cards a move from ``pile`` could take."""
    column = _column(pile)
    if column is not None:
        return len(position.tableau[column]) if column < len(position.tableau) else 0
    if pile in (STOCK, WASTE):
        return max(len(position.tableau), len(position.stock), len(position.waste))
    return 1


def legal_moves(position: Position) -> set[Move]:
    return {
        Move(source, dest, count)
        for source in PILES
        for dest in PILES
        for count in range(1, _most(position, source) + 1)
        if is_legal(position, Move(source, dest, count))
    }
