"""The answers beside the game's own (``wire.GameView``): the searches, a share, a
checked deal, the settings, the health check and errors, as declared types.

The searches' answers come from ``bonanza.play.answers`` (what was found, by
meaning); each ``of`` spells one as the browser reads it.
"""

from __future__ import annotations

from msgspec import UNSET, Struct, UnsetType

from bonanza.play.answers import (
    CriticalMove,
    HintReply,
    LineStep,
    ReviewReply,
    WinnableReply,
)
from bonanza.web.view import move_data
from bonanza.web.wire import MoveData


class HintAnswer(Struct):
    """A fair hint: the move and its piles (all None when no move makes progress),
    the engine's words; ``unavailable`` only when no hint is given for these rules."""

    move: MoveData | None
    text: str
    source: int | None
    dest: int | None
    unavailable: bool | UnsetType = UNSET

    @classmethod
    def of(cls, reply: HintReply) -> HintAnswer:
        move = reply.move
        unavailable: bool | UnsetType = True if reply.unavailable else UNSET
        if move is None:
            return cls(None, reply.text, None, None, unavailable)
        return cls(move_data(move), reply.text, int(move.source), int(move.dest), unavailable)


class WinnableAnswer(Struct):
    """"Still winnable?": the verdict word and its sentence, never a card or a move;
    the game is assisted from then on."""

    winnable: str
    text: str
    unavailable: bool | UnsetType = UNSET
    assisted: bool = True

    @classmethod
    def of(cls, reply: WinnableReply) -> WinnableAnswer:
        return cls(reply.winnable, reply.text, True if reply.unavailable else UNSET)


class CriticalAnswer(Struct):
    """The move that lost the game: its number, the move and its words."""

    number: int
    move: MoveData
    words: str

    @classmethod
    def of(cls, critical: CriticalMove) -> CriticalAnswer:
        return cls(critical.number, move_data(critical.move), critical.words)


class LineMove(Struct):
    """A move of the winning line: its notation and its words."""

    text: str
    words: str

    @classmethod
    def of(cls, step: LineStep) -> LineMove:
        return cls(step.text, step.words)


class ReviewAnswer(Struct):
    """A lost game's review: the finding and its words, the move that lost it, and a
    winning line from after ``after_moves`` of the game's moves."""

    finding: str
    text: str
    critical: CriticalAnswer | None
    after_moves: int | None
    line: list[LineMove]

    @classmethod
    def of(cls, reply: ReviewReply) -> ReviewAnswer:
        critical = None if reply.critical is None else CriticalAnswer.of(reply.critical)
        line = [LineMove.of(step) for step in reply.line]
        return cls(reply.finding, reply.text, critical, reply.after_moves, line)


class ShareAnswer(Struct):
    """A short opaque ID for a game's deal, its link, and whether it opens already."""

    share: str
    url: str
    opens_now: bool


class DealChecked(Struct):
    """A deal ID that was checked: it is one (a bad one is a 422)."""

    valid: bool = True


class Settings(Struct):
    """Every setting of a player (``bonanza.storage.player_settings.SETTINGS``)."""

    card_back: str
    theme: str
    left_handed: bool
    card_size: str
    one_tap: bool
    safe_home: bool
    sound: bool
    volume: int


class Health(Struct):
    """``/healthz``: ``ok``, or ``unavailable`` and what keeps the database from use."""

    status: str
    database: str


class ErrorAnswer(Struct):
    """Every failure: the message that names the problem, and the HTTP status."""

    error: str
    status: int
