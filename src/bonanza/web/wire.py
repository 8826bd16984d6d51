"""The game as the browser receives it: the answer of every game route, as declared types.

Each type is a ``msgspec.Struct``, encoded in field order. A field that is
sometimes absent from the JSON defaults to ``UNSET`` (never encoded); a field
that is sometimes ``null`` is typed ``... | None`` and always sent. What may be
shown, and when, is ``view``'s rule; these types only say how it is spelled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import UNSET, Struct, UnsetType

if TYPE_CHECKING:
    from bonanza.play.answers import ProgressReply


class MoveData(Struct, frozen=True):
    """A move as the browser uses it: piles by number, plus its notation."""

    source: int
    dest: int
    count: int
    text: str


class ColumnView(Struct):
    """A column: how many cards lie face down, and the face-up cards; the face-down
    cards' names only under thoughtful rules."""

    down: int
    up: list[str]
    down_cards: list[str] | UnsetType = UNSET


class StockView(Struct):
    """The stock: a count, and its cards only under thoughtful rules."""

    count: int
    cards: list[str] | UnsetType = UNSET


class PositionView(Struct):
    """The visible part of a position, with its legal moves, and what its pass limit
    still allows (``Rules.passes_left``: "2 more passes"; None when unlimited)."""

    columns: list[ColumnView]
    stock: StockView
    waste: list[str]
    foundations: list[str | None]
    home: int
    recycles: int
    recycles_left: int | None
    legal: list[MoveData]
    passes_left: str | None


class RulesData(Struct, frozen=True):
    """A rule set as ``Rules.to_dict`` writes it: the table's fields only when they
    are not Klondike's."""

    draw: int
    passes: int | None
    empty_column: str
    recall: bool
    partial_runs: bool
    thoughtful: bool
    scoring: str
    decks: int | UnsetType = UNSET
    columns: int | UnsetType = UNSET
    deal_shape: str | UnsetType = UNSET
    stock_mode: str | UnsetType = UNSET
    waste_start: int | UnsetType = UNSET


class RuleTerm(Struct, frozen=True):
    """One rule of the game in play as the help names it ("Recall on"), and the key of
    the help's words on what it changes (``help.html``'s ``data-rule``)."""

    term: str
    key: str


class RulesWords(Struct, frozen=True):
    """How the page names the rules in play: ``label`` on the table (``Rules.label``:
    "Draw 3 · 3 passes · Vegas"), ``terms`` in the help, and ``recycles`` ("2 times")
    in its words (``rules_words``)."""

    label: str
    terms: list[RuleTerm]
    recycles: str


class TableView(Struct, frozen=True):
    """What the page lays out: the game's name and title, its columns and
    foundations, whether it has a waste and what a move from the stock does."""

    game: str
    title: str
    columns: int
    foundations: int
    decks: int
    waste: bool
    stock: str


class Step(Struct):
    """The table after one move of several (a move and the cards sent home after it)."""

    position: PositionView
    announce: str
    last: MoveData | None


class Record(Struct):
    """A record a win sets: its name, the new value and the one it beats."""

    name: str
    value: int | float
    previous: int | float | None


class RecordsSet(Struct):
    """What a win sets (``records_set``): whether it counts in the records, whether
    it is the first win of its rules, and the records it beats."""

    in_records: bool
    first_win: bool
    records: list[Record]


class ProgressAnswer(Struct):
    """Whether progress is still possible (None: not proven either way), the words
    when the check does not look at these rules yet, and whether an auto finish
    is offered."""

    progress: bool | None
    unavailable: str | UnsetType = UNSET
    auto_finish: bool = False

    @classmethod
    def of(cls, reply: ProgressReply, auto_finish: bool) -> ProgressAnswer:
        words = UNSET if reply.unavailable is None else reply.unavailable
        return cls(reply.progress, words, auto_finish)


class GameView(Struct):
    """A game as the browser sees it at one moment, and what just happened in it.

    ``rules_label`` is ``str(rules)``, the full sentence; ``rules_words``, the page's
    words for them. The deal (``deal``, ``deal_code``) only once the game is over; ``typed``, what
    the player typed; ``grade`` and ``daily``, a stocked deal's labels; ``bankroll``
    under cumulative Vegas. ``history``, the moves' texts, is in a game's own view
    (``GET``), not in an action's answer, which adds its words (``announce``), its
    move (``last``), the tables between (``steps``) and, for a win, its records.
    ``progress`` is the progress check of the game as it is now, when it was at hand
    (absent: the page asks ``GET .../progress``), so that a move is one request."""

    id: str
    rules: RulesData
    rules_label: str
    rules_words: RulesWords
    table: TableView
    status: str
    origin: str
    won: bool
    position: PositionView
    has_moves: bool
    moves: int
    score: int
    timed: bool
    elapsed: float
    running: bool
    idle_cap: float
    can_undo: bool
    can_redo: bool
    can_restart: bool
    auto_finish: bool
    assisted: bool
    safe_home: bool
    history: list[str] | UnsetType = UNSET
    typed: str | UnsetType = UNSET
    deal: str | UnsetType = UNSET
    grade: str | UnsetType = UNSET
    daily: str | UnsetType = UNSET
    deal_code: str | UnsetType = UNSET
    bankroll: int | UnsetType = UNSET
    announce: str | UnsetType = UNSET
    last: MoveData | UnsetType = UNSET
    steps: list[Step] | UnsetType = UNSET
    in_records: bool | UnsetType = UNSET
    first_win: bool | UnsetType = UNSET
    records: list[Record] | UnsetType = UNSET
    progress: ProgressAnswer | UnsetType = UNSET

    def add_records(self, found: RecordsSet) -> None:
        """Name the records a win sets."""
        self.in_records, self.first_win, self.records = (
            found.in_records,
            found.first_win,
            found.records,
        )
