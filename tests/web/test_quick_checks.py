"""The shortcuts the server takes on the checks the page asks for after every move."""

from __future__ import annotations

import random
from collections.abc import Iterator

from bonanza.core import Deal, Rules
from bonanza.session import Session
from bonanza.session.autofinish import places_every_card
from bonanza.web.searches import _key

from . import deals

PRESETS = ["klondike", "klondike-3", "vegas-1", "vegas-3", "thoughtful"]


def states() -> Iterator[Session]:
    """A session at each state of a winning line played with undos and redos, and of
    random games with undos (the same session object, changed between yields)."""
    number, moves = deals.winning()
    for preset in ("klondike", "thoughtful"):
        session = Session.new(Deal.parse(number), Rules.preset(preset), 0.0)
        for index, move in enumerate(moves):
            session.play(move, 1.0)
            yield session
            if index % 7 == 3:
                session.undo(1.0)
                yield session
                session.redo(1.0)
    rng = random.Random(12)
    for _ in range(60):
        session = Session.new(
            Deal.from_number(rng.randrange(10**6)), Rules.preset(rng.choice(PRESETS)), 0.0
        )
        for _ in range(200):
            legal = session.position.legal_moves()
            if not legal or session.is_over:
                break
            if session.can_undo and rng.random() < 0.1:
                session.undo(1.0)
            else:
                session.play(rng.choice(legal), 1.0)
            yield session


def test_every_card_placed_is_the_board_views_answer() -> None:
    known = 0
    for session in states():
        answer = session.board_view().is_known()
        assert places_every_card(session.position, session.seen) == answer
        known += answer
    assert known > 100  # both answers are tried


def test_a_positions_cache_key_tells_positions_apart_as_its_text_does() -> None:
    texts: dict[str, str] = {}
    for session in states():
        position = session.position
        text = f"{position.rules!r} {position.to_text()}"
        assert texts.setdefault(_key(position), text) == text
    assert len(set(texts.values())) == len(texts) > 1000
