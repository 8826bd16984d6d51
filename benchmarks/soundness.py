"""Soundness harness: the default search against the search without its pruning.

    python benchmarks/soundness.py [--deals 5000] [--positions 5000] [--lines 1000]
                                   [--seed 1] [--node-limit 200000] [--jobs 2]
                                   [--game klondike|westcliff|easthaven] [--brute 0]

Each case (a fresh deal under the game's default rules, or a position
met in random play of a random deal under random rule options) is searched
with every pruning rule on, with none, and with each rule off by itself.
Only a ``solved`` verdict carries a proof (its line is replayed through the
engine), so any two decided verdicts that differ are a disagreement: one of
the searches called a winnable position lost.

Rule 12's kept-out set is not in the table's key, so an entry stored under
one set answers for a position reached with another (the proof is at
``top_goes_home``): the default search counts those hits, and a search with
the set in the key is compared with the others.

A full transposition table forgets entries and the search goes on (the
proof is in search_forget.h): a default search with a table of TINY_MEMORY
bytes, which fills on any case of more than some 7,700 positions, is
compared with the others, and the entries it forgot are counted.

Line cases find more: a deal (half under the default rules, half under
random ones) is won by the search with no pruning, and every LINE_STEP-th
position of that winning line, winnable by that proof, is searched every way
too; any ``unsolvable`` there is a disagreement.  (Rule 13's fault showed in
2 % of the default deals this way, and in none of 4,000 fresh deals or 1,800
random positions compared at 200,000 nodes.)  The script prints every
disagreement with its position, then how many comparisons both sides decided,
how many disagreed, and how often each rule fired; it exits 1 on any
disagreement.

``--game`` plays Westcliff or Easthaven instead of Klondike (random options:
empty column, recall, partial runs, and for Westcliff draw and passes).
``--brute N`` adds N small positions of the game (a few columns, about ten
cards not home) whose verdicts a brute-force search through the engine's
moves decides: the default search, the one without pruning and the one with
rules 20 to 24 everywhere must agree with it.

Rules 20 to 24 run only where they usually pay (a search's first position,
and after many dead-end tests: search_locks.h), so one more search makes
them at every position, on every card (``Sides.BARE_EVERY``,
``Sides.SHARED_EVERY``, ``Sides.SQUEEZE_EVERY``, ``Sides.GONE_EVERY`` and
``Sides.CHAIN_EVERY``), and its firings are the ones counted.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import multiprocessing
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from bonanza.core import Deal, EmptyColumn, Position, Rules, StockMode
from bonanza.solver import Prune, Sides, solve
from bonanza.solver.switches import SINGLE_RULES

DEFAULT = "default"
AT_ONCE = "default, side searches at once"
NOTHING = "no pruning"
DRAWS = (1, 2, 3)
PASSES = (1, 3, None)
MOST_RANDOM_MOVES = 150
LINE_STEP = 5
REPORT_EVERY = 500
GAMES = ("klondike", "westcliff", "easthaven")
BRUTE_COLUMNS = (3, 3, 4)
"""The columns of a brute-force case's table, chosen at random: few, so that
the brute force, which tells no column orders apart, stays small."""
BRUTE_CARDS = (9, 10, 11)
"""The cards not home in a brute-force case, chosen at random."""
BRUTE_LIMIT = 8000
"""The most positions the brute force visits; larger cases are skipped."""
TINY_MEMORY = 1 << 18
"""The tiny-table search's memory: its table stops at 8,192 slots and forgets.
(It was 1 MiB, when a search's first table had 32,768 slots; since the first
table has 2,048, a 1 MiB table grew to 32,768 slots and filled in few cases.)"""


@dataclasses.dataclass(frozen=True)
class Search:
    """One way to search: its switches."""

    name: str
    prune: Prune
    sides: Sides
    memory: int | None = None  # the memory limit (None: the default)


KEPT_KEYED = "default, kept-out set in the key"
TINY = "default, a tiny table that forgets"
BARE_EVERY = "default, rules 20 to 24 everywhere"
SEARCHES: tuple[Search, ...] = (
    # (KEPT_HITS only counts: the search is the default's, node for node.)
    Search(DEFAULT, Prune.ALL, Sides.DEFAULT | Sides.KEPT_HITS),
    Search(AT_ONCE, Prune.ALL, Sides.DEFAULT | Sides.AT_ONCE),
    Search(NOTHING, Prune.NONE, Sides.NONE),
    Search(KEPT_KEYED, Prune.ALL, Sides.DEFAULT | Sides.KEPT_KEYED),
    Search(TINY, Prune.ALL, Sides.DEFAULT, TINY_MEMORY),
    # Rules 20 to 24 run where they usually pay (search_locks.h); here at
    # every position, on every card, so that they fire far more often.
    Search(BARE_EVERY, Prune.ALL,
           Sides.DEFAULT | Sides.BARE_EVERY | Sides.SHARED_EVERY | Sides.SQUEEZE_EVERY
           | Sides.GONE_EVERY | Sides.CHAIN_EVERY),
    *(Search(f"no {flag.name}", Prune.ALL & ~flag, Sides.DEFAULT) for flag in SINGLE_RULES),
)


@dataclasses.dataclass
class Outcome:
    """What one case gave: decided comparisons, disagreements and firings."""

    compared: int = 0
    disagreements: list[str] = dataclasses.field(default_factory=list)
    fired: dict[Prune, int] = dataclasses.field(default_factory=dict)
    side_wins: int = 0
    relaxed_ended: int = 0  # rule 11's searches ended by a draw-1 win without recall
    brute_lost: int = 0  # brute-force comparisons of a lost position
    kept_hits: int = 0  # the default's table hits across rule 12's kept-out sets
    forgotten: int = 0  # the entries the tiny table forgot
    forgetting: int = 0  # the cases in which it forgot any

    def add(self, other: Outcome) -> None:
        self.compared += other.compared
        self.kept_hits += other.kept_hits
        self.forgotten += other.forgotten
        self.forgetting += other.forgetting
        self.brute_lost += other.brute_lost
        self.disagreements += other.disagreements
        for flag, count in other.fired.items():
            self.fired[flag] = self.fired.get(flag, 0) + count
        self.side_wins += other.side_wins
        self.relaxed_ended += other.relaxed_ended


def game_rules(game: str) -> Rules:
    """The game's default rules, thoughtful."""
    return dataclasses.replace(Rules.preset(game), thoughtful=True)


def random_rules(rng: random.Random, game: str = "klondike") -> Rules:
    """Any rule options the solver decides, on the game's table (an
    Easthaven stock is dealt once, onto the columns: its draw and passes stay)."""
    rules = Rules(
        draw=rng.choice(DRAWS),
        passes=rng.choice(PASSES),
        empty_column=rng.choice(list(EmptyColumn)),
        recall=rng.random() < 0.5,
        partial_runs=rng.random() < 0.5,
        thoughtful=True,
    )
    table = Rules.preset(game)
    if table.stock_mode is StockMode.EVERY_COLUMN:
        rules = dataclasses.replace(rules, draw=table.draw, passes=table.passes)
    return dataclasses.replace(
        rules, columns=table.columns, deal_shape=table.deal_shape, stock_mode=table.stock_mode,
        waste_start=table.waste_start,
    )


def play_randomly(position: Position, rng: random.Random,
                  most: int = MOST_RANDOM_MOVES) -> Position:
    """``position`` after fewer than ``most`` random legal moves (in place)."""
    for _ in range(rng.randrange(most)):
        moves = position.legal_moves()
        if not moves:
            break
        position.apply(rng.choice(moves))
    return position


def random_position(rng: random.Random, game: str = "klondike") -> Position:
    """A random deal under random rules, after some random legal moves."""
    start = Position.initial(Deal.from_number(rng.getrandbits(64)), random_rules(rng, game))
    return play_randomly(start, rng)


Case = tuple[str, Position, int, str]  # label, position, node limit, kind
CASE_KINDS = ("line", "brute")
"""Cases other than a plain position: by the first word of their label."""


REPOSITORY = Path(__file__).resolve().parents[1]


def brute_force() -> ModuleType:
    """tests/solver/brute.py, the brute-force reference (the repository is put
    on the path when the script runs on its own)."""
    if str(REPOSITORY) not in sys.path:
        sys.path.insert(0, str(REPOSITORY))
    import tests.solver.brute

    return tests.solver.brute


def brute_position(rng: random.Random, game: str) -> Position:
    """A small position of the game on a table of a few columns."""
    rules = dataclasses.replace(random_rules(rng, game), columns=rng.choice(BRUTE_COLUMNS))
    position: Position = brute_force().small_game_position(
        rng.getrandbits(32), rules, rng.choice(BRUTE_CARDS))
    return position


def cases(seed: int, deals: int, positions: int, lines: int, game: str = "klondike",
          brute: int = 0) -> Iterator[tuple[str, Position]]:
    """``deals`` fresh default deals, ``positions`` random positions, then the
    starts of ``lines`` line cases (labelled ``line``), then ``brute`` small
    positions (labelled ``brute``)."""
    rng = random.Random(seed)
    default = game_rules(game)
    for _ in range(deals):
        number = rng.getrandbits(64)
        yield f"deal {number}", Position.initial(Deal.from_number(number), default)
    for _ in range(positions):
        yield "position", random_position(rng, game)
    for index in range(lines):
        number = rng.getrandbits(64)
        rules = default if index % 2 == 0 else random_rules(rng, game)
        yield f"line of deal {number}", Position.initial(Deal.from_number(number), rules)
    for _ in range(brute):
        yield "brute", brute_position(rng, game)


def compare(case: Case) -> Outcome:
    """Search one case every way (a line case: each position of its line)."""
    label, position, node_limit, kind = case
    if kind == "brute":
        return compare_brute(label, position, node_limit)
    if kind != "line":
        return compare_position(label, position, node_limit, None)
    outcome = Outcome()
    won = solve(position, node_limit=node_limit, prune=Prune.NONE, sides=Sides.NONE)
    if not won.solved:
        return outcome
    board = position.copy()
    for number, move in enumerate(won.moves):
        if number % LINE_STEP == 0:
            outcome.add(compare_position(f"{label}, move {number}", board, node_limit, "solved"))
        board.apply(move)
    return outcome


def compare_position(label: str, position: Position, node_limit: int,
                     known: str | None) -> Outcome:
    """Search a position every way; every decided verdict must agree with the
    ``known`` one (proven), or else with the default's."""
    outcome = Outcome()
    verdicts: dict[str, str] = {}
    for search in SEARCHES:
        result = solve(position, node_limit=node_limit, prune=search.prune, sides=search.sides,
                       memory_limit=search.memory)
        if search.name == TINY:
            outcome.forgotten += result.forgotten
            outcome.forgetting += result.forgotten > 0
        if search.name in (DEFAULT, AT_ONCE):
            for flag, count in result.fired.items():
                outcome.fired[flag] = outcome.fired.get(flag, 0) + count
            outcome.side_wins += result.side_wins
            outcome.relaxed_ended += result.relaxed_ended
            outcome.kept_hits += result.kept_hits
        if search.name == BARE_EVERY:
            for flag in (Prune.BARE_BASES, Prune.SHARED_BASE, Prune.SQUEEZE, Prune.GONE_BASE,
                         Prune.CHAIN):
                outcome.fired[flag] = outcome.fired.get(flag, 0) + result.fired[flag]
        if result.result != "unknown":
            verdicts[search.name] = result.result
    reference = known or verdicts.get(DEFAULT) or verdicts.get(AT_ONCE)
    if reference is None:
        return outcome
    for name, verdict in verdicts.items():
        if not known and (name == DEFAULT or (name == AT_ONCE and DEFAULT not in verdicts)):
            continue
        outcome.compared += 1
        if verdict != reference:
            outcome.disagreements.append(
                f"{label} ({position.rules.to_text()}): {DEFAULT} {reference}, {name} {verdict}\n"
                f"  {position.to_text()}"
            )
    return outcome


def compare_brute(label: str, position: Position, node_limit: int) -> Outcome:
    """A small position: the default search and the one without pruning
    against the brute force (skipped when it is too large for that)."""
    try:
        expected = "solved" if brute_force().winnable(position, BRUTE_LIMIT) else "unsolvable"
    except RuntimeError:
        return Outcome()
    outcome = Outcome()
    for search in (SEARCHES[0], SEARCHES[2], *(s for s in SEARCHES if s.name == BARE_EVERY)):
        result = solve(position, node_limit=node_limit, prune=search.prune, sides=search.sides)
        outcome.compared += 1
        if result.result == "unsolvable":
            outcome.brute_lost += 1
        if result.result != expected:
            outcome.disagreements.append(
                f"{label} ({position.rules.to_text()}): brute force {expected}, "
                f"{search.name} {result.result}\n  {position.to_text()}"
            )
    return outcome


def run(seed: int, deals: int, positions: int, node_limit: int, jobs: int = 1,
        report: bool = False, lines: int = 0, game: str = "klondike",
        brute: int = 0) -> Outcome:
    """Every case's outcome, added up."""
    total = Outcome()
    tasks = ((label, position, node_limit, label.split()[0])
             for label, position in cases(seed, deals, positions, lines, game, brute))
    started = time.perf_counter()
    done = 0
    with multiprocessing.Pool(jobs) if jobs > 1 else contextlib.nullcontext() as pool:
        outcomes = pool.imap_unordered(compare, tasks, chunksize=4) if pool else map(compare, tasks)
        for outcome in outcomes:
            total.add(outcome)
            done += 1
            for text in outcome.disagreements:
                print("DISAGREEMENT " + text, flush=True)
            if report and done % REPORT_EVERY == 0:
                print(f"  {done} cases, {total.compared} comparisons, "
                      f"{len(total.disagreements)} disagreements, "
                      f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5000, help="fresh default deals")
    parser.add_argument("--positions", type=int, default=5000, help="random positions")
    parser.add_argument("--lines", type=int, default=1000, help="line cases")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--node-limit", type=int, default=200_000, help="nodes per search")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--game", choices=GAMES, default="klondike")
    parser.add_argument("--brute", type=int, default=0, help="small brute-force positions")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    total = run(args.seed, args.deals, args.positions, args.node_limit, args.jobs, report=True,
                lines=args.lines, game=args.game, brute=args.brute)
    print(f"{args.game}: {args.deals} fresh default deals, {args.positions} random positions, "
          f"{args.lines} line cases, {args.brute} brute-force cases "
          f"(seed {args.seed}, {args.node_limit} nodes per search, "
          f"{time.perf_counter() - started:.0f} s)")
    print(f"comparisons decided by both sides: {total.compared}")
    print(f"disagreements: {len(total.disagreements)}")
    if args.brute:
        print(f"brute-force comparisons of lost positions: {total.brute_lost}")
    print("firings (default searches; BARE_BASES, SHARED_BASE, SQUEEZE, GONE_BASE and CHAIN "
          "with rules 20 to 24 everywhere): " + ", ".join(
        f"{flag.name} {total.fired.get(flag, 0)}" for flag in SINGLE_RULES)
        + f", side-search wins {total.side_wins}, rule 11's searches ended by a draw-1 win "
        f"without recall {total.relaxed_ended}")
    print(f"table hits on an entry stored under another kept-out set (rule 12): "
          f"{total.kept_hits}")
    print(f"entries forgotten by the tiny table ({TINY_MEMORY} bytes): {total.forgotten}, "
          f"in {total.forgetting} positions")
    return 1 if total.disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
