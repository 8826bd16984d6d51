"""How a sampled hint chooses among the moves it tried (``fair_choice.choose``)."""

from __future__ import annotations

import random

from bonanza.core import Move, Position, Rules
from bonanza.core.view import PlayerView
from bonanza.solver.fair_budget import COMPILED, Sampling
from bonanza.solver.fair_choice import Candidate, Rule, choose, is_close
from tests.core.strategies import random_position

LAYOUTS = 64


class _Spent:
    """A node budget that only counts."""

    def __init__(self) -> None:
        self.sampling: Sampling = COMPILED
        self.nodes = 0

    def spend(self, nodes: int) -> None:
        self.nodes += nodes

    @property
    def spent(self) -> bool:
        return False  # it only counts: never runs out

    def cap(self, most: int) -> int:
        return most


def _position_with_moves(count: int) -> tuple[Position, list[Move]]:
    seed = 0
    while True:
        seed += 1
        position = random_position(seed, seed % 40, Rules(draw=3))
        moves = position.legal_moves()
        if len(moves) >= count and not PlayerView.of(position).is_known():
            return position, moves[:count]


def _candidate(move: Move, wins: int, votes: int, rng: random.Random) -> Candidate:
    scores = [1.0] * wins + [0.0] * (LAYOUTS - wins)
    rng.shuffle(scores)
    return Candidate(move, (0,), scores, votes)


def test_a_move_within_noise_of_the_best_is_chosen_by_the_solvers_plan() -> None:
    position, (better, voted) = _position_with_moves(2)
    rng = random.Random(1)
    leader = _candidate(better, 40, 0, rng)
    trailing = _candidate(voted, 38, 50, rng)
    assert is_close(leader, trailing)
    chosen, rule = choose([leader, trailing], position, {}, frozenset(), _Spent())
    assert (chosen.move, rule) == (voted, Rule.VOTES)
    # Clearly behind, its votes do not count.
    behind = _candidate(voted, 20, 50, rng)
    assert not is_close(leader, behind)
    chosen, rule = choose([leader, behind], position, {}, frozenset(), _Spent())
    assert (chosen.move, rule) == (better, Rule.SCORE)


def test_moves_that_scored_the_same_go_to_the_solvers_plan() -> None:
    position, (first, planned) = _position_with_moves(2)
    scores = [1.0] * 40 + [0.0] * 24
    tied = [Candidate(first, (0,), list(scores), 3), Candidate(planned, (0,), list(scores), 30)]
    chosen, rule = choose(tied, position, {}, frozenset(), _Spent())
    assert (chosen.move, rule) == (planned, Rule.VOTES)


def test_a_move_back_gives_way_to_one_within_noise_that_does_not() -> None:
    position, (back, away) = _position_with_moves(2)
    rng = random.Random(2)
    leader = _candidate(back, 40, 0, rng)
    other = _candidate(away, 38, 0, rng)
    chosen, rule = choose([leader, other], position, {}, frozenset({back}), _Spent())
    assert (chosen.move, rule) == (away, Rule.SCORE)
    # Clearly best, it is played all the same.
    clearly = _candidate(away, 10, 0, rng)
    chosen, _ = choose([leader, clearly], position, {}, frozenset({back}), _Spent())
    assert chosen.move == back
