"""The C core against the Python engine: legal moves, and pruning switched off."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bonanza.core import Deal, EmptyColumn, Position, Rules
from bonanza.core.moves import FOUNDATIONS
from bonanza.solver import Prune, Sides, SolveResult, solve
from bonanza.solver.search import core_legal_moves
from bonanza.solver.switches import SINGLE_RULES
from tests.core.tables import table
from tests.solver.brute import small_position, winnable


def random_rules(rng: random.Random) -> Rules:
    return Rules(
        draw=rng.choice([1, 2, 3, 5]),
        passes=rng.choice([None, 1, 2, 3]),
        empty_column=rng.choice(list(EmptyColumn)),
        recall=rng.random() < 0.5,
        partial_runs=rng.random() < 0.6,
    )


def random_positions(seed: int, count: int) -> list[Position]:
    """Positions met on random playouts of random deals under random rules."""
    rng = random.Random(seed)
    positions: list[Position] = []
    while len(positions) < count:
        position = Position.initial(Deal.from_number(rng.randrange(2**64)), random_rules(rng))
        for _ in range(rng.randrange(200)):
            moves = position.legal_moves()
            if not moves:
                break
            position.apply(rng.choice(moves))
            if rng.random() < 0.1:
                positions.append(position.copy())
    return positions[:count]


def early_position(rng: random.Random, rules: Rules) -> Position:
    """A random deal under ``rules`` after up to 60 random moves."""
    position = Position.initial(Deal.from_number(rng.randrange(2**64)), rules)
    for _ in range(rng.randrange(60)):
        moves = position.legal_moves()
        if not moves:
            break
        position.apply(rng.choice(moves))
    return position


@pytest.mark.parametrize("seed", range(4))
def test_core_legal_moves_match_engine(seed: int) -> None:
    for position in random_positions(seed, 500):
        assert sorted(core_legal_moves(position)) == sorted(position.legal_moves()), (
            position.to_text(), position.rules)


def test_core_legal_moves_after_a_recycle_and_with_empty_columns() -> None:
    rules = Rules(draw=3, passes=2, empty_column=EmptyColumn.ANY)
    position = Position.from_text("-/KH/-/-/-/-/- - 2C3C4C5C6C7C8C9CTCJCQCKC AKQK 1", rules)
    assert sorted(core_legal_moves(position)) == sorted(position.legal_moves())
    assert not any(move.is_recycle for move in core_legal_moves(position))


# The switch sets the tests compare: the old rule groups, by name.
SAFE_ONLY = Prune.SAFE_MOVES
RULES_1_7 = SAFE_ONLY | Prune.TWINS
RULES_1_8 = RULES_1_7 | Prune.DEAD_ENDS
RULES_1_10 = RULES_1_8 | Prune.COVER_TALON
RULES_1_11 = RULES_1_10 | Prune.RELAXED_STOCK
RULES_1_12 = RULES_1_11 | Prune.NEARLY_SAFE | Prune.LARGER_WASTES
RULES_1_14 = RULES_1_12 | Prune.SUCCESSOR
NO_TWIN_LOCKS = Prune.ALL & ~Prune.TWIN_LOCKS


def _run(position: Position, prune: Prune, sides: Sides = Sides.NONE, seconds: float = 5.0,
         nodes: int | None = None) -> SolveResult:
    return solve(position, time_limit=seconds, node_limit=nodes, prune=prune, sides=sides)


def _verdict(position: Position, prune: Prune, sides: Sides = Sides.DEFAULT) -> str:
    return _run(position, prune, sides).result


def _cross_check(rng: random.Random, rules_for: Callable[[random.Random], Rules],
                 with_flags: Prune, without_flags: Prune, count: int,
                 with_sides: Sides = Sides.NONE, without_sides: Sides = Sides.NONE) -> int:
    """Verdicts with and without some rules agree on ``count`` decided early
    positions of random deals; returns on how many the extra rules fired
    (for side searches: found the win)."""
    extra = with_flags & ~without_flags
    extra_sides = with_sides & ~without_sides & ~Sides.AT_ONCE
    checked = fired = 0
    while checked < count:
        rules = rules_for(rng)
        position = early_position(rng, rules)
        with_rule = _run(position, with_flags, with_sides)
        without = _run(position, without_flags, without_sides)
        if "unknown" not in (with_rule.result, without.result):
            assert with_rule.result == without.result, (position.to_text(), rules)
            checked += 1
            firings = sum(with_rule.fired[flag] for flag in SINGLE_RULES if flag & extra)
            fired += firings > 0 or (bool(extra_sides) and with_rule.side_wins > 0)
    return fired


def _lost_deal_nodes(number: int, rules: Rules, *flags: Prune) -> list[int]:
    """The nodes each set of flags takes to prove a deal lost."""
    position = Position.initial(Deal.from_number(number), rules)
    results = [_run(position, f, seconds=30.0) for f in flags]
    assert [result.result for result in results] == ["unsolvable"] * len(flags)
    return [result.nodes for result in results]


@pytest.mark.parametrize("seed", range(3))
def test_pruning_keeps_verdicts(seed: int) -> None:
    """All rules on against fewer and fewer of them, and against none."""
    checked = 0
    for position in random_positions(100 + seed, 25):
        pruned = _verdict(position, Prune.ALL)
        if pruned == "unknown":
            continue
        for other in (NO_TWIN_LOCKS, RULES_1_11, RULES_1_10, RULES_1_8, RULES_1_7, SAFE_ONLY,
                      Prune.TWINS, Prune.NONE):
            verdict = _verdict(position, other, Sides.NONE)
            if verdict != "unknown":
                assert verdict == pruned, (position.to_text(), position.rules, other)
                checked += 1
    assert checked > 20


@pytest.mark.parametrize("seed", range(40))
def test_solver_agrees_with_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    rules = random_rules(rng)
    rules = Rules(draw=rules.draw, passes=rules.passes, empty_column=rules.empty_column,
                  recall=False, partial_runs=rules.partial_runs)
    position = small_position(seed, rules, 8 + seed % 5)
    try:
        expected = winnable(position, 20_000)
    except RuntimeError:
        pytest.skip("too large for brute force")
    assert (_verdict(position, Prune.ALL) == "solved") == expected


ANY_PASSES = [None, None, 1, 3]
NEARLY_SAFE_SHRINK = 1.5


@pytest.mark.parametrize(("rule", "draws", "passes", "seed"), [
    (Prune.NEARLY_SAFE, [1], [None], 0), (Prune.NEARLY_SAFE, [1], [None], 1),
    (Prune.NEARLY_SAFE, [1, 2, 3], ANY_PASSES, 2),
    (Prune.LARGER_WASTES, [2, 3], [None], 0), (Prune.LARGER_WASTES, [2, 3], [None], 1),
])
def test_recall_and_waste_rules_keep_verdicts(
        rule: Prune, draws: list[int], passes: list[int | None], seed: int) -> None:
    """Rule 12 (recall on) and rule 9's larger wastes, each against
    the search without it (rules 1-11), and each one fires."""
    def rules_for(rng: random.Random) -> Rules:
        return Rules(draw=rng.choice(draws), passes=rng.choice(passes),
                     partial_runs=rng.random() < 0.8)

    assert _cross_check(random.Random(1100 + 10 * rule.rule + seed), rules_for,
                        RULES_1_11 | rule, RULES_1_11, 12) >= 2


def test_nearly_safe_cards_going_home_shrink_a_lost_search() -> None:
    with_rule, without = _lost_deal_nodes(5902004124792524154, Rules(draw=1),
                                          RULES_1_11 | Prune.NEARLY_SAFE, RULES_1_11)
    assert with_rule * NEARLY_SAFE_SHRINK < without


@pytest.mark.parametrize("seed", range(3))
def test_talon_cards_going_home_only_when_needed_keeps_verdicts(seed: int) -> None:
    """Rule 14 (draw 1, unlimited passes) against the search without it."""
    def rules_for(rng: random.Random) -> Rules:
        return Rules(draw=1, recall=rng.random() < 0.6, partial_runs=rng.random() < 0.8,
                     empty_column=rng.choice(list(EmptyColumn)))

    assert _cross_check(random.Random(1300 + seed), rules_for, RULES_1_14, RULES_1_12, 15) >= 2


def test_talon_cards_going_home_only_when_needed_shrinks_a_lost_search() -> None:
    with_rule, without = _lost_deal_nodes(1849000532611128252, Rules(draw=1), RULES_1_14,
                                          RULES_1_12)
    assert with_rule * 1.4 < without


@pytest.mark.parametrize("seed", range(3))
def test_covering_talon_cards_at_once_keeps_verdicts(seed: int) -> None:
    """Rule 10 (draw 1, unlimited passes) against the search without it."""
    def rules_for(rng: random.Random) -> Rules:
        return Rules(draw=1, recall=rng.random() < 0.7, partial_runs=rng.random() < 0.8)

    assert _cross_check(random.Random(500 + seed), rules_for, RULES_1_10, RULES_1_8, 15) >= 1


def test_covering_talon_cards_at_once_shrinks_the_search() -> None:
    # A lost draw-1 deal: rule 10 proves it with a fraction of the nodes.
    with_rule, without = _lost_deal_nodes(7812484673647603142, Rules(draw=1), RULES_1_10,
                                          RULES_1_8)
    assert with_rule * 2 < without


def test_a_card_that_can_never_move_ends_the_search_at_once() -> None:
    # The ten of hearts covers the nine it needs at home, and both black
    # jacks it could go on lie under the nine: no line can win.
    position = table(["Js Jc 9h TH"], stock="QS KS QC KC JH QH KH", rules=Rules(recall=False))
    assert not winnable(position)
    quick = _run(position, RULES_1_8)
    slow = _run(position, RULES_1_7)
    assert quick.result == slow.result == "unsolvable"
    assert quick.nodes == 1 < slow.nodes
    assert quick.fired[Prune.DEAD_ENDS] == 1


# Rule 15's two twin locks. In both, the jack of clubs lies face down under
# the jack of spades, both go on a red queen, and neither can go home (the
# tens lie under them).
TWIN_LOCKS = [
    # The queen of diamonds lies under them too: the spade takes the heart
    # queen and can leave it only for home, so the club never gets a queen.
    (["Ts Tc Qd Jc JS", "KC QH"], "QS KS QC KH KD"),
    # Both red queens are in the stock, but of the black kings they go on the
    # spade lies under the jacks: only one red queen can be out at a time,
    # and the spade jack takes it.
    (["Ts Tc Ks Jc JS"], "QD QH KC QS QC KH KD"),
]


@pytest.mark.parametrize(("columns", "stock"), TWIN_LOCKS)
def test_a_twin_lock_ends_the_search_at_once(columns: list[str], stock: str) -> None:
    position = table(columns, stock=stock, rules=Rules(recall=False))
    assert not winnable(position)
    locked = _run(position, RULES_1_8 | Prune.TWIN_LOCKS)
    searched = _run(position, RULES_1_8)
    assert locked.result == searched.result == "unsolvable"
    assert locked.nodes == 1 < searched.nodes
    assert locked.fired[Prune.TWIN_LOCKS] == 1


@pytest.mark.parametrize(("columns", "stock"), TWIN_LOCKS)
def test_a_twin_lock_needs_kings_only_in_empty_columns(columns: list[str], stock: str) -> None:
    # Where any card may go into an empty column, the club jack goes there.
    position = table(columns, stock=stock, rules=Rules(recall=False, empty_column=EmptyColumn.ANY))
    assert winnable(position)
    assert _verdict(position, Prune.ALL, Sides.FEW_PASSES) == "solved"


@pytest.mark.parametrize("seed", range(3))
def test_twin_locks_keep_verdicts(seed: int) -> None:
    """Rule 15 against the search without it, any stock rule."""
    def rules_for(rng: random.Random) -> Rules:
        return Rules(draw=rng.choice([1, 2, 3]), passes=rng.choice([None, None, 1, 3]),
                     recall=rng.random() < 0.7, partial_runs=rng.random() < 0.8)

    _cross_check(random.Random(1500 + seed), rules_for, Prune.ALL, NO_TWIN_LOCKS, 15,
                 Sides.FEW_PASSES, Sides.FEW_PASSES)


def test_a_twin_lock_decides_a_lost_deal_at_the_start() -> None:
    # Lost with draw 1 and draw 3; without rule 15 each takes over 20 M nodes
    # (and rules 22 and 24, whose first rounds hold rule 15, are off too).
    for draw in (1, 3):
        position = Position.initial(Deal.from_number(16722245762850507287), Rules(draw=draw))
        locked = _run(position, Prune.ALL, Sides.FEW_PASSES, 30.0)
        searched = _run(position, NO_TWIN_LOCKS & ~Prune.SQUEEZE & ~Prune.CHAIN, Sides.FEW_PASSES,
                        30.0, 300_000)
        assert locked.result == "unsolvable" and locked.nodes == 1
        assert searched.result == "unknown"


@pytest.mark.parametrize("seed", range(3))
def test_side_searches_keep_verdicts(seed: int) -> None:
    """Rule 11's side search, started at once, against the search without it."""
    def rules_for(rng: random.Random) -> Rules:
        return Rules(draw=rng.choice([1, 2, 3]), passes=rng.choice([None, 1, 2, 3]),
                     recall=rng.random() < 0.7, partial_runs=rng.random() < 0.8)

    _cross_check(random.Random(700 + seed), rules_for, RULES_1_11, RULES_1_10, 12,
                 Sides.AT_ONCE)


@pytest.mark.parametrize("seed", range(2))
def test_few_passes_side_search_keeps_verdicts(seed: int) -> None:
    """The side search with one recycle left (deepening), started at once,
    against the search without it."""
    def rules_for(rng: random.Random) -> Rules:
        return Rules(draw=rng.choice([2, 3]), recall=rng.random() < 0.7,
                     partial_runs=rng.random() < 0.8)

    _cross_check(random.Random(1400 + seed), rules_for, RULES_1_11, RULES_1_11, 12,
                 Sides.FEW_PASSES | Sides.DEEPEN | Sides.AT_ONCE)


@pytest.mark.parametrize("seed", range(3))
def test_hasty_side_search_keeps_verdicts(seed: int) -> None:
    """The hasty side search, started at once, against the search without
    it, under stock rules where the waste pointer matters."""
    def rules_for(rng: random.Random) -> Rules:
        draw = rng.choice([1, 2, 3])
        passes = rng.choice([1, 2, 3] if draw == 1 else [None, None, 1, 3])
        return Rules(draw=draw, passes=passes, recall=rng.random() < 0.7,
                     partial_runs=rng.random() < 0.8)

    _cross_check(random.Random(1600 + seed), rules_for, RULES_1_10, RULES_1_10, 12,
                 Sides.HASTY | Sides.AT_ONCE)


@pytest.mark.parametrize(("number", "prune", "sides", "without"), [
    # Won with one recycle; the exact search alone, without rules 15 and 18,
    # needs over 20 M nodes (with rule 18, a few hundred).
    (14936029865184760846, NO_TWIN_LOCKS & ~Prune.STOCK_CYCLE, Sides.FEW_PASSES, Sides.NONE),
    # The hasty one.  Rule 20 cuts the lost corner the exact search starts
    # in: with it, that search alone wins at 1.1 M nodes (9.4 M without).
    (11761136509767280738, Prune.ALL & ~Prune.BARE_BASES, Sides.DEFAULT, Sides.FEW_PASSES),
])
def test_a_side_search_finds_a_win_the_exact_search_reaches_late(
        number: int, prune: Prune, sides: Sides, without: Sides) -> None:
    # Draw 3: the side search finds a win within a million nodes; without it
    # the search is still unknown at 3 M.
    position = Position.initial(Deal.from_number(number), Rules(draw=3))
    quick = _run(position, prune, sides, 30.0)
    slow = _run(position, prune, without, 30.0, 3_000_000)
    assert quick.result == "solved" and quick.nodes < 1_000_000 and quick.side_wins == 1
    assert slow.result == "unknown"


@pytest.mark.parametrize("number", [618, 1632])
def test_the_few_passes_search_deepens_to_a_win_with_two_recycles(number: int) -> None:
    # Draw 3: lost with one recycle, won with two.  The side search, lost with
    # one, starts again with two and wins within 80,000 nodes (28,000 and
    # 70,000, of them 40,000 in 1632's search that ends rule 11's), its line
    # recycling twice; without the deepening the search needs 96,000 and
    # 746,000.
    position = Position.initial(Deal.from_number(number), Rules(draw=3))
    deepened = solve(position, node_limit=80_000, shorten=False)
    shallow = _run(position, Prune.ALL, Sides.DEFAULT & ~Sides.DEEPEN, 30.0, 80_000)
    assert deepened.result == "solved" and deepened.side_wins == 1
    assert sum(move.is_recycle for move in deepened.moves) == 2
    assert shallow.result == "unknown"


@pytest.mark.parametrize("number", [1348, 1444])
def test_the_search_without_recall_finds_a_win_the_exact_search_reaches_late(
        number: int) -> None:
    # Draw 1, recall on: the side search without recall wins within 60,000
    # nodes (a line with no recall); without that search the exact search
    # needs 1.8 M and 1.2 M nodes.
    position = Position.initial(Deal.from_number(number), Rules(draw=1))
    quick = solve(position, node_limit=60_000, shorten=False)
    slow = _run(position, Prune.ALL, Sides.DEFAULT & ~Sides.NO_RECALL, 30.0, 60_000)
    assert quick.result == "solved" and quick.side_wins == 1
    assert not any(move.source in FOUNDATIONS for move in quick.moves)
    assert slow.result == "unknown"


@pytest.mark.parametrize("seed", range(2))
def test_the_side_search_without_recall_keeps_verdicts(seed: int) -> None:
    """The side search without recall, started at once, against the search
    without it: draw 1, unlimited passes, recall on."""
    def rules_for(rng: random.Random) -> Rules:
        return Rules(draw=1, partial_runs=rng.random() < 0.8)

    # It wins first in 2 and 4 of the 12 positions.
    assert _cross_check(random.Random(1700 + seed), rules_for, RULES_1_11, RULES_1_11, 12,
                        Sides.NO_RECALL | Sides.AT_ONCE) > 0


def test_the_draw_1_relaxation_shrinks_a_lost_draw_3_search() -> None:
    # Lost with draw 3, and with draw 1 too: the draw-1 search proves it.
    with_rule, without = _lost_deal_nodes(13779009104202105036, Rules(draw=3), RULES_1_11,
                                          RULES_1_10)
    assert with_rule * 3 < without

