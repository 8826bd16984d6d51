"""The session: the one game flow that the web and the terminal both present."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bonanza.core import Deal, Rules, Scoring
from bonanza.core.errors import SaveError
from bonanza.core.scoring import VEGAS_ANTE
from bonanza.session import (
    IDLE_CAP,
    Action,
    GameOverError,
    HistoryFullError,
    NoAutoFinishError,
    Origin,
    RedoRefusedError,
    Session,
    Status,
    UndoRefusedError,
    messages,
)
from tests.web import deals

KLONDIKE = Rules.preset("klondike")
VEGAS_1 = Rules.preset("vegas-1")
TIMED = Rules(scoring=Scoring.TIMED)


def start(rules: Rules = KLONDIKE, deal: str = "0", now: float = 0.0) -> Session:
    return Session.new(Deal.parse(deal), rules, now)


def first_non_stock(session: Session) -> str:
    from bonanza.core import format_move

    move = next(m for m in session.position.legal_moves() if not (m.is_draw or m.is_recycle))
    return format_move(move)


def test_the_clock_starts_at_the_first_move_and_caps_idle_pauses() -> None:
    session = start(now=100.0)
    assert session.elapsed(500.0) == 0.0 and not session.clock.running
    session.play("sw", 1000.0)
    assert session.elapsed(1005.0) == 5.0
    assert session.elapsed(5000.0) == 60.0  # an idle pause counts 60 s at most
    session.play("sw", 5000.0)
    assert session.elapsed(5001.0) == 61.0


def test_a_game_counts_from_its_first_move_whatever_undo_does() -> None:
    session = start()
    session.play("sw", 1.0)
    session.undo(2.0)
    assert session.game.move_count == 0
    assert session.end(3.0).status is Status.LOST
    untouched = start()
    assert untouched.end(3.0).status is Status.ABANDONED


def test_restart_keeps_the_game_counted_and_the_moves_for_redo() -> None:
    session = start()
    session.play("sw", 1.0)
    session.play("sw", 2.0)
    event = session.restart(3.0)
    assert event.action is Action.RESTART and event.text == messages.RESTARTED
    assert session.game.move_count == 0 and session.can_redo
    assert session.end(4.0).status is Status.LOST


def test_moves_taken_back_still_count_as_played_and_are_saved() -> None:
    session = start()
    for now in (1.0, 2.0, 3.0):
        session.play("sw", now)
    session.undo(4.0)
    session.redo(5.0)
    assert (session.game.move_count, session.moves_played) == (3, 4)
    session.restart(6.0)
    assert (session.game.move_count, session.moves_played) == (0, 4)
    session.play("sw", 7.0)
    assert (session.game.move_count, session.moves_played) == (1, 5)
    loaded = Session.from_json(session.to_json())
    assert loaded.moves_played == 5
    older = session.to_json()
    del older["taken_back"]  # a save from before they were counted: none
    assert Session.from_json(older).moves_played == 1  # the moves it holds
    for wrong in (-1, 2.5, "3", True):
        with pytest.raises(SaveError, match="taken back"):
            Session.from_json({**session.to_json(), "taken_back": wrong})


def test_in_vegas_the_ante_is_paid_at_the_deal() -> None:
    session = start(VEGAS_1)
    assert session.score(0.0) == -VEGAS_ANTE
    session.end(1.0)
    assert session.status is Status.LOST and session.outcome(1.0).score == -VEGAS_ANTE


def test_vegas_defaults_to_the_desktop_pass_limits() -> None:
    assert Rules(scoring=Scoring.VEGAS).passes == 1
    assert Rules(draw=3, scoring=Scoring.VEGAS_CUMULATIVE).passes == 3
    assert Rules.from_dict({"scoring": "vegas", "passes": 2}).passes == 2
    assert Rules.from_dict({"scoring": "vegas"}) == Rules(scoring=Scoring.VEGAS, passes=1)
    assert Rules(scoring=Scoring.STANDARD).passes is None


def test_in_vegas_undo_cannot_take_back_a_draw() -> None:
    session = start(VEGAS_1)
    session.play("sw", 1.0)
    assert not session.can_undo and not session.can_restart
    with pytest.raises(UndoRefusedError, match="stays seen"):
        session.undo(2.0)
    with pytest.raises(UndoRefusedError, match="stays seen"):
        session.restart(2.0)
    session.play(first_non_stock(session), 3.0)
    assert session.can_undo
    session.undo(4.0)
    with pytest.raises(UndoRefusedError):
        session.undo(5.0)


def test_the_whole_stock_seen_in_one_pass_vegas_stays_seen() -> None:
    session = start(VEGAS_1)
    for second in range(24):
        session.play("sw", float(second))
    with pytest.raises(UndoRefusedError):
        session.undo(30.0)
    assert len(session.position.stock) == 0


def test_elsewhere_undo_is_unlimited() -> None:
    session = start()
    for second in range(30):
        session.draw(float(second))
    for second in range(30):
        session.undo(100.0 + second)
    assert session.game.move_count == 0
    with pytest.raises(UndoRefusedError, match="nothing to undo"):
        session.undo(200.0)
    with pytest.raises(RedoRefusedError):
        start().redo(1.0)


def test_timed_penalty_meets_the_floor_as_it_goes() -> None:
    session = start(TIMED, "0")
    session.play("sw", 0.0)
    assert session.score(100.0 - 40.0) == 0  # 60 s idle cap: 0 stays 0
    # A card home after sitting at 0: the ten points are not eaten by a debt.
    session.play("sw", 50.0)
    session.play("sw", 100.0)
    home = next(m for m in session.position.legal_moves() if m.dest.is_foundation)
    session.play(home, 101.0)
    earned = session.game.running_score  # 10 home, and 5 if it turned a card up
    assert earned >= 10 and session.score(101.0) == earned
    assert session.score(111.0) == earned - 2  # then the clock takes its 2 a period


def test_the_timed_score_runs_between_moves() -> None:
    session = start(TIMED, "0")
    while session.game.running_score < 4:  # earn points first, by drawing and playing
        scoring = [m for m in session.position.legal_moves() if not m.is_draw]
        session.play(scoring[0] if scoring else "sw", 0.0)
    base = session.score(1.0)
    assert base >= 4
    assert session.score(11.0) == base - 2
    assert session.score(21.0) == base - 4


def test_after_a_win_nothing_more_can_be_done() -> None:
    number, moves = deals.winning()
    session = start(KLONDIKE, number)
    events = [session.play(move, float(i)) for i, move in enumerate(moves)]
    assert events[-1].won and session.status is Status.WON
    assert messages.won(len(moves)) in events[-1].text
    assert session.portable_deal == number
    for action in (session.undo, session.redo, session.restart, session.end, session.draw):
        with pytest.raises(GameOverError):
            action(99.0)
    assert not (session.can_undo or session.can_redo or session.can_restart)


def test_auto_finish_plays_home_once_nothing_is_unseen() -> None:
    number, moves = deals.winning()
    session = start(KLONDIKE, number)
    played = 0
    while session.auto_move() is None:
        with pytest.raises(NoAutoFinishError):
            session.auto_step(0.0)
        session.play(moves[played], 1.0)
        played += 1
    events = session.auto_finish(2.0)
    assert all(e.action is Action.AUTO for e in events)
    assert events[-1].won and session.status is Status.WON


def test_the_deal_stays_secret_while_playing() -> None:
    session = start(deal="12345")
    assert session.portable_deal is None
    session.end(1.0)
    assert session.portable_deal == "12345"


def test_the_history_has_a_limit() -> None:
    session = Session.new(Deal.parse("0"), KLONDIKE, 0.0, max_moves=3)
    for second in range(3):
        session.draw(float(second))
    with pytest.raises(HistoryFullError, match="limit of 3 moves"):
        session.draw(5.0)


def test_a_move_that_turns_up_a_card_names_it() -> None:
    session = start(deal="0")
    for move in session.position.legal_moves():
        if move.source.is_tableau and session.position.down[move.source]:
            event = session.play(move, 1.0)
            assert event.revealed is not None and "revealed" in event.text
            return
    pytest.skip("deal 0 turns no card up in one move")


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([KLONDIKE, VEGAS_1, TIMED, Rules.preset("klondike-3")]),
    st.lists(st.integers(0, 99), min_size=1, max_size=60),
)
def test_saving_and_loading_keeps_every_answer(rules: Rules, choices: list[int]) -> None:
    """Invariants over random play: a saved session answers like the live one, Vegas
    never undoes a stock move, and the status only ever leaves playing once."""
    session = Session.new(Deal.from_number(7), rules, 0.0, origin=Origin.TYPED, typed="7")
    now = 0.0
    played = 0
    for choice in choices:
        now += 3.0
        if session.is_over:
            break
        assert session.moves_played >= played  # undo never takes a move played back
        played = session.moves_played
        legal = session.position.legal_moves()
        try:
            if choice < 15 and session.can_undo:
                before = session.game.history[-1]
                session.undo(now)
                assert not (rules.scoring.is_vegas and (before.is_draw or before.is_recycle))
            elif choice < 20 and session.can_redo:
                session.redo(now)
            elif choice < 22:
                session.end(now)
            elif legal:
                session.play(legal[choice % len(legal)], now)
        except UndoRefusedError:
            pytest.fail("can_undo promised an undo")
        loaded = Session.from_json(session.to_json())
        for later in (now, now + 7.0, now + 95.0):
            assert loaded.score(later) == session.score(later)
            assert loaded.elapsed(later) == session.elapsed(later)
        assert (loaded.status, loaded.origin, loaded.typed) == (
            session.status,
            session.origin,
            session.typed,
        )
        assert (loaded.can_undo, loaded.can_redo, loaded.can_restart) == (
            session.can_undo,
            session.can_redo,
            session.can_restart,
        )
        assert loaded.position == session.position
        assert loaded.moves_played == session.moves_played


def test_a_timed_game_cannot_be_paced_every_second_from_the_deal_counts() -> None:
    """Issue 31: thinking before the first move, or in long pauses, cost nothing;
    under timed scoring the clock is the score, so it runs from the deal."""
    paced = Session.new(Deal.from_number(0), TIMED, 1000.0)
    paced.play("sw", 1600.0)  # ten minutes looking at the table first
    assert paced.elapsed(1600.0) == 600.0
    paced.play("sw", 4600.0)  # an hour's pause counts whole
    assert paced.elapsed(4600.0) == 3600.0  # from the deal at 1000 s
    reloaded = Session.from_json(paced.to_json())
    assert reloaded.elapsed(4700.0) == 3700.0
    untimed = Session.new(Deal.from_number(0), KLONDIKE, 1000.0)
    untimed.play("sw", 1600.0)  # other scorings: from the first move, pauses capped
    untimed.play("sw", 4600.0)
    assert untimed.elapsed(4600.0) == IDLE_CAP
