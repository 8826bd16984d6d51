"""Hints: useful, never circular, and blind to hidden cards."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bonanza.core import Deal, Game, Move, Pile, Position, Rules
from bonanza.solver.hint import hint
from bonanza.solver.quiet import position_key, turns_up
from tests.core.strategies import deals
from tests.core.tables import table


def shuffle_hidden(position: Position, chooser: random.Random) -> Position:
    """The same position as the player sees it, with its hidden cards swapped around."""
    other = position.copy()
    slots = [(i, at) for i, down in enumerate(other.down) for at in range(down)]
    hidden = [other.tableau[i][at] for i, at in slots]
    stock_hidden = other.recycles == 0
    if stock_hidden:
        hidden += other.stock
    chooser.shuffle(hidden)
    for (i, at), card in zip(slots, hidden, strict=False):
        other.tableau[i][at] = card
    if stock_hidden:
        other.stock = hidden[len(slots) :]
    return other


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals, st.sampled_from([1, 3]), st.integers(0, 60), st.randoms(use_true_random=False))
def test_hints_never_peek(deal: Deal, draw: int, moves: int, chooser: random.Random) -> None:
    game = Game(deal, Rules(draw=draw))
    for _ in range(moves):
        legal = game.position.legal_moves()
        if not legal:
            break
        game.play(chooser.choice(legal))
    position = game.position
    twin = shuffle_hidden(position, chooser)
    assert twin.to_text(hide=True) == position.to_text(hide=True)
    assert hint(position, node_limit=300) == hint(twin, node_limit=300)


def test_a_safe_card_goes_home_first() -> None:
    position = table(["kd QS", "KH", "KS", "kc qc JC"], rules=Rules())
    # QS and JC may both go home, and both are safe: every lower red card is home.
    assert hint(position) in (Move(Pile.T1, Pile.FS, 1), Move(Pile.T4, Pile.FC, 1))


@pytest.mark.python_bound
def test_following_hints_never_goes_round_in_circles() -> None:
    for number in (1, 2, 9):
        game = Game(Deal.from_number(number), Rules(draw=3 if number % 2 else 1))
        seen = {position_key(game.position)}
        for _ in range(150):
            move = hint(game.position, node_limit=3000)
            if move is None or game.is_won:
                break
            game.play(move)
            key = position_key(game.position)
            assert key not in seen, f"deal {number}: hint {move} came back to a position"
            seen.add(key)


def test_no_hint_without_moves() -> None:
    columns = ["jh KS", "qh KC", "kh QS", "jd JS", "qd JC", "kd TS", "TC"]
    blocked = table(columns, waste="9S 9C TH TD QC", rules=Rules(passes=1, recall=False))
    assert hint(blocked) is None


def test_a_hint_turns_up_a_card() -> None:
    # No card is safe to send home; QH (onto KC or home) and QC (home) each turn a card up.
    position = table(["kd QH", "KC", "ks qs JS", "kh QC"], rules=Rules())
    move = hint(position)
    assert move is not None and turns_up(position, move)
