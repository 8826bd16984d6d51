"""``bonanza play``: Klondike or a relative in the terminal, resuming your game in progress.

Games are kept in the same store as a local ``bonanza serve`` (``--db``,
default ``bonanza.storage.default_db_path()``), as this machine's player, so
the terminal's games count in the web statistics too.
"""

from __future__ import annotations

import argparse
import json
import math
import sqlite3
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NoReturn

from bonanza.cli.db import check_served_store
from bonanza.cli.options import add_rule_options, rule_changes, rules_from
from bonanza.core.deal import Deal
from bonanza.core.errors import BonanzaError, SaveError
from bonanza.core.rules import Rules
from bonanza.session import Session, random_deal
from bonanza.storage import (
    SQLiteStorage,
    StorageError,
    cannot_open,
    default_db_path,
    local_player,
)

if TYPE_CHECKING:
    from bonanza.play.deal_stock import DealStock
    from bonanza.tui.deal_choice import NewDealChoice
    from bonanza.tui.games import Opening

DEFAULT_PRESET: Final = "klondike"
"""The preset played when ``--rules`` is not given."""
NOT_A_TERMINAL: Final = (
    "needs a terminal: its input and output are a pipe or a file here"
    " (to play in a browser: bonanza serve --open)"
)
SAVE_PREFIXES: Final = ("saved game: ", "saved session: ")
"""What the loaders put before a fault, left out where the line names the file."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play in the terminal",
        description=(
            "Play Klondike, or one of its relatives (--rules double-klondike, "
            "double-klondike-3, westcliff, easthaven), in the terminal. Resumes your game "
            "in progress unless given a deal, --new or --share; it keeps its own rules, and rule "
            "options given then are those the next new deal (N) starts from. Games and "
            "statistics are shared with a local 'bonanza serve'."
        ),
    )
    parser.add_argument("deal", metavar="DEAL", nargs="?", help="deal number, code or listing")
    parser.add_argument("--new", action="store_true", help="start a new random deal")
    parser.add_argument(
        "--share",
        metavar="ID",
        default=None,
        help="play a shared deal: its share code (x in the game), or a web link with ?share=",
    )
    parser.add_argument(
        "--save",
        type=Path,
        default=None,
        help="also keep the game in this JSON file after every move, and resume from it",
    )
    parser.add_argument(
        "--db", type=Path, default=None, help="SQLite file for games and stats (as serve's)"
    )
    add_rule_options(parser)
    parser.set_defaults(func=run, rules=None)  # None: --rules not given (DEFAULT_PRESET)


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


def read_save(save_path: Path) -> Session:
    """The session saved at ``save_path`` (a session, or an older bare saved game).

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
    return Session.from_json(data)


def _reason(error: Exception) -> str:
    reason = str(error)
    for prefix in SAVE_PREFIXES:
        reason = reason.removeprefix(prefix)
    return reason


def load_save(args: argparse.Namespace, save_path: Path | None) -> Session | None:
    """The saved session to resume: from ``save_path``, unless a DEAL or ``--new`` is given.

    A save that cannot be read stops the command with one line (``SaveError``,
    exit status 2) before the game starts, and the file is left as it is: a file
    that is not a saved game (bad JSON, ``NaN``/``Infinity``, moves that do not
    replay) may be the player's own, so it is neither renamed nor written over,
    even for a new game.
    """
    if save_path is None:
        return None
    check_save_path(save_path)
    if not save_path.exists():
        return None
    try:
        session = read_save(save_path)
    except OSError as error:
        raise SaveError(f"cannot read the saved game {save_path}: {error.strerror}") from None
    except (BonanzaError, ValueError) as error:
        raise SaveError(
            f"{save_path} is not a saved game: {_reason(error)}; it is left as it is:"
            " give another --save file, or move it away"
        ) from None
    return None if args.deal is not None or args.new else session


def check_terminal() -> None:
    """Refuse in one line unless standard input and output are a terminal: the game
    would otherwise write its screen's escape codes into a pipe or a file."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise BonanzaError(NOT_A_TERMINAL)


def open_storage(db: Path) -> SQLiteStorage:
    """The game store at ``db``; one line (``BonanzaError``) when it cannot be opened,
    or when the file holds something else than a game store (left as it is)."""
    check_served_store(db)
    try:
        return SQLiteStorage(db)
    except (sqlite3.Error, StorageError, OSError) as error:
        raise BonanzaError(cannot_open(db, error)) from None


def asked_rules(args: argparse.Namespace) -> Rules | None:
    """The rules the options name, or None when no rule option was given (a game
    in progress is then resumed without a word on its rules)."""
    asked = args.rules is not None or bool(rule_changes(args))
    if args.rules is None:
        args.rules = DEFAULT_PRESET
    return rules_from(args) if asked else None


def check_shared(
    storage: SQLiteStorage, player: str, stock: DealStock, choice: NewDealChoice
) -> None:
    """Refuse a share that cannot be played (unknown, or its game still in play) in
    one line (``BonanzaError``), before the game takes the screen."""
    from bonanza.play.errors import PlayError
    from bonanza.tui.games import Games

    try:
        Games(storage, player, stock, random_deal).prepare(choice, time.time())
    except PlayError as error:
        raise BonanzaError(error.message) from None


def run(args: argparse.Namespace) -> int:
    save_path: Path | None = args.save
    asked = asked_rules(args)
    rules = asked or rules_from(args)
    if args.share is not None and (args.deal is not None or args.new):
        raise BonanzaError("give a DEAL, --new or --share: one of them")
    if args.deal is not None:
        Deal.parse(args.deal, rules.decks)  # a bad deal: one line, before anything else
    saved = load_save(args, save_path)  # refuses a bad save before the screen is taken
    db = args.db if args.db is not None else default_db_path()
    storage = open_storage(db)
    try:
        try:
            player = local_player(storage)
        except StorageError as error:
            raise BonanzaError(f"cannot use the game store {db}: {error}") from None
        from bonanza.play.games import share_id_in
        from bonanza.tui.app import BonanzaApp, terminal_stock
        from bonanza.tui.deal_choice import NewDealChoice

        stock = terminal_stock(storage, time.time)
        start: Opening | None = saved
        if args.deal is not None:
            start = NewDealChoice(rules, args.deal.strip())
        elif args.new:
            start = NewDealChoice(rules, None)
        elif args.share is not None:
            share = share_id_in(args.share)
            if not share:
                raise BonanzaError(f"--share {args.share!r} names no deal")
            start = NewDealChoice(rules, share=share)
            check_shared(storage, player, stock, start)
        check_terminal()  # the last refusal: the screen is taken next
        app = BonanzaApp(
            storage, player, rules=asked, start=start, save_path=save_path, stock=stock
        )
        app.run()
    finally:
        storage.close()
    return 0
