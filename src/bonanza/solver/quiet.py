"""Quiet moves: the moves that teach the player nothing new.

A move is *informative* when it turns up a face-down card, or draws a stock
card the player has not seen (before the first recycle). Searching only
through quiet moves never depends on a hidden card's identity, so hints and
"no progress" checks built on it never peek.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterator
from typing import NamedTuple

from bonanza.core.cards import RED
from bonanza.core.moves import Move, Pile
from bonanza.core.position import PARENTS, Position
from bonanza.core.rules import EmptyColumn
from bonanza.core.safety import TWIN_SUIT


def turns_up(position: Position, move: Move) -> bool:
    """Whether ``move`` exposes a face-down card."""
    index = move.source.column_index
    if index < 0:
        return False
    down = position.down[index]
    return down > 0 and move.count == len(position.tableau[index]) - down


def shows_unseen(position: Position, move: Move) -> bool:
    """Whether ``move`` draws stock cards the player has never seen."""
    return move.is_draw and position.recycles == 0 and not position.rules.thoughtful


def is_informative(position: Position, move: Move) -> bool:
    """Whether ``move`` shows the player a card they could not see."""
    if position.rules.thoughtful:
        return False
    return turns_up(position, move) or shows_unseen(position, move)


def is_known(position: Position) -> bool:
    """Whether the player knows every card's place."""
    if position.rules.thoughtful:
        return True
    return not any(position.down) and (position.recycles > 0 or not position.stock)


def position_key(position: Position) -> tuple[object, ...]:
    """What tells positions apart for search. Columns are interchangeable, so
    their order is not part of it; with unlimited passes, how many recycles
    were made matters only as none or some (seen stock cards)."""
    recycles = position.recycles
    if position.rules.passes is None:
        recycles = min(recycles, 1)
    return (
        tuple(sorted(zip(position.down, map(tuple, position.tableau), strict=True))),
        tuple(position.stock),
        tuple(position.waste),
        tuple(position.foundations),
        recycles,
    )


class Step(NamedTuple):
    """A move found by ``explore``, and the quiet line that leads to the
    position it is played from (``before``)."""

    before: Position
    move: Move
    line: tuple[Move, ...]

    @property
    def first(self) -> Move:
        """The first move of the line that ends in this one."""
        return self.line[0] if self.line else self.move


class Budget:
    """A node cap shared by one search."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0

    @property
    def spent(self) -> bool:
        return self.used >= self.limit


def _options(position: Position) -> Iterator[tuple[Position, list[Move], Move, bool]]:
    """The macro moves of ``position``: (position before the move, the stock
    moves that reach it, the move, whether to follow it).

    Every non-stock move is tried from ``position`` itself. Then the stock is
    turned (draws, recycles) until a split of stock and waste comes round
    again, the pass limit stops it, or a draw would show an unseen card; at
    each stop the top waste card's moves are tried. Stock moves are reported
    but not followed on their own: tableau moves commute with them.

    Klondike's relatives (docs/variants.md) take every legal move as it is,
    stock moves included (``_plain_options``).
    """
    if not position.rules.is_klondike:
        yield from _plain_options(position)
        return
    for move in position.legal_moves():
        if move.is_draw or move.is_recycle or is_pointless_recall(position, move):
            continue
        yield position, [], move, True
    current, path = position, list[Move]()
    splits = {(len(position.waste), position_key(position)[-1])}
    while True:
        stock_move = _stock_move(current)
        if stock_move is None:
            return
        yield current, path, stock_move, False
        if is_informative(current, stock_move):
            return
        current = current.copy()
        current.apply(stock_move)
        path = [*path, stock_move]
        split = (len(current.waste), position_key(current)[-1])
        if split in splits:
            return
        splits.add(split)
        for move in _waste_moves(current):
            yield current, path, move, True


def _plain_options(position: Position) -> Iterator[tuple[Position, list[Move], Move, bool]]:
    """Every legal move of ``position``, each followed (``explore`` stops at
    the informative ones): the options of a game other than Klondike, whose
    stock may deal onto the columns and whose cards may be twins."""
    for move in position.legal_moves():
        yield position, [], move, True


def _stock_move(position: Position) -> Move | None:
    """The draw or recycle the position allows, if any."""
    if position.stock:
        return Move(Pile.STOCK, Pile.WASTE, min(position.rules.draw, len(position.stock)))
    if position.waste and position.can_recycle():
        return Move(Pile.WASTE, Pile.STOCK, len(position.waste))
    return None


def _waste_moves(position: Position) -> Iterator[Move]:
    """The top waste card's moves to the foundations and the tableau."""
    if not position.waste:
        return
    card = position.waste[-1]
    suit, rank = card // 13, card % 13 + 1
    if position.foundations[suit] == rank - 1:
        yield Move(Pile.WASTE, Pile.foundation(suit), 1)
    king_rule = position.rules.empty_column is EmptyColumn.KING
    for index, column in enumerate(position.tableau):
        if column:
            if column[-1] in PARENTS[card]:
                yield Move(Pile.WASTE, Pile.column(index), 1)
        elif rank == 13 or not king_rule:
            yield Move(Pile.WASTE, Pile.column(index), 1)


def explore(position: Position, budget: Budget) -> Iterator[Step]:
    """Every move reachable by quiet moves, shortest lines first (in single
    moves; macro steps as in ``_options``). Informative moves are yielded but
    not followed. Stops when the budget is spent.
    """
    seen = {position_key(position)}
    order = itertools.count()
    queue: list[tuple[int, int, Position, tuple[Move, ...]]] = [(0, next(order), position, ())]
    while queue:
        _, _, current, line = heapq.heappop(queue)
        for before, path, move, follow in _options(current):
            step = Step(before, move, (*line, *path))
            yield step
            if not follow or is_informative(before, move):
                continue
            child = before.copy()
            child.apply(move)
            key = position_key(child)
            if key in seen:
                continue
            seen.add(key)
            budget.used += 1
            if budget.spent:
                return
            heapq.heappush(queue, (len(step.line) + 1, next(order), child, (*step.line, move)))


def is_pointless_recall(position: Position, move: Move) -> bool:
    """A card back from a foundation that provably cannot help: never tried in search.

    A card of rank r is left home when the lower opposite-colour cards (r - 1)
    are home and its twin suit (the other of its colour) is home up to r - 2:
    then no card that could go on it, or on one of those, is still out, and a
    line that recalls it does nothing a line without it cannot (the proof is
    at ``recall_skipped`` in ``search_quiet.h``, whose ``RECALLS_SOUND`` mode is
    this rule). The rule without recall (only the opposite colour home) is not
    enough: a black 4 recalled onto a red 5 can take a red 3 off face-down cards.
    The proof is made for Klondike's table, so no recall of another game is
    skipped.
    """
    if not move.source.is_foundation or not position.rules.is_klondike:
        return False
    suit = move.source - Pile.FC
    rank = position.foundations[suit]
    opposite = min(
        home for other, home in enumerate(position.foundations) if RED[other * 13] != RED[suit * 13]
    )
    return opposite >= rank - 1 and position.foundations[TWIN_SUIT[suit]] >= rank - 2
