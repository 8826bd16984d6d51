"""A text board for terminals, logs and error messages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bonanza.core.cards import Card
from bonanza.core.moves import ALL_FOUNDATIONS

if TYPE_CHECKING:  # str(position) draws itself with ``render``
    from bonanza.core.position import Position


def _face(card: Card, *, unicode: bool) -> str:
    return card.symbol if unicode else str(card)


def render(position: Position, *, unicode: bool = False, hide: bool = False) -> str:
    """The position as a multi-line board.

    Face-down cards show as ``##`` (or lower case when not ``hide``); the
    stock shows its count. ``unicode`` draws suits as symbols.
    """
    thoughtful = position.rules.thoughtful
    waste = position.waste[-position.rules.draw :] if position.waste else []
    waste_text = " ".join(_face(card, unicode=unicode) for card in waste) or "--"
    tops = [position.card_at(pile) for pile in ALL_FOUNDATIONS[: len(position.foundations)]]
    foundations = " ".join(_face(top, unicode=unicode) if top else "--" for top in tops)
    header = f"[{len(position.stock):2}] {waste_text:<9}   {foundations}"
    lines = [header, "", "  ".join(f"{n:>2}" for n in range(1, len(position.tableau) + 1))]
    depth = max((len(column) for column in position.tableau), default=0)
    for row in range(depth):
        cells = []
        for column, down in zip(position.tableau, position.down, strict=True):
            if row >= len(column):
                cells.append("  ")
            elif row < down:
                cells.append("##" if hide and not thoughtful else str(column[row]).lower())
            else:
                cells.append(_face(column[row], unicode=unicode))
        lines.append("  ".join(cells).rstrip())
    passes = f", recycled {position.recycles}x" if position.recycles else ""
    lines.append(f"stock {len(position.stock)}, waste {len(position.waste)}{passes}")
    return "\n".join(lines)
