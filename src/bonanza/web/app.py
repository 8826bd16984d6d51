"""The ASGI application: API routes, the page and its static files."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from bonanza.web.errors import http_error, server_error
from bonanza.web.players import PlayerMiddleware
from bonanza.web.routes import routes
from bonanza.web.service import GameService
from bonanza.web.storage import Storage

STATIC = Path(__file__).parent / "static"
CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


async def index(request: Request) -> Response:
    return FileResponse(
        STATIC / "index.html",
        headers={"Cache-Control": "no-cache", "Content-Security-Policy": CSP},
    )


def create_app(storage: Storage, clock: Callable[[], float] = time.time) -> Starlette:
    """The web game on ``storage``, which the app closes on shutdown; ``clock`` is for tests."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        storage.close()

    app = Starlette(
        routes=[
            Route("/", index, methods=["GET"]),
            *routes,
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        exception_handlers={HTTPException: http_error, Exception: server_error},
        lifespan=lifespan,
    )
    app.state.service = GameService(storage, clock)
    app.add_middleware(PlayerMiddleware)
    return app
