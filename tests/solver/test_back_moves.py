"""The fair hint does not move cards straight back where they were, around a few draws.

``data/back_moves.tsv`` holds games played by the hints of commit 1a252b4
(the play-strength runs of seed 2024), each up to the move where the hint
then moved a run back, putting the columns and foundations as they had been
while the stock and waste held the same cards. Such a move gains nothing,
and in 13 of 198 draw-1 runs it went on until the move cap.
"""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest

from bonanza.cli.autoplay import move_seed
from bonanza.core.notation import format_move, parse_move
from bonanza.core.view import PlayerView
from bonanza.solver import fair
from tests.solver.recorded import RUN_SEED, moments, session_after

CASES = Path(__file__).parent / "data" / "back_moves.tsv"


def view_after(draw: int, deal: str, played: list[str]) -> PlayerView:
    return session_after(draw, deal, played).view()


@pytest.mark.parametrize(("draw", "deal", "played", "back"), moments(CASES),
                         ids=lambda value: str(value)[:20])
def test_where_the_old_hint_moved_a_run_back_the_hint_now_plays_on(
    draw: int, deal: str, played: list[str], back: str
) -> None:
    view = view_after(draw, deal, played)
    seed = move_seed(RUN_SEED, deal, len(played))
    advice = fair.advise(view, seed=seed)
    assert advice.move is not None
    assert format_move(advice.move) != back
    layout = view.layout(sorted(view.unseen))
    *_, moving_back = fair._useful_moves(view, layout)
    assert advice.move not in moving_back
    assert parse_move(back, layout) in moving_back
    # Without the rule, the same hint moves back: the rule is what decided it.
    with mock.patch.object(fair, "_back_moves", lambda *_: frozenset()):
        old = fair.advise(view, seed=seed).move
    assert old is not None and format_move(old) == back


def test_draws_are_never_moves_back_and_nothing_is_without_a_history() -> None:
    draw, deal, played, back = moments(CASES)[0]
    view = view_after(draw, deal, played)
    layout = view.layout(sorted(view.unseen))
    *_, moving_back = fair._useful_moves(view, layout)
    assert parse_move(back, layout) in moving_back
    assert not any(move.is_draw or move.is_recycle for move in moving_back)
    # With no earlier positions, nothing is a move back.
    fresh = PlayerView(view.rules, view.tableau, view.down, view.stock, view.waste,
                       view.foundations, view.recycles)
    assert not fair._useful_moves(fresh, layout)[3]
