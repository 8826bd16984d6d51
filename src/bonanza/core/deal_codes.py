"""Deal codes: a listing's rank among all listings, in base 62 with a check digit.

One deck: the Lehmer rank of the permutation, 38 digits and a check digit.
Two decks: ``D``, the rank among listings whose twins look alike, 84 digits
and a check digit (docs/engine.md). Frozen forever, like the deal numbers.
"""

from __future__ import annotations

import math
from typing import Final

from bonanza.core.cards import ALL_CARDS, CARDS, DECK_SIZE, MAX_DECKS, Card, twinned
from bonanza.core.errors import DealError

CODE_DIGITS: Final = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
CODE_LENGTH: Final = 39
TWO_DECK_CODE_TAG: Final = "D"
"""The first character of a two-deck code (a one-deck code has no tag)."""
TWO_DECK_CODE_DIGITS: Final = 84
"""Base-62 digits of a two-deck code's rank: 104! / 2**52 < 62**84."""
TWO_DECK_CODE_LENGTH: Final = len(TWO_DECK_CODE_TAG) + TWO_DECK_CODE_DIGITS + 1
_TWO_DECK_LISTINGS: Final = math.factorial(MAX_DECKS * DECK_SIZE) // 2**DECK_SIZE
"""How many different listings two decks have (twins look alike)."""


def code_of(cards: tuple[Card, ...]) -> str:
    """The code of a listing of one deck or two."""
    if len(cards) > DECK_SIZE:
        return TWO_DECK_CODE_TAG + encode(_multiset_rank(cards), TWO_DECK_CODE_DIGITS)
    return encode(_rank(cards))


def read_code(code: str) -> list[Card]:
    """The listing of a code (raises ``DealError`` naming the problem)."""
    if code.startswith(TWO_DECK_CODE_TAG) and len(code) == TWO_DECK_CODE_LENGTH:
        rank = decode(code[1:], _TWO_DECK_LISTINGS, TWO_DECK_CODE_LENGTH - 1)
        return _multiset_permutation(rank)
    return _permutation(decode(code))


def _multiset_rank(cards: tuple[Card, ...]) -> int:
    """The rank of a two-deck listing among all listings (twins alike)."""
    left = [2] * DECK_SIZE
    pairs = DECK_SIZE  # how many kinds still have both twins to place
    rank = 0
    for index, card in enumerate(cards):
        rest = math.factorial(len(cards) - index - 1)
        for kind in range(card % DECK_SIZE):
            if left[kind]:
                rank += rest // 2 ** (pairs - (left[kind] == 2))
        kind = card % DECK_SIZE
        pairs -= left[kind] == 2
        left[kind] -= 1
    return rank


def _multiset_permutation(rank: int) -> list[Card]:
    """The two-deck listing of ``rank`` (inverse of ``_multiset_rank``)."""
    left = [2] * DECK_SIZE
    pairs = DECK_SIZE
    texts: list[Card] = []
    for index in range(MAX_DECKS * DECK_SIZE):
        rest = math.factorial(MAX_DECKS * DECK_SIZE - index - 1)
        for kind in range(DECK_SIZE):
            if not left[kind]:
                continue
            block = rest // 2 ** (pairs - (left[kind] == 2))
            if rank < block:
                break
            rank -= block
        texts.append(ALL_CARDS[kind])
        pairs -= left[kind] == 2
        left[kind] -= 1
    return twinned(texts)


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


def encode(rank: int, length: int = CODE_LENGTH - 1) -> str:
    """Write a permutation rank as ``length`` base-62 digits and a check digit."""
    digits = []
    for _ in range(length):
        rank, digit = divmod(rank, 62)
        digits.append(digit)
    digits.reverse()
    return "".join(CODE_DIGITS[d] for d in [*digits, _check_digit(digits)])


def decode(code: str, limit: int = math.factorial(DECK_SIZE), length: int = CODE_LENGTH) -> int:
    """Read a deal code (without its tag) of ``length`` characters back to a
    rank below ``limit``."""
    if len(code) != length:
        raise DealError(f"deal code {code!r} has {len(code)} characters, not {length}")
    bad = [char for char in code if char not in CODE_DIGITS]
    if bad:
        raise DealError(f"deal code {code!r} has a character outside 0-9, A-Z, a-z: {bad[0]!r}")
    digits = [CODE_DIGITS.index(char) for char in code]
    if _check_digit(digits[:-1]) != digits[-1]:
        raise DealError(f"deal code {code!r} does not check out: is there a typo?")
    rank = 0
    for digit in digits[:-1]:
        rank = rank * 62 + digit
    if rank >= limit:
        raise DealError(f"deal code {code!r} is out of range")
    return rank
