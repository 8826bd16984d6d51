"""``bonanza serve`` refuses limits past their upper bounds (a huge number of connections
or seconds) with one line naming the allowed range, and ``--help`` gives the bounds."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from bonanza.cli import build_parser
from bonanza.cli.serve import limits_from
from bonanza.web.limits import (
    MOST_BODY_BYTES,
    MOST_CONNECTIONS,
    MOST_JSON_DEPTH,
    MOST_SEARCH_WORKERS,
    MOST_SECONDS,
)
from tests.test_cli_serve import bonanza

HUGE = ["1000000000000", "1e300", "inf", "nan"]


@pytest.fixture(scope="module")
def taken_port() -> Iterator[int]:
    """A port already listened on: were a limit taken, the run would end at once on it
    (port in use), never serving."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        yield held.getsockname()[1]


@pytest.mark.parametrize("value", HUGE)
@pytest.mark.parametrize(("name", "allowed"), [
    ("--max-connections", f"a whole number of at least 1 and at most {MOST_CONNECTIONS}"),
    ("--header-timeout", f"a number above 0 and at most {MOST_SECONDS}"),
    ("--search-workers", f"a whole number of at least 1 and at most {MOST_SEARCH_WORKERS}"),
    ("--max-body-bytes", f"a whole number of at least 1 and at most {MOST_BODY_BYTES}"),
    ("--max-json-depth", f"a whole number of at least 1 and at most {MOST_JSON_DEPTH}"),
])
def test_a_huge_limit_is_one_line_naming_the_range_and_status_2(
    name: str, allowed: str, value: str, taken_port: int
) -> None:
    result = bonanza("serve", "--port", str(taken_port), name, value)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"bonanza serve: {name} must be {allowed}, not {value!r}\n"


def test_the_bounds_themselves_are_taken_and_given_in_help() -> None:
    args = build_parser().parse_args([
        "serve", "--max-connections", str(MOST_CONNECTIONS), "--header-timeout", str(MOST_SECONDS)
    ])
    limits = limits_from(args)
    assert (limits.max_connections, limits.header_timeout) == (MOST_CONNECTIONS, MOST_SECONDS)
    result = bonanza("serve", "--help")
    assert result.returncode == 0
    help_text = " ".join(result.stdout.split())
    assert f"Default: 4000. At most {MOST_CONNECTIONS}." in help_text
    assert f"Default: 10.0. At most {MOST_SECONDS}." in help_text
