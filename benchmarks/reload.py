"""The cost of reloading a stale game: a process whose copy of a game is out of date
reads the row again and rebuilds the session from its state (issue 32).

Prints, for games of 10, 100, 1,000 and 5,000 moves, the CPU time of one
``Session.from_json`` as the server does it (``trusted``: from the exact part of
the save, no move replayed), of the same load followed by an undo (``+ undo``:
the positions passed are replayed from the nearest checkpoint only), and of a
replay from the moves (``replayed``), with the JSON decoding of the row
included in each::

    python benchmarks/reload.py
    python benchmarks/reload.py --lengths 10 1000 --rounds 7
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import msgspec

from bonanza.core import Deal, Rules
from bonanza.session import Session

DEFAULT_LENGTHS = (10, 100, 1_000, 5_000)
DEFAULT_ROUNDS = 5
"""Timed rounds per figure; the median round is printed."""
LOADS = 20
"""Loads per round."""
MICROSECONDS = 1e6


def long_game(moves: int, seed: int = 1) -> str:
    """A stored session's state, as text, after ``moves`` moves (undos among them,
    so the game can go on that long without running out of moves)."""
    chooser = random.Random(seed)
    session = Session.new(Deal.from_number(seed), Rules(), 0.0)
    while session.game.move_count < moves:
        legal = session.position.legal_moves()
        if not legal or session.is_over:
            session = Session.new(Deal.from_number(chooser.getrandbits(32)), Rules(), 0.0)
            continue
        session.play(chooser.choice(legal), 0.0)
    return json.dumps(session.to_json(compact=True))  # as the stores write it


def cpu_per_load(text: str, trusted: bool, rounds: int, undo: bool = False) -> float:
    """Median CPU microseconds of one load of ``text`` (and an undo after it)."""
    times = []
    for _ in range(rounds):
        began = time.process_time()
        for _ in range(LOADS):
            session = Session.from_json(msgspec.json.decode(text), trusted=trusted)  # as rows
            if undo:
                session.undo(0.0)
        times.append((time.process_time() - began) / LOADS * MICROSECONDS)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=list(DEFAULT_LENGTHS))
    parser.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS)
    args = parser.parse_args()
    print(f"{'moves':>6} {'trusted µs':>11} {'+ undo µs':>10} {'replayed µs':>12} {'ratio':>6}")
    for length in args.lengths:
        text = long_game(length)
        exact = cpu_per_load(text, True, args.rounds)
        undone = cpu_per_load(text, True, args.rounds, undo=True)
        replayed = cpu_per_load(text, False, args.rounds)
        print(f"{length:>6} {exact:>11.1f} {undone:>10.1f} {replayed:>12.1f}"
              f" {replayed / exact:>6.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
