"""An exact search over the engine's own ``Position``, for any ``Rules``.

``solve`` uses it wherever the C core does not take the rules
(``search.core_arguments`` raises ``RulesError``): Klondike's relatives
(docs/variants.md). It plays through ``Position.legal_moves`` and
``Position.apply``, so it knows every rule the engine knows. It is written
twice: here in Python (``search_python``, some tens of thousands of
positions a second, for any rules and seeds), and in C, move for move
(``wide.py``, search_wide.h: about two million a second), which ``search``
runs wherever it can.

**How it searches.** Depth first, children in a fixed order of promise
(``move_order``): safe cards home, moves that turn up a face-down card,
other cards home, plays from the waste and moves that empty a column, stock
moves, other tableau moves, recycles, and last cards back from a
foundation. Every position reached is stored in a transposition table under
its canonical key (``position_key``) and never expanded twice.

**No pruning.** Every legal move of every position reached is tried, so
``unsolvable`` means the whole reachable space was searched: a proof. The
only reduction is the key, which merges positions that are the same game
(``position_key`` proves it). Anything else the search meets first (the node
or time limit, or the table's memory) makes the answer ``unknown``.

**Twins.** With two decks, card ``c`` and its twin ``c + 52`` play alike,
so the key writes both as ``c``; the line found replays as it is, since a
move names piles, never cards.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from bonanza.core.cards import DECK_SIZE, MAX_DECKS, SUIT_COUNT
from bonanza.core.moves import COLUMN_INDEX, Move
from bonanza.core.position import Position
from bonanza.core.rules import StockMode
from bonanza.core.safety import never_needed
from bonanza.solver import wide
from bonanza.solver.result import Clock, Limit, SolveResult, Verdict
from bonanza.solver.switches import SINGLE_RULES, Prune

DEFAULT_MEMORY: Final = 2**30
"""Bytes the Python search's keys may hold when no memory limit is given (the
search in C has the core's budget, ``search.DEFAULT_MEMORY``)."""
KEY_OVERHEAD: Final = 90
"""Bytes a stored key costs beside its own length: the bytes object's header
and its share of the set's slots (measured with ``tracemalloc``)."""
FRAME_BYTES: Final = 1_500
"""Bytes one position on the search path costs (a copy and its move list)."""
CLOCK_EVERY: Final = 256
SEPARATOR: Final = 255
"""The byte between the parts of a key: no card id, count or rank reaches it."""
_TWIN_TABLE: Final = bytes(byte % DECK_SIZE if byte < MAX_DECKS * DECK_SIZE else byte
                           for byte in range(256))
"""``bytes.translate`` table writing each card's twin ``c + 52`` as ``c``."""

# The buckets of ``move_order``, most promising first.
SAFE_HOME: Final = 0
TURNS_UP: Final = 1
HOME: Final = 2
FREEING: Final = 3
STOCK: Final = 4
TABLEAU: Final = 5
RECYCLE: Final = 6
RECALL: Final = 7


def position_key(position: Position) -> bytes:
    """The canonical key of ``position``: equal keys are the same game.

    Proof that merging them is sound (a position is won exactly when any
    position of its key is):

    - **Columns.** Every rule treats the columns alike, but for Easthaven's
      deal, which gives column 1 the first card: so the columns are sorted,
      except while a stock dealt onto the columns still has cards. Renaming
      columns maps legal moves to legal moves and won positions to won ones.
    - **Twins** (two decks). ``legal_moves`` and ``apply`` look at a card's
      rank, suit and colour only (``PARENTS_TWO_DECKS`` lists both twins);
      ``apply`` renames twins when one goes home, and the foundations count
      cards, not ids. So swapping the ids of twins maps each legal move to
      itself and its result to the result with twins swapped: the key writes
      ``c + 52`` as ``c``, before the columns are sorted. Two positions with
      the same key then differ by a renaming of columns and the swap of some
      twins, each a map of the game onto itself. (Sorting first, as the key
      did until 2026-12-06, kept some of those positions apart: a column
      holding ``c + 52`` sorted after one that ``c`` sorted before.)
    - **The two foundations of a suit** (two decks) accept the same cards and
      give back the same card (``_home_card`` reads both heights alike):
      their heights are written in order.
    - **Recycles** decide nothing with unlimited passes (``can_recycle`` is
      always true): they are left out then.
    """
    rules = position.rules
    two_decks = rules.decks > 1
    columns = [
        bytes((down, *column)) for down, column in zip(position.down, position.tableau,
                                                       strict=True)
    ]
    if two_decks:
        columns = [column.translate(_TWIN_TABLE) for column in columns]
    if not (rules.stock_mode is StockMode.EVERY_COLUMN and position.stock):
        columns.sort()
    stock, waste = bytes(position.stock), bytes(position.waste)
    homes = position.foundations
    if two_decks:
        foundations = bytes(
            height
            for suit in range(SUIT_COUNT)
            for height in sorted((homes[suit], homes[suit + SUIT_COUNT]))
        )
    else:
        foundations = bytes(homes)
    key = bytes((SEPARATOR,)).join((*columns, stock, waste, foundations))
    if two_decks:
        key = key.translate(_TWIN_TABLE)
    if rules.passes is not None:
        key += b"%c%d" % (SEPARATOR, position.recycles)
    return key


def move_order(position: Position, moves: list[Move]) -> list[Move]:
    """``moves`` most promising first (see the module); the order within a
    bucket is the engine's."""
    return sorted(moves, key=lambda move: _bucket(position, move))


_FROM_COLUMN: Final = -1
"""``_kind`` of a move from a column to a column: its bucket depends on the column."""
_TO_FOUNDATION: Final = -2
"""``_kind`` of a move home from a column or the waste: its bucket depends on the card."""
_KINDS: dict[Move, int] = {}
"""Each move's ``_kind``, as moves are met (a move's kind never changes)."""


def _kind(move: Move) -> int:
    """The bucket of ``move`` where it is fixed by its piles, else ``_FROM_COLUMN``
    or ``_TO_FOUNDATION``."""
    source, dest = move.source, move.dest
    if source.is_foundation:
        return RECALL
    if move.is_recycle:
        return RECYCLE
    if move.is_draw:
        return STOCK
    if dest.is_foundation:
        return _TO_FOUNDATION
    return _FROM_COLUMN if source.is_tableau else FREEING  # (from the waste to a column)


def _bucket(position: Position, move: Move) -> int:
    kind = _KINDS.get(move)
    if kind is None:
        kind = _KINDS[move] = _kind(move)
    if kind == _TO_FOUNDATION:
        card = position.moving_cards(move)[0]
        safe = never_needed(position.foundations, card, recall=position.rules.recall)
        return SAFE_HOME if safe else HOME
    if kind == _FROM_COLUMN:
        index = COLUMN_INDEX[move.source]
        down = position.down[index]
        if move.count == len(position.tableau[index]) - down:
            return TURNS_UP if down else FREEING
        return TABLEAU
    return kind


@dataclass(slots=True)
class _Frame:
    """A position on the search path and the moves left to try from it."""

    position: Position
    moves: list[Move]
    next: int = 0


@dataclass(slots=True)
class _Limits:
    node_limit: int | None
    deadline: float | None  # on clock
    memory_limit: int
    clock: Callable[[], float] = time.perf_counter
    started: float = field(default_factory=time.perf_counter)
    cpu_started: float = field(default_factory=time.thread_time)


def search(
    start: Position,
    *,
    time_limit: float | None = None,
    clock: Clock = "wall",
    node_limit: int | None = None,
    memory_limit: int | None = None,
    seed: int = 0,
    talon_macros: bool = True,
    prune: Prune = wide.NO_PRUNING,
) -> SolveResult:
    """Decide whether ``start`` can be won with every card known (see the
    module), answering as ``solve`` does (``solve`` replays the line). A
    nonzero ``seed`` shuffles the order within each bucket.

    The search runs in C (``solver/wide.py``) where it can: without a seed,
    under the engine's stock (not a stock dealt onto the columns). It is
    this module's search move for move, so the answer is the same as
    ``search_python``'s, nodes and states included, in a fraction of the
    time; only ``memory`` is its own. ``talon_macros`` (the default) runs
    beside it a search whose moves play talon cards after the draws that
    reach them, with no position for each draw (and with draw 1 and
    unlimited passes, one position for every pointer of a talon): the same
    verdicts (the proofs are in search_wide.h), far fewer positions, other
    nodes and lines. ``prune`` (of ``wide.RULES``), with talon macros, has both
    drop the positions where some card can never go home (``Prune.DEAD_ENDS``;
    with ``Prune.STOCK_CYCLE`` too, taking as playable only the talon cards the
    draws reach: search_wide_dead_ends.h), and ``Prune.COVER_TALON`` has the
    merged talon macros cover a talon card put on a column at once (rule 10,
    search_wide_run.h; the talon-macro search without it runs too, first
    after the one with it, since each wins early deals the other does not):
    the same verdicts, some sooner; ``solve`` asks for them, the fair hints'
    samples do not (they keep the searches they were tuned with)."""
    if wide.takes(start, time_limit, node_limit, seed):
        return wide.search(start, time_limit, node_limit, memory_limit, talon_macros,
                           prune if talon_macros else wide.NO_PRUNING, clock)
    return search_python(start, time_limit=time_limit, clock=clock, node_limit=node_limit,
                         memory_limit=memory_limit, seed=seed)


def sample_verdict(start: Position, node_limit: int) -> tuple[Verdict, Move | None, int]:
    """The fair hints' quick verdict of a sampled layout: the result, the
    line's first move and the nodes searched, under ``node_limit`` nodes.

    With talon macros where the C search takes the position (far more
    layouts decided within a sample's cap, docs/hints.md), only the line's
    first move spelled out; else ``search_python``'s answer."""
    if wide.takes(start, None, node_limit, 0):
        return wide.sample(start, node_limit)
    result = search_python(start, node_limit=node_limit)
    return result.result, result.moves[0] if result.moves else None, result.nodes


def search_python(
    start: Position,
    *,
    time_limit: float | None = None,
    clock: Clock = "wall",
    node_limit: int | None = None,
    memory_limit: int | None = None,
    seed: int = 0,
) -> SolveResult:
    """``search`` in Python, for any rules and a seed (the reference that
    ``_search.solve_wide`` is tested against)."""
    timer = time.thread_time if clock == "cpu" else time.perf_counter
    limits = _Limits(
        node_limit,
        None if time_limit is None else timer() + time_limit,
        DEFAULT_MEMORY if memory_limit is None else memory_limit,
        timer,
    )
    chooser = random.Random(seed) if seed else None
    root = start.copy()
    if root.is_won():
        return _outcome(limits, "solved", [], 0, {b""}, 0, [])
    root_key = position_key(root)
    seen = {root_key}
    memory = len(root_key) + KEY_OVERHEAD
    stack = [_Frame(root, _ordered(root, chooser))]
    line: list[Move] = []
    nodes = 0
    limit: Limit | None = None
    while stack:
        frame = stack[-1]
        if frame.next == len(frame.moves):
            stack.pop()
            if line:
                line.pop()
            continue
        limit = _limit_hit(limits, nodes, memory + len(stack) * FRAME_BYTES)
        if limit is not None:
            return _outcome(limits, "unknown", [], nodes, seen, memory, stack, limit)
        move = frame.moves[frame.next]
        frame.next += 1
        child = frame.position.copy()
        child.apply(move)
        nodes += 1
        if child.is_won():
            line.append(move)
            return _outcome(limits, "solved", line, nodes, seen, memory, stack)
        key = position_key(child)
        if key in seen:
            continue
        seen.add(key)
        memory += len(key) + KEY_OVERHEAD
        stack.append(_Frame(child, _ordered(child, chooser)))
        line.append(move)
    return _outcome(limits, "unsolvable", [], nodes, seen, memory, stack)


def _ordered(position: Position, chooser: random.Random | None) -> list[Move]:
    moves = position.legal_moves()
    if chooser is not None:
        chooser.shuffle(moves)
    return move_order(position, moves)


def _limit_hit(limits: _Limits, nodes: int, memory: int) -> Limit | None:
    """The limit a search that has generated ``nodes`` positions and holds
    ``memory`` bytes has reached, if any (the clock is read every
    ``CLOCK_EVERY`` positions)."""
    if limits.node_limit is not None and nodes >= limits.node_limit:
        return "nodes"
    if memory > limits.memory_limit:
        return "memory"
    if (limits.deadline is not None and nodes % CLOCK_EVERY == 0
            and limits.clock() >= limits.deadline):
        return "time"
    return None


def _outcome(
    limits: _Limits,
    verdict: Verdict,
    line: list[Move],
    nodes: int,
    seen: set[bytes],
    memory: int,
    stack: list[_Frame],
    limit: Limit | None = None,
) -> SolveResult:
    """The answer as ``solve`` gives it (nothing is pruned, so no rule fires)."""
    seconds = time.perf_counter() - limits.started
    return SolveResult(verdict, list(line), nodes, seconds, limit, len(seen),
                       memory + len(stack) * FRAME_BYTES, dict.fromkeys(SINGLE_RULES, 0),
                       cpu_seconds=time.thread_time() - limits.cpu_started)
