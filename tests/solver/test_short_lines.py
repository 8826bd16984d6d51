"""Short winning lines: the C core cuts the line it found down to the fewest
moves through the line's own positions (``search_shortcut.h``), before
``solve`` replays it in the engine.

The search's line is its depth-first path: in Easthaven it can wander for
hundreds of thousands of moves (deal 14: 71,052; deal 34: 849,907). The
shortening must keep every line legal and winning (``solve`` replays it),
never visit a position twice, never lengthen a line, and change nothing but
the line: verdicts and node counts are the same with it on and off.

``shorten=True`` (the default) shortens every line, ``False`` none, and
``"auto"`` only where that pays: in games whose stock is dealt onto the
columns (Easthaven), and lines longer than ``SHORTEN_LONGER_THAN`` moves.
"""

from __future__ import annotations

import dataclasses
import time

import pytest

from bonanza.core import Deal, EmptyColumn, Move, Pile, Position, Rules
from bonanza.core.rules import StockMode
from bonanza.solver import _search
from bonanza.solver.lines import place_key
from bonanza.solver.search import SHORTEN_LONGER_THAN, _check_win, core_arguments, solve

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
    result = solve(Deal.from_number(14), Rules.preset("easthaven"), time_limit=limit,
                   shorten="auto")
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


AUTO_DEALS = range(1, 61)


@pytest.mark.parametrize("game", GAMES)
def test_auto_shortens_a_line_only_where_it_pays(game: str) -> None:
    """``shorten="auto"``, ``True`` (the default) and ``False`` give the same
    verdicts and searches; every line wins (``solve`` replays it, and so does
    this test), none is longer than the search's own, and auto's is the
    shortened one exactly where the rule says: in Easthaven (its stock
    dealt onto the columns) and for lines of more than SHORTEN_LONGER_THAN
    moves, else the search's own."""
    rules = GAMES[game]
    dealt = rules.stock_mode is StockMode.EVERY_COLUMN
    for number in AUTO_DEALS:
        start = Position.initial(Deal.from_number(number), rules)
        auto, always, never = (solve(start, node_limit=NODES, shorten=shorten)
                               for shorten in ("auto", True, False))
        assert solve(start, node_limit=NODES).moves == always.moves
        searches = {(run.result, run.nodes, run.limit, run.states, run.side_wins)
                    for run in (auto, always, never)}
        assert len(searches) == 1, f"{game} deal {number}"
        if not auto.solved:
            assert auto.moves == always.moves == never.moves == []
            continue
        for run in (auto, always, never):
            _check_win(start, run.moves)
            assert len(run.moves) + run.cut == len(never.moves)
        assert len(always.moves) <= len(auto.moves) <= len(never.moves)
        if dealt or len(never.moves) > SHORTEN_LONGER_THAN:
            assert auto.moves == always.moves, f"{game} deal {number}"
        else:
            assert auto.moves == never.moves and auto.cut == 0, f"{game} deal {number}"
            assert auto.cut_seconds == 0.0


def test_the_threshold_is_honoured(monkeypatch: pytest.MonkeyPatch) -> None:
    """Klondike lines found are 100 to 350 moves long: with the threshold
    lowered below them, ``"auto"`` shortens them as ``shorten=True`` does;
    the core shortens a line only if it is longer than ``shorten_above``."""
    import bonanza.solver.search as search

    rules = GAMES["klondike"]
    monkeypatch.setattr(search, "SHORTEN_LONGER_THAN", 50)
    cut = 0
    for number in range(1, 21):
        start = Position.initial(Deal.from_number(number), rules)
        auto, always = (solve(start, node_limit=NODES, shorten=shorten)
                        for shorten in ("auto", True))
        assert auto.moves == always.moves and auto.cut == always.cut
        cut += auto.cut
    assert cut > 0
    start = Position.initial(Deal.from_number(3), rules)  # 173 moves found, 3 cut
    arguments = (*core_arguments(start), -1.0, NODES, 0, _search.PRUNE_ALL,
                 _search.SIDES_DEFAULT, 0, 1)
    found = _search.solve(*arguments[:-1], 0)
    shortest = _search.solve(*arguments)
    assert found[0] == "solved" and shortest[8] > 0
    kept, cut_short = (_search.solve(*arguments, above) for above in (len(found[1]), 50))
    assert kept[1] == found[1] and kept[8] == 0 and kept[9] == 0.0
    assert cut_short[1] == shortest[1] and cut_short[8] == shortest[8]
    with pytest.raises(ValueError, match="shorten_above"):
        _search.solve(*arguments, -1)


@pytest.mark.parametrize("game", ["klondike", "easthaven"])
def test_the_time_is_given_in_parts(game: str) -> None:
    """``seconds`` is the search's time, the line's expansion and its
    shortening (``search_seconds``, ``expand_seconds``, ``cut_seconds``); a
    deal not won has neither of the last two."""
    rules = GAMES[game]
    for number in range(1, 21):
        for shorten in ("auto", True, False):
            result = solve(Deal.from_number(number), rules, node_limit=NODES, shorten=shorten)
            parts = result.search_seconds + result.expand_seconds + result.cut_seconds
            assert min(result.search_seconds, result.expand_seconds, result.cut_seconds) >= 0
            assert parts == pytest.approx(result.seconds, abs=1e-9)
            if not result.solved:
                assert result.expand_seconds == result.cut_seconds == 0.0
            else:
                assert result.expand_seconds > 0
            if shorten is False:
                assert result.cut_seconds == 0.0


def test_shorten_takes_true_false_or_auto() -> None:
    with pytest.raises(ValueError, match="shorten"):
        solve(Deal.from_number(2), GAMES["klondike"], node_limit=NODES, shorten="yes")  # type: ignore[arg-type]
