"""Safe auto-play: after each of the player's moves, safe cards go home by themselves.

A player setting, off by default. While it is on, after each move the player
makes (a draw included; not an undo, and not an auto-finish step), every card
that ``bonanza.core.safety`` proves safe goes home, lowest rank first, each as
its own move and event (``Action.HOME``), so the page animates each one.

- **Cards the player took down.** A card the player moves from a foundation
  (or a redo replays so) is *held*: it is never sent home automatically while
  it is held. It is held until it is home again, by any move (the player's,
  an auto finish's, an undo of the move that took it down), until the setting
  is switched, or until the deal is restarted.
- **Undo.** The player's move and the automatic moves that followed it are
  one undo step: one undo takes them all back, and one redo replays them all.
  In Vegas, where a draw cannot be undone, neither can the moves after it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bonanza.core.cards import DECK_SIZE
from bonanza.core.moves import Move
from bonanza.core.position import Position
from bonanza.core.safety import safe_move_home


@dataclass(slots=True)
class SafeHome:
    """The setting, the held cards, and which moves of the game's line were
    automatic (by move number, 1 for the first, along the moves played and then
    the redo moves, so that undo and redo keep them)."""

    on: bool = False
    held: set[int] = field(default_factory=set)
    automatic: set[int] = field(default_factory=set)

    def switch(self, on: bool) -> None:
        """Turn the setting on or off; no card is held any more."""
        self.on = on
        self.held.clear()

    def next_move(self, position: Position) -> Move | None:
        """The next safe move home, when the setting is on."""
        return safe_move_home(position, self.held) if self.on else None

    def took(self, move: Move, before: Position) -> None:
        """Note a move of the player's: a card taken from a foundation is held."""
        if move.source.is_foundation:
            self.held.add(int(before.moving_cards(move)[0]))

    def settle(self, position: Position) -> None:
        """Let go of the held cards that are home again."""
        self.held = {card for card in self.held if position.foundations[card // 13] <= card % 13}

    def new_line(self, played: int) -> None:
        """A new move was played as move ``played``: the redo line is gone."""
        self.automatic = {number for number in self.automatic if number < played}

    def undo_start(self, moves: int) -> int:
        """How many moves are left once the last undo step (the player's last
        move and its automatic moves) of ``moves`` is taken back."""
        number = moves
        while number > 0 and number in self.automatic:
            number -= 1
        return max(number - 1, 0)

    def to_json(self) -> dict[str, Any]:
        return {"on": self.on, "held": sorted(self.held), "automatic": sorted(self.automatic)}

    @classmethod
    def from_json(cls, data: Any, cards: int = DECK_SIZE) -> SafeHome:
        """What ``to_json`` wrote for a game of ``cards`` cards; a save without it is
        off. ValueError on faults."""
        if data is None:
            return cls()
        if not isinstance(data, dict) or not isinstance(data.get("on", False), bool):
            raise ValueError("its safe auto-play setting is not one")
        held, automatic = data.get("held", []), data.get("automatic", [])
        if not _numbers(held, cards) or not _numbers(automatic, None):
            raise ValueError("its safe auto-play cards or moves are not numbers")
        return cls(bool(data.get("on", False)), set(held), set(automatic))


def _numbers(values: Any, below: int | None) -> bool:
    return isinstance(values, list) and all(
        isinstance(value, int)
        and not isinstance(value, bool)
        and value >= 0
        and (below is None or value < below)
        for value in values
    )
