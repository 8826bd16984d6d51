"""The C batch engine plays exactly as bonanza.core: legal actions, positions, observations."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from bonanza.core import Deal, EmptyColumn, Position, Rules
from bonanza.core.deal import shuffle
from bonanza.rl import observation
from bonanza.rl._batch import shuffle as c_shuffle
from bonanza.rl.actions import ACTION_COUNT, ActionError, legal_actions
from bonanza.rl.engine import Engine

STEPS = 160
RULE_OPTIONS = [
    Rules(draw=draw, passes=passes, empty_column=empty, recall=recall, partial_runs=partial)
    for draw, passes, empty, recall, partial in itertools.product(
        (1, 2, 3, 24), (None, 1, 3), tuple(EmptyColumn), (True, False), (True, False)
    )
]


def core_mask(position: Position) -> np.ndarray:
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    mask[list(legal_actions(position))] = 1
    return mask


def test_deal_numbers_shuffle_as_in_core() -> None:
    chooser = random.Random(5)
    for number in [0, 1, 2**63, 2**64 - 1, *(chooser.randrange(2**64) for _ in range(300))]:
        assert tuple(c_shuffle(number)) == shuffle(number)


@pytest.mark.parametrize("rules", RULE_OPTIONS, ids=Rules.to_text)
def test_random_playouts_match_core_move_for_move(rules: Rules) -> None:
    chooser = random.Random(rules.to_text())
    engine = Engine(1, rules, "thoughtful", None, None)
    for _ in range(2):
        number = chooser.randrange(2**64)
        engine.deal(0, number)
        position = Position.initial(Deal.from_number(number), rules)
        for _ in range(STEPS):
            legal = legal_actions(position)
            assert np.array_equal(engine.mask[0], core_mask(position)), position.to_text()
            assert engine.batch.legal(0) == list(legal)
            assert engine.position(0) == position
            if not legal:
                break
            action = chooser.choice(list(legal))
            engine.batch.play(0, action)
            position.apply(legal[action])


@pytest.mark.parametrize("visibility", observation.VISIBILITIES)
@pytest.mark.parametrize("rules", [Rules(), Rules(draw=3, passes=2), Rules(thoughtful=True)])
def test_observations_match_the_reference_encoder(rules: Rules, visibility: str) -> None:
    chooser = random.Random(f"{rules.to_text()} {visibility}")
    engine = Engine(1, rules, visibility, None, None)  # type: ignore[arg-type]
    for number in range(3):
        engine.deal(0, number)
        for _ in range(250):
            position = engine.position(0)
            expected = observation.encode(position, visibility)  # type: ignore[arg-type]
            assert np.array_equal(engine.obs[0], expected), position.to_text()
            legal = engine.batch.legal(0)
            if not legal:
                break
            engine.batch.play(0, chooser.choice(legal))


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    engine = Engine(1, Rules(), "player", None, None)
    engine.deal(0, 7)
    before, obs, mask = engine.position(0), engine.obs.copy(), engine.mask.copy()
    illegal = next(a for a in range(ACTION_COUNT) if not mask[0, a])
    with pytest.raises(ActionError, match=f"action {illegal} is not legal"):
        engine.batch.play(0, illegal)
    with pytest.raises(ActionError, match="not a number from 0 to 614"):
        engine.batch.play(0, ACTION_COUNT)
    assert engine.position(0) == before
    assert np.array_equal(engine.obs, obs) and np.array_equal(engine.mask, mask)
