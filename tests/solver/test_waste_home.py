"""With draw 3, a card "safe" to send home is not safe to take off the waste.

``data/waste_home_draw3.tsv`` holds draw-3 games played by the hints of
commit 461f348 (the play-strength run of seed 2024), each up to the move
where the hint sent a never-needed card (an ace, once) home off the waste
without sampling, as a safe move. Taking a card off the waste changes which
cards later draws turn up: in each game the exact solver wins the position
before that move and proves it lost after, so the hint threw the deal away.
Now such a move is sampled, and the hint plays on. It is still chosen where
it scores within noise of the best move: it clears the waste and can never
block the tableau, so it comes before the solver's plan among near-ties.
"""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest

from bonanza.cli.autoplay import move_seed
from bonanza.core import Position, Rules
from bonanza.core.notation import format_move, parse_move
from bonanza.core.safety import is_safe_move_home, safe_move_home
from bonanza.solver import fair
from bonanza.solver.search import solve
from tests.solver.recorded import RUN_SEED, moments, session_after

CASES = Path(__file__).parent / "data" / "waste_home_draw3.tsv"


@pytest.mark.parametrize(("draw", "deal", "played", "home"), moments(CASES),
                         ids=lambda value: str(value)[:20])
def test_the_hint_no_longer_throws_a_draw_3_deal_away_off_the_waste(
    draw: int, deal: str, played: list[str], home: str
) -> None:
    session = session_after(draw, deal, played)
    position = session.position
    move = parse_move(home, position)
    after = position.copy()
    after.apply(move)
    assert solve(position).result == "solved"
    assert solve(after).result == "unsolvable"  # a proof: that move lost the deal
    assert not is_safe_move_home(position, move)
    advice = fair.advise(session.view(), seed=move_seed(RUN_SEED, deal, len(played)))
    assert advice.kind is not fair.AdviceKind.SAFE
    assert advice.move is not None and format_move(advice.move) != home


def test_the_same_card_off_the_waste_is_safe_with_draw_1() -> None:
    """The rule is about the draw: with draw 1 every card turns up on each pass."""
    position = _waste_ace(draw=3)
    move = parse_move("wf", position)
    assert not is_safe_move_home(position, move) and safe_move_home(position) is None
    same = _waste_ace(draw=1)
    assert is_safe_move_home(same, parse_move("wf", same))
    assert safe_move_home(same) == parse_move("wf", same)


def _waste_ace(draw: int) -> Position:
    """Deal 4775464889056209364 where the hint sent the ace of hearts home off the waste."""
    draw_3, deal, played, _ = moments(CASES)[0]
    position = session_after(draw_3, deal, played).position
    return Position.from_text(position.to_text(), Rules(draw=draw))


# Deals of the 461f348 run where the waste card went home and the game was
# won, and the hint without that move would draw or move a column card instead.
CLOSE_CALLS = [
    ("13346493494674717350", ["13", "sw", "sw"]),
    ("2563467838154489945", ["23", "sw", "sw", "sw", "w2"]),
]


@pytest.mark.parametrize(("deal", "played"), CLOSE_CALLS)
def test_a_waste_card_that_scores_with_the_best_still_goes_home(
    deal: str, played: list[str]
) -> None:
    session = session_after(3, deal, played)
    view, seed = session.view(), move_seed(RUN_SEED, deal, len(played))
    advice = fair.advise(view, seed=seed)
    assert advice.kind is fair.AdviceKind.SAMPLED
    assert advice.move is not None and format_move(advice.move) == "wf"
    # Without the rule, the solver's plan or a draw decides instead.
    with mock.patch.object(fair, "_is_unneeded_home", lambda *_: False):
        other = fair.advise(view, seed=seed)
    assert other.move is not None and format_move(other.move) != "wf"
