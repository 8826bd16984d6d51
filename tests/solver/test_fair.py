"""The fair hint engine: blind to hidden cards, never circular, never giving up."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bonanza.core import Deal, Move, Pile, Position, Rules
from bonanza.core.notation import format_move
from bonanza.core.view import PlayerView
from bonanza.session import Session
from bonanza.solver.fair import Advice, AdviceKind, advise
from bonanza.solver.fair_choice import Rule
from bonanza.solver.lines import clean_line
from bonanza.solver.quiet import position_key
from bonanza.solver.search import solve
from tests.core.hidden import shuffle_hidden
from tests.core.strategies import random_position
from tests.core.tables import table

QUICK = 0.01
"""A hint budget (seconds) that keeps these tests quick."""
GAVE_UP = Path(__file__).parent / "data" / "gave_up.txt"


def positions_in_play(draw: int, count: int) -> list[Position]:
    """Random-play positions with hidden cards left and moves to choose from."""
    found: list[Position] = []
    seed = draw * 10_000
    while len(found) < count:
        seed += 1
        position = random_position(seed, seed % 60, Rules(draw=draw))
        if not PlayerView.of(position).is_known() and len(position.legal_moves()) > 1:
            found.append(position)
    return found


@pytest.mark.parametrize("draw", [1, 3])
def test_shuffling_the_hidden_cards_never_changes_the_hint(draw: int) -> None:
    chooser = random.Random(draw)
    changed = 0
    for number, position in enumerate(positions_in_play(draw, 200)):
        twin = shuffle_hidden(position, chooser)
        changed += twin != position
        view, twin_view = PlayerView.of(position), PlayerView.of(twin)
        assert twin_view == view
        assert advise(twin_view, budget=QUICK, seed=number) == advise(
            view, budget=QUICK, seed=number
        )
    assert changed >= 190  # the shuffles really moved hidden cards


def test_the_hint_is_deterministic_per_seed_and_varies_with_it() -> None:
    positions = positions_in_play(1, 30)
    texts = set()
    for position in positions:
        view = PlayerView.of(position)
        first = advise(view, budget=QUICK, seed=5)
        assert advise(view, budget=QUICK, seed=5) == first
        texts.add(advise(view, budget=QUICK, seed=6).text == first.text)
    assert texts  # (a different seed may or may not pick the same move)


HINTED_DEALS = 60
HINTED_SLICES = 3
"""The deals hinted, in slices that the test workers share out."""


@pytest.mark.python_bound
@pytest.mark.parametrize("first", range(1, HINTED_DEALS + 1, HINTED_DEALS // HINTED_SLICES))
def test_following_hints_never_repeats_a_position(first: int) -> None:
    """60 seeded deals (in three slices), draw 1 and 3 in turn, 120 hinted moves at most each."""
    for number in range(first, first + HINTED_DEALS // HINTED_SLICES):
        session = Session.new(Deal.from_number(number), Rules(draw=1 + 2 * (number % 2)), 0.0)
        seen = {position_key(session.position)}
        for _ in range(120):
            advice = advise(session.view(), budget=0.002, seed=number)
            if advice.move is None:
                break
            session.play(advice.move, 0.0)
            if session.is_over:
                break
            key = position_key(session.position)
            assert key not in seen, f"deal {number} came back to {session.position.to_text()}"
            seen.add(key)


def gave_up_cases() -> list[tuple[int, int, Position]]:
    cases = []
    for line in GAVE_UP.read_text().splitlines():
        draw, deal, _, text = line.split("\t")
        cases.append((int(draw), int(deal), Position.from_text(text, Rules(draw=int(draw)))))
    return cases


@pytest.mark.parametrize(("draw", "deal", "position"), gave_up_cases())
def test_where_the_old_hint_gave_up_on_a_winnable_deal_a_move_is_named(
    draw: int, deal: int, position: Position
) -> None:
    assert solve(position, node_limit=5_000_000).solved
    advice = advise(PlayerView.of(position), budget=0.1, seed=deal)
    assert advice.move is not None and advice.move in position.legal_moves()
    assert advice.kind is not AdviceKind.NO_PROGRESS


def test_the_words_name_the_move_and_the_layouts() -> None:
    position = positions_in_play(1, 1)[0]
    advice = advise(PlayerView.of(position), budget=0.05, seed=1)
    assert advice.kind in (AdviceKind.SAMPLED, AdviceKind.LOOKS_LOST)
    assert advice.move is not None
    assert f"of {advice.samples} layouts that fit what you have seen" in advice.text
    if not advice.move.is_draw and not advice.move.is_recycle:
        assert position.moving_cards(advice.move)[0].face in advice.text


def test_a_sampled_hint_keeps_what_each_move_it_tried_scored() -> None:
    sampled = 0
    for position in positions_in_play(3, 24):
        advice = advise(PlayerView.of(position), budget=0.05, seed=2)
        if advice.kind is not AdviceKind.SAMPLED:
            assert advice.scored == () and advice.rule is None
            continue
        sampled += 1
        legal = position.legal_moves()
        moves = [scored.move for scored in advice.scored]
        assert len(set(moves)) == len(moves) and set(moves) <= set(legal)
        (chosen,) = [scored for scored in advice.scored if scored.move == advice.move]
        assert (chosen.wins, chosen.samples) == (advice.wins, advice.samples)
        assert all(0 <= scored.wins <= scored.samples for scored in advice.scored)
        if advice.rule is Rule.SCORE:  # no other move came within noise of it
            assert all(scored.wins / scored.samples <= chosen.wins / chosen.samples
                       for scored in advice.scored if scored.samples == chosen.samples)
    assert sampled >= 6


def test_a_safe_card_goes_home_without_sampling() -> None:
    position = table(["kd QS", "KH", "KS", "kc qc JC"], rules=Rules())
    advice = advise(PlayerView.of(position), seed=0)
    assert advice.kind is AdviceKind.SAFE and advice.samples == 0
    assert advice.move in (Move(Pile.T1, Pile.FS, 1), Move(Pile.T4, Pile.FC, 1))
    assert "no card can ever need it" in advice.text


def test_with_every_card_known_it_follows_a_winning_line_without_detours() -> None:
    position = Position.initial(Deal.from_number(7), Rules(thoughtful=True))
    board, played = position.copy(), set()
    for _ in range(400):
        advice = advise(PlayerView.of(board), seed=0)
        if board.is_won():
            break
        assert advice.move is not None and advice.kind in (
            AdviceKind.KNOWN, AdviceKind.SAFE, AdviceKind.FORCED)
        board.apply(advice.move)
        assert position_key(board) not in played
        played.add(position_key(board))
    assert board.is_won()


def test_a_lost_known_position_says_so_and_names_no_move() -> None:
    # Deal 14 cannot be won at draw 3 even with every card known (92,180 nodes).
    position = Position.initial(Deal.from_number(14), Rules(draw=3, thoughtful=True))
    assert solve(position).result == "unsolvable"
    advice = advise(PlayerView.of(position), seed=0)
    assert advice.move is None and advice.kind is AdviceKind.NO_PROGRESS
    assert "lost" in advice.text


def test_cleaning_a_line_cuts_out_its_detours() -> None:
    position = Position.initial(Deal.from_number(7), Rules(draw=3))
    line = solve(position).moves
    # Insert detours: wherever a card could come back from its foundation,
    # bring it back and send it straight home again.
    board, padded, detours = position.copy(), [], 0
    for move in line:
        recall = next((m for m in board.legal_moves() if m.source.is_foundation), None)
        if recall is not None:
            padded += [recall, Move(recall.dest, recall.source, 1)]
            detours += 1
        padded.append(move)
        board.apply(move)
    assert detours > 5
    cleaned = clean_line(position, padded)
    assert len(cleaned) <= len(line)
    final = position.copy()
    for move in cleaned:
        assert move in final.legal_moves(), format_move(move)
        final.apply(move)
    assert final.is_won()


def test_an_advice_is_a_value() -> None:
    advice = Advice(None, "x", AdviceKind.NO_PROGRESS)
    assert advice == Advice(None, "x", AdviceKind.NO_PROGRESS)


@pytest.mark.parametrize(
    ("budget", "error"),
    [(float("inf"), ValueError), (float("nan"), ValueError), (0, ValueError),
     ("1", TypeError), (True, TypeError)],
)
def test_a_budget_that_is_no_finite_positive_number_is_refused_by_name(
    budget: object, error: type[Exception]
) -> None:
    view = PlayerView.of(Position.initial(Deal.from_number(1), Rules()))
    with pytest.raises(error, match="budget must be a"):
        advise(view, budget=budget)  # type: ignore[arg-type]
