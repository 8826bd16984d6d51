"""The status line: deal and rules on the left; score, moves, passes and time on the right.

A game in a session shows its deal ID only once it is over (the ID names every
hidden card), as on the web; while it is played, only the text the player
typed for a typed deal, a winnable or daily deal's words (``DealPlace``), or
nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from rich.text import Text
from textual.widget import Widget

from bonanza.core.game import Game
from bonanza.core.rules import Rules
from bonanza.session import messages
from bonanza.session.session import Session
from bonanza.session.winnable import ASSISTED

SEPARATOR: Final = " · "
SECONDS_PER_MINUTE: Final = 60
SECONDS_PER_HOUR: Final = 3600
MIN_GAP: Final = 2
"""Spaces kept between the left and the right part."""


def rules_label(rules: Rules) -> str:
    """The rules in the web's words (``Rules.label``: ``Draw 3 · 3 passes · Vegas``),
    after the game's title for one of Klondike's relatives."""
    return rules.label if rules.is_klondike else f"{rules.title}{SEPARATOR}{rules.label}"


def clock_text(seconds: float) -> str:
    """Playing time as ``m:ss``, or ``h:mm:ss`` from an hour on."""
    whole = int(seconds) if math.isfinite(seconds) and seconds > 0 else 0
    hours, rest = divmod(whole, SECONDS_PER_HOUR)
    minutes, secs = divmod(rest, SECONDS_PER_MINUTE)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def deal_label(session: Session) -> str | None:
    """What the deal place shows: the deal's ID once over, else the typed text (or nothing)."""
    return session.portable_deal if session.is_over else session.typed


@dataclass(frozen=True, slots=True)
class DealPlace:
    """What the deal place says beyond the session: ``tag``, the words of a winnable
    or daily deal (``Daily 2025-12-01``, ``Winnable, hard``), shown where no deal
    shows; ``hidden``, a game over whose deal may not show yet (a daily deal whose
    game that counts for the day is still in play, on any front end)."""

    tag: str | None = None
    hidden: bool = False


def deal_place(session: Session, place: DealPlace | None = None) -> str | None:
    """The status line's deal place: ``Deal`` and the ID once over (unless hidden) or
    the typed text, else the place's tag (or nothing)."""
    place = place or DealPlace()
    deal = deal_label(session)
    if deal is not None and not (session.is_over and place.hidden):
        return f"Deal {deal}"
    return place.tag


def money(dollars: int) -> str:
    """Dollars as ``$12`` or ``-$52``."""
    return f"-${-dollars}" if dollars < 0 else f"${dollars}"


class StatusBar(Widget):
    """One line: ``Deal 7 · klondike-3`` … ``Score 15 · Moves 4 · Pass 1/3 · 0:42``."""

    DEFAULT_CSS = "StatusBar { height: 1; background: $panel; padding: 0 1; }"

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.left = ""
        self.right = ""

    def show(
        self,
        game: Game,
        *,
        elapsed: float | None = None,
        score: int | None = None,
        bankroll: int | None = None,
    ) -> None:
        """Show a bare ``game``, its deal ID included. ``elapsed`` (seconds) and
        ``score`` default to the game's own; ``bankroll``, the cumulative Vegas
        money, shows when given."""
        seconds = game.elapsed if elapsed is None else elapsed
        points = game.score(seconds) if score is None else score
        self._show(game, seconds, points, bankroll, f"Deal {game.deal.id}")

    def show_session(
        self,
        session: Session,
        now: float,
        *,
        bankroll: int | None = None,
        place: DealPlace | None = None,
    ) -> None:
        """Show ``session``'s game at ``now``: its play clock and live score, its
        deal only as ``deal_place`` allows, ``Won`` (or ``Lost``) once over, and
        ``Assisted`` once "still winnable?" was asked."""
        marks = [messages.sentence(str(session.status))] if session.is_over else []
        if session.assisted:
            marks.append(ASSISTED)
        seconds, points = session.elapsed(now), session.score(now)
        self._show(session.game, seconds, points, bankroll, deal_place(session, place), marks)

    def _show(
        self,
        game: Game,
        seconds: float,
        points: int,
        bankroll: int | None,
        deal: str | None,
        marks: list[str] | None = None,
    ) -> None:
        rules, position = game.rules, game.position
        right = list(marks or [])
        right.append(f"Score {money(points) if rules.scoring.is_vegas else points}")
        if bankroll is not None:
            right.append(f"Bank {money(bankroll)}")
        right.append(f"Moves {game.move_count}")
        if rules.passes is not None:
            right.append(f"Pass {min(position.recycles + 1, rules.passes)}/{rules.passes}")
        right.append(clock_text(seconds))
        label = rules_label(rules)
        self.left = label if deal is None else f"{deal}{SEPARATOR}{label}"
        self.right = SEPARATOR.join(right)
        self.refresh()

    @property
    def text(self) -> str:
        """The whole line, untruncated."""
        return f"{self.left}{' ' * MIN_GAP}{self.right}"

    def render(self) -> Text:
        width = self.content_size.width
        room = max(0, width - len(self.right) - MIN_GAP)
        left = self.left if len(self.left) <= room else self.left[: max(0, room - 1)] + "…"
        line = Text(left)
        line.append(" " * max(MIN_GAP, width - len(left) - len(self.right)))
        line.append(self.right, style="bold")
        return line
