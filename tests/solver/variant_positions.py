"""Small positions of Klondike's relatives, for the generic search's tests.

``small_variant_position`` is ``brute.small_position`` for any table: a few
cards not home (of both decks with two), spread over the columns (all but
the top face down), the stock and the waste.
"""

from __future__ import annotations

import dataclasses
import random

from bonanza.core import ALL_CARDS, Card, Deal, EmptyColumn, Position, Rules
from bonanza.core.cards import DECK_SIZE, RANK_COUNT, SUIT_COUNT
from bonanza.core.rules import StockMode

GAMES = ("double-klondike", "double-klondike-3", "westcliff", "easthaven")


def strict(game: str) -> Rules:
    """The game with Kings only into spaces, no recall and one pass: small
    positions are lost more often, and a brute force can search them whole."""
    return dataclasses.replace(Rules.preset(game), empty_column=EmptyColumn.KING,
                               recall=False, passes=1)
STOCK_SHARE = 2
WASTE_SHARE = 1
"""Of every ``columns + STOCK_SHARE + WASTE_SHARE`` cards, how many go to the
stock and the waste (none to the waste where the stock deals onto the columns)."""


def small_variant_position(seed: int, rules: Rules, loose: int = 8, *,
                           face_up: bool = False, suits: int | None = None) -> Position:
    """A random endgame of ``rules`` with about ``loose`` cards not home, taken
    from ``suits`` foundations (all by default: fewer give longer runs of one
    suit, which block more often); with ``face_up`` nothing is face down."""
    rng = random.Random(seed)
    homes = [RANK_COUNT] * rules.foundations
    chosen = rng.sample(range(rules.foundations), suits or rules.foundations)
    for _ in range(loose):
        home = rng.choice(chosen)
        if homes[home] > 0:
            homes[home] -= 1
    cards: list[Card] = []
    for suit in range(SUIT_COUNT):
        for rank in range(1, RANK_COUNT + 1):
            card = suit * RANK_COUNT + rank - 1
            home = sum(height >= rank for height in homes[suit::SUIT_COUNT])
            if rules.decks == 1:
                cards += [ALL_CARDS[card]] if not home else []
            else:  # a rank home once is the twin c + 52 (docs/engine.md)
                cards += [ALL_CARDS[card], ALL_CARDS[card + DECK_SIZE]][: 2 - home]
    rng.shuffle(cards)
    tableau: list[list[Card]] = [[] for _ in range(rules.columns)]
    stock: list[Card] = []
    waste: list[Card] = []
    dealt = rules.stock_mode is StockMode.EVERY_COLUMN
    for card in cards:
        where = rng.randrange(rules.columns + STOCK_SHARE + WASTE_SHARE)
        if where < rules.columns:
            tableau[where].append(card)
        elif where < rules.columns + STOCK_SHARE or dealt:
            stock.append(card)
        else:
            waste.append(card)
    down = [0 if face_up else max(0, len(column) - 1) for column in tableau]
    return Position(rules, tableau, down, stock, waste, homes)


def random_play_position(rules: Rules, chooser: random.Random, plies: range) -> Position:
    """A random deal of ``rules`` played a random count (drawn from ``plies``)
    of random legal moves in, or until none is left."""
    deal = Deal.from_number(chooser.getrandbits(64), decks=rules.decks)
    position = Position.initial(deal, rules)
    for _ in range(chooser.randrange(plies.start, plies.stop)):
        moves = position.legal_moves()
        if not moves:
            break
        position.apply(chooser.choice(moves))
    return position
