"""The server's protocol writes each answer's head and body in one write: one segment,
so the client is woken once per answer, not twice (issue 32)."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import RequestResponseCycle
from uvicorn.server import ServerState

from bonanza.cli.serving import header_timeout_protocol

BODY = b'{"ok":true}'
HEAD_SECONDS = 5.0


class RecordingTransport(asyncio.Transport):
    """A connection that keeps what is written to it, one entry per write."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.writes.append(bytes(data))

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 5000)}.get(name)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...

    def can_write_eof(self) -> bool:
        return True

    def write_eof(self) -> None: ...


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    head = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(BODY))]
    await send({"type": "http.response.start", "status": 200, "headers": head})
    await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else BODY})


async def answers_to(request: bytes) -> list[bytes]:
    """The writes a connection gets for ``request``."""
    config = uvicorn.Config(app, log_level="warning", access_log=False)
    config.load()
    protocol_class = header_timeout_protocol(HEAD_SECONDS, HEAD_SECONDS)
    protocol: Any = protocol_class(config=config, server_state=ServerState(), app_state={})  # type: ignore[call-arg]
    transport = RecordingTransport()
    protocol.connection_made(transport)
    protocol.data_received(request)
    for _ in range(50):
        await asyncio.sleep(0)
    protocol.connection_lost(None)
    return transport.writes


def test_an_answer_is_one_write() -> None:
    writes = asyncio.run(answers_to(b"GET /x HTTP/1.1\r\nHost: a\r\n\r\n"))
    assert len(writes) == 1
    assert writes[0].startswith(b"HTTP/1.1 200") and writes[0].endswith(b"\r\n\r\n" + BODY)


def test_answers_on_one_connection_are_one_write_each() -> None:
    request = b"GET /x HTTP/1.1\r\nHost: a\r\n\r\n"
    writes = asyncio.run(answers_to(request * 3))
    assert len(writes) == 3 and all(w.endswith(BODY) for w in writes)


def test_a_head_request_still_gets_its_head() -> None:
    writes = asyncio.run(answers_to(b"HEAD /x HTTP/1.1\r\nHost: a\r\n\r\n"))
    assert len(writes) == 1 and writes[0].startswith(b"HTTP/1.1 200")
    assert writes[0].endswith(b"\r\n\r\n")


def test_an_answered_request_leaves_no_reference_cycle_to_collect() -> None:
    """Each request's cycle is freed as soon as it is answered, not by the collector's
    passes (which, with every request leaving one, ran full passes every few seconds)."""
    request = b"GET /x HTTP/1.1\r\nHost: a\r\n\r\n"
    gc.collect()
    gc.disable()
    try:
        writes = asyncio.run(answers_to(request * 20))
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        cycles = [o for o in gc.garbage if isinstance(o, RequestResponseCycle)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert len(writes) == 20
    assert cycles == []
