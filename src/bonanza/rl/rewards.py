"""Rewards: 1 for a win, plus optional shaping for progress (docs/rl.md).

A step's reward is ``WIN_REWARD`` when it wins the game, plus
``home`` times the change in the number of cards on the foundations (so a
card recalled from a foundation costs what it earned going home), plus
``turned`` times the number of face-down cards the step turned up.

Under ``illegal_action="penalize"`` an illegal action is a no-op whose reward
is ``-illegal_penalty`` (``ILLEGAL_PENALTY`` by default).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Final, Literal

WIN_REWARD: Final = 1.0
ILLEGAL_PENALTY: Final = 0.01
"""What an illegal action costs under ``illegal_action="penalize"`` (a no-op otherwise)."""

IllegalAction = Literal["raise", "penalize"]
ILLEGAL_ACTIONS: Final[tuple[IllegalAction, ...]] = ("raise", "penalize")


@dataclasses.dataclass(frozen=True, slots=True)
class RewardShaping:
    """Shaping weights: per card sent home (net of recalls), per card turned up."""

    home: float = 0.0
    turned: float = 0.0

    @classmethod
    def of(cls, value: RewardShaping | Mapping[str, float] | None) -> RewardShaping:
        """Read ``None`` (no shaping), a ``RewardShaping`` or a mapping such as
        ``{"home": 0.01, "turned": 0.005}``."""
        if value is None:
            return cls()
        if isinstance(value, RewardShaping):
            return value
        unknown = set(value) - {field.name for field in dataclasses.fields(cls)}
        if unknown:
            raise ValueError(
                f"unknown reward shaping keys {sorted(unknown)}: use 'home' and 'turned'"
            )
        return cls(**{key: float(weight) for key, weight in value.items()})
