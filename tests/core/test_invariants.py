"""Invariants over random play, for random rule sets and deals."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bonanza.core import Deal, Game, Position, Rules
from tests.core.naive import legal_moves as naive_moves
from tests.core.strategies import deals, play_checked, rules, undo_checked


def all_cards(position: Position) -> list[int]:
    cards: list[int] = [card for column in position.tableau for card in column]
    cards += position.stock + position.waste
    cards += [suit * 13 + rank for suit in range(4) for rank in range(position.foundations[suit])]
    return sorted(cards)


def check(position: Position) -> None:
    assert all_cards(position) == list(range(52)), "each card exactly once"
    for column, down in zip(position.tableau, position.down, strict=True):
        assert 0 <= down < len(column) or down == 0 == len(column), "columns end face up"
    generated = position.legal_moves()
    assert len(set(generated)) == len(generated), "no move twice"
    assert set(generated) == naive_moves(position), "generated moves are exactly the legal ones"


@settings(max_examples=60, deadline=None)
@given(deals, rules, st.lists(st.integers(0, 1000), max_size=150))
def test_random_play(deal: Deal, rule_set: Rules, choices: list[int]) -> None:
    game = Game(deal, rule_set)
    snapshots = play_checked(game, choices, lambda position, _: check(position))
    undo_checked(game, snapshots)
    assert game.position == Position.initial(deal, rule_set)
