"""Deals: deal numbers (a frozen shuffle), deal codes and card listings.

The algorithms are specified in docs/engine.md and never change: deal
number ``n`` gives the same layout on every platform, forever. One deck:
algorithm 1 and 39-character codes; two decks: algorithm 2 and
86-character codes starting with ``D`` (docs/variants.md).
"""

from __future__ import annotations

import functools
import operator
from typing import TYPE_CHECKING, Final, NamedTuple

from bonanza.core.cards import ALL_CARDS, DECK_SIZE, MAX_DECKS, Card, cards_of, twinned
from bonanza.core.deal_codes import CODE_LENGTH, TWO_DECK_CODE_LENGTH, code_of, read_code
from bonanza.core.errors import CardSyntaxError, DealError

if TYPE_CHECKING:
    from bonanza.core.rules import Rules

DEAL_ALGORITHM: Final = 1
"""The version of the deal-number shuffle of one deck."""
DEAL_ALGORITHM_TWO_DECKS: Final = 2
"""The version of the deal-number shuffle of two decks."""

MAX_DEAL_NUMBER: Final = 2**64 - 1
TABLEAU_SIZE: Final = 28
"""Klondike's columns hold 28 cards at the start."""
KLONDIKE_COLUMNS: Final = 7
NUMBERED_DEALS_KEPT: Final = 4096
"""Deals of a number kept once dealt (``_numbered``): the games a server has in play."""


class Layout(NamedTuple):
    """A deal laid out under a rule set: the columns (deepest card first),
    how many cards of each are face down, the waste (bottom first) and the
    stock (first card drawn or dealt first)."""

    columns: tuple[tuple[Card, ...], ...]
    down: tuple[int, ...]
    waste: tuple[Card, ...]
    stock: tuple[Card, ...]

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


def shuffle(number: int, decks: int = 1) -> tuple[Card, ...]:
    """The card listing of deal ``number``: deal algorithm 1 for one deck,
    2 for two (the same shuffle of ids 0-103, then each card's first
    occurrence given the first-deck id)."""
    state = splitmix64(number)
    deck = list(cards_of(decks))
    for i in range(len(deck) - 1, 0, -1):
        j = _below(state, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(twinned(deck)) if decks > 1 else tuple(deck)


def last_face(number: int, decks: int = 1) -> int:
    """The face (``int(card) % 52``) of the last card of deal ``number``'s listing: the
    shuffle's first step alone, to test a listing against many numbers at little cost."""
    deck = cards_of(decks)
    return int(deck[_below(splitmix64(number), len(deck))]) % DECK_SIZE


class Deal:
    """One of the layouts of one or two decks, as a card listing.

    The listing is laid out by the rules (``layout``): Klondike's is
    columns 1-7, then the stock. Two-deck listings give each card's first
    occurrence the id ``c`` and its second ``c + 52``. ``number`` is the deal
    number it came from, when it came from one.
    """

    __slots__ = ("cards", "number")

    cards: tuple[Card, ...]
    number: int | None

    def __init__(self, cards: tuple[Card, ...] | list[Card], number: int | None = None) -> None:
        cards = tuple(ALL_CARDS[int(card)] for card in cards)
        decks = len(cards) // DECK_SIZE
        if len(cards) % DECK_SIZE or not 1 <= decks <= MAX_DECKS or set(cards) != set(
            cards_of(decks)
        ):
            raise DealError(_listing_problem(cards))
        if decks > 1 and list(cards) != twinned(list(cards)):
            raise DealError("a two-deck listing gives each card's first occurrence the id c, "
                            "its second c + 52")
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "number", number)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Deal is a value: its {name} cannot be set")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Deal is a value: its {name} cannot be deleted")

    def __reduce__(self) -> tuple[type[Deal], tuple[tuple[Card, ...], int | None]]:
        return Deal, (self.cards, self.number)

    @property
    def decks(self) -> int:
        """1 or 2."""
        return len(self.cards) // DECK_SIZE

    @classmethod
    def from_number(cls, number: int, decks: int = 1) -> Deal:
        """The deal with this deal number (0 to 2**64 - 1) of ``decks`` decks: any
        whole number (NumPy's integers too), not a float, a string or a bool."""
        try:
            if isinstance(number, bool):
                raise TypeError
            number = operator.index(number)  # numpy.uint64(7) is deal 7
        except TypeError:
            raise DealError(f"deal number {number!r} is not a whole number") from None
        if not 0 <= number <= MAX_DEAL_NUMBER:
            raise DealError(f"deal number {number} is out of range: use 0 to {MAX_DEAL_NUMBER}")
        if decks not in range(1, MAX_DECKS + 1):
            raise DealError(f"a deal has 1 or {MAX_DECKS} decks, not {decks!r}")
        if cls is Deal:
            return _numbered(number, decks)
        return cls(shuffle(number, decks), number)

    @classmethod
    def from_code(cls, code: str) -> Deal:
        """Read a deal code: 39 characters (one deck) or 86 starting with ``D``."""
        return cls(read_code(code))

    @classmethod
    def from_listing(cls, text: str) -> Deal:
        """Read a listing of 52 or 104 cards separated by white space."""
        tokens = text.split()
        cards: list[Card] = []
        for index, token in enumerate(tokens):
            try:
                cards.append(Card.parse(token))
            except CardSyntaxError:
                raise DealError(
                    f"card listing: token {index + 1}, {token!r}, is not a card like 7H"
                ) from None
        if len(cards) == MAX_DECKS * DECK_SIZE:
            cards = twinned(cards)
        return cls(cards)

    @classmethod
    def parse(cls, text: str, decks: int | None = None) -> Deal:
        """Read a deal ID as a user gives it: a deal number (of ``decks`` decks,
        default 1), a deal code or a listing; with ``decks``, the deal must have
        that many."""
        text = text.strip()
        if text.isdigit() and text.isascii() and len(text) <= 20:
            return cls.from_number(int(text), decks or 1)
        if len(text) in (CODE_LENGTH, TWO_DECK_CODE_LENGTH) and " " not in text:
            deal = cls.from_code(text)
        elif len(text.split()) > 1:
            deal = cls.from_listing(text)
        else:
            code = (f"an {TWO_DECK_CODE_LENGTH}" if decks == MAX_DECKS else f"a {CODE_LENGTH}")
            raise DealError(
                f"{text!r} is not a deal: give a deal number (0 to {MAX_DEAL_NUMBER}), "
                f"{code}-character deal code, or {(decks or 1) * DECK_SIZE} cards"
            )
        if decks is not None and deal.decks != decks:
            raise DealError(f"deal {text!r} has {len(deal.cards)} cards, not {decks * DECK_SIZE}")
        return deal

    @property
    def code(self) -> str:
        """The deal's code: 39 characters, or for two decks 86 starting with ``D``."""
        return code_of(self.cards)

    @property
    def listing(self) -> str:
        """The cards separated by spaces."""
        return " ".join(str(card) for card in self.cards)

    @property
    def columns(self) -> tuple[tuple[Card, ...], ...]:
        """The staircase columns (7, or 9 for two decks), deepest card first:
        Klondike's and Double Klondike's (see ``layout`` for other games)."""
        count = KLONDIKE_COLUMNS + 2 * (self.decks - 1)
        starts = [n * (n + 1) // 2 for n in range(count + 1)]
        return tuple(self.cards[starts[n] : starts[n + 1]] for n in range(count))

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock after the staircase columns, first card drawn first."""
        return self.cards[sum(len(column) for column in self.columns):]

    def layout(self, rules: Rules) -> Layout:
        """The deal laid out for ``rules``: its columns in the rules' shape,
        then the waste's starting cards, then the stock (docs/variants.md)."""
        if rules.decks != self.decks:
            raise DealError(
                f"deal {self.id} has {len(self.cards)} cards but {rules.game} plays "
                f"{rules.card_count}"
            )
        columns, at = [], 0
        for size in rules.column_sizes:
            columns.append(self.cards[at : at + size])
            at += size
        down = tuple(size - 1 for size in rules.column_sizes)
        waste = self.cards[at : at + rules.waste_start]
        return Layout(tuple(columns), down, waste, self.cards[at + rules.waste_start :])

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
            decks = f", decks={self.decks}" if self.decks > 1 else ""
            return f"Deal.from_number({self.number}{decks})"
        return f"Deal.from_code({self.code!r})"


def _listing_problem(cards: tuple[Card, ...]) -> str:
    if len(cards) not in (DECK_SIZE, MAX_DECKS * DECK_SIZE):
        return f"card listing has {len(cards)} cards, not {DECK_SIZE} or {MAX_DECKS * DECK_SIZE}"
    allowed = len(cards) // DECK_SIZE
    texts = [str(card) for card in cards]
    repeated = sorted({text for text in texts if texts.count(text) > allowed})
    if not repeated:
        return f"card listing gives ids outside 0-{len(cards) - 1} (see Card.twin)"
    return f"card listing repeats {', '.join(repeated)}"


@functools.lru_cache(maxsize=NUMBERED_DEALS_KEPT)
def _numbered(number: int, decks: int) -> Deal:
    """``Deal.from_number`` of a checked number, kept: a deal is a value (its cards a
    tuple), and a server reading a game back deals its number again each time."""
    return Deal(shuffle(number, decks), number)
