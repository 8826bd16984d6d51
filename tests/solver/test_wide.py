"""The generic search in C (``_search.solve_wide``, search_wide.h): move for
move the Python search of ``solver/generic.py`` (``search_python``), so the
same verdict, line, nodes and states, under every rule set it takes."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from bonanza.core import Deal, Position, Rules
from bonanza.core.moves import Move, Pile
from bonanza.core.rules import EmptyColumn, StockMode
from bonanza.solver import _search, solve
from bonanza.solver.generic import move_order, search, search_python

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


def _positions(rules: Rules, count: int, chooser: random.Random) -> list[Position]:
    """Deals of ``rules`` played some random legal moves in (up to 150)."""
    positions = []
    for _ in range(count):
        deal = Deal.from_number(chooser.getrandbits(64), decks=rules.decks)
        position = Position.initial(deal, rules)
        for _ in range(chooser.randrange(150)):
            moves = position.legal_moves()
            if not moves:
                break
            position.apply(chooser.choice(moves))
        positions.append(position)
    return positions


def _arguments(position: Position) -> tuple[object, ...]:
    rules = position.rules
    allowed = rules.recycles_allowed
    return (
        position.tableau, position.down, position.stock, position.waste, position.foundations,
        position.recycles, rules.decks, rules.draw, -1 if allowed is None else allowed,
        rules.empty_column is EmptyColumn.ANY, rules.recall, rules.partial_runs, -1.0, 0, 0,
    )  # fmt: skip


def test_the_c_search_is_the_python_search_move_for_move() -> None:
    chooser = random.Random(4040)
    verdicts: Counter[str] = Counter()
    compared = 0
    for rules in _rule_sets():
        for position in _positions(rules, POSITIONS_PER_RULES, chooser):
            native = search(position, node_limit=NODE_LIMIT)
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
            raw = _search.wide_moves(*_arguments(position))  # type: ignore[arg-type]
            moves = [Move(Pile(source), Pile(dest), count) for source, dest, count in raw]
            assert moves == move_order(position, position.legal_moves()), position.to_text()
            seen += len(moves)
    assert seen > 3_000


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
    arguments = list(_arguments(Position.initial(Deal.from_number(1, decks=2), rules)))
    if "decks" in change:
        arguments[6] = change["decks"]
    if "columns" in change:
        arguments[0] = change["columns"]
        arguments[1] = [0]
    if "downs_off" in change:
        arguments[1] = [len(column) + 1 for column in arguments[0]]  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        _search.solve_wide(*arguments)  # type: ignore[arg-type]
