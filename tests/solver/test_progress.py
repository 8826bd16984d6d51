"""Dead ends: no moves, and no progress possible."""

from __future__ import annotations

from bonanza.core import Deal, Position, Rules
from bonanza.solver.progress import progress_possible
from bonanza.solver.quiet import is_known
from tests.core.tables import table

BLOCKED_COLUMNS = ["jh KS", "qh KC", "kh QS", "jd JS", "qd JC", "kd TS", "TC"]


def test_no_moves_is_no_progress() -> None:
    blocked = table(BLOCKED_COLUMNS, waste="9S 9C TH TD QC", rules=Rules(passes=1, recall=False))
    assert not blocked.has_moves()
    assert progress_possible(blocked) is False


def test_moves_that_lead_nowhere_are_no_progress() -> None:
    # With recall, 9H and 9D can come down onto the black tens and go back up,
    # but nothing they allow turns a card up.
    shuffling = table(BLOCKED_COLUMNS, waste="9S 9C TH TD QC", rules=Rules(passes=1, recall=True))
    assert shuffling.has_moves()
    assert progress_possible(shuffling) is False


def test_a_reachable_face_down_card_is_progress() -> None:
    position = Position.initial(Deal.from_number(7), Rules())
    assert progress_possible(position) is True


def test_an_unseen_stock_card_is_progress() -> None:
    position = table(BLOCKED_COLUMNS, stock="9S", waste="9C TH TD QC", rules=Rules(recall=False))
    assert progress_possible(position) is True


def test_once_all_is_known_progress_means_winnable() -> None:
    won_soon = table(["KS", "KH", "KD", "KC"], rules=Rules())
    assert is_known(won_soon) and progress_possible(won_soon) is True
    # Thoughtful: every card known. 9H and 9D can come down and go back up,
    # but the buried cards never come free: lost.
    rules = Rules(passes=1, recall=True, thoughtful=True)
    lost = table(BLOCKED_COLUMNS, waste="9S 9C TH TD QC", rules=rules)
    assert is_known(lost) and lost.has_moves()
    assert progress_possible(lost) is False


def test_the_node_cap_says_nothing() -> None:
    # A seen 9H can be drawn and moved about, but nothing it allows turns a card up:
    # a dead end that takes more than one position to prove.
    rules = Rules(passes=2, recall=False)
    position = table(BLOCKED_COLUMNS, stock="9H", waste="9S 9C TH TD QC", rules=rules, recycles=1)
    assert progress_possible(position, node_limit=1) is None
    assert progress_possible(position) is False
