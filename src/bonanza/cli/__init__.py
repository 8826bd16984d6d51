"""The `bonanza` command: one subcommand per module in this package.

Each subcommand module defines ``register(subparsers)``, which adds its parser
and sets ``func`` (taking the parsed ``argparse.Namespace``, returning an exit
status) as the parser's default.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from bonanza.core.errors import BonanzaError

COMMANDS = ("deal", "play", "serve", "solve", "analyze")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bonanza", description="Klondike solitaire.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"bonanza.cli.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except BonanzaError as error:
        print(f"bonanza {args.command}: {error}", file=sys.stderr)
        return 2
    return status
