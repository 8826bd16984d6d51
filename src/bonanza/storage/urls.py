"""What a ``--db`` value names: a database URL (``postgresql://...``) or a SQLite file."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

POSTGRES_SCHEMES = ("postgresql", "postgres")
"""The URL schemes of a PostgreSQL database (libpq's two)."""
URL_MARK = "://"


def is_database_url(spec: str | Path) -> bool:
    """Whether a ``--db`` value is a URL (``scheme://...``) rather than a file."""
    return isinstance(spec, str) and URL_MARK in spec


def url_scheme(url: str) -> str:
    """The scheme of a URL, in lower case (``postgresql``)."""
    return url.partition(URL_MARK)[0].lower()


def redacted(spec: str | Path) -> str:
    """A ``--db`` value to show: a URL's password, if any, replaced by ``***``."""
    if not is_database_url(spec):
        return str(spec)
    url = str(spec)
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:  # a malformed URL: show none of it
        return f"{url_scheme(url)}://…"
    if not password:
        return url
    user, _, host = parts.netloc.rpartition("@")
    name = user.partition(":")[0]
    return urlunsplit(parts._replace(netloc=f"{name}:***@{host}"))
