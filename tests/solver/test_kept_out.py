"""Rule 12's kept-out set is not in the transposition table's key.

A position reached along two paths may have different cards kept out (a card
recalled onto a card stays out while it tops its column), and the entry the
first arrival stored answers for the second. The proof that this is sound is
at ``top_goes_home`` (search_safe.h). These tests make such hits happen by
the thousand (``Sides.KEPT_HITS`` counts them without changing the search)
and compare the verdicts with a search that keys the kept-out set
(``Sides.KEPT_KEYED``, which never shares) and with rule 12 off; any decided
pair that differs, or a proven-winnable position called lost, would be the
fault.
"""

from __future__ import annotations

import dataclasses
import random
from types import ModuleType

from bonanza.core import Deal, Position, Rules
from bonanza.solver import Prune, Sides, solve
from tests.benchmark_script import load

NODES = 20_000
DEALS = 100
POSITIONS = 1500
LINES = 40
LINE_STEP = 4
KEPT_HITS = Sides.DEFAULT | Sides.KEPT_HITS
KEYED = Sides.DEFAULT | Sides.KEPT_KEYED
NO_RULE_12 = Prune.ALL & ~Prune.NEARLY_SAFE


def _harness() -> ModuleType:
    return load("soundness", "soundness_harness")


def _recall_position(rng: random.Random, harness: ModuleType) -> Position:
    """A random position under random rules with recall on (rule 12's rules)."""
    position: Position = harness.random_position(rng)
    position.rules = dataclasses.replace(position.rules, recall=True)
    return position


def test_counting_the_hits_leaves_the_search_as_it_is() -> None:
    hits = 0
    for number in range(1, 21):
        for draw in (1, 3):
            rules = Rules(draw=draw, thoughtful=True)
            plain = solve(Deal.from_number(number), rules, node_limit=NODES, shorten=False)
            counted = solve(Deal.from_number(number), rules, node_limit=NODES, shorten=False,
                            sides=KEPT_HITS)
            assert (counted.result, counted.nodes, counted.states, counted.moves) \
                == (plain.result, plain.nodes, plain.states, plain.moves)
            assert plain.kept_hits == 0
            hits += counted.kept_hits
    assert hits > 1000


def _compare(position: Position, known: str | None) -> tuple[int, int, list[str]]:
    """(kept hits, decided comparisons, disagreements) for one position."""
    shared = solve(position, node_limit=NODES, sides=KEPT_HITS, shorten=False)
    keyed = solve(position, node_limit=NODES, sides=KEYED, shorten=False)
    without = solve(position, node_limit=NODES, prune=NO_RULE_12, shorten=False)
    verdicts: dict[str, str] = {name: result.result for name, result in
                (("shared", shared), ("keyed", keyed), ("no rule 12", without))
                if result.result != "unknown"}
    if known:
        verdicts["known"] = known
    decided = set(verdicts.values())
    wrong = [] if len(decided) <= 1 else [f"{position.rules.to_text()} {position.to_text()}: "
                                          f"{verdicts}"]
    return shared.kept_hits, max(len(verdicts) - 1, 0), wrong


def test_verdicts_agree_with_the_kept_out_set_keyed_and_with_rule_12_off() -> None:
    harness = _harness()
    rng = random.Random(1233)
    hits = compared = positions_hit = 0
    wrong: list[str] = []

    def add(position: Position, known: str | None = None) -> None:
        nonlocal hits, compared, positions_hit
        found, decided, disagreements = _compare(position, known)
        hits += found
        positions_hit += found > 0
        compared += decided
        wrong.extend(disagreements)

    for _ in range(DEALS):
        add(Position.initial(Deal.from_number(rng.getrandbits(64)), harness.game_rules("klondike")))
    for _ in range(POSITIONS):
        add(_recall_position(rng, harness))
    for _ in range(LINES):
        # Every position of a proven win is winnable: "unsolvable" there is the fault.
        start = Position.initial(Deal.from_number(rng.getrandbits(64)),
                                 Rules(draw=rng.choice((1, 3)), thoughtful=True))
        won = solve(start, node_limit=200_000, prune=Prune.NONE, sides=Sides.NONE,
                    shorten=False)
        board = start.copy()
        for number, move in enumerate(won.moves if won.solved else []):
            if number % LINE_STEP == 0:
                add(board.copy(), "solved")
            board.apply(move)
    assert wrong == []
    # (Seed 1233: 2,885 positions, 6,857 decided comparisons, 246 positions
    # with such hits, 123,491 hits; before rule 18, which decides many
    # draw-3 positions in fewer nodes, 6,798, 377 and 167,862.)
    assert compared > 6000
    assert positions_hit > 200
    assert hits > 100_000
