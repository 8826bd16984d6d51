"""Safe moves home: the rule, with and without recall, and where a card may go from."""

from __future__ import annotations

import random

from bonanza.core import Card, Deal, Pile, Position, Rules
from bonanza.core.safety import never_needed, safe_move_home

FIVE_OF_HEARTS = Card.parse("5H")
FOUR_OF_CLUBS_OUT = (3, 3, 4, 4)  # C D H S: the 4♣ is still out
BLACK_FOURS_HOME = (4, 2, 4, 4)  # both black 4s home; diamonds only to the 2


def test_aces_and_twos_are_always_safe() -> None:
    for card in (Card.parse("AS"), Card.parse("2D")):
        assert never_needed((0, 0, 0, 0), card, recall=True)


def test_a_red_five_waits_for_both_black_fours() -> None:
    assert not never_needed(FOUR_OF_CLUBS_OUT, FIVE_OF_HEARTS, recall=False)
    assert never_needed(BLACK_FOURS_HOME, FIVE_OF_HEARTS, recall=False)


def test_under_recall_the_twin_suit_must_be_home_to_rank_minus_two() -> None:
    # A black 4 recalled onto the 5♥ could take the 3♦, which is not home.
    assert not never_needed(BLACK_FOURS_HOME, FIVE_OF_HEARTS, recall=True)
    assert never_needed((4, 3, 4, 4), FIVE_OF_HEARTS, recall=True)


def test_safe_moves_come_from_the_tableau_and_the_draw_one_waste_only() -> None:
    rng = random.Random(3)
    seen_waste = {1: 0, 3: 0}
    for number in range(60):
        draw = 1 + 2 * (number % 2)
        position = Position.initial(Deal.from_number(number), Rules(draw=draw))
        for _ in range(200):
            move = safe_move_home(position)
            if move is not None:
                card = position.moving_cards(move)[0]
                assert move.dest.is_foundation and move in position.legal_moves()
                assert never_needed(position.foundations, card, recall=True)
                assert move.source != Pile.WASTE or draw == 1
                seen_waste[draw] += move.source == Pile.WASTE
                assert safe_move_home(position, keep={card}) != move
            moves = position.legal_moves()
            if not moves:
                break
            position.apply(rng.choice(moves))
    assert seen_waste[1] > 0 and seen_waste[3] == 0
