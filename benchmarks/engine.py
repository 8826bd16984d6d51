"""Engine speed: legal-move generations plus moves applied per second.

Random playouts from seeded deals, on one core, in pure Python. Prints the
median over several rounds. Run: ``python benchmarks/engine.py``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bonanza.core import Deal, Position, Rules


def playouts(deals: int, max_moves: int, rules: Rules, seed: int) -> tuple[int, float]:
    """Play random games; return (generations + applications, seconds)."""
    chooser = random.Random(seed)
    operations = 0
    start = time.perf_counter()
    for number in range(deals):
        position = Position.initial(Deal.from_number(seed * 100_000 + number), rules)
        for _ in range(max_moves):
            moves = position.legal_moves()
            operations += 1
            if not moves:
                break
            position.apply(moves[chooser.randrange(len(moves))])
            operations += 1
    return operations, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--moves", type=int, default=200, help="moves per playout at most")
    args = parser.parse_args()
    for name in ("klondike", "klondike-3", "vegas-3"):
        rates = []
        for round_number in range(args.rounds):
            operations, seconds = playouts(args.deals, args.moves, Rules.preset(name), round_number)
            rates.append(operations / seconds)
        print(
            f"{name:11} median {statistics.median(rates):9,.0f} ops/s "
            f"(generations + applications; min {min(rates):,.0f}, max {max(rates):,.0f}, "
            f"{args.rounds} rounds of {args.deals} playouts)"
        )


if __name__ == "__main__":
    main()
