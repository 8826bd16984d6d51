"""Deals: deal numbers (a frozen shuffle), deal codes and card listings.

The algorithms are specified in docs/engine.md and never change: deal
number ``n`` gives the same layout on every platform, forever.
"""

from __future__ import annotations

import math
from typing import Final

from bonanza.core.cards import CARDS, Card
from bonanza.core.errors import CardSyntaxError, DealError

DEAL_ALGORITHM: Final = 1
"""The version of the deal-number shuffle."""

MAX_DEAL_NUMBER: Final = 2**64 - 1
TABLEAU_SIZE: Final = 28
CODE_DIGITS: Final = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
CODE_LENGTH: Final = 39

_MASK: Final = 2**64 - 1


def splitmix64(seed: int) -> list[int]:
    """A generator state holder for ``_next``: SplitMix64 seeded with ``seed``."""
    return [seed & _MASK]


def _next(state: list[int]) -> int:
    state[0] = (state[0] + 0x9E3779B97F4A7C15) & _MASK
    z = state[0]
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def _below(state: list[int], bound: int) -> int:
    limit = 2**64 - (2**64 % bound)
    while True:
        value = _next(state)
        if value < limit:
            return value % bound


def shuffle(number: int) -> tuple[Card, ...]:
    """The card listing of deal ``number`` (deal algorithm 1)."""
    state = splitmix64(number)
    deck = list(CARDS)
    for i in range(51, 0, -1):
        j = _below(state, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


class Deal:
    """One of the 52! layouts, as a card listing (columns 1-7, then the stock).

    ``number`` is the deal number it came from, when it came from one.
    """

    __slots__ = ("cards", "number")

    cards: tuple[Card, ...]
    number: int | None

    def __init__(self, cards: tuple[Card, ...] | list[Card], number: int | None = None) -> None:
        cards = tuple(CARDS[int(card)] for card in cards)
        if len(cards) != 52 or len(set(cards)) != 52:
            raise DealError(_listing_problem(cards))
        self.cards = cards
        self.number = number

    @classmethod
    def from_number(cls, number: int) -> Deal:
        """The deal with this deal number (0 to 2**64 - 1)."""
        if isinstance(number, bool) or not isinstance(number, int):
            raise DealError(f"deal number {number!r} is not a whole number")
        if not 0 <= number <= MAX_DEAL_NUMBER:
            raise DealError(f"deal number {number} is out of range: use 0 to {MAX_DEAL_NUMBER}")
        return cls(shuffle(number), number)

    @classmethod
    def from_code(cls, code: str) -> Deal:
        """Read a 39-character deal code."""
        return cls(_permutation(decode(code)))

    @classmethod
    def from_listing(cls, text: str) -> Deal:
        """Read a listing of 52 cards separated by white space."""
        tokens = text.split()
        cards: list[Card] = []
        for index, token in enumerate(tokens):
            try:
                cards.append(Card.parse(token))
            except CardSyntaxError:
                raise DealError(
                    f"card listing: token {index + 1}, {token!r}, is not a card like 7H"
                ) from None
        return cls(cards)

    @classmethod
    def parse(cls, text: str) -> Deal:
        """Read a deal ID as a user gives it: a deal number, a deal code or a listing."""
        text = text.strip()
        if text.isdigit() and text.isascii() and len(text) <= 20:
            return cls.from_number(int(text))
        if len(text) == CODE_LENGTH and " " not in text:
            return cls.from_code(text)
        if len(text.split()) > 1:
            return cls.from_listing(text)
        raise DealError(
            f"{text!r} is not a deal: give a deal number (0 to {MAX_DEAL_NUMBER}), "
            f"a {CODE_LENGTH}-character deal code, or 52 cards"
        )

    @property
    def code(self) -> str:
        """The deal's 39-character code."""
        return encode(_rank(self.cards))

    @property
    def listing(self) -> str:
        """The 52 cards separated by spaces."""
        return " ".join(str(card) for card in self.cards)

    @property
    def columns(self) -> tuple[tuple[Card, ...], ...]:
        """The seven tableau columns, deepest card first."""
        starts = [n * (n + 1) // 2 for n in range(8)]
        return tuple(self.cards[starts[n] : starts[n + 1]] for n in range(7))

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, first card drawn first."""
        return self.cards[TABLEAU_SIZE:]

    @property
    def id(self) -> str:
        """The shortest ID that opens this deal: its number, else its code."""
        return str(self.number) if self.number is not None else self.code

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and self.cards == other.cards

    def __hash__(self) -> int:
        return hash(self.cards)

    def __repr__(self) -> str:
        if self.number is not None:
            return f"Deal.from_number({self.number})"
        return f"Deal.from_code({self.code!r})"


def _listing_problem(cards: tuple[Card, ...]) -> str:
    if len(cards) != 52:
        return f"card listing has {len(cards)} cards, not 52"
    repeated = sorted({card for card in cards if cards.count(card) > 1})
    return f"card listing repeats {', '.join(map(str, repeated))}"


def _rank(cards: tuple[Card, ...]) -> int:
    """The Lehmer rank of a permutation of the 52 cards."""
    remaining = list(range(52))
    rank = 0
    for index, card in enumerate(cards):
        position = remaining.index(card)
        rank = rank * (52 - index) + position
        del remaining[position]
    return rank


def _permutation(rank: int) -> list[Card]:
    digits = []
    for base in range(1, 53):
        rank, digit = divmod(rank, base)
        digits.append(digit)
    remaining = list(CARDS)
    return [remaining.pop(digit) for digit in reversed(digits)]


def _check_digit(digits: list[int]) -> int:
    return sum((index + 1) * digit for index, digit in enumerate(digits)) % 62


def encode(rank: int) -> str:
    """Write a permutation rank as a deal code."""
    digits = []
    for _ in range(CODE_LENGTH - 1):
        rank, digit = divmod(rank, 62)
        digits.append(digit)
    digits.reverse()
    return "".join(CODE_DIGITS[d] for d in [*digits, _check_digit(digits)])


def decode(code: str) -> int:
    """Read a deal code back to a permutation rank."""
    if len(code) != CODE_LENGTH:
        raise DealError(f"deal code {code!r} has {len(code)} characters, not {CODE_LENGTH}")
    bad = [char for char in code if char not in CODE_DIGITS]
    if bad:
        raise DealError(f"deal code {code!r} has a character outside 0-9, A-Z, a-z: {bad[0]!r}")
    digits = [CODE_DIGITS.index(char) for char in code]
    if _check_digit(digits[:-1]) != digits[-1]:
        raise DealError(f"deal code {code!r} does not check out: is there a typo?")
    rank = 0
    for digit in digits[:-1]:
        rank = rank * 62 + digit
    if rank >= math.factorial(52):
        raise DealError(f"deal code {code!r} is out of range")
    return rank
