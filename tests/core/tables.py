"""Build small, hand-made positions: unnamed cards are already home."""

from __future__ import annotations

from bonanza.core import CARDS, Card, Position, Rules


def table(
    columns: list[str],
    stock: str = "",
    waste: str = "",
    rules: Rules | None = None,
    recycles: int = 0,
) -> Position:
    """A position from column texts (lower case = face down), stock (next
    draw first) and waste (bottom first); every card not named is on its
    foundation, so for each suit the unnamed cards must be the lowest ranks."""
    named: list[Card] = []
    tableau, down = [], []
    for text in [*columns, *[""] * (7 - len(columns))]:
        cards = [Card.parse(token) for token in text.split()]
        tableau.append(cards)
        down.append(sum(token[1].islower() for token in text.split()))
        named += cards
    stock_cards = [Card.parse(token) for token in stock.split()]
    waste_cards = [Card.parse(token) for token in waste.split()]
    named += stock_cards + waste_cards
    foundations = []
    for suit in range(4):
        ranks = sorted(card.rank for card in named if card.suit == suit)
        home = ranks[0] - 1 if ranks else 13
        assert ranks == list(range(home + 1, 14)), f"suit {suit}: named ranks {ranks} leave a gap"
        foundations.append(home)
    assert len(set(named)) == len(named)
    assert len(named) + sum(foundations) == len(CARDS)
    return Position(
        rules or Rules(), tableau, down, stock_cards[::-1], waste_cards, foundations, recycles
    )
