from __future__ import annotations

import re

import pytest
from hypothesis import given

from bonanza.core import (
    Deal,
    EmptyColumn,
    Game,
    IllegalMoveError,
    Move,
    MoveSyntaxError,
    Pile,
    Position,
    PositionSyntaxError,
    Rules,
    Scoring,
    describe_move,
    format_move,
    parse_move,
)
from tests.core.strategies import games
from tests.core.tables import table

T1, T2 = Pile.T1, Pile.T2


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (Move(Pile.STOCK, Pile.WASTE, 3), "sw"),
        (Move(Pile.WASTE, Pile.STOCK, 20), "ws"),
        (Move(Pile.WASTE, Pile.T3, 1), "w3"),
        (Move(Pile.WASTE, Pile.FH, 1), "wf"),
        (Move(Pile.T6, Pile.FC, 1), "6f"),
        (Move(Pile.FH, Pile.T2, 1), "fh2"),
        (Move(Pile.T4, Pile.T7, 1), "47"),
        (Move(Pile.T4, Pile.T7, 3), "47:3"),
    ],
)
def test_format_move(move: Move, text: str) -> None:
    assert format_move(move) == text


@given(games())
def test_every_legal_move_round_trips(game: Game) -> None:
    position = game.position
    for move in position.legal_moves():
        assert parse_move(format_move(move), position) == move


def test_parse_fills_in_what_the_position_decides() -> None:
    position = table(["kd KS QH JC", "KH", "kc QC"], stock="QD JD TD 9D", rules=Rules(draw=3))
    assert parse_move("sw", position) == Move(Pile.STOCK, Pile.WASTE, 3)
    assert parse_move("1f", position) == parse_move("1fc", position) == Move(T1, Pile.FC, 1)
    assert parse_move(" 1FC ", position) == Move(T1, Pile.FC, 1)
    runs = table(["kd QH JC", "KC", "kh QC"])
    assert parse_move("12", runs) == Move(T1, T2, 2)  # the only count that fits


@pytest.mark.parametrize(
    "text", ["", "x", "18", "1", "99", "sw:", "s3", "f3", "1w", "47:x", "4 7", "33", "fhf", "fh"]
)
def test_malformed_moves(text: str) -> None:
    position = Position.initial(Deal.from_number(7), Rules())
    with pytest.raises(MoveSyntaxError, match=repr(text.strip().lower())[1:-1] or "''"):
        parse_move(text, position)


def test_illegal_moves_name_the_text_and_the_position() -> None:
    position = Position.initial(Deal.from_number(7), Rules())
    text = position.to_text(hide=True)
    for move in ("12", "ws", "wf", "fh1", "1f", "47:2"):
        with pytest.raises(IllegalMoveError) as info:
            parse_move(move, position)
        assert repr(move) in str(info.value) and text in str(info.value)


def test_errors_never_name_a_hidden_card() -> None:
    game = Game(Deal.from_number(0), Rules())
    hidden = {
        str(c)
        for column, down in zip(game.position.tableau, game.position.down, strict=True)
        for c in column[:down]
    } | {str(c) for c in game.position.stock}
    for text in ("12", "71:7", "71:0", "ws", "wf", "fh1"):
        with pytest.raises(IllegalMoveError) as info:
            game.play(text)
        named = set(re.findall(r"[A2-9TJQK][CDHS]", str(info.value)))
        assert named and not named & hidden, str(info.value)
    with pytest.raises(IllegalMoveError, match="at least one card"):
        game.play(Move(Pile.T7, Pile.T1, 0))


def test_describe_move() -> None:
    position = table(["kd KS QH JC", "QD", "kh qc KC"])
    assert describe_move(Move(T1, T2, 1), position) == "jack of clubs to column 2"
    assert describe_move(Move(T1, Pile.FC, 1), position) == "jack of clubs to clubs foundation"
    opening = Position.initial(Deal.from_number(7), Rules(draw=3))
    assert describe_move(Move(Pile.STOCK, Pile.WASTE, 3), opening) == "drew 3 cards"


@given(games())
def test_position_text_round_trips(game: Game) -> None:
    position = game.position
    assert Position.from_text(position.to_text(), position.rules) == position
    namespace = {
        "Position": Position,
        "Rules": Rules,
        "EmptyColumn": EmptyColumn,
        "Scoring": Scoring,
    }
    assert eval(repr(position), namespace) == position


@given(games())
def test_hidden_text_hides_exactly_the_unseen_cards(game: Game) -> None:
    position = game.position
    hidden = position.to_text(hide=True)
    columns = hidden.split()[0].split("/")
    for column, cards, down in zip(columns, position.tableau, position.down, strict=True):
        if position.rules.thoughtful:
            assert "?" not in column
        else:
            assert column.count("?") == down
            assert column.replace("?", "") == "".join(str(c) for c in cards[down:]) or not cards
    stock = hidden.split()[1]
    if not position.stock or position.rules.thoughtful or position.recycles:
        assert "?" not in stock
    else:
        assert stock == "?" * len(position.stock)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("-/-/-/-/-/-/- - - KKKK", "fields"),
        ("-/-/-/-/-/- - - KKKK 0", "columns"),
        ("KS/-/-/-/-/-/- - - KKKK 0", "repeated KS"),
        ("-/-/-/-/-/-/- - - KKKQ 0", "missing KS"),
        ("ks/-/-/-/-/-/- - - KKKQ 0", "face-down"),
        ("KSqs/-/-/-/-/-/- - - KKKJ 0", "face-down"),
        ("XX/-/-/-/-/-/- - - KKKK 0", "'XX' is not a card"),
        ("?/-/-/-/-/-/- - - KKKQ 0", "hidden"),
        ("KSKH/-/-/-/-/-/- - - KKQQ 0", "KH cannot lie on KS"),
        ("-/-/-/-/-/-/- - - KKKK x", "recycles"),
        ("-/-/-/-/-/-/- - - KKKK \u00b2", "recycles '\u00b2' is not a count"),
        ("-/-/-/-/-/-/- - - KKKK \u0667", "recycles '\u0667' is not a count"),
        ("-/-/-/-/-/-/- - - KKZK 0", "ranks"),
    ],
)
def test_bad_position_text_names_the_problem(text: str, problem: str) -> None:
    with pytest.raises(PositionSyntaxError, match=problem):
        Position.from_text(text, Rules())


@pytest.mark.parametrize("recycles", [3, 2**31, 2**64])
def test_more_recycles_than_the_passes_allow_are_refused(recycles: int) -> None:
    won = "-/-/-/-/-/-/- - - KKKK"
    vegas = Rules.preset("vegas-3")  # 3 passes: 2 recycles
    assert Position.from_text(f"{won} 2", vegas).recycles == 2
    with pytest.raises(PositionSyntaxError, match=f"recycles {recycles}: 3 passes allow at most 2"):
        Position.from_text(f"{won} {recycles}", vegas)
    assert Position.from_text(f"{won} {recycles}", Rules()).recycles == recycles
