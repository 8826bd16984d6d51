"""The storage interface the server speaks. SQLite implements it; PostgreSQL can follow."""

from __future__ import annotations

from typing import Protocol

from bonanza.web.records import GameRecord


class Storage(Protocol):
    """Durable game storage. Every method that writes has committed when it returns."""

    def insert_game(self, record: GameRecord) -> None:
        """Store a new game."""
        ...

    def update_game(self, record: GameRecord) -> None:
        """Store the new state of an existing game (after a move, undo, win...)."""
        ...

    def get_game(self, game_id: str) -> GameRecord | None:
        """The game with this ID, or None."""
        ...

    def latest_game(self, player: str) -> GameRecord | None:
        """The player's most recently created game, or None."""
        ...

    def playing_games(self, player: str) -> list[GameRecord]:
        """The player's games still in progress."""
        ...

    def finished_games(self, player: str) -> list[GameRecord]:
        """The player's won and lost games not archived by a statistics reset, oldest first.

        The records returned carry an empty ``state`` (statistics do not need it).
        """
        ...

    def archive_finished_games(self, player: str) -> int:
        """Take the player's finished games out of the statistics; return how many."""
        ...

    def close(self) -> None:
        """Release the storage."""
        ...
