"""Recorded hint moments: a play-strength game replayed up to one hinted move.

Each data line is ``draw<TAB>deal<TAB>moves played<TAB>the move in question``;
lines starting with ``#`` are comments.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from bonanza.core import Deal, Rules
from bonanza.core.notation import parse_move
from bonanza.session import Session

RUN_SEED = 2024
"""The play-strength runs' seed, which the hint seeds follow from."""


class Moment(NamedTuple):
    """A recorded game up to one hinted move."""

    draw: int
    deal: str
    played: list[str]
    move: str


def moments(path: Path) -> list[Moment]:
    """The moments of a data file, in order."""
    found = []
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            draw, deal, played, move = line.split("\t")
            found.append(Moment(int(draw), deal, played.split(), move))
    return found


def session_after(draw: int, deal: str, played: list[str]) -> Session:
    """A game of ``deal`` (standard rules, ``draw``) after the moves ``played``."""
    session = Session.new(Deal.parse(deal), Rules(draw=draw), 0.0)
    for text in played:
        session.play(parse_move(text, session.position), 0.0)
    return session
