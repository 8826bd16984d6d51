"""Dead ends: can anything still be gained from this position?

Progress means turning up a face-down card or seeing a stock card for the
first time; once every card is known, it means the game can still be won.
The answer is exact, or ``None`` when a limit was reached first.

How the check works. A known position (``quiet.is_known``) goes to the exact
solver. Any other is answered by the C core's quiet-move search
(``_search.quiet_progress``, in search_quiet.h): before the first recycle a
draw always shows something new; otherwise it searches, depth first with a
transposition table, every position that quiet moves reach (draws and
recycles folded into plays from the waste, columns taken as interchangeable,
waste sizes that reach the same cards merged) and stops at the first one with
a legal turn-up. It has the semantics of the Python reference
(``progress_possible_python``, built on ``quiet.explore``), answers as it
does on over a thousand positions (tests/solver/test_quiet_progress.py),
searches about a million positions a second without the interpreter lock,
and decides nearly every end of a game within ``DEFAULT_NODE_LIMIT``.

Where the C core does not take the rules (Klondike's relatives, for now),
the Python reference search answers, under at most ``GENERIC_QUIET_NODES``
positions, and a known position goes to the generic solver
(``solver/generic.py``) under at most ``GENERIC_KNOWN_NODES``: both search
positions far more slowly than the C core, so they get caps of their own.
"""

from __future__ import annotations

from typing import Final, Literal

from bonanza.core.errors import RulesError
from bonanza.core.position import Position
from bonanza.solver import _search  # the C extension (see _search.pyi)
from bonanza.solver.quiet import Budget, explore, is_informative, is_known
from bonanza.solver.search import TALON_SIZE_BOUND, compiled, core_arguments

QuietAnswer = Literal["progress", "none", "unknown"]

DEFAULT_NODE_LIMIT: Final = 250_000
"""Positions the C quiet-move search may visit: at about 1 M a second, some
0.25 s and 30 MiB at most, without the interpreter lock; the median position
is decided in 30 microseconds, and nearly every one far below the cap."""
QUIET_MEMORY_LIMIT: Final = 64 * 2**20
"""Bytes the C quiet-move search may hold (its table and its path)."""
PYTHON_NODE_LIMIT: Final = 20_000
"""The Python reference's default cap (about 0.1 s and more)."""
KNOWN_NODES_PER_NODE: Final = 50
"""Solver nodes a known position's check gets per node of its limit..."""
KNOWN_NODE_CAP: Final = 1_000_000
"""...at most (about 0.7 s of the solver, without the interpreter lock)."""
GENERIC_QUIET_NODES: Final = 20_000
"""The Python quiet-move search's cap where the C core does not take the
rules (some 0.3 s on a two-deck game)."""
GENERIC_KNOWN_NODES: Final = 30_000
"""The generic solver's cap on a known position where the C core does not
take the rules (some 0.5 s)."""
_ANSWERS: Final[dict[QuietAnswer, bool | None]] = {
    "progress": True, "none": False, "unknown": None,
}
_QUIET_ANSWERS: Final[dict[str, QuietAnswer]] = {"progress": "progress", "none": "none",
                                                 "unknown": "unknown"}


def progress_possible(position: Position, node_limit: int = DEFAULT_NODE_LIMIT) -> bool | None:
    """Whether some sequence of legal moves makes progress; ``None`` if undecided."""
    if position.is_won():
        return False
    if is_known(position):
        return winnable(position, node_limit)
    try:
        answer, _ = quiet_progress(position, node_limit)
    except RulesError:  # a game the C core does not take
        return progress_possible_python(position, min(node_limit, GENERIC_QUIET_NODES))
    return _ANSWERS[answer]


def quiet_progress(
    position: Position,
    node_limit: int = DEFAULT_NODE_LIMIT,
    *,
    memory_limit: int = QUIET_MEMORY_LIMIT,
    sound_recalls: bool = True,
) -> tuple[QuietAnswer, int]:
    """The C quiet-move search on a position whose rules are not thoughtful:
    its answer and the positions it visited.

    It skips the recalls proven useless (``sound_recalls``, the rule of
    ``quiet.is_pointless_recall``); ``sound_recalls=False`` skips those the
    rule without recall would, which can miss progress (search_quiet.h), and
    is kept only to show that flaw in the tests.
    """
    if position.rules.thoughtful:
        raise ValueError("with thoughtful rules nothing is informative: ask winnable")
    if node_limit <= 0 or memory_limit <= 0:
        raise ValueError(f"limits must be positive, not {node_limit!r}, {memory_limit!r}")
    arguments = core_arguments(position)
    rules = position.rules
    allowed, recycles = rules.recycles_allowed, position.recycles
    if allowed is not None and allowed - recycles > TALON_SIZE_BOUND:
        allowed = None  # as many as unlimited (search_quiet.h, Q4)
    if allowed is None:
        recycles = min(recycles, 1)  # only whether the stock was seen matters
    answer, nodes = _search.quiet_progress(
        *arguments[:5], recycles, rules.draw, -1 if allowed is None else allowed,
        *arguments[8:], node_limit, memory_limit,
        _search.RECALLS_SOUND if sound_recalls else _search.RECALLS_REFERENCE,
    )
    return _QUIET_ANSWERS[answer], nodes


def progress_possible_python(
    position: Position, node_limit: int = PYTHON_NODE_LIMIT
) -> bool | None:
    """``progress_possible`` by the Python reference search (``quiet.explore``):
    slower, and kept to test the C search against."""
    if position.is_won():
        return False
    if is_known(position):
        return winnable(position, node_limit)
    budget = Budget(node_limit)
    for step in explore(position, budget):
        if is_informative(step.before, step.move):
            return True
    return None if budget.spent else False


def winnable(position: Position, node_limit: int = DEFAULT_NODE_LIMIT) -> bool | None:
    """Whether a fully known position can still be won; ``None`` if undecided.
    The solver gets ``KNOWN_NODES_PER_NODE`` nodes per node of ``node_limit``,
    at most ``KNOWN_NODE_CAP`` (``GENERIC_KNOWN_NODES`` for the generic search)."""
    from bonanza.solver.search import solve

    limit = min(max(node_limit, 1) * KNOWN_NODES_PER_NODE, KNOWN_NODE_CAP)
    if not compiled(position):
        limit = min(limit, GENERIC_KNOWN_NODES)
    result = solve(position, node_limit=limit, memory_limit=128 * 2**20)
    if result.result == "solved":
        return True
    if result.result == "unsolvable":
        return False
    return None
