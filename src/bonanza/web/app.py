"""The ASGI application: API routes, the page and its static files."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.routing import Mount, Route

from bonanza.core import Deal
from bonanza.play.errors import PlayError
from bonanza.session import Advisor, Finisher, SessionError, random_deal
from bonanza.storage import Storage
from bonanza.web.errors import http_error, play_error, server_error
from bonanza.web.guard import GuardMiddleware
from bonanza.web.health import HealthMiddleware
from bonanza.web.hosts import AllowedHostsMiddleware, HostNames
from bonanza.web.hot_path import HotPath
from bonanza.web.leaderboard import routes as leaderboard_routes
from bonanza.web.limits import ServerLimits
from bonanza.web.page import BUNDLES, Page
from bonanza.web.players import PlayerMiddleware
from bonanza.web.routes import routes
from bonanza.web.security_headers import SecurityHeadersMiddleware
from bonanza.web.service import GameService
from bonanza.web.static_files import PackedStaticFiles

STATIC = Path(__file__).parent / "static"
def create_app(
    storage: Storage,
    clock: Callable[[], float] = time.time,
    limits: ServerLimits | None = None,
    *,
    advisor: Advisor | None = None,
    finisher: Finisher | None = None,
    local_player: str | None = None,
    random_deals: Callable[[], Deal] = random_deal,
    allowed_hosts: Sequence[str] | None = None,
    secure_cookies: bool = False,
) -> Starlette:
    """The web game on ``storage``, which the app closes on shutdown; ``clock`` is for tests.

    ``limits`` (default ``ServerLimits()``) is kept as ``app.state.limits``.
    ``advisor`` gives hints (default: the solver's); ``finisher`` the auto
    finish (default: the solver's). With ``local_player``, a
    browser without a cookie plays as that player: this machine's player, who
    also plays ``bonanza play`` (for a server on this machine only).
    ``random_deals`` is where random deals come from (tests fix it).
    With ``allowed_hosts``, only requests for those ``Host`` names are served
    (``/healthz`` for any); ``secure_cookies`` marks the player cookie ``Secure``
    (behind a TLS proxy).
    """
    limits = limits if limits is not None else ServerLimits()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await service.aclose()  # commits the writes still pending
        storage.close()

    files = PackedStaticFiles(STATIC, BUNDLES)
    app = Starlette(
        routes=[
            Route("/", Page(files, local_player).respond, methods=["GET"]),
            *routes,
            *leaderboard_routes,
            Mount("/static", files, name="static"),
        ],
        exception_handlers={
            HTTPException: http_error,
            PlayError: play_error,
            SessionError: play_error,
            Exception: server_error,
        },
        lifespan=lifespan,
    )
    service = GameService(
        storage,
        clock,
        limits=limits,
        advisor=advisor,
        finisher=finisher,
        random_deals=random_deals,
    )
    app.state.service = service
    app.state.limits = limits
    app.router.redirect_slashes = False  # a wrong path is a JSON 404, not an empty 307
    app.add_middleware(PlayerMiddleware, default_player=local_player, secure=secure_cookies)
    app.add_middleware(GuardMiddleware)  # refusals run no handler, issue no cookie
    if allowed_hosts is not None:
        app.add_middleware(AllowedHostsMiddleware, hosts=allowed_hosts)
    # No cookie, any host; the writer's failures reported.
    app.add_middleware(HealthMiddleware, storage=storage, writer=service.writer)
    app.add_middleware(SecurityHeadersMiddleware)  # on every answer the app makes
    hosts = HostNames(allowed_hosts) if allowed_hosts is not None else None
    # Outermost: the requests of play, answered in one pass when they pass every check.
    app.add_middleware(HotPath, service=service, limits=limits, hosts=hosts)
    return app
