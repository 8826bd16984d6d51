"""Turning pile picks into moves (pick a source, then a destination), and a
typed move's text into the move it names, legal or not."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bonanza.core.cards import SUIT_COUNT
from bonanza.core.moves import ALL_PILES, Move, Pile
from bonanza.core.notation import format_move, pile_token
from bonanza.core.position import Position
from bonanza.core.rules import Rules, StockMode

COUNT_MARK: Final = ":"
"""What comes before the count of cards in a typed move (``47:3``)."""


def moves_from(position: Position, source: Pile) -> list[Move]:
    """The legal moves out of ``source``."""
    return [move for move in position.legal_moves() if move.source == source]


def destinations(position: Position, source: Pile) -> set[Pile]:
    """Where the cards of ``source`` may go."""
    return {move.dest for move in moves_from(position, source)}


def move_between(position: Position, source: Pile, dest: Pile) -> Move | None:
    """The move from ``source`` to ``dest``, taking the most cards when several
    counts fit (an empty column under any-card rules); any foundation pile
    stands for the foundation of the moving card, unless ``dest`` itself
    takes it (with two decks, the one of its suit's two that was picked)."""
    moves = moves_from(position, source)
    found = [move for move in moves if move.dest == dest] or [
        move for move in moves if dest.is_foundation and move.dest.is_foundation
    ]
    return max(found, key=lambda move: move.count, default=None)


@dataclass(frozen=True, slots=True)
class Pick:
    """What picking a pile does: play ``move``, else hold ``selected`` (None:
    nothing) and say ``text``."""

    move: Move | None = None
    selected: Pile | None = None
    text: str = ""


def pick(position: Position, selected: Pile | None, pile: Pile) -> Pick:
    """Picking ``pile`` (not the stock) with ``selected`` held: drop the held
    cards onto it, else pick it up, or move it at once when it has one
    destination (the most cards that go there)."""
    if selected is not None and selected != pile:
        move = move_between(position, selected, pile)
        if move is None:
            return Pick(text=f"Nothing from {selected.label} goes to {pile.label}.")
        return Pick(move)
    targets = destinations(position, pile)
    if not targets:
        return Pick(selected=selected, text=f"Nothing in {pile.label} can move.")
    if len(targets) == 1:
        return Pick(max(moves_from(position, pile), key=lambda move: move.count))
    return Pick(
        selected=pile, text=f"Picked up {pile.label}: now pick where it goes (Esc cancels)."
    )


def missing(rules: Rules, pile: Pile) -> str:
    """Why ``pile`` cannot be picked in a game of ``rules`` (a column or waste
    it lacks), as a sentence; empty when it can."""
    if (pile.is_tableau and pile not in rules.tableau_piles) or (
        pile == Pile.WASTE and rules.stock_mode is not StockMode.WASTE
    ):
        return f"{rules.title} has no {pile.label}."
    return ""


def typed_move(text: str, position: Position) -> Move | None:
    """The move ``text`` names in the game's notation, legal or not (a bare
    ``f`` is the foundation of the moving card's suit, no count one card);
    None when it names none. For the words of a refusal: the session plays
    the text itself (``parse_move``)."""
    piles, _, count_text = text.strip().lower().partition(COUNT_MARK)
    count = int(count_text) if count_text.isdigit() else 1
    named = [
        Move(source, dest, count)
        for source in ALL_PILES
        for dest in ALL_PILES
        if source != dest
        and piles in (format_move(Move(source, dest, 1)), pile_token(source) + pile_token(dest))
        and (dest != Pile.STOCK or source == Pile.WASTE)  # ws: the waste turned over
        and (source != Pile.STOCK or dest in (Pile.WASTE, Pile.T1))  # sw, or st: a deal
    ]
    if len(named) > 1:  # a bare f: the foundation of the card on top of the source
        card = position.card_at(named[0].source)
        suit = named[0].dest.foundation_index % SUIT_COUNT if card is None else card.suit
        named = [move for move in named if move.dest.foundation_index % SUIT_COUNT == suit]
    return named[0] if named else None
