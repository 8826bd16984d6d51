"""Text forms of moves and positions: ``parse``/``format`` pairs that round-trip.

The grammar is documented in docs/engine.md.
"""

from __future__ import annotations

import re
from typing import Final

from bonanza.core.cards import CARDS, RANK_LETTERS, SUIT_LETTERS, Card
from bonanza.core.errors import (
    CardSyntaxError,
    IllegalMoveError,
    MoveSyntaxError,
    PositionSyntaxError,
)
from bonanza.core.moves import Move, Pile
from bonanza.core.position import Position
from bonanza.core.rules import Rules

_MOVE_RE: Final = re.compile(r"([1-7]|s|w|f[cdhs]?)([1-7]|s|w|f[cdhs]?)(?::([0-9]{1,2}))?")


def pile_token(pile: Pile) -> str:
    """The token of a pile as a move's source: ``3``, ``s``, ``w`` or ``fh``."""
    if pile.is_tableau:
        return str(pile + 1)
    if pile.is_foundation:
        return "f" + SUIT_LETTERS[pile - Pile.FC].lower()
    return "s" if pile == Pile.STOCK else "w"


_TEXTS: Final[dict[Move, str]] = {}
"""Each move's text once spelled: a game's whole history is spelled on every save."""
_LONGEST_COUNT: Final = 52
"""Moves carrying more cards than a deck holds are spelled but not remembered."""


def format_move(move: Move) -> str:
    """The short text of a move: ``sw``, ``w3``, ``6f``, ``fh2``, ``47:3``."""
    text = _TEXTS.get(move)
    if text is None:
        text = _spell_move(move)
        if 0 <= move.count <= _LONGEST_COUNT:
            _TEXTS[move] = text
    return text


def _spell_move(move: Move) -> str:
    source, dest, count = move
    if source == Pile.STOCK:
        return "sw"
    if dest == Pile.STOCK:
        return "ws"
    dest_text = "f" if dest.is_foundation else pile_token(dest)
    text = pile_token(source) + dest_text
    return f"{text}:{count}" if count != 1 else text


def _token_pile(token: str) -> Pile | None:
    """The pile a token names; ``None`` for a bare ``f`` (suit left to the card)."""
    if token.isdigit():
        return Pile.column(int(token) - 1)
    if token == "s":
        return Pile.STOCK
    if token == "w":
        return Pile.WASTE
    if token == "f":
        return None
    return Pile.foundation(SUIT_LETTERS.index(token[1].upper()))


def parse_move(text: str, position: Position) -> Move:
    """Read a move's text in ``position``.

    Draws and recycles take their count from the position; ``f`` as a
    destination takes its suit from the moving card; a move between columns
    without ``:count`` moves one card if that is legal, else the one legal count.
    """
    match = _MOVE_RE.fullmatch(text.strip().lower())
    if match is None:
        raise MoveSyntaxError(
            f"{text!r} is not a move: write source and destination, like sw, w3, 6f, fh2 or 47:3"
        )
    source_token, dest_token, count_text = match.groups()
    source, dest = _token_pile(source_token), _token_pile(dest_token)
    if source is None:
        raise MoveSyntaxError(f"{text!r}: a move from a foundation names its suit, like fh2")
    legal = position.legal_moves()
    if Pile.STOCK in (source, dest):
        if (source, dest) not in ((Pile.STOCK, Pile.WASTE), (Pile.WASTE, Pile.STOCK)):
            raise MoveSyntaxError(
                f"{text!r} is not a move: the stock only goes to the waste (sw) and back (ws)"
            )
        assert dest is not None
        for move in legal:
            if move.source == source and move.dest == dest:
                return move
        raise _illegal(text, Move(source, dest, 1), position)
    if dest == Pile.WASTE:
        raise MoveSyntaxError(f"{text!r} is not a move: only a draw (sw) goes to the waste")
    if source == dest or (source.is_foundation and (dest is None or dest.is_foundation)):
        raise MoveSyntaxError(f"{text!r} is not a move: its source and destination must differ")
    if dest is None:
        card = position.card_at(source)
        if card is None:
            raise _illegal(text, Move(source, Pile.FC, 1), position)
        dest = Pile.foundation(card.suit)
    if count_text is not None:
        move = Move(source, dest, int(count_text))
        if move not in legal:
            raise _illegal(text, move, position)
        return move
    if Move(source, dest, 1) in legal:
        return Move(source, dest, 1)
    # No text is ambiguous: at most one count fits a non-empty column, and an
    # empty one takes a single card (any card) or only a King-headed run.
    for move in legal:
        if move.source == source and move.dest == dest:
            return move
    raise _illegal(text, Move(source, dest, 1), position)


def _illegal(text: str, move: Move, position: Position) -> IllegalMoveError:
    return IllegalMoveError(
        f"{text!r} is not legal in {position.to_text(hide=True)}: {position.why_illegal(move)}"
    )


def describe_move(move: Move, before: Position) -> str:
    """A sentence for people, such as ``seven of hearts to column 3``."""
    if move.is_draw:
        return f"drew {move.count} card{'s' if move.count != 1 else ''}"
    if move.is_recycle:
        return "turned the waste over"
    cards = before.moving_cards(move)
    what = cards[0].name if cards else "nothing"
    if move.count > 1:
        what += f" and {move.count - 1} more"
    return f"{what} to {move.dest.label}"


# -- positions -----------------------------------------------------------------


def _card_text(card: Card, face_up: bool, hidden: bool) -> str:
    if hidden:
        return "?"
    text = str(card)
    return text if face_up else text.lower()


def format_position(position: Position, *, hide: bool = False) -> str:
    """The one-line text of a position; ``hide`` writes unseen cards as ``?``."""
    thoughtful = position.rules.thoughtful
    columns = []
    for column, down in zip(position.tableau, position.down, strict=True):
        text = "".join(
            _card_text(card, at >= down, hide and at < down and not thoughtful)
            for at, card in enumerate(column)
        )
        columns.append(text or "-")
    stock_hidden = hide and not thoughtful and position.recycles == 0
    stock = "".join(_card_text(card, False, stock_hidden) for card in reversed(position.stock))
    waste = "".join(str(card) for card in position.waste)
    foundations = "".join(RANK_LETTERS[home - 1] if home else "-" for home in position.foundations)
    return f"{'/'.join(columns)} {stock or '-'} {waste or '-'} {foundations} {position.recycles}"


def _read_cards(text: str, field: str) -> list[tuple[Card, bool]]:
    """Cards of one field as (card, face up) pairs."""
    if text == "-":
        return []
    if "?" in text:
        raise PositionSyntaxError(
            f"{field} {text!r} has hidden cards (?): only a full position can be loaded"
        )
    if len(text) % 2:
        raise PositionSyntaxError(f"{field} {text!r} is not a run of two-character cards")
    cards = []
    for at in range(0, len(text), 2):
        token = text[at : at + 2]
        try:
            cards.append((Card.parse(token), token[0].isupper() or token[1].isupper()))
        except CardSyntaxError:
            raise PositionSyntaxError(f"{field} {text!r}: {token!r} is not a card") from None
    return cards


def parse_position(text: str, rules: Rules) -> Position:
    """Read a position's one-line text under ``rules``."""
    fields = text.split()
    if len(fields) != 5:
        raise PositionSyntaxError(
            f"position {text!r} has {len(fields)} fields, not 5 "
            "(columns stock waste foundations recycles)"
        )
    columns_text, stock_text, waste_text, foundations_text, recycles_text = fields
    column_texts = columns_text.split("/")
    if len(column_texts) != 7:
        raise PositionSyntaxError(f"position {text!r} has {len(column_texts)} columns, not 7")
    tableau: list[list[Card]] = []
    down: list[int] = []
    for number, column_text in enumerate(column_texts, 1):
        cards = _read_cards(column_text, f"column {number}")
        faces = [face_up for _, face_up in cards]
        hidden = faces.count(False)
        if any(faces[:hidden]) or (cards and not faces[-1]) or not all(faces[hidden:]):
            raise PositionSyntaxError(
                f"column {number} {column_text!r}: "
                "face-down cards (lower case) must lie under face-up ones"
            )
        run = [card for card, _ in cards[hidden:]]
        for lower, upper in zip(run[1:], run, strict=False):
            if lower.rank != upper.rank - 1 or lower.is_red == upper.is_red:
                raise PositionSyntaxError(
                    f"column {number} {column_text!r}: {lower} cannot lie on {upper} face up"
                )
        tableau.append([card for card, _ in cards])
        down.append(hidden)
    stock = [card for card, _ in _read_cards(stock_text, "stock")]
    stock.reverse()
    waste = [card for card, _ in _read_cards(waste_text, "waste")]
    if len(foundations_text) != 4:
        raise PositionSyntaxError(f"foundations {foundations_text!r} is not four ranks for C D H S")
    foundations = [
        0 if char == "-" else RANK_LETTERS.find(char.upper()) + 1 for char in foundations_text
    ]
    if 0 in [f for f, char in zip(foundations, foundations_text, strict=True) if char != "-"]:
        raise PositionSyntaxError(
            f"foundations {foundations_text!r}: use ranks {RANK_LETTERS} or -"
        )
    if not recycles_text.isdigit():
        raise PositionSyntaxError(f"recycles {recycles_text!r} is not a count")
    seen = [c for column in tableau for c in column] + stock + waste
    seen += [CARDS[suit * 13 + rank] for suit in range(4) for rank in range(foundations[suit])]
    if len(seen) != 52 or len(set(seen)) != 52:
        missing = sorted(set(CARDS) - set(seen))
        repeated = sorted({c for c in seen if seen.count(c) > 1})
        problem = ", ".join(
            part
            for part in (
                f"missing {' '.join(map(str, missing))}" if missing else "",
                f"repeated {' '.join(map(str, repeated))}" if repeated else "",
            )
            if part
        )
        raise PositionSyntaxError(f"position {text!r} does not hold each card once: {problem}")
    return Position(rules, tableau, down, stock, waste, foundations, int(recycles_text))
