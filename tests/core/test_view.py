"""The player's view: it holds what the player has seen, and nothing else."""

from __future__ import annotations

import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bonanza.core import Deal, Game, Position, Rules
from bonanza.core.view import PlayerView, visible_cards
from bonanza.session import Session
from bonanza.solver.fair import sample_layout
from tests.core.hidden import shuffle_hidden
from tests.core.strategies import games


@settings(max_examples=200, deadline=None)
@given(games(), st.randoms(use_true_random=False))
def test_the_view_is_blind_to_hidden_cards(game: Game, chooser: random.Random) -> None:
    position = game.position
    assume(not position.rules.thoughtful)  # (there, every card is seen)
    view = PlayerView.of(position)
    twin = shuffle_hidden(position, chooser)
    assert PlayerView.of(twin) == view
    assert PlayerView.of(twin).key() == view.key()
    # Every card the view places is one the player sees (or the last one left).
    placed = {card for column in view.tableau for card in column if card is not None}
    placed |= {card for card in view.stock if card is not None}
    extra = placed - visible_cards(position)
    assert not extra or (len(extra) == 1 and view.unknown_places == 0)
    assert len(view.unseen) == view.unknown_places


@settings(max_examples=100, deadline=None)
@given(games(), st.randoms(use_true_random=False))
def test_every_sample_fits_the_view(game: Game, chooser: random.Random) -> None:
    view = PlayerView.of(game.position)
    sample = sample_layout(view, chooser)
    assert PlayerView.of(sample) == view
    assert sample.legal_moves() == game.position.legal_moves()
    cards = [*(c for column in sample.tableau for c in column), *sample.stock, *sample.waste]
    home = sum(sample.foundations)
    assert len(cards) + home == 52 and len(set(cards)) == len(cards)


def test_the_last_unseen_card_is_known_by_elimination() -> None:
    position = Position.initial(Deal.from_number(3), Rules(thoughtful=False))
    # Turn every card but one face up by hand: the last one follows.
    position.down = [0, 0, 0, 0, 0, 0, 1]
    position.recycles = 1
    view = PlayerView.of(position)
    assert view.unknown_places == 0 and view.is_known()
    assert view.tableau[6][0] == position.tableau[6][0]


def test_a_card_seen_before_an_undo_stays_known() -> None:
    session = Session.new(Deal.from_number(7), Rules(), 0.0)
    before = session.view()
    move = next(m for m in session.position.legal_moves() if m.source.is_tableau
                and len(session.position.tableau[m.source]) > 1)
    session.play(move, 1.0)
    turned = session.position.tableau[move.source][-1]
    session.undo(2.0)
    after = session.view()
    assert before.tableau[move.source][-2] is None
    assert after.tableau[move.source][-2] == turned
    assert after.unknown_places == before.unknown_places - 1


def test_the_view_remembers_the_positions_played() -> None:
    session = Session.new(Deal.from_number(7), Rules(), 0.0)
    session.draw(1.0)
    assert len(session.view().earlier) == 1
    assert session.view().is_earlier(Game(Deal.from_number(7), Rules()).position)
