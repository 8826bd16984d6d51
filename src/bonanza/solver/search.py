"""``solve``: run the C search core on a position and check its answer.

Where the C core does not take the rules (``core_arguments`` raises
``RulesError``: Klondike's relatives, for now), ``solve`` and ``verdict``
run the generic search over the engine's own positions instead
(``generic.py``), which answers in the same terms (``result.py``)."""

from __future__ import annotations

import operator
import sys
from numbers import Real
from typing import Final, Literal

from bonanza.core.deal import Deal
from bonanza.core.errors import InternalError, RulesError
from bonanza.core.moves import ALL_PILES, Move
from bonanza.core.notation import format_move, recycles_beyond
from bonanza.core.position import Position
from bonanza.core.rules import EmptyColumn, Rules, StockMode
from bonanza.solver import _search  # the C extension (see _search.pyi)
from bonanza.solver.result import CLOCKS, LIMITS, VERDICTS
from bonanza.solver.result import Clock as Clock  # (named here too, for callers)
from bonanza.solver.result import Limit as Limit  # (named here too, for callers)
from bonanza.solver.result import SolveResult as SolveResult
from bonanza.solver.result import Verdict as Verdict
from bonanza.solver.switches import (
    FORGOTTEN,
    KEPT_HITS,
    REACH_COLUMN,
    REACH_HOME,
    REACH_WRONG,
    RELAXED_ENDED,
    SIDE_WINS,
    SINGLE_RULES,
    Prune,
    Sides,
)

CoreArguments = tuple[
    list[list[int]], list[int], list[int], int, list[int], int, int, int, bool, bool, bool, bool
]
TALON_SIZE_BOUND = 52
"""More recycles left than this are as many as unlimited (the C core passes
any count of recycles left that is at least the talon's size on as unlimited:
a winning line needs at most one recycle per talon card)."""
DEFAULT_MEMORY: int = _search.DEFAULT_MEMORY
"""The C core's memory budget when none is given, in bytes (256 MiB), for the
search, its side searches and probes together: its table doubles to 128 MiB,
then grows to what the budget holds and, full, forgets positions it can search
again, so the search goes on (``search_forget.h``).  With the interpreter, a
process that solves stays within 300 MB."""
MAX_MEMORY: Final = sys.maxsize
"""The largest memory limit the C cores take, in bytes (a C ``ssize_t``): a
larger one is refused with ``ValueError`` rather than overflowing there."""
SHORTEN_LONGER_THAN = 300
"""``shorten="auto"`` shortens a winning line only where that pays: in games
whose stock is dealt onto the columns (Easthaven), whose searches wander
(it took 95 % of their moves out), and elsewhere when the line found is
longer than this many moves. Klondike's lines are 100 to 340 moves long;
shortening took 0.1 to 2 % of their moves out, and cost more than the search
on a median deal (docs/solver.md, "When a line is shortened")."""
Shorten = bool | Literal["auto"]
"""``solve``'s ``shorten``: always, never, or only where it pays."""


class SolverError(InternalError):
    """The search core returned a line the engine does not accept (a solver bug)."""


def core_arguments(position: Position) -> CoreArguments:
    """The position and rules as the C core's leading arguments: one deck,
    any columns (Klondike, Westcliff, Easthaven); two decks raise
    ``RulesError``. The last says the stock deals onto every column."""
    rules = position.rules
    if rules.decks != 1:
        raise RulesError(f"the solver plays one-deck games only (not {rules.game}) yet")
    allowed = rules.recycles_allowed
    recycles = position.recycles
    if allowed is None:
        recycles = 0  # (only counted under a pass limit)
    elif allowed - recycles > TALON_SIZE_BOUND:
        allowed, recycles = None, 0
    return (
        [[int(card) for card in column] for column in position.tableau],
        list(position.down),
        [int(card) for card in position.waste] + [int(card) for card in reversed(position.stock)],
        len(position.waste),
        list(position.foundations),
        recycles,
        rules.draw,
        -1 if allowed is None else allowed,
        rules.empty_column is EmptyColumn.ANY,
        rules.recall,
        rules.partial_runs,
        rules.stock_mode is StockMode.EVERY_COLUMN,
    )


_CORE_MOVES: dict[tuple[int, int, int], Move] = {}
"""The engine's ``Move`` of each (source, dest, count) the core has answered with: a
line of a few hundred moves is turned into moves by lookups (at most one entry per
source pile, dest pile and count: 20 x 20 x 104, and far fewer in practice), not by
making each move anew (``Pile(n)`` costs half a microsecond)."""


def _core_move(raw: tuple[int, int, int]) -> Move:
    """The engine's move for the core's (source pile, dest pile, count)."""
    move = _CORE_MOVES.get(raw)
    if move is None:
        source, dest, count = raw
        move = _CORE_MOVES[raw] = Move(ALL_PILES[source], ALL_PILES[dest], count)
    return move


def core_legal_moves(position: Position) -> list[Move]:
    """The C core's list of legal moves (a debugging aid; the engine is the reference)."""
    return [_core_move(raw) for raw in _search.legal_moves(*core_arguments(position))]


def solve(
    start: Position | Deal,
    rules: Rules | None = None,
    *,
    time_limit: float | None = None,
    clock: Clock = "wall",
    node_limit: int | None = None,
    memory_limit: int | None = None,
    prune: Prune = Prune.ALL,
    sides: Sides = Sides.DEFAULT,
    seed: int = 0,
    shorten: Shorten = True,
) -> SolveResult:
    """Decide whether ``start`` can be won, playing with every card known.

    ``start`` is a position (its own rules are used unless ``rules`` is given)
    or a deal (``rules`` default to the ``klondike`` preset; rules given for a
    position must lay out its table, ``Rules.same_table``).  Limits: seconds
    (on ``clock``: ``"wall"``, or ``"cpu"``, the searching thread's CPU time,
    which a busy machine does not eat into), positions searched, and bytes of
    solver memory (default ``DEFAULT_MEMORY``, 256 MiB: a full table forgets
    positions it can search again, and the search goes on; at most
    ``MAX_MEMORY``).  A solution is replayed through the engine before it is
    returned.

    ``prune`` and ``sides`` switch pruning rules and side searches off (for
    differential tests: no set of them changes a verdict); of ``prune`` the
    generic search reads ``Prune.DEAD_ENDS``, ``Prune.STOCK_CYCLE`` and
    ``Prune.COVER_TALON`` alone (two decks: rules 8 and 18 for twins,
    search_wide_dead_ends.h, and rule 10, search_wide_run.h).  A nonzero ``seed``
    runs one plain search with its move order shuffled, without the portfolio.
    ``shorten`` (True by default) cuts a winning line down to the fewest moves
    through the positions it visits (the search's line is its depth-first
    path, detours and all), or past the time limit makes a quicker, greedy
    cut; it changes nothing but the line (``cut`` counts the moves taken out,
    ``cut_seconds`` its time). ``False`` keeps the search's own line, and
    ``"auto"`` shortens only where it pays: in games whose stock is dealt onto
    the columns, and lines of more than ``SHORTEN_LONGER_THAN`` moves (for
    callers that want a verdict, not the shortest line: ``bonanza analyze``).
    The generic search ignores it.
    Ctrl-C stops the search within a moment and raises ``KeyboardInterrupt``.
    """
    if not isinstance(start, Position | Deal):
        raise TypeError(
            f"solve takes a Position or a Deal, not {start!r} (Deal.from_number(7) or "
            "Deal.parse(code) makes a deal)"
        )
    if rules is not None and not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules or None, not {rules!r} (Rules.preset(name) "
                        "reads a preset's name)")
    if isinstance(start, Deal):
        position = Position.initial(start, rules or Rules())
    else:
        position = start.copy()
        if rules is not None:
            if not rules.same_table(position.rules):  # its piles are laid out for its own
                raise ValueError(
                    f"rules for another table than the position's: {rules} against "
                    f"{position.rules}"
                )
            position.rules = rules
    too_many = recycles_beyond(position.recycles, position.rules)
    if too_many:
        raise ValueError(f"the position cannot be played under its rules: {too_many}")
    if time_limit is not None and (
        not isinstance(time_limit, Real) or isinstance(time_limit, bool) or not time_limit > 0
    ):  # NaN too, which would mean no limit
        raise ValueError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
    node_limit = _whole("node_limit", node_limit)
    memory_limit = _whole("memory_limit", memory_limit)
    seed = _whole("seed", seed, least=0) or 0
    if memory_limit is not None and memory_limit > MAX_MEMORY:
        raise ValueError(f"memory_limit must be at most {MAX_MEMORY} bytes, not {memory_limit!r}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be a 64-bit whole number, not {seed!r}")
    if clock not in CLOCKS:
        raise ValueError(f"clock must be 'wall' or 'cpu', not {clock!r}")
    if shorten not in (True, False, "auto"):
        raise ValueError(f"shorten must be True, False or 'auto', not {shorten!r}")
    try:
        arguments = core_arguments(position)
    except RulesError:
        return _solve_generic(position, time_limit, clock, node_limit, memory_limit, seed,
                              prune)
    (verdict, raw, nodes, seconds, limit, states, memory, fired, cut, cut_seconds,
     expand_seconds, cpu_seconds) = _search.solve(
        *arguments,
        -1.0 if time_limit is None else float(time_limit),
        0 if node_limit is None else int(node_limit),
        0 if memory_limit is None else int(memory_limit),
        int(Prune(prune)),
        int(Sides(sides)),
        seed,
        1 if shorten else 0,
        _shorten_above(position.rules, shorten),
        True,
        clock == "cpu",
    )
    moves = [_core_move(step) for step in raw]
    if verdict == "solved":
        _check_win(position, moves)
    return SolveResult(
        VERDICTS[verdict], moves, nodes, seconds, LIMITS[limit], states, memory,
        {flag: _fired(fired, flag) for flag in SINGLE_RULES}, fired[SIDE_WINS], cut, cut_seconds,
        expand_seconds, fired[KEPT_HITS], cpu_seconds, fired[FORGOTTEN],
        {"home": fired[REACH_HOME], "column": fired[REACH_COLUMN]}, fired[REACH_WRONG],
        fired[RELAXED_ENDED],
    )


def _whole(name: str, value: int | None, least: int = 1) -> int | None:
    """``value`` as an int, if a whole number (of any integer type, not a float or a
    bool) of at least ``least``; None stays None; else ``ValueError``."""
    if value is None:
        return None
    try:
        whole = None if isinstance(value, bool) else operator.index(value)
    except TypeError:
        whole = None
    if whole is None:
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    if whole < least:
        raise ValueError(f"{name} must be at least {least}, not {value!r}")
    return whole


def _shorten_above(rules: Rules, shorten: Shorten) -> int:
    """The core's ``shorten_above``: a line found is shortened only if it is
    longer (when it is to be shortened at all)."""
    if shorten != "auto" or rules.stock_mode is StockMode.EVERY_COLUMN:
        return 0
    return SHORTEN_LONGER_THAN


def compiled(position: Position) -> bool:
    """Whether the C core takes ``position``'s rules (else ``solve`` searches
    with the generic search, which has none of the core's pruning rules)."""
    try:
        core_arguments(position)
    except RulesError:
        return False
    return True


def _solve_generic(
    position: Position,
    time_limit: float | None,
    clock: Clock,
    node_limit: int | None,
    memory_limit: int | None,
    seed: int,
    prune: Prune,
) -> SolveResult:
    """``solve`` by the generic search (rules the C core does not take), with
    the pruning rules of ``prune`` that it reads."""
    from bonanza.solver import generic, wide  # (loaded for the relatives only)

    result = generic.search(position, time_limit=time_limit, clock=clock, node_limit=node_limit,
                            memory_limit=memory_limit, seed=seed, prune=prune & wide.RULES)
    if result.solved:
        _check_win(position, result.moves)
    return result


def _fired(counts: tuple[int, ...], flag: Prune) -> int:
    """The firings of a switch: rules 1, 2, 5 and 6 share SAFE_MOVES."""
    if flag is Prune.SAFE_MOVES:
        return counts[1] + counts[2] + counts[5] + counts[6]
    return counts[flag.rule]


def _check_win(position: Position, moves: list[Move]) -> None:
    """Replay ``moves`` through the engine; raise ``SolverError`` unless they win."""
    board = position.copy()
    for number, move in enumerate(moves, 1):
        # The engine's test of the one move (is_legal), not the list of every
        # legal move: 7.2 -> 0.8 us a move, most of solve's time on a median
        # deal (docs/solver.md, "The replay").
        if not board.is_legal(move):
            raise SolverError(
                f"solver bug: move {number} ({format_move(move)}) is illegal in {board.to_text()}"
            )
        board.apply(move)
    if not board.is_won():
        raise SolverError(f"solver bug: the line ends unwon in {board.to_text()}")


def verdict(
    position: Position, node_limit: int, prune: Prune = Prune.ALL,
    sides: Sides = Sides.DEFAULT,
) -> tuple[Verdict, Move | None, int]:
    """A quick verdict for sampling: the result, the line's first move and the
    nodes searched. The line is not replayed (``solve`` does that). ``prune``
    and ``sides`` as ``solve``'s (the generic search has neither)."""
    try:
        arguments = core_arguments(position)
    except RulesError:
        from bonanza.solver import generic  # (loaded for the relatives only)

        return generic.sample_verdict(position, node_limit)
    # (A soft node limit: the fair hints' recorded cases were made with it.)
    answer, raw, nodes, *_ = _search.solve(*arguments, -1.0, node_limit, 0, int(Prune(prune)),
                                           int(Sides(sides)), 0, 0, 0, False)
    first = _core_move(raw[0]) if raw else None
    return VERDICTS[answer], first, nodes
