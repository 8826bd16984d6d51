"""Reward arguments that would poison every reward are refused by name:
NaN or infinite shaping weights and illegal-action penalties, a weight that is
no number, and a negative penalty (which would reward illegal actions)."""

from __future__ import annotations

import math
from typing import Any

import pytest

pytest.importorskip("gymnasium")

from bonanza.rl.env import KlondikeEnv
from bonanza.rl.rewards import RewardShaping
from bonanza.rl.vector import KlondikeVectorEnv

NOT_FINITE = (math.nan, math.inf, -math.inf)
ILLEGAL_HERE = 614
"""An action that is not legal at the start of the deal played."""


@pytest.mark.parametrize("weight", NOT_FINITE)
@pytest.mark.parametrize("key", ["home", "turned"])
def test_a_shaping_weight_that_is_not_finite_is_refused(key: str, weight: float) -> None:
    for make in (KlondikeEnv, lambda **kwargs: KlondikeVectorEnv(2, **kwargs)):
        with pytest.raises(ValueError, match=f"reward_shaping\\['{key}'\\] must be a finite"):
            make(reward_shaping={key: weight})
    with pytest.raises(ValueError, match="must be a finite number"):
        RewardShaping(**{key: weight})


@pytest.mark.parametrize("weight", ["0.5", None, True])
def test_a_shaping_weight_that_is_no_number_is_refused(weight: Any) -> None:
    with pytest.raises(TypeError, match=r"reward_shaping\['home'\] must be a number, not"):
        KlondikeEnv(reward_shaping={"home": weight})


@pytest.mark.parametrize("penalty", [*NOT_FINITE, -0.5])
def test_a_penalty_that_is_not_finite_or_negative_is_refused(penalty: float) -> None:
    with pytest.raises(ValueError, match="illegal_penalty must be"):
        KlondikeEnv(illegal_action="penalize", illegal_penalty=penalty)


def test_the_penalty_an_illegal_action_costs_is_what_was_given() -> None:
    env = KlondikeEnv(illegal_action="penalize", illegal_penalty=0)
    env.reset(options={"deal": 1})
    assert ILLEGAL_HERE not in env.legal_actions()
    assert env.step(ILLEGAL_HERE)[1] == 0.0
