"""``messages.illegal``: why a move cannot be played, in words naming only seen cards."""

from __future__ import annotations

from bonanza.core import Deal, Move, Pile, Position, Rules
from bonanza.core.cards import Card
from bonanza.core.rules import EmptyColumn
from bonanza.session import messages


def deal_7(rules: Rules | None = None) -> Position:
    # 4D / .JH / ..TH / ...7H / ....TC / .....TS / ......AC, stock from 9C
    return Position.initial(Deal.from_number(7), rules or Rules())


def test_a_card_short_of_its_foundation_names_the_card_missing() -> None:
    words = messages.illegal(Move(Pile.T5, Pile.FC, 1), deal_7())
    assert words == (
        "Ten of clubs cannot go to the clubs foundation: the nine of clubs is not there yet"
    )


def test_a_card_on_a_column_names_what_would_fit() -> None:
    words = messages.illegal(Move(Pile.T1, Pile.T2, 1), deal_7())
    assert words == (
        "Four of diamonds cannot go to column 2: only a black ten goes on the jack of hearts"
    )
    on_ace = messages.illegal(Move(Pile.T3, Pile.T7, 1), deal_7())
    assert on_ace.endswith("nothing goes on the ace of clubs")


def test_a_foundation_of_another_suit() -> None:
    words = messages.illegal(Move(Pile.T5, Pile.FH, 1), deal_7())
    assert words == "Ten of clubs cannot go to the hearts foundation: only hearts go there"


def test_an_empty_column_under_king_rules() -> None:
    position = deal_7()
    position.tableau[1] = []
    position.down[1] = 0
    words = messages.illegal(Move(Pile.T1, Pile.T2, 1), position)
    assert words.endswith("only a king may fill an empty column")
    anything = deal_7(Rules(empty_column=EmptyColumn.ANY))
    anything.tableau[1], anything.down[1] = [], 0
    assert anything.is_legal(Move(Pile.T1, Pile.T2, 1))


def test_a_hidden_card_is_never_named() -> None:
    position = deal_7()
    words = messages.illegal(Move(Pile.T4, Pile.T7, 3), position)
    assert words == "Column 4 has only 1 face-up card: 3 cannot move"
    hidden = position.tableau[3][:-1]
    assert not any(Card(card).name in words.lower() for card in hidden)


def test_rules_on_the_move_itself_come_first() -> None:
    whole_runs = deal_7(Rules(partial_runs=False))
    # A one-card column moves whole; the refusal is the card's fit.
    assert "only a black ten" in messages.illegal(Move(Pile.T1, Pile.T2, 1), whole_runs)
    no_draw = messages.illegal(Move(Pile.WASTE, Pile.STOCK, 1), deal_7())
    assert no_draw == "The waste cannot be turned over: the stock is not empty"
