"""The action numbering: one number per move, and back."""

from __future__ import annotations

import random

import pytest

from bonanza.core import Deal, Move, Pile, Position, Rules
from bonanza.rl.actions import (
    ACTION_COUNT,
    ActionError,
    action_of,
    legal_actions,
    move_of,
    numbering,
)

KLONDIKE_ACTIONS = 615


def all_moves() -> list[Move]:
    """Every move any position could have (draws counted once)."""
    piles = list(Pile)
    moves = [Move(Pile.STOCK, Pile.WASTE, 1), Move(Pile.WASTE, Pile.STOCK, 1)]
    for source in piles:
        for dest in piles:
            if Pile.STOCK in (source, dest) or source == dest:
                continue
            if source.is_foundation and dest.is_foundation:
                continue
            if dest == Pile.WASTE:
                continue
            if source.is_tableau and dest.is_tableau:
                moves += [Move(source, dest, n) for n in range(1, 14)]
            else:
                moves.append(Move(source, dest, 1))
    return moves


def test_every_move_has_its_own_number_and_every_number_is_used() -> None:
    numbers = [action_of(move) for move in all_moves()]
    assert len(set(numbers)) == len(numbers)
    assert sorted(numbers) == list(range(ACTION_COUNT))
    assert ACTION_COUNT == KLONDIKE_ACTIONS


def test_a_draw_has_one_number_whatever_it_turns() -> None:
    assert action_of(Move(Pile.STOCK, Pile.WASTE, 3)) == action_of(Move(Pile.STOCK, Pile.WASTE, 1))


@pytest.mark.parametrize("draw", [1, 3])
def test_numbers_round_trip_along_random_games(draw: int) -> None:
    chooser = random.Random(draw)
    for number in range(20):
        position = Position.initial(Deal.from_number(number), Rules(draw=draw))
        for _ in range(150):
            actions = legal_actions(position)
            if not actions:
                break
            assert list(actions) == sorted(actions)
            for action, move in actions.items():
                assert move_of(action, position) == move
            position.apply(chooser.choice(list(actions.values())))


def test_an_illegal_or_unknown_number_is_refused_by_name() -> None:
    position = Position.initial(Deal.from_number(1), Rules())
    with pytest.raises(ActionError, match="not a number from 0 to 614"):
        move_of(ACTION_COUNT, position)
    with pytest.raises(ActionError, match="not legal"):
        move_of(action_of(Move(Pile.FC, Pile.T1, 1)), position)


@pytest.mark.parametrize("rules", [Rules(), Rules.preset("easthaven"), Rules.preset("westcliff")])
def test_describe_refuses_a_number_that_is_no_action(rules: Rules) -> None:
    table = numbering(rules)
    assert all(table.describe(action) for action in range(table.count))
    for bad in (table.count, 9999, -1):
        with pytest.raises(ActionError, match=f"not a number from 0 to {table.count - 1}"):
            table.describe(bad)
    for not_whole in (1.5, True):
        with pytest.raises(ActionError, match="not a whole number"):
            table.describe(not_whole)  # type: ignore[arg-type]
