"""The status line: deal, score, moves, passes and time."""

from __future__ import annotations

from textual.widgets import Static

from bonanza.core.game import Game


class StatusBar(Static):
    DEFAULT_CSS = "StatusBar { height: 1; background: $panel; padding: 0 1; }"

    def show(self, game: Game) -> None:
        minutes, seconds = divmod(int(game.elapsed), 60)
        self.update(
            f"Deal {game.deal.id}  ·  Score {game.score()}  ·  Moves {game.move_count}"
            f"  ·  Recycles {game.recycle_count}  ·  {minutes}:{seconds:02}"
        )
