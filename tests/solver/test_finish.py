"""Auto finish by the solver: offered only when proven, always wins, cards home early."""

from __future__ import annotations

import random

from bonanza.core import Deal, Move, Position, Rules
from bonanza.session.autofinish import finish_plan
from bonanza.solver import solve
from bonanza.solver.finish import finish_line, first_finish_move, winning_line

THOUGHTFUL = [Rules(draw=1, thoughtful=True), Rules(draw=3, thoughtful=True)]
# Every card face up and the stock seen (one recycle made), under the standard rules.
KNOWN_TEXT = "KC/-/-/-/-/-/- jcqctc - 9KKK 1"


def replays_to_win(position: Position, line: list[Move]) -> bool:
    board = position.copy()
    for move in line:
        board.play(move)  # raises on an illegal move
    return board.is_won()


def late_positions(seed: int, count: int) -> list[Position]:
    """Thoughtful positions (every card known) met late in random playouts."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        rules = rng.choice(THOUGHTFUL)
        position = Position.initial(Deal.from_number(rng.randrange(2**32)), rules)
        for step in range(160):
            moves = position.legal_moves()
            if not moves:
                break
            home = [m for m in moves if m.dest.is_foundation]
            position.apply(rng.choice(home if home and rng.random() < 0.7 else moves))
            if step > 60 and rng.random() < 0.05:
                found.append(position.copy())
    return found[:count]


def test_the_finish_wins_from_every_proven_position_where_greedy_finishing_fails() -> None:
    won = greedy_fails = 0
    for position in late_positions(11, 150):
        line = finish_line(position)
        verdict = solve(position, node_limit=200_000).result
        if line is None:
            assert verdict != "solved" or position.is_won()
            continue
        assert verdict == "solved" and replays_to_win(position, line)
        won += 1
        greedy_fails += finish_plan(position) is None
    assert won >= 30 and greedy_fails >= 20  # the old finish would not have been offered


def test_cards_go_home_earlier_than_on_the_plain_solver_line() -> None:
    earlier = 0
    for position in late_positions(12, 60):
        plain, finish = winning_line(position), finish_line(position)
        if plain is None or finish is None:
            continue
        assert replays_to_win(position, finish) and len(finish) == len(plain)

        def delay(line: list[Move]) -> int:  # how late, in all, the cards go home
            return sum(i for i, move in enumerate(line) if move.dest.is_foundation)

        assert delay(finish) <= delay(plain)
        earlier += delay(finish) < delay(plain)
    assert earlier >= 10


def test_a_known_position_with_its_stock_seen_is_finished() -> None:
    position = Position.from_text(KNOWN_TEXT, Rules())
    line = finish_line(position)
    assert line is not None and replays_to_win(position, line)
    assert first_finish_move(position) == line[0]


def test_no_finish_while_a_card_is_unseen_or_the_deal_is_lost() -> None:
    unseen = Position.from_text("KC/-/-/-/-/-/- jcqctc - 9KKK 0", Rules())
    assert finish_line(unseen) is None  # the stock has not been seen
    start = Position.initial(Deal.from_number(7), Rules())
    assert finish_line(start) is None  # cards face down
    lost = Position.from_text(
        "tdJD/KH/KC/KS/QD/KD/- - - Q9QQ 0", Rules(recall=False, thoughtful=True)
    )
    assert solve(lost).result == "unsolvable" and finish_line(lost) is None
