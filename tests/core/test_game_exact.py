"""A trusted save loads without replaying its moves, and then behaves exactly as a
replayed one: the same positions, score, undo, redo and saves (``Game.from_json``)."""

from __future__ import annotations

import base64
import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bonanza.core import Deal, Game, Position, Rules, SaveError
from bonanza.core import game as game_module
from bonanza.core.game import CHECKPOINT_EVERY
from bonanza.core.move_codes import decode_moves, encode_moves
from bonanza.core.packed import pack
from tests.core.strategies import deals, games

TWO_DECKS = Rules.preset("double-klondike-3")


def without_previous(game: Game, compact: bool = False) -> dict[str, Any]:
    """``game.to_json()`` but for the position before the last move, which a save holds
    only when it is at hand (checked apart by :func:`same_game`)."""
    saved = game.to_json(compact=compact)
    saved["exact"].pop("previous", None)
    return saved


def same_game(one: Game, other: Game) -> None:
    assert one.position == other.position
    assert one.history == other.history and one.redo_moves == other.redo_moves
    assert one.running_score == other.running_score and one.score() == other.score()
    assert without_previous(one) == without_previous(other)
    assert one.to_json()["exact"]["moves"] == encode_moves(one.history)  # kept, not remade
    for game in (one, other):
        previous = game.to_json()["exact"].get("previous")
        if previous is not None:  # the position before the last move, and its score
            undone = Game.from_json(game.to_json())
            score = undone.running_score if undone.undo() else None
            assert previous == [base64.b64encode(pack(undone.position)).decode(), score]


def undone_some(game: Game, chooser: random.Random) -> Game:
    """``game`` with a few moves undone (for a redo list), some replayed."""
    for _ in range(chooser.randint(0, min(5, game.move_count))):
        game.undo()
    if game.can_redo and chooser.random() < 0.5:
        game.redo()
    return game


@settings(max_examples=60, deadline=None)
@given(games(), st.randoms(use_true_random=False))
def test_a_trusted_load_is_the_replayed_game_through_undo_and_redo(
    game: Game, chooser: random.Random
) -> None:
    game = undone_some(game, chooser)
    saved = game.to_json()
    exact = Game.from_json(saved, trusted=True)
    replayed = Game.from_json(saved)
    same_game(exact, replayed)
    for _ in range(chooser.randint(0, 3)):  # moves after the load, then undo past them
        moves = exact.position.legal_moves()
        if not moves:
            break
        move = chooser.choice(moves)
        exact.play(move)
        replayed.play(move)
    assert exact.recent_positions(2) == replayed.recent_positions(2)
    while replayed.can_undo:
        assert exact.undo() == replayed.undo()
        same_game(exact, replayed)
    assert exact.positions == replayed.positions
    while replayed.can_redo:
        assert exact.redo() == replayed.redo()
    same_game(exact, replayed)


@given(deals, st.randoms(use_true_random=False))
@settings(max_examples=20, deadline=None)
def test_two_deck_games_load_exactly_too(deal: Deal, chooser: random.Random) -> None:
    game = Game(Deal.from_number(deal.number or 0, 2), TWO_DECKS)
    for _ in range(80):
        home = [m for m in game.position.legal_moves() if m.dest.is_foundation]
        moves = home or game.position.legal_moves()
        if not moves:
            break
        game.play(chooser.choice(moves))
    exact = Game.from_json(game.to_json(), trusted=True)
    assert exact.positions == game.positions
    same_game(exact, game)


def played(moves: int = 40) -> Game:
    game = Game(Deal.from_number(7), Rules())
    chooser = random.Random(7)
    for _ in range(moves):
        game.play(chooser.choice(game.position.legal_moves()))
    return game


def test_a_save_edited_by_hand_is_replayed_unless_trusted_and_then_caught() -> None:
    game = played()
    saved = game.to_json()
    forged = copy.deepcopy(saved)
    other = played(41).to_json()["exact"]
    forged["exact"]["position"] = other["position"]
    assert Game.from_json(forged).position == game.position  # untrusted: replayed
    trusted = Game.from_json(forged, trusted=True)
    with pytest.raises(SaveError, match="do not lead to its saved position"):
        trusted.undo()  # the positions passed are replayed, and do not meet the save
    for broken in ({"moves": "!!"}, {"moves": encode_moves(game.history[:-1])},
                   {"score": "12"}, {"position": "AAA"}):  # fmt: skip
        bad = copy.deepcopy(saved)
        bad["exact"].update(broken)
        with pytest.raises(SaveError):  # at the load, or once the moves are read
            loaded = Game.from_json(bad, trusted=True)
            assert loaded.history
            loaded.undo()


def test_moves_round_trip_exactly_and_bad_codes_are_refused() -> None:
    history = played().history
    assert decode_moves(encode_moves(history)) == history
    assert decode_moves(encode_moves([])) == []
    for bad in (None, "AA", "/w==", "AAAA"):  # not text, 1 byte, not base64, count 0
        with pytest.raises(SaveError):
            decode_moves(bad)


def long_game(moves: int) -> Game:
    """A game of ``moves`` moves (random ones; undone where a game runs out)."""
    game = Game(Deal.from_number(11), Rules())
    chooser = random.Random(11)
    while game.move_count < moves:
        legal = game.position.legal_moves()
        game.play(chooser.choice(legal)) if legal else game.undo()
    return game


def test_an_undo_after_a_trusted_load_replays_from_the_nearest_checkpoint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stale copy reloaded and then undone must not replay a long game (issue 31,
    item 5: a 5,000-move game replayed on the event loop stalled other players)."""
    game = long_game(3 * CHECKPOINT_EVERY + 40)
    exact = Game.from_json(game.to_json(), trusted=True)
    applied = []
    real_apply = Position.apply

    def counting(self: Position, move: object) -> object:
        applied.append(move)
        return real_apply(self, move)  # type: ignore[arg-type]

    monkeypatch.setattr(Position, "apply", counting)
    for _ in range(3):  # undo, then save and load again, as another process would
        exact.undo()
        game.undo()
        exact = Game.from_json(exact.to_json(), trusted=True)
    assert len(applied) <= 3 * CHECKPOINT_EVERY  # each undo: at most one stretch
    monkeypatch.undo()
    same_game(exact, game)
    assert exact.positions == game.positions  # and the whole game still replays exactly


@settings(max_examples=40, deadline=None)
@given(games(), st.randoms(use_true_random=False))
def test_a_compact_save_holds_no_texts_and_loads_as_the_full_one(
    game: Game, chooser: random.Random
) -> None:
    """A store's rows (``compact``) keep the moves only exactly; trusted or not, they load
    to the game the full save gives, texts included."""
    game = undone_some(game, chooser)
    compact = game.to_json(compact=True)
    assert "moves" not in compact and "redo" not in compact
    for trusted in (True, False):
        loaded = Game.from_json(compact, trusted=trusted)
        assert loaded.history_texts == game.history_texts
        same_game(loaded, Game.from_json(game.to_json()))


def test_a_compact_load_undo_and_move_replay_none_of_a_long_history(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stale copy read again costs the same at any length (issue 32): loading a compact
    save, an undo and a move play one move of the history at most (the check of the
    saved position before the last move), and read only that move's code."""
    game = long_game(3 * CHECKPOINT_EVERY + 40)
    saved = without_previous(game, compact=True)
    saved["exact"]["previous"] = game.to_json()["exact"]["previous"]
    applied: list[object] = []
    decoded: list[int] = []
    real_apply, real_decode = Position.apply, decode_moves

    def counting(self: Position, move: object) -> object:
        applied.append(move)
        return real_apply(self, move)  # type: ignore[arg-type]

    def decoding(text: object) -> list[Any]:
        moves = real_decode(text)
        decoded.append(len(moves))
        return moves

    monkeypatch.setattr(Position, "apply", counting)
    monkeypatch.setattr(game_module, "decode_moves", decoding)
    exact = Game.from_json(saved, trusted=True)
    exact.undo()
    exact.play(exact.position.legal_moves()[0])
    exact = Game.from_json(exact.to_json(compact=True), trusted=True)
    assert len(applied) <= 1 + 1  # the check, and the move played (Position.play)
    assert all(count <= 1 for count in decoded), decoded
    monkeypatch.undo()
    game.undo()
    game.play(game.position.legal_moves()[0])
    same_game(exact, game)


def test_a_forged_position_before_the_last_move_is_caught_at_the_undo() -> None:
    game = played()
    forged = game.to_json(compact=True)
    forged["exact"]["previous"] = played(38).to_json()["exact"]["previous"]
    loaded = Game.from_json(forged, trusted=True)
    with pytest.raises(SaveError, match="do not lead to its saved position"):
        loaded.undo()
    assert Game.from_json(forged).position == game.position  # untrusted: replayed
