"""Small positions whose verdict depends on one rule option, checked both ways.

Each fixture is decided by the solver and, where the position is small
enough, by the brute-force reference (every legal move, no pruning).
"""

from __future__ import annotations

import dataclasses

import pytest

from bonanza.core import EmptyColumn, Position, Rules
from bonanza.solver import solve
from tests.solver.brute import winnable

NO_RECALL = Rules(recall=False)
ANY = EmptyColumn.ANY

# (name, position text, rules, expected verdict, brute-force checkable)
FIXTURES = [
    # A jack of diamonds covers the ten; the only black queens are home.
    ("recall", "tdJD/KH/KC/KS/QD/KD/- - - Q9QQ 0", Rules(), "solved", False),
    ("no recall", "tdJD/KH/KC/KS/QD/KD/- - - Q9QQ 0", NO_RECALL, "unsolvable", True),
    ("no recall, any to empty", "tdJD/KH/KC/KS/QD/KD/- - - Q9QQ 0",
     dataclasses.replace(NO_RECALL, empty_column=ANY), "solved", True),
    # The ten of clubs comes out last: the jack must wait for a second pass.
    ("unlimited passes", "KC/-/-/-/-/-/- jcqctc - 9KKK 0", NO_RECALL, "solved", True),
    ("one pass", "KC/-/-/-/-/-/- jcqctc - 9KKK 0",
     dataclasses.replace(NO_RECALL, passes=1), "unsolvable", True),
    ("one pass, any to empty", "KC/-/-/-/-/-/- jcqctc - 9KKK 0",
     dataclasses.replace(NO_RECALL, passes=1, empty_column=ANY), "solved", True),
    ("two passes", "KC/-/-/-/-/-/- jcqctc - 9KKK 0",
     dataclasses.replace(NO_RECALL, passes=2), "solved", True),
    # The eight of hearts must leave the nine of spades alone (or, with
    # recall, the jack of diamonds can take the ten of spades).
    ("partial runs", "9S8H/9C/jh7hTS/-/-/-/- tcjcqckc9hthqhkhjsqsks - 8K68 0",
     NO_RECALL, "solved", True),
    ("whole runs", "9S8H/9C/jh7hTS/-/-/-/- tcjcqckc9hthqhkhjsqsks - 8K68 0",
     dataclasses.replace(NO_RECALL, partial_runs=False), "unsolvable", True),
    ("whole runs, recall", "9S8H/9C/jh7hTS/-/-/-/- tcjcqckc9hthqhkhjsqsks - 8K68 0",
     Rules(partial_runs=False), "solved", False),
    # Found by comparing rule variants on random endgames.
    ("draw 1", "-/JC/jdkcqcqhTC/qsksJH/-/-/KH kdthqd - 9T9J 0", NO_RECALL, "solved", True),
    ("draw 3", "-/JC/jdkcqcqhTC/qsksJH/-/-/KH kdthqd - 9T9J 0",
     dataclasses.replace(NO_RECALL, draw=3), "unsolvable", True),
    ("draw 3, two passes", "-/JC/jdkcqcqhTC/qsksJH/-/-/KH kdthqd - 9T9J 0",
     dataclasses.replace(NO_RECALL, draw=3, passes=2), "unsolvable", True),
    ("king to empty", "-/JH/ks7D/-/JD/jc6d8D/KD khkcqc9dqh QDTD T5TQ 0", NO_RECALL,
     "unsolvable", True),
    ("any to empty", "-/JH/ks7D/-/JD/jc6d8D/KD khkcqc9dqh QDTD T5TQ 0",
     dataclasses.replace(NO_RECALL, empty_column=ANY), "solved", True),
]


@pytest.mark.parametrize(("name", "text", "rules", "expected", "brute"), FIXTURES,
                         ids=[fixture[0] for fixture in FIXTURES])
def test_fixture(name: str, text: str, rules: Rules, expected: str, brute: bool) -> None:
    position = Position.from_text(text, rules)
    result = solve(position)
    assert result.result == expected, name
    if expected == "solved":
        board = position.copy()
        for move in result.moves:
            board.play(move)
        assert board.is_won()
        assert result.moves
    else:
        assert result.moves == []
    assert result.nodes >= 1
    assert result.limit is None


BRUTE_FIXTURES = [fixture for fixture in FIXTURES if fixture[4]]


@pytest.mark.python_bound
@pytest.mark.parametrize(("name", "text", "rules", "expected"),
                         [fixture[:4] for fixture in BRUTE_FIXTURES],
                         ids=[fixture[0] for fixture in BRUTE_FIXTURES])
def test_fixture_by_brute_force(name: str, text: str, rules: Rules, expected: str) -> None:
    """The brute-force search, with no pruning at all, gives the fixture's verdict too."""
    assert winnable(Position.from_text(text, rules)) == (expected == "solved"), name
