"""Rule sets: one frozen record of data, and the named presets."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, Final

from bonanza.core.errors import RulesError


class EmptyColumn(enum.Enum):
    """What may be moved into an empty tableau column."""

    KING = "king"
    ANY = "any"


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


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class Rules:
    """A Klondike rule set.

    ``passes`` is the number of passes through the stock (``None`` for
    unlimited): N passes allow N - 1 recycles of the waste. Vegas scoring has
    no unlimited passes: left unset, they are the desktop game's (1 with
    draw 1, 3 otherwise), and any finite number may be chosen instead.
    """

    draw: int = 1
    passes: int | None = None
    empty_column: EmptyColumn = EmptyColumn.KING
    recall: bool = True
    partial_runs: bool = True
    thoughtful: bool = False
    scoring: Scoring = Scoring.STANDARD

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
                f"passes must be a whole number of at least 1 or None, not {self.passes!r}"
            )
        if not isinstance(self.empty_column, EmptyColumn):
            raise RulesError(f"empty_column must be an EmptyColumn, not {self.empty_column!r}")
        if not isinstance(self.scoring, Scoring):
            raise RulesError(f"scoring must be a Scoring, not {self.scoring!r}")
        if self.scoring.is_vegas and self.passes is None:
            object.__setattr__(self, "passes", vegas_passes(self.draw))

    @property
    def recycles_allowed(self) -> int | None:
        """How many times the waste may be turned back into the stock."""
        return None if self.passes is None else self.passes - 1

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The named preset: one of ``PRESETS``."""
        try:
            return PRESETS[name]
        except KeyError:
            raise RulesError(
                f"unknown rule preset {name!r}; presets are {', '.join(PRESETS)}"
            ) from None

    def to_dict(self) -> dict[str, Any]:
        """The rules as JSON-ready data."""
        return {
            "draw": self.draw,
            "passes": self.passes,
            "empty_column": self.empty_column.value,
            "recall": self.recall,
            "partial_runs": self.partial_runs,
            "thoughtful": self.thoughtful,
            "scoring": self.scoring.value,
        }

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
            if "empty_column" in fields:
                fields["empty_column"] = EmptyColumn(fields["empty_column"])
            if "scoring" in fields:
                fields["scoring"] = Scoring(fields["scoring"])
        except ValueError as error:
            raise RulesError(str(error)) from None
        for flag in ("recall", "partial_runs", "thoughtful"):
            if flag in fields and not isinstance(fields[flag], bool):
                raise RulesError(f"{flag} must be true or false, not {fields[flag]!r}")
        return cls(**fields)

    def to_text(self) -> str:
        """A one-line text, such as ``draw=3 passes=3 empty=king recall=on ...``."""
        on = {True: "on", False: "off"}
        return " ".join(
            (
                f"draw={self.draw}",
                f"passes={'unlimited' if self.passes is None else self.passes}",
                f"empty={self.empty_column.value}",
                f"recall={on[self.recall]}",
                f"runs={'partial' if self.partial_runs else 'whole'}",
                f"thoughtful={on[self.thoughtful]}",
                f"scoring={self.scoring.value}",
            )
        )

    @classmethod
    def from_text(cls, text: str) -> Rules:
        """Read ``to_text``'s form, or a preset name; missing fields take defaults."""
        text = text.strip()
        if text in PRESETS:
            return PRESETS[text]
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
        passes = "unlimited" if self.passes is None else str(self.passes)
        parts = [
            f"draw {self.draw}",
            f"{passes} pass" if passes == "1" else f"{passes} passes",
            f"{self.empty_column.value} to empty",
        ]
        parts.append("recall" if self.recall else "no recall")
        if not self.partial_runs:
            parts.append("whole runs")
        if self.thoughtful:
            parts.append("thoughtful")
        parts.append(f"{self.scoring.value} scoring")
        return ", ".join(parts)


VEGAS_PASSES_DRAW_1: Final = 1
VEGAS_PASSES_DRAW_MORE: Final = 3


def vegas_passes(draw: int) -> int:
    """The passes Vegas allows when none are chosen: 1 with draw 1, 3 otherwise."""
    return VEGAS_PASSES_DRAW_1 if draw == 1 else VEGAS_PASSES_DRAW_MORE


def _code(value: object) -> str:
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    return repr(value)


PRESETS: Final[dict[str, Rules]] = {
    "klondike": Rules(),
    "klondike-3": Rules(draw=3),
    "vegas-1": Rules(draw=1, passes=1, scoring=Scoring.VEGAS),
    "vegas-3": Rules(draw=3, passes=3, scoring=Scoring.VEGAS),
    "thoughtful": Rules(thoughtful=True),
}
