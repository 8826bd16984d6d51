"""The help screen: every key, the typed-move notation, and the rules in play.

Use::

    self.push_screen(HelpScreen(self.game.rules))

It returns nothing (dismisses with ``None``) and closes on Esc, q or ?.
"""

from __future__ import annotations

import io
from typing import ClassVar, Final

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from bonanza.core.cards import MAX_DECKS
from bonanza.core.rules import DealShape, EmptyColumn, Rules, Scoring, StockMode
from bonanza.core.scoring import VEGAS_ANTE
from bonanza.session.winnable import EXPLANATION, LABEL

KEYS: Final[tuple[tuple[str, str], ...]] = (
    ("Space", "draw, or turn the waste over (clicking the stock does the same)"),
    ("1 – 7", "pick up a column, or drop the picked cards onto it"),
    ("w", "pick up the waste's top card"),
    ("f", "send the picked card to its foundation"),
    ("Esc", "cancel the pick (or leave the move box)"),
    (":", "type a move in the box under the table (see below), then Enter; Esc leaves the box"),
    ("u", "undo"),
    ("y", "redo"),
    ("r", "restart the deal (redo replays the moves; not in Vegas after a draw)"),
    ("h", "hint: light up a good move"),
    ("W", f"{LABEL}: {EXPLANATION}"),
    ("v", "review the game you lost: the move that lost it, and a line that would have won"),
    ("a", "auto finish, once you know every card and the solver proves the win: "
          "play the winning line to the end (again to stop)"),
    ("o", "safe auto-play on or off: after each move, cards no other card can ever need "
          "go home by themselves; a card you take down stays down; one undo takes back "
          "your move and them (kept for next time)"),
    ("n", "new deal: the rules, and any deal, a winnable deal of a grade, today's daily "
          "deal, the same deal again, or a deal or share code typed (a game in progress "
          "counts as lost)"),
    ("D", "daily deals: your daily statistics and streaks, the last 30 days' results; "
          "Enter plays a day's deal (today's first)"),
    ("x", "share this deal: a share code and its web link, open once this game is over "
          "(n's deal box or bonanza play --share plays it)"),
    ("s", "statistics"),
    ("? or F1", "this help"),
    ("q", "quit (the game is saved after every move, and resumes next time)"),
)
"""Each key and what it does, in the order shown (Klondike's: see ``keys_for``)."""

MOVES: Final[tuple[tuple[str, str], ...]] = (
    ("sw", "draw from the stock to the waste (ws turns the waste over)"),
    ("w3", "the waste's top card to column 3"),
    ("wf", "the waste's top card to its foundation"),
    ("6f", "column 6's top card to its foundation"),
    ("fh2", "the hearts foundation's top card back to column 2"),
    ("47", "one card from column 4 to column 7"),
    ("47:3", "three cards from column 4 to column 7"),
)
"""Typed-move examples: source pile, destination pile, and ``:count`` for runs
(Klondike's: see ``moves_for``)."""

TYPING_FIRST: Final = (
    "Press : first (or click the box under the table): until then every key is the "
    "game's own, so s shows the statistics and w picks up the waste. Then type the "
    "move and press Enter; it is played and the keys play the game again."
)
"""How a typed move starts, above the examples."""
PILE_TOKENS: Final = (
    "Piles: 1–7 the columns, s the stock, w the waste, f a foundation "
    "(fc fd fh fs by suit: clubs, diamonds, hearts, spades)."
)
COLUMN_KEYS: Final = "1 – 7"
"""Klondike's column keys in ``KEYS``."""
TENTH_COLUMN: Final = 10
"""The column whose key is 0."""
DEAL_KEY: Final = "deal one card face up onto every column (clicking the stock does the same)"
WASTE_MOVES: Final = ("sw", "w3", "wf")
"""The typed moves that need a waste."""
DEAL_MOVE: Final = ("st", "deal one card onto every column")
SECOND_FOUNDATION_MOVE: Final = ("3fh2", "column 3's top card to the second hearts foundation")
TENTH_COLUMN_MOVE: Final = ("103", "one card from column 10 to column 3")
KEY_WIDTH: Final = 8
"""Width of the key (or move) column."""
TEXT_WIDTH: Final = 74
"""Width of the help's text inside its box."""


def column_keys(rules: Rules) -> str:
    """The keys of the columns: ``1 – 7``, ``1 – 9``, or ``1 – 9, 0`` for ten."""
    if rules.columns >= TENTH_COLUMN:
        return "1 – 9, 0"
    return f"1 – {rules.columns}"


def keys_for(rules: Rules) -> tuple[tuple[str, str], ...]:
    """``KEYS`` as they work under ``rules``: the columns' keys, Space's deal
    where the stock deals onto the columns, no waste key where there is none."""
    deals = rules.stock_mode is StockMode.EVERY_COLUMN
    rows: list[tuple[str, str]] = []
    for key, what in KEYS:
        if key == "Space" and deals:
            what = DEAL_KEY
        elif key == COLUMN_KEYS:
            key = column_keys(rules)
            if rules.columns >= TENTH_COLUMN:
                what += " (0 is column 10)"
        elif key == "w" and deals:
            continue
        elif key == "f" and rules.decks == MAX_DECKS:
            what += " (the first of its suit's two that takes it)"
        rows.append((key, what))
    return tuple(rows)


def moves_for(rules: Rules) -> tuple[tuple[str, str], ...]:
    """``MOVES`` as they are typed under ``rules``: the deal ``st`` instead of
    the waste's moves, a second foundation, column 10."""
    rows = list(MOVES)
    if rules.stock_mode is StockMode.EVERY_COLUMN:
        rows = [DEAL_MOVE, *(row for row in rows if row[0] not in WASTE_MOVES)]
    if rules.decks == MAX_DECKS:
        rows.append(SECOND_FOUNDATION_MOVE)
    if rules.columns >= TENTH_COLUMN:
        rows.append(TENTH_COLUMN_MOVE)
    return tuple(rows)


def pile_tokens(rules: Rules) -> str:
    """How piles are written in a typed move under ``rules``."""
    if rules.is_klondike:
        return PILE_TOKENS
    waste = "" if rules.stock_mode is StockMode.EVERY_COLUMN else ", w the waste"
    second = "; fc2 fd2 fh2 fs2 the second deck's" if rules.decks == MAX_DECKS else ""
    return (
        f"Piles: 1–{rules.columns} the columns, s the stock{waste}, f a foundation "
        f"(fc fd fh fs by suit: clubs, diamonds, hearts, spades{second})."
    )


def _table(rows: tuple[tuple[str, str], ...], key_width: int = KEY_WIDTH) -> Table:
    """Two columns, the second wrapping under itself."""
    table = Table.grid(padding=(0, 1))
    table.add_column(width=key_width, style="bold", no_wrap=True)
    table.add_column(ratio=1)
    for key, what in rows:
        table.add_row(key, what)
    return table


def plain_text(renderable: RenderableType, width: int = TEXT_WIDTH) -> str:
    """What ``renderable`` shows, as plain text ``width`` characters wide."""
    console = Console(width=width, file=io.StringIO(), color_system=None, record=True)
    console.print(renderable)
    return console.export_text()


def _passes(rules: Rules) -> str:
    if rules.stock_mode is StockMode.EVERY_COLUMN:
        return "The stock is dealt once: it is never turned over."
    passes = rules.passes
    if passes is None:
        return "Unlimited passes: turn the waste back over into the stock as often as you like."
    if passes == 1:
        return "One pass through the stock: the waste is never turned back over."
    return (
        f"{passes} passes through the stock: the waste may be turned back over "
        f"{passes - 1} time{'s' if passes != 2 else ''}."
    )


def _standard_points(rules: Rules) -> str:
    recycle = (
        "each turn of the waste -100"
        if rules.draw == 1
        else "each turn of the waste after the third pass -20"
    )
    return (
        "+10 a card to a foundation, +5 a waste card to a column, +5 a card turned face up, "
        f"-15 a card back from a foundation, {recycle}; the score never goes below 0."
    )


def _scoring(rules: Rules) -> str:
    scoring = rules.scoring
    if scoring is Scoring.NONE:
        return "No score is kept."
    if scoring is Scoring.STANDARD:
        return "Standard scoring: " + _standard_points(rules)
    if scoring is Scoring.TIMED:
        return (
            "Timed scoring: " + _standard_points(rules) + " The clock takes 2 points every "
            "10 seconds, and a win after 30 seconds or more adds 700,000 ÷ seconds."
        )
    vegas = (
        f"Vegas scoring: the deal costs ${VEGAS_ANTE} and every card on a foundation "
        "pays $5 (a card taken back costs $5)."
    )
    if scoring is Scoring.VEGAS_CUMULATIVE:
        vegas += " Your bankroll carries over from game to game."
    return vegas


def _numbered(count: int, what: str) -> str:
    return f"{count} {what}{'s' if count != 1 else ''}"


def table_description(rules: Rules) -> str | None:
    """How a relative's table is laid out, in one sentence (None for Klondike's)."""
    if rules.is_klondike:
        return None
    decks = "two decks (104 cards)" if rules.decks == MAX_DECKS else "one deck"
    if rules.deal_shape is DealShape.STAIRCASE:
        columns = f"{rules.columns} columns of 1 to {rules.columns} cards, the last face up"
    else:
        columns = f"{rules.columns} columns of three cards, two face down"
    foundations = _numbered(rules.foundations, "foundation")
    if rules.decks == MAX_DECKS:
        foundations += ", two per suit: a card may go onto either of its suit's"
    parts = [f"{rules.title}: {decks}, {columns}; {foundations}"]
    if rules.waste_start:
        parts.append(f"{_numbered(rules.waste_start, 'card')} starts face up on the waste")
    parts.append(f"{_numbered(rules.stock_size, 'card')} stay in the stock")
    return "; ".join(parts) + "."


def _stock(rules: Rules) -> str:
    if rules.stock_mode is StockMode.EVERY_COLUMN:
        return (
            "There is no waste: Space deals one card face up onto every column, empty ones "
            "too (a last short deal goes to the first columns); only the run at the top of "
            "a column moves."
        )
    cards = "one card" if rules.draw == 1 else f"{rules.draw} cards"
    return f"Each draw turns {cards} from the stock; only the waste's top card plays."


def rules_description(rules: Rules) -> list[str]:
    """The rules in plain words, one sentence (or two) per rule."""
    table = table_description(rules)
    return [
        *([table] if table is not None else []),
        _stock(rules),
        _passes(rules),
        "Only a King, or a run headed by a King, may fill an empty column."
        if rules.empty_column is EmptyColumn.KING
        else "Any card or run may fill an empty column.",
        "A foundation's top card may come back down to a column."
        if rules.recall
        else "Cards on the foundations stay there.",
        "Any part of a face-up run may move onto another column."
        if rules.partial_runs
        else "Only a whole face-up run moves between columns, never part of one.",
        "Thoughtful: every card is face up to you (face-down cards are shown dim)."
        if rules.thoughtful
        else "Face-down cards stay hidden until they are turned up.",
        _scoring(rules),
    ]


class HelpScreen(ModalScreen[None]):
    """Keys, move notation and the current rules, in a scrolling box."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > #help-scroll {
        width: 78; max-width: 100%; height: auto; max-height: 100%;
        border: round $accent; background: $surface; padding: 0 1;
        border-subtitle-color: $text-muted;
    }
    HelpScreen .heading { text-style: bold; color: $accent; margin-top: 1; }
    HelpScreen .heading.first { margin-top: 0; }
    """
    AUTO_FOCUS = "#help-scroll"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("q", "close", "Close", show=False),
        Binding("question_mark", "close", "Close", show=False),
    ]

    def __init__(self, rules: Rules) -> None:
        super().__init__()
        self.rules = rules

    def sections(self) -> list[tuple[str, RenderableType]]:
        """The help's headings and what each says."""
        rules = tuple(("•", line) for line in rules_description(self.rules))
        return [
            ("Keys", _table(keys_for(self.rules))),
            ("Typed moves", Group(
                Text(TYPING_FIRST), _table(moves_for(self.rules)), Text(pile_tokens(self.rules))
            )),
            (f"Rules now: {self.rules}", _table(rules, key_width=1)),
        ]

    def compose(self) -> ComposeResult:
        scroll = VerticalScroll(id="help-scroll")
        scroll.border_title = "Help"
        scroll.border_subtitle = "Esc, q or ? closes · ↑ ↓ PgUp PgDn scroll"
        with scroll:
            for number, (heading, body) in enumerate(self.sections()):
                yield Static(Text(heading), classes="heading first" if number == 0 else "heading")
                yield Static(body, classes="body")

    def text(self) -> str:
        """Everything the screen says, as plain text (for tests and screen readers)."""
        return "\n".join(
            f"{heading}\n{plain_text(body)}" for heading, body in self.sections()
        )

    def action_close(self) -> None:
        self.dismiss(None)
