"""A hint names a moved run plainly ("and the card on it", "and the 2 cards on it"), and
says when a move is a gamble on the card it turns up."""

from __future__ import annotations

import random

from bonanza.core import Deal, Game, Move, Rules
from bonanza.core.position import Position
from bonanza.solver.explain import GAMBLE_SHARE, action, sampled
from bonanza.solver.quiet import turns_up

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


def first_move(position_moves: list[tuple[Move, Position]], turning: bool) -> tuple[Move, Position]:
    """A tableau move that turns up a hidden card (``turning``) or one that does not."""
    return next((m, p) for m, p in position_moves if turns_up(p, m) == turning)


def test_a_move_that_turns_up_a_card_and_often_loses_is_called_a_gamble() -> None:
    rng = random.Random(5)
    seen: list[tuple[Move, Position]] = []
    for number in range(1, 40):
        game = Game(Deal.from_number(number), Rules())
        for _ in range(40):
            legal = game.legal_moves()
            if not legal:
                break
            seen += [(m, game.position.copy()) for m in legal if m.source.is_tableau]
            game.play(rng.choice(legal))
    turning, plain = first_move(seen, True), first_move(seen, False)
    risky = sampled(*turning, wins=GAMBLE_SHARE - 15, samples=100)
    assert risky.endswith(
        f". A gamble: the card it turns up decides, and it wins in {GAMBLE_SHARE - 15} % of "
        "100 layouts that fit what you have seen."
    )
    assert ": it turns up a card in column " in risky
    likely = sampled(*turning, wins=GAMBLE_SHARE, samples=100)
    assert "gamble" not in likely and f"Wins in {GAMBLE_SHARE} % of 100 layouts" in likely
    unturned = sampled(*plain, wins=10, samples=100)
    assert "gamble" not in unturned and "Wins in 10 % of 100 layouts" in unturned
