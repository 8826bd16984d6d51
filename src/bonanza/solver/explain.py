"""The hint engine's words: what to do, why, and how sure it is."""

from __future__ import annotations

from typing import Final

from bonanza.core.cards import ALL_CARDS
from bonanza.core.moves import Move, Pile
from bonanza.core.position import Position
from bonanza.solver.quiet import turns_up

NO_MOVES: Final = "No moves left: undo, or deal again"
LOST: Final = (
    "This deal is lost: every card is known, and no line of moves wins from here. "
    "Undo, or deal again"
)
STUCK: Final = "No sequence of moves can make progress: undo, or deal again"
LAYOUTS: Final = "layouts that fit what you have seen"
ONLY_NEW: Final = "The other useful moves lead back to positions already played."
GAMBLE_SHARE: Final = 75
"""A move that turns up a hidden card and wins in fewer than this share (%) of the
sampled layouts is said to be a gamble: the card it turns up decides."""


def action(move: Move, position: Position) -> str:
    """The move as an instruction: ``Move 7♥ onto 8♣``, ``Draw from the stock``."""
    if move.is_deal:
        return "Deal from the stock onto every column"
    if move.is_draw:
        return "Draw from the stock"
    if move.is_recycle:
        return "Turn the waste over"
    cards = position.moving_cards(move)
    what = cards[0].face if cards else "the card"
    if move.count > 1:
        on_it = move.count - 1
        what += " and the card on it" if on_it == 1 else f" and the {on_it} cards on it"
    if move.dest.is_foundation:
        return f"Move {what} to its foundation"
    column = position.tableau[move.dest.column_index]
    if not column:
        return f"Move {what} to the empty {move.dest.label}"
    return f"Move {what} onto {ALL_CARDS[column[-1]].face}"


def effect(move: Move, position: Position) -> str | None:
    """What the move gains, when it can be said in a few words."""
    if turns_up(position, move):
        return f"it turns up a card in {move.source.label}"
    if move.source.is_tableau and move.count == len(position.tableau[move.source.column_index]):
        return f"it empties {move.source.label}"
    if move.is_draw and not move.is_deal:
        return _next_useful(position)
    if move.source.is_foundation:
        return "a card back from its foundation can hold another"
    return None


def _next_useful(position: Position) -> str | None:
    """For a draw through a seen stock: how far the next card that can be played is."""
    if position.recycles == 0 or not position.stock:
        return None
    board = position.copy()
    for draws in range(1, len(board.stock) // max(board.rules.draw, 1) + 2):
        if not board.stock:
            return None
        board.apply(Move(Pile.STOCK, Pile.WASTE, min(board.rules.draw, len(board.stock))))
        top = board.waste[-1]
        if any(move.source is Pile.WASTE for move in board.legal_moves()):
            away = "the next draw" if draws == 1 else f"{_number(draws)} draws away"
            return f"the {ALL_CARDS[top].face} you can play is {away}"
    return None


def _number(count: int) -> str:
    words = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
    return words[count] if count < len(words) else str(count)


def _sentence(move: Move, position: Position) -> str:
    said = action(move, position)
    gain = effect(move, position)
    return f"{said}: {gain}" if gain else said


def safe(move: Move, position: Position) -> str:
    return f"{action(move, position)}: no card can ever need it in the tableau."


def forced(move: Move, position: Position, *, others_go_back: bool = False) -> str:
    """The only useful move; ``others_go_back`` when other moves lead back to
    a position already played (then it is only the one way on)."""
    if others_go_back:
        return f"{_sentence(move, position)}. {ONLY_NEW}"
    return f"{_sentence(move, position)}. It is the only move that can help."


def known(move: Move, position: Position, moves: int | None) -> str:
    length = f" in {moves} moves" if moves else ""
    return f"{_sentence(move, position)}. Every card is known, and this wins{length}."


def sampled(move: Move, position: Position, wins: float, samples: int) -> str:
    share = round(100 * wins / samples)
    if share < GAMBLE_SHARE and turns_up(position, move):
        return (
            f"{_sentence(move, position)}. A gamble: the card it turns up decides, and it "
            f"wins in {share} % of {samples} {LAYOUTS}."
        )
    return f"{_sentence(move, position)}. Wins in {share} % of {samples} {LAYOUTS}."


def looks_lost(move: Move, position: Position, samples: int) -> str:
    if not samples:
        return f"{_sentence(move, position)}: it keeps the most options."
    return (
        f"{_sentence(move, position)}: it keeps the most options. This deal looks lost: none of "
        f"{samples} {LAYOUTS} can be won from here. Undo to the last move where it could be."
    )
