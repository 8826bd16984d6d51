"""A brute-force reference: exhaustive search through the engine's own moves.

Only for small positions (a dozen cards not home): it tries every legal move
with no pruning at all, so its verdicts check the solver's.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bonanza.core import CARDS, Card, Position, Rules, StockMode


def _key(position: Position) -> tuple[object, ...]:
    recycles = position.recycles if position.rules.passes is not None else 0
    return (
        tuple(map(tuple, position.tableau)),
        tuple(position.down),
        tuple(position.stock),
        tuple(position.waste),
        tuple(position.foundations),
        recycles,
    )


def winnable(start: Position, limit: int = 200_000) -> bool:
    """Whether ``start`` can be won; raises if more than ``limit`` positions."""
    seen = {_key(start)}
    stack = [start]
    while stack:
        position = stack.pop()
        if position.is_won():
            return True
        for move in position.legal_moves():
            child = position.copy()
            child.apply(move)
            key = _key(child)
            if key not in seen:
                if len(seen) >= limit:
                    raise RuntimeError("position too large for brute force")
                seen.add(key)
                stack.append(child)
    return False


def cards_out(rng: random.Random, loose: int) -> tuple[list[int], list[Card]]:
    """About ``loose`` cards left off the foundations (each suit's top few
    ranks), shuffled, and the foundations' heights."""
    homes = [13] * 4
    for _ in range(loose):
        suit = rng.randrange(4)
        if homes[suit] > 0:
            homes[suit] -= 1
    cards = [CARDS[suit * 13 + rank] for suit in range(4) for rank in range(homes[suit], 13)]
    rng.shuffle(cards)
    return homes, cards


def small_position(seed: int, rules: Rules, loose: int = 9) -> Position:
    """A random endgame with about ``loose`` cards not home, dealt at random.

    Each suit keeps its top few ranks off the foundations; those cards are
    spread over the columns (some face down, a face-up card on top), the
    stock and the waste.
    """
    rng = random.Random(seed)
    homes, cards = cards_out(rng, loose)
    tableau: list[list[Card]] = [[] for _ in range(7)]
    down = [0] * 7
    stock: list[Card] = []
    waste: list[Card] = []
    for card in cards:
        where = rng.randrange(10)
        if where < 7:
            tableau[where].append(card)
        elif where < 9:
            stock.append(card)
        else:
            waste.append(card)
    for index, column in enumerate(tableau):
        down[index] = max(0, len(column) - 1)
    return Position(rules, tableau, down, stock, waste, homes)


def small_game_position(seed: int, rules: Rules, loose: int = 8) -> Position:
    """``small_position`` for any one-deck table (Westcliff, Easthaven...):
    ``rules.columns`` columns and, where the stock deals onto the columns,
    no waste and face-up cards that need not form a run (any number of a
    column's cards lie face up, as deals leave them)."""
    rng = random.Random(seed)
    homes, cards = cards_out(rng, loose)
    deals = rules.stock_mode is StockMode.EVERY_COLUMN
    columns = rules.columns
    tableau: list[list[Card]] = [[] for _ in range(columns)]
    stock: list[Card] = []
    waste: list[Card] = []
    for card in cards:
        where = rng.randrange(columns + 3)
        if where < columns:
            tableau[where].append(card)
        elif where < columns + 2 or deals:
            stock.append(card)
        else:
            waste.append(card)
    down = [
        max(0, len(column) - (rng.randint(1, len(column)) if deals and column else 1))
        for column in tableau
    ]
    return Position(rules, tableau, down, stock, waste, homes)


def talon_endgame(rng: random.Random, loose: int, columns: int, first: str, first_share: float,
                  second_share: float, rules: Callable[[], Rules]) -> Position:
    """A small endgame with many of its loose cards in the talon: about
    ``loose`` cards (``cards_out``), each dealt with ``first_share`` to the
    ``first`` talon pile ("stock" or "waste"), then ``second_share`` to the
    other, the rest to one of ``columns`` columns (the top card face up).
    ``rules()`` is asked for after the deal."""
    homes, cards = cards_out(rng, loose)
    tableau: list[list[Card]] = [[] for _ in range(columns)]
    piles: dict[str, list[Card]] = {"stock": [], "waste": []}
    second = "waste" if first == "stock" else "stock"
    for card in cards:
        draw = rng.random()
        if draw < first_share:
            piles[first].append(card)
        elif draw < first_share + second_share:
            piles[second].append(card)
        else:
            tableau[rng.randrange(columns)].append(card)
    down = [max(0, len(column) - 1) for column in tableau]
    return Position(rules(), tableau, down, piles["stock"], piles["waste"], homes)
