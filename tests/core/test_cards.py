from __future__ import annotations

import pytest

from bonanza.core import CARDS, Card, CardSyntaxError, Rank, Suit


def test_every_card_round_trips_through_its_text() -> None:
    assert [Card.parse(str(card)) for card in CARDS] == list(CARDS)
    assert len({str(card) for card in CARDS}) == 52


def test_card_fields() -> None:
    card = Card.parse("7H")
    assert (card.rank, card.suit, card.is_red) == (Rank.SEVEN, Suit.HEARTS, True)
    assert card.symbol == card.face == "7♥"
    assert card.name == "seven of hearts"
    assert Card.parse("td") == Card.of(10, Suit.DIAMONDS)
    assert not Card.parse("KS").is_red and not Card.parse("AC").is_red


def test_repr_rebuilds_the_card() -> None:
    card = Card.parse("QS")
    assert eval(repr(card)) == card


@pytest.mark.parametrize("text", ["", "7", "1H", "7X", "10H", "AHS", " 7H"])
def test_malformed_card_names_the_input(text: str) -> None:
    with pytest.raises(CardSyntaxError, match=repr(text).replace("[", r"\[")):
        Card.parse(text)
    with pytest.raises(ValueError):
        Card.parse(text)


def test_a_ten_reads_10_in_words_and_t_in_grids() -> None:
    ten = Card.parse("TD")
    assert (ten.face, ten.symbol) == ("10♦", "T♦")
    assert [card.face for card in CARDS if card.suit is Suit.SPADES][9:] == [
        "10♠", "J♠", "Q♠", "K♠",
    ]


@pytest.mark.parametrize(("rank", "suit"), [(0, 0), (14, 0), (1, -1), (1, 4), (True, 0), (1.0, 0)])
def test_a_card_of_a_rank_or_suit_out_of_range_is_refused(rank: object, suit: object) -> None:
    with pytest.raises(CardSyntaxError):
        Card.of(rank, suit)  # type: ignore[arg-type]  # floats and bools on purpose


def test_card_of_gives_every_card_once() -> None:
    assert sorted(Card.of(rank, suit) for rank in range(1, 14) for suit in range(4)) == sorted(
        CARDS
    )
