"""Scoring schemes: each one's points, and the rules that would fail if ignored."""

from __future__ import annotations

import pytest

from bonanza.core import Deal, EmptyColumn, Game, Move, Pile, Position, Rules, Scoring
from bonanza.core.scoring import game_score, time_bonus, time_penalty, vegas_bankroll
from tests.core.tables import table

STANDARD, TIMED, VEGAS = Scoring.STANDARD, Scoring.TIMED, Scoring.VEGAS


def game_at(position: Position) -> Game:
    """A game whose current position is ``position``."""
    game = Game(Deal.from_number(0), position.rules)
    game._current = position
    game._scores[0] = -52 if position.rules.scoring.is_vegas else 0
    return game


def test_standard_points() -> None:
    position = table(
        ["kd KS QH JC", "KH", "kc QC", "QD"], waste="JD", rules=Rules(scoring=STANDARD)
    )
    game = game_at(position)
    game.play("1f")  # JC home: +10, and nothing turned up
    assert game.score() == 10
    game.play("w3")  # JD onto QC: +5
    assert game.score() == 15
    game.play("fc4")  # JC back onto QD: -15
    assert game.score() == 0


def test_turning_up_a_card_earns_five() -> None:
    game = game_at(table(["kd QS", "KH", "KS"], rules=Rules(scoring=STANDARD)))
    game.play("1f")
    assert game.score() == 10 + 5


def test_score_never_drops_below_zero() -> None:
    game = game_at(table(["TS", "kh qh jh TH", "ks qs JS"], rules=Rules(scoring=STANDARD)))
    game.play("fh1")  # 9H back: -15 from 0
    assert game.score() == 0


@pytest.mark.parametrize(("draw", "costs"), [(1, [100, 100, 100, 100]), (3, [0, 0, 20, 20])])
def test_recycle_costs(draw: int, costs: list[int]) -> None:
    deal = Deal.from_number(7)
    game = Game(deal, Rules(draw=draw, scoring=STANDARD))
    game._scores[0] = 1000
    paid = []
    for _ in range(4):
        while game.position.stock:
            game.play("sw")
        before = game.score()
        game.play("ws")
        paid.append(before - game.score())
    assert paid == costs


def test_timed_scoring() -> None:
    assert time_penalty(9.9) == 0 and time_penalty(10) == 2 and time_penalty(95) == 18
    assert time_bonus(29.9) == 0 and time_bonus(100) == 7000
    rules = Rules(scoring=TIMED)
    assert game_score(rules, 100, 60, won=False) == 88
    assert game_score(rules, 100, 100, won=True) == 80 + 7000
    assert game_score(rules, 10, 600, won=False) == 0
    assert game_score(Rules(scoring=STANDARD), 100, 600, won=True) == 100


def test_timed_game_uses_the_callers_clock() -> None:
    game = game_at(table(["kd QS", "KH", "KS"], rules=Rules(scoring=TIMED)))
    game.play("1f")
    game.elapsed = 20
    assert game.score() == 15 - 4
    assert game.score(elapsed=0) == 15


def test_vegas() -> None:
    game = Game(Deal.from_number(7), Rules.preset("vegas-3"))
    assert game.score() == -52
    rules = Rules(scoring=VEGAS, empty_column=EmptyColumn.ANY)
    game = game_at(table(["TS", "kh qh jh TH", "ks qs JS"], rules=rules))
    game.play("1f")  # TS home (spades 9 was home)
    assert game.score() == -52 + 5
    game.play("fs1")
    assert game.score() == -52
    assert vegas_bankroll(-52, 13 * 5 - 52) == -39


def test_no_scoring_stays_zero() -> None:
    game = game_at(table(["kd QS", "KH", "KS"], rules=Rules(scoring=Scoring.NONE)))
    game.play("1f")
    assert game.score() == 0


def test_undo_restores_the_score() -> None:
    game = game_at(table(["kd QS", "KH", "KS"], rules=Rules(scoring=STANDARD)))
    game.play(Move(Pile.T1, Pile.FS, 1))
    game.undo()
    assert game.score() == 0
