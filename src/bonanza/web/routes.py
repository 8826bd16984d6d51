"""The HTTP API: thin handlers that read the request and call the game service."""

from __future__ import annotations

import time
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bonanza.core import BonanzaError, Rules
from bonanza.session import export_game, statistics
from bonanza.web.errors import ApiError
from bonanza.web.moves_input import read_move
from bonanza.web.requests import field, json_body
from bonanza.web.service import GameService

NO_STORE = {"Cache-Control": "no-store"}
MAX_DEAL_TEXT = 400

def service(request: Request) -> GameService:
    svc: GameService = request.app.state.service
    return svc


def player(request: Request) -> str:
    token: str = request.scope["state"]["player"]
    return token


def answer(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=NO_STORE)


def read_rules(data: dict[str, Any]) -> Rules:
    preset = field(data, "preset", str)
    rules = field(data, "rules", dict)
    try:
        if rules is not None:
            return Rules.from_dict(rules)
        return Rules.preset(preset or "klondike")
    except (BonanzaError, TypeError) as error:
        raise ApiError(422, f"bad rules: {error}") from None


def short_text(data: dict[str, Any], name: str) -> str | None:
    value: str | None = field(data, name, str)
    if value is not None and len(value) > MAX_DEAL_TEXT:
        raise ApiError(422, f"field {name!r} is too long to be a deal ID")
    return value


async def new_game(request: Request) -> Response:
    data = await json_body(request, required=False)
    game = await service(request).new_game(
        player(request),
        read_rules(data),
        deal_text=short_text(data, "deal"),
        share=short_text(data, "share"),
        replay=short_text(data, "replay"),
    )
    return answer(game, 201)


async def current_game(request: Request) -> Response:
    """The latest game, or 204 No Content for a player who has none yet."""
    state = await service(request).current(player(request))
    if state is None:
        return Response(status_code=204, headers=NO_STORE)
    return answer(state)


def game_id(request: Request) -> str:
    value: str = request.path_params["game_id"]
    return value


async def get_game(request: Request) -> Response:
    return answer(await service(request).get(player(request), game_id(request)))


async def play_move(request: Request) -> Response:
    move = read_move(await json_body(request))
    return answer(await service(request).play(player(request), game_id(request), move))


async def undo(request: Request) -> Response:
    await json_body(request, required=False)
    return answer(await service(request).undo(player(request), game_id(request)))


async def redo(request: Request) -> Response:
    await json_body(request, required=False)
    return answer(await service(request).redo(player(request), game_id(request)))


async def restart(request: Request) -> Response:
    await json_body(request, required=False)
    return answer(await service(request).restart(player(request), game_id(request)))


async def auto_step(request: Request) -> Response:
    await json_body(request, required=False)
    return answer(await service(request).auto_step(player(request), game_id(request)))


async def share(request: Request) -> Response:
    await json_body(request, required=False)
    return answer(await service(request).share(player(request), game_id(request)), 201)


async def hint(request: Request) -> Response:
    return answer(await service(request).hint(player(request), game_id(request)))


async def progress(request: Request) -> Response:
    return answer(await service(request).progress(player(request), game_id(request)))


async def winnable(request: Request) -> Response:
    await json_body(request, required=False)
    return answer(await service(request).winnable(player(request), game_id(request)))


async def review(request: Request) -> Response:
    return answer(await service(request).review(player(request), game_id(request)))


async def get_settings(request: Request) -> Response:
    return answer(await service(request).settings(player(request)))


async def put_settings(request: Request) -> Response:
    """Change the player's settings: ``{"safe_home": true}`` (safe auto-play)."""
    on = field(await json_body(request), "safe_home", bool)
    if on is None:
        raise ApiError(422, "give safe_home, true or false")
    return answer(await service(request).set_settings(player(request), on))


async def _finished(request: Request) -> list[Any]:
    svc = service(request)
    games: list[Any] = await anyio.to_thread.run_sync(svc.storage.finished_games, player(request))
    return games


async def get_stats(request: Request) -> Response:
    return answer(statistics(await _finished(request)))


async def reset_stats(request: Request) -> Response:
    svc = service(request)
    count = await anyio.to_thread.run_sync(svc.storage.archive_finished_games, player(request))
    return answer({"reset": count, **statistics([])})


async def export_stats(request: Request) -> Response:
    games = await _finished(request)
    data = {
        "format": "bonanza-statistics",
        "exported_at": time.time(),
        **statistics(games),
        "games": [export_game(game) for game in games],
    }
    headers = {**NO_STORE, "Content-Disposition": 'attachment; filename="bonanza-statistics.json"'}
    return JSONResponse(data, headers=headers)


GAME = "/api/games/{game_id:str}"

routes = [
    Route("/api/games", new_game, methods=["POST"]),
    Route("/api/games/current", current_game, methods=["GET"]),
    Route(GAME, get_game, methods=["GET"]),
    Route(GAME + "/moves", play_move, methods=["POST"]),
    Route(GAME + "/undo", undo, methods=["POST"]),
    Route(GAME + "/redo", redo, methods=["POST"]),
    Route(GAME + "/restart", restart, methods=["POST"]),
    Route(GAME + "/auto", auto_step, methods=["POST"]),
    Route(GAME + "/share", share, methods=["POST"]),
    Route(GAME + "/hint", hint, methods=["GET"]),
    Route(GAME + "/progress", progress, methods=["GET"]),
    Route(GAME + "/winnable", winnable, methods=["POST"]),
    Route(GAME + "/review", review, methods=["GET"]),
    Route("/api/settings", get_settings, methods=["GET"]),
    Route("/api/settings", put_settings, methods=["POST"]),
    Route("/api/stats", get_stats, methods=["GET"]),
    Route("/api/stats", reset_stats, methods=["DELETE"]),
    Route("/api/stats/export", export_stats, methods=["GET"]),
]
