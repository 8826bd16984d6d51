"""The words the game says, the same in every front end."""

from __future__ import annotations

from bonanza.core.cards import ALL_CARDS
from bonanza.core.moves import Move
from bonanza.core.notation import describe_move
from bonanza.core.position import Position

NO_HINT = "No move makes progress from here: undo, or deal again"
NEW_DEAL = "New deal"
RESTARTED = "Restarted the deal; redo replays the moves"
NO_MOVES_LEFT = "No moves left: undo, or deal again"
STUCK = "No sequence of moves can make progress: undo, or deal again"
NO_UNDO = "in Vegas a card seen from the stock stays seen, so the last draw cannot be undone"
"""Why a game with no way forward offers only a new deal (``Session.can_undo`` is False)."""
NO_MOVES_LEFT_NO_UNDO = f"No moves left, and {NO_UNDO}: deal again"
STUCK_NO_UNDO = f"No sequence of moves can make progress, and {NO_UNDO}: deal again"


def no_moves_left(can_undo: bool) -> str:
    """``NO_MOVES_LEFT``, or its words when undo is refused (Vegas, after a draw)."""
    return NO_MOVES_LEFT if can_undo else NO_MOVES_LEFT_NO_UNDO


def stuck(can_undo: bool) -> str:
    """``STUCK``, or its words when undo is refused (Vegas, after a draw)."""
    return STUCK if can_undo else STUCK_NO_UNDO


def sentence(text: str) -> str:
    """``text`` with its first letter in capitals."""
    return text[:1].upper() + text[1:]


def revealed_card(move: Move, before: Position, after: Position) -> int | None:
    """The face-down card that ``move`` turned up, if any."""
    index = move.source.column_index
    if index >= 0 and after.down[index] < before.down[index]:
        return after.tableau[index][after.down[index]]
    return None


def announce(move: Move, before: Position, after: Position) -> str:
    """What a move says: ``Seven of hearts to column 3; revealed Two of clubs``."""
    text = sentence(describe_move(move, before))
    revealed = revealed_card(move, before, after)
    if revealed is not None:
        text += f"; revealed {sentence(ALL_CARDS[revealed].name)}"
    return text


def undid(move: Move, after: Position) -> str:
    """What undoing ``move`` says (``after`` is the position it leads back to)."""
    return "Undid " + describe_move(move, after)


def undid_home(count: int) -> str:
    """What undo adds when it also takes back the safe cards the move sent home."""
    return f", and the {count} card{'s' if count != 1 else ''} it sent home"


def sent_home(count: int) -> str:
    """What a move adds when safe auto-play sent cards home after it."""
    return f"{count} card{'s' if count != 1 else ''} sent home safely"


def redid(move: Move, before: Position, after: Position) -> str:
    return "Redid " + announce(move, before, after)


def won(moves: int) -> str:
    return f"You won in {moves} moves!"


def hint_text(move: Move, position: Position) -> str:
    return "Hint: " + describe_move(move, position)
