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


SUIT_LETTERS: Final = "CDHS"
RANK_LETTERS: Final = "A23456789TJQK"
_RANK_NAMES: Final = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)  # fmt: skip


class Card(int):
    """A card: an ``int`` from 0 to 51, ``suit * 13 + rank - 1``."""

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        if not 0 <= value < 52:
            raise CardSyntaxError(f"card number {value} is not between 0 and 51")
        return super().__new__(cls, value)

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        """The card of ``rank`` (1-13) and ``suit`` (0-3)."""
        return CARDS[suit * 13 + rank - 1]

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
        return Rank(self % 13 + 1)

    @property
    def suit(self) -> Suit:
        return Suit(self // 13)

    @property
    def is_red(self) -> bool:
        return 13 <= self < 39

    @property
    def symbol(self) -> str:
        """The display form with a suit symbol, such as ``7♥``."""
        return RANK_LETTERS[self % 13] + "♣♦♥♠"[self // 13]

    @property
    def name(self) -> str:
        """The spoken form, such as ``seven of hearts``."""
        suit = ("clubs", "diamonds", "hearts", "spades")[self // 13]
        return f"{_RANK_NAMES[self % 13]} of {suit}"

    def __str__(self) -> str:
        return RANK_LETTERS[self % 13] + SUIT_LETTERS[self // 13]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


CARDS: Final[tuple[Card, ...]] = tuple(int.__new__(Card, i) for i in range(52))
"""Every card, indexed by its number."""

RANK_OF: Final[tuple[int, ...]] = tuple(i % 13 + 1 for i in range(52))
SUIT_OF: Final[tuple[int, ...]] = tuple(i // 13 for i in range(52))
RED: Final[tuple[bool, ...]] = tuple(13 <= i < 39 for i in range(52))


def parse_cards(text: str) -> list[Card]:
    """Read cards separated by white space."""
    return [Card.parse(token) for token in text.split()]
