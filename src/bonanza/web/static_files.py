"""The page's files, served from memory and gzip-compressed once, not per request.

Starlette's ``StaticFiles`` reads each file in a worker thread on every request,
and a compressing middleware then gzips it again every time: on a first load
that fetches some twenty files at once, the answers queued behind each other
for hundreds of milliseconds. Here every file is read and compressed when
first asked for, and again only when its modification time changes (so an
edited file is served fresh without a restart). Answers carry an ETag, and a
matching ``If-None-Match`` gets a 304. Some paths name no file but files joined
into one (``bundle``): the page's modules as one script, its sheets as one sheet.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from bonanza.web.bundle import Joined

COMPRESS_LEVEL: Final = 6
"""gzip level: nearly the size of 9 at a fraction of the time (done once per file)."""
COMPRESS_FROM_BYTES: Final = 500
"""Smaller files go out as they are."""
CACHE_CONTROL: Final = "no-cache"
"""Browsers keep the files but ask again (cheaply, by ETag): a new release shows at once."""


MISSING: Final = -1
"""The modification time of a file that is gone."""

Joiner = Callable[[Path], Joined]
"""Makes a joined file from the folder's files."""


def _stamp(paths: tuple[Path, ...]) -> tuple[int, ...]:
    """The files' modification times: a change in any makes the answer stale."""
    stamps = []
    for path in paths:
        try:
            stamps.append(path.stat().st_mtime_ns)
        except OSError:
            stamps.append(MISSING)
    return tuple(stamps)


@dataclass(frozen=True, slots=True)
class _File:
    sources: tuple[Path, ...]
    stamp: tuple[int, ...]
    body: bytes
    packed: bytes | None
    media_type: str
    etag: str


class PackedStaticFiles:
    """An ASGI app serving the files under ``directory`` (GET and HEAD), and the
    joined files ``bundles`` names (a path under the folder, and what joins it)."""

    def __init__(self, directory: Path, bundles: Mapping[str, Joiner] | None = None) -> None:
        self.directory = directory.resolve()
        self.bundles = dict(bundles or {})
        self._files: dict[str, _File] = {}

    def _read(self, relative: str) -> tuple[bytes, tuple[Path, ...]]:
        """The body of ``relative`` and the files it was made of."""
        joiner = self.bundles.get(relative)
        if joiner is not None:
            joined = joiner(self.directory)
            return joined.text.encode(), joined.sources
        try:  # a NUL byte or an over-long name names no file: not a server error
            path = (self.directory / relative).resolve()
            found = self.directory in path.parents and path.is_file()
        except (ValueError, OSError):
            found = False
        if not found:
            raise HTTPException(404, f"no file {relative!r}")
        return path.read_bytes(), (path,)

    def _load(self, relative: str) -> _File:
        known = self._files.get(relative)
        if known is not None and known.stamp == _stamp(known.sources):
            return known
        body, sources = self._read(relative)
        stamp = _stamp(sources)
        packed = (
            gzip.compress(body, COMPRESS_LEVEL, mtime=0)
            if len(body) >= COMPRESS_FROM_BYTES
            else None
        )
        media_type = mimetypes.guess_type(relative)[0] or "application/octet-stream"
        if media_type.startswith("text/") or media_type.endswith("javascript"):
            media_type += "; charset=utf-8"
        etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
        loaded = self._files[relative] = _File(sources, stamp, body, packed, media_type, etag)
        return loaded

    def text(self, relative: str) -> str:
        """The file at ``relative`` (a path under the folder), as text."""
        return self._load(relative).body.decode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] not in ("GET", "HEAD"):
            raise HTTPException(405, "the page's files are only read (GET)")
        path, root = scope["path"], scope.get("root_path", "")
        relative = (path[len(root) :] if root and path.startswith(root) else path).lstrip("/")
        found = self._load(relative)
        headers = Headers(scope=scope)
        common = {"ETag": found.etag, "Cache-Control": CACHE_CONTROL, "Vary": "Accept-Encoding"}
        if headers.get("if-none-match") == found.etag:
            await Response(status_code=304, headers=common)(scope, receive, send)
            return
        body = found.body
        if found.packed is not None and "gzip" in headers.get("accept-encoding", ""):
            body = found.packed
            common["Content-Encoding"] = "gzip"
        if scope["method"] == "HEAD":
            common["Content-Length"] = str(len(body))
            body = b""
        await Response(body, media_type=found.media_type, headers=common)(scope, receive, send)
