"""Klondike's relatives: Double Klondike, Westcliff and Easthaven (docs/variants.md)."""

from __future__ import annotations

import dataclasses

import pytest

from bonanza.core import (
    PRESETS,
    VARIANT_PRESETS,
    Card,
    Deal,
    DealShape,
    EmptyColumn,
    Game,
    Move,
    Pile,
    Position,
    Rules,
    Scoring,
    StockMode,
    describe_move,
    format_move,
    parse_move,
)
from bonanza.core.cards import ALL_CARDS, CARDS, cards_of, twinned
from bonanza.core.errors import (
    DealError,
    IllegalMoveError,
    MoveSyntaxError,
    PositionSyntaxError,
    RulesError,
)
from bonanza.core.moves import FOUNDATIONS, TABLEAU
from bonanza.core.rules import ALL_PRESETS
from bonanza.core.safety import never_needed
from bonanza.core.scoring import initial_score

DOUBLE, DOUBLE_3 = Rules.preset("double-klondike"), Rules.preset("double-klondike-3")
WESTCLIFF, EASTHAVEN = Rules.preset("westcliff"), Rules.preset("easthaven")


# -- piles and cards -------------------------------------------------------------


def test_klondike_piles_keep_their_numbers() -> None:
    assert [int(p) for p in Pile] == list(range(13))  # iterating gives Klondike's 13
    assert len(Pile) == 13 and tuple(Pile(i) for i in range(7)) == TABLEAU
    assert FOUNDATIONS == (Pile.FC, Pile.FD, Pile.FH, Pile.FS)
    assert (Pile.T8, Pile.T9, Pile.T10) == (13, 14, 15)
    assert (Pile.FC2, Pile.FD2, Pile.FH2, Pile.FS2) == (16, 17, 18, 19)


def test_new_piles_know_what_they_are() -> None:
    assert [Pile.column(i) for i in range(10)][7:] == [Pile.T8, Pile.T9, Pile.T10]
    assert Pile.foundation(6) is Pile.FH2 and Pile.FH2.foundation_index == 6
    assert Pile.T10.is_tableau and not Pile.T10.is_foundation and Pile.T10.column_index == 9
    assert Pile.FS2.is_foundation and not Pile.FS2.is_tableau
    assert Pile.T10.label == "column 10" and Pile.FH2.label == "second hearts foundation"
    assert Pile.FH.label == "hearts foundation"


def test_second_deck_cards_are_twins() -> None:
    seven = Card.parse("7H")
    twin = seven.twin
    assert twin == seven + 52 and twin.twin == seven
    assert (str(twin), twin.rank, twin.suit, twin.is_red, twin.deck) == ("7H", 7, 2, True, 1)
    assert eval(repr(twin)) == twin
    assert len(CARDS) == 52 and len(ALL_CARDS) == 104 and cards_of(2) == ALL_CARDS


# -- rules -------------------------------------------------------------------------


def test_presets_of_the_relatives() -> None:
    assert (DOUBLE.decks, DOUBLE.columns, DOUBLE.foundations, DOUBLE.passes) == (2, 9, 8, None)
    assert DOUBLE_3.draw == 3 and DOUBLE.empty_column is EmptyColumn.KING and DOUBLE.recall
    assert (WESTCLIFF.columns, WESTCLIFF.deal_shape, WESTCLIFF.waste_start) == (
        10, DealShape.THREE_TWO_DOWN, 1)
    assert (WESTCLIFF.passes, WESTCLIFF.recall, WESTCLIFF.empty_column) == (
        1, False, EmptyColumn.ANY)
    assert (EASTHAVEN.columns, EASTHAVEN.stock_mode, EASTHAVEN.passes) == (
        7, StockMode.EVERY_COLUMN, 1)
    assert EASTHAVEN.empty_column is EmptyColumn.ANY
    assert [r.game for r in (Rules(), DOUBLE, DOUBLE_3, WESTCLIFF, EASTHAVEN)] == [
        "klondike", "double-klondike", "double-klondike", "westcliff", "easthaven"]


def test_other_packages_see_klondikes_presets_only() -> None:
    assert list(PRESETS) == ["klondike", "klondike-3", "vegas-1", "vegas-3", "thoughtful"]
    assert list(VARIANT_PRESETS) == [
        "double-klondike", "double-klondike-3", "westcliff", "easthaven"]
    assert all(rules.is_klondike for rules in PRESETS.values())
    assert not any(rules.is_klondike for rules in VARIANT_PRESETS.values())


def test_klondike_rule_forms_are_unchanged() -> None:
    assert Rules().to_dict() == {
        "draw": 1, "passes": None, "empty_column": "king", "recall": True,
        "partial_runs": True, "thoughtful": False, "scoring": "standard",
    }
    assert Rules().to_text() == (
        "draw=1 passes=unlimited empty=king recall=on runs=partial thoughtful=off "
        "scoring=standard"
    )
    assert repr(Rules(draw=3)) == "Rules(draw=3)"


@pytest.mark.parametrize("name", ["double-klondike", "double-klondike-3", "westcliff",
                                  "easthaven"])
def test_relatives_round_trip_through_every_form(name: str) -> None:
    rules = Rules.preset(name)
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_text(rules.to_text()) == rules
    assert Rules.from_text(name) == rules
    assert eval(repr(rules)) == rules
    assert str(rules).startswith(rules.title + ": ")  # "Double Klondike: draw 1, ..."
    assert rules.title in ("Double Klondike", "Westcliff", "Easthaven")


def test_a_custom_table_names_its_table_in_words() -> None:
    rules = dataclasses.replace(Rules.preset("westcliff"), columns=8)
    assert rules.title == "Custom table"
    assert str(rules).startswith("Custom table: 1 deck, 8 columns, 1 on the waste, draw 1")
    assert str(Rules.preset("klondike")) == (
        "draw 1, unlimited passes, king to empty, recall, standard scoring"
    )


def test_the_references_other_choices_are_options() -> None:
    jumbo = dataclasses.replace(DOUBLE, passes=2)  # Aisleriot's Jumbo: one redeal
    assert jumbo.recycles_allowed == 1
    kings = dataclasses.replace(EASTHAVEN, empty_column=EmptyColumn.KING)  # Aisleriot
    assert kings.stock_mode is StockMode.EVERY_COLUMN


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"decks": 3}, "decks must be 1 or 2"),
        ({"decks": True}, "decks must be a whole number"),
        ({"columns": 11}, "columns must be from 1 to 10"),
        ({"columns": 0}, "columns must be from 1 to 10"),
        ({"columns": 10}, "10 columns dealt as staircase take 55 cards"),
        ({"waste_start": -1}, "waste_start must not be negative"),
        ({"deal_shape": "three"}, "deal_shape must be a DealShape"),
        ({"stock_mode": "columns"}, "stock_mode must be a StockMode"),
        ({"stock_mode": StockMode.EVERY_COLUMN}, "passes must be 1"),
        ({"stock_mode": StockMode.EVERY_COLUMN, "passes": 1, "draw": 3}, "draw must be 1"),
        ({"stock_mode": StockMode.EVERY_COLUMN, "passes": 1, "waste_start": 1},
         "waste_start must be 0"),
    ],
)
def test_impossible_tables_are_refused_by_name(changes: dict[str, object], problem: str) -> None:
    with pytest.raises(RulesError, match=problem):
        Rules(**changes)  # type: ignore[arg-type]


def test_bad_table_fields_in_text_and_data() -> None:
    with pytest.raises(RulesError, match="deal=zigzag"):
        Rules.from_text("deal=zigzag")
    with pytest.raises(RulesError, match="stock_mode 'spiral' is not one of 'waste', 'columns'"):
        Rules.from_dict({"stock_mode": "spiral"})


# -- deals ---------------------------------------------------------------------------

DOUBLE_DEAL_0 = (
    "3D 8S JC 6C 4D 2H TC 7D AH 8D TD 6C AH KS JH KD 5D 9D 5S 9C 3H QH 5H JS QC TD 8C 3H JH "
    "2C AC 9C KS KH 4S 7H 5C 9H 6D 2D 2C 6S 3C KC AC QS JD 8H 4C 9H 5H 3D 6H QH 5C 6D 8C AD "
    "7C 7D 8D 6H TS 4S 8S QC 2D 7H 2S 2H 9D QS 5D KD 3S 4H 7C 4D JS 3S 7S 3C TC JD AS 2S JC "
    "KH QD 9S 4H 6S 4C AD 7S TH AS 8H TS 9S KC 5S QD TH"
)


def test_two_deck_deal_numbers_give_the_same_layout_forever() -> None:
    assert Deal.from_number(0, 2).listing == DOUBLE_DEAL_0


def test_two_deck_listing_code_and_number() -> None:
    deal = Deal.from_number(7, 2)
    assert deal.decks == 2 and len(deal.cards) == 104 and set(deal.cards) == set(ALL_CARDS)
    texts = deal.listing.split()
    assert len(texts) == 104 and all(texts.count(text) == 2 for text in texts)
    first = {text: texts.index(text) for text in texts}
    assert all((card < 52) == (first[str(card)] == at) for at, card in enumerate(deal.cards))
    assert len(deal.code) == 86 and deal.code.startswith("D") and deal.code.isalnum()
    assert Deal.parse(deal.code) == deal and Deal.from_listing(deal.listing) == deal
    assert Deal.parse("7", decks=2) == deal and repr(deal) == "Deal.from_number(7, decks=2)"


def test_one_deck_deals_are_unchanged_by_the_second() -> None:
    assert Deal.from_number(7) == Deal.parse("7") == Deal.parse("7", decks=1)
    assert len(Deal.from_number(7).code) == 39


def test_deal_size_mismatches_are_refused() -> None:
    with pytest.raises(DealError, match="has 52 cards, not 104"):
        Deal.parse(Deal.from_number(3).code, decks=2)
    with pytest.raises(DealError, match="double-klondike plays 104"):
        Game(Deal.from_number(3), DOUBLE)
    with pytest.raises(DealError, match="klondike plays 52"):
        Position.initial(Deal.from_number(3, 2), Rules())
    with pytest.raises(DealError, match="repeats 7H"):
        Deal.from_listing(DOUBLE_DEAL_0.replace("5C", "7H", 1))
    with pytest.raises(DealError, match="1 or 2 decks"):
        Deal.from_number(3, 3)
    typo = Deal.from_number(3, 2).code
    with pytest.raises(DealError, match="typo"):
        Deal.from_code(typo[:9] + ("A" if typo[9] != "A" else "B") + typo[10:])


# -- deal shapes ------------------------------------------------------------------


def test_double_klondike_deal() -> None:
    deal = Deal.from_number(11, 2)
    position = Position.initial(deal, DOUBLE)
    assert [len(c) for c in position.tableau] == list(range(1, 10))
    assert position.down == list(range(9))
    assert sum(map(len, position.tableau)) == 45 and len(position.stock) == 59
    assert position.foundations == [0] * 8 and position.waste == []
    assert position.stock[-1] == deal.cards[45]  # the next card drawn is the listing's 46th
    assert deal.columns == tuple(tuple(c) for c in position.tableau)


def test_westcliff_deal() -> None:
    deal = Deal.from_number(11)
    position = Position.initial(deal, WESTCLIFF)
    assert [len(c) for c in position.tableau] == [3] * 10 and position.down == [2] * 10
    assert position.waste == [deal.cards[30]] and len(position.stock) == 21
    assert position.stock[-1] == deal.cards[31]
    assert position.tableau[1] == list(deal.cards[3:6])


def test_easthaven_deal_and_its_stock_deals() -> None:
    deal = Deal.from_number(11)
    position = Position.initial(deal, EASTHAVEN)
    assert [len(c) for c in position.tableau] == [3] * 7 and position.down == [2] * 7
    assert len(position.stock) == 31 and position.waste == []
    dealt = []
    while position.stock:
        moves = [move for move in position.legal_moves() if move.source == Pile.STOCK]
        assert len(moves) == 1 and moves[0].dest == Pile.T1 and moves[0].is_deal
        assert format_move(moves[0]) == "st" and parse_move("st", position) == moves[0]
        assert describe_move(moves[0], position) == f"dealt {moves[0].count} cards onto the columns"
        before = [len(c) for c in position.tableau]
        position.apply(moves[0])
        dealt.append(moves[0].count)
        grew = [len(c) - n for c, n in zip(position.tableau, before, strict=True)]
        assert grew == [1] * moves[0].count + [0] * (7 - moves[0].count)
    assert dealt == [7, 7, 7, 7, 3]
    assert position.tableau[0][3:] == [deal.cards[21], deal.cards[28], deal.cards[35],
                                       deal.cards[42], deal.cards[49]]
    assert not any(move.is_recycle for move in position.legal_moves())


def test_a_stock_move_of_easthaven_typed_otherwise_is_told_st() -> None:
    position = Position.initial(Deal.from_number(11), EASTHAVEN)
    with pytest.raises(MoveSyntaxError, match=r"the stock is dealt onto every column \(st\)"):
        parse_move("s1", position)  # before: "only goes to the waste (sw) and back (ws)"
    klondike = Position.initial(Deal.from_number(11), Rules())
    with pytest.raises(MoveSyntaxError, match=r"waste \(sw\) and back \(ws\)"):
        parse_move("s1", klondike)


def table_of(rules: Rules, columns: list[str]) -> Position:
    """Columns from texts (lower case = face down, two-deck ids by first
    occurrence), every other card in the stock, nothing home."""
    tableau = twinned([Card.parse(token) for text in columns for token in text.split()])
    split, at = [], 0
    for text in columns:
        split.append(tableau[at : at + len(text.split())])
        at += len(text.split())
    down = [sum(t[1].islower() for t in text.split()) for text in columns]
    stock = [card for card in rules.cards if card not in tableau]
    return Position(rules, split, down, stock, [], [0] * rules.foundations)


def test_easthaven_moves_only_true_runs() -> None:
    # 8H lies on the deal's KC: only 8H 7S 6D is a run
    position = table_of(EASTHAVEN, ["", "", "", "", "", "", "kc 8H 7S 6D"])
    counts = {move.count for move in position.legal_moves() if move.source == Pile.T7}
    assert counts == {1, 2, 3}
    whole = Position.from_text(position.to_text(), dataclasses.replace(EASTHAVEN,
                                                                       partial_runs=False))
    runs = {m.count for m in whole.legal_moves() if m.source == Pile.T7 and m.dest.is_tableau}
    assert runs == {3}


def test_westcliff_cards_never_come_back() -> None:
    game = Game(Deal.from_number(1), WESTCLIFF)
    for _ in range(400):
        moves = game.position.legal_moves()
        assert not any(move.source.is_foundation for move in moves)
        home = [m for m in moves if m.dest.is_foundation]
        if not moves:
            break
        game.play(home[0] if home else moves[-1])
    with pytest.raises(IllegalMoveError, match="pass limit"):
        game.position.play(Move(Pile.WASTE, Pile.STOCK, max(1, len(game.position.waste))))


# -- two decks: foundations, notation, text -------------------------------------------

def test_an_ace_may_start_either_foundation_of_its_suit() -> None:
    position = table_of(DOUBLE, ["AC", "AC", "", "", "", "", "", "", ""])
    assert {m for m in position.legal_moves() if m.dest.is_foundation} == {
        Move(Pile.T1, Pile.FC, 1), Move(Pile.T1, Pile.FC2, 1),
        Move(Pile.T2, Pile.FC, 1), Move(Pile.T2, Pile.FC2, 1),
    }
    assert parse_move("1f", position) == Move(Pile.T1, Pile.FC, 1)
    assert parse_move("1fc2", position) == Move(Pile.T1, Pile.FC2, 1)
    assert format_move(Move(Pile.T1, Pile.FC2, 1)) == "1fc2"
    assert format_move(Move(Pile.T1, Pile.FC, 1)) == "1f"
    position.apply(Move(Pile.T1, Pile.FC, 1))
    assert parse_move("2f", position) == Move(Pile.T2, Pile.FC2, 1)  # the first that takes it


def test_a_rank_home_once_is_the_second_decks_card() -> None:
    position = table_of(DOUBLE, ["AC", "AC", "", "", "", "", "", "", ""])
    assert position.tableau[0] == [Card.parse("AC")]
    assert position.tableau[1] == [Card.parse("AC").twin]
    position.apply(Move(Pile.T1, Pile.FC, 1))  # the first ace goes: the twins swap ids
    assert position.tableau[1] == [Card.parse("AC")]
    assert position.home_cards() >= {Card.parse("AC").twin}
    assert position.card_at(Pile.FC) == Card.parse("AC").twin
    position.apply(Move(Pile.T2, Pile.FC2, 1))
    position.apply(Move(Pile.FC, Pile.T3, 1))  # both home: the first deck's comes off
    assert position.tableau[2] == [Card.parse("AC")]


def test_two_deck_piles_in_move_text() -> None:
    position = Position.initial(Deal.from_number(2, 2), DOUBLE)
    for text, reason in (("fc21", "second clubs foundation is empty"),
                         ("fh22", "second hearts foundation is empty"),
                         ("19", "does not go on"), ("91", "does not go on")):
        with pytest.raises(IllegalMoveError, match=reason):
            parse_move(text, position)
    with pytest.raises(MoveSyntaxError, match="columns 1 to 9"):
        parse_move("110", position)
    with pytest.raises(MoveSyntaxError, match="no second clubs foundation"):
        parse_move("1fc2", Position.initial(Deal.from_number(2), Rules()))
    with pytest.raises(MoveSyntaxError, match="st"):
        parse_move("st", position)
    with pytest.raises(IllegalMoveError, match="deals a card onto every column"):
        parse_move("sw", Position.initial(Deal.from_number(2), EASTHAVEN))


def test_two_deck_position_text() -> None:
    position = Position.initial(Deal.from_number(4, 2), DOUBLE)
    text = position.to_text()
    fields = text.split()
    assert len(fields[0].split("/")) == 9 and fields[3] == "--------"
    assert Position.from_text(text, DOUBLE) == position
    with pytest.raises(PositionSyntaxError, match="9 columns, not 7"):
        Position.from_text(text, Rules())  # 9 columns are not Klondike's 7
    with pytest.raises(PositionSyntaxError, match="8 ranks"):
        Position.from_text(text.replace("--------", "----"), DOUBLE)
    with pytest.raises(PositionSyntaxError, match="each card twice"):
        Position.from_text(text.replace("--------", "A-------"), DOUBLE)


# -- scoring, safety, rendering, saving ---------------------------------------------


def test_vegas_stakes_a_dollar_a_card() -> None:
    assert initial_score(dataclasses.replace(DOUBLE, scoring=Scoring.VEGAS)) == -104
    assert initial_score(dataclasses.replace(WESTCLIFF, scoring=Scoring.VEGAS)) == -52


def test_safe_home_with_two_decks() -> None:
    five_of_hearts = Card.parse("5H")
    black_fours_home = (4, 0, 0, 4, 4, 0, 0, 4)
    assert never_needed(black_fours_home, five_of_hearts, recall=False)
    assert never_needed(black_fours_home, five_of_hearts.twin, recall=False)
    assert not never_needed((4, 0, 0, 4, 3, 0, 0, 4), five_of_hearts, recall=False)
    assert not never_needed((13,) * 8, five_of_hearts, recall=True)  # not proven: never
    assert never_needed((0,) * 8, Card.parse("2D"), recall=True)


@pytest.mark.parametrize("name", ["double-klondike", "westcliff", "easthaven"])
def test_render_shows_every_column_and_foundation(name: str) -> None:
    rules = Rules.preset(name)
    board = str(Position.initial(Deal.from_number(5, rules.decks), rules))
    header, _, numbers = board.splitlines()[:3]
    assert numbers.split() == [str(n) for n in range(1, rules.columns + 1)]
    assert header.count("--") >= rules.foundations


@pytest.mark.parametrize("name", ["double-klondike-3", "westcliff", "easthaven"])
def test_saved_games_reload(name: str) -> None:
    rules = Rules.preset(name)
    game = Game(Deal.from_number(9, rules.decks), rules)
    for _ in range(60):
        game.play(game.position.legal_moves()[0])
    game.undo()
    for again in (Game.from_json(game.to_json()), Game.from_text(game.to_text())):
        assert again.position == game.position and again.redo_moves == game.redo_moves
        assert again.deal == game.deal and again.rules == rules


@pytest.mark.parametrize("first", sorted(ALL_PRESETS))
def test_a_table_is_shared_by_the_presets_of_one_game_only(first: str) -> None:
    """Deal numbers lay out alike on the same table; "had this deal before" relies on it."""
    rules = ALL_PRESETS[first]
    for name, other in ALL_PRESETS.items():
        assert rules.same_table(other) == (rules.game == other.game), name
        if rules.same_table(other):
            deal = Deal.from_number(5, rules.decks)
            assert deal.layout(rules) == deal.layout(other), name
