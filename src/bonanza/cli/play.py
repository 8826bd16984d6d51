"""``bonanza play``: Klondike in the terminal, resuming the last game."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

from bonanza.cli.options import add_rule_options, rules_from
from bonanza.core.deal import MAX_DEAL_NUMBER, Deal
from bonanza.core.errors import BonanzaError
from bonanza.core.game import Game


def default_save_path() -> Path:
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "bonanza" / "terminal-game.json"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play in the terminal",
        description="Play Klondike in the terminal. Resumes your last game unless given a deal.",
    )
    parser.add_argument("deal", metavar="DEAL", nargs="?", help="deal number, code or listing")
    parser.add_argument("--new", action="store_true", help="start a new random deal")
    parser.add_argument("--save", type=Path, default=None, help="where the game is kept")
    add_rule_options(parser)
    parser.set_defaults(func=run)


def load_or_start(args: argparse.Namespace, save_path: Path) -> Game:
    """The game to play: the DEAL given, else the saved game, else a new deal."""
    if args.deal is not None:
        return Game(Deal.parse(args.deal), rules_from(args))
    if not args.new and save_path.exists():
        try:
            return Game.from_json(json.loads(save_path.read_text()))
        except (BonanzaError, ValueError) as error:
            kept = save_path.with_name(save_path.name + ".unreadable")
            save_path.replace(kept)
            print(
                f"bonanza play: {save_path} could not be read ({error}); kept as {kept}",
                file=sys.stderr,
            )
    return Game(Deal.from_number(random.randint(0, MAX_DEAL_NUMBER)), rules_from(args))


def run(args: argparse.Namespace) -> int:
    from bonanza.tui.app import BonanzaApp

    save_path = args.save or default_save_path()
    BonanzaApp(load_or_start(args, save_path), save_path).run()
    return 0
