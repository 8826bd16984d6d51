"""The generic search in C (``_search.solve_wide``, search_wide.h): move for
move the Python search of ``solver/generic.py`` (``search_python``), so the
same verdict, line, nodes and states, under every rule set it takes."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import pytest

from bonanza.core import Deal, Position, Rules
from bonanza.core.moves import Move, Pile
from bonanza.core.rules import EmptyColumn, StockMode
from bonanza.solver import _search, solve
from bonanza.solver.fair_budget import GENERIC_SAMPLE_NODES
from bonanza.solver.generic import move_order, sample_verdict, search, search_python
from bonanza.solver.search import core_arguments
from bonanza.solver.wide import arguments, spelled_out
from tests.solver.variant_positions import random_play_position, small_variant_position

NODE_LIMIT = 1_500
"""Nodes per comparison: small enough for the Python search, large enough
that all three verdicts occur."""
POSITIONS_PER_RULES = 24


def _rule_sets() -> list[Rules]:
    """Double Klondike (both draws), Westcliff and Klondike draw 3, each as
    it comes, with any card into a space and recall switched, and with two
    passes and whole runs only."""
    sets = []
    for preset in ("double-klondike", "double-klondike-3", "westcliff", "klondike-3"):
        rules = dataclasses.replace(Rules.preset(preset), thoughtful=True)
        sets += [
            rules,
            dataclasses.replace(rules, empty_column=EmptyColumn.ANY, recall=not rules.recall),
            dataclasses.replace(rules, passes=2, partial_runs=False),
        ]
    return sets


def _positions(
    rules: Rules, count: int, chooser: random.Random, plies: range = range(150)
) -> list[Position]:
    """Deals of ``rules`` played some random legal moves in (up to 150, or
    as many as ``plies`` draws)."""
    return [random_play_position(rules, chooser, plies) for _ in range(count)]


def test_the_c_search_is_the_python_search_move_for_move() -> None:
    chooser = random.Random(4040)
    verdicts: Counter[str] = Counter()
    compared = 0
    for rules in _rule_sets():
        for position in _positions(rules, POSITIONS_PER_RULES, chooser):
            native = search(position, node_limit=NODE_LIMIT, talon_macros=False)
            python = search_python(position, node_limit=NODE_LIMIT)
            assert (native.result, native.moves, native.nodes, native.states, native.limit) == (
                python.result, python.moves, python.nodes, python.states, python.limit,
            ), position.to_text()  # fmt: skip
            verdicts[native.result] += 1
            compared += 1
    assert compared == 12 * POSITIONS_PER_RULES
    # Every verdict occurs: wins found, losses proven, and the node limit met.
    assert min(verdicts[key] for key in ("solved", "unsolvable", "unknown")) >= 20, verdicts


def test_its_moves_are_the_engines_legal_moves_in_the_generic_order() -> None:
    chooser = random.Random(77)
    seen = 0
    for rules in _rule_sets():
        for position in _positions(rules, 40, chooser):
            raw = _search.wide_moves(*arguments(position), -1.0, 0, 0)
            moves = [Move(Pile(source), Pile(dest), count) for source, dest, count, _ in raw]
            assert moves == move_order(position, position.legal_moves()), position.to_text()
            seen += len(moves)
    assert seen > 3_000


def _macro_rule_sets() -> list[Rules]:
    """Rule sets of both kinds of talon macros: merged (draw 1, unlimited
    passes: Double Klondike as it comes and without recall, Klondike draw
    1) and stepped (Double Klondike draw 3, Klondike draw 3 with two
    passes)."""
    double = dataclasses.replace(Rules.preset("double-klondike"), thoughtful=True)
    return [
        double,
        dataclasses.replace(double, recall=False),
        dataclasses.replace(Rules.preset("klondike"), thoughtful=True),
        dataclasses.replace(Rules.preset("double-klondike-3"), thoughtful=True),
        dataclasses.replace(Rules.preset("klondike-3"), thoughtful=True, passes=2),
    ]


def test_talon_macros_keep_every_verdict_of_the_search_without_them() -> None:
    """Positions of random play (mostly won), and small endgames of one
    suit's cards (often lost: a card under a higher one of its suit waits
    for a space)."""
    chooser = random.Random(6060)
    pairs: Counter[tuple[str, str]] = Counter()
    for rules in _macro_rule_sets():
        endgames = [small_variant_position(seed, rules, loose=loose, suits=1)
                    for seed in range(12) for loose in (10, 16)]  # fmt: skip
        for position in _positions(rules, 20, chooser, range(50, 400)) + endgames:
            macros = search(position, node_limit=5 * NODE_LIMIT)
            python = search_python(position, node_limit=5 * NODE_LIMIT)
            pairs[macros.result, python.result] += 1
            if "unknown" not in (macros.result, python.result):
                assert macros.result == python.result, position.to_text()
            if macros.solved:
                assert position.wins_with(macros.moves), position.to_text()
    # Both verdicts are met by both searches; the macros decide more.
    assert pairs["solved", "solved"] >= 60 and pairs["unsolvable", "unsolvable"] >= 20, pairs
    decided = sum(count for (macros, _), count in pairs.items() if macros != "unknown")
    assert decided > sum(count for (_, python), count in pairs.items() if python != "unknown")


def test_talon_macros_agree_with_the_klondike_core() -> None:
    """Klondike draw 1 and Vegas draw 3 through the generic search's talon
    macros, against the C core's exact verdicts (its own pruning rules, its
    own proofs)."""
    verdicts: Counter[str] = Counter()
    chooser = random.Random(8080)
    for preset in ("klondike", "vegas-3"):  # (merged and stepped)
        rules = dataclasses.replace(Rules.preset(preset), thoughtful=True)
        strict = dataclasses.replace(rules, recall=False)
        endgames = [small_variant_position(seed, strict, loose=14, suits=1) for seed in range(40)]
        for position in _positions(rules, 60, chooser) + endgames:
            macros = search(position, node_limit=50_000)
            core = solve(position, node_limit=2_000_000)
            assert core_arguments(position)  # (the core took it)
            if "unknown" not in (macros.result, core.result):
                assert macros.result == core.result, position.to_text()
                verdicts[macros.result] += 1
    assert verdicts["solved"] >= 40 and verdicts["unsolvable"] >= 40, verdicts


@pytest.mark.parametrize(
    ("draw", "cases"),
    [
        # Draw 1 (3 in the waste): a card further on (5 draws), the waste top
        # (none), and one behind it (to the end: 21 draws, the recycle, 2).
        (1, ((7, 5), (2, 0), (1, 21 + 1 + 2))),
        # Draw 3 (24 talon cards, 9 in the waste): a draw on; the top; the
        # last card (5 draws); one behind (to the end: 5 draws, the recycle,
        # a draw of the next pass).
        (3, ((11, 1), (8, 0), (23, 5), (2, 5 + 1 + 1))),
    ],
)
def test_a_talon_play_is_spelled_out_in_draws_and_a_recycle(
    draw: int, cases: tuple[tuple[int, int], ...]
) -> None:
    rules = dataclasses.replace(Rules.preset("klondike"), thoughtful=True, draw=draw)
    position = Position.initial(Deal.from_number(5), rules)
    for _ in range(3):
        position.apply(Move(Pile.STOCK, Pile.WASTE, draw))
    talon = position.waste + position.stock[::-1]
    assert (len(position.waste), len(talon)) == (3 * draw, 24)
    for index, draws in cases:
        board = position.copy()
        line = spelled_out(board, [(Pile.WASTE, Pile.T1, 1, index)])
        assert len(line) == draws + 1
        for move in line[:-1]:
            board.apply(move)
        assert board.waste[-1] == talon[index]


def test_a_double_klondike_deal_is_solved_in_c_and_its_line_wins() -> None:
    rules = dataclasses.replace(Rules.preset("double-klondike"), thoughtful=True)
    position = Position.initial(Deal.from_number(7, decks=2), rules)
    result = solve(position, time_limit=30)
    assert result.result == "solved"
    assert position.wins_with(result.moves)


def test_limits_end_it_with_the_limit_named() -> None:
    rules = dataclasses.replace(Rules.preset("double-klondike-3"), thoughtful=True)
    position = Position.initial(Deal.from_number(11, decks=2), rules)
    by_nodes = search(position, node_limit=500)
    assert (by_nodes.result, by_nodes.limit, by_nodes.nodes) == ("unknown", "nodes", 500)
    by_memory = search(position, memory_limit=200_000)
    assert (by_memory.result, by_memory.limit) == ("unknown", "memory")
    assert by_memory.memory <= 200_000
    by_time = search(position, time_limit=0.05)
    assert by_time.result == "solved" or by_time.limit == "time"
    # Draw 1: both searches side by side (talon macros), each out of memory
    # in turn (the first gives its memory back to the second).
    draw_one = dataclasses.replace(rules, draw=1)
    lost_in_memory = Position.initial(Deal.from_number(60, decks=2), draw_one)
    both = search(lost_in_memory, memory_limit=3_000_000)
    assert (both.result, both.limit) == ("unknown", "memory")
    assert both.memory <= 3_000_000
    assert both.states > search(lost_in_memory, memory_limit=3_000_000, talon_macros=False).states


def test_a_full_table_still_finds_the_positions_it_holds() -> None:
    # A search stops for memory at the first new position with no room, not
    # at a position met again (which the table still holds). Until session 47
    # a full table answered "no room" for both, and 20 of the 25 searches
    # tried then stopped at a position met again. The same search with room
    # to spare, run to the same node, has stored exactly one position more.
    # (Deals 1-30: since twins are written alike before the columns are
    # sorted, fewer of the first deals' searches fill the table.)
    rules = dataclasses.replace(Rules.preset("double-klondike-3"), thoughtful=True)
    stops = 0
    for number in range(1, 31):
        position = Position.initial(Deal.from_number(number, decks=2), rules)
        chooser = random.Random(number)
        for _ in range(chooser.randrange(40)):
            position.apply(chooser.choice(position.legal_moves()))
        full = search(position, memory_limit=1_000_000, talon_macros=False)
        if full.limit != "memory":
            continue
        roomy = search(position, node_limit=full.nodes, talon_macros=False)
        assert roomy.states == full.states + 1, number
        stops += 1
    assert stops >= 6


def test_a_seed_or_a_dealt_stock_keeps_the_python_search() -> None:
    rules = dataclasses.replace(Rules.preset("double-klondike"), thoughtful=True)
    position = Position.initial(Deal.from_number(3, decks=2), rules)
    seeded = search(position, node_limit=300, seed=5)
    python = search_python(position, node_limit=300, seed=5)
    # Both are the Python search: the same memory too, counted by its keys'
    # bytes (the C search counts what it holds).
    assert (seeded.moves, seeded.nodes) == (python.moves, python.nodes)
    assert seeded.memory == python.memory
    easthaven = dataclasses.replace(Rules.preset("easthaven"), thoughtful=True)
    assert easthaven.stock_mode is StockMode.EVERY_COLUMN
    start = Position.initial(Deal.from_number(3), easthaven)
    dealt = search(start, node_limit=300)
    assert dealt.memory == search_python(start, node_limit=300).memory


@pytest.mark.parametrize(
    "change",
    [
        {"decks": 3},  # no such game
        {"columns": [[200]]},  # not a card id
        {"downs_off": True},  # a face-down count past its column
    ],
)
def test_bad_arguments_are_a_value_error(change: dict[str, object]) -> None:
    rules = dataclasses.replace(Rules.preset("double-klondike"), thoughtful=True)
    given: list[Any] = [*arguments(Position.initial(Deal.from_number(1, decks=2), rules)),
                        -1.0, 0, 0]  # fmt: skip
    if "decks" in change:
        given[6] = change["decks"]
    if "columns" in change:
        given[0] = change["columns"]
        given[1] = [0]
    if "downs_off" in change:
        given[1] = [len(column) + 1 for column in given[0]]
    with pytest.raises(ValueError):
        _search.solve_wide(*given)


def test_a_sampled_layouts_verdict_is_the_macro_searchs_with_its_first_move() -> None:
    """The fair hints' quick verdict (``generic.sample_verdict``, talon macros)
    answers as the whole search with talon macros does, spelling out only the
    first move of its line: a draw where the line starts with a talon play."""
    chooser = random.Random(3141)
    verdicts: Counter[str] = Counter()
    draws = 0
    for preset in ("double-klondike", "double-klondike-3"):
        rules = Rules.preset(preset)
        for position in _positions(rules, 40, chooser):
            answer, first, nodes = sample_verdict(position, GENERIC_SAMPLE_NODES)
            whole = search(position, node_limit=GENERIC_SAMPLE_NODES, talon_macros=True)
            assert (answer, nodes) == (whole.result, whole.nodes), position.to_text()
            assert first == (whole.moves[0] if whole.moves else None), position.to_text()
            if first is not None:
                assert position.is_legal(first)
                draws += first.source is Pile.STOCK
            verdicts[answer] += 1
    assert verdicts["solved"] >= 10 and verdicts["unknown"] >= 5, verdicts
    assert draws >= 3  # lines that start with a talon play reached by draws


def test_whole_searches_backtrack_through_the_path_as_the_python_one() -> None:
    # The path keeps every eighth position whole and makes the others again
    # from the line (search_wide_run.h, w_top).  Endgames searched to the end
    # (lost ones searched whole) back up through thousands of frames between
    # checkpoints: the C search still goes move for move as the Python one.
    verdicts: Counter[str] = Counter()
    for seed in range(40):
        rules = dataclasses.replace(
            Rules.preset(("double-klondike", "double-klondike-3")[seed % 2]), thoughtful=True
        )
        position = small_variant_position(seed, rules, (26, 30, 34)[seed % 3], suits=2)
        in_c = search(position, node_limit=30_000, talon_macros=False)
        in_python = search_python(position, node_limit=30_000)
        assert (in_c.result, in_c.nodes, in_c.states, in_c.moves) == (
            in_python.result, in_python.nodes, in_python.states, in_python.moves,
        )  # fmt: skip
        verdicts[in_c.result] += 1
    assert verdicts["unsolvable"] >= 3 and verdicts["solved"] >= 3, verdicts


def test_a_stored_position_costs_a_few_dozen_bytes_path_included() -> None:
    # A depth-first search of Double Klondike holds nearly as many positions
    # on its path as in its table; kept whole, each cost about 120 bytes more
    # (176 bytes a position stored, in 8 MB). Every 8th kept whole: 57; every
    # 16th (session 47): 49 (32 with talon macros).
    rules = dataclasses.replace(Rules.preset("double-klondike"), thoughtful=True)
    position = Position.initial(Deal.from_number(60, decks=2), rules)
    for talon_macros in (False, True):
        result = search(position, memory_limit=8_000_000, talon_macros=talon_macros)
        assert (result.result, result.limit) == ("unknown", "memory")
        assert result.memory <= 8_000_000
        assert result.memory / result.states < 52
