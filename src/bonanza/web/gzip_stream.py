"""Gzip for texts that all begin the same way: the opening is compressed once.

The page is the same template for every player up to its data, and its data begins
with the same words. Compressing the whole page for each request cost about a
third of a page load; here the common opening is compressed once, at start-up,
and each page's own rest continues a copy of the compressor as it stood after the
opening (``zlib``'s ``copy``), so a request compresses only what is its own. The
result is one ordinary gzip stream, byte for byte what compressing the whole
text would give with a flush after the opening.
"""

from __future__ import annotations

import zlib
from typing import Final

GZIP_WINDOW: Final = 16 + zlib.MAX_WBITS
"""zlib's window bits for a gzip stream (its header and trailer)."""


class OpeningGzip:
    """The gzip stream of ``opening`` followed by any rest, at ``level``: :attr:`head`
    (the same for all), then :meth:`rest` of each text's own part."""

    def __init__(self, opening: bytes, level: int) -> None:
        self._after_opening = zlib.compressobj(level, zlib.DEFLATED, GZIP_WINDOW)
        self.head: bytes = self._after_opening.compress(opening) + self._after_opening.flush(
            zlib.Z_SYNC_FLUSH
        )
        """The stream's start: the opening, compressed and flushed."""

    def rest(self, tail: bytes) -> bytes:
        """The stream's end after :attr:`head`, for the text ``opening + tail``."""
        compressor = self._after_opening.copy()
        return compressor.compress(tail) + compressor.flush()


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip (as Starlette's middleware reads it)."""
    return "gzip" in accept_encoding
