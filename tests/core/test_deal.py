from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bonanza.core import CARDS, Deal, DealError
from bonanza.core.deal import MAX_DEAL_NUMBER, _next, last_face, shuffle, splitmix64

# Deal numbers are a promise: these layouts never change.
DEAL_0 = (
    "8S JH 9C 2S 2D QD 6S TC 3D AC JC 7C 9H 8C QS KH 5H 2C 3H 5C AH 6C 4S TD 5D 8H 8D AD "
    "QH TS QC JD 3S 4D 2H 9D 3C KD AS 7S 9S 7D JS 6H KS 4C 7H 5S 6D 4H KC TH"
)
DEAL_7 = (
    "4D 5C JH 3S 4H TH KS 6D 4S 7H 9D 2C KD JS TC 2H 7C 4C 7S 2S TS 9S 3C QH 2D 8D 6S AC "
    "9C JD 6H 3D 3H 8H AH KH 6C AS 7D 5H 9H 5S QS AD KC TD 8C JC 5D 8S QD QC"
)


def test_splitmix64_matches_the_reference_outputs() -> None:
    state = splitmix64(1234567)
    assert [_next(state) for _ in range(3)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
    ]


def test_deal_numbers_give_the_same_layout_forever() -> None:
    assert Deal.from_number(0).listing == DEAL_0
    assert Deal.from_number(7).listing == DEAL_7


def test_deal_numbers_give_different_layouts() -> None:
    assert len({Deal.from_number(n).cards for n in range(200)}) == 200


def test_layout_of_a_listing() -> None:
    deal = Deal.from_listing(DEAL_7)
    assert [len(column) for column in deal.columns] == [1, 2, 3, 4, 5, 6, 7]
    assert str(deal.columns[1][1]) == "JH"
    assert str(deal.stock[0]) == "9C" and len(deal.stock) == 24


@given(st.integers(0, MAX_DEAL_NUMBER))
def test_every_form_converts_exactly(number: int) -> None:
    deal = Deal.from_number(number)
    assert Deal.parse(str(number)) == deal
    assert Deal.parse(deal.code) == deal
    assert Deal.parse(deal.listing) == deal
    assert Deal.from_code(Deal.from_listing(deal.listing).code).listing == deal.listing
    assert eval(repr(deal)) == deal


@given(st.randoms(use_true_random=False))
def test_any_permutation_has_a_code(chooser: random.Random) -> None:
    cards = list(CARDS)
    chooser.shuffle(cards)
    deal = Deal(cards)
    assert len(deal.code) == 39 and deal.code.isalnum()
    assert Deal.from_code(deal.code) == deal


def test_extreme_permutations_encode() -> None:
    first, last = Deal(list(CARDS)), Deal(list(reversed(CARDS)))
    assert Deal.from_code(first.code) == first and Deal.from_code(last.code) == last
    assert first.code.startswith("0" * 30)


def test_a_typo_in_a_code_is_caught() -> None:
    code = Deal.from_number(7).code
    typo = code[:5] + ("A" if code[5] != "A" else "B") + code[6:]
    with pytest.raises(DealError, match="typo"):
        Deal.from_code(typo)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "not a deal"),
        ("-5", "not a deal"),
        (str(2**64), "out of range"),
        ("abc!", "not a deal"),
        ("0" * 38 + "!", "character"),
        ("z" * 39, "does not check out|out of range"),
        ("AS " * 52, "repeats AS"),
        (" ".join(str(c) for c in CARDS[:51]), "51 cards"),
        (DEAL_7.replace("QC", "XX"), "token 52, 'XX'"),
    ],
)
def test_bad_deal_ids_name_the_problem(text: str, problem: str) -> None:
    with pytest.raises(DealError, match=problem):
        Deal.parse(text)


def test_code_range_is_checked() -> None:
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    rank, body = math.factorial(52), []
    for _ in range(38):
        rank, digit = divmod(rank, 62)
        body.append(digits[digit])
    body.reverse()
    check = sum((i + 1) * digits.index(c) for i, c in enumerate(body)) % 62
    with pytest.raises(DealError, match="out of range"):
        Deal.from_code("".join(body) + digits[check])


@given(st.integers(min_value=0, max_value=MAX_DEAL_NUMBER), st.sampled_from([1, 2]))
def test_last_face_is_the_face_of_the_listing_s_last_card(number: int, decks: int) -> None:
    assert last_face(number, decks) == int(shuffle(number, decks)[-1]) % 52


def test_a_deal_is_a_value_that_nothing_can_change() -> None:
    """``Deal.from_number`` hands out kept deals: a change would reach every later one."""
    import copy
    import pickle

    deal = Deal.from_number(11)
    with pytest.raises(AttributeError):
        deal.cards = Deal.from_number(5).cards
    with pytest.raises(AttributeError):
        deal.number = 12
    with pytest.raises(AttributeError):
        del deal.number
    assert Deal.from_number(11).cards == shuffle(11) and Deal.from_number(11).id == "11"
    for copied in (pickle.loads(pickle.dumps(deal)), copy.copy(deal), copy.deepcopy(deal)):
        assert copied == deal and hash(copied) == hash(deal) and copied.number == 11


class _Index:
    """A whole number that is no ``int``, as NumPy's integers are."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def test_a_deal_number_of_any_integer_type_is_read() -> None:
    assert Deal.from_number(_Index(7)) == Deal.from_number(7)  # type: ignore[arg-type]
    assert Deal.from_number(_Index(7)).id == "7"  # type: ignore[arg-type]
    numpy = pytest.importorskip("numpy")
    assert Deal.from_number(numpy.uint64(MAX_DEAL_NUMBER)).number == MAX_DEAL_NUMBER
    assert Deal.from_number(numpy.int64(7), 2) == Deal.from_number(7, 2)


@pytest.mark.parametrize("number", [7.0, "7", True, None])
def test_a_deal_number_that_is_no_whole_number_is_refused(number: object) -> None:
    with pytest.raises(DealError, match="is not a whole number"):
        Deal.from_number(number)  # type: ignore[arg-type]
