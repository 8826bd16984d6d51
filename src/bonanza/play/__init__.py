"""A player's games, for every front end: starting (random, typed, shared, replayed,
winnable by grade, daily), resuming and ending them, the deal stock and daily
deals, the bankroll, and errors by meaning.

Over ``bonanza.session`` (one game) and ``bonanza.storage`` (the records); the
web, the terminal and the command line sit on it, and it imports none of them.
"""

from bonanza.play.errors import (
    Conflict,
    Invalid,
    NotFound,
    PlayError,
    RateLimited,
    TooLarge,
    Unavailable,
)
from bonanza.play.games import Start, StartRequest, choose_start, start_game

__all__ = [
    "Conflict",
    "Invalid",
    "NotFound",
    "PlayError",
    "RateLimited",
    "Start",
    "StartRequest",
    "TooLarge",
    "Unavailable",
    "choose_start",
    "start_game",
]
