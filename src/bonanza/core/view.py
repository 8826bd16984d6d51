"""The player's view: what a player has seen of a position, and nothing more.

A ``PlayerView`` holds every face-up card, every stock and waste card the
player has been shown (in its place), the foundations, and ``None`` for each
card whose place the player does not know. It is built from the true
position once, by ``PlayerView.of``, and from then on no hidden card exists
in it: a fair hint engine takes a view, never a position.

A card's place is known when the player has seen it there (turned up, drawn,
or seen before an undo put it back face down) or when it follows by
elimination: the last unplaced card goes to the last unknown place.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from bonanza.core.cards import ALL_CARDS, Card
from bonanza.core.moves import Move
from bonanza.core.position import Position, home_cards
from bonanza.core.rules import Rules

ViewKey = tuple[object, ...]
"""What tells two views apart for the purpose of "this position again"."""


def visible_cards(position: Position) -> set[int]:
    """The cards a player sees in ``position``: face-up tableau cards, the waste,
    the foundations, and the whole stock once it has been turned over."""
    if position.rules.thoughtful:
        return set(position.rules.cards)
    cards: set[int] = {
        int(card) for column, down in zip(position.tableau, position.down, strict=True)
        for card in column[down:]
    }
    cards.update(position.waste)
    cards.update(position.home_cards())
    if position.recycles:
        cards.update(position.stock)
    return cards


def known_cards(position: Position, seen: Iterable[int] = ()) -> set[int]:
    """The cards whose place a player knows: those visible, those in ``seen``,
    and the last unplaced card by elimination."""
    known = visible_cards(position) | set(seen)
    unknown = [card for column in position.tableau for card in column
               if card not in known] + [card for card in position.stock if card not in known]
    if len(unknown) == 1:
        known.add(unknown[0])
    return known


def masked_key(position: Position, known: set[int]) -> ViewKey:
    """The key of ``position`` as seen by a player who knows ``known``."""
    return PlayerView._masked(position, known).key()


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A position as the player knows it; ``None`` marks a card not yet placed.

    ``tableau`` columns list cards from the deepest up, ``down[i]`` of them face
    down; ``stock`` lists the next card to draw last. ``earlier`` holds the keys
    of the positions already played on the way here (see ``key``).
    """

    rules: Rules
    tableau: tuple[tuple[Card | None, ...], ...]
    down: tuple[int, ...]
    stock: tuple[Card | None, ...]
    waste: tuple[Card, ...]
    foundations: tuple[int, ...]
    recycles: int = 0
    earlier: frozenset[ViewKey] = field(default=frozenset(), compare=False, repr=False)

    @classmethod
    def of(
        cls,
        position: Position,
        seen: Iterable[int] = (),
        earlier: Iterable[Position] = (),
    ) -> PlayerView:
        """The view of ``position`` for a player who has also seen ``seen``
        (cards shown before, say, an undo), after playing through ``earlier``."""
        known = known_cards(position, seen)
        return cls.with_earlier(position, known, [masked_key(before, known) for before in earlier])

    @classmethod
    def with_earlier(
        cls, position: Position, known: set[int], earlier: Iterable[ViewKey]
    ) -> PlayerView:
        """The view of ``position`` given the ``known`` cards (see ``known_cards``)
        and the keys of the positions passed, masked the same way."""
        view = cls._masked(position, known)
        return cls(view.rules, view.tableau, view.down, view.stock, view.waste,
                   view.foundations, view.recycles, frozenset(earlier))

    @classmethod
    def _masked(cls, position: Position, known: set[int]) -> PlayerView:
        def mask(cards: Iterable[int]) -> tuple[Card | None, ...]:
            return tuple(ALL_CARDS[card] if card in known else None for card in cards)

        return cls(
            position.rules,
            tuple(mask(column) for column in position.tableau),
            tuple(position.down),
            mask(position.stock),
            tuple(ALL_CARDS[card] for card in position.waste),
            tuple(position.foundations),
            position.recycles,
        )

    # -- facts -------------------------------------------------------------

    @property
    def unseen(self) -> frozenset[Card]:
        """The cards whose place the player does not know."""
        placed: set[int] = {card for column in self.tableau for card in column if card is not None}
        placed.update(card for card in self.stock if card is not None)
        placed.update(self.waste)
        placed.update(home_cards(list(self.foundations)))
        return frozenset(card for card in self.rules.cards if card not in placed)

    @property
    def unknown_places(self) -> int:
        """How many places hold a card the player does not know."""
        return sum(card is None for column in self.tableau for card in column) + sum(
            card is None for card in self.stock
        )

    def is_known(self) -> bool:
        """Whether the player knows every card's place."""
        return self.unknown_places == 0

    def key(self) -> ViewKey:
        """The view's identity for "this position again": columns are
        interchangeable, and with unlimited passes only whether the stock has
        been turned over matters, not how often."""
        recycles = self.recycles if self.rules.passes is not None else min(self.recycles, 1)
        return (
            tuple(sorted(zip(self.down, self.tableau, strict=True), key=repr)),
            self.stock,
            self.waste,
            self.foundations,
            recycles,
        )

    def is_earlier(self, position: Position) -> bool:
        """Whether ``position`` (a layout of this view, or one move on) masks to
        a position already played on the way here."""
        if not self.earlier:
            return False
        return masked_key(position, self._known_cards()) in self.earlier

    def _known_cards(self) -> set[int]:
        return {int(card) for card in self.rules.cards} - set(self.unseen)

    # -- layouts ------------------------------------------------------------

    def layout(self, cards: Iterable[Card]) -> Position:
        """The position with the unknown places filled by ``cards`` in order:
        the tableau from column 1 up, then the stock from its bottom."""
        fill = iter(cards)
        tableau = [[card if card is not None else next(fill) for card in column]
                   for column in self.tableau]
        stock = [card if card is not None else next(fill) for card in self.stock]
        if next(fill, None) is not None:
            raise ValueError("more cards than unknown places")
        return Position(self.rules, tableau, list(self.down), stock, list(self.waste),
                        list(self.foundations), self.recycles)

    def legal_moves(self) -> list[Move]:
        """The legal moves: they never depend on a card the player cannot see."""
        return self.layout(sorted(self.unseen)).legal_moves()

    def __str__(self) -> str:
        return self.layout(sorted(self.unseen)).to_text(hide=True)
