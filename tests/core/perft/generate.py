"""Write perft.txt: move-sequence counts from fixed positions, one per rule feature.

Run from the repository root: ``python -m tests.core.perft.generate``
(``... generate variants`` writes variants.txt, for Klondike's relatives).
Each position is found by seeded random play that reaches the feature it
covers, and its counts are checked against the naive generator before being
written.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bonanza.core import Deal, Position, Rules
from tests.core.naive import legal_moves as naive_moves
from tests.core.perft.counts import perft
from tests.core.strategies import random_position

DATA = Path(__file__).with_name("perft.txt")
VARIANT_DATA = Path(__file__).with_name("variants.txt")
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


def _loose_column(position: Position) -> bool:
    """A column whose face-up cards are not all one run (Easthaven's deals)."""
    from bonanza.core.runs import run_start

    return any(run_start(c, d) > d for c, d in zip(position.tableau, position.down, strict=True))


def _both_decks_home(position: Position) -> bool:
    """Both foundations of some suit have cards."""
    return any(position.foundations[s] and position.foundations[s + 4] for s in range(4))


OPENING_DEALS = (3, 7)
VARIANT_CASES: list[tuple[str, str, Feature | None]] = [
    ("double klondike, a recycle made", "double-klondike", lambda p: p.recycles >= 1),
    ("double klondike, both foundations of a suit", "double-klondike", _both_decks_home),
    ("double klondike, jumbo's one redeal used", "double-klondike passes=2",
     lambda p: p.recycles == 1 and len(p.stock) <= 3),
    ("double klondike-3, short last packet", "double-klondike-3",
     lambda p: len(p.stock) % 3 != 0 and p.waste != []),
    ("westcliff, an empty column", "westcliff", _empty_column),
    ("westcliff, empty column, kings only", "westcliff empty=king", SAME),
    ("westcliff, stock gone", "westcliff",
     lambda p: not p.stock and len(p.waste) > 2 and not _empty_column(p)),
    ("easthaven, loose face-up cards", "easthaven", _loose_column),
    ("easthaven, the last short deal", "easthaven", lambda p: len(p.stock) == 3),
    ("easthaven, an empty column", "easthaven", _empty_column),
    ("easthaven, empty column, kings only", "easthaven empty=king", SAME),
    ("easthaven, whole runs only", "easthaven runs=whole",
     lambda p: _loose_column(p) and differs_under(_rules_of("easthaven").to_text())(p)),
]


def _rules_of(text: str) -> Rules:
    """A preset name, then changed fields: ``westcliff empty=king``."""
    name, *changes = text.split()
    return Rules.from_text(" ".join([Rules.preset(name).to_text(), *changes]))


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


def variants() -> None:
    lines = ["# Klondike's relatives: name | rules | position | counts at depth 1..N", ""]
    cases: list[tuple[str, Rules, Position]] = []
    for preset in ("double-klondike", "double-klondike-3", "westcliff", "easthaven"):
        rules = Rules.preset(preset)
        for number in OPENING_DEALS:
            deal = Deal.from_number(number, rules.decks)
            cases.append((f"{preset} opening, deal {number}", rules,
                          Position.initial(deal, rules)))
    position = None
    for name, rules_text, feature in VARIANT_CASES:
        rules = _rules_of(rules_text)
        if feature is SAME:
            assert position is not None
            position = Position.from_text(position.to_text(), rules)
        else:
            position = find(rules, feature)
        cases.append((name, rules, position))
    for name, rules, position in cases:
        counts = [perft(position, depth) for depth in range(1, DEPTH + 1)]
        depth = 3 if counts[2] < 5000 else 2
        naive = [perft(position, d, naive_moves) for d in range(1, depth + 1)]
        assert naive == counts[:depth], (name, naive, counts)
        text = " ".join(str(count) for count in counts)
        lines.append(f"{name} | {rules.to_text()} | {position.to_text()} | {text}")
        print(name, counts, flush=True)
    VARIANT_DATA.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    import sys

    variants() if sys.argv[1:] == ["variants"] else main()
