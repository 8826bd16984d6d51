"""A player's settings, kept in the store's settings under the player's token.

Both games read them: a local ``bonanza serve`` and ``bonanza play`` share this
machine's player, and so its settings. The terminal uses safe auto-play; the
web page uses them all. Each setting is one store entry, ``player:<token>:<name>``,
holding its value as text; a setting never stored (or stored by an older
version with a value it no longer takes) reads as its default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Protocol

from bonanza.storage.protocol import Storage

SettingValue = str | bool | int
"""What a setting holds, as it goes over JSON."""

SAFE_HOME: Final = "safe_home"
"""Safe auto-play: safe cards go home by themselves after each move (off by default)."""
CARD_BACK: Final = "card_back"
THEME: Final = "theme"
LEFT_HANDED: Final = "left_handed"
"""Stock and waste on the right, foundations on the left."""
CARD_SIZE: Final = "card_size"
ONE_TAP: Final = "one_tap"
"""A tap on a card with only one move plays it (off: pick up, then tap where)."""
SOUND: Final = "sound"
VOLUME: Final = "volume"

CARD_BACKS: Final = ("classic", "red", "green-waves")
"""The card backs the page draws: the ids of ``CARD_BACKS`` in static/js/cards.js."""
THEMES: Final = ("green", "dark", "high-contrast")
CARD_SIZES: Final = ("small", "medium", "large")
VOLUME_MIN: Final = 0
VOLUME_MAX: Final = 100
VOLUME_DEFAULT: Final = 80

PLAYER_PREFIX: Final = "player:"
"""The start of a player's entries among the store's settings: ``player:<token>:<name>``."""

ON: Final = "on"
OFF: Final = "off"


SHOWN_CHARS: Final = 60
"""Characters of a bad name or value quoted in an error message."""


class SettingError(ValueError):
    """A setting that does not exist, or a value it cannot take; the message names it."""


def _shown(value: object) -> str:
    return repr(value)[:SHOWN_CHARS]


@dataclass(frozen=True)
class Switch:
    """An on/off setting, stored as ``on`` or ``off``."""

    default: bool

    def check(self, name: str, value: object) -> bool:
        if not isinstance(value, bool):
            raise SettingError(f"setting {name!r} must be true or false, not {_shown(value)}")
        return value

    def encode(self, value: SettingValue) -> str:
        return ON if value else OFF

    def decode(self, text: str | None) -> bool:
        return self.default if text not in (ON, OFF) else text == ON


@dataclass(frozen=True)
class Choice:
    """One of a few names."""

    values: tuple[str, ...]
    default: str

    def check(self, name: str, value: object) -> str:
        if not isinstance(value, str) or value not in self.values:
            allowed = ", ".join(repr(v) for v in self.values)
            raise SettingError(f"setting {name!r} must be one of {allowed}, not {_shown(value)}")
        return value

    def encode(self, value: SettingValue) -> str:
        return str(value)

    def decode(self, text: str | None) -> str:
        return text if text in self.values else self.default


@dataclass(frozen=True)
class Level:
    """A whole number from ``low`` to ``high``."""

    low: int
    high: int
    default: int

    def check(self, name: str, value: object) -> int:
        if type(value) is int and self.low <= value <= self.high:  # bool is no number here
            return value
        raise SettingError(
            f"setting {name!r} must be a whole number from {self.low} to {self.high},"
            f" not {_shown(value)}"
        )

    def encode(self, value: SettingValue) -> str:
        return str(value)

    def decode(self, text: str | None) -> int:
        if text is None or not text.isdigit() or not self.low <= int(text) <= self.high:
            return self.default
        return int(text)


Spec = Switch | Choice | Level

_SAFE_HOME_SWITCH: Final = Switch(False)

SETTINGS: Final[Mapping[str, Spec]] = {
    CARD_BACK: Choice(CARD_BACKS, "classic"),
    THEME: Choice(THEMES, "green"),
    LEFT_HANDED: Switch(False),
    CARD_SIZE: Choice(CARD_SIZES, "medium"),
    ONE_TAP: Switch(True),
    SAFE_HOME: _SAFE_HOME_SWITCH,
    SOUND: Switch(True),
    VOLUME: Level(VOLUME_MIN, VOLUME_MAX, VOLUME_DEFAULT),
}
"""Every setting, with the values it takes and its default."""


def setting_key(name: str, player: str) -> str:
    """The store's key of a player's setting (or of another entry of the player's kept
    among the settings, such as the leaderboard's display name)."""
    return f"{PLAYER_PREFIX}{player}:{name}"


def checked_settings(changes: Mapping[str, object]) -> dict[str, SettingValue]:
    """``changes`` checked: every name a setting, every value one it takes
    (else :class:`SettingError` naming the first that is not)."""
    if not changes:
        raise SettingError(f"give at least one setting: {', '.join(SETTINGS)}")
    checked: dict[str, SettingValue] = {}
    for name, value in changes.items():
        spec = SETTINGS.get(name)
        if spec is None:
            raise SettingError(
                f"unknown setting {_shown(name)}: the settings are {', '.join(SETTINGS)}"
            )
        checked[name] = spec.check(name, value)
    return checked


class SettingSource(Protocol):
    """What settings are read from: a store (``Storage``), or a faster way into one."""

    def get_setting(self, key: str) -> str | None: ...


def player_settings(storage: SettingSource, player: str) -> dict[str, SettingValue]:
    """Every setting of the player, a default where none is stored."""
    return {
        name: spec.decode(storage.get_setting(setting_key(name, player)))
        for name, spec in SETTINGS.items()
    }


def setting_entries(player: str, checked: Mapping[str, SettingValue]) -> list[tuple[str, str]]:
    """The store entries (key, text) that keep ``checked`` (from :func:`checked_settings`)."""
    return [
        (setting_key(name, player), SETTINGS[name].encode(value)) for name, value in checked.items()
    ]


def store_settings(storage: Storage, player: str, changes: Mapping[str, object]) -> None:
    """Check and store ``changes`` (one write per setting)."""
    for key, text in setting_entries(player, checked_settings(changes)):
        storage.set_setting(key, text)


def safe_home(storage: Storage, player: str) -> bool:
    """Whether the player has safe auto-play on."""
    return _SAFE_HOME_SWITCH.decode(storage.get_setting(setting_key(SAFE_HOME, player)))


def set_safe_home(storage: Storage, player: str, on: bool) -> None:
    """Store the player's safe auto-play setting."""
    store_settings(storage, player, {SAFE_HOME: on})
