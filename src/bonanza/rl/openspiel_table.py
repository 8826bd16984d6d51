"""The OpenSpiel game's table: a position whose unseen cards are placeholders.

No card's identity exists before the player sees it. The table starts as 52
placeholders, one per place of the deal listing (slot 0 is column 1's card,
slot 28 the first stock card drawn); placeholder ``HIDDEN + slot`` stands for
the card of that slot. When a move turns a placeholder up (a face-down card
at the top of a column, or a stock card drawn for the first time), the slot
waits in ``pending`` for a chance outcome that names its card, chosen from
the cards not yet seen. Legal moves never look at a face-down or undrawn
card, so the placeholders play by the core's rules unchanged.

This module needs neither OpenSpiel nor NumPy.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Final, cast

from bonanza.core.cards import CARDS, Card
from bonanza.core.deal import TABLEAU_SIZE, Deal
from bonanza.core.moves import Move
from bonanza.core.notation import format_move
from bonanza.core.position import Position
from bonanza.core.rules import Rules
from bonanza.rl.actions import ActionError, legal_actions

DECK: Final = 52
HIDDEN: Final = DECK
"""Placeholders are ``HIDDEN + slot``: never a card number."""
UNKNOWN: Final = -1
"""A slot whose card is not yet known."""
_COLUMN_STARTS: Final = tuple(n * (n + 1) // 2 for n in range(8))


def placeholder(slot: int) -> Card:
    """The placeholder of ``slot``: a number above every card, typed as a
    ``Card`` only so that a ``Position`` can hold it (it never reads one)."""
    return cast(Card, HIDDEN + slot)


class Table:
    """One game in progress: the position, the cards seen so far, and the
    slots waiting for a chance outcome."""

    __slots__ = ("_legal", "cards", "log", "moves", "pending", "position")

    def __init__(
        self,
        position: Position,
        cards: list[int],
        pending: list[int],
        moves: int = 0,
        log: list[str] | None = None,
    ) -> None:
        self.position = position
        self.cards = cards  # slot -> card, or UNKNOWN
        self.pending = pending  # slots turned up, waiting for their card, first first
        self.moves = moves  # player moves played
        self.log = log if log is not None else []  # what the player saw, in order
        self._legal: dict[int, Move] | None = None

    @classmethod
    def initial(cls, rules: Rules) -> Table:
        """The deal before any card is known: the columns' top cards (every
        card, with thoughtful rules) wait to be named."""
        slots = [placeholder(slot) for slot in range(DECK)]
        columns = [slots[start:end] for start, end in itertools.pairwise(_COLUMN_STARTS)]
        position = Position(
            rules, columns, list(range(7)), slots[:TABLEAU_SIZE - 1:-1], [], [0, 0, 0, 0]
        )
        shown = range(DECK) if rules.thoughtful else [end - 1 for end in _COLUMN_STARTS[1:]]
        return cls(position, [UNKNOWN] * DECK, list(shown))

    def copy(self) -> Table:
        return Table(
            self.position.copy(), self.cards[:], self.pending[:], self.moves, self.log[:]
        )

    def __deepcopy__(self, memo: object) -> Table:
        return self.copy()

    # -- facts -------------------------------------------------------------

    def unseen(self) -> list[int]:
        """The cards not yet seen, in card order."""
        seen = set(self.cards)
        return [card for card in range(DECK) if card not in seen]

    def legal(self) -> dict[int, Move]:
        """The legal moves by action number; none while a card waits to be named."""
        if self.pending:
            return {}
        if self._legal is None:
            self._legal = legal_actions(self.position)
        return self._legal

    def is_over(self, max_moves: int) -> bool:
        """Whether the game has ended: won, stuck, or out of moves."""
        return not self.pending and (
            self.moves >= max_moves or self.position.is_won() or not self.legal()
        )

    def deal(self, fill: Sequence[int] | None = None) -> Deal:
        """The deal of this game: the cards seen in their slots, and the other
        slots filled from ``fill`` (a listing, slot by slot), or else by the
        unseen cards in card order."""
        rest = iter(self.unseen())
        listing = [
            card if card != UNKNOWN else fill[slot] if fill is not None else next(rest)
            for slot, card in enumerate(self.cards)
        ]
        return Deal([CARDS[card] for card in listing])

    # -- play --------------------------------------------------------------

    def reveal(self, card: int) -> None:
        """Name the next card waiting: ``card`` must be unseen (else
        ``ActionError``, and the table is as it was)."""
        if not self.pending:
            raise ActionError(f"no card waits to be named: card {card} is refused")
        if not 0 <= card < DECK or card in self.cards:
            raise ActionError(f"card {card} is not an unseen card")
        slot = self.pending.pop(0)
        self.cards[slot] = card
        position, hidden = self.position, placeholder(slot)
        for pile in (*position.tableau, position.waste, position.stock):
            if hidden in pile:
                pile[pile.index(hidden)] = CARDS[card]
                break
        self.log.append(str(CARDS[card]))
        self._legal = None

    def play(self, action: int) -> None:
        """Play the legal move numbered ``action`` (else ``ActionError``, and
        the table is as it was)."""
        legal = self.legal()
        move = legal.get(action)
        if move is None:
            waiting = " while a card waits to be named" if self.pending else ""
            raise ActionError(
                f"action {action} is not legal here{waiting}; legal actions: {list(legal)}"
            )
        position = self.position
        turned = position.apply(move)
        if move.is_draw:
            self.pending += [card - HIDDEN for card in position.waste[-move.count:]
                             if card >= HIDDEN]
        elif turned is not None and turned >= HIDDEN:
            self.pending.append(turned - HIDDEN)
        self.moves += 1
        self.log.append(format_move(move))
        self._legal = None

    # -- text ----------------------------------------------------------------

    def text(self) -> str:
        """The position's text as the player sees it (docs/engine.md), ``?``
        for each card not yet seen."""
        position = self.position
        columns = "/".join(
            _cards(column, [at >= down for at in range(len(column))]) or "-"
            for column, down in zip(position.tableau, position.down, strict=True)
        )
        stock = _cards(position.stock[::-1], [False] * len(position.stock))
        waste = _cards(position.waste, [True] * len(position.waste))
        homes = "".join(
            str(CARDS[suit * 13 + home - 1])[0] if home else "-"
            for suit, home in enumerate(position.foundations)
        )
        return f"{columns} {stock or '-'} {waste or '-'} {homes} {position.recycles}"


def _cards(cards: Iterable[int], face_up: Iterable[bool]) -> str:
    """Cards as text: upper case face up, lower case face down, ``?`` unseen."""
    return "".join(
        "?" if card >= HIDDEN else str(CARDS[card]) if up else str(CARDS[card]).lower()
        for card, up in zip(cards, face_up, strict=True)
    )
