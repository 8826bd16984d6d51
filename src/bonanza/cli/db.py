"""``bonanza db``: look after the game store: ``upgrade`` its schema, show its ``stats``
(size per table), ``prune`` old finished games (their statistics stay), with
``--end-idle`` ending first the games left in play as long.

``--db`` names the store as ``bonanza serve --db`` does (default: this machine's SQLite
file); like every option it can also be set by its environment variable
(``BONANZA_DB``). A store that cannot be used is one line and status 2. A SQLite file
must be a Bonanza store already: a missing file, an empty one, a file that is not
SQLite and a SQLite database without Bonanza's tables are refused, and left as they
are; only ``db upgrade --create`` makes a new store, in a missing or empty file.
"""

from __future__ import annotations

import argparse
import datetime
import math
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bonanza.cli import environment
from bonanza.core.errors import BonanzaError

if TYPE_CHECKING:
    from bonanza.storage import Storage

DEFAULT_PRUNE_DAYS = 90.0
"""How old a finished game is before ``bonanza db prune`` folds it, by default."""
SECONDS_PER_DAY = 86_400
EPOCH = 0.0
"""The earliest time a game can have (Unix time 0, 1970-01-01): games are stamped
with the clock's Unix time. ``prune`` takes an earlier cutoff as this one, which
folds the same games (none), and which ``datetime`` can always show."""
NO_SIZE = "-"
"""What ``stats`` shows where the backend cannot tell a table's bytes."""
SQLITE_HEADER = b"SQLite format 3\x00"
"""How every SQLite database file begins."""
STORE_TABLE = "games"
"""The table every Bonanza store has, whatever its schema version (0 included)."""
DB_HELP = (
    "the game store: a SQLite file (default: the one 'bonanza serve' and 'bonanza play'"
    " use) or a PostgreSQL URL, postgresql://user@host/dbname"
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "db", help="look after the game store: upgrade its schema, its size, prune old games"
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    upgrade = actions.add_parser(
        "upgrade", help="bring the store's schema to this Bonanza's version, in place"
    )
    upgrade.add_argument(
        "--create",
        action="store_true",
        help="make a new store if the SQLite file does not exist or is empty"
        " (else such a file is refused: a mistyped name would make a new, empty store)",
    )
    upgrade.set_defaults(func=run_upgrade)
    stats = actions.add_parser("stats", help="the size of each table: rows and bytes")
    stats.set_defaults(func=run_stats)
    prune = actions.add_parser(
        "prune",
        help="fold finished games older than some days: their moves go, their statistics stay",
    )
    prune.add_argument(
        "--older-than",
        metavar="DAYS",
        default=str(DEFAULT_PRUNE_DAYS),
        help=f"fold games finished more than DAYS days ago (default {DEFAULT_PRUNE_DAYS:g})",
    )
    prune.add_argument(
        "--end-idle",
        action="store_true",
        help="first end the games left in play with no action for DAYS days, as leaving"
        " ends them (lost once they count, abandoned before), so that they are folded too",
    )
    prune.set_defaults(func=run_prune)
    for action in (upgrade, stats, prune):
        action.add_argument("--db", default=None, help=DB_HELP)
        environment.apply(action)


def store_spec(args: argparse.Namespace, create: bool = False) -> str | Path:
    """The store ``--db`` names; a SQLite file must be a Bonanza store already (a typo
    would make a new one), unless ``create`` (then a missing or empty file will do)."""
    from bonanza.storage import default_db_path, is_database_url

    spec: str | Path = args.db if args.db is not None else default_db_path()
    if is_database_url(spec):
        return spec
    path = Path(spec)
    if not path.exists() and not create:
        raise BonanzaError(
            f"no game store at {spec} (made by 'bonanza serve', 'bonanza play' or"
            " 'bonanza db upgrade --create')"
        )
    if path.exists():
        check_store_file(path, create)
    return spec


def check_served_store(spec: str | Path) -> None:
    """Refuse, before it is opened, a file that is there and holds something other than
    a Bonanza store (``check_store_file``): ``bonanza serve`` and ``bonanza play`` make a
    new store in a missing or empty file, but must not add their tables to another
    program's SQLite database, nor turn it to write-ahead logging."""
    from bonanza.storage import is_database_url

    if not is_database_url(spec) and Path(spec).exists():
        check_store_file(Path(spec), create=True)


def check_store_file(path: Path, create: bool) -> None:
    """Refuse, without writing to it, a file that is not a Bonanza store: not a file,
    empty (unless ``create``), not SQLite, or SQLite without Bonanza's tables."""
    if not path.is_file():
        raise BonanzaError(f"{path} is not a file, so not a game store")
    try:
        with path.open("rb") as file:
            head = file.read(len(SQLITE_HEADER))
    except OSError as error:
        raise BonanzaError(f"cannot read the game store {path}: {error.strerror}") from None
    if not head:
        if create:
            return
        raise BonanzaError(
            f"{path} is empty, not a game store ('bonanza db upgrade --create' makes one in it)"
        )
    if head != SQLITE_HEADER:
        raise BonanzaError(f"{path} is not a game store: it is not a SQLite database")
    if not has_store_table(path):
        raise BonanzaError(
            f"{path} is not a game store: a SQLite database without Bonanza's tables"
        )


def has_store_table(path: Path) -> bool:
    """Whether the SQLite file has Bonanza's ``games`` table, read without writing: as
    an immutable file, unless a write-ahead log beside it may hold part of it."""
    wal = path.with_name(path.name + "-wal")
    mode = "mode=ro" if wal.exists() else "mode=ro&immutable=1"
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?{mode}", uri=True)
    except sqlite3.Error as error:
        raise BonanzaError(f"cannot read the game store {path}: {error}") from None
    try:
        found = db.execute(
            "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (STORE_TABLE,)
        ).fetchone()
    except sqlite3.Error as error:
        raise BonanzaError(f"{path} is not a game store: {error}") from None
    finally:
        db.close()
    return found is not None


def open_store(spec: str | Path) -> Storage:
    """The store at ``spec``, its schema brought to this code's version; one line if not."""
    from bonanza.storage import StorageError, open_storage

    try:
        return open_storage(spec)
    except StorageError as error:
        raise BonanzaError(str(error)) from None


def where(spec: str | Path) -> str:
    from bonanza.storage import redacted

    return redacted(spec)


def run_upgrade(args: argparse.Namespace) -> int:
    from bonanza.storage import is_database_url

    with environment.checked(args):
        spec = store_spec(args, create=args.create)
    new = not is_database_url(spec) and (
        not Path(spec).exists() or Path(spec).stat().st_size == 0
    )
    store = open_store(spec)
    try:
        found, now = store.found_version, store.schema_version()
    finally:
        store.close()
    if new:
        print(f"made a new game store {where(spec)} at schema version {now}")
    elif found == now:
        print(f"{where(spec)} is already at schema version {now}")
    else:
        print(f"upgraded {where(spec)} from schema version {found} to {now}")
    return 0


def size_text(size: int | None) -> str:
    return NO_SIZE if size is None else f"{size:,}"


def run_stats(args: argparse.Namespace) -> int:
    from bonanza.storage import StorageError

    with environment.checked(args):
        spec = store_spec(args)
    store = open_store(spec)
    try:
        tables, total, version = store.table_sizes(), store.database_bytes(), store.schema_version()
    except StorageError as error:
        raise BonanzaError(str(error)) from None
    finally:
        store.close()
    rows = [("table", "rows", "bytes")]
    rows += [(table.name, f"{table.rows:,}", size_text(table.bytes)) for table in tables]
    name_width = max(len(row[0]) for row in rows)
    count_width = max(len(row[1]) for row in rows)
    size_width = max(len(row[2]) for row in rows)
    print(f"{where(spec)}: schema version {version}, {total:,} bytes")
    for name, count, size in rows:
        print(f"{name:<{name_width}}  {count:>{count_width}}  {size:>{size_width}}")
    return 0


def prune_days(text: str) -> float:
    """``--older-than``: a number of days, 0 or more."""
    try:
        days = float(text)
    except ValueError:
        days = math.nan
    if not math.isfinite(days) or days < 0:
        raise BonanzaError(f"--older-than must be a number of days, 0 or more, not {text!r}")
    return days + 0.0  # -0 is 0 days, not "-0 days ago"


def prune_cutoff(days: float, now: float) -> tuple[float, str]:
    """The Unix time ``days`` before ``now``, never before ``EPOCH`` (a million
    days ago is before any game, and before the years ``datetime`` holds), and
    how far back it is, in words."""
    before = now - days * SECONDS_PER_DAY
    if before < EPOCH:
        return EPOCH, f"{days:g} days ago: earlier than any game"
    return before, f"{days:g} days ago"


def run_prune(args: argparse.Namespace) -> int:
    from bonanza.storage import StorageError

    with environment.checked(args):
        days = prune_days(args.older_than)
        spec = store_spec(args)
    before, ago = prune_cutoff(days, time.time())
    cutoff = datetime.datetime.fromtimestamp(before, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    store = open_store(spec)
    try:
        if args.end_idle:
            ended, unread = end_idle_games(store, before)
            note = f" ({_games(unread)} could not be read back and stay in play)" if unread else ""
            print(f"ended {_games(ended)} left in play with no action since {cutoff}{note}")
        count = store.prune_finished(before)
    except StorageError as error:
        raise BonanzaError(str(error)) from None
    finally:
        store.close()
    print(
        f"folded {_games(count)} finished before {cutoff}"
        f" ({ago}) in {where(spec)}: their moves are gone, their statistics kept"
    )
    return 0


def end_idle_games(store: Storage, before: float) -> tuple[int, int]:
    """End every game in play with no action since ``before``, as leaving ends it:
    how many were ended, and how many could not be read back (left as they are).
    A game its player takes up meanwhile is left to them."""
    from bonanza.core.errors import SaveError
    from bonanza.play.idle import ended_if_idle
    from bonanza.storage import StaleGameError

    ended = unread = 0
    for record in store.games_in_play_before(before):
        try:
            update = ended_if_idle(record, before)
        except SaveError:
            unread += 1
            continue
        if update is None:
            continue
        try:
            store.update_game(update)
        except StaleGameError:
            continue  # the player acted meanwhile
        ended += 1
    return ended, unread


def _games(count: int) -> str:
    return f"{count:,} game{'s' if count != 1 else ''}"
