"""Cards, ranks and suits, with their text forms."""

from __future__ import annotations

import enum
from typing import Final

from bonanza.core.errors import CardSyntaxError


class Suit(enum.IntEnum):
    """The four suits, in foundation order."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


class Rank(enum.IntEnum):
    """Ranks from ace (1) to king (13)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        return RANK_LETTERS[self - 1]


DECK_SIZE: Final = 52
"""Cards in one deck."""
SUIT_COUNT: Final = 4
RANK_COUNT: Final = 13
"""Ranks in a suit: ace to king."""
MAX_DECKS: Final = 2
"""Games play one deck or two (Double Klondike)."""

SUIT_LETTERS: Final = "CDHS"
RANK_LETTERS: Final = "A23456789TJQK"
TEN_RANK_INDEX: Final = RANK_LETTERS.index("T")
_RANK_NAMES: Final = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)  # fmt: skip


class Card(int):
    """A card: an ``int`` from 0 to 51, ``suit * 13 + rank - 1``, for the first
    deck; the second deck's cards (two-deck games) are 52 to 103, card
    ``c + 52`` being the twin of ``c`` (same rank, suit and text)."""

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        if not 0 <= value < MAX_DECKS * DECK_SIZE:
            raise CardSyntaxError(
                f"card number {value} is not between 0 and {MAX_DECKS * DECK_SIZE - 1}"
            )
        return super().__new__(cls, value)

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        """The card of ``rank`` (1-13) and ``suit`` (0-3)."""
        if not (_is_whole(rank) and 1 <= rank <= RANK_COUNT):
            raise CardSyntaxError(f"rank {rank!r} is not from 1 to {RANK_COUNT}")
        if not (_is_whole(suit) and 0 <= suit < SUIT_COUNT):
            raise CardSyntaxError(f"suit {suit!r} is not from 0 to {SUIT_COUNT - 1}")
        return CARDS[suit * RANK_COUNT + rank - 1]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card such as ``7H`` or ``td`` (case does not matter)."""
        if len(text) != 2:
            raise CardSyntaxError(f"{text!r} is not a card: expected a rank and a suit, like 7H")
        rank = RANK_LETTERS.find(text[0].upper())
        suit = SUIT_LETTERS.find(text[1].upper())
        if rank < 0 or suit < 0:
            raise CardSyntaxError(
                f"{text!r} is not a card: ranks are {RANK_LETTERS}, suits are {SUIT_LETTERS}"
            )
        return CARDS[suit * 13 + rank]

    @property
    def rank(self) -> Rank:
        return Rank(self % RANK_COUNT + 1)

    @property
    def suit(self) -> Suit:
        return Suit(SUIT_OF[self])

    @property
    def deck(self) -> int:
        """0 for the first deck, 1 for the second."""
        return self // DECK_SIZE

    @property
    def twin(self) -> Card:
        """The same rank and suit in the other deck (two-deck games)."""
        return ALL_CARDS[(self + DECK_SIZE) % (MAX_DECKS * DECK_SIZE)]

    @property
    def is_red(self) -> bool:
        return RED[self]

    @property
    def symbol(self) -> str:
        """The display form with a suit symbol, such as ``7♥``."""
        return RANK_LETTERS[self % RANK_COUNT] + "♣♦♥♠"[SUIT_OF[self]]

    @property
    def face(self) -> str:
        """The card as its corner shows it, for words meant for a player: ``10♥``,
        ``Q♠`` (``symbol`` keeps one letter per rank, ``T♥``, for grids)."""
        rank = self % RANK_COUNT
        return ("10" if rank == TEN_RANK_INDEX else RANK_LETTERS[rank]) + "♣♦♥♠"[SUIT_OF[self]]

    @property
    def name(self) -> str:
        """The spoken form, such as ``seven of hearts``."""
        suit = ("clubs", "diamonds", "hearts", "spades")[SUIT_OF[self]]
        return f"{_RANK_NAMES[self % RANK_COUNT]} of {suit}"

    def __str__(self) -> str:
        return RANK_LETTERS[self % RANK_COUNT] + SUIT_LETTERS[SUIT_OF[self]]

    def __repr__(self) -> str:
        if self >= DECK_SIZE:
            return f"Card.parse({str(self)!r}).twin"
        return f"Card.parse({str(self)!r})"


ALL_CARDS: Final[tuple[Card, ...]] = tuple(
    int.__new__(Card, i) for i in range(MAX_DECKS * DECK_SIZE)
)
"""Every card of two decks, indexed by its number."""
CARDS: Final[tuple[Card, ...]] = ALL_CARDS[:DECK_SIZE]
"""Every card of one deck, indexed by its number."""

RANK_OF: Final[tuple[int, ...]] = tuple(i % RANK_COUNT + 1 for i in range(len(ALL_CARDS)))
SUIT_OF: Final[tuple[int, ...]] = tuple(i % DECK_SIZE // RANK_COUNT for i in range(len(ALL_CARDS)))
RED: Final[tuple[bool, ...]] = tuple(SUIT_OF[i] in (Suit.DIAMONDS, Suit.HEARTS)
                                     for i in range(len(ALL_CARDS)))


def cards_of(decks: int) -> tuple[Card, ...]:
    """The cards of ``decks`` decks (1 or 2): 0-51, or 0-103."""
    return ALL_CARDS[: decks * DECK_SIZE]


def parse_cards(text: str) -> list[Card]:
    """Read cards separated by white space (one deck's ids: see ``twinned``)."""
    return [Card.parse(token) for token in text.split()]


def twinned(cards: list[Card]) -> list[Card]:
    """Cards read from a two-deck text: each card's first occurrence keeps
    its first-deck id ``c``, its second becomes the twin ``c + 52``."""
    seen: set[int] = set()
    result = []
    for card in cards:
        base = card % DECK_SIZE
        result.append(ALL_CARDS[base + DECK_SIZE if base in seen else base])
        seen.add(base)
    return result


def _is_whole(value: object) -> bool:
    """Whether ``value`` is an int (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)
