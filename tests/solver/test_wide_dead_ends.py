"""Rule 8 for two decks (search_wide_dead_ends.h): Double Klondike's solve drops
the positions where some card can never go home, and no verdict changes."""

from __future__ import annotations

import dataclasses
from collections import Counter

from bonanza.core import ALL_CARDS, Deal, Position, Rules
from bonanza.core.cards import DECK_SIZE, RANK_COUNT
from bonanza.solver import Prune, solve
from tests.solver.variant_positions import small_variant_position, strict

WITHOUT = Prune.ALL & ~Prune.DEAD_ENDS
NODES = 200_000
GAMES = ("double-klondike", "double-klondike-3")


def _card(rank: int, suit: int, second: bool = False) -> int:
    """The id of a card (suits C D H S are 0 1 2 3); ``second`` the twin's."""
    return suit * RANK_COUNT + rank - 1 + (DECK_SIZE if second else 0)


def test_it_keeps_every_verdict_of_the_search_without_it() -> None:
    # Small endgames of both decks (every card but a column's top face down),
    # Kings alone into spaces, no recall, one pass: lost often, and searched
    # whole without the rule.  The rule fires where a card lies face down
    # under cards that can never move.
    outcomes: Counter[tuple[str, str]] = Counter()
    fired_in = 0
    for game in GAMES:
        rules = strict(game)
        for seed in range(500):
            position = small_variant_position(seed, rules, 30, suits=2 if seed % 2 else None)
            pruned = solve(position, node_limit=NODES, shorten=False)
            whole = solve(position, node_limit=NODES, shorten=False, prune=WITHOUT)
            outcomes[pruned.result, whole.result] += 1
            if "unknown" not in (pruned.result, whole.result):
                assert pruned.result == whole.result, (game, seed)
            fired_in += pruned.fired[Prune.DEAD_ENDS] > 0
            assert whole.fired[Prune.DEAD_ENDS] == 0
    assert outcomes["unsolvable", "unsolvable"] > 200
    assert outcomes["solved", "solved"] > 400
    assert fired_in > 20


def test_a_card_buried_under_a_card_that_never_moves_is_lost_at_once() -> None:
    # Both threes of spades lie face down under the two fours of spades; the
    # red fives are home (no recall), so a four has no card to go on, no
    # space takes it (Kings only), and it goes home only after a three.  The
    # clubs, in the stock, all go home: the search without the rule plays them
    # out before it runs out of moves.
    rules = strict("double-klondike")
    clubs, diamonds, hearts, spades = range(4)
    homes = [2, 5, 5, 2] * 2
    tableau = [
        [ALL_CARDS[_card(3, spades)], ALL_CARDS[_card(4, spades)]],
        [ALL_CARDS[_card(3, spades, True)], ALL_CARDS[_card(4, spades, True)]],
        [ALL_CARDS[_card(rank, suit, second)] for suit in (hearts, diamonds)
         for rank in range(6, RANK_COUNT + 1) for second in (False, True)],
        [ALL_CARDS[_card(rank, spades, second)] for rank in range(5, RANK_COUNT + 1)
         for second in (False, True)],
    ]
    stock = [ALL_CARDS[_card(rank, clubs, second)] for rank in range(RANK_COUNT, 2, -1)
             for second in (True, False)]
    down = [1, 1, len(tableau[2]) - 1, len(tableau[3]) - 1]
    position = Position(rules, tableau, down, stock, [], homes)
    pruned = solve(position, node_limit=NODES, shorten=False)
    whole = solve(position, node_limit=NODES, shorten=False, prune=WITHOUT)
    assert (pruned.result, pruned.nodes) == ("unsolvable", 0)
    assert pruned.fired[Prune.DEAD_ENDS] >= 1
    assert whole.result == "unsolvable" and whole.nodes > 20


def test_it_decides_a_deal_that_the_search_without_it_does_not() -> None:
    # Double Klondike deal 809: the search without the rule goes down a
    # subtree it cannot leave within a million nodes; one position dropped
    # ends it, and the deal is won in 2,419.
    rules = dataclasses.replace(Rules.preset("double-klondike"), thoughtful=True)
    position = Position.initial(Deal.from_number(809, decks=2), rules)
    pruned = solve(position, node_limit=1_000_000, shorten=False)
    whole = solve(position, node_limit=1_000_000, shorten=False, prune=WITHOUT)
    assert pruned.result == "solved" and position.wins_with(pruned.moves)
    assert pruned.fired[Prune.DEAD_ENDS] >= 1
    assert whole.result == "unknown"
