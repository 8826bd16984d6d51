"""The generic search in C (``_search.solve_wide``; search_wide.h): which
positions it takes, and its answer as ``generic.search`` gives it, the talon
macros of its line spelled out in the engine's draws and recycles."""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator
from typing import Final

from bonanza.core.cards import Card
from bonanza.core.moves import Move, Pile
from bonanza.core.position import Position
from bonanza.core.rules import EmptyColumn, StockMode
from bonanza.solver import _search  # the C extension (see _search.pyi)
from bonanza.solver.result import LIMITS, VERDICTS, Clock, SolveResult, Verdict
from bonanza.solver.switches import SINGLE_RULES, Prune

COLUMNS: Final = 10
"""Columns at most that it takes (search_wide.h's W_COLS)."""
HEIGHT: Final = 51
"""Cards in a column at most that it takes (W_HEIGHT less a run of 13)."""
NOT_A_MACRO: Final = -1
"""A line move's talon index where it is a move of the engine's own."""
_STEP: Final = struct.Struct("=4h")
"""One move of ``solve_wide``'s packed line (search_wide_python.h, w_line_bytes):
source pile, destination pile, count, talon index."""

RULES: Final = Prune.DEAD_ENDS | Prune.STOCK_CYCLE | Prune.COVER_TALON
"""The pruning rules the C search reads (of ``solve``'s ``prune``)."""
NO_PRUNING: Final = Prune(0)
"""``search``'s prune for none (the plain search, as the Python one)."""
RULE_8: Final = 1
"""``solve_wide``'s flag of the dead-end test (W_DEAD_ENDS)."""
RULE_18: Final = 2
"""``solve_wide``'s flag of rule 18 in it (W_STOCK_CYCLE)."""
RULE_10: Final = 4
"""``solve_wide``'s flag of rule 10 under merged talon macros (W_COVER_TALON)."""

Step = tuple[int, int, int, int]
"""A move of the C search's line: source and destination piles, count, and
the talon index of a talon play (``NOT_A_MACRO`` for an engine move)."""


def steps(packed: bytes) -> Iterator[Step]:
    """The moves of ``solve_wide``'s packed line, one at a time (a line can be a
    million moves long)."""
    return _STEP.iter_unpack(packed)


def takes(start: Position, time_limit: float | None, node_limit: int | None, seed: int) -> bool:
    """Whether the C search takes ``generic.search``'s call: no seed, the
    engine's stock (not one dealt onto the columns), and the sizes it holds."""
    rules = start.rules
    return (
        not seed
        and rules.stock_mode is not StockMode.EVERY_COLUMN
        and len(start.tableau) <= COLUMNS
        and all(len(column) <= HEIGHT for column in start.tableau)
        and (node_limit is None or node_limit > 0)
        and (time_limit is None or time_limit >= 0)
    )


Arguments = tuple[
    list[list[Card]], list[int], list[Card], list[Card], list[int], int, int, int, int, bool,
    bool, bool,
]
"""``_search.solve_wide``'s arguments but the limits."""


def arguments(start: Position) -> Arguments:
    """``_search.solve_wide``'s arguments for ``start``, less the limits: more
    recycles left than the talon has cards are passed on as unlimited (the C
    search counts them in C ints)."""
    rules = start.rules
    allowed = rules.recycles_allowed
    recycles = start.recycles
    # Exact: a winning line needs at most one recycle per talon card, since a
    # pass that plays no talon card leaves the talon as it was (the other moves
    # never touch it) and can be cut out; so a limit the talon cannot use up is
    # no limit (as search.core_arguments does for one deck).
    if allowed is None:
        recycles = 0  # (only counted under a pass limit)
    elif allowed - recycles > len(start.stock) + len(start.waste):
        allowed, recycles = None, 0
    return (
        start.tableau, start.down, start.stock, start.waste, start.foundations, recycles,
        rules.decks, rules.draw, -1 if allowed is None else allowed,
        rules.empty_column is EmptyColumn.ANY, rules.recall, rules.partial_runs,
    )  # fmt: skip


def search(
    start: Position,
    time_limit: float | None,
    node_limit: int | None,
    memory_limit: int | None,
    talon_macros: bool,
    prune: Prune = NO_PRUNING,
    clock: Clock = "wall",
) -> SolveResult:
    """``generic.search`` in C (see there, and search_wide.h); ``prune``
    (with ``talon_macros``): ``Prune.DEAD_ENDS`` drops hopeless positions (rule 8
    for two decks, search_wide_dead_ends.h), counted in ``fired[Prune.DEAD_ENDS]``,
    and with it ``Prune.STOCK_CYCLE`` takes only the talon cards the draws reach
    as playable (rule 18; ``fired[Prune.STOCK_CYCLE]`` counts the positions that
    only it found hopeless); ``Prune.COVER_TALON`` has the merged talon macros
    cover a talon card put on a column by the next move (rule 10;
    ``fired[Prune.COVER_TALON]`` counts the positions so restricted), with the
    talon-macro search without it beside it (search_wide_python.h's
    ``w_members``)."""
    (verdict, raw, nodes, seconds, limit, states, memory, cpu_seconds, dropped, by_rule_18,
     covered) = (
        _search.solve_wide(
            *arguments(start),
            -1.0 if time_limit is None else float(time_limit),
            0 if node_limit is None else node_limit,
            0 if memory_limit is None else memory_limit,
            talon_macros,
            _flags(prune),
            clock == "cpu",
        )
    )
    fired = dict.fromkeys(SINGLE_RULES, 0)
    fired[Prune.DEAD_ENDS] = dropped
    fired[Prune.STOCK_CYCLE] = by_rule_18
    fired[Prune.COVER_TALON] = covered
    return SolveResult(
        VERDICTS[verdict], spelled_out(start, steps(raw)), nodes, seconds, LIMITS[limit], states,
        memory, fired, cpu_seconds=cpu_seconds,
    )  # fmt: skip


def _flags(prune: Prune) -> int:
    """``solve_wide``'s prune: 1 for rule 8, 3 with rule 18 too, and 4 more for
    rule 10 (W_DEAD_ENDS, W_STOCK_CYCLE, W_COVER_TALON in search_wide_run.h)."""
    cover = RULE_10 if Prune.COVER_TALON in prune else 0
    if Prune.DEAD_ENDS not in prune:
        return cover
    return cover | RULE_8 | (RULE_18 if Prune.STOCK_CYCLE in prune else 0)


def sample(start: Position, node_limit: int) -> tuple[Verdict, Move | None, int]:
    """The fair hints' quick verdict of a sampled layout (``search.verdict``):
    ``search``'s answer with talon macros under ``node_limit`` nodes, and only
    its line's first move spelled out (the rest is never played)."""
    verdict, raw, nodes, *_ = _search.solve_wide(
        *arguments(start), -1.0, node_limit, 0, True
    )
    return VERDICTS[verdict], first_move(start, raw), nodes


def hopeless(start: Position, prune: Prune) -> bool:
    """Whether ``search``'s dead-end test, as ``prune`` asks for it, drops
    ``start`` (under talon macros, as ``search`` tests it): for tests."""
    return _search.wide_hopeless(*arguments(start), -1.0, 0, 0, True, _flags(prune))


def first_move(start: Position, raw: bytes) -> Move | None:
    """The first of the engine's moves that ``spelled_out`` makes of the
    packed line ``raw``."""
    step = next(steps(raw), None)
    return None if step is None else _engine_moves(start, step)[0]


def spelled_out(start: Position, raw: Iterable[Step]) -> list[Move]:
    """The C search's line as the engine's moves: each talon play (a talon
    index ``i`` into the talon in draw order, the waste from its bottom up
    and then the stock from its next card on) after the draws, and the
    recycle, that make ``i`` the waste top (talon macros: search_wide.h).
    The engine's own moves are taken as they are until the first talon play,
    which needs the board."""
    board: Position | None = None
    line: list[Move] = []
    for step in raw:
        source, dest, count, index = step
        if board is None and index == NOT_A_MACRO:
            line.append(Move(Pile(source), Pile(dest), count))
            continue
        if board is None:
            board = start.copy()
            for move in line:
                board.apply(move)
        for move in _engine_moves(board, step):
            board.apply(move)
            line.append(move)
    return line


def _engine_moves(board: Position, step: Step) -> list[Move]:
    """One move of the C search's line as the engine's moves from ``board``:
    a talon play after the draws (and the recycle) that reach its card."""
    source, dest, count, index = step
    reach = [] if index == NOT_A_MACRO else _to_waste_top(board, index)
    return [*reach, Move(Pile(source), Pile(dest), count)]


def _to_waste_top(board: Position, index: int) -> list[Move]:
    """The draws (and the recycle) that make talon card ``index`` the waste
    top: the draws of this pass where they reach it (as the C search plays
    it), else to the end, a recycle, and the draws of the next pass."""
    waste, stock, draw = len(board.waste), len(board.stock), board.rules.draw
    size, wanted = waste + stock, index + 1
    if wanted == waste:
        return []
    if wanted > waste and ((wanted - waste) % draw == 0 or wanted == size):
        return _draws(waste, wanted, size, draw)
    recycle = Move(Pile.WASTE, Pile.STOCK, size)
    return [*_draws(waste, size, size, draw), recycle, *_draws(0, wanted, size, draw)]


def _draws(start: int, end: int, size: int, draw: int) -> list[Move]:
    """The draws that take the waste from ``start`` cards to ``end`` (of a
    talon of ``size``)."""
    moves = []
    while start < end:
        count = min(draw, size - start)
        moves.append(Move(Pile.STOCK, Pile.WASTE, count))
        start += count
    return moves
