"""``bonanza serve``'s options for hosting: request logs, a proxy in front, allowed hosts.

Each is also an environment variable (:mod:`bonanza.cli.environment`), as every
option of ``bonanza serve`` is.
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import re
import sys
from dataclasses import dataclass
from typing import Any, TextIO

from bonanza.core.errors import BonanzaError
from bonanza.web.access_log import JsonFormatter, TextFormatter

LOG_FORMATS = ("text", "json")
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")
"""uvicorn's log levels (``--log-level``)."""
DEFAULT_FORWARDED_ALLOW_IPS = "127.0.0.1"
HOST_PATTERN = re.compile(r"(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*|\*|\[[0-9a-f:.]+\]")
"""A host name or IPv4 address, ``*.`` and a domain (its subdomains), ``*`` (any host), or
an IPv6 address in brackets, as in a ``Host`` header."""
OWN_LOGGERS = "bonanza"
"""The logger whose records (requests, errors) are shown from level INFO up."""
DEFAULT_WORKERS = 1
MAX_WORKERS = 256
"""The most ``--workers``: far beyond any machine's cores, well short of a typo's
hundred thousand processes, which would bring the machine down."""


@dataclass(frozen=True, slots=True)
class Hosting:
    """The hosting options, checked."""

    log_format: str = "text"
    log_level: str = "warning"
    proxy_headers: bool = False
    forwarded_allow_ips: str = DEFAULT_FORWARDED_ALLOW_IPS
    allowed_hosts: tuple[str, ...] | None = None
    """None: every ``Host`` is served."""
    workers: int = DEFAULT_WORKERS
    """Processes serving the address."""


def register(parser: argparse.ArgumentParser) -> None:
    """Add the hosting options to ``bonanza serve``'s parser."""
    group = parser.add_argument_group("hosting")
    group.add_argument(
        "--log-format",
        choices=LOG_FORMATS,
        default="text",
        help="request and error logs on stderr: text lines, or one JSON object a line"
        " (default text)",
    )
    group.add_argument(
        "--proxy-headers",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="the server is behind a TLS proxy: take the client's address and scheme from"
        " X-Forwarded-For and X-Forwarded-Proto when the proxy is one of --forwarded-allow-ips,"
        " and mark the player cookie Secure (default off)",
    )
    group.add_argument(
        "--forwarded-allow-ips",
        default=DEFAULT_FORWARDED_ALLOW_IPS,
        metavar="IPS",
        help="with --proxy-headers, the proxies trusted: IP addresses or networks separated by"
        f" commas, or * for any (default {DEFAULT_FORWARDED_ALLOW_IPS})",
    )
    group.add_argument(
        "--allowed-hosts",
        default=None,
        metavar="HOSTS",
        help="serve only requests whose Host header is one of these names, separated by commas"
        " (*.example.com: its subdomains); others get 400 (default: any host)",
    )
    group.add_argument(
        "--workers",
        default=str(DEFAULT_WORKERS),
        metavar="N",
        help="processes serving the address, to use more cores (default"
        f" {DEFAULT_WORKERS}). They share the database (SQLite: one file; PostgreSQL:"
        " each has its own connection pool); each has its own search threads"
        " (--search-workers), caches, connection limit and per-player search rate limit,"
        " so the limits of one process apply N times over",
    )


def hosts_from(text: str) -> tuple[str, ...]:
    """``--allowed-hosts``'s names, lower case."""
    hosts = tuple(name.strip().lower() for name in text.split(",") if name.strip())
    bad = [name for name in hosts if not HOST_PATTERN.fullmatch(name)]
    if not hosts or bad:
        raise BonanzaError(
            "--allowed-hosts must be host names separated by commas (*.example.com for"
            f" subdomains), not {(bad[0] if bad else text)!r}"
        )
    return hosts


def proxies_from(text: str) -> str:
    """``--forwarded-allow-ips``, checked: IP addresses or networks, or ``*``."""
    entries = [entry.strip() for entry in text.split(",") if entry.strip()]
    for entry in entries or [text]:
        if entry == "*":
            continue
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise BonanzaError(
                "--forwarded-allow-ips must be IP addresses or networks separated by commas,"
                f" or *, not {entry!r}"
            ) from None
    return ",".join(entries)


def workers_from(text: str) -> int:
    """``--workers``'s value: a whole number from 1 to ``MAX_WORKERS``."""
    try:
        workers = int(text)
    except ValueError:
        workers = 0
    if not 1 <= workers <= MAX_WORKERS:
        raise BonanzaError(
            f"--workers must be a whole number from 1 to {MAX_WORKERS}, not {text!r}"
        )
    return workers


def hosting_from(args: argparse.Namespace) -> Hosting:
    """The hosting options of parsed arguments, checked (a :class:`BonanzaError` if bad)."""
    level = str(args.log_level).lower()
    if level not in LOG_LEVELS:
        raise BonanzaError(f"--log-level must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
    return Hosting(
        log_format=str(args.log_format),
        log_level=level,
        proxy_headers=bool(args.proxy_headers),
        forwarded_allow_ips=proxies_from(str(args.forwarded_allow_ips)),
        allowed_hosts=None if args.allowed_hosts is None else hosts_from(str(args.allowed_hosts)),
        workers=workers_from(str(args.workers)),
    )


def configure_logging(log_format: str, stream: TextIO | None = None) -> logging.Handler:
    """Send every log record to ``stream`` (default stderr) in ``log_format``; Bonanza's
    own from INFO (a line per request), the others (uvicorn's) at their own levels."""
    # No format here shows a record's thread or process: spare each request's
    # record looking them up.
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    handler = logging.StreamHandler(sys.stderr if stream is None else stream)
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(logging.WARNING)
    logging.getLogger(OWN_LOGGERS).setLevel(logging.INFO)
    return handler


def uvicorn_options(hosting: Hosting) -> dict[str, Any]:
    """What ``uvicorn.run`` takes from the hosting options.

    uvicorn's own access log is off (ours replaces it), and so is its logging set-up
    (:func:`configure_logging` does it); proxy headers are read only when asked for
    (uvicorn would otherwise trust them from 127.0.0.1).
    """
    return {
        "log_level": hosting.log_level,
        "log_config": None,
        "access_log": False,
        "proxy_headers": hosting.proxy_headers,
        "forwarded_allow_ips": hosting.forwarded_allow_ips,
    }
