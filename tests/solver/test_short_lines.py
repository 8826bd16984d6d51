"""Short winning lines: the C core cuts the line it found down to the fewest
moves through the line's own positions (``search_shortcut.h``), before
``solve`` replays it in the engine.

The search's line is its depth-first path: in Easthaven it can wander for
hundreds of thousands of moves (deal 14: 71,052; deal 34: 849,907). The
shortening must keep every line legal and winning (``solve`` replays it),
never visit a position twice, never lengthen a line, and change nothing but
the line: verdicts and node counts are the same with it on and off.
"""

from __future__ import annotations

import dataclasses
import time

import pytest

from bonanza.core import Deal, EmptyColumn, Move, Pile, Position, Rules
from bonanza.solver import _search
from bonanza.solver.lines import place_key
from bonanza.solver.search import _check_win, core_arguments, solve

GAMES: dict[str, Rules] = {
    "klondike": Rules.preset("klondike"),
    "klondike-3": Rules.preset("klondike-3"),
    "vegas-3": Rules.preset("vegas-3"),  # passes limited: recycles are part of a position
    "westcliff": Rules.preset("westcliff"),
    "easthaven": Rules.preset("easthaven"),
    "easthaven-whole-runs": dataclasses.replace(Rules.preset("easthaven"), partial_runs=False),
    "options": Rules(draw=3, passes=2, empty_column=EmptyColumn.ANY, recall=False,
                     partial_runs=False),
}
DEALS = range(1, 151)
NODES = 20_000
"""A node limit, not a time limit, so that the searches with and without
shortening are the same search (the portfolio reads the clock only for its
time limit)."""

SHORTENS_AT_LEAST = {"klondike": 28, "klondike-3": 24, "vegas-3": 7, "westcliff": 1,
                     "easthaven": 33, "easthaven-whole-runs": 22, "options": 4}
"""How many of the deals' lines each game must shorten, at least: half of
what it did at NODES when the tests were written (Klondike 56 of 132 wins,
a few moves each; Westcliff 3 of 149; Easthaven all 66, by 65 % of the moves)."""


def _never_repeats(start: Position, moves: list[Move]) -> bool:
    board = start.copy()
    seen = {place_key(board)}
    for move in moves:
        board.apply(move)
        seen.add(place_key(board))
    return len(seen) == len(moves) + 1


@pytest.mark.parametrize("game", GAMES)
def test_short_lines_win_never_repeat_and_change_nothing_else(game: str) -> None:
    rules = GAMES[game]
    shortened = 0
    for number in DEALS:
        start = Position.initial(Deal.from_number(number), rules)
        short = solve(start, node_limit=NODES)  # (replayed by solve: legal, and wins)
        found = solve(start, node_limit=NODES, shorten=False)
        assert (short.result, short.nodes, short.limit, short.states, short.fired,
                short.side_wins) == (found.result, found.nodes, found.limit, found.states,
                                     found.fired, found.side_wins), f"{game} deal {number}"
        assert found.cut == 0
        if not short.solved:
            assert short.moves == [] and short.cut == 0
            continue
        assert len(short.moves) + short.cut == len(found.moves), f"{game} deal {number}"
        assert _never_repeats(start, short.moves), f"{game} deal {number}"
        shortened += short.cut > 0
    assert shortened >= SHORTENS_AT_LEAST[game]


def test_the_greedy_plan_gives_legal_lines_too() -> None:
    """Past the time limit the shortest plan gives way to the greedy one
    (``shorten`` 2 asks for it alone): its lines win, never repeat a position,
    and are no longer than the line found, nor shorter than the shortest."""
    rules = GAMES["easthaven"]
    for number in range(1, 61):
        start = Position.initial(Deal.from_number(number), rules)
        runs = [_search.solve(*core_arguments(start), -1.0, NODES, 0, _search.PRUNE_ALL,
                              _search.SIDES_DEFAULT, 0, mode) for mode in (0, 1, 2)]
        found, shortest, greedy = ([Move(Pile(s), Pile(d), c) for s, d, c in run[1]]
                                   for run in runs)
        assert runs[0][0] == runs[1][0] == runs[2][0]
        assert runs[0][2] == runs[1][2] == runs[2][2]
        if runs[0][0] != "solved":
            continue
        _check_win(start, greedy)
        assert _never_repeats(start, greedy)
        assert len(shortest) <= len(greedy) <= len(found)
        assert runs[2][8] == len(found) - len(greedy)


def test_a_long_easthaven_line_is_cut_short_within_the_time_limit() -> None:
    """Easthaven deal 14: the search's line has 71,052 moves, and replaying
    it in the engine took seconds; shortened it has 188 (the greedy plan, the
    fallback past the time limit, gives 473). Over deals 1-300 no shortened
    line was longer than 4,989 moves (deal 234, greedy), so 1,000 is ample
    here. Replay included, the solve keeps to its time limit."""
    limit = 10.0
    began = time.perf_counter()
    result = solve(Deal.from_number(14), Rules.preset("easthaven"), time_limit=limit)
    took = time.perf_counter() - began
    assert result.solved
    assert len(result.moves) <= 1000
    assert result.cut > 70_000
    assert result.cut_seconds <= result.seconds
    assert took < limit


def test_shortening_is_off_for_the_quick_verdict() -> None:
    """``verdict`` (the samplers' call) keeps the search's first move: its
    hints do not depend on the shortening."""
    from bonanza.solver.search import verdict

    start = Position.initial(Deal.from_number(14), Rules.preset("easthaven"))
    raw = _search.solve(*core_arguments(start), -1.0, 2_000_000, 0)
    answer, first, _ = verdict(start, 2_000_000)
    assert answer == raw[0] == "solved"
    assert first == Move(Pile(raw[1][0][0]), Pile(raw[1][0][1]), raw[1][0][2])
