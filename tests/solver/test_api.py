"""``bonanza.solver.solve``: verdicts on deals, limits, results, saved games."""

from __future__ import annotations

import dataclasses

import pytest

from bonanza.core import Deal, Game, Move, Pile, Position, Rules
from bonanza.solver import Prune, Sides, SolveResult, solve
from bonanza.solver.search import SolverError, _check_win
from bonanza.solver.stats import percentile, wilson_interval

# Among the slowest deals for the solver (over a second in draw 1).
HARD_DEAL = 4107606920159746969
FILLS = 1_000_000
"""Nodes of HARD_DEAL's search after which a 1 MB table has forgotten entries."""


def replay_wins(position: Position, moves: list[Move]) -> bool:
    board = position.copy()
    for move in moves:
        board.play(move)
    return board.is_won()


@pytest.mark.parametrize(("number", "draw"), [(0, 1), (2, 1), (3, 1), (2, 3), (5, 3)])
def test_solved_deals_replay_to_a_win(number: int, draw: int) -> None:
    rules = Rules(draw=draw, thoughtful=True)
    result = solve(Deal.from_number(number), rules, time_limit=30)
    assert result.result == "solved"
    assert replay_wins(Position.initial(Deal.from_number(number), rules), result.moves)
    assert result.limit is None
    assert result.seconds >= 0
    assert result.nodes >= 1
    draws = [move for move in result.moves if move.is_draw]
    assert draws and all(1 <= move.count <= draw for move in draws)


def test_unsolvable_deal_is_proven() -> None:
    # Deal 3 with draw 3 and a single pass cannot be won.
    result = solve(Deal.from_number(3), Rules(draw=3, passes=1))
    assert result.result == "unsolvable"
    assert result.moves == []
    assert result.limit is None


def test_recycles_appear_in_the_line() -> None:
    result = solve(Deal.from_number(3), Rules(draw=1))
    assert any(move.is_recycle for move in result.moves)
    recycle = next(move for move in result.moves if move.is_recycle)
    assert recycle == Move(Pile.WASTE, Pile.STOCK, recycle.count) and recycle.count > 0


def test_node_limit_gives_unknown() -> None:
    result = solve(Deal.from_number(1), Rules(), node_limit=50)
    assert result == dataclasses.replace(result, result="unknown", limit="nodes", moves=[])
    assert result.nodes <= 51


def test_time_limit_gives_unknown() -> None:
    result = solve(Deal.from_number(HARD_DEAL), Rules(), time_limit=0.05)
    assert (result.result, result.limit) == ("unknown", "time")
    assert result.seconds < 1


def test_a_full_table_forgets_and_the_search_goes_on() -> None:
    # Before the table forgot (search_forget.h), 1 MB stopped this search for memory. A
    # node limit, not a time limit: a slow build (the sanitizers') reaches it too.
    result = solve(Deal.from_number(HARD_DEAL), Rules(), memory_limit=1_000_000, node_limit=FILLS)
    assert (result.result, result.limit, result.nodes) == ("unknown", "nodes", FILLS)
    assert result.forgotten > 0


def test_memory_limit_gives_unknown() -> None:
    result = solve(Deal.from_number(HARD_DEAL), Rules(), memory_limit=100_000)
    assert (result.result, result.limit) == ("unknown", "memory")


def test_bad_limits_are_refused() -> None:
    with pytest.raises(ValueError, match="time_limit"):
        solve(Deal.from_number(0), time_limit=0)


def test_solves_a_saved_game_part_way() -> None:
    game = Game(Deal.from_number(0), Rules())
    first = solve(game.position)
    for move in first.moves[:40]:
        game.play(move)
    loaded = Game.from_json(game.to_json())
    result = solve(loaded.position)
    assert result.result == "solved"
    assert replay_wins(loaded.position, result.moves)


def test_rules_argument_overrides_the_position_rules() -> None:
    position = Position.initial(Deal.from_number(3), Rules())
    assert solve(position, Rules(draw=3, passes=1)).result == "unsolvable"
    assert position.rules == Rules()


def test_result_repr_is_readable() -> None:
    result = solve(Deal.from_number(2))
    text = repr(result)
    assert text.startswith("SolveResult('solved', ")
    assert "nodes=" in text and "seconds=" in text
    assert isinstance(result, SolveResult) and result.solved


def test_check_win_rejects_bad_lines() -> None:
    position = Position.initial(Deal.from_number(2), Rules())
    with pytest.raises(SolverError, match="illegal"):
        _check_win(position, [Move(Pile.WASTE, Pile.T1, 1)])
    with pytest.raises(SolverError, match="unwon"):
        _check_win(position, [Move(Pile.STOCK, Pile.WASTE, 1)])


def test_wilson_interval_and_percentile() -> None:
    low, high = wilson_interval(1809, 2000)
    assert low < 1809 / 2000 < high
    assert round(low, 3) == 0.891 and round(high, 3) == 0.917
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.99) == 4.0
    assert percentile([], 0.5) == 0.0


def test_a_win_found_with_one_recycle_replays_through_the_engine() -> None:
    # The side search with few passes finds this draw-3 win (without rule 18,
    # whose exact search finds another in a few hundred nodes); its line is
    # the answer under unlimited passes, and plays move by move.
    deal = Deal.from_number(14936029865184760846)
    result = solve(deal, Rules(draw=3), time_limit=30, prune=Prune.ALL & ~Prune.STOCK_CYCLE)
    assert result.result == "solved" and result.side_wins == 1
    assert sum(move.is_recycle for move in result.moves) <= 1
    assert replay_wins(Position.initial(deal, Rules(draw=3)), result.moves)


def test_a_win_found_by_the_hasty_side_search_replays_through_the_engine() -> None:
    # The hasty side search plays talon cards only as the exact search does
    # with draw 1; under draw 3 that is not proven to keep wins, but every
    # line it finds is a real line, and this one plays move by move.
    deal = Deal.from_number(11761136509767280738)
    result = solve(deal, Rules(draw=3), time_limit=30)
    assert result.result == "solved" and result.nodes < 1_000_000
    assert replay_wins(Position.initial(deal, Rules(draw=3)), result.moves)


def test_a_win_with_recalls_replays_through_the_engine() -> None:
    # Rule 13 sends cards home and searches a recall only together with the
    # move that needs it; the line reported still plays move by move.  (The
    # side search without recall is off: it finds a win with none.)
    deal = Deal.from_number(13676386007290107525)
    result = solve(deal, Rules(draw=1), node_limit=12_000_000,
                   sides=Sides.DEFAULT & ~Sides.NO_RECALL)
    assert result.result == "solved"
    assert any(move.source.is_foundation for move in result.moves)
    assert replay_wins(Position.initial(deal, Rules(draw=1)), result.moves)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"time_limit": float("nan")}, "time_limit must be a positive number"),
        ({"time_limit": 0}, "time_limit must be a positive number"),
        ({"time_limit": "10"}, "time_limit must be a positive number of seconds, not '10'"),
        ({"time_limit": True}, "time_limit must be a positive number"),
        ({"node_limit": 2.5}, "node_limit must be a whole number"),
        ({"node_limit": 0}, "node_limit must be at least 1"),
        ({"memory_limit": True}, "memory_limit must be a whole number"),
        ({"seed": 1.5}, "seed must be a whole number"),
        ({"seed": -1}, "seed must be at least 0"),
    ],
)
def test_limits_that_are_not_what_they_seem_are_refused(
    options: dict[str, object], words: str
) -> None:
    """A NaN time limit was no limit at all; a node limit of 2.5 was cut to 2."""
    with pytest.raises(ValueError, match=words):
        solve(Deal.from_number(7), **options)  # type: ignore[arg-type]


def test_rules_for_another_table_than_the_position_s_are_refused() -> None:
    position = Position.initial(Deal.from_number(7), Rules())
    assert solve(position, Rules(draw=3), node_limit=100_000).result in ("solved", "unknown")
    for other in ("westcliff", "double-klondike"):
        with pytest.raises(ValueError, match="another table"):
            solve(position, Rules.preset(other))


def test_a_position_with_more_recycles_than_the_rules_passes_is_refused_by_name() -> None:
    start = Position.initial(Deal.from_number(7), Rules())
    start.recycles = 5  # a saved game of unlimited passes, five times through
    with pytest.raises(ValueError, match="recycles 5: 3 passes allow at most 2 turns"):
        solve(start, dataclasses.replace(Rules(), passes=3), node_limit=1000)


@pytest.mark.parametrize("start", [7, "7", None, Deal.from_number(7).code])
def test_a_start_that_is_no_position_or_deal_is_refused_by_name(start: object) -> None:
    with pytest.raises(TypeError, match="solve takes a Position or a Deal, not"):
        solve(start)  # type: ignore[arg-type]


@pytest.mark.parametrize("rules", ["klondike-3", 3])
def test_rules_that_are_no_rules_are_refused_by_name(rules: object) -> None:
    with pytest.raises(TypeError, match=r"rules must be a Rules or None, not .*Rules\.preset"):
        solve(Deal.from_number(7), rules)  # type: ignore[arg-type]
