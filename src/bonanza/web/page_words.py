"""The words and choices the page takes from the server instead of keeping copies:
the games the new-deal dialog offers (from ``core.rules``' presets), the rules and
settings a page starts from, Vegas's passes, and the wording of "still winnable?".

Made once, carried in every page (``PageData.words``); a game's own rules come
named in its answers (``GameView.rules_words``, ``PositionView.passes_left``).
"""

from __future__ import annotations

from typing import Final

import msgspec

from bonanza.core.rules import (
    PRESETS,
    VARIANT_PRESETS,
    Rules,
    Scoring,
    StockMode,
    vegas_passes,
)
from bonanza.play.answers import STILL_WINNABLE
from bonanza.session import winnable
from bonanza.storage.player_settings import SETTINGS
from bonanza.web.view import table_view
from bonanza.web.wire import RulesData
from bonanza.web.wire_answers import Settings
from bonanza.web.wire_page import (
    ChoiceRules,
    Defaults,
    GameChoice,
    PageWords,
    TableFields,
    VegasWords,
    WinnableWords,
)

FORM_DRAWS: Final = (1, 3)
"""The draws the new-deal dialog offers."""
KLONDIKE: Final = "klondike"
GAME_NOTES: Final = {
    "double-klondike": "Two decks, 9 columns, 8 foundations: two of each suit.",
    "double-klondike-3": "Two decks, 9 columns, 8 foundations: two of each suit.",
    "westcliff": "10 columns of 3 and one card on the waste; one pass through the stock.",
    "easthaven": "7 columns of 3, no waste: the stock deals a card onto every column. One pass.",
}
"""What the new-deal dialog says of each game under its choice (Klondike needs no words)."""
FIXED_BY_COLUMN_DEALS: Final = ("draw", "passes")
"""The rules a stock dealt onto the columns allows no choice in (``Rules`` checks them)."""


def rules_data(rules: Rules) -> RulesData:
    return msgspec.convert(rules.to_dict(), RulesData)


def game_choice(name: str, rules: Rules) -> GameChoice:
    """The game of preset ``name``: its label, its table's fields (those not
    Klondike's), the rules choosing it sets, the fields it fixes, and its note."""
    label = rules.title if rules.draw == 1 else f"{rules.title}, {rules.draw}-card draw"
    base = Rules().to_dict()
    table = {key: value for key, value in rules.to_dict().items() if key not in base}
    fixed = FIXED_BY_COLUMN_DEALS if rules.stock_mode is StockMode.EVERY_COLUMN else ()
    return GameChoice(
        id=name,
        label=label,
        table=msgspec.convert(table, TableFields),
        rules=ChoiceRules(rules.draw, rules.passes, rules.empty_column.value, rules.recall),
        fixed=list(fixed),
        note=GAME_NOTES.get(name, ""),
    )


def page_words() -> PageWords:
    """Every word and choice the page takes from the server."""
    games = [(KLONDIKE, PRESETS[KLONDIKE]), *VARIANT_PRESETS.items()]
    defaults = {name: spec.decode(None) for name, spec in SETTINGS.items()}
    return PageWords(
        games=[game_choice(name, rules) for name, rules in games],
        table_fields=list(TableFields.__struct_fields__),
        defaults=Defaults(
            rules_data(Rules()), table_view(Rules()), msgspec.convert(defaults, Settings)
        ),
        vegas=VegasWords(
            scorings=[scoring.value for scoring in Scoring if scoring.is_vegas],
            passes={str(draw): vegas_passes(draw) for draw in FORM_DRAWS},
        ),
        winnable=WinnableWords(
            label=winnable.LABEL,
            confirm=winnable.CONFIRM,
            asked=f"{STILL_WINNABLE} was asked: this game counts apart from your records",
            assisted_games=(
                f"Assisted games ({STILL_WINNABLE.lower()} peeked at hidden cards)"
                " — not counted above"
            ),
        ),
    )


WORDS: Final = page_words()
