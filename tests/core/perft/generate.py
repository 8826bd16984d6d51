"""Write perft.txt: move-sequence counts from fixed positions, one per rule feature.

Run from the repository root: ``python -m tests.core.perft.generate``. Each
position is found by seeded random play that reaches the feature it covers,
and its counts are checked against the naive generator before being written.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bonanza.core import Deal, Position, Rules
from tests.core.naive import legal_moves as naive_moves
from tests.core.perft.counts import perft
from tests.core.strategies import random_position

DATA = Path(__file__).with_name("perft.txt")
DEPTH = 4


def _faceup_run(position: Position) -> bool:
    return any(len(c) - d >= 3 for c, d in zip(position.tableau, position.down, strict=True))


def _empty_column(position: Position) -> bool:
    return any(not column for column in position.tableau)


Feature = Callable[[Position], bool]


def differs_under(rules_text: str) -> Feature:
    """The position has other legal moves under ``rules_text``."""
    other = Rules.from_text(rules_text)

    def feature(position: Position) -> bool:
        moved = Position.from_text(position.to_text(), other)
        return set(moved.legal_moves()) != set(position.legal_moves())

    return feature


SAME = None  # the previous case's position, under this case's rules
CASES: list[tuple[str, str, Feature | None]] = [
    ("opening, draw 1", "klondike", lambda p: False),
    ("opening, draw 3", "klondike-3", lambda p: False),
    (
        "draw 3 with a short last packet",
        "klondike-3",
        lambda p: len(p.stock) % 3 != 0 and p.waste != [],
    ),
    ("draw 3 after a recycle", "klondike-3", lambda p: p.recycles >= 1 and len(p.stock) > 3),
    ("pass limit reached", "draw=1 passes=2", lambda p: p.recycles == 1 and len(p.stock) <= 2),
    ("one pass, stock gone", "vegas-1", lambda p: not p.stock and len(p.waste) > 3),
    ("recall on", "draw=1 recall=on", differs_under("draw=1 recall=off")),
    ("recall off", "draw=1 recall=off", SAME),
    ("empty column, king only", "draw=1 empty=king", differs_under("draw=1 empty=any")),
    ("empty column, any card", "draw=1 empty=any", SAME),
    ("partial runs", "draw=1 runs=partial", differs_under("draw=1 runs=whole")),
    ("whole runs only", "draw=1 runs=whole", SAME),
    ("any card, whole runs, draw 2", "draw=2 empty=any runs=whole", _empty_column),
]


def find(rules: Rules, feature: Feature) -> Position:
    for seed in range(1, 5000):
        for moves in range(0, 400, 7):
            position = random_position(seed, moves, rules)
            if feature(position) and len(position.legal_moves()) >= 3:
                return position
    raise LookupError("no position has the feature")


def main() -> None:
    lines = ["# name | rules | position | counts at depth 1..N", ""]
    position = None
    for name, rules_text, feature in CASES:
        rules = Rules.from_text(rules_text)
        if name.startswith("opening"):
            position = Position.initial(Deal.from_number(7), rules)
        elif feature is SAME:
            assert position is not None
            position = Position.from_text(position.to_text(), rules)
        else:
            position = find(rules, feature)
        counts = [perft(position, depth) for depth in range(1, DEPTH + 1)]
        naive = [perft(position, depth, naive_moves) for depth in range(1, 4)]
        assert naive == counts[:3], (name, naive, counts)
        text = " ".join(str(count) for count in counts)
        lines.append(f"{name} | {rules.to_text()} | {position.to_text()} | {text}")
        print(name, counts)
    DATA.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
