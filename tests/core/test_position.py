"""Each rule option, tested so that ignoring the option would fail."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bonanza.core import (
    Deal,
    EmptyColumn,
    IllegalMoveError,
    Move,
    Pile,
    Position,
    Rules,
)
from bonanza.core.position import home_cards
from tests.core.tables import table

T1, T2, T3 = Pile.T1, Pile.T2, Pile.T3
STOCK, WASTE = Pile.STOCK, Pile.WASTE


def test_opening_layout() -> None:
    position = Position.initial(Deal.from_number(7), Rules())
    assert [len(column) for column in position.tableau] == [1, 2, 3, 4, 5, 6, 7]
    assert position.down == [0, 1, 2, 3, 4, 5, 6]
    assert len(position.stock) == 24 and position.waste == [] and position.foundations == [0] * 4
    assert str(position.stock[-1]) == "9C"  # the first card drawn is the listing's 29th


@pytest.mark.parametrize(("draw", "top"), [(1, "9C"), (2, "JD"), (3, "6H")])
def test_draw_turns_cards_in_order(draw: int, top: str) -> None:
    position = Position.initial(Deal.from_number(7), Rules(draw=draw))
    (move,) = [m for m in position.legal_moves() if m.source == STOCK]
    assert move == Move(STOCK, WASTE, draw)
    position.play(move)
    assert [str(c) for c in position.waste] == ["9C", "JD", "6H"][:draw]
    assert str(position.waste[-1]) == top
    assert len(position.stock) == 24 - draw


def test_draw_three_turns_what_is_left() -> None:
    position = table(["KS", "KH"], stock="QH JH", rules=Rules(draw=3))
    position.play(Move(STOCK, WASTE, 2))
    assert [str(c) for c in position.waste] == ["QH", "JH"] and not position.stock


def test_only_the_top_waste_card_plays() -> None:
    position = table(
        ["KS", "TC", "KH", "KC QD JC", "KD QC JD", "TD"], waste="QH 9D", rules=Rules(draw=3)
    )
    # 9D goes on TC; QH (under it) would go on KS but is covered.
    assert Move(WASTE, T2, 1) in position.legal_moves()
    assert Move(WASTE, T1, 1) not in position.legal_moves()


def test_recycle_keeps_the_stock_order() -> None:
    rules = Rules(draw=3)
    position = Position.initial(Deal.from_number(7), rules)
    order = [str(c) for c in reversed(position.stock)]
    for _ in range(8):
        position.play(Move(STOCK, WASTE, 3))
    position.play(Move(WASTE, STOCK, 24))
    assert [str(c) for c in reversed(position.stock)] == order
    assert position.recycles == 1


@pytest.mark.parametrize(("passes", "recycles"), [(1, 0), (2, 1), (3, 2), (None, 6)])
def test_pass_limit(passes: int | None, recycles: int) -> None:
    position = table(["KS", "KH"], stock="QH JH", rules=Rules(passes=passes))
    done = 0
    for _ in range(6):
        position.play(Move(STOCK, WASTE, 1))
        position.play(Move(STOCK, WASTE, 1))
        recycle = Move(WASTE, STOCK, 2)
        if recycle not in position.legal_moves():
            with pytest.raises(IllegalMoveError, match="pass limit"):
                position.play(recycle)
            break
        position.play(recycle)
        done += 1
    assert done == recycles


@pytest.mark.parametrize(("rule", "legal"), [(EmptyColumn.KING, False), (EmptyColumn.ANY, True)])
def test_empty_column_rule(rule: EmptyColumn, legal: bool) -> None:
    rules = Rules(empty_column=rule)
    position = table(["QH JC", "", "KH", "kc QC", "ks qs JS"], waste="TS", rules=rules)
    moves = position.legal_moves()
    assert (Move(T1, T2, 2) in moves) is legal  # a queen-headed run
    assert (Move(T1, T2, 1) in moves) is legal  # a jack
    assert (Move(WASTE, T2, 1) in moves) is legal
    kings = table(["KH QC", "", "KC"], rules=rules)
    assert Move(T1, T2, 2) in kings.legal_moves()


@pytest.mark.parametrize("recall", [True, False])
def test_foundation_recall(recall: bool) -> None:
    # The hearts foundation holds up to 9H; 9H may come back onto TS.
    position = table(["TS", "kh qh jh TH", "ks qs JS"], rules=Rules(recall=recall))
    assert (Move(Pile.FH, T1, 1) in position.legal_moves()) is recall


@pytest.mark.parametrize(("rule", "legal"), [(EmptyColumn.KING, False), (EmptyColumn.ANY, True)])
def test_recall_into_an_empty_column_obeys_the_empty_column_rule(
    rule: EmptyColumn, legal: bool
) -> None:
    position = table(["", "KH", "QS", "KS"], rules=Rules(empty_column=rule))
    # QH is the hearts foundation's top card: onto KS always, to column 1 by the rule
    assert Move(Pile.FH, Pile.T4, 1) in position.legal_moves()
    assert (Move(Pile.FH, T1, 1) in position.legal_moves()) is legal
    assert Move(Pile.FD, T1, 1) in position.legal_moves()  # KD: a king fills any column


@pytest.mark.parametrize("partial", [True, False])
def test_partial_runs(partial: bool) -> None:
    position = table(["kd KS QH JC", "QD", "kh qc KC"], rules=Rules(partial_runs=partial))
    moves = position.legal_moves()
    assert (Move(T1, T2, 1) in moves) is partial  # JC alone onto QD
    whole = table(["kd QH JC", "KC", "kh QC"], rules=Rules(partial_runs=partial))
    assert Move(T1, T2, 2) in whole.legal_moves()


def test_whole_runs_still_play_single_cards_to_the_foundation() -> None:
    position = table(["KS QH JC TD", "kd JD", "QD", "KH", "kc QC"], rules=Rules(partial_runs=False))
    assert Move(T1, Pile.FD, 1) in position.legal_moves()


def test_runs_are_checked_on_their_first_card() -> None:
    position = table(["QC JH TS", "KD", "QD", "kc qh KH", "ks qs JS", "JD"])
    moves = position.legal_moves()
    assert Move(T1, T2, 3) in moves  # QC on KD
    assert Move(T1, T3, 2) not in moves  # JH on QD: the same colour
    assert Move(T1, T3, 1) not in moves  # TS on QD: not the next rank
    assert Move(T1, Pile.T6, 1) in moves  # TS on JD


def test_an_exposed_card_turns_up() -> None:
    position = table(["kd QS", "KH", "KS"])
    revealed = position.play(Move(T1, Pile.FS, 1))
    assert str(revealed) == "KD" and position.down[0] == 0


def test_thoughtful_shows_face_down_cards_but_keeps_their_rules() -> None:
    normal = Position.initial(Deal.from_number(7), Rules())
    thoughtful = Position.initial(Deal.from_number(7), Rules(thoughtful=True))
    assert thoughtful.down == normal.down
    assert set(thoughtful.legal_moves()) == set(normal.legal_moves())
    assert "?" in normal.to_text(hide=True)
    assert "?" not in thoughtful.to_text(hide=True)


def test_win_and_no_moves() -> None:
    won = table([])
    assert won.is_won() and not won.has_moves()
    # Seven black tops that take nothing, the next card of each suit buried.
    columns = ["jh KS", "qh KC", "kh QS", "jd JS", "qd JC", "kd TS", "TC"]
    waste = "9S 9C TH TD QC"
    blocked = table(columns, waste=waste, rules=Rules(passes=1, recall=False))
    assert not blocked.is_won() and not blocked.has_moves()
    with_recall = table(columns, waste=waste, rules=Rules(passes=1, recall=True))
    assert Move(Pile.FH, T1, 1) not in with_recall.legal_moves()
    assert Move(Pile.FH, Pile.T6, 1) in with_recall.legal_moves()  # 9H onto TS


def test_illegal_move_error_names_move_and_position() -> None:
    position = table(["KS", "QD", "KD"])
    with pytest.raises(IllegalMoveError, match=r"12 is not legal in KS/QD/KD/-/-/-/-") as info:
        position.play(Move(T1, T2, 1))
    assert "does not go on" in str(info.value)


@given(st.lists(st.integers(0, 13), min_size=4, max_size=4))
def test_the_cards_home_are_each_suits_lowest_ranks(heights: list[int]) -> None:
    """One deck: a card is home when its rank is at most its suit's foundation height."""
    expected = {card for card in range(52) if card % 13 < heights[card // 13]}
    assert home_cards(heights) == expected
