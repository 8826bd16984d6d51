"""Keeping the game on the table: its record in the store and, when asked, a save file.

A game comes on the table with the player's stored settings, and its save
file written. After every action the app calls ``GameKeeper.write``: the
record goes to the store (if its first write failed, stored as a new game's start,
``OwnGames.store_late``: the player's other terminal games end with it) and the
session's JSON to the save file, atomically. A problem is never raised: it
comes back as a note for the message line, and the next write tries again.
"""

from __future__ import annotations

import json
from pathlib import Path

from bonanza.play.own_games import Opened, OwnGames
from bonanza.storage import StorageError
from bonanza.storage.player_settings import safe_home, set_safe_home
from bonanza.tui.words import unstored


class GameKeeper:
    """The session and record of the game on the table, and where they are kept."""

    def __init__(self, games: OwnGames, save_path: Path | None, opened: Opened) -> None:
        self.games = games
        self.storage = games.storage
        self.player = games.player
        self.save_path = save_path
        self.session = opened.session
        self.record = opened.record
        self.stored = opened.stored  # whether the record is in the store yet
        self.notes: list[str] = []  # problems met in coming on the table
        try:
            on = safe_home(self.storage, self.player)
        except StorageError as error:
            self.notes.append(f"Could not read your settings: {error}")
        else:
            if self.session.safe.on != on:
                self.session.set_safe_home(on)
        note = self.save()  # the file and the record agree from the start
        if note is not None:
            self.notes.append(note)

    def set_safe_home(self, on: bool, now: float) -> list[str]:
        """Switch safe auto-play on the game and in the player's settings; notes."""
        self.session.set_safe_home(on)
        notes = self.write(now)
        try:
            set_safe_home(self.storage, self.player, on)
        except StorageError as error:
            notes.append(unstored(error))
        return notes

    def write(self, now: float) -> list[str]:
        """Store the record (and the save file); the problems met, as notes."""
        notes: list[str] = []
        self.record.update(self.session, now)
        self.record.version += 1
        try:
            if self.stored:
                self.storage.update_game(self.record)
            else:  # its first write failed: it is not in the store yet
                self.games.store_late(self.record, now)
                self.stored = True
        except StorageError as error:  # not stored: the store keeps the version before
            self.record.version -= 1
            notes.append(unstored(error))
        save_note = self.save()
        if save_note is not None:
            notes.append(save_note)
        return notes

    def save(self) -> str | None:
        """Write the session's JSON to ``save_path`` (atomically); a problem, as a note."""
        if self.save_path is None:
            return None
        try:
            self.save_path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.save_path.with_name(self.save_path.name + ".tmp")
            temporary.write_text(json.dumps(self.session.to_json()), encoding="utf-8")
            temporary.replace(self.save_path)
        except OSError as error:
            return f"Not saved to {self.save_path}: {error.strerror or error}"
        return None
