"""The C core against the Python engine: legal moves, and pruning switched off."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bonanza.core import Deal, EmptyColumn, Position, Rules
from bonanza.solver import _search
from bonanza.solver.search import core_arguments, core_legal_moves
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
    positions = []
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


def _verdict(position: Position, prune: int) -> str:
    result: str = _search.solve(*core_arguments(position), 5.0, 0, 0, prune)[0]
    return result


def _cross_check(rng: random.Random, rules_for: Callable[[random.Random], Rules],
                 with_flags: int, without_flags: int, count: int) -> int:
    """Verdicts with and without some rules agree on ``count`` decided early
    positions of random deals; returns on how many the rules saved nodes."""
    checked = fired = 0
    while checked < count:
        rules = rules_for(rng)
        position = early_position(rng, rules)
        with_rule = _search.solve(*core_arguments(position), 5.0, 0, 0, with_flags)
        without = _search.solve(*core_arguments(position), 5.0, 0, 0, without_flags)
        if "unknown" not in (with_rule[0], without[0]):
            assert with_rule[0] == without[0], (position.to_text(), rules)
            checked += 1
            fired += with_rule[2] < without[2]
    return fired


def _lost_deal_nodes(number: int, rules: Rules, *flags: int) -> list[int]:
    """The nodes each set of flags takes to prove a deal lost."""
    position = Position.initial(Deal.from_number(number), rules)
    results = [_search.solve(*core_arguments(position), 30.0, 0, 0, f) for f in flags]
    assert [result[0] for result in results] == ["unsolvable"] * len(flags)
    return [result[2] for result in results]


@pytest.mark.parametrize("seed", range(3))
def test_pruning_keeps_verdicts(seed: int) -> None:
    """All rules on (177977) against rules 1-14 (14137), rules 1-11 (57),
    rules 1-10 (25), rules 1-9 (9), no dead-end test (1), no twins (0) and no
    safe moves (5)."""
    checked = 0
    for position in random_positions(100 + seed, 25):
        pruned = _verdict(position, 177977)
        if pruned == "unknown":
            continue
        for other in (14137, 57, 25, 9, 1, 0, 5):
            verdict = _verdict(position, other)
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
    assert (_verdict(position, 177977) == "solved") == expected


ANY_PASSES = [None, None, 1, 3]


@pytest.mark.parametrize(("rule", "with_flags", "draws", "passes", "seed"), [
    (12, 313, [1], [None], 0), (12, 313, [1], [None], 1),
    (13, 1081, [1, 2, 3], ANY_PASSES, 0), (13, 1081, [1, 2, 3], ANY_PASSES, 1),
    (13, 1081, [1, 2, 3], ANY_PASSES, 2),
    (9, 569, [2, 3], [None], 0), (9, 569, [2, 3], [None], 1),
])
def test_recall_and_waste_rules_keep_verdicts(
        rule: int, with_flags: int, draws: list[int], passes: list[int | None],
        seed: int) -> None:
    """Rules 12 and 13 (recall on) and rule 9's larger wastes, each against
    the search without it (57), and each one fires."""
    def rules_for(rng: random.Random) -> Rules:
        return Rules(draw=rng.choice(draws), passes=rng.choice(passes),
                     partial_runs=rng.random() < 0.8)

    assert _cross_check(random.Random(1100 + 10 * rule + seed), rules_for,
                        with_flags, 57, 12) >= 2


@pytest.mark.parametrize(("number", "draw", "with_flags", "without_flags", "ratio"), [
    (5902004124792524154, 1, 313, 57, 4),       # rule 12
    (1849000532611128252, 3, 1849, 825, 1.5),  # rule 13
])
def test_recall_rules_shrink_a_lost_search(
        number: int, draw: int, with_flags: int, without_flags: int, ratio: float) -> None:
    with_rule, without = _lost_deal_nodes(number, Rules(draw=draw), with_flags, without_flags)
    assert with_rule * ratio < without


@pytest.mark.parametrize("seed", range(3))
def test_talon_cards_going_home_only_when_needed_keeps_verdicts(seed: int) -> None:
    """Rule 14 (draw 1, unlimited passes) against the search without it."""
    def rules_for(rng: random.Random) -> Rules:
        return Rules(draw=1, recall=rng.random() < 0.6, partial_runs=rng.random() < 0.8,
                     empty_column=rng.choice(list(EmptyColumn)))

    assert _cross_check(random.Random(1300 + seed), rules_for, 5945, 1849, 15) >= 2


def test_talon_cards_going_home_only_when_needed_shrinks_a_lost_search() -> None:
    with_rule, without = _lost_deal_nodes(1849000532611128252, Rules(draw=1), 5945, 1849)
    assert with_rule * 1.4 < without


@pytest.mark.parametrize("seed", range(3))
def test_covering_talon_cards_at_once_keeps_verdicts(seed: int) -> None:
    """Rule 10 (draw 1, unlimited passes) against the search without it."""
    def rules_for(rng: random.Random) -> Rules:
        return Rules(draw=1, recall=rng.random() < 0.7, partial_runs=rng.random() < 0.8)

    _cross_check(random.Random(500 + seed), rules_for, 25, 9, 15)


def test_covering_talon_cards_at_once_shrinks_the_search() -> None:
    # A lost draw-1 deal: rule 10 proves it with a fraction of the nodes.
    with_rule, without = _lost_deal_nodes(7812484673647603142, Rules(draw=1), 25, 9)
    assert with_rule * 2 < without


def test_a_card_that_can_never_move_ends_the_search_at_once() -> None:
    # The ten of hearts covers the nine it needs at home, and both black
    # jacks it could go on lie under the nine: no line can win.
    position = table(["Js Jc 9h TH"], stock="QS KS QC KC JH QH KH", rules=Rules(recall=False))
    assert not winnable(position)
    quick = _search.solve(*core_arguments(position), 5.0, 0, 0, 9)
    slow = _search.solve(*core_arguments(position), 5.0, 0, 0, 1)
    assert quick[0] == slow[0] == "unsolvable"
    assert quick[2] == 1 < slow[2]


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
    locked = _search.solve(*core_arguments(position), 5.0, 0, 0, 32768 | 9)
    searched = _search.solve(*core_arguments(position), 5.0, 0, 0, 9)
    assert locked[0] == searched[0] == "unsolvable"
    assert locked[2] == 1 < searched[2]


@pytest.mark.parametrize(("columns", "stock"), TWIN_LOCKS)
def test_a_twin_lock_needs_kings_only_in_empty_columns(columns: list[str], stock: str) -> None:
    # Where any card may go into an empty column, the club jack goes there.
    position = table(columns, stock=stock, rules=Rules(recall=False, empty_column=EmptyColumn.ANY))
    assert winnable(position)
    assert _verdict(position, 46905) == "solved"


@pytest.mark.parametrize("seed", range(3))
def test_twin_locks_keep_verdicts(seed: int) -> None:
    """Rule 15 against the search without it (14137), any stock rule."""
    def rules_for(rng: random.Random) -> Rules:
        return Rules(draw=rng.choice([1, 2, 3]), passes=rng.choice([None, None, 1, 3]),
                     recall=rng.random() < 0.7, partial_runs=rng.random() < 0.8)

    _cross_check(random.Random(1500 + seed), rules_for, 46905, 14137, 15)


def test_a_twin_lock_decides_a_lost_deal_at_the_start() -> None:
    # Lost with draw 1 and draw 3; without rule 15 each takes over 20 M nodes.
    for draw in (1, 3):
        position = Position.initial(Deal.from_number(16722245762850507287), Rules(draw=draw))
        locked = _search.solve(*core_arguments(position), 30.0, 0, 0, 46905)
        searched = _search.solve(*core_arguments(position), 30.0, 300_000, 0, 14137)
        assert locked[0] == "unsolvable" and locked[2] == 1
        assert searched[0] == "unknown"


@pytest.mark.parametrize("seed", range(3))
def test_side_searches_keep_verdicts(seed: int) -> None:
    """Rule 11's side search, started at once (121), against the search
    without it (25)."""
    def rules_for(rng: random.Random) -> Rules:
        return Rules(draw=rng.choice([1, 2, 3]), passes=rng.choice([None, 1, 2, 3]),
                     recall=rng.random() < 0.7, partial_runs=rng.random() < 0.8)

    _cross_check(random.Random(700 + seed), rules_for, 121, 25, 12)


@pytest.mark.parametrize("seed", range(2))
def test_few_passes_side_search_keeps_verdicts(seed: int) -> None:
    """The side search with one recycle left, started at once (8313), against
    the search without it (57)."""
    def rules_for(rng: random.Random) -> Rules:
        return Rules(draw=rng.choice([2, 3]), recall=rng.random() < 0.7,
                     partial_runs=rng.random() < 0.8)

    _cross_check(random.Random(1400 + seed), rules_for, 8313, 57, 12)


@pytest.mark.parametrize("seed", range(3))
def test_hasty_side_search_keeps_verdicts(seed: int) -> None:
    """The hasty side search, started at once (131161), against the search
    without it (25), under stock rules where the waste pointer matters."""
    def rules_for(rng: random.Random) -> Rules:
        draw = rng.choice([1, 2, 3])
        passes = rng.choice([1, 2, 3] if draw == 1 else [None, None, 1, 3])
        return Rules(draw=draw, passes=passes, recall=rng.random() < 0.7,
                     partial_runs=rng.random() < 0.8)

    _cross_check(random.Random(1600 + seed), rules_for, 131161, 25, 12)


@pytest.mark.parametrize(("number", "with_flags", "without_flags"), [
    # Won with one recycle; the exact search alone needs over 20 M nodes.
    (14936029865184760846, 14137, 5945),  # the few-passes side search
    (11761136509767280738, 177977, 46905),  # the hasty side search
])
def test_a_side_search_finds_a_win_the_exact_search_reaches_late(
        number: int, with_flags: int, without_flags: int) -> None:
    # Draw 3: the side search finds a win within a million nodes; without it
    # the search is still unknown at 3 M.
    position = Position.initial(Deal.from_number(number), Rules(draw=3))
    quick = _search.solve(*core_arguments(position), 30.0, 0, 0, with_flags)
    slow = _search.solve(*core_arguments(position), 30.0, 3_000_000, 0, without_flags)
    assert quick[0] == "solved" and quick[2] < 1_000_000
    assert slow[0] == "unknown"


def test_the_draw_1_relaxation_shrinks_a_lost_draw_3_search() -> None:
    # Lost with draw 3, and with draw 1 too: the draw-1 search proves it.
    with_rule, without = _lost_deal_nodes(13779009104202105036, Rules(draw=3), 57, 25)
    assert with_rule * 3 < without

