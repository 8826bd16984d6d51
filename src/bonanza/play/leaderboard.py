"""The daily leaderboard: a day's best times and fewest moves on this server, per draw mode.

Only a game won from the day's daily deal by the server's checked moves enters:
the player's first game of that deal (a replay never does), started on its day,
in which "still winnable?" was not asked (an assisted game never does), under
the daily rules (a thoughtful game never does). Its moves are every move
played, those taken back by undo or restart too: looking ahead at the hidden
cards and taking it back costs moves. The figures come from the
stored games (``bonanza.storage.leaderboard``), never from a client.

Each entry shows the player's display name, or "anonymous": the name is the
player's own text, so it is checked here (:func:`clean_name`: no control or
format characters, at most :data:`NAME_LENGTH` characters) and again as it is
read. An entry says whether it is the asker's, never whose it is.
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from typing import Any, Final

from bonanza.play.chosen_deals import TODAY, read_daily_rules, requested_day
from bonanza.play.daily import BEST_TIME_DIGITS, day_text, utc_day
from bonanza.play.errors import Invalid
from bonanza.storage import Storage
from bonanza.storage.leaderboard import (
    Board,
    Entry,
    Order,
    board_entries,
    display_name,
    set_display_name,
)
from bonanza.storage.records import rules_key

NAME_LENGTH: Final = 24
"""The most characters a display name has."""
ANONYMOUS: Final = "anonymous"
"""What an entry whose player chose no name shows."""
FIRST_PLACES: Final = 10
"""The places a board shows (and the asker's, if lower)."""
DAY_SECONDS: Final = 86_400
DROPPED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories a name loses: control, format (such as the bidirectional
overrides, which would turn the text around it), surrogates, private use and
unassigned characters, and line and paragraph separators."""
SPACES: Final = re.compile(r"\s+")
NAME_TOO_LONG: Final = "A display name has at most {most} characters, not {count}"
ENTRY_RULE: Final = (
    "The daily deal won at the first try on its day: a replay, a thoughtful game and a game"
    " in which “still winnable?” was asked do not enter. Moves count every move played,"
    " those taken back by undo or restart too."
)


def _cleaned(text: str) -> str:
    spaced = SPACES.sub(" ", unicodedata.normalize("NFC", text))  # tabs, new lines: spaces
    kept = "".join(char for char in spaced if unicodedata.category(char) not in DROPPED_CATEGORIES)
    return SPACES.sub(" ", kept).strip()


def clean_name(text: str) -> str:
    """``text`` as a display name: control and format characters dropped, spaces run
    together, trimmed ("" for none); ``Invalid`` if it is longer than
    :data:`NAME_LENGTH`."""
    name = _cleaned(text)
    if len(name) > NAME_LENGTH:
        raise Invalid(NAME_TOO_LONG.format(most=NAME_LENGTH, count=len(name)))
    return name


def shown_name(stored: str | None) -> str | None:
    """A stored name as it is shown (checked again, cut short: it may predate a rule),
    or None."""
    return _cleaned(stored or "")[:NAME_LENGTH].rstrip() or None


def player_name(storage: Storage, player: str) -> str | None:
    """The player's display name, or None if they chose none."""
    return shown_name(display_name(storage, player))


def choose_name(storage: Storage, player: str, text: str) -> str | None:
    """Check and store the player's display name ("" or blank: anonymous again);
    the name stored, or None."""
    name = clean_name(text)
    set_display_name(storage, player, name)
    return name or None


def board_of(day: datetime.date, draw: int) -> Board:
    """The board of ``day``'s daily deal of the draw mode ``draw``."""
    start = datetime.datetime.combine(day, datetime.time(), tzinfo=datetime.UTC).timestamp()
    return Board(day_text(day), rules_key(read_daily_rules(draw)), start, start + DAY_SECONDS)


def _rows(entries: list[Entry], player: str) -> list[dict[str, Any]]:
    return [
        {
            "place": entry.place,
            "name": shown_name(entry.name) or ANONYMOUS,
            "elapsed": round(entry.elapsed, BEST_TIME_DIGITS),
            "moves": entry.moves,
            "you": entry.player == player,
        }
        for entry in entries
    ]


def daily_leaderboard(
    storage: Storage,
    player: str,
    draw: int,
    now: float,
    day: str = TODAY,
    first: int = FIRST_PLACES,
) -> dict[str, Any]:
    """The leaderboard of the daily deal of ``day`` (``today`` or ``YYYY-MM-DD`` within
    the calendar) and ``draw``: its ``first`` places by time and by moves, the
    asker's place after them if lower, the asker's name, and the words to show it."""
    board = board_of(requested_day(day, utc_day(now)), draw)
    return {
        "day": board.day,
        "draw": draw,
        "draw_words": f"{draw}-card draw",
        "rule": ENTRY_RULE,
        "anonymous": ANONYMOUS,
        "name": player_name(storage, player),
        "name_length": NAME_LENGTH,
        "fastest": _rows(board_entries(storage, board, Order.TIME, first, player), player),
        "fewest_moves": _rows(board_entries(storage, board, Order.MOVES, first, player), player),
    }
