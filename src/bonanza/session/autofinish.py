"""Auto finish: once nothing is unseen, send every card home, one move at a time."""

from __future__ import annotations

from collections.abc import Collection

from bonanza.core.moves import Move
from bonanza.core.position import Position


def nothing_unseen(position: Position) -> bool:
    """Every tableau card is face up and every stock card has been through the waste."""
    return not any(position.down) and (not position.stock or position.recycles > 0)


def _next_step(position: Position) -> Move | None:
    """The next auto-finish move: the lowest card that can go home, else turn the stock."""
    best: Move | None = None
    best_rank = 99
    turn: Move | None = None
    for move in position.legal_moves():
        if move.dest.is_foundation and not move.source.is_foundation:
            rank = position.foundations[move.dest.foundation_index]
            if rank < best_rank:
                best, best_rank = move, rank
        elif turn is None and (move.is_draw or move.is_recycle):
            turn = move
    return best if best is not None else turn


def finish_plan(position: Position, room: int | None = None) -> Move | None:
    """The first move of an auto finish that wins in ``room`` moves at most (None:
    any number), or None when there is none.

    Only offered when nothing is unseen; the whole finish is simulated on a copy
    so the button never appears for a finish that would stall, nor for one that
    would run past the game's history limit.
    """
    if position.is_won() or not nothing_unseen(position):
        return None
    trial = position.copy()
    first: Move | None = None
    idle = played = 0
    limit = len(trial.stock) + len(trial.waste) + 2
    while not trial.is_won():
        move = _next_step(trial)
        played += 1
        if move is None or (room is not None and played > room):
            return None
        if first is None:
            first = move
        if move.dest.is_foundation:
            idle = 0
        else:
            idle += 1
            if idle > limit:
                return None
        trial.apply(move)
    return first


def places_every_card(position: Position, seen: Collection[int]) -> bool:
    """Whether the player, having seen ``seen``, knows where every card is in
    ``position`` (``Session.board_view().is_known()``, without making the view):
    at most one face-down or unturned stock card was never shown (``known_cards``
    places that one by elimination)."""
    if position.rules.thoughtful:
        return True
    columns = zip(position.tableau, position.down, strict=True)
    hidden = [card for column, down in columns for card in column[:down]]
    if not position.recycles:  # once the stock has been turned over, it is all seen
        hidden += position.stock
    return sum(card not in seen for card in hidden) <= 1
