from __future__ import annotations

import json

import pytest
from hypothesis import given

from bonanza.core import Deal, Game, HistoryError, IllegalMoveError, Rules, SaveError
from tests.core.strategies import games


def test_undo_and_redo() -> None:
    game = Game(Deal.from_number(7), Rules())
    start = game.position.copy()
    first = game.play("sw")
    after_first = game.position.copy()
    game.play("sw")
    assert game.move_count == 2
    game.undo()
    assert game.position == after_first and game.can_redo
    assert game.redo() == game.history[-1] and game.move_count == 2
    game.undo()
    game.undo()
    assert game.position == start and not game.can_undo
    assert game.redo() == first


def test_a_new_move_clears_redo() -> None:
    game = Game(Deal.from_number(7), Rules())
    game.play("sw")
    game.undo()
    game.play("sw")
    game.play("sw")
    game.undo()
    game.undo()
    game.play("sw")
    assert not game.can_redo


def test_nothing_to_undo_or_redo() -> None:
    game = Game(Deal.from_number(7), Rules())
    with pytest.raises(HistoryError, match="undo"):
        game.undo()
    with pytest.raises(HistoryError, match="redo"):
        game.redo()


def test_illegal_moves_leave_the_game_unchanged() -> None:
    game = Game(Deal.from_number(7), Rules())
    before = game.to_json()
    with pytest.raises(IllegalMoveError):
        game.play("12")
    assert game.to_json() == before


def test_restart_keeps_the_moves_for_redo() -> None:
    game = Game(Deal.from_number(7), Rules())
    for _ in range(3):
        game.play("sw")
    end = game.position.copy()
    game.restart()
    assert game.move_count == 0 and len(game.redo_moves) == 3
    while game.can_redo:
        game.redo()
    assert game.position == end


def test_counts() -> None:
    game = Game(Deal.from_number(7), Rules(draw=3))
    for _ in range(8):
        game.play("sw")
    game.play("ws")
    assert (game.move_count, game.recycle_count) == (9, 1)


@given(games())
def test_saves_reload_identically(game: Game) -> None:
    if game.can_undo:
        game.undo()
    game.elapsed = 12.5
    for loaded in (
        Game.from_json(json.loads(json.dumps(game.to_json()))),
        Game.from_text(game.to_text()),
    ):
        assert loaded.position == game.position
        assert loaded.history == game.history
        assert loaded.redo_moves == game.redo_moves
        assert loaded.score() == game.score()
        assert loaded.elapsed == 12.5
        assert loaded.rules == game.rules and loaded.deal == game.deal


def test_a_code_deal_saves_by_code() -> None:
    deal = Deal.from_listing(Deal.from_number(3).listing)
    game = Game(deal, Rules())
    assert game.to_json()["deal"] == deal.code
    assert Game.from_json(game.to_json()).deal == deal


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"format": "chess"}, "not a saved Bonanza game"),
        ({"version": 9}, "version"),
        ({"deal": "xyz"}, "not a deal"),
        ({"moves": ["sw", "12"]}, "move 2 .'12'. does not replay"),
        ({"moves": ["sw", 7]}, "move 2 is 7"),
        ({"moves": "sw"}, "'moves'"),
        ({"rules": {"draw": 99}}, "draw"),
        ({"elapsed": -1}, "elapsed"),
        ({"elapsed": float("nan")}, "elapsed"),
        ({"elapsed": float("inf")}, "elapsed"),
    ],
)
def test_bad_saves_name_the_problem(change: dict[str, object], problem: str) -> None:
    data = Game(Deal.from_number(7), Rules()).to_json() | change
    with pytest.raises(SaveError, match=problem):
        Game.from_json(data)


def test_a_text_save_cut_off_before_its_moves_is_refused_not_loaded_at_move_0() -> None:
    game = Game(Deal.from_number(7), Rules())
    game.play("sw")
    text = game.to_text()
    without_moves = "".join(line for line in text.splitlines(True) if line.startswith(
        ("bonanza-game", "deal", "rules", "elapsed")))
    with pytest.raises(SaveError, match=r"lacks the line\(s\): moves, redo \(the file is cut off"):
        Game.from_text(without_moves)
    cut_in_moves = text[: text.index("moves") + len("moves s")]
    with pytest.raises(SaveError, match=r"lacks the line\(s\): redo \(the file is cut off"):
        Game.from_text(cut_in_moves)
    at_move_0 = Game.from_text(Game(Deal.from_number(7), Rules()).to_text())
    assert at_move_0.move_count == 0  # its empty moves line says so


def test_bad_text_saves() -> None:
    for elapsed in ("nan", "inf", "-3", "soon"):
        with pytest.raises(SaveError, match="elapsed"):
            Game.from_text(
                f"bonanza-game 1\ndeal 7\nrules klondike\nelapsed {elapsed}\nmoves\nredo\n"
            )
    with pytest.raises(SaveError, match="first line"):
        Game.from_text("hello")
    with pytest.raises(SaveError, match="deal"):
        Game.from_text("bonanza-game 1\nrules klondike\n")
    with pytest.raises(SaveError, match="move 1"):
        Game.from_text("bonanza-game 1\ndeal 7\nrules klondike\nmoves 12\nredo\n")
