"""The solver's named switches: pruning rules and side searches.

Each pruning rule has the number it has in the C core's header comment
(``_search.c``), and its flag is ``1 << number``.  Rules 3 and 4 (column
symmetry) and rule 5's state key are part of how a position is stored, and
are always on.  Rule 13 was removed (it was unsound).
"""

from __future__ import annotations

import enum

from bonanza.solver import _search


class Prune(enum.IntFlag):
    """Pruning rules the exact search may use; ``Prune.ALL`` is the default.

    Every rule has a soundness proof beside its code in the C core; switching
    any set of them off never changes a verdict, only the time it takes.
    """

    SAFE_MOVES = 1 << 1  # rules 1, 2, 5 and 6: safe cards go home, and stay there
    TWINS = 1 << 7  # rule 7: one of two twin arrangements is kept
    DEAD_ENDS = 1 << 8  # rule 8: a card that can never go home ends the search
    LARGER_WASTES = 1 << 9  # rule 9: larger wastes of the same size modulo the draw
    COVER_TALON = 1 << 10  # rule 10: a talon card put on a column is covered next
    RELAXED_STOCK = 1 << 11  # rule 11: lost with draw 1, unlimited passes, means lost
    NEARLY_SAFE = 1 << 12  # rule 12: nearly safe cards go home (recall on)
    SUCCESSOR = 1 << 14  # rule 14: a talon card goes home just before its successor
    TWIN_LOCKS = 1 << 15  # rule 15: a card face down under its twin, locked
    WASTE_STACK = 1 << 17  # rule 17, with rule 8: no recycle left, the waste is a stack
    STOCK_CYCLE = 1 << 18  # rule 18, with rule 8: draw > 1, a recycle left: what the draws reach
    BARE_BASES = 1 << 20  # rule 20, with rule 8: kids kept off a base until it has been home
    SHARED_BASE = 1 << 21  # rule 21: two kids that must share one base before a card comes up
    SQUEEZE = 1 << 22  # rule 22, with rule 8: too few bases for the cards parked at a first move
    GONE_BASE = 1 << 23  # rule 23, with rule 8: a kid's base sent home under a card's first move
    CHAIN = 1 << 24  # rule 24, with rule 8: facts of winning lines found one on another
    NONE = 0
    ALL = (SAFE_MOVES | TWINS | DEAD_ENDS | LARGER_WASTES | COVER_TALON | RELAXED_STOCK
           | NEARLY_SAFE | SUCCESSOR | TWIN_LOCKS | WASTE_STACK | STOCK_CYCLE | BARE_BASES
           | SHARED_BASE | SQUEEZE | GONE_BASE | CHAIN)

    @property
    def rule(self) -> int:
        """The rule's number in the C core (a single flag only)."""
        return self.value.bit_length() - 1


class Sides(enum.IntFlag):
    """Side searches that only look for wins (they prune nothing)."""

    FEW_PASSES = 1 << 0  # unlimited passes, draw > 1: the same with one more recycle
    HASTY = 1 << 1  # rules 10 and 14 where the waste pointer matters
    AT_ONCE = 1 << 2  # start the side searches in the first round (for tests)
    KEPT_HITS = 1 << 3  # count table hits across rule 12's kept-out sets (for tests)
    KEPT_KEYED = 1 << 4  # rule 12's kept-out set in the table's key (for tests)
    NO_FORGET = 1 << 5  # a full table stops the search, as before it forgot (for tests)
    CHECK_SKIPS = 1 << 6  # make the dead-end tests whose answer is known, too (for tests)
    BARE_EVERY = 1 << 7  # rule 20 at every dead-end test, on every card (for tests)
    DEEPEN = 1 << 8  # the few-passes search, lost, starts again with one more recycle
    NO_RECALL = 1 << 9  # recall on: the same without recall
    SHARED_EVERY = 1 << 10  # rule 21 at every dead-end test (for tests)
    SQUEEZE_EVERY = 1 << 11  # rule 22 at every dead-end test, every face-down card (for tests)
    GONE_EVERY = 1 << 12  # rule 23 at every dead-end test, every tableau card (for tests)
    CHAIN_EVERY = 1 << 13  # rule 24 at every dead-end test (for tests)
    RELAXED_WIN = 1 << 14  # recall on: rule 11's search ended by a draw-1 win without recall
    NONE = 0
    DEFAULT = FEW_PASSES | HASTY | DEEPEN | NO_RECALL | RELAXED_WIN


SINGLE_RULES: tuple[Prune, ...] = tuple(
    flag for flag in Prune if flag.value and flag.value & (flag.value - 1) == 0
)
"""Every pruning switch by itself, in rule order."""

SIDE_WINS = 0
"""The slot of ``fired`` that counts the side searches' wins."""

KEPT_HITS = 13
"""The slot of ``fired`` that counts, under ``Sides.KEPT_HITS``, the table hits
on an entry stored under another kept-out set (rule 13 was removed)."""

FORGOTTEN = 16
"""The slot of ``fired`` that counts the entries a full table forgot
(``search_forget.h``)."""

REACH_HOME = 3
REACH_COLUMN = 19
"""The slots of ``fired`` that count rule 8's tests not made, their answer
known by proof (``reach_kept`` in ``search_dead_ends.h``): after a card sent
home, and after one put on a column."""

REACH_WRONG = 4
"""The slot of ``fired`` that counts, under ``Sides.CHECK_SKIPS``, the tests
not made that would have dropped the position (a fault if ever nonzero)."""

RELAXED_ENDED = 25
"""The slot of ``fired`` that counts rule 11's side searches ended by a draw-1
win found without recall (``Sides.RELAXED_WIN``)."""

if int(Prune.ALL) != _search.PRUNE_ALL or int(Sides.DEFAULT) != _search.SIDES_DEFAULT:
    raise ImportError("bonanza.solver.switches does not match the C core's switches")
