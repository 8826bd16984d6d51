"""Safe auto-play: safe cards go home after the player's moves, and only those."""

from __future__ import annotations

import itertools
import random

import pytest

from bonanza.core import Deal, Move, Pile, Position, Rules
from bonanza.core.safety import is_safe_to_send_home, safe_move_home
from bonanza.session import Action, Session, UndoRefusedError
from bonanza.solver import solve

RULE_SETS = (Rules(), Rules(draw=3), Rules(recall=False), Rules.preset("vegas-1"))
KLONDIKE = Rules.preset("klondike")
SOLVE_NODES = 30_000
"""Node cap for each proof in the soundness test (undecided pairs are skipped)."""


def player_moves(session: Session, rng: random.Random) -> Move | None:
    """A random move of the player's, favouring moves home and recalls."""
    moves = session.position.legal_moves()
    if not moves:
        return None
    recalls = [m for m in moves if m.source.is_foundation]
    home = [m for m in moves if m.dest.is_foundation]
    roll = rng.random()
    if recalls and roll < 0.15:
        return rng.choice(recalls)
    if home and roll < 0.5:
        return rng.choice(home)
    return rng.choice(moves)


def games(count: int, seed: int, rules: tuple[Rules, ...] = RULE_SETS) -> list[Session]:
    sessions = []
    for number in range(count):
        session = Session.new(Deal.from_number(seed + number), rules[number % len(rules)], 0.0)
        session.set_safe_home(True)
        sessions.append(session)
    return sessions


def test_after_each_move_every_safe_card_is_home_and_only_safe_cards_went() -> None:
    rng = random.Random(1)
    sent = 0
    for session in games(24, 100):
        for _ in range(150):
            move = player_moves(session, rng)
            if move is None or session.is_over:
                break
            before = session.position
            event = session.play(move, 0.0)
            positions = session.game.positions[-len(event.then) - 1 :]
            for automatic, at in zip(event.then, positions, strict=False):
                assert automatic.action is Action.HOME and automatic.move is not None
                card = at.moving_cards(automatic.move)[0]
                assert is_safe_to_send_home(at, card) and automatic.move.dest.is_foundation
                assert card not in session.safe.held
                sent += 1
            assert session.is_over or safe_move_home(session.position, session.safe.held) is None
            assert before == session.game.positions[-len(event.then) - 2]
    assert sent >= 50


def test_an_unsafe_card_stays_until_its_lower_opposite_cards_are_home() -> None:
    unsafe_left = 0
    rng = random.Random(2)
    for session in games(24, 300):
        for _ in range(150):
            move = player_moves(session, rng)
            if move is None or session.is_over:
                break
            session.play(move, 0.0)
            position = session.position
            for home in position.legal_moves():
                if home.dest.is_foundation and home.source.is_tableau:
                    card = position.moving_cards(home)[0]
                    if not is_safe_to_send_home(position, card):
                        unsafe_left += 1  # e.g. a red 5 while a black 4 is in play
    assert unsafe_left >= 20


def test_a_card_taken_down_stays_down_until_the_player_sends_it_home() -> None:
    rng = random.Random(3)
    checked = 0
    for session in games(40, 500, (Rules(),)):
        for _ in range(200):
            position = session.position
            recalls = [
                m
                for m in position.legal_moves()
                if m.source.is_foundation
                and is_safe_to_send_home(position, position.moving_cards(m)[0])
            ]
            if recalls and not session.is_over:
                recall = recalls[0]
                card = position.moving_cards(recall)[0]
                event = session.play(recall, 0.0)
                assert card in session.safe.held
                assert all(e.move is not None and e.move.source != recall.dest for e in event.then)
                suit = card // 13
                assert session.position.foundations[suit] == card % 13  # still down
                checked += 1
                break
            move = player_moves(session, rng)
            if move is None or session.is_over:
                break
            session.play(move, 0.0)
    assert checked >= 5


def test_one_undo_takes_back_the_move_with_its_automatic_moves_and_redo_replays_them() -> None:
    rng = random.Random(4)
    grouped = 0
    for session in games(30, 700, (Rules(),)):
        for _ in range(150):
            move = player_moves(session, rng)
            if move is None or session.is_over:
                break
            before = session.position.copy()
            count = session.game.move_count
            event = session.play(move, 0.0)
            if event.then and not session.is_over:
                after = session.position.copy()
                undone = session.undo(1.0)
                assert undone.move == move and session.game.move_count == count
                assert session.position == before
                assert "sent home" in undone.text
                redone = session.redo(2.0)
                assert len(redone.then) == len(event.then) and session.position == after
                grouped += 1
    assert grouped >= 10


def test_in_vegas_a_draw_and_its_automatic_moves_cannot_be_undone() -> None:
    rng = random.Random(5)
    for session in games(40, 900, (Rules.preset("vegas-1"),)):
        for _ in range(150):
            position = session.position
            draw = next((m for m in position.legal_moves() if m.is_draw), None)
            if draw is None or session.is_over:
                break
            event = session.play(draw, 0.0)
            if event.then:
                assert not session.can_undo
                with pytest.raises(UndoRefusedError):
                    session.undo(1.0)
                return
            move = player_moves(session, rng)
            if move is not None and not session.is_over:
                session.play(move, 0.0)
    raise AssertionError("no draw was followed by a move home")


def test_switching_the_setting_lets_go_of_held_cards_and_it_is_saved() -> None:
    session = games(1, 0)[0]
    session.safe.held.add(5)
    session.set_safe_home(True)
    assert not session.safe.held
    saved = Session.from_json(session.to_json())
    assert saved.safe.on
    session.set_safe_home(False)
    assert not Session.from_json(session.to_json()).safe.on


def known_verdict(position: Position) -> str:
    return solve(position, node_limit=SOLVE_NODES).result


def test_no_automatic_move_turns_a_won_thoughtful_position_lost() -> None:
    """Over random thoughtful games with the setting on: whenever the position
    before an automatic move is proven won, the one after is never proven lost."""
    rng = random.Random(6)
    rules = (Rules(thoughtful=True), Rules(draw=3, thoughtful=True),
             Rules(thoughtful=True, recall=False), Rules(thoughtful=True, passes=1))
    compared = 0
    for session in games(48, 1_100, rules):
        for _ in range(120):
            move = player_moves(session, rng)
            if move is None or session.is_over:
                break
            event = session.play(move, 0.0)
            if not event.then:
                continue
            line = session.game.positions[-len(event.then) - 1 :]
            for before, after in itertools.pairwise(line):
                if known_verdict(before) == "solved":
                    assert after.is_won() or known_verdict(after) != "unsolvable", before.to_text()
                    compared += 1
    assert compared >= 30


def test_nothing_moves_by_itself_with_the_setting_off() -> None:
    session = Session.new(Deal.from_number(1), Rules(), 0.0)
    rng = random.Random(7)
    for _ in range(100):
        move = player_moves(session, rng)
        if move is None or session.is_over:
            break
        assert not session.play(move, 0.0).then


def triggering_move(seed: int) -> tuple[str, list[Move], Move, int]:
    """A deal, the moves up to a move of the player's, that move, and how many
    cards safe auto-play sends home after it."""
    rng = random.Random(seed)
    for number in range(50):
        session = Session.new(Deal.from_number(number), KLONDIKE, 0.0)
        session.set_safe_home(True)
        for _ in range(100):
            moves = [m for m in session.position.legal_moves() if not m.dest.is_foundation]
            if not moves or session.is_over:
                break
            move = rng.choice(moves)
            history = list(session.game.history)
            event = session.play(move, 0.0)
            single = move.count == 1 and move.source != Pile.STOCK
            if event.then and single and not session.is_over:
                return str(number), history, move, len(event.then)
    raise AssertionError("no move was followed by a card sent home")
