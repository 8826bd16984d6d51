"""Fair errors: no error the RL API raises on a position tells a card the player cannot see.

Each check compares the messages raised on a position with those raised on a
twin whose hidden cards (face down, or in a stock not yet turned over) are
swapped around: a message that named one would differ.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest

from bonanza.core import Deal, Position, Rules
from bonanza.core.view import PlayerView, visible_cards
from bonanza.rl.actions import ActionError, move_of, numbering
from bonanza.rl.env import DEAL_NUMBERS, KlondikeEnv
from bonanza.rl.vector import KlondikeVectorEnv

RULE_SETS = ("klondike", "klondike-3", "easthaven", "westcliff", "double-klondike")
POSITIONS = 12
"""Positions checked per rule set, along random games."""
MOVES_BETWEEN = 7
BAD_ACTIONS: tuple[object, ...] = (-1, 1.5, "3", None)


def twin(position: Position, chooser: random.Random) -> Position:
    """``position`` with its hidden cards swapped around: the player cannot tell them apart."""
    view = PlayerView.of(position)
    cards = list(view.unseen)
    chooser.shuffle(cards)
    return view.layout(cards)


def messages(call: Callable[[Any], object], actions: list[object]) -> list[str]:
    """The message of the ``ActionError`` each action raises (legal ones are skipped)."""
    out = []
    for action in actions:
        try:
            call(action)
        except ActionError as error:
            out.append(str(error))
    return out


@pytest.mark.python_bound  # the action numbering and the moves are the core's Python
@pytest.mark.parametrize("name", RULE_SETS)
def test_move_of_refusals_name_no_hidden_card(name: str) -> None:
    rules = Rules.preset(name)
    count = numbering(rules).count
    chooser = random.Random(name)
    actions: list[object] = [*range(count + 1), *BAD_ACTIONS]
    position = Position.initial(random_deal(rules, chooser), rules)
    differed = 0
    for _ in range(POSITIONS):
        other = twin(position, chooser)
        differed += other != position
        mine = messages(partial(move_of, position=position), actions)
        assert mine == messages(partial(move_of, position=other), actions)
        assert len(mine) > count - len(position.legal_moves())
        for _ in range(MOVES_BETWEEN):
            moves = position.legal_moves()
            if not moves:
                break
            position.apply(chooser.choice(moves))
    assert differed > 0


def hidden_twin_deals(rules: Rules, chooser: random.Random) -> tuple[Deal, Deal]:
    """Two deals whose openings look alike to the player."""
    deal = random_deal(rules, chooser)
    shown = visible_cards(Position.initial(deal, rules))
    listing = list(deal.cards)
    places = [place for place, card in enumerate(listing) if card not in shown]
    cards = [listing[place] for place in places]
    chooser.shuffle(cards)
    for place, card in zip(places, cards, strict=True):
        listing[place] = card
    other = Deal(listing)
    assert other != deal
    assert Position.initial(other, rules).to_text(hide=True) == (
        Position.initial(deal, rules).to_text(hide=True)
    )
    return deal, other


def random_deal(rules: Rules, chooser: random.Random) -> Deal:
    return Deal.from_number(chooser.randrange(DEAL_NUMBERS), rules.decks)


@pytest.mark.parametrize("name", ["klondike", "klondike-3", "westcliff"])
def test_environment_refusals_name_no_hidden_card(name: str) -> None:
    rules = Rules.preset(name)
    actions: list[object] = [*range(numbering(rules).count + 1), *BAD_ACTIONS]
    found = []
    for deal in hidden_twin_deals(rules, random.Random(name)):
        env = KlondikeEnv(rules)
        env.reset(options={"deal": deal})
        legal = set(env.legal_actions())
        found.append(messages(env.step, [a for a in actions if a not in legal]))
    assert found[0] == found[1]
    assert found[0]


def test_vector_refusals_name_no_hidden_card() -> None:
    rules = Rules()
    count = numbering(rules).count
    found = []
    for deal in hidden_twin_deals(rules, random.Random(1)):
        envs = KlondikeVectorEnv(2)
        envs.reset(options={"deals": [deal, deal]})
        found.append(
            messages(envs.step, [np.array([action, action]) for action in range(count + 1)])
        )
    assert found[0] == found[1]
    assert found[0]
