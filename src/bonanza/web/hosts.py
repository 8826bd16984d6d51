"""Serving only the ``Host`` names configured, refusing others in JSON like the rest of the API.

A name is allowed as given (any case), and ``*.example.com`` allows its
subdomains. The port is not part of the name: ``localhost:8000`` is
``localhost``, and ``[::1]:8000`` is ``[::1]``. A server on a loopback address
with no names configured allows only the machine's own names
(``LOCAL_NAMES``), so a page of another site whose name was rebound to
127.0.0.1 (DNS rebinding) cannot reach this machine's player.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from starlette.types import ASGIApp, Receive, Scope, Send

from bonanza.web.errors import error_response

BAD_HOST = 400
MAX_QUOTED = 100
"""Characters of a refused Host header quoted back in the error."""
LOCAL_NAMES: Final = ("localhost", "127.0.0.1", "[::1]")
"""The names a loopback server answers to when no others are configured."""


def host_name(header: str) -> str:
    """The name in a ``Host`` header, without its port, in lower case."""
    header = header.strip().lower()
    if header.startswith("["):  # an IPv6 address: [::1]:8000
        end = header.find("]")
        return header[: end + 1] if end > 0 else header
    name, _, _port = header.partition(":")
    return name


class HostNames:
    """The ``Host`` names served: ``hosts`` as given (any case), ``*.example.com`` its
    subdomains, ``*`` any."""

    def __init__(self, hosts: Sequence[str]) -> None:
        self.names = frozenset(host.lower() for host in hosts if not host.startswith("*."))
        self.suffixes = tuple(host.lower()[1:] for host in hosts if host.startswith("*."))
        self.any = "*" in self.names

    def allows(self, header: str) -> bool:
        """Whether a request with this ``Host`` header is served."""
        name = host_name(header)
        return self.any or name in self.names or (bool(name) and name.endswith(self.suffixes))


class AllowedHostsMiddleware:
    """Passes requests whose ``Host`` names one of ``hosts`` (``*.example.com``: its
    subdomains) to ``app``; answers the others 400 in JSON."""

    def __init__(self, app: ASGIApp, hosts: Sequence[str]) -> None:
        self.app = app
        self.allows = HostNames(hosts).allows

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = next((value for name, value in scope["headers"] if name == b"host"), b"")
        text = host.decode("latin-1")
        if self.allows(text):
            await self.app(scope, receive, send)
            return
        quoted = repr(text[:MAX_QUOTED])
        await error_response(BAD_HOST, f"this server does not serve the host {quoted}")(
            scope, receive, send
        )
