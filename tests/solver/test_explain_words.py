"""A hint names a moved run plainly: "and the card on it", "and the 2 cards on it"."""

from __future__ import annotations

import random

from bonanza.core import Deal, Game, Move, Rules
from bonanza.core.position import Position
from bonanza.solver.explain import action

GAMES = 300
MOVES = 120


def runs_moved(sizes: set[int]) -> dict[int, tuple[Move, Position]]:
    """A move of a run of each size in ``sizes`` between columns, from random games."""
    rng = random.Random(11)
    found: dict[int, tuple[Move, Position]] = {}
    for number in range(1, GAMES):
        game = Game(Deal.from_number(number), Rules())
        for _ in range(MOVES):
            legal = game.legal_moves()
            if not legal:
                break
            for move in legal:
                if move.source.is_tableau and move.dest.is_tableau and move.count in sizes:
                    found.setdefault(move.count, (move, game.position.copy()))
            if len(found) == len(sizes):
                return found
            game.play(rng.choice(legal))
    return found


def test_a_run_is_said_with_the_number_of_cards_on_its_first() -> None:
    found = runs_moved({1, 2, 3})
    assert set(found) == {1, 2, 3}
    one, two, three = (action(*found[size]) for size in (1, 2, 3))
    assert " and the" not in one
    assert " and the card on it " in two and "1 card" not in two
    assert " and the 2 cards on it " in three
