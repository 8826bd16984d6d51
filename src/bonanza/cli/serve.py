"""``bonanza serve``: the web game on a local address.

Every field of :class:`~bonanza.web.limits.ServerLimits` is an option named
after it (``max_connections`` is ``--max-connections``), and every option an
environment variable (``BONANZA_MAX_CONNECTIONS``, :mod:`bonanza.cli.environment`);
a bad value ends the command with one line on stderr and status 2, as other bad
input does.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import inspect
import itertools
import math
import os
import resource
import socket
import sys
import textwrap
import threading
import webbrowser
from typing import Any

from bonanza.cli import environment, hosting, workers
from bonanza.cli.db import check_served_store
from bonanza.cli.serving import (
    LISTEN_BACKLOG,
    freeze_loaded_objects,
    header_timeout_protocol,
    listening_sockets,
    prepare_process,
    serve_on,
    served_app,
)
from bonanza.core.errors import BonanzaError
from bonanza.web.hosts import LOCAL_NAMES
from bonanza.web.limits import SYNC_CHOICES, UPPER_BOUNDS, ServerLimits

DEFAULT_PORT = 8000
PORTS = range(1, 65536)
FILES_BESIDES_CONNECTIONS = 256
"""Open files a serving process needs beyond its connections (the store, logs, pipes)."""

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


def field_docs(cls: type) -> dict[str, str]:
    """The docstring written under each field of a class body, by field name."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError):  # no source (a frozen build): options go without help
        return {}
    body = tree.body[0].body if isinstance(tree.body[0], ast.ClassDef) else []
    docs = {}
    for node, after in itertools.pairwise(body):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[node.target.id] = after.value.value
    return docs


def option(name: str) -> str:
    return "--" + name.replace("_", "-")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("serve", help="play in the browser: start the web game")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument(
        "--local-player",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="every browser plays as this machine's player, whose games and statistics"
        " 'bonanza play' shares (default: on for the default database on a loopback address)",
    )
    parser.add_argument(
        "--port", default=str(DEFAULT_PORT), help=f"port to listen on (default {DEFAULT_PORT})"
    )
    parser.add_argument(
        "--db",
        default=None,
        help="where games and stats are kept: a SQLite file (default: one in the user's data"
        " directory) or a PostgreSQL URL, postgresql://user@host/dbname",
    )
    parser.add_argument("--open", action="store_true", help="open the game in a web browser")
    parser.add_argument("--log-level", default="warning", help="uvicorn log level")
    group = parser.add_argument_group("limits")
    docs = field_docs(ServerLimits)
    defaults = ServerLimits()
    for limit in dataclasses.fields(ServerLimits):
        default = getattr(defaults, limit.name)
        if isinstance(default, bool):
            group.add_argument(
                option(limit.name),
                dest=f"limit_{limit.name}",
                action=argparse.BooleanOptionalAction,
                default=None,
                help=f"{docs.get(limit.name, '')} Default: {'on' if default else 'off'}.",
            )
            continue
        if isinstance(default, str):
            group.add_argument(
                option(limit.name),
                dest=f"limit_{limit.name}",
                metavar="|".join(SYNC_CHOICES),
                help=f"{docs.get(limit.name, '')} Default: {default}.",
            )
            continue
        most = UPPER_BOUNDS.get(limit.name)
        bound = "" if most is None else f" At most {most}."
        group.add_argument(
            option(limit.name),
            dest=f"limit_{limit.name}",
            metavar="N" if isinstance(default, int) else "SECONDS",
            help=f"{docs.get(limit.name, '')} Default: {default}.{bound}".lstrip(),
        )
    hosting.register(parser)
    environment.apply(parser)
    parser.set_defaults(func=run)


def port_from(text: str) -> int:
    """``--port``'s value, from 1 to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise BonanzaError(f"--port must be from 1 to 65535, not {text!r}") from None
    if port not in PORTS:
        raise BonanzaError(f"--port must be from 1 to 65535, not {port}")
    return port


def limit_from(name: str, text: str, kind: type) -> int | float:
    """One limit's value: a whole number of at least 1, or a finite number above 0, and
    at most its bound in ``UPPER_BOUNDS`` if it has one."""
    try:
        value: int | float = int(text) if kind is int else float(text)
    except ValueError:
        value = math.nan
    most: float = UPPER_BOUNDS.get(name, math.inf)
    within = "" if most == math.inf else f" and at most {most}"
    if kind is int and not 1 <= value <= most:
        raise BonanzaError(
            f"{option(name)} must be a whole number of at least 1{within}, not {text!r}"
        )
    if not (value > 0 and math.isfinite(value) and value <= most):
        raise BonanzaError(f"{option(name)} must be a number above 0{within}, not {text!r}")
    return value


def choice_from(name: str, text: str) -> str:
    """A limit chosen by name (``--sync``): one of ``SYNC_CHOICES``, any case."""
    if text.lower() not in SYNC_CHOICES:
        raise BonanzaError(f"{option(name)} must be {' or '.join(SYNC_CHOICES)}, not {text!r}")
    return text.lower()


def limits_from(args: argparse.Namespace) -> ServerLimits:
    """The defaults, changed by each limit option given."""
    defaults = ServerLimits()
    changes: dict[str, Any] = {}
    for limit in dataclasses.fields(ServerLimits):
        text = getattr(args, f"limit_{limit.name}", None)
        if isinstance(text, bool):
            changes[limit.name] = text
        elif text is not None and isinstance(getattr(defaults, limit.name), str):
            changes[limit.name] = choice_from(limit.name, text)
        elif text is not None:
            kind = type(getattr(defaults, limit.name))
            changes[limit.name] = limit_from(limit.name, text, kind)
    return dataclasses.replace(defaults, **changes)


def uses_local_player(args: argparse.Namespace) -> bool:
    """Whether browsers play as this machine's player: asked for, or by default the
    machine's own store (no ``--db``) served to the machine itself (a loopback host)."""
    if args.local_player is not None:
        return bool(args.local_player)
    return args.db is None and args.host in LOOPBACK_HOSTS


def raise_open_file_limit(connections: int) -> int:
    """Let this process (and the workers it starts, which inherit it) hold
    ``connections`` sockets and its other files; the limit it now has."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + FILES_BESIDES_CONNECTIONS
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return soft
    raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if raised > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
    if raised < wanted:
        print(
            f"bonanza serve: the system allows {raised} open files, fewer than "
            f"--max-connections {connections} needs; raise its hard limit (ulimit -Hn)",
            file=sys.stderr,
        )
    return raised


def open_browser(url: str) -> None:
    """Open ``url`` in a web browser, or say in one line that none could be: in a thread,
    so that serving goes on whatever the browser does (a text one keeps the terminal)."""

    def opening() -> None:
        try:
            opened = webbrowser.open(url)
        except webbrowser.Error:
            opened = False
        if not opened:
            print(
                f"bonanza serve: --open: no web browser could be started here;"
                f" open {url} in one yourself",
                file=sys.stderr,
                flush=True,
            )

    threading.Thread(target=opening, name="bonanza-open-browser", daemon=True).start()


def run(args: argparse.Namespace) -> int:
    with environment.checked(args):
        port = port_from(args.port)
        limits = limits_from(args)
        settings = hosting.hosting_from(args)
    if settings.allowed_hosts is None and args.host in LOOPBACK_HOSTS:
        # Only this machine's own names: no DNS rebinding to the local player.
        settings = dataclasses.replace(settings, allowed_hosts=LOCAL_NAMES)
    prepare_process()
    raise_open_file_limit(limits.max_connections)
    host = args.host
    # Bound here, and handed to uvicorn: a port in use is one line and status 2,
    # before anything is printed or opened.
    sockets = listening_sockets(host, port)
    try:
        return _serve(args, sockets, port, limits, settings)
    finally:
        for sock in sockets:
            sock.close()


def _serve(
    args: argparse.Namespace,
    sockets: list[socket.socket],
    port: int,
    limits: ServerLimits,
    settings: hosting.Hosting,
) -> int:
    """Open the store and serve on ``sockets``: the exit status."""
    from bonanza.storage import StorageError, default_db_path, local_player, open_storage, redacted

    db = args.db if args.db is not None else default_db_path()
    check_served_store(db)
    # Opened here even for workers: a store that cannot be used is one line and status 2,
    # its schema is brought up to date once, and the local player is made once.
    try:
        storage = open_storage(db, synchronous=limits.sync, background_checkpoints=True)
    except StorageError as error:
        raise BonanzaError(str(error)) from None
    host = args.host
    player = local_player(storage) if uses_local_player(args) else None
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    where = redacted(db)
    processes = f" by {settings.workers} processes" if settings.workers > 1 else ""
    print(
        f"Bonanza is being served at {url}{processes} (games in {where}); Ctrl+C stops it.",
        flush=True,
    )
    if args.open:
        open_browser(url)
    options: dict[str, Any] = {
        **hosting.uvicorn_options(settings),
        "limit_concurrency": limits.max_connections,
        "timeout_keep_alive": limits.keep_alive_timeout,
        "backlog": LISTEN_BACKLOG,
    }
    if settings.workers > 1:
        storage.close()
        os.environ[workers.SETTINGS_VARIABLE] = workers.WorkerSettings(
            str(db), limits, settings, player is not None
        ).to_json()
        hosting.configure_logging(settings.log_format)  # the parent's own messages
        return serve_on(
            sockets,
            workers.APP_FACTORY,
            factory=True,
            workers=settings.workers,
            http=workers.PROTOCOL,
            **options,
        )
    app = served_app(storage, limits, settings, player)
    freeze_loaded_objects()
    protocol = header_timeout_protocol(limits.header_timeout, limits.body_timeout)
    return serve_on(sockets, app, http=protocol, **options)
