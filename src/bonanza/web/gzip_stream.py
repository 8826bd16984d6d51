"""Gzip for texts that all begin the same way: the opening is compressed once.

The page is the same template for every player up to its data, and its data begins
with the same words. Compressing the whole page for each request cost about a
third of a page load; here the common opening is compressed once, at start-up,
and each page's own rest is compressed alone, so a request compresses only what
is its own. The opening's deflate blocks end flushed to a byte and not final, so
the rest's blocks, from a fresh raw deflate compressor, simply follow them; the
gzip trailer's CRC-32 continues the opening's, and its size counts both. The
result is one ordinary gzip stream (one member), which every browser reads.

Copying the compressor as it stood after the opening (``zlib``'s ``copy``) would
let the rest refer back into the opening, but copying its state costs about 90 µs
a page; a small fresh compressor costs about 12 µs, and the page's own rest
(its player's data) has little in common with the template.
"""

from __future__ import annotations

import struct
import zlib
from typing import Final

GZIP_WINDOW: Final = 16 + zlib.MAX_WBITS
"""zlib's window bits for a gzip stream (its header and trailer)."""
REST_WINDOW_BITS: Final = -12
"""A raw deflate stream (negative: no header) with a 4 KiB window, for the rest."""
REST_MEMORY_LEVEL: Final = 5
"""zlib's memory level for the rest: a small table, quick to set up."""
SIZE_MASK: Final = 0xFFFFFFFF
"""The gzip trailer keeps the text's size modulo 2**32."""
TRAILER: Final = struct.Struct("<II")
"""The gzip trailer: the CRC-32 and the size, little-endian."""


class OpeningGzip:
    """The gzip stream of ``opening`` followed by any rest, at ``level``: :attr:`head`
    (the same for all), then :meth:`rest` of each text's own part."""

    def __init__(self, opening: bytes, level: int) -> None:
        compressor = zlib.compressobj(level, zlib.DEFLATED, GZIP_WINDOW)
        self.head: bytes = compressor.compress(opening) + compressor.flush(zlib.Z_SYNC_FLUSH)
        """The stream's start: its header and the opening, compressed and flushed."""
        self._level = level
        self._opening_crc = zlib.crc32(opening)
        self._opening_size = len(opening)

    def rest(self, tail: bytes) -> bytes:
        """The stream's end after :attr:`head`, for the text ``opening + tail``."""
        compressor = zlib.compressobj(
            self._level, zlib.DEFLATED, REST_WINDOW_BITS, REST_MEMORY_LEVEL
        )
        trailer = TRAILER.pack(
            zlib.crc32(tail, self._opening_crc), (self._opening_size + len(tail)) & SIZE_MASK
        )
        return compressor.compress(tail) + compressor.flush() + trailer


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip (as Starlette's middleware reads it)."""
    return "gzip" in accept_encoding
