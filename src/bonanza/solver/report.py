"""Shared pieces of ``bonanza solve`` and ``bonanza analyze``: reading a deal or
saved game, and results as JSON-ready data."""

from __future__ import annotations

import json
import os
from typing import Any

from bonanza.core.deal import Deal
from bonanza.core.errors import BonanzaError
from bonanza.core.game import Game
from bonanza.core.moves import Move, Pile
from bonanza.core.notation import format_move
from bonanza.core.position import Position
from bonanza.core.rules import Rules
from bonanza.solver.search import SolveResult


class InputError(BonanzaError):
    """A deal, saved game or option the solver commands cannot use."""


def load_start(text: str, rules: Rules) -> tuple[Position, str]:
    """The start position named by ``text`` and a label for it.

    ``text`` is a deal number, deal code or 52-card listing, or the path of a
    saved game (JSON from ``Game.to_json`` or the text save format), whose
    current position and rules are used.
    """
    if os.path.isfile(text):
        try:
            with open(text, encoding="utf-8") as file:
                content = file.read()
        except OSError as error:
            raise InputError(f"cannot read {text}: {error.strerror}") from None
        try:
            game = Game.from_json(json.loads(content))
        except json.JSONDecodeError:
            game = Game.from_text(content)
        return game.position.copy(), f"{text} (deal {game.deal.id}, move {game.move_count})"
    try:
        deal = Deal.parse(text)
    except BonanzaError as error:
        raise InputError(f"{text!r} is neither a deal nor a saved game file: {error}") from None
    return Position.initial(deal, rules), f"deal {deal.id}"


def pile_name(pile: Pile) -> str:
    """``stock``, ``waste``, ``foundation`` or ``t1``…``t7``."""
    if pile.is_tableau:
        return f"t{pile + 1}"
    if pile.is_foundation:
        return "foundation"
    return pile.name.lower()


def moves_data(start: Position, moves: list[Move]) -> list[dict[str, Any]]:
    """Each move as ``{"move", "from", "to", "card", "count"}``, replayed from ``start``."""
    position = start.copy()
    data = []
    for move in moves:
        card = None
        if not move.is_draw and not move.is_recycle:
            card = str(position.moving_cards(move)[0])
        data.append(
            {
                "move": format_move(move),
                "from": pile_name(move.source),
                "to": pile_name(move.dest),
                "card": card,
                "count": move.count,
            }
        )
        position.apply(move)
    return data


def result_data(result: SolveResult, start: Position) -> dict[str, Any]:
    """A result as one JSON-ready object."""
    return {
        "result": result.result,
        "moves": moves_data(start, result.moves),
        "nodes": result.nodes,
        "seconds": round(result.seconds, 6),
        "limit": result.limit,
        "states": result.states,
        "rules": start.rules.to_dict(),
    }


__all__ = ["InputError", "load_start", "moves_data", "pile_name", "result_data"]
