"""Rule 8's dead-end test is not made where its answer is known by proof.

After a card is sent home, or put on a column, from a position that passed
the test, and the card is free again at once (``reach_kept`` in
``search_dead_ends.h``, with the proof), the search skips rule 8's
relaxation. ``Sides.CHECK_SKIPS`` makes the skipped tests too, and drops what
they drop: a skipped test that would have dropped a position is the fault,
and it would also make the two searches differ. These tests make the skips
happen by the hundred thousand, under random rules (recall on and off, any
card or only kings in spaces, draw 1 and 3, few passes or unlimited, partial
runs or not) and at Klondike's own.
"""

from __future__ import annotations

import random
from types import ModuleType

from bonanza.core import Deal, Position, Rules
from bonanza.solver import Sides, solve
from tests.benchmark_script import load

NODES = 20_000
POSITIONS = 1500
DEALS = 100
CHECKED = Sides.DEFAULT | Sides.CHECK_SKIPS


def _harness() -> ModuleType:
    return load("soundness", "soundness_harness")


def _skips(position: Position) -> tuple[int, int]:
    """(tests skipped after a card sent home, after one put on a column) in
    one search of ``position``, which must equal the search that makes them."""
    plain = solve(position, node_limit=NODES, shorten=False)
    checked = solve(position, node_limit=NODES, shorten=False, sides=CHECKED)
    assert checked.reach_wrong == 0, position.to_text()
    assert (checked.result, checked.nodes, checked.states, checked.moves) \
        == (plain.result, plain.nodes, plain.states, plain.moves), position.to_text()
    assert checked.reach_known == plain.reach_known
    assert plain.reach_wrong == 0
    return plain.reach_known["home"], plain.reach_known["column"]


def test_no_skipped_test_would_have_dropped_a_position() -> None:
    harness = _harness()
    rng = random.Random(2612)
    home = column = positions_home = positions_column = 0
    for _ in range(POSITIONS):
        sent, put = _skips(harness.random_position(rng))
        home += sent
        column += put
        positions_home += sent > 0
        positions_column += put > 0
    for draw in (1, 3):
        for _ in range(DEALS):
            deal = Deal.from_number(rng.getrandbits(64))
            sent, put = _skips(Position.initial(deal, Rules(draw=draw, thoughtful=True)))
            home += sent
            column += put
    # (Seed 2612: 53,048 tests skipped after a card sent home, in 257
    # positions; 113,741 after one put on a column, in 531.)
    assert home > 40_000, home
    assert column > 90_000, column
    assert positions_home > 200, positions_home
    assert positions_column > 400, positions_column


def test_no_test_is_skipped_where_the_stock_deals() -> None:
    harness = _harness()
    rng = random.Random(5)
    for _ in range(40):
        position = harness.random_position(rng, "easthaven")
        result = solve(position, node_limit=NODES, shorten=False)
        assert result.reach_known == {"home": 0, "column": 0}
