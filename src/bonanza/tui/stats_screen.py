"""The statistics screen: one heading per game (Klondike, Double Klondike,
Westcliff, Easthaven...), under it one block of figures per rule set.

Use, with the ledger's statistics (``bonanza.play.ledger.statistics(records)``)::

    stats = statistics(records)
    self.push_screen(StatsScreen(stats["groups"], stats["chosen"]))

Each group is a dict with ``game`` (the game's title; Klondike when missing),
``label``, ``played``, ``won``, ``win_rate``
(percent), ``current_streak``, ``best_streak``, ``best_time`` (seconds or
None), ``best_score`` (or None), ``fewest_moves`` (or None) and, for
cumulative Vegas, ``bankroll``. ``chosen`` holds the same for deals the player
picked (typed, shared, replayed, winnable, daily) and thoughtful games: shown
apart, as not counting in the headline.
``assisted`` (``{"played": n, "won": m}``) counts the games in which "still
winnable?" was asked, in no group: shown last, when there are any.
The screen dismisses with ``None`` on Esc, q or s.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, ClassVar, Final

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from bonanza.core.rules import ALL_PRESETS, Scoring
from bonanza.tui.status_bar import clock_text, money

MISSING: Final = "–"
VEGAS_SCORINGS: Final = frozenset(scoring.value for scoring in Scoring if scoring.is_vegas)
"""The scorings (as a group's rules name them) whose scores are dollars."""
FIELD_GAP: Final = "   "
EMPTY_STATE: Final = (
    "No finished games yet. Win or lose a deal and your figures will show here, "
    "one block per set of rules."
)
NO_HEADLINE: Final = (
    "No random deals finished yet: the headline figures count only deals the game chose."
)
CHOSEN_HEADING: Final = "Chosen deals"
CHOSEN_NOTE: Final = (
    "Typed, shared, replayed, winnable and daily deals: kept apart, not counted above."
)
ASSISTED_HEADING: Final = "Assisted games"
ASSISTED_NOTE: Final = (
    '"Still winnable?" looked at their hidden cards: counted here only, not in the figures above.'
)


def assisted_text(assisted: dict[str, Any]) -> str:
    """The assisted games' count, such as ``Played 3   Won 1``."""
    played, won = assisted.get("played", 0), assisted.get("won", 0)
    return FIELD_GAP.join((f"Played {_figure(played)}", f"Won {_figure(won)}"))


GAME_ORDER: Final = tuple(dict.fromkeys(preset.title for preset in ALL_PRESETS.values()))
"""The games in the order their headings come: Klondike first, then its
relatives as the presets list them; any other (a custom table) last."""
DEFAULT_GAME: Final = GAME_ORDER[0]
"""The game of a group that names none (older figures): Klondike."""


def game_of(group: dict[str, Any]) -> str:
    """The title of the game a group's figures are of."""
    return str(group.get("game") or DEFAULT_GAME)


def by_game(groups: Sequence[dict[str, Any]]) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """The groups under their games, in ``GAME_ORDER``, each game's in the order given."""
    games: dict[str, list[dict[str, Any]]] = {}
    for group in groups:
        games.setdefault(game_of(group), []).append(group)

    def place(game: str) -> tuple[int, str]:
        return (GAME_ORDER.index(game) if game in GAME_ORDER else len(GAME_ORDER), game)

    for game in sorted(games, key=place):
        yield game, games[game]


def percent(value: Any) -> str:
    """A win rate such as ``41.7%`` or ``100%``."""
    if not isinstance(value, int | float):
        return MISSING
    return f"{value:.1f}".removesuffix(".0") + "%"


def _figure(value: Any) -> str:
    return MISSING if value is None else str(value)


def is_vegas(group: dict[str, Any]) -> bool:
    """Whether a group's rules score in dollars (Vegas, cumulative or not)."""
    rules = group.get("rules")
    scoring = rules.get("scoring") if isinstance(rules, dict) else None
    return scoring in VEGAS_SCORINGS


def score_text(group: dict[str, Any]) -> str:
    """A group's best score: dollars under Vegas (as the status line and the web say it)."""
    best = group.get("best_score")
    return money(best) if isinstance(best, int) and is_vegas(group) else _figure(best)


def group_text(group: dict[str, Any]) -> Text:
    """One rule set's block: its label (without the game's name, which heads
    it), then two lines of figures."""
    best_time = group.get("best_time")
    first = [
        f"Played {_figure(group.get('played', 0))}",
        f"Won {_figure(group.get('won', 0))}",
        f"Win rate {percent(group.get('win_rate'))}",
        f"Streak {_figure(group.get('current_streak', 0))}",
        f"Best streak {_figure(group.get('best_streak', 0))}",
    ]
    second = [
        f"Best time {MISSING if best_time is None else clock_text(float(best_time))}",
        f"Best score {score_text(group)}",
        f"Fewest moves {_figure(group.get('fewest_moves'))}",
    ]
    bankroll = group.get("bankroll")
    if isinstance(bankroll, int):
        second.append(f"Bankroll {money(bankroll)}")
    label = str(group.get("label", "")).removeprefix(f"{game_of(group)}: ")
    return Text.assemble(
        (label, "bold"),
        "\n  " + FIELD_GAP.join(first),
        "\n  " + FIELD_GAP.join(second),
    )


class StatsScreen(ModalScreen[None]):
    """The headline groups, then the chosen-deal groups, in a scrolling box."""

    DEFAULT_CSS = """
    StatsScreen { align: center middle; }
    StatsScreen > #stats-scroll {
        width: 78; max-width: 100%; height: auto; max-height: 100%;
        border: round $accent; background: $surface; padding: 0 1;
        border-subtitle-color: $text-muted;
    }
    StatsScreen .group { margin-bottom: 1; }
    StatsScreen .heading { text-style: bold; color: $accent; }
    StatsScreen .game { text-style: bold underline; }
    StatsScreen .note, StatsScreen .empty { color: $text-muted; margin-bottom: 1; }
    """
    AUTO_FOCUS = "#stats-scroll"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("q", "close", "Close", show=False),
        Binding("s", "close", "Close", show=False),
    ]

    def __init__(
        self,
        groups: Sequence[dict[str, Any]],
        chosen: Sequence[dict[str, Any]] | None = None,
        assisted: dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self.groups = list(groups)
        self.chosen = list(chosen or [])
        self.assisted = dict(assisted or {})

    def compose(self) -> ComposeResult:
        scroll = VerticalScroll(id="stats-scroll")
        scroll.border_title = "Statistics"
        scroll.border_subtitle = "Esc, q or s closes"
        with scroll:
            if not self.groups:
                others = self.chosen or self.assisted.get("played")
                yield Static(NO_HEADLINE if others else EMPTY_STATE, classes="empty")
            yield from self._games(self.groups, "headline")
            if self.chosen:
                yield Static(CHOSEN_HEADING, classes="heading")
                yield Static(CHOSEN_NOTE, classes="note")
                yield from self._games(self.chosen, "chosen")
            if self.assisted.get("played"):
                yield Static(ASSISTED_HEADING, classes="heading")
                yield Static(ASSISTED_NOTE, classes="note", markup=False)
                yield Static(assisted_text(self.assisted), classes="group assisted")

    @staticmethod
    def _games(groups: Sequence[dict[str, Any]], kind: str) -> ComposeResult:
        """Each game's name, then its groups' blocks (of class ``kind``)."""
        for game, listed in by_game(groups):
            yield Static(game, classes=f"game {kind}-game", markup=False)
            for group in listed:
                yield Static(group_text(group), classes=f"group {kind}")

    def text(self) -> str:
        """Everything the screen says, as plain text."""
        return "\n".join(str(static.render()) for static in self.query(Static))

    def action_close(self) -> None:
        self.dismiss(None)
