"""What one fair hint may spend, and how (``bonanza.solver.fair``): its budget in
solver nodes, the caps of each solve, the layouts sampled per round and the
margins that drop and tie moves, for the C core and for the generic search."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bonanza.solver.switches import Prune, Sides

DEFAULT_BUDGET: Final = 1.0
"""Seconds one hint may take on one core, at most (counted as solver nodes)."""
NODES_PER_SECOND: Final = 1_500_000
"""Solver nodes one core searches in a second on mid-game layouts (measured)."""
CALL_NODES: Final = 150
"""What one solver call costs in Python beside its nodes, counted as nodes."""
SAMPLE_NODES: Final = 20_000
"""The node cap of one layout's solve: most are decided in far fewer."""
HINT_PRUNE: Final = (Prune.ALL & ~Prune.STOCK_CYCLE & ~Prune.BARE_BASES & ~Prune.SHARED_BASE
                     & ~Prune.SQUEEZE & ~Prune.GONE_BASE & ~Prune.CHAIN)
"""The pruning of the hint's searches: every rule but 18 and 20 to 24, the engine's
searches as it was tuned with them. Rule 18 keeps every verdict but decides
more draw-3 layouts within the caps above, which changes the hints; on the
tuning set it won 42 of 91 draw-3 games against 44 (session 44, McNemar p =
0.82), so it waits for a trial that shows a gain (docs/hints.md). Rules 20
to 22 with the side searches of session 53 (HINT_SIDES) won as many games
as without them (session 54: draw 3 43 of 91 against 44, draw 1 53 of 74
against 52); rules 23 and 24, which came after, are left out alike."""
HINT_SIDES: Final = Sides.DEFAULT & ~Sides.DEEPEN & ~Sides.NO_RECALL & ~Sides.RELAXED_WIN
"""The side searches of the hint's searches: all but the few-passes search's
deepening and the search without recall (session 53), which decide some
layouts sooner and so change hints; their trial with rules 20 to 22 (see
HINT_PRUNE) won no more games. The win without recall that ends rule 11's
search (session 58) is left out alike: it would change the caps' outcomes."""
MIN_SOLVE_NODES: Final = 500
"""The smallest cap a solve is given, even when the budget is nearly spent."""
STUCK_NODES: Final = 2_000
"""The quiet-move search's cap when checking that no move makes progress."""
QUICK_STUCK_NODES: Final = 100
"""The same where it is asked often: for the only move left when it shows
nothing new, and when no sampled layout wins."""
KNOWN_NODES: Final = 2_000_000
"""The node cap when every card is known: one search, worth a larger cap."""
FIRST_ROUND: Final = 16
"""Layouts every candidate move is tried on before any is dropped."""
ROUND: Final = 8
"""Layouts added per later round, for the moves still in the running."""
MAX_SAMPLES: Final = 64
"""Layouts at most, at the default budget (more with a larger budget)."""
UNDECIDED_SCORE: Final = 0.5
"""What a layout counts for a move when its solve hits the node cap."""
DROP_MARGIN: Final = 2.0
"""A move is dropped when it trails the best by this many standard errors."""
TIE_MARGIN: Final = 1.0
"""Moves within this many standard errors of the best count as close to it."""
PROGRESS_NODES: Final = 400
"""Positions the quiet-move search may visit to find the way to progress."""
MAX_COMMITMENTS: Final = 6
"""Quiet lines to a reveal that a near-tie compares on the layouts, at most."""
QUIET_NODE_COST: Final = 20
"""One quiet-search position (in Python) counted in solver nodes."""

GENERIC_NODES_PER_SECOND: Final = 1_200_000
"""Nodes the generic search in C (with the Python around it) goes through in a
second on one core, as a hint counts them, for the rules the C core does not
take (Double Klondike): measured by ``benchmarks/hint_rate.py``."""
GENERIC_CALL_NODES: Final = 100
"""One solver call's Python cost beside its nodes, in generic nodes."""
GENERIC_SAMPLE_NODES: Final = 20_000
"""The node cap of one layout's generic solve (with talon macros, which
decide most layouts within it)."""
GENERIC_KNOWN_NODES: Final = 500_000
"""The generic search's cap when every card is known."""
GENERIC_FIRST_ROUND: Final = FIRST_ROUND
GENERIC_ROUND: Final = ROUND
GENERIC_MAX_SAMPLES: Final = MAX_SAMPLES
GENERIC_QUIET_NODE_COST: Final = 20
"""A quiet-search position (in Python, with two decks) in generic nodes."""


@dataclass(frozen=True, slots=True)
class Sampling:
    """How a hint spends its budget: nodes a second, the Python cost of a
    solver call and of a quiet-search position (in nodes), the cap of one
    layout's solve and of the known position's, and the layouts per round."""

    nodes_per_second: int
    call_nodes: int
    quiet_node_cost: int
    sample_nodes: int
    known_nodes: int
    first_round: int
    round: int
    max_samples: int


COMPILED: Final = Sampling(NODES_PER_SECOND, CALL_NODES, QUIET_NODE_COST, SAMPLE_NODES,
                           KNOWN_NODES, FIRST_ROUND, ROUND, MAX_SAMPLES)
"""Where the C core solves the layouts (Klondike)."""
GENERIC: Final = Sampling(GENERIC_NODES_PER_SECOND, GENERIC_CALL_NODES,
                          GENERIC_QUIET_NODE_COST, GENERIC_SAMPLE_NODES, GENERIC_KNOWN_NODES,
                          GENERIC_FIRST_ROUND, GENERIC_ROUND, GENERIC_MAX_SAMPLES)
"""Where the generic search does (rules the C core does not take)."""
