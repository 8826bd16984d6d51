"""The OpenSpiel game: pyspiel's own checks, and random games replayed under bonanza.core."""

from __future__ import annotations

import importlib
import os
import random
import re
import sys
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

if not (os.environ.get("BONANZA_REQUIRE_OPENSPIEL") or os.environ.get("CI")):
    pytest.importorskip("pyspiel")

import pyspiel

from bonanza.core import CARDS, Deal, Game, Rules
from bonanza.core.view import visible_cards
from bonanza.rl.actions import ACTION_COUNT, ActionError, legal_actions, move_of
from bonanza.rl.openspiel_game import GAME_NAME, RANDOM_DEAL
from bonanza.rl.openspiel_observer import (
    FOUNDATION_PLANE,
    OBSERVATION_SIZE,
    PLANES,
    UNSEEN_PLANE,
    WASTE_PLANE,
)

DECK = 52
SHORT = 120
"""A move limit that keeps random games quick."""
RULE_SETS = ("klondike", "klondike-3", "vegas-3", "thoughtful", "draw:2 passes:2 empty:any")


def load(rules: str = "klondike", **params: Any) -> Any:
    return pyspiel.load_game(GAME_NAME, {"rules": rules, "max_moves": SHORT, **params})


@dataclass
class Decision:
    """What the game showed at one decision node, and the action chosen."""

    legal: list[int]
    observation: str
    seen: set[int]
    action: int


@dataclass
class Record:
    decisions: list[Decision] = field(default_factory=list)
    outcomes: list[list[tuple[int, float]]] = field(default_factory=list)
    revealed: list[int] = field(default_factory=list)


def play_random(game: Any, seed: int) -> tuple[Any, Record]:
    """A random game through pyspiel's API, recording every node."""
    rng = random.Random(seed)
    state, record, seen = game.new_initial_state(), Record(), set()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            record.outcomes.append(outcomes)
            cards, weights = zip(*outcomes, strict=True)
            card = rng.choices(cards, weights)[0]
            record.revealed.append(card)
            seen.add(card)
        else:
            legal = state.legal_actions()
            card = rng.choice(legal)
            record.decisions.append(
                Decision(legal, state.observation_string(0), set(seen), card)
            )
        state.apply_action(card)
    return state, record


@pytest.mark.parametrize("rules", RULE_SETS)
def test_random_games_replay_as_real_deals_under_the_core(rules: str) -> None:
    game = load(rules)
    for seed in range(6):
        state, record = play_random(game, seed)
        again = Game(state.deal(), Rules.from_text(rules.replace(":", "=")))
        for decision in record.decisions:
            position = again.position
            assert decision.legal == list(legal_actions(position))
            assert decision.observation == position.to_text(hide=True)
            assert decision.seen == visible_cards(position)
            again.play(move_of(decision.action, position))
        assert again.is_won == (state.returns() == [1.0])
        assert again.move_count == SHORT or again.is_won or not again.position.has_moves()
        assert again.position.to_text(hide=True) == state.observation_string(0)


@pytest.mark.parametrize("rules", ["klondike", "klondike-3"])
def test_chance_outcomes_are_the_unseen_cards_equally_likely(rules: str) -> None:
    _, record = play_random(load(rules), seed=5)
    assert len(record.outcomes) > 7 + 3
    seen: set[int] = set()
    for outcomes, card in zip(record.outcomes, record.revealed, strict=True):
        cards = [card for card, _ in outcomes]
        assert cards == sorted(set(range(DECK)) - seen)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert [p for _, p in outcomes] == pytest.approx([1 / len(cards)] * len(cards))
        seen.add(card)


def test_the_first_chance_nodes_name_the_seven_face_up_cards() -> None:
    state = load().new_initial_state()
    for _ in range(7):
        assert state.is_chance_node()
        assert len(state.chance_outcomes()) == DECK - len(state.history())
        state.apply_action(state.chance_outcomes()[-1][0])
    assert state.current_player() == 0
    stock = "?" * 24
    assert state.observation_string(0) == (
        f"KS/?QS/??JS/???TS/????9S/?????8S/??????7S {stock} - ---- 0"
    )


def test_thoughtful_rules_deal_every_card_at_the_start_and_never_again() -> None:
    state, record = play_random(load("thoughtful"), seed=1)
    assert len(record.outcomes) == DECK
    assert state.history()[:DECK] == list(state.deal().cards)


def test_a_fixed_deal_has_one_outcome_per_chance_node_and_is_that_deal() -> None:
    state, record = play_random(load(deal=1234), seed=0)
    assert all(len(outcomes) == 1 and outcomes[0][1] == 1.0 for outcomes in record.outcomes)
    assert state.deal() == Deal.from_number(1234)
    again, _ = play_random(load(deal=1234), seed=0)
    assert again.history() == state.history()


def test_revealing_a_card_already_seen_is_refused() -> None:
    state = load().new_initial_state()
    state.apply_action(7)
    with pytest.raises(ValueError, match="not an unseen card"):
        state.apply_action(7)


@pytest.mark.parametrize("rules", ["klondike", "klondike-3"])
def test_pyspiel_random_simulation_checks_pass(rules: str) -> None:
    pyspiel.random_sim_test(load(rules), num_sims=4, serialize=True, verbose=False)


def test_pyspiel_checks_pass_for_a_fixed_deal_and_card_rewards() -> None:
    game = load("vegas-3", deal=99, reward="cards")
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_the_game_declares_one_player_with_explicit_chance_and_our_actions() -> None:
    game = load("klondike-3")
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (game.num_players(), game.num_distinct_actions()) == (1, ACTION_COUNT)
    assert (game.max_chance_outcomes(), game.max_game_length()) == (DECK, SHORT)
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)
    assert game.observation_tensor_shape() == [OBSERVATION_SIZE]


def test_rules_given_as_text_come_back_in_a_game_string_that_loads() -> None:
    game = pyspiel.load_game(GAME_NAME, {"rules": "draw=3 passes=2 recall=off"})
    assert game.get_parameters()["rules"] == Rules(draw=3, passes=2, recall=False).to_text(
    ).replace("=", ":")
    assert str(pyspiel.load_game(str(game))) == str(game)
    assert pyspiel.load_game(GAME_NAME, {"rules": "draw=3"}).get_parameters()["rules"] == (
        "klondike-3"
    )
    assert load().get_parameters()["deal"] == RANDOM_DEAL


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"reward": "points"}, "reward must be one of"),
        ({"max_moves": 0}, "max_moves must be at least 1"),
        ({"rules": "draw=0"}, "draw must be"),
        ({"rules": "westcliff"}, "bonanza_klondike plays Klondike only, not westcliff"),
        ({"rules": "double-klondike-3"}, "plays Klondike only, not double-klondike"),
        ({"rules": "draw:1 passes:1 columns:8"}, "plays Klondike only, not a custom table"),
    ],
)
def test_bad_parameters_are_refused(params: dict[str, Any], message: str) -> None:
    with pytest.raises(Exception, match=message):
        pyspiel.load_game(GAME_NAME, params)


def replay(state: Any, record: Record, rules: str = "klondike") -> Game:
    """The game ``state`` ended, played again under bonanza.core from its deal."""
    game = Game(state.deal(), Rules.from_text(rules.replace(":", "=")))
    for decision in record.decisions:
        game.play(move_of(decision.action, game.position))
    return game


def test_card_rewards_count_the_cards_home() -> None:
    state, record = play_random(pyspiel.load_game(GAME_NAME, {"reward": "cards"}), seed=3)
    home = sum(replay(state, record).position.foundations)
    assert home > 0
    assert state.returns() == [pytest.approx(home / DECK)]


def test_the_observation_tensor_marks_exactly_the_seen_cards() -> None:
    state, record = play_random(load("klondike-3"), seed=2)
    position = replay(state, record, "klondike-3").position
    seen = set(record.revealed)
    cards = np.array(state.observation_tensor(0))[: DECK * PLANES].reshape(DECK, PLANES)
    assert cards.sum(axis=1).tolist() == [1.0] * DECK
    assert {card for card in range(DECK) if not cards[card, UNSEEN_PLANE]} == seen
    assert cards[:, FOUNDATION_PLANE].sum() == sum(position.foundations)
    assert cards[:, WASTE_PLANE].sum() == len(position.waste)
    for column, (pile, down) in enumerate(zip(position.tableau, position.down, strict=True)):
        assert set(np.flatnonzero(cards[:, column])) == set(pile[down:])


def test_the_information_state_is_every_card_seen_and_move_played_in_order() -> None:
    state, record = play_random(load(), seed=4)
    tokens = state.information_state_string(0).split()
    assert len(tokens) == len(state.history())
    assert tokens[:7] == [str(CARDS[action]) for action in state.history()[:7]]
    clone = state.clone()
    assert clone.information_state_string(0) == state.information_state_string(0)
    assert len(record.decisions) == len(tokens) - len(record.outcomes)


def test_the_module_asks_for_the_extra_when_open_spiel_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "bonanza.rl.openspiel_game")
    with pytest.raises(ImportError, match=r"pip install -e '\.\[openspiel\]' in a checkout"):
        importlib.import_module("bonanza.rl.openspiel_game")


def refused(state: Any, action: int, words: str) -> None:
    """``action`` is refused by name, and ``state`` is left as it was."""
    before = (str(state), state.history(), state.is_terminal(), state.is_chance_node())
    with pytest.raises(pyspiel.SpielError, match=words) as caught:
        state.apply_action(action)
    assert isinstance(caught.value, ActionError)
    assert (str(state), state.history(), state.is_terminal(), state.is_chance_node()) == before


def test_a_finished_game_refuses_every_action() -> None:
    state, _ = play_random(load(max_moves=3), seed=0)
    assert state.is_terminal() and state.legal_actions() == []
    for action in (0, 1, 7, 600):
        refused(state, action, "the game is over")
    assert state.is_terminal() and state.returns() == [0.0]


def test_a_fixed_deal_refuses_any_card_but_its_own() -> None:
    state = load(deal=7).new_initial_state()
    card = state.chance_outcomes()[0][0]
    for other in (card - 1, card + 1, DECK):
        refused(state, other, "not this deal's card")
    state.apply_action(card)
    assert state.history() == [card]


def test_a_card_seen_or_no_card_is_refused_and_the_card_still_waits() -> None:
    state = load().new_initial_state()
    state.apply_action(7)
    for card in (7, -2, DECK):
        refused(state, card, "not an unseen card")
    assert len(state.chance_outcomes()) == DECK - 1


def test_an_illegal_move_is_refused_by_name() -> None:
    state = load().new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    legal = state.legal_actions()
    for action in (600, ACTION_COUNT, -2):
        words = f"action {action} is not legal here; legal actions: {legal}"
        refused(state, action, re.escape(words))
