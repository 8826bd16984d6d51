"""The "no progress possible" check: the C quiet-move search against the Python reference.

    python benchmarks/progress.py [--positions 2000] [--ends 100] [--seed 2024]

Over a fixed seeded set of positions per draw mode (positions along random
games, and the stuck ends of greedy random games), prints how many each check
decides and leaves undecided, and the median/p99/max milliseconds per
position: the C search at its default cap and at a quick cap, and the Python
reference at its old default cap. Positions every card of is known are left
out (those go to the solver, either way).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from bonanza.core import Deal, Move, Position, Rules
from bonanza.solver.progress import (
    DEFAULT_NODE_LIMIT,
    PYTHON_NODE_LIMIT,
    progress_possible_python,
    quiet_progress,
)
from bonanza.solver.quiet import is_informative, is_known, is_pointless_recall
from bonanza.solver.stats import percentile

QUICK_NODES = 2_000
"""A cap small enough for the web server's event loop."""
GAME_MOVES = 300
"""Moves of each random game positions are sampled from."""
END_MOVES = 1_500
"""Moves at most of each greedy game played to its stuck end."""
STUCK_EVERY = 25
"""How often (in moves) a greedy game asks whether it is stuck yet."""


def legal_quiet_choices(position: Position) -> list[Move]:
    """The legal moves but the recalls the quiet search skips."""
    return [move for move in position.legal_moves() if not is_pointless_recall(position, move)]


def random_positions(draw: int, count: int, rng: random.Random) -> list[Position]:
    """Positions along random games (informative moves and moves home favoured)."""
    found: list[Position] = []
    number = 0
    while len(found) < count:
        number += 1
        position = Position.initial(Deal.from_number(rng.getrandbits(64)), Rules(draw=draw))
        line: list[Position] = []
        for _ in range(GAME_MOVES):
            legal = legal_quiet_choices(position)
            if not legal:
                break
            informative = [m for m in legal if is_informative(position, m)]
            home = [m for m in legal if m.dest.is_foundation and not m.source.is_foundation]
            roll = rng.random()
            move = (rng.choice(informative) if informative and roll < 0.4
                    else rng.choice(home) if home and roll < 0.7 else rng.choice(legal))
            position.apply(move)
            if not is_known(position) and not position.is_won():
                line.append(position.copy())
        found += rng.sample(line, min(10, len(line), count - len(found)))
    return found


def stuck_ends(draw: int, count: int, rng: random.Random) -> list[Position]:
    """The ends of greedy random games: where no progress was left (or the move cap)."""
    found: list[Position] = []
    while len(found) < count:
        position = Position.initial(Deal.from_number(rng.getrandbits(64)), Rules(draw=draw))
        for turn in range(END_MOVES):
            legal = legal_quiet_choices(position)
            if not legal:
                break
            informative = [m for m in legal if is_informative(position, m)]
            home = [m for m in legal if m.dest.is_foundation and not m.source.is_foundation]
            if informative and rng.random() < 0.9:
                move = rng.choice(informative)
            elif home and rng.random() < 0.9:
                move = rng.choice(home)
            else:
                if turn % STUCK_EVERY == 0 and quiet_progress(position)[0] == "none":
                    break
                move = rng.choice(legal)
            position.apply(move)
        if not is_known(position) and not position.is_won():
            found.append(position)
    return found


def measure(positions: list[Position], check: Callable[[Position], bool | None]) -> str:
    decided, times = 0, []
    for position in positions:
        started = time.perf_counter()
        answer = check(position)
        times.append(1000 * (time.perf_counter() - started))
        decided += answer is not None
    times.sort()
    median, p99 = percentile(times, 0.5), percentile(times, 0.99)
    return (f"decided {decided:5d}  undecided {len(positions) - decided:4d}  ms: median "
            f"{median:8.3f}  p99 {p99:8.2f}  max {max(times):8.2f}")


def c_check(node_limit: int) -> Callable[[Position], bool | None]:
    def check(position: Position) -> bool | None:
        return {"progress": True, "none": False}.get(quiet_progress(position, node_limit)[0])

    return check


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--ends", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--draws", type=int, nargs="+", default=[1, 3])
    args = parser.parse_args(argv)
    checks = {
        f"C, {DEFAULT_NODE_LIMIT:,} nodes": c_check(DEFAULT_NODE_LIMIT),
        f"C, {QUICK_NODES:,} nodes": c_check(QUICK_NODES),
        f"Python, {PYTHON_NODE_LIMIT:,} nodes": lambda p: progress_possible_python(p),
    }
    for draw in args.draws:
        rng = random.Random(args.seed * 10 + draw)
        sets = {"random play": random_positions(draw, args.positions, rng),
                "stuck ends": stuck_ends(draw, args.ends, rng)}
        for name, positions in sets.items():
            print(f"draw {draw}, {name}: {len(positions)} positions")
            for label, check in checks.items():
                print(f"  {label:22s} {measure(positions, check)}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
