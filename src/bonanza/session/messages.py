"""The words the game says, the same in every front end."""

from __future__ import annotations

from bonanza.core.cards import ALL_CARDS, RANK_COUNT, SUIT_COUNT, Card
from bonanza.core.moves import COLUMN_INDEX, SUIT_NAMES, Move, Pile
from bonanza.core.notation import describe_move
from bonanza.core.position import Position
from bonanza.core.rules import EmptyColumn

KING = RANK_COUNT
"""A king's rank: the only card an empty column takes under King-only rules."""
ACE = 1

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


def refusal(reason: str) -> str:
    """A refusal's reason (a ``SessionError``'s words, which start in lower case
    to follow a colon elsewhere) as a sentence of its own: ``Nothing to redo``."""
    return sentence(reason)


def revealed_card(move: Move, before: Position, after: Position) -> int | None:
    """The face-down card that ``move`` turned up, if any."""
    index = move.source.column_index
    if index >= 0 and after.down[index] < before.down[index]:
        return after.tableau[index][after.down[index]]
    return None


def _played(move: Move, before: Position, after: Position) -> str:
    """A move in words, not capitalised: ``seven of hearts to column 3; revealed Two of clubs``."""
    text = describe_move(move, before)
    revealed = revealed_card(move, before, after)
    if revealed is not None:
        text += f"; revealed {sentence(ALL_CARDS[revealed].name)}"
    return text


def announce(move: Move, before: Position, after: Position) -> str:
    """What a move says: ``Seven of hearts to column 3; revealed Two of clubs``."""
    return sentence(_played(move, before, after))


def undid(move: Move, after: Position) -> str:
    """What undoing ``move`` says, such as ``Undid: drew 1 card`` (``after`` is the
    position it leads back to)."""
    return "Undid: " + describe_move(move, after)


def undid_home(count: int) -> str:
    """What undo adds when it also takes back the safe cards the move sent home."""
    return f", and the {count} card{'s' if count != 1 else ''} it sent home"


def sent_home(count: int) -> str:
    """What a move adds when safe auto-play sent cards home after it."""
    return f"{count} card{'s' if count != 1 else ''} sent home safely"


def redid(move: Move, before: Position, after: Position) -> str:
    """What redoing ``move`` says, such as ``Redid: seven of hearts to column 3``."""
    return "Redid: " + _played(move, before, after)


def finish_past_limit(room: int) -> str:
    """Why auto finish is refused when its finish needs more moves than the game's
    history has room for."""
    return (
        f"auto finish is not available: the finish needs more moves than the "
        f"{_cards(room, 'move')} this game has room for"
    )


def won(moves: int) -> str:
    return f"You won in {moves} moves!"


def hint_text(move: Move, position: Position) -> str:
    return "Hint: " + describe_move(move, position)


def _rank_word(rank: int) -> str:
    """``ten``, ``king``: the first word of a card's name."""
    return Card.of(rank, 0).name.split()[0]


def _visible_moving(move: Move, position: Position) -> list[Card]:
    """The cards ``move`` would take, when all of them are face up; else none (a
    count below one takes no card: its slice would be the whole pile, hidden cards too)."""
    if move.count < 1:
        return []
    index = COLUMN_INDEX[move.source]
    if index >= 0 and move.count > len(position.tableau[index]) - position.down[index]:
        return []
    if move.source == Pile.STOCK or move.is_recycle:
        return []
    return position.moving_cards(move)


def _misfit(cards: list[Card], dest: Pile, position: Position) -> str | None:
    """Why ``cards``, free to move, do not fit ``dest``, naming the cards; None
    when the reason is not theirs (a rule on the move itself)."""
    card = cards[0]
    if dest.is_foundation:
        suit = dest.foundation_index % SUIT_COUNT
        if len(cards) != 1:
            return None
        if card.suit != suit:
            return f"only {SUIT_NAMES[suit]} go there"
        if card.rank > position.foundations[dest.foundation_index] + 1:
            return f"the {Card.of(card.rank - 1, suit).name} is not there yet"
        return None
    target = position.tableau[COLUMN_INDEX[dest]]
    if not target:
        king = position.rules.empty_column is EmptyColumn.KING
        return "only a king may fill an empty column" if king and card.rank != KING else None
    for lower, upper in zip(cards[1:], cards, strict=False):
        if lower.rank != upper.rank - 1 or lower.is_red == upper.is_red:
            return f"the {lower.name} does not lie on the {upper.name}: only a run moves"
    top = target[-1]
    if top.rank == ACE:
        return f"nothing goes on the {top.name}"
    colour = "black" if top.is_red else "red"
    return f"only a {colour} {_rank_word(top.rank - 1)} goes on the {top.name}"


def illegal(move: Move, position: Position) -> str:
    """Why ``move`` cannot be played, in words naming only cards the player sees,
    such as ``Five of clubs cannot go to the clubs foundation: the four of clubs
    is not there yet`` (``Position.why_illegal`` gives the reasons)."""
    reason = position.why_illegal(move)
    if move.source == Pile.STOCK:
        return sentence(f"no card can be drawn: {reason}")
    if move.dest == Pile.STOCK:
        return sentence(f"the waste cannot be turned over: {reason}")
    index = COLUMN_INDEX[move.source]
    face_up = len(position.tableau[index]) - position.down[index] if index >= 0 else 0
    if index >= 0 and 0 < face_up < move.count:
        return (
            f"{sentence(move.source.label)} has only {_cards(face_up, 'face-up card')}: "
            f"{move.count} cannot move"
        )
    cards = _visible_moving(move, position)
    if not cards:
        return sentence(reason)
    what = cards[0].name + (f" and {len(cards) - 1} more" if len(cards) > 1 else "")
    words = None if _refused_as_a_move(move, position) else _misfit(cards, move.dest, position)
    dest = move.dest.label if move.dest.is_tableau else f"the {move.dest.label}"
    return f"{sentence(what)} cannot go to {dest}: {words or reason}"


def _cards(count: int, what: str) -> str:
    """``1 face-up card``, ``2 face-up cards``."""
    return f"{count} {what}{'s' if count != 1 else ''}"


def _refused_as_a_move(move: Move, position: Position) -> bool:
    """Whether a rule refuses ``move`` whatever its cards (``why_illegal`` names it)."""
    source, dest, count = move
    rules, index = position.rules, COLUMN_INDEX[source]
    face_up = len(position.tableau[index]) - position.down[index] if index >= 0 else 0
    if index >= 0 and not rules.partial_runs and count != face_up:
        return True
    if source.is_foundation and not rules.recall:
        return True
    return dest == Pile.WASTE or (count != 1 and not (source.is_tableau and dest.is_tableau))
