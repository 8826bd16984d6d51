"""Fair ``info``: in the "player" mode nothing an environment returns in ``info``
decodes to the deal in play (which decides every hidden card) before its
episode ends.

As the web's leak test does, every string and number inside every ``info``
(keys, values, array elements, and every word of every string) is tried as a
deal ID with the project's own parser: a deal number or a deal code. The
checker is shown to catch the deal when ``reveal_deal_in_info`` asks for it.
"""

from __future__ import annotations

import importlib.util
import os
import re
from collections.abc import Iterable
from functools import cache
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from bonanza.core import BonanzaError, Deal
from bonanza.rl.env import KlondikeEnv
from bonanza.rl.vector import KlondikeVectorEnv

WORDS = re.compile(r"[^\s\"',;:()\[\]{}]+")
CODE_DEALS = [Deal.from_number(number).code for number in (11, 982, 31337)]
NUMBERED_DEALS = [2**63 + 7**k for k in range(5)]
"""Deal numbers above any number an observation or a mask holds, which would decode
to those small deals."""
HAVE_SB3 = all(importlib.util.find_spec(name) for name in ("stable_baselines3", "sb3_contrib"))


def atoms(value: Any) -> list[str]:
    """Every string and number inside ``value`` (keys and array elements too), as text."""
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in (str(key), *atoms(item))]
    if isinstance(value, np.ndarray):
        return atoms(value.tolist())
    if isinstance(value, list | tuple):
        return [text for item in value for text in atoms(item)]
    if value is None or isinstance(value, bool):
        return []
    return [str(value)]


@cache
def decoded(candidate: str) -> Deal | None:
    try:
        return Deal.parse(candidate)
    except BonanzaError:
        return None


def revealed(info: Any, deals: Iterable[Deal]) -> set[str]:
    """The candidates in ``info`` that decode to one of ``deals``."""
    secret = set(deals)
    found = set()
    for text in atoms(info):
        for candidate in {text, *WORDS.findall(text)}:
            if decoded(candidate) in secret:
                found.add(candidate)
    return found


def current_deals(env: KlondikeVectorEnv) -> list[Deal]:
    """Every game's deal, from the engine's own record."""
    return [Deal.parse(env.engine.deal_id(game)) for game in range(env.num_envs)]


def test_the_single_env_names_the_deal_only_when_the_episode_ends() -> None:
    env = KlondikeEnv(rules="klondike-3", max_steps=60)
    env.action_space.seed(0)
    tried = 0
    for episode in range(6):
        options = {"deal": CODE_DEALS[episode // 2]} if episode % 2 else None
        _, info = env.reset(seed=episode, options=options)
        deal = Deal.parse(env.deal)
        assert not revealed(info, [deal])
        ended = False
        while not ended:
            _, _, terminated, truncated, info = env.step(env.action_space.sample())
            ended = terminated or truncated
            tried += len(atoms(info))
            if not ended:
                assert not revealed(info, [deal]), f"step info names the deal {deal.id}"
        assert info["deal"] == env.deal and revealed(info, [deal])
    assert tried > 6 * 20 * 600  # the checker saw every mask


def test_the_checker_catches_a_deal_revealed_on_request() -> None:
    env = KlondikeEnv(reveal_deal_in_info=True)
    for options in (None, {"deal": CODE_DEALS[0]}):
        _, info = env.reset(seed=3, options=options)
        assert revealed(info, [Deal.parse(env.deal)]) == {env.deal}


def test_the_vector_env_names_a_deal_only_for_the_games_that_ended() -> None:
    env = KlondikeVectorEnv(8, max_steps=40)
    _, info = env.reset(seed=5, options={"deals": [*CODE_DEALS, *NUMBERED_DEALS]})
    assert not revealed(info, current_deals(env))
    env.action_space.seed(5)
    ends = 0
    for _ in range(130):
        deals = current_deals(env)
        _, _, terminated, truncated, info = env.step(env.action_space.sample())
        ended = terminated | truncated
        now = current_deals(env)  # a game ended on the last step is playing a new deal
        assert not revealed(info, [deal for deal, over in zip(now, ended, strict=True) if not over])
        for game in np.flatnonzero(ended):
            assert info["_deal"][game] and Deal.parse(info["deal"][game]) == deals[game]
            ends += 1
    assert ends >= 16


@pytest.mark.skipif(
    not HAVE_SB3 and not os.environ.get("BONANZA_REQUIRE_SB3"),
    reason="needs stable_baselines3 and sb3_contrib",
)
def test_the_sb3_adapter_names_a_deal_only_in_the_info_of_an_ended_episode() -> None:
    from bonanza.rl.sb3 import KlondikeVecEnv

    env = KlondikeVecEnv(8, max_steps=40)
    env.seed(9)
    env.set_options([{"deal": deal} for deal in [*NUMBERED_DEALS, *CODE_DEALS]])
    env.reset()
    rng = np.random.default_rng(9)
    ends = 0
    for _ in range(130):
        deals = current_deals(env.games)
        assert not revealed(env.reset_infos, deals)
        _, _, dones, infos = env.step(random_legal(env.action_masks(), rng))
        for game, (info, deal) in enumerate(zip(infos, deals, strict=True)):
            if dones[game]:
                assert Deal.parse(info["deal"]) == deal
                ends += 1
            else:
                assert not revealed(info, [deal])
    assert ends >= 16


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``masks``."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks], dtype=np.int64)
