"""The terminal game: the table, picking piles, typed moves, hints, undo."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, Input, Static

from bonanza.core.deal import MAX_DEAL_NUMBER, Deal
from bonanza.core.errors import BonanzaError
from bonanza.core.game import Game
from bonanza.core.moves import Move, Pile
from bonanza.core.notation import describe_move, format_move
from bonanza.solver.hint import hint
from bonanza.tui.help_screen import HelpScreen
from bonanza.tui.picking import destinations, move_between, moves_from
from bonanza.tui.pile_view import PileView, pile_id
from bonanza.tui.status_bar import StatusBar

TOP_ROW = (Pile.STOCK, Pile.WASTE, Pile.FC, Pile.FD, Pile.FH, Pile.FS)


class BonanzaApp(App[None]):
    """Klondike in the terminal. Click or press a pile's key to pick it up, then its target."""

    TITLE = "Bonanza"
    AUTO_FOCUS = None  # keys play the game; ":" moves focus to the move box
    # Fits 80×24: 9 lines of chrome leave the tableau 15 (pile_view.MAX_COLUMN_LINES).
    CSS = """
    #top { height: auto; padding: 1 1 0 1; }
    #tableau { height: 1fr; padding: 0 1; overflow: hidden; }
    #gap { width: 0; }
    .labels { height: 1; padding: 0 1; margin-top: 1; }
    .label { width: 8; padding: 0 1; color: $text-muted; }
    #message { height: 2; padding: 0 2; color: $text-muted; }
    #command { margin: 0 1; height: 1; border: none; padding: 0 1; }
    Footer FooterKey.-command-palette { display: none; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "draw", "Draw"),
        Binding("u", "undo", "Undo"),
        Binding("y", "redo", "Redo"),
        Binding("h", "hint", "Hint"),
        Binding("n", "new_deal", "New deal"),
        Binding("colon", "command", "Type a move"),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("w", "pick('waste')", "Waste", show=False),
        Binding("f", "pick('foundation')", "Foundation", show=False),
        *(Binding(str(n), f"pick('t{n}')", f"Column {n}", show=False) for n in range(1, 8)),
        Binding("question_mark", "help", "Help"),
        Binding("f1", "help", "Help", show=False),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        game: Game,
        save_path: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.game = game
        self.save_path = save_path
        self.clock = clock
        self.selected: Pile | None = None
        self._started = clock() - game.elapsed

    # -- layout ------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        with Horizontal(id="top"):
            yield PileView(Pile.STOCK)
            yield PileView(Pile.WASTE)
            yield Static(id="gap")
            for pile in TOP_ROW[2:]:
                yield PileView(pile)
        with Horizontal(classes="labels"):
            for index in range(7):
                yield Static(f"  {index + 1}", classes="label")
        with Horizontal(id="tableau"):
            for index in range(7):
                yield PileView(Pile.column(index))
        yield Static(id="message")
        yield Input(placeholder="type a move (sw, w3, 6f, 47:2) and Enter", id="command")
        yield Footer()

    def on_mount(self) -> None:
        self.set_interval(1, self.tick)
        self.refresh_table()

    def pile_view(self, pile: Pile) -> PileView:
        return self.query_one(f"#{pile_id(pile)}", PileView)

    def refresh_table(self) -> None:
        for view in self.query(PileView):
            view.show(self.game.position)
            view.selected = view.pile == self.selected
            view.hinted = False
        self.query_one(StatusBar).show(self.game)

    def say(self, text: str) -> None:
        self.query_one("#message", Static).update(text)

    def tick(self) -> None:
        if not self.game.is_won and self.game.move_count:
            self.game.elapsed = self.clock() - self._started
        self.query_one(StatusBar).show(self.game)

    # -- playing -------------------------------------------------------------

    def play(self, move: Move | str) -> None:
        before = self.game.position
        try:
            played = self.game.play(move)
        except BonanzaError as error:
            self.say(str(error))
            return
        if self.game.move_count == 1:
            self._started = self.clock()
        self.selected = None
        self.save()
        self.refresh_table()
        self.say(describe_move(played, before).capitalize() + self.outcome())

    def outcome(self) -> str:
        if self.game.is_won:
            return f". You won in {self.game.move_count} moves! N deals again."
        if not self.game.position.has_moves():
            return ". No moves left: U to undo, N for a new deal."
        return ""

    def pick(self, pile: Pile) -> None:
        """Pick ``pile`` up, or drop the picked cards onto it."""
        position = self.game.position
        if pile == Pile.STOCK:
            self.action_draw()
            return
        if self.selected is not None and self.selected != pile:
            move = move_between(position, self.selected, pile)
            if move is None:
                self.say(f"Nothing from {self.selected.label} goes to {pile.label}.")
                self.selected = None
                self.refresh_table()
                return
            self.play(move)
            return
        targets = destinations(position, pile)
        if not targets:
            self.say(f"Nothing in {pile.label} can move.")
            return
        if len(targets) == 1:
            self.play(max(moves_from(position, pile), key=lambda move: move.count))
            return
        self.selected = pile
        self.refresh_table()
        self.say(f"Picked up {pile.label}: now pick where it goes (Esc cancels).")

    def on_pile_view_picked(self, message: PileView.Picked) -> None:
        self.pick(message.pile)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.input.value = ""
        if event.value.strip():
            self.play(event.value)
        self.set_focus(None)

    # -- actions -------------------------------------------------------------

    def action_pick(self, name: str) -> None:
        if name == "foundation":
            if self.selected is not None:
                self.pick(Pile.FC)
            else:
                self.say("Pick a card first, then F sends it to its foundation.")
            return
        self.pick(Pile[name.upper()])

    def action_draw(self) -> None:
        stock_moves = [m for m in self.game.position.legal_moves() if m.is_draw or m.is_recycle]
        if not stock_moves:
            self.say("The stock is empty and the pass limit is reached.")
            return
        self.play(stock_moves[0])

    def action_undo(self) -> None:
        self._history(self.game.undo, "Took back")

    def action_redo(self) -> None:
        self._history(self.game.redo, "Played again")

    def _history(self, step: Callable[[], Move], verb: str) -> None:
        try:
            move = step()
        except BonanzaError as error:
            self.say(str(error).capitalize() + ".")
            return
        self.selected = None
        self.save()
        self.refresh_table()
        self.say(f"{verb} {format_move(move)}.")

    def action_hint(self) -> None:
        move = hint(self.game.position)
        self.refresh_table()
        if move is None:
            self.say("No move makes progress from here: undo, or deal again.")
            return
        self.pile_view(move.source).hinted = True
        self.pile_view(move.dest).hinted = True
        self.say(f"Hint: {describe_move(move, self.game.position)} ({format_move(move)}).")

    def action_new_deal(self) -> None:
        self.game = Game(Deal.from_number(random.randint(0, MAX_DEAL_NUMBER)), self.game.rules)
        self.selected = None
        self._started = self.clock()
        self.save()
        self.refresh_table()
        self.say(f"New deal {self.game.deal.id}.")

    def action_cancel(self) -> None:
        self.set_focus(None)
        self.selected = None
        self.refresh_table()
        self.say("")

    def action_command(self) -> None:
        self.query_one("#command", Input).focus()

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.game.rules))

    def save(self) -> None:
        if self.save_path is not None:
            self.save_path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.save_path.with_suffix(".tmp")
            temporary.write_text(json.dumps(self.game.to_json()))
            temporary.replace(self.save_path)
