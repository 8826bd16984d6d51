"""The solver's "still winnable?" and review, checked against the solver and the engine."""

from __future__ import annotations

import random
from functools import cache

import pytest

from bonanza.core import Deal, Game, Move, Position, Rules
from bonanza.solver import solve
from bonanza.solver.review import line_words, review, still_winnable

ONE_PASS = Rules.preset("vegas-1")
"""Draw 1, one pass: a deal is easily lost by drawing past the cards it needs."""
HARD_DEAL = 4107606920159746969
"""Among the slowest deals for the solver (over a second in draw 1)."""
SOLVE_SECONDS = 5.0
"""The tests' own checks of a verdict: far more than a review's solves take."""
REVIEW_LIMITS = {"time_limit": SOLVE_SECONDS, "total_limit": 10 * SOLVE_SECONDS}
"""Generous limits for the reviews whose finding is checked: the defaults fit a
server's deadline, and a loaded machine or a sanitizer build may need more."""
DRAW_SHARE = 0.7
"""How often the playout draws when it can: mostly, to run past needed cards."""
PLAYOUT_MOVES = 40


def solved(position: Position) -> bool:
    result = solve(position, time_limit=SOLVE_SECONDS)
    assert result.result != "unknown"
    return result.solved


@cache
def lost_game() -> Game:
    """A one-pass game whose deal can be won but whose last position cannot:
    found by seeded playouts that mostly draw."""
    for number in range(50):
        game = Game(Deal.from_number(number), ONE_PASS)
        if not solved(game.position):
            continue
        rng = random.Random(number)
        for _ in range(PLAYOUT_MOVES):
            legal = game.position.legal_moves()
            if not legal:
                break
            draws = [move for move in legal if move.is_draw]
            game.play(draws[0] if draws and rng.random() < DRAW_SHARE else rng.choice(legal))
        if not solved(game.position):
            return game
    raise LookupError("no playout of deals 0-49 loses a winnable deal")


def wins(position: Position, line: tuple[Move, ...]) -> bool:
    """Whether ``line`` replays from ``position`` through the engine to a win."""
    board = position.copy()
    for move in line:
        assert move in board.legal_moves()
        board.play(move)
    return board.is_won()


def test_still_winnable_says_winnable_lost_or_unknown() -> None:
    deal = Position.initial(Deal.from_number(0), Rules())
    assert still_winnable(deal) == "winnable"
    assert still_winnable(lost_game().position) == "lost"
    hard = Position.initial(Deal.from_number(HARD_DEAL), Rules())
    assert still_winnable(hard, time_limit=0.001) == "unknown"


def test_the_review_finds_the_move_that_lost_the_deal() -> None:
    game = lost_game()
    positions, moves = game.positions, game.history
    found = review(positions, moves, **REVIEW_LIMITS)
    assert found.finding == "lost_at" and found.index is not None
    index = found.index
    assert found.critical == moves[index] and found.move_number == index + 1
    assert solved(positions[index]) and not solved(positions[index + 1])
    # The first such move along the game, found by solving every position in turn.
    first = next(i for i in range(len(moves)) if not solved(positions[i + 1]))
    assert index == first
    assert found.solves <= 2 + len(moves).bit_length()  # a binary search, not a scan
    assert wins(positions[index], found.line)
    assert f"move {index + 1}" in found.text


def test_the_winning_line_has_no_detours_and_has_words() -> None:
    game = lost_game()
    found = review(game.positions, game.history, **REVIEW_LIMITS)
    assert found.index is not None
    start = game.positions[found.index]
    board, keys = start.copy(), {start.to_text()}
    for move in found.line:
        board.play(move)
        assert board.to_text() not in keys  # no position twice
        keys.add(board.to_text())
    words = line_words(start, found.line)
    assert len(words) == len(found.line) and all(words)


def test_a_game_left_while_winnable_gets_a_line_from_where_it_stopped() -> None:
    game = Game(Deal.from_number(0), Rules())
    game.play("sw")
    found = review(game.positions, game.history, **REVIEW_LIMITS)
    assert found.finding == "still_winnable" and found.critical is None
    assert found.index == 1 and wins(game.position, found.line)


def test_a_deal_that_never_could_be_won_says_so() -> None:
    game = Game(Deal.from_number(3), Rules(draw=3, passes=1))  # proven lost from the deal
    game.play("sw")
    found = review(game.positions, game.history, **REVIEW_LIMITS)
    assert found.finding == "never_winnable" and found.critical is None and not found.line


def test_the_review_says_unknown_when_its_time_runs_out() -> None:
    game = Game(Deal.from_number(HARD_DEAL), Rules())
    game.play("sw")
    found = review(game.positions, game.history, time_limit=0.001)
    assert found.finding == "unknown" and found.critical is None and not found.line
    assert "could not decide" in found.text
    spent = review(lost_game().positions, lost_game().history, total_limit=1e-9)
    assert spent.finding == "unknown" and spent.solves == 0


def test_positions_and_moves_must_match() -> None:
    game = lost_game()
    with pytest.raises(ValueError, match="positions"):
        review(game.positions[:-1], game.history)
