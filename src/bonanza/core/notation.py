"""Text forms of moves and positions: ``parse``/``format`` pairs that round-trip.

The grammar is documented in docs/engine.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, NamedTuple

from bonanza.core.cards import (
    ALL_CARDS,
    DECK_SIZE,
    RANK_COUNT,
    RANK_LETTERS,
    SUIT_COUNT,
    SUIT_LETTERS,
    Card,
    twinned,
)
from bonanza.core.errors import (
    CardSyntaxError,
    IllegalMoveError,
    MoveSyntaxError,
    PositionSyntaxError,
)
from bonanza.core.moves import COLUMN_INDEX, Move, Pile
from bonanza.core.rules import Rules, StockMode
from bonanza.core.runs import run_start

if TYPE_CHECKING:  # a position reads and writes its text with these functions
    from bonanza.core.position import Position

_PILE: Final = r"(10|[1-9]|s|w|t|f(?:[cdhs]2?)?)"
_MOVE_RE: Final = re.compile(_PILE + _PILE + r"(?::([0-9]{1,2}))?")
DEAL_TEXT: Final = "st"
"""A deal of one card onto every column (Easthaven)."""


def pile_token(pile: Pile) -> str:
    """The token of a pile as a move's source: ``3``, ``10``, ``s``, ``w``,
    ``fh``, or ``fh2`` for the second hearts foundation."""
    if pile.is_tableau:
        return str(COLUMN_INDEX[pile] + 1)
    if pile.is_foundation:
        deck, suit = divmod(pile.foundation_index, SUIT_COUNT)
        return "f" + SUIT_LETTERS[suit].lower() + ("2" if deck else "")
    return "s" if pile == Pile.STOCK else "w"


_TEXTS: Final[dict[Move, str]] = {}
"""Each move's text once spelled: a game's whole history is spelled on every save."""
_LONGEST_COUNT: Final = DECK_SIZE
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
        return "sw" if dest == Pile.WASTE else DEAL_TEXT
    if dest == Pile.STOCK:
        return "ws"
    # A first-deck foundation is the first of its suit: a bare f finds it.
    dest_text = "f" if Pile.FC <= dest <= Pile.FS else pile_token(dest)
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
    deck = 1 if token.endswith("2") else 0
    return Pile.foundation(deck * SUIT_COUNT + SUIT_LETTERS.index(token[1].upper()))


def _check_piles(text: str, position: Position, *piles: Pile | None) -> None:
    """Refuse a column or foundation this game does not have."""
    rules = position.rules
    for pile in piles:
        if pile is None:
            continue
        if pile.is_tableau and COLUMN_INDEX[pile] >= rules.columns:
            raise MoveSyntaxError(f"{text!r}: this game has columns 1 to {rules.columns}")
        if pile.is_foundation and pile.foundation_index >= rules.foundations:
            raise MoveSyntaxError(f"{text!r}: this game has no {pile.label}")


def _first_foundation(position: Position, card: Card) -> Pile:
    """The first foundation of ``card``'s suit that takes it (else the first)."""
    homes = range(card.suit, position.rules.foundations, SUIT_COUNT)
    for home in homes:
        if position.foundations[home] == card.rank - 1:
            return Pile.foundation(home)
    return Pile.foundation(card.suit)


def parse_move(text: str, position: Position, legal: Sequence[Move] | None = None) -> Move:
    """Read a move's text in ``position`` (whose legal moves are ``legal``, if known).

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
    if legal is None:
        legal = position.legal_moves()
    if "t" in (source_token, dest_token):
        return _parse_deal(text, source_token + dest_token, count_text, position, legal)
    source, dest = _token_pile(source_token), _token_pile(dest_token)
    if source is None:
        raise MoveSyntaxError(f"{text!r}: a move from a foundation names its suit, like fh2")
    _check_piles(text, position, source, dest)
    if Pile.STOCK in (source, dest):
        if (source, dest) not in ((Pile.STOCK, Pile.WASTE), (Pile.WASTE, Pile.STOCK)):
            if position.rules.stock_mode is StockMode.EVERY_COLUMN:
                raise MoveSyntaxError(
                    f"{text!r} is not a move: the stock is dealt onto every column ({DEAL_TEXT})"
                )
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
        dest = _first_foundation(position, card)
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


def _parse_deal(
    text: str, tokens: str, count_text: str | None, position: Position, legal: Sequence[Move]
) -> Move:
    """Read ``st``, a deal of one card onto every column."""
    if tokens != DEAL_TEXT or count_text is not None:
        raise MoveSyntaxError(f"{text!r} is not a move: a deal onto the columns is written st")
    for move in legal:
        if move.is_deal:
            return move
    if position.rules.stock_mode is not StockMode.EVERY_COLUMN:
        raise MoveSyntaxError(f"{text!r}: in this game the stock goes to the waste (sw)")
    raise _illegal(text, Move(Pile.STOCK, Pile.T1, 1), position)


def _illegal(text: str, move: Move, position: Position) -> IllegalMoveError:
    return IllegalMoveError(
        f"{text!r} is not legal in {position.to_text(hide=True)}: {position.why_illegal(move)}"
    )


def describe_move(move: Move, before: Position) -> str:
    """A sentence for people, such as ``seven of hearts to column 3``."""
    if move.is_deal:
        return f"dealt {move.count} card{'s' if move.count != 1 else ''} onto the columns"
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


class PositionParts(NamedTuple):
    """A position's fields after its rules, as ``Position`` takes them."""

    tableau: list[list[Card]]
    down: list[int]
    stock: list[Card]
    waste: list[Card]
    foundations: list[int]
    recycles: int


def read_position(text: str, rules: Rules) -> PositionParts:
    """Read a position's one-line text under ``rules`` (``Position.from_text``
    makes the position)."""
    fields = text.split()
    if len(fields) != 5:
        raise PositionSyntaxError(
            f"position {text!r} has {len(fields)} fields, not 5 "
            "(columns stock waste foundations recycles)"
        )
    columns_text, stock_text, waste_text, foundations_text, recycles_text = fields
    column_texts = columns_text.split("/")
    if len(column_texts) != rules.columns:
        raise PositionSyntaxError(
            f"position {text!r} has {len(column_texts)} columns, not {rules.columns}"
        )
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
        column = [card for card, _ in cards]
        if cards and rules.stock_mode is StockMode.WASTE and run_start(column, hidden) > hidden:
            lower, upper = column[run_start(column, hidden)], column[run_start(column, hidden) - 1]
            raise PositionSyntaxError(
                f"column {number} {column_text!r}: {lower} cannot lie on {upper} face up"
            )
        tableau.append(column)
        down.append(hidden)
    stock = [card for card, _ in _read_cards(stock_text, "stock")]
    waste = [card for card, _ in _read_cards(waste_text, "waste")]
    if rules.decks > 1:  # first occurrences are the first deck's, in reading order
        sizes = [len(column) for column in tableau] + [len(stock)]
        read = twinned([*(c for column in tableau for c in column), *stock, *waste])
        for index, size in enumerate(sizes[:-1]):
            tableau[index], read = read[:size], read[size:]
        stock, waste = read[: sizes[-1]], read[sizes[-1] :]
    stock.reverse()
    foundations = _read_foundations(foundations_text, rules)
    if not (recycles_text.isascii() and recycles_text.isdigit()):
        raise PositionSyntaxError(f"recycles {recycles_text!r} is not a count")
    recycles = int(recycles_text)
    too_many = recycles_beyond(recycles, rules)
    if too_many:
        raise PositionSyntaxError(too_many)
    parts = PositionParts(tableau, down, stock, waste, foundations, recycles)
    _check_every_card_once(text, parts, rules.decks)
    return parts


def recycles_beyond(recycles: int, rules: Rules) -> str | None:
    """Why ``recycles`` turns of the waste cannot have been made under ``rules``
    (their passes allow fewer), or ``None`` when they can."""
    allowed = rules.recycles_allowed
    if allowed is None or recycles <= allowed:
        return None
    return (f"recycles {recycles}: {rules.passes} passes allow at most {allowed} "
            "turns of the waste")


def _read_foundations(text: str, rules: Rules) -> list[int]:
    """Foundation heights: one rank or ``-`` per foundation, C D H S per deck."""
    if len(text) != rules.foundations:
        suits = " ".join(["C D H S"] * rules.decks)
        raise PositionSyntaxError(f"foundations {text!r} is not {rules.foundations} ranks "
                                  f"for {suits}")
    foundations = [0 if char == "-" else RANK_LETTERS.find(char.upper()) + 1 for char in text]
    if 0 in [f for f, char in zip(foundations, text, strict=True) if char != "-"]:
        raise PositionSyntaxError(f"foundations {text!r}: use ranks {RANK_LETTERS} or -")
    return foundations


def _check_every_card_once(text: str, position: PositionParts, decks: int) -> None:
    """Refuse a position that does not hold each card of its ``decks`` exactly once."""
    on_table = [c for column in position.tableau for c in column] + position.stock
    on_table += position.waste
    counts = [0] * DECK_SIZE
    for card in on_table:
        counts[card % DECK_SIZE] += 1
    for suit in range(SUIT_COUNT):
        for rank in range(1, RANK_COUNT + 1):
            homes = position.foundations[suit::SUIT_COUNT]
            counts[suit * RANK_COUNT + rank - 1] += sum(home >= rank for home in homes)
    missing = [ALL_CARDS[c] for c, count in enumerate(counts) if count < decks]
    repeated = [ALL_CARDS[c] for c, count in enumerate(counts) if count > decks]
    if missing or repeated:
        problem = ", ".join(
            part
            for part in (
                f"missing {' '.join(map(str, missing))}" if missing else "",
                f"repeated {' '.join(map(str, repeated))}" if repeated else "",
            )
            if part
        )
        each = "each card once" if decks == 1 else "each card twice"
        raise PositionSyntaxError(f"position {text!r} does not hold {each}: {problem}")
