"""Flags are True or False: a string such as ``"False"`` would read as true
(and ``reveal_deal_in_info="False"`` would hand every agent its deal), so
anything else is refused by name."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from bonanza.rl.env import KlondikeEnv
from bonanza.rl.vector import KlondikeVectorEnv

NOT_FLAGS = ("False", "no", 0, None)


def makers() -> list[Callable[..., Any]]:
    found: list[Callable[..., Any]] = [KlondikeEnv, lambda **kwargs: KlondikeVectorEnv(2, **kwargs)]
    if importlib.util.find_spec("stable_baselines3") is not None:
        from bonanza.rl.sb3 import KlondikeVecEnv

        found.append(lambda **kwargs: KlondikeVecEnv(2, **kwargs))
    return found


@pytest.mark.parametrize("value", NOT_FLAGS)
def test_reveal_deal_in_info_that_is_no_flag_is_refused(value: object) -> None:
    for make in makers():
        with pytest.raises(TypeError, match="reveal_deal_in_info must be True or False, not"):
            make(reveal_deal_in_info=value)


@pytest.mark.parametrize("value", NOT_FLAGS)
def test_copy_that_is_no_flag_is_refused(value: object) -> None:
    with pytest.raises(TypeError, match="copy must be True or False, not"):
        KlondikeVectorEnv(2, copy=value)  # type: ignore[arg-type]


def test_flags_given_as_numpy_booleans_are_read() -> None:
    env = KlondikeEnv(reveal_deal_in_info=np.bool_(False))  # type: ignore[arg-type]
    assert "deal" not in env.reset(seed=1)[1]
    assert "deal" in KlondikeEnv(reveal_deal_in_info=True).reset(seed=1)[1]
