"""What the player has seen, through the renaming of two-deck twins.

With two decks the engine keeps one naming rule (``Position.apply``): a rank
home once is the twin ``c + 52``. So when card ``c`` is the first of its rank
sent home, its twin still in play (perhaps face down, never shown) takes the
name ``c``. The player saw the card that went home, not its twin: what they
have seen must follow the cards, not the names, or the twin would count as
seen where it lies (and hints, the view and the auto finish would know it).
:func:`follow` swaps the two names in the seen set whenever a move renamed
them, and an undo of that move swaps them back.
"""

from __future__ import annotations

from collections.abc import Sequence

from bonanza.core.cards import DECK_SIZE
from bonanza.core.moves import Move
from bonanza.core.position import Position
from bonanza.core.view import visible_cards


def _in_play(position: Position, card: int) -> bool:
    return (
        card in position.stock
        or card in position.waste
        or any(card in column for column in position.tableau)
    )


def renamed_twin(move: Move, before: Position, after: Position) -> int | None:
    """The card ``c`` whose twin ``c + 52`` took the name ``c`` when ``move`` led
    from ``before`` to ``after`` (``c`` went home first of its rank), else None."""
    if before.rules.decks == 1 or not move.dest.is_foundation or move.source.is_foundation:
        return None
    card = before.card_at(move.source)
    if card is None or card >= DECK_SIZE:
        return None
    twin = card + DECK_SIZE
    return card if _in_play(before, twin) and not _in_play(after, twin) else None


def swap(seen: set[int], card: int) -> None:
    """Swap the names ``card`` and ``card + 52`` in ``seen``."""
    twin = card + DECK_SIZE
    had_card, had_twin = card in seen, twin in seen
    seen.discard(card)
    seen.discard(twin)
    if had_twin:
        seen.add(card)
    if had_card:
        seen.add(twin)


def follow(seen: set[int], move: Move, earlier: Position, later: Position) -> None:
    """Keep ``seen`` on the cards across ``move`` from ``earlier`` to ``later``, played
    or undone (a swap is its own inverse)."""
    renamed = renamed_twin(move, earlier, later)
    if renamed is not None:
        swap(seen, renamed)


def seen_along(positions: Sequence[Position], moves: Sequence[Move]) -> set[int]:
    """The cards shown along a game's ``positions`` (``moves`` led from each to the
    next), under the last position's names."""
    seen: set[int] = set()
    for earlier, move, later in zip(positions[:-1], moves, positions[1:], strict=True):
        seen |= visible_cards(earlier)
        follow(seen, move, earlier, later)
    return seen | visible_cards(positions[-1])

def read_seen(seen: object, cards: int) -> set[int]:
    """Saved seen cards: card numbers below ``cards`` (``ValueError`` for anything else)."""
    if not isinstance(seen, list) or not all(
        isinstance(card, int) and not isinstance(card, bool) and 0 <= card < cards
        for card in seen
    ):
        raise ValueError("its seen cards are not card numbers")
    return set(map(int, seen))
