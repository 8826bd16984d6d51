"""Differential check of the generic search in C (``_search.solve_wide``).

    python benchmarks/wide_check.py [--positions 500] [--nodes 7500] [--seed 1]

Over positions of random play and small one-suit endgames, under every rule
set the C search takes (Double Klondike draw 1 and 3, Westcliff, Klondike
draw 1 and 3; each as it comes, without recall, with any card into a space,
and with two passes and whole runs), it compares:

- the plain C search with the Python one (``search_python``): the same
  verdict, line, nodes and states, or a difference is printed;
- with draw 1 and unlimited passes, the talon macros (with the plain search
  beside them, as ``solve`` runs them) with the Python search: the same
  verdict wherever both decide;
- on one deck, the talon macros with the Klondike core (``solve``), which
  has its own pruning rules and proofs: the same verdict wherever both decide;
- on two decks, ``solve`` (the talon macros with rules 8 and 18 for two
  decks, search_wide_dead_ends.h, and rule 10, search_wide_run.h) with the
  Python search: the same verdict wherever both decide, and how often rules 8
  and 18 dropped a position.

Every win is replayed in the engine. Prints the counts of each comparison and
verdict, and the disagreements (there should be none); exits 1 if any.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
from collections import Counter
from pathlib import Path

from bonanza.core import Position, Rules
from bonanza.core.errors import RulesError
from bonanza.core.rules import EmptyColumn
from bonanza.solver import Prune, solve
from bonanza.solver.generic import search, search_python
from bonanza.solver.search import core_arguments

GAMES = ("double-klondike", "double-klondike-3", "westcliff", "klondike", "klondike-3")
CORE_NODES = 2_000_000
"""The Klondike core's node limit for a position (it decides nearly all)."""
LOOSE_CARDS = (10, 16)
"""Cards not home in the endgames."""
RANDOM_PLIES = range(400)
"""Random moves played into a deal, at most."""


def rule_sets() -> list[tuple[str, Rules]]:
    """Each game as it comes, without recall, with any card into a space,
    and with two passes and whole runs only."""
    sets = []
    for game in GAMES:
        rules = dataclasses.replace(Rules.preset(game), thoughtful=True)
        sets += [
            (game, rules),
            (f"{game}, no recall", dataclasses.replace(rules, recall=False)),
            (f"{game}, any to a space", dataclasses.replace(rules, empty_column=EmptyColumn.ANY)),
            (f"{game}, 2 passes, whole runs",
             dataclasses.replace(rules, passes=2, partial_runs=False)),
        ]  # fmt: skip
    return sets


REPOSITORY = Path(__file__).resolve().parents[1]


def positions(rules: Rules, count: int, chooser: random.Random) -> list[Position]:
    """Half random play (up to 400 moves in), half one-suit endgames
    (tests/solver/variant_positions.py; the repository is put on the path
    when the script runs on its own)."""
    if str(REPOSITORY) not in sys.path:
        sys.path.insert(0, str(REPOSITORY))
    from tests.solver.variant_positions import random_play_position, small_variant_position

    found = []
    for index in range(count):
        if index % 2:
            loose = LOOSE_CARDS[index // 2 % len(LOOSE_CARDS)]
            found.append(small_variant_position(chooser.getrandbits(32), rules, loose, suits=1))
        else:
            found.append(random_play_position(rules, chooser, RANDOM_PLIES))
    return found


def _core_verdict(position: Position) -> str | None:
    """The Klondike core's verdict, or None where it does not take the rules."""
    try:
        core_arguments(position)
    except RulesError:
        return None
    return solve(position, node_limit=CORE_NODES).result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=500, help="per rule set")
    parser.add_argument("--nodes", type=int, default=7_500, help="node limit of each search")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    chooser = random.Random(args.seed)
    counts: Counter[str] = Counter()
    bad = 0
    for name, rules in rule_sets():
        macros_apply = True  # (any stock but one dealt onto the columns)
        for position in positions(rules, args.positions, chooser):
            plain = search(position, node_limit=args.nodes, talon_macros=False)
            python = search_python(position, node_limit=args.nodes)
            counts[f"plain = python: {python.result}"] += 1
            if (plain.result, plain.moves, plain.nodes, plain.states) != (
                python.result, python.moves, python.nodes, python.states
            ):  # fmt: skip
                bad += 1
                print(f"DIFFERENT ({name}): {position.to_text()}")
            for result in (plain, python):
                if result.solved and not position.wins_with(result.moves):
                    bad += 1
                    print(f"LINE DOES NOT WIN ({name}): {position.to_text()}")
            if not macros_apply:
                continue
            macros = search(position, node_limit=args.nodes)
            if macros.solved and not position.wins_with(macros.moves):
                bad += 1
                print(f"LINE DOES NOT WIN ({name}, macros): {position.to_text()}")
            core = _core_verdict(position)
            if core is None:  # two decks: solve's own search, with all its rules
                pruned = solve(position, node_limit=args.nodes, shorten=False)
                counts["solve: rule 8 dropped a position"] += pruned.fired[Prune.DEAD_ENDS] > 0
                counts["solve: only rule 18 saw one"] += pruned.fired[Prune.STOCK_CYCLE] > 0
                if "unknown" in (pruned.result, python.result):
                    counts["solve ~ python: undecided"] += 1
                else:
                    counts[f"solve = python: {python.result}"] += 1
                    if pruned.result != python.result:
                        bad += 1
                        print(f"DISAGREE ({name}, solve {pruned.result}, python "
                              f"{python.result}): {position.to_text()}")  # fmt: skip
            for other, label in ((python.result, "python"), (core, "core")):
                if other in (None, "unknown") or macros.result == "unknown":
                    counts[f"macros ~ {label}: undecided"] += other is not None
                    continue
                counts[f"macros = {label}: {other}"] += 1
                if macros.result != other:
                    bad += 1
                    print(f"DISAGREE ({name}, macros {macros.result}, {label} {other}): "
                          f"{position.to_text()}")  # fmt: skip
    for key in sorted(counts):
        print(f"{key}: {counts[key]:,}")
    print(f"disagreements: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
