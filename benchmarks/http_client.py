"""The benchmarks' tiny HTTP/1.1 client, and what a browser sends when it opens the page."""

from __future__ import annotations

import asyncio
import gzip
import json
from typing import Any

NAVIGATION = {
    "Accept-Encoding": "gzip, deflate, br",
    "Sec-Fetch-Dest": "document",
    "Sec-Fetch-Mode": "navigate",
}
"""What a browser says when it opens the page."""
DATA_BLOCK = '<script type="application/json" id="page-data">'
"""Where the page carries the player's data (``bonanza.web.page.DATA_BLOCK``)."""


def page_data(page: bytes) -> dict[str, Any]:
    """The data block of the page (gzip compressed, as asked with ``NAVIGATION``): what
    the browser draws the table from with no API request (``web/page.py``)."""
    text = gzip.decompress(page).decode()
    block = text.partition(DATA_BLOCK)[2].partition("</script>")[0]
    found: dict[str, Any] = json.loads(block)
    return found


class Connection:
    """A tiny keep-alive HTTP/1.1 client: cheap enough to leave the CPU to the server.
    ``fresh``: a new TCP connection for every request (``Connection: close``)."""

    def __init__(self, host: str, port: int, fresh: bool = False) -> None:
        self.host = host
        self.port = port
        self.fresh = fresh
        self.cookie = ""
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        if self.reader is not None and self.reader.at_eof():
            self.close()  # the server closed it while it was idle (its keep-alive timeout)
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        payload = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(payload)}\r\n"
        )
        if payload:
            head += "Content-Type: application/json\r\n"
        if self.cookie:
            head += f"Cookie: {self.cookie}\r\n"
        if self.fresh:
            head += "Connection: close\r\n"
        head += "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
        self.writer.write(head.encode() + b"\r\n" + payload)
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("the server closed the connection before answering")
        status = int(status_line.split()[1])
        length = 0
        closing = chunked = False
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            name = name.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "set-cookie":
                self.cookie = value.strip().split(";", 1)[0]
            elif name == "connection" and value.strip().lower() == "close":
                closing = True
            elif name == "transfer-encoding" and value.strip().lower() == "chunked":
                chunked = True
        data = await self.read_chunks() if chunked else await self.reader.readexactly(length)
        if closing or self.fresh:  # the connection ends: the next request opens another
            self.close()
        return status, data

    async def read_chunks(self) -> bytes:
        """A chunked body, whole (the page comes in chunks, with no Content-Length)."""
        assert self.reader is not None
        parts: list[bytes] = []
        while True:
            size = int((await self.reader.readline()).split(b";")[0], 16)
            if size == 0:
                await self.reader.readline()  # the blank line after the last chunk
                return b"".join(parts)
            parts.append(await self.reader.readexactly(size))
            await self.reader.readline()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None
