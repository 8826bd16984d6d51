"""``solve`` replays every winning line in the engine, one move's legality at
a time (``Position.is_legal``), not by making every legal move at each step
(which was most of ``solve``'s time on a median deal)."""

from __future__ import annotations

import pytest

from bonanza.core import Deal, Position, Rules
from bonanza.core.moves import Move, Pile
from bonanza.solver import solve
from bonanza.solver.search import SolverError, _check_win


def test_the_replay_makes_no_list_of_legal_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    position = Position.initial(Deal.from_number(3), Rules(thoughtful=True))
    result = solve(position, shorten=False)
    assert result.solved

    def refused(self: Position) -> list[Move]:
        raise AssertionError("the replay made every legal move")

    monkeypatch.setattr(Position, "legal_moves", refused)
    _check_win(position, result.moves)


def test_an_illegal_or_unfinished_line_is_still_refused() -> None:
    position = Position.initial(Deal.from_number(3), Rules(thoughtful=True))
    moves = solve(position, shorten=False).moves
    with pytest.raises(SolverError, match="is illegal"):
        _check_win(position, [Move(Pile.T1, Pile.T1, 1), *moves])
    with pytest.raises(SolverError, match="ends unwon"):
        _check_win(position, moves[:-1])
