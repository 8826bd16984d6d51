"""Sessions play Klondike's relatives as they play Klondike (docs/variants.md)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bonanza.core import Deal, Move, Pile, Rules
from bonanza.core.cards import ALL_CARDS
from bonanza.play.ledger import statistics
from bonanza.session.session import Session
from bonanza.session.status import Origin, Status
from bonanza.storage.records import GameRecord, rules_key

RELATIVES = ("double-klondike", "double-klondike-3", "westcliff", "easthaven")
STEPS = 150


def new_session(name: str, number: int) -> Session:
    rules = Rules.preset(name)
    return Session.new(Deal.from_number(number, rules.decks), rules, now=0.0)


@settings(max_examples=12, deadline=None)
@given(name=st.sampled_from(RELATIVES), number=st.integers(1, 10_000), seed=st.integers(0, 99))
def test_random_play_with_undo_redo_and_saves_keeps_the_game_whole(
    name: str, number: int, seed: int
) -> None:
    session = new_session(name, number)
    session.set_safe_home(seed % 2 == 0)
    chance = random.Random(seed)
    for step in range(1, STEPS):
        moves = session.position.legal_moves()
        if not moves or session.is_over:
            break
        roll = chance.random()
        if roll < 0.1 and session.can_undo:
            session.undo(now=step)
        elif roll < 0.13 and session.can_redo:
            session.redo(now=step)
        else:
            session.play(chance.choice(moves), now=step)
        cards = sum(map(len, session.position.tableau)) + len(session.position.stock)
        cards += len(session.position.waste) + sum(session.position.foundations)
        assert cards == 52 * session.rules.decks
    loaded = Session.from_json(session.to_json())
    assert loaded.position == session.position
    assert loaded.seen == session.seen


def test_turning_up_a_card_in_the_tenth_column_is_announced_by_name() -> None:
    for number in range(1, 500):
        session = new_session("westcliff", number)
        for move in session.position.legal_moves():
            if move.source is Pile.T10 and move.count == 1:
                hidden = session.position.tableau[9][-2]
                event = session.play(move, now=1.0)
                assert event.text.endswith(f"; revealed {ALL_CARDS[hidden].name.capitalize()}")
                return
    raise AssertionError("no deal of 500 moves column ten's card at once")


def test_a_twin_turned_up_in_double_klondike_is_named_like_its_first_deck_card() -> None:
    for number in range(1, 200):
        session = new_session("double-klondike", number)
        for move in session.position.legal_moves():
            if move.source.is_tableau and move.count == 1 and move.source is not Pile.T1:
                index = move.source.column_index
                hidden = session.position.tableau[index][-2]
                if hidden >= 52:
                    event = session.play(move, now=1.0)
                    assert ALL_CARDS[hidden].name in event.text.lower()
                    assert ALL_CARDS[hidden].name == ALL_CARDS[hidden - 52].name
                    return
    raise AssertionError("no second-deck card turned up in 200 deals")


def test_easthaven_deals_onto_the_columns_and_says_so() -> None:
    session = new_session("easthaven", 3)
    deal = next(m for m in session.position.legal_moves() if m.source is Pile.STOCK)
    assert isinstance(deal, Move) and deal.is_deal
    before = [len(c) for c in session.position.tableau]
    session.play(deal, now=1.0)
    assert [len(c) for c in session.position.tableau] == [n + 1 for n in before]


def test_statistics_keep_each_game_apart_and_name_it() -> None:
    def record(name: str, status: Status) -> GameRecord:
        rules = Rules.preset(name)
        return GameRecord(id=name + status, player="p", deal="1", rules_key=rules_key(rules),
                          state={}, status=status, origin=Origin.RANDOM)

    games = [record("westcliff", Status.WON), record("easthaven", Status.LOST),
             record("klondike", Status.WON), record("westcliff", Status.LOST)]
    groups = {g["game"]: g for g in statistics(games)["groups"]}
    assert set(groups) == {"Westcliff", "Easthaven", "Klondike"}
    assert (groups["Westcliff"]["played"], groups["Westcliff"]["won"]) == (2, 1)
    assert groups["Westcliff"]["label"].startswith("Westcliff: draw 1")
