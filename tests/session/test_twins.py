"""Fair means fair with two decks: what the player has seen follows the cards, not
their names, when the engine renames a hidden twin (``bonanza.session.twins``).

The differential test: play a Double Klondike game, find the deal's cards that
were never shown (twins of cards gone home included), deal them again in
another order, replay the same moves, and ask for the player's view of both
games. A player cannot tell the two games apart, so the views must be the same
card for card (twins look alike: cards are compared by face).
"""

from __future__ import annotations

import random

import pytest

from bonanza.core import Deal, Move, Position, Rules
from bonanza.core.cards import DECK_SIZE, twinned
from bonanza.core.moves import COLUMN_INDEX, Pile
from bonanza.core.view import PlayerView
from bonanza.session import Session
from bonanza.session.autofinish import places_every_card
from bonanza.session.twins import renamed_twin

GAMES = 24
"""Random games per rule set."""
MOVES = 120
"""Moves per random game at most."""
HOME_FIRST = 0.7
"""How often a random game sends a card home when it can (so twins get renamed)."""
MIN_RENAMES = 40
"""Renames of a hidden twin the games must make, for the test to mean anything."""

Places = dict[str, list[list[int]]]
"""Where each card of the deal is: the deal index of each card, pile by pile."""


def deal_places(position: Position) -> Places:
    """The opening position's places, each card labelled by its id at the deal
    (unique then, and the same as in the deal's listing)."""
    return {
        "tableau": [list(map(int, column)) for column in position.tableau],
        "stock": [list(map(int, position.stock))],
        "waste": [list(map(int, position.waste))],
        "foundations": [[] for _ in position.foundations],
    }


def follow_move(places: Places, move: Move, before: Position) -> None:
    """Move the labels as ``move`` moves the cards (pile by pile, as ``Position.apply``)."""
    source, dest, count = move
    stock, waste = places["stock"][0], places["waste"][0]
    if dest == Pile.STOCK:
        places["stock"][0] = list(reversed(waste))
        places["waste"][0] = []
        return
    if source == Pile.STOCK:
        for _ in range(count):
            waste.append(stock.pop())
        return
    index = COLUMN_INDEX[source]
    if index >= 0:
        column = places["tableau"][index]
        cards = column[-count:]
        del column[-count:]
    elif source == Pile.WASTE:
        cards = [waste.pop()]
    else:
        cards = [places["foundations"][source.foundation_index].pop()]
    index = COLUMN_INDEX[dest]
    if index >= 0:
        places["tableau"][index].extend(cards)
    else:
        places["foundations"][dest.foundation_index].extend(cards)


def shown_labels(places: Places, position: Position) -> set[int]:
    """The labels of the cards the player sees in ``position``."""
    shown = {label for pile in places["foundations"] for label in pile}
    shown.update(places["waste"][0])
    for column, down in zip(places["tableau"], position.down, strict=True):
        shown.update(column[down:])
    if position.recycles:
        shown.update(places["stock"][0])
    return shown


def faces_match(places: Places, position: Position, deal: Deal) -> bool:
    """Whether the labels sit where the engine has cards of the same face."""
    face = {int(card): int(card) % DECK_SIZE for card in deal.cards}
    columns = zip(places["tableau"], position.tableau, strict=True)
    return all(
        [face[label] for label in labels] == [int(card) % DECK_SIZE for card in cards]
        for labels, cards in [*columns, (places["stock"][0], position.stock),
                              (places["waste"][0], position.waste)]
    )  # fmt: skip


def random_game(deal: Deal, rules: Rules, chooser: random.Random) -> Session:
    session = Session.new(deal, rules, 0.0)
    session.set_safe_home(False)
    for step in range(MOVES):
        moves = session.position.legal_moves()
        if session.is_over or not moves:
            break
        home = [move for move in moves if move.dest.is_foundation]
        pool = home if home and chooser.random() < HOME_FIRST else moves
        session.play(chooser.choice(pool), float(step))
    return session


def faces(view: PlayerView) -> tuple[object, ...]:
    """The view with every card as its face (twins look alike)."""

    def face(cards: tuple[object, ...]) -> tuple[object, ...]:
        return tuple(None if card is None else int(card) % DECK_SIZE for card in cards)  # type: ignore[call-overload]

    return (tuple(map(face, view.tableau)), view.down, face(view.stock), face(view.waste),
            view.foundations, view.recycles)  # fmt: skip


@pytest.mark.parametrize("game", ["double-klondike", "double-klondike-3"])
def test_a_player_cannot_tell_games_apart_whose_unseen_cards_differ(game: str) -> None:
    rules = Rules.preset(game)
    chooser = random.Random(game)
    renames = 0
    for number in range(GAMES):
        deal = Deal.from_number(chooser.getrandbits(64), 2)
        session = random_game(deal, rules, chooser)
        positions, history = session.game.positions, session.game.history
        places = deal_places(positions[0])
        shown = shown_labels(places, positions[0])
        for before, move, after in zip(positions[:-1], history, positions[1:], strict=True):
            renames += renamed_twin(move, before, after) is not None
            follow_move(places, move, before)
            assert faces_match(places, after, deal)
            shown |= shown_labels(places, after)
        # Deal the never-shown cards again in another order, the rest as they were.
        hidden = [index for index, card in enumerate(deal.cards) if int(card) not in shown]
        shuffled = [deal.cards[index] for index in hidden]
        chooser.shuffle(shuffled)
        cards = list(deal.cards)
        for index, card in zip(hidden, shuffled, strict=True):
            cards[index] = card
        other = Session.new(Deal(twinned(cards)), rules, 0.0)
        other.set_safe_home(False)
        for step, move in enumerate(history):
            other.play(move, float(step))
        assert faces(session.view()) == faces(other.view()), f"game {number} of {game}"
        assert places_every_card(session.position, session.seen) == places_every_card(
            other.position, other.seen
        )
    assert renames >= MIN_RENAMES


def test_the_reported_deal_no_longer_places_the_never_drawn_twin() -> None:
    """Issue 31: after ``2f``, the view placed the never-drawn second A♠ in the stock."""
    session = Session.new(
        Deal.from_number(15921556852572072307, 2), Rules.preset("double-klondike-3"), 0
    )
    session.play("2f", 1)
    view = session.view()
    assert all(card is None for card in view.stock)
    for action in (session.undo, session.redo, session.restart):
        action(2)
        assert all(card is None for card in session.view().stock)
