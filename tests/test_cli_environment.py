"""Every ``bonanza serve`` option is also an environment variable; the option wins."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from bonanza.cli import build_parser, environment
from bonanza.cli.hosting import hosting_from
from bonanza.cli.serve import limits_from, port_from
from bonanza.core.errors import BonanzaError

STARTUP = 30.0


def serve_parser() -> argparse.ArgumentParser:
    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    serve: argparse.ArgumentParser = subparsers.choices["serve"]
    return serve


def parse(monkeypatch: pytest.MonkeyPatch, env: dict[str, str], *argv: str) -> argparse.Namespace:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return build_parser().parse_args(["serve", *argv])


def test_names_come_from_the_options() -> None:
    assert environment.variable_for("--search-deadline") == "BONANZA_SEARCH_DEADLINE"
    names = environment.variables(serve_parser())
    for flag in ("--db", "--host", "--port", "--max-history-moves", "--sync"):
        assert names[flag] == environment.variable_for(flag)
    assert names["--proxy-headers"] == "BONANZA_PROXY_HEADERS"
    assert names["--allowed-hosts"] == "BONANZA_ALLOWED_HOSTS"
    assert names["--forwarded-allow-ips"] == "BONANZA_FORWARDED_ALLOW_IPS"
    assert names["--log-format"] == "BONANZA_LOG_FORMAT"
    assert "--help" not in names
    assert all(flag.startswith("--") and not flag.startswith("--no-") for flag in names)


def test_help_names_each_variable() -> None:
    help_text = " ".join(serve_parser().format_help().split())  # as one line, unwrapped
    for variable in environment.variables(serve_parser()).values():
        assert f"[env: {variable}]" in help_text


def test_variables_set_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    env = {
        "BONANZA_DB": "/tmp/x.db",
        "BONANZA_HOST": "0.0.0.0",
        "BONANZA_PORT": "8124",
        "BONANZA_MAX_HISTORY_MOVES": "300",
        "BONANZA_SEARCH_DEADLINE": "2.5",
        "BONANZA_SEARCH_PROCESSES": "yes",
        "BONANZA_SYNC": "full",
        "BONANZA_LOCAL_PLAYER": "0",
        "BONANZA_PROXY_HEADERS": "1",
        "BONANZA_FORWARDED_ALLOW_IPS": "10.0.0.0/8, 127.0.0.1",
        "BONANZA_ALLOWED_HOSTS": "a.example,*.b.example",
        "BONANZA_LOG_FORMAT": "json",
        "BONANZA_LOG_LEVEL": "INFO",
    }
    args = parse(monkeypatch, env)
    with environment.checked(args):
        port = port_from(args.port)
        limits = limits_from(args)
        hosting = hosting_from(args)
    assert (args.db, args.host, port) == ("/tmp/x.db", "0.0.0.0", 8124)
    assert limits.max_history_moves == 300 and limits.search_deadline == 2.5
    assert limits.search_processes is True and limits.sync == "full"
    assert args.local_player is False
    assert hosting.proxy_headers is True
    assert hosting.forwarded_allow_ips == "10.0.0.0/8,127.0.0.1"
    assert hosting.allowed_hosts == ("a.example", "*.b.example")
    assert hosting.log_format == "json" and hosting.log_level == "info"


def test_an_option_wins_over_its_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    env = {
        "BONANZA_PORT": "8124",
        "BONANZA_PROXY_HEADERS": "1",
        "BONANZA_SYNC": "full",
        "BONANZA_LOG_FORMAT": "json",
    }
    args = parse(monkeypatch, env, "--port", "8125", "--no-proxy-headers", "--sync", "normal")
    with environment.checked(args):
        assert port_from(args.port) == 8125
        assert limits_from(args).sync == "normal"
        hosting = hosting_from(args)
    assert hosting.proxy_headers is False and hosting.log_format == "json"


@pytest.mark.parametrize("empty", [None, "", " "])
def test_without_variables_the_defaults_stand(
    monkeypatch: pytest.MonkeyPatch, empty: str | None
) -> None:
    for name in environment.variables(serve_parser()).values():
        if empty is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, empty)
    args = build_parser().parse_args(["serve"])
    with environment.checked(args):
        hosting = hosting_from(args)
        assert port_from(args.port) == 8000
    assert hosting.allowed_hosts is None and hosting.proxy_headers is False
    assert hosting.forwarded_allow_ips == "127.0.0.1" and hosting.log_format == "text"
    assert args.db is None and args.local_player is None and args.open is False


@pytest.mark.parametrize(
    ("variable", "value", "start"),
    [
        ("BONANZA_PORT", "99999", "BONANZA_PORT must be from 1 to 65535"),
        ("BONANZA_MAX_CONNECTIONS", "0", "BONANZA_MAX_CONNECTIONS must be a whole number"),
        ("BONANZA_SEARCH_DEADLINE", "soon", "BONANZA_SEARCH_DEADLINE must be a number"),
        ("BONANZA_SYNC", "off", "BONANZA_SYNC must be normal or full"),
        ("BONANZA_PROXY_HEADERS", "maybe", "BONANZA_PROXY_HEADERS must be 1 or 0"),
        ("BONANZA_SEARCH_PROCESSES", "2", "BONANZA_SEARCH_PROCESSES must be 1 or 0"),
        ("BONANZA_LOG_FORMAT", "xml", "BONANZA_LOG_FORMAT must be text or json"),
        ("BONANZA_LOG_LEVEL", "loud", "BONANZA_LOG_LEVEL must be one of"),
        ("BONANZA_ALLOWED_HOSTS", "a b", "BONANZA_ALLOWED_HOSTS must be host names"),
        ("BONANZA_ALLOWED_HOSTS", "a*.example", "BONANZA_ALLOWED_HOSTS must be host names"),
        ("BONANZA_FORWARDED_ALLOW_IPS", "proxy", "BONANZA_FORWARDED_ALLOW_IPS must be IP"),
    ],
)
def test_a_bad_variable_is_named(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, start: str
) -> None:
    args = parse(monkeypatch, {variable: value})
    with pytest.raises(BonanzaError) as caught, environment.checked(args):
        port_from(args.port)
        limits_from(args)
        hosting_from(args)
    assert str(caught.value).startswith(start)
    assert value in str(caught.value)


def test_a_bad_option_is_still_named_as_the_option(monkeypatch: pytest.MonkeyPatch) -> None:
    args = parse(monkeypatch, {"BONANZA_PORT": "8124"}, "--port", "0")
    with pytest.raises(BonanzaError, match=r"^--port must be"), environment.checked(args):
        port_from(args.port)


def bonanza(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bonanza", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=STARTUP,
        env={"PATH": "/usr/bin:/bin", **env},
    )


def test_a_bad_variable_is_one_line_and_status_2() -> None:
    result = bonanza({"BONANZA_PORT": "http"}, "serve")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "bonanza serve: BONANZA_PORT must be from 1 to 65535, not 'http'"
    ]
    assert result.stdout == ""


def test_a_bad_variable_does_not_stop_other_commands() -> None:
    result = bonanza({"BONANZA_PORT": "http", "BONANZA_PROXY_HEADERS": "maybe"}, "deal", "7")
    assert result.returncode == 0, result.stderr
