"""Rule sets: one frozen record of data, and the named presets."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, Final

from bonanza.core.cards import DECK_SIZE, MAX_DECKS, SUIT_COUNT, Card, cards_of
from bonanza.core.choices import enum_member
from bonanza.core.errors import RulesError
from bonanza.core.moves import ALL_COLUMNS, ALL_FOUNDATIONS, Pile


class EmptyColumn(enum.Enum):
    """What may be moved into an empty tableau column."""

    KING = "king"
    ANY = "any"


class DealShape(enum.Enum):
    """How the columns are dealt."""

    STAIRCASE = "staircase"
    """Column n gets n cards, the last face up (Klondike)."""
    THREE_TWO_DOWN = "three"
    """Every column gets three cards, two face down and one up (Westcliff, Easthaven)."""


class StockMode(enum.Enum):
    """What a move from the stock does."""

    WASTE = "waste"
    """Turn ``draw`` cards onto the waste (Klondike)."""
    EVERY_COLUMN = "columns"
    """Deal one card face up onto every column, the last short deal onto the
    first columns (Easthaven)."""


KLONDIKE_COLUMNS: Final = 7
MAX_COLUMNS: Final = len(ALL_COLUMNS)
THREE_TWO_DOWN_CARDS: Final = 3
"""Cards per column in the ``THREE_TWO_DOWN`` shape (the last face up)."""


class Scoring(enum.Enum):
    """The score system of a game."""

    NONE = "none"
    STANDARD = "standard"
    TIMED = "timed"
    VEGAS = "vegas"
    VEGAS_CUMULATIVE = "vegas-cumulative"

    @property
    def is_vegas(self) -> bool:
        return self in (Scoring.VEGAS, Scoring.VEGAS_CUMULATIVE)


_CHOICE_FIELDS: Final[dict[str, type[enum.Enum]]] = {
    "empty_column": EmptyColumn, "scoring": Scoring, "deal_shape": DealShape,
    "stock_mode": StockMode,
}
"""The fields held as enums, and each one's enum (``to_dict`` gives their values)."""
_LAYOUT_FIELDS: Final = ("decks", "columns", "deal_shape", "stock_mode", "waste_start")
"""The fields that tell Klondike's relatives apart; left out of ``to_dict``
and ``to_text`` at their defaults, so Klondike's forms never change."""


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class Rules:
    """A rule set of Klondike or one of its relatives (docs/variants.md).

    ``passes`` is the number of passes through the stock (``None`` for
    unlimited): N passes allow N - 1 recycles of the waste. Vegas scoring has
    no unlimited passes: left unset, they are the desktop game's (1 with
    draw 1, 3 otherwise), and any finite number may be chosen instead.
    ``decks`` (1 or 2), ``columns``, ``deal_shape``, ``stock_mode`` and
    ``waste_start`` (cards dealt face up onto the waste) shape the table.
    """

    draw: int = 1
    passes: int | None = None
    empty_column: EmptyColumn = EmptyColumn.KING
    recall: bool = True
    partial_runs: bool = True
    thoughtful: bool = False
    scoring: Scoring = Scoring.STANDARD
    decks: int = 1
    columns: int = KLONDIKE_COLUMNS
    deal_shape: DealShape = DealShape.STAIRCASE
    stock_mode: StockMode = StockMode.WASTE
    waste_start: int = 0

    def __post_init__(self) -> None:
        if (
            isinstance(self.draw, bool)
            or not isinstance(self.draw, int)
            or not 1 <= self.draw <= 24
        ):
            raise RulesError(f"draw must be a whole number from 1 to 24, not {self.draw!r}")
        if self.passes is not None and (
            isinstance(self.passes, bool) or not isinstance(self.passes, int) or self.passes < 1
        ):
            raise RulesError(
                f"passes must be a whole number of at least 1, or unlimited, not {self.passes!r}"
            )
        for flag in ("recall", "partial_runs", "thoughtful"):
            if not isinstance(getattr(self, flag), bool):  # "off" would play as on
                raise RulesError(f"{flag} must be True or False, not {getattr(self, flag)!r}")
        if not isinstance(self.empty_column, EmptyColumn):
            raise RulesError(f"empty_column must be an EmptyColumn, not {self.empty_column!r}")
        if not isinstance(self.scoring, Scoring):
            raise RulesError(f"scoring must be a Scoring, not {self.scoring!r}")
        if self.scoring.is_vegas and self.passes is None:
            object.__setattr__(self, "passes", vegas_passes(self.draw))
        self._check_layout()

    def _check_layout(self) -> None:
        for name in ("decks", "columns", "waste_start"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(f"{name} must be a whole number, not {value!r}")
        if not 1 <= self.decks <= MAX_DECKS:
            raise RulesError(f"decks must be 1 or {MAX_DECKS}, not {self.decks}")
        if not 1 <= self.columns <= MAX_COLUMNS:
            raise RulesError(f"columns must be from 1 to {MAX_COLUMNS}, not {self.columns}")
        if not isinstance(self.deal_shape, DealShape):
            raise RulesError(f"deal_shape must be a DealShape, not {self.deal_shape!r}")
        if not isinstance(self.stock_mode, StockMode):
            raise RulesError(f"stock_mode must be a StockMode, not {self.stock_mode!r}")
        if self.waste_start < 0:
            raise RulesError(f"waste_start must not be negative, not {self.waste_start}")
        dealt = self.dealt_cards + self.waste_start
        if dealt > self.card_count:
            raise RulesError(
                f"{self.columns} columns dealt as {self.deal_shape.value} take "
                f"{self.dealt_cards} cards and the waste {self.waste_start}: "
                f"more than the {self.card_count} of {self.decks} deck(s)"
            )
        if self.stock_mode is StockMode.EVERY_COLUMN:
            if self.waste_start:
                raise RulesError(
                    "a stock dealt onto every column uses no waste: waste_start must be 0"
                )
            if self.draw != 1:
                raise RulesError(
                    "a stock dealt onto every column draws no cards: "
                    f"draw must be 1, not {self.draw}"
                )
            if self.passes != 1:
                raise RulesError(
                    "a stock dealt onto every column is never turned over: passes must be 1, "
                    f"not {passes_value_words(self.passes)}"
                )

    # -- the table's shape ----------------------------------------------------

    @property
    def card_count(self) -> int:
        """52 per deck."""
        return self.decks * DECK_SIZE

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards in play: ids 0-51, or 0-103 with two decks."""
        return cards_of(self.decks)

    @property
    def foundations(self) -> int:
        """How many foundations: four per deck."""
        return self.decks * SUIT_COUNT

    @property
    def tableau_piles(self) -> tuple[Pile, ...]:
        """The columns in play, left to right."""
        return ALL_COLUMNS[: self.columns]

    @property
    def foundation_piles(self) -> tuple[Pile, ...]:
        """The foundations in play, ``deck * 4 + suit``."""
        return ALL_FOUNDATIONS[: self.foundations]

    @property
    def column_sizes(self) -> tuple[int, ...]:
        """How many cards the deal puts in each column."""
        if self.deal_shape is DealShape.STAIRCASE:
            return tuple(range(1, self.columns + 1))
        return (THREE_TWO_DOWN_CARDS,) * self.columns

    @property
    def dealt_cards(self) -> int:
        """How many cards the deal puts in the columns."""
        return sum(self.column_sizes)

    @property
    def stock_size(self) -> int:
        """How many cards the stock holds at the start."""
        return self.card_count - self.dealt_cards - self.waste_start

    @property
    def is_klondike(self) -> bool:
        """Whether the table is Klondike's: one deck, seven columns in a
        staircase, a stock drawn to the waste (any draw, passes or options)."""
        return all(getattr(self, name) == _DEFAULTS[name] for name in _LAYOUT_FIELDS)

    def same_table(self, other: Rules) -> bool:
        """Whether a deal lays out alike under both: the same decks, columns,
        deal shape, stock and waste (draw, passes and options may differ)."""
        return all(getattr(self, name) == getattr(other, name) for name in _LAYOUT_FIELDS)

    @property
    def game(self) -> str:
        """The game's name: ``klondike``, or the preset whose table this is,
        or ``a custom table``."""
        if self.is_klondike:
            return "klondike"
        for name, preset in VARIANT_PRESETS.items():
            if all(getattr(self, f) == getattr(preset, f) for f in _LAYOUT_FIELDS):
                return name.removesuffix("-3")
        return CUSTOM_TABLE

    @property
    def recycles_allowed(self) -> int | None:
        """How many times the waste may be turned back into the stock."""
        return None if self.passes is None else self.passes - 1

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The named preset: one of ``ALL_PRESETS`` (Klondike's and its relatives')."""
        try:
            return ALL_PRESETS[name]
        except KeyError:
            raise RulesError(
                f"unknown rule preset {name!r}; presets are {', '.join(ALL_PRESETS)}"
            ) from None

    def to_dict(self) -> dict[str, Any]:
        """The rules as JSON-ready data (the table's fields only when they are
        not Klondike's, so Klondike's data never changes)."""
        data: dict[str, Any] = {
            "draw": self.draw,
            "passes": self.passes,
            "empty_column": self.empty_column.value,
            "recall": self.recall,
            "partial_runs": self.partial_runs,
            "thoughtful": self.thoughtful,
            "scoring": self.scoring.value,
        }
        for name in _LAYOUT_FIELDS:
            value = getattr(self, name)
            if value != _DEFAULTS[name]:
                data[name] = value.value if isinstance(value, enum.Enum) else value
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Read rules written by ``to_dict``; missing fields take their defaults."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object, not {data!r}")
        unknown = set(data) - {field.name for field in dataclasses.fields(cls)}
        if unknown:
            raise RulesError(f"unknown rule fields: {', '.join(sorted(unknown))}")
        fields = dict(data)
        try:
            for name, kind in _CHOICE_FIELDS.items():
                if name in fields:
                    fields[name] = enum_member(kind, fields[name], name)
        except ValueError as error:
            raise RulesError(str(error)) from None
        for flag in ("recall", "partial_runs", "thoughtful"):
            if flag in fields and not isinstance(fields[flag], bool):
                raise RulesError(f"{flag} must be true or false, not {fields[flag]!r}")
        return cls(**fields)

    def to_text(self) -> str:
        """A one-line text, such as ``draw=3 passes=3 empty=king recall=on ...``."""
        on = {True: "on", False: "off"}
        layout = [
            f"{_TEXT_KEYS[name]}={value.value if isinstance(value, enum.Enum) else value}"
            for name in _LAYOUT_FIELDS
            if (value := getattr(self, name)) != _DEFAULTS[name]
        ]
        return " ".join(
            (
                f"draw={self.draw}",
                f"passes={'unlimited' if self.passes is None else self.passes}",
                f"empty={self.empty_column.value}",
                f"recall={on[self.recall]}",
                f"runs={'partial' if self.partial_runs else 'whole'}",
                f"thoughtful={on[self.thoughtful]}",
                f"scoring={self.scoring.value}",
                *layout,
            )
        )

    @classmethod
    def from_text(cls, text: str) -> Rules:
        """Read ``to_text``'s form, or a preset name; missing fields take defaults."""
        text = text.strip()
        if text in ALL_PRESETS:
            return ALL_PRESETS[text]
        values: dict[str, Any] = {}
        flags = {"on": True, "off": False}
        for item in text.split():
            key, _, value = item.partition("=")
            try:
                if key == "draw":
                    values["draw"] = int(value)
                elif key == "passes":
                    values["passes"] = None if value == "unlimited" else int(value)
                elif key == "empty":
                    values["empty_column"] = EmptyColumn(value)
                elif key in ("recall", "thoughtful"):
                    values[key] = flags[value]
                elif key == "runs":
                    values["partial_runs"] = {"partial": True, "whole": False}[value]
                elif key == "scoring":
                    values["scoring"] = Scoring(value)
                elif key in ("decks", "columns", "waste"):
                    values[_FIELD_OF_KEY[key]] = int(value)
                elif key == "deal":
                    values["deal_shape"] = DealShape(value)
                elif key == "stock":
                    values["stock_mode"] = StockMode(value)
                else:
                    raise RulesError(f"rules {text!r}: unknown field {key!r}")
            except (ValueError, KeyError):
                raise RulesError(f"rules {text!r}: bad value in {item!r}") from None
        return cls(**values)

    def __repr__(self) -> str:
        changed = [
            f"{field.name}={_code(getattr(self, field.name))}"
            for field in dataclasses.fields(self)
            if getattr(self, field.name) != field.default
        ]
        return f"Rules({', '.join(changed)})"

    def __str__(self) -> str:
        parts = [
            f"draw {self.draw}",
            passes_words(self.passes),
            f"{self.empty_column.value} to empty",
        ]
        parts.append("recall" if self.recall else "no recall")
        if not self.partial_runs:
            parts.append("whole runs")
        if self.thoughtful:
            parts.append("thoughtful")
        parts.append(SCORING_WORDS[self.scoring])
        if self.game == CUSTOM_TABLE:
            table = [f"{self.decks} deck{'s' if self.decks > 1 else ''}", f"{self.columns} columns"]
            if self.waste_start:
                table.append(f"{self.waste_start} on the waste")
            if self.stock_mode is StockMode.EVERY_COLUMN:
                table.append("stock dealt onto every column")
            parts[:0] = table
        text = ", ".join(parts)
        return text if self.is_klondike else f"{self.title}: {text}"

    @property
    def label(self) -> str:
        """The rule set in a short line, as a game's table shows it: the stock (or
        how it deals), each option that is not Klondike's, and the scoring, such as
        ``Draw 3 · 3 passes · Vegas`` (``str`` is the full sentence)."""
        if self.stock_mode is StockMode.EVERY_COLUMN:
            parts = [EVERY_COLUMN_WORDS]
        else:
            parts = [f"Draw {self.draw}", capitalised(passes_words(self.passes))]
        if self.empty_column is EmptyColumn.ANY:
            parts.append("Any card to empty")
        if not self.recall:
            parts.append("No recall")
        if not self.partial_runs:
            parts.append("Whole runs")
        if self.thoughtful:
            parts.append("Thoughtful")
        parts.append(SCORING_NAMES[self.scoring])
        return LABEL_SEPARATOR.join(parts)

    def passes_left(self, recycles: int) -> str | None:
        """What a limited stock still allows after ``recycles`` turns of the waste:
        ``2 more passes``, ``1 more pass``, ``Last pass``; None when the passes are
        unlimited or the stock is dealt onto the columns (it is never passed)."""
        allowed = self.recycles_allowed
        if allowed is None or self.stock_mode is StockMode.EVERY_COLUMN:
            return None
        left = max(0, allowed - recycles)
        return counted(left, "more pass", "more passes") if left else "Last pass"

    @property
    def title(self) -> str:
        """The game's name as players write it: ``Klondike``, ``Double Klondike``,
        ``Westcliff``, ``Easthaven``, or ``Custom table``."""
        if self.game == CUSTOM_TABLE:
            return "Custom table"
        return self.game.replace("-", " ").title()


CUSTOM_TABLE: Final = "a custom table"
"""``Rules.game`` of a table that is neither Klondike's nor a relative's preset."""

# -- the words that name rules: the one phrasing of each, for every front end ----

SCORING_NAMES: Final = {
    Scoring.NONE: "No scoring",
    Scoring.STANDARD: "Standard",
    Scoring.TIMED: "Timed",
    Scoring.VEGAS: "Vegas",
    Scoring.VEGAS_CUMULATIVE: "Cumulative Vegas",
}
"""Each scoring's name, as ``Rules.label`` gives it."""
SCORING_WORDS: Final = {
    Scoring.NONE: "no scoring",
    Scoring.STANDARD: "standard scoring",
    Scoring.TIMED: "timed scoring",
    Scoring.VEGAS: "Vegas scoring",
    Scoring.VEGAS_CUMULATIVE: "cumulative Vegas scoring",
}
"""Each scoring in the words of ``str(rules)``, the full sentence."""
EVERY_COLUMN_WORDS: Final = "Stock deals onto every column"
"""``Rules.label``'s words for a stock dealt onto the columns: no draw, no passes."""
LABEL_SEPARATOR: Final = " · "


def counted(count: int, one: str, many: str) -> str:
    """``count`` and the word for it: ``1 pass``, ``3 passes``, ``0 times``."""
    return f"{count} {one if count == 1 else many}"


def passes_words(passes: int | None) -> str:
    """A pass limit in words: ``unlimited passes``, ``1 pass``, ``3 passes``."""
    return "unlimited passes" if passes is None else counted(passes, "pass", "passes")


def passes_value_words(passes: object) -> str:
    """A value given for the passes as a user types it: ``unlimited`` (``None``, JSON's
    ``null``), else its repr (``2``, ``'x'``)."""
    return "unlimited" if passes is None else repr(passes)


def capitalised(text: str) -> str:
    """``text`` with its first letter a capital."""
    return text[:1].upper() + text[1:]

VEGAS_PASSES_DRAW_1: Final = 1
VEGAS_PASSES_DRAW_MORE: Final = 3


def vegas_passes(draw: int) -> int:
    """The passes Vegas allows when none are chosen: 1 with draw 1, 3 otherwise."""
    return VEGAS_PASSES_DRAW_1 if draw == 1 else VEGAS_PASSES_DRAW_MORE


def _code(value: object) -> str:
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    return repr(value)


_DEFAULTS: Final[dict[str, object]] = {
    field.name: field.default for field in dataclasses.fields(Rules)
}
_TEXT_KEYS: Final = {"decks": "decks", "columns": "columns", "deal_shape": "deal",
                     "stock_mode": "stock", "waste_start": "waste"}
"""Each table field's key in ``to_text``."""
_FIELD_OF_KEY: Final = {key: name for name, key in _TEXT_KEYS.items()}

DOUBLE_KLONDIKE_COLUMNS: Final = 9
WESTCLIFF_COLUMNS: Final = 10

PRESETS: Final[dict[str, Rules]] = {
    "klondike": Rules(),
    "klondike-3": Rules(draw=3),
    "vegas-1": Rules(draw=1, passes=1, scoring=Scoring.VEGAS),
    "vegas-3": Rules(draw=3, passes=3, scoring=Scoring.VEGAS),
    "thoughtful": Rules(thoughtful=True),
}
"""Klondike's presets: what the games, the solver and the command line offer."""

VARIANT_PRESETS: Final[dict[str, Rules]] = {
    "double-klondike": Rules(decks=2, columns=DOUBLE_KLONDIKE_COLUMNS),
    "double-klondike-3": Rules(draw=3, decks=2, columns=DOUBLE_KLONDIKE_COLUMNS),
    "westcliff": Rules(
        passes=1, empty_column=EmptyColumn.ANY, recall=False, columns=WESTCLIFF_COLUMNS,
        deal_shape=DealShape.THREE_TWO_DOWN, waste_start=1,
    ),
    "easthaven": Rules(
        passes=1, empty_column=EmptyColumn.ANY, deal_shape=DealShape.THREE_TWO_DOWN,
        stock_mode=StockMode.EVERY_COLUMN,
    ),
}
"""Klondike's relatives (docs/variants.md): only the engine plays them yet,
so they are kept apart from ``PRESETS``, which other packages list."""

ALL_PRESETS: Final[dict[str, Rules]] = {**PRESETS, **VARIANT_PRESETS}
"""Every preset ``Rules.preset`` and ``Rules.from_text`` know."""
