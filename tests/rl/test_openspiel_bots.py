"""OpenSpiel's own search algorithms play the bonanza_klondike game."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

if not (os.environ.get("BONANZA_REQUIRE_OPENSPIEL") or os.environ.get("CI")):
    pytest.importorskip("pyspiel")

import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from bonanza.rl.openspiel_game import GAME_NAME

MOVES = 25
SIMULATIONS = 12
UCT_C = 2.0


def play(game: Any, bot: Any, seed: int) -> Any:
    """One game: the bot's choices (checked legal by pyspiel), chance by ``seed``."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            cards, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choice(cards, p=weights))
        else:
            policy, action = bot.step_with_policy(state)
            assert {a for a, p in policy if p > 0} <= set(state.legal_actions())
            state.apply_action_with_legality_check(action)
    return state


def evaluator(seed: int) -> Any:
    return mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))


@pytest.mark.parametrize("rules", ["klondike", "klondike-3"])
def test_mcts_with_random_rollouts_plays_to_a_valid_end(rules: str) -> None:
    game = pyspiel.load_game(GAME_NAME, {"rules": rules, "max_moves": MOVES, "reward": "cards"})
    bot = mcts.MCTSBot(
        game, UCT_C, SIMULATIONS, evaluator(1), random_state=np.random.RandomState(1)
    )
    state = play(game, bot, seed=1)
    assert state.is_terminal()
    assert 0.0 <= state.returns()[0] <= 1.0
    assert state.returns()[0] * 52 == pytest.approx(round(state.returns()[0] * 52))


def test_information_set_mcts_plays_to_a_valid_end() -> None:
    game = pyspiel.load_game(GAME_NAME, {"rules": "klondike", "max_moves": MOVES})
    bot = ismcts.ISMCTSBot(
        game, evaluator(2), UCT_C, SIMULATIONS, random_state=np.random.RandomState(2)
    )
    state = play(game, bot, seed=2)
    assert state.is_terminal()
    assert state.returns() in ([0.0], [1.0])


def test_information_set_mcts_plays_a_fixed_deal_the_same_way_twice() -> None:
    game = pyspiel.load_game(GAME_NAME, {"max_moves": MOVES, "deal": 42, "reward": "cards"})
    histories = [
        play(game, ismcts.ISMCTSBot(
            game, evaluator(3), UCT_C, SIMULATIONS, random_state=np.random.RandomState(3)
        ), seed=3).history()
        for _ in range(2)
    ]
    assert histories[0] == histories[1]
    assert len(histories[0]) > MOVES
