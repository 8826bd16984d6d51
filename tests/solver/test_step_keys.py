"""The lookups a node starts for its children are the right ones.

With a large table, ``enter`` (search_run.h) starts the table lookups of all
of a position's children together, from each step's key as ``step_key``
predicts it without playing the step; a wrong prediction would cost a cache
miss on every such lookup, and change no verdict. Here the prediction is
checked against the key of the position the step makes, over the steps of
random positions under every stock rule.
"""

from __future__ import annotations

import dataclasses

from bonanza.core import Rules
from bonanza.solver import _search
from bonanza.solver.search import core_arguments
from tests.core.strategies import random_position

RULE_SETS = (
    Rules.preset("klondike"),
    Rules.preset("klondike-3"),
    dataclasses.replace(Rules.preset("klondike-3"), passes=3),
    dataclasses.replace(Rules.preset("klondike"), passes=1),
    dataclasses.replace(Rules.preset("klondike"), recall=False),
    Rules.preset("westcliff"),
)
POSITIONS = 60
PLIES = 50


def test_each_step_key_is_the_key_of_the_position_it_makes() -> None:
    steps = 0
    for rules in RULE_SETS:
        for seed in range(POSITIONS):
            position = random_position(seed, seed % PLIES, rules)
            pairs = _search.step_keys(*core_arguments(position))
            assert all(predicted == key for predicted, key in pairs), (rules, seed)
            steps += len(pairs)
    assert steps >= 2_000
