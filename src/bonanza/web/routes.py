"""The HTTP API: thin handlers that read the request and call the game service."""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bonanza.core import BonanzaError, Rules
from bonanza.web.errors import ApiError
from bonanza.web.moves_input import read_move
from bonanza.web.requests import field, json_body
from bonanza.web.service import GameService
from bonanza.web.stats import export_game, statistics

NO_STORE = {"Cache-Control": "no-store"}


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


async def new_game(request: Request) -> Response:
    data = await json_body(request, required=False)
    deal = field(data, "deal", str)
    if deal is not None and len(deal) > 400:
        raise ApiError(422, "field 'deal' is too long to be a deal ID")
    rules = read_rules(data)
    return answer(service(request).new_game(player(request), deal, rules), 201)


async def current_game(request: Request) -> Response:
    """The latest game, or 204 No Content for a player who has none yet."""
    state = service(request).current(player(request))
    if state is None:
        return Response(status_code=204, headers=NO_STORE)
    return answer(state)


async def get_game(request: Request) -> Response:
    return answer(service(request).get(player(request), request.path_params["game_id"]))


async def play_move(request: Request) -> Response:
    move = read_move(await json_body(request))
    return answer(service(request).play(player(request), request.path_params["game_id"], move))


async def undo(request: Request) -> Response:
    return answer(service(request).undo(player(request), request.path_params["game_id"]))


async def redo(request: Request) -> Response:
    return answer(service(request).redo(player(request), request.path_params["game_id"]))


async def restart(request: Request) -> Response:
    return answer(service(request).restart(player(request), request.path_params["game_id"]))


async def auto_step(request: Request) -> Response:
    return answer(service(request).auto_step(player(request), request.path_params["game_id"]))


async def hint(request: Request) -> Response:
    return answer(await service(request).hint(player(request), request.path_params["game_id"]))


async def progress(request: Request) -> Response:
    return answer(await service(request).progress(player(request), request.path_params["game_id"]))


async def get_stats(request: Request) -> Response:
    games = service(request).storage.finished_games(player(request))
    return answer({"groups": statistics(games)})


async def reset_stats(request: Request) -> Response:
    count = service(request).storage.archive_finished_games(player(request))
    return answer({"reset": count, "groups": []})


async def export_stats(request: Request) -> Response:
    games = service(request).storage.finished_games(player(request))
    data = {
        "format": "bonanza-statistics",
        "exported_at": time.time(),
        "groups": statistics(games),
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
    Route(GAME + "/hint", hint, methods=["GET"]),
    Route(GAME + "/progress", progress, methods=["GET"]),
    Route("/api/stats", get_stats, methods=["GET"]),
    Route("/api/stats", reset_stats, methods=["DELETE"]),
    Route("/api/stats/export", export_stats, methods=["GET"]),
]
