"""``Position.is_legal`` and ``has_moves`` answer without making every move: they
must agree with ``legal_moves`` for every move, in every position and rule set."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bonanza.core import Deal, IllegalMoveError, Move, Pile, Position, Rules
from bonanza.core.moves import ALL_PILES
from bonanza.core.rules import ALL_PRESETS
from tests.core.strategies import deals, rules, variant_rules


def counts_to_try(position: Position) -> list[int]:
    """Every count a move could take here, and some that none can."""
    longest = max(len(column) for column in position.tableau)
    special = {len(position.waste), len(position.stock), len(position.tableau)}
    special |= {position.rules.draw, 2 * len(position.waste) + 1}
    return sorted({-1, 0, *range(1, longest + 2), *special})


def check_agrees(position: Position) -> None:
    legal = position.legal_moves()
    assert position.has_moves() == bool(legal)
    for count in counts_to_try(position):
        for source in ALL_PILES:
            for dest in ALL_PILES:
                move = Move(source, dest, count)
                assert position.is_legal(move) == (move in legal), (move, position)
    assert position.legal_moves() == legal, "asking changes nothing"


def played(position: Position, seed: int, moves: int) -> list[Position]:
    """``position`` and each position after ``moves`` seeded random moves."""
    chooser = random.Random(seed)
    seen = [position.copy()]
    for _ in range(moves):
        legal = position.legal_moves()
        if not legal:
            break
        position.play(chooser.choice(legal))
        seen.append(position.copy())
    return seen


@pytest.mark.parametrize("name", sorted(ALL_PRESETS))
def test_is_legal_and_has_moves_agree_with_legal_moves_over_random_play(name: str) -> None:
    rules_set = Rules.preset(name)
    for seed in range(3):
        deal = Deal.from_number(seed * 7919 + 11, rules_set.decks)
        for position in played(Position.initial(deal, rules_set), seed, 150)[::3]:
            check_agrees(position)


@settings(max_examples=40, deadline=None)
@given(st.one_of(rules, variant_rules()), st.integers(0, 2**32), st.integers(0, 300))
def test_is_legal_agrees_for_any_rules(rules_set: Rules, seed: int, moves: int) -> None:
    deal = Deal.from_number(seed, rules_set.decks)
    check_agrees(played(Position.initial(deal, rules_set), seed, moves)[-1])


@given(deals)
def test_nothing_is_legal_once_won(deal: Deal) -> None:
    for name in ("klondike", "double-klondike"):
        rules_set = Rules.preset(name)
        won = Position(
            rules_set, [[] for _ in range(rules_set.columns)], [0] * rules_set.columns,
            [], [], [13] * rules_set.foundations,
        )  # fmt: skip
        assert won.is_won() and not won.has_moves() and won.legal_moves() == []
        assert not any(
            won.is_legal(Move(Pile.FS, dest, 1)) for dest in ALL_PILES
        ), "not even a recall"


def test_a_legal_list_is_the_callers_own() -> None:
    position = Position.initial(Deal.from_number(1), Rules())
    legal = position.legal_moves()
    legal.clear()
    assert position.legal_moves() and position.has_moves()


def test_play_still_refuses_an_illegal_move() -> None:
    position = Position.initial(Deal.from_number(1), Rules())
    before = position.copy()
    with pytest.raises(IllegalMoveError):
        position.play(Move(Pile.WASTE, Pile.T1, 1))  # the waste is empty
    with pytest.raises(IllegalMoveError):
        position.play(Move(Pile.STOCK, Pile.WASTE, 3))  # draw 1 turns one card
    assert position == before
