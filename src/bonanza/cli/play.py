"""``bonanza play``: Klondike in the terminal, resuming the last game."""

from __future__ import annotations

import argparse
import json
import math
import os
import random
from pathlib import Path
from typing import Any, Final, NoReturn

from bonanza.cli.options import add_rule_options, rules_from
from bonanza.core.deal import MAX_DEAL_NUMBER, Deal
from bonanza.core.errors import BonanzaError, SaveError
from bonanza.core.game import Game

UNREADABLE_SUFFIX: Final = ".unreadable"


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


def check_save_path(save_path: Path) -> None:
    """Refuse a save path that can never hold a game (a directory, or under a file)."""
    if save_path.exists() and not save_path.is_file():
        raise SaveError(f"{save_path} is not a file: give --save a file's path")
    for parent in save_path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise SaveError(f"{save_path}: {parent} is not a directory")
            return


def _refuse_constant(name: str) -> NoReturn:
    raise SaveError(f"it holds {name}, which no saved game may hold")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise SaveError(f"it holds {text}, which is out of range")
    return value


def read_save(save_path: Path) -> Game:
    """The game saved at ``save_path``.

    Raises ``OSError`` when the file cannot be read, ``SaveError`` (one line,
    without the path) when it is not a saved game: bad JSON, ``NaN`` or
    ``Infinity``, or moves that do not replay.
    """
    text = save_path.read_text(encoding="utf-8")
    try:
        data = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except SaveError:
        raise
    except (ValueError, RecursionError) as error:
        raise SaveError(f"it is not JSON: {error}") from None
    return Game.from_json(data)


def _aside(save_path: Path) -> Path:
    """Where an unreadable save is kept: ``NAME.unreadable`` (or ``-2``, ``-3``…)."""
    kept = save_path.with_name(save_path.name + UNREADABLE_SUFFIX)
    number = 1
    while kept.exists():
        number += 1
        kept = save_path.with_name(f"{save_path.name}{UNREADABLE_SUFFIX}-{number}")
    return kept


def load_or_start(args: argparse.Namespace, save_path: Path) -> Game:
    """The game to play: the DEAL given, else the saved game, else a new deal.

    A save that cannot be read stops the command with one line (``SaveError``,
    exit status 2) before the game starts: a directory or an unreadable file is
    left alone; a file that is not a saved game (bad JSON, ``NaN``/``Infinity``,
    moves that do not replay) is moved aside to ``NAME.unreadable`` so that the
    next run starts afresh.
    """
    check_save_path(save_path)
    if args.deal is not None:
        return Game(Deal.parse(args.deal), rules_from(args))
    if not args.new and save_path.exists():
        try:
            return read_save(save_path)
        except OSError as error:
            raise SaveError(f"cannot read the saved game {save_path}: {error.strerror}") from None
        except (BonanzaError, ValueError) as error:
            reason = str(error).removeprefix("saved game: ")
            try:
                kept = _aside(save_path)
                save_path.replace(kept)
            except OSError:
                raise SaveError(
                    f"{save_path} is not a saved game: {reason}; move it away, or use --new"
                ) from None
            raise SaveError(
                f"{save_path} is not a saved game: {reason}; kept it as {kept.name}, "
                "so the next run starts a new deal"
            ) from None
    return Game(Deal.from_number(random.randint(0, MAX_DEAL_NUMBER)), rules_from(args))


def run(args: argparse.Namespace) -> int:
    save_path = args.save or default_save_path()
    game = load_or_start(args, save_path)  # refuses a bad save before the screen is taken
    from bonanza.tui.app import BonanzaApp

    BonanzaApp(game, save_path).run()
    return 0
