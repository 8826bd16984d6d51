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
import math
from collections.abc import Mapping
from numbers import Real
from typing import Final, Literal

WIN_REWARD: Final = 1.0
ILLEGAL_PENALTY: Final = 0.01
"""What an illegal action costs under ``illegal_action="penalize"`` (a no-op otherwise)."""

IllegalAction = Literal["raise", "penalize"]
ILLEGAL_ACTIONS: Final[tuple[IllegalAction, ...]] = ("raise", "penalize")


def finite_number(value: object, name: str) -> float:
    """``value`` as a float, else a ``TypeError`` (not a number) or ``ValueError``
    (NaN or infinite, which would make every reward NaN or infinite) naming ``name``."""
    if not isinstance(value, Real) or isinstance(value, bool):
        raise TypeError(f"{name} must be a number, not {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, not {value!r}")
    return number


def illegal_penalty_of(value: object) -> float:
    """``illegal_penalty`` checked: a finite number of at least 0 (a negative
    one would reward illegal actions)."""
    penalty = finite_number(value, "illegal_penalty")
    if penalty < 0:
        raise ValueError(
            f"illegal_penalty must be at least 0 (it is subtracted), not {value!r}"
        )
    return penalty


@dataclasses.dataclass(frozen=True, slots=True)
class RewardShaping:
    """Shaping weights: per card sent home (net of recalls), per card turned up."""

    home: float = 0.0
    turned: float = 0.0

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            weight = finite_number(getattr(self, field.name), f"reward_shaping[{field.name!r}]")
            object.__setattr__(self, field.name, weight)

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
        return cls(**value)
