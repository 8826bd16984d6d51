"""Hints, the progress check, auto finish, "still winnable?" and the review in
Klondike's relatives (docs/variants.md): fair, never stuck, never a crash."""

from __future__ import annotations

import random

import pytest

from bonanza.core import Card, Deal, Position, Rules
from bonanza.core.cards import RANK_COUNT
from bonanza.core.rules import StockMode
from bonanza.core.view import PlayerView
from bonanza.solver.advisor import SolverAdvisor
from bonanza.solver.fair import AdviceKind, advise, sample_layout
from bonanza.solver.fair_budget import GENERIC
from bonanza.solver.generic import sample_verdict
from bonanza.solver.progress import progress_possible
from bonanza.solver.review import review, still_winnable
from bonanza.solver.search import solve
from tests.core.hidden import shuffle_hidden
from tests.core.strategies import random_position
from tests.solver.variant_positions import (
    GAMES,
    random_play_position,
    small_variant_position,
    strict,
)

QUICK = 0.05
"""A hint budget (seconds) that keeps these tests quick."""
POSITIONS = 12
"""Positions per game for the fairness and "names a move" checks."""


def positions_in_play(game: str, count: int) -> list[Position]:
    """Random-play positions with hidden cards left and moves to choose from."""
    rules = Rules.preset(game)
    found: list[Position] = []
    seed = 0
    while len(found) < count:
        seed += 1
        position = random_position(seed, seed * 7 % 45, rules)
        if not PlayerView.of(position).is_known() and len(position.legal_moves()) > 1:
            found.append(position)
    return found


@pytest.mark.parametrize("game", GAMES)
def test_shuffling_the_hidden_cards_never_changes_a_variant_hint(game: str) -> None:
    chooser = random.Random(game)
    positions = positions_in_play(game, POSITIONS)
    twins = [shuffle_hidden(position, chooser) for position in positions]
    moved = sum(twin != position for twin, position in zip(twins, positions, strict=True))
    assert moved >= POSITIONS - 1  # the shuffles really moved hidden cards
    for number, pair in enumerate(zip(positions, twins, strict=True)):
        views = [PlayerView.of(board) for board in pair]
        assert views[0] == views[1]
        hints = {advise(view, budget=QUICK, seed=number) for view in views}
        assert len(hints) == 1


@pytest.mark.parametrize("game", GAMES)
def test_a_variant_hint_names_a_legal_move_unless_none_makes_progress(game: str) -> None:
    named = 0
    for number, position in enumerate(positions_in_play(game, POSITIONS)):
        advice = advise(PlayerView.of(position), budget=QUICK, seed=number)
        if advice.move is None:
            assert advice.kind is AdviceKind.NO_PROGRESS
            assert progress_possible(position) is False
        else:
            assert advice.move in position.legal_moves()
            assert advice.text
            named += 1
    assert named >= POSITIONS - 2


@pytest.mark.parametrize("game", GAMES)
def test_the_session_advisor_hints_from_the_deal(game: str) -> None:
    rules = Rules.preset(game)
    position = Position.initial(Deal.from_number(9, rules.decks), rules)
    hint = SolverAdvisor(budget=QUICK).hint(PlayerView.of(position))
    assert hint.move in position.legal_moves()
    assert SolverAdvisor().progress(position) is True  # the stock is unseen


def known_positions(game: str) -> list[Position]:
    """Small positions the player knows whole, as play can reach them: a card
    on each column and the rest on the waste, or in Easthaven (no waste, and
    deals land on anything) every card face up in the columns."""
    rules = Rules.preset(game)
    found = []
    for seed in range(12):
        dealt = rules.stock_mode is StockMode.EVERY_COLUMN
        position = small_variant_position(seed, rules, 10, face_up=dealt)
        for index, column in enumerate(position.tableau):
            if dealt:
                column += position.stock[index::rules.columns]
            else:
                position.waste += column[:-1]
                del column[:-1]
            position.down[index] = 0
        if not dealt:
            position.waste += position.stock
        position.stock = []
        found.append(position)
    return found


@pytest.mark.parametrize("game", GAMES)
def test_auto_finish_wins_a_known_won_variant_position(game: str) -> None:
    finished = 0
    for position in known_positions(game):
        view = PlayerView.of(position)
        assert view.is_known()
        line = SolverAdvisor().finish(view)
        if solve(position, node_limit=50_000).solved:
            assert line is not None
        if line is not None:
            assert position.wins_with(line)
            finished += 1
    assert finished >= 6


HEARTS = 2


def stuck(game: str, *, free: bool = False) -> Position:
    """Hearts home to the 4, every other card home; the 5♥ face down under the
    7♥, the 6♥ under the 8♥, the 9♥ under the J♥, the 10♥ under the Q♥, the K♥
    alone; Kings only into spaces and no recall: nothing can ever turn up.
    With ``free`` the 5♥ lies face up on the 7♥ instead: it goes home and the
    7♥ turns up."""
    rules = strict(game)
    homes = [RANK_COUNT] * rules.foundations
    homes[HEARTS] = 4
    first = ["7H", "5H"] if free else ["5H", "7H"]
    piles = [first, ["6H", "8H"], ["9H", "JH"], ["TH", "QH"], ["KH"]]
    tableau = [[Card.parse(text) for text in pile] for pile in piles]
    tableau += [[] for _ in range(rules.columns - len(tableau))]
    down = [len(column) - 1 if column else 0 for column in tableau]
    return Position(rules, tableau, down, [], [], homes)


@pytest.mark.parametrize("game", GAMES)
def test_the_progress_check_proves_a_stuck_variant_position(game: str) -> None:
    position = stuck(game)
    assert progress_possible(position) is False
    advice = advise(PlayerView.of(position), budget=QUICK)
    assert advice.move is None
    assert advice.kind is AdviceKind.NO_PROGRESS
    assert progress_possible(stuck(game, free=True)) is True


@pytest.mark.parametrize("game", GAMES)
def test_still_winnable_and_the_review_answer_in_every_game(game: str) -> None:
    rules = Rules.preset(game)
    positions = [Position.initial(Deal.from_number(4, rules.decks), rules)]
    chooser = random.Random(4)
    moves = []
    for _ in range(12):
        legal = positions[-1].legal_moves()
        if not legal:
            break
        move = chooser.choice(legal)
        after = positions[-1].copy()
        after.apply(move)
        moves.append(move)
        positions.append(after)
    assert still_winnable(positions[-1], time_limit=0.2) in ("winnable", "lost", "unknown")
    found = review(positions, moves, time_limit=0.2, total_limit=1.0)
    assert found.finding in ("lost_at", "still_winnable", "never_winnable", "unknown")
    assert found.text
    if found.line:
        assert found.index is not None
        assert positions[found.index].wins_with(found.line)


@pytest.mark.parametrize(("game", "least"), [("double-klondike", 0.8), ("double-klondike-3", 0.5)])
def test_a_double_klondike_hint_decides_most_of_its_layouts(game: str, least: float) -> None:
    """A hint learns from a layout only when its solve decides it (undecided
    scores ½ for every move). Early in a Double Klondike game, the layouts a
    hint samples are mostly decided within its cap (the C search with talon
    macros); with the plain search capped at 400 positions, as before, none
    were, and the hints shuffled cards until the move cap."""
    rules = Rules.preset(game)
    chooser = random.Random(5)
    verdicts: list[str] = []
    for _ in range(30):
        view = PlayerView.of(random_play_position(rules, chooser, range(10, 61)))
        for _ in range(4):
            layout = sample_layout(view, chooser)
            verdicts.append(sample_verdict(layout, GENERIC.sample_nodes)[0])
    decided = sum(answer != "unknown" for answer in verdicts) / len(verdicts)
    assert decided >= least, verdicts
