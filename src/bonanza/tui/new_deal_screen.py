"""The new-deal screen: pick the game (Klondike or one of its relatives), the
rules (a preset, or draw, passes, empty column, scoring, thoughtful) and the
deal: any deal, a winnable deal of a grade, today's daily deal, the same deal
again (the deal list), or a deal or share code typed in the deal box.

Use::

    def chosen(choice: NewDealChoice | None) -> None:
        if choice is not None:
            ...  # start it: Games.prepare(choice) asks bonanza.play for its deal

    self.push_screen(NewDealScreen(self.game.rules, overview), chosen)

Given the player's daily ``overview``, its Daily deals button opens the daily
screen (``DailyScreen``), whose day chosen is this screen's choice too.
It starts from the rules given and dismisses with a ``NewDealChoice`` (a typed
deal already checked with ``Deal.parse``), or with ``None`` on Esc or Cancel.
A bad deal, or a winnable or daily deal asked of a relative, is reported on
the screen, which stays open.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar, Final

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from bonanza.core.errors import RulesError
from bonanza.core.rules import (
    ALL_PRESETS,
    CUSTOM_TABLE,
    PRESETS,
    EmptyColumn,
    Rules,
    Scoring,
    StockMode,
)
from bonanza.tui.choice_select import ChoiceSelect
from bonanza.tui.daily_screen import DailyScreen, Overview
from bonanza.tui.deal_choice import (
    ANY,
    KINDS,
    NewDealChoice,
    deal_problem,
    kind_choice,
    kind_rules,
    read_deal_box,
)

__all__ = ["NewDealChoice", "NewDealScreen", "deal_problem"]

CUSTOM: Final = "custom"
"""The preset list's entry for rules that match no preset."""
KLONDIKE: Final = "klondike"
GAMES: Final = {
    KLONDIKE: "Klondike",
    "double-klondike": "Double Klondike",
    "double-klondike-3": "Double Klondike, draw 3",
    "westcliff": "Westcliff",
    "easthaven": "Easthaven",
}
"""The game list's entries: each a preset's name, and the words shown."""
CUSTOM_GAME: Final = "custom-table"
"""The game list's entry for a table that is no game's (listed only when the
screen opens on one)."""
DRAW_3: Final = 3
DRAW_CHOICES: Final = (1, 3)
PASS_CHOICES: Final = (None, 1, 3)
UNLIMITED: Final = "unlimited"
EMPTY_WORDS: Final = {EmptyColumn.KING: "King only", EmptyColumn.ANY: "any card"}
SCORING_WORDS: Final = {
    Scoring.NONE: "no score",
    Scoring.STANDARD: "standard",
    Scoring.TIMED: "standard, timed",
    Scoring.VEGAS: "Vegas",
    Scoring.VEGAS_CUMULATIVE: "Vegas, cumulative",
}
DEAL_PLACEHOLDER: Final = "number, code, 52 cards or share link; blank: any deal"
DECK_CARDS: Final = 52
VEGAS_PASSES_NOTE: Final = "Vegas scoring always has a pass limit."


def _passes_key(passes: int | None) -> str:
    return UNLIMITED if passes is None else str(passes)


def _passes_label(passes: int | None) -> str:
    if passes is None:
        return UNLIMITED
    return f"{passes} pass{'es' if passes != 1 else ''}"


def deal_placeholder(rules: Rules) -> str:
    """The deal box's hint: how many cards a listing of ``rules``' deal has."""
    return DEAL_PLACEHOLDER.replace(str(DECK_CARDS), str(rules.card_count))


def game_name(rules: Rules) -> str:
    """The game list's entry of ``rules``: ``klondike``, a relative's preset
    (``double-klondike-3`` for Double Klondike drawing 3), or ``CUSTOM_GAME``."""
    if rules.is_klondike:
        return KLONDIKE
    if rules.game == CUSTOM_TABLE:
        return CUSTOM_GAME
    if rules.game == "double-klondike" and rules.draw == DRAW_3:
        return "double-klondike-3"
    return rules.game


def presets_of(rules: Rules) -> dict[str, Rules]:
    """The presets of ``rules``' game: Klondike's, or the relative's own."""
    return {name: preset for name, preset in ALL_PRESETS.items() if preset.game == rules.game}


def _preset_name(rules: Rules) -> str:
    return next((name for name, preset in ALL_PRESETS.items() if preset == rules), CUSTOM)


def _preset_options(rules: Rules) -> list[tuple[str, str]]:
    return [*((name, name) for name in presets_of(rules)), ("custom (as below)", CUSTOM)]


class NewDealScreen(ModalScreen[NewDealChoice | None]):
    """Rules and an optional deal for the next game."""

    DEFAULT_CSS = """
    NewDealScreen { align: center middle; }
    NewDealScreen > #new-deal-box {
        width: 76; max-width: 100%; height: auto; max-height: 100%;
        border: round $accent; background: $surface; padding: 0 1;
        border-subtitle-color: $text-muted;
    }
    NewDealScreen .row { height: auto; }
    NewDealScreen .name { width: 14; height: 3; content-align: left middle; }
    NewDealScreen .name.second { width: 10; margin-left: 2; }
    NewDealScreen Select { width: 1fr; }
    NewDealScreen #thoughtful { width: 1fr; margin-left: 2; }
    NewDealScreen #deal { width: 1fr; background: $panel; }
    NewDealScreen #kind { width: 1fr; }
    NewDealScreen .row.short { margin-bottom: 1; }
    NewDealScreen .row.short .name { height: 1; }
    NewDealScreen #summary { color: $text-muted; height: auto; }
    NewDealScreen #problem { color: $error; height: auto; min-height: 1; }
    NewDealScreen #buttons { height: auto; align: center middle; }
    NewDealScreen Button { margin: 0 2; }
    """
    AUTO_FOCUS = "#preset"  # the game, on the row above, is a Shift+Tab away
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("enter", "start", "Deal", priority=True),  # from anywhere: see check_action
    ]

    def __init__(self, rules: Rules, daily: Overview | None = None) -> None:
        super().__init__()
        self.start_rules = rules
        self.daily = daily  # the player's daily overview: the Daily deals button
        self._base = rules  # recall, runs and the table, which have no control here
        self._family = rules.game  # whose presets the preset list holds

    def compose(self) -> ComposeResult:
        rules = self.start_rules
        draws = sorted({*DRAW_CHOICES, rules.draw})
        passes = [*PASS_CHOICES, *([rules.passes] if rules.passes not in PASS_CHOICES else [])]
        scroll = VerticalScroll(id="new-deal-box")
        scroll.border_title = "New deal"
        scroll.border_subtitle = "Tab moves · ↑ ↓ choose · Space lists · Enter deals · Esc cancels"
        games = dict(GAMES)
        if game_name(rules) == CUSTOM_GAME:
            games[CUSTOM_GAME] = rules.title
        with scroll:
            with Horizontal(classes="row"):
                yield Label("Game", classes="name")
                yield ChoiceSelect(
                    [(words, name) for name, words in games.items()],
                    value=game_name(rules),
                    id="game",
                )
            with Horizontal(classes="row"):
                yield Label("Rules", classes="name")
                yield ChoiceSelect(
                    _preset_options(rules),
                    value=_preset_name(rules),
                    id="preset",
                )
                yield Checkbox("Thoughtful (see all)", rules.thoughtful, id="thoughtful")
            with Horizontal(classes="row"):
                yield Label("Draw", classes="name")
                yield ChoiceSelect(
                    [(f"{n} card{'s' if n != 1 else ''}", str(n)) for n in draws],
                    value=str(rules.draw),
                    id="draw",
                )
                yield Label("Passes", classes="name second")
                yield ChoiceSelect(
                    [(_passes_label(p), _passes_key(p)) for p in passes],
                    value=_passes_key(rules.passes),
                    id="passes",
                )
            with Horizontal(classes="row"):
                yield Label("Empty column", classes="name")
                yield ChoiceSelect(
                    [(words, empty.value) for empty, words in EMPTY_WORDS.items()],
                    value=rules.empty_column.value,
                    id="empty",
                )
                yield Label("Scoring", classes="name second")
                yield ChoiceSelect(
                    [(words, scoring.value) for scoring, words in SCORING_WORDS.items()],
                    value=rules.scoring.value,
                    id="scoring",
                )
            with Horizontal(classes="row"):
                yield Label("Deal", classes="name")
                yield ChoiceSelect([*KINDS], value=ANY, id="kind")
            with Horizontal(classes="row short"):  # one line: the screen fits 80×24
                yield Label("Deal or share", classes="name")
                yield Input(placeholder=deal_placeholder(rules), id="deal", compact=True)
            yield Static(self._summary(str(rules)), id="summary", markup=False)
            yield Static("", id="problem", markup=False)
            with Horizontal(id="buttons"):
                yield Button("Deal", variant="primary", id="start", compact=True)
                if self.daily is not None:
                    yield Button("Daily deals…", id="daily", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    # -- reading the controls ------------------------------------------------

    def _value(self, select_id: str) -> str:
        return str(self.query_one(f"#{select_id}", Select).value)

    def chosen_rules(self) -> Rules:
        """The rules the controls show now (``RulesError`` when the game refuses them)."""
        passes = self._value("passes")
        return dataclasses.replace(
            self._base,
            draw=int(self._value("draw")),
            passes=None if passes == UNLIMITED else int(passes),
            empty_column=EmptyColumn(self._value("empty")),
            scoring=Scoring(self._value("scoring")),
            thoughtful=self.query_one("#thoughtful", Checkbox).value,
        )

    def _show(self, rules: Rules) -> None:
        """Set every control to ``rules`` (each change comes back as a Changed event)."""
        deals = rules.stock_mode is StockMode.EVERY_COLUMN  # draws and passes are fixed
        self.query_one("#draw", Select).disabled = deals
        self.query_one("#passes", Select).disabled = deals
        self.query_one("#draw", Select).value = str(rules.draw)
        self._set_passes(rules.passes)
        self.query_one("#empty", Select).value = rules.empty_column.value
        self.query_one("#scoring", Select).value = rules.scoring.value
        self.query_one("#thoughtful", Checkbox).value = rules.thoughtful

    def _set_passes(self, passes: int | None) -> None:
        select: Select[str] = self.query_one("#passes", Select)
        known = [*PASS_CHOICES, *([passes] if passes not in PASS_CHOICES else [])]
        select.set_options([(_passes_label(p), _passes_key(p)) for p in known])
        select.value = _passes_key(passes)

    # -- events ----------------------------------------------------------------

    def _game_rules(self, name: str) -> Rules:
        """The rules a game's entry starts from."""
        if name == CUSTOM_GAME:
            return self.start_rules
        return ALL_PRESETS.get(name, PRESETS[KLONDIKE])

    def _shown_rules(self) -> Rules | None:
        """The rules the controls show, or None when the game refuses them."""
        try:
            return self.chosen_rules()
        except RulesError:
            return None

    def _apply(self, rules: Rules) -> None:
        """Start from ``rules``: every control set to them."""
        self._base = rules
        self._show(rules)
        self._rules_changed()

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        if event.value != event.select.value:
            return  # a value already replaced (as when the preset list is refilled)
        shown = self._shown_rules()
        if event.select.id == "game":
            if shown is None or game_name(shown) != event.value:
                self._apply(self._game_rules(str(event.value)))
            return
        if event.select.id == "preset":
            preset = ALL_PRESETS.get(str(event.value))
            if preset is not None and shown != preset:
                self._apply(preset)
            return
        if event.select.id == "kind":  # the deal box is for any deal only
            self.query_one("#deal", Input).disabled = event.value != ANY
            self._say("")
        self._rules_changed()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        event.stop()
        self._rules_changed()

    def _rules_changed(self) -> None:
        """Keep the passes true to the rules (Vegas has a limit), the game and the
        preset in step, and the summary line up to date."""
        try:
            rules = self.chosen_rules()
        except RulesError as error:
            self.query_one("#summary", Static).update(f"{self._base.title}: {error}.")
            return
        note = ""
        if _passes_key(rules.passes) != self._value("passes"):
            self._set_passes(rules.passes)
            note = VEGAS_PASSES_NOTE
        self.query_one("#summary", Static).update(
            self._summary(kind_rules(self._value("kind"), rules), note)
        )
        self.query_one("#deal", Input).placeholder = deal_placeholder(rules)
        # The game and the preset follow the rules without a Changed event: one
        # handled late (on a busy machine) would undo a change made since.
        game = self.query_one("#game", Select)
        preset = self.query_one("#preset", Select)
        with game.prevent(Select.Changed), preset.prevent(Select.Changed):
            if game.value != game_name(rules):
                game.value = game_name(rules)
            if rules.game != self._family:
                self._family = rules.game
                preset.set_options(_preset_options(rules))
            name = _preset_name(rules)
            if preset.value != name:
                preset.value = name

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._say("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "daily":
            self.open_daily()
        else:
            self.action_cancel()

    @staticmethod
    def _summary(rules: str, note: str = "") -> str:
        return f"Rules: {rules}." + (f" {note}" if note else "")

    def _say(self, text: str) -> None:
        self.query_one("#problem", Static).update(text)

    # -- actions -------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter deals wherever the focus is, but in an open list (where it picks
        the choice) and on a button (which it presses)."""
        if action == "start":
            opened = any(select.expanded for select in self.query(Select))
            return not opened and not isinstance(self.focused, Button)
        return True

    def action_start(self) -> None:
        """Deal the deal list's choice (for any deal, the deal box's deal or share
        code, else a random deal), unless it is refused: then say why and stay."""
        try:
            rules = self.chosen_rules()
        except RulesError as error:
            self._say(f"{self._base.title}: {error}.")
            return
        kind = self._value("kind")
        deal_input = self.query_one("#deal", Input)
        boxed = kind == ANY
        chosen = read_deal_box(deal_input.value, rules) if boxed else kind_choice(kind, rules)
        if isinstance(chosen, str):
            self._say(chosen)
            if boxed:
                deal_input.focus()
            return
        self.dismiss(chosen)

    def open_daily(self) -> None:
        """The daily screen on the draw shown; a day chosen there is this screen's choice."""
        if self.daily is None:
            return

        def chosen(choice: NewDealChoice | None) -> None:
            if choice is not None:
                self.dismiss(choice)

        self.app.push_screen(DailyScreen(self.daily, int(self._value("draw"))), chosen)

    def action_cancel(self) -> None:
        self.dismiss(None)
