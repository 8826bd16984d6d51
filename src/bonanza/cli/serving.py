"""What every serving process runs, alone (``bonanza serve``) or as one of
``--workers N`` (``workers.py``): its setup, the app and the HTTP protocol."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import gc
import json
import signal
import socket
import sys
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Final, cast

from bonanza.cli import hosting
from bonanza.core.errors import BonanzaError
from bonanza.web.limits import ServerLimits

if TYPE_CHECKING:
    from starlette.types import ASGIApp
    from uvicorn._types import ASGISendEvent

    from bonanza.storage import Storage

BAD_REQUEST = 400
NOT_HTTP = "the request is not valid HTTP/1.1 (or its headers are too large)"
MAX_HEAD_BYTES = 16 * 1024
"""A request head (request line and headers) above this is refused (400), as h11's
default limit did; httptools sets none."""
THREAD_SWITCH_SECONDS = 0.0005
LISTEN_BACKLOG: Final = 2048
"""Connections the system queues before they are taken: uvicorn's default."""
GC_YOUNG_THRESHOLD: Final = 20_000
"""Objects made and not yet freed before the collector looks at the young ones (Python's
default is 700). A request makes and frees some thousand containers, so at 700 nearly
every request paid a young pass, and the objects of games in play that the passes found
alive were promoted until a full pass over every cached game ran, every few seconds.
Measured with 1,000 players, a move a second each (``benchmarks/server.py``): 654 young
passes, 58 middle and 5 full, 1.2 s of collection in all and a p99 of 44 ms, against 11
young and 1 full, 0.14 s, and a p99 of 13 ms."""
GC_MIDDLE_THRESHOLD: Final = 20
GC_OLD_THRESHOLD: Final = 10
STARTUP_FAILURE: Final = 3
"""uvicorn's exit status when its server did not start (the app's start-up failed)."""


def prepare_process() -> None:
    """Set up a serving process: the thread switch interval and the logs."""
    # Storage writes and searches run in threads; a worker that is done waits for
    # the GIL up to the switch interval (5 ms by default) while the event loop
    # works, which adds straight to the request's latency.
    sys.setswitchinterval(THREAD_SWITCH_SECONDS)


def listening_sockets(host: str, port: int) -> list[socket.socket]:
    """Sockets bound to ``host``'s addresses and ``port`` and listening, for uvicorn to
    serve on, made as uvicorn's own server makes them (asyncio's ``create_server``: every
    address the name has, ``SO_REUSEADDR``, IPv6 sockets for IPv6 only).

    A port in use or an address this machine lacks is a ``BonanzaError`` here, in one
    line, before anything is printed or opened (an IPv6 address the machine lacks,
    besides an IPv4 one it has, is left out, as a name such as ``localhost`` may give).
    """
    shown = f"[{host}]" if ":" in host else host
    try:
        addresses = socket.getaddrinfo(
            host or None, port, socket.AF_UNSPEC, socket.SOCK_STREAM, 0, socket.AI_PASSIVE
        )
    except (OSError, UnicodeError) as error:
        raise BonanzaError(f"cannot listen on {shown}:{port}: {_reason(error)}") from None
    sockets: list[socket.socket] = []
    lacking: OSError | None = None  # an IPv6 address the machine lacks
    for family, kind, proto, _name, address in dict.fromkeys(addresses):
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
            sock.listen(LISTEN_BACKLOG)
        except OSError as error:
            sock.close()
            if error.errno == errno.EADDRNOTAVAIL and family == socket.AF_INET6:
                lacking = error
                continue
            for other in sockets:
                other.close()
            raise BonanzaError(f"cannot listen on {shown}:{port}: {_reason(error)}") from None
        sock.set_inheritable(True)  # uvicorn's --workers hand it to each worker
        sockets.append(sock)
    if not sockets:
        reason = _reason(lacking) if lacking else "it has no address"
        raise BonanzaError(f"cannot listen on {shown}:{port}: {reason}")
    return sockets


def _reason(error: OSError | UnicodeError) -> str:
    """Why an address could not be listened on, in words."""
    if isinstance(error, OSError) and error.errno == errno.EADDRINUSE:
        return "the port is in use (by another server?): give another --port"
    text = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    return text[:1].lower() + text[1:]


def serve_on(sockets: list[socket.socket], app: Any, **options: Any) -> int:
    """Serve ``app`` on ``sockets`` as ``uvicorn.run(app, **options)`` would serve it on
    sockets of its own: in this process, or in ``workers`` processes (``app`` then an
    import string); the exit status (uvicorn's 3 if it did not start). The sockets are
    closed after.

    A signal stops it gracefully, then ends it as the signal would, as other commands
    end (``bonanza.cli.main``): Ctrl-C (SIGINT) raises ``KeyboardInterrupt`` once the
    server is down (``interrupted``, status 130); SIGTERM and SIGHUP end the process by
    the signal (143 and 129 as a shell shows them; a clean stop to a service manager)."""
    import uvicorn

    try:
        config = uvicorn.Config(app, **options)
        server = uvicorn.Server(config)
        if config.workers > 1:
            supervisor = _supervisor(config, sockets)
            supervisor.run()
            end_as_signalled(supervisor.stopped_by)
            return 0
        # uvicorn raises the signal that stopped it again once the server is down:
        # SIGINT as KeyboardInterrupt, SIGTERM by its default action.
        with hangup_stops(server):
            server.run(sockets=sockets)
    finally:
        for sock in sockets:
            sock.close()
    return 0 if server.started else STARTUP_FAILURE


def _supervisor(config: Any, sockets: list[socket.socket]) -> Any:
    """uvicorn's supervisor of ``--workers`` processes, which notes the signal that
    stopped it (``stopped_by``: SIGINT or SIGTERM, None if none did)."""
    from uvicorn.supervisors import Multiprocess

    class Supervisor(Multiprocess):
        stopped_by: int | None = None

        def handle_int(self) -> None:
            self.stopped_by = signal.SIGINT
            super().handle_int()

        def handle_term(self) -> None:
            self.stopped_by = signal.SIGTERM
            super().handle_term()

    return Supervisor(config, sockets=sockets)


def end_as_signalled(signum: int | None) -> None:
    """End as the signal ``signum`` would, after a graceful stop: Ctrl-C (SIGINT) as
    ``KeyboardInterrupt``, another signal by its default action; nothing if None."""
    if signum is None:
        return
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    signal.signal(signum, signal.SIG_DFL)
    signal.raise_signal(signum)


@contextlib.contextmanager
def hangup_stops(server: Any) -> Iterator[None]:
    """SIGHUP (the terminal closed, or a service manager's reload) stops a one-process
    server as SIGTERM does: its requests in flight are answered and the store closed,
    then the process ends by the signal (status 129). Without this, SIGHUP killed it
    at once, mid-request. (With ``--workers``, uvicorn's supervisor restarts them.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    hung_up: list[int] = []

    def stop(sig: int, frame: Any) -> None:
        hung_up.append(sig)
        server.should_exit = True

    previous = signal.signal(signal.SIGHUP, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGHUP, previous)
    if hung_up:
        end_as_signalled(signal.SIGHUP)


def served_app(
    storage: Storage, limits: ServerLimits, settings: hosting.Hosting, player: str | None
) -> ASGIApp:
    """The app one serving process runs on ``storage``, its requests logged."""
    from bonanza.web import create_app
    from bonanza.web.access_log import AccessLog

    hosting.configure_logging(settings.log_format)
    app = create_app(
        storage,
        limits=limits,
        local_player=player,
        allowed_hosts=settings.allowed_hosts,
        secure_cookies=settings.proxy_headers,
    )
    return AccessLog(app)


def freeze_loaded_objects() -> None:
    """Keep what is loaded by now (modules, the app), which lives as long as the server,
    out of the collector's full passes, which otherwise walk it every time; and collect
    the young objects only once :data:`GC_YOUNG_THRESHOLD` of them have piled up."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, GC_MIDDLE_THRESHOLD, GC_OLD_THRESHOLD)


def header_timeout_protocol(seconds: float, body_seconds: float) -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol, closing a connection whose request head takes over
    ``seconds``, ending one whose answer went before its request body had all come, and
    answering a request that is not HTTP in JSON like the API's other errors.

    uvicorn has no such timeout (its keep-alive timer stops at a request's first
    byte), so a client sending its headers a byte at a time, or a connection that
    never sends anything, would be held open for ever. Here a timer starts when
    the connection opens or a request's first bytes arrive, and stops once the
    parser has the whole head; if it fires first, the connection is closed.
    (httptools parses in C: about a third of a move's server time went to h11.)

    A request body its handler does not read (``GET /healthz`` with ``Content-Length:
    100000``, or chunks) would hold the connection as long as the client trickles it:
    uvicorn reads it on after the answer, each byte restarting the keep-alive timer.
    Here an answer that starts before the body has all come says ``connection: close``
    and ends the connection: the answer is sent and the sending side shut, and what the
    client still sends is read and dropped until it closes, for ``body_seconds`` at
    most (a lingering close: closing at once, with bytes unread, would reset the
    connection, and could lose the answer before the client reads it).
    """
    from uvicorn.protocols.http.httptools_impl import (
        STATUS_LINE,
        HttpToolsProtocol,
        RequestResponseCycle,
    )

    bad_request = json.dumps({"error": NOT_HTTP, "status": BAD_REQUEST}).encode()
    bad_request_head = b"".join(
        (
            STATUS_LINE[BAD_REQUEST],
            b"content-type: application/json\r\n",
            b"content-length: " + str(len(bad_request)).encode() + b"\r\n",
            b"connection: close\r\n\r\n",
        )
    )

    class HeaderTimeoutProtocol(HttpToolsProtocol):
        _head_timer: asyncio.TimerHandle | None = None
        _head_bytes = 0  # received since the head began, while it is not complete
        _in_head = True
        _linger_timer: asyncio.TimerHandle | None = None  # set once the connection is ending

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._start_head_timer()

        def data_received(self, data: bytes) -> None:
            if self._linger_timer is not None:
                return  # the rest of a body nobody reads, or more: dropped
            if self._in_head:
                self._head_bytes += len(data)
            super().data_received(data)
            too_long = self._in_head and self._head_bytes > MAX_HEAD_BYTES
            if too_long and not self.transport.is_closing():
                self.send_400_response(NOT_HTTP)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._in_head = True
            self._start_head_timer()

        def on_headers_complete(self) -> None:
            self._stop_head_timer()
            self._in_head = False
            self._head_bytes = 0
            super().on_headers_complete()
            cycle = self.cycle
            if cycle is not None and cycle.scope is self.scope:  # this request's (no upgrade)
                self._close_if_answered_early(cycle)

        def _close_if_answered_early(self, cycle: RequestResponseCycle) -> None:
            """Have ``cycle`` end the connection if its answer starts before its body has
            all come: ``connection: close``, and closing lingers (:meth:`_linger`); else
            send its answer's head with the body's first bytes (:class:`_Joined`)."""
            send = cycle.send

            joined: _Joined | None = None

            async def answer(message: ASGISendEvent) -> None:
                nonlocal joined
                if message["type"] == "http.response.start":
                    if cycle.more_body:
                        cycle.keep_alive = False
                        cycle.transport = cast("asyncio.Transport", _Lingering(self))
                    else:
                        joined = _Joined(self.transport)
                        cycle.transport = cast("asyncio.Transport", joined)
                await send(message)
                if message["type"] == "http.response.body" and not message.get("more_body"):
                    if joined is not None:
                        joined.flush()  # a HEAD's answer, or one with no body: its head alone
                    # The cycle holds this function, which holds the cycle: a reference
                    # cycle a request, which only the collector's full passes would free.
                    del cycle.send

            cycle.send = answer  # type: ignore[method-assign]

        def _linger(self) -> None:
            """End the connection: the answer is sent, then the sending side is shut;
            what comes meanwhile is dropped, until the client closes, ``body_seconds``
            at most."""
            if self._linger_timer is not None or self.transport.is_closing():
                return
            self._linger_timer = self.loop.call_later(body_seconds, self._linger_over)
            if self.transport.can_write_eof():
                self.transport.write_eof()
            else:  # TLS cannot shut one side
                self.transport.close()

        def _linger_over(self) -> None:
            if not self.transport.is_closing():
                self.transport.close()

        def on_response_complete(self) -> None:
            if self._linger_timer is None:
                super().on_response_complete()
                return
            self.server_state.total_requests += 1
            self.pipeline.clear()  # no more answers on a connection that is ending
            self.flow.resume_reading()  # the client's bytes are read, to be dropped

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_head_timer()
            if self._linger_timer is not None:
                self._linger_timer.cancel()
            super().connection_lost(exc)

        def _start_head_timer(self) -> None:
            if self._head_timer is None:
                self._head_timer = self.loop.call_later(seconds, self._head_timed_out)

        def _stop_head_timer(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_timed_out(self) -> None:
            self._head_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def send_400_response(self, msg: str) -> None:
            """As uvicorn's, but in JSON."""
            self._stop_head_timer()
            self.transport.write(bad_request_head + bad_request)
            self.transport.close()

    class _Joined:
        """The connection as a request's cycle sees it: the answer's head is held and
        goes out with its body's first bytes, in one write (one segment, one wake-up
        of the client, not two)."""

        def __init__(self, transport: asyncio.Transport) -> None:
            self.transport = transport
            self.head: bytes | None = None
            self.started = False

        def write(self, data: bytes) -> None:
            if not self.started:  # the head: held
                self.started, self.head = True, data
                return
            if self.head is not None:
                data, self.head = self.head + data, None
            self.transport.write(data)

        def flush(self) -> None:
            if self.head is not None:
                self.transport.write(self.head)
                self.head = None

        def is_closing(self) -> bool:
            return self.transport.is_closing()

        def close(self) -> None:
            self.flush()
            self.transport.close()

    class _Lingering:
        """The connection as a request's cycle sees it once its answer has gone before its
        body: writes go through, and closing lingers."""

        def __init__(self, protocol: HeaderTimeoutProtocol) -> None:
            self.protocol = protocol

        def write(self, data: bytes) -> None:
            self.protocol.transport.write(data)

        def is_closing(self) -> bool:
            return self.protocol.transport.is_closing()

        def close(self) -> None:
            self.protocol._linger()

    return HeaderTimeoutProtocol
