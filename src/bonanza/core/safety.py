"""Safe moves home: cards that no winning line can ever need in the tableau.

A card of rank r is only ever useful in the tableau as a base for the
opposite-colour cards of rank r − 1. So it may go home without losing a win
when it is an ace or a two (an ace on a two can always go home instead), or
when both opposite-colour (r − 1)s are home already.

**Recall.** Where a foundation's top card may come back down, that is not
enough: a black 4 recalled onto a red 5 can take a red 3 that is not home.
So under recall the card's twin suit (the other suit of its colour) must
also be home up to r − 2. Then every card of rank ≤ r − 2, the two
opposite-colour (r − 1)s and the card's own r − 1 are home, and any card that
could go on the card, or on one of those, is one of those: delete from a
winning line every move of them and of the card (recalls included) and the
rest stays legal and still wins (the solver's rule 2, ``search_safe.h``).

**Two decks.** Without recall the rule holds as it is, over both decks'
foundations: a card is never needed once all four opposite-colour (r − 1)s
are home. With recall the proof above is not made for two decks, so only
aces and twos count as safe there.

**Where from.** A tableau top may go. The waste's top only with draw 1: with
draw 3, taking a card off the waste changes which cards later draws turn up,
and no proof says that never loses a win.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bonanza.core.cards import RANK_COUNT, RANK_OF, RED, SUIT_COUNT, SUIT_OF
from bonanza.core.moves import Move, Pile
from bonanza.core.position import Position

ALWAYS_SAFE_RANK = 2
"""Aces and twos may always go home."""
TWIN_SUIT = (3, 2, 1, 0)
"""The other suit of each suit's colour (clubs–spades, diamonds–hearts)."""


def never_needed(foundations: Sequence[int], card: int, *, recall: bool) -> bool:
    """Whether no card still out could ever be built on ``card`` in the
    tableau, given the foundations (see the module: ``recall`` asks more)."""
    rank = RANK_OF[card]
    if rank <= ALWAYS_SAFE_RANK:
        return True
    if recall and len(foundations) > SUIT_COUNT:
        return False  # not proven for two decks (see the module)
    opposite = min(
        home for index, home in enumerate(foundations)
        if RED[index % SUIT_COUNT * RANK_COUNT] != RED[card]
    )
    if opposite < rank - 1:
        return False
    return not recall or foundations[TWIN_SUIT[SUIT_OF[card]]] >= rank - 2


def is_safe_to_send_home(position: Position, card: int) -> bool:
    """Whether sending ``card`` home can never turn a won position lost, under
    the position's rules (recall asks more: see the module)."""
    return never_needed(position.foundations, card, recall=position.rules.recall)


def is_safe_move_home(position: Position, move: Move) -> bool:
    """Whether ``move`` sends a card home that no winning line can need, from a
    tableau top or, with draw 1 only, from the waste (see the module: with
    draw 3, even an ace off the waste can turn a won deal lost)."""
    if not move.dest.is_foundation or move.source.is_foundation:
        return False
    if move.source == Pile.WASTE and position.rules.draw != 1:
        return False
    return is_safe_to_send_home(position, position.moving_cards(move)[0])


def safe_move_home(position: Position, keep: Collection[int] = ()) -> Move | None:
    """A move that sends a card home safely (``is_safe_move_home``), lowest
    rank first, or None. Cards in ``keep`` are never chosen."""
    best: tuple[int, Move] | None = None
    for move in position.legal_moves():
        if not is_safe_move_home(position, move):
            continue
        card = position.moving_cards(move)[0]
        if card in keep:
            continue
        if best is None or RANK_OF[card] < best[0]:
            best = (RANK_OF[card], move)
    return None if best is None else best[1]
