"""Find the positions where the old fair hint gave up although the deal could
still be won: follow ``hint.hint`` (20,000 nodes) from each deal until it says
"no useful move", and keep that position if the solver proves it winnable.

    python -m tests.solver.find_gave_up 1 60 > tests/solver/data/gave_up.txt

Each line: draw, deal number, moves played, the position's text.
"""

from __future__ import annotations

import sys

from bonanza.core import Deal, Position, Rules
from bonanza.solver.hint import DEFAULT_NODE_LIMIT, hint
from bonanza.solver.search import solve

MOVE_CAP = 400


def main(first: int, last: int) -> None:
    for draw in (1, 3):
        rules = Rules(draw=draw)
        for number in range(first, last + 1):
            position = Position.initial(Deal.from_number(number), rules)
            for played in range(MOVE_CAP):
                move = hint(position, DEFAULT_NODE_LIMIT)
                if move is None:
                    if solve(position, node_limit=5_000_000).solved:
                        print(draw, number, played, position.to_text(), sep="\t", flush=True)
                    break
                position.apply(move)
                if position.is_won():
                    break


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
