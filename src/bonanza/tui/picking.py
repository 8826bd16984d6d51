"""Turning pile picks into moves: pick a source, then a destination."""

from __future__ import annotations

from dataclasses import dataclass

from bonanza.core.moves import Move, Pile
from bonanza.core.position import Position


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
