"""A session from the store loads without replaying its game, and plays on exactly
as one replayed from its moves (``Session.from_json(trusted=True)``)."""

from __future__ import annotations

import random

import pytest

from bonanza.core import Deal, Rules
from bonanza.session import Session

GAMES = 12
MOVES = 150


RULE_SETS = ["klondike", "klondike-3", "double-klondike-3", "vegas-3", "easthaven"]


@pytest.mark.parametrize("game", RULE_SETS)
def test_a_trusted_session_plays_on_as_the_replayed_one(game: str) -> None:
    chooser = random.Random(game)
    rules = Rules.preset(game)
    for number in range(GAMES):
        session = Session.new(Deal.from_number(number, rules.decks), rules, 0.0)
        for step in range(chooser.randint(0, MOVES)):
            if session.is_over or not session.position.legal_moves():
                break
            if session.can_undo and chooser.random() < 0.1:
                session.undo(float(step))
            else:
                session.play(chooser.choice(session.position.legal_moves()), float(step))
        saved = session.to_json()
        exact, replayed = Session.from_json(saved, trusted=True), Session.from_json(saved)
        assert exact.seen == replayed.seen == session.seen
        assert exact.view() == replayed.view()
        assert exact.to_json() == replayed.to_json() == saved
        if exact.can_undo:
            exact.undo(1e6)
            replayed.undo(1e6)
            assert exact.view() == replayed.view() and exact.to_json() == replayed.to_json()
