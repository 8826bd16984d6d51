"""The generic search (``solver/generic.py``): exact, and in agreement with
the C core and with a brute force that merges no positions."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bonanza.core import Deal, EmptyColumn, Position, Rules
from bonanza.solver import solve
from bonanza.solver.generic import position_key, search
from tests.core.strategies import random_position
from tests.solver import brute
from tests.solver.variant_positions import GAMES, small_variant_position, strict

KLONDIKE_RULES = (
    Rules(),
    Rules(draw=3),
    Rules(draw=1, passes=1, recall=False),
    Rules(draw=3, passes=2, empty_column=EmptyColumn.ANY),
    Rules(draw=3, passes=1, recall=False, partial_runs=False),
)
BRUTE_LIMIT = 300_000
"""Positions the brute force may store: enough for the small positions here."""
GENERIC_NODES = 400_000


def test_the_generic_search_agrees_with_the_c_core_on_klondike() -> None:
    """300 small endgames (6 to 9 cards out, of one or two suits), 60 under
    each of five rule sets: equal verdicts, and every win replays."""
    verdicts = {"solved": 0, "unsolvable": 0}
    for rules in KLONDIKE_RULES:
        for seed in range(60):
            position = small_variant_position(seed, rules, 6 + seed % 4, suits=1 + seed % 2)
            generic = search(position, node_limit=GENERIC_NODES)
            core = solve(position, node_limit=GENERIC_NODES)
            assert generic.result == core.result, f"{rules}: {position.to_text()}"
            verdicts[generic.result] += 1
            if generic.solved:
                assert position.wins_with(generic.moves)
    assert min(verdicts.values()) >= 20  # both verdicts were compared


def test_the_generic_search_finishes_klondike_deals_the_c_core_solved() -> None:
    """The last 40 moves of the C core's winning lines of deals 1-20, draw 1 and 3."""
    compared = 0
    for number in range(1, 21):
        rules = Rules(draw=1 + 2 * (number % 2))
        start = Position.initial(Deal.from_number(number), rules)
        proof = solve(start, node_limit=2_000_000)
        if not proof.solved:
            continue
        for move in proof.moves[:-40]:
            start.apply(move)
        generic = search(start, node_limit=GENERIC_NODES)
        assert generic.solved
        assert start.wins_with(generic.moves)
        compared += 1
    assert compared >= 15


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES), st.integers(0, 10**6), st.integers(4, 8), st.integers(1, 2))
def test_the_generic_search_agrees_with_a_brute_force_on_every_game(
    game: str, seed: int, loose: int, suits: int
) -> None:
    """Both verdicts; a win replays in the engine; unsolvable is confirmed by a
    search that stores every position as it is (no columns or twins merged)."""
    position = small_variant_position(seed, strict(game), loose, suits=suits)
    result = search(position)
    assert result.result != "unknown"
    assert result.solved == brute.winnable(position, BRUTE_LIMIT)
    if result.solved:
        assert position.wins_with(result.moves)


@pytest.mark.parametrize("game", GAMES)
def test_both_verdicts_occur_on_small_positions_of_every_game(game: str) -> None:
    """Under the game's own rules and under the strict ones; each "unsolvable"
    is confirmed by the brute force."""
    found = []
    for rules in (Rules.preset(game), strict(game)):
        for seed in range(30):
            position = small_variant_position(seed, rules, 6, suits=1)
            result = search(position, node_limit=GENERIC_NODES)
            if result.result == "unsolvable":
                assert not brute.winnable(position, BRUTE_LIMIT)
            found.append(result.result)
    assert set(found) == {"solved", "unsolvable"}


@pytest.mark.parametrize("game", ["double-klondike", "westcliff"])
def test_solved_deals_replay_in_the_engine(game: str) -> None:
    rules = Rules.preset(game)
    solved = 0
    for number in range(1, 5):
        deal = Deal.from_number(number, rules.decks)
        result = search(Position.initial(deal, rules), node_limit=20_000)
        assert result.result in ("solved", "unknown")  # (no proof of loss this small)
        if result.solved:
            solved += 1
            assert Position.initial(deal, rules).wins_with(result.moves)
    assert solved >= 2


def test_twins_and_columns_share_a_key_and_nothing_else_does() -> None:
    rules = Rules.preset("double-klondike")
    position = Position.initial(Deal.from_number(3, 2), rules)
    swapped = position.copy()
    for pile in (*swapped.tableau, swapped.stock):
        pile[:] = [card.twin for card in pile]
    moved = position.copy()
    moved.tableau[0], moved.tableau[4] = moved.tableau[4], moved.tableau[0]
    moved.down[0], moved.down[4] = moved.down[4], moved.down[0]
    assert position_key(swapped) == position_key(position) == position_key(moved)
    drawn = position.copy()
    drawn.apply(drawn.legal_moves()[-1])
    assert position_key(drawn) != position_key(position)


def test_one_pair_of_twins_swapped_keeps_the_key_however_the_columns_sort() -> None:
    # Swapping the ids of one pair of twins maps the game onto itself, so the
    # key must not see it, even where the swap changes the columns' order by
    # their ids. (Until 2026-12-06 the columns were sorted before twins were
    # written alike, and such positions had two keys.)
    rules = Rules.preset("double-klondike")
    resorted = 0
    for seed in range(10):
        position = random_position(seed, 80, rules)
        pairs = {card for pile in position.tableau for card in pile if card < card.twin}
        for card in pairs:
            swapped = position.copy()
            for pile in (*swapped.tableau, swapped.stock):
                pile[:] = [other.twin if other in (card, card.twin) else other for other in pile]
            assert swapped != position
            assert position_key(swapped) == position_key(position)
            resorted += _sorted_by_ids(swapped) != _sorted_by_ids(position)
    assert resorted >= 10


def _sorted_by_ids(position: Position) -> list[bytes]:
    """The columns sorted by their cards' ids, each then written with twins alike."""
    columns = sorted(bytes((down, *column)) for down, column in zip(position.down,
                                                                     position.tableau,
                                                                     strict=True))
    return [bytes(byte % 52 for byte in column) for column in columns]


def test_easthaven_columns_keep_their_order_while_the_stock_deals_onto_them() -> None:
    rules = Rules.preset("easthaven")
    position = Position.initial(Deal.from_number(3), rules)
    moved = position.copy()
    moved.tableau[0], moved.tableau[4] = moved.tableau[4], moved.tableau[0]
    assert position_key(moved) != position_key(position)
    moved.stock.clear()
    position.stock.clear()
    assert position_key(moved) == position_key(position)


def test_the_limits_give_unknown_with_the_limit_named() -> None:
    # (Two decks: the generic search. Most deals are won within 0.05 s; this
    # one is not within 3 million nodes.)
    rules = Rules.preset("double-klondike-3")
    deal = Deal.from_number(37, 2)
    by_nodes = solve(deal, rules, node_limit=300)
    assert (by_nodes.result, by_nodes.limit, by_nodes.nodes) == ("unknown", "nodes", 300)
    by_time = solve(deal, rules, time_limit=0.05)
    assert (by_time.result, by_time.limit) == ("unknown", "time")
    assert by_time.seconds < 1
    by_memory = solve(deal, rules, memory_limit=100_000)
    assert (by_memory.result, by_memory.limit) == ("unknown", "memory")
