"""``Game.legal_moves`` and ``Game.packed``: the current position's moves and bytes,
worked out once for each position."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bonanza.core.game as game_module
from bonanza.core import Deal, Game, Move, Position, Rules
from bonanza.core.packed import pack, unpack

STEPS = 60


@settings(max_examples=40, deadline=None)
@given(
    number=st.integers(1, 1_000_000),
    draw=st.sampled_from([1, 3]),
    seed=st.integers(0, 2**32),
)
def test_a_games_legal_moves_follow_its_position_through_moves_undo_redo_and_loads(
    number: int, draw: int, seed: int
) -> None:
    rng = random.Random(seed)
    game = Game(Deal.from_number(number), Rules(draw=draw))
    for _ in range(STEPS):
        assert game.legal_moves() == tuple(game.position.legal_moves())
        assert game.packed() == pack(game.position)
        choice = rng.random()
        if choice < 0.15 and game.history:
            game.undo()
        elif choice < 0.25 and game.can_redo:
            game.redo()
        elif choice < 0.3:
            game = Game.from_json(game.to_json(compact=rng.random() < 0.5))
        elif game.legal_moves():
            game.play(rng.choice(game.legal_moves()))
    assert game.legal_moves() == tuple(game.position.legal_moves())
    assert pack(unpack(game.packed(), game.rules)) == game.packed()


def test_the_moves_are_worked_out_once_for_each_position(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(Deal.from_number(7), Rules())
    calls = 0
    original = Position.legal_moves

    def counted(position: Position) -> list[Move]:
        nonlocal calls
        calls += 1
        return original(position)

    monkeypatch.setattr(Position, "legal_moves", counted)
    first = game.legal_moves()
    assert game.legal_moves() is first and calls == 1
    game.play("sw")  # its text is read against the moves already worked out
    assert calls == 1
    game.legal_moves()
    game.legal_moves()
    assert calls == 2
    game.undo()
    assert game.legal_moves() == first and calls == 3


def test_a_move_its_save_and_its_undo_pack_the_position_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    played = Game(Deal.from_number(7), Rules())
    calls = 0

    def counted(position: Position) -> bytes:
        nonlocal calls
        calls += 1
        return pack(position)

    monkeypatch.setattr(game_module, "pack", counted)
    start = pack(played.position)
    calls = 0
    played.play("sw")  # the deal's position is packed, kept for undo
    assert calls == 1
    saved = played.to_json(compact=True)["exact"]["position"]  # kept for the next move
    played.packed()
    assert calls == 2
    played.play(played.legal_moves()[0])
    assert calls == 2
    played.undo()  # the bytes kept for undo are the position's
    assert played.to_json(compact=True)["exact"]["position"] == saved and calls == 2
    played.undo()
    assert played.packed() == start and calls == 2
    assert pack(played.position) == start
