"""What the browser may see of a position: the one place positions become JSON.

The visibility rule lives here. A face-down tableau card's identity and the
stock's cards are sent only under thoughtful rules; otherwise a face-down card
is counted, never named, and the stock is a count.
"""

from __future__ import annotations

from typing import Any

from bonanza.core.cards import Card
from bonanza.core.moves import Move
from bonanza.core.notation import format_move
from bonanza.core.position import Position


def card_text(card: int) -> str:
    """The two-character text of a card, such as ``7H``."""
    return str(Card(card))


def move_json(move: Move) -> dict[str, Any]:
    """A move as the browser uses it: piles by number, plus its notation."""
    return {
        "source": int(move.source),
        "dest": int(move.dest),
        "count": move.count,
        "text": format_move(move),
    }


def position_json(position: Position) -> dict[str, Any]:
    """The visible part of ``position``, with its legal moves."""
    thoughtful = position.rules.thoughtful
    columns = []
    for column, down in zip(position.tableau, position.down, strict=True):
        entry: dict[str, Any] = {"down": down, "up": [card_text(c) for c in column[down:]]}
        if thoughtful:
            entry["down_cards"] = [card_text(c) for c in column[:down]]
        columns.append(entry)
    stock: dict[str, Any] = {"count": len(position.stock)}
    if thoughtful:
        stock["cards"] = [card_text(c) for c in position.stock]
    foundations = [
        card_text(suit * 13 + home - 1) if home else None
        for suit, home in enumerate(position.foundations)
    ]
    allowed = position.rules.recycles_allowed
    return {
        "columns": columns,
        "stock": stock,
        "waste": [card_text(c) for c in position.waste],
        "foundations": foundations,
        "home": sum(position.foundations),
        "recycles": position.recycles,
        "recycles_left": None if allowed is None else max(0, allowed - position.recycles),
        "legal": [move_json(move) for move in position.legal_moves()],
    }
