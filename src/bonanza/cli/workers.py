"""``bonanza serve --workers N``: N processes serving one address.

uvicorn binds the address once and starts each worker in a new interpreter
(multiprocessing's spawn), where it imports the app factory and the HTTP
protocol by name. The settings ``bonanza serve`` has checked go with them in one
environment variable, :data:`SETTINGS_VARIABLE`, as JSON. Each worker opens the
store itself and has its own search pool, caches and per-process limits.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import logging
import os
import sys
from dataclasses import dataclass
from typing import Any

from bonanza.cli import hosting, serving
from bonanza.cli.hosting import Hosting
from bonanza.play.parent import end_with_parent
from bonanza.web.limits import ServerLimits

SETTINGS_VARIABLE = "BONANZA_SERVE_WORKER_SETTINGS"
"""Where a worker finds its settings (not an option: ``bonanza serve`` sets it)."""
APP_FACTORY = f"{__name__}:app"
PROTOCOL = f"{__name__}:HeaderTimeoutProtocol"
WORKER_FAILED = 1
"""A worker's exit status when it cannot start serving (uvicorn starts another)."""


log = logging.getLogger("bonanza.serve")


@dataclass(frozen=True, slots=True)
class WorkerSettings:
    """What each worker needs to serve as ``bonanza serve`` would in one process."""

    db: str
    limits: ServerLimits
    hosting: Hosting
    local_player: bool
    """Whether browsers play as this machine's player (``bonanza serve`` made it already)."""

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, text: str) -> WorkerSettings:
        fields: dict[str, Any] = json.loads(text)
        hosting: dict[str, Any] = fields["hosting"]
        if hosting["allowed_hosts"] is not None:
            hosting["allowed_hosts"] = tuple(hosting["allowed_hosts"])
        return cls(
            db=fields["db"],
            limits=ServerLimits(**fields["limits"]),
            hosting=Hosting(**hosting),
            local_player=fields["local_player"],
        )


@functools.cache
def settings() -> WorkerSettings:
    """This worker's settings, from its environment."""
    text = os.environ.get(SETTINGS_VARIABLE)
    if not text:
        raise RuntimeError(f"{SETTINGS_VARIABLE} is not set: workers are started by bonanza serve")
    return WorkerSettings.from_json(text)


def app() -> Any:
    """The app of one worker (uvicorn's factory): the store opened, logging set up.

    A store that cannot be opened (``bonanza serve`` opened it, but it may have gone
    since) ends the worker with one logged line; uvicorn starts another in its place.
    """
    from bonanza.storage import StorageError, local_player, open_storage, redacted

    given = settings()
    end_with_parent()
    serving.prepare_process()
    try:
        storage = open_storage(
            given.db, synchronous=given.limits.sync, background_checkpoints=True
        )
    except StorageError as error:
        hosting.configure_logging(given.hosting.log_format)
        log.error("worker %d cannot open %s: %s", os.getpid(), redacted(given.db), error)
        sys.exit(WORKER_FAILED)
    player = local_player(storage) if given.local_player else None
    served = serving.served_app(storage, given.limits, given.hosting, player)
    serving.freeze_loaded_objects()
    return served


def __getattr__(name: str) -> type[asyncio.Protocol]:
    """``HeaderTimeoutProtocol``: the HTTP protocol with this worker's header timeout
    (made on first use, once the settings are known)."""
    if name != "HeaderTimeoutProtocol":
        raise AttributeError(name)
    return _protocol()


@functools.cache
def _protocol() -> type[asyncio.Protocol]:
    limits = settings().limits
    return serving.header_timeout_protocol(limits.header_timeout, limits.body_timeout)
