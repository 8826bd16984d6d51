"""Differential checks of one pruning rule, shared by the rules' tests: small
positions against the brute force, and any positions against the search
without the rule. Each counts the positions where the rule fired."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Iterator

from bonanza.core import Deal, Position, Rules
from bonanza.solver import Prune, Sides, solve
from tests.solver.brute import winnable

BRUTE_NODES = 200_000
"""The solver's node limit on a small position (it decides every one)."""


@dataclasses.dataclass
class Tally:
    """What a check met: positions decided (by both sides), positions where
    the rule fired, positions lost, and the disagreements, spelled out."""

    decided: int = 0
    fired: int = 0
    lost: int = 0
    firings: int = 0
    wrong: list[str] = dataclasses.field(default_factory=list)


def against_brute_force(positions: Iterable[Position], rule: Prune, limit: int) -> Tally:
    """The solver's verdict on each position against the brute force's, which
    stores at most ``limit`` positions (a larger case is left out)."""
    tally = Tally()
    for position in positions:
        try:
            truth = winnable(position, limit)
        except RuntimeError:  # too large for the brute force
            continue
        tally.decided += 1
        result = solve(position, node_limit=BRUTE_NODES, shorten=False)
        assert result.result != "unknown"
        if (result.result == "solved") != truth:
            tally.wrong.append(f"{position.rules.to_text()} {position.to_text()}: "
                               f"{result.result}")
        tally.fired += result.fired[rule] > 0
        tally.lost += not truth
    return tally


def against_the_search_without(positions: Iterable[Position], rule: Prune, nodes: int) -> Tally:
    """The default search's verdict on each position against the one without
    ``rule``, each up to ``nodes`` (``decided``: by both)."""
    tally = Tally()
    for position in positions:
        with_rule = solve(position, node_limit=nodes, shorten=False)
        without = solve(position, node_limit=nodes, shorten=False, prune=Prune.ALL & ~rule)
        assert without.fired[rule] == 0
        tally.fired += with_rule.fired[rule] > 0
        if "unknown" in (with_rule.result, without.result):
            continue
        tally.decided += 1
        tally.lost += with_rule.result == "unsolvable"
        if with_rule.result != without.result:
            tally.wrong.append(f"{position.rules.to_text()} {position.to_text()}: "
                               f"with {with_rule.result}, without {without.result}")
    return tally


RANDOM_MOVES = 40
"""The most random moves played from a deal by ``random_positions``."""


def random_positions(seed: int, count: int) -> Iterator[Position]:
    """``count`` positions of random deals after a few random moves, draw 1 and
    3 in turn, any recall and runs rule (the soundness harness's walk)."""
    from tests.solver.test_soundness import _harness  # (it loads a benchmark script)

    rng = random.Random(seed)
    for index in range(count):
        rules = Rules(draw=(1, 3)[index % 2], recall=rng.random() < 0.75,
                      partial_runs=rng.random() < 0.8)
        start = Position.initial(Deal.from_number(rng.getrandbits(64)), rules)
        position: Position = _harness().play_randomly(start, rng, RANDOM_MOVES)
        yield position


def where_it_fires_everywhere(positions: Iterable[Position], rule: Prune, everywhere: Sides,
                              nodes: int) -> Tally:
    """Each position searched with ``rule`` made at every test (``everywhere``)
    and, where it fired (``fired`` searches, ``firings`` in all), without it,
    each up to ``nodes`` (``decided``: by both)."""
    tally = Tally()
    for position in positions:
        with_rule = solve(position, node_limit=nodes, shorten=False, sides=everywhere)
        if not with_rule.fired[rule]:
            continue
        tally.fired += 1
        tally.firings += with_rule.fired[rule]
        without = solve(position, node_limit=nodes, shorten=False, prune=Prune.ALL & ~rule)
        if "unknown" in (with_rule.result, without.result):
            continue
        tally.decided += 1
        tally.lost += with_rule.result == "unsolvable"
        if with_rule.result != without.result:
            tally.wrong.append(f"{position.rules.to_text()} {position.to_text()}: "
                               f"with {with_rule.result}, without {without.result}")
    return tally


def assert_won_only_with(numbers: Iterable[int], rules: Rules, rule: Prune, nodes: int,
                         nodes_without: int) -> None:
    """Each deal is won within ``nodes`` with ``rule`` (firing, the line replayed),
    and unknown at ``nodes_without`` without it."""
    for number in numbers:
        deal = Deal.from_number(number, rules.decks)
        with_rule = solve(deal, rules, node_limit=nodes, shorten=False)
        without = solve(deal, rules, node_limit=nodes_without, shorten=False,
                        prune=Prune.ALL & ~rule)
        assert with_rule.result == "solved", number
        assert Position.initial(deal, rules).wins_with(with_rule.moves)
        assert with_rule.fired[rule] >= 1
        assert without.result == "unknown" and without.fired[rule] == 0, number
