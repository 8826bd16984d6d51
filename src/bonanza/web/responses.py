"""JSON out: every answer is a declared type (a ``msgspec.Struct``), encoded by one
shared encoder.

msgspec writes the struct's fields in order, leaves out those ``UNSET``, and
writes compact UTF-8 (non-ASCII as it is), as Starlette's ``JSONResponse`` did.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import msgspec
from starlette.background import BackgroundTask
from starlette.responses import Response

ENCODER: Final = msgspec.json.Encoder()
"""The one JSON encoder of the server's answers (made once: it keeps its buffers)."""


def encode(answer: object) -> bytes:
    """``answer`` (a declared type, or data made of them) as JSON."""
    return ENCODER.encode(answer)


class JSONAnswer(Response):
    """An answer of a declared type, as JSON."""

    media_type = "application/json"

    def __init__(
        self,
        content: msgspec.Struct,
        status_code: int = 200,
        headers: Mapping[str, str] | None = None,
        background: BackgroundTask | None = None,
    ) -> None:
        super().__init__(content, status_code, headers, background=background)

    def render(self, content: Any) -> bytes:
        return encode(content)
