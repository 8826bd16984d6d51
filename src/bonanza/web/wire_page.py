"""What the page carries in its data block, as declared types (``page``): the player's
data, and the words and choices it takes from the server (``page_words``)."""

from __future__ import annotations

from msgspec import UNSET, Struct, UnsetType

from bonanza.web.wire import GameView, RulesData, TableView
from bonanza.web.wire_answers import Settings


class TableFields(Struct, frozen=True):
    """The rule fields that lay a table out, where they are not Klondike's."""

    decks: int | UnsetType = UNSET
    columns: int | UnsetType = UNSET
    deal_shape: str | UnsetType = UNSET
    stock_mode: str | UnsetType = UNSET
    waste_start: int | UnsetType = UNSET


class ChoiceRules(Struct, frozen=True):
    """The rules choosing a game sets in the new-deal dialog."""

    draw: int
    passes: int | None
    empty_column: str
    recall: bool


class GameChoice(Struct, frozen=True):
    """A game the new-deal dialog offers: its id (a preset's name) and label, its
    table, the rules choosing it sets, the fields it allows no choice in, its note."""

    id: str
    label: str
    table: TableFields
    rules: ChoiceRules
    fixed: list[str]
    note: str


class Defaults(Struct, frozen=True):
    """What a page starts from before it knows better: the standard rules, their
    table (laid out before a game is in), and every setting at its default."""

    rules: RulesData
    table: TableView
    settings: Settings


class VegasWords(Struct, frozen=True):
    """The Vegas scorings, and the passes Vegas plays with by draw unless others are chosen."""

    scorings: list[str]
    passes: dict[str, int]


class WinnableWords(Struct, frozen=True):
    """How "still winnable?" is offered and confirmed, and what is said of an assisted
    game (in the win dialog, in the statistics)."""

    label: str
    confirm: str
    asked: str
    assisted_games: str


class PageWords(Struct, frozen=True):
    """Every word and choice the page takes from the server."""

    games: list[GameChoice]
    table_fields: list[str]
    defaults: Defaults
    vegas: VegasWords
    winnable: WinnableWords


class PageData(Struct):
    """The page's ``words``; the player's ``settings`` and latest game (``current``:
    null before the first), each left out when it cannot be read; a new player's
    first deal (``started``)."""

    words: PageWords
    settings: Settings | UnsetType = UNSET
    current: GameView | UnsetType | None = UNSET
    started: GameView | UnsetType = UNSET
