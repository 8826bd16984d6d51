"""Invariants over random play in Klondike's relatives (docs/variants.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bonanza.core import Deal, Game, Position, Rules, format_move, parse_move
from bonanza.core.deal import MAX_DEAL_NUMBER
from bonanza.core.packed import pack, unpack
from bonanza.core.view import PlayerView, visible_cards
from tests.core.naive import legal_moves as naive_moves
from tests.core.strategies import (
    VARIANTS,
    deal_for,
    play_checked,
    undo_checked,
    variant_rules,
)


def kinds_everywhere(position: Position) -> list[int]:
    """How many of each card (by rank and suit) are on the table or home."""
    counts = [0] * 52
    for card in [c for column in position.tableau for c in column] + position.stock:
        counts[card % 52] += 1
    for card in position.waste:
        counts[card % 52] += 1
    for index, home in enumerate(position.foundations):
        for rank in range(home):
            counts[index % 4 * 13 + rank] += 1
    return counts


def check(position: Position) -> None:
    rules = position.rules
    on_table = [c for column in position.tableau for c in column] + position.stock
    on_table += position.waste
    assert len(set(on_table)) == len(on_table), "twins are distinct cards"
    assert set(on_table) <= set(rules.cards)
    assert set(on_table).isdisjoint(position.home_cards())
    assert len(on_table) + len(position.home_cards()) == rules.card_count, "cards conserved"
    assert kinds_everywhere(position) == [rules.decks] * 52, "each card once per deck"
    assert len(position.tableau) == rules.columns
    assert len(position.foundations) == rules.foundations
    for column, down in zip(position.tableau, position.down, strict=True):
        assert 0 <= down < len(column) or down == 0 == len(column), "columns end face up"
    generated = position.legal_moves()
    assert len(set(generated)) == len(generated), "no move twice"
    assert set(generated) == naive_moves(position), "generated moves are exactly the legal ones"
    view = PlayerView.of(position)
    assert set(view.legal_moves()) == set(generated), "moves never depend on hidden cards"
    assert visible_cards(position) <= set(rules.cards)


def check_notation(position: Position) -> None:
    text = position.to_text()
    again = Position.from_text(text, position.rules)
    assert again.to_text() == text
    assert kinds_everywhere(again) == kinds_everywhere(position)
    assert unpack(pack(position), position.rules) == position
    for move in position.legal_moves():
        assert parse_move(format_move(move), position) == move, format_move(move)


def check_every_tenth(position: Position, at: int) -> None:
    check(position)
    if at % 10 == 0:
        check_notation(position)


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=15, deadline=None)
@given(data=st.data(), number=st.integers(0, MAX_DEAL_NUMBER),
       choices=st.lists(st.integers(0, 1000), max_size=150))
def test_random_play(name: str, data: st.DataObject, number: int, choices: list[int]) -> None:
    rules = data.draw(variant_rules((name,)))
    deal = deal_for(rules, number)
    game = Game(deal, rules)
    snapshots = play_checked(game, choices, check_every_tenth)
    check_notation(game.position)
    saved = Game.from_json(game.to_json())
    assert saved.position == game.position and saved.history == game.history
    assert Game.from_text(game.to_text()).position == game.position
    undo_checked(game, snapshots)
    assert game.position == Position.initial(deal, rules)


@settings(max_examples=30, deadline=None)
@given(variant_rules(), st.integers(0, MAX_DEAL_NUMBER))
def test_every_deal_form_converts_exactly(rules: Rules, number: int) -> None:
    deal = deal_for(rules, number)
    assert len(deal.cards) == rules.card_count
    assert Deal.parse(str(number), rules.decks) == deal
    assert Deal.parse(deal.code) == deal
    assert Deal.parse(deal.listing) == deal
    assert Deal.from_listing(deal.listing).listing == deal.listing
    assert eval(repr(deal)) == deal
