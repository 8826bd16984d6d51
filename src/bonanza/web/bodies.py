"""What the API reads from request bodies, as declared types (``requests.read_json``).

A field absent or ``null`` takes its default. Unknown fields are ignored, as
they always were, except in the settings and in rules, which refuse them (a
misspelt setting or rule must not pass for the default). ``noun`` names a
body's fields in its errors. The values are checked where their rules live:
a move by ``moves_input``, rules by ``Rules``, settings by
``bonanza.storage.player_settings``.
"""

from __future__ import annotations

from typing import ClassVar

from msgspec import UNSET, Struct, UnsetType
from msgspec.structs import asdict

from bonanza.core import Rules


class Body(Struct):
    """A request body: a JSON object."""

    noun: ClassVar[str] = "field"
    """What the body's fields are called in its errors."""


class NoBody(Body):
    """The body of an action that takes none: any object, or nothing."""


def given(body: Struct) -> dict[str, object]:
    """The fields of ``body`` the request gave (those not ``UNSET``)."""
    return {name: value for name, value in asdict(body).items() if value is not UNSET}


class RulesBody(Body, forbid_unknown_fields=True):
    """A rule set as ``Rules.to_dict`` writes it; a field left out takes its default."""

    draw: int | UnsetType = UNSET
    passes: int | UnsetType | None = UNSET
    empty_column: str | UnsetType = UNSET
    recall: bool | UnsetType = UNSET
    partial_runs: bool | UnsetType = UNSET
    thoughtful: bool | UnsetType = UNSET
    scoring: str | UnsetType = UNSET
    decks: int | UnsetType = UNSET
    columns: int | UnsetType = UNSET
    deal_shape: str | UnsetType = UNSET
    stock_mode: str | UnsetType = UNSET
    waste_start: int | UnsetType = UNSET

    def rules(self) -> Rules:
        """The rules (``Rules.from_dict`` checks the values: ``RulesError``)."""
        return Rules.from_dict(given(self))


class NewGameBody(Body):
    """``POST /api/games``: the ``rules`` or a ``preset``, and what to deal: a random
    deal, a typed ``deal``, a ``share``, a ``replay``, a winnable deal of ``grade``,
    or the ``daily`` deal (``today`` or a date) of the draw mode ``draw``."""

    rules: RulesBody | None = None
    preset: str | None = None
    deal: str | None = None
    share: str | None = None
    replay: str | None = None
    grade: str | None = None
    daily: str | None = None
    draw: int | None = None


class MoveBody(Body):
    """A move: ``move`` in notation (``"w3"``), or ``source``, ``dest`` and ``count``."""

    move: str | None = None
    source: int | None = None
    dest: int | None = None
    count: int | None = None


class DealCheckBody(Body):
    """``POST /api/deals/check``: the ``deal`` text, and the ``decks`` it is of."""

    deal: str | None = None
    decks: int | None = None


class SettingsBody(Body, forbid_unknown_fields=True):
    """``POST /api/settings``: the settings to change (``given``; the others are left out)."""

    noun: ClassVar[str] = "setting"

    card_back: str | UnsetType = UNSET
    theme: str | UnsetType = UNSET
    left_handed: bool | UnsetType = UNSET
    card_size: str | UnsetType = UNSET
    one_tap: bool | UnsetType = UNSET
    safe_home: bool | UnsetType = UNSET
    sound: bool | UnsetType = UNSET
    volume: int | UnsetType = UNSET
