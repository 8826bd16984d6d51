"""Packed positions: a game's history kept as bytes unpacks to the very positions played."""

from __future__ import annotations

import gc
import random

from hypothesis import given, settings

from bonanza.core import Deal, Game, Position, Rules
from bonanza.core.packed import pack, unpack
from tests.core.strategies import games


def replayed(game: Game) -> list[Position]:
    """Every position of ``game``, by replaying its moves from the deal as live positions."""
    position = Position.initial(game.deal, game.rules)
    found = [position]
    for move in game.history:
        position = position.copy()
        position.play(move)
        found.append(position)
    return found


@given(games())
@settings(max_examples=150, deadline=None)
def test_pack_round_trips_every_position_of_a_game(game: Game) -> None:
    for position in replayed(game):
        assert unpack(pack(position), game.rules) == position
        assert unpack(pack(position), game.rules).to_text() == position.to_text()


@given(games())
@settings(max_examples=100, deadline=None)
def test_history_and_undo_give_back_the_positions_played(game: Game) -> None:
    expected = replayed(game)
    assert list(game.positions) == expected
    assert list(game.recent_positions(3)) == expected[-3:]
    assert list(game.recent_positions(len(expected) + 5)) == expected
    while game.can_undo:
        game.undo()
        expected.pop()
        assert game.position == expected[-1]
        assert game.position.legal_moves() == expected[-1].legal_moves()


def test_packed_history_keeps_its_objects_and_hides_them_from_the_collector() -> None:
    game = Game(Deal.from_number(11), Rules.preset("klondike"))
    rng = random.Random(3)
    for _ in range(60):
        game.play(rng.choice(game.position.legal_moves()))
    first = game.packed_positions
    assert len(first) == 60
    assert all(a is b for a, b in zip(first, game.packed_positions, strict=True))
    assert not any(gc.is_tracked(data) for data in first)
    assert pack(game.positions[0]) == first[0]


def test_pass_counts_beyond_one_byte_survive() -> None:
    position = Position.initial(Deal.from_number(2), Rules.preset("klondike"))
    position.recycles = 70_000
    assert unpack(pack(position), position.rules).recycles == 70_000
