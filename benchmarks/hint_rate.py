"""The fair hints' node rate: what one core counts against a hint's budget in a second.

    python benchmarks/hint_rate.py [--rules double-klondike klondike-3] [--positions 40]

A hint's budget is counted in solver nodes (``fair_budget``: ``NODES_PER_SECOND``
where the C core solves the layouts, ``GENERIC_NODES_PER_SECOND`` where the
generic search does), so that a hint is the same on any machine. This measures
the rate those constants stand for: hints are asked at seeded positions of
random play (thoughtless rules, as a player sees them), and the nodes each
hint counts against its budget (its solves' nodes, plus the fixed cost per
call and per quiet-search position) are divided by the CPU time of the thread
that asked (``time.thread_time``, which other work on the machine does not
inflate). Hints that spent their whole budget show the rate best; all hints
are shown too. A rate below the constant means that a hint at the default
budget takes longer than its seconds on this machine.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from bonanza.core import Deal, Position, Rules
from bonanza.core.view import PlayerView
from bonanza.solver import fair
from bonanza.solver.fair_budget import COMPILED, DEFAULT_BUDGET, GENERIC, Sampling
from bonanza.solver.stats import percentile

RANDOM_MOVES = (20, 120)
"""A position is taken after this many random moves at least and at most."""


class CountedNodes(fair._Nodes):
    """The engine's node budget, remembered so that what it counted can be read."""

    last: CountedNodes | None = None

    def __init__(self, budget: float, sampling: Sampling = COMPILED) -> None:
        super().__init__(budget, sampling)
        self.start = self.left
        CountedNodes.last = self

    @property
    def counted(self) -> int:
        return self.start - self.left


def random_position(rules: Rules, rng: random.Random) -> Position:
    """A position after a random number of random moves (a won or stuck game ends early)."""
    position = Position.initial(Deal.from_number(rng.getrandbits(32), rules.decks), rules)
    for _ in range(rng.randint(*RANDOM_MOVES)):
        moves = position.legal_moves()
        if not moves:
            break
        position.apply(rng.choice(moves))
    return position


def measure(rules: Rules, positions: int, budget: float, seed: int) -> dict[str, Any]:
    """Ask ``positions`` hints; the counted nodes and CPU seconds of each."""
    rng = random.Random(seed)
    full: list[tuple[int, float]] = []
    every: list[tuple[int, float]] = []
    sampling = ""
    for _ in range(positions):
        view = PlayerView.of(random_position(rules, rng))
        CountedNodes.last = None
        started = time.thread_time()
        fair.advise(view, budget=budget, seed=rng.getrandbits(32))
        seconds = time.thread_time() - started
        nodes = CountedNodes.last
        if nodes is None:  # safe, forced or no move: no sampling
            continue
        sampling = "compiled" if nodes.sampling is COMPILED else "generic"
        every.append((nodes.counted, seconds))
        if nodes.spent:
            full.append((nodes.counted, seconds))
    return {"sampling": sampling, "full": full, "every": every}


def rate(rows: list[tuple[int, float]]) -> str:
    if not rows:
        return "none"
    nodes = sum(row[0] for row in rows)
    seconds = sum(row[1] for row in rows)
    times = sorted(row[1] for row in rows)
    return (f"{len(rows)} hints, {nodes / seconds:,.0f} nodes/s "
            f"(CPU s a hint: median {percentile(times, 0.5):.3f}, max {times[-1]:.3f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="+", default=["double-klondike", "double-klondike-3"])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    fair._Nodes = CountedNodes  # type: ignore[misc]
    for preset in args.rules:
        found = measure(Rules.preset(preset), args.positions, args.budget, args.seed)
        constant = COMPILED if found["sampling"] == "compiled" else GENERIC
        print(f"{preset} ({found['sampling']} sampling, counted at "
              f"{constant.nodes_per_second:,} nodes/s):")
        print(f"  whole budget spent: {rate(found['full'])}")
        print(f"  every sampled hint: {rate(found['every'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
