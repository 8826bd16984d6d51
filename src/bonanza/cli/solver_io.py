"""What the solver commands read and write: a deal or saved game named by the
user (``bonanza solve``, ``analyze``, ``autoplay``...) and results as JSON-ready
data, with ``InputError`` for input they cannot use."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Final

from bonanza.core.deal import Deal
from bonanza.core.errors import BonanzaError
from bonanza.core.game import Game
from bonanza.core.moves import Move, Pile
from bonanza.core.notation import format_move
from bonanza.core.position import Position
from bonanza.core.rules import Rules

if TYPE_CHECKING:
    from bonanza.solver.search import SolveResult


class InputError(BonanzaError):
    """A deal, saved game or option the solver commands cannot use."""


MAX_SAVE_BYTES: Final = 16 * 2**20
"""Far above any saved game: a larger file is something else, and is not read whole."""
JSON_OPENINGS: Final = ("{", "[")
"""How JSON that is no bare value begins: a save so begun that does not parse
(as one cut short) is told as bad JSON, not as a text save with a wrong first line."""


def read_text_file(path: str, what: str, max_bytes: int | None = None) -> str:
    """The UTF-8 text of a file the user named (a leading BOM dropped).

    Raises ``InputError`` naming ``what`` and ``path`` when the file cannot be
    read, is larger than ``max_bytes``, or is not text (bytes that are not
    UTF-8, or a NUL byte); the message gives the line of the first bad byte.
    """
    try:
        with open(path, "rb") as file:
            data = file.read() if max_bytes is None else file.read(max_bytes + 1)
    except OSError as error:
        raise InputError(f"cannot read {what} {path}: {error.strerror}") from None
    if max_bytes is not None and len(data) > max_bytes:
        raise InputError(f"{what} {path} is over {max_bytes} bytes: is it the right file?")
    try:
        text = data.decode("utf-8")
        bad_byte = data.find(b"\0")
    except UnicodeDecodeError as error:
        bad_byte = error.start
    if bad_byte >= 0:
        line = data.count(b"\n", 0, bad_byte) + 1
        raise InputError(
            f"{what} {path} is not a text file (line {line} holds bytes that are not text)"
        )
    return text.removeprefix("\ufeff")


def load_start(text: str, rules: Rules) -> tuple[Position, str]:
    """The start position named by ``text`` and a label for it.

    ``text`` is a deal number, deal code or 52-card listing, or the path of a
    saved game (JSON from ``Game.to_json``, the text save format, or the session
    ``bonanza play --save`` writes), whose current position and rules are used.
    A deal number is always the deal: a file named by digits is read as ``./5``.
    """
    if not is_deal_number(text) and os.path.isfile(text):
        game = load_saved_game(text)
        return game.position.copy(), f"{text} (deal {game.deal.id}, move {game.move_count})"
    try:
        deal = Deal.parse(text, rules.decks)
    except BonanzaError as error:
        raise InputError(f"{text!r} is neither a deal nor a saved game file: {error}") from None
    return Position.initial(deal, rules), f"deal {deal.id}"


def is_deal_number(text: str) -> bool:
    """Whether ``text`` is a deal number (ASCII digits), which no file name shadows."""
    return text.isascii() and text.isdigit()


def load_saved_game(path: str) -> Game:
    """The game saved in ``path``; an ``InputError`` naming the file if it is not one."""
    content = read_text_file(path, "saved game", MAX_SAVE_BYTES)
    try:
        return _game_from(content)
    except RecursionError:
        raise InputError(f"{path} is not a saved game: it is nested too deeply") from None
    except BonanzaError as error:
        raise InputError(f"{path}: {error}") from None


def _game_from(content: str) -> Game:
    """A game from any save format: a saved session (``bonanza play --save``, from
    ``Session.to_json``) or game as JSON, else the text format (content opening
    as JSON is JSON's, with its error)."""
    # Loaded here, for a saved game only: not for every deal named by number.
    import json

    from bonanza.session import Session
    from bonanza.session.saved import SESSION_FORMAT

    try:
        data = json.loads(content)
    except ValueError as error:  # not JSON (or a number too long to read)
        if content.lstrip().startswith(JSON_OPENINGS):
            raise InputError(f"not a saved Bonanza game: it is not JSON: {error}") from None
        return Game.from_text(content)
    if isinstance(data, dict) and data.get("format") == SESSION_FORMAT:
        return Session.from_json(data).game
    return Game.from_json(data)


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


def verdict_data(result: SolveResult, rules: Rules) -> dict[str, Any]:
    """A result as one JSON-ready object, less its winning line."""
    return {
        "result": result.result,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 6),
        "cpu_seconds": round(result.cpu_seconds, 6),
        "limit": result.limit,
        "states": result.states,
        "rules": rules.to_dict(),
    }


def result_data(result: SolveResult, start: Position) -> dict[str, Any]:
    """A result as one JSON-ready object, its winning line spelled out as ``moves``."""
    verdict = verdict_data(result, start.rules)
    return {"result": verdict.pop("result"), "moves": moves_data(start, result.moves), **verdict}


__all__ = [
    "MAX_SAVE_BYTES",
    "InputError",
    "load_saved_game",
    "load_start",
    "moves_data",
    "pile_name",
    "read_text_file",
    "result_data",
    "verdict_data",
]
