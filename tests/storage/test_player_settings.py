"""The player's settings in the store: defaults, checks, and what the terminal reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from bonanza.storage import SQLiteStorage
from bonanza.storage.player_settings import (
    SETTINGS,
    SettingError,
    checked_settings,
    player_settings,
    safe_home,
    set_safe_home,
    store_settings,
)


def test_settings_are_kept_per_player_across_a_reopening(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "games.db")
    store_settings(storage, "ann", {"theme": "dark", "volume": 15, "one_tap": False})
    set_safe_home(storage, "ann", True)
    storage.close()
    storage = SQLiteStorage(tmp_path / "games.db")
    try:
        ann = player_settings(storage, "ann")
        assert (ann["theme"], ann["volume"], ann["one_tap"], ann["safe_home"]) == (
            "dark", 15, False, True
        )
        assert safe_home(storage, "ann") and not safe_home(storage, "bob")
        assert player_settings(storage, "bob") == {
            name: spec.default for name, spec in SETTINGS.items()
        }
    finally:
        storage.close()


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"theme": "blue"}, "'theme'"),
        ({"volume": 100.0}, "'volume'"),
        ({"nope": 1}, "'nope'"),
        ({}, "at least one"),
    ],
)
def test_a_bad_change_is_refused_by_name_and_stores_nothing(
    tmp_path: Path, changes: dict[str, object], named: str
) -> None:
    storage = SQLiteStorage(tmp_path / "games.db")
    try:
        with pytest.raises(SettingError, match=named):
            store_settings(storage, "ann", {"card_size": "large", **changes} if changes else {})
        assert player_settings(storage, "ann")["card_size"] == "medium"
    finally:
        storage.close()


def test_checked_settings_keeps_the_values_as_given() -> None:
    given = {"left_handed": True, "volume": 0}
    assert checked_settings(given) == given
