"""The requests of play, one handler each: a move, undo, redo, restart, a finish step, the
progress check, a game's view and the player's latest game.

The hot path (``hot_path``) and the app's routes (``routes``) both answer these
paths, with these handlers, so each request's meaning is written once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Final

import msgspec

from bonanza.web.bodies import MoveBody, NoBody
from bonanza.web.moves_input import read_move
from bonanza.web.requests import body_of
from bonanza.web.service import GameService

CURRENT: Final = "current"
"""``/api/games/current``: the player's latest game, not a game of that ID."""

Handler = Callable[[GameService, str, str, bytes, str], Awaitable[msgspec.Struct | None]]
"""Answers one request (None: 204 No Content): the service, the player, the game, the
body and the client."""


async def _move(
    service: GameService, player: str, game: str, body: bytes, _client: str
) -> msgspec.Struct:
    move = read_move(body_of(body, MoveBody, service.limits))
    return await service.play(player, game, move)


def _action(
    act: Callable[[GameService], Callable[[str, str], Awaitable[msgspec.Struct]]],
) -> Handler:
    """The handler of an action that takes no body (any JSON object, or nothing)."""

    async def handle(
        service: GameService, player: str, game: str, body: bytes, _client: str
    ) -> msgspec.Struct:
        body_of(body, NoBody, service.limits, required=False)
        return await act(service)(player, game)

    return handle


async def _progress(
    service: GameService, player: str, game: str, _body: bytes, client: str
) -> msgspec.Struct:
    return await service.progress(player, game, client)


async def _view(
    service: GameService, player: str, game: str, _body: bytes, _client: str
) -> msgspec.Struct | None:
    if game == CURRENT:  # the player's latest game: None (204) before the first
        return await service.current(player)
    return await service.get(player, game)


POSTS: Final[dict[str, Handler]] = {
    "moves": _move,
    "undo": _action(lambda service: service.undo),
    "redo": _action(lambda service: service.redo),
    "restart": _action(lambda service: service.restart),
    "auto": _action(lambda service: service.auto_step),
}
"""``POST /api/games/{id}/<action>``."""
GETS: Final[dict[str, Handler]] = {"progress": _progress, "": _view}
"""``GET /api/games/{id}/progress``, ``GET /api/games/{id}`` and ``GET /api/games/current``."""
